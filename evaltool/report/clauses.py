"""Text and JSON renderings of clause analyses for `evaltool clauses`, each finding's
sentence written from its code and figures (evaltool.report.finding_words).

JSON is deterministic (same inputs, same bytes): keys in model order, findings most
severe first then in document order, no timestamps.
"""

from __future__ import annotations

import json
import textwrap
from collections.abc import Sequence
from typing import Any

from evaltool.clauses.analyse import sort_findings
from evaltool.clauses.models import ClauseAnalysis, summarise
from evaltool.report.finding_words import analysis_with_words


def _where_text(where: dict[str, Any]) -> str:
    parts = [str(where.get("file", ""))]
    for key in ("sheet", "cell", "key"):
        if where.get(key):
            parts.append(str(where[key]))
    if where.get("clause_ref"):
        parts.append(f"clause {where['clause_ref']}")
    elif where.get("section"):
        section = str(where["section"])
        parts.append(f"clause {section}" if any(c.isdigit() for c in section) else section)
    if where.get("sentence"):
        parts.append(f"sentence {where['sentence']}")
    return " › ".join(p for p in parts if p)


def analyses_to_dict(
    analyses: Sequence[ClauseAnalysis], not_analysed: Sequence[str] = ()
) -> dict[str, Any]:
    """All analyses merged: sources, findings (most severe first), figures, summary, and
    the inputs that could not be analysed (each 'FILE: why')."""
    analyses = [analysis_with_words(a) for a in analyses]
    findings = sort_findings([f for a in analyses for f in a.findings])
    return {
        "sources": [s for a in analyses for s in a.sources],
        "vendors": {s: a.vendor for a in analyses for s in a.sources if a.vendor},
        "findings": [f.model_dump(mode="json") for f in findings],
        "figures": [g.model_dump(mode="json") for a in analyses for g in a.figures],
        "summary": summarise(findings),
        "not_analysed": list(not_analysed),
    }


def render_analysis(
    analyses: Sequence[ClauseAnalysis], fmt: str = "table", not_analysed: Sequence[str] = ()
) -> str:
    """``fmt`` 'json' (the machine contract) or 'table' (for a terminal). The table leaves
    ``not_analysed`` to the caller (the CLI prints it on stderr)."""
    if fmt == "json":
        data = analyses_to_dict(analyses, not_analysed)
        return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    analyses = [analysis_with_words(a) for a in analyses]
    lines: list[str] = []
    for analysis in analyses:
        vendor = f"  (vendor: {analysis.vendor})" if analysis.vendor else ""
        lines.append(f"== {', '.join(analysis.sources)}{vendor}")
        counts = analysis.summary
        lines.append(
            "   {} findings: {} high, {} medium, {} low, {} info".format(
                counts.get("findings", 0),
                counts.get("severity.high", 0),
                counts.get("severity.medium", 0),
                counts.get("severity.low", 0),
                counts.get("severity.info", 0),
            )
        )
        for f in sort_findings(analysis.findings):
            if f.severity == "info":
                continue
            head = f"[{f.severity.upper():<6}] {f.kind.replace('_', ' ')}"
            if f.topic:
                head += f" ({f.topic})"
            lines.append(head)
            if f.quote:
                quote = " ".join(f.quote.split())
                lines.append(f'   "{textwrap.shorten(quote, 160, placeholder=" …")}"')
                lines.append(f"   at {_where_text(f.where)}")
            lines.append(
                textwrap.fill(f.why, 96, initial_indent="   why: ", subsequent_indent="        ")
            )
            if f.ask_for:
                lines.append(
                    textwrap.fill(
                        f.ask_for,
                        96,
                        initial_indent="   ask for: ",
                        subsequent_indent="            ",
                    )
                )
        if analysis.figures:
            lines.append("   figures:")
            for g in analysis.figures:
                hedged = "" if g.committed is not False else "  (hedged, not committed)"
                unit = f" {g.unit}" if g.unit and not isinstance(g.value, list) else ""
                where = _where_text(g.where)
                lines.append(f"     {g.field} = {g.value}{unit}{hedged}  [{where}]")
        lines.append("")
    return "\n".join(lines)
