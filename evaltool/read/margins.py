"""What stands around a sheet's tables: the letterhead and title rows at the top, the footer
rows at the bottom, and the headings over blocks of label | value pairs set side by side
(an order form's "CUSTOMER | PROVIDER | DATES")."""

from __future__ import annotations

import itertools
import re

from evaltool.read.cells import RawRecord, SheetGrid, cell_text, filled_columns, is_empty


def block_headings(grid: SheetGrid, r: int, filled: list[int]) -> bool:
    """Short headings alone over blocks side by side ("CUSTOMER | | | PROVIDER | | | DATES"):
    two or more words-only cells at least two columns apart, and under each a label with its
    value beside it (the next row is a row of label | value pairs)."""
    row = grid.rows[r]
    if len(filled) < 2 or r + 1 >= len(grid.rows) or any(
            b - a < 2 for a, b in itertools.pairwise(filled)):
        return False
    if not all(isinstance(row[c], str) and len(cell_text(row[c]).split()) <= 4
               and not re.search(r"[\d:@]", cell_text(row[c])) for c in filled):
        return False
    below = grid.rows[r + 1]
    return all(c + 1 < len(below) and isinstance(below[c], str) and not is_empty(below[c])
               and not is_empty(below[c + 1]) for c in filled)


def banners_and_footers(grid: SheetGrid, record: RawRecord) -> None:
    """The first rows (letterhead, title) and the last rows (footer) of a sheet, as text."""
    rows = [r for r in range(len(grid.rows)) if filled_columns(grid, r)]
    for index, r in enumerate(rows[:3] + rows[-2:]):
        filled = filled_columns(grid, r)
        texts = [(c, cell_text(v)) for c, v in enumerate(grid.rows[r])
                 if isinstance(v, str) and v.strip()]
        top = index < min(3, len(rows))
        if top and len(texts) == 2 == len(filled) and texts[1][0] - texts[0][0] >= 3:
            # "LumenRack, Inc. | 1200 Harbor Blvd" left, "ORDER FORM" / "No. LR-OF-20931"
            # far right: a letterhead with the document's title beside it
            record.banners.extend((text, grid.where(r, c)) for c, text in texts)
            continue
        if len(texts) != 1 or len(filled) != 1:
            continue  # a letterhead or footer stands alone in its row
        c, text = texts[0]
        target = record.banners if top else record.footers
        target.append((text, grid.where(r, c)))
