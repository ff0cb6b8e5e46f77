"""What the memo and the full report show, computed once from a ScoreReport.

Templates only lay out what this module decides: every figure here is already formatted
for humans (see fmt.py) and every vendor string already cleaned of control characters.
Escaping is jinja2's job (autoescape on), not this module's: strings stay raw text here.
Absent keys never crash: an estimate that is None prints "—", a missing sensitivity block
simply leaves its section out.
"""

from __future__ import annotations

import datetime as dt
import math
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from evaltool.models import Flag, OfferResult, ScoreReport
from evaltool.report import (
    charts,  # only the full report draws charts
    fmt,
)
from evaltool.report.picks import _by_id, _get, _ranked, runner_up_of, winner_of
from evaltool.report.recommendation import buy_vs_rent_sentence, exit_short
from evaltool.report.rubric_table import criterion_rows

Kind = Literal["memo", "full"]

# Flags that belong in "contract and lock-in red flags": the clause-analysis kinds that
# weaken a commitment or make leaving expensive (PRODUCT.md, seed 001 "say no to
# reasonable effort"). Firm commitments and plain remedies are good news, not red flags.
RED_FLAG_EXCLUDED_KINDS = frozenset(
    {"firm_commitment", "remedy", "assumption", "assumed_value", "note"}
)
SEVERITY_ORDER = {"high": 0, "medium": 1, "low": 2, "info": 3}


@dataclass(frozen=True)
class Limits:
    """How much the memo shows; tightened step by step until the PDF fits two pages."""

    quote_chars: int
    flags_per_offer: int
    flags_total: int
    changes: int
    ranking_rows: int
    exclusions: int
    font_pt: float
    name_chars: int


MEMO_LEVELS: tuple[Limits, ...] = (
    Limits(280, 3, 12, 5, 15, 8, 9.5, 70),
    Limits(200, 2, 9, 4, 15, 6, 9.0, 56),
    Limits(140, 1, 7, 3, 15, 5, 8.5, 48),
    Limits(100, 1, 5, 3, 15, 4, 8.0, 40),
)
FULL_LIMITS = Limits(2000, 1000, 100_000, 8, 100_000, 100_000, 9.0, 200)


@dataclass(frozen=True)
class RankRow:
    rank: int
    offer_id: str
    vendor: str
    offer_name: str
    accelerator: str
    score: str
    eligible: bool
    total_cost: str
    days: str
    model_ready: str
    usd_per_gpu_hour: str
    mfu: str
    gpus: str
    win_probability: str
    top_flag: str
    is_winner: bool
    offer_line: str = ""  # the offer's name, with the accelerator when the name lacks it
    commitment: str = ""  # "commits $21.1M" when signing commits far more than the run
    quoted_price: str = ""  # "quoted $2.35" when the effective price differs by > 5%


@dataclass(frozen=True)
class MoneyRow:
    """The money of one offer, side by side with the others (memo and full report)."""

    offer_id: str
    name: str
    eligible: bool
    is_winner: bool
    run_cost: str
    minimum_cash: str
    how: str  # how the cheapest way out is reached, with the clause
    full_commitment: str
    cost_of_delay: str
    economic_cost: str


@dataclass(frozen=True)
class Exclusion:
    name: str
    reasons: list[str]
    kind: Literal["gate", "not_evaluated"]


@dataclass(frozen=True)
class FlagView:
    offer_id: str
    vendor: str
    kind: str
    severity: str
    quote: str
    where: str
    why: str
    ask_for: str


@dataclass(frozen=True)
class KeyFigure:
    label: str
    value: str
    runner_up: str = ""  # the runner-up's figure, bare ("$1.65M"); "" when there is none
    note: str = ""  # a short line under the figure ("12-month term; the run uses 7%")


@dataclass(frozen=True)
class CategoryTable:
    name: str
    title: str
    weight: str
    criteria: list[tuple[str, str]]  # (label, "unit · weight 8%")
    rows: list[tuple[str, str, list[tuple[str, bool]]]]  # label, score, ("value · score", missing)


@dataclass(frozen=True)
class OfferDetail:
    """Per-offer detail for the full report: estimates, gates, findings, provenance."""

    offer_id: str
    title: str
    short_title: str  # cut to fit one line of a wide table
    rank: int
    eligible: bool
    source: str
    estimates: list[str]  # one cell per ESTIMATE_COLUMNS
    mfu_losses: str
    gates: list[tuple[str, str, str]]  # gate, status, why
    flags: list[FlagView]
    missing: list[str]
    trace: list[tuple[str, str, str, str]]  # criterion, value, where/note, score


@dataclass
class ReportView:
    kind: Kind
    page_size: str
    limits: Limits
    title: str
    subtitle: str
    as_of: str
    headline: str
    facts: str
    confidence: str
    confidence_line: str
    key_figures: list[KeyFigure]
    price_note: str
    ranking: list[RankRow]
    ranking_more: int
    money: list[MoneyRow]
    buy_vs_rent: list[str]
    cost_basis_note: str

    @property
    def money_by_id(self) -> dict[str, MoneyRow]:
        return {row.offer_id: row for row in self.money}
    exclusions: list[Exclusion]
    exclusions_more: int
    unverified: list[str]
    red_flags: list[FlagView]
    red_flags_more: int
    changes: list[str]
    basis: list[tuple[str, str]]
    inputs: list[str]
    # full report only
    category_scores: list[tuple[str, list[str]]] = field(default_factory=list)
    category_names: list[str] = field(default_factory=list)
    category_tables: list[CategoryTable] = field(default_factory=list)
    details: list[OfferDetail] = field(default_factory=list)
    break_evens: list[tuple[str, str, str, str]] = field(default_factory=list)
    price_cuts: list[tuple[str, str, str]] = field(default_factory=list)
    rank_intervals: list[tuple[str, str]] = field(default_factory=list)
    dominance: list[str] = field(default_factory=list)
    questions: list[tuple[str, str, str, str]] = field(default_factory=list)
    missing: list[tuple[str, str]] = field(default_factory=list)
    assumptions: list[tuple[str, str]] = field(default_factory=list)
    workload: list[tuple[str, str]] = field(default_factory=list)
    rubric_head: list[tuple[str, str]] = field(default_factory=list)
    rubric_categories: list[tuple[str, str]] = field(default_factory=list)
    rubric_criteria: list[list[str]] = field(default_factory=list)
    not_evaluated: list[Exclusion] = field(default_factory=list)
    charts: dict[str, Any] = field(default_factory=dict)
    estimate_headers: list[str] = field(default_factory=list)
    gate_names: list[str] = field(default_factory=list)


def offer_title(offer: OfferResult, limit: int | None = None) -> str:
    """"Vendor — offer", the offer's name without a repeat of the vendor's."""
    vendor = fmt.clean_text(offer.vendor) or offer.id
    name = fmt.offer_name(vendor, offer.offer_name)
    text = f"{vendor} — {name}" if name else vendor
    return fmt.clean_text(text, limit)


# Parts of the bill beside GPU-hours (estimates.cost_breakdown_usd), named for a CFO.
COST_PART_NAMES: dict[str, str] = {
    "storage": "storage",
    "support": "support",
    "egress": "egress",
    "network": "network",
    "upfront": "the upfront payment",
    "commitment_shortfall": "the unused part of the minimum commitment",
    "power": "power",
    "colocation": "colocation",
    "opex": "operations",
}
# An effective price this far from the quoted one needs a word of explanation.
PRICE_GAP_TO_EXPLAIN = 0.05
# A commitment this far above the run's cost gets its own line in the ranking.
COMMITMENT_GAP_TO_SHOW = 0.20


def committed_spend(offer: OfferResult) -> tuple[float | None, str]:
    """What signing commits the buyer to, and its word: a purchase's capex ("capex") or a
    rental's full commitment over the term ("commits"); (None, "") when unknown or zero."""
    if offer.fields.get("offer_kind") == "purchase":
        capex = fmt.as_number(offer.fields.get("capex_usd"))
        if capex:
            return capex, "capex"
    commit = fmt.as_number(offer.estimates.get("full_commitment_usd",  # the money table's
                                               offer.estimates.get("minimum_commitment_usd")))
    return (commit, "commits") if commit else (None, "")


def _commitment_line(offer: OfferResult) -> str:
    amount, word = committed_spend(offer)
    run = fmt.as_number(offer.estimates.get("total_cost_usd"))
    if amount is None or run is None or amount <= run * (1 + COMMITMENT_GAP_TO_SHOW):
        return ""
    return f"{word} {fmt.usd(amount)}"


def _price_gap(offer: OfferResult) -> tuple[float, float] | None:
    """(effective, quoted) $/GPU-h when they differ by more than PRICE_GAP_TO_EXPLAIN."""
    effective = fmt.as_number(offer.estimates.get("effective_usd_per_gpu_hour"))
    quoted = fmt.as_number(offer.fields.get("price_usd_per_gpu_hour"))
    if effective is None or quoted is None or quoted <= 0:
        return None
    if abs(effective - quoted) / quoted <= PRICE_GAP_TO_EXPLAIN:
        return None
    return effective, quoted


def price_explanation(offer: OfferResult) -> str:
    """"$2.57/GPU-h effective vs $2.35 quoted: includes storage ($61.4k), support ($28.0k)
    and the upfront payment ($23.6k)", from estimates.cost_breakdown_usd; "" within 5%."""
    gap = _price_gap(offer)
    if gap is None:
        return ""
    effective, quoted = gap
    text = f"{fmt.price(effective)}/GPU-h effective vs {fmt.price(quoted)} quoted"
    parts = offer.estimates.get("cost_breakdown_usd")
    total = fmt.as_number(offer.estimates.get("total_cost_usd")) or 0.0
    if effective > quoted and isinstance(parts, Mapping):
        amounts = {str(k): fmt.as_number(v) for k, v in parts.items() if k != "compute"}
        extras = sorted(
            ((k, v) for k, v in amounts.items() if v is not None and v > total * 0.001),
            key=lambda kv: -kv[1],
        )
        if extras:
            named = [f"{COST_PART_NAMES.get(k, fmt.label(k))} ({fmt.usd(v)})" for k, v in extras]
            text += ": includes " + _join_words(named)
    return text


def _join_words(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


# The short reason a flag shows in a ranking cell, for wording the clause analysis uses
# (evaltool/clauses): a kind alone ("missing") says nothing about what is missing.
# Matched by key words, not whole sentences, so rewording a finding keeps its short form.
SHORT_REASONS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern, re.IGNORECASE), short) for pattern, short in (
        (r"^no\b.*\buptime", "no uptime figure"),
        (r"^no\b.*\bservice credit", "no credit or refund"),
        (r"^no\b.*\bright to terminate", "no exit right for SLA failure"),
        (r"^nothing says\b.*\bdata\b.*\b(?:returned|exported)", "no data-return terms"),
        (r"^no\b.*\breplacement time", "no replacement time"),
        (r"^no\b.*\bsupport response", "no support response time"),
        (r"\b(?:vendor's own|proprietary)\b.*\bformat", "exit data in vendor format"),
        (r"^egress\b|\begress\b.*\bfees?\b", "egress fees"),
        (r"\bminimum commitment binds", "minimum spend commitment"),
        (r"\bmay change prices", "vendor may change prices alone"),
    )
)
# "sla uptime only in the quote": the label evaltool.pipeline builds from a field name.
_QUOTE_ONLY_RE = re.compile(
    r"^(?P<label>[\w ]+?) only in the quote, not in the contract: the quote states "
    r"(?P<value>\S+?)(?P<rest> \(|;|$)"
)
_HEDGED_RE = re.compile(r"hedges an? (?:(?P<subject>[\w-]+) )?commitment")
_COMMITS_RE = re.compile(
    r"^signing commits \S+(?P<term> over an? [^;]+)?; this run uses \S+ of it(?: \(\d+%\))?"
)
_LABEL_WORDS = {"sla uptime": "SLA uptime", "hw replacement time": "hardware replacement time"}


def _quoted_field(offer: OfferResult, label: str) -> str | None:
    """The canonical field a "<label> only in the quote" finding is about."""
    for name in offer.fields:
        if name.replace("_pct", "").replace("_hours", " time").replace("_", " ") == label:
            return name
    return None


def _flagged_commitment(offer: OfferResult) -> float | None:
    """The commitment a commitment flag states: the full commitment (a purchase's capex and
    running costs over its life, not its capex alone), as the money table prints it."""
    full = fmt.as_number(offer.estimates.get("full_commitment_usd"))
    return full if full else committed_spend(offer)[0]


def flag_why(offer: OfferResult, flag: Flag, limit: int | None = None) -> str:
    """A flag's explanation as the memo prints it: figures with their units and rounded
    like the rest of the memo, the commitment restated from the offer's own estimates."""
    why = fmt.clean_text(flag.why)
    found = _QUOTE_ONLY_RE.match(why)
    if found:
        label = found["label"]
        name = _quoted_field(offer, label)
        value = (fmt.field_value(name, offer.fields.get(name)) if name is not None
                 else found["value"])
        shown = _LABEL_WORDS.get(label, label)
        why = (f"{shown} only in the quote, not in the contract: the quote states {value}"
               f"{found['rest']}" + why[found.end():])
    commits = _COMMITS_RE.match(why) if flag.kind == "commitment_exceeds_run" else None
    amount = _flagged_commitment(offer)
    run = fmt.as_number(offer.estimates.get("total_cost_usd"))
    if commits and amount and run is not None:
        why = (f"signing commits {fmt.usd(amount)}{commits['term'] or ''}; this run uses "
               f"{fmt.usd(run)} of it ({fmt.pct(run / amount)})" + why[commits.end():])
    return fmt.clean_text(fmt.tidy_money(why), limit)


def short_reason(offer: OfferResult, flag: Flag) -> str:
    """What a flag is about in a few words: "no uptime figure", "weak delivery commitment"."""
    why = fmt.clean_text(flag.why)
    for pattern, short in SHORT_REASONS:
        if pattern.search(why):
            return short
    if flag.kind == "commitment_exceeds_run":
        amount = _flagged_commitment(offer)
        run = fmt.as_number(offer.estimates.get("total_cost_usd"))
        if amount and run is not None:
            return f"{fmt.pct(run / amount)} of commitment used"
    if flag.kind == "weak_commitment":
        hedged = _HEDGED_RE.search(why)
        subject = hedged["subject"] if hedged and hedged["subject"] else ""
        return f"weak {subject} commitment" if subject else "weak commitment"
    found = _QUOTE_ONLY_RE.match(why)
    if found:
        return f"{_LABEL_WORDS.get(found['label'], found['label'])} only in the quote"
    head = why.split(":", 1)[0].replace("(lock-in)", "").strip()
    return fmt.clean_text(head, 40) or fmt.label(flag.kind)




def as_of_date(report: ScoreReport) -> str:
    """The date the report rests on: the scorer's `as_of`, else SOURCE_DATE_EPOCH, else today.

    A date taken from the inputs keeps the output byte-stable; today's date is the last resort.
    """
    for key in ("as_of", "date", "generated_on", "price_date"):
        found = report.assumptions.get(key)
        if found:
            return fmt.clean_text(found, 40)
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "")
    if epoch.isdigit():
        return dt.datetime.fromtimestamp(int(epoch), tz=dt.UTC).date().isoformat()
    return dt.date.today().isoformat()




def _vendor_of(report: ScoreReport, offer_id: Any, limit: int | None = None) -> str:
    offer = _by_id(report).get(str(offer_id)) if offer_id is not None else None
    if offer is None:
        return fmt.clean_text(offer_id, limit) if offer_id else "another offer"
    return fmt.clean_text(offer.vendor, limit) or offer.id








def is_red_flag(kind: str, severity: str) -> bool:
    return kind not in RED_FLAG_EXCLUDED_KINDS and severity in ("high", "medium")


def flag_order(flag: Flag) -> tuple[int, int]:
    """Worst first; within a severity, findings that quote the contract first."""
    return SEVERITY_ORDER.get(flag.severity, 9), 0 if flag.quote else 1


def flag_views(report: ScoreReport, offer: OfferResult, limits: Limits) -> list[FlagView]:
    vendor = fmt.clean_text(offer.vendor, limits.name_chars) or offer.id
    flags = sorted(offer.flags, key=flag_order)
    return [
        FlagView(
            offer_id=offer.id,
            vendor=vendor,
            kind=fmt.label(f.kind),
            severity=f.severity,
            quote=fmt.clean_text(f.quote, limits.quote_chars),
            where=fmt.where(f.where),
            why=flag_why(offer, f, limits.quote_chars),
            ask_for=fmt.clean_text(f.ask_for, limits.quote_chars),
        )
        for f in flags
    ]


def top_red_flag(offer: OfferResult) -> Flag | None:
    """The worst red flag of an offer (a quoted clause first within a severity), or None."""
    red = sorted((f for f in offer.flags if is_red_flag(f.kind, f.severity)), key=flag_order)
    return red[0] if red else None


def _top_flag(offer: OfferResult) -> str:
    flag = top_red_flag(offer)
    return short_reason(offer, flag) if flag is not None else ""


def _offer_line(name: str, accelerator: str | None) -> str:
    """"Quotation Q-77812 · H100-SXM": the accelerator joins the name unless it is in it."""
    if not accelerator:
        return name
    squash = re.sub(r"[^0-9a-z]", "", name.lower())
    accel = fmt.clean_text(accelerator, 24)
    cores = {re.sub(r"[^0-9a-z]", "", part.lower()) for part in (accel, accel.split("-")[0])}
    if any(core and core in squash for core in cores):
        return name
    return f"{name} · {accel}" if name else accel


def _ranking(report: ScoreReport, winner: OfferResult | None, limits: Limits) -> list[RankRow]:
    win_p = report.sensitivity.get("win_probability")
    rows = []
    for offer in _ranked(report):
        est = offer.estimates
        p = win_p.get(offer.id) if isinstance(win_p, Mapping) else None
        rows.append(
            RankRow(
                rank=offer.rank,
                offer_id=offer.id,
                vendor=fmt.clean_text(offer.vendor, limits.name_chars) or offer.id,
                offer_name=fmt.clean_text(fmt.offer_name(offer.vendor, offer.offer_name),
                                          limits.name_chars),
                accelerator=fmt.clean_text(offer.accelerator, 24) or fmt.DASH,
                score=fmt.score(offer.score),
                eligible=offer.eligible,
                total_cost=fmt.usd(est.get("total_cost_usd")),
                days=fmt.days(est.get("time_to_train_days")),
                model_ready=model_ready_date(report, est),
                usd_per_gpu_hour=fmt.usd_per_gpu_hour(est.get("effective_usd_per_gpu_hour")),
                mfu=fmt.pct(est.get("mfu")),
                gpus=fmt.count(est.get("gpus_used")),
                win_probability=fmt.pct(p),
                top_flag=_top_flag(offer),
                is_winner=winner is not None and offer.id == winner.id,
                offer_line=_offer_line(
                    fmt.clean_text(fmt.offer_name(offer.vendor, offer.offer_name),
                                   limits.name_chars),
                    offer.accelerator),
                commitment=_commitment_line(offer),
                quoted_price=(f"quoted {fmt.price(gap[1])}" if (gap := _price_gap(offer))
                              else ""),
            )
        )
    return rows


def model_ready_date(report: ScoreReport, est: Mapping[str, Any]) -> str:
    """The day a trained model exists: start date + delivery wait + training time."""
    start = report.workload.get("start_date")
    days = est.get("days_to_trained_model")
    if not start or days is None:
        return fmt.DASH
    try:
        day = dt.date.fromisoformat(str(start)) + dt.timedelta(days=math.ceil(float(days)))
    except ValueError:
        return fmt.DASH
    return day.isoformat()


def _error_text(error: Any) -> str:
    if isinstance(error, Mapping):
        for key in ("text", "message"):
            if error.get(key):
                return fmt.clean_text(error[key])
        return fmt.any_value(error)
    return fmt.clean_text(error)


def _exclusions(report: ScoreReport, limits: Limits) -> tuple[list[Exclusion], list[str]]:
    excluded: list[Exclusion] = []
    unverified: list[str] = []
    for offer in _ranked(report):
        title = offer_title(offer, limits.name_chars)
        failed = [g for g in offer.gates if g.status == "fail"]
        if not offer.eligible:
            reasons = [
                f"fails {fmt.label(g.gate)}: {fmt.clean_text(g.why, limits.quote_chars)}"
                for g in failed
            ] or ["not eligible (no failed gate was recorded)"]
            excluded.append(Exclusion(title, reasons, "gate"))
        for gate in offer.gates:
            if gate.status == "unverified" and offer.eligible:
                unverified.append(
                    f"{title}: {fmt.label(gate.gate)} unverified — "
                    f"{fmt.clean_text(gate.why, limits.quote_chars)}"
                )
    for item in report.not_evaluated:
        name = fmt.clean_text(_get(item.source, "file") or fmt.where(item.source), 120)
        reasons = [fmt.clean_text(_error_text(e), limits.quote_chars) for e in item.errors]
        excluded.append(
            Exclusion(name or "an input", reasons or ["could not be evaluated"], "not_evaluated")
        )
    return excluded, unverified


def _merge_missing(
    offer: OfferResult, views: list[FlagView], flags: list[Flag]
) -> list[FlagView]:
    """One line per vendor for what its contract leaves out, so quoted clauses keep their room.
    """
    missing = [(v, f) for v, f in zip(views, flags, strict=True) if f.kind == "missing"]
    if len(missing) < 2:
        return views
    first = missing[0][0]
    worst = min((f.severity for _, f in missing), key=lambda s: SEVERITY_ORDER.get(s, 9))
    reasons = (short_reason(offer, f) for _, f in missing)
    items = "; ".join(dict.fromkeys(  # lower-case a sentence start, never an acronym (SLA)
        r[:1].lower() + r[1:] if r[1:2].islower() else r for r in reasons))
    merged = FlagView(offer_id=first.offer_id, vendor=first.vendor,
                      kind="missing from the contract", severity=worst, quote="", where="",
                      why=items, ask_for="")
    out: list[FlagView] = []
    for v, f in zip(views, flags, strict=True):
        if f.kind != "missing":
            out.append(v)
        elif v is first:
            out.append(merged)
    return out


def _red_flags(report: ScoreReport, limits: Limits) -> tuple[list[FlagView], int]:
    chosen: list[FlagView] = []
    total = 0
    for offer in _ranked(report):
        pairs = [
            (v, f)
            for v, f in zip(
                flag_views(report, offer, limits),
                sorted(offer.flags, key=flag_order),
                strict=True,
            )
            if is_red_flag(f.kind, f.severity)
        ]
        red = _merge_missing(offer, [v for v, _ in pairs], [f for _, f in pairs])
        red.sort(key=lambda v: (SEVERITY_ORDER.get(v.severity, 9), not v.quote))
        total += len(red)
        chosen.extend(red[: limits.flags_per_offer])
    # Keep the worst first when the memo cannot hold them all, then restore rank order.
    if len(chosen) > limits.flags_total:
        order = {id(v): i for i, v in enumerate(chosen)}
        # The recommended offer's own flags always stay: they are what leadership signs.
        winner = winner_of(report)
        winner_id = winner.id if winner is not None else None
        keep = sorted(chosen, key=lambda v: (
            v.offer_id != winner_id, SEVERITY_ORDER.get(v.severity, 9), not v.quote
        ))
        chosen = sorted(keep[: limits.flags_total], key=lambda v: order[id(v)])
    return chosen, total - len(chosen)


def _criterion_spec(report: ScoreReport, name: str) -> Mapping[str, Any]:
    """The rubric's entry for a criterion (rubrics name it by `id`; older reports `name`)."""
    for item in report.rubric.get("criteria") or []:
        if isinstance(item, Mapping) and name in (item.get("id"), item.get("name")):
            return item
    return {}


def _criterion_label(report: ScoreReport, name: str) -> str:
    item = _criterion_spec(report, name)
    for key in ("title", "label"):
        if item.get(key):
            return fmt.clean_text(item[key], 60)
    return fmt.field_label(name)


def what_would_change(report: ScoreReport, winner: OfferResult | None, limit: int) -> list[str]:
    """Plain-English break-evens: the scorer's sentences, else built from sensitivity."""
    # The scorer's sentences (evaltool.decide.core), with sums rounded like the rest of the memo.
    detail = report.sensitivity.get("what_would_change_detail")
    given = report.sensitivity.get("what_would_change")
    if isinstance(detail, list) and detail:
        given = [item.get("text") for item in detail if isinstance(item, Mapping)]
    if isinstance(given, list) and given:
        return [fmt.tidy_money(fmt.clean_text(s, 400)) for s in given if s][:limit]
    if winner is None:
        return []
    sentences: list[str] = []
    margin = _get(report.sensitivity, "margin", "points")
    if margin is None:
        margin = report.recommendation.get("margin_points")
    tie = fmt.as_number(margin)
    if tie is not None and tie < 2.0:
        sentences.append(
            f"The margin is only {fmt.points(tie)}: treat the top two as a tie and let "
            "price negotiation or the clarification answers decide."
        )
    for cut in report.sensitivity.get("price_cut_to_win") or []:
        if not isinstance(cut, Mapping) or fmt.as_number(cut.get("price_cut_pct")) is None:
            continue
        vendor = _vendor_of(report, cut.get("offer_id"), 60)
        price = fmt.usd_per_gpu_hour(cut.get("price_usd_per_gpu_hour_at_tie"))
        sentences.append(
            f"{vendor} would win if its price dropped by "
            f"{fmt.pct_points(cut.get('price_cut_pct'))} (to {price})."
        )
    for item in report.sensitivity.get("weight_break_evens") or []:
        if not isinstance(item, Mapping):
            continue
        now, then = fmt.as_number(item.get("weight_now")), fmt.as_number(item.get("weight_at_tie"))
        if now is None or then is None:
            continue
        verb = "rose" if then > now else "fell"
        sentences.append(
            f"{_vendor_of(report, item.get('new_winner'), 60)} would win if the weight of "
            f"{_criterion_label(report, str(item.get('criterion')))} {verb} from "
            f"{fmt.pct(now)} to {fmt.pct(then)} (other weights scaled proportionally)."
        )
    intervals = report.sensitivity.get("rank_intervals")
    if isinstance(intervals, Mapping):
        for offer_id, span in intervals.items():
            if offer_id != winner.id and isinstance(span, list) and span and span[0] == 1:
                sentences.append(
                    f"{_vendor_of(report, offer_id, 60)} could rank first once its missing "
                    "data is supplied: ask before signing."
                )
    if not sentences and tie is not None:
        sentences.append(
            f"No single price cut or weight change within the tested ranges overturns the "
            f"{fmt.points(tie)} lead."
        )
    return sentences[:limit]


def _confidence(report: ScoreReport, winner: OfferResult | None) -> tuple[str, str]:
    if winner is None:
        return "none", "No offer passes the knock-out gates."
    rec = report.recommendation
    level = str(rec.get("confidence") or "").lower()
    win_p = rec.get("win_probability")
    if win_p is None:
        win_p = _get(report.sensitivity, "win_probability", winner.id)
    margin = rec.get("margin_points")
    if margin is None:
        margin = _get(report.sensitivity, "margin", "points")
    runner = runner_up_of(report, winner)
    parts = []
    if fmt.as_number(win_p) is not None:
        parts.append(f"wins in {fmt.pct(win_p)} of plausible weightings")
    if fmt.as_number(margin) is not None and runner is not None:
        parts.append(
            f"{fmt.points(margin)} ahead of {fmt.clean_text(runner.vendor, 60)} "
            f"({fmt.score(winner.score)} vs {fmt.score(runner.score)} of 100)"
        )
    elif runner is None:
        parts.append("the only eligible offer")
    line = "; ".join(parts)
    line = line[:1].upper() + line[1:] + "." if line else ""
    return (level if level in ("high", "medium", "low") else "unstated"), line


def _facts(report: ScoreReport, winner: OfferResult | None) -> str:
    """The winner's run in one sentence, unless the scorer's headline already says it."""
    rec = report.recommendation
    given, lead = str(rec.get("headline") or ""), str(rec.get("headline_lead") or "")
    if winner is not None and rec.get("offer_id") == winner.id and lead and \
            given.startswith(lead):
        # The standing is in the confidence line, the runner-up's money in the table.
        return fmt.clean_text(str(rec.get("headline_time") or ""), 200)
    if winner is None or (
        report.recommendation.get("headline")
        and report.recommendation.get("offer_id") == winner.id
    ):
        return ""
    est = winner.estimates
    workload = fmt.clean_text(report.workload.get("name"), 60) or "the workload"
    return (
        f"It trains {workload} in {fmt.days(est.get('time_to_train_days'))} for "
        f"{fmt.usd(est.get('total_cost_usd'))} "
        f"({fmt.usd_per_gpu_hour(est.get('effective_usd_per_gpu_hour'))} "
        f"at {fmt.pct(est.get('mfu'))} MFU on {fmt.count(est.get('gpus_used'))} GPUs)."
    )


def _headline(report: ScoreReport, winner: OfferResult | None) -> str:
    if winner is None:
        return "No offer can be recommended: none passes the knock-out gates."
    given = report.recommendation.get("headline_lead") or report.recommendation.get("headline")
    if given and report.recommendation.get("offer_id") == winner.id:
        return fmt.tidy_money(fmt.clean_text(given, 400))
    return f"Recommend {offer_title(winner, 120)}."


def _key_figures(report: ScoreReport, winner: OfferResult | None) -> list[KeyFigure]:
    """The winner's run cost and, beside it, what signing commits; time, price and MFU."""
    if winner is None:
        return []
    runner = runner_up_of(report, winner)
    other = runner.estimates if runner else {}
    est = winner.estimates

    def vs(text: str) -> str:
        return text if runner is not None and text != fmt.DASH else ""

    figures = [KeyFigure("Run cost", fmt.usd(est.get("total_cost_usd")),
                         vs(fmt.usd(other.get("total_cost_usd"))))]
    amount, word = committed_spend(winner)
    run = fmt.as_number(est.get("total_cost_usd"))
    if amount is not None and (run is None or amount > run):
        if word == "capex":
            label = "Capex (purchase)"
        else:
            term = fmt.as_number(winner.fields.get("term_months"))
            label = f"Commits ({fmt.number(term)} mo)" if term else "Minimum commitment"
        figures.append(KeyFigure(label, fmt.usd(amount), _commitment_of(runner)))
    figures += [
        KeyFigure("Time to train", fmt.days(est.get("time_to_train_days")),
                  vs(fmt.days(other.get("time_to_train_days")))),
        KeyFigure("Effective $/GPU-h", fmt.price(est.get("effective_usd_per_gpu_hour")),
                  vs(fmt.price(other.get("effective_usd_per_gpu_hour")))),
        KeyFigure("MFU", fmt.pct(est.get("mfu")), vs(fmt.pct(other.get("mfu")))),
    ]
    return figures


def _money_rows(report: ScoreReport, winner: OfferResult | None,
                limits: Limits) -> list[MoneyRow]:
    """The eligible offers' money in rank order (the full report adds the excluded ones)."""
    offers = sorted((o for o in _ranked(report) if o.eligible or limits is FULL_LIMITS),
                    key=lambda o: (not o.eligible, o.rank))
    rows = []
    for offer in offers:
        est = offer.estimates
        basis = est.get("minimum_cash_to_sign_basis") or []
        rows.append(MoneyRow(
            offer_id=offer.id,
            name=fmt.clean_text(offer.vendor, min(limits.name_chars, 32)) or offer.id,
            eligible=offer.eligible,
            is_winner=winner is not None and offer.id == winner.id,
            run_cost=fmt.usd(est.get("total_cost_usd")),
            minimum_cash=fmt.usd(est.get("minimum_cash_to_sign_usd")),
            how=fmt.clean_text(exit_short(basis if isinstance(basis, list) else []), 60),
            full_commitment=fmt.usd(est.get("full_commitment_usd")),
            cost_of_delay=fmt.usd(est.get("cost_of_delay_usd")),
            economic_cost=fmt.usd(est.get("total_economic_cost_usd")),
        ))
    return rows


def _buy_vs_rent(report: ScoreReport, limits: Limits) -> list[str]:
    items = report.sensitivity.get("buy_vs_rent") or []
    labels = {o.id: fmt.clean_text(o.vendor, limits.name_chars) or o.id for o in _ranked(report)}
    return [buy_vs_rent_sentence(item, labels) for item in items if isinstance(item, Mapping)]


def _cost_basis_note(report: ScoreReport) -> str:
    """What the ranking's cost criteria charged, in words."""
    basis = str(report.assumptions.get("overrides", {}).get("cost_basis") or "cash")
    charged = {"cash": "the minimum cash to sign",
               "commitment": "the full commitment",
               "run": "the run alone"}.get(basis, "the minimum cash to sign")
    text = (f"The ranking charges {charged} plus the cost of delay; time is priced once, "
            "in dollars.")
    resale = report.assumptions.get("overrides", {}).get("resale_value_fraction")
    if resale:
        text += f" Spare capacity is credited at {float(resale):.0%} of its cost."
    return text


def _commitment_of(offer: OfferResult | None) -> str:
    """The runner-up's commitment with its own term or kind: "$5.58M (6 mo)", "$10.4M capex"."""
    if offer is None:
        return ""
    amount, word = committed_spend(offer)
    if amount is None:
        return ""
    if word == "capex":
        return f"{fmt.usd(amount)} capex"
    term = fmt.as_number(offer.fields.get("term_months"))
    return f"{fmt.usd(amount)} ({fmt.number(term)} mo)" if term else fmt.usd(amount)


def _plural(n: int, word: str, words: str | None = None) -> str:
    return f"{n} {word if n == 1 else (words or word + 's')}"


def inputs_line(report: ScoreReport) -> str:
    """"6 offer files, 1 workload file, 1 rates file; 6 offers evaluated" from
    assumptions.inputs, falling back on the offers and inputs not evaluated."""
    given = report.assumptions.get("inputs")
    given = given if isinstance(given, Mapping) else {}
    offer_files = given.get("offers")
    if isinstance(offer_files, list):
        n_files = len(offer_files)
    else:
        n_files = len({str(_get(o.source, "file") or o.id) for o in report.offers}
                      | {str(_get(n.source, "file")) for n in report.not_evaluated})
    parts = [_plural(n_files, "offer file")]
    workload = given.get("workload")
    if isinstance(workload, str) and workload:
        from_file = "/" in workload or workload.lower().endswith((".yaml", ".yml"))
        parts.append("1 workload file" if from_file else "the bundled default workload")
    fx_files = given.get("fx_files")
    if isinstance(fx_files, list) and fx_files:
        parts.append(_plural(len(fx_files), "rates file"))
    rubric = given.get("rubric")
    if isinstance(rubric, str) and ("/" in rubric or rubric.lower().endswith((".yaml", ".yml"))):
        parts.append("1 rubric file")
    done = _plural(len(report.offers), "offer") + " evaluated"
    if report.not_evaluated:
        done += f", {len(report.not_evaluated)} not evaluated"
    return f"{', '.join(parts)}; {done}"


def _inputs(report: ScoreReport) -> list[str]:
    files = {fmt.clean_text(_get(o.source, "file"), 160) for o in report.offers}
    for key in ("offers", "fx_files"):
        listed = _get(report.assumptions, "inputs", key)
        if isinstance(listed, list):
            files |= {fmt.clean_text(f, 160) for f in listed}
    for key in ("workload", "rubric"):
        named = _get(report.assumptions, "inputs", key)
        if isinstance(named, str) and "/" in named:
            files.add(fmt.clean_text(named, 160))
    files |= {fmt.clean_text(_get(n.source, "file"), 160) for n in report.not_evaluated}
    return sorted(f for f in files if f)


def _basis(report: ScoreReport, as_of: str) -> list[tuple[str, str]]:
    rubric = report.rubric
    name = fmt.clean_text(rubric.get("name"), 60) or "unnamed rubric"
    version = fmt.clean_text(rubric.get("version"), 20)
    rubric_text = f"{name} v{version}" if version else name
    if rubric.get("title"):
        rubric_text += f" — {fmt.clean_text(rubric['title'], 100)}"
    wl = report.workload
    wl_parts = [fmt.clean_text(wl.get("name"), 60) or "unnamed workload"]
    if fmt.as_number(wl.get("params_b")) is not None:
        wl_parts.append(f"{fmt.number(wl['params_b'])}B parameters")
    if fmt.as_number(wl.get("tokens_b")) is not None:
        wl_parts.append(f"{fmt.number(wl['tokens_b'])}B tokens")
    if fmt.as_number(wl.get("deadline_days")) is not None:
        wl_parts.append(f"deadline {fmt.days(wl['deadline_days'])}")
    if fmt.as_number(wl.get("cost_of_delay_usd_per_day")):
        wl_parts.append(f"delay costs {fmt.usd(wl['cost_of_delay_usd_per_day'])}/day")
    rows = [
        ("Date", as_of),
        ("Inputs", inputs_line(report)),
        ("Rubric", rubric_text),
        ("Workload", ", ".join(wl_parts)),
    ]
    seed = _first(_get(report.sensitivity, "smaa", "seed"), report.sensitivity.get("seed"),
                  report.assumptions.get("seed"), report.assumptions.get("smaa_seed"))
    samples = _first(_get(report.sensitivity, "smaa", "draws"),
                     report.sensitivity.get("samples"), report.assumptions.get("smaa_draws"),
                     report.assumptions.get("smaa_samples"))
    if samples is not None or seed is not None:
        text = f"{fmt.count(samples)} weightings sampled, seed {fmt.clean_text(seed, 30)}"
        model = _get(report.sensitivity, "smaa", "weight_model")
        if model:
            text += f" ({fmt.clean_text(model, 80)})"
        rows.append(("Sensitivity", text))
    rows.append(("Tool", f"evaltool {fmt.clean_text(report.evaltool_version, 30)}"))
    if report.generated_for:
        rows.append(("Prepared for", fmt.clean_text(report.generated_for, 80)))
    return rows


def _first(*values: Any) -> Any:
    """The first value that is not None (0 is a real seed)."""
    return next((v for v in values if v is not None), None)


def _flatten(data: Any, prefix: str = "") -> list[tuple[str, str]]:
    rows: list[tuple[str, str]] = []
    if isinstance(data, Mapping):
        for key in sorted(data, key=str):
            name = f"{prefix}.{key}" if prefix else str(key)
            item = data[key]
            if isinstance(item, Mapping) and item:
                rows.extend(_flatten(item, name))
            else:
                rows.append((fmt.clean_text(name, 80), fmt.clean_text(fmt.any_value(item), 300)))
    return rows


def _category_order(report: ScoreReport) -> list[str]:
    names: list[str] = list(report.rubric.get("categories") or {})
    for offer in report.offers:
        for name in offer.categories:
            if name not in names:
                names.append(name)
    return fmt.order_categories(names)


# A rubric criterion's unit (rubrics/*.yaml `unit`) as a table header shows it, and how a
# value in that unit prints; the header carries the unit so cells stay short.
def _unit_display(unit: Any) -> tuple[str, Any]:
    text = fmt.clean_text(unit, 40)
    if not text or text in ("score", "yes/no"):
        return "", fmt.any_value
    if text.startswith("fraction"):
        rest = text.removeprefix("fraction").strip()
        return f"% {rest}".strip(), _share
    if text.startswith("percent"):
        rest = text.removeprefix("percent").strip()
        return f"% {rest}".strip(), fmt.number
    short = {"hours": "h", "usable / needed": "usable ÷ needed"}
    if text == "USD per GB":
        return "$/GB", _price_or_text
    if text.startswith("USD per PFLOP-hour"):
        return "$/PFLOP-h", _price_or_text
    return short.get(text, text), fmt.any_value


def _price_or_text(value: Any) -> str:
    return fmt.price(value) if fmt.as_number(value) is not None else fmt.any_value(value)


def _share(value: Any) -> str:
    x = fmt.as_number(value)
    if x is None:
        return fmt.any_value(value)
    return fmt.pct(x, 1) if abs(x) < 0.1 else fmt.pct(x)


def _category_tables(report: ScoreReport) -> list[CategoryTable]:
    weights = report.rubric.get("categories") or {}
    criteria_order: dict[str, list[tuple[str, float | None]]] = {}
    for offer in report.offers:
        for c in offer.criteria:
            known = criteria_order.setdefault(c.category, [])
            if c.criterion not in [k for k, _ in known]:
                known.append((c.criterion, c.weight))
    tables = []
    ranked = _ranked(report)
    titles = {o.id: offer_title(o, 34) for o in ranked}
    for cat in _category_order(report):
        crit = criteria_order.get(cat, [])
        units = [_unit_display(_criterion_spec(report, n).get("unit")) for n, _ in crit]
        rows = []
        for offer in ranked:
            by_name = {c.criterion: c for c in offer.criteria if c.category == cat}
            cells: list[tuple[str, bool]] = []
            for (name, _), (_, render) in zip(crit, units, strict=True):
                found = by_name.get(name)
                if found is None:
                    cells.append((fmt.DASH, True))
                else:
                    value = fmt.clean_text(render(found.value), 40)
                    cells.append((f"{value} · {fmt.score(found.score)}", found.missing))
            rows.append((titles[offer.id], fmt.score(offer.categories.get(cat)), cells))
        weight = weights.get(cat) if isinstance(weights, Mapping) else None
        tables.append(CategoryTable(
            name=cat,
            title=fmt.category(cat),
            weight=fmt.pct(weight),
            criteria=[
                (fmt.field_label(n),
                 " · ".join(t for t in (unit, f"weight {fmt.pct(w)}") if t))
                for (n, w), (unit, _) in zip(crit, units, strict=True)
            ],
            rows=rows,
        ))
    return tables


ESTIMATE_COLUMNS: tuple[tuple[str, str, Any], ...] = (
    ("gpus_used", "GPUs", fmt.count),
    ("mfu", "MFU", fmt.pct),
    ("time_to_train_days", "Time to train", fmt.days),
    ("effective_usd_per_gpu_hour", "$/GPU-h", fmt.price),
    ("total_cost_usd", "Run cost", fmt.usd),
    ("cost_of_delay_usd", "Cost of delay", fmt.usd),
    ("total_economic_cost_usd", "Cost + delay", fmt.usd),
    ("usd_per_million_tokens", "$/M tokens", lambda v: fmt.price(v, 3)),
)


def _estimate_cells(est: Mapping[str, Any]) -> list[str]:
    return [render(est.get(key)) for key, _, render in ESTIMATE_COLUMNS]


def _mfu_losses(est: Mapping[str, Any]) -> str:
    """"base 48% − network 3% − storage 1% − failures 2%" from the scorer's breakdown."""
    breakdown = est.get("mfu_breakdown")
    if not isinstance(breakdown, Mapping) or not breakdown:
        return ""
    parts = []
    for key, val in breakdown.items():
        name = fmt.label(str(key).removesuffix("_loss"))
        parts.append(f"{name} {fmt.pct(val, 1)}")
    return " · ".join(parts)


# Criteria whose value the scorer computes from the offer and the workload (estimate.py).
ESTIMATED = frozenset({
    "mfu", "time_to_train_days", "total_cost_usd", "effective_usd_per_gpu_hour",
    "total_economic_cost_usd", "cost_of_delay_usd", "usd_per_million_tokens",
})


def _trace(offer: OfferResult) -> list[tuple[str, str, str, str]]:
    """Every canonical value of the offer and where it was read (sheet › cell or key).

    Rows are (field, value, where it came from, the score of the criterion reading it).
    The offer's file is named once above its rows, so each row names only the place in it,
    and the raw text only when it says more than the value (short rows lay out faster).
    """
    scores = {c.criterion: c for c in offer.criteria}
    source_file = _get(offer.source, "file")
    rows = []
    for name, value in offer.fields.items():
        shown = fmt.clean_text(fmt.field_value(name, value), 60)
        prov = offer.provenance.get(name)
        if prov is None:
            text = "offer file (cell not recorded)"
        else:
            where_at = prov.where if isinstance(prov.where, Mapping) else {}
            place = {k: v for k, v in where_at.items() if not (k == "file" and v == source_file)}
            text = fmt.where(place) or fmt.where(prov.where)
            raw = fmt.clean_text(prov.raw) if prov.raw else ""
            if raw and raw.casefold() not in (shown.casefold(), fmt.any_value(value).casefold()):
                text += f" — “{fmt.clean_text(raw, 48)}”"
            if prov.derived_from:
                text += " (derived from " + ", ".join(
                    fmt.field_label(d, with_unit=False) for d in prov.derived_from) + ")"
            if prov.note:
                text += f" ({fmt.clean_text(prov.note, 90)})"
        criterion = scores.get(name)
        rows.append((fmt.field_label(name, with_unit=False), shown, text,
                     fmt.score(criterion.score) if criterion else "—"))
    for c in offer.criteria:
        if c.missing:
            rows.append((_criterion_name(c.criterion), "—", "not stated in the offer"
                         + (f" ({fmt.clean_text(c.note, 120)})" if c.note else ""),
                         fmt.score(c.score)))
    return rows


def _criterion_name(name: str) -> str:
    return fmt.field_label(name)


def _details(report: ScoreReport) -> list[OfferDetail]:
    out = []
    for offer in _ranked(report):
        out.append(OfferDetail(
            offer_id=offer.id,
            title=offer_title(offer, 140),
            short_title=offer_title(offer, 34),
            rank=offer.rank,
            eligible=offer.eligible,
            source=fmt.where(offer.source),
            estimates=_estimate_cells(offer.estimates),
            mfu_losses=_mfu_losses(offer.estimates),
            gates=[(fmt.label(g.gate), g.status, fmt.clean_text(g.why, 300)) for g in offer.gates],
            flags=flag_views(report, offer, FULL_LIMITS),
            missing=[fmt.field_label(m) for m in offer.missing],
            trace=_trace(offer),
        ))
    return out


def _rubric_rows(report: ScoreReport) -> tuple[
    list[tuple[str, str]], list[tuple[str, str]], list[list[str]]
]:
    rubric = report.rubric
    head = [
        (fmt.label(k).capitalize(), fmt.clean_text(fmt.any_value(rubric[k]), 400))
        for k in sorted(rubric, key=str)
        if k not in ("categories", "criteria", "gates") and not isinstance(rubric[k], list)
    ]
    gates = rubric.get("gates")
    if isinstance(gates, list) and gates:
        head.append(("Gates", "; ".join(fmt.clean_text(fmt.any_value(g), 200) for g in gates)))
    cats = rubric.get("categories")
    categories = (
        [(fmt.category(str(k)), fmt.pct(v)) for k, v in cats.items()]
        if isinstance(cats, Mapping) else []
    )
    criteria = [
        [fmt.clean_text(r.criterion, 80), fmt.category(r.category), fmt.pct(r.weight, 1),
         r.direction, fmt.clean_text(r.bounds, 160), fmt.clean_text(r.unit, 40),
         fmt.clean_text(r.source, 300)]
        for r in criterion_rows(rubric)
    ] if rubric.get("criteria") else []
    return head, categories, criteria


def _sensitivity_tables(report: ScoreReport, view: ReportView) -> None:
    sens = report.sensitivity
    for item in sens.get("weight_break_evens") or []:
        if isinstance(item, Mapping):
            view.break_evens.append((
                _criterion_label(report, str(item.get("criterion"))),
                fmt.pct(item.get("weight_now"), 1),
                fmt.pct(item.get("weight_at_tie"), 1),
                _vendor_of(report, item.get("new_winner"), 60),
            ))
    for item in sens.get("price_cut_to_win") or []:
        if isinstance(item, Mapping) and fmt.as_number(item.get("price_cut_pct")) is not None:
            view.price_cuts.append((
                _vendor_of(report, item.get("offer_id"), 60),
                fmt.pct_points(item.get("price_cut_pct")),
                fmt.usd_per_gpu_hour(item.get("price_usd_per_gpu_hour_at_tie")),
            ))
    intervals = sens.get("rank_intervals")
    if isinstance(intervals, Mapping):
        for offer_id, span in intervals.items():
            if isinstance(span, Sequence) and len(span) == 2:
                text = f"{span[0]}" if span[0] == span[1] else f"{span[0]} to {span[1]}"
                view.rank_intervals.append((_vendor_of(report, offer_id, 60), text))
    for item in sens.get("dominance") or []:
        if isinstance(item, Mapping):
            view.dominance.append(
                f"{_vendor_of(report, item.get('dominated'), 60)} is dominated by "
                f"{_vendor_of(report, item.get('dominant'), 60)} on every criterion."
            )
    questions = [q for q in sens.get("clarification_questions") or [] if isinstance(q, Mapping)]
    questions.sort(key=lambda q: -(fmt.as_number(q.get("swing_points")) or 0.0))
    for q in questions:
        view.questions.append((
            _vendor_of(report, q.get("offer_id"), 60),
            fmt.field_label(q.get("field")),
            fmt.clean_text(q.get("question"), 400),
            fmt.points(q.get("swing_points")),
        ))


def build_view(
    report: ScoreReport, *, kind: Kind = "memo", page_size: str = "A4", level: int = 0
) -> ReportView:
    """Everything the templates show, for the memo (at a compaction level) or the full report."""
    limits = MEMO_LEVELS[min(level, len(MEMO_LEVELS) - 1)] if kind == "memo" else FULL_LIMITS
    winner = winner_of(report)
    as_of = as_of_date(report)
    ranking_all = [r for r in _ranking(report, winner, limits) if r.eligible]
    exclusions, unverified = _exclusions(report, limits)
    red, red_more = _red_flags(report, limits)
    confidence, confidence_line = _confidence(report, winner)
    workload = fmt.clean_text(report.workload.get("name"), 60)
    view = ReportView(
        kind=kind,
        page_size=page_size,
        limits=limits,
        title="GPU compute offer: recommendation" if kind == "memo"
        else "GPU compute offers: full evaluation report",
        subtitle=f"{workload} · rubric {fmt.clean_text(report.rubric.get('name'), 40)}"
        if workload else "",
        as_of=as_of,
        headline=_headline(report, winner),
        facts=_facts(report, winner),
        confidence=confidence,
        confidence_line=confidence_line,
        key_figures=_key_figures(report, winner),
        price_note=price_explanation(winner) if winner is not None else "",
        ranking=ranking_all[: limits.ranking_rows],
        ranking_more=max(0, len(ranking_all) - limits.ranking_rows),
        money=_money_rows(report, winner, limits),
        buy_vs_rent=_buy_vs_rent(report, limits),
        cost_basis_note=_cost_basis_note(report),
        exclusions=exclusions[: limits.exclusions],
        exclusions_more=max(0, len(exclusions) - limits.exclusions),
        unverified=unverified[: limits.exclusions],
        red_flags=red,
        red_flags_more=red_more,
        changes=what_would_change(report, winner, limits.changes),
        basis=_basis(report, as_of),
        inputs=_inputs(report),
    )
    if kind == "full":
        names = _category_order(report)
        view.category_names = [fmt.category(n) for n in names]
        view.category_scores = [
            (offer_title(o, 34), [fmt.score(o.categories.get(n)) for n in names])
            for o in _ranked(report)
        ]
        view.category_tables = _category_tables(report)
        view.details = _details(report)
        view.estimate_headers = [label for _, label, _ in ESTIMATE_COLUMNS]
        for d in view.details:
            view.gate_names += [g for g, _, _ in d.gates if g not in view.gate_names]
        _sensitivity_tables(report, view)
        for offer in _ranked(report):
            if offer.missing:
                view.missing.append((offer_title(offer, 60),
                                     ", ".join(fmt.field_label(m) for m in offer.missing)))
        view.assumptions = _flatten(report.assumptions)
        view.workload = _flatten(report.workload)
        view.rubric_head, view.rubric_categories, view.rubric_criteria = _rubric_rows(report)
        view.not_evaluated = [e for e in exclusions if e.kind == "not_evaluated"]

        view.charts = charts.build_charts(report, winner)
    return view
