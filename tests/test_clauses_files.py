"""`evaltool clauses FILES...`: every file analysed or reported, contract text read from
offer files without normalising them (PRODUCT.md commands table; exit codes).

An offer whose price cannot be read, or is in a currency with no rate given, still has
its contract checked: contract analysis does not depend on prices.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest
from click.testing import CliRunner

from evaltool.clauses import analyse_files_clauses
from evaltool.clauses.readers import OFFER_SUFFIXES, TEXT_SUFFIXES, read_contracts, read_segments
from evaltool.cli import cli
from evaltool.errors import InputError

EUR_OFFER = """\
vendor:
  name: Eurocloud SARL
offer:
  title: H100 reserved, EUR priced
  accelerator: {type: "NVIDIA H100 SXM5 80GB", chips: 512, chips_per_host: 8}
  commercials:
    price: "2,10 € per GPU-hour"
    term: 12 months
  terms: |
    1. Eurocloud will use commercially reasonable efforts to deliver the cluster by 2027-03-01.
    2. This agreement is exclusive for 24 months.
"""


def _kinds(paths: list[Path]) -> set[str]:
    analyses, failures = analyse_files_clauses(paths)
    assert failures == []
    return {f.kind for a in analyses for f in a.findings}


def test_an_eur_priced_offer_without_a_rate_still_has_its_contract_analysed(
    tmp_path: Path,
) -> None:
    path = tmp_path / "eur.yaml"
    path.write_text(EUR_OFFER, encoding="utf-8")
    (analysis,), failures = analyse_files_clauses([path])
    assert failures == []
    assert analysis.vendor == "Eurocloud SARL"  # taken from the file
    weak = analysis.weak_commitments()[0]
    assert (weak.where["key"], weak.where["section"]) == ("offer.terms", "1")
    assert {"weak_commitment", "lock_in"} <= {f.kind for f in analysis.findings}


def test_the_vendor_named_in_the_file_is_the_vendor_party(tmp_path: Path) -> None:
    path = tmp_path / "offer.yaml"
    # "Kestrel" is the vendor only because the file says so: a named subject that is
    # neither a role word nor a defined party is otherwise unknown
    path.write_text(
        "vendor: Kestrel\nterms: Kestrel shall use reasonable efforts to market and resell "
        "the Service.\n",
        encoding="utf-8",
    )
    (named,), _ = analyse_files_clauses([path])
    (with_option,), _ = analyse_files_clauses([path], vendor_names=["Kestrel Cloud"])
    assert named.weak_commitments()[0].obligor == "vendor"
    assert with_option.vendor == "Kestrel"
    assert with_option.weak_commitments()[0].obligor == "vendor"


def test_workbook_with_an_unreadable_price_has_its_contract_sheet_analysed(
    tmp_path: Path,
) -> None:
    openpyxl = pytest.importorskip("openpyxl")
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Offer"
    ws.append(["Provider", "Borealis Compute"])
    ws.append(["GPU", "H100 SXM"])
    ws.append(["Price per GPU-hour", "call us"])
    terms = wb.create_sheet("Terms")
    terms.append(["Clause", "Text"])
    terms.append(["4.1", "Borealis targets delivery of the cluster in Q2 2027."])
    terms.append(["7.1", "Customer data will be exported in Borealis's proprietary format only."])
    path = tmp_path / "borealis.xlsx"
    wb.save(str(path))
    (analysis,), failures = analyse_files_clauses([path])
    assert failures == []
    assert analysis.vendor == "Borealis Compute"
    weak = analysis.weak_commitments()[0]
    assert (weak.where["sheet"], weak.where["cell"], weak.where["section"]) == (
        "Terms",
        "B2",
        "4.1",
    )
    lock = next(f for f in analysis.findings if f.kind == "lock_in")
    assert lock.where["cell"] == "B3"


def test_rfp_template_answers_are_the_contract_text(tmp_path: Path) -> None:
    openpyxl = pytest.importorskip("openpyxl")
    from evaltool.template import write_template

    path = tmp_path / "rfp.xlsx"
    write_template(path)
    wb = openpyxl.load_workbook(str(path))
    sheet = next(ws for ws in wb.worksheets if ws.title.lower().startswith("contract"))
    answer_col = next(
        c.column
        for row in sheet.iter_rows(max_row=10)
        for c in row
        if isinstance(c.value, str) and c.value.lower().startswith("your answer")
    )
    header_row = next(
        c.row
        for row in sheet.iter_rows(max_row=10)
        for c in row
        if isinstance(c.value, str) and c.value.lower().startswith("your answer")
    )
    sheet.cell(row=header_row + 2, column=answer_col).value = (
        "Provider will use reasonable efforts to maintain 99.9% availability."
    )
    wb.save(str(path))
    (analysis,), failures = analyse_files_clauses([path])
    assert failures == []
    (weak,) = analysis.weak_commitments()
    assert weak.quote == "Provider will use reasonable efforts to maintain 99.9% availability."
    # the template's own questions are not the vendor's terms
    assert all("?" not in f.quote for f in analysis.findings)


def test_term_like_notes_of_an_offer_sheet_are_contract_text(tmp_path: Path) -> None:
    openpyxl = pytest.importorskip("openpyxl")
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Quote"
    ws.append(["Vendor", "Nimbus"])
    ws.append(["GPU", "H100"])
    ws.append(["Price", "2.10 USD per GPU-hour"])
    ws.append([])
    ws.append(["Notes: Provider will use best efforts to replace failed nodes within 24 hours."])
    path = tmp_path / "quote.xlsx"
    wb.save(str(path))
    (analysis,), _ = analyse_files_clauses([path])
    assert analysis.weak_commitments()[0].where["cell"] == "A5"


def test_a_yaml_contract_section_with_one_line_terms_is_read(tmp_path: Path) -> None:
    path = tmp_path / "offer.yaml"
    path.write_text(
        "vendor: Acme GPU\ncontract:\n"
        "  sla: Provider will use commercially reasonable efforts to keep 99.9% uptime.\n"
        "  exit: Customer Data is returned in standard POSIX files within 30 days.\n",
        encoding="utf-8",
    )
    segments = read_segments(path)
    assert sorted(str(s.where.key) for s in segments) == ["contract.exit", "contract.sla"]
    (analysis,), _ = analyse_files_clauses([path])
    assert analysis.weak_commitments()[0].where["key"] == "contract.sla"
    missing = {f.figures.get("essential") for f in analysis.findings if f.kind == "missing"}
    assert "data_export" not in missing


def test_an_offer_file_without_contract_text_is_reported_not_analysed(tmp_path: Path) -> None:
    path = tmp_path / "bare.csv"
    path.write_text("vendor,gpu,price_usd_per_gpu_hour\nAcme,H100,2.5\n", encoding="utf-8")
    analyses, failures = analyse_files_clauses([path])
    assert analyses == []
    (failure,) = failures
    assert failure.startswith(f"{path}: no contract text")


def test_one_unreadable_file_does_not_stop_the_others(tmp_path: Path) -> None:
    good = tmp_path / "c.txt"
    good.write_text("Provider will try to deliver the nodes by 2027-01-01.\n", encoding="utf-8")
    missing = tmp_path / "missing.txt"
    analyses, failures = analyse_files_clauses([missing, good])
    assert [a.sources for a in analyses] == [[str(good)]]
    assert failures == [f"{missing}: not found (expected an existing file)"]


def test_unsupported_suffix_error_lists_every_supported_kind(tmp_path: Path) -> None:
    path = tmp_path / "x.rtf"
    path.write_bytes(b"{\\rtf1 hi}")
    with pytest.raises(InputError) as info:
        read_contracts(path)
    message = str(info.value)
    for suffix in (".txt", ".md", ".pdf", ".docx", *OFFER_SUFFIXES, *TEXT_SUFFIXES):
        assert f"{suffix} " in message or f"{suffix})" in message, suffix


def test_a_broken_pdf_is_an_input_error_without_pypdf_warnings(
    tmp_path: Path, capfd: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "bin.pdf"
    path.write_bytes(b"\x00\x01binary junk, no pdf header, no EOF marker")
    with caplog.at_level(logging.DEBUG), pytest.raises(InputError) as info:
        read_contracts(path)
    assert str(info.value).startswith(f"{path}: cannot read the PDF")
    assert capfd.readouterr().err == ""
    assert [r for r in caplog.records if r.name.startswith("pypdf")] == []
    assert logging.getLogger("pypdf").level == logging.NOTSET  # restored afterwards


def test_cli_reports_a_missing_file_like_other_unreadable_inputs(tmp_path: Path) -> None:
    good = tmp_path / "c.md"
    good.write_text("Provider will try to deliver the nodes by 2027-01-01.\n", encoding="utf-8")
    missing = tmp_path / "nope.txt"
    result = CliRunner().invoke(cli, ["clauses", str(missing), str(good)])
    assert result.exit_code == 1
    assert f"not analysed: {missing}: not found" in result.stderr
    assert "Usage:" not in result.stderr
    assert "weak commitment" in result.stdout


def test_cli_json_lists_what_was_not_analysed(tmp_path: Path) -> None:
    path = tmp_path / "eur.yaml"
    path.write_text(EUR_OFFER, encoding="utf-8")
    missing = tmp_path / "gone.pdf"
    result = CliRunner().invoke(cli, ["clauses", "--format", "json", str(path), str(missing)])
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert data["vendors"] == {str(path): "Eurocloud SARL"}
    assert data["not_analysed"] == [f"{missing}: not found (expected an existing file)"]
    assert any(f["kind"] == "weak_commitment" for f in data["findings"])


def test_cli_exit_code_is_zero_when_every_file_is_analysed(tmp_path: Path) -> None:
    path = tmp_path / "eur.yaml"
    path.write_text(EUR_OFFER, encoding="utf-8")
    result = CliRunner().invoke(cli, ["clauses", str(path)])
    assert result.exit_code == 0, result.output
    assert "(vendor: Eurocloud SARL)" in result.stdout
