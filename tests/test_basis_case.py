"""Specification: basis words are read whatever their case, in every language.  Turkish
writes "aylık" (monthly) with a dotless i; in capitals ("AYLIK") it lowers to "aylik", which
must still be the month, never an internal error that loses the whole file."""

from __future__ import annotations

from evaltool.normalize.values import parse_money
from evaltool.read.text import billing_unit


def test_capitalised_turkish_basis_words_are_read() -> None:
    assert billing_unit("GPU AYLIK") == "gpu_month"
    assert billing_unit("gpu aylık") == "gpu_month"


def test_a_capitalised_adverb_in_a_price_is_its_basis() -> None:
    money = parse_money("USD 1.200 AYLIK")
    assert "month" in money.per
