"""Which offer the report recommends and which comes next, read from a ScoreReport."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from evaltool.models import OfferResult, ScoreReport


def _get(mapping: Any, *keys: str) -> Any:
    """mapping[k1][k2]..., or None when any level is absent or not a mapping."""
    current = mapping
    for key in keys:
        if not isinstance(current, Mapping):
            return None
        current = current.get(key)
    return current


def _by_id(report: ScoreReport) -> dict[str, OfferResult]:
    return {offer.id: offer for offer in report.offers}


def _ranked(report: ScoreReport) -> list[OfferResult]:
    return sorted(report.offers, key=lambda o: (not o.eligible, o.rank, o.id))


def winner_of(report: ScoreReport) -> OfferResult | None:
    """The recommended offer: the recommendation's id, else the best eligible offer."""
    wanted = report.recommendation.get("offer_id")
    offers = _by_id(report)
    if wanted in offers and offers[str(wanted)].eligible:
        return offers[str(wanted)]
    eligible = [o for o in _ranked(report) if o.eligible]
    return eligible[0] if eligible else None


def runner_up_of(report: ScoreReport, winner: OfferResult | None) -> OfferResult | None:
    offers = _by_id(report)
    wanted = report.recommendation.get("runner_up_id") or _get(
        report.sensitivity, "margin", "runner_up"
    )
    if wanted in offers and winner is not None and wanted != winner.id:
        return offers[str(wanted)]
    rest = [o for o in _ranked(report) if o.eligible and (winner is None or o.id != winner.id)]
    return rest[0] if rest else None
