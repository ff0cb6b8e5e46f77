"""Chart geometry for the full report; the SVG itself is drawn by jinja2 macros.

Why jinja2 SVG macros and not a plotting library (shared/research/ecosystem.md §2): the
text stays real text in the memo's font (tests can assert on labels, readers can copy
them), output is deterministic byte for byte, rendering takes well under a millisecond,
and there is no dependency to import (matplotlib costs 0.5-1 s and 35 MB; plotly needs
Chrome). This module does the scale arithmetic and returns plain numbers; the macros in
templates/charts.svg.j2 only draw them, with autoescaped labels.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from evaltool.models import OfferResult, ScoreReport
from evaltool.report import fmt
from evaltool.report.picks import runner_up_of

WIDTH_PX = 640  # the viewBox width; the SVG scales to the text column
ROW_PX = 16
LABEL_PX = 170
LABEL_CHARS = 30
TORNADO_LABEL_PX = 236  # the tornado's criterion names need more room than offer names
TORNADO_LABEL_CHARS = 42

# Okabe-Ito palette: distinguishable with the common colour-vision deficiencies.
CATEGORY_COLOURS = (
    "#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#999999",
)
# Rank 1 dark to rank n light: a sequential blue ramp reads as "better to worse".
RANK_COLOURS = (
    "#08306b", "#2171b5", "#4292c6", "#6baed6", "#9ecae1", "#c6dbef", "#deebf7", "#f0f0f0",
)


@dataclass(frozen=True)
class Tick:
    pos: float
    label: str


@dataclass(frozen=True)
class Point:
    x: float
    y: float
    label: str
    frontier: bool
    eligible: bool
    winner: bool
    label_left: bool


@dataclass
class Scatter:
    width: float
    height: float
    left: float
    top: float
    right: float
    bottom: float
    x_ticks: list[Tick]
    y_ticks: list[Tick]
    x_title: str
    y_title: str
    points: list[Point]
    frontier: str  # SVG polyline points
    note: str = ""


@dataclass(frozen=True)
class Segment:
    x: float
    width: float
    colour: str
    title: str
    text: str = ""
    text_colour: str = "#fff"


@dataclass(frozen=True)
class BarRow:
    y: float
    label: str
    segments: list[Segment]
    end_label: str = ""
    end_x: float = 0.0
    label_lines: tuple[str, ...] = ()  # a long label on 2-3 lines (the tornado's criteria)


@dataclass
class Bars:
    width: float
    height: float
    left: float
    right: float
    top: float
    rows: list[BarRow]
    ticks: list[Tick]
    legend: list[tuple[str, str]] = field(default_factory=list)
    zero_x: float | None = None
    axis_title: str = ""
    row_px: float = ROW_PX
    note: str = ""


def nice_step(span: float, target_ticks: int = 5) -> float:
    """A 1-2-5 step giving about target_ticks intervals over span."""
    if span <= 0 or not math.isfinite(span):
        return 1.0
    raw = span / target_ticks
    magnitude = 10 ** math.floor(math.log10(raw))
    for mult in (1, 2, 2.5, 5, 10):
        if raw <= mult * magnitude:
            return float(mult * magnitude)
    return float(10 * magnitude)


def linear_ticks(lo: float, hi: float, target: int = 5) -> tuple[float, float, list[float]]:
    """Rounded axis bounds and the tick values between them."""
    if hi <= lo:
        hi = lo + 1.0
    step = nice_step(hi - lo, target)
    start = math.floor(lo / step) * step
    stop = math.ceil(hi / step) * step
    count = round((stop - start) / step)
    return start, stop, [start + i * step for i in range(count + 1)]


def log_ticks(lo: float, hi: float) -> tuple[float, float, list[float]]:
    """Bounds on the 1-2-5 sequence around [lo, hi] and the ticks between them."""
    values = []
    for exponent in range(math.floor(math.log10(lo)) - 1, math.ceil(math.log10(hi)) + 1):
        for mult in (1, 2, 5):
            values.append(mult * 10.0**exponent)
    below = [v for v in values if v <= lo]
    above = [v for v in values if v >= hi]
    start = below[-1] if below else lo
    stop = above[0] if above else hi
    return start, stop, [v for v in values if start <= v <= stop]


class Axis:
    """Maps data values to pixels, on a linear or a log scale."""

    def __init__(self, lo: float, hi: float, px_lo: float, px_hi: float, log: bool) -> None:
        self.log = log
        self.lo, self.hi = (math.log10(lo), math.log10(hi)) if log else (lo, hi)
        self.px_lo, self.px_hi = px_lo, px_hi

    def __call__(self, value: float) -> float:
        v = math.log10(value) if self.log else value
        span = self.hi - self.lo or 1.0
        return round(self.px_lo + (v - self.lo) / span * (self.px_hi - self.px_lo), 2)


def pareto_ids(points: Sequence[tuple[str, float, float]]) -> list[str]:
    """Offers no other offer beats on both cost and time (ties do not dominate)."""
    out = []
    for oid, cost, days in points:
        dominated = any(
            c <= cost and d <= days and (c < cost or d < days) for _, c, d in points
        )
        if not dominated:
            out.append(oid)
    return out


def _tick_usd(value: float) -> str:
    """"$2M" rather than "$2.00M" on an axis: ticks are round numbers."""
    text = fmt.usd(value)
    for suffix in ("B", "M", "k"):
        if text.endswith(suffix) and "." in text:
            text = text[:-1].rstrip("0").rstrip(".") + suffix
    return text


def _short(offer: OfferResult) -> str:
    return fmt.clean_text(offer.vendor, LABEL_CHARS) or offer.id


def cost_time_scatter(report: ScoreReport, winner: OfferResult | None) -> Scatter | None:
    data = []
    for offer in report.offers:
        cost = fmt.as_number(offer.estimates.get("total_cost_usd"))
        days = fmt.as_number(offer.estimates.get("time_to_train_days"))
        if cost is not None and days is not None and cost > 0 and days > 0:
            data.append((offer, cost, days))
    if not data:
        return None
    given = report.sensitivity.get("pareto_frontier")
    frontier = (
        {str(i) for i in given}
        if isinstance(given, list) and given
        else set(pareto_ids([(o.id, c, d) for o, c, d in data]))
    )
    width, height = WIDTH_PX, 300.0
    left, right, top, bottom = 64.0, width - 20.0, 14.0, height - 42.0
    costs = [c for _, c, _ in data]
    days_all = [d for _, _, d in data]
    # A log scale keeps a cluster readable beside one outlier (a 400-day, $18M offer).
    log_x = max(costs) / min(costs) > 6
    log_y = max(days_all) / min(days_all) > 6
    if log_x:
        x_lo, x_hi, x_vals = log_ticks(min(costs), max(costs))
    else:
        x_lo, x_hi, x_vals = linear_ticks(min(costs) * 0.9, max(costs) * 1.05)
    if log_y:
        y_lo, y_hi, y_vals = log_ticks(min(days_all), max(days_all))
    else:
        y_lo, y_hi, y_vals = linear_ticks(min(days_all) * 0.9, max(days_all) * 1.05)
    x_lo, y_lo = max(x_lo, 0.0) if not log_x else x_lo, max(y_lo, 0.0) if not log_y else y_lo
    x_vals = [v for v in x_vals if v >= x_lo]
    y_vals = [v for v in y_vals if v >= y_lo]
    x_axis = Axis(x_lo if not log_x or x_lo > 0 else min(costs), x_hi, left, right, log_x)
    y_axis = Axis(y_lo if not log_y or y_lo > 0 else min(days_all), y_hi, bottom, top, log_y)
    points = []
    for offer, cost, days in sorted(data, key=lambda t: (t[1], t[2], t[0].id)):
        x, y = x_axis(cost), y_axis(days)
        points.append(Point(
            x=x, y=y, label=_short(offer), frontier=offer.id in frontier,
            eligible=offer.eligible, winner=winner is not None and offer.id == winner.id,
            label_left=x > left + (right - left) * 0.7,
        ))
    line = " ".join(f"{p.x},{p.y}" for p in points if p.frontier)
    scale = " Axes on a log scale keep close offers apart." if log_x or log_y else ""
    return Scatter(
        width=width, height=height, left=left, top=top, right=right, bottom=bottom,
        x_ticks=[Tick(x_axis(v), _tick_usd(v)) for v in x_vals if v > 0 or not log_x],
        y_ticks=[Tick(y_axis(v), fmt.number(v)) for v in y_vals if v > 0 or not log_y],
        x_title="run cost" + (" (log scale)" if log_x else ""),
        y_title="days to train" + (" (log)" if log_y else ""),
        points=points,
        frontier=line,
        note="Lower left is better. The line joins the Pareto frontier: offers no other "
        "offer beats on both cost and time. Hollow markers are excluded offers." + scale,
    )


def _bar_frame(n_rows: int) -> tuple[float, float, float, float]:
    top = 8.0
    height = top + n_rows * ROW_PX + 30.0
    return WIDTH_PX, height, LABEL_PX, WIDTH_PX - 46.0


def contribution_bars(report: ScoreReport, max_rows: int = 25) -> Bars | None:
    """Each offer's score as stacked points per category (the sum is its total score).

    The best `max_rows` offers only: more bars are unreadable on a page (and slow to lay out);
    every score is in the tables below.
    """
    ranked = sorted(report.offers, key=lambda o: (not o.eligible, o.rank, o.id))
    offers = ranked[:max_rows]
    if not offers or not any(o.criteria for o in offers):
        return None
    cats: list[str] = list(report.rubric.get("categories") or {})
    for offer in offers:
        for c in offer.criteria:
            if c.category not in cats:
                cats.append(c.category)
    cats = fmt.order_categories(cats)
    colour = {c: CATEGORY_COLOURS[i % len(CATEGORY_COLOURS)] for i, c in enumerate(cats)}
    width, height, left, right = _bar_frame(len(offers))
    axis = Axis(0.0, 100.0, left, right, log=False)
    rows = []
    for i, offer in enumerate(offers):
        sums = {c: 0.0 for c in cats}
        for c in offer.criteria:
            sums[c.category] += fmt.as_number(c.contribution) or 0.0
        x = 0.0
        segments = []
        for cat in cats:
            value = max(0.0, sums[cat])
            if value <= 0:
                continue
            x0, x1 = axis(x), axis(min(100.0, x + value))
            segments.append(Segment(x0, round(x1 - x0, 2), colour[cat],
                                    f"{fmt.category(cat)}: {fmt.score(value)} points"))
            x += value
        rows.append(BarRow(
            y=8.0 + i * ROW_PX, label=_short(offer), segments=segments,
            end_label=fmt.score(offer.score) + ("" if offer.eligible else " ✕"),
            end_x=axis(min(100.0, x)) + 4,
        ))
    return Bars(
        width=width, height=height, left=left, right=right, top=8.0, rows=rows,
        ticks=[Tick(axis(v), f"{v:.0f}") for v in range(0, 101, 20)],
        legend=[(colour[c], fmt.category(c)) for c in cats],
        axis_title="score points (0–100); ✕ = excluded by a gate",
        note=(f"The best {len(offers)} of {len(ranked)} offers; every score is in the tables "
              "below." if len(ranked) > len(offers) else ""),
    )


def _tornado_from_scores(
    report: ScoreReport, winner: OfferResult, runner: OfferResult
) -> list[tuple[str, float, float]]:
    """Margin when each criterion weight is halved and raised by half (others rescaled).

    With an additive score V = Σ c_j (c_j = w_j·v_j, weights summing to 1), scaling w_k by f
    and renormalising gives V(f) = (V + (f-1)·c_k) / (1 + (f-1)·w_k). Used only when the
    scores really are the sum of their contributions.
    """
    w_by = {c.criterion: c for c in winner.criteria}
    r_by = {c.criterion: c for c in runner.criteria}
    total_w = sum(c.weight for c in winner.criteria) or 1.0
    for offer in (winner, runner):
        if abs(sum(c.contribution for c in offer.criteria) - offer.score) > 0.5:
            return []
    out = []
    for name, cw in w_by.items():
        cr = r_by.get(name)
        if cr is None:
            continue
        share = cw.weight / total_w
        margins = []
        for f in (0.5, 1.5):
            denom = 1 + (f - 1) * share
            vw = (winner.score + (f - 1) * cw.contribution) / denom
            vr = (runner.score + (f - 1) * cr.contribution) / denom
            margins.append(vw - vr)
        out.append((fmt.field_label(name), margins[0], margins[1]))
    return out


def tornado(report: ScoreReport, winner: OfferResult | None, max_rows: int = 10) -> Bars | None:
    """The winning margin when one input moves over its range, widest swing first."""

    given = report.sensitivity.get("tornado")
    items: list[tuple[str, float, float]] = []
    note = ""
    if isinstance(given, list) and given:
        for item in given:
            if not isinstance(item, Mapping):
                continue
            name = item.get("label") or item.get("input") or item.get("criterion")
            low = fmt.as_number(item.get("low", item.get("margin_low")))
            high = fmt.as_number(item.get("high", item.get("margin_high")))
            if name is not None and low is not None and high is not None:
                items.append((fmt.field_label(name), low, high))
        note = "Margin of the winner over the runner-up as each input moves over its range."
    elif winner is not None:
        runner = runner_up_of(report, winner)
        if runner is not None:
            items = _tornado_from_scores(report, winner, runner)
            note = (
                f"Margin of {fmt.clean_text(winner.vendor, 40)} over "
                f"{fmt.clean_text(runner.vendor, 40)} when one criterion weight is halved "
                "(left end) or raised by half (right end), other weights rescaled."
            )
    margin_now = (
        winner.score - runner.score
        if winner is not None and (runner := runner_up_of(report, winner)) is not None
        else None
    )
    if not items:
        return None
    items.sort(key=lambda t: (-abs(t[2] - t[1]), t[0]))
    items = items[:max_rows]
    lo = min(0.0, *(min(a, b) for _, a, b in items))
    hi = max(0.0, *(max(a, b) for _, a, b in items))
    lo, hi, vals = linear_ticks(lo, hi, 6)
    # Criterion names are long ("Essentials missing (delivery date, uptime figure, ...)"):
    # a wider label column and two lines per label keep them readable, never cut short.
    labels = [_label_lines(fmt.clean_text(name), TORNADO_LABEL_CHARS) for name, _, _ in items]
    row_px = max(ROW_PX, 10.0 * max(len(lines) for lines in labels) + 4.0)
    width, right = WIDTH_PX, WIDTH_PX - 46.0
    left = TORNADO_LABEL_PX
    height = 8.0 + len(items) * row_px + 30.0
    axis = Axis(lo, hi, left, right, log=False)
    rows = []
    for i, (name, low, high) in enumerate(items):
        x0, x1 = axis(min(low, high)), axis(max(low, high))
        crosses = min(low, high) < 0
        rows.append(BarRow(
            y=8.0 + i * row_px, label=" ".join(labels[i]), label_lines=labels[i],
            segments=[Segment(x0, max(1.0, round(x1 - x0, 2)),
                              "#D55E00" if crosses else "#0072B2",
                              f"{name}: margin {low:.1f} to {high:.1f} points")],
            end_label=f"{low:.1f} / {high:.1f}", end_x=x1 + 4,
        ))
    if margin_now is not None:
        note += f" Today's margin: {fmt.points(margin_now)}. Orange bars would flip the decision."
    return Bars(
        width=width, height=height, left=left, right=right, top=8.0, rows=rows,
        ticks=[Tick(axis(v), f"{v:g}") for v in vals], zero_x=axis(0.0),
        axis_title="winning margin, points (below 0 the runner-up wins)", note=note,
        row_px=row_px,
    )


def _label_lines(text: str, width: int, most: int = 3) -> tuple[str, ...]:
    """`text` on at most `most` lines of about `width` characters; cut with … only beyond."""
    import textwrap

    lines = textwrap.wrap(text, width, break_long_words=True) or [""]
    if len(lines) <= most:
        return tuple(lines)
    return (*lines[: most - 1], fmt.clean_text(" ".join(lines[most - 1:]), width))


def rank_acceptability(report: ScoreReport, max_rows: int = 20) -> Bars | None:
    """Share of sampled weightings in which each offer takes each rank (SMAA-2)."""
    table = report.sensitivity.get("rank_acceptability")
    if not isinstance(table, Mapping) or not table:
        return None
    by_id = {o.id: o for o in report.offers}
    order = sorted(
        (oid for oid in table if isinstance(table[oid], list)),
        key=lambda oid: (by_id[oid].rank if oid in by_id else 10**6, oid),
    )[:max_rows]
    if not order:
        return None
    n_ranks = max(len(table[oid]) for oid in order)
    width, height, left, right = _bar_frame(len(order))
    axis = Axis(0.0, 1.0, left, right, log=False)
    rows = []
    for i, oid in enumerate(order):
        x = 0.0
        segments = []
        for r, p in enumerate(table[oid]):
            share = fmt.as_number(p) or 0.0
            if share <= 0:
                continue
            x0, x1 = axis(x), axis(min(1.0, x + share))
            colour = RANK_COLOURS[min(r, len(RANK_COLOURS) - 1)]
            text = f"{share * 100:.0f}%" if x1 - x0 > 30 else ""
            # White on the dark ranks, near-black on the light ones.
            ink = "#fff" if r < 3 else "#111"
            segments.append(Segment(x0, round(x1 - x0, 2), colour,
                                    f"rank {r + 1}: {fmt.pct(share, 1)}", text, ink))
            x += share
        label = _short(by_id[oid]) if oid in by_id else fmt.clean_text(oid, LABEL_CHARS)
        rows.append(BarRow(y=8.0 + i * ROW_PX, label=label, segments=segments))
    shown = min(n_ranks, len(RANK_COLOURS))
    legend = [(RANK_COLOURS[r], f"rank {r + 1}") for r in range(shown)]
    if n_ranks > shown:
        legend[-1] = (RANK_COLOURS[-1], f"rank {shown}+")
    samples = report.sensitivity.get("samples")
    return Bars(
        width=width, height=height, left=left, right=right, top=8.0, rows=rows,
        ticks=[Tick(axis(v / 100), f"{v}%") for v in range(0, 101, 25)], legend=legend,
        axis_title="share of sampled weightings",
        note=("Each bar splits the sampled weightings by the rank the offer takes; the dark "
              "first segment is its win probability"
              + (f" ({fmt.count(samples)} samples)." if samples else ".")),
    )


def build_charts(report: ScoreReport, winner: OfferResult | None) -> dict[str, Any]:
    return {
        "pareto": cost_time_scatter(report, winner),
        "contributions": contribution_bars(report),
        "tornado": tornado(report, winner),
        "acceptability": rank_acceptability(report),
    }
