"""Scoring: gates, value functions, missing-data policy and ranking on absolute scales."""

from __future__ import annotations

from typing import Any

import builders
import pytest

from evaltool.models import Estimates, Offer, Workload
from evaltool.report.score_words import criteria_with_words
from evaltool.score.core import aggregate, contract_features, rank, score_offer
from evaltool.score.rubric import load_rubric

WORKLOAD = Workload(name="70b", params_b=70, tokens_b=2000, deadline_days=120,
                    cost_of_delay_usd_per_day=40_000, storage_needed_tb=400)


def make_offer(offer_id: str, **fields: Any) -> Offer:
    fields.setdefault("contract_text", "Provider shall deliver the cluster by 2027-02-01.")
    return builders.make_offer(offer_id, suffix=".xlsx", **fields)


def make_estimates(**values: Any) -> Estimates:
    base: dict[str, Any] = dict(
        mfu=0.42, time_to_train_days=60.0, total_cost_usd=3.5e6, total_economic_cost_usd=5.9e6,
        fits=True, deadline_met=True, mfu_breakdown={"network_loss": 0.03},
        checkpoint={"overhead": 0.01}, storage_needed_tb=400, storage_usable_tb=1600,
        cost_breakdown_usd={"compute": 3.4e6, "storage": 0.1e6},
    )
    base.update(values)
    return Estimates(**base)


RUBRIC = load_rubric("llm-pretraining")


def test_score_is_0_to_100_and_categories_cover_the_six() -> None:
    scored = score_offer(make_offer("nimbus"), make_estimates(), RUBRIC, WORKLOAD)
    assert 0 <= scored.score <= 100
    assert {"compute", "network", "storage", "lock_in", "contract", "cost"} <= set(
        scored.categories
    )
    assert sum(c.contribution for c in scored.criteria) == pytest.approx(scored.score)


def test_an_offer_that_cannot_hold_the_model_fails_the_fit_gate() -> None:
    scored = score_offer(make_offer("tiny"), make_estimates(fits=False), RUBRIC, WORKLOAD)
    gate = next(g for g in scored.gates if g.gate == "fits_workload")
    assert gate.status == "fail"
    assert not scored.eligible


def test_missing_fit_evidence_is_unverified_not_failed() -> None:
    scored = score_offer(make_offer("vague"), make_estimates(fits=None), RUBRIC, WORKLOAD)
    gate = next(g for g in scored.gates if g.gate == "fits_workload")
    assert gate.status == "unverified"


def test_missing_value_scores_worst_and_is_listed() -> None:
    full = score_offer(make_offer("a"), make_estimates(), RUBRIC, WORKLOAD)
    vague = score_offer(make_offer("b", hw_replacement_hours=None), make_estimates(), RUBRIC,
                        WORKLOAD)
    assert "hw_replacement_hours" in vague.missing
    assert vague.score < full.score


def test_a_rental_uptime_promise_is_asked_of_a_rental_not_of_a_purchase() -> None:
    # Bought hardware is run by its owner: no vendor uptime SLA is not a missing promise.
    quiet = {"sla_uptime_pct": None, "sla_max_credit_pct": None}
    rental = score_offer(make_offer("r", **quiet), make_estimates(), RUBRIC, WORKLOAD)
    bought = score_offer(make_offer("p", offer_kind="purchase", capex_usd=1e7,
                                    amortization_months=48, **quiet),
                         make_estimates(), RUBRIC, WORKLOAD)
    assert {"sla_uptime_pct", "sla_max_credit_pct"} <= set(rental.missing)
    assert not {"sla_uptime_pct", "sla_max_credit_pct"} & set(bought.missing)
    sla = {c.criterion: c for c in bought.criteria if c.criterion.startswith("sla_")}
    assert all(c.value is None and c.treatment == "not_applicable" for c in sla.values())
    noted = criteria_with_words(list(sla.values()))
    assert all(c.note and c.note.startswith("does not apply to a purchase") for c in noted)
    assert bought.categories["contract"] > rental.categories["contract"]


def test_neutral_missing_shares_weight_with_siblings() -> None:
    values = {c.id: 1.0 for c in RUBRIC.criteria}
    values["honest_peak_claim"] = None  # neutral policy
    total, _, categories = aggregate(RUBRIC, values)
    assert categories["compute"] == pytest.approx(100.0)
    assert total == pytest.approx(100.0)


def test_shared_slow_network_scores_below_dedicated_infiniband() -> None:
    fast = score_offer(make_offer("ib"), make_estimates(), RUBRIC, WORKLOAD)
    slow = score_offer(
        make_offer("eth", inter_node_fabric="ethernet", inter_node_gbit_s_per_gpu=25,
                   network_dedicated=False),
        make_estimates(mfu_breakdown={"network_loss": 0.25}), RUBRIC, WORKLOAD,
    )
    assert slow.categories["network"] < fast.categories["network"] - 50


def test_cost_of_delay_lets_a_faster_dearer_offer_win_the_cost_category() -> None:
    # On-demand capacity: the money charged is the run; time is charged at $40k a day.
    cheap_slow = score_offer(
        make_offer("slow", term_months=None),
        make_estimates(total_cost_usd=3.0e6, time_to_train_days=110,
                       cost_of_delay_usd=110 * 40_000),
        RUBRIC, WORKLOAD)
    dear_fast = score_offer(
        make_offer("fast", term_months=None),
        make_estimates(total_cost_usd=3.6e6, time_to_train_days=40,
                       cost_of_delay_usd=40 * 40_000),
        RUBRIC, WORKLOAD)
    assert dear_fast.categories["cost"] > cheap_slow.categories["cost"]


def test_ranking_puts_eligible_first_then_score_then_id() -> None:
    good = score_offer(make_offer("b-good"), make_estimates(), RUBRIC, WORKLOAD)
    same = score_offer(make_offer("a-same"), make_estimates(), RUBRIC, WORKLOAD)
    out = score_offer(make_offer("c-out"), make_estimates(fits=False), RUBRIC, WORKLOAD)
    ranked = rank([out, good, same])
    assert [s.offer.id for s in ranked] == ["a-same", "b-good", "c-out"]


def test_weak_contract_findings_lower_the_contract_category() -> None:
    weak = [{"kind": "weak_commitment", "severity": "high", "quote": "reasonable efforts"}] * 2
    firm = score_offer(make_offer("firm"), make_estimates(), RUBRIC, WORKLOAD, findings=[])
    soft = score_offer(make_offer("soft"), make_estimates(), RUBRIC, WORKLOAD, findings=weak)
    assert soft.categories["contract"] < firm.categories["contract"]


# ----------------------------------------------------------------------------- money scale
# Issue #11: money is scored on a scale anchored on the workload that never saturates, and
# one offer's score never depends on the other bids.

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from evaltool.estimate.money import anchor_cost_usd  # noqa: E402


def _scored_at(cost_usd: float, offer_id: str = "x") -> float:
    """Score of an on-demand offer whose run (and so its minimum cash) costs `cost_usd`."""
    estimates = make_estimates(total_cost_usd=cost_usd, cost_of_delay_usd=0.0,
                               cost_breakdown_usd={"compute": cost_usd})
    offer = make_offer(offer_id, term_months=None, min_commit_usd=None, upfront_usd=None)
    return score_offer(offer, estimates, RUBRIC, WORKLOAD).score


ANCHOR = anchor_cost_usd(WORKLOAD) or 1.0


@settings(max_examples=60, deadline=None)
@given(st.floats(min_value=-2.0, max_value=2.0), st.floats(min_value=1.0001, max_value=3.0))
def test_a_strictly_dearer_offer_scores_strictly_lower_over_four_orders_of_magnitude(
    log10_ratio: float, worse_by: float,
) -> None:
    cost = ANCHOR * 10 ** log10_ratio  # 1/100 to 100 times the workload's anchor
    assert _scored_at(cost * worse_by) < _scored_at(cost)


def test_money_scale_is_anchored_on_the_workload_not_on_the_bids() -> None:
    # The anchor is the workload's FLOPs at the best public price: about $1M for 70B x 2T.
    assert 3e5 < ANCHOR < 3e6
    half, double = _scored_at(ANCHOR * 2), _scored_at(ANCHOR * 4)
    assert half - double > 1.0  # a doubling of the money a CFO signs moves the score visibly


@settings(max_examples=25, deadline=None)
@given(st.lists(st.floats(min_value=0.3, max_value=30.0), min_size=3, max_size=3))
def test_adding_or_removing_a_third_offer_never_swaps_two_others(ratios: list[float]) -> None:
    scored = [score_offer(make_offer(f"o{i}", term_months=None),
                          make_estimates(total_cost_usd=ANCHOR * r, cost_of_delay_usd=0.0),
                          RUBRIC, WORKLOAD) for i, r in enumerate(ratios)]
    pair = [s.offer.id for s in rank(scored[:2])]
    with_third = [s.offer.id for s in rank(scored) if s.offer.id in ("o0", "o1")]
    assert pair == with_third


def test_exit_terms_are_read_from_the_findings_codes_not_their_sentences() -> None:
    def lock_in(reason: str, why: str, topic: str | None = None) -> dict[str, Any]:
        return {"kind": "lock_in", "topic": topic, "why": why, "figures": {"reason": reason}}

    assert contract_features([lock_in("egress", "")])["exit_terms"] == "proprietary"
    assert contract_features([lock_in("vendor_format", "reworded")])["exit_terms"] == "proprietary"
    # A sentence that mentions data decides nothing: what the finding found does.
    assert contract_features([lock_in("exclusivity", "data data format exit")])[
        "exit_terms"] == "unknown"
    assert contract_features([lock_in("commitment", "", topic="exit")])[
        "exit_terms"] == "proprietary"
    data_exit = {"kind": "termination_exit", "topic": "data", "why": "",
                 "figures": {"reason": "customer_exit"}}
    assert contract_features([data_exit])["exit_terms"] == "open"
