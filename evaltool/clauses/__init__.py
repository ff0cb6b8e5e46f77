"""Contract clause analysis: weak commitments, SLA figures, remedies, exit and lock-in terms."""

from evaltool.clauses.classify import classify_sentence
from evaltool.clauses.models import ClauseAnalysis, ContractFigure, Finding, TextSegment

__all__ = [
    "ClauseAnalysis",
    "ContractFigure",
    "Finding",
    "TextSegment",
    "classify_sentence",
]
