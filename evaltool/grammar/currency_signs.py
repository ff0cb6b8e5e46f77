"""Currency signs several currencies share ("$", "kr"): which one a document means.

"$" is the US, Canadian, Australian, Singapore, New Zealand and Hong Kong dollar and the Mexican
peso; "kr" the Danish, Swedish, Norwegian and Icelandic crown. A reader that takes "$" as USD
everywhere is silently wrong on a Canadian quote. The document itself says which: an ISO code or
a qualified sign anywhere in it ("All amounts in CAD", "C$", "Canadian dollars") decides; without
one, the address, tax and register words and the web domain (GST/HST, ABN, CVR, ".com.au") point
to a currency, which is then assumed and said. The evidence words are data
(evaltool/data/currency_signs.yaml).

``read_signs`` weighs a document's texts; ``document_signs`` makes that reading the one the
value parsers use while one offer is normalised (``sign_currency``); outside it a sign keeps its
default ("$" is USD, "kr" is none).
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from evaltool.resources import data_dir

Strength = Literal["stated", "assumed", "mixed", "default", "none"]


@dataclass(frozen=True)
class SignReading:
    """What one sign family ("dollar", "krone") means in a document, and why."""

    family: str
    currency: str | None  # None: the document does not say, and the sign has no default
    strength: Strength  # stated outright, assumed from weaker evidence, mixed, or the default
    evidence: tuple[str, ...] = ()  # the texts that decided it, as found
    candidates: tuple[str, ...] = ()  # every currency some evidence pointed to


@dataclass(frozen=True)
class _Family:
    name: str
    written: tuple[str, ...]
    default: str | None
    stated: dict[str, re.Pattern[str]]
    weak: dict[str, re.Pattern[str]]
    # Each currency's words, case-folded: a pattern is tried only where one of them occurs.
    words: dict[str, tuple[str, ...]]
    written_re: re.Pattern[str]


def _pattern(words: Iterable[str], domains: Iterable[str] = ()) -> re.Pattern[str] | None:
    """Whole words; a short all-capitals word (an ISO code, "HST", "ABN") in capitals only,
    so "cad" in a sentence or "abn" in a word is no evidence; a domain after a host name."""
    parts = []
    for word in words:
        body = re.escape(word)
        if word.isupper() and word.isalpha() and len(word) <= 4:
            parts.append(rf"(?-i:(?<![^\W\d_]){body}(?![^\W\d_]))")
        else:
            left = r"(?<![^\W\d_])" if word[:1].isalnum() else r"(?<![^\W\d_$])"
            plural = "s?" if " " in word and word[-1:].isalpha() else ""  # "Canadian dollars"
            parts.append(rf"{left}{body}{plural}(?![^\W\d_])")
    for domain in domains:
        parts.append(rf"(?<=[A-Za-z0-9]){re.escape(domain)}(?![\w.])")
    if not parts:
        return None
    return re.compile("|".join(parts), re.IGNORECASE)


@functools.cache
def _families() -> tuple[_Family, ...]:
    import yaml  # heavy third-party import, loaded lazily (house rule)

    raw: dict[str, Any] = yaml.safe_load(
        (data_dir() / "currency_signs.yaml").read_text(encoding="utf-8"))
    families = []
    for name, spec in raw["signs"].items():
        stated: dict[str, re.Pattern[str]] = {}
        weak: dict[str, re.Pattern[str]] = {}
        folded: dict[str, tuple[str, ...]] = {}
        for code, words in spec["currencies"].items():
            folded[code] = tuple(str(w).casefold() for key in ("stated", "place", "tax", "domain")
                                 for w in words.get(key, []))
            strong = _pattern(words.get("stated", []))
            if strong is not None:
                stated[code] = strong
            other = _pattern([*words.get("place", []), *words.get("tax", [])],
                             words.get("domain", []))
            if other is not None:
                weak[code] = other
        written = tuple(spec["written"])
        families.append(_Family(name, written, spec.get("default"), stated, weak, folded,
                                _written_pattern(written)))
    return tuple(families)


def _family_of(token: str) -> _Family | None:
    low = token.strip().casefold()
    return next((f for f in _families() if low in f.written), None)


def is_shared_sign(token: str) -> bool:
    """Whether a currency token ("$", "dollars", "kr.") is shared by several currencies."""
    return _family_of(token) is not None


def stated_currency(text: str) -> str | None:
    """The one currency a text names outright ("Canadian dollars", "C$", "DKK"), if exactly
    one; None when it names none or several."""
    found = {code for family in _families() for code, pattern in family.stated.items()
             if pattern.search(text)}
    return found.pop() if len(found) == 1 else None


def read_signs(texts: Iterable[str]) -> dict[str, SignReading]:
    """What each shared sign means in a document made of ``texts``: the currency the document
    states (a code or qualified sign, one only), else the one its places, tax words and domain
    point to (assumed), else the sign's default."""
    return dict(_signs_of("\n".join(t for t in texts if t)))


@functools.lru_cache(maxsize=64)  # by the document's text: options and copies share it
def _signs_of(joined: str) -> dict[str, SignReading]:
    low = joined.casefold()
    readings: dict[str, SignReading] = {}
    for family in _families():
        if not family.written_re.search(joined):  # the sign is not written: nothing to settle
            readings[family.name] = SignReading(
                family.name, family.default, "default" if family.default else "none")
            continue
        present = {code for code, words in family.words.items() if any(w in low for w in words)}
        stated = {code: m.group(0) for code, p in family.stated.items()
                  if code in present and (m := p.search(joined)) is not None}
        weak = {code: m.group(0) for code, p in family.weak.items()
                if code in present and (m := p.search(joined)) is not None}
        if len(stated) == 1:
            code, text = next(iter(stated.items()))
            readings[family.name] = SignReading(family.name, code, "stated", (text,), (code,))
        elif len(stated) > 1:
            readings[family.name] = SignReading(
                family.name, family.default, "mixed", tuple(stated.values()), tuple(sorted(stated)))
        elif len(weak) == 1:
            code, text = next(iter(weak.items()))
            readings[family.name] = SignReading(family.name, code, "assumed", (text,), (code,))
        elif weak:
            readings[family.name] = SignReading(
                family.name, family.default, "mixed", tuple(weak.values()), tuple(sorted(weak)))
        else:
            readings[family.name] = SignReading(
                family.name, family.default, "default" if family.default else "none")
    return readings


_CURRENT: contextvars.ContextVar[Mapping[str, SignReading] | None] = contextvars.ContextVar(
    "evaltool_document_signs", default=None)


@contextlib.contextmanager
def document_signs(readings: Mapping[str, SignReading]) -> Iterator[None]:
    """While one document is normalised, a shared sign means what ``readings`` say."""
    token = _CURRENT.set(readings)
    try:
        yield
    finally:
        _CURRENT.reset(token)


def sign_currency(token: str) -> str | None:
    """The ISO code a shared sign stands for here: the current document's reading, else the
    sign's default ("$" USD; "kr" none). A token that is no shared sign: None."""
    family = _family_of(token)
    if family is None:
        return None
    readings = _CURRENT.get()
    if readings is not None and family.name in readings:
        return readings[family.name].currency
    return family.default


def current_reading(token: str) -> SignReading | None:
    """The current document's reading of the sign family ``token`` belongs to, if any."""
    family = _family_of(token)
    readings = _CURRENT.get()
    if family is None or readings is None:
        return None
    return readings.get(family.name)


def _written_pattern(written: Iterable[str]) -> re.Pattern[str]:
    parts = [re.escape(w) if not w[:1].isalpha() else rf"(?<![^\W\d_]){re.escape(w)}(?![^\W\d_])"
             for w in sorted(written, key=len, reverse=True)]
    return re.compile("|".join(parts), re.IGNORECASE)


def signs_written(texts: Iterable[str]) -> list[str]:
    """The shared-sign families ("dollar", "krone") a document writes beside its figures."""
    return list(_written_in("\n".join(t for t in texts if t)))


@functools.lru_cache(maxsize=64)  # by the document's text: read again for each record's signs
def _written_in(joined: str) -> tuple[str, ...]:
    return tuple(f.name for f in _families() if f.written_re.search(joined))


# Cells about the buyer or the data centre, not the vendor: a customer in Toronto or a region
# in Sydney says nothing about the currency a US vendor quotes in.
_NOT_THE_VENDOR_RE = re.compile(
    r"^\s*(?:prepared\s+for|customer|client|bill(?:ed)?\s+to|ship\s+to|sold\s+to|attn|"
    r"attention|to\b|kunde|auftraggeber|empf[äa]nger|destinataire|cliente|klient|zákazník|"
    r"zamawiaj|odbiorca|region|location|site|data\s*cent(?:er|re)|standort|rechenzentrum|lieu|"
    r"localisation|ubicaci[óo]n|sede|localit[àa]|lokalita|lokalizacja|lokation|plats)",
    re.IGNORECASE)


def sign_of(family: str) -> str:
    """How a sign family is written: 'dollar' -> '$', 'krone' -> 'kr'."""
    return next((f.written[0] for f in _families() if f.name == family), family)
