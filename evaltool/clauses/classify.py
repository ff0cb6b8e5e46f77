"""Classify one contract sentence: what it does (label/kind), who it binds, which hedges.

Rules, not a model: each decision cites the phrase that made it (a trained classifier
would need labelled GPU-cloud contracts we do not have; CUAD, arXiv 2103.06268, labels
clause categories, not hedges). Precedence: a right or consequence the sentence grants
(remedy, cap, exit) wins over hedge words that only describe its trigger; a hedge that
governs a vendor obligation makes a weak commitment even when the topic is exit; net
non-obligations and customer-side efforts are not weak commitments.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from evaltool.clauses.hedges import FIGURE_RE, HedgeHit, find_hedges, subject_role
from evaltool.clauses.lexicon import Lexicon, load_lexicon
from evaltool.clauses.parties import Parties, Subject, find_subjects, parties_for
from evaltool.clauses.structure import Decision, decide, firm_without_modal

# Efforts definitions ('"Best efforts" means ...') impose no obligation (readme).
_DEFINITION_RE = re.compile(
    r"^[^.;]{0,120}?[\"“”'’]\s*(?:shall\s+)?(?:means?|has\s+the\s+meaning)\b", re.IGNORECASE
)
_EFFORT_WORD_RE = re.compile(r"effort|endeavou?r", re.IGNORECASE)
_ENUM_PREFIX_RE = re.compile(
    r"^\s*(?:(?:\d+(?:\.\d+)*\.?|\(?[a-z]{1,3}\)|\(?[ivx]{1,5}\)|\(\d{1,3}\)|[a-z]\.|[-*•o])\s+)+",
    re.IGNORECASE,
)
_MODAL_ANY_RE = re.compile(
    r"\b(?:shall|will|must|may|means|agrees?|is|are|has|have|provides?|includes?)\b", re.IGNORECASE
)
_OBLIGATION_RE = re.compile(
    r"\b(?:shall|will|wil|must|agrees?\s+(?:not\s+)?to|undertakes?\s+(?:not\s+)?to|commits?\s+to|"
    r"is\s+(?:required|obligated)\s+to|guarantees?|warrants?)\b"
    r"(?!\s+not\s+be\s+(?:required|obligated|obliged|liable|responsible))",
    re.IGNORECASE,
)
_PRESENT_FIRM_RE = re.compile(
    r"\b(?:is|are)\s+(?:a\s+minimum\s+of|at\s+least|available)\b|\bprovides?\b|"
    r"\bincludes?\b[^.;]{0,40}\bguarantee\b|\bguarantee\b|\bresponse\s+times?\b|"
    # a stated service level: "The Service Level Objective for X is 99.5%"
    r"\b(?:service\s+level|slo|sla|uptime|availability)\b[^.;]{0,60}?\b(?:is|are|of|equals?)\s+"
    r"(?:at\s+least\s+|a\s+minimum\s+of\s+)?\d{2}(?:\.\d+)?\s*%",
    re.IGNORECASE,
)
_FRAGMENT_RE = re.compile(r"[;,]\s*(?:and|or)?\s*$|\band\s*$")
_HEADING_WORDS_RE = re.compile(r"[A-Za-z][\w'’-]*")
@dataclass(frozen=True)
class SentenceResult:
    """The classification of one sentence, with the evidence for it."""

    label: str  # one of the six dev labels
    kind: str  # product finding kind
    obligor: str
    reason: str
    subkind: str | None = None
    hedges: tuple[HedgeHit, ...] = ()
    weak: tuple[HedgeHit, ...] = ()
    evidence: str | None = None
    extra: dict[str, str] = field(default_factory=dict)

    @property
    def kind8(self) -> str:
        """The kind among the eight of the GPU-cloud sets (the six dev labels, with
        ``other`` split into lock_in, unilateral_change and none)."""
        if self.kind in ("lock_in", "unilateral_change"):
            return self.kind
        return "none" if self.label == "other" else self.label

    @property
    def weak_phrase(self) -> str | None:
        return self.weak[0].phrase if self.weak else None


def _strip_enum(text: str) -> str:
    return _ENUM_PREFIX_RE.sub("", text, count=1)


def _is_heading(text: str) -> bool:
    body = _strip_enum(text).strip().rstrip(".:")
    words = _HEADING_WORDS_RE.findall(body)
    if not words or len(words) > 10 or _MODAL_ANY_RE.search(body):
        return False
    minor = {"of", "for", "and", "or", "the", "to", "in", "on", "a", "an", "by", "with"}
    return all(w[0].isupper() or w.lower() in minor for w in words)


def _first_obligation(
    text: str, subjects: Sequence[Subject], lex: Lexicon, hedges: Sequence[HedgeHit]
) -> tuple[str | None, re.Match[str] | None]:
    """Role bound by the sentence's obligations: vendor/both beats customer if both appear."""
    roles: list[str] = []
    first: re.Match[str] | None = None
    # an unnamed subject whose efforts are a buyer's (marketing, paying) is the customer
    customer_subject = any(h.status == "customer" for h in hedges)
    for m in _OBLIGATION_RE.finditer(text):
        role, _ = subject_role(subjects, m.start() + 1, text)
        if role is None:
            buyer_verb = lex.customer_verbs.search(text[m.end() : m.end() + 30])
            role = "customer" if buyer_verb or customer_subject else "vendor"
        roles.append(role)
        first = first or m
    if not roles:
        return None, None
    if "vendor" in roles:
        return "vendor", first
    if "both" in roles:
        return "both", first
    return roles[0], first


def _undenied(
    name: str, body: str, lex: Lexicon, subjects: Sequence[Subject] | None = None
) -> re.Match[str] | None:
    """The first lock-in phrase ``name`` in the sentence that is not denied just before it
    ("non-exclusive", "no minimum commitment", "not required to buy exclusively from"),
    and, when ``subjects`` are given, that does not bind the vendor or both parties."""
    denied = lex.lock_in["denied_before"]
    for m in lex.lock_in[name].finditer(body):
        if denied.search(body[max(0, m.start() - 80) : m.start()]):
            continue
        if subjects is not None and subject_role(subjects, m.start() + 1, body)[0] in (
            "vendor",
            "both",
        ):
            continue
        return m
    return None


def lock_in_terms(
    body: str, lex: Lexicon, subjects: Sequence[Subject] = ()
) -> tuple[str, re.Match[str]] | None:
    """The lock-in a sentence puts on the customer, whatever else it does: customer data
    exported only in the vendor's own format or only for an extra fee, exclusivity (as a
    status or as the customer's covenant not to buy elsewhere), a minimum commitment."""
    exporting = lex.lock_in["data_export"].search(body)
    fmt = _undenied("vendor_format", body, lex)
    if fmt is not None and exporting:
        return "vendor_format", fmt
    fee = _undenied("paid_export", body, lex)
    if fee is not None and exporting:
        return "paid_export", fee
    m = _undenied("exclusivity", body, lex) or _undenied("non_compete", body, lex, subjects)
    if m is not None:
        return "exclusivity", m
    m = _undenied("minimum_commitment", body, lex)
    if m is not None:
        return "minimum_commitment", m
    return None


@dataclass(frozen=True)
class _Sentence:
    """One sentence with what every rule of the cascade reads: its parties, hedges, the
    role its obligations bind and the lock-in it puts on the customer."""

    body: str
    text: str  # as given, with its list prefix (an item in a list of what is provided)
    lex: Lexicon
    subjects: Sequence[Subject]
    hedges: tuple[HedgeHit, ...]
    weak: tuple[HedgeHit, ...]
    ob_role: str | None
    lock: tuple[str, re.Match[str]] | None

    def result(
        self,
        label: str,
        kind: str,
        obligor: str,
        reason: str,
        subkind: str | None = None,
        evidence: str | None = None,
    ) -> SentenceResult:
        extra = {"obligation_role": self.ob_role or ""}
        if self.lock is not None:
            extra["lock_in"] = self.lock[0]
        return SentenceResult(
            label, kind, obligor, reason, subkind, self.hedges, self.weak, evidence, extra
        )

    @property
    def weak_obligor(self) -> str:
        if any(h.obligor == "vendor" for h in self.weak):
            return "vendor"
        return "both" if self.weak else "unknown"

    def weak_result(self) -> SentenceResult:
        phrase = self.weak[0].phrase
        return self.result(
            "weak_commitment", "weak_commitment", self.weak_obligor,
            f"hedged obligation: '{phrase}'", evidence=phrase,
        )


_Rule = Callable[[_Sentence], SentenceResult | None]


def classify_detail(
    text: str,
    vendor_names: Sequence[str] = (),
    customer_names: Sequence[str] = (),
    parties: Parties | None = None,
) -> SentenceResult:
    """Classify one sentence and return the evidence (hedges, subkind, reason).

    Boilerplate families first, then what the sentence structure decides (structure.py),
    then the clause rules in order of precedence: exclusive remedies and caps, remedies,
    weak commitments, exit terms, the other kinds, firm commitments."""
    lex = load_lexicon()
    parties = parties or parties_for(vendor_names, customer_names)
    body = text.strip()
    if not body or _is_heading(body):
        return SentenceResult("other", "heading", "unknown", "a heading, not a clause")
    subjects = find_subjects(body, parties)
    head = _DEFINITION_RE.search(_strip_enum(body))
    if head and _EFFORT_WORD_RE.search(head.group(0)):
        return SentenceResult(
            "other", "definition", "unknown", "defines an efforts standard; no obligation"
        )
    hedges = tuple(find_hedges(body, lex, subjects, definition=bool(head)))
    weak = tuple(h for h in hedges if h.status == "obligation")
    ob_role, _ob = _first_obligation(body, subjects, lex, hedges)
    s = _Sentence(body, text, lex, subjects, hedges, weak, ob_role,
                  lock_in_terms(body, lex, subjects))
    found = _boilerplate(s)
    if found is not None:
        return found
    decision = decide(body, subjects, lex, [h.start for h in weak])
    if decision is not None:
        return _from_decision(decision, s)
    for rule in _RULES:
        found = rule(s)
        if found is not None:
            return found
    if s.ob_role == "customer":
        return s.result("other", "customer_obligation", "customer", "binds the customer")
    return s.result("other", "other", s.ob_role or "unknown", "no obligation, remedy or exit term")


def _boilerplate(s: _Sentence) -> SentenceResult | None:
    """Force-majeure excuses and indemnities: their own boilerplate families (readme
    "other"), unless a hedge governs a vendor obligation in them."""
    if s.weak:
        return None
    if s.lex.fm_marker.search(s.body) and s.lex.fm_excuse.search(s.body):
        return s.result("other", "force_majeure", "both", "force-majeure excuse")
    if s.lex.indemnity.search(s.body):
        return s.result(
            "other", "indemnity", s.ob_role or "unknown", "indemnity / defence obligation"
        )
    return None


_PARTY_MUTUAL_RE = re.compile(r"\b(?:neither|either|each|a)\s+party\b|\bparties\b", re.I)
_OTHER_PARTY_RE = re.compile(
    r"\b(?:either|non-?breaching|non-?defaulting|other)\s+party\b|\beither\s+party\b", re.I
)
_SOLE_RE = re.compile(r"sole|exclusive", re.I)
_SOLE_REMEDY_TERMINATE_RE = re.compile(r"remedy\s+(?:is|shall\s+be)\s+to\s+terminate", re.I)
_INSOLVENCY_RE = re.compile(r"bankrupt|insolven|receiver|trustee", re.I)
_TERMINATION_FEE_RE = re.compile(r"termination\s+(?:fee|charges?)", re.I)
_PROTECTIVE_RE = re.compile(r"\bterminat(?:e|es|ed|ion)\b|\bcancel|\bdamages\b", re.I)
_OBLIGAT_RE = re.compile(r"obligat", re.I)


def _exclusive_remedy_or_cap(s: _Sentence) -> SentenceResult | None:
    """Exclusive remedy clauses, then liability caps (readme: caps beat hedged provisos).
    "Customer's sole remedy [for a change] is to terminate" is an exit right, not a remedy
    for a failure, unless a failure triggers it."""
    body, lex = s.body, s.lex
    remedy_m = lex.remedy_strong.search(body)
    sole = bool(remedy_m and _SOLE_RE.search(remedy_m.group(0)))
    if sole and _SOLE_REMEDY_TERMINATE_RE.search(body):
        sole = bool(lex.failure_trigger.search(body))
    if sole and remedy_m:
        customer_failure = bool(lex.customer_failure.search(body))
        return s.result(
            "remedy", "remedy", "customer" if customer_failure else "vendor",
            "states the exclusive remedy", evidence=remedy_m.group(0),
        )
    cap_m = lex.liability_cap.search(body)
    if cap_m:
        obligor = "both" if _PARTY_MUTUAL_RE.search(body) else "vendor"
        return s.result(
            "liability_cap", "liability_cap", obligor, "limits liability", evidence=cap_m.group(0)
        )
    return None


def _remedy(s: _Sentence) -> SentenceResult | None:
    """Credits, refunds, liquidated damages, termination or suspension on failure."""
    body, lex = s.body, s.lex
    remedy_m = lex.remedy_strong.search(body)
    failure_m = lex.failure_trigger.search(body)
    consequence_m = lex.remedy_consequence.search(body)
    customer_failure = bool(lex.customer_failure.search(body))
    if consequence_m and _OBLIGAT_RE.search(consequence_m.group(0)) and not customer_failure:
        consequence_m = None  # "unable to ..., it shall not be obligated" excuses, not remedies
    representation = bool(lex.representation.search(body))
    by_failure = bool(
        failure_m and consequence_m and not representation and not _INSOLVENCY_RE.search(body)
    )
    if not (remedy_m or by_failure):
        return None
    if _TERMINATION_FEE_RE.search(body) and not failure_m:
        return None  # a termination fee for leaving at will is an exit term
    if s.weak:
        # A hedged promise whose counterparty holds a remedy in the same sentence is
        # primarily that remedy; a vendor's own right to suspend does not back it.
        protective = _PROTECTIVE_RE.search(body)
        self_help = bool(lex.self_help.search(body)) and not remedy_m and not protective
        if customer_failure or self_help:
            return s.weak_result()
    if customer_failure:
        obligor = "customer"
    else:
        obligor = "both" if _OTHER_PARTY_RE.search(body) else "vendor"
    evidence = remedy_m.group(0) if remedy_m else (failure_m.group(0) if failure_m else None)
    return s.result(
        "remedy", "remedy", obligor, "consequence of a failure to perform", evidence=evidence
    )


def _weak(s: _Sentence) -> SentenceResult | None:
    """A hedge that governs a vendor (or mutual) obligation."""
    return s.weak_result() if s.weak else None


_AUTO_RENEW_RE = re.compile(r"automatically|auto-?renew", re.I)
_BOTH_PARTIES_RE = re.compile(r"\b(?:either|each|both)\s+part(?:y|ies)\b|\bthe\s+parties\b", re.I)


# Exit data the customer gets back only in the vendor's format, or only for a fee.
_EXPORT_LOCKS = ("vendor_format", "paid_export")
_EXIT_LOCKS = ("vendor_format", "paid_export", "remaining_fees")


def _exit_subkind(s: _Sentence, export_lock: re.Match[str] | None) -> str | None:
    body, lex = s.body, s.lex
    if export_lock is not None and s.lock is not None:
        return s.lock[0]
    if _undenied("vendor_format", body, lex):
        return "vendor_format"
    if lex.lock_in["remaining_fees"].search(body):
        return "remaining_fees"
    if _AUTO_RENEW_RE.search(body):
        return "auto_renewal"
    if lex.unilateral_change.search(body) and lex.renewal.search(body):
        return "renewal_price_change"
    return None


def _exit_term(s: _Sentence) -> SentenceResult | None:
    """Term, renewal and exit terms (incl. non-obligations about them); data exported
    only in the vendor's format is an exit term wherever it is written."""
    body, lex = s.body, s.lex
    exit_m = None if lex.representation.search(body) else lex.exit_patterns.search(body)
    export_lock = s.lock[1] if s.lock is not None and s.lock[0] in _EXPORT_LOCKS else None
    evidence = exit_m or export_lock
    if evidence is None:
        return None
    subkind = _exit_subkind(s, export_lock)
    role, _ = subject_role(s.subjects, evidence.start() + 1)
    if _BOTH_PARTIES_RE.search(body):
        role = "both"
    kind = "lock_in" if subkind in _EXIT_LOCKS else "termination_exit"
    if subkind == "renewal_price_change":
        kind = "unilateral_change"
    return s.result(
        "termination_exit", kind, role or s.ob_role or "unknown", "term, renewal or exit term",
        subkind=subkind, evidence=evidence.group(0),
    )


def _change_or_disclaimer(s: _Sentence) -> SentenceResult | None:
    """What the readme files under "other" that a buyer still reads: a vendor's right to
    change terms alone, what is expressly not promised, warranty disclaimers, and the
    lexicon's other markers (force majeure, audit, confidentiality ...)."""
    body, lex = s.body, s.lex
    unilateral_m = lex.unilateral_change.search(body)
    if unilateral_m:
        role, _ = subject_role(s.subjects, unilateral_m.start() + 1)
        if role != "customer":
            guard = lex.unilateral_guard.search(body)
            return s.result(
                "other", "unilateral_change", role or "vendor", "vendor may change terms alone",
                subkind="guarded" if guard else "unguarded", evidence=unilateral_m.group(0),
            )
    non_ob = lex.non_obligation.search(body)
    if non_ob:
        role, _ = subject_role(s.subjects, non_ob.start() + 1)
        return s.result(
            "other", "non_obligation", role or s.ob_role or "vendor",
            "states what is not promised", evidence=non_ob.group(0),
        )
    disclaimer_m = lex.disclaimer.search(body)
    if disclaimer_m:
        return s.result(
            "other", "disclaimer", "vendor", "disclaims a warranty", evidence=disclaimer_m.group(0)
        )
    for name, regex in lex.other_markers.items():
        m = regex.search(body)
        if m:
            return s.result(
                "other", name, s.ob_role or "unknown", name.replace("_", " "), evidence=m.group(0)
            )
    return None


_CUSTOMER_LOCKS = ("exclusivity", "minimum_commitment")


def _lock_in(s: _Sentence) -> SentenceResult | None:
    """Exclusivity and minimum commitments bind the customer: it is the one locked in;
    egress fees lock its data in."""
    if s.lock is not None and s.lock[0] in _CUSTOMER_LOCKS:
        name, m = s.lock
        return s.result(
            "other", "lock_in", "customer", name.replace("_", " "), subkind=name,
            evidence=m.group(0),
        )
    egress_m = _undenied("egress", s.body, s.lex)
    if egress_m:
        return s.result(
            "other", "lock_in", "vendor", "egress", subkind="egress", evidence=egress_m.group(0)
        )
    return None


_SCOPE_EXCLUSION_RE = re.compile(r"\b(?:shall|will)\s+not\s*:", re.I)


def _firm(s: _Sentence) -> SentenceResult | None:
    """An unhedged vendor or mutual obligation, a stated service level, an item in a list
    of what is provided, or a guarantee stated without a modal."""
    body = s.body
    if s.ob_role in ("vendor", "both") and not _SCOPE_EXCLUSION_RE.search(body):
        return s.result("firm_commitment", "firm_commitment", s.ob_role, "unhedged obligation")
    if s.ob_role is None:
        role, _ = subject_role(s.subjects, len(body))
        figure = FIGURE_RE.search(body)
        if role in (None, "vendor", "both") and _PRESENT_FIRM_RE.search(body) and figure:
            return s.result(
                "firm_commitment", "firm_commitment", role or "vendor", "stated service level"
            )
        if role is None and _ENUM_PREFIX_RE.match(s.text) and _FRAGMENT_RE.search(body):
            return s.result(
                "firm_commitment", "firm_commitment", "vendor",
                "item in a list of what is provided",
            )
    promise = firm_without_modal(body, s.ob_role)
    if promise is not None:
        return s.result(
            "firm_commitment", "firm_commitment", "vendor", "a stated guarantee",
            evidence=promise,
        )
    return None


# The clause rules after the structural decision, in order of precedence.
_RULES: tuple[_Rule, ...] = (
    _exclusive_remedy_or_cap,
    _remedy,
    _weak,
    _exit_term,
    _change_or_disclaimer,
    _lock_in,
    _firm,
)


# The six dev labels and the product kind for each structural decision.
_DECISION_LABELS: dict[str, tuple[str, str]] = {
    "none": ("other", "other"),
    "liability_cap": ("liability_cap", "liability_cap"),
    "lock_in": ("other", "lock_in"),
    "unilateral_change": ("other", "unilateral_change"),
    "termination_exit": ("termination_exit", "termination_exit"),
    "weak_commitment": ("weak_commitment", "weak_commitment"),
    "firm_commitment": ("firm_commitment", "firm_commitment"),
}


def _from_decision(d: Decision, s: _Sentence) -> SentenceResult:
    """A SentenceResult for what the sentence structure decided (structure.py). A duty
    the customer owes that locks it in (buy only here, buy a minimum) is that lock-in."""
    body, lex = s.body, s.lex
    if d.kind8 == "none" and s.lock is not None and s.lock[0] in _CUSTOMER_LOCKS:
        found = _lock_in(s)
        if found is not None:
            return found
    label, kind = _DECISION_LABELS[d.kind8]
    if d.subkind == "vendor_format" and lex.lock_in["data_export"].search(body):
        label = "termination_exit"  # exit data only in the vendor's format: an exit term
    subkind = d.subkind
    if d.kind8 == "unilateral_change" and subkind is None:
        subkind = "guarded" if lex.unilateral_guard.search(body) else "unguarded"
    weak = s.weak
    if d.kind8 == "weak_commitment" and not weak:
        start = max(body.find(d.evidence), 0)
        weak = (
            HedgeHit("structure", "aspiration", d.evidence, start, start + len(d.evidence),
                     "obligation", d.obligor, (0, len(body))),
        )
    if d.kind8 == "firm_commitment":
        weak = ()
    extra = {"obligation_role": s.ob_role or "", "structure": d.reason}
    if s.lock is not None:
        extra["lock_in"] = s.lock[0]
    return SentenceResult(
        label, kind, d.obligor, d.reason, subkind, s.hedges, weak, d.evidence, extra
    )


def classify_sentence(
    text: str, vendor_names: Sequence[str] = (), customer_names: Sequence[str] = ()
) -> tuple[str, str]:
    """(label, obligor) for one sentence; the label is one of the six dev-set labels."""
    res = classify_detail(text, vendor_names, customer_names)
    return res.label, res.obligor
