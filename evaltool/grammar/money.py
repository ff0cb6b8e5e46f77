"""Money in vendor text: amount, currency and billing basis; conversion to USD per GPU-hour.

Part of the one value parser (see evaltool.normalize.values for the rules and the API)."""


from __future__ import annotations

import functools
import math
import re
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Final

from evaltool.grammar.basis import basis_vocabulary
from evaltool.grammar.compound_basis import compound_basis
from evaltool.grammar.currency_signs import is_shared_sign, sign_currency
from evaltool.grammar.numbers import (
    _MONEY_MULT_RE,
    _MULTIPLIER,
    _NUM_SPACED,
    _QUALIFIERS,
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
    is_free_of_charge,
)
from evaltool.grammar.quantities import _LEADING_QUALIFIER_RE, unit_factor
from evaltool.grammar.textcache import by_text
from evaltool.grammar.valuetypes import (
    EXPECTED,
    HOURS_PER_MONTH,
    GpuHourPrice,
    MissingFxRate,
    Money,
    NoValueGiven,
    RawValue,
    ValueConversionError,
    ValueParseError,
)

if TYPE_CHECKING:
    pass


# --------------------------------------------------------------------------- money

_CURRENCY_SYMBOLS: Final[dict[str, str]] = {
    "US$": "USD", "A$": "AUD", "AU$": "AUD", "C$": "CAD", "CA$": "CAD", "S$": "SGD",
    "SG$": "SGD", "HK$": "HKD", "NZ$": "NZD", "R$": "BRL", "$": "USD", "€": "EUR",
    "£": "GBP", "CN¥": "CNY", "JP¥": "JPY", "¥": "JPY", "₹": "INR", "₩": "KRW",
    "RMB": "CNY", "元": "CNY", "SFr.": "CHF", "Fr.": "CHF",
    "zł": "PLN", "Kč": "CZK", "Ft": "HUF", "₽": "RUB", "₴": "UAH",
}
_CURRENCY_CODES: Final = frozenset(
    {
        "USD", "EUR", "GBP", "JPY", "CHF", "CAD", "AUD", "SGD", "CNY", "INR", "KRW",
        "SEK", "NOK", "DKK", "PLN", "HKD", "NZD", "BRL", "CZK", "ILS", "AED", "SAR",
        "HUF", "RON", "BGN", "ISK", "TRY", "RUB", "UAH", "MXN",
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
    rf"\b(?i:{'|'.join(_CURRENCY_WORDS)})\b|"
    r"(?<![^\W\d_])(?i:kr)\.?(?![^\W\d_]))"  # "kr": a crown, which one the document says
)
# A currency before the amount ("USD2.35", "$ 2.35", "-$500"), or after it ("24,80 €"),
# where a symbol that starts the next price ("8 $2.35") is not taken as trailing.
_MONEY_RE: Final = _LazyRegex(
    rf"(?:(?P<cur1>{_CURRENCY_RE})\s*(?P<sign1>[-−])?\s*"
    rf"|(?<![\w.,])(?P<sign>[-−])?\s*(?:(?P<cur2>{_CURRENCY_RE})\s*)?(?<![\w.,]))"
    rf"(?P<num>{_NUM_SPACED})(?:\s?{_MONEY_MULT_RE}(?![^\W\d_]))?"  # "Kč" is no "k"
    rf"(?:\s*(?P<cur3>{_CURRENCY_RE})(?!\s*[-−]?\s*\d))?"
)
_RANGE_GAP_RE: Final = _LazyRegex(r"\s*(?:-|–|—|to|bis)\s*")

_BASIS_TARGET_UNIT: Final = {"tb": "TB", "gb": "GB", "kwh": "kWh"}
_BASIS_ORDER: Final = ("gpu", "node", "rack", "tb", "gb", "kw", "kwh", "second", "minute", "hour",
                       "day", "week", "month", "year", "term", "once")
# "$3.5M over 3 years": a total for a stated term.
_OVER_TERM_RE: Final = _LazyRegex(
    r"\b(?:over|for|across|per)\s+(?:the\s+)?(?:\d+|one|two|three|four|five)[\s-]*"
    r"(?:years?|yrs?|months?)\b",
    re.IGNORECASE,
)


@functools.cache
def _per_re() -> re.Pattern[str]:
    """'per GPU-hour', '/ rack / mês', 'pr. GPU-time', 'za hodinu', 'par heure GPU': a word
    that introduces a basis (evaltool/data/basis_words.yaml), then a chain of basis words
    joined by '-' or '·', then perhaps one more basis word after a space or an "and" (the
    resource after the time, or the time after the resource: "pro Knoten und Stunde")."""
    vocabulary = basis_vocabulary()
    per = "|".join(re.escape(w) for w in sorted(
        {*vocabulary["per"], "a"} - set(vocabulary["scope_only"]), key=len, reverse=True))
    after = "|".join(re.escape(w) for w, b in sorted(vocabulary["words"].items(),
                                                      key=lambda i: -len(i[0]))
                     if len(w) > 2 and b in ("gpu", "node", "rack", "hour", "day", "week",
                                              "month", "year"))
    joins = "|".join(re.escape(w) for w in vocabulary["and"])
    return re.compile(
        r"(?:(?P<billed>\b(?:billed|billing|charged|granularity|facturé)\s+)?"
        rf"(?:(?<![^\W\d_])(?P<word>{per})(?![^\W\d_])\.?|/))\s*\(?\s*(?:1\s*)?"  # "za 1 GPU"
        r"(?P<chain>[^\W\d_]+(?:\s*[-·]\s*[^\W\d_]+)*)"
        rf"(?:\s*\([^()]{{0,30}}\))?"  # "je TiB (nutzbar) und Monat"
        rf"(?:\s+(?:(?:{joins})\s+)?(?P<next>{after})(?![^\W\d_]))?",
        re.IGNORECASE)


@functools.cache
def _per_after_re() -> re.Pattern[str]:
    """A resource followed by the word that divides by it ('GPU1基あたり', 'ノード当たり')."""
    vocabulary = basis_vocabulary()
    resources = "|".join(re.escape(w) for w, b in sorted(
        vocabulary["words"].items(), key=lambda i: -len(i[0])) if b in ("gpu", "node", "rack"))
    after = "|".join(re.escape(w) for w in vocabulary["per_after"])
    return re.compile(rf"(?<![^\W\d_\u3040-\u30ff\u3400-\u9fff])(?P<res>{resources})\s*"
                      rf"(?:1\s*)?(?:基|台|枚|ノード)?\s*(?:1\s*)?(?:時間|か月|ヶ月|月|年|日)?\s*"
                      rf"(?:{after})", re.IGNORECASE)


@functools.cache
def _adverb_re() -> re.Pattern[str]:
    """'monthly', 'p.a.', 'pr. måned', '時間あたり': whole words; a Japanese one also where it
    touches a figure or other script ('1時間あたり', 'GPU1基あたり')."""
    adverbs = sorted(basis_vocabulary()["adverbs"], key=len, reverse=True)
    latin = "|".join(re.escape(k) for k in adverbs if not _CJK_RE.search(k))
    cjk = "|".join(re.escape(k) for k in adverbs if _CJK_RE.search(k))
    return re.compile(rf"(?<![\w-])(?:{latin})(?![\w-])" + (f"|(?:{cjk})" if cjk else ""),
                      re.IGNORECASE)


_CJK_RE: Final = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uff66-\uff9f]")
# A word of one script, where vendors write two without a space ('GPU時間', 'ノードhour').
_SCRIPT_RUN_RE: Final = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uff66-\uff9f]+|"
                                   r"[^\W\d_\u3040-\u30ff\u3400-\u9fff\uff66-\uff9f]+")
_BILLED_BEFORE_RE: Final = _LazyRegex(
    r"\b(?:billed|invoiced|payable|paid|charged|factur\w*|abgerechnet|zahlbar)\s*$",
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


def _currency_of(token: str, fallback: str | None = None) -> tuple[str, list[str]]:
    """The ISO code of a currency token. A sign several currencies share ("$", "kr") means
    what the current document says (evaltool.read.currency_signs); one it cannot settle takes
    the ``fallback`` the caller knows (a header's currency) or is refused, never guessed."""
    if is_shared_sign(token):
        code = sign_currency(token) or (fallback.upper() if fallback else None)
        if code is None:
            raise ValueParseError(
                f"{token!r} is the currency of several countries and the document does not "
                "say which", found=token, expected=EXPECTED["money"])
        return code, []
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
    vocabulary = basis_vocabulary()

    def add(word: str) -> bool:
        key = word.casefold()
        if key in vocabulary["words"]:
            words.append(vocabulary["words"][key])
            return True
        if key in vocabulary["scaled"]:
            words.append(vocabulary["scaled"][key][0])
            scaled.append(vocabulary["scaled"][key])
            return True
        return False

    weak = {w.casefold() for w in vocabulary["per_weak"]}
    for match in _per_re().finditer(segment):
        if match["billed"]:
            if notes is not None:
                notes.append(f"billing granularity: {match.group(0).strip()!r}")
            continue
        chain = re.split(r"\s*[-·]\s*", match["chain"])
        word_before = (match["word"] or "").casefold()
        if word_before == "a" and vocabulary["words"].get(chain[0].casefold()) not in (
            "hour", "day", "week", "month", "year"
        ):
            continue  # "a" only introduces a time ("$2 a month")
        if word_before in weak and chain[0].casefold() not in vocabulary["words"] \
                and chain[0].casefold() not in vocabulary["scaled"] and not _joined(chain[0]):
            continue  # "na", "al", "za" are everyday words unless a basis word follows
        for word in chain:
            runs = _SCRIPT_RUN_RE.findall(word) if not _joined(word) else _joined(word)
            if not add(word) and not (len(runs) > 1 and all(add(run) for run in runs)):
                raise ValueParseError(
                    f"unknown price basis {word!r}", found=found, expected=EXPECTED["money"]
                )
        if match["next"]:
            add(match["next"])  # "per GPU hour"
    for match in _per_after_re().finditer(segment):  # "GPU1基あたり", "ノード当たり"
        add(match["res"])
    for match in _HYPHEN_BASIS_RE.finditer(segment):
        add(match["res"])
        add(match["time"])
    for match in _adverb_re().finditer(segment):
        if _BILLED_BEFORE_RE.search(segment[: match.start()]) and any(
                w in _TIME_BASES for w in words):
            # "$2.45 per GPU-hour, billed monthly": how often the invoice comes, not the basis.
            if notes is not None:
                notes.append(f"billing cycle: {match.group(0)!r}")
            continue
        adverb = match.group(0).casefold()  # ("AYLIK" folds to "aylik", written "aylık")
        words.append(vocabulary["adverbs"].get(adverb) or next(
            b for w, b in vocabulary["adverbs"].items() if w.replace("ı", "i") == adverb))
    if _OVER_TERM_RE.search(segment) and not any(w in _TIME_BASES for w in words):
        words.append("term")
    return words, scaled


def _joined(word: str) -> list[str]:
    """'GPUh', 'nodeh', 'uzlohodinu': a resource and a time written as one word."""
    return compound_basis(word)


_TIME_BASES: Final = frozenset(
    {"second", "minute", "hour", "day", "week", "month", "year", "term", "once"}
)


def _money_terms(text: str) -> list[re.Match[str]]:
    """Numbers with a currency next to them."""
    return [
        m for m in _MONEY_RE.finditer(text) if m["cur1"] or m["cur2"] or m["cur3"]
    ]


@by_text(4096)  # by the text alone: a cell's amounts are looked for by several readers
def money_spans(text: str) -> tuple[tuple[int, int], ...]:
    """Where each amount with a currency beside it stands in ``text`` (any currency the
    parser knows: codes, symbols, shared signs)."""
    return tuple(m.span() for m in _money_terms(text))


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
    if is_free_of_charge(text):
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
    amount, cur, term_notes = _money_amount(first, raw_s, expected, currency)
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
            other_amount, other_cur, _ = _money_amount(other, raw_s, expected, currency)
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


def _money_amount(match: re.Match[str], found: str, expected: str,
                  fallback: str | None = None) -> tuple[float, str, list[str]]:
    tokens = [t for t in (match["cur1"], match["cur2"], match["cur3"]) if t]
    currencies = {_currency_of(t, fallback)[0] for t in tokens}
    if len(currencies) > 1:
        raise ValueParseError(
            f"two currencies for one price ({', '.join(sorted(currencies))})",
            found=found, expected=expected,
        )
    cur, notes = _currency_of(tokens[0], fallback)
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
    match = re.search(rf"(?<![\w.,])(?P<num>{_NUM_SPACED})(?:\s?{_MONEY_MULT_RE}(?![^\W\d_]))?",
                      text)
    if match is None:
        raise ValueParseError("no amount found", found=raw_s, expected=expected)
    code = re.search(_CURRENCY_RE, text)
    notes: list[str] = []
    if code:
        cur, notes = _currency_of(code.group(0), currency)
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
    gpus_per_rack: int | None = None,
) -> GpuHourPrice:
    """The price per GPU-hour, and the formula used, from any compute price basis.

    Per GPU or per node (``gpus_per_node``) or, with no resource in the basis, for the
    whole offer (``gpu_count``); per hour, day, week, month (``hours_per_month``), year
    (12 months) or term (``term_months``). With ``fx_rates`` the result is in USD.
    """
    found = money.raw or f"{money.amount} {money.currency} per {'-'.join(money.per)}"
    expected = "a compute price per GPU or node and per hour, month, year or term"
    per = money.per
    resources = [w for w in per if w in ("gpu", "node", "rack", "tb", "gb", "kw", "kwh")]
    times = [w for w in per if w in _TIME_BASES and w != "once"]
    if any(r not in ("gpu", "node", "rack") for r in resources) or len(resources) > 1:
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
    elif resources == ["rack"]:
        if not gpus_per_rack:
            raise ValueConversionError(
                "a per-rack price needs the GPUs per rack", found=found,
                expected="the number of racks or GPUs per rack",
            )
        divisor *= gpus_per_rack
        steps.append(f"{gpus_per_rack} GPUs per rack")
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




_ONE_DOT_GROUP_RE = re.compile(r"(?<![\d.,])[1-9]\d{0,2}\.\d{3}(?![\d.,])")


def by_document_decimals(text: str, decimal_comma: bool) -> tuple[str, bool]:
    """'500.000 £' in a document that writes its decimals with a comma ('2,10') is 500000;
    in one that shows no convention it may be 500 or 500000 (returns True: say so)."""
    match = _ONE_DOT_GROUP_RE.search(text)
    if match is None:
        return text, False
    if decimal_comma:
        return text[:match.start()] + match.group(0).replace(".", "") + text[match.end():], False
    return text, True


# The label of a price before any discount: list, catalogue or rack rate.
_LIST_PRICE_RE = re.compile(
    r"\blist(?:e|en)?\s*(?:rate|price|prices|preis|pris|prijs)\b|\blistenpreis|\blistpris|"
    r"\blijstprijs|\bcatalog(?:ue)?\s*(?:rate|price)|\bprix\s+(?:catalogue|public)|"
    r"\bprecio\s+de\s+(?:lista|catálogo)|\bprezzo\s+di\s+listino|\bcena\s+katalogowa|"
    r"\brack\s+rate|\bbefore\s+discount|\bundiscounted|\bvor\s+rabatt", re.I)


def is_list_price(label: str) -> bool:
    """'List rate ($/VM-hour)', 'Listenpreis', 'precio de lista': the price before a
    discount, which the offer states only to show the discount."""
    return bool(_LIST_PRICE_RE.search(label))
