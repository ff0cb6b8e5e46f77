"""Numbers for humans: "$12.4M", "38 days", "$2.35/GPU-h", "41%".

The memo is read by a CFO in two minutes, so every figure gets three significant digits
and its unit; exports keep the raw values. Anything absent or not a number prints as "—".
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Mapping
from typing import Any

DASH = "—"
MINUS = "−"  # typographic minus: a hyphen next to a dollar sign reads as a dash

# C0/C1 control characters (ESC starts terminal escape sequences) except tab and newline.
# C0/C1 controls, and the bidirectional overrides and isolates (CVE-2021-42574)
_CONTROL_RE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
# Whole ANSI escape sequences (CSI "ESC [ ... m", OSC "ESC ] ... BEL"), removed before the
# lone control characters so no "[2J" debris is left in the text.
_ANSI_RE = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[@-_]")


# C0 controls but tab and newline, CR not followed by LF (CSV ends lines with CRLF), DEL,
# C1 controls (0x9B is a one-byte CSI on many terminals), and the bidirectional overrides
# and isolates that make text read differently from how it is stored (CVE-2021-42574).
_TERMINAL_CONTROL_RE = re.compile(
    "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]|\r(?!\n)"
)


def terminal_safe(text: str) -> str:
    """`text` with every control character that could steer a terminal made visible."""
    return _TERMINAL_CONTROL_RE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def as_number(value: Any) -> float | None:
    """A finite float, or None for None, bools, text and NaN/inf."""
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        number = float(value)
        return number if math.isfinite(number) else None
    return None


def _sig(x: float, digits: int = 3) -> str:
    """x with `digits` significant digits, no trailing zeros beyond what the size needs."""
    if x == 0:
        return "0"
    magnitude = math.floor(math.log10(abs(x)))
    decimals = max(0, digits - 1 - magnitude)
    text = f"{x:.{decimals}f}"
    # 9.996 rounds to "10.00": drop the extra digit so "$10.0M" stays three digits.
    if "." in text and len(text.replace("-", "").replace(".", "").lstrip("0")) > digits:
        text = text[:-1].rstrip(".")
    return text


def usd(value: Any) -> str:
    """Money with a scale suffix: $12.4M, $980k, $1.23B, $512."""
    x = as_number(value)
    if x is None:
        return DASH
    sign = MINUS if x < 0 else ""
    x = abs(x)
    for threshold, suffix in ((1e9, "B"), (1e6, "M"), (1e3, "k")):
        if x >= threshold * 0.9995:
            return f"{sign}${_sig(x / threshold)}{suffix}"
    return f"{sign}${x:,.0f}"


def price(value: Any, decimals: int = 2) -> str:
    """A unit price that always fits its column: "$2.35", "$854", "$8.55k" — never "$8,546…".

    Cents matter below $100 (the usual GPU-hour); above, whole dollars; from $1,000 the
    scale suffix of usd(), so a tiny job carrying a large minimum stays legible.
    """
    x = as_number(value)
    if x is None:
        return DASH
    if round(abs(x), decimals) < 100:
        sign = MINUS if x < 0 else ""
        return f"{sign}${abs(x):.{decimals}f}"
    if abs(x) < 999.5:
        return f"{MINUS if x < 0 else ''}${abs(x):.0f}"
    return usd(x)


def usd_per_gpu_hour(value: Any) -> str:
    x = as_number(value)
    return DASH if x is None else f"{price(x)}/GPU-h"


def usd_plain(value: Any, decimals: int = 2) -> str:
    x = as_number(value)
    return DASH if x is None else f"${x:,.{decimals}f}"


def days(value: Any) -> str:
    """Whole days from ten up; one decimal below ten (a 3.5-day job is not "4 days")."""
    x = as_number(value)
    if x is None:
        return DASH
    if x < 0.95:  # a fine-tuning job of a few hours is not "0 days"
        hours = max(x * 24, 0.1)
        return f"{hours:.1f} h" if hours < 9.95 else f"{hours:.0f} h"
    text = f"{x:,.0f}" if x >= 9.95 else f"{x:.1f}".removesuffix(".0")
    return f"{text} day" if text == "1" else f"{text} days"


def pct(value: Any, decimals: int = 0) -> str:
    """A fraction 0..1 as a percentage: 0.41 → "41%"."""
    x = as_number(value)
    if x is None:
        return DASH
    return f"{x * 100:.{decimals}f}%"


def pct_points(value: Any, decimals: int = 1) -> str:
    """A value already in percent: 7.3 → "7.3%"."""
    x = as_number(value)
    return DASH if x is None else f"{x:.{decimals}f}%"


def score(value: Any) -> str:
    x = as_number(value)
    return DASH if x is None else f"{x:.1f}"


def points(value: Any) -> str:
    x = as_number(value)
    if x is None:
        return DASH
    return f"{x:.1f} point" if abs(x) == 1 else f"{x:.1f} points"


def count(value: Any) -> str:
    x = as_number(value)
    return DASH if x is None else f"{x:,.0f}"


def number(value: Any) -> str:
    """A plain value of unknown unit: whole numbers as such, else three significant digits."""
    x = as_number(value)
    if x is None:
        return DASH
    if abs(x) >= 1000 or x == int(x):
        return f"{x:,.0f}"
    return _sig(x)


def any_value(obj: Any) -> str:
    """Any value found in a criterion or an assumption, printed briefly."""
    if obj is None:
        return DASH
    if isinstance(obj, bool):
        return "yes" if obj else "no"
    if isinstance(obj, int | float):
        return number(obj)
    if isinstance(obj, Mapping):
        return ", ".join(f"{clean_text(k)}: {any_value(v)}" for k, v in obj.items()) or DASH
    if isinstance(obj, list | tuple):
        return ", ".join(any_value(v) for v in obj) or DASH
    return clean_text(str(obj))


def clean_text(text: Any, limit: int | None = None) -> str:
    """Vendor text made printable: control characters removed, whitespace collapsed, cut."""
    if text is None:
        return ""
    out = " ".join(_CONTROL_RE.sub(" ", _ANSI_RE.sub("", str(text))).split())
    if limit is not None and len(out) > limit:
        cut = out[: max(1, limit - 1)].rstrip()
        space = cut.rfind(" ")
        if space > limit * 0.6:
            cut = cut[:space]
        out = cut.rstrip(",;:—–-/·( ") + "…"
    return out


# A vendor's legal form, so "NimbusGPU" in an offer name matches the vendor "NimbusGPU Inc.".
_LEGAL_FORM_RE = re.compile(
    r"[,\s]+(?:inc|incorporated|ltd|limited|llc|llp|gmbh|ag|se|sa|sas|sarl|bv|nv|plc|corp|"
    r"corporation|co|company|oy|ab|as|kk|pte|pty)\.?$",
    re.IGNORECASE,
)
_SEPARATORS = " \t—–-:|/,·"


def _tidy_name(text: str) -> str:
    """What is left of a name once a word is taken out: no empty brackets or lone dashes."""
    out = re.sub(r"\(\s*\)|\[\s*\]", " ", text)
    out = re.sub(r"\(\s+", "(", re.sub(r"\s+\)", ")", out))
    out = re.sub(r"^\s*['’]s\b", "", out)  # "NimbusGPU's reserved cluster"
    out = re.sub(r"\s*[—–|·]\s*(?=\(|$)", " ", out)  # a dash left before "(" or the end
    out = re.sub(r"([—–|·])(?:\s*[—–|·])+", r"\1", out)  # doubled separators
    out = re.sub(r"\s+(?:by|from|of|at)\s*$", "", out.strip(_SEPARATORS), flags=re.IGNORECASE)
    return " ".join(out.strip(_SEPARATORS).split())


def offer_name(vendor: Any, name: Any) -> str:
    """The offer's own name, without the vendor's when it repeats it.

    "Quotation Q-77812 — Ironbridge Systems (NVIDIA Elite Partner)" from "Ironbridge
    Systems" reads "Quotation Q-77812 (NVIDIA Elite Partner)"; a name that is only the
    vendor's gives "".
    """
    text, who = clean_text(name), clean_text(vendor)
    if not text or not who:
        return text
    short = _LEGAL_FORM_RE.sub("", who).strip()
    folded = text.casefold()
    for candidate in dict.fromkeys((who, short)):
        # The substring test first: at thousands of vendors, one pattern compiled per name
        # (each new to the regex cache) cost more than the rest of the report.
        if len(candidate) < 3 or candidate.casefold() not in folded:
            continue
        pattern = re.compile(r"(?<!\w)" + re.escape(candidate) + r"(?!\w)", re.IGNORECASE)
        if pattern.search(text):
            return _tidy_name(pattern.sub(" ", text))
    return text


# "$21.08M" in a sentence next to "$21.1M" in a table: amounts with a scale suffix are
# re-rounded to the three significant digits every other figure of the memo has.
_MONEY_RE = re.compile(r"(?<![\w$])([−-]?)\$(\d{1,3}(?:,\d{3})*(?:\.\d+)?|\d+(?:\.\d+)?)([kMB])\b")
_SCALE = {"k": 1e3, "M": 1e6, "B": 1e9}


def tidy_money(text: str) -> str:
    """Sums written with more than three significant digits, rounded like usd()."""

    def round_one(match: re.Match[str]) -> str:
        digits = match.group(2).replace(",", "")
        if len(digits.replace(".", "").lstrip("0")) <= 3:
            return match.group(0)
        value = float(digits) * _SCALE[match.group(3)]
        return usd(-value if match.group(1) else value)

    return _MONEY_RE.sub(round_one, text)


def where(location: Any) -> str:
    """A location dict as "file › sheet › cell" (or key/section); "" when unknown."""
    if not isinstance(location, Mapping):
        return clean_text(location) if location else ""
    parts = [
        clean_text(location[name])
        for name in ("file", "sheet", "cell", "key", "section", "line")
        if location.get(name) not in (None, "")
    ]
    return " › ".join(parts)


def label(name: Any) -> str:
    """A machine name as words: "weak_commitment" → "weak commitment"."""
    return clean_text(str(name).replace("_", " ")) if name is not None else ""


# Unit suffixes of canonical field names (PRODUCT.md "Canonical offer fields and units").
_UNIT_SUFFIXES: tuple[tuple[str, str], ...] = (
    ("_usd_per_gpu_hour", "$/GPU-h"),
    ("_usd_per_tb_month", "$/TB-month"),
    ("_usd_per_gb", "$/GB"),
    ("_usd_per_month", "$/month"),
    ("_usd", "$"),
    ("_gbit_s_per_node", "Gbit/s per node"),
    ("_gbit_s_per_gpu", "Gbit/s per GPU"),
    ("_gbyte_s_per_gpu", "GB/s per GPU"),
    ("_gbit_s", "Gbit/s"),
    ("_gbyte_s", "GB/s"),
    ("_tflops_per_gpu", "TFLOPS per GPU"),
    ("_gb_per_node", "GB per node"),
    ("_tb_per_node", "TB per node"),
    ("_gb", "GB"),
    ("_tb", "TB"),
    ("_pct", "%"),
    ("_hours", "hours"),
    ("_days", "days"),
    ("_months", "months"),
)
_ACRONYMS = {"gpu": "GPU", "cpu": "CPU", "sla": "SLA", "mfu": "MFU", "hw": "hardware",
             "nvme": "NVMe", "usd": "USD", "tflops": "TFLOPS", "fx": "FX"}


def field_label(name: Any, *, with_unit: bool = True) -> str:
    """A field or criterion name for people: "storage_read_gbyte_s" → "Storage read (GB/s)"."""
    if name is None:
        return ""
    text = str(name)
    unit = ""
    for suffix, shown in _UNIT_SUFFIXES:
        if text.endswith(suffix) and len(text) > len(suffix):
            text, unit = text[: -len(suffix)], shown
            break
    words = [_ACRONYMS.get(w, w) for w in text.split("_") if w]
    out = " ".join(words)
    out = out[:1].upper() + out[1:]
    return clean_text(f"{out} ({unit})" if unit and with_unit else out)


def field_value(name: Any, value: Any) -> str:
    """A canonical field's value with the unit its name carries: 24.0 hours → "24 h".

    Units follow the name suffixes of PRODUCT.md ("Canonical offer fields and units").
    """
    x = as_number(value)
    if x is None:
        return any_value(value)
    text = str(name)
    for suffix, render in _VALUE_RENDERERS:
        if text.endswith(suffix):
            return str(render(x))
    for suffix, unit in _UNIT_SUFFIXES:
        if text.endswith(suffix):
            return f"{number(x)} {unit}"
    return number(x)


_VALUE_RENDERERS: tuple[tuple[str, Any], ...] = (
    ("_usd_per_gpu_hour", usd_per_gpu_hour),
    ("_usd_per_tb_month", lambda x: f"{price(x)}/TB-month"),
    ("_usd_per_gb", lambda x: f"{price(x, 3)}/GB"),
    ("_usd_per_kwh", lambda x: f"{price(x, 3)}/kWh"),
    ("_usd_per_kw_month", lambda x: f"{price(x)}/kW-month"),
    ("_usd_per_month", lambda x: f"{usd(x)}/month"),
    ("_usd", usd),
    ("_pct", lambda x: f"{number(x)}%"),
    ("_hours", lambda x: f"{number(x)} h"),
    ("_days", days),
)


CATEGORY_LABELS: dict[str, str] = {
    "compute": "Compute",
    "network": "Network",
    "storage": "Storage",
    "lock_in": "Lock-in",
    "contract": "Contract",
    "cost": "Cost",
    "operations": "Operations",
}


CATEGORY_ORDER = ("compute", "network", "storage", "lock_in", "contract", "cost", "operations")


def category(name: str) -> str:
    return CATEGORY_LABELS.get(name, label(name).capitalize())


def order_categories(names: list[str]) -> list[str]:
    """The six product categories in PRODUCT.md's order, then any the rubric adds."""
    known = [c for c in CATEGORY_ORDER if c in names]
    return known + sorted(n for n in names if n not in CATEGORY_ORDER)


# --------------------------------------------------------------------------- safe text for outputs

# Text a spreadsheet would run as a formula starts with one of these (OWASP CSV injection).
FORMULA_PREFIXES = ("=", "+", "-", "@", "\t", "\r")
_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]<>|#!~])")


def neutralise(text: str) -> str:
    """Text that a spreadsheet would run as a formula, made inert with a leading apostrophe."""
    return "'" + text if text.startswith(FORMULA_PREFIXES) else text


def md(text: Any) -> str:
    """Vendor text made inert in Markdown: no HTML, links, emphasis or table breaks."""
    cleaned = clean_text(text).replace("&", "&amp;")
    return _MD_SPECIAL.sub(r"\\\1", cleaned)


def _char_width(ch: str) -> int:
    if unicodedata.combining(ch):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def display_width(text: str) -> int:
    return sum(_char_width(ch) for ch in text)


def fit(text: str, width: int, right: bool = False) -> str:
    """`text` cut (with …, at a word boundary when one is near) or padded to `width` cells."""
    text = terminal_safe(clean_text(text))
    if display_width(text) > width:
        out, used = "", 0
        for ch in text:
            w = _char_width(ch)
            if used + w > width - 1:
                break
            out += ch
            used += w
        space = out.rfind(" ")
        if space >= width * 0.6:
            out = out[:space]
        text = out.rstrip(" ,;:—–-/·(") + "…"
    pad = " " * (width - display_width(text))
    return pad + text if right else text + pad
