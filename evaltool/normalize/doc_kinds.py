"""The kind of document a title names ("PRO FORMA INVOICE", "Angebot", "marketplace export"),
never who sent it.

A vendor's letterhead, a title row or an export's comment line often puts the issuer's name
and the document's kind side by side: "GPUXchange marketplace export", "Nimbus Cloud
Quotation", "御見積書".  The words of evaltool/data/document_kinds.yaml (many languages) say
where the kind starts, so the name is what stands before it; a title that is only a kind (and
a number or a date) names nobody.
"""

from __future__ import annotations

import functools
import re
import unicodedata

from evaltool.resources import data_dir

# A reference or a date beside a document's kind ("No. PF-26-0419", "#48211", "2026-11-20",
# "rev. 3"): not a name either.
_REFERENCE_RE = re.compile(r"(?:\b(?:no|nr|n[º°o]?|c|num|numero|nummer|numer|ref|rev|date|"
                           r"dated|vom|du|del|z|ze)\b\.?:?\s*)?"
                           r"[#№]?\s*[\w/.-]*\d[\w/.:-]*", re.I)
_ISSUER_AFTER_RE = re.compile(r"^\s*(?:from|by|von|de|da|di|door|fra|fr[åa]n|od|от|od)\s+(.+)$",
                              re.I)
_EDGE = " ,;:-–—|·#*•()[]{}\"'“”«»\u3000"


def _fold_char(ch: str) -> str:
    """One character without its accent, and lower-case; a character whose folding is not one
    character stays as it is, so positions in the folded text are positions in the original."""
    base = "".join(c for c in unicodedata.normalize("NFKD", ch) if not unicodedata.combining(c))
    base = base.casefold()
    return base if len(base) == 1 else ch.casefold() if len(ch.casefold()) == 1 else ch


def _fold(text: str) -> str:
    return "".join(_fold_char(ch) for ch in text)


def _phrase_pattern(phrase: str) -> str:
    words = [re.escape(w) for w in re.split(r"[\s\u3000]+", _fold(phrase).strip()) if w]
    return r"[\s\u3000-]*".join(words)


@functools.cache
def _patterns() -> tuple[re.Pattern[str], re.Pattern[str]]:
    import yaml

    raw = yaml.safe_load((data_dir() / "document_kinds.yaml").read_text(encoding="utf-8"))
    kinds = sorted({str(k) for k in raw["kinds"]}, key=len, reverse=True)
    qualifiers = sorted({str(q) for q in raw["qualifiers"]}, key=len, reverse=True)
    kind = "|".join(_phrase_pattern(k) for k in kinds)
    qualifier = "|".join(_phrase_pattern(q) for q in qualifiers)
    return (re.compile(rf"(?<!\w)(?:{kind})(?!\w)"),
            re.compile(rf"(?:(?<!\w)(?:{qualifier})[\s\u3000]*)+$"))


def kind_span(text: str) -> tuple[int, int] | None:
    """Where the first word naming a document kind stands in ``text``, or None."""
    match = _patterns()[0].search(_fold(text))
    return match.span() if match else None


@functools.lru_cache(maxsize=4096)  # the same texts recur in every option
def is_document_title(text: str) -> bool:
    """'PRO FORMA INVOICE', 'Quotation No. Q-2026-001', 'TILBUD', '御　見　積　書': a
    document's kind (with its qualifiers, number or date) and nothing that could be a name."""
    if len(text) > 200:
        return False  # a title is short; a paragraph is never only a document's kind
    folded = _fold(text)
    kind_re, qualifier_re = _patterns()
    if not kind_re.search(folded):
        return False
    rest = kind_re.sub(" ", folded)
    rest = _REFERENCE_RE.sub(" ", rest)
    rest = " ".join(w.strip(_EDGE) for w in rest.split())
    while rest:
        trimmed = qualifier_re.sub("", rest).strip(_EDGE)
        if trimmed == rest:
            break
        rest = trimmed
    return not re.search(r"[^\W\d_]", rest)


@functools.lru_cache(maxsize=4096)  # the same texts recur in every option
def name_before_kind(segment: str) -> str | None:
    """'GPUXchange marketplace export' -> 'GPUXchange'; 'Quotation from Nimbus Cloud' ->
    'Nimbus Cloud'; '' for a title that names only a kind ('PRO FORMA INVOICE'); None when
    the segment names no document kind at all."""
    span = kind_span(segment) if len(segment) <= 300 else None
    if span is None:
        return None
    before = segment[:span[0]].strip(_EDGE)
    if not before:
        after = _ISSUER_AFTER_RE.match(segment[span[1]:])
        if after:
            return after.group(1).strip(_EDGE)
        return "" if is_document_title(segment) else None  # "Offerta Cloud Srl" may be a name
    qualifier_re = _patterns()[1]
    folded = _fold(before)
    cut = qualifier_re.search(folded)
    while cut is not None and cut.start() > 0:
        before = before[:cut.start()].strip(_EDGE)
        folded = _fold(before)
        cut = qualifier_re.search(folded)
    if cut is not None:  # only qualifiers before the kind: "Binding offer"
        return ""
    return before
