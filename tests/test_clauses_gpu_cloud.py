"""GPU-cloud contract wording, labelled by the dev-set README definitions.

The sample sentences of issue 5 plus GPU-cloud clauses written for this test in the style
of the public neocloud and hyperscaler terms summarised in shared/research/contracts.md §6.
None of them comes from the CUAD dev set, so they check that the rules generalise.
"""

from __future__ import annotations

import pytest

from evaltool.clauses import analyse_text, classify_sentence
from evaltool.clauses.models import ClauseAnalysis, Finding
from evaltool.report.finding_words import finding_why

CASES: list[tuple[str, str, str | None]] = [
    (
        "Provider will use commercially reasonable efforts to make the Cluster available "
        "99.9% of each month.",
        "weak_commitment",
        "vendor",
    ),
    (
        "Delivery is targeted for Q2 2027, subject to availability.",
        "weak_commitment",
        "vendor",
    ),
    (
        "Provider shall deliver the Nodes no later than 2027-03-01.",
        "firm_commitment",
        "vendor",
    ),
    (
        "Failed nodes will be replaced within 24 hours.",
        "firm_commitment",
        "vendor",
    ),
    (
        "Egress is billed at $0.08/GB.",
        "other",
        None,
    ),
    (
        "This agreement renews automatically for 12 months unless either party gives 90 days'"
        " notice.",
        "termination_exit",
        "both",
    ),
    (
        "Provider may modify prices upon 30 days' notice.",
        "other",
        "vendor",
    ),
    (
        "Upon termination Customer Data will be available for export in Provider's "
        "proprietary snapshot format for 7 days.",
        "termination_exit",
        None,
    ),
    (
        "We will make a reasonable effort to deliver the GPUs by the start date.",
        "weak_commitment",
        "vendor",
    ),
    (
        "We aim to provide 400 Gb/s of InfiniBand bandwidth per GPU.",
        "weak_commitment",
        "vendor",
    ),
    (
        "Provider endeavours to respond to Severity 1 tickets within 15 minutes.",
        "weak_commitment",
        "vendor",
    ),
    (
        "Provider shall respond to Severity 1 tickets within 15 minutes, 24x7.",
        "firm_commitment",
        "vendor",
    ),
    (
        "Customer shall use commercially reasonable efforts to keep its software images up to"
        " date.",
        "other",
        "customer",
    ),
    (
        "You agree to use reasonable efforts to notify us of any suspected security incident.",
        "other",
        "customer",
    ),
    (
        "Provider shall not be required to use commercially reasonable efforts to procure "
        "replacement GPUs from third parties.",
        "other",
        None,
    ),
    (
        "Each party shall bear its own costs, including reasonable attorneys' fees.",
        "other",
        None,
    ),
    (
        "Consent to assignment shall not be unreasonably withheld.",
        "other",
        None,
    ),
    (
        "Neither party shall be liable for delays caused by events beyond its reasonable control.",
        "other",
        None,
    ),
    (
        "If the Monthly Uptime Percentage is below 99.5%, Customer will receive a service "
        "credit equal to 10% of the monthly fee.",
        "remedy",
        "vendor",
    ),
    (
        "Service credits are Customer's sole and exclusive remedy for unavailability.",
        "liability_cap",
        "vendor",
    ),
    (
        "Customer may terminate this Agreement without penalty if availability falls below "
        "99% in any three months of a six-month period.",
        "remedy",
        None,
    ),
    (
        "Provider's total liability shall not exceed the fees paid in the twelve months "
        "before the claim.",
        "liability_cap",
        "vendor",
    ),
    (
        "Capacity is offered on an as-available basis and may be reclaimed with 24 hours' notice.",
        "weak_commitment",
        "vendor",
    ),
    (
        "GPU instances are provisioned as capacity becomes available.",
        "weak_commitment",
        "vendor",
    ),
    (
        "Provider expects to complete installation of the cluster by March 2027.",
        "weak_commitment",
        "vendor",
    ),
    (
        "Estimated delivery date: 15 April 2027 (estimates only, not binding).",
        "weak_commitment",
        "vendor",
    ),
    (
        "Provider may, at its sole discretion, provide additional nodes during peak periods.",
        "weak_commitment",
        "vendor",
    ),
    (
        "Provider reserves the right to substitute equivalent hardware at any time without notice.",
        "other",
        "vendor",
    ),
    (
        "Provider may terminate the Service for convenience on 30 days' notice.",
        "termination_exit",
        "vendor",
    ),
    (
        "The storage system delivers up to 200 GB/s of read throughput.",
        "weak_commitment",
        "vendor",
    ),
    (
        "Provider will provide a dedicated InfiniBand fabric that is not shared with other "
        "tenants.",
        "firm_commitment",
        "vendor",
    ),
    (
        "All fees are exclusive of taxes.",
        "other",
        None,
    ),
    (
        "Customer shall pay each invoice within 30 days.",
        "other",
        "customer",
    ),
    (
        "Provider does not guarantee that the Services will be uninterrupted or error-free.",
        "other",
        None,
    ),
    (
        "Provider will notify Customer of planned maintenance as soon as practicable.",
        "weak_commitment",
        "vendor",
    ),
    (
        "Provider will notify Customer of planned maintenance at least 5 business days in advance.",
        "firm_commitment",
        "vendor",
    ),
    (
        "Provider will maintain the Cluster in accordance with good industry practice.",
        "weak_commitment",
        "vendor",
    ),
    (
        "Ingress and egress are free of charge.",
        "other",
        None,
    ),
    (
        "The Customer will receive access to the cluster once it becomes available.",
        "weak_commitment",
        "vendor",
    ),
    (
        "Provider will work in good faith with Customer to agree an expansion schedule.",
        "weak_commitment",
        "vendor",
    ),
    (
        "Provider has no obligation to provide backups of Customer Data.",
        "other",
        "vendor",
    ),
    (
        "Customer may terminate for convenience at any time upon 60 days' notice.",
        "termination_exit",
        "customer",
    ),
    (
        "Upon expiry, Provider will delete all Customer Data within 30 days and provide a "
        "certificate of deletion.",
        "termination_exit",
        "vendor",
    ),
    (
        "Provider shall ensure at least 97% of GPUs are healthy and schedulable, measured hourly.",
        "firm_commitment",
        "vendor",
    ),
    (
        "Provider typically replaces failed hardware within one business day.",
        "weak_commitment",
        "vendor",
    ),
    (
        "Provider will endeavour to give at least 48 hours' notice of emergency maintenance.",
        "weak_commitment",
        None,
    ),
    (
        "Provider shall give at least 48 hours' notice of emergency maintenance.",
        "firm_commitment",
        None,
    ),
    (
        "The Reserved Capacity will be made available on or about June 1, 2027.",
        "weak_commitment",
        None,
    ),
    (
        "Provider will try to keep the cluster on the same network spine where possible.",
        "weak_commitment",
        None,
    ),
    (
        "Provider will use reasonable efforts to ensure that InfiniBand bandwidth between "
        "nodes is not shared with other tenants.",
        "weak_commitment",
        None,
    ),
    (
        "Provider guarantees a Monthly Uptime Percentage of at least 99.95% for the Cluster.",
        "firm_commitment",
        None,
    ),
    (
        "The Service Level Objective for single-node instances is 99.5%.",
        "firm_commitment",
        None,
    ),
    (
        "Scheduled maintenance, Customer-caused outages and force majeure events are excluded"
        " from the uptime calculation.",
        "other",
        None,
    ),
    (
        "To receive a credit, Customer must submit a claim within 30 days after the end of "
        "the month in which the outage occurred.",
        "other",
        None,
    ),
    (
        "Credits will be applied against future invoices and are not redeemable for cash.",
        "remedy",
        None,
    ),
    (
        "If Provider fails to deliver the Cluster within 30 days after the Delivery Date, "
        "Customer may cancel the Order Form and receive a full refund of any prepaid fees.",
        "remedy",
        None,
    ),
    (
        "Provider may suspend the Services if Customer fails to pay any undisputed invoice "
        "within 15 days of a reminder.",
        "remedy",
        None,
    ),
    (
        "Provider may terminate this Agreement for convenience upon ninety (90) days' written"
        " notice.",
        "termination_exit",
        None,
    ),
    (
        "Either party may terminate this Agreement immediately if the other party becomes "
        "insolvent.",
        "termination_exit",
        None,
    ),
    (
        "On expiry of the Term, Provider will continue to provide the Services on a month-to-"
        "month basis at its then-current list prices.",
        "termination_exit",
        None,
    ),
    (
        "Provider will provide reasonable transition assistance for up to 30 days after "
        "termination at its standard professional services rates.",
        "termination_exit",
        None,
    ),
    (
        "Provider shall not be liable for any loss of data stored on local NVMe drives.",
        "liability_cap",
        None,
    ),
    (
        "Customer is responsible for backing up its data and checkpoints.",
        "other",
        None,
    ),
    (
        "Customer shall not use the Services to mine cryptocurrency.",
        "other",
        None,
    ),
    (
        "Provider will use commercially reasonable efforts to notify Customer of any security"
        " breach affecting Customer Data.",
        "weak_commitment",
        None,
    ),
    (
        "Provider shall notify Customer of any security breach affecting Customer Data within"
        " 72 hours.",
        "firm_commitment",
        None,
    ),
    (
        "Each party shall keep the other party's Confidential Information confidential using "
        "at least a reasonable degree of care.",
        "other",
        None,
    ),
    (
        "Provider will maintain SOC 2 Type II certification throughout the Term.",
        "firm_commitment",
        None,
    ),
    (
        "Pricing for the Renewal Term will be Provider's then-current list price.",
        "termination_exit",
        None,
    ),
    (
        "Customer commits to a minimum spend of $1,000,000 over the Initial Term.",
        "other",
        None,
    ),
    (
        "Provider is under no obligation to guarantee any minimum network throughput.",
        "other",
        None,
    ),
    (
        "Provider does not warrant that any particular model training job will complete "
        "within any particular time.",
        "other",
        None,
    ),
    (
        "Provider may update these Terms from time to time by posting a revised version on "
        "its website.",
        "other",
        None,
    ),
    (
        "Customer's continued use of the Services after such posting constitutes acceptance "
        "of the updated Terms.",
        "other",
        None,
    ),
    (
        "Provider will, where practicable, schedule maintenance outside Customer's business hours.",
        "weak_commitment",
        None,
    ),
    (
        "Provider will respond to support requests within a reasonable time.",
        "weak_commitment",
        None,
    ),
    (
        "Provider shall provide the Cluster with 3.2 Tbps of non-blocking InfiniBand per node.",
        "firm_commitment",
        None,
    ),
    (
        "Provider anticipates that the additional 256 GPUs will be available in Q4 2027.",
        "weak_commitment",
        None,
    ),
    (
        "Nodes that fail the acceptance tests will be repaired or replaced by Provider at no "
        "charge within 2 business days.",
        "firm_commitment",
        None,
    ),
    (
        "The parties will meet quarterly to review capacity forecasts.",
        "firm_commitment",
        None,
    ),
    (
        "Provider will provide 24x7 support by telephone and email.",
        "firm_commitment",
        None,
    ),
    (
        "Provider will not access Customer Data except as required to provide the Services.",
        "firm_commitment",
        None,
    ),
    (
        "Storage throughput is expected to exceed 100 GB/s for sequential reads.",
        "weak_commitment",
        None,
    ),
    (
        "Provider will make commercially reasonable efforts to restore service after an "
        "outage, but in any event within 4 hours.",
        "firm_commitment",
        None,
    ),
    (
        "Customer will have root access to all nodes.",
        "firm_commitment",
        None,
    ),
    (
        "Egress to the public internet is free up to 10 TB per month and $0.05 per GB thereafter.",
        "other",
        None,
    ),
    (
        "Any dispute shall be referred to the parties' senior executives, who shall attempt "
        "in good faith to resolve it within 30 days.",
        "weak_commitment",
        None,
    ),
    # Exclusivity and minimum volumes bind the customer: "other" (readme: exclusivity /
    # minimum commitments are lock-in), obligor customer as in cuad-dev-155 and -279.
    (
        "8.1 This agreement is exclusive for 36 months; Customer shall not procure GPU compute "
        "from any other provider.",
        "other",
        "customer",
    ),
    (
        "Customer commits to purchase at least 2,000,000 GPU-hours over the Term.",
        "other",
        "customer",
    ),
    # Data return / format is an exit term (readme termination_exit), with or without
    # the word termination.
    (
        "7.1 Customer data will be exported in Provider's proprietary format only.",
        "termination_exit",
        None,
    ),
]


@pytest.mark.parametrize(("sentence", "label", "obligor"), CASES)
def test_gpu_cloud_wording_gets_the_readme_label(
    sentence: str, label: str, obligor: str | None
) -> None:
    got_label, got_obligor = classify_sentence(sentence)
    assert got_label == label
    if obligor is not None:
        assert got_obligor == obligor


# --- lock-in: exclusivity, non-compete on the customer, minimum volumes (seed 001 lock-in;
# PRODUCT.md rule 7; research contracts.md §7.1 step 8) ------------------------------------


def _lock_ins(text: str) -> list[Finding]:
    return [f for f in analyse_text(text, "terms.txt").findings if f.kind == "lock_in"]


def _missing(result: ClauseAnalysis, essential: str) -> bool:
    return any(
        f.kind == "missing" and f.figures.get("essential") == essential for f in result.findings
    )


@pytest.mark.parametrize(
    "sentence",
    [
        "8.1 This agreement is exclusive for 36 months; Customer shall not procure GPU compute "
        "from any other provider.",
        "During the Term, Customer shall not purchase accelerator capacity from any third-party "
        "cloud provider.",
        "Customer agrees not to obtain GPU instances from another provider for two (2) years.",
        "Provider shall be Customer's sole supplier of GPU compute.",
        "Customer shall buy all of its training compute requirements from Provider.",
        "Customer will source compute exclusively from Provider during the Term.",
    ],
)
def test_exclusivity_binding_the_customer_is_lock_in_with_firmer_wording(sentence: str) -> None:
    (finding,) = _lock_ins(sentence)
    assert finding.severity in ("medium", "high")
    assert finding.obligor == "customer"  # the customer is the one locked in
    assert "exclusivity" in finding_why(finding)
    assert finding.ask_for and "any provider" in finding.ask_for
    assert finding.quote == sentence


def test_a_long_exclusive_term_is_high_a_short_one_medium() -> None:
    (long_term,) = _lock_ins("This agreement is exclusive for 36 months.")
    (short_term,) = _lock_ins("This agreement is exclusive for 3 months.")
    assert (long_term.severity, short_term.severity) == ("high", "medium")
    assert "36 months" in finding_why(long_term)


@pytest.mark.parametrize(
    "sentence",
    [
        "Customer commits to purchase at least 2,000,000 GPU-hours over the Term.",
        "Customer shall pay a minimum monthly commitment of $250,000.",
        "The minimum volume is 512 GPUs for 12 months, on a take-or-pay basis.",
    ],
)
def test_minimum_volume_commitments_are_lock_in(sentence: str) -> None:
    (finding,) = _lock_ins(sentence)
    assert (finding.severity, finding.obligor) == ("medium", "customer")
    assert "minimum commitment" in finding_why(finding)
    assert finding.ask_for


@pytest.mark.parametrize(
    "sentence",
    [
        "This is a non-exclusive agreement for 12 months.",
        "Customer may purchase GPU compute from any other provider at any time.",
        "Nothing in this Agreement requires Customer to purchase exclusively from Provider.",
        "There is no minimum commitment.",
        "Provider shall not procure replacement GPUs from any other manufacturer without "
        "Customer's consent.",
    ],
)
def test_denied_exclusivity_or_commitment_is_not_lock_in(sentence: str) -> None:
    assert _lock_ins(sentence) == []


def test_export_only_in_the_vendors_format_is_lock_in_and_counts_as_the_export_term() -> None:
    text = "7.1 Customer data will be exported in Provider's proprietary format only."
    result = analyse_text(text, "terms.txt")
    (finding,) = [f for f in result.findings if f.quote]
    assert (finding.kind, finding.severity) == ("lock_in", "high")
    assert "vendor's own format" in finding_why(finding)
    assert finding.ask_for and "open formats" in finding.ask_for
    assert not _missing(result, "data_export")  # the lock-in is what is reported


def test_a_sentence_about_returning_customer_data_is_the_export_term() -> None:
    result = analyse_text(
        "Provider shall return all Customer Data in Parquet or POSIX files within 14 days of "
        "a written request.",
        "terms.txt",
    )
    assert not _missing(result, "data_export")
    assert not [f for f in result.findings if f.kind == "lock_in"]


def test_export_control_laws_are_not_a_data_export_term() -> None:
    result = analyse_text(
        "Customer shall comply with all export control laws applicable to its data.", "t.txt"
    )
    assert _missing(result, "data_export")


def test_why_texts_use_an_before_a_vowel() -> None:
    result = analyse_text(
        "Provider will use reasonable efforts to maintain 99.9% availability.", "t.txt"
    )
    why = finding_why(result.weak_commitments()[0])
    assert "hedges an availability commitment" in why
    delivery = analyse_text("Provider will try to deliver the nodes by 2027-01-01.", "t.txt")
    assert "hedges a delivery commitment" in finding_why(delivery.weak_commitments()[0])
