"""A line's time basis stated beside its unit column: the unit says what the quantity counts
("GPU", "node", "stk."), a remarks column says the time ("pr. GPU-time", "pr. måned", "pro
Monat"), or a time column multiplies the quantity ("8 | node | 730 hours | 17.20 | 100,448"
bills per node-hour).  Without this the line has no time basis and is read as hardware bought
once: a monthly rental invoice would become a purchase.
"""

from __future__ import annotations

import datetime as dt
import re

from evaltool.grammar.basis import time_adverb, time_of
from evaltool.normalize import values as V
from evaltool.normalize.phrases import fold, says_billed
from evaltool.read import text as T
from evaltool.read.cells import LineItem
from evaltool.read.time_columns import month_of_hours

# "delivery March 2026", "Lieferung März 2026": a month of delivery is no month billed.
_DELIVERY_RE = re.compile(r"\bdeliver\w*|\bliefer\w*|\blivr\w*|\bentreg\w*|\bconsegn\w*|"
                          r"\blever\w*|\bdostaw\w*|\bship\w*|\beta\b|\bavailab\w*", re.I)


def _one_month(text: str) -> bool:
    """'GPU compute, February 2026': the text names one calendar month (no delivery of it)."""
    if not re.search(r"(?<!\d)(?:19|20)\d\d(?!\d)", text) or _DELIVERY_RE.search(fold(text)):
        return False
    try:
        parsed = V.parse_date(text, dayfirst=True)
    except (V.ValueParseError, ValueError, ArithmeticError):
        return False
    first, last = parsed.earliest, parsed.latest
    return isinstance(first, dt.date) and isinstance(last, dt.date) and first.day == 1 and \
        27 <= (last - first).days <= 30


def month_of_service(item: LineItem, notes: list[str]) -> bool:
    """An invoice line for one calendar month ('GPU compute – 8 × HGX H100 nodes, February
    2026') in a document that says it bills monthly: the line's amount is that month's."""
    return (item.total or item.unit_price) is not None and _one_month(item.description) and any(
        says_billed(n) and time_adverb(n) == "month" for n in notes)


def side_basis(item: LineItem, unit: str, notes: list[str] | None = None) -> str | None:
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
    # no time stated anywhere on the line: its amount may prove an hourly rate for a month,
    # or the line bills one calendar month of a document billed monthly
    if month_of_hours(item):
        return "hour"
    return "month" if not unit and month_of_service(item, notes or []) else None
