"""Specification: a price cell that points to another sheet ("see sheet 'Rates'", "siehe Blatt
Preisliste") takes the rate that sheet states for the offer: the row its own cells name (its
category, its tier), said; never a row picked by guess. An allocation in GPU-hours is no count
of GPUs. Small examples of our own."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from workbooks import write_workbook

from evaltool.normalize.core import normalize_files
from evaltool.normalize.shapes import count_facts


def _decision(category: str, see: str, rates_sheet: str, head: list[str]) -> dict[str, Any]:
    return {
        "Decision": [
            ["Example National Compute Centre"],
            ["Category", category],
            ["Nodes", 16],
            ["GPUs per node", "4× NVIDIA H100 SXM5 80 GB"],
            ["Awarded", "100 000 GPU-hours"],
            ["Fee", see],
        ],
        rates_sheet: [
            ["Tariff 2027 (net)"],
            [],
            head,
            ["academic", "0 EUR", "GPU-hour", "open research"],
            ["industrial (cost recovery)", "2.10 EUR", "GPU-hour", "billed monthly"],
            ["industrial, priority queue", "3.20 EUR", "GPU-hour", "not part of this decision"],
        ],
    }


@pytest.mark.parametrize(("see", "sheet", "head"), [
    ("see sheet 'Rates'", "Rates", ["User category", "Price", "Unit", "Notes"]),
    ("siehe Blatt Preisliste", "Preisliste", ["Nutzerkategorie", "Preis", "Einheit",
                                              "Bemerkung"]),
])
def test_the_rate_the_offer_s_category_names(tmp_path: Path, see: str, sheet: str,
                                              head: list[str]) -> None:
    path = write_workbook(tmp_path / "alloc.xlsx",
                          _decision("industrial (cost recovery fee)", see, sheet, head))
    result = normalize_files([path], {"EUR": 1.08})
    assert not result.not_evaluated, result.not_evaluated
    (offer,) = result.offers
    f = offer.fields
    assert f.gpu_count == 64  # 16 nodes x 4, never the 100,000 GPU-hours awarded
    assert f.price_usd_per_gpu_hour == pytest.approx(2.10 * 1.08)
    assert any(w["code"] == "rate-from-referenced-sheet" for w in offer.warnings)


def test_no_row_is_guessed_when_the_offer_names_none(tmp_path: Path) -> None:
    path = write_workbook(tmp_path / "alloc.xlsx", _decision(
        "to be confirmed", "see sheet 'Rates'", "Rates", ["User category", "Price", "Unit"]))
    result = normalize_files([path], {"EUR": 1.08})
    (failed,) = result.not_evaluated
    codes = {e["code"] for e in failed.errors}
    assert "required-field-unreadable" in codes or "required-field-missing" in codes


@pytest.mark.parametrize("text", ["250 000 GPU-óra", "100,000 GPU-hours", "10 000 GPU-timer",
                                  "50 000 GPU-Stunden"])
def test_gpu_hours_are_no_count_of_gpus(text: str) -> None:
    assert "gpu_count" not in count_facts(text)
