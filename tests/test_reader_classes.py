"""Specification: shapes of real quotes the reader must understand, each with a small example
of our own (never a blind file): per-rack prices of rack-scale systems, contract-sheet figures
read with the role their label or sentence gives them, a percentage never read as an amount."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from evaltool.normalize.core import normalize_files
from evaltool.normalize.values import parse_money, price_per_gpu_hour


def _workbook(path: Path, sheets: dict[str, list[list[Any]]]) -> Path:
    from openpyxl import Workbook

    wb = Workbook()
    wb.remove(wb.active)
    for name, rows in sheets.items():
        ws = wb.create_sheet(name)
        for row in rows:
            ws.append(row)
    wb.save(path)
    return path


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
    assert any(w.get("code") == "label-shape-disagree" for w in offer.warnings)


def test_amounts_in_an_assumed_currency_each_carry_the_warning(tmp_path: Path) -> None:
    """No currency beside any amount: USD is assumed, and every amount says it rests on it."""
    path = _workbook(tmp_path / "q.xlsx", {"Q": [
        ["Vendor", "Example Cloud"], ["Accelerator", "NVIDIA H100 SXM 80GB"],
        ["Total GPUs", 16], ["Price per GPU-hour", 2.5], ["Upfront payment", 10000],
    ]})
    offer = _one(path)
    warned = {w.get("field") for w in offer.warnings if w.get("code") == "assumed-value"}
    assert {"currency", "price_usd_per_gpu_hour", "upfront_usd"} <= warned


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
    warned = {w.get("field") for w in offer.warnings if w.get("code") == "label-shape-disagree"}
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
    assert any(w.get("code") == "count-mismatch" for w in offer.warnings)


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
