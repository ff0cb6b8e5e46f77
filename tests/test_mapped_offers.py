"""A user teaches any layout once: a mapping file's `offers` names each offer's cells.

A models x regions rate card whose GPU counts sit in a second grid, with an old price list
on the first sheet, is the kind of layout a reader may not take apart; the mapping states
each offer's fields as cells ("='Rates 2026'!B6") or values, and every later quote in that
layout reads right.
"""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest

from evaltool.errors import UsageError
from evaltool.normalize.core import normalize_files
from evaltool.normalize.teach import load_user_mapping


def _rate_card(tmp_path: Path) -> Path:
    wb = openpyxl.Workbook()
    old = wb.active
    old.title = "Rates 2025"
    old["A1"] = "CANCELLED - replaced by 'Rates 2026'"
    old["B3"], old["C3"] = "Madrid", "Barcelona"
    old["A4"], old["B4"], old["C4"] = "NVIDIA H200", "3,40 €", "3,55 €"
    new = wb.create_sheet("Rates 2026")
    new["A1"] = "Meseta Cloud, S.L. - dedicated GPU rates 2026"
    new["A2"] = "Price per GPU-hour (EUR), 12-month commitment, VAT excluded."
    new["B5"], new["C5"] = "Madrid (MAD1)", "Barcelona (BCN2)"
    new["A6"], new["B6"], new["C6"] = "NVIDIA H200 141 GB, 8 GPU per node", "2,95 €", "3,10 €"
    new["A7"], new["B7"], new["C7"] = "NVIDIA L40S 48 GB, 4 GPU per node", "0,89 €", "0,92 €"
    new["A9"] = "Available capacity (GPUs)"
    new["B10"], new["C10"] = "Madrid (MAD1)", "Barcelona (BCN2)"
    new["A11"], new["B11"], new["C11"] = "NVIDIA H200", 128, 64
    new["A12"], new["B12"], new["C12"] = "NVIDIA L40S", 96, 48
    path = tmp_path / "meseta_rates_2026.xlsx"
    wb.save(path)
    return path


def _offer(column: str, row: int, count_row: int) -> str:
    sheet = "'Rates 2026'"
    return (f"{{accelerator: \"={sheet}!A{row}\", "
            f"price_usd_per_gpu_hour: \"={sheet}!{column}{row}\","
            f" gpu_count: \"={sheet}!{column}{count_row}\", region: \"={sheet}!{column}5\"}}")


def test_a_mapping_names_each_offer_of_a_grid_by_its_cells(tmp_path: Path) -> None:
    path = _rate_card(tmp_path)
    mapping_file = tmp_path / "meseta.yaml"
    mapping_file.write_text(
        "skip_sheets: [Rates 2025]\noffers:\n"
        f"  H200 Madrid: {_offer('B', 6, 11)}\n"
        f"  H200 Barcelona: {_offer('C', 6, 11)}\n"
        f"  L40S Madrid: {_offer('B', 7, 12)}\n"
        f"  L40S Barcelona: {_offer('C', 7, 12)}\n", encoding="utf-8")
    result = normalize_files([path], {"EUR": 1.10}, mapping=load_user_mapping(mapping_file))
    assert not result.not_evaluated
    offers = {o.fields.offer_name: o.fields for o in result.offers}
    assert set(offers) == {"H200 Madrid", "H200 Barcelona", "L40S Madrid", "L40S Barcelona"}
    h200 = offers["H200 Barcelona"]
    assert (h200.accelerator, h200.gpu_count) == ("H200", 64)
    assert h200.price_usd_per_gpu_hour == pytest.approx(3.10 * 1.10, abs=1e-4)
    by_name = {o.fields.offer_name: o for o in result.offers}
    assert by_name["H200 Barcelona"].provenance["gpu_count"].where["cell"] == "C11"
    l40s = offers["L40S Madrid"]
    assert (l40s.accelerator, l40s.gpu_count, l40s.gpus_per_node) == ("L40S", 96, 4)
    # another offer's cells say nothing of this one: no "8 GPU per node" conflict for L40S
    assert not any("gpus_per_node" in str(w) for w in by_name["L40S Madrid"].warnings)
    assert all(o.source["mapping"] == str(mapping_file) for o in result.offers)


def test_a_mapped_value_is_taken_as_written_and_a_reference_needs_its_equals_sign(
        tmp_path: Path) -> None:
    path = _rate_card(tmp_path)
    mapping_file = tmp_path / "meseta.yaml"
    # "A100" is an accelerator, not cell A100: only "=A100" would be a reference
    mapping_file.write_text(
        "skip_sheets: [Rates 2025]\noffers:\n"
        "  Spare capacity: {accelerator: A100, gpu_count: 16,"
        " price_usd_per_gpu_hour: \"='Rates 2026'!B7\"}\n", encoding="utf-8")
    (offer,) = normalize_files([path], {"EUR": 1.10},
                               mapping=load_user_mapping(mapping_file)).offers
    assert offer.fields.accelerator.startswith("A100") and offer.fields.gpu_count == 16
    assert offer.provenance["gpu_count"].where["key"] == "offers.Spare capacity.gpu_count"


@pytest.mark.parametrize(("offers", "code"), [
    ("  X: {price_per_gpu: '=B6'}\n", "mapping-unknown-field"),
    ("  X: {gpu_count: '=Nowhere!B6'}\n", "mapping-bad-reference"),
    ("  X: {gpu_count: '=B6:C7'}\n", "mapping-bad-reference"),
    ("  X: 12\n", "mapping-offers-invalid"),
])
def test_a_wrong_mapped_offer_is_a_usage_error_naming_its_key(
        tmp_path: Path, offers: str, code: str) -> None:
    path = _rate_card(tmp_path)
    mapping_file = tmp_path / "bad.yaml"
    mapping_file.write_text("offers:\n" + offers, encoding="utf-8")
    with pytest.raises(UsageError) as caught:
        normalize_files([path], {"EUR": 1.10}, mapping=load_user_mapping(mapping_file))
    assert caught.value.code == code
    assert str(mapping_file) in str(caught.value) and "offers.X" in str(caught.value)


def test_a_mapped_cell_left_empty_is_said_and_the_offer_still_read(tmp_path: Path) -> None:
    path = _rate_card(tmp_path)
    mapping_file = tmp_path / "meseta.yaml"
    mapping_file.write_text(
        "skip_sheets: [Rates 2025]\noffers:\n"
        "  H200 Madrid: {accelerator: \"='Rates 2026'!A6\", gpu_count: 128,"
        " price_usd_per_gpu_hour: \"='Rates 2026'!B6\", region: \"='Rates 2026'!Z99\"}\n",
        encoding="utf-8")
    (offer,) = normalize_files([path], {"EUR": 1.10},
                               mapping=load_user_mapping(mapping_file)).offers
    assert any(w["code"] == "mapping-cell-empty" and w["where"]["cell"] == "Z99"
               for w in offer.warnings)
