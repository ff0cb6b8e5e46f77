"""How many GPUs a phrase states by counting systems or accelerators, in any language and
order: "vier HGX-Knoten à 8 GPUs" (4 nodes of 8), "Four Dell XE9680 servers, each fitted with
eight NVIDIA H100 GPUs", "6 serveurs HGX, chacun avec 8 GPU", "2 serwery, każdy z 8 GPU"
(N nodes, each holding M), "8 × HGX H100 nodes" (8 nodes) and "64 × H100 SXM 80GB" (64 GPUs:
more than one server holds).

The text is already folded and its number words are digits (shapes.words_to_digits); the
words of nodes, GPUs, racks, "each" and "of/with" are the count vocabulary
(evaltool/data/count_words.yaml), given by the caller (shapes.py) so this module reads only
the shape.  A count of accelerators is taken as the whole order's only where no single
server holds that many (plausibility.yaml gpus_per_node.server_max); a smaller one may be
one server's and is left to the other readers (missing, never wrong).
"""

from __future__ import annotations

import functools
import re
from typing import Any

from evaltool.resources import data_dir

# "1,024 x H100" is 1,024, never 24: a count starts after no letter, figure or separator.
_INT = r"(?<![\w.,])(\d{1,3}(?:,\d{3})+|\d{1,5})"
_N, _M = r"(?P<n>\d{1,5})", r"(?P<m>\d{1,5})"  # nodes, and what each holds
# A model or system word between a count and its noun: "HGX", "XE9680", "Dell", "HGX-" in
# "HGX-Knoten", "compute" (at most three, never a figure of its own, a size, a time or a
# word that scopes or joins: "8 GB per node with 4 GPUs" counts no nodes).
_NOT_FILLER = (r"(?!\d+\b|(?:gb|gib|tb|tib|go|to|mb|tflops|months?|years?|hours?|per|pro|je|"
               r"par|por|na|each|cada|of|with|mit|von|de|for|fur|pour|para|and|und|et|y|"
               r"to|bis|a|an|the|in|on|at|x)\b)")
_FILLER = r"(?:" + _NOT_FILLER + r"[a-z0-9][a-z0-9.+-]*\s+){0,3}?(?:(?!\d+-)[a-z0-9]+-)?"
# A word between a node and its "each"/"with": "fitted", "equipped", "bestückt".
_BETWEEN = r"(?:[a-z]+\s+){0,2}?"
# "2 servers with 16 GPUs in total": the GPUs of all the servers, not of each.
_TOTAL_AFTER = re.compile(r"^[^,;()]{0,12}?\b(?:total\w*|insgesamt|gesamt|in\s+all|razem|"
                          r"celkem|yhteensa|complessiv\w*)\b")
# Hours of accelerator time ("64 x H100 hours") are no count of accelerators.
_HOURS_AFTER = re.compile(r"^[^,;()]{0,20}?\b(?:hours?|hrs?|h|stunden|heures|horas|ore|uur)\b")


@functools.cache
def _server_max() -> int:
    import yaml

    raw: dict[str, Any] = yaml.safe_load(
        (data_dir() / "plausibility.yaml").read_text(encoding="utf-8"))
    return int(raw["gpus_per_node"]["server_max"])


@functools.cache
def _nodes_holding_re(node: str, gpu: str, of: str, each: str, rack: str, acc: str
                      ) -> re.Pattern[str]:
    """'<N> [x] <system words> <node> [, each [fitted] with|of|à|mit|z] [je] <M> [x] [model]
    <GPUs|accelerator>'."""
    return re.compile(
        r"(?<![\w.,])" + _N + r"\)?\s*(?:[x×*]\s*)?" + _FILLER + node + r"\b"
        r"(?P<mid>[^.;:=()\d]{0,40}?)"
        r"(?:\b(?P<each>" + each + r")\s+" + _BETWEEN + r"(?:" + of + r")\s+"
        r"|(?<!\w)(?:" + of + r")\s+)"
        r"(?:je\s+|each\s+|cada\s+|jeweils\s+)?" + _M + r"\s*(?:[x×*]\s*)?"
        r"(?:(?!\d+\b)[a-z0-9][a-z0-9-]*\s+){0,3}?(?:" + acc + r"|" + gpu + r")\b")


@functools.cache
def _cluster_re(node: str, gpu: str, of: str, acc: str) -> re.Pattern[str]:
    """'a 4-node cluster with 32 GPUs', 'ein 4-Knoten-Cluster mit 32 GPUs': a cluster of N
    nodes holding M GPUs in all."""
    return re.compile(r"(?<![\w.,])" + _N + r"\s*-\s*" + node + r"\b[a-z\s-]{0,20}?\b(?:"
                      + of + r")\s+" + _M + r"\s*(?:[x×*]\s*)?(?:(?!\d+\b)[a-z0-9-]+\s+){0,3}?"
                      r"(?:" + acc + r"|" + gpu + r")\b")


@functools.cache
def _systems_re(node: str, acc: str) -> re.Pattern[str]:
    """'8 × HGX H100 nodes', '4x DGX B200 systems': N systems."""
    return re.compile(r"(?<![\w.])" + _INT + r"\s*[x×*]\s*(?:(?:nvidia|dell|hpe|supermicro)\s+)?"
                      r"(?:hgx|dgx|mgx)[\s-]+(?:" + acc + r"\s+)?(?:[a-z0-9-]+\s+){0,2}?"
                      + node + r"\b")


@functools.cache
def _accelerators_re(acc: str) -> re.Pattern[str]:
    """'64 × H100 SXM 80GB', '128 x NVIDIA A100': N accelerators named by model."""
    return re.compile(r"(?<![\w.-])" + _INT + r"\s*[x×*]\s*" + acc + r"\b")


def _rack_scoped(low: str, start: int, text: str, rack: str) -> bool:
    """'Pro Rack 18 Knoten mit je 4 GPUs', '18 trays per rack with 4 GPUs': the nodes of one
    rack, not of the order."""
    return bool(re.search(r"(?:each|per|pro|je|par|por|cada|ogni)\s+" + rack + r"\s*[:,]?\s*$",
                          low[:start]) or re.search(r"\b" + rack + r"\b", text))


def read_count_phrase(low: str, words: dict[str, str], acc: str) -> dict[str, int]:
    """node_count, gpus_per_node and gpu_count a counting phrase states (see the module's
    doc); `words` is the count vocabulary by kind, `acc` the accelerator-name pattern.
    A count of none ("0 x H100") is no count."""
    return {name: value for name, value in _read(low, words, acc).items() if value > 0}


def _read(low: str, words: dict[str, str], acc: str) -> dict[str, int]:
    found: dict[str, int] = {}
    m = _nodes_holding_re(words["node"], words["gpu"], words["of"], words["each"],
                          words["rack"], acc).search(low)
    if m is not None and not re.search(r"\b(?:per|each|pro|je|par|por)\s*$", low[:m.start()]):
        nodes, held = int(m.group("n")), int(m.group("m"))
        if _rack_scoped(low, m.start(), m.group("mid"), words["rack"]):
            return {"gpus_per_node": held}
        each_stated = m.group("each") or re.match(r"\s*,?\s*(?:" + words["each"] + r")\b",
                                                  low[m.end():])
        # "32 nodes with 256 GPUs": more than one server holds, unless said of each
        if not _TOTAL_AFTER.search(low[m.end():]) and (each_stated or held <= _server_max()):
            return {"node_count": nodes, "gpus_per_node": held}
        # "2 servers with 16 GPUs in total": all the servers' GPUs, so each holds a share
        if nodes and held % nodes == 0:
            return {"node_count": nodes, "gpu_count": held, "gpus_per_node": held // nodes}
        return {}
    m = _cluster_re(words["node"], words["gpu"], words["of"], acc).search(low)
    if m is not None and not re.match(r"\s*,?\s*(?:" + words["each"] + r")\b", low[m.end():]):
        nodes, held = int(m.group("n")), int(m.group("m"))
        if held > nodes and held % nodes == 0:
            return {"node_count": nodes, "gpu_count": held, "gpus_per_node": held // nodes}
        return {}
    m = _systems_re(words["node"], acc).search(low)
    if m is not None and not _rack_scoped(low, m.start(), "", words["rack"]):
        found["node_count"] = int(m.group(1))
        return found
    for m in _accelerators_re(acc).finditer(low):
        count = int(m.group(1).replace(",", ""))
        before = low[:m.start()]
        if (count > _server_max() and not _HOURS_AFTER.search(low[m.end():])
                and not re.search(r"(?:per|each|with|je|mit|avec|con|de|of)\s*$|(?:each|per|"
                                  + words["node"] + r")\b[^,;]{0,20}:\s*$", before)
                and not re.search(r"^\s*(?:[a-z0-9-]+\s+){0,4}?(?:" + words["node"] + r"|per|"
                                  r"each|je|pro)\b", low[m.end():])):
            found["gpu_count"] = count
            return found
    return found
