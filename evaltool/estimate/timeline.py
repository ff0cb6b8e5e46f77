"""Time a buyer can count on: from the hours a run computes to the day a model is trained.

Three things stretch a run past its computing time, each a component of `time_to_train_days`:
- failed nodes waiting for repair or replacement (hardware failures per node-day x
  replacement hours; Llama 3, arXiv 2407.21783, section 3.3.4), unless spare nodes cover them;
- spot or preemptible capacity that is not there (its stated availability, or a default);
  its preemptions are checkpoint restarts, counted in the MFU beside hardware failures;
and before the run: the wait for delivery, plus a slip when the vendor only hedges the date
("target", "estimated"). All of it counts against the deadline and in the cost of delay.
"""

from __future__ import annotations

import math
from typing import Any

from evaltool.estimate.result import Result
from evaltool.estimate.views import OfferView, Params, WorkloadView
from evaltool.models import Estimates, Workload

MAX_CAPACITY_LOST = 0.5  # beyond this the offer is broken, not slow; cap and say so


def preemptions_per_day(ov: OfferView, p: Params, gpus: int, r: Result) -> float:
    """Job-level preemptions per day on spot capacity (each is a checkpoint restart)."""
    if not ov.preemptible:
        return 0.0
    rate = ov.preemptions_per_node_day
    if rate is None:
        rate = p.spot_preemptions_per_node_day
        r.assumed.append(f"spot capacity with no stated preemption rate: assumed {rate:g} "
                         "preemptions per node-day.")
    return rate * math.ceil(gpus / ov.gpus_per_node)


def stretch_run(ov: OfferView, p: Params, r: Result, gpus: int, running_days: float) -> None:
    """Set the wall-clock components of the run and the days that are billed."""
    replacement = 0.0
    unavailable = 0.0
    nodes = math.ceil(gpus / ov.gpus_per_node)
    if not ov.preemptible:
        hours = ov.hw_replacement_hours
        if hours is None:
            hours = p.default_hw_replacement_h
            r.assumed.append(f"hardware replacement time not stated: assumed {hours:g} hours.")
        node_failures_per_day = p.failures_per_gpu_day * p.hw_failure_share * ov.gpus_per_node
        down = node_failures_per_day * nodes * hours / 24.0  # nodes waiting at any time
        offered_nodes = math.ceil((ov.gpu_count or gpus) / ov.gpus_per_node)
        uncovered = max(0.0, down - max(0, offered_nodes - nodes))
        lost = min(MAX_CAPACITY_LOST, uncovered / nodes)
        replacement = running_days * lost / (1.0 - lost)
        r.capacity_lost_to_replacement = lost
    billed = running_days + replacement
    if ov.preemptible:
        availability = ov.availability
        if availability is None:
            availability = p.spot_availability
            r.assumed.append(f"spot capacity with no stated availability: assumed available "
                             f"{availability:.0%} of the time.")
        r.spot_availability = availability
        unavailable = billed * (1.0 / availability - 1.0)  # waiting is not billed
    r.running_days = running_days
    r.replacement_wait_days = replacement
    r.spot_unavailable_days = unavailable
    r.days = running_days + replacement + unavailable
    r.billed_days = billed
    r.gpu_hours = gpus * billed * 24.0


def days_to_trained_model(wv: WorkloadView, ov: OfferView, p: Params, r: Result) -> None:
    """Delivery wait + slip of a hedged date + time to train; the deadline and the cost of
    delay count all of it."""
    if r.days is None:
        return
    wait = delivery_wait_days(wv, ov, r)
    slip = 0.0
    if ov.delivery_date is not None and ov.delivery_committed is False:
        slip = p.hedged_slip_days
        r.notes.append(f"the delivery date is only a target: {slip:g} days of expected slip "
                       "counted in the deadline and the cost of delay.")
    r.delivery_slip_days = slip
    r.days_to_trained_model = r.days + (wait or 0.0) + slip
    r.cost_of_delay = wv.cost_of_delay_usd_per_day * r.days_to_trained_model
    if wv.deadline_days is not None:
        r.deadline_met = r.days_to_trained_model <= wv.deadline_days


def delivery_wait_days(wv: WorkloadView, ov: OfferView, r: Result) -> float | None:
    """Days between the workload's start date and the offer's delivery date (0 if earlier)."""
    if wv.start_date is None:
        return None
    if ov.delivery_date is None:
        r.assumed.append(
            "delivery date not stated: assumed ready on the start date "
            f"({wv.start_date.isoformat()})."
        )
        return None
    wait = max(0, (ov.delivery_date - wv.start_date).days)
    r.delivery_wait_days = float(wait)
    if wait:
        r.notes.append(
            f"delivery on {ov.delivery_date.isoformat()}: {wait} days after the start date "
            f"{wv.start_date.isoformat()}, counted in the cost of delay and the deadline."
        )
    return float(wait)


def lengthen_run(estimates: Estimates, cause: str, added: float, workload: Workload,
                 **facts: Any) -> Estimates:
    """The estimates with the run longer by ``added`` days for ``cause`` (a key of the time
    breakdown): the trained-model date, the deadline and the cost of delay move with it;
    ``facts`` are stored beside (the tranches, the substitute)."""
    data = estimates.model_dump()
    data["time_to_train_days"] = float(estimates.time_to_train_days or 0.0) + added
    breakdown = dict(data.get("time_to_train_breakdown_days") or {})
    breakdown[cause] = added
    data["time_to_train_breakdown_days"] = breakdown
    data.update(facts)
    if isinstance(data.get("days_to_trained_model"), int | float):
        data["days_to_trained_model"] = data["days_to_trained_model"] + added
        if workload.deadline_days is not None:
            data["deadline_met"] = data["days_to_trained_model"] <= workload.deadline_days
    if isinstance(data.get("cost_of_delay_usd"), int | float):
        data["cost_of_delay_usd"] = (data["cost_of_delay_usd"]
                                     + added * float(workload.cost_of_delay_usd_per_day or 0.0))
    return Estimates(**data)
