"""The words of a basis or a scope ("per GPU-hour", "€/Knoten/h", "400 Gb/s por GPU",
"monthly"), loaded once from evaltool/data/basis_words.yaml: one vocabulary for the money
parser, the scope of bandwidths and the billing unit of a line item; and the amounts a
billing API writes in a currency's minor unit (evaltool/data/minor_units.yaml)."""

from __future__ import annotations

import functools
import re
from typing import Any

from evaltool.resources import data_dir


@functools.cache
def basis_vocabulary() -> dict[str, Any]:
    """word -> canonical denominator, scaled units (per TiB, per PB), adverbs ("monthly")
    -> basis, and the words that introduce a basis ("per", "pro", "por")."""
    import yaml

    raw = yaml.safe_load((data_dir() / "basis_words.yaml").read_text(encoding="utf-8"))
    return {
        "words": {str(w): basis for basis, words in raw["basis"].items() for w in words},
        "scaled": {str(k): (str(v[0]), str(v[1])) for k, v in raw["scaled"].items()},
        "adverbs": {str(w): basis for basis, words in raw["adverbs"].items() for w in words},
        "per": [str(w) for w in raw["per"]],
        "per_weak": [str(w) for w in raw.get("per_weak", [])],
        "scope_only": [str(w) for w in raw.get("scope_only", [])],
        "and": [str(w) for w in raw.get("and", [])],
        "per_after": [str(w) for w in raw.get("per_after", [])],
        "piece": [str(w) for w in raw.get("piece", [])],
        "compound_links": [str(w) for w in raw.get("compound_links", [])],
    }


def words_for(basis: str) -> list[str]:
    """Every word that names this basis ('gpu' -> gpu, gpus, chip, acelerador, 基...)."""
    return sorted((w for w, b in basis_vocabulary()["words"].items() if b == basis),
                  key=len, reverse=True)


@functools.cache
def scope_re(basis: str) -> re.Pattern[str]:
    """'per GPU', '/GPU', 'each node', 'pro Knoten', 'por GPU', 'par nœud', 'pr. server' for a
    basis."""
    per = "|".join(re.escape(w) for w in basis_vocabulary()["per"])
    words = "|".join(re.escape(w) for w in words_for(basis) if len(w) > 1)
    return re.compile(rf"(?:\b(?:{per})\.?[\s-]+|/\s*)(?:{words})(?![\w])", re.IGNORECASE)


def time_of(unit: str) -> str | None:
    """'md.', 'Monat', 'měsíc', 'per month', 'mies.' -> 'month': the time basis of a unit that
    names a time and nothing else (no resource, no unit of storage or power)."""
    vocabulary = basis_vocabulary()
    words = [w.casefold() for w in re.findall(r"[^\W\d_]+", unit)]
    words = [w for w in words if w not in {p.casefold() for p in vocabulary["per"]}]
    if any(len(w) == 1 and w.isascii() and w != "h" for w in words):
        return None  # "u", "m", "d" alone are as often a unit ("u." = unidad) as a time
        # (an ideograph is a whole word: "月" is a month)
    bases = {vocabulary["words"].get(w) for w in words}
    times = bases & {"hour", "day", "week", "month", "year"}
    if not words or len(times) != 1 or bases != times:
        return None
    return str(times.pop())


@functools.cache
def _minor_units() -> dict[str, Any]:
    import yaml

    raw = yaml.safe_load((data_dir() / "minor_units.yaml").read_text(encoding="utf-8"))
    return {"object": str(raw["object_key"]), "keys": {str(k) for k in raw["amount_keys"]},
            "types": {str(t).lower() for t in raw["object_types"]},
            "zero": {str(c).upper() for c in raw["zero_decimal"]}}


def minor_unit_amount(node: dict[Any, Any], key: str) -> bool:
    """Whether ``node[key]`` is an amount in the currency's minor unit: a billing API's
    object ({"object": "item", "amount_subtotal": 3920}, evaltool/data/minor_units.yaml)."""
    units = _minor_units()
    kind = node.get(units["object"])
    return key in units["keys"] and isinstance(kind, str) and kind.lower() in units["types"]


def minor_unit_divisor(currency: str | None) -> float:
    """100 cents to the euro; 1 for a currency with no minor unit (JPY, KRW)."""
    return 1.0 if (currency or "").upper() in _minor_units()["zero"] else 100.0


@functools.cache
def once_re() -> re.Pattern[str]:
    """'einmalig', 'one-time', 'Installation', 'idriftsættelse': the words of a one-off charge."""
    words = sorted((w for w, b in basis_vocabulary()["adverbs"].items() if b == "once"),
                   key=len, reverse=True)
    # Scripts without spaces between words ("初期設定費用"): a word stands anywhere in them.
    cjk = [w for w in words if re.search(r"[\u3040-\u9fff\uac00-\ud7af]", w)]
    latin = [w for w in words if w not in cjk]
    return re.compile(r"(?<![^\W\d_])(?:" + "|".join(re.escape(w) for w in latin) +
                      r")(?![^\W\d_])" + "".join("|" + re.escape(w) for w in cjk), re.I)


def names_time_not_kw(label: str) -> bool:
    """'Colocation + drift pr. måned': a label that names a time basis and no kW."""
    words = basis_vocabulary()["words"]
    bases = {words.get(w.casefold()) for w in re.findall(r"[^\W\d_]+", label)}
    return "kw" not in bases and bool(bases & {"month", "year"})


@functools.cache
def _time_adverb_re() -> re.Pattern[str]:
    adverbs = sorted((w for w, b in basis_vocabulary()["adverbs"].items()
                      if b in ("hour", "day", "week", "month", "year")), key=len, reverse=True)
    cjk = [w for w in adverbs if re.search(r"[\u3040-\u9fff\uac00-\ud7af]", w)]
    latin = [w for w in adverbs if w not in cjk]
    return re.compile(r"(?<![\w-])(?:" + "|".join(re.escape(w) for w in latin) + r")(?![\w-])"
                      + "".join("|" + re.escape(w) for w in cjk), re.I)


def time_adverb(text: str) -> str | None:
    """'Partnersupport Premium, pr. måned', 'Wartung monatlich': the time basis an adverb
    states in a text (hour, day, week, month or year), or None."""
    found = _time_adverb_re().search(text)
    return basis_vocabulary()["adverbs"].get(found.group(0).casefold()) if found else None

