"""The rows of a line-item table: numbers in its cells, the rows between its lines
(section headings, subtotals, blank rows) and the option each section names."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from evaltool.errors import EvaltoolError
from evaltool.estimate.catalog import recognise_accelerator
from evaltool.read.blocks import enumerates_options
from evaltool.read.cells import LineItem, RawRecord, SheetGrid, is_empty
from evaltool.read.headers import NOTE_HEADERS
from evaltool.read.text import first_number
from evaltool.read.vocabulary import Vocabulary, normalise_label


def number(value: Any) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, str) and value.strip():
        return first_number(value)
    return None


def quantity(value: Any) -> float | None:
    """A line's quantity: '1.000' and '1,000' are a thousand (a quantity is never written
    with three decimals), other text as a number."""
    if isinstance(value, str) and re.fullmatch(r"\s*\d{1,3}(?:[.,\u202f' ]\d{3})+\s*", value):
        return float(re.sub(r"\D", "", value))
    return number(value)


def resumes(grid: SheetGrid, r: int, roles: dict[str, int]) -> int | None:
    """The next line of the table within three rows from ``r``, when the rows between hold
    only a section heading ("A. Hardware (engangskøb)", "Wariant II – umowa na 24
    miesiące"), a subtotal ("Hardware i alt | 53 300 000", its label perhaps in the price
    column) or nothing."""
    qty_col, price_col = roles.get("quantity"), roles.get("unit_price")
    for k in range(r, min(r + 4, len(grid.rows))):
        qty = quantity(grid.value(k, qty_col)) if qty_col is not None else None
        price = number(grid.value(k, price_col)) if price_col is not None else None
        if qty is not None and price is not None:
            return k
        if qty is not None or price is not None or (
                qty_col is not None and not is_empty(grid.value(k, qty_col))):
            return None  # a number without its partner, or a new header: not this table
    return None


def group_sections(grid: SheetGrid, record: RawRecord,
                   sections: list[tuple[int, int, str, int]], vocab: Vocabulary) -> None:
    """Section headings inside one table that enumerate options ("Wariant I", "Wariant II"):
    each section's lines are that option's (a group, one offer each); other sections
    ("A. Hardware", "B. Colocation") stay one offer.  ``sections`` holds (row, column,
    heading, index of the section's first line)."""
    if not enumerates_options([text for _, _, text, _ in sections], vocab):
        return
    bounds = [first for *_, first in sections] + [len(record.line_items)]
    for index, (row, col, text, _) in enumerate(sections):
        for item in record.line_items[bounds[index]:bounds[index + 1]]:
            item.raw["group"] = text
            item.cells.setdefault("group", grid.where(row, col))


def alternatives_by_accelerator(items: list[LineItem]) -> None:
    """Priced lines that each name a different accelerator ("Cluster - 2 nós × 8 NVIDIA H100
    PCIe", "Nó - 1 nó × 8 NVIDIA H200 NVL"): one offer each, as an offer has one accelerator
    (each line a group); the lines that name none (storage, support) are shared."""
    named: dict[int, str] = {}
    for index, item in enumerate(items):
        if item.raw.get("group") or (item.unit_price is None and item.total is None):
            continue
        try:
            named[index] = recognise_accelerator(item.description).id
        except EvaltoolError:
            continue
    if len(named) < 2 or len(set(named.values())) != len(named) or len(
            {items[i].description for i in named}) != len(named):
        return
    for index in named:
        items[index].raw["group"] = items[index].description


def note_column(header: Sequence[Any], roles: dict[str, int]) -> int | None:
    """A remarks column beside a line-item table's roles ("Remarque", "Notes"), whose words
    may state a line's billing unit where the table has no unit column."""
    return next((c for c, v in enumerate(header) if c not in roles.values() and isinstance(
        v, str) and normalise_label(v) in NOTE_HEADERS), None)
