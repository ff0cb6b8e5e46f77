"""Rows of one line-item table that each name a different accelerator and a price (a
procurement portal's export: "HGX H100 node | 32 | 19.60 per node-hour", "HGX B200 node | 16 |
39.92 per node-hour"): alternative offers, one each, as an offer has one accelerator.  A line
that names none (storage, an optional add-on, support) is shared by every alternative and never
an offer of its own."""

from __future__ import annotations

from evaltool.read.cells import RawRecord
from evaltool.read.lineitems import alternatives_by_accelerator


def alternatives_per_table(record: RawRecord, tables: list[tuple[int, int]]) -> None:
    """Mark the alternatives of each table (`tables`: header row, index of its first line in
    `record.line_items`) as groups; a table whose lines name one accelerator is left alone."""
    bounds = [start for _, start in tables] + [len(record.line_items)]
    for index in range(len(tables)):
        alternatives_by_accelerator(record.line_items[bounds[index]:bounds[index + 1]])
