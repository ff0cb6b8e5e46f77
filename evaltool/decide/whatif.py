"""What-ifs: re-score one offer with one input changed, and solve for the change that ties.

A price cut, an MFU or bandwidth gain, a software efficiency or a criterion weight: each is
applied to the real estimate and score path (never to a copy of a formula), so the "what
would change the decision" items (worded in report/) state what the pipeline would really do.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from evaltool.errors import Problem, UsageError
from evaltool.estimate.money import estimate_with_money
from evaltool.models import Estimates, Offer, Workload
from evaltool.score.core import ScoredOffer, offer_score
from evaltool.score.rubric import Rubric

# "Cut all its prices": every money figure the vendor sets. Power is the utility's price
# and stays as it is.
PRICE_FIELDS: tuple[str, ...] = (
    "price_usd_per_gpu_hour", "compute_price_usd_per_gpu_hour", "capex_usd",
    "opex_usd_per_month", "storage_usd_per_tb_month", "support_usd_per_month",
    "network_usd_per_month", "upfront_usd", "egress_usd_per_gb", "min_commit_usd",
)

# Search bounds of the input break-evens. A cut beyond 90% is not a negotiation; 800 Gbit/s
# per GPU is the fastest NIC shipping (NVIDIA ConnectX-8 SuperNIC, 800 Gb/s per port, one
# per GPU in HGX B300); software efficiency cannot exceed 1 (the measured matmul ceiling,
# evaltool/data/assumptions.yaml `software_efficiency`).
MAX_PRICE_CUT = 0.9

MAX_INTER_NODE_GBIT_S_PER_GPU = 800.0

MAX_SOFTWARE_EFFICIENCY = 1.0

# A reported input break-even reproduces the winner's score within this many points.
TIE_TOLERANCE_POINTS = 1e-3


# --------------------------------------------------------------------------- what-ifs


def with_prices_scaled(offer: Offer, factor: float) -> Offer:
    """The offer with every vendor price (PRICE_FIELDS) multiplied by `factor`."""
    fields = offer.fields
    update = {
        name: getattr(fields, name) * factor
        for name in PRICE_FIELDS
        if getattr(fields, name) is not None
    }
    return offer.model_copy(update={"fields": fields.model_copy(update=update)})


def with_inter_node_bandwidth(offer: Offer, gbit_s_per_gpu: float) -> Offer:
    """The offer with `gbit_s_per_gpu` of inter-node bandwidth per GPU (per node kept in step)."""
    fields = offer.fields
    update: dict[str, Any] = {"inter_node_gbit_s_per_gpu": gbit_s_per_gpu}
    if fields.inter_node_gbit_s_per_node is not None:
        update["inter_node_gbit_s_per_node"] = (
            gbit_s_per_gpu * fields.gpus_per_node if fields.gpus_per_node else None
        )
    return offer.model_copy(update={"fields": fields.model_copy(update=update)})


def with_software_efficiency(workload: Workload, software_efficiency: float) -> Workload:
    """The workload with the software efficiency fixed (it overrides the assumptions)."""
    return workload.model_copy(update={"software_efficiency": software_efficiency})


def software_efficiency_of(estimates: Estimates) -> float | None:
    """The software efficiency the estimate used (after fp8/MoE factors), if it had one."""
    explain = estimates.explain if isinstance(estimates.explain, Mapping) else {}
    base = explain.get("base_mfu")
    inputs = base.get("inputs") if isinstance(base, Mapping) else None
    value = inputs.get("software_efficiency") if isinstance(inputs, Mapping) else None
    return float(value) if isinstance(value, int | float) and value > 0 else None


def rubric_with_weight(rubric: Rubric, criterion_id: str, global_weight: float) -> Rubric:
    """The rubric in which `criterion_id` carries `global_weight` of the whole score and
    every other criterion keeps its share of the rest (w_j (1 - t)/(1 - w_k)).

    Category weights become the new category sums and criterion weights the new global
    weights, so the hierarchy gives exactly these global weights. Weight bands are dropped:
    the result is a what-if, not a rubric to run sensitivity on.
    """
    weights = rubric.global_weights()
    if criterion_id not in weights:
        raise UsageError(Problem(None, code="unknown-criterion", params={
            "rubric": rubric.name, "criterion": repr(criterion_id),
            "criteria": ", ".join(weights)}))
    if not 0.0 < global_weight < 1.0:
        raise UsageError(Problem(None, code="weight-out-of-range", params={
            "criterion": criterion_id, "found": repr(global_weight)}))
    rest = 1.0 - weights[criterion_id]
    new = {
        cid: (global_weight if cid == criterion_id else w * (1.0 - global_weight) / rest)
        for cid, w in weights.items()
    }
    data = rubric.model_dump(mode="python")
    for name, category in data["categories"].items():
        category["weight"] = sum(new[c.id] for c in rubric.criteria if c.category == name)
        category["weight_band"] = None
    for criterion in data["criteria"]:
        criterion["weight"] = new[criterion["id"]]
        criterion["weight_band"] = None
    return Rubric.model_validate(data)


@dataclass
class _Rescorer:
    """Re-runs estimate + score for one offer under a what-if; remembers every result."""

    scored: ScoredOffer
    rubric: Rubric
    workload: Workload
    assumptions: Mapping[str, Any] | None
    results: dict[float, Estimates] = field(default_factory=dict)

    def run(self, x: float, offer: Offer, workload: Workload | None = None) -> float:
        wl = workload or self.workload
        # The contract terms stay as read; money follows the what-if's prices and times.
        estimates = estimate_with_money(offer, wl, self.assumptions, self.scored.terms)
        self.results[x] = estimates
        # The score alone (score_offer(...).score without its rows): what-ifs run thousands.
        return offer_score(offer, estimates, self.rubric, wl, self.scored.findings)


def _solve_tie(
    score_at: Callable[[float], float], lo: float, hi: float, target: float,
    score_lo: float | None = None,
) -> float | None:
    """x in [lo, hi] at which score_at(x) ties `target`; None if even score_at(hi) is below.

    Illinois false position (a bracketing secant): converges in a handful of evaluations on
    the piecewise-linear value functions where bisection needs ~40 (mcda-procurement.md
    §5.3: input break-evens by bracketing, method-agnostic).
    """
    f_hi = score_at(hi) - target
    if f_hi < 0.0:
        return None
    f_lo = (score_at(lo) if score_lo is None else score_lo) - target
    if f_lo >= 0.0:
        return lo
    if f_hi <= TIE_TOLERANCE_POINTS:
        return hi
    side = 0
    for _ in range(60):
        x = hi - f_hi * (hi - lo) / (f_hi - f_lo)
        if not lo < x < hi:
            x = 0.5 * (lo + hi)
        fx = score_at(x) - target
        if abs(fx) <= TIE_TOLERANCE_POINTS:
            return x
        if fx < 0.0:
            lo, f_lo = x, fx
            if side == -1:
                f_hi *= 0.5
            side = -1
        else:
            hi, f_hi = x, fx
            if side == 1:
                f_lo *= 0.5
            side = 1
        if hi - lo <= 1e-12 * max(1.0, abs(hi)):
            break  # a jump in the score (a discrete level): hi overtakes, no exact tie
    return hi


def price_cut_to_win(
    s: ScoredOffer, target_score: float, rubric: Rubric, workload: Workload,
    assumptions: Mapping[str, Any] | None, findings: Sequence[Mapping[str, Any]] = (),
) -> float | None:
    """Smallest fractional cut of every vendor price in the offer that ties `target_score`.

    Runs the real pipeline (estimate + score), so it holds whatever the value functions
    are (mcda-procurement.md §6.10 item 3). None when even a 90% cut does not reach it.
    `findings` is kept for callers of the first version; the offer's own are used.
    """
    del findings
    return _price_cut(_Rescorer(s, rubric, workload, assumptions), target_score)


def _price_cut(r: _Rescorer, target: float) -> float | None:
    return _solve_tie(
        lambda cut: r.run(cut, with_prices_scaled(r.scored.offer, 1.0 - cut)),
        0.0, MAX_PRICE_CUT, target, r.scored.score,
    )


@dataclass(frozen=True)
class MfuGain:
    """The software efficiency (and the MFU it gives) at which an offer ties the winner."""

    software_efficiency_now: float
    software_efficiency_at_tie: float
    mfu_now: float | None
    mfu_at_tie: float | None


def mfu_gain_to_win(
    s: ScoredOffer, target_score: float, rubric: Rubric, workload: Workload,
    assumptions: Mapping[str, Any] | None,
) -> MfuGain | None:
    """Software efficiency (fraction of the matmul ceiling) at which `s` ties `target_score`.

    MFU = matmul ceiling × software efficiency − modelled losses, so raising the software
    efficiency is "a better software stack on the same hardware": it is the knob a
    benchmark run settles. None when even efficiency 1.0 (the ceiling) does not reach it.
    """
    r = _Rescorer(s, rubric, workload, assumptions)
    now = software_efficiency_of(s.estimates)
    if now is None or now >= MAX_SOFTWARE_EFFICIENCY:
        return None
    at = _solve_tie(
        lambda x: r.run(x, s.offer, with_software_efficiency(workload, x)),
        now, MAX_SOFTWARE_EFFICIENCY, target_score, s.score,
    )
    if at is None:
        return None
    tied = r.results.get(at)
    return MfuGain(now, at, s.estimates.mfu, tied.mfu if tied else s.estimates.mfu)


def bandwidth_to_win(
    s: ScoredOffer, target_score: float, rubric: Rubric, workload: Workload,
    assumptions: Mapping[str, Any] | None,
) -> float | None:
    """Inter-node Gbit/s per GPU (as offered, before the ~80% derating) at which `s` ties.

    None when even 800 Gbit/s per GPU does not reach the target.
    """
    r = _Rescorer(s, rubric, workload, assumptions)
    now = _offered_gbit_s_per_gpu(s)
    if now is None or now >= MAX_INTER_NODE_GBIT_S_PER_GPU:
        return None
    stated = s.offer.fields.inter_node_gbit_s_per_gpu is not None
    return _solve_tie(
        lambda x: r.run(x, with_inter_node_bandwidth(s.offer, x)),
        now, MAX_INTER_NODE_GBIT_S_PER_GPU, target_score, s.score if stated else None,
    )


def _offered_gbit_s_per_gpu(s: ScoredOffer) -> float | None:
    extra = s.estimates.model_extra or {}
    value = (extra.get("offered_inter_node_gbit_s_per_gpu")
             or s.offer.fields.inter_node_gbit_s_per_gpu)
    return float(value) if isinstance(value, int | float) and value > 0 else None
