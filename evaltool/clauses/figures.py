"""Figures in contract sentences, named like the canonical offer fields they can fill.

Uptime %, credit caps, delivery dates, replacement and response times, egress prices,
term, renewal and notice periods. Own regexes (LexNLP, the open contract-extraction
library, is AGPL-licensed); dates are parsed with python-dateutil, the well-kept standard
for free-form English dates.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from evaltool.clauses.lexicon import fast_compile
from evaltool.normalize.values import parse_duration

_WORD_NUMBERS: dict[str, float] = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "fourteen": 14,
    "fifteen": 15,
    "eighteen": 18,
    "twenty": 20,
    "twenty-four": 24,
    "thirty": 30,
    "thirty-six": 36,
    "forty-five": 45,
    "forty-eight": 48,
    "sixty": 60,
    "seventy-two": 72,
    "ninety": 90,
    "one hundred eighty": 180,
    "one hundred and eighty": 180,
    "half": 0.5,
}
_NUM = (
    # "thirty (30) days": the digits in brackets are read, the words before them skipped
    r"(?:\(\s*(?P<paren>\d+(?:\.\d+)?)\s*\)"
    r"|(?P<num>\d+(?:\.\d+)?)|(?P<spelled>"
    + "|".join(sorted((re.escape(w) for w in _WORD_NUMBERS), key=len, reverse=True))
    + r"))"
)
DURATION_RE = fast_compile(
    r"(?<![\w.])"
    + _NUM
    + r"\s*(?:-\s*)?(?P<unit>business\s+days?|calendar\s+days?|working\s+days?|"
    r"days?|hours?|hrs?|h\b|minutes?|mins?|weeks?|months?|years?)(?:['’]s?)?"
)
PERCENT_RE = re.compile(
    r"(?P<value>\d{1,3}(?:\.\d+)?)\s*(?:%|percent\b|per\s*cent\b)", re.IGNORECASE
)
_PAREN_PERCENT_RE = re.compile(r"\(\s*(?P<value>\d{1,3}(?:\.\d+)?)\s*%\s*\)")
_USD_PER_GB_RE = re.compile(
    r"(?:\$|USD\s*|US\$\s*)(?P<value>\d+(?:\.\d+)?)\s*(?:USD\s*)?(?:/|per|for\s+each|each)\s*"
    r"(?:1\s*)?(?P<unit>GiB|GB|gigabytes?|TB|terabytes?)\b",
    re.IGNORECASE,
)
_ISO_DATE_RE = re.compile(r"\b(20\d\d)-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])\b")
_TEXT_DATE_RE = re.compile(
    r"\b(?:(?:January|February|March|April|May|June|July|August|September|October|November|"
    r"December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)\.?\s+\d{1,2}(?:st|nd|rd|th)?,?\s+"
    r"\d{4}|\d{1,2}(?:st|nd|rd|th)?\s+(?:January|February|March|April|May|June|July|August|"
    r"September|October|November|December)\s+\d{4})\b",
    re.IGNORECASE,
)
_QUARTER_RE = re.compile(r"\b(?:Q([1-4])\s*(20\d\d)|(20\d\d)\s*-?\s*Q([1-4]))\b", re.IGNORECASE)

_AVAILABILITY_RE = re.compile(r"availab|uptime|\bsla\b|service\s+level", re.IGNORECASE)
_CREDIT_CAP_RE = re.compile(
    r"(?:capped\s+at|cap\s+of|not\s+(?:to\s+)?exceed|no\s+more\s+than|maximum(?:\s+total)?\s+"
    r"(?:of\s+|credit\s+(?:of|is)\s+)?|up\s+to\s+(?:a\s+maximum\s+of\s+)?|limited\s+to)\s*"
    r"(?:\w+(?:[- ]\w+)?\s+\()?(?P<value>\d{1,3}(?:\.\d+)?)\s*(?:%|percent|per\s*cent)",
    re.IGNORECASE,
)
_DELAY_CREDIT_RE = re.compile(
    r"(?P<value>\d{1,3}(?:\.\d+)?)\s*%[^.;]{0,60}?\b(?:for\s+)?each\s+(?P<per>day|week|month)\s+of\s+delay"
    r"|each\s+(?P<per2>day|week|month)\s+of\s+delay[^.;]{0,80}?(?P<value2>\d{1,3}(?:\.\d+)?)\s*%",
    re.IGNORECASE,
)
_REPLACE_RE = re.compile(
    r"\b(?:replac\w+|swap\w*|repair\w*)\b[^.;]{0,80}?\b(?:nodes?|gpus?|hardware|servers?|"
    r"components?|parts?|units?)\b|\b(?:failed|faulty|defective)\s+(?:nodes?|gpus?|hardware|"
    r"servers?|components?)\b[^.;]{0,80}?\breplac",
    re.IGNORECASE,
)
# How support states a first reaction: respond, answer, acknowledge (not "acknowledges
# that", which is agreeing), reply, pick up.
_RESPONSE_RE = re.compile(
    r"\b(?:respon(?:d|ds|se|ses)|answer(?:ed|s)?|acknowledge(?:d|s)?(?!\s+(?:and|that)\b)|"
    r"repl(?:y|ies|ied)|first\s+contact|pick(?:ed)?\s+up)\b",
    re.IGNORECASE,
)
# "by the next business day": one business day, though no number is written.
_NEXT_BUSINESS_DAY_RE = re.compile(r"\b(?:next|following)\s+(?:business|working)\s+day\b", re.I)
_EGRESS_RE = re.compile(r"\begress\b|\bdata\s+transfer\b|\boutbound\s+(?:data|traffic)\b", re.I)
_NO_EGRESS_RE = re.compile(
    r"\b(?:no|without|free\s+of)\s+(?:any\s+)?(?:egress|data\s+transfer)\s+(?:fees?|charges?)|"
    r"\begress\s+(?:is|shall\s+be|will\s+be)\s+(?:free|not\s+(?:charged|billed))|"
    r"\bnot\s+(?:be\s+)?charged\s+for\s+(?:ingress\s+or\s+)?egress",
    re.IGNORECASE,
)
_INITIAL_TERM_RE = re.compile(
    r"\b(?:initial\s+term|term\s+of\s+this\s+agreement|commitment\s+period)\b", re.I
)
_RENEW_RE = re.compile(r"\brenew", re.IGNORECASE)
_NOTICE_RE = re.compile(r"notice", re.IGNORECASE)
_EXPORT_RE = re.compile(
    r"\bexport|\bretriev|\bavailable\s+for\s+(?:download|export)|\breturn\b", re.I
)


@dataclass(frozen=True)
class Duration:
    value: float
    unit: str  # normalised: minute, hour, day, business_day, week, month, year
    start: int
    end: int

    @property
    def hours(self) -> float:
        """Hours as evaltool.normalize.values reads the same words (5 business days span
        7 calendar days; a month is 730 h), so every stage agrees on the figure."""
        return _hours(self.value, self.unit)

    @property
    def days(self) -> float:
        return self.hours / 24.0

    @property
    def months(self) -> float:
        return self.hours / 730.0


_UNIT_WORDS = {
    "minute": "minutes",
    "hour": "hours",
    "day": "days",
    "business_day": "business days",
    "week": "weeks",
    "month": "months",
    "year": "years",
}


@lru_cache(maxsize=512)
def _hours(value: float, unit: str) -> float:
    return parse_duration(f"{value:g} {_UNIT_WORDS[unit]}", "hours").hours


def _number(m: re.Match[str]) -> float | None:
    if m.group("paren"):
        return float(m.group("paren"))
    if m.group("num"):
        return float(m.group("num"))
    word = (m.group("spelled") or "").lower()
    return _WORD_NUMBERS.get(word)


@lru_cache(maxsize=64)
def durations(text: str) -> tuple[Duration, ...]:
    """Every duration in the text: 'thirty (30) days', '24 hours', 'two weeks', '15 min'."""
    out: list[Duration] = []
    for m in DURATION_RE.finditer(text):
        value = _number(m)
        if value is None:
            continue
        unit = m.group("unit").lower()
        if unit.startswith(("business", "working")):
            norm = "business_day"
        elif unit.startswith("calendar") or unit.startswith("day"):
            norm = "day"
        elif unit.startswith("h"):
            norm = "hour"
        elif unit.startswith("min"):
            norm = "minute"
        else:
            norm = unit.rstrip("s")
        out.append(Duration(value, norm, m.start(), m.end()))
    return tuple(out)


def percentages(text: str) -> list[tuple[float, int, int]]:
    """Percent figures; for 'ninety-nine and nine-tenths percent (99.9%)' the digits win."""
    out: list[tuple[float, int, int]] = []
    for m in PERCENT_RE.finditer(text):
        out.append((float(m.group("value")), m.start(), m.end()))
    return out


def dates(text: str) -> list[tuple[str, int, int]]:
    """Absolute dates as ISO strings (python-dateutil parses the textual forms)."""
    from dateutil import parser as date_parser

    out: list[tuple[str, int, int]] = []
    for m in _ISO_DATE_RE.finditer(text):
        out.append((m.group(0), m.start(), m.end()))
    for m in _TEXT_DATE_RE.finditer(text):
        try:
            parsed = date_parser.parse(m.group(0), fuzzy=False)
        except (ValueError, OverflowError):
            continue
        out.append((parsed.date().isoformat(), m.start(), m.end()))
    out.sort(key=lambda d: d[1])
    return out


@dataclass(frozen=True)
class RawFigure:
    field: str
    value: Any
    unit: str | None
    committed: bool | None


_NUMBERISH_RE = re.compile(
    r"\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|"
    r"thirty|forty|sixty|ninety|hundred|half)\b|\b(?:next|following)\s+(?:business|working)\s+day",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class _Stated:
    """One sentence as the figure readers see it: its text, what the classifier made of
    it, and whether its figures are committed (firm), hedged (weak) or neither."""

    text: str
    label: str
    kind: str
    topic: str | None
    firm: bool
    committed: bool | None


def sentence_figures(
    text: str, label: str, kind: str, topic: str | None, firm_part: bool = False
) -> list[RawFigure]:
    """Figures one sentence states, given what the classifier made of it.

    ``firm_part``: the sentence is labelled otherwise (e.g. a remedy) but also holds an
    unhedged vendor obligation ("shall deliver by <date>; for each week of delay ...")."""
    if not _NUMBERISH_RE.search(text) and not _NO_EGRESS_RE.search(text):
        return []  # every figure needs a number (or a stated zero egress fee)
    firm = label == "firm_commitment" or firm_part
    committed = True if firm else (False if label == "weak_commitment" else None)
    s = _Stated(text, label, kind, topic, firm, committed)
    figs: list[RawFigure] = []
    for reader in _FIGURE_READERS:
        figs.extend(reader(s))
    return figs


def _uptime(s: _Stated) -> list[RawFigure]:
    if s.label not in ("weak_commitment", "firm_commitment", "other"):
        return []
    if not _AVAILABILITY_RE.search(s.text):
        return []
    for value, _s, _e in percentages(s.text):
        if 90.0 <= value <= 100.0:
            return [RawFigure("sla_uptime_pct", value, "%", s.committed)]
    return []


_CREDIT_RE = re.compile(r"credit", re.IGNORECASE)


def _credits(s: _Stated) -> list[RawFigure]:
    """Service credits: per-incident percentages, their cap, credits per period of delay."""
    if s.label != "remedy" or not _CREDIT_RE.search(s.text):
        return []
    figs: list[RawFigure] = []
    cap = _CREDIT_CAP_RE.search(s.text)
    delay = _DELAY_CREDIT_RE.search(s.text)
    if delay:
        value = float(delay.group("value") or delay.group("value2"))
        per = delay.group("per") or delay.group("per2")
        figs.append(RawFigure(f"delivery_delay_credit_pct_per_{per.lower()}", value, "%", True))
    if cap:
        field = "delivery_delay_max_credit_pct" if delay else "sla_max_credit_pct"
        figs.append(RawFigure(field, float(cap.group("value")), "%", True))
    cap_span = (cap.start("value"), cap.end()) if cap else (-1, -1)
    credits = [
        v for v, st, _e in percentages(s.text) if v < 90.0 and not cap_span[0] <= st < cap_span[1]
    ]
    if credits and not delay:
        figs.append(RawFigure("sla_credit_pct", credits, "%", True))
    return figs


_DELIVER_RE = re.compile(r"\bdeliver", re.IGNORECASE)


def _delivery(s: _Stated) -> list[RawFigure]:
    """A delivery date (committed when firm, a target otherwise), or a quarter."""
    if s.topic != "delivery" and not _DELIVER_RE.search(s.text):
        return []
    found = dates(s.text)
    if found:
        field = "delivery_date" if s.firm else "delivery_target_date"
        return [RawFigure(field, found[0][0], None, s.committed)]
    q = _QUARTER_RE.search(s.text)
    if q:
        quarter = q.group(1) or q.group(4)
        year = q.group(2) or q.group(3)
        return [RawFigure("delivery_target_date", f"{year}-Q{quarter}", None, s.committed)]
    return []


def _replacement(s: _Stated) -> list[RawFigure]:
    if not _REPLACE_RE.search(s.text):
        return []
    found = sorted(_with_next_business_day(s.text, durations(s.text)), key=lambda d: d.start)
    for d in found:
        if d.unit in ("minute", "hour", "day", "business_day", "week"):
            return [RawFigure("hw_replacement_hours", round(d.hours, 2), "h", s.committed)]
    return []


_SUPPORT_CONTEXT_RE = re.compile(
    r"support|ticket|severity|\bsev[- ]?\d|priority|\bp[1-4]\b|critical|urgent|incident|request|"
    r"\bcall|outage|error|inquir|enquir|quer(?:y|ies)|\bissues?\b|\bcases?\b|problem|fault|"
    r"help\s*desk|service\s+desk",
    re.IGNORECASE,
)


def _with_next_business_day(text: str, ds: Sequence[Duration]) -> list[Duration]:
    """The durations of the text, and "next business day" as one business day."""
    out = list(ds)
    for m in _NEXT_BUSINESS_DAY_RE.finditer(text):
        out.append(Duration(1.0, "business_day", m.start(), m.end()))
    return out


def _response(s: _Stated) -> list[RawFigure]:
    """The fastest support response time the sentence states."""
    resp = _RESPONSE_RE.search(s.text)
    if not resp or not _SUPPORT_CONTEXT_RE.search(s.text):
        return []
    after = s.text[resp.start() :]
    resp_ds = [
        d
        for d in _with_next_business_day(after, durations(after))
        if d.unit in ("minute", "hour", "day", "business_day")
    ]
    if not resp_ds:
        return []
    fastest = min(resp_ds, key=lambda d: d.hours)
    return [RawFigure("support_response_hours", round(fastest.hours, 3), "h", s.committed)]


_BANDWIDTH_RE = re.compile(r"bandwidth|overage", re.IGNORECASE)


def _egress(s: _Stated) -> list[RawFigure]:
    """The egress price per decimal GB (per TB and per GiB prices converted), or zero."""
    if not (_EGRESS_RE.search(s.text) or _BANDWIDTH_RE.search(s.text)):
        return []
    if _NO_EGRESS_RE.search(s.text):
        return [RawFigure("egress_usd_per_gb", 0.0, "USD/GB", True)]
    price = _USD_PER_GB_RE.search(s.text)
    if not price:
        return []
    value = float(price.group("value"))
    unit = price.group("unit").lower()
    if unit.startswith(("tb", "terabyte")):
        value = value / 1000.0
    elif unit == "gib":
        value = value / 1.073741824  # per GiB -> per decimal GB
    return [RawFigure("egress_usd_per_gb", round(value, 6), "USD/GB", True)]


_AUTOMATIC_RE = re.compile(r"automatic|auto-?renew", re.IGNORECASE)
_TERMINAT_RE = re.compile(r"terminat", re.IGNORECASE)
_DATA_RE = re.compile(r"data", re.IGNORECASE)


def _notices(text: str, ds: Sequence[Duration]) -> list[Duration]:
    """Durations followed by 'notice' ('thirty (30) days' written notice')."""
    return [d for d in ds if _NOTICE_RE.search(text[d.end : d.end + 40])]


def _term_and_renewal(s: _Stated) -> list[RawFigure]:
    """Initial term, renewal term and the notice to stop a renewal."""
    text = s.text
    ds = durations(text)
    if not ds:
        return []
    renew = _RENEW_RE.search(text)
    if _INITIAL_TERM_RE.search(text) and not renew:
        longest = max(ds, key=lambda d: d.months)
        if longest.unit in ("month", "year"):
            return [RawFigure("term_months", round(longest.months, 2), "months", True)]
        return []
    if not renew:
        return []
    figs: list[RawFigure] = []
    terms = [
        d for d in ds
        if d.unit in ("month", "year") and not _NOTICE_RE.search(text[d.end : d.end + 25])
    ]
    if terms and _AUTOMATIC_RE.search(text):
        figs.append(RawFigure("renewal_term_months", round(terms[0].months, 2), "months", True))
    notices = _notices(text, ds)
    if notices:
        figs.append(RawFigure("non_renewal_notice_days", round(notices[0].days, 1), "days", True))
    return figs


def _notice_periods(s: _Stated) -> list[RawFigure]:
    """Notice to terminate (an exit term that is not about renewal) and notice of a change."""
    ds = durations(s.text)
    notices = _notices(s.text, ds)
    if not notices:
        return []
    figs: list[RawFigure] = []
    days = round(notices[0].days, 1)
    if (not _RENEW_RE.search(s.text) and _TERMINAT_RE.search(s.text)
            and s.label == "termination_exit"):
        figs.append(RawFigure("termination_notice_days", days, "days", True))
    if s.kind == "unilateral_change":
        figs.append(RawFigure("change_notice_days", days, "days", True))
    return figs


def _export_window(s: _Stated) -> list[RawFigure]:
    """How long the customer's data stays available for export after the end."""
    if s.label != "termination_exit" or not _EXPORT_RE.search(s.text):
        return []
    if not _DATA_RE.search(s.text):
        return []
    windows = [d for d in durations(s.text) if d.unit in ("day", "business_day", "week", "month")]
    if not windows:
        return []
    return [RawFigure("data_export_days", round(windows[-1].days, 1), "days", True)]


_FIGURE_READERS: tuple[Callable[[_Stated], list[RawFigure]], ...] = (
    _uptime,
    _credits,
    _delivery,
    _replacement,
    _response,
    _egress,
    _term_and_renewal,
    _notice_periods,
    _export_window,
)
