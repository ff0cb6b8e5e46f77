"""A server line's description states one server's network and power.

"HGX B200 server: 8 x NVIDIA B200 180GB SXM, ..., 8 x ConnectX-7 400Gb/s NDR (one per GPU),
max. power 14.3 kW", "Servidor GPU: 8 × L40S, ..., 2 × 100 GbE, consumo máx. 3,2 kW": the line
buys (or rents) servers, so the cards it lists are one server's cards and the power its draw.
Read only for a field no labelled cell or sentence stated, at the priority of text: the
server's network cards x their port speed is the node's bandwidth (and one card's speed the
GPU's when there is one per GPU); the kW figure is the node's power.
"""

from __future__ import annotations

import re

from evaltool.grammar.accelerators import names_an_accelerator
from evaltool.normalize.facts import IN_TEXT
from evaltool.normalize.slots import SlotReaders

_SERVER_RE = re.compile(r"\b(?:server|servers|node|system|knoten|serveur|servidor|serwer|nodo|"
                        r"uzel|palvelin|szerver)\b", re.I)
_PART_SPLIT_RE = re.compile(r"[,;:](?!\d)\s*|\s+\+\s+")  # "10,2 kW" stays whole
_COUNT_RE = re.compile(r"^\s*(\d{1,2})\s*[x×]\s*(.+)$", re.I)
# a network card and its port speed: "ConnectX-7 400Gb/s NDR", "100 GbE", "400G NIC"
_NIC_RE = re.compile(r"\bconnectx|\bsupernic|\bnics?\b|\bhcas?\b|\bgbe\b|\bethernet\b|"
                     r"\binfini\s*band|\b[nhx]dr\b|\broce|\bport", re.I)
_SPEED_RE = re.compile(r"(?<![\d.])(\d{2,4})\s*(?:gb/s|gbit/s|gbps|gbe\b|g\b)", re.I)
_ONE_PER_GPU_RE = re.compile(r"\b(?:one|1)\s+(?:per|each|/)\s*(?:gpu|accelerator)", re.I)
_POWER_RE = re.compile(r"(?<![\d.,])(\d{1,2}(?:[.,]\d{1,2})?)\s*kw\b(?!\s*h)", re.I)


def _server_parts(desc: str) -> tuple[int, list[str]] | None:
    """(GPUs in one server, the description's parts) for a line that is a GPU server."""
    if not _SERVER_RE.search(desc):
        return None
    parts = [p for p in _PART_SPLIT_RE.split(desc) if p.strip()]
    for part in parts:
        match = _COUNT_RE.match(part)
        if match and names_an_accelerator(match.group(2)):
            return int(match.group(1)), parts
    return None


def server_line_facts(b: SlotReaders) -> None:
    for item in b.record.line_items:
        found = _server_parts(item.description or "")
        if found is None:
            continue
        gpus, parts = found
        where = item.cells.get("description", item.row_where)
        desc = item.description
        for part in parts:
            match = _COUNT_RE.match(part)
            speed = _SPEED_RE.search(part)
            if match and speed and _NIC_RE.search(part) and not names_an_accelerator(
                    match.group(2)) and not b.facts.get("inter_node_gbit_s_per_node"):
                cards, gbit = int(match.group(1)), float(speed.group(1))
                b.add("inter_node_gbit_s_per_node", cards * gbit, where, desc, IN_TEXT,
                      f"{cards} cards x {gbit:g} Gbit/s in one server")
                if (_ONE_PER_GPU_RE.search(part) or cards == gpus) and not any(
                        f.where != where for f in b.facts.get("inter_node_gbit_s_per_gpu", [])):
                    # a figure read from this same description as a whole ("8 x ... 400Gb/s
                    # (one per GPU)" taken as 3200 per GPU) gives way to the card's speed
                    b.facts.pop("inter_node_gbit_s_per_gpu", None)
                    b.add("inter_node_gbit_s_per_gpu", gbit, where, desc, IN_TEXT,
                          "one card per GPU in one server")
            power = _POWER_RE.search(part)
            if power and not match and not b.facts.get("power_kw_per_node"):
                b.add("power_kw_per_node", float(power.group(1).replace(",", ".")), where,
                      desc, IN_TEXT, "one server's power, read from its line")
