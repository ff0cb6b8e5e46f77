"""A specifications sheet whose columns are the products a quote's lines name: "Specs | GB200
NVL72 | HGX B200" beside a quote builder whose lines say "Product | GB200 NVL72" and "HGX
B200".  Each column states the facts (fabric, NVLink, SLA, orchestration) of the lines that
name its product: read into those lines' offers, not as offers of their own (a column of
specifications prices nothing).
"""

from __future__ import annotations

from evaltool.read.cells import RawRecord
from evaltool.read.vocabulary import Vocabulary, normalise_label

_PRICE_SLOTS = frozenset({"price", "capex_usd"})
_NAME_LABELS = frozenset({"offer name"})


def _prices(record: RawRecord, vocab: Vocabulary) -> bool:
    return any(vocab.match(c.label, c.section) in _PRICE_SLOTS for c in record.candidates
               if not c.shape_only)


def _named(record: RawRecord) -> set[str]:
    """The short texts a record's own cells state (its product, its line's name)."""
    return {normalise_label(c.value) for c in record.candidates
            if isinstance(c.value, str) and 0 < len(c.value) <= 60}


def specs_by_product(records: list[RawRecord], vocab: Vocabulary) -> list[RawRecord]:
    """The records without the specification columns that were read into the priced records
    naming their product (each spec column's facts after the record's own)."""
    spec = [r for r in records if r.source.get("column") and r.source.get("option")
            and not _prices(r, vocab)]
    priced = [r for r in records if _prices(r, vocab)]
    if not spec or not priced:
        return records
    named = {id(r): _named(r) for r in priced}
    taken: list[RawRecord] = []
    for column in spec:
        name = normalise_label(str(column.source["option"]))
        targets = [r for r in priced if name and name in named[id(r)]]
        if not targets:
            continue
        facts = [c for c in column.candidates if c.label not in _NAME_LABELS]
        for target in targets:
            target.candidates.extend(facts)
            target.skipped.extend(column.skipped)
        taken.append(column)
    return [r for r in records if not any(r is t for t in taken)]
