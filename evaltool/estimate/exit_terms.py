"""The exit terms of a contract as the money of the decision reads them.

Clause analysis (`evaltool.clauses.extract_terms`) reads the contract; this module adds the
exit wording it does not read yet (termination "no earlier than the end of the Minimum
Term", a fee of "25% of the Fees ... for the remainder", renewal terms, "whether or not
used"), reconciles them with the quote's own term, commitment and prepayment fields, and
hands `estimate.money` one `MoneyTerms` with the sentence each fact rests on.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from evaltool.clauses.leaving import (
    earliest_exit_months,
    exit_fee,
    free_days,
    lengths_in_months,
    notice_days,
)
from evaltool.clauses.models import ContractTerms, TermEvidence, TextSegment
from evaltool.clauses.schedules import (
    is_refund_share,
    price_steps,
    refund_schedule,
    refund_whole_period_months,
    tranches,
    words,
)
from evaltool.clauses.terms import extract_terms
from evaltool.errors import Location
from evaltool.estimate.substitution import named_accelerators, substitution_right
from evaltool.estimate.tranches import applies as tranches_apply
from evaltool.models import HOURS_PER_MONTH, Flag, Offer

DAYS_PER_MONTH = HOURS_PER_MONTH / 24.0

# ------------------------------------------------------------------ contract terms
# Clause analysis (`extract_terms`) reads the contract; these patterns read the exit wording
# it does not read yet (see `_wording_terms`). Each names the evidence it used.

_NUM_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
              "eight": 8, "nine": 9, "ten": 10, "twelve": 12, "fourteen": 14, "fifteen": 15,
              "twenty": 20, "thirty": 30, "sixty": 60, "ninety": 90}
_NUMBER = r"(\d+(?:\.\d+)?|[a-z-]+(?:\s*\(\d+\))?)"
_NOTICE = re.compile(_NUMBER + r"\s*(days?|hours?|months?)['’]?\s+(?:prior\s+)?(?:written\s+)?"
                     r"notice", re.I)
_NO_TERM = re.compile(r"\bno minimum (?:term|commitment|period)\b|\bno (?:fixed |minimum )?term\b",
                      re.I)
_NON_CANCELLABLE = re.compile(
    rf"(?:{words()['non_cancellable']})|"
    r"non-?\s?cancell?able|no right to terminate[^.]*for convenience|"
    r"no termination for convenience|may not terminate[^.]*for convenience|"
    r"neither party may terminate[^.]*for convenience|"
    r"may terminate[^.]*only for[^.]*breach|fees for the remainder[^.]*(?:due|payable)|"
    r"survive any termination", re.I)
_CUSTOMER_MAY_LEAVE = re.compile(
    r"\b(?:customer|either party|you)\b[^.]*?\b(?:may|can|is entitled to|has the right to)\s+"
    r"(?:terminate|cancel|release|end|exit|leave)\b|"
    r"\b(?:kunde|auftraggeber|jede partei)\b[^.]*?\b(?:kann|darf|ist berechtigt)\b[^.]*?"
    r"\bkündig|\b(?:client|chaque partie)\b[^.]*?\bpeut\b[^.]*?\brésili|"
    # "Cancellation: permitted at any time", "may be terminated by Customer on 30 days' notice"
    r"\b(?:cancell?ation|termination|early exit)\b(?:\s+for\s+convenience)?\s*(?::|is|are)?\s*"
    r"(?:permitted|allowed|possible|available)\b|\b(?:may|can)\s+be\s+(?:cancell?ed|terminated)"
    r"\s+(?:by\s+(?:the\s+)?customer\b|at\s+any\s+time|for\s+convenience)", re.I)
# A right to leave that the vendor's failure triggers ("if delivery is more than seven days
# late Customer may cancel", "upon Provider's material breach") is a remedy, not termination
# for convenience: the buyer cannot count on it to end the contract once the run is done.
_ON_VENDOR_FAILURE = re.compile(
    r"\b(?:late|delay(?:ed|s)?|fails?|failure|breach\w*|default|insolven\w*|force majeure|"
    r"not (?:available|delivered|met)|below)\b", re.I)
_ONLY_AFTER_TERM = re.compile(r"after the (?:minimum|initial|committed|first)\s+(?:term|period)",
                              re.I)
_NO_FEE = re.compile(r"no (?:early )?termination fee|no (?:early termination fee, )?cancellation "
                     r"(?:fee|charge)|without (?:penalty|fee)|no [^.]*penalty applies", re.I)
# "25% of the remaining fees", "twenty-five percent (25%) of the Fees that would have been
# payable for the remainder of the Initial Term", "... accrued from the termination date to
# the end of the Initial Term".
_FEE_PCT = re.compile(r"(\d+(?:\.\d+)?)\s*%\)?\s*of\s+(?:the\s+)?(?:[^.;%]{0,80}?\b)?"
                      r"(?:remaining|outstanding|remainder|unexpired|balance|"
                      r"to the end of the (?:[a-z]+\s+)?(?:term|period))\b", re.I)
_FEE_USD = re.compile(r"(?:early )?termination fee of (?:USD|US\$|\$)\s?([\d,]+(?:\.\d+)?)", re.I)
_AUTO_RENEW = re.compile(r"renews?\s+automatically|automatically\s+renews?|auto-?renew|"
                         rf"renews? for successive|{words()['auto_renew']}", re.I)
_NO_RENEW = re.compile(r"(?:does not|will not|shall not)\s+renew|no automatic renewal|"
                       r"not renew automatically", re.I)
_RENEWAL_TERM_DEFINED = re.compile(r"renewal (?:term|period)\W*\s+(?:means|is)\s+"
                                   r"(?:a period of\s+)?" + _NUMBER + r"\s*[- ]?months?", re.I)
_NON_REFUNDABLE = re.compile(r"non-?\s?refundable", re.I)
_REFUNDABLE = re.compile(r"\brefundable\b|\brefunded\b", re.I)
_CLAUSE_REF = re.compile(r"^\s*(?:§\s*)?(\d+(?:\.\d+)*)[.)]?\s")
_ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6,
             "seventh": 7, "eighth": 8, "ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12,
             "eighteenth": 18, "twenty-fourth": 24, "thirty-sixth": 36}
# "terminate ... with effect from the end of the fourth (4th) Service Month",
# "... no earlier than the end of month 12": the earliest date a termination takes effect.
_EARLIEST_EXIT = re.compile(
    r"\b(?:terminat|cancel|end)\w*\b[^.;]*?\b(?:with effect from|effective (?:from|as of)|"
    r"no earlier than|not (?:earlier|sooner) than)\s+(?:the\s+)?(?:end\s+of\s+)?(?:the\s+)?"
    r"(?:month\s+(\d+)|([a-z]+(?:-[a-z]+)?)(?:\s*\((\d+)(?:st|nd|rd|th)?\))?\s+"
    r"(?:[a-z]+\s+){0,2}?months?)\b", re.I)


# "with effect no earlier than the end of the Minimum Term", "terminate with effect at the end
# of the Initial Term or of any later month", "the Fees for the Initial Term are committed":
# leaving for convenience never takes effect before the term's end.
_NOT_BEFORE_TERM_END = re.compile(
    r"(?:no earlier than|not (?:earlier|sooner) than|with effect (?:from |at |as of )?)\s*"
    r"the end of the (?:minimum|initial|committed|first) (?:term|period)|"
    r"(?:fees|charges) for the (?:initial|minimum|committed) (?:term|period) (?:are|is|shall be|"
    r"remain) (?:committed|non-?refundable|payable in full|due in full)", re.I)
# "... or of any later month": a termination takes effect only at a month's end.
_AT_MONTH_END = re.compile(r"(?:end|or) of (?:the|any|each|an?) (?:later |subsequent |following |"
                           r"calendar |billing |service )?month", re.I)
# Reserved capacity billed whatever the use: its term's fees are committed, not only a
# stated spend floor ("billed ... whether or not used").
_BILLED_WHATEVER_USE = re.compile(
    rf"{words()['whatever_use']}|"
    r"whether or not (?:used|utili[sz]ed|consumed)|whether used or not|"
    r"regardless of (?:use|usage|utili[sz]ation)", re.I)


# A seller's firm obligation to buy the hardware back ("Seller shall repurchase all Goods for
# USD 4,320,000 ... between the 22nd and 24th month"): a way out of a purchase at a fixed price.
_BUYBACK = re.compile(r"\b(?:re-?purchase|buy[- ]?back|buy (?:it|them|the [a-z]+) back)", re.I)
_BUYBACK_FIRM = re.compile(
    r"\b(?:shall|will|must|agrees? to|undertakes? to|is (?:obliged|bound|required) to)\s+"
    r"(?:re-?purchase|buy)|\b(?:re-?purchase|buy[- ]?back) obligation\b", re.I)
_BUYBACK_HEDGED = re.compile(
    r"\bmay (?:offer|elect|choose|agree)\b|\bat (?:its|seller's|vendor's) (?:sole )?discretion|"
    r"\bno obligation\b|\b(?:does|do|will) not (?:guarantee|commit)|\bsubject to (?:market|"
    r"demand|availability)|\bfair market value\b|\bbest efforts\b", re.I)
_BUYBACK_USD = re.compile(r"(?:USD|US\$|\$)\s?([\d,]+(?:\.\d+)?)", re.I)
_BUYBACK_PCT = re.compile(r"(\d+(?:\.\d+)?)\s*%\s*of the (?:purchase |original |contract )?"
                          r"(?:price|capex|purchase)", re.I)
_BUYBACK_WINDOW = re.compile(
    r"(\d+)(?:st|nd|rd|th)?\s+(?:and|to|-|–|through)\s+(?:the\s+)?(\d+)(?:st|nd|rd|th)?"
    r"\s+months?", re.I)
_BUYBACK_AT = re.compile(
    r"(?:after|at the end of|in|within|on)\s+(?:the\s+)?(?:month\s+(\d+)|(?:[a-z-]+\s+)?"
    r"\(?(\d+)(?:st|nd|rd|th)?\)?\s+months?)", re.I)


# Capacity given free of charge before billing starts ("128 GPUs free of charge for fourteen
# (14) days", "a 14-day free evaluation", "10,000 complimentary GPU-hours"): hours the run
# uses without paying for them.
_FREE_DAYS = re.compile(
    r"free of charge for\s+(?:a period of\s+)?" + _NUMBER + r"\s*days?\b|"
    r"\b" + _NUMBER + r"[- ]days?\s+(?:of\s+)?(?:free|no[- ]charge|complimentary)\s+"
    r"(?:evaluation|trial|use|access|pilot)|"
    r"\bfirst\s+" + _NUMBER + r"\s+days?\s+(?:are|is)?\s*(?:free|not (?:billed|charged))", re.I)
_FREE_WHAT = re.compile(r"\b(?:GPUs?|accelerators?|chips?|nodes?|servers?|cluster|capacity|"
                        r"instances?)\b", re.I)
_FREE_HOURS = re.compile(r"([\d,]+)\s+(?:free|complimentary|no[- ]charge)\s+GPU[- ]hours", re.I)


class MoneyTerms(ContractTerms):
    """Contract terms plus the exit facts only the money model reads so far."""

    free_days: float | None = None  # the whole cluster free of charge for these days
    free_gpu_hours: float | None = None  # GPU-hours given free of charge
    buyback_usd: float | None = None  # the seller is bound to buy the hardware back for this
    buyback_pct_of_price: float | None = None  # ... or for this share of the price
    buyback_earliest_month: float | None = None  # the buy-back window opens (months elapsed)
    buyback_latest_month: float | None = None  # the buy-back settles by this month at latest

    termination_earliest_month: float | None = None  # a termination takes effect no sooner
    termination_not_before_term_end: bool | None = None  # the term is a floor on leaving
    termination_at_month_end: bool | None = None  # leaving takes effect at a month's end only
    billed_whatever_use: bool | None = None  # the reserved block is billed used or not
    # A refund of the unused prepaid fees by when the exit takes effect: (up to the end
    # of this month of the term, this share refunded), in month order.
    prepaid_refund_schedule: list[tuple[float, float]] | None = None
    # ... counted in whole periods of this many months not yet started when the exit takes
    # effect (a period that has begun is kept whole); None: by the day.
    prepaid_refund_period_months: float | None = None
    # A price that changes during the term: (from this month of the term, USD per
    # GPU-hour), in month order; the first step starts in month 1.
    price_steps: list[tuple[float, float]] | None = None
    # Capacity delivered in parts: (GPUs, ISO date, only a target date), in date order.
    delivery_tranches: list[tuple[float, str, bool]] | None = None
    # The vendor may deliver other hardware at its discretion: the catalog ids it names
    # (an empty list when it names none).
    substitute_accelerators: list[str] | None = None


def _earliest_exit_month(sentence: str) -> float | None:
    match = _EARLIEST_EXIT.search(sentence)
    if not match:
        return None
    digits = match.group(1) or match.group(3)
    if digits:
        return float(digits)
    word = (match.group(2) or "").lower()
    return float(_ORDINALS[word]) if word in _ORDINALS else None


@dataclass(frozen=True)
class _Paragraph:
    text: str
    where: dict[str, Any]
    ref: str | None
    lines: str = ""  # the same text with its line breaks (a table's rows), for schedules

    @property
    def rows(self) -> str:
        return self.lines or self.text


def _rows(block: str) -> str:
    return "\n".join(" ".join(line.split()) for line in block.splitlines() if line.strip())


def _paragraphs(offer: Offer) -> list[_Paragraph]:
    """The contract as paragraphs (wrapped lines joined), each with where it stands."""
    text = offer.fields.contract_text
    out: list[_Paragraph] = []
    if text and offer.contract_segments and all(
            "cell" not in (s.get("where") or {}) for s in offer.contract_segments):
        where = dict(offer.contract_segments[0].get("where") or offer.source)
        for block in re.split(r"\n\s*\n", text):
            joined = " ".join(block.split())
            if joined:
                match = _CLAUSE_REF.match(joined)
                out.append(_Paragraph(joined, where, match.group(1) if match else None,
                                      _rows(block)))
        return out
    for segment in offer.contract_segments:
        joined = " ".join(str(segment.get("text") or "").split())
        if joined:
            where = dict(segment.get("where") or offer.source)
            match = _CLAUSE_REF.match(joined)
            ref = match.group(1) if match else where.get("cell")
            out.append(_Paragraph(joined, where, ref, _rows(str(segment.get("text") or ""))))
    if not out and text:
        for block in re.split(r"\n\s*\n", text):
            joined = " ".join(block.split())
            if joined:
                match = _CLAUSE_REF.match(joined)
                out.append(_Paragraph(joined, dict(offer.source),
                                      match.group(1) if match else None, _rows(block)))
    return out


def contract_segments(offer: Offer) -> list[TextSegment]:
    """The contract as clause analysis reads it: one segment per paragraph or cell.

    Readers hand a YAML or text contract over line by line; a sentence wrapped over two
    lines must be read whole, so lines are joined into paragraphs (blank-line separated),
    each keeping where it stands. A spreadsheet's contract cells stay one segment each.
    """
    out: list[TextSegment] = []
    for p in _paragraphs(offer):
        where = {k: v for k, v in p.where.items() if k in ("file", "sheet", "cell", "key")}
        if "file" not in where:
            where["file"] = str(offer.source.get("file", offer.id))
        out.append(TextSegment(text=p.text, where=Location(**where), section=p.ref))
    return out


def _sentences(paragraph: _Paragraph) -> list[str]:
    return [s for s in re.split(r"(?<=[.;])\s+(?=[A-Z(])", paragraph.text) if s]


def _number(text: str) -> float | None:
    bracket = re.search(r"\((\d+)\)", text)
    if bracket:
        return float(bracket.group(1))
    try:
        return float(text)
    except ValueError:
        words = [w for w in re.split(r"[\s-]+", text.lower()) if w]
        total = sum(_NUM_WORDS.get(w, 0) for w in words)
        return float(total) if total else None


def _notice_days(sentence: str) -> float | None:
    found = notice_days(sentence)  # the length nearest a notice word, in any wording
    if found is not None:
        return found
    match = _NOTICE.search(sentence)
    if not match:
        return None
    value = _number(match.group(1))
    if value is None:
        return None
    unit = match.group(2).lower()
    if unit.startswith("hour"):
        return value / 24.0
    if unit.startswith("month"):
        return value * DAYS_PER_MONTH
    return value


def _evidence(sentence: str, p: _Paragraph) -> TermEvidence:
    return TermEvidence(quote=sentence, where=p.where, clause_ref=p.ref)


_Values = dict[str, Any]
_Evidence = dict[str, TermEvidence]


def _exit_wording(sentence: str, p: _Paragraph, values: _Values, evidence: _Evidence) -> None:
    """No minimum term, non-cancellable, and the customer's right to leave (with notice)."""
    if _NO_TERM.search(sentence) and "no_term" not in evidence:
        evidence["no_term"] = _evidence(sentence, p)
        values.setdefault("customer_may_terminate_for_convenience", True)
    lowered = sentence.lower()
    if _NON_CANCELLABLE.search(sentence):
        values["non_cancellable"] = True
        values["customer_may_terminate_for_convenience"] = False
        evidence.setdefault("non_cancellable", _evidence(sentence, p))
    elif (_CUSTOMER_MAY_LEAVE.search(sentence) and not _ON_VENDOR_FAILURE.search(sentence)
          and "renew" not in lowered and "extend" not in lowered):
        _customer_exit(sentence, p, values, evidence)


def _customer_exit(sentence: str, p: _Paragraph, values: _Values, evidence: _Evidence) -> None:
    """A sentence by which the customer may leave: when at the earliest, and on what notice."""
    notice = _notice_days(sentence)
    earliest = _earliest_exit_month(sentence)
    if earliest is None:
        earliest = earliest_exit_months(sentence)
    if earliest is not None and "termination_earliest_month" not in values:
        values["termination_earliest_month"] = earliest
        evidence["termination_earliest_month"] = _evidence(sentence, p)
    if _ONLY_AFTER_TERM.search(sentence):
        if notice is not None:
            values.setdefault("termination_notice_days", notice)
        evidence.setdefault("termination_after_term", _evidence(sentence, p))
    elif not values.get("non_cancellable"):
        values["customer_may_terminate_for_convenience"] = True
        values["termination_notice_days"] = notice or 0.0
        evidence["customer_may_terminate_for_convenience"] = _evidence(sentence, p)


def _term_end_wording(sentence: str, p: _Paragraph, values: _Values,
                      evidence: _Evidence) -> None:
    """Leaving not before the term ends, or at a month's end; billed whatever the use."""
    if _NOT_BEFORE_TERM_END.search(sentence) and "renew" not in sentence.lower():
        values["termination_not_before_term_end"] = True
        evidence.setdefault("termination_not_before_term_end", _evidence(sentence, p))
    if (_AT_MONTH_END.search(sentence) and re.search(r"terminat|cancel", sentence, re.I)
            and _CUSTOMER_MAY_LEAVE.search(sentence)):
        values["termination_at_month_end"] = True
        evidence.setdefault("termination_at_month_end", _evidence(sentence, p))
    if _BILLED_WHATEVER_USE.search(sentence):
        values["billed_whatever_use"] = True
        evidence.setdefault("billed_whatever_use", _evidence(sentence, p))


def _fee_wording(sentence: str, p: _Paragraph, values: _Values, evidence: _Evidence) -> None:
    """What leaving costs: no fee, a share of the remaining fees, or a sum."""
    if _NO_FEE.search(sentence):
        values.setdefault("termination_fee_usd", 0.0)
        evidence.setdefault("termination_fee_usd", _evidence(sentence, p))
    elif ((fee := _FEE_PCT.search(sentence)) and "terminat" in sentence.lower()
          and not is_refund_share(sentence, fee.start(), fee.end())):
        values["termination_fee_pct_of_remaining"] = float(fee.group(1))
        evidence["termination_fee_pct_of_remaining"] = _evidence(sentence, p)
    elif fee_usd := _FEE_USD.search(sentence):
        values["termination_fee_usd"] = float(fee_usd.group(1).replace(",", ""))
        evidence["termination_fee_usd"] = _evidence(sentence, p)
    elif (fee_read := exit_fee(sentence)) is not None and not _ON_VENDOR_FAILURE.search(sentence):
        # the same fee in other words (`clauses.schedules.exit_fee`)
        kind, value, currency = fee_read
        if kind == "pct_of_remaining":
            values.setdefault("termination_fee_pct_of_remaining", value)
            evidence.setdefault("termination_fee_pct_of_remaining", _evidence(sentence, p))
        elif kind == "amount" and currency == "USD":
            values.setdefault("termination_fee_usd", value)
            evidence.setdefault("termination_fee_usd", _evidence(sentence, p))


def _renewal_wording(sentence: str, p: _Paragraph, values: _Values,
                     evidence: _Evidence) -> None:
    """Whether the agreement renews, on what notice and for how many months."""
    if _NO_RENEW.search(sentence):
        values["auto_renewal"] = False
        evidence.setdefault("auto_renewal", _evidence(sentence, p))
    elif _AUTO_RENEW.search(sentence):
        values["auto_renewal"] = True
        values["renewal_notice_days"] = _notice_days(sentence)
        months = re.search(_NUMBER + r"\s*[- ]?months?", sentence, re.I)
        if months:
            values["renewal_term_months"] = _number(months.group(1))
        elif found := lengths_in_months(sentence):
            values["renewal_term_months"] = found[0]  # "um jeweils 6 Monate", "1 year"
        evidence["auto_renewal"] = _evidence(sentence, p)
    defined = _RENEWAL_TERM_DEFINED.search(sentence)
    if defined and "renewal_term_months" not in values:
        values["renewal_term_months"] = _number(defined.group(1))
        evidence.setdefault("renewal_term_months", _evidence(sentence, p))


def _prepayment_wording(sentence: str, p: _Paragraph, values: _Values,
                        evidence: _Evidence) -> None:
    """Whether money paid ahead (prepayment, upfront, deposit) is refundable."""
    lowered = sentence.lower()
    if "prepay" in lowered or "upfront" in lowered or "deposit" in lowered:
        if _NON_REFUNDABLE.search(sentence):
            values["prepayment_refundable"] = False
            evidence["prepayment_refundable"] = _evidence(sentence, p)
        elif _REFUNDABLE.search(sentence) and "not" not in lowered:
            values["prepayment_refundable"] = True
            evidence["prepayment_refundable"] = _evidence(sentence, p)


def _refund_schedule_wording(paragraph: _Paragraph, values: _Values,
                             evidence: _Evidence) -> None:
    """A prepayment refunded on leaving by a schedule of tiers (share by exit month), or
    by one share whenever the exit takes effect (`clauses.schedules.refund_schedule`)."""
    if "prepaid_refund_schedule" in values:
        return
    schedule = refund_schedule(paragraph.rows)
    if schedule:
        values["prepaid_refund_schedule"] = schedule
        evidence["prepaid_refund_schedule"] = _evidence(paragraph.text.strip(), paragraph)
        period = refund_whole_period_months(paragraph.rows)
        if period:
            values["prepaid_refund_period_months"] = period


# A defined minimum period ("The first six (6) months of the Term are the Minimum Period")
# that no termination may take effect before.
_MINIMUM_PERIOD = re.compile(
    r"\b(?:first\s+)?([a-z]+|\d+)\s*(?:\((\d+)\))?\s+months?\s+of\s+the\s+term\s+"
    r"(?:are|is|form|constitute)\s+the\s+minimum\s+(?:period|term)\b|\bminimum\s+(?:period|"
    r"term)\s+(?:is|of|shall\s+be)\s+([a-z]+|\d+)\s*(?:\((\d+)\))?\s+months?\b", re.I)
_NOT_BEFORE_MINIMUM = re.compile(
    r"(?:on\s+or\s+after|not\s+(?:earlier|sooner)\s+than|no\s+earlier\s+than)\s+(?:the\s+)?"
    r"(?:last\s+day|end)\s+of\s+the\s+minimum\s+(?:period|term)|before\s+the\s+end\s+of\s+the"
    r"\s+minimum\s+(?:period|term)\s+is\s+not\s+permitted", re.I)


def _minimum_period_wording(paragraph: _Paragraph, values: _Values,
                            evidence: _Evidence) -> None:
    """Leaving takes effect no sooner than the end of a defined minimum period."""
    text = paragraph.text
    match = _MINIMUM_PERIOD.search(text)
    if match is None or not _NOT_BEFORE_MINIMUM.search(text) or (
            "termination_earliest_month" in values):
        return
    digits = match.group(2) or match.group(4)
    word = (match.group(1) or match.group(3) or "").lower()
    months = (float(digits) if digits else float(word) if word.isdigit()
              else float(_ORDINALS[word]) if word in _ORDINALS else None)
    if months:
        values["termination_earliest_month"] = months
        evidence["termination_earliest_month"] = _evidence(text.strip(), paragraph)


def _price_step_wording(paragraph: _Paragraph, values: _Values, evidence: _Evidence,
                        quoted: float | None = None) -> None:
    """Prices that change during the term, each with the month it starts
    (`clauses.schedules.price_steps`). Steps in another currency than US dollars are
    scaled to the quoted USD price (the first step is the price quoted)."""
    if "price_steps" in values:
        return
    found = price_steps(paragraph.rows)
    if found is None:
        return
    steps, currency = found
    if currency != "USD":
        if not quoted:
            return
        steps = [(month, price * quoted / steps[0][1]) for month, price in steps]
    values["price_steps"] = steps
    evidence["price_steps"] = _evidence(paragraph.text.strip(), paragraph)


def _tranche_wording(paragraph: _Paragraph, values: _Values, evidence: _Evidence,
                     fields: Any) -> None:
    """The cluster delivered in parts, each with its GPUs and date
    (`clauses.schedules.tranches`); the parts must add up to the GPUs quoted."""
    if "delivery_tranches" in values:
        return
    found = tranches(paragraph.rows, fields.gpus_per_node, fields.gpu_count)
    if found:
        values["delivery_tranches"] = [(t.gpus, t.date, t.hedged) for t in found]
        evidence["delivery_tranches"] = _evidence(paragraph.text.strip(), paragraph)


def _substitution_wording(sentence: str, p: _Paragraph, values: _Values,
                          evidence: _Evidence, quoted: str | None) -> None:
    """A right of the vendor to deliver other hardware than quoted, and what it names."""
    if not substitution_right(sentence):
        return
    named = named_accelerators(sentence, quoted)
    values["substitute_accelerators"] = [*(values.get("substitute_accelerators") or []),
                                         *(a for a in named if a not in (
                                             values.get("substitute_accelerators") or []))]
    evidence.setdefault("hardware_substitution", _evidence(sentence, p))


def _buyback_wording(paragraph: _Paragraph, values: _Values, evidence: _Evidence) -> None:
    """A firm buy-back: the seller bound (not invited) to repurchase at a stated price."""
    text = paragraph.text
    if "buyback_latest_month" in values or not _BUYBACK.search(text):
        return
    if not _BUYBACK_FIRM.search(text) or _BUYBACK_HEDGED.search(text):
        return
    sentence = next((s for s in _sentences(paragraph) if _BUYBACK.search(s)
                     and (_BUYBACK_USD.search(s) or _BUYBACK_PCT.search(s))), None)
    if sentence is None:
        return
    window = _BUYBACK_WINDOW.search(sentence)
    at = None if window else _BUYBACK_AT.search(sentence)
    latest = (float(window.group(2)) if window
              else float(at.group(1) or at.group(2)) if at else None)
    if latest is None:
        return
    if (pct := _BUYBACK_PCT.search(sentence)) is not None:
        values["buyback_pct_of_price"] = float(pct.group(1))
    if (usd := _BUYBACK_USD.search(sentence)) is not None:
        values["buyback_usd"] = float(usd.group(1).replace(",", ""))
    values["buyback_latest_month"] = latest
    # "between the 22nd and 24th month": the window opens when 21 months have elapsed.
    values["buyback_earliest_month"] = float(window.group(1)) - 1.0 if window else latest
    evidence["buyback"] = _evidence(sentence, paragraph)


def _free_wording(sentence: str, p: _Paragraph, values: _Values, evidence: _Evidence) -> None:
    """Capacity given free of charge: for a number of days, or a number of GPU-hours."""
    if "free_days" in values or "free_gpu_hours" in values:
        return
    days = _FREE_DAYS.search(sentence)
    if days is not None and days.group(0).lower().startswith("free of charge") and not (
            _FREE_WHAT.search(sentence[max(0, days.start() - 60):days.start()])):
        days = None  # storage or support free for a while, not the GPUs
    if days is not None:
        number = _number(next(g for g in days.groups() if g))
        if number:
            values["free_days"] = number
            evidence["free_capacity"] = _evidence(sentence, p)
    elif (hours := _FREE_HOURS.search(sentence)) is not None:
        values["free_gpu_hours"] = float(hours.group(1).replace(",", ""))
        evidence["free_capacity"] = _evidence(sentence, p)
    elif (found := free_days(sentence)) is not None:  # the same in other words
        values["free_days"] = found
        evidence["free_capacity"] = _evidence(sentence, p)


# One reader per term family, applied to each sentence in this order (a later reader may
# read what an earlier one found in the same sentence).
_WORDING_READERS = (_exit_wording, _term_end_wording, _fee_wording, _renewal_wording,
                    _prepayment_wording, _free_wording)


def _wording_terms(offer: Offer) -> tuple[MoneyTerms, bool]:
    """Exit wording clause analysis does not read yet; (terms, whether "no minimum term").

    Only consulted for a field `extract_terms` leaves silent: releasing capacity "at any
    time" or "on 24 hours' notice", "renews for successive ... periods", "non-cancellable"
    said of a renewal term.
    """
    values: _Values = {}
    evidence: _Evidence = {}
    for p in _paragraphs(offer):
        for sentence in _sentences(p):
            for read in _WORDING_READERS:
                read(sentence, p, values, evidence)
            _substitution_wording(sentence, p, values, evidence, offer.fields.accelerator)
        _buyback_wording(p, values, evidence)
        _refund_schedule_wording(p, values, evidence)
        _minimum_period_wording(p, values, evidence)
        _price_step_wording(p, values, evidence, offer.fields.price_usd_per_gpu_hour)
        _tranche_wording(p, values, evidence, offer.fields)
    no_term = "no_term" in evidence and not values.get("non_cancellable")
    if no_term:
        values.setdefault("termination_notice_days", 0.0)
    return MoneyTerms(**values, evidence=evidence), no_term


# Contract terms an offer's canonical fields also state (term field → offer field).
_CANONICAL_TERMS = {"term_months": "term_months", "min_commit_usd": "min_commit_usd",
                    "prepayment_usd": "upfront_usd"}
_AMOUNT = re.compile(r"\d[\d,]*(?:\.\d+)?")


def _states(quote: str, value: float) -> bool:
    """Whether a contract sentence states `value` among its figures (to within a cent)."""
    for m in _AMOUNT.finditer(quote):
        try:
            if abs(float(m.group(0).replace(",", "")) - value) <= max(0.01, 1e-6 * value):
                return True
        except ValueError:
            continue
    return False


def contract_terms(offer: Offer) -> tuple[MoneyTerms, list[Flag]]:
    """The commercial terms money rests on, and a flag for each quote/contract disagreement.

    The contract is read by clause analysis (`evaltool.clauses.extract_terms`), paragraph by
    paragraph; wording it does not read yet comes from `_wording_terms`. The offer's
    canonical fields (term, minimum commitment, upfront payment) count only where the
    contract is silent. Where both state a figure and the contract sentence does not state
    the quote's figure, the contract (what is signed) wins and a `terms-conflict` flag says
    so, with both figures.
    """
    segments = contract_segments(offer)
    vendor = [offer.fields.vendor] if offer.fields.vendor else []
    stated = extract_terms(segments, vendor) if segments else ContractTerms()
    values: dict[str, Any] = {k: v for k, v in stated.model_dump(exclude={"evidence"}).items()
                              if v is not None}
    evidence: dict[str, TermEvidence] = dict(stated.evidence)
    wording, no_term = _wording_terms(offer)
    for name, value in wording.model_dump(exclude={"evidence"}).items():
        if value is not None and name not in values:
            values[name] = value
            if name in wording.evidence:
                evidence[name] = wording.evidence[name]
    for key in ("no_term", "non_cancellable", "termination_after_term", "buyback",
                "free_capacity", "hardware_substitution", "delivery_tranches",
                "customer_may_terminate_for_convenience"):
        if key in wording.evidence and key not in evidence:
            evidence[key] = wording.evidence[key]
    flags: list[Flag] = []
    for name, field_name in _CANONICAL_TERMS.items():
        quoted = getattr(offer.fields, field_name)
        if not quoted:  # 0 or absent: no term, no commitment, nothing paid ahead
            continue
        source = offer.provenance.get(field_name)
        in_contract = values.get(name)
        if in_contract is None:
            if name == "term_months" and no_term:
                continue  # "no minimum term" in the contract beats a term in the quote
            values[name] = float(quoted)
            if source is not None:
                evidence[name] = TermEvidence(quote=source.raw or f"{quoted:g}",
                                              where=dict(source.where))
            continue
        ev = evidence.get(name)
        if abs(float(in_contract) - float(quoted)) <= 1e-6 * max(1.0, abs(float(quoted))) or (
                ev is not None and _states(ev.quote, float(quoted))):
            values[name] = float(quoted)  # the contract states the quote's figure
            continue
        flags.append(Flag(  # evaltool.report.flag_words writes the sentence from the figures
            code="terms-conflict", kind="terms_conflict", severity="medium",
            quote=ev.quote if ev else None, where=dict(ev.where) if ev else None,
            figures={"field": field_name, "in_contract": float(in_contract),
                     "in_quote": float(quoted),
                     "quote_where": " › ".join(str(v) for v in source.where.values())
                     if source else None}))
    parts = values.get("delivery_tranches")
    if parts and "delivery_tranches" in evidence and tranches_apply(offer.fields, parts):
        # The cluster arrives in parts: the run waits for them (`estimate.tranches`).
        quote = evidence["delivery_tranches"]
        flags.append(Flag(
            code="delivery-in-tranches", kind="delivery_in_tranches",
            severity="high" if any(h for _g, _d, h in parts) else "medium",
            quote=quote.quote, where=dict(quote.where),
            figures={"tranches": [{"gpus": g, "date": d, "hedged": h} for g, d, h in parts]}))
    substitution = evidence.get("hardware_substitution")
    if substitution is not None:
        # The vendor may deliver other hardware: its time risk is counted on the slowest
        # named substitute (`estimate.substitution`); a right naming none cannot be.
        named = list(values.get("substitute_accelerators") or [])
        flags.append(Flag(
            code="hardware-substitution", kind="hardware_substitution",
            severity="high" if named else "medium", quote=substitution.quote,
            where=dict(substitution.where),
            figures={"quoted_accelerator": offer.fields.accelerator, "substitutes": named}))
    return MoneyTerms(**values, evidence=evidence), flags
