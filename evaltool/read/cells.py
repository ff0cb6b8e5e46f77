"""The shapes every reader produces: a grid of cells with positions, and labelled values.

Layouts differ (xlsx, CSV, YAML); downstream code only sees these records, each carrying
the `Location` it came from so every canonical value can be traced to its cell or key.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from typing import Any

from evaltool.errors import Location, Problem


@functools.lru_cache(maxsize=1024)  # every cell reference names one of a few columns
def column_letter(col: int) -> str:
    """0-based column index -> Excel letters (0 -> A, 26 -> AA)."""
    letters = ""
    col += 1
    while col:
        col, rem = divmod(col - 1, 26)
        letters = chr(65 + rem) + letters
    return letters


def a1(row: int, col: int) -> str:
    """0-based (row, col) -> A1 reference."""
    return f"{column_letter(col)}{row + 1}"


def column_index(letters: str) -> int:
    """'A' -> 0, 'AB' -> 27: column_letter's inverse."""
    col = 0
    for char in letters.upper():
        col = col * 26 + ord(char) - 64
    return col - 1


_A1_RE = re.compile(r"\$?([A-Za-z]{1,3})\$?([0-9]{1,7})")


def cell_position(ref: str) -> tuple[int, int] | None:
    """'B6' (or '$B$6') -> 0-based (row, col): a1's inverse; None for anything else."""
    match = _A1_RE.fullmatch(ref.strip())
    return None if match is None else (int(match.group(2)) - 1, column_index(match.group(1)))


@dataclass
class SheetGrid:
    """One sheet (or CSV) as a dense grid of values, 0-based, with what we know about it."""

    file: str
    name: str | None
    rows: list[list[Any]]
    formula_cells_without_value: set[tuple[int, int]] = field(default_factory=set)
    hidden: bool = False  # a hidden sheet (old prices, workings): skipped and said
    problems: list[Problem] = field(default_factory=list)  # found while building the grid
    # Merged ranges (first row, first col, last row, last col), 0-based and inclusive: a value
    # merged across the columns of several options belongs to each of them.
    merged: list[tuple[int, int, int, int]] = field(default_factory=list)
    # Comment lines of a CSV ("# Acme Cloud - quote for ...; valid until ..."): (row, text).
    comments: list[tuple[int, str]] = field(default_factory=list)
    # What the layout analysis found once and asks again (price-basis columns), by name.
    found: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    def value(self, row: int, col: int) -> Any:
        if row < len(self.rows) and col < len(self.rows[row]):
            return self.rows[row][col]
        return None

    def merged_value(self, row: int, col: int) -> Any:
        """The cell's value, or the value of the merged range that covers it."""
        value = self.value(row, col)
        if not is_empty(value):
            return value
        for r0, c0, r1, c1 in self.merged:
            if r0 <= row <= r1 and c0 <= col <= c1:
                return self.value(r0, c0)
        return value

    def where(self, row: int, col: int) -> Location:
        return Location(self.file, sheet=self.name, cell=a1(row, col))


@dataclass
class Candidate:
    """A label and the value that stands beside it (or under its key), before mapping."""

    label: str
    value: Any
    where: Location
    section: str | None = None
    note: str | None = None
    label_where: Location | None = None
    shape_only: bool = False  # the label is unknown: only the value's shape may be read


@dataclass
class LineItem:
    """One row of a line-item table: quantity x unit price, with the cell of each part."""

    row_where: Location
    description: str
    quantity: float | None
    unit: str | None
    unit_price: float | None
    total: float | None
    currency: str | None
    cells: dict[str, Location] = field(default_factory=dict)
    raw: dict[str, str] = field(default_factory=dict)
    # The line's other columns whose header names a field or is a notes column ("Duración |
    # 12 meses", "Observaciones | mínimo 6 meses"): (header, value, cell).
    fields: list[tuple[str, Any, Location]] = field(default_factory=list)
    # The time a time column multiplies the line by ("Hours | 730"): billed per unit-hour.
    per_time: str | None = None
    # The discounts the quote gives on this line (read/paid_rows.py): (share, cell, label).
    discounts: list[tuple[float, Location, str]] = field(default_factory=list)


@dataclass
class RawRecord:
    """Everything read from one offer before normalisation."""

    id: str
    source: dict[str, Any]
    candidates: list[Candidate] = field(default_factory=list)
    line_items: list[LineItem] = field(default_factory=list)
    notes: list[tuple[str, Location]] = field(default_factory=list)
    segments: list[dict[str, Any]] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    title: str | None = None
    title_where: Location | None = None
    # Where a vendor names itself outside labelled cells: banner and title rows at the top,
    # footer rows at the bottom, document properties (author, company, page footers).
    banners: list[tuple[str, Location]] = field(default_factory=list)
    footers: list[tuple[str, Location]] = field(default_factory=list)
    properties: dict[str, str] = field(default_factory=dict)
    # Cells read (used) and cells deliberately skipped, for `--explain`: (sheet, A1).
    used_cells: set[tuple[str | None, str]] = field(default_factory=set)
    skipped: list[tuple[Location, str]] = field(default_factory=list)
    # The sheets read into this record: a file whose sheets yield no offer names each of them.
    sheets: list[str] = field(default_factory=list)


def is_empty(value: Any) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def filled_columns(grid: SheetGrid, r: int) -> tuple[int, ...]:
    """The columns of row r that hold a value, worked out once per grid: the margins, the
    key-value scan and the stacked-blocks scan each ask it of every row."""
    memo: dict[int, tuple[int, ...]] = grid.found.setdefault("filled_columns", {})
    got = memo.get(r)
    if got is None:
        got = memo[r] = tuple(c for c, v in enumerate(grid.rows[r]) if not is_empty(v))
    return got


def cell_text(value: Any) -> str:
    """A cell value as the text a person sees (floats without a spurious .0)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return str(value).strip()
