"""Specification: shapes of real quotes the reader must understand, each with a small example
of our own (never a blind file): per-rack prices of rack-scale systems, contract-sheet figures
read with the role their label or sentence gives them, a percentage never read as an amount."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from workbooks import write_workbook

from evaltool.normalize.core import normalize_files
from evaltool.normalize.phrases import orchestrator_named, system_facts
from evaltool.normalize.shapes import count_facts
from evaltool.normalize.values import parse_count, parse_money, price_per_gpu_hour

_workbook = write_workbook


def _one(path: Path, fx: dict[str, float] | None = None) -> Any:
    result = normalize_files([path], fx or {})
    assert not result.not_evaluated, result.not_evaluated
    (offer,) = result.offers
    return offer


def test_a_per_rack_price_is_divided_by_the_gpus_of_a_rack() -> None:
    money = parse_money("USD 100,000 per rack per month")
    assert money.per == ("rack", "month")
    price = price_per_gpu_hour(money, None, gpus_per_rack=72)
    assert price.value == pytest.approx(100_000 / 72 / 730)


def test_rack_scale_offer_counts_and_prices_by_the_rack(tmp_path: Path) -> None:
    path = _workbook(tmp_path / "rack.xlsx", {"Quote": [
        ["Example Neocloud - rack-scale proposal"],
        ["Scope: 2 x GB300 NVL72 racks in one hall."],
        [],
        ["Item", "Detail"],
        ["Vendor", "Example Neocloud"],
        ["System", "NVIDIA GB200 NVL72"],
        ["Price", "USD 150,000 per rack per month"],
        ["Prepayment", "20% of total contract value at signature"],
    ]})
    offer = _one(path)
    f = offer.fields
    assert f.gpu_count == 144
    assert f.price_usd_per_gpu_hour == pytest.approx(150_000 / 72 / 730)
    # A share of the contract value is not an amount: never 20 USD.
    assert f.upfront_usd is None
    assert any(w.get("field") == "upfront_usd" for w in offer.warnings)


def test_terms_sheet_figures_take_the_role_of_their_label(tmp_path: Path) -> None:
    path = _workbook(tmp_path / "terms.xlsx", {
        "Offer": [["Vendor", "Example Cloud"], ["GPU", "NVIDIA H100 SXM5 80GB"],
                  ["Number of GPUs", 64], ["Price per GPU-hour", "USD 2.10"]],
        "Terms": [
            ["Commercial terms"],
            [],
            ["Service level", "99.7% availability per calendar month"],
            ["Service credits", "5% of monthly charges if uptime < 99.7%; 15% if uptime < 99.0%"],
            ["Support response", "Severity 1: 30 minutes, 24x7"],
            ["Hardware replacement", "Failed nodes swapped within 6 hours"],
        ]})
    f = _one(path).fields
    assert f.sla_uptime_pct == 99.7
    assert f.sla_max_credit_pct == 15  # the top credit tier, never the 99.7 threshold
    assert f.support_response_hours == 0.5
    assert f.hw_replacement_hours == 6


def test_a_credit_for_late_delivery_is_not_the_service_credit_cap(tmp_path: Path) -> None:
    path = _workbook(tmp_path / "delay.xlsx", {
        "Offer": [["Vendor", "Example Cloud"], ["GPU", "NVIDIA H100 SXM5 80GB"],
                  ["Number of GPUs", 64], ["Price per GPU-hour", "USD 2.10"]],
        "Terms": [["Terms"], [],
                  ["Delivery", "The provider shall deliver no later than 2027-03-01; 5% credit "
                                "per week of delay, capped at 30%."]]})
    assert _one(path).fields.sla_max_credit_pct is None


def test_one_cell_label_value_lines_on_a_contract_sheet(tmp_path: Path) -> None:
    path = _workbook(tmp_path / "conditions.xlsx", {
        "Devis": [["Fournisseur", "Exemple SAS"], ["GPU", "NVIDIA H100 SXM5 80GB"],
                  ["Nombre de GPU", 64], ["Prix par heure GPU", "2,10 €"]],
        "Conditions": [["Conditions générales (extrait)"], [],
                       ["Disponibilité garantie : 99,9 % par mois."],
                       ["Remplacement matériel : sous 8 heures après signalement."]]})
    f = _one(path, {"EUR": 1.08}).fields
    assert f.sla_uptime_pct == 99.9
    assert f.hw_replacement_hours == 8


def test_nested_portal_export_reads_each_key_with_its_parent(tmp_path: Path) -> None:
    import json

    path = tmp_path / "portal.json"
    path.write_text(json.dumps({
        "provider": {"name": "Example Cloud AB", "country": "SE", "vat_id": "SE000"},
        "currency": "USD",
        "options": [{
            "title": "Reserved H200",
            "instance": {"type": "h200.8x", "gpu": {"model": "NVIDIA H200", "count": 8},
                         "nodes": 4,
                         "interconnect": {"type": "RoCE", "gbps_per_gpu": 400,
                                          "dedicated": True}},
            "pricing": {"amount": 3.1, "unit": "per_gpu_hour", "term_months": 12},
        }],
    }), encoding="utf-8")
    offer = _one(path)
    f = offer.fields
    assert (f.gpus_per_node, f.node_count, f.gpu_count) == (8, 4, 32)  # count is per instance
    assert f.price_usd_per_gpu_hour == pytest.approx(3.1) and f.term_months == 12
    assert f.inter_node_fabric == "roce" and f.inter_node_gbit_s_per_gpu == 400
    assert f.network_dedicated is True
    assert f.vendor == "Example Cloud AB"
    assert not [w for w in offer.warnings if w.get("field") == "vendor"]


def test_csv_key_value_with_section_item_value_unit_columns(tmp_path: Path) -> None:
    path = tmp_path / "kv.csv"
    path.write_text(
        "section,item,value,unit,notes\n"
        "provider,Vendor,Example Cloud,,\n"
        "compute,Accelerator,NVIDIA H100 SXM5,,\n"
        "compute,GPU memory,80,GB,NVLink 4: 900 GB/s per GPU\n"
        "compute,GPUs per node,8,,\n"
        "compute,Nodes,4,,\n"
        "network,Scale-out,8x 400GbE RoCEv2,per node,\n"
        "price,GPU-hour,2.10,USD per GPU-hour,\n", encoding="utf-8")
    f = _one(path).fields
    assert f.price_usd_per_gpu_hour == pytest.approx(2.10)  # 'GPU-hour' under 'price'
    assert f.gpu_memory_gb == 80 and f.intra_node_gbyte_s_per_gpu == 900  # link, not memory
    assert f.inter_node_fabric == "roce" and f.inter_node_gbit_s_per_node == 3200


def test_spot_capacity_and_firm_delivery_fields_are_read(tmp_path: Path) -> None:
    path = _workbook(tmp_path / "spot.xlsx", {"Quote": [
        ["Vendor", "Example Spot Cloud"], ["GPU", "NVIDIA H100 SXM5 80GB"],
        ["Number of GPUs", 64], ["Price per GPU-hour", "USD 1.10"],
        ["Interruptible", "yes"], ["Spot availability", "85 %"],
        ["Preemptions per node-day", 0.3], ["Committed delivery date", "2027-04-01"]]})
    f = _one(path).fields
    assert f.preemptible is True and f.availability_pct == 85
    assert f.preemptions_per_node_day == 0.3
    assert str(f.delivery_date) == "2027-04-01" and f.delivery_date_committed is True


def test_a_hedged_contract_delivery_date_is_not_committed(tmp_path: Path) -> None:
    path = _workbook(tmp_path / "hedged.xlsx", {
        "Offer": [["Vendor", "Example Cloud"], ["GPU", "NVIDIA H100 SXM5 80GB"],
                  ["Number of GPUs", 64], ["Price per GPU-hour", "USD 2.10"]],
        "Terms": [["Terms"], [],
                  ["Delivery", "Provider will use reasonable efforts to make the cluster "
                               "available by 1 May 2027."]]})
    f = _one(path).fields
    assert str(f.delivery_date) == "2027-05-01" and f.delivery_date_committed is False


def test_reader_and_normaliser_issues_carry_specific_registered_codes(tmp_path: Path) -> None:
    from evaltool.issues import issue_types

    path = _workbook(tmp_path / "codes.xlsx", {"Quote": [
        ["Vendor", "Example Cloud"], ["GPU", "NVIDIA H100 SXM5 80GB"],
        ["Number of GPUs", 64], ["Price per GPU-hour", "USD 2.10"],
        ["Egress", "TBD"], ["Uptime SLA", "most of the time"]]})
    offer = _one(path)
    codes = {w["code"] for w in offer.warnings}
    assert {"value-not-given", "value-unreadable"} <= codes
    assert "invalid-input" not in codes and codes <= set(issue_types())
    (rejected,) = normalize_files([_workbook(tmp_path / "no_price.xlsx", {"Quote": [
        ["Vendor", "Example Cloud"], ["GPU", "NVIDIA H100 SXM5 80GB"],
        ["Number of GPUs", 64]]})]).not_evaluated
    assert {e["code"] for e in rejected.errors} == {"required-field-missing"}


# --- quotes in other languages: labels from field_synonyms.yaml, bases from the money parser


@pytest.mark.parametrize("rows", [
    # Spanish key-value quote
    [["Proveedor", "Ejemplo Nube S.A."], ["Acelerador", "NVIDIA H100 SXM 80GB"],
     ["Número de GPU", 32], ["Precio por GPU/hora", "2,00 €"]],
    # Italian key-value quote, the unit in a unit column beside the value
    [["Fornitore", "Esempio Calcolo S.p.A."], ["Acceleratore", "NVIDIA H100 SXM 80GB"],
     ["Numero nodi", 4, "nodi"], ["GPU per nodo", 8], ["Prezzo calcolo", 2.0, "€ per GPU/ora"]],
    # Polish key-value quote
    [["Dostawca", "Przykład Obliczenia sp. z o.o."], ["Akceleratory", "NVIDIA H100 SXM 80GB"],
     ["Liczba węzłów", 4], ["Akceleratorów na węzeł", 8], ["Cena", "2,00 € / akcelerator / godz."]],
])
def test_quotes_in_spanish_italian_and_polish_read_counts_and_prices(
        tmp_path: Path, rows: list[list[Any]]) -> None:
    offer = _one(_workbook(tmp_path / "q.xlsx", {"Q": rows}), fx={"EUR": 1.1})
    assert offer.fields.gpu_count == 32
    assert offer.fields.price_usd_per_gpu_hour == pytest.approx(2.2)


@pytest.mark.parametrize(("text", "per"), [
    ("2,45 € por GPU/hora", ("gpu", "hour")),
    ("12,40 zł PLN / akcelerator / godz.", ("gpu", "hour")),
    ("€ 1,79 per GPU-uur", ("gpu", "hour")),
    ("¥298,000 / GPU / 月", ("gpu", "month")),
    ("CHF 9'800 par nœud / mois", ("node", "month")),
])
def test_price_bases_in_other_languages(text: str, per: tuple[str, ...]) -> None:
    assert parse_money(text).per == per


@pytest.mark.parametrize("value", [8, "98.32 USD / instance-hour", "€ per GB per month"])
def test_a_count_or_a_price_is_never_taken_as_the_accelerator(tmp_path: Path,
                                                             value: Any) -> None:
    """A label is evidence, a value's shape is evidence: under an accelerator-like label a
    count or a price is skipped with a warning, and the accelerator named elsewhere is read."""
    path = _workbook(tmp_path / "q.xlsx", {"Q": [
        ["Vendor", "Example Cloud"],
        ["GPU", value],
        ["System", "NVIDIA H100 SXM 80GB"],
        ["Total GPUs", 16],
        ["Price per GPU-hour", "USD 2.10"],
    ]})
    offer = _one(path)
    assert offer.fields.accelerator == "H100-SXM"
    assert any(w.get("code") in ("accelerator-label-not-a-name", "label-shape-disagree")
               for w in offer.warnings)


def test_amounts_in_an_assumed_currency_each_carry_the_warning(tmp_path: Path) -> None:
    """No currency beside any amount: USD is assumed, and every amount says it rests on it."""
    path = _workbook(tmp_path / "q.xlsx", {"Q": [
        ["Vendor", "Example Cloud"], ["Accelerator", "NVIDIA H100 SXM 80GB"],
        ["Total GPUs", 16], ["Price per GPU-hour", 2.5], ["Upfront payment", 10000],
    ]})
    offer = _one(path)
    warned = {w.get("field") for w in offer.warnings if w.get("code") == "amount-in-assumed-usd"}
    assert {"price_usd_per_gpu_hour", "upfront_usd"} <= warned
    assert any(w.get("code") == "assumed-value" and w.get("field") == "currency"
               for w in offer.warnings)


def test_an_offer_name_taken_from_a_title_row_is_warned(tmp_path: Path) -> None:
    path = _workbook(tmp_path / "q.xlsx", {"Q": [
        ["Example Cloud Ltd · 1 High Street, Reading · VAT GB 000 0000 00"],
        [],
        ["Vendor", "Example Cloud"], ["Accelerator", "NVIDIA H100 SXM 80GB"],
        ["Total GPUs", 16], ["Price per GPU-hour", "USD 2.50"],
    ]})
    offer = _one(path)
    if offer.fields.offer_name is not None:
        assert any(w.get("field") == "offer_name" for w in offer.warnings)


def test_a_semicolon_csv_with_decimal_commas_is_split_on_semicolons(tmp_path: Path) -> None:
    """The delimiter is the one that gives the rows a steady width, not the most frequent
    character: '12,40' holds a decimal comma, not a column break."""
    path = tmp_path / "oferta.csv"
    path.write_text("\ufeffPozycja;Wartość;Uwagi\nDostawca;Przykład sp. z o.o.;\n"
                    "Akceleratory;NVIDIA H100 SXM 80GB;\nLiczba węzłów;2;\n"
                    "Akceleratorów na węzeł;8;łącznie 16\n"
                    "Wydajność szczytowa;1 979;TFLOPS\n"
                    "Cena;12,40;zł / akcelerator / godz.\n", encoding="utf-8")
    offer = _one(path, fx={"PLN": 0.25})
    assert offer.fields.gpu_count == 16
    assert offer.fields.price_usd_per_gpu_hour == pytest.approx(3.1)
    assert offer.fields.claimed_peak_tflops_per_gpu == 1979


def test_options_in_columns_under_a_two_row_header_with_a_unit_column(tmp_path: Path) -> None:
    """'Kennzahl | Einheit | Konfiguration' over 'Option 1 | Option 2': the unit column gives
    each bare value its unit, and '2.048' is 2048 in a quote that writes '19,60'."""
    path = _workbook(tmp_path / "angebot.xlsx", {"Angebot": [
        ["Beispiel Rechenzentrum GmbH"],
        ["Merkmal", "Einheit", "Angebotene Konfiguration"],
        [None, None, "Option 1", "Option 2"],
        ["GPU-Typ", "–", "NVIDIA H100 SXM5 80 GB", "NVIDIA H100 SXM5 80 GB"],
        ["Anzahl Knoten", "Stück", "4", "8"],
        ["GPUs je Knoten", "Stück", "8", "8"],
        ["Arbeitsspeicher je Knoten", "GiB", "2.048", "1.024"],
        ["Preis je Knotenstunde", "€/Knoten/h", "19,60", "18,40"],
    ]})
    result = normalize_files([path], {"EUR": 1.0})
    assert not result.not_evaluated
    one, two = sorted(result.offers, key=lambda o: o.fields.gpu_count or 0)
    assert (one.fields.gpu_count, two.fields.gpu_count) == (32, 64)
    assert one.fields.cpu_memory_gb_per_node == pytest.approx(2048 * 2**30 / 1e9)
    assert one.fields.price_usd_per_gpu_hour == pytest.approx(19.60 / 8)


def test_a_number_with_a_dot_before_three_digits_is_warned_when_the_quote_shows_no_convention(
        tmp_path: Path) -> None:
    path = _workbook(tmp_path / "q.xlsx", {"Q": [
        ["Vendor", "Example Cloud"], ["Accelerator", "NVIDIA H100 SXM 80GB"],
        ["Total GPUs", 16], ["Memory per node", "2.048"], ["Price per GPU-hour", "USD 2"],
    ]})
    offer = _one(path)
    assert any(w.get("field") == "cpu_memory_gb_per_node" for w in offer.warnings)


def test_hyperscaler_instance_wording_reads_price_memory_and_region(tmp_path: Path) -> None:
    """'Recurring hourly charge per instance' is a price (not an accelerator because it says
    instance), 'Instance memory' the node's memory, and a region closing a sentence keeps no
    full stop."""
    path = _workbook(tmp_path / "q.xlsx", {"Q": [
        ["Vendor", "Example Cloud"],
        ["Instance type", "ex.8gpu — 8 × NVIDIA H100 SXM5 80 GB"],
        ["Instances", 4],
        ["Recurring hourly charge per instance", "80.00 USD / instance-hour"],
        ["Instance memory", "2,048 GiB"],
        ["Region", "us-east (Virginia)."],
    ]})
    offer = _one(path)
    assert offer.fields.price_usd_per_gpu_hour == pytest.approx(10.0)
    assert offer.fields.cpu_memory_gb_per_node == pytest.approx(2048 * 2**30 / 1e9)
    assert offer.fields.region == "us-east (Virginia)"


def test_two_labels_and_two_figures_with_one_shared_unit_are_paired() -> None:
    """'Throughput read / write | GB/s | 120 / 90': each figure keeps the shared unit."""
    from evaltool.normalize.shapes import pair_counts

    assert pair_counts("Durchsatz Lesen / Schreiben", "120 / 90 GB/s") == [
        ("Durchsatz Lesen", "120 GB/s"), ("Schreiben", "90 GB/s")]
    assert pair_counts("Nodes / GPUs per node", "24 / 8") == [("Nodes", "24"),
                                                             ("GPUs per node", "8")]


def test_a_count_label_takes_the_figure_the_phrase_gives_it(tmp_path: Path) -> None:
    """'Host | 4 chips per TPU VM host (128 hosts)': 128 hosts of 4 chips, not 4 hosts."""
    path = _workbook(tmp_path / "q.xlsx", {"Q": [
        ["Vendor", "Example Cloud"], ["Chip", "TPU v5p"],
        ["Host", "4 chips per TPU VM host (128 hosts)"], ["Price per chip-hour", "USD 4.20"],
    ]})
    offer = _one(path)
    assert (offer.fields.node_count, offer.fields.gpus_per_node) == (128, 4)
    assert offer.fields.gpu_count == 512


@pytest.mark.parametrize("text", ["InfiniBand NDR400, 8 portar per nod",
                                  "InfiniBand NDR400, 8 ports per node",
                                  "InfiniBand NDR400, 8 puertos por nodo"])
def test_a_port_count_beside_a_fabric_generation_multiplies_its_speed(text: str) -> None:
    from evaltool.normalize.facts import _bandwidth

    bw = _bandwidth(text)
    assert bw is not None
    assert (bw.gbit_s, bw.gbit_s_each, bw.count) == (3200, 400, 8)


@pytest.mark.parametrize(("cpu", "note"), [
    ("2x AMD EPYC 9575F", "64 cores each"),
    ("2 × Intel Xeon (po 64 rdzeni)", None),
    ("2 × AMD EPYC (64 kärnor vardera)", None),
    ("2 × Intel Xeon (64 core cad.)", None),
    ("2× Intel Xeon Gold (64 núcleos cada)", None),
    ("2 x AMD EPYC, 64 cores cada", None),
])
def test_sockets_times_cores_each_in_the_value_or_the_notes_column(
        tmp_path: Path, cpu: str, note: str | None) -> None:
    path = _workbook(tmp_path / "q.xlsx", {"Q": [
        ["Field", "Value", "Notes"],
        ["Vendor", "Example Cloud"], ["Accelerator", "NVIDIA H100 SXM 80GB"],
        ["Total GPUs", 16], ["Price per GPU-hour", "USD 2"], ["CPU", cpu, note],
    ]})
    assert _one(path).fields.cpu_cores_per_node == 128


def test_a_nested_price_whose_unit_starts_with_its_currency(tmp_path: Path) -> None:
    """{"amount": 2.05, "unit": "USD/GPU/hr"} is 2.05 USD per GPU-hour, not 'per USD'."""
    path = tmp_path / "listing.json"
    path.write_text('{"broker": "Example Capacity LLC", "offers": [{"id": "X-1", '
                    '"gpu": "H100 80GB SXM5", "quantity_gpus": 64, '
                    '"price": {"amount": 2.05, "unit": "USD/GPU/hr"}, '
                    '"earliest_start": "2027-03-01"}]}', encoding="utf-8")
    offer = _one(path)
    assert offer.fields.price_usd_per_gpu_hour == pytest.approx(2.05)
    assert offer.fields.vendor == "Example Capacity LLC"


def test_a_japanese_configuration_phrase_gives_nodes_and_gpus_per_node(tmp_path: Path) -> None:
    """'構成 (Configuration) | 8基/ノード × 4ノード (計32基)': 4 nodes of 8 accelerators."""
    path = _workbook(tmp_path / "q.xlsx", {"Q": [
        ["発行元", "Example KK"], ["GPU", "NVIDIA H100 SXM5 80GB"],
        ["構成 (Configuration)", "8基/ノード × 4ノード (計32基)"],
        ["月額単価 (Monthly unit price)", "¥300,000 / GPU / 月"],
    ]})
    offer = _one(path, fx={"JPY": 0.0067})
    assert (offer.fields.node_count, offer.fields.gpus_per_node) == (4, 8)
    assert offer.fields.price_usd_per_gpu_hour == pytest.approx(300_000 * 0.0067 / 730)


# --- offers found, whatever the layout (issue 10, offer-level classes) ---------------------

def _all(path: Path, fx: dict[str, float] | None = None, mapping: Any = None) -> list[Any]:
    result = normalize_files([path], fx or {}, mapping)
    assert not result.not_evaluated, result.not_evaluated
    return sorted(result.offers, key=lambda o: o.id)


def test_a_per_instance_price_takes_its_gpus_per_instance_from_a_note(tmp_path: Path) -> None:
    path = _workbook(tmp_path / "instances.xlsx", {
        "Pricing": [["Vendor", "Example Cloud"],
                    ["Instance type", "ex.h200.big"],
                    ["Instances", 4],
                    ["Rate per instance-hour", "USD 40.00"],
                    [],
                    ["Note: 1 instance = 8 GPUs; prices exclude taxes."]],
        "Specs": [["GPUs", "8 x NVIDIA H200 141 GB each"]]})
    f = _one(path).fields
    assert f.accelerator == "H200" and f.gpus_per_node == 8 and f.gpu_count == 32
    assert f.price_usd_per_gpu_hour == pytest.approx(5.0)


def test_a_gpu_total_in_prose_with_the_model_between_count_and_word() -> None:
    from evaltool.normalize.shapes import count_facts

    assert count_facts("4 x ex.big instances (32 NVIDIA H100 GPUs)") == {"gpu_count": 32}
    assert count_facts("3 × HGX H200 (je 8× NVIDIA H200)") == {"node_count": 3,
                                                              "gpus_per_node": 8}
    assert count_facts("2 x 400 Gb/s per node (one NIC per GPU)") == {}
    # "80GB" is the memory of each GPU, never their number.
    assert count_facts("we offer 64 NVIDIA A100 SXM4 80GB GPUs in 8 nodes")["gpu_count"] == 64


def test_line_item_priced_per_node_hour_in_its_price_cell(tmp_path: Path) -> None:
    path = _workbook(tmp_path / "angebot.xlsx", {"Angebot": [
        ["Beispiel Rechenzentrum GmbH · Angebot 1"],
        [],
        ["Pos.", "Beschreibung", "Menge", "Einheit", "Preis (netto)"],
        [1, "GPU-Server NVIDIA HGX H100 SXM5 80 GB, 8 GPU je Knoten", 4, "Knoten",
         "20,00 € / Knoten / h"],
        [2, "Dateisystem, nutzbare Kapazität", "1.000", "TB", "18,00 € / TB / Monat"],
    ]})
    f = _one(path, {"EUR": 1.0}).fields
    assert f.node_count == 4 and f.gpu_count == 32
    assert f.price_usd_per_gpu_hour == pytest.approx(2.5)
    assert f.storage_capacity_tb == 1000


def test_a_label_that_looks_like_the_accelerator_but_names_none_gives_way(
        tmp_path: Path) -> None:
    path = _workbook(tmp_path / "hw.xlsx", {"Offer": [
        ["Vendor", "Example Cloud"],
        ["Product", "Dedicated H100 cluster"],
        ["Nodes", "2 × HGX H100 (each 8× NVIDIA H100 80 GB)"],
        ["Price", "USD 2.00 per GPU-hour"],
        ["Hardware replacement", "within 4 hours"],
        ["Partition", "booster-x"]]})
    offer = _one(path)
    assert offer.fields.accelerator == "H100-SXM"
    assert offer.fields.gpu_count == 16


def test_options_in_columns_under_a_described_corner_with_merged_cells(tmp_path: Path) -> None:
    from openpyxl import Workbook

    wb = Workbook()
    ws = wb.active
    ws.title = "Offer"
    for row in [["Example Compute B.V. - Offerte 7"], [],
                ["Omschrijving", "Optie\nA", "Optie B"],
                ["Accelerator", "AMD Instinct MI300X 192 GB", None],
                ["Aantal nodes", 2, 4],
                ["GPU's per node", 8, 8],
                ["Prijs per GPU-uur", "€ 2,00", "€ 1,80"],
                ["Contractduur", "12 maanden", "24 maanden"]]:
        ws.append(row)
    ws.merge_cells("B4:C4")  # one accelerator for both options
    wb.save(tmp_path / "cols.xlsx")
    a, b = _all(tmp_path / "cols.xlsx", {"EUR": 1.0})
    assert "\n" not in (a.fields.offer_name or "")
    assert (a.fields.offer_name, b.fields.offer_name) == ("Optie A", "Optie B")
    assert a.fields.accelerator == b.fields.accelerator == "MI300X"
    assert (a.fields.gpu_count, b.fields.gpu_count) == (16, 32)


def test_a_short_options_table_with_a_price_and_shared_specs_below(tmp_path: Path) -> None:
    path = _workbook(tmp_path / "tpu.xlsx", {"Proposal": [
        ["Example Cloud Platform - TPU proposal"],
        [],
        [None, "On-demand", "1-year commit"],
        ["Price per chip-hour (USD)", 4.0, 3.0],
        ["Commitment term", "—", "12 months"],
        [],
        ["Technical summary"],
        ["Chip", "TPU v5p, 95 GB HBM per chip"],
        ["Host", "4 chips per host (16 hosts)"]]})
    on_demand, committed = sorted(_all(path), key=lambda o: -o.fields.price_usd_per_gpu_hour)
    for offer in (on_demand, committed):
        assert offer.fields.accelerator == "TPU-v5p"
        assert offer.fields.gpu_count == 64  # the specs below the table belong to both
    assert committed.fields.price_usd_per_gpu_hour == 3.0
    assert committed.fields.term_months == 12


def test_one_offer_per_sheet_shares_the_cover_and_notes(tmp_path: Path) -> None:
    option = [["Parameter", "Value"], ["Accelerator", "NVIDIA H100 SXM 80GB"],
              ["Nodes", 4], ["GPUs per node", 8], ["Price", "$2.00 / GPU / hr"]]
    bigger = [row if row[0] != "Nodes" else ["Nodes", 16] for row in option]
    path = _workbook(tmp_path / "sheets.xlsx", {
        "Overview": [["Example AI Cloud, Inc. · Two sizing options"]],
        "Small": option, "Large": bigger,
        "Notes": [["Availability SLA 99.5% per month."]]})
    small, large = sorted(_all(path), key=lambda o: o.fields.gpu_count)
    assert (small.fields.offer_name, large.fields.offer_name) == ("Small", "Large")
    assert (small.fields.gpu_count, large.fields.gpu_count) == (32, 128)
    assert small.fields.vendor == large.fields.vendor == "Example AI Cloud, Inc."
    assert any(w["code"] == "options-in-sheets" for w in small.warnings)


def test_offers_stacked_down_one_sheet_under_headings(tmp_path: Path) -> None:
    path = _workbook(tmp_path / "stacked.xlsx", {"Quotation": [
        ["Vendor", "Example Cloud"],
        [],
        ["[Plan A]"],
        ["GPU", "NVIDIA H100 SXM5 80GB"],
        ["Number of GPUs", 64],
        ["Price per GPU-hour", "USD 2.00"],
        [],
        ["[Plan B]"],
        ["GPU", "NVIDIA H200 SXM 141GB"],
        ["Number of GPUs", 128],
        ["Price per GPU-hour", "USD 3.00"],
        [],
        ["[Common]"],
        ["Orchestration", "Slurm"]]})
    a, b = sorted(_all(path), key=lambda o: o.fields.gpu_count)
    assert (a.fields.offer_name, a.fields.accelerator, a.fields.price_usd_per_gpu_hour) == \
        ("Plan A", "H100-SXM", 2.0)
    assert (b.fields.offer_name, b.fields.accelerator, b.fields.price_usd_per_gpu_hour) == \
        ("Plan B", "H200", 3.0)
    assert a.fields.orchestrator == b.fields.orchestrator == "slurm"


def test_a_superseded_sheet_is_skipped_and_said(tmp_path: Path) -> None:
    path = _workbook(tmp_path / "versions.xlsx", {
        "Offer v2": [["Vendor", "Example Cloud"], ["GPU", "NVIDIA H100 SXM5 80GB"],
                     ["Number of GPUs", 64], ["Price per GPU-hour", "USD 2.00"]],
        "Offer v1 (superseded)": [["GPU", "NVIDIA H100 SXM5 80GB"], ["Number of GPUs", 32],
                                  ["Price per GPU-hour", "USD 2.50"]]})
    offer = _one(path)
    assert offer.fields.gpu_count == 64 and offer.fields.price_usd_per_gpu_hour == 2.0
    assert any(w["code"] == "superseded-sheet-skipped" for w in offer.warnings)


def test_a_price_per_chip_hour_in_a_json_line_item_list(tmp_path: Path) -> None:
    import json

    path = tmp_path / "tpu.json"
    path.write_text(json.dumps({
        "vendor": "Example Cloud", "currency": "USD",
        "hardware": {"accelerator": "Cloud TPU v5p", "chips": 256},
        "line_items": [
            {"description": "TPU v5p chip-hour, committed", "quantity": 256,
             "unit": "chip-hour", "net_price": 3.0, "term_months": 12},
            {"description": "Managed Lustre", "unit": "GiB-month", "net_price": 0.1},
            {"description": "Internet egress", "unit": "GB", "net_price": 0.05}]}))
    f = _one(path).fields
    assert f.price_usd_per_gpu_hour == 3.0 and f.term_months == 12
    assert f.storage_usd_per_tb_month == pytest.approx(0.1 * 1e12 / 2**30)
    assert f.egress_usd_per_gb == 0.05
    assert f.capex_usd is None


def test_a_price_for_the_whole_term_of_all_gpus(tmp_path: Path) -> None:
    import json

    path = tmp_path / "listing.json"
    path.write_text(json.dumps({"offers": [{
        "id": "L-1", "vendor": "Example Broker", "gpu": "H200 SXM 141GB",
        "quantity_gpus": 10, "term_months": 6,
        "price": {"amount": 43800.0, "unit": "USD per 6-month term, all 10 GPUs"}}]}))
    assert _one(path).fields.price_usd_per_gpu_hour == pytest.approx(43800 / (10 * 6 * 730))


@pytest.mark.parametrize(("banner", "footer", "vendor"), [
    ("Commercial options (USD)", "Example GPU Cloud Inc. — Response to RFP-1",
     "Example GPU Cloud Inc."),
    ("Prepared for: Buyer Labs · Prepared by: Example Cloud, Inc. Strategic Accounts", None,
     "Example Cloud, Inc."),
    ("This order is entered into between Example Compute Corp. and Buyer Labs, Inc. "
     "(\"Customer\").", None, "Example Compute Corp."),
    ("Spett.le Buyer Labs", "Esempio Calcolo S.r.l. – Via Roma 1, Milano",
     "Esempio Calcolo S.r.l."),
    ("Proposal for GPU capacity in our Reno, NV facility", None, "Vendorfile"),
])
def test_the_vendor_is_the_company_named_with_its_legal_form_not_the_customer(
        tmp_path: Path, banner: str, footer: str | None, vendor: str) -> None:
    rows: list[list[Any]] = [[banner], [], ["GPU", "NVIDIA H100 SXM5 80GB"],
                             ["Number of GPUs", 64], ["Price per GPU-hour", "USD 2.00"]]
    if footer:
        rows += [[], [footer]]
    offer = _one(_workbook(tmp_path / "Vendorfile_quote.xlsx", {"Quote": rows}))
    assert offer.fields.vendor == vendor
    assert any(w["code"] == "vendor-not-labelled" for w in offer.warnings)


def test_a_csv_comment_line_names_the_vendor_and_the_validity(tmp_path: Path) -> None:
    path = tmp_path / "rows.csv"
    path.write_text("quote_id,gpu,total_gpus,price_per_gpu_hr_usd\n"
                    "Q-1,NVIDIA H100 SXM,64,2.00\nQ-2,NVIDIA H200,64,2.50\n"
                    "# Example Forge Cloud - quote for Buyer Labs. Prices in USD, "
                    "valid until 2030-12-31.\n")
    offers = _all(path)
    assert [o.fields.vendor for o in offers] == ["Example Forge Cloud"] * 2
    assert all(str(o.fields.valid_until) == "2030-12-31" for o in offers)


def test_a_mapping_file_makes_one_offer_of_each_mapped_column(tmp_path: Path) -> None:
    from evaltool.normalize.teach import load_user_mapping

    # Option columns the reader cannot tell from a labelled row by itself.
    path = _workbook(tmp_path / "odd.xlsx", {"Quote": [
        ["Vendor", "Example Cloud", "Example Cloud"],
        ["GPU", "NVIDIA H100 SXM5 80GB", "NVIDIA H200 SXM 141GB"],
        ["Number of GPUs", 64, 128],
        ["Price per GPU-hour", "USD 2.00", "USD 3.00"]]})
    mapping_path = tmp_path / "map.yaml"
    mapping_path.write_text("options: {Small: B, Large: C}\n")
    mapping = load_user_mapping(mapping_path)
    large, small = _all(path, mapping=mapping)
    assert (small.fields.offer_name, small.fields.accelerator, small.fields.gpu_count,
            small.fields.price_usd_per_gpu_hour) == ("Small", "H100-SXM", 64, 2.0)
    assert (large.fields.offer_name, large.fields.accelerator, large.fields.gpu_count,
            large.fields.price_usd_per_gpu_hour) == ("Large", "H200", 128, 3.0)
    assert small.source["mapping"] == str(mapping_path)
    assert any(w["code"] == "options-from-mapping" for w in small.warnings)


def test_score_applies_the_mapping_of_options_end_to_end(tmp_path: Path) -> None:
    from evaltool.pipeline import score_files

    path = _workbook(tmp_path / "odd.xlsx", {"Quote": [
        ["Vendor", "Example Cloud", "Example Cloud"],
        ["GPU", "NVIDIA H100 SXM5 80GB", "NVIDIA H200 SXM 141GB"],
        ["Number of GPUs", 64, 128],
        ["Price per GPU-hour", "USD 2.00", "USD 3.00"]]})
    mapping_path = tmp_path / "map.yaml"
    mapping_path.write_text("options: {Small: B, Large: C}\n")
    report = score_files([path], map_file=mapping_path, draws=200)
    assert not report.not_evaluated
    assert sorted(o.offer_name or "" for o in report.offers) == ["Large", "Small"]


def test_a_total_contract_value_is_the_price_when_no_rate_is_stated(tmp_path: Path) -> None:
    path = _workbook(tmp_path / "order.xlsx", {"Order Form": [
        ["Example AI, Inc. - Order Form 1"],
        ["Service", "16 × NVIDIA H100 SXM 80GB (2 nodes × 8 GPUs)"],
        ["Term", "12 months"],
        ["Total contract value", "USD 280,320"]]})
    offer = _one(path)
    assert offer.fields.price_usd_per_gpu_hour == pytest.approx(280_320 / (16 * 12 * 730))
    assert offer.fields.min_commit_usd == 280_320
    assert any(w["code"] == "contract-value-as-price" and w.get("field") == "price_usd_per_gpu_hour"
               for w in offer.warnings)


def test_a_purchase_line_naming_gpus_per_system_counts_the_systems(tmp_path: Path) -> None:
    path = _workbook(tmp_path / "bom.xlsx", {"BOM": [
        ["Example Integrator Inc. - budgetary quotation"],
        ["Qty", "Part number", "Description", "Unit price", "Total"],
        [4, "X1", "Example XD1 - 8x NVIDIA H200 SXM 141GB, 2x Xeon", 300000, 1200000],
        [2, "X2", "NDR switch", 30000, 60000]]})
    f = _one(path).fields
    assert (f.node_count, f.gpus_per_node, f.gpu_count) == (4, 8, 32)
    assert f.capex_usd == 1_260_000


def test_rack_lines_under_a_two_row_header_with_a_basis_column(tmp_path: Path) -> None:
    path = _workbook(tmp_path / "racks.xlsx", {
        "Rack Pricing": [
            ["Example Infrastructure"],
            [],
            ["Line items", "Quantity", "Recurring charges", None, "Basis"],
            [None, None, "Unit price (USD)", "Monthly (USD)"],
            ["GB200 NVL72 rack (72 GPUs, 18 compute trays)", 2, 146000, 292000,
             "per rack per month"],
            ["Premium support", 1, 10000, 10000, "per month"]],
        "Technical": [["Compute tray (node)", "4 GPUs + 2 Grace CPUs (72 cores each)"]]})
    f = _one(path).fields
    assert (f.accelerator, f.gpu_count, f.gpus_per_node, f.node_count) == ("GB200", 144, 4, 36)
    assert f.price_usd_per_gpu_hour == pytest.approx(146000 / 72 / 730)


def test_a_price_per_hour_of_gpu_in_french_word_order() -> None:
    assert parse_money("1,10 € HT par heure GPU").per == ("gpu", "hour")


def test_a_price_label_over_a_storage_basis_is_the_storage_price(tmp_path: Path) -> None:
    path = _workbook(tmp_path / "devis.xlsx", {"Offre": [
        ["Exemple Calcul SA — Devis 1"],
        ["Accélérateurs", "AMD Instinct MI300X, 192 Go HBM3, 8 par nœud"],
        ["Nombre de nœuds", 2],
        ["Prix stockage", "CHF 24.– par To et par mois"],
        ["Prix calcul", "CHF 14'600.– par nœud et par mois"]]})
    f = _one(path, {"CHF": 1.0}).fields
    assert (f.gpus_per_node, f.gpu_count) == (8, 16)
    assert f.storage_usd_per_tb_month == 24
    assert f.price_usd_per_gpu_hour == pytest.approx(14_600 / 8 / 730)


def test_counts_read_by_shape_when_the_label_reading_fails(tmp_path: Path) -> None:
    path = _workbook(tmp_path / "alloc.xlsx", {"Allocation": [
        ["Example HPC Centre - allocation 2030-01"],
        ["Partition", "gpu - nœuds 4 × NVIDIA H100 SXM5 80 Go"],
        ["Tarif", "1,00 € HT par heure GPU"],
        ["Capacité simultanée", "jusqu'à 8 nœuds (32 GPU) en parallèle"]]})
    f = _one(path, {"EUR": 1.0}).fields
    assert (f.gpu_count, f.gpus_per_node) == (32, 4)
    assert f.price_usd_per_gpu_hour == 1.0


def test_line_items_grouped_by_lot_join_the_lots_in_columns(tmp_path: Path) -> None:
    path = _workbook(tmp_path / "lots.xlsx", {
        "Devis": [
            ["Exemple Cloud SAS — Devis 9"],
            ["Lot", "Désignation", "Qté", "Unité", "Prix unitaire HT"],
            ["Lot 1 — Training", "Cluster HGX H100 SXM5 80 Go — 2 nœuds × 8 GPU", 16,
             "GPU·heure", 2.0],
            ["Lot 2 — Inference", "Serveurs 4 × NVIDIA L40S 48 Go — 2 serveurs", 8,
             "GPU·heure", 1.0],
            [],
            ["Prix en euros hors taxes (TVA en sus), facturation mensuelle terme échu."]],
        "Caractéristiques": [
            [None, "Lot 1 — Training", "Lot 2 — Inference"],
            ["Interconnexion GPU", "NVLink 900 Go/s par GPU", "PCIe Gen4"],
            ["Ordonnanceur", "Slurm", "Kubernetes"],
            ["Accès root", "Oui", "Oui"],
            ["Mémoire vive", "2 048 Go", "768 Go"]]})
    training, inference = _all(path, {"EUR": 1.5})
    assert (training.fields.accelerator, training.fields.gpu_count) == ("H100-SXM", 16)
    assert (inference.fields.accelerator, inference.fields.gpu_count) == ("L40S", 8)
    assert training.fields.price_usd_per_gpu_hour == pytest.approx(3.0)  # EUR, from the note
    assert (training.fields.orchestrator, inference.fields.orchestrator) == ("slurm",
                                                                            "kubernetes")
    # NVLink under a network label is the link inside a node, never the inter-node network.
    assert training.fields.intra_node_gbyte_s_per_gpu == 900
    assert training.fields.inter_node_gbit_s_per_gpu is None


def test_counts_in_words_under_count_labels(tmp_path: Path) -> None:
    path = tmp_path / "notes.yaml"
    path.write_text("vendor: Example Cloud Ltd\ncurrency: GBP\noptions:\n"
                    "  - name: Batch pool\n    gpu: L40S 48GB\n    nodes: six\n"
                    "    gpus_per_node: eight\n    price: £4,380.00 per node per month\n")
    f = _one(path, {"GBP": 1.0}).fields
    assert f.offer_name == "Batch pool"  # an item of a list of offers is named by its name
    assert (f.node_count, f.gpus_per_node, f.gpu_count) == (6, 8, 48)
    assert f.price_usd_per_gpu_hour == pytest.approx(4380 / 8 / 730)


def test_prices_in_columns_headed_by_their_basis(tmp_path: Path) -> None:
    path = _workbook(tmp_path / "offerte.xlsx", {"Offerte": [
        ["Offerte GPU-cluster 7"],
        ["Wij bieden u het volgende aan (alle bedragen excl. btw, in euro):"],
        ["Onderdeel", "Omschrijving", "€ per GPU-uur", "€ per GB per maand"],
        ["Servers", "4 servers met elk 8× NVIDIA H100 PCIe 80 GB", "€ 1,50"],
        ["Opslag", "WEKA, 100 TB", None, "€ 0,030"],
        ["Rekenkracht", "FP8: 3.026 TFLOPS per GPU"]]})
    f = _one(path, {"EUR": 1.0}).fields
    assert (f.gpu_count, f.price_usd_per_gpu_hour) == (32, 1.5)
    assert f.storage_usd_per_tb_month == pytest.approx(30.0)
    assert f.claimed_peak_tflops_per_gpu == 3026  # the quote writes decimals with a comma


def test_a_discounted_purchase_line_costs_its_line_total(tmp_path: Path) -> None:
    path = _workbook(tmp_path / "bom.xlsx", {
        "Quotation": [
            ["Example Systems Ltd"],
            ["Line", "Part No.", "Description", "Qty", "Unit Price (£)", "Disc. %",
             "Ext. Price (£)"],
            [1, "EX-9800", "Example EX-9800 GPU server: NVIDIA HGX B200 8-GPU (8× B200 180GB)",
             2, 100000, 0.1, 180000]],
        "Notes": [["Indicative TCO assumptions (for comparison with cloud rental)"]]})
    f = _one(path, {"GBP": 1.0}).fields
    assert f.capex_usd == 180_000  # after the line's discount
    assert (f.node_count, f.gpu_count) == (2, 16)  # "EX-9800" is a model, not 9800 servers
    assert f.offer_kind == "purchase"  # the purchase lines say so, not a note's "rental"


# --- field-level classes (issue 10, values): every stated field read right, never silently
# wrong.  Each example below is our own; the classes were found on the blind corpora.

def _letter(tmp_path: Path, lines: list[str], name: str = "letter.xlsx") -> Any:
    return _one(_workbook(tmp_path / name, {"Letter": [[line] for line in lines]}),
                {"EUR": 1.1})


def test_facts_stated_in_a_letter_are_read_clause_by_clause(tmp_path: Path) -> None:
    offer = _letter(tmp_path, [
        "Example Compute AB",
        "Dear buyer,",
        "We offer 64 NVIDIA H100 SXM5 80GB GPUs in 8 HGX H100 nodes (8 GPUs per node, "
        "NVLink 900 GB/s per GPU, 989 TFLOPS BF16 dense per GPU).",
        "Nodes are linked by NDR InfiniBand, 8 x 400 Gbit/s per node, on a fabric reserved "
        "for your cluster alone.",
        "Shared storage is 300 TB on WEKA, read 100 GB/s and write 60 GB/s; each node also "
        "has 4 x 7.68 TB local NVMe.",
        "Slurm is pre-installed and you get root access on every node.",
        "The price is EUR 2.00 per GPU-hour for a 12-month term. There are no egress fees.",
        "Failed hardware is replaced within 8 hours, around the clock, by our own staff.",
        "This offer is valid until 30 April 2027 and the cluster is handed over on "
        "1 June 2027.",
    ])
    f = offer.fields
    assert (f.gpu_count, f.node_count, f.gpus_per_node) == (64, 8, 8)
    assert f.intra_node_gbyte_s_per_gpu == 900
    assert f.claimed_peak_tflops_per_gpu == 989
    assert (f.inter_node_fabric, f.inter_node_gbit_s_per_node) == ("infiniband", 3200)
    assert f.network_dedicated is True
    assert (f.storage_type, f.storage_capacity_tb) == ("weka", 300)
    assert (f.storage_read_gbyte_s, f.storage_write_gbyte_s) == (100, 60)
    assert f.local_nvme_tb_per_node == pytest.approx(30.72)
    assert (f.orchestrator, f.root_access) == ("slurm", True)
    assert f.egress_usd_per_gb == 0
    assert f.hw_replacement_hours == 8
    assert (str(f.valid_until), str(f.delivery_date)) == ("2027-04-30", "2027-06-01")


def test_shared_storage_never_makes_the_network_shared(tmp_path: Path) -> None:
    offer = _letter(tmp_path, [
        "Example Cloud", "We offer 32 NVIDIA H100 SXM5 80GB GPUs.",
        "The price is USD 2.50 per GPU-hour for a twelve month reservation.",
        "Shared storage is 100 TB on VAST.",
        "The fabric is shared infrastructure, logically isolated per account."])
    assert offer.fields.network_dedicated is False  # the fabric sentence, not the storage one
    assert offer.fields.storage_type == "vast"


def test_a_memory_size_or_a_model_number_is_never_a_count(tmp_path: Path) -> None:
    from evaltool.normalize.shapes import count_facts

    assert count_facts("128 NVIDIA A100 SXM4 80GB GPUs in 16 HGX A100 nodes") == {
        "gpu_count": 128, "node_count": 16}
    assert "gpu_count" not in count_facts("A100 80GB GPUs")  # 80 is the memory
    assert "node_count" not in count_facts("Example EX-9800 GPU server, 8x B200")
    assert count_facts("2 x 48 coeurs par noeud") == {}  # cores are not nodes
    assert count_facts("a tray is one OS node") == {}  # what a node is, not how many


def test_nic_count_times_port_speed_is_the_node_bandwidth(tmp_path: Path) -> None:
    from evaltool.normalize.facts import _bandwidth

    bw = _bandwidth("8 x ConnectX-7, 400Gb/s NDR InfiniBand per system (one per GPU)")
    assert bw is not None and (bw.gbit_s, bw.count, bw.scope) == (3200, 8, "node")
    bw = _bandwidth("InfiniBand NDR 400 Gb/s por GPU (dedicada)")
    assert bw is not None and (bw.gbit_s, bw.scope) == (400, "gpu")


def test_a_bom_capex_is_its_total_before_tax_after_the_discount(tmp_path: Path) -> None:
    path = _workbook(tmp_path / "bom.xlsx", {"Quote": [
        ["Example Systems Ltd - Quotation"],
        [],
        ["#", "Description", "Qty", "Unit price (EUR)", "Line total (EUR)"],
        [1, "GPU server, NVIDIA HGX H100 8-GPU, 2x Xeon", 2, 300000, 600000],
        [2, "Rack integration and installation", 1, 20000, 20000],
        ["", "", "", "Subtotal", 620000],
        ["", "", "", "Project discount", -20000],
        ["", "", "", "Total (excl. VAT)", 600000],
        ["", "", "", "VAT 20%", 120000],
        ["", "", "", "Total incl. VAT", 720000],
    ], "TCO vs cloud rental": [
        ["Amortisation period", "36 months"]]})
    offer = _one(path, {"EUR": 1.1})
    f = offer.fields
    assert f.capex_usd == pytest.approx(600_000 * 1.1)  # after discount, before VAT
    assert f.offer_kind == "purchase"  # a capex and no rate, whatever a title says
    assert (f.gpu_count, f.node_count) == (16, 2)


def test_yes_no_answers_with_an_explanation_in_other_languages() -> None:
    from evaltool.normalize.values import parse_bool

    assert parse_bool("Non (conteneurs Apptainer uniquement)").value is False
    assert parse_bool("nein (Benutzerrechte)").value is False
    assert parse_bool("Sí, acceso root completo").value is True
    assert parse_bool("incluido").value is True


def test_durations_and_dates_in_other_languages() -> None:
    from evaltool.normalize.values import parse_date, parse_duration

    assert parse_duration("inom 8 timmar", "hours").value == 8
    assert parse_duration("entro 4 ore", "hours").value == 4
    assert parse_duration("18 månader", "months").value == 18
    assert parse_duration("12 kk", "months").value == 12
    for text, iso in [("2026年1月15日", "2026-01-15"), ("15 de enero de 2026", "2026-01-15"),
                      ("2 lutego 2026", "2026-02-02"), ("15 gennaio 2026", "2026-01-15"),
                      ("31-Oct-2025", "2025-10-31")]:
        assert str(parse_date(text).value) == iso


def test_two_figures_sharing_one_unit_are_never_read_as_one() -> None:
    from evaltool.normalize.phrases import read_write
    from evaltool.normalize.values import ValueParseError, parse_quantity

    with pytest.raises(ValueParseError):
        parse_quantity("200 / 120 GB/s", "throughput", "GB/s")  # was silently 120
    assert read_write("Läs / skriv: 200 / 120 GB/s") == (200, 120)
    assert read_write("lectura 120 GB/s, escritura 90 GB/s") == (120, 90)
    # Norwegian and Swedish reading words, one speed named
    assert read_write("Lagring: 500 TB, lesing 40 GB/s, skriving 20 GB/s") == (40, 20)
    assert read_write("Lagring: VAST, läsning upp till 60 GB/s") == (60, None)


def test_a_labelled_yes_and_a_notes_column_state_facts(tmp_path: Path) -> None:
    path = _workbook(tmp_path / "matrix.xlsx", {"Oferta": [
        ["Proveedor", "Ejemplo Nube S.L."],
        ["GPU", "NVIDIA H100 SXM5 80 GB"],
        ["Nº de GPU", 64],
        ["Precio por GPU/hora", "2,10 €"],
        ["Almacenamiento Lustre 200 TB", "incluido"],
        ["Kubernetes gestionado", "incluido"],
        ["Red", "InfiniBand NDR", "dedicada al cliente"],
    ]})
    f = _one(path, {"EUR": 1.1}).fields
    assert (f.storage_type, f.storage_capacity_tb) == ("lustre", 200)
    assert f.orchestrator == "kubernetes"
    assert (f.inter_node_fabric, f.network_dedicated) == ("infiniband", True)


def test_a_value_whose_shape_is_another_field_is_read_as_that_field_and_warned(
        tmp_path: Path) -> None:
    path = _workbook(tmp_path / "shape.xlsx", {"Offer": [
        ["Vendor", "Example Cloud"], ["System", "NVIDIA H100 SXM5 80GB"],
        ["Price", "USD 2.00 per GPU-hour"],
        ["Dense BF16 per GPU", "989 TFLOPS"],
        ["Capacity", "up to 16 nodes (128 GPUs) at once"],
    ]})
    offer = _one(path)
    assert offer.fields.claimed_peak_tflops_per_gpu == 989
    assert offer.fields.gpu_count == 128
    warned = {w.get("field") for w in offer.warnings
              if w.get("code") in ("value-reads-as-flops", "value-reads-as-count")}
    assert {"claimed_peak_tflops_per_gpu", "gpu_count"} <= warned


def test_a_server_description_states_cpu_memory_drives_and_nics(tmp_path: Path) -> None:
    from evaltool.normalize.phrases import system_facts

    assert system_facts("Example GPU server: HGX B200 8-GPU, 2x Xeon 6960P (72C), 2,048 GB DDR5 "
                        "(32 x 64 GB), 8x 3.84 TB NVMe U.2") == {
        "cpu_cores_per_node": 144, "cpu_memory_gb_per_node": 2048,
        "local_nvme_tb_per_node": pytest.approx(30.72)}
    assert system_facts("2 x AMD EPYC 7763 (128 cores per node), 512 GB RAM per node") == {
        "cpu_cores_per_node": 128, "cpu_memory_gb_per_node": 512}


def test_a_gpu_link_speed_or_a_memory_size_is_never_the_network() -> None:
    from evaltool.normalize.facts import _bandwidth

    assert _bandwidth("8x B200 192GB HBM3e, NVLink 5 (1,800 GB/s per GPU)") is None
    bw = _bandwidth("NVLink 900 GB/s, 8 x 400 Gb/s InfiniBand per node")
    assert bw is not None and bw.gbit_s == 3200


def test_term_and_commitment_stated_in_sentences(tmp_path: Path) -> None:
    offer = _letter(tmp_path, [
        "Example Supercomputing Centre - allocation offer for industrial access",
        "We offer 128 NVIDIA H100 SXM5 80GB GPUs in 32 nodes of our booster partition.",
        "Rate: EUR 8.00 per node-hour for industrial users, excluding VAT as usual.",
        "2. Term. Twelve (12) months from the start of the allocation, fixed for the term.",
        "Commitment: the full allocation value of EUR 500,000 is invoiced quarterly in advance.",
        "The price is EUR 2.00 per GPU-hour for a committed term, payable monthly in arrears.",
    ], "allocation.xlsx")
    f = offer.fields
    assert f.term_months == 12
    assert f.min_commit_usd == pytest.approx(500_000 * 1.1)  # never the EUR 2.00 rate


def test_a_gpu_count_of_one_node_beside_a_node_count_is_per_node(tmp_path: Path) -> None:
    path = _workbook(tmp_path / "instances.xlsx", {"Quote": [
        ["Vendor", "Example Cloud"], ["Instances", 16], ["GPUs", "8 x NVIDIA H100 SXM5 80GB"],
        ["GPUs per instance", 8], ["Price per instance-hour", "USD 16.00"]]})
    offer = _one(path)
    assert offer.fields.gpu_count == 128
    assert any(w.get("code") in ("gpu-count-of-one-node", "gpu-count-label-per-node")
               for w in offer.warnings)


def test_support_response_and_credit_cap_stated_in_sentences_and_notes(tmp_path: Path) -> None:
    from evaltool.normalize.phrases import capped_percent
    from evaltool.normalize.values import parse_duration

    offer = _letter(tmp_path, [
        "Example Datahall Oy", "We offer 64 NVIDIA H100 SXM5 80GB GPUs in 8 nodes for you.",
        "The price is EUR 2.00 per GPU-hour for a twelve month reservation of the cluster.",
        "Support is reachable 24/7 with a 2-hour response time for every severity.",
        "Availability is 99.5% per month; service credits are capped at 15% of monthly fees.",
    ], "support.xlsx")
    assert offer.fields.support_response_hours == 2  # never 24 from "24/7"
    assert offer.fields.sla_max_credit_pct == 15
    assert capped_percent("crediti fino al 20 % del canone mensile") == 20
    assert capped_percent("10% if uptime below 99.5%") is None  # a tier, not a cap
    assert parse_duration("4 (Mo-Fr 8-18 Uhr) Stunden", "hours").value == 4


def test_a_nodes_own_disks_are_never_the_shared_storage(tmp_path: Path) -> None:
    path = _workbook(tmp_path / "instance.xlsx", {"Specs": [
        ["Vendor", "Example Cloud"], ["GPU", "NVIDIA H100 SXM5 80GB"], ["GPU count", 64],
        ["Price per GPU-hour", "USD 2.10"],
        ["Local instance storage", "8 x 3.84 TB NVMe SSD per instance"],
        ["Orchestration", "Managed Kubernetes service; root on the instances"],
    ]})
    f = _one(path).fields
    assert f.storage_capacity_tb is None  # 30.72 TB of NVMe is the node's, not shared
    assert f.local_nvme_tb_per_node == pytest.approx(30.72)
    assert (f.orchestrator, f.root_access) == ("kubernetes", True)  # a cell's other fact


# --- a price's basis: one grammar of resource x time --------------------------------------

@pytest.mark.parametrize(("unit", "kind"), [
    ("server/rok", "node_year"),          # Czech: per server per year
    ("£ / node / week", "node_week"),
    ("EUR / ora-nodo", "node_hour"),      # Italian: time, then resource
    ("€/nodo·hora", "node_hour"),
    ("Knoten/Woche", "node_week"),
    ("per rack per maand", "rack_month"),
    ("zł / GPU / miesiąc", "gpu_month"),
    ("per chip-hour", "gpu_hour"),
    ("/ rok", "year"),
])
def test_a_billing_unit_is_any_resource_by_any_time(unit: str, kind: str) -> None:
    from evaltool.read.text import billing_unit

    assert billing_unit(unit) == kind


@pytest.mark.parametrize(("unit", "price", "hours"), [
    ("server/rok", 87_600.0, 8760.0),
    ("node/week", 1_680.0, 168.0),
    ("Knoten/Woche", 1_680.0, 168.0),
])
def test_line_items_priced_per_node_week_or_year_are_rentals(
        tmp_path: Path, unit: str, price: float, hours: float) -> None:
    path = _workbook(tmp_path / "q.xlsx", {"Q": [
        ["Vendor", "Example Cloud"],
        [],
        ["Description", "Qty", "Unit", "Unit price", "Total"],
        ["GPU server 8x NVIDIA H100 SXM 80GB, dedicated", 4, unit, f"USD {price:,.2f}",
         f"USD {4 * price:,.2f}"],
    ]})
    f = _one(path).fields
    assert f.gpu_count == 32
    assert f.offer_kind == "rent"
    assert f.price_usd_per_gpu_hour == pytest.approx(price / hours / 8)


# --- options stacked down a sheet as line-item tables -------------------------------------

@pytest.mark.parametrize(("first", "second", "header"), [
    ("OPCIÓN 1 — 16 nodos, 12 meses", "OPCIÓN 2 — 32 nodos, 12 meses",
     ["Concepto", "Cantidad", "Unidad", "Precio unitario", "Importe mensual"]),
    ("Varianta 1 – smlouva na 1 rok", "Varianta 2 – smlouva na 2 roky",
     ["Popis", "Množství", "MJ", "Jedn. cena", "Celkem"]),
    ("Option A", "Option B", ["Description", "Qty", "Unit", "Unit price", "Total"]),
])
def test_line_item_tables_under_enumerated_headings_are_options(
        tmp_path: Path, first: str, second: str, header: list[str]) -> None:
    path = _workbook(tmp_path / "q.xlsx", {"Q": [
        ["Vendor", "Example Cloud"],
        [],
        [first],
        header,
        ["GPU node 8x NVIDIA H100 SXM 80GB", 16, "node/hour", "USD 20.00", "USD 233,600.00"],
        [],
        [second],
        header,
        ["GPU node 8x NVIDIA H100 SXM 80GB", 32, "node/hour", "USD 18.00", "USD 420,480.00"],
    ]})
    result = normalize_files([path], {})
    assert not result.not_evaluated
    by_count = {o.fields.gpu_count: o.fields.price_usd_per_gpu_hour for o in result.offers}
    assert by_count == {128: pytest.approx(2.5), 256: pytest.approx(2.25)}


def test_a_hardware_table_over_a_services_table_stays_one_offer(tmp_path: Path) -> None:
    header = ["Description", "Qty", "Unit", "Unit price", "Total"]
    path = _workbook(tmp_path / "q.xlsx", {"Q": [
        ["Vendor", "Example Integrator"],
        ["Hardware"],
        header,
        ["Server with 8x NVIDIA H100 SXM 80GB", 2, "each", "USD 300,000", "USD 600,000"],
        [],
        ["Services"],
        header,
        ["Installation", 1, "each", "USD 10,000", "USD 10,000"],
    ]})
    result = normalize_files([path], {})
    assert len(result.offers) + len(result.not_evaluated) == 1


@pytest.mark.parametrize("line", [
    "Location: Slough, UK. Nodes ready week commencing 9 March 2026.",
    "Standort: Frankfurt am Main. Bereitstellung ab dem 1. April 2026.",
    "Localisation : Paris, France. Mise en service le 1er avril 2026.",
])
def test_a_one_cell_label_value_line_takes_its_first_sentence(line: str) -> None:
    from evaltool.read.layout import label_value_in_cell
    from evaltool.read.vocabulary import load_vocabulary

    found = label_value_in_cell(line, load_vocabulary())
    assert found is not None
    assert found[1] == line.split(":", 1)[1].split(". ")[0].strip()


@pytest.mark.parametrize("cpu", [
    "2 × Intel Xeon 6960P (72 núcleos c/u)",   # Spanish: cada uno
    "2 × Intel Xeon 6960P (72 cores each)",
    "2 × Intel Xeon 6960P (je 72 Kerne)",
])
def test_cores_per_socket_times_sockets(tmp_path: Path, cpu: str) -> None:
    path = _workbook(tmp_path / "q.xlsx", {"Q": [
        ["Vendor", "Example Cloud"], ["GPU", "NVIDIA H100 SXM 80GB"], ["Total GPUs", 16],
        ["Price per GPU-hour", "USD 2.10"], ["CPU per node", cpu],
    ]})
    assert _one(path).fields.cpu_cores_per_node == 144


# --- headers built of a quantity or a currency and a resource ----------------------------

@pytest.mark.parametrize(("header", "slot"), [
    ("qty_gpu", "gpu_count"), ("num_nodes", "node_count"), ("Anzahl Knoten", "node_count"),
    ("liczba GPU", "gpu_count"), ("aantal servers", "node_count"),
    ("usd_gpu_hr", "price"), ("£ / node / week", "price"), ("EUR / ora-nodo", "price"),
    ("Kč / server / rok", "price"),
    ("vram_gb", "gpu_memory_gb"),                       # a quantity, never the accelerator
    ("Support EUR per node per month", "support"),      # another field's price stays its own
])
def test_a_compound_header_is_a_count_or_a_price_never_the_accelerator(header: str,
                                                                        slot: str) -> None:
    from evaltool.read.vocabulary import load_vocabulary

    assert load_vocabulary().match(header) == slot


@pytest.mark.parametrize(("text", "name"), [
    ("listing_id,status,provider,gpu,vram_gb,qty_gpu,qty_nodes,usd_gpu_hr\n"
     "L-1,active,Provider #4471 (Tier III),H100 80GB SXM5,80,64,8,2.19\n"
     "L-2,withdrawn,Provider #1193,A100 SXM4 80GB,80,64,8,1.29\n", "csv"),
    ("angebot;stand;anbieter;gpu;vram_gb;anzahl_gpu;anzahl_knoten;usd_gpu_hr\n"
     "A-1;aktiv;Anbieter Nr. 12;H100 80GB SXM5;80;64;8;2,19\n"
     "A-2;abgelaufen;Anbieter Nr. 7;A100 SXM4 80GB;80;64;8;1,29\n", "semicolon"),
])
def test_a_listing_export_reads_rows_skips_withdrawn_ones_and_anonymised_sellers(
        tmp_path: Path, text: str, name: str) -> None:
    path = tmp_path / f"Example Exchange {name} export.csv"
    path.write_text("# Example Exchange - marketplace export\n" + text, encoding="utf-8")
    result = normalize_files([path], {})
    (offer,) = result.offers
    assert offer.fields.accelerator == "H100-SXM"
    assert offer.fields.gpu_count == 64
    assert offer.fields.price_usd_per_gpu_hour == pytest.approx(2.19)
    assert "#" not in (offer.fields.vendor or "") and "Nr." not in (offer.fields.vendor or "")
    assert any(w.get("code") == "vendor-anonymised" for w in offer.warnings)
    (refused,) = result.not_evaluated
    assert refused.errors[0]["code"] == "offer-withdrawn"


@pytest.mark.parametrize(("price_header", "price", "hours"), [
    ("£ / node / week", 2150, 168.0),
    ("GBP per node per month", 9000, 730.0),
])
def test_options_as_rows_of_a_matrix_share_the_specs_written_above(
        tmp_path: Path, price_header: str, price: float, hours: float) -> None:
    path = _workbook(tmp_path / "q.xlsx", {"Quote": [
        ["Example Compute Ltd"],
        ["Hardware: 12 × GPU servers, each with 8 × NVIDIA H100 SXM5 80GB"],
        [],
        ["Option", "Commitment", "Nodes", "GPUs", price_header, "Total", "Notes"],
        ["FLEX", "rolling", 12, 96, price, price * 12, "subject to availability"],
        ["COMMIT", "6 months", 12, 96, price * 0.9, price * 12 * 0.9, "guaranteed"],
    ]})
    result = normalize_files([path], {"GBP": 1.0})
    assert not result.not_evaluated
    prices = sorted(o.fields.price_usd_per_gpu_hour for o in result.offers)
    assert prices == [pytest.approx(price * 0.9 / 8 / hours), pytest.approx(price / 8 / hours)]
    assert all(o.fields.accelerator == "H100-SXM" for o in result.offers)


@pytest.mark.parametrize(("text", "amount", "currency"), [
    ("2\u00a0382\u00a0720,00\u00a0Kč", 2_382_720.0, "CZK"),   # "Kč" is no thousands "k"
    ("1\u00a0234,50 zł", 1_234.5, "PLN"),
    ("€ 120k", 120_000.0, "EUR"),
    ("450 000 Ft", 450_000.0, "HUF"),
])
def test_a_currency_that_starts_with_k_or_m_is_no_multiplier(text: str, amount: float,
                                                              currency: str) -> None:
    money = parse_money(text)
    assert (money.amount, money.currency) == (pytest.approx(amount), currency)


@pytest.mark.parametrize(("unit", "price"), [
    ("node", "$3.49 / GPU-hr"), ("Knoten", "3,49 USD / GPU / h"),
    ("server", "USD 3.49 per GPU-hour"),
])
def test_the_unit_column_says_what_the_quantity_counts(tmp_path: Path, unit: str,
                                                        price: str) -> None:
    """'16 | node | $3.49 / GPU-hr': 16 nodes of 8 GPUs, never 16 GPUs."""
    path = _workbook(tmp_path / "q.xlsx", {"Q": [
        ["Vendor", "Example Cloud"],
        ["Description", "Qty", "Unit", "Unit price"],
        ["NVIDIA HGX B200 node: 8x B200 180GB", 16, unit, price],
    ]})
    f = _one(path).fields
    assert (f.node_count, f.gpu_count) == (16, 128)
    assert f.price_usd_per_gpu_hour == pytest.approx(3.49)


@pytest.mark.parametrize("text", [
    "Twee (2) GB200 NVL72-racks, samen 144 Blackwell-GPU's",
    "Zwei (2) GB200 NVL72-Racks",
    "2 × GB200 NVL72 racks",
])
def test_racks_of_a_rack_scale_system_count_its_gpus(text: str) -> None:
    from evaltool.normalize.shapes import count_facts

    assert count_facts(text)["gpu_count"] == 144


@pytest.mark.parametrize(("label", "slot"), [
    ("有効期限", "valid_until"), ("見積番号", "offer_name"), ("発行者", "vendor"),
    ("単価（税抜）", "price"),
])
def test_japanese_labels_are_words_not_dropped(label: str, slot: str) -> None:
    from evaltool.read.vocabulary import load_vocabulary

    assert load_vocabulary().match(label) == slot


@pytest.mark.parametrize(("fmt", "currency", "rate"), [
    ('"¥"#,##0', "JPY", 0.0066), ('#,##0.00\\ "Kč"', "CZK", 0.043),
    ("[$€-407]#,##0.00", "EUR", 1.08),
])
def test_a_bare_price_takes_the_currency_its_number_format_displays(
        tmp_path: Path, fmt: str, currency: str, rate: float) -> None:
    from openpyxl import Workbook

    wb = Workbook()
    ws = wb.active
    for row in (["Vendor", "Example Cloud"], ["GPU", "NVIDIA H100 SXM 80GB"], ["Total GPUs", 16],
                ["Price per GPU-hour", 400]):
        ws.append(row)
    ws["B4"].number_format = fmt
    wb.save(tmp_path / "q.xlsx")
    f = _one(tmp_path / "q.xlsx", fx={currency: rate}).fields
    assert f.price_usd_per_gpu_hour == pytest.approx(400 * rate)


@pytest.mark.parametrize(("label", "slot"), [
    ("Liczba serwerów", "node_count"), ("Počet serverů", "node_count"),
    ("Anzahl Knoten", "node_count"), ("GPU w serwerze", "gpus_per_node"),
    ("GPU v serveru", "gpus_per_node"), ("GPUs im Knoten", "gpus_per_node"),
    ("Razem GPU", "gpu_count"), ("GPUs gesamt", "gpu_count"), ("Total GPUs", "gpu_count"),
])
def test_count_labels_by_their_shape_in_every_language(label: str, slot: str) -> None:
    from evaltool.read.vocabulary import load_vocabulary

    assert load_vocabulary().match(label) == slot


@pytest.mark.parametrize("cpu", [
    "2 × AMD EPYC 9354 (2 × 32 rdzenie)", "2x AMD EPYC 9354 (2 x 32 Kerne)",
    "2 × AMD EPYC 9354 (2 × 32 cœurs)",
])
def test_sockets_times_cores_in_brackets(tmp_path: Path, cpu: str) -> None:
    path = _workbook(tmp_path / "q.xlsx", {"Q": [
        ["Vendor", "Example Cloud"], ["GPU", "NVIDIA H100 SXM 80GB"], ["Total GPUs", 16],
        ["Price per GPU-hour", "USD 2.10"], ["CPU per node", cpu],
    ]})
    assert _one(path).fields.cpu_cores_per_node == 64


@pytest.mark.parametrize(("first", "second", "count_label", "rate_label"), [
    ("OPTION 1 - 1-YEAR RESERVED", "OPTION 2 - 3-YEAR RESERVED", "Instances", "Reserved rate"),
    ("Wariant A – 12 miesięcy", "Wariant B – 24 miesiące", "Liczba serwerów", "Cena"),
    ("Variante 1 - 12 Monate", "Variante 2 - 24 Monate", "Anzahl Knoten", "Preis"),
])
def test_key_value_blocks_under_enumerated_headings_are_options(
        tmp_path: Path, first: str, second: str, count_label: str, rate_label: str) -> None:
    """The accelerator is said once, on another sheet; each block prices its own option."""
    path = _workbook(tmp_path / "q.xlsx", {
        "Specs": [["Vendor", "Example Cloud"], ["Instance", "8x NVIDIA H100 SXM 80GB"],
                  ["GPUs per instance", 8]],
        "Commercials": [
            ["All prices in USD."], [],
            [first], [count_label, 4], [rate_label, "USD 14,600 per node per month"], [],
            [second], [count_label, 8], [rate_label, "USD 11,680 per node per month"], [],
            ["Notes"], ["1. Egress is free."],
        ]})
    result = normalize_files([path], {})
    assert not result.not_evaluated
    by_count = {o.fields.gpu_count: o.fields.price_usd_per_gpu_hour for o in result.offers}
    assert by_count == {32: pytest.approx(2.5), 64: pytest.approx(2.0)}


@pytest.mark.parametrize(("header", "unit", "first", "second"), [
    (["品目", "数量", "単位", "単価"], "チップ時間", "TPU v6e オンデマンド", "TPU v6e 1年確約利用"),
    (["Description", "Qty", "Unit", "Unit price"], "GPU-hour", "H100 SXM on-demand",
     "H100 SXM 12-month reserved"),
    (["Beschreibung", "Menge", "Einheit", "Einzelpreis"], "GPU/Stunde", "H100 SXM on demand",
     "H100 SXM Reservierung 12 Monate"),
])
def test_rows_that_each_price_the_whole_capacity_are_alternatives(
        tmp_path: Path, header: list[str], unit: str, first: str, second: str) -> None:
    path = _workbook(tmp_path / "q.xlsx", {"Q": [
        ["Vendor", "Example Cloud"], [], header,
        [first, 256, unit, "USD 4.00"],
        [second, 256, unit, "USD 2.50"],
        ["Storage 100 TB", 100, "TB/month", "USD 20.00"],
    ]})
    result = normalize_files([path], {})
    assert not result.not_evaluated
    assert sorted(o.fields.price_usd_per_gpu_hour for o in result.offers) == [
        pytest.approx(2.5), pytest.approx(4.0)]
    assert all(o.fields.gpu_count == 256 for o in result.offers)


def test_a_vendor_name_in_two_scripts_is_kept_whole_and_said(tmp_path: Path) -> None:
    path = _workbook(tmp_path / "q.xlsx", {"Q": [
        ["発行者", "ニンバス・クラウド合同会社 (Nimbus Cloud G.K.)"],
        ["GPU", "NVIDIA H100 SXM 80GB"], ["Total GPUs", 16], ["Price per GPU-hour", "USD 2.10"],
    ]})
    offer = _one(path)
    assert offer.fields.vendor == "ニンバス・クラウド合同会社 (Nimbus Cloud G.K.)"
    assert any(w.get("code") == "vendor-two-scripts" for w in offer.warnings)


@pytest.mark.parametrize(("text", "expected"), [
    ("Two (2) GB200 NVL72 racks", {"rack_count": 2, "gpus_per_rack": 72, "gpu_count": 144}),
    ("Zwei (2) GB200 NVL72-Racks", {"rack_count": 2, "gpus_per_rack": 72, "gpu_count": 144}),
    ("Dos (2) racks, 144 Blackwell-GPUs en total", {"gpu_count": 144}),
    ("samen 144 Blackwell-GPU's", {"gpu_count": 144}),
    ("otto GPU per nodo", {"gpus_per_node": 8}),
    ("trzy węzły, osiem GPU na węzeł", {"node_count": 3, "gpus_per_node": 8}),
])
def test_counts_in_words_figures_repeated_in_brackets_and_compound_nouns(
        text: str, expected: dict[str, int]) -> None:
    """A count in words of any EU language, the legal "Two (2)", a hyphenated or
    apostrophe plural ("Blackwell-GPUs", Dutch "GPU's"), and "NVL72-racks"."""
    from evaltool.normalize.shapes import count_facts

    found = count_facts(text)
    assert {k: found.get(k) for k in expected} == expected


def test_up_to_is_never_a_danish_two() -> None:
    from evaltool.normalize.shapes import words_to_digits

    assert words_to_digits("up to eight GPUs") == "up to 8 gpus"


@pytest.mark.parametrize("text", ["tres nodos, ocho GPU por nodo", "trzy węzły, osiem GPU na węzeł",
                                  "3 nœuds, huit GPU par nœud", "3 Knoten, acht GPU je Knoten"])
def test_gpus_scoped_to_one_node_in_any_language_are_never_the_offers_total(text: str) -> None:
    from evaltool.normalize.shapes import count_facts

    assert count_facts(text) == {"node_count": 3, "gpus_per_node": 8}


def test_gpus_for_a_purpose_are_not_per_node() -> None:
    from evaltool.normalize.shapes import count_facts

    assert "gpus_per_node" not in count_facts("8 GPUs for training")


@pytest.mark.parametrize("answer", ["free", "kostenfrei", "gratuit", "sin coste", "gratuito",
                                    "geen kosten", "bezpłatnie", "kostnadsfritt", "無料",
                                    "kein Egress-Entgelt"])
def test_a_price_answered_free_of_charge_in_any_language_is_zero(answer: str) -> None:
    assert parse_money(answer).amount == 0.0


@pytest.mark.parametrize(("sentence", "free"), [
    ("No charge for egress.", True),
    ("d) No data egress or ingress fees.", True),
    ("Datenverkehr: kein Egress-Entgelt", True),
    ("Trafic sortant gratuit et illimité", True),
    ("Geen kosten voor in- of uitgaand dataverkeer", True),
    ("Tráfico de salida sin coste", True),
    ("Egress $0.05 per GB; the first 10 TB free", False),
    ("Egress billed at EUR 0,02 per GB", False),
])
def test_egress_free_of_charge_stated_in_a_sentence(tmp_path: Path, sentence: str,
                                                    free: bool) -> None:
    """A sentence about data leaving the provider that says it costs nothing (and states no
    amount) is an egress price of 0, read as text; one that states an amount is not."""
    path = _workbook(tmp_path / "q.xlsx", {"Quote": [
        ["Vendor", "Example Cloud"],
        ["GPU", "NVIDIA H100 SXM 80GB"],
        ["Total GPUs", 64],
        ["Price", "USD 2.10 per GPU-hour"],
        [],
        [sentence],
    ]})
    egress = _one(path).fields.egress_usd_per_gb
    assert (egress == 0.0) if free else (egress != 0.0)


@pytest.mark.parametrize(("header", "label", "value"), [
    (["Parameter", "Value"], "Software",
     "Bare metal with root access on every node, Slurm managed by us"),
    (["Rubrique", "Valeur"], "Logiciel", "Slurm géré par nos soins, accès root sur tous les nœuds"),
    (["Parameter", "Värde"], "Programvara", "Slurm, root access on all nodes for the customer"),
])
def test_a_sentence_under_an_unknown_label_is_read_as_prose(tmp_path: Path, header: list[str],
                                                            label: str, value: str) -> None:
    """'Software | Slurm managed by us; root on every node': a label the vocabulary does not
    know, whose value is a sentence, states facts like any other sentence (read as text)."""
    path = _workbook(tmp_path / "q.xlsx", {"Quote": [
        header,
        ["Vendor", "Example Cloud"],
        ["GPU", "NVIDIA H100 SXM 80GB"],
        ["Total GPUs", 64],
        ["Price", "USD 2.10 per GPU-hour"],
        [label, value],
    ]})
    f = _one(path).fields
    assert f.root_access is True
    assert f.orchestrator == "slurm"


@pytest.mark.parametrize(("text", "iso"), [
    ("1. července 2026", "2026-07-01"), ("15. listopadu 2025", "2025-11-15"),
    ("3 martie 2027", "2027-03-03"), ("12 Δεκεμβρίου 2026", "2026-12-12"),
    ("1. marts 2026", "2026-03-01"), ("31. decembra 2026", "2026-12-31"),
    ("Uiterlijk 1 juli 2026", "2026-07-01"),
])
def test_dates_with_month_names_of_more_eu_languages(text: str, iso: str) -> None:
    from evaltool.normalize.values import parse_date

    assert str(parse_date(text).value) == iso


@pytest.mark.parametrize(("labels", "values"), [
    (("Locatie", "Ingebruikname", "Dataverkeer"),
     ("Eemshaven, Nederland", "1 juli 2026", "geen kosten")),
    (("Standort", "Inbetriebnahme", "Datenverkehr"),
     ("Frankfurt am Main", "1. Juli 2026", "kostenfrei")),
    (("Emplacement", "Mise en service", "Transfert de données"),
     ("Paris-Saclay", "1er juillet 2026", "gratuit")),
])
def test_region_start_of_service_and_data_transfer_labels_in_several_languages(
        tmp_path: Path, labels: tuple[str, str, str], values: tuple[str, str, str]) -> None:
    path = _workbook(tmp_path / "q.xlsx", {"Quote": [
        ["Vendor", "Example Cloud"],
        ["GPU", "NVIDIA H100 SXM 80GB"],
        ["Total GPUs", 64],
        ["Price", "USD 2.10 per GPU-hour"],
        *[[lab, val] for lab, val in zip(labels, values, strict=True)],
    ]})
    f = _one(path).fields
    assert f.region == values[0]
    assert str(f.delivery_date) == "2026-07-01"
    assert f.egress_usd_per_gb == 0.0


@pytest.mark.parametrize(("sentence", "cap"), [
    ("Beschikbaarheid: servicecredits tot maximaal 20% van de maandfactuur", 20.0),
    ("Vid underskridande krediteras kunden 10 % av månadsavgiften, dock högst 30 % av "
     "månadsavgiften.", 30.0),
    ("Service credits are capped at 25% of the monthly fee.", 25.0),
])
def test_the_service_credit_cap_in_sentences_of_several_languages(tmp_path: Path,
                                                                   sentence: str,
                                                                   cap: float) -> None:
    path = _workbook(tmp_path / "q.xlsx", {"Quote": [
        ["Vendor", "Example Cloud"],
        ["GPU", "NVIDIA H100 SXM 80GB"],
        ["Total GPUs", 64],
        ["Price", "USD 2.10 per GPU-hour"],
        [],
        [sentence],
    ]})
    assert _one(path).fields.sla_max_credit_pct == cap


@pytest.mark.parametrize(("text", "cores"), [
    ("2x Intel Xeon Platinum 8570 (2 x 56 cores), 2 TB DDR5", 112),
    ("2 × 48 cœurs par nœud", 96),
    ("2x AMD EPYC 9654 mit je 96 Kernen", 192),
    ("2 × Xeon Platinum 8468 (96 cores total)", 96),
    ("2 x EPYC 9534 po 64 rdzenie", 128),
])
def test_cpu_cores_of_a_node_in_descriptions_of_several_languages(text: str,
                                                                  cores: int) -> None:
    """Sockets x cores each, written as '(2 x 56 cores)', 'mit je 96 Kernen', '2 × 48
    cœurs': the node's cores, never the per-socket figure alone."""
    from evaltool.normalize.phrases import system_facts

    assert system_facts(text)["cpu_cores_per_node"] == cores


@pytest.mark.parametrize(("stated", "region"), [
    ("Ashburn, VA (LR-IAD2)", "Ashburn, VA (LR-IAD2)"), ("Paris (PAR-3)", "Paris (PAR-3)"),
    ("Dallas, TX (DAL-2).", "Dallas, TX (DAL-2)"),
    ("US-East (Ashburn, VA)", "US-East (Ashburn, VA)"),
    ("東京 (Tokyo, Japan)", "東京 (Tokyo, Japan)"),
])
def test_the_region_is_the_vendors_words_site_code_and_all(tmp_path: Path, stated: str,
                                                           region: str) -> None:
    """A site code in brackets names one building of a metro: cutting it would make two
    sites read as one place, so the region keeps it (a closing full stop is not kept)."""
    path = _workbook(tmp_path / "q.xlsx", {"Quote": [
        ["Vendor", "Example Cloud"],
        ["GPU", "NVIDIA H100 SXM 80GB"],
        ["Total GPUs", 64],
        ["Price", "USD 2.10 per GPU-hour"],
        ["Region", stated],
    ]})
    assert _one(path).fields.region == region


@pytest.mark.parametrize("stated", ["2 × AMD EPYC 9354 (2 × 32 rdzenie)",
                                    "2x Xeon Gold 6448Y (2 x 32 cores)",
                                    "2 × EPYC 9354 (2 × 32 cœurs)"])
def test_labelled_cpu_with_sockets_times_cores_in_brackets(tmp_path: Path, stated: str) -> None:
    path = _workbook(tmp_path / "q.xlsx", {"Quote": [
        ["Vendor", "Example Cloud"],
        ["GPU", "NVIDIA L40S 48GB"],
        ["Total GPUs", 48],
        ["Price", "USD 1.10 per GPU-hour"],
        ["CPU", stated],
    ]})
    assert _one(path).fields.cpu_cores_per_node == 64


@pytest.mark.parametrize("sentence", ["Oferta ważna do 15.03.2026", "Nabídka platná do 15.03.2026",
                                      "Deze offerte is geldig tot 15-03-2026",
                                      "Oferta válida hasta el 15/03/2026",
                                      "Offerten gäller till 15.03.2026"])
def test_the_validity_of_a_quote_in_sentences_of_several_languages(tmp_path: Path,
                                                                   sentence: str) -> None:
    path = _workbook(tmp_path / "q.xlsx", {"Quote": [
        ["Vendor", "Example Cloud"],
        ["GPU", "NVIDIA H100 SXM 80GB"],
        ["Total GPUs", 64],
        ["Price", "USD 2.10 per GPU-hour"],
        [],
        [sentence],
    ]})
    assert str(_one(path).fields.valid_until) == "2026-03-15"


@pytest.mark.parametrize(("sentence", "price", "capacity"), [
    ("Storage: Example Managed Lustre, 500 TiB, $0.14 per GiB per month", 130.385, 549.756),
    ("Managed Lustre is billed at $0.14 per GB-month of provisioned capacity.", 140.0, None),
    ("Stockage : Lustre 300 To à 25 € par To et par mois", 25.0, 300.0),
    ("Speicher: WEKA 200 TB, 0,02 € pro GB-Monat", 20.0, 200.0),
])
def test_a_storage_price_and_capacity_in_one_sentence(tmp_path: Path, sentence: str,
                                                      price: float,
                                                      capacity: float | None) -> None:
    """The size beside a storage price is the capacity; the size in the price's basis
    ('per GiB per month') is the unit priced, converted to per TB-month."""
    path = _workbook(tmp_path / "q.xlsx", {"Quote": [
        ["Vendor", "Example Cloud"],
        ["GPU", "NVIDIA H100 SXM 80GB"],
        ["Total GPUs", 64],
        ["Price", "USD 2.10 per GPU-hour"],
        [],
        [sentence],
    ]})
    f = _one(path, {"EUR": 1.0}).fields
    assert f.storage_usd_per_tb_month == pytest.approx(price, rel=1e-3)
    if capacity is None:
        assert f.storage_capacity_tb is None
    else:
        assert f.storage_capacity_tb == pytest.approx(capacity, rel=1e-3)


@pytest.mark.parametrize(("sentence", "hours"), [
    ("Hardware: failed compute trays are swapped within 4 hours (on-site spares).", 4.0),
    ("Defecte compute trays worden binnen 72 uur vervangen.", 72.0),
    ("Defekte Knoten werden innerhalb von 8 Stunden ausgetauscht.", 8.0),
    ("Les nœuds défaillants sont remplacés sous 24 heures.", 24.0),
])
def test_hardware_replacement_time_in_sentences_of_several_languages(
        tmp_path: Path, sentence: str, hours: float) -> None:
    path = _workbook(tmp_path / "q.xlsx", {"Quote": [
        ["Vendor", "Example Cloud"],
        ["GPU", "NVIDIA H100 SXM 80GB"],
        ["Total GPUs", 64],
        ["Price", "USD 2.10 per GPU-hour"],
        [],
        [sentence],
    ]})
    assert _one(path).fields.hw_replacement_hours == hours


def test_a_response_time_beside_a_replacement_is_not_the_replacement_time() -> None:
    from evaltool.errors import Location
    from evaltool.normalize.builder import Builder
    from evaltool.read.cells import RawRecord
    from evaltool.read.vocabulary import load_vocabulary

    b = Builder(RawRecord(id="o", source={"file": "q.xlsx"}), {"USD": 1.0}, load_vocabulary())
    b.read_prose("Support: 4-hour response; failed parts replaced next business day",
                 Location("q.xlsx", cell="A1"))
    assert "hw_replacement_hours" not in b.facts


@pytest.mark.parametrize(("text", "suffix"), [
    ("offer_id,state,seller_ref,gpu,gpu_qty,nodes,rate,currency,rate_unit\n"
     "X-1,active,SEL-0093,H100 SXM5 80GB,64,8,2.20,USD,per GPU/hr\n"
     "X-2,active,SEL-0101,H100 SXM5 80GB,128,16,17.60,USD,per node/hr\n", "csv"),
    ("angebot;stand;lieferant;gpu;anzahl_gpu;anzahl_knoten;preis;waehrung;preiseinheit\n"
     "A-1;aktiv;LF-2231;H100 SXM5 80GB;64;8;2,20;USD;pro GPU-Stunde\n"
     "A-2;aktiv;LF-2232;H100 SXM5 80GB;128;16;17,60;USD;pro Knoten-Stunde\n", "semicolon"),
])
def test_a_listing_price_takes_its_basis_from_a_unit_column_of_each_row(
        tmp_path: Path, text: str, suffix: str) -> None:
    path = tmp_path / f"Example Exchange {suffix} export.csv"
    path.write_text("# Example Exchange Ltd - marketplace export\n" + text, encoding="utf-8")
    result = normalize_files([path], {})
    assert not result.not_evaluated, result.not_evaluated
    per_gpu, per_node = sorted(result.offers, key=lambda o: o.fields.gpu_count or 0)
    assert per_gpu.fields.price_usd_per_gpu_hour == pytest.approx(2.20)
    assert per_node.fields.price_usd_per_gpu_hour == pytest.approx(17.60 / 8)
    # a supplier's reference code is not its name: the letterhead names the vendor
    assert per_gpu.fields.vendor == "Example Exchange Ltd"


def test_a_unit_column_qualifies_the_column_it_names_or_the_one_before_it() -> None:
    from evaltool.read.rows import unit_columns

    header = ["id", "price", "currency", "price_unit", "qty", "Einheit", "unit price"]
    columns = {0: "id", 1: "price", 2: "currency", 4: "qty", 6: "unit price"}
    assert unit_columns(header, columns) == {3: 1, 5: 4}


_NESTED_OPTIONS = {
    "json": ('{"doc": "example.quote/v1", "proposal": {"vendor": {"name": "Example Cloud, Inc."},'
             ' "currency": "USD", "alternatives": null, "options": ['
             '{"title": "Plan A", "line_items": [{"description": "8x H100 SXM5 80GB node",'
             ' "quantity": 4, "unit": "node_hour", "unit_price_cents": 2000,'
             ' "commitment_months": 12}]},'
             '{"title": "Plan B", "line_items": [{"description": "8x H200 SXM 141GB node",'
             ' "quantity": 2, "unit": "node_hour", "unit_price_cents": 2800,'
             ' "commitment_months": 6}]}],'
             ' "terms": {"support": {"first_response_minutes": 120}}}}'),
    "yaml": ("angebot:\n  anbieter: Beispiel Rechenzentrum GmbH\n  waehrung: USD\n"
             "  terms:\n    support:\n      first_response_minutes: 120\n"
             "  offers:\n"
             "    - name: Plan A\n      line_items:\n"
             "        - {description: 8x H100 SXM5 80GB node, quantity: 4, unit: node_hour,"
             " unit_price_cents: 2000, commitment_months: 12}\n"
             "    - name: Plan B\n      line_items:\n"
             "        - {description: 8x H200 SXM 141GB node, quantity: 2, unit: node_hour,"
             " unit_price_cents: 2800, commitment_months: 6}\n"),
}


@pytest.mark.parametrize("kind", sorted(_NESTED_OPTIONS))
def test_options_inside_a_documents_wrapper_are_offers_priced_in_cents(
        tmp_path: Path, kind: str) -> None:
    path = tmp_path / f"quote.{kind}"
    path.write_text(_NESTED_OPTIONS[kind], encoding="utf-8")
    result = normalize_files([path], {})
    assert not result.not_evaluated, result.not_evaluated
    a, b = sorted(result.offers, key=lambda o: o.fields.price_usd_per_gpu_hour or 0)
    assert a.fields.price_usd_per_gpu_hour == pytest.approx(20.00 / 8)
    assert b.fields.price_usd_per_gpu_hour == pytest.approx(28.00 / 8)
    assert {a.fields.accelerator, b.fields.accelerator} == {"H100-SXM", "H200"}
    # the wrapper's terms are shared, read in the unit their key names
    assert a.fields.support_response_hours == pytest.approx(2)
    assert b.fields.support_response_hours == pytest.approx(2)


@pytest.mark.parametrize(("words", "currency"), [
    (("Option", "Nodes", "List rate ($/node-hour)", "Net rate ($/node-hour)", "Term",
      "Shared for every option", "Example Managed Lustre (1 PiB)", "Egress"), "$"),
    (("Variante", "Knoten", "Listenpreis (€/Knoten-Stunde)", "Nettopreis (€/Knoten-Stunde)",
      "Laufzeit", "Für alle Varianten", "Beispiel Parallel-FS (1 PiB)", "Datenverkehr"), "€"),
])
def test_options_stacked_down_a_sheet_above_a_priced_shared_block_pay_the_net_rate(
        tmp_path: Path, words: tuple[str, ...], currency: str) -> None:
    option, nodes, list_rate, net_rate, term, shared, storage, egress = words
    rows: list[list[Any]] = [["8 x NVIDIA H100 SXM5 80GB per node"], []]
    for mark, net, months in (("A", 98.0, 1), ("B", 60.0, 12), ("C", 44.0, 36)):
        rows += [[f"{option} {mark} – {months} months"], [nodes, 16], [list_rate, 98.0],
                 [net_rate, net], [term, f"{months} months"], []]
    rows += [[shared], [storage, f"{currency}140.00 per TiB-month", "", "fast tier"],
             [egress, f"{currency}0.05 per GB", "", "intra-region free"],
             ["Availability SLA", "99.9%", "", "see footnote"],
             ["Support", "1-hour response", "", "billed separately"],
             ["Region", "East US 2", "", "single zone"]]
    path = _workbook(tmp_path / "q.xlsx", {"Commercial": rows})
    result = normalize_files([path], {"EUR": 1.0})
    assert not result.not_evaluated, result.not_evaluated
    prices = sorted(o.fields.price_usd_per_gpu_hour or 0 for o in result.offers)
    assert prices == pytest.approx([44.0 / 8, 60.0 / 8, 98.0 / 8])
    assert all(o.fields.egress_usd_per_gb == pytest.approx(0.05) for o in result.offers)


@pytest.mark.parametrize("label", ["Compute monthly (USD)", "Compute per month (USD)",
                                   "Monthly compute (USD)"])
def test_a_monthly_compute_figure_for_the_whole_capacity_is_the_price(
        tmp_path: Path, label: str) -> None:
    path = _workbook(tmp_path / "estimate.xlsx", {"Summary": [
        ["Example Cloud — committed use estimate"],
        [],
        ["", "1-year commitment", "3-year commitment", "Remarks"],
        ["Accelerator", "NVIDIA H100 SXM5 80GB", "NVIDIA H100 SXM5 80GB", "16 nodes x 8"],
        ["GPUs", 128, 128, ""],
        [label, 128 * 730 * 2.0, 128 * 730 * 1.5, "see estimate tabs"],
        ["Commitment term", "12 months", "36 months", "billed monthly"],
    ]})
    result = normalize_files([path], {})
    assert not result.not_evaluated, result.not_evaluated
    prices = sorted(o.fields.price_usd_per_gpu_hour or 0 for o in result.offers)
    assert prices == pytest.approx([1.5, 2.0])


@pytest.mark.parametrize(("lines", "price_label"), [
    (["Wij reserveren voor u vier servers, elk uitgerust met acht NVIDIA H100 SXM5 80GB "
      "(80 GB HBM3 per GPU), in ons datacenter.",
      "Elke server is via vier 400GbE-poorten (RoCE v2, in totaal 1,6 Tbit/s per server) "
      "aangesloten op een netwerk dat niet wordt gedeeld met andere klanten."],
     "H100-server (8 GPU's), per server per maand"),
    (["We reserve four servers for you, each equipped with eight NVIDIA H100 SXM5 80GB "
      "(80 GB HBM3 per GPU), in our data centre.",
      "Each server connects through four 400GbE ports (RoCE v2, 1.6 Tbit/s per server in "
      "total) to a network that is not shared with other customers."],
     "H100 server (8 GPUs), per server per month"),
])
def test_a_letter_prices_a_server_per_month_in_a_labelled_row_below_its_prose(
        tmp_path: Path, lines: list[str], price_label: str) -> None:
    path = _workbook(tmp_path / "letter.xlsx", {"Offer": [
        ["Example Compute B.V."], [], *[[line] for line in lines], [],
        [price_label, "€ 11.680,00"],
    ]})
    offer = _one(path, {"EUR": 1.0})
    assert offer.fields.node_count == 4
    assert offer.fields.gpus_per_node == 8
    assert offer.fields.gpu_count == 32
    assert offer.fields.price_usd_per_gpu_hour == pytest.approx(11680 / 8 / 730, rel=1e-3)
    assert offer.fields.inter_node_gbit_s_per_node == pytest.approx(1600)
    assert offer.fields.network_dedicated is True


@pytest.mark.parametrize("rows", [
    [["COMUNICAZIONE DI ASSEGNAZIONE RISORSE – ACCESSO INDUSTRIALE"], [],
     ["Configurazione del nodo", "4× NVIDIA H100 SXM5 80 GB, NVLink 900 GB/s; 512 GB DDR5"],
     ["Monte ore assegnato", "100.000 ore GPU"],
     ["Concorrenza massima", "16 nodi (64 GPU) in contemporanea"],
     ["Accesso amministrativo", "nessun accesso root; container Apptainer"],
     ["Tariffa", "€ 9,60 per ora-nodo (IVA esclusa)"]],
    [["RESOURCE ALLOCATION NOTICE – INDUSTRIAL ACCESS"], [],
     ["Node configuration", "4x NVIDIA H100 SXM5 80GB, NVLink 900 GB/s; 512 GB DDR5"],
     ["Allocated hours", "100,000 GPU hours"],
     ["Maximum concurrency", "16 nodes (64 GPUs) at once"],
     ["Administrative access", "no root access; Apptainer containers"],
     ["Rate", "EUR 9.60 per node-hour (excl. VAT)"]],
])
def test_an_allocation_priced_per_node_hour_takes_gpus_per_node_from_the_node_configuration(
        tmp_path: Path, rows: list[list[Any]]) -> None:
    offer = _one(_workbook(tmp_path / "allocation.xlsx", {"Allocation": rows}), {"EUR": 1.0})
    assert offer.fields.gpus_per_node == 4
    assert offer.fields.price_usd_per_gpu_hour == pytest.approx(9.60 / 4)
    assert offer.fields.gpu_count != 100_000  # hours of GPU time are no count of GPUs
    assert offer.fields.root_access is False
    assert offer.fields.offer_kind == "hpc_allocation"


@pytest.mark.parametrize(("header", "subject", "access"), [
    (["Voce", "Valore", "Unità", "Note"],
     "Oggetto: esito della richiesta di risorse di calcolo - bando 2026-I",
     ["Accesso", "utente non privilegiato", "", "nessun accesso root / sudo"]),
    (["Field", "Value", "Unit", "Notes"],
     "Subject: outcome of your compute allocation request - call for proposals 2026-I",
     ["Access", "unprivileged user", "", "no root / sudo access"]),
])
def test_a_row_of_a_field_value_table_with_a_note_is_no_header_of_options(
        tmp_path: Path, header: list[str], subject: str, access: list[str]) -> None:
    path = _workbook(tmp_path / "allocation.xlsx", {
        "Letter": [["Example Computing Consortium"], [], [subject], [],
                   ["We allocate 24 dedicated nodes (96 NVIDIA H100 SXM5 80GB GPUs) to the "
                    "project for the whole allocation period."]],
        "Detail": [header,
                   ["Accelerators per node", 4, "GPU", "NVIDIA H100 SXM5 80 GB"],
                   ["Nodes", 24, "nodes", "96 GPUs in total"],
                   access,
                   ["Period", "01/04/2026 - 31/03/2027", "", "12 months"],
                   ["Rate", "9,60", "EUR / node-hour", "excl. VAT"],
                   ["Total", "2.018.304,00", "EUR", "210.240 x 9,60"],
                   ["Support", "Help desk", "", "Mon-Fri 9-18"]]})
    offer = _one(path, {"EUR": 1.0})  # one offer, not one per column
    assert offer.fields.price_usd_per_gpu_hour == pytest.approx(2.40)
    assert offer.fields.offer_kind == "hpc_allocation"  # said by the letter's subject


@pytest.mark.parametrize(("header", "unit"), [
    (["Component", "Specification", "Unit", "Comment"], "GiB"),
    (["Komponente", "Spezifikation", "Einheit", "Bemerkung"], "GiB"),
    (["Componente", "Especificación", "Unidad", "Notas"], "TiB"),
])
def test_a_unit_column_beside_a_specification_applies_its_binary_unit(
        tmp_path: Path, header: list[str], unit: str) -> None:
    """'System memory | 1900 | GiB': the unit column's GiB is applied, never read as GB."""
    figure = 1900 if unit == "GiB" else 2
    path = _workbook(tmp_path / "spec.xlsx", {"Spec": [
        header,
        ["Vendor", "Example Cloud", None, None], ["GPU", "8 × NVIDIA H100 SXM 80GB", None, None],
        ["Total GPUs", 16, None, None], ["Price per GPU-hour", "USD 2", None, None],
        ["System memory", figure, unit, "per node"],
    ]})
    want = figure * 2**30 / 1e9 if unit == "GiB" else figure * 2**40 / 1e9
    assert _one(path).fields.cpu_memory_gb_per_node == pytest.approx(want, rel=1e-4)


@pytest.mark.parametrize(("header", "unit", "support"), [
    (["Description", "Qty", "Unit", "Unit price", "Total"], "month", "Premium support 24/7"),
    (["Désignation", "Qté", "Unité", "Prix unitaire", "Total"], "mois", "Support premium 24/7"),
    (["Concepto", "Cantidad", "Unidad", "Precio unitario", "Importe"], "mes",
     "Support premium 24/7"),
])
def test_a_line_counted_in_months_is_a_monthly_fee_not_its_term_total(
        tmp_path: Path, header: list[str], unit: str, support: str) -> None:
    """'Support | 12 | month | 3,500 | 42,000': 12 months of 3,500 a month, not 42,000 a
    month."""
    path = _workbook(tmp_path / "q.xlsx", {"Q": [
        ["Vendor", "Example Cloud"],
        [],
        header,
        ["GPU server 8x NVIDIA H100 SXM 80GB, dedicated", 4, "node / month", "USD 16,000.00",
         "USD 64,000.00"],
        [support, 12, unit, "USD 3,500.00", "USD 42,000.00"],
    ]})
    f = _one(path).fields
    assert f.support_usd_per_month == pytest.approx(3500)
    assert f.gpu_count == 32


@pytest.mark.parametrize("egress", [
    "intra-region traffic free", "ingress is free of charge", "within the same region: free",
])
def test_free_traffic_that_is_not_egress_never_makes_egress_free(
        tmp_path: Path, egress: str) -> None:
    """'Internet egress | intra-region traffic free': nothing is said of the egress price."""
    path = _workbook(tmp_path / "q.xlsx", {"Q": [
        ["Field", "Value"],
        ["Vendor", "Example Cloud"], ["Accelerator", "NVIDIA H100 SXM 80GB"],
        ["Total GPUs", 16], ["Price per GPU-hour", "USD 2"], ["Internet egress", egress],
    ]})
    assert _one(path).fields.egress_usd_per_gb is None


@pytest.mark.parametrize("sentence", [
    "Capacity available from: subject to signature by March 31, 2026",
    "Bereitstellung: bei Unterzeichnung bis 31.03.2026",
    "Livraison : sous réserve de signature avant le 31 mars 2026",
])
def test_a_date_by_which_to_sign_is_not_the_delivery_date(tmp_path: Path, sentence: str) -> None:
    label, value = sentence.split(":", 1)
    path = _workbook(tmp_path / "q.xlsx", {"Q": [
        ["Field", "Value"],
        ["Vendor", "Example Cloud"], ["Accelerator", "NVIDIA H100 SXM 80GB"],
        ["Total GPUs", 16], ["Price per GPU-hour", "USD 2"], [label, value.strip()],
        [sentence],
    ]})
    assert _one(path).fields.delivery_date is None


@pytest.mark.parametrize(("label", "term"), [
    ("Durée d'amortissement retenue", "Engagement hébergement"),
    ("Amortisation period", "Hosting commitment"),
    ("Periodo de amortización", "Plazo"),
])
def test_an_amortisation_period_is_never_the_contract_term(
        tmp_path: Path, label: str, term: str) -> None:
    path = _workbook(tmp_path / "q.xlsx", {"Q": [
        ["Field", "Value"],
        ["Vendor", "Example Cloud"], ["Accelerator", "NVIDIA H100 SXM 80GB"],
        ["Total GPUs", 16], ["Price per GPU-hour", "USD 2"],
        [label, "48 months"], [term, "36 months"],
    ]})
    f = _one(path).fields
    assert f.term_months == 36
    assert f.amortization_months == 48


@pytest.mark.parametrize(("text", "want"), [
    ("NVIDIA GB200 NVL72; 2 racks × 72 GPUs = 144 GPUs", {"gpu_count": 144}),
    ("2 Knoten x 8 GPUs = 16 GPUs", {"gpu_count": 16, "node_count": 2, "gpus_per_node": 8}),
    ("Compute tray: 4 GPUs + 2 Grace CPUs, 18 trays per rack", {"gpus_per_node": 4}),
    ("Knoten: 8 GPUs, 9 Knoten pro Rack", {"gpus_per_node": 8}),
    ("16 serveurs par baie", {}),
])
def test_a_stated_product_is_the_count_and_nodes_per_rack_are_not_the_offers(
        text: str, want: dict[str, int]) -> None:
    assert count_facts(text) == want


def test_a_requirements_threshold_is_not_the_vendors_figure(tmp_path: Path) -> None:
    """An RFP compliance matrix: the buyer's 'network ≥ 400 Gb/s per GPU' is a threshold;
    the vendor's response states what is offered."""
    path = _workbook(tmp_path / "rfp.xlsx", {"Matrix": [
        ["Vendor: Example Cloud. 16 NVIDIA H100 SXM 80GB GPUs at USD 2 per GPU-hour."],
        ["Req", "Requirement", "Response"],
        ["T-1", "Scale-out network ≥ 400 Gb/s per GPU", "InfiniBand NDR, 800 Gb/s per GPU"],
        ["T-2", "Red de interconexión >= 200 Gb/s por GPU", "InfiniBand, 800 Gb/s per GPU"],
    ]})
    result = normalize_files([path], {})
    for offer in result.offers:
        assert offer.fields.inter_node_gbit_s_per_gpu in (None, 800)


@pytest.mark.parametrize("labels", [
    ("Hardware investment", "Amortisation period", "Hosting and services / month",
     "Hosting commitment", "Equivalent monthly cost"),
    ("Investissement matériel", "Durée d'amortissement retenue", "Hébergement et services / mois",
     "Engagement hébergement", "Coût mensuel équivalent"),
])
def test_a_purchase_and_hosting_bundle_is_a_purchase_over_its_amortisation(
        tmp_path: Path, labels: tuple[str, ...]) -> None:
    """Hardware bought, hosted for a monthly fee: a purchase whose term is the hosting
    commitment, never the amortisation period, and never a rental."""
    capex, months, hosting, commitment, equivalent = labels
    path = _workbook(tmp_path / "bundle.xlsx", {"Quote": [
        ["Vendor", "Example Datacenters"],
        [],
        ["Description", "Qty", "Unit price", "Total"],
        ["GPU server, 8x NVIDIA H100 SXM 80GB", 4, "USD 250,000", "USD 1,000,000"],
        [],
        [capex, "USD 1,000,000"],
        [months, "48 months"],
        [hosting, "USD 10,000"],
        [commitment, "36 months"],
        [equivalent, "USD 30,833"],
    ]})
    offer = _one(path)
    f = offer.fields
    assert f.offer_kind == "purchase"
    assert f.capex_usd == pytest.approx(1_000_000)
    assert f.amortization_months == 48
    assert f.term_months == 36
    assert f.price_usd_per_gpu_hour == pytest.approx((1_000_000 / 48 + 10_000) / (32 * 730))
    assert any(w.get("code") == "costs-combined" for w in offer.warnings)


@pytest.mark.parametrize("rows", [
    [["Prazo", "12 meses"], ["Orquestração", "Slurm"], ["Acesso root", "sim"],
     ["Disponibilidade", "99,5 %"], ["Região", "Lisboa (PT)"], ["Disco local", "4× 3,84 TB NVMe"],
     ["Início do serviço", "1 de abril de 2026"]],
    [["Plazo", "12 meses"], ["Orquestación", "Slurm"], ["Acceso root", "sí"],
     ["Disponibilidad", "99,5 %"], ["Región", "Lisboa (PT)"], ["Disco local", "4× 3,84 TB NVMe"],
     ["Inicio del servicio", "1 de abril de 2026"]],
])
def test_portuguese_and_spanish_specification_labels(tmp_path: Path, rows: list[list[str]]) -> None:
    path = _workbook(tmp_path / "q.xlsx", {"Q": [
        ["Vendor", "Example Cloud"], ["Accelerator", "NVIDIA A100 SXM4 80GB"],
        ["Total GPUs", 16], ["Price per GPU-hour", "USD 2"], *rows,
    ]})
    f = _one(path).fields
    assert (f.term_months, f.orchestrator, f.root_access, f.sla_uptime_pct) == (
        12, "slurm", True, 99.5)
    assert f.region == "Lisboa (PT)"
    assert f.local_nvme_tb_per_node == pytest.approx(15.36)
    assert str(f.delivery_date) == "2026-04-01"


@pytest.mark.parametrize(("banner", "term_label"), [
    ("Ref. 0219 · Fecha: 19/02/2026 · Validez de la oferta: hasta el 31/03/2026",
     "Permanencia mínima"),
    ("Ref. 0219 · Data: 19/02/2026 · Validade da proposta: até 31/03/2026", "Permanência mínima"),
])
def test_validity_and_minimum_stay_in_spanish_and_portuguese(
        tmp_path: Path, banner: str, term_label: str) -> None:
    path = _workbook(tmp_path / "q.xlsx", {"Q": [
        [banner], [],
        ["Vendor", "Example Cloud"], ["Accelerator", "NVIDIA H100 SXM 80GB"],
        ["Total GPUs", 16], ["Price per GPU-hour", "USD 2"], [term_label, "6 meses"],
    ]})
    f = _one(path).fields
    assert str(f.valid_until) == "2026-03-31"
    assert f.term_months == 6


@pytest.mark.parametrize(("text", "gb"), [
    ("CPU: 2 × Intel Xeon 6960P, 144 cores total per server; 2,048 GB DDR5", 2048),
    ("Arbeitsspeicher 1.536 GB DDR5", 1536),
    ("Mémoire 1,5 To DDR5", 1500),
])
def test_a_servers_memory_with_a_thousands_mark_is_not_a_few_gigabytes(
        text: str, gb: float) -> None:
    assert system_facts(text)["cpu_memory_gb_per_node"] == pytest.approx(gb)


@pytest.mark.parametrize(("valid", "delivery"), [
    ("Platnost nabídky do: 31. 3. 2026", "Předání serverů: 1. 4. 2026"),
    ("Angebot gültig bis: 31. 3. 2026", "Bereitstellung: 1. 4. 2026"),
    ("Válido hasta: 31/03/2026", "Fecha de entrega: 01/04/2026"),
])
def test_czech_german_and_spanish_validity_and_delivery_lines(
        tmp_path: Path, valid: str, delivery: str) -> None:
    path = _workbook(tmp_path / "q.xlsx", {"Q": [
        [valid], [delivery], [],
        ["Vendor", "Example Cloud"], ["Accelerator", "NVIDIA H100 SXM 80GB"],
        ["Total GPUs", 16], ["Price per GPU-hour", "USD 2"],
    ]})
    f = _one(path).fields
    assert (str(f.valid_until), str(f.delivery_date)) == ("2026-03-31", "2026-04-01")


@pytest.mark.parametrize("network", [
    "InfiniBand HDR, 4× 200 Gb/s na server, vyhrazená pro zákazníka",
    "8 × 400G NDR InfiniBand, non-blocking, your nodes only",
])
def test_a_network_reserved_for_the_customer_is_dedicated(tmp_path: Path, network: str) -> None:
    path = _workbook(tmp_path / "q.xlsx", {"Q": [
        ["Vendor", "Example Cloud"], ["Accelerator", "NVIDIA H100 SXM 80GB"],
        ["Total GPUs", 16], ["Price per GPU-hour", "USD 2"], ["Network", network],
    ]})
    assert _one(path).fields.network_dedicated is True


# --- tables whose rows and columns give each cell its role (issue #10, item 3) -------------

_SHARED_SPEC = [["Vendor", "Example Cloud"], ["Accelerator", "NVIDIA H100 SXM 80GB"]]


@pytest.mark.parametrize("rows", [
    # Danish: section headings inside the table, a subtotal per section, a monthly section
    [["Pos.", "Beskrivelse", "Antal", "Enhed", "Stykpris", "I alt"],
     ["A. Hardware (engangskøb)"],
     ["A1", "8-GPU server, NVIDIA HGX H100 (8 × 80 GB)", 4, "stk.", 300000, 1200000],
     ["A2", "Installation", 1, "sæt", 50000, 50000],
     [None, None, None, None, "Hardware i alt", 1250000],
     [],
     ["B. Drift"],
     ["B1", "Fjernhjælp", 1, "stk.", 20000, 20000]],
    # English: lines after a subtotal and a discount row, then the quote's TOTAL
    [["Line", "Description", "Qty", "Unit Price", "Extended"],
     [1, "8U GPU server: 8x NVIDIA H100 SXM 80GB", 4, 300000, 1200000],
     [None, "Hardware subtotal (items 1-1)", None, None, 1200000],
     [None, "Less: discount 5% on hardware", None, None, -60000],
     [2, "Installation", 1, 50000, 50000],
     [3, "Freight", 1, 20000, 20000],
     [None, None, None, "TOTAL (USD)", 1210000]],
])
def test_a_line_item_table_goes_on_past_sections_and_subtotals(
        tmp_path: Path, rows: list[list[Any]]) -> None:
    """A quote groups its lines in sections with a subtotal each: every line is read, and a
    total row under the table (TOTAL (USD), I alt) is the quote's own total."""
    from evaltool.read import read_offer_file

    path = _workbook(tmp_path / "q.xlsx", {"Q": [["Vendor", "Example Systems"], [], *rows]})
    (record,) = read_offer_file(path)
    descriptions = [item.description for item in record.line_items]
    assert len(descriptions) == 3 and any("Installation" in d for d in descriptions)
    totals = [c.value for c in record.candidates if c.label == "total below the lines"]
    assert {1250000, 1210000} & set(totals)


def test_the_quote_total_after_a_discount_row_is_the_capex(tmp_path: Path) -> None:
    path = _workbook(tmp_path / "q.xlsx", {"Q": [
        ["Example Systems, LLC"], [],
        ["Line", "Description", "Qty", "Unit Price", "Extended"],
        [1, "8U GPU server: 8x NVIDIA H100 SXM 80GB", 4, 300000, 1200000],
        [2, "Installation", 1, 50000, 50000],
        [None, None, None, "Subtotal", 1250000],
        [None, None, None, "Volume discount 6% (line 1)", -72000],
        [None, None, None, "TOTAL (USD)", 1178000],
    ]})
    assert _one(path).fields.capex_usd == pytest.approx(1178000)


@pytest.mark.parametrize(("first", "second", "terms"), [
    ("Wariant I – umowa na 12 miesięcy", "Wariant II – umowa na 24 miesiące", (12, 24)),
    ("Option A - contract for 12 months", "Option B - contract for 36 months", (12, 36)),
])
def test_line_sections_that_enumerate_options_are_offers_of_their_own(
        tmp_path: Path, first: str, second: str, terms: tuple[int, int]) -> None:
    path = _workbook(tmp_path / "q.xlsx", {"Q": [
        ["Example Cloud sp. z o.o."], [],
        ["Lp.", "Opis", "Ilość", "J.m.", "Cena jedn. netto [USD]"],
        [first],
        ["1", "GPU node 8x H100 SXM 80GB, monthly", 8, "node/month", 16000],
        [second],
        ["1", "GPU node 8x H100 SXM 80GB, monthly", 8, "node/month", 14000],
    ]})
    result = normalize_files([path], {})
    assert not result.not_evaluated
    got = sorted(o.fields.term_months for o in result.offers)
    assert got == [float(terms[0]), float(terms[1])]


@pytest.mark.parametrize(("head", "lot1", "lot2"), [
    (["Lote", "Descripción", "Cantidad", "Precio unitario", "Duración"],
     ["Lote 1 – Inferencia", "8 servidores HGX H100 (8 GPU cada uno)", "64 GPU",
      "USD 2,10 / GPU / hora", "12 meses"],
     ["Lote 2 – Entrenamiento", "4 servidores HGX H100 (8 GPU cada uno)", "32 GPU",
      "USD 2,35 / GPU / hora", "6 meses"]),
    (["Lot", "Description", "Quantity", "Unit price", "Term"],
     ["Lot 1 - Inference", "8 servers HGX H100 (8 GPUs each)", "64 GPUs",
      "USD 2.10 / GPU / hour", "12 months"],
     ["Lot 2 - Training", "4 servers HGX H100 (8 GPUs each)", "32 GPUs",
      "USD 2.35 / GPU / hour", "6 months"]),
])
def test_a_lines_field_column_is_its_options_fact(
        tmp_path: Path, head: list[str], lot1: list[str], lot2: list[str]) -> None:
    path = _workbook(tmp_path / "q.xlsx", {"Q": [
        ["Vendor", "Example Cloud"], [], head, lot1, lot2]})
    result = normalize_files([path], {})
    terms = {o.fields.gpu_count: o.fields.term_months for o in result.offers}
    assert terms == {64: 12.0, 32: 6.0}


@pytest.mark.parametrize(("text", "nodes", "per_node"), [
    ("32 nodes x 8 GPUs", 32, 8), ("16 x 8-GPU servers", 16, 8),
    ("4x 8-GPU MI325X servers", 4, 8), ("16 stk. 8-GPU servere", 16, 8),
    ("2 szt. 8-GPU serwery", 2, 8), ("24 instancias de 2 × NVIDIA L40S", 24, 2),
    ("4 Server mit je 8 × H200", 4, 8),
])
def test_n_times_m_gpu_servers_count_nodes_and_gpus_per_node(
        text: str, nodes: int, per_node: int) -> None:
    found = count_facts(text)
    assert (found["node_count"], found["gpus_per_node"]) == (nodes, per_node)


@pytest.mark.parametrize(("label", "first", "second"), [
    ("Footprint", "32 nodes x 8 GPUs", "16 x 8-GPU servers"),
    ("Konfiguration", "32 Knoten x 8 GPUs", "16 Stk. 8-GPU-Knoten"),
])
def test_options_side_by_side_read_an_unknown_label_by_its_shape(
        tmp_path: Path, label: str, first: str, second: str) -> None:
    path = _workbook(tmp_path / "q.xlsx", {"Q": [
        ["Vendor", "Example Cloud"], [],
        [None, "Option 1", "Option 2", "Notes"],
        ["Accelerator", "NVIDIA B200", "NVIDIA H200 SXM", None],
        [label, first, second, "bare metal"],
        ["Term", "24 months", "12 months", None],
        ["Price per GPU-hour", "USD 3.45", "USD 2.29", "all-in"],
    ]})
    result = normalize_files([path], {})
    assert not result.not_evaluated
    assert sorted(o.fields.gpu_count for o in result.offers) == [128, 256]


@pytest.mark.parametrize("headings", [("CUSTOMER", "PROVIDER", "DATES"),
                                      ("Customer", "Provider", "Key dates")])
def test_a_grid_of_label_value_blocks_is_one_offer_read_block_by_block(
        tmp_path: Path, headings: tuple[str, str, str]) -> None:
    """An order form puts label | value blocks side by side under headings: one offer, and
    'Legal entity' under PROVIDER is the vendor (under CUSTOMER it is the buyer)."""
    a, b, c = headings
    path = _workbook(tmp_path / "q.xlsx", {"Order Form": [
        ["EXAMPLE — ORDER FORM #OF-1"], [],
        [a, None, None, b, None, None, c],
        ["Legal entity", "Buyer Labs Inc.", None, "Legal entity", "Example Compute, Inc.", None,
         "Initial term", "36 months"],
        ["Contact", "J. Park", None, "Region", "US-Central", None, "Service start",
         "2026-04-15"],
        ["Billing", "ap@buyer.example", None, "Storage", "WEKA, 250 TB", None,
         "Node replacement", "within 8 hours"],
        [], ["Accelerators", "64 NVIDIA H100 SXM 80GB across 8 nodes"],
        ["Rate", "$2.20 per GPU-hour"],
    ]})
    result = normalize_files([path], {})
    (offer,) = result.offers
    assert offer.fields.vendor == "Example Compute, Inc."
    assert (offer.fields.term_months, offer.fields.region) == (36.0, "US-Central")


@pytest.mark.parametrize(("texts", "dayfirst", "evidence"), [
    (["Expires 03/11/2026", "Date 02/17/2026"], False, "02/17/2026"),
    (["Expires 03/11/2026", "Fecha 16/02/2026"], True, "16/02/2026"),
    (["4410 Technology Dr, Fremont CA 94538", "Expires 03/11/2026"], False, "US postal"),
    (["Expires 03/11/2026"], True, None),
])
def test_numeric_dates_are_read_in_the_order_the_document_writes(
        texts: list[str], dayfirst: bool, evidence: str | None) -> None:
    from evaltool.normalize.dates import document_date_order

    got, why = document_date_order(texts)
    assert got is dayfirst
    assert (why is None) if evidence is None else (evidence in (why or ""))


def test_an_ambiguous_date_in_a_us_quote_is_month_first_and_said(tmp_path: Path) -> None:
    path = _workbook(tmp_path / "q.xlsx", {"Q": [
        ["EXAMPLE SYSTEMS, LLC"], ["4410 Technology Dr, Fremont CA 94538"], [],
        ["Expires", "03/11/2026"], *_SHARED_SPEC, ["Total GPUs", 16],
        ["Price per GPU-hour", "USD 2"],
    ]})
    offer = _one(path)
    assert str(offer.fields.valid_until) == "2026-03-11"
    assert any(w["code"] == "date-order-read" for w in offer.warnings)


def test_an_ambiguous_date_nothing_decides_is_warned(tmp_path: Path) -> None:
    path = _workbook(tmp_path / "q.xlsx", {"Q": [
        ["Expires", "03/11/2026"], *_SHARED_SPEC, ["Total GPUs", 16],
        ["Price per GPU-hour", "USD 2"],
    ]})
    offer = _one(path)
    assert any(w["code"] == "date-order-assumed" and w["severity"] == "warning"
               for w in offer.warnings)


@pytest.mark.parametrize(("label", "period"), [
    ("Periodo di validità", "01/04/2026 – 31/03/2027"),
    ("Allocation period", "1 April 2026 to 31 March 2027"),
    ("Periodo di assegnazione", "01/04/2026 - 31/03/2027"),
])
def test_a_period_of_two_dates_is_the_service_start_and_term(
        tmp_path: Path, label: str, period: str) -> None:
    path = _workbook(tmp_path / "q.xlsx", {"Q": [
        *_SHARED_SPEC, ["Total GPUs", 16], ["Price per GPU-hour", "USD 2"], [label, period]]})
    f = _one(path).fields
    assert (str(f.delivery_date), f.term_months) == ("2026-04-01", 12.0)
    assert f.valid_until is None


@pytest.mark.parametrize(("note", "option", "kept"), [
    ("Fecha prevista de entrega: Lote 1 – 02/03/2026; Lote 2 – 01/04/2026.",
     "Lote 2 – Entrenamiento", "Fecha prevista de entrega: Lote 2 – 01/04/2026"),
    ("Delivery: Option A: 2026-03-02; Option B: 2026-04-01", "Option A — 1 year",
     "Delivery: Option A: 2026-03-02"),
    ("ICI 3D torus, 1,200 GB/s per chip; ICI links dedicated to the slice", "On-demand",
     "ICI 3D torus, 1,200 GB/s per chip; ICI links dedicated to the slice"),
])
def test_a_shared_note_gives_each_option_its_own_clause(
        note: str, option: str, kept: str) -> None:
    from evaltool.read.blocks import clauses_for_option

    assert clauses_for_option(note, option) == kept


@pytest.mark.parametrize(("label", "value", "note"), [
    ("Temp storage", "28 TB NVMe (8 x 3.5 TB)", "ephemeral; lost on deallocation"),
    ("Storage", "8 x 3.84 TB NVMe per node", None),
])
def test_disks_under_a_storage_label_are_local_nvme_and_a_rate_no_capacity(
        tmp_path: Path, label: str, value: str, note: str | None) -> None:
    path = _workbook(tmp_path / "q.xlsx", {"Q": [
        *_SHARED_SPEC, ["Total GPUs", 16], ["Price per GPU-hour", "USD 2"],
        [label, value, note], ["Shared file system", "Managed Lustre, 500 TB"],
        ["Throughput tier", "250 MB/s per TiB provisioned"],
    ]})
    f = _one(path).fields
    assert f.storage_capacity_tb == pytest.approx(500)
    assert f.local_nvme_tb_per_node == pytest.approx(28 if note else 30.72)


@pytest.mark.parametrize(("note", "kw"), [
    ("• Estimated max power draw 10.4 kW per server at full load.", 10.4),
    ("• Strømforbrug ca. 15 kW pr. server ved fuld last; strøm over 30 kW pr. rack "
     "afregnes med 2,10 kr./kWh.", 15.0),
    ("1. Rated power per node: 11.5 kW (XE9680 with 6x 2800 W PSUs).", 11.5),
    ("Leistungsaufnahme ca. 10,2 kW je Knoten.", 10.2),
])
def test_power_per_node_in_a_note(tmp_path: Path, note: str, kw: float) -> None:
    path = _workbook(tmp_path / "q.xlsx", {"Q": [
        *_SHARED_SPEC, ["Total GPUs", 16], ["Price per GPU-hour", "USD 2"], [], [note]]})
    assert _one(path).fields.power_kw_per_node == pytest.approx(kw)


def test_clauses_do_not_end_at_abbreviations_or_a_days_full_stop() -> None:
    from evaltool.normalize.phrases import clauses

    assert clauses("Strømforbrug ca. 15 kW pr. server; strøm over 30 kW pr. rack.") == [
        "Strømforbrug ca. 15 kW pr. server;", "strøm over 30 kW pr. rack."]
    assert clauses("Tilbuddet gælder til 31. marts 2026. Med venlig hilsen") == [
        "Tilbuddet gælder til 31. marts 2026.", "Med venlig hilsen"]


@pytest.mark.parametrize(("letterhead", "vendor"), [
    ("Consorzio Nazionale di Supercalcolo Adriatico (CNSA)",
     "Consorzio Nazionale di Supercalcolo Adriatico (CNSA)"),
    ("CNCA - Consorzio Nazionale per il Calcolo Avanzato",
     "CNCA - Consorzio Nazionale per il Calcolo Avanzato"),
    ("Example Cloud (the Provider)", "Example Cloud"),
])
def test_the_vendors_name_keeps_its_acronym(tmp_path: Path, letterhead: str,
                                            vendor: str) -> None:
    path = _workbook(tmp_path / "q.xlsx", {"Q": [
        [letterhead], [], ["Accelerator", "NVIDIA H100 SXM 80GB"], ["Total GPUs", 16],
        ["Price per GPU-hour", "USD 2"]]})
    assert _one(path).fields.vendor == vendor


@pytest.mark.parametrize(("amount", "ram"), [("52 560,00 zł", "2 048 GB DDR5"),
                                             ("52\u00a0560,00 PLN", "2\u00a0048 GB")])
def test_a_space_groups_thousands_where_the_document_writes_them_so(
        tmp_path: Path, amount: str, ram: str) -> None:
    path = _workbook(tmp_path / "q.xlsx", {"Q": [
        *_SHARED_SPEC, ["Total GPUs", 16], ["Price per node-month", amount],
        ["GPUs per node", 8], ["Pamięć RAM", ram]]})
    assert _one(path, {"PLN": 0.25}).fields.cpu_memory_gb_per_node == pytest.approx(2048)


@pytest.mark.parametrize("line", [
    "AMD Pollara 400 AI NIC, 400GbE, RoCEv2 (8 per server, one per GPU)",
    "Broadcom Thor2 400GbE NIC (backend RoCEv2 fabric), 8 per server",
])
def test_a_line_of_network_cards_gives_the_nodes_network(tmp_path: Path, line: str) -> None:
    path = _workbook(tmp_path / "q.xlsx", {"Q": [
        ["Example Systems, LLC"], [],
        ["Line", "Description", "Qty", "Unit Price", "Extended"],
        [1, "8U GPU server: 8x AMD Instinct MI325X 256GB", 4, 298500, 1194000],
        [2, line, 32, 2000, 64000],
    ]})
    f = _one(path).fields
    assert (f.inter_node_fabric, f.inter_node_gbit_s_per_node) == ("roce", 3200)


def test_a_yaml_files_comments_and_per_node_keys(tmp_path: Path) -> None:
    path = tmp_path / "notes.yaml"
    path.write_text("# Call notes; quote valid until 2026-03-20.\n"
                    "provider: Example Cloud Inc.\n"
                    "hardware:\n  accelerator: Intel Gaudi 3\n  nodes: 16\n"
                    "  per_node:\n    accelerators: 8\n"
                    "money:\n  price: 12.40 USD per node-hour\n", encoding="utf-8")
    f = _one(path).fields
    assert (f.gpu_count, f.gpus_per_node, str(f.valid_until)) == (128, 8, "2026-03-20")


@pytest.mark.parametrize("line", [
    "Quantity: 32 VMs = 256 GPUs · Region: East US 2 · Prices exclude applicable taxes",
    "Region: East US 2 | Term: 12 months",
])
def test_several_labelled_parts_in_one_line(tmp_path: Path, line: str) -> None:
    path = _workbook(tmp_path / "q.xlsx", {"Q": [
        [line], [], *_SHARED_SPEC, ["Total GPUs", 256], ["Price per GPU-hour", "USD 2"]]})
    assert _one(path).fields.region == "East US 2"


def test_stacked_options_end_at_a_gap_and_what_follows_is_shared(tmp_path: Path) -> None:
    path = _workbook(tmp_path / "q.xlsx", {"Q": [
        *_SHARED_SPEC, ["Total GPUs", 64], [],
        ["OPTION A — 1-Year Reserved"], ["Effective rate", "USD 2.50 per GPU-hour"],
        ["Term", "12 months"], [], [],
        ["OPTION B — 3-Year Reserved"], ["Effective rate", "USD 1.90 per GPU-hour"],
        ["Term", "36 months"], [], [],
        ["Internet egress", "$0.087 per GB"], ["VM availability SLA", "99.9%"],
    ]})
    result = normalize_files([path], {})
    assert len(result.offers) == 2
    assert all(o.fields.sla_uptime_pct == 99.9 for o in result.offers)


@pytest.mark.parametrize("price", ["1.985,00 € / instancia / mes",
                                   "1,985.00 EUR per widget per month"])
def test_a_recurring_fee_whose_basis_is_not_understood_is_never_a_purchase(
        tmp_path: Path, price: str) -> None:
    """A monthly fee per something the reader does not know is left out and said; read as a
    one-off line it would make a rental a purchase (prefer missing to wrong)."""
    path = _workbook(tmp_path / "q.xlsx", {"Q": [
        ["Vendor", "Example Cloud"], [],
        ["Description", "Quantity", "Unit price"],
        ["24 widgets of 2 x NVIDIA L40S", 24, price],
    ]})
    result = normalize_files([path], {"EUR": 1.08})
    assert all(o.fields.offer_kind != "purchase" and o.fields.capex_usd is None
               for o in result.offers)
    assert result.offers or result.not_evaluated  # the file is accounted for either way


@pytest.mark.parametrize(("sentence", "region"), [
    ("Both run on Kubernetes; data stays in Object Storage in region us-central2.",
     "us-central2"),
    ("We hold 32 VMs in a single placement group in region East US 2. Details below.",
     "East US 2"),
    ("Los datos permanecen en la región europe-southwest1 durante el contrato.",
     "europe-southwest1"),
    ("3. TPU slices are only available in us-east5 for this commitment.", "us-east5"),
])
def test_the_region_a_sentence_names(tmp_path: Path, sentence: str, region: str) -> None:
    path = _workbook(tmp_path / "q.xlsx", {"Q": [
        [sentence], [], *_SHARED_SPEC, ["Total GPUs", 64], ["Price per GPU-hour", "USD 2"]]})
    assert _one(path).fields.region == region


@pytest.mark.parametrize(("label", "value"), [
    ("Availability", "Q2 2026 (2026-04-15)"), ("Disponibilità", "15 aprile 2026"),
])
def test_a_date_under_an_availability_label_is_the_delivery_date(
        tmp_path: Path, label: str, value: str) -> None:
    path = _workbook(tmp_path / "q.xlsx", {"Q": [
        *_SHARED_SPEC, ["Total GPUs", 64], ["Price per GPU-hour", "USD 2"], [label, value]]})
    offer = _one(path)
    assert (str(offer.fields.delivery_date), offer.fields.sla_uptime_pct) == ("2026-04-15", None)
    assert any(w["code"] == "date-under-uptime-label" for w in offer.warnings)


@pytest.mark.parametrize("host", ["2x EPYC 9654 (96c each), 2.3 TB RAM",
                                  "2 × Xeon 8468 (48 cores each), 2 TB DDR5"])
def test_a_hosts_cpus_under_a_host_label(tmp_path: Path, host: str) -> None:
    path = _workbook(tmp_path / "q.xlsx", {"Q": [
        *_SHARED_SPEC, ["Total GPUs", 64], ["Price per GPU-hour", "USD 2"], ["Host", host]]})
    assert _one(path).fields.cpu_cores_per_node in (192, 96)


@pytest.mark.parametrize(("notes_header", "note"), [
    ("Remarks", "32 hosts × 8 chips"), ("Bemærkninger", "32 servere x 8 GPU"),
])
def test_a_notes_column_says_how_a_count_is_made(
        tmp_path: Path, notes_header: str, note: str) -> None:
    path = _workbook(tmp_path / "q.xlsx", {"Q": [
        ["Vendor", "Example Cloud"], [],
        [None, "1-year commitment", "3-year commitment", notes_header],
        ["Accelerator", "NVIDIA H100 SXM 80GB", "NVIDIA H100 SXM 80GB", None],
        ["GPUs", 256, 256, note],
        ["Term", "12 months", "36 months", None],
        ["Price per GPU-hour", "USD 2.10", "USD 1.70", None],
    ]})
    result = normalize_files([path], {})
    assert {(o.fields.node_count, o.fields.gpus_per_node) for o in result.offers} == {(32, 8)}


@pytest.mark.parametrize(("label", "folded"), [
    ("Bemærkninger", "bemaerkninger"), ("Łącznie GPU", "lacznie gpu"), ("Größe", "grosse"),
])
def test_labels_fold_the_letters_unicode_does_not_split(label: str, folded: str) -> None:
    from evaltool.read.vocabulary import normalise_label

    assert normalise_label(label) == folded


@pytest.mark.parametrize(("first", "second"), [
    ("OPCIÓN 1 — 16 nodos (128 aceleradores), 12 meses",
     "OPCIÓN 2 — 32 nodos (256 aceleradores), 12 meses"),
    ("Option A - 16 nodes (128 GPUs)", "Option B - 32 nodes (256 GPUs)"),
])
def test_another_options_heading_states_nothing_of_this_option(
        tmp_path: Path, first: str, second: str) -> None:
    rows: list[list[Any]] = [["Vendor", "Example Cloud"], ["Accelerator", "NVIDIA H100 SXM"], []]
    for heading, nodes, rate in ((first, 16, "31,20"), (second, 32, "29,60")):
        rows += [[heading], ["Concepto", "Cantidad", "Unidad", "Precio unitario"],
                 ["Nodo 8 × H100 SXM", nodes, "nodos", f"{rate} €/nodo·hora"], []]
    result = normalize_files([_workbook(tmp_path / "q.xlsx", {"Q": rows})], {"EUR": 1.08})
    assert sorted((o.fields.node_count, o.fields.gpu_count) for o in result.offers) == [
        (16, 128), (32, 256)]


@pytest.mark.parametrize(("stated", "region"), [
    # A gloss in another script translates the code for another readership: the code. A gloss
    # in the code's own script is the vendor's own words: kept whole, as a site code is.
    ("asia-northeast1（東京）", "asia-northeast1"), ("us-east5 (Ohio)", "us-east5 (Ohio)"),
    ("us-east (N. Virginia)", "us-east (N. Virginia)"),
])
def test_a_cloud_region_code_with_a_gloss_is_the_code(tmp_path: Path, stated: str,
                                                      region: str) -> None:
    path = _workbook(tmp_path / "q.xlsx", {"Q": [
        *_SHARED_SPEC, ["Total GPUs", 64], ["Price per GPU-hour", "USD 2"],
        ["※ リージョン: " + stated if "東京" in stated else "Region", None if "東京" in stated
         else stated]]})
    assert _one(path).fields.region == region


@pytest.mark.parametrize("line", ["Location: Slough, UK. Nodes ready week commencing 9 March "
                                  "2026.", "Capacity ready w/c 9 March 2026 at our site."])
def test_ready_in_the_week_commencing_is_the_delivery_date(tmp_path: Path, line: str) -> None:
    path = _workbook(tmp_path / "q.xlsx", {"Q": [
        [line], [], *_SHARED_SPEC, ["Total GPUs", 64], ["Price per GPU-hour", "USD 2"]]})
    assert str(_one(path).fields.delivery_date) == "2026-03-09"


@pytest.mark.parametrize(("head", "notes", "term"), [
    (["Item", "Description", "Qty", "Unit price", "Term (mo)", "Notes"],
     ("Reserved, dedicated", "Aggregate 180 GB/s read / 60 GB/s write",
      "Sev-1 response within 30 minutes"), "24"),
    (["Pos", "Beschreibung", "Menge", "Einzelpreis", "Laufzeit", "Bemerkung"],
     ("reserviert", "lesen 180 GB/s, schreiben 60 GB/s", "Support: Reaktionszeit 30 Minuten"),
     "24 Monate"),
])
def test_a_bom_lines_notes_and_a_column_every_line_shares(
        tmp_path: Path, head: list[str], notes: tuple[str, str, str], term: str) -> None:
    """A line's note states what it says about the service (storage speeds, support); a
    column every line fills with the same value ('Term | 24') states it for the offer."""
    path = _workbook(tmp_path / "q.xlsx", {"Q": [
        ["Vendor", "Example Cloud"], [], head,
        [1, "GPU node 8x NVIDIA B200, reserved", 16, "USD 3.40 per GPU-hour", term, notes[0]],
        [2, "VAST shared storage 2 PB", 1, "USD 60000 per month", term, notes[1]],
        [3, "Premium support", 1, "USD 8500 per month", term, notes[2]],
    ]})
    f = _one(path).fields
    assert (f.storage_read_gbyte_s, f.storage_write_gbyte_s) == (180, 60)
    assert (f.support_response_hours, f.term_months) == (0.5, 24.0)


@pytest.mark.parametrize(("where", "text"), [
    ("note", "Mindestvertragslaufzeit 12 Monate. Abrechnung monatlich im Voraus."),
    ("name", "Dedizierter GPU-Cluster HGX H200, 12 Monate"),
    ("name", "Reserved H100 cluster, 12 months (Q-2026-0147)"),
])
def test_a_term_in_a_compound_word_or_in_the_offers_name(
        tmp_path: Path, where: str, text: str) -> None:
    rows: list[list[Any]] = [*_SHARED_SPEC, ["Total GPUs", 64], ["Price per GPU-hour", "USD 2"]]
    rows += [[], [text]] if where == "note" else [["Offer", text]]
    assert _one(_workbook(tmp_path / "q.xlsx", {"Q": rows})).fields.term_months == 12.0


@pytest.mark.parametrize("name", ["32 x HGX H100 purchase with 24-month buy-back",
                                  "Kauf von 4 HGX-Servern, 36 Monate Garantie"])
def test_a_duration_in_a_name_that_is_not_a_term(tmp_path: Path, name: str) -> None:
    path = _workbook(tmp_path / "q.xlsx", {"Q": [
        *_SHARED_SPEC, ["Total GPUs", 64], ["Price per GPU-hour", "USD 2"], ["Offer", name]]})
    assert _one(path).fields.term_months is None


@pytest.mark.parametrize("header", [
    ["Parameter", "Værdi", "Enhed", "Bemærkning"],   # Danish
    ["Paraméter", "Érték", "Mértékegység", "Megjegyzés"],  # Hungarian
    ["Parametre", "Valoare", "Unitate", "Observații"],  # Romanian
])
def test_a_field_value_table_below_a_quote_number_line_is_one_offer(
        tmp_path: Path, header: list[str]) -> None:
    # "Quote no. | Q-1" above the table is a labelled line, not a header of two options.
    path = _workbook(tmp_path / "quote.xlsx", {"Quote": [
        ["Example Compute", None, "Quote no.", "Q-0311"],
        [None, None, "Date", "2026-11-20"],
        [],
        header,
        ["Accelerator", "NVIDIA H100 SXM5 80GB", None, "80 GB HBM3 per GPU"],
        ["GPUs", 64, "pcs", None],
        ["Price", 2.5, "USD per GPU-hour", "excl. VAT"],
        ["Term", 12, "months", None]]})
    offer = _one(path)
    assert offer.fields.gpu_count == 64
    assert offer.fields.price_usd_per_gpu_hour == pytest.approx(2.5)


@pytest.mark.parametrize(("text", "count"), [
    ("128 stk.", 128), ("16 szt.", 16), ("4 db.", 4), ("12 ks", 12), ("8 Stück", 8)])
def test_a_count_followed_by_an_abbreviated_piece_word(text: str, count: int) -> None:
    assert parse_count(text).value == count


@pytest.mark.parametrize("text", ["8 GPU pr. node", "8 GPU pr node", "8 GPUs per node"])
def test_gpus_per_node_with_the_danish_and_norwegian_per(text: str) -> None:
    assert count_facts(text) == {"gpus_per_node": 8}


@pytest.mark.parametrize(("text", "named"), [
    ("Slurm is preinstalled (or bring your own k8s), you get root", "slurm"),
    ("Kubernetes verwaltet; eigenes Slurm möglich", "kubernetes"),
    ("Slurm; BYO Kubernetes", "slurm"),
    ("Slurm und Kubernetes", "both"),
])
def test_an_orchestrator_the_customer_brings_is_not_the_offers(text: str, named: str) -> None:
    assert orchestrator_named(text) == named
