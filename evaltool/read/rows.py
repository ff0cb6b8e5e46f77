"""Offers as the rows of a table: a CSV export or a listing sheet, one offer per row under
a header of field names, each cell read with the label of its column."""

from __future__ import annotations

import re

from evaltool.errors import Problem
from evaltool.read.cells import Candidate, RawRecord, SheetGrid, cell_text, is_empty
from evaltool.read.text import billing_unit, currency_of, resource_of
from evaltool.read.vocabulary import Vocabulary, label_shape, normalise_label


def formula_problem(grid: SheetGrid, r: int, c: int, label: str) -> Problem:
    return Problem(grid.where(r, c), severity="warning", code="formula-cell-without-value",
                   params={"label": label})



def offer_per_row(grid: SheetGrid, header_row: int, columns: dict[int, str],
                   data_rows: list[int], record: RawRecord, base_id: str,
                   vocab: Vocabulary | None = None) -> list[RawRecord]:
    records: list[RawRecord] = []
    status_col = _status_column(grid.rows[header_row], vocab)
    columns = {**columns, **_count_columns(grid.rows[header_row], columns)}
    defined = _defined_columns(grid, header_row, columns)
    columns = {**columns, **{c: label for c, (label, _) in defined.items()}}
    units = unit_columns(grid.rows[header_row], columns)
    # "USD per hour for the whole machine" and no node column: each row is one machine.
    whole_node = next((c for c, (_, text) in defined.items() if resource_of(text) == "node"
                       and billing_unit(text) in _TIMES), None)
    if whole_node is not None and vocab is not None and any(
            vocab.match(label) == "node_count" for label in columns.values()):
        whole_node = None
    for r in data_rows:
        if len(data_rows) == 1:
            target = record
        else:
            source = dict(record.source)
            source["row"] = r + 1
            target = RawRecord(id=f"{base_id}-row-{r + 1}", source=source)
            records.append(target)
        status = cell_text(grid.value(r, status_col)) if status_col is not None else ""
        if vocab is not None and status and normalise_label(status) in vocab.withdrawn:
            target.problems.append(Problem(grid.where(r, status_col or 0),
                                           code="offer-withdrawn", params={"status": status}))
        for c, label in columns.items():
            value = grid.value(r, c)
            if (r, c) in grid.formula_cells_without_value:
                target.problems.append(formula_problem(grid, r, c, label))
                continue
            if is_empty(value):
                continue
            for unit_col in (u for u, of in units.items() if of == c):
                value = _with_unit(value, grid.value(r, unit_col))
            if c in defined:  # "dph_total = USD per hour for the whole machine"
                value = f"{cell_text(value)} {defined[c][1]}"
            target.candidates.append(Candidate(label, value, grid.where(r, c),
                                               label_where=grid.where(header_row, c)))
            if c == whole_node:
                target.candidates.append(Candidate("nodes", 1, grid.where(r, c),
                                                   note=f"the price is {defined[c][1]!r}"))
        for c, head in enumerate(grid.rows[header_row]):
            # A column no label names ("commit | 6 months", "shared_storage | WEKA 300TB"):
            # its words may still state facts, read by their shape only.
            value = grid.value(r, c)
            if c in columns or c in units or c == status_col or not isinstance(head, str) \
                    or not head.strip() or not isinstance(value, str) \
                    or not re.search(r"[^\W\d_]", value):
                continue
            target.candidates.append(Candidate(head.strip(), value, grid.where(r, c),
                                               label_where=grid.where(header_row, c),
                                               shape_only=True))
    if records:
        record.source["rows"] = len(records)
    return records


def _count_columns(header: list[object], columns: dict[int, str]) -> dict[int, str]:
    """Header cells that name a count by their shape ("num_gpus", "Anzahl Knoten", "GPUs
    gesamt"), though not an exact field label: the GPUs or nodes each row offers."""
    return {c: head.strip() for c, head in enumerate(header)
            if c not in columns and isinstance(head, str) and head.strip()
            and label_shape(normalise_label(head)) is not None}


_TIMES = ("hour", "day", "week", "month", "year")
# "dph_total = USD per hour for the whole machine", "price_eur: EUR pro Stunde und Server":
# the document's own legend of a column whose name is no field label.
_LEGEND_RE = re.compile(r"^\s*(?P<key>[\w.-]{2,40})\s*(?:=|:|—|–|-)\s*(?P<text>[^=]{3,120})$")


def _defined_columns(grid: SheetGrid, header_row: int, columns: dict[int, str]
                     ) -> dict[int, tuple[str, str]]:
    """{column: (label, definition)} for columns the file's comment lines define as a price
    (a currency and a time basis: "USD per hour for the whole machine"); the definition is
    read as the unit of every value in the column (a column with no field name is a price)."""
    if not grid.comments:
        return {}
    names = {normalise_label(cell_text(v)): c for c, v in enumerate(grid.rows[header_row])
             if isinstance(v, str)}
    found: dict[int, tuple[str, str]] = {}
    for _, comment in grid.comments:
        for part in re.split(r"[;\n]", comment):
            m = _LEGEND_RE.match(part)
            if m is None:
                continue
            c = names.get(normalise_label(m["key"]))
            text = m["text"].strip()
            if c is not None and currency_of(text) and billing_unit(text):
                found[c] = (columns.get(c, "price"), text)
    return found


# A column that only says what another column's figure is counted in: "price | price_unit"
# ("2.15 | per GPU/hr"), "Rate | Billing unit", "Preis | Preiseinheit".  Its word ends the
# header ("unit price" is a price, not a unit).
_UNIT_WORDS = ("unit", "units", "uom", "unite", "einheit", "unidad", "unita", "jednostka",
               "eenheid", "enhet", "enheter", "yksikko")


def unit_columns(header: list[object], columns: dict[int, str]) -> dict[int, int]:
    """{unit column: the column whose value it qualifies}: the column its header names
    ("price_unit" -> "price"), else the nearest field column to its left."""
    named = {normalise_label(label): c for c, label in columns.items()}
    found: dict[int, int] = {}
    for c, head in enumerate(header):
        if c in columns or not isinstance(head, str):
            continue
        words = normalise_label(head).split()
        if not words or len(words) > 3 or not words[-1].endswith(_UNIT_WORDS):
            continue
        stem = " ".join(words[:-1]) or words[-1][:-len(next(
            w for w in _UNIT_WORDS if words[-1].endswith(w))) or None]
        target = named.get(stem) if stem else None
        if target is None:
            left = [k for k in columns if k < c]
            if not left:
                continue
            target = max(left)
        found[c] = target
    return found


def _with_unit(value: object, unit: object) -> object:
    unit_text = cell_text(unit).strip()
    if not unit_text or unit_text.lower() in cell_text(value).lower():
        return value
    return f"{cell_text(value)} {unit_text}"


def _status_column(header: list[object], vocab: Vocabulary | None) -> int | None:
    if vocab is None:
        return None
    return next((c for c, v in enumerate(header) if isinstance(v, str)
                 and normalise_label(v) in vocab.status_headers), None)
