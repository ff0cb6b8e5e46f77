"""Real GPU-cloud wording and structured contract terms (issue 12).

The classifier targets are measured on shared/data/clauses/real-gpu-cloud-dev.csv (read
from ../shared, never copied here); ``extract_terms`` is checked on clauses written for
this test.
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from evaltool.clauses import TextSegment, extract_terms
from evaltool.clauses.classify import classify_detail
from evaltool.errors import Location

REAL_CSV = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "clauses" / (
    "real-gpu-cloud-dev.csv"
)
KINDS = ("weak_commitment", "firm_commitment", "remedy", "liability_cap", "termination_exit",
         "lock_in", "unilateral_change", "none")


def _pairs() -> list[tuple[str, str]]:
    if not REAL_CSV.exists():
        pytest.skip("shared GPU-cloud dev set not available")
    with REAL_CSV.open(encoding="utf-8") as fh:
        return [(r["label"], classify_detail(r["text"]).kind8) for r in csv.DictReader(fh)]


def _prf(pairs: list[tuple[str, str]], kind: str) -> tuple[float, float]:
    tp = sum(g == p == kind for g, p in pairs)
    pred = sum(p == kind for _, p in pairs)
    gold = sum(g == kind for g, _ in pairs)
    return tp / pred if pred else 0.0, tp / gold if gold else 0.0


def test_real_dev_set_weak_commitments_reach_f1_092_and_no_firm_one_is_flagged_weak() -> None:
    pairs = _pairs()
    precision, recall = _prf(pairs, "weak_commitment")
    assert 2 * precision * recall / (precision + recall) >= 0.92  # with room over 0.90
    assert [p for g, p in pairs if g == "firm_commitment" and p == "weak_commitment"] == []


@pytest.mark.parametrize("kind", [k for k in KINDS if k != "weak_commitment"])
def test_real_dev_set_every_other_kind_has_precision_and_recall_of_080(kind: str) -> None:
    precision, recall = _prf(_pairs(), kind)
    assert precision >= 0.80 and recall >= 0.80, (precision, recall)


@pytest.mark.parametrize(
    ("sentence", "kind"),
    [
        # a firm floor with an effort-based stretch on top is firm
        ("Provider will deliver the cluster no later than 1 June 2027; Provider will use "
         "reasonable efforts to deliver earlier.", "firm_commitment"),
        # ... but a deadline the efforts govern stays weak
        ("Provider will use reasonable efforts to deliver the cluster no later than 1 June "
         "2027.", "weak_commitment"),
        ("We aim for high availability but make no guarantee of it.", "weak_commitment"),
        ("Capacity varies with available stock.", "weak_commitment"),
        ("Provider may offer onboarding help at its discretion.", "weak_commitment"),
        ("Jobs in the priority queue are guaranteed to start within 2 hours.", "firm_commitment"),
        ("Capitalized terms shall have the meanings given in the Agreement.", "none"),
        ("To claim a credit, you must open a ticket within 15 days.", "none"),
        ("Changes to these terms take effect 14 days after we post them.", "unilateral_change"),
        ("Reserved nodes cannot be cancelled before the end of the reservation.", "lock_in"),
        ("Credits under this SLA will not exceed 20% of the monthly fee.", "liability_cap"),
    ],
)
def test_structure_decides_the_kind(sentence: str, kind: str) -> None:
    assert classify_detail(sentence).kind8 == kind


CONTRACT = """\
2.1 The initial term of this Agreement is twenty-four (24) months.
2.2 This Agreement renews automatically for successive 12-month terms unless either party
gives sixty (60) days' written notice of non-renewal.
7.2 Customer may not terminate this Agreement for convenience. If Customer terminates early,
Customer shall pay an early termination fee equal to 40% of the remaining fees.
§ 12(b) Customer shall prepay $600,000 on signature; prepaid amounts are non-refundable.
4.1 Provider shall make the Service available at least 99.9% of each calendar month.
4.3 Service credits are capped at 25% of the monthly fee and are Customer's sole and exclusive
remedy for any failure to meet the uptime commitment.
5.1 Provider shall replace failed nodes within 5 business days.
3.1 Delivery of the cluster is estimated for 2027-03-01, subject to allocation.
"""


def test_extract_terms_reads_the_money_facts_with_their_clause_numbers() -> None:
    terms = extract_terms(CONTRACT, name="msa.txt")
    assert terms.term_months == 24.0
    assert terms.auto_renewal is True and terms.renewal_term_months == 12.0
    assert terms.renewal_notice_days == 60.0
    assert terms.customer_may_terminate_for_convenience is False
    assert terms.non_cancellable is True
    assert terms.termination_fee_pct_of_remaining == 40.0
    assert terms.prepayment_usd == 600_000.0 and terms.prepayment_refundable is False
    assert terms.sla_uptime_pct == 99.9 and terms.sla_max_credit_pct == 25.0
    assert terms.credits_sole_remedy is True
    assert terms.delivery_date == "2027-03-01" and terms.delivery_date_hedged is True
    assert terms.evidence["termination_fee_pct_of_remaining"].clause_ref == "7.2"
    assert terms.evidence["prepayment_usd"].clause_ref == "§ 12(b)"
    assert terms.evidence["term_months"].where["file"] == "msa.txt"


def test_business_days_mean_the_same_hours_as_in_an_offer_sheet() -> None:
    from evaltool.normalize.values import parse_duration

    terms = extract_terms(CONTRACT)
    assert terms.hw_replacement_hours == parse_duration("5 business days", "hours").hours


def test_extract_terms_takes_an_offers_segments_and_is_silent_when_the_contract_is() -> None:
    segment = TextSegment(text="Provider shall provide GPU compute.",
                          where=Location(file="offer.xlsx", sheet="Contract", cell="B2"))
    terms = extract_terms([segment])
    assert terms.term_months is None and terms.evidence == {}


@pytest.mark.parametrize(("text", "floor", "months"), [
    ("Customer commits to spend at least USD 150,000 on eligible services in each Commitment "
     "Month (USD 1,800,000 over the Commitment Term).", 150_000.0, 1.0),
    ("Minimum monthly spend: USD 40,000.", 40_000.0, 1.0),
    ("Customer commits to a minimum spend of USD 90,000 per calendar quarter.", 90_000.0, 3.0),
])
def test_a_spend_floor_stated_per_period_is_owed_every_period(
        text: str, floor: float, months: float) -> None:
    terms = extract_terms(text)
    assert terms.min_commit_per_period_usd == floor
    assert terms.min_commit_period_months == months


def test_a_spend_floor_over_the_term_is_one_sum_not_a_period_floor() -> None:
    terms = extract_terms("Customer commits to spend at least USD 75,000 over the "
                          "Reservation Term.")
    assert terms.min_commit_usd == 75_000.0
    assert terms.min_commit_per_period_usd is None
