"""Specification: the plausibility and consistency guard. After an offer is read, every field
is checked against the accelerator catalog and against cited physical and market ranges
(evaltool/data/plausibility.yaml). A value read at low confidence (prose, a description, a
note, by its shape) that is implausible is left out with `implausible-value-dropped`; a
labelled one is kept with `implausible-value`. Examples are our own, never a blind file."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import pytest
from workbooks import write_sheet

from evaltool.errors import Location
from evaltool.models import FieldSource
from evaltool.normalize import values as V
from evaltool.normalize.builder import Builder
from evaltool.normalize.core import normalize_files
from evaltool.normalize.facts import IN_TEXT, LABELLED, TABLE, _Priced
from evaltool.normalize.plausible import Plausibility, plausibility_rules
from evaltool.read.cells import RawRecord
from evaltool.read.vocabulary import load_vocabulary

HERE = Location("quote.xlsx", sheet="Offer", cell="B2")
TODAY = dt.date(2026, 11, 25)


def _check(facts: dict[str, tuple[Any, int]], accelerator: str | None = "H100-SXM",
           priced: list[tuple[float, int]] | None = None) -> tuple[dict[str, Any], Builder]:
    """Read `facts` (name -> (value, priority)) as the builder would, then run the guard."""
    b = Builder(RawRecord(id="o1", source={"file": "quote.xlsx", "sheet": "Offer"}),
                {"USD": 1.0}, load_vocabulary())
    for name, (value, priority) in facts.items():
        b.add(name, value, HERE, str(value), priority)
    for amount, priority in priced or []:
        b.priced.append(_Priced("compute", V.Money(amount, "USD", ("gpu", "hour")), HERE,
                                str(amount), priority))
    values, provenance = b.resolve()
    if accelerator is not None:
        values["accelerator"] = accelerator
        provenance["accelerator"] = FieldSource(where=HERE.to_dict(), raw=accelerator)
    Plausibility(b, values, provenance, today=lambda: TODAY).run()
    return values, b


def _codes(b: Builder, field: str) -> set[str]:
    return {p.code for p in b.problems if p.field == field}


def test_every_range_cites_a_public_source() -> None:
    rules = plausibility_rules()
    for name, rule in rules["ranges"].items():
        assert rule["min"] <= rule["max"], name
        assert "source" in rule and len(rule["source"]) > 20, name
    for section in ("gpus_per_node", "price_usd_per_gpu_hour", "gpu_memory", "peak_tflops",
                    "dates"):
        assert len(rules[section]["source"]) > 20, section


# --- GPU memory against the named accelerator's variants -----------------------------------

def test_a_link_speed_read_as_gpu_memory_from_text_is_dropped_for_the_catalog_figure() -> None:
    values, b = _check({"gpu_memory_gb": (900.0, IN_TEXT)})  # "NVLink 900 GB/s"
    assert values["gpu_memory_gb"] == 80.0
    assert "implausible-value-dropped" in _codes(b, "gpu_memory_gb")


@pytest.mark.parametrize(("acc", "memory"), [("H100-SXM", 94.0), ("H100-SXM", 74.5),
                                             ("MI300X", 192.0), ("A100-SXM-80GB", 40.0)])
def test_any_memory_size_of_the_family_in_gb_or_gib_is_plausible(acc: str,
                                                                 memory: float) -> None:
    values, b = _check({"gpu_memory_gb": (memory, IN_TEXT)}, accelerator=acc)
    assert values["gpu_memory_gb"] == memory
    assert not _codes(b, "gpu_memory_gb")


def test_a_labelled_memory_the_family_never_had_is_kept_and_warned() -> None:
    values, b = _check({"gpu_memory_gb": (24.0, LABELLED)}, accelerator="H200")
    assert values["gpu_memory_gb"] == 24.0
    assert "implausible-value" in _codes(b, "gpu_memory_gb")


# --- network per GPU -------------------------------------------------------------------------

def test_a_per_node_figure_read_per_gpu_from_text_is_dropped_with_what_came_from_it() -> None:
    values, b = _check({"inter_node_gbit_s_per_gpu": (7200.0, IN_TEXT),
                        "gpus_per_node": (8, LABELLED)})
    assert "inter_node_gbit_s_per_gpu" not in values
    assert "implausible-value-dropped" in _codes(b, "inter_node_gbit_s_per_gpu")


def test_a_labelled_per_gpu_network_beyond_any_nic_is_kept_and_warned() -> None:
    values, b = _check({"inter_node_gbit_s_per_gpu": (3200.0, LABELLED)})
    assert values["inter_node_gbit_s_per_gpu"] == 3200.0
    assert "implausible-value" in _codes(b, "inter_node_gbit_s_per_gpu")


def test_a_scale_up_fabric_sold_as_the_inter_node_one_is_not_held_to_nic_speeds() -> None:
    values, b = _check({"inter_node_gbit_s_per_gpu": (4800.0, IN_TEXT),
                        "inter_node_fabric": ("ici", LABELLED)}, accelerator="TPU-v5p")
    assert values["inter_node_gbit_s_per_gpu"] == 4800.0
    assert not _codes(b, "inter_node_gbit_s_per_gpu")


# --- counts ----------------------------------------------------------------------------------

@pytest.mark.parametrize("per", [1, 2, 4, 8, 10, 16, 72])
def test_gpus_per_node_of_real_servers_and_racks_are_plausible(per: int) -> None:
    values, b = _check({"gpus_per_node": (per, IN_TEXT)})
    assert values["gpus_per_node"] == per
    assert not _codes(b, "gpus_per_node")


def test_a_gpus_per_node_no_server_has_is_dropped_from_text_and_warned_when_labelled() -> None:
    values, b = _check({"gpus_per_node": (7, IN_TEXT)})
    assert "gpus_per_node" not in values
    assert "implausible-value-dropped" in _codes(b, "gpus_per_node")
    values, b = _check({"gpus_per_node": (5, LABELLED)})
    assert values["gpus_per_node"] == 5
    assert "implausible-value" in _codes(b, "gpus_per_node")


def test_a_gpu_count_from_text_gives_way_to_labelled_nodes_times_gpus_per_node() -> None:
    values, b = _check({"gpu_count": (16, IN_TEXT), "node_count": (16, LABELLED),
                        "gpus_per_node": (8, LABELLED)})
    assert values["gpu_count"] == 128
    assert "count-from-labelled-counts" in _codes(b, "gpu_count")  # its own code (#13)


def test_a_node_count_from_text_gives_way_to_labelled_gpus_and_gpus_per_node() -> None:
    values, _ = _check({"gpu_count": (64, LABELLED), "node_count": (4, IN_TEXT),
                        "gpus_per_node": (8, LABELLED)})
    assert values["node_count"] == 8


def test_counts_read_alike_that_disagree_are_left_to_the_count_warning() -> None:
    values, b = _check({"gpu_count": (60, LABELLED), "node_count": (8, LABELLED),
                        "gpus_per_node": (8, LABELLED)})
    assert values["gpu_count"] == 60
    assert not _codes(b, "gpu_count")


# --- price per GPU-hour ----------------------------------------------------------------------

def test_a_price_in_cents_read_from_text_is_dropped() -> None:
    values, b = _check({"price_usd_per_gpu_hour": (264.6, IN_TEXT)}, priced=[(264.6, IN_TEXT)])
    assert "price_usd_per_gpu_hour" not in values
    assert "implausible-value-dropped" in _codes(b, "price_usd_per_gpu_hour")


def test_a_labelled_price_far_from_every_public_price_is_kept_and_warned() -> None:
    values, b = _check({"price_usd_per_gpu_hour": (264.6, LABELLED)},
                       priced=[(264.6, LABELLED)])
    assert values["price_usd_per_gpu_hour"] == 264.6
    assert "implausible-value" in _codes(b, "price_usd_per_gpu_hour")


@pytest.mark.parametrize("price", [0.0, 0.9, 2.35, 11.0])
def test_free_reserved_list_and_managed_prices_are_plausible(price: float) -> None:
    values, b = _check({"price_usd_per_gpu_hour": (price, TABLE)}, priced=[(price, TABLE)])
    assert values["price_usd_per_gpu_hour"] == price
    assert not _codes(b, "price_usd_per_gpu_hour")


# --- dates, storage, peaks, ranges -------------------------------------------------------------

def test_a_misread_year_from_text_is_dropped_and_a_labelled_one_warned() -> None:
    values, b = _check({"valid_until": (dt.date(2062, 3, 31), IN_TEXT)})
    assert "valid_until" not in values
    assert "implausible-value-dropped" in _codes(b, "valid_until")
    values, b = _check({"delivery_date": (dt.date(1926, 2, 1), LABELLED)})
    assert values["delivery_date"] == dt.date(1926, 2, 1)
    assert "implausible-value" in _codes(b, "delivery_date")
    values, b = _check({"delivery_date": (dt.date(2027, 4, 3), IN_TEXT)})
    assert values["delivery_date"] == dt.date(2027, 4, 3)


def test_storage_beyond_the_largest_file_system_is_a_scale_slip() -> None:
    values, b = _check({"storage_capacity_tb": (2_048_000.0, IN_TEXT)})  # "2 048 PB" for TB
    assert "storage_capacity_tb" not in values
    assert "implausible-value-dropped" in _codes(b, "storage_capacity_tb")
    values, _ = _check({"storage_capacity_tb": (2048.0, IN_TEXT)})
    assert values["storage_capacity_tb"] == 2048.0


@pytest.mark.parametrize(("tflops", "kept"), [(989.0, True), (1979.0, True), (7916.0, False),
                                              (1.98, False)])
def test_a_peak_per_gpu_outside_the_catalogs_dense_to_sparse_span_is_dropped_from_text(
        tflops: float, kept: bool) -> None:
    values, b = _check({"claimed_peak_tflops_per_gpu": (tflops, IN_TEXT)})
    assert ("claimed_peak_tflops_per_gpu" in values) is kept
    assert ("implausible-value-dropped" in _codes(b, "claimed_peak_tflops_per_gpu")) is not kept


@pytest.mark.parametrize(("name", "value"), [("egress_usd_per_gb", 9.0),
                                             ("sla_uptime_pct", 9.95),
                                             ("power_kw_per_node", 10_200.0),
                                             ("cpu_cores_per_node", 2)])
def test_physical_and_market_ranges(name: str, value: float) -> None:
    values, b = _check({name: (value, IN_TEXT)})
    assert name not in values
    assert "implausible-value-dropped" in _codes(b, name)
    values, b = _check({name: (value, LABELLED)})
    assert values[name] == value
    assert "implausible-value" in _codes(b, name)


def test_included_at_no_charge_is_not_implausible() -> None:
    values, b = _check({"egress_usd_per_gb": (0.0, IN_TEXT),
                        "storage_usd_per_tb_month": (0.0, IN_TEXT)})
    assert values["egress_usd_per_gb"] == 0.0 and values["storage_usd_per_tb_month"] == 0.0
    assert not _codes(b, "egress_usd_per_gb") | _codes(b, "storage_usd_per_tb_month")


# --- end to end: a line item's unit column says what its quantity counts ---------------------

_workbook = write_sheet


@pytest.mark.parametrize(("header", "unit", "price", "fx"), [
    (["Line", "Description", "Qty", "Unit", "Unit price"], "node", "$3.49 / GPU-hr", {}),
    (["Pos.", "Beschreibung", "Menge", "Einheit", "Preis"], "Knoten",
     "3,49 € / GPU-Stunde", {"EUR": 1.0}),
    (["Ligne", "Description", "Quantité", "Unité", "Prix unitaire"], "nœuds",
     "3,49 € par GPU-heure", {"EUR": 1.0}),
])
def test_nodes_priced_per_gpu_hour_count_nodes_not_gpus(tmp_path: Path, header: list[str],
                                                        unit: str, price: str,
                                                        fx: dict[str, float]) -> None:
    path = _workbook(tmp_path / "q.xlsx", [
        ["Vendor", "Example Compute"],
        [],
        header,
        [1, "NVIDIA HGX H100 SXM5 80GB: 8x H100 per node", 16, unit, price],
    ])
    result = normalize_files([path], fx)
    assert not result.not_evaluated, result.not_evaluated
    f = result.offers[0].fields
    assert (f.node_count, f.gpus_per_node, f.gpu_count) == (16, 8, 128)
    assert f.price_usd_per_gpu_hour == pytest.approx(3.49)
