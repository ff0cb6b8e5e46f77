"""Volume tiers in a YAML or JSON offer: a list of ranges, each with its price.

An e-procurement export prices one line by volume ("tiered_pricing": [{min_qty: 1, max_qty:
63, unit_price: 1.95}, {min_qty: 64, ...}], or [{range: "1-63", price: 1.95}, ...]).  The list
is recognised by its shape, whatever its keys are called: every item holds a price, and two of
its figures ascend without overlap from item to item ("From | To"), or one text of each item is
a range.  Each tier becomes a candidate offer carrying its range; which tier is the offer's is
decided once its count is known (normalize/tiers.py), with a warning when nothing decides.
The basis of the prices is the line's unit of measure beside the list ("uom":
"accelerator-hour"), and what the tiers count is said beside it ("tier_basis": "number of
accelerators under contract") or in the keys themselves.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from itertools import permutations
from typing import Any

from evaltool.errors import Location, Problem
from evaltool.read.cells import Candidate, RawRecord, cell_text
from evaltool.read.tiers import price_basis, tiers_of_bounds, tiers_of_labels, unit_of
from evaltool.read.vocabulary import Vocabulary


@dataclass
class MappingTiers:
    """One tier list: its key path, each tier's (low, high, price, price key) and context."""

    keys: list[str]
    tiers: list[tuple[float, float | None, Any, str]]
    context: dict[str, Any]  # the scalars beside the list in its parent mapping
    bound_keys: tuple[str, ...] = ()  # the keys of each tier's range ("min_qty", "max_qty")
    applied: int | None = None  # the tier the document marks as the buyer's ("applies": true)

    def unit(self, basis: tuple[str, str] | None) -> str | None:
        """What the tiers count: said in their own keys ("min_gpus") or beside the list under
        a key that names the tiers ("tier_basis": "number of accelerators"), else the
        resource the price is per ("accelerator-hour")."""
        said = [*self.bound_keys, *(cell_text(v) for k, v in self.context.items()
                                    if isinstance(v, str) and _names_tiers(str(k)))]
        return unit_of(said) if unit_of(said) else (basis[0] if basis and basis[0] in (
            "gpu", "node") and not said[len(self.bound_keys):] else None)


def tier_list(items: list[Any], vocab: Vocabulary
              ) -> tuple[list[tuple[float, float | None, Any, str]], tuple[str, ...]] | None:
    """(low, high, price, price key) of each item when the list is a table of volume tiers,
    and the keys of the ranges."""
    if len(items) < 2 or not all(isinstance(x, dict) and x for x in items):
        return None
    keys = [k for k in items[0] if all(k in x for x in items)]
    price_key = next((k for k in keys if vocab.header_role(str(k)) == "unit_price"), None)
    if price_key is None:
        return None
    prices = [x[price_key] for x in items]
    if not all(isinstance(p, (int, float, str)) and not isinstance(p, bool) for p in prices):
        return None
    others = [k for k in items[0] if k != price_key]
    for lo_key, hi_key in permutations(others, 2):
        ranges = tiers_of_bounds([x.get(lo_key) for x in items], [x.get(hi_key) for x in items])
        if ranges:
            return [(lo, hi, p, str(price_key)) for (lo, hi), p in zip(
                ranges, prices, strict=True)], (str(lo_key), str(hi_key))
    for key in others:
        texts = [cell_text(x.get(key)) for x in items]
        found = tiers_of_labels(texts)
        if found:
            return [(lo, hi, p, str(price_key)) for (lo, hi), p in zip(
                found, prices, strict=True)], (str(key),)
    return None


def applied_tier(items: list[Any]) -> int | None:
    """The one tier a flag marks ({..., "applies": true}, {..., "selected": "yes"}): a key
    true (or yes) in exactly one tier and false or absent in every other; None otherwise."""
    keys = {k for x in items if isinstance(x, dict) for k in x}
    for key in keys:
        flags = [_flag(x.get(key)) if isinstance(x, dict) else None for x in items]
        if all(f is not None or x.get(key) is None for f, x in zip(flags, items, strict=True)) \
                and flags.count(True) == 1:
            return flags.index(True)
    return None


def _flag(value: Any) -> bool | None:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in ("yes", "no", "true", "false", "x"):
        return value.strip().lower() in ("yes", "true", "x")
    return None


_RESOURCE_WORDS = {"gpu": "GPU", "node": "node", "rack": "rack"}
_TIER_KEY_WORDS = ("tier", "volume", "band", "bracket", "staffel", "palier", "tramo", "scaglion",
                   "prog", "trin")


def _names_tiers(key: str) -> bool:
    """'tier_basis', 'volume_basis', 'Staffelbasis': a key that says what the tiers count."""
    low = key.lower()
    return any(w in low for w in _TIER_KEY_WORDS)


def line_text(line: dict[Any, Any], keys: list[str], file: str, vocab: Vocabulary
              ) -> list[Candidate]:
    """A tiered line's description, and its count when its key says what it counts, as the
    candidates any line's text gives (the line has no price of its own to read them with)."""
    return [Candidate(str(k), v, Location(file, key=".".join([*keys, str(k)])),
                      section=keys[-1] if keys else None)
            for k, v in line.items()
            if (isinstance(v, str) and vocab.header_role(str(k)) in ("description", "part"))
            or (vocab.header_role(str(k)) == "quantity" and vocab.match(str(k)) in (
                "gpu_count", "node_count") and isinstance(v, (int, float))
                and not isinstance(v, bool))]


def _range_text(low: float, high: float | None) -> str:
    return f"{low:g}+" if high is None else f"{low:g}-{high:g}"


def tier_records(record: RawRecord, found: list[MappingTiers], file: str, vocab: Vocabulary
                 ) -> list[RawRecord]:
    """One candidate offer per tier of the document's one tier list (a copy of the record with
    that tier's price); the record itself when it holds no tier list, or several."""
    if len(found) != 1:
        return [record]
    block = found[0]
    basis = next((per for v in block.context.values() if isinstance(v, str)
                  and (per := price_basis(cell_text(v))) is not None), None)
    unit = block.unit(basis)
    label = f"Price per {_RESOURCE_WORDS.get(basis[0], basis[0])}-{basis[1]}" if basis else \
        "unit price"
    group = ".".join(block.keys)
    # The tiered line's description names what its tiers price ("Intel Gaudi 3 ..., 8
    # accelerators per server"): read as the line's own text, as any line's description is;
    # its quantity, when its key says what it counts ("gpus: 96"), is the offer's count.
    described = line_text(block.context, block.keys[:-1], file, vocab)
    out: list[RawRecord] = []
    for index, (low, high, price, key) in enumerate(block.tiers, start=1):
        where = Location(file, key=f"{group}.{index - 1}.{key}")
        text = _range_text(low, high)
        target = copy.copy(record)
        target.id = f"{record.id}-tier-{index}"
        target.source = {**record.source, "option": f"Tier {index} ({text})", "key": where.key,
                         "tier": {"low": low, "high": high, "text": text, "unit": unit,
                                  "applied": block.applied == index - 1, "group": group}}
        target.candidates = [*record.candidates, *described, Candidate(label, price, where)]
        target.problems = [*record.problems, Problem(
            where, severity="info", code="mapping-tier-read",
            params={"tier": text, "key": group})]
        out.append(target)
    return out
