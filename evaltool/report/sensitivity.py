"""How sure the recommendation is and what would change it, in words and tables."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from evaltool.models import OfferResult, ScoreReport
from evaltool.report import fmt
from evaltool.report.names import criterion_label, vendor_of
from evaltool.report.picks import _get, runner_up_of
from evaltool.report.view_model import ReportView


def what_would_change(report: ScoreReport, winner: OfferResult | None, limit: int) -> list[str]:
    """Plain-English break-evens: the decision's sentences, else built from sensitivity."""
    # The decision's sentences (decide's items, worded by report/recommend_words), with sums
    # rounded like the rest of the memo.
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
        vendor = vendor_of(report, cut.get("offer_id"), 60)
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
            f"{vendor_of(report, item.get('new_winner'), 60)} would win if the weight of "
            f"{criterion_label(report, str(item.get('criterion')))} {verb} from "
            f"{fmt.pct(now)} to {fmt.pct(then)} (other weights scaled proportionally)."
        )
    intervals = report.sensitivity.get("rank_intervals")
    if isinstance(intervals, Mapping):
        for offer_id, span in intervals.items():
            if offer_id != winner.id and isinstance(span, list) and span and span[0] == 1:
                sentences.append(
                    f"{vendor_of(report, offer_id, 60)} could rank first once its missing "
                    "data is supplied: ask before signing."
                )
    if not sentences and tie is not None:
        sentences.append(
            f"No single price cut or weight change within the tested ranges overturns the "
            f"{fmt.points(tie)} lead."
        )
    return sentences[:limit]


def confidence(report: ScoreReport, winner: OfferResult | None) -> tuple[str, str]:
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


def sensitivity_tables(report: ScoreReport, view: ReportView) -> None:
    sens = report.sensitivity
    for item in sens.get("weight_break_evens") or []:
        if isinstance(item, Mapping):
            view.break_evens.append((
                criterion_label(report, str(item.get("criterion"))),
                fmt.pct(item.get("weight_now"), 1),
                fmt.pct(item.get("weight_at_tie"), 1),
                vendor_of(report, item.get("new_winner"), 60),
            ))
    for item in sens.get("price_cut_to_win") or []:
        if isinstance(item, Mapping) and fmt.as_number(item.get("price_cut_pct")) is not None:
            view.price_cuts.append((
                vendor_of(report, item.get("offer_id"), 60),
                fmt.pct_points(item.get("price_cut_pct")),
                fmt.usd_per_gpu_hour(item.get("price_usd_per_gpu_hour_at_tie")),
            ))
    intervals = sens.get("rank_intervals")
    if isinstance(intervals, Mapping):
        for offer_id, span in intervals.items():
            if isinstance(span, Sequence) and len(span) == 2:
                text = f"{span[0]}" if span[0] == span[1] else f"{span[0]} to {span[1]}"
                view.rank_intervals.append((vendor_of(report, offer_id, 60), text))
    for item in sens.get("dominance") or []:
        if isinstance(item, Mapping):
            view.dominance.append(
                f"{vendor_of(report, item.get('dominated'), 60)} is dominated by "
                f"{vendor_of(report, item.get('dominant'), 60)} on every criterion."
            )
    questions = [q for q in sens.get("clarification_questions") or [] if isinstance(q, Mapping)]
    questions.sort(key=lambda q: -(fmt.as_number(q.get("swing_points")) or 0.0))
    for q in questions:
        view.questions.append((
            vendor_of(report, q.get("offer_id"), 60),
            fmt.field_label(q.get("field")),
            fmt.clean_text(q.get("question"), 400),
            fmt.points(q.get("swing_points")),
        ))
