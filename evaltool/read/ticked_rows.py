"""Rows of alternatives of which the buyer ticked one: the ticked row is the order.

An order form lists the terms it may be signed for ("☐ 12 months | 3.25", "☒ 24 months |
2.95", "☐ 36 months | 2.70"), and the box ticked on one row says which is ordered.  The ticked
row's cells are read under their column headers ("Term", "Rate per GPU-hour"); the rows left
unticked are alternatives the buyer did not choose, skipped and said (never a second price of
the same offer, never a tier picked by chance).

A column of marks is a column where every row of the block holds a tick box or a mark and
exactly one is ticked ("☐ ☒ ☐", "[ ] [x] [ ]", "( ) (X) ( )"), or a column headed by a
selection word ("Select", "Auswahl", "Choix", "Selección") where exactly one row holds a mark
("X", "✔") and the others are empty.  A mark may open the cell it marks ("☒ 24 months").
The glyphs and the selection words are data (evaltool/data/price_grid_words.yaml).
"""

from __future__ import annotations

import functools
import re
from dataclasses import replace
from typing import Any

from evaltool.errors import Problem
from evaltool.read.cells import Candidate, RawRecord, SheetGrid, cell_text, is_empty
from evaltool.read.tiers import grid_words, tiers_of_labels
from evaltool.read.vocabulary import Vocabulary, normalise_label

_MAX_ROWS = 12  # alternatives of one choice: a few rows, never a whole sheet
_BRACKETED_RE = re.compile(r"^[\[(]\s*([xX✓✔●])?\s*[\])]")


@functools.cache
def _glyphs() -> tuple[tuple[str, ...], tuple[str, ...], frozenset[str]]:
    words = grid_words()
    ticked, unticked = tuple(words["ticked_marks"]), tuple(words["unticked_marks"])
    return ticked, unticked, frozenset(g[0] for g in (*ticked, *unticked)) | set("[(Xx")


def _mark(value: object) -> tuple[bool, str] | None:
    """(ticked, the rest of the cell) when the cell is or opens with a tick box; None when
    it holds no mark."""
    if not isinstance(value, str):
        return None
    text = value.strip()
    ticked, unticked, first = _glyphs()
    if not text or text[0] not in first:  # (the cheap test first: every cell is asked)
        return None
    bracketed = _BRACKETED_RE.match(text)
    if bracketed:
        return bracketed.group(1) is not None, text[bracketed.end():].strip()
    for glyph in ticked:
        if text.startswith(glyph):
            return True, text[len(glyph):].strip()
    for glyph in unticked:
        if text.startswith(glyph):
            return False, text[len(glyph):].strip()
    if text in ("X", "x"):
        return True, ""
    return None


def _selection_header(text: str) -> bool:
    low = f" {normalise_label(text)} "
    return any(f" {normalise_label(w)} " in low for w in grid_words()["selection_headers"])


def ticked_rows(grid: SheetGrid, record: RawRecord, vocab: Vocabulary) -> SheetGrid:
    """Read each block of ticked alternatives into `record` and return the grid without it.
    In a line-item table ("☒ | GPU nodes | 16 | 3,050.00") only the unticked lines and the
    marks leave the grid: the ticked line is read with the table, as any line is."""
    taken: set[int] = set()
    # Only a column with a ticked mark can hold a block (one pass over the cells first).
    marked: dict[int, list[int]] = {}
    boxed: set[int] = set()  # rows with a mark: the only rows a row of boxes may be
    first = _glyphs()[2]
    for k, row in enumerate(grid.rows):
        for c, value in enumerate(row):
            if type(value) is str and value and (value[0] in first or value[0].isspace()) \
                    and (mark := _mark(value)) is not None:
                boxed.add(k)
                if mark[0]:
                    marked.setdefault(c, []).append(k)
    if not boxed:
        return grid  # no tick box anywhere in the sheet (most sheets): nothing to copy
    marks: list[tuple[int, int]] = []
    for c, ticks in marked.items():
        for tick in ticks:
            block = next((b for r in range(tick, max(-1, tick - _MAX_ROWS), -1)
                          if (b := _block(grid, r, c)) is not None), None)
            if block is None:
                continue
            header, rows, ticked = block
            if taken & {header, *rows}:
                continue
            if _line_item_header(grid, header, vocab):
                record.skipped.extend((grid.where(k, c), "an alternative the buyer did not tick")
                                      for k in rows if k != ticked)
                taken |= {k for k in rows if k != ticked}
                marks.append((ticked, c))
                record.problems.append(Problem(
                    grid.where(ticked, c), severity="info", code="ticked-row-read",
                    params={"cell": grid.where(ticked, c).cell or "", "skipped": len(rows) - 1}))
                continue
            _read(grid, c, header, rows, ticked, record)
            taken |= {header, *rows}
    rest: list[list[Any]] = [[None] * len(row) if k in taken else list(row)
                             for k, row in enumerate(grid.rows)]
    for k, c in marks:  # the tick itself is no cell of the line
        rest[k][c] = None
    across = _ticked_columns(grid, record, rest, boxed)
    if not taken and not across:
        return grid
    return replace(grid, rows=rest, found={})


def _line_item_header(grid: SheetGrid, header: int, vocab: Vocabulary) -> bool:
    """A header naming a quantity and a unit price or total: a table of lines."""
    roles = {vocab.header_role(cell_text(v)) for v in grid.rows[header]
             if isinstance(v, str) and v.strip()}
    return "quantity" in roles and bool(roles & {"unit_price", "total"})


def _ticked_columns(grid: SheetGrid, record: RawRecord, rest: list[list[Any]],
                    boxed: set[int]) -> bool:
    """Alternatives side by side ("Term | 12 months | 24 months" over "Rate | 3.25 | 2.95")
    with a row of tick boxes under them ("Select | ☐ | ☒"): the unticked columns are
    blanked in the block (said as skipped), the row of boxes too; True when one was found."""
    found = False
    for r in sorted(boxed):
        row = grid.rows[r]
        marks = {c: m for c, v in enumerate(row) if (m := _mark(v)) is not None}
        others = [c for c, v in enumerate(row) if not is_empty(v) and c not in marks]
        ticked = [c for c, m in marks.items() if m[0]]
        if len(marks) < 2 or len(ticked) != 1 or len(others) > 1 or (
                others and others[0] > min(marks)):
            continue
        block = [r]
        for step in (-1, 1):
            k = r + step
            while 0 <= k < len(grid.rows) and abs(k - r) <= _MAX_ROWS and any(
                    not is_empty(grid.value(k, c)) for c in marks):
                block.append(k)
                k += step
        for c in marks:
            if c == ticked[0]:
                continue
            record.skipped.append((grid.where(r, c), "an alternative the buyer did not tick"))
            for k in block:
                if c < len(rest[k]):
                    rest[k][c] = None
        rest[r] = [None] * len(rest[r])
        record.problems.append(Problem(
            grid.where(r, ticked[0]), found=cell_text(grid.value(r, ticked[0]))[:120],
            severity="info", code="ticked-row-read",
            params={"cell": grid.where(r, ticked[0]).cell or "", "skipped": len(marks) - 1}))
        found = True
    return found


def _block(grid: SheetGrid, r: int, c: int) -> tuple[int, list[int], int] | None:
    """(header row, rows of the block, the ticked row) of a column of marks starting at r."""
    rows: list[int] = []
    ticked: list[int] = []
    boxes = 0
    k = r
    while k < min(len(grid.rows), r + _MAX_ROWS):
        mark = _mark(grid.value(k, c))
        others = [v for j, v in enumerate(grid.rows[k]) if j != c and not is_empty(v)]
        if not others and not (mark is not None and mark[1]):
            break  # (a checklist's "☒ Kubernetes" is a row of its own, under its label)
        if mark is None and not is_empty(grid.value(k, c)):
            break
        rows.append(k)
        if mark is not None:
            boxes += 1
            if mark[0]:
                ticked.append(k)
        k += 1
    if len(rows) < 2 or len(ticked) != 1:
        return None
    header = r - 1
    while header >= 0 and all(is_empty(v) for v in grid.rows[header]):
        header -= 1
    if header < 0 or any(not isinstance(v, str) for v in grid.rows[header] if not is_empty(v)):
        return None  # no header of texts above the alternatives: their cells have no role
    if boxes != len(rows) and not _selection_header(cell_text(grid.value(header, c))):
        return None  # a lone "X" among empty cells, under no "Select" header: no tick box
    if r > 0 and _mark(grid.value(r - 1, c)) is not None:
        return None  # (the block starts at its first marked row)
    if _mark(grid.value(r, c)) is None and not _selection_header(cell_text(grid.value(header, c))):
        return None
    width = max(len(grid.rows[k]) for k in rows)
    if any(tiers_of_labels([cell_text(grid.value(k, j)) for k in rows]) for j in range(width)
           if j != c):
        return None  # ticked volume tiers: the price grid reads them with their ranges
    return header, rows, ticked[0]


def _read(grid: SheetGrid, c: int, header: int, rows: list[int], ticked: int,
          record: RawRecord) -> None:
    heads = {j: cell_text(v) for j, v in enumerate(grid.rows[header])
             if j != c and isinstance(v, str) and v.strip()}
    rest = (_mark(grid.value(ticked, c)) or (True, ""))[1]
    for j, head in heads.items():
        value = grid.value(ticked, j)
        if is_empty(value):
            continue
        record.candidates.append(Candidate(head, value, grid.where(ticked, j),
                                           label_where=grid.where(header, j)))
    own = cell_text(grid.value(header, c))
    if rest and own:  # "Term | ✔ 24 months": the mark opens the value under its header
        record.candidates.append(Candidate(own, rest, grid.where(ticked, c),
                                           label_where=grid.where(header, c)))
    elif rest:  # "☒ 24 months" under no header of its own: the row's label
        record.notes.append((rest, grid.where(ticked, c)))
    for k in rows:
        if k == ticked:
            continue
        where = grid.where(k, c)
        record.skipped.append((where, "an alternative the buyer did not tick"))
    record.problems.append(Problem(
        grid.where(ticked, c), found=" | ".join(cell_text(v) for v in grid.rows[ticked]
                                                if not is_empty(v))[:120],
        severity="info", code="ticked-row-read",
        params={"cell": grid.where(ticked, c).cell or "", "skipped": len(rows) - 1}))
    for k in (header, *rows):
        for j, v in enumerate(grid.rows[k]):
            if not is_empty(v):
                record.used_cells.add((grid.name, grid.where(k, j).cell or ""))
