"""The total under a table of offers, one per row ("Grand total | 19,705,406" below two quote
lines): the sum of every row's amount together, never one offer's price or capex.  Left out of
what the rows share (the rows around a table are the notes its offers share) and said so.
"""

from __future__ import annotations

from evaltool.read.cells import RawRecord, SheetGrid, cell_text, is_empty
from evaltool.read.vocabulary import Vocabulary

# A total sits within this many rows under the table's last row.
_MAX_ROWS_BELOW = 3


def totals_of_rows(grid: SheetGrid, data_rows: list[int], vocab: Vocabulary,
                   record: RawRecord) -> set[int]:
    """The rows under the table whose first text names a total ('Grand total', 'Gesamtsumme',
    'Total général') beside a figure; each is recorded in `record.skipped`."""
    found: set[int] = set()
    last = max(data_rows)
    for r in range(last + 1, min(last + 1 + _MAX_ROWS_BELOW, len(grid.rows))):
        row = grid.rows[r]
        texts = [(c, v) for c, v in enumerate(row) if isinstance(v, str) and v.strip()]
        figures = [v for v in row if isinstance(v, (int, float)) and not isinstance(v, bool)]
        if not texts or not figures or len(texts) > 2:
            continue
        c, label = texts[0]
        if vocab.header_role(cell_text(label)) != "total" or is_empty(label):
            continue
        found.add(r)
        record.skipped.append((grid.where(r, c), f"{cell_text(label).strip()!r}: the total "
                               f"of the {len(data_rows)} offers of the table above together, "
                               "no one offer's price"))
    return found
