"""Structured contract terms (``ContractTerms``) read from contract text.

Public entry point, a stable signature the money model (minimum cash to sign, cost of
exit) relies on::

    extract_terms(source, vendor_names=(), *, name="contract") -> ContractTerms

``source`` is either the contract text (a ``str``; ``name`` then names it in every
location) or the ``TextSegment`` blocks an offer's readers produce (``read_segments``).
Every field is None when the contract is silent; each stated field has an ``evidence``
entry: the sentence as written, its location and the vendor's own clause number
("7.2", "§ 12(b)") when the document gives one. Durations, money, percentages and dates
go through ``evaltool.normalize.values`` (the one value parser), so "5 business days" is
the same number of hours here as in an offer sheet.

Two sources feed it: the figures clause analysis already reads (uptime, credit cap,
replacement and response times, delivery date, egress, export window, term, renewal and
notice), and a pass over the sentences for the commercial facts that are not figures
(non-cancellable, who may terminate for convenience, termination fee, auto-renewal,
prepayment and refundability, minimum commitment, sole remedy, price escalation).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

from evaltool.clauses.analyse import analyse_segments
from evaltool.clauses.figures import durations, percentages
from evaltool.clauses.findings import where_of
from evaltool.clauses.leaving import notice_days
from evaltool.clauses.lexicon import fast_compile
from evaltool.clauses.models import ClauseAnalysis, ContractTerms, TermEvidence, TextSegment
from evaltool.clauses.schedules import amounts, is_refund_share, periodic_floor, words
from evaltool.clauses.segment import split_sentences
from evaltool.errors import Location
from evaltool.grammar.textcache import by_text
from evaltool.normalize.values import ValueParseError, parse_date

# Figures of clause analysis -> ContractTerms fields (same names unless mapped here).
_FIGURE_FIELDS: dict[str, str] = {
    "sla_uptime_pct": "sla_uptime_pct",
    "sla_max_credit_pct": "sla_max_credit_pct",
    "hw_replacement_hours": "hw_replacement_hours",
    "support_response_hours": "support_response_hours",
    "egress_usd_per_gb": "egress_usd_per_gb",
    "data_export_days": "data_export_days",
    "term_months": "term_months",
    "renewal_term_months": "renewal_term_months",
    "non_renewal_notice_days": "renewal_notice_days",
    "termination_notice_days": "termination_notice_days",
}

_CLAUSE_REF_RE = re.compile(
    r"^\s*(?P<ref>(?:§+\s*|(?:section|clause|article)\s+)?\d{1,3}(?:\.\d{1,3})*"
    r"(?:\s*\([a-z0-9]{1,4}\))*)(?=[.)]?\s)",
    re.IGNORECASE,
)
_NON_CANCELLABLE = fast_compile(
    r"\bnon-?cancell?able\b|\b(?:cannot|can.t|may\s+not)\s+(?:be\s+)?(?:cancell?ed|terminated|"
    r"decreased)\b|\bno\s+right\s+to\s+terminate\b"
)
_CONVENIENCE = fast_compile(
    r"\bterminat\w*\b[^.;]{0,80}?\b(?:for\s+convenience|without\s+cause|for\s+any\s+reason|"
    r"at\s+any\s+time)\b|\bcancel\b[^.;]{0,40}?\bat\s+any\s+time\b"
)
# After an amount: a unit price ("per GPU-hour", "/node-hour") is a rate, never a sum; a
# periodic amount ("per month", "a year") is a sum only when the sentence states no total.
_RATE_AFTER = re.compile(
    r"\s*(?:per\s+(?:gpu|node|instance|server|hour|h\b|tb|gb|kwh)|/\s*(?:gpu|node|h\b|hr|hour)|"
    r"an?\s+hour\b|each\s)", re.I)
_PERIODIC_AFTER = re.compile(
    r"\s*(?:per|a|an|each|/)\s*(?:calendar\s+)?(?:month|year|quarter|annum)\b", re.I)
_CUSTOMER = re.compile(r"\b(?:customer|you|client|licensee|buyer)\b", re.IGNORECASE)
_VENDOR = re.compile(r"\b(?:provider|we|vendor|supplier|us)\b", re.IGNORECASE)
_EITHER = re.compile(r"\b(?:either|each|both)\s+part(?:y|ies)\b", re.IGNORECASE)
_NEGATED_RIGHT = re.compile(r"\b(?:may|shall|will)\s+not\b|\bno\s+right\b|\bcannot\b", re.I)
_TERMINATION_FEE = fast_compile(
    r"\b(?:early\s+)?termination\s+(?:fee|charge|payment)s?\b|\bterminat\w*\b[^.;]{0,120}?"
    r"\b(?:pay|payable|(?:become|becomes|fall)\s+(?:immediately\s+)?due|owe|liable\s+for|"
    r"liquidated\s+damages)\b|\bremaining\s+(?:committed\s+)?fees\b"
)
_REMAINING = re.compile(
    r"\bremaining|\bremainder\s+of\s+the\s+term|\bbalance\s+of\s+the\s+(?:term|period)|\bunpaid\b",
    re.I,
)
_AUTO_RENEW = fast_compile(r"\b(?:automatically|auto-?)\s*renew\w*|\brenew\w*\s+automatically\b")
_NO_AUTO_RENEW = re.compile(r"\b(?:not|never)\s+(?:be\s+)?(?:automatically\s+)?renew", re.I)
@lru_cache(maxsize=1)
def _ahead_res() -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    """Money paid ahead, billing merely in advance of each month, and money that does not
    come back (evaltool/data/contract_money_words.yaml)."""
    w = words()
    return (re.compile(rf"\b(?:{w['paid_ahead']})", re.I),
            re.compile(rf"\b(?:{w['billed_ahead']})", re.I),
            re.compile(rf"\b(?:{w['kept']})", re.I))


_PAID_AHEAD = re.compile(r"\bfees?\b|\bcredits?\b|\bplans?\b|\bguthaben\b|\bcrédits?\b",
                         re.IGNORECASE)
_REFUNDABLE = re.compile(r"\brefund\w*\b", re.I)
_PARTLY_REFUNDED = re.compile(r"\b(?:following|this|a|the)\s+(?:share|portion|part|percentage)\b"
                              r"|\bschedule\b|\bpro[- ]?rat", re.I)
_MIN_COMMIT = fast_compile(
    r"\bminimum\s+(?:annual\s+|monthly\s+)?(?:commitment|spend|purchase|fee|payment)s?\b|"
    r"\bcommits?\s+to\s+(?:a\s+)?(?:spend|purchase|pay)\w*\b|\bcommitted\s+spend\b|"
    r"\btake[- ]or[- ]pay\b"
)
_SOLE_REMEDY = fast_compile(r"\b(?:sole|exclusive)\s+(?:and\s+exclusive\s+)?remed(?:y|ies)\b")
_ESCALATION = fast_compile(
    r"\b(?:increase|escalat)\w*\b[^.;]{0,80}?(?:\b(?:per\s+(?:year|annum)|annually|each\s+year|"
    r"anniversary|yearly)\b)|\b(?:per\s+(?:year|annum)|annually|each\s+year|anniversary)\b"
    r"[^.;]{0,80}?\b(?:increase|escalat)\w*"
)
_DELIVERY = re.compile(
    r"\bdeliver\w*|\bhand-?over\b|\bready\s+for\s+use\b|\bavailable\s+by\b", re.IGNORECASE
)
_HEDGED_DELIVERY = re.compile(
    r"\btarget\w*|\bestimat\w*|\bexpect\w*|\bsubject\s+to\s+(?:allocation|availability|supply)"
    r"|\bindicative\b|\bplanned\b|\banticipat\w*|\befforts?\b|\bendeavou?r",
    re.IGNORECASE,
)


_NUMBERED_RE = re.compile(r"\d")


def _clause_ref(text: str, where: dict[str, Any]) -> str | None:
    """The vendor's clause number: given beside the text (a workbook's clause reference
    column), at the head of the sentence ("7.2 ...", "§ 12(b) ..."), or the numbered
    section it stands in; a section that is a topic ("Delivery") is not a number."""
    if where.get("clause_ref"):
        return str(where["clause_ref"])
    m = _CLAUSE_REF_RE.match(text)
    if m:
        return m.group("ref").strip()
    section = where.get("section")
    return str(section) if section and _NUMBERED_RE.search(str(section)) else None


class _Builder:
    """Collects fields with their evidence; the first stated value of a field wins."""

    def __init__(self) -> None:
        self.values: dict[str, Any] = {}
        self.evidence: dict[str, TermEvidence] = {}

    def set(self, field: str, value: Any, quote: str, where: dict[str, Any]) -> None:
        if field in self.values or value is None:
            return
        self.values[field] = value
        self.evidence[field] = TermEvidence(
            quote=quote, where=where, clause_ref=_clause_ref(quote, where)
        )

    def set_amount(
        self, name: str, amount: tuple[float, str] | None, quote: str, where: dict[str, Any]
    ) -> None:
        """``<name>_amount`` and ``<name>_currency`` as stated; ``<name>_usd`` too when the
        contract states it in US dollars."""
        if amount is None or f"{name}_amount" in self.values:
            return
        value, currency = amount
        self.set(f"{name}_amount", value, quote, where)
        self.set(f"{name}_currency", currency, quote, where)
        if currency == "USD":
            self.set(f"{name}_usd", value, quote, where)

    def build(self) -> ContractTerms:
        return ContractTerms(**self.values, evidence=self.evidence)


def _amount(text: str, *, totals_only: bool = False) -> tuple[float, str] | None:
    """The first amount of money in the text with its ISO 4217 currency, as stated (the
    money model converts it at the run's exchange rates; `clauses.schedules.amounts`
    reads the figures, "600.000 USD" and "USD 600k" alike).

    With ``totals_only`` a rate ("USD 1.95 per GPU-hour", "USD 728,832 per month") is
    skipped: a commitment or a prepayment is a sum, not a price.
    """
    periodic: tuple[float, str] | None = None
    for found in amounts(text):
        if totals_only and _RATE_AFTER.match(text, found.end):
            continue
        if totals_only and _PERIODIC_AFTER.match(text, found.end):
            periodic = periodic or (found.value, found.currency)
            continue
        return found.value, found.currency
    return periodic


def _notice_days(text: str) -> float | None:
    """The notice stated: the length nearest a notice word (`clauses.schedules`), else a
    length followed by "prior", "advance" or "before"."""
    found = notice_days(text)
    if found is not None:
        return found
    for d in durations(text):
        if re.search(r"prior|advance|before", text[d.end : d.end + 40], re.I):
            return round(d.days, 1)
    return None


def _from_figures(analysis: ClauseAnalysis, out: _Builder) -> None:
    for fig in analysis.figures:  # committed first (analysis order)
        field = _FIGURE_FIELDS.get(fig.field)
        if field is not None and isinstance(fig.value, (int, float)):
            out.set(field, float(fig.value), fig.quote, fig.where)
    firm = analysis.figure("delivery_date")
    target = analysis.figure("delivery_target_date")
    for candidate, hedged in ((firm, False), (target, True)):
        if candidate is None:
            continue
        fig = candidate
        try:
            day = parse_date(str(fig.value)).value
        except ValueParseError:
            continue
        if day is None:
            continue
        out.set("delivery_date", day.isoformat(), fig.quote, fig.where)
        # A date is hedged by its own words ("target", "estimated") or a weak commitment;
        # a date merely stated ("'Commencement Date' means 14 December") is not a hedge:
        # whether delivery is hedged is then left to the sentences that promise it.
        if bool(_HEDGED_DELIVERY.search(fig.quote)) or fig.committed is False:
            out.set("delivery_date_hedged", True, fig.quote, fig.where)
        elif not hedged or fig.committed is True:
            out.set("delivery_date_hedged", False, fig.quote, fig.where)
        break


def _sentence_facts(text: str, where: dict[str, Any], out: _Builder) -> None:
    """The commercial facts of one sentence that are not plain figures."""
    for method, args in _sentence_calls(text):
        getattr(out, method)(*args, where)


class _Calls:
    """Stands in for a _Builder: records what the readers set, to be replayed on one."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, tuple[Any, ...]]] = []

    def set(self, field: str, value: Any, quote: str, where: object) -> None:
        self.calls.append(("set", (field, value, quote)))

    def set_amount(self, name: str, amount: tuple[float, str] | None, quote: str,
                   where: object) -> None:
        self.calls.append(("set_amount", (name, amount, quote)))


@by_text(4096)  # by the sentence alone: the readers only pass its place on to the builder
def _sentence_calls(text: str) -> tuple[tuple[str, tuple[Any, ...]], ...]:
    calls = _Calls()
    for reader in _FACT_READERS:
        reader(text, {}, calls)  # type: ignore[arg-type]
    return tuple(calls.calls)


def _non_cancellable(text: str, where: dict[str, Any], out: _Builder) -> None:
    if _NON_CANCELLABLE.search(text):
        out.set("non_cancellable", True, text, where)


def _holder(head: str) -> str | None:
    """Who holds a right, from the words before it: both parties, the customer, the vendor."""
    if _EITHER.search(head):
        return "both"
    if _CUSTOMER.search(head):
        return "customer"
    if _VENDOR.search(head):
        return "vendor"
    return None


def _convenience(text: str, where: dict[str, Any], out: _Builder) -> None:
    """Who may terminate for convenience, on what notice; a denied right is non-cancellable."""
    conv = _CONVENIENCE.search(text)
    if not conv:
        return
    negated = bool(_NEGATED_RIGHT.search(text[max(0, conv.start() - 60) : conv.end()]))
    who = _holder(text[: conv.start() + 1])
    if who in ("customer", "both"):
        out.set("customer_may_terminate_for_convenience", not negated, text, where)
        if negated:
            out.set("non_cancellable", True, text, where)
    if negated:
        return
    if who is not None:
        out.set("termination_for_convenience_by", who, text, where)
    notice = _notice_days(text)
    if notice is not None:
        out.set("termination_notice_days", notice, text, where)


def _termination_fee(text: str, where: dict[str, Any], out: _Builder) -> None:
    """A fee for leaving: a share of the remaining fees, or a stated amount."""
    if not _TERMINATION_FEE.search(text):
        return
    # "refund ninety percent (90%) of the prepaid Fees for the remainder": a share given
    # back, not a fee for leaving.
    pct = [v for v, s, e in percentages(text) if 0 < v <= 100 and not is_refund_share(text, s, e)]
    if not pct and any(is_refund_share(text, s, e) for _v, s, e in percentages(text)):
        return
    if _REMAINING.search(text):
        out.set("termination_fee_pct_of_remaining", pct[0] if pct else 100.0, text, where)
    if not pct:
        out.set_amount("termination_fee", _amount(text), text, where)


def _renewal(text: str, where: dict[str, Any], out: _Builder) -> None:
    if not _AUTO_RENEW.search(text):
        return
    out.set("auto_renewal", not _NO_AUTO_RENEW.search(text), text, where)
    notice = _notice_days(text)
    if notice is not None:
        out.set("renewal_notice_days", notice, text, where)


def _prepayment(text: str, where: dict[str, Any], out: _Builder) -> None:
    """Money paid ahead and whether it comes back."""
    paid_ahead, billed_ahead, kept = _ahead_res()
    if paid_ahead.search(text) and not billed_ahead.search(text):
        # "USD 2.10 per GPU-hour ... invoiced in full on signature": a rate is not the sum.
        out.set_amount("prepayment", _amount(text, totals_only=True), text, where)
        if kept.search(text):
            out.set("prepayment_refundable", False, text, where)
        elif _REFUNDABLE.search(text) and not _PARTLY_REFUNDED.search(text) and not any(
                v < 100 and is_refund_share(text, s, e) for v, s, e in percentages(text)):
            # refunded whole; a share or a schedule ("the following share") is read by
            # clauses.schedules.refund_schedule
            out.set("prepayment_refundable", True, text, where)
    elif kept.search(text) and _PAID_AHEAD.search(text):
        out.set("prepayment_refundable", False, text, where)


def _minimum_commitment(text: str, where: dict[str, Any], out: _Builder) -> None:
    if _MIN_COMMIT.search(text):
        out.set_amount("min_commit", _amount(text, totals_only=True), text, where)
    # A floor owed period by period (`clauses.schedules.periodic_floor`: "USD 25,000
    # per calendar-month period", "Minimum Monthly Spend of USD 120,000 in each month"):
    # the period's floor, whatever a total over the term beside it says.
    floor = periodic_floor(text)
    if floor is not None:
        amount, currency, months = floor
        out.set_amount("min_commit_per_period", (amount, currency), text, where)
        out.set("min_commit_period_months", months, text, where)


_CREDIT_CONTEXT_RE = re.compile(r"credit|sla|service\s+level", re.IGNORECASE)


def _sole_remedy(text: str, where: dict[str, Any], out: _Builder) -> None:
    if _SOLE_REMEDY.search(text) and _CREDIT_CONTEXT_RE.search(text):
        out.set("credits_sole_remedy", True, text, where)


def _escalation(text: str, where: dict[str, Any], out: _Builder) -> None:
    if not _ESCALATION.search(text):
        return
    pct = [v for v, _s, _e in percentages(text) if 0 < v < 100]
    if pct:
        out.set("price_escalation_pct_per_year", pct[0], text, where)


def _hedged_delivery(text: str, where: dict[str, Any], out: _Builder) -> None:
    if _DELIVERY.search(text) and _HEDGED_DELIVERY.search(text):
        out.set("delivery_date_hedged", True, text, where)


_FACT_READERS: tuple[Callable[[str, dict[str, Any], _Builder], None], ...] = (
    _non_cancellable,
    _convenience,
    _termination_fee,
    _renewal,
    _prepayment,
    _minimum_commitment,
    _sole_remedy,
    _escalation,
    _hedged_delivery,
)


def extract_terms(
    source: str | Sequence[TextSegment],
    vendor_names: Sequence[str] = (),
    *,
    name: str = "contract",
) -> ContractTerms:
    """The contract's commercial terms as facts (see the module docstring)."""
    segments = (
        [TextSegment(text=source, where=Location(file=name))] if isinstance(source, str)
        else list(source)
    )
    analysis = analyse_segments(segments, vendor_names, check_missing=False)
    return terms_from(segments, analysis)


def terms_from(segments: Sequence[TextSegment], analysis: ClauseAnalysis) -> ContractTerms:
    """ContractTerms from segments already analysed (``analysis`` of the same segments)."""
    out = _Builder()
    _from_figures(analysis, out)
    for seg in segments:
        for sent in split_sentences(seg.text):
            _sentence_facts(sent.text, where_of(seg, sent), out)
    return out.build()
