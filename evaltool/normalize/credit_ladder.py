"""The credit cap of a ladder of service credits that states no cap word.

"Service credits 10% / 25% / 100% of the monthly instance fee (<99.9% / <99% / <95%)",
"Gutschrift 5 % / 10 % / 30 % der Monatsgebühr bei Verfügbarkeit unter 99,9 % / 99,5 % /
99 %": each step of availability below target owes a larger share of the month's fee; the
largest step is the most a month's credit reaches, so it is the cap.  Read only where no
sentence or cell states a cap, with a warning: a ladder's top is the cap by inference.
"""

from __future__ import annotations

import re

from evaltool.errors import Location
from evaltool.normalize.facts import IN_TEXT
from evaltool.normalize.phrases import MAX_PROSE_CHARS, _words, capped_percent, fold
from evaltool.normalize.slots import SlotReaders

_PCT_RE = re.compile(r"(\d{1,3}(?:[.,]\d{1,3})?)\s*%")
# a threshold of availability: after "<", "below", "unter", ... or at 90% and above
_THRESHOLD_BEFORE_RE = re.compile(r"(?:[<≤]|\bbelow|\bunder|\bunter(?:halb)?|\bsous|\bpor\s+debajo"
                                  r"\s+del?|\bsotto|\bponizej|\bpod|\bonder|\bless\s+than)\s*$",
                                  re.I)


def ladder_cap(text: str) -> float | None:
    """The top step of a credit ladder ('10% / 25% / 100% ... (<99.9% / <99% / <95%)'), or
    None when the text is no ladder or states its cap in words."""
    if len(text) > MAX_PROSE_CHARS or not _words()["topics"]["credit"].search(fold(text)):
        return None
    if capped_percent(text) is not None:
        return None  # a cap in words is read by the prose readers
    credits, thresholds = [], []
    for match in _PCT_RE.finditer(text):
        value = float(match.group(1).replace(",", "."))
        before = text[max(0, match.start() - 20):match.start()]
        if _THRESHOLD_BEFORE_RE.search(before) or (90 <= value < 100):
            thresholds.append(value)
        elif 0 < value <= 100:
            credits.append(value)
    if len(credits) < 2 or len(thresholds) < 2 or credits != sorted(credits):
        return None  # one credit is no ladder; a ladder climbs as availability falls
    return max(credits)


def credit_cap_from_ladder(b: SlotReaders) -> None:
    if b.facts.get("sla_max_credit_pct"):
        return
    texts: list[tuple[str, Location]] = []
    for cand in b.record.candidates:
        for text in (cand.value, cand.note):
            if isinstance(text, str):
                texts.append((text, cand.where))
    texts += list(b.record.notes)
    texts += [(str(s.get("text") or ""), Location(**{
        k: v for k, v in dict(s.get("where") or {}).items()
        if k in ("file", "sheet", "cell", "key")})) for s in b.record.segments]
    for text, where in texts:
        cap = ladder_cap(text)
        if cap is not None:
            b.add("sla_max_credit_pct", cap, where, text, IN_TEXT,
                  "the top step of a ladder of service credits")
            b.note(where, "credit-cap-from-ladder", {"cap": cap}, "sla_max_credit_pct",
                   text[:120], severity="warning")
            return
