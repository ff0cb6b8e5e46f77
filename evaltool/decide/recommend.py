"""The recommendation and what would change it, as numbers and names: no sentence here.

Every item is built from numbers `decide.core` computed (the margin, the win probability,
the input break-evens, the weight break-evens, the commitment basis). Which items exist and
in what order is a decision, taken here; each "what would change the decision" item carries
the structured change a test re-applies to the pipeline, and under `figures` every further
figure and name its sentence states. evaltool.report.recommend_words writes the sentences
(`text`, the headline, the trade-off, the confidence reason) from them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from evaltool.decide.whatif import (
    MAX_INTER_NODE_GBIT_S_PER_GPU,
    MAX_PRICE_CUT,
    MAX_SOFTWARE_EFFICIENCY,
)
from evaltool.models import Workload
from evaltool.score.core import ScoredOffer
from evaltool.score.rubric import Rubric

# The most input break-evens an answer lists: the best-ranked three carry the message.
MAX_INPUT_BREAK_EVENS = 3
# The inputs an input break-even changes: the price, the MFU (as software efficiency), the
# inter-node bandwidth.
INPUT_CHANGES = ("price_cut_pct", "software_efficiency_at_tie", "inter_node_gbit_s_per_gpu_at_tie")


def label(s: ScoredOffer | None) -> str:
    """The name an offer goes by in the decision: its vendor, else its id."""
    if s is None:
        return "—"
    return s.offer.fields.vendor or s.offer.id


def _labels(*offers: ScoredOffer) -> dict[str, str]:
    return {s.offer.id: label(s) for s in offers}


def what_would_change(
    eligible: Sequence[ScoredOffer], sensitivity: Mapping[str, Any], rubric: Rubric,
    ranked: Sequence[ScoredOffer],
) -> list[dict[str, Any]]:
    """Structured changes, most decision-relevant first; the figures each states in `figures`.

    Every item is true when applied to the pipeline (tests/test_decide.py re-applies them).
    The memo shows the first three to five (mcda-procurement.md §6.11 item 4).
    """
    by_id = {s.offer.id: s for s in ranked}
    winner = eligible[0]
    out: list[dict[str, Any]] = []
    margin = sensitivity.get("margin", {})
    if margin.get("statistical_tie") and margin.get("runner_up"):
        runner = by_id[margin["runner_up"]]
        out.append({
            "kind": "tie",
            "offer_id": winner.offer.id,
            "runner_up": runner.offer.id,
            "points": margin["points"],
            "figures": {"labels": _labels(winner, runner),
                        "tie_threshold_points": margin["tie_threshold_points"]},
        })
    breaks, behind = _input_break_evens(winner, sensitivity, by_id)
    out.extend(breaks[:MAX_INPUT_BREAK_EVENS])  # the rest stay in price_cut_to_win/gain_to_win

    basis = sensitivity.get("commitment_basis")
    if basis:
        out.append(_cost_basis(winner, basis, by_id))

    out.extend(_weight_changes(eligible, sensitivity, by_id))
    out.extend(unverified_changes(ranked, winner))
    out.extend(_clarifications(winner, sensitivity, by_id))

    check = sensitivity.get("cross_check")
    if check and not check["agrees_with_primary"]:
        first = by_id[check["ranking"][0]]
        out.append({
            "kind": "cross_check",
            "method": check["method"],
            "offer_id": first.offer.id,
            "figures": {"labels": _labels(first)},
        })
    if behind:
        out.append({
            "kind": "no_input_change",
            "offer_ids": behind,
            "target_offer_id": winner.offer.id,
            "max_price_cut_pct": MAX_PRICE_CUT * 100,
            "max_software_efficiency": MAX_SOFTWARE_EFFICIENCY,
            "max_inter_node_gbit_s_per_gpu": MAX_INTER_NODE_GBIT_S_PER_GPU,
            "figures": {"labels": _labels(winner, *(by_id[i] for i in behind)),
                        "max_price_cut": MAX_PRICE_CUT},
        })
    return out


def _cost_basis(
    winner: ScoredOffer, basis: Mapping[str, Any], by_id: Mapping[str, ScoredOffer],
) -> dict[str, Any]:
    """Who ranks first when every offer is charged its full commitment; with the winner's
    commitment against its cheapest way out, and the best of the others on that basis."""
    scores = basis["scores"]
    others = {k: v for k, v in scores.items() if k != winner.offer.id}
    return {"kind": "cost_basis", "basis": "commitment", "new_winner": basis["winner"],
            "scores": scores,
            "figures": {
                "labels": _labels(winner, *(by_id[k] for k in scores)),
                "winner_id": winner.offer.id,
                "winner_commitment_usd": basis["winner_commitment_usd"],
                "winner_minimum_cash_usd": basis["winner_minimum_cash_usd"],
                "best_other_id": max(others, key=lambda k: (others[k], k)) if others else None,
            }}


def _input_break_evens(
    winner: ScoredOffer, sensitivity: Mapping[str, Any], by_id: Mapping[str, ScoredOffer],
) -> tuple[list[dict[str, Any]], list[str]]:
    """Each challenger's price, MFU and bandwidth at a tie, best-ranked first; and the
    challengers none of the three brings level (they stay behind at every ceiling)."""
    gains = {g["offer_id"]: g for g in sensitivity.get("gain_to_win", [])}
    out: list[dict[str, Any]] = []
    behind: list[str] = []
    for cut in sensitivity.get("price_cut_to_win", []):
        s = by_id[cut["offer_id"]]
        gain = gains.get(s.offer.id, {})
        item: dict[str, Any] = {"kind": "input_break_even", "offer_id": s.offer.id,
                                "target_offer_id": winner.offer.id}
        figures: dict[str, Any] = {"labels": _labels(s, winner)}
        if cut["price_cut_pct"] is not None:
            item["price_cut_pct"] = cut["price_cut_pct"]
            figures["price_usd_per_gpu_hour_at_tie"] = cut["price_usd_per_gpu_hour_at_tie"]
        if gain.get("mfu_at_tie") is not None:
            item["software_efficiency_at_tie"] = gain["software_efficiency_at_tie"]
            figures["mfu_at_tie"] = gain["mfu_at_tie"]
            figures["mfu_now"] = gain["mfu_now"]
        if gain.get("inter_node_gbit_s_per_gpu_at_tie") is not None:
            item["inter_node_gbit_s_per_gpu_at_tie"] = gain["inter_node_gbit_s_per_gpu_at_tie"]
            figures["inter_node_gbit_s_per_gpu_now"] = gain["inter_node_gbit_s_per_gpu_now"]
        if not any(k in item for k in INPUT_CHANGES):  # neither brings it level alone
            behind.append(s.offer.id)
            continue
        item["figures"] = figures
        out.append(item)
    return out, behind


def _weight_changes(
    eligible: Sequence[ScoredOffer], sensitivity: Mapping[str, Any],
    by_id: Mapping[str, ScoredOffer],
) -> list[dict[str, Any]]:
    """The two nearest weight break-evens within the rubric's bands; else that none unseats
    the winner, with the nearest one outside them."""
    winner = eligible[0]
    shifts = sensitivity.get("weight_break_evens", [])
    inside = [b for b in shifts if b["within_band"]]
    out = [{
        "kind": "weight",
        "criterion": be["criterion"],
        "weight_at_tie": be["weight_at_tie"],
        "new_winner": be["new_winner"],
        "figures": {"labels": _labels(by_id[be["new_winner"]]), "weight_now": be["weight_now"]},
    } for be in inside[:2]]
    if not inside and len(eligible) > 1:
        item: dict[str, Any] = {"kind": "no_weight_change", "offer_id": winner.offer.id}
        named = [winner]
        if shifts:
            item["nearest"] = shifts[0]
            named.append(by_id[shifts[0]["new_winner"]])
        item["figures"] = {"labels": _labels(*named)}
        out.append(item)
    return out


def _clarifications(
    winner: ScoredOffer, sensitivity: Mapping[str, Any], by_id: Mapping[str, ScoredOffer],
) -> list[dict[str, Any]]:
    """Per offer, the unknowns whose answer could change the winner (in question order)."""
    topics: dict[str, list[Mapping[str, Any]]] = {}
    for q in sensitivity.get("clarification_questions", []):
        if q["could_change_winner"]:
            topics.setdefault(q["offer_id"], []).append(q)
    out = []
    for offer_id, questions in topics.items():
        first = offer_id == winner.offer.id
        out.append({
            "kind": "clarification",
            "offer_id": offer_id,
            "criteria": [q["criterion"] for q in questions],
            "figures": {
                "labels": _labels(by_id[offer_id]),
                "fields": [q["field"] for q in questions],  # one per criterion
                "is_winner": first,
                # a challenger's best score on a good answer, against the winner's
                "score_if_best": None if first else max(q["score_if_best"] for q in questions),
                "winner_score": winner.score,
            },
        })
    return out


def unverified_changes(
    ranked: Sequence[ScoredOffer], winner: ScoredOffer | None
) -> list[dict[str, Any]]:
    """Offers excluded only for want of an answer on a gate, and where a 'yes' puts them."""
    out = []
    for s in ranked:
        unverified = [g for g in s.gates if g.status == "unverified"]
        if not unverified or any(g.status == "fail" for g in s.gates):
            continue
        # Its score stands on what it has stated so far; the answer may move it either way.
        out.append({
            "kind": "unverified_gate",
            "offer_id": s.offer.id,
            "gates": [g.gate for g in unverified],
            "would_rank_first": winner is None or s.score > winner.score,
            "figures": {
                "labels": _labels(s) if winner is None else _labels(s, winner),
                "reasons": [g.why for g in unverified],  # the score stage's gate reasons
                "score": s.score,
                "winner_id": None if winner is None else winner.offer.id,
                "winner_score": None if winner is None else winner.score,
            },
        })
    return out


def _days(s: ScoredOffer) -> float | None:
    """Days until a trained model: the delivery wait plus the run (the run alone if unknown)."""
    extra = s.estimates.model_extra or {}
    days = extra.get("days_to_trained_model")
    return float(days) if days is not None else s.estimates.time_to_train_days


def tradeoff(
    winner: ScoredOffer, eligible: Sequence[ScoredOffer], workload: Workload
) -> dict[str, Any] | None:
    """Cost against time, in dollars: why a dearer offer can rightly win (PRODUCT.md rule 2).

    None when fewer than two eligible offers have both a cost and a time; else `kind`
    "cheapest_and_fastest", "cheapest" (with the fastest offer: days sooner, cost more) or
    "dearer" (with the cheapest offer: cost more, and either days sooner with what they are
    worth at the cost of delay, or the categories the winner leads it on).
    """
    costed = [s for s in eligible if s.estimates.total_cost_usd is not None
              and _days(s) is not None]
    if winner not in costed or len(costed) < 2:
        return None
    cost = winner.estimates.total_cost_usd or 0.0
    days = _days(winner) or 0.0
    delay = workload.cost_of_delay_usd_per_day
    # Half a day and 0.1% of the cost are below what the estimates can tell apart.
    cheaper = [s for s in costed if (s.estimates.total_cost_usd or 0.0) < cost * 0.999]
    faster = [s for s in costed if (_days(s) or 0.0) < days - 0.5]
    if not cheaper and not faster:
        return {"kind": "cheapest_and_fastest"}
    if not cheaper:
        fastest = min(faster, key=lambda s: (_days(s) or 0.0, s.offer.id))
        return {"kind": "cheapest", "offer_id": fastest.offer.id, "labels": _labels(fastest),
                "days_sooner": days - (_days(fastest) or 0.0),
                "extra_cost_usd": (fastest.estimates.total_cost_usd or 0.0) - cost}
    cheapest = min(cheaper, key=lambda s: (s.estimates.total_cost_usd, s.offer.id))
    c_days = _days(cheapest) or 0.0
    out: dict[str, Any] = {
        "kind": "dearer", "offer_id": cheapest.offer.id, "labels": _labels(cheapest),
        "extra_cost_usd": cost - (cheapest.estimates.total_cost_usd or 0.0),
    }
    if days < c_days - 0.5:
        out["days_sooner"] = c_days - days
        if delay:
            out["cost_of_delay_usd_per_day"] = delay
            out["delay_value_usd"] = (c_days - days) * delay
        return out
    # Not faster: the categories it leads the cheapest on, the widest leads first.
    out["ahead_categories"] = sorted(
        (name for name in winner.categories
         if winner.categories[name] > cheapest.categories.get(name, 0.0)),
        key=lambda name: -(winner.categories[name] - cheapest.categories.get(name, 0.0)),
    )[:2]
    return out


def _confidence(p: float | None, tie: bool, pending: bool) -> str:
    """From the SMAA win probability and the margin (mcda-procurement.md §6.10 items 1 and 5,
    §6.11 item 1: "wins in 82% of plausible weightings; margin (not a tie)"): high at >= 80%
    and not a tie, medium at >= 50% and not a tie, else low. An offer excluded only for an
    unanswered gate that would outscore the winner can overturn the decision with one answer
    (§6.6): the choice is not settled yet, so never high."""
    if p is not None and p >= 0.8 and not tie:
        return "medium" if pending else "high"
    if p is not None and p >= 0.5 and not tie:
        return "medium"
    return "low"


def recommend(
    winner: ScoredOffer, runner: ScoredOffer | None, sensitivity: Mapping[str, Any],
    ranked: Sequence[ScoredOffer], eligible: Sequence[ScoredOffer], workload: Workload,
    draws: int,
) -> dict[str, Any]:
    """The recommended offer, how sure we are and the money, with under `figures` every
    further figure its headline, confidence reason and trade-off state."""
    p = sensitivity.get("win_probability", {}).get(winner.offer.id)
    margin = sensitivity.get("margin", {})
    tie = bool(margin.get("statistical_tie"))
    pending = any(c.get("kind") == "unverified_gate" and c.get("would_rank_first")
                  for c in sensitivity.get("what_would_change_detail", []))
    return {
        "offer_id": winner.offer.id,
        "vendor": label(winner),
        "confidence": _confidence(p, tie, pending),
        "win_probability": p,
        "margin_points": margin.get("points"),
        "runner_up_id": runner.offer.id if runner else None,
        "money": {s.offer.id: {k: s.estimates.model_dump().get(k) for k in (
            "total_cost_usd", "minimum_cash_to_sign_usd", "full_commitment_usd",
            "cost_of_delay_usd", "total_economic_cost_usd")}
            for s in (winner, runner) if s is not None},
        "excluded": [s.offer.id for s in ranked if not s.eligible],
        "figures": {
            "labels": _labels(winner) if runner is None else _labels(winner, runner),
            "offer_name": winner.offer.fields.offer_name,
            "cash_basis": {s.offer.id: s.estimates.model_dump().get(
                "minimum_cash_to_sign_basis") for s in (winner, runner) if s is not None},
            "time_to_train_days": winner.estimates.time_to_train_days,
            "days_to_trained_model": _days(winner),
            "draws": draws,
            "statistical_tie": tie,
            "tie_threshold_points": margin.get("tie_threshold_points"),
            "excluded_would_rank_first": pending,
            "tradeoff": tradeoff(winner, eligible, workload),
        },
    }
