"""A fee paid once at the start is an upfront payment: "Opłata wdrożeniowa (jednorazowa) |
40 000,00 zł netto", "Einmalige Bereitstellungsgebühr | 12.500 €", "Onboarding fee (one-off) |
$25,000".  A label that names a fee and says it is paid once (evaltool/data/one_off_fee_words.yaml)
and whose value is one amount with no time basis states the upfront payment of a rental.

Read only where no upfront payment is stated, never for a purchase (whose price is paid up front
already), at the priority of text, and said with a warning: the label's words are weaker
evidence than an upfront label.
"""

from __future__ import annotations

import functools
import re

from evaltool.normalize import values as V
from evaltool.normalize.digit_groups import dotted_groups
from evaltool.normalize.facts import IN_TEXT
from evaltool.normalize.slots import SlotReaders
from evaltool.read.vocabulary import normalise_label
from evaltool.resources import data_dir

_MAX_VALUE_CHARS = 60  # a longer value is a sentence, not one amount


@functools.cache
def _words() -> dict[str, re.Pattern[str]]:
    import yaml

    raw = yaml.safe_load((data_dir() / "one_off_fee_words.yaml").read_text(encoding="utf-8"))
    return {key: re.compile("|".join(f"(?:{w})" for w in words), re.I)
            for key, words in raw.items()}


def names_one_off_fee(label: str) -> bool:
    """'Opłata wdrożeniowa (jednorazowa)' -> True; 'Monthly fee' -> False; 'One-off' -> False
    (no fee named)."""
    text = normalise_label(label)
    words = _words()
    return bool(words["fee"].search(text) and words["once"].search(text)
                and not words["recurring"].search(text))


def upfront_from_one_off_fee(b: SlotReaders) -> None:
    if b.facts.get("upfront_usd") or b.facts.get("capex_usd") or any(
            f.value == "purchase" for f in b.facts.get("offer_kind", [])):
        return  # stated, or a purchase (whose price is paid up front)
    for cand in b.record.candidates:
        if not isinstance(cand.label, str) or not names_one_off_fee(cand.label):
            continue
        value = cand.value
        if isinstance(value, str) and (len(value) > _MAX_VALUE_CHARS or _words()[
                "recurring"].search(normalise_label(value))):
            continue  # "€500 per month", a sentence: not one amount paid once
        if not isinstance(value, (str, int, float)) or isinstance(value, bool):
            continue
        text, ambiguous = dotted_groups(str(value), bool(getattr(b, "decimal_comma", False)))
        if ambiguous:
            continue  # "12.500": 12.5 or 12 500 by a convention the document does not show
        try:
            money = b._money(cand, text, ())
        except (V.ValueParseError, ValueError, ArithmeticError):
            continue
        if money.per or money.amount <= 0:
            continue  # a rate, or nothing to pay
        b._usd("upfront_usd", money, cand.where, text, IN_TEXT,
               f"a one-off fee read as the upfront payment ({cand.label!r})")
        b.note(cand.where, "upfront-from-one-off-fee", {"label": cand.label.strip()},
               "upfront_usd", text[:120])
        return
