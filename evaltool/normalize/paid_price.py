"""Which labelled price the buyer pays: net beats list.

A calculator or a private offer states a price several times: the list or base rate, the
discount, and the net rate ("Precio base por acelerador-hora | 2,10", "Descuento por volumen |
10%", "Precio neto por acelerador-hora | 1,89"). The buyer pays the net one. Each labelled
compute price gets a rank by its label's words (evaltool/data/paid_words.yaml, any language):
-1 for a list or base price (the price before the discount: the price only when no other is
stated), +1 for a net, effective or discounted price (it beats a price whose label says
neither), 0 otherwise. Between two prices of the same rank the first stated is used, and the
other is said (`second-compute-price`).
"""

from __future__ import annotations

import functools

from evaltool.normalize.money import is_list_price
from evaltool.read.vocabulary import normalise_label
from evaltool.resources import data_dir


@functools.cache
def _words(key: str) -> tuple[str, ...]:
    import yaml

    raw = yaml.safe_load((data_dir() / "paid_words.yaml").read_text(encoding="utf-8"))
    return tuple(sorted({normalise_label(str(w)) for w in raw[key]} - {""}, key=len,
                        reverse=True))


def _says(label: str, key: str) -> bool:
    padded = f" {normalise_label(label)} "
    return any(f" {w} " in padded for w in _words(key))


def paid_rank(label: str) -> int:
    """'List $/GPU-hr', 'Precio base (€)' -> -1; 'Net $/GPU-hr', 'Precio neto' -> 1; else 0."""
    if is_list_price(label) or _says(label, "list_price"):
        return -1
    return 1 if _says(label, "net_price") else 0
