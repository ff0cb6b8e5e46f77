"""Specification: an upfront payment stated as a share of the contract value is worked out
from the offer's price, GPUs and term, and warned (our own examples, never a blind file)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from workbooks import write_workbook

from evaltool.normalize.core import normalize_files


def _one(path: Path) -> Any:
    result = normalize_files([path], {"EUR": 1.1})
    assert not result.not_evaluated, result.not_evaluated
    (offer,) = result.offers
    return offer


def test_a_german_deposit_as_a_share_of_the_contract_value(tmp_path: Path) -> None:
    path = write_workbook(tmp_path / "anzahlung.xlsx", {"Angebot": [
        ["Anbieter", "Beispiel Rechenzentrum GmbH"], ["GPU", "NVIDIA H100 SXM5 80GB"],
        ["Anzahl GPUs", 64], ["Preis pro GPU-Stunde", "EUR 2,00"], ["Laufzeit", "12 Monate"],
        [], ["Zahlungsbedingungen: Anzahlung 20 % des Vertragswerts bei Unterzeichnung."]]})
    offer = _one(path)
    assert offer.fields.upfront_usd == pytest.approx(0.20 * 2.2 * 64 * 730 * 12)
    assert any(w.get("code") == "upfront-from-share-of-contract" for w in offer.warnings)


def test_a_french_deposit_names_its_own_months(tmp_path: Path) -> None:
    path = write_workbook(tmp_path / "acompte.xlsx", {"Offre": [
        ["Fournisseur", "Exemple Calcul SAS"], ["GPU", "NVIDIA H100 SXM5 80GB"],
        ["Nombre de GPU", 32], ["Prix par GPU-heure", "EUR 2,50"], ["Durée", "24 mois"],
        [], ["Un acompte de 10 % de la valeur du contrat est dû à la signature."]]})
    offer = _one(path)
    assert offer.fields.upfront_usd == pytest.approx(0.10 * 2.75 * 32 * 730 * 24)


def test_a_stated_upfront_amount_wins(tmp_path: Path) -> None:
    path = write_workbook(tmp_path / "stated.xlsx", {"Offer": [
        ["Vendor", "Example Cloud"], ["GPU", "NVIDIA H100 SXM5 80GB"], ["Number of GPUs", 64],
        ["Price per GPU-hour", "USD 2.00"], ["Term", "12 months"],
        ["Upfront payment", "USD 50,000"], [], ["A 20% deposit of the contract value applies."]]})
    assert _one(path).fields.upfront_usd == pytest.approx(50_000)
