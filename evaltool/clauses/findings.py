"""The findings one classified sentence gives: weak and firm commitments, remedies,
caps, exit and change terms and lock-in, each with its registered code, severity, the
reason and figures its sentence is written from (evaltool.report.finding_words) and the
firmer wording to ask for.

Severity: a hedge on a core deliverable (delivery, capacity, availability, performance)
with no remedy anywhere in the document is high, with a remedy medium, boilerplate efforts
low (the buyer's rule: a commitment needs a deliverable and a remedy; S. Bekman, Machine
Learning Engineering Open Book, "The AI Battlefield", github.com/stas00/ml-engineering).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from evaltool.clauses.classify import SentenceResult
from evaltool.clauses.lexicon import Lexicon
from evaltool.clauses.models import Finding, TextSegment
from evaltool.clauses.segment import Sentence

# Finding kinds worth reporting beyond the five dev labels (the rest of "other" is noise).
_REPORTED_OTHER = frozenset({"unilateral_change", "non_obligation", "disclaimer", "lock_in"})
_VENDOR_EXIT_RE = re.compile(
    r"for\s+convenience|without\s+cause|for\s+any\s+reason|at\s+any\s+time|cease|discontinue", re.I
)
_REMEDY_LEAD_RE = re.compile(r"\bcredit|\brefund|\bif\b|\bin\s+the\s+event\b|\bterminat", re.I)
# "Provider shall deliver ... ; for each week of delay ..." - an obligation, then its remedy
_FIRM_FIRST_RE = re.compile(
    r"^[^;:]{0,120}?\b(?:shall|will|must)\s+(?!not\b)(?!be\s+(?:entitled|eligible))\w+", re.I
)
# "exclusive for 36 months", "thirty-six (36) months", "3-year": the span of a lock-in
_SPAN_RE = re.compile(r"\b(\d{1,3})\)?[\s-]*(months?|years?)\b", re.IGNORECASE)
# Long exclusive terms make leaving expensive (Bekman, "The AI Battlefield": beware of
# lock-in); a year or more of exclusivity outlasts a GPU generation's price drop, so it is
# rated high.
_LONG_LOCK_IN_MONTHS = 12
# Lock-in kinds with their own sentence; any other is a plain "lock_in".
_LOCK_IN_REASONS = frozenset({
    "vendor_format", "exclusivity", "minimum_commitment", "paid_export", "egress", "commitment",
})


def lock_in_months(text: str) -> int | None:
    """The longest span in months a sentence states (None when it states none)."""
    spans = [
        int(n) * (12 if unit.lower().startswith("year") else 1)
        for n, unit in _SPAN_RE.findall(text)
    ]
    return max(spans) if spans else None


@dataclass(frozen=True)
class Record:
    segment: TextSegment
    sentence: Sentence
    result: SentenceResult
    topic: str | None


def where_of(seg: TextSegment, sent: Sentence) -> dict[str, Any]:
    loc = seg.where  # built by hand: dataclasses.asdict deep-copies (slow on long texts)
    where: dict[str, Any] = {"file": loc.file}
    for name in ("sheet", "cell", "key"):
        value = getattr(loc, name)
        if value is not None:
            where[name] = value
    where["section"] = sent.section or seg.section
    if seg.clause_ref is not None:
        where["clause_ref"] = seg.clause_ref
    where["sentence"] = sent.index
    where["char_start"] = sent.start
    where["char_end"] = sent.end
    return where


def _fill(template: str, phrase: str | None, topic: str | None) -> str:
    objects = {"delivery": "contracted capacity", "capacity": "contracted GPUs"}
    return template.replace("{phrase}", phrase or "the hedge").replace(
        "{object}", objects.get(topic or "", "deliverable")
    )


def _weak_severity(topic: str | None, has_remedy: bool, lex: Lexicon) -> str:
    if topic in lex.core_topics:
        return "medium" if has_remedy else "high"
    if topic in lex.boilerplate_topics:
        return "low"
    return "low" if has_remedy else "medium"


def has_firm_part(rec: Record) -> bool:
    """A remedy sentence that also states an unhedged vendor obligation before the remedy."""
    res = rec.result
    return (
        res.label == "remedy"
        and not res.weak
        and res.extra.get("obligation_role") in ("vendor", "both")
        and bool(_FIRM_FIRST_RE.match(_strip_number(rec.sentence.text)))
        and not _REMEDY_LEAD_RE.search(_strip_number(rec.sentence.text).split(";")[0])
    )


def _strip_number(text: str) -> str:
    return re.sub(r"^\s*\d+(?:\.\d+)*\.?\s+", "", text)


_CREDIT_RE = re.compile(r"\bcredit|\bcompensat|\bremed(?:y|ies)\b", re.IGNORECASE)


def is_credit_cap(rec: Record) -> bool:
    """A cap on credits or a sole-remedy statement: a limit, and a remedy too."""
    return rec.result.label == "liability_cap" and bool(_CREDIT_RE.search(rec.sentence.text))


def is_customer_backed_remedy(rec: Record) -> bool:
    return (rec.result.label == "remedy" or is_credit_cap(rec)) and rec.result.obligor in (
        "vendor",
        "both",
    )


def findings_for(rec: Record, lex: Lexicon, remedy_topics: set[str]) -> list[Finding]:
    res, sent = rec.result, rec.sentence
    where = where_of(rec.segment, sent)
    out: list[Finding] = []
    ask = lex.ask_for

    def weak_finding(primarily: str | None = None) -> Finding:
        hedge = res.weak[0]
        topic = rec.topic
        same_sentence = res.label == "remedy"
        has_remedy = same_sentence or (topic in remedy_topics if topic else False)
        severity = _weak_severity(topic, has_remedy, lex)
        template = ask["weak"].get(topic or "", ask["weak"]["default"])
        return Finding(
            kind="weak_commitment",
            severity=severity,
            obligor=hedge.obligor if hedge.obligor in ("vendor", "both") else "vendor",
            topic=topic,
            quote=sent.text,
            where=where,
            figures={
                "reason": "hedged",
                "hedge": hedge.phrase,
                "family": hedge.family,
                "hedges": [h.phrase for h in res.weak],
                "hedged_by": hedge.obligor,
                "primarily": primarily,
            },
            ask_for=_fill(template, hedge.phrase, topic),
            tier=hedge.tier,
            has_remedy=has_remedy,
        )

    if res.label == "weak_commitment":
        out.append(weak_finding())
        return _with_lock_in(out, rec, where, lex)
    if res.weak and res.label in ("remedy", "liability_cap", "termination_exit"):
        out.append(weak_finding(primarily=res.label))

    kind = res.kind
    obligor = res.obligor if res.obligor in ("vendor", "customer", "both") else "unknown"
    if res.label == "firm_commitment" or has_firm_part(rec):
        out.append(
            Finding(
                kind="firm_commitment",
                severity="info",
                obligor=obligor,
                topic=rec.topic,
                quote=sent.text,
                where=where,
                figures={"reason": "firm"},
            )
        )
    if res.label == "remedy" or is_credit_cap(rec):
        exclusive = bool(re.search(r"sole|exclusive", sent.text, re.IGNORECASE))
        severity = "low" if obligor == "customer" else ("medium" if exclusive else "info")
        reason = "self_help" if obligor == "customer" else "vendor_remedy"
        out.append(
            Finding(
                kind="remedy",
                severity=severity,
                obligor=obligor,
                topic=rec.topic,
                quote=sent.text,
                where=where,
                figures={"reason": reason, "exclusive": exclusive},
            )
        )
    if res.label == "liability_cap":
        out.append(
            Finding(
                kind="liability_cap",
                severity="low",
                obligor=obligor,
                topic=None,
                quote=sent.text,
                where=where,
                figures={"reason": "liability_cap"},
            )
        )
    elif res.label == "termination_exit" or kind in _REPORTED_OTHER:
        out.append(_exit_or_other_finding(rec, kind, obligor, where, lex))
    return _with_lock_in(out, rec, where, lex)


def _with_lock_in(
    out: list[Finding], rec: Record, where: dict[str, Any], lex: Lexicon
) -> list[Finding]:
    """A lock-in the sentence puts on the customer is reported whatever the sentence's
    main effect is ("Provider shall be Customer's exclusive provider ..." is also firm)."""
    sub = rec.result.extra.get("lock_in")
    if rec.result.label == "weak_commitment" and sub != "vendor_format":
        # a hedged sentence binds nobody firmly: "efforts to agree minimum volumes" is a
        # negotiation, not yet a customer commitment
        return out
    if sub and not any(f.kind == "lock_in" for f in out):
        obligor = "customer" if sub in ("exclusivity", "minimum_commitment") else "vendor"
        out.append(_lock_in_finding(rec, sub, obligor, where, lex))
    return out


def _lock_in_finding(
    rec: Record, sub: str, obligor: str, where: dict[str, Any], lex: Lexicon
) -> Finding:
    """Severity: exit data only in the vendor's format is high (leaving means conversion
    work); exclusivity is high when it lasts a year or more, medium otherwise."""
    text = rec.sentence.text
    present = lex.ask_for["present"]
    months = lock_in_months(text)
    severity: str = "medium"
    ask: str | None = present.get(sub)
    reason = sub if sub in _LOCK_IN_REASONS else "lock_in"
    if sub == "vendor_format":
        severity = "high"
    elif sub == "exclusivity":
        severity = "high" if months and months >= _LONG_LOCK_IN_MONTHS else "medium"
    code = "lock-in"
    if _TERMINATION_FEE_RE.search(text) and sub in ("commitment", "remaining_fees"):
        code, severity, reason = "termination-fee", "high", "early_exit_fees"
        ask = present["termination_fee"]
    return Finding(
        code=code,
        kind="lock_in",
        severity=severity,
        obligor=obligor,
        topic=rec.topic,
        quote=text,
        where=where,
        figures={"reason": reason, "months": months},
        ask_for=ask,
    )


def _exit_or_other_finding(
    rec: Record, kind: str, obligor: str, where: dict[str, Any], lex: Lexicon
) -> Finding:
    res, text = rec.result, rec.sentence.text
    present = lex.ask_for["present"]
    sub = res.subkind
    severity, reason, ask = "info", "term", None
    core = rec.topic in lex.core_topics
    if sub in ("vendor_format", "paid_export"):
        return _lock_in_finding(rec, sub, obligor, where, lex)
    elif sub == "remaining_fees":
        severity, reason, ask = "high", "remaining_fees", present["remaining_fees"]
    elif sub == "auto_renewal":
        severity, reason, ask = "medium", "auto_renewal", present["auto_renewal"]
    elif kind == "unilateral_change":
        guarded = sub == "guarded"
        severity = "medium" if guarded else "high"
        reason = "guarded_change" if guarded else "unilateral_change"
        ask = present["unilateral_change"]
    elif kind == "non_obligation":
        severity = "high" if core else "medium"
        reason = "non_obligation"
        ask = present["non_obligation"]
    elif kind == "disclaimer":
        severity = "medium" if core else "low"
        reason = "disclaimer"
        ask = present["disclaimer"]
    elif kind == "lock_in":
        return _lock_in_finding(rec, sub or "", obligor, where, lex)
    elif res.label == "termination_exit":
        if obligor == "vendor" and _VENDOR_EXIT_RE.search(text):
            severity, reason, ask = "high", "vendor_at_will", present["vendor_termination"]
        elif obligor == "both" and re.search(
            r"convenience|without\s+cause|any\s+reason", text, re.I
        ):
            severity, reason = "medium", "either_at_will"
        elif obligor == "customer":
            severity, reason = "info", "customer_exit"
    if (
        kind not in ("unilateral_change", "non_obligation", "disclaimer", "lock_in")
        and res.label == "termination_exit"
    ):
        kind = "termination_exit"
    code, special = _special_code(kind, sub, obligor, text, lex)
    if special is not None:
        severity, reason, ask = special
    return Finding(
        code=code,
        kind=kind,
        severity=severity,
        obligor=obligor,
        topic=rec.topic,
        quote=text,
        where=where,
        figures={"reason": reason, "core": core},
        ask_for=ask,
    )


_NO_CONVENIENCE_RE = re.compile(
    r"\b(?:may\s+not|cannot|can.t|shall\s+not|has\s+no\s+right\s+to)\s+(?:be\s+)?"
    r"(?:terminat|cancel)\w*|\bnon-?cancell?able\b",
    re.IGNORECASE,
)
_TERMINATION_FEE_RE = re.compile(
    r"\b(?:early\s+)?termination\s+(?:fee|charge|payment)s?\b|\bremaining\s+(?:committed\s+)?fees\b",
    re.IGNORECASE,
)
_DISCONTINUE_RE = re.compile(
    r"\b(?:discontinu|retir|deprecat|end[- ]of[- ]life)\w*\b[^.;]{0,80}?\b(?:generation|"
    r"accelerators?|gpus?|hardware|instances?|a100|h100|h200|b200|models?)\b",
    re.IGNORECASE,
)
_REALLOCATE_RE = re.compile(
    r"\b(?:realloc|relocat|migrat|reduc|withdr[ae]w|reassign|pre-?empt)\w*\b[^.;]{0,80}?\b(?:nodes?|"
    r"capacity|instances?|gpus?|hosts?|allocation)\b|\b(?:nodes?|capacity|instances?|gpus?)\b"
    r"[^.;]{0,80}?\b(?:realloc|relocat|migrat|reduced|withdrawn|reassign)\w*",
    re.IGNORECASE,
)


def _special_code(
    kind: str, sub: str | None, obligor: str, text: str, lex: Lexicon
) -> tuple[str, tuple[str, str, str | None] | None]:
    """The registered issue code of an exit or change finding that has its own type
    (auto-renewal, termination fee, ...), with its severity, reason and wording to ask for
    when they differ from the generic kind's."""
    present = lex.ask_for["present"]
    if kind == "unilateral_change":
        if sub == "maintenance_carve_out":
            return "maintenance-carve-out", (
                "medium", "maintenance_carve_out", present["maintenance_carve_out"])
        if _DISCONTINUE_RE.search(text):
            return "hardware-discontinuation", (
                "medium", "hardware_discontinuation", present["hardware_discontinuation"])
        if _REALLOCATE_RE.search(text):
            return "capacity-reallocation", (
                "medium", "capacity_reallocation", present["capacity_reallocation"])
        return "unilateral-change", None
    if kind == "termination_exit":
        if sub == "auto_renewal":
            return "auto-renewal", None
        if _TERMINATION_FEE_RE.search(text):
            return "termination-fee", ("high", "termination_fee", present["termination_fee"])
        if obligor in ("customer", "both", "unknown") and _NO_CONVENIENCE_RE.search(text):
            return "no-termination-for-convenience", (
                "medium", "no_convenience_exit", present["no_termination_for_convenience"])
        if obligor == "vendor" and _VENDOR_EXIT_RE.search(text):
            return "vendor-termination", None
    if kind == "lock_in" and sub == "remaining_fees":
        return "termination-fee", None
    return kind.replace("_", "-"), None


