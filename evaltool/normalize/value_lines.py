"""Lines of a line-item table that are no lines: a labelled value, or a storage line whose
size stands in the quantity column.

"Durata contrattuale | 36 mesi | | ": a line with no price whose description is a field's
label states that field (the term), its value written in the quantity column.  "Storage WEKA
condiviso | 2 PB | incluso": a storage line states its size in the quantity column and its
kind in the description.  Read only for a field nothing labelled has stated.
"""

from __future__ import annotations

import contextlib

from evaltool.normalize import values as V
from evaltool.normalize.facts import IN_TEXT, one_shared_storage_kind
from evaltool.normalize.slots import SlotReaders
from evaltool.normalize.storage_lines import capacity_tb, is_storage_line
from evaltool.read.cells import Candidate, LineItem

# The fields a priceless line may state as a label and its value (never money or counts: a
# BOM line's quantity is a count of parts, and its money the line's own).
_VALUE_SLOTS = frozenset({"term_months", "delivery_date", "valid_until", "sla_uptime_pct",
                          "support_response_hours", "hw_replacement_hours"})


def _value_text(item: LineItem) -> str:
    return " ".join(t for t in (item.raw.get("quantity", ""), item.raw.get("unit", "")) if t)


def values_on_lines(b: SlotReaders) -> None:
    """The facts of lines that are a label and its value, or a storage line's size."""
    read_slot = getattr(b, "read_slot", None)
    for item in b.record.line_items:
        where = item.cells.get("quantity", item.row_where)
        text = _value_text(item).strip()
        if not text:
            continue
        if item.unit_price is None and item.total is None and read_slot is not None:
            slot = b.vocab.match(item.description)
            if slot in _VALUE_SLOTS and not b.facts.get(slot):
                # a quantity no value of the field: the line is a line after all
                with contextlib.suppress(V.ValueParseError, V.ValueConversionError,
                                         ValueError, ArithmeticError):
                    read_slot(slot, Candidate(item.description, text, where), text)
                continue
        if is_storage_line(item.description):
            _storage_line(b, item, text)


def _storage_line(b: SlotReaders, item: LineItem, text: str) -> None:
    where = item.cells.get("description", item.row_where)
    if not b.facts.get("storage_capacity_tb") and capacity_tb(item.description) is None:
        size = capacity_tb(f"{item.description} {text}")
        if size is not None:
            b.add("storage_capacity_tb", size, item.cells.get("quantity", where),
                  f"{item.description} | {text}", IN_TEXT,
                  "capacity stated in the storage line's quantity")
    if not b.facts.get("storage_type") and (
            kind := one_shared_storage_kind(item.description)) is not None:
        b.add("storage_type", kind, where, item.description, IN_TEXT,
              "kind named on the storage line")
