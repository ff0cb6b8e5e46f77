"""Score offers against a rubric: metrics → gates → value functions → weighted sum → rank.

Each offer is scored on its own, with absolute value functions, so adding or removing
an offer never changes another's score (mcda-procurement.md §6.3-6.4). Sensitivity is
computed on the resulting value matrix by `evaltool.decide.sensitivity`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from evaltool.catalog import (
    UndefinedPrecisionError,
    UnknownAcceleratorError,
    load_catalog,
)
from evaltool.estimate.money import anchor_cost_usd, money_for, with_money
from evaltool.models import (
    PARALLEL_FILE_SYSTEMS,
    CriterionScore,
    Estimates,
    Flag,
    GateResult,
    Offer,
    OfferResult,
    Workload,
)
from evaltool.score.rubric import (
    DERIVED_METRICS,
    Criterion,
    Gate,
    Levels,
    LogScale,
    Rubric,
    is_number,
)

# How a criterion without a value is scored (CriterionScore.treatment).
Treatment = Literal["not_applicable", "neutral", "worst", "unverified"]

# Model FLOPs of the whole run, in PFLOP-hours: the "work" a price buys.
_FLOP_PER_PFLOP_HOUR = 1e15 * 3600


@dataclass
class ScoredOffer:
    """Everything scoring learned about one offer, before ranking."""

    offer: Offer
    estimates: Estimates
    metrics: dict[str, Any]
    gates: list[GateResult]
    criteria: list[CriterionScore]
    values: dict[str, float | None]  # criterion id → 0..1, None when missing & neutral
    missing: list[str]
    score: float
    categories: dict[str, float]
    flags: list[Flag] = field(default_factory=list)
    findings: list[Mapping[str, Any]] = field(default_factory=list)
    terms: Any = None  # evaltool.clauses.models.ContractTerms the money was computed from

    @property
    def eligible(self) -> bool:
        return all(g.status == "pass" for g in self.gates)


def _round(value: float, digits: int = 6) -> float:
    return float(f"{value:.{digits}g}")


def _get(estimates: Estimates | Mapping[str, Any], *path: str) -> Any:
    node: Any = estimates.model_dump() if isinstance(estimates, Estimates) else estimates
    for key in path:
        if not isinstance(node, Mapping):
            return None
        node = node.get(key)
    return node


def work_pflop_hours(workload: Workload) -> float | None:
    """Model FLOPs of the run (6·N·D, active parameters for MoE) in PFLOP-hours."""
    if workload.kind == "inference" or not workload.tokens_b:
        return None
    flops = 6.0 * workload.compute_params_b * 1e9 * workload.tokens_b * 1e9
    return flops / _FLOP_PER_PFLOP_HOUR


# A lock-in finding about leaving (its clause's topic, or what it found: data only in the
# vendor's format, a paid export, egress fees, the remaining fees to leave early) makes the
# exit terms proprietary; a termination clause about the customer's data makes them open.
_EXIT_TOPICS = frozenset({"exit", "data"})
_EXIT_LOCK_IN = frozenset({"vendor_format", "paid_export", "egress", "early_exit_fees"})


def contract_features(findings: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Summarise clause findings into the metrics the contract and lock-in criteria read."""
    weak_high = sum(
        1 for f in findings if f.get("kind") == "weak_commitment" and f.get("severity") == "high"
    )
    weak_total = sum(1 for f in findings if f.get("kind") == "weak_commitment")
    missing = sum(1 for f in findings if str(f.get("kind", "")).startswith("missing"))
    unilateral = sum(1 for f in findings if f.get("kind") == "unilateral_change")
    exit_terms = "unknown"
    for f in findings:
        topic = f.get("topic")
        reason = (f.get("figures") or {}).get("reason")
        if f.get("kind") == "lock_in" and (topic in _EXIT_TOPICS or reason in _EXIT_LOCK_IN):
            exit_terms = "proprietary"
            break
        if f.get("kind") == "termination_exit" and topic == "data":
            exit_terms = "open"
    return {
        "weak_commitments_high": weak_high,
        "weak_commitments_total": weak_total,
        "missing_essentials": missing,
        "unilateral_change_count": unilateral,
        "exit_terms": exit_terms,
    }


# A vendor's uptime promise and its service credits are a rental's: bought hardware is run by
# its owner (its warranty and replacement times are scored on their own), so a purchase that
# states none is not marked down as if it had promised nothing. Key of the metrics holding
# the metric paths that do not apply to the offer.
NOT_APPLICABLE = "not_applicable"
_RENTAL_ONLY = frozenset({"fields.sla_uptime_pct", "fields.sla_max_credit_pct"})


def offer_metrics(
    offer: Offer,
    estimates: Estimates,
    workload: Workload,
    findings: Sequence[Mapping[str, Any]] = (),
) -> dict[str, Any]:
    """Flatten fields, estimates and derived metrics into 'fields.x', 'estimates.x', 'derived.x'."""
    f = offer.fields
    metrics: dict[str, Any] = {_key("fields.", k): v for k, v in f.model_dump().items()}
    if "minimum_cash_to_sign_usd" not in (estimates.model_extra or {}):
        # Called without the money stage (a notebook, an old caller): add it with defaults.
        estimates = with_money(estimates, money_for(offer, estimates, workload))
    # One dump, without the explain tree (the metrics never read it): the biggest part.
    est = estimates.model_dump(exclude={"explain"})
    metrics.update({_key("estimates.", k): v for k, v in est.items()})
    d: dict[str, Any] = {}

    days = est.get("days_to_trained_model") or estimates.time_to_train_days
    if is_number(days) and workload.deadline_days:
        d["time_vs_deadline"] = days / workload.deadline_days
    # Against a deadline the delivery date is mandatory evidence; without one it is not needed.
    # (score_files always sets the start date; a caller without one skips the check.)
    needs_delivery = bool(workload.deadline_days and workload.start_date)
    d["delivery_wait_days"] = est.get("delivery_wait_days") if needs_delivery else 0.0
    mfu = estimates.mfu
    peak = _catalog_peak(f.accelerator, workload.precision)
    if is_number(mfu) and peak:
        d["achievable_tflops_per_gpu"] = peak * mfu
    if f.claimed_peak_tflops_per_gpu is not None:
        d["honest_peak_claim"] = not any(fl.kind == "sparse_peak_claim" for fl in offer.flags)
    if f.cpu_cores_per_node and f.gpus_per_node:
        d["cpu_cores_per_gpu"] = f.cpu_cores_per_node / f.gpus_per_node

    offered = est.get("offered_inter_node_gbit_s_per_gpu") or f.inter_node_gbit_s_per_gpu
    efficiency = est.get("network_effective_efficiency")
    if is_number(offered):
        d["effective_inter_node_gbit_s_per_gpu"] = offered * (
            efficiency if is_number(efficiency) else 0.8
        )
    loss = _get(est, "mfu_breakdown", "network_loss")
    if is_number(loss):
        d["network_mfu_loss"] = loss

    if f.storage_type:
        parallel = f.storage_type in PARALLEL_FILE_SYSTEMS
        d["storage_class"] = "parallel" if parallel else f.storage_type
    needed = est.get("storage_needed_tb") or workload.storage_needed_tb
    usable = est.get("storage_usable_tb")
    if usable is None and f.storage_capacity_tb is not None:
        # seed 001: expect ~80% of what you pay for, unless the quote already says usable
        usable = f.storage_capacity_tb * (1.0 if f.storage_capacity_usable else 0.8)
    if is_number(needed) and needed > 0 and is_number(usable):
        d["storage_capacity_ratio"] = usable / needed
    overhead = _get(est, "checkpoint", "overhead")
    if is_number(overhead):
        d["checkpoint_overhead"] = overhead

    d["accelerator_lock_in"] = _catalog_lock_in(f.accelerator)
    d["tooling_openness"] = _tooling_openness(offer)
    if f.offer_kind == "purchase":
        d["egress_usd_per_gb"] = 0.0  # own hardware: no egress billing
        d["commitment_months"] = None
        metrics[NOT_APPLICABLE] = _RENTAL_ONLY
    else:
        d["egress_usd_per_gb"] = f.egress_usd_per_gb
        d["commitment_months"] = commitment_months(est)
    d.update(contract_features(findings))
    if not findings and not f.contract_text:
        for key in ("weak_commitments_high", "missing_essentials", "exit_terms"):
            d[key] = None

    work = work_pflop_hours(workload)
    total = est.get("charged_cost_usd")
    economic = estimates.total_economic_cost_usd
    d["charged_cost_usd"] = total
    d["economic_cost_usd"] = economic
    d["anchor_cost_usd"] = anchor_cost_usd(workload)
    run_total = estimates.total_cost_usd
    if work and is_number(total):
        d["usd_per_work_pflop_hour"] = total / work
    if work and is_number(economic):
        d["economic_usd_per_work_pflop_hour"] = economic / work
    breakdown = est.get("cost_breakdown_usd")
    if isinstance(breakdown, Mapping) and is_number(run_total) and run_total > 0:
        addons = sum(
            v for k, v in breakdown.items()
            if k in ("storage", "support", "network") and is_number(v)
        )
        d["addon_share"] = addons / run_total
    assert set(d) <= DERIVED_METRICS, sorted(set(d) - DERIVED_METRICS)
    metrics.update({_key("derived.", k): v for k, v in d.items()})
    metrics.update({_key("workload.", k): v for k, v in workload.model_dump().items()})
    return metrics


# "fields.x" and the like, made once: thousands of offers share the same key strings.
_KEYS: dict[tuple[str, str], str] = {}


def _key(prefix: str, name: str) -> str:
    found = _KEYS.get((prefix, name))
    if found is None:
        found = _KEYS.setdefault((prefix, name), prefix + name)
    return found


def commitment_months(estimates: Mapping[str, Any]) -> float | None:
    """Months the buyer is held to: 0 with no term, the notice with termination for
    convenience, else the term (no term is not lock-in)."""
    basis = estimates.get("minimum_cash_to_sign_basis") or []
    first = basis[0] if basis else {}
    figures = first.get("figures") or {}
    code = first.get("code")
    if code == "no_term":
        return float(figures.get("notice_days") or 0.0) / 30.4
    if code == "termination_for_convenience":
        return float(figures.get("notice_days") or 0.0) / 30.4
    if code in ("non_cancellable", "ride_out_term", "contract_silent"):
        return float(figures.get("term_months") or 0.0) or None
    return None


def _catalog_peak(accelerator: str | None, precision: str) -> float | None:
    if not accelerator:
        return None
    try:
        return float(load_catalog().get(accelerator).dense_tflops_for(precision))
    except (UnknownAcceleratorError, UndefinedPrecisionError):
        return None  # no metric; the criterion's missing-data policy applies


def _catalog_lock_in(accelerator: str | None) -> str | None:
    if not accelerator:
        return None
    try:
        return load_catalog().get(accelerator).proprietary_ecosystem_lock_in.level
    except UnknownAcceleratorError:
        return None


def _tooling_openness(offer: Offer) -> str | None:
    f = offer.fields
    if f.orchestrator is None and f.root_access is None:
        return None
    if f.orchestrator == "proprietary":
        return "proprietary"
    if f.root_access is False or (f.orchestrator == "kubernetes" and f.root_access is None):
        return "mixed"
    return "open"


def evaluate_gate(gate: Gate, metrics: Mapping[str, Any]) -> GateResult:
    """Pass, fail or (a value not stated) the gate's `when_missing`; the figures are the
    values of the metrics the gate reads and its `says` states (None when not stated).
    evaltool.report.score_words writes the reason from them."""
    figures = {path: metrics.get(path) for path in gate.metric_paths()}
    value = figures[gate.reads]
    if value is None:
        return GateResult(gate=gate.id, status=gate.when_missing, figures=figures)
    ok = True
    if gate.equals is not None:
        ok = str(value).lower() == str(gate.equals).lower()
    if gate.min is not None and is_number(value):
        ok = ok and value >= gate.min
    if gate.max is not None and is_number(value):
        ok = ok and value <= gate.max
    return GateResult(gate=gate.id, status="pass" if ok else "fail", figures=figures)


def criterion_value(criterion: Criterion, raw: Any,
                    metrics: Mapping[str, Any] | None = None) -> float | None:
    """Value 0..1 of a metric on the criterion's value function; None when it has no value."""
    if raw is None:
        return None
    vf = criterion.value_function
    if isinstance(vf, Levels):
        return vf.value(raw)
    if not is_number(raw):
        return None
    if isinstance(vf, LogScale):
        anchor = (metrics or {}).get(vf.anchor)
        if not is_number(anchor) or anchor <= 0:
            return None
        return vf.value(float(raw), float(anchor))
    return vf.value(float(raw))


_Row = tuple[Criterion, Any, float | None, bool, Treatment | None]


def _criterion_values(
    rubric: Rubric, metrics: Mapping[str, Any]
) -> tuple[dict[str, float | None], list[str], list[_Row]]:
    """Each criterion's value 0..1 after the missing-data policy, the metrics missing, and
    per criterion (criterion, raw metric, value, missing?, how a missing value was treated)."""
    values: dict[str, float | None] = {}
    missing: list[str] = []
    rows: list[_Row] = []
    for c in rubric.criteria:
        raw = metrics.get(c.reads)
        value = criterion_value(c, raw, metrics)
        treatment: Treatment | None = None
        is_missing = value is None
        if is_missing and c.reads in (metrics.get(NOT_APPLICABLE) or ()):
            is_missing = False  # nothing to ask for: the criterion does not apply
            treatment = "not_applicable"
        elif is_missing:
            treatment = rubric.missing_policy(c)
            missing.append(c.reads.split(".", 1)[1])
            if treatment != "neutral":
                value = 0.0  # worst, or unverified until answered
        values[c.id] = value
        rows.append((c, raw, value, is_missing, treatment))
    return values, missing, rows


def offer_score(
    offer: Offer,
    estimates: Estimates,
    rubric: Rubric,
    workload: Workload,
    findings: Sequence[Mapping[str, Any]] = (),
) -> float:
    """`score_offer(...).score` alone, without the gates and the criterion rows: for what-ifs
    that re-score an offer many times (decide's break-evens)."""
    metrics = offer_metrics(offer, estimates, workload, findings)
    return aggregate_score(rubric, _criterion_values(rubric, metrics)[0])


def score_offer(
    offer: Offer,
    estimates: Estimates,
    rubric: Rubric,
    workload: Workload,
    findings: Sequence[Mapping[str, Any]] = (),
) -> ScoredOffer:
    metrics = offer_metrics(offer, estimates, workload, findings)
    gates = [evaluate_gate(g, metrics) for g in rubric.gates]
    weights = _structure(rubric).global_weights
    values, missing, rows = _criterion_values(rubric, metrics)
    total, contributions, categories = aggregate(rubric, values)
    # Built after the aggregate, so no contribution is assigned (and re-validated) later.
    scores = [
        CriterionScore(
            criterion=c.id,
            category=c.category,
            value=_json_value(raw),
            score=None if value is None else _round(value * 100, 4),
            weight=_round(weights[c.id]),
            contribution=_round(contributions.get(c.id, 0.0), 6),
            missing=is_missing,
            treatment=treatment,
        )
        for c, raw, value, is_missing, treatment in rows
    ]
    return ScoredOffer(
        offer=offer,
        estimates=estimates,
        metrics=metrics,
        gates=gates,
        criteria=scores,
        values=values,
        missing=sorted(set(missing)),
        score=total,
        categories=categories,
        findings=list(findings),
    )


@dataclass(frozen=True)
class _RubricStructure:
    """What scoring reads from a rubric on every offer, computed once per rubric."""

    global_weights: dict[str, float]
    # (category, its weight, [(criterion id, local weight), ...]) in the rubric's order
    categories: list[tuple[str, float, list[tuple[str, float]]]]


# Rubrics are frozen models; the cache holds each one it describes, so an id is never reused
# while its entry lives. A run uses one or two rubrics; what-ifs make a few more.
_STRUCTURES: dict[int, tuple[Rubric, _RubricStructure]] = {}


def _structure(rubric: Rubric) -> _RubricStructure:
    found = _STRUCTURES.get(id(rubric))
    if found is not None and found[0] is rubric:
        return found[1]
    if len(_STRUCTURES) >= 64:
        _STRUCTURES.clear()
    categories = [
        (name, weight, [(c.id, c.weight) for c in rubric.criteria if c.category == name])
        for name, weight in rubric.category_weights().items()
    ]
    made = _RubricStructure(rubric.global_weights(), categories)
    _STRUCTURES[id(rubric)] = (rubric, made)
    return made


def aggregate(
    rubric: Rubric, values: Mapping[str, float | None]
) -> tuple[float, dict[str, float], dict[str, float]]:
    """Weighted additive value, 0-100. A neutral-missing criterion's weight goes to its siblings."""
    contributions: dict[str, float] = {}
    categories: dict[str, float] = {}
    total = 0.0
    for name, cat_weight, members in _structure(rubric).categories:
        known = [(cid, weight, v) for cid, weight in members
                 if (v := values.get(cid)) is not None]
        weight_sum = sum(weight for _, weight, _ in known)
        if not known or weight_sum <= 0:
            categories[name] = 0.0
            continue
        cat_value = sum(weight * float(v) for _, weight, v in known) / weight_sum
        categories[name] = _round(cat_value * 100, 6)
        for cid, weight, v in known:
            contributions[cid] = cat_weight * weight / weight_sum * float(v or 0.0) * 100
        total += cat_weight * cat_value * 100
    return _round(total, 10), contributions, categories


def aggregate_score(rubric: Rubric, values: Mapping[str, float | None]) -> float:
    """`aggregate(rubric, values)[0]` alone: the same sums in the same order, without the
    contributions and category values (what-ifs and clarification questions call it often)."""
    total = 0.0
    for _name, cat_weight, members in _structure(rubric).categories:
        known = [(weight, v) for cid, weight in members if (v := values.get(cid)) is not None]
        weight_sum = sum(weight for weight, _ in known)
        if not known or weight_sum <= 0:
            continue
        cat_value = sum(weight * float(v) for weight, v in known) / weight_sum
        total += cat_weight * cat_value * 100
    return _round(total, 10)


def _json_value(raw: Any) -> Any:
    if isinstance(raw, float):
        return _round(raw) if math.isfinite(raw) else None
    if raw is None or isinstance(raw, bool | int | str):
        return raw
    return str(raw)


def rank(scored: Sequence[ScoredOffer]) -> list[ScoredOffer]:
    """Eligible offers first, then by score (high first); the id breaks ties deterministically."""
    return sorted(scored, key=lambda s: (not s.eligible, -round(s.score, 9), s.offer.id))


def _estimates_json(estimates: Estimates) -> dict[str, Any]:
    """`estimates.model_dump(mode="json")`, with the explain tree shared, not copied.

    The explain tree is built JSON-ready (`estimate.result.rounded_json`) and is most of an
    offer's memory; a copy per result doubled it at thousands of offers. Key order is kept.
    """
    explain = estimates.explain
    if type(explain) is not dict:
        return estimates.model_dump(mode="json")
    rest = estimates.model_dump(mode="json", exclude={"explain"})
    out: dict[str, Any] = {}
    for key in (*Estimates.model_fields, *rest):
        if key == "explain":
            out[key] = explain
        elif key in rest and key not in out:
            out[key] = rest[key]
    return out


def to_result(scored: ScoredOffer, rank_position: int) -> OfferResult:
    o = scored.offer
    return OfferResult(
        id=o.id,
        vendor=o.fields.vendor or o.id,
        offer_name=o.fields.offer_name,
        accelerator=o.fields.accelerator,
        rank=rank_position,
        score=_round(scored.score, 6),
        eligible=scored.eligible,
        gates=scored.gates,
        categories=scored.categories,
        criteria=scored.criteria,
        estimates=_estimates_json(scored.estimates),
        flags=scored.flags,
        missing=scored.missing,
        source=o.source,
        fields={
            k: v for k, v in o.fields.model_dump(mode="json").items()
            if v is not None and k != "contract_text"
        },
        provenance=o.provenance,
        warnings=o.warnings,
    )
