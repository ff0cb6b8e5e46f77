"""Read values out of vendor text: numbers, quantities, money, dates, durations, booleans.

The normaliser calls these with one raw cell or YAML value (``str``, ``int``, ``float``,
``datetime``, ``bool`` or ``None``) and the kind it expects. Each parser returns a small
frozen result holding the value in canonical units, the raw text, and ``notes``: every
assumption made on the way ("decimal comma read as 24.80", "unit was bytes per second").
A value that cannot be read raises :class:`ValueParseError` (``found``, ``expected``);
a placeholder such as "TBD" or "contact sales" raises its subclass :class:`NoValueGiven`,
so callers can tell a missing value from a malformed one. Callers add file/sheet/cell with
:meth:`ValueParseError.to_problem`.

Rules that decide ambiguous text (documented here once, tested in tests/test_values.py):

* Separators: with both ``,`` and ``.`` the last one is the decimal mark ("1.234,5" and
  "1,234.5" are both 1234.5). A single ``,`` followed by exactly three digits is a
  thousands separator ("1,234" is 1234, the English reading dominant in vendor sheets);
  with any other digit count it is a decimal comma ("24,80" is 24.8, noted). A single
  ``.`` is always a decimal point ("1.234" is 1.234). Spaces, thin spaces and apostrophes
  group thousands ("9 600 000", "1'234"). A group after the first must have three digits.
* Bits and bytes: a lower-case ``b`` is bits, an upper-case ``B`` is bytes ("Gb/s" vs
  "GB/s"); spelled-out "bit"/"byte" win. All-caps "GBPS" is ambiguous and read by the
  field's context (bits for a network, bytes for storage throughput), with a note.
  Network bandwidth is canonical in Gbit/s (NICs are quoted in bits, seed 001).
* Dates: "01/02/2027" with both parts <= 12 is read day-first (ISO 8601 and European
  order; most of the offers' non-US vendors) and noted; pass ``dayfirst=False`` for US
  sources. Dotted dates ("01.02.2027") are always day-first. A quarter, half, month or
  year is read as its last day (the conservative delivery date), noted with its span.
* Months are 730 hours (PRODUCT.md: "730 hours a month"), a year is 12 months; pint's
  own month is a Julian 730.5 h, which is why durations do not go through pint.
* "free" / "included" is ``True`` for a boolean and 0 for a price (noted).

Why these libraries: pint holds the SI and IEC prefix arithmetic (k, M, G, T, Ki, Gi,
Ti, bits vs bytes) so conversion factors are not hand-typed; its registry is built
lazily once, from the small definitions file evaltool/data/units.txt, and every factor
is cached (a number already in the canonical unit never touches pint). python-dateutil
parses month-name dates (English, German, French month names added) and validates days
per month, rather than a hand-written table of formats. Vendor spellings (unit tokens,
currency symbols, basis words) are recognised by the regular expressions below, compiled
on first use, because pint's own string parser cannot tell "Gb" from "GB" by case.
Languages: English, German and French words (Knoten, Stunde, Monat; par, heure, mois).
"""

from __future__ import annotations

import functools
import itertools
import math
import re
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from decimal import Decimal
from typing import TYPE_CHECKING, Any, Final, Literal

from evaltool.errors import EvaltoolError, Location, Problem
from evaltool.issues import Severity
from evaltool.resources import data_dir

if TYPE_CHECKING:
    import pint
    from dateutil import parser as dateutil_parser

RawValue = str | int | float | Decimal | date | datetime | bool | None
Scope = Literal["gpu", "node"]
Direction = Literal["read", "write"]
Dimension = Literal["bandwidth", "capacity", "power", "memory", "throughput"]
DurationUnit = Literal["months", "hours", "days"]

# Canonical unit per dimension; field names in PRODUCT.md carry the same units
# (`_gbit_s`, `_tb`, `_gb`, `power_kw_per_node`, `storage_read_gbyte_s`).
CANONICAL_UNIT: Final[dict[str, str]] = {
    "bandwidth": "Gbit/s",
    "capacity": "TB",
    "memory": "GB",
    "power": "kW",
    "throughput": "GB/s",
}
HOURS_PER_MONTH: Final = 730.0  # PRODUCT.md: per-month prices use 730 hours a month
UNITS_FILE: Final = data_dir() / "units.txt"  # pint definitions

EXPECTED: Final[dict[str, str]] = {
    "number": "a number such as '9,600,000', '24,80' or '2.5k'",
    "count": "a whole number such as '8' or '64 nodes'",
    "percent": "a percentage such as '99.9%' or '0.999'",
    "bandwidth": "a bandwidth such as '400 Gb/s', '8 x 400G' or '3.2 Tbps'",
    "capacity": "a capacity such as '500 TB', '2 PB' or '3 TiB'",
    "memory": "a memory size such as '80 GB' or '141 GB HBM3e'",
    "power": "a power such as '10.2 kW' or '700 W'",
    "throughput": "a throughput such as '20 GB/s read'",
    "money": "a price such as '$2.35 per GPU-hour', '€24.80/node/h' or 'USD 9,600,000'",
    "date": "a date such as '2027-02-01', '1 Feb 2027' or 'Q2 2027'",
    "duration": "a duration such as '36 months', '4 hours' or 'next business day'",
    "bool": "yes or no (also 'included', 'not included', '✓', 'x')",
}


# --------------------------------------------------------------------------- errors


class ValueParseError(EvaltoolError):
    """A raw value could not be read as the kind the caller expected."""

    def __init__(self, message: str, *, found: str, expected: str) -> None:
        self.message = message
        self.found = found
        self.expected = expected
        super().__init__(f"{message} (found {found!r}, expected {expected})")

    def to_problem(
        self, where: Location, field: str | None = None, severity: Severity = "error"
    ) -> Problem:
        """The same error as a :class:`Problem` that names the file, sheet and cell."""
        return Problem(
            where=where,
            message=self.message,
            field=field,
            found=self.found,
            expected=self.expected,
            severity=severity,
        )


class NoValueGiven(ValueParseError):
    """The cell holds a placeholder ("TBD", "contact sales", "N/A"), not a value."""


class ValueConversionError(EvaltoolError):
    """A parsed value cannot be turned into the unit asked for (missing facts or rates)."""

    def __init__(self, message: str, *, found: str, expected: str) -> None:
        self.message = message
        self.found = found
        self.expected = expected
        super().__init__(f"{message} (found {found!r}, expected {expected})")

    def to_problem(
        self, where: Location, field: str | None = None, severity: Severity = "error"
    ) -> Problem:
        return Problem(
            where=where,
            message=self.message,
            field=field,
            found=self.found,
            expected=self.expected,
            severity=severity,
        )


class MissingFxRate(ValueConversionError):
    """A price is in a currency for which the user gave no exchange rate."""

    def __init__(self, currency: str, found: str) -> None:
        self.currency = currency
        super().__init__(
            f"no exchange rate for {currency}; prices are never converted with a default rate",
            found=found,
            expected=f"a rate given with --fx {currency}=<USD per 1 {currency}>",
        )


# --------------------------------------------------------------------------- results


@dataclass(frozen=True, slots=True)
class ParsedNumber:
    value: float
    raw: str
    notes: list[str] = field(default_factory=list)
    approximate: bool = False
    is_percent: bool = False  # the text carried a % sign


@dataclass(frozen=True, slots=True)
class ParsedCount:
    value: int
    raw: str
    notes: list[str] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class ParsedQuantity:
    value: float  # total, in ``unit``
    unit: str  # canonical unit of the dimension, see CANONICAL_UNIT
    dimension: str
    raw: str
    notes: list[str] = field(default_factory=list)
    source_unit: str | None = None  # unit as written, as a pint expression ("GB/s", "TiB")
    count: int = 1  # "8 x 3.84 TB" -> 8
    each: float = 0.0  # value of one item, in ``unit``
    scope: Scope | None = None  # "per GPU" / "per node" stated in the text
    direction: Direction | None = None  # throughput: "read" / "write"
    approximate: bool = False


@dataclass(frozen=True, slots=True)
class ParsedBandwidth:
    gbit_s: float  # total, Gbit/s
    gbit_s_each: float  # one link or port, Gbit/s
    count: int  # number of links or ports ("8 x 400G" -> 8)
    scope: Scope | None
    was_bytes: bool  # the text gave bytes per second ("50 GB/s")
    raw: str
    notes: list[str] = field(default_factory=list)
    fabric: str | None = None  # infiniband | roce | ethernet | nvlink | efa | ici
    approximate: bool = False

    @property
    def value(self) -> float:
        return self.gbit_s

    @property
    def gbyte_s(self) -> float:
        return self.gbit_s / 8.0


@dataclass(frozen=True, slots=True)
class Money:
    amount: float
    currency: str  # ISO 4217 code
    per: tuple[str, ...] = ()  # ("gpu", "hour"), ("node", "hour"), ("tb", "month"), ...
    raw: str = ""
    notes: list[str] = field(default_factory=list)

    @property
    def value(self) -> float:
        return self.amount


@dataclass(frozen=True, slots=True)
class ParsedDate:
    value: date | None  # None when only a lead time after order is given
    raw: str
    notes: list[str] = field(default_factory=list)
    earliest: date | None = None  # span of a quarter / month / year; equal to value else
    latest: date | None = None
    days_after_order: float | None = None  # "8 weeks ARO" -> 56.0
    ambiguous: bool = False  # day/month order could not be told from the text

    @property
    def is_relative(self) -> bool:
        return self.value is None and self.days_after_order is not None


@dataclass(frozen=True, slots=True)
class ParsedDuration:
    value: float  # in ``unit``
    unit: str  # "months" | "hours" | "days"
    hours: float
    raw: str
    notes: list[str] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class ParsedBool:
    value: bool
    raw: str
    notes: list[str] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class GpuHourPrice:
    value: float  # per GPU-hour, in ``currency``
    currency: str
    formula: str  # how it was derived, for the provenance trail
    notes: list[str] = field(default_factory=list)


# --------------------------------------------------------------------------- shared helpers


class _LazyRegex:
    """A regular expression compiled on first use, then kept.

    The patterns below take ~60 ms to compile; compiling them lazily keeps
    ``import evaltool.normalize.values`` (and so CLI start-up and ``--help``) cheap.
    """

    __slots__ = ("_compiled", "_flags", "_source")

    def __init__(self, source: str, flags: int = 0) -> None:
        self._source = source
        self._flags = flags
        self._compiled: re.Pattern[str] | None = None

    def _compile(self) -> re.Pattern[str]:
        self._compiled = re.compile(self._source, self._flags)
        return self._compiled

    def match(self, text: str) -> re.Match[str] | None:
        return (self._compiled or self._compile()).match(text)

    def search(self, text: str) -> re.Match[str] | None:
        return (self._compiled or self._compile()).search(text)

    def fullmatch(self, text: str) -> re.Match[str] | None:
        return (self._compiled or self._compile()).fullmatch(text)

    def finditer(self, text: str) -> Iterator[re.Match[str]]:
        return (self._compiled or self._compile()).finditer(text)

    def sub(self, replacement: str | Callable[[re.Match[str]], str], text: str) -> str:
        return (self._compiled or self._compile()).sub(replacement, text)


# Placeholders that mean "no value here" (compared after casefold and trimming).
_NO_VALUE_WORDS: Final = frozenset(
    {
        "", "tbd", "tba", "tbc", "tbd.", "to be defined", "to be determined",
        "to be confirmed", "call", "call us", "on request", "upon request",
        "available on request", "price on request", "poa", "p.o.a.", "contact sales",
        "contact us", "ask", "ask us", "n/a", "na", "n.a.", "n. a.", "-", "--", "---",
        "—", "–", "?", "??", "???", "unknown", "not specified", "unspecified",
        "not stated", "k.a.", "k. a.", "keine angabe", "auf anfrage", "nach vereinbarung",
        "negotiable", "null", "nan", "nil", "asap", "later", "pending", "varies",
    }
)
# The same placeholders inside a longer phrase ("Contact sales for pricing").
_NO_VALUE_PHRASE_RE: Final = _LazyRegex(
    r"\b(?:tbd|tba|tbc|to be (?:defined|determined|confirmed)|call us|on request|"
    r"contact (?:sales|us)|price on request|auf anfrage|keine angabe|negotiable)\b",
    re.IGNORECASE,
)

_EXCEL_DIGITS: Final = 15  # Excel keeps 15 significant digits; more is binary noise


def _clean_float(value: float) -> float:
    """Drop binary noise past Excel's 15 significant digits (0.1+0.2 -> 0.3)."""
    if value == 0.0 or not math.isfinite(value):
        return value
    return float(f"{value:.{_EXCEL_DIGITS}g}")


def _fmt(value: float) -> str:
    """A number for a note: no float noise, no trailing zeros."""
    return f"{_clean_float(value):.12g}"


def _raw_text(raw: object) -> str:
    if isinstance(raw, datetime):
        return raw.isoformat()
    if isinstance(raw, date):
        return raw.isoformat()
    return str(raw)


_SPACES_RE: Final = _LazyRegex(r"\s+")


_DIGIT_GROUP_SPACE_RE: Final = _LazyRegex(r"(?<=\d)[\u00a0\u202f\u2009](?=\d{3}(?!\d))")


def _prepare_text(raw: str) -> str:
    """NFKC folds no-break and thin spaces to spaces and full-width digits to ASCII;
    a no-break or thin space inside a number is kept as a thousands separator first."""
    text = unicodedata.normalize("NFKC", _DIGIT_GROUP_SPACE_RE.sub("'", raw))
    return _SPACES_RE.sub(" ", text).strip()


def _is_nan(value: float) -> bool:
    return value != value  # NaN is the only float unequal to itself


def _check_no_value(text: str, expected: str, found: str) -> None:
    """Raise NoValueGiven for a placeholder; let text with figures through."""
    folded = text.casefold().strip()
    if folded in _NO_VALUE_WORDS or folded.strip(" .:;!") in _NO_VALUE_WORDS or (
        not any(ch.isdigit() for ch in text) and _NO_VALUE_PHRASE_RE.search(text)
    ):
        raise NoValueGiven(f"no value given ({text!r})", found=found, expected=expected)


def _no_value_note(text: str) -> list[str]:
    """A figure given beside a placeholder ("TBD, est. $2.35") is kept and noted."""
    match = _NO_VALUE_PHRASE_RE.search(text)
    return [f"text also says {match.group(0)!r}; figure kept"] if match else []


def _numeric_input(raw: RawValue, expected: str) -> float | None:
    """The float for int/float/Decimal input (fast path), None for anything else."""
    if isinstance(raw, bool):
        return None
    if isinstance(raw, int):
        return float(raw)
    if isinstance(raw, float):
        if _is_nan(raw):
            raise NoValueGiven("no value given (empty cell)", found="NaN", expected=expected)
        if not math.isfinite(raw):
            raise ValueParseError("not a finite number", found=str(raw), expected=expected)
        return _clean_float(raw)
    if isinstance(raw, Decimal):
        if not raw.is_finite():
            raise ValueParseError("not a finite number", found=str(raw), expected=expected)
        return float(raw)
    return None


def _text_input(raw: RawValue, expected: str) -> str:
    """Stripped, NFKC-normalised text; raises NoValueGiven for None or a placeholder."""
    if raw is None:
        raise NoValueGiven("no value given (empty cell)", found="", expected=expected)
    if not isinstance(raw, str):
        raise ValueParseError(
            f"a {type(raw).__name__} where text was expected", found=_raw_text(raw),
            expected=expected,
        )
    text = _prepare_text(raw)
    _check_no_value(text, expected, raw)
    return text


# --------------------------------------------------------------------------- numbers

# A number token: thousands grouped by ",", ".", "'", ’ or a space ("9 600 000"), each
# group exactly three digits, with an optional decimal part; or plain digits with one
# decimal mark; or ".5"; then an optional exponent.
_NUM_SPACED: Final = (
    r"(?:\d{1,3}(?:[,.'’ ]\d{3})+(?!\d)(?:[.,]\d+)?|\d+(?:[.,]\d+)?|\.\d+)"
    r"(?:[eE][-+]?\d+)?"
)
# In quantities a plain space does not group thousands: "2 400Gb/s ports" is 2 ports.
# No-break and thin spaces between digits (Excel's French "2 000") still do: they are
# turned into apostrophes before NFKC would fold them into plain spaces.
_NUM: Final = _NUM_SPACED.replace("[,.'’ ]", "[,.'’]")
_EXPONENT_RE: Final = _LazyRegex(r"[eE][-+]?\d+$")
_GROUPED_RE: Final = {sep: _LazyRegex(rf"\d{{1,3}}(?:\{sep}\d{{3}})*") for sep in ",."}
_DROP_GROUP_SPACES: Final = str.maketrans("", "", " \u00a0\u202f\u2009'’")

_MULTIPLIER: Final[dict[str, float]] = {
    "k": 1e3, "thousand": 1e3, "m": 1e6, "mn": 1e6, "mio": 1e6, "mio.": 1e6,
    "million": 1e6, "millions": 1e6, "bn": 1e9, "b": 1e9, "billion": 1e9,
    "mrd": 1e9, "mrd.": 1e9,
}
# In a bare number "M" is a million but "m" (metres, minutes) and "B" (bytes) are not.
_NUMBER_MULT_RE: Final = r"(?P<mult>k|K|M|(?i:mn|mio\.?|millions?|bn|billion|thousand|mrd\.?))"
_MONEY_MULT_RE: Final = (
    r"(?P<mult>k|K|M|m|B|(?i:mn|mio\.?|millions?|bn|billion|thousand|mrd\.?))"
)

# Words that qualify a figure; value -> note text.
_QUALIFIERS: Final[dict[str, str]] = {
    "~": "approximate", "≈": "approximate", "ca": "approximate", "ca.": "approximate",
    "approx": "approximate", "approx.": "approximate", "approximately": "approximate",
    "about": "approximate", "around": "approximate", "circa": "approximate",
    "roughly": "approximate", "est": "approximate", "est.": "approximate",
    "estimated": "approximate", "rund": "approximate", "etwa": "approximate",
    "ungefähr": "approximate",
    "up to": "an upper bound", "max": "an upper bound", "max.": "an upper bound",
    "maximum": "an upper bound", "<=": "an upper bound", "≤": "an upper bound",
    "<": "an upper bound", "bis zu": "an upper bound",
    "at least": "a lower bound", "min": "a lower bound", "min.": "a lower bound",
    "minimum": "a lower bound", ">=": "a lower bound", "≥": "a lower bound",
    ">": "a lower bound", "from": "a lower bound", "starting at": "a lower bound",
    "ab": "a lower bound", "mindestens": "a lower bound",
}
_QUALIFIER_RE: Final = (
    r"(?P<qual>(?i:approximately|approx\.?|about|around|circa|roughly|estimated|est\.?|"
    r"ca\.?|rund|etwa|ungefähr|up to|bis zu|maximum|max\.?|at least|minimum|min\.?|"
    r"mindestens|starting at|from|ab)(?=[\s\d.$€£¥]|$)|~|≈|<=|>=|≤|≥|<|>)"
)

_NUMBER_RE: Final = _LazyRegex(
    rf"^(?:{_QUALIFIER_RE}\s*)?(?P<open>\()?\s*(?P<sign>[-+−])?\s*(?P<num>{_NUM_SPACED})"
    rf"\s*(?:{_NUMBER_MULT_RE}(?![A-Za-z]))?\s*(?P<pct>%|(?i:percent|pct|prozent))?\s*"
    r"(?P<close>\))?\s*(?P<plus>\+)?$"
)


class _MalformedNumber(Exception):
    pass


def _grouped(int_part: str, sep: str) -> bool:
    return _GROUPED_RE[sep].fullmatch(int_part) is not None


def _interpret_number(token: str) -> tuple[float, str | None]:
    """Value of one number token, and a note when a decimal comma was assumed.

    Applies the separator rules in the module docstring.
    """
    exp_match = _EXPONENT_RE.search(token)
    mantissa = token[: exp_match.start()] if exp_match else token
    exponent = exp_match.group(0) if exp_match else ""
    space_grouped = any(ch in mantissa for ch in " \u00a0\u202f\u2009'’")
    compact = mantissa.translate(_DROP_GROUP_SPACES)
    n_comma, n_dot = compact.count(","), compact.count(".")
    note: str | None = None
    if n_comma and n_dot:
        decimal_mark = "," if compact.rfind(",") > compact.rfind(".") else "."
        thousands = "." if decimal_mark == "," else ","
        if compact.count(decimal_mark) > 1:
            raise _MalformedNumber(token)
        int_part, frac = compact.split(decimal_mark)
        if not _grouped(int_part, thousands):
            raise _MalformedNumber(token)
        canonical = f"{int_part.replace(thousands, '')}.{frac}"
        if decimal_mark == ",":
            note = f"decimal comma read as {canonical}"
    elif n_comma:
        if n_comma > 1:
            if not _grouped(compact, ","):
                raise _MalformedNumber(token)
            canonical = compact.replace(",", "")
        else:
            int_part, frac = compact.split(",")
            thousands_like = (
                len(frac) == 3 and 1 <= len(int_part) <= 3 and not int_part.startswith("0")
            )
            if thousands_like and not space_grouped:
                canonical = int_part + frac  # "1,234" is 1234 (documented rule)
            else:
                canonical = f"{int_part or '0'}.{frac}"
                note = f"decimal comma read as {canonical}"
    elif n_dot > 1:
        if not _grouped(compact, "."):
            raise _MalformedNumber(token)
        canonical = compact.replace(".", "")
    else:
        canonical = compact  # a single "." is always a decimal point
    if not canonical or canonical == ".":
        raise _MalformedNumber(token)
    return float(canonical + exponent), note


def _qualifier_note(qual: str | None, text: str) -> tuple[list[str], bool]:
    if not qual:
        return [], False
    kind = _QUALIFIERS.get(qual.casefold(), "approximate")
    return [f"{qual!r} marks {kind}: read {text!r} as the figure itself"], kind == "approximate"


def parse_number(raw: RawValue) -> ParsedNumber:
    """A plain number: '9,600,000', '9 600 000', '24,80', '1.234,5', '2.5k', '~80', '1e3',
    '99.9 %' (-> 99.9, is_percent), '(1,234)' (accounting negative), or an int/float cell."""
    expected = EXPECTED["number"]
    fast = _numeric_input(raw, expected)
    if fast is not None:
        return ParsedNumber(fast, _raw_text(raw))
    text = _text_input(raw, expected)
    match = _NUMBER_RE.match(text)
    if match is None:
        raise ValueParseError("not a number", found=_raw_text(raw), expected=expected)
    try:
        value, decimal_note = _interpret_number(match["num"])
    except _MalformedNumber:
        raise ValueParseError(
            "malformed digit grouping", found=_raw_text(raw), expected=expected
        ) from None
    notes, approximate = _qualifier_note(match["qual"], text)
    if decimal_note:
        notes.append(decimal_note)
    if match["mult"]:
        value *= _MULTIPLIER[match["mult"].casefold()]
    negative = match["sign"] in ("-", "−")
    if match["open"] and match["close"]:
        negative = True
        notes.append("parentheses read as a negative number (accounting style)")
    elif match["open"] or match["close"]:
        raise ValueParseError("unbalanced parenthesis", found=_raw_text(raw), expected=expected)
    if match["plus"]:
        notes.append(f"'{match['num']}+' is a lower bound; read as {match['num']}")
    value = -value if negative else value
    return ParsedNumber(
        _clean_float(value), _raw_text(raw), notes, approximate, bool(match["pct"])
    )


_COUNT_RE: Final = _LazyRegex(
    rf"^(?:{_QUALIFIER_RE}\s*)?(?P<a>\d[\d,.' ]*)\s*(?:(?:[x×*])\s*(?P<b>\d+))?"
    r"(?:\s+[A-Za-z][\w\s()-]*)?$"
)


def parse_count(raw: RawValue) -> ParsedCount:
    """A whole number of things: 8, '8', '8 GPUs', '64 nodes', '1,024', '64 x 8' (-> 512)."""
    expected = EXPECTED["count"]
    fast = _numeric_input(raw, expected)
    if fast is not None:
        if fast < 0 or not fast.is_integer():
            raise ValueParseError("not a whole number", found=_raw_text(raw), expected=expected)
        return ParsedCount(int(fast), _raw_text(raw))
    text = _text_input(raw, expected)
    match = _COUNT_RE.match(text)
    if match is None:
        raise ValueParseError("not a count", found=_raw_text(raw), expected=expected)
    try:
        value, decimal_note = _interpret_number(match["a"].strip())
    except _MalformedNumber:
        raise ValueParseError(
            "malformed digit grouping", found=_raw_text(raw), expected=expected
        ) from None
    if decimal_note or not value.is_integer():
        raise ValueParseError("not a whole number", found=_raw_text(raw), expected=expected)
    notes, _ = _qualifier_note(match["qual"], text)
    count = int(value)
    if match["b"]:
        notes.append(f"{count} x {match['b']} multiplied to {count * int(match['b'])}")
        count *= int(match["b"])
    return ParsedCount(count, _raw_text(raw), notes)


# --------------------------------------------------------------------------- percent

_NINES_RE: Final = _LazyRegex(r"^(?P<n>two|three|four|five|2|3|4|5)\s+nines\b", re.IGNORECASE)
_NINES: Final = {"two": 2, "three": 3, "four": 4, "five": 5}
_PERCENT_RE: Final = _LazyRegex(
    rf"^(?:{_QUALIFIER_RE}\s*)?(?P<num>{_NUM})\s*(?P<pct>%|(?i:percent|pct|prozent))?"
    r"(?:\s+(?P<rest>[A-Za-z(][\w\s().,/-]*))?$"
)


_PERCENT_IN_TEXT_RE: Final = _LazyRegex(rf"(?<![\w.,\-−])(?P<num>{_NUM})\s*(?P<pct>%)")


def parse_percent(
    raw: RawValue, *, allow_fraction: bool = True, max_pct: float | None = 100.0
) -> ParsedNumber:
    """A percentage in percent: '99.9%', '99,95 %', '0.999' (a fraction <= 1 without a %
    sign is read as 99.9 and noted; pass ``allow_fraction=False`` for fields such as a
    credit percentage where '1' means 1 %), 'three nines' (99.9)."""
    expected = EXPECTED["percent"]
    fast = _numeric_input(raw, expected)
    notes: list[str] = []
    approximate = False
    if fast is not None:
        value, has_sign, raw_s = fast, False, _raw_text(raw)
    else:
        text = _text_input(raw, expected)
        raw_s = _raw_text(raw)
        nines = _NINES_RE.match(text)
        if nines:
            n = _NINES.get(nines["n"].casefold()) or int(nines["n"])
            value = _clean_float(100.0 - 100.0 * 10.0**-n)
            notes.append(f"{nines.group(0)!r} read as {_fmt(value)} %")
            return ParsedNumber(value, raw_s, notes, False, True)
        match = _PERCENT_RE.match(text)
        if match is None:  # a sentence stating one percentage: "targets 99.9% availability"
            signed = list(_PERCENT_IN_TEXT_RE.finditer(text))
            if len(signed) != 1:
                raise ValueParseError("not a percentage", found=raw_s, expected=expected)
            match = signed[0]
            notes.append(f"percentage {match.group(0)!r} taken from the text")
        try:
            value, decimal_note = _interpret_number(match["num"])
        except _MalformedNumber:
            raise ValueParseError(
                "malformed digit grouping", found=raw_s, expected=expected
            ) from None
        qual_notes, approximate = _qualifier_note(match.groupdict().get("qual"), text)
        notes += qual_notes
        if decimal_note:
            notes.append(decimal_note)
        has_sign = bool(match["pct"])
    if not has_sign and allow_fraction and 0.0 <= value <= 1.0:
        notes.append(f"fraction {_fmt(value)} read as {_fmt(value * 100.0)} %")
        value *= 100.0
    value = _clean_float(value)
    if value < 0 or (max_pct is not None and value > max_pct):
        limit = f"0 to {_fmt(max_pct)} %" if max_pct is not None else "at least 0 %"
        raise ValueParseError(
            f"percentage out of range ({_fmt(value)} %)", found=raw_s,
            expected=f"{expected}, {limit}",
        )
    return ParsedNumber(value, raw_s, notes, approximate, True)


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

_SCOPE_GPU_RE: Final = _LazyRegex(
    r"(?:\bper[\s-]*|/\s*|\beach\s+|\bpro\s+|\bje\s+|\bpar\s+)"
    r"(?:gpu|accelerator|card|device|chip)s?\b",
    re.IGNORECASE,
)
_SCOPE_NODE_RE: Final = _LazyRegex(
    r"(?:\bper[\s-]*|/\s*|\beach\s+|\bpro\s+|\bje\s+|\bpar\s+)"
    r"(?:node|server|host|machine|instance|system|box|chassis|knoten|vm|noeud|nœud|serveur)s?\b",
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
    gpu = _SCOPE_GPU_RE.search(segment)
    node = _SCOPE_NODE_RE.search(segment)
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


# --------------------------------------------------------------------------- money

_CURRENCY_SYMBOLS: Final[dict[str, str]] = {
    "US$": "USD", "A$": "AUD", "AU$": "AUD", "C$": "CAD", "CA$": "CAD", "S$": "SGD",
    "SG$": "SGD", "HK$": "HKD", "NZ$": "NZD", "R$": "BRL", "$": "USD", "€": "EUR",
    "£": "GBP", "CN¥": "CNY", "JP¥": "JPY", "¥": "JPY", "₹": "INR", "₩": "KRW",
    "RMB": "CNY", "元": "CNY", "SFr.": "CHF", "Fr.": "CHF",
}
_CURRENCY_CODES: Final = frozenset(
    {
        "USD", "EUR", "GBP", "JPY", "CHF", "CAD", "AUD", "SGD", "CNY", "INR", "KRW",
        "SEK", "NOK", "DKK", "PLN", "HKD", "NZD", "BRL", "CZK", "ILS", "AED", "SAR",
    }
)
_CURRENCY_WORDS: Final[dict[str, str]] = {
    "dollar": "USD", "dollars": "USD", "euro": "EUR", "euros": "EUR", "pound": "GBP",
    "pounds": "GBP", "sterling": "GBP", "yen": "JPY", "franken": "CHF", "francs": "CHF",
}
_CURRENCY_NOTES: Final[dict[str, str]] = {
    "¥": "'¥' read as JPY (Chinese yuan is written CN¥ or RMB)",
    "Fr.": "'Fr.' read as CHF",
}
_SYMBOL_ALT: Final = "|".join(
    re.escape(s) for s in sorted(_CURRENCY_SYMBOLS, key=len, reverse=True)
)
# ISO codes may touch digits ("USD2.35"), so they end at a non-letter, not a word boundary.
_CURRENCY_RE: Final = (
    rf"(?:{_SYMBOL_ALT}|\b(?:{'|'.join(sorted(_CURRENCY_CODES))})(?![A-Za-z])|"
    rf"\b(?i:{'|'.join(_CURRENCY_WORDS)})\b)"
)
# A currency before the amount ("USD2.35", "$ 2.35", "-$500"), or after it ("24,80 €"),
# where a symbol that starts the next price ("8 $2.35") is not taken as trailing.
_MONEY_RE: Final = _LazyRegex(
    rf"(?:(?P<cur1>{_CURRENCY_RE})\s*(?P<sign1>[-−])?\s*"
    rf"|(?<![\w.,])(?P<sign>[-−])?\s*(?:(?P<cur2>{_CURRENCY_RE})\s*)?(?<![\w.,]))"
    rf"(?P<num>{_NUM_SPACED})(?:\s?{_MONEY_MULT_RE}(?![A-Za-z]))?"
    rf"(?:\s*(?P<cur3>{_CURRENCY_RE})(?!\s*[-−]?\s*\d))?"
)
_RANGE_GAP_RE: Final = _LazyRegex(r"\s*(?:-|–|—|to|bis)\s*")

# Price basis words -> canonical denominator (lower-case keys).
_BASIS_WORDS: Final[dict[str, str]] = {
    **dict.fromkeys(
        ("gpu", "gpus", "accelerator", "accelerators", "card", "cards", "chip", "chips", "tpu",
         "tpus", "device", "devices"),
        "gpu",
    ),
    **dict.fromkeys(
        ("node", "nodes", "server", "servers", "host", "hosts", "instance", "instances",
         "machine", "machines", "system", "box", "knoten", "vm", "vms", "noeud", "noeuds",
         "nœud", "nœuds", "serveur", "serveurs"),
        "node",
    ),
    **dict.fromkeys(("second", "seconds", "sec", "s"), "second"),
    **dict.fromkeys(("minute", "minutes", "min"), "minute"),
    **dict.fromkeys(
        ("hour", "hours", "hr", "hrs", "h", "std", "stunde", "stunden", "heure", "heures"),
        "hour",
    ),
    **dict.fromkeys(("day", "days", "tag", "d", "jour", "jours"), "day"),
    **dict.fromkeys(("week", "weeks", "wk", "woche", "semaine"), "week"),
    **dict.fromkeys(
        ("month", "months", "mo", "mon", "mth", "mnth", "monat", "monate", "m", "mois"), "month"
    ),
    **dict.fromkeys(
        ("year", "years", "yr", "yrs", "annum", "jahr", "a", "y", "an", "année"), "year"
    ),
    **dict.fromkeys(("term", "contract", "total"), "term"),
    **dict.fromkeys(("tb", "tbyte", "terabyte", "to"), "tb"),
    **dict.fromkeys(("gb", "gbyte", "gigabyte", "go"), "gb"),
    **dict.fromkeys(("kw",), "kw"),
    **dict.fromkeys(("kwh",), "kwh"),
}
# Per-unit bases written in another unit: (canonical basis, how many of them one is).
_BASIS_SCALED: Final[dict[str, tuple[str, str]]] = {
    "tib": ("tb", "TiB"), "pb": ("tb", "PB"), "pib": ("tb", "PiB"), "gib": ("gb", "GiB"),
    "mwh": ("kwh", "MWh"),
}
_BASIS_TARGET_UNIT: Final = {"tb": "TB", "gb": "GB", "kwh": "kWh"}
_ADVERB_BASIS: Final[dict[str, str]] = {
    "hourly": "hour", "daily": "day", "weekly": "week", "monthly": "month",
    "yearly": "year", "annually": "year", "annual": "year", "p.a.": "year",
    "stündlich": "hour", "täglich": "day", "wöchentlich": "week", "monatlich": "month",
    "jährlich": "year",
    "p.m.": "month", "pro monat": "month", "one-time": "once", "one-off": "once",
    "upfront": "once", "up-front": "once", "setup fee": "once", "einmalig": "once",
    "for the term": "term", "for the full term": "term", "total contract value": "term",
    "over the term": "term", "total": "term", "in total": "term",
}
_BASIS_ORDER: Final = ("gpu", "node", "tb", "gb", "kw", "kwh", "second", "minute", "hour",
                       "day", "week", "month", "year", "term", "once")
# "$3.5M over 3 years": a total for a stated term.
_OVER_TERM_RE: Final = _LazyRegex(
    r"\b(?:over|for|across)\s+(?:the\s+)?(?:\d+|one|two|three|four|five)[\s-]*"
    r"(?:years?|yrs?|months?)\b",
    re.IGNORECASE,
)
_PER_RE: Final = _LazyRegex(
    r"(?:(?P<billed>\b(?:billed|billing|charged|granularity|facturé)\s+)?(?:\bper\b|\bpro\b|"
    r"\bje\b|\bpar\b|\ba\b|/))\s*(?P<chain>[^\W\d_]+(?:\s*[-·]\s*[^\W\d_]+)*)"
    r"(?:\s+(?P<next>hours?|hrs?|months?|years?|stunde|monat|heure|mois)\b)?",
    re.IGNORECASE,
)
_ADVERB_RE: Final = _LazyRegex(
    r"(?<![\w-])(?:" + "|".join(re.escape(k) for k in sorted(_ADVERB_BASIS, key=len,
                                                                reverse=True)) + r")(?![\w-])",
    re.IGNORECASE,
)
_HYPHEN_BASIS_RE: Final = _LazyRegex(
    r"(?<![\w/])(?P<res>gpu|node|server|tb|gb)[-\s](?P<time>hours?|hr|h|months?|mo)\b",
    re.IGNORECASE,
)
_VAT_EXCL_RE: Final = _LazyRegex(
    r"\b(?:excl\.?|excluding|ex\.?|plus|zzgl\.?|netto|net of)\s*(?:vat|mwst\.?|tax(?:es)?)"
    r"|\bHT\b|\bhors taxes?\b",
    re.IGNORECASE,
)
_VAT_INCL_RE: Final = _LazyRegex(
    r"\b(?:incl\.?|including|inkl\.?|brutto)\s*(?:vat|mwst\.?|tax(?:es)?)|\bTTC\b",
    re.IGNORECASE
)
_FREE_RE: Final = _LazyRegex(
    r"^(?:free|included|inclusive|incl\.?|no charge|none|no fee|no fees|0|kostenlos|"
    r"inklusive|gratis|free of charge|waived|\$0|not charged)$",
    re.IGNORECASE,
)


def _currency_of(token: str) -> tuple[str, list[str]]:
    if token in _CURRENCY_SYMBOLS:
        return _CURRENCY_SYMBOLS[token], (
            [_CURRENCY_NOTES[token]] if token in _CURRENCY_NOTES else []
        )
    if token.upper() in _CURRENCY_CODES:
        return token.upper(), []
    return _CURRENCY_WORDS[token.casefold()], []


def _basis_of(
    segment: str, found: str, notes: list[str] | None = None
) -> tuple[list[str], list[tuple[str, str]]]:
    """Denominators after a price ("per GPU-hour", "/node/h", "per TB-month").

    Returns ([canonical basis words], [(basis, unit as written) for a per-TiB/PB/GiB/MWh
    price that must be rescaled]). Billing granularity ("billed per second") is noted
    in ``notes``, not taken as the basis.
    """
    words: list[str] = []
    scaled: list[tuple[str, str]] = []

    def add(word: str) -> bool:
        key = word.casefold()
        if key in _BASIS_WORDS:
            words.append(_BASIS_WORDS[key])
            return True
        if key in _BASIS_SCALED:
            words.append(_BASIS_SCALED[key][0])
            scaled.append(_BASIS_SCALED[key])
            return True
        return False

    for match in _PER_RE.finditer(segment):
        if match["billed"]:
            if notes is not None:
                notes.append(f"billing granularity: {match.group(0).strip()!r}")
            continue
        chain = re.split(r"\s*[-·]\s*", match["chain"])
        if match.group(0).casefold().startswith("a ") and chain[0].casefold() not in (
            "hour", "day", "week", "month", "year"
        ):
            continue  # "a" only introduces a time ("$2 a month")
        for word in chain:
            if not add(word):
                raise ValueParseError(
                    f"unknown price basis {word!r}", found=found, expected=EXPECTED["money"]
                )
        if match["next"]:
            add(match["next"])  # "per GPU hour"
    for match in _HYPHEN_BASIS_RE.finditer(segment):
        add(match["res"])
        add(match["time"])
    for match in _ADVERB_RE.finditer(segment):
        words.append(_ADVERB_BASIS[match.group(0).casefold()])
    if _OVER_TERM_RE.search(segment) and not any(w in _TIME_BASES for w in words):
        words.append("term")
    return words, scaled


_TIME_BASES: Final = frozenset(
    {"second", "minute", "hour", "day", "week", "month", "year", "term", "once"}
)


def _money_terms(text: str) -> list[re.Match[str]]:
    """Numbers with a currency next to them."""
    return [
        m for m in _MONEY_RE.finditer(text) if m["cur1"] or m["cur2"] or m["cur3"]
    ]


def parse_money(
    raw: RawValue,
    *,
    currency: str | None = None,
    per: tuple[str, ...] | None = None,
) -> Money:
    """A price: amount, ISO currency and basis. Never converts currency.

    '$2.35 per GPU-hour' -> 2.35 USD ('gpu','hour'); '24,80 € / Knoten / h' -> 24.8 EUR
    ('node','hour'); '£1.2M' -> 1.2e6 GBP (); '$45 per TB-month' -> ('tb','month').
    ``currency`` and ``per`` fill in what a header states (a bare 2.35 under
    "USD/GPU-h"); text that states its own currency or basis wins.
    """
    expected = EXPECTED["money"]
    raw_s = _raw_text(raw)
    fast = _numeric_input(raw, expected)
    if fast is not None:
        if currency is None:
            raise ValueParseError("a price without a currency", found=raw_s, expected=expected)
        return Money(fast, currency.upper(), per or (), raw_s, [])
    if raw is None:
        raise NoValueGiven("no value given (empty cell)", found="", expected=expected)
    if not isinstance(raw, str):
        raise ValueParseError("not a price", found=raw_s, expected=expected)
    text = _prepare_text(raw)
    if _FREE_RE.match(text.strip(" .")):
        return Money(
            0.0, (currency or "USD").upper(), per or (), raw_s,
            [f"{text!r} read as a price of 0"],
        )
    _check_no_value(text, expected, raw_s)
    terms = _money_terms(text)
    notes: list[str] = []
    if not terms:
        return _money_without_symbol(text, raw_s, currency, per, expected)
    first = terms[0]
    amount, cur, term_notes = _money_amount(first, raw_s, expected)
    notes += term_notes
    if currency is not None and currency.upper() != cur:
        notes.append(f"the text says {cur} where {currency.upper()} was expected; {cur} used")
    if len(terms) > 1 and _RANGE_GAP_RE.fullmatch(text[first.end():terms[1].start()]):
        raise ValueParseError(
            f"a price range ({text[first.start():terms[1].end()]!r}); give one price",
            found=raw_s, expected=expected,
        )
    segment_end = terms[1].start() if len(terms) > 1 else len(text)
    basis_words, scaled = _basis_of(text[first.end():segment_end], raw_s, notes)
    if not basis_words and first.start() > 0:  # "$/GPU-hr: 2.35", "Price per GPU-hour: $2.35"
        basis_words, scaled = _basis_of(text[: first.start()], raw_s, notes)
    if len(terms) > 1:
        for other in terms[1:]:
            other_amount, other_cur, _ = _money_amount(other, raw_s, expected)
            seg_end = next((t.start() for t in terms if t.start() > other.start()), len(text))
            other_basis, _ = _basis_of(text[other.end():seg_end], raw_s)
            if sorted(set(other_basis)) == sorted(set(basis_words)) and not (
                math.isclose(other_amount, amount) and other_cur == cur
            ):
                raise ValueParseError(
                    "several prices on the same basis; cannot tell which one applies",
                    found=raw_s, expected=expected,
                )
            notes.append(
                f"also states {_fmt(other_amount)} {other_cur}"
                + (f" per {'-'.join(_ordered(other_basis))}" if other_basis else "")
                + "; used the first price"
            )
    basis = _ordered(basis_words) if basis_words else (per or ())
    for basis_key, unit_name in scaled:
        target = _BASIS_TARGET_UNIT[basis_key]
        factor = unit_factor(unit_name, target)
        notes.append(
            f"price per {unit_name} read as {_fmt(amount / factor)} per {target} "
            f"(1 {unit_name} = {_fmt(factor)} {target})"
        )
        amount /= factor
    notes += _qualifier_notes_money(text, text[: first.start()]) + _no_value_note(text)
    return Money(_clean_float(amount), cur, basis, raw_s, notes)


def _ordered(words: Iterable[str]) -> tuple[str, ...]:
    unique = set(words)
    return tuple(w for w in _BASIS_ORDER if w in unique)


def _money_amount(match: re.Match[str], found: str, expected: str) -> tuple[float, str, list[str]]:
    tokens = [t for t in (match["cur1"], match["cur2"], match["cur3"]) if t]
    currencies = {_currency_of(t)[0] for t in tokens}
    if len(currencies) > 1:
        raise ValueParseError(
            f"two currencies for one price ({', '.join(sorted(currencies))})",
            found=found, expected=expected,
        )
    cur, notes = _currency_of(tokens[0])
    try:
        amount, decimal_note = _interpret_number(match["num"].strip())
    except _MalformedNumber:
        raise ValueParseError("malformed digit grouping", found=found, expected=expected) from None
    if decimal_note:
        notes = [*notes, decimal_note]
    mult = match["mult"]
    if mult:
        amount *= _MULTIPLIER[mult.casefold()]
    if match["sign"] or match["sign1"]:
        amount = -amount
    return _clean_float(amount), cur, notes


def _qualifier_notes_money(text: str, before: str) -> list[str]:
    """VAT wording anywhere; 'from' / 'up to' / '~' only before the amount."""
    notes: list[str] = []
    if _VAT_EXCL_RE.search(text):
        notes.append("price excludes VAT/tax")
    elif _VAT_INCL_RE.search(text):
        notes.append("price includes VAT/tax")
    qual = _LEADING_QUALIFIER_RE.search(before)
    if qual and qual["qual"]:
        kind = _QUALIFIERS.get(qual["qual"].casefold(), "approximate")
        notes.append(f"{qual['qual']!r} marks {kind}; read as the figure itself")
    return notes


def _money_without_symbol(
    text: str, raw_s: str, currency: str | None, per: tuple[str, ...] | None, expected: str
) -> Money:
    """'2.35' under a 'USD/GPU-h' header, or 'USD: 2.35' with the code away from the number."""
    match = re.search(rf"(?<![\w.,])(?P<num>{_NUM_SPACED})(?:\s?{_MONEY_MULT_RE}(?![A-Za-z]))?",
                      text)
    if match is None:
        raise ValueParseError("no amount found", found=raw_s, expected=expected)
    code = re.search(_CURRENCY_RE, text)
    notes: list[str] = []
    if code:
        cur, notes = _currency_of(code.group(0))
    elif currency is not None:
        cur = currency.upper()
    else:
        raise ValueParseError("a price without a currency", found=raw_s, expected=expected)
    try:
        amount, decimal_note = _interpret_number(match["num"].strip())
    except _MalformedNumber:
        raise ValueParseError("malformed digit grouping", found=raw_s, expected=expected) from None
    if decimal_note:
        notes.append(decimal_note)
    if match["mult"]:
        amount *= _MULTIPLIER[match["mult"].casefold()]
    basis_words, scaled = _basis_of(text[match.end():], raw_s, notes)
    if not basis_words:
        basis_words, scaled = _basis_of(text[: match.start()], raw_s, notes)
    if scaled:
        raise ValueParseError(
            "a price per binary or scaled unit without a currency symbol", found=raw_s,
            expected=expected,
        )
    basis = _ordered(basis_words) if basis_words else (per or ())
    notes += _qualifier_notes_money(text, text[: match.start()])
    return Money(_clean_float(amount), cur, basis, raw_s, notes)


_BASIS_LABEL: Final[dict[str, str]] = {
    "gpu": "GPU", "tb": "TB", "gb": "GB", "kw": "kW", "kwh": "kWh",
}


def basis_label(per: tuple[str, ...]) -> str:
    """('gpu', 'hour') -> 'GPU-hour', for messages and memos."""
    return "-".join(_BASIS_LABEL.get(word, word) for word in per) or "(no basis)"


def convert_money_to_usd(money: Money, fx_rates: Mapping[str, float]) -> float:
    """The amount in USD. ``fx_rates`` maps an ISO code to USD per 1 unit (EUR: 1.10).

    A missing rate raises MissingFxRate: prices are never converted with a default.
    """
    if money.currency == "USD":
        return money.amount
    rate = fx_rates.get(money.currency)
    if rate is None:
        raise MissingFxRate(money.currency, money.raw or f"{money.amount} {money.currency}")
    if not math.isfinite(rate) or rate <= 0:
        raise ValueConversionError(
            f"exchange rate for {money.currency} must be a positive number",
            found=str(rate), expected=f"USD per 1 {money.currency}, e.g. 1.10",
        )
    return _clean_float(money.amount * rate)


_TIME_HOURS_FIXED: Final[dict[str, float]] = {
    "second": 1.0 / 3600.0, "minute": 1.0 / 60.0, "hour": 1.0, "day": 24.0, "week": 168.0,
}


def price_per_gpu_hour(
    money: Money,
    gpus_per_node: int | None,
    hours_per_month: float = HOURS_PER_MONTH,
    gpu_count: int | None = None,
    term_months: float | None = None,
    *,
    fx_rates: Mapping[str, float] | None = None,
) -> GpuHourPrice:
    """The price per GPU-hour, and the formula used, from any compute price basis.

    Per GPU or per node (``gpus_per_node``) or, with no resource in the basis, for the
    whole offer (``gpu_count``); per hour, day, week, month (``hours_per_month``), year
    (12 months) or term (``term_months``). With ``fx_rates`` the result is in USD.
    """
    found = money.raw or f"{money.amount} {money.currency} per {'-'.join(money.per)}"
    expected = "a compute price per GPU or node and per hour, month, year or term"
    per = money.per
    resources = [w for w in per if w in ("gpu", "node", "tb", "gb", "kw", "kwh")]
    times = [w for w in per if w in _TIME_BASES and w != "once"]
    if any(r not in ("gpu", "node") for r in resources) or len(resources) > 1:
        raise ValueConversionError(
            f"not a compute price (per {'-'.join(per)})", found=found, expected=expected
        )
    if len(times) != 1:
        raise ValueConversionError(
            "price has no single time basis (per hour, month, year or term)",
            found=found, expected=expected,
        )
    notes: list[str] = []
    currency = money.currency
    amount = money.amount
    if fx_rates is not None and currency != "USD":
        amount = convert_money_to_usd(money, fx_rates)
        notes.append(f"converted {_fmt(money.amount)} {currency} at {fx_rates[currency]} USD")
        currency = "USD"
    steps = [f"{_fmt(amount)} {currency} per {basis_label(per)}"]
    divisor = 1.0
    if resources == ["node"]:
        if not gpus_per_node:
            raise ValueConversionError(
                "a per-node price needs the GPUs per node", found=found,
                expected="gpus_per_node",
            )
        divisor *= gpus_per_node
        steps.append(f"{gpus_per_node} GPUs per node")
    elif not resources:
        if not gpu_count:
            raise ValueConversionError(
                "a price for the whole offer needs the GPU count", found=found,
                expected="gpu_count",
            )
        divisor *= gpu_count
        steps.append(f"{gpu_count} GPUs")
        notes.append(f"price with no per-GPU or per-node basis read as for all {gpu_count} GPUs")
    time = times[0]
    if time in _TIME_HOURS_FIXED:
        hours = _TIME_HOURS_FIXED[time]
        if hours > 1.0:
            steps.append(f"{_fmt(hours)} hours per {time}")
        elif hours < 1.0:
            steps.append(f"(1/{_fmt(1.0 / hours)}) hour per {time}")
    elif time == "month":
        hours = hours_per_month
        steps.append(f"{_fmt(hours)} hours per month")
    elif time == "year":
        hours = 12.0 * hours_per_month
        steps.append(f"{_fmt(hours)} hours per year")
    else:
        if not term_months:
            raise ValueConversionError(
                "a price for the term needs the term length", found=found,
                expected="term_months",
            )
        hours = term_months * hours_per_month
        steps.append(f"{_fmt(term_months)} months x {_fmt(hours_per_month)} hours")
    divisor *= hours
    value = _clean_float(amount / divisor)
    formula = " / ".join(steps) + f" = {_fmt(value)} {currency} per GPU-hour"
    return GpuHourPrice(value, currency, formula, notes)


# --------------------------------------------------------------------------- dates

# Month names in English and German, for dateutil and for finding dates in text.
_MONTH_NAMES: Final[tuple[tuple[str, ...], ...]] = (
    ("Jan", "January", "Januar", "Jän", "Jänner", "janvier", "janv"),
    ("Feb", "February", "Februar", "février", "févr", "fevrier"),
    ("Mar", "March", "März", "Mrz", "Maerz", "mars"),
    ("Apr", "April", "avril", "avr"),
    ("May", "Mai"),
    ("Jun", "June", "Juni", "juin"),
    ("Jul", "July", "Juli", "juillet", "juil"),
    ("Aug", "August", "août", "aout"),
    ("Sep", "Sept", "September", "septembre"),
    ("Oct", "October", "Okt", "Oktober", "octobre"),
    ("Nov", "November", "novembre"),
    ("Dec", "December", "Dez", "Dezember", "décembre", "déc", "decembre"),
)
_MONTH_ALT: Final = "|".join(
    sorted((n for names in _MONTH_NAMES for n in names), key=len, reverse=True)
)
_ISO_DATE_RE: Final = _LazyRegex(r"(?<!\d)(\d{4})([-/.])(\d{1,2})\2(\d{1,2})(?!\d)")
_ISO_MONTH_RE: Final = _LazyRegex(r"^(\d{4})-(\d{1,2})$")
_NUMERIC_DATE_RE: Final = _LazyRegex(
    r"(?<![\d.])(\d{1,2})([./-])(\d{1,2})\2(\d{4}|\d{2})(?![\d.]|-\d)"
)
_NUMERIC_MONTH_RE: Final = _LazyRegex(r"^(\d{1,2})\s*[/.]\s*(\d{4})$")
_TEXT_DATE_RE: Final = _LazyRegex(
    rf"(?<![\w])(?:\d{{1,2}}(?:st|nd|rd|th|er)?\.?\s*(?:of\s+)?-?)?(?:{_MONTH_ALT})"
    rf"(?![^\W\d_])\.?(?:\s*-?\s*\d{{1,2}}(?:st|nd|rd|th)?(?!\d))?,?\s*-?\s*"
    rf"(?:\d{{4}}|'\d{{2}})(?!\d)",
    re.IGNORECASE,
)
_QUARTER_RE: Final = _LazyRegex(
    r"\b(?:Q(?P<q1>[1-4])\s*[/'-]?\s*(?P<y1>\d{4}|'?\d{2})|(?P<y2>\d{4})\s*[-/ ]?\s*Q"
    r"(?P<q2>[1-4])|(?P<q3>[1-4])Q\s*'?(?P<y3>\d{2}|\d{4}))\b",
    re.IGNORECASE,
)
_HALF_RE: Final = _LazyRegex(
    r"\b(?:H(?P<h1>[12])\s*[/'-]?\s*(?P<y1>\d{4})|(?P<y2>\d{4})\s*[-/ ]?\s*H(?P<h2>[12]))\b",
    re.IGNORECASE,
)
_YEAR_RE: Final = _LazyRegex(r"^(?:(?:end of|by|eoy|in)\s+)?(\d{4})$", re.IGNORECASE)
_RELATIVE_RE: Final = _LazyRegex(
    r"(?P<lo>\d+(?:[.,]\d+)?)(?:\s*(?:-|–|to|bis)\s*(?P<hi>\d+(?:[.,]\d+)?))?\s*-?\s*"
    r"(?P<business>business\s+|working\s+|werk)?(?P<unit>days?|weeks?|wks?|months?|tage?n?|"
    r"wochen?|monate?n?|jours?|semaines?|mois)\b",
    re.IGNORECASE,
)
_IMMEDIATE_RE: Final = _LazyRegex(
    r"^(?:immediate(?:ly)?|now|available now|in stock|ab sofort|sofort|available)$",
    re.IGNORECASE,
)
_DAYS_PER_UNIT: Final[dict[str, float]] = {
    "day": 1.0, "week": 7.0, "month": HOURS_PER_MONTH / 24.0,
}
_EXCEL_EPOCH: Final = date(1899, 12, 30)  # Excel's day 0 (with its 1900 leap-year bug)
_EXCEL_SERIAL_RANGE: Final = (36526, 73051)  # 2000-01-01 .. 2100-01-01


@functools.cache
def _date_parserinfo() -> dateutil_parser.parserinfo:
    from dateutil import parser  # dateutil: month names, ordinals, per-month day checks

    class _ParserInfo(parser.parserinfo):
        MONTHS: list[Any] = list(_MONTH_NAMES)  # noqa: RUF012 (dateutil reads a class list)

    return _ParserInfo(dayfirst=True)


def _relative_unit(word: str) -> str:
    w = word.casefold()
    if w.startswith(("d", "tag", "jour")):
        return "day"
    if w.startswith(("w", "wk", "semaine")):
        return "week"
    return "month"


def _period(
    start: date, end: date, label: str, prefer: Literal["end", "start"], raw: str, note: str
) -> ParsedDate:
    value = end if prefer == "end" else start
    which = "last" if prefer == "end" else "first"
    why = " (the conservative delivery date)" if prefer == "end" else ""
    notes = [
        f"{label} read as {value.isoformat()}, its {which} day{why}; "
        f"it spans {start.isoformat()}..{end.isoformat()}{note}"
    ]
    return ParsedDate(value, raw, notes, start, end)


def _month_end(year: int, month: int) -> date:
    first_of_next = date(year + 1, 1, 1) if month == 12 else date(year, month + 1, 1)
    return first_of_next - timedelta(days=1)


def _year4(text: str) -> tuple[int, list[str]]:
    digits = text.lstrip("'")
    if len(digits) == 4:
        return int(digits), []
    return 2000 + int(digits), [f"two-digit year {text!r} read as {2000 + int(digits)}"]


def parse_date(
    raw: RawValue, *, dayfirst: bool = True, prefer: Literal["end", "start"] = "end"
) -> ParsedDate:
    """A calendar date: '2027-02-01', '1 Feb 2027', '01/02/2027' (day-first, noted as
    ambiguous), an Excel datetime or serial number, 'Q2 2027' (-> 2027-06-30 by default),
    '12 weeks ARO, target 2027-04-30' (-> 2027-04-30, noted), or '8 weeks ARO' (no date:
    ``value`` None and ``days_after_order`` 56)."""
    expected = EXPECTED["date"]
    raw_s = _raw_text(raw)
    if isinstance(raw, datetime):
        return ParsedDate(raw.date(), raw_s, [], raw.date(), raw.date())
    if isinstance(raw, date):
        return ParsedDate(raw, raw_s, [], raw, raw)
    fast = _numeric_input(raw, expected)
    if fast is not None:
        return _date_from_number(fast, raw_s, prefer, expected)
    text = _text_input(raw, expected)
    try:
        return _parse_date_text(text, raw_s, dayfirst, prefer)
    except ValueError:  # an impossible date such as 2027-02-30
        raise ValueParseError("not a valid calendar date", found=raw_s, expected=expected) from None


def _date_from_number(
    value: float, raw_s: str, prefer: Literal["end", "start"], expected: str
) -> ParsedDate:
    if value.is_integer() and 1990 <= value <= 2100:
        year = int(value)
        return _period(date(year, 1, 1), date(year, 12, 31), f"year {year}", prefer, raw_s, "")
    low, high = _EXCEL_SERIAL_RANGE
    if low <= value < high:
        day = _EXCEL_EPOCH + timedelta(days=int(value))
        return ParsedDate(
            day, raw_s, [f"Excel serial date {_fmt(value)} read as {day.isoformat()}"], day, day
        )
    raise ValueParseError("a number that is not a date", found=raw_s, expected=expected)


def _parse_date_text(
    text: str, raw_s: str, dayfirst: bool, prefer: Literal["end", "start"]
) -> ParsedDate:
    expected = EXPECTED["date"]
    relative = _RELATIVE_RE.search(text)
    relative_note = (
        [f"also states a lead time ({relative.group(0)!r}); the calendar date is used"]
        if relative else []
    )
    if match := _ISO_DATE_RE.search(text):
        day = date(int(match[1]), int(match[3]), int(match[4]))
        return ParsedDate(day, raw_s, relative_note + _no_value_note(text), day, day)
    if match := _NUMERIC_DATE_RE.search(text):
        return _numeric_date(match, raw_s, dayfirst, relative_note)
    if match := _TEXT_DATE_RE.search(text):
        return _text_date(match.group(0), raw_s, prefer, relative_note)
    if match := _QUARTER_RE.search(text):
        q = int(match["q1"] or match["q2"] or match["q3"])
        year, notes = _year4(match["y1"] or match["y2"] or match["y3"])
        start, end = date(year, 3 * q - 2, 1), _month_end(year, 3 * q)
        extra = "".join(f"; {n}" for n in notes + relative_note)
        return _period(start, end, f"Q{q} {year}", prefer, raw_s, extra)
    if match := _HALF_RE.search(text):
        h = int(match["h1"] or match["h2"])
        year = int(match["y1"] or match["y2"])
        start, end = date(year, 6 * h - 5, 1), _month_end(year, 6 * h)
        return _period(start, end, f"H{h} {year}", prefer, raw_s, "")
    if match := _ISO_MONTH_RE.match(text) or _NUMERIC_MONTH_RE.match(text):
        year, month = (
            (int(match[1]), int(match[2])) if len(match[1]) == 4 else (int(match[2]),
                                                                        int(match[1]))
        )
        start, end = date(year, month, 1), _month_end(year, month)
        return _period(start, end, f"{start:%B %Y}", prefer, raw_s, "")
    if match := _YEAR_RE.match(text):
        year = int(match[1])
        return _period(date(year, 1, 1), date(year, 12, 31), f"year {year}", prefer, raw_s, "")
    if relative:
        return _relative_date(relative, raw_s)
    if _IMMEDIATE_RE.match(text):
        return ParsedDate(
            None, raw_s, [f"{text!r} read as available at order (0 days)"],
            days_after_order=0.0,
        )
    raise ValueParseError("not a date", found=raw_s, expected=expected)


def _numeric_date(
    match: re.Match[str], raw_s: str, dayfirst: bool, notes: list[str]
) -> ParsedDate:
    first, sep, second, year_text = int(match[1]), match[2], int(match[3]), match[4]
    year, year_notes = _year4(year_text)
    notes = notes + year_notes
    ambiguous = False
    if sep == "." or first > 12:
        day, month = first, second  # dotted dates are day-first everywhere
    elif second > 12:
        day, month = second, first
    else:
        day, month = (first, second) if dayfirst else (second, first)
        if first != second:
            ambiguous = True
            other = date(year, first, second) if dayfirst else date(year, second, first)
            notes.append(
                f"{match.group(0)!r} is ambiguous: read {'day' if dayfirst else 'month'}-first "
                f"as {date(year, month, day).isoformat()}; the other order gives "
                f"{other.isoformat()}"
            )
    value = date(year, month, day)
    return ParsedDate(value, raw_s, notes, value, value, ambiguous=ambiguous)


_ORDINAL_RE: Final = _LazyRegex(r"(\d)(?:st|nd|rd|th|er)\b", re.IGNORECASE)


def _text_date(
    fragment: str, raw_s: str, prefer: Literal["end", "start"], notes: list[str]
) -> ParsedDate:
    from dateutil import parser

    info = _date_parserinfo()
    fragment = _ORDINAL_RE.sub(r"\1", fragment)  # "1er mars": dateutil knows "1st" only
    one = parser.parse(fragment, parserinfo=info, default=datetime(2000, 1, 1))
    two = parser.parse(fragment, parserinfo=info, default=datetime(2000, 2, 2))
    if one.day != two.day:  # no day in the text: a whole month
        start, end = date(one.year, one.month, 1), _month_end(one.year, one.month)
        extra = "".join(f"; {n}" for n in notes)
        return _period(start, end, f"{start:%B %Y}", prefer, raw_s, extra)
    value = one.date()
    return ParsedDate(value, raw_s, notes, value, value)


def _relative_date(match: re.Match[str], raw_s: str) -> ParsedDate:
    lo = float(match["lo"].replace(",", "."))
    hi = float(match["hi"].replace(",", ".")) if match["hi"] else lo
    unit = _relative_unit(match["unit"])
    days = hi * _DAYS_PER_UNIT[unit]
    notes = [
        f"{match.group(0)!r} is a lead time after order, not a calendar date: "
        f"{_fmt(days)} days"
    ]
    if match["hi"]:
        notes.append(f"range {match['lo']}-{match['hi']}: took the later {match['hi']}")
    if match["business"]:
        days *= 7.0 / 5.0
        notes.append(f"business days read as {_fmt(days)} calendar days (x 7/5)")
    return ParsedDate(None, raw_s, notes, days_after_order=_clean_float(days))


# --------------------------------------------------------------------------- durations

_DURATION_HOURS: Final[dict[str, float]] = {
    "second": 1.0 / 3600.0, "minute": 1.0 / 60.0, "hour": 1.0, "day": 24.0,
    "week": 168.0, "month": HOURS_PER_MONTH, "year": 12.0 * HOURS_PER_MONTH,
}
_DURATION_WORDS: Final[dict[str, str]] = {
    **dict.fromkeys(("s", "sec", "secs", "second", "seconds"), "second"),
    **dict.fromkeys(("min", "mins", "minute", "minutes", "minuten"), "minute"),
    **dict.fromkeys(
        ("h", "hr", "hrs", "hour", "hours", "std", "std.", "stunde", "stunden", "heure",
         "heures"),
        "hour",
    ),
    **dict.fromkeys(("d", "day", "days", "tag", "tage", "tagen", "jour", "jours"), "day"),
    **dict.fromkeys(
        ("w", "wk", "wks", "week", "weeks", "woche", "wochen", "semaine", "semaines"), "week"
    ),
    **dict.fromkeys(
        ("mo", "mos", "mth", "mths", "month", "months", "monat", "monate", "monaten", "mois"),
        "month",
    ),
    **dict.fromkeys(
        ("y", "yr", "yrs", "year", "years", "jahr", "jahre", "jahren", "an", "ans", "année",
         "années"),
        "year",
    ),
}
_DURATION_UNIT_ALT: Final = "|".join(
    re.escape(w) for w in sorted(_DURATION_WORDS, key=len, reverse=True)
)
_DURATION_RE: Final = _LazyRegex(
    rf"(?<![\w.,])(?P<lo>{_NUM})\)?(?:\s*(?:-|–|to|bis)\s*(?P<hi>{_NUM}))?\s*-?\s*"
    rf"(?P<business>business\s+|working\s+|werk)?(?P<unit>{_DURATION_UNIT_ALT})(?![\w])"
    r"(?P<ouvres>\s+ouvr[ée]s?)?",  # French: "5 jours ouvrés"
    re.IGNORECASE,
)
_DURATION_JOIN_RE: Final = _LazyRegex(r"\s*(?:and|\+|,|und)?\s*", re.IGNORECASE)
_OPTION_RE: Final = _LazyRegex(
    r"\b(?:option(?:al)?|extension|extend|renewal|renew|verlängerung)", re.IGNORECASE
)
# Written numbers as contracts spell them ("thirty (30) days", "one year").
_NUMBER_WORDS: Final[dict[str, int]] = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "fourteen": 14,
    "fifteen": 15, "eighteen": 18, "twenty": 20, "twenty-four": 24, "thirty": 30,
    "thirty-six": 36, "forty-five": 45, "forty-eight": 48, "sixty": 60, "ninety": 90,
}
_NUMBER_WORD_RE: Final = _LazyRegex(
    r"\b(?:" + "|".join(sorted(_NUMBER_WORDS, key=len, reverse=True)) + r")\b", re.IGNORECASE
)
_NBD_RE: Final = _LazyRegex(
    r"^(?:next[\s-]business[\s-]day|nbd|next[\s-]day|next[\s-]working[\s-]day|"
    r"nächster werktag)\b",
    re.IGNORECASE,
)
_ISO_DURATION_RE: Final = _LazyRegex(
    r"^P(?:(?P<year>\d+)Y)?(?:(?P<month>\d+)M)?(?:(?P<week>\d+)W)?(?:(?P<day>\d+)D)?"
    r"(?:T(?:(?P<hour>\d+)H)?(?:(?P<minute>\d+)M)?)?$"
)
_UNIT_HOURS: Final[dict[str, float]] = {
    "months": HOURS_PER_MONTH, "hours": 1.0, "days": 24.0,
}


def _duration_result(hours: float, unit: str, raw_s: str, notes: list[str]) -> ParsedDuration:
    if unit not in _UNIT_HOURS:
        raise ValueError(f"unknown duration unit {unit!r}; one of {sorted(_UNIT_HOURS)}")
    return ParsedDuration(
        _clean_float(hours / _UNIT_HOURS[unit]), unit, _clean_float(hours), raw_s, notes
    )


def parse_duration(
    raw: RawValue, unit: DurationUnit | str = "months", *, default_unit: str | None = None
) -> ParsedDuration:
    """A length of time in ``unit`` ("months", "hours" or "days"; a month is 730 h, a year
    12 months): '36-month commitment', '3 years', '90 days', '4h', 'next business day'
    (24 h, noted), 'P3Y'. A bare number is read in ``default_unit`` or else ``unit``."""
    expected = EXPECTED["duration"]
    raw_s = _raw_text(raw)
    fast = _numeric_input(raw, expected)
    base_name = default_unit or unit
    base = _DURATION_WORDS.get(base_name.casefold())
    if base is None:
        raise ValueError(f"unknown duration unit {base_name!r}")
    if fast is not None:
        return _duration_result(fast * _DURATION_HOURS[base], unit, raw_s, [])
    text = _text_input(raw, expected)
    if _NBD_RE.match(text):
        return _duration_result(24.0, unit, raw_s, [f"{text!r} read as 24 hours"])
    if (iso := _ISO_DURATION_RE.match(text)) and any(iso.groups()):
        hours = sum(
            float(iso[name]) * _DURATION_HOURS[name] for name in _DURATION_HOURS
            if name in iso.groupdict() and iso[name]
        )
        return _duration_result(hours, unit, raw_s, [])
    matches = list(_DURATION_RE.finditer(text))
    if not matches and _NUMBER_WORD_RE.search(text):  # "thirty days", "one year"
        text = _NUMBER_WORD_RE.sub(lambda m: str(_NUMBER_WORDS[m.group(0).casefold()]), text)
        matches = list(_DURATION_RE.finditer(text))
    if not matches:
        try:
            number = parse_number(text)
        except ValueParseError:
            raise ValueParseError("not a duration", found=raw_s, expected=expected) from None
        return _duration_result(
            number.value * _DURATION_HOURS[base], unit, raw_s,
            [*number.notes, f"no unit given; read as {base_name}"],
        )
    notes: list[str] = []
    if len(matches) > 1:
        # "1 year and 6 months" adds up: joined parts in falling units. "2 years + 1 year
        # option" is a term plus an extension: the first figure, noted. Else ambiguous.
        units = [_DURATION_HOURS[_DURATION_WORDS[m["unit"].casefold()]] for m in matches]
        joined = all(
            _DURATION_JOIN_RE.fullmatch(text[a.end():b.start()])
            for a, b in itertools.pairwise(matches)
        ) and all(a > b for a, b in itertools.pairwise(units))
        if not joined:
            figures = ", ".join(repr(m.group(0)) for m in matches)
            if not _OPTION_RE.search(text):
                raise ValueParseError(
                    f"several durations ({figures}); cannot tell which one is meant",
                    found=raw_s, expected=expected,
                )
            notes.append(f"several durations ({figures}); the first is the firm one, "
                         "the rest are options or extensions")
            matches = matches[:1]
    hours = 0.0
    for match in matches:
        hours += _duration_hours(match, notes, raw_s, expected)
    if len(matches) > 1:
        notes.append(f"durations added up to {_fmt(hours)} hours")
    return _duration_result(hours, unit, raw_s, notes + _no_value_note(text))


def _duration_hours(match: re.Match[str], notes: list[str], raw_s: str, expected: str) -> float:
    try:
        lo, lo_note = _interpret_number(match["lo"])
        hi, _ = _interpret_number(match["hi"]) if match["hi"] else (lo, None)
    except _MalformedNumber:
        raise ValueParseError("malformed number", found=raw_s, expected=expected) from None
    if lo_note:
        notes.append(lo_note)
    if match["hi"]:
        notes.append(f"range {match['lo']}-{match['hi']}: took the longer {match['hi']}")
    base = _DURATION_WORDS[match["unit"].casefold()]
    hours = max(lo, hi) * _DURATION_HOURS[base]
    if match["business"] or match["ouvres"]:
        if base in ("day", "week"):  # 5 business days span 7 calendar days
            hours *= 7.0 / 5.0
            notes.append(
                f"{match.group(0).strip()!r}: business days read as {_fmt(hours / 24.0)} "
                "calendar days (x 7/5)"
            )
        else:
            notes.append(f"{match.group(0)!r}: business time, may pause outside business hours")
    return hours


# --------------------------------------------------------------------------- booleans

_TRUE_WORDS: Final = frozenset(
    {
        "yes", "y", "true", "t", "1", "included", "include", "incl", "incl.", "inclusive",
        "✓", "✔", "☑", "✅", "x", "available", "supported", "provided", "enabled", "on",
        "ja", "j", "oui", "si", "sí", "inklusive", "vorhanden", "free", "free of charge",
        "at no extra cost", "no extra cost",
    }
)
_FALSE_WORDS: Final = frozenset(
    {
        "no", "n", "false", "f", "0", "not included", "excluded", "none", "n/a", "na",
        "not available", "unavailable", "not supported", "unsupported", "not provided",
        "disabled", "off", "✗", "✘", "❌", "nein", "non", "nicht enthalten", "keine",
        "kein", "not offered",
    }
)
_FALSE_NOTES: Final[dict[str, str]] = {
    "n/a": "'n/a' read as no (not applicable)",
    "na": "'na' read as no (not applicable)",
}
_TRUE_NOTES: Final[dict[str, str]] = {
    "free": "'free' read as yes (included at no charge)",
    "free of charge": "'free of charge' read as yes (included at no charge)",
    "x": "'x' read as a tick (yes)",
}
_LEADING_BOOL_RE: Final = _LazyRegex(
    r"^(?P<word>yes|no|ja|nein|true|false|included|not included)\b[\s,;:.(–-]*(?P<rest>.*)$",
    re.IGNORECASE,
)
_NEGATION_RE: Final = _LazyRegex(r"^(?:not|non|no|nicht|kein)[\s-]+(?P<word>.+)$", re.IGNORECASE)


def _fold_bool(text: str) -> str:
    return text.casefold().strip(" .!:;")


def parse_bool(
    raw: RawValue,
    true_words: Iterable[str] = (),
    false_words: Iterable[str] = (),
) -> ParsedBool:
    """Yes or no: 'Yes', 'Y', 'true', 'included', '✓', 'x', 'No', 'n/a' (no, noted),
    'none', 'not included', 'free' (yes: included at no charge, noted). Field-specific
    words add to the defaults and win over them: ``parse_bool('shared',
    true_words=['dedicated'], false_words=['shared'])`` is False."""
    expected = EXPECTED["bool"]
    raw_s = _raw_text(raw)
    if isinstance(raw, bool):
        return ParsedBool(raw, raw_s)
    fast = _numeric_input(raw, expected)
    if fast is not None:
        if fast in (0.0, 1.0):
            return ParsedBool(fast == 1.0, raw_s)
        raise ValueParseError("a number that is not 0 or 1", found=raw_s, expected=expected)
    if raw is None:
        raise NoValueGiven("no value given (empty cell)", found="", expected=expected)
    if not isinstance(raw, str):
        raise ValueParseError("not a yes/no value", found=raw_s, expected=expected)
    text = _prepare_text(raw)
    folded = _fold_bool(text)
    custom_true = {_fold_bool(w) for w in true_words}
    custom_false = {_fold_bool(w) for w in false_words}
    hint = (
        f"{expected}; for this field also {', '.join(sorted(custom_true | custom_false))}"
        if custom_true or custom_false else expected
    )
    # Custom words first: they are the field's own vocabulary.
    for words, value in ((custom_false, False), (custom_true, True)):
        if folded in words:
            return ParsedBool(value, raw_s)
    negated = _NEGATION_RE.match(folded)
    if negated and negated["word"] in custom_true | custom_false:
        return ParsedBool(negated["word"] in custom_false, raw_s)  # "not shared" -> True
    if folded in _FALSE_WORDS:
        return ParsedBool(False, raw_s, [_FALSE_NOTES[folded]] if folded in _FALSE_NOTES else [])
    if folded in _TRUE_WORDS:
        return ParsedBool(True, raw_s, [_TRUE_NOTES[folded]] if folded in _TRUE_NOTES else [])
    _check_no_value(text, hint, raw_s)
    # A custom word inside a phrase: "shared with other tenants", "fully dedicated".
    for words, value in ((custom_false, False), (custom_true, True)):
        for word in sorted(words, key=len, reverse=True):
            if re.search(rf"(?<!\w){re.escape(word)}(?!\w)", folded):
                if re.search(rf"\b(?:not|non|no|nicht)[\s-]+{re.escape(word)}", folded):
                    value = not value  # "not shared with other tenants"
                verdict = "yes" if value else "no"
                return ParsedBool(value, raw_s, [f"read {verdict} from {word!r} in {text!r}"])
    leading = _LEADING_BOOL_RE.match(text)
    if leading:
        value = leading["word"].casefold() in ("yes", "ja", "true", "included")
        rest = leading["rest"].strip(" )")
        notes = [f"qualified answer: {rest!r}"] if rest else []
        return ParsedBool(value, raw_s, notes)
    raise ValueParseError("not a yes/no value", found=raw_s, expected=hint)
