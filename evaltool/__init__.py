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

import importlib.util
import sys
from types import ModuleType
from typing import TYPE_CHECKING, Any

from evaltool.version import __version__


def _lazy_module(name: str) -> ModuleType:
    """A module that runs on first attribute access (the stdlib recipe for
    ``importlib.util.LazyLoader``): `import evaltool` and `evaltool --help` stay cheap, yet
    the data path still reads from the top of this file."""
    found = sys.modules.get(name)
    if found is not None:
        return found
    spec = importlib.util.find_spec(name)
    if spec is None or spec.loader is None:
        raise ImportError(f"No module named {name!r}", name=name)
    loader = importlib.util.LazyLoader(spec.loader)
    spec.loader = loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    loader.exec_module(module)
    return module


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
else:
    # The CLI's library seam, loaded on first use.
    commands = _lazy_module("evaltool.commands")
# The public API and its models, loaded on first use.
_api = _lazy_module("evaltool.api")
_models = _lazy_module("evaltool.models")

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
    # PEP 562: the public API's names resolve through the lazy modules above.
    if name in _API:
        return getattr(_api, name)
    if name in _MODELS:
        return getattr(_models, name)
    raise AttributeError(f"module 'evaltool' has no attribute {name!r}")
