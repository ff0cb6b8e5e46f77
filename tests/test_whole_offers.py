"""Specification: whole offers whose required fields (accelerator, GPU count, price) are each
stated in a shape the reader knows but never together - a procurement export with more
administrative columns than field columns, a price grid priced per instance-month, options
priced per year, an e-mail with one price sentence per option. Each example is our own, in
several languages; none is a blind file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from evaltool.normalize.core import normalize_files
from evaltool.read.vocabulary import load_vocabulary


def _all(path: Path, fx: dict[str, float] | None = None) -> list[Any]:
    result = normalize_files([path], fx or {})
    assert not result.not_evaluated, result.not_evaluated
    return sorted(result.offers, key=lambda o: o.id)


@pytest.mark.parametrize("label, slot", [
    ("Nº GPU", "gpu_count"), ("N° de nodos", "node_count"), ("№ GPUs", "gpu_count"),
    ("No. of GPUs", "gpu_count"),
])
def test_the_numero_sign_counts_the_resource_after_it(label: str, slot: str) -> None:
    assert load_vocabulary().match(label) == slot


def test_a_serial_number_after_the_resource_is_no_count() -> None:
    assert load_vocabulary().match("GPU No.") != "gpu_count"


def test_a_tender_export_with_administrative_columns_is_one_offer_per_row(
        tmp_path: Path) -> None:
    """German tender export: ';' columns, decimal commas, a byte-order mark, one lot per row
    and a different bidder per lot; file number, tax id and status are no offer fields."""
    path = tmp_path / "vergabe.csv"
    path.write_text(
        "\ufeffVergabenummer;Los;Bieter;USt-IdNr;Leistungsbeschreibung;Beschleuniger;"
        "Anzahl GPU;Preis (EUR/GPU-Stunde, netto);Status\n"
        "V-2026-11;1;Beispiel Rechenzentrum GmbH;DE000000000;Training;NVIDIA H100 SXM5 80GB;"
        "64;2,35;zugelassen\n"
        "V-2026-11;2;Muster Cloud AG;DE111111111;Inferenz;NVIDIA L40S;16;0,95;zugelassen\n",
        encoding="utf-8")
    first, second = _all(path, fx={"EUR": 1.1})
    assert (first.fields.vendor, second.fields.vendor) == (
        "Beispiel Rechenzentrum GmbH", "Muster Cloud AG")
    assert (first.fields.gpu_count, second.fields.gpu_count) == (64, 16)
    assert first.fields.price_usd_per_gpu_hour == pytest.approx(2.35 * 1.1)
    assert second.fields.price_usd_per_gpu_hour == pytest.approx(0.95 * 1.1)


def test_a_comma_csv_with_one_comma_in_a_header_keeps_its_semicolons(tmp_path: Path) -> None:
    """French export: the only commas are one in a header and one decimal comma per row, as
    steady as the semicolons; the delimiter that gives the wider rows wins."""
    path = tmp_path / "marche.csv"
    path.write_text(
        "Lot;Soumissionnaire;Accélérateur;Nº GPU;Prix unitaire (EUR/GPU-heure, HT)\n"
        "1;Exemple Calcul SAS;NVIDIA A100 SXM4 80GB;32;1,12\n", encoding="utf-8")
    (offer,) = _all(path, fx={"EUR": 1.0})
    assert offer.fields.vendor == "Exemple Calcul SAS"
    assert offer.fields.gpu_count == 32
    assert offer.fields.price_usd_per_gpu_hour == pytest.approx(1.12)
