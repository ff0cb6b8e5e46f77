"""Find the offer in a grid of cells, whatever its layout.

A vendor sheet mixes: title rows, key-value blocks (label and value anywhere, side by side,
with a notes column), section headers ("Storage" above "Capacity"), line-item tables (a
header row with quantity and unit price), one-offer-per-row tables (a CSV of public
offers), fill-in templates (a "Field | Value" header), free-text notes and contract sheets.
This module turns any of them into `RawRecord`s: labelled values, line items, notes and
contract segments, each with the cell it came from.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from evaltool.errors import Location, Problem
from evaltool.read.cells import (
    Candidate,
    LineItem,
    RawRecord,
    SheetGrid,
    a1,
    cell_text,
    is_empty,
)
from evaltool.read.text import currency_of, first_number
from evaltool.read.vocabulary import MAX_LABEL_WORDS, Vocabulary, normalise_label

CONTRACT_SHEET_WORDS = ("contract", "terms", "agreement", "conditions", "sla", "msa", "vertrag",
                        "bedingungen", "legal", "clauses", "contrat")
_TERMS_WORDS = re.compile(r"\b(shall|will|may|must|guarantee[sd]?|commit|warrant|remedy|credit|"
                          r"terminat\w*|liabilit\w*|notice|effort|sole|exclusive|penalt\w*|renew\w*"
                          r"|agree\w*|obligat\w*|wird|muss|haftung|kündig\w*)\b", re.I)
_VALUE_HEADERS = {"value", "your value", "your offer", "offer value", "answer", "your answer",
                  "response", "vendor response", "wert", "angebot", "valeur", "reponse",
                  "your answer the contract wording", "ihre antwort", "votre reponse"}
_FIELD_HEADERS = {"field", "parameter", "attribute", "property", "question", "item", "feld",
                  "champ", "requirement", "canonical field", "label"}
# The vendor's own clause number beside its answer (the RFP template's "Clause reference").
_CLAUSE_REF_HEADERS = {"clause reference", "clause ref", "clause no", "clause number", "reference",
                       "ref", "section number", "section no", "paragraph", "klausel", "ziffer"}
_NOTE_HEADERS = {"note", "notes", "comment", "comments", "remarks", "bemerkung", "remarque"}


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "offer"


def is_contract_sheet(name: str | None) -> bool:
    if not name:
        return False
    low = normalise_label(name)
    return any(re.search(rf"\b{w}", low) for w in CONTRACT_SHEET_WORDS)


def reads_like_terms(text: str) -> bool:
    return len(text.split()) >= 6 and bool(_TERMS_WORDS.search(text))


def _is_sentence(text: str) -> bool:
    return len(text.split()) > MAX_LABEL_WORDS or len(text) > 90


# --- contract sheets ---------------------------------------------------------------------

def contract_segments(grid: SheetGrid) -> list[dict[str, Any]]:
    """Every clause of a contract sheet: the long text of a row, its clause number beside.

    A sheet with an answer column (the RFP template: topic | question | your answer) gives
    only the answers; the questions are ours, not the vendor's terms.
    """
    for r, row in enumerate(grid.rows[:10]):
        heads = {normalise_label(cell_text(v)): c for c, v in enumerate(row) if not is_empty(v)}
        answer = next((c for h, c in heads.items() if h in _VALUE_HEADERS), None)
        if answer is not None:
            topic = next((c for h, c in heads.items() if h in ("topic", "clause", "section",
                                                                "thema", "sujet")), None)
            ref = next((c for h, c in heads.items() if h in _CLAUSE_REF_HEADERS), None)
            return _answer_segments(grid, r, answer, topic, ref)
    segments: list[dict[str, Any]] = []
    for r, row in enumerate(grid.rows):
        texts = [(c, cell_text(v)) for c, v in enumerate(row) if not is_empty(v)]
        if not texts:
            continue
        c_long, longest = max(texts, key=lambda item: len(item[1]))
        if len(longest.split()) < 5:
            continue
        if len(texts) == 1 and r < 3 and not longest.rstrip().endswith((".", ";", ":")):
            continue  # the sheet's title row
        section = next((t for c, t in texts if c < c_long and len(t) <= 16), None)
        segment: dict[str, Any] = {"text": longest, "where": grid.where(r, c_long).to_dict()}
        if section:
            segment["section"] = section
        segments.append(segment)
    return segments


def _answer_segments(grid: SheetGrid, header: int, answer: int, topic: int | None,
                     ref: int | None = None) -> list[dict[str, Any]]:
    segments: list[dict[str, Any]] = []
    for r in range(header + 1, len(grid.rows)):
        text = cell_text(grid.value(r, answer))
        if not text:
            continue
        segment: dict[str, Any] = {"text": text, "where": grid.where(r, answer).to_dict()}
        if topic is not None and cell_text(grid.value(r, topic)):
            segment["section"] = cell_text(grid.value(r, topic))
        if ref is not None and cell_text(grid.value(r, ref)):
            segment["clause_ref"] = cell_text(grid.value(r, ref))
        segments.append(segment)
    return segments


# --- tables ------------------------------------------------------------------------------

def _header_roles(row: Sequence[Any], vocab: Vocabulary) -> dict[str, int]:
    roles: dict[str, int] = {}
    for c, value in enumerate(row):
        if isinstance(value, str) and value.strip() and len(value.split()) <= 5:
            role = vocab.header_role(value)
            if role and role not in roles:
                roles[role] = c
    return roles


def _is_line_item_header(roles: dict[str, int]) -> bool:
    has_price = "unit_price" in roles or "total" in roles
    has_text = "description" in roles or "unit" in roles or "part" in roles
    return "quantity" in roles and has_price and has_text and len(roles) >= 3


def _field_header(row: Sequence[Any], vocab: Vocabulary) -> dict[int, str] | None:
    """Columns of a one-offer-per-row table: >= 4 cells that are exact field labels."""
    columns: dict[int, str] = {}
    slots: set[str] = set()
    for c, value in enumerate(row):
        if not isinstance(value, str) or not value.strip():
            continue
        norm = normalise_label(value)
        slot = vocab.labels.get(norm)
        if slot is None:
            continue
        columns[c] = value.strip()
        if slot != "ignore":
            slots.add(slot)
    return columns if len(slots) >= 4 else None


def _template_header(row: Sequence[Any]) -> tuple[int, int, int | None] | None:
    """(label column, value column, note column) of a 'Field | Value | ...' header."""
    label_col = value_col = note_col = None
    for c, value in enumerate(row):
        if not isinstance(value, str):
            continue
        norm = normalise_label(value)
        if norm in _FIELD_HEADERS and label_col is None:
            label_col = c
        elif norm in _VALUE_HEADERS and value_col is None:
            value_col = c
        elif norm in _NOTE_HEADERS and note_col is None:
            note_col = c
    if label_col is not None and value_col is not None:
        return label_col, value_col, note_col
    return None


def _number(value: Any) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, str) and value.strip():
        return first_number(value)
    return None


def _line_items(grid: SheetGrid, header_row: int, roles: dict[str, int],
                record: RawRecord) -> int:
    """Read the rows under a line-item header; return the last row used."""
    header = grid.rows[header_row]
    header_currency = None
    for col in (roles.get("unit_price"), roles.get("total")):
        if col is not None:
            header_currency = header_currency or currency_of(cell_text(header[col]))
    r = header_row + 1
    missing: list[str] = []
    while r < len(grid.rows):
        qty_col, price_col = roles.get("quantity"), roles.get("unit_price")
        total_col = roles.get("total")
        desc_col = roles.get("description", roles.get("part"))
        qty = _number(grid.value(r, qty_col)) if qty_col is not None else None
        price = _number(grid.value(r, price_col)) if price_col is not None else None
        desc = cell_text(grid.value(r, desc_col)) if desc_col is not None else ""
        if qty is None and price is None and not desc:
            break
        if qty is None and price is None:
            break  # a totals or notes row below the table: left to the key-value pass
        total = _number(grid.value(r, total_col)) if total_col is not None else None
        cells = {role: grid.where(r, col) for role, col in roles.items()}
        raw = {role: cell_text(grid.value(r, col)) for role, col in roles.items()}
        if total_col is not None and (r, total_col) in grid.formula_cells_without_value:
            missing.append(a1(r, total_col))
        part = cell_text(grid.value(r, roles["part"])) if "part" in roles else ""
        if part and desc_col != roles.get("part") and not part.replace(".", "").isdigit():
            desc = f"{desc} ({part})" if desc else part
        unit = cell_text(grid.value(r, roles["unit"])) if "unit" in roles else None
        record.line_items.append(LineItem(
            row_where=Location(grid.file, sheet=grid.name, cell=f"{a1(r, 0)}:"
                               f"{a1(r, max(roles.values()))}"),
            description=desc, quantity=qty, unit=unit or None, unit_price=price, total=total,
            currency=currency_of(" ".join(raw.values())) or header_currency,
            cells=cells, raw=raw))
        r += 1
    if missing:
        record.problems.append(Problem(
            Location(grid.file, sheet=grid.name, cell=", ".join(missing)),
            "formula cells hold no calculated value (the file was saved by a program that does "
            "not compute formulas); formulas are never evaluated, so each line's total was "
            "taken as quantity x unit price", found="formula without cached value",
            expected="a number", severity="warning"))
    return r - 1


# --- key-value scan ----------------------------------------------------------------------

def _next_filled(grid: SheetGrid, r: int, c: int, width: int) -> tuple[int | None, bool]:
    """The next non-empty column right of (r, c), and whether a valueless formula came first."""
    for col in range(c + 1, width):
        if (r, col) in grid.formula_cells_without_value:
            return col, True
        if not is_empty(grid.value(r, col)):
            return col, False
    return None, False


def _key_values(grid: SheetGrid, rows: range, used: set[int], vocab: Vocabulary,
                record: RawRecord) -> None:
    section: str | None = None
    template: tuple[int, int, int | None] | None = None
    for r in rows:
        if r in used:
            section = None
            continue
        row = grid.rows[r]
        width = len(row)
        filled = [c for c in range(width) if not is_empty(row[c])]
        if not filled:
            section = None
            continue
        if template is None and (found := _template_header(row)) is not None:
            template = found
            continue
        if template is not None:
            label_col, answer_col, note_col = template
            label = cell_text(grid.value(r, label_col))
            if not label:
                continue
            value = grid.value(r, answer_col)
            note = cell_text(grid.value(r, note_col)) if note_col is not None else None
            if (r, answer_col) in grid.formula_cells_without_value:
                record.problems.append(_formula_problem(grid, r, answer_col, label))
                continue
            if is_empty(value):
                continue
            record.candidates.append(Candidate(label, value, grid.where(r, answer_col),
                                               note=note or None,
                                               label_where=grid.where(r, label_col)))
            continue
        c_index = 0
        while c_index < len(filled):
            c = filled[c_index]
            value = row[c]
            text = cell_text(value)
            if not isinstance(value, str) or _is_sentence(text):
                if isinstance(value, str) and _is_sentence(text):
                    if r <= 1 and record.title is None and len(filled) == 1:
                        record.title, record.title_where = text, grid.where(r, c)
                    record.notes.append((text, grid.where(r, c)))
                    if reads_like_terms(text):
                        record.segments.append({"text": text, "where": grid.where(r, c).to_dict(),
                                                "section": "notes"})
                c_index += 1
                continue
            slot = vocab.match(text, section)
            value_col, formula_gap = _next_filled(grid, r, c, width)
            if slot is None:
                if r <= 2 and record.title is None and len(filled) == 1:
                    record.title, record.title_where = text, grid.where(r, c)
                c_index += 1
                continue
            if value_col is None:
                below = grid.value(r + 1, c) if r + 1 < len(grid.rows) else None
                below_text = cell_text(below)
                below_is_label = isinstance(below, str) and vocab.match(below_text) is not None
                exact = normalise_label(text) in vocab.labels
                if exact and slot != "ignore" and not is_empty(below) and not below_is_label \
                        and len([x for x in grid.rows[r + 1] if not is_empty(x)]) == 1:
                    # Label above its value (a vertical pair).
                    record.candidates.append(Candidate(text, below, grid.where(r + 1, c),
                                                       section=section,
                                                       label_where=grid.where(r, c)))
                    used.add(r + 1)
                elif len(filled) == 1:
                    section = text  # "Storage" above "Capacity": a section header
                c_index += 1
                continue
            if formula_gap:
                record.problems.append(_formula_problem(grid, r, value_col, text))
                c_index = _skip_to(filled, value_col)
                continue
            if slot == "ignore":
                c_index = _skip_to(filled, value_col)
                continue
            note = None
            next_index = _skip_to(filled, value_col)
            if next_index < len(filled):
                note_col = filled[next_index]
                after = filled[next_index + 1] if next_index + 1 < len(filled) else None
                note_text = cell_text(row[note_col])
                starts_block = after is not None and vocab.match(note_text) is not None
                if not starts_block:
                    note = note_text
                    next_index += 1
            record.candidates.append(Candidate(text, row[value_col], grid.where(r, value_col),
                                               section=section, note=note,
                                               label_where=grid.where(r, c)))
            c_index = next_index


def _skip_to(filled: list[int], col: int) -> int:
    for index, c in enumerate(filled):
        if c > col:
            return index
    return len(filled)


def _formula_problem(grid: SheetGrid, r: int, c: int, label: str) -> Problem:
    return Problem(grid.where(r, c), f"'{label}': formula cell holds no calculated value; "
                   "formulas are never evaluated, so the value is taken from the offer's "
                   "other figures where they allow it", found="formula without cached value",
                   expected="a value", severity="warning")


# --- whole grids -------------------------------------------------------------------------

def read_grid(grid: SheetGrid, vocab: Vocabulary, record: RawRecord,
              base_id: str) -> list[RawRecord]:
    """Read one sheet into `record` (single offer); return extra records for a sheet that
    holds one offer per row."""
    if is_contract_sheet(grid.name):
        record.segments.extend(contract_segments(grid))
        return []
    used: set[int] = set()
    for r, row in enumerate(grid.rows):
        if r in used:
            continue
        roles = _header_roles(row, vocab)
        if _is_line_item_header(roles):
            last = _line_items(grid, r, roles, record)
            used.update(range(r, last + 1))
            continue
        columns = _field_header(row, vocab)
        if columns is not None:
            data_rows = [i for i in range(r + 1, len(grid.rows))
                         if any(not is_empty(v) for v in grid.rows[i])]
            if data_rows:
                return _offer_per_row(grid, r, columns, data_rows, record, base_id)
    _key_values(grid, range(len(grid.rows)), used, vocab, record)
    return []


def _offer_per_row(grid: SheetGrid, header_row: int, columns: dict[int, str],
                   data_rows: list[int], record: RawRecord, base_id: str) -> list[RawRecord]:
    records: list[RawRecord] = []
    for r in data_rows:
        if len(data_rows) == 1:
            target = record
        else:
            source = dict(record.source)
            source["row"] = r + 1
            target = RawRecord(id=f"{base_id}-row-{r + 1}", source=source)
            records.append(target)
        for c, label in columns.items():
            value = grid.value(r, c)
            if (r, c) in grid.formula_cells_without_value:
                target.problems.append(_formula_problem(grid, r, c, label))
                continue
            if is_empty(value):
                continue
            target.candidates.append(Candidate(label, value, grid.where(r, c),
                                               label_where=grid.where(header_row, c)))
    if records:
        record.source["rows"] = len(records)
    return records
