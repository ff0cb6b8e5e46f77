"""Dates, durations and yes/no answers in vendor text (English, German, French).

Part of the one value parser (see evaltool.normalize.values for the rules and the API)."""


from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Iterable
from datetime import UTC, date, datetime, timedelta
from typing import TYPE_CHECKING, Any, Final, Literal

from evaltool.grammar.numbers import (
    _NUM,
    _check_no_value,
    _clean_float,
    _fmt,
    _interpret_number,
    _LazyRegex,
    _MalformedNumber,
    _no_value_note,
    _numeric_input,
    _prepare_text,
    _raw_text,
    _text_input,
    parse_number,
)
from evaltool.grammar.textcache import by_text
from evaltool.grammar.valuetypes import (
    BUSINESS_DAY_HOURS,
    EXPECTED,
    HOURS_PER_MONTH,
    DurationUnit,
    NoValueGiven,
    ParsedBool,
    ParsedDate,
    ParsedDuration,
    RawValue,
    ValueParseError,
)
from evaltool.resources import data_dir

if TYPE_CHECKING:
    from dateutil import parser as dateutil_parser


# --------------------------------------------------------------------------- dates

@functools.cache
def _month_names() -> tuple[tuple[str, ...], ...]:
    """Month names January..December in many languages (evaltool/data/month_names.yaml),
    for dateutil and for finding dates in text."""
    import yaml

    raw = yaml.safe_load((data_dir() / "month_names.yaml").read_text(encoding="utf-8"))
    return tuple(tuple(dict.fromkeys(str(n) for n in names)) for names in raw)


_ISO_DATE_RE: Final = _LazyRegex(r"(?<!\d)(\d{4})([-/.])(\d{1,2})\2(\d{1,2})(?!\d)")
_ISO_MONTH_RE: Final = _LazyRegex(r"^(\d{4})-(\d{1,2})$")
_NUMERIC_DATE_RE: Final = _LazyRegex(
    r"(?<![\d.])(\d{1,2})([./-])(\d{1,2})\2(\d{4}|\d{2})(?!\d|\.\d|-\d)"
)
_NUMERIC_MONTH_RE: Final = _LazyRegex(r"^(\d{1,2})\s*[/.]\s*(\d{4})$")


@functools.cache
def _text_date_re() -> re.Pattern[str]:
    names = sorted((n for names in _month_names() for n in names), key=len, reverse=True)
    months = "|".join(re.escape(n) for n in names)
    return re.compile(
        rf"(?<![\w])(?:\d{{1,2}}(?:st|nd|rd|th|er)?\.?\s*(?:of\s+|de\s+)?-?)?(?:{months})"
        rf"(?![^\W\d_])\.?(?:\s*-?\s*\d{{1,2}}(?:st|nd|rd|th)?(?!\d))?,?\s*(?:de\s+)?-?\s*"
        rf"(?:\d{{4}}|'\d{{2}})(?!\d)",
        re.IGNORECASE,
    )


# "2025年11月30日" (Japanese and Chinese): year, month, day.
_CJK_DATE_RE: Final = _LazyRegex(r"(\d{4})\s*年\s*(\d{1,2})\s*月\s*(\d{1,2})\s*日")
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
        MONTHS: list[Any] = list(_month_names())  # noqa: RUF012 (dateutil reads a class list)

    return _ParserInfo(dayfirst=True)


# "16/02/2026", "03-11-2026": a numeric date with a slash or dash (dotted dates are day-first
# everywhere); and a US postal address ("Fremont CA 94538", "Dallas, TX 75201").
_SLASH_DATE_RE: Final = re.compile(r"(?<![\d/.-])(\d{1,2})[/-](\d{1,2})[/-](\d{4}|\d{2})(?![\d/-])")
_US_ADDRESS_RE: Final = re.compile(
    r"\b(?:A[KLRZ]|C[AOT]|D[CE]|FL|GA|HI|I[ADLN]|K[SY]|LA|M[ADEINOST]|N[CDEHJMVY]|O[HKR]|PA|RI|"
    r"S[CD]|T[NX]|UT|V[AT]|W[AIVY]),?\s+\d{5}(?:-\d{4})?\b")


_ANY_DIGIT_RE: Final = re.compile(r"\d")


def document_date_order(texts: Iterable[str]) -> tuple[bool, str | None]:
    """Whether a document writes numeric dates day-first, and the evidence: a date of its own
    that only one order reads ('16/02/2026' is day-first, '02/17/2026' month-first), else a
    US postal address (month-first).  (True, None) when nothing says: day-first, as ISO 8601
    and most of the world write it, and an ambiguous date then deserves a warning."""
    day = month = None
    us = None
    for text in texts:
        if _ANY_DIGIT_RE.search(text) is None:
            continue  # (both a numeric date and a postal code have figures)
        for match in _SLASH_DATE_RE.finditer(text):
            first, second = int(match[1]), int(match[2])
            if first > 12 >= second:
                day = day or match.group(0)
            elif second > 12 >= first:
                month = month or match.group(0)
        us = us or (_US_ADDRESS_RE.search(text) and text)
    if day and not month:
        return True, f"the document writes {day!r}, which only reads day-first"
    if month and not day:
        return False, f"the document writes {month!r}, which only reads month-first"
    if us and not day:
        return False, "the document gives a US postal address, and the US writes month-first"
    return True, None


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


# "subject to signature by March 31, 2026", "bei Unterzeichnung bis 31.03.", "sous réserve de
# signature avant le 31 mars": the date by which to sign (the offer's validity), never the date
# the capacity is delivered.
_SIGN_BY_RE = re.compile(
    r"\b(?:sign(?:ed|ing|ature)?|countersign\w*|execut(?:ed|ion)|unterzeichn\w*|unterschrift"
    r"|signature|sign[ée]e?s?|firma(?:do|da|to|ta)?|assinatura|assinado|ondertekend|ondertekening"
    r"|podpisan\w*|podpis\w*|underteckn\w*)\b[^.;\d]{0,20}?\b(?:by|before|until|no\s+later\s+than"
    r"|bis|vor|avant|d'ici|antes|hasta|entro|voor|uiterlijk|do|przed|senast|f[öo]re)\b", re.I)


def is_signing_deadline(text: str) -> bool:
    """The text gives a date by which to sign ("subject to signature by 31 March 2026")."""
    return bool(_SIGN_BY_RE.search(text))


def before_signing_deadline(text: str) -> str:
    """The text before a date by which to sign: 'from 15 April 2026, subject to signature by
    31 March 2026' -> 'from 15 April 2026, subject to '."""
    found = _SIGN_BY_RE.search(text)
    return text if found is None else text[:found.start()]


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
    for scale, name in ((1, "seconds"), (1000, "milliseconds")):
        # A JSON export's Unix time ("expires_at": 1798675200): 2000-01-01 to 2100-01-01
        if value.is_integer() and _UNIX_RANGE[0] * scale <= value < _UNIX_RANGE[1] * scale:
            day = datetime.fromtimestamp(value / scale, tz=UTC).date()
            return ParsedDate(day, raw_s, [f"Unix time {_fmt(value)} ({name}) read as "
                                           f"{day.isoformat()} (UTC)"], day, day)
    raise ValueParseError("a number that is not a date", found=raw_s, expected=expected)


_UNIX_RANGE: Final = (946684800, 4102444800)  # seconds from 1970 to 2000-01-01 and 2100-01-01


_SPACED_DOTTED_DATE_RE = re.compile(r"(?<![\d.])(\d{1,2})\.\s+(\d{1,2})\.\s*(\d{4})(?!\d)")
# "2027. 1. 4." (Korean), "2027. január 4." (Hungarian): the year first, then month and day.
_YEAR_FIRST_DATE_RE = re.compile(r"(?<![\d.])(\d{4})\.\s+(\d{1,2})\.\s+(\d{1,2})"
                                 r"(?:\.|(?![\d.])(?!\s*[^\W\d_]))")


@functools.cache
def _year_first_named_re() -> re.Pattern[str]:
    names = sorted((n for names in _month_names() for n in names), key=len, reverse=True)
    return re.compile(rf"(?<![\d.])(\d{{4}})\.\s*({'|'.join(map(re.escape, names))})"
                      rf"\.?\s+(\d{{1,2}})\.?(?![\d])", re.IGNORECASE)


def _year_first_date(text: str) -> date | None:
    if match := _YEAR_FIRST_DATE_RE.search(text):
        return date(int(match[1]), int(match[2]), int(match[3]))
    if (match := _year_first_named_re().search(text)) is not None:
        month = next(i for i, names in enumerate(_month_names(), 1)
                     if match[2].lower() in (n.lower() for n in names))
        return date(int(match[1]), month, int(match[3]))
    return None


def _parse_date_text(
    text: str, raw_s: str, dayfirst: bool, prefer: Literal["end", "start"]
) -> ParsedDate:
    expected = EXPECTED["date"]
    relative = _RELATIVE_RE.search(text)
    relative_note = (
        [f"also states a lead time ({relative.group(0)!r}); the calendar date is used"]
        if relative else []
    )
    if match := _CJK_DATE_RE.search(text):
        day = date(int(match[1]), int(match[2]), int(match[3]))
        return ParsedDate(day, raw_s, relative_note, day, day)
    if match := _SPACED_DOTTED_DATE_RE.search(text):
        # "31. 3. 2026" (Czech, Slovak, German writing): day, month, year; never month-first
        day = date(int(match[3]), int(match[2]), int(match[1]))
        return ParsedDate(day, raw_s, relative_note, day, day)
    if (first := _year_first_date(text)) is not None:
        return ParsedDate(first, raw_s, relative_note, first, first)
    if match := _ISO_DATE_RE.search(text):
        day = date(int(match[1]), int(match[3]), int(match[4]))
        return ParsedDate(day, raw_s, relative_note + _no_value_note(text), day, day)
    if match := _NUMERIC_DATE_RE.search(text):
        return _numeric_date(match, raw_s, dayfirst, relative_note)
    if match := _text_date_re().search(text):
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
    fragment = _ORDINAL_RE.sub(r"\1", fragment)  # "1er mars": dateutil knows "1st" only
    fragment = re.sub(r"\s+de\s+", " ", fragment, flags=re.I)  # "15 de enero de 2026"
    one, two = _parsed_twice(fragment)
    if one.day != two.day:  # no day in the text: a whole month
        start, end = date(one.year, one.month, 1), _month_end(one.year, one.month)
        extra = "".join(f"; {n}" for n in notes)
        return _period(start, end, f"{start:%B %Y}", prefer, raw_s, extra)
    value = one.date()
    return ParsedDate(value, raw_s, notes, value, value)


@by_text(4096)  # the same dates recur in every option's notes; datetimes are immutable
def _parsed_twice(fragment: str) -> tuple[datetime, datetime]:
    """dateutil's reading of a date with two different defaults (a day missing from the
    text shows as the two readings' days differing)."""
    from dateutil import parser

    info = _date_parserinfo()
    return (parser.parse(fragment, parserinfo=info, default=datetime(2000, 1, 1)),
            parser.parse(fragment, parserinfo=info, default=datetime(2000, 2, 2)))


def _relative_date(match: re.Match[str], raw_s: str) -> ParsedDate:
    lo = float(match["lo"].replace(",", "."))
    hi = float(match["hi"].replace(",", ".")) if match["hi"] else lo
    unit = _relative_unit(match["unit"])
    days = hi * _DAYS_PER_UNIT[unit]
    if match["business"] and unit == "day":
        days = hi * BUSINESS_DAY_HOURS / 24.0  # 5 business days span 7 calendar days
    notes = [
        f"{match.group(0)!r} is a lead time after order, not a calendar date: "
        f"{_fmt(days)} days"
    ]
    if match["hi"]:
        notes.append(f"range {match['lo']}-{match['hi']}: took the later {match['hi']}")
    if match["business"]:
        # One business day spans 7/5 calendar days everywhere in evaltool (BUSINESS_DAY_HOURS).
        notes.append(f"business days counted as {_fmt(days)} calendar days (5 business days "
                     "span 7 calendar days)")
    return ParsedDate(None, raw_s, notes, days_after_order=_clean_float(days))


# --------------------------------------------------------------------------- durations

_DURATION_HOURS: Final[dict[str, float]] = {
    "second": 1.0 / 3600.0, "minute": 1.0 / 60.0, "hour": 1.0, "day": 24.0,
    "week": 168.0, "month": HOURS_PER_MONTH, "year": 12.0 * HOURS_PER_MONTH,
}
@functools.cache
def _duration_words() -> dict[str, str]:
    """Unit word -> canonical unit (evaltool/data/duration_words.yaml)."""
    import yaml

    raw = yaml.safe_load((data_dir() / "duration_words.yaml").read_text(encoding="utf-8"))
    return {str(w).casefold(): unit for unit, words in raw.items() for w in words}


@functools.cache
def _duration_re() -> re.Pattern[str]:
    units = "|".join(re.escape(w) for w in sorted(_duration_words(), key=len, reverse=True))
    return re.compile(
        rf"(?<![\w.,])(?P<lo>{_NUM})\)?(?:\s*(?:-|–|to|bis)\s*(?P<hi>{_NUM}))?\s*-?\s*"
        rf"(?P<business>business\s+|working\s+|werk)?(?P<unit>{units})(?![\w])"
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
    base = _duration_words().get(base_name.casefold())
    if base is None:
        raise ValueError(f"unknown duration unit {base_name!r}")
    if fast is not None:
        return _duration_result(fast * _DURATION_HOURS[base], unit, raw_s, [])
    text = _text_input(raw, expected)
    if _NBD_RE.match(text):
        return _duration_result(BUSINESS_DAY_HOURS, unit, raw_s, [
            f"{text!r} read as one business day, {_fmt(BUSINESS_DAY_HOURS)} hours (5 business "
            "days span 7 calendar days)"])
    if (iso := _ISO_DURATION_RE.match(text)) and any(iso.groups()):
        hours = sum(
            float(iso[name]) * _DURATION_HOURS[name] for name in _DURATION_HOURS
            if name in iso.groupdict() and iso[name]
        )
        return _duration_result(hours, unit, raw_s, [])
    matches = list(_duration_re().finditer(text))
    if not matches and "(" in text:
        # "4 (Mo–Fr 8–18 Uhr) Stunden": an aside between the figure and its unit.
        text = re.sub(r"\s*\([^()]*\)\s*", " ", text)
        matches = list(_duration_re().finditer(text))
    if not matches and _NUMBER_WORD_RE.search(text):  # "thirty days", "one year"
        text = _NUMBER_WORD_RE.sub(lambda m: str(_NUMBER_WORDS[m.group(0).casefold()]), text)
        matches = list(_duration_re().finditer(text))
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
        units = [_DURATION_HOURS[_duration_words()[m["unit"].casefold()]] for m in matches]
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
    base = _duration_words()[match["unit"].casefold()]
    hours = max(lo, hi) * _DURATION_HOURS[base]
    if match["business"] or match["ouvres"]:
        if base == "day":  # "5 business days" = 168 h: elapsed time (BUSINESS_DAY_HOURS)
            hours = max(lo, hi) * BUSINESS_DAY_HOURS
            notes.append(
                f"{match.group(0).strip()!r}: business days counted as {_fmt(hours)} hours "
                f"({_fmt(BUSINESS_DAY_HOURS)} h each: 5 business days span 7 calendar days)"
            )
        elif base == "week":
            notes.append(f"{match.group(0).strip()!r}: business weeks are calendar weeks")
        else:
            notes.append(f"{match.group(0)!r}: business time, may pause outside business hours")
    return hours


# --------------------------------------------------------------------------- booleans

@functools.cache
def _yes_no_words() -> dict[str, Any]:
    """Yes and no words (evaltool/data/yes_no.yaml) and the answer that may lead a phrase."""
    import yaml

    raw = yaml.safe_load((data_dir() / "yes_no.yaml").read_text(encoding="utf-8"))
    leading = sorted((str(w) for w in raw["leading"]), key=len, reverse=True)
    return {
        "true": frozenset(str(w) for w in raw["yes"]),
        "false": frozenset(str(w) for w in raw["no"]),
        "notes": {str(k): str(v) for k, v in raw["notes"].items()},
        "leading": re.compile(r"^(?P<word>" + "|".join(re.escape(w) for w in leading) +
                              r")(?![\w-])[\s,;:.(–—-]*(?P<rest>.*)$", re.IGNORECASE),
        "true_leading": frozenset(w for w in leading if w in {str(y) for y in raw["yes"]}),
    }


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
    vocabulary = _yes_no_words()
    notes = [vocabulary["notes"][folded]] if folded in vocabulary["notes"] else []
    if folded in vocabulary["false"]:
        return ParsedBool(False, raw_s, notes)
    if folded in vocabulary["true"]:
        return ParsedBool(True, raw_s, notes)
    _check_no_value(text, hint, raw_s)
    # A custom word inside a phrase: "shared with other tenants", "fully dedicated".
    for words, value in ((custom_false, False), (custom_true, True)):
        for word in sorted(words, key=len, reverse=True):
            if re.search(rf"(?<!\w){re.escape(word)}(?!\w)", folded):
                if re.search(rf"\b(?:not|non|no|nicht)[\s-]+{re.escape(word)}", folded):
                    value = not value  # "not shared with other tenants"
                verdict = "yes" if value else "no"
                return ParsedBool(value, raw_s, [f"read {verdict} from {word!r} in {text!r}"])
    leading = vocabulary["leading"].match(text)
    if leading:
        value = leading["word"].casefold() in vocabulary["true_leading"]
        rest = leading["rest"].strip(" )")
        notes = [f"qualified answer: {rest!r}"] if rest else []
        return ParsedBool(value, raw_s, notes)
    raise ValueParseError("not a yes/no value", found=raw_s, expected=hint)
