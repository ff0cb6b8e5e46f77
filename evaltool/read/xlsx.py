"""Read a workbook's cells with their positions, cached values only.

python-calamine (Rust, maintained, used by pandas >= 2.2) reads cached values, dates and
merged ranges 5-15x faster than openpyxl full mode (shared/research/ecosystem.md §3;
benchmarks/ingest.py measures it here).  It never evaluates formulas and never touches
VBA, so .xlsm files are read as data only.  What calamine cannot tell is whether an empty
cell is a formula that was never calculated (files written by scripts have no cached
values); for that we scan the sheet XML for `<f>` elements without a `<v>`, with a regex
over bytes (no XML entity expansion, so no billion-laughs risk), and keep their text: plain
arithmetic among them is worked out by read/formulas.py.

calamine allocates a dense grid from the first to the last used cell of a sheet, so one stray
value at XFD1048576 asks for ~549 GB and aborts the process from native code.  Before calamine
sees an .xlsx, .xlsb or .ods, `_scan_archive` reads each sheet (XML, or binary records
in read/extents.py) and finds the cells' real extent (the declared `<dimension>` is only a
hint: calamine ignores it, and so do we), refusing a sheet larger than `MAX_CELLS_PER_SHEET`
with the range named.
"""

from __future__ import annotations

import re
import struct
import zipfile
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from xml.etree import ElementTree
from xml.sax.saxutils import unescape

from evaltool.errors import InputError, Location, Problem
from evaltool.read.cells import SheetGrid, a1
from evaltool.read.extents import Extent, ods_extents, xls_extents, xlsb_extents
from evaltool.read.formulas import evaluate_formulas
from evaltool.read.layout import is_contract_sheet
from evaltool.read.properties import add_header_footer, archive_properties
from evaltool.read.safety import (
    MAX_CLAUSE_CELL_CHARS,
    MAX_VALUE_CHARS,
    bound_cells,
    check_file_size,
    open_workbook_archive,
)

WORKBOOK_SUFFIXES = frozenset({".xlsx", ".xlsm", ".xltx", ".xltm", ".xls", ".xlsb", ".ods"})
_ZIP_SUFFIXES = frozenset({".xlsx", ".xlsm", ".xltx", ".xltm"})
_CHECKED_ZIP_SUFFIXES = frozenset({".xlsb", ".ods"})  # extents checked, no formula scan
MAX_CELLS_PER_SHEET = 300_000  # ~10k rows x 30 columns; a quote is a few hundred cells

_SHEET_RE = re.compile(rb"<(?:\w+:)?sheet\b[^>]*?\bname=\"([^\"]*)\"[^>]*?\br:id=\"([^\"]*)\"")
_REL_RE = re.compile(rb"<Relationship\b[^>]*?\bId=\"([^\"]*)\"[^>]*?\bTarget=\"([^\"]*)\"")
_REL_RE2 = re.compile(rb"<Relationship\b[^>]*?\bTarget=\"([^\"]*)\"[^>]*?\bId=\"([^\"]*)\"")
_CELL_RE = re.compile(rb"<(?:\w+:)?c\b([^>]*?)(?:/>|>(.*?)</(?:\w+:)?c>)", re.S)
_REF_RE = re.compile(rb"\br=\"([A-Z]+)([0-9]+)\"")
_VALUE_RE = re.compile(rb"<(?:\w+:)?v>\s*[^<\s]", re.S)
_FORMULA_RE = re.compile(rb"<(?:\w+:)?f\b")
_FORMULA_TEXT_RE = re.compile(rb"<(?:\w+:)?f\b[^>]*?(?<!/)>(.*?)</(?:\w+:)?f>", re.S)
# A cell with a body (a value, inline string or formula); `<c r="X1" s="3"/>` is format only.
_USED_CELL_RE = re.compile(rb"<(?:\w+:)?c\b[^>]*?\br=\"([A-Z]{1,3})([0-9]{1,7})\"[^>]*?(?<!/)>")
_SCAN_CHUNK = 1 << 20
# A sheet's XML up to this size is inflated once and scanned whole for its extent, its
# uncalculated formulas and its printed header/footer; a larger one is streamed for its extent.
_WHOLE_SHEET_BYTES = 16 << 20
_HEADER_FOOTER_SHEET_BYTES = 20_000_000


def _col_index(letters: bytes) -> int:
    index = 0
    for char in letters:
        index = index * 26 + (char - 64)
    return index - 1


def _unescape(name: bytes) -> str:
    text = name.decode("utf-8", "replace")
    for entity, char in (("&lt;", "<"), ("&gt;", ">"), ("&quot;", '"'), ("&apos;", "'"),
                         ("&amp;", "&")):
        text = text.replace(entity, char)
    return text


def _sheet_members(archive: zipfile.ZipFile) -> list[tuple[str, str]]:
    """(sheet name, zip member) of every worksheet the workbook lists."""
    names = set(archive.namelist())
    if "xl/workbook.xml" not in names or "xl/_rels/workbook.xml.rels" not in names:
        return []
    workbook = archive.read("xl/workbook.xml")
    rels_xml = archive.read("xl/_rels/workbook.xml.rels")
    targets = {rid: target for rid, target in _REL_RE.findall(rels_xml)}
    targets.update({rid: target for target, rid in _REL_RE2.findall(rels_xml)})
    members = []
    for raw_name, rid in _SHEET_RE.findall(workbook):
        target = targets.get(rid)
        if target is None:
            continue
        text = target.decode("utf-8", "replace")
        member = text.lstrip("/") if text.startswith("/") else str(PurePosixPath("xl", text))
        if member in names:
            members.append((_unescape(raw_name), member))
    return members


def _used_extent(archive: zipfile.ZipFile, member: str) -> tuple[int, int]:
    """(last row, last column), 1-based, of the cells with content in one sheet's XML.

    Streamed in 1 MiB chunks (the archive's total size is already capped), so a sheet is
    never held whole; a small overlap keeps a cell tag split between chunks.
    """
    last_row = last_col = 0
    tail = b""
    with archive.open(member) as stream:
        while True:
            chunk = stream.read(_SCAN_CHUNK)
            if not chunk:
                break
            data = tail + chunk
            for letters, digits in _USED_CELL_RE.findall(data):
                last_row = max(last_row, int(digits))
                last_col = max(last_col, _col_index(letters) + 1)
            tail = data[-512:]
    return last_row, last_col


def _extents(path: Path, archive: zipfile.ZipFile) -> Iterator[Extent]:
    suffix = path.suffix.lower()
    if suffix == ".ods":
        yield from ods_extents(archive)
    elif suffix == ".xlsb":
        yield from xlsb_extents(archive)
    else:
        for name, member in _sheet_members(archive):
            yield name, *_used_extent(archive, member)


def _refuse_large(path: Path, extents: Iterator[Extent], max_cells: int) -> None:
    for name, rows, cols in extents:
        if rows * cols > max_cells:
            last_cell = a1(rows - 1, cols - 1)
            raise InputError(Problem(
                Location(str(path), sheet=name, cell=f"A1:{last_cell}"), code="sheet-too-large",
                params={"last_cell": last_cell, "rows": rows, "columns": cols,
                        "cells": rows * cols, "limit": max_cells}))


def _uncalculated_formulas(xml: bytes) -> dict[tuple[int, int], str]:
    """The formula cells without a cached value, with their formula's text ("" when the
    cell shares another cell's formula and states none of its own)."""
    cells: dict[tuple[int, int], str] = {}
    if b"<f" not in xml:
        return cells
    for attrs, body in _CELL_RE.findall(xml):
        if not body or not _FORMULA_RE.search(body) or _VALUE_RE.search(body):
            continue
        ref = _REF_RE.search(attrs)
        if ref:
            text = _FORMULA_TEXT_RE.search(body)
            formula = unescape(text.group(1).decode("utf-8", "replace")) if text else ""
            cells[(int(ref.group(2)) - 1, _col_index(ref.group(1)))] = formula
    return cells


def _xml_extent(xml: bytes) -> tuple[int, int]:
    cells = _USED_CELL_RE.findall(xml)
    if not cells:
        return 0, 0
    # Each distinct column's letters converted once (a sheet has few columns, many cells).
    return (max(int(digits) for _, digits in cells),
            max(_col_index(letters) for letters in {letters for letters, _ in cells}) + 1)


@dataclass
class _ArchiveScan:
    """What one pass over a workbook's zip archive found before calamine reads it."""

    formula_cells: dict[str, dict[tuple[int, int], str]] = field(default_factory=dict)
    properties: dict[str, str] = field(default_factory=dict)


def _scan_archive(path: Path, suffix: str, max_cells: int) -> _ArchiveScan:
    """Open the archive once: check it, refuse an oversized sheet, find uncalculated formulas
    and read the document properties, inflating each sheet's XML once (it was three times)."""
    scan = _ArchiveScan()
    with open_workbook_archive(path, opendocument=suffix == ".ods") as archive:
        if suffix not in _ZIP_SUFFIXES:  # .xlsb / .ods: extents only, in their own formats
            _refuse_large(path, _extents(path, archive), max_cells)
            scan.properties = archive_properties(archive)
            return scan
        texts_by_member: dict[str, list[str]] = {}
        for name, member in _sheet_members(archive):
            size = archive.getinfo(member).file_size
            xml = archive.read(member) if size <= _WHOLE_SHEET_BYTES else None
            rows, cols = _xml_extent(xml) if xml is not None else _used_extent(archive, member)
            _refuse_large(path, iter([(name, rows, cols)]), max_cells)
            if xml is None:
                xml = archive.read(member)
            cells = _uncalculated_formulas(xml)
            if cells:
                scan.formula_cells[name] = cells
            if size <= _HEADER_FOOTER_SHEET_BYTES:
                add_header_footer(xml, texts_by_member.setdefault(member, []))
        texts: list[str] = []
        for member in sorted(texts_by_member):  # the order the properties reader always used
            texts.extend(t for t in texts_by_member[member] if t not in texts)
        scan.properties = archive_properties(archive, texts)
    return scan


def read_workbook(path: Path) -> list[SheetGrid]:
    """All visible-or-not sheets of a workbook as grids of cached values.

    Raises InputError (naming the file) for a file that is not a readable workbook.
    """
    return read_workbook_and_properties(path)[0]


def read_workbook_and_properties(path: Path) -> tuple[list[SheetGrid], dict[str, str]]:
    """`read_workbook`, with the document properties (read/properties.py) from the same pass
    over the archive."""
    check_file_size(path)
    suffix = path.suffix.lower()
    where = Location(str(path))
    scan = _ArchiveScan()
    if suffix in _ZIP_SUFFIXES or suffix in _CHECKED_ZIP_SUFFIXES:
        try:
            scan = _scan_archive(path, suffix, MAX_CELLS_PER_SHEET)
        except (zipfile.BadZipFile, zlib.error, EOFError, OSError, KeyError,
                NotImplementedError, ElementTree.ParseError, struct.error) as exc:
            raise InputError(_damaged(where, exc)) from None
    elif suffix == ".xls":
        try:
            _refuse_large(path, xls_extents(path.read_bytes()), MAX_CELLS_PER_SHEET)
        except (ValueError, struct.error, IndexError) as exc:
            raise InputError(Problem(where, code="xls-container-damaged",
                                     params={"reason": _short(exc)})) from None
    import python_calamine

    try:
        workbook = python_calamine.CalamineWorkbook.from_path(str(path))
        sheet_names = list(workbook.sheet_names)
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as exc:  # calamine raises its own types, and panics (BaseException)
        raise InputError(Problem(where, code="workbook-unreadable",
                                 params={"reason": _short(exc)})) from None
    missing_values = scan.formula_cells
    grids: list[SheetGrid] = []
    hidden = _hidden_sheets(workbook)
    for name in sheet_names:
        try:
            sheet = workbook.get_sheet_by_name(name)
            if sheet.height * max(sheet.width, 1) > MAX_CELLS_PER_SHEET:
                raise InputError(Problem(Location(str(path), sheet=name),
                                         code="sheet-too-many-cells", params={
                                             "rows": sheet.height, "columns": sheet.width,
                                             "limit": MAX_CELLS_PER_SHEET}))
            rows = sheet.to_python(skip_empty_area=False)
        except InputError:
            raise
        except (KeyboardInterrupt, SystemExit):
            raise
        except BaseException as exc:  # a damaged sheet; a native panic is a BaseException
            raise InputError(Problem(Location(str(path), sheet=name), code="sheet-unreadable",
                                     params={"reason": _short(exc)})) from None
        grid = SheetGrid(file=str(path), name=name, rows=[list(r) for r in rows],
                         formula_cells_without_value=set(missing_values.get(name, {})),
                         hidden=name in hidden, merged=_merged_ranges(sheet))
        # A contract sheet's clause may fill a cell; any other cell holds a value or a label.
        limit = MAX_CLAUSE_CELL_CHARS if is_contract_sheet(name) else MAX_VALUE_CHARS
        grid.problems.extend(bound_cells(grid.rows, grid.where, limit))
        grids.append(grid)
    if missing_values:  # arithmetic saved without its value: worked out and said
        evaluate_formulas(grids, {name: dict(cells) for name, cells in missing_values.items()})
    return grids, scan.properties


def _merged_ranges(sheet: object) -> list[tuple[int, int, int, int]]:
    """The sheet's merged ranges as (first row, first col, last row, last col), 0-based."""
    try:
        ranges = sheet.merged_cell_ranges  # type: ignore[attr-defined]
        return [(int(a[0]), int(a[1]), int(b[0]), int(b[1])) for a, b in ranges or ()][:10_000]
    except Exception:  # a format or calamine version without merged ranges
        return []


def _hidden_sheets(workbook: object) -> set[str]:
    """Names of hidden and very hidden sheets (calamine's sheet metadata)."""
    try:
        return {m.name for m in workbook.sheets_metadata  # type: ignore[attr-defined]
                if "visible" not in str(m.visible).lower().rsplit(".", 1)[-1]}
    except Exception:  # older calamine without metadata: every sheet is read
        return set()


def _damaged(where: Location, exc: BaseException) -> Problem:
    # NotImplementedError: zipfile's word for a compression method or version it lacks.
    return Problem(where, code="workbook-damaged",
                   params={"error": type(exc).__name__, "reason": _short(exc)})


def _short(exc: BaseException) -> str:
    text = str(exc).strip() or type(exc).__name__
    return text if len(text) <= 160 else text[:157] + "..."
