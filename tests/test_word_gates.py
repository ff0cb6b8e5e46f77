"""Skipping patterns that cannot match never changes what a text is found to say: the topics
of a clause are exactly those whose patterns match it, with or without the word gate."""

from __future__ import annotations

import pytest

from evaltool.clauses.lexicon import WordGates, gate_texts
from evaltool.normalize import phrases

CLAUSES = [
    "Dedicated 400 Gb/s InfiniBand NDR fabric, HDR 200 on the storage side",
    "Mindestvertragslaufzeit 12 Monate; Lieferung bis 1. April 2027",
    "2x AMD EPYC 9654, 96 Kerne je Sockel, 1,5 TB DDR5",
    "Peak 67 TFLOPS FP64 (989 TFLOP/s TF32), NVLink 900 GB/s",
    "納期: 受注後8週間、有効期限 2026年3月31日、サービスクレジット上限10%",
    "ſtorage and ınfiniband spelt oddly still count as what IGNORECASE reads",
    "İstanbul region, Kubernetes or Slurm, root via sudo",
    "Price 2.10 USD per GPU-hour",
    "",
]


@pytest.mark.parametrize("clause", CLAUSES)
def test_a_clauses_topics_are_those_its_patterns_match(clause: str) -> None:
    folded = phrases.fold(clause)
    patterns = phrases._words()["topics"]
    expected = tuple(name for name, pattern in patterns.items() if pattern.search(folded))
    assert phrases.topics(clause) == list(expected)


def test_the_gate_keeps_every_pattern_that_could_match() -> None:
    gates = WordGates({"laufzeit": [r"\b\w+laufzeit\b"], "cores": [r"\d\s*(?:cores?|kerne)\b"],
                       "flops": [r"\bp(?:eta)?flops\b"], "ndr": [r"\b[nhex]dr\b"],
                       "cjk": ["納期"], "any": [r"(?:a|b)c"]})
    low, padded = gate_texts("Vertragslaufzeit 12, 96 Kerne, 2 PFLOPS, NDR, 納期") or ("", "")
    assert gates.candidates(low, padded) == {"laufzeit", "cores", "flops", "ndr", "cjk", "any"}
    low, padded = gate_texts("nothing to see") or ("", "")
    assert gates.candidates(low, padded) == {"any"}  # a pattern it cannot read always runs


def test_text_that_lower_casing_misreads_goes_to_the_patterns_themselves() -> None:
    assert gate_texts("ſtorage") is None  # IGNORECASE matches 'ſ' with 's'; lower() does not
    assert gate_texts("İnfiniband") is None  # lower() changes its length
    assert gate_texts("Storage") == ("storage", " storage")
