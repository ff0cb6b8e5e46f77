"""A note under a table of offers that states a field for each row: "Line 1 site: Dallas, TX
(DFW-3). Line 2 site: Columbus, OH (CMH-1).", "Option A Standort: Frankfurt; Option B
Standort: Berlin", "Lot 2 durée : 24 mois".  Each part belongs to the row it names (by the
row's own number, else its place in the table), not to every row the note is shared with.
"""

from __future__ import annotations

import re

from evaltool.read.cells import Candidate, RawRecord, SheetGrid, cell_text

# "Line 2 site:", "Option B Standort:", "Zeile 1 Region:", "Lot 3 durée :"
_MARK_RE = re.compile(
    r"(?:(?<=^)|(?<=[.;,]\s)|(?<=[.;,]))\s*(?i:line|row|option|lot|item|position|pos\.|zeile|"
    r"ligne|linea|línea|linia|pozycja|optie|opzione|opción|opcion|opção|variante|wariant|"
    r"položka|polozka|rad|rivi)\s+(?P<n>\d{1,2}|[A-Z])\b\s*[-–]?\s*(?P<label>[^:;.\d]{1,30}?)"
    r"\s*:\s*")


def _number(text: str) -> int | None:
    if text.isdigit():
        return int(text)
    if len(text) == 1 and text.isalpha() and text.isupper():
        return ord(text) - ord("A") + 1
    return None


def _row_number(grid: SheetGrid, r: int, place: int) -> int:
    """The row's own line number ('1 – Training', 'A', 2), else its place in the table."""
    first = next((v for v in grid.rows[r] if cell_text(v).strip()), None)
    lead = re.match(r"\s*(\d{1,2}|[A-Z])(?![\w])", cell_text(first)) if first is not None \
        else None
    number = _number(lead.group(1)) if lead else None
    return number if number is not None else place


def parts_by_row(text: str) -> list[tuple[int, str, str]]:
    """(row number, label, value) for each marked part of a text; [] unless it names two or
    more rows (one marked part is a note about one line, read as it is)."""
    marks = list(_MARK_RE.finditer(text))
    if len(marks) < 2:
        return []
    parts: list[tuple[int, str, str]] = []
    for i, mark in enumerate(marks):
        end = marks[i + 1].start() if i + 1 < len(marks) else len(text)
        value = text[mark.end():end].strip().rstrip(".;,").strip()
        number = _number(mark.group("n"))
        if number is None or not value:
            return []
        parts.append((number, mark.group("label").strip(), value))
    return parts


def notes_by_row(grid: SheetGrid, data_rows: list[int], rows: list[RawRecord],
                 record: RawRecord) -> None:
    """Move each marked part of the shared cells below a table to the row it names."""
    if len(rows) != len(data_rows):
        return
    numbers = {_row_number(grid, r, place): target
               for place, (r, target) in enumerate(zip(data_rows, rows, strict=True), start=1)}
    if len(numbers) != len(rows):
        return
    kept: list[Candidate] = []
    for cand in record.candidates:
        if cand.where.sheet != grid.name or not isinstance(cand.value, str):
            kept.append(cand)
            continue
        parts = parts_by_row(f"{cand.label}: {cand.value}")
        if not parts or any(n not in numbers for n, _, _ in parts):
            kept.append(cand)
            continue
        for number, label, value in parts:
            numbers[number].candidates.append(Candidate(
                label, value, cand.where, note=f"stated for line {number} in a note "
                f"under the table", label_where=cand.label_where))
    record.candidates[:] = kept
