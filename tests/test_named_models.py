"""Specification: a sentence that names another accelerator is about another offer; one that
names this offer's accelerator beats a general sentence (our own examples, never a blind
file)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from workbooks import write_workbook

from evaltool.normalize.core import normalize_files


def _one(path: Path) -> Any:
    result = normalize_files([path], {"EUR": 1.1})
    assert not result.not_evaluated, result.not_evaluated
    (offer,) = result.offers
    return offer


@pytest.mark.parametrize(("gpu", "note", "dedicated"), [
    ("NVIDIA A100 SXM4 80GB",
     "H100 nodes run on a dedicated InfiniBand fabric; A100 nodes are on a shared Ethernet "
     "network.", False),
    ("NVIDIA H100 SXM5 80GB",
     "H100 nodes run on a dedicated InfiniBand fabric; A100 nodes are on a shared Ethernet "
     "network.", True),
    ("NVIDIA L40S 48GB",
     "Los nodos H100 usan una red InfiniBand dedicada; los nodos L40S están en una red "
     "Ethernet compartida con otros clientes.", False),
])
def test_the_clause_naming_this_offers_accelerator_states_its_network(
        tmp_path: Path, gpu: str, note: str, dedicated: bool) -> None:
    path = write_workbook(tmp_path / "q.xlsx", {"Offer": [
        ["Vendor", "Example Cloud"], ["GPU", gpu], ["Number of GPUs", 32],
        ["Price per GPU-hour", "USD 2.00"], [],
        ["Your own fabric, not shared with anyone."], [note]]})
    assert _one(path).fields.network_dedicated is dedicated
