"""Specification: a key that names its value's currency and unit ("usd_per_gb_month: 0.02"
under ``storage:``) prices the storage per TB-month (our own examples, never a blind file)."""

from __future__ import annotations

import json
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


def test_a_json_storage_price_per_gb_month_is_read_per_tb(tmp_path: Path) -> None:
    path = tmp_path / "export.json"
    path.write_text(json.dumps({
        "provider": "Example Cloud", "accelerator": "NVIDIA H100 SXM5 80GB", "gpu_count": 64,
        "price_usd_per_gpu_hour": 2.1,
        "storage": {"product": "object storage", "usd_per_gb_month": 0.023}}))
    assert _one(path).fields.storage_usd_per_tb_month == pytest.approx(23.0)


def test_a_yaml_storage_price_per_tib_in_euros(tmp_path: Path) -> None:
    path = tmp_path / "offer.yaml"
    path.write_text("vendor: Beispiel Rechenzentrum GmbH\naccelerator: NVIDIA H100 SXM5 80GB\n"
                    "gpu_count: 64\nprice_eur_per_gpu_hour: 2.10\n"
                    "storage:\n  filesystem: Lustre\n  capacity_tb: 200\n"
                    "  eur_per_tib_month: 22\n")
    f = _one(path).fields
    assert f.storage_usd_per_tb_month == pytest.approx(22 * 1.1 / 1.099511627776)
    assert f.storage_type == "lustre"


@pytest.mark.parametrize(("label", "value", "usd"), [
    ("Speicherpreis", "0,03 € / GB / Monat", 0.03 * 1000 * 1.1),
    ("Storage price", "$0.025/GB/month", 25.0),
])
def test_a_storage_price_per_gb_month_is_1000_times_per_tb(tmp_path: Path, label: str,
                                                           value: str, usd: float) -> None:
    path = write_workbook(tmp_path / "s.xlsx", {"Offer": [
        ["Vendor", "Example Cloud"], ["GPU", "NVIDIA H100 SXM5 80GB"], ["Number of GPUs", 64],
        ["Price per GPU-hour", "USD 2.10"], [label, value]]})
    assert _one(path).fields.storage_usd_per_tb_month == pytest.approx(usd)


@pytest.mark.parametrize(("label", "value", "usd", "size", "kind"), [
    ("Speicher VAST (500 TB), € pro TB-Monat", 18, 18 * 1.1, 500, "vast"),
    ("Stockage Lustre 300 To, € par Go/mois", 0.12, 0.12 * 1000 * 1.1, 300, "lustre"),
    ("Storage rate (USD / TB-month)", 30, 30.0, None, None),
])
def test_a_storage_label_names_the_unit_of_a_bare_price(
        tmp_path: Path, label: str, value: float, usd: float, size: float | None,
        kind: str | None) -> None:
    path = write_workbook(tmp_path / "s.xlsx", {"Offer": [
        ["Vendor", "Example Cloud"], ["GPU", "NVIDIA H100 SXM5 80GB"], ["Number of GPUs", 64],
        ["Price per GPU-hour", "USD 2.10"], [label, value]]})
    f = _one(path).fields
    assert f.storage_usd_per_tb_month == pytest.approx(usd)
    assert (f.storage_capacity_tb, f.storage_type) == (size, kind)
