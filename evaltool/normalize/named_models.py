"""A sentence that names another accelerator is about another offer.

"InfiniBand fabric on H100 clusters is dedicated per customer; L40S nodes sit on a shared
Ethernet fabric.": a file that offers both states each one's facts in a clause naming it.  For
the L40S offer, the H100 clause is not its fact, and the L40S clause beats a general sentence
that names no accelerator ("your fabric, not shared").  Read for the facts taken from text
only (a labelled cell is the offer's own).
"""

from __future__ import annotations

import re

from evaltool.grammar.accelerators import names_an_accelerator
from evaltool.normalize.facts import IN_TEXT
from evaltool.normalize.phrases import fold
from evaltool.normalize.slots import SlotReaders

# a model's short name: H100, L40S, B200, GB200, MI300X, A100, T4
_MODEL_RE = re.compile(r"\b(?:gb|mi|[abhlt])\d{1,3}[a-z]{0,2}\b")
_SKIP = frozenset({"accelerator", "accelerator_text", "gpu_count", "gpus_per_node",
                   "node_count", "vendor", "offer_name"})


def _models(text: str) -> frozenset[str]:
    return frozenset(t for t in _MODEL_RE.findall(fold(text).lower()) if names_an_accelerator(t))


def facts_of_named_models(b: SlotReaders) -> None:
    ours: frozenset[str] = frozenset()
    for fact in b.facts.get("accelerator_text", []) + b.facts.get("accelerator", []):
        ours |= _models(str(fact.value))
    if not ours:
        return
    for name, facts in list(b.facts.items()):
        if name in _SKIP or len(facts) < 2:
            continue
        text_facts = [f for f in facts if f.priority <= IN_TEXT]
        named = {id(f): _models(f.raw) for f in text_facts}
        others = [f for f in text_facts if named[id(f)] and not named[id(f)] & ours]
        mine = [f for f in text_facts if named[id(f)] & ours]
        unnamed = [f for f in text_facts if not named[id(f)]]
        if not others and not mine:
            continue
        drop = others + (unnamed if mine and len(others) < len(text_facts) else [])
        keep = [f for f in facts if f not in drop]
        if keep:
            b.facts[name] = keep
