"""The public library API, re-exported lazily by `evaltool/__init__.py`."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from evaltool.estimate.catalog import load_catalog
from evaltool.normalize.core import normalize_files
from evaltool.pipeline import score_files
from evaltool.report import render_report
from evaltool.score.rubric import load_rubric
from evaltool.workload import load_workload

if TYPE_CHECKING:
    import pandas as pd

    from evaltool.models import ScoreReport

__all__ = [
    "analyse_clauses",
    "load_catalog",
    "load_rubric",
    "load_workload",
    "normalize_files",
    "render_report",
    "score_files",
    "scores_frame",
]


def analyse_clauses(paths: Sequence[str | Path], vendor_names: Sequence[str] = ()) -> list[Any]:
    """Clause analysis of contract files (.txt, .md, .pdf, .docx)."""
    from evaltool.clauses import analyse_file

    return [analyse_file(Path(p), vendor_names=vendor_names) for p in paths]


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
        for key in ("mfu", "time_to_train_days", "total_cost_usd", "effective_usd_per_gpu_hour",
                    "total_economic_cost_usd"):
            row[key] = o.estimates.get(key)
        rows.append(row)
    return pd.DataFrame(rows).set_index("rank")
