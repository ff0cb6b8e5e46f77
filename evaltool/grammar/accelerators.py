"""Whether a text names an accelerator the catalog knows: a test every stage asks of cells,
line descriptions and phrases."""

from __future__ import annotations

import functools

from evaltool.catalog import recognise_accelerator
from evaltool.errors import EvaltoolError


@functools.lru_cache(maxsize=4096)  # the same descriptions recur across a batch of quotes
def names_an_accelerator(text: str) -> bool:
    try:
        recognise_accelerator(text)
    except EvaltoolError:
        return False
    return True
