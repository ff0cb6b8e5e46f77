"""What the memo's figures must say so a CFO reads them right (QA review of the memo).

Read as the specification: the committed spend stands beside the run cost; an effective
price far from the quoted one is explained; numbers fit their cells and are never cut;
labels do not repeat the vendor; the same amount is rounded the same way everywhere; the
red-flag column says what is wrong, and figures quoted from an offer carry their unit.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from evaltool.models import ScoreReport
from evaltool.report import fmt
from evaltool.report.exports import to_csv, to_markdown
from evaltool.report.render import render_html, terminal_table
from evaltool.report.terminal import WIDTH, display_width
from evaltool.report.view import build_view

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "score_report_sample.json"
OFFERS = Path(__file__).resolve().parents[1] / "offers"


def sample_data() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(FIXTURE.read_text(encoding="utf-8"))
    return data


def sample(data: dict[str, Any] | None = None) -> ScoreReport:
    return ScoreReport.model_validate(data if data is not None else sample_data())


def offer(data: dict[str, Any], offer_id: str) -> dict[str, Any]:
    found: dict[str, Any] = next(o for o in data["offers"] if o["id"] == offer_id)
    return found


# --------------------------------------------------------------------------- money


def test_key_figures_show_the_committed_spend_beside_the_run_cost() -> None:
    figures = {k.label: k for k in build_view(sample()).key_figures}
    assert figures["Run cost"].value == "$1.32M"
    assert figures["Commits (12 mo)"].value == "$21.1M"  # estimates.minimum_commitment_usd
    assert figures["Commits (12 mo)"].runner_up == "$5.58M (6 mo)"  # its own term
    labels = list(figures)
    assert labels.index("Commits (12 mo)") == labels.index("Run cost") + 1


def test_a_purchase_shows_its_capex_as_what_signing_commits() -> None:
    data = sample_data()
    for o in data["offers"]:
        o["eligible"] = o["id"] == "ironbridge-dgx-purchase"
    data["recommendation"] = {}
    figures = {k.label: k.value for k in build_view(sample(data)).key_figures}
    assert figures["Capex (purchase)"] == "$10.4M"  # fields.capex_usd


def test_no_commitment_figure_when_the_run_uses_all_of_it() -> None:
    data = sample_data()
    offer(data, "nimbusgpu-h100-ib")["estimates"]["minimum_commitment_usd"] = 1_000_000.0
    labels = [k.label for k in build_view(sample(data)).key_figures]
    assert not any(label.startswith("Commits") for label in labels)


def test_ranking_rows_name_a_commitment_far_above_the_run_cost() -> None:
    rows = {r.offer_id: r for r in build_view(sample()).ranking}
    assert rows["nimbusgpu-h100-ib"].commitment == "commits $21.1M"
    assert rows["ironbridge-dgx-purchase"].commitment == "capex $10.4M"
    data = sample_data()
    helios = offer(data, "helios-mi300x")["estimates"]
    helios["minimum_commitment_usd"] = helios["total_cost_usd"] * 1.15  # within 20%: no line
    rows = {r.offer_id: r for r in build_view(sample(data)).ranking}
    assert rows["helios-mi300x"].commitment == ""
    assert "commits $21.1M" in render_html(sample())


def test_an_effective_price_far_from_the_quote_is_explained_from_the_cost_breakdown() -> None:
    view = build_view(sample())
    assert view.price_note == (
        "$2.57/GPU-h effective vs $2.35 quoted: includes storage ($61.4k), support ($28.0k) "
        "and the upfront payment ($23.6k)"
    )
    assert "$2.57/GPU-h effective vs $2.35 quoted" in render_html(sample())
    assert view.ranking[0].quoted_price == "quoted $2.35"
    # within 5% of the quote: nothing to explain
    data = sample_data()
    offer(data, "nimbusgpu-h100-ib")["estimates"]["effective_usd_per_gpu_hour"] = 2.40
    view = build_view(sample(data))
    assert view.price_note == "" and view.ranking[0].quoted_price == ""


# --------------------------------------------------------------------------- numbers


@pytest.mark.parametrize(
    ("value", "expected"),
    [(2.35, "$2.35"), (99.99, "$99.99"), (854.4, "$854"), (8546.12, "$8.55k"),
     (1_250_000, "$1.25M"), (None, "—")],
)
def test_unit_prices_fit_their_column(value: Any, expected: str) -> None:
    assert fmt.price(value) == expected
    assert len(fmt.price(value)) <= 7


def test_a_tiny_job_with_a_huge_hourly_price_is_never_cut() -> None:
    data = sample_data()
    first = offer(data, "nimbusgpu-h100-ib")["estimates"]
    first["effective_usd_per_gpu_hour"] = 8546.12
    first["time_to_train_days"] = 0.1  # 2.4 hours
    first["total_cost_usd"] = 123_456_789_012.0
    report = sample(data)
    text = terminal_table(report, color=False)
    row = next(line for line in text.splitlines() if line.startswith(" 1 "))
    assert "$8.55k" in row and "2.4 h" in row and "$123B" in row
    numbers = row.split("yes", 1)[1]
    assert "…" not in numbers.rsplit("%", 1)[0]  # figures up to MFU are whole
    assert all(display_width(line) <= WIDTH for line in text.splitlines())
    html = render_html(report)
    assert "$8.55k" in html and "8,546" not in html
    assert "2.4 h" in html


def test_time_under_a_day_prints_in_hours() -> None:
    assert fmt.days(0.1) == "2.4 h"
    assert fmt.days(0.5) == "12 h"
    assert fmt.days(3.5) == "3.5 days"


# --------------------------------------------------------------------------- labels


@pytest.mark.parametrize(
    ("vendor", "name", "expected"),
    [
        ("Ironbridge Systems", "Quotation Q-77812 — Ironbridge Systems (NVIDIA Elite Partner)",
         "Quotation Q-77812 (NVIDIA Elite Partner)"),
        ("NimbusGPU Inc.", "NimbusGPU reserved H100", "reserved H100"),
        ("Stratus Cloud", "Stratus Cloud — H200 block", "H200 block"),
        ("Helios Compute GmbH", "MI300X bare-metal pods", "MI300X bare-metal pods"),
        ("Acme", "Acme", ""),
    ],
)
def test_offer_names_do_not_repeat_the_vendor(vendor: str, name: str, expected: str) -> None:
    assert fmt.offer_name(vendor, name) == expected


def test_labels_everywhere_drop_the_repeated_vendor() -> None:
    report = sample()
    html = render_html(report)
    assert "Ironbridge Systems — Quotation Q-77812 — Ironbridge" not in html
    assert "Quotation Q-77812 (NVIDIA Elite Partner)" in html
    assert "Quotation Q-77812 — Ironbridge" not in terminal_table(report, color=False)
    assert "Quotation Q-77812 (NVIDIA Elite Partner)" in to_markdown(report)


def test_long_names_are_cut_at_a_word_boundary() -> None:
    assert fmt.clean_text("Nordhavn Supercomputing Centre — GPU partition booster", 40) == (
        "Nordhavn Supercomputing Centre — GPU…"
    )
    from evaltool.report.terminal import fit

    assert fit("NimbusGPU Inc. / Reserved H100 cluster", 27).rstrip() == (
        "NimbusGPU Inc. / Reserved…"
    )


# --------------------------------------------------------------------------- layout


def test_running_header_names_the_section_a_page_starts_in() -> None:
    css = (Path(__file__).resolve().parents[1] / "templates" / "report.css").read_text()
    assert "string(section, start)" in css
    assert re.search(r"h2 \{[^}]*string-set: section content\(\)", css)


def test_inputs_are_counted_by_kind() -> None:
    basis = dict(build_view(sample()).basis)
    assert basis["Inputs"] == (
        "7 offer files, 1 workload file, 1 rates file; 6 offers evaluated, 1 not evaluated"
    )
    data = sample_data()
    del data["assumptions"]["inputs"]
    basis = dict(build_view(sample(data)).basis)
    assert basis["Inputs"] == "7 offer files; 6 offers evaluated, 1 not evaluated"


def test_amounts_are_rounded_alike_in_every_sentence() -> None:
    data = sample_data()
    data["sensitivity"]["what_would_change_detail"] = [{
        "kind": "cost_basis", "basis": "commitment", "new_winner": "nimbusgpu-h100-ib",
        "text": "NimbusGPU Inc. commits $21.08M for a $1.32M run; even charging every offer "
                "its full commitment keeps NimbusGPU Inc. first.",
    }]
    changes = build_view(sample(data)).changes
    assert changes[0].startswith("NimbusGPU Inc. commits $21.1M for a $1.32M run")
    assert fmt.tidy_money("$1.4M, $21.08M, $1,234.5k, $2.31/GPU-h") == (
        "$1.4M, $21.1M, $1.23M, $2.31/GPU-h"
    )


def test_the_commitment_flag_restates_the_run_cost_as_the_table_prints_it() -> None:
    data = sample_data()
    offer(data, "nimbusgpu-h100-ib")["flags"].append({
        "kind": "commitment_exceeds_run", "severity": "medium", "quote": None, "where": None,
        "why": "signing commits $21.1M over a 12-month term; this run uses $1.3M of it (6%). "
               "The ranking charges the run only.",
        "ask_for": None,
    })
    html = render_html(sample(data))
    assert ("signing commits $21.1M over a 12-month term; this run uses $1.32M of it (6%). "
            "The ranking charges the run only.") in html


def test_markdown_runner_up_row_holds_bare_figures() -> None:
    text = to_markdown(sample())
    row = next(line for line in text.splitlines() if line.startswith("| Runner-up"))
    assert "runner-up" not in row.lower().removeprefix("| runner-up")
    assert "$1.48M" in row and "48 days" in row


# --------------------------------------------------------------------------- red flags


def test_top_red_flag_says_what_is_wrong_not_its_kind() -> None:
    data = sample_data()
    stratus = offer(data, "stratus-h200-roce")
    stratus["flags"] = [
        {"kind": "missing", "severity": "high", "quote": None, "where": None,
         "why": "no committed uptime percentage: availability is not a measurable promise"},
        {"kind": "lock_in", "severity": "high", "quote": None, "where": None,
         "why": "exit data only in the vendor's own format: leaving means conversion work "
                "(lock-in)"},
    ]
    rows = {r.offer_id: r.top_flag for r in build_view(sample(data)).ranking}
    assert rows["stratus-h200-roce"] in ("no uptime figure", "exit data in vendor format")
    assert rows["helios-mi300x"] == "weak commitment"
    for top in rows.values():
        assert top not in ("missing", "lock in", "weak_commitment")
    csv_text = to_csv(sample(data))
    assert "high: no uptime figure" in csv_text or "high: exit data in vendor format" in csv_text


def test_figures_quoted_from_an_offer_carry_their_unit() -> None:
    data = sample_data()
    cumulus = offer(data, "cumulus-tpu-v5p")
    cumulus["fields"]["hw_replacement_hours"] = 1.0
    cumulus["flags"].append({
        "kind": "missing", "severity": "medium", "quote": None, "where": None,
        "why": "hw replacement time only in the quote, not in the contract: the quote states "
               "1.0 (offers/cumulus-tpu-v5p.yaml › offer.sla.replacement); ask for it in the "
               "contract terms, with a remedy",
    })
    html = render_html(sample(data), kind="full")
    assert "hardware replacement time only in the quote, not in the contract: the quote " \
           "states 1 h (offers/cumulus-tpu-v5p.yaml" in html
    assert "the quote states 1.0" not in html
    assert fmt.field_value("sla_uptime_pct", 99.9) == "99.9%"
    assert fmt.field_value("hw_replacement_hours", 168.0) == "168 h"
    assert fmt.field_value("storage_capacity_tb", 2000) == "2,000 TB"


# --------------------------------------------------------------------------- the sample run


@pytest.fixture(scope="module")
def sample_run() -> ScoreReport:
    import datetime as dt

    from evaltool.pipeline import score_files

    if not OFFERS.is_dir():
        pytest.skip("offers/ sample folder absent")
    return score_files(sorted(OFFERS.iterdir()), draws=500, as_of=dt.date(2026, 11, 22))


def test_sample_memo_reads_right(sample_run: ScoreReport) -> None:
    view = build_view(sample_run)
    text = to_markdown(sample_run)
    inputs = dict(view.basis)["Inputs"]
    n_offers = len(sample_run.assumptions["inputs"]["offers"])
    assert inputs.startswith(f"{n_offers} offer files, 1 workload file, 1 rates file")
    assert "— Ironbridge Systems (" not in text  # the vendor is not repeated in the label
    for amount in re.findall(r"\$([\d.,]+)[kMB]\b", " ".join([view.headline, *view.changes])):
        assert len(amount.replace(",", "").replace(".", "").lstrip("0")) <= 3, amount
    for row in view.ranking:
        assert row.top_flag not in ("missing", "lock in"), row
