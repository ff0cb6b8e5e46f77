"""Specification: of the prices an offer labels, the buyer pays the net one.  A list or base
rate is the price only when nothing else is stated; a net, effective or discounted rate beats a
price whose label says neither.  Our own examples (never a blind file)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from workbooks import write_workbook

from evaltool.normalize.core import normalize_files
from evaltool.normalize.paid_price import paid_rank


def _offers(path: Path, fx: dict[str, float] | None = None) -> list[Any]:
    result = normalize_files([path], fx or {})
    assert not result.not_evaluated, result.not_evaluated
    return list(result.offers)


@pytest.mark.parametrize(("label", "rank"), [
    ("List $/GPU-hr", -1), ("Basispreis je GPU-Stunde (€)", -1), ("Prezzo base per GPU/ora", -1),
    ("Net $/GPU-hr", 1), ("Prix net par GPU-heure", 1), ("Effective rate per GPU-hour", 1),
    ("Price per GPU-hour", 0), ("Network", 0),
])
def test_a_price_label_says_whether_it_is_list_or_net(label: str, rank: int) -> None:
    assert paid_rank(label) == rank


def test_a_calculator_in_columns_is_read_at_its_net_rate(tmp_path: Path) -> None:
    # German calculator, one option per column: base rate, discount, net rate.
    path = write_workbook(tmp_path / "rechner.xlsx", {"Rechner": [
        ["Beispiel Rechenzentrum GmbH - Preisrechner H100"],
        [],
        ["Position", "12 Monate", "36 Monate"],
        ["Anzahl GPUs", 64, 64],
        ["GPU", "NVIDIA H100 SXM 80GB", "NVIDIA H100 SXM 80GB"],
        ["Basispreis je GPU-Stunde (€)", 2.40, 2.20],
        ["Mengenrabatt", "10%", "10%"],
        ["Nettopreis je GPU-Stunde (€)", 2.16, 1.98],
        ["Laufzeit (Monate)", 12, 36],
    ]})
    prices = sorted(o.fields.price_usd_per_gpu_hour for o in _offers(path, {"EUR": 1.0}))
    assert prices == [pytest.approx(1.98), pytest.approx(2.16)]


def test_a_net_rate_beats_a_price_that_says_neither(tmp_path: Path) -> None:
    path = write_workbook(tmp_path / "quote.xlsx", {"Quote": [
        ["Vendor", "Example Cloud"],
        ["GPU", "NVIDIA H200"],
        ["Number of GPUs", 128],
        ["Price per GPU-hour", "USD 3.20"],
        ["Committed-use discount", "15%"],
        ["Net price per GPU-hour", "USD 2.72"],
    ]})
    (offer,) = _offers(path)
    assert offer.fields.price_usd_per_gpu_hour == pytest.approx(2.72)
    assert any(w.get("code") == "second-compute-price" for w in offer.warnings)


def test_a_list_rate_alone_is_the_price(tmp_path: Path) -> None:
    path = write_workbook(tmp_path / "list.xlsx", {"Offer": [
        ["Vendor", "Example Cloud"], ["GPU", "NVIDIA H100 SXM"], ["Number of GPUs", 16],
        ["List price per GPU-hour", "USD 2.50"]]})
    (offer,) = _offers(path)
    assert offer.fields.price_usd_per_gpu_hour == pytest.approx(2.50)


def test_a_list_price_and_a_stated_discount_give_the_net(tmp_path: Path) -> None:
    # Dutch: the list price and the discount, no net price stated.
    path = write_workbook(tmp_path / "offerte.xlsx", {"Offerte": [
        ["Leverancier", "Voorbeeld Cloud B.V."], ["GPU", "NVIDIA H100 SXM 80GB"],
        ["Aantal GPU's", 32], ["Lijstprijs per GPU-uur", "€ 2,50"],
        ["Volumekorting", "12%"]]})
    (offer,) = _offers(path, {"EUR": 1.0})
    assert offer.fields.price_usd_per_gpu_hour == pytest.approx(2.50 * 0.88)
    assert any(w.get("code") == "list-price-discounted" for w in offer.warnings)


def test_a_price_beside_a_discount_that_may_be_before_or_after_it_is_said(
        tmp_path: Path) -> None:
    # Italian: "Prezzo" says neither list nor net; the discount is stated beside it.
    path = write_workbook(tmp_path / "offerta.xlsx", {"Offerta": [
        ["Fornitore", "Esempio Cloud S.r.l."], ["GPU", "NVIDIA H200"], ["Numero di GPU", 16],
        ["Prezzo per GPU/ora", "€ 3,10"], ["Sconto fedeltà", "8%"]]})
    (offer,) = _offers(path, {"EUR": 1.0})
    assert offer.fields.price_usd_per_gpu_hour == pytest.approx(3.10)  # never guessed
    assert any(w.get("code") == "price-discount-unclear" for w in offer.warnings)


def test_a_discount_tier_table_gives_the_tier_the_offers_count_falls_in(tmp_path: Path) -> None:
    # German: a list price, and a tier table by GPUs on a sheet of its own, no tier marked.
    path = write_workbook(tmp_path / "staffel.xlsx", {
        "Angebot": [["Anbieter", "Beispiel Cloud GmbH"], ["GPU", "NVIDIA H100 SXM 80GB"],
                    ["Anzahl GPUs", 96], ["Listenpreis je GPU-Stunde", "2,80 €"]],
        "Rabattstaffel": [["Mengenrabatt nach GPUs"], ["GPUs", "Rabatt"],
                          ["1 - 31", "0 %"], ["32 - 63", "5 %"], ["64 - 127", "10 %"],
                          ["ab 128", "15 %"]]})
    (offer,) = _offers(path, {"EUR": 1.0})
    assert offer.fields.price_usd_per_gpu_hour == pytest.approx(2.80 * 0.90)


def test_a_marked_spend_tier_applies(tmp_path: Path) -> None:
    # English: tiers by committed spend; the applied one is ticked.
    path = write_workbook(tmp_path / "tiers.xlsx", {
        "Summary": [["Vendor", "Example Cloud Inc."], ["GPU", "NVIDIA H200"],
                    ["Number of GPUs", 256], ["List rate per GPU-hour", "USD 4.00"],
                    ["Committed spend", "USD 12,000,000"]],
        "Tiers": [["Annual commitment", "Discount", "Your tier"],
                  ["$1,000,000 - 4,999,999", "10%", ""],
                  ["$5,000,000 - 9,999,999", "20%", ""],
                  ["$10,000,000 and above", "30%", "✓"]]})
    (offer,) = _offers(path)
    assert offer.fields.price_usd_per_gpu_hour == pytest.approx(2.80)
    assert any(w.get("code") == "list-price-discounted" for w in offer.warnings)


@pytest.mark.parametrize(("gross", "net", "currency"), [
    (["Kaufpreis brutto (inkl. 19 % MwSt.)", "1.190.000,00 €"],
     ["Kaufpreis netto", "1.000.000,00 €"], "EUR"),
    (["Total price incl. VAT (20%)", "GBP 600,000"], ["Total price excl. VAT", "GBP 500,000"],
     "GBP"),
])
def test_a_purchase_price_before_tax_beats_the_one_with_tax(tmp_path: Path, gross: list[str],
                                                            net: list[str],
                                                            currency: str) -> None:
    # the figure with the tax comes first; the one before tax is the capex all the same
    path = write_workbook(tmp_path / "kauf.xlsx", {"Offer": [
        ["Vendor", "Example Systems"], ["GPU", "NVIDIA H100 SXM"], ["Number of nodes", 4],
        ["GPUs per node", 8], gross, net, ["Amortisation period", "48 months"]]})
    (offer,) = _offers(path, {currency: 1.0})
    assert offer.fields.capex_usd == pytest.approx(1_000_000 if currency == "EUR" else 500_000)


def test_a_note_that_takes_a_discount_off_the_list_rate_applies_it(tmp_path: Path) -> None:
    path = write_workbook(tmp_path / "note.xlsx", {"Quote": [
        ["Vendor", "Example Cloud"], ["GPU", "NVIDIA H100 SXM"], ["Number of GPUs", 64],
        ["List rate per GPU-hour", "USD 3.00"], [],
        ["Notes: a 20% discount off the list rate applies to this order."]]})
    (offer,) = _offers(path)
    assert offer.fields.price_usd_per_gpu_hour == pytest.approx(2.40)


def test_a_note_discount_beside_a_price_that_says_neither_is_said(tmp_path: Path) -> None:
    path = write_workbook(tmp_path / "nota.xlsx", {"Oferta": [
        ["Proveedor", "Ejemplo Cloud S.L."], ["GPU", "NVIDIA H200"], ["Número de GPU", 32],
        ["Precio por GPU-hora", "3,00 €"], [],
        ["Nota: se aplica un descuento del 15% por volumen."]]})
    (offer,) = _offers(path, {"EUR": 1.0})
    assert offer.fields.price_usd_per_gpu_hour == pytest.approx(3.00)
    assert any(w.get("code") == "price-discount-unclear" for w in offer.warnings)


def test_a_purchase_price_stated_only_with_its_tax_rate_is_read_before_tax(
        tmp_path: Path) -> None:
    # Dutch: only the price including 21% BTW is stated.
    path = write_workbook(tmp_path / "koop.xlsx", {"Offerte": [
        ["Vendor", "Voorbeeld Systemen B.V."], ["GPU", "NVIDIA H100 SXM"],
        ["Number of nodes", 2], ["GPUs per node", 8],
        ["Total price incl. 21% BTW", "EUR 605,000"], ["Amortisation period", "36 months"]]})
    (offer,) = _offers(path, {"EUR": 1.0})
    assert offer.fields.capex_usd == pytest.approx(500_000)


def test_an_hourly_price_stated_with_its_tax_rate_is_read_before_tax(tmp_path: Path) -> None:
    path = write_workbook(tmp_path / "miete.xlsx", {"Angebot": [
        ["Anbieter", "Beispiel Cloud GmbH"], ["GPU", "NVIDIA H100 SXM"], ["Anzahl GPUs", 16],
        ["Preis je GPU-Stunde inkl. 19 % MwSt.", "2,38 €"]]})
    (offer,) = _offers(path, {"EUR": 1.0})
    assert offer.fields.price_usd_per_gpu_hour == pytest.approx(2.00)


def _tiered(tmp_path: Path, gpus: int | None) -> Path:
    line: dict[str, Any] = {
        "description": "NVIDIA H100 SXM 80GB, 8 per server", "uom": "GPU-hour",
        "tiers": [{"from_qty": 1, "to_qty": 31, "unit_price": 2.60},
                  {"from_qty": 32, "to_qty": 127, "unit_price": 2.30},
                  {"from_qty": 128, "to_qty": None, "unit_price": 2.05}]}
    offer: dict[str, Any] = {"supplier": "Example Cloud Inc.", "currency": "USD",
                             "accelerator": "NVIDIA H100 SXM", "term_months": 12,
                             "lines": [line]}
    if gpus is not None:
        offer["gpu_count"] = gpus
    path = tmp_path / "tiers.json"
    path.write_text(json.dumps(offer), encoding="utf-8")
    return path


def test_a_structured_quotes_price_tiers_give_the_tier_of_its_count(tmp_path: Path) -> None:
    (offer,) = _offers(_tiered(tmp_path, 64))
    assert offer.fields.price_usd_per_gpu_hour == pytest.approx(2.30)
    assert offer.fields.offer_kind == "rent" and offer.fields.capex_usd is None


def test_price_tiers_without_a_count_give_no_price(tmp_path: Path) -> None:
    result = normalize_files([_tiered(tmp_path, None)], {})
    assert not result.offers  # never the first tier by default
    assert result.not_evaluated
