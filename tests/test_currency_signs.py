"""Specification: a currency sign several countries share ("$", "kr") is read as the currency the
document itself points to: a code or qualified sign it states decides; its address, tax words
or domain make an assumption that is said; never a silent USD where the document says
otherwise. Small examples of our own in several languages and layouts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from workbooks import write_sheet, write_workbook

from evaltool.grammar.currency_signs import document_signs, read_signs
from evaltool.normalize.core import normalize_files
from evaltool.normalize.values import ValueParseError, parse_money
from evaltool.read import text as T

FX = {"CAD": 0.72, "AUD": 0.65, "SGD": 0.74, "DKK": 0.145, "SEK": 0.095, "NOK": 0.09}


def _one(path: Path) -> Any:
    result = normalize_files([path], FX)
    assert not result.not_evaluated, result.not_evaluated
    (offer,) = result.offers
    return offer


def _codes(offer: Any) -> set[str]:
    return {w["code"] for w in offer.warnings}


def test_a_named_currency_beats_the_dollar_word_beside_it() -> None:
    assert T.currency_of("All amounts in Canadian dollars (CAD), taxes extra") == "CAD"
    assert T.currency_of("Tous les montants en dollars canadiens") == "CAD"
    assert T.currency_of("Preise in A$ exkl. GST") == "AUD"
    assert T.currency_of("US$ 2.10 per GPU-hour") == "USD"
    assert T.currency_of("$2.10 per GPU-hour") == "USD"  # no document: the sign's default


def test_the_document_states_the_dollar() -> None:
    reading = read_signs(["Currency: CAD", "Rate: $27.60 per node-hour"])["dollar"]
    assert (reading.currency, reading.strength) == ("CAD", "stated")
    both = read_signs(["List prices in USD", "Invoiced in AUD", "$2.10"])["dollar"]
    assert both.strength == "mixed" and both.currency == "USD"


def test_places_tax_words_and_domains_make_an_assumption() -> None:
    price = "$2.10 per GPU-hour"
    assert read_signs(["Level 12, 1 Collins St, Melbourne VIC 3000", "ABN 12 345 678 901",
                       price])["dollar"].currency == "AUD"
    assert read_signs(["sales@northwind-gpu.com.sg", price])["dollar"].currency == "SGD"
    assert read_signs(["GST/HST #: 1234 RT0001", price])["dollar"].strength == "assumed"
    # Words that only look like evidence: "abn" inside a word, "cad" in lower case.
    assert read_signs(["cad drawings of the abnormal rack", price])[
        "dollar"].strength == "default"
    # A document that writes no "$" has nothing to settle.
    assert read_signs(["Toronto, Canada", "EUR 2.10"])["dollar"].strength == "default"


def test_a_crown_needs_the_document_to_say_which() -> None:
    with pytest.raises(ValueParseError):
        parse_money("1.500 kr. pr. time")
    assert parse_money("1.500 kr. pr. time", currency="NOK").currency == "NOK"
    for texts, code in ((["Org.nr 912 345 678 MVA", "Oslo"], "NOK"),
                        (["CVR 41 88 27 15, København"], "DKK"),
                        (["Box 12, 111 22 Stockholm, Sverige"], "SEK")):
        with document_signs(read_signs([*texts, "Pris: 1.500 kr. pr. time"])):
            assert parse_money("1.500 kr. pr. time").currency == code


def test_a_canadian_quote_in_dollars_is_cad(tmp_path: Path) -> None:
    path = write_workbook(tmp_path / "maple.xlsx", {"Quote": [
        ["Northern Lights GPU Inc."],
        ["400 University Ave, Toronto, ON M5G 1S5, Canada — HST # 81234 5678 RT0001"],
        [],
        ["Vendor", "Northern Lights GPU Inc."],
        ["Accelerator", "NVIDIA H100 SXM5 80GB"],
        ["GPU count", 64],
        ["Price per GPU-hour", "$3.20"],
    ]})
    offer = _one(path)
    assert offer.fields.currency == "CAD"
    assert offer.fields.price_usd_per_gpu_hour == pytest.approx(3.20 * 0.72)
    assert "currency-sign-assumed" in _codes(offer)


def test_a_line_item_table_under_a_stated_dollar(tmp_path: Path) -> None:
    path = write_sheet(tmp_path / "southern.xlsx", [
        ["Southern Compute Pty Ltd — all prices in Australian dollars, ex GST"],
        [],
        ["Item", "Description", "Qty", "Unit", "Unit price", "Amount"],
        [1, "NVIDIA H100 SXM 80GB, 8 GPUs per node", 4, "node-hour", "$24.00", "$96.00"],
    ])
    offer = _one(path)
    assert offer.fields.currency == "AUD"
    assert offer.fields.price_usd_per_gpu_hour == pytest.approx(24.0 / 8 * 0.65)
    assert "currency-sign-assumed" not in _codes(offer)  # stated, not assumed


def test_a_us_quote_stays_usd_without_a_warning(tmp_path: Path) -> None:
    path = write_sheet(tmp_path / "us.xlsx", [
        ["Vendor", "Example Cloud LLC"],
        ["Accelerator", "H100 SXM"],
        ["GPUs", 16],
        ["Price", "$2.50 per GPU-hour"],
    ])
    offer = _one(path)
    assert offer.fields.currency == "USD"
    assert offer.fields.price_usd_per_gpu_hour == pytest.approx(2.50)
    assert not {"currency-sign-assumed", "currency-sign-ambiguous"} & _codes(offer)


def test_a_danish_quote_in_kroner(tmp_path: Path) -> None:
    path = write_sheet(tmp_path / "dk.xlsx", [
        ["Fjord GPU ApS, Havnegade 3, 1058 København K — CVR 12 34 56 78"],
        ["Leverandør", "Fjord GPU ApS"],
        ["Accelerator", "NVIDIA H100 SXM 80GB"],
        ["Antal GPU'er", 32],
        ["Pris", "20 kr. pr. GPU-time"],
    ])
    offer = _one(path)
    assert offer.fields.currency == "DKK"
    assert offer.fields.price_usd_per_gpu_hour == pytest.approx(20 * 0.145)
    assert "currency-sign-assumed" in _codes(offer)


def test_the_buyer_s_address_and_the_region_are_no_evidence(tmp_path: Path) -> None:
    path = write_sheet(tmp_path / "us_to_canada.xlsx", [
        ["Example GPU Cloud LLC, 100 Main St, Austin, TX"],
        ["Prepared for", "Maple AI Inc., 1 King St W, Toronto, ON, Canada"],
        ["Region", "Sydney (ap-southeast-2)"],
        ["Vendor", "Example GPU Cloud LLC"],
        ["Accelerator", "H100 SXM"],
        ["GPUs", 64],
        ["Price", "$2.40 per GPU-hour"],
    ])
    offer = _one(path)
    assert offer.fields.currency == "USD"
    assert not {"currency-sign-assumed", "currency-sign-ambiguous"} & _codes(offer)


def test_a_key_that_names_its_currency_states_it(tmp_path: Path) -> None:
    import json

    path = tmp_path / "sg.json"
    path.write_text(json.dumps({
        "provider": {"name": "Example Cloud Pte. Ltd.", "address": "1 Raffles Place, Singapore"},
        "accelerator": "H100 SXM", "gpus": 64,
        "pricing": {"unit": "GPU-hour", "net_usd": 2.5},
        "support": "$15,000 per month"}), encoding="utf-8")
    offer = _one(path)
    assert offer.fields.currency == "USD"
    assert offer.fields.support_usd_per_month in (None, 15_000)  # never SGD by the address
    assert not {"currency-sign-assumed", "currency-sign-ambiguous"} & _codes(offer)
