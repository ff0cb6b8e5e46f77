"""A line's time basis stated beside its unit column: the unit says what the quantity counts
("GPU", "node", "stk."), a remarks column says the time ("pr. GPU-time", "pr. måned", "pro
Monat"), or a time column multiplies the quantity ("8 | node | 730 hours | 17.20 | 100,448"
bills per node-hour).  Without this the line has no time basis and is read as hardware bought
once: a monthly rental invoice would become a purchase.
"""

from __future__ import annotations

from evaltool.normalize.basis import time_adverb, time_of
from evaltool.read import text as T
from evaltool.read.cells import LineItem
from evaltool.read.time_columns import month_of_hours


def side_basis(item: LineItem, unit: str) -> str | None:
    """The billing basis a line states outside its unit and price cells, or None: the time
    column whose figure explains the amount (read/time_columns.py), then, where a unit column
    says only what is counted, the line's remarks column; last, an amount that is quantity x
    rate x the hours of a month."""
    if item.per_time:
        return item.per_time
    note = item.raw.get("note")
    if unit and note:
        found = T.billing_unit(note) or time_of(note) or time_adverb(note)
        if found:
            return found
    # no time stated anywhere on the line: its amount may prove an hourly rate for a month
    return "hour" if month_of_hours(item) else None
