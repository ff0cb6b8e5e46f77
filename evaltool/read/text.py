"""Composite, offer-shaped readers for one text cell that complement the value parser in
evaltool.normalize.values: sizes with a multiplier ("8 x 3.84 TB"), port counts apart from
the speed ("NDR 400G, 8 ports per system"), read/write pairs ("read 80 GB/s, write 40 GB/s"),
the billing unit of a price ("/ Knoten / h") and the currency a label names, and placeholders
("TBD", "on request").  Plain numbers, money, dates, durations, percentages and yes/no are
parsed only by evaltool.normalize.values.  Every function returns None when the text holds
no such value; none of them raises.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Any

from evaltool.grammar.basis import basis_vocabulary, scope_re
from evaltool.grammar.currency_signs import is_shared_sign, sign_currency, stated_currency
from evaltool.grammar.textcache import by_text
from evaltool.grammar.valuetypes import BUSINESS_DAY_HOURS
from evaltool.read.cells import cell_text, is_empty

NUMBER = (r"(?<![\w.,])(\d{1,3}(?:[,.\u202f\u00a0']\d{3})+(?:[.,]\d+)?(?!\d)|\d{1,3}(?: \d{3})+"
          r"(?:,\d+)?(?![\d.,])|\d+(?:[.,]\d+)?)")
_NUM_RE = re.compile(NUMBER)


def to_number(token: str) -> float:
    """'1,024' -> 1024; '24,80' -> 24.8; '1.234,5' -> 1234.5; '1 500 000' -> 1500000."""
    token = token.replace("\u202f", " ").replace("\u00a0", " ").replace("'", " ").strip()
    token = token.replace(" ", "")
    if "," in token and "." in token:
        if token.rfind(",") > token.rfind("."):
            token = token.replace(".", "").replace(",", ".")
        else:
            token = token.replace(",", "")
    elif "," in token:
        parts = token.split(",")
        if len(parts) > 2 or (len(parts[-1]) == 3 and parts[0] != "0"):
            token = token.replace(",", "")  # thousands: 1,024 / 4,800 / 60,000,000
        else:
            token = token.replace(",", ".")  # decimal comma: 24,80
    elif token.count(".") > 1:
        token = token.replace(".", "")  # 1.500.000
    return float(token)


def first_number(text: str) -> float | None:
    match = _NUM_RE.search(text)
    return to_number(match.group(1)) if match else None


def cell_amount(value: Any) -> float | None:
    """A cell's figure: a number as it is, else the first number its text shows."""
    if isinstance(value, bool) or is_empty(value):
        return None
    if isinstance(value, (int, float)):
        return float(value)
    return first_number(cell_text(value))


# --- sizes -------------------------------------------------------------------------------

# French octets: Po, To, Go ("Lustre, 500 To", "2 048 Go").
# A size followed by "/s" or "per second" is a throughput ("500 GB/s"), never a capacity.
_SIZE_RE = re.compile(NUMBER + r"\s*(pib|tib|gib|mib|pb|tb|gb|mb|pbyte|tbyte|gbyte|po|to|go)\b"
                      r"(?!\s*(?:/|per\s|pro\s|par\s|por\s)\s*(?:s|sec|second|sekunde|seconde|"
                      r"segundo)\b)", re.I)
_SIZE_TB = {"pb": 1000.0, "pbyte": 1000.0, "pib": 1125.899906842624, "tb": 1.0, "tbyte": 1.0,
            "po": 1000.0, "to": 1.0, "go": 1e-3,
            "tib": 1.099511627776, "gb": 1e-3, "gbyte": 1e-3, "gib": 1.073741824e-3,
            "mb": 1e-6, "mib": 1.048576e-6}
_TIMES_RE = re.compile(r"(\d+)\s*(?:x|×|\*)\s*$", re.I)


@dataclass(frozen=True)
class Size:
    tb: float
    unit: str
    multiplied_by: int | None = None

    @property
    def gb(self) -> float:
        return self.tb * 1000.0


def parse_size(text: str) -> Size | None:
    """'2 PB' -> 2000 TB; '8 x 3.84 TB' -> 30.72 TB; '512 GB' -> 0.512 TB; GiB/TiB converted."""
    match = _SIZE_RE.search(text)
    if not match:
        return None
    value = to_number(match.group(1)) * _SIZE_TB[match.group(2).lower()]
    times = _TIMES_RE.search(text[: match.start()])
    count = int(times.group(1)) if times else None
    if count:
        value *= count
    return Size(tb=value, unit=match.group(2), multiplied_by=count)


# --- bandwidth ---------------------------------------------------------------------------

_BW_RE = re.compile(
    NUMBER + r"\s*(?:(t|g|m)\s*(?:bit/s|bits/s|bps|b/s|bit|b|be|bit/sec)?)(?![a-z0-9])"
    r"|" + NUMBER + r"\s*(tbyte/s|gbyte/s|tb/s|gb/s|tbps|gbps|gbe|tbe|gbit/s|tbit/s)", re.I)
_COUNT_BEFORE_RE = re.compile(r"(\d+)\s*(?:x|×|\*)\s*(?:[A-Za-z]+\s+)?$", re.I)
_COUNT_AFTER_RE = re.compile(r"^\s*(?:x|×|\*)\s*(\d+)\b", re.I)
# Ports in English and in the languages of European quotes (portar, puertos, porte, porty,
# poorten, Anschlüsse); a port count beside one speed multiplies it.
# A NIC named by its product ("8 x ConnectX-7", "8x Pollara 400", "8 BlueField-3") counts ports.
_PORTS_RE = re.compile(r"\b(\d+)\s*(?:[x×]\s*)?(?:ports?|nics?|links?|hcas?|adapters?|rails?|"
                       r"(?:nvidia\s+|mellanox\s+|amd\s+|broadcom\s+)?(?:connectx|bluefield|"
                       r"pensando|pollara|thor|cx-?\d)[\w-]*|portar|"
                       r"puertos?|port[ei]|porty|portów|poorten|anschl\w*)\b", re.I)



@dataclass(frozen=True)
class Bandwidth:
    """A network speed in Gbit/s: `each` port times `count` ports = `total`."""

    total_gbit_s: float
    each_gbit_s: float
    count: int
    scope: str | None  # "node", "gpu" or None (not stated)
    was_bytes: bool


def port_count(text: str) -> int | None:
    """'8 ports per node', '8 portar per nod' -> 8."""
    ports = _PORTS_RE.search(text)
    return int(ports.group(1)) if ports else None


def parse_bandwidth(text: str) -> Bandwidth | None:
    """'8 x 400 Gb/s per node' / '400GbE x8' / '3.2 Tbps' / 'NDR 400G, 8 ports per system'."""
    for match in _iter_bw(text):
        number_text, unit = match
        value_token, prefix, was_bytes, start, end = number_text, unit[0], unit[1], unit[2], unit[3]
        each = to_number(value_token) * {"t": 1000.0, "g": 1.0, "m": 0.001}[prefix]
        if was_bytes:
            each *= 8
        count = 1
        before = _COUNT_BEFORE_RE.search(text[:start])
        after = _COUNT_AFTER_RE.search(text[end:])
        ports = _PORTS_RE.search(text)
        if before:
            count = int(before.group(1))
        elif after:
            count = int(after.group(1))
        elif ports:
            count = int(ports.group(1))
        scope = None
        if scope_re("gpu").search(text):
            scope = "gpu"
        elif scope_re("node").search(text):
            scope = "node"
        return Bandwidth(each * count, each, count, scope, was_bytes)
    return None


def _iter_bw(text: str) -> list[tuple[str, tuple[str, bool, int, int]]]:
    found: list[tuple[str, tuple[str, bool, int, int]]] = []
    pattern = re.compile(
        NUMBER + r"\s*(tbyte/s|gbyte/s|tb/s|gb/s|tbit/s|gbit/s|tbps|gbps|mbps|tbe|gbe|tb|gb"
        r"|gbit|tbit|g|t)(?![a-z0-9])", re.I)
    for match in pattern.finditer(text):
        unit = match.group(2)
        low = unit.lower()
        if low in ("tb", "gb"):
            continue  # a size, not a speed ("2 TB", "80GB")
        if low in ("g", "t") and not re.search(r"\b(ndr|hdr|edr|xdr|infiniband|ib|ethernet|roce|"
                                                r"nic|port|ports|network|fabric|interconnect)\b",
                                                text, re.I):
            continue
        was_bytes = unit in ("GB/s", "TB/s") or low in ("gbyte/s", "tbyte/s") or (
            unit[-2:] == "B/s" and unit[0] in "GT")
        prefix = low[0]
        found.append((match.group(1), (prefix, was_bytes, match.start(), match.end())))
    return found


_GBYTE_RE = re.compile(NUMBER + r"\s*(tb/s|gb/s|mb/s|tbps|gbps|gbit/s|tbit/s|gib/s|tib/s)", re.I)


def parse_gbyte_s(text: str) -> tuple[float, bool] | None:
    """A storage or GPU-link speed in GB/s; (value, was_bits). '200 GB/s' -> (200, False)."""
    match = _GBYTE_RE.search(text)
    if not match:
        return None
    value = to_number(match.group(1))
    unit = match.group(2)
    low = unit.lower()
    scale = 1000.0 if low.startswith("t") else 0.001 if low.startswith("m") else 1.0
    if low.startswith(("gib", "tib")):
        scale *= 1.073741824
    bits = low in ("gbps", "tbps", "gbit/s", "tbit/s") or (unit[-3:] == "b/s" and unit[1] == "b")
    value *= scale
    return (value / 8.0, True) if bits else (value, False)


_READ_RE = re.compile(r"read[^0-9]{0,20}" + NUMBER + r"|" + NUMBER + r"\s*\w+/s\s*read", re.I)
_WRITE_RE = re.compile(r"write[^0-9]{0,20}" + NUMBER + r"|" + NUMBER + r"\s*\w+/s\s*write", re.I)


def parse_read_write(text: str) -> tuple[float | None, float | None]:
    """'read 80 GB/s, write 40 GB/s' / '90 GB/s read / 65 GB/s write' -> GB/s each."""
    read = write = None
    for part in re.split(r"[,;]|\s/\s| and ", text):
        speed = parse_gbyte_s(part)
        if speed is None:
            continue
        low = part.lower()
        if "read" in low and read is None:
            read = speed[0]
        elif "write" in low and write is None:
            write = speed[0]
    return read, write


# --- money -------------------------------------------------------------------------------

_CURRENCY_WORDS = {
    "$": "USD", "us$": "USD", "usd": "USD", "dollar": "USD", "dollars": "USD",
    "€": "EUR", "eur": "EUR", "euro": "EUR", "euros": "EUR",
    "£": "GBP", "gbp": "GBP", "chf": "CHF", "¥": "JPY", "jpy": "JPY", "sek": "SEK",
    "dkk": "DKK", "nok": "NOK", "cad": "CAD", "aud": "AUD", "inr": "INR", "cny": "CNY",
    "krw": "KRW", "sgd": "SGD", "pln": "PLN", "zł": "PLN", "zl": "PLN", "czk": "CZK", "kč": "CZK",
    "huf": "HUF", "ron": "RON", "₩": "KRW", "원": "KRW", "₺": "TRY", "tl": "TRY", "try": "TRY",
    "rub": "RUB", "₽": "RUB", "uah": "UAH", "₴": "UAH",
    "brl": "BRL", "r$": "BRL", "mxn": "MXN", "nzd": "NZD", "hkd": "HKD", "isk": "ISK",
}
_CURRENCY_RE = re.compile(
    r"(us\$|r\$|\$|€|£|¥|₽|₴|zł|kč|₩|₺|(?<=[\d\s(,])원(?![가-힣])|"
    r"\b(?:usd|eur|euros?|gbp|chf|jpy|sek|dkk|nok|cad|aud|inr|cny|krw|sgd|pln|czk|huf|ron|"
    r"rub|uah|brl|mxn|nzd|hkd|isk|tl|dollars?)\b|\b(?-i:TRY)\b|(?<![^\W\d_])kr\.?(?![^\W\d_]))",
    re.I)
_GPU_WORDS = (r"(?:gpu|chip|accelerator|card|tpu|device|gpu\s*hr|acelerador|acceleratore|"
              r"akcelerator\w*|versneller)")
_NODE_WORDS = (r"(?:node|knoten|n(?:oe|œ)ud|serveur|servidor|server|system|instance|host|vm|"
               r"machine|box|pod|nodo|nodi|wez\w*|nod)")


# An ASCII text names a currency only with '$' or one of these words (whole words, as the
# pattern's \b...\b): tested first, as a set, before the pattern scans every position.
_CURRENCY_CODES = frozenset(w for w in _CURRENCY_WORDS if w.isalpha() and w.isascii()) | {
    "try", "tl", "kr", "dollar", "dollars", "euro", "euros"}
_ASCII_WORD_RE = re.compile(r"[a-z]+")  # letters only: "100kr" names kr


def currency_of(text: str) -> str | None:
    """The currency a text names: a code or a sign only one currency writes comes first; a sign
    several share ("$", "dollars", "kr") is what the text itself qualifies it as ("Canadian
    dollars", "A$"), else what the current document says (evaltool.read.currency_signs)."""
    if text.isascii() and "$" not in text and _CURRENCY_CODES.isdisjoint(
            _ASCII_WORD_RE.findall(text.lower())):
        return None  # no sign and no currency word: no pattern can match
    shared: str | None = None
    for match in _CURRENCY_RE.finditer(text):
        token = match.group(1)
        if not is_shared_sign(token) and token.lower() != "us$":
            return _CURRENCY_WORDS.get(token.lower())
        if token.lower() == "us$":
            return "USD"
        shared = shared or token
    if shared is None:
        return None
    return stated_currency(text) or sign_currency(shared)


_HOUR = r"(?:hour|hr|h|stunde|std|heure|hora|ora|ore|godz\w*|uur|timme|tim)s?\b"
_MONTH = r"(?:month|mo|mon|monat|mois|mes|mese|mesi|mies\w*|maand|manad)s?\b"
_SEP = r"[\s\-_/·]*(?:per\s+|pro\s+|par\s+|je\s+|por\s+|na\s+|/\s*)?"
_FEE = r"[\s\-_]*(?:price|rate|cost|fee|charge)s?[\s\-_]*"
# Compiled once: billing_unit runs for many cells of every file, and its patterns built
# per call missed re's own cache (benchmarks/ingest.py).
_PCT_OF_RE = re.compile(r"%\s*of|percent of|% der|% du")
_KWH_RE = re.compile(r"\bkwh\b")
_KW_MONTH_RE = re.compile(r"\bkw\b" + _SEP + _MONTH)
_PER_KW_RE = re.compile(r"\bper\s+kw\b")
_TB_MONTH_RE = re.compile(r"\b(?:tb|tib)" + _SEP + _MONTH)
_PER_TB_RE = re.compile(r"per tb\b")
_TO_MONTH_RE = re.compile(r"\bto\s*[·/]\s*(?:par\s+)?" + _MONTH)  # French "To·mois"
_PER_GB_RE = re.compile(r"(?:per|/)\s*gb\b|\bper gigabyte\b")
_PRICE_BETWEEN_BASES = tuple(
    (re.compile(r"\b" + words + _FEE + r"(?:per|/)[\s\-_]*" + _HOUR),
     re.compile(r"\bhourly" + _FEE + r"(?:per|/)[\s\-_]*" + words + r"(?![^\W\d_])"), name)
    for words, name in ((_GPU_WORDS, "gpu_hour"), (_NODE_WORDS, "node_hour")))
_GPU_HOUR_RE = re.compile(r"\b" + _GPU_WORDS + _SEP + _HOUR)
_GPU_HR_RE = re.compile(r"gpu[\s\-_]*hr")
_NODE_HOUR_RE = re.compile(r"\b" + _NODE_WORDS + _SEP + _HOUR)
_GPU_MONTH_RE = re.compile(r"\b" + _GPU_WORDS + _SEP + _MONTH)
_NODE_MONTH_RE = re.compile(r"\b" + _NODE_WORDS + _SEP + _MONTH)
_PER_HOUR_RE = re.compile(r"(?:per|/|pro|par|je|an|a|por|na)\s*" + _HOUR)
_HOURLY_RE = re.compile(r"\bhourly\b|\bper hr\b|_per_hr\b|\bper h\b")
_PER_MONTH_RE = re.compile(r"(?:per|/|pro|par|je|a|por|na)\s*" + _MONTH)
_MONTHLY_RE = re.compile(r"\bmonthly\b|\bmonatlich\b|\bmensuel")
_YEARLY_RE = re.compile(r"(?:per|/|pro|par)\s*(?:year|yr|jahr|an)\b|\bannual|\byearly\b")


@by_text(8192)  # a text by its words alone: several readers ask of a cell
def billing_unit(text: str) -> str | None:
    """The 'per ...' of a price: 'per node-hour' -> node_hour, '/TB-month' -> tb_month."""
    low = text.lower().replace("‑", "-")
    if _PCT_OF_RE.search(low):
        return "pct_of_spend"
    if _KWH_RE.search(low):
        return "kwh"
    if _KW_MONTH_RE.search(low) or _PER_KW_RE.search(low):
        return "kw_month"
    if _TB_MONTH_RE.search(low) or _PER_TB_RE.search(low) or _TO_MONTH_RE.search(low):
        return "tb_month"
    if _PER_GB_RE.search(low):
        return "gb"
    resource_time = _resource_time(low)
    if resource_time is not None:
        return resource_time
    # "node_price_per_hour", "hourly_rate_per_server": the price word between its bases
    for words_fee_hour, hourly_fee_words, name in _PRICE_BETWEEN_BASES:
        if words_fee_hour.search(low) or hourly_fee_words.search(low):
            return name
    if _GPU_HOUR_RE.search(low) or _GPU_HR_RE.search(low):
        return "gpu_hour"
    if _NODE_HOUR_RE.search(low):
        return "node_hour"
    if _GPU_MONTH_RE.search(low):
        return "gpu_month"
    if _NODE_MONTH_RE.search(low):
        return "node_month"
    time = _time_alone(low)
    if time in _TIMES:
        # "Monthly fee per rack", "Preis pro Monat je GPU": a time said alone and a resource
        # scoped by "per" make one resource x time basis.
        scoped = [r for r in _RESOURCES if scope_re(r).search(low)]
        if len(scoped) == 1:
            return f"{scoped[0]}_{time}"
    return time


def _time_alone(low: str) -> str | None:
    if _PER_HOUR_RE.search(low) or _HOURLY_RE.search(low):
        return "hour"
    if _PER_MONTH_RE.search(low) or _MONTHLY_RE.search(low):
        return "month"
    if _YEARLY_RE.search(low):
        return "year"
    match = _time_only_re().search(low)
    if match:
        return _basis_word(match.group(1))
    return None


_RESOURCES = ("gpu", "node", "rack")
_TIMES = ("hour", "day", "week", "month", "year")


def _alternatives(bases: tuple[str, ...]) -> str:
    # One letter is no word ("h", "m"), but one CJK ideograph is ("台" a machine, "月" month).
    words = [w for w, b in basis_vocabulary()["words"].items() if b in bases
             and (len(w) > 1 or ord(w[0]) >= 0x2E80)]
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))


@functools.cache
def _resource_time_re() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """'server/rok', 'node-week', 'per GPU per month', '€/nodo·hora' (resource, then time) and
    'ora-nodo', 'GPU-時間'... (time, then resource): one grammar over the basis words of
    evaltool/data/basis_words.yaml, for every resource x time pair."""
    per = "|".join(re.escape(w) for w in basis_vocabulary()["per"])
    sep = rf"\s*(?:[-_/·・×x]\s*)?(?:(?:{per})\s+)?"
    res, time = _alternatives(_RESOURCES), _alternatives(_TIMES)
    first = re.compile(rf"(?<![^\W\d_])({res}){sep}({time})(?![^\W\d_])", re.I)
    second = re.compile(rf"(?<![^\W\d_])({time})\s*[-_/·・]\s*({res})(?![^\W\d_])", re.I)
    return first, second


@functools.cache
def _time_only_re() -> re.Pattern[str]:
    """'/ rok', 'per week', 'pro Woche': a time basis alone."""
    per = "|".join(re.escape(w) for w in basis_vocabulary()["per"] if len(w) > 1)
    times = _alternatives(("day", "week", "year"))
    return re.compile(rf"(?:(?<![^\W\d_])(?:{per})\s+|/\s*)({times})(?![^\W\d_])", re.I)


def basis_per(kind: str) -> tuple[str, ...] | None:
    """'node_week' -> ('node', 'week'): the money parser's basis for a resource x time kind."""
    resource, _, time = kind.partition("_")
    return (resource, time) if resource in _RESOURCES and time in _TIMES else None


def resource_of(unit: str) -> str | None:
    """'node', 'Server', 'GPU', 'Knoten', 'チップ' -> the resource a unit column counts
    ('gpu' or 'node'); None for a unit that names neither ('TB', 'month', 'each')."""
    words = basis_vocabulary()["words"]
    found = {words.get(w.lower()) for w in re.findall(r"[^\W\d_]+", unit)} & {"gpu", "node"}
    return found.pop() if len(found) == 1 else None


@functools.cache
def _ascii_resource_words() -> tuple[str, ...] | None:
    """The resource words an ASCII text can hold, lower-cased; None when a word with other
    letters could match ASCII ignoring case ('ı' matches 'i'), so the gate would not be exact."""
    words = _alternatives(_RESOURCES).split("|")
    plain = tuple(re.sub(r"\\(.)", r"\1", w).lower() for w in words)
    if any(not w.isascii() and any(not ch.isascii() and re.fullmatch(
            re.escape(ch), chr(code), re.I) for ch in w for code in range(128)) for w in plain):
        return None
    return tuple(w for w in plain if w.isascii())


def _resource_time(low: str) -> str | None:
    """'gpu_week', 'node_year', 'rack_month'... for a price's basis, or None."""
    gate = _ascii_resource_words()
    if gate is not None and low.isascii() and low.islower() and \
            not any(map(low.__contains__, gate)):
        return None  # (both patterns need a resource word: the common case, found cheaply)
    first, second = _resource_time_re()
    match = first.search(low)
    if match:
        resource, time = _basis_word(match.group(1)), _basis_word(match.group(2))
        return f"{resource}_{time}" if resource and time else None
    match = second.search(low)
    if match:
        resource, time = _basis_word(match.group(2)), _basis_word(match.group(1))
        return f"{resource}_{time}" if resource and time else None
    return None


def _basis_word(text: str) -> str | None:
    """The basis a word names, whatever its case: the pattern matches case-insensitively,
    and "AYLIK" lowers to "aylik" where the vocabulary writes "aylık" (Turkish dotless i)."""
    words = basis_vocabulary()["words"]
    low = text.lower()
    if low in words:
        return str(words[low])
    folded = low.replace("ı", "i").replace("i\u0307", "i")
    return next((b for w, b in words.items() if w.replace("ı", "i") == folded), None)


# --- durations and placeholders -----------------------------------------------------------

_DURATION_RE = re.compile(
    NUMBER + r"[\s\-]*(business days?|working days?|werktage?|jours ouvr\w*|minutes?|mins?|hours?|"
    r"hrs?|h|stunden?|heures?|days?|tage?n?|jours?|weeks?|wochen?|semaines?|months?|mo|monate?n?|"
    r"mois|years?|yrs?|jahre?n?|ans?)\b", re.I)
_HOURS = {"minute": 1 / 60, "min": 1 / 60, "hour": 1, "hr": 1, "h": 1, "stunde": 1, "heure": 1,
          "day": 24, "tag": 24, "jour": 24, "week": 168, "woche": 168, "semaine": 168,
          "month": 730, "mo": 730, "monat": 730, "mois": 730, "year": 8760, "yr": 8760,
          "jahr": 8760, "an": 8760, "business": BUSINESS_DAY_HOURS,
          "working": BUSINESS_DAY_HOURS, "werktag": BUSINESS_DAY_HOURS,
          "ouvr": BUSINESS_DAY_HOURS}  # one business day spans 7/5 calendar days (values)


@dataclass(frozen=True)
class Duration:
    hours: float
    assumed: str | None = None  # why a word was read as a number ("next business day")

    @property
    def months(self) -> float:
        return self.hours / 730.0


def parse_duration(text: str) -> Duration | None:
    """'within 24 hours' -> 24 h; '36-month' -> 26280 h; '5 business days' -> 168 h;
    'next business day' -> 33.6 h (an assumption the caller reports)."""
    low = text.lower()
    match = _DURATION_RE.search(low)
    if match:
        unit = match.group(2).lower()
        factor = None
        for key, hours in _HOURS.items():
            if unit.startswith(key):
                factor = hours
                break
        if unit.startswith(("jours ouvr",)):
            factor = BUSINESS_DAY_HOURS
        if factor is not None:
            return Duration(to_number(match.group(1)) * factor)
    if re.search(r"next business day|\bnbd\b|next working day|nächster werktag|"
                 r"jour ouvré suivant", low):
        return Duration(BUSINESS_DAY_HOURS, assumed="'next business day' read as one business "
                        "day, 33.6 hours (5 business days span 7 calendar days)")
    if re.search(r"same day|same business day", low):
        return Duration(8.0, assumed="'same day' read as 8 hours")
    if re.search(r"\bone year\b|\bannual\b", low):
        return Duration(8760.0)
    return None


_TBD_RE = re.compile(r"^\s*(tbd|tba|tbc|n/?a|na|-+|\?+|call us|contact us|on request|upon request|"
                     r"ask|to be (?:confirmed|determined|defined)|k\.?\s?a\.?|sur demande|"
                     r"auf anfrage|nach vereinbarung|pending|see notes?)\s*[.!]?\s*$", re.I)


def is_placeholder(text: str) -> bool:
    """'TBD', 'call us', 'on request', '-': the vendor gave no value."""
    return bool(_TBD_RE.match(text))


# "per server per maand", "pro Knoten pro Monat", "/ node / week": a resource x time basis
# spelled out, which only a price has (a currency may stand in the value beside it).
BASIS_PHRASE_RE = re.compile(r"(?:\b(?:per|pro|par|por|je|za|för)\b|/)\s*[^\W\d_][\w-]*\s*"
                          r"(?:\b(?:per|pro|par|por|je|za|för|a|al|au)\b|/)\s*[^\W\d_]", re.I)


# An amount of money: a currency sign or code beside a figure ("$140.00", "EUR 2,10").
_AMOUNT_RE = re.compile(r"[$€£¥]\s?\d|\d\s?[$€£¥]|\b(?:USD|EUR|GBP|CHF|JPY)\s?\d|"
                        r"\d\s?(?:USD|EUR|GBP|CHF|JPY)\b")


def states_amount(text: str) -> bool:
    return bool(_AMOUNT_RE.search(text))


def labels_a_price(label: str, value: str) -> bool:
    """'Gaudi 3-server (8 accelerators), per server per maand | € 11.680,00': a short text
    that ends in a resource x time basis, with a figure beside it, labels that figure (its
    model number does not make it a sentence)."""
    return (len(label) <= 90 and bool(BASIS_PHRASE_RE.search(label))
            and bool(re.search(r"\d", value)))


# A unit column beside a bare number ("Arbeitsspeicher | GiB | 2.048").
UNIT_COLUMN = {"gb": "GB", "gib": "GiB", "tb": "TB", "tib": "TiB", "pb": "PB", "pib": "PiB",
                "go": "GB", "to": "TB"}


def same_dimension(unit: str, field_unit: str) -> bool:
    return unit.lower().rstrip("i").endswith("b") and field_unit.lower().endswith("b")
