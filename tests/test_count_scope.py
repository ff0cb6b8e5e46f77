"""Specification: a count of GPUs scoped to one node or server is a per-node figure, never the
offer's GPU count; a fleet stated as N servers multiplies it.  Our own examples in several
languages and layouts (never a blind file)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from workbooks import write_workbook

from evaltool.normalize.core import normalize_files
from evaltool.normalize.shapes import count_facts


def _one(path: Path, fx: dict[str, float] | None = None) -> Any:
    result = normalize_files([path], fx or {})
    assert not result.not_evaluated, result.not_evaluated
    (offer,) = result.offers
    return offer


@pytest.mark.parametrize("text, per_node", [
    ("8 acceleratori Intel Gaudi 3 (128 GB HBM2e) per nodo", 8),
    ("4 GPUs NVIDIA H100 80GB je Knoten", 4),
    ("8 GPUs H100 SXM5 80 GB per server", 8),
    ("8 Beschleuniger Gaudi 3 pro Server", 8),
    ("8 aceleradores AMD MI300X (192 GB) por nodo", 8),
])
def test_a_count_whose_clause_ends_per_node_is_per_node(text: str, per_node: int) -> None:
    facts = count_facts(text)
    assert facts.get("gpus_per_node") == per_node
    assert "gpu_count" not in facts


@pytest.mark.parametrize("text", [
    "256 GPUs with 3.2 Tbit/s per node",
    "16 GPUs in total with 2 TB RAM per node",
    "64 H100 GPUs with 2 TB RAM per node",
    "32 GPUs with dedicated NVMe per node",
    "16 GPUs und lokale NVMe je Knoten",
])
def test_a_per_node_scope_that_belongs_to_another_figure_leaves_the_count(text: str) -> None:
    facts = count_facts(text)
    assert "gpus_per_node" not in facts
    assert facts.get("gpu_count")


@pytest.mark.parametrize("text, nodes, per_node", [
    ("vierentwintig (24) NVIDIA L40S 48 GB, verdeeld over 3 servers van 8 GPU's", 3, 8),
    ("twenty-four L40S spread over 3 servers of 8 GPUs", 3, 8),
    ("4 Server von je 8 GPUs", 4, 8),
    ("2 serwery po 8 GPU", 2, 8),
])
def test_a_fleet_of_servers_of_m_gpus_is_nodes_and_gpus_per_node(
        text: str, nodes: int, per_node: int) -> None:
    facts = count_facts(text)
    assert facts.get("node_count") == nodes
    assert facts.get("gpus_per_node") == per_node
    assert facts.get("gpu_count", nodes * per_node) == nodes * per_node


def test_nodes_row_with_a_per_node_note_multiplies_into_the_gpu_count(tmp_path: Path) -> None:
    path = write_workbook(tmp_path / "offerta.xlsx", {"Offerta": [
        ["Calcolo Esempio S.r.l."],
        ["Cluster Intel Gaudi 3"],
        [],
        ["Voce", "Valore", "Note"],
        ["Nodi", "4", "8 acceleratori Intel Gaudi 3 (128 GB HBM2e) per nodo"],
        ["Canone per nodo/mese", "€ 14.600,00", "IVA esclusa"],
        ["Durata contrattuale", "12 mesi"],
    ]})
    f = _one(path, {"EUR": 1.0}).fields
    assert f.node_count == 4
    assert f.gpus_per_node == 8
    assert f.gpu_count == 32
    assert f.price_usd_per_gpu_hour == pytest.approx(14_600 / 8 / 730, rel=0.01)


def test_a_fleet_line_in_dutch_counts_every_server(tmp_path: Path) -> None:
    path = write_workbook(tmp_path / "offerte.xlsx", {"Offerte": [
        ["Rekenkracht Voorbeeld B.V."],
        ["Onderdeel", "Omschrijving"],
        ["GPU's", "zestien (16) NVIDIA L40S 48 GB, verdeeld over 2 servers van 8 GPU's"],
        ["Prijs", "€ 1.000,00 per GPU per maand"],
        ["Looptijd", "12 maanden"],
    ]})
    f = _one(path, {"EUR": 1.0}).fields
    assert f.gpu_count == 16
    assert f.node_count == 2
    assert f.gpus_per_node == 8


@pytest.mark.parametrize("label, text", [
    ("Servidor", "4x NVIDIA H100 PCIe 80GB, 2x EPYC 9454 (48 núcleos), 768 GB RAM"),
    ("CPU", "2 x AMD EPYC 9454 (48 Kerne)"),
    ("Server", "8x H100 SXM 80GB, 2x Xeon 8480+ (56 cores), 2 TB DDR5"),
])
def test_a_bracketed_core_figure_equal_to_one_cpus_is_read_per_cpu_and_said(
        tmp_path: Path, label: str, text: str) -> None:
    path = write_workbook(tmp_path / "q.xlsx", {"Quote": [
        ["Vendor", "Example Compute Ltd"],
        ["Accelerator", "NVIDIA H100 SXM 80GB"],
        ["GPUs", 8],
        ["Price", "USD 2.50 per GPU-hour"],
        [label, text],
    ]})
    offer = _one(path)
    cores = offer.fields.cpu_cores_per_node
    assert cores in (96, 112)
    assert any(w.get("code") == "cores-per-cpu-assumed" for w in offer.warnings), offer.warnings


def test_a_core_figure_that_says_each_or_total_is_not_warned(tmp_path: Path) -> None:
    path = write_workbook(tmp_path / "q.xlsx", {"Quote": [
        ["Vendor", "Example Compute Ltd"],
        ["Accelerator", "NVIDIA H100 SXM 80GB"],
        ["GPUs", 8],
        ["Price", "USD 2.50 per GPU-hour"],
        ["CPU", "2 x AMD EPYC 9454 (48 cores each)"],
    ]})
    offer = _one(path)
    assert offer.fields.cpu_cores_per_node == 96
    assert not any(w.get("code") == "cores-per-cpu-assumed" for w in offer.warnings)


@pytest.mark.parametrize("label", ["Acceleratori totali", "Acceleratori"])
def test_a_bare_count_under_a_word_for_the_accelerators_counts_them(tmp_path: Path,
                                                                     label: str) -> None:
    path = write_workbook(tmp_path / "q.xlsx", {"Quote": [
        ["Vendor", "Example Compute Ltd"],
        ["Model", "Intel Gaudi 3"],
        [label, "24"],
        ["Price", "USD 2.00 per accelerator-hour"],
    ]})
    offer = _one(path)
    assert offer.fields.gpu_count == 24
    assert any(w.get("code") == "value-reads-as-count" for w in offer.warnings)


def test_nodes_and_a_per_node_note_disagreeing_with_a_bare_count_are_warned(tmp_path: Path) -> None:
    path = write_workbook(tmp_path / "offerta.xlsx", {"Offerta": [
        ["Calcolo Esempio S.r.l."],
        ["Cluster Intel Gaudi 3"],
        ["Voce", "Valore", "Note"],
        ["Nodi", "4", "8 acceleratori Intel Gaudi 3 per nodo"],
        ["Acceleratori totali", "30"],
        ["Canone per nodo/mese", "€ 14.600,00"],
    ]})
    offer = _one(path, {"EUR": 1.0})
    f = offer.fields
    # two readings that disagree are never kept silently: the mismatch is said
    assert (f.node_count, f.gpus_per_node) == (4, 8)
    assert f.gpu_count in (30, 32)
    assert any(w.get("field") == "gpu_count" and w.get("code") in (
        "count-mismatch", "count-from-labelled-counts") for w in offer.warnings), offer.warnings


@pytest.mark.parametrize("rows", [
    [["Anbieter", "Beispiel Rechen GmbH"], ["Beschleuniger", "NVIDIA H200 141GB"],
     ["GPUs", 8], ["Anzahl Server", 6], ["Preis", "EUR 2,90 pro GPU-Stunde"]],
    [["Vendor", "Example Compute Ltd"], ["Accelerator", "NVIDIA H100 SXM 80GB"],
     ["GPUs", 8], ["Servers", 4], ["Price", "USD 2.40 per GPU-hour"]],
])
def test_one_servers_worth_of_gpus_beside_several_servers_is_said(
        tmp_path: Path, rows: list[list[Any]]) -> None:
    offer = _one(write_workbook(tmp_path / "q.xlsx", {"Q": rows}), {"EUR": 1.0})
    assert any(w.get("code") == "gpu-count-may-be-one-node" for w in offer.warnings)


@pytest.mark.parametrize("text, nodes, per_node", [
    ("4x HGX H100 (8 GPUs each)", 4, 8),
    ("6 × Dell XE9680 (je 8 × H200)", 6, 8),
    ("3 x Supermicro AS-8125GS (8x MI300X each)", 3, 8),
])
def test_servers_with_their_gpus_each_in_brackets(text: str, nodes: int, per_node: int) -> None:
    facts = count_facts(text)
    assert (facts.get("node_count"), facts.get("gpus_per_node")) == (nodes, per_node)


@pytest.mark.parametrize("rows, total", [
    ([["Vendor", "Example Compute Ltd"],
      ["Server spec", "8x NVIDIA H100 SXM 80GB, 2x Xeon 8480+, 2 TB RAM"],
      ["Fleet", "16 servers"], ["Price", "USD 2.40 per GPU-hour"]], 128),
    ([["Fournisseur", "Exemple Calcul SAS"],
      ["Serveur", "8 x NVIDIA H100 SXM 80 Go, 2 x Xeon 8480+"],
      ["Quantité", "12 serveurs"], ["Prix", "2,40 EUR par GPU-heure"]], 96),
    ([["Vendor", "Example Compute Ltd"], ["Servers", "4x HGX H100 (8 GPUs each)"],
      ["Price", "USD 2.40 per GPU-hour"]], 32),
])
def test_a_server_spec_line_is_one_node_and_the_fleet_multiplies_it(
        tmp_path: Path, rows: list[list[Any]], total: int) -> None:
    f = _one(write_workbook(tmp_path / "q.xlsx", {"Q": rows}), {"EUR": 1.0}).fields
    assert f.gpus_per_node == 8
    assert f.gpu_count == total
