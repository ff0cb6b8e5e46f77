"""A duration of months or years in a clause, in every language of the basis vocabulary
("12 måneder", "6ヶ月", "24 meses", "3 roky", "12개월"): the words come from
evaltool/data/basis_words.yaml (basis ``month`` and ``year``), never a list of our own."""

from __future__ import annotations

import functools
import re

from evaltool.grammar.basis import basis_vocabulary
from evaltool.normalize.phrases import fold

_CJK = re.compile(r"[\u3040-\u9fff\uac00-\ud7af]")


@functools.cache
def _units() -> dict[str, str]:
    """Each month and year word, as written and without its accents ("miesiecy")."""
    units: dict[str, str] = {}
    for word, basis in basis_vocabulary()["words"].items():
        # One Latin letter ("m", "a", "y") is as often something else: two letters or more.
        if basis in ("month", "year") and (len(word) >= 2 or _CJK.search(word)):
            units[word.casefold()] = basis
            units[fold(word).casefold()] = basis
    return units


@functools.cache
def _duration_re() -> re.Pattern[str]:
    units = sorted(_units(), key=len, reverse=True)
    alternatives = "|".join(re.escape(w) + ("" if _CJK.search(w) else r"(?![^\W\d_])")
                            for w in units)
    return re.compile(r"(?:\((\d{1,3})\)|(?<![\d.,])(\d{1,3}))\s*-?\s*(" + alternatives + ")",
                      re.I)


def duration_months(text: str) -> tuple[int, re.Match[str]] | None:
    """The first 'N months' or 'N years' of a text, in months, and its match; None if none."""
    match = _duration_re().search(text)
    if match is None:
        return None
    count = int(match.group(1) or match.group(2))
    unit = _units().get(match.group(3).casefold(), "month")
    return (count if unit == "month" else count * 12), match
