"""The decision's sentences are written in report/ from decide's items alone.

decide returns numbers and names (each item's structured change, and under `figures` every
further figure its sentence states); evaltool.report.recommend_words words them. These items
are written by hand, as decide would return them, so each sentence is checked against the
figures it was given and nothing else.
"""

from __future__ import annotations

from typing import Any

import pytest

from evaltool.report.recommend_words import (
    change_sentence,
    confidence_reason,
    headlines,
    recommendation_words,
    tradeoff_sentence,
)

LABELS = {"a": "Alpha Cloud", "b": "Bravo", "c": "Charlie"}
TITLES = {"price": "Price per GPU-hour", "sla": "SLA uptime (monthly)"}


def test_a_tie_names_both_offers_the_margin_and_the_threshold() -> None:
    item = {"kind": "tie", "offer_id": "a", "runner_up": "b", "points": 1.96,
            "figures": {"labels": LABELS, "tie_threshold_points": 2}}
    # 1.96 would round to the 2.0-point threshold: two decimals show which side it is on
    assert change_sentence(item, TITLES) == (
        "Alpha Cloud leads Bravo by only 1.96 points, under the rubric's 2-point tie "
        "threshold: treat them as tied and let negotiation or the answers below decide.")


def test_an_input_break_even_states_each_input_it_was_solved_for() -> None:
    item = {"kind": "input_break_even", "offer_id": "b", "target_offer_id": "a",
            "price_cut_pct": 12.34, "inter_node_gbit_s_per_gpu_at_tie": 320.0,
            "figures": {"labels": LABELS, "price_usd_per_gpu_hour_at_tie": 2.105,
                        "inter_node_gbit_s_per_gpu_now": 200.0}}
    assert change_sentence(item, TITLES) == (
        "Bravo would tie with Alpha Cloud at 12.3% lower prices (to $2.10/GPU-h), or at "
        "320 Gbit/s per GPU between nodes instead of 200.")
    item.pop("price_cut_pct")
    item["software_efficiency_at_tie"] = 0.9
    item["figures"] |= {"mfu_at_tie": 0.52, "mfu_now": 0.41}
    assert change_sentence(item, TITLES) == (
        "Bravo would tie with Alpha Cloud at 52% MFU instead of the 41% we estimate (ask for "
        "a benchmark run), or at 320 Gbit/s per GPU between nodes instead of 200.")


@pytest.mark.parametrize(("now", "then", "verb", "share"), [
    (0.2, 0.35, "rose", "35%"),
    (0.2, 0.05, "fell", "5.0%"),  # under 10%, with its decimal
])
def test_a_weight_break_even_says_which_way_the_weight_moves(
    now: float, then: float, verb: str, share: str,
) -> None:
    item = {"kind": "weight", "criterion": "price", "weight_at_tie": then, "new_winner": "c",
            "figures": {"labels": LABELS, "weight_now": now}}
    assert change_sentence(item, TITLES) == (
        f"Charlie would tie if the weight of 'Price per GPU-hour' {verb} from 20% to "
        f"{share} of the score (other weights scaled in proportion).")


def test_the_commitment_basis_quotes_the_recomputed_scores() -> None:
    item = {"kind": "cost_basis", "basis": "commitment", "new_winner": "a",
            "scores": {"a": 71.24, "b": 64.0, "c": 66.55},
            "figures": {"labels": LABELS, "winner_id": "a", "winner_commitment_usd": 21.08e6,
                        "winner_minimum_cash_usd": 3.47e6, "best_other_id": "c"}}
    assert change_sentence(item, TITLES) == (
        "Alpha Cloud commits $21.1M; the cheapest way out after the run is $3.47M. Charging "
        "every offer its full commitment instead keeps Alpha Cloud first (71.2 against 66.5 "
        "for Charlie).")
    item["new_winner"] = "c"
    assert change_sentence(item, TITLES).endswith(
        "If the full commitments were charged instead, Charlie would rank first (66.5 against "
        "71.2).")


def test_an_unanswered_gate_with_no_eligible_offer_says_a_yes_makes_it_the_only_one() -> None:
    item = {"kind": "unverified_gate", "offer_id": "b", "gates": ["fits"],
            "would_rank_first": True,
            "figures": {"labels": {"b": "Bravo"}, "reasons": ["GPU count not stated"],
                        "score": 61.0, "winner_id": None, "winner_score": None}}
    assert change_sentence(item, TITLES) == (
        "Bravo is excluded until it answers: GPU count not stated. With a yes it would be the "
        "only eligible offer.")


def test_a_clarification_names_the_topics_and_what_an_answer_could_do() -> None:
    item = {"kind": "clarification", "offer_id": "b", "criteria": ["sla", "price"],
            "figures": {"labels": LABELS, "fields": ["sla_uptime_pct", "price_usd_per_gpu_hour"],
                        "is_winner": False, "score_if_best": 70.04, "winner_score": 69.5}}
    assert change_sentence(item, TITLES) == (
        "Bravo has not told us about SLA uptime and price per GPU-hour; a good answer could "
        "put it first (70.0 against 69.5): ask before signing.")


def test_offers_no_input_brings_level_are_named_with_the_ceilings_tried() -> None:
    item = {"kind": "no_input_change", "offer_ids": ["b", "c"], "target_offer_id": "a",
            "max_price_cut_pct": 90.0, "max_software_efficiency": 1.0,
            "max_inter_node_gbit_s_per_gpu": 800.0,
            "figures": {"labels": LABELS, "max_price_cut": 0.9}}
    assert change_sentence(item, TITLES) == (
        "Neither price nor performance alone catches Alpha Cloud: Bravo and Charlie would "
        "stay behind even with 90% lower prices, MFU at the hardware's matmul ceiling, or 800 "
        "Gbit/s per GPU between nodes.")


@pytest.mark.parametrize(("tradeoff", "sentence"), [
    (None, None),
    ({"kind": "cheapest_and_fastest"}, "It is both the cheapest and the fastest eligible offer."),
    ({"kind": "cheapest", "offer_id": "b", "labels": LABELS, "days_sooner": 11.6,
      "extra_cost_usd": 250_000.0},
     "It is the cheapest eligible offer; Bravo would finish 12 days sooner for $250k more."),
    ({"kind": "dearer", "offer_id": "b", "labels": LABELS, "extra_cost_usd": 1.2e6,
      "days_sooner": 30.0, "cost_of_delay_usd_per_day": 40_000.0, "delay_value_usd": 1.2e6},
     "It costs $1.20M more than the cheapest, Bravo, but finishes 30 days sooner, worth $1.20M "
     "at the workload's cost of delay ($40.0k/day)."),
    ({"kind": "dearer", "offer_id": "b", "labels": LABELS, "extra_cost_usd": 1.2e6,
      "ahead_categories": ["contract_terms", "network"]},
     "It costs $1.20M more than the cheapest, Bravo, and is not faster; it wins on "
     "contract-terms and network."),
])
def test_the_tradeoff_is_worded_from_its_differences(
    tradeoff: dict[str, Any] | None, sentence: str | None,
) -> None:
    assert tradeoff_sentence(tradeoff) == sentence


def _recommendation(**figures: Any) -> dict[str, Any]:
    money = {"total_cost_usd": 1.38e6, "minimum_cash_to_sign_usd": None,
             "full_commitment_usd": None, "cost_of_delay_usd": None,
             "total_economic_cost_usd": None}
    return {
        "offer_id": "a", "vendor": "Alpha Cloud", "confidence": "medium",
        "win_probability": 0.66, "margin_points": 4.25, "runner_up_id": None,
        "money": {"a": money}, "excluded": [],
        "figures": {"labels": LABELS, "offer_name": None, "cash_basis": {"a": None},
                    "time_to_train_days": 24.2, "days_to_trained_model": 38.0, "draws": 10_000,
                    "statistical_tie": False, "tie_threshold_points": 2.0,
                    "excluded_would_rank_first": True, "tradeoff": None} | figures,
    }


def test_the_headline_states_the_decision_its_money_and_its_time() -> None:
    rec = _recommendation()
    words = headlines(rec, rec["figures"])
    assert words["headline_lead"] == "Take Alpha Cloud. Money: run $1.38M."
    assert words["headline_time"] == (
        "24 days to train, a trained model in 38 days with the delivery wait.")
    assert words["headline"] == (
        "Take Alpha Cloud. Money: run $1.38M. 24 days to train, a trained model in 38 days "
        "with the delivery wait. It is the only offer that passes the knock-out gates.")
    assert words["headline_runner_up"] == ""


def test_the_confidence_reason_gives_the_win_share_the_lead_and_a_pending_gate() -> None:
    rec = _recommendation()
    assert confidence_reason(rec, rec["figures"]) == (
        "wins in 66% of 10,000 weightings drawn within the rubric's bands; leads by 4.2 "
        "points; an excluded offer would rank first if it answers its gate questions")


def test_the_worded_recommendation_keeps_decides_figures_and_drops_their_working() -> None:
    rec = _recommendation()
    worded = recommendation_words(rec)
    assert list(worded) == [
        "offer_id", "vendor", "headline", "headline_lead", "headline_time",
        "headline_runner_up", "confidence", "confidence_reason", "tradeoff",
        "win_probability", "margin_points", "runner_up_id", "money", "excluded"]
    assert {k: worded[k] for k in rec if k != "figures"} == {
        k: v for k, v in rec.items() if k != "figures"}
