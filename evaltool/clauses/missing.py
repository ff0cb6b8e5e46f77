"""Essentials a GPU-compute contract should state, reported when it does not: a committed
delivery date and uptime figure, a money remedy, an exit for chronic failure, data export
at exit, a hardware replacement time and a support response time.
"""

from __future__ import annotations

import re

from evaltool.clauses.findings import Record, is_customer_backed_remedy
from evaltool.clauses.lexicon import Lexicon
from evaltool.clauses.models import ContractFigure, Finding

_CHRONIC_EXIT_RE = re.compile(
    r"\bterminat\w*[^.]{0,200}?\b(?:availability|uptime|service\s+levels?|sla|delivery|deliver|"
    r"delay|late|chronic|repeated|consecutive|outage|downtime)|\b(?:availability|uptime|service\s+"
    r"levels?|sla|delivery|delay|late|chronic|repeated|consecutive|outage|downtime)\b[^.]{0,200}?"
    r"\bterminat",
    re.IGNORECASE,
)
_EXPORT_RE = re.compile(
    r"\bexport|\breturn\b[^.;]{0,40}\bdata|\bdata\b[^.;]{0,60}\b(?:available|return|deliver)", re.I
)


def missing_essentials(
    records: list[Record],
    figures: list[ContractFigure],
    findings: list[Finding],
    sources: list[str],
    lex: Lexicon,
) -> list[Finding]:
    """Essentials a GPU-compute contract should state: clear deliverables (time and
    performance) and what the vendor owes when it misses them (Bekman, "The AI
    Battlefield": say no to "will make a reasonable effort to ..." contracts)."""
    have = {f.field for f in figures if f.committed is not False}
    remedies = [r for r in records if is_customer_backed_remedy(r)]
    money_remedy = any(
        re.search(r"credit|refund|liquidated", r.sentence.text, re.I) for r in remedies
    )
    chronic_exit = any(_CHRONIC_EXIT_RE.search(r.sentence.text) for r in remedies)
    # any sentence about exporting or returning customer data states the exit-data term
    # (one that allows only the vendor's format is reported as lock-in instead)
    data_export = lex.lock_in["data_export"]
    export = any(
        (r.result.label == "termination_exit" and _EXPORT_RE.search(r.sentence.text))
        or data_export.search(r.sentence.text)
        for r in records
    )
    checks = [  # essential, topic, missing?, severity
        ("delivery_date", "delivery", "delivery_date" not in have, "high"),
        ("uptime_figure", "availability", "sla_uptime_pct" not in have, "high"),
        ("remedy", "availability", not money_remedy, "high"),
        ("chronic_failure_exit", "exit", not chronic_exit, "medium"),
        ("data_export", "exit", not export, "medium"),
        ("hw_replacement", "maintenance", "hw_replacement_hours" not in have, "medium"),
        ("support_response", "support", "support_response_hours" not in have, "low"),
    ]
    hedged = _hedged_figures(figures)
    where = {"file": ", ".join(sources)}
    out: list[Finding] = []
    for essential, topic, missing, severity in checks:
        if not missing:
            continue
        stated = hedged.get(essential)
        quote, place, reason = "", dict(where), "missing"
        if stated is not None:
            # stated, but as an aim or estimate: point at the sentence, not at silence
            quote, place, reason = stated.quote, dict(stated.where), "aim_only"
        out.append(
            Finding(
                kind="missing",
                severity=severity,
                obligor="vendor",
                topic=topic,
                quote=quote,
                where=place,
                figures={"reason": reason, "essential": essential},
                ask_for=lex.ask_for["missing"][essential],
                has_remedy=None,
            )
        )
    return out


# Essentials a figure can state, the figure's field and how to name it in a sentence.
_FIGURE_OF: dict[str, tuple[str, ...]] = {
    "delivery_date": ("delivery_date", "delivery_target_date"),
    "uptime_figure": ("sla_uptime_pct",),
    "hw_replacement": ("hw_replacement_hours",),
    "support_response": ("support_response_hours",),
}
def _hedged_figures(figures: list[ContractFigure]) -> dict[str, ContractFigure]:
    """For each essential, the first figure the contract states only as an aim or estimate."""
    out: dict[str, ContractFigure] = {}
    for essential, fields in _FIGURE_OF.items():
        for fig in figures:
            if fig.field in fields and fig.committed is not True:
                out[essential] = fig
                break
    return out

