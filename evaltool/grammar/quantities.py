"""Quantities with units (capacity, memory, power, throughput) and network bandwidths, via pint.

Part of the one value parser (see evaltool.normalize.values for the rules and the API)."""


from __future__ import annotations

import functools
import math
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from evaltool.errors import EvaltoolError
from evaltool.grammar.basis import scope_re
from evaltool.grammar.numbers import (
    _NUM,
    _QUALIFIER_RE,
    _clean_float,
    _fmt,
    _interpret_number,
    _LazyRegex,
    _MalformedNumber,
    _no_value_note,
    _numeric_input,
    _qualifier_note,
    _raw_text,
    _text_input,
    parse_number,
)
from evaltool.grammar.valuetypes import (
    CANONICAL_UNIT,
    EXPECTED,
    UNITS_FILE,
    Dimension,
    Direction,
    ParsedBandwidth,
    ParsedQuantity,
    RawValue,
    Scope,
    ValueConversionError,
    ValueParseError,
)

if TYPE_CHECKING:
    import pint


# --------------------------------------------------------------------------- units (pint)


@functools.cache
def _unit_registry() -> pint.UnitRegistry[float]:
    """One registry per process, built on first need from evaltool/data/units.txt.

    Our own small definitions file builds in ~25 ms where pint's default registry takes
    ~0.5 s, and it holds only the units offers use (see the file's header).
    """
    import pint  # imported here: slow to import, and only unit conversion needs it

    try:
        return pint.UnitRegistry(str(UNITS_FILE))
    except (OSError, pint.errors.DefinitionSyntaxError) as exc:  # a broken install
        raise EvaltoolError(f"cannot load unit definitions {UNITS_FILE}: {exc}") from exc


@functools.cache
def unit_factor(source: str, target: str) -> float:
    """How many ``target`` units one ``source`` unit is ('TiB' -> 'TB': 1.0995...).

    Both are pint expressions. Cached: each pair goes through pint once per process.
    """
    if source == target:
        return 1.0
    registry = _unit_registry()
    import pint

    try:
        return _clean_float(float(registry.Quantity(1.0, source).to(target).magnitude))
    except (pint.errors.UndefinedUnitError, pint.errors.DimensionalityError) as exc:
        raise ValueConversionError(
            f"cannot convert {source} to {target}: {exc}", found=source,
            expected=f"a unit convertible to {target}",
        ) from None


_PREFIX_SYMBOL: Final[dict[str, str]] = {
    "k": "k", "kilo": "k", "m": "M", "mega": "M", "g": "G", "giga": "G",
    "t": "T", "tera": "T", "p": "P", "peta": "P",
}

# A data unit: prefix, optional binary "i", then a bit/byte base (or nothing, as in
# "400G", or "E" as in "100GE" Ethernet). Case of the base decides bits vs bytes.
_DATA_UNIT: Final = (
    r"(?P<prefix>(?i:kilo|mega|giga|tera|peta)|[kKmMgGtTpP])(?P<binary>i)?"
    r"(?P<base>(?i:bits?|bytes?)(?:\s*/\s*(?i:s(?:ec(?:ond)?)?)|\s+(?i:per\s+sec(?:ond)?)"
    r"|(?i:ps))?|[bB]\s*/\s*(?i:s(?:ec(?:ond)?)?)|[bB](?i:ps)|[bB](?i:it)?[eE]|[bB]|[eE]"
    r"|o(?:\s*/\s*s)?|)"  # French octets: "192 Go", "2 To", "25 Go/s"
    r"(?![A-Za-z0-9])"
)
_POWER_UNIT: Final = (
    r"(?P<pprefix>(?i:kilo|mega)|[kKM])?(?P<pbase>(?i:watts?)|[wW])(?![A-Za-z0-9])"
)
# Optional "8 x" / "8 NICs x" / "8x ConnectX-7" before the value, "x8" after it.
_COUNT_BEFORE: Final = (
    r"(?:(?P<count1>\d{1,4})\s*(?:(?i:nics?|ports?|hcas?|adapters?|links?|cards?|drives?|"
    r"disks?|ssds?|nvmes?)\s*)?[x×*]\s*(?:[A-Za-z][\w-]*\s+){0,3})?"
)
_COUNT_AFTER: Final = (
    r"(?:(?:\s+(?i:NDR|HDR|EDR|XDR|IB|InfiniBand|RoCE(?:v2)?|Ethernet|ports?|NICs?|links?))"
    r"{0,2}\s*[x×*]\s*(?P<count2>\d{1,4})(?![\d.,]))?"
)
# Not after a letter or digit, nor after a hyphen that follows a letter: "H100" and
# "ConnectX-7 400G" hold no quantity at "100" or "7"; "100-200 Gb/s" is a range.
_DATA_TERM_RE: Final = _LazyRegex(
    rf"(?<![\w.,])(?<![^\W\d_]-){_COUNT_BEFORE}(?P<num>{_NUM})\s*{_DATA_UNIT}{_COUNT_AFTER}"
)
_POWER_TERM_RE: Final = _LazyRegex(
    rf"(?<![\w.,])(?<![^\W\d_]-){_COUNT_BEFORE}(?P<num>{_NUM})\s*{_POWER_UNIT}{_COUNT_AFTER}"
)
_LEADING_QUALIFIER_RE: Final = _LazyRegex(rf"(?:^|[\s(]){_QUALIFIER_RE}\s*$")

# InfiniBand generations: per-port speed of a 4x port, Gbit/s (InfiniBand Trade
# Association roadmap: EDR 100, HDR 200, NDR 400, XDR 800).
_IB_GBIT_S: Final[dict[str, float]] = {"edr": 100.0, "hdr": 200.0, "ndr": 400.0, "xdr": 800.0}
_IB_TERM_RE: Final = _LazyRegex(
    r"(?<![\w.,])(?:(?P<count>\d{1,4})\s*[x×*]\s*)?(?P<gen>EDR|HDR|NDR|XDR)"
    r"(?:\s*-?\s*(?P<speed>\d{3}))?(?![A-Za-z])",
    re.IGNORECASE,
)

_READ_RE: Final = _LazyRegex(r"\b(?:read|reads|reading|lesen)\b", re.IGNORECASE)
_WRITE_RE: Final = _LazyRegex(r"\b(?:write|writes|writing|schreiben)\b", re.IGNORECASE)
_CLAUSE_BREAK_RE: Final = _LazyRegex(
    r",\s|;|\n|\(|\)|\s/\s|\band\b|\bbut\b|\bvs\.?\b", re.IGNORECASE
)
_FABRIC_RES: Final[tuple[tuple[str, _LazyRegex], ...]] = (
    ("roce", _LazyRegex(r"\broce(?:v2)?\b", re.IGNORECASE)),
    ("infiniband", _LazyRegex(r"\binfini\s*band\b|\bIB\b|\b(?:EDR|HDR|NDR|XDR)", re.IGNORECASE)),
    ("nvlink", _LazyRegex(r"\bnvlink\b|\bnvswitch\b", re.IGNORECASE)),
    ("efa", _LazyRegex(r"\bEFA\b")),
    ("ici", _LazyRegex(r"\bICI\b")),
    ("ethernet", _LazyRegex(r"\bethernet\b|\d\s*G(?:b|bit)?E\b|\bspectrum", re.IGNORECASE)),
)


@dataclass(slots=True)
class _Term:
    start: int
    end: int
    count: int
    each: float  # canonical unit
    source_unit: str
    notes: list[str]
    was_bytes: bool
    is_rate: bool
    scope: Scope | None = None
    direction: Direction | None = None
    approximate: bool = False

    @property
    def total(self) -> float:
        return _clean_float(self.each * self.count)


def _data_unit(match: re.Match[str], dimension: str) -> tuple[str, bool, bool, list[str]]:
    """(pint expression, is_bytes, is_rate, notes) for a matched data-unit token."""
    prefix = _PREFIX_SYMBOL[match["prefix"].casefold()]
    binary = "i" if match["binary"] else ""
    base = match["base"]
    notes: list[str] = []
    folded = base.casefold().replace(" ", "")
    if folded.startswith("o"):
        if match["prefix"] not in ("G", "T", "P"):
            raise _MalformedNumber("octet")  # "8 to 10", "36 Mo" (months) are not sizes
        is_bytes = True
    elif folded.startswith("byte"):
        is_bytes = True
    elif folded.startswith("bit") or folded == "" or folded.endswith("e"):
        is_bytes = False  # "bit", "400G", "GbE"/"GE" (Ethernet is quoted in bits)
    elif base[0] == "B" and base.isupper() and match["prefix"].isupper() and folded == "bps":
        # "GBPS": case cannot tell; a network is quoted in bits, storage in bytes.
        is_bytes = dimension == "throughput"
        notes.append(
            f"'{match['prefix']}{base}' is ambiguous (all capitals); read as "
            f"{'bytes' if is_bytes else 'bits'} per second for a {dimension}"
        )
    else:
        is_bytes = base[0] == "B"
    is_rate = folded == "" or "/" in folded or folded.endswith("ps") or folded.endswith(
        "e"
    ) or "persec" in folded
    if folded == "" and match["prefix"] not in ("G", "T", "M"):
        raise _MalformedNumber("bare prefix")  # "400 k" is not a bandwidth
    unit = f"{prefix}{binary}{'B' if is_bytes else 'bit'}"
    return (f"{unit}/s" if is_rate else unit), is_bytes, is_rate, notes


class _RangeGiven(Exception):
    """'100-200 Gb/s': a range where one figure is needed."""


_RANGE_BEFORE_RE: Final = _LazyRegex(
    r"(?<![\w.,-])\d+(?:[.,]\d+)?\s*(?:-|–|to|bis)\s*$", re.IGNORECASE
)


class _AmbiguousSpace(Exception):
    """'1 000 GB' or '2 400Gb/s': a space inside a number, or a count without 'x'?"""


_SPACE_GROUP_BEFORE_RE: Final = _LazyRegex(r"(?<![\w.,])(?<![^\W\d_]-)\d{1,3} $")
_THREE_DIGITS_RE: Final = _LazyRegex(r"\d{3}(?![\d,.'’])|\d{3}[.,]\d")


def _find_terms(text: str, dimension: str) -> list[_Term]:
    """Every '<count x> number unit <x count>' in the text, values still in source units."""
    pattern = _POWER_TERM_RE if dimension == "power" else _DATA_TERM_RE
    terms: list[_Term] = []
    for match in pattern.finditer(text):
        lead = _SPACE_GROUP_BEFORE_RE.search(text[: match.start()])
        if lead and not match["count1"] and _THREE_DIGITS_RE.match(match["num"]):
            raise _AmbiguousSpace(lead.group(0) + match.group(0))
        low = _RANGE_BEFORE_RE.search(text[: match.start()])
        if low and not match["count1"]:
            raise _RangeGiven(low.group(0) + match.group(0))
        try:
            each, decimal_note = _interpret_number(match["num"])
            if dimension == "power":
                prefix = match["pprefix"]
                source = f"{_PREFIX_SYMBOL[prefix.casefold()] if prefix else ''}W"
                is_bytes, is_rate = False, False
                unit_notes: list[str] = []
            else:
                source, is_bytes, is_rate, unit_notes = _data_unit(match, dimension)
        except _MalformedNumber:
            continue
        notes = [decimal_note] if decimal_note else []
        notes += unit_notes
        count = int(match["count1"] or match["count2"] or 1)
        if match["count1"] and match["count2"]:
            count = int(match["count1"]) * int(match["count2"])
        if count == 0:
            continue
        qual = _LEADING_QUALIFIER_RE.search(text[: match.start()])
        qual_notes, approximate = _qualifier_note(qual["qual"] if qual else None, text)
        terms.append(
            _Term(
                match.start(), match.end(), count, each, source, notes + qual_notes,
                is_bytes, is_rate, approximate=approximate,
            )
        )
    return terms


_BINARY_PREFIX_RE: Final = _LazyRegex(r"[KMGTP]i")


def _convert(term: _Term, dimension: str, canonical: str) -> float:
    source = term.source_unit
    if dimension in ("bandwidth", "throughput") and not term.is_rate:
        # "400Gb NDR" / "900 GB NVLink": a size where a rate is meant.
        term.notes.append(f"'{source}' read as {source}/s")
        source += "/s"
        term.source_unit = source
    factor = unit_factor(source, canonical)
    value = _clean_float(term.each * factor)
    if dimension == "bandwidth" and term.was_bytes:
        term.notes.append(
            f"unit was bytes per second ({_fmt(term.each)} {source}); "
            f"read as {_fmt(value)} Gbit/s"
        )
    elif dimension == "throughput" and not term.was_bytes:
        term.notes.append(
            f"unit was bits per second ({_fmt(term.each)} {source}); "
            f"read as {_fmt(value)} GB/s"
        )
    if _BINARY_PREFIX_RE.search(source):
        term.notes.append(
            f"binary unit: {_fmt(term.each)} {source} = {_fmt(value)} {canonical} (decimal)"
        )
    return value


def _clauses(text: str) -> list[tuple[int, int]]:
    bounds = [0]
    for match in _CLAUSE_BREAK_RE.finditer(text):
        bounds += [match.start(), match.end()]
    bounds.append(len(text))
    return [(bounds[i], bounds[i + 1]) for i in range(0, len(bounds), 2)]


def _scope_of(segment: str) -> Scope | None:
    gpu = scope_re("gpu").search(segment)
    node = scope_re("node").search(segment)
    if gpu and node:
        return "gpu" if gpu.start() < node.start() else "node"
    return "gpu" if gpu else "node" if node else None


def _assign_context(text: str, terms: list[_Term]) -> None:
    """Scope ("per GPU") and direction ("read") from the clause each term sits in."""
    clauses = _clauses(text)
    global_scope = _scope_of(text)
    for term in terms:
        start, end = next(((a, b) for a, b in clauses if a <= term.start < b), (0, len(text)))
        clause = text[start:end]
        term.scope = _scope_of(clause) or global_scope
        reads, writes = bool(_READ_RE.search(clause)), bool(_WRITE_RE.search(clause))
        if reads != writes:
            term.direction = "read" if reads else "write"


def _pick_term(
    terms: list[_Term], found: str, expected: str, direction: Direction | None, unit: str
) -> tuple[_Term, list[str]]:
    """One term from several: consistent restatements collapse, different scopes keep the
    first (noted), anything else is ambiguous and refused."""
    if direction is not None:
        matching = [t for t in terms if t.direction == direction]
        if matching:
            terms = matching
        elif any(t.direction for t in terms):
            raise ValueParseError(
                f"no {direction} figure among several", found=found, expected=expected
            )
    first = terms[0]
    if len(terms) == 1:
        return first, []
    if all(math.isclose(t.total, first.total, rel_tol=1e-6) for t in terms):
        richest = max(terms, key=lambda t: t.count)
        return richest, []
    if len({t.scope for t in terms}) == len(terms):
        others = ", ".join(f"{_fmt(t.total)} {unit} per {t.scope}" for t in terms[1:])
        return first, [f"also states {others}; used the first figure"]
    figures = ", ".join(f"{_fmt(t.total)} {unit}" for t in terms)
    hint = " (pass direction='read' or 'write')" if any(t.direction for t in terms) else ""
    raise ValueParseError(
        f"several different figures ({figures}); cannot tell which one is meant{hint}",
        found=found, expected=expected,
    )


_PORT_COUNT_RE: Final = _LazyRegex(
    r"(?<![\w.,-])(?P<n>\d{1,2})\s*(?:x\s*)?(?:ports?|nics?|hcas?|adapters?|rails?|links?)\b",
    re.IGNORECASE,
)


def _bare_number(
    text: str, raw: RawValue, dimension: str, default_unit: str | None, expected: str
) -> ParsedQuantity | None:
    """A number with no unit: read in ``default_unit`` (noted), if one was given."""
    try:
        number = parse_number(text)
    except ValueParseError:
        return None
    if default_unit is None:
        raise ValueParseError(
            f"a {dimension} without a unit", found=_raw_text(raw), expected=expected
        )
    canonical = CANONICAL_UNIT[dimension]
    value = _clean_float(number.value * unit_factor(default_unit, canonical))
    notes = [*number.notes, f"no unit given; read as {default_unit}"]
    return ParsedQuantity(
        value, canonical, dimension, _raw_text(raw), notes, default_unit, 1, value,
        approximate=number.approximate,
    )


_PAIRED_FIGURES_RE: Final = _LazyRegex(
    r"(?<![\w.,])\d+(?:[.,]\d+)?\s*/\s*\d+(?:[.,]\d+)?\s*(?:[kmgtp]i?b|[kmgt]bit)\b",
    re.IGNORECASE,
)


def parse_quantity(
    raw: RawValue,
    dimension: Dimension | str,
    default_unit: str | None = None,
    *,
    direction: Direction | None = None,
) -> ParsedQuantity:
    """A physical quantity in the dimension's canonical unit (CANONICAL_UNIT).

    ``default_unit`` (a pint expression such as "GB" or "Gbit/s") is used for a bare
    number, e.g. a cell under a "(GB)" header. ``direction`` picks the read or write
    figure of a throughput ("20 GB/s read, 10 GB/s write").
    """
    if dimension not in CANONICAL_UNIT:
        raise ValueError(f"unknown dimension {dimension!r}; one of {sorted(CANONICAL_UNIT)}")
    expected = EXPECTED[dimension]
    canonical = CANONICAL_UNIT[dimension]
    fast = _numeric_input(raw, expected)
    if fast is not None:
        if default_unit is None:
            raise ValueParseError(
                f"a {dimension} without a unit", found=_raw_text(raw), expected=expected
            )
        value = _clean_float(fast * unit_factor(default_unit, canonical))
        return ParsedQuantity(
            value, canonical, dimension, _raw_text(raw), [], default_unit, 1, value
        )
    return _quantity_from_text(
        _text_input(raw, expected), raw, dimension, default_unit, direction
    )


def _quantity_from_text(
    text: str, raw: RawValue, dimension: str, default_unit: str | None,
    direction: Direction | None,
) -> ParsedQuantity:
    """parse_quantity for text already prepared and checked for placeholders."""
    expected = EXPECTED[dimension]
    canonical = CANONICAL_UNIT[dimension]
    paired = _PAIRED_FIGURES_RE.search(text)
    if paired and direction is None:
        # "200 / 120 GB/s": two figures share one unit (read / write, min / max); which
        # one is this field's the text does not say.
        raise ValueParseError(
            f"two figures share one unit ({paired.group(0).strip()!r}); which one is meant "
            "is not said", found=text, expected=expected)
    try:
        terms = _find_terms(text, dimension)
    except _RangeGiven as given:
        raise ValueParseError(
            f"a range ({str(given)!r}); cannot tell which figure applies",
            found=_raw_text(raw), expected=f"{expected}, one figure",
        ) from None
    except _AmbiguousSpace as ambiguous:
        raise ValueParseError(
            f"{str(ambiguous)!r} is ambiguous: a space inside a number, or a count without 'x'",
            found=_raw_text(raw),
            expected=f"{expected}; no space inside a number ('1000', '1,000'), "
            "'x' before a count ('2 x 400 Gb/s')",
        ) from None
    wants_rate = dimension in ("bandwidth", "throughput")
    if wants_rate and any(t.is_rate for t in terms):
        terms = [t for t in terms if t.is_rate]  # "141 GB at 4.8 TB/s": the rate
    elif not wants_rate:
        if terms and all(t.is_rate for t in terms):
            raise ValueParseError(
                f"a rate where a {dimension} was expected", found=_raw_text(raw),
                expected=expected,
            )
        terms = [t for t in terms if not t.is_rate]
        if dimension in ("capacity", "memory") and any(not t.was_bytes for t in terms):
            raise ValueParseError(
                f"a {dimension} in bits (lower-case 'b'); sizes are given in bytes",
                found=_raw_text(raw), expected=expected,
            )
    if not terms:
        bare = _bare_number(text, raw, dimension, default_unit, expected)
        if bare is not None:
            return bare
        raise ValueParseError(
            f"no {dimension} with a unit found", found=_raw_text(raw), expected=expected
        )
    for term in terms:  # converted only now: a unit of the wrong kind never reaches pint
        term.each = _convert(term, dimension, canonical)
    _assign_context(text, terms)
    term, notes = _pick_term(terms, _raw_text(raw), expected, direction, canonical)
    if term.count == 1 and len(terms) == 1 and dimension == "bandwidth":
        ports = _PORT_COUNT_RE.search(text[: term.start] + " " + text[term.end :])
        if ports and int(ports["n"]) > 1:  # "NDR 400G InfiniBand, 8 ports per system"
            term.count = int(ports["n"])
            notes.append(f"count {term.count} taken from {ports.group(0).strip()!r}")
    notes = term.notes + notes + _no_value_note(text)
    return ParsedQuantity(
        term.total, canonical, dimension, _raw_text(raw), notes, term.source_unit,
        term.count, term.each, term.scope, term.direction, term.approximate,
    )


def _fabric_of(text: str) -> str | None:
    for name, pattern in _FABRIC_RES:
        if pattern.search(text):
            return name
    return None


def parse_bandwidth(raw: RawValue, default_unit: str | None = None) -> ParsedBandwidth:
    """A network or link bandwidth in Gbit/s: '8 × 400 Gb/s NDR per node' (3200 total,
    count 8, each 400, scope node), '400GbE x8', '8x400G', '3.2 Tbps', '3,2 Tbit/s',
    '50 GB/s' (bytes: 400 Gbit/s, ``was_bytes``), '900 GB/s NVLink', '8x NDR'."""
    expected = EXPECTED["bandwidth"]
    text = ""
    if isinstance(raw, str):
        text = _text_input(raw, expected)
        if not _DATA_TERM_RE.search(text):
            ib = _ib_bandwidth(text, raw)
            if ib is not None:
                return ib
        quantity = _quantity_from_text(text, raw, "bandwidth", default_unit, None)
    else:
        quantity = parse_quantity(raw, "bandwidth", default_unit)
    was_bytes = (quantity.source_unit or "").endswith("B/s")
    return ParsedBandwidth(
        quantity.value, quantity.each, quantity.count, quantity.scope, was_bytes,
        quantity.raw, quantity.notes, _fabric_of(text), quantity.approximate,
    )


def _ib_bandwidth(text: str, raw: str) -> ParsedBandwidth | None:
    """'8x NDR', 'HDR200': an InfiniBand generation standing in for the speed."""
    matches = list(_IB_TERM_RE.finditer(text))
    if len(matches) != 1:
        return None
    match = matches[0]
    gen = match["gen"].casefold()
    each = float(match["speed"]) if match["speed"] else _IB_GBIT_S[gen]
    count = int(match["count"] or 1)
    notes = [] if match["speed"] else [
        f"{match['gen'].upper()} read as {_fmt(each)} Gbit/s per port (IBTA roadmap)"
    ]
    return ParsedBandwidth(
        _clean_float(each * count), each, count, _scope_of(text), False, raw, notes,
        "infiniband",
    )


