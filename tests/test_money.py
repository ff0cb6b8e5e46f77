"""The money of the decision reads the contract first, the quote where the contract is silent.

Contract facts come from clause analysis (`evaltool.clauses.extract_terms`); an offer's
canonical fields (term, minimum commitment, upfront payment) fill only what the contract does
not say, and a disagreement between the two is a flag with a code, never a silent choice.
"""

from __future__ import annotations

import builders
import pytest

from evaltool.estimate.money import compute_money, contract_terms
from evaltool.issues import is_registered
from evaltool.models import Estimates, Workload

WORKLOAD = Workload(name="70b", params_b=70, tokens_b=2000, cost_of_delay_usd_per_day=0)


def test_a_quoted_term_counts_where_the_contract_is_silent() -> None:
    offer = builders.make_offer("quiet", term_months=6, min_commit_usd=1_000_000.0,
                                contract_text="1. Services. GPUs as quoted.")
    terms, flags = contract_terms(offer)
    assert terms.term_months == 6 and terms.min_commit_usd == 1_000_000.0
    assert flags == []


def test_the_contract_beats_the_quote_and_the_disagreement_is_flagged() -> None:
    offer = builders.make_offer(
        "clash", min_commit_usd=1_000_000.0,
        contract_text="3. Commitment. Customer commits to a minimum spend of USD 2,500,000 "
                      "over the Term.")
    terms, flags = contract_terms(offer)
    assert terms.min_commit_usd == 2_500_000.0
    assert [f.code for f in flags] == ["terms-conflict"]
    assert "2.5e+06" in flags[0].why and "1e+06" in flags[0].why
    assert flags[0].quote and "2,500,000" in flags[0].quote
    assert is_registered("terms-conflict")


def test_a_contract_sentence_that_states_the_quoted_figure_agrees_with_it() -> None:
    # Clause analysis may take the first amount of the sentence (the hourly rate); the
    # sentence also states the quote's total, so the two agree and nothing is flagged.
    offer = builders.make_offer(
        "agree", min_commit_usd=60_010_905.60,
        contract_text="3. Commitment. Customer commits to purchase the capacity at USD 2.23 "
                      "per GPU-hour (total committed fees USD 60,010,905.60).")
    terms, flags = contract_terms(offer)
    assert terms.min_commit_usd == pytest.approx(60_010_905.60)
    assert flags == []


def test_no_minimum_term_in_the_contract_beats_a_term_in_the_quote() -> None:
    offer = builders.make_offer(
        "ondemand", term_months=12,
        contract_text="2. Term. There is no minimum term. Customer may terminate any "
                      "instance at any time.")
    terms, _flags = contract_terms(offer)
    assert terms.term_months is None


@pytest.mark.parametrize("escalation_pct", [0.0, 5.0, 10.0])
def test_a_yearly_escalator_is_paid_over_the_whole_term(escalation_pct: float) -> None:
    offer = builders.make_offer("esc", gpu_count=8, price_usd_per_gpu_hour=2.0, term_months=36)
    terms, _ = contract_terms(offer)
    terms = terms.model_copy(update={"price_escalation_pct_per_year": escalation_pct,
                                     "non_cancellable": True})
    estimates = Estimates(total_cost_usd=1000.0, time_to_train_days=10.0)
    money = compute_money(offer.fields, estimates, terms, WORKLOAD)
    per_day = 8 * 2.0 * 24
    term_days = 36 * 730 / 24
    e = escalation_pct / 100
    # three years: 365 days at 1, 365 at (1+e), the rest at (1+e)^2
    expected = per_day * (365 + 365 * (1 + e) + (term_days - 730) * (1 + e) ** 2)
    assert money.full_commitment_usd == pytest.approx(expected)
    assert money.minimum_cash_to_sign_usd == pytest.approx(expected)


def test_a_purchase_pays_its_non_cancellable_colocation_term_whatever_the_run() -> None:
    # Scenario 06a's purchase: capex $2.4M + 36 months of colocation and service that
    # cannot be cancelled, though the run uses the cluster for a year.
    offer = builders.make_offer(
        "buy", offer_kind="purchase", gpu_count=64, node_count=8, gpus_per_node=8,
        price_usd_per_gpu_hour=None, term_months=36, capex_usd=2_400_000.0,
        amortization_months=36, power_kw_per_node=10.2, colocation_usd_per_kw_month=190.0,
        opex_usd_per_month=6000.0,
        contract_text="B2. Term: 36 months from installation. The colocation term is "
                      "non-cancellable.")
    terms, _ = contract_terms(offer)
    running = 8 * 10.2 * 190.0 + 6000.0
    estimates = Estimates(total_cost_usd=1_000_000.0, time_to_train_days=365.0,
                          buy_vs_rent={"owning_usd_per_month": 2_400_000 / 36 + running})
    money = compute_money(offer.fields, estimates, terms, WORKLOAD)
    assert money.minimum_cash_to_sign_usd == pytest.approx(2_400_000 + 36 * running)
    assert money.full_commitment_usd == pytest.approx(2_400_000 + 36 * running)
