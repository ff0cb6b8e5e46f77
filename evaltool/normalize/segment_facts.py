"""A contract or terms sheet's sentences, read for the fields no labelled cell stated.

The clause analysis reads a terms sheet for its own findings; a sentence there also states the
offer's fields, in any language: "Mise à disposition : 5 janvier 2026 pour les deux lots.",
"Za każdy pełny punkt procentowy poniżej SLA przysługuje rabat 5% opłaty miesięcznej,
maksymalnie 25%."  Each clause is read with the prose readers for the topics its words name
(evaltool/data/prose_words.yaml), at the priority of text, only for a field still missing.
"""

from __future__ import annotations

from evaltool.errors import Location
from evaltool.normalize.phrases import MAX_PROSE_CHARS, _words, clauses, fold
from evaltool.normalize.prose import ProseReaders
from evaltool.normalize.slots import SlotReaders

# topic -> the field its reader states
_TOPICS = {"valid": "valid_until", "delivery": "delivery_date", "credit": "sla_max_credit_pct",
           "egress": "egress_usd_per_gb"}


def facts_in_segments(b: SlotReaders) -> None:
    if not isinstance(b, ProseReaders):
        return
    missing = {t: f for t, f in _TOPICS.items() if not b.facts.get(f)}
    if not missing:
        return
    topics = _words()["topics"]
    for segment in b.record.segments:
        text = str(segment.get("text") or "")
        if not text or len(text) > MAX_PROSE_CHARS:
            continue
        where = Location(**{k: v for k, v in dict(segment.get("where") or {}).items()
                            if k in ("file", "sheet", "cell", "key")})
        for clause in clauses(text):
            for topic, name in missing.items():
                if not b.facts.get(name) and topics[topic].search(fold(clause)):
                    b._as_text(getattr(b, f"_prose_{topic}"), clause, where)
