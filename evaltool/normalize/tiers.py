"""Volume tiers: which row of a tiered price table is the offer's.

The reader gives every row of a volume-tier table as its own candidate offer, with the range it
covers ("32 ~ 127장", "5 – 16" servers) and whether the document marks it as the buyer's
(read/crosstab.py).  Here, once each candidate's GPU count is known, one tier per price column
is kept: the one the document marks, else the one whose range holds the offer's count.  When
neither decides (the count is unknown, the table does not say what it counts, or no range holds
it) every tier stays visible with a warning: a tier is never picked silently.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from evaltool.errors import Location, Problem
from evaltool.models import Offer

_UNIT_FIELD = {"gpu": "gpu_count", "node": "node_count"}
_UNIT_WORD = {"gpu": "GPUs", "node": "servers"}


def choose_tiers(offers: Sequence[Offer]) -> list[Offer]:
    """The offers with every volume-tier group reduced to its applicable tier."""
    groups: dict[tuple[str, str], list[Offer]] = {}
    for offer in offers:
        tier = offer.source.get("tier")
        if isinstance(tier, dict):
            key = (str(offer.source.get("file", "")), str(tier.get("group", "")))
            groups.setdefault(key, []).append(offer)
    dropped: set[int] = set()
    for members in groups.values():
        dropped |= {id(o) for o in _choose(members)}
    return [o for o in offers if id(o) not in dropped]


def _where(offer: Offer) -> Location:
    return Location(str(offer.source.get("file", "")), sheet=offer.source.get("sheet"),
                    cell=offer.source.get("cell"))


def _tier(offer: Offer) -> dict[str, Any]:
    tier = offer.source.get("tier")
    return tier if isinstance(tier, dict) else {}


def _holds(tier: dict[str, Any], count: float) -> bool:
    low, high = tier.get("low"), tier.get("high")
    return isinstance(low, (int, float)) and count >= low and (
        high is None or (isinstance(high, (int, float)) and count <= high))


def _count(offer: Offer, unit: str | None) -> float | None:
    name = _UNIT_FIELD.get(unit or "")
    value = getattr(offer.fields, name, None) if name else None
    return float(value) if isinstance(value, (int, float)) else None


def _choose(members: list[Offer]) -> list[Offer]:
    """The members that are not the offer's tier (to drop); notes on the kept ones."""
    if len(members) < 2:
        lone = members[0] if members else None
        unit = _tier(lone).get("unit") if lone else None
        count = _count(lone, unit) if lone else None
        if lone is not None and count is not None and not _holds(_tier(lone), count):
            _warn(lone, "volume-tier-unresolved", {  # the only tier left does not apply
                "tier": _tier(lone).get("text"), "tiers": _tier(lone).get("text"),
                "reason": f"no tier holds {_fmt(count)} {_UNIT_WORD.get(unit or '', 'units')}"})
        return []
    marked = [o for o in members if _tier(o).get("applied")]
    unit = _tier(members[0]).get("unit")
    counts = {c for o in members if (c := _count(o, unit)) is not None}
    count = counts.pop() if len(counts) == 1 else None
    holding = [o for o in members if count is not None and _holds(_tier(o), count)]
    others = ", ".join(f"{_tier(o).get('text')}" for o in members)
    if len(marked) == 1:
        keep = marked[0]
        how = "the document marks it"
        if count is not None and holding and holding[0] is not keep:
            _warn(keep, "volume-tier-mark-disagrees", {
                "tier": _tier(keep).get("text"), "count": _fmt(count),
                "unit": _UNIT_WORD.get(unit or "", "units"),
                "other": _tier(holding[0]).get("text")})
    elif len(holding) == 1:
        keep = holding[0]
        how = f"{_fmt(count or 0)} {_UNIT_WORD.get(unit or '', 'units')} fall in it"
    else:
        reason = ("the table does not say whether it counts GPUs or servers" if unit is None
                  else "the offer's count is not known" if count is None
                  else f"no tier holds {_fmt(count)} {_UNIT_WORD.get(unit, 'units')}")
        for offer in members:
            _warn(offer, "volume-tier-unresolved", {"tier": _tier(offer).get("text"),
                                                    "tiers": others, "reason": reason})
        return []
    keep.warnings.append(Problem(_where(keep), severity="info", code="volume-tier-chosen",
                                 params={"tier": _tier(keep).get("text"), "how": how,
                                         "tiers": others}).to_dict())
    return [o for o in members if o is not keep]


def _warn(offer: Offer, code: str, params: dict[str, Any]) -> None:
    problem = Problem(_where(offer), severity="warning", code=code, params=params,
                      field="price_usd_per_gpu_hour")
    offer.warnings.append(problem.to_dict())


def _fmt(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"
