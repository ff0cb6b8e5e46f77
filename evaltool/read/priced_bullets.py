"""Terms offered as a bulleted list in prose: an e-mail or letter pasted into one column that
prices the same capacity for several commitments, one bullet each ("- 1-year committed use
discount: $1.89 per chip-hour", "- 3-year committed use discount: $1.22 per chip-hour").
Each bullet is an offer of its own (one price, one term); the other lines (the capacity, the
region, validity, a price given "for reference only") are what the offers share.

A run of bullets is read this way only when every bullet starts with a list mark, states an
amount of money with a compute time basis (per GPU-, chip- or node-hour) and names its term,
each a different one: a list of conditions, or of prices for different things (storage,
egress), stays one offer's notes.
"""

from __future__ import annotations

import re

from evaltool.errors import Problem
from evaltool.read.cells import Candidate, RawRecord, SheetGrid, cell_text, filled_columns
from evaltool.read.layout import slug
from evaltool.read.prose_options import MONEY_RE
from evaltool.read.tiers import months_in_label, price_basis
from evaltool.read.vocabulary import Vocabulary

_BULLET_RE = re.compile(r"^\s*(?:[-–—•·*▪◦‣]|\(?[a-z0-9]\))\s+", re.I)
_COMPUTE = frozenset({"gpu", "node", "rack", "instance"})
_MAX_GAP = 1  # blank rows allowed between two bullets of one list


def _bullet(grid: SheetGrid, r: int) -> tuple[int, str, str, float] | None:
    """(column, text, name, term months) of a priced bullet line; None for any other row."""
    filled = filled_columns(grid, r)
    if len(filled) != 1 or not isinstance(grid.rows[r][filled[0]], str):
        return None
    text = cell_text(grid.rows[r][filled[0]])
    mark = _BULLET_RE.match(text)
    money = MONEY_RE.search(text)
    if mark is None or money is None or len(text) > 200:
        return None
    basis = price_basis(text)
    months = months_in_label(text[:money.start()])
    if basis is None or basis[0] not in _COMPUTE or months is None:
        return None
    name = text[mark.end():money.start()].strip(" :–—-=")
    return (filled[0], text, name, months) if name else None


def priced_bullets(grid: SheetGrid, vocab: Vocabulary, record: RawRecord,
                   base_id: str) -> list[RawRecord]:
    """One record per priced bullet of the longest run; [] when no run of two or more."""
    runs: list[list[int]] = []
    run: list[int] = []
    last = -10
    for r in range(len(grid.rows)):
        if _bullet(grid, r) is None:
            if filled_columns(grid, r) or r - last > _MAX_GAP:
                if len(run) >= 2:
                    runs.append(run)
                run = []
            continue
        run.append(r)
        last = r
    if len(run) >= 2:
        runs.append(run)
    if not runs:
        return []
    rows = max(runs, key=len)
    found = {r: b for r in rows if (b := _bullet(grid, r)) is not None}
    if len({b[3] for b in found.values()}) != len(found) or len(
            {price_basis(b[1]) for b in found.values()}) != 1:
        return []  # each bullet its own term, all priced the same way
    inside = {grid.where(r, b[0]).cell for r, b in found.items()}
    record.notes = [(t, w) for t, w in record.notes if w.cell not in inside]
    record.candidates = [c for c in record.candidates if c.where.cell not in inside]
    record.banners = [(t, w) for t, w in record.banners if w.cell not in inside]
    out: list[RawRecord] = []
    for r, (c, text, name, _months) in found.items():
        where = grid.where(r, c)
        option = RawRecord(id=f"{base_id}-{slug(name)}",
                           source={**record.source, "option": name, "row": r + 1})
        option.candidates.append(Candidate("offer name", name, where))
        option.notes.append((text, where))
        option.problems.append(Problem(where, severity="info", code="options-in-blocks",
                                       params={"name": name}))
        out.append(option)
    return out
