"""Specification: a fee paid once at the start of a rental is its upfront payment, whatever the
language of its label; a recurring fee, a purchase and a stated upfront are left alone (our own
examples, never a blind file)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from workbooks import write_workbook

from evaltool.normalize.core import normalize_files
from evaltool.normalize.one_off_fees import names_one_off_fee


def _one(path: Path) -> Any:
    result = normalize_files([path], {"EUR": 1.1, "SEK": 0.1})
    assert not result.not_evaluated, result.not_evaluated
    (offer,) = result.offers
    return offer


@pytest.mark.parametrize(("label", "once"), [
    ("Einmalige Bereitstellungsgebühr", True),
    ("Engångsavgift för uppstart", True),
    ("Onboarding fee (one-off)", True),
    ("Frais de mise en route (unique)", True),
    ("Monthly fee", False),
    ("One-off", False),  # no fee named
    ("Einmalige Gebühr pro Monat", False),  # recurs
])
def test_a_label_names_a_fee_paid_once(label: str, once: bool) -> None:
    assert names_one_off_fee(label) is once


def test_a_german_one_off_fee_is_the_upfront_payment(tmp_path: Path) -> None:
    path = write_workbook(tmp_path / "einmalig.xlsx", {"Angebot": [
        ["Anbieter", "Beispiel Rechenzentrum GmbH"], ["GPU", "NVIDIA H100 SXM5 80GB"],
        ["Anzahl GPUs", 64], ["Preis pro GPU-Stunde", "EUR 2,10"], ["Laufzeit", "12 Monate"],
        ["Einmalige Bereitstellungsgebühr", "12.500 €"]]})
    offer = _one(path)
    assert offer.fields.upfront_usd == pytest.approx(12_500 * 1.1)
    assert any(w.get("code") == "upfront-from-one-off-fee" for w in offer.warnings)


def test_a_swedish_one_off_fee_is_the_upfront_payment(tmp_path: Path) -> None:
    path = write_workbook(tmp_path / "engang.xlsx", {"Offert": [
        ["Leverantör", "Exempel Moln AB"], ["GPU", "NVIDIA H100 SXM5 80GB"],
        ["Antal GPU", 32], ["Pris per GPU-timme", "SEK 21,00"], ["Avtalstid", "24 månader"],
        ["Engångsavgift för uppstart", "SEK 50 000"]]})
    assert _one(path).fields.upfront_usd == pytest.approx(5_000)


def test_a_stated_upfront_wins_over_a_one_off_fee(tmp_path: Path) -> None:
    path = write_workbook(tmp_path / "both.xlsx", {"Offer": [
        ["Vendor", "Example Cloud"], ["GPU", "NVIDIA H100 SXM5 80GB"], ["Number of GPUs", 64],
        ["Price per GPU-hour", "USD 2.10"], ["Upfront payment", "USD 100,000"],
        ["Onboarding fee (one-off)", "USD 5,000"]]})
    assert _one(path).fields.upfront_usd == pytest.approx(100_000)
