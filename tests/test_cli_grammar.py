"""One CLI grammar (issue 14 §5, issue 16 §5): every command that prints data takes the
same --format choices and -o FILE|-, colour only on a terminal and never with NO_COLOR,
vendor control characters never reach the terminal, every output that can be written is
written, and the workload's and rubric's problems are reported at once."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from evaltool.cli import FORMATS, cli

ROOT = Path(__file__).resolve().parents[1]
OFFERS = ROOT / "offers"
WORKLOAD = str(OFFERS / "workload.yaml")
TWO_OFFERS = [str(OFFERS / "nimbusgpu-h100-ib.xlsx"), str(OFFERS / "hpc-centre-a100.yaml")]

DATA_COMMANDS = (
    ["score"], ["normalize"], ["validate"], ["clauses"], ["accelerators"], ["rubrics"],
    ["rubric", "show"], ["explain"], ["market"],
)


def _format_choices(help_text: str) -> list[str]:
    found = re.search(r"--format \[([^\]]+)\]", help_text)
    assert found, help_text
    return found.group(1).split("|")


@pytest.mark.parametrize("command", DATA_COMMANDS, ids=" ".join)
def test_every_data_command_offers_the_same_format_choices(command: list[str]) -> None:
    result = CliRunner().invoke(cli, [*command, "--help"], terminal_width=200)
    assert result.exit_code == 0, result.output
    assert _format_choices(result.output) == list(FORMATS)
    assert "-o, --output" in result.output


def test_the_format_choices_are_those_the_text_renderer_knows() -> None:
    from evaltool.report import text

    assert text.FORMATS == FORMATS


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("command", [["accelerators"], ["rubrics"],
                                     ["rubric", "show", "llm-inference"],
                                     ["explain"], ["explain", "weak-commitment"]], ids=" ".join)
def test_catalog_commands_print_every_format(command: list[str], fmt: str) -> None:
    result = CliRunner().invoke(cli, [*command, "--format", fmt])
    assert result.exit_code == 0, result.output
    assert result.stdout.strip()
    if fmt == "json":
        json.loads(result.stdout)
    if fmt == "yaml":
        import yaml

        assert yaml.safe_load(result.stdout)
    if fmt == "markdown":
        assert result.stdout.startswith("|") or "|---" in result.stdout


def test_rubric_show_as_csv_has_every_criterion_cell_filled() -> None:
    import csv
    import io

    result = CliRunner().invoke(cli, ["rubric", "show", "llm-pretraining", "--format", "csv"])
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert len(rows) > 10
    assert {r["Direction"] for r in rows} <= {"higher is better", "lower is better",
                                              "levels (best first)"}
    for row in rows:
        assert all(value.strip() for value in row.values()), row


def test_dash_output_is_standard_output_and_a_path_is_a_file(tmp_path: Path) -> None:
    runner = CliRunner()
    to_stdout = runner.invoke(cli, ["accelerators", "--format", "json", "-o", "-"])
    assert json.loads(to_stdout.stdout)["accelerators"]
    out = tmp_path / "catalog.csv"
    to_file = runner.invoke(cli, ["accelerators", "--format", "csv", "-o", str(out)])
    assert to_file.exit_code == 0 and to_file.stdout == ""
    assert out.read_text(encoding="utf-8").startswith("id,vendor,")


def test_score_writes_json_to_standard_output_beside_files(tmp_path: Path) -> None:
    out = tmp_path / "scores.csv"
    result = CliRunner().invoke(cli, ["score", *TWO_OFFERS, "--workload", WORKLOAD,
                                      "--fx", "EUR=1.08", "--format", "json", "-o", "-",
                                      "-o", str(out)])
    assert result.exit_code == 0, result.stderr
    assert len(json.loads(result.stdout)["offers"]) == 2
    assert out.read_text(encoding="utf-8-sig").startswith("Rank,Offer id,")


def test_no_color_and_a_narrow_terminal_are_respected(monkeypatch: pytest.MonkeyPatch) -> None:
    from evaltool.report import text

    monkeypatch.setenv("NO_COLOR", "1")

    class Tty:
        def isatty(self) -> bool:
            return True

    assert text.use_color(Tty()) is False
    monkeypatch.delenv("NO_COLOR")
    assert text.use_color(Tty()) is True
    monkeypatch.setenv("COLUMNS", "72")
    assert text.terminal_width() == 72
    result = CliRunner().invoke(cli, ["score", *TWO_OFFERS, "--workload", WORKLOAD,
                                      "--fx", "EUR=1.08"], env={"COLUMNS": "72"})
    from evaltool.report.terminal import display_width

    assert max(display_width(line) for line in result.stdout.splitlines()) <= 72
    assert "\x1b[" not in result.stdout  # not a terminal: no colour


HOSTILE_OFFER = """\
vendor: "Evil\\e]0;pwned\\aCloud\\e[2J"
offer name: "H100 \\u009b31m cluster \\u202eblot"
accelerator: H100-SXM
gpu count: 64
gpus per node: 8
price per gpu hour: "$2.10"
contract: "The provider will use reasonable efforts\\e]52;c;ZXZpbA==\\a to deliver the \\
  cluster by 2027-01-15.\\r\\e[1A"
"""


@pytest.mark.parametrize("fmt", FORMATS)
def test_vendor_control_characters_never_reach_the_terminal(tmp_path: Path, fmt: str) -> None:
    offer = tmp_path / "evil.yaml"
    offer.write_text(HOSTILE_OFFER, encoding="utf-8")  # YAML escapes: \e is ESC, \a BEL
    runner = CliRunner()
    for command in (["normalize", str(offer)], ["clauses", str(offer)],
                    ["score", str(offer), "--workload", WORKLOAD]):
        result = runner.invoke(cli, [*command, "--format", fmt])
        assert result.exit_code in (0, 1), (command, result.output)
        for stream in (result.stdout, result.stderr):
            assert not re.search("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e]",
                                 stream.replace("\r\n", "\n")), (command, fmt, stream)
        if fmt == "json":
            json.loads(result.stdout)


def test_terminal_safe_escapes_visibly_and_keeps_json_valid() -> None:
    from evaltool.report.text import terminal_safe

    assert terminal_safe("a\x1b[2Jb\x07c\u202ed") == "a\\u001b[2Jb\\u0007c\\u202ed"
    assert terminal_safe("line\r\nnext\ttab") == "line\r\nnext\ttab"
    assert json.loads(terminal_safe(json.dumps("x\x9by", ensure_ascii=False))) == "x\x9by"


def test_one_failed_output_never_stops_the_others(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    from evaltool.errors import RenderError
    from evaltool.report import pdf

    def no_pango() -> None:
        raise RenderError("PDF output needs the Pango text libraries, which could not be "
                          "loaded (libpango-1.0.so.0: cannot open shared object file)")

    monkeypatch.setattr(pdf, "_weasyprint", no_pango)
    memo, scores, sheet = tmp_path / "memo.pdf", tmp_path / "scores.json", tmp_path / "s.xlsx"
    result = CliRunner().invoke(cli, ["score", *TWO_OFFERS, "--workload", WORKLOAD,
                                      "--fx", "EUR=1.08", "-o", str(memo), "-o", str(scores),
                                      "-o", str(sheet)])
    assert result.exit_code == 3, result.stderr
    assert not memo.exists()
    assert len(json.loads(scores.read_text(encoding="utf-8"))["offers"]) == 2
    assert sheet.read_bytes()[:2] == b"PK"
    assert "not written" in result.stderr and "memo.pdf" in result.stderr
    assert "Pango" in result.stderr and "2 of 3 outputs written" in result.stderr


def test_an_unknown_output_extension_is_refused_before_any_work(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["score", *TWO_OFFERS, "-o", str(tmp_path / "x.docx")])
    assert result.exit_code == 2 and ".docx" in result.stderr


def test_a_missing_input_file_is_named(tmp_path: Path) -> None:
    missing = tmp_path / "nope.xlsx"
    result = CliRunner().invoke(cli, ["score", TWO_OFFERS[0], str(missing), "--workload",
                                      WORKLOAD])
    assert result.exit_code == 1
    assert "nope.xlsx" in result.stdout and "nope.xlsx" in result.stderr


def test_workload_and_rubric_problems_are_reported_at_once(tmp_path: Path) -> None:
    workload = tmp_path / "workload.yaml"
    workload.write_text("name: x\nkind: bogus\nparams_b: -1\n", encoding="utf-8")
    rubric = tmp_path / "rubric.yaml"
    rubric.write_text("name: r\nversion: 1\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["validate", TWO_OFFERS[0], "--workload", str(workload),
                                      "--rubric", str(rubric)])
    assert result.exit_code == 2
    assert "kind" in result.stderr and "params_b" in result.stderr
    assert "rubric" in result.stderr and "criteria" in result.stderr
    # One error: each file's issues one to a line, each naming its file and key.
    lines = result.stderr.splitlines()
    assert lines[0].startswith(f"error: {workload} › kind: invalid workload value")
    assert any(line.startswith(f"  {workload} › params_b: invalid workload value (found '-1'")
               for line in lines)
    rubric_lines = [line for line in lines if line.lstrip().startswith(f"{rubric} › ")]
    assert rubric_lines and all("rubric key" in line or "rubric value" in line
                                for line in rubric_lines)
    assert sum(line.startswith("error:") for line in lines) == 1


def test_a_rubric_error_never_echoes_the_file_contents(tmp_path: Path) -> None:
    secret = tmp_path / "shadow"
    secret.write_text("root: hunter2-secret\npassword: s3cret-value\n", encoding="utf-8")
    for args in (["rubric", "show", str(secret)],
                 ["score", TWO_OFFERS[0], "--rubric", str(secret)],
                 ["score", TWO_OFFERS[0], "--workload", str(secret)]):
        result = CliRunner().invoke(cli, args)
        assert result.exit_code == 2, args
        assert "hunter2" not in result.output and "s3cret" not in result.output, result.output


def test_validate_lists_every_input_in_every_format(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["validate", *TWO_OFFERS, "--fx", "EUR=1.08",
                                      "--format", "json"])
    data = json.loads(result.stdout)
    assert data["total"] == 2 and {e["file"] for e in data["inputs"]} == set(TWO_OFFERS)


def test_broken_pipe_is_not_an_internal_error() -> None:
    import subprocess
    import sys

    proc = subprocess.run(
        f"{sys.executable} -m evaltool explain | head -1", shell=True, cwd=ROOT,
        capture_output=True, text=True, check=False,
    )
    assert proc.stdout.count("\n") == 1
    assert "internal error" not in proc.stderr


def test_when_nothing_could_be_evaluated_the_table_says_so(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["score", str(tmp_path / "a.xlsx"),
                                      str(tmp_path / "b.yaml"), "--workload", WORKLOAD])
    assert result.exit_code == 1
    assert "No offer could be evaluated (2 inputs not evaluated)" in result.stdout
    assert "a.xlsx" in result.stdout and "b.yaml" in result.stdout
    assert "knock-out" not in result.stdout  # not "none passes the gates": none was scored


def test_shell_completion_works_as_the_readme_says() -> None:
    import os
    import subprocess
    import sys

    env = dict(os.environ, COMP_WORDS="evaltool sc", COMP_CWORD="1",
               _EVALTOOL_COMPLETE="bash_complete")
    done = subprocess.run([sys.executable, "-m", "evaltool"], cwd=ROOT, env=env,
                          capture_output=True, text=True, check=False)
    assert "score" in done.stdout
    assert "_EVALTOOL_COMPLETE=bash_source evaltool" in (ROOT / "README.md").read_text()


# Library files whose messages still name a flag; each is a debt owned by another stage's
# work, and the list may only shrink.
FLAG_WORDING_DEBT: set[str] = set()


def _cli_flags() -> set[str]:
    flags: set[str] = set()

    def walk(command: click.Command) -> None:
        for param in command.params:
            if isinstance(param, click.Option):
                flags.update(param.opts + param.secondary_opts)
        if isinstance(command, click.Group):
            for sub in command.commands.values():
                walk(sub)

    walk(cli)
    return flags - {"--help", "--version"}


def test_the_library_never_names_a_command_line_flag() -> None:
    """Only cli.py speaks of flags: a library message names its setting (an error's
    `setting`), and the CLI says which flag sets it."""
    flags = sorted(_cli_flags(), key=len, reverse=True)
    pattern = re.compile(r"(?<![\w-])(?:" + "|".join(map(re.escape, flags)) + r")(?![\w-])")
    offenders = []
    package = ROOT / "evaltool"
    for path in sorted(package.rglob("*.py")):
        rel = str(path.relative_to(package))
        if rel == "cli.py" or rel in FLAG_WORDING_DEBT:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {
            id(node.body[0].value) for node in ast.walk(tree)
            if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef)
            and node.body and isinstance(node.body[0], ast.Expr)
        }
        offenders += [
            f"{rel}:{node.lineno}: {node.value[:60]!r}" for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
            and id(node) not in docstrings and pattern.search(node.value)
        ]
    assert not offenders, offenders


def test_an_error_about_a_setting_is_led_by_its_flag() -> None:
    result = CliRunner().invoke(cli, ["score", *TWO_OFFERS, "--fx", "EUR=abc"])
    assert result.exit_code == 2
    assert "error: --fx: 'EUR=abc'" in result.output
    result = CliRunner().invoke(cli, ["score", *TWO_OFFERS, "-o", "memo.docx"])
    assert result.exit_code == 2
    assert "error: -o memo.docx: unknown output format" in result.output


def test_an_offer_priced_in_a_currency_without_a_rate_is_told_which_flag_gives_it() -> None:
    euro_offer = ROOT / "tests" / "offers_corpus" / "kv_german.xlsx"
    result = CliRunner().invoke(cli, ["normalize", str(euro_offer)])
    assert result.exit_code == 1
    assert "no exchange rate for EUR" in result.output
    assert "give the rate with --fx EUR=<USD per 1 EUR>" in result.output
