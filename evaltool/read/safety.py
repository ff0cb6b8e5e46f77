"""Refuse hostile or oversized inputs before any parser sees them.

Vendor files are untrusted (PRODUCT.md "Untrusted input").  An .xlsx is a zip of XML: a
tiny file can expand to gigabytes (zip bomb), so the archive's declared uncompressed size
and its compression ratio are checked from the zip directory alone, before any member is
inflated.  Text files have their encoding detected (charset-normalizer) rather than
assumed.
"""

from __future__ import annotations

import re
import zipfile
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from evaltool.errors import EvaltoolError, InputError, Location, Problem

MAX_FILE_BYTES = 50_000_000  # no vendor quote is 50 MB; bigger files are refused unread
MAX_TEXT_BYTES = 5_000_000  # CSV / YAML / JSON offers
MAX_UNCOMPRESSED_BYTES = 200_000_000  # sum of declared member sizes of a workbook
MAX_COMPRESSION_RATIO = 200  # XML compresses ~10-20x; a ratio of 1000+ is a bomb
MAX_ZIP_MEMBERS = 10_000
MAX_VALUE_CHARS = 5_000  # one labelled value; long text belongs in a contract sheet or section
# Excel's own cell limit ("Excel specifications and limits", support.microsoft.com: "Total number
# of characters that a cell can contain: 32,767"); a clause in a contract sheet may be this long.
MAX_CLAUSE_CELL_CHARS = 32_767
TOO_LONG_PLACEHOLDER = "[not read: too long]"  # no digits, no currency: no parser reads a figure
MAX_NUMBER_DIGITS = 30  # no price, count or capacity needs more digits than this
_DIGIT_RUN = re.compile(rf"[0-9]{{{MAX_NUMBER_DIGITS + 1},}}")  # linear: one pass, no nesting


def check_file_size(path: Path, limit_bytes: int = MAX_FILE_BYTES) -> int:
    """Return the file size; raise InputError if it is missing, not a file, or too big."""
    where = Location(str(path))
    if not path.exists():
        raise InputError(Problem(where, code="file-not-found"))
    if not path.is_file():
        raise InputError(Problem(where, code="not-a-file"))
    size = path.stat().st_size
    if size == 0:
        raise InputError(Problem(where, code="empty-file"))
    if size > limit_bytes:
        raise InputError(Problem(where, code="file-too-large", params={
            "size_bytes": size, "limit_bytes": limit_bytes, "limit": "file size"}))
    return size


def open_workbook_archive(path: Path, *, opendocument: bool = False) -> zipfile.ZipFile:
    """The workbook's zip archive (.xlsx/.xlsm/.xlsb, or an .ods when `opendocument`), opened
    once and its directory checked for bombs and non-workbooks, inflating nothing; the caller
    closes it.  One open serves the extent scan, the formula scan and the
    document properties (benchmarks/ingest.py: four opens were a tenth of normalising)."""
    where = Location(str(path))
    try:
        archive = zipfile.ZipFile(path)
        members = archive.infolist()
    except (zipfile.BadZipFile, OSError, NotImplementedError) as exc:  # unsupported zip version
        raise InputError(Problem(where, code="not-a-zip-archive",
                                 params={"error": type(exc).__name__})) from None
    try:
        _check_members(where, members, opendocument)
    except InputError:
        archive.close()
        raise
    return archive


def _check_members(where: Location, members: list[zipfile.ZipInfo], opendocument: bool) -> None:
    if len(members) > MAX_ZIP_MEMBERS:
        raise InputError(Problem(where, code="too-many-parts", params={
            "members": len(members), "limit": MAX_ZIP_MEMBERS}))
    names = {m.filename for m in members}
    if opendocument:
        if "content.xml" not in names:
            raise InputError(Problem(where, code="not-an-opendocument-spreadsheet"))
    elif "[Content_Types].xml" not in names or not any(n.startswith("xl/") for n in names):
        raise InputError(Problem(where, code="not-a-workbook"))
    uncompressed = sum(m.file_size for m in members)
    compressed = sum(m.compress_size for m in members) or 1
    if uncompressed > MAX_UNCOMPRESSED_BYTES:
        raise InputError(Problem(where, code="uncompressed-too-large", params={
            "size_bytes": uncompressed, "limit_bytes": MAX_UNCOMPRESSED_BYTES}))
    if uncompressed / compressed > MAX_COMPRESSION_RATIO and uncompressed > 10_000_000:
        raise InputError(Problem(where, code="compression-ratio-too-high", params={
            "ratio": uncompressed / compressed, "limit": MAX_COMPRESSION_RATIO}))


def read_text(path: Path, limit_bytes: int = MAX_TEXT_BYTES) -> str:
    """Read a text file of unknown encoding: UTF-8 (with or without BOM) or detected."""
    check_file_size(path, limit_bytes)
    raw = path.read_bytes()
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        pass
    # charset-normalizer: maintained, pure-python fallback, used by requests; chardet is not
    # installed and guessing cp1252 by hand misreads German/French quotes.
    from charset_normalizer import from_bytes

    best = from_bytes(raw).best()
    if best is None:
        raise InputError(Problem(Location(str(path)), code="unknown-encoding"))
    return str(best)


def value_too_long(text: str, where: Location, field: str | None = None) -> Problem | None:
    """A warning when one value is too long to be a figure, else None.

    Checked before any value pattern sees the text, so no regex ever runs over a 50,000-digit
    cell: the guard itself is one linear scan.
    """
    if len(text) > MAX_VALUE_CHARS:
        return Problem(where, field=field, found=text[:40] + "…", severity="warning",
                       code="value-too-long",
                       params={"chars": len(text), "limit": MAX_VALUE_CHARS})
    run = _DIGIT_RUN.search(text)
    if run is not None:
        return Problem(where, field=field, found=text[:40] + ("…" if len(text) > 40 else ""),
                       severity="warning", code="number-too-long",
                       params={"digits": run.end() - run.start(), "limit": MAX_NUMBER_DIGITS})
    return None


def bound_cells(rows: list[list[Any]], where: Callable[[int, int], Location],
                limit: int = MAX_VALUE_CHARS) -> list[Problem]:
    """Replace every text cell longer than `limit` by a short placeholder, in place.

    Runs where a grid is built, before layout reading or any value pattern sees a cell, so the
    work per cell is bounded however long the vendor's text is.  One `cell-too-long` warning
    names each replaced cell; the placeholder reads as a value that cannot be read.
    """
    problems: list[Problem] = []
    for r, row in enumerate(rows):
        for c, value in enumerate(row):
            if isinstance(value, str) and len(value) > limit:
                problems.append(Problem(
                    where(r, c), found=value[:40] + "…", severity="warning",
                    code="cell-too-long", params={"chars": len(value), "limit": limit}))
                row[c] = TOO_LONG_PLACEHOLDER
    return problems


def problem_for_exception(exc: BaseException, where: Location, doing: str) -> Problem:
    """The coded problem for an exception raised while reading or evaluating one input.

    Damaged files (corrupt zip or deflate streams, undecodable bytes, OS errors) are
    `unreadable-file`; exhausted stack or memory are named as such; anything else is a bug in
    evaltool, reported as `internal-error-in-offer` for this input only.
    """
    if isinstance(exc, InputError) and exc.problems:
        return exc.problems[0]
    if isinstance(exc, EvaltoolError):
        return Problem(where, code="input-refused", params={"reason": str(exc)})
    if isinstance(exc, RecursionError):
        return Problem(where, code="nested-too-deeply-to-read", params={"doing": doing})
    if isinstance(exc, MemoryError):
        return Problem(where, code="out-of-memory", params={"doing": doing})
    if isinstance(exc, zipfile.BadZipFile | zlib.error | EOFError | UnicodeError | OSError):
        return Problem(where, code="unreadable-file", params={
            "doing": doing, "error": type(exc).__name__, "reason": _short(exc)})
    return Problem(where, code="internal-error-in-offer", params={
        "doing": doing, "error": type(exc).__name__, "reason": _short(exc)})


def _short(exc: BaseException) -> str:
    text = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
    return text if len(text) <= 160 else text[:157] + "..."
