"""Specification: a terms sheet's sentences state the offer's fields no labelled cell states,
in any language; a share of the monthly fee owed below the service level, with a cap, is the
credit cap whether or not the sentence says "credit" (our own examples, never a blind file)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from workbooks import write_workbook

from evaltool.normalize.core import normalize_files

_OFFER = [["Vendor", "Example Cloud"], ["GPU", "NVIDIA H100 SXM5 80GB"], ["Number of GPUs", 64],
          ["Price per GPU-hour", "USD 2.10"]]


def _one(path: Path) -> Any:
    result = normalize_files([path], {})
    assert not result.not_evaluated, result.not_evaluated
    (offer,) = result.offers
    return offer


@pytest.mark.parametrize(("sentence", "cap"), [
    # Polish: a discount owed below the service level, at most 30%
    ("Za każdy punkt procentowy poniżej SLA przysługuje rabat 3% opłaty miesięcznej, "
     "łącznie nie więcej niż 30% opłaty miesięcznej.", 30.0),
    # English, no word for credit: a share of the monthly fees below target, capped
    ("For each 0.5% below target, 4% of monthly fees is refunded, capped at 40%.", 40.0),
])
def test_a_terms_sentence_states_the_credit_cap(tmp_path: Path, sentence: str,
                                                cap: float) -> None:
    path = write_workbook(tmp_path / "t.xlsx", {"Offer": _OFFER,
                                                "Terms": [["Service levels"], [sentence]]})
    assert _one(path).fields.sla_max_credit_pct == cap


def test_a_note_beside_the_uptime_states_the_credit_cap(tmp_path: Path) -> None:
    path = write_workbook(tmp_path / "n.xlsx", {"Offer": [
        *_OFFER, ["Dostupnost", "99,5 %", "kredit max. 10 % měsíční platby"]]})
    assert _one(path).fields.sla_max_credit_pct == 10.0


def test_a_price_discount_is_no_credit_cap(tmp_path: Path) -> None:
    path = write_workbook(tmp_path / "d.xlsx", {"Offer": _OFFER, "Terms": [
        ["Warunki handlowe"], ["Rabat 10% przy umowie na 24 miesiące, maksymalnie 15%."]]})
    assert _one(path).fields.sla_max_credit_pct is None


@pytest.mark.parametrize("ladder", [
    "Gutschrift 5 % / 10 % / 30 % der Monatsgebühr bei Verfügbarkeit unter 99,9 % / 99,5 % / 99 %",
    "Service credits: 10%, 20% and 50% of the monthly fee below 99.95%, 99.5% and 99%",
])
def test_the_top_of_a_credit_ladder_is_the_cap_with_a_warning(tmp_path: Path,
                                                             ladder: str) -> None:
    path = write_workbook(tmp_path / "l.xlsx", {"Offer": [*_OFFER, ["SLA", "99.9 %", ladder]]})
    offer = _one(path)
    assert offer.fields.sla_max_credit_pct in (30.0, 50.0)
    assert any(w.get("code") == "credit-cap-from-ladder" for w in offer.warnings)


def test_one_credit_below_one_threshold_is_no_ladder(tmp_path: Path) -> None:
    path = write_workbook(tmp_path / "o.xlsx", {"Offer": [
        *_OFFER, ["SLA", "99.9 %", "Service credit of 10% of the monthly fee below 99.9%"]]})
    assert _one(path).fields.sla_max_credit_pct is None


@pytest.mark.parametrize(("row", "upfront"), [
    (["Zahlung", "monatlich im Nachhinein, keine Vorauszahlung"], 0.0),
    (["Facturación mensual, sin pago anticipado."], 0.0),  # a note line
    (["Payment", "No upfront; a 10% deposit is due at signature."], None),
])
def test_a_sentence_saying_nothing_is_paid_up_front(tmp_path: Path, row: list[str],
                                                    upfront: float | None) -> None:
    rows = [*_OFFER, ["Term", "12 months"], *([[], ["Notes"]] if len(row) == 1 else []), row]
    path = write_workbook(tmp_path / "u.xlsx", {"Offer": rows})
    assert _one(path).fields.upfront_usd == upfront
