"""Specification: a date's role read from the words of its label or sentence, in any language,
where no synonym names the field (our own examples, never a blind file)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import pytest
from workbooks import write_workbook

from evaltool.normalize import values as V
from evaltool.normalize.core import normalize_files
from evaltool.normalize.date_roles import date_role


def _one(path: Path) -> Any:
    result = normalize_files([path], {"EUR": 1.1, "PLN": 0.25})
    assert not result.not_evaluated, result.not_evaluated
    (offer,) = result.offers
    return offer


@pytest.mark.parametrize(("label", "role"), [
    ("Leistungsbeginn", "delivery_date"),
    ("Fecha de activación", "delivery_date"),
    ("Service go-live", "delivery_date"),
    ("Data rozpoczęcia usługi", "delivery_date"),
    # made available / ready for use, in languages no blind file uses this way
    ("Klar för användning", "delivery_date"),
    ("Einsatzbereit ab", "delivery_date"),
    ("Zpřístupnění serverů", "delivery_date"),
    ("Pronto per l'uso dal", "delivery_date"),
    ("Offer good through", "valid_until"),
    ("Oferta obowiązuje do", "valid_until"),
    ("Termine di scadenza", "valid_until"),
    ("Quote date", None),
    ("Datum", None),
    ("Contract end date", None),
    ("Valid from", None),
])
def test_a_label_names_a_dates_role_by_its_words(label: str, role: str | None) -> None:
    assert date_role(label) == role


@pytest.mark.parametrize(("text", "day"), [
    ("2027. 3. 8.", dt.date(2027, 3, 8)),  # Korean order: year, month, day
    ("2027. március 8.", dt.date(2027, 3, 8)),  # Hungarian
])
def test_a_year_first_date_with_dots_is_read(text: str, day: dt.date) -> None:
    assert V.parse_date(text).value == day


def test_a_year_first_number_before_a_word_is_no_date() -> None:
    with pytest.raises(V.ValueParseError):
        V.parse_date("2026. 3. 12 GPUs")


def _offer_rows(*extra: list[Any]) -> list[list[Any]]:
    return [["Anbieter", "Beispiel Rechenzentrum GmbH"], ["GPU", "NVIDIA H100 SXM5 80GB"],
            ["Anzahl GPUs", 64], ["Preis pro GPU-Stunde", "EUR 2,10"], *extra]


def test_a_start_label_unknown_to_the_synonyms_gives_the_delivery_date(tmp_path: Path) -> None:
    path = write_workbook(tmp_path / "beginn.xlsx", {"Angebot": _offer_rows(
        ["Angebotsdatum", "10.01.2027"], ["Leistungsbeginn", "1. März 2027"])})
    offer = _one(path)
    assert offer.fields.delivery_date == dt.date(2027, 3, 1)
    assert any(w.get("code") == "date-role-from-label" for w in offer.warnings)


def test_a_validity_label_in_a_cell_beside_another_date(tmp_path: Path) -> None:
    # a printed header line: "Data: ... | Oferta obowiązuje do: ..." in two cells of one row
    path = write_workbook(tmp_path / "waznosc.xlsx", {"Oferta": [
        ["Data: 05.01.2027", "Oferta obowiązuje do: 28.02.2027"],
        ["Dostawca", "Przykładowa Chmura Sp. z o.o."], ["GPU", "NVIDIA H100 SXM5 80GB"],
        ["Liczba GPU", 32], ["Cena za GPU-godzinę", "PLN 9,50"]]})
    offer = _one(path)
    assert offer.fields.valid_until == dt.date(2027, 2, 28)
    assert offer.fields.delivery_date is None  # the document's own date is neither


def test_a_contract_sheet_sentence_states_the_delivery_date(tmp_path: Path) -> None:
    path = write_workbook(tmp_path / "terms.xlsx", {
        "Offer": [["Vendor", "Example Cloud"], ["GPU", "NVIDIA H100 SXM5 80GB"],
                  ["Number of GPUs", 64], ["Price per GPU-hour", "USD 2.10"]],
        "Terms": [["Commercial terms"],
                  ["Activation of the service: 16 March 2027 for all nodes."],
                  ["We can hold this pricing until 20 February 2027."]]})
    offer = _one(path)
    assert offer.fields.delivery_date == dt.date(2027, 3, 16)
    assert offer.fields.valid_until == dt.date(2027, 2, 20)


def test_a_quote_date_alone_is_neither_delivery_nor_validity(tmp_path: Path) -> None:
    path = write_workbook(tmp_path / "dated.xlsx", {"Quote": [
        ["Vendor", "Example Cloud"], ["GPU", "NVIDIA H100 SXM5 80GB"], ["Number of GPUs", 64],
        ["Price per GPU-hour", "USD 2.10"], ["Quote date", "2027-01-10"],
        ["Contract end date", "2028-01-31"]]})
    offer = _one(path)
    assert offer.fields.delivery_date is None
    assert offer.fields.valid_until is None
