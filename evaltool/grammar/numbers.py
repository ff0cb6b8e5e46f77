"""Numbers, counts and percentages in vendor text, and the helpers every value parser shares.

Part of the one value parser (see evaltool.normalize.values for the rules and the API)."""


from __future__ import annotations

import functools
import math
import re
import unicodedata
from collections.abc import Callable, Iterator
from datetime import date, datetime
from decimal import Decimal
from typing import TYPE_CHECKING, Final

from evaltool.grammar.valuetypes import (
    EXPECTED,
    NoValueGiven,
    ParsedCount,
    ParsedNumber,
    RawValue,
    ValueParseError,
)
from evaltool.resources import data_dir

if TYPE_CHECKING:
    pass


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
        not any(map(str.isdigit, text)) and _NO_VALUE_PHRASE_RE.search(text)
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
    # the word counted, perhaps abbreviated ("128 stk.", "16 szt.", "4 db.", "8 Stück")
    r"(?:\s+[^\W\d_][\w\s()-]*\.?)?$"
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




@functools.lru_cache(maxsize=1)
def _free_words() -> tuple[re.Pattern[str], re.Pattern[str]]:
    import yaml

    raw = yaml.safe_load((data_dir() / "free_words.yaml").read_text(encoding="utf-8"))
    answers = re.compile("^(?:" + "|".join(raw["answers"]) + ")$", re.I)
    in_sentence = re.compile("|".join(f"(?:{w})" for w in raw["in_sentence"]), re.I)
    return answers, in_sentence


def is_free_of_charge(answer: str) -> bool:
    """'free', 'kostenfrei', 'sin coste', '無料': a whole answer that says a price is 0
    (evaltool/data/free_words.yaml)."""
    return bool(_free_words()[0].match(answer.strip(" .").strip()))


def says_free_of_charge(sentence: str) -> bool:
    """'No charge for egress', 'Geen kosten voor uitgaand dataverkeer': a sentence that says
    something costs nothing, and states no amount."""
    if re.search(r"[$€£¥]\s*\d|\d\s*(?:[$€£¥]|zł|kč|\bkr\b|"
                 r"\b(?:usd|eur|gbp|chf|sek|nok|dkk|pln|czk|jpy|cad|aud)\b)|"
                 r"\b(?:usd|eur|gbp|chf|sek|nok|dkk|pln|czk|jpy|cad|aud)\s*\d", sentence, re.I):
        return False
    return bool(_free_words()[1].search(sentence))
