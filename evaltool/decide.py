"""From ranked offers to a recommendation and the sensitivity leadership asks for.

"Why this vendor, how sure are we, and what would change the answer?" The numeric
work is in `evaltool.sensitivity`; this module maps rubric criteria and offers onto
its matrices and turns the results back into offers, criteria, prices and sentences.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from evaltool.models import Workload
from evaltool.rubric import Rubric
from evaltool.score import ScoredOffer, score_offer

_PRICE_FIELDS = ("price_usd_per_gpu_hour", "compute_price_usd_per_gpu_hour", "capex_usd",
                 "opex_usd_per_month", "storage_usd_per_tb_month", "support_usd_per_month",
                 "network_usd_per_month", "upfront_usd", "egress_usd_per_gb")

_QUESTIONS = {
    "storage_write_gbyte_s": "What sustained write bandwidth (GB/s) does the shared file system give?",
    "storage_read_gbyte_s": "What sustained read bandwidth (GB/s) does the shared file system give?",
    "storage_capacity_tb": "How much shared storage capacity (TB) is included, and what is usable?",
    "storage_type": "Which shared file system is it (Lustre, GPFS, WEKA, VAST, DDN, NFS)?",
    "sla_uptime_pct": "What uptime do you commit to per month, with which service credits?",
    "sla_max_credit_pct": "What is the maximum service credit, as a % of the monthly fee?",
    "hw_replacement_hours": "Within how many hours do you replace a failed node?",
    "support_response_hours": "What is the committed response time for a severity-1 ticket?",
    "network_dedicated": "Is the inter-node network dedicated to us, or shared with other tenants?",
    "inter_node_fabric": "Which inter-node fabric is it (InfiniBand, RoCE, Ethernet)?",
    "orchestrator": "Which scheduler do we get (Slurm, Kubernetes)?",
    "root_access": "Do we get root/sudo on the nodes?",
    "egress_usd_per_gb": "What do you charge per GB of data egress?",
    "term_months": "What is the minimum commitment term?",
    "cpu_cores_per_node": "How many CPU cores per node?",
    "gpu_memory_gb": "How much memory per GPU?",
}


def _round(value: float | None, digits: int = 6) -> float | None:
    return None if value is None else float(f"{value:.{digits}g}")


def value_matrix(
    scored: Sequence[ScoredOffer], rubric: Rubric
) -> tuple[Any, Any, Any, list[str]]:
    """Values [offer, criterion] on which Σ global_weight × value equals each offer's score.

    A neutral-missing value is filled with its category's weighted mean for that offer:
    exactly what sharing its weight among the siblings does, so the additive model and
    the scores agree. Also returns the mask of values that are unknown (for rank
    intervals and clarification questions) and the global weights.
    """
    import numpy as np

    ids = [c.id for c in rubric.criteria]
    weights = rubric.global_weights()
    values = np.zeros((len(scored), len(ids)))
    unknown = np.zeros((len(scored), len(ids)), dtype=bool)
    for i, s in enumerate(scored):
        by_id = {cs.criterion: cs for cs in s.criteria}
        for j, c in enumerate(rubric.criteria):
            v = s.values.get(c.id)
            if v is None:
                values[i, j] = s.categories.get(c.category, 0.0) / 100.0
            else:
                values[i, j] = v
            unknown[i, j] = by_id[c.id].missing
    w = np.array([weights[c] for c in ids])
    return values, unknown, w, ids


def _rescore_with_price(
    s: ScoredOffer, factor: float, rubric: Rubric, workload: Workload,
    assumptions: Mapping[str, Any] | None, findings: Sequence[Mapping[str, Any]],
) -> float:
    from evaltool.estimate import estimate_offer

    fields = s.offer.fields
    update = {
        name: getattr(fields, name) * factor
        for name in _PRICE_FIELDS
        if getattr(fields, name) is not None
    }
    offer = s.offer.model_copy(update={"fields": fields.model_copy(update=update)})
    estimates = estimate_offer(offer.fields, workload, assumptions)
    return score_offer(offer, estimates, rubric, workload, findings).score


def price_cut_to_win(
    s: ScoredOffer, target_score: float, rubric: Rubric, workload: Workload,
    assumptions: Mapping[str, Any] | None, findings: Sequence[Mapping[str, Any]] = (),
) -> float | None:
    """Smallest fractional cut of every price in the offer that ties `target_score`.

    Bisection on the real pipeline (estimate + score), so it holds whatever the value
    functions are (mcda-procurement.md §6.10 item 3: input break-evens by bisection).
    None when even a 90% cut would not reach the target.
    """
    def score_at(cut: float) -> float:
        return _rescore_with_price(s, 1.0 - cut, rubric, workload, assumptions, findings)

    low, high = 0.0, 0.9
    if score_at(high) < target_score:
        return None
    for _ in range(40):
        mid = (low + high) / 2
        if score_at(mid) >= target_score:
            high = mid
        else:
            low = mid
    return high


def decide(
    ranked: Sequence[ScoredOffer],
    rubric: Rubric,
    workload: Workload,
    assumptions: Mapping[str, Any] | None,
    *,
    seed: int = 0,
    draws: int = 10_000,
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Sensitivity (always computed) and the recommendation, as JSON-ready dicts."""
    import numpy as np

    from evaltool import sensitivity as sa

    eligible = [s for s in ranked if s.eligible]
    sensitivity: dict[str, Any] = {}
    pareto_ids = _pareto(ranked)
    sensitivity["pareto_frontier"] = pareto_ids
    if not eligible:
        recommendation = {
            "offer_id": None,
            "vendor": None,
            "headline": "No offer passes the rubric's knock-out gates; none can be recommended.",
            "confidence": "low",
        }
        return sensitivity, recommendation

    values, unknown, w, ids = value_matrix(eligible, rubric)
    from evaltool.mcda import weighted_additive

    scores = weighted_additive(values, w)
    names = [s.offer.id for s in eligible]
    winner = eligible[0]
    bands_by_id = rubric.global_weight_bands()
    bands = np.array([bands_by_id[c] for c in ids])
    # Global bands may not contain the normalised weights exactly: widen to include them.
    bands[:, 0] = np.minimum(bands[:, 0], w)
    bands[:, 1] = np.maximum(bands[:, 1], w)

    m = sa.margin(scores, rubric.tie_threshold_points)
    runner = eligible[m.runner_up] if m.runner_up is not None else None
    sensitivity["margin"] = {
        "winner": winner.offer.id,
        "runner_up": runner.offer.id if runner else None,
        "points": _round(m.margin_points, 4),
        "statistical_tie": m.statistical_tie,
        "tie_threshold_points": rubric.tie_threshold_points,
    }

    smaa = sa.smaa(values, w, bands, n_draws=draws, seed=seed,
                   missing_intervals=unknown if unknown.any() else None)
    sensitivity["win_probability"] = {
        names[i]: _round(float(p), 4) for i, p in enumerate(smaa.win_probability)
    }
    sensitivity["rank_acceptability"] = {
        names[i]: [_round(float(p), 4) for p in row]
        for i, row in enumerate(smaa.rank_acceptability)
    }
    sensitivity["smaa"] = {"draws": draws, "seed": seed, "weight_model": smaa.weight_model}

    break_evens = []
    for be in sa.weight_break_evens(values, w, bands):
        shift = be.nearest
        if shift is None:
            continue
        break_evens.append({
            "criterion": ids[be.criterion],
            "weight_now": _round(be.weight, 4),
            "weight_at_tie": _round(shift.to_weight, 4),
            "new_winner": names[shift.new_winner],
            "within_band": shift.within_band,
        })
    break_evens.sort(key=lambda b: (not b["within_band"],
                                    abs(b["weight_at_tie"] - b["weight_now"]), b["criterion"]))
    sensitivity["weight_break_evens"] = break_evens

    cuts = []
    for s in eligible[1:]:
        cut = price_cut_to_win(s, winner.score, rubric, workload, assumptions,
                               s.findings)
        price = s.offer.fields.price_usd_per_gpu_hour
        cuts.append({
            "offer_id": s.offer.id,
            "price_cut_pct": None if cut is None else _round(cut * 100, 4),
            "price_usd_per_gpu_hour_at_tie": (
                None if cut is None or price is None else _round(price * (1 - cut), 4)
            ),
        })
    sensitivity["price_cut_to_win"] = cuts

    sensitivity["dominance"] = [
        {"dominant": names[a], "dominated": names[b]} for a, b in sa.dominance(values)
    ]
    if unknown.any():
        intervals = sa.rank_intervals(values, w, unknown)
        sensitivity["rank_intervals"] = {
            names[i]: list(iv) for i, iv in enumerate(intervals) if unknown[i].any()
        }
        questions = []
        for item in sa.clarification_priority(values, w, unknown)[:10]:
            criterion = rubric.criteria[item.crit]
            field = criterion.reads.split(".", 1)[1]
            questions.append({
                "offer_id": names[item.alt],
                "vendor": eligible[item.alt].offer.fields.vendor,
                "field": field,
                "question": _QUESTIONS.get(field, f"Please state: {criterion.title.lower()}."),
                "swing_points": _round(item.swing_points, 4),
                "could_change_winner": item.could_change_winner,
            })
        sensitivity["clarification_questions"] = questions
    sensitivity["what_would_change"] = _what_would_change(
        eligible, sensitivity, rubric, ranked
    )
    recommendation = _recommend(winner, runner, sensitivity, ranked)
    return sensitivity, recommendation


def _pareto(ranked: Sequence[ScoredOffer]) -> list[str]:
    from evaltool import sensitivity as sa

    points = [
        (s.offer.id, s.estimates.total_cost_usd, s.estimates.time_to_train_days)
        for s in ranked
        if s.estimates.total_cost_usd is not None and s.estimates.time_to_train_days is not None
    ]
    if not points:
        return []
    idx = sa.pareto_frontier([p[1] for p in points], [p[2] for p in points])
    return [points[i][0] for i in sorted(idx)]


def _label(s: ScoredOffer | None) -> str:
    if s is None:
        return "—"
    return s.offer.fields.vendor or s.offer.id


def _money(value: float | None) -> str:
    if value is None:
        return "—"
    if abs(value) >= 1e6:
        return f"${value / 1e6:,.1f}M"
    if abs(value) >= 1e3:
        return f"${value / 1e3:,.0f}k"
    return f"${value:,.2f}"


def _what_would_change(
    eligible: Sequence[ScoredOffer], sensitivity: Mapping[str, Any], rubric: Rubric,
    ranked: Sequence[ScoredOffer],
) -> list[str]:
    """Plain sentences, each true when applied (tests apply them and check)."""
    by_id = {s.offer.id: s for s in ranked}
    titles = {c.id: c.title for c in rubric.criteria}
    lines: list[str] = []
    never: list[str] = []
    for cut in sensitivity.get("price_cut_to_win", []):
        s = by_id[cut["offer_id"]]
        if cut["price_cut_pct"] is None:
            never.append(_label(s))
            continue
        at = cut["price_usd_per_gpu_hour_at_tie"]
        price = f" (to ${at:,.2f}/GPU-h)" if at is not None else ""
        lines.append(
            f"{_label(s)} would tie if it cut all its prices by {cut['price_cut_pct']:.0f}%{price}."
        )
    if never:
        lines.append(
            "Price alone would not change the decision: even 90% lower prices leave "
            f"{', '.join(never)} behind."
        )
    shifts = sensitivity.get("weight_break_evens", [])
    inside = [b for b in shifts if b["within_band"]]
    for be in inside[:3]:
        direction = "rose" if be["weight_at_tie"] > be["weight_now"] else "fell"
        lines.append(
            f"{_label(by_id[be['new_winner']])} would tie if the weight of "
            f"'{titles.get(be['criterion'], be['criterion'])}' {direction} from "
            f"{be['weight_now']:.1%} to {be['weight_at_tie']:.1%} of the score."
        )
    if not inside:
        text = "No change of weights within the rubric's declared bands changes the winner"
        if shifts:
            be = shifts[0]
            text += (
                f"; the nearest: {_label(by_id[be['new_winner']])} would tie only if "
                f"'{titles.get(be['criterion'], be['criterion'])}' weighed "
                f"{be['weight_at_tie']:.1%} of the score instead of {be['weight_now']:.1%}"
            )
        lines.append(text + ".")
    for q in sensitivity.get("clarification_questions", [])[:3]:
        if q["could_change_winner"]:
            lines.append(
                f"{q['vendor'] or q['offer_id']}'s answer on {q['field'].replace('_', ' ')} "
                "could change the winner: ask before signing."
            )
    for s in ranked:
        unverified = [g for g in s.gates if g.status == "unverified"]
        if unverified and not any(g.status == "fail" for g in s.gates):
            lines.append(
                f"{_label(s)} is excluded until it answers: "
                + "; ".join(g.why for g in unverified) + "."
            )
    return lines


def _recommend(
    winner: ScoredOffer, runner: ScoredOffer | None, sensitivity: Mapping[str, Any],
    ranked: Sequence[ScoredOffer],
) -> dict[str, Any]:
    p = sensitivity.get("win_probability", {}).get(winner.offer.id)
    margin = sensitivity.get("margin", {})
    points = margin.get("points")
    tie = margin.get("statistical_tie")
    if p is not None and p >= 0.8 and not tie:
        confidence = "high"
    elif p is not None and p >= 0.5 and not tie:
        confidence = "medium"
    else:
        confidence = "low"
    est = winner.estimates
    parts = [f"Take {_label(winner)}"]
    if winner.offer.fields.offer_name:
        parts.append(f" ({winner.offer.fields.offer_name})")
    facts = []
    if est.total_cost_usd is not None:
        facts.append(f"{_money(est.total_cost_usd)} total")
    if est.time_to_train_days is not None:
        facts.append(f"{est.time_to_train_days:.0f} days to train")
    if facts:
        parts.append(": " + ", ".join(facts))
    headline = "".join(parts) + "."
    if runner is not None and points is not None:
        headline += f" It leads {_label(runner)} by {points:.1f} points"
        if p is not None:
            headline += f" and wins in {p:.0%} of plausible weightings"
        headline += "."
    return {
        "offer_id": winner.offer.id,
        "vendor": _label(winner),
        "headline": headline,
        "confidence": confidence,
        "win_probability": p,
        "margin_points": points,
        "runner_up_id": runner.offer.id if runner else None,
        "excluded": [s.offer.id for s in ranked if not s.eligible],
    }
