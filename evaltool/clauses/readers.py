"""Read contract text from files: .txt/.md (any common encoding), .pdf, .docx, and the
contract sheet of an offer workbook (.xlsx) or the contract key of an offer YAML.

Libraries: charset-normalizer detects encodings (the maintained successor of chardet,
used by requests); pypdf extracts PDF text; python-docx reads Word paragraphs and tables;
openpyxl reads workbooks in read-only mode. All are imported only when needed.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from evaltool.clauses.models import TextSegment
from evaltool.errors import InputError, Location, Problem

MAX_BYTES = 50 * 1024 * 1024  # refuse oversized inputs with a clear error
TEXT_SUFFIXES = frozenset({".txt", ".md", ".markdown", ".text"})
CONTRACT_SHEET_RE = re.compile(r"contract|terms|legal|clause|sla|agreement", re.IGNORECASE)
CONTRACT_KEYS = ("contract_text", "contract", "terms", "contract_terms", "clauses")
SUPPORTED = ".txt, .md, .pdf, .docx, an offer workbook (.xlsx) with a contract sheet, or offer YAML"


def _error(
    path: Path, message: str, found: str | None = None, expected: str | None = None, **where: str
) -> InputError:
    return InputError(
        Problem(Location(str(path), **where), message, found=found, expected=expected)
    )


def decode_bytes(data: bytes, path: Path) -> str:
    """Text in any common encoding: UTF-8 (with or without BOM) first, else detected."""
    if data.startswith(b"\xef\xbb\xbf"):
        return data[3:].decode("utf-8", errors="replace")
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data.decode("utf-16")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    from charset_normalizer import from_bytes

    best = from_bytes(data).best()
    if best is None:
        raise _error(path, "cannot detect the text encoding", expected="text in a common encoding")
    return str(best)


def _read_pdf(path: Path) -> list[TextSegment]:
    from pypdf import PdfReader
    from pypdf.errors import PdfReadError

    try:
        reader = PdfReader(str(path))
        pages = [page.extract_text() or "" for page in reader.pages]
    except (PdfReadError, OSError, ValueError, KeyError, TypeError) as exc:
        raise _error(
            path,
            "cannot read the PDF",
            found=type(exc).__name__,
            expected="a text PDF (scanned images are not read)",
        ) from exc
    segments = [
        TextSegment(text=text, where=Location(str(path), key=f"page {i}"))
        for i, text in enumerate(pages, start=1)
        if text.strip()
    ]
    if not segments:
        raise _error(
            path,
            "the PDF has no extractable text",
            expected="a text PDF (scanned images need OCR first)",
        )
    return segments


def _read_docx(path: Path) -> list[TextSegment]:
    from docx import Document
    from docx.opc.exceptions import PackageNotFoundError

    try:
        doc = Document(str(path))
    except (PackageNotFoundError, KeyError, ValueError, OSError) as exc:
        raise _error(
            path, "cannot read the Word document", found=type(exc).__name__, expected="a .docx file"
        ) from exc
    lines = [p.text for p in doc.paragraphs]
    for table in doc.tables:
        for row in table.rows:
            cells = [c.text.strip() for c in row.cells if c.text.strip()]
            if cells:
                lines.append(" | ".join(dict.fromkeys(cells)) + ".")
    # blank line between paragraphs: each Word paragraph is its own block
    return [TextSegment(text="\n\n".join(lines), where=Location(str(path)))]


def _read_xlsx(path: Path) -> list[TextSegment]:
    from openpyxl import load_workbook
    from openpyxl.utils import get_column_letter

    try:
        wb = load_workbook(str(path), read_only=True, data_only=True)
    except Exception as exc:  # openpyxl raises many types on malformed files
        raise _error(
            path, "cannot read the workbook", found=type(exc).__name__, expected="an .xlsx workbook"
        ) from exc
    segments: list[TextSegment] = []
    try:
        sheets = [ws for ws in wb.worksheets if CONTRACT_SHEET_RE.search(ws.title)]
        if not sheets:
            raise _error(
                path,
                "no contract sheet in the workbook",
                found=", ".join(ws.title for ws in wb.worksheets),
                expected="a sheet named like 'Contract', 'Terms' or 'SLA'",
            )
        for ws in sheets:
            for row in ws.iter_rows():
                for cell in row:
                    value = cell.value
                    if isinstance(value, str) and len(value.split()) >= 4:
                        col = getattr(cell, "column", None)
                        ref = (
                            f"{get_column_letter(col)}{cell.row}" if isinstance(col, int) else None
                        )
                        segments.append(
                            TextSegment(
                                text=value, where=Location(str(path), sheet=ws.title, cell=ref)
                            )
                        )
    finally:
        wb.close()
    return segments


def _yaml_strings(node: Any, key: str) -> list[tuple[str, str]]:
    if isinstance(node, str):
        return [(key, node)]
    if isinstance(node, list):
        out: list[tuple[str, str]] = []
        for i, item in enumerate(node):
            out.extend(_yaml_strings(item, f"{key}[{i}]"))
        return out
    if isinstance(node, dict):
        out = []
        for k, v in node.items():
            out.extend(_yaml_strings(v, f"{key}.{k}"))
        return out
    return []


def _read_yaml(path: Path) -> list[TextSegment]:
    import yaml

    try:
        data = yaml.safe_load(decode_bytes(path.read_bytes(), path))
    except yaml.YAMLError as exc:
        raise _error(
            path,
            "cannot parse the YAML",
            found=str(exc).splitlines()[0],
            expected="an offer YAML with a contract_text key",
        ) from exc
    roots = [data] + (
        [o for o in data.get("offers", []) if isinstance(o, dict)] if isinstance(data, dict) else []
    )
    segments: list[TextSegment] = []
    for n, root in enumerate(roots):
        if not isinstance(root, dict):
            continue
        prefix = "" if n == 0 else f"offers[{n - 1}]."
        for key in CONTRACT_KEYS:
            if key in root:
                for k, text in _yaml_strings(root[key], prefix + key):
                    segments.append(TextSegment(text=text, where=Location(str(path), key=k)))
    if not segments:
        raise _error(
            path,
            "no contract text in the YAML",
            expected=f"one of the keys {', '.join(CONTRACT_KEYS)}",
        )
    return segments


def read_segments(path: Path) -> list[TextSegment]:
    """Contract text blocks of one file, each with where it stands."""
    if not path.exists():
        raise _error(path, "file not found", expected="an existing contract file")
    if not path.is_file():
        raise _error(path, "not a file", expected="a contract file")
    size = path.stat().st_size
    if size > MAX_BYTES:
        raise _error(
            path, "file too large", found=f"{size} bytes", expected=f"at most {MAX_BYTES} bytes"
        )
    suffix = path.suffix.lower()
    if suffix in TEXT_SUFFIXES:
        try:
            text = decode_bytes(path.read_bytes(), path)
        except OSError as exc:
            raise _error(path, "cannot read the file", found=str(exc)) from exc
        if not text.strip():
            raise _error(path, "the file has no text", expected="contract text")
        if "\x00" in text:
            raise _error(path, "binary content in a text file", expected="plain text")
        return [TextSegment(text=text, where=Location(str(path)))]
    if suffix == ".pdf":
        return _read_pdf(path)
    if suffix == ".docx":
        return _read_docx(path)
    if suffix in (".xlsx", ".xlsm"):
        return _read_xlsx(path)
    if suffix in (".yaml", ".yml"):
        return _read_yaml(path)
    raise _error(
        path, "unsupported file type", found=suffix or "(no extension)", expected=SUPPORTED
    )
