"""A quote's total that its recurring compute over the term explains is the contract's
value, never a purchase price.

A portal export or an order form states a "quote total" beside lines priced per rack, node
or GPU per month ("GB200 NVL72 dedicated rack ... per rack per month x 2, 24 months"): the
total is what the rental costs over its term (plus storage and one-off lines), not hardware
bought. Read as a capex it turns a rental into a purchase and amortises the one-off fee into
the price. When the offer's recurring compute over its stated term (or a year, or one month:
a "Monthly total") makes up at least half of a total read as capex and no more than the
total, the total is the contract's value: the
capex is dropped (and said), so the offer is priced by its own rate and its one-off lines
become its upfront payment.
"""

from __future__ import annotations

from typing import Any

from evaltool.catalog import UnknownAcceleratorError, load_catalog, recognise_accelerator
from evaltool.errors import Location
from evaltool.models import HOURS_PER_MONTH, FieldSource
from evaltool.normalize import values as V
from evaltool.normalize.slots import SlotReaders

_MONTHS_PER = {"month": 1.0, "hour": 1.0 / HOURS_PER_MONTH, "year": 1 / 12}
# The share of a total the recurring compute must explain to make it a contract value: a
# purchase quote's hosting fee over a term never comes near its hardware's price.
_MIN_SHARE = 0.5


_COUNT_OF = {"gpu": "gpu_count", "node": "node_count", "rack": "rack_count"}
_PER_ONE = {"node": "gpus_per_node", "rack": "gpus_per_rack"}


def _rack_gpus(values: dict[str, Any]) -> int | None:
    """The GPUs of one rack: the catalog's scale-up domain of the accelerator named."""
    text = values.get("accelerator") or values.get("accelerator_text")
    if not isinstance(text, str):
        return None
    try:
        return load_catalog().get(recognise_accelerator(text).id).scale_up_domain_gpus
    except UnknownAcceleratorError:
        return None


def _count(unit: str, values: dict[str, Any]) -> float | None:
    """How many of what a price is per the offer holds: its own count, else its GPUs over
    the GPUs of one (a rack's from the catalog's scale-up domain, 72 for a GB200 NVL72)."""
    count = values.get(_COUNT_OF.get(unit, ""))
    if isinstance(count, (int, float)):
        return float(count)
    gpus = values.get("gpu_count")
    each = values.get(_PER_ONE.get(unit, "")) or (_rack_gpus(values) if unit == "rack" else None)
    if isinstance(gpus, (int, float)) and isinstance(each, (int, float)) and each:
        return float(gpus) / float(each)
    return None


def _compute_per_month(b: SlotReaders, values: dict[str, Any]) -> float | None:
    """The recurring compute the offer charges per month, in USD (a line's quantity, or the
    offer's count of what the price is per, x the price per month); None when a compute
    price is not per month or per hour, or its count is not known."""
    total = 0.0
    for priced in b.priced:
        if priced.role != "compute":
            continue
        per = priced.money.per
        if not per or per[-1] not in _MONTHS_PER:
            return None
        count = priced.quantity if priced.quantity is not None else (
            _count(per[0], values) if len(per) == 2 else 1.0)
        if not isinstance(count, (int, float)):
            return None
        monthly = V.convert_money_to_usd(priced.money, b.fx) / _MONTHS_PER[per[-1]]
        total += monthly * count
    return total or None


def total_is_contract_value(b: SlotReaders, values: dict[str, Any],
                            provenance: dict[str, FieldSource]) -> None:
    """Drop a capex that is the rental's total over its term, a year or one month (a
    "Monthly total" read as a price paid once), and say so."""
    capex, term = values.get("capex_usd"), values.get("term_months")
    if not isinstance(capex, (int, float)) or values.get("offer_kind") == "purchase" or \
            values.get("amortization_months"):
        return
    try:
        monthly = _compute_per_month(b, values)
    except (V.ValueConversionError, V.MissingFxRate):
        return
    spans = [float(term)] if isinstance(term, (int, float)) and term > 0 else []
    months = next((m for m in (*spans, 12.0, 1.0) if monthly is not None
                   and _MIN_SHARE * capex <= monthly * m <= capex * 1.001), None)
    if monthly is None or months is None:
        return
    source = provenance.pop("capex_usd", None)
    values.pop("capex_usd")
    where = Location(**source.where) if source else Location(str(b.record.source.get("file")))
    b.note(where, "total-is-contract-value", {
        "total": capex, "monthly": monthly, "term": months}, "offer_kind",
        source.raw if source and source.raw else repr(capex))
