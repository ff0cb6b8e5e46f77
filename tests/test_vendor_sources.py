"""Specification: where the vendor's name comes from when the rows name no provider.

A data centre's resilience rating ("Tier III", "Uptime Tier IV", "Rated-3", "TIA-942 Rated 3")
rates a facility; it is never a company's name, even under a column such as "provider_tier".
A marketplace or exporter named in the file's comment or header lines is then the vendor, with
a warning that says where the name was taken from.  Our own small examples, never a blind file.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from workbooks import write_workbook

from evaltool.normalize.core import normalize_files
from evaltool.normalize.vendor import facility_tier


def _offers(path: Path) -> list[Any]:
    result = normalize_files([path], {})
    assert not result.not_evaluated, result.not_evaluated
    return result.offers


def _codes(offer: Any) -> set[str]:
    return {warning["code"] for warning in offer.warnings}


@pytest.mark.parametrize("rating", [
    "Tier III", "Tier 3", "Tier IV", "Tier-II", "Uptime Tier IV", "Uptime Institute Tier III",
    "Rated-3", "Rated 4", "TIA-942 Rated 3", "ANSI/TIA-942-B Rated-2", "(Tier III)",
    "Tier III DC, Dallas TX", "Tier IV data centre – Frankfurt", "Rated-3 (Madrid)"])
def test_a_data_centre_rating_is_never_a_company_name(rating: str) -> None:
    assert facility_tier(rating)


@pytest.mark.parametrize("name", [
    "Tier One Cloud", "Tiered Compute Ltd", "Example Exchange", "Rated", "Tier", "Tier 5",
    "Tier One Cloud, Inc.", "Tier 5 Networks - Dallas"])
def test_a_name_with_such_a_word_is_still_a_name(name: str) -> None:
    assert not facility_tier(name)


def test_a_marketplace_named_in_a_csv_comment_is_the_vendor_not_the_tier_column(
        tmp_path: Path) -> None:
    path = tmp_path / "saved_search.csv"
    path.write_text(
        "# Example Exchange - saved search export\n"
        "# Exported 2030-01-02 by buyer@; sellers are anonymised until contract.\n"
        "listing_id,provider_tier,gpu,gpus_per_node,nodes,price_usd_per_gpu_hr,commit_months\n"
        "EX-1,Tier III,H100 SXM5 80GB,8,2,1.89,1\n"
        "EX-2,Tier IV,H100 SXM5 80GB,8,4,2.19,6\n", encoding="utf-8")
    offers = _offers(path)
    assert [o.fields.vendor for o in offers] == ["Example Exchange", "Example Exchange"]
    assert [o.fields.term_months for o in offers] == [1, 6]
    for offer in offers:
        assert {"vendor-is-facility-tier", "vendor-not-labelled"} <= _codes(offer)
        taken = next(w for w in offer.warnings if w["code"] == "vendor-not-labelled")
        assert "comment lines" in str(taken["message"])  # says where the name was taken from


def test_a_german_export_with_a_rating_under_anbieter_takes_the_title_row(
        tmp_path: Path) -> None:
    path = write_workbook(tmp_path / "export.xlsx", {"Suche": [
        ["Beispielbörse - Export der gespeicherten Suche"],
        [],
        ["Angebot", "Anbieter", "GPU", "Anzahl GPUs", "Preis USD pro GPU-Stunde",
         "Laufzeit (Monate)"],
        ["BB-7", "TIA-942 Rated 3", "NVIDIA H100 SXM5 80GB", 16, 2.05, 3],
    ]})
    offers = _offers(path)
    assert [o.fields.vendor for o in offers] == ["Beispielbörse"]
    assert offers[0].fields.term_months == 3
    assert "vendor-is-facility-tier" in _codes(offers[0])


def test_a_broker_sheet_whose_supplier_rows_hold_a_place_and_a_rate_names_the_broker(
        tmp_path: Path) -> None:
    """'Supplier location | Tier III DC, Dallas TX' rates a facility and 'Supplier rate
    ($/GPU/hr) | 2' is a figure: neither is who sells; the letterhead names the broker."""
    import openpyxl

    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Shortlist"
    ws["A1"] = "Example Exchange LLC — Capacity Shortlist"
    ws["B3"], ws["C3"] = "Option A", "Option B"
    for r, row in enumerate([
            ["Supplier location", "Tier III DC, Dallas TX", "Tier IV data centre – Frankfurt"],
            ["GPU", "NVIDIA H100 SXM 80GB", "NVIDIA H200 141GB"],
            ["GPUs / node", 8, 8], ["Nodes", 4, 2], ["Term", "6 months", "12 months"],
            ["Supplier rate ($/GPU/hr)", 2, 2.8], ["All-in price per GPU-hour", 2.15, 3.01]],
            start=4):
        for c, value in enumerate(row, start=1):
            ws.cell(r, c, value)
    path = tmp_path / "shortlist.xlsx"
    wb.save(path)
    offers = _offers(path)
    assert [o.fields.vendor for o in offers] == ["Example Exchange LLC"] * 2
    assert [o.fields.price_usd_per_gpu_hour for o in offers] == [2.15, 3.01]
    assert all({"vendor-is-facility-tier", "vendor-is-a-figure"} <= _codes(o) for o in offers)
