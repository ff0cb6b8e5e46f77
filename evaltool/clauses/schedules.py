"""Money a contract schedules over its term, read from its parts, not from fixed phrasings.

Four concepts, each read from amounts, percentages, months and the words that tie them:

- ``price_steps``: a price that changes during the term ("USD 1.70 per GPU-hour in months 1
  to 3 and USD 2.90 from month 4", "$1.70/GPU-hr M1-M3, then $2.90", "steps up to USD 2.90
  after the third month") -> [(first month, price), ...];
- ``refund_schedule``: the share of prepaid fees given back by when the exit takes effect
  ("50% if termination takes effect in months 1-2; 25% in months 3-4; nothing after",
  "refund ninety percent (90%) of the unused prepaid fees") -> [(last month, percent), ...];
- ``periodic_floor``: a spend floor owed every period ("USD 25,000 per calendar-month
  period", "a Minimum Monthly Spend of USD 120,000 in each month", "min. $25k/mo")
  -> (amount, currency, months per period);
- ``tranches``: capacity delivered in parts ("Tranche 1, 256 GPUs, by 7 December 2026;
  Tranche 2, 256 GPUs, targeted for 1 February 2027") -> [(GPUs, ISO date, hedged), ...].

A month of the term is counted from the start of service (month 1 is the first month). The
words live in evaltool/data/contract_money_words.yaml (English, German, French, Spanish); a
span of months is read by `month_spans`, so every concept agrees on what "from month 4" or
"the first three months" mean. Amounts go through `evaltool.normalize.values.parse_money`,
dates through `parse_date` (the one value parser).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from evaltool.models import HOURS_PER_MONTH
from evaltool.normalize.values import ValueParseError, parse_date, parse_money
from evaltool.resources import data_dir

FLAGS = re.IGNORECASE


def words() -> dict[str, Any]:
    """The vocabulary of contract money (evaltool/data/contract_money_words.yaml)."""
    return _words()


@lru_cache(maxsize=1)
def _words() -> dict[str, Any]:
    import yaml

    data = yaml.safe_load((data_dir() / "contract_money_words.yaml").read_text("utf-8"))
    assert isinstance(data, dict)
    return data


@lru_cache(maxsize=1)
def _number_words() -> dict[str, float]:
    import yaml

    data = yaml.safe_load((data_dir() / "number_words.yaml").read_text("utf-8")) or {}
    out: dict[str, float] = {}
    for table in data.values():
        if isinstance(table, dict):
            out.update({str(k).lower(): float(v) for k, v in table.items()})
    out.update({str(k).lower(): float(v) for k, v in _words()["ordinals"].items()})
    return out


# A number of months: digits ("4", "4th", "4."), a word ("four", "fourth", "vierten"), and a
# bracketed figure after a word ("four (4)") that wins.
_NUM = (r"(?:\d{1,3}(?:st|nd|rd|th|\.)?(?![\d,.]\d)|[^\W\d_]+(?:-[^\W\d_]+)?)"
        r"(?:\s*\(\s*\d{1,3}(?:st|nd|rd|th)?\s*\))?")


def _value(token: str) -> float | None:
    bracket = re.search(r"\(\s*(\d{1,3})", token)
    if bracket:
        return float(bracket.group(1))
    digits = re.match(r"\d{1,3}", token)
    if digits:
        return float(digits.group(0))
    return _number_words().get(token.strip().lower())


@dataclass(frozen=True)
class MonthSpan:
    """Months of the term a figure applies to: first..last (None: to the end of the term);
    ``after_previous``: from the month after the span named before it ("thereafter")."""

    first: float
    last: float | None
    start: int
    end: int
    after_previous: bool = False


@lru_cache(maxsize=1)
def _units() -> tuple[str, tuple[tuple[re.Pattern[str], float], ...]]:
    """The units a span of the term is counted in: one alternation, and each unit's
    pattern with its length in months."""
    w = _words()
    table = [(w["month"], 1.0)] + [(str(v[0]), float(v[1]) / HOURS_PER_MONTH)
                                   for v in w["span_units"].values()]
    union = "|".join(f"(?:{p})" for p, _k in table)
    return union, tuple((re.compile(rf"^(?:{p})$", FLAGS), k) for p, k in table)


def _months_per(unit: str) -> float:
    return next((k for pattern, k in _units()[1] if pattern.match(unit.strip())), 1.0)


@lru_cache(maxsize=1)
def _span_res() -> tuple[re.Pattern[str], ...]:
    w = _words()
    unit, join = _units()[0], w["range_join"]
    return (
        # 0 "months 1 to 3", "month 4 or month 5", "Monate 1 bis 3", "years 2-3", "M1-M3"
        re.compile(rf"\b(?P<u>{unit})\s+(?P<a>{_NUM})\s*(?:{join})\s*(?:(?:{unit})\s+)?"
                   rf"(?P<b>{_NUM})|\b(?P<l>[MQ])(?P<ma>\d{{1,2}})\s*[-–—]\s*(?P=l)?"
                   rf"(?P<mb>\d{{1,2}})\b", FLAGS),
        # 1 "the first three months", "die ersten 90 Tage", "les trois premiers mois"
        re.compile(rf"\b(?:{w['first']})\s+(?P<n>{_NUM})\s+(?P<u>{unit})\b|"
                   rf"\b(?P<m>{_NUM})\s+(?:{w['first_after']})\s+(?P<v>{unit})\b", FLAGS),
        # 2 "the fourth month", "4th month", "vierten Monat", "the second year"
        re.compile(rf"\b(?P<n>{_NUM})\s+(?P<u>{unit})\b", FLAGS),
        # 3 "month 4", "Monat 4", "year 2", "day 91", "Q2" (a quarter of the term, not of 2027)
        re.compile(rf"\b(?P<u>{unit})\s+(?P<n>{_NUM})|\b(?P<q>[QM])(?P<qn>\d{{1,2}})\b"
                   rf"(?!\s*(?:19|20)\d\d)", FLAGS),
        # 4 "thereafter", "for the remainder of the Term"
        re.compile(rf"\b(?:{w['rest']})\b", FLAGS),
        # 5 "after three (3) months", "following 90 days"
        re.compile(rf"\b(?:{w['after']})\s+(?P<n>{_NUM})\s+(?P<u>{unit})\b", FLAGS),
    )


@lru_cache(maxsize=1)
def _modifier_res() -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    w = _words()
    tail = rf"(?:\s+(?:{w['day_of']}))?\s*(?:the\s+|dem\s+|le\s+|el\s+|du\s+|del\s+)?$"
    return (re.compile(rf"\b(?:{w['from']})\b{tail}", FLAGS),
            re.compile(rf"\b(?:{w['after']})\b{tail}", FLAGS),
            re.compile(rf"\b(?:{w['until']})\b{tail}", FLAGS),
            re.compile(rf"\s*(?:of\s+the\s+term\s+)?(?:{w['onward']})", FLAGS))


def _ordinal_word(token: str) -> bool:
    word = token.strip().lower()
    return bool(re.match(r"\d{1,3}(?:st|nd|rd|th|\.)", word)) or word in {
        str(k).lower() for k in _words()["ordinals"]}


def month_spans(text: str) -> list[MonthSpan]:
    """Every span of the term in the text, in months of the term, in order, none
    overlapping another. A span counted in other units is converted: "the second quarter"
    is months 4-6, "the first 90 days" ends 2.96 months in, "from day 91" starts in month
    3.96 (90 days elapsed)."""
    found: list[MonthSpan] = []
    taken: list[tuple[int, int]] = []
    range_re, first_re, ordinal_re, unit_n_re, rest_re, after_n_re = _span_res()
    from_re, after_re, until_re, onward_re = _modifier_res()

    def free(s: int, e: int) -> bool:
        return all(e <= a or s >= b for a, b in taken)

    def add(first: float, last: float | None, m: re.Match[str], rest: bool = False) -> None:
        found.append(MonthSpan(first, last, m.start(), m.end(), rest))
        taken.append((m.start(), m.end()))

    for m in range_re.finditer(text):
        k = 3.0 if (m.group("l") or "").upper() == "Q" else _months_per(m.group("u") or "month")
        a = _value(m.group("a") or m.group("ma") or "")
        b = _value(m.group("b") or m.group("mb") or "")
        if a and b and 1 <= a <= b <= 120 and free(m.start(), m.end()):
            add((a - 1) * k + 1, b * k, m)
    for m in after_n_re.finditer(text):
        n = _value(m.group("n"))
        if n and free(m.start(), m.end()) and not _ordinal_word(m.group("n")):
            add(n * _months_per(m.group("u")) + 1, None, m)
    for m in first_re.finditer(text):
        n = _value(m.group("n") or m.group("m") or "")
        k = _months_per(m.group("u") or m.group("v") or "month")
        if not n or n > 400 or not free(m.start(), m.end()):
            continue
        head = text[max(0, m.start() - 40):m.start()]
        if after_re.search(head):  # "after the first three months": month 4 on
            add(n * k + 1, None, m)
        else:
            add(1.0, n * k, m)
    for pattern, needs_ordinal in ((ordinal_re, True), (unit_n_re, False)):
        for m in pattern.finditer(text):
            letter = (m.groupdict().get("q") or "").upper()  # "Q2" a quarter, "M7" a month
            is_q = bool(letter)
            token = m.group("qn") if is_q else m.group("n")
            if needs_ordinal and (not _ordinal_word(token) or re.match(
                    r"\s+(?:of|des|du|del)\b", text[m.end():], FLAGS)):
                # "twelve (12) months" is a length, not a month of the term; "the first
                # day of month 4" is month 4
                continue
            n = _value(token)
            k = (3.0 if letter == "Q" else 1.0) if is_q else _months_per(m.group("u"))
            if not n or n > 400 or not free(m.start(), m.end()):
                continue
            first, last = (n - 1) * k + 1, n * k
            head = text[max(0, m.start() - 50):m.start()]
            if after_re.search(head):
                add(last + 1, None, m)
            elif until_re.search(head):
                add(1.0, last, m)
            elif from_re.search(head) or onward_re.match(text, m.end()):
                add(first, None, m)
            else:
                add(first, last, m)
    for m in rest_re.finditer(text):
        if free(m.start(), m.end()):
            add(0.0, None, m, rest=True)
    return sorted(found, key=lambda s: s.start)


# ------------------------------------------------------------------ amounts

# A figure: grouped by spaces ("25 000", "25\u202f000") or by commas, dots and apostrophes.
_FIGURE = r"(?:\d{1,3}(?:[ \u00a0\u202f]\d{3})+(?:[.,]\d+)?|\d[\d,.']*\d|\d)"
_CODES = r"USD|EUR|GBP|CHF|JPY|CAD|AUD|SGD|HKD|CNY|INR|KRW|SEK|NOK|DKK|PLN|CZK|NZD"
_MONEY_TOKEN = re.compile(
    rf"(?:US\$|CA\$|C\$|A\$|S\$|\$|€|£|¥|\b(?:{_CODES})\s*)\s?{_FIGURE}"
    r"(?:\s*(?:million|billion|mn|k|m)\b)?"
    rf"|\b{_FIGURE}\s*(?:million\s+|billion\s+|k\s+)?(?:{_CODES}|€|\$|£)"
    r"(?![A-Za-z])", FLAGS)
_PER_GPU_HOUR = re.compile(
    r"\s*(?:(?:per|/|pro|par|por|je|a|an)\s*)(?:gpu|accelerator|graphics)[\s-]*(?:hours?|hrs?|"
    r"h\b|stunden?|heures?|horas?)|\s*(?:per|/)\s*gpu\s*(?:per|/)\s*(?:hour|hr|h)\b|"
    r"\s*(?:pro|par|por)\s+gpu[\s-]*(?:stunde|heure|hora)", FLAGS)


@dataclass(frozen=True)
class Amount:
    value: float
    currency: str
    start: int
    end: int


_DOT_THOUSANDS = re.compile(r"(?<![\d.,])\d{1,3}(?:\.\d{3})+(?![\d.,]*\d)")
_PER_UNIT = re.compile(r"\s*(?:per|/|pro|par|por|je|a|an)\s*[^\W\d_]", FLAGS)


def amounts(text: str) -> list[Amount]:
    """Every amount of money with its currency, in order (the one value parser reads it)."""
    out: list[Amount] = []
    for m in _MONEY_TOKEN.finditer(text):
        token = m.group(0).strip().rstrip(".,")
        if _DOT_THOUSANDS.search(token) and not _PER_UNIT.match(text, m.end()):
            # "600.000 USD" for a sum is six hundred thousand, as German and French write
            # it; a rate ("EUR 2.125 per GPU-hour") keeps its decimals.
            token = _DOT_THOUSANDS.sub(lambda d: d.group(0).replace(".", ""), token)
        try:
            money = parse_money(token)
        except ValueParseError:
            continue
        if money.currency:
            out.append(Amount(float(money.amount), str(money.currency), m.start(), m.end()))
    return out


def gpu_hour_prices(text: str) -> list[Amount]:
    """Amounts stated per GPU-hour ("USD 2.90 per GPU-hour", "$1.70/GPU-hr", "1,70 EUR pro
    GPU-Stunde")."""
    return [a for a in amounts(text) if _PER_GPU_HOUR.match(text, a.end)]


def _gap(a: tuple[int, int], b: tuple[int, int]) -> int:
    return max(0, max(a[0], b[0]) - min(a[1], b[1]))


# A line that starts a new row of a list or table ("- Months 4-12: $2.90", "(b) ...",
# "Year 2: ...", "| Months 1-2 | 90% |"), not a sentence wrapped onto the next line.
_ROW_START = re.compile(r"\n\s*(?:[-•*|]|\(?[a-z0-9]{1,3}[).]\s|[^\W\d_]+\s*\d)", FLAGS)


def _clause_ids(text: str) -> list[int]:
    """For each character, the clause it stands in (clauses end at ';', a sentence's end
    or a new row of a list)."""
    rows = {m.start() for m in _ROW_START.finditer(text)}
    in_date = _in_dates(text)
    ids, k = [], 0
    for i, ch in enumerate(text):
        if i in rows:
            k += 1
        ids.append(k)
        if ch == ";" or (ch == "." and i not in in_date
                         and (i + 1 == len(text) or text[i + 1].isspace())):
            k += 1
    return ids


def _in_dates(text: str) -> set[int]:
    """Positions inside a date ("7. Dezember 2026"): its dot ends no sentence."""
    return {i for m in _date_re().finditer(text) for i in range(m.start(), m.end())}


def _pair(items: list[tuple[int, int]], spans: list[MonthSpan], text: str
          ) -> dict[int, MonthSpan]:
    """Each item (by index, in text order) with its span of the term, each span used once.

    First within a clause (up to ';'): an item alone in its clause takes the nearest span
    there ("Year 2: USD 2.20"); then within the sentence, the first span after the item
    and before the next one ("USD 1.70 during months 1-3"), else the last unused span
    before it ("from month 4 the Fees are USD 2.90")."""
    out: dict[int, MonthSpan] = {}
    used: set[int] = set()
    clause, sentence = _clause_ids(text), _sentence_ids(text)

    def at(ids: list[int], pos: int) -> int:
        return ids[min(pos, len(ids) - 1)] if ids else 0

    for i, (start, end) in enumerate(items):
        k = at(clause, start)
        if sum(1 for s_, _e in items if at(clause, s_) == k) != 1:
            continue
        near = [(_gap((start, end), (sp.start, sp.end)), j) for j, sp in enumerate(spans)
                if j not in used and at(clause, sp.start) == k]
        if near:
            best = min(near)[1]
            out[i] = spans[best]
            used.add(best)
    for i, (start, end) in enumerate(items):
        if i in out:
            continue
        stop = items[i + 1][0] if i + 1 < len(items) else len(text)
        after = next((j for j, sp in enumerate(spans) if j not in used
                      and end <= sp.start < stop
                      and at(sentence, sp.start) == at(sentence, start)), None)
        if after is not None:
            out[i] = spans[after]
            used.add(after)
    for i, (start, _end) in enumerate(items):
        if i in out:
            continue
        low = items[i - 1][1] if i else 0
        before = next((j for j in range(len(spans) - 1, -1, -1) if j not in used
                       and low <= spans[j].start and spans[j].end <= start
                       and at(sentence, spans[j].start) == at(sentence, start)), None)
        if before is not None:
            out[i] = spans[before]
            used.add(before)
    return out


def _sentence_ids(text: str) -> list[int]:
    in_date = _in_dates(text)
    ids, k = [], 0
    for i, ch in enumerate(text):
        ids.append(k)
        if ch == "." and i not in in_date and (
                i + 1 == len(text) or text[i + 1].isspace()) and not re.search(
                r"\b(?:no|nr|ca|approx|mo|mos|min)$", text[max(0, i - 6):i], FLAGS):
            k += 1
    return ids


# ------------------------------------------------------------------ prices by month


def price_steps(text: str) -> tuple[list[tuple[float, float]], str] | None:
    """[(first month, price per GPU-hour), ...] in month order, and the currency, when the
    text prices parts of the term differently; None for one price or prices not tied to
    months (two products, two regions)."""
    prices = gpu_hour_prices(text)
    if len(prices) == 1:
        return _percent_step(text, prices[0])
    if len(prices) < 2 or len({p.currency for p in prices}) != 1:
        return None
    paired = _pair([(p.start, p.end) for p in prices], month_spans(text), text)
    starts: list[tuple[float | None, float]] = []
    previous_last: float | None = None
    for i, price in enumerate(prices):
        span = paired.get(i)
        if span is None:
            starts.append((None, price.value))
            continue
        if span.after_previous:
            first = previous_last + 1 if previous_last is not None else None
        else:
            first = span.first
        starts.append((first, price.value))
        if span.last is not None:
            previous_last = span.last
        elif first is not None:
            previous_last = None
    if sum(1 for f, _p in starts if f is None) > 1:
        return None
    named = sorted((f, p) for f, p in starts if f is not None)
    if not named:
        return None
    if any(f is None for f, _p in starts):
        # The one price tied to no month is the price before the first named step
        # ("USD 1.70 per GPU-hour, rising to USD 2.90 from month 4").
        if named[0][0] <= 1:
            return None
        named.insert(0, (1.0, next(p for f, p in starts if f is None)))
    named = [(float(f), p) for f, p in named]
    steps: dict[float, float] = {}
    for first, price_value in named:
        steps.setdefault(first, price_value)
    if min(steps) != 1 or len(set(steps.values())) < 2:
        return None
    return sorted(steps.items()), prices[0].currency


def _percent_step(text: str, price: Amount) -> tuple[list[tuple[float, float]], str] | None:
    """One price and a rise by a share from a month on ("USD 2.00 per GPU-hour; the rate
    increases by 25% from month 7", "+25 % ab Monat 7")."""
    rise = re.search(rf"(?:{_words()['rise']})", text, FLAGS)
    if rise is None or not re.search(rf"\b(?:{_words()['price_word']})\b", text, FLAGS):
        return None
    if re.search(rf"\b(?:{_words()['yearly']})", text, FLAGS):
        return None  # a yearly escalator, read as one (`clauses.terms`), not as a step
    pcts = [(v, s_, e) for v, s_, e in _percents(text) if 0 < v <= 200 and s_ > price.end]
    spans = [sp for sp in month_spans(text) if not sp.after_previous and sp.first > 1]
    if len(pcts) != 1 or len(spans) != 1 or spans[0].last is not None:
        return None
    factor = 1.0 + pcts[0][0] / 100.0
    return [(1.0, price.value), (spans[0].first, round(price.value * factor, 6))], price.currency


# ------------------------------------------------------------------ refunds


@lru_cache(maxsize=1)
def _refund_res() -> dict[str, re.Pattern[str]]:
    w = _words()
    return {key: re.compile(rf"(?:{w[key]})", FLAGS)
            for key in ("refund", "prepaid", "none", "vendor_failure", "retained",
                        "prorated", "by_day", "deducted", "kept")} | {
        "percent": re.compile(rf"(?P<v>\d{{1,3}}(?:[.,]\d+)?)\s*(?:{w['percent']})", FLAGS)}


def _percents(text: str) -> list[tuple[float, int, int]]:
    return [(float(m.group("v").replace(",", ".")), m.start(), m.end())
            for m in _refund_res()["percent"].finditer(text)]


def is_refund_share(text: str, start: int, end: int) -> bool:
    """Whether the percentage at text[start:end] is a share given back, not a charge:
    a refund word stands in its clause ("refund 90% of the prepaid fees", "90% of the unused
    fees are credited back")."""
    ids = _clause_ids(text)
    k = ids[min(start, len(ids) - 1)]
    lo = max(0, start - 120)
    hi = min(len(text), end + 120)
    clause = "".join(ch if ids[i] == k else " " for i, ch in enumerate(text[lo:hi], lo))
    return bool(_refund_res()["refund"].search(clause))


def _kept_share(text: str, start: int, end: int) -> bool:
    """Whether the percentage at text[start:end] is the share the vendor keeps ("the
    remaining 15% is retained as an early-termination charge"): a word of keeping stands
    nearer to it in its clause than any word of giving back."""
    res = _refund_res()
    ids = _clause_ids(text)
    k = ids[min(start, len(ids) - 1)]

    def nearest(pattern: re.Pattern[str]) -> float:
        return min((_gap((start, end), (m.start(), m.end())) for m in pattern.finditer(text)
                    if ids[min(m.start(), len(ids) - 1)] == k), default=math.inf)

    kept = nearest(res["retained"])
    if kept < math.inf and kept < nearest(res["refund"]):
        return True
    # "refunded less a cancellation charge of 15%", "abzüglich 15 % erstattet": a deduction
    # between it and the refund word (or its clause's start) before it
    given = [m.end() for m in res["refund"].finditer(text, 0, start)
             if ids[min(m.start(), len(ids) - 1)] == k]
    lo = given[-1] if given else next(
        (i + 1 for i in range(start - 1, -1, -1) if ids[i] != k), 0)
    return res["deducted"].search(text, lo, start) is not None


def _rest_refunded(body: str, kept: list[float]) -> list[tuple[float, int, int]]:
    """One share kept and the rest given back ("15% is retained ... and the rest is
    refunded", "refunded less 15%"): the share refunded is its complement."""
    res = _refund_res()
    negated = [(m.start(), m.end()) for m in res["kept"].finditer(body)]
    given = [m for m in res["refund"].finditer(body)
             if not any(a <= m.start() < b for a, b in negated)]
    if len(set(kept)) != 1 or not given or not 0 < kept[0] < 100:
        return []
    return [(100.0 - kept[0], given[0].start(), given[0].end())]


def _refund_text(text: str) -> str:
    """The sentences that give prepaid money back, and the tiers listed after them; a
    sentence about the vendor's failure (a late delivery, an SLA credit) is left out."""
    res = _refund_res()
    ids = _sentence_ids(text)
    sentences: list[str] = []
    current: list[str] = []
    for i, ch in enumerate(text):
        current.append(ch)
        if i + 1 == len(text) or ids[i + 1] != ids[i]:
            sentences.append("".join(current))
            current = []
    kept: list[str] = []
    listing = False
    for sentence in sentences:
        if res["vendor_failure"].search(sentence):
            listing = False
            continue
        has_share = bool(_percents(sentence) or res["none"].search(sentence))
        if res["refund"].search(sentence) or (listing and has_share and month_spans(sentence)):
            kept.append(sentence)
            listing = True
        else:
            listing = False
    return "".join(kept)


def refund_schedule(text: str) -> list[tuple[float, float]] | None:
    """[(last month of the tier, percent refunded), ...] in month order: the share of the
    unused prepaid fees given back when leaving takes effect in those months (the last tier
    runs to the end of the term: last month ``math.inf``). A single share stated without
    months applies whenever the exit takes effect. None when the text refunds nothing of
    a prepayment, or only as a remedy for the vendor's failure.

    Each share (a percentage, or "nothing", "no refund") takes the span of the term beside
    it, as a price takes its months (`_pair`): "50% if termination takes effect in months
    1-2", "(a) ... on or before the last day of month 3: 90%", "M1-M2 50%"."""
    res = _refund_res()
    if not res["refund"].search(text) or not res["prepaid"].search(text):
        return None
    body = _refund_text(text)
    if not body or not res["prepaid"].search(body):
        return None
    found = [(v, s_, e, _kept_share(body, s_, e)) for v, s_, e in _percents(body)
              if 0 <= v <= 100]
    items = [(v, s_, e) for v, s_, e, kept in found if not kept]
    if not items:
        items = _rest_refunded(body, [v for v, _s, _e, kept in found if kept])
    items += [(0.0, m.start(), m.end()) for m in res["none"].finditer(body)
              if not any(s_ <= m.start() < e for _v, s_, e in items)]
    items.sort(key=lambda t: t[1])
    if not items:
        return None
    paired = _pair([(s_, e) for _v, s_, e in items], month_spans(body), body)
    tiers: list[tuple[float, float | None, float]] = []
    previous_last: float | None = None
    for i, (share, _s, _e) in enumerate(items):
        span = paired.get(i)
        if span is None:
            continue
        first = (previous_last + 1 if previous_last is not None else None) \
            if span.after_previous else span.first
        if first is None:
            continue
        tiers.append((first, span.last, share))
        previous_last = span.last
    if not tiers:
        shares = {v for v, _s, _e in items if v > 0}
        return [(math.inf, float(shares.pop()))] if len(shares) == 1 else None
    tiers.sort(key=lambda t: (t[0], t[1] if t[1] is not None else math.inf))
    out: list[tuple[float, float]] = []
    for i, (_first, last, share) in enumerate(tiers):
        end = last if last is not None else (
            tiers[i + 1][0] - 1 if i + 1 < len(tiers) else math.inf)
        out.append((float(end), float(share)))
    if out[-1][0] != math.inf:
        out.append((math.inf, 0.0))  # nothing is given back after the last tier
    return out


@lru_cache(maxsize=1)
def _whole_period_res() -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    w, unit = _words(), _units()[0]
    gap = r"(?:[\w-]+\s+){0,2}?"  # "whole Service Month", "vollen, noch nicht begonnenen Monat"
    return (re.compile(rf"\b(?:{w['whole_period']})\b[\s,]+{gap}(?P<u>{unit})\b|"
                       rf"\b(?:{w['in_progress_before']})\s+{gap}(?P<c>{unit})\b|"
                       rf"\b(?P<p>{unit})\s+(?:{w['in_progress_after']})", FLAGS),
            re.compile(rf"\b(?P<u>{unit})\b[^.;]{{0,20}}?(?:{w['not_started']})", FLAGS),
            re.compile(rf"(?:{w['each_period']}){gap}(?P<u>{unit})\b", FLAGS))


def refund_whole_period_months(text: str) -> float | None:
    """The period, in months, a refund of unused prepaid fees is counted in when it gives
    back only whole periods not yet started ("each whole Service Month that has not started
    on that date": 1; "per unstarted quarter": 3), so a period that has begun is kept
    whole. None when the refund runs by the day ("prorated by the day") or names no period;
    "pro rata" alone gives way to a whole period named ("pro rata for each full month not
    yet started") but not to "each unused month"."""
    res = _refund_res()
    body = _refund_text(text)
    if not body or not res["refund"].search(body) or res["by_day"].search(body):
        return None
    whole, not_started, each = _whole_period_res()
    m = whole.search(body) or not_started.search(body) or (
        None if res["prorated"].search(body) else each.search(body))
    if m is None:
        return None
    found = m.groupdict()
    return _months_per(found.get("u") or found.get("c") or found.get("p") or "month")


# ------------------------------------------------------------------ spend floors


@lru_cache(maxsize=1)
def _floor_res() -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    w = _words()
    periods = "|".join(f"(?P<{k}>{v})" for k, v in w["periods"].items())
    adjectives = "|".join(f"(?P<{k}>{v})" for k, v in w["period_adjectives"].items())
    named_before = "|".join(f"(?P<before_{k}>{v})" for k, v in w["periods"].items())
    return (re.compile(rf"(?:{w['floor']})", FLAGS),
            # "USD 150,000 on eligible services in each month": a short phrase may stand
            # between the amount and its period.
            re.compile(rf"\s*(?:(?:on|for|of|towards?)\s+(?:[\w-]+\s+){{0,2}}?)?"
                       rf"(?:{w['per_period']})(?:{periods})", FLAGS),
            re.compile(rf"(?:{adjectives})\b[\w\s:,()-]{{0,40}}$|"
                       rf"\b(?:each|every|per|in\s+each|for\s+each|jeden|chaque|cada)\s+"
                       rf"(?:calendar\s+)?(?:{named_before})[^.;]{{0,80}}$", FLAGS))


_PERIOD_MONTHS = {"month": 1.0, "quarter": 3.0, "year": 12.0}


def periodic_floor(text: str) -> tuple[float, str, float] | None:
    """(amount, currency, months per period) of a spend floor owed every period: an amount
    said per month or quarter ("USD 25,000 per calendar-month period", "$25k/mo", "in each
    Commitment Month") or under a period adjective ("Minimum Monthly Spend of USD 120,000")
    in a sentence about a floor. A yearly amount is a total, not a recurring floor."""
    floor_re, after_re, before_re = _floor_res()
    if not floor_re.search(text) or not re.search(rf"(?:{_words()['spend']})", text, FLAGS):
        return None
    if re.search(rf"\b(?:{_words()['floor_of_a_line']})", text, FLAGS):
        return None  # "storage charges: USD 4,500 per month minimum" is a line's floor
    for amount in amounts(text):
        if _PER_GPU_HOUR.match(text, amount.end):
            continue
        after = after_re.match(text, amount.end)
        before = None if after else before_re.search(text[max(0, amount.start - 120):amount.start])
        found = after or before
        if found is None:
            continue
        kind = next(k for k, v in found.groupdict().items() if v).removeprefix("before_")
        if kind == "year":
            continue
        return amount.value, amount.currency, _PERIOD_MONTHS[kind]
    return None


# ------------------------------------------------------------------ tranches


@dataclass(frozen=True)
class Tranche:
    gpus: float
    date: str  # ISO date the tranche is delivered by
    hedged: bool  # the date is only a target ("targeted", "estimated", "best efforts")


_HEDGE = re.compile(
    r"\btarget\w*|\bestimat\w*|\bexpect\w*|\banticipat\w*|\bplanned\b|\bindicative\b|"
    r"\befforts?\b|\bendeavou?r|\bsubject\s+to\b|\bvoraussichtlich|\bgeplant|\bprévu|\bestim",
    FLAGS)


@lru_cache(maxsize=1)
def _tranche_res() -> tuple[re.Pattern[str], re.Pattern[str]]:
    w = _words()
    unit = rf"(?P<gpu>{w['units']['gpu']})|(?P<node>{w['units']['node']})"
    count = re.compile(rf"(?<![\w.,])(?P<n>\d{{1,5}}(?:,\d{{3}})?)\s*(?:x\s*)?(?:[\w-]+\s+)?"
                       rf"(?:{unit})\b", FLAGS)
    return re.compile(rf"\b(?:{w['tranche']})\b", FLAGS), count


@lru_cache(maxsize=1)
def _delivers() -> re.Pattern[str]:
    return re.compile(rf"\b(?:{_words()['delivers']})", FLAGS)


@lru_cache(maxsize=1)
def _not_delivery() -> re.Pattern[str]:
    return re.compile(rf"\b(?:{_words()['not_delivery']})", FLAGS)


def tranches(text: str, gpus_per_node: float | None = None,
             gpu_count: float | None = None) -> list[Tranche] | None:
    """The parts a cluster is delivered in, each with its GPUs and date, in date order;
    None unless the text delivers at least two parts on different dates that add up to
    ``gpu_count``. Each date takes the count nearest to it in its clause ("Tranche 1, 256
    GPUs, by 7 December"; "the first 256 GPUs on 7 December and the remaining 256 by 1
    February"); a part given as "the remaining" or "the rest" with no count takes the GPUs
    the others leave."""
    word_re, count_re = _tranche_res()
    if not word_re.search(text):
        return None
    day_dates = _dates(text)
    if len(day_dates) < 2:
        return None
    counts = [m for m in count_re.finditer(text)]
    clause = _clause_ids(text)
    sentence = _sentence_ids(text)
    found: list[tuple[float | None, str, bool]] = []
    used: set[int] = set()
    for iso, ds, de in day_dates:
        k = clause[min(ds, len(clause) - 1)]
        # the clause around the date: from the last clause or date boundary to the next
        lo = max([0] + [e for _i, _s, e in day_dates if e <= ds])
        hi = min([len(text)] + [s for _i, s, _e in day_dates if s >= de])
        near = [(abs(m.start() - ds), j, m) for j, m in enumerate(counts)
                if j not in used and lo <= m.start() < hi
                and (clause[min(m.start(), len(clause) - 1)] == k
                     or sentence[min(m.start(), len(sentence) - 1)]
                     == sentence[min(ds, len(sentence) - 1)])]
        part = text[lo:hi]
        # a date is hedged by its own clause ("Tranche 2 ... targeted for 1 February")
        own = "".join(ch for i, ch in enumerate(text[lo:hi], lo) if clause[i] == k)
        hedged = bool(_HEDGE.search(own))
        said = "".join(ch for i, ch in enumerate(text) if sentence[i] == sentence[ds])
        if _not_delivery().search(own) or not _delivers().search(said):
            continue  # "Quote valid until 1 February 2027": not a part delivered
        if near:
            _d, j, m = min(near, key=lambda x: x[0])
            used.add(j)
            n = float(m.group("n").replace(",", ""))
            gpus = n if m.group("gpu") else (n * gpus_per_node if gpus_per_node else None)
            if gpus is None:
                return None
            found.append((gpus, iso, hedged))
        elif re.search(r"\b(?:remaining|rest|balance|restliche\w*|restantes?)\b", part, FLAGS):
            found.append((None, iso, hedged))
    if len(found) < 2 or len({iso for _g, iso, _h in found}) < 2:
        return None
    known = sum(g for g, _i, _h in found if g is not None)
    missing = [f for f in found if f[0] is None]
    if len(missing) > 1 or (missing and not gpu_count):
        return None
    out = [Tranche(g if g is not None else float(gpu_count or 0) - known, iso, hedged)
           for g, iso, hedged in found]
    if any(t.gpus <= 0 for t in out):
        return None
    if gpu_count and abs(sum(t.gpus for t in out) - gpu_count) > 0.5:
        return None  # the parts do not add up to the cluster quoted: not a tranche schedule
    return sorted(out, key=lambda t: t.date)


@lru_cache(maxsize=1)
def _date_re() -> re.Pattern[str]:
    """A date as contracts write it: ISO, or a day, a month name in any language of
    evaltool/data/month_names.yaml and a year ("7 Dec 2026", "December 7, 2026", "7.
    Dezember 2026", "1er février 2027")."""
    import yaml

    table = yaml.safe_load((data_dir() / "month_names.yaml").read_text("utf-8"))
    names = sorted((str(n) for row in table for n in row), key=len, reverse=True)
    months = "|".join(re.escape(n) for n in names)
    return re.compile(
        rf"\b20\d\d-[01]\d-[0-3]\d\b|(?<![\w])(?:\d{{1,2}}(?:st|nd|rd|th|er)?\.?\s*"
        rf"(?:of\s+|de\s+)?)?(?:{months})(?![^\W\d_])\.?(?:\s*\d{{1,2}}(?:st|nd|rd|th)?"
        rf"(?!\d))?,?\s*(?:de\s+)?(?:20\d\d)(?!\d)", FLAGS)


def _dates(text: str) -> list[tuple[str, int, int]]:
    """(ISO date, start, end) of every day-precise date in the text."""
    out = []
    for m in _date_re().finditer(text):
        try:
            parsed = parse_date(m.group(0).strip())
        except ValueParseError:
            continue
        if parsed.value is not None and parsed.earliest == parsed.latest:
            out.append((parsed.value.isoformat(), m.start(), m.end()))
    return out


# ------------------------------------------------------------------ shared with clauses.leaving

NUMBER = _NUM  # a number of units: digits, a word, "four (4)"


def number_value(token: str) -> float | None:
    return _value(token)


def unit_words() -> str:
    """The alternation of every unit a span of the term is counted in."""
    return _units()[0]


def months_per(unit: str) -> float:
    return _months_per(unit)


def is_ordinal(token: str) -> bool:
    return _ordinal_word(token)


def percents(text: str) -> list[tuple[float, int, int]]:
    """(value, start, end) of every percentage, in any language of the vocabulary."""
    return _percents(text)


def is_rate(text: str, end: int) -> bool:
    """Whether the amount ending at `end` is a price per GPU-hour."""
    return bool(_PER_GPU_HOUR.match(text, end))
