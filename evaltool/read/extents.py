"""The used extent of every sheet of an .ods or .xlsb workbook, read before calamine loads it.

calamine allocates a dense grid from the first to the last used cell of a sheet: one value at
XFD5000 in an .ods costs ~40 s and 5 GB before any size check can run (one at XFD1048576 is
refused by calamine itself). These functions find each sheet's real extent from the file's
own structure, streaming it, so `xlsx._scan_archive` can refuse an oversized sheet with
its range named before calamine allocates anything. The .xlsx sheets are scanned in xlsx.py.

- .ods (OpenDocument, ISO/IEC 26300): `content.xml` is streamed with the standard library's
  expat parser (no external entities are fetched; expat refuses entity-expansion bombs).
  Repeated rows and cells (`table:number-rows-repeated`, `table:number-columns-repeated`)
  advance the position without being expanded; only cells with a value or text count.
- .xlsb (Excel binary, [MS-XLSB] 2.1.4 "Record"): each sheet part is a run of records, a
  variable-length type and size before each body. A row header (BrtRowHdr, type 0) names
  the row, a cell record (types 2-11, 62: BrtCellRk ... BrtFmlaError, BrtCellRString) starts
  with its column; the declared dimension (BrtWsDim, 148) is a hint only, as in .xlsx.
- .xls ([MS-CFB] compound file, [MS-XLS] BIFF8 records): the "Workbook" stream is found through
  the container's sector tables; BOUNDSHEET records give each sheet's name and offset, and
  each cell record starts with its row and column. BIFF8 bounds a sheet at 65,536 x 256, so
  this is about seconds and a gigabyte, not a crash. No compound-file reader is installed
  (olefile would be the library to use); the reader here reads only what the extent needs and
  treats any inconsistency as damage.
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


# --- .xls: BIFF8 records in the "Workbook" stream of a compound file ([MS-CFB], [MS-XLS]) ---

_CFB_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_CFB_END = 0xFFFFFFFE  # ENDOFCHAIN; sector numbers above it are markers, not sectors
_XLS_BOUNDSHEET, _XLS_EOF = 0x0085, 0x000A
# NUMBER, LABEL, LABELSST, RK, BOOLERR, FORMULA, RSTRING: row and column first; MULRK: row,
# first column ... last column in its last two bytes. BLANK/MULBLANK are formatting only.
_XLS_CELLS = frozenset({0x0203, 0x0204, 0x00FD, 0x027E, 0x0205, 0x0006, 0x00D6})
_XLS_MULRK = 0x00BD


def _chain(fat: list[int], start: int, limit: int) -> list[int]:
    """The sectors of one chain; a loop or a sector past the file is damage (ValueError)."""
    out: list[int] = []
    seen: set[int] = set()
    sector = start
    while sector < _CFB_END:
        if sector in seen or sector >= limit:
            raise ValueError("the compound file's sector chain is broken")
        seen.add(sector)
        out.append(sector)
        sector = fat[sector] if sector < len(fat) else _CFB_END + 1
    return out


def _workbook_stream(data: bytes) -> bytes:
    """The "Workbook" (BIFF8) or "Book" (BIFF5) stream of a compound file held in `data`."""
    if not data.startswith(_CFB_MAGIC) or len(data) < 512:
        raise ValueError("not a compound file (the .xls container)")
    size = 1 << struct.unpack_from("<H", data, 0x1E)[0]
    mini_size = 1 << struct.unpack_from("<H", data, 0x20)[0]
    if size not in (512, 4096) or mini_size != 64:
        raise ValueError("the compound file declares an impossible sector size")
    n_fat, first_dir = struct.unpack_from("<II", data, 0x2C)
    cutoff, first_mini, n_mini, first_difat, n_difat = struct.unpack_from("<IIIII", data, 0x38)
    n_sectors = (len(data) - size) // size + 1

    def sector(n: int) -> bytes:
        return data[size + n * size: size + (n + 1) * size]

    difat = [s for s in struct.unpack_from("<109I", data, 0x4C) if s < _CFB_END]
    extra, visited = first_difat, set[int]()
    while extra < _CFB_END and len(visited) < n_difat:  # DIFAT sectors: FAT sectors, then next
        if extra >= n_sectors or extra in visited:  # past the file, or a loop
            raise ValueError("the compound file's DIFAT is broken")
        visited.add(extra)
        words = struct.unpack(f"<{size // 4}I", sector(extra))
        difat += [s for s in words[:-1] if s < _CFB_END]
        extra = words[-1]
    fat: list[int] = []
    for s in difat[:n_fat]:
        if s >= n_sectors:
            raise ValueError("the compound file's FAT is broken")
        fat += struct.unpack(f"<{size // 4}I", sector(s))
    directory = b"".join(sector(s) for s in _chain(fat, first_dir, n_sectors))
    entries = [directory[i:i + 128] for i in range(0, len(directory) - 127, 128)]
    if not entries:
        raise ValueError("the compound file has no directory")
    root_start, _ = struct.unpack_from("<II", entries[0], 0x74)
    for entry in entries:
        length = min(struct.unpack_from("<H", entry, 0x40)[0], 64)
        name = entry[:max(0, length - 2)].decode("utf-16-le", "replace")
        if entry[0x42] != 2 or name not in ("Workbook", "Book"):
            continue
        start, stream_size = struct.unpack_from("<II", entry, 0x74)
        if stream_size >= cutoff:
            stream = b"".join(sector(s) for s in _chain(fat, start, n_sectors))
        else:  # a small stream lives in 64-byte pieces of the root's mini stream
            mini_fat: list[int] = []
            for s in _chain(fat, first_mini, n_sectors)[:n_mini]:
                mini_fat += struct.unpack(f"<{size // 4}I", sector(s))
            mini = b"".join(sector(s) for s in _chain(fat, root_start, n_sectors))
            pieces = _chain(mini_fat, start, len(mini) // mini_size)
            stream = b"".join(mini[p * mini_size:(p + 1) * mini_size] for p in pieces)
        return stream[:stream_size]
    raise ValueError("the compound file holds no Workbook stream")


def _biff_records(stream: bytes, at: int) -> Iterator[tuple[int, bytes]]:
    while at + 4 <= len(stream):
        kind, size = struct.unpack_from("<HH", stream, at)
        yield kind, stream[at + 4:at + 4 + size]
        at += 4 + size


def xls_extents(data: bytes) -> Iterator[Extent]:
    """(sheet name, last used row, last used column) of every sheet of an .xls held in
    `data` (the file's size is capped before this runs)."""
    stream = _workbook_stream(data)
    sheets: list[tuple[str, int]] = []
    for kind, body in _biff_records(stream, 0):
        if kind == _XLS_BOUNDSHEET and len(body) >= 8:
            (position,), count, wide = struct.unpack_from("<I", body), body[6], body[7] & 1
            raw = body[8:8 + count * (2 if wide else 1)]
            sheets.append((raw.decode("utf-16-le" if wide else "latin-1", "replace"), position))
        elif kind == _XLS_EOF:
            break
    for name, position in sheets:
        last_row = last_col = 0
        for kind, body in _biff_records(stream, position):
            if kind == _XLS_EOF:
                break
            if kind in _XLS_CELLS and len(body) >= 4:
                row, col = struct.unpack_from("<HH", body)
            elif kind == _XLS_MULRK and len(body) >= 6:
                row = struct.unpack_from("<H", body)[0]
                col = struct.unpack_from("<H", body, len(body) - 2)[0]
            else:
                continue
            last_row, last_col = max(last_row, row + 1), max(last_col, col + 1)
        yield name, last_row, last_col
