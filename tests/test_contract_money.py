"""Contract money is read from its parts, whatever the wording.

Five concepts a buyer's money or time depends on, each stated here in at least four wordings a
vendor might use (a formal contract clause, a sales e-mail, a terse term sheet and another
language): a prepaid block refunded by a schedule, a spend floor owed every month, a price
that steps up after month N, a cluster delivered in tranches, and a vendor's right to deliver
slower hardware. Each must give the same
figures; a sentence that only looks like one (an SLA credit, two products' prices, a total
over the term) must give none. The money of the decision follows (`compute_money`).
"""

from __future__ import annotations

import math

import builders
import pytest

from evaltool.clauses import extract_terms
from evaltool.clauses.leaving import earliest_exit_months, exit_fee, free_days, notice_days
from evaltool.clauses.schedules import (
    month_spans,
    periodic_floor,
    price_steps,
    refund_schedule,
    refund_whole_period_months,
    tranches,
)
from evaltool.estimate.money import compute_money, contract_terms
from evaltool.estimate.substitution import (
    named_accelerators,
    slowest_substitute,
    substitution_right,
    with_substitution,
)
from evaltool.estimate.tranches import finish_days, tranche_offsets, with_tranches
from evaltool.issues import is_registered
from evaltool.models import Estimates, Workload
from evaltool.normalize.core import normalize_files
from evaltool.report.flag_words import flag_sentence

WORKLOAD = Workload(name="30b", params_b=30, tokens_b=1000, cost_of_delay_usd_per_day=0)

# ------------------------------------------------------------------ months of the term


@pytest.mark.parametrize(("text", "first", "last"), [
    ("during months 1 to 3 of the Term", 1, 3),
    ("in months 1-2", 1, 2),
    ("during month 4 or month 5", 4, 5),
    ("(M1-M3)", 1, 3),
    ("for your first three months", 1, 3),
    ("in den ersten drei Monaten", 1, 3),
    ("les trois premiers mois", 1, 3),
    ("from the first day of month 4", 4, None),
    ("after month 3", 4, None),
    ("after the first three (3) months", 4, None),
    ("from the fourth month", 4, None),
    ("ab Monat 4", 4, None),
    ("à partir du mois 4", 4, None),
    ("on or before the last day of month 3", 1, 3),
    ("until the end of month 3", 1, 3),
    ("in month 6", 6, 6),
])
def test_a_span_of_months_is_read_from_its_words(text: str, first: float,
                                                 last: float | None) -> None:
    spans = month_spans(text)
    assert [(s.first, s.last) for s in spans] == [(first, last)]


@pytest.mark.parametrize(("text", "first", "last"), [
    ("in the second quarter", 4, 6),
    ("(Q2-Q4)", 4, 12),
    ("Year 2", 13, 24),
    ("the first 90 days", 1, 90 / (730 / 24)),
    ("after three (3) months", 4, None),
    ("+25% from M7 onwards", 7, None),
])
def test_a_span_counted_in_quarters_years_or_days_is_converted_to_months(
        text: str, first: float, last: float | None) -> None:
    spans = month_spans(text)
    assert len(spans) == 1
    assert spans[0].first == pytest.approx(first, rel=1e-3)
    assert spans[0].last == (None if last is None else pytest.approx(last, rel=1e-3))


def test_a_length_of_time_is_not_a_month_of_the_term() -> None:
    assert month_spans("Twelve (12) months from the Service Commencement Date") == []


# ------------------------------------------------------------------ a price that steps up

STEP_WORDINGS = [
    # formal
    "2. Fees. USD 1.70 per GPU-hour during months 1 to 3 of the Term (introductory rate) and "
    "USD 2.90 per GPU-hour from the first day of month 4 to the end of the Term.",
    # formal, one price a sentence, the month before the price
    "Launch price of USD 1.70 per GPU-hour during months 1 to 3 of the Term. From the first day "
    "of month 4 to the end of the Term the Fees are USD 2.90 per GPU-hour.",
    # sales
    "Great news: just $1.70/GPU-hr for your first three months, then $2.90/GPU-hr for the "
    "rest of the term!",
    # sales, the step as a rise
    "You pay USD 1.70 per GPU-hour, increasing to USD 2.90 per GPU-hour from the fourth month.",
    # term sheet
    "Price: $1.70/GPU-h (M1-M3); $2.90/GPU-h (M4-M12).",
    # until / after
    "The introductory rate of USD 1.70 per GPU-hour applies until the end of month 3; the rate "
    "steps up to USD 2.90 per GPU-hour after month 3.",
    # German
    "Entgelt: 1,70 USD pro GPU-Stunde in den ersten drei Monaten, ab Monat 4 2,90 USD pro "
    "GPU-Stunde.",
    # a table, one row a line
    "Pricing:\nMonths 1–3: $1.70 per GPU-hour\nMonths 4–12: $2.90 per GPU-hour",
]


@pytest.mark.parametrize("text", STEP_WORDINGS)
def test_a_price_that_steps_up_after_month_3_is_read_in_every_wording(text: str) -> None:
    assert price_steps(text) == ([(1.0, 1.70), (4.0, 2.90)], "USD")


@pytest.mark.parametrize(("text", "steps"), [
    ("Year 1: USD 2.00 per GPU-hour; Year 2: USD 2.20 per GPU-hour.", [(1, 2.00), (13, 2.20)]),
    ("Q1: $1.70/GPU-h; Q2-Q4: $2.90/GPU-h", [(1, 1.70), (4, 2.90)]),
    ("USD 1.70 per GPU-hour for the first 90 days, USD 2.90 per GPU-hour thereafter.",
     [(1, 1.70), (1 + 90 / (730 / 24), 2.90)]),
    ("USD 2.00 per GPU-hour; the rate increases by 25% from month 7.", [(1, 2.00), (7, 2.50)]),
    ("Rate: $2.00/GPU-h, +25% from M7 onwards", [(1, 2.00), (7, 2.50)]),
    ("Rate card: $1.70/GPU-hr (M1-M3), $2.90/GPU-hr (M4+)", [(1, 1.70), (4, 2.90)]),
    ("During the first quarter of the Term the rate is USD 1.70 per GPU-hour; it increases to "
     "USD 2.90 per GPU-hour at the start of the second quarter.", [(1, 1.70), (4, 2.90)]),
    ("Entgelt 2,00 USD pro GPU-Stunde; ab Monat 7 erhöht sich der Preis um 25 %.",
     [(1, 2.00), (7, 2.50)]),
])
def test_steps_by_year_quarter_day_or_a_percentage_are_read(text: str,
                                                            steps: list[tuple[float, float]]
                                                            ) -> None:
    found = price_steps(text)
    assert found is not None and found[1] == "USD"
    assert found[0] == [(pytest.approx(m), pytest.approx(p)) for m, p in steps]


@pytest.mark.parametrize("text", [
    "USD 2.00 per GPU-hour with a 25% discount in the first three months.",
    "USD 2.00 per GPU-hour. Storage capacity increases by 25% from month 7.",
    # a yearly escalator is read as one, not as a step
    "USD 2.00 per GPU-hour; the rate increases by 3% annually from month 13.",
    "USD 2.10 per GPU-hour for H100 and USD 3.50 per GPU-hour for H200.",
    "Reserved: USD 2.10 per GPU-hour for twelve (12) months; on demand USD 3.00 per GPU-hour.",
    "USD 2.10 per GPU-hour during months 1 to 12.",
])
def test_prices_not_tied_to_months_of_the_term_are_no_step(text: str) -> None:
    assert price_steps(text) is None


@pytest.mark.parametrize("text", STEP_WORDINGS[:1] + STEP_WORDINGS[4:5])
def test_a_stepped_price_bills_the_term_and_the_run_month_by_month(text: str) -> None:
    # 256 GPUs, 12 months: 3 at $1.70 and 9 at $2.90 ($5,830,656 for the term); a 120-day
    # run pays 91.25 days at $1.70 and 28.75 at $2.90.
    offer = builders.make_offer("step", gpu_count=256, price_usd_per_gpu_hour=1.70,
                                term_months=12, contract_text=text + "\n\nNon-cancellable.")
    terms, _ = contract_terms(offer)
    per_day = 256 * 24
    estimates = Estimates(total_cost_usd=per_day * 120 * 1.70, time_to_train_days=120.0)
    money = compute_money(offer.fields, estimates, terms, WORKLOAD)
    assert money.full_commitment_usd == pytest.approx(
        256 * 730 * (3 * 1.70 + 9 * 2.90), rel=1e-6)
    assert money.run_cost_usd == pytest.approx(per_day * (91.25 * 1.70 + 28.75 * 2.90),
                                               rel=1e-6)


# ------------------------------------------------------------------ prepaid refund schedules

TIERED_REFUND_WORDINGS = [
    # formal
    "2. Termination and refunds. Customer may terminate on fifteen (15) days' written notice. "
    "Provider shall refund the following share of the prepaid Fees attributable to the unused "
    "part of the Term (prorated by the day): fifty percent (50%) if termination takes effect in "
    "months 1-2; twenty-five percent (25%) in months 3-4; nothing in months 5-6.",
    # formal, listed tiers with the share after the months
    "3. Refund schedule. Provider shall refund the following share of the prepaid Fees for the "
    "part of the Term after termination: (a) termination effective on or before the last day "
    "of month 2: 50%; (b) termination effective during month 3 or month 4: 25%; (c) "
    "termination effective during month 5 or month 6: no refund.",
    # sales
    "Cancel in the first two months and we credit back 50% of your unused prepaid balance; "
    "months 3-4 get 25% back; after that, no refund.",
    # term sheet
    "Refund of unused prepayment: M1-M2 50%; M3-M4 25%; M5-M6 0%.",
    # German
    "Bei Kündigung in den Monaten 1 bis 2 erstatten wir 50 % der ungenutzten Vorauszahlung; "
    "in den Monaten 3 bis 4 25 %; danach keine Erstattung.",
    # a table, one row a line
    "Refund of unused prepaid fees by month of cancellation:\nMonths 1-2: 50%\n"
    "Months 3-4: 25%\nMonths 5-6: 0%",
]


def _refund_share(schedule: list[tuple[float, float]], month: int) -> float:
    return next((pct for last, pct in schedule if month <= last), 0.0)


@pytest.mark.parametrize("text", TIERED_REFUND_WORDINGS)
def test_a_refund_schedule_of_a_prepaid_block_is_read_in_every_wording(text: str) -> None:
    schedule = refund_schedule(text)
    assert schedule is not None
    assert [_refund_share(schedule, m) for m in range(1, 8)] == [50, 50, 25, 25, 0, 0, 0]


@pytest.mark.parametrize(("text", "schedule"), [
    ("Refund of unused prepayment: 90% if cancelled in Q1, 50% in Q2, nothing after.",
     [(3, 90), (6, 50), (math.inf, 0)]),
    ("We refund 90% of the unused prepaid fees if you cancel within the first 45 days; 50% "
     "until day 90; none after that.", [(45 / (730 / 24), 90), (90 / (730 / 24), 50),
                                        (math.inf, 0)]),
    ("Refunds of the prepaid fees: 90% in months 1-3. 50% in months 4-5. None thereafter.",
     [(3, 90), (5, 50), (math.inf, 0)]),
    ("If Customer terminates for convenience, Provider repays 50% of the unexpired prepaid "
     "Fees if termination is effective within the first two months; 25% if within months "
     "three and four; thereafter no repayment.", [(2, 50), (4, 25), (math.inf, 0)]),
])
def test_refund_tiers_by_quarter_day_or_in_separate_sentences_are_read(
        text: str, schedule: list[tuple[float, float]]) -> None:
    assert refund_schedule(text) == [(pytest.approx(m), p) for m, p in schedule]


@pytest.mark.parametrize("text", [
    "Osprey shall refund ninety percent (90%) of the prepaid Fees attributable to the "
    "remainder of the Term, prorated by the day.",
    "Leave whenever you like: we return 90% of whatever prepaid balance is unused.",
    "Refund on exit: 90% of unused prepayment.",
    "Bei Kündigung erstatten wir 90 % der ungenutzten Vorauszahlung.",
    "En cas de résiliation, nous remboursons 90 % du montant prépayé non utilisé.",
])
def test_one_refund_share_applies_whenever_the_exit_takes_effect(text: str) -> None:
    assert refund_schedule(text) == [(math.inf, 90.0)]


@pytest.mark.parametrize("text", [
    "Customer may cancel for a full refund of the prepaid Fees if delivery is more than 14 "
    "days late.",
    "Credits of 10% of the monthly Fees if availability falls below 99.5%.",
    "The prepaid Fees are non-refundable.",
])
def test_a_remedy_or_a_credit_is_not_a_refund_schedule(text: str) -> None:
    assert refund_schedule(text) is None


def test_a_refunded_share_is_never_read_as_a_termination_fee() -> None:
    text = ("Customer may terminate at any time on thirty (30) days' written notice. Within 15 "
            "days of the effective date of termination Osprey shall refund ninety percent (90%) "
            "of the prepaid Fees attributable to the remainder of the Term, prorated by the "
            "day. No other fee applies.")
    assert extract_terms(text).termination_fee_pct_of_remaining is None
    offer = builders.make_offer("osprey", gpu_count=128, price_usd_per_gpu_hour=2.0,
                                term_months=3, upfront_usd=560_640.0, contract_text=text)
    terms, _ = contract_terms(offer)
    assert terms.termination_fee_pct_of_remaining is None


@pytest.mark.parametrize(("text", "share"), [
    (TIERED_REFUND_WORDINGS[0], 0.50),
    ("Cancellation: permitted at any time with 15 days' notice.\n\n" + TIERED_REFUND_WORDINGS[-1],
     0.50),
    (TIERED_REFUND_WORDINGS[2] + " Customer may terminate at any time on 15 days' notice.",
     0.50),
    ("Customer may terminate at any time on 15 days' notice; 90% of the unused prepaid Fees "
     "are refunded.", 0.90),
])
def test_leaving_a_prepaid_block_early_costs_what_the_schedule_keeps(text: str,
                                                                     share: float) -> None:
    # 128 GPUs at $1.60 prepaid for 6 months ($897,024); a 40-day run ends in month 2.
    prepaid = 128 * 730 * 6 * 1.60
    offer = builders.make_offer("prepaid", gpu_count=128, price_usd_per_gpu_hour=1.60,
                                term_months=6, upfront_usd=prepaid, contract_text=text)
    terms, _ = contract_terms(offer)
    used = 128 * 24 * 40 * 1.60
    estimates = Estimates(total_cost_usd=used, time_to_train_days=40.0)
    money = compute_money(offer.fields, estimates, terms, WORKLOAD)
    assert money.minimum_cash_to_sign_usd == pytest.approx(
        prepaid - share * (prepaid - used), rel=1e-6)
    assert money.full_commitment_usd == pytest.approx(prepaid)


# A refund counted in whole periods not yet started, by the day, or of the unused balance;
# a share the vendor keeps beside it is not a second refund.
REFUND_PERIOD_WORDINGS = [
    # formal, whole months not started, the kept share in the next sentence
    ("4. Early exit. Customer may terminate on thirty (30) days' notice, effective at the end "
     "of a billing month. Provider shall refund eighty percent (80%) of the prepaid Fees for "
     "every full calendar month that has not yet started on the effective date. The other "
     "twenty percent (20%) is kept as a cancellation charge.", [(math.inf, 80.0)], 1.0),
    # term sheet, per unstarted quarter
    ("Refund per unstarted quarter: 75% of that quarter's prepaid fees.",
     [(math.inf, 75.0)], 3.0),
    # sales, per unused month
    ("Walk away any time: for each unused month of your prepaid block we pay back 70% of "
     "what you prepaid for it.", [(math.inf, 70.0)], 1.0),
    # pro rata: by the day, whatever else it says
    ("Provider refunds 70% of the unused prepaid balance, prorated by the day, for each month "
     "remaining.", [(math.inf, 70.0)], None),
    # pro rata, but only for whole months not yet started
    ("Provider refunds, pro rata, 75% of the prepaid Fees for each full month not yet started "
     "when termination takes effect.", [(math.inf, 75.0)], 1.0),
    # the month in progress kept, each later one refunded
    ("Prepaid fees: if you cancel, we return 80% of the prepaid amount for each remaining "
     "month; the month in progress is not refunded.", [(math.inf, 80.0)], 1.0),
    # Spanish, each whole month not started
    ("El proveedor reembolsará el 80 % de las cuotas prepagadas de cada mes completo no "
     "iniciado.", [(math.inf, 80.0)], 1.0),
    # a share of the unused balance, no period
    ("On early termination, 60 percent of the remaining prepaid balance is refunded.",
     [(math.inf, 60.0)], None),
    # a table: tiers by exit month, each unused month refunded whole
    ("Refund of prepaid fees per unused month, by month of termination:\n"
     "| Termination effective | Refund |\n| Months 1-2 | 90% |\n| Months 3-4 | 50% |\n"
     "| Months 5-6 | 0% |", [(2, 90.0), (4, 50.0), (6, 0.0), (math.inf, 0.0)], 1.0),
    # German: whole months not begun, the rest kept
    ("Bei Kündigung erstattet der Anbieter 80 % der Vorauszahlung für jeden vollen, noch nicht "
     "begonnenen Monat; 20 % werden als Bearbeitungsgebühr einbehalten.", [(math.inf, 80.0)],
     1.0),
    # French: each whole month not started, the rest kept
    ("En cas de résiliation, le fournisseur rembourse 85 % des frais prépayés de chaque mois "
     "entier non commencé ; les 15 % restants sont conservés à titre de frais de résiliation.",
     [(math.inf, 85.0)], 1.0),
]


@pytest.mark.parametrize("text", [
    "15% of the prepaid Fees for the remaining months is retained as a cancellation charge and "
    "the rest is refunded.",
    "On termination the prepaid Fees for the remaining months are refunded less a cancellation "
    "charge of 15%.",
    "Die Vorauszahlung für die restlichen Monate wird abzüglich 15 % erstattet.",
    "En cas de résiliation, le solde prépayé non utilisé est remboursé, moins 15 %.",
])
def test_a_share_kept_and_the_rest_refunded_refunds_the_complement(text: str) -> None:
    # never the kept 15% read as the share given back
    assert refund_schedule(text) == [(math.inf, 85.0)]


@pytest.mark.parametrize(("text", "schedule", "period"), REFUND_PERIOD_WORDINGS)
def test_a_refund_of_whole_unstarted_periods_or_by_the_day_is_read_in_every_wording(
        text: str, schedule: list[tuple[float, float]], period: float | None) -> None:
    assert refund_schedule(text) == schedule
    assert refund_whole_period_months(text) == period


@pytest.mark.parametrize("text", [
    # a refund only the vendor's failure opens
    "Customer may cancel and receive a full refund of the prepaid Fees for each whole month "
    "if delivery is more than 14 days late.",
    # nothing given back; a share kept is no refund
    "Unused prepaid credits expire at the end of the term and are not refunded; 15% of the "
    "fees are retained as a setup charge.",
    "The prepaid Fees for each whole month are non-refundable.",
    # an SLA credit counted per full month
    "Service credits of 10% of the monthly fees for each full month below 99.5% availability.",
    # a share kept with no share given back
    "Bei Kündigung werden 15 % der Vorauszahlung einbehalten.",
])
def test_a_kept_share_a_remedy_or_a_credit_is_no_refund_of_whole_periods(text: str) -> None:
    assert refund_schedule(text) is None


@pytest.mark.parametrize(("text", "months_kept"), [
    # 85% of each whole month not started: a 40-day run + notice ends in month 2, kept whole
    (REFUND_PERIOD_WORDINGS[0][0], 2.0),
    # per unstarted quarter: month 2 is in the first quarter, kept whole
    (REFUND_PERIOD_WORDINGS[1][0], 3.0),
    # by the day: only the 40 days held are kept
    (REFUND_PERIOD_WORDINGS[3][0], 40 / (730 / 24)),
])
def test_leaving_a_prepaid_block_keeps_every_period_begun_when_only_whole_ones_are_refunded(
        text: str, months_kept: float) -> None:
    prepaid = 128 * 730 * 6 * 1.90
    offer = builders.make_offer("prepaid", gpu_count=128, price_usd_per_gpu_hour=1.90,
                                term_months=6, upfront_usd=prepaid,
                                contract_text="Customer may terminate at any time on thirty "
                                "(30) days' notice.\n\n" + text)
    terms, _ = contract_terms(offer)
    share = refund_schedule(text)[0][1] / 100  # type: ignore[index]
    estimates = Estimates(total_cost_usd=128 * 24 * 40 * 1.90, time_to_train_days=40.0)
    money = compute_money(offer.fields, estimates, terms, WORKLOAD)
    kept = prepaid * months_kept / 6
    assert money.minimum_cash_to_sign_usd == pytest.approx(
        prepaid - share * (prepaid - kept), rel=1e-3)


# ------------------------------------------------------------------ spend floors per period

FLOOR_WORDINGS = [
    # formal
    "1. Commitment. Customer commits to a Minimum Monthly Spend of USD 25,000 in each of the "
    "twelve (12) consecutive months from the Effective Date (total commitment USD 300,000).",
    # formal, the period named as a period
    "Customer commits to a minimum spend of USD 25,000 per calendar-month period (730 hours) "
    "for twelve (12) periods from the Effective Date, USD 300,000 in total.",
    # formal, a phrase between the amount and the period
    "Customer commits to spend at least USD 25,000 on eligible services in each Commitment "
    "Month (USD 300,000 over the Commitment Term).",
    # sales
    "All you need to do is spend at least $25,000 every month for a year.",
    # term sheet
    "Spend floor: $25k/mo x 12; shortfall invoiced monthly.",
    # the period before the amount
    "Each month Customer pays the greater of (i) its actual usage charges and (ii) USD 25,000.",
    # German
    "Der Kunde verpflichtet sich zu einem monatlichen Mindestumsatz von 25 000 USD.",
    # French
    "Le client s'engage à une dépense minimum de 25 000 USD par mois pendant douze mois.",
]


@pytest.mark.parametrize("text", FLOOR_WORDINGS)
def test_a_spend_floor_owed_every_month_is_read_in_every_wording(text: str) -> None:
    assert periodic_floor(text) == (25_000.0, "USD", 1.0)


@pytest.mark.parametrize("text", [
    "Customer commits to a minimum spend of USD 1,800,000 over the Term.",
    "Customer commits to a minimum annual spend of USD 300,000.",
    "Fees are USD 2.05 per GPU-hour, billed monthly in arrears.",
    "Support: at least four named engineers, USD 5,000 per month.",
    "Storage charges: USD 4,500 per month minimum.",
])
def test_a_total_or_a_rate_is_not_a_floor_per_period(text: str) -> None:
    assert periodic_floor(text) is None


def test_a_monthly_floor_is_owed_every_month_a_busy_month_does_not_cover_an_idle_one() -> None:
    # 64 GPUs at $2.05: one busy month ($95,776) and eleven idle months at the $25,000 floor.
    text = FLOOR_WORDINGS[1] + " Non-cancellable."
    offer = builders.make_offer("floor", gpu_count=64, price_usd_per_gpu_hour=2.05,
                                term_months=12, min_commit_usd=300_000.0, contract_text=text)
    terms, _ = contract_terms(offer)
    assert terms.min_commit_per_period_usd == 25_000.0
    days = 730 / 24  # exactly one month of use
    run = 64 * 730 * 2.05
    estimates = Estimates(total_cost_usd=run, time_to_train_days=days)
    money = compute_money(offer.fields, estimates, terms, WORKLOAD)
    assert money.full_commitment_usd == pytest.approx(run + 11 * 25_000.0, rel=1e-3)
    assert money.minimum_cash_to_sign_usd == pytest.approx(run + 11 * 25_000.0, rel=1e-3)


# ------------------------------------------------------------------ delivery in tranches

TRANCHE_WORDINGS = [
    # formal
    "1. Capacity and delivery. 512 H100 SXM GPUs (64 nodes) delivered in two tranches: "
    "Tranche 1, 256 GPUs (32 nodes), by 7 December 2026; Tranche 2, 256 GPUs (32 nodes), "
    "targeted for 1 February 2027.",
    # formal, listed
    "Delivery schedule. Tranche 1: 256 GPUs (32 nodes), available on 7 December 2026; "
    "Tranche 2: the remaining 256 GPUs (32 nodes), available no later than 1 February 2027.",
    # sales
    "We'll hand over the first 256 GPUs on 7 December 2026 and the remaining 256 GPUs by "
    "1 February 2027.",
    # term sheet, nodes and ISO dates
    "Delivery: Phase 1 - 32 nodes - 2026-12-07; Phase 2 - 32 nodes - 2027-02-01.",
    # sales, a later part that only follows "on or about"
    "32 nodes will be available on 7 December 2026; an additional 32 nodes will follow on or "
    "about 1 February 2027.",
    # US dates, phases
    "Delivery will occur in two phases: 256 GPUs on December 7, 2026 and 256 GPUs on "
    "February 1, 2027.",
    # term sheet, abbreviated months
    "Initial delivery: 32 nodes (7 Dec 2026). Second delivery: 32 nodes (1 Feb 2027).",
    # German, German dates
    "Lieferung in zwei Teillieferungen: 256 GPUs am 7. Dezember 2026, die restlichen 256 "
    "GPUs am 1. Februar 2027.",
    # German (ISO dates)
    "Lieferung in zwei Teillieferungen: 256 GPUs am 2026-12-07, die restlichen 256 GPUs "
    "am 2027-02-01.",
]


@pytest.mark.parametrize("text", TRANCHE_WORDINGS)
def test_a_cluster_delivered_in_tranches_is_read_in_every_wording(text: str) -> None:
    found = tranches(text, gpus_per_node=8, gpu_count=512)
    assert found is not None
    assert [(t.gpus, t.date) for t in found] == [(256.0, "2026-12-07"), (256.0, "2027-02-01")]


def test_a_target_date_for_a_tranche_is_hedged_and_a_firm_one_is_not() -> None:
    found = tranches(TRANCHE_WORDINGS[0], gpus_per_node=8, gpu_count=512)
    assert found is not None and [t.hedged for t in found] == [False, True]


@pytest.mark.parametrize("text", [
    # two dates, but not two parts of the cluster
    "Delivery of all 512 GPUs by 7 December 2026; the quote is valid until 1 February 2027.",
    # parts that do not add up to the cluster quoted
    "Tranche 1, 128 GPUs, by 7 December 2026; Tranche 2, 128 GPUs, by 1 February 2027.",
    # a quote's validity is not a delivery
    "Delivery: 256 GPUs by 7 December 2026. Quote valid until 1 February 2027; 256 further "
    "GPUs are reserved for you until then.",
])
def test_dates_or_parts_that_are_not_a_delivery_schedule_are_no_tranches(text: str) -> None:
    assert tranches(text, gpus_per_node=8, gpu_count=512) is None


def test_the_run_waits_for_a_later_tranche_and_takes_longer() -> None:
    # 256 GPUs from day 0, 512 from day 56: 18,617 GPU-days of work (36.4 days on 512) take
    # 56 days on 256 (14,336) and 8.36 more on 512.
    offsets = tranche_offsets([(256.0, "2026-12-07", False), (256.0, "2027-02-01", False)])
    assert offsets == [(0.0, 256.0), (56.0, 256.0)]
    assert finish_days(offsets, 512, 512 * 36.3612) == pytest.approx(56 + (18617.0 - 14336)
                                                                      / 512, rel=1e-3)


def test_a_tranche_contract_stretches_the_run_and_bills_each_part_from_its_delivery() -> None:
    # Four months from tranche 1, non-cancellable, $2.10: 256 GPUs x 2,920 h + 256 x 1,576 h.
    text = TRANCHE_WORDINGS[0] + "\n\nTerm: four (4) months from Tranche 1. Non-cancellable."
    offer = builders.make_offer("phased", gpu_count=512, gpus_per_node=8, node_count=64,
                                price_usd_per_gpu_hour=2.10, term_months=4,
                                delivery_date="2026-12-07", contract_text=text)
    terms, flags = contract_terms(offer)
    assert [(f.code, f.severity) for f in flags] == [("delivery-in-tranches", "high")]
    assert is_registered("delivery-in-tranches")
    assert "(only a target date)" in (flag_sentence(flags[0].code, flags[0].figures) or "")
    workload = Workload(name="70b", params_b=70, tokens_b=1400, deadline_days=75,
                        cost_of_delay_usd_per_day=40_000)
    estimates = Estimates(total_cost_usd=938_292.0, time_to_train_days=36.3612, gpus_used=512,
                          days_to_trained_model=48.3612, cost_of_delay_usd=1_934_450.0)
    stretched = with_tranches(estimates, offer.fields, terms.delivery_tranches, workload)
    # Tranche 2 is only targeted: it counts with the expected slip of a hedged date (30 days,
    # day 86), by which time 256 GPUs alone have done the 18,617 GPU-days: 72.7 days.
    assert stretched.time_to_train_days == pytest.approx(512 * 36.3612 / 256, rel=1e-6)
    assert stretched.days_to_trained_model == pytest.approx(12 + 512 * 36.3612 / 256, rel=1e-6)
    assert stretched.deadline_met is False
    money = compute_money(offer.fields, stretched, terms, workload)
    assert money.full_commitment_usd == pytest.approx((256 * 2920 + 256 * 1576) * 2.10, rel=1e-3)


# ------------------------------------------------------------------ hardware substitution

SUBSTITUTION_WORDINGS = [
    # formal
    "3. Equipment. Provider may, at its discretion and at any time during the Term, provide or "
    "substitute equivalent or comparable accelerators, which may include NVIDIA A100 80GB, H100 "
    "PCIe or L40S systems, to meet capacity requirements.",
    # formal, sole discretion, a list in brackets
    "Provider may, in its sole discretion, supply equivalent accelerators (including NVIDIA H100 "
    "PCIe, A100 80GB or L40S) in place of some or all of the GPUs.",
    # sales
    "To keep you running we may swap in comparable hardware such as A100 80GB, H100 PCIe or "
    "L40S nodes whenever our fleet needs it.",
    # term sheet
    "Substitution: vendor may provide equivalent HW (A100 80GB / H100 PCIe / L40S).",
    # German
    "Der Anbieter kann nach eigenem Ermessen gleichwertige Beschleuniger bereitstellen, etwa "
    "A100 80GB, H100 PCIe oder L40S.",
]


@pytest.mark.parametrize("text", SUBSTITUTION_WORDINGS)
def test_a_vendor_right_to_substitute_slower_hardware_is_read_in_every_wording(
        text: str) -> None:
    assert substitution_right(text)
    assert sorted(named_accelerators(text, "H100-SXM")) == [
        "A100-SXM-80GB", "H100-PCIe", "L40S"]
    assert slowest_substitute("H100-SXM", named_accelerators(text, "H100-SXM"), "bf16") == (
        "A100-SXM-80GB", pytest.approx(312 / 989, rel=0.02))


@pytest.mark.parametrize("text", [
    "Basalt may substitute hardware only with Customer's prior written consent, and only with "
    "NVIDIA H100 SXM or H200 SXM GPUs on the same fabric.",
    "The hardware is as specified in Annex A and will not be changed during the Term without "
    "Customer's written consent.",
    "Provider shall not substitute other accelerators for the H100 SXM GPUs.",
])
def test_a_substitution_that_needs_consent_or_is_barred_is_no_right(text: str) -> None:
    assert not substitution_right(text)


def test_a_right_to_substitute_without_consent_is_still_a_right() -> None:
    assert substitution_right("Provider may substitute equivalent A100 80GB nodes without the "
                              "Customer's consent.")


def test_an_upgrade_only_substitution_puts_no_time_at_risk() -> None:
    text = ("Provider may replace nodes at its discretion with equivalent NVIDIA HGX H200 SXM "
            "141GB nodes.")
    assert substitution_right(text)
    assert slowest_substitute("H100-SXM", named_accelerators(text, "H100-SXM"), "bf16") is None


def test_the_run_is_timed_on_the_slowest_substitute_and_the_risk_is_flagged() -> None:
    offer = builders.make_offer("swap", accelerator="H100-SXM", gpu_count=256,
                                contract_text=SUBSTITUTION_WORDINGS[0])
    terms, flags = contract_terms(offer)
    assert [f.code for f in flags] == ["hardware-substitution"]
    assert is_registered("hardware-substitution")
    assert "A100-SXM-80GB" in (flag_sentence("hardware-substitution", flags[0].figures) or "")
    workload = Workload(name="20b", params_b=20, tokens_b=2000, deadline_days=60,
                        cost_of_delay_usd_per_day=20_000)
    estimates = Estimates(total_cost_usd=400_000.0, time_to_train_days=30.0, gpus_used=256,
                          days_to_trained_model=37.0, cost_of_delay_usd=740_000.0)
    risky = with_substitution(estimates, offer.fields, terms.substitute_accelerators, workload)
    peak = slowest_substitute("H100-SXM", ["A100-SXM-80GB"], "bf16")
    assert peak is not None
    added = 30.0 * (1 / peak[1] - 1)
    assert risky.days_to_trained_model == pytest.approx(37.0 + added)
    assert risky.deadline_met is False
    assert risky.total_cost_usd == 400_000.0  # the fees do not change


def test_a_right_that_names_no_hardware_is_flagged_and_not_counted() -> None:
    offer = builders.make_offer(
        "vague", accelerator="H100-SXM",
        contract_text="Provider may substitute equivalent or comparable accelerators.")
    terms, flags = contract_terms(offer)
    assert [(f.code, f.severity) for f in flags] == [("hardware-substitution", "medium")]
    estimates = Estimates(total_cost_usd=1.0, time_to_train_days=30.0)
    assert with_substitution(estimates, offer.fields, terms.substitute_accelerators,
                             WORKLOAD) == estimates


# ------------------------------------------------------------------ a price only in the contract

_QUOTE_WITHOUT_PRICE = """vendor: Brisk
offer_kind: rent
accelerator: H100-SXM
gpu_count: 256
gpus_per_node: {gpn}
currency: USD
contract_text: |
  {sentence} Term: month to month; Customer may terminate on thirty (30) days' notice.
"""


@pytest.mark.parametrize(("sentence", "gpn", "price"), [
    ("Price: USD 9.60 per node-hour, billed monthly in arrears.", 4, 2.40),
    ("The rate is $17.60 per node-hour for each 8-GPU server.", 8, 2.20),
    ("Each server is charged at USD 19.20 per server-hour, invoiced monthly.", 8, 2.40),
    ("Price: USD 2.30 per GPU-hour.", 8, 2.30),
])
def test_a_price_stated_only_in_the_contract_prices_the_offer(tmp_path, sentence: str, gpn: int,
                                                              price: float) -> None:
    path = tmp_path / "brisk.yaml"
    path.write_text(_QUOTE_WITHOUT_PRICE.format(gpn=gpn, sentence=sentence), encoding="utf-8")
    result = normalize_files([path])
    assert not result.not_evaluated
    assert result.offers[0].fields.price_usd_per_gpu_hour == pytest.approx(price)


# ------------------------------------------------------------------ a key that names its currency

_EUR_QUOTE = """vendor: Rhein
offer_kind: rent
accelerator: H100-SXM
gpu_count: 256
gpus_per_node: 8
currency: EUR
{price}
"""


@pytest.mark.parametrize("price", [
    "price_usd_per_gpu_hour: 2.2",
    "Price per GPU-hour (USD): 2.2",
    "GPU-hour price in US dollars: 2.2",
])
def test_a_price_under_a_key_that_names_usd_is_usd_whatever_the_currency_field_says(
        tmp_path, price: str) -> None:
    # The EUR 2.00 quote already converted at 1.10 (set D, d-01): no second conversion, and
    # no exchange rate needed for a figure the vendor gives in dollars. (In a spreadsheet made
    # from evaltool's RFP template the "_usd" keys are in the quote currency, as its visible
    # labels say: tests/test_template.py.)
    path = tmp_path / "rhein.yaml"
    path.write_text(_EUR_QUOTE.format(price=price), encoding="utf-8")
    result = normalize_files([path])
    assert not result.not_evaluated
    assert result.offers[0].fields.price_usd_per_gpu_hour == pytest.approx(2.2)


def test_a_price_under_a_key_that_names_no_currency_is_in_the_quote_currency(tmp_path) -> None:
    path = tmp_path / "rhein.yaml"
    path.write_text(_EUR_QUOTE.format(price="Price per GPU-hour: 2.00"), encoding="utf-8")
    result = normalize_files([path], fx_rates={"EUR": 1.10})
    assert result.offers[0].fields.price_usd_per_gpu_hour == pytest.approx(2.2)


# ------------------------------------------------------------------ leaving: notice, earliest exit

EARLIEST_EXIT_WORDINGS = [
    # formal
    "Customer may terminate on sixty (60) days' written notice, with termination taking "
    "effect no earlier than the last day of month 3.",
    "Customer may terminate on 60 days' notice; termination cannot take effect before the end "
    "of month 3.",
    # sales
    "You can walk away after the third month, on 60 days' notice.",
    "Early termination is possible from month 4 onwards with 60 days' notice.",
    # term sheet
    "Exit: after a minimum period of three (3) months, 60 days' notice.",
    # German, French
    "Der Kunde kann mit einer Frist von 60 Tagen kündigen, frühestens zum Ende des dritten "
    "Monats.",
    "Le client peut résilier avec un préavis de 60 jours, au plus tôt à la fin du troisième "
    "mois.",
]


@pytest.mark.parametrize("text", EARLIEST_EXIT_WORDINGS)
def test_leaving_not_before_month_3_on_60_days_notice_is_read_in_every_wording(
        text: str) -> None:
    assert notice_days(text) == 60.0
    assert earliest_exit_months(text) == 3.0


@pytest.mark.parametrize(("text", "days"), [
    ("Customer may terminate at any time on thirty (30) days' written notice.", 30.0),
    ("Either party may terminate on 24 hours' notice.", 1.0),
    ("Customer may terminate with 2 months' notice.", 60.8),
    ("Termination requires a notice of 45 days.", 45.0),
])
def test_the_notice_is_the_length_beside_the_notice_word(text: str, days: float) -> None:
    assert notice_days(text) == days
    assert earliest_exit_months(text) is None


@pytest.mark.parametrize("text", EARLIEST_EXIT_WORDINGS[:1] + EARLIEST_EXIT_WORDINGS[5:6])
def test_a_run_shorter_than_the_earliest_exit_pays_to_the_exit(text: str) -> None:
    # 256 GPUs at $2.45 on a 12-month term; a 40-day run cannot leave before day 91.25.
    offer = builders.make_offer("exit", gpu_count=256, price_usd_per_gpu_hour=2.45,
                                term_months=12, contract_text=text)
    terms, _ = contract_terms(offer)
    assert terms.customer_may_terminate_for_convenience is True
    per_day = 256 * 24 * 2.45
    estimates = Estimates(total_cost_usd=per_day * 40, time_to_train_days=40.0)
    money = compute_money(offer.fields, estimates, terms, WORKLOAD)
    assert money.minimum_cash_to_sign_usd == pytest.approx(per_day * 3 * 730 / 24, rel=1e-6)


@pytest.mark.parametrize("text", [
    # formal
    "If Customer terminates early, Customer shall pay 25% of the Fees for the remainder of the "
    "Term.",
    "Customer may terminate against payment of a termination charge equal to twenty-five "
    "percent (25%) of the unbilled Fees for the balance of the Term.",
    # sales
    "You can cancel anytime with 30 days' notice - an early exit costs 25% of what's left on "
    "the contract.",
    # term sheet
    "Early termination fee: 25% of remaining committed fees.",
    # German
    "Bei vorzeitiger Kündigung sind 25 % der restlichen Entgelte zu zahlen.",
])
def test_a_fee_of_a_quarter_of_the_remaining_fees_is_read_in_every_wording(text: str) -> None:
    assert exit_fee(text) == ("pct_of_remaining", 25.0, "")


@pytest.mark.parametrize(("text", "found"), [
    ("Customer may terminate subject to an early termination charge of USD 150,000.",
     ("amount", 150_000.0, "USD")),
    ("Leaving early costs a flat $150k penalty.", ("amount", 150_000.0, "USD")),
    ("Customer may terminate at any time; no early termination fee applies.", ("none", 0.0, "")),
    # not a fee for leaving
    ("Customer may terminate at any time; the Fees for the Term are USD 1,233,408.", None),
    ("On termination Provider shall refund 90% of the prepaid Fees for the remainder of the "
     "Term.", None),
])
def test_a_sum_for_leaving_is_the_fee_s_own_and_a_refund_is_no_fee(
        text: str, found: tuple[str, float, str] | None) -> None:
    assert exit_fee(text) == found


# ------------------------------------------------------------------ money paid ahead

@pytest.mark.parametrize("text", [
    # formal
    "Customer shall pay USD 600,000 in advance, which is credited against usage; any unused "
    "balance is forfeited at the end of the Term.",
    # sales
    "Customer purchases USD 600,000 of compute credits upfront; credits are non-refundable and "
    "expire 12 months after purchase.",
    # term sheet
    "Prepaid credit bundle: $600k, paid on signature, no refunds, 12-month expiry.",
    # German (a dot groups the thousands of a sum)
    "Der Kunde zahlt vorab 600.000 USD für Guthaben; nicht erstattungsfähig.",
])
def test_a_prepayment_that_does_not_come_back_is_read_in_every_wording(text: str) -> None:
    terms = extract_terms(text)
    assert terms.prepayment_usd == 600_000.0
    assert terms.prepayment_refundable is False


def test_billing_each_month_in_advance_is_not_a_prepayment() -> None:
    terms = extract_terms("Fees of USD 336,384 per month are invoiced monthly in advance.")
    assert terms.prepayment_usd is None


# ------------------------------------------------------------------ terms that hold the buyer

@pytest.mark.parametrize("text", [
    "The Order cannot be terminated early.",
    "There is no early termination right; the Term is a firm commitment.",
    "Customer may not cancel this reservation.",
    "Der Vertrag ist während der Laufzeit unkündbar.",
    "La commande est non résiliable pendant la durée.",
])
def test_a_term_the_buyer_cannot_leave_is_read_in_every_wording(text: str) -> None:
    offer = builders.make_offer("held", term_months=6, contract_text=text)
    terms, _ = contract_terms(offer)
    assert terms.non_cancellable is True
    assert terms.customer_may_terminate_for_convenience is False


def test_a_vendor_that_may_not_terminate_does_not_hold_the_buyer() -> None:
    offer = builders.make_offer("vendor", term_months=6,
                                contract_text="Provider may not terminate this Order early.")
    terms, _ = contract_terms(offer)
    assert terms.non_cancellable is None


@pytest.mark.parametrize("text", [
    "This order renews automatically for successive 6-month terms unless either party gives "
    "90 days' notice of non-renewal.",
    "The agreement auto-renews for another 6 months unless cancelled at least 90 days before "
    "the end of the term.",
    "Der Vertrag verlängert sich automatisch um jeweils 6 Monate, wenn nicht 90 Tage vor Ablauf "
    "gekündigt wird.",
])
def test_a_term_that_renews_by_itself_is_read_in_every_wording(text: str) -> None:
    offer = builders.make_offer("renew", term_months=6, contract_text=text)
    terms, _ = contract_terms(offer)
    assert (terms.auto_renewal, terms.renewal_notice_days, terms.renewal_term_months) == (
        True, 90.0, 6.0)


def test_a_block_billed_whether_or_not_it_is_used_is_committed_whole() -> None:
    offer = builders.make_offer(
        "billed", term_months=6,
        contract_text="All Fees for the Term are payable whether or not the capacity is used.")
    terms, _ = contract_terms(offer)
    assert terms.billed_whatever_use is True


def test_a_notice_in_days_is_never_the_renewal_term() -> None:
    text = ('1.3 "Renewal Term" means a period of twelve (12) months.\n\n2.2 This Order renews '
            "automatically for a Renewal Term unless either party notifies the other of "
            "non-renewal not less than one hundred and twenty (120) days before the end of the "
            "then-current term.")
    terms, _ = contract_terms(builders.make_offer("renew", term_months=3, contract_text=text))
    assert terms.renewal_term_months == 12.0


# ------------------------------------------------------------------ capacity given free

@pytest.mark.parametrize("text", [
    "The first fourteen (14) days of service are free of charge for all 128 GPUs.",
    "Enjoy a 14-day free trial on the full cluster before billing starts.",
    "Free period: 14 days from delivery (no charge for the GPUs).",
    "Billing starts 14 days after delivery.",
    "Die ersten 14 Tage sind kostenlos.",
])
def test_two_weeks_of_free_capacity_are_read_in_every_wording(text: str) -> None:
    terms, _ = contract_terms(builders.make_offer("free", gpu_count=128, contract_text=text))
    assert terms.free_days == 14.0


@pytest.mark.parametrize("text", [
    "Storage is free of charge for 14 days.",
    "Customer may terminate free of charge on 30 days' notice.",
    "Failed nodes are replaced within 5 days at no charge.",
])
def test_a_free_line_a_free_exit_or_a_free_repair_is_no_free_capacity(text: str) -> None:
    assert free_days(text) is None


def test_a_colocation_rate_in_a_purchase_contract_is_no_compute_price(tmp_path) -> None:
    path = tmp_path / "buy.yaml"
    path.write_text("vendor: Forge\noffer_kind: purchase\naccelerator: H100-SXM\ngpu_count: 64\n"
                    "gpus_per_node: 8\ncapex_usd: 2400000\namortization_months: 36\n"
                    "contract_text: |\n  Colocation price: USD 190 per kW per month.\n",
                    encoding="utf-8")
    result = normalize_files([path])
    assert not result.not_evaluated
    # the purchase's own hourly figure (capex over the amortisation), not USD 190 a kW
    assert result.offers[0].fields.price_usd_per_gpu_hour == pytest.approx(
        2_400_000 / 36 / (64 * 730))
