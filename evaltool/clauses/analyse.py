"""Document-level analysis: findings with severity, remedy linkage, figures, missing terms.

Severity follows research contracts.md §7.1 step 8 and seed 001: a hedge on a core
deliverable (delivery, capacity, availability, performance) with no remedy anywhere in
the document is high; with a remedy, medium; boilerplate efforts are low.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from evaltool.clauses.classify import SentenceResult, classify_detail
from evaltool.clauses.figures import RawFigure, sentence_figures
from evaltool.clauses.lexicon import Lexicon, load_lexicon
from evaltool.clauses.models import (
    SEVERITY_ORDER,
    ClauseAnalysis,
    ContractFigure,
    Finding,
    TextSegment,
    summarise,
)
from evaltool.clauses.parties import defined_parties, parties_for
from evaltool.clauses.segment import Sentence, split_sentences
from evaltool.errors import Location

# Finding kinds worth reporting beyond the five dev labels (the rest of "other" is noise).
_REPORTED_OTHER = frozenset({"unilateral_change", "non_obligation", "disclaimer", "lock_in"})
_VENDOR_EXIT_RE = re.compile(
    r"for\s+convenience|without\s+cause|for\s+any\s+reason|at\s+any\s+time|cease|discontinue", re.I
)
_CHRONIC_EXIT_RE = re.compile(
    r"\bterminat\w*[^.]{0,200}?\b(?:availability|uptime|service\s+levels?|sla|delivery|deliver|"
    r"delay|late|chronic|repeated|consecutive|outage|downtime)|\b(?:availability|uptime|service\s+"
    r"levels?|sla|delivery|delay|late|chronic|repeated|consecutive|outage|downtime)\b[^.]{0,200}?"
    r"\bterminat",
    re.IGNORECASE,
)
_REMEDY_LEAD_RE = re.compile(r"\bcredit|\brefund|\bif\b|\bin\s+the\s+event\b|\bterminat", re.I)
# "Provider shall deliver ... ; for each week of delay ..." - an obligation, then its remedy
_FIRM_FIRST_RE = re.compile(
    r"^[^;:]{0,120}?\b(?:shall|will|must)\s+(?!not\b)(?!be\s+(?:entitled|eligible))\w+", re.I
)
_EXPORT_RE = re.compile(
    r"\bexport|\breturn\b[^.;]{0,40}\bdata|\bdata\b[^.;]{0,60}\b(?:available|return|deliver)", re.I
)


# "exclusive for 36 months", "thirty-six (36) months", "3-year": the span of a lock-in
_SPAN_RE = re.compile(r"\b(\d{1,3})\)?[\s-]*(months?|years?)\b", re.IGNORECASE)
# Rule 7 of PRODUCT.md / seed 001: long exclusive terms make leaving expensive; a year or
# more of exclusivity outlasts a GPU generation's price drop, so it is rated high.
_LONG_LOCK_IN_MONTHS = 12


def with_article(noun_phrase: str) -> str:
    """'an availability commitment', 'a delivery commitment' (by the first letter's sound
    as English spells these topic words; no topic starts with a silent or 'yoo' vowel)."""
    article = "an" if noun_phrase[:1].lower() in "aeiou" else "a"
    return f"{article} {noun_phrase}"


def lock_in_months(text: str) -> int | None:
    """The longest span in months a sentence states (None when it states none)."""
    spans = [
        int(n) * (12 if unit.lower().startswith("year") else 1)
        for n, unit in _SPAN_RE.findall(text)
    ]
    return max(spans) if spans else None


@dataclass(frozen=True)
class _Record:
    segment: TextSegment
    sentence: Sentence
    result: SentenceResult
    topic: str | None


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


def _where(seg: TextSegment, sent: Sentence) -> dict[str, Any]:
    loc = seg.where  # built by hand: dataclasses.asdict deep-copies (slow on long texts)
    where: dict[str, Any] = {"file": loc.file}
    for name in ("sheet", "cell", "key"):
        value = getattr(loc, name)
        if value is not None:
            where[name] = value
    where["section"] = sent.section or seg.section
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


def _remedy_topics(rec: _Record, lex: Lexicon) -> set[str]:
    """Which deliverables a remedy sentence backs (credits default to service levels)."""
    text = rec.sentence.text
    found = topics_of(text, lex) & (lex.core_topics | {"support", "maintenance"})
    if re.search(r"\bdelay|\blate\b", text, re.IGNORECASE):
        found.add("delivery")
    if re.search(r"credit", text, re.IGNORECASE) and not found:
        found |= {"availability", "performance"}
    return found


def _has_firm_part(rec: _Record) -> bool:
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


def _is_credit_cap(rec: _Record) -> bool:
    """A cap on credits or a sole-remedy statement: a limit, and a remedy too."""
    return rec.result.label == "liability_cap" and bool(_CREDIT_RE.search(rec.sentence.text))


def _is_customer_backed_remedy(rec: _Record) -> bool:
    return (rec.result.label == "remedy" or _is_credit_cap(rec)) and rec.result.obligor in (
        "vendor",
        "both",
    )


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
    parties = parties_for(tuple(vendor_names) + defined.vendor, defined.customer)

    records: list[_Record] = []
    for seg in segments:
        for sent in split_sentences(seg.text):
            res = classify_detail(sent.text, parties=parties)
            hedge_spans = [(h.start, h.end) for h in res.hedges]
            if res.weak:
                u0, u1 = res.weak[0].unit
                unit_masks = [
                    (max(s - u0, 0), max(e - u0, 0)) for s, e in hedge_spans if u0 <= s < u1
                ]
                topic = topic_of(sent.text[u0:u1], lex, unit_masks)
                topic = topic or topic_of(sent.text, lex, hedge_spans)
            else:
                topic = topic_of(sent.text, lex, hedge_spans)
            records.append(_Record(seg, sent, res, topic))

    remedy_topics: set[str] = set()
    for rec in records:
        if _is_customer_backed_remedy(rec):
            remedy_topics |= _remedy_topics(rec, lex)

    findings: list[Finding] = []
    figures: list[ContractFigure] = []
    for rec in records:
        findings.extend(_findings_for(rec, lex, remedy_topics))
        firm_part = _has_firm_part(rec)
        label = "remedy" if _is_credit_cap(rec) else rec.result.label
        text = rec.sentence.text
        for raw in sentence_figures(text, label, rec.result.kind, rec.topic, firm_part):
            figures.append(_figure(raw, rec))

    # committed figures first, then unqualified, then hedged ones; document order within
    rank = {True: 0, None: 1, False: 2}
    figures.sort(key=lambda g: rank[g.committed])
    sources = list(dict.fromkeys(seg.where.file for seg in segments))
    if check_missing and records:
        findings.extend(_missing(records, figures, findings, sources, lex))
    return ClauseAnalysis(
        sources=sources, findings=findings, figures=figures, summary=summarise(findings)
    )


def _figure(raw: RawFigure, rec: _Record) -> ContractFigure:
    return ContractFigure(
        field=raw.field,
        value=raw.value,
        quote=rec.sentence.text,
        where=_where(rec.segment, rec.sentence),
        unit=raw.unit,
        committed=raw.committed,
    )


def _findings_for(rec: _Record, lex: Lexicon, remedy_topics: set[str]) -> list[Finding]:
    res, sent = rec.result, rec.sentence
    where = _where(rec.segment, sent)
    out: list[Finding] = []
    ask = lex.ask_for

    def weak_finding(kind_note: str = "") -> Finding:
        hedge = res.weak[0]
        topic = rec.topic
        same_sentence = res.label == "remedy"
        has_remedy = same_sentence or (topic in remedy_topics if topic else False)
        severity = _weak_severity(topic, has_remedy, lex)
        about = with_article(f"{topic} commitment") if topic else "a commitment"
        remedy_txt = (
            "a remedy for it exists in the document (still check its size and triggers)"
            if has_remedy
            else "no remedy (credit, refund or termination right) for it was found"
        )
        why = (
            f"'{hedge.phrase}' ({hedge.tier.replace('_', ' ')}) hedges {about} by the "
            f"{hedge.obligor}: no deliverable is promised, so missing it is not a breach; "
            f"{remedy_txt}.{kind_note}"
        )
        template = ask["weak"].get(topic or "", ask["weak"]["default"])
        return Finding(
            kind="weak_commitment",
            severity=severity,
            obligor=hedge.obligor if hedge.obligor in ("vendor", "both") else "vendor",
            topic=topic,
            quote=sent.text,
            where=where,
            why=why,
            figures={
                "hedge": hedge.phrase,
                "family": hedge.family,
                "hedges": [h.phrase for h in res.weak],
            },
            ask_for=_fill(template, hedge.phrase, topic),
            tier=hedge.tier,
            has_remedy=has_remedy,
        )

    if res.label == "weak_commitment":
        out.append(weak_finding())
        return _with_lock_in(out, rec, where, lex)
    if res.weak and res.label in ("remedy", "liability_cap", "termination_exit"):
        primary = with_article(res.label.replace("_", " "))
        out.append(weak_finding(f" The sentence is primarily {primary}."))

    kind = res.kind
    obligor = res.obligor if res.obligor in ("vendor", "customer", "both") else "unknown"
    if res.label == "firm_commitment" or _has_firm_part(rec):
        out.append(
            Finding(
                kind="firm_commitment",
                severity="info",
                obligor=obligor,
                topic=rec.topic,
                quote=sent.text,
                where=where,
                why="an unhedged obligation: what the vendor does commit to",
            )
        )
    if res.label == "remedy" or _is_credit_cap(rec):
        exclusive = bool(re.search(r"sole|exclusive", sent.text, re.IGNORECASE))
        severity = "low" if obligor == "customer" else ("medium" if exclusive else "info")
        why = (
            "a consequence of the customer's failure (the vendor's self-help)"
            if obligor == "customer"
            else "a remedy when the vendor fails"
            + (
                "; it is the exclusive remedy, so it also caps what can be recovered"
                if exclusive
                else ""
            )
        )
        out.append(
            Finding(
                kind="remedy",
                severity=severity,
                obligor=obligor,
                topic=rec.topic,
                quote=sent.text,
                where=where,
                why=why,
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
                why="limits the amount, type or timing of recoverable damages",
            )
        )
    elif res.label == "termination_exit" or kind in _REPORTED_OTHER:
        out.append(_exit_or_other_finding(rec, kind, obligor, where, lex))
    return _with_lock_in(out, rec, where, lex)


def _with_lock_in(
    out: list[Finding], rec: _Record, where: dict[str, Any], lex: Lexicon
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
    rec: _Record, sub: str, obligor: str, where: dict[str, Any], lex: Lexicon
) -> Finding:
    """Severity per research §7.1 step 8 (exit data only in the vendor's format: high) and
    PRODUCT.md rule 7 (long exclusive terms: high when a year or more)."""
    text = rec.sentence.text
    present = lex.ask_for["present"]
    months = lock_in_months(text)
    span = f" for {months} months" if months else ""
    severity: str = "medium"
    ask: str | None = present.get(sub)
    if sub == "vendor_format":
        severity = "high"
        why = (
            "customer data is exported only in the vendor's own format: leaving means "
            "conversion work (lock-in)"
        )
    elif sub == "exclusivity":
        severity = "high" if months and months >= _LONG_LOCK_IN_MONTHS else "medium"
        why = (
            f"exclusivity: the customer may not buy compute elsewhere{span}, so a better or "
            "cheaper offer cannot be taken (lock-in)"
        )
    elif sub == "minimum_commitment":
        why = (
            "a minimum commitment binds the customer's spend or volume whether or not the "
            "capacity is needed or delivered as promised (lock-in)"
        )
    elif sub == "egress":
        why = "egress / data-transfer fees make leaving expensive (lock-in)"
    elif sub == "commitment":
        why = (
            "committed, reserved or prepaid capacity the customer cannot cancel, refund, "
            "move or reduce: it is paid for whether or not it is used (lock-in)"
        )
    else:
        why = "lock-in term"
    code = "lock-in"
    if _TERMINATION_FEE_RE.search(text) and sub in ("commitment", "remaining_fees"):
        code, severity = "termination-fee", "high"
        why = "leaving early costs the remaining fees: it sets the cost of exit (lock-in)"
        ask = present["termination_fee"]
    return Finding(
        code=code,
        kind="lock_in",
        severity=severity,
        obligor=obligor,
        topic=rec.topic,
        quote=text,
        where=where,
        why=why,
        ask_for=ask,
    )


def _exit_or_other_finding(
    rec: _Record, kind: str, obligor: str, where: dict[str, Any], lex: Lexicon
) -> Finding:
    res, text = rec.result, rec.sentence.text
    present = lex.ask_for["present"]
    sub = res.subkind
    severity, why, ask = "info", "a term, renewal or exit term", None
    if sub == "vendor_format":
        return _lock_in_finding(rec, "vendor_format", obligor, where, lex)
    elif sub == "remaining_fees":
        severity, why, ask = (
            "high",
            "leaving early costs all remaining fees (lock-in)",
            present["remaining_fees"],
        )
    elif sub == "auto_renewal":
        severity, why, ask = (
            "medium",
            "the agreement renews automatically unless notice is given in time",
            present["auto_renewal"],
        )
    elif kind == "unilateral_change":
        guarded = sub == "guarded"
        severity = "medium" if guarded else "high"
        why = "the vendor may change prices, terms or specifications on its own" + (
            " (with a guard: consent, cap or no-adverse-effect condition)"
            if guarded
            else " without the customer's consent"
        )
        ask = present["unilateral_change"]
    elif kind == "non_obligation":
        core = rec.topic in lex.core_topics
        severity = "high" if core else "medium"
        why = "states what the vendor is not obliged to do" + (
            " for a core deliverable" if core else ""
        )
        ask = present["non_obligation"]
    elif kind == "disclaimer":
        core = rec.topic in lex.core_topics
        severity = "medium" if core else "low"
        why = "disclaims a warranty" + (" about a core deliverable" if core else "")
        ask = present["disclaimer"]
    elif kind == "lock_in":
        return _lock_in_finding(rec, sub or "", obligor, where, lex)
    elif res.label == "termination_exit":
        if obligor == "vendor" and _VENDOR_EXIT_RE.search(text):
            severity, why, ask = (
                "high",
                "the vendor may terminate or cease the service at will: a supply risk",
                present["vendor_termination"],
            )
        elif obligor == "both" and re.search(
            r"convenience|without\s+cause|any\s+reason", text, re.I
        ):
            severity, why = (
                "medium",
                "either party may terminate at will, so the vendor may leave too",
            )
        elif obligor == "customer":
            severity, why = "info", "a customer exit right or duty"
    if (
        kind not in ("unilateral_change", "non_obligation", "disclaimer", "lock_in")
        and res.label == "termination_exit"
    ):
        kind = "termination_exit"
    code, special = _special_code(kind, sub, obligor, text, lex)
    if special is not None:
        severity, why, ask = special
    return Finding(
        code=code,
        kind=kind,
        severity=severity,
        obligor=obligor,
        topic=rec.topic,
        quote=text,
        where=where,
        why=why,
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
    (auto-renewal, termination fee, ...), with its severity, why and wording to ask for
    when they differ from the generic kind's."""
    present = lex.ask_for["present"]
    if kind == "unilateral_change":
        if sub == "maintenance_carve_out":
            return "maintenance-carve-out", (
                "medium",
                "maintenance the vendor times is excluded from uptime, so the uptime "
                "commitment is hollowed out",
                present["maintenance_carve_out"],
            )
        if _DISCONTINUE_RE.search(text):
            return "hardware-discontinuation", (
                "medium",
                "the vendor may discontinue the contracted hardware during the term",
                present["hardware_discontinuation"],
            )
        if _REALLOCATE_RE.search(text):
            return "capacity-reallocation", (
                "medium",
                "the vendor may reallocate, move or reduce the capacity at its discretion, so "
                "it is not reserved for the customer",
                present["capacity_reallocation"],
            )
        return "unilateral-change", None
    if kind == "termination_exit":
        if sub == "auto_renewal":
            return "auto-renewal", None
        if _TERMINATION_FEE_RE.search(text):
            return "termination-fee", (
                "high",
                "leaving early costs a termination fee: it sets the cost of exit",
                present["termination_fee"],
            )
        if obligor in ("customer", "both", "unknown") and _NO_CONVENIENCE_RE.search(text):
            return "no-termination-for-convenience", (
                "medium",
                "the customer may not terminate for convenience: the whole commitment is "
                "owed whatever happens to the need for compute",
                present["no_termination_for_convenience"],
            )
        if obligor == "vendor" and _VENDOR_EXIT_RE.search(text):
            return "vendor-termination", None
    if kind == "lock_in" and sub == "remaining_fees":
        return "termination-fee", None
    return kind.replace("_", "-"), None


def _missing(
    records: list[_Record],
    figures: list[ContractFigure],
    findings: list[Finding],
    sources: list[str],
    lex: Lexicon,
) -> list[Finding]:
    """Essentials a GPU-compute contract should state (seed 001; research §7.1)."""
    have = {f.field for f in figures if f.committed is not False}
    remedies = [r for r in records if _is_customer_backed_remedy(r)]
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
    checks = [
        (
            "delivery_date",
            "delivery",
            "delivery_date" not in have,
            "high",
            "no committed delivery date: nothing says when the capacity must be ready",
        ),
        (
            "uptime_figure",
            "availability",
            "sla_uptime_pct" not in have,
            "high",
            "no committed uptime percentage: availability is not a measurable promise",
        ),
        (
            "remedy",
            "availability",
            not money_remedy,
            "high",
            "no service credit, refund or delay credit: missed commitments cost the vendor nothing",
        ),
        (
            "chronic_failure_exit",
            "exit",
            not chronic_exit,
            "medium",
            "no right to terminate for repeated SLA failure or late delivery",
        ),
        (
            "data_export",
            "exit",
            not export,
            "medium",
            "nothing says how customer data is returned or exported at exit",
        ),
        (
            "hw_replacement",
            "maintenance",
            "hw_replacement_hours" not in have,
            "medium",
            "no hardware replacement time for failed nodes or GPUs",
        ),
        (
            "support_response",
            "support",
            "support_response_hours" not in have,
            "low",
            "no support response time",
        ),
    ]
    where = {"file": ", ".join(sources)}
    out: list[Finding] = []
    for essential, topic, missing, severity, why in checks:
        if missing:
            out.append(
                Finding(
                    kind="missing",
                    severity=severity,
                    obligor="vendor",
                    topic=topic,
                    quote="",
                    where=dict(where),
                    why=why,
                    figures={"essential": essential},
                    ask_for=lex.ask_for["missing"][essential],
                    has_remedy=None,
                )
            )
    return out


def analyse_text(text: str, source: str, vendor_names: Sequence[str] = ()) -> ClauseAnalysis:
    """Analyse one contract text; ``source`` names it in every finding's location."""
    return analyse_segments([TextSegment(text=text, where=Location(file=source))], vendor_names)


def analyse_file(path: Path, vendor_names: Sequence[str] = ()) -> ClauseAnalysis:
    """Analyse a .txt/.md/.pdf/.docx contract, or an offer file's contract sheet or key."""
    from evaltool.clauses.readers import read_segments

    return analyse_segments(read_segments(Path(path)), vendor_names)


def sort_findings(findings: Sequence[Finding]) -> list[Finding]:
    """Most severe first, then document order (stable and deterministic)."""
    return sorted(
        findings,
        key=lambda f: (
            SEVERITY_ORDER[f.severity],
            str(f.where.get("file", "")),
            int(f.where.get("char_start", -1) or -1),
        ),
    )
