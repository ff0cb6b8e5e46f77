"""Specification: a price grid whose column headers are merged cells, each over a pair of
sub-columns (how many | price): "Frankfurt" merged over "GPUs | EUR / GPU-h".  Each merged
header is a column of the grid; each priced cell is an offer, with the count beside it as its
own capacity.  Our own examples in other languages and layouts, never a blind file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from evaltool.normalize.core import normalize_files


def _merged_sheet(path: Path, rows: list[list[Any]], merges: list[str]) -> Path:
    from openpyxl import Workbook

    wb = Workbook()
    ws = wb.active
    ws.title = "Angebot"
    for row in rows:
        ws.append(row)
    for cells in merges:
        ws.merge_cells(cells)
    wb.save(path)
    return path


def _offers(path: Path, fx: dict[str, float]) -> dict[str, Any]:
    result = normalize_files([path], fx)
    return {o.fields.offer_name or o.id: o.fields for o in result.offers}


def test_german_regions_merged_over_gpu_count_and_price(tmp_path: Path) -> None:
    path = _merged_sheet(tmp_path / "angebot.xlsx", [
        ["Anbieter", "Beispiel Rechenzentren GmbH"],
        [],
        ["Reservierte Kapazität — Preise in EUR pro GPU-Stunde"],
        ["Plattform", "Frankfurt", None, "München", None],
        [None, "Anzahl GPUs", "EUR / GPU-Std.", "Anzahl GPUs", "EUR / GPU-Std."],
        ["NVIDIA H100 SXM5 80GB", 64, 2.40, 32, 2.30],
        ["NVIDIA H200 141GB", 16, 3.10, 24, 3.00],
    ], ["B4:C4", "D4:E4"])
    got = sorted((f.accelerator, f.gpu_count, round(f.price_usd_per_gpu_hour, 4))
                 for f in _offers(path, {"EUR": 1.0}).values())
    assert got == [("H100-SXM", 32, 2.3), ("H100-SXM", 64, 2.4),
                   ("H200", 16, 3.1), ("H200", 24, 3.0)]


def test_spanish_price_before_a_node_count_under_merged_terms(tmp_path: Path) -> None:
    path = _merged_sheet(tmp_path / "oferta.xlsx", [
        ["Proveedor", "Nube Ejemplo S.L."],
        ["Servidores NVIDIA H100 SXM 80GB, 8 GPU por nodo"],
        ["Modalidad", "Madrid", None, "Barcelona", None],
        [None, "USD / GPU-hora", "Nodos", "USD / GPU-hora", "Nodos"],
        ["Reserva 12 meses", 2.50, 4, 2.60, 2],
    ], ["B3:C3", "D3:E3"])
    offers = _offers(path, {})
    got = sorted((f.gpu_count, f.price_usd_per_gpu_hour) for f in offers.values())
    assert got == [(16, pytest.approx(2.6)), (32, pytest.approx(2.5))]


@pytest.mark.parametrize(("config", "per_node", "fabric", "gbit_per_node"), [
    ("HGX, 8 GPU/node, 3.2 Tb/s NDR InfiniBand per node", 8, "infiniband", 3200),
    ("8 GPUs per node, 8 x 400 Gb/s InfiniBand per node", 8, "infiniband", 3200),
    ("4 GPU/node, 2 x 100 GbE per node", 4, "ethernet", 200),
    ("4 GPUs je Knoten, 2 x 100 GbE pro Knoten", 4, "ethernet", 200),
])
def test_a_config_cell_that_reads_as_the_network_gives_the_gpus_of_a_node_too(
        tmp_path: Path, config: str, per_node: int, fabric: str, gbit_per_node: int) -> None:
    path = _merged_sheet(tmp_path / "config.xlsx", [
        ["Vendor", "Example Cloud"], ["GPU", "NVIDIA L40S 48GB"],
        ["Number of nodes", 4], ["Server config", config],
        ["Price per GPU-hour", "USD 1.10"]], [])
    (fields,) = _offers(path, {}).values()
    assert fields.gpus_per_node == per_node
    assert fields.gpu_count == 4 * per_node
    assert fields.inter_node_fabric == fabric
    assert fields.inter_node_gbit_s_per_node == gbit_per_node
