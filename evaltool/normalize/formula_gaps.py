"""A labelled formula that could not be worked out beside a value read elsewhere: never a
silent fall-back.

A calculator states its list rate as a number and works out the effective rate with a
formula ("=ROUND(B7*(1-VLOOKUP(...)),4)"); saved by a program that computes no formulas, the
effective cell is empty. Where the reader cannot work the formula out (evaltool.read.formulas:
arithmetic, IF and lookups only), the price the offer ends with comes from another cell - the
list rate - and the buyer would pay less or more than that. The field is kept (an offer is
not lost for it) and warned: the figure its own label computes could not be worked out.
"""

from __future__ import annotations

from typing import Any

from evaltool.errors import Location
from evaltool.models import FieldSource
from evaltool.normalize.facts import _slot_field
from evaltool.normalize.slots import SlotReaders

# A formula under a compute price's label stands for the price the offer is priced at.
_PRICE_FIELDS = {"price_usd_per_gpu_hour": ("price_usd_per_gpu_hour",
                                            "compute_price_usd_per_gpu_hour")}


def warn_uncomputed(b: SlotReaders, values: dict[str, Any],
                    provenance: dict[str, FieldSource]) -> None:
    """Warn on each field whose labelled formula could not be worked out while its value was
    read from another cell."""
    for problem in list(b.problems):
        if problem.code != "formula-cell-without-value" or problem.where is None:
            continue
        label = str((problem.params or {}).get("label", ""))
        slot = b.vocab.match(label) if label else None
        if slot in (None, "ignore"):
            continue
        field = _slot_field(str(slot))
        used = next((f for f in _PRICE_FIELDS.get(field, (field,)) if f in provenance), None)
        if used is None or values.get(field) is None:
            continue
        source = provenance[used]
        if source.where.get("cell") == problem.where.cell \
                and source.where.get("sheet") == problem.where.sheet:
            continue
        b.note(problem.where, "formula-not-computed-value-from-elsewhere", {
            "label": label, "field": field, "value": repr(values[field]),
            "source": str(Location(**source.where))}, field, label)
