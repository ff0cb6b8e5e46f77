"""Price grids: a header row and a header column framing a rectangle of prices.

A rate card prices one capacity many ways at once: regions across, terms down ("Sydney |
Melbourne" over "12-month reserved | 36-month reserved"), or volume tiers down and terms
across ("1 ~ 31장 | 32 ~ 127장 | 128장 이상" by "온디맨드 | 12개월 약정").
The basis and currency are stated once (a title line "AUD per GPU-hour, ex GST", a header
spanning the price columns, the column header itself), the GPU count and accelerator elsewhere
in the file.  Each priced cell is an offer named by its row and column, and shares every other
fact of the file.

A block is a price grid only when every cell under its price columns is a figure (or a dash,
"sold out"), its row labels are not field labels, and the basis of its prices is stated: a
table of fields side by side, a line-item table or a one-offer-per-row table is never one.
Rows that are volume tiers (tiers.py) carry their range; which tier is the offer's is decided
once its GPU count is known (normalize/tiers.py), or by a mark the document puts on one.  Tiers
may run down the rows, across the columns, in a column of ranges, in 'From | To' figures, or
as header-less 'range | price' lines; a note that limits a price column to some tiers ("36-month
only from 128 GPUs") is obeyed.  The rest of the sheet is read as any sheet is.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field, replace
from itertools import pairwise
from typing import Any

from evaltool.catalog import recognise_accelerator
from evaltool.errors import EvaltoolError, Location, Problem
from evaltool.grammar.places import names_a_site
from evaltool.read.cells import Candidate, RawRecord, SheetGrid, cell_text, column_letter, is_empty
from evaltool.read.grid_companions import clause_basis, join_count_grids, row_head, row_name
from evaltool.read.price_columns import ColumnRoles, list_candidates, separate_list_rates
from evaltool.read.text import currency_of, is_placeholder
from evaltool.read.tiers import (
    Tier,
    grid_words,
    marks_applied,
    months_in_label,
    parse_range,
    price_basis,
    tiers_of_bounds,
    tiers_of_labels,
    unit_of,
)
from evaltool.read.vocabulary import Vocabulary, normalise_label

# Row or column labels that may name an axis of a price grid (a term, a region); any other
# field label ("GPU", "Storage") makes the block a table of fields, not of prices.
_AXIS_SLOTS = frozenset({None, "ignore", "price", "term_months", "region", "offer_name"})
_COUNT_RE = re.compile(r"^\s*\d{1,5}\s*[^\W\d_]{1,14}\.?\s*$")  # "64 GPUs", "8 nodes", "16 Server"
_RESOURCE_WORDS = {"gpu": "GPU", "node": "node", "rack": "rack"}
_DASHES = frozenset("-–—−/x×")
_BARE_FIGURE_RE = re.compile(r"^\s*[\d.,'\s\u00a0\u202f]*\d\s*$")  # "3,20", "1.234,50"


@dataclass
class PriceGrid:
    header: int
    label_col: int
    rows: list[int]
    columns: dict[int, str]  # price column -> its label
    basis: tuple[str, str]
    basis_where: Location
    currency: str | None
    corner: str
    axis: str | None = None  # a header spanning the price columns ("Region")
    attrs: dict[int, str] = field(default_factory=dict)  # other columns of each row
    tiers: dict[int, Tier] = field(default_factory=dict)  # row -> its tier
    col_tiers: dict[int, Tier] = field(default_factory=dict)  # tiers across: column -> tier
    applied: set[int] = field(default_factory=set)
    used: set[int] = field(default_factory=set)  # header, title and basis rows
    # A note that limits a column to some tiers ("36-month only for 128+ GPUs"):
    # column -> (rows it is offered in, the note, where)
    limited: dict[int, tuple[set[int], str, Location]] = field(default_factory=dict)
    texts: bool = False  # prices written as text with their basis ("$2.50 / GPU-hour")
    # Rows that state one more figure of each column's offer, not a price of their own:
    # "Qty | 4 | 4", "Indicative per GPU-hour | 4.10 | 3.40" under a row of instance prices.
    measures: dict[int, str] = field(default_factory=dict)
    groups: dict[int, str] = field(default_factory=dict)  # column -> merged group above it
    lists: ColumnRoles | None = None  # list rates beside the net ones (price_columns.py)
    # What a second grid of the same labels states of each priced cell (its GPU count):
    # (row, column) -> candidates (read/grid_companions.py).
    joined: dict[tuple[int, int], list[Candidate]] = field(default_factory=dict)


def _figure(value: Any) -> bool:
    """A price cell: a number, or a short text that is a figure with a currency."""
    if isinstance(value, bool):
        return False
    if isinstance(value, (int, float)):
        return True
    if not isinstance(value, str):
        return False
    return _figure_text(value)


_DIGIT_RE = re.compile(r"\d")
_RANGE_RE = re.compile(r"\d\s*[-–~]\s*\d")
_DATE_RE = re.compile(r"\d{1,4}[./-]\d{1,2}[./-]\d{1,4}")
_FIGURE_CHARS_RE = re.compile(r"[\d.,'\s\u00a0\u202f]")


@functools.lru_cache(maxsize=8192)  # a sheet asks about the same cells for each header row
def _figure_text(value: str) -> bool:
    text = value.strip()
    if not _DIGIT_RE.search(text) or _RANGE_RE.search(text) or _DATE_RE.search(text):
        return False  # a range or a date, not a price
    rest = _FIGURE_CHARS_RE.sub("", text)
    return len(rest) <= 4


def _no_price(value: Any) -> bool:
    """'—', 'n/a', 'sold out', 'TBC': a cell of the grid that offers nothing."""
    if is_empty(value):
        return True
    text = cell_text(value)
    return (set(text) <= _DASHES or is_placeholder(text)
            or (not re.search(r"\d", text) and len(text.split()) <= 3))


def _short(value: Any) -> str | None:
    return _short_text(value) if isinstance(value, str) else None


@functools.lru_cache(maxsize=8192)
def _short_text(value: str) -> str | None:
    words = value.split()
    return " ".join(words) if words and len(words) <= 8 else None


def find_price_grids(grid: SheetGrid, vocab: Vocabulary) -> list[PriceGrid]:
    found: list[PriceGrid] = []
    r = 0
    limit = min(len(grid.rows), 400)
    maybe = _may_start_grid(grid, limit)
    while r < limit:
        if not maybe[r]:
            r += 1
            continue
        block = _grid_at(grid, vocab, r) or _tier_lines_at(grid, r)
        if block is None:
            r += 1
            continue
        found.append(block)
        r = max([*block.rows, *block.measures]) + 1
    return found


def _may_start_grid(grid: SheetGrid, limit: int) -> list[bool]:
    """Rows where a grid or tier lines may start, by the cheap tests _grid_at and
    _tier_lines_at begin with (two texts over a row with a figure; a text with a digit),
    worked out with one pass over the rows instead of three."""
    rows = grid.rows
    figure = [any(_figure(v) for v in rows[k][1:]) for k in range(min(len(rows), limit + 2))]
    maybe: list[bool] = []
    for r in range(limit):
        texts = [v for v in rows[r] if isinstance(v, str)]
        maybe.append((len(texts) >= 2 and any(figure[r + 1 : r + 3]) and _all_heads(rows[r]))
                     or any(any(map(str.isdigit, v)) for v in texts))
    return maybe


def _all_heads(row: list[Any]) -> bool:
    """_grid_at's next test: two or more short texts and nothing else filled."""
    heads = 0
    for v in row:
        if _short(v) is not None:
            heads += 1
        elif not is_empty(v):
            return False
    return heads >= 2


def _tier_lines_at(grid: SheetGrid, r: int) -> PriceGrid | None:
    """Tiers as label | price lines without a header ("1-31 GPUs | $2.50 / GPU-hour",
    "ab 64 GPU | 2,10 € pro GPU-Stunde"): ascending ranges down one column, a price beside
    each, the basis in the prices themselves or in a title line above."""
    def pair(k: int) -> tuple[int, str, Any] | None:
        filled = [(c, v) for c, v in enumerate(grid.rows[k]) if not is_empty(v)]
        if len(filled) != 2 or not isinstance(filled[0][1], str):
            return None
        return filled[0][0], cell_text(filled[0][1]), filled[1][1]

    if not any(isinstance(v, str) and any(map(str.isdigit, v)) for v in grid.rows[r]):
        return None  # (a tier's label has a figure: the cheap test first)
    first = pair(r) if r < len(grid.rows) else None
    if first is None or parse_range(first[1]) is None or (r > 0 and (
            (above := pair(r - 1)) is not None and parse_range(above[1]) is not None)):
        return None
    lines: list[tuple[int, int, str, Any]] = []
    k = r
    while k < len(grid.rows) and (line := pair(k)) is not None and line[0] == first[0]:
        lines.append((k, *line))
        k += 1
    ranges = tiers_of_labels([label for _, _, label, _ in lines])
    cols = {c for k2, _, _, v in lines for c, v2 in enumerate(grid.rows[k2]) if v2 is v}
    if ranges is None or len(cols) != 1:
        return None
    col = cols.pop()
    values = [v for _, _, _, v in lines]
    if not all(_figure(v) or (isinstance(v, str) and re.search(r"\d", v)) for v in values):
        return None
    bases = {price_basis(v) if isinstance(v, str) else None for v in values}
    basis: tuple[tuple[str, str], Location, str] | None = None
    if len(bases) == 1 and None not in bases:
        basis = (bases.pop() or ("", ""), grid.where(r, col), cell_text(values[0]))
    else:
        if not all(_figure(v) for v in values):
            return None
        found = _basis(grid, r, first[0], {col: ""})
        basis = found[0] if found else None
    if basis is None:
        return None
    rows = [k2 for k2, _, _, _ in lines]
    labels = [label for _, _, label, _ in lines]
    unit = unit_of(labels)
    currency = currency_of(basis[2]) or _cell_currency(grid, rows, {col: ""})
    return PriceGrid(r, first[0], rows, {col: ""}, basis[0], basis[1], currency, "",
                     tiers={k2: Tier(lo, hi, t, unit) for k2, t, (lo, hi)
                            in zip(rows, labels, ranges, strict=True)},
                     used=set(), texts=True)


def _data_rows(grid: SheetGrid, header: int, label_col: int) -> list[int]:
    rows: list[int] = []
    for k in range(header + 1, len(grid.rows)):
        label = grid.value(k, label_col)
        if _short(label) is None and not isinstance(label, (int, float)) and not (
                isinstance(label, str) and row_head(label)):  # "NVIDIA H200 141 GB — 8 GPU/..."
            break
        if isinstance(label, bool) or all(is_empty(v) for v in grid.rows[k][label_col + 1:]):
            break
        rows.append(k)
    return rows


def _bare_figures(heads: dict[int, str]) -> bool:
    return any(_BARE_FIGURE_RE.match(t) for c, t in heads.items() if c != min(heads))


def _grid_at(grid: SheetGrid, vocab: Vocabulary, r: int) -> PriceGrid | None:
    row = grid.rows[r]
    if sum(1 for v in row if isinstance(v, str)) < 2 or not any(
            _figure(v) for k in (r + 1, r + 2) if k < len(grid.rows) for v in grid.rows[k][1:]):
        return None  # (cheap tests first: a header of texts over a row with a figure)
    heads = {c: t for c, v in enumerate(row) if (t := _short(v)) is not None}
    if len(heads) < 2 or any(not is_empty(v) and c not in heads for c, v in enumerate(row)) \
            or _bare_figures(heads):  # "Prezzo di listino | 3,20 | 4,10": values, no header
        return None
    unit_row = _unit_row(grid, r, min(heads))
    top = r if unit_row is None else unit_row
    nxt = grid.rows[top + 1] if top + 1 < len(grid.rows) else []
    first = next((c for c, v in enumerate(nxt) if not is_empty(v)), None)
    if first is None:
        return None
    label_col = min(first, min(heads))
    rows = _data_rows(grid, top, label_col)
    if not rows:
        return None
    split = _classify(grid, r, rows, heads, label_col)
    if split is None:
        return None
    columns, attrs, tiers = split
    if not columns:
        return None
    labels = [row_name(cell_text(grid.value(k, label_col))) for k in rows]
    measures = _measure_rows(rows, labels, vocab)  # (after the cheap tests: on every row)
    if measures:
        rows = [k for k in rows if k not in measures]
        labels = [row_name(cell_text(grid.value(k, label_col))) for k in rows]
    # "Committed | List | Net | Discount" across, or a "Listenpreis" row: one price each
    columns, rows, labels, lists = separate_list_rates(grid, rows, labels, columns, attrs, vocab)
    if not columns:
        return None
    fields = {vocab.match(h) for c, h in heads.items() if c != min(heads)} - _AXIS_SLOTS
    if len(fields) >= 2:
        return None  # "gpu | qty_gpus | usd_per_gpu_hr": a header of fields, one offer per row
    if any(len(label.split()) > 8 for label in labels):
        return None
    if not tiers:
        tiers = _label_tiers(grid, rows, labels, heads.get(label_col, ""), attrs)
    col_tiers: dict[int, Tier] = {}
    across = tiers_of_labels(list(columns.values())) if not tiers else None
    if across:  # "1-31 GPUs | 32-127 GPUs | 128+ GPUs" across, terms down
        unit = unit_of([*columns.values(), heads.get(label_col, "")])
        col_tiers = {c: Tier(lo, hi, h, unit) for (c, h), (lo, hi)
                     in zip(columns.items(), across, strict=True)}
    if not tiers and any(vocab.match(label) not in _AXIS_SLOTS and not _capacity(label, vocab)
                         and not (measures and _names_accelerator(label)) for label in labels):
        return None  # field labels down the rows: a table of fields ("HGX H200 8-GPU" over
        # a quantity row names the priced system, not a field)
    counted = lists.counts if lists else {}  # a row's committed count is not a line's qty
    if any(vocab.header_role(h) in ("quantity", "total", "description", "part")
           for h in [*columns.values(), *(h for c, h in attrs.items() if c not in counted)]):
        return None  # a line-item table
    if any(_discounting(t) for t in [*labels, *columns.values(), heads.get(label_col, "")]):
        return None  # "Discount vs list | 37% | 55%": shares of a price, not prices
    basis = _basis(grid, r, label_col, columns, unit_row, after=rows[-1] + 1)
    if basis is None:
        return None
    (per, where, text), used = basis
    if not col_tiers and any(vocab.match(h) not in _AXIS_SLOTS and price_basis(h) is None
                             and not _capacity(h, vocab)
                             for h in columns.values()):
        return None  # "GPUs | Memory" across: fields, not prices
    if len(columns) * len(rows) < 2:
        return None
    corner = heads.get(label_col, "")
    block = PriceGrid(r, label_col, rows, columns, per, where,
                      currency_of(text) or _cell_currency(grid, rows, columns), corner,
                      attrs=attrs, tiers=tiers, col_tiers=col_tiers,
                      used={r} | (used if _only_basis(grid, used) else set()) | set(measures),
                      measures=measures, groups=_groups(grid, r, columns))
    block.axis = _axis(grid, r, columns, text)
    block.lists = lists
    if tiers:
        block.applied = _applied(grid, block, labels)
        block.limited = _limited(grid, block)
    joined = join_count_grids(grid, vocab, label_col, rows, columns,
                              {r, *block.used, *measures})
    block.joined, block.used = joined.cells, block.used | joined.rows
    return block


_MODEL_RE = re.compile(r"[^\W\d_]\d|\d[^\W\d_]")  # "gpu8-h200", "p5.48xlarge": a name


@functools.lru_cache(maxsize=4096)  # row labels recur as each row is tried as a header
def _label_basis(label: str) -> tuple[str, str] | None:
    return price_basis(label)


def _measure_rows(rows: list[int], labels: list[str], vocab: Vocabulary) -> dict[int, str]:
    """Rows below the price rows that state one more figure of each column's offer: a
    quantity ("Qty", "Anzahl"), a total ("Monthly total (4 instances)"), a price on another
    basis ("Indicative per GPU-hour").  {} unless a price row above them remains."""
    found: dict[int, str] = {}
    for k, label in zip(rows[1:], labels[1:], strict=True):  # a price row comes first
        if vocab.header_role(label) in ("quantity", "total") or vocab.match(label) in (
                "gpu_count", "node_count") or (_label_basis(label) is not None
                                               and not _MODEL_RE.search(label)):
            found[k] = label  # ("gpu8-h200" is an instance's name, not per GPU-hour)
    if not found or min(found) == rows[0] or len(found) == len(rows):
        return {}
    return found


def _groups(grid: SheetGrid, header: int, columns: dict[int, str]) -> dict[int, str]:
    """'Sydney (SYD1)' merged over 'Month-to-month | 12-month reserved', 'Melbourne (MEL2)'
    over the same two: each column's group, when the groups differ (one group over all the
    columns is the axis)."""
    if header == 0:
        return {}
    found = {c: cell_text(grid.merged_value(header - 1, c)) for c in columns}
    if len(set(found.values())) < 2 or not all(found.values()) or \
            len(set(columns.values())) == len(columns):
        return {}
    return found


def _limited(grid: SheetGrid, block: PriceGrid) -> dict[int, tuple[set[int], str, Location]]:
    """'※ 36개월 약정은 128장 이상 계약 시에만 제공됩니다' (36-month only from 128 cards), below
    or above the grid: a note naming one price column and one tier's range limits that column
    to the tiers inside the range."""
    limited: dict[int, tuple[set[int], str, Location]] = {}
    start, end = max(0, block.header - 6), min(len(grid.rows), block.rows[-1] + 8)
    for k in range(start, end):
        if k in block.rows or k == block.header:
            continue
        filled = [(c, v) for c, v in enumerate(grid.rows[k]) if isinstance(v, str) and v.strip()]
        if len(filled) != 1:
            continue
        c0, text = filled[0][0], cell_text(filled[0][1])
        named = [c for c, label in block.columns.items()
                 if normalise_label(label) and normalise_label(label) in normalise_label(text)]
        span = parse_range(text)
        if len(named) != 1 or span is None:
            continue
        low, high = span
        rows = {r for r, t in block.tiers.items() if t.low >= low
                and (high is None or (t.high is not None and t.high <= high))}
        if rows and rows != set(block.rows):
            limited[named[0]] = (rows, text, grid.where(k, c0))
    return limited


def _classify(grid: SheetGrid, r: int, rows: list[int], heads: dict[int, str], label_col: int
              ) -> tuple[dict[int, str], dict[int, str], dict[int, Tier]] | None:
    """The price columns, the other columns, and the tiers of two 'From | To' columns."""
    columns: dict[int, str] = {}
    attrs: dict[int, str] = {}
    width = max(len(grid.rows[k]) for k in [r, *rows])
    numeric_cols: list[int] = []
    for c in range(label_col + 1, width):
        cells = [grid.value(k, c) for k in rows]
        head = heads.get(c) or _short(grid.merged_value(r, c))
        if all(is_empty(v) for v in cells):
            continue
        if head is None:
            return None  # a filled column without a header: not a grid
        figures = sum(1 for v in cells if _figure(v))
        if figures and figures * 2 >= len(cells) and all(_figure(v) or _no_price(v)
                                                          for v in cells):
            numeric_cols.append(c)
        attrs[c] = head
    tiers: dict[int, Tier] = {}
    bounds: set[int] = set()
    for c, c2 in pairwise(numeric_cols):
        ranges = tiers_of_bounds([grid.value(k, c) for k in rows],
                                 [grid.value(k, c2) for k in rows]) if c2 == c + 1 else None
        if ranges:
            unit = unit_of([attrs[c], attrs[c2], heads.get(label_col, "")])
            tiers = {k: Tier(lo, hi, f"{cell_text(grid.value(k, c))}-"
                             f"{cell_text(grid.value(k, c2))}".rstrip("-") + "+" * (hi is None),
                             unit) for k, (lo, hi) in zip(rows, ranges, strict=True)}
            bounds = {c, c2}
            break
    for c in numeric_cols:
        if c not in bounds:
            columns[c] = attrs.pop(c)
    for c in bounds:
        attrs.pop(c, None)
    return columns, attrs, tiers


def _label_tiers(grid: SheetGrid, rows: list[int], labels: list[str], corner: str,
                 attrs: dict[int, str]) -> dict[int, Tier]:
    """Tiers in the row labels ("1 ~ 31장"), or in a column of ranges ("Sunucu adedi | 1 – 4",
    taken out of the row's other columns)."""
    ranges = tiers_of_labels(labels)
    if ranges:
        unit = unit_of([*labels, corner])
        return {k: Tier(lo, hi, label, unit) for k, label, (lo, hi)
                in zip(rows, labels, ranges, strict=True)}
    for c, head in list(attrs.items()):
        texts = [cell_text(grid.value(k, c)) for k in rows]
        found = tiers_of_labels(texts)
        if found:
            unit = unit_of([*texts, head])
            attrs.pop(c)
            return {k: Tier(lo, hi, t, unit) for k, t, (lo, hi)
                    in zip(rows, texts, found, strict=True)}
    return {}


def _capacity(text: str, vocab: Vocabulary) -> bool:
    """'64 GPUs', '8 nodes': a label that is the capacity of its row or column."""
    return bool(_COUNT_RE.match(text)) and vocab.match(text) in ("gpu_count", "node_count")


def _discounting(text: str) -> bool:
    """'Discount vs list', 'Rabatt (%)': a row or column of shares of a price."""
    low = text.lower()
    return "%" in low or any(
        (w in low) if not w.isascii() else re.search(rf"(?<!\w){re.escape(w)}(?!\w)", low)
        is not None for w in grid_words()["discount"] if w not in ("off", "less"))


def _unit_row(grid: SheetGrid, header: int, first_head: int) -> int | None:
    """A row of units under the header ("| USD / GPU-h | USD / GPU-h"): its label cell empty,
    every filled cell a price basis."""
    k = header + 1
    if k >= len(grid.rows):
        return None
    filled = [(c, v) for c, v in enumerate(grid.rows[k]) if not is_empty(v)]
    after = grid.rows[k + 1] if k + 1 < len(grid.rows) else []
    lead = next((c for c, v in enumerate(after) if not is_empty(v)), None)
    if not filled or lead is None or min(c for c, _ in filled) <= min(lead, first_head) or \
            not all(isinstance(v, str) and price_basis(v) is not None for _, v in filled):
        return None
    return k


def _basis(grid: SheetGrid, header: int, label_col: int, columns: dict[int, str],
           unit_row: int | None = None, after: int | None = None
           ) -> tuple[tuple[tuple[str, str], Location, str], set[int]] | None:
    """The basis of the grid's prices: in every price column's header (or the row of units
    under it), in the corner cell, in a header spanning them, in a title line above the
    table (up to four rows up) or in a note just below it ("All prices in USD per GPU-hour")."""
    at = header if unit_row is None else unit_row
    texts = {c: cell_text(grid.value(at, c)) if unit_row is not None else h
             for c, h in columns.items()}
    per_col = {c: price_basis(t) for c, t in texts.items()}
    if all(per_col.values()) and len(set(per_col.values())) == 1:
        c = min(columns)
        return (next(iter(per_col.values())) or ("", ""), grid.where(at, c),
                texts[c]), ({unit_row} if unit_row is not None else set())
    if any(per_col.values()):
        return None  # some columns say their basis, others do not: leave it
    corner = cell_text(grid.value(header, label_col))
    if price_basis(corner) is not None:  # "USD / GPU-h | Sydney | Melbourne"
        return (price_basis(corner) or ("", ""), grid.where(header, label_col), corner), set()
    below = range(after, min(len(grid.rows), after + 4)) if after is not None else range(0)
    for k in [*range(header - 1, max(-1, header - 5), -1), *below]:
        filled = [c for c, v in enumerate(grid.rows[k]) if not is_empty(v)]
        # a title line (one cell), or a header spanning the price columns only: never the
        # unit cell of a 'Label | value | unit' row above the table
        if len(filled) != 1 and not (k == header - 1 and filled
                                     and all(c in columns for c in filled)):
            continue
        for c in filled:
            text = cell_text(grid.value(k, c)) if isinstance(grid.value(k, c), str) else ""
            if not text or len(text) > 240:
                continue
            per = price_basis(text) or (clause_basis(text) if len(filled) == 1 else None)
            if per is not None:
                return (per, grid.where(k, c), text), {k}
    return None


def _only_basis(grid: SheetGrid, rows: set[int]) -> bool:
    """A basis row that says nothing more than the basis ("Preț EUR / GPU-oră" over the
    price columns) is the grid's own; a title line that also states facts stays readable."""
    return all(len(" ".join(cell_text(v) for v in grid.rows[k]).split()) <= 6 for k in rows)


def _axis(grid: SheetGrid, header: int, columns: dict[int, str], basis_text: str) -> str | None:
    """'Region' merged over 'Sydney | Melbourne': what the column labels are."""
    if header == 0:
        return None
    texts = {cell_text(grid.merged_value(header - 1, c)) for c in columns}
    if len(texts) == 1:
        text = texts.pop()
        if text and text != basis_text and price_basis(text) is None:
            return text
    return None


def _cell_currency(grid: SheetGrid, rows: list[int], columns: dict[int, str]) -> str | None:
    found = {currency_of(v) for k in rows for c in columns
             if isinstance(v := grid.value(k, c), str)}
    found.discard(None)
    return found.pop() if len(found) == 1 else None


def _applied(grid: SheetGrid, block: PriceGrid, labels: list[str]) -> set[int]:
    """The tier the document marks as the buyer's: a tick or 'applied' in one row's other
    cells, or a line outside the grid whose text names one tier's label ('Tramo aplicado |
    T3 (96 GPU)')."""
    marked = {k for k in block.rows for c in block.attrs
              if isinstance(v := grid.value(k, c), str) and marks_applied(v)}
    if len(marked) == 1:
        return marked
    inside = set(block.rows) | block.used
    named: set[int] = set()
    for k, row in enumerate(grid.rows):
        if k in inside:
            continue
        texts = [cell_text(v) for v in row if isinstance(v, str)]
        if not any(marks_applied(t) or (block.corner and normalise_label(block.corner)
                                        in normalise_label(t)) for t in texts):
            continue
        for t in texts:
            for r, label in zip(block.rows, labels, strict=True):
                if re.match(rf"\s*{re.escape(label)}(?![\w])", t, re.I):
                    named.add(r)
    return named if len(named) == 1 else set()


def grid_records(grid: SheetGrid, vocab: Vocabulary, block: PriceGrid, record: RawRecord,
                 base_id: str) -> list[RawRecord]:
    """One record per priced cell; cells that offer nothing are said on the sheet's record."""
    resource, time = block.basis
    label = f"Price per {_RESOURCE_WORDS.get(resource, resource)}-{time}"
    records: list[RawRecord] = []
    many_cols, many_rows = len(block.columns) > 1, len(block.rows) > 1
    ranged = bool(block.tiers) and all(
        cell_text(grid.value(k, block.label_col)) == block.tiers[k].text for k in block.rows)
    for index, k in enumerate(block.rows, start=1):
        described = " ".join(cell_text(grid.value(k, block.label_col)).split())
        row_label = row_name(described)  # a long label's model; the label describes it
        if ranged:  # "ab 10 Server" names a tier, not this offer's count: "Tier 2"
            row_label = f"{block.corner or 'Tier'} {index}"
        for index_c, (c, col_label) in enumerate(block.columns.items(), start=1):
            col_label = _column_name(block, c, index_c, col_label)
            value = grid.value(k, c)
            where = grid.where(k, c)
            if c in block.limited and k not in block.limited[c][0]:
                _rows, text, at = block.limited[c]
                record.problems.append(Problem(
                    at, found=text[:120], severity="info", code="price-grid-cell-limited",
                    params={"row": row_label, "column": col_label, "cell": where.cell}))
                continue
            if not _figure(value) and not (block.texts and re.search(r"\d", cell_text(value))):
                if not is_empty(value):
                    record.problems.append(Problem(
                        where, found=cell_text(value)[:80], severity="info",
                        code="price-grid-cell-not-offered",
                        params={"row": row_label, "column": col_label}))
                continue
            name = ", ".join(p for p, keep in ((row_label, many_rows or not many_cols),
                                               (col_label, many_cols)) if keep)
            source = {**record.source, "option": name, "cell": where.cell}
            if many_cols and len(set(block.columns.values())) > 1:  # a note's sentence that
                source["columns"] = sorted(set(block.columns.values()))  # names another's
            target = RawRecord(id=f"{base_id}-{_slug(name)}", source=source)
            target.candidates.append(Candidate("offer name", name, where,
                                               label_where=grid.where(k, block.label_col)))
            amount: Any = value
            if block.currency:  # "225.000,00 TL" -> "TRY 225.000,00": one currency, by code
                figure = re.search(r"\d[\d.,'\s\u00a0\u202f]*", cell_text(value))
                if figure:
                    amount = f"{block.currency} {figure.group(0).strip()}"
            target.candidates.append(Candidate(label, amount, where,
                                               label_where=block.basis_where))
            if not block.tiers and vocab.match(block.corner) in ("term_months", "region"):
                target.candidates.append(Candidate(block.corner, row_label,
                                                   grid.where(k, block.label_col)))
            for text, at in ((row_label, grid.where(k, block.label_col)),
                             (col_label, grid.where(block.header, c))):
                if _capacity(text, vocab):  # "64 GPUs" over the column: its capacity
                    target.candidates.append(Candidate(text, text, at, label_where=at))
            for text, at in ((row_label, grid.where(k, block.label_col)),
                             (col_label if c not in block.col_tiers else "",
                              grid.where(block.header, c))):
                months = None if block.tiers and text == row_label else months_in_label(text)
                if months is not None:  # "Angajament 12 luni", "12개월 약정": the term
                    target.candidates.append(Candidate("Term", f"{months:g} months", at,
                                                       label_where=at))
            _column_facts(grid, vocab, block, c, col_label, target)
            target.candidates.extend(_measured(grid, vocab, block, k, c, described))
            target.candidates.extend(list_candidates(grid, block.lists, k, c, target, (
                block.basis, block.currency, block.basis_where)))
            for joined in block.joined.get((k, c), ()):  # its count, from a grid of counts
                target.candidates.append(joined)
                target.problems.append(Problem(joined.where, severity="info",
                                               code="count-grid-joined",
                                               params={"cell": joined.where.cell or ""}))
            for a, head in block.attrs.items():
                if is_empty(grid.value(k, a)):
                    continue
                target.candidates.append(Candidate(
                    head, grid.value(k, a), grid.where(k, a),
                    label_where=grid.where(block.header, a),
                    shape_only=vocab.match(head) is None))
            if block.tiers:
                tier = block.tiers[k]
                source["tier"] = {**tier.as_dict(), "applied": k in block.applied,
                                  "group": f"{grid.name}!{grid.where(block.header, c).cell}"}
            elif c in block.col_tiers:
                source["tier"] = {**block.col_tiers[c].as_dict(), "applied": False, "group":
                                  f"{grid.name}!{grid.where(k, block.label_col).cell}"}
            target.problems.append(Problem(where, severity="info", code="price-grid-cell",
                                           params={"name": name,
                                                   "column": column_letter(c)}))
            records.append(target)
    return records


def _column_facts(grid: SheetGrid, vocab: Vocabulary, block: PriceGrid, c: int,
                  col_label: str, target: RawRecord) -> None:
    """What the column's label says of its offers: the term or region an axis header names,
    or a site the label names when no axis does ("Paris (PAR2)")."""
    if block.axis and not block.col_tiers and vocab.match(block.axis) in (
            "term_months", "region"):
        target.candidates.append(Candidate(block.axis, col_label, grid.where(block.header, c)))
    elif not block.axis and len(block.columns) > 1 and names_a_site(col_label):
        target.candidates.append(Candidate("Region", col_label, grid.where(block.header, c)))


def _column_name(block: PriceGrid, c: int, index: int, label: str) -> str:
    if c in block.col_tiers:  # "128+ GPUs" names a tier, not this offer's count
        return f"{block.axis or 'Tier'} {index}"
    if c in block.groups:  # "Sydney (SYD1), Month-to-month"
        return f"{block.groups[c]}, {label}"
    return label


def _measured(grid: SheetGrid, vocab: Vocabulary, block: PriceGrid, k: int, c: int,
              row_label: str) -> list[Candidate]:
    """What the measure rows state of the offer in column c, read as any labelled value: a
    quantity counts the grid's priced resource ('Qty | 4' under prices per instance: 4
    nodes); a price on another basis is a price (a second one, compared with the first); a
    total is the product of the others and is not read.  A row label that names the
    accelerators of one priced node ("scx.mi300x.8 (8 x MI300X)") gives the GPUs per node."""
    found: list[Candidate] = []
    resource = block.basis[0]
    at = grid.where(k, block.label_col)
    group = block.groups.get(c)
    if group and names_a_site(group):  # "Sydney (SYD1)" over the column: its site
        found.append(Candidate("Region", group, grid.where(block.header - 1, c),
                               label_where=grid.where(block.header - 1, c)))
    if _names_accelerator(row_label):  # the priced row names what it prices
        found.append(Candidate("Accelerator", row_label, at, label_where=at))
        many = _N_TIMES_RE.search(row_label) if resource == "node" else None
        if many is not None and _names_accelerator(row_label[many.end():]):
            found.append(Candidate("GPUs per node", int(many.group(1)), at, label_where=at))
    for m, label in block.measures.items():
        value = grid.value(m, c)
        if is_empty(value) or not _figure(value):
            continue
        at = grid.where(m, c)
        basis = _label_basis(label)
        if basis is not None and basis != block.basis:
            amount = f"{block.currency} {cell_text(value)}" if block.currency and isinstance(
                value, (int, float)) else value
            found.append(Candidate(f"Price per {_RESOURCE_WORDS.get(basis[0], basis[0])}-"
                                   f"{basis[1]}", amount, at,
                                   label_where=grid.where(m, block.label_col)))
        elif basis is None and isinstance(value, (int, float)) and vocab.match(label) in (
                "gpu_count", "node_count"):  # "GPUs | 16 | 32": a count by its own label
            found.append(Candidate(label, value, at, label_where=grid.where(m, block.label_col)))
        elif basis is None and resource in ("gpu", "node") and isinstance(value, (int, float)) \
                and vocab.header_role(label) == "quantity":
            found.append(Candidate(f"Number of {_RESOURCE_WORDS[resource]}s", value, at,
                                   label_where=grid.where(m, block.label_col)))
    return found


_N_TIMES_RE = re.compile(r"(?<![\w.])(\d{1,2})\s*[x×]\s*(?=\S)")  # "8 x AMD Instinct MI300X"


def _names_accelerator(text: str) -> bool:
    try:
        recognise_accelerator(text)
    except EvaltoolError:
        return False
    return True


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "offer"


def read_price_grids(grid: SheetGrid, vocab: Vocabulary, record: RawRecord, base_id: str,
                     blocks: list[PriceGrid]) -> tuple[list[RawRecord], SheetGrid]:
    """The offers of a sheet's price grids, and the sheet without them: the rest is read as
    any sheet is (what the offers share, line items, other tables)."""
    records: list[RawRecord] = []
    used: set[int] = set()
    grid.found["price_blocks"] = []  # each block with its offers by cell: counts may be joined
    for block in blocks:  # from another sheet (grid_companions.join_across_sheets)
        offers = grid_records(grid, vocab, block, record, base_id)
        grid.found["price_blocks"].append((block, {str(o.source.get("cell")): o for o in offers}))
        records += offers
        used |= set(block.rows) | block.used
        if block.axis:
            used.add(block.header - 1)
    rest = [[None] * len(row) if k in used else row for k, row in enumerate(grid.rows)]
    return records, replace(grid, rows=rest, found={})
