"""Options written as paragraphs: a broker's e-mail or a letter pasted into one column, each
option a line that enumerates it ("Option 1 - A100 SXM4 80GB, 16 GPUs (2 x 8-GPU nodes)",
"Variante B – 4 Knoten mit je 8 H100") followed by the lines that price it ("£1.05 per
GPU-hour, 3-month minimum term").  No label marks any value, so no table reader finds the
options; each paragraph is one offer, read by the same prose readers as any note, and the
lines outside the paragraphs (greeting, validity, signature) are what the options share.

The headings must enumerate options (the same leading word with a different number or letter
each, blocks.enumerates_options) and every paragraph must state an amount of money, so a
numbered list of terms ("1. Payment ...", "2. Liability ...") stays one offer's notes.
"""

from __future__ import annotations

import re

from evaltool.errors import Problem
from evaltool.read.blocks import enumerates_options, names_an_option
from evaltool.read.cells import Candidate, RawRecord, SheetGrid, cell_text, filled_columns
from evaltool.read.layout import slug
from evaltool.read.vocabulary import Vocabulary, normalise_label

MAX_PARAGRAPH_LINES = 12  # a longer run of lines is a document's body, not one option
# An amount of money: a sign or a currency code beside a figure ("£1.05", "2,35 EUR", "zł 12").
MONEY_RE = re.compile(r"[$€£¥₩]\s?\d|\d\s?[$€£¥₩]|(?<![^\W\d_])(?:USD|EUR|GBP|CHF|AUD|CAD|JPY|"
                       r"PLN|SEK|NOK|DKK|CZK|HUF|zł|Kč)\s?\d|\d\s?(?:USD|EUR|GBP|CHF|AUD|CAD|"
                       r"JPY|PLN|SEK|NOK|DKK|CZK|HUF|zł|Kč)(?![^\W\d_])")
_ASIDE_RE = re.compile(r"\s*\([^()]*\)\s*$")  # "(2 x 8-GPU nodes, Nordic DC)" at the end


def _line(grid: SheetGrid, r: int) -> tuple[int, str] | None:
    """The one text cell of a row that holds only that cell."""
    filled = filled_columns(grid, r)
    if len(filled) != 1 or not isinstance(grid.rows[r][filled[0]], str):
        return None
    text = cell_text(grid.rows[r][filled[0]])
    return (filled[0], text) if text else None


def options_in_prose(grid: SheetGrid, vocab: Vocabulary, record: RawRecord,
                     base_id: str) -> list[RawRecord]:
    """One record per option paragraph; [] when the sheet holds fewer than two."""
    lines = {r: found for r in range(len(grid.rows)) if (found := _line(grid, r)) is not None}
    # Headings that enumerate with one word ("Option A", "Option B"); a line that only
    # looks enumerated ("USD 18,250 per node") is a paragraph's body.
    by_word: dict[str, list[int]] = {}
    for r, (_, text) in lines.items():
        if len(text) <= 240 and names_an_option(text, vocab):
            by_word.setdefault(normalise_label(text).split(" ")[0], []).append(r)
    groups = [rows for rows in by_word.values()
              if len(rows) >= 2 and enumerates_options([lines[r][1] for r in rows], vocab)]
    if not groups:
        return []
    heads = max(groups, key=len)
    paragraphs: list[list[int]] = []
    for index, r in enumerate(heads):
        stop = heads[index + 1] if index + 1 < len(heads) else len(grid.rows)
        rows = [r]
        for k in range(r + 1, min(stop, r + MAX_PARAGRAPH_LINES)):
            if k not in lines:
                break  # a blank row (or a table row) ends the paragraph
            rows.append(k)
        if not MONEY_RE.search(" ".join(lines[k][1] for k in rows)):
            return []  # a paragraph that prices nothing: a numbered list, not options
        paragraphs.append(rows)
    inside = {(grid.where(k, lines[k][0]).cell) for rows in paragraphs for k in rows}
    record.notes = [(t, w) for t, w in record.notes if w.cell not in inside]
    record.candidates = [c for c in record.candidates if c.where.cell not in inside]
    record.banners = [(t, w) for t, w in record.banners if w.cell not in inside]
    out: list[RawRecord] = []
    for rows in paragraphs:
        c, heading = lines[rows[0]]
        name = _ASIDE_RE.sub("", heading).strip() or heading
        where = grid.where(rows[0], c)
        option = RawRecord(id=f"{base_id}-{slug(name)}",
                           source={**record.source, "option": name, "row": rows[0] + 1})
        option.candidates.append(Candidate("offer name", name, where))
        option.notes.extend((lines[k][1], grid.where(k, lines[k][0])) for k in rows)
        option.problems.append(Problem(where, severity="info", code="options-in-blocks",
                                       params={"name": name}))
        out.append(option)
    return out
