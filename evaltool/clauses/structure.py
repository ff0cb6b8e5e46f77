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
from collections.abc import Sequence
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
    role = subj.role if subj else None
    tail = _verb_tail(body, subj) if subj else body
    failure = lex.failure_trigger.search(body)

    # 2. Limits on what can be recovered: time limits for claims, carve-outs from the
    #    cap, credit caps, sole-remedy statements, discretion over credit eligibility.
    m = w.search("cap_extra", body)
    first_unit_end = body.find(";") if ";" in body else len(body)
    # a cap in a later unit of a sentence that first promises something is that promise's
    if m and m.start() >= first_unit_end and _MODAL_RE.search(body[:first_unit_end]):
        m = None
    if m:
        both = re.search(r"\b(?:neither|either|each|a)\s+party\b|\bparties\b", body, re.I)
        return Decision(
            "liability_cap", "both" if both else "vendor", "limits what can be recovered",
            m.group(0), subkind="sole_remedy" if "remedy" in m.group(0).lower() else None,
        )

    # 1. Definitions, recitals, table lead-ins and governing-law boilerplate bind nobody.
    m = w.search("definition", body) or w.search("lead_in", body)
    if m and not w.search("restriction", body):
        return Decision("none", "unknown", "defines or refers; no obligation", m.group(0))

    # 3. Lock-in: something bought ahead under a restriction, or a proprietary format.
    obj = w.search("commitment_object", body)
    restriction = w.search("restriction", body)
    if obj and restriction and role not in ("vendor", "both"):
        return Decision("lock_in", "customer", "a commitment the customer cannot leave",
                        restriction.group(0), subkind="commitment")
    m = w.search("proprietary", body)
    if m and not lex.lock_in["denied_before"].search(body[max(0, m.start() - 80) : m.start()]):
        return Decision("lock_in", "customer", "work kept in a proprietary format",
                        m.group(0), subkind="vendor_format")

    # 4. A vendor permission: to change what was bought, or to end it.
    vendorish = role not in ("customer", "both")
    for perm in w.regex["permission"].finditer(body):
        who = _role_before(subjects, perm.start())
        negated = re.match(r"\s+not\b", body[perm.end() :])
        if negated:
            continue
        window = body[perm.end() : perm.end() + 90]
        change = w.search("change_verbs", window)
        end = w.search("end_verbs", window)
        first = min((x for x in (change, end) if x), key=lambda x: x.start(), default=None)
        if first is None:
            continue
        if first is change and who not in ("customer", "both") and not failure:
            return Decision("unilateral_change", "vendor", "the vendor may change it alone",
                            body[perm.start() : perm.end() + first.end()])
        if first is change and who == "customer" and re.match(r"(?i)reduc|decreas", first.group(0)):
            return Decision("termination_exit", "customer", "the customer may scale down",
                            first.group(0))
        if first is end and not failure:
            return Decision("termination_exit", who or "vendor", "a right to end the service",
                            body[perm.start() : perm.end() + first.end()])
        break
    m = w.search("posted_terms", body)
    if m:
        return Decision("unilateral_change", "vendor", "terms bind once the vendor posts them",
                        m.group(0))
    m = w.search("maintenance_carve_out", body)
    if m and w.search("vendor_window", body):
        return Decision("unilateral_change", "vendor",
                        "maintenance the vendor times is excluded from uptime", m.group(0),
                        subkind="maintenance_carve_out")

    # 5. The customer's own duty or loss of its right; credits qualified away.
    exit_word = re.search(r"\b(?:renew\w*|terminat\w*|cancel\w*)\b", body, re.I)
    vendor_bound = any(s.role in ("vendor", "both") for s in subjects)
    if not exit_word and not vendor_bound:
        modal = _MODAL_WORD_RE.search(body[subj.start : subj.end]) if subj else None
        after_modal = tail[len(modal.group(1)) :] if modal else tail
        duty = w.search("customer_duty", tail) if role == "customer" else None
        customer_duty = None if lex.receipt_verbs.search(after_modal) else duty
        must = re.search(r"\bmust\b(?!\s+not\b)", body, re.I)
        # an unknown proper name before "must" is a named party, usually the vendor
        named = must and re.search(r"\b(?-i:[A-Z][\w-]+)\s+$", body[: must.start()])
        must_unbound = must if not subjects and not named else None
        if customer_duty or must_unbound:
            evidence = customer_duty.group(0) if customer_duty else "must"
            return Decision("none", "customer", "binds the customer", evidence)
        m = w.search("credit_exclusion", body)
        if m:
            return Decision("none", "unknown", "qualifies or withholds credits", m.group(0))

    # 6. Weak by structure: a floor with an effort-based stretch is firm; a denied promise
    #    next to an aim, a variation, a discretionary supply or an inability is weak.
    floor = _floor(body, weak_starts, w)
    if floor is not None:
        return Decision("firm_commitment", role if role in ("vendor", "both") else "vendor",
                        "a firm floor with an effort-based stretch on top", floor)
    m = w.search("imperative_hedge", body) or _generic_softener(body, w)
    if m:
        return Decision("none", "unknown", "talks about the market or the reader", m.group(0))
    denied = w.search("denied_promise", body)
    variation = w.search("variation", body)
    if variation and _role_before(subjects, variation.start()) == "customer" and not re.match(
        r"\s*(?:receive|get)\b", tail, re.I
    ):
        variation = None
    if role == "customer" and not variation:
        return None
    if denied and not (weak_starts or variation):
        return Decision("none", "vendor", "states that nothing is promised", denied.group(0))
    if variation and not _generic(body, variation.start(), w):
        return Decision("weak_commitment", "vendor", "a hedge of frequency or variation",
                        variation.group(0))
    if vendorish:
        for perm in re.finditer(r"\bmay\b(?!\s+not\b)", body, re.I):
            if _role_before(subjects, perm.start()) in ("customer", "both"):
                continue
            supply = w.search("supply_verbs", body[perm.end() : perm.end() + 50])
            extra = w.search("paid_extra", body)
            if supply and not extra and not failure and not lex.remedy_strong.search(body):
                return Decision("weak_commitment", "vendor", "discretionary performance",
                                body[perm.start() : perm.end() + supply.end()])
    return None


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
