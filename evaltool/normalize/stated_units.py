"""A figure written with its unit beats a bare number for the same bandwidth.

"NVLink switch tray | 9 | NVLink 5: 1.8 TB/s per GPU": the bare 9 stands in a quantity column
(nine switch trays), the note beside it states the bandwidth with its unit.  Where a field
measured in units has a bare number and a figure that states its unit, and the two disagree,
the bare number is dropped with a warning: it may count something else (trays, ports, links).
"""

from __future__ import annotations

import re

from evaltool.normalize.facts import _close
from evaltool.normalize.slots import SlotReaders

# The fields whose figures carry a unit ("1.8 TB/s", "400 Gb/s", "80 GB/s").
FIELDS = ("intra_node_gbyte_s_per_gpu", "inter_node_gbit_s_per_gpu",
          "inter_node_gbit_s_per_node", "storage_read_gbyte_s")
_BARE_RE = re.compile(r"^\s*\d+(?:[.,]\d+)?\s*$")
_UNIT_RE = re.compile(r"\d\s*(?:[kmgtp]i?b(?:yte)?s?|[kmgt]bit)\s*(?:/\s*s(?:ec)?\b|ps\b)", re.I)


def bare_numbers_beside_units(b: SlotReaders) -> None:
    for name in FIELDS:
        facts = b.facts.get(name) or []
        bare = [f for f in facts if isinstance(f.value, (int, float)) and _BARE_RE.match(f.raw)]
        stated = [f for f in facts if f not in bare and _UNIT_RE.search(f.raw)]
        if not bare or not stated:
            continue
        drop = [f for f in bare if not any(_close(f.value, s.value, 0.02) for s in stated)]
        if not drop:
            continue
        b.facts[name] = [f for f in facts if f not in drop]
        for fact in drop:
            b.note(fact.where, "bare-figure-beside-unit", {
                "field": name, "bare": fact.raw.strip(), "stated": stated[0].raw[:80]},
                name, fact.raw, f"{stated[0].value:g}")
