"""Whole offers are found however their required facts are laid out (issue 10, round 10).

Each class is written here in at least two languages or layouts that no blind set used: a price
grid whose GPU counts sit in a second grid of the same rows and columns, a superseded sheet
that says another replaces it, a ticked row among several terms of an order form, rack-scale
systems bought with their GPUs counted from the catalogue, volume tiers in a YAML or JSON
offer, options stacked down one sheet under a fee label known only by its basis, and a quote
printed to PDF and converted back to a workbook.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from workbooks import write_workbook

from evaltool.normalize.core import normalize_files


def _offers(path: Path, fx: dict[str, float] | None = None) -> list[Any]:
    result = normalize_files([path], fx or {})
    assert not result.not_evaluated, result.not_evaluated
    return sorted(result.offers, key=lambda o: str(o.fields.price_usd_per_gpu_hour))


# --- a price grid whose counts are in a second grid of the same labels ----------------------

def test_counts_in_a_second_grid_join_the_price_grid_by_row_and_column(tmp_path: Path) -> None:
    path = write_workbook(tmp_path / "rates.xlsx", {"Rates 2026": [
        ["Northwind GPU Cloud GmbH - dedicated GPU rates 2026"],
        ["Price per GPU-hour (EUR), 12-month commitment, excl. VAT."],
        [],
        ["Model", "Frankfurt (FRA1)", "Paris (PAR2)", "Remarks"],
        ["NVIDIA H100 SXM 80 GB - 8 GPUs per node, InfiniBand NDR 400 Gb/s per GPU",
         "2,45 €", "2,60 €", "dedicated fabric"],
        ["NVIDIA L40S 48 GB - 4 GPUs per node, Ethernet 100 Gb/s per node",
         "0,80 €", "0,85 €", "inference"],
        [],
        ["Available capacity (GPUs)"],
        ["Model", "Frankfurt (FRA1)", "Paris (PAR2)"],
        ["NVIDIA H100", 256, 64],
        ["NVIDIA L40S", 32, 16],
    ]})
    offers = _offers(path, {"EUR": 1.1})
    got = {(o.fields.accelerator, o.fields.gpu_count, round(o.fields.price_usd_per_gpu_hour, 3))
           for o in offers}
    assert got == {("H100-SXM", 256, 2.695), ("H100-SXM", 64, 2.86),
                   ("L40S", 32, 0.88), ("L40S", 16, 0.935)}
    h100 = next(o for o in offers if o.fields.gpu_count == 256)
    assert h100.fields.gpus_per_node == 8
    assert h100.fields.region is not None and "Frankfurt" in h100.fields.region


def test_a_count_grid_in_german_with_columns_in_another_order(tmp_path: Path) -> None:
    path = write_workbook(tmp_path / "preise.xlsx", {"Preise": [
        ["Preis pro GPU-Stunde in EUR, Laufzeit 24 Monate"],
        ["Modell", "München", "Berlin"],
        ["AMD Instinct MI300X 192 GB — 8 GPU je Knoten, RoCE 400 Gbit/s je GPU", "2,10 €",
         "2,20 €"],
        [],
        ["Verfügbare Kapazität (Knoten)"],
        ["Modell", "Berlin", "München"],
        ["AMD Instinct MI300X", 4, 16],
    ]})
    offers = _offers(path, {"EUR": 1.0})
    got = {(o.fields.gpu_count, o.fields.price_usd_per_gpu_hour) for o in offers}
    assert got == {(128, 2.1), (32, 2.2)}  # 16 nodes x 8 in Munich, 4 x 8 in Berlin


def test_a_second_grid_of_figures_without_a_count_word_is_not_a_count(tmp_path: Path) -> None:
    path = write_workbook(tmp_path / "rates.xlsx", {"Rates": [
        ["Price per GPU-hour (USD)"],
        ["Model", "Dallas", "Ohio"],
        ["NVIDIA H100 SXM 80 GB - 8 GPUs per node, InfiniBand", 2.5, 2.6],
        [],
        ["Lead time (weeks)"],
        ["Model", "Dallas", "Ohio"],
        ["NVIDIA H100", 4, 6],
    ]})
    result = normalize_files([path], {})
    assert all(o.fields.gpu_count not in (4, 6, 32, 48) for o in result.offers)


# --- a superseded sheet that names the sheet replacing it --------------------------------

@pytest.mark.parametrize("marker", [
    "PRICE LIST 2025 - VOID, replaced by 'Prices 2026'",
    "LISTINO 2025 — ANNULLATO, vedi 'Prices 2026'",
    "CENNIK 2025 — UNIEWAŻNIONY, zastąpiony arkuszem 'Prices 2026'",
    "CENÍK 2025 — ZRUŠENO, viz list 'Prices 2026'",
])
def test_a_sheet_that_says_it_is_void_is_skipped_and_the_current_one_read(
        tmp_path: Path, marker: str) -> None:
    path = write_workbook(tmp_path / "prices.xlsx", {
        "Prices 2025": [[marker], ["GPU", "NVIDIA H100 SXM 80GB"], ["Number of GPUs", 64],
                        ["Price per GPU-hour", "USD 3.40"]],
        "Prices 2026": [["GPU", "NVIDIA H100 SXM 80GB"], ["Number of GPUs", 64],
                        ["Price per GPU-hour", "USD 2.95"]]})
    result = normalize_files([path], {})
    (offer,) = result.offers
    assert offer.fields.price_usd_per_gpu_hour == 2.95
    codes = {w.get("code") for w in offer.warnings}
    assert "superseded-sheet-skipped" in codes


def test_a_file_whose_sheets_yield_nothing_names_every_sheet_it_tried(tmp_path: Path) -> None:
    path = write_workbook(tmp_path / "nothing.xlsx", {
        "Old": [["TARIFAS 2025 — ANULADA, sustituida por 'New'"], ["GPU", "H100"]],
        "New": [["Notes"], ["We will send prices next week."]],
        "Terms": [["Payment", "30 days net"]]})
    result = normalize_files([path], {})
    assert not result.offers
    text = str([entry.model_dump() for entry in result.not_evaluated])
    for sheet in ("Old", "New", "Terms"):
        assert sheet in text
    said = [e for entry in result.not_evaluated for e in entry.errors
            if e["code"] == "sheets-tried"]
    assert said and "Old (superseded sheet)" in said[0]["message"]


@pytest.mark.parametrize(("title", "per"), [
    ("Precio por GPU y hora (€), compromiso de 12 meses, IVA no incluido.", ("gpu", "hour")),
    ("Cena za GPU na godzinę (PLN); umowa na 24 miesiące; ceny netto", ("gpu", "hour")),
    ("Price per node per month, 36-month term", ("node", "month")),
])
def test_a_title_sentence_states_the_grid_basis_in_one_of_its_clauses(
        title: str, per: tuple[str, str]) -> None:
    from evaltool.read.grid_companions import clause_basis
    assert clause_basis(title) == per


# --- the ticked row among alternatives of an order form -----------------------------------

def _order_form(rows: list[list[Any]]) -> dict[str, list[list[Any]]]:
    return {"Bestellung": [
        ["Anbieter", "Beispiel Rechenzentrum GmbH"],
        ["GPU", "NVIDIA H100 SXM5 80GB, 8 GPUs pro Knoten"],
        ["Anzahl GPUs", 64],
        [],
        *rows,
    ]}


@pytest.mark.parametrize("rows", [
    [["", "Laufzeit", "Preis pro GPU-Stunde (EUR)"],
     ["[ ]", "12 Monate", "2,40 €"], ["[x]", "24 Monate", "2,10 €"],
     ["[ ]", "36 Monate", "1,95 €"]],
    [["Laufzeit", "Preis pro GPU-Stunde (EUR)", "Auswahl"],
     ["12 Monate", 2.40, None], ["24 Monate", 2.10, "X"], ["36 Monate", 1.95, None]],
    [["Laufzeit", "Preis pro GPU-Stunde (EUR)"],
     ["☐ 12 Monate", 2.40], ["✔ 24 Monate", 2.10], ["☐ 36 Monate", 1.95]],
])
def test_the_ticked_row_among_alternatives_is_the_order(tmp_path: Path,
                                                        rows: list[list[Any]]) -> None:
    path = write_workbook(tmp_path / "form.xlsx", _order_form(rows))
    (offer,) = _offers(path, {"EUR": 1.0})
    assert offer.fields.price_usd_per_gpu_hour == pytest.approx(2.10)
    assert offer.fields.term_months == 24
    assert offer.fields.gpu_count == 64


def test_a_spanish_order_form_with_the_ticked_term_in_its_last_column(tmp_path: Path) -> None:
    path = write_workbook(tmp_path / "pedido.xlsx", {"Pedido": [
        ["Proveedor", "Ejemplo Cómputo S.L."],
        ["GPU", "NVIDIA H200 141GB"],
        ["Número de GPUs", 32],
        [],
        ["Plazo", "Tarifa (€ por GPU-hora)", "Elegir"],
        ["6 meses", "3,10 €", "☐"],
        ["12 meses", "2,90 €", "☐"],
        ["24 meses", "2,70 €", "☑"],
    ]})
    (offer,) = _offers(path, {"EUR": 1.0})
    assert offer.fields.price_usd_per_gpu_hour == pytest.approx(2.70)
    assert offer.fields.term_months == 24


def test_two_ticked_rows_pick_no_row(tmp_path: Path) -> None:
    path = write_workbook(tmp_path / "form.xlsx", _order_form([
        ["", "Laufzeit", "Preis pro GPU-Stunde (EUR)"],
        ["[x]", "12 Monate", "2,40 €"], ["[x]", "24 Monate", "2,10 €"]]))
    result = normalize_files([path], {"EUR": 1.0})
    # Two ticks say no one order: both rows stay alternatives, neither is read as the order.
    assert {o.fields.term_months for o in result.offers} == {12, 24}
    assert not any(w.get("code") == "ticked-row-read" for o in result.offers for w in o.warnings)


# --- whole racks bought: their GPUs counted from the system's name or the catalogue ------

@pytest.mark.parametrize(("description", "qty", "gpus"), [
    ("Baie NVIDIA GB200 NVL72 entièrement intégrée (36 Grace CPU)", 2, 144),
    ("GB200 NVL72-Rack, vollständig integriert und getestet", 1, 72),
    ("NVIDIA GB200 rack, liquid-cooled, fully integrated", 3, 216),  # the catalogue's domain
])
def test_a_purchase_line_of_whole_racks_counts_their_gpus(tmp_path: Path, description: str,
                                                          qty: int, gpus: int) -> None:
    path = write_workbook(tmp_path / "rack.xlsx", {"Quote": [
        ["Example Systems SAS - purchase quote"],
        ["Item", "Description", "Qty", "Unit price (EUR)", "Total (EUR)"],
        [1, description, qty, 3_000_000, 3_000_000 * qty],
        [2, "Installation and commissioning", 1, 50_000, 50_000],
    ]})
    (offer,) = _offers(path, {"EUR": 1.0})
    assert offer.fields.offer_kind == "purchase"
    assert offer.fields.gpu_count == gpus
    assert offer.fields.capex_usd == pytest.approx(3_000_000 * qty + 50_000)


def test_a_compute_tray_of_a_rack_scale_system_is_not_a_rack() -> None:
    from evaltool.normalize.rack_lines import gpus_per_rack_bought
    assert gpus_per_rack_bought("GB200 NVL72 compute tray (4 x B200)") is None
    assert gpus_per_rack_bought("NVL72 rack installation service") is None
    assert gpus_per_rack_bought("HGX H100 8-GPU server") is None


# --- volume tiers in a YAML or JSON offer ------------------------------------------------

def test_yaml_volume_tiers_with_their_own_keys_pick_the_tier_of_the_count(tmp_path: Path) -> None:
    path = tmp_path / "angebot.yaml"
    path.write_text("""\
anbieter: Beispiel Cloud GmbH
waehrung: EUR
positionen:
  - pos: 1
    beschreibung: "NVIDIA H100 SXM 80GB, 8 GPUs pro Knoten, InfiniBand"
    einheit: GPU-Stunde
    anzahl_gpus: 96
    laufzeit_monate: 12
    staffelpreise:
      - ab_gpus: 1
        bis_gpus: 31
        preis: 2.60
      - ab_gpus: 32
        bis_gpus: 127
        preis: 2.30
      - ab_gpus: 128
        bis_gpus: null
        preis: 2.05
""", encoding="utf-8")
    (offer,) = _offers(path, {"EUR": 1.0})
    assert offer.fields.gpu_count == 96
    assert offer.fields.price_usd_per_gpu_hour == pytest.approx(2.30)


def test_json_tiers_as_range_texts_with_the_count_elsewhere(tmp_path: Path) -> None:
    path = tmp_path / "bid.json"
    path.write_text("""{
  "vendor": {"name": "Example Compute Inc."},
  "offer": {
    "accelerator": "AMD Instinct MI300X",
    "gpus": 256,
    "price_unit": "USD per GPU-hour",
    "volume_pricing": [
      {"range": "1-127", "rate": 2.40},
      {"range": "128-511", "rate": 2.10},
      {"range": "512+", "rate": 1.90}
    ]
  }
}""", encoding="utf-8")
    (offer,) = _offers(path)
    assert offer.fields.price_usd_per_gpu_hour == pytest.approx(2.10)


def test_json_tiers_are_never_picked_when_no_count_decides(tmp_path: Path) -> None:
    path = tmp_path / "bid.json"
    path.write_text("""{
  "vendor": "Example Compute Inc.",
  "accelerator": "NVIDIA H200",
  "price_unit": "USD per GPU-hour",
  "tiers": [{"from": 1, "to": 63, "price": 3.10}, {"from": 64, "to": null, "price": 2.80}]
}""", encoding="utf-8")
    result = normalize_files([path], {})
    # No GPU count: no offer is whole, and no tier's price is passed off as the offer's.
    assert not result.offers
    assert result.not_evaluated


# --- options stacked down one sheet, priced under a label known only by its basis ------

def test_stacked_french_options_priced_by_a_fee_label_that_states_its_basis(
        tmp_path: Path) -> None:
    path = write_workbook(tmp_path / "offre.xlsx", {"Offre": [
        ["NUAGE ALPIN SAS"],
        ["Offre commerciale n° 2026-031. Montants en euros HT."],
        [],
        ["VARIANTE A – Entraînement"],
        ["Serveur", "HGX H100 avec 8× NVIDIA H100 SXM 80 Go"],
        ["Nombre de serveurs", 8],
        ["Durée", "12 mois"],
        ["Redevance mensuelle par serveur", 14_600],
        [],
        ["VARIANTE B – Entraînement étendu"],
        ["Serveur", "HGX H100 avec 8× NVIDIA H100 SXM 80 Go"],
        ["Nombre de serveurs", 16],
        ["Durée", "24 mois"],
        ["Redevance mensuelle par serveur", 13_140],
    ]})
    offers = _offers(path, {"EUR": 1.0})
    got = sorted((o.fields.gpu_count, round(o.fields.price_usd_per_gpu_hour, 3),
                  o.fields.term_months) for o in offers)
    assert got == [(64, 2.5, 12), (128, 2.25, 24)]  # 14 600 / (8 x 730); 13 140 / 5 840
    assert all(any(w.get("code") == "price-by-basis-label" for w in o.warnings) for o in offers)


@pytest.mark.parametrize(("label", "read"), [
    ("Opłata miesięczna za serwer", "Price per node-month"),
    ("Cuota mensual por servidor", "Price per node-month"),
    ("Ore mensili per server", None),  # hours, not money
    ("Consumo mensile per server (kWh)", None),  # energy
    ("GPUs per server", None),  # a count
])
def test_a_label_is_a_price_by_its_basis_only_when_it_measures_no_other_thing(
        label: str, read: str | None) -> None:
    from evaltool.read.basis_labels import basis_price_label
    assert basis_price_label(label, 7008) == read


def test_a_company_name_is_never_an_enumerated_option() -> None:
    from evaltool.read.blocks import names_an_option
    from evaltool.read.vocabulary import load_vocabulary
    vocab = load_vocabulary()
    assert not names_an_option("APPENNINO CLOUD S.r.l.", vocab)
    assert names_an_option("OPZIONE A – Inferenza base", vocab)
    assert names_an_option("Option 2", vocab)
    assert names_an_option("【プランB】8ノード × 12ヶ月", vocab)


# --- a quote printed to PDF and converted back: continued lines, repeated page headers ----

def test_a_printed_quote_continues_its_line_below_and_across_a_page_break(
        tmp_path: Path) -> None:
    path = write_workbook(tmp_path / "devis.xlsx", {"Tableau 1": [
        [None, "SERVEURS DU LAC SAS", None, None, None, "Page 1 / 2"],
        [None, "Devis n° D-2026-77    Date : 12/01/2026    Valable jusqu'au : 28/02/2026"],
        [],
        [None, "Pos.", "Désignation", "Qté", "Prix unitaire", "Montant"],
        [None, "1", "Serveur Supermicro SYS-821GE — configuré", 2, 310_000, 620_000],
        [None, None, "  NVIDIA HGX H200 8-GPU SXM5 141GB"],
        [None, None, "  2x Intel Xeon Platinum 8568Y+ 48C"],
        [],
        [None, "SERVEURS DU LAC SAS", None, None, None, "Page 2 / 2"],
        [None, "Devis n° D-2026-77    Date : 12/01/2026    Valable jusqu'au : 28/02/2026"],
        [None, "Pos.", "Désignation", "Qté", "Prix unitaire", "Montant"],
        [None, None, "  8x ConnectX-7 400Gb/s NDR InfiniBand"],
        [None, "2", "Installation et mise en service", 1, 12_000, 12_000],
        [],
        [None, None, None, None, "TOTAL HT (EUR)", 632_000],
    ]})
    (offer,) = _offers(path, {"EUR": 1.0})
    f = offer.fields
    assert (f.offer_kind, f.accelerator, f.gpu_count, f.node_count) == ("purchase", "H200", 16, 2)
    assert f.capex_usd == pytest.approx(632_000)
    assert f.inter_node_fabric == "infiniband"


def test_continued_lines_in_a_german_quote_with_bullets(tmp_path: Path) -> None:
    path = write_workbook(tmp_path / "angebot.xlsx", {"Angebot": [
        ["Beispiel Systemhaus GmbH – Angebot A-551"],
        ["Pos", "Beschreibung", "Menge", "Einzelpreis (EUR)", "Gesamt (EUR)"],
        [1, "GPU-Server, konfiguriert", 4, 250_000, 1_000_000],
        [None, "- 8x AMD Instinct MI300X 192GB OAM"],
        [None, "- 2x AMD EPYC 9454 48C"],
        [2, "Rack-Integration", 1, 8_000, 8_000],
    ]})
    (offer,) = _offers(path, {"EUR": 1.0})
    assert (offer.fields.accelerator, offer.fields.gpu_count) == ("MI300X", 32)


def test_a_heading_between_groups_of_lines_is_no_continued_line() -> None:
    from evaltool.read.cells import SheetGrid
    from evaltool.read.printed_lines import continued_description
    grid = SheetGrid("q.xlsx", "Q", [["1", "Server", 2, 100], [None, "B. Colocation (monthly)"],
                                     [None, "  8x H100 SXM 80GB"]])
    roles = {"part": 0, "description": 1, "quantity": 2, "unit_price": 3}
    assert continued_description(grid, 1, roles) is None
    assert continued_description(grid, 2, roles) == "8x H100 SXM 80GB"


def test_a_count_grid_that_says_what_it_counts_in_its_corner(tmp_path: Path) -> None:
    path = write_workbook(tmp_path / "tarifs.xlsx", {"Tarifs": [
        ["Prix par GPU et par heure (EUR), engagement 12 mois"],
        ["Modèle", "Paris (PAR1)", "Lyon (LYS2)"],
        ["NVIDIA H200 141 Go — 8 GPU par nœud, InfiniBand NDR 400 Gb/s par GPU", 3.0, 3.2],
        [],
        ["Nœuds disponibles", "Paris (PAR1)", "Lyon (LYS2)"],
        ["NVIDIA H200", "6 nœuds", "2 nœuds"],
    ]})
    got = {(o.fields.gpu_count, o.fields.price_usd_per_gpu_hour)
           for o in _offers(path, {"EUR": 1.0})}
    assert got == {(48, 3.0), (16, 3.2)}


def test_void_as_a_condition_of_the_current_offer_never_skips_its_sheet(tmp_path: Path) -> None:
    path = write_workbook(tmp_path / "quote.xlsx", {
        "Quote": [["This offer is void if not signed by 31 March 2026."],
                  ["GPU", "NVIDIA H100 SXM 80GB"], ["Number of GPUs", 64],
                  ["Price per GPU-hour", "USD 2.95"]],
        "Specs": [["CPU", "2x Intel Xeon 8480+"]]})
    (offer,) = normalize_files([path], {}).offers
    assert offer.fields.price_usd_per_gpu_hour == 2.95


def test_counts_on_another_sheet_join_the_price_grid_by_its_labels(tmp_path: Path) -> None:
    path = write_workbook(tmp_path / "rates.xlsx", {
        "Rates": [["Price per GPU-hour (USD)"], ["Model", "London", "Manchester"],
                  ["NVIDIA H100", 2.5, 2.6], ["NVIDIA A100 80GB", 1.5, 1.6]],
        "Capacity": [["Available GPUs"], ["Model", "Manchester", "London"],
                     ["NVIDIA A100 80GB", 8, 16], ["NVIDIA H100", 32, 64]]})
    got = {(o.fields.accelerator, o.fields.gpu_count, o.fields.price_usd_per_gpu_hour)
           for o in _offers(path)}
    # never the first figure of a row for every offer: each cell's own count
    assert got == {("H100-SXM", 64, 2.5), ("H100-SXM", 32, 2.6),
                   ("A100-SXM-80GB", 16, 1.5), ("A100-SXM-80GB", 8, 1.6)}


def test_alternatives_side_by_side_with_a_row_of_tick_boxes(tmp_path: Path) -> None:
    path = write_workbook(tmp_path / "bestilling.xlsx", {"Bestilling": [
        ["Leverandør", "Eksempel Cloud ApS"],
        ["GPU", "NVIDIA H100 SXM5 80GB"],
        ["Antal GPU'er", 64],
        [],
        ["Løbetid", "12 måneder", "24 måneder", "36 måneder"],
        ["Pris pr. GPU-time (DKK)", "kr. 21,00", "kr. 19,50", "kr. 18,00"],
        ["Valg", "☐", "☒", "☐"],
    ]})
    (offer,) = _offers(path, {"DKK": 0.15})
    assert offer.fields.term_months == 24
    assert offer.fields.price_usd_per_gpu_hour == pytest.approx(19.5 * 0.15)


@pytest.mark.parametrize("label", ["Stromkosten pro Server und Monat",
                                   "Canone di manutenzione mensile per server",
                                   "Frais de colocation par baie et par mois"])
def test_a_label_naming_another_cost_is_never_the_compute_price(label: str) -> None:
    from evaltool.read.basis_labels import basis_price_label
    assert basis_price_label(label, 900) is None


def test_a_ticked_line_of_a_line_item_table_is_read_with_the_table(tmp_path: Path) -> None:
    path = write_workbook(tmp_path / "order.xlsx", {"Order": [
        ["Vendor", "Example Cloud Ltd"],
        [],
        ["", "Description", "Qty", "Unit", "Unit price (USD)"],
        ["☐", "GPU node 8x NVIDIA H100 SXM 80GB, 12-month term", 16, "node-month", 17_500],
        ["☒", "GPU node 8x NVIDIA H100 SXM 80GB, 24-month term", 16, "node-month", 16_060],
        ["☐", "GPU node 8x NVIDIA H100 SXM 80GB, 36-month term", 16, "node-month", 14_600],
    ]})
    (offer,) = _offers(path)
    assert offer.fields.gpu_count == 128
    assert offer.fields.price_usd_per_gpu_hour == pytest.approx(16_060 / 8 / 730)


def test_a_converter_that_dropped_the_indent_still_continues_the_line(tmp_path: Path) -> None:
    path = write_workbook(tmp_path / "quote.xlsx", {"Table 1": [
        ["NORTHGATE SYSTEMS LTD", None, None, None, "Page 1 of 1"],
        ["Line", "Description", "Qty", "Unit Price", "Ext. Price"],
        ["1", "HPE Cray XD670 — configured", 2, 320_000, 640_000],
        [None, "NVIDIA HGX H200 8-GPU SXM5 141GB"],
        [None, "2x Intel Xeon Platinum 8568Y+ 48C"],
        ["2", "Installation services", 1, 6_000, 6_000],
        [None, None, None, "TOTAL (GBP)", 646_000],
    ]})
    (offer,) = _offers(path, {"GBP": 1.0})
    assert (offer.fields.accelerator, offer.fields.gpu_count) == ("H200", 16)


def test_an_enumerated_heading_under_a_line_stays_a_heading() -> None:
    from evaltool.read.cells import SheetGrid
    from evaltool.read.printed_lines import continued_description
    from evaltool.read.vocabulary import load_vocabulary
    roles = {"part": 0, "description": 1, "quantity": 2, "unit_price": 3}
    for heading in ("B. Colocation (2 racks)", "Option 2 — 24 months", "Monthly services:"):
        grid = SheetGrid("q.xlsx", "Q", [["1", "Server 8x H100", 2, 100], [None, heading]])
        assert continued_description(grid, 1, roles, load_vocabulary()) is None, heading


def test_json_tiers_with_a_flag_on_the_buyers_tier_need_no_count(tmp_path: Path) -> None:
    path = tmp_path / "bid.json"
    path.write_text("""{
  "supplier": "Example Compute Inc.",
  "accelerator": "NVIDIA H200",
  "gpu_count": 40,
  "price_unit": "USD per GPU-hour",
  "tiers": [{"from": 1, "to": 31, "price": 3.10, "applies": false},
            {"from": 32, "to": 127, "price": 2.80, "applies": true},
            {"from": 128, "to": null, "price": 2.50, "applies": false}]
}""", encoding="utf-8")
    (offer,) = _offers(path)
    assert offer.fields.price_usd_per_gpu_hour == pytest.approx(2.80)


def test_a_count_grid_laid_out_the_other_way_round(tmp_path: Path) -> None:
    path = write_workbook(tmp_path / "prijzen.xlsx", {"Prijzen": [
        ["Prijs per GPU per uur (EUR), looptijd 12 maanden"],
        ["Model", "Amsterdam (AMS1)", "Eindhoven (EIN1)"],
        ["NVIDIA H100 SXM 80 GB", 2.4, 2.3],
        ["AMD Instinct MI300X", 2.1, 2.0],
        [],
        ["Beschikbare GPU's"],
        ["Locatie", "NVIDIA H100 SXM 80 GB", "AMD Instinct MI300X"],
        ["Eindhoven (EIN1)", 32, 16],
        ["Amsterdam (AMS1)", 64, 48],
    ]})
    got = {(o.fields.accelerator, o.fields.gpu_count, o.fields.price_usd_per_gpu_hour)
           for o in _offers(path, {"EUR": 1.0})}
    assert got == {("H100-SXM", 64, 2.4), ("H100-SXM", 32, 2.3), ("MI300X", 48, 2.1),
                   ("MI300X", 16, 2.0)}


def test_a_long_row_label_without_a_separator_is_its_model_first() -> None:
    from evaltool.read.grid_companions import row_head
    assert row_head("NVIDIA H200 141GB 8 GPU per node InfiniBand NDR 400 Gb/s per GPU") == \
        "NVIDIA H200 141GB"
    assert row_head("Dedicated GPU capacity in our Frankfurt data centre with support") is None


@pytest.mark.parametrize("rows", [
    [["", "Opzione A", "Opzione B"],
     ["Server", "Lenovo SR675 V3 con 8× NVIDIA L40S 48 GB",
      "Lenovo SR675 V3 con 8× NVIDIA L40S 48 GB"],
     ["Numero server", 4, 16], ["Durata contrattuale", "12 mesi", "24 mesi"],
     ["Canone mensile per server", 7008, 6424]],
])
def test_options_side_by_side_priced_by_a_fee_label_under_a_letterhead(
        tmp_path: Path, rows: list[list[Any]]) -> None:
    # The letterhead names a company with "Cloud" in it: it heads no section of the labels.
    path = write_workbook(tmp_path / "offerta.xlsx", {"Offerta": [
        ["ALPI CLOUD S.r.l."], ["Importi in euro, IVA esclusa."], *rows]})
    got = sorted((o.fields.gpu_count, round(o.fields.price_usd_per_gpu_hour, 3),
                  o.fields.term_months) for o in _offers(path, {"EUR": 1.0}))
    assert got == [(32, 1.2, 12), (128, 1.1, 24)]


def test_a_letterhead_with_a_legal_form_is_a_company_not_a_section() -> None:
    from evaltool.read.company_names import is_company_name
    assert is_company_name("ALPI CLOUD S.r.l.")
    assert is_company_name("Example Compute GmbH")
    assert not is_company_name("Storage")
    assert not is_company_name("Network and storage")


def test_two_sheets_that_each_name_the_other_as_void_skip_neither(tmp_path: Path) -> None:
    path = write_workbook(tmp_path / "prices.xlsx", {
        "Prices 2025": [["PRICE LIST 2025 - VOID, replaced by 'Prices 2026'"]],
        "Prices 2026": [["This list replaces 'Prices 2025' (void)."],
                        ["GPU", "NVIDIA H100 SXM 80GB"], ["Number of GPUs", 64],
                        ["Price per GPU-hour", "USD 2.95"]]})
    (offer,) = normalize_files([path], {}).offers
    assert offer.fields.price_usd_per_gpu_hour == 2.95


@pytest.mark.parametrize(("rows", "want"), [
    ([["Orchestration"], ["☐ Slurm"], ["☒ Kubernetes"], ["☐ None"]], "kubernetes"),
    ([["Orchestrierung"], ["[x] Slurm (verwaltet)"], ["[ ] Kubernetes"]], "slurm"),
])
def test_a_checklist_under_its_label_gives_the_ticked_item(
        tmp_path: Path, rows: list[list[Any]], want: str) -> None:
    path = write_workbook(tmp_path / "form.xlsx", {"Quote": [
        ["Vendor", "Example Cloud Ltd"], ["GPU", "NVIDIA H100 SXM 80GB"],
        ["Number of GPUs", 64], ["Price per GPU-hour", "USD 2.10"], [], *rows]})
    (offer,) = _offers(path)
    assert offer.fields.orchestrator == want  # never the first item of the list


@pytest.mark.parametrize(("text", "cores"), [
    ("2x Intel Xeon Gold 6448Y 32C 2.1GHz", 64),
    ("2x Intel Xeon Platinum 8480+ 56C", 112),
    ("2x AMD EPYC 9454 48C", 96),
])
def test_a_resellers_bare_core_count_after_the_cpu_model(text: str, cores: int) -> None:
    from evaltool.normalize.phrases import system_facts
    assert system_facts(text)["cpu_cores_per_node"] == cores
