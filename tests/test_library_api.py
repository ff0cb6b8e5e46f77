"""The library works as documented (issue 14 §2): the README's Python examples run as
written, paths may be str or Path, rates a mapping or CLI strings, results are typed."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import evaltool
from evaltool.errors import UsageError
from evaltool.models import Recommendation, ScoreReport, Sensitivity

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"


def _python_blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)


def test_the_readme_has_python_examples() -> None:
    assert len(_python_blocks()) >= 2


@pytest.mark.parametrize("index", range(len(_python_blocks())))
def test_readme_python_examples_run(index: int, monkeypatch: pytest.MonkeyPatch,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(ROOT)  # the examples name offers/ as a clone has them
    block = _python_blocks()[index]
    exec(compile(block, f"README.md python block {index + 1}", "exec"), {})
    assert capsys.readouterr().out.strip()  # every example prints what it shows


@pytest.fixture(scope="module")
def report() -> ScoreReport:
    return evaltool.score_files(str(ROOT / "offers/hpc-centre-a100.yaml"),
                                workload=str(ROOT / "offers/workload.yaml"),
                                fx={"EUR": 1.08}, draws=200)


def test_paths_may_be_str_or_path_and_rates_a_mapping_or_strings(report: ScoreReport) -> None:
    again = evaltool.score_files([ROOT / "offers/hpc-centre-a100.yaml"],
                                 workload=ROOT / "offers/workload.yaml", fx=["EUR=1.08"],
                                 draws=200)
    assert again.offers[0].estimates == report.offers[0].estimates
    assert report.assumptions["fx_usd_per_unit"]["EUR"] == 1.08


def test_normalize_files_takes_the_same_arguments() -> None:
    by_str = evaltool.normalize_files(str(ROOT / "offers/helios-mi300x.xlsx"), fx={"EUR": 1.08})
    by_path = evaltool.normalize_files([ROOT / "offers/helios-mi300x.xlsx"], fx=["EUR=1.08"])
    assert by_str.offers[0].fields == by_path.offers[0].fields


def test_a_bad_rate_is_a_usage_error() -> None:
    with pytest.raises(UsageError):
        evaltool.normalize_files(str(ROOT / "offers/helios-mi300x.xlsx"), fx={"EUR": "lots"})


def test_recommendation_and_sensitivity_are_typed(report: ScoreReport) -> None:
    decision = evaltool.recommendation(report)
    assert isinstance(decision, Recommendation) and decision.headline
    sens = evaltool.sensitivity(report)
    assert isinstance(sens, Sensitivity)
    assert all(isinstance(p, float) for p in sens.win_probability.values())


def test_scores_frame_carries_the_money_columns(report: ScoreReport) -> None:
    frame = evaltool.scores_frame(report)
    assert {"total_cost_usd", "total_economic_cost_usd", "cost_of_delay_usd"} <= set(frame)


def test_render_reports_says_what_became_of_each_output(report: ScoreReport,
                                                        tmp_path: Path) -> None:
    outcomes = evaltool.render_reports(report, [str(tmp_path / "a.json"), tmp_path / "b.csv"])
    assert [o.written for o in outcomes] == [True, True]
    assert (tmp_path / "a.json").is_file() and (tmp_path / "b.csv").is_file()


def test_the_package_is_typed() -> None:
    assert (Path(evaltool.__file__).parent / "py.typed").is_file()


def test_python_dash_m_evaltool_runs() -> None:
    import subprocess
    import sys

    result = subprocess.run([sys.executable, "-m", "evaltool", "--version"], cwd=ROOT,
                            capture_output=True, text=True, check=False)
    assert result.returncode == 0 and "version" in result.stdout
