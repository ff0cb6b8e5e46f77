"""Specification: a storage price per TiB-month or PB-month is converted to per TB-month
(1 TiB = 1.0995 TB), never read as if the unit were a TB.  Our own examples."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from workbooks import write_workbook

from evaltool.normalize.core import normalize_files
from evaltool.normalize.storage_lines import tb_per_priced_unit


def _one(path: Path) -> Any:
    result = normalize_files([path], {"EUR": 1.0})
    assert not result.not_evaluated, result.not_evaluated
    (offer,) = result.offers
    return offer


@pytest.mark.parametrize("unit, tb", [
    ("TiB-month", 1.099511627776), ("per PB per month", 1000.0), ("€/To/mois", 1.0),
    ("TB-month", 1.0), ("month", 1.0), ("PiB/Monat", 1125.899906842624),
])
def test_the_capacity_unit_of_a_storage_price(unit: str, tb: float) -> None:
    assert tb_per_priced_unit(unit) == pytest.approx(tb)


def test_a_json_line_item_priced_per_tib_month(tmp_path: Path) -> None:
    path = tmp_path / "quote.json"
    path.write_text(json.dumps({
        "provider": "Example Cloud LLC", "currency": "USD",
        "line_items": [
            {"description": "NVIDIA H100 SXM 80GB", "quantity": 16, "unit": "GPU-hour",
             "unit_price": "2.50"},
            {"description": "Managed Lustre, 100 TiB provisioned", "quantity": 100,
             "unit": "TiB-month", "unit_price": "110.00"},
        ]}))
    f = _one(path).fields
    assert f.storage_usd_per_tb_month == pytest.approx(110 / 1.099511627776)


def test_a_table_line_priced_per_tib_month(tmp_path: Path) -> None:
    path = write_workbook(tmp_path / "angebot.xlsx", {"Angebot": [
        ["Beispiel Rechenzentrum GmbH"],
        ["Position", "Menge", "Einheit", "Preis (EUR)"],
        ["NVIDIA H100 SXM 80GB", 8, "GPU-Stunde", 2.2],
        ["Paralleles Dateisystem (Lustre)", 50, "TiB-Monat", 90],
    ]})
    f = _one(path).fields
    assert f.storage_usd_per_tb_month == pytest.approx(90 / 1.099511627776)
