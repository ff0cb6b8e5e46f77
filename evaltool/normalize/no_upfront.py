"""'Payment | Monthly in arrears, no upfront', '12-month reserved billed monthly, no upfront.',
'keine Vorauszahlung': a sentence that says nothing is paid up front states an upfront payment
of 0 (the words: evaltool/data/free_words.yaml, no_upfront).  Read only for a rental with no
upfront stated, from a sentence that states no amount of its own."""

from __future__ import annotations

import functools
import re

from evaltool.errors import Location
from evaltool.normalize.facts import IN_TEXT
from evaltool.normalize.phrases import MAX_PROSE_CHARS, clauses, fold
from evaltool.normalize.slots import SlotReaders
from evaltool.read.text import currency_of
from evaltool.resources import data_dir

# a clause that asks for money before the service: "a 10% deposit is due at signature"
_PAID_FIRST_RE = re.compile(r"deposit|prepa|upfront|up-front|advance|signature|signing|anzahlung|"
                            r"vorauszahl|acompte|anticip|adiantamento|zaliczk|zaloh|aanbetaling|"
                            r"forudbetal|forskott", re.I)
_AMOUNT_RE = re.compile(r"\d\s*%|[$€£¥]\s*\d|\d[\d.,]*\s*(?:[$€£¥]|usd|eur|gbp)\b", re.I)


@functools.cache
def _no_upfront_re() -> re.Pattern[str]:
    import yaml

    raw = yaml.safe_load((data_dir() / "free_words.yaml").read_text(encoding="utf-8"))
    return re.compile("|".join(f"(?:{w})" for w in raw["no_upfront"]), re.I)


def says_no_upfront(text: str) -> bool:
    """'Monthly in arrears, no upfront' -> True; 'no upfront, 10% deposit' -> False (an
    amount of its own)."""
    if len(text) > MAX_PROSE_CHARS or not _no_upfront_re().search(fold(text)):
        return False
    return _AMOUNT_RE.search(text) is None and currency_of(text) is None


def no_upfront(b: SlotReaders) -> None:
    if b.facts.get("upfront_usd") or b.facts.get("capex_usd") or any(
            f.value == "purchase" for f in b.facts.get("offer_kind", [])):
        return  # stated, or a purchase (whose price is paid up front)
    texts: list[tuple[str, Location]] = [
        (f"{cand.label}: {cand.value}", cand.where) for cand in b.record.candidates
        if isinstance(cand.value, str)]
    texts += list(b.record.notes)
    for text, where in texts:
        parts = clauses(text) if len(text) <= MAX_PROSE_CHARS else []
        if any(_AMOUNT_RE.search(c) and _PAID_FIRST_RE.search(fold(c)) for c in parts):
            continue  # "No upfront; a 10% deposit is due at signature": something is paid
        for clause in parts:
            if says_no_upfront(clause):  # "GST (10%) is additional. ... no upfront.": a clause
                b.add("upfront_usd", 0.0, where, clause, IN_TEXT,
                      "the offer says nothing is paid up front")
                return
