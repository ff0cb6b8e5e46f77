"""Specification: the description of a server line states one server's network cards and
power, in any language (our own examples, never a blind file)."""

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


def test_a_german_purchase_line_states_the_servers_cards_and_power(tmp_path: Path) -> None:
    path = write_workbook(tmp_path / "kauf.xlsx", {"Angebot": [
        ["Anbieter", "Beispiel Systemhaus GmbH"],
        ["Pos.", "Beschreibung", "Menge", "Einzelpreis (EUR)", "Gesamt (EUR)"],
        [1, "GPU-Server 8U: 8 x NVIDIA H200 141GB SXM, 2 x Intel Xeon 8568Y+, "
            "4 x ConnectX-7 400Gb/s NDR, Leistungsaufnahme max. 10,2 kW", 2, 310000, 620000],
        [2, "Installation vor Ort", 1, 5000, 5000],
        ["", "", "", "Summe netto", 625000]]})
    offer = _one(path)
    assert offer.fields.inter_node_gbit_s_per_node == 1600
    assert offer.fields.inter_node_gbit_s_per_gpu == 200  # 4 cards shared by 8 GPUs
    assert offer.fields.power_kw_per_node == pytest.approx(10.2)


def test_a_spanish_rental_line_states_the_servers_network(tmp_path: Path) -> None:
    path = write_workbook(tmp_path / "alquiler.xlsx", {"Presupuesto": [
        ["Proveedor", "Ejemplo Nube S.L."],
        ["Concepto", "Cantidad", "Unidad", "Precio unitario", "Importe"],
        ["Servidor dedicado: 4 × NVIDIA L40S 48 GB, 2 × AMD EPYC 9254, 4 × 100 GbE",
         3, "servidor/mes", "4.000,00 €", "12.000,00 €"]]})
    offer = _one(path)
    assert offer.fields.inter_node_gbit_s_per_node == 400
    assert offer.fields.inter_node_gbit_s_per_gpu == 100  # one card per GPU
