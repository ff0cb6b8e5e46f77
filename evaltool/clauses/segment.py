"""Legal-aware sentence segmentation with section numbers and character offsets.

Written here rather than taken from NLTK/spaCy: a small rule-based splitter matches the
sentences of CUAD contracts (arXiv 2103.06268) well, and both libraries would add a
model download or heavy dependency. The rules: split at . ! ? followed by space and a
sentence start, never after a known abbreviation (Inc., U.S., e.g., No.) or an initial;
every numbered clause, list item, bullet or heading line starts a new block; blank
lines end a block. Offsets always point into the original text, so quotes are exact.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# Abbreviations that end in a dot but do not end a sentence.
ABBREVIATIONS: frozenset[str] = frozenset(
    [
        "inc",
        "corp",
        "co",
        "ltd",
        "llc",
        "l.l.c",
        "plc",
        "no",
        "nos",
        "sec",
        "secs",
        "u.s",
        "u.s.a",
        "u.k",
        "e.g",
        "i.e",
        "et",
        "al",
        "v",
        "vs",
        "mr",
        "ms",
        "mrs",
        "dr",
        "st",
        "art",
        "arts",
        "para",
        "paras",
        "cf",
        "approx",
        "jan",
        "feb",
        "mar",
        "apr",
        "jun",
        "jul",
        "aug",
        "sep",
        "sept",
        "oct",
        "nov",
        "dec",
        "fig",
        "figs",
        "p",
        "pp",
        "s.a",
        "n.a",
        "b.v",
        "n.v",
        "a.g",
        "pty",
        "k.k",
        "ref",
        "refs",
        "min",
        "max",
        "est",
        "incl",
        "dept",
        "govt",
        "int'l",
        "hr",
        "hrs",
        "yr",
        "yrs",
        "mo",
        "mos",
        "sq",
        "ft",
        "no.s",
    ]
)

# A numbered clause heading at the start of a line: "4.2 Delivery", "Section 7.", "12) Term".
_SECTION_RE = re.compile(
    r"""^[ \t]*(?:\#{1,6}[ \t]*)?(?:\*\*)?
        (?:(?:section|clause|article|§)[ \t]*(?P<named>\d+(?:\.\d+)*|[IVXLC]+)\b[.:)]?
          |(?P<multi>\d+(?:\.\d+)+)\.?(?=[ \t])
          |(?P<single>\d{1,3})[.)](?=[ \t]+[A-Z"“(])
        )""",
    re.IGNORECASE | re.VERBOSE,
)
# Lines that start a new block without changing the section: list items, bullets, headings.
_BLOCK_START_RE = re.compile(
    r"^[ \t]*(?:\#{1,6}[ \t]|[-*•◦▪][ \t]|\(?[a-z]{1,2}\)[ \t]|\(?[ivxlc]{1,5}\)[ \t]"
    r"|\(\d{1,3}\)[ \t]|\d{1,3}[.)][ \t]|[a-z][.][ \t])",
    re.IGNORECASE,
)
# Candidate sentence ends: . ! ? (with closing quotes/brackets) followed by whitespace.
_END_RE = re.compile(r"[.!?][\"'”’)\]]*(?=\s)")
_NEXT_START_RE = re.compile(r"\s+[\"'“‘(\[]?(?:[A-Z0-9§•]|\([a-z0-9]{1,4}\))")
_TOKEN_BEFORE_RE = re.compile(r"([A-Za-z][A-Za-z.'’]*)$")
_ENUMERATOR_ONLY_RE = re.compile(
    r"^\s*(?:(?:section|clause|article)\s+)?[(\[]?(?:\d{1,3}(?:\.\d{1,3})*|[a-z]|[ivxlc]{1,5})[)\]]?\s*$",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Sentence:
    """One sentence: its exact text, offsets into the source text, section and index."""

    text: str
    start: int
    end: int
    section: str | None
    index: int  # 1-based within the source text


def _is_abbreviation(before: str) -> bool:
    match = _TOKEN_BEFORE_RE.search(before)
    if not match:
        return False
    token = match.group(1).rstrip(".").lower()
    if len(token) == 1:  # an initial ("J. Smith") or list letter ("a.")
        return True
    return token in ABBREVIATIONS


def _blocks(text: str) -> list[tuple[int, int, str | None]]:
    """Blocks as (start, end, section): paragraphs, numbered clauses, list items."""
    blocks: list[tuple[int, int, str | None]] = []
    section: str | None = None
    block_start: int | None = None
    block_section: str | None = None
    pos = 0
    for line in text.splitlines(keepends=True):
        line_start, pos = pos, pos + len(line)
        stripped = line.strip()
        if not stripped:
            if block_start is not None:
                blocks.append((block_start, line_start, block_section))
                block_start = None
            continue
        sec = _SECTION_RE.match(line)
        if sec:
            section = (sec.group("named") or sec.group("multi") or sec.group("single")).rstrip(".")
        if sec or _BLOCK_START_RE.match(line):
            if block_start is not None:
                blocks.append((block_start, line_start, block_section))
            block_start, block_section = line_start, section
        elif block_start is None:
            block_start, block_section = line_start, section
    if block_start is not None:
        blocks.append((block_start, len(text), block_section))
    return blocks


def _trim(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def split_sentences(text: str) -> list[Sentence]:
    """Split contract text into sentences with exact offsets and section numbers."""
    sentences: list[Sentence] = []
    for b_start, b_end, section in _blocks(text):
        block = text[b_start:b_end]
        cut = 0
        for m in _END_RE.finditer(block):
            end = m.end()
            if not _NEXT_START_RE.match(block, end):
                continue
            if block[m.start()] == "." and _is_abbreviation(block[cut : m.start()]):
                continue
            if _ENUMERATOR_ONLY_RE.match(block[cut : m.start()]):
                continue  # "4. Delivery": the clause number, not a sentence
            s, e = _trim(text, b_start + cut, b_start + end)
            if e > s:
                sentences.append(Sentence(text[s:e], s, e, section, len(sentences) + 1))
            cut = end
        s, e = _trim(text, b_start + cut, b_end)
        if e > s:
            sentences.append(Sentence(text[s:e], s, e, section, len(sentences) + 1))
    return sentences


_UNIT_SPLIT_RE = re.compile(r";\s*|\s(?=\((?:[ivx]{1,4}|[a-z]|\d{1,2})\)\s)")


def obligation_units(sentence: str) -> list[tuple[int, int]]:
    """Spans of the obligation units of one sentence: split at ';' and (i)/(a)/(1) items.

    A hedge governs only its own unit: in "shall deliver by 1 March; and shall use
    reasonable efforts to deliver earlier" the date stays firm."""
    units: list[tuple[int, int]] = []
    start = 0
    for m in _UNIT_SPLIT_RE.finditer(sentence):
        if m.start() > start:
            units.append((start, m.start()))
        start = m.end()
    if start < len(sentence):
        units.append((start, len(sentence)))
    return units or [(0, len(sentence))]
