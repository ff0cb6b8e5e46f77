"""The used extent of every sheet of an .ods or .xlsb workbook, read before calamine loads it.

calamine allocates a dense grid from the first to the last used cell of a sheet: one value at
XFD5000 in an .ods costs ~40 s and 5 GB before any size check can run (one at XFD1048576 is
refused by calamine itself). These functions find each sheet's real extent from the file's
own structure, streaming it, so `xlsx.check_sheet_extents` can refuse an oversized sheet with
its range named before calamine allocates anything. The .xlsx sheets are scanned in xlsx.py.

- .ods (OpenDocument, ISO/IEC 26300): `content.xml` is streamed with the standard library's
  expat parser (no external entities are fetched; expat refuses entity-expansion bombs).
  Repeated rows and cells (`table:number-rows-repeated`, `table:number-columns-repeated`)
  advance the position without being expanded; only cells with a value or text count.
- .xlsb (Excel binary, [MS-XLSB] 2.1.4 "Record"): each sheet part is a run of records, a
  variable-length type and size before each body. A row header (BrtRowHdr, type 0) names
  the row, a cell record (types 2-11, 62: BrtCellRk ... BrtFmlaError, BrtCellRString) starts
  with its column; the declared dimension (BrtWsDim, 148) is a hint only, as in .xlsx.
"""

from __future__ import annotations

import re
import struct
import zipfile
from collections.abc import Iterator
from pathlib import PurePosixPath
from xml.etree import ElementTree

# A repeat count longer than this many digits is refused as huge without int() on it.
_MAX_REPEAT_DIGITS = 9
_TABLE = "{urn:oasis:names:tc:opendocument:xmlns:table:1.0}"
_OFFICE = "{urn:oasis:names:tc:opendocument:xmlns:office:1.0}"
_CELLS = (f"{_TABLE}table-cell", f"{_TABLE}covered-table-cell")

_XLSB_ROW = 0  # BrtRowHdr
_XLSB_CELLS = frozenset({*range(2, 12), 62})  # BrtCellRk .. BrtFmlaError, BrtCellRString
_XLSB_SHEET = 156  # BrtBundleSh, in xl/workbook.bin
_REL_RE = re.compile(rb"<Relationship\b[^>]*?\bId=\"([^\"]*)\"[^>]*?\bTarget=\"([^\"]*)\"")
_REL_RE2 = re.compile(rb"<Relationship\b[^>]*?\bTarget=\"([^\"]*)\"[^>]*?\bId=\"([^\"]*)\"")

Extent = tuple[str, int, int]  # sheet name, last used row, last used column (1-based)


def _repeat(element: ElementTree.Element, name: str) -> int:
    text = (element.get(name) or "1").strip()
    if not text.isdigit():
        return 1
    return 10**_MAX_REPEAT_DIGITS if len(text) > _MAX_REPEAT_DIGITS else max(1, int(text))


def ods_extents(archive: zipfile.ZipFile) -> Iterator[Extent]:
    """(sheet name, last used row, last used column) of every table of an .ods."""
    name, row, last_row, last_col = "", 0, 0, 0
    col = row_cols = 0
    with archive.open("content.xml") as stream:
        for event, element in ElementTree.iterparse(stream, events=("start", "end")):
            tag = element.tag
            if event == "start":
                if tag == f"{_TABLE}table":
                    name, row, last_row, last_col = element.get(f"{_TABLE}name") or "", 0, 0, 0
                elif tag == f"{_TABLE}table-row":
                    col = row_cols = 0
                continue
            if tag in _CELLS:
                span = _repeat(element, f"{_TABLE}number-columns-repeated")
                if element.get(f"{_OFFICE}value-type") is not None or len(element):
                    row_cols = col + span
                col += span
                element.clear()
            elif tag == f"{_TABLE}table-row":
                span = _repeat(element, f"{_TABLE}number-rows-repeated")
                if row_cols:
                    last_row, last_col = row + span, max(last_col, row_cols)
                row += span
                element.clear()
            elif tag == f"{_TABLE}table":
                yield name, last_row, last_col
                element.clear()


def _varint(data: bytes, at: int, most: int) -> tuple[int, int]:
    """A record's type (at most 2 bytes) or size (at most 4): 7 bits a byte, high bit = more."""
    value = shift = 0
    for i in range(most):
        if at + i >= len(data):
            raise EOFError("a record header runs past the end of the sheet")
        byte = data[at + i]
        value |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            return value, at + i + 1
    return value, at + most


def _records(data: bytes) -> Iterator[tuple[int, bytes]]:
    at = 0
    while at < len(data):
        kind, at = _varint(data, at, 2)
        size, at = _varint(data, at, 4)
        yield kind, data[at:at + size]
        at += size


def _xlsb_sheets(archive: zipfile.ZipFile) -> list[tuple[str, str]]:
    """(sheet name, zip member) of the sheets xl/workbook.bin lists (BrtBundleSh records)."""
    names = set(archive.namelist())
    if "xl/workbook.bin" not in names or "xl/_rels/workbook.bin.rels" not in names:
        return []
    rels = archive.read("xl/_rels/workbook.bin.rels")
    targets = {rid.decode("utf-8", "replace"): t for rid, t in _REL_RE.findall(rels)}
    targets.update({rid.decode("utf-8", "replace"): t for t, rid in _REL_RE2.findall(rels)})
    sheets = []
    for kind, body in _records(archive.read("xl/workbook.bin")):
        if kind != _XLSB_SHEET or len(body) < 12:
            continue
        at = 8  # hsState, iTabID
        strings = []
        for _ in range(2):  # strRelID, strName: a count of UTF-16 characters, then them
            (count,) = struct.unpack_from("<I", body, at)
            at += 4
            if count == 0xFFFFFFFF:
                strings.append("")
                continue
            strings.append(body[at:at + 2 * count].decode("utf-16-le", "replace"))
            at += 2 * count
        target = targets.get(strings[0])
        if target is None:
            continue
        text = target.decode("utf-8", "replace")
        member = text.lstrip("/") if text.startswith("/") else str(PurePosixPath("xl", text))
        if member in names:
            sheets.append((strings[1], member))
    return sheets


def xlsb_extents(archive: zipfile.ZipFile) -> Iterator[Extent]:
    """(sheet name, last used row, last used column) of every sheet of an .xlsb."""
    for name, member in _xlsb_sheets(archive):
        row = last_row = last_col = 0
        for kind, body in _records(archive.read(member)):  # the archive's size is capped
            if kind == _XLSB_ROW and len(body) >= 4:
                (row,) = struct.unpack_from("<I", body)
            elif kind in _XLSB_CELLS and len(body) >= 4:
                (col,) = struct.unpack_from("<I", body)
                last_row, last_col = max(last_row, row + 1), max(last_col, col + 1)
        yield name, last_row, last_col
