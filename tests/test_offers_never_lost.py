"""No offer is ever lost: every offer a file states is read or listed as not evaluated with
its reason.  Each class is specified with our own small examples in layouts and languages
that no blind set uses."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from evaltool.normalize.core import normalize_files


def _workbook(path: Path, rows: list[list[Any]], margin: int = 0) -> Path:
    from openpyxl import Workbook

    wb = Workbook()
    ws = wb.active
    ws.title = "Quote"
    for row in rows:
        ws.append([None] * margin + row)
    wb.save(path)
    return path


@pytest.mark.parametrize("margin", [1, 2])
def test_options_side_by_side_on_a_form_with_an_empty_margin_column(tmp_path: Path,
                                                                     margin: int) -> None:
    """A printed form leaves column A (or A and B) empty: the labels stand in the first
    used column, and each named option column is its own offer."""
    path = _workbook(tmp_path / "tarjous.xlsx", [
        ["Nordkapp Laskenta Oy"],
        [None, "Vaihtoehto 1 — 12 kk", "Vaihtoehto 2 — 24 kk"],
        ["GPU", "NVIDIA H100 SXM5 80GB", "NVIDIA H100 SXM5 80GB"],
        ["Number of nodes", 4, 4],
        ["GPUs per node", 8, 8],
        ["Price per GPU-hour", "2.40 USD", "2.10 USD"],
    ], margin=margin)
    result = normalize_files([path], {})
    assert not result.not_evaluated
    prices = sorted(o.fields.price_usd_per_gpu_hour or 0 for o in result.offers)
    assert prices == [pytest.approx(2.10), pytest.approx(2.40)]
    assert all(o.fields.gpu_count == 32 for o in result.offers)


@pytest.mark.parametrize(("header", "legend", "gpus", "price"), [
    ("gpus_total,gpu_type,price_hr", "# price_hr = USD per hour for the whole server",
     4, 9.0 / 4),
    ("anzahl_gpu;gpu_typ;preis_std", "# preis_std: EUR pro Stunde für den ganzen Server",
     8, 16.0 / 8),
])
def test_a_csv_legend_defines_a_price_column_and_a_count_column_by_its_shape(
        tmp_path: Path, header: str, legend: str, gpus: int, price: float) -> None:
    """A marketplace export whose price column has no field name: its own comment line
    says what the column holds ('USD per hour for the whole server'), and a count column
    ('gpus_total', 'anzahl_gpu') is read by its shape."""
    sep = "," if "," in header else ";"
    value = "9.00" if sep == "," else "16,00"
    rows = [header, sep.join([str(gpus), "H100 SXM", value]),
            sep.join([str(gpus), "A100 SXM4 80GB", value]), legend]
    path = tmp_path / "export.csv"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    result = normalize_files([path], {"EUR": 1.0})
    assert not result.not_evaluated, result.not_evaluated
    assert len(result.offers) == 2
    for offer in result.offers:
        assert offer.fields.gpu_count == gpus
        assert offer.fields.price_usd_per_gpu_hour == pytest.approx(price)
        # the price is for the whole server: each row is one server of all its GPUs
        assert (offer.fields.node_count, offer.fields.gpus_per_node) == (1, gpus)


@pytest.mark.parametrize(("text", "facts"), [
    ("요청 수량: H100 32장 (4노드)", {"gpu_count": 32, "node_count": 4}),
    ("租用 32张 H100", {"gpu_count": 32}),
    ("H800 16卡", {"gpu_count": 16}),
    ("Plan B：8ノード", {"node_count": 8}),
])
def test_a_cjk_counter_beside_an_accelerator_or_a_node_is_a_count(
        text: str, facts: dict[str, int]) -> None:
    """Korean, Chinese and Japanese count with a counter word after the number ('32장',
    '32张', '16卡', '8ノード'): the counter is the noun of the count."""
    from evaltool.normalize.shapes import count_facts

    assert count_facts(text) == facts


@pytest.mark.parametrize("text", [
    "> Hello, we need about 40 GPUs each for training and inference",
    "Necesitamos 40 GPUs para inferencia",
])
def test_a_quoted_request_or_a_purpose_is_no_count_of_one_node(text: str) -> None:
    """A quoted line of the buyer's earlier message states nothing of the offer, and
    'para' ('for') never scopes a count to one node."""
    from evaltool.normalize.shapes import count_facts

    assert "gpus_per_node" not in count_facts(text)


def test_nodes_and_gpus_per_node_stated_in_one_sentence_of_a_letter(tmp_path: Path) -> None:
    """An e-mail pasted into a sheet: '6 instancias dedicadas, cada una con 8× H100' gives
    6 nodes of 8 GPUs, and the price per instance and month is divided by them."""
    path = _workbook(tmp_path / "propuesta.xlsx", [
        ["De: ventas@cumbre-gpu.example"],
        ["Asunto: Propuesta H100"],
        ["- 6 instancias dedicadas, cada una con 8× NVIDIA H100 SXM5 80GB (48 GPUs en total)"],
        ["> Buenos días, necesitamos unas 48 GPUs para entrenamiento."],
        ["Precio: 14.600,00 € por instancia/mes, contrato mínimo de 6 meses."],
    ])
    result = normalize_files([path], {"EUR": 1.0})
    assert not result.not_evaluated, result.not_evaluated
    (offer,) = result.offers
    assert (offer.fields.gpu_count, offer.fields.node_count) == (48, 6)
    assert offer.fields.gpus_per_node == 8
    assert offer.fields.price_usd_per_gpu_hour == pytest.approx(14600 / 8 / 730, rel=1e-3)


@pytest.mark.parametrize("text", [
    "Each rack: 18 compute trays with 4 GPUs",
    "Pro Rack 18 Knoten mit je 4 GPUs",
])
def test_the_nodes_of_one_rack_are_not_the_offers_node_count(text: str) -> None:
    """'Each rack: 18 compute trays' counts the nodes of one rack, not of the offer: left
    unread rather than read wrong (4 racks hold 72 trays)."""
    from evaltool.normalize.shapes import count_facts

    assert "node_count" not in count_facts(text)


@pytest.mark.parametrize(("label", "value"), [
    ("Serveurs GPU (8 × NVIDIA H100 SXM5 80GB par serveur)", "4 pcs"),
    ("GPU-Server (je 8 × NVIDIA H100 SXM5 80GB pro Server)", "4 Stk."),
    ("Servidores GPU (8 × NVIDIA H100 SXM5 80GB por servidor)", 4),
])
def test_a_quantity_under_a_label_that_names_the_accelerator(tmp_path: Path, label: str,
                                                             value: Any) -> None:
    """'Servers (8 × H100 per server) | 4 pcs': the label names the accelerator and what
    is counted, the value is how many; the offer is read, with a warning."""
    path = _workbook(tmp_path / "quote.xlsx", [
        ["Item", "Value", "Note"],
        [label, value, "purchase"],
        ["Total price", "1,200,000 USD", "one-off, on delivery"],
    ])
    result = normalize_files([path], {})
    assert not result.not_evaluated, result.not_evaluated
    (offer,) = result.offers
    assert offer.fields.accelerator.startswith("H100")
    assert (offer.fields.node_count, offer.fields.gpus_per_node, offer.fields.gpu_count) == (
        4, 8, 32)
    assert any(w["code"] == "accelerator-count-label" for w in offer.warnings)


@pytest.mark.parametrize(("unit", "basis"), [
    ("台・月", "node_month"), ("台/月", "node_month"), ("ノード・時間", "node_hour"),
    ("GPU・時間", "gpu_hour"), ("서버/월", "node_month"), ("节点/小时", "node_hour"),
])
def test_a_billing_unit_of_cjk_words_joined_by_a_middle_dot_or_slash(unit: str,
                                                                      basis: str) -> None:
    """One CJK ideograph is a word ('台' a machine, '月' a month), and the middle dot '・'
    joins a resource and a time as a hyphen does."""
    from evaltool.read.text import billing_unit

    assert billing_unit(unit) == basis


@pytest.mark.parametrize("label", ["No.", "Nr.", "No"])
def test_a_numbered_column_is_no_node_count(label: str) -> None:
    """'No.' over 1, 2, 3 numbers the lines ('nó', Portuguese for node, folds to 'no')."""
    from evaltool.read.vocabulary import load_vocabulary

    assert load_vocabulary().match(label) is None


@pytest.mark.parametrize(("first", "second"), [
    ("【プランA】4ノード", "【プランB】8ノード"),
    ("[Option 1] 4 nodes", "[Option 2] 8 nodes"),
    ("■ Lot 1 — training", "■ Lot 2 — inference"),
])
def test_option_headings_may_open_with_a_bracket_or_a_bullet(first: str, second: str) -> None:
    from evaltool.read.blocks import enumerates_options
    from evaltool.read.vocabulary import load_vocabulary

    assert enumerates_options([first, second], load_vocabulary())


@pytest.mark.parametrize(("text", "per"), [
    ("GPUサーバ単価は1台（8GPU）あたりの月額です。", 8),
    ("서버 단가는 1대(4 GPU) 기준입니다.", 4),
    ("an instance (8 GPUs)", 8),
    ("NVIDIA H100 SXM5 80GB HBM3 × 8", 8),
    ("AMD Instinct MI300X 192GB x 4 (Infinity Fabric)", 4),
])
def test_the_gpus_of_one_node_said_in_brackets_or_after_the_accelerator(text: str,
                                                                         per: int) -> None:
    from evaltool.normalize.shapes import count_facts

    assert count_facts(text) == {"gpus_per_node": per}


def test_a_quantity_in_node_months_yields_to_the_node_count_the_quote_states(
        tmp_path: Path) -> None:
    """'24 | node-month | 10,000' beside '4 nodes × 6 months': the quantity counts
    node-months, so the quote's 4 nodes is the node count (never 24 nodes), and the GPUs of
    a node come from the spec ('H100 SXM5 80GB × 8')."""
    path = _workbook(tmp_path / "quote.xlsx", [
        ["Cumulus Compute KK — quotation Q-1142"],
        ["Dedicated H100 cluster: 4 nodes × 6 months"],
        ["GPU", "NVIDIA H100 SXM5 80GB × 8"],
        [],
        ["No.", "Description", "Qty", "Unit", "Unit price (USD)", "Amount (USD)"],
        [1, "GPU server monthly fee", 24, "node・month", 10000, 240000],
        [2, "Setup", 1, "lot", 5000, 5000],
    ])
    result = normalize_files([path], {})
    assert not result.not_evaluated, result.not_evaluated
    (offer,) = result.offers
    assert (offer.fields.node_count, offer.fields.gpu_count) == (4, 32)
    assert offer.fields.price_usd_per_gpu_hour == pytest.approx(10000 / 8 / 730, rel=1e-3)


@pytest.mark.parametrize("text", ["4 nodes × 6 months", "4 Knoten x 12 Monate",
                                  "2 servidores x 3 meses"])
def test_nodes_times_a_term_is_no_count_of_gpus(text: str) -> None:
    from evaltool.normalize.shapes import count_facts

    assert "gpus_per_node" not in count_facts(text)


@pytest.mark.parametrize(("label", "norm"), [
    ("GPU당 시간 단가", "gpu 당 시간 단가"), ("root 권한", "root 권한"),
    ("品名・仕様", "品名 仕様"),
])
def test_hangul_and_kana_labels_are_words(label: str, norm: str) -> None:
    """A Korean label keeps its Hangul words (never read as its Latin fragment 'GPU' alone),
    and the middle dot separates two Japanese words."""
    from evaltool.read.vocabulary import normalise_label

    assert normalise_label(label) == norm


@pytest.mark.parametrize(("label", "basis"), [
    ("Monthly fee per rack", "rack_month"), ("Preis pro Monat je GPU", "gpu_month"),
    ("Tarif mensuel par serveur", "node_month"), ("Support per month", "month"),
])
def test_a_time_said_alone_and_a_resource_scoped_by_per_make_one_basis(label: str,
                                                                        basis: str) -> None:
    """'Monthly fee per rack' is a price per rack-month (divided by the GPUs of a rack),
    never a monthly amount for the whole offer."""
    from evaltool.read.text import billing_unit

    assert billing_unit(label) == basis


@pytest.mark.parametrize(("text", "facts"), [
    ("AMD Instinct MI300X 8基", {"gpu_count": 8}),
    ("노드 8대", {"node_count": 8}),
    ("8 uds. de servidores GPU", {"node_count": 8}),
    ("4 pcs of servers", {"node_count": 4}),
    ("2 szt. serwerów", {"node_count": 2}),
])
def test_a_counter_or_a_piece_word_between_a_number_and_what_it_counts(
        text: str, facts: dict[str, int]) -> None:
    from evaltool.normalize.shapes import count_facts

    assert count_facts(text) == facts


@pytest.mark.parametrize(("label", "norm"), [
    ("Περιγραφή", "περιγραφη"), ("Цена за GPU-час", "цена за gpu час"),
    ("GPU当たり", "gpu 当たり"), ("Fiyatı", "fiyati"),
])
def test_letters_of_every_script_are_words_of_a_label(label: str, norm: str) -> None:
    from evaltool.read.vocabulary import normalise_label

    assert normalise_label(label) == norm
