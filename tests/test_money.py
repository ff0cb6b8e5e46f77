"""The money of the decision reads the contract first, the quote where the contract is silent.

Contract facts come from clause analysis (`evaltool.clauses.extract_terms`); an offer's
canonical fields (term, minimum commitment, upfront payment) fill only what the contract does
not say, and a disagreement between the two is a flag with a code, never a silent choice.
"""

from __future__ import annotations

from typing import Any

import builders
import pytest
from workbooks import write_workbook

from evaltool.estimate.money import compute_money, contract_terms, with_money
from evaltool.issues import is_registered
from evaltool.models import Estimates, Workload
from evaltool.pipeline import evaluate_offer
from evaltool.report.flag_words import flag_sentence
from evaltool.report.recommendation import exit_phrase
from evaltool.score.rubric import load_rubric

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
    assert flags[0].figures["in_contract"] == 2_500_000.0
    assert flags[0].figures["in_quote"] == 1_000_000.0
    # The sentence states both figures in full, from the flag's figures (report/flag_words).
    assert flag_sentence("terms-conflict", flags[0].figures) == (
        "the minimum commitment: the contract states $2,500,000, the quote $1,000,000; "
        "the money follows the contract")
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


# ------------------------------------------------------------------ exits and commitments
# 256 GPUs at $2.10: $12,902.40 a day; a 6-month term is 182.5 days ($2,354,688).
PER_DAY = 256 * 2.10 * 24
TERM_DAYS = 6 * 730 / 24


def _money(contract: str, days: float = 30.0, **quote: object) -> object:
    fields = {"gpu_count": 256, "price_usd_per_gpu_hour": 2.10, "term_months": 6, **quote}
    offer = builders.make_offer("exit", contract_text=contract, **fields)
    terms, _ = contract_terms(offer)
    estimates = Estimates(total_cost_usd=PER_DAY * days, time_to_train_days=days)
    return compute_money(offer.fields, estimates, terms, WORKLOAD)


def test_an_early_termination_fee_on_the_fees_for_the_remainder_is_paid_on_leaving() -> None:
    money = _money(
        "3. Termination for convenience. Customer may terminate this Order Form for "
        "convenience at any time on thirty (30) days' prior written notice. Upon such "
        "termination Customer shall pay (a) all Fees accrued through the effective date of "
        "termination and (b) an Early Termination Fee equal to twenty-five percent (25%) of "
        "the Fees that would have been payable for the remainder of the Initial Term.")
    held = 30.0  # the notice is served so that termination takes effect when the run ends
    expected = PER_DAY * held + 0.25 * PER_DAY * (TERM_DAYS - held)
    assert money.minimum_cash_to_sign_usd == pytest.approx(expected)
    assert money.basis[0].code == "termination_for_convenience"
    assert money.basis[0].evidence is not None and "notice" in money.basis[0].evidence.quote


def test_leaving_no_earlier_than_the_end_of_the_minimum_term_pays_the_whole_term() -> None:
    money = _money(
        "1. Term. The Minimum Term is one (1) month. After the Minimum Term the Order "
        "continues from week to week.\n\n3. Termination. Customer may terminate on seven (7) "
        "days' written notice, with effect no earlier than the end of the Minimum Term.",
        days=20.0, term_months=1)
    assert money.minimum_cash_to_sign_usd == pytest.approx(PER_DAY * 730 / 24)


def test_leaving_at_a_months_end_only_bills_the_last_month_whole() -> None:
    money = _money(
        "4. Customer may terminate this Order by giving at least seven (7) days' written "
        "notice, with effect at the end of any calendar month.", days=40.0)
    assert money.minimum_cash_to_sign_usd == pytest.approx(PER_DAY * 2 * 730 / 24)


@pytest.mark.parametrize("remedy", [
    "If delivery is more than seven (7) days late Customer may cancel this Order without "
    "liability and receive a refund of anything paid.",
    "Customer may terminate this Order upon Provider's material breach not cured within 30 days.",
    "Customer may cancel if the Service is not available for more than 5 consecutive days.",
])
def test_a_right_to_cancel_when_the_vendor_fails_is_no_way_out_after_the_run(
        remedy: str) -> None:
    # A remedy for the vendor's failure does not end the contract when the run is done: the
    # one-month minimum is paid in full though the run lasts 20 days.
    money = _money("1. Term. A minimum term of one (1) month, then month to month. Customer "
                   "may end the Order at any time after the minimum term on seven (7) days' "
                   "written notice.\n\n3. Delivery. " + remedy, days=20.0, term_months=1)
    assert money.minimum_cash_to_sign_usd == pytest.approx(PER_DAY * 730 / 24)


def test_a_reserved_block_commits_its_terms_fees_above_a_smaller_spend_floor() -> None:
    money = _money(
        "2. Fees. Reserved GPUs are billed monthly in arrears at USD 2.10 per GPU-hour, "
        "whether or not used.\n\n3. Minimum Commitment. Customer commits to Fees of not less "
        "than USD 75,000 over the Reservation Term.\n\n4. Customer may terminate the "
        "reservation at any time on seven (7) days' prior written notice.",
        min_commit_usd=75_000.0)
    assert money.full_commitment_usd == pytest.approx(PER_DAY * TERM_DAYS)
    assert money.minimum_cash_to_sign_usd == pytest.approx(PER_DAY * 30.0)


def test_a_spend_floor_on_capacity_billed_by_use_is_the_commitment_as_worded() -> None:
    money = _money("1.4 Rate means USD 2.10 per GPU-hour consumed. Customer may not terminate "
                   "for convenience.", min_commit_usd=75_000.0)
    assert money.full_commitment_usd == pytest.approx(75_000.0)


def test_on_demand_capacity_commits_the_run_as_billed_not_nothing() -> None:
    money = _money("2. There is no minimum term and no commitment; billed per GPU-hour.",
                   days=12.0, term_months=None)
    assert money.full_commitment_usd == pytest.approx(PER_DAY * 12.0)
    assert money.full_commitment_usd == money.minimum_cash_to_sign_usd


def test_storage_priced_per_tb_month_is_committed_for_the_term_at_what_the_run_needs() -> None:
    # 2,000 TB usable needed, 80% of rented capacity usable: 2,500 TB at $45 a TB-month.
    offer = builders.make_offer("weka", gpu_count=256, price_usd_per_gpu_hour=2.10,
                                term_months=3, storage_usd_per_tb_month=45.0,
                                storage_capacity_tb=None,
                                contract_text="1. Term. Three (3) months, non-cancellable.")
    terms, _ = contract_terms(offer)
    estimates = Estimates(total_cost_usd=PER_DAY * 30, time_to_train_days=30.0,
                          storage_needed_tb=2000.0)
    money = compute_money(offer.fields, estimates, terms, WORKLOAD)
    assert money.full_commitment_usd == pytest.approx(256 * 2.10 * 730 * 3 + 2500 * 45.0 * 3)


def test_pay_per_use_commitment_zero_reports_nothing_committed_beyond_usage() -> None:
    offer = builders.make_offer("od", gpu_count=256, price_usd_per_gpu_hour=2.10,
                                contract_text="2. There is no minimum term and no commitment.")
    terms, _ = contract_terms(offer)
    estimates = Estimates(total_cost_usd=PER_DAY * 12, time_to_train_days=12.0)
    money = compute_money(offer.fields, estimates, terms, WORKLOAD,
                          pay_per_use_commitment="zero")
    assert money.full_commitment_usd == 0.0
    assert money.minimum_cash_to_sign_usd == pytest.approx(PER_DAY * 12)


def test_notice_served_once_the_run_has_ended_pays_the_run_plus_the_notice() -> None:
    contract = ("3. Customer may terminate this Schedule at any time on thirty (30) days' prior "
                "written notice. No early-termination fee applies.")
    offer = builders.make_offer("tfc", gpu_count=256, price_usd_per_gpu_hour=2.10,
                                term_months=12, contract_text=contract)
    terms, _ = contract_terms(offer)
    estimates = Estimates(total_cost_usd=PER_DAY * 40, time_to_train_days=40.0)
    timed = compute_money(offer.fields, estimates, terms, WORKLOAD)
    late = compute_money(offer.fields, estimates, terms, WORKLOAD, notice_served="run_end")
    assert timed.minimum_cash_to_sign_usd == pytest.approx(PER_DAY * 40)  # max(run, notice)
    assert late.minimum_cash_to_sign_usd == pytest.approx(PER_DAY * 70)  # run + notice


def test_the_score_report_states_a_terms_conflict_in_words() -> None:
    offer = builders.make_offer(
        "clash", min_commit_usd=1_000_000.0,
        contract_text="3. Commitment. Customer commits to a minimum spend of USD 2,500,000 "
                      "over the Term.")
    scored = evaluate_offer(offer, load_rubric("llm-pretraining"),
                            Workload(name="w", params_b=70, tokens_b=2000), None)
    flag = next(f for f in scored.flags if f.code == "terms-conflict")
    assert flag.why.startswith("the minimum commitment: the contract states $2,500,000")


# ------------------------------------------------------------------ a purchase's buy-back
# 32 nodes of 8 GPUs bought for $9.6M; running costs $68,592.64 a month (32 x 10.2 kW at
# $0.12 a kWh, 730 h, plus $40,000 of colocation and operations).
RUNNING = 32 * 10.2 * 730 * 0.12 + 40_000.0


def _purchase_money(contract: str, run_months: float) -> object:
    offer = builders.make_offer(
        "buy", offer_kind="purchase", gpu_count=256, node_count=32, gpus_per_node=8,
        price_usd_per_gpu_hour=None, term_months=None, capex_usd=9_600_000.0,
        amortization_months=60, power_kw_per_node=10.2, power_usd_per_kwh=0.12,
        opex_usd_per_month=40_000.0, contract_text=contract)
    terms, _ = contract_terms(offer)
    days = run_months * 730 / 24
    estimates = Estimates(total_cost_usd=1_000_000.0, time_to_train_days=days,
                          buy_vs_rent={"owning_usd_per_month": 9_600_000 / 60 + RUNNING})
    return compute_money(offer.fields, estimates, terms, WORKLOAD)


FIRM_BUYBACK = ("4. Repurchase obligation. At Buyer's option, exercisable by written notice "
                "given between the 22nd and 24th month after acceptance, Seller shall "
                "repurchase all Goods for USD 4,320,000 (45% of the price). Seller's repurchase "
                "obligation is guaranteed by its parent company.")


def test_a_firm_buy_back_at_a_fixed_price_is_the_cheapest_way_out_of_a_purchase() -> None:
    # Running costs are carried to the window's close, when the buy-back settles at the latest.
    money = _purchase_money(FIRM_BUYBACK, run_months=17.4)
    assert money.minimum_cash_to_sign_usd == pytest.approx(9_600_000 + 24 * RUNNING - 4_320_000)
    assert money.basis[0].code == "buyback"
    assert money.basis[0].evidence is not None and "4,320,000" in money.basis[0].evidence.quote
    # The full commitment is still the hardware and its running costs over its life.
    assert money.full_commitment_usd == pytest.approx(9_600_000 + 60 * RUNNING)


@pytest.mark.parametrize("contract", [
    "4. Buy-back. Seller may offer to repurchase the Goods after 24 months at fair market "
    "value, at its sole discretion.",
    "4. Resale. Seller will help Buyer find a buyer for the Goods after 24 months; Seller does "
    "not guarantee a buy-back price of USD 4,320,000.",
])
def test_a_buy_back_the_seller_is_not_bound_to_is_not_a_way_out(contract: str) -> None:
    money = _purchase_money(contract, run_months=17.4)
    assert money.basis[0].code == "purchase"
    assert money.minimum_cash_to_sign_usd == pytest.approx(9_600_000 + 17.4 * RUNNING)


def test_a_run_that_outlasts_the_buy_back_window_cannot_leave_through_it() -> None:
    money = _purchase_money(FIRM_BUYBACK, run_months=30.0)
    assert money.basis[0].code == "purchase"
    assert money.minimum_cash_to_sign_usd == pytest.approx(9_600_000 + 30.0 * RUNNING)


def test_a_buy_back_settled_when_its_window_opens_carries_fewer_running_months() -> None:
    offer = builders.make_offer("buy", offer_kind="purchase", gpu_count=256, node_count=32,
                                gpus_per_node=8, price_usd_per_gpu_hour=None,
                                capex_usd=9_600_000.0, amortization_months=60,
                                contract_text=FIRM_BUYBACK)
    terms, _ = contract_terms(offer)
    estimates = Estimates(total_cost_usd=1_000_000.0, time_to_train_days=17.4 * 730 / 24,
                          buy_vs_rent={"owning_usd_per_month": 9_600_000 / 60 + RUNNING})
    early = compute_money(offer.fields, estimates, terms, WORKLOAD,
                          buyback_settles="window_start")
    assert early.minimum_cash_to_sign_usd == pytest.approx(9_600_000 + 21 * RUNNING - 4_320_000)


# ------------------------------------------------------------------ hours given free
def test_days_given_free_of_charge_are_not_part_of_the_run_cost() -> None:
    # 14 days free on 128 GPUs (43,008 GPU-hours at $1.90) before a 12-month committed term.
    offer = builders.make_offer(
        "trial", gpu_count=128, price_usd_per_gpu_hour=1.90, term_months=12,
        contract_text="1. Evaluation Period. Lumora provides 128 H100 SXM GPUs free of charge "
                      "for fourteen (14) days from 4 December 2026.\n\n2. Conversion. Unless "
                      "Customer gives notice, this Order converts automatically into a "
                      "Committed Term of twelve (12) months. The Committed Term is "
                      "non-cancellable.")
    terms, _ = contract_terms(offer)
    compute = 134_816 * 1.90
    estimates = Estimates(total_cost_usd=compute, time_to_train_days=43.9, gpu_hours=134_816,
                          cost_breakdown_usd={"compute": compute})
    money = compute_money(offer.fields, estimates, terms, WORKLOAD)
    assert money.run_cost_usd == pytest.approx((134_816 - 43_008) * 1.90)
    # The commitment it converts into is unchanged: twelve months at the quoted rate.
    assert money.minimum_cash_to_sign_usd == pytest.approx(128 * 730 * 12 * 1.90)
    out = with_money(estimates, money)
    parts = (out.model_extra or {})["cost_breakdown_usd"]
    assert sum(parts.values()) == pytest.approx(out.total_cost_usd, rel=1e-5)


def test_free_hours_never_make_a_run_cost_less_than_nothing() -> None:
    offer = builders.make_offer("pilot", gpu_count=8, price_usd_per_gpu_hour=2.0,
                                contract_text="2. Credits. The first 30 days are free.")
    terms, _ = contract_terms(offer)
    estimates = Estimates(total_cost_usd=800.0, time_to_train_days=2.0,
                          cost_breakdown_usd={"compute": 800.0})
    assert compute_money(offer.fields, estimates, terms, WORKLOAD).run_cost_usd == 0.0


def test_storage_free_for_a_while_is_not_free_gpu_time() -> None:
    offer = builders.make_offer(
        "keep", gpu_count=128, price_usd_per_gpu_hour=2.0,
        contract_text="5. Data. After termination Customer's data is retained free of charge "
                      "for thirty (30) days.")
    terms, _ = contract_terms(offer)
    estimates = Estimates(total_cost_usd=100_000.0, time_to_train_days=20.0,
                          cost_breakdown_usd={"compute": 100_000.0})
    assert compute_money(offer.fields, estimates, terms, WORKLOAD).run_cost_usd == 100_000.0


@pytest.mark.parametrize(("contract", "months", "price"), [
    ("4. Vendor agrees to buy back the equipment at 40% of the purchase price after "
     "thirty-six (36) months.", 36, 0.40 * 9_600_000),
    ("4. Seller shall repurchase the Goods for USD 4,000,000, payable within thirty (30) days "
     "of collection, at the end of the twenty-fourth (24th) month.", 24, 4_000_000),
])
def test_a_buy_back_is_read_however_the_contract_words_its_date_and_price(
        contract: str, months: float, price: float) -> None:
    money = _purchase_money(contract, run_months=17.4)
    assert money.basis[0].code == "buyback"
    assert money.minimum_cash_to_sign_usd == pytest.approx(
        9_600_000 + months * RUNNING - price)


MONTHLY_FLOOR = ("2. Minimum monthly spend. Customer commits to spend at least USD 200,000 in "
                 "each Commitment Month; a shortfall is invoiced at the end of that month and "
                 "does not carry forward. This Order cannot be terminated for convenience.")


@pytest.mark.parametrize("days", [20.0, 45.0, 100.0])
def test_a_monthly_spend_floor_bills_each_month_the_larger_of_floor_and_use(days: float) -> None:
    money = _money(MONTHLY_FLOOR, days=days)
    month = 730 / 24
    used = [PER_DAY * max(0.0, min(days, (k + 1) * month) - k * month) for k in range(6)]
    expected = sum(max(200_000.0, u) for u in used)
    assert money.minimum_cash_to_sign_usd == pytest.approx(expected)
    assert money.full_commitment_usd == pytest.approx(expected)
    # A busy month does not cover an idle one: more than six floors and more than the run.
    assert expected > max(6 * 200_000.0, PER_DAY * days)


REFUND_SCHEDULE = (
    "2. Fees. USD 2.10 per GPU-hour for the six-month Prepaid Term, invoiced in full on "
    "signature.\n\n3. Termination for convenience and refund schedule. Customer may terminate "
    "this order at any time on thirty (30) days' prior written notice. Provider shall refund "
    "the following share of the prepaid Fees attributable to the part of the Prepaid Term "
    "after that date:\n  (a) termination effective on or before the last day of month 3: 90%;"
    "\n  (b) termination effective during month 4 or month 5: 50%;\n  (c) termination "
    "effective during month 6: no refund.")


@pytest.mark.parametrize(("days", "refund"), [(45.0, 0.90), (100.0, 0.50), (170.0, 0.0)])
def test_a_prepayment_with_a_refund_schedule_costs_what_the_schedule_keeps_on_leaving(
        days: float, refund: float) -> None:
    prepaid = PER_DAY * TERM_DAYS
    money = _money(REFUND_SCHEDULE, days=days, upfront_usd=prepaid)
    used = PER_DAY * days  # the notice takes effect when the run ends
    assert money.minimum_cash_to_sign_usd == pytest.approx(prepaid - refund * (prepaid - used))
    assert money.full_commitment_usd == pytest.approx(prepaid)
    assert any(b.code == "prepayment_refund" for b in money.basis)


def test_a_prepayment_refunded_by_a_schedule_is_said_in_the_memo_words() -> None:
    money = _money(REFUND_SCHEDULE, days=45.0, upfront_usd=PER_DAY * TERM_DAYS)
    text = exit_phrase([b.to_dict() for b in money.basis])
    assert "90% of the unused fees" in text


STEPPED = ("2. Fees. Launch price of USD 2.10 per GPU-hour during months 1 to 2 of the Term. "
           "From the first day of month 3 to the end of the Term the Fees are USD 3.15 per "
           "GPU-hour.\n\n3. Minimum Period. The first four (4) months of the Term are the "
           "Minimum Period. Customer may terminate for convenience on thirty (30) days' "
           "notice with effect on or after the last day of the Minimum Period.")


def test_a_price_that_steps_up_is_charged_at_each_months_price_and_the_minimum_period_held(
        ) -> None:
    money = _money(STEPPED, days=75.0)
    month = 730 / 24
    # the whole term: two months at the launch price, four at 1.5x
    assert money.full_commitment_usd == pytest.approx(PER_DAY * month * (2 + 4 * 1.5))
    # leaving takes effect no sooner than the end of the 4-month minimum period
    assert money.minimum_cash_to_sign_usd == pytest.approx(PER_DAY * month * (2 + 2 * 1.5))
    # the run of 75 days: 2 months at 2.10, the rest at 3.15
    assert money.run_cost_usd == pytest.approx(PER_DAY * (2 * month + (75 - 2 * month) * 1.5))


def test_a_flat_price_named_once_with_a_month_is_no_step() -> None:
    terms, _ = contract_terms(builders.make_offer(
        "flat", contract_text="Fees of USD 2.10 per GPU-hour from month 1 of the Term.",
        gpu_count=256, price_usd_per_gpu_hour=2.10, term_months=6))
    assert terms.price_steps is None


# --- reading a quote's money: the resource x time grammar in every language we meet ----------
# Our own examples (never a blind file): one grammar over evaltool/data/basis_words.yaml, so a
# price basis reads in any of the languages vendors quote in, with their abbreviations.

@pytest.mark.parametrize(("text", "amount", "currency", "per"), [
    ("38,50 Kč / GPU / hod. bez DPH", 38.5, "CZK", ("gpu", "hour")),          # cs
    ("1 250 Kč za uzel za hodinu", 1250.0, "CZK", ("node", "hour")),           # cs
    ("€ 172.800,00 / rack / mês", 172800.0, "EUR", ("rack", "month")),         # pt
    ("€ 3,20 por GPU ao mês", 3.2, "EUR", ("gpu", "month")),                   # pt
    ("PLN 9,00 za GPU za godzinę", 9.0, "PLN", ("gpu", "hour")),               # pl
    ("52 560,00 zł / węzeł / mies.", 52560.0, "PLN", ("node", "month")),       # pl
    ("DKK 15,52 pr. GPU-time", 15.52, "DKK", ("gpu", "hour")),                 # da
    ("DKK 69.000,00 pr. rack pr. md.", 69000.0, "DKK", ("rack", "month")),        # da
    ("SEK 310 per nod och timme", 310.0, "SEK", ("node", "hour")),             # sv: "och" joins
    ("SEK 24 000 per server/mån", 24000.0, "SEK", ("node", "month")),          # sv
    ("1.985,00 EUR por instancia / mes", 1985.0, "EUR", ("node", "month")),    # es
    ("EUR 2,10 all'ora per GPU", 2.1, "EUR", ("gpu", "hour")),                # it
    ("€ 9,60 per nodo all'ora", 9.6, "EUR", ("node", "hour")),
    ("€2.10 par heure GPU", 2.1, "EUR", ("gpu", "hour")),                      # fr
    ("€ 18,40 pro Knoten und Std.", 18.4, "EUR", ("node", "hour")),            # de
    ("€ 0,95 per GPU per uur", 0.95, "EUR", ("gpu", "hour")),                  # nl
    ("¥450/GPU/時間", 450.0, "JPY", ("gpu", "hour")),                          # ja
    ("¥450 / GPU時間", 450.0, "JPY", ("gpu", "hour")),                         # ja: no space
    ("GPU1基1時間あたり ¥450", 450.0, "JPY", ("gpu", "hour")),                  # ja: あたり
    ("¥12,000 ノードあたり月額", 12000.0, "JPY", ("node", "month")),
    ("9,00 zł netto za 1 GPU/h", 9.0, "PLN", ("gpu", "hour")),                 # "za 1 GPU"
    ("EUR 4,20 pro 1 Knoten und Stunde", 4.2, "EUR", ("node", "hour")),
    ("€ 2,35/GPU·u", 2.35, "EUR", ("gpu", "hour")),                            # nl: u = uur
    ("2.35 USD/(GPU·h)", 2.35, "USD", ("gpu", "hour")),                        # in brackets
    ("USD 2.35/GPUh", 2.35, "USD", ("gpu", "hour")),                           # one word
    ("$19.92/nodeh", 19.92, "USD", ("node", "hour")),
    ("DKK 18,50 ekskl. moms pr. GPU pr. time", 18.5, "DKK", ("gpu", "hour")),
    ("CZK 58 bez DPH za GPU/hod", 58.0, "CZK", ("gpu", "hour")),
    ("R$ 12,90 por GPU-hora", 12.9, "BRL", ("gpu", "hour")),
])
def test_a_price_basis_reads_in_every_language_vendors_quote_in(
        text: str, amount: float, currency: str, per: tuple[str, ...]) -> None:
    from evaltool.normalize.values import parse_money

    money = parse_money(text)
    assert (money.amount, money.currency) == (pytest.approx(amount), currency)
    assert set(per) <= set(money.per)


@pytest.mark.parametrize("text", [
    "€ 1.036.800,00 na start projektu",     # "na" is a word here, not a basis
    "USD 1,200 al contado",                 # es "al": likewise
    "£155 per kW per month, billed on each server's max. power draw",
])
def test_everyday_words_beside_a_price_are_not_a_basis(text: str) -> None:
    from evaltool.normalize.values import parse_money

    money = parse_money(text)
    assert "node" not in money.per


def test_an_unknown_word_after_per_is_reported_not_guessed() -> None:
    from evaltool.normalize.values import ValueParseError, parse_money

    with pytest.raises(ValueParseError, match="unknown price basis"):
        parse_money("USD 12 per widget-hour")


_workbook = write_workbook


def _offers(path: Any, fx: dict[str, float]) -> list[Any]:
    from evaltool.normalize.core import normalize_files

    result = normalize_files([path], fx)
    assert not result.not_evaluated, result.not_evaluated
    return list(result.offers)


@pytest.mark.parametrize(("headings", "header"), [
    (("Varianta I – smlouva na 12 měsíců", "Varianta II – smlouva na 24 měsíců"),
     ["Č.", "Popis", "Množství", "Jednotka", "Jednotková cena", "Celkem"]),
    (("Option A - 1 year", "Option B - 3 years"),
     ["#", "Description", "Qty", "Unit", "Unit price", "Extended"]),
])
def test_option_headings_inside_a_line_item_table_make_one_offer_each(
        tmp_path: Any, headings: tuple[str, str], header: list[str]) -> None:
    path = _workbook(tmp_path / "q.xlsx", {"Quote": [
        ["Example Compute s.r.o. — all prices in EUR"],
        header,
        [headings[0]],
        [1, "GPU node 8x H100 SXM", 4, "node/month", 20000, 80000],
        [],
        [headings[1]],
        [1, "GPU node 8x H100 SXM", 4, "node/month", 18000, 72000],
    ]})
    offers = _offers(path, {"EUR": 1.0})
    prices = sorted(o.fields.price_usd_per_gpu_hour for o in offers)
    assert prices == [pytest.approx(18000 / 8 / 730), pytest.approx(20000 / 8 / 730)]


@pytest.mark.parametrize(("words", "unit_kw", "unit_month", "tco"), [
    (("Pos.", "Beskrivelse", "Antal", "Enhed", "Stk.-pris", "I alt"), "kW/md.", "md.",
     "Pris pr. GPU-time"),
    (("Pos.", "Beschreibung", "Menge", "Einheit", "Einzelpreis", "Gesamt"), "kW/Monat", "Monat",
     "Preis pro GPU-Stunde"),
])
def test_a_purchase_with_hosting_lines_and_a_stated_tco_is_a_purchase(
        tmp_path: Any, words: tuple[str, ...], unit_kw: str, unit_month: str,
        tco: str) -> None:
    path = _workbook(tmp_path / "buy.xlsx", {"Quote": [
        ["Example Datacenter A/S — all prices in EUR"],
        list(words),
        ["A. Hardware"],
        ["A1", "GPU server 8x NVIDIA H100 SXM 80GB", 4, "pcs", 250000, 1000000],
        ["A2", "Installation", 1, "pcs", 20000, 20000],
        [None, "Hardware total", None, None, None, 1020000],
        [],
        ["B. Hosting (monthly)"],
        ["B1", "Colocation incl. power and cooling", 40, unit_kw, 200, 8000],
        ["B2", "Remote hands", 1, unit_month, 2000, 2000],
    ], "TCO": [
        ["Amortisation period", "36 months"],
        [tco, 1.30],
    ]})
    (offer,) = _offers(path, {"EUR": 1.0})
    f = offer.fields
    assert f.offer_kind == "purchase"
    assert f.capex_usd == pytest.approx(1_020_000)
    assert f.opex_usd_per_month == pytest.approx(2000)
    assert f.colocation_usd_per_kw_month == pytest.approx(200)
    effective = (1_020_000 / 36 + 8000 + 2000) / (32 * 730)
    assert f.price_usd_per_gpu_hour == pytest.approx(effective)


@pytest.mark.parametrize("total_label", ["TOTAL (USD)", "Total", "I alt"])
def test_a_purchase_capex_is_the_quotes_total_after_its_discount_row(
        tmp_path: Any, total_label: str) -> None:
    path = _workbook(tmp_path / "bom.xlsx", {"Quote": [
        ["Example Systems LLC — quotation, prices in USD"],
        ["Item", "Description", "Qty", "Unit price", "Ext. price"],
        [1, "GPU server 8x AMD Instinct MI300X", 2, 250000, 500000],
        [2, "400G switch", 1, 50000, 50000],
        [None, "Hardware subtotal", None, None, 550000],
        [None, "Less: discount 10% on items 1-2", None, None, -55000],
        [3, "Freight", 1, 5000, 5000],
        [],
        [None, None, None, total_label, 500000],
    ]})
    (offer,) = _offers(path, {})
    assert offer.fields.capex_usd == pytest.approx(500000)


@pytest.mark.parametrize(("suffix", "text"), [
    (".yaml", "provider: Example Cloud Inc.\nhardware:\n  accelerator: NVIDIA H100 SXM 80GB\n"
              "  nodes: 4\n  per_node:\n    gpus: 8\nmoney:\n  price: 24.00 USD per node-hour\n"),
    (".json", '{"provider": "Example Cloud Inc.", "hardware": {"accelerator": "NVIDIA H100 SXM '
              '80GB", "servers": 4, "each_server": {"accelerators": 8}}, "price": "EUR 24,00 '
              'pro Knoten und Stunde"}'),
])
def test_a_per_node_price_is_divided_by_the_gpus_per_node_stated_in_a_nested_key(
        tmp_path: Any, suffix: str, text: str) -> None:
    path = tmp_path / f"notes{suffix}"
    path.write_text(text, encoding="utf-8")
    (offer,) = _offers(path, {"EUR": 1.0})
    assert offer.fields.gpus_per_node == 8
    assert offer.fields.gpu_count == 32
    assert offer.fields.price_usd_per_gpu_hour == pytest.approx(3.0)


@pytest.mark.parametrize("label", ["Annual commitment", "Jahresverpflichtung"])
def test_an_annual_commitment_with_no_rate_prices_all_gpus_for_a_year(
        tmp_path: Any, label: str) -> None:
    path = _workbook(tmp_path / "commit.xlsx", {"Offer": [
        ["Vendor", "Example Cloud"],
        ["Accelerator", "NVIDIA H100 SXM 80GB"],
        ["GPUs", 128],
        ["Term", "3 years"],
        ["Effective rate", "—"],
        [label, "USD 2,242,560"],
    ]})
    (offer,) = _offers(path, {})
    assert offer.fields.price_usd_per_gpu_hour == pytest.approx(2_242_560 / 128 / 8760)
    assert offer.fields.min_commit_usd == pytest.approx(3 * 2_242_560)


@pytest.mark.parametrize(("note", "months"), [
    ("• Colocation-aftalen løber 60 måneder; afskrivningsperiode til sammenligning: 60 måneder.",
     60),
    ("Hosting runs for the full term; amortisation period for comparison: 48 months.", 48),
])
def test_an_amortisation_period_stated_in_a_note_is_read(
        tmp_path: Any, note: str, months: int) -> None:
    path = _workbook(tmp_path / "buy.xlsx", {"Quote": [
        ["Example Datacenter A/S — all prices in EUR"],
        ["Pos.", "Description", "Qty", "Unit", "Unit price", "Total"],
        ["A1", "GPU server 8x NVIDIA H100 SXM 80GB", 2, "pcs", 250000, 500000],
        [None, None, None, "Hardware total", None, 500000],
        [],
        ["B1", "Remote hands", 1, "month", 1000, 1000],
        [],
        [note],
    ]})
    (offer,) = _offers(path, {"EUR": 1.0})
    f = offer.fields
    assert f.amortization_months == months
    assert f.opex_usd_per_month == pytest.approx(1000)
    assert f.price_usd_per_gpu_hour == pytest.approx((500000 / months + 1000) / (16 * 730))


def test_a_purchase_price_resting_on_an_assumed_amortisation_is_warned(tmp_path: Any) -> None:
    from evaltool.normalize.core import normalize_files

    path = _workbook(tmp_path / "buy.xlsx", {"Quote": [
        ["Example Systems LLC — prices in USD"],
        ["Item", "Description", "Qty", "Unit price", "Ext. price"],
        [1, "GPU server 8x NVIDIA H100 SXM 80GB", 2, 250000, 500000],
    ]})
    (offer,) = normalize_files([path], {}).offers
    assert any(w.get("field") == "price_usd_per_gpu_hour"
               and w.get("code") == "price-over-assumed-months" for w in offer.warnings)


@pytest.mark.parametrize("title", ["Nabídka v1 (neplatná)", "Tilbud v1 — forældet",
                                   "Proposta v1 (substituída)"])
def test_a_sheet_marked_superseded_in_another_language_is_skipped(
        tmp_path: Any, title: str) -> None:
    path = _workbook(tmp_path / "q.xlsx", {"Old": [
        [title],
        ["Accelerator", "NVIDIA A100 SXM4 80GB"], ["GPUs", 192], ["Price", "USD 9 per GPU-hour"],
    ], "Current": [
        ["Vendor", "Example DC"],
        ["Accelerator", "NVIDIA A100 SXM4 80GB"], ["GPUs", 128], ["Price", "USD 2 per GPU-hour"],
    ]})
    (offer,) = _offers(path, {})
    assert offer.fields.gpu_count == 128 and offer.fields.price_usd_per_gpu_hour == 2.0


@pytest.mark.parametrize(("currency", "unit_amount", "fx", "want"), [
    ("eur", 310, {"EUR": 1.0}, 3.10),     # cents
    ("gbp", 289, {"GBP": 1.0}, 2.89),     # pence
    ("jpy", 450, {"JPY": 0.01}, 4.50),    # no minor unit: 450 yen
])
def test_a_billing_api_export_states_its_amounts_in_the_minor_unit(
        tmp_path: Any, currency: str, unit_amount: int, fx: dict[str, float],
        want: float) -> None:
    import json

    quote = {"object": "quote", "currency": currency,
             "account": {"name": "Example Cloud Ltd"},
             "line_items": {"object": "list", "data": [{
                 "object": "item", "description": "GPU-hour NVIDIA H100 SXM 80GB",
                 "quantity": 8, "amount_subtotal": unit_amount * 8, "currency": currency,
                 "price": {"object": "price", "currency": currency,
                           "unit_amount": unit_amount,
                           "recurring": {"interval": "hour", "interval_count": 1}}}]}}
    path = tmp_path / "quote.json"
    path.write_text(json.dumps(quote), encoding="utf-8")
    (offer,) = _offers(path, fx)
    assert offer.fields.price_usd_per_gpu_hour == pytest.approx(want)


def test_amounts_of_a_plain_document_are_in_the_major_unit(tmp_path: Any) -> None:
    import json

    doc = {"vendor": "Example Cloud", "currency": "EUR", "items": [
        {"description": "GPU-hour NVIDIA H100 SXM 80GB", "quantity": 8, "unit_price": 3.10,
         "amount_subtotal": 24.80, "unit": "GPU-hour"}]}
    path = tmp_path / "quote.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    (offer,) = _offers(path, {"EUR": 1.0})
    assert offer.fields.price_usd_per_gpu_hour == pytest.approx(3.10)


@pytest.mark.parametrize(("answer", "label"), [
    ("None - billed monthly in arrears", "Upfront payment"),
    ("Keine (monatliche Abrechnung)", "Anzahlung"),
    ("Nenhum – faturação mensal", "Adiantamento"),
])
def test_an_upfront_answered_none_with_a_reason_is_zero(
        tmp_path: Any, answer: str, label: str) -> None:
    path = _workbook(tmp_path / "q.xlsx", {"Offer": [
        ["Vendor", "Example Cloud"], ["Accelerator", "NVIDIA H100 SXM 80GB"], ["GPUs", 64],
        ["Price", "USD 2.10 per GPU-hour"], [label, answer],
    ]})
    (offer,) = _offers(path, {})
    assert offer.fields.upfront_usd == 0


@pytest.mark.parametrize(("header", "setup", "egress"), [
    (["Pos.", "Beschreibung", "Menge", "Einheit", "Einzelpreis", "Gesamt"],
     "Einrichtung und Abnahmetest (einmalig)", "Datenverkehr ausgehend"),
    (["Lp.", "Opis", "Ilość", "J.m.", "Cena jedn.", "Wartość"],
     "Instalacja i uruchomienie klastra", "Transfer danych wychodzących"),
])
def test_a_rentals_one_off_setup_line_is_its_upfront_and_a_free_egress_line_is_zero(
        tmp_path: Any, header: list[str], setup: str, egress: str) -> None:
    path = _workbook(tmp_path / "q.xlsx", {"Angebot": [
        ["Example Compute GmbH — alle Preise in EUR"],
        header,
        [1, "GPU-Knoten 8x NVIDIA H200 SXM", 4, "Knoten/Monat", 29200, 116800],
        [2, setup, 1, "", 24000, 24000],
        [3, egress, "—", "", "0,00", "0,00"],
    ]})
    (offer,) = _offers(path, {"EUR": 1.0})
    f = offer.fields
    assert f.upfront_usd == pytest.approx(24000)
    assert f.egress_usd_per_gb == 0
    assert f.price_usd_per_gpu_hour == pytest.approx(29200 / 8 / 730)
    assert f.capex_usd is None


@pytest.mark.parametrize(("suffix", "text"), [
    (".yaml", "vendor: Example Cloud\naccelerator: NVIDIA H100 SXM 80GB\ngpus: 64\n"
              "price: USD 2.10 per GPU-hour\nupfront: No upfront\n"
              "managed_lustre_1pib: $140.00 per TiB-month\n"),
    (".json", '{"vendor": "Example Cloud", "accelerator": "NVIDIA H100 SXM 80GB", "gpus": 64, '
              '"price": "USD 2.10 per GPU-hour", "anzahlung": "keine Anzahlung", '
              '"weka_tier": "USD 0.14 per GiB-month"}'),
])
def test_a_price_whose_basis_is_per_tb_month_is_storage_whatever_its_label(
        tmp_path: Any, suffix: str, text: str) -> None:
    path = tmp_path / f"offer{suffix}"
    path.write_text(text, encoding="utf-8")
    (offer,) = _offers(path, {})
    f = offer.fields
    assert f.upfront_usd == 0
    assert f.storage_usd_per_tb_month is not None and f.storage_usd_per_tb_month > 100


def test_a_price_below_one_is_never_read_with_a_thousands_point(tmp_path: Any) -> None:
    path = _workbook(tmp_path / "q.xlsx", {"Offer": [
        ["Vendor", "Example Cloud"], ["Accelerator", "NVIDIA H100 SXM 80GB"], ["GPUs", 64],
        ["Price", "EUR 2,10 per GPU-hour"], ["Local NVMe", "30,72 TB"],
        ["Egress", "€0.087 per GB"],
    ]})
    (offer,) = _offers(path, {"EUR": 1.0})
    assert offer.fields.egress_usd_per_gb == pytest.approx(0.087)


@pytest.mark.parametrize(("price", "note"), [
    ("£2.10 per GPU-hour", "Capacity guaranteed. Minimum commitment £500,000.00"),
    ("£2,10 pro GPU-Stunde", "Mindestabnahme 500.000 £ über die Laufzeit"),
])
def test_a_minimum_commitment_in_a_rows_notes_column_is_read(
        tmp_path: Any, price: str, note: str) -> None:
    path = _workbook(tmp_path / "q.xlsx", {"Offer": [
        ["Field", "Value", "Notes"],
        ["Vendor", "Example Compute Ltd", None],
        ["Accelerator", "NVIDIA H100 SXM 80GB", None],
        ["GPUs", 96, None],
        ["Price", price, note],
    ]})
    (offer,) = _offers(path, {"GBP": 1.0})
    assert offer.fields.min_commit_usd == pytest.approx(500_000)


@pytest.mark.parametrize(("suffix", "text"), [
    (".json", '{"vendor": "Example Cloud", "currency": "USD", "items": ['
              '{"description": "Cluster: 2 nodes x 8 NVIDIA H100 SXM 80GB", "quantity": 16, '
              '"unit_price": 2.50, "unit": "GPU-hour"}, '
              '{"description": "Inference: 4 x NVIDIA L40S 48GB", "quantity": 4, '
              '"unit_price": 0.90, "unit": "GPU-hour"}]}'),
    (".yaml", "fornecedor: Exemplo Cloud, S.A.\ncurrency: EUR\nlinhas:\n"
              "  - descrição: Nó dedicado 8 × NVIDIA H200 NVL 141GB\n    quantidade: 8\n"
              "    unidade: GPU-hora\n    preço unitário: 2.50\n"
              "  - descrição: Nó dedicado 8 × NVIDIA H100 PCIe 80GB\n    quantidade: 8\n"
              "    unidade: GPU-hora\n    preço unitário: 0.90\n"),
])
def test_lines_that_price_different_accelerators_are_one_offer_each(
        tmp_path: Any, suffix: str, text: str) -> None:
    path = tmp_path / f"quote{suffix}"
    path.write_text(text, encoding="utf-8")
    offers = _offers(path, {"EUR": 1.0})
    prices = sorted(o.fields.price_usd_per_gpu_hour for o in offers)
    assert prices == [pytest.approx(0.90), pytest.approx(2.50)]
    assert len({o.fields.accelerator for o in offers}) == 2


def test_facts_nested_in_a_priced_line_belong_to_that_lines_offer(tmp_path: Any) -> None:
    import json

    def line(desc: str, gpus: int, nodes: int, cents: int) -> dict[str, Any]:
        return {"object": "item", "description": desc, "quantity": gpus * nodes,
                "currency": "eur",
                "price": {"object": "price", "currency": "eur", "unit_amount": cents,
                          "recurring": {"interval": "hour"},
                          "product": {"name": "GPU-hora", "metadata": {
                              "gpus_per_node": str(gpus), "nodes": str(nodes)}}}}

    quote = {"object": "quote", "currency": "eur", "account": {"name": "Exemplo Cloud, S.A."},
             "line_items": {"object": "list", "data": [
                 line("Cluster - 2 nós × 8 NVIDIA H100 PCIe 80GB", 8, 2, 245),
                 line("Nó - 1 nó × 4 NVIDIA L40S 48GB", 4, 1, 95)]}}
    path = tmp_path / "quote.json"
    path.write_text(json.dumps(quote), encoding="utf-8")
    offers = {o.fields.accelerator: o.fields for o in _offers(path, {"EUR": 1.0})}
    assert offers["H100-PCIe"].node_count == 2 and offers["H100-PCIe"].gpus_per_node == 8
    assert offers["L40S"].node_count == 1 and offers["L40S"].gpus_per_node == 4
    assert offers["L40S"].price_usd_per_gpu_hour == pytest.approx(0.95)


@pytest.mark.parametrize(("rows", "gpus", "per_node", "price"), [
    ([["Proveedor", "Ejemplo Nube S.L."], ["Servicio", "24 instancias de 2 x NVIDIA L40S 48GB"],
      ["Precio", "1.985,00 EUR por instancia / mes"]], 48, 2, 1985 / 2 / 730),
    ([["Anbieter", "Beispiel GmbH"], ["Leistung", "6 Server mit je 4 × NVIDIA H100 SXM 80GB"],
      ["Preis", "EUR 31,20 pro Server und Stunde"]], 24, 4, 31.20 / 4),
    ([["Vendor", "Example Cloud"], ["Description", "16 x 8-GPU HGX H200 servers"],
      ["Rate", "USD 26.40 per server-hour"]], 128, 8, 26.40 / 8),
    ([["Vendor", "Example Cloud"], ["Accelerator", "NVIDIA B200"],
      ["Footprint", "32 nodes x 8 GPUs"], ["Price", "USD 3.45 per GPU-hour"]], 256, 8, 3.45),
    ([["Dostawca", "Przykład sp. z o.o."], ["Akcelerator", "NVIDIA H200 SXM"],
      ["Przedmiot oferty: 16 × 8-GPU serwerów HGX, Warszawa."],
      ["Cena", "EUR 20,00 za serwer za godzinę"]],
     128, 8, 20.0 / 8),
])
def test_a_per_node_price_finds_the_gpus_of_a_node_in_the_offers_description(
        tmp_path: Any, rows: list[list[Any]], gpus: int, per_node: int, price: float) -> None:
    from evaltool.normalize.core import normalize_files

    path = _workbook(tmp_path / "q.xlsx", {"Offer": rows})
    (offer,) = normalize_files([path], {"EUR": 1.0}).offers
    f = offer.fields
    assert (f.gpu_count, f.gpus_per_node) == (gpus, per_node)
    assert f.price_usd_per_gpu_hour == pytest.approx(price)


@pytest.mark.parametrize("phrases", [
    ["2 nodes with 16 x NVIDIA H100 SXM 80GB in total"],   # the offer's GPUs, not a node's
    ["Cluster of 64 x NVIDIA H100 SXM 80GB"],               # no node named
    ["2 nodes, 16 x NVIDIA H100 SXM 80GB"],                 # a list, not "nodes with"
    ["4 x 8-GPU servers", "16 servers with 4 x NVIDIA L40S"],  # two readings disagree
])
def test_a_count_that_is_not_one_nodes_is_never_taken_as_gpus_per_node(
        phrases: list[str]) -> None:
    from evaltool.normalize.unit_counts import gpus_per_unit

    assert gpus_per_unit(phrases) is None


@pytest.mark.parametrize(("header", "support", "unit"), [
    (["Concepto", "Cantidad", "Unidad", "Precio unitario", "Importe"],
     "Soporte Premium 24×7 (respuesta en 2 h)", "mes"),
    (["Opis", "Ilość", "J.m.", "Cena jedn.", "Wartość"], "Wsparcie techniczne 24/7", "mies."),
])
def test_a_monthly_support_line_in_any_language_is_the_support_fee(
        tmp_path: Any, header: list[str], support: str, unit: str) -> None:
    path = _workbook(tmp_path / "q.xlsx", {"Oferta": [
        ["Ejemplo Cómputo, S.L. — precios en EUR"],
        header,
        ["Nodo 8x NVIDIA H100 SXM 80GB", 4, "nodo/mes", 18000, 72000],
        [support, 1, unit, 4500, 4500],
    ]})
    (offer,) = _offers(path, {"EUR": 1.0})
    assert offer.fields.support_usd_per_month == pytest.approx(4500)
    assert offer.fields.price_usd_per_gpu_hour == pytest.approx(18000 / 8 / 730)


@pytest.mark.parametrize(("line", "kw"), [
    ("• Estimated max power draw 10.4 kW per server at full load.", 10.4),
    ("• Strømforbrug ca. 15 kW pr. server ved fuld last; strøm over 30 kW pr. rack afregnes "
     "separat.", 15.0),
    ("Leistungsaufnahme ca. 12,5 kW pro Server unter Volllast.", 12.5),
])
def test_the_power_one_node_draws_is_read_from_a_note(
        tmp_path: Any, line: str, kw: float) -> None:
    path = _workbook(tmp_path / "buy.xlsx", {"Quote": [
        ["Example Systems — prices in EUR"],
        ["Item", "Description", "Qty", "Unit price", "Ext. price"],
        [1, "GPU server 8x NVIDIA H100 SXM 80GB", 2, 250000, 500000],
        [],
        [line],
    ]})
    (offer,) = _offers(path, {"EUR": 1.0})
    assert offer.fields.power_kw_per_node == pytest.approx(kw)


@pytest.mark.parametrize("label", ["Maks. pobór mocy", "Strømforbrug", "消費電力"])
def test_a_power_label_in_another_language_is_the_power_per_node(
        tmp_path: Any, label: str) -> None:
    path = _workbook(tmp_path / "q.xlsx", {"Offer": [
        ["Vendor", "Example Systems"], ["Accelerator", "NVIDIA H100 SXM 80GB"], ["Nodes", 2],
        ["GPUs per node", 8], ["Capex", "EUR 500,000"], [label, "14,3 kW"],
    ]})
    (offer,) = _offers(path, {"EUR": 1.0})
    assert offer.fields.power_kw_per_node == pytest.approx(14.3)


@pytest.mark.parametrize(("header", "line"), [
    (["Description", "Qty", "Unit", "Unit price", "Total"],
     ["Compute block 8x NVIDIA H100 SXM 80GB", 4, "sprint", 42000, 168000]),
    (["Beschreibung", "Menge", "Einheit", "Einzelpreis", "Gesamt"],
     ["Rechenblock 8x NVIDIA H100 SXM 80GB", 4, "Abrechnungszyklus", 42000, 168000]),
])
def test_lines_with_an_unknown_billing_unit_are_not_a_quiet_purchase(
        tmp_path: Any, header: list[str], line: list[Any]) -> None:
    from evaltool.normalize.core import normalize_files

    path = _workbook(tmp_path / "q.xlsx", {"Quote": [
        ["Example Cloud GmbH — all prices in EUR"], header, line]})
    result = normalize_files([path], {"EUR": 1.0})
    for offer in result.offers:
        if offer.fields.offer_kind == "purchase":
            warned = {w.get("field") for w in offer.warnings}
            assert {"capex_usd", "offer_kind"} <= warned


@pytest.mark.parametrize(("words", "per_kw", "per_month", "combined"), [
    (["Réf.", "Désignation", "Qté", "PU HT", "Total HT", "Remarque"], "€ / kW / mois",
     "€ / mois", "Hébergement et services / mois"),
    (["Ref", "Description", "Qty", "Unit price", "Total", "Remarks"], "€ per kW per month",
     "€ per month", "Hosting and services per month"),
])
def test_a_remarks_column_gives_a_hosting_line_its_unit_and_a_combined_total_is_not_opex(
        tmp_path: Any, words: list[str], per_kw: str, per_month: str, combined: str) -> None:
    path = _workbook(tmp_path / "devis.xlsx", {"Devis": [
        ["Exemple Datacenters SAS — prix en euros HT"],
        words,
        ["A1", "GPU server 8x AMD Instinct MI300X 192GB", 8, 265000, 2120000, None],
        [],
        ["B1", "Colocation (2 x 40 kW)", 80, 195, 15600, per_kw],
        ["B2", "Remote hands", 1, 2400, 2400, per_month],
    ], "TCO": [
        ["Amortisation period", "48 months"],
        [combined, 18000],
    ]})
    (offer,) = _offers(path, {"EUR": 1.0})
    f = offer.fields
    assert f.colocation_usd_per_kw_month == pytest.approx(195)
    assert f.opex_usd_per_month == pytest.approx(2400)
    assert f.price_usd_per_gpu_hour == pytest.approx((2_120_000 / 48 + 15600 + 2400) / (64 * 730))


@pytest.mark.parametrize(("notes", "opex", "kwh"), [
    (["Managed operations service (Slurm, monitoring), included: USD 18,500 per month.",
      "Power: 10.8 kW per node at full load; at your site's electricity rate of USD 0.11/kWh."],
     18500, 0.11),
    (["Betriebsführung (Monitoring, Patching): EUR 9.000,00 pro Monat.",
      "Strompreis am Standort: 0,21 €/kWh."], 9000, 0.21),
])
def test_running_costs_stated_in_a_purchase_quotes_notes_are_read(
        tmp_path: Any, notes: list[str], opex: float, kwh: float) -> None:
    path = _workbook(tmp_path / "bom.xlsx", {"Quote": [
        ["Example Integration — quotation in USD"],
        ["Item", "Description", "Qty", "Unit price", "Ext. price"],
        [1, "GPU server 8x NVIDIA H100 SXM 80GB", 2, 250000, 500000],
        [],
        *[[n] for n in notes],
    ]})
    (offer,) = _offers(path, {"EUR": 1.0})
    assert offer.fields.opex_usd_per_month == pytest.approx(opex)
    assert offer.fields.power_usd_per_kwh == pytest.approx(kwh)


# ------------------------------------------------------------------ a price per node-hour only

_NODE_OFFER = ("vendor: Example Cloud\noffer_name: H100 nodes\noffer_kind: rent\n"
               "accelerator: H100-SXM\ngpu_count: 128\ngpus_per_node: {gpn}\n"
               "node_count: {nodes}\nterm_months: 1\n")


@pytest.mark.parametrize(("extra", "gpn", "per_gpu"), [
    # a clause heading stands before the sentence with the amount
    ("contract_text: |\n  1. Capacity. 16 nodes.\n  2. Price. USD 21.60 per node-hour, all-in"
     " (GPUs, CPUs, InfiniBand), billed monthly.\n", 8, 2.70),
    ("contract_text: |\n  Price. USD 12.00 per machine-hour, billed in arrears.\n", 4, 3.00),
    ("contract_text: |\n  Fees. Each server is charged at $21.60 per server hour.\n", 8, 2.70),
    ("contract_text: |\n  2. Entgelt: 21,60 EUR pro Knoten und Stunde, monatlich.\n"
     "currency: EUR\n", 8, 2.70 * 1.1),
    ("contract_text: |\n  3. Prix. 19,80 € par nœud et par heure, tout compris.\n", 8,
     19.80 / 8 * 1.1),
    # a free-text key of the buyer's YAML, and the price keys it may invent
    ("notes: All-in price USD 21.60 per instance-hour, 250 TB included.\n", 8, 2.70),
    ("description: Bare-metal nodes at USD 12.00 per host-hour all-in.\n", 4, 3.00),
    ("price_usd_per_node_hour: 21.6\n", 8, 2.70),
    ("price: USD 12.00 per server-hour\n", 4, 3.00),
    ("pricing:\n  per_machine_hour: 26.4\n  currency: USD\n", 8, 3.30),
    # the price word between the resource and the hour
    ("hourly_rate_per_server: 21.6 USD\n", 8, 2.70),
    ("commercials:\n  node_price_per_hour_usd: 12.0\n", 4, 3.00),
])
def test_a_price_per_node_hour_anywhere_in_a_yaml_offer_prices_it_per_gpu(
        tmp_path: Any, extra: str, gpn: int, per_gpu: float) -> None:
    path = tmp_path / "offer.yaml"
    path.write_text(_NODE_OFFER.format(gpn=gpn, nodes=128 // gpn) + extra, "utf-8")
    (offer,) = _offers(path, {"EUR": 1.1})
    assert offer.fields.price_usd_per_gpu_hour == pytest.approx(per_gpu)


@pytest.mark.parametrize("extra", [
    # a service credit per node-hour of downtime is not the price
    "contract_text: |\n  Service credits: USD 20 per node-hour of downtime below 99.5%.\n",
    # a storage or support fee per month is not a compute price
    "contract_text: |\n  Storage USD 30 per TB-month. Support USD 5,000 per month.\n",
    "notes: Refund of USD 15 per node-hour not delivered.\n",
])
def test_money_per_hour_that_is_not_the_price_leaves_the_offer_unpriced(
        tmp_path: Any, extra: str) -> None:
    from evaltool.normalize.core import normalize_files

    path = tmp_path / "offer.yaml"
    path.write_text(_NODE_OFFER.format(gpn=8, nodes=16) + extra, "utf-8")
    result = normalize_files([path], {})
    assert not result.offers
    assert result.not_evaluated


def test_a_price_read_from_text_says_so() -> None:
    assert is_registered("price-from-text")
