"""Line-item tables as a printed quote lays them out: lines continued on the rows below, and
page breaks that repeat the page header and the table's header row mid-table.

A quote printed to PDF and converted back to a workbook (or a quote laid out for printing)
writes one line's configuration on the rows under it ("Dell PowerEdge XE9680 — configured"
over "  NVIDIA HGX H100 8-GPU SXM5 80GB", "  2x Intel Xeon Platinum 8480+"), only in the
description column, indented or opening with a count or a bullet.  Those rows are the line's
description, continued (across a page break too).  At a page break the page's header rows
(letterhead, "Page 2 of 2", the quote number) and the table's header row come again: they are
skipped as page furniture and the table goes on.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from evaltool.read.blocks import names_an_option
from evaltool.read.cells import LineItem, SheetGrid, cell_text, is_empty
from evaltool.read.vocabulary import Vocabulary, normalise_label

# A continued line opens indented, with a bullet or dash, or with a count of components.
_CONTINUED_RE = re.compile(r"^(?:\s+\S|[-–•·*▪◦]\s*\S|\d{1,3}\s*[x×]\s*\S)")
# "B. Colocation", "2) Services", "II – Support": an enumerated heading, not a continuation
_HEADING_RE = re.compile(r"^(?:[A-Z]|\d{1,2}|[IVX]{1,4})[.)]\s|^(?:[IVX]{1,4}|[A-Z])\s[-–—]\s")
_PAGE_ROWS = 8  # a page break's furniture: a few rows before the header comes again
# "1 of 2", "2 / 2", "1 von 2", "1 z 2": a page's number among the pages
_PAGE_OF_RE = re.compile(r"\b\d{1,3}\s*(?:/|[^\W\d_]{1,4})\s*\d{1,3}\b")


def continued_description(grid: SheetGrid, r: int, roles: dict[str, int],
                          vocab: Vocabulary | None = None) -> str | None:
    """The text of row r when it continues the line above: its only filled cell is under
    the description column and reads as a continuation, not as a heading.  A converter may
    drop the indent: a row right under a line (or under its continuation) that states a
    figure ("NVIDIA HGX H100 8-GPU SXM5 80GB") continues it too, unless it names an option
    ("Option 2 — 24 months") or opens an enumerated heading ("B. Colocation (2 racks)")."""
    desc_col = roles.get("description")
    if desc_col is None:
        return None
    filled = [c for c, v in enumerate(grid.rows[r]) if not is_empty(v)]
    if filled != [desc_col]:
        return None
    value = grid.value(r, desc_col)
    if not isinstance(value, str):
        return None
    text = " ".join(value.split())
    if _CONTINUED_RE.match(value):
        return text
    above = [c for c, v in enumerate(grid.rows[r - 1]) if not is_empty(v)] if r > 0 else []
    if not above or not re.search(r"\d", text) or _HEADING_RE.match(text) or (
            vocab is not None and names_an_option(text, vocab)) or text.endswith(":"):
        return None
    return text


def _header_texts(grid: SheetGrid, r: int) -> dict[int, str]:
    return {c: normalise_label(cell_text(v)) for c, v in enumerate(grid.rows[r])
            if isinstance(v, str) and v.strip()}


def _page_text(grid: SheetGrid, r: int) -> str:
    """A row's text without its page number: 'Page 2 of 2' and 'Page 1 of 2' are one."""
    return " ".join(normalise_label(_PAGE_OF_RE.sub("#", cell_text(v))) for v in grid.rows[r]
                    if not is_empty(v)).strip()


def page_break(grid: SheetGrid, r: int, header_row: int) -> int | None:
    """The row where the table's header comes again after a page break starting at row r, or
    None.  The rows before it must be page furniture: blank, or a row that stood above the
    table on the first page ("BLUEGRASS ... | Page 2 of 2", the quote number).  A heading of
    its own ("OPTION 2 — 32 nodes") over the same header starts another table."""
    header = _header_texts(grid, header_row)
    if len(header) < 3:
        return None
    again = next((k for k in range(r, min(r + _PAGE_ROWS, len(grid.rows)))
                  if _header_texts(grid, k) == header), None)
    if again is None:
        return None
    first_page = {_page_text(grid, k) for k in range(header_row)} - {""}
    if any(_page_text(grid, k) not in first_page | {""} for k in range(r, again)):
        return None
    return again


def printed_row(grid: SheetGrid, r: int, roles: dict[str, int], header_row: int,
                last: LineItem | None, used: set[int], vocab: Vocabulary | None,
                is_line: bool) -> int | None:
    """The row to read next when row r is a line's continued description (added to the
    line above) or the start of a page break (the page's furniture and the repeated header
    skipped); None when row r is neither."""
    if last is None:  # (before the table's first line: nothing to continue)
        return None
    more = continued_description(grid, r, roles, vocab)
    if more is not None:  # "  NVIDIA HGX H100 8-GPU SXM5 80GB" under its line
        last.description = f"{last.description}; {more}"
        used.add(r)
        return r + 1
    again = None if is_line else page_break(grid, r, header_row)
    if again is not None:  # "Page 2 of 2" and the header row once more
        used.update(range(r, again + 1))
        return again + 1
    return None


def past_printed(grid: SheetGrid, r: int, roles: dict[str, int], header_row: int,
                 last: LineItem | None, used: set[int], vocab: Vocabulary | None,
                 is_line: Callable[[int], bool]) -> int:
    """The first row from r on that is neither a continued description nor a page break."""
    while r < len(grid.rows):
        step = printed_row(grid, r, roles, header_row, last, used, vocab, is_line(r))
        if step is None:
            return r
        r = step
    return r
