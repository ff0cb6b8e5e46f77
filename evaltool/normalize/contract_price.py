"""A compute price stated only in the contract text, per GPU- or per node-hour.

"2. Price. USD 12.00 per node-hour, all-in", "Fees: 21,60 EUR pro Knoten und Stunde",
"each server is charged at $21.60 per server hour", "USD 2.70 per GPU-hour": the basis is
the money parser's own (evaltool/data/basis_words.yaml, every language it knows: node,
server, instance, host, machine, Knoten, nœud ...), so no English-only pattern decides
whether an amount is a price. A clause heading ("Price.", "2. Fees.") belongs to the
sentence after it. An amount per node-hour that is a service credit, a refund or a
penalty ("a credit of USD 20 per node-hour of downtime") is not the price.
"""

from __future__ import annotations

import re

from evaltool.grammar.money import is_list_price, money_spans
from evaltool.normalize import values as V

# The amount's basis runs to the next comma, semicolon or bracket ("per node-hour, all-in").
_BASIS_END = re.compile(r"[,;()]|\s-\s|\s–\s")
# A short piece with no figure ending in '.' or ':' is a clause heading ("2. Price.").
_HEADING_RE = re.compile(r"^(?:\d+(?:\.\d+)*[.)]?\s*)?[^\W\d_][^\d.:;]{0,30}[.:]$")
# Money per hour that is not the price: a credit, a refund, a penalty, a rebate.
_NOT_A_PRICE = re.compile(
    r"\bcredit\w*|\brefund\w*|\bpenalt\w*|\brebate\w*|\bcompensat\w*|\bliquidated\b|"
    r"gutschrift\w*|erstatt\w*|vertragsstraf\w*|\bcrédit\w*|rembours\w*|pénalit\w*|"
    r"\bcrédito\w*|reembols\w*|penalizaci\w*", re.I)
# A price stated to compare with, not offered: "public on-demand rate USD 98.32 per
# instance-hour, for reference only".
_REFERENCE_RE = re.compile(
    r"\bfor\s+(?:comparison|reference)\b|\breference\s+(?:only|price|rate)|\bnot\s+part\s+of\s+"
    r"th(?:is|e)\s+(?:offer|quote|proposal)|\bzum\s+vergleich|\bà\s+titre\s+(?:indicatif|de\s+"
    r"comparaison)|\bsolo\s+(?:como\s+)?referencia|\ba\s+titolo\s+di\s+confronto", re.I)
# A monthly amount in a letter that is another service's fee, not the compute price.
_OTHER_SERVICE_RE = re.compile(
    r"\bsupport\w*|\bstorage|\begress|\bcolo\w*|\bpower\b|\bstrom|\blicen[cs]\w*|"
    r"\bmanage\w*|\bsoporte|\balmacenamiento|\bspeicher|\bstockage|\bwartung|\bmaintenance|"
    r"\bhosting|\brack\s+space|\bremote\s+hands", re.I)
_HOURLY = {("gpu", "hour"), ("node", "hour")}
_PERIODIC = {(r, t) for r in ("gpu", "node") for t in ("day", "week", "month", "year")}


def not_offered(text: str) -> bool:
    """A price stated to compare with (a list price, a public rate 'for reference only')."""
    return is_list_price(text) or bool(_REFERENCE_RE.search(text))


def _pieces(text: str) -> list[str]:
    """Sentences, each with the clause heading that stands before it."""
    parts = re.split(r"(?<=[.;])\s+", " ".join(text.split()))
    out: list[str] = []
    heading = ""
    for part in parts:
        if _HEADING_RE.match(part) and len(part.split()) <= 4:
            heading = f"{heading} {part}".strip()
            continue
        out.append(f"{heading.rstrip('.:')}: {part}" if heading else part)
        heading = ""
    return out


def hourly_prices(text: str, currency: str | None = None, any_period: bool = False
                  ) -> list[tuple[V.Money, str]]:
    """Every amount in `text` stated per GPU-hour or per node-hour (or, with `any_period`,
    per GPU- or node- day, week, month or year: "USD 18,250 per node per month" in a letter),
    with its sentence, in order; amounts in a sentence about credits, refunds or penalties
    are left out."""
    found: list[tuple[V.Money, str]] = []
    for piece in _pieces(text):
        if _NOT_A_PRICE.search(piece) or not_offered(piece) or (
                any_period and _OTHER_SERVICE_RE.search(piece)):
            continue
        for start, end in money_spans(piece):
            stop = _BASIS_END.search(piece, end)
            window = piece[start:stop.start() if stop else end + 50].rstrip(" .")
            try:
                money = V.parse_money(window, currency=currency)
            except (V.ValueParseError, V.ValueConversionError):
                continue
            if (money.per in _HOURLY or (any_period and money.per in _PERIODIC)) and \
                    money.currency and money.amount > 0:
                found.append((money, piece))
    return found


def without_prices(text: str) -> str:
    """`text` with each amount of money and its basis blanked: in "£1.60 per GPU-hour, no
    InfiniBand (100GbE only)" the network's figure is not 'per GPU'."""
    if not any(ch.isdigit() for ch in text):
        return text
    for start, end in reversed(money_spans(text)):
        stop = _BASIS_END.search(text, end)
        text = text[:start] + " " + text[stop.start() if stop else len(text):]
    return text
