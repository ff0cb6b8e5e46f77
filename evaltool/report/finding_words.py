"""The sentences of clause findings, written from the code and figures the clause stage found.

evaltool/clauses returns each finding with its registered code and figures: a `reason` (which
rule fired) and what it rests on (the hedge phrase and its tier, the lock-in's months, whether
a remedy exists, whether the topic is a core deliverable). This module is the one place that
turns them into words, for `evaltool clauses`, the flags of the score report, the memo and
the exports.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from evaltool.clauses.models import ClauseAnalysis, Finding


def with_article(noun_phrase: str) -> str:
    """'an availability commitment', 'a delivery commitment' (by the first letter's sound
    as English spells these topic words; no topic starts with a silent or 'yoo' vowel)."""
    article = "an" if noun_phrase[:1].lower() in "aeiou" else "a"
    return f"{article} {noun_phrase}"


def _hedged(f: Finding) -> str:
    g = f.figures
    about = with_article(f"{f.topic} commitment") if f.topic else "a commitment"
    remedy = (
        "a remedy for it exists in the document (still check its size and triggers)"
        if f.has_remedy
        else "no remedy (credit, refund or termination right) for it was found"
    )
    tier = str(f.tier or "").replace("_", " ")
    text = (
        f"'{g.get('hedge')}' ({tier}) hedges {about} by the {g.get('hedged_by') or f.obligor}: "
        f"no deliverable is promised, so missing it is not a breach; {remedy}."
    )
    if g.get("primarily"):
        text += f" The sentence is primarily {with_article(str(g['primarily']).replace('_', ' '))}."
    return text


def _vendor_remedy(f: Finding) -> str:
    return "a remedy when the vendor fails" + (
        "; it is the exclusive remedy, so it also caps what can be recovered"
        if f.figures.get("exclusive") else ""
    )


def _exclusivity(f: Finding) -> str:
    months = f.figures.get("months")
    span = f" for {months} months" if months else ""
    return (f"exclusivity: the customer may not buy compute elsewhere{span}, so a better or "
            "cheaper offer cannot be taken (lock-in)")


def _change(guard: str) -> Callable[[Finding], str]:
    return lambda f: "the vendor may change prices, terms or specifications on its own" + guard


def _core(text: str, core_text: str) -> Callable[[Finding], str]:
    return lambda f: text + (core_text if f.figures.get("core") else "")


# Sentences of the findings on one sentence of a contract, by reason.
SAYS: dict[str, Callable[[Finding], str] | str] = {
    "hedged": _hedged,
    "firm": "an unhedged obligation: what the vendor does commit to",
    "self_help": "a consequence of the customer's failure (the vendor's self-help)",
    "vendor_remedy": _vendor_remedy,
    "liability_cap": "limits the amount, type or timing of recoverable damages",
    "vendor_format": ("customer data is exported only in the vendor's own format: leaving means "
                      "conversion work (lock-in)"),
    "exclusivity": _exclusivity,
    "minimum_commitment": ("a minimum commitment binds the customer's spend or volume whether or "
                           "not the capacity is needed or delivered as promised (lock-in)"),
    "paid_export": ("exporting the customer's data costs extra: leaving is priced, on top of the "
                    "work of moving (lock-in)"),
    "egress": "egress / data-transfer fees make leaving expensive (lock-in)",
    "commitment": ("committed, reserved or prepaid capacity the customer cannot cancel, refund, "
                   "move or reduce: it is paid for whether or not it is used (lock-in)"),
    "lock_in": "lock-in term",
    "early_exit_fees": ("leaving early costs the remaining fees: it sets the cost of exit "
                        "(lock-in)"),
    "term": "a term, renewal or exit term",
    "remaining_fees": "leaving early costs all remaining fees (lock-in)",
    "auto_renewal": "the agreement renews automatically unless notice is given in time",
    "guarded_change": _change(" (with a guard: consent, cap or no-adverse-effect condition)"),
    "unilateral_change": _change(" without the customer's consent"),
    "non_obligation": _core("states what the vendor is not obliged to do",
                            " for a core deliverable"),
    "disclaimer": _core("disclaims a warranty", " about a core deliverable"),
    "vendor_at_will": "the vendor may terminate or cease the service at will: a supply risk",
    "either_at_will": "either party may terminate at will, so the vendor may leave too",
    "customer_exit": "a customer exit right or duty",
    "maintenance_carve_out": ("maintenance the vendor times is excluded from uptime, so the "
                              "uptime commitment is hollowed out"),
    "hardware_discontinuation": ("the vendor may discontinue the contracted hardware during the "
                                 "term"),
    "capacity_reallocation": ("the vendor may reallocate, move or reduce the capacity at its "
                              "discretion, so it is not reserved for the customer"),
    "termination_fee": "leaving early costs a termination fee: it sets the cost of exit",
    "no_convenience_exit": ("the customer may not terminate for convenience: the whole commitment "
                            "is owed whatever happens to the need for compute"),
}

# An essential term the contract does not state, by essential.
MISSING: dict[str, str] = {
    "delivery_date": "no committed delivery date: nothing says when the capacity must be ready",
    "uptime_figure": "no committed uptime percentage: availability is not a measurable promise",
    "remedy": ("no service credit, refund or delay credit: missed commitments cost the vendor "
               "nothing"),
    "chronic_failure_exit": "no right to terminate for repeated SLA failure or late delivery",
    "data_export": "nothing says how customer data is returned or exported at exit",
    "hw_replacement": "no hardware replacement time for failed nodes or GPUs",
    "support_response": "no committed support response time",
}
# An essential term the contract states only as an aim or estimate, by essential.
STATED_AS_AIM: dict[str, str] = {
    "delivery_date": "the delivery date",
    "uptime_figure": "the uptime",
    "hw_replacement": "the hardware replacement time",
    "support_response": "the support response time",
}


def finding_why(finding: Finding) -> str:
    """The finding's sentence from its code and figures; its own `why` when it has no reason
    this module knows (a finding built by hand, or by an older evaltool)."""
    figures = finding.figures
    reason = str(figures.get("reason") or "")
    essential = str(figures.get("essential") or "")
    if reason == "missing" and essential in MISSING:
        return MISSING[essential]
    if reason == "aim_only" and essential in STATED_AS_AIM:
        return (f"{STATED_AS_AIM[essential]} is stated only as an aim or estimate, not "
                "committed: missing it is not a breach")
    says = SAYS.get(reason)
    if says is None:
        return finding.why or finding.kind.replace("_", " ")
    return says if isinstance(says, str) else says(finding)


def with_words(finding: Finding) -> Finding:
    """The finding with its sentence written."""
    return finding.model_copy(update={"why": finding_why(finding)})


def analysis_with_words(analysis: ClauseAnalysis) -> ClauseAnalysis:
    """Every finding of an analysis with its sentence written."""
    return analysis.model_copy(update={"findings": [with_words(f) for f in analysis.findings]})


# What a finding is about in a few words, for a ranking cell: by essential for a missing
# term, by reason otherwise; a weak commitment names what is hedged.
SHORT_MISSING: dict[str, str] = {
    "uptime_figure": "no uptime figure",
    "remedy": "no credit or refund",
    "chronic_failure_exit": "no exit right for SLA failure",
    "data_export": "no data-return terms",
    "hw_replacement": "no replacement time",
    "support_response": "no support response time",
    "delivery_date": "no committed delivery date",
}
SHORT_SAYS: dict[str, str] = {
    "vendor_format": "exit data in vendor format",
    "egress": "egress fees",
    "minimum_commitment": "minimum spend commitment",
    "unilateral_change": "vendor may change prices alone",
    "guarded_change": "vendor may change prices alone",
}


def finding_short(kind: str, figures: Mapping[str, Any]) -> str | None:
    """A few words on what a finding (or the flag it became) is about, or None."""
    reason = str(figures.get("reason") or "")
    if reason == "missing":
        return SHORT_MISSING.get(str(figures.get("essential") or ""))
    if reason == "hedged" or kind == "weak_commitment":
        topic = figures.get("topic")
        return f"weak {topic} commitment" if topic else "weak commitment"
    return SHORT_SAYS.get(reason)
