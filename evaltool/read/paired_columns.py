"""Price grids whose column headers are merged cells, each over a pair of sub-columns: how
many and at what price ("Sydney (SYD-1)" merged over "GPUs reserved | AUD / GPU-hr", then
"Melbourne (MEL-2)" over the same pair).  The merged header names the column of the grid;
the price sub-column holds its prices, the count sub-column the capacity each price is for.

The grid is read as any price grid (crosstab.py) through a view of the sheet in which each
merged header stands over its price sub-column, the price sub-headers are the row of units
under it, and the count cells are set aside; each priced cell's offer then takes the count
beside it, named by its own cell.  Cells never move: every value keeps its own address.
Only a pair of one price and one count (GPUs or nodes) is read this way; any other sub-column
leaves the sheet to the other readers.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from evaltool.errors import Location, Problem
from evaltool.read.cells import Candidate, RawRecord, SheetGrid, cell_text, is_empty
from evaltool.read.crosstab import find_price_grids, read_price_grids
from evaltool.read.grid_companions import counted
from evaltool.read.text import currency_of
from evaltool.read.tiers import price_basis
from evaltool.read.vocabulary import Vocabulary, normalise_label

_COUNT_LABELS = {"gpu": "Number of GPUs", "node": "Number of nodes"}


def _pairs(grid: SheetGrid, vocab: Vocabulary
           ) -> tuple[int, list[tuple[int, int]], str, int] | None:
    """(header row, [(price column, count column)] per merged header, what is counted, the
    offset of the count in a pair) for the first row of two or more merged headers each over
    one price and one count sub-column; None when the sheet has none."""
    by_row: dict[int, list[tuple[int, int]]] = {}
    for r0, c0, r1, c1 in grid.merged:
        if r0 == r1 and c1 == c0 + 1 and not is_empty(grid.value(r0, c0)):
            by_row.setdefault(r0, []).append((c0, c1))
    for r in sorted(by_row):
        spans = sorted(by_row[r])
        if len(spans) < 2 or r + 1 >= len(grid.rows):
            continue
        subs = [tuple(normalise_label(cell_text(grid.value(r + 1, c))) for c in range(c0, c1 + 1))
                for c0, c1 in spans]
        if len(set(subs)) != 1 or not all(subs[0]):
            continue  # each merged header over the same pair of sub-headers
        texts = [cell_text(grid.value(r + 1, c)) for c in range(spans[0][0], spans[0][1] + 1)]
        priced = [j for j, t in enumerate(texts) if price_basis(t) or currency_of(t)]
        counts = [(j, what) for j, t in enumerate(texts) if (what := counted(t, vocab))]
        if len(priced) != 1 or len(counts) != 1 or priced[0] == counts[0][0]:
            continue
        j, what = counts[0]
        return r, [(c0 + priced[0], c0 + j) for c0, _ in spans], what, j
    return None


def read_paired_grids(grid: SheetGrid, vocab: Vocabulary, record: RawRecord, base_id: str
                      ) -> tuple[list[RawRecord], SheetGrid] | None:
    """The offers of a grid of merged headers over (count | price) pairs, and the sheet
    without it (crosstab.read_price_grids); None when the sheet has no such grid."""
    found = _pairs(grid, vocab)
    if found is None:
        return None
    header, pairs, what, _offset = found
    rows = [list(row) for row in grid.rows]
    width = max(c for pair in pairs for c in pair) + 1
    for k in (header, header + 1):
        rows[k] = rows[k] + [None] * max(0, width - len(rows[k]))
    counts: dict[tuple[int, int], tuple[Any, Location]] = {}
    for price_col, count_col in pairs:
        rows[header][price_col] = grid.merged_value(header, price_col)
        rows[header][count_col] = None
        rows[header + 1][count_col] = None
        for k in range(header + 2, len(rows)):
            value = grid.value(k, count_col)
            if not is_empty(value):
                counts[(k, price_col)] = (value, grid.where(k, count_col))
                rows[k][count_col] = None
    merged = [m for m in grid.merged if m[0] != header]
    view = replace(grid, rows=rows, merged=merged, found={})
    blocks = [b for b in find_price_grids(view, vocab) if b.header == header]
    if not blocks:
        return None
    priced, rest = read_price_grids(view, vocab, record, base_id, blocks)
    label_at = grid.where(header + 1, pairs[0][1])
    for offer in priced:
        cell = str(offer.source.get("cell"))
        hit = next(((value, at) for (k, c), (value, at) in counts.items()
                    if grid.where(k, c).cell == cell), None)
        if hit is None:
            continue
        value, at = hit
        offer.candidates.append(Candidate(_COUNT_LABELS[what], value, at, label_where=label_at,
                                          note="the count beside the price, under the same "
                                               "merged header"))
        offer.problems.append(Problem(at, severity="info", code="count-grid-joined",
                                      params={"cell": at.cell or ""}))
    return priced, rest
