"""Specification: a price whose time basis is stated beside it, not in it. A JSON or YAML
object {unit: chip-hour, list_usd: 2.70, net_usd: 1.701}: the amount paid (net before list) in
the currency its key names, per the unit beside it; a count phrase in the vendors' languages
("szesnaście (16) serwerów ..., każdy z 8 × A100"); a size restated exactly in brackets.
Small examples of our own."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evaltool.normalize.core import normalize_files
from evaltool.normalize.phrases import system_facts
from evaltool.normalize.shapes import count_facts


def _offers(path: Path) -> dict[str, object]:
    result = normalize_files([path], {"EUR": 1.08})
    assert not result.not_evaluated, result.not_evaluated
    return {o.fields.offer_name: o.fields for o in result.offers}


def test_a_json_proposal_prices_by_the_unit_beside_its_amounts(tmp_path: Path) -> None:
    path = tmp_path / "proposal.json"
    path.write_text(json.dumps({
        "provider": {"name": "Example TPU Cloud Ltd."},
        "options": [
            {"title": "1-year commitment", "accelerator": "TPU v5p", "chips": 512,
             "pricing": {"unit": "chip-hour", "list_usd": 4.2, "discount_pct": 30,
                         "net_usd": 2.94},
             "term_months": 12},
            {"title": "On demand", "accelerator": "TPU v5p", "chips": 512,
             "pricing": {"unit": "chip-hour", "list_usd": 4.2}},
        ]}), encoding="utf-8")
    offers = _offers(path)
    assert offers["1-year commitment"].price_usd_per_gpu_hour == pytest.approx(2.94)
    assert offers["On demand"].price_usd_per_gpu_hour == pytest.approx(4.2)


def test_a_yaml_offer_in_euros_per_node_month(tmp_path: Path) -> None:
    path = tmp_path / "offer.yaml"
    path.write_text(
        "vendor: Beispiel Rechenzentrum GmbH\n"
        "accelerator: NVIDIA H100 SXM 80GB\n"
        "nodes: 4\n"
        "gpus_per_node: 8\n"
        "pricing:\n"
        "  unit: node-month\n"
        "  net_eur: 14600\n", encoding="utf-8")
    (fields,) = _offers(path).values()
    assert fields.price_usd_per_gpu_hour == pytest.approx(14600 * 1.08 / 8 / 730)


@pytest.mark.parametrize(("text", "counts"), [
    ("szesnaście (16) serwerów NVIDIA DGX A100, każdy z 8 × A100 SXM4 80 GB",
     {"node_count": 16, "gpus_per_node": 8}),
    ("12 uzlů, každý s 4× NVIDIA H100", {"node_count": 12, "gpus_per_node": 4}),
    ("8 servers, elk uitgerust met 8 Intel Gaudi 3", {"node_count": 8, "gpus_per_node": 8}),
])
def test_nodes_each_with_accelerators_in_more_languages(text: str, counts: dict[str, int]
                                                       ) -> None:
    found = count_facts(text)
    assert {k: found.get(k) for k in counts} == counts


def test_a_size_restated_exactly_in_brackets_wins() -> None:
    assert system_facts("2 TB RAM (2048 GB) na serwer")["cpu_memory_gb_per_node"] == 2048
    assert system_facts("2 TB RAM per node")["cpu_memory_gb_per_node"] == 2000


def test_a_pricing_calculator_with_inputs_and_commitment_columns(tmp_path: Path) -> None:
    # An inputs block ("Value | Unit": the unit column is no option) above a commitment block
    # whose columns are the options, named by their term; the prices are formulas.
    from openpyxl import Workbook

    wb = Workbook()
    ws = wb.active
    ws.title = "Calculator"
    for row in [["Example Cloud — accelerator pricing calculator"], [],
                ["INPUTS", "Value", "Unit"],
                ["Accelerator", "TPU v5p (95 GB HBM per chip)", None],
                ["Slice", "v5p-128", "128 chips"],
                ["Chips", 128, "chips"],
                ["List price", 4.2, "USD per chip-hour"],
                [],
                ["COMMITMENT", "1-year", "3-year"],
                ["Discount vs list", 0.3, 0.5],
                ["Price per chip-hour", "=$B$7*(1-B10)", "=$B$7*(1-C10)"],
                ["Term (months)", 12, 36]]:
        ws.append(row)
    path = tmp_path / "calculator.xlsx"
    wb.save(path)
    offers = _offers(path)
    assert offers["1-year"].price_usd_per_gpu_hour == pytest.approx(4.2 * 0.7)
    assert offers["3-year"].price_usd_per_gpu_hour == pytest.approx(4.2 * 0.5)
    assert offers["3-year"].gpu_count == 128 and offers["3-year"].term_months == 36


def test_an_upfront_and_a_recurring_price_in_one_cell(tmp_path: Path) -> None:
    from workbooks import write_sheet

    path = write_sheet(tmp_path / "partial_upfront.xlsx", [
        ["Vendor", "Example Cloud"],
        ["Accelerator", "H100 SXM"],
        ["Instances (8 GPUs each)", 4],
        ["Pricing", "USD 300,000 upfront plus USD 20,000 per instance-month over a 12-month "
                    "term"],
    ])
    (fields,) = _offers(path).values()
    assert fields.gpu_count == 32
    assert fields.upfront_usd == pytest.approx(300_000)
    # No total contract value says the upfront is on top: the recurring rate as quoted.
    assert fields.price_usd_per_gpu_hour == pytest.approx(20_000 / (8 * 730))


@pytest.mark.parametrize(("text", "counts"), [
    ("4 Server mit je 8 GPUs", {"node_count": 4, "gpus_per_node": 8}),
    ("6 nœuds de 8 GPU", {"node_count": 6, "gpus_per_node": 8}),
])
def test_nodes_of_gpus_named_by_the_gpu_word(text: str, counts: dict[str, int]) -> None:
    found = count_facts(text)
    assert {k: found.get(k) for k in counts} == counts
    assert found.get("gpu_count") in (None, counts["node_count"] * counts["gpus_per_node"])


def test_a_json_price_stated_hourly_and_monthly_is_one_price(tmp_path: Path) -> None:
    path = tmp_path / "hourly_monthly.json"
    path.write_text(json.dumps({
        "vendor": "Example Cloud Inc.",
        "offers": [{"name": "Reserved 1y", "accelerator": "NVIDIA H100 SXM",
                    "instance": {"gpus": 8}, "instances": 16, "term_months": 12,
                    "pricing": {"unit": "instance", "hourly_usd": 31.44,
                                "monthly_usd": 22951.2}}]}), encoding="utf-8")
    (fields,) = _offers(path).values()
    assert fields.gpu_count == 128
    assert fields.price_usd_per_gpu_hour == pytest.approx(31.44 / 8)
