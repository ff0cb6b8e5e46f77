"""Specification: a price per node (server, instance) and hour in any language the vendors write,
with the GPUs of one node stated elsewhere in the document ("4× NVIDIA H100 SXM5 80 GB" under a
per-node label, "8 x 8-GPU servers"), becomes a price per GPU-hour. Small examples of our own."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from workbooks import write_sheet

from evaltool.normalize.core import normalize_files
from evaltool.normalize.values import parse_money


@pytest.mark.parametrize(("text", "per"), [
    ("260 Kč za uzlovou hodinu", ("node", "hour")),  # Czech: an adjective names the node
    ("1 200 ₽ за узел-час", ("node", "hour")),  # Russian
    ("90 000 ₽ в месяц за сервер", ("node", "month")),
    ("480 Ft / GPU-óra", ("gpu", "hour")),  # Hungarian
    ("30 € je Knotenstunde", ("node", "hour")),  # German compound
    ("2,10 € par nœud-heure", ("node", "hour")),
    ("5 EUR per GPU-uur", ("gpu", "hour")),
])
def test_node_and_gpu_hours_in_more_languages(text: str, per: tuple[str, ...]) -> None:
    assert parse_money(text).per == per


def _one(path: Path, fx: dict[str, float]) -> Any:
    result = normalize_files([path], fx)
    assert not result.not_evaluated, result.not_evaluated
    (offer,) = result.offers
    return offer


def test_gpus_of_a_node_under_a_per_node_label(tmp_path: Path) -> None:
    # A sectioned table (section | parameter | value | note) in Polish; the node's GPUs are
    # written as "N × <accelerator>" under a label that says "per node".
    path = write_sheet(tmp_path / "pl.xlsx", [
        ["Centrum Obliczeniowe Przykład Sp. z o.o."],
        [],
        ["Sekcja", "Parametr", "Wartość", "Uwagi"],
        ["Zasoby", "Liczba węzłów", 12, "dedykowane"],
        [None, "GPU na węzeł", "8 × NVIDIA H200 141 GB", "96 GPU łącznie"],
        ["Cena", "Stawka", "120 zł za węzeł za godzinę", "netto"],
    ])
    offer = _one(path, {"PLN": 0.25})
    f = offer.fields
    assert (f.node_count, f.gpus_per_node, f.gpu_count) == (12, 8, 96)
    assert f.price_usd_per_gpu_hour == pytest.approx(120 / 8 * 0.25)


def test_a_russian_node_hour_quote(tmp_path: Path) -> None:
    path = write_sheet(tmp_path / "ru.xlsx", [
        ["Поставщик", "ООО Пример Облако"],
        ["Ускоритель", "NVIDIA H100 SXM 80GB"],
        ["Количество узлов", 4],
        ["GPU на узел", "8× NVIDIA H100 SXM5 80 GB"],
        ["Цена", "2 400 RUB за узел-час"],
    ])
    offer = _one(path, {"RUB": 0.011})
    assert offer.fields.gpu_count == 32
    assert offer.fields.price_usd_per_gpu_hour == pytest.approx(2400 / 8 * 0.011)


def test_a_short_value_under_an_unknown_label_states_its_facts(tmp_path: Path) -> None:
    # Labels in a language the vocabulary lacks ("Ütemező" = scheduler, "Tárhely" = storage):
    # the value names the thing itself, so it is read by its shape.
    path = write_sheet(tmp_path / "hu.xlsx", [
        ["Szállító", "Példa Számítás Kft."],
        ["Gyorsító", "NVIDIA H100 SXM 80GB"],
        ["GPU összesen", 64],
        ["Díj", "3,10 € / GPU-óra"],
        ["Ütemező", "Slurm"],
        ["Tárhely", "Lustre, 200 TB"],
    ])
    offer = _one(path, {"EUR": 1.08})
    assert offer.fields.orchestrator == "slurm"
    assert offer.fields.storage_type == "lustre"


def test_a_term_followed_by_how_it_is_billed(tmp_path: Path) -> None:
    path = write_sheet(tmp_path / "pl_term.xlsx", [
        ["Dostawca", "Przykład Obliczenia sp. z o.o."],
        ["Akcelerator", "NVIDIA H100 SXM 80GB"],
        ["Liczba GPU", 64],
        ["Cena", "12,00 zł / GPU / godz."],
        ["Okres umowy",
         "12 miesięcy, rozliczenie miesięczne (ok. 560 640,00 zł / mies. przy 730 h)"],
    ])
    assert _one(path, {"PLN": 0.25}).fields.term_months == 12


@pytest.mark.parametrize(("rows", "fx", "per_gpu_hour"), [
    # An allocation decision: the node-hours granted and their total, no rate (Czech).
    ([["Poskytovatel", "Příklad Centrum"], ["Akcelerátor", "NVIDIA H100 SXM 80 GB"],
      ["Počet uzlů", 10], ["GPU na uzel", "4× NVIDIA H100 SXM5 80 GB"],
      ["Přidělené uzlové hodiny", "43 800"], ["Celkem", "11 388 000 Kč"]],
     {"CZK": 0.043}, 11_388_000 / 43_800 / 4 * 0.043),
    # A prepaid block of GPU-hours (English).
    ([["Provider", "Example HPC Centre"], ["Accelerator", "NVIDIA H100 SXM"],
      ["Total GPUs", 64], ["Awarded", "100,000 GPU-hours"], ["Total fee", "EUR 210,000"]],
     {"EUR": 1.08}, 210_000 / 100_000 * 1.08),
])
def test_a_total_over_the_hours_allocated_is_the_rate(
        tmp_path: Path, rows: list[list[object]], fx: dict[str, float],
        per_gpu_hour: float) -> None:
    offer = _one(write_sheet(tmp_path / "alloc.xlsx", rows), fx)
    assert offer.fields.price_usd_per_gpu_hour == pytest.approx(per_gpu_hour)
    assert any(w["code"] == "price-from-total-over-hours" for w in offer.warnings)
