"""Specification: the vendor's name as the vendor writes it.  A partner after "×" is not the
vendor, an acronym in brackets is part of the name in any script, and a letterhead in capitals
with the legal form gives the legal form, in the case the document writes the name elsewhere.
Examples of our own (never a blind file)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from workbooks import write_workbook

from evaltool.normalize.core import normalize_files
from evaltool.normalize.vendor_forms import acronym_tail, as_written, without_partner

_OFFER = [["GPU", "NVIDIA H100 SXM5 80GB"], ["Number of GPUs", 64],
          ["Price per GPU-hour", "USD 2.10"]]


def _vendor(path: Path) -> Any:
    result = normalize_files([path], {})
    (offer,) = result.offers
    return offer.fields.vendor


@pytest.mark.parametrize("banner, vendor", [
    ("Kestrel Compute × Halden Labs — GPU capacity proposal", "Kestrel Compute"),
    ("Sternwarte Cloud in Zusammenarbeit mit Nordlicht AI – Angebot", "Sternwarte Cloud"),
    ("Centre de Calcul Rhodanien (CCR) — Proposition", "Centre de Calcul Rhodanien (CCR)"),
    ("Český Výpočetní Ústav (ČVÚ) – nabídka", "Český Výpočetní Ústav (ČVÚ)"),
])
def test_the_vendor_of_a_banner(tmp_path: Path, banner: str, vendor: str) -> None:
    path = write_workbook(tmp_path / "offer.xlsx", {"Offer": [[banner], [], *_OFFER]})
    assert _vendor(path) == vendor


def test_a_letterhead_in_capitals_keeps_its_legal_form_in_the_documents_case(
        tmp_path: Path) -> None:
    path = write_workbook(tmp_path / "offer.xlsx", {
        "Rates": [["Halcyon GPU Works — 2027 rate card"], [], *_OFFER],
        "Quote": [["HALCYON GPU WORKS, LTD. — Quote"], ["Customer: Example Labs"]]})
    assert _vendor(path) == "Halcyon GPU Works, Ltd."


def test_the_forms_in_isolation() -> None:
    assert without_partner("Acme Cloud x Beta AI") == "Acme Cloud"
    assert without_partner("8 x H100") == "8 x H100"  # no name after the x
    assert without_partner("Nimbus Cloud, an Orrery company") == "Nimbus Cloud"
    assert without_partner("Acme, Inc.") == "Acme, Inc."
    assert acronym_tail("Śląskie Centrum (ŚCS)")
    assert not acronym_tail("Acme Cloud (the Provider)")
    assert as_written("ACME CLOUD, INC.", ["Acme Cloud - prices"]) == "Acme Cloud, Inc."
    assert as_written("ACME CLOUD, INC.", ["nothing else"]) == "ACME CLOUD, INC."


def test_a_letterhead_only_in_capitals_gives_the_form_its_usual_case(tmp_path: Path) -> None:
    path = write_workbook(tmp_path / "offer.xlsx", {"Offer": [
        ["NORDKAPP DATA CENTRES LTD"], ["Unit 2, Example Park · Company No. 123"], [],
        *_OFFER]})
    assert _vendor(path) == "Nordkapp Data Centres Ltd"
