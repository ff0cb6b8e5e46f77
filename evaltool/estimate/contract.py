"""Contract facts that change time: what the signed terms say about delivery.

Clause analysis (`evaltool.clauses.extract_terms`) reads the delivery date and whether the
vendor commits to it or only hedges it ("target", "estimated", "commercially reasonable
efforts ... on or about"). Where the offer itself does not say, those facts become the
offer's `delivery_date` and `delivery_date_committed`, so a hedged date carries its slip risk
into the deadline and the cost of delay (`timeline.days_to_trained_model`). What the offer
states is kept: a quote field is the vendor's own statement, and conflicts between quote and
contract are the money model's to flag.
"""

from __future__ import annotations

import datetime as dt

from evaltool.clauses.models import ContractTerms
from evaltool.models import FieldSource, Offer

_NOTE_HEDGED = "the contract only hedges the delivery date (a target or estimate, no remedy)"
_NOTE_FIRM = "the contract commits to the delivery date"
_NOTE_DATE = "the delivery date in the contract text"


def with_contract_facts(offer: Offer, terms: ContractTerms | None) -> Offer:
    """The offer with the contract's delivery facts filled in where the offer is silent."""
    if terms is None:
        return offer
    fields = offer.fields
    updates: dict[str, object] = {}
    provenance = dict(offer.provenance)
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
    if not updates:
        return offer
    return offer.model_copy(update={
        "fields": fields.model_copy(update=updates), "provenance": provenance})
