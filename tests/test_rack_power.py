"""Specification: a power figure stated per rack counts once per rack in the running cost of
owned hardware, and a bare number in a quantity column yields to the figure written with its
unit beside it (our own examples, never a blind file)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from workbooks import write_workbook

from evaltool.normalize.core import normalize_files
from evaltool.normalize.rack_power import says_per_rack


def _one(path: Path) -> Any:
    result = normalize_files([path], {"EUR": 1.1})
    assert not result.not_evaluated, result.not_evaluated
    (offer,) = result.offers
    return offer


@pytest.mark.parametrize(("label", "per_rack"), [
    ("Contracted power per rack", True),
    ("Leistung je Rack (kW)", True),
    ("Puissance par baie", True),
    ("Power per node", False),
    ("Power per server in the rack", False),
])
def test_a_power_label_says_per_rack(label: str, per_rack: bool) -> None:
    assert says_per_rack(label) is per_rack


def test_a_german_calculator_counts_the_racks_power_once_per_rack(tmp_path: Path) -> None:
    # 2 racks x 120 kW x 150 EUR/kW-month = 36,000 EUR/month of hosting
    path = write_workbook(tmp_path / "kauf.xlsx", {"Kalkulation": [
        ["Anbieter", "Beispiel Rechenzentrum GmbH"], ["Angebotsart", "Kauf"],
        ["GPU", "NVIDIA GB200"], ["Anzahl Racks", 2], ["GPUs je Rack", 72],
        ["Anzahl GPUs", 144], ["Capex", "EUR 6.000.000,00"],
        ["Leistungsaufnahme je Rack", "120 kW"], ["Colocation-Preis je kW und Monat", "EUR 150,00"],
        ["Abschreibungsdauer", "48 Monate"]]})
    offer = _one(path)
    monthly = 6_000_000 / 48 + 2 * 120 * 150
    assert offer.fields.price_usd_per_gpu_hour == pytest.approx(
        monthly * 1.1 / (144 * 730), rel=1e-3)


def test_a_bare_quantity_yields_to_the_bandwidth_beside_it(tmp_path: Path) -> None:
    path = write_workbook(tmp_path / "bom.xlsx", {
        "Offer": [["Vendor", "Example Cloud"], ["GPU", "NVIDIA H100 SXM5 80GB"],
                  ["Number of GPUs", 64], ["Price per GPU-hour", "USD 2.10"]],
        "BOM": [["Item", "Qty", "Detail"],
                ["NVLink switch", 4, "NVLink 4: 900 GB/s per GPU"],
                ["Compute node", 8, "8 x H100 SXM5 80GB"]]})
    offer = _one(path)
    assert offer.fields.intra_node_gbyte_s_per_gpu in (None, 900)
    assert offer.fields.intra_node_gbyte_s_per_gpu != 4


def test_a_french_quote_counts_the_power_of_each_bay(tmp_path: Path) -> None:
    # 3 bays x 40 kW x 200 EUR/kW-month = 24,000 EUR/month of hosting
    path = write_workbook(tmp_path / "achat.xlsx", {"Devis": [
        ["Fournisseur", "Exemple Calcul SAS"], ["Type d'offre", "Achat"],
        ["GPU", "NVIDIA H100 SXM5 80GB"], ["Nombre de baies", 3], ["Nombre de GPU", 96],
        ["Capex", "EUR 3.000.000,00"], ["Consommation par baie", "40 kW"],
        ["Hébergement par kW et par mois", "EUR 200,00"], ["Durée d'amortissement", "36 mois"]]})
    offer = _one(path)
    assert offer.fields.price_usd_per_gpu_hour == pytest.approx(
        (3_000_000 / 36 + 3 * 40 * 200) * 1.1 / (96 * 730), rel=1e-3)
