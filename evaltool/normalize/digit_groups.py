"""How a document writes its numbers: its decimal mark and how it groups thousands (points,
spaces, no-break and thin spaces), read from the document's own figures."""

from __future__ import annotations

import re
from typing import Any

DECIMAL_COMMA_RE = re.compile(r"\d,\d{1,2}(?!\d)")
DECIMAL_POINT_RE = re.compile(r"\d\.\d{1,2}(?!\d)")
# "2.048", "1.800": one or more groups of three digits after a point, nothing else.
# A unit may follow ("2.048 GiB" once the unit column is joined), but no other number.
GROUPED_BY_DOTS_RE = re.compile(r"(?:[^\d]|(?<=[A-Za-z])\d)*?(?<![\d.,])(?!0\.)"
                                 r"(\d{1,3}(?:\.\d{3})+)(?![\d.,])(?=(?:\D|(?<=[A-Za-z])\d)*$)")
# "52 560,00", "1 234 567.50": a space (plain, no-break or thin) between digit groups before
# decimals, which no count without 'x' writes: the document groups thousands with spaces.
SPACE_THOUSANDS_RE = re.compile(r"(?<![\d.,])\d{1,3}(?:[ \u00a0\u202f]\d{3})+[.,]\d{2}(?!\d)")
# "1 000 TB", "3 072 GB": a group after a space that starts with 0 is never a second number
# ("2 x 072"), so the document groups thousands with spaces.
ZERO_GROUP_RE = re.compile(r"(?<![\w.,/-])(?<!\d[ \u00a0\u202f])\d{1,3}(?:[ \u00a0\u202f]0\d{2})+"
                            r"(?![\d.,]?\d)")
SPACE_GROUP_RE = re.compile(r"(?<![\w.,/-])(?<!\d[ \u00a0\u202f])\d{1,3}(?:[ \u00a0\u202f]\d{3})+"
                             r"(?![\d.,]?\d)"
                             r"(?![ \u00a0\u202f]\d{3}(?!\d))")  # the whole run, or nothing
COMMA_DECIMAL_RE = re.compile(r"(?<![\d.,])\d+,\d{1,2}(?![\d.,])")
POINT_DECIMAL_RE = re.compile(r"(?<![\d.,])\d+\.\d{1,2}(?![\d.,])")


def writes_decimal_commas(cands: Any) -> bool:
    """Does this offer write decimals with a comma ('30,72', '19,60') and never a point?"""
    commas = points = 0
    for cand in cands:
        if isinstance(cand.value, str):
            commas += len(COMMA_DECIMAL_RE.findall(cand.value))
            points += len(POINT_DECIMAL_RE.findall(cand.value))
        elif isinstance(cand.value, float) and not cand.value.is_integer():
            points += 1
    return commas > 0 and points == 0


# "298.000,00", "1.234.567,5": points group thousands and a comma marks the decimals; only
# one convention writes that, so the whole document groups its thousands with points.
DOTS_AND_COMMA_RE = re.compile(r"(?<![\d.,])\d{1,3}(?:\.\d{3})+,\d{1,2}(?!\d)")
# "1.800" among other figures ("NVLink 5, 1.800 GB/s per GPU, 72 GPU"): a point before three
# digits, no decimals after it.
DOTTED_GROUP_RE = re.compile(r"(?<![\d.,])(?!0\.)\d{1,3}(?:\.\d{3})+(?![\d.,]?\d)")


# "1.200.000 €", "EUR 2.450.000": two or more groups of three after points beside a currency,
# which no decimal number writes (an address such as 10.128.100.200 has no currency).
MONEY_DOT_GROUPS_RE = re.compile(
    r"(?:[€£$]|\b(?:eur|dkk|sek|nok|pln|czk|chf|huf|ron|kr|zł|zl)\b)\s*\d{1,3}(?:\.\d{3}){2,}"
    r"(?![\d.,]?\d)|(?<![\d.,])\d{1,3}(?:\.\d{3}){2,}(?![\d.,]?\d)\s*(?:[€£]|"
    r"(?:eur|dkk|sek|nok|pln|czk|chf|huf|ron|kr|zł|zl)\b)", re.I)


def groups_with_dots(texts: Any) -> bool:
    """Does the document write '298.000,00' or '1.200.000 €' anywhere (a cell, a line, a
    note)?  Either groups thousands with points."""
    return any(isinstance(t, str) and (DOTS_AND_COMMA_RE.search(t) or
                                       MONEY_DOT_GROUPS_RE.search(t)) for t in texts)


def dotted_groups(text: str, comma_decimal: bool) -> tuple[str, bool]:
    """(the text with each '1.800' read by the document's convention, whether one was
    ambiguous): where the document writes decimal commas the point groups thousands
    ('1.800 GB/s' is 1800); where it shows no convention the figure stays as written
    (a decimal) and the caller says so."""
    if not DOTTED_GROUP_RE.search(text):
        return text, False
    if comma_decimal:
        return DOTTED_GROUP_RE.sub(lambda m: m.group(0).replace(".", ""), text), False
    return text, True


def regroup_texts(record: Any, comma_decimal: bool) -> None:
    """Read every '2.000' in the record's sentences and line descriptions by the document's
    convention ("storage parallelo WEKA da 2.000 TB" is 2000 TB where the document writes
    '298.000,00'): the readers of sentences then see the figure the document means."""
    if not comma_decimal:
        return

    def read(text: str) -> str:
        return dotted_groups(text, True)[0] if isinstance(text, str) else text

    for name in ("notes", "banners", "footers"):
        setattr(record, name, [(read(t), w) for t, w in getattr(record, name)])
    for item in record.line_items:
        item.description = read(item.description)
