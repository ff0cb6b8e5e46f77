"""The words of scoring: it returns a gate's status and figures and a criterion's treatment
of a missing value; report/score_words writes the reasons and notes.

Every number in a gate's reason is one of its figures, so the reason cannot drift from the
values the gate decided on.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import builders

from evaltool.models import Estimates, Workload
from evaltool.pipeline import evaluate_offer
from evaltool.report.score_words import (
    TREATMENT_NOTES,
    criteria_with_words,
    gate_why,
    gates_with_words,
)
from evaltool.score.core import evaluate_gate, score_offer
from evaltool.score.rubric import load_rubric

RUBRIC = load_rubric("llm-pretraining")
GATES = {g.id: g for g in RUBRIC.gates}
WORKLOAD = Workload(name="70b", params_b=70, tokens_b=2000, deadline_days=120,
                    cost_of_delay_usd_per_day=40_000, storage_needed_tb=400,
                    start_date=dt.date(2026, 11, 2))


def _deadline_metrics(**values: float) -> dict[str, Any]:
    metrics: dict[str, Any] = {
        "derived.time_vs_deadline": 1.5, "estimates.days_to_trained_model": 180.0,
        "estimates.delivery_wait_days": 100.0, "estimates.delivery_slip_days": 20.0,
        "estimates.time_to_train_days": 60.0, "workload.deadline_days": 120.0,
    }
    metrics.update(values)
    return metrics


def test_scoring_returns_a_gate_s_status_and_figures_and_no_sentence() -> None:
    result = evaluate_gate(GATES["meets_deadline"], _deadline_metrics())
    assert result.status == "fail" and result.why == ""
    assert result.figures["derived.time_vs_deadline"] == 1.5
    assert result.figures["estimates.delivery_wait_days"] == 100.0
    scored = score_offer(builders.make_offer("a"), Estimates(mfu=0.4, fits=True), RUBRIC,
                         WORKLOAD)
    assert all(g.why == "" for g in scored.gates)


def test_a_gate_s_reason_states_the_figures_it_decided_on() -> None:
    for days, wait in ((180.0, 100.0), (95.0, 30.0)):
        metrics = _deadline_metrics(**{"estimates.days_to_trained_model": days,
                                       "estimates.delivery_wait_days": wait,
                                       "derived.time_vs_deadline": days / 120})
        result = evaluate_gate(GATES["meets_deadline"], metrics)
        why = gate_why(result, GATES["meets_deadline"])
        answer = "no" if days > 120 else "yes"
        assert why.startswith(f"Trained model by the deadline: {answer}, ")
        assert f"after {days:.0f} days (delivery wait {wait:.0f} " in why
        assert why.endswith("against a deadline of 120 days.")


def test_without_a_template_value_the_reason_states_the_metric_and_the_rationale() -> None:
    gate = GATES["meets_deadline"]
    metrics = _deadline_metrics(**{"derived.time_vs_deadline": 1.25})
    del metrics["estimates.delivery_slip_days"]
    why = gate_why(evaluate_gate(gate, metrics), gate)
    assert why == f"{gate.title}: no (time_vs_deadline = 1.25). {gate.why}"


def test_a_value_not_stated_is_said_so_and_unverified_says_it_cannot_be_checked() -> None:
    gate = GATES["delivery_date_stated"]
    result = evaluate_gate(gate, {})
    assert result.status == "unverified"
    assert gate_why(result, gate) == f"{gate.title}: not stated in the offer (cannot be verified)"


def test_a_valid_quote_says_until_when_and_an_expired_one_fails() -> None:
    gate = GATES["quote_valid"]
    for valid_until, as_of, answer in ((dt.date(2027, 1, 15), dt.date(2026, 11, 20), "yes"),
                                       (dt.date(2026, 10, 1), dt.date(2026, 11, 20), "no")):
        offer = builders.make_offer("q", valid_until=valid_until)
        scored = evaluate_offer(offer, RUBRIC, WORKLOAD, None, as_of=as_of)
        why = next(g.why for g in scored.gates if g.gate == "quote_valid")
        assert why == f"{gate.title}: {answer}, valid until {valid_until.isoformat()}."
        assert "has passed" not in why


def test_the_pipeline_writes_every_gate_s_reason_once_from_its_figures() -> None:
    scored = evaluate_offer(builders.make_offer("p"), RUBRIC, WORKLOAD, None)
    assert all(g.why for g in scored.gates)
    assert gates_with_words(scored.gates, RUBRIC) == scored.gates
    deadline = next(g for g in scored.gates if g.gate == "meets_deadline")
    ratio = deadline.figures["derived.time_vs_deadline"]
    assert f"(time_vs_deadline = {ratio:.3g})" in deadline.why  # no delivery date stated


def test_a_criterion_without_a_value_is_noted_by_how_it_was_scored() -> None:
    quiet = builders.make_offer("quiet", sla_uptime_pct=None, orchestrator=None,
                                root_access=None)
    scored = score_offer(quiet, Estimates(mfu=0.4, fits=True), RUBRIC, WORKLOAD)
    treated = [c for c in scored.criteria if c.treatment]
    assert treated and all(c.note is None for c in treated)  # scoring writes no words
    for c in treated:
        policy = RUBRIC.missing_policy(next(k for k in RUBRIC.criteria if k.id == c.criterion))
        assert c.treatment == policy
        assert (c.score == 0.0) == (policy != "neutral")
    noted = criteria_with_words(scored.criteria)
    assert [c.note for c in noted if c.treatment] == [TREATMENT_NOTES[c.treatment]
                                                       for c in treated]
    pipeline = evaluate_offer(quiet, RUBRIC, WORKLOAD, None)
    assert all(c.note == TREATMENT_NOTES[c.treatment] for c in pipeline.criteria if c.treatment)
