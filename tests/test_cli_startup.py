"""`evaltool --help` must not import heavy libraries (issue 2; ecosystem.md §4)."""

from __future__ import annotations

import subprocess
import sys

from click.testing import CliRunner

from evaltool.cli import cli

HEAVY = ["pandas", "weasyprint", "openpyxl", "pydantic", "numpy", "pint", "yaml", "jinja2"]


def test_importing_the_cli_loads_no_heavy_library() -> None:
    code = (
        "import sys, evaltool.cli; "
        f"print(sorted(set({HEAVY!r}) & set(sys.modules)))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_every_command_has_help() -> None:
    runner = CliRunner()
    for args in (["--help"], ["score", "--help"], ["normalize", "--help"], ["validate", "--help"],
                 ["clauses", "--help"], ["template", "--help"], ["accelerators", "--help"],
                 ["rubrics", "--help"], ["rubric", "show", "--help"]):
        result = runner.invoke(cli, args)
        assert result.exit_code == 0, (args, result.output)
        assert "Usage:" in result.output


def test_help_loads_no_pipeline_stage() -> None:
    """`evaltool --help` parses flags only: the library behind `evaltool.commands` stays
    unloaded until a command runs (a lazy module, no import inside a function)."""
    code = (
        "import sys\n"
        "from click.testing import CliRunner\n"
        "from evaltool.cli import cli\n"
        "assert CliRunner().invoke(cli, ['score', '--help']).exit_code == 0\n"
        "stages = ('evaltool.pipeline', 'evaltool.normalize', 'evaltool.report.view')\n"
        "print(sorted(m for m in stages if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_the_library_seam_loads_on_first_use() -> None:
    code = (
        "import sys, evaltool\n"
        "before = 'evaltool.pipeline' in sys.modules\n"
        "evaltool.commands.score_files\n"
        "print(before, 'evaltool.pipeline' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False True"
