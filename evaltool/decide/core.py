"""From ranked offers to a recommendation and the sensitivity leadership asks for.

"Why this vendor, how sure are we, and what would change the answer?" The numeric
work is in `evaltool.decide.sensitivity` and `evaltool.decide.mcda`; this module maps rubric
criteria and offers onto their matrices, runs the input break-evens on the real estimate + score
path, and hands the results to `evaltool.decide.recommend`, which picks the recommendation and
the "what would change the decision" items. Numbers and names only: the sentences are
written from them by `evaltool.report.decide_words.decision_with_words`.

Every "what would change the decision" item (`sensitivity["what_would_change_detail"]`) is
a structured change a test re-applies to the pipeline: a price cut, an MFU or bandwidth gain,
a weight, an answer to a question.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from evaltool.decide import mcda
from evaltool.decide import sensitivity as sa
from evaltool.decide.mcda import kendall_tau
from evaltool.decide.recommend import recommend, unverified_changes, what_would_change
from evaltool.decide.weights import weight_break_evens
from evaltool.decide.whatif import (
    MAX_INTER_NODE_GBIT_S_PER_GPU,
    MAX_PRICE_CUT,
    _offered_gbit_s_per_gpu,
    _price_cut,
    _Rescorer,
    bandwidth_to_win,
    mfu_gain_to_win,
    software_efficiency_of,
)
from evaltool.errors import Problem, UsageError
from evaltool.estimate.money import buy_vs_rent_on_table
from evaltool.models import Workload
from evaltool.score.core import ScoredOffer, aggregate_score
from evaltool.score.rubric import Rubric

METHODS: tuple[str, ...] = ("weighted", "topsis", "vikor")
CROSS_CHECKS = METHODS[1:]  # what re-ranks the weighted ranking as a cross-check

# Offers x offers tables (rank acceptability, dominance) cover this many eligible offers by
# default: the full report draws the first 20 offers' rank acceptability, and a table of
# thousands of ranks (one column per rank in the workbook) is read by no one.
TABLE_OFFERS = 20

def check_method(method: str) -> None:
    """A ranking method this module knows, else a UsageError about the `method` setting."""
    if method not in METHODS:
        raise UsageError(Problem(None, code="unknown-method", params={
            "method": repr(method), "methods": ", ".join(METHODS)}), setting="method")


def _round(value: float | None, digits: int = 6) -> float | None:
    return None if value is None else float(f"{value:.{digits}g}")


# --------------------------------------------------------------------------- matrices


def split_exact_ties(acceptability: Any, values: Any, unknown: Any) -> Any:
    """Offers with identical criterion values tie in every draw: share their ranks equally.

    SMAA breaks an exact tie by row order, which would give one of two identical offers
    every win; averaging their rank-acceptability rows is the fair reading.
    """
    import numpy as np

    out = np.array(acceptability, dtype=float)
    keys: dict[bytes, list[int]] = {}
    for i in range(values.shape[0]):
        keys.setdefault(values[i].tobytes() + unknown[i].tobytes(), []).append(i)
    for group in keys.values():
        if len(group) > 1:
            out[group] = out[group].mean(axis=0)
    return out


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


# --------------------------------------------------------------------------- cross-checks


def cross_check(
    method: str, values: Any, weights: Any, names: Sequence[str], primary: Any,
) -> dict[str, Any]:
    """Re-rank the eligible offers with TOPSIS or VIKOR on the same value matrix.

    The values are already 0..1 and "more is better", so every criterion is a benefit.
    TOPSIS uses the classic vector normalisation and VIKOR v = 0.5 (mcda-procurement.md
    §6.4); both are relative to the other bids, hence only cross-checks (§5.6: a
    disagreement is a flag, not a vote).
    """
    benefit = [True] * len(weights)
    # Scores rounded so float noise does not invent an order where the methods see a tie.
    prim = [round(float(p), 9) for p in primary]
    if method == "topsis":
        t = mcda.topsis(values, weights, benefit, normalization="vector")
        score = [round(float(c), 9) for c in t.closeness]
        details: dict[str, Any] = {
            "normalization": t.normalization,
            "closeness": {n: _round(float(c)) for n, c in zip(names, t.closeness, strict=True)},
        }
        first = {max(range(len(names)), key=lambda i: (score[i], -i))}
    elif method == "vikor":
        v = mcda.vikor(values, weights, benefit, v=0.5)
        score = [round(-float(q), 9) for q in v.q]
        details = {
            "v": v.v,
            "q": {n: _round(float(q)) for n, q in zip(names, v.q, strict=True)},
            "s": {n: _round(float(x)) for n, x in zip(names, v.s, strict=True)},
            "r": {n: _round(float(x)) for n, x in zip(names, v.r, strict=True)},
            "compromise_set": [names[i] for i in v.compromise_set],
            "acceptable_advantage": v.acceptable_advantage,
            "acceptable_stability": v.acceptable_stability,
        }
        first = set(v.compromise_set)
    else:
        raise UsageError(Problem(None, code="unknown-method", params={
            "method": repr(method), "methods": ", ".join(CROSS_CHECKS)}), setting="method")
    order = sorted(range(len(names)), key=lambda i: (-score[i], -prim[i], i))
    return {
        "method": method,
        "ranking": [names[i] for i in order],
        "agrees_with_primary": 0 in first,
        "kendall_tau": _round(kendall_tau(prim, score), 4),
        "details": details,
    }


# --------------------------------------------------------------------------- decide


def buy_vs_rent(ranked: Sequence[ScoredOffer], assumptions: Mapping[str, Any] | None
                ) -> list[dict[str, Any]]:
    """Each purchase against the rentals on the table (pay-per-use ones set utilisation)."""
    rentals = [(s.offer, s.estimates) for s in ranked if s.offer.fields.offer_kind != "purchase"]
    out = []
    for s in ranked:
        if s.offer.fields.offer_kind == "purchase":
            found = buy_vs_rent_on_table(s.offer, s.estimates, rentals, assumptions)
            if found:
                out.append(found)
    return out


def decide(
    ranked: Sequence[ScoredOffer],
    rubric: Rubric,
    workload: Workload,
    assumptions: Mapping[str, Any] | None,
    *,
    seed: int = 0,
    draws: int = 10_000,
    method: str = "weighted",
    full_tables: bool = False,
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Sensitivity (always computed) and the recommendation, as JSON-ready dicts.

    Tables that grow with offers x offers cover the first `TABLE_OFFERS` eligible offers:
    `rank_acceptability` lists ranks 1..20 for every offer, and `dominance` the pairs whose
    dominated offer ranks in the first 20. With at most 20 eligible offers (every realistic
    set of quotes) they are complete; `full_tables=True` makes them complete at any size.

    `ranked` is `score.rank` order; everything here depends on that order only, so the
    input order of the offers never shows in the result. `method` adds a TOPSIS or VIKOR
    cross-check of the ranking (`sensitivity["cross_check"]`); the ranking itself is always
    the weighted additive value.
    """
    import numpy as np

    check_method(method)
    eligible = [s for s in ranked if s.eligible]
    sensitivity: dict[str, Any] = {"pareto_frontier": _pareto(ranked)}
    buy_rent = buy_vs_rent(ranked, assumptions)
    if buy_rent:
        sensitivity["buy_vs_rent"] = buy_rent
    if not eligible:
        sensitivity["what_would_change_detail"] = unverified_changes(ranked, None)
        recommendation = {  # the headline is evaltool.report.decide_words'
            "offer_id": None,
            "vendor": None,
            "confidence": "low",
            "excluded": [s.offer.id for s in ranked],
        }
        return sensitivity, recommendation

    values, unknown, w, ids = value_matrix(eligible, rubric)
    scores = np.array([s.score for s in eligible])
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

    table_offers = None if full_tables else TABLE_OFFERS
    smaa = sa.smaa(values, w, bands, n_draws=draws, seed=seed,
                   missing_intervals=unknown if unknown.any() else None, ranks=table_offers)
    acceptability = split_exact_ties(smaa.rank_acceptability, values, unknown)
    sensitivity["win_probability"] = {
        names[i]: _round(float(row[0]), 4) for i, row in enumerate(acceptability)
    }
    sensitivity["rank_acceptability"] = {
        names[i]: [_round(float(p), 4) for p in row] for i, row in enumerate(acceptability)
    }
    sensitivity["smaa"] = {
        "draws": draws, "seed": seed, "weight_model": smaa.weight_model,
        "standard_error": _round(smaa.standard_error, 4),
    }

    sensitivity["weight_break_evens"] = weight_break_evens(eligible, rubric, bands)
    titles = {c.id: c.title for c in rubric.criteria}
    if len(eligible) > 1:
        sensitivity["tornado"] = [
            {
                "criterion": ids[bar.criterion],
                "label": titles[ids[bar.criterion]],
                "low_weight": _round(bar.low_weight, 4),
                "high_weight": _round(bar.high_weight, 4),
                "low": _round(bar.margin_at_low_points, 4),
                "high": _round(bar.margin_at_high_points, 4),
                "crosses_zero": bar.crosses_zero,
            }
            for bar in sa.tornado(values, w, bands)[:10]
        ]

    cuts, gains = _input_break_evens(eligible, rubric, workload, assumptions)
    sensitivity["price_cut_to_win"] = cuts
    sensitivity["gain_to_win"] = gains

    commitment = _commitment_basis(eligible, rubric, workload, assumptions)
    if commitment is not None:
        sensitivity["commitment_basis"] = commitment
    sensitivity["dominance"] = [
        {"dominant": names[a], "dominated": names[b]} for a, b in sa.dominance(values, table_offers)
    ]
    if len(eligible) > 1:
        sensitivity["method_agreement"] = {
            name: {k: check[k] for k in ("kendall_tau", "agrees_with_primary")}
            for name in CROSS_CHECKS
            for check in [cross_check(name, values, w, names, scores)]
        }
        if method != "weighted":
            sensitivity["cross_check"] = cross_check(method, values, w, names, scores)
    if unknown.any():
        intervals = sa.rank_intervals(values, w, unknown)
        sensitivity["rank_intervals"] = {
            names[i]: list(iv) for i, iv in enumerate(intervals) if unknown[i].any()
        }
        sensitivity["clarification_questions"] = _questions(eligible, rubric, values, w, unknown)
    sensitivity["what_would_change_detail"] = what_would_change(
        eligible, sensitivity, rubric, ranked)
    recommendation = recommend(winner, runner, sensitivity, ranked, eligible, workload, draws)
    return sensitivity, recommendation


def _input_break_evens(
    eligible: Sequence[ScoredOffer], rubric: Rubric, workload: Workload,
    assumptions: Mapping[str, Any] | None,
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Price cut, software efficiency (MFU) and bandwidth at which each challenger ties."""
    winner = eligible[0]
    target = winner.score
    cuts: list[dict[str, Any]] = []
    gains: list[dict[str, Any]] = []
    for s in eligible[1:]:
        r = _Rescorer(s, rubric, workload, assumptions)
        cut = _price_cut(r, target)
        price = s.offer.fields.price_usd_per_gpu_hour
        cuts.append({
            "offer_id": s.offer.id,
            "price_cut_pct": None if cut is None else _round(cut * 100, 9),
            "price_usd_per_gpu_hour_at_tie": (
                None if cut is None or price is None else _round(price * (1 - cut), 6)
            ),
            "max_cut_pct": MAX_PRICE_CUT * 100,
        })
        mfu = mfu_gain_to_win(s, target, rubric, workload, assumptions)
        bandwidth = bandwidth_to_win(s, target, rubric, workload, assumptions)
        gains.append({
            "offer_id": s.offer.id,
            "mfu_now": _round(s.estimates.mfu, 4),
            "mfu_at_tie": None if mfu is None else _round(mfu.mfu_at_tie, 4),
            "software_efficiency_now": _round(software_efficiency_of(s.estimates), 6),
            "software_efficiency_at_tie": (
                None if mfu is None else _round(mfu.software_efficiency_at_tie, 9)
            ),
            "inter_node_gbit_s_per_gpu_now": _round(_offered_gbit_s_per_gpu(s), 6),
            "inter_node_gbit_s_per_gpu_at_tie": _round(bandwidth, 9),
            "max_inter_node_gbit_s_per_gpu": MAX_INTER_NODE_GBIT_S_PER_GPU,
        })
    return cuts, gains


def commitment_usd(s: ScoredOffer) -> float | None:
    """The full-term commitment of the offer's contract (a stated minimum where given)."""
    value = (s.estimates.model_extra or {}).get("full_commitment_usd")
    return float(value) if isinstance(value, int | float) else None


def minimum_cash_usd(s: ScoredOffer) -> float | None:
    value = (s.estimates.model_extra or {}).get("minimum_cash_to_sign_usd")
    return float(value) if isinstance(value, int | float) else None


def _commitment_basis(
    eligible: Sequence[ScoredOffer], rubric: Rubric, workload: Workload,
    assumptions: Mapping[str, Any] | None,
) -> dict[str, Any] | None:
    """Scores when each offer is charged its full commitment instead of the cheapest way out.

    Only under the default basis and when the winner's full commitment is well above its
    minimum cash to sign: then whether the rest of the term finds other work (or the exit
    right is used) is a question finance must answer. Every score is recomputed.
    """
    winner = eligible[0]
    committed, minimum = commitment_usd(winner), minimum_cash_usd(winner)
    basis = (assumptions or {}).get("cost_basis", "cash")
    if basis != "cash" or committed is None or minimum is None or committed <= minimum * 1.2:
        return None
    changed = {**(assumptions or {}), "cost_basis": "commitment"}
    scores = {
        s.offer.id: _Rescorer(s, rubric, workload, changed).run(0.0, s.offer)
        for s in eligible
    }
    position = {s.offer.id: i for i, s in reversed(list(enumerate(eligible)))}
    best = max(eligible, key=lambda s: (round(scores[s.offer.id], 9), -position[s.offer.id]))
    return {
        "basis": "commitment",
        "scores": {k: _round(v, 9) for k, v in scores.items()},
        "winner": best.offer.id,
        "winner_id": winner.offer.id,
        "winner_commitment_usd": _round(committed, 6),
        "winner_minimum_cash_usd": _round(minimum, 6),
        "winner_run_cost_usd": _round(winner.estimates.total_cost_usd, 6),
    }


def _questions(
    eligible: Sequence[ScoredOffer], rubric: Rubric, values: Any, w: Any, unknown: Any,
) -> list[dict[str, Any]]:
    """Unknown values ranked by how far their answer could move the decision (§7.1).

    `sensitivity.clarification_priority` ranks them on the additive matrix; whether an
    answer could change the winner is then checked on the real aggregation, with the
    value at its worst (0) and best (1). The question to send the vendor is written from
    the field by evaltool.report.decide_words.
    """
    winner_score = eligible[0].score
    best_other = max((s.score for s in eligible[1:]), default=-math.inf)
    out: list[dict[str, Any]] = []
    for item in sa.clarification_priority(values, w, unknown):
        s = eligible[item.alt]
        criterion = rubric.criteria[item.crit]
        ends = {}
        for end in (0.0, 1.0):
            changed = dict(s.values)
            changed[criterion.id] = end
            ends[end] = aggregate_score(rubric, changed)
        # The winner loses first place at its worst answer; a challenger takes it at its best.
        could = ends[0.0] < best_other if item.alt == 0 else ends[1.0] > winner_score
        field_name = criterion.reads.split(".", 1)[1]
        out.append({
            "offer_id": s.offer.id,
            "vendor": s.offer.fields.vendor,
            "field": field_name,
            "criterion": criterion.id,
            "swing_points": _round(ends[1.0] - ends[0.0], 4),
            "score_if_worst": _round(ends[0.0], 6),
            "score_if_best": _round(ends[1.0], 6),
            "could_change_winner": could,
        })
    out.sort(key=lambda q: (not q["could_change_winner"], -q["swing_points"], q["offer_id"],
                            q["criterion"]))
    return out[:10]


def _pareto(ranked: Sequence[ScoredOffer]) -> list[str]:
    points = [
        (s.offer.id, s.estimates.total_cost_usd, s.estimates.time_to_train_days)
        for s in ranked
        if s.estimates.total_cost_usd is not None and s.estimates.time_to_train_days is not None
    ]
    if not points:
        return []
    idx = sa.pareto_frontier([p[1] for p in points], [p[2] for p in points])
    return [points[i][0] for i in sorted(idx)]
