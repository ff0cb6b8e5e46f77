"""Specification: price grids and volume tiers, each with a small example of our own (never a
blind file).  A rate card prices one capacity several ways in one grid — regions or terms
across, terms or volume tiers down — its basis and currency stated once; each priced cell is an
offer that shares every other fact of the file.  Of a volume-tier table, the tier the document
marks, or else the one that holds the offer's count, is the offer's price; when neither tells,
every tier stays visible with a warning."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from workbooks import write_workbook

from evaltool.normalize.core import normalize_files
from evaltool.read.tiers import parse_range, price_basis, tiers_of_labels


def _offers(path: Path, fx: dict[str, float]) -> list[Any]:
    result = normalize_files([path], fx)
    assert not result.not_evaluated, result.not_evaluated
    return sorted(result.offers, key=lambda o: o.fields.offer_name or "")


def _codes(offer: Any) -> set[str]:
    return {w.get("code") for w in offer.warnings}


def test_a_german_rate_card_is_one_offer_per_region_and_term(tmp_path: Path) -> None:
    path = write_workbook(tmp_path / "preisliste.xlsx", {
        "Konfiguration": [
            ["Beispiel Rechenzentrum GmbH"],
            ["Server", "4 x 8-GPU-Server NVIDIA HGX H100 SXM5 80GB (32 GPUs)"],
            ["Netzwerk", "InfiniBand NDR, 8 x 400 Gb/s je Server"],
        ],
        "Preise": [
            ["Preise in EUR pro GPU-Stunde, zzgl. MwSt."],
            [],
            ["Laufzeit", "Frankfurt", "München", "Bemerkung"],
            ["On-Demand", 2.9, 3.1, "monatlich abgerechnet"],
            ["12 Monate", 2.3, 2.5, "monatlich abgerechnet"],
        ],
    })
    offers = _offers(path, {"EUR": 1.1})
    prices = {o.fields.offer_name: o.fields.price_usd_per_gpu_hour for o in offers}
    assert prices == pytest.approx({
        "On-Demand, Frankfurt": 2.9 * 1.1, "On-Demand, München": 3.1 * 1.1,
        "12 Monate, Frankfurt": 2.3 * 1.1, "12 Monate, München": 2.5 * 1.1})
    assert all(o.fields.gpu_count == 32 and o.fields.accelerator for o in offers)
    assert {o.fields.term_months for o in offers if "12 Monate" in (o.fields.offer_name or "")
            } == {12}
    assert all("price-grid-cell" in _codes(o) for o in offers)


def test_a_dash_in_a_grid_is_said_not_read_as_an_offer(tmp_path: Path) -> None:
    path = write_workbook(tmp_path / "grid.xlsx", {"Rates": [
        ["Example Cloud — NVIDIA H200, 64 GPUs"],
        ["USD per GPU-hour"],
        ["Term", "us-east", "eu-west"],
        ["1 year", 3.1, "—"],
        ["3 years", 2.6, 2.7],
    ]})
    result = normalize_files([path], {})
    assert sorted(o.fields.price_usd_per_gpu_hour for o in result.offers) == [2.6, 2.7, 3.1]
    notes = [w for o in result.offers for w in o.warnings
             if w.get("code") == "price-grid-cell-not-offered"]
    assert notes and "C4" in notes[0]["where"]["cell"]


def test_a_french_tier_table_gives_the_tier_that_holds_the_count(tmp_path: Path) -> None:
    path = write_workbook(tmp_path / "devis.xlsx", {"Devis": [
        ["Exemple Calcul SAS"],
        ["Configuration", "8 serveurs de 8 x NVIDIA H100 SXM5 80GB (64 GPU)"],
        [],
        ["Tarif dégressif (€ par GPU et par heure, HT)"],
        ["Palier", "Nombre de GPU", "Prix"],
        ["Palier 1", "1 - 31", "2,40 €"],
        ["Palier 2", "32 - 127", "2,10 €"],
        ["Palier 3", "128 et plus", "1,90 €"],
    ]})
    (offer,) = _offers(path, {"EUR": 1.0})
    assert offer.fields.price_usd_per_gpu_hour == pytest.approx(2.10)
    assert offer.fields.gpu_count == 64
    assert "volume-tier-chosen" in _codes(offer)


def test_the_tier_the_document_marks_is_used(tmp_path: Path) -> None:
    # Korean-style: tiers down, terms across, a mark in the notes column.
    path = write_workbook(tmp_path / "quote.xlsx", {"Quote": [
        ["Example GPU Cloud — H100 SXM, 8 nodes of 8 GPUs (64 GPUs)"],
        ["Unit price (USD per GPU per hour)"],
        ["GPUs", "On-demand", "12-month commitment", "Remarks"],
        ["1 ~ 31", 3.0, 2.5, ""],
        ["32 ~ 127", 2.8, 2.3, "← applied to your order"],
        ["128 or more", 2.6, 2.1, ""],
    ]})
    offers = _offers(path, {})
    assert sorted(o.fields.price_usd_per_gpu_hour for o in offers) == [2.3, 2.8]


def test_tiers_stay_visible_with_a_warning_when_the_count_is_unknown(tmp_path: Path) -> None:
    path = write_workbook(tmp_path / "cennik.xlsx", {"Cennik": [
        ["Przykład Obliczenia sp. z o.o. — NVIDIA L40S"],
        ["Cena w USD za GPU za godzinę"],
        ["Próg", "Cena"],
        ["do 99 kart", 1.2],
        ["od 100 kart", 1.0],
        [],
        ["Liczba GPU", 64],
    ]})
    # The count is known here (64): the first tier applies.
    (offer,) = _offers(path, {})
    assert offer.fields.price_usd_per_gpu_hour == pytest.approx(1.2)
    unknown = write_workbook(tmp_path / "cennik2.xlsx", {"Cennik": [
        ["Przykład Obliczenia sp. z o.o. — NVIDIA L40S"],
        ["Cena w USD za GPU za godzinę"],
        ["Próg", "Cena"],
        ["ab 1 Server", 1.2],
        ["ab 10 Server", 1.0],
        [],
        ["Liczba GPU", 64],
    ]})
    # The GPUs are known but the tiers count servers, and the servers are not known.
    result = normalize_files([unknown], {})
    warned = [o for o in result.offers if "volume-tier-unresolved" in _codes(o)]
    assert len(warned) == len(result.offers) == 2  # never one picked silently


def test_a_table_of_fields_is_not_a_price_grid(tmp_path: Path) -> None:
    path = write_workbook(tmp_path / "listings.xlsx", {"Export": [
        ["listing", "gpu", "qty_gpus", "usd_per_gpu_hr"],
        ["L-1", "NVIDIA H100 SXM5 80GB", 16, 2.1],
        ["L-2", "NVIDIA A100 SXM4 80GB", 32, 1.2],
    ]})
    result = normalize_files([path], {})
    assert {o.fields.gpu_count for o in result.offers} == {16, 32}
    assert not any("price-grid-cell" in _codes(o) for o in result.offers)


def test_ranges_and_bases_are_read_by_shape() -> None:
    assert parse_range("32 ~ 127장") == (32, 127)
    assert parse_range("Tier 2 (96-191 GPUs)") == (96, 191)
    assert parse_range("17 ve üzeri") == (17, None)
    assert parse_range("ab 64 GPU") == (64, None)
    assert parse_range("12-month reserved") is None
    assert parse_range("2027-01-15") is None
    assert tiers_of_labels(["1-31", "32-127", "128+"]) == [(1, 31), (32, 127), (128, None)]
    assert tiers_of_labels(["64-127", "1-31"]) is None  # not ascending: no tier table
    assert price_basis("AUD per GPU-hour, ex GST") == ("gpu", "hour")
    assert price_basis("Aylık fiyat / sunucu") == ("node", "month")
    assert price_basis("GPU당 시간 단가") == ("gpu", "hour")
    assert price_basis("Rates valid to 31/01/2027") is None


def test_every_option_stacked_down_a_sheet_is_an_offer(tmp_path: Path) -> None:
    # A value and its note beside it ("Periodo | sin compromiso | facturación por hora") is no
    # header of options side by side: the three stacked options are three offers.
    path = write_workbook(tmp_path / "oferta.xlsx", {"Oferta": [
        ["Ejemplo Cómputo S.L. — Oferta comercial"],
        ["Servidores", "4 x NVIDIA HGX H100 SXM5 80GB (8 GPU por servidor) — 32 GPU"],
        [],
        ["Opción 1 – Bajo demanda"],
        ["Precio", "2,90 €", "por GPU-hora"],
        ["Periodo", "sin compromiso", "facturación por hora"],
        [],
        ["Opción 2 – 6 meses"],
        ["Precio", "2,50 €", "por GPU-hora"],
        ["Periodo", "6 meses", "pago mensual"],
        [],
        ["Opción 3 – 12 meses"],
        ["Precio", "2,20 €", "por GPU-hora"],
        ["Periodo", "12 meses", "pago mensual"],
    ]})
    offers = _offers(path, {"EUR": 1.0})
    assert sorted(o.fields.price_usd_per_gpu_hour for o in offers) == pytest.approx(
        [2.2, 2.5, 2.9])


def test_an_option_offered_only_in_a_note_is_said(tmp_path: Path) -> None:
    path = write_workbook(tmp_path / "angebot.xlsx", {"Angebot": [
        ["Beispiel Cloud GmbH"],
        ["GPU", "NVIDIA H100 SXM5 80GB"],
        ["Anzahl GPUs", 64],
        ["Preis pro GPU-Stunde (EUR)", 2.4],
        ["Laufzeit", "12 Monate"],
        [],
        ["Hinweis: Alternative mit 36 Monaten Laufzeit: 8% Rabatt auf den GPU-Preis."],
    ]})
    base, option = sorted(_offers(path, {"EUR": 1.0}), key=lambda o: o.id)
    assert base.fields.price_usd_per_gpu_hour == pytest.approx(2.4)
    # The note's option is its own offer, its price from the note's words, and said so.
    assert option.fields.price_usd_per_gpu_hour == pytest.approx(2.4 * 0.92)
    assert option.fields.upfront_usd is None  # nothing is paid in advance
    assert "option-from-note" in _codes(option) and "option-in-note-read" in _codes(base)


def test_a_prepayment_option_in_a_note_is_paid_up_front_for_the_term(tmp_path: Path) -> None:
    path = write_workbook(tmp_path / "presupuesto.xlsx", {"Presupuesto": [
        ["Ejemplo Nube S.L."],
        ["GPU", "NVIDIA H100 SXM5 80GB"],
        ["Número de GPU", 32],
        ["Precio por GPU-hora (USD)", 2.0],
        ["Duración", "12 meses"],
        [],
        ["Opción de prepago: pague los 12 meses por adelantado y obtenga un 5% de descuento."],
    ]})
    option = next(o for o in _offers(path, {}) if o.fields.upfront_usd is not None)
    assert option.fields.price_usd_per_gpu_hour == pytest.approx(1.9)
    assert option.fields.upfront_usd == pytest.approx(1.9 * 32 * 730 * 12)


def test_an_option_note_with_two_figures_stays_a_warning(tmp_path: Path) -> None:
    path = write_workbook(tmp_path / "quote.xlsx", {"Quote": [
        ["Example Cloud Inc."],
        ["GPU", "NVIDIA H100 SXM5 80GB"],
        ["Number of GPUs", 32],
        ["Price per GPU-hour (USD)", 2.0],
        [],
        ["Volume option: 5% off above 64 GPUs, 8% off above 128 GPUs."],
    ]})
    (offer,) = _offers(path, {})
    assert "option-in-note" in _codes(offer)  # which discount applies is not worked out


def test_tiers_across_with_terms_down_and_a_row_of_units(tmp_path: Path) -> None:
    # Tiers as column headers, a row of units under them, terms down; the count (96 GPUs)
    # picks the middle column in every row.
    path = write_workbook(tmp_path / "tiers.xlsx", {"Pricing": [
        ["Example Compute Ltd — NVIDIA H200 SXM, 12 servers x 8 GPUs (96 GPUs)"],
        [],
        ["Commitment", "1-63 GPUs", "64-255 GPUs", "256+ GPUs"],
        ["", "GBP / GPU-hour", "GBP / GPU-hour", "GBP / GPU-hour"],
        ["1 month", 3.2, 3.0, 2.8],
        ["12 months", 2.6, 2.4, 2.2],
    ]})
    offers = _offers(path, {"GBP": 1.25})
    assert sorted(o.fields.price_usd_per_gpu_hour for o in offers) == pytest.approx(
        [2.4 * 1.25, 3.0 * 1.25])
    assert {o.fields.term_months for o in offers} == {1, 12}
    assert all(o.fields.gpu_count == 96 for o in offers)


def test_the_basis_may_stand_in_the_corner(tmp_path: Path) -> None:
    path = write_workbook(tmp_path / "corner.xlsx", {"Tarifs": [
        ["Exemple Cloud SAS"],
        ["GPU", "NVIDIA L40S 48GB"],
        ["Nombre de GPU", 16],
        [],
        ["EUR par GPU-heure", "Paris", "Marseille"],
        ["Sans engagement", 1.1, 1.2],
        ["Engagement 12 mois", 0.9, 1.0],
    ]})
    offers = _offers(path, {"EUR": 1.0})
    assert sorted(o.fields.price_usd_per_gpu_hour for o in offers) == pytest.approx(
        [0.9, 1.0, 1.1, 1.2])


def test_a_note_limits_a_term_to_some_tiers(tmp_path: Path) -> None:
    path = write_workbook(tmp_path / "grid.xlsx", {"Quote": [
        ["Example GPU Cloud"],
        ["GPU", "NVIDIA H100 SXM5 80GB"],
        ["Number of GPUs", 64],
        [],
        ["USD per GPU-hour"],
        ["GPUs", "On-demand", "1-year", "3-year"],
        ["1-63", 3.0, 2.6, 2.2],
        ["64-127", 2.9, 2.5, 2.1],
        ["128+", 2.8, 2.4, 2.0],
        ["The 3-year commitment is available only for 128+ GPUs."],
    ]})
    result = normalize_files([path], {})
    priced = {round(o.fields.price_usd_per_gpu_hour or 0, 2): o for o in result.offers}
    assert 2.9 in priced and 2.5 in priced
    assert 2.1 not in priced  # the 64-127 cell of a column the note limits to 128+
    # the 3-year price that is left is for another tier: shown, and warned
    assert "volume-tier-unresolved" in _codes(priced[2.0])


def test_tiers_as_lines_without_a_header(tmp_path: Path) -> None:
    path = write_workbook(tmp_path / "angebot.xlsx", {"Angebot": [
        ["Beispiel GPU-Cloud GmbH"],
        ["GPU", "NVIDIA H100 SXM5 80GB"],
        ["Anzahl GPUs", 96],
        [],
        ["Staffelpreise"],
        ["bis 63 GPU", "2,40 EUR pro GPU-Stunde"],
        ["ab 64 GPU", "2,10 EUR pro GPU-Stunde"],
        ["ab 256 GPU", "1,90 EUR pro GPU-Stunde"],
    ]})
    (offer,) = _offers(path, {"EUR": 1.0})
    assert offer.fields.price_usd_per_gpu_hour == pytest.approx(2.10)
    assert "volume-tier-chosen" in _codes(offer)


def test_a_table_of_discounts_is_no_price_grid(tmp_path: Path) -> None:
    path = write_workbook(tmp_path / "calc.xlsx", {"Calculator": [
        ["Example Cloud — pricing calculator"],
        ["GPU", "NVIDIA H100 SXM5 80GB"],
        ["Number of GPUs", 64],
        ["List price", "USD 3.00 per GPU-hour"],
        [],
        ["Commitment", "1-year", "3-year"],
        ["Discount vs list", 0.2, 0.4],
    ]})
    result = normalize_files([path], {})
    assert all(o.fields.price_usd_per_gpu_hour not in (0.2, 0.4) for o in result.offers)
    assert not any("price-grid-cell" in _codes(o) for o in result.offers)


def test_instance_types_down_terms_across_each_row_its_own_gpu(tmp_path: Path) -> None:
    path = write_workbook(tmp_path / "rates.xlsx", {"Rates": [
        ["Example Hyperscaler — GPU instances, us-east-1"],
        ["USD per instance-hour"],
        ["Instance", "GPUs", "On-demand", "1-year reserved", "3-year reserved"],
        ["gpu8-h100", "8 x NVIDIA H100 SXM5 80GB", 98.32, 62.0, 43.0],
        ["gpu8-h200", "8 x NVIDIA H200 141GB", 110.0, 70.0, 50.0],
        [],
        ["Capacity: 4 instances"],
    ]})
    offers = {o.fields.offer_name: o for o in _offers(path, {})}
    assert len(offers) == 6
    h200 = offers["gpu8-h200, 3-year reserved"]
    assert h200.fields.accelerator == "H200" and h200.fields.gpus_per_node == 8
    assert h200.fields.price_usd_per_gpu_hour == pytest.approx(50.0 / 8)
    assert h200.fields.term_months == 36
    assert offers["gpu8-h100, On-demand"].fields.accelerator == "H100-SXM"


def test_a_line_naming_the_applied_tier_chooses_it(tmp_path: Path) -> None:
    # The tier is named on its own line ("Tramo aplicado | T2"), and its range is in
    # "Desde | Hasta" figures; the count alone would also say T2.
    path = write_workbook(tmp_path / "presupuesto.xlsx", {"Presupuesto": [
        ["Ejemplo Nube S.L."],
        ["GPU", "NVIDIA L40S 48GB"],
        ["Número de GPU", 48],
        [],
        ["Tramo", "Desde (GPU)", "Hasta (GPU)", "€/GPU/h"],
        ["T1", 1, 31, 1.40],
        ["T2", 32, 127, 1.20],
        ["T3", 128, None, 1.00],
        [],
        ["Tramo aplicado", "T2 (48 GPU)"],
    ]})
    (offer,) = _offers(path, {"EUR": 1.0})
    assert offer.fields.price_usd_per_gpu_hour == pytest.approx(1.20)
    chosen = [w for w in offer.warnings if w.get("code") == "volume-tier-chosen"]
    assert chosen and "marks it" in chosen[0]["message"]


def test_a_marked_tier_that_does_not_hold_the_count_is_warned(tmp_path: Path) -> None:
    path = write_workbook(tmp_path / "quote.xlsx", {"Quote": [
        ["Example Cloud Inc."],
        ["GPU", "NVIDIA L40S 48GB"],
        ["Number of GPUs", 48],
        [],
        ["Tier", "GPUs", "USD per GPU-hour", "Applied"],
        ["Tier 1", "1-31", 1.40, "✓"],
        ["Tier 2", "32-127", 1.20, ""],
    ]})
    (offer,) = _offers(path, {})
    assert offer.fields.price_usd_per_gpu_hour == pytest.approx(1.40)  # as the document says
    assert "volume-tier-mark-disagrees" in _codes(offer)


def test_an_option_a_note_prices_is_its_own_offer(tmp_path: Path) -> None:
    path = write_workbook(tmp_path / "quote.xlsx", {"Quote": [
        ["Example Cloud Inc."],
        ["GPU", "NVIDIA H100 SXM5 80GB"],
        ["Number of GPUs", 64],
        ["Price per GPU-hour (USD)", 2.2],
        ["Term", "12 months"],
        [],
        ["Option B: 24-month term at $1.85 per GPU-hour."],
    ]})
    offers = {o.fields.offer_name: o for o in _offers(path, {})}
    option = offers["Option B"]
    assert option.fields.price_usd_per_gpu_hour == pytest.approx(1.85)
    assert option.fields.term_months == 24 and option.fields.gpu_count == 64
    assert "option-priced-in-note" in _codes(option)


def test_capacities_across_and_the_basis_in_a_note_below(tmp_path: Path) -> None:
    path = write_workbook(tmp_path / "pricing.xlsx", {"Pricing": [
        ["Example Neocloud — NVIDIA H200 SXM 141GB clusters"],
        [],
        ["Term", "8 GPUs", "64 GPUs", "256 GPUs"],
        ["1 month", 3.5, 3.2, 2.9],
        ["12 months", 2.9, 2.6, 2.3],
        [],
        ["All prices in USD per GPU-hour, excluding taxes."],
    ]})
    offers = {o.fields.offer_name: o for o in _offers(path, {})}
    assert len(offers) == 6
    big = offers["12 months, 256 GPUs"]
    assert big.fields.gpu_count == 256 and big.fields.term_months == 12
    assert big.fields.price_usd_per_gpu_hour == pytest.approx(2.3)
