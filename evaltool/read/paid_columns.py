"""Amount columns of a line-item table whose header says when each line is paid: "One-time |
Monthly", "Einmalig | Monatlich", "Unique | Mensuel", "Una tantum | Mensile".  A line whose
amount stands under a recurring column is billed by that time (colocation, services), never
a one-off purchase; a line whose amount stands under a one-off column is bought once at that
amount.  The words are the basis vocabulary's adverbs (evaltool/data/basis_words.yaml).
"""

from __future__ import annotations

import functools
import re
from typing import Any

from evaltool.grammar.basis import basis_vocabulary
from evaltool.read.cells import LineItem, SheetGrid
from evaltool.read.text import cell_amount, first_number

_PAID_WHEN = ("once", "hour", "day", "week", "month", "year")


@functools.cache
def _adverbs_re() -> re.Pattern[str]:
    words = sorted((w for w, b in basis_vocabulary()["adverbs"].items() if b in _PAID_WHEN),
                   key=len, reverse=True)
    return re.compile(r"(?<![\w-])(?:" + "|".join(re.escape(w) for w in words) + r")(?![\w-])",
                      re.I)


def paid_columns(header: list[Any], taken: set[int]) -> dict[int, str]:
    """{column: 'once' | 'month' | ...} for the header cells outside the table's roles that
    name only when an amount is paid ('Monthly', 'One-time (USD)')."""
    found: dict[int, str] = {}
    for c, head in enumerate(header):
        if c in taken or not isinstance(head, str):
            continue
        m = _adverbs_re().search(head)
        if m:
            found[c] = basis_vocabulary()["adverbs"][m.group(0).casefold()]
    # Only a table that tells one-off from recurring amounts this way says when each is paid.
    return found if len(set(found.values())) >= 2 and "once" in found.values() else {}


# "Committed power, 25 kW": a quantity that a figure of the description repeats counts that
# figure's unit (25 | $155 is 25 kW at $155 per kW).
_FIGURE_RE = re.compile(r"(?<![\w.,])(\d+(?:[.,]\d+)?)\s*([^\W\d_]{1,4})\b")


def apply_paid_columns(item: LineItem, grid: SheetGrid, r: int, paid: dict[int, str]) -> None:
    """A line's own unit and total from the paid-when columns it has an amount in."""
    amounts = {when: a for c, when in paid.items()
               if (a := cell_amount(grid.value(r, c))) is not None and a != 0}
    recurring = [when for when in amounts if when != "once"]
    if "once" in amounts and not recurring:
        if item.total is None:
            item.total = amounts["once"]
            item.cells["total"] = grid.where(r, next(c for c, w in paid.items() if w == "once"))
        return
    if len(recurring) != 1 or "once" in amounts or item.unit:
        return
    when = recurring[0]
    counted = next((m.group(2) for m in _FIGURE_RE.finditer(item.description)
                    if item.quantity and first_number(m.group(1)) == item.quantity
                    and item.quantity != 1), None)
    item.unit = f"{counted}/{when}" if counted else when
    if item.total is None:
        item.total = amounts[when]
