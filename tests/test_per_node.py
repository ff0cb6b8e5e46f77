"""Specification: a price per node or per instance needs the GPUs of one node; when no field
states them, the document may state them once elsewhere (the accelerator's description, a spec
line, a footnote), in any language.  One value stated is used and said; values that disagree
leave the price out and are said.  Our own examples, never a blind file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from workbooks import write_workbook

from evaltool.normalize.core import normalize_files
from evaltool.normalize.per_node import accelerator_count, gpus_per_node_in_document


def _normalize(path: Path, fx: dict[str, float] | None = None) -> Any:
    return normalize_files([path], fx or {})


def _codes(offer: Any) -> set[str]:
    return {w.get("code") for w in offer.warnings}


@pytest.mark.parametrize(("text", "per"), [
    ("NVIDIA HGX B200 (8× 180 GB HBM3e)", 8),
    ("gx8.h100.metal — 8x NVIDIA H100 SXM 80GB, 2,048 GiB RAM", 8),
    ("Serveur: 4 x AMD Instinct MI300X, 2 x AMD EPYC 9654", 4),
    ("8 GPU pro Knoten, NVLink", 8),
    ("4 GPUs por nó", 4),
    ("Each instance is a full 8-GPU host; rates are per instance.", 8),
    ("Varje nod: 8 st NVIDIA A100 SXM 80 GB.", 8),
    ("Chaque nœud : 4 GPU", 4),
    ("Jeder Server mit 8 GPUs", 8),
])
def test_gpus_of_one_node_are_read_from_any_phrase_that_states_them(text: str, per: int) -> None:
    memory = 180.0 if "180 GB" in text else None
    found = gpus_per_node_in_document([text], memory)
    assert found is not None and found.per == per


@pytest.mark.parametrize("text", [
    "2× Intel Xeon 6960P (144 núcleos)",  # CPUs, not accelerators
    "NVMe: 2× 960 GB",  # disks, not the accelerator's memory
    "64 x NVIDIA H100 SXM",  # the offer's GPUs, not a node's
    "2 x 8 x NVIDIA H100",  # nodes times GPUs: read elsewhere, never as 2 per node
    "4 x HGX H200",  # four systems
    "2 x NVIDIA DGX H100",
    "Each server: 2 CPUs AMD EPYC 9654",  # not accelerators
])
def test_counts_of_other_things_are_not_gpus_per_node(text: str) -> None:
    found = gpus_per_node_in_document([text], 80.0)
    assert found is None or found.per not in (2, 4, 64)


def test_phrases_that_disagree_give_no_value() -> None:
    found = gpus_per_node_in_document(["8 GPUs per node", "Each server holds 4 GPUs per server"])
    assert found is not None and found.per is None and found.disagreeing == (4, 8)


def test_options_in_columns_priced_per_node_use_the_accelerator_description(
        tmp_path: Path) -> None:
    # German, options side by side, no GPUs-per-node or node-count field: the "8×" of the
    # system's description is the only statement of a node's GPUs.
    path = write_workbook(tmp_path / "angebot.xlsx", {"Angebot": [
        ["Beispiel Rechenzentrum GmbH"],
        ["Angebot Nr. 2026-17"],
        [],
        ["", "Variante 1", "Variante 2"],
        ["Beschleuniger", "NVIDIA HGX H200 (8× 141 GB HBM3e)",
         "NVIDIA HGX H200 (8× 141 GB HBM3e)"],
        ["GPUs gesamt", 64, 128],
        ["Preis", "31,20 € / Knoten / Stunde", "29,60 € / Knoten / Stunde"],
        ["Laufzeit", "12 Monate", "24 Monate"],
    ]})
    result = _normalize(path, {"EUR": 1.1})
    assert not result.not_evaluated, result.not_evaluated
    by_gpus = {o.fields.gpu_count: o for o in result.offers}
    assert by_gpus[64].fields.gpus_per_node == 8
    assert by_gpus[64].fields.node_count == 8
    assert by_gpus[64].fields.price_usd_per_gpu_hour == pytest.approx(31.20 / 8 * 1.1)
    assert by_gpus[128].fields.price_usd_per_gpu_hour == pytest.approx(29.60 / 8 * 1.1)
    assert "gpus-per-node-from-text" in _codes(by_gpus[64])


def test_a_footnote_states_the_gpus_of_an_instance(tmp_path: Path) -> None:
    # French, a key-value sheet priced per instance-hour; the note under it says 4 GPUs.
    path = write_workbook(tmp_path / "offre.xlsx", {"Offre": [
        ["Exemple Cloud SAS — proposition commerciale"],
        ["Accélérateur", "AMD Instinct MI300X"],
        ["Nombre total de GPU", 32],
        ["Prix", "18,00 € par instance et par heure"],
        [],
        ["Note : chaque instance comprend 4 GPU par instance, réseau RoCE dédié."],
    ]})
    result = _normalize(path, {"EUR": 1.1})
    assert not result.not_evaluated, result.not_evaluated
    (offer,) = result.offers
    assert offer.fields.gpus_per_node == 4
    assert offer.fields.node_count == 8
    assert offer.fields.price_usd_per_gpu_hour == pytest.approx(18.0 / 4 * 1.1)


def test_a_per_node_price_with_disagreeing_statements_is_never_silent(tmp_path: Path) -> None:
    # Spanish: the description says 8 per server, a note says 4 per node: either no price is
    # made up from them, or the one used is said beside the other.
    path = write_workbook(tmp_path / "oferta.xlsx", {"Oferta": [
        ["Ejemplo Nube S.L."],
        ["Acelerador", "8x NVIDIA H100 SXM 80GB"],
        ["Total de GPUs", 64],
        ["Precio", "20,00 € por nodo y hora"],
        ["Nota: configuración de 4 GPUs por nodo en la zona B."],
    ]})
    result = _normalize(path, {"EUR": 1.1})
    for offer in result.offers:
        said = [w for w in offer.warnings if w.get("field") == "gpus_per_node"
                and w.get("code") in ("value-conflict", "gpus-per-node-disagree")]
        assert said and "4" in said[0]["message"] and "8" in said[0]["message"]


@pytest.mark.parametrize(("text", "count"), [
    ("8x NVIDIA H200 141GB", 8),
    ("4 x HGX H200 (8x NVIDIA H200 141GB)", 8),  # four systems of eight
    ("2 x NVIDIA DGX H100", 0),  # two systems; their GPUs are not stated here
])
def test_a_count_before_a_system_counts_systems(text: str, count: int) -> None:
    first = int(text.split()[0].rstrip("x"))
    assert accelerator_count(text, first) == count


def test_a_purchase_of_systems_counts_their_gpus(tmp_path: Path) -> None:
    # German key-value quote: "4 x HGX H200 (8x ...)" is 4 servers of 8 GPUs, not 4 GPUs each.
    path = write_workbook(tmp_path / "kauf.xlsx", {"Angebot": [
        ["Anbieter", "Beispiel Rechenzentrum GmbH"],
        ["Server", "4 x HGX H200 (8x NVIDIA H200 141GB)"],
        ["Kaufpreis Hardware", "EUR 1.200.000,00"],
        ["Colocation", "EUR 180 pro kW und Monat"],
        ["Leistungsaufnahme pro Server", "10 kW"],
        ["Betrieb / Monat", "EUR 2.000,00"],
        ["Abschreibung", "48 Monate"],
    ]})
    result = _normalize(path, {"EUR": 1.0})
    (offer,) = result.offers
    f = offer.fields
    assert (f.node_count, f.gpus_per_node, f.gpu_count) == (4, 8, 32)
    assert f.price_usd_per_gpu_hour == pytest.approx(
        (1_200_000 / 48 + 4 * 10 * 180 + 2000) / (32 * 730))
