"""Sentence structure: who is bound, by which modal, negated or not, and what it changes.

The classifier (classify.py) asks this module first. It reads the *main clause* of a
sentence (after a leading "If ...," / "In order to ...," clause), the party that is its
subject, and the modal that follows, and combines them with word classes from the
lexicon's ``structure`` section:

* a definition, a recital or a table lead-in binds nobody → none;
* the customer's own duty ("Customer must notify ...", "you must initiate ...") or the
  loss of its own right → none;
* a vendor permission followed by a verb of changing ("may modify", "reserves the right
  to reallocate") → unilateral_change; followed by a verb of ending → termination_exit
  unless a failure triggers it;
* something bought ahead (commitment, reservation, prepaid credits) under a restriction
  (cannot be deleted, non-refundable, billed even if stopped) → lock_in;
* a vendor permission to supply ("may provide second-level support"), a variation
  ("generally", "varies with stock") or a denied promise next to an aim → weak;
* a firm floor (a hard date or figure) with an effort-based stretch on top → firm.

Each decision names the class that made it (``reason``), so a reader can check it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from evaltool.clauses.lexicon import GatedRegex, Lexicon, fast_compile, load_lexicon
from evaltool.clauses.parties import Subject


@dataclass(frozen=True)
class StructureWords:
    """The compiled word classes of the lexicon's ``structure`` section."""

    regex: dict[str, GatedRegex]

    def search(self, name: str, text: str) -> re.Match[str] | None:
        return self.regex[name].search(text)


@lru_cache(maxsize=1)
def structure_words() -> StructureWords:
    raw = load_lexicon().raw["structure"]
    return StructureWords({k: fast_compile(v) for k, v in raw.items() if k != "source"})


@dataclass(frozen=True)
class Decision:
    """What the structure alone decides about a sentence."""

    kind8: str  # one of the eight kinds of the GPU-cloud sets
    obligor: str
    reason: str
    evidence: str
    subkind: str | None = None


_MODAL_WORD_RE = re.compile(r"(\S+)$")
_MODAL_RE = re.compile(r"\b(?:shall|will|must)\b", re.IGNORECASE)
_SOFTENER_RE = re.compile(r"\b(?:typically|normally|generally|usually)\b", re.IGNORECASE)
_ALIAS_HEAD_RE = re.compile(r"(?:[\w&.'’-]+\s*){1,4}")


def main_subject(body: str, subjects: Sequence[Subject], words: StructureWords) -> Subject | None:
    """The subject of the main clause: after a leading subordinate clause's comma."""
    if not subjects:
        return None
    if words.search("subordinator", body):
        comma = body.find(",")
        if comma >= 0:
            after = [s for s in subjects if s.start > comma]
            if after:
                return after[0]
    return subjects[0]


def _verb_tail(body: str, subject: Subject) -> str:
    """The text from the subject's modal on ("must notify ...")."""
    span = body[subject.start : subject.end]
    m = _MODAL_WORD_RE.search(span)
    start = subject.start + (m.start() if m else len(span))
    return body[start:]


@dataclass(frozen=True)
class _Reading:
    """A sentence as the structural rules read it: the main clause's subject and role,
    the text from its modal on, and the failure (if any) that triggers what it grants."""

    body: str
    subjects: Sequence[Subject]
    lex: Lexicon
    weak_starts: Sequence[int]
    w: StructureWords
    subj: Subject | None
    role: str | None
    tail: str
    failure: re.Match[str] | None


def decide(
    body: str,
    subjects: Sequence[Subject],
    lex: Lexicon,
    weak_starts: Sequence[int],
) -> Decision | None:
    """The kind the sentence's structure decides, or None to let the clause rules decide.

    ``weak_starts``: where the sentence's hedges that govern an obligation begin."""
    w = structure_words()
    subj = main_subject(body, subjects, w)
    r = _Reading(
        body, subjects, lex, weak_starts, w, subj,
        role=subj.role if subj else None,
        tail=_verb_tail(body, subj) if subj else body,
        failure=lex.failure_trigger.search(body),
    )
    for rule in _STRUCTURE_RULES:
        found = rule(r)
        if found is not None:
            return found
    return None


_PARTY_MUTUAL_RE = re.compile(r"\b(?:neither|either|each|a)\s+party\b|\bparties\b", re.I)


def _recovery_limit(r: _Reading) -> Decision | None:
    """Limits on what can be recovered: time limits for claims, carve-outs from the cap,
    credit caps, sole-remedy statements, discretion over credit eligibility."""
    body = r.body
    m = r.w.search("cap_extra", body)
    first_unit_end = body.find(";") if ";" in body else len(body)
    # a cap in a later unit of a sentence that first promises something is that promise's
    if m and m.start() >= first_unit_end and _MODAL_RE.search(body[:first_unit_end]):
        return None
    if m is None:
        return None
    return Decision(
        "liability_cap", "both" if _PARTY_MUTUAL_RE.search(body) else "vendor",
        "limits what can be recovered", m.group(0),
        subkind="sole_remedy" if "remedy" in m.group(0).lower() else None,
    )


def _binds_nobody(r: _Reading) -> Decision | None:
    """Definitions, recitals, table lead-ins, governing-law boilerplate, what a document
    (not a party) states, and how a service level is measured."""
    m = (r.w.search("definition", r.body) or r.w.search("lead_in", r.body)
         or r.w.search("document_subject", r.body) or r.w.search("measurement", r.body))
    if m and not r.w.search("restriction", r.body):
        return Decision("none", "unknown", "defines or refers; no obligation", m.group(0))
    return None


def _bought_ahead(r: _Reading) -> Decision | None:
    """Lock-in: something bought ahead under a restriction, or a proprietary format."""
    body, w = r.body, r.w
    restriction = w.search("restriction", body)
    if restriction and w.search("commitment_object", body) and r.role not in ("vendor", "both"):
        return Decision("lock_in", "customer", "a commitment the customer cannot leave",
                        restriction.group(0), subkind="commitment")
    m = w.search("proprietary", body)
    if m and not r.lex.lock_in["denied_before"].search(body[max(0, m.start() - 80) : m.start()]):
        return Decision("lock_in", "customer", "work kept in a proprietary format",
                        m.group(0), subkind="vendor_format")
    return None


_NOT_AFTER_RE = re.compile(r"\s+not\b")
_REDUCE_RE = re.compile(r"(?i)reduc|decreas")


def _permission(r: _Reading) -> Decision | None:
    """The first un-negated permission followed by a verb of changing or of ending: the
    vendor may change what was bought alone, the customer may scale down, a party may end
    the service (unless a failure triggers it: then it is a remedy)."""
    body, w = r.body, r.w
    for perm in w.regex["permission"].finditer(body):
        if _NOT_AFTER_RE.match(body[perm.end() :]):
            continue
        window = body[perm.end() : perm.end() + 90]
        change = w.search("change_verbs", window)
        end = w.search("end_verbs", window)
        first = min((x for x in (change, end) if x), key=lambda x: x.start(), default=None)
        if first is None:
            continue
        who = _role_before(r.subjects, perm.start())
        granted = body[perm.start() : perm.end() + first.end()]
        if first is change and who not in ("customer", "both") and not r.failure:
            return Decision("unilateral_change", "vendor", "the vendor may change it alone",
                            granted)
        if first is change and who == "customer" and _REDUCE_RE.match(first.group(0)):
            return Decision("termination_exit", "customer", "the customer may scale down",
                            first.group(0))
        if first is end and not r.failure:
            return Decision("termination_exit", who or "vendor", "a right to end the service",
                            granted)
        return None
    return None


def _vendor_terms(r: _Reading) -> Decision | None:
    """Terms that bind once the vendor posts them; maintenance the vendor times alone
    excluded from uptime."""
    m = r.w.search("posted_terms", r.body)
    if m:
        return Decision("unilateral_change", "vendor", "terms bind once the vendor posts them",
                        m.group(0))
    m = r.w.search("maintenance_carve_out", r.body)
    if m and r.w.search("vendor_window", r.body):
        return Decision("unilateral_change", "vendor",
                        "maintenance the vendor times is excluded from uptime", m.group(0),
                        subkind="maintenance_carve_out")
    return None


_EXIT_WORD_RE = re.compile(r"\b(?:renew\w*|terminat\w*|cancel\w*)\b", re.I)
_MUST_RE = re.compile(r"\bmust\b(?!\s+not\b)", re.I)
_NAME_BEFORE_RE = re.compile(r"\b(?-i:[A-Z][\w-]+)\s+$")


def _customer_side(r: _Reading) -> Decision | None:
    """The customer's own duty or the loss of its right; credits qualified away. Only
    when no vendor is bound and the sentence is not about exit."""
    body, w = r.body, r.w
    if _EXIT_WORD_RE.search(body) or any(s.role in ("vendor", "both") for s in r.subjects):
        return None
    modal = _MODAL_WORD_RE.search(body[r.subj.start : r.subj.end]) if r.subj else None
    after_modal = r.tail[len(modal.group(1)) :] if modal else r.tail
    duty = w.search("customer_duty", r.tail) if r.role == "customer" else None
    customer_duty = None if r.lex.receipt_verbs.search(after_modal) else duty
    must = _MUST_RE.search(body)
    # an unknown proper name before "must" is a named party, usually the vendor
    named = must and _NAME_BEFORE_RE.search(body[: must.start()])
    must_unbound = must if not r.subjects and not named else None
    if customer_duty or must_unbound:
        evidence = customer_duty.group(0) if customer_duty else "must"
        return Decision("none", "customer", "binds the customer", evidence)
    m = w.search("credit_exclusion", body)
    if m:
        return Decision("none", "unknown", "qualifies or withholds credits", m.group(0))
    return None


_RECEIVE_RE = re.compile(r"\s*(?:receive|get)\b", re.I)
_MAY_RE = re.compile(r"\bmay\b(?!\s+not\b)", re.I)


def _weak_by_structure(r: _Reading) -> Decision | None:
    """A floor with an effort-based stretch is firm; talk about the market is none; a
    denied promise next to an aim, a variation or a discretionary supply is weak."""
    body, w = r.body, r.w
    floor = _floor(body, r.weak_starts, w)
    if floor is not None:
        return Decision("firm_commitment", r.role if r.role in ("vendor", "both") else "vendor",
                        "a firm floor with an effort-based stretch on top", floor)
    m = w.search("imperative_hedge", body) or _generic_softener(body, w)
    if m:
        return Decision("none", "unknown", "talks about the market or the reader", m.group(0))
    denied = w.search("denied_promise", body)
    variation = w.search("variation", body)
    if (variation and _variation_role(r, variation.start()) == "customer"
            and not _RECEIVE_RE.match(r.tail)):
        variation = None
    if r.role == "customer" and not variation:
        return None
    if denied and not (r.weak_starts or variation):
        return Decision("none", "vendor", "states that nothing is promised", denied.group(0))
    if variation and not _generic(body, variation.start(), w):
        return Decision("weak_commitment", "vendor", "a hedge of frequency or variation",
                        variation.group(0))
    return _discretionary_supply(r)


def _variation_role(r: _Reading, pos: int) -> str | None:
    """Who a hedge of variation is about. "Customer acknowledges that the Provider may be
    unable to ...": the acknowledgement frames a clause whose own subject counts (unnamed
    or a name we do not know: the vendor, whose service the contract describes)."""
    frame = r.w.search("acknowledgement", r.body[:pos])
    if frame is None:
        return _role_before(r.subjects, pos)
    inner = [s for s in r.subjects if frame.end() <= s.start < pos]
    return inner[-1].role if inner else "vendor"


def _discretionary_supply(r: _Reading) -> Decision | None:
    """'We may provide second-level support': a vendor permission to supply, not a
    promise (unless it is a paid extra, a remedy or triggered by a failure)."""
    body, w = r.body, r.w
    if r.role in ("customer", "both"):
        return None
    if r.failure or w.search("paid_extra", body) or r.lex.remedy_strong.search(body):
        return None
    for perm in _MAY_RE.finditer(body):
        if _role_before(r.subjects, perm.start()) in ("customer", "both"):
            continue
        supply = w.search("supply_verbs", body[perm.end() : perm.end() + 50])
        if supply:
            return Decision("weak_commitment", "vendor", "discretionary performance",
                            body[perm.start() : perm.end() + supply.end()])
    return None


# In order: what limits recovery, what binds nobody, lock-in, permissions to change or
# end, vendor-timed terms, the customer's side, then weak or firm by structure.
_STRUCTURE_RULES: tuple[Callable[[_Reading], Decision | None], ...] = (
    _recovery_limit,
    _binds_nobody,
    _bought_ahead,
    _permission,
    _vendor_terms,
    _customer_side,
    _weak_by_structure,
)


def _role_before(subjects: Sequence[Subject], pos: int) -> str | None:
    best = None
    for s in subjects:
        if s.start >= pos:
            break
        best = s
    return best.role if best else None


def _generic(body: str, pos: int, w: StructureWords) -> bool:
    """'GPU hosts typically ...': talk about the market, not a promise of this vendor."""
    return bool(w.search("generic_actor", body[max(0, pos - 40) : pos + 40])) and not re.search(
        r"\b(?:we|our|us)\b", body, re.I
    )


def _generic_softener(body: str, w: StructureWords) -> re.Match[str] | None:
    m = _SOFTENER_RE.search(body)
    return m if m and _generic(body, m.start(), w) else None


def _floor(body: str, weak_starts: Sequence[int], w: StructureWords) -> str | None:
    """A hard deadline or figure that no hedge governs, in a sentence that also hedges."""
    if not weak_starts:
        return None
    for m in w.regex["floor"].finditer(body):
        if m.group(0).lower().startswith("in any event"):
            return m.group(0)
        clause_start = max(body.rfind(s, 0, m.start()) for s in (";", ",", " and "))
        if not any(clause_start <= h < m.start() for h in weak_starts):
            return m.group(0)
    return None


def firm_without_modal(body: str, role: str | None) -> str | None:
    """A promise stated without 'shall': 'is guaranteed to finish within 48 hours',
    'Guaranteed 99.99% uptime', 'we ensure that ...' (not when the promise is denied)."""
    w = structure_words()
    if role == "customer" or w.search("denied_promise", body):
        return None
    m = w.search("guarantee", body)
    return m.group(0) if m else None
