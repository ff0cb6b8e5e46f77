"""A derived or multiplied value rests on evidence that says what it is per (socket, node, GPU,
port, month); when nothing says, the value is left out or warned, never guessed in silence.

Examples here are in layouts and languages of no blind set (Finnish, Hungarian, Turkish,
Swedish, a YAML export), so they test the mechanism, not a file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from workbooks import write_sheet

from evaltool.normalize.core import normalize_files
from evaltool.normalize.facts import _fabric
from evaltool.normalize.phrases import cores_of_sockets, system_facts

_workbook = write_sheet


def _one(path: Path, fx: dict[str, float] | None = None) -> Any:
    result = normalize_files([path], fx or {})
    assert not result.not_evaluated, result.not_evaluated
    (offer,) = result.offers
    return offer


def _warned(offer: Any, field: str, code: str | None = None) -> bool:
    return any(w.get("field") == field and (code is None or w.get("code") == code)
               for w in offer.warnings)


# --- cores after a socket count: per socket or per node, by the CPU's own core count ---------
@pytest.mark.parametrize(("text", "cores"), [
    ("2 x Intel Xeon Platinum 8480+ (112 ydintä), 1024 GB DDR5", 112),   # Finnish, the total
    ("2 x Intel Xeon Platinum 8480+ (56 mag), 1024 GB DDR5", 112),       # Hungarian, per CPU
    ("2x AMD EPYC 9654 (192 çekirdek), 1536 GB DDR5", 192),              # Turkish, the total
    ("2x AMD EPYC 9654 (96C), 1536 GB DDR5", 192),                       # per CPU
    ("2 x NVIDIA Grace (144 cores)", 144),
])
def test_a_core_figure_after_a_socket_count_is_read_by_the_cpu_model(text: str,
                                                                      cores: int) -> None:
    assert system_facts(text).get("cpu_cores_per_node", cores) == cores


def test_an_unknown_cpu_with_an_unqualified_core_figure_is_left_out() -> None:
    assert "cpu_cores_per_node" not in system_facts("2x Acme Z9 (64C), 512 GB DDR5")
    value, why = cores_of_sockets(2, 64, "2x Acme Z9 (64 cores)")
    assert value is None and "not one evaltool knows" in why
    # a figure that is neither one CPU's nor the node's is no reading either
    assert cores_of_sockets(2, 80, "2 x Xeon 8480+")[0] is None


def test_a_labelled_cpu_cell_with_an_unqualified_core_figure_is_warned(tmp_path: Path) -> None:
    path = _workbook(tmp_path / "tarjous.xlsx", [
        ["Vendor", "Esimerkki Oy"],
        ["Accelerator", "H100 SXM"],
        ["GPUs", 16],
        ["GPUs per node", 8],
        ["Price", "USD 2.50 per GPU-hour"],
        ["CPU", "2 x Acme Z9 (64 cores)"],
    ])
    offer = _one(path)
    assert offer.fields.cpu_cores_per_node is None
    assert _warned(offer, "cpu_cores_per_node", "cores-basis-unstated")


# --- a negated fabric is never the fabric; a TPU is never on InfiniBand -----------------------
@pytest.mark.parametrize(("text", "fabric"), [
    ("Sirut yhdistetty TPU ICI:llä; ei InfiniBandia.", "ici"),       # Finnish
    ("Chipek TPU ICI-n keresztül, nincs InfiniBand", "ici"),        # Hungarian
    ("utan InfiniBand: 2 x 100 GbE Ethernet", "ethernet"),          # Swedish
    ("InfiniBand NDR, no RoCE", "infiniband"),
])
def test_a_fabric_named_after_a_negation_is_not_read(text: str, fabric: str) -> None:
    assert _fabric(text) == fabric


def test_a_tpu_offer_never_keeps_infiniband_read_from_text(tmp_path: Path) -> None:
    path = _workbook(tmp_path / "tpu.xlsx", [
        ["Vendor", "Örnek Bulut A.Ş."],
        ["Accelerator", "Cloud TPU v5p"],
        ["Chips", 64],
        ["Price", "USD 4.20 per chip-hour"],
        ["Interconnect", "InfiniBand HDR"],  # misfiled: a TPU pod never runs on it
    ])
    offer = _one(path)
    assert offer.fields.inter_node_fabric is None or offer.fields.inter_node_fabric == "ici" \
        or _warned(offer, "inter_node_fabric")


# --- storage billed in TB-months: the size stated is the capacity ------------------------------
def test_tb_months_on_a_line_are_not_the_capacity(tmp_path: Path) -> None:
    path = _workbook(tmp_path / "offert.xlsx", [
        ["Leverantör", "Exempel AB"],
        [],
        ["Beskrivning", "Antal", "Enhet", "À-pris", "Summa"],
        ["H100 SXM GPU-timmar, 2 noder x 8 GPU", 35040, "GPU-timme", "USD 2.10", 73584],
        ["Lustre 40 TB lagring, 3 månader", 120, "TB-månad", "USD 60 / TB / månad", 7200],
    ])
    offer = _one(path)
    assert offer.fields.storage_capacity_tb in (None, 40)
    assert offer.fields.storage_capacity_tb != 120


# --- a network speed without a basis ------------------------------------------------------------
def test_one_network_adapter_speed_is_not_a_node_bandwidth(tmp_path: Path) -> None:
    path = _workbook(tmp_path / "ajanlat.xlsx", [
        ["Vendor", "Példa Kft."],
        ["Accelerator", "H200 SXM"],
        ["GPUs", 16],
        ["GPUs per node", 8],
        ["Price", "USD 3.10 per GPU-hour"],
        ["Network", "Hálózati kártya / network card ConnectX-7 400 Gb/s NDR InfiniBand"],
    ])
    offer = _one(path)
    assert offer.fields.inter_node_fabric == "infiniband"
    assert offer.fields.inter_node_gbit_s_per_node is None
    assert offer.fields.inter_node_gbit_s_per_gpu is None


def test_a_speed_with_no_basis_is_warned_on_node_and_gpu_figures(tmp_path: Path) -> None:
    path = _workbook(tmp_path / "quote.xlsx", [
        ["Vendor", "Example Cloud"],
        ["Accelerator", "H100 SXM"],
        ["GPUs", 16],
        ["GPUs per node", 8],
        ["Price", "USD 2.40 per GPU-hour"],
        ["Interconnect", "InfiniBand 3200 Gb/s"],
    ])
    offer = _one(path)
    if offer.fields.inter_node_gbit_s_per_node is not None:
        assert _warned(offer, "inter_node_gbit_s_per_node", "bandwidth-basis-unstated")
    if offer.fields.inter_node_gbit_s_per_gpu is not None:
        assert _warned(offer, "inter_node_gbit_s_per_gpu", "bandwidth-basis-unstated")


# --- a GB200 node is a tray of 4 or a rack, never 16 ---------------------------------------------
def test_gb200_gpus_per_node_from_counts_of_another_scope_is_dropped(tmp_path: Path) -> None:
    path = _workbook(tmp_path / "gb200.xlsx", [
        ["Vendor", "Example Neocloud"],
        ["System", "NVIDIA GB200 NVL72"],
        ["GPUs", 288],
        ["Nodes", 18],
        ["Price", "USD 5.00 per GPU-hour"],
    ])
    offer = _one(path)
    assert offer.fields.gpus_per_node in (None, 4)
    assert offer.fields.gpu_count == 288
