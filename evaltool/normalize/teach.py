"""Let the user teach the reader: `--explain` lists what it did not understand, `--map FILE`
applies a per-vendor mapping.

A mapping file (YAML):

    vendor: Nimbus Forge            # optional: the vendor name, if no cell states it
    fields:                         # a label (as written) or a cell -> canonical field
      "Rate per GPU per hour": price_usd_per_gpu_hour
      "Proposal!K5": price_usd_per_gpu_hour
    skip_sheets: [Old prices]       # sheets never read
    options: {Option A: C, Option B: "Pricing!D"}  # offers side by side: name -> column
    offers:                         # any layout: each offer's fields at cells or as values
      H200 Madrid: {accelerator: "=Prices!A6", price_usd_per_gpu_hour: "=Prices!B6",
                    gpu_count: "=Prices!B11", region: Madrid}

The mapping is applied to the raw records before normalisation and recorded in each offer's
source (`mapping`).  `options` makes one offer of each named column: each row's label (the
nearest text left of the options) with the value in that column, plus what the reader found
outside those columns, shared by all; `offers` (normalize/mapped_offers.py) states each
offer's fields cell by cell, for a layout neither the reader nor `options` can take apart.
`explain_file` re-reads a file's sheets and lists every
non-empty cell that no record used (as a label, value, note, clause, banner or line item) and
that was not deliberately skipped; `mapping_skeleton` turns that list into a starting mapping
file.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from evaltool.errors import Location, Problem, UsageError
from evaltool.models import CANONICAL_FIELDS
from evaltool.normalize.mapped_offers import MappedValue, offers_from_mapping, parse_mapped_offers
from evaltool.normalize.shapes import count_facts
from evaltool.read import read_offer_file
from evaltool.read.cells import (
    Candidate,
    RawRecord,
    SheetGrid,
    a1,
    cell_position,
    cell_text,
    column_index,
    is_empty,
)
from evaltool.read.mapping import load_mapping
from evaltool.read.tabular import read_csv
from evaltool.read.vocabulary import normalise_label
from evaltool.read.xlsx import read_workbook

_CELL_REF = re.compile(r"^(?:(?P<sheet>.+)!)?(?P<cell>[A-Z]{1,3}[0-9]{1,7})$")


@dataclass
class UserMapping:
    path: str
    labels: dict[str, str] = field(default_factory=dict)  # normalised label -> field
    cells: dict[tuple[str | None, str], str] = field(default_factory=dict)  # (sheet, A1)
    skip_sheets: set[str] = field(default_factory=set)
    options: dict[str, str] = field(default_factory=dict)
    offers: dict[str, dict[str, MappedValue]] = field(default_factory=dict)
    vendor: str | None = None


def load_user_mapping(path: Path) -> UserMapping:
    """Read and check a mapping file; UsageError naming the key that is wrong."""

    try:
        data = load_mapping(path)
    except Exception as exc:  # InputError, OSError: a usage error for a flag's file
        raise UsageError(Problem(None, code="mapping-file-unreadable",
                                 params={"path": str(path), "reason": str(exc)})) from None
    if not isinstance(data, dict):
        raise UsageError(Problem(None, code="mapping-invalid", params={"path": str(path)}))
    known = set(CANONICAL_FIELDS)
    mapping = UserMapping(path=str(path))
    for key, target in (data.get("fields") or {}).items():
        if str(target) not in known:
            raise UsageError(Problem(Location(str(path), key=f"fields.{key}"),
                                     code="mapping-unknown-field", params={
                                         "target": repr(target),
                                         "fields": ", ".join(sorted(known))}))
        ref = _CELL_REF.match(str(key).strip())
        if ref:
            mapping.cells[(ref.group("sheet"), ref.group("cell"))] = str(target)
        else:
            mapping.labels[normalise_label(str(key))] = str(target)
    mapping.skip_sheets = {str(s) for s in (data.get("skip_sheets") or [])}
    mapping.options = {str(k): str(v) for k, v in (data.get("options") or {}).items()}
    mapping.offers = parse_mapped_offers(data.get("offers"), str(path))
    vendor = data.get("vendor")
    mapping.vendor = str(vendor) if vendor else None
    return mapping


def apply_mapping(records: list[RawRecord], mapping: UserMapping, path: Path) -> None:
    """Relabel, add and drop raw values as the mapping says; record it in the source.
    `options` (name -> column, or 'Sheet!C') makes one offer of each column."""
    sheets = _sheet_grids(path) if (mapping.offers or mapping.options or mapping.cells
                                    or mapping.labels) else []  # the workbook read once
    if mapping.offers:
        records[:] = offers_from_mapping(records, mapping.offers, sheets, mapping.path, path)
    elif mapping.options:
        records[:] = _options_from_mapping(records, mapping, sheets, path)
    grids = {g.name: g.rows for g in sheets} if mapping.cells or mapping.labels else {}
    for record in records:
        record.source["mapping"] = mapping.path
        record.problems.append(Problem(Location(str(path)), severity="info",
                                       code="mapping-applied",
                                       params={"mapping_file": mapping.path}))
        kept: list[Candidate] = []
        for cand in record.candidates:
            if cand.where.sheet in mapping.skip_sheets:
                continue
            target = mapping.cells.get((cand.where.sheet, cand.where.cell or "")) or \
                mapping.cells.get((None, cand.where.cell or "")) or \
                mapping.labels.get(normalise_label(cand.label))
            if target:
                cand = Candidate(target.replace("_", " "), cand.value, cand.where,
                                 None, cand.note, cand.label_where)
            kept.append(cand)
        seen = {(c.where.sheet, c.where.cell) for c in kept}
        for (sheet, cell), target in mapping.cells.items():
            for name, rows in grids.items():
                if sheet not in (None, name) or (name, cell) in seen:
                    continue
                value = _cell_value(rows, cell)
                if not is_empty(value):
                    kept.insert(0, Candidate(target.replace("_", " "), value,
                                             Location(str(path), sheet=name, cell=cell)))
        # A mapped label the reader did not know: its value is the next filled cell right.
        for name, rows in grids.items():
            if name in mapping.skip_sheets:
                continue
            for r, row in enumerate(rows):
                for c, value in enumerate(row):
                    target = mapping.labels.get(normalise_label(cell_text(value))) \
                        if isinstance(value, str) else None
                    if not target:
                        continue
                    col = next((k for k in range(c + 1, len(row)) if not is_empty(row[k])), None)
                    if col is None:
                        continue
                    where = Location(str(path), sheet=name, cell=a1(r, col))
                    if (name, where.cell) not in seen:
                        kept.insert(0, Candidate(target.replace("_", " "), row[col], where,
                                                 label_where=Location(str(path), sheet=name,
                                                                      cell=a1(r, c))))
                        seen.add((name, where.cell))
        record.candidates = kept
        record.notes = [n for n in record.notes if n[1].sheet not in mapping.skip_sheets]
        record.line_items = [i for i in record.line_items
                             if i.row_where.sheet not in mapping.skip_sheets]
        if mapping.vendor:
            record.candidates.insert(0, Candidate("vendor", mapping.vendor,
                                                  Location(mapping.path, key="vendor")))


_COLUMN_REF = re.compile(r"^(?:(?P<sheet>.+)!)?(?P<col>[A-Z]{1,3})$")


def _sheet_grids(path: Path) -> list[SheetGrid]:
    try:
        return read_workbook(path) if path.suffix.lower() != ".csv" else [read_csv(path)]
    except Exception:  # the reader has already reported an unreadable file
        return []


def _options_from_mapping(records: list[RawRecord], mapping: UserMapping,
                          sheets: list[SheetGrid], path: Path) -> list[RawRecord]:
    """One record per mapped option column: each row's label (the nearest filled text left
    of the options) with the value in the option's column; everything the reader found
    outside those columns is shared by every option."""
    if not records:
        return records
    grids = {g.name: g for g in sheets}
    first = records[0]
    default_sheet = first.source.get("sheet") if first.source.get("sheet") in grids else \
        next(iter(grids), None)
    columns: list[tuple[str, str | None, int]] = []
    for name, ref in mapping.options.items():
        match = _COLUMN_REF.match(ref.strip().upper() if "!" not in ref else ref.strip())
        if match is None or (match.group("sheet") or default_sheet) not in grids:
            raise UsageError(Problem(Location(mapping.path, key=f"options.{name}"),
                                     code="mapping-bad-column",
                                     params={"ref": repr(ref), "file": path.name}))
        columns.append((name, match.group("sheet") or default_sheet,
                        column_index(match.group("col").upper())))
    option_cells = {(sheet, col) for _, sheet, col in columns}
    left_edge = {sheet: min(c for _, s, c in columns if s == sheet) for _, sheet, _ in columns}

    def in_options(where: Location) -> bool:
        cell = re.match(r"([A-Z]+)", where.cell or "")
        return cell is not None and (where.sheet, column_index(cell.group(1))) in option_cells

    shared: list[Candidate] = []
    seen: set[tuple[str | None, str | None]] = set()
    for record in records:
        for cand in record.candidates:
            key = (cand.where.sheet, cand.where.cell)
            if cand.label == "offer name" or in_options(cand.where) or key in seen:
                continue
            seen.add(key)
            shared.append(cand)
    out: list[RawRecord] = []
    for name, sheet, col in columns:
        grid = grids[sheet]
        source = {**first.source, "sheet": sheet, "column": a1(0, col).rstrip("1"),
                  "option": name}
        for dropped in ("options", "row", "rows"):
            source.pop(dropped, None)
        target = RawRecord(id=f"{first.id.split('-row-')[0]}-{_slug(name)}", source=source)
        target.candidates.append(Candidate("offer name", name, Location(mapping.path,
                                                                        key=f"options.{name}")))
        for r in range(len(grid.rows)):
            value = grid.merged_value(r, col)
            if is_empty(value) or cell_text(value) == name:
                continue
            label_col = next((c for c in range(left_edge[sheet] - 1, -1, -1)
                              if isinstance(grid.value(r, c), str)
                              and not is_empty(grid.value(r, c))), None)
            if label_col is None:
                continue
            target.candidates.append(Candidate(
                cell_text(grid.value(r, label_col)), value, grid.where(r, col),
                label_where=grid.where(r, label_col)))
        target.candidates.extend(shared)
        for part in ("notes", "banners", "footers", "segments", "line_items", "skipped"):
            setattr(target, part, list(getattr(first, part)))
        target.problems = [p for p in first.problems if p.code not in (
            "options-in-columns", "options-in-sheets", "options-in-blocks")]
        target.problems.append(Problem(
            grid.where(0, col), severity="info", code="options-from-mapping",
            params={"option": name, "column": source["column"]}))
        target.properties = dict(first.properties)
        target.title, target.title_where = first.title, first.title_where
        out.append(target)
    return out


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "option"


def _grids(path: Path) -> dict[str | None, list[list[Any]]]:
    return {g.name: g.rows for g in _sheet_grids(path)}


def _cell_value(rows: list[list[Any]], cell: str) -> Any:
    position = cell_position(cell)
    if position is None:
        return None
    r, c = position
    return rows[r][c] if r < len(rows) and c < len(rows[r]) else None


# --- explain -------------------------------------------------------------------------------

def _used(records: list[RawRecord]) -> tuple[set[tuple[str | None, str]], set[str | None]]:
    used: set[tuple[str | None, str]] = set()
    skipped: set[str | None] = set()
    for record in records:
        for cand in record.candidates:
            if cand.shape_only and not count_facts(cell_text(cand.value)):
                continue  # an unknown label whose value stated nothing the reader knows
            for where in (cand.where, cand.label_where):
                if where is not None and where.cell:
                    used.add((where.sheet, where.cell))
        for item in record.line_items:
            used.update((w.sheet, w.cell) for w in item.cells.values() if w.cell)
            if item.row_where.cell and ":" in item.row_where.cell:
                used.update(_row_span(item.row_where))
        for _text, where in [*record.notes, *record.banners, *record.footers]:
            if where.cell:
                used.add((where.sheet, where.cell))
        for segment in record.segments:
            where = segment.get("where", {})
            if where.get("cell"):
                used.add((where.get("sheet"), where["cell"]))
        if record.title_where and record.title_where.cell:
            used.add((record.title_where.sheet, record.title_where.cell))
        skipped.update(where.sheet for where, _why in record.skipped)
    return used, skipped


def _row_span(where: Location) -> set[tuple[str | None, str]]:
    first, last = (cell_position(part) for part in (where.cell or "").split(":"))
    if first is None or last is None:
        return set()
    return {(where.sheet, a1(first[0], c)) for c in range(first[1], last[1] + 1)}


def explain_file(path: Path, mapping: UserMapping | None = None) -> list[dict[str, Any]]:
    """Every non-empty cell of a workbook or CSV that was neither used nor deliberately
    skipped: [{'where': {...}, 'text': ...}] in sheet order.  YAML/JSON files: []."""

    if path.suffix.lower() in (".yaml", ".yml", ".json"):
        return []
    try:
        records = read_offer_file(path)
    except Exception:  # unreadable files are reported by normalize itself
        return []
    if mapping is not None:
        apply_mapping(records, mapping, path)
    used, skipped = _used(records)
    unread: list[dict[str, Any]] = []
    for sheet, rows in _grids(path).items():
        if sheet in skipped or (mapping and sheet in mapping.skip_sheets):
            continue
        if sheet is not None and sheet.lower().startswith("evaltool"):
            continue
        for r, row in enumerate(rows):
            for c, value in enumerate(row):
                if is_empty(value) or (sheet, a1(r, c)) in used:
                    continue
                unread.append({"where": Location(str(path), sheet=sheet, cell=a1(r, c))
                               .to_dict(), "text": cell_text(value)[:200],
                               "code": "cell-not-understood"})
    return unread


def mapping_skeleton(unread: list[dict[str, Any]]) -> str:
    """A starting mapping file: each unread short text as a label to assign."""
    import yaml

    labels: dict[str, str] = {}
    for item in unread:
        text = item["text"]
        if 0 < len(text.split()) <= 6 and not re.fullmatch(r"[\d.,\s%$€£-]+", text):
            where = item["where"]
            key = f"{where.get('sheet')}!{where.get('cell')}" if where.get("sheet") \
                else where.get("cell", text)
            labels.setdefault(key, "FIELD  # " + text)
    body = yaml.safe_dump({"fields": labels, "skip_sheets": [], "options": {}},
                          sort_keys=False, allow_unicode=True)
    return ("# evaltool mapping: replace each FIELD with a canonical field name (see "
            "`evaltool normalize --help`), delete the lines you do not need.\n" + body
            + "# offers side by side: options: {Option A: C, Option B: 'Sheet!D'}\n"
            "# any other layout, one offer per entry, fields at cells ('=Sheet!B6') or values:\n"
            "# offers:\n"
            "#   H200 Madrid: {accelerator: '=Sheet!A6', price_usd_per_gpu_hour: '=Sheet!B6',\n"
            "#                 gpu_count: '=Sheet!B11', region: Madrid}\n")
