"""Specification: a purchase bundled with hosting. A price whose own basis is per kW-month (or
per kWh) hosts the hardware, whatever its label calls it ("Pris", "Price"); servers counted per
rack are not the offer's servers. Small examples of our own, in Danish and English."""

from __future__ import annotations

from pathlib import Path

import pytest
from workbooks import write_sheet

from evaltool.normalize.core import normalize_files


@pytest.mark.parametrize(("rows", "fx"), [
    ([["Eksempel Datacenter ApS, København — CVR 12 34 56 78"],
      ["Pos.", "Beskrivelse", "Antal", "Enhed", "Pris pr. enhed (DKK)", "Beløb (DKK)"],
      [1, "GPU-server, 8 × NVIDIA H200 141 GB", 4, "stk.", "2.000.000,00", "8.000.000,00"],
      [],
      ["Colocation"],
      ["Effekt pr. server", "10,0 kW"],
      ["Antal racks", "1 (4 servere pr. rack)"],
      ["Pris", "DKK 1.000 pr. kW pr. måned, inkl. strøm"],
      ["Afskrivningsperiode", "48 måneder"]], {"DKK": 0.145}),
    ([["Example Colo Ltd"],
      ["Item", "Description", "Qty", "Unit", "Unit price (USD)", "Amount (USD)"],
      [1, "GPU server, 8 x NVIDIA H200 141GB", 4, "pcs", 290000, 1160000],
      [],
      ["Power per server", "10.0 kW"],
      ["Racks", "1 (4 servers per rack)"],
      ["Price", "USD 145 per kW per month, power included"],
      ["Depreciation period", "48 months"]], {}),
])
def test_a_price_per_kw_month_hosts_the_purchase(tmp_path: Path, rows: list[list[object]],
                                                 fx: dict[str, float]) -> None:
    result = normalize_files([write_sheet(tmp_path / "bundle.xlsx", rows)], fx)
    assert not result.not_evaluated, result.not_evaluated
    (offer,) = result.offers
    f = offer.fields
    assert f.offer_kind == "purchase"
    assert (f.node_count, f.gpu_count) == (4, 32)  # not the 4 servers of one rack
    assert f.colocation_usd_per_kw_month == pytest.approx(145, rel=0.01)
    assert f.capex_usd == pytest.approx(1_160_000, rel=0.01)
    assert f.price_usd_per_gpu_hour == pytest.approx(
        (f.capex_usd / 48 + 4 * 10.0 * f.colocation_usd_per_kw_month) / (32 * 730))
