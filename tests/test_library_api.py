"""The library works as documented (issue 14 §2): the README's Python examples run as
written, paths may be str or Path, rates a mapping or CLI strings, results are typed."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import evaltool
from evaltool.errors import UsageError
from evaltool.models import Recommendation, ScoreReport, Sensitivity, Workload

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


# --------------------------------------------------------------------------- every public function
# Each function of evaltool.api, as a notebook user calls it (issue 13 §4: api.py had no test).


def test_load_workload_gives_the_files_workload_validated() -> None:
    import yaml

    path = ROOT / "offers/workload.yaml"
    workload = evaltool.load_workload(str(path))
    assert isinstance(workload, Workload)
    assert workload == evaltool.load_workload(path)  # str or Path
    stated = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert workload.name == stated["name"] and workload.params_b == stated["params_b"]
    assert workload.deadline_days == stated["deadline_days"]


@pytest.mark.parametrize("bad", ["offers/no-such-workload.yaml", "README.md"])
def test_a_bad_workload_is_a_usage_error_naming_the_file(bad: str) -> None:
    with pytest.raises(UsageError, match=re.escape(bad)):
        evaltool.load_workload(ROOT / bad if bad == "README.md" else bad)


def test_load_rubric_by_name_or_path_with_the_six_categories() -> None:
    default = evaltool.load_rubric()
    assert default.name == "llm-pretraining"  # the default rubric
    shipped = sorted(p.stem for p in (ROOT / "rubrics").glob("*.yaml"))
    assert {"llm-pretraining", "llm-inference", "fine-tuning"} <= set(shipped)
    for name in shipped:
        rubric = evaltool.load_rubric(name)
        assert rubric.name == name
        assert rubric == evaltool.load_rubric(ROOT / "rubrics" / f"{name}.yaml")  # same by path
        assert rubric == evaltool.load_rubric(str(ROOT / "rubrics" / f"{name}.yaml"))
        assert {"compute", "network", "storage", "lock_in", "contract", "cost"} <= set(
            rubric.categories)


def test_an_unknown_rubric_is_a_usage_error_listing_the_shipped_ones() -> None:
    with pytest.raises(UsageError, match="llm-pretraining") as caught:
        evaltool.load_rubric("no-such-rubric")
    assert "no-such-rubric" in str(caught.value)


def test_load_catalog_is_the_built_in_catalog_with_sources() -> None:
    catalog = evaltool.load_catalog()
    promised = ("A100-SXM-80GB", "H100-SXM", "H200", "B200", "MI300X", "Gaudi3", "TPU-v5p",
                "Trainium2")
    for accelerator_id in promised:
        accelerator = catalog.get(accelerator_id)
        assert accelerator is not None and accelerator.id == accelerator_id
        assert accelerator.memory_gb and accelerator.dense_tflops and accelerator.sources


def test_analyse_clauses_flags_reasonable_effort_and_names_its_source(tmp_path: Path) -> None:
    weak = tmp_path / "weak.txt"
    weak.write_text("Provider will use commercially reasonable efforts to deliver the nodes "
                    "by 1 March 2027.\n", encoding="utf-8")
    analyses = evaltool.analyse_clauses(str(weak))  # one path ...
    assert len(analyses) == 1 and analyses[0].sources == [str(weak)]
    assert "weak-commitment" in {f.code for f in analyses[0].findings}
    contract = ROOT / "tests/fixtures/contracts/gpu_cloud_msa.md"
    both = evaltool.analyse_clauses([weak, contract], vendor_names=["Provider"])  # ... or many
    assert [a.sources for a in both] == [[str(weak)], [str(contract)]]
    assert all(f.code for a in both for f in a.findings)  # every finding carries its code


def test_analyse_clauses_of_a_missing_file_is_an_error_naming_it(tmp_path: Path) -> None:
    from evaltool.errors import EvaltoolError

    missing = tmp_path / "no-such-contract.txt"
    with pytest.raises(EvaltoolError, match=re.escape(missing.name)):
        evaltool.analyse_clauses(missing)


def test_scores_frame_has_one_row_per_offer_best_first(report: ScoreReport) -> None:
    from evaltool.api import FRAME_ESTIMATES

    frame = evaltool.scores_frame(report)
    assert frame.index.name == "rank"
    assert list(frame["id"]) == [o.id for o in report.offers]
    assert list(frame.index) == sorted(frame.index)
    assert set(FRAME_ESTIMATES) <= set(frame)
    best = report.offers[0]
    assert frame.loc[best.rank, "total_cost_usd"] == best.estimates["total_cost_usd"]
    assert {f"category_{name}" for name in best.categories} <= set(frame)


def test_a_run_with_nothing_evaluated_still_gives_a_frame_with_every_column() -> None:
    from evaltool.api import FRAME_ESTIMATES

    report = evaltool.score_files("offers/no-such-offer.yaml",
                                  workload=ROOT / "offers/workload.yaml", draws=200)
    assert not report.offers and report.not_evaluated[0].source["file"].endswith(
        "no-such-offer.yaml")  # a bad offer file is listed, not raised
    frame = evaltool.scores_frame(report)
    assert frame.empty and frame.index.name == "rank"
    assert {"id", "vendor", "score", "eligible", *FRAME_ESTIMATES} <= set(frame)


def test_score_files_takes_any_iterable_of_paths_a_rate_string_and_a_method() -> None:
    offers = (p for p in [ROOT / "offers/hpc-centre-a100.yaml"])  # a generator is fine
    report = evaltool.score_files(offers, workload=ROOT / "offers/workload.yaml",
                                  fx="EUR=1.08", method="topsis", draws=200)
    assert [o.id for o in report.offers] == ["hpc-centre-a100"]
    assert report.assumptions["fx_usd_per_unit"]["EUR"] == 1.08
    assert report.assumptions["method"] == "topsis"


def test_render_report_passes_the_kind_and_page_size(report: ScoreReport, tmp_path: Path) -> None:
    out = evaltool.render_report(report, str(tmp_path / "full.html"), kind="full",
                                 page_size="Letter")
    assert out == tmp_path / "full.html"
    html = out.read_text(encoding="utf-8")
    assert "size: Letter;" in html and "Appendix A" in html
