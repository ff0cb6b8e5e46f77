"""Contract clause analysis: weak commitments, SLA figures, remedies, exit and lock-in terms.

Public API (what the rest of evaltool calls)::

    analyse_file(path, vendor_names=()) -> ClauseAnalysis
    analyse_files_clauses(paths, vendor_names=()) -> (list[ClauseAnalysis], list[str])
    analyse_text(text, source, vendor_names=()) -> ClauseAnalysis
    analyse_segments(segments, vendor_names=()) -> ClauseAnalysis
    classify_sentence(text, vendor_names=(), customer_names=()) -> (label, obligor)
    extract_terms(text or segments, vendor_names=(), *, name="contract") -> ContractTerms
        (stable: the money model reads minimum cash to sign and cost of exit from it)

Findings carry a code and figures (a `reason` and what it rests on); their sentences are
written by evaltool.report.finding_words, and `evaltool clauses` renders them with
evaltool.report.clauses.
"""

from evaltool.clauses.analyse import analyse_segments, analyse_text, sort_findings
from evaltool.clauses.classify import classify_sentence
from evaltool.clauses.files import analyse_file, analyse_files_clauses
from evaltool.clauses.models import (
    ClauseAnalysis,
    ContractFigure,
    ContractTerms,
    Finding,
    TextSegment,
)
from evaltool.clauses.terms import extract_terms, terms_from

__all__ = [
    "ClauseAnalysis",
    "ContractFigure",
    "ContractTerms",
    "Finding",
    "TextSegment",
    "analyse_file",
    "analyse_files_clauses",
    "analyse_segments",
    "analyse_text",
    "classify_sentence",
    "extract_terms",
    "sort_findings",
    "terms_from",
]
