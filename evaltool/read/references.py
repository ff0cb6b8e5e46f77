"""A value that points to another sheet: "Díj | lásd 'Díjtáblázat' munkalap", "Price | see
sheet 'Rates'", "Preis | siehe Blatt Preisliste".

The cell states no figure; the sheet it names holds a rate table (label | price | unit | note),
one row per category, tier or service. The row that applies is the one whose label the offer's
own cells name ("Kategória | ipari (önköltséges díj)" picks "ipari (önköltséges) | 480 Ft |
GPU-óra"); the value becomes that row's price with its unit, and the reading is said. Where no
row, or more than one, fits as well, the cell is left as it was (a missing price, never a
guessed one) and the rows are named.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from evaltool.errors import Location, Problem
from evaltool.read.cells import Candidate, RawRecord, SheetGrid, cell_text, is_empty
from evaltool.read.headers import UNIT_HEADERS
from evaltool.read.vocabulary import Vocabulary, normalise_label

_WORD_RE = re.compile(r"[^\W\d_]{4,}")


def _named_sheet(text: str, grids: Sequence[SheetGrid], own: str | None) -> SheetGrid | None:
    """The other sheet a short text names (quoted or not), when it states no figure."""
    if len(text) > 120 or re.search(r"\d", re.sub(r"['\"‘’„“”«»][^'\"‘’„“”«»]*['\"‘’„“”«»]",
                                                   "", text)):
        return None
    low = text.casefold()
    named = [g for g in grids if g.name and g.name != own and len(g.name) >= 3
             and g.name.casefold() in low]
    return max(named, key=lambda g: len(g.name or "")) if named else None


def _rate_rows(grid: SheetGrid, vocab: Vocabulary) -> tuple[int, list[tuple[int, str, str]]]:
    """The header row of the sheet's rate table and its rows: (row, label, price with unit)."""
    for r, row in enumerate(grid.rows[:30]):
        heads = {c: normalise_label(cell_text(v)) for c, v in enumerate(row)
                 if isinstance(v, str) and v.strip()}
        price_col = next((c for c, h in heads.items() if vocab.match(h) == "price"
                          or vocab.header_role(h) == "unit_price"), None)
        unit_col = next((c for c, h in heads.items() if h in UNIT_HEADERS), None)
        if price_col is None or len(heads) < 2:
            continue
        label_col = min(heads)
        if label_col == price_col:
            continue
        rows: list[tuple[int, str, str]] = []
        for k in range(r + 1, len(grid.rows)):
            label = cell_text(grid.value(k, label_col))
            price = cell_text(grid.value(k, price_col))
            if not label and not price:
                break
            if not label or not re.search(r"\d", price):
                continue
            unit = cell_text(grid.value(k, unit_col)) if unit_col is not None else ""
            if unit and not re.match(r"\s*(?:/|per\b|pro\b|par\b|je\b)", unit, re.I):
                unit = f"/ {unit}"
            rows.append((k, label, f"{price} {unit}".strip()))
        if rows:
            return r, rows
    return -1, []


def _in_rows(where: Location, sheet: str | None, rows: set[int]) -> bool:
    """Whether a cell (or a row range 'A5:F5') lies on `sheet` in one of the 1-based `rows`."""
    if where.sheet != sheet or not where.cell:
        return False
    numbers = {int(n) for n in re.findall(r"[A-Z]+(\d+)", where.cell)}
    return bool(numbers) and numbers <= rows


def follow_sheet_references(grids: Sequence[SheetGrid], records: Sequence[RawRecord],
                            vocab: Vocabulary) -> None:
    """Replace each price cell that points to another sheet by the rate that sheet states for
    the offer, where the offer's own cells single out one row."""
    for record in records:
        for i, cand in enumerate(record.candidates):
            if not isinstance(cand.value, str) or is_empty(cand.value):
                continue
            target = _named_sheet(cand.value, grids, cand.where.sheet)
            if target is None:
                continue
            header, rows = _rate_rows(target, vocab)
            if not rows:
                continue
            # What the offer's own cells say (not the rate sheet's): its category, its tier.
            context = {w.casefold() for c in record.candidates if isinstance(c.value, str)
                       and c.where.sheet != target.name for w in _WORD_RE.findall(c.value)}
            scored = sorted(((len({w.casefold() for w in _WORD_RE.findall(label)} & context),
                              k, label, price) for k, label, price in rows), reverse=True)
            best = scored[0]
            if best[0] == 0 or (len(scored) > 1 and scored[1][0] == best[0]):
                record.problems.append(Problem(
                    cand.where, field="price_usd_per_gpu_hour", found=cand.value[:120],
                    severity="warning", code="referenced-rate-not-chosen",
                    params={"sheet": target.name or "", "rows": "; ".join(
                        f"{label}: {price}" for _, label, price in rows[:6])}))
                continue
            _, k, label, price = best
            where = Location(target.file, sheet=target.name, cell=target.where(k, 0).cell)
            label_is_price = vocab.match(cand.label, cand.section) == "price"
            record.candidates[i] = Candidate(cand.label if label_is_price else "price", price,
                                             where, cand.section, cand.note, cand.label_where)
            # The table's other rows are the rates of other categories, not facts of this
            # offer: what the readers took from them is set aside.
            rows_of_table = {r + 1 for r in range(header, rows[-1][0] + 1)}
            record.candidates[:] = [
                c for j, c in enumerate(record.candidates)
                if j == i or not _in_rows(c.where, target.name, rows_of_table)]
            record.line_items[:] = [li for li in record.line_items
                                    if not _in_rows(li.row_where, target.name, rows_of_table)]
            record.problems.append(Problem(
                where, field="price_usd_per_gpu_hour", found=price, severity="info",
                code="rate-from-referenced-sheet",
                params={"label": cand.label, "sheet": target.name or "", "row": label,
                        "price": price}))
            break  # one price per offer; the list has changed under the loop
