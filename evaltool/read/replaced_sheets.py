"""A sheet that says another sheet of the workbook replaces it ("TARIFAS 2025 — ANULADA,
sustituida por 'Tarifas 2026'", "PRICE LIST 2025 — VOID, replaced by 'Prices 2026'").

Words such as "void", "anulada" or "replaced by" alone may be a condition of the current offer
("This offer is void if not signed by 31 March"): they mark a sheet as superseded only when
the same line, in the sheet's name or first rows, names another sheet of the workbook.  The
words are data (evaltool/data/replaced_sheet_words.yaml).
"""

from __future__ import annotations

import functools
import re

from evaltool.read.cells import SheetGrid, cell_text
from evaltool.read.vocabulary import normalise_label
from evaltool.resources import data_dir


@functools.cache
def _words_re() -> re.Pattern[str] | None:
    import yaml

    raw = yaml.safe_load((data_dir() / "replaced_sheet_words.yaml").read_text(encoding="utf-8"))
    words = sorted({n for w in raw.get("replaced_by_sheet", ()) if (n := normalise_label(str(w)))},
                   key=len, reverse=True)
    return re.compile(" (?:" + "|".join(re.escape(w) for w in words) + ") ") if words else None


def _naming(grid: SheetGrid, others: list[str]) -> tuple[str, str] | None:
    """(the line, the other sheet it names) when a line says another sheet replaces this."""
    pattern = _words_re()
    names = {f" {n} ": o for o in others if len(n := normalise_label(o)) >= 3}
    if pattern is None or not names:
        return None
    texts = [grid.name or ""]
    for row in grid.rows[:3]:
        texts += [cell_text(v) for v in row if isinstance(v, str)]
    for text in texts:
        low = f" {normalise_label(text)} "
        if pattern.search(low):
            named = [o for name, o in names.items() if name in low]
            if len(named) == 1:
                return text, named[0]
    return None


def replaced_sheets(grids: list[SheetGrid]) -> dict[str, str]:
    """Sheet name -> the line saying another sheet replaces it.  Two sheets that each name
    the other ("void, see 'Prices 2026'" and "replaces 'Prices 2025' (void)") say nothing
    sure: neither is skipped."""
    visible = [g.name for g in grids if g.name and not g.hidden]
    found = {g.name: hit for g in grids if g.name and not g.hidden
             and (hit := _naming(g, [n for n in visible if n != g.name])) is not None}
    return {name: text for name, (text, other) in found.items()
            if found.get(other, ("", ""))[1] != name}
