"""The ranked table `evaltool score` prints when there is no -o (fits 100 columns)."""

from __future__ import annotations

import unicodedata
from typing import TYPE_CHECKING

from evaltool.report import fmt

if TYPE_CHECKING:
    from evaltool.models import ScoreReport

WIDTH = 100
# (header, width, right-aligned); the last column takes what is left of WIDTH.
COLUMNS: tuple[tuple[str, int, bool], ...] = (
    ("#", 2, True),
    ("Vendor / offer", 28, False),
    ("Score", 5, True),
    ("Elig", 4, False),
    ("Total cost", 10, True),
    ("Days", 8, True),
    ("$/GPU-h", 7, True),
    ("MFU", 4, True),
)
FLAG_WIDTH = WIDTH - sum(w for _, w, _ in COLUMNS) - len(COLUMNS)


def _char_width(ch: str) -> int:
    if unicodedata.combining(ch):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def display_width(text: str) -> int:
    return sum(_char_width(ch) for ch in text)


def fit(text: str, width: int, right: bool = False) -> str:
    """`text` cut (with …) or padded to exactly `width` terminal cells."""
    text = fmt.clean_text(text)
    if display_width(text) > width:
        out, used = "", 0
        for ch in text:
            w = _char_width(ch)
            if used + w > width - 1:
                break
            out += ch
            used += w
        text = out + "…"
    pad = " " * (width - display_width(text))
    return pad + text if right else text + pad


def terminal_table(report: ScoreReport, *, color: bool) -> str:
    """Rank, vendor/offer, score, eligible, total cost, days, $/GPU-h, MFU and the top flag."""
    import click

    from evaltool.report.view import (
        SEVERITY_ORDER,
        _exclusions,
        _ranked,
        build_view,
        is_red_flag,
        winner_of,
    )

    def style(text: str, **kwargs: object) -> str:
        return click.style(text, **kwargs) if color else text  # type: ignore[arg-type]

    winner = winner_of(report)
    header = " ".join(fit(h, w, r) for h, w, r in COLUMNS) + " " + fit("Top flag", FLAG_WIDTH)
    lines = [style(header, bold=True), "─" * WIDTH]
    for offer in _ranked(report):
        est = offer.estimates
        vendor = fmt.clean_text(offer.vendor) or offer.id
        name = fmt.clean_text(offer.offer_name)
        red = sorted(
            (f for f in offer.flags if is_red_flag(f.kind, f.severity)),
            key=lambda f: SEVERITY_ORDER.get(f.severity, 9),
        )
        cells = [
            str(offer.rank),
            f"{vendor} / {name}" if name else vendor,
            fmt.score(offer.score),
            "yes" if offer.eligible else "no",
            fmt.usd(est.get("total_cost_usd")),
            fmt.days(est.get("time_to_train_days")).replace(" days", " d").replace(" day", " d"),
            fmt.usd_plain(est.get("effective_usd_per_gpu_hour")),
            fmt.pct(est.get("mfu")),
        ]
        row = " ".join(fit(c, w, r) for c, (_, w, r) in zip(cells, COLUMNS, strict=True))
        flag = fit(f"{red[0].severity}: {fmt.label(red[0].kind)}" if red else "", FLAG_WIDTH)
        if red and red[0].severity == "high":
            flag = style(flag, fg="red")
        line = f"{row} {flag}".rstrip()
        if winner is not None and offer.id == winner.id:
            line = style(f"{row} ", fg="green", bold=True) + flag.rstrip()
        elif not offer.eligible:
            line = style(line, dim=True)
        lines.append(line)
    lines.append("─" * WIDTH)
    view = build_view(report, kind="memo")
    lines += _wrap(view.headline)
    if view.confidence_line:
        lines += _wrap(f"Confidence {view.confidence}: {view.confidence_line}")
    excluded, _ = _exclusions(report, view.limits)
    for item in excluded:
        # Inputs not evaluated are named only: the CLI prints their errors on stderr.
        text = (f"not evaluated: {item.name}" if item.kind == "not_evaluated"
                else f"excluded: {item.name} — {'; '.join(item.reasons)}")
        lines += [style(line, fg="yellow") for line in _wrap(text, indent="    ")]
    return "\n".join(lines) + "\n"


def _wrap(text: str, indent: str = "") -> list[str]:
    import textwrap

    return textwrap.wrap(fmt.clean_text(text), WIDTH, subsequent_indent=indent,
                         break_long_words=True, break_on_hyphens=False) or [""]
