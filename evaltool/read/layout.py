"""Find the offer in a grid of cells, whatever its layout.

A vendor sheet mixes: title rows, key-value blocks (label and value anywhere, side by side,
with a notes column), section headers ("Storage" above "Capacity"), line-item tables (a
header row with quantity and unit price), one-offer-per-row tables (a CSV of public
offers), fill-in templates (a "Field | Value" header), free-text notes and contract sheets.
This module turns any of them into `RawRecord`s: labelled values, line items, notes and
contract segments, each with the cell it came from.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from typing import Any

from evaltool.errors import Location, Problem
from evaltool.read.alternative_rows import alternatives_per_table
from evaltool.read.basis_labels import basis_price_label
from evaltool.read.blocks import names_an_option, tables_as_options
from evaltool.read.cells import (
    Candidate,
    RawRecord,
    SheetGrid,
    cell_text,
    column_letter,
    filled_columns,
    is_empty,
)
from evaltool.read.charges import charge_lines, charges_header
from evaltool.read.crosstab import find_price_grids, read_price_grids
from evaltool.read.discount_tiers import discount_tiers
from evaltool.read.headers import CLAUSE_REF_HEADERS as _CLAUSE_REF_HEADERS
from evaltool.read.headers import FIELD_HEADERS as _FIELD_HEADERS
from evaltool.read.headers import NOTE_HEADERS as _NOTE_HEADERS
from evaltool.read.headers import UNIT_HEADERS as _UNIT_HEADERS
from evaltool.read.headers import VALUE_HEADERS as _VALUE_HEADERS
from evaltool.read.keyvalues import (
    _is_sentence,
    key_values,
    label_value_in_cell,
    template_header_at,
    with_unit,
)
from evaltool.read.keyvalues import reads_like_terms as reads_like_terms  # mapping.py's
from evaltool.read.lineitems import line_items as _line_items
from evaltool.read.margins import banners_and_footers
from evaltool.read.paid_rows import row_role
from evaltool.read.paired_columns import read_paired_grids
from evaltool.read.price_columns import names_a_list_rate
from evaltool.read.row_notes import notes_by_row
from evaltool.read.row_totals import totals_of_rows
from evaltool.read.rows import formula_problem, offer_per_row
from evaltool.read.text import (
    resource_of,
    states_amount,
)
from evaltool.read.ticked_rows import ticked_rows
from evaltool.read.vocabulary import (
    MAX_LABEL_WORDS,
    Vocabulary,
    normalise_label,
    storage_price_label,
)

CONTRACT_SHEET_WORDS = ("contract", "terms", "agreement", "conditions", "sla", "msa", "vertrag",
                        "bedingungen", "legal", "clauses", "contrat")


_NOT_SLUG_RE = re.compile(r"[^a-z0-9]+")
# One pattern for every word (was one search per word, for every sheet name asked about).
_CONTRACT_SHEET_RE = re.compile(r"\b(?:" + "|".join(CONTRACT_SHEET_WORDS) + ")")


def slug(text: str) -> str:
    return _NOT_SLUG_RE.sub("-", text.lower()).strip("-") or "offer"


@functools.lru_cache(maxsize=1024)  # asked of each sheet's name by several readers
def is_contract_sheet(name: str | None) -> bool:
    if not name:
        return False
    low = normalise_label(name)
    return _CONTRACT_SHEET_RE.search(low) is not None



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
        section = next((t for c, t in texts if c < c_long and len(t) <= 40
                        and len(t.split()) <= MAX_LABEL_WORDS), None)
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
            elif role == "description" and "part" not in roles:
                # "Položka | … | Popis", "Pozycja | Opis": the item, then its description
                roles["part"], roles["description"] = roles["description"], c
            elif role in ("unit_price", "total") and re.search(
                    r"\bnet(?:to|t)?\b", normalise_label(value)):
                roles[role] = c  # CPQ exports: the net (discounted) price, not the list
    return roles


def _two_row_header(grid: SheetGrid, r: int, roles: dict[str, int], vocab: Vocabulary
                    ) -> dict[str, int] | None:
    """A line-item header over two rows: the row below names the price columns under a
    group heading ("Recurring charges" over "Unit price (USD) | Monthly (USD)")."""
    if not roles or r + 1 >= len(grid.rows) or ("quantity" not in roles and "description" \
            not in roles and "part" not in roles):
        return None
    below = _header_roles(grid.rows[r + 1], vocab)
    if not below or any(not is_empty(grid.value(r + 1, c)) and not (
            isinstance(grid.value(r + 1, c), str)) for c in range(len(grid.rows[r + 1]))):
        return None  # the row below holds values: it is data, not a header
    combined = {**roles, **{k: c for k, c in below.items() if k not in roles
                            or k in ("unit_price", "total")}}
    return combined if _is_line_item_header(combined) and ("unit_price" in below
                                                          or "total" in below) else None


def _is_line_item_header(roles: dict[str, int]) -> bool:
    has_price = "unit_price" in roles or "total" in roles
    has_text = "description" in roles or "unit" in roles or "part" in roles
    return "quantity" in roles and has_price and has_text and len(roles) >= 3


_UNIT_IN_BRACKETS_RE = re.compile(r"\s*\([^()]{1,12}\)\s*$")


def _field_header(row: Sequence[Any], vocab: Vocabulary) -> dict[int, str] | None:
    """Columns of a one-offer-per-row table: >= 4 cells that are exact field labels."""
    columns: dict[int, str] = {}
    slots: set[str] = set()
    for c, value in enumerate(row):
        if not isinstance(value, str) or not value.strip():
            continue
        norm = normalise_label(value)
        slot = vocab.labels.get(norm)
        if slot is None and _UNIT_IN_BRACKETS_RE.search(value):
            # "Term (mo)", "Laufzeit (Monate)", "Durée (mois)": a field's exact label and the
            # unit of its figures in brackets
            slot = vocab.labels.get(normalise_label(_UNIT_IN_BRACKETS_RE.sub("", value)))
        slot = slot or storage_price_label(value)  # "Storage $/TB-mo"
        if slot is None:
            continue
        columns[c] = value.strip()
        if slot != "ignore":
            slots.add(slot)
    phrased = _phrase_header(row, vocab)
    if len(slots) >= 4:
        return {**(phrased or {}), **columns}
    return phrased


def _list_beside(columns: dict[int, str], head: str) -> bool:
    """A second price column that is a list rate, or that stands beside one."""
    return names_a_list_rate(head) or any(names_a_list_rate(h) for h in columns.values())


def _phrase_header(row: Sequence[Any], vocab: Vocabulary) -> dict[int, str] | None:
    """Columns of a one-offer-per-row table whose headers are phrases ('Which GPU',
    'Rate per GPU per hour'): most filled cells short texts that read as distinct fields.
    The first column, if no field, names the offer ('Package', 'Reservation')."""
    filled = [(c, v) for c, v in enumerate(row) if not is_empty(v)]
    if len(filled) < 3 or not all(isinstance(v, str) and len(v.split()) <= 7 for _, v in filled):
        return None
    columns: dict[int, str] = {}
    slots: set[str] = set()
    known = 0  # a notes column or a line total ("£ / week (total)") is understood, not a field
    for c, value in filled:
        slot = vocab.match(str(value))
        if slot == "contract_text" and vocab.header_role(str(value)) == "total":
            slot = "ignore"  # "Contract total": the money of the row, not contract terms
        elif slot == "rack_count" and any(resource_of(w) == "node" for w in normalise_label(
                str(value)).split()):
            known += 1  # "Racks / nodes": each row's cell says which ("2 racks", "8 nodes")
            continue
        # (a list rate's column beside the net one's: both read, told apart when read)
        if slot is not None and slot != "ignore" and (slot not in slots or (
                slot == "price" and _list_beside(columns, str(value)))):
            slots.add(slot)
            columns[c] = str(value).strip()
        elif slot == "ignore" or vocab.header_role(str(value)) == "total" or row_role(
                str(value), False) == "discount":  # "Volume disc.": a share of a price
            known += 1
    # A header naming the accelerator, a count and the price is a table of offers however
    # many administrative columns a procurement export adds (file no., tax id, status).
    whole_offer = "accelerator" in slots and "price" in slots and bool(
        slots & {"gpu_count", "node_count"})
    if len(slots) < 3 or (len(slots) + known < 0.7 * (len(filled) - 1) and not whole_offer):
        return None
    first = filled[0][0]
    if first not in columns:
        columns[first] = "offer name"
    return columns


# --- whole grids -------------------------------------------------------------------------

def read_grid(grid: SheetGrid, vocab: Vocabulary, record: RawRecord,
              base_id: str) -> list[RawRecord]:
    """Read one sheet into `record` (single offer); return extra records for a sheet that
    holds one offer per row."""
    if grid.hidden:
        where = Location(grid.file, sheet=grid.name)
        record.skipped.append((where, "hidden sheet"))
        record.problems.append(Problem(where, severity="warning", code="hidden-sheet-skipped"))
        return []
    banners_and_footers(grid, record)
    discount_tiers(grid, record, vocab)  # "Committed spend | Discount off list | Applies?"
    for r, text in grid.comments:  # a CSV's comment lines: the document's own title and notes
        record.banners.append((text, grid.where(r, 0)))
        record.notes.append((text, grid.where(r, 0)))
    if is_contract_sheet(grid.name):
        record.segments.extend(contract_segments(grid))
        _contract_facts(grid, vocab, record)
        return []
    used: set[int] = set()
    priced: list[RawRecord] = []  # a rate card: one offer per priced cell; the rest as usual
    grid = ticked_rows(grid, record, vocab)  # "☒ 24 months | 2.95" among unticked terms: the order
    paired = read_paired_grids(grid, vocab, record, base_id)  # "Sydney" over "GPUs | AUD/h"
    grids = [] if paired is not None else find_price_grids(grid, vocab)
    if paired is not None:
        priced, grid = paired
    elif grids:
        priced, grid = read_price_grids(grid, vocab, record, base_id, grids)
    options = _option_columns(grid, vocab)
    if options is not None:
        return priced + _offers_in_columns(grid, vocab, record, base_id, *options)
    tables: list[tuple[int, int]] = []  # (header row, index of its first line item)
    for r, row in enumerate(grid.rows):
        if r in used:
            continue
        if template_header_at(grid, r) is not None:
            break  # 'Field | Value' (or 'Requirement | Response'): one offer down the rows
        roles = _header_roles(row, vocab)
        if _is_line_item_header(roles):
            tables.append((r, len(record.line_items)))
            used.add(r)
            used.update(_line_items(grid, r, roles, record, vocab))
            continue
        two_rows = _two_row_header(grid, r, roles, vocab)
        if two_rows is not None:  # "Quantity | Recurring charges" over "Unit price | Monthly"
            tables.append((r, len(record.line_items)))
            used.update((r, r + 1))
            used.update(_line_items(grid, r + 1, two_rows, record, vocab))
            continue
        charges = charges_header(row, vocab)
        if charges is not None:  # "Monthly service | Basis | EUR / month": running costs
            tables.append((r, len(record.line_items)))
            used.add(r)
            used.update(charge_lines(grid, r, charges, record, vocab))
            continue
        columns = _field_header(row, vocab)
        if columns is not None:
            data_rows = []
            for i in range(r + 1, len(grid.rows)):
                cells = [v for c, v in enumerate(grid.rows[i]) if c in columns and not is_empty(v)]
                if len(cells) < max(2, len(columns) // 2):
                    break  # the table ends at a blank or a note row
                data_rows.append(i)
            # The table's own first column ("listing_id"), not its first field column: a
            # provider's name under "provider" is a value, not a label down the rows.
            first_col = min(c for c, v in enumerate(row) if not is_empty(v))
            if any(isinstance(grid.value(i, first_col), str) and vocab.labels.get(
                    normalise_label(cell_text(grid.value(i, first_col)))) not in (None, "ignore")
                   for i in data_rows[:3]):
                data_rows = []  # labels down the first column: a key-value block, no header
            if data_rows:
                # The rows around the table (specs in prose above, notes below) are what
                # its offers share: read them into the file's record.
                used.update([r, *data_rows])
                rows = offer_per_row(grid, r, columns, data_rows, record, base_id, vocab)
                if len(rows) >= 2:
                    used.update(totals_of_rows(grid, data_rows, vocab, record))
                key_values(grid, range(len(grid.rows)), used, vocab, record)
                if len(rows) >= 2:  # "Line 1 site: Dallas. Line 2 site: Columbus."
                    notes_by_row(grid, data_rows, rows, record)
                return priced + rows
    tables_as_options(grid, vocab, record, tables)
    alternatives_per_table(record, tables)  # lines naming different accelerators
    key_values(grid, range(len(grid.rows)), used, vocab, record)
    return priced


_OPTION_SKIP = _VALUE_HEADERS | _NOTE_HEADERS | _FIELD_HEADERS | _UNIT_HEADERS


def _option_columns(grid: SheetGrid, vocab: Vocabulary
                    ) -> tuple[int, int, int | None, dict[int, str]] | None:
    """Several offers side by side: a header row naming two or more options over value
    columns, and below it rows whose first column is a field label with a value under most
    options.  Returns (header row, label column, unit column, {column: option name})."""
    # The label column is the sheet's leftmost used column (a printed form often leaves
    # column A empty as a margin): options are the named columns right of it.
    lead = _leftmost_used_column(grid.rows[:80])
    if any(template_header_at(grid, r) is not None for r in range(min(40, len(grid.rows)))):
        return None  # "Parameter | Value | Unit | Notes" below a "Quote no. | Q-1" line: one offer
    for r, row in enumerate(grid.rows[:40]):
        if sum(1 for c in filled_columns(grid, r) if c > lead) < 2:
            continue  # under two filled cells right of the labels: no options header
        heads = {c: cell_text(v) for c, v in enumerate(row)
                 if isinstance(v, str) and v.strip() and len(v.split()) <= 6}
        options = {c: h for c, h in heads.items() if c > lead
                   and normalise_label(h) not in _OPTION_SKIP
                   and vocab.header_role(h) in (None, "group")
                   and vocab.labels.get(normalise_label(h)) is None}
        if len(options) < 2 or len(options) != len([v for v in row[lead + 1:]
                                                    if not is_empty(v)]) \
                - sum(1 for c, h in heads.items() if c > lead and c not in options):
            continue
        if template_header_at(grid, r) is not None or _in_template_table(grid, r):
            continue  # "Field | Value | Unit | Explanation": one offer, its notes beside
        corner = normalise_label(cell_text(row[lead])) if len(row) > lead else ""
        if (corner and corner not in _FIELD_HEADERS and vocab.match(corner) not in (
                None, "ignore", "term_months", "offer_name")) or (
                corner and vocab.match(corner) in ("term_months", "offer_name")
                and (not all(_TERM_NAME_RE.search(h) for h in options.values())
                     or not _labels_below(grid, r, lead, vocab))):
            continue  # "Vendor | Acme | Storage | VAST": a labelled row, not a header
            # ("COMMITMENT | 1-year CUD | 3-year CUD" over labelled rows names the options)
        if any(not is_empty(row[c]) and normalise_label(cell_text(row[c])) not in _UNIT_HEADERS
               for c in range(lead + 1, min(options))):
            continue  # "compute | Accelerator | MI300X | | OAM": a labelled row, not a header
        if any(not re.search(r"[^\W\d_]", h) for h in options.values()):
            continue  # option names have letters ("Option A", "12-month reserved")
        if _under_value_unit_header(grid, r, options):
            continue  # "INPUTS | Value | Unit" above "Slice | v6e-256 | 256 chips": a value
            # and its unit in the same block, not two options
        if any(states_amount(h) for h in options.values()):
            continue  # "Lustre | $140.00 per TiB-month | AMLFS tier": a priced row, no header
        if any(vocab.labels.get(normalise_label(h)) not in (None, "ignore")
               for c, h in heads.items() if c > min(options)):
            continue
        if any(sum(1 for below in grid.rows[r + 1:r + 25] if c < len(below)
                   and isinstance(below[c], str) and vocab.labels.get(
                       normalise_label(below[c])) not in (None, "ignore")) >= 2
               for c in options):
            continue  # a column of labels ("Region", "Storage"): a grid of label | value
            # blocks side by side (an order form), not options
        first = min(options)
        label_col = lead
        # The unit header may sit in the row above, over a merged two-row header
        # ("Merkmal | Einheit | Angebotene Konfiguration" over "Option A | Option B").
        above = {c: cell_text(v) for c, v in enumerate(grid.rows[r - 1])} if r > 0 else {}
        unit_col = next((c for c, h in [*heads.items(), *above.items()]
                         if label_col < c < first and normalise_label(h) in _UNIT_HEADERS), None)
        rows_with_values = 0
        priced = False  # a price under each option makes a short table a table of options
        for k, below in enumerate(grid.rows[r + 1:r + 40]):
            alone = [v for v in below if not is_empty(v)]
            if len(alone) == 1 and names_an_option(cell_text(alone[0]), vocab):
                break  # "Wariant 2 – 6 miesięcy" heads the next stacked option: not this table
            label = cell_text(below[label_col]) if len(below) > label_col else ""
            # "Canone mensile per server | 7008 | 6424": a price by its label's basis
            by_basis = bool(label) and vocab.match(label) is None and basis_price_label(
                label, grid.value(r + 1 + k, min(options))) is not None
            if not label or (vocab.match(label) is None and not by_basis):
                continue
            filled = sum(1 for c in options if not is_empty(grid.merged_value(r + 1 + k, c)))
            if filled >= max(2, len(options) - 1):
                rows_with_values += 1
                priced = priced or by_basis or vocab.match(label) in ("price", "capex_usd")
        if rows_with_values >= 4 or (priced and rows_with_values >= 2):
            return r, label_col, unit_col, options
    return None


# An option named by its term ("1-year CUD", "3-Year Reserved", "24 Monate"), under a corner
# that says what the options differ in ("COMMITMENT", "Term").
_TERM_NAME_RE = re.compile(r"\d+\s*-?\s*(?:years?|yrs?|months?|mo|jahre?|monate?|mois|ans?|"
                           r"años?|mes(?:es)?|mesi|anni|anno|lat|rok|år|jaar|maanden?)\b", re.I)


def _labels_below(grid: SheetGrid, r: int, lead: int, vocab: Vocabulary) -> bool:
    """Whether the rows right under row r start with field labels (a table below a header)."""
    found = 0
    for below in grid.rows[r + 1:r + 6]:
        label = cell_text(below[lead]) if len(below) > lead else ""
        if label and vocab.match(label) not in (None, "ignore"):
            found += 1
    return found >= 2


def _under_value_unit_header(grid: SheetGrid, r: int, options: dict[int, str]) -> bool:
    """Whether a header above row r, in the same block (no blank row between), names the
    would-be option columns as a value and a unit ("Value | Unit", "Wert | Einheit")."""
    for k in range(r - 1, max(-1, r - 15), -1):
        row = grid.rows[k]
        if all(is_empty(v) for v in row):
            return False
        heads = {normalise_label(cell_text(row[c])) for c in options if c < len(row)}
        if heads & _VALUE_HEADERS and heads & _UNIT_HEADERS:
            return True
    return False


def _leftmost_used_column(rows: Sequence[Sequence[Any]]) -> int:
    lead: int | None = None
    for row in rows:
        for c, v in enumerate(row[:lead]):
            if not is_empty(v):
                lead = c
                break
        if lead == 0:
            return 0  # most sheets: column A is used
    return lead or 0


def _in_template_table(grid: SheetGrid, r: int) -> bool:
    """Row r is a row of a 'Voce | Valore | Unità | Note' table above it (no blank between):
    'Accesso | utente non privilegiato | | nessun accesso root' is a value and its note."""
    k = r - 1
    while k >= 0 and filled_columns(grid, k):
        if template_header_at(grid, k) is not None:
            return True
        k -= 1
    return False


def _options_table_end(grid: SheetGrid, header: int, options: dict[int, str]) -> int:
    """The row after the options table: the table ends at a blank row unless the next filled
    row again has values under most options ("Technical summary" below it is shared)."""
    def spans_options(r: int) -> bool:
        filled = sum(1 for c in options if not is_empty(grid.merged_value(r, c)))
        return filled >= max(2, len(options) - 1)

    r = header + 1
    while r < len(grid.rows):
        if all(is_empty(v) for v in grid.rows[r]):
            nxt = next((k for k in range(r + 1, len(grid.rows))
                        if any(not is_empty(v) for v in grid.rows[k])), None)
            if nxt is None or not spans_options(nxt):
                return r
            r = nxt
            continue
        r += 1
    return len(grid.rows)


def _offers_in_columns(grid: SheetGrid, vocab: Vocabulary, record: RawRecord, base_id: str,
                       header: int, label_col: int, unit_col: int | None,
                       options: dict[int, str]) -> list[RawRecord]:
    """One record per option column; rows outside the table are read for all of them."""
    records: list[RawRecord] = []
    table_rows: set[int] = {header}
    end = _options_table_end(grid, header, options)
    # A notes column right of the options ("Notes", "Bemerkung"): each row's note is every
    # option's ("bare metal, single tenant" beside a footprint both options share).
    note_col = next((c for c, v in enumerate(grid.rows[header]) if c > max(options)
                     and normalise_label(cell_text(v)) in _NOTE_HEADERS), None)
    for c, raw_name in sorted(options.items()):
        name = " ".join(raw_name.split())  # "1-Year Reserved\n(No Upfront)": one line
        source = dict(record.source)
        source["column"] = column_letter(c)
        source["option"] = name
        target = RawRecord(id=f"{base_id}-{slug(name)}", source=source)
        target.problems.append(Problem(
            grid.where(header, c), severity="info", code="options-in-columns",
            params={"name": name, "column": column_letter(c)}))
        target.candidates.append(Candidate("offer name", name, grid.where(header, c),
                                           label_where=grid.where(header, c)))
        for r in range(header + 1, end):
            label = cell_text(grid.value(r, label_col))
            if not label or _is_sentence(label):
                continue
            if vocab.match(label) is None and all(is_empty(grid.value(r, k)) for k in options):
                continue
            table_rows.add(r)
            value = grid.merged_value(r, c)
            if (r, c) in grid.formula_cells_without_value:
                target.problems.append(formula_problem(grid, r, c, label))
                continue
            if is_empty(value):
                continue
            if unit_col is not None:
                value = with_unit(value, grid.value(r, unit_col))
            note = cell_text(grid.value(r, note_col)) if note_col is not None else ""
            if vocab.match(label) is None and (priced := basis_price_label(label, value)):
                target.candidates.append(Candidate(priced, value, grid.where(r, c),
                                                   label_where=grid.where(r, label_col)))
                target.problems.append(Problem(grid.where(r, c), found=label[:120],
                                               severity="warning", code="price-by-basis-label",
                                               params={"label": label[:80], "basis": priced}))
                continue
            # An unknown label ("Footprint | 32 nodes x 8 GPUs"): the value's shape may still
            # state a fact, read as such (below any labelled value).
            target.candidates.append(Candidate(label, value, grid.where(r, c),
                                               note=note or None,
                                               label_where=grid.where(r, label_col),
                                               shape_only=vocab.match(label) is None))
        records.append(target)
    rest = [r for r in range(len(grid.rows)) if r not in table_rows]
    key_values(grid, range(len(grid.rows)), set(range(len(grid.rows))) - set(rest), vocab,
                record)
    record.source["options"] = len(records)
    return records


# Fields a contract sheet states in a 'Label | value' row without ambiguity; percentages
# (uptime tiers, credit tiers) are left to clause analysis, which reads their conditions.
# Fields a terms sheet states as 'Label | value' (or 'Label : value' in one cell); the label
# gives the value its role ("Service credit cap | 10% of the monthly fee").
_CONTRACT_FIELDS = {"delivery_date", "valid_until", "term_months", "hw_replacement_hours",
                    "sla_uptime_pct", "sla_max_credit_pct", "support", "support_response_hours",
                    "egress_usd_per_gb"}


def _contract_facts(grid: SheetGrid, vocab: Vocabulary, record: RawRecord) -> None:
    """'Capacity delivery date | 2027-05-01' on a Terms sheet is a fact of the offer.
    A questionnaire (topic | question | your answer) states nothing by its questions."""
    if any(normalise_label(cell_text(v)) in _VALUE_HEADERS for row in grid.rows[:10]
           for v in row if isinstance(v, str)):
        return
    for r, row in enumerate(grid.rows):
        filled = [c for c, v in enumerate(row) if not is_empty(v)]
        if len(filled) == 1 and isinstance(row[filled[0]], str):
            pair = label_value_in_cell(row[filled[0]], vocab)
            if pair is not None and vocab.match(pair[0]) in _CONTRACT_FIELDS:
                record.candidates.append(Candidate(pair[0], pair[1].rstrip(" ."),
                                                   grid.where(r, filled[0])))
            continue
        if len(filled) != 2:
            continue
        label = cell_text(row[filled[0]])
        if vocab.match(label) in _CONTRACT_FIELDS:
            record.candidates.append(Candidate(label, row[filled[1]],
                                               grid.where(r, filled[1]),
                                               label_where=grid.where(r, filled[0])))
