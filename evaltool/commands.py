"""The library functions the CLI calls, gathered in one place.

`evaltool/cli.py` only parses flags; every command calls into the library through
`evaltool.commands`, which the package loads on first use (a lazy module, see
`evaltool/__init__.py`), so `evaltool --help` does not pay for pydantic, numpy or the
renderers. Importing this module loads the whole pipeline.
"""

from __future__ import annotations

from evaltool.catalog import load_catalog
from evaltool.clauses.files import analyse_files_clauses
from evaltool.demo import copy_samples
from evaltool.market import current_market, filter_offers
from evaltool.market.store import import_many, store_path
from evaltool.normalize.core import normalize_files, normalize_to_rows, render_normalized
from evaltool.normalize.teach import explain_file, load_user_mapping, mapping_skeleton
from evaltool.pipeline import parse_fx, resolve_workload, rubric_for, score_files, sort_inputs
from evaltool.read import read_fx_file
from evaltool.report.clauses import analyses_to_dict, render_analysis
from evaltool.report.exports import iter_report_json
from evaltool.report.market_table import render_market
from evaltool.report.render import render_reports, render_text, report_to_json, terminal_table
from evaltool.report.rubric_table import criterion_table, describe_rubric
from evaltool.score.rubric import load_rubric, shipped_rubrics
from evaltool.template import write_template
from evaltool.workload import load_workload

__all__ = [
    "analyse_files_clauses", "analyses_to_dict", "copy_samples", "criterion_table",
    "current_market", "describe_rubric", "explain_file", "filter_offers", "import_many",
    "iter_report_json",
    "load_catalog", "load_rubric", "load_user_mapping", "load_workload", "mapping_skeleton",
    "normalize_files", "normalize_to_rows", "parse_fx", "read_fx_file", "render_analysis",
    "render_market", "render_normalized", "render_reports", "render_text", "report_to_json",
    "resolve_workload", "rubric_for", "score_files", "shipped_rubrics", "sort_inputs",
    "store_path", "terminal_table", "write_template",
]
