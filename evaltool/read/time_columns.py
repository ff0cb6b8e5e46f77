"""A line-item table's time column: "Description | Qty | Unit | Hours | Rate | Amount" (a
monthly invoice: 8 nodes x 730 hours x 17.20 = 100,448), "Menge | Einheit | Monate | Preis |
Gesamt", "Antal | Enhed | Timer | Pris".  The column multiplies the quantity by a time, so a
line whose amount is quantity x rate x that time is billed per unit and per that time (a
node-hour), never bought once at its amount.  The header names a time and nothing else; the
words are the basis vocabulary's (evaltool/data/duration_words.yaml, basis_words.yaml).
"""

from __future__ import annotations

from typing import Any

from evaltool.grammar.basis import once_re, time_adverb, time_of
from evaltool.read.cells import LineItem, SheetGrid, is_empty
from evaltool.read.text import billing_unit, cell_amount

# The amount must be quantity x rate x time to this relative tolerance (rounding of cents).
_TOLERANCE = 0.005


def time_columns(header: list[Any], taken: set[int]) -> dict[int, str]:
    """{column: 'hour' | 'day' | 'week' | 'month' | 'year'} for the header cells outside the
    table's roles that name a time and nothing else ('Hours', 'Stunden', 'Monate')."""
    found: dict[int, str] = {}
    for c, head in enumerate(header):
        if c in taken or not isinstance(head, str) or not head.strip():
            continue
        when = time_of(head)
        if when is not None:
            found[c] = when
    return found


def apply_time_column(item: LineItem, grid: SheetGrid, r: int, columns: dict[int, str]) -> None:
    """The line's time basis from a time column whose figure explains its amount: quantity x
    rate x time = amount.  Recorded as the line's `per_time` ('hour'); the builder joins it to
    the unit column ('node' -> per node-hour).  A line the figure does not explain keeps its
    own reading (a one-off line beside an empty or unrelated time cell)."""
    if item.unit_price is None or item.total is None or not item.unit_price:
        return
    quantity = item.quantity if item.quantity else 1.0
    for c, when in columns.items():
        time = cell_amount(grid.value(r, c))
        if time is None or time <= 0 or time == 1:
            continue
        if _explains(quantity * item.unit_price * time, item.total):
            item.per_time = when
            item.cells["time"] = grid.where(r, c)
            return


def month_of_hours(item: LineItem) -> bool:
    """An amount that is quantity x rate x the hours of a month (730, or a calendar month of
    28-31 days) bills an hourly rate for a month, whatever the unit says ("8 | node | 17.20 |
    100,448"); a one-off line is never so by chance."""
    if item.unit_price is None or item.total is None or not 0 < item.unit_price < item.total:
        return False
    quantity = item.quantity if item.quantity else 1.0
    return any(_explains(quantity * item.unit_price * hours, item.total)
               for hours in _HOURS_OF_A_MONTH)


# 730 h (8,760 / 12, the convention of cloud price lists) and 28, 29, 30 and 31 days of 24 h.
_HOURS_OF_A_MONTH = (730.0, 672.0, 696.0, 720.0, 744.0)


def _explains(expected: float, total: float) -> bool:
    return abs(expected - total) <= _TOLERANCE * max(abs(total), 1.0)


# Rows under a header scanned for a column of billing bases.
_BASIS_SCAN_ROWS = 40


def _basis_word(text: str) -> str | None:
    """'per kW per month' -> 'kw_month', 'monthly' -> 'month', 'one-off' -> 'once'."""
    if len(text) > 40 or any(ch.isdigit() for ch in text):
        return None
    found = billing_unit(text) or time_of(text) or time_adverb(text)
    if found:
        return found
    return "once" if once_re().search(text) else None


def basis_column(grid: SheetGrid, header_row: int, taken: set[int]) -> int | None:
    """The column outside the table's roles whose every text under the header is a billing
    basis ('one-off', 'per kW per month', 'per month', 'einmalig', 'mensuel'), two at least,
    one of them recurring; None when no column is so."""
    width = max((len(row) for row in grid.rows[header_row:header_row + _BASIS_SCAN_ROWS]),
                default=0)
    for c in range(width):
        if c in taken:
            continue
        bases: list[str] = []
        for r in range(header_row + 1, min(header_row + 1 + _BASIS_SCAN_ROWS, len(grid.rows))):
            value = grid.value(r, c)
            if is_empty(value):
                continue
            if not isinstance(value, str):
                bases = []
                break
            basis = _basis_word(value.strip())
            if basis is None:
                break
            bases.append(basis)
        else:
            if len(bases) >= 2 and any(b != "once" for b in bases):
                return c
    return None
