"""Leaving a contract, read from its parts: the notice, the earliest a termination takes
effect, and what leaving costs.

- ``notice_days``: the length of time nearest a notice word ("on sixty (60) days' written
  notice", "notice of 45 days", "Kündigungsfrist von 60 Tagen", "préavis de 60 jours");
- ``earliest_exit_months``: months of the term that must pass first ("no earlier than the
  last day of month 3", "after the third month", "a minimum period of three (3) months",
  "frühestens zum Ende des dritten Monats");
- ``exit_fee``: a share of the fees left ("25% of what's left on the contract"), a sum that
  is the fee's own ("an early termination charge of USD 150,000"), or none.

Spans of the term, numbers and amounts are read as `clauses.schedules` reads them; the words
are in evaltool/data/contract_money_words.yaml.
"""

from __future__ import annotations

import re
from functools import lru_cache

from evaltool.clauses.schedules import (
    NUMBER,
    amounts,
    is_ordinal,
    is_rate,
    is_refund_share,
    month_spans,
    months_per,
    number_value,
    percents,
    unit_words,
    words,
)
from evaltool.models import HOURS_PER_MONTH

FLAGS = re.IGNORECASE


@lru_cache(maxsize=1)
def _exit_res() -> dict[str, re.Pattern[str]]:
    w = words()
    unit = unit_words()
    return {
        "notice": re.compile(rf"\b(?:{w['notice']})", FLAGS),
        "length": re.compile(rf"(?P<n>{NUMBER})\s*[- ]?(?P<u>{unit}|{w['hour']})\b", FLAGS),
        "not_before": re.compile(rf"\b(?:{w['not_before']})\b", FLAGS),
        "end_of": re.compile(rf"\b(?:{w['end_of']})\b", FLAGS),
        "minimum": re.compile(rf"\b(?:{w['minimum_period']})\b(?:\s+(?:of|von|de))?\s+"
                              rf"(?P<n>{NUMBER})\s*[- ]?(?P<u>{unit})\b", FLAGS),
    }


def lengths_in_months(sentence: str) -> list[float]:
    """Every length of time the sentence states in months, quarters or years, in months
    ("6 months", "jeweils sechs Monate", "a 12-month term", "one year"), in order; days and
    weeks (a notice, a cure period) are not a term's length."""
    return [float(number_value(m.group("n")) or 0) * months_per(m.group("u"))
            for m in _exit_res()["length"].finditer(sentence)
            if number_value(m.group("n")) and not is_ordinal(m.group("n"))
            and not re.match(rf"(?:{words()['hour']})$", m.group("u"), FLAGS)
            and months_per(m.group("u")) >= 1.0]


def notice_days(sentence: str) -> float | None:
    """Days of notice the sentence states: the length of time nearest to a notice word
    ("on sixty (60) days' written notice", "notice of 60 days", "Kündigungsfrist von 60
    Tagen"); a length that stands elsewhere ("after a minimum period of three months") is
    not the notice."""
    res = _exit_res()
    lengths = [m for m in res["length"].finditer(sentence) if number_value(m.group("n"))
               and not is_ordinal(m.group("n"))]
    best: tuple[int, float] | None = None
    for word in res["notice"].finditer(sentence):
        for m in lengths:
            before = word.start() - m.end()
            after = m.start() - word.end()
            gap = before if 0 <= before <= 30 else after if 0 <= after <= 30 else None
            if gap is None or re.search(r"[;.]\s", sentence[min(m.end(), word.end()):
                                                              max(m.start(), word.start())]):
                continue
            hours = re.match(rf"(?:{words()['hour']})$", m.group("u"), FLAGS)
            value = float(number_value(m.group("n")) or 0) * (
                1.0 / HOURS_PER_MONTH if hours else months_per(m.group("u")))
            if best is None or gap < best[0]:
                best = (gap, value * HOURS_PER_MONTH / 24.0)
    return round(best[1], 1) if best else None


def earliest_exit_months(sentence: str) -> float | None:
    """Months of the term that must pass before leaving can take effect: "no earlier than
    the last day of month 3" (3), "after the third month" (3), "from month 4 onwards" (3),
    "after a minimum period of three (3) months" (3), "frühestens zum Ende des dritten
    Monats" (3). None when the sentence sets no such point."""
    res = _exit_res()
    minimum = res["minimum"].search(sentence)
    if minimum is not None and number_value(minimum.group("n")):
        return float(number_value(minimum.group("n")) or 0) * months_per(minimum.group("u"))
    for span in month_spans(sentence):
        if span.after_previous:
            continue
        head = sentence[max(0, span.start - 60):span.start]
        words = list(res["not_before"].finditer(head))
        if not words:
            continue
        said = head[words[-1].start():]
        if res["end_of"].search(said):
            return float(span.last if span.last is not None else span.first)
        return float(span.first - 1) if span.first > 1 else None
    return None


@lru_cache(maxsize=1)
def _fee_res() -> dict[str, re.Pattern[str]]:
    w = words()
    return {key: re.compile(rf"\b(?:{w[key]})", FLAGS)
            for key in ("leaving", "payment", "remaining", "no_fee")}


def exit_fee(sentence: str) -> tuple[str, float, str] | None:
    """What leaving costs, read from its parts: ("pct_of_remaining", percent, "") for a
    share of the fees left ("an early exit costs 25% of what's left on the contract", "25 %
    der restlichen Entgelte"), ("amount", value, currency) for a stated sum ("an early
    termination charge of USD 150,000"), ("none", 0, "") for "no termination fee"; None when
    the sentence is not about a fee for leaving. A share given back is a refund, not a fee."""
    res = _fee_res()
    if not res["leaving"].search(sentence):
        return None
    if res["no_fee"].search(sentence):
        return "none", 0.0, ""
    if not res["payment"].search(sentence):
        return None
    for value, start, end in percents(sentence):
        if not 0 < value <= 100 or is_refund_share(sentence, start, end):
            continue
        if res["remaining"].search(sentence[end:end + 80]):
            return "pct_of_remaining", value, ""
    for amount in amounts(sentence):
        if is_rate(sentence, amount.end) or re.match(
                r"\s*(?:per|a|/|each)\s*(?:month|year|day|hour)", sentence[amount.end:], FLAGS):
            continue
        # the sum is the fee's own: "an early termination charge of USD 150,000", "leaving
        # early costs $150k" (not "the Fees for the Term are USD 1,233,408")
        head = sentence[max(0, amount.start - 60):amount.start]
        if res["leaving"].search(head) and _FEE_NOUN.search(head):
            return "amount", amount.value, amount.currency
    return None


_FEE_NOUN = re.compile(r"\b(?:fee|charge|penalty|payment|costs?|gebühr\w*|vertragsstrafe|"
                       r"pénalité|frais|indemnité|cargo|penalización)\b", FLAGS)


def free_days(sentence: str) -> float | None:
    """Days the capacity is given free of charge from delivery, read from its parts: a free
    word with a length or span of days ("the first fourteen (14) days of service are free of
    charge", "a 14-day free trial", "die ersten 14 Tage sind kostenlos"), or billing that
    starts a number of days after delivery. A line of the bill given free (storage,
    support) is not the capacity."""
    w = words()
    if re.search(rf"\b(?:{w['floor_of_a_line']})", sentence, FLAGS) or re.search(
            rf"\b(?:{w['leaving']}|{w['notice']}|replac\w*|repair\w*|credit\w*|late|delay\w*)",
            sentence, FLAGS):
        return None  # leaving "free of charge on 30 days' notice" is no free capacity
    free = re.search(rf"\b(?:{w['free']})", sentence, FLAGS) if re.search(
        rf"\b(?:{w['free_use']})\b", sentence, FLAGS) else None
    starts = re.search(rf"\b(?:{w['billing_starts']})", sentence, FLAGS)
    if free is None and starts is None:
        return None
    for m in _exit_res()["length"].finditer(sentence):
        n = number_value(m.group("n"))
        if n and not is_ordinal(m.group("n")) and months_per(m.group("u")) < 1.0 and not (
                re.match(rf"(?:{w['hour']})$", m.group("u"), FLAGS)):
            return round(n * months_per(m.group("u")) * HOURS_PER_MONTH / 24.0, 1)
    return None
