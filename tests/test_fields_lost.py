"""Specification: fields an offer states that must not be lost once the offer is found.
Each class is a shape (a number convention, a value's own form, a phrase), shown by small
examples of our own in several languages, never a blind file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from workbooks import write_workbook

from evaltool.normalize.core import normalize_files

_PRICED = [["GPU", "NVIDIA H100 SXM5 80GB"], ["Number of GPUs", 64],
           ["Price per GPU-hour", "USD 2.00"]]


def _one(path: Path) -> Any:
    result = normalize_files([path], {})
    assert not result.not_evaluated, result.not_evaluated
    (offer,) = result.offers
    return offer


@pytest.mark.parametrize(("label", "value", "other"), [
    ("Minne", "3 072 GB DDR5", ["Lagring", "VAST, 1 000 TB"]),       # a zero-led group
    ("Pamięć RAM", "2 304 GB DDR5", ["Opłata", "USD 12 345,00"]),     # grouped amounts
    ("Mémoire", "1 536 Go DDR5", ["Frais", "USD 4 500,00 une fois"]),
])
def test_a_space_grouped_thousand_follows_the_documents_own_convention(
        tmp_path: Path, label: str, value: str, other: list[str]) -> None:
    rows: list[list[Any]] = [["Vendor", "Example Cloud"], *_PRICED, [label, value], other]
    offer = _one(write_workbook(tmp_path / "q.xlsx", {"Q": rows}))
    assert offer.fields.cpu_memory_gb_per_node == float(value.split(" G")[0].replace(" ", ""))


@pytest.mark.parametrize("sentence", [
    "Jeder Knoten: 8× NVIDIA H100 SXM5 80 GB, 2× Intel Xeon Platinum 8480+, 2 048 GB DDR5, "
    "8× 3,84 TB NVMe",
    "Každý server: 8× NVIDIA H100 SXM5 80 GB, 2× Intel Xeon Platinum 8480+, 2 048 GB DDR5, "
    "8× 3,84 TB NVMe",
])
def test_a_zero_led_group_in_a_servers_description_is_a_thousand(
        tmp_path: Path, sentence: str) -> None:
    rows: list[list[Any]] = [["Vendor", "Example Servis"], *_PRICED, [], [sentence]]
    offer = _one(write_workbook(tmp_path / "q.xlsx", {"Q": rows}))
    assert offer.fields.cpu_memory_gb_per_node == 2048


@pytest.mark.parametrize(("label", "value", "field", "expected"), [
    ("Jobbkø", "Slurm", "orchestrator", "slurm"),
    ("ジョブ管理", "Slurm", "orchestrator", "slurm"),
    ("Planificator sarcini", "Kubernetes", "orchestrator", "kubernetes"),
    ("メモリ", "2,048GB DDR5", "cpu_memory_gb_per_node", 2048),
    ("Operativno", "1.536 GB DDR5", "cpu_memory_gb_per_node", 1536),
])
def test_a_value_whose_label_is_unknown_is_read_by_its_own_shape(
        tmp_path: Path, label: str, value: str, field: str, expected: object) -> None:
    rows: list[list[Any]] = [["Vendor", "Example Cloud"], *_PRICED, [label, value]]
    offer = _one(write_workbook(tmp_path / "q.xlsx", {"Q": rows}))
    assert getattr(offer.fields, field) == expected


@pytest.mark.parametrize(("label", "value", "upfront"), [
    ("Forskuddsbetaling", "Ingen", 0.0),
    ("Opłata wstępna", "0 USD", 0.0),
    ("Vorschuss", "keine", 0.0),
    ("Forskuddsbetaling", "USD 15 137 280,00", 15_137_280.0),   # every group of the run
])
def test_a_prepayment_in_other_languages_and_none_words(
        tmp_path: Path, label: str, value: str, upfront: float) -> None:
    rows: list[list[Any]] = [["Vendor", "Example Cloud"], *_PRICED, ["Term", "36 months"],
                             [label, value], ["Monthly", "USD 5 816 640,00"]]
    offer = _one(write_workbook(tmp_path / "q.xlsx", {"Q": rows}))
    assert offer.fields.upfront_usd == pytest.approx(upfront)
