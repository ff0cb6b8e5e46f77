"""Read a workbook's cells with their positions, cached values only.

python-calamine (Rust, maintained, used by pandas >= 2.2) reads cached values, dates and
merged ranges 5-15x faster than openpyxl full mode (shared/research/ecosystem.md §3;
benchmarks/ingest.py measures it here).  It never evaluates formulas and never touches
VBA, so .xlsm files are read as data only.  What calamine cannot tell is whether an empty
cell is a formula that was never calculated (files written by scripts have no cached
values); for that we scan the sheet XML for `<f>` elements without a `<v>`, with a regex
over bytes (no XML entity expansion, so no billion-laughs risk).
"""

from __future__ import annotations

import re
import zipfile
from pathlib import Path, PurePosixPath

from evaltool.errors import InputError, Location, Problem
from evaltool.read.cells import SheetGrid
from evaltool.read.safety import check_file_size, check_workbook_archive

WORKBOOK_SUFFIXES = frozenset({".xlsx", ".xlsm", ".xltx", ".xltm", ".xls", ".xlsb", ".ods"})
_ZIP_SUFFIXES = frozenset({".xlsx", ".xlsm", ".xltx", ".xltm"})
MAX_CELLS_PER_SHEET = 300_000  # ~10k rows x 30 columns; a quote is a few hundred cells

_SHEET_RE = re.compile(rb"<(?:\w+:)?sheet\b[^>]*?\bname=\"([^\"]*)\"[^>]*?\br:id=\"([^\"]*)\"")
_REL_RE = re.compile(rb"<Relationship\b[^>]*?\bId=\"([^\"]*)\"[^>]*?\bTarget=\"([^\"]*)\"")
_REL_RE2 = re.compile(rb"<Relationship\b[^>]*?\bTarget=\"([^\"]*)\"[^>]*?\bId=\"([^\"]*)\"")
_CELL_RE = re.compile(rb"<(?:\w+:)?c\b([^>]*?)(?:/>|>(.*?)</(?:\w+:)?c>)", re.S)
_REF_RE = re.compile(rb"\br=\"([A-Z]+)([0-9]+)\"")
_VALUE_RE = re.compile(rb"<(?:\w+:)?v>\s*[^<\s]", re.S)
_FORMULA_RE = re.compile(rb"<(?:\w+:)?f\b")


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


def formula_cells_without_cached_value(path: Path) -> dict[str, set[tuple[int, int]]]:
    """Sheet name -> 0-based (row, col) of formula cells that hold no cached value."""
    found: dict[str, set[tuple[int, int]]] = {}
    with zipfile.ZipFile(path) as archive:
        names = set(archive.namelist())
        if "xl/workbook.xml" not in names or "xl/_rels/workbook.xml.rels" not in names:
            return found
        workbook = archive.read("xl/workbook.xml")
        rels_xml = archive.read("xl/_rels/workbook.xml.rels")
        targets = {rid: target for rid, target in _REL_RE.findall(rels_xml)}
        targets.update({rid: target for target, rid in _REL_RE2.findall(rels_xml)})
        for raw_name, rid in _SHEET_RE.findall(workbook):
            target = targets.get(rid)
            if target is None:
                continue
            text = target.decode("utf-8", "replace")
            member = text.lstrip("/") if text.startswith("/") else str(PurePosixPath("xl", text))
            if member not in names:
                continue
            xml = archive.read(member)
            if b"<f" not in xml:
                continue
            cells: set[tuple[int, int]] = set()
            for attrs, body in _CELL_RE.findall(xml):
                if not body or not _FORMULA_RE.search(body) or _VALUE_RE.search(body):
                    continue
                ref = _REF_RE.search(attrs)
                if ref:
                    cells.add((int(ref.group(2)) - 1, _col_index(ref.group(1))))
            if cells:
                found[_unescape(raw_name)] = cells
    return found


def read_workbook(path: Path) -> list[SheetGrid]:
    """All visible-or-not sheets of a workbook as grids of cached values.

    Raises InputError (naming the file) for a file that is not a readable workbook.
    """
    check_file_size(path)
    suffix = path.suffix.lower()
    if suffix in _ZIP_SUFFIXES:
        check_workbook_archive(path)
    import python_calamine

    where = Location(str(path))
    try:
        workbook = python_calamine.CalamineWorkbook.from_path(str(path))
        sheet_names = list(workbook.sheet_names)
    except Exception as exc:  # calamine raises its own error types for every bad file
        raise InputError(Problem(where, "cannot read the workbook", found=_short(exc),
                                 expected="an .xlsx/.xlsm/.xls/.ods workbook")) from None
    missing_values: dict[str, set[tuple[int, int]]] = {}
    if suffix in _ZIP_SUFFIXES:
        try:
            missing_values = formula_cells_without_cached_value(path)
        except (zipfile.BadZipFile, OSError, KeyError):
            missing_values = {}
    grids: list[SheetGrid] = []
    hidden = _hidden_sheets(workbook)
    for name in sheet_names:
        try:
            sheet = workbook.get_sheet_by_name(name)
            if sheet.height * max(sheet.width, 1) > MAX_CELLS_PER_SHEET:
                raise InputError(Problem(Location(str(path), sheet=name),
                                         "sheet too large to be an offer; refused",
                                         found=f"{sheet.height} rows x {sheet.width} columns",
                                         expected=f"at most {MAX_CELLS_PER_SHEET:,} cells"))
            rows = sheet.to_python(skip_empty_area=False)
        except InputError:
            raise
        except Exception as exc:
            raise InputError(Problem(Location(str(path), sheet=name), "cannot read the sheet",
                                     found=_short(exc), expected="a readable sheet")) from None
        grids.append(SheetGrid(file=str(path), name=name, rows=[list(r) for r in rows],
                               formula_cells_without_value=missing_values.get(name, set()),
                               hidden=name in hidden))
    return grids


def _hidden_sheets(workbook: object) -> set[str]:
    """Names of hidden and very hidden sheets (calamine's sheet metadata)."""
    try:
        return {m.name for m in workbook.sheets_metadata  # type: ignore[attr-defined]
                if "visible" not in str(m.visible).lower().rsplit(".", 1)[-1]}
    except Exception:  # older calamine without metadata: every sheet is read
        return set()


def _short(exc: Exception) -> str:
    text = str(exc).strip() or type(exc).__name__
    return text if len(text) <= 160 else text[:157] + "..."
