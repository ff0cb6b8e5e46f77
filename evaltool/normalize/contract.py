"""Facts an offer's contract sheet or section states (uptime, credit cap, replacement and
response times, delivery date, term, egress), read by clause analysis
(`evaltool.clauses.extract_terms`) rather than a second reader: the sentence's role decides
what a figure is ("99.5% uptime" vs "credits capped at 30%" vs "10% per hour of downtime"),
so a percentage is never taken for the wrong field.

Each segment is given to clause analysis with the label of its row ("Service credit cap: 10%
of the monthly fee"), because on a terms sheet the label carries the role the value lacks.
A labelled cell of the offer sheet beats these facts; they beat nothing else.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from evaltool.clauses import extract_terms
from evaltool.clauses.models import ContractTerms, TextSegment
from evaltool.errors import EvaltoolError, Location
from evaltool.normalize.dates import before_signing_deadline, is_signing_deadline, parse_date

# ContractTerms field -> canonical offer field (same name unless mapped).
_TERM_FIELDS: dict[str, str] = {
    "sla_uptime_pct": "sla_uptime_pct",
    "sla_max_credit_pct": "sla_max_credit_pct",
    "hw_replacement_hours": "hw_replacement_hours",
    "support_response_hours": "support_response_hours",
    "delivery_date": "delivery_date",
    "term_months": "term_months",
    "egress_usd_per_gb": "egress_usd_per_gb",
    "min_commit_usd": "min_commit_usd",
    "prepayment_usd": "upfront_usd",
}


# A credit for late delivery ("5% per week of delay, capped at 30%") is not the service-level
# credit cap, whatever clause analysis files it under.
_DELAY_CREDIT_RE = re.compile(r"\bdela(?:y|yed)\b|\blate\b|\bdeliver\w*|\bverzug|\bretard", re.I)


_FIGURE_RE = re.compile(r"\d")


def _segment(raw: dict[str, Any]) -> TextSegment:
    text = str(raw.get("text", ""))
    label = raw.get("section")
    if label and str(label).casefold() not in text.casefold() and str(label) != "notes":
        text = f"{label}: {text}"
    return TextSegment(text=text, where=Location(**raw["where"]), section=label)


def contract_facts(segments: Sequence[dict[str, Any]], known: frozenset[str] = frozenset()
                   ) -> list[tuple[str, Any, Location, str, str]]:
    """(field, value, where, quote, note) for every term the contract text states. Fields in
    ``known`` (already stated by a labelled cell, which wins) are not looked for; text
    without a figure states none of these terms, so it is not analysed."""
    if {*_TERM_FIELDS.values(), "delivery_date_committed"} <= known:
        return []
    figured = [s for s in segments if _FIGURE_RE.search(str(s.get("text", "")))]
    if not figured:
        return []
    terms: ContractTerms = extract_terms([_segment(s) for s in figured])
    out: list[tuple[str, Any, Location, str, str]] = []
    for term, field_name in _TERM_FIELDS.items():
        value = getattr(terms, term)
        evidence = terms.evidence.get(term)
        if value is None or evidence is None:
            continue
        if term == "sla_max_credit_pct" and _DELAY_CREDIT_RE.search(evidence.quote):
            continue
        if term == "delivery_date" and is_signing_deadline(evidence.quote) and not \
                _date_stated_before_signing(value, evidence.quote):
            continue  # "subject to signature by 31 March": a deadline to sign, not delivery
        where = {k: v for k, v in evidence.where.items() if k in ("file", "sheet", "cell", "key")}
        if term == "delivery_date" and terms.delivery_date_hedged is not None and \
                "delivery_date_committed" not in known:
            out.append(("delivery_date_committed", not terms.delivery_date_hedged,
                        Location(**where), evidence.quote,
                        "a hedged date (target, estimate, efforts) is not committed"))
        if field_name in known:
            continue
        note = "read by clause analysis from the contract text"
        if term == "delivery_date" and terms.delivery_date_hedged:
            note += "; the date is hedged (target, estimate or subject to allocation)"
        out.append((field_name, value, Location(**where), evidence.quote, note))
    return out


def _date_stated_before_signing(value: Any, quote: str) -> bool:
    """'handed over from 15 April 2026, subject to signature by 31 March 2026': the date
    read is the one before the signing deadline, not the deadline itself."""
    try:
        parsed = parse_date(before_signing_deadline(quote))
    except EvaltoolError:  # no date before the deadline
        return False
    return parsed.value is not None and str(parsed.value) == str(value)
