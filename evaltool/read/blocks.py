"""Options stacked down a sheet as line-item tables, each under its own heading.

A quote often lists its options one under the other, each as its own small line-item table
("OPCIÓN 1 — 16 nodos" over a concept table, then "OPCIÓN 2 — 32 nodos" over another).
Which tables are options is read from their headings, never from the words of one file.
"""

from __future__ import annotations

import re

from evaltool.read.cells import LineItem, RawRecord, SheetGrid, cell_text, is_empty
from evaltool.read.text import basis_per, billing_unit
from evaltool.read.vocabulary import Vocabulary, normalise_label

# A heading may open with a bracket or a bullet ("【プランA】", "[Option 2]", "■ Lot 1").
_ENUMERATED_RE = re.compile(r"^\s*[【\[(（「『■□●◆◇▶•*]?\s*"
                            r"(?P<word>[^\W\d_]+)\.?\s*(?:no\.?\s*|n[º°]\s*|#\s*)?"
                            r"(?P<mark>\d{1,2}|(?<![A-Za-z\u00C0-\u024F])(?:[IVX]{1,4}|[A-Z]))"
                            r"\b(?!\s*[x×*]\s*\d)")  # a letter mark ends no Latin word: "プランB",
# never "APPENNIN|O"


def names_an_option(text: str, vocab: Vocabulary) -> bool:
    """'OPTION 2 - 3-YEAR', 'Varianta B', 'Lot 1 — Training': a heading that could name one
    of several options (enumerates_options decides whether several do)."""
    return bool(_ENUMERATED_RE.match(text)) or vocab.header_role(
        re.split(r"\s[-–—:]\s", text)[0][:40]) == "group"


def clauses_for_option(text: str, option: str | None) -> str:
    """'Delivery: Lot 1 – 02/03/2026; Lot 2 – 01/04/2026', shared by both lots: for the offer
    of Lot 2, 'Delivery: Lot 2 – 01/04/2026'.  A sentence whose clauses each name an option
    states each clause for its option only; any other text is returned whole."""
    head, sep, body = text.partition(":")
    for lead, rest in ((f"{head}{sep} ", body), ("", text)) if sep else (("", text),):
        parts = [p.strip() for p in re.split(r"\s*;\s*", rest.strip().rstrip(".")) if p.strip()]
        marks = [_ENUMERATED_RE.match(p) for p in parts]
        if len(parts) < 2 or not all(marks) or len(
                {normalise_label(m.group("word")) for m in marks if m}) != 1 or len(
                {m.group("mark").upper() for m in marks if m}) != len(parts):
            continue  # one option word, a different mark each: an enumeration
        own = _ENUMERATED_RE.match(option or "")
        if own is None or normalise_label(own.group("word")) != normalise_label(
                marks[0].group("word") if marks[0] else ""):
            return text if option is None else lead.rstrip()
        keep = [p for p, m in zip(parts, marks, strict=True)
                if m and m.group("mark").upper() == own.group("mark").upper()]
        return f"{lead}{'; '.join(keep)}" if keep else lead.rstrip()
    return text


def names_another_option(text: str, option: str | None) -> bool:
    """'OPCIÓN 2 — 32 nodos (256 aceleradores)' in the record of 'OPCIÓN 1 — 16 nodos': a
    heading of another option (same word, another number or letter), whose counts and
    terms are that option's."""
    theirs, own = _ENUMERATED_RE.match(text), _ENUMERATED_RE.match(option or "")
    if theirs is None or own is None:
        return False
    return normalise_label(theirs.group("word")) == normalise_label(own.group("word")) and \
        theirs.group("mark").upper() != own.group("mark").upper()


def enumerates_options(headings: list[str], vocab: Vocabulary) -> bool:
    """'OPCIÓN 1 — …', 'OPCIÓN 2 — …' (one leading word, a different number or letter
    each), or headings that each start with an option word ('Variant', 'Lot', 'Plan')."""
    if len(headings) < 2:
        return False
    marks = [_ENUMERATED_RE.match(text) for text in headings]
    words = {normalise_label(m.group("word")) for m in marks if m is not None}
    if all(m is not None for m in marks) and len(words) == 1 and len(
            {m.group("mark").upper() for m in marks if m is not None}) == len(marks):
        return True
    return all(vocab.header_role(re.split(r"\s[-–—:]\s", text)[0][:40]) == "group"
               for text in headings)


def _table_heading(grid: SheetGrid, header_row: int) -> tuple[int, int, str] | None:
    """The one-cell row just above a line-item table (a blank row may sit between)."""
    for r in range(header_row - 1, max(-1, header_row - 3), -1):
        filled = [(c, v) for c, v in enumerate(grid.rows[r]) if not is_empty(v)]
        if not filled:
            continue
        if len(filled) == 1 and isinstance(filled[0][1], str):
            return r, filled[0][0], cell_text(filled[0][1])
        return None
    return None


def tables_as_options(grid: SheetGrid, vocab: Vocabulary, record: RawRecord,
                       tables: list[tuple[int, int]]) -> None:
    """Options stacked down a sheet as line-item tables, each under its own heading
    ("OPCIÓN 1 — 16 nodos", "Varianta 2 – smlouva na 2 roky", "Option B"): the lines of
    each table are that option's (read as groups, one offer each).  The headings must
    enumerate options — the same leading word with a different number or letter, or an
    option word — so "Hardware" over "Services" stays one offer."""
    bounds = [start for _, start in tables] + [len(record.line_items)]
    for index in range(len(tables)):
        _alternatives_in_table(record.line_items[bounds[index]:bounds[index + 1]])
    if len(tables) < 2:
        return
    headings = [_table_heading(grid, r) for r, _ in tables]
    if any(h is None for h in headings):
        return
    named = [h for h in headings if h is not None]
    if not enumerates_options([text for _, _, text in named], vocab):
        return
    bounds = [start for _, start in tables] + [len(record.line_items)]
    for index, (r, c, text) in enumerate(named):
        for item in record.line_items[bounds[index]:bounds[index + 1]]:
            item.raw["group"] = text
            item.cells.setdefault("group", grid.where(r, c))


def _compute_basis(item: LineItem) -> tuple[str, ...] | None:
    for text in (item.raw.get("unit_price", ""), item.unit or ""):
        kind = billing_unit(text) if text else None
        if kind is not None and basis_per(kind) is not None:
            return basis_per(kind)
    return None


def _alternatives_in_table(items: list[LineItem]) -> None:
    """Rows of one table that each price the same whole capacity by time ("256 | chip-hour |
    ¥405" on-demand, "256 | chip-hour | ¥255" 1-year commitment): alternatives, one offer
    each; adding them would double the capacity.  The other lines (storage, support) are
    shared by every alternative."""
    # (a line priced "included" or "—" is part of every alternative, never one itself)
    compute = [item for item in items if _compute_basis(item) is not None
               and item.quantity and not item.raw.get("group")
               and (item.unit_price or item.total)]
    if len(compute) < 2 or len({(item.quantity, _compute_basis(item)) for item in compute}) != 1:
        return
    if len({item.description for item in compute}) != len(compute) or len(
            {item.unit_price for item in compute}) != len(compute):
        return
    for item in compute:
        item.raw["group"] = item.description
