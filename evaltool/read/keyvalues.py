"""Label | value pairs wherever a sheet puts them: side by side with a notes column, a label
above its value, "Label: value" in one cell, rows under a "Field | Unit | Value | Notes"
header, prices in a column whose header states the basis ("€ per GPU-uur"); section headers
("Storage" above "Capacity") and headings over blocks side by side name what the labels
belong to, and sentences become notes. layout.py finds the tables; this reads the rest."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from evaltool.errors import Problem
from evaltool.read.basis_labels import basis_price_label
from evaltool.read.cells import (
    Candidate,
    RawRecord,
    SheetGrid,
    cell_text,
    filled_columns,
    is_empty,
)
from evaltool.read.company_names import is_company_name
from evaltool.read.headers import FIELD_HEADERS as _FIELD_HEADERS
from evaltool.read.headers import NO_UNIT as _NO_UNIT
from evaltool.read.headers import NOTE_HEADERS as _NOTE_HEADERS
from evaltool.read.headers import SECTION_HEADERS as _SECTION_HEADERS
from evaltool.read.headers import SPEC_VALUE_HEADERS as _SPEC_VALUE_HEADERS
from evaltool.read.headers import UNIT_HEADERS as _UNIT_HEADERS
from evaltool.read.headers import VALUE_HEADERS as _VALUE_HEADERS
from evaltool.read.margins import block_headings
from evaltool.read.rows import formula_problem
from evaltool.read.text import billing_unit, currency_of, labels_a_price
from evaltool.read.vocabulary import MAX_LABEL_WORDS, Vocabulary, normalise_label

_TERMS_WORDS = re.compile(r"\b(shall|will|may|must|guarantee[sd]?|commit|warrant|remedy|credit|"
                          r"terminat\w*|liabilit\w*|notice|effort|sole|exclusive|penalt\w*|renew\w*"
                          r"|agree\w*|obligat\w*|wird|muss|haftung|kündig\w*)\b", re.I)


# A form's clause number: "2.", "2.1", "3.1.4", "§ 4", "a)", "IV.", "(b)".
_CLAUSE_NUMBER_RE = re.compile(r"\s*(?:\d{1,2}(?:\.\d{1,2}){0,3}\.?|§\s*\d{1,3}|\(?[a-z]\)|"
                               r"[IVX]{1,4}\.)\s*")


def reads_like_terms(text: str) -> bool:
    return len(text.split()) >= 6 and bool(_TERMS_WORDS.search(text))


def _is_sentence(text: str) -> bool:
    if len(text) <= 90 and len(text.split()) <= MAX_LABEL_WORDS:
        return False
    # "Managed service (monitoring, remote hands) – included in TCO": an aside in brackets
    # does not make a label a sentence.
    bare = re.sub(r"\([^()]*\)", " ", text) if "(" in text else text
    if re.search(r"\d|[.:;]\s", bare):
        return True  # a figure or a full stop outside the brackets: a statement
    return len(bare.split()) > MAX_LABEL_WORDS or len(bare) > 90


def _template_header(row: Sequence[Any]) -> tuple[int, int, int | None, int | None] | None:
    """(label, value, note, unit column) of a 'Field | Unit | Value | Notes' header."""
    label_col = value_col = note_col = unit_col = spec_col = None
    for c, value in enumerate(row):
        if not isinstance(value, str):
            continue
        norm = normalise_label(value)
        if norm in _FIELD_HEADERS and label_col is None:
            label_col = c
        elif norm in _VALUE_HEADERS and value_col is None:
            value_col = c
        elif norm in _SPEC_VALUE_HEADERS and value_col is None and spec_col is None:
            spec_col = c
        elif norm in _NOTE_HEADERS and note_col is None:
            note_col = c
        elif norm in _UNIT_HEADERS and unit_col is None:
            unit_col = c
    if value_col is None and unit_col is not None:
        value_col = spec_col
    if label_col is not None and value_col is not None:
        return label_col, value_col, note_col, unit_col
    return None


def template_header_at(grid: SheetGrid, r: int
                       ) -> tuple[int, int, int | None, int | None] | None:
    """`_template_header` of row r, worked out once per grid: the layout's table scan, its
    options scan and the key-value scan all ask it of the same rows."""
    memo = grid.found.setdefault("template_header", {})
    if r not in memo:
        memo[r] = _template_header(grid.rows[r])
    return memo[r]  # type: ignore[no-any-return]


def with_unit(value: Any, unit: Any) -> Any:
    """A value and the unit a separate column gives it: (31.2, 'USD per instance-hour') ->
    '31.2 USD per instance-hour'.  Placeholder units ('—', 'count') add nothing."""
    unit_text = cell_text(unit)
    if is_empty(value) or normalise_label(unit_text) in _NO_UNIT or not unit_text.strip(" -\u2014"):
        return value
    text = cell_text(value)
    if unit_text.lower() in text.lower():
        return value
    return f"{text} {unit_text}"


_REQUIREMENT_CUT = re.compile(r"\s*(?:[<>=≥≤]|\bat\s+least\b|\bminimum\b|\bno\s+more\b|"
                              r"\bor\s+(?:better|newer|faster)\b|\d)", re.I)
_COLON_RE = re.compile(r"^\s*([^:\d][^:]{0,60}?)\s*:\s+(\S.*)$", re.S)
_LIST_MARK_RE = re.compile(r"^\s*(?:\d{1,2}[.)]|[•▪*–※-])\s*")
_DIGIT_RE = re.compile(r"\d")


def label_value_in_cell(text: str, vocab: Vocabulary, section: str | None = None
                        ) -> tuple[str, str] | None:
    """'Delivery date: 2027-05-10' / 'Tarif : 1,10 € par heure GPU' -> (label, value) when
    the part before the colon is a known label."""
    if ":" not in text:
        return None  # most cells: no colon, no "Label: value"
    # "1. Rated power per node: 11.5 kW", "• Payment: ...": a list mark is not the label
    match = _COLON_RE.match(_LIST_MARK_RE.sub("", text))
    if match is None:
        return None
    label, value = match.group(1).strip(), match.group(2).strip()
    if len(label.split()) > 5 or re.search(r"\s[-–—|·]\s", label):
        return None  # "Acme Cloud - Committed Use Quote: TPU v5p" is a title, not a label
    slot = vocab.match(label, section)
    if slot is None or slot == "ignore" or not value:
        return None
    # "Location: Slough, UK. Nodes ready week commencing 9 March": the label's value is its
    # first sentence; the next one is a note of its own (the whole line stays a note).
    return label, _SENTENCE_END_RE.split(value, maxsplit=1)[0]


# "Quantity: 32 VMs · Region: East US 2", "Fecha: 18/11/2026    Validez: hasta el 15 de
# enero de 2027" (pairs set apart by a run of spaces)
_SEPARATED_RE = re.compile(r"\s[·|•]\s|\s{3,}")
_SENTENCE_END_RE = re.compile(r"(?<=\w\w)\.\s+(?=[A-Z][a-z]+\s+\w)")


# --- key-value scan ----------------------------------------------------------------------

def _next_filled(grid: SheetGrid, r: int, c: int, width: int) -> tuple[int | None, bool]:
    """The next non-empty column right of (r, c), and whether a valueless formula came first."""
    for col in range(c + 1, width):
        if (r, col) in grid.formula_cells_without_value:
            return col, True
        if not is_empty(grid.value(r, col)):
            return col, False
    return None, False


class _KeyValueScan:
    """The state of one scan down a block of rows: the section a header row opened, the
    headings over blocks side by side, a "Field | Value" header once found."""

    def __init__(self, grid: SheetGrid, vocab: Vocabulary, record: RawRecord, used: set[int],
                 basis: dict[int, tuple[int, str]]) -> None:
        self.grid, self.vocab, self.record, self.used, self.basis = (
            grid, vocab, record, used, basis)
        self.section: str | None = None
        self.template: tuple[int, int, int | None, int | None] | None = None
        self.section_col: int | None = None
        self.col_sections: dict[int, str] = {}

    def row(self, r: int) -> None:
        grid, record, basis = self.grid, self.record, self.basis
        if r in self.used:
            self.section = None
            return
        row = grid.rows[r]
        filled = list(filled_columns(grid, r))
        if not filled:
            self.section = None
            self.col_sections = {}
            return
        if len(filled) >= 3 and _CLAUSE_NUMBER_RE.fullmatch(cell_text(row[filled[0]])) and \
                isinstance(row[filled[1]], str) and isinstance(row[filled[0]], str):
            # "2.2 | Okres przydziału | 01.02.2026 – 31.07.2026": a form's clause number
            # before the label is no label; the label and value are read as in any other row
            filled = filled[1:]
        if block_headings(grid, r, filled):
            # "CUSTOMER | | | PROVIDER | | | DATES": one heading over each block of label |
            # value pairs side by side; each block's labels are read under its heading.
            self.col_sections = {c: cell_text(row[c]) for c in filled}
            return
        priced = [c for c in filled if c in basis and r > basis[c][0]]
        if priced and len(priced) < len(filled):
            # "Servers | 16 servers ... | € 1,79" under a "€ per GPU-uur" column: the column
            # header gives the price its basis; the row's first text names what is priced.
            row_label = next((cell_text(row[c]) for c in filled if isinstance(row[c], str)),
                             None)
            for c in priced:
                record.candidates.append(Candidate(
                    f"price ({basis[c][1]})", row[c], grid.where(r, c), note=row_label,
                    label_where=grid.where(basis[c][0], c)))
            filled = [c for c in filled if c not in priced]
        if any(r == header_row for header_row, _ in basis.values()):
            return  # the header row of the priced columns ("Onderdeel | € per GPU-uur")
        if self.template is None and (found := template_header_at(grid, r)) is not None:
            self.template = found
            self.section_col = next((c for c in filled if c < found[0] and normalise_label(
                cell_text(row[c])) in _SECTION_HEADERS), None)
            return
        if self.template is not None:
            self._template_row(r, filled, self.template)
            return
        index = 0
        while index < len(filled):
            index = self._cell(r, index, filled)

    def _template_row(self, r: int, filled: list[int],
                      template: tuple[int, int, int | None, int | None]) -> None:
        """A row under a "Field | Unit | Value | Notes" header."""
        grid, record, vocab = self.grid, self.record, self.vocab
        row = grid.rows[r]
        label_col, answer_col, note_col, unit_col = template
        label = cell_text(grid.value(r, label_col))
        if not label:
            for c in filled:  # a sentence beside the table ("Valid until 10 April 2027.")
                text = cell_text(row[c])
                if isinstance(row[c], str) and _is_sentence(text):
                    record.notes.append((text, grid.where(r, c)))
            return
        value = grid.value(r, answer_col)
        note = cell_text(grid.value(r, note_col)) if note_col is not None else None
        if (r, answer_col) in grid.formula_cells_without_value:
            record.problems.append(formula_problem(grid, r, answer_col, label))
            return
        if is_empty(value):
            # Below the table: one-cell "Label: value" lines and footnotes.
            pair = label_value_in_cell(label, vocab)
            if pair is not None:
                record.candidates.append(Candidate(pair[0], pair[1],
                                                   grid.where(r, label_col),
                                                   label_where=grid.where(r, label_col)))
            if _is_sentence(label) or pair is not None:
                record.notes.append((label, grid.where(r, label_col)))
            return
        if unit_col is not None:
            value = with_unit(value, grid.value(r, unit_col))
        if vocab.match(label) is None:
            # A requirement sentence ("Accelerator: H100 or newer, at least 256 GPUs",
            # "Inter-node fabric >= 400 Gb/s per GPU"): the part before a colon or a
            # comparison is the label, else its leading words.
            head = label.split(":", 1)[0] if ":" in label else _REQUIREMENT_CUT.split(
                label, maxsplit=1)[0]
            if not head.strip() or vocab.match(head) is None:
                head = " ".join(label.split()[:4]) if _is_sentence(label) else label
            label = head.strip()
        section_col = self.section_col
        group = cell_text(grid.value(r, section_col)) if section_col is not None else ""
        record.candidates.append(Candidate(label, value, grid.where(r, answer_col),
                                           section=group or None, note=note or None,
                                           label_where=grid.where(r, label_col)))

    def _cell(self, r: int, index: int, filled: list[int]) -> int:
        """Read the cell filled[index] of a row without a template header; return the index
        of the next cell to read (past the value and the note it took)."""
        grid, record, vocab = self.grid, self.record, self.vocab
        row = grid.rows[r]
        c = filled[index]
        value = row[c]
        text = cell_text(value)
        # the heading over this block of a grid of blocks ("PROVIDER" over "Legal entity")
        # (only where the heading and the label make a known label together: "Account
        # exec" under "PROVIDER" is no vendor)
        block = next((h for k, h in sorted(self.col_sections.items(), reverse=True) if k <= c),
                     None) if self.col_sections else None
        sec = block if block and normalise_label(f"{block} {text}") in vocab.labels \
            else self.section
        if self._pairs_in_cell(r, c, filled, sec):
            return index + 1
        if not isinstance(value, str) or (_is_sentence(text) and not (
                len(filled) == 2 and row[filled[0]] == text
                and labels_a_price(text, cell_text(row[filled[1]])))):
            if isinstance(value, str) and _is_sentence(text):
                if r <= 1 and record.title is None and len(filled) == 1:
                    record.title, record.title_where = text, grid.where(r, c)
                record.notes.append((text, grid.where(r, c)))
                if reads_like_terms(text):
                    record.segments.append({"text": text, "where": grid.where(r, c).to_dict(),
                                            "section": "notes"})
            return index + 1
        slot = vocab.match(text, sec)
        value_col, formula_gap = _next_filled(grid, r, c, len(row))
        if slot is None:
            if self._unknown_label(r, c, filled, sec, value_col, formula_gap):
                return index + 2  # past the value read by its shape
            return index + 1
        if value_col is None:
            self._label_alone(r, c, filled, sec, slot)
            return index + 1
        if formula_gap:
            record.problems.append(formula_problem(grid, r, value_col, text))
            return _skip_to(filled, value_col)
        if slot == "ignore":
            return _skip_to(filled, value_col)
        note = None
        next_index = _skip_to(filled, value_col)
        if next_index < len(filled):
            note_col = filled[next_index]
            after = filled[next_index + 1] if next_index + 1 < len(filled) else None
            note_text = cell_text(row[note_col])
            # "Committed rate | 58.4 | CAD / instance-hour | Discounted...": a currency and a
            # basis with no figure is the value's unit, never the label of a next pair
            starts_block = after is not None and vocab.match(note_text) is not None \
                and not _is_unit_text(note_text)
            if not starts_block:
                note = note_text
                next_index += 1
        record.candidates.append(Candidate(text, row[value_col], grid.where(r, value_col),
                                           section=sec, note=note,
                                           label_where=grid.where(r, c)))
        return next_index

    def _pairs_in_cell(self, r: int, c: int, filled: list[int], sec: str | None) -> bool:
        """A cell alone in its row holding "Label: value" (or several, separated): each pair
        read with its label, the whole line a note. False when it holds none."""
        grid, record, vocab = self.grid, self.record, self.vocab
        value = grid.rows[r][c]
        text = cell_text(value)
        parts = [label_value_in_cell(part, vocab, sec) for part in _SEPARATED_RE.split(
            text)] if isinstance(value, str) and len(filled) == 1 and \
            _SEPARATED_RE.search(text) else []
        if len([p for p in parts if p]) >= 1 and len(parts) >= 2:
            # "Quantity: 32 VMs = 256 GPUs · Region: East US 2 · Prices exclude taxes":
            # several "Label: value" parts in one line, each read with its label
            for pair_found in (p for p in parts if p):
                record.candidates.append(Candidate(pair_found[0], pair_found[1],
                                                   grid.where(r, c),
                                                   section=sec,
                                                   label_where=grid.where(r, c)))
            record.notes.append((text, grid.where(r, c)))
            return True
        pair = label_value_in_cell(text, vocab, sec) if isinstance(value, str) else None
        if pair is not None and len(filled) == 1:
            record.candidates.append(Candidate(pair[0], pair[1], grid.where(r, c),
                                               section=sec,
                                               label_where=grid.where(r, c)))
            record.notes.append((text, grid.where(r, c)))
            return True
        return False

    def _unknown_label(self, r: int, c: int, filled: list[int], sec: str | None,
                       value_col: int | None, formula_gap: bool) -> bool:
        """Words no label names: a title, a short statement, or a label whose value may
        still state facts by its shape (True: the value beside it was taken with it)."""
        grid, record = self.grid, self.record
        row = grid.rows[r]
        text = cell_text(row[c])
        if r <= 2 and record.title is None and len(filled) == 1:
            record.title, record.title_where = text, grid.where(r, c)
        elif len(filled) == 1 and len(text.split()) >= 3 and (
                re.search(r"\d", text) or re.match(r"\s*[-–•·*]\s", text)
                or len(text.split()) >= 5):
            # "Tilbuddet gælder til 31. marts 2026.": a short statement alone in its
            # row is a note, read for the facts it states; so is a bullet ("- Acesso root
            # completo; sem orquestrador pré-instalado"), figures or not
            record.notes.append((text, grid.where(r, c)))
        elif value_col is not None and not formula_gap and (
                priced := basis_price_label(text, row[value_col])) is not None:
            # "Canone mensile per server | 7008": no word for the fee, but a price's basis
            record.candidates.append(Candidate(priced, row[value_col], grid.where(r, value_col),
                                               section=sec, label_where=grid.where(r, c)))
            record.problems.append(Problem(grid.where(r, value_col), found=text[:120],
                                           severity="warning", code="price-by-basis-label",
                                           params={"label": text[:80], "basis": priced}))
        elif value_col is not None and not formula_gap and isinstance(row[value_col], str) \
                and (len(filled) == 2
                     or (len(filled) == 3 and filled[:2] == [c, value_col])
                     or (len(filled) % 2 == 0 and filled.index(c) % 2 == 0
                         and value_col in filled
                         and filled.index(value_col) == filled.index(c) + 1
                         and self.vocab.match(cell_text(row[value_col]), sec) is None)):
            # An unknown label: its value may still state facts by its shape
            # ("VM size | Standard_NB200 (8 GPUs per VM)"), a third cell its note
            # ("Síť | 8× HDR 200 Gb/s InfiniBand na server | vyhrazená, bez sdílení"), and
            # pairs side by side ("Prepared: | 11/18/2026 | Service Commencement: | 03/01/2027").
            note = cell_text(row[filled[2]]) if len(filled) == 3 else None
            record.candidates.append(Candidate(text, row[value_col],
                                               grid.where(r, value_col),
                                               section=sec, shape_only=True, note=note,
                                               label_where=grid.where(r, c)))
            return note is None and len(filled) > 2
        return False

    def _label_alone(self, r: int, c: int, filled: list[int], sec: str | None,
                     slot: str) -> None:
        """A label with nothing right of it: a label with its value inline, a label above
        its value, or a section header."""
        grid, record, vocab = self.grid, self.record, self.vocab
        text = cell_text(grid.rows[r][c])
        if len(filled) == 1 and (_DIGIT_RE.search(text) or len(text.split()) >= 5 or re.match(
                r"\s*[-–•·*]\s", text)) and \
                len(text.split()) >= 3 and normalise_label(text) not in vocab.labels:
            # "Oferta ważna do 15.03.2026", "Valid until 31 March 2026": a label with its
            # value inline and no colon, read as a sentence about its topic; so is a
            # statement alone in its row ("- Acesso root completo; sem orquestrador")
            record.notes.append((text, grid.where(r, c)))
            return
        below = grid.value(r + 1, c) if r + 1 < len(grid.rows) else None
        below_text = cell_text(below)
        below_is_label = isinstance(below, str) and vocab.match(below_text) is not None
        exact = normalise_label(text) in vocab.labels
        if exact and slot != "ignore" and not is_empty(below) and not below_is_label \
                and len([x for x in grid.rows[r + 1] if not is_empty(x)]) == 1:
            # Label above its value (a vertical pair).
            record.candidates.append(Candidate(text, below, grid.where(r + 1, c),
                                               section=sec,
                                               label_where=grid.where(r, c)))
            self.used.add(r + 1)
        elif len(filled) == 1 and len(text.split()) <= 4 and not re.search(r"[:\d]", text) \
                and not is_company_name(text):  # a letterhead ("Alpi Cloud S.r.l.") heads none
            self.section = text  # "Storage" above "Capacity": a section header


def key_values(grid: SheetGrid, rows: range, used: set[int], vocab: Vocabulary,
               record: RawRecord) -> None:
    """Every label | value pair of `rows` (side by side, above one another, in one cell,
    under a "Field | Value" header or a priced column's header) into `record`; sentences
    become notes. Rows in `used` are skipped, and a value read below its label is added."""
    if "price_basis" not in grid.found:
        grid.found["price_basis"] = _price_basis_columns(grid, range(len(grid.rows)), vocab)
    basis = {c: (hr, text) for c, (hr, text) in grid.found["price_basis"].items()
             if hr in rows}
    scan = _KeyValueScan(grid, vocab, record, used, basis)
    for r in rows:
        scan.row(r)


_PER_WORD_RE = re.compile(r"\bper\b|/|\bpro\b|\bpar\b|\bje\b|\bpor\b|\bna\b", re.I)


def _price_basis_columns(grid: SheetGrid, rows: range, vocab: Vocabulary
                         ) -> dict[int, tuple[int, str]]:
    """Columns headed by a currency and a price basis ("€ per GPU-uur", "USD / TB-month"):
    {column: (header row, header text)}."""
    def is_basis(value: Any) -> bool:
        text = cell_text(value)
        return isinstance(value, str) and len(text.split()) <= 6 and not _DIGIT_RE.search(
            text) and _PER_WORD_RE.search(text) is not None and bool(
            currency_of(text)) and billing_unit(text) is not None

    found: dict[int, tuple[int, str]] = {}
    for r in rows[:30]:
        row = grid.rows[r]
        # A header row: text only, no figure; a unit column repeats its basis on every row.
        filled = [v for v in row if not is_empty(v)]
        if len(filled) < 2 or any(not isinstance(v, str) or _DIGIT_RE.search(v)
                                  for v in filled):
            continue
        heads = [c for c, v in enumerate(row) if c > 0 and is_basis(v)]
        if not heads:
            continue
        first = next((cell_text(v) for v in row if not is_empty(v)), "")
        if vocab.match(first) not in (None, "ignore"):
            continue  # "GPU | € per GB per month": a labelled row, not a header
        for c in heads:
            below = [grid.value(k, c) for k in range(r + 1, min(len(grid.rows), r + 40))]
            if any(is_basis(v) for v in below) or not any(
                    re.search(r"\d", cell_text(v)) for v in below if not is_empty(v)):
                continue
            found.setdefault(c, (r, cell_text(row[c])))
    return found


def _is_unit_text(text: str) -> bool:
    """'CAD / instance-hour', '€ per GPU-uur': a currency and a price basis, no figure."""
    return len(text.split()) <= 6 and not _DIGIT_RE.search(text) and _PER_WORD_RE.search(
        text) is not None and bool(currency_of(text)) and billing_unit(text) is not None


def _skip_to(filled: list[int], col: int) -> int:
    for index, c in enumerate(filled):
        if c > col:
            return index
    return len(filled)
