"""Untrusted inputs never take a run down (issue 16, issue 10 item 1).

Every input file ends among the scored offers or in `not_evaluated`, named, with a coded
reason; the good offers beside a bad one are still scored; every resource is bounded before the
work starts; a vendor's file cannot reconfigure the run; offer ids are unique across a run.
"""

from __future__ import annotations

import io
import shutil
import zipfile
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hostile_workbooks import write_ods, write_xls, write_xlsb

from evaltool.cli import cli
from evaltool.issues import is_registered
from evaltool.models import ScoreReport
from evaltool.normalize.core import normalize_files
from evaltool.pipeline import score_files

ROOT = Path(__file__).resolve().parents[1]
OFFERS = ROOT / "offers"
GOOD_XLSX = OFFERS / "nimbusgpu-h100-ib.xlsx"
GOOD_YAML = OFFERS / "cumulus-tpu-v5p.yaml"
HPC_YAML = (OFFERS / "hpc-centre-a100.yaml").read_text(encoding="utf-8")
PURCHASE_YAML = (ROOT / "tests" / "offers_corpus" / "purchase_kwh.yaml").read_text(
    encoding="utf-8")


def _good_copy(tmp_path: Path) -> Path:
    folder = tmp_path / "good"
    folder.mkdir(exist_ok=True)
    return Path(shutil.copy(GOOD_XLSX, folder / GOOD_XLSX.name))


def _score(paths: list[Path], **kwargs: Any) -> ScoreReport:
    return score_files(paths, draws=200, **kwargs)


def _codes(report: Any, path: Path) -> list[str]:
    return [str(e.get("code")) for n in report.not_evaluated
            if n.source.get("file") == str(path) for e in n.errors]


def _warning_codes(report: ScoreReport | Any, path: Path) -> list[str]:
    return [str(w.get("code")) for o in report.offers if o.source.get("file") == str(path)
            for w in o.warnings]


def _assert_accounted(report: Any, paths: list[Path]) -> None:
    scored = {str(o.source.get("file")) for o in report.offers}
    listed = {str(n.source.get("file")) for n in report.not_evaluated}
    for path in paths:
        assert str(path) in scored | listed, f"{path} is neither scored nor listed"
    for item in report.not_evaluated:
        for error in item.errors:
            assert is_registered(str(error.get("code"))), error
            assert not str(error.get("code")).startswith("internal"), error


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


# --- one bad file, the rest still scored ------------------------------------------------

@pytest.mark.parametrize(("name", "text", "code"), [
    ("nul.yaml", HPC_YAML.replace("Slurm", "Sl\x00urm"), "invalid-yaml"),
    ("deep.yaml", "vendor: x\nextra: " + "[" * 5000 + "]" * 5000 + "\n", "too-deeply-nested"),
    ("deep-block.json", '{"vendor": "x", "a": ' + '{"b": ' * 900 + "1" + "}" * 900 + "}",
     "too-deeply-nested"),
    ("empty-list.yaml", "offers: []\n", "no-offer-in-file"),
    ("pernode.yaml", HPC_YAML.replace("  gpus per node: 4\n", "").replace("  nodes: 64\n", ""),
     "required-field-missing"),
])
def test_a_bad_file_is_listed_and_the_good_offer_is_still_scored(
        tmp_path: Path, name: str, text: str, code: str) -> None:
    bad = _write(tmp_path, name, text)
    good = _good_copy(tmp_path)
    report = _score([bad, good], fx=["EUR=1.08"])
    _assert_accounted(report, [bad, good])
    assert [o.source["file"] for o in report.offers] == [str(good)]
    assert code in _codes(report, bad)


def test_a_per_node_price_without_gpus_per_node_names_the_price_and_its_key(
        tmp_path: Path) -> None:
    bad = _write(tmp_path, "pernode.yaml", HPC_YAML.replace("  gpus per node: 4\n", "")
                 .replace("  nodes: 64\n", "  gpus: 256\n"))
    result = normalize_files([bad], {"EUR": 1.08})
    assert not result.offers
    texts = [e["text"] for e in result.not_evaluated[0].errors]
    assert any("GPUs per node" in t and "pricing.rate" in t for t in texts), texts


def test_a_price_in_a_currency_without_a_rate_fails_that_offer_only(tmp_path: Path) -> None:
    bad = _write(tmp_path, "hpc.yaml", HPC_YAML)
    good = _good_copy(tmp_path)
    report = _score([bad, good])  # no EUR rate given
    _assert_accounted(report, [bad, good])
    assert [o.source["file"] for o in report.offers] == [str(good)]
    assert any("EUR" in e["text"] for n in report.not_evaluated for e in n.errors)


def test_an_impossible_date_drops_that_date_with_a_warning_not_the_offer(tmp_path: Path) -> None:
    bad = _write(tmp_path, "date.yaml", HPC_YAML.replace("28.02.2027", "2027-02-30"))
    result = normalize_files([bad], {"EUR": 1.08})
    assert len(result.offers) == 1 and not result.not_evaluated
    offer = result.offers[0]
    assert offer.fields.valid_until is None
    assert any(w.get("field") == "valid_until" for w in offer.warnings)


def test_amortisation_of_zero_months_drops_the_derived_price_with_a_warning(
        tmp_path: Path) -> None:
    bad = _write(tmp_path, "amort.yaml", PURCHASE_YAML.replace("48 months", "0 months"))
    good = _good_copy(tmp_path)
    report = _score([bad, good])
    _assert_accounted(report, [bad, good])
    assert {str(bad), str(good)} <= {o.source["file"] for o in report.offers}
    result = normalize_files([bad])
    assert result.offers[0].fields.amortization_months is None
    assert result.offers[0].fields.capex_usd is not None


def test_huge_integers_and_50000_digit_values_are_not_read_as_numbers(tmp_path: Path) -> None:
    bad = _write(tmp_path, "digits.yaml", HPC_YAML.replace("nodes: 64", "nodes: " + "9" * 400)
                 .replace("quota: 200 TB", "quota: '" + "7" * 50_000 + "'"))
    result = normalize_files([bad], {"EUR": 1.08})
    assert len(result.offers) + len(result.not_evaluated) == 1
    warnings = [w for o in result.offers for w in o.warnings] + [
        e for n in result.not_evaluated for e in n.errors]
    assert any(w.get("code") == "number-too-long" for w in warnings), warnings


def test_a_workbook_with_a_corrupt_deflate_stream_is_unreadable_not_fatal(tmp_path: Path) -> None:
    raw = bytearray(GOOD_XLSX.read_bytes())
    with zipfile.ZipFile(io.BytesIO(bytes(raw))) as archive:
        info = archive.getinfo("xl/worksheets/sheet1.xml")
    start = info.header_offset + 30 + len(info.filename.encode()) + len(info.extra)
    for offset in range(start + 10, start + info.compress_size - 10, 7):
        raw[offset] ^= 0x5A
    bad = tmp_path / "corrupt.xlsx"
    bad.write_bytes(bytes(raw))
    good = _good_copy(tmp_path)
    report = _score([bad, good])
    _assert_accounted(report, [bad, good])
    assert _codes(report, bad) == ["workbook-damaged"]


@pytest.mark.parametrize("cell", ["XFD1048576", "XFD5000"])
def test_a_stray_far_cell_is_refused_before_loading_naming_the_range(
        tmp_path: Path, cell: str) -> None:
    from openpyxl import Workbook

    wb = Workbook()
    ws = wb.active
    assert ws is not None
    ws["A1"], ws["B1"], ws[cell] = "Vendor", "Far Cloud", "x"
    bad = tmp_path / "far.xlsx"
    wb.save(bad)
    result = normalize_files([bad])
    [item] = result.not_evaluated
    [error] = item.errors
    assert error["code"] == "sheet-too-large"
    assert f"A1:{cell}" in error["text"] and "300,000 cells" in error["text"]


@pytest.mark.parametrize("writer", [write_ods, write_xlsb], ids=["ods", "xlsb"])
@pytest.mark.parametrize(("row", "col", "cell"), [(1_048_575, 16_383, "XFD1048576"),
                                                  (4_999, 16_383, "XFD5000")])
def test_a_far_cell_in_an_ods_or_xlsb_is_refused_before_loading_naming_the_range(
        tmp_path: Path, writer: Any, row: int, col: int, cell: str) -> None:
    bad = writer(tmp_path / f"far.{writer.__name__[6:]}",
                 {(0, 0): "Vendor", (0, 1): "Far Cloud", (row, col): "x"})
    good = _good_copy(tmp_path)
    report = _score([bad, good])
    _assert_accounted(report, [bad, good])
    [item] = report.not_evaluated
    [error] = item.errors
    assert error["code"] == "sheet-too-large"
    assert f"A1:{cell}" in error["text"] and "300,000 cells" in error["text"]
    assert error["where"]["sheet"] == "Quote"


def test_a_far_cell_in_an_xls_is_refused_before_loading_naming_the_range(
        tmp_path: Path) -> None:
    bad = write_xls(tmp_path / "far.xls", {(0, 0): "Vendor", (0, 1): "Far Cloud",
                                           (65_535, 255): "x"})
    good = _good_copy(tmp_path)
    report = _score([bad, good])
    _assert_accounted(report, [bad, good])
    [error] = report.not_evaluated[0].errors
    assert error["code"] == "sheet-too-large"
    assert "A1:IV65536" in error["text"] and error["where"]["sheet"] == "Quote"


def _directory_past_the_file(raw: bytearray) -> None:
    raw[0x30:0x34] = (999).to_bytes(4, "little")


def _difat_loop(raw: bytearray) -> None:
    """The sector table's extension chain points at itself, and claims 4 billion links."""
    raw[0x44:0x4C] = (3).to_bytes(4, "little") + (0xFFFFFFFF).to_bytes(4, "little")
    raw[512 + 3 * 512 + 508:512 + 4 * 512] = (3).to_bytes(4, "little")


@pytest.mark.parametrize("damage", [_directory_past_the_file, _difat_loop])
def test_an_xls_whose_container_is_broken_is_listed_as_unreadable(
        tmp_path: Path, damage: Any) -> None:
    raw = bytearray(write_xls(tmp_path / "quote.xls", {(0, 0): "Vendor"}).read_bytes())
    damage(raw)
    bad = tmp_path / "broken.xls"
    bad.write_bytes(bytes(raw))
    good = _good_copy(tmp_path)
    report = _score([bad, good])
    _assert_accounted(report, [bad, good])
    assert _codes(report, bad) == ["xls-container-damaged"]


@pytest.mark.parametrize("writer", [write_ods, write_xlsb, write_xls], ids=["ods", "xlsb", "xls"])
def test_an_ods_xlsb_or_xls_quote_within_the_limits_is_read(tmp_path: Path, writer: Any) -> None:
    cells = {(0, 0): "Vendor", (0, 1): "Orion Cloud", (1, 0): "Accelerator", (1, 1): "H100 SXM",
             (2, 0): "GPU count", (2, 1): "1024", (3, 0): "Price per GPU-hour", (3, 1): "$2.10",
             (600, 1): "a note far below the table, still within the limit"}
    path = writer(tmp_path / f"quote.{writer.__name__[6:]}", cells)  # .ods, .xlsb, .xls
    result = normalize_files([path])
    assert not result.not_evaluated
    [offer] = result.offers
    assert (offer.fields.vendor, offer.fields.gpu_count) == ("Orion Cloud", 1024)
    assert offer.fields.price_usd_per_gpu_hour == pytest.approx(2.10)


@pytest.mark.parametrize(("name", "members", "code"), [
    ("no-content.ods", {"mimetype": "application/vnd.oasis.opendocument.spreadsheet"},
     "not-an-opendocument-spreadsheet"),
    ("broken.ods", {"content.xml": "<office:document-content><table:table"}, "workbook-damaged"),
    ("broken.xlsb", {"[Content_Types].xml": "<Types/>", "xl/workbook.bin": "\x9c\x01\xff",
                     "xl/_rels/workbook.bin.rels": "<Relationships/>"}, "workbook-damaged"),
])
def test_a_broken_ods_or_xlsb_is_listed_with_its_own_code(
        tmp_path: Path, name: str, members: dict[str, str], code: str) -> None:
    bad = tmp_path / name
    with zipfile.ZipFile(bad, "w") as archive:
        for member, text in members.items():
            archive.writestr(member, text)
    good = _good_copy(tmp_path)
    report = _score([bad, good])
    _assert_accounted(report, [bad, good])
    assert [o.source["file"] for o in report.offers] == [str(good)]
    assert _codes(report, bad) == [code]


def test_every_problem_the_readers_raise_has_a_code_of_its_own() -> None:
    """No reader falls back on the generic `invalid-input`: each failure names its own code."""
    import ast

    for source in [*(ROOT / "evaltool" / "read").glob("*.py"), ROOT / "evaltool" / "yamlsafe.py"]:
        tree = ast.parse(source.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Problem":
                codes = [k.value for k in node.keywords if k.arg == "code"]
                assert codes, f"{source.name}:{node.lineno}: a Problem without its own code"
                if isinstance(codes[0], ast.Constant):
                    assert codes[0].value != "invalid-input", f"{source.name}:{node.lineno}"
                    assert is_registered(codes[0].value), f"{source.name}:{node.lineno}"


def test_the_readme_limits_table_names_every_cap() -> None:
    from evaltool import yamlsafe
    from evaltool.clauses import readers
    from evaltool.read import mapping, safety, tabular, xlsx
    from evaltool.report import sheets

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    limits = text[text.index("## Limits"):]
    limits = limits[:limits.index("\n## ", 5)]
    caps = [safety.MAX_FILE_BYTES, safety.MAX_TEXT_BYTES, safety.MAX_UNCOMPRESSED_BYTES,
            safety.MAX_COMPRESSION_RATIO, safety.MAX_ZIP_MEMBERS, safety.MAX_VALUE_CHARS,
            safety.MAX_CLAUSE_CELL_CHARS, safety.MAX_NUMBER_DIGITS, xlsx.MAX_CELLS_PER_SHEET,
            tabular.MAX_CSV_ROWS, yamlsafe.MAX_YAML_BYTES, yamlsafe.MAX_YAML_DEPTH,
            yamlsafe.MAX_EXPANDED_NODES, mapping.MAX_NODES, readers.MAX_CONTRACT_PAGES,
            readers.MAX_CONTRACT_CHARS, sheets.MAX_DETAIL_OFFERS]
    for cap in caps:
        assert f"{cap:,}" in limits, f"the README's limits table does not name {cap:,}"


def test_a_csv_over_the_row_limit_is_refused_naming_the_limit(tmp_path: Path) -> None:
    from evaltool.read.tabular import MAX_CSV_ROWS

    bad = tmp_path / "many.csv"
    bad.write_text("provider,accelerator,gpu count,price per gpu hour\n"
                   + "V,H100,8,$2\n" * (MAX_CSV_ROWS + 1), encoding="utf-8")
    [item] = normalize_files([bad]).not_evaluated
    assert item.errors[0]["code"] == "too-many-rows"
    assert f"{MAX_CSV_ROWS:,}" in item.errors[0]["text"]


def test_a_contract_pdf_over_the_page_limit_is_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from pypdf import PdfWriter

    from evaltool.clauses import readers
    from evaltool.errors import InputError

    writer = PdfWriter()
    for _ in range(4):
        writer.add_blank_page(612, 792)
    pdf = tmp_path / "contract.pdf"
    with pdf.open("wb") as handle:
        writer.write(handle)
    monkeypatch.setattr(readers, "MAX_CONTRACT_PAGES", 3)
    with pytest.raises(InputError) as caught:
        readers.read_contracts(pdf)
    assert caught.value.problems[0].code == "too-many-pages"
    assert "at most 3 pages" in str(caught.value)


def test_a_failure_while_scoring_one_offer_lists_it_and_scores_the_rest(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from evaltool import pipeline

    real = pipeline.evaluate_offer
    bad, good = Path(shutil.copy(GOOD_YAML, tmp_path / GOOD_YAML.name)), _good_copy(tmp_path)

    def flaky(offer: Any, *args: Any, **kwargs: Any) -> Any:
        if offer.source["file"] == str(bad):
            raise ZeroDivisionError("float division by zero")
        return real(offer, *args, **kwargs)

    monkeypatch.setattr(pipeline, "evaluate_offer", flaky)
    report = _score([bad, good])
    assert [o.source["file"] for o in report.offers] == [str(good)]
    assert _codes(report, bad) == ["internal-error-in-offer"]


# --- identity -----------------------------------------------------------------------------

def test_same_named_files_in_different_folders_get_distinct_ids(tmp_path: Path) -> None:
    first, second = tmp_path / "acme", tmp_path / "zenith"
    first.mkdir()
    second.mkdir()
    a = _write(first, "quote.yaml", GOOD_YAML.read_text(encoding="utf-8"))
    b = _write(second, "quote.yaml", HPC_YAML)
    report = _score([a, b], fx=["EUR=1.08"])
    ids = sorted(o.id for o in report.offers)
    assert ids == ["acme-quote", "zenith-quote"]


def test_the_same_offer_passed_twice_is_flagged_on_both(tmp_path: Path) -> None:
    first = _good_copy(tmp_path)
    (tmp_path / "again").mkdir()
    second = Path(shutil.copy(GOOD_XLSX, tmp_path / "again" / GOOD_XLSX.name))
    result = normalize_files([first, second])
    assert len({o.id for o in result.offers}) == 2
    for offer in result.offers:
        assert "duplicate-offer" in [w["code"] for w in offer.warnings]


def test_one_file_given_by_two_paths_is_read_once(tmp_path: Path) -> None:
    good = _good_copy(tmp_path)
    report = _score([good, good.parent / ".." / "good" / good.name])
    assert len(report.offers) == 1


# --- roles ----------------------------------------------------------------------------------

WORKLOAD = "name: tiny\nkind: fine-tuning\nparams_b: 7\ntokens_b: 1\n"


def test_a_workload_among_the_offers_is_not_obeyed_unless_allowed(tmp_path: Path) -> None:
    workload = _write(tmp_path, "workload.yaml", WORKLOAD)
    good = _good_copy(tmp_path)
    report = _score([workload, good])
    assert _codes(report, workload) == ["not-an-offer"]
    assert report.workload["name"] != "tiny"
    allowed = _score([workload, good], inputs_may_configure=True)
    assert allowed.workload["name"] == "tiny" and not allowed.not_evaluated


def test_an_offer_with_a_stray_workload_key_is_read_as_an_offer(tmp_path: Path) -> None:
    offer = _write(tmp_path, "hpc.yaml", HPC_YAML + "params_b: 70\n")
    report = _score([offer], fx=["EUR=1.08"])
    assert [o.source["file"] for o in report.offers] == [str(offer)]
    assert report.workload["params_b"] != 70 or "default" in report.workload["source"]


def test_a_rates_file_among_the_offers_is_not_obeyed(tmp_path: Path) -> None:
    rates = _write(tmp_path, "fx.yaml", "fx: {EUR: 50}\n")
    good = _good_copy(tmp_path)
    report = _score([rates, good])
    assert _codes(report, rates) == ["not-an-offer"]
    assert "EUR" not in report.assumptions["fx_usd_per_unit"]


def test_the_projects_own_example_folder_still_configures_the_run() -> None:
    report = _score(sorted(OFFERS.iterdir()))
    assert not report.not_evaluated
    assert report.workload["source"].endswith("workload.yaml")


# --- command line ---------------------------------------------------------------------------

def test_a_mistyped_rubric_path_never_echoes_the_files_content(tmp_path: Path) -> None:
    secret = _write(tmp_path, "shadow", "root:$6$salt$hash:20228:0:99999:7:::\n"
                    "daemon:*:20228:0:99999:7:::\n")
    result = CliRunner().invoke(cli, ["score", str(GOOD_XLSX), "--rubric", str(secret)])
    assert result.exit_code == 2
    assert "$6$salt" not in result.output and "daemon" not in result.output


def test_a_mistyped_workload_path_never_echoes_the_files_content(tmp_path: Path) -> None:
    secret = _write(tmp_path, "shadow", "root:$6$salt$hash:20228:0:99999:7:::\n")
    result = CliRunner().invoke(cli, ["score", str(GOOD_XLSX), "--workload", str(secret)])
    assert result.exit_code == 2
    assert "$6$salt" not in result.output


def test_an_internal_error_is_reported_as_a_bug_with_its_own_exit_code(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from evaltool import commands

    def broken() -> Any:
        raise RuntimeError("boom")

    monkeypatch.setattr(commands, "load_catalog", broken)
    monkeypatch.delenv("EVALTOOL_DEBUG", raising=False)
    result = CliRunner().invoke(cli, ["accelerators"])
    assert result.exit_code == 70
    assert "internal error" in result.output and "bug in evaltool" in result.output


def test_a_closed_output_pipe_ends_quietly() -> None:
    import subprocess
    import sys

    proc = subprocess.run(
        f"{sys.executable} -m evaltool accelerators --format json | {sys.executable} -c "
        "'import sys; sys.stdin.close()'",
        shell=True, capture_output=True, text=True, cwd=ROOT, check=False)
    assert "internal error" not in proc.stderr
    assert "Traceback" not in proc.stderr


def test_every_read_limit_is_listed_in_the_readme() -> None:
    from evaltool.clauses.readers import MAX_CONTRACT_CHARS, MAX_CONTRACT_PAGES
    from evaltool.read.safety import (
        MAX_FILE_BYTES,
        MAX_NUMBER_DIGITS,
        MAX_TEXT_BYTES,
        MAX_VALUE_CHARS,
    )
    from evaltool.read.tabular import MAX_CSV_ROWS
    from evaltool.read.xlsx import MAX_CELLS_PER_SHEET
    from evaltool.yamlsafe import MAX_YAML_DEPTH

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    limits = readme.split("## Limits", 1)[1].split("\n## ", 1)[0]
    for value in (MAX_FILE_BYTES // 1_000_000, MAX_TEXT_BYTES // 1_000_000, MAX_CSV_ROWS,
                  MAX_CELLS_PER_SHEET, MAX_YAML_DEPTH, MAX_VALUE_CHARS, MAX_NUMBER_DIGITS,
                  MAX_CONTRACT_PAGES, MAX_CONTRACT_CHARS):
        assert f"{value:,}" in limits, value


# --- over-long cells are cut where the grid is built -------------------------------------

def test_an_over_long_csv_cell_is_replaced_and_named_before_layout_reads_it(
        tmp_path: Path) -> None:
    text = (ROOT / "tests" / "offers_corpus" / "many_offers.csv").read_text(encoding="utf-8")
    lines = text.splitlines()
    lines[1] = lines[1].rsplit(",", 1)[0] + ",\"" + "9" * 50_000 + "\""  # the region cell
    bad = _write(tmp_path, "long-cell.csv", "\n".join(lines) + "\n")
    report = _score([bad])
    _assert_accounted(report, [bad])
    offers = [o for o in report.offers if o.source.get("file") == str(bad)]
    assert len(offers) == len(lines) - 1  # every row is still an offer
    warnings = [w for o in offers for w in o.warnings if w.get("code") == "cell-too-long"]
    assert warnings and all(w["where"].get("cell") == "F2" for w in warnings), warnings


def test_a_long_clause_in_a_contract_sheet_is_kept_a_long_label_elsewhere_is_not(
        tmp_path: Path) -> None:
    from evaltool.read.xlsx import read_workbook

    openpyxl = pytest.importorskip("openpyxl")
    book = openpyxl.Workbook()
    book.active.title = "Pricing"
    book.active["A1"] = "Price per GPU hour"
    book.active["B1"] = "x" * 20_000
    contract = book.create_sheet("Contract terms")
    contract["A1"] = "1.1"
    contract["B1"] = "The provider shall " + "keep the service available " * 700
    path = tmp_path / "long.xlsx"
    book.save(path)
    grids = {g.name: g for g in read_workbook(path)}
    assert len(str(grids["Contract terms"].value(0, 1))) > 5_000
    assert "9" not in str(grids["Pricing"].value(0, 1)) and len(grids["Pricing"].value(0, 1)) < 40
    assert [(p.code, p.where.cell) for p in grids["Pricing"].problems] == [("cell-too-long", "B1")]


def test_counts_are_read_clause_by_clause_in_long_text() -> None:
    from evaltool.normalize.shapes import MAX_COUNT_PHRASE_CHARS, count_facts

    phrase = "24 x Dell XE9680, each with 8x H100 SXM 80GB"
    long_text = "9" * 40_000 + " nodes. " + (phrase + ". ") * 3
    assert count_facts(long_text) == count_facts(phrase) != {}
    assert count_facts("x" * (MAX_COUNT_PHRASE_CHARS + 1) + " 4 nodes") == {}


def test_a_row_copied_many_times_names_a_few_copies_and_counts_the_rest(tmp_path: Path) -> None:
    """Every copy is flagged; each warning names five others and counts the rest, so 300
    copies cost 300 short warnings, not 300 lists of 299."""
    rows = "provider,instance type,accelerator,gpu count,price per gpu hour,region\n"
    rows += "Alpha,a.8x,H100 SXM,8,$2.49,us-east\n" * 300
    path = _write(tmp_path, "copies.csv", rows)
    result = normalize_files([path])
    assert len(result.offers) == 300
    for offer in result.offers:
        [warning] = [w for w in offer.warnings if w["code"] == "duplicate-offer"]
        assert "and 294 more" in warning["text"]
        assert warning["text"].count("(") <= 6
