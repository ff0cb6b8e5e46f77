"""Specification: a purchase + hosting quote lists the hardware once and its running costs
in a table of recurring charges (a description and one amount column headed by a currency
and a time, no quantity column).  Each charge is a running cost the purchase rule adds, a
quantity at a price per unit is read as such, and the month's total is never a further charge.
Our own examples in several languages, never a blind file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from workbooks import write_workbook

from evaltool.normalize.core import normalize_files
from evaltool.read.charges import charges_header
from evaltool.read.vocabulary import load_vocabulary


def _offer(path: Path, fx: dict[str, float]) -> Any:
    result = normalize_files([path], fx)
    assert not result.not_evaluated, result.not_evaluated
    (offer,) = result.offers
    return offer


@pytest.mark.parametrize("row", [
    ["Monthly service", "Basis", "EUR / month", "Notes"],
    ["Leistung", "Monatlich (EUR)"],
    ["Prestation", "Base", "€ / mois"],
])
def test_headers_of_recurring_charges(row: list[str]) -> None:
    assert charges_header(row, load_vocabulary()) is not None


@pytest.mark.parametrize("row", [
    ["Item", "Qty", "Unit (EUR)", "Total (EUR)"],  # a line-item table
    ["Region", "EUR / month", "USD / month"],  # two amount columns: a grid of prices
])
def test_other_tables_are_not_charges(row: list[str]) -> None:
    assert charges_header(row, load_vocabulary()) is None


def test_german_purchase_with_monthly_hosting_charges(tmp_path: Path) -> None:
    path = write_workbook(tmp_path / "angebot.xlsx", {
        "Hardware": [
            ["Position", "Menge", "Einzelpreis (EUR)", "Gesamt (EUR)"],
            ["HGX H200 Server: 8x NVIDIA H200 141GB", 4, 300000, 1200000],
        ],
        "Betrieb": [
            ["Leistung", "Basis", "Monatlich (EUR)", "Bemerkung"],
            ["Stellfläche und Strom", "40 kW @ EUR 200 / kW / Monat", 8000, "4 x 10 kW"],
            ["Fernwartung", "pauschal", 1500, "24x7 Überwachung"],
            ["Summe monatlich", "", 9500, ""],
            [],
            ["Abschreibungsdauer", "48 Monate"],
        ],
    })
    offer = _offer(path, {"EUR": 1.0})
    f = offer.fields
    assert f.offer_kind == "purchase"
    assert f.capex_usd == pytest.approx(1_200_000)
    assert f.colocation_usd_per_kw_month == pytest.approx(200)
    assert f.opex_usd_per_month == pytest.approx(1500)  # never the '24' of '24x7'
    assert f.gpus_per_node == 8
    expected = (1_200_000 / 48 + 8000 + 1500) / (32 * 730)
    assert f.price_usd_per_gpu_hour == pytest.approx(expected)


def test_french_charges_without_a_basis_column(tmp_path: Path) -> None:
    path = write_workbook(tmp_path / "devis.xlsx", {
        "Devis": [
            ["Désignation", "Qté", "Prix unitaire (EUR)", "Total (EUR)"],
            ["Serveur 8x AMD Instinct MI300X 192 Go", 2, 250000, 500000],
            [],
            ["Prestation", "€ / mois"],
            ["Hébergement (baie dédiée, 20 kW)", 3000],
            ["Infogérance", 800],
            ["Total mensuel", 3800],
            [],
            ["Durée d'amortissement", "36 mois"],
        ],
    })
    offer = _offer(path, {"EUR": 1.0})
    f = offer.fields
    assert f.capex_usd == pytest.approx(500_000)
    expected = (500_000 / 36 + 3000 + 800) / (16 * 730)
    assert f.price_usd_per_gpu_hour == pytest.approx(expected)


def test_a_hosting_line_for_several_racks_gives_no_price_per_kw(tmp_path: Path) -> None:
    # English: "2 racks @ 15 kW" is 30 kW, so no per-kW price is read from the 15; the month's
    # hosting is still counted in the effective price as contracted.
    path = write_workbook(tmp_path / "quote.xlsx", {"Quote": [
        ["Example Systems Ltd"],
        ["Description", "Qty", "Unit price (GBP)", "Total (GBP)"],
        ["HGX B200 server, 8x NVIDIA B200 180GB", 2, 400000, 800000],
        [],
        ["Recurring", "GBP / month"],
        ["Rack space and power, 2 racks @ 15 kW", 6000],
        ["Remote hands", 500],
        [],
        ["Amortisation period", "36 months"],
    ]})
    f = _offer(path, {"GBP": 1.0}).fields
    assert f.colocation_usd_per_kw_month is None
    assert f.price_usd_per_gpu_hour == pytest.approx((800_000 / 36 + 6000 + 500) / (16 * 730))


def test_portuguese_key_value_purchase_is_found(tmp_path: Path) -> None:
    # "Preço de compra" is the capex, never a compute price without a time basis; "2 x
    # servidor com 8 GPUs" is two servers of eight.
    path = write_workbook(tmp_path / "proposta.xlsx", {"Proposta": [
        ["Fornecedor", "Exemplo Sistemas Lda."],
        ["Servidores", "2 x servidor com 8 GPUs NVIDIA H200 141GB"],
        ["Preço de compra", "USD 800,000"],
        ["Período de amortização", "36 meses"],
    ]})
    f = _offer(path, {}).fields
    assert (f.offer_kind, f.capex_usd, f.node_count, f.gpus_per_node, f.gpu_count) == (
        "purchase", 800_000, 2, 8, 16)
