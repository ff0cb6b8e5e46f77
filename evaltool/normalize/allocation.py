"""A price stated as a total over an allocation of hours: "Přidělené uzlové hodiny | 104 832"
beside "Celkem | 27 256 320 Kč", "Awarded | 250 000 GPU-hours" beside "Total fee | EUR 525,000".

An HPC centre's allocation decision, or a prepaid block of hours, often states the hours granted
and what they cost in total, and no rate. The rate is the total over the hours, per node-hour or
GPU-hour as the hours are counted. Read only where the offer states no rate itself, from exactly
one allocation of hours and one total without a basis; said (code price-from-total-over-hours).
"""

from __future__ import annotations

import re

from evaltool.normalize import values as V
from evaltool.read import text as T
from evaltool.read.cells import Candidate, cell_text

# A total: its label says so, in the languages of the quotes ("Celkem", "Gesamt", "Összesen").
_TOTAL_LABEL_RE = re.compile(
    r"\b(?:total|totals|in total|grand total|overall|celkem|celkov\w*|gesamt\w*|insgesamt|"
    r"summe|összesen|razem|łącznie|lacznie|totale|totaal|i alt|totalt|summa|yhteensä|"
    r"итого|всего|contract value|fee|fees|díj|poplatek|opłata|gebühr|redevance)\b", re.I)
_HOURS_RE = re.compile(r"(?<![\d.,])(\d{1,3}(?:[ \u00a0\u202f.,]\d{3})+|\d+)(?![\d])")


def allocated_hours(cand: Candidate) -> tuple[float, str] | None:
    """'Přidělené uzlové hodiny | 104 832', 'Awarded | 250 000 GPU-hours': the hours an
    allocation grants and what they count ('node' or 'gpu'); no money in it."""
    text = cell_text(cand.value)
    said = f"{cand.label} {text}"
    unit = T.billing_unit(said)
    if unit not in ("node_hour", "gpu_hour") or T.currency_of(said) is not None:
        return None
    numbers = _HOURS_RE.findall(text)
    if len(numbers) != 1:
        return None
    hours = float(re.sub(r"[ \u00a0\u202f.,]", "", numbers[0]))
    return (hours, unit.split("_")[0]) if hours >= 100 else None


def stated_total(cand: Candidate, currency: str | None) -> V.Money | None:
    """'Celkem | 27 256 320 Kč': an amount under a label that says it is the total, with no
    basis of its own (a total for the allocation, not a rate)."""
    if not isinstance(cand.value, (str, int, float)) or isinstance(cand.value, bool) or \
            not _TOTAL_LABEL_RE.search(cand.label) or \
            T.currency_of(f"{cand.label} {cell_text(cand.value)}") is None:
        return None  # "Total GPUs | 64" is no amount of money
    try:
        money = V.parse_money(cand.value, currency=currency)
    except (V.ValueParseError, V.ValueConversionError):
        return None
    return money if money.per in ((), ("term",)) and money.amount > 0 else None


def rate_from_total(candidates: list[Candidate], currency: str | None
                    ) -> tuple[V.Money, Candidate, Candidate] | None:
    """The rate an allocation's total and hours give, with the two cells it rests on; None
    unless exactly one allocation of hours and one total are stated."""
    hours = [(h, c) for c in candidates if (h := allocated_hours(c)) is not None]
    totals = [(m, c) for c in candidates if (m := stated_total(c, currency)) is not None]
    if len(hours) != 1 or len({(m.amount, m.currency) for m, _ in totals}) != 1:
        return None
    (count, resource), hours_cand = hours[0]
    total, total_cand = totals[0]
    rate = V.Money(total.amount / count, total.currency, (resource, "hour"),
                   f"{cell_text(total_cand.value)} / {cell_text(hours_cand.value)}")
    return rate, total_cand, hours_cand
