"""Specification: a colocation + hardware bundle.  The hardware is bought once (the capex), the
colocation is billed per kW and month, the services per month; a column of billing bases says
which is which whatever its header ("Billing", "Abrechnung", "Facturation"), and the effective
price is the capex over the depreciation period plus the running costs, per GPU-hour.
Examples of our own in German and French (never a blind file)."""

from __future__ import annotations

from pathlib import Path

import pytest
from workbooks import write_workbook

from evaltool.normalize.core import normalize_files


@pytest.mark.parametrize("head, once, per_kw, monthly, term", [
    ("Abrechnung", "einmalig", "pro kW pro Monat", "monatlich",
     "Abschreibung: 36 Monate"),
    ("Facturation", "unique", "par kW par mois", "mensuel", "Amortissement : 36 mois"),
])
def test_a_bundle_reads_its_billing_column(tmp_path: Path, head: str, once: str, per_kw: str,
                                           monthly: str, term: str) -> None:
    path = write_workbook(tmp_path / "bundle.xlsx", {"Bundle": [
        ["Beispiel Rechenzentren GmbH"],
        ["Section", "Item", "Qty", "Unit price EUR", "Total EUR", head],
        ["HW", "GPU server, 8 × NVIDIA H100 SXM 80GB", 4, 250_000, 1_000_000, once],
        ["Colo", "1 rack, 40 kW committed", 40, 150, 6_000, per_kw],
        ["Services", "Remote hands + monitoring", 1, 1_000, 1_000, monthly],
        [],
        [term],
    ]})
    result = normalize_files([path], {"EUR": 1.0})
    (offer,) = result.offers
    f = offer.fields
    assert f.offer_kind == "purchase"
    assert f.capex_usd == pytest.approx(1_000_000)
    assert f.colocation_usd_per_kw_month == pytest.approx(150)
    assert f.opex_usd_per_month == pytest.approx(1_000)
    assert f.node_count == 4  # the 40 kW are no count of nodes
    assert f.price_usd_per_gpu_hour == pytest.approx(
        (1_000_000 / 36 + 6_000 + 1_000) / (32 * 730))


def test_a_bundle_in_labelled_cells_reads_its_thousands_by_the_document(tmp_path: Path) -> None:
    # "1.200.000 €" can only group thousands with points: so does "2.000 € pro Monat".
    path = write_workbook(tmp_path / "colo.xlsx", {"Offer": [
        ["Beispiel Rechenzentrum GmbH – Colocation + Hardware"], [],
        ["Hardware", "4 × GPU-Server mit je 8 × NVIDIA H200 141 GB"],
        ["Kaufpreis Hardware (einmalig)", "1.200.000 €"],
        ["Colocation", "180 € pro kW und Monat, 40 kW vertraglich"],
        ["Managed Services", "2.000 € pro Monat"],
        ["Abschreibungsdauer", "36 Monate"],
        ["Leistung pro Server", "10 kW"]]})
    result = normalize_files([path], {"EUR": 1.0})
    (offer,) = result.offers
    f = offer.fields
    assert f.capex_usd == pytest.approx(1_200_000)
    assert f.opex_usd_per_month == pytest.approx(2_000)
    assert f.colocation_usd_per_kw_month == pytest.approx(180)
    assert f.price_usd_per_gpu_hour == pytest.approx(
        (1_200_000 / 36 + 40 * 180 + 2_000) / (32 * 730))
