"""Specification: rows of a tabular export (a procurement portal's CSV, a line-item sheet) that
each name a different accelerator and a price are alternative offers, one each; a line that
names no accelerator (storage, an optional add-on) is never an offer of its own.  Our own
examples in other languages and layouts, never a blind file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from workbooks import write_workbook

from evaltool.normalize.core import normalize_files


def _offers(path: Path) -> list[Any]:
    result = normalize_files([path], {})
    return sorted(result.offers, key=lambda o: o.fields.accelerator or "")


def test_a_german_semicolon_export_with_three_accelerators_gives_three_offers(
        tmp_path: Path) -> None:
    path = tmp_path / "ausschreibung.csv"
    path.write_text(
        "Anfrage;Pos;Lieferant;Beschreibung;Menge;Einheit;Einzelpreis;Preiseinheit;Waehrung\n"
        "A-77;1;Beispiel Rechenzentrum GmbH;Server mit 8x NVIDIA H100 SXM 80GB;4;Knoten;"
        "20,00;pro Knoten-Stunde;USD\n"
        "A-77;2;Beispiel Rechenzentrum GmbH;Server mit 8x NVIDIA H200 141GB;2;Knoten;"
        "28,00;pro Knoten-Stunde;USD\n"
        "A-77;3;Beispiel Rechenzentrum GmbH;Server mit 8x AMD Instinct MI300X 192GB;3;Knoten;"
        "16,00;pro Knoten-Stunde;USD\n", encoding="utf-8")
    offers = _offers(path)
    got = {o.fields.accelerator: (o.fields.gpu_count, o.fields.price_usd_per_gpu_hour)
           for o in offers}
    assert got == {"H100-SXM": (32, pytest.approx(2.5)), "H200": (16, pytest.approx(3.5)),
                   "MI300X": (24, pytest.approx(2.0))}


def test_a_french_line_item_sheet_with_an_optional_storage_line(tmp_path: Path) -> None:
    path = write_workbook(tmp_path / "devis.xlsx", {"Devis": [
        ["Fournisseur", "Exemple Calcul SAS"],
        [],
        ["Désignation", "Quantité", "Prix unitaire", "Unité"],
        ["Nœud 8 x NVIDIA H100 SXM5 80 Go", 10, "USD 18.00", "par nœud-heure"],
        ["Nœud 8 x NVIDIA L40S 48 Go", 6, "USD 8.00", "par nœud-heure"],
        ["Stockage partagé (option)", 200, "USD 20.00", "par To-mois"],
    ]})
    offers = _offers(path)
    assert [(o.fields.accelerator, o.fields.gpu_count) for o in offers] == [
        ("H100-SXM", 80), ("L40S", 48)]
    assert offers[0].fields.price_usd_per_gpu_hour == pytest.approx(2.25)
    assert offers[1].fields.price_usd_per_gpu_hour == pytest.approx(1.0)


def test_lines_naming_one_accelerator_and_its_storage_stay_one_offer(tmp_path: Path) -> None:
    path = tmp_path / "quote.csv"
    path.write_text(
        "Vendor,Description,Qty,Unit price,Unit\n"
        "Example Cloud,HGX H100 SXM 80GB 8-GPU node,4,20.00 USD,per node-hour\n"
        "Example Cloud,Shared storage,100,25.00 USD,per TB-month\n", encoding="utf-8")
    (offer,) = _offers(path)
    assert offer.fields.gpu_count == 32


@pytest.mark.parametrize(("head", "note"), [
    ("Vendor comments", "Root access; dedicated InfiniBand fabric"),
    ("Supplier_Notes", "root access; dedicated IB fabric"),
])
def test_a_qualified_notes_column_states_each_lines_own_facts(
        tmp_path: Path, head: str, note: str) -> None:
    path = tmp_path / "rfq.csv"
    path.write_text(
        f"Supplier,Description,Qty,Unit price,Price unit,Currency,{head}\n"
        f"Example Cloud,HGX H100 SXM 80GB 8-GPU node,4,20.00,per node-hour,USD,\"{note}\"\n"
        "Example Cloud,HGX B200 180GB 8-GPU node,2,40.00,per node-hour,USD,\n",
        encoding="utf-8")
    offers = {o.fields.accelerator: o.fields for o in _offers(path)}
    assert offers["H100-SXM"].vendor == "Example Cloud"  # the notes are never the name
    assert offers["H100-SXM"].root_access is True
    assert offers["H100-SXM"].network_dedicated is True
    assert offers["B200"].root_access is None
    assert offers["B200"].price_usd_per_gpu_hour == pytest.approx(5.0)
