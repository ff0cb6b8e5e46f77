"""Offers as the rows of a table: a CSV export or a listing sheet, one offer per row under
a header of field names, each cell read with the label of its column."""

from __future__ import annotations

from evaltool.errors import Problem
from evaltool.read.cells import Candidate, RawRecord, SheetGrid, cell_text, is_empty
from evaltool.read.vocabulary import Vocabulary, normalise_label


def formula_problem(grid: SheetGrid, r: int, c: int, label: str) -> Problem:
    return Problem(grid.where(r, c), f"'{label}': formula cell holds no calculated value; "
                   "formulas are never evaluated, so the value is taken from the offer's "
                   "other figures where they allow it", found="formula without cached value",
                   expected="a value", severity="warning", code="formula-without-value")



def offer_per_row(grid: SheetGrid, header_row: int, columns: dict[int, str],
                   data_rows: list[int], record: RawRecord, base_id: str,
                   vocab: Vocabulary | None = None) -> list[RawRecord]:
    records: list[RawRecord] = []
    status_col = _status_column(grid.rows[header_row], vocab)
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
            target.problems.append(Problem(
                grid.where(r, status_col or 0), f"the row's status is {status!r}: the listing "
                "is no longer on offer, so it is not evaluated", found=status,
                expected="an active listing", code="offer-withdrawn"))
        for c, label in columns.items():
            value = grid.value(r, c)
            if (r, c) in grid.formula_cells_without_value:
                target.problems.append(formula_problem(grid, r, c, label))
                continue
            if is_empty(value):
                continue
            target.candidates.append(Candidate(label, value, grid.where(r, c),
                                               label_where=grid.where(header_row, c)))
    if records:
        record.source["rows"] = len(records)
    return records


def _status_column(header: list[object], vocab: Vocabulary | None) -> int | None:
    if vocab is None:
        return None
    return next((c for c, v in enumerate(header) if isinstance(v, str)
                 and normalise_label(v) in vocab.status_headers), None)
