"""Specification: a value the reader is not sure of is never kept silently. Each class with
small examples of our own, in other languages and layouts than the dev sets: a region kept
with the vendor's description of the site, numbers grouped the document's way, a price a
formula computes, the scope of a bandwidth and the vendor's full name."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from workbooks import write_workbook

from evaltool.normalize.core import normalize_files
from evaltool.normalize.short_values import region_core


def _one(path: Path, fx: dict[str, float] | None = None) -> Any:
    result = normalize_files([path], fx or {"EUR": 1.1, "CAD": 0.7})
    assert not result.not_evaluated, result.not_evaluated
    (offer,) = result.offers
    return offer


def _warned(offer: Any, field: str) -> set[str]:
    return {w.get("code") for w in offer.warnings if w.get("field") == field}


# --- 1. a region is a place or a region id, never the vendor's description ---------------

@pytest.mark.parametrize(("text", "region"), [
    ("Frankfurt – Tier III, 100 % Ökostrom", "Frankfurt"),
    ("Madrid (ES); energía 100 % renovable", "Madrid (ES)"),
    ("Lisboa, Portugal — campus com energia renovável", "Lisboa, Portugal"),
    ("Sydney (SYD1), low-latency to APAC", "Sydney (SYD1)"),
    ("Oslo (eu-north-3), vannkraft 100 %", "eu-north-3"),
])
def test_a_description_is_cut_from_a_region(text: str, region: str) -> None:
    assert region_core(text) == (region, True)


@pytest.mark.parametrize("text", [
    "Dallas, TX (DAL-2)", "Frankfurt am Main (DE)", "East US 2", "us-east (N. Virginia)",
    "Lyon-Vénissieux, France", "東京 (Tokyo, Japan)", "Ústí nad Labem", "US-Central (Kansas City)",
    "asia-southeast1 (Singapore)", "Reykjavik, IS"])
def test_a_place_is_kept_as_written(text: str) -> None:
    assert region_core(text) == (text, False)


@pytest.mark.parametrize(("label", "value"), [
    ("Standort", "Frankfurt (eu-central-2), Tier III, 100 % Ökostrom"),
    ("Ubicación", "Madrid (eu-central-2); energía 100 % renovable"),
])
def test_a_region_cell_with_a_description_keeps_the_region_id_and_warns(
        tmp_path: Path, label: str, value: str) -> None:
    path = write_workbook(tmp_path / "offer.xlsx", {"Offer": [
        ["Vendor", "Example Cloud GmbH"], ["GPU", "NVIDIA H100 SXM5 80GB"],
        ["Number of GPUs", 64], ["Price per GPU-hour", "USD 2.10"], [label, value]]})
    offer = _one(path)
    assert offer.fields.region == "eu-central-2"
    assert "region-cut-from-description" in _warned(offer, "region")
