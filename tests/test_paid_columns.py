"""Specification: a line-item table with one column of one-off amounts and one of monthly
amounts ("One-time | Monthly", "Einmalig | Monatlich") bills each line by the column its
amount stands in: the monthly lines (colocation, services) are running costs, never added to
the purchase price.  Our own examples (never a blind file)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from workbooks import write_workbook

from evaltool.normalize.core import normalize_files


def _one(path: Path) -> Any:
    result = normalize_files([path], {"EUR": 1.0})
    assert not result.not_evaluated, result.not_evaluated
    (offer,) = result.offers
    return offer


@pytest.mark.parametrize("heads, hardware, power, services", [
    (["Position", "Menge", "Stückpreis", "Einmalig (EUR)", "Monatlich (EUR)"],
     "HGX H200 Server: 8 x NVIDIA H200 141GB, 2 x Xeon 8568Y+",
     "Strom und Kühlung, 20 kW Anschlussleistung", "Remote Hands und Monitoring"),
    (["Item", "Qty", "Unit price", "One-time", "Monthly"],
     "HGX H200 server: 8 x NVIDIA H200 141GB, 2 x Xeon 8568Y+",
     "Committed power, 20 kW, cooling included", "Remote hands and monitoring"),
])
def test_monthly_lines_are_running_costs_not_capex(tmp_path: Path, heads: list[str],
                                                   hardware: str, power: str,
                                                   services: str) -> None:
    path = write_workbook(tmp_path / "bundle.xlsx", {"Quote": [
        ["Example Colo Systems GmbH"],
        ["Hardware purchase + colocation"],
        heads,
        [hardware, 2, 250000, 500000, None],
        [power, 20, 150, None, 3000],
        [services, 1, 1800, None, 1800],
    ]})
    f = _one(path).fields
    assert f.offer_kind == "purchase"
    assert f.capex_usd == pytest.approx(500_000)
    assert f.opex_usd_per_month == pytest.approx(1_800)
    assert f.colocation_usd_per_kw_month == pytest.approx(150)
