"""Text outputs of the data commands: one grammar for table, JSON, CSV, Markdown and YAML.

Every command that prints data (`score`, `normalize`, `validate`, `clauses`,
`accelerators`, `rubrics`, `rubric show`, `explain`, `market`) offers the same
`--format` choices, in the style of sqlite-utils. A command hands over its data twice:
as a JSON-ready structure (json, yaml) and as columns and rows (table, csv, markdown).

Vendor text is hostile: `terminal_safe` escapes control characters (ESC, BEL, CR,
C1 controls, bidirectional overrides) as visible ``\\uXXXX`` before any of it reaches a
terminal, a pipe or a file, so a quote cannot retitle a window, write to the clipboard or
redraw a line. The escape is valid inside JSON and YAML strings, so JSON stays parseable.
"""

from __future__ import annotations

import csv
import io
import json
import os
import shutil
from collections.abc import Sequence
from typing import Any

from evaltool.report.fmt import display_width, fit, md, neutralise, terminal_safe

FORMATS: tuple[str, ...] = ("table", "json", "csv", "markdown", "yaml")
DEFAULT_WIDTH = 100
MIN_WIDTH = 60

def use_color(stream: Any) -> bool:
    """Colour only on a terminal, and never when NO_COLOR is set (https://no-color.org)."""
    if os.environ.get("NO_COLOR"):
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def terminal_width() -> int:
    """The terminal's width (COLUMNS wins), never below MIN_WIDTH; 100 when not a terminal."""
    columns = shutil.get_terminal_size((DEFAULT_WIDTH, 24)).columns
    return max(MIN_WIDTH, columns)


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:g}" if abs(value) < 1e15 else f"{value:.6g}"
    if isinstance(value, list | tuple):
        return ", ".join(_text(v) for v in value)
    if isinstance(value, dict):
        return "; ".join(f"{k}: {_text(v)}" for k, v in value.items())
    return str(value)


def _one_line(value: Any) -> str:
    return " ".join(terminal_safe(_text(value)).split())


def to_json(data: Any) -> str:
    return json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False, default=str) + "\n"


def to_yaml(data: Any) -> str:
    import yaml

    # JSON round trip first: dates, tuples and models become plain YAML scalars and lists.
    plain = json.loads(json.dumps(data, default=str))
    return str(yaml.safe_dump(plain, sort_keys=False, allow_unicode=True, width=100))


def rows_to_csv(columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:

    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(columns)
    for row in rows:
        writer.writerow([
            v if isinstance(v, int | float) and not isinstance(v, bool)
            else neutralise(terminal_safe(_text(v)))
            for v in row
        ])
    return out.getvalue()


def rows_to_markdown(columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:

    lines = ["| " + " | ".join(md(c) for c in columns) + " |",
             "|" + "|".join("---" for _ in columns) + "|"]
    lines += ["| " + " | ".join(md(_one_line(v)) for v in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def rows_to_table(
    columns: Sequence[str], rows: Sequence[Sequence[Any]], *, width: int | None = None
) -> str:
    """An aligned plain-text table that fits `width` (the terminal's): wide text columns
    give up room first and are cut with …; numbers are right-aligned and never cut."""

    width = width or terminal_width()
    cells = [[_one_line(v) for v in row] for row in rows]
    numeric = [
        bool(rows) and all(isinstance(r[i], int | float) or r[i] is None for r in rows)
        for i in range(len(columns))
    ]
    widths = [
        max([display_width(c), *(display_width(r[i]) for r in cells)])
        for i, c in enumerate(columns)
    ]
    budget = width - 2 * (len(columns) - 1)
    while sum(widths) > budget:
        widest = max((i for i in range(len(widths)) if not numeric[i]),
                     key=lambda i: widths[i], default=None)
        if widest is None or widths[widest] <= 8:
            break
        widths[widest] -= 1

    def line(values: Sequence[str]) -> str:
        return "  ".join(
            fit(v, w, right) for v, w, right in zip(values, widths, numeric, strict=True)
        ).rstrip()

    out = [line(list(columns)), "  ".join("-" * w for w in widths)]
    out += [line(r) for r in cells]
    return "\n".join(out) + "\n"


def render(
    fmt: str,
    *,
    data: Any,
    columns: Sequence[str],
    rows: Sequence[Sequence[Any]],
    table: str | None = None,
) -> str:
    """One command's output in `fmt`. `table` replaces the generic table where a command
    has a better one (the ranked score table, the clause report)."""
    if fmt == "json":
        return to_json(data)
    if fmt == "yaml":
        return to_yaml(data)
    if fmt == "csv":
        return rows_to_csv(columns, rows)
    if fmt == "markdown":
        return rows_to_markdown(columns, rows)
    if fmt == "table":
        return table if table is not None else rows_to_table(columns, rows)
    raise ValueError(f"unknown format {fmt!r}; expected one of {', '.join(FORMATS)}")
