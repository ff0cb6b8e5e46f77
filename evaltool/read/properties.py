"""What a workbook says about itself outside its cells: document properties (author,
company, title) and the printed page headers and footers.

Vendors often name themselves only there.  Read with regular expressions over the bytes of
two small XML parts (no XML entity expansion, as in read/xlsx.py); anything unreadable gives
an empty result, never an error: these are hints, not facts.
"""

from __future__ import annotations

import re
import zipfile

from evaltool.read.text import currency_of

_TAGS = {"creator": rb"<dc:creator>([^<]{1,200})</dc:creator>",
         "company": rb"<Company>([^<]{1,200})</Company>",
         "title": rb"<dc:title>([^<]{1,200})</dc:title>",
         "manager": rb"<Manager>([^<]{1,200})</Manager>"}
_TAG_RES = {key: re.compile(pattern) for key, pattern in _TAGS.items()}
_HEADER_FOOTER_RE = re.compile(rb"<(?:\w+:)?(?:oddHeader|oddFooter|evenHeader|evenFooter|"
                               rb"firstHeader|firstFooter)>([^<]{1,500})<")
_CODES_RE = re.compile(r"&(?:\"[^\"]*\"|[LCRPNDTAFZGBIUSEXY]|\d+)")  # &L &C &"Arial,Bold" &P


def _text(raw: bytes) -> str:
    text = raw.decode("utf-8", "replace")
    for entity, char in (("&lt;", "<"), ("&gt;", ">"), ("&quot;", '"'), ("&apos;", "'"),
                         ("&amp;", "&")):
        text = text.replace(entity, char)
    return " ".join(text.split())


def archive_properties(archive: zipfile.ZipFile,
                       header_footer: list[str] | None = None) -> dict[str, str]:
    """{'creator', 'company', 'title', 'manager', 'header_footer', 'number_format_currency'}
    of an open workbook archive, as far as stated.  `header_footer`: the sheets' header and
    footer texts when the caller has already read the sheets (read/xlsx.py reads each sheet's
    XML once for its extent, formulas and these texts)."""
    found: dict[str, str] = {}
    try:
        names = set(archive.namelist())
        for part in ("docProps/core.xml", "docProps/app.xml"):
            if part not in names or archive.getinfo(part).file_size > 200_000:
                continue
            xml = archive.read(part)
            for key, pattern in _TAG_RES.items():
                match = pattern.search(xml)
                if match and key not in found:
                    found[key] = _text(match.group(1))
        texts = header_footer if header_footer is not None else _archive_header_footer(
            archive, names)
        if texts:
            found["header_footer"] = " | ".join(texts)
        currency = _number_format_currency(archive, names)
        if currency:
            found["number_format_currency"] = currency
    except (OSError, zipfile.BadZipFile, KeyError, ValueError):
        return found
    return found


def _archive_header_footer(archive: zipfile.ZipFile, names: set[str]) -> list[str]:
    texts: list[str] = []
    for name in sorted(names):
        if not (name.startswith("xl/worksheets/") and name.endswith(".xml")):
            continue
        if archive.getinfo(name).file_size > 20_000_000:
            continue
        add_header_footer(archive.read(name), texts)
    return texts


def add_header_footer(xml: bytes, texts: list[str]) -> None:
    """Append a sheet's printed header and footer texts (new ones only) to `texts`."""
    if b"Header>" not in xml and b"Footer>" not in xml:
        return
    for raw in _HEADER_FOOTER_RE.findall(xml):
        text = " ".join(_CODES_RE.sub(" ", _text(raw)).split())
        if text and text not in texts:
            texts.append(text)


_NUM_FMT_RE = re.compile(rb"<(?:\w+:)?numFmt\b[^>]*?\bformatCode=\"([^\"]*)\"")


def _number_format_currency(archive: zipfile.ZipFile, names: set[str]) -> str | None:
    """The one currency the workbook's number formats display ('"¥"#,##0', '[$€-407]',
    '#,##0.00 "Kč"'): a price cell shows it although its value is a bare number.  None when
    the formats show no currency or several."""
    if "xl/styles.xml" not in names or archive.getinfo("xl/styles.xml").file_size > 5_000_000:
        return None
    codes = {currency_of(_text(raw).replace('"', " ").replace("[$", " ").replace("\\", " "))
             for raw in _NUM_FMT_RE.findall(archive.read("xl/styles.xml"))}
    codes.discard(None)
    return next(iter(codes)) if len(codes) == 1 else None
