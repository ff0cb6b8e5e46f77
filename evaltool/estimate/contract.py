"""Contract facts that change time: what the signed terms say about delivery.

Clause analysis (`evaltool.clauses.extract_terms`) reads the delivery date and whether the
vendor commits to it or only hedges it ("target", "estimated", "commercially reasonable
efforts ... on or about"). Where the offer itself does not say, those facts become the
offer's `delivery_date` and `delivery_date_committed`, so a hedged date carries its slip risk
into the deadline and the cost of delay (`timeline.days_to_trained_model`). What the offer
states is kept: a quote field is the vendor's own statement, and conflicts between quote and
contract are the money model's to flag.

The same holds for capacity the vendor may take back: a contract that defines the capacity as
spot or preemptible, or lets the vendor pre-empt or reallocate it at its discretion, makes the
offer `preemptible` (its time stretches by the capacity that is not there and its restarts),
and a stated median of GPUs concurrently available sets its `availability_pct`.
"""

from __future__ import annotations

import datetime as dt
import re

from evaltool.clauses.models import ContractTerms
from evaltool.models import FieldSource, Offer

_NOTE_HEDGED = "the contract only hedges the delivery date (a target or estimate, no remedy)"
_NOTE_FIRM = "the contract commits to the delivery date"
_NOTE_DATE = "the delivery date in the contract text"
_NOTE_PREEMPT = ("the contract lets the vendor take the capacity back (spot, pre-emption, "
                 "reallocation)")
_NOTE_AVAILABLE = "the contract states how many GPUs are concurrently available"

# "preemptible ... instances", "Spot Capacity"; "X may, at its sole discretion, reallocate,
# pre-empt or substitute any portion of the Reserved Capacity"; "may preempt any ... at any
# time". Not when the vendor is barred from it ("shall not ... pre-empt ... without consent").
_PREEMPTIBLE_WORD = re.compile(r"(?<!non-)(?<!non)\bpre-?emptible\b|\bspot (?:capacity|instances?|"
                               r"pool)\b", re.I)
_VENDOR_TAKES_BACK = re.compile(r"\bmay\b[^.;]{0,80}?\b(?:pre-?empt|reallocate|reclaim)\w*", re.I)
_BARRED = re.compile(r"\b(?:may|shall|will|must) not\b|\bno pre-?emption\b|\bnot (?:be )?pre-?empt|"
                     r"\bwithout (?:the )?customer'?s?\b[^.;]{0,30}consent|\bcustomer may\b", re.I)
# "the median number of GPUs concurrently available to a single customer was 448"
_CONCURRENT = re.compile(r"(?:median|average|typical)\s+number of GPUs concurrently available"
                         r"[^.;]{0,60}?\b(?:was|is|of)\s+([\d,]+)", re.I)


def _sentences(text: str) -> list[str]:
    joined = " ".join(text.split())
    return [s for s in re.split(r"(?<=[.;])\s+", joined) if s]


def preemption_facts(offer: Offer) -> dict[str, tuple[object, str]]:
    """Spot facts the contract states: {field: (value, the sentence it rests on)}."""
    text = offer.fields.contract_text or ""
    out: dict[str, tuple[object, str]] = {}
    for sentence in _sentences(text):
        if "preemptible" not in out and not _BARRED.search(sentence) and (
                _PREEMPTIBLE_WORD.search(sentence) or _VENDOR_TAKES_BACK.search(sentence)):
            out["preemptible"] = (True, sentence)
        match = _CONCURRENT.search(sentence)
        gpus = offer.fields.gpu_count
        if match and gpus and "availability_pct" not in out:
            available = float(match.group(1).replace(",", ""))
            if 0 < available <= gpus:
                out["availability_pct"] = (100.0 * available / gpus, sentence)
    return out


def with_contract_facts(offer: Offer, terms: ContractTerms | None) -> Offer:
    """The offer with the contract's delivery and spot facts filled in where it is silent."""
    fields = offer.fields
    updates: dict[str, object] = {}
    provenance = dict(offer.provenance)
    for name, (value, quote) in preemption_facts(offer).items():
        if getattr(fields, name) is None and (name == "preemptible" or fields.preemptible
                                              is not False):
            updates[name] = value
            provenance[name] = FieldSource(
                where=dict(offer.source), raw=quote,
                note=_NOTE_PREEMPT if name == "preemptible" else _NOTE_AVAILABLE)
    if terms is None:
        return _updated(offer, updates, provenance)
    ev_date = terms.evidence.get("delivery_date")
    ev_hedge = terms.evidence.get("delivery_date_hedged") or ev_date
    if fields.delivery_date is None and terms.delivery_date:
        try:
            updates["delivery_date"] = dt.date.fromisoformat(terms.delivery_date)
        except ValueError:
            pass  # not a calendar date: nothing to count from
        else:
            provenance["delivery_date"] = FieldSource(
                where=dict(ev_date.where) if ev_date else dict(offer.source),
                raw=ev_date.quote if ev_date else None, note=_NOTE_DATE)
    if fields.delivery_date_committed is None and terms.delivery_date_hedged is not None:
        updates["delivery_date_committed"] = not terms.delivery_date_hedged
        provenance["delivery_date_committed"] = FieldSource(
            where=dict(ev_hedge.where) if ev_hedge else dict(offer.source),
            raw=ev_hedge.quote if ev_hedge else None,
            note=_NOTE_HEDGED if terms.delivery_date_hedged else _NOTE_FIRM)
    return _updated(offer, updates, provenance)


def _updated(offer: Offer, updates: dict[str, object],
             provenance: dict[str, FieldSource]) -> Offer:
    if not updates:
        return offer
    return offer.model_copy(update={
        "fields": offer.fields.model_copy(update=updates), "provenance": provenance})
