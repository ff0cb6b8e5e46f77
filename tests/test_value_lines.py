"""Specification: a line-item table's line that is no line (a label and its value, a storage
line whose size is its quantity) and a term stated in words of any language (our own
examples, never a blind file)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from workbooks import write_workbook

from evaltool.normalize.core import normalize_files


def _one(path: Path) -> Any:
    result = normalize_files([path], {"EUR": 1.1, "CZK": 0.043, "HUF": 0.0027})
    assert not result.not_evaluated, result.not_evaluated
    (offer,) = result.offers
    return offer


def _lines(*rows: list[Any]) -> dict[str, list[list[Any]]]:
    return {"Angebot": [
        ["Anbieter", "Beispiel Rechenzentrum GmbH"],
        [],
        ["Position", "Menge", "Einzelpreis", "Gesamt"],
        ["NVIDIA H100 SXM5 80GB, 8 GPU je Knoten, GPU-Stunde", 64, "€ 2,10", "€ 134,40"],
        *rows]}


def test_a_priceless_line_named_for_the_term_states_the_term(tmp_path: Path) -> None:
    path = write_workbook(tmp_path / "laufzeit.xlsx", _lines(["Vertragslaufzeit", "24 Monate",
                                                              "", ""]))
    assert _one(path).fields.term_months == 24


def test_a_storage_line_states_its_size_in_the_quantity_column(tmp_path: Path) -> None:
    path = write_workbook(tmp_path / "speicher.xlsx", _lines(
        ["Paralleles Dateisystem VAST", "1,5 PB", "inklusive", "—"]))
    f = _one(path).fields
    assert f.storage_capacity_tb == pytest.approx(1500)
    assert f.storage_type == "vast"


def test_a_bom_lines_quantity_is_no_term(tmp_path: Path) -> None:
    # a priced line's quantity is a count of what it sells, whatever its description says
    path = write_workbook(tmp_path / "bom.xlsx", _lines(
        ["Support, Laufzeit-Paket", "12", "€ 100,00", "€ 1.200,00"]))
    assert _one(path).fields.term_months is None


@pytest.mark.parametrize(("label", "value", "months"), [
    ("Doba pronájmu", "12 měsíců", 12),  # Czech
    ("Időtartam", "6 hónap", 6),  # Hungarian
    ("Engagement", "36 mois", 36),  # French
])
def test_a_term_in_the_words_of_any_language(tmp_path: Path, label: str, value: str,
                                             months: int) -> None:
    path = write_workbook(tmp_path / "term.xlsx", {"Offer": [
        ["Vendor", "Example Cloud"], ["GPU", "NVIDIA H100 SXM5 80GB"], ["Number of GPUs", 64],
        ["Price per GPU-hour", "EUR 2.10"], [label, value]]})
    assert _one(path).fields.term_months == months


@pytest.mark.parametrize("note", [
    "Compromiso mínimo de 6 meses; facturación mensual por adelantado.",
    "Aftalen løber i 6 måneder fra levering.",
])
def test_a_term_stated_in_a_note(tmp_path: Path, note: str) -> None:
    path = write_workbook(tmp_path / "note.xlsx", {"Offer": [
        ["Vendor", "Example Cloud"], ["GPU", "NVIDIA H100 SXM5 80GB"], ["Number of GPUs", 64],
        ["Price per GPU-hour", "EUR 2.10"], [], ["Notes"], [note]]})
    assert _one(path).fields.term_months == 6


@pytest.mark.parametrize(("label", "value", "usd"), [
    ("Total contract (EUR)", 1_200_000, 1_320_000.0),
    ("Importo complessivo", "€ 900.000,00", 990_000.0),
])
def test_the_total_of_the_contract_is_the_minimum_commitment(tmp_path: Path, label: str,
                                                             value: Any, usd: float) -> None:
    path = write_workbook(tmp_path / "tcv.xlsx", {"Offer": [
        ["Vendor", "Example Cloud"], ["GPU", "NVIDIA H100 SXM5 80GB"], ["Number of GPUs", 64],
        ["Price per GPU-hour", "EUR 2.10"], ["Term", "12 months"], [label, value]]})
    assert _one(path).fields.min_commit_usd == pytest.approx(usd)
