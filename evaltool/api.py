"""The public library API, re-exported lazily by `evaltool/__init__.py`.

Every function takes paths as `str` or `pathlib.Path`, and currency rates as a mapping
(`{"EUR": 1.08}`: 1 EUR = 1.08 USD); the CLI's strings (`["EUR=1.08"]`) are accepted too.
Results are typed: `ScoreReport` and `NormalizeResult` objects, pydantic models for the
recommendation and the sensitivity, pandas DataFrames for tables.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from evaltool import pipeline
from evaltool.catalog import load_catalog
from evaltool.clauses import analyse_file
from evaltool.errors import Problem, UsageError
from evaltool.models import Recommendation, ScoreReport, Sensitivity, Workload
from evaltool.normalize import core as normalize_core
from evaltool.report.finding_words import analysis_with_words
from evaltool.report.render import render_report as _render_report
from evaltool.report.render import render_reports as _render_reports
from evaltool.score.rubric import Rubric
from evaltool.score.rubric import load_rubric as _load_rubric
from evaltool.workload import load_workload as _load_workload

if TYPE_CHECKING:
    import pandas as pd

    from evaltool.clauses.models import ClauseAnalysis
    from evaltool.normalize.core import NormalizeResult
    from evaltool.report.render import RenderOutcome

__all__ = [
    "analyse_clauses",
    "load_catalog",
    "load_rubric",
    "load_workload",
    "normalize_files",
    "recommendation",
    "render_report",
    "render_reports",
    "score_files",
    "scores_frame",
    "sensitivity",
]

PathLike = str | Path
Rates = Mapping[str, float] | Iterable[str] | None


def _paths(paths: PathLike | Iterable[PathLike]) -> list[Path]:
    """One path or many, as `Path`s: `"a.xlsx"`, `Path("a.xlsx")` or a list of either."""
    if isinstance(paths, str | Path):
        return [Path(paths)]
    return [Path(p) for p in paths]


def _fx_specs(fx: Rates) -> list[str]:
    """Rates as the CUR=RATE strings the pipeline checks (a mapping or strings)."""
    if fx is None:
        return []
    if isinstance(fx, Mapping):
        specs = []
        for code, rate in fx.items():
            if isinstance(rate, bool) or not isinstance(rate, int | float):
                raise UsageError(Problem(None, code="fx-rate-not-a-number", params={
                    "currency": repr(code), "type": type(rate).__name__}))
            specs.append(f"{code}={float(rate)!r}")
        return specs
    if isinstance(fx, str):
        return [fx]
    return [str(spec) for spec in fx]


def score_files(
    paths: PathLike | Iterable[PathLike],
    *,
    rubric: str | Path | None = None,
    workload: PathLike | None = None,
    fx: Rates = None,
    assumptions: Mapping[str, Any] | None = None,
    seed: int = 0,
    draws: int = 10_000,
    as_of: dt.date | None = None,
    method: Literal["weighted", "topsis", "vikor"] = "weighted",
) -> ScoreReport:
    """Score offer files: the main job. Returns the ScoreReport every output is built from.

    `fx` maps a currency code to USD per unit (`{"EUR": 1.08}`). Raises `UsageError` only
    for a bad rubric, workload or rate; a bad offer file lands in `report.not_evaluated`.
    """
    return pipeline.score_files(
        _paths(paths), rubric=rubric, workload=Path(workload) if workload else None,
        fx=_fx_specs(fx), assumptions=assumptions, seed=seed, draws=draws, as_of=as_of,
        method=method,
    )


def normalize_files(paths: PathLike | Iterable[PathLike], fx: Rates = None) -> NormalizeResult:
    """Read and normalise offer files into `Offer` models (`.offers`, `.not_evaluated`)."""
    return normalize_core.normalize_files(_paths(paths), pipeline.parse_fx(_fx_specs(fx)))


def load_workload(path: PathLike) -> Workload:
    """A workload YAML as a validated `Workload`."""
    return _load_workload(Path(path))


def load_rubric(name_or_path: str | Path | None = None) -> Rubric:
    """A shipped rubric by name (default `llm-pretraining`) or a rubric YAML by path."""
    return _load_rubric(name_or_path)


def render_report(
    report: ScoreReport,
    out: PathLike,
    *,
    kind: Literal["memo", "full"] = "memo",
    page_size: Literal["A4", "Letter"] = "A4",
) -> Path:
    """Write `report` to `out`; the extension picks the format (.pdf .html .md .csv .xlsx .json)."""
    return _render_report(report, Path(out), kind=kind, page_size=page_size)


def render_reports(
    report: ScoreReport,
    outs: Iterable[PathLike],
    *,
    kind: Literal["memo", "full"] = "memo",
    page_size: Literal["A4", "Letter"] = "A4",
) -> list[RenderOutcome]:
    """Write every output that can be written; one that fails never stops the others."""
    return _render_reports(report, [Path(o) for o in outs], kind=kind, page_size=page_size)


def recommendation(report: ScoreReport) -> Recommendation:
    """The recommendation of a run as a typed model (`.headline`, `.offer_id`, `.confidence`)."""
    return Recommendation.model_validate(report.recommendation)


def sensitivity(report: ScoreReport) -> Sensitivity:
    """The sensitivity analysis as a typed model (`.win_probability`, `.what_would_change`)."""
    return Sensitivity.model_validate(report.sensitivity)


def analyse_clauses(
    paths: PathLike | Iterable[PathLike], vendor_names: Sequence[str] = ()
) -> list[ClauseAnalysis]:
    """Clause analysis of contract files (.txt, .md, .pdf, .docx)."""

    return [analysis_with_words(analyse_file(p, vendor_names=vendor_names))
            for p in _paths(paths)]


# Headline estimates in scores_frame, in the order finance reads them.
FRAME_ESTIMATES = (
    "mfu", "time_to_train_days", "days_to_trained_model", "effective_usd_per_gpu_hour",
    "total_cost_usd", "minimum_cash_to_sign_usd", "full_commitment_usd", "cost_of_delay_usd",
    "total_economic_cost_usd",
)


def scores_frame(report: ScoreReport) -> pd.DataFrame:
    """One row per offer, best first: rank, score, categories and the headline estimates."""
    import pandas as pd

    rows = []
    for o in report.offers:
        row: dict[str, Any] = {
            "rank": o.rank, "id": o.id, "vendor": o.vendor, "offer_name": o.offer_name,
            "accelerator": o.accelerator, "score": o.score, "eligible": o.eligible,
        }
        row.update({f"category_{k}": v for k, v in o.categories.items()})
        for key in FRAME_ESTIMATES:
            row[key] = o.estimates.get(key)
        rows.append(row)
    columns = ["rank", "id", "vendor", "offer_name", "accelerator", "score", "eligible"]
    if not rows:
        return pd.DataFrame(columns=columns + list(FRAME_ESTIMATES)).set_index("rank")
    return pd.DataFrame(rows).set_index("rank")
