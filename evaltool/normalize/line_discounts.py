"""A line's price net of the discounts the quote gives on it (read/paid_rows.py places each
discount row on its lines): what the buyer pays for the line, never its list price."""

from __future__ import annotations

from evaltool.normalize.slots import SlotReaders
from evaltool.read.cells import LineItem


def discount_factor(item: LineItem) -> float:
    """1 less each discount the quote gives on the line, one after the other."""
    factor = 1.0
    for share, _, _ in item.discounts:
        factor *= 1.0 - share
    return factor


def net_line_price(reader: SlotReaders, item: LineItem, price: float) -> float:
    """The line's unit price net of its discounts, each said (`line-discount-applied`)."""
    factor = discount_factor(item)
    if factor == 1.0:
        return price
    for share, where, label in item.discounts:
        if any(p.code == "line-discount-applied" and p.where == where for p in reader.problems):
            continue  # one discount row on several lines: said once
        reader.note(where, "line-discount-applied", {
            "label": label, "pct": round(share * 100, 4), "before": price,
            "after": price * factor}, None, label, severity="info")
    return price * factor
