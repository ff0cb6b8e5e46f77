"""Discount tiers: a table of quantity or spend ranges and the discount off list each earns.

A private offer or a calculator states its discount as tiers ("Committed spend | Discount off
list | Applies?": "US$5,000,000 – 14,999,999 | 20%", ..., "US$25,000,000 and above | 45% |
Yes — this offer"; "Desde (aceleradores) | Descuento": 1 | 0%, 32 | 5%, 64 | 10%).  A table is
one when a header cell names a discount (evaltool/data/paid_words.yaml) over a column of
shares, beside a column of ranges that ascend (read/tiers.py).  Each tier becomes a share
labelled by the discount header, its range in the candidate's note ("tier: 64 - 127", with
"; applied" when the table says it applies); the normalizer applies the marked one, or the
one whose range holds the offer's count or committed spend, to the list price it names
(normalize/paid_price.py).
"""

from __future__ import annotations

from itertools import pairwise

from evaltool.read.cells import Candidate, RawRecord, SheetGrid, cell_text, is_empty
from evaltool.read.paid_rows import row_role, share_of
from evaltool.read.tiers import marks_applied, tiers_of_bounds, tiers_of_labels
from evaltool.read.vocabulary import Vocabulary

# The most tiers a table holds (a longer column is a list of something else).
_MAX_TIERS = 12
TIER_NOTE = "tier: "  # a tier's candidate note: "tier: 64 - 127" (+ "; applied")
APPLIED = "; applied"


def _ranges(grid: SheetGrid, rows: list[int], share_col: int) -> tuple[int, list[str]] | None:
    """The column of ranges beside the shares (its texts as written), or of lower bounds
    ('Desde | 1, 32, 64, 128': each tier up to the next)."""
    for c in range(share_col):
        values = [grid.value(k, c) for k in rows]
        texts = [cell_text(v) for v in values]
        if tiers_of_labels(texts) is not None:
            return c, texts
        lows = [v for v in values if isinstance(v, (int, float)) and not isinstance(v, bool)]
        if lows == list(range(1, len(lows) + 1)):
            continue  # 1, 2, 3: a quote's line numbers, not lower bounds
        if len(lows) == len(values) and tiers_of_bounds(
                lows, [*(b - 1 for b in lows[1:]), None]) is not None:
            return c, [f"{v:g} - {n - 1:g}" for v, n in pairwise(lows)] + [
                f"{lows[-1]:g}+"]
    return None


def discount_tiers(grid: SheetGrid, record: RawRecord, vocab: Vocabulary) -> None:
    """Each tier of each discount-tier table of the sheet, as a labelled share (see above)."""
    for r, row in enumerate(grid.rows):
        heads = [c for c, v in enumerate(row) if isinstance(v, str) and v.strip()
                 and row_role(v, False) == "discount"]
        if len(heads) != 1 or heads[0] == 0 or vocab.match(cell_text(row[heads[0]])) not in (
                None, "ignore"):
            continue
        col = heads[0]
        rows: list[int] = []
        for k in range(r + 1, min(r + 1 + _MAX_TIERS, len(grid.rows))):
            if share_of(grid.value(k, col)) is None:
                break
            rows.append(k)
        shares = [share_of(grid.value(k, col)) for k in rows]
        found = _ranges(grid, rows, col) if sum(1 for x in shares if x) >= 2 else None
        if found is None:
            continue
        range_col, texts = found
        head = cell_text(row[col])
        for k, text in zip(rows, texts, strict=True):
            marked = any(marks_applied(cell_text(v)) for c, v in enumerate(grid.rows[k])
                         if c not in (col, range_col) and not is_empty(v))
            record.candidates.append(Candidate(
                head, grid.value(k, col), grid.where(k, col), label_where=grid.where(k, range_col),
                note=f"{TIER_NOTE}{text}{APPLIED if marked else ''}"))
