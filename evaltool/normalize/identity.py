"""Offer identity across a run: unique ids, and the same offer passed twice.

An offer's id comes from its file name (`nimbus-h100.xlsx` -> `nimbus-h100`). Two vendors
may send files of the same name, kept in different folders; an id shared by two offers would
merge them in the ranking and the sensitivity analysis (the clear winner "wins in 0% of
weightings"). So ids that collide are made path-aware: the folder name is put in front, and a
counter after when even that is shared. Ids that do not collide are left as they are.

Two offers with the same canonical fields are most likely one offer given twice (a copy in
another folder, a re-sent file): both stay, each carrying a `duplicate-offer` warning that
names the other.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path

from evaltool.errors import Location, Problem
from evaltool.models import Offer
from evaltool.read.layout import slug


def _folder_slug(offer: Offer) -> str:
    parent = Path(str(offer.source.get("file", ""))).parent.name
    return slug(parent) if parent else "input"


def unique_ids(offers: Sequence[Offer]) -> list[Offer]:
    """The offers with ids unique across the run (path-aware where names collide)."""
    by_id: dict[str, list[int]] = defaultdict(list)
    for index, offer in enumerate(offers):
        by_id[offer.id].append(index)
    new_ids = [offer.id for offer in offers]
    for indices in by_id.values():
        if len(indices) < 2:
            continue
        for index in indices:
            new_ids[index] = f"{_folder_slug(offers[index])}-{offers[index].id}"
    taken: set[str] = set()
    reserved = {i for i, offer in enumerate(offers) if new_ids[i] == offer.id}
    taken.update(new_ids[i] for i in reserved)
    for index, candidate in enumerate(new_ids):
        if index in reserved:
            continue
        unique, counter = candidate, 2
        while unique in taken:
            unique, counter = f"{candidate}-{counter}", counter + 1
        taken.add(unique)
        new_ids[index] = unique
    return [offer if offer.id == new_id else offer.model_copy(update={"id": new_id})
            for offer, new_id in zip(offers, new_ids, strict=True)]


_NAMED_COPIES = 5  # the other copies a duplicate-offer warning names; it counts the rest


def _fingerprint(offer: Offer) -> str:
    fields = offer.fields.model_dump(mode="json", exclude_none=True)
    return json.dumps(fields, sort_keys=True, default=str)


def _where(offer: Offer) -> str:
    return str(Location(str(offer.source.get("file", "?")), sheet=offer.source.get("sheet"),
                        key=offer.source.get("key")))


def flag_duplicates(offers: Sequence[Offer]) -> list[Offer]:
    """Each offer whose canonical fields equal another's gets a `duplicate-offer` warning."""
    groups: dict[str, list[int]] = defaultdict(list)
    for index, offer in enumerate(offers):
        groups[_fingerprint(offer)].append(index)
    out = list(offers)
    for indices in groups.values():
        if len(indices) < 2:
            continue
        # Each copy names the first few others, not all: 2,000 copies of one row naming the
        # other 1,999 each was quadratic (50 s and gigabytes of text; fuzz case 2497).
        named = [f"{offers[i].id} ({_where(offers[i])})" for i in indices[:_NAMED_COPIES + 1]]
        for position, index in enumerate(indices):
            offer = offers[index]
            shown = [n for j, n in enumerate(named) if j != position][:_NAMED_COPIES]
            more = len(indices) - 1 - len(shown)
            others = ", ".join(shown) + (f" and {more:,} more" if more else "")
            problem = Problem(
                Location(str(offer.source.get("file", "?")), sheet=offer.source.get("sheet"),
                         key=offer.source.get("key")),
                severity="warning", code="duplicate-offer", params={"others": others})
            out[index] = offer.model_copy(
                update={"warnings": [*offer.warnings, problem.to_dict()]})
    return out
