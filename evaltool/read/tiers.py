"""Quantity ranges of volume-tier tables and the basis words of a price grid.

A tier is a range of quantities ("1-31 GPUs", "32 ~ 127장", "128+", "ab 64 GPU", "od 100 kart",
"17 ve üzeri", "Tier 2 (96-191 GPUs)"), or two columns of figures ("From | To": 1 | 15, 16 | 63,
...).  A column of ranges is a tier column only when its ranges ascend without overlap, so a
date or a model number in one label never makes a table of tiers.  The words that join or open
a range, and the marks of an applied tier, are data (evaltool/data/price_grid_words.yaml).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from evaltool.grammar.basis import basis_vocabulary
from evaltool.read.text import basis_per, billing_unit, to_number
from evaltool.resources import data_dir

_DIGIT_RE = re.compile(r"\d")
_NUM = r"(\d{1,3}(?:[.,\u202f\u00a0 ]\d{3})+(?![\d])|\d+)"
_RESOURCES = ("gpu", "node", "rack")
_TIMES = ("second", "minute", "hour", "day", "week", "month", "year")
# Latin, Greek and Cyrillic runs apart from other scripts: "GPU당" is "GPU" and "당".
_TOKEN_RE = re.compile(r"[A-Za-z\u00C0-\u024F\u0370-\u04FF]+|[^\W\d_A-Za-z\u00C0-\u024F"
                       r"\u0370-\u04FF]+")


@dataclass(frozen=True)
class Tier:
    """A range of quantities; `high` None is open above; `unit` 'gpu', 'node' or None."""

    low: float
    high: float | None
    text: str
    unit: str | None = None

    def holds(self, count: float) -> bool:
        return count >= self.low and (self.high is None or count <= self.high)

    def as_dict(self) -> dict[str, Any]:
        return {"low": self.low, "high": self.high, "text": self.text, "unit": self.unit}


@functools.cache
def grid_words() -> dict[str, list[str]]:
    import yaml

    raw = yaml.safe_load((data_dir() / "price_grid_words.yaml").read_text(encoding="utf-8"))
    return {k: [str(w) for w in v] for k, v in raw.items()}


def _alt(key: str) -> str:
    words = sorted(grid_words()[key], key=len, reverse=True)
    return "|".join(re.escape(w) if not w[0].isalpha() else rf"\b{re.escape(w)}" +
                    (r"\b" if w[-1].isalpha() and w.isascii() else "") for w in words)


@functools.cache
def _range_res() -> tuple[re.Pattern[str], ...]:
    unit = r"\s*[^\W\d_]{0,12}\.?\s*"  # "32장 이상", "128 GPUs and above"
    return (
        re.compile(rf"(?<![\d.,]){_NUM}{unit}(?:{_alt('between')})\s*{_NUM}(?![\d.,]?\d)", re.I),
        re.compile(rf"(?<![\d.,]){_NUM}{unit}(?:{_alt('open_above_after')})", re.I),
        re.compile(rf"(?:{_alt('open_above_before')})\s*{_NUM}(?![\d.,]?\d)", re.I),
        re.compile(rf"(?:{_alt('open_below_before')})\s*{_NUM}(?![\d.,]?\d)", re.I),
        re.compile(rf"(?<![\d.,]){_NUM}{unit}(?:{_alt('open_below_after')})", re.I),
    )


def parse_range(text: str) -> tuple[float, float | None] | None:
    """'32 ~ 127장' -> (32, 127); '128+' -> (128, None); 'up to 31' -> (1, 31); else None."""
    if not _DIGIT_RE.search(text):
        return None  # every range states a figure
    between, above_after, above_before, below_before, below_after = _range_res()
    found = between.search(text)
    if found:
        low, high = to_number(found.group(1)), to_number(found.group(2))
        return (low, high) if low < high else None
    for pattern in (above_after, above_before):
        found = pattern.search(text)
        if found:
            return to_number(found.group(1)), None
    for pattern in (below_before, below_after):
        found = pattern.search(text)
        if found:
            return 1.0, to_number(found.group(1))
    return None


def ascending(ranges: list[tuple[float, float | None]]) -> bool:
    """Ranges one after another without overlap (the last may be open above)."""
    for (lo, hi), (lo2, _hi2) in pairwise(ranges):
        if hi is None or lo2 <= lo or lo2 < hi:
            return False
    return len(ranges) >= 2


def tiers_of_labels(texts: list[str]) -> list[tuple[float, float | None]] | None:
    """The ranges of a column of labels, or None unless every label is one and they ascend."""
    ranges = [parse_range(t) for t in texts]
    if any(r is None for r in ranges):
        return None
    clean = _closed([r for r in ranges if r is not None])
    return clean if ascending(clean) else None


def _closed(ranges: list[tuple[float, float | None]]) -> list[tuple[float, float | None]]:
    """'ab 1 Server', 'ab 10 Server' (each open above) end where the next begins; 'up to 99',
    'up to 199' begin where the one before ends."""
    out = list(ranges)
    for k in range(len(out) - 1):
        (lo, hi), (lo2, hi2) = out[k], out[k + 1]
        if hi is None and lo2 > lo:
            out[k] = (lo, lo2 - 1)
        if lo2 == 1.0 and hi is not None and hi2 is not None and hi2 > hi:
            out[k + 1] = (hi + 1, hi2)
    return out


def tiers_of_bounds(lows: list[Any], highs: list[Any]) -> list[tuple[float, float | None]] | None:
    """Two columns of whole numbers, 'From | To': each row starts after the one above ends
    (only the last row may leave 'To' empty)."""
    ranges: list[tuple[float, float | None]] = []
    for k, (lo, hi) in enumerate(zip(lows, highs, strict=True)):
        if not _whole(lo) or not (_whole(hi) or (hi in (None, "") and k == len(lows) - 1)):
            return None
        ranges.append((float(lo), float(hi) if _whole(hi) else None))
    if not ascending(ranges):
        return None
    if any(hi is not None and abs(lo2 - hi - 1) > 1e-9 and lo2 != hi
           for (_lo, hi), (lo2, _h) in pairwise(ranges)):
        return None
    return ranges


def _whole(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and \
        float(value).is_integer() and value >= 0


def basis_words(text: str) -> tuple[list[str], list[str]]:
    """The resource words ('gpu', 'node', 'rack') and time words of a text, in order."""
    words = basis_vocabulary()["words"]
    resources: list[str] = []
    times: list[str] = []
    for match in _TOKEN_RE.finditer(text):
        token = match.group(0)
        kinds = []
        # one letter is a basis only right after a slash or a hyphen ("€/GPU/h")
        if len(token) == 1 and token.isascii() and (
                match.start() == 0 or text[match.start() - 1] not in "/-"):
            continue
        kind = words.get(token.lower()) or words.get(token)
        if kind is not None:
            kinds.append(kind)
        elif not token.isascii():  # "1시간", "개월", "GPU당": a CJK word inside a run
            kinds += [b for w, b in words.items() if not w.isascii() and ord(w[0]) >= 0x2E80
                      and w in token]
        for kind in kinds:
            if kind in _RESOURCES and kind not in resources:
                resources.append(kind)
            elif kind in _TIMES and kind not in times:
                times.append(kind)
    for found in _adverb_re().finditer(text.lower()):  # "monthly", "aylık", "月額"
        kind = basis_vocabulary()["adverbs"].get(found.group(0))
        if kind in _TIMES and kind not in times:
            times.append(kind)
    return resources, times


@functools.cache
def _adverb_re() -> re.Pattern[str]:
    words = sorted(basis_vocabulary()["adverbs"], key=len, reverse=True)
    return re.compile("|".join(rf"(?<!\w){re.escape(w.lower())}(?!\w)" for w in words))


def price_basis(text: str) -> tuple[str, str] | None:
    """'AUD per GPU-hour, ex GST' -> ('gpu', 'hour'): one resource and one time, or None."""
    resources, times = basis_words(text)
    if len(resources) == 1 and len(times) == 1:
        return resources[0], times[0]
    kind = billing_unit(text)  # "per GPU-hour, billed monthly": the joined basis
    per = basis_per(kind) if kind else None
    if per is not None and len(per) == 2 and per[0] in _RESOURCES and per[1] in _TIMES:
        return per[0], per[1]
    return None


def unit_of(texts: list[str]) -> str | None:
    """What a tier counts ('gpu' or 'node'), when its texts name exactly one of them."""
    found = {r for text in texts for r in basis_words(text)[0]}
    found.discard("rack")
    return found.pop() if len(found) == 1 else None


def marks_applied(text: str) -> bool:
    """'✓ (12 sunucu)', '← 귀사 적용 구간', 'Tramo aplicado': says this tier applies."""
    low = text.lower()
    return any((w in low) if not w.isascii() or not w[0].isalpha()
               else re.search(rf"\b{re.escape(w)}\b", low) is not None
               for w in grid_words()["applied"])


def months_in_label(text: str) -> float | None:
    """'12개월 약정', 'Angajament 12 luni', '36-month reserved', '1-year CUD' -> months; None
    unless the label states exactly one figure of months or years."""
    words = basis_vocabulary()["words"]
    found: list[float] = []
    for match in re.finditer(r"(?<![\d.,])(\d{1,3})(?![\d.,])[\s-]*", text):
        token = _TOKEN_RE.match(text, match.end())
        if token is None:
            continue
        kind = words.get(token.group(0).lower()) or words.get(token.group(0))
        if kind in ("month", "year") and len(token.group(0)) > 1:
            found.append(float(match.group(1)) * (12 if kind == "year" else 1))
    return found[0] if len(found) == 1 else None
