"""The tables behind the CSV and XLSX exports: columns with human headers and units.

Each column has a machine key (the JSON name, on the XLSX's second header row), a header
in words with its unit ("Run cost (USD)"), a number format and a width. Money columns
appear whenever the estimates carry them: `minimum_cash_to_sign_usd`,
`full_commitment_usd` and the parts of `cost_breakdown_usd` show up in the exports as
soon as the money model writes them, with no change here.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from evaltool.report import fmt
from evaltool.report.flags import flag_why, is_red_flag, short_reason, top_red_flag
from evaltool.report.picks import winner_of
from evaltool.report.rubric_table import criterion_rows
from evaltool.report.sensitivity import what_would_change

if TYPE_CHECKING:
    from evaltool.models import OfferResult, ScoreReport

USD = '"$"#,##0'
USD_CENTS = '"$"#,##0.00'
PCT = "0.0%"
AUTO = "auto"  # a number format chosen per cell: whole numbers without decimals


@dataclass(frozen=True)
class Column:
    key: str  # machine key, as in the JSON
    header: str  # words and unit, for people
    number_format: str | None = None  # XLSX number format; None: text
    width: int = 12


# Estimates in the order finance reads them: (key, header, format, always shown).
ESTIMATES: tuple[tuple[str, str, str, bool], ...] = (
    ("effective_usd_per_gpu_hour", "Effective price (USD per GPU-hour)", USD_CENTS, True),
    ("mfu", "MFU (%)", PCT, True),
    ("gpus_used", "GPUs used", "#,##0", True),
    ("time_to_train_days", "Time to train (days)", "#,##0.0", True),
    ("delivery_wait_days", "Delivery wait (days)", "#,##0", False),
    ("days_to_trained_model", "Days to a trained model (wait + training)", "#,##0.0", False),
    ("total_cost_usd", "Run cost (USD)", USD, True),
    ("minimum_cash_to_sign_usd", "Minimum cash to sign (USD)", USD, False),
    ("full_commitment_usd", "Full commitment (USD)", USD, False),
    ("minimum_commitment_usd", "Minimum commitment (USD)", USD, False),
    ("charged_cost_usd", "Cost charged in the ranking (USD)", USD, False),
    ("cost_of_delay_usd", "Cost of delay (USD)", USD, False),
    ("total_economic_cost_usd", "Total economic cost (USD)", USD, True),
    ("usd_per_million_tokens", "Cost per million tokens (USD)", USD_CENTS, False),
)

BREAKDOWN_KEY = "cost_breakdown_usd"
BREAKDOWN_LABELS = {
    "compute": "compute", "storage": "storage", "support": "support", "network": "network",
    "egress": "egress", "upfront": "upfront payment", "power": "power",
    "colocation": "colocation", "opex": "operations",
    "commitment_shortfall": "paid but unused commitment",
}


def ranked(report: ScoreReport) -> list[OfferResult]:
    return sorted(report.offers, key=lambda o: (not o.eligible, o.rank, o.id))


def categories(report: ScoreReport) -> list[str]:
    names: list[str] = list(report.rubric.get("categories") or {})
    for offer in report.offers:
        names += [n for n in offer.categories if n not in names]
    return fmt.order_categories(names)


def _carried(report: ScoreReport, key: str) -> bool:
    return any(fmt.as_number(o.estimates.get(key)) is not None for o in report.offers)


def breakdown_parts(report: ScoreReport) -> list[str]:
    """The parts of the cost breakdown any offer states, known ones first."""
    parts: list[str] = []
    for offer in report.offers:
        found = offer.estimates.get(BREAKDOWN_KEY)
        if isinstance(found, Mapping):
            parts += [str(k) for k in found if str(k) not in parts]
    known = [k for k in BREAKDOWN_LABELS if k in parts]
    return known + sorted(p for p in parts if p not in BREAKDOWN_LABELS)


def estimate_columns(report: ScoreReport) -> list[Column]:
    columns = [
        Column(key, header, number_format, 14)
        for key, header, number_format, always in ESTIMATES
        if always or _carried(report, key)
    ]
    columns += [
        Column(f"{BREAKDOWN_KEY}.{part}",
               f"Run cost: {BREAKDOWN_LABELS.get(part, fmt.label(part))} (USD)", USD, 14)
        for part in breakdown_parts(report)
    ]
    return columns


def estimate_value(offer: OfferResult, key: str) -> float | None:
    if key.startswith(BREAKDOWN_KEY + "."):
        found = offer.estimates.get(BREAKDOWN_KEY)
        part = key.split(".", 1)[1]
        return fmt.as_number(found.get(part)) if isinstance(found, Mapping) else None
    return fmt.as_number(offer.estimates.get(key))


def _errors_text(errors: list[Any]) -> str:
    return "; ".join(
        fmt.clean_text(e.get("text") or e.get("message") or fmt.any_value(e))
        if isinstance(e, Mapping) else fmt.clean_text(e)
        for e in errors
    )


def same_vendor(report: ScoreReport) -> dict[str, list[str]]:
    """Offer id → the other offers of the same vendor in this run (rounds, variants)."""
    by_vendor: dict[str, list[str]] = {}
    for offer in report.offers:
        key = fmt.clean_text(offer.vendor).casefold()
        by_vendor.setdefault(key, []).append(offer.id)
    return {
        offer.id: [i for i in by_vendor[fmt.clean_text(offer.vendor).casefold()] if i != offer.id]
        for offer in report.offers
    }


def ranking_table(report: ScoreReport) -> tuple[list[Column], list[list[Any]]]:
    """One row per input: every evaluated offer, best first, then each input not evaluated."""

    cats = categories(report)
    estimates = estimate_columns(report)
    siblings = same_vendor(report)
    columns: list[Column] = [
        Column("rank", "Rank", "0", 6), Column("offer_id", "Offer id", None, 24),
        Column("vendor", "Vendor", None, 26), Column("offer_name", "Offer", None, 34),
        Column("accelerator", "Accelerator", None, 14), Column("status", "Status", None, 13),
        Column("score", "Score (0–100)", "0.0", 8),
        *[Column(f"category_{c}", f"{fmt.category(c)} (0–100)", "0.0", 10) for c in cats],
        *estimates,
        Column("win_probability", "Wins in plausible weightings (%)", PCT, 12),
        Column("red_flags", "Red flags", "0", 8),
        Column("top_red_flag", "Top red flag", None, 40),
        Column("why_excluded", "Why excluded or not evaluated", None, 50),
        Column("missing_fields", "Fields not stated", None, 30),
    ]
    if any(siblings.values()):
        columns.append(Column("same_vendor_offers", "Other offers from this vendor", None, 30))
    columns.append(Column("source_file", "Source file", None, 34))
    keys = [c.key for c in columns]
    win_p = report.sensitivity.get("win_probability")
    rows: list[list[Any]] = []
    for offer in ranked(report):
        red = [f for f in offer.flags if is_red_flag(f.kind, f.severity)]
        worst = top_red_flag(offer)
        top = (
            f"{worst.severity}: {short_reason(offer, worst)} — "
            f"{fmt.clean_text(worst.quote, 200) or flag_why(offer, worst, 200)}"
            if worst is not None else ""
        )
        failed = "; ".join(
            f"{g.gate}: {fmt.clean_text(g.why)}" for g in offer.gates if g.status == "fail"
        )
        values: dict[str, Any] = {
            "rank": offer.rank, "offer_id": offer.id, "vendor": offer.vendor,
            "offer_name": offer.offer_name, "accelerator": offer.accelerator,
            "status": "eligible" if offer.eligible else "excluded",
            "score": fmt.as_number(offer.score),
            **{f"category_{c}": fmt.as_number(offer.categories.get(c)) for c in cats},
            **{c.key: estimate_value(offer, c.key) for c in estimates},
            "win_probability": (fmt.as_number(win_p.get(offer.id))
                                if isinstance(win_p, Mapping) else None),
            "red_flags": len(red), "top_red_flag": top,
            "why_excluded": failed if not offer.eligible else "",
            "missing_fields": ", ".join(offer.missing),
            "same_vendor_offers": ", ".join(siblings.get(offer.id, [])),
            "source_file": offer.source.get("file"),
        }
        rows.append([values.get(k) for k in keys])
    for item in report.not_evaluated:
        values = {"status": "not evaluated", "why_excluded": _errors_text(item.errors),
                  "source_file": item.source.get("file")}
        rows.append([values.get(k) for k in keys])
    return columns, rows


def flatten(data: Any, prefix: str = "") -> list[tuple[str, Any]]:
    """Nested settings as (dotted key, value) rows; numbers stay numbers."""
    rows: list[tuple[str, Any]] = []
    if isinstance(data, Mapping):
        for key in sorted(data, key=str):
            rows += flatten(data[key], f"{prefix}.{key}" if prefix else str(key))
        if not data and prefix:
            rows.append((prefix, None))
    elif isinstance(data, list | tuple) and any(isinstance(v, Mapping) for v in data):
        for index, item in enumerate(data):
            rows += flatten(item, f"{prefix}[{index}]")
    elif isinstance(data, list | tuple):
        rows.append((prefix, ", ".join(fmt.any_value(v) for v in data)))
    elif isinstance(data, float) and not math.isfinite(data):
        rows.append((prefix, None))
    else:
        rows.append((prefix, data))
    return rows


def _fraction(percent: Any) -> float | None:
    number = fmt.as_number(percent)
    return None if number is None else number / 100


# The per-criterion, per-flag and per-gate sheets list the offers ranked this high; every
# offer keeps its row in Ranking, Categories and Sensitivity, and all of its detail in the
# JSON export. 500 offers x ~25 criteria is already more than anyone reads in a workbook;
# 10,000 offers made a 400,000-row workbook that took minutes to write (benchmarks/limits.py).
MAX_DETAIL_OFFERS = 500


def _detail_offers(report: ScoreReport) -> tuple[list[OfferResult], list[Any] | None]:
    """The offers whose detail rows the workbook lists, and the closing note row (or None)."""
    offers = ranked(report)
    if len(offers) <= MAX_DETAIL_OFFERS:
        return offers, None
    more = len(offers) - MAX_DETAIL_OFFERS
    return offers[:MAX_DETAIL_OFFERS], [
        f"… and {more:,} more offers (ranked below {MAX_DETAIL_OFFERS:,}): their rows are in "
        "the Ranking sheet and their detail in the JSON export"]


def _with_note(rows: list[list[Any]], note: list[Any] | None) -> list[list[Any]]:
    return [*rows, note] if note else rows


def workbook_sheets(report: ScoreReport) -> list[tuple[str, list[Column], list[list[Any]]]]:
    """Every view of the report as (sheet title, columns, rows).

    Criteria, Flags and Gates list the first `MAX_DETAIL_OFFERS` offers and say how many
    more there are; every other per-offer sheet lists every offer.
    """

    sheets = [("Ranking", *ranking_table(report))]
    detail, note = _detail_offers(report)
    cats = categories(report)
    sheets.append((
        "Categories",
        [Column("rank", "Rank", "0", 6), Column("offer_id", "Offer id", None, 24),
         Column("vendor", "Vendor", None, 26), Column("score", "Score (0–100)", "0.0", 8),
         *[Column(c, f"{fmt.category(c)} (0–100)", "0.0", 10) for c in cats]],
        [[o.rank, o.id, o.vendor, o.score, *[o.categories.get(c) for c in cats]]
         for o in ranked(report)],
    ))
    sheets.append((
        "Criteria",
        [Column("offer_id", "Offer id", None, 24), Column("vendor", "Vendor", None, 24),
         Column("category", "Category", None, 12), Column("criterion", "Criterion", None, 28),
         Column("value", "Value (unit of the criterion)", AUTO, 20),
         Column("score", "Criterion score (0–100)", "0.0", 9),
         Column("weight", "Weight in score (%)", PCT, 9),
         Column("contribution", "Points added to the score", "0.00", 12),
         Column("missing", "Not stated", None, 8), Column("note", "Note", None, 50)],
        _with_note([[o.id, o.vendor, c.category, c.criterion, c.value, c.score, c.weight,
                     c.contribution, c.missing, c.note] for o in detail for c in o.criteria],
                   note),
    ))
    sheets.append((
        "Flags",
        [Column("offer_id", "Offer id", None, 24), Column("vendor", "Vendor", None, 24),
         Column("code", "Code (evaltool explain)", None, 22),
         Column("severity", "Severity", None, 9), Column("kind", "Kind", None, 18),
         Column("quote", "Quote from the offer", None, 70),
         Column("where", "Where", None, 40), Column("why", "Why it matters", None, 50),
         Column("ask_for", "Ask the vendor for", None, 60)],
        _with_note([[o.id, o.vendor, f.code, f.severity, f.kind, f.quote, fmt.where(f.where),
                     f.why, f.ask_for] for o in detail for f in o.flags], note),
    ))
    sheets.append((
        "Gates",
        [Column("offer_id", "Offer id", None, 24), Column("vendor", "Vendor", None, 24),
         Column("gate", "Knock-out gate", None, 20), Column("status", "Status", None, 11),
         Column("why", "Why", None, 70)],
        _with_note([[o.id, o.vendor, g.gate, g.status, g.why] for o in detail for g in o.gates],
                   note),
    ))
    sens = report.sensitivity
    acc = sens.get("rank_acceptability")
    acc = acc if isinstance(acc, Mapping) else {}
    n_ranks = max((len(v) for v in acc.values() if isinstance(v, list)), default=0)
    intervals = sens.get("rank_intervals")
    intervals = intervals if isinstance(intervals, Mapping) else {}
    win_p = sens.get("win_probability")
    win_p = win_p if isinstance(win_p, Mapping) else {}

    def p_rank(offer_id: str, r: int) -> Any:
        found = acc.get(offer_id)
        return found[r] if isinstance(found, list) and r < len(found) else None

    sheets.append((
        "Sensitivity",
        [Column("offer_id", "Offer id", None, 24), Column("vendor", "Vendor", None, 24),
         Column("win_probability", "Wins in plausible weightings (%)", PCT, 12),
         *[Column(f"p_rank_{r + 1}", f"Ranked {r + 1} (%)", PCT, 10) for r in range(n_ranks)],
         Column("best_rank", "Best rank", "0", 9), Column("worst_rank", "Worst rank", "0", 10)],
        [[o.id, o.vendor, win_p.get(o.id), *[p_rank(o.id, r) for r in range(n_ranks)],
          *[*(intervals.get(o.id) or []), None, None][:2]]
         for o in ranked(report)],
    ))
    changes = what_would_change(report, winner_of(report), 20)
    rows: list[list[Any]] = [["statement", None, None, None, s] for s in changes]
    rows += [
        ["weight break-even", b.get("criterion"), b.get("weight_now"), b.get("weight_at_tie"),
         b.get("new_winner")]
        for b in sens.get("weight_break_evens") or [] if isinstance(b, Mapping)
    ]
    rows += [
        ["price cut to win", b.get("offer_id"), _fraction(b.get("price_cut_pct")),
         b.get("price_usd_per_gpu_hour_at_tie"), None]
        for b in sens.get("price_cut_to_win") or [] if isinstance(b, Mapping)
    ]
    sheets.append((
        "What would change",
        [Column("kind", "Kind", None, 18),
         Column("criterion_or_offer", "Criterion or offer", None, 28),
         Column("now_or_cut", "Weight now, or price cut (%)", PCT, 14),
         Column("at_tie", "Weight, or USD per GPU-hour, at a tie", "0.000", 14),
         Column("new_winner_or_statement", "New winner, or what would change", None, 90)],
        rows,
    ))
    sheets.append((
        "Questions",
        [Column("offer_id", "Offer id", None, 24), Column("field", "Field", None, 24),
         Column("question", "Question for the vendor", None, 80),
         Column("swing_points", "Could swing the score by (points)", "0.0", 14)],
        [[q.get("offer_id"), q.get("field"), q.get("question"), q.get("swing_points")]
         for q in sens.get("clarification_questions") or [] if isinstance(q, Mapping)],
    ))
    sheets.append((
        "Not evaluated",
        [Column("file", "File", None, 40), Column("code", "Code", None, 22),
         Column("where", "Where", None, 40), Column("error", "Error", None, 100)],
        [[item.source.get("file"), e.get("code") if isinstance(e, Mapping) else None,
          fmt.where(e.get("where")) if isinstance(e, Mapping) else "",
          (e.get("text") or e.get("message")) if isinstance(e, Mapping) else e]
         for item in report.not_evaluated for e in item.errors],
    ))
    basis = [("assumptions." + k, v) for k, v in flatten(report.assumptions)]
    basis += [("workload." + k, v) for k, v in flatten(report.workload)]
    basis += [("rubric." + k, v) for k, v in flatten(
        {k: v for k, v in report.rubric.items() if k != "criteria"})]
    basis += [("evaltool_version", report.evaltool_version)]
    sheets.append(("Assumptions", [Column("key", "Setting", None, 44),
                                   Column("value", "Value", AUTO, 60)],
                   [list(row) for row in basis]))
    sheets.append(("Rubric", *rubric_sheet(report)))
    return sheets


def rubric_sheet(report: ScoreReport) -> tuple[list[Column], list[list[Any]]]:
    columns = [
        Column("criterion", "Criterion", None, 40), Column("id", "Criterion id", None, 26),
        Column("category", "Category", None, 12), Column("direction", "Direction", None, 18),
        Column("bounds", "Bounds (value → points of 100)", None, 40),
        Column("unit", "Unit", None, 18),
        Column("weight_in_category", "Weight in category (%)", PCT, 10),
        Column("weight", "Weight in score (%)", PCT, 10),
        Column("if_missing", "If not stated", None, 12), Column("reads", "Reads", None, 30),
        Column("source", "Source", None, 60),
    ]
    if not report.rubric.get("criteria"):
        return columns, []
    rows = [[getattr(r, c.key) for c in columns] for r in criterion_rows(report.rubric)]
    return columns, rows
