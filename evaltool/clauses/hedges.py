"""Hedge phrases in one sentence, and what each does there: governs an obligation (the
vendor's or the customer's), describes the trigger of a right, is negated, sits in a
definition, or is anchored by a date or figure that no hedge governs.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from evaltool.clauses.lexicon import Lexicon, load_lexicon
from evaltool.clauses.parties import Subject, subject_before
from evaltool.clauses.segment import obligation_units

# A concrete, checkable figure: number with a unit, a percentage, a date, 24x7.
FIGURE_RE = re.compile(
    r"\d+(?:\.\d+)?\s*(?:%|percent|per\s*cent)|\(\d+\)|\b\d+(?:\.\d+)?\s*(?:-\s*)?"
    r"(?:business\s+|calendar\s+)?(?:minutes?|mins?|hours?|hrs?|days?|weeks?|months?|years?|"
    r"seconds?|gb|tb|gbit|gbps|nodes?|gpus?)\b|\b(?:19|20)\d\d-\d\d-\d\d\b|"
    r"\b(?:january|february|march|april|may|june|july|august|september|october|november|"
    r"december)\s+\d{1,2},?\s+\d{4}|\b24\s*(?:x|/)\s*7\b|"
    r"\b\d{1,2}(?::\d\d)?\s*(?:a\.m\.|p\.m\.|am\b|pm\b)",
    re.IGNORECASE,
)

# How far after a hedge a buyer's verb (market, resell, pay) marks the customer as bound.
_CUSTOMER_VERB_WINDOW = 45



@dataclass(frozen=True)
class HedgeHit:
    """One hedge phrase and what it does in this sentence."""

    family: str
    tier: str
    phrase: str
    start: int
    end: int
    # obligation | trigger | negated | definition | customer | anchored | ungoverned
    status: str
    obligor: str
    unit: tuple[int, int]


def _unit_of(units: list[tuple[int, int]], pos: int) -> tuple[int, int]:
    for u in units:
        if u[0] <= pos < u[1]:
            return u
    return units[-1]


def subject_role(
    subjects: Sequence[Subject], pos: int, text: str | None = None
) -> tuple[str | None, str | None]:
    s = subject_before(subjects, pos)
    if s is None:
        return None, None
    # "Customer will receive updates when available": the vendor is the one bound
    receipt = load_lexicon().receipt_verbs
    if s.role == "customer" and text is not None and receipt.search(text[s.end : s.end + 30]):
        return "vendor", s.mention
    return s.role, s.mention


def find_hedges(
    text: str, lex: Lexicon, subjects: Sequence[Subject], definition: bool
) -> list[HedgeHit]:
    """Every hedge phrase in the sentence, with its status and obligor."""
    units = obligation_units(text)
    stops = [(m.start(), m.end()) for m in lex.stoplist.finditer(text)]
    negations = [(m.start(), m.end()) for m in lex.non_obligation.finditer(text)]
    hits: list[HedgeHit] = []
    taken: list[tuple[int, int]] = []
    for fam in lex.hedges:
        for m in fam.regex.finditer(text):
            s, e = m.start(), m.end()
            if any(s < te and ts < e for ts, te in taken):
                continue  # a longer family already claimed these words
            if any(s < te and ts < e for ts, te in stops):
                continue  # "reasonable" in an unrelated sense
            taken.append((s, e))
            unit = _unit_of(units, s)
            role, _mention = subject_role(subjects, s, text)
            obligor = role or "vendor"  # passive or unnamed subject: the service is the vendor's
            status = "obligation"
            after = text[e : e + _CUSTOMER_VERB_WINDOW]
            if role is None and lex.customer_verbs.search(after):
                obligor = "customer"
            if definition:
                status = "definition"
            elif any(ne <= s and s - ne < 160 and ns >= unit[0] for ns, ne in negations):
                status = "negated"
            elif fam.kind == "efforts" and (
                lex.trigger_before.search(text[max(unit[0], s - 70) : s])
                or lex.trigger_after.search(text[e : e + 60])
            ):
                status = "trigger"
            elif fam.requires_supply_verb and not lex.discretion_supply.search(
                text[max(unit[0], s - 60) : min(unit[1], e + 80)]
            ):
                status = "ungoverned"
            elif (fam.anchor_cancels and lex.timing_anchor.search(text[e : unit[1]])) or (
                fam.needs_no_figure and FIGURE_RE.search(text[unit[0] : unit[1]])
            ):
                status = "anchored"
            elif obligor == "customer":
                status = "customer"
            hits.append(HedgeHit(fam.family, fam.tier, m.group(0), s, e, status, obligor, unit))
    hits.sort(key=lambda h: h.start)
    return hits
