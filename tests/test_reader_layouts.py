"""Specification: the reader understands the sheet, not a list of shapes, and lets the user
teach it what it missed."""

from __future__ import annotations

from pathlib import Path

import pytest

from evaltool.normalize.core import normalize_files
from evaltool.normalize.shapes import count_facts, words_to_digits
from evaltool.normalize.teach import explain_file, load_user_mapping, mapping_skeleton
from evaltool.normalize.values import parse_duration


def _workbook(path: Path, rows: list[list[object]], hidden: list[list[object]] | None = None,
              creator: str | None = None) -> Path:
    from openpyxl import Workbook

    wb = Workbook()
    ws = wb.active
    ws.title = "Quote"
    for row in rows:
        ws.append(row)
    if hidden is not None:
        old = wb.create_sheet("Old prices")
        for row in hidden:
            old.append(row)
        old.sheet_state = "hidden"
    if creator:
        wb.properties.creator = creator
    wb.save(path)
    return path


@pytest.mark.parametrize(("text", "facts"), [
    ("24 x Dell PowerEdge XE9680, each with 8x H100 SXM 80GB",
     {"node_count": 24, "gpus_per_node": 8}),
    ("Twelve nodes of HGX B200 8-GPU", {"node_count": 12, "gpus_per_node": 8}),
    ("8 (8 GPUs each, 64 GPUs)", {"gpus_per_node": 8, "gpu_count": 64}),
    ("4 × GB200 NVL72 racks", {"gpu_count": 288}),
    ("sechs Knoten", {"node_count": 6}),
])
def test_counts_are_read_by_their_shape_in_digits_or_words(text: str, facts: dict[str, int]
                                                           ) -> None:
    found = count_facts(text)
    assert {k: found[k] for k in facts} == facts


def test_a_network_speed_is_never_a_gpu_count() -> None:
    assert "gpus_per_node" not in count_facts("8x 400Gb/s NDR InfiniBand per node")


def test_number_words_in_three_languages() -> None:
    assert words_to_digits("Twelve, zwölf, douze") == "12, 12, 12"


def test_business_days_are_elapsed_time() -> None:
    # A week of 5 business days spans 7 calendar days: one business day is 33.6 hours.
    assert parse_duration("5 business days", "hours").value == 168.0
    assert parse_duration("next business day", "hours").value == 33.6


def test_options_side_by_side_become_one_offer_each_and_hidden_sheets_are_skipped(
        tmp_path: Path) -> None:
    path = _workbook(tmp_path / "acme_gpu_quote.xlsx", [
        ["ACME CLOUD | Capacity quotation"],
        [],
        ["Item", "Unit", "Option A", "Option B"],
        ["Accelerator", None, "NVIDIA H100 SXM5 80GB", "NVIDIA H200 SXM 141GB"],
        ["GPUs per node", "count", 8, 8],
        ["Number of nodes", "count", 16, 8],
        ["Price", "USD per GPU-hour", 2.5, 3.1],
        ["Term", "months", 12, 24],
    ], hidden=[["Price", "USD 9 per GPU-hour"]])
    result = normalize_files([path])
    assert [o.fields.price_usd_per_gpu_hour for o in result.offers] == [2.5, 3.1]
    assert [o.fields.gpu_count for o in result.offers] == [128, 64]
    assert all(o.fields.vendor == "Acme Cloud" for o in result.offers)
    codes = {w["code"] for w in result.offers[0].warnings}
    assert {"hidden-sheet-skipped", "vendor-not-labelled", "options-in-columns"} <= codes


def test_the_vendor_comes_from_the_file_name_with_a_warning_never_a_rejection(
        tmp_path: Path) -> None:
    path = _workbook(tmp_path / "Nimbus_Forge_GPU_proposal.xlsx", [
        ["Accelerator", "H100 SXM 80GB"], ["GPUs", 64], ["Price per GPU-hour", "$2.10"]])
    (offer,) = normalize_files([path]).offers
    assert offer.fields.vendor == "Nimbus Forge"
    assert any(w["code"] == "vendor-not-labelled" and "file name" in w["text"]
               for w in offer.warnings)


def test_explain_lists_what_was_not_read_and_a_mapping_teaches_it(tmp_path: Path) -> None:
    path = _workbook(tmp_path / "acme.xlsx", [
        ["Vendor", "Acme"], ["Accelerator", "H100 SXM 80GB"], ["GPUs", 64],
        ["Price per GPU-hour", "$2.10"], ["Kick-off", "2027-05-01"]])
    unread = explain_file(path)
    assert [u["where"]["cell"] for u in unread] == ["A5", "B5"]
    assert "Quote!A5" in mapping_skeleton(unread)
    mapping_file = tmp_path / "acme-map.yaml"
    mapping_file.write_text("fields:\n  Kick-off: delivery_date\n", encoding="utf-8")
    mapping = load_user_mapping(mapping_file)
    (offer,) = normalize_files([path], mapping=mapping).offers
    assert str(offer.fields.delivery_date) == "2027-05-01"
    assert offer.source["mapping"] == str(mapping_file)
    assert explain_file(path, mapping) == []
