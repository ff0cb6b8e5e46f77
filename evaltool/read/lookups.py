"""Lookups in formulas saved without a value: VLOOKUP, HLOOKUP, MATCH and INDEX over the
workbook's own cells, as a spreadsheet works them out (Microsoft's function reference:
https://support.microsoft.com/en-us/office/vlookup-function-0bbc8083-26fe-4963-8ab8-93a18ad188a1
and the pages for HLOOKUP, MATCH and INDEX).

A vendor's calculator picks its term discount from a table ("=VLOOKUP(B8,E5:F7,2,FALSE)")
and rounds the effective rate from it: without the lookup the effective price is lost and
only the list price is left. A lookup that finds nothing (#N/A) or lands on text leaves the
formula unevaluated, as before. A well-kept library (`formulas`, `pycel` on PyPI) would
evaluate every Excel function; these four and IF cover the calculators we read, with no
new dependency.
"""

from __future__ import annotations

from collections.abc import Sequence

Raw = float | str | None  # a cell as the workbook holds it: a number, text, or empty
Table = list[list[Raw]]


class LookupMiss(Exception):
    """The lookup finds nothing (#N/A in a spreadsheet) or its arguments are not usable."""


def _same(a: Raw, b: Raw) -> bool:
    if isinstance(a, str) or isinstance(b, str):
        return str(a or "").strip().casefold() == str(b or "").strip().casefold()
    return a is not None and b is not None and float(a) == float(b)


def _at_most(cell: Raw, key: Raw) -> bool:
    """cell <= key, for numbers with numbers and text with text (as a spreadsheet sorts)."""
    if isinstance(key, str) and isinstance(cell, str):
        return cell.casefold() <= key.casefold()
    if isinstance(key, (int, float)) and isinstance(cell, (int, float)):
        return float(cell) <= float(key)
    return False


def match_position(key: Raw, vector: Sequence[Raw], mode: float = 1.0) -> int:
    """The 1-based position of `key` in `vector`: exact (0), the largest at most the key in
    an ascending vector (1), or the smallest at least the key in a descending one (-1)."""
    if key is None:
        raise LookupMiss("no key")
    if mode == 0:
        for i, cell in enumerate(vector):
            if _same(cell, key):
                return i + 1
        raise LookupMiss(f"{key!r} not found")
    found = None
    for i, cell in enumerate(vector):
        if cell is None or cell == "":
            continue
        below = _at_most(cell, key)
        if (mode > 0 and below) or (mode < 0 and (_same(cell, key) or not below)):
            found = i + 1
        elif found is not None:
            break  # the vector is sorted: past the key
    if found is None:
        raise LookupMiss(f"{key!r} below the first value")
    return found


def _pick(table: Table, row: int, col: int) -> Raw:
    if row < 1 or col < 1 or row > len(table) or col > len(table[row - 1]):
        raise LookupMiss("index outside the range")
    return table[row - 1][col - 1]


def vlookup(key: Raw, table: Table, col: float, exact: bool) -> Raw:
    """VLOOKUP: the key in the table's first column, the value `col` columns along."""
    first = [row[0] if row else None for row in table]
    return _pick(table, match_position(key, first, 0 if exact else 1), int(col))


def hlookup(key: Raw, table: Table, row: float, exact: bool) -> Raw:
    """HLOOKUP: the key in the table's first row, the value `row` rows down."""
    first = list(table[0]) if table else []
    return _pick(table, int(row), match_position(key, first, 0 if exact else 1))


def index(table: Table, row: float, col: float | None) -> Raw:
    """INDEX: the cell at (row, col) of the range; one index alone runs along a vector."""
    if col is None:
        if len(table) == 1:
            return _pick(table, 1, int(row))
        return _pick(table, int(row), 1)
    return _pick(table, int(row), int(col))


def as_vector(table: Table) -> list[Raw]:
    """A one-row or one-column range as its cells (MATCH's lookup range)."""
    if len(table) == 1:
        return list(table[0])
    if all(len(row) == 1 for row in table):
        return [row[0] for row in table]
    raise LookupMiss("MATCH needs one row or one column")
