"""A line's price net of the discounts the quote gives on it (read/paid_rows.py places each
discount row of a sheet on its lines; `place_discount_lines` those of a structured quote,
JSON or YAML): what the buyer pays for the line, never its list price."""

from __future__ import annotations

from evaltool.errors import Problem
from evaltool.normalize.slots import SlotReaders
from evaltool.read.cells import LineItem, RawRecord
from evaltool.read.paid_rows import discount_targets, is_discount_line, share_in


def discount_factor(item: LineItem) -> float:
    """1 less each discount the quote gives on the line, one after the other."""
    factor = 1.0
    for share, _, _ in item.discounts:
        factor *= 1.0 - share
    return factor


def line_amount(item: LineItem, price: float, qty: float) -> float:
    """A one-off line's amount: its total when the quote gives one beside a unit price, net
    of the line's discounts, else quantity x the (net) unit price."""
    if item.total is not None and item.unit_price is not None:
        return item.total * discount_factor(item)
    return price * qty


def net_line_price(reader: SlotReaders, item: LineItem, price: float | None) -> float:
    """The line's unit price net of its discounts, each said (`line-discount-applied`)."""
    assert price is not None  # (a line with neither price nor total is not read)
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


def place_discount_lines(record: RawRecord) -> None:
    """A structured quote's discount line ("Annual commitment discount 10% on line 1 | total:
    -8000"): on the lines above it that it names or whose total its share explains, and
    never a line bought; said when its lines cannot be told (`discount-not-placed`)."""
    kept: list[LineItem] = []
    for item in record.line_items:
        if not is_discount_line(item.description, [item.total, item.unit_price]):
            kept.append(item)
            continue
        amount = abs(item.total if item.total is not None else (item.unit_price or 0.0) * (
            item.quantity or 1.0))
        placed = discount_targets(item.description, amount or None, share_in(item.description),
                                  kept, under=False)
        if placed is None:
            record.problems.append(Problem(
                item.row_where, found=item.description[:120], severity="warning",
                code="discount-not-placed", params={"label": item.description}))
            continue
        targets, share = placed
        for target in targets:
            target.discounts.append((share, item.row_where, item.description))
    record.line_items[:] = kept
