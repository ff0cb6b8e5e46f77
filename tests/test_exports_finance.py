"""Exports finance can use (issue 14 §3): headers in words with units over the machine
keys, numbers stored as numbers with formats, the money columns, a filled Rubric sheet,
Assumptions values as numbers."""

from __future__ import annotations

import copy
import io
import json
from pathlib import Path
from typing import Any

import pytest

from evaltool.models import ScoreReport
from evaltool.report.exports import to_csv, to_markdown, to_xlsx_bytes

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = ROOT / "tests/fixtures/score_report_sample.json"


@pytest.fixture(scope="module")
def real() -> ScoreReport:
    """A report of the sample offers scored now, with today's rubric and estimates."""
    import evaltool

    offers = [ROOT / "offers" / n for n in ("nimbusgpu-h100-ib.xlsx", "helios-mi300x.xlsx",
                                            "hpc-centre-a100.yaml")]
    return evaltool.score_files(offers, workload=ROOT / "offers/workload.yaml",
                                fx={"EUR": 1.08}, draws=300)


def _workbook(report: ScoreReport) -> Any:
    from openpyxl import load_workbook

    return load_workbook(io.BytesIO(to_xlsx_bytes(report)))


def _columns(ws: Any) -> dict[str, int]:
    return {c.value: c.column for c in ws[2]}


def test_every_sheet_has_headers_in_words_over_machine_keys(real: ScoreReport) -> None:
    wb = _workbook(real)
    for ws in wb.worksheets:
        headers = [c.value for c in ws[1]]
        keys = [c.value for c in ws[2]]
        assert all(isinstance(h, str) and h for h in headers), ws.title
        assert all(isinstance(k, str) and " " not in k for k in keys), ws.title
        assert ws.freeze_panes == "A3"
    ranking = [c.value for c in wb["Ranking"][1]]
    for header in ("Run cost (USD)", "Total economic cost (USD)", "Cost of delay (USD)",
                   "Run cost: compute (USD)", "MFU (%)", "Effective price (USD per GPU-hour)"):
        assert header in ranking


def test_money_and_percentages_are_numbers_with_formats(real: ScoreReport) -> None:
    ws = _workbook(real)["Ranking"]
    cols = _columns(ws)
    for key, fmt_part in (("total_cost_usd", "$"), ("total_economic_cost_usd", "$"),
                          ("cost_of_delay_usd", "$"), ("cost_breakdown_usd.compute", "$"),
                          ("mfu", "%"), ("score", "0.0")):
        cell = ws.cell(row=3, column=cols[key])
        assert isinstance(cell.value, int | float), key
        assert fmt_part in cell.number_format, (key, cell.number_format)
    criteria = _workbook(real)["Criteria"]
    values = [c for (c,) in criteria.iter_rows(min_row=3, min_col=_columns(criteria)["value"],
                                               max_col=_columns(criteria)["value"])]
    assert all(c.number_format != "General" for c in values if isinstance(c.value, float))


def test_commitment_columns_appear_when_the_estimates_carry_them(real: ScoreReport) -> None:
    data = json.loads(real.model_dump_json())
    for offer in data["offers"]:
        offer["estimates"]["minimum_cash_to_sign_usd"] = 250_000.0
        offer["estimates"]["full_commitment_usd"] = 3_000_000.0
    with_cash = ScoreReport.model_validate(data)
    header = to_csv(with_cash).splitlines()[0]
    assert "Minimum cash to sign (USD)" in header and "Full commitment (USD)" in header
    ws = _workbook(with_cash)["Ranking"]
    cell = ws.cell(row=3, column=_columns(ws)["minimum_cash_to_sign_usd"])
    assert cell.value == 250_000 and "$" in cell.number_format


def test_every_rubric_cell_is_filled(real: ScoreReport) -> None:
    ws = _workbook(real)["Rubric"]
    assert ws.max_row - 2 == len(real.rubric["criteria"])
    cols = _columns(ws)
    for row in ws.iter_rows(min_row=3):
        for cell in row:
            assert cell.value not in (None, ""), (cell.coordinate, [c.value for c in row])
        assert row[cols["direction"] - 1].value in ("higher is better", "lower is better",
                                                    "levels (best first)")
        weight = row[cols["weight"] - 1]
        assert isinstance(weight.value, float) and weight.number_format == "0.0%"
    total = sum(r[cols["weight"] - 1].value for r in ws.iter_rows(min_row=3))
    assert total == pytest.approx(1.0, abs=1e-3)


def test_assumption_values_are_numbers_where_they_are_numbers(real: ScoreReport) -> None:
    ws = _workbook(real)["Assumptions"]
    values = {r[0].value: r[1].value for r in ws.iter_rows(min_row=3)}
    assert values["assumptions.hours_per_month"] == 730
    assert values["assumptions.fx_usd_per_unit.EUR"] == pytest.approx(1.08)
    assert isinstance(values["workload.params_b"], int | float)


def test_zero_stays_zero_in_the_cost_breakdown(real: ScoreReport) -> None:
    ws = _workbook(real)["Ranking"]
    cell = ws.cell(row=3, column=_columns(ws)["cost_breakdown_usd.support"])
    assert cell.value == 0 and cell.value is not None


def test_offers_of_the_same_vendor_are_labelled() -> None:
    data = json.loads(FIXTURE.read_text(encoding="utf-8"))
    second_round = copy.deepcopy(data["offers"][0])
    second_round["id"] = second_round["id"] + "-round-2"
    second_round["rank"] = len(data["offers"]) + 1
    data["offers"].append(second_round)
    import csv

    rows = list(csv.DictReader(io.StringIO(to_csv(ScoreReport.model_validate(data)))))
    first = next(r for r in rows if r["Offer id"] == data["offers"][0]["id"])
    assert first["Other offers from this vendor"] == second_round["id"]


def test_full_markdown_appendix_shows_the_rubric_without_raw_dicts(real: ScoreReport) -> None:
    text = to_markdown(real, kind="full")
    appendix = text[text.index("Appendix: the rubric used"):]
    assert "higher is better" in appendix and "lower is better" in appendix
    assert "{" not in appendix and "value\\_function" not in appendix


def test_a_stated_zero_fee_stays_zero_after_normalising(tmp_path: Path) -> None:
    """"Included" (0) must be told apart from "not answered" (absent)."""
    import evaltool

    offer = tmp_path / "zero.yaml"
    offer.write_text(
        "vendor: ZeroCo\naccelerator: H100-SXM\ngpu count: 64\ngpus per node: 8\n"
        "currency: EUR\nprice per gpu hour: '2.00 €'\nsupport fee per month: '0 €'\n"
        "network fee per month: '€0'\n", encoding="utf-8")
    fields = evaltool.normalize_files(offer, fx={"EUR": 1.08}).offers[0].fields
    assert fields.support_usd_per_month == 0.0
    assert fields.network_usd_per_month == 0.0
    assert fields.storage_usd_per_tb_month is None  # not stated: absent, not zero


def test_tornado_labels_are_whole_criterion_names(real: ScoreReport) -> None:
    from evaltool.report.charts import tornado
    from evaltool.report.picks import winner_of

    bars = tornado(real, winner_of(real))
    assert bars is not None
    titles = {c["title"] for c in real.rubric["criteria"]}
    for row in bars.rows:
        assert "…" not in row.label and len(row.label_lines) <= 3
        assert row.label in titles or not any(t.startswith(row.label) for t in titles)


def test_the_category_score_table_leaves_room_for_operations(real: ScoreReport) -> None:
    from evaltool.report.html import render_html

    html = render_html(real, kind="full")
    assert 'class="fixed categories"' in html and ">Operations</th>" in html


def test_exported_text_files_carry_no_raw_control_characters() -> None:
    import re

    from evaltool.report.exports import report_to_json

    data = json.loads(FIXTURE.read_text(encoding="utf-8"))
    data["offers"][0]["vendor"] = "Evil\x9b2J\u202eCloud\x1b]0;x\x07"
    report = ScoreReport.model_validate(data)
    raw = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e]")
    text = report_to_json(report)
    assert not raw.search(text)
    assert json.loads(text)["offers"][0]["vendor"] == data["offers"][0]["vendor"]  # lossless
    assert not raw.search(to_csv(report).replace("\r\n", "\n"))
    assert not raw.search(to_markdown(report, kind="full"))
