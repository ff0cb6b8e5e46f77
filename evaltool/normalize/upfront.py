"""An upfront payment beside a recurring price: part of the commitment, or on top of it.

A hyperscaler's reserved or private-offer pricing states "Upfront (USD) | Per instance-month
(USD)": a partial-upfront option pays the upfront and then a lower monthly rate, so what a
GPU-hour costs is the recurring rate plus the upfront spread over the term (PRODUCT.md: "per
month and per-term prices become price_usd_per_gpu_hour (730 hours a month)"). A prepayment
("15% of TCV due at signature", "first month in advance") is the same money paid early: adding
it again would count it twice. The offer's own total contract value tells which: when it is
the recurring charges plus the upfront, the upfront is on top; when it is the recurring charges
alone, the upfront is inside. Without a total, nothing is changed (the rate as quoted stays,
the upfront stays in upfront_usd, and the cost model adds it by its own rule).

effective $/GPU-h = recurring $/GPU-h + upfront / (GPUs x 730 h x term months)
"""

from __future__ import annotations

from typing import Any

from evaltool.models import HOURS_PER_MONTH, FieldSource

# How close the offer's total must come to a sum to say which sum it is (rounding in quotes).
_TOTAL_TOLERANCE = 0.005


def amortised_price(values: dict[str, Any]) -> tuple[float, str] | None:
    """The effective price per GPU-hour with the upfront spread over the term, and how it
    was worked out, where the offer's total shows the upfront is on top of the recurring
    charges; None where it is not (or cannot be told)."""
    names = ("upfront_usd", "compute_price_usd_per_gpu_hour", "gpu_count", "term_months",
             "min_commit_usd")
    raw = [values.get(n) for n in names]
    if values.get("offer_kind") == "purchase" or not all(
            isinstance(x, (int, float)) and not isinstance(x, bool) and x > 0 for x in raw):
        return None
    upfront, rate, gpus, months, total = (float(x) for x in raw if x is not None)
    hours = gpus * HOURS_PER_MONTH * months
    recurring = rate * hours
    if abs(total - (recurring + upfront)) > _TOTAL_TOLERANCE * total:
        return None  # the total is the recurring charges alone (a prepayment), or unclear
    effective = rate + upfront / hours
    note = (f"{rate:.4g} USD per GPU-hour recurring + upfront {upfront:,.0f} USD / ({gpus:g} GPUs "
            f"x {HOURS_PER_MONTH:g} h x {months:g} months) = {effective:.4f}; the offer's total "
            f"{total:,.0f} USD is the recurring charges plus the upfront")
    return effective, note


def apply_amortised_price(values: dict[str, Any], provenance: dict[str, FieldSource]) -> bool:
    """Set price_usd_per_gpu_hour to the amortised effective price where it applies."""
    found = amortised_price(values)
    if found is None or values.get("price_usd_per_gpu_hour") != values.get(
            "compute_price_usd_per_gpu_hour"):
        return False  # an all-in or purchase price is not the recurring rate
    effective, note = found
    source = provenance.get("compute_price_usd_per_gpu_hour")
    values["price_usd_per_gpu_hour"] = effective
    provenance["price_usd_per_gpu_hour"] = FieldSource(
        where=source.where if source else {}, raw=source.raw if source else None,
        derived_from=["compute_price_usd_per_gpu_hour", "upfront_usd", "gpu_count",
                      "term_months", "min_commit_usd"], note=note)
    return True
