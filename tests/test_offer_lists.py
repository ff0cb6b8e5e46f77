"""A list of offers in a YAML/JSON export is found by what its items hold (an accelerator and
a price each), whatever its key: a broker's "bids", a portal's "awards", a "Positionen" list.
Line items of one offer (only one names the accelerator) stay one offer."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evaltool.normalize.core import normalize_files


def test_a_broker_s_bids_are_one_offer_each(tmp_path: Path) -> None:
    path = tmp_path / "bids.json"
    path.write_text(json.dumps({
        "seller_of_record": "Example Exchange LLC",
        "bids": [
            {"bid_id": "B-1", "hardware": "8x NVIDIA H100 80GB SXM5 per node", "nodes": 2,
             "price": {"amount": 16.0, "unit": "USD/node/hr"}, "term": "6 months"},
            {"bid_id": "B-2", "hardware": "8x NVIDIA H200 141GB per node", "nodes": 1,
             "price": {"amount": 3.5, "unit": "USD/GPU/hr"}, "term": "3 months"},
        ]}), encoding="utf-8")
    result = normalize_files([path], {})
    assert not result.not_evaluated, result.not_evaluated
    prices = sorted(o.fields.price_usd_per_gpu_hour for o in result.offers)
    assert prices == pytest.approx([2.0, 3.5])
    assert {o.fields.gpu_count for o in result.offers} == {16, 8}
    assert {o.fields.vendor for o in result.offers} == {"Example Exchange LLC"}


def test_a_portal_s_awards_nested_in_a_wrapper_in_yaml(tmp_path: Path) -> None:
    path = tmp_path / "awards.yaml"
    path.write_text(
        "portal:\n"
        "  anbieter: Beispiel Cloud GmbH\n"
        "  vergaben:\n"
        "    - gpu: NVIDIA A100 SXM 80GB\n"
        "      anzahl_gpus: 16\n"
        "      preis: 1,80 EUR pro GPU-Stunde\n"
        "    - gpu: NVIDIA L40S\n"
        "      anzahl_gpus: 8\n"
        "      preis: 0,90 EUR pro GPU-Stunde\n", encoding="utf-8")
    result = normalize_files([path], {"EUR": 1.0})
    assert not result.not_evaluated, result.not_evaluated
    assert sorted(o.fields.price_usd_per_gpu_hour for o in result.offers) == pytest.approx(
        [0.9, 1.8])


def test_line_items_of_one_offer_stay_one_offer(tmp_path: Path) -> None:
    path = tmp_path / "quote.json"
    path.write_text(json.dumps({
        "vendor": "Example Cloud Inc.",
        "items": [
            {"description": "GPU node, 8x NVIDIA H100 SXM 80GB", "quantity": 4,
             "price": "USD 20.00 per node-hour"},
            {"description": "Managed storage 100 TB", "quantity": 1,
             "price": "USD 2,000 per month"},
        ]}), encoding="utf-8")
    result = normalize_files([path], {})
    assert len(result.offers) + len(result.not_evaluated) == 1


def test_csv_lines_that_price_different_accelerators_are_alternatives(tmp_path: Path) -> None:
    path = tmp_path / "rfq.csv"
    path.write_text(
        "Line,Supplier,Description,Qty,Qty_UoM,Unit_Price,Price_UoM,Currency\n"
        "1,Example Cloud Inc.,HGX H100 SXM5 80GB 8-GPU node,4,nodes,20.00,per node-hour,USD\n"
        "2,Example Cloud Inc.,AMD Instinct MI300X 192GB 8-GPU node,2,nodes,24.00,"
        "per node-hour,USD\n", encoding="utf-8")
    result = normalize_files([path], {})
    assert not result.not_evaluated, result.not_evaluated
    got = sorted((o.fields.accelerator, o.fields.gpu_count, o.fields.price_usd_per_gpu_hour)
                 for o in result.offers)
    assert got == [("H100-SXM", 32, pytest.approx(2.5)), ("MI300X", 16, pytest.approx(3.0))]


def test_workbook_lines_that_price_different_accelerators_are_alternatives(
        tmp_path: Path) -> None:
    from workbooks import write_workbook

    path = write_workbook(tmp_path / "angebot.xlsx", {"Angebot": [
        ["Beispiel Rechenzentrum GmbH"],
        ["Pos.", "Beschreibung", "Menge", "Einheit", "Einzelpreis"],
        [1, "Knoten mit 8 × NVIDIA H200 141GB", 2, "Knoten", "30,00 € pro Knoten-Stunde"],
        [2, "Knoten mit 8 × NVIDIA L40S 48GB", 4, "Knoten", "8,00 € pro Knoten-Stunde"],
    ]})
    result = normalize_files([path], {"EUR": 1.0})
    assert not result.not_evaluated, result.not_evaluated
    got = sorted((o.fields.accelerator, o.fields.price_usd_per_gpu_hour) for o in result.offers)
    assert got == [("H200", pytest.approx(3.75)), ("L40S", pytest.approx(1.0))]
