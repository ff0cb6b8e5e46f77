"""evaltool: which GPU compute offer to take, and why.

The library API, for notebooks and scripts (the CLI is a thin layer over it):

    import evaltool
    report = evaltool.score_files(["offers/a.xlsx", "offers/b.yaml"])
    report.offers[0].vendor, report.recommendation["headline"]
    evaltool.scores_frame(report)        # a pandas DataFrame, best first

Heavy libraries load only when a function needs them, so `import evaltool` stays fast.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

if TYPE_CHECKING:
    from evaltool.api import (
        analyse_clauses,
        load_catalog,
        load_rubric,
        load_workload,
        normalize_files,
        render_report,
        score_files,
        scores_frame,
    )

__all__ = [
    "__version__",
    "analyse_clauses",
    "load_catalog",
    "load_rubric",
    "load_workload",
    "normalize_files",
    "render_report",
    "score_files",
    "scores_frame",
]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from evaltool import api

        return getattr(api, name)
    raise AttributeError(f"module 'evaltool' has no attribute {name!r}")
