"""Specification: a price grid may set beside each row's price what that price is not: the
list (public, catalogue, on-demand) rate it was discounted from, the discount as a share,
and the quantity the row commits to.  The buyer pays the net rate; each row is one offer with
its own count, and the list figure is kept as a list price, never as an offer of its own.
Our own examples in several languages and layouts, never a blind file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from workbooks import write_workbook

from evaltool.normalize.core import normalize_files
from evaltool.read.price_columns import is_list_column, is_net_column, is_share


def _offers(path: Path, fx: dict[str, float] | None = None) -> list[Any]:
    result = normalize_files([path], fx or {})
    assert not result.not_evaluated, result.not_evaluated
    return result.offers


@pytest.mark.parametrize(("head", "role"), [
    ("On-demand (list)", "list"), ("Listenpreis", "list"), ("Prix catalogue", "list"),
    ("Prezzo di listino", "list"), ("Private offer rate", "net"), ("Ihr Preis", "net"),
    ("Prix remisé", "net"), ("Discounted rate", "net"), ("Precio neto", "net"),
])
def test_column_headers_say_list_or_net_in_any_language(head: str, role: str) -> None:
    assert is_list_column(head) == (role == "list")
    assert is_net_column(head) == (role == "net")


def test_a_discount_column_is_a_share_not_a_price() -> None:
    assert is_share("Discount vs list", [0.44, 0.43])
    assert is_share("Rabatt", ["37 %", "40 %"])
    assert is_share("Savings", ["44.0%", "43.9%"])  # every cell a percentage
    assert not is_share("Discounted rate", [55.04, 58.4])


def test_german_region_grid_with_list_and_net_rates_per_node(tmp_path: Path) -> None:
    path = write_workbook(tmp_path / "angebot.xlsx", {"Angebot": [
        ["Beispiel Cloud GmbH — Individuelles Angebot"],
        ["Instanztyp", "bm.h200.8 — 8x NVIDIA H200 141GB, 3.200 Gbit/s InfiniBand"],
        ["Laufzeit", "24 Monate"],
        [],
        ["Preise in EUR pro Knoten und Stunde"],
        ["Region", "Standort", "Anzahl Knoten", "Listenpreis", "Ihr Preis", "Rabatt"],
        ["eu-fra-1", "Frankfurt", 8, 60.0, 40.0, "33 %"],
        ["eu-ber-1", "Berlin", 4, 62.0, 44.0, "29 %"],
    ]})
    offers = {o.fields.region: o for o in _offers(path, {"EUR": 1.1})}
    assert set(offers) == {"eu-fra-1", "eu-ber-1"}
    fra = offers["eu-fra-1"].fields
    assert fra.node_count == 8 and fra.gpus_per_node == 8 and fra.gpu_count == 64
    assert fra.price_usd_per_gpu_hour == pytest.approx(40.0 / 8 * 1.1)  # never the list rate
    assert offers["eu-ber-1"].fields.price_usd_per_gpu_hour == pytest.approx(44.0 / 8 * 1.1)


def test_french_terms_down_with_catalogue_and_discounted_rates(tmp_path: Path) -> None:
    path = write_workbook(tmp_path / "offre.xlsx", {"Offre": [
        ["Exemple Calcul SAS"],
        ["Accélérateur", "NVIDIA H100 SXM 80 Go"],
        ["Nombre total de GPU", 128],
        [],
        ["Durée", "Prix catalogue (€/GPU/h)", "Prix remisé (€/GPU/h)", "Remise"],
        ["12 mois", 3.10, 2.40, "23 %"],
        ["36 mois", 3.10, 1.95, "37 %"],
    ]})
    offers = {o.fields.term_months: o.fields for o in _offers(path, {"EUR": 1.1})}
    assert set(offers) == {12, 36}
    assert offers[12].price_usd_per_gpu_hour == pytest.approx(2.40 * 1.1)
    assert offers[36].price_usd_per_gpu_hour == pytest.approx(1.95 * 1.1)


def test_a_rate_beside_a_list_rate_that_does_not_say_net_is_read_and_said(
        tmp_path: Path) -> None:
    path = write_workbook(tmp_path / "oferta.xlsx", {"Oferta": [
        ["Ejemplo Nube S.L."],
        ["Acelerador", "NVIDIA L40S 48GB"],
        ["Total de GPUs", 16],
        [],
        ["Precios en USD por GPU y hora"],
        ["Plazo", "Precio de lista", "Tarifa", "Descuento"],
        ["6 meses", 1.50, 1.20, "20 %"],
        ["12 meses", 1.50, 1.05, "30 %"],
    ]})
    offers = {o.fields.term_months: o for o in _offers(path)}
    assert offers[6].fields.price_usd_per_gpu_hour == pytest.approx(1.20)
    assert offers[12].fields.price_usd_per_gpu_hour == pytest.approx(1.05)
    assert any(w.get("code") == "price-grid-net-assumed" for w in offers[6].warnings)


def test_a_list_rate_row_over_the_net_rates_is_not_an_offer(tmp_path: Path) -> None:
    # German, terms across and the list and net rates down: two offers (one per term), each
    # at its net rate; the list row is never an offer of its own.
    path = write_workbook(tmp_path / "preise.xlsx", {"Angebot": [
        ["Beispiel Cloud GmbH"],
        ["GPU", "NVIDIA H100 SXM 80GB"],
        ["Anzahl GPUs", 64],
        [],
        ["EUR pro GPU-Stunde", "12 Monate", "36 Monate"],
        ["Listenpreis", 3.10, 3.10],
        ["Ihr Preis", 2.40, 1.95],
    ]})
    offers = {o.fields.term_months: o.fields for o in _offers(path, {"EUR": 1.1})}
    assert set(offers) == {12, 36}
    assert offers[12].price_usd_per_gpu_hour == pytest.approx(2.40 * 1.1)
    assert offers[36].price_usd_per_gpu_hour == pytest.approx(1.95 * 1.1)


def test_one_offer_per_row_export_with_list_and_net_columns(tmp_path: Path) -> None:
    # An English marketplace export, one offer per row: the net column is the price paid,
    # wherever the list column stands.
    path = tmp_path / "export.csv"
    path.write_text(
        "# Example Cloud - private pricing\n"
        "instance_type,accelerator,gpus_per_instance,instances,region,"
        "list_usd_per_instance_hour,net_usd_per_instance_hour\n"
        "bm.h100.8,NVIDIA H100 SXM 80GB,8,16,us-east-1,98.00,60.00\n"
        "bm.h200.8,NVIDIA H200 141GB,8,8,eu-west-1,120.00,76.00\n", encoding="utf-8")
    prices = {o.fields.region: o.fields.price_usd_per_gpu_hour for o in _offers(path)}
    assert prices == {"us-east-1": pytest.approx(60 / 8), "eu-west-1": pytest.approx(76 / 8)}


def test_rows_table_with_the_list_column_after_the_net_one(tmp_path: Path) -> None:
    # Spanish, one offer per row, the list price last: still never the price paid.
    path = write_workbook(tmp_path / "tarifas.xlsx", {"Tarifas": [
        ["Acelerador", "Número de GPUs", "Región", "Precio neto (USD/GPU/h)",
         "Precio de lista (USD/GPU/h)"],
        ["NVIDIA H100 SXM 80GB", 64, "Madrid", 2.10, 3.00],
        ["NVIDIA L40S 48GB", 32, "Madrid", 0.90, 1.30],
    ]})
    prices = {o.fields.accelerator: o.fields.price_usd_per_gpu_hour for o in _offers(path)}
    assert prices == {"H100-SXM": pytest.approx(2.10), "L40S": pytest.approx(0.90)}


def test_options_side_by_side_with_list_and_reserved_price_rows(tmp_path: Path) -> None:
    # Italian, options in columns: the list-price row is a row of values, never a grid's
    # header, and the reserved price is the one paid.
    path = write_workbook(tmp_path / "offerta.xlsx", {"Offerta": [
        ["Esempio Cloud S.r.l."], [],
        ["", "Opzione A", "Opzione B"],
        ["Acceleratore", "NVIDIA H100 SXM 80GB", "NVIDIA H200 141GB"],
        ["Numero GPU", 64, 32],
        ["Prezzo di listino (€/GPU/ora)", "3,20", "4,10"],
        ["Prezzo riservato (€/GPU/ora)", "2,40", "3,05"],
        ["Durata", "12 mesi", "12 mesi"],
    ]})
    prices = {o.fields.accelerator: o.fields.price_usd_per_gpu_hour
              for o in _offers(path, {"EUR": 1.0})}
    assert prices == {"H100-SXM": pytest.approx(2.40), "H200": pytest.approx(3.05)}


def test_an_export_key_naming_the_list_price_ranks_below_the_discounted_one(
        tmp_path: Path) -> None:
    path = tmp_path / "quote.json"
    path.write_text('{"vendor": "Example Cloud", "offers": [{"name": "A", "accelerator": '
                    '"H100 SXM 80GB", "gpu_count": 64, "list_price_usd_per_gpu_hour": 3.2, '
                    '"discounted_price_usd_per_gpu_hour": 2.4}]}', encoding="utf-8")
    (offer,) = _offers(path)
    assert offer.fields.price_usd_per_gpu_hour == pytest.approx(2.4)
