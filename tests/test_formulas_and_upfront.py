"""Specification: money a workbook states but never prices.

Formula cells saved without a value (workbooks written by scripts and CPQ exports) are worked
out where they are plain arithmetic over the cells they name, and said; any other formula stays
empty. An upfront payment on top of a recurring rate (the offer's own total contract value is
the recurring charges plus the upfront) is spread over the term into the effective price per
GPU-hour, at 730 hours a month; a prepayment inside the total is not added twice.
Small examples of our own."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from evaltool.normalize.core import normalize_files
from evaltool.normalize.upfront import amortised_price
from evaltool.read.cells import SheetGrid
from evaltool.read.formulas import evaluate_formulas


def _grid(rows: list[list[Any]], formulas: dict[tuple[int, int], str],
          name: str = "Quote") -> SheetGrid:
    return SheetGrid(file="q.xlsx", name=name, rows=rows,
                     formula_cells_without_value=set(formulas))


def test_arithmetic_over_cells_is_worked_out_and_said() -> None:
    grid = _grid([["List", 2.7, None], ["Discount", 0.37, 0.55], ["Net", "", ""],
                  ["Qty", 256, None], ["Monthly", "", ""]],
                 {(2, 1): "$B$1*(1-B2)", (2, 2): "$B$1*(1-C2)", (4, 1): "B3*$B$4*730",
                  (4, 2): "ROUND(C3*$B$4*730,2)"})
    evaluate_formulas([grid], {"Quote": {(2, 1): "$B$1*(1-B2)", (2, 2): "$B$1*(1-C2)",
                                         (4, 1): "B3*$B$4*730",
                                         (4, 2): "ROUND(C3*$B$4*730,2)"}})
    assert grid.rows[2][1] == pytest.approx(1.701)
    assert grid.rows[2][2] == pytest.approx(1.215)
    assert grid.rows[4][1] == pytest.approx(1.701 * 256 * 730)  # a formula of formulas
    assert grid.rows[4][2] == pytest.approx(227_059.2)
    assert not grid.formula_cells_without_value
    (said,) = [p for p in grid.problems if p.code == "formula-evaluated"]
    assert said.params["count"] == 4


def test_sums_ranges_and_other_sheets() -> None:
    lines = _grid([["Server", 4, 250_000.0, ""], ["Switch", 2, 40_000.0, ""],
                   ["Subtotal", None, None, ""], ["Discount", None, 0.075, None],
                   ["Total", None, None, ""]],
                  {(0, 3): "B1*C1", (1, 3): "B2*C2", (2, 3): "SUM(D1:D2)",
                   (4, 3): "D3*(1-C4)"}, name="Angebot")
    summary = _grid([["Capex", ""]], {(0, 1): "'Angebot'!D5"}, name="Summary")
    evaluate_formulas([lines, summary], {
        "Angebot": {(0, 3): "B1*C1", (1, 3): "B2*C2", (2, 3): "SUM(D1:D2)",
                    (4, 3): "D3*(1-C4)"},
        "Summary": {(0, 1): "'Angebot'!D5"}})
    assert lines.rows[4][3] == pytest.approx(1_080_000 * 0.925)
    assert summary.rows[0][1] == pytest.approx(1_080_000 * 0.925)


@pytest.mark.parametrize("formula", [
    "VLOOKUP(A1,lists!A1:B3,2,FALSE)",  # a lookup in a sheet the workbook lacks
    "A1*2",  # A1 holds text
    "B1/0",
    "[1]Prices!B2*3",  # an external workbook
    "B1+",  # malformed
    "C1",  # a circular reference
])
def test_anything_but_arithmetic_over_numbers_stays_empty(formula: str) -> None:
    grid = _grid([["text", 5, ""]], {(0, 2): formula})
    evaluate_formulas([grid], {"Quote": {(0, 2): formula}})
    assert grid.rows[0][2] == ""
    assert (0, 2) in grid.formula_cells_without_value


def test_a_private_offer_with_uncached_totals(tmp_path: Path) -> None:
    from openpyxl import Workbook

    wb = Workbook()
    ws = wb.active
    ws.title = "Offer"
    for row in [["Vendor", "Example Hyperscale Inc."],
                ["Instance type", "gx8.h200 (8x NVIDIA H200 141GB)"],
                ["Instance count", 8],
                ["Term", "12 months"],
                [],
                ["Payment option", "Upfront (USD)", "Per instance-month (USD)",
                 "Total contract value (USD)"],
                ["All recurring", 0, 30_000, "=B7+C7*8*12"],
                ["Partial upfront", 600_000, 24_000, "=B8+C8*8*12"]]:
        ws.append(row)
    path = tmp_path / "private_offer.xlsx"
    wb.save(path)
    result = normalize_files([path], {})
    assert not result.not_evaluated, result.not_evaluated
    by_name = {o.fields.offer_name: o.fields for o in result.offers}
    recurring = by_name["All recurring"]
    assert recurring.price_usd_per_gpu_hour == pytest.approx(30_000 / (8 * 730))
    assert recurring.min_commit_usd == pytest.approx(30_000 * 8 * 12)
    partial = by_name["Partial upfront"]
    assert partial.upfront_usd == 600_000
    assert partial.price_usd_per_gpu_hour == pytest.approx(
        24_000 / (8 * 730) + 600_000 / (64 * 730 * 12))


def test_the_total_says_whether_an_upfront_is_on_top_or_inside() -> None:
    base = {"compute_price_usd_per_gpu_hour": 2.0, "gpu_count": 64, "term_months": 12,
            "offer_kind": "rent"}
    hours = 64 * 730 * 12
    on_top = amortised_price({**base, "upfront_usd": 100_000.0,
                              "min_commit_usd": 2.0 * hours + 100_000})
    assert on_top is not None and on_top[0] == pytest.approx(2.0 + 100_000 / hours)
    # "15% of TCV due at signature": a prepayment of the same charges, never added twice.
    assert amortised_price({**base, "upfront_usd": 0.15 * 2.0 * hours,
                            "min_commit_usd": 2.0 * hours}) is None
    # No total: nothing says which; the quoted rate stays.
    assert amortised_price({**base, "upfront_usd": 100_000.0}) is None


def test_a_terms_section_states_the_commitment_and_the_prepayment(tmp_path: Path) -> None:
    from workbooks import write_sheet

    path = write_sheet(tmp_path / "terms.xlsx", [
        ["Example Rack Cloud"],
        ["Vendor", "Example Rack Cloud LLC"],
        ["System", "NVIDIA GB200 NVL72"],
        ["GPU count", 144],
        ["Price", "USD 200,000 per rack per month"],
        [],
        ["Commercial terms"],
        ["Term", "24 months"],
        ["Compute commitment (2 racks × 24 months)", "USD 9,600,000.00"],
        ["Prepayment at signature (10% of commitment)", "USD 960,000.00"],
    ])
    result = normalize_files([path], {})
    assert not result.not_evaluated, result.not_evaluated
    (offer,) = result.offers
    f = offer.fields
    assert f.min_commit_usd == pytest.approx(9_600_000)
    assert f.upfront_usd == pytest.approx(960_000)
    # The prepayment is inside the commitment: the rate is not raised by it.
    assert f.price_usd_per_gpu_hour == pytest.approx(200_000 / 72 / 730)
