"""Specification: an upfront stated per instance covers every instance of the offer, and an
option paid all up front (hourly rate 0) costs its upfront spread over the term per GPU-hour.
Our own examples (never a blind file)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from workbooks import write_workbook

from evaltool.normalize.all_upfront import per_unit
from evaltool.normalize.core import normalize_files


def _offers(path: Path, fx: dict[str, float] | None = None) -> list[Any]:
    result = normalize_files([path], fx or {})
    assert not result.not_evaluated, result.not_evaluated
    return sorted(result.offers, key=lambda o: o.fields.offer_name or "")


@pytest.mark.parametrize(("label", "unit"), [
    ("Upfront payment (per instance)", "node"), ("Vorauszahlung je Knoten", "node"),
    ("Paiement initial par GPU", "gpu"), ("Upfront / server", "node"),
    ("Upfront payment (total, 16 instances)", None), ("Upfront", None),
])
def test_an_upfront_label_says_what_one_figure_covers(label: str, unit: str | None) -> None:
    assert per_unit(label) == unit


def test_an_all_upfront_option_is_priced_by_its_upfront_over_the_term(tmp_path: Path) -> None:
    # German reserved pricing, two options in columns; the upfront is stated per node only.
    path = write_workbook(tmp_path / "reserviert.xlsx", {"Preise": [
        ["Beispiel Cloud AG - reservierte Kapazität, 16 Knoten mit je 8 x NVIDIA H100 SXM"],
        ["Anzahl Knoten", 16],
        ["GPUs je Knoten", 8],
        [],
        ["", "Option 1", "Option 2"],
        ["Modell", "1 Jahr, ohne Vorauszahlung", "1 Jahr, komplett im Voraus"],
        ["Laufzeit", "12 Monate", "12 Monate"],
        ["Vorauszahlung je Knoten (USD)", 0, 175200],
        ["Preis je GPU-Stunde (USD)", 2.40, 0],
    ]})
    first, second = _offers(path)
    assert first.fields.price_usd_per_gpu_hour == pytest.approx(2.40)
    assert second.fields.upfront_usd == pytest.approx(175200 * 16)
    # 175,200 x 16 nodes / (128 GPUs x 730 h x 12 months)
    assert second.fields.price_usd_per_gpu_hour == pytest.approx(175200 * 16 / (128 * 730 * 12))
    assert any(w.get("code") == "upfront-amortised" for w in second.warnings)


def test_a_per_gpu_upfront_agrees_with_the_total_beside_it(tmp_path: Path) -> None:
    path = write_workbook(tmp_path / "upfront.xlsx", {"Offer": [
        ["Vendor", "Example Cloud"], ["GPU", "NVIDIA H200"], ["Number of GPUs", 64],
        ["Term", "36 months"],
        ["Upfront per GPU", "USD 60,000"], ["Upfront (total)", "USD 3,840,000"],
        ["Price per GPU-hour", "USD 0.00"]]})
    (offer,) = _offers(path)
    assert offer.fields.upfront_usd == pytest.approx(3_840_000)
    assert not any(w.get("code") == "value-conflict" and w.get("field") == "upfront_usd"
                   for w in offer.warnings)
    assert offer.fields.price_usd_per_gpu_hour == pytest.approx(3_840_000 / (64 * 730 * 36))


def test_an_option_that_says_it_is_all_upfront_is_priced_by_its_upfront(tmp_path: Path) -> None:
    # French: the all-upfront option states no hourly rate at all.
    path = write_workbook(tmp_path / "reserve.xlsx", {"Offre": [
        ["Fournisseur", "Exemple Cloud SAS"], ["GPU", "NVIDIA H100 SXM"],
        ["Nombre de GPU", 64], ["Durée", "12 mois"],
        ["Formule", "Réservation 1 an, entièrement prépayé"],
        ["Paiement initial (total)", "EUR 1 121 280"]]})
    (offer,) = _offers(path, {"EUR": 1.0})
    assert offer.fields.price_usd_per_gpu_hour == pytest.approx(1_121_280 / (64 * 730 * 12))
    assert any(w.get("code") == "upfront-amortised" for w in offer.warnings)


def test_a_one_off_fee_without_a_rate_is_no_price(tmp_path: Path) -> None:
    # A setup fee alone never becomes the offer's price per GPU-hour.
    path = write_workbook(tmp_path / "setup.xlsx", {"Offer": [
        ["Vendor", "Example Cloud"], ["GPU", "NVIDIA H100 SXM"], ["Number of GPUs", 64],
        ["Term", "12 months"], ["Upfront (setup fee)", "USD 5,000"]]})
    result = normalize_files([path], {})
    assert not result.offers and result.not_evaluated
