"""The ranked table `evaltool score` prints: fits the terminal's width (100 columns off a
terminal), coloured only on a terminal without NO_COLOR (the CLI decides `color`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from evaltool.report import fmt
from evaltool.report.flags import short_reason, top_red_flag
from evaltool.report.fmt import display_width, fit, terminal_safe
from evaltool.report.picks import _ranked, winner_of
from evaltool.report.view import build_view, exclusions

if TYPE_CHECKING:
    from evaltool.models import ScoreReport

WIDTH = 100  # off a terminal, and the default
MIN_FLAG_WIDTH = 12  # narrower than this, the top-flag column is left out
# (header, width, right-aligned); the last column takes what is left of WIDTH. Numbers are
# formatted to fit these widths (fmt.price, fmt.usd); should one still not fit, its column
# widens and the vendor column gives up the room: a number is never cut.
COLUMNS: tuple[tuple[str, int, bool], ...] = (
    ("#", 2, True),
    ("Vendor / offer", 27, False),
    ("Score", 5, True),
    ("Elig", 4, False),
    ("Run cost", 8, True),
    ("Days", 6, True),
    ("$/GPU-h", 7, True),
    ("MFU", 4, True),
)
NAME_COLUMN = 1
MIN_NAME_WIDTH = 16


def _widths(rows: list[list[str]]) -> list[int]:
    """Column widths: each number column as wide as its widest value, the name column less."""
    widths = [w for _, w, _ in COLUMNS]
    for i, (_, _, right) in enumerate(COLUMNS):
        if right:
            widths[i] = max([widths[i], *(display_width(r[i]) for r in rows)])
    extra = sum(widths) - sum(w for _, w, _ in COLUMNS)
    widths[NAME_COLUMN] = max(MIN_NAME_WIDTH, widths[NAME_COLUMN] - extra)
    return widths


def terminal_table(report: ScoreReport, *, color: bool, width: int = WIDTH) -> str:
    """Rank, vendor/offer, score, eligible, run cost, days, $/GPU-h, MFU and the top flag."""
    import click


    def style(text: str, **kwargs: object) -> str:
        return click.style(text, **kwargs) if color else text  # type: ignore[arg-type]

    if not report.offers:
        return _nothing_evaluated(report, style, width)
    winner = winner_of(report)
    offers = _ranked(report)
    rows: list[list[str]] = []
    for offer in offers:
        est = offer.estimates
        vendor = fmt.clean_text(offer.vendor) or offer.id
        name = fmt.offer_name(vendor, offer.offer_name)
        rows.append([
            str(offer.rank),
            f"{vendor} / {name}" if name else vendor,
            fmt.score(offer.score),
            "yes" if offer.eligible else "no",
            fmt.usd(est.get("total_cost_usd")),
            fmt.days(est.get("time_to_train_days")).replace(" days", " d").replace(" day", " d"),
            fmt.price(est.get("effective_usd_per_gpu_hour")),
            fmt.pct(est.get("mfu")),
        ])
    widths = _widths(rows)
    flag_width = width - sum(widths) - len(widths)
    if flag_width < MIN_FLAG_WIDTH:
        flag_width = 0
    header = (" ".join(fit(h, w, r) for (h, _, r), w in zip(COLUMNS, widths, strict=True))
              + " " + (fit("Top flag", flag_width) if flag_width else "")).rstrip()
    rule = "─" * max(width if flag_width else display_width(header), 1)
    lines = [style(header, bold=True), rule]
    for offer, cells in zip(offers, rows, strict=True):
        worst = top_red_flag(offer)
        row = " ".join(
            fit(c, w, r) for c, w, (_, _, r) in zip(cells, widths, COLUMNS, strict=True)
        )
        flag = fit(f"{worst.severity}: {short_reason(offer, worst)}" if worst and flag_width
                   else "", flag_width)
        if worst is not None and worst.severity == "high":
            flag = style(flag, fg="red")
        line = f"{row} {flag}".rstrip()
        if winner is not None and offer.id == winner.id:
            line = style(f"{row} ", fg="green", bold=True) + flag.rstrip()
        elif not offer.eligible:
            line = style(line, dim=True)
        lines.append(line)
    lines.append(rule)
    view = build_view(report, kind="memo")
    lines += _wrap(view.headline, width=width)
    if view.runner_up:
        lines += _wrap(view.runner_up, width=width)
    if view.confidence_line:
        lines += _wrap(f"Confidence {view.confidence}: {view.confidence_line}", width=width)
    excluded, _ = exclusions(report, view.limits)
    for item in excluded:
        # Inputs not evaluated are named only: the CLI prints their errors on stderr.
        text = (f"not evaluated: {item.name}" if item.kind == "not_evaluated"
                else f"excluded: {item.name} — {'; '.join(item.reasons)}")
        lines += [style(line, fg="yellow") for line in _wrap(text, indent="    ", width=width)]
    return "\n".join(lines) + "\n"


def _nothing_evaluated(report: ScoreReport, style: Any, width: int) -> str:
    """No offer could be scored: say so and name every input, never an empty ranking."""
    count = len(report.not_evaluated)
    lines = [style(f"No offer could be evaluated ({count} input"
                   f"{'' if count == 1 else 's'} not evaluated):", bold=True)]
    for item in report.not_evaluated:
        reasons = "; ".join(
            str(e.get("text") or e.get("message") or "") if isinstance(e, dict) else str(e)
            for e in item.errors
        )
        text = f"not evaluated: {item.source.get('file', '?')}" + (f" — {reasons}"
                                                                   if reasons else "")
        lines += [style(line, fg="yellow") for line in _wrap(text, indent="    ", width=width)]
    return "\n".join(lines) + "\n"


def _wrap(text: str, indent: str = "", width: int = WIDTH) -> list[str]:
    import textwrap

    return textwrap.wrap(terminal_safe(fmt.clean_text(text)), width, subsequent_indent=indent,
                         break_long_words=True, break_on_hyphens=False) or [""]
