"""How the report names an offer, its vendor and a rubric criterion."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from evaltool.models import OfferResult, ScoreReport
from evaltool.report import fmt
from evaltool.report.picks import _by_id


def offer_title(offer: OfferResult, limit: int | None = None) -> str:
    """"Vendor — offer", the offer's name without a repeat of the vendor's."""
    vendor = fmt.clean_text(offer.vendor) or offer.id
    name = fmt.offer_name(vendor, offer.offer_name)
    text = f"{vendor} — {name}" if name else vendor
    return fmt.clean_text(text, limit)


def vendor_of(report: ScoreReport, offer_id: Any, limit: int | None = None) -> str:
    offer = _by_id(report).get(str(offer_id)) if offer_id is not None else None
    if offer is None:
        return fmt.clean_text(offer_id, limit) if offer_id else "another offer"
    return fmt.clean_text(offer.vendor, limit) or offer.id


def criterion_spec(report: ScoreReport, name: str) -> Mapping[str, Any]:
    """The rubric's entry for a criterion (rubrics name it by `id`; older reports `name`)."""
    for item in report.rubric.get("criteria") or []:
        if isinstance(item, Mapping) and name in (item.get("id"), item.get("name")):
            return item
    return {}


def criterion_label(report: ScoreReport, name: str) -> str:
    item = criterion_spec(report, name)
    for key in ("title", "label"):
        if item.get(key):
            return fmt.clean_text(item[key], 60)
    return fmt.field_label(name)
