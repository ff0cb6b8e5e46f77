"""Options named only in a note: "PREPAY OPTION: pay the 12 months in advance and receive a 6%
discount on line 1" under a pro-forma invoice, "Alternative: 3-year term at 10% less" in a
footnote.  No table prices such an option, so it is not read as an offer; but the document
offers it, so it is said (code `option-in-note`), never dropped in silence.  The option words are
data (evaltool/data/price_grid_words.yaml)."""

from __future__ import annotations

import functools
import re

from evaltool.errors import Problem
from evaltool.read.cells import RawRecord
from evaltool.read.tiers import grid_words
from evaltool.read.vocabulary import normalise_label

# A figure that changes the price: a percentage, or an amount with a currency.
_FIGURE_RE = re.compile(r"\d\s?%|%\s?\d|[$€£¥₩]\s?\d|\d\s?(?:[$€£¥₩]|USD|EUR|GBP)\b")


@functools.cache
def _option_re() -> re.Pattern[str]:
    words = sorted(grid_words()["option"], key=len, reverse=True)
    return re.compile(r"(?<!\w)(?:" + "|".join(re.escape(w) for w in words) + r")(?!\w)", re.I)


def options_in_notes(record: RawRecord, found: list[RawRecord]) -> None:
    """Say each note that offers an option with a price-changing figure, unless the option it
    names is one of the offers `found`."""
    names = {normalise_label(str(r.source.get("option", ""))) for r in found}
    names.discard("")
    seen: set[str] = set()
    for text, where in record.notes:
        match = _option_re().search(text)
        if match is None or not _FIGURE_RE.search(text):
            continue
        clause = _clause(text, match.start())
        key = normalise_label(clause)
        if key in seen or any(n and (n in key or key in n) for n in names):
            continue
        seen.add(key)
        record.problems.append(Problem(where, found=clause[:160], severity="warning",
                                       code="option-in-note", params={"text": clause[:120]}))


def _clause(text: str, start: int) -> str:
    """The sentence of the note that names the option."""
    begin = max(text.rfind(". ", 0, start) + 2, 0) if text.rfind(". ", 0, start) >= 0 else 0
    end = text.find(". ", start)
    return text[begin:end + 1 if end >= 0 else len(text)].strip()
