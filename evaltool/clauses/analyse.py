"""Document-level analysis: every sentence classified, remedies linked to the deliverables
they back across the whole document, findings (findings.py) and figures (figures.py) per
sentence, and the essentials the contract does not state (missing.py).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from evaltool.clauses.classify import SentenceResult, classify_detail
from evaltool.clauses.figures import RawFigure, sentence_figures
from evaltool.clauses.findings import (
    Record,
    findings_for,
    has_firm_part,
    is_credit_cap,
    is_customer_backed_remedy,
    where_of,
)
from evaltool.clauses.lexicon import Lexicon, load_lexicon
from evaltool.clauses.missing import missing_essentials
from evaltool.clauses.models import (
    ClauseAnalysis,
    ContractFigure,
    Finding,
    TextSegment,
    summarise,
)
from evaltool.clauses.parties import defined_parties, parties_for
from evaltool.clauses.segment import split_sentences
from evaltool.errors import Location
from evaltool.grammar.textcache import by_text
from evaltool.issues import severity_rank


def topic_of(text: str, lex: Lexicon, masks: Sequence[tuple[int, int]] = ()) -> str | None:
    """What a clause is about, with hedge phrases blanked so they do not set the topic."""
    if masks:
        chars = list(text)
        for s, e in masks:
            chars[s:e] = " " * (e - s)
        text = "".join(chars)
    for name in lex.topic_order:
        if lex.topic_patterns[name].search(text):
            return name
    return None


def topics_of(text: str, lex: Lexicon) -> set[str]:
    return {name for name in lex.topic_order if lex.topic_patterns[name].search(text)}


def _remedy_topics(rec: Record, lex: Lexicon) -> set[str]:
    """Which deliverables a remedy sentence backs (credits default to service levels)."""
    text = rec.sentence.text
    found = topics_of(text, lex) & (lex.core_topics | {"support", "maintenance"})
    if re.search(r"\bdelay|\blate\b", text, re.IGNORECASE):
        found.add("delivery")
    if re.search(r"credit", text, re.IGNORECASE) and not found:
        found |= {"availability", "performance"}
    return found


@by_text(4096)  # by the sentence and the parties: options and copies share their clauses
def _classified(text: str, vendor: tuple[str, ...], customer: tuple[str, ...]
                ) -> tuple[SentenceResult, str | None]:
    """One sentence's classification and topic (hedge phrases blanked for the topic)."""
    lex = load_lexicon()
    res = classify_detail(text, parties=parties_for(vendor, customer))
    hedge_spans = [(h.start, h.end) for h in res.hedges]
    if res.weak:
        u0, u1 = res.weak[0].unit
        unit_masks = [
            (max(s - u0, 0), max(e - u0, 0)) for s, e in hedge_spans if u0 <= s < u1
        ]
        topic = topic_of(text[u0:u1], lex, unit_masks)
        return res, topic or topic_of(text, lex, hedge_spans)
    return res, topic_of(text, lex, hedge_spans)


@by_text(4096)  # by the sentence and what the classifier made of it
def _figures(text: str, label: str, kind: str, topic: str | None, firm_part: bool
             ) -> tuple[RawFigure, ...]:
    return tuple(sentence_figures(text, label, kind, topic, firm_part))


def analyse_segments(
    segments: Sequence[TextSegment],
    vendor_names: Sequence[str] = (),
    *,
    check_missing: bool = True,
) -> ClauseAnalysis:
    """Analyse blocks of contract text together (remedies link across all of them)."""
    lex = load_lexicon()
    joined = "\n".join(seg.text for seg in segments)
    defined = defined_parties(joined, vendor_names)
    names = (tuple(vendor_names) + tuple(defined.vendor), tuple(defined.customer))
    records: list[Record] = []
    for seg in segments:
        for sent in split_sentences(seg.text):
            res, topic = _classified(sent.text, *names)
            records.append(Record(seg, sent, res, topic))

    remedy_topics: set[str] = set()
    for rec in records:
        if is_customer_backed_remedy(rec):
            remedy_topics |= _remedy_topics(rec, lex)

    findings: list[Finding] = []
    figures: list[ContractFigure] = []
    for rec in records:
        findings.extend(findings_for(rec, lex, remedy_topics))
        firm_part = has_firm_part(rec)
        label = "remedy" if is_credit_cap(rec) else rec.result.label
        text = rec.sentence.text
        for raw in _figures(text, label, rec.result.kind, rec.topic, firm_part):
            figures.append(_figure(raw, rec))

    # committed figures first, then unqualified, then hedged ones; document order within
    rank = {True: 0, None: 1, False: 2}
    figures.sort(key=lambda g: rank[g.committed])
    sources = list(dict.fromkeys(seg.where.file for seg in segments))
    if check_missing and records:
        findings.extend(missing_essentials(records, figures, findings, sources, lex))
    return ClauseAnalysis(
        sources=sources, findings=findings, figures=figures, summary=summarise(findings)
    )


def _figure(raw: RawFigure, rec: Record) -> ContractFigure:
    return ContractFigure(
        field=raw.field,
        value=raw.value,
        quote=rec.sentence.text,
        where=where_of(rec.segment, rec.sentence),
        unit=raw.unit,
        committed=raw.committed,
    )


def analyse_text(text: str, source: str, vendor_names: Sequence[str] = ()) -> ClauseAnalysis:
    """Analyse one contract text; ``source`` names it in every finding's location."""
    return analyse_segments([TextSegment(text=text, where=Location(file=source))], vendor_names)


def sort_findings(findings: Sequence[Finding]) -> list[Finding]:
    """Most severe first, then document order (stable and deterministic)."""
    return sorted(
        findings,
        key=lambda f: (
            severity_rank(f.severity),
            str(f.where.get("file", "")),
            int(f.where.get("char_start", -1) or -1),
        ),
    )
