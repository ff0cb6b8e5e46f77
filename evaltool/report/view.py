"""What the memo and the full report show, computed once from a ScoreReport.

Templates only lay out what this module decides: every figure here is already formatted
for humans (see fmt.py) and every vendor string already cleaned of control characters.
Escaping is jinja2's job (autoescape on), not this module's: strings stay raw text here.
Absent keys never crash: an estimate that is None prints "—", a missing sensitivity block
simply leaves its section out.

This module assembles the view; its parts live beside it, one concept each:
view_model (the shapes), names, money (commitments, prices, key figures), flags (red flags),
sensitivity (confidence, what would change), basis (date, inputs, settings) and detail (the
full report's per-offer tables).
"""

from __future__ import annotations

import datetime as dt
import math
import re
from collections.abc import Mapping
from typing import Any

from evaltool.models import OfferResult, ScoreReport
from evaltool.report import charts, fmt
from evaltool.report.basis import as_of_date, basis_rows, flatten, input_files, rubric_rows
from evaltool.report.detail import ESTIMATE_COLUMNS, category_order, category_tables, offer_details
from evaltool.report.flags import red_flags, top_flag
from evaltool.report.money import (
    buy_vs_rent_lines,
    commitment_line,
    cost_basis_note,
    key_figures,
    money_rows,
    price_explanation,
    price_gap,
)
from evaltool.report.names import offer_title
from evaltool.report.picks import _get, _ranked, winner_of
from evaltool.report.sensitivity import confidence, sensitivity_tables, what_would_change
from evaltool.report.view_model import (
    FULL_LIMITS,
    MEMO_LEVELS,
    Exclusion,
    Kind,
    Limits,
    RankRow,
    ReportView,
)


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
                top_flag=top_flag(offer),
                is_winner=winner is not None and offer.id == winner.id,
                offer_line=_offer_line(
                    fmt.clean_text(fmt.offer_name(offer.vendor, offer.offer_name),
                                   limits.name_chars),
                    offer.accelerator),
                commitment=commitment_line(offer),
                quoted_price=(f"quoted {fmt.price(gap[1])}" if (gap := price_gap(offer))
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


def exclusions(report: ScoreReport, limits: Limits) -> tuple[list[Exclusion], list[str]]:
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


def _runner_up(report: ScoreReport, winner: OfferResult | None) -> str:
    """The runner-up's money in one sentence, as the scorer wrote it from its figures."""
    rec = report.recommendation
    given = str(rec.get("headline_runner_up") or "")
    if winner is None or not given or rec.get("offer_id") != winner.id:
        return ""
    return fmt.tidy_money(fmt.clean_text(given, 300))


def build_view(
    report: ScoreReport, *, kind: Kind = "memo", page_size: str = "A4", level: int = 0
) -> ReportView:
    """Everything the templates show, for the memo (at a compaction level) or the full report."""
    limits = MEMO_LEVELS[min(level, len(MEMO_LEVELS) - 1)] if kind == "memo" else FULL_LIMITS
    winner = winner_of(report)
    as_of = as_of_date(report)
    ranking_all = [r for r in _ranking(report, winner, limits) if r.eligible]
    excluded, unverified = exclusions(report, limits)
    red, red_more = red_flags(report, limits)
    sure, confidence_line = confidence(report, winner)
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
        runner_up=_runner_up(report, winner),
        confidence=sure,
        confidence_line=confidence_line,
        key_figures=key_figures(report, winner),
        price_note=price_explanation(winner) if winner is not None else "",
        ranking=ranking_all[: limits.ranking_rows],
        ranking_more=max(0, len(ranking_all) - limits.ranking_rows),
        money=money_rows(report, winner, limits),
        buy_vs_rent=buy_vs_rent_lines(report, limits),
        cost_basis_note=cost_basis_note(report),
        exclusions=excluded[: limits.exclusions],
        exclusions_more=max(0, len(excluded) - limits.exclusions),
        unverified=unverified[: limits.exclusions],
        red_flags=red,
        red_flags_more=red_more,
        changes=what_would_change(report, winner, limits.changes),
        basis=basis_rows(report, as_of),
        inputs=input_files(report),
    )
    if kind == "full":
        names = category_order(report)
        view.category_names = [fmt.category(n) for n in names]
        view.category_scores = [
            (offer_title(o, 34), [fmt.score(o.categories.get(n)) for n in names])
            for o in _ranked(report)
        ]
        view.category_tables = category_tables(report)
        view.details = offer_details(report)
        view.estimate_headers = [label for _, label, _ in ESTIMATE_COLUMNS]
        for d in view.details:
            view.gate_names += [g for g, _, _ in d.gates if g not in view.gate_names]
        sensitivity_tables(report, view)
        for offer in _ranked(report):
            if offer.missing:
                view.missing.append((offer_title(offer, 60),
                                     ", ".join(fmt.field_label(m) for m in offer.missing)))
        view.assumptions = flatten(report.assumptions)
        view.workload = flatten(report.workload)
        view.rubric_head, view.rubric_categories, view.rubric_criteria = rubric_rows(report)
        view.not_evaluated = [e for e in excluded if e.kind == "not_evaluated"]

        view.charts = charts.build_charts(report, winner)
    return view
