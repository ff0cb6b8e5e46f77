"""A progress bar on stderr for long runs, only when stderr is a terminal.

Pipes, files and CI logs stay quiet: a bar there is noise that corrupts captured output.
click.progressbar draws the bar (click is already the CLI's one dependency).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import TextIO, TypeVar

T = TypeVar("T")


def progress_enabled(stream: TextIO | None = None) -> bool:
    """True when `stream` (stderr by default) is an interactive terminal.

    EVALTOOL_NO_PROGRESS=1 turns the bar off even on a terminal.
    """
    stream = stream if stream is not None else sys.stderr
    if os.environ.get("EVALTOOL_NO_PROGRESS"):
        return False
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):  # closed or not a real stream
        return False


def _ignore(steps: int = 1) -> None:
    """The `advance` of a bar that is not drawn."""


@contextmanager
def progress_bar(length: int, label: str, stream: TextIO | None = None) -> Iterator[
    Callable[[int], None]
]:
    """Yield `advance(n)`; draws a bar on a terminal, does nothing otherwise."""
    stream = stream if stream is not None else sys.stderr
    if not progress_enabled(stream) or length <= 1:
        yield _ignore
        return
    import click

    with click.progressbar(length=length, label=label, file=stream) as bar:
        yield bar.update


def track(items: Iterable[T], label: str, length: int | None = None,
          stream: TextIO | None = None) -> Iterator[T]:
    """Iterate over `items`, advancing a bar on a terminal (e.g. one step per offer file)."""
    if length is None:
        try:
            length = len(items)  # type: ignore[arg-type]
        except TypeError:
            length = 0
    with progress_bar(length, label, stream) as advance:
        for item in items:
            yield item
            advance(1)
