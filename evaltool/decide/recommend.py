"""The recommendation and its sentences: the headline, the trade-off, what would change it.

Every sentence is built from numbers `decide.core` computed (the margin, the win
probability, the input break-evens, the weight break-evens, the commitment basis); nothing
is templated without its figure, and each "what would change the decision" item carries the
structured change a test re-applies to the pipeline.
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
from evaltool.report.fmt import usd
from evaltool.report.recommendation import (
    cost_basis_sentence,
    money_clause,
    runner_up_sentence,
)
from evaltool.score.core import ScoredOffer
from evaltool.score.rubric import Rubric


def _label(s: ScoredOffer | None) -> str:
    if s is None:
        return "—"
    return s.offer.fields.vendor or s.offer.id


def _money(value: float | None) -> str:
    """The memo's money style ($1.50M, $21.1M, $980k): one formatter for every output."""
    return usd(value)


def _pct(value: float) -> str:
    """A share as a percentage, with a decimal only where it is needed."""
    text = f"{value:.0%}"
    return f"{value:.1%}" if text in ("0%", "100%") or value < 0.1 else text


def _points(points: float, threshold: float) -> str:
    """Margin in points; two decimals where one would hide which side of the tie line it is."""
    text = f"{points:.1f}"
    return f"{points:.2f}" if float(text) == round(threshold, 1) else text


# Criteria read from the clause analysis: unknown because no contract terms came with the offer.
_CONTRACT_METRICS = {"weak_commitments_high", "weak_commitments_total", "missing_essentials",
                     "exit_terms", "unilateral_change_count"}


def _topic(field_name: str, title: str) -> str:
    """What an unknown value is about, as a phrase inside a sentence."""
    if field_name in _CONTRACT_METRICS:
        return "its contract terms"
    topic = title.split(" (")[0]
    return topic[:1].lower() + topic[1:] if topic[1:2].islower() else topic


def _names(items: Sequence[str]) -> str:
    if len(items) <= 2:
        return " and ".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def what_would_change(
    eligible: Sequence[ScoredOffer], sensitivity: Mapping[str, Any], rubric: Rubric,
    ranked: Sequence[ScoredOffer],
) -> list[dict[str, Any]]:
    """Structured changes, most decision-relevant first, each with its sentence in `text`.

    Every item is true when applied to the pipeline (tests/test_decide.py re-applies them).
    The memo shows the first three to five (mcda-procurement.md §6.11 item 4).
    """
    by_id = {s.offer.id: s for s in ranked}
    winner = eligible[0]
    titles = {c.id: c.title for c in rubric.criteria}
    out: list[dict[str, Any]] = []
    margin = sensitivity.get("margin", {})
    if margin.get("statistical_tie") and margin.get("runner_up"):
        runner = by_id[margin["runner_up"]]
        out.append({
            "kind": "tie",
            "offer_id": winner.offer.id,
            "runner_up": runner.offer.id,
            "points": margin["points"],
            "text": (
                f"{_label(winner)} leads {_label(runner)} by only "
                f"{_points(margin['points'], margin['tie_threshold_points'])} points, "
                f"under the rubric's {margin['tie_threshold_points']:g}-point tie threshold: "
                "treat them as tied and let negotiation or the answers below decide."
            ),
        })

    gains = {g["offer_id"]: g for g in sensitivity.get("gain_to_win", [])}
    behind: list[str] = []
    for cut in sensitivity.get("price_cut_to_win", []):
        s = by_id[cut["offer_id"]]
        gain = gains.get(s.offer.id, {})
        parts = []
        item: dict[str, Any] = {"kind": "input_break_even", "offer_id": s.offer.id,
                                "target_offer_id": winner.offer.id}
        if cut["price_cut_pct"] is not None:
            at = cut["price_usd_per_gpu_hour_at_tie"]
            price = f" (to ${at:,.2f}/GPU-h)" if at is not None else ""
            parts.append(f"{cut['price_cut_pct']:.1f}% lower prices{price}")
            item["price_cut_pct"] = cut["price_cut_pct"]
        if gain.get("mfu_at_tie") is not None:
            parts.append(
                f"{gain['mfu_at_tie']:.0%} MFU instead of the {gain['mfu_now']:.0%} we estimate "
                "(ask for a benchmark run)"
            )
            item["software_efficiency_at_tie"] = gain["software_efficiency_at_tie"]
        if gain.get("inter_node_gbit_s_per_gpu_at_tie") is not None:
            parts.append(
                f"{gain['inter_node_gbit_s_per_gpu_at_tie']:,.0f} Gbit/s per GPU between nodes "
                f"instead of {gain['inter_node_gbit_s_per_gpu_now']:,.0f}"
            )
            item["inter_node_gbit_s_per_gpu_at_tie"] = gain["inter_node_gbit_s_per_gpu_at_tie"]
        if not parts:
            behind.append(s.offer.id)
            continue
        item["text"] = (f"{_label(s)} would tie with {_label(winner)} at "
                        + ", or at ".join(parts) + ".")
        out.append(item)
    shown = sum(1 for c in out if c["kind"] == "input_break_even")
    if shown > 3:  # the best-ranked three carry the message; the rest stay in the data
        keep = [c for c in out if c["kind"] == "input_break_even"][:3]
        out = [c for c in out if c["kind"] != "input_break_even" or c in keep]

    basis = sensitivity.get("commitment_basis")
    if basis:
        offer_labels = {k: _label(by_id[k]) for k in basis["scores"]}
        out.append({"kind": "cost_basis", "basis": "commitment", "new_winner": basis["winner"],
                    "scores": basis["scores"],
                    "text": cost_basis_sentence(_label(winner), basis, offer_labels)})

    shifts = sensitivity.get("weight_break_evens", [])
    inside = [b for b in shifts if b["within_band"]]
    for be in inside[:2]:
        out.append(_weight_item(be, by_id, titles))
    if not inside and len(eligible) > 1:
        item = {"kind": "no_weight_change", "offer_id": winner.offer.id}
        text = (
            f"No single weight moved within the rubric's declared bands unseats {_label(winner)}"
        )
        if shifts:
            be = shifts[0]
            item["nearest"] = be
            text += (
                f"; the nearest: {_label(by_id[be['new_winner']])} would tie only if "
                f"'{titles.get(be['criterion'], be['criterion'])}' weighed "
                f"{_pct(be['weight_at_tie'])} of the score instead of {_pct(be['weight_now'])}"
            )
        item["text"] = text + "."
        out.append(item)

    out.extend(unverified_changes(ranked, winner))
    topics: dict[str, list[Mapping[str, Any]]] = {}
    for q in sensitivity.get("clarification_questions", []):
        if q["could_change_winner"]:
            topics.setdefault(q["offer_id"], []).append(q)
    for offer_id, questions in topics.items():
        s = by_id[offer_id]
        about = _names(list(dict.fromkeys(_topic(q["field"], titles[q["criterion"]])
                                          for q in questions))[:3])
        if offer_id == winner.offer.id:
            consequence = "a poor answer could cost it first place"
        else:
            best = max(q["score_if_best"] for q in questions)
            consequence = (f"a good answer could put it first ({best:.1f} against "
                           f"{winner.score:.1f})")
        out.append({
            "kind": "clarification",
            "offer_id": offer_id,
            "criteria": [q["criterion"] for q in questions],
            "text": (f"{_label(s)} has not told us about {about}; {consequence}: "
                     "ask before signing."),
        })

    check = sensitivity.get("cross_check")
    if check and not check["agrees_with_primary"]:
        first = by_id[check["ranking"][0]]
        out.append({
            "kind": "cross_check",
            "method": check["method"],
            "offer_id": first.offer.id,
            "text": (
                f"{check['method'].upper()}, a cross-check that compares offers with each other "
                f"rather than against the rubric's fixed scales, puts {_label(first)} first: "
                "read the lead as method-dependent."
            ),
        })
    if behind:
        labels = [_label(by_id[i]) for i in behind]
        out.append({
            "kind": "no_input_change",
            "offer_ids": behind,
            "target_offer_id": winner.offer.id,
            "max_price_cut_pct": MAX_PRICE_CUT * 100,
            "max_software_efficiency": MAX_SOFTWARE_EFFICIENCY,
            "max_inter_node_gbit_s_per_gpu": MAX_INTER_NODE_GBIT_S_PER_GPU,
            "text": (
                f"Neither price nor performance alone catches {_label(winner)}: "
                f"{_names(labels)} would stay behind even with {MAX_PRICE_CUT:.0%} lower prices, "
                "MFU at the hardware's matmul ceiling, or "
                f"{MAX_INTER_NODE_GBIT_S_PER_GPU:,.0f} Gbit/s per GPU between nodes."
            ),
        })
    return out


def _weight_item(
    be: Mapping[str, Any], by_id: Mapping[str, ScoredOffer], titles: Mapping[str, str]
) -> dict[str, Any]:
    direction = "rose" if be["weight_at_tie"] > be["weight_now"] else "fell"
    return {
        "kind": "weight",
        "criterion": be["criterion"],
        "weight_at_tie": be["weight_at_tie"],
        "new_winner": be["new_winner"],
        "text": (
            f"{_label(by_id[be['new_winner']])} would tie if the weight of "
            f"'{titles.get(be['criterion'], be['criterion'])}' {direction} from "
            f"{_pct(be['weight_now'])} to {_pct(be['weight_at_tie'])} of the score "
            "(other weights scaled in proportion)."
        ),
    }


def unverified_changes(
    ranked: Sequence[ScoredOffer], winner: ScoredOffer | None
) -> list[dict[str, Any]]:
    """Offers excluded only for want of an answer on a gate, and where a 'yes' puts them."""
    out = []
    for s in ranked:
        unverified = [g for g in s.gates if g.status == "unverified"]
        if not unverified or any(g.status == "fail" for g in s.gates):
            continue
        first = winner is None or s.score > winner.score
        # Its score stands on what it has stated so far; the answer may move it either way.
        if winner is None:
            consequence = " With a yes it would be the only eligible offer."
        elif first:
            consequence = (f" On what it has stated it would rank first ({s.score:.1f} against "
                           f"{winner.score:.1f} for {_label(winner)}).")
        else:
            consequence = (f" On what it has stated so far it scores {s.score:.1f} against "
                           f"{winner.score:.1f} for {_label(winner)}.")
        out.append({
            "kind": "unverified_gate",
            "offer_id": s.offer.id,
            "gates": [g.gate for g in unverified],
            "would_rank_first": first,
            "text": (
                f"{_label(s)} is excluded until it answers: "
                + "; ".join(g.why for g in unverified) + "." + consequence
            ),
        })
    return out


def _days(s: ScoredOffer) -> float | None:
    """Days until a trained model: the delivery wait plus the run (the run alone if unknown)."""
    extra = s.estimates.model_extra or {}
    days = extra.get("days_to_trained_model")
    return float(days) if days is not None else s.estimates.time_to_train_days


def _tradeoff(
    winner: ScoredOffer, eligible: Sequence[ScoredOffer], workload: Workload
) -> str | None:
    """Cost against time, in dollars: why a dearer offer can rightly win (PRODUCT.md rule 2)."""
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
        return "It is both the cheapest and the fastest eligible offer."
    if not cheaper:
        fastest = min(faster, key=lambda s: (_days(s) or 0.0, s.offer.id))
        f_cost = fastest.estimates.total_cost_usd or 0.0
        f_days = _days(fastest) or 0.0
        return (f"It is the cheapest eligible offer; {_label(fastest)} would finish "
                f"{days - f_days:.0f} days sooner for {_money(f_cost - cost)} more.")
    cheapest = min(cheaper, key=lambda s: (s.estimates.total_cost_usd, s.offer.id))
    c_cost = cheapest.estimates.total_cost_usd or 0.0
    c_days = _days(cheapest) or 0.0
    text = f"It costs {_money(cost - c_cost)} more than the cheapest, {_label(cheapest)}"
    if days < c_days - 0.5:
        text += f", but finishes {c_days - days:.0f} days sooner"
        if delay:
            text += (f", worth {_money((c_days - days) * delay)} at the workload's cost of "
                     f"delay ({_money(delay)}/day)")
        return text + "."
    ahead = sorted(
        (name for name in winner.categories
         if winner.categories[name] > cheapest.categories.get(name, 0.0)),
        key=lambda name: -(winner.categories[name] - cheapest.categories.get(name, 0.0)),
    )[:2]
    if not ahead:
        return text + "."
    return text + f", and is not faster; it wins on {_names([a.replace('_', '-') for a in ahead])}."


def recommend(
    winner: ScoredOffer, runner: ScoredOffer | None, sensitivity: Mapping[str, Any],
    ranked: Sequence[ScoredOffer], eligible: Sequence[ScoredOffer], workload: Workload,
    draws: int,
) -> dict[str, Any]:
    p = sensitivity.get("win_probability", {}).get(winner.offer.id)
    margin = sensitivity.get("margin", {})
    points = margin.get("points")
    tie = bool(margin.get("statistical_tie"))
    threshold = float(margin.get("tie_threshold_points") or 0.0)
    # Confidence from the SMAA win probability and the margin (mcda-procurement.md §6.10
    # items 1 and 5, §6.11 item 1: "wins in 82% of plausible weightings; margin (not a
    # tie)"): high at >= 80% and not a tie, medium at >= 50% and not a tie, else low.
    if p is not None and p >= 0.8 and not tie:
        confidence = "high"
    elif p is not None and p >= 0.5 and not tie:
        confidence = "medium"
    else:
        confidence = "low"
    reasons = []
    if p is not None:
        reasons.append(f"wins in {p:.0%} of {draws:,} weightings drawn within the rubric's bands")
    if tie:
        reasons.append(f"the margin is under the {margin.get('tie_threshold_points'):g}-point "
                       "tie threshold")
    elif points is not None:
        reasons.append(f"leads by {_points(points, threshold)} points")
    # An offer excluded only for an unanswered gate that would outscore the winner can
    # overturn the decision with one answer (§6.6): the choice is not settled yet.
    pending = [c for c in sensitivity.get("what_would_change_detail", [])
               if c.get("kind") == "unverified_gate" and c.get("would_rank_first")]
    if pending and confidence == "high":
        confidence = "medium"
    if pending:
        reasons.append("an excluded offer would rank first if it answers its gate questions")
    est = winner.estimates
    parts = [f"Take {_label(winner)}"]
    if winner.offer.fields.offer_name:
        parts.append(f" ({winner.offer.fields.offer_name})")
    headline = "".join(parts) + ". " + money_clause(
        "Money", winner.estimates.model_dump()) + "."
    lead = headline
    days = _days(winner)
    time_sentence = ""
    if est.time_to_train_days is not None:
        time_sentence = f"{est.time_to_train_days:.0f} days to train"
        if days is not None and days > est.time_to_train_days:
            time_sentence += f", a trained model in {days:.0f} days with the delivery wait"
        time_sentence += "."
        headline += " " + time_sentence
    if runner is not None and points is not None:
        if tie:
            headline += (f" It is tied with {_label(runner)} "
                         f"({_points(points, threshold)} points apart)")
        else:
            headline += f" It leads {_label(runner)} by {_points(points, threshold)} points"
        if p is not None:
            headline += f" and wins in {p:.0%} of plausible weightings"
        headline += "."
    runner_money = ""
    if runner is not None:
        runner_money = runner_up_sentence(_label(runner), runner.estimates.model_dump())
        headline += " " + runner_money
    if runner is None:
        headline += " It is the only offer that passes the knock-out gates."
    return {
        "offer_id": winner.offer.id,
        "vendor": _label(winner),
        "headline": headline,
        "headline_lead": lead,  # the decision and its money; the rest of the headline follows
        "headline_time": time_sentence,
        "headline_runner_up": runner_money,  # the runner-up's money, one sentence
        "confidence": confidence,
        "confidence_reason": "; ".join(reasons),
        "tradeoff": _tradeoff(winner, eligible, workload),
        "win_probability": p,
        "margin_points": points,
        "runner_up_id": runner.offer.id if runner else None,
        "money": {s.offer.id: {k: s.estimates.model_dump().get(k) for k in (
            "total_cost_usd", "minimum_cash_to_sign_usd", "full_commitment_usd",
            "cost_of_delay_usd", "total_economic_cost_usd")}
            for s in (winner, runner) if s is not None},
        "excluded": [s.offer.id for s in ranked if not s.eligible],
    }
