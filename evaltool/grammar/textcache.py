"""A cache for readers that are pure functions of a text (its counts, its billing unit, its
bandwidth...): several readers ask them of the same cell, and a batch's files share their
labels and spec lines (benchmarks/ingest.py).

Only texts up to MAX_CACHED_CHARS are kept, and at most `maxsize` of them per reader, so a
hostile file of long distinct texts cannot grow the memory of a long run; a longer text is
read each time, as before.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import ParamSpec, TypeVar

MAX_CACHED_CHARS = 1000  # a label, a value, a note: longer text is a clause, read each time

_P = ParamSpec("_P")
_R = TypeVar("_R")


def by_text(maxsize: int = 4096) -> Callable[[Callable[_P, _R]], Callable[_P, _R]]:
    """Cache a reader whose first argument is the text it reads (results must be immutable
    or copied by the caller)."""
    def wrap(reader: Callable[_P, _R]) -> Callable[_P, _R]:
        cached = functools.lru_cache(maxsize=maxsize)(reader)

        @functools.wraps(reader)
        def read(*args: _P.args, **kwargs: _P.kwargs) -> _R:
            text = args[0] if args else None
            if isinstance(text, str) and len(text) > MAX_CACHED_CHARS:
                return reader(*args, **kwargs)
            return cached(*args, **kwargs)  # type: ignore[arg-type]

        read.cache_clear = cached.cache_clear  # type: ignore[attr-defined]
        return read
    return wrap
