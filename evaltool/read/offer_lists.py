"""A list of offers in a YAML/JSON document, found by what its items hold, not by its key.

A broker's export lists bids (`"bids": [...]`), a portal its awards, a reseller its
alternatives: whatever the key, a list of two or more mappings where every item names an
accelerator and carries a price of its own is a list of offers, each read on its own with
the document's other keys (seller, RFQ, notes) shared by all.  Line items of one offer never
qualify: they do not each name an accelerator.
"""

from __future__ import annotations

from typing import Any

from evaltool.grammar.accelerators import names_an_accelerator
from evaltool.read.cells import cell_text
from evaltool.read.text import billing_unit
from evaltool.read.vocabulary import Vocabulary, normalise_label

_MAX_DEPTH = 2
_PRICE_SLOTS = frozenset({"price"})


def _texts(node: Any, depth: int = 0) -> list[str]:
    if isinstance(node, dict) and depth < 3:
        return [t for v in node.values() for t in _texts(v, depth + 1)]
    if isinstance(node, list) and depth < 3:
        return [t for v in node for t in _texts(v, depth + 1)]
    return [node] if isinstance(node, str) else []


def _flat_price(value: Any) -> bool:
    """'17.2 USD/node/hr' or {amount: 17.2, unit: USD/node/hr}: a price stated in the item
    with its basis; not a bare figure whose unit is another key of a line item, nor a billing
    object of its own (a nested price with its product and recurrence): the line-item
    readers read those."""
    if isinstance(value, dict):
        if any(isinstance(v, (dict, list)) for v in value.values()):
            return False
        text = " ".join(cell_text(v) for v in value.values())
    elif isinstance(value, str):
        text = value
    else:
        return False
    return billing_unit(text) is not None


def _is_offer(item: dict[Any, Any], vocab: Vocabulary) -> bool:
    priced = any(vocab.match(normalise_label(str(k))) in _PRICE_SLOTS
                 and _flat_price(v) for k, v in item.items())
    return priced and any(names_an_accelerator(t) for t in _texts(item))


def priced_offer_list(data: dict[Any, Any], vocab: Vocabulary, depth: int = 0
                      ) -> tuple[list[str], list[dict[Any, Any]], dict[Any, Any]] | None:
    """(keys to it, the offers, what they share) of the first list whose items are each an
    offer (an accelerator and a price of its own); None when the document has none."""
    for key, value in data.items():
        if isinstance(value, list) and len(value) >= 2 and all(
                isinstance(x, dict) and _is_offer(x, vocab) for x in value):
            return [str(key)], value, {k: v for k, v in data.items() if k != key}
    if depth >= _MAX_DEPTH:
        return None
    for outer, inner in data.items():
        if isinstance(inner, dict) and (
                found := priced_offer_list(inner, vocab, depth + 1)) is not None:
            keys, offers, shared = found
            siblings = {k: v for k, v in data.items() if k != outer}
            return [str(outer), *keys], offers, {**siblings, **shared}
    return None
