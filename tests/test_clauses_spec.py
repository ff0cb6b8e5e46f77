"""What a buyer reads for in a GPU-compute contract, one behaviour per test.

Sentences are written for this test (not taken from the dev or blind sets); each names a
class of wording, so the rule is checked beyond the sentence that prompted it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from evaltool.clauses import analyse_files_clauses, analyse_text, extract_terms
from evaltool.clauses.classify import classify_detail
from evaltool.clauses.models import ClauseAnalysis, Finding
from evaltool.report.finding_words import finding_why


def _kind(text: str) -> str:
    return classify_detail(text).kind8


def _missing(analysis: ClauseAnalysis, essential: str) -> Finding | None:
    return next(
        (f for f in analysis.findings
         if f.kind == "missing" and (f.figures or {}).get("essential") == essential),
        None,
    )


# --- weak commitments ------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Customer acknowledges and understands that Acme may be unable to resolve every "
        "support request.",
        "The Customer accepts that the Provider may not be able to restore all instances "
        "after a host failure.",
    ],
)
def test_an_inability_the_customer_acknowledges_is_a_weak_commitment_of_the_vendor(
    text: str,
) -> None:
    result = classify_detail(text)
    assert result.kind8 == "weak_commitment"
    assert result.obligor == "vendor"


def test_the_customer_acknowledging_its_own_duty_is_not_a_vendor_commitment() -> None:
    assert _kind("Customer acknowledges that it must keep its own backups.") == "none"


# --- lock-in -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "During the Term, Customer shall not procure GPU hosting services from any competitor "
        "of Provider.",
        "Customer shall purchase at least 75% of its annual accelerator requirements from "
        "Supplier.",
    ],
)
def test_a_customer_covenant_to_buy_only_or_mostly_here_is_lock_in(text: str) -> None:
    assert _kind(text) == "lock_in"


def test_a_vendor_covenant_not_to_buy_elsewhere_binds_the_vendor_not_the_customer() -> None:
    assert _kind("Provider shall not procure spare parts from any other manufacturer.") != (
        "lock_in"
    )


def test_data_export_only_for_an_extra_fee_is_an_exit_lock_in_with_its_finding() -> None:
    text = "Export of Customer Data on physical media is available only for an additional fee."
    assert _kind(text) == "lock_in"
    (lock,) = [f for f in analyse_text(text, "t.md").findings if f.kind == "lock_in"]
    assert "costs extra" in finding_why(lock)
    assert lock.ask_for and "no extra charge" in lock.ask_for


def test_data_export_at_no_charge_is_not_lock_in() -> None:
    text = "Upon termination Provider shall make Customer Data available for export at no charge."
    assert _kind(text) != "lock_in"


# --- who is bound ----------------------------------------------------------------------


def test_a_reseller_supplying_the_customer_is_the_vendor() -> None:
    result = classify_detail(
        "Reseller shall pass through to Customer all service credits it receives from the "
        "upstream provider within 30 days."
    )
    assert result.kind8 == "remedy"


def test_a_distributor_promoting_to_its_own_customers_is_still_the_customer() -> None:
    result = classify_detail(
        "The Distributor shall use its commercially reasonable efforts to promote the "
        "Products to customers."
    )
    assert result.kind8 == "none"


# --- support response time -----------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "hours"),
    [
        ("Severity 1 tickets are answered within 15 minutes, 24x7.", 0.25),
        ("We respond to P1 issues within 30 minutes.", 0.5),
        ("Provider will acknowledge Priority 1 incidents within one (1) hour.", 1.0),
        ("Response times: Critical - 15 min; High - 1 h; Normal - next business day.", 0.25),
        ("Provider shall reply to support cases within 4 hours.", 4.0),
    ],
)
def test_a_stated_support_response_time_is_read_and_not_reported_missing(
    text: str, hours: float
) -> None:
    analysis = analyse_text(text, "sla.md")
    figure = analysis.figure("support_response_hours")
    assert figure is not None and figure.value == hours
    assert _missing(analysis, "support_response") is None


def test_next_business_day_is_one_business_day_as_the_value_parser_reads_it() -> None:
    from evaltool.normalize.values import parse_duration

    analysis = analyse_text("Support tickets receive a response by the next business day.", "t.md")
    figure = analysis.figure("support_response_hours")
    one_business_day = parse_duration("1 business day", "hours").hours
    assert figure is not None and figure.value == pytest.approx(one_business_day)


def test_an_aimed_response_time_is_reported_as_not_committed_pointing_at_its_sentence() -> None:
    text = "Acme aims to respond to Severity 1 support cases within 1 hour."
    missing = _missing(analyse_text(text, "sla.md"), "support_response")
    assert missing is not None
    assert "only as an aim" in finding_why(missing) and "no committed" not in finding_why(missing)
    assert missing.quote == text
    assert missing.where["char_start"] == 0


def test_a_contract_silent_on_support_says_no_committed_response_time() -> None:
    missing = _missing(analyse_text("Provider shall deliver the nodes by 2027-03-01.", "t.md"),
                       "support_response")
    assert missing is not None and finding_why(missing) == "no committed support response time"
    assert missing.quote == ""


def test_customer_acknowledging_terms_is_not_a_support_response() -> None:
    analysis = analyse_text("Customer acknowledges that support requests may take 5 days.", "t")
    assert analysis.figure("support_response_hours") is None


# --- money in any currency ------------------------------------------------------------


def test_a_termination_fee_in_euro_keeps_its_amount_and_currency_and_no_usd_figure() -> None:
    terms = extract_terms(
        "Customer may terminate for convenience on 30 days' notice and shall pay an early "
        "termination fee of EUR 50,000."
    )
    assert terms.termination_fee_amount == 50_000
    assert terms.termination_fee_currency == "EUR"
    assert terms.termination_fee_usd is None  # the money model converts at the run's rates
    assert terms.evidence["termination_fee_currency"].quote.endswith("EUR 50,000.")


def test_a_usd_amount_fills_the_usd_field_and_the_stated_amount() -> None:
    terms = extract_terms("Customer shall prepay $1,200,000 for the reserved capacity; the "
                          "prepayment is non-refundable.")
    assert terms.prepayment_usd == 1_200_000
    assert (terms.prepayment_amount, terms.prepayment_currency) == (1_200_000, "USD")
    assert terms.prepayment_refundable is False


@pytest.mark.parametrize(
    ("text", "amount", "currency"),
    [
        ("The minimum annual commitment is £2 million.", 2_000_000, "GBP"),
        ("The minimum commitment is 500,000 CHF per year.", 500_000, "CHF"),
    ],
)
def test_minimum_commitments_keep_the_stated_currency(
    text: str, amount: float, currency: str
) -> None:
    terms = extract_terms(text)
    assert (terms.min_commit_amount, terms.min_commit_currency) == (amount, currency)
    assert terms.min_commit_usd is None


# --- the vendor's clause number ------------------------------------------------------


def _template_with_answers(path: Path, answers: dict[str, tuple[str, str]]) -> None:
    """The RFP template with the vendor's wording and clause number in the rows of the
    given topics."""
    openpyxl = pytest.importorskip("openpyxl")
    from evaltool.template import write_template

    write_template(path)
    wb = openpyxl.load_workbook(str(path))
    sheet = next(ws for ws in wb.worksheets if ws.title.lower().startswith("contract"))
    heads = {
        str(c.value).lower(): (c.row, c.column)
        for row in sheet.iter_rows(max_row=10)
        for c in row
        if isinstance(c.value, str)
    }
    header_row, answer_col = next(v for k, v in heads.items() if k.startswith("your answer"))
    ref_col = heads["clause reference"][1]
    for row in sheet.iter_rows(min_row=header_row + 1):
        topic = row[0].value
        if topic in answers:
            text, ref = answers[topic]
            sheet.cell(row=row[0].row, column=answer_col).value = text
            sheet.cell(row=row[0].row, column=ref_col).value = ref
    wb.save(str(path))


def test_the_templates_clause_reference_column_is_the_vendors_clause_number(
    tmp_path: Path,
) -> None:
    path = tmp_path / "rfp.xlsx"
    _template_with_answers(path, {
        "Uptime": ("Provider will use reasonable efforts to maintain 99.9% availability.",
                   "SLA 3.2"),
        "Termination": ("Customer may terminate for convenience on 60 days' written notice.",
                        "12.1(a)"),
    })
    (analysis,), failures = analyse_files_clauses([path])
    assert failures == []
    (weak,) = analysis.weak_commitments()
    assert weak.where["clause_ref"] == "SLA 3.2"
    assert weak.where["section"] == "Uptime"  # the template's topic, not a clause number

    from evaltool.clauses.readers import read_segments
    from evaltool.read import read_offer_file

    # score reads the same column: the reader hands it over with each answer
    refs = {seg.get("clause_ref") for rec in read_offer_file(path) for seg in rec.segments}
    assert {"SLA 3.2", "12.1(a)"} <= refs
    terms = extract_terms(read_segments(path))
    assert terms.termination_notice_days == 60
    assert terms.evidence["termination_notice_days"].clause_ref == "12.1(a)"


def test_a_topic_heading_is_never_taken_for_a_clause_number() -> None:
    from evaltool.clauses import TextSegment
    from evaltool.errors import Location

    segment = TextSegment(
        text="Customer may terminate for convenience on 60 days' written notice.",
        where=Location("rfp.xlsx", sheet="Contract", cell="C10"),
        section="Termination",
    )
    terms = extract_terms([segment])
    assert terms.evidence["termination_notice_days"].clause_ref is None


# --- what binds nobody -----------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "The Order Form will specify the number of nodes and the start date.",
        "Each Schedule shall identify the accelerator type ordered.",
        "If two monitoring probes fail, we will count the interval as downtime.",
        "A node that fails its health check is treated as unavailable.",
        "Please note support is provided in English only.",
    ],
)
def test_documents_that_state_measurement_rules_and_notes_to_the_reader_bind_nobody(
    text: str,
) -> None:
    assert _kind(text) == "none"


def test_a_vendor_promise_beside_those_rules_still_binds_the_vendor() -> None:
    assert _kind("Provider shall deliver the nodes by 2027-03-01.") == "firm_commitment"


def test_a_commitment_sentence_with_a_rate_a_monthly_sum_and_a_total_gives_the_total() -> None:
    from evaltool.clauses import extract_terms

    terms = extract_terms(
        "The Customer commits to the Reserved Rate of USD 1.95 per GPU-hour, being USD "
        "728,832.00 per month and USD 8,745,984.00 for the Term (the minimum commitment).")
    assert terms.min_commit_usd == 8_745_984
