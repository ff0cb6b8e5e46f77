"""A resource and a time written as one word: 'GPUh', 'nodeh', 'Knotenstunde', and the
Slavic compounds with a linking vowel: Czech 'uzlohodinu' (uzl-o-hodinu: a node-hour),
Polish 'węzłogodzina', Russian 'узлочас'.

The head is a resource word (gpu, node, rack), or the stem of one less an ending of at most
two letters followed by a linking vowel (evaltool/data/basis_words.yaml: compound_links);
the tail is a time word. Returns the two vocabulary words, so the money parser reads them
as it reads 'node-hour'."""

from __future__ import annotations

import functools
from typing import Final

from evaltool.grammar.basis import basis_vocabulary

_RESOURCES: Final = ("gpu", "node", "rack")
_TIMES: Final = frozenset({"second", "minute", "hour", "day", "week", "month", "year"})
_ENDING_MAX: Final = 2
_STEM_MIN: Final = 3


@functools.cache
def _stems() -> dict[str, str]:
    """Resource stem -> a resource word it begins ('uzl' -> 'uzlu', 'węzł' -> 'węzła')."""
    stems: dict[str, str] = {}
    for word, basis in basis_vocabulary()["words"].items():
        if basis not in _RESOURCES:
            continue
        low = word.casefold()
        for cut in range(max(_STEM_MIN, len(low) - _ENDING_MAX), len(low) + 1):
            stems.setdefault(low[:cut], low)
    return stems


def compound_basis(word: str) -> list[str]:
    """'GPUh' -> ['gpu', 'h']; 'uzlohodinu' -> ['uzlu', 'hodinu']; [] when not a compound."""
    words = basis_vocabulary()["words"]
    links = tuple(basis_vocabulary()["compound_links"])
    low = word.casefold()
    for cut in range(len(low) - 1, 2, -1):
        head, tail = low[:cut], low[cut:]
        if words.get(tail) not in _TIMES:
            continue
        if words.get(head) in _RESOURCES:
            return [head, tail]
        for link in links:
            stem = head[: -len(link)] if head.endswith(link) else ""
            if len(stem) >= _STEM_MIN and stem in _stems():
                return [_stems()[stem], tail]
    return []
