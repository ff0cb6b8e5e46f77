"""A count of nodes and their GPUs in one cell under a header that names both: "nodes x gpus |
4 x 8", "Knoten × GPU | 4 × 8", "servers x GPUs/server | 6 x 4".  The first figure counts what
the header names first, the second what it names second, so the cell is read as two labelled
counts (nodes, GPUs per node), never one product or one count.
"""

from __future__ import annotations

import re

from evaltool.read.cells import Candidate, RawRecord, cell_text
from evaltool.read.vocabulary import normalise_label, resource_words

_PAIR_HEAD_RE = re.compile(r"^\s*([^\W\d_]+)\s*(?:[x×*]|\bby\b|\bmal\b|\bfois\b)\s*"
                           r"([^\W\d_]+)(?:\s*(?:/|\bper\b|\bpro\b|\bpar\b|\bje\b|\bpor\b)"
                           r"\s*([^\W\d_]+))?\.?\s*$", re.I)
_PAIR_VALUE_RE = re.compile(r"^\s*(\d{1,4})\s*[x×*]\s*(\d{1,3})\s*$")


def _order(label: str) -> tuple[str, str] | None:
    found = _PAIR_HEAD_RE.match(label)
    if found is None:
        return None
    words = resource_words()
    first = words.get(normalise_label(found.group(1)))
    second = words.get(normalise_label(found.group(2)))
    if {first, second} != {"node", "gpu"}:
        return None
    return str(first), str(second)


def split_count_pairs(record: RawRecord) -> None:
    """Replace each 'nodes x gpus | 4 x 8' candidate by 'nodes | 4' and 'GPUs per node | 8'."""
    out: list[Candidate] = []
    for cand in record.candidates:
        order = _order(cand.label) if isinstance(cand.label, str) else None
        value = _PAIR_VALUE_RE.match(cell_text(cand.value)) if order else None
        if order is None or value is None:
            out.append(cand)
            continue
        figures = dict(zip(order, (int(value.group(1)), int(value.group(2))), strict=True))
        note = f"{cell_text(cand.value)} under {cand.label!r}"
        out.append(Candidate("nodes", figures["node"], cand.where, section=cand.section,
                             note=note, label_where=cand.label_where))
        out.append(Candidate("GPUs per node", figures["gpu"], cand.where, section=cand.section,
                             note=note, label_where=cand.label_where))
    record.candidates[:] = out
