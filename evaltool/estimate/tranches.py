"""Capacity delivered in tranches: the run's time and the fees of the GPUs not yet there.

A contract may deliver the cluster in parts ("Tranche 1, 256 GPUs, by 7 December; Tranche
2, 256 GPUs, targeted for 1 February"; read by `evaltool.clauses.schedules.tranches`). The
run starts on the first part and speeds up as the others arrive, so it takes longer than
on the whole cluster from day one: the same GPU-days of work, done on the GPUs delivered
so far. A later part the vendor only hedges ("targeted", "commercially reasonable
efforts") is counted with the expected slip of a hedged date (assumption
``hedged_delivery_slip_days``), as a hedged delivery date is. The longer run counts
against the deadline and in the cost of delay.

The money follows the dates the contract states: each part is billed from its delivery
(`capacity_share`), so a reserved term costs less than the whole cluster for the whole term.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

from evaltool.estimate.assumptions import assumption_values
from evaltool.estimate.timeline import lengthen_run
from evaltool.models import Estimates, OfferFields, Workload

# (GPUs, ISO date, hedged) per tranche, in date order, as exit_terms stores them.
Tranches = Sequence[tuple[float, str, bool]]


def tranche_offsets(tranches: Tranches, slip_days: float = 0.0
                    ) -> list[tuple[float, float]] | None:
    """[(days after the first tranche, GPUs), ...] in tranche order; a hedged later
    tranche slips."""
    try:
        days = [dt.date.fromisoformat(d) for _g, d, _h in tranches]
    except ValueError:
        return None
    first = days[0]
    out = []
    for i, ((gpus, _d, hedged), day) in enumerate(zip(tranches, days, strict=True)):
        offset = float((day - first).days) + (slip_days if hedged and i else 0.0)
        out.append((offset, float(gpus)))
    return out


def finish_days(offsets: Sequence[tuple[float, float]], gpus_used: float,
                gpu_days: float) -> float:
    """Days from the first tranche until `gpu_days` of work is done on the GPUs delivered
    so far (never more than the run uses)."""
    done, t, capacity = 0.0, 0.0, 0.0
    for start, gpus in sorted(offsets):
        if start > t and capacity > 0:
            span = start - t
            if done + capacity * span >= gpu_days:
                return t + (gpu_days - done) / capacity
            done += capacity * span
        t = max(t, start)
        capacity = min(gpus_used, capacity + gpus)
    return t + (gpu_days - done) / capacity if capacity > 0 else float("inf")


def capacity_share(offsets: Sequence[tuple[float, float]], gpu_count: float,
                   days: float) -> float:
    """The share of the whole cluster's GPU-days delivered over the first `days` days."""
    if days <= 0 or gpu_count <= 0:
        return 1.0
    delivered = sum(gpus * max(0.0, days - start) for start, gpus in offsets)
    return min(1.0, delivered / (gpu_count * days))


def applies(fields: OfferFields, tranches: Tranches | None) -> bool:
    """A tranche schedule counts when the run starts on its first part: the offer's delivery
    date is that part's date (or not stated)."""
    if not tranches:
        return False
    first = tranches[0][1]
    return fields.delivery_date is None or fields.delivery_date.isoformat() == first


def with_tranches(estimates: Estimates, fields: OfferFields, tranches: Tranches | None,
                  workload: Workload, assumptions: dict[str, Any] | None = None) -> Estimates:
    """The estimates with the run stretched by the parts that arrive later."""
    if not applies(fields, tranches) or estimates.time_to_train_days is None:
        return estimates
    assert tranches is not None
    used = float(estimates.gpus_used or fields.gpu_count or 0)
    if used <= 0:
        return estimates
    slip = float(assumption_values({k: v for k, v in (assumptions or {}).items()
                                    if k == "hedged_delivery_slip_days"} or None)
                 ["hedged_delivery_slip_days"])
    offsets = tranche_offsets(tranches, slip)
    if offsets is None or offsets[0][1] >= used:
        return estimates  # the first part alone is all the run uses
    before = float(estimates.time_to_train_days)
    after = finish_days(offsets, used, used * before)
    added = after - before
    if added <= 0:
        return estimates
    return lengthen_run(estimates, "waiting_for_tranches", added, workload, delivery_tranches=[
        {"gpus": gpus, "date": day, "hedged": hedged, "starts_after_days": start}
        for (gpus, day, hedged), (start, _g) in zip(tranches, offsets, strict=True)])
