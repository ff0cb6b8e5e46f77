"""Line-item tables: a header row (quantity, unit price, total, description) and the lines
under it.  A real quote groups its lines in sections ("A. Hardware (one-off)" over the
hardware lines, a subtotal, then "B. Colocation (monthly)" over the monthly lines): a section
heading, a subtotal or a blank row between two lines belongs to the table, so the table is
read to its last line, not to its first break.
"""

from __future__ import annotations

import re
from typing import Any

from evaltool.catalog import recognise_accelerator
from evaltool.errors import EvaltoolError, Location, Problem
from evaltool.read.blocks import enumerates_options
from evaltool.read.cells import LineItem, RawRecord, SheetGrid, a1, cell_text, is_empty
from evaltool.read.headers import NOTE_HEADERS, is_qualified_note_header, notes_word
from evaltool.read.paid_columns import apply_paid_columns, paid_columns
from evaltool.read.paid_rows import (
    column_discount,
    discount_column,
    is_discount_line,
    price_column_kind,
    read_paid_rows,
)
from evaltool.read.printed_lines import past_printed
from evaltool.read.text import billing_unit, currency_of, first_number
from evaltool.read.time_columns import apply_time_column, basis_column, time_columns
from evaltool.read.vocabulary import Vocabulary, normalise_label

# Rows between two groups of lines: a blank row, a section heading, a subtotal.  More than
# this many such rows in a row end the table (the notes under it, or another table).
_MAX_ROWS_BETWEEN_GROUPS = 4


def _number(value: Any) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, str) and value.strip():
        return first_number(value)
    return None


def _quantity(value: Any) -> float | None:
    """A line's quantity: '1.000' and '1,000' are a thousand (a quantity is never written
    with three decimals), other text as a number."""
    if isinstance(value, str) and re.fullmatch(r"\s*\d{1,3}(?:[.,\u202f' ]\d{3})+\s*", value):
        return float(re.sub(r"\D", "", value))
    return _number(value)


def _is_line(grid: SheetGrid, r: int, roles: dict[str, int], strict: bool = False) -> bool:
    """A line has a quantity or a unit price.  Between two groups of lines (strict) the
    figure must be the cell's own ('16', '$3,050,000.00'), not a number inside a label
    ('Volume discount 6% (lines 1-4)' in the price column is a discount row)."""
    qty_col, price_col = roles.get("quantity"), roles.get("unit_price")
    cells = [grid.value(r, c) for c in (qty_col, price_col) if c is not None]
    if strict:
        return any(_is_figure(v) for v in cells)
    qty = _quantity(grid.value(r, qty_col)) if qty_col is not None else None
    price = _number(grid.value(r, price_col)) if price_col is not None else None
    return qty is not None or price is not None


def _is_figure(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, (int, float)):
        return True
    return isinstance(value, str) and re.fullmatch(
        r"\s*[$€£¥]?\s*[\d][\d.,'\s\u202f\u00a0]*\s*(?:[A-Za-z€$£.]{1,4})?\s*", value) is not None


def _is_heading(grid: SheetGrid, r: int) -> bool:
    """'B. Colocation og drift (månedlig)': one text cell alone in its row."""
    filled = [v for v in grid.rows[r] if not is_empty(v)]
    return len(filled) == 1 and isinstance(filled[0], str) and len(filled[0]) <= 80


def _between_groups(grid: SheetGrid, r: int, roles: dict[str, int]) -> tuple[int, set[int]]:
    """After row r-1 (a line): the next line of the same table and the heading rows before
    it, or (-1, {}) when the table ends here.  Only blank rows, one-cell headings and short
    subtotal rows (at most two cells under the table's columns: a remark beside a subtotal,
    "Subtotal one-off | 4,776,000 | ex VAT", is no third) may stand between two lines."""
    headings: set[int] = set()
    columns = set(roles.values())
    for k in range(r, min(r + _MAX_ROWS_BETWEEN_GROUPS, len(grid.rows))):
        if _is_line(grid, k, roles, strict=True):
            return k, headings
        filled = [v for c, v in enumerate(grid.rows[k]) if not is_empty(v) and c in columns]
        if _is_heading(grid, k):
            headings.add(k)
        elif len(filled) > 2 or (len(filled) >= 2 and all(
                isinstance(v, str) and not re.search(r"\d", v) for v in filled)):
            break  # another table's header ("Prestation | € / mois"), or a row of values
    return -1, set()


def line_items(grid: SheetGrid, header_row: int, roles: dict[str, int],
               record: RawRecord, vocab: Vocabulary | None = None) -> set[int]:
    """Read the rows under a line-item header into `record`; return the rows read (lines and
    their section headings; subtotal rows are left to the key-value pass)."""
    header = grid.rows[header_row]
    header_currency = None
    for col in (roles.get("unit_price"), roles.get("total")):
        if col is not None:
            header_currency = header_currency or currency_of(cell_text(header[col]))
    # "Cena za rack / měsíc", "Price per node-hour": a unit-price header that states the basis
    # is the unit of every line with no unit of its own.
    price_head = cell_text(header[roles["unit_price"]]) if "unit_price" in roles else ""
    header_unit = price_head if price_head and billing_unit(price_head) not in (
        None, "pct_of_spend") else None
    # Columns beside the line-item roles whose header names a field ("Duración", "Lead
    # time") or notes ("Observaciones"): each line's value there is that line's fact.
    field_cols = {c: cell_text(v) for c, v in enumerate(header)
                  if c not in roles.values() and isinstance(v, str) and v.strip()
                  and vocab is not None and (vocab.match(cell_text(v)) not in (None, "ignore")
                                             or normalise_label(v) in NOTE_HEADERS
                                             or is_qualified_note_header(v))}
    # A remarks column ("Remarque | € / kW / mois") may state a line's billing unit.
    note_col = next((c for c, head in field_cols.items()
                     if normalise_label(head) in NOTE_HEADERS), None)
    if note_col is None:
        # "Billing | one-off | per kW per month | per month": a column of billing bases,
        # whatever its header says, states each line's basis as a remarks column would
        note_col = basis_column(grid, header_row, set(roles.values()))
    # "Supplier_Notes": notes, whoever wrote them, read as the line's facts (never a name)
    field_cols = {c: notes_word(head) if is_qualified_note_header(head) else head
                  for c, head in field_cols.items()}
    paid = paid_columns(header, set(roles.values()))  # "One-time | Monthly"
    times = time_columns(header, set(roles.values()) | set(paid))  # "Hours", "Monate"
    off = discount_column(header, roles)  # "Listenpreis | Rabatt | Gesamt" (paid_rows.py)
    price_is = price_column_kind(header, roles)  # the unit price a list or a net one
    r = header_row + 1
    used: set[int] = set()
    missing: list[str] = []
    heading: str | None = None
    under: list[tuple[str | None, LineItem]] = []  # each line with the heading above it
    by_row: dict[int, LineItem] = {}
    # (a line continued on the rows below it, or a page break: read on after them)
    while (r := past_printed(grid, r, roles, header_row, under[-1][1] if under else None,
                             used, vocab, lambda k: _is_line(grid, k, roles))) < len(grid.rows):
        if not _is_line(grid, r, roles):
            # a section heading, a subtotal or a blank row: the table goes on if a line follows
            r, headings = _between_groups(grid, r, roles)
            if r < 0:
                break
            used.update(headings)
            if headings:
                heading = cell_text(next(v for v in grid.rows[max(headings)]
                                         if not is_empty(v)))
        qty_col, price_col = roles.get("quantity"), roles.get("unit_price")
        total_col = roles.get("total")
        desc_col = roles.get("description", roles.get("part"))
        qty = _quantity(grid.value(r, qty_col)) if qty_col is not None else None
        price = _number(grid.value(r, price_col)) if price_col is not None else None
        desc = cell_text(grid.value(r, desc_col)) if desc_col is not None else ""
        total = _number(grid.value(r, total_col)) if total_col is not None else None
        if is_discount_line(desc, [grid.value(r, c) for c in (price_col, total_col) if c]):
            r += 1  # "Rabatt 5 % auf Pos. 1 | 1 | -3.600": a discount (read_paid_rows)
            continue
        cells = {role: grid.where(r, col) for role, col in roles.items()}
        raw = {role: cell_text(grid.value(r, col)) for role, col in roles.items()}
        if total_col is not None and (r, total_col) in grid.formula_cells_without_value:
            missing.append(a1(r, total_col))
        part = cell_text(grid.value(r, roles["part"])) if "part" in roles else ""
        if part and desc_col != roles.get("part") and not part.replace(".", "").isdigit():
            desc = f"{desc} ({part})" if desc else part
        unit = cell_text(grid.value(r, roles["unit"])) if "unit" in roles else None
        if note_col is not None and cell_text(grid.value(r, note_col)):
            raw["note"] = cell_text(grid.value(r, note_col))
        item = LineItem(
            row_where=Location(grid.file, sheet=grid.name, cell=f"{a1(r, 0)}:"
                               f"{a1(r, max(roles.values()))}"),
            description=desc, quantity=qty, unit=unit or header_unit, unit_price=price,
            total=total,
            currency=currency_of(" ".join(raw.values())) or header_currency,
            cells=cells, raw=raw)
        apply_paid_columns(item, grid, r, paid)
        apply_time_column(item, grid, r, times)
        if off is not None:
            column_discount(grid, r, off, cell_text(header[off]), item, record, price_is)
        for c, head in field_cols.items():
            if not is_empty(grid.value(r, c)):
                item.fields.append((head, grid.value(r, c), grid.where(r, c)))
                item.cells[f"field {head}"] = grid.where(r, c)
        record.line_items.append(item)
        by_row[r] = item
        under.append((heading, item))
        used.add(r)
        r += 1
    if used and vocab is not None:
        read_paid_rows(grid, used, by_row, roles, record, vocab)
        names = list(dict.fromkeys(h for h, _ in under if h))
        if "group" not in roles and enumerates_options(names, vocab):
            # "Wariant I – umowa na 12 miesięcy" over its lines, "Wariant II – …" over
            # others: headings that enumerate options make each group of lines an option.
            for name, item in under:
                if name:
                    item.raw["group"] = name
    if missing:
        record.problems.append(Problem(
            Location(grid.file, sheet=grid.name, cell=", ".join(missing)),
            severity="warning", code="formula-without-value"))
    return used


def alternatives_by_accelerator(items: list[LineItem]) -> None:
    """Priced lines that each name a different accelerator ("Cluster - 2 nós × 8 NVIDIA H100
    PCIe", "Nó - 1 nó × 8 NVIDIA H200 NVL"): one offer each, as an offer has one accelerator
    (each line a group); the lines that name none (storage, support) are shared."""
    named: dict[int, str] = {}
    for index, item in enumerate(items):
        if item.raw.get("group") or (item.unit_price is None and item.total is None):
            continue
        try:
            named[index] = recognise_accelerator(item.description).id
        except EvaltoolError:
            continue
    if len(named) < 2 or len(set(named.values())) != len(named) or len(
            {items[i].description for i in named}) != len(named):
        return
    for index in named:
        items[index].raw["group"] = items[index].description
