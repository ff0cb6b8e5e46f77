"""Specification: whole offers whose required fields (accelerator, GPU count, price) are each
stated in a shape the reader knows but never together - a procurement export with more
administrative columns than field columns, a price grid priced per instance-month, options
priced per year, an e-mail with one price sentence per option. Each example is our own, in
several languages; none is a blind file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from workbooks import write_sheet

from evaltool.normalize.core import normalize_files
from evaltool.normalize.shapes import count_facts
from evaltool.read.vocabulary import load_vocabulary


def _all(path: Path, fx: dict[str, float] | None = None) -> list[Any]:
    result = normalize_files([path], fx or {})
    assert not result.not_evaluated, result.not_evaluated
    return sorted(result.offers, key=lambda o: o.id)


@pytest.mark.parametrize("label, slot", [
    ("Nº GPU", "gpu_count"), ("N° de nodos", "node_count"), ("№ GPUs", "gpu_count"),
    ("No. of GPUs", "gpu_count"),
])
def test_the_numero_sign_counts_the_resource_after_it(label: str, slot: str) -> None:
    assert load_vocabulary().match(label) == slot


def test_a_serial_number_after_the_resource_is_no_count() -> None:
    assert load_vocabulary().match("GPU No.") != "gpu_count"


def test_a_tender_export_with_administrative_columns_is_one_offer_per_row(
        tmp_path: Path) -> None:
    """German tender export: ';' columns, decimal commas, a byte-order mark, one lot per row
    and a different bidder per lot; file number, tax id and status are no offer fields."""
    path = tmp_path / "vergabe.csv"
    path.write_text(
        "\ufeffVergabenummer;Los;Bieter;USt-IdNr;Leistungsbeschreibung;Beschleuniger;"
        "Anzahl GPU;Preis (EUR/GPU-Stunde, netto);Status\n"
        "V-2026-11;1;Beispiel Rechenzentrum GmbH;DE000000000;Training;NVIDIA H100 SXM5 80GB;"
        "64;2,35;zugelassen\n"
        "V-2026-11;2;Muster Cloud AG;DE111111111;Inferenz;NVIDIA L40S;16;0,95;zugelassen\n",
        encoding="utf-8")
    first, second = _all(path, fx={"EUR": 1.1})
    assert (first.fields.vendor, second.fields.vendor) == (
        "Beispiel Rechenzentrum GmbH", "Muster Cloud AG")
    assert (first.fields.gpu_count, second.fields.gpu_count) == (64, 16)
    assert first.fields.price_usd_per_gpu_hour == pytest.approx(2.35 * 1.1)
    assert second.fields.price_usd_per_gpu_hour == pytest.approx(0.95 * 1.1)


def test_a_comma_csv_with_one_comma_in_a_header_keeps_its_semicolons(tmp_path: Path) -> None:
    """French export: the only commas are one in a header and one decimal comma per row, as
    steady as the semicolons; the delimiter that gives the wider rows wins."""
    path = tmp_path / "marche.csv"
    path.write_text(
        "Lot;Soumissionnaire;Accélérateur;Nº GPU;Prix unitaire (EUR/GPU-heure, HT)\n"
        "1;Exemple Calcul SAS;NVIDIA A100 SXM4 80GB;32;1,12\n", encoding="utf-8")
    (offer,) = _all(path, fx={"EUR": 1.0})
    assert offer.fields.vendor == "Exemple Calcul SAS"
    assert offer.fields.gpu_count == 32
    assert offer.fields.price_usd_per_gpu_hour == pytest.approx(1.12)


def test_options_written_as_paragraphs_of_an_email_are_one_offer_each(tmp_path: Path) -> None:
    """A German broker's e-mail pasted into column A: each option a heading line that
    enumerates it and a line with its price in a sentence; greeting, validity and signature
    are shared."""
    path = write_sheet(tmp_path / "mail.xlsx", [
        ["Von: Anna Beispiel <anna@beispiel-compute.example>"],
        ["Betreff: Angebot GPU-Kapazität"],
        [],
        ["Hallo Herr Muster, wie besprochen zwei Möglichkeiten:"],
        [],
        ["Variante 1 - H100 SXM 80GB, 4 Knoten mit je 8 GPUs (Frankfurt)"],
        ["   2,10 € pro GPU-Stunde, Laufzeit 12 Monate"],
        [],
        ["Variante 2 - L40S, ein einzelner Server mit 8 GPUs (Berlin)"],
        ["   0,95 € pro GPU-Stunde, monatlich kündbar"],
        [],
        ["Viele Grüße, Anna"],
        ["Beispiel Compute GmbH | Amtsgericht Frankfurt HRB 00000"],
    ])
    first, second = _all(path, fx={"EUR": 1.1})
    assert (first.fields.accelerator, second.fields.accelerator) == ("H100-SXM", "L40S")
    assert (first.fields.gpu_count, second.fields.gpu_count) == (32, 8)
    assert first.fields.price_usd_per_gpu_hour == pytest.approx(2.10 * 1.1)
    assert second.fields.price_usd_per_gpu_hour == pytest.approx(0.95 * 1.1)
    assert first.fields.vendor == second.fields.vendor == "Beispiel Compute GmbH"
    assert any(w.get("code") == "price-from-text" for w in first.warnings)


def test_a_numbered_list_of_terms_is_no_set_of_options(tmp_path: Path) -> None:
    """'Option 1 …' lines that price nothing are notes, not offers."""
    path = write_sheet(tmp_path / "letter.xlsx", [
        ["Example Cloud Ltd - proposal"],
        ["Accelerator: NVIDIA H100 SXM 80GB"], ["Total GPUs: 16"],
        ["Price: USD 2.40 per GPU-hour"],
        [],
        ["Option 1 - extend the term by a further 12 months"],
        [],
        ["Option 2 - add a second region later"],
    ])
    (offer,) = _all(path)
    assert offer.fields.gpu_count == 16


def test_a_price_per_gpu_hour_beside_a_link_speed_gives_the_speed_no_gpu_basis(
        tmp_path: Path) -> None:
    """'£1.60 per GPU-hour, 100GbE only': the network figure states no basis of its own."""
    path = write_sheet(tmp_path / "note.xlsx", [
        ["Example Compute Ltd"], ["Accelerator", "NVIDIA H100 PCIe 80GB"], ["GPUs", 8],
        ["Terms", "£1.60 per GPU-hour, 6-month term, no InfiniBand (100GbE only)"],
    ])
    (offer,) = _all(path, fx={"GBP": 1.25})
    assert offer.fields.inter_node_gbit_s_per_gpu != 100


def test_reference_and_list_prices_in_a_sentence_are_not_the_price(tmp_path: Path) -> None:
    path = write_sheet(tmp_path / "ref.xlsx", [
        ["Example Cloud Inc"], ["Accelerator", "NVIDIA H100 SXM 80GB"], ["GPUs", 64],
        ["Public on-demand rate USD 9.80 per GPU-hour, for reference only."],
    ])
    result = normalize_files([path], {})
    assert not result.offers


@pytest.mark.parametrize("rows, fx", [
    ([["Example Cloud Platform — Private Offer Summary"],
      ["Prepared by your account team for Buyer Labs, Inc."],
      [None, "Option 1", "Option 2", "Comment"],
      ["Instance type", "ex.h100.48xlarge", "ex.h100.48xlarge", "8 x NVIDIA H100 SXM per instance"],
      ["Instances committed", 4, 4],
      ["Instance-hour rate (USD)", 24.0, 20.0]], {}),
    ([["Exemple Cloud — offre privée"],
      [None, "Option A", "Option B", "Remarque"],
      ["Type d'instance", "ex.h100.grande", "ex.h100.grande", "8 x NVIDIA H100 SXM par instance"],
      ["Nombre d'instances", 4, 4],
      ["Tarif par instance-heure (EUR)", "24,00", "20,00"]], {"EUR": 1.0}),
])
def test_options_side_by_side_take_gpus_per_instance_from_the_comment_column(
        tmp_path: Path, rows: list[list[Any]], fx: dict[str, float]) -> None:
    """GPU count = instances x GPUs per instance, the latter said only in a comment beside
    the instance type; the price per instance-hour is divided by it."""
    first, second = _all(write_sheet(tmp_path / "private.xlsx", rows), fx=fx)
    assert first.fields.gpu_count == second.fields.gpu_count == 32
    assert first.fields.price_usd_per_gpu_hour == pytest.approx(3.0)
    assert second.fields.price_usd_per_gpu_hour == pytest.approx(2.5)
    assert first.fields.vendor != "Buyer Labs, Inc."  # 'for ...': the customer


@pytest.mark.parametrize("basis, groups, terms, qty, per_gpu, fx", [
    ("EUR pro Server und Monat (netto)", ["Frankfurt (FRA1)", "Berlin (BER2)"],
     ["Monatlich", "12 Monate"], "Anzahl", "Richtwert pro GPU-Stunde", {"EUR": 1.0}),
    ("USD per instance per month", ["Dallas", "Ashburn"],
     ["Month-to-month", "12-month reserved"], "Qty", "Indicative per GPU-hour", {}),
])
def test_a_price_grid_of_instance_months_under_region_groups(
        tmp_path: Path, basis: str, groups: list[str], terms: list[str], qty: str,
        per_gpu: str, fx: dict[str, float]) -> None:
    """Regions merged over terms, prices per instance-month, a quantity row and an
    indicative per-GPU-hour row below the prices; the instance row names its GPUs. Each
    priced cell is one offer: GPU count = quantity x GPUs per instance, price per GPU-hour
    = the instance-month price / (GPUs x 730 h)."""
    from openpyxl import Workbook

    wb = Workbook()
    ws = wb.active
    ws.append(["Example Compute GmbH"])
    ws.append([])
    ws.append([None, basis])
    ws.merge_cells("B3:E3")
    ws.append([None, groups[0], None, groups[1]])
    ws.merge_cells("B4:C4")
    ws.merge_cells("D4:E4")
    ws.append(["Instance", *terms, *terms, "Notes"])
    ws.append(["ex.h100.8 (8 x NVIDIA H100 SXM 80GB)", 14600, 11680, 15330, 12410])
    ws.append([qty, 2, 2, 2, 2])
    ws.append([per_gpu, 2.5, 2.0, 2.625, 2.125])
    path = tmp_path / "grid.xlsx"
    wb.save(path)
    offers = _all(path, fx=fx)
    assert len(offers) == 4
    names = {o.fields.offer_name for o in offers}
    assert f"{groups[0]}, {terms[0]}" in names and f"{groups[1]}, {terms[1]}" in names
    assert {o.fields.gpu_count for o in offers} == {16}
    prices = sorted(o.fields.price_usd_per_gpu_hour for o in offers)
    assert prices == pytest.approx([2.0, 2.125, 2.5, 2.625])
    if "(" in groups[0]:  # a place with its site code names the site
        assert {o.fields.region for o in offers} == set(groups)


@pytest.mark.parametrize("text, counts", [
    ("8 acceleratori Intel Gaudi 3 (128 GB HBM2e) per nodo", {"gpus_per_node": 8}),
    ("8 Beschleuniger Intel Gaudi 3 pro Knoten", {"gpus_per_node": 8}),
    ("verdeeld over 3 servers van 8 GPU's", {"node_count": 3, "gpus_per_node": 8}),
    ("4 Server von je 8 GPUs", {"node_count": 4, "gpus_per_node": 8}),
    ("a single server with 8 GPUs", {"node_count": 1, "gpus_per_node": 8}),
    ("un seul serveur avec 4 GPU", {"node_count": 1, "gpus_per_node": 4}),
])
def test_what_one_node_holds_is_never_the_offers_gpu_count(text: str,
                                                           counts: dict[str, int]) -> None:
    found = count_facts(text)
    assert {k: found.get(k) for k in counts} == counts
    assert found.get("gpu_count") in (None, counts.get("gpus_per_node", 0) * counts.get(
        "node_count", 0) or None)


@pytest.mark.parametrize("rows, want", [
    # the price on the heading's own line; "16x ... (2 nodes of 8)" is the total
    ([["Hi,"], ["Option 1: 16x H100 SXM 80GB (2 nodes of 8) at $2.10/GPU-hr"], [],
      ["Option 2: 32x H100 SXM 80GB (4 nodes of 8) at $1.95/GPU-hr"], [],
      ["Regards, Example Compute Inc."]], [(16, 2.10), (32, 1.95)]),
    # a price per node-month on the line under the heading, which looks enumerated itself
    ([["Hi,"], ["Option A - 2 nodes, 8x H200 each"], ["USD 18,250 per node per month"], [],
      ["Option B - 4 nodes, 8x H200 each"], ["USD 17,520 per node per month"], [],
      ["Example Compute Inc."]], [(16, 18_250 / 8 / 730), (32, 17_520 / 8 / 730)]),
    # Spanish, the count before the GPU word
    ([["Hola,"], ["Opción 1 - 16 GPU H100 SXM (2 nodos de 8)"], ["   2,10 € por GPU-hora"], [],
      ["Opción 2 - 32 GPU H100 SXM (4 nodos de 8)"], ["   1,95 € por GPU-hora"], [],
      ["Ejemplo Cómputo S.L."]], [(16, 2.10), (32, 1.95)]),
])
def test_option_paragraphs_in_several_shapes(tmp_path: Path, rows: list[list[Any]],
                                             want: list[tuple[int, float]]) -> None:
    offers = _all(write_sheet(tmp_path / "mail.xlsx", rows), fx={"EUR": 1.0})
    got = [(o.fields.gpu_count, o.fields.price_usd_per_gpu_hour) for o in offers]
    assert [g for g, _ in got] == [g for g, _ in want]
    assert [p for _, p in got] == pytest.approx([p for _, p in want])


def test_a_monthly_fee_for_another_service_in_a_letter_is_not_the_compute_price(
        tmp_path: Path) -> None:
    path = write_sheet(tmp_path / "letter.xlsx", [
        ["Example Compute Inc."], ["Accelerator", "NVIDIA H100 SXM 80GB"], ["GPUs", 16],
        ["Premium support is USD 900 per node per month."]])
    assert not normalize_files([path], {}).offers


@pytest.mark.parametrize("rows, fx, want", [
    # per GPU-hour in GBP, a GPU count row under the prices
    ([["Example Cloud Ltd"], ["Prices in GBP per GPU-hour"],
      ["Accelerator", "On demand", "1-year"], ["NVIDIA H100 SXM 80GB", 2.8, 2.2],
      ["GPUs", 64, 64]], {"GBP": 1.25}, [(64, 3.5), (64, 2.75)]),
    # per node-month, the priced system named down the rows, a node count row under it
    ([["Example Cloud Ltd"], ["USD per node per month"], ["System", "Monthly", "12 months"],
      ["HGX H200 8-GPU", 21_900, 18_980], ["Nodes", 4, 4]], {},
     [(32, 21_900 / 8 / 730), (32, 18_980 / 8 / 730)]),
])
def test_a_count_row_under_a_price_grid_counts_each_columns_offer(
        tmp_path: Path, rows: list[list[Any]], fx: dict[str, float],
        want: list[tuple[int, float]]) -> None:
    offers = _all(write_sheet(tmp_path / "grid.xlsx", rows), fx=fx)
    got = sorted(((o.fields.gpu_count, o.fields.price_usd_per_gpu_hour) for o in offers),
                 key=lambda g: -g[1])
    assert [g for g, _ in got] == [g for g, _ in want]
    assert [p for _, p in got] == pytest.approx([p for _, p in want])


def test_a_note_sentence_naming_another_column_is_that_columns(tmp_path: Path) -> None:
    """'* 12 Monate: monatliche Abrechnung. * Monatlich: 30 Tage Kündigungsfrist.' below a
    grid of 'Monatlich | 12 Monate': the monthly offer does not take the 12-month term."""
    path = write_sheet(tmp_path / "grid.xlsx", [
        ["Beispiel Cloud GmbH"], ["EUR pro GPU-Stunde"],
        ["Beschleuniger", "Monatlich", "12 Monate Laufzeit"],
        ["NVIDIA H100 SXM 80GB", 2.5, 2.0], ["GPUs", 16, 16], [],
        ["* 12 Monate Laufzeit: monatliche Abrechnung, Mindestlaufzeit 12 Monate. "
         "* Monatlich: 30 Tage Kündigungsfrist."]])
    offers = {o.fields.offer_name: o for o in _all(path, fx={"EUR": 1.0})}
    assert offers["Monatlich"].fields.term_months is None
    assert offers["12 Monate Laufzeit"].fields.term_months == 12
