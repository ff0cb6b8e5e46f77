"""Read contract text from files: .txt/.md (any common encoding), .pdf, .docx, and the
contract part of an offer file (.xlsx/.xlsm workbook, .csv, .yaml/.yml, .json).

Offer files are read by evaltool's own offer reader (`evaltool.read.read_offer_file`), the
same one `score` uses, so `clauses` sees the same contract text as the normaliser:
contract/terms sheets, contract keys, and term-like notes. Only reading happens - no
normalisation - so an offer whose price cannot be read (or needs an exchange rate) still
has its contract analysed.

Libraries: charset-normalizer detects encodings (the maintained successor of chardet,
used by requests); pypdf extracts PDF text; python-docx reads Word paragraphs and tables.
These heavy libraries are imported only when needed; evaltool's own reader at the top
(it never imports clause analysis, so there is no cycle: read/ comes before clauses/).
"""

from __future__ import annotations

import logging
import re
import warnings
from dataclasses import dataclass
from pathlib import Path

from evaltool.clauses.models import TextSegment
from evaltool.errors import InputError, Location, Problem
from evaltool.read import read_offer_file
from evaltool.read.cells import cell_text
from evaltool.read.vocabulary import load_vocabulary

MAX_BYTES = 50 * 1024 * 1024  # refuse oversized inputs with a clear error
MAX_CONTRACT_PAGES = 500  # a long master agreement with schedules is ~100 pages
MAX_CONTRACT_CHARS = 2_000_000  # ~500 dense pages; the clause scan is linear but not free
TEXT_SUFFIXES = (".txt", ".md", ".markdown", ".text")
DOCUMENT_SUFFIXES = (".pdf", ".docx")
OFFER_SUFFIXES = (".xlsx", ".xlsm", ".csv", ".yaml", ".yml", ".json")
# Key-path parts under which a YAML/JSON offer keeps its terms ("contract: {sla: ...}").
_CONTRACT_KEY_RE = re.compile(
    r"^(?:contract|contract_?text|contract_?terms|terms|terms_and_conditions|clauses?|legal|"
    r"agreement|conditions|sla)$",
    re.IGNORECASE,
)
_MAX_VENDOR_CHARS = 80


@dataclass(frozen=True)
class ContractText:
    """The contract text of one document or one offer, and the vendor named in the file."""

    segments: tuple[TextSegment, ...]
    vendor: str | None = None


def _error(path: Path, code: str, found: str | None = None, **params: str | int) -> InputError:
    """The InputError of issue ``code`` (data/issues/contract.yaml) about the file ``path``."""
    return InputError(Problem(Location(str(path)), found=found, code=code, params=params))


def _too_long(path: Path, unit: str, count: int, limit: int) -> InputError:
    return _error(path, "too-many-pages", unit=unit, count=count, limit=limit)


def _check_chars(path: Path, segments: list[TextSegment]) -> list[TextSegment]:
    chars = sum(len(s.text) for s in segments)
    if chars > MAX_CONTRACT_CHARS:
        raise _too_long(path, "characters", chars, MAX_CONTRACT_CHARS)
    return segments


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
        raise _error(path, "unknown-encoding")
    return str(best)


def _read_pdf(path: Path) -> list[TextSegment]:
    from pypdf import PdfReader

    # pypdf logs what it repairs ("invalid pdf header", "EOF marker not found") straight to
    # stderr; the user gets one InputError naming the file instead.
    pypdf_logger = logging.getLogger("pypdf")
    level = pypdf_logger.level
    pypdf_logger.setLevel(logging.CRITICAL + 1)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            reader = PdfReader(str(path))
            if reader.is_encrypted and not reader.decrypt(""):
                raise _error(path, "contract-pdf-encrypted")
            if len(reader.pages) > MAX_CONTRACT_PAGES:  # counted before any text is extracted
                raise _too_long(path, "pages", len(reader.pages), MAX_CONTRACT_PAGES)
            pages = []
            chars = 0
            for page in reader.pages:
                pages.append(page.extract_text() or "")
                chars += len(pages[-1])
                if chars > MAX_CONTRACT_CHARS:
                    raise _too_long(path, "characters", chars, MAX_CONTRACT_CHARS)
    except InputError:
        raise
    except Exception as exc:  # pypdf raises many types on malformed files
        raise _error(path, "contract-pdf-unreadable",
                     reason=f"{type(exc).__name__}: {exc}"[:160]) from None
    finally:
        pypdf_logger.setLevel(level)
    segments = [
        TextSegment(text=text, where=Location(str(path), key=f"page {i}"))
        for i, text in enumerate(pages, start=1)
        if text.strip()
    ]
    if not segments:
        raise _error(path, "contract-pdf-without-text")
    return segments


def _read_docx(path: Path) -> list[TextSegment]:
    from docx import Document

    try:
        doc = Document(str(path))
    except Exception as exc:  # python-docx raises zip, XML and KeyError types on bad files
        raise _error(path, "contract-docx-unreadable", reason=type(exc).__name__) from None
    lines = [p.text for p in doc.paragraphs]
    for table in doc.tables:
        for row in table.rows:
            cells = [c.text.strip() for c in row.cells if c.text.strip()]
            if cells:
                row_text = " | ".join(dict.fromkeys(cells))  # merged cells repeat their text
                lines.append(row_text if row_text.endswith((".", ";", ":")) else row_text + ".")
    if not any(line.strip() for line in lines):
        raise _error(path, "contract-docx-without-text")
    # blank line between paragraphs: each Word paragraph is its own block
    return _check_chars(path, [TextSegment(text="\n\n".join(lines), where=Location(str(path)))])


def _read_text(path: Path) -> list[TextSegment]:
    try:
        text = decode_bytes(path.read_bytes(), path)
    except OSError as exc:
        raise _error(path, "contract-file-unreadable", reason=exc.strerror or str(exc)) from None
    if not text.strip():
        raise _error(path, "contract-without-text")
    if "\x00" in text:
        raise _error(path, "contract-binary-text")
    return [TextSegment(text=text, where=Location(str(path)))]


def _location(where: dict[str, object], path: Path) -> Location:
    def text(name: str) -> str | None:
        value = where.get(name)
        return None if value is None else str(value)

    return Location(text("file") or str(path), sheet=text("sheet"), cell=text("cell"),
                    key=text("key"))


def _read_offer(path: Path) -> list[ContractText]:
    """The contract text of each offer in an offer file, as the normaliser sees it."""
    vocab = load_vocabulary()
    out: list[ContractText] = []
    seen: set[tuple[tuple[str, str], ...]] = set()
    for record in read_offer_file(path):
        segments = [
            TextSegment(
                text=str(s["text"]),
                where=_location(s["where"], path),
                section=None if s.get("section") is None else str(s["section"]),
                clause_ref=None if s.get("clause_ref") is None else str(s["clause_ref"]),
            )
            for s in record.segments
        ]
        keys = [seg.where.key for seg in segments if seg.where.key]
        vendor: str | None = None
        for cand in record.candidates:
            label_slot = vocab.match(cand.label, cand.section)
            value = cell_text(cand.value)
            if vendor is None and label_slot == "vendor" and 0 < len(value) <= _MAX_VENDOR_CHARS:
                vendor = value
            # a one-line term under a contract key of a YAML/JSON offer ("contract: {sla: ...}")
            key = cand.where.key
            if (
                key
                and isinstance(cand.value, str)
                and len(value.split()) >= 4
                and any(_CONTRACT_KEY_RE.match(part) for part in key.split("."))
                and not any(k == key or k.startswith(key + ".") for k in keys)
            ):
                segments.append(TextSegment(text=value, where=cand.where))
                keys.append(key)
        if not segments:
            continue
        identity = tuple((seg.text, str(seg.where)) for seg in segments)
        if identity in seen:
            continue  # one contract sheet shared by the offers of a one-offer-per-row sheet
        seen.add(identity)
        out.append(ContractText(tuple(segments), vendor))
    if not out:
        raise _error(path, "contract-not-in-offer")
    return out


def _check_file(path: Path) -> None:
    if not path.exists():
        raise _error(path, "contract-file-not-found")
    if not path.is_file():
        raise _error(path, "contract-not-a-file")
    size = path.stat().st_size
    if size > MAX_BYTES:
        raise _error(path, "contract-too-large", size_bytes=size, limit_bytes=MAX_BYTES)


def read_contracts(path: Path) -> list[ContractText]:
    """Contract text of one file: one entry for a contract document, one per offer (with
    the vendor named in it, when the file names one) for an offer file."""
    _check_file(path)
    suffix = path.suffix.lower()
    if suffix in TEXT_SUFFIXES:
        return [ContractText(tuple(_check_chars(path, _read_text(path))))]
    if suffix == ".pdf":
        return [ContractText(tuple(_read_pdf(path)))]
    if suffix == ".docx":
        return [ContractText(tuple(_read_docx(path)))]
    if suffix in OFFER_SUFFIXES:
        return _read_offer(path)
    raise _error(path, "contract-unsupported-format", found=suffix or "(no extension)",
                 contract_suffixes=" ".join(TEXT_SUFFIXES + DOCUMENT_SUFFIXES),
                 offer_suffixes=" ".join(OFFER_SUFFIXES))


def read_segments(path: Path) -> list[TextSegment]:
    """Contract text blocks of one file, each with where it stands."""
    return [seg for contract in read_contracts(path) for seg in contract.segments]
