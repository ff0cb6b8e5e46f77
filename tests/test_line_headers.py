"""Specification: a line-item table whose price column's header states the basis ("Cena za
rack / měsíc", "Price per node-hour") prices every line without a unit of its own by it; the
abbreviated headers of German quotes (Pos. | Menge | Einheit | Bezeichnung | EP netto | GP netto)
are a line-item table, and its totals saved as formulas without values are worked out.
Small examples of our own."""

from __future__ import annotations

from pathlib import Path

import pytest
from openpyxl import Workbook
from workbooks import write_sheet

from evaltool.normalize.core import normalize_files


def test_the_price_header_states_the_basis_of_each_line(tmp_path: Path) -> None:
    path = write_sheet(tmp_path / "cz.xlsx", [
        ["Příklad Cloud s.r.o."],
        ["Položka", "Množství", "Cena za uzel / hodinu", "Celkem"],
        ["Server 8× NVIDIA H100 SXM5 80 GB", "4 uzly", "2 400 Kč", "9 600 Kč"],
    ])
    result = normalize_files([path], {"CZK": 0.043})
    assert not result.not_evaluated, result.not_evaluated
    (offer,) = result.offers
    assert offer.fields.offer_kind == "rent"  # a rate per node-hour, never a purchase
    assert offer.fields.gpu_count == 32
    assert offer.fields.price_usd_per_gpu_hour == pytest.approx(2400 / 8 * 0.043)


def test_a_german_bom_with_formula_totals(tmp_path: Path) -> None:
    wb = Workbook()
    ws = wb.active
    ws.title = "Angebot"
    for row in [["Beispiel Systemhaus GmbH"], ["Gültig bis:", "31.12.2026"], [],
                ["Pos.", "Menge", "Einheit", "Bezeichnung", "EP netto (€)", "GP netto (€)"],
                [1, 2, "Stk.", "GPU-Server HGX H200 8-GPU (8x NVIDIA H200 141GB)", 300000,
                 "=B5*E5"],
                [2, 1, "pausch.", "Installation und Inbetriebnahme", 5000, "=B6*E6"],
                [None, None, None, "Summe netto", None, "=SUM(F5:F6)"],
                [], ["Abschreibungsdauer", 36]]:
        ws.append(row)
    path = tmp_path / "angebot.xlsx"
    wb.save(path)
    result = normalize_files([path], {"EUR": 1.08})
    assert not result.not_evaluated, result.not_evaluated
    (offer,) = result.offers
    f = offer.fields
    assert f.offer_kind == "purchase" and f.gpu_count == 16
    assert f.capex_usd == pytest.approx(605_000 * 1.08)
    assert any(w["code"] == "formula-evaluated" for w in offer.warnings)
