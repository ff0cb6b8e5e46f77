"""An accelerator whose variant was assumed ('gpu-a100' -> A100-SXM-80GB by default) while
another cell of the same offer names the variant ('8 × NVIDIA A100-SXM4-40GB'): the stated
variant wins, so the memory and peak that follow from it are the offer's, not a default."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TypeVar

from evaltool.catalog import RecognisedAccelerator, UnknownAcceleratorError
from evaltool.read.cells import cell_text

W = TypeVar("W")


def _family(accelerator_id: str) -> str:
    return accelerator_id.split("-", 1)[0].casefold()


def stated_variant(assumed: str, texts: Iterable[tuple[object, W]],
                   recognise: Callable[[str], RecognisedAccelerator]
                   ) -> tuple[RecognisedAccelerator, str, W] | None:
    """The one variant of the assumed accelerator's family that a text names outright (no
    assumption), with that text and where it stands; None when no text does or texts name
    different ones."""
    found: dict[str, tuple[RecognisedAccelerator, str, W]] = {}
    for value, where in texts:
        text = cell_text(value)
        if not text or not any(ch.isdigit() for ch in text) or len(text) > 200:
            continue
        try:
            rec = recognise(text)
        except (UnknownAcceleratorError, ValueError):
            continue
        if rec.note or rec.id == assumed or _family(rec.id) != _family(assumed):
            continue
        found.setdefault(rec.id, (rec, text, where))
    return next(iter(found.values())) if len(found) == 1 else None
