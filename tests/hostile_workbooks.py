"""Tiny .ods and .xlsb workbooks written byte by byte, for tests and benchmarks/fuzz.py.

No writer for these formats is installed, and a hostile file is exactly what a writer would not
make: a text cell far from the table ("far cell"), which costs nothing in the file (a repeat
count in .ods, one row header in .xlsb) and a dense grid of gigabytes to a reader that
allocates from A1 to the last used cell.

`cells` maps (row, column), 0-based, to the text of a cell. Formats: OpenDocument 1.2
(content.xml with repeated rows and cells); [MS-XLSB] records (BrtBeginSheet, BrtWsDim,
BrtBeginSheetData, BrtRowHdr, BrtCellSt, BrtEndSheetData, BrtEndSheet; BrtBundleSh in
xl/workbook.bin).
"""

from __future__ import annotations

import struct
import zipfile
from pathlib import Path
from xml.sax.saxutils import escape

_ODS_NS = ('xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
           'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
           'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"')


def _rows(cells: dict[tuple[int, int], str]) -> list[tuple[int, list[tuple[int, str]]]]:
    rows: dict[int, list[tuple[int, str]]] = {}
    for (r, c), text in cells.items():
        rows.setdefault(r, []).append((c, text))
    return [(r, sorted(found)) for r, found in sorted(rows.items())]


def write_ods(path: Path, cells: dict[tuple[int, int], str], sheet: str = "Quote") -> Path:
    """An .ods whose one table holds `cells`; gaps are repeat counts, not written cells."""
    body, row_at = [], 0
    for r, found in _rows(cells):
        if r > row_at:
            body.append(f'<table:table-row table:number-rows-repeated="{r - row_at}">'
                        "<table:table-cell/></table:table-row>")
        body.append("<table:table-row>")
        col_at = 0
        for c, text in found:
            if c > col_at:
                body.append(f'<table:table-cell table:number-columns-repeated="{c - col_at}"/>')
            body.append('<table:table-cell office:value-type="string">'
                        f"<text:p>{escape(text)}</text:p></table:table-cell>")
            col_at = c + 1
        body.append("</table:table-row>")
        row_at = r + 1
    content = (f'<?xml version="1.0" encoding="UTF-8"?><office:document-content {_ODS_NS} '
               'office:version="1.2"><office:body><office:spreadsheet>'
               f'<table:table table:name="{escape(sheet)}">{"".join(body)}</table:table>'
               "</office:spreadsheet></office:body></office:document-content>")
    manifest = ('<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest='
                '"urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2">'
                '<manifest:file-entry manifest:full-path="/" manifest:media-type='
                '"application/vnd.oasis.opendocument.spreadsheet"/><manifest:file-entry '
                'manifest:full-path="content.xml" manifest:media-type="text/xml"/>'
                "</manifest:manifest>")
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(zipfile.ZipInfo("mimetype"),
                         "application/vnd.oasis.opendocument.spreadsheet",
                         compress_type=zipfile.ZIP_STORED)
        archive.writestr("content.xml", content)
        archive.writestr("META-INF/manifest.xml", manifest)
    return path


def _varint(value: int) -> bytes:
    out = bytearray()
    while True:
        byte, value = value & 0x7F, value >> 7
        out.append(byte | (0x80 if value else 0))
        if not value:
            return bytes(out)


def _record(kind: int, body: bytes = b"") -> bytes:
    return _varint(kind) + _varint(len(body)) + body


def _wide(text: str) -> bytes:
    return struct.pack("<I", len(text)) + text.encode("utf-16-le")


_RELS = ('<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns='
         '"http://schemas.openxmlformats.org/package/2006/relationships">'
         '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
         'relationships/{kind}" Target="{target}"/></Relationships>')
_TYPES = ('<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org'
          '/package/2006/content-types"><Default Extension="rels" ContentType="application/'
          'vnd.openxmlformats-package.relationships+xml"/><Override PartName="/xl/workbook.bin" '
          'ContentType="application/vnd.ms-excel.sheet.binary.macroEnabled.main"/><Override '
          'PartName="/xl/worksheets/sheet1.bin" ContentType="application/vnd.ms-excel.worksheet"'
          "/></Types>")


def write_xlsb(path: Path, cells: dict[tuple[int, int], str], sheet: str = "Quote") -> Path:
    """An .xlsb whose one sheet holds `cells` (declared dimension A1:B1, as a liar would)."""
    data = _record(129) + _record(148, struct.pack("<IIII", 0, 0, 0, 1)) + _record(145)
    for r, found in _rows(cells):
        data += _record(0, struct.pack("<IIHBBI", r, 0, 0, 0, 0, 0))
        for c, text in found:
            data += _record(6, struct.pack("<II", c, 0) + _wide(text))
    data += _record(146) + _record(130)
    book = (_record(131) + _record(143) + _record(156, struct.pack("<II", 0, 1) + _wide("rId1")
                                                  + _wide(sheet)) + _record(144) + _record(132))
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("[Content_Types].xml", _TYPES)
        archive.writestr("_rels/.rels", _RELS.format(kind="officeDocument",
                                                     target="xl/workbook.bin"))
        archive.writestr("xl/workbook.bin", book)
        archive.writestr("xl/_rels/workbook.bin.rels", _RELS.format(kind="worksheet",
                                                                    target="worksheets/sheet1.bin"))
        archive.writestr("xl/worksheets/sheet1.bin", data)
    return path


def _biff(kind: int, body: bytes = b"") -> bytes:
    return struct.pack("<HH", kind, len(body)) + body


def _label(row: int, col: int, text: str) -> bytes:  # LABEL: row, column, XF, a wide string
    return _biff(0x0204, struct.pack("<HHHHB", row, col, 15, len(text), 1)
                 + text.encode("utf-16-le"))


def write_xls(path: Path, cells: dict[tuple[int, int], str], sheet: str = "Quote") -> Path:
    """An .xls (BIFF8 in a compound file) whose one sheet holds `cells` (at most 65,536 rows
    by 256 columns, the format's own bounds). DIMENSIONS declares A1:B1 whatever the cells."""
    bof_globals = _biff(0x0809, struct.pack("<HHHHII", 0x0600, 0x0005, 0x0DBB, 0x07CC, 0, 6))
    bof_sheet = _biff(0x0809, struct.pack("<HHHHII", 0x0600, 0x0010, 0x0DBB, 0x07CC, 0, 6))
    name = sheet.encode("latin-1")

    def globals_with(position: int) -> bytes:
        bound = _biff(0x0085, struct.pack("<IBBBB", position, 0, 0, len(name), 0) + name)
        return bof_globals + _biff(0x0042, struct.pack("<H", 1200)) + bound + _biff(0x000A)

    head = globals_with(0)
    body = bof_sheet + _biff(0x0200, struct.pack("<IIHHH", 0, 1, 0, 2, 0))
    for r, found in _rows(cells):
        for c, text in found:
            body += _label(r, c, text)
    body += _biff(0x000A)
    stream = globals_with(len(head)) + body
    stream += b"\x00" * (-len(stream) % 512)
    if len(stream) < 4096:  # below 4,096 bytes a stream would live in the mini stream
        stream += b"\x00" * (4096 - len(stream))
    return _compound(path, stream)


def _compound(path: Path, workbook: bytes) -> Path:
    """A version 3 compound file (512-byte sectors) holding one stream named Workbook:
    sector 0 the FAT, sector 1 the directory, the stream from sector 2."""
    n_stream = len(workbook) // 512
    end, free, fat_sector = 0xFFFFFFFE, 0xFFFFFFFF, 0xFFFFFFFD
    fat = [fat_sector, end] + [2 + i + 1 for i in range(n_stream - 1)] + [end]
    fat += [free] * (128 - len(fat))
    header = (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 16
              + struct.pack("<HHHHH", 0x003E, 0x0003, 0xFFFE, 9, 6) + b"\x00" * 6
              + struct.pack("<IIIIIIIII", 0, 1, 1, 0, 4096, end, 0, end, 0)
              + struct.pack("<I", 0) + struct.pack("<I", free) * 108)

    def entry(name: str, kind: int, start: int, size: int, child: int = free) -> bytes:
        raw = (name + "\x00").encode("utf-16-le")
        return (raw.ljust(64, b"\x00") + struct.pack("<HBB", len(raw), kind, 1)
                + struct.pack("<III", free, free, child) + b"\x00" * 36
                + struct.pack("<III", start, size, 0))

    directory = (entry("Root Entry", 5, end, 0, child=1) + entry("Workbook", 2, 2, len(workbook))
                 + b"\x00" * 256)
    path.write_bytes(header + struct.pack("<128I", *fat) + directory + workbook)
    return path
