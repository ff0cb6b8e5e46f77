"""Specification: what the buyer pays under and among a quote's lines.  A discount row applies
to the lines it names (or whose total its percentage explains, or, under the lines, to them
all); net beats list; the figure before tax is the one compared; a discount whose lines
cannot be told is said, never guessed.  Our own examples, in languages and layouts of our
own (never a blind file)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from workbooks import write_workbook

from evaltool.normalize.core import normalize_files
from evaltool.read.paid_rows import line_numbers, row_role, share_in


def _one(path: Path, fx: dict[str, float] | None = None) -> Any:
    result = normalize_files([path], fx or {})
    assert not result.not_evaluated, result.not_evaluated
    (offer,) = result.offers
    return offer


def _codes(offer: Any) -> set[str]:
    return {w.get("code") for w in offer.warnings}


@pytest.mark.parametrize(("label", "numbers"), [
    ("Less: partner discount 6% on hardware (lines 1–4)", {1, 2, 3, 4}),
    ("Remise fidélité 5 % sur la ligne 2", {2}),
    ("Rabatt 10 % auf Pos. 1 und 3", {1, 3}),
    ("Descuento anual 7% (líneas 1-2)", {1, 2}),
    ("Volume discount 6%", None),
])
def test_a_discount_names_its_lines_in_any_language(label: str, numbers: set[int] | None
                                                    ) -> None:
    assert line_numbers(label) == numbers


@pytest.mark.parametrize(("label", "negative", "role"), [
    ("zzgl. MwSt. 19 %", False, "tax"),
    ("TVA 20 %", False, "tax"),
    ("Total TTC", False, "gross"),
    ("Gesamtbetrag (brutto)", False, "gross"),
    ("Total HT", False, "total"),
    ("Subtotal excl. VAT", False, "total"),
    ("Remise commerciale 5 %", False, "discount"),
    ("Sonderkonditionen", True, "discount"),
    ("Zwischensumme", False, "total"),
])
def test_each_money_row_is_read_by_its_words_and_sign(label: str, negative: bool,
                                                      role: str) -> None:
    assert row_role(label, negative) == role


def test_a_share_is_read_from_the_label() -> None:
    assert share_in("abzgl. Projektrabatt 6,5 %") == pytest.approx(0.065)
    assert share_in("Rabatt") is None


def test_a_rentals_discount_on_one_line_lowers_that_lines_price(tmp_path: Path) -> None:
    # French rental: the discount row sits under the line it names; storage is not discounted.
    path = write_workbook(tmp_path / "devis.xlsx", {"Devis": [
        ["Exemple Cloud SAS"],
        ["Devis D-17 : location de serveurs GPU, durée 12 mois"],
        [],
        ["Désignation", "Quantité", "Unité", "Prix unitaire", "Montant"],
        ["Serveur 8x NVIDIA H100 SXM 80 Go", 4, "serveur/mois", "€ 14.600,00", "€ 58.400,00"],
        ["Remise engagement 10 % sur la ligne 1", None, None, None, "-€ 5.840,00"],
        ["Stockage objet", 100, "To/mois", "€ 20,00", "€ 2.000,00"],
        [],
        ["Total HT", None, None, None, "€ 54.560,00"],
        ["TVA 20 %", None, None, None, "€ 10.912,00"],
        ["Total TTC", None, None, None, "€ 65.472,00"],
    ]})
    offer = _one(path, {"EUR": 1.0})
    assert offer.fields.gpu_count == 32
    # 14,600 per server-month less 10% = 13,140 / (8 GPUs x 730 h)
    assert offer.fields.price_usd_per_gpu_hour == pytest.approx(13_140 / 8 / 730)
    assert "line-discount-applied" in _codes(offer)


def test_a_discount_on_the_subtotal_makes_the_capex_the_net_before_tax(tmp_path: Path) -> None:
    # Polish purchase: subtotal, a discount with no line named, net, VAT, gross.
    path = write_workbook(tmp_path / "oferta.xlsx", {"Oferta": [
        ["Przykład Systemy Sp. z o.o."],
        ["Oferta zakupu: klaster 2 serwery GPU"],
        [],
        ["Lp.", "Ilość", "Opis", "Cena jedn. (PLN)", "Wartość (PLN)"],
        [1, 2, "Serwer 8x NVIDIA H200 141 GB", 300000, 600000],
        [2, 1, "Przełącznik 400G", 40000, 40000],
        [3, 1, "Instalacja", 10000, 10000],
        [],
        [None, None, "Suma", None, 650000],
        [None, None, "Rabat projektowy 4 %", None, -26000],
        [None, None, "Razem netto", None, 624000],
        [None, None, "VAT 23 %", None, 143520],
        [None, None, "Razem brutto", None, 767520],
        [],
        ["Okres amortyzacji", "48 miesięcy"],
    ]})
    offer = _one(path, {"PLN": 0.25})
    assert offer.fields.capex_usd == pytest.approx(624000 * 0.25)


def test_a_discount_under_the_last_total_gives_the_net_when_no_total_follows(
        tmp_path: Path) -> None:
    # English purchase: the discount row stands between the subtotal and the tax, and the
    # quote states only a total with tax after it.
    path = write_workbook(tmp_path / "quote.xlsx", {"Quote": [
        ["Example Systems Ltd"],
        ["Quotation Q-9: 1 x GPU server"],
        [],
        ["Item", "Qty", "Description", "Unit price (USD)", "Amount (USD)"],
        [1, 1, "GPU server, 8 x NVIDIA H100 SXM 80GB", 250000, 250000],
        [2, 1, "Rack installation", 5000, 5000],
        [],
        [None, None, "Subtotal", None, 255000],
        [None, None, "Loyalty discount 10%", None, -25500],
        [None, None, "VAT 20%", None, 45900],
        [None, None, "Amount due incl. VAT", None, 275400],
        [],
        ["Amortisation", "36 months"],
    ]})
    offer = _one(path)
    assert offer.fields.capex_usd == pytest.approx(229500)


def test_a_discount_that_fits_no_line_is_said_and_not_applied(tmp_path: Path) -> None:
    # Among the lines, naming none, and its amount no share of a line or of all of them.
    path = write_workbook(tmp_path / "angebot.xlsx", {"Angebot": [
        ["Beispiel Cloud GmbH"],
        ["Angebot: GPU-Miete, 12 Monate"],
        [],
        ["Bezeichnung", "Menge", "Einheit", "Einzelpreis", "Gesamt"],
        ["GPU-Server 8x NVIDIA H100 SXM 80GB", 2, "Server/Monat", 15000, 30000],
        ["Sonderrabatt 7 %", None, None, None, -1000],
        ["Support", 1, "Monat", 2000, 2000],
    ]})
    offer = _one(path)
    # the list price stays, and the user is told why
    assert offer.fields.price_usd_per_gpu_hour == pytest.approx(15000 / 8 / 730)
    assert any(w.get("code") == "discount-not-placed" for w in offer.warnings)


def test_a_calculators_rows_are_offers_at_their_net_rate_and_its_grand_total_no_capex(
        tmp_path: Path) -> None:
    # French quote builder: one offer per row with list | discount | net columns, and the
    # grand total of both rows under them (a rental's contract value, no one's capex).
    path = write_workbook(tmp_path / "devis.xlsx", {"Devis": [
        ["Exemple Cloud SAS — simulateur de devis"],
        [],
        ["Ligne", "Modèle de GPU", "Nombre de GPU", "Durée (mois)", "Prix catalogue €/GPU-h",
         "Remise", "Prix net €/GPU-h", "Total contrat"],
        ["1 – entraînement", "NVIDIA H100 SXM", 64, 24, 3.00, 0.1, 2.70, 3027456],
        ["2 – inférence", "NVIDIA L40S", 16, 12, 1.20, 0.05, 1.14, 159782.4],
        [],
        ["Grand total", None, None, None, None, None, None, 3187238.4],
    ]})
    result = normalize_files([path], {"EUR": 1.0})
    prices = sorted((o.fields.price_usd_per_gpu_hour, o.fields.capex_usd, o.fields.offer_kind)
                    for o in result.offers)
    assert prices == [(pytest.approx(1.14), None, "rent"), (pytest.approx(2.70), None, "rent")]


@pytest.mark.parametrize(("price_head", "amount", "paid", "said"), [
    ("List price (USD)", None, 18000, False),      # a list price less its share
    ("Unit price (USD)", 72000, 18000, False),     # the total is net: total / quantity
    ("Unit price (USD)", 80000, 20000, True),      # cannot tell: said, the price as stated
])
def test_a_discount_column_applies_to_the_price_it_names(tmp_path: Path, price_head: str,
                                                         amount: float | None, paid: float,
                                                         said: bool) -> None:
    header = ["Item", "Description", "Qty", "Unit", price_head, "Discount"]
    line: list[Any] = [1, "GPU node, 8 x NVIDIA H100 SXM 80GB", 4, "node-month", 20000, "10%"]
    if amount is not None:
        header.append("Amount (USD)")
        line.append(amount)
    path = write_workbook(tmp_path / "q.xlsx", {"Quote": [
        ["Example Cloud Inc."], ["Quote Q-3: GPU rental, 12 months"], [], header, line]})
    offer = _one(path)
    assert offer.fields.price_usd_per_gpu_hour == pytest.approx(paid / 8 / 730)
    assert ("discount-not-placed" in _codes(offer)) is said


def test_a_discount_written_as_a_line_of_its_own_lowers_the_line_it_names(
        tmp_path: Path) -> None:
    # German rental: the discount is a line with a quantity and a negative price; never a
    # monthly cost of its own.
    path = write_workbook(tmp_path / "angebot.xlsx", {"Angebot": [
        ["Beispiel Cloud GmbH"], ["Angebot A-9: GPU-Miete 12 Monate"], [],
        ["Pos.", "Bezeichnung", "Menge", "Einheit", "Einzelpreis", "Gesamt"],
        [1, "GPU-Server 8x NVIDIA H100 SXM 80GB", 4, "Server/Monat", "18.000,00 €",
         "72.000,00 €"],
        [2, "Rabatt Jahresvertrag 5 % auf Pos. 1", 1, "Monat", "-3.600,00 €", "-3.600,00 €"],
        [3, "Speicher NFS 100 TB", 1, "Monat", "2.000,00 €", "2.000,00 €"]]})
    offer = _one(path, {"EUR": 1.0})
    assert offer.fields.price_usd_per_gpu_hour == pytest.approx(17_100 / 8 / 730)
    assert offer.fields.support_usd_per_month is None and offer.fields.opex_usd_per_month is None


def test_a_total_under_a_discount_that_does_not_take_it_off_is_said(tmp_path: Path) -> None:
    path = write_workbook(tmp_path / "quote.xlsx", {"Quote": [
        ["Example Systems Ltd"], ["Quotation Q-11: 1 x GPU server"], [],
        ["Item", "Qty", "Description", "Unit price (USD)", "Amount (USD)"],
        [1, 1, "GPU server, 8 x NVIDIA H100 SXM 80GB", 250000, 250000],
        [None, None, "Subtotal", None, 250000],
        [None, None, "Special discount 5%", None, -12500],
        [None, None, "Total", None, 250000],
        [], ["Amortisation", "36 months"]]})
    offer = _one(path)
    assert "total-before-discount" in _codes(offer)


def test_a_structured_quotes_discount_line_lowers_the_line_it_names(tmp_path: Path) -> None:
    # A JSON export: the discount is a line of its own with a negative total.
    path = tmp_path / "quote.json"
    path.write_text(json.dumps({
        "vendor": "Example Cloud Inc.", "accelerator": "NVIDIA H100 SXM", "gpu_count": 32,
        "currency": "USD", "term_months": 12,
        "line_items": [
            {"description": "GPU node 8x H100, per node-month", "quantity": 4,
             "unit": "node-month", "unit_price": 20000, "total": 80000},
            {"description": "Annual commitment discount 10% on line 1", "total": -8000}]}),
        encoding="utf-8")
    offer = _one(path)
    assert offer.fields.price_usd_per_gpu_hour == pytest.approx(18_000 / 8 / 730)
    assert "line-discount-applied" in _codes(offer)


def test_a_discount_stated_as_an_amount_under_the_subtotal_comes_off_the_capex(
        tmp_path: Path) -> None:
    # Spanish purchase: a discount with no percentage, IVA, and only a total with IVA.
    path = write_workbook(tmp_path / "presupuesto.xlsx", {"Presupuesto": [
        ["Ejemplo Sistemas S.L."], ["Presupuesto P-4: 1 servidor GPU"], [],
        ["Cant.", "Descripción", "Precio unitario (EUR)", "Importe (EUR)"],
        [1, "Servidor GPU 8x NVIDIA H100 SXM 80GB", 300000, 300000],
        [None, "Subtotal", None, 300000],
        [None, "Descuento comercial", None, -12000],
        [None, "IVA 21 %", None, 60480],
        [None, "Total con IVA", None, 348480],
        [], ["Periodo de amortización", "36 meses"]]})
    offer = _one(path, {"EUR": 1.0})
    assert offer.fields.capex_usd == pytest.approx(288_000)


def test_a_racks_or_servers_column_is_read_row_by_row(tmp_path: Path) -> None:
    # One column counts racks on one row and servers on the next: each cell says which.
    path = write_workbook(tmp_path / "builder.xlsx", {"Builder": [
        ["Example Cloud — quote builder"], [],
        ["Line", "Product", "Racks / servers", "GPUs", "Term (mo)", "List $/GPU-hr",
         "Discount", "Net $/GPU-hr", "Contract total"],
        ["1", "HGX H200", "4 servers", 32, 12, 3.00, 0.1, 2.70, 756864],
        ["2", "HGX B200", "2 servers", 16, 24, 4.00, 0.05, 3.80, 1065216],
        [], ["Grand total", None, None, None, None, None, None, None, 1822080]]})
    result = normalize_files([path], {})
    got = sorted((o.fields.node_count, o.fields.term_months, o.fields.price_usd_per_gpu_hour,
                  o.fields.capex_usd) for o in result.offers)
    assert got == [(2, 24, pytest.approx(3.80), None), (4, 12, pytest.approx(2.70), None)]


def test_a_one_off_credit_under_a_rentals_lines_lowers_no_rate(tmp_path: Path) -> None:
    path = write_workbook(tmp_path / "quote.xlsx", {"Quote": [
        ["Example Cloud Inc."], ["Quote Q-21: GPU rental, 12 months"], [],
        ["Item", "Description", "Qty", "Unit", "Unit price (USD)", "Amount (USD)"],
        [1, "GPU node, 8 x NVIDIA H100 SXM 80GB", 4, "node-month", 20000, 80000],
        [None, "Monthly total", None, None, None, 80000],
        [None, "Onboarding credit (one-time)", None, None, None, -5000]]})
    offer = _one(path)
    assert offer.fields.price_usd_per_gpu_hour == pytest.approx(20000 / 8 / 730)
    assert "discount-not-placed" in _codes(offer)
