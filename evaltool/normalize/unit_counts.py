"""The GPUs in one priced unit (a node, server or instance) stated anywhere in an offer:
"16 x 8-GPU HGX H200 servers", "24 instancias de 2 x NVIDIA L40S", "6 Server mit je 4 ×
NVIDIA H100".  Used by the price only when a per-node price finds no GPUs-per-node field;
the words for a node are the basis vocabulary's (evaltool/data/basis_words.yaml)."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable

from evaltool.catalog import recognise_accelerator
from evaltool.errors import EvaltoolError
from evaltool.grammar.basis import basis_vocabulary

_TOTAL_RE = re.compile(r"\b(?:total|in all|insgesamt|gesamt|au total|en total|em total|"
                       r"in totale|totaal|łącznie|razem|celkem|i alt|totalt)\b|合計", re.I)
_N_TIMES_RE = re.compile(r"\d\s*[x×]", re.IGNORECASE)
# GPUs one node can carry (the plausibility file's gpus_per_node values up to a 16-way node).
_PER_NODE = frozenset({1, 2, 4, 8, 16})


@functools.cache
def _shapes() -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    words = basis_vocabulary()["words"]
    node = "|".join(re.escape(w) for w, b in sorted(words.items(), key=lambda i: -len(i[0]))
                    if b == "node" and len(w) > 2)
    gpu = "|".join(re.escape(w) for w, b in sorted(words.items(), key=lambda i: -len(i[0]))
                   if b == "gpu" and len(w) > 2)
    # "16 x 8-GPU HGX H200 servers", "4× 8-GPU-Server": the GPUs, then (a few words on) a node.
    n_gpu_node = re.compile(
        rf"(?:(?<![\d.,])(?P<nodes>\d{{1,4}})\s*[x×*]\s*)?(?<![\d.,])(?P<per>\d{{1,2}})\s*[-‐]?\s*"
        rf"(?:{gpu})\b(?:[\s-]+[\w.-]+){{0,3}}?[\s-]+(?:{node})(?![^\W\d_])", re.IGNORECASE)
    # "24 instancias de 2 x NVIDIA L40S", "6 Server mit je 4 × NVIDIA H100": a node, a joining
    # word, then N x an accelerator (checked against the catalog by the caller).
    node_with_n = re.compile(
        rf"(?:(?<![\d.,])(?P<nodes>\d{{1,4}})\s+)?(?:{node})(?![^\W\d_])[^.,;:\n\d]{{0,24}}?"
        rf"(?<![\d.,])(?P<per>\d{{1,2}})\s*[x×]\s*(?P<rest>[^;\n]{{3,40}})", re.IGNORECASE)
    # "32 nodes x 8 GPUs", "4 Knoten à 8 GPUs", "16 serwerów po 8 GPU": nodes times GPUs.
    nodes_x_gpus = re.compile(
        rf"(?<![\d.,])(?P<nodes>\d{{1,4}})\s*(?:{node})(?![^\W\d_])\s*"
        rf"(?:[x×*]|à|a|po|de|of|mit|with|con|com|med|z)\s*(?P<per>\d{{1,2}})\s*[-‐]?\s*"
        rf"(?:{gpu})(?![^\W\d_])", re.IGNORECASE)
    return n_gpu_node, node_with_n, nodes_x_gpus


def gpus_per_unit(texts: Iterable[str]) -> tuple[int, int | None, str] | None:
    """(GPUs per node, nodes if the same phrase counts them, the phrase), when every phrase
    of the offer that states it agrees; None when none does or two disagree."""
    n_gpu_node, node_with_n, nodes_x_gpus = _shapes()
    found: set[tuple[int, int | None]] = set()
    phrase = ""
    for text in texts:
        for match in [*n_gpu_node.finditer(text), *nodes_x_gpus.finditer(text)]:
            found.add((int(match["per"]), int(match["nodes"]) if match["nodes"] else None))
            phrase = match.group(0)
        # (every "node ... N x" phrase has a figure and an x after it: the cheap test first)
        for match in node_with_n.finditer(text) if _N_TIMES_RE.search(text) else ():
            if _TOTAL_RE.search(match["rest"]):
                continue  # "2 nodes with 16 x H100 in total": the offer's GPUs, not a node's
            try:
                recognise_accelerator(match["rest"])
            except EvaltoolError:
                continue
            found.add((int(match["per"]), int(match["nodes"]) if match["nodes"] else None))
            phrase = match.group(0)
    pers = {per for per, _ in found}
    if len(pers) != 1 or not pers <= _PER_NODE:
        return None
    nodes = {n for _, n in found if n is not None}
    return pers.pop(), (nodes.pop() if len(nodes) == 1 else None), phrase.strip()
