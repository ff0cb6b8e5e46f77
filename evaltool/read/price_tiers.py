"""Volume tiers of a structured quote: a list of price tiers under one line ("tiered_pricing":
[{min_qty: 1, max_qty: 63, unit_price: 1.95}, {min_qty: 64, max_qty: 255, unit_price: 1.72},
...], beside "uom: accelerator-hour").  Each tier is a price of the line, not a line bought:
its range in the candidate's note ("tier: 64 - 255"), read by the price slot with the line's
unit; the normalizer keeps the tier whose range holds the offer's count (normalize/
paid_price.py), and says when none does.  A list is tiers when every item has a price and two
quantity bounds whose ranges ascend (read/tiers.py).
"""

from __future__ import annotations

import re
from typing import Any

from evaltool.read.cells import Candidate, cell_text
from evaltool.read.discount_tiers import TIER_NOTE
from evaltool.read.tiers import ascending, unit_of
from evaltool.read.vocabulary import Vocabulary, normalise_label

# The lower bound's key: "min_qty", "from_units", "von", "desde", "od" (the other is the upper).
_LOW_RE = re.compile(r"^(?:min|minimum|from|von|ab|desde|de|da|od|vanaf|fra|fran|start|lower)"
                     r"\b|\b(?:min|from|low|lower|start)$")
_UNIT_KEYS = ("uom", "unit", "unit of measure", "billing unit", "per", "einheit", "unidad")


def _bounds(item: dict[Any, Any], vocab: Vocabulary) -> tuple[float, float | None, Any] | None:
    """(low, high, price) of one tier item, or None when it is no tier."""
    counts = [k for k in item if vocab.header_role(str(k)) == "quantity"]
    prices = [k for k in item if vocab.header_role(str(k)) == "unit_price"]
    if len(counts) != 2 or len(prices) != 1:
        return None
    low_keys = [k for k in counts if _LOW_RE.search(normalise_label(str(k)))]
    if len(low_keys) != 1:
        return None
    high_key = next(k for k in counts if k != low_keys[0])
    low, high = item[low_keys[0]], item[high_key]
    if not isinstance(low, (int, float)) or isinstance(low, bool) or not (
            high is None or (isinstance(high, (int, float)) and not isinstance(high, bool))):
        return None
    return float(low), None if high is None else float(high), item[prices[0]]


def tier_candidates(node: dict[Any, Any], vocab: Vocabulary,
                    where: Any) -> tuple[str, list[Candidate]] | None:
    """The key of a list of price tiers in `node`, and each tier as a price candidate with the
    line's unit; None when `node` has no such list.  `where(keys)` locates a key path."""
    unit = next((cell_text(node[k]) for k in node if normalise_label(str(k)) in _UNIT_KEYS
                 and isinstance(node[k], str)), "")
    for key, value in node.items():
        if not (isinstance(value, list) and len(value) >= 2
                and all(isinstance(x, dict) for x in value)):
            continue
        tiers = [_bounds(x, vocab) for x in value]
        if any(t is None for t in tiers):
            continue
        ranges = [(t[0], t[1]) for t in tiers if t is not None]
        if not ascending(ranges):
            continue
        basis = " ".join(cell_text(v) for k, v in node.items() if isinstance(v, str))
        counted = " nodes" if unit_of([basis]) == "node" else ""
        found = []
        for index, (low, high, price) in enumerate(t for t in tiers if t is not None):
            text = f"{low:g}+" if high is None else f"{low:g} - {high:g}"
            amount = f"{cell_text(price)} per {unit}" if unit else price
            found.append(Candidate("price", amount, where([str(key), str(index)]),
                                   note=f"{TIER_NOTE}{text}{counted}"))
        return str(key), found
    return None
