"""Read a CSV (or TSV) offer as a grid, detecting encoding and delimiter.

The stdlib csv module with csv.Sniffer is enough here: vendor CSVs are small, and it keeps
quoting rules right (commas inside quoted cells, "24,80 EUR").  Numbers stay text; the value
parsers read them with their units, so "1.234,5" is not misread by a CSV layer.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

from evaltool.errors import InputError, Location, Problem
from evaltool.read.cells import SheetGrid
from evaltool.read.safety import bound_cells, read_text

MAX_CSV_ROWS = 10_000  # rows of values (a header row is allowed beside them)


def read_csv(path: Path) -> SheetGrid:
    """The CSV as one grid (sheet name None); cells are A1-addressed like a sheet."""
    text = read_text(path)
    if not text.strip():
        raise InputError(Problem(Location(str(path)), code="csv-without-rows"))
    # "# Acme Cloud - quote for ACME ML. Valid until 2025-12-31.": a comment line, not a row
    # of values; kept whole (its commas split nothing) and read as the document's own words.
    comments: list[tuple[int, str]] = []
    if "#" in text:
        lines = text.splitlines(keepends=True)
        for index, line in enumerate(lines):
            if line.lstrip().startswith("#"):
                comments.append((index, line.strip().lstrip("#").strip()))
                lines[index] = "\n"
        text = "".join(lines)
    sample = text[:20_000]
    try:
        dialect: type[csv.Dialect] | csv.Dialect = csv.Sniffer().sniff(sample, delimiters=",;\t|")
    except csv.Error:
        dialect = csv.excel
    steady = _steadiest_delimiter(sample)
    if steady is not None and steady != dialect.delimiter:
        # The Sniffer guesses from character frequencies and can pick ',' in a semicolon
        # file whose values carry decimal commas ("12,40;zł / GPU / h"); the delimiter that
        # gives most rows the same number of columns is the file's.
        chosen: str = steady

        class _Steady(csv.excel):
            delimiter = chosen
        dialect = _Steady
    rows: list[list[object]] = []
    try:
        for index, row in enumerate(csv.reader(io.StringIO(text), dialect)):
            if index > MAX_CSV_ROWS:  # checked while reading: a 100k-row file stops here
                raise InputError(Problem(Location(str(path), cell=f"row {index + 1}"),
                                         code="too-many-rows", params={"limit": MAX_CSV_ROWS}))
            rows.append([cell.strip() for cell in row])
    except csv.Error as exc:
        raise InputError(Problem(Location(str(path)), code="invalid-csv",
                                 params={"reason": str(exc)})) from None
    grid = SheetGrid(file=str(path), name=None, rows=rows,
                     comments=[(r, c) for r, c in comments if c])
    grid.problems.extend(bound_cells(rows, grid.where))
    return grid


def _steadiest_delimiter(sample: str) -> str | None:
    """The delimiter under which most rows have the same number (> 1) of columns."""
    lines = [line for line in sample.splitlines()[:60] if line.strip()]
    best: tuple[int, int, str] | None = None
    for delimiter in (",", ";", "\t", "|"):
        try:
            widths = [len(row) for row in csv.reader(lines, delimiter=delimiter)]
        except csv.Error:
            continue
        counts: dict[int, int] = {}
        for width in widths:
            if width > 1:
                counts[width] = counts.get(width, 0) + 1
        if not counts:
            continue
        # most rows alike first; on a tie, the delimiter giving the wider rows: in a three-row
        # export with one decimal comma per row ("2,35") ',' splits every row in two as steadily
        # as ';' splits it in fourteen.
        steady, width = max((count, width) for width, count in counts.items())
        if best is None or (steady, width) > best[:2]:
            best = (steady, width, delimiter)
    return best[2] if best else None
