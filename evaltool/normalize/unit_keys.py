"""A key that carries its value's currency and unit: under ``storage:``, the key
``usd_per_gb_month: 0.02`` is USD 0.02 per GB-month, USD 20 per TB-month.  Exports and
portals name a figure's unit in its key ("eur_per_tib_month", "usd_per_tb") and write the
figure bare; the key's words are read with the package's unit words, the section says what is
priced."""

from __future__ import annotations

import re

from evaltool.normalize import values as V
from evaltool.normalize.facts import IN_TEXT, LABELLED, one_shared_storage_kind
from evaltool.normalize.slots import GIB_PER_TB, SlotReaders
from evaltool.normalize.storage_lines import capacity_tb, is_storage_line
from evaltool.read.cells import Candidate, cell_text
from evaltool.read.text import currency_of
from evaltool.read.vocabulary import normalise_label

# "usd per gb month", "storage rate usd tb month", "managed lustre 240 tb provisioned per gb
# month": a capacity unit per month in a label (the label's words, folded by normalise_label)
_UNIT_RE = re.compile(r"\b(?P<unit>gib|gb|go|tib|tb|to|pb|po)\s+(?:per\s+|pro\s+|par\s+)?"
                      r"(?:month|mo|mth|monat|mois|mes|mese|maand|miesiac)\b")
# TB per capacity unit of a price: a price per GB is 1,000 x the price per TB.
_PRICE_PER_TB_SCALE = {"gb": 1000.0, "go": 1000.0, "gib": GIB_PER_TB, "tb": 1.0, "to": 1.0,
                       "tib": 1 / 1.099511627776, "pb": 0.001, "po": 0.001}
_STORAGE_SLOTS = ("storage_type", "storage_capacity_tb", "storage_usd_per_tb_month")
_NUMBER_RE = re.compile(r"^\s*(\d{1,12}(?:\.\d{1,12})?)(?:\s+[^\W\d_]+)?\s*$")


def _about_storage(b: SlotReaders, cand: Candidate) -> bool:
    return b.vocab.match(cand.label, cand.section) in _STORAGE_SLOTS or bool(
        cand.section and b.vocab.match(cand.section) in _STORAGE_SLOTS) or \
        is_storage_line(cand.label)


def _bare_amount(value: object) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        try:
            return float(value)
        except OverflowError:  # a 400-digit integer is no price
            return None
    if isinstance(value, str) and (number := _NUMBER_RE.match(value)):
        return float(number.group(1))  # "0.02", "0.02 month" (a key's time, appended)
    return None


def priced_keys(b: SlotReaders) -> None:
    """Storage prices whose unit is in the label or key, the value a bare figure
    ("usd_per_gb_month: 0.02" under storage:, "Storage rate (USD / TB-month) | 30",
    "Managed Lustre (240 TB provisioned), per GB-month | 0.145"), or per GB-month under a
    storage price's label ("price | $0.025/GB/month")."""
    if not b.facts.get("storage_usd_per_tb_month"):
        _per_gb_month(b)
    if b.facts.get("storage_usd_per_tb_month"):
        return
    for cand in b.record.candidates:
        label = normalise_label(cand.label)
        match = _UNIT_RE.search(label)
        amount = _bare_amount(cand.value)
        if match is None or amount is None or not _about_storage(b, cand):
            continue
        currency = currency_of(cand.label.replace("_", " ")) or b.currency_explicit or \
            b.currency_hint
        if currency is None:
            continue  # no currency anywhere: missing rather than assumed
        scale = _PRICE_PER_TB_SCALE[match.group("unit")]
        b._usd("storage_usd_per_tb_month", V.Money(amount, currency, ("tb", "month"),
                                                   str(cand.value)),
               cand.where, f"{cand.label}: {cand.value}", LABELLED,
               f"the label {cand.label!r} names the price's unit (x {scale:g} per TB)",
               scale=scale)
        _forget_unreadable(b, cand.where)
        _storage_named(b, cand)
        return


def _storage_named(b: SlotReaders, cand: Candidate) -> None:
    """'Managed Lustre (240 TB provisioned), per GB-month': the label names the storage."""
    where = cand.label_where or cand.where
    if not b.facts.get("storage_capacity_tb") and (size := capacity_tb(cand.label)):
        b.add("storage_capacity_tb", size, where, cand.label, IN_TEXT,
              "capacity stated in the storage price's label")
    if not b.facts.get("storage_type") and (
            kind := one_shared_storage_kind(cand.label)) is not None:
        b.add("storage_type", kind, where, cand.label, IN_TEXT,
              "kind named in the storage price's label")


def _forget_unreadable(b: SlotReaders, where: object) -> None:
    b.problems = [p for p in b.problems if not (p.code == "value-unreadable"
                                                and p.where == where)]
    b.unreadable = {k: v for k, v in b.unreadable.items() if v.where != where}


def _per_gb_month(b: SlotReaders) -> None:
    """A storage price's label whose value is per GB-month: 1,000 x per TB-month."""
    for cand in b.record.candidates:
        if b.vocab.match(cand.label, cand.section) != "storage_usd_per_tb_month" or \
                not isinstance(cand.value, str):
            continue
        try:
            money = b._money(cand, cell_text(cand.value))
        except (V.ValueParseError, V.ValueConversionError, ValueError, ArithmeticError):
            continue
        if money.per != ("gb", "month"):
            continue
        b._usd("storage_usd_per_tb_month", money, cand.where, cell_text(cand.value), LABELLED,
               "a price per GB-month x 1000", scale=1000.0)
        _forget_unreadable(b, cand.where)
        return
