"""evaltool: which GPU compute offer to take, and why.

The library API, for notebooks and scripts (the CLI is a thin layer over it):

    import evaltool
    report = evaltool.score_files(["offers/a.xlsx", "offers/b.yaml"], fx={"EUR": 1.08})
    report.offers[0].vendor, evaltool.recommendation(report).headline
    evaltool.scores_frame(report)        # a pandas DataFrame, best first

Paths may be `str` or `pathlib.Path`; rates are a mapping. Heavy libraries load only when
a function needs them, so `import evaltool` stays fast.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from evaltool.version import __version__

if TYPE_CHECKING:
    from evaltool import commands as commands
    from evaltool.api import (
        analyse_clauses,
        load_catalog,
        load_rubric,
        load_workload,
        normalize_files,
        recommendation,
        render_report,
        render_reports,
        score_files,
        scores_frame,
        sensitivity,
    )
    from evaltool.models import (
        Offer,
        OfferResult,
        Recommendation,
        ScoreReport,
        Sensitivity,
        Workload,
    )

_API = (
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
)
_MODELS = ("Offer", "OfferResult", "Recommendation", "ScoreReport", "Sensitivity", "Workload")

__all__ = [
    "Offer",
    "OfferResult",
    "Recommendation",
    "ScoreReport",
    "Sensitivity",
    "Workload",
    "__version__",
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


def __getattr__(name: str) -> Any:
    # The one lazy seam of the package (PEP 562): the public API, the models and the CLI's
    # `commands` load on first use, so `import evaltool` and `evaltool --help` stay cheap.
    if name == "commands":
        import importlib

        return importlib.import_module("evaltool.commands")
    if name in _API:
        from evaltool import api

        return getattr(api, name)
    if name in _MODELS:
        from evaltool import models

        return getattr(models, name)
    raise AttributeError(f"module 'evaltool' has no attribute {name!r}")
