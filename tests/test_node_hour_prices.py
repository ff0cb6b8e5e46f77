"""A price per node- or instance-hour is a price, whatever language writes the basis and
whichever cell holds it: a one-word compound ("uzlohodinu", "węzłogodzinę", "узлочас") is
a node-hour, and a unit cell between the value and a remark is the value's unit."""

from __future__ import annotations

from pathlib import Path

import pytest
from workbooks import write_workbook

from evaltool.normalize.core import normalize_files
from evaltool.normalize.values import parse_money, price_per_gpu_hour


@pytest.mark.parametrize(("text", "per"), [
    ("48 zł za węzłogodzinę netto", ("node", "hour")),   # Polish: węzł-o-godzina
    ("1 500 ₽ за узлочас", ("node", "hour")),             # Russian: узл-о-час
    ("900 Kč za uzlohodinu", ("node", "hour")),           # Czech: uzl-o-hodina
    ("2,50 EUR pro Knotenstunde", ("node", "hour")),      # German: no linking vowel
    ("3 USD per GPUh", ("gpu", "hour")),
])
def test_a_one_word_node_hour_is_a_node_hour(text: str, per: tuple[str, ...]) -> None:
    assert parse_money(text).per == per


def test_a_word_that_only_looks_like_a_compound_is_no_basis() -> None:
    # "za" is an everyday word: an unknown word after it leaves the price without a time
    money = parse_money("900 Kč za kohodinu")
    assert "node" not in money.per


def test_a_node_hour_compound_divides_by_the_gpus_per_node() -> None:
    money = parse_money("48 zł za węzłogodzinę")
    assert price_per_gpu_hour(money, 8).value == pytest.approx(6.0)


@pytest.mark.parametrize(("rows", "fx", "want"), [
    # French, options stacked: value | unit | remark on one row
    ([["Offre de capacité — Exemple Nuage SAS"],
      ["Fournisseur", "Exemple Nuage SAS"],
      ["Accélérateur", "NVIDIA H100 SXM"],
      ["Nombre d'instances", 4, "instances", "8 GPU par instance"],
      ["Tarif engagé", 40.0, "EUR / instance-heure", "remise de 20 %"],
      ["Durée", 12, "mois"]],
     {"EUR": 1.1}, 40.0 * 1.1 / 8),
    # English, CAD, a remark column
    ([["Private offer — Example Cloud Inc."],
      ["Provider", "Example Cloud Inc."],
      ["Accelerator", "NVIDIA H200"],
      ["Instances committed", 2, "instances", "8 GPUs per instance"],
      ["Committed rate", 64.0, "CAD / instance-hour", "Discounted from on-demand"],
      ["Commitment term", 12, "months"]],
     {"CAD": 0.75}, 64.0 * 0.75 / 8),
])
def test_a_unit_cell_between_a_rate_and_a_remark_is_the_rate_s_unit(
        tmp_path: Path, rows: list[list[object]], fx: dict[str, float], want: float) -> None:
    path = write_workbook(tmp_path / "offer.xlsx", {"Offer": rows})
    result = normalize_files([path], fx)
    assert not result.not_evaluated, result.not_evaluated
    (offer,) = result.offers
    assert offer.fields.price_usd_per_gpu_hour == pytest.approx(want, rel=1e-3)


@pytest.mark.parametrize(("label", "value", "fx", "want", "by_basis"), [
    ("Mensualidad por nodo", "9.125,00 €", {"EUR": 1.1}, 9125.0 * 1.1 / 8 / 730, True),
    ("Mensualité par nœud", "9 125,00 €", {"EUR": 1.1}, 9125.0 * 1.1 / 8 / 730, True),
    ("Monthly fee per server", "USD 7,300.00", {}, 7300.0 / 8 / 730, False),
])
def test_a_fee_for_one_period_per_node_is_a_price_on_that_basis(
        tmp_path: Path, label: str, value: str, fx: dict[str, float], want: float,
        by_basis: bool) -> None:
    # A label no vocabulary knows is read by its basis alone, and warned.
    # A printed-page proposal: configuration lines, then the fee per node and the node count
    path = write_workbook(tmp_path / "offer.xlsx", {"Proposal": [
        ["Example Compute S.L."],
        ["1. Configuration"],
        ["4 nodes", "Server with 8 × NVIDIA H100 SXM 80 GB"],
        ["2. Pricing"],
        [label, value],
        ["Nodes", "4"],
        ["Term", "12 months"],
    ]})
    result = normalize_files([path], fx)
    assert not result.not_evaluated, result.not_evaluated
    (offer,) = result.offers
    assert offer.fields.price_usd_per_gpu_hour == pytest.approx(want, rel=1e-3)
    assert any(w.get("code") == "price-by-basis-label" for w in offer.warnings) == by_basis


def test_an_uptime_per_node_is_no_price() -> None:
    from evaltool.read.basis_labels import basis_price_label

    assert basis_price_label("Monthly uptime per node", "99,9 %") is None
    assert basis_price_label("Hours per node per month", "730") is None


@pytest.mark.parametrize("clause", ["Acesso root: não.", "Root-adgang: ikke inkluderet",
                                    "Root: niet beschikbaar"])
def test_root_refused_in_portuguese_danish_and_dutch(clause: str) -> None:
    from evaltool.normalize.phrases import root_granted

    assert root_granted(clause) is False
