"""Specification: the columns of a tabular export that name a field, in the export's own
spelling, are the facts of the offer whose line they stand on; a notes column is notes,
whoever wrote them (our own examples, never a blind file)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from evaltool.normalize.core import normalize_files


def _one(path: Path) -> Any:
    result = normalize_files([path], {"EUR": 1.1})
    assert not result.not_evaluated, result.not_evaluated
    (offer,) = result.offers
    return offer


def test_a_german_export_line_carries_its_term_region_and_notes(tmp_path: Path) -> None:
    path = tmp_path / "export.csv"
    path.write_text(
        "Anfrage,Pos,Lieferant,Beschreibung,Menge,Einheit,Einzelpreis,Preiseinheit,Waehrung,"
        "Laufzeit_Monate,Region,Lieferanten_Bemerkungen\n"
        "A-77,1,Beispiel Cloud GmbH,HGX H100 SXM5 80GB 8-GPU Knoten,4,Knoten,20.00,"
        "pro Knoten-Stunde,EUR,24,eu-central (Frankfurt),Dediziertes Netz; Root-Zugriff: ja\n"
        "A-77,2,Beispiel Cloud GmbH,Gemeinsamer Speicher,100,TB,20.00,pro TB-Monat,EUR,,,"
        "Optional\n", encoding="utf-8")
    offer = _one(path)
    assert offer.fields.term_months == 24
    assert offer.fields.region == "eu-central (Frankfurt)"
    assert offer.fields.root_access is True
    assert offer.fields.vendor == "Beispiel Cloud GmbH"  # never the notes column


def test_an_english_export_with_vendor_comments(tmp_path: Path) -> None:
    path = tmp_path / "portal.csv"
    path.write_text(
        "Line,Vendor,Description,Qty,UoM,Unit Price,Price Basis,Currency,Contract Term (months),"
        "Vendor comments\n"
        "1,Example GPU Cloud LLC,NVIDIA H200 141GB GPU,16,GPUs,3.75,per GPU-hour,USD,"
        "36,root access granted; dedicated InfiniBand fabric\n"
        "2,Example GPU Cloud LLC,Premium support,1,month,1500.00,per month,USD,,Optional\n",
        encoding="utf-8")
    offer = _one(path)
    assert offer.fields.term_months == 36
    assert offer.fields.root_access is True
    assert offer.fields.vendor == "Example GPU Cloud LLC"
