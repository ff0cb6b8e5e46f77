"""Specification: an e-mail or letter pasted into one column that prices the same capacity
for several terms, one bullet each, offers one offer per bullet; a price given for reference
outside the list, and a bulleted list of conditions, are no offer.  Our own examples in other
languages, never a blind file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from workbooks import write_sheet

from evaltool.normalize.core import normalize_files


def _offers(path: Path, fx: dict[str, float]) -> list[Any]:
    result = normalize_files([path], fx)
    return sorted((o.fields for o in result.offers), key=lambda f: f.term_months or 0)


def test_a_german_email_with_two_terms_as_bullets(tmp_path: Path) -> None:
    path = write_sheet(tmp_path / "mail.xlsx", [
        ["Von: Beispiel Cloud GmbH"],
        ["Betreff: Angebot H100"],
        [],
        ["Kapazität: 64 x NVIDIA H100 SXM5 80GB (8 Server mit je 8 GPUs)"],
        [],
        ["• 12 Monate Laufzeit: 2,10 EUR pro GPU-Stunde"],
        ["• 36 Monate Laufzeit: 1,80 EUR pro GPU-Stunde"],
        [],
        ["Zum Vergleich: on-demand kostet 3,00 EUR pro GPU-Stunde (nicht Teil des Angebots)."],
        ["Mit freundlichen Grüßen, Beispiel Cloud GmbH"],
    ])
    offers = _offers(path, {"EUR": 1.0})
    assert [(f.term_months, f.price_usd_per_gpu_hour, f.gpu_count) for f in offers] == [
        (12, pytest.approx(2.10), 64), (36, pytest.approx(1.80), 64)]


def test_an_english_letter_with_dashes_and_one_year_words(tmp_path: Path) -> None:
    path = write_sheet(tmp_path / "letter.xlsx", [
        ["Example Compute Ltd - capacity for Q2"],
        ["Capacity: 128 x NVIDIA H200 141GB (16 nodes with 8 GPUs each)"],
        ["  - 1-year reservation: $2.95 per GPU-hour"],
        ["  - 2-year reservation: $2.60 per GPU-hour"],
        ["  - 3-year reservation: $2.25 per GPU-hour"],
        ["Prices exclude VAT."],
    ])
    offers = _offers(path, {})
    assert [(f.term_months, f.price_usd_per_gpu_hour) for f in offers] == [
        (12, pytest.approx(2.95)), (24, pytest.approx(2.60)), (36, pytest.approx(2.25))]


def test_bullets_of_conditions_stay_one_offer(tmp_path: Path) -> None:
    path = write_sheet(tmp_path / "one.xlsx", [
        ["Example Compute Ltd - capacity for Q2"],
        ["Capacity: 64 x NVIDIA H100 SXM5 80GB, 12-month term"],
        ["Price: $2.40 per GPU-hour"],
        ["  - Storage: $0.02 per GB-month"],
        ["  - Egress: $0.05 per GB"],
    ])
    (offer,) = _offers(path, {})
    assert offer.price_usd_per_gpu_hour == pytest.approx(2.40)
