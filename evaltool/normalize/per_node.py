"""The GPUs of one node, server or instance, stated once anywhere in a document.

A quote priced per node or per instance-hour ("€ 42,40 / nó / hora", "USD per
instance-hour") often says how many GPUs a node holds only once, and not beside the price:
in the accelerator's description ("NVIDIA HGX B200 (8× 180 GB HBM3e)", "gx8.h100.metal —
8x NVIDIA H100 SXM 80GB"), a spec line ("8 GPU pro Knoten", "8 GPUs por nó"), or a
footnote ("Each instance is a full 8-GPU host").  Every phrase of the document that states
it is collected, by its shape and in any language (the node and GPU words are the basis
vocabulary's, evaltool/data/basis_words.yaml):

- N GPUs per node: "8 GPUs per node", "8 GPU pro Knoten", "4 GPU por nó", "8 GPU/server";
- N-GPU node: "8-GPU host", "16 x 8-GPU servers" (normalize/unit_counts.py);
- N x the accelerator, or N x its memory, inside a description that names the accelerator:
  "8x NVIDIA H100 SXM 80GB", "(8× 180 GB HBM3e)" (1, 2, 4 or 8: the boards a server holds).

When every phrase agrees, that is the value (the caller says where it came from); when two
disagree, nothing is taken and the caller says so: a wrong divisor would be a silently wrong
price, a missing one is said.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass

from evaltool.catalog import recognise_accelerator
from evaltool.errors import EvaltoolError
from evaltool.grammar.basis import scope_re, words_for
from evaltool.normalize.shapes import count_words
from evaltool.normalize.unit_counts import gpus_per_unit

# GPUs one node can carry (plausibility.yaml gpus_per_node up to a 16-way node); an "N x"
# before an accelerator counts a node's boards only up to 8 (16 x H100 is more often the
# offer's GPUs than one node's).
_PER_NODE = frozenset({1, 2, 4, 8, 16})
_PER_BOARD = frozenset({1, 2, 4, 8})
# "8x NVIDIA H100 SXM 80GB", "(8× 180 GB HBM3e)": a count and x, not after another "N x"
# ("2 x 8 x H100" is nodes times GPUs, read by unit_counts), up to the next separator.
_N_TIMES_RE = re.compile(r"(?<![\d.,])(?<![x×*]\s)(?<![x×*])(?P<per>\d{1,2})\s*[x×]"
                         r"(?!\s*\d{1,3}\s*[x×])\s*(?P<rest>[^,;:()+/\n]{2,40})", re.IGNORECASE)
_MEMORY_RE = re.compile(r"^\s*(?P<gb>\d{2,3}(?:[.,]\d)?)\s*(?:GB|GiB|Go)\b", re.IGNORECASE)


@dataclass(frozen=True)
class PerNode:
    """GPUs per node, with the phrase that states it; or the values that disagree."""

    per: int | None
    phrase: str
    disagreeing: tuple[int, ...] = ()


@functools.cache
def _per_node_re() -> re.Pattern[str]:
    """'8 GPUs per node', '8 GPU pro Knoten', '4 GPU por nó', '8 GPUs/server'."""
    gpu = "|".join(re.escape(w) for w in words_for("gpu") if len(w) > 2)
    return re.compile(rf"(?<![\d.,])(?P<per>\d{{1,2}})\s*[-‐]?\s*(?:{gpu})(?![^\W\d_])\s*"
                      rf"(?:{scope_re('node').pattern})", re.IGNORECASE)


@functools.cache
def _SYSTEM_RE() -> re.Pattern[str]:
    """A system, not one accelerator: an HGX/DGX/MGX board or any language's node word."""
    nodes = "|".join(re.escape(w) for w in words_for("node") if len(w) > 2)
    return re.compile(rf"\s*(?:[A-Za-z]+\s+)?(?:hgx|dgx|mgx|{nodes})(?![^\W\d_])", re.IGNORECASE)


def _boards(text: str, memory_gb: float | None) -> set[tuple[int, str]]:
    """'8x NVIDIA H100 SXM 80GB', '(8× 180 GB HBM3e)' in a text that names an accelerator:
    the count before the accelerator, or before a memory size the accelerator has."""
    found: set[tuple[int, str]] = set()
    for match in _N_TIMES_RE.finditer(text):
        per = int(match["per"])
        if per not in _PER_BOARD:
            continue
        rest = match["rest"]
        memory = _MEMORY_RE.match(rest)
        if memory is not None:
            if memory_gb is None or abs(float(memory["gb"].replace(",", ".")) - memory_gb) > 1:
                continue  # "2× 960 GB NVMe": not the accelerator's memory
            try:
                recognise_accelerator(text, memory_gb)
            except EvaltoolError:
                continue  # a size with no accelerator named in the text
        else:
            if _SYSTEM_RE().match(rest):
                continue  # "4 x HGX H200", "2 x servers with 8 x H100": systems, not GPUs
            try:
                recognise_accelerator(rest, memory_gb)
            except EvaltoolError:
                continue  # "2× Intel Xeon 6960P": not an accelerator
        found.add((per, match.group(0).strip()))
    return found


@functools.cache
def _each_node_re() -> re.Pattern[str]:
    """'Each node: 8 x H100', 'Varje nod: 8 st NVIDIA A100', 'Jeder Server mit 8 GPUs'."""
    words = count_words()
    node = "|".join(re.escape(w) for w in words_for("node") if len(w) > 2)
    return re.compile(rf"(?<!\w){words['each_before']}\s+(?:{node})(?![^\W\d_])\s*[:,–—-]?\s*"
                      rf"(?:{words['of']}\s+)?(?P<per>\d{{1,2}})\s*(?:{words['piece']}\s*)?"
                      rf"(?:[x×]\s*)?(?P<rest>[^,;:()+/\n]{{2,40}})", re.IGNORECASE)


def _each_node(text: str, memory_gb: float | None) -> set[tuple[int, str]]:
    found: set[tuple[int, str]] = set()
    for match in _each_node_re().finditer(text):
        rest = match["rest"]
        if not re.match(rf"\s*{count_words()['gpu']}(?![^\W\d_])", rest, re.IGNORECASE):
            try:
                recognise_accelerator(rest, memory_gb)
            except EvaltoolError:
                continue  # "each server: 2 CPUs"
        found.add((int(match["per"]), match.group(0).strip()))
    return found


def _statements(text: str, memory_gb: float | None) -> set[tuple[int, str]]:
    found = {(int(m["per"]), m.group(0).strip()) for m in _per_node_re().finditer(text)}
    found |= _each_node(text, memory_gb)
    unit = gpus_per_unit([text])
    if unit is not None:
        found.add((unit[0], unit[2]))
    elif not found:
        found = _boards(text, memory_gb)
    return {(per, phrase) for per, phrase in found if per in _PER_NODE}


def gpus_per_node_in_document(texts: Iterable[str], memory_gb: float | None = None
                              ) -> PerNode | None:
    """GPUs per node as the document states it: None when no phrase does; a PerNode with
    ``per`` when every phrase agrees, with ``per=None`` and the values when they disagree."""
    values: dict[int, str] = {}
    for text in dict.fromkeys(texts):  # (a shared fact repeats in every option's texts)
        for per, phrase in _statements(text, memory_gb):
            values.setdefault(per, phrase)
    if not values:
        return None
    if len(values) == 1:
        per, phrase = next(iter(values.items()))
        return PerNode(per, phrase)
    return PerNode(None, "; ".join(f"{p!r}" for p in values.values())[:200],
                   tuple(sorted(values)))


def accelerator_count(text: str, first: int | re.Match[str] | None) -> int:
    """The count before the accelerator in a system's description, given the text's first
    'N x' (``first``, or its match).  A count before a system ("4 x HGX H200 (8x NVIDIA
    H200)", "2 x DGX H100") counts systems: the accelerators are the next 'N x' that names
    one, or none (0)."""
    if not isinstance(first, int):
        first = int(first.group(1)) if first else 0
    match = _N_TIMES_RE.search(text)
    if match is None or not _SYSTEM_RE().match(match["rest"]):
        return first
    boards = _boards(text[match.end():], None)
    return next(iter(boards))[0] if len({per for per, _ in boards}) == 1 else 0
