"""The recommendation's sentences: the headline, the confidence reason, the trade-off, and
each "what would change the decision" item's `text`.

evaltool.decide.recommend returns numbers and names: each item's kind, its structured change
and, under `figures`, every further figure and name its sentence states. This module words
them and nothing else: no figure is computed here, only formatted.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from evaltool.report.fmt import usd
from evaltool.report.recommendation import money_clause, runner_up_sentence

Item = Mapping[str, Any]


def _pct(value: float) -> str:
    """A share as a percentage, with a decimal only where it is needed."""
    text = f"{value:.0%}"
    return f"{value:.1%}" if text in ("0%", "100%") or value < 0.1 else text


def _points(points: float, threshold: float) -> str:
    """Margin in points; two decimals where one would hide which side of the tie line it is."""
    text = f"{points:.1f}"
    return f"{points:.2f}" if float(text) == round(threshold, 1) else text


def _names(items: Sequence[str]) -> str:
    if len(items) <= 2:
        return " and ".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


# Criteria read from the clause analysis: unknown because no contract terms came with the offer.
_CONTRACT_METRICS = {"weak_commitments_high", "weak_commitments_total", "missing_essentials",
                     "exit_terms", "unilateral_change_count"}


def _topic(field_name: str, title: str) -> str:
    """What an unknown value is about, as a phrase inside a sentence."""
    if field_name in _CONTRACT_METRICS:
        return "its contract terms"
    topic = title.split(" (")[0]
    return topic[:1].lower() + topic[1:] if topic[1:2].islower() else topic


# ----------------------------------------------------------------- what would change


def _tie(item: Item, f: Item, titles: Mapping[str, str]) -> str:
    names, threshold = f["labels"], f["tie_threshold_points"]
    return (
        f"{names[item['offer_id']]} leads {names[item['runner_up']]} by only "
        f"{_points(item['points'], threshold)} points, "
        f"under the rubric's {threshold:g}-point tie threshold: "
        "treat them as tied and let negotiation or the answers below decide."
    )


def _input_break_even(item: Item, f: Item, titles: Mapping[str, str]) -> str:
    parts = []
    if "price_cut_pct" in item:
        at = f["price_usd_per_gpu_hour_at_tie"]
        price = f" (to ${at:,.2f}/GPU-h)" if at is not None else ""
        parts.append(f"{item['price_cut_pct']:.1f}% lower prices{price}")
    if "software_efficiency_at_tie" in item:
        parts.append(f"{f['mfu_at_tie']:.0%} MFU instead of the {f['mfu_now']:.0%} we "
                     "estimate (ask for a benchmark run)")
    if "inter_node_gbit_s_per_gpu_at_tie" in item:
        parts.append(f"{item['inter_node_gbit_s_per_gpu_at_tie']:,.0f} Gbit/s per GPU between "
                     f"nodes instead of {f['inter_node_gbit_s_per_gpu_now']:,.0f}")
    names = f["labels"]
    return (f"{names[item['offer_id']]} would tie with {names[item['target_offer_id']]} at "
            + ", or at ".join(parts) + ".")


def _cost_basis(item: Item, f: Item, titles: Mapping[str, str]) -> str:
    """What charging every offer its full commitment does to the ranking."""
    names, scores = f["labels"], item["scores"]
    winner, new, second = f["winner_id"], item["new_winner"], f["best_other_id"]
    terms = (f"{names[winner]} commits {usd(f['winner_commitment_usd'])}; the cheapest way "
             f"out after the run is {usd(f['winner_minimum_cash_usd'])}")
    if new != winner:
        return (f"{terms}. If the full commitments were charged instead, {names[new]} would "
                f"rank first ({scores[new]:.1f} against {scores[winner]:.1f}).")
    lead = ("" if second is None else
            f" ({scores[winner]:.1f} against {scores[second]:.1f} for {names[second]})")
    return (f"{terms}. Charging every offer its full commitment instead keeps {names[winner]} "
            f"first{lead}.")


def _weight(item: Item, f: Item, titles: Mapping[str, str]) -> str:
    now, then = f["weight_now"], item["weight_at_tie"]
    return (
        f"{f['labels'][item['new_winner']]} would tie if the weight of "
        f"'{titles.get(item['criterion'], item['criterion'])}' "
        f"{'rose' if then > now else 'fell'} from {_pct(now)} to {_pct(then)} of the score "
        "(other weights scaled in proportion)."
    )


def _no_weight_change(item: Item, f: Item, titles: Mapping[str, str]) -> str:
    names = f["labels"]
    text = ("No single weight moved within the rubric's declared bands unseats "
            f"{names[item['offer_id']]}")
    be = item.get("nearest")
    if be:
        text += (
            f"; the nearest: {names[be['new_winner']]} would tie only if "
            f"'{titles.get(be['criterion'], be['criterion'])}' weighed "
            f"{_pct(be['weight_at_tie'])} of the score instead of {_pct(be['weight_now'])}"
        )
    return text + "."


def _unverified_gate(item: Item, f: Item, titles: Mapping[str, str]) -> str:
    names, winner = f["labels"], f["winner_id"]
    if winner is None:
        consequence = " With a yes it would be the only eligible offer."
    elif item["would_rank_first"]:
        consequence = (f" On what it has stated it would rank first ({f['score']:.1f} against "
                       f"{f['winner_score']:.1f} for {names[winner]}).")
    else:
        consequence = (f" On what it has stated so far it scores {f['score']:.1f} against "
                       f"{f['winner_score']:.1f} for {names[winner]}.")
    return (f"{names[item['offer_id']]} is excluded until it answers: "
            + "; ".join(f["reasons"]) + "." + consequence)


def _clarification(item: Item, f: Item, titles: Mapping[str, str]) -> str:
    about = _names(list(dict.fromkeys(
        _topic(field, titles[criterion])
        for field, criterion in zip(f["fields"], item["criteria"], strict=True)))[:3])
    if f["is_winner"]:
        consequence = "a poor answer could cost it first place"
    else:
        consequence = (f"a good answer could put it first ({f['score_if_best']:.1f} against "
                       f"{f['winner_score']:.1f})")
    return (f"{f['labels'][item['offer_id']]} has not told us about {about}; {consequence}: "
            "ask before signing.")


def _cross_check(item: Item, f: Item, titles: Mapping[str, str]) -> str:
    return (
        f"{item['method'].upper()}, a cross-check that compares offers with each other "
        f"rather than against the rubric's fixed scales, puts {f['labels'][item['offer_id']]} "
        "first: read the lead as method-dependent."
    )


def _no_input_change(item: Item, f: Item, titles: Mapping[str, str]) -> str:
    names = f["labels"]
    behind = _names([names[i] for i in item["offer_ids"]])
    return (
        f"Neither price nor performance alone catches {names[item['target_offer_id']]}: "
        f"{behind} would stay behind even with {f['max_price_cut']:.0%} lower prices, "
        "MFU at the hardware's matmul ceiling, or "
        f"{item['max_inter_node_gbit_s_per_gpu']:,.0f} Gbit/s per GPU between nodes."
    )


CHANGE_WORDS: dict[str, Callable[[Item, Item, Mapping[str, str]], str]] = {
    "tie": _tie,
    "input_break_even": _input_break_even,
    "cost_basis": _cost_basis,
    "weight": _weight,
    "no_weight_change": _no_weight_change,
    "unverified_gate": _unverified_gate,
    "clarification": _clarification,
    "cross_check": _cross_check,
    "no_input_change": _no_input_change,
}


def change_sentence(item: Item, titles: Mapping[str, str]) -> str:
    """One "what would change the decision" item in a sentence; `titles` are the rubric's
    criterion titles by id."""
    return CHANGE_WORDS[str(item["kind"])](item, item.get("figures") or {}, titles)


# ----------------------------------------------------------------- the recommendation


def confidence_reason(rec: Item, f: Item) -> str:
    """Why the confidence is what it is: the win probability, the margin, a pending gate."""
    p, points = rec.get("win_probability"), rec.get("margin_points")
    reasons = []
    if p is not None:
        reasons.append(f"wins in {p:.0%} of {f['draws']:,} weightings drawn within the "
                       "rubric's bands")
    if f["statistical_tie"]:
        reasons.append(f"the margin is under the {f['tie_threshold_points']:g}-point "
                       "tie threshold")
    elif points is not None:
        reasons.append(f"leads by {_points(points, float(f['tie_threshold_points'] or 0.0))} "
                       "points")
    if f["excluded_would_rank_first"]:
        reasons.append("an excluded offer would rank first if it answers its gate questions")
    return "; ".join(reasons)


def tradeoff_sentence(t: Item | None) -> str | None:
    """Cost against time, in dollars: why a dearer offer can rightly win."""
    if t is None:
        return None
    if t["kind"] == "cheapest_and_fastest":
        return "It is both the cheapest and the fastest eligible offer."
    other = t["labels"][t["offer_id"]]
    if t["kind"] == "cheapest":
        return (f"It is the cheapest eligible offer; {other} would finish "
                f"{t['days_sooner']:.0f} days sooner for {usd(t['extra_cost_usd'])} more.")
    text = f"It costs {usd(t['extra_cost_usd'])} more than the cheapest, {other}"
    if "days_sooner" in t:
        text += f", but finishes {t['days_sooner']:.0f} days sooner"
        if "delay_value_usd" in t:
            text += (f", worth {usd(t['delay_value_usd'])} at the workload's cost of "
                     f"delay ({usd(t['cost_of_delay_usd_per_day'])}/day)")
        return text + "."
    ahead = t["ahead_categories"]
    if not ahead:
        return text + "."
    return text + f", and is not faster; it wins on {_names([a.replace('_', '-') for a in ahead])}."


def _money_of(rec: Item, f: Item, offer_id: str) -> dict[str, Any]:
    """An offer's money as decide stated it, with the basis of its minimum cash to sign."""
    return {**rec["money"][offer_id], "minimum_cash_to_sign_basis": f["cash_basis"][offer_id]}


def headlines(rec: Item, f: Item) -> dict[str, str]:
    """The headline and its parts: `headline_lead` (the decision and its money),
    `headline_time`, `headline_runner_up` (the runner-up's money, one sentence)."""
    names, winner, runner = f["labels"], rec["offer_id"], rec.get("runner_up_id")
    p, points = rec.get("win_probability"), rec.get("margin_points")
    threshold = float(f["tie_threshold_points"] or 0.0)
    parts = [f"Take {names[winner]}"]
    if f["offer_name"]:
        parts.append(f" ({f['offer_name']})")
    headline = "".join(parts) + ". " + money_clause("Money", _money_of(rec, f, winner)) + "."
    lead = headline
    days, train = f["days_to_trained_model"], f["time_to_train_days"]
    time_sentence = ""
    if train is not None:
        time_sentence = f"{train:.0f} days to train"
        if days is not None and days > train:
            time_sentence += f", a trained model in {days:.0f} days with the delivery wait"
        time_sentence += "."
        headline += " " + time_sentence
    runner_money = ""
    if runner is not None:
        if points is not None:
            if f["statistical_tie"]:
                headline += (f" It is tied with {names[runner]} "
                             f"({_points(points, threshold)} points apart)")
            else:
                headline += f" It leads {names[runner]} by {_points(points, threshold)} points"
            if p is not None:
                headline += f" and wins in {p:.0%} of plausible weightings"
            headline += "."
        runner_money = runner_up_sentence(names[runner], _money_of(rec, f, runner))
        headline += " " + runner_money
    else:
        headline += " It is the only offer that passes the knock-out gates."
    return {"headline": headline, "headline_lead": lead, "headline_time": time_sentence,
            "headline_runner_up": runner_money}


def recommendation_words(rec: Item) -> dict[str, Any]:
    """The recommendation as the report states it: decide's figures and names, with the
    headline, the confidence reason and the trade-off written in their place."""
    f = rec["figures"]
    rest = {k: v for k, v in rec.items() if k != "figures"}
    return {
        "offer_id": rest.pop("offer_id"),
        "vendor": rest.pop("vendor"),
        **headlines(rec, f),
        "confidence": rest.pop("confidence"),
        "confidence_reason": confidence_reason(rec, f),
        "tradeoff": tradeoff_sentence(f["tradeoff"]),
        **rest,
    }
