"""Specification: fields an offer states that must not be lost once the offer is found.
Each class is a shape (a number convention, a value's own form, a phrase), shown by small
examples of our own in several languages, never a blind file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from workbooks import write_workbook

from evaltool.normalize.core import normalize_files

_PRICED = [["GPU", "NVIDIA H100 SXM5 80GB"], ["Number of GPUs", 64],
           ["Price per GPU-hour", "USD 2.00"]]


def _one(path: Path) -> Any:
    result = normalize_files([path], {})
    assert not result.not_evaluated, result.not_evaluated
    (offer,) = result.offers
    return offer


@pytest.mark.parametrize(("label", "value", "other"), [
    ("Minne", "3 072 GB DDR5", ["Lagring", "VAST, 1 000 TB"]),       # a zero-led group
    ("Pamięć RAM", "2 304 GB DDR5", ["Opłata", "USD 12 345,00"]),     # grouped amounts
    ("Mémoire", "1 536 Go DDR5", ["Frais", "USD 4 500,00 une fois"]),
])
def test_a_space_grouped_thousand_follows_the_documents_own_convention(
        tmp_path: Path, label: str, value: str, other: list[str]) -> None:
    rows: list[list[Any]] = [["Vendor", "Example Cloud"], *_PRICED, [label, value], other]
    offer = _one(write_workbook(tmp_path / "q.xlsx", {"Q": rows}))
    assert offer.fields.cpu_memory_gb_per_node == float(value.split(" G")[0].replace(" ", ""))


@pytest.mark.parametrize("sentence", [
    "Jeder Knoten: 8× NVIDIA H100 SXM5 80 GB, 2× Intel Xeon Platinum 8480+, 2 048 GB DDR5, "
    "8× 3,84 TB NVMe",
    "Každý server: 8× NVIDIA H100 SXM5 80 GB, 2× Intel Xeon Platinum 8480+, 2 048 GB DDR5, "
    "8× 3,84 TB NVMe",
])
def test_a_zero_led_group_in_a_servers_description_is_a_thousand(
        tmp_path: Path, sentence: str) -> None:
    rows: list[list[Any]] = [["Vendor", "Example Servis"], *_PRICED, [], [sentence]]
    offer = _one(write_workbook(tmp_path / "q.xlsx", {"Q": rows}))
    assert offer.fields.cpu_memory_gb_per_node == 2048


@pytest.mark.parametrize(("label", "value", "field", "expected"), [
    ("Jobbkø", "Slurm", "orchestrator", "slurm"),
    ("ジョブ管理", "Slurm", "orchestrator", "slurm"),
    ("Planificator sarcini", "Kubernetes", "orchestrator", "kubernetes"),
    ("メモリ", "2,048GB DDR5", "cpu_memory_gb_per_node", 2048),
    ("Operativno", "1.536 GB DDR5", "cpu_memory_gb_per_node", 1536),
])
def test_a_value_whose_label_is_unknown_is_read_by_its_own_shape(
        tmp_path: Path, label: str, value: str, field: str, expected: object) -> None:
    rows: list[list[Any]] = [["Vendor", "Example Cloud"], *_PRICED, [label, value]]
    offer = _one(write_workbook(tmp_path / "q.xlsx", {"Q": rows}))
    assert getattr(offer.fields, field) == expected


@pytest.mark.parametrize(("label", "value", "upfront"), [
    ("Forskuddsbetaling", "Ingen", 0.0),
    ("Opłata wstępna", "0 USD", 0.0),
    ("Vorschuss", "keine", 0.0),
    ("Forskuddsbetaling", "USD 15 137 280,00", 15_137_280.0),   # every group of the run
])
def test_a_prepayment_in_other_languages_and_none_words(
        tmp_path: Path, label: str, value: str, upfront: float) -> None:
    rows: list[list[Any]] = [["Vendor", "Example Cloud"], *_PRICED, ["Term", "36 months"],
                             [label, value], ["Monthly", "USD 5 816 640,00"]]
    offer = _one(write_workbook(tmp_path / "q.xlsx", {"Q": rows}))
    assert offer.fields.upfront_usd == pytest.approx(upfront)


@pytest.mark.parametrize(("sentence", "delivery"), [
    ("Disponibilidade a partir de 7 de dezembro de 2030, no nosso datacenter.", "2030-12-07"),
    ("Capacidad disponible desde el 1 de marzo de 2030.", "2030-03-01"),
    ("Service period: month 1 of 12 (start 2030-02-01)", "2030-02-01"),
    ("Commencement of service: 1 March 2030", "2030-03-01"),
])
def test_a_start_of_service_in_a_sentence_is_the_delivery_date(
        tmp_path: Path, sentence: str, delivery: str) -> None:
    rows: list[list[Any]] = [["Vendor", "Example Cloud"], *_PRICED, [], [sentence]]
    offer = _one(write_workbook(tmp_path / "q.xlsx", {"Q": rows}))
    assert str(offer.fields.delivery_date) == delivery


@pytest.mark.parametrize(("first", "second"), [
    ("Prepared:", "Service Commencement:"),
    ("Dato:", "Leveringsdato:"),
    ("Data wystawienia:", "Termin uruchomienia:"),
])
def test_label_value_pairs_side_by_side_are_read_even_when_the_labels_are_unknown(
        tmp_path: Path, first: str, second: str) -> None:
    rows: list[list[Any]] = [["Vendor", "Example Cloud"],
                             [first, "2030-01-10", None, second, "2030-03-01"], *_PRICED]
    offer = _one(write_workbook(tmp_path / "q.xlsx", {"Q": rows}))
    assert str(offer.fields.delivery_date) == "2030-03-01"


def test_a_compliance_row_keeps_its_requirement_label(tmp_path: Path) -> None:
    # "ID | requirement | response | compliant": the id is no label of the requirement
    rows: list[list[Any]] = [["Vendor", "Example Cloud"], *_PRICED,
                             ["T-11", "Availability SLA", "99.0% monthly", "P"]]
    offer = _one(write_workbook(tmp_path / "q.xlsx", {"Q": rows}))
    assert offer.fields.sla_uptime_pct == 99.0


@pytest.mark.parametrize(("text", "facts"), [
    # sockets after the model, a total word in another script
    ("Intel Xeon Platinum 8480+ × 2（計112コア）", {"cpu_cores_per_node": 112}),
    ("2 × Intel Xeon 6960P (totalt 144 kjerner)", {"cpu_cores_per_node": 144}),
    # a list in brackets, its "per tray" said once for all its items
    ("18 compute trays with 4 GPUs (192 GB HBM3e each) and 2 Grace CPUs (144 Arm cores, "
     "960 GB LPDDR5X per tray)", {"cpu_cores_per_node": 144, "cpu_memory_gb_per_node": 960}),
    # a conjunction before a figure starts a new part
    ("1× AMD EPYC 9354 (32 núcleos) e 384 GB de RAM por instância",
     {"cpu_cores_per_node": 32, "cpu_memory_gb_per_node": 384}),
    ("1x AMD EPYC 9354 (32 Kerne) und 768 GB RAM je Server",
     {"cpu_cores_per_node": 32, "cpu_memory_gb_per_node": 768}),
])
def test_a_servers_cpus_and_memory_in_descriptions(text: str, facts: dict[str, float]) -> None:
    from evaltool.normalize.phrases import system_facts

    found = system_facts(text)
    assert {k: found.get(k) for k in facts} == facts


def test_a_figure_for_each_cpu_is_never_read_as_the_nodes() -> None:
    from evaltool.normalize.phrases import system_facts

    found = system_facts("4 GPUs + 2 Grace CPUs (72 Arm cores each, 480 GB LPDDR5X each)")
    assert found.get("cpu_memory_gb_per_node") != 480


@pytest.mark.parametrize(("header", "field"), [
    ("cpu_ram_gb", "cpu_memory_gb_per_node"), ("host_memory_gb", "cpu_memory_gb_per_node"),
    ("gpu_ram_gb", "gpu_memory_gb"),
])
def test_a_memory_column_is_the_memory_of_what_it_names(
        tmp_path: Path, header: str, field: str) -> None:
    path = tmp_path / "export.csv"
    path.write_text(f"listing_id,vendor,gpu_name,num_gpus,price_per_gpu_hr_usd,{header}\n"
                    "L-1,Example Hub,H100 SXM,8,2.00,80\n")
    offer = _one(path)
    assert getattr(offer.fields, field) == 80


@pytest.mark.parametrize(("sentence", "field", "value"), [
    ("Ved brudd krediteres 5 % per påbegynte 0,1 %-poeng, inntil 25 % av månedsbeløpet.",
     "sla_max_credit_pct", 25.0),
    ("SLA: dostępność 99,5% w miesiącu; rekompensata maks. 20% opłaty miesięcznej",
     "sla_max_credit_pct", 20.0),
    ("SLA：月間稼働率 99.5%。下回った場合、月額利用料の最大10%を"
     "サービスクレジットとして返還します。",
     "sla_max_credit_pct", 10.0),
    ("Oppetid: 99,9 % per kalendermåned.", "sla_uptime_pct", 99.9),
    ("Maskinvarebytte: defekte komponenter byttes innen 8 timer.", "hw_replacement_hours", 8.0),
])
def test_service_levels_in_sentences_of_more_languages(
        tmp_path: Path, sentence: str, field: str, value: float) -> None:
    rows: list[list[Any]] = [["Vendor", "Example Cloud"], *_PRICED, [], [sentence]]
    offer = _one(write_workbook(tmp_path / "q.xlsx", {"Q": rows}))
    assert getattr(offer.fields, field) == pytest.approx(value)


def test_kana_keep_their_marks_when_folded() -> None:
    from evaltool.normalize.phrases import fold, topics

    assert fold("サービスクレジット") == "サービスクレジット"
    assert fold("Dédié") == "Dedie"
    assert "credit" in topics("月額利用料の最大10%をサービスクレジットとして返還")


@pytest.mark.parametrize(("text", "memory"), [
    ("GB200 NVL72 rack, reserved — 72x NVIDIA Blackwell GPUs (192 GB HBM3e each)", 192.0),
    ("Baie GB200 NVL72 : 72 GPU Blackwell, 192 Go de HBM3e par GPU", 192.0),
    ("Rack GB200 NVL72 (13,5 TB HBM3e in totale)", None),  # a system's total: not one GPU's
])
def test_a_gpus_memory_stated_with_hbm_is_the_documents_not_the_catalogs(
        text: str, memory: float | None) -> None:
    from evaltool.normalize.gpu_memory import hbm_gb

    assert hbm_gb(text) == memory


def test_a_line_items_hbm_figure_is_kept_over_the_catalog(tmp_path: Path) -> None:
    rows: list[list[Any]] = [
        ["Example AI Cloud, LLC", None, None, "PRO FORMA INVOICE"], [],
        ["Description", "Qty", "Unit price (USD)", "Amount (USD)"],
        ["GB200 NVL72 rack, reserved — 72x NVIDIA Blackwell GPUs (192 GB HBM3e each), "
         "per rack-month", 2, 229950, 459900],
    ]
    offer = _one(write_workbook(tmp_path / "pf.xlsx", {"Pro Forma": rows}))
    assert offer.fields.gpu_memory_gb == 192
    assert offer.fields.vendor == "Example AI Cloud, LLC"


@pytest.mark.parametrize(("lang", "rows"), [
    ("en", [["Section", "Line", "Qty", "Unit", "Rate (USD)", "Amount (USD)", "Notes"],
            ["A. Hardware (one-off)", "8x NVIDIA H200 141GB SXM5 server", 4, "server", 300000,
             1200000, "ownership transfers on delivery"],
            [None, "Subtotal one-off", None, None, None, 1200000, "ex VAT"],
            ["B. Colocation (recurring)", "Power-inclusive colocation", 42, "kW", 200, 8400,
             None],
            [None, "Managed service & remote hands", 1, "month", 5000, 5000, None]]),
    ("da", [["Afsnit", "Beskrivelse", "Antal", "Enhed", "Enhedspris (USD)", "Beløb (USD)",
             "Bemærkninger"],
            ["A. Hardware (engang)", "8x NVIDIA H200 141GB SXM5 server", 4, "server", 300000,
             1200000, "ejerskab ved levering"],
            [None, "Subtotal engang", None, None, None, 1200000, "ekskl. moms"],
            ["B. Colocation (løbende)", "Colocation inkl. strøm", 42, "kW", 200, 8400, None],
            [None, "Managed service og remote hands", 1, "måned", 5000, 5000, None]]),
])
def test_a_subtotal_with_a_remark_beside_it_does_not_end_the_line_items(
        tmp_path: Path, lang: str, rows: list[list[Any]]) -> None:
    sheets = {"Cover": [["Example Colo Ltd"], ["Term: 36 months"]], "Lines": rows}
    offer = _one(write_workbook(tmp_path / f"colo_{lang}.xlsx", sheets))
    assert offer.fields.colocation_usd_per_kw_month == 200
    assert offer.fields.opex_usd_per_month == 5000


def test_a_monthly_service_of_a_few_dollars_is_warned(tmp_path: Path) -> None:
    rows: list[list[Any]] = [["Vendor", "Example Cloud"], *_PRICED,
                             ["Managed service per month", "USD 1"]]
    offer = _one(write_workbook(tmp_path / "q.xlsx", {"Q": rows}))
    assert any(w["code"] in ("implausible-value", "implausible-value-dropped")
               and w.get("field") == "opex_usd_per_month" for w in offer.warnings)


@pytest.mark.parametrize(("header", "storage", "setup"), [
    (["No.", "品名・仕様", "数量", "単位", "単価（USD）", "金額（USD）"],
     ["高速共有ストレージ Lustre 200TB（月額）", 6, "月", 8000],
     ["初期設定費用", 1, "式", 3000]),
    (["Item", "Descrição", "Qtd.", "Unidade", "Valor unitário (USD)", "Valor total (USD)"],
     ["Armazenamento compartilhado Lustre, 200 TB", 6, "mês", 8000],
     ["Taxa de instalação", 1, "un", 3000]),
    (["Pos.", "Beschreibung", "Menge", "Einheit", "Einzelpreis (USD)", "Gesamt (USD)"],
     ["Paralleles Dateisystem Lustre, 200 TB", 6, "Monat", 8000],
     ["Einrichtung (einmalig)", 1, "pauschal", 3000]),
])
def test_a_monthly_storage_line_states_its_capacity_and_a_setup_line_is_upfront(
        tmp_path: Path, header: list[str], storage: list[Any], setup: list[Any]) -> None:
    rows: list[list[Any]] = [
        ["Vendor", "Example Cloud"], ["GPU", "NVIDIA H100 SXM5 80GB"], ["Number of GPUs", 32],
        ["Price per GPU-hour", "USD 2.00"], [], header, [1, *storage, None],
        [2, *setup, None]]
    offer = _one(write_workbook(tmp_path / "q.xlsx", {"Q": rows}))
    assert offer.fields.storage_capacity_tb == 200
    assert offer.fields.storage_usd_per_tb_month == pytest.approx(40.0)  # a month, not six
    assert offer.fields.upfront_usd == 3000


def test_a_single_ideograph_is_a_unit_of_time() -> None:
    from evaltool.grammar.basis import once_re, time_of

    assert time_of("月") == "month"
    assert time_of("m") is None  # a Latin letter alone is as often a unit as a time
    assert once_re().search("初期設定費用（プランB特典により無償）")


@pytest.mark.parametrize(("label", "value", "months"), [
    ("Bindingstid", "12 måneder", 12),
    ("契約期間", "6ヶ月", 6),
    ("계약 기간", "12개월", 12),
    ("Sözleşme süresi", "24 ay", 24),
    ("Prazo contratual", "2 anos", 24),
])
def test_a_term_in_the_words_of_the_basis_vocabulary(
        tmp_path: Path, label: str, value: str, months: int) -> None:
    rows: list[list[Any]] = [["Vendor", "Example Cloud"], *_PRICED, [label, value]]
    offer = _one(write_workbook(tmp_path / "q.xlsx", {"Q": rows}))
    assert offer.fields.term_months == months


@pytest.mark.parametrize(("line", "orchestrator", "root"), [
    ("- Acesso root completo; sem orquestrador pré-instalado", "none", True),
    ("• Voller Root-Zugriff, ohne vorinstallierte Orchestrierung", "none", True),
    ("- Accès root complet, sans orchestrateur préinstallé", "none", True),
    ("• Acceso root completo, sin orquestador: el cliente instala el suyo", "none", True),
    ("- Acesso root completo; nenhum orquestrador incluído", "none", True),
])
def test_a_statement_alone_in_its_row_is_read_even_without_figures(
        tmp_path: Path, line: str, orchestrator: str, root: bool) -> None:
    rows: list[list[Any]] = [["Vendor", "Example Cloud"], *_PRICED, [], [line]]
    offer = _one(write_workbook(tmp_path / "q.xlsx", {"Q": rows}))
    assert offer.fields.orchestrator == orchestrator
    assert offer.fields.root_access is root


@pytest.mark.parametrize("sentence", [
    "Lagring og utgående trafikk er inkludert i prisen.",
    "Outbound data transfer is included in the price.",
    "Der ausgehende Datenverkehr ist im Preis enthalten.",
])
def test_egress_included_in_the_price_is_free(tmp_path: Path, sentence: str) -> None:
    rows: list[list[Any]] = [["Vendor", "Example Cloud"], *_PRICED, [], [sentence]]
    offer = _one(write_workbook(tmp_path / "q.xlsx", {"Q": rows}))
    assert offer.fields.egress_usd_per_gb == 0


@pytest.mark.parametrize(("sentence", "uptime"), [
    ("Availability SLA 99.9%; service credits capped at 25% of the monthly fee.", 99.9),
    ("• Suporte 24x7 com SLA de disponibilidade de 99,9%.", 99.9),
    ("Verfügbarkeit von 99,5 % pro Monat, Gutschrift bis zu 10 %.", 99.5),
])
def test_the_uptime_a_sentence_promises(tmp_path: Path, sentence: str, uptime: float) -> None:
    rows: list[list[Any]] = [["Vendor", "Example Cloud"], *_PRICED, [], [sentence]]
    offer = _one(write_workbook(tmp_path / "q.xlsx", {"Q": rows}))
    assert offer.fields.sla_uptime_pct == uptime


@pytest.mark.parametrize(("text", "region"), [
    ("• Prazo contratual: 24 meses. Data center: São Paulo (Tamboré).", "São Paulo"),
    ("Wir betreiben die Server in unserem Rechenzentrum in Frankfurt.", "Frankfurt"),
    ("16 servere i vores datacenter i Aarhus.", "Aarhus"),
    ("Private AI Cloud — GB200 NVL72 | Columbus, Ohio campus | Proposal 61", "Columbus, Ohio"),
    ("v6e-256 slice, 730 hours, europe-north1 - chip-hours", "europe-north1"),
    ("Rechenzentrum Nordlicht GmbH · Angebot Nr. 2025-118", None),  # a company, no place
    ("Hall 3 (4 racks x 42 kW) on a 36-month agreement", None),
])
def test_a_region_from_the_data_centres_place_or_a_cloud_region_id(
        text: str, region: str | None) -> None:
    from evaltool.grammar.places import region_in_text

    found = region_in_text(text)
    assert (found[0] if found else None) == region


def test_a_region_read_from_a_sentence_is_warned(tmp_path: Path) -> None:
    rows: list[list[Any]] = [["Vendor", "Example Cloud"], *_PRICED, [],
                             ["Capacity is hosted in our Lisboa data centre, hall 2."]]
    offer = _one(write_workbook(tmp_path / "q.xlsx", {"Q": rows}))
    assert offer.fields.region == "Lisboa"
    assert any(w["code"] == "region-from-text" for w in offer.warnings)


@pytest.mark.parametrize(("raw", "iso"), [
    (1798675200, "2026-12-31"),        # Unix seconds, as a JSON export writes expires_at
    (1798675200000, "2026-12-31"),     # and milliseconds
    (46022, "2025-12-31"),             # an Excel serial stays an Excel serial
])
def test_a_date_written_as_a_number(raw: int, iso: str) -> None:
    from evaltool.normalize.values import parse_date

    assert str(parse_date(raw).value) == iso


@pytest.mark.parametrize(("value", "months"), [("12M", 12), ("6m", 6), ("3Y", 36)])
def test_an_exports_term_shorthand_is_months_never_millions(
        tmp_path: Path, value: str, months: int) -> None:
    path = tmp_path / "export.csv"
    path.write_text("quote_id,vendor,gpu_model,gpus,price_per_gpu_hr_usd,commit_term\n"
                    f"Q-1,Example Cloud,H100 SXM,8,2.00,{value}\n")
    assert _one(path).fields.term_months == months


@pytest.mark.parametrize("line", [
    "Cliente: Buyer Labs S.A.    Fecha: 18/11/2030    Validez: hasta el 15 de enero de 2031",
    "Kunde: Buyer Labs GmbH    Datum: 18.11.2030    Gültig bis: 15.01.2031",
])
def test_pairs_set_apart_by_spaces_in_one_cell(tmp_path: Path, line: str) -> None:
    rows: list[list[Any]] = [["Vendor", "Example Cloud"], [line], *_PRICED]
    offer = _one(write_workbook(tmp_path / "q.xlsx", {"Q": rows}))
    assert str(offer.fields.valid_until) == "2031-01-15"


def test_an_export_column_no_label_names_is_read_by_its_shape(tmp_path: Path) -> None:
    path = tmp_path / "listings.csv"
    path.write_text("listing_id,provider,gpu,qty_gpu,usd_gpu_hr,commit,shared_storage\n"
                    "L-1,Example Hub,H200 141GB SXM,64,2.89,12 months,WEKA 300TB\n")
    offer = _one(path)
    assert offer.fields.term_months == 12
    assert offer.fields.storage_type == "weka"
    assert offer.fields.storage_capacity_tb == 300


def test_an_amount_under_a_commitment_label_is_no_term(tmp_path: Path) -> None:
    rows: list[list[Any]] = [["Vendor", "Example Cloud"], *_PRICED,
                             ["Monthly commitment", 925056], ["Term", "12 months"]]
    offer = _one(write_workbook(tmp_path / "q.xlsx", {"Q": rows}))
    assert offer.fields.term_months == 12


@pytest.mark.parametrize(("unit", "desc"), [
    ("lot", "VAST shared storage 150 TB, 12 months"),
    ("Stk.", "Paralleles Dateisystem (WEKA), 150 TB nutzbar"),
    ("kpl", "Sdílené úložiště Lustre 150 TB"),
])
def test_a_storage_lines_capacity_whatever_its_basis(
        tmp_path: Path, unit: str, desc: str) -> None:
    rows: list[list[Any]] = [
        ["Vendor", "Example Cloud"], *_PRICED, [],
        ["Item", "Description", "Qty", "Unit", "Unit price (USD)", "Total (USD)"],
        [1, desc, 1, unit, 0, 0]]
    offer = _one(write_workbook(tmp_path / "q.xlsx", {"Q": rows}))
    assert offer.fields.storage_capacity_tb == 150


def test_cores_written_as_c_before_total() -> None:
    from evaltool.normalize.phrases import system_facts

    facts = system_facts("8x H200 SXM 141GB, 2x Xeon 8568Y+ 96C total, 2TB DDR5")
    assert facts["cpu_cores_per_node"] == 96


@pytest.mark.parametrize("sentence", [
    "Availability credits are 10% of the charges, and 30% below 95.0%.",
    "Bei Verfügbarkeit unter 99 % eine Gutschrift von 25 %.",
])
def test_a_credit_tiers_threshold_is_not_the_promised_uptime(
        tmp_path: Path, sentence: str) -> None:
    rows: list[list[Any]] = [["Vendor", "Example Cloud"], *_PRICED, [], [sentence]]
    offer = _one(write_workbook(tmp_path / "q.xlsx", {"Q": rows}))
    assert offer.fields.sla_uptime_pct is None


@pytest.mark.parametrize(("label", "value"), [
    ("ネットワーク占有", "お客様専有（他テナントとの共有なし）"),
    ("Nettverk", "8 × 400 Gb/s InfiniBand, dedikert (ikke delt med andre kunder)"),
])
def test_a_dedicated_network_in_more_languages(tmp_path: Path, label: str, value: str) -> None:
    rows: list[list[Any]] = [["Vendor", "Example Cloud"], *_PRICED, [label, value]]
    offer = _one(write_workbook(tmp_path / "q.xlsx", {"Q": rows}))
    assert offer.fields.network_dedicated is True


def test_a_spec_table_row_whose_parameter_is_unknown_is_read_as_a_sentence(
        tmp_path: Path) -> None:
    """'Parameter | Værdi | Enhed | Bemærkning': a row whose parameter no label names is
    still read as a sentence about its value, unit and remark."""
    rows: list[list[Any]] = [
        ["Vendor", "Example Beregning ApS"], [],
        ["Parameter", "Værdi", "Enhed", "Bemærkning"],
        ["Accelerator", "AMD Instinct MI325X", None, "256 GB HBM3E pr. GPU"],
        ["Antal noder", 16, "stk.", "8 GPU pr. node"],
        ["Netværk", "8 x 400", "Gbit/s pr. node", "RoCE v2, dedikeret (ikke delt)"],
        ["Lager", 300, "TB", "WEKA, læs 180 GB/s, skriv 90 GB/s"],
        ["Pris", "2,50", "USD pr. GPU pr. time", None],
        ["Bindingsperiode", 12, "måneder", None],
    ]
    f = _one(write_workbook(tmp_path / "tilbud.xlsx", {"Tilbud": rows})).fields
    assert f.inter_node_gbit_s_per_node == 3200
    assert f.storage_read_gbyte_s == 180
    assert f.storage_capacity_tb == 300  # the value and its remark are one sentence
    assert f.term_months == 12


def test_letters_nfkd_does_not_split_are_folded_as_the_vocabulary_writes_them() -> None:
    from evaltool.normalize.phrases import fold

    assert fold("Netværk højst wyłącznie") == "Netvaerk hojst wylacznie"


def test_a_sentence_with_an_uptime_and_a_response_time_gives_both(tmp_path: Path) -> None:
    rows: list[list[Any]] = [
        ["Vendor", "Example Rekenkracht B.V."], *_PRICED, [],
        ["Wij garanderen een beschikbaarheid van 99,5 % per maand en een reactietijd van "
         "2 uur bij storingen met prioriteit 1."],
        ["Wij streven naar oplevering op 1 mei 2030."]]
    f = _one(write_workbook(tmp_path / "offerte.xlsx", {"Offerte": rows})).fields
    assert f.sla_uptime_pct == 99.5
    assert f.support_response_hours == 2
    assert str(f.delivery_date) == "2030-05-01"


@pytest.mark.parametrize("label", ["Periodo di allocazione", "Zeitraum der Zuteilung"])
def test_a_period_under_an_unknown_label_gives_the_delivery_and_the_term(
        tmp_path: Path, label: str) -> None:
    rows: list[list[Any]] = [["Vendor", "Example Centre"], *_PRICED,
                             [label, "01/04/2030 – 31/03/2031 (12 mesi)"]]
    f = _one(write_workbook(tmp_path / "q.xlsx", {"Q": rows})).fields
    assert str(f.delivery_date) == "2030-04-01"
    assert f.term_months == 12


def test_the_response_time_is_the_hours_after_the_response_word(tmp_path: Path) -> None:
    rows: list[list[Any]] = [["Vendor", "Example Cloud"], *_PRICED,
                             ["장애 대응",
                              "하드웨어 교체 4시간 이내, 기술지원 응답 1시간 이내 (24x7)"]]
    f = _one(write_workbook(tmp_path / "q.xlsx", {"Q": rows})).fields
    assert f.support_response_hours == 1


def test_a_swap_time_and_a_response_time_in_one_sentence(tmp_path: Path) -> None:
    rows: list[list[Any]] = [["Vendor", "Example Cloud"], *_PRICED, [],
                             ["Failed nodes are replaced within 4 hours; P1 response within "
                              "30 minutes."],
                             ["장애 대응: 하드웨어 교체 8시간 이내, 기술지원 응답 1시간 이내"]]
    f = _one(write_workbook(tmp_path / "q.xlsx", {"Q": rows})).fields
    assert f.hw_replacement_hours == 4
    assert f.support_response_hours == 0.5
