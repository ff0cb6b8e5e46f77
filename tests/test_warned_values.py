"""Specification: a value the reader is not sure of is never kept silently. Each class with
small examples of our own, in other languages and layouts than the dev sets: a region kept
with the vendor's description of the site, numbers grouped the document's way, a price a
formula computes, the scope of a bandwidth and the vendor's full name."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from workbooks import write_workbook

from evaltool.grammar.places import region_in_text
from evaltool.normalize.core import normalize_files
from evaltool.normalize.short_values import region_core, vendor_core
from evaltool.read.cells import SheetGrid
from evaltool.read.formulas import evaluate_formulas


def _one(path: Path, fx: dict[str, float] | None = None) -> Any:
    result = normalize_files([path], fx or {"EUR": 1.1, "CAD": 0.7})
    assert not result.not_evaluated, result.not_evaluated
    (offer,) = result.offers
    return offer


def _warned(offer: Any, field: str) -> set[str]:
    return {w.get("code") for w in offer.warnings if w.get("field") == field}


# --- 1. a region is a place or a region id, never the vendor's description ---------------

@pytest.mark.parametrize(("text", "region"), [
    ("Frankfurt – Tier III, 100 % Ökostrom", "Frankfurt"),
    ("Madrid (ES); energía 100 % renovable", "Madrid (ES)"),
    ("Lisboa, Portugal — campus com energia renovável", "Lisboa, Portugal"),
    ("Sydney (SYD1), low-latency to APAC", "Sydney (SYD1)"),
    ("Oslo (eu-north-3), vannkraft 100 %", "eu-north-3"),
])
def test_a_description_is_cut_from_a_region(text: str, region: str) -> None:
    assert region_core(text) == (region, True)


@pytest.mark.parametrize("text", [
    "Dallas, TX (DAL-2)", "Frankfurt am Main (DE)", "East US 2", "us-east (N. Virginia)",
    "Lyon-Vénissieux, France", "東京 (Tokyo, Japan)", "Ústí nad Labem", "US-Central (Kansas City)",
    "asia-southeast1 (Singapore)", "Reykjavik, IS"])
def test_a_place_is_kept_as_written(text: str) -> None:
    assert region_core(text) == (text, False)


@pytest.mark.parametrize(("label", "value"), [
    ("Standort", "Frankfurt (eu-central-2), Tier III, 100 % Ökostrom"),
    ("Ubicación", "Madrid (eu-central-2); energía 100 % renovable"),
])
def test_a_region_cell_with_a_description_keeps_the_region_id_and_warns(
        tmp_path: Path, label: str, value: str) -> None:
    path = write_workbook(tmp_path / "offer.xlsx", {"Offer": [
        ["Vendor", "Example Cloud GmbH"], ["GPU", "NVIDIA H100 SXM5 80GB"],
        ["Number of GPUs", 64], ["Price per GPU-hour", "USD 2.10"], [label, value]]})
    offer = _one(path)
    assert offer.fields.region == "eu-central-2"
    assert "region-cut-from-description" in _warned(offer, "region")


@pytest.mark.parametrize("text", ["MORAVA DATOVÉ CENTRUM a.s.", "SAVA DATA CENTER d.o.o."])
def test_a_company_named_for_its_data_centre_is_no_place(text: str) -> None:
    assert region_in_text(text) is None


@pytest.mark.parametrize(("text", "name"), [
    ("Example Cloud — your partner for AI compute", "Example Cloud"),
    ("Nube Ejemplo S.L. | la nube para entrenar modelos", "Nube Ejemplo S.L."),
])
def test_a_slogan_is_cut_from_a_vendor(text: str, name: str) -> None:
    assert vendor_core(text) == (name, True)


@pytest.mark.parametrize("text", [
    "CICA – Consorzio Interuniversitario per il Calcolo Adriatico", "Vireo AI Cloud, Inc.",
    "Národní centrum superpočítání (NCS)"])
def test_a_vendor_name_is_kept_as_written(text: str) -> None:
    assert vendor_core(text) == (text, False)


# --- 2. numbers grouped the document's way, in every numeric slot --------------------------

def test_a_point_groups_thousands_in_a_document_that_writes_298_000_00(tmp_path: Path) -> None:
    path = write_workbook(tmp_path / "angebot.xlsx", {
        "Angebot": [["Anbieter", "Beispiel Rechenzentrum GmbH"],
                    ["GPU", "NVIDIA HGX B200"], ["Anzahl GPUs", 64],
                    ["Preis pro GPU-Stunde", "3,95 €"],
                    ["Einmalige Einrichtung", "€ 24.800,00"]],
        "Technik": [["NVLink", "NVLink 5 mit 1.800 GB/s je GPU, 8 GPUs je Knoten"]]})
    offer = _one(path)
    assert offer.fields.intra_node_gbyte_s_per_gpu == pytest.approx(1800)


def test_a_spanish_sheet_reads_its_grouped_memory_by_its_own_convention(tmp_path: Path) -> None:
    path = write_workbook(tmp_path / "oferta.xlsx", {"Oferta": [
        ["Proveedor", "Ejemplo Cómputo S.L."], ["GPU", "NVIDIA H100 SXM5 80GB"],
        ["Número de GPU", 64], ["Precio por GPU-hora", "2,35 €"],
        ["Cuota de alta", "12.500,00 €"],
        ["NVLink", "NVLink 4: 900 GB/s por GPU (18 enlaces)"],
        ["Memoria por nodo", "2.048 GB DDR5, 2 CPU de 56 núcleos"]]})
    offer = _one(path)
    assert offer.fields.cpu_memory_gb_per_node == pytest.approx(2048)


@pytest.mark.parametrize(("rows", "tb"), [
    ([["Fornitore", "Esempio Calcolo S.r.l."], ["GPU", "NVIDIA H100 SXM5 80GB"],
      ["Numero di GPU", 64], ["Prezzo per GPU-ora", "€ 2,35"],
      ["Attivazione una tantum", "€ 12.500,00"],
      ["Note: storage parallelo WEKA da 2.000 TB incluso nel prezzo."]], 2000),
    ([["Proveedor", "Ejemplo Cómputo S.L."], ["GPU", "NVIDIA H100 SXM5 80GB"],
      ["Número de GPU", 64], ["Precio por GPU-hora", "2,35 €"],
      ["Cuota de alta", "12.500,00 €"],
      ["Incluye almacenamiento Lustre de 1.500 TB y soporte 24x7."]], 1500),
])
def test_a_sentence_reads_its_grouped_figures_by_the_documents_convention(
        tmp_path: Path, rows: list[list[Any]], tb: float) -> None:
    offer = _one(write_workbook(tmp_path / "offerta.xlsx", {"Offerta": rows}))
    assert offer.fields.storage_capacity_tb == pytest.approx(tb)


def test_a_grouped_figure_without_a_convention_is_warned(tmp_path: Path) -> None:
    path = write_workbook(tmp_path / "quote.xlsx", {"Quote": [
        ["Vendor", "Example Cloud"], ["GPU", "NVIDIA GB200 NVL72"], ["Number of GPUs", 72],
        ["Price per GPU-hour", "USD 6"],
        ["GPU interconnect", "NVLink 5, 1.800 GB/s per GPU, 72-GPU domain"]]})
    offer = _one(path)
    value = offer.fields.intra_node_gbyte_s_per_gpu
    assert value is None or value == pytest.approx(1800) \
        or "intra_node_gbyte_s_per_gpu" in {w.get("field") for w in offer.warnings}


def test_a_gpu_link_far_below_the_catalog_figure_is_warned(tmp_path: Path) -> None:
    path = write_workbook(tmp_path / "quote.xlsx", {"Quote": [
        ["Vendor", "Example Cloud"], ["GPU", "NVIDIA H100 SXM5 80GB"], ["Number of GPUs", 64],
        ["Price per GPU-hour", "USD 2.10"], ["NVLink bandwidth (GB/s per GPU)", 0.9]]})
    offer = _one(path)
    assert "implausible-value" in _warned(offer, "intra_node_gbyte_s_per_gpu") \
        or offer.fields.intra_node_gbyte_s_per_gpu is None


# --- 3. a price a formula computes: lookups worked out, else never a silent list price ------

def test_a_german_calculator_picks_its_discount_with_hlookup(tmp_path: Path) -> None:
    path = write_workbook(tmp_path / "rechner.xlsx", {"Rechner": [
        ["Beispiel GPU Cloud GmbH — Preisrechner"],
        ["GPU-Typ", "NVIDIA H100 SXM5 80GB", None, "Laufzeit (Monate)", 12, 24, 36],
        ["Knoten", 8, None, "Rabatt", 0.05, 0.12, 0.2],
        ["GPUs pro Knoten", 8],
        ["Listenpreis (€/GPU-Stunde)", 2.5],
        ["Laufzeit (Monate)", 24],
        ["Rabatt", "=HLOOKUP(B6,E2:G3,2,FALSE)"],
        ["Effektiver Preis (€/GPU-Stunde)", "=ROUND(B5*(1-B7),4)"]]})
    offer = _one(path)
    assert offer.fields.price_usd_per_gpu_hour == pytest.approx(2.2 * 1.1)


def test_a_spanish_calculator_with_index_match_and_if(tmp_path: Path) -> None:
    path = write_workbook(tmp_path / "calculadora.xlsx", {"Calculadora": [
        ["Ejemplo Nube S.L. — calculadora de reserva"],
        ["GPU", "NVIDIA H100 SXM5 80GB", None, "Plazo", "Descuento"],
        ["Número de GPU", 64, None, "6 meses", 0.0],
        ["Precio de lista (€/GPU-hora)", 2.0, None, "12 meses", 0.1],
        ["Plazo elegido", "12 meses", None, "24 meses", 0.15],
        ["Descuento aplicado", '=IF(B5="","",INDEX(E3:E5,MATCH(B5,D3:D5,0)))'],
        ["Precio efectivo (€/GPU-hora)", "=ROUND(B4*(1-B6),2)"]]})
    offer = _one(path)
    assert offer.fields.price_usd_per_gpu_hour == pytest.approx(1.8 * 1.1)


def test_an_effective_price_that_cannot_be_worked_out_is_warned(tmp_path: Path) -> None:
    path = write_workbook(tmp_path / "calculator.xlsx", {"Calculator": [
        ["Example GPU Cloud — pricing calculator"],
        ["GPU type", "NVIDIA H100 SXM5 80GB", None, "Term", "Discount"],
        ["Number of GPUs", 64, None, 12, 0.1],
        ["List rate ($/GPU-hr)", 2.69, None, 24, 0.18],
        ["Term (months)", 24],
        ["Effective rate ($/GPU-hr)", "=B4*(1-XLOOKUP(B5,D3:D4,E3:E4))"]]})
    offer = _one(path)
    assert offer.fields.price_usd_per_gpu_hour is None or \
        "formula-not-computed-value-from-elsewhere" in _warned(offer, "price_usd_per_gpu_hour")


@pytest.mark.parametrize(("formula", "value"), [
    ("IFERROR(VLOOKUP(B2,D1:E3,2,FALSE),0)", 0.0),  # 18 months is not in the table
    ("IFERROR(VLOOKUP(12,D1:E3,2,FALSE),0)", 0.1),
    ("VLOOKUP(30,D1:E3,2)", 0.15),  # approximate: the largest term at most 30
    ("INDEX(E1:E3,MATCH(24,D1:D3,0))", 0.15),
    ("CHOOSE(2,0.05,0.1,0.2)", 0.1),
    ("SUMPRODUCT(D1:D3,E1:E3)", 6 * 0 + 12 * 0.1 + 24 * 0.15),
    ("IF(AND(B2>=12,B2<36),B1*0.9,B1)", 2.5 * 0.9),
    ('IF(A1="Liste",B1,0)', 2.5),
])
def test_lookups_and_conditions_over_the_workbooks_cells(formula: str, value: float) -> None:
    grid = SheetGrid(file="q.xlsx", name="Rechner",
                     rows=[["Liste", 2.5, "", 6, 0.0], ["Laufzeit", 18, "", 12, 0.1],
                           ["", "", "", 24, 0.15]], formula_cells_without_value={(0, 2)})
    evaluate_formulas([grid], {"Rechner": {(0, 2): formula}})
    assert grid.rows[0][2] == pytest.approx(value)


# --- 4. the vendor's name as the document writes it, never the file name's short form -------

@pytest.mark.parametrize(("file", "rows", "vendor"), [
    ("03_nordwind_h100_preisrechner.xlsx",
     [["Nordwind KI-Cloud — Preisrechner für reservierte Kapazität"]], "Nordwind KI-Cloud"),
    ("tejo_proposta.xlsx",
     [["Proposta comercial"], ["Notas: preços sem IVA. Com os melhores cumprimentos, Ana Silva | "
                               "Diretora Comercial | Tejo Computação Lda. | NIF 509 123 456"]],
     "Tejo Computação Lda."),
    ("07_borealis_b200_quote.xlsx", [["BOREALIS RECHENKRAFT AB"]], "Borealis Rechenkraft AB"),
])
def test_a_vendor_from_the_file_name_takes_the_documents_own_form(
        tmp_path: Path, file: str, rows: list[list[Any]], vendor: str) -> None:
    path = write_workbook(tmp_path / file, {"Quote": [
        *rows, [], ["GPU", "NVIDIA H100 SXM5 80GB"], ["Number of GPUs", 64],
        ["Price per GPU-hour", "USD 2.10"]]})
    offer = _one(path)
    assert offer.fields.vendor == vendor
    assert "vendor" in {w.get("field") for w in offer.warnings}


# --- 4b. a switch's or one port's speed is never a node's bandwidth -----------------------

@pytest.mark.parametrize("rows", [
    [["Beispiel Systemhaus GmbH — Angebot 2026-017"], [],
     ["Pos.", "Beschreibung", "Menge", "Einzelpreis (€)", "Gesamt (€)"],
     [1, "HGX H100 8-GPU Server, 8x NVIDIA H100 SXM5 80GB", 4, 300000, 1200000],
     [2, "NVIDIA Quantum-2 QM9700 Switch, 64 Ports NDR 400Gb/s InfiniBand", 1, 25000, 25000],
     [3, "ConnectX-7 400Gb/s NDR adapter (8 per server, one per GPU)", 32, 1500, 48000]],
    [["Ejemplo Sistemas S.L. — Presupuesto 2026-044"], [],
     ["Línea", "Descripción", "Cantidad", "Precio unitario (€)", "Importe (€)"],
     [1, "Servidor HGX H200 8-GPU, 8x NVIDIA H200 141GB", 2, 320000, 640000],
     [2, "Conmutador InfiniBand NDR de 64 puertos a 400 Gb/s", 1, 25000, 25000],
     [3, "Red: 8 x 400 Gb/s NDR por nodo, sin sobresuscripción", 1, 0, 0]],
])
def test_a_switch_port_speed_is_not_the_node_bandwidth(tmp_path: Path,
                                                       rows: list[list[Any]]) -> None:
    offer = _one(write_workbook(tmp_path / "quote.xlsx", {"Quote": rows}))
    assert offer.fields.inter_node_gbit_s_per_node == pytest.approx(3200)


@pytest.mark.parametrize(("network", "per_node"), [
    ("InfiniBand NDR, 51.2 Tb/s aggregate bisection bandwidth", None),
    ("RoCE, 25,6 Tbit/s Gesamtbandbreite des Clusters", None),
    ("InfiniBand NDR 400 Gb/s por NIC, 8 NIC por nodo", 3200),
    ("InfiniBand NDR, 3,2 Tbit/s aggregiert je Knoten", 3200),
])
def test_a_fabrics_aggregate_is_not_a_nodes_bandwidth(tmp_path: Path, network: str,
                                                      per_node: float | None) -> None:
    offer = _one(write_workbook(tmp_path / "offer.xlsx", {"Offer": [
        ["Vendor", "Example Cloud"], ["GPU", "NVIDIA H100 SXM5 80GB"], ["Number of GPUs", 64],
        ["GPUs per node", 8], ["Price per GPU-hour", "USD 2.10"], ["Network", network]]}))
    assert offer.fields.inter_node_gbit_s_per_node == (
        None if per_node is None else pytest.approx(per_node))


# --- 4c. a rental's total over its term is never read as a purchase price -------------------

@pytest.mark.parametrize("rows", [
    [["Scope: 2 x GB200 NVL72 racks, dedicated."], [],
     ["Vendor", "Example Rack Cloud"], ["System", "NVIDIA GB200 NVL72"],
     ["Price", "USD 200,000 per rack per month"], ["Term", "12 months"],
     ["Activation fee (one-time)", "USD 30,000"], ["Grand total", "USD 4,830,000"]],
    [["Anbieter", "Beispiel Rack Cloud GmbH"], ["System", "NVIDIA GB200 NVL72"],
     ["Anzahl GPUs", 72], ["Preis", "EUR 180.000,00 pro Rack pro Monat"],
     ["Laufzeit", "24 Monate"], ["Gesamtpreis", "EUR 4.320.000,00"]],
])
def test_a_total_the_monthly_compute_explains_is_the_contract_value(
        tmp_path: Path, rows: list[list[Any]]) -> None:
    offer = _one(write_workbook(tmp_path / "offer.xlsx", {"Offer": rows}))
    assert offer.fields.offer_kind == "rent"
    assert offer.fields.capex_usd is None
    monthly = 400_000 if offer.fields.currency == "USD" else 180_000 * 1.1
    assert offer.fields.price_usd_per_gpu_hour == pytest.approx(
        monthly / (offer.fields.gpu_count * 730), rel=0.01)


# --- 2b. a billing API's quote writes every amount in cents, its nested prices too ----------

@pytest.mark.parametrize(("currency", "cents", "fx", "want"), [
    ("eur", 285, {"EUR": 1.0}, 2.85),
    ("sek", 2450, {"SEK": 0.1}, 2.45),
])
def test_the_nested_prices_of_a_billing_quote_are_in_the_minor_unit(
        tmp_path: Path, currency: str, cents: int, fx: dict[str, float], want: float) -> None:
    import json

    quote = {"object": "quote", "currency": currency, "vendor": {"name": "Example Cloud AB"},
             "line_items": {"data": [{
                 "description": "NVIDIA H100 SXM 80GB GPU-hours, 8 GPUs", "quantity": 8,
                 "amount_subtotal": cents * 8,
                 "price": {"unit": "gpu_hour", "unit_amount": cents, "currency": currency}}]}}
    path = tmp_path / "quote.json"
    path.write_text(json.dumps(quote), encoding="utf-8")
    offer = _one(path, fx)
    assert offer.fields.price_usd_per_gpu_hour == pytest.approx(want)


def test_an_export_with_an_object_key_of_its_own_is_not_a_billing_object(tmp_path: Path) -> None:
    """Only a billing API's object types (quote, invoice, price...) write amounts in cents: an
    export that merely has an "object" key keeps its amounts as written."""
    import json

    export = {"object": "capacity_offer", "currency": "usd", "vendor": {"name": "Example Cloud"},
              "line_items": {"data": [{
                  "description": "NVIDIA H100 SXM 80GB GPU-hours, 8 GPUs", "quantity": 8,
                  "amount": 2.45 * 8,
                  "price": {"unit": "gpu_hour", "unit_amount": 2.45, "currency": "usd"}}]}}
    path = tmp_path / "export.json"
    path.write_text(json.dumps(export), encoding="utf-8")
    offer = _one(path, {})
    assert offer.fields.price_usd_per_gpu_hour == pytest.approx(2.45)
