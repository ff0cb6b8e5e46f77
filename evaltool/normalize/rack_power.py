"""A power figure stated for one rack is the rack's, not a node's.

"Contracted power per rack | 135 | kW", "Leistung je Rack: 120 kW", "Puissance par baie |
130 kW": a rack-scale system (GB200 NVL72, a rack of servers) is hosted and charged by the rack.
Read as a node's power it would be multiplied by the node count, a colocation bill tens of
times too large.  The figure is kept as the rack's (``power_kw_per_rack``) and the running cost
counts it once per rack (``power_units``); with no rack count the power is not used at all.
"""

from __future__ import annotations

import re
from typing import Any

from evaltool.normalize.slots import SlotReaders
from evaltool.read.vocabulary import normalise_label

# "per rack", "je Rack", "par baie", "por bastidor", "na szafę", "per kast": the figure is one
# rack's; a label that also names a node or server is the node's.
_PER_RACK_RE = re.compile(
    r"\b(?:per|each|a|je|pro|par|por|na|pr|pa|for|für|fur|du|del|della|van)\s+"
    r"(?:one\s+)?(?:racks?|baie|armoire|bastidor|armadio|szaf\w*|stojan\w*|schrank|kast|skab|"
    r"skap|kabinet\w*)\b|\brack\s+power\b|\bracks?\s*[-/]\s*kw\b|ラック|랙", re.I)
_NODE_RE = re.compile(r"\b(?:node|server|system|tray|knoten|noeud|nodo|serwer|wez\w*)\b", re.I)


def says_per_rack(label: str) -> bool:
    """'Contracted power per rack' -> True; 'Power per node' -> False."""
    text = normalise_label(label)
    return bool(_PER_RACK_RE.search(text)) and not _NODE_RE.search(text)


def power_per_rack(b: SlotReaders) -> None:
    """Move a power figure whose label says per rack from the node's field to the rack's."""
    facts = b.facts.get("power_kw_per_node") or []
    if not facts:
        return
    rack_cells = {c.where for c in b.record.candidates
                  if isinstance(c.label, str) and says_per_rack(f"{c.label} {c.note or ''}")}
    moved = [f for f in facts if f.where in rack_cells]
    if not moved:
        return
    b.facts["power_kw_per_node"] = [f for f in facts if f not in moved]
    if not b.facts["power_kw_per_node"]:
        del b.facts["power_kw_per_node"]
    for fact in moved:
        b.add("power_kw_per_rack", fact.value, fact.where, fact.raw, fact.priority,
              "power stated for one rack")


def power_units(v: dict[str, Any]) -> tuple[float | None, float | None, str]:
    """(kW of one unit, how many units, 'nodes' or 'racks') for the running cost: a rack's
    power times the racks, else a node's power times the nodes."""
    rack_kw, racks = v.get("power_kw_per_rack"), v.get("rack_count")
    if rack_kw and racks and not v.get("power_kw_per_node"):
        return float(rack_kw), float(racks), "racks"
    return v.get("power_kw_per_node"), v.get("node_count"), "nodes"
