"""How the stages meet: delivery dates, expiry, commitments and contract figures."""

from __future__ import annotations

import datetime as dt
from typing import Any

import builders

from evaltool.models import Offer, Workload
from evaltool.pipeline import (
    apply_contract_figures,
    evaluate_offer,
    reconcile_missing,
    validity_flags,
)
from evaltool.score.rubric import load_rubric

RUBRIC = load_rubric("llm-pretraining")
WORKLOAD = Workload(
    name="70b", params_b=70, tokens_b=2000, n_layers=80, d_model=8192, deadline_days=180,
    cost_of_delay_usd_per_day=40_000, storage_needed_tb=400, gpus_wanted=1024,
    start_date=dt.date(2026, 12, 1),
)


def make_offer(offer_id: str, **fields: Any) -> Offer:
    fields.setdefault("delivery_date", dt.date(2027, 1, 1))
    fields.setdefault("contract_text", "Provider shall deliver the cluster by 2027-01-01.")
    return builders.make_offer(offer_id, **fields)


def test_a_later_delivery_costs_delay_and_scores_lower() -> None:
    soon = evaluate_offer(make_offer("soon"), RUBRIC, WORKLOAD, None)
    late = evaluate_offer(make_offer("late", delivery_date=dt.date(2027, 3, 2)), RUBRIC,
                          WORKLOAD, None)
    soon_extra = soon.estimates.model_extra or {}
    late_extra = late.estimates.model_extra or {}
    assert late_extra["delivery_wait_days"] - soon_extra["delivery_wait_days"] == 60
    delay = (late.estimates.total_economic_cost_usd or 0) - (
        soon.estimates.total_economic_cost_usd or 0)
    assert abs(delay - 60 * 40_000) < 1.0
    assert late.score < soon.score


def test_a_delivery_after_the_deadline_fails_the_deadline_gate() -> None:
    late = evaluate_offer(make_offer("late", delivery_date=dt.date(2027, 7, 1)), RUBRIC,
                          WORKLOAD, None)
    gate = next(g for g in late.gates if g.gate == "meets_deadline")
    assert gate.status == "fail"
    assert "delivery wait 212" in gate.why


def test_a_delivery_date_stated_only_in_the_contract_is_used() -> None:
    scored = evaluate_offer(make_offer("in-contract", delivery_date=None), RUBRIC, WORKLOAD, None)
    gate = next(g for g in scored.gates if g.gate == "delivery_date_stated")
    assert gate.status == "pass"
    assert scored.offer.fields.delivery_date == dt.date(2027, 1, 1)


def test_no_delivery_date_against_a_deadline_is_unverified() -> None:
    vague = evaluate_offer(make_offer("vague", delivery_date=None,
                                      contract_text="Provider shall maintain the cluster."),
                           RUBRIC, WORKLOAD, None)
    gate = next(g for g in vague.gates if g.gate == "delivery_date_stated")
    assert gate.status == "unverified"
    assert not vague.eligible


def test_an_expired_quote_is_a_high_flag() -> None:
    offer = make_offer("old", valid_until=dt.date(2026, 10, 1))
    flags = validity_flags(offer, dt.date(2026, 11, 22))
    assert [f.kind for f in flags] == ["quote_expired"]
    assert flags[0].severity == "high"
    assert validity_flags(offer, dt.date(2026, 9, 1)) == []


def test_a_commitment_far_above_the_run_is_flagged() -> None:
    scored = evaluate_offer(make_offer("term", term_months=36), RUBRIC, WORKLOAD, None)
    flag = next(f for f in scored.flags if f.kind == "commitment_exceeds_run")
    assert "36-month term" in flag.why


def test_contract_figures_fill_only_what_the_offer_left_empty() -> None:
    offer = make_offer("c", sla_uptime_pct=None, hw_replacement_hours=8)
    figures = [
        {"field": "sla_uptime_pct", "value": 99.9, "quote": "99.9% per month",
         "where": {"file": "c.yaml", "key": "terms"}, "committed": True},
        {"field": "hw_replacement_hours", "value": 48, "quote": "48 hours",
         "where": {"file": "c.yaml", "key": "terms"}, "committed": True},
        {"field": "sla_max_credit_pct", "value": 50, "quote": "aims to credit 50%",
         "where": {"file": "c.yaml", "key": "terms"}, "committed": False},
    ]
    updated = apply_contract_figures(offer, figures)
    assert updated.fields.sla_uptime_pct == 99.9
    assert updated.provenance["sla_uptime_pct"].note == "read from the contract text"
    assert updated.fields.hw_replacement_hours == 8  # the offer's own value stays
    assert updated.fields.sla_max_credit_pct == 25  # a hedged figure never fills a field


def test_a_contract_silent_on_what_the_quote_states_is_one_severity_lower() -> None:
    offer = make_offer("q")
    findings = [{"kind": "missing", "severity": "high", "figures": {"essential": "uptime_figure"},
                 "why": "no committed uptime percentage: ..."}]
    out = reconcile_missing(offer, findings)
    assert out[0]["severity"] == "medium"
    assert "only in the quote" in out[0]["why"]


def test_an_expired_quote_fails_the_validity_gate_and_a_valid_one_passes() -> None:
    offer = make_offer("old", valid_until=dt.date(2026, 10, 1))
    expired = evaluate_offer(offer, RUBRIC, WORKLOAD, None, as_of=dt.date(2026, 11, 22))
    fresh = evaluate_offer(offer, RUBRIC, WORKLOAD, None, as_of=dt.date(2026, 9, 1))
    gate = next(g for g in expired.gates if g.gate == "quote_valid")
    assert gate.status == "fail" and gate.code == "gate-quote-valid" and not expired.eligible
    assert next(g for g in fresh.gates if g.gate == "quote_valid").status == "pass"
