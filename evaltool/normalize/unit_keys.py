"""A key that carries its value's currency and unit: under ``storage:``, the key
``usd_per_gb_month: 0.02`` is USD 0.02 per GB-month, USD 20 per TB-month.  Exports and
portals name a figure's unit in its key ("eur_per_tib_month", "usd_per_tb") and write the
figure bare; the key's words are read with the package's unit words, the section says what is
priced."""

from __future__ import annotations

import re

from evaltool.normalize import values as V
from evaltool.normalize.facts import LABELLED
from evaltool.normalize.slots import GIB_PER_TB, SlotReaders
from evaltool.read.cells import cell_text
from evaltool.read.text import currency_of
from evaltool.read.vocabulary import normalise_label

# "usd per gb month", "eur per tib", "usd gb month": a currency per capacity unit (per month)
_KEY_RE = re.compile(r"^(?:price\s+|cost\s+|rate\s+)?(?P<cur>[a-z]{3})\s+(?:per\s+)?"
                     r"(?P<unit>gib|gb|tib|tb|pb)(?:\s+(?:per\s+)?(?:month|mo|mth))?$")
# TB per capacity unit of a price: a price per GB is 1,000 x the price per TB.
_PRICE_PER_TB_SCALE = {"gb": 1000.0, "gib": GIB_PER_TB, "tb": 1.0, "tib": 1 / 1.099511627776,
                       "pb": 0.001}
_STORAGE_SLOTS = ("storage_type", "storage_capacity_tb", "storage_usd_per_tb_month")
_NUMBER_RE = re.compile(r"^\s*(\d+(?:\.\d+)?)\b")


def priced_keys(b: SlotReaders) -> None:
    """Storage prices written as a bare figure under a key that names its currency and unit,
    or per GB-month under a storage price's label ("price | $0.025/GB/month")."""
    if not b.facts.get("storage_usd_per_tb_month"):
        _per_gb_month(b)
    if b.facts.get("storage_usd_per_tb_month"):
        return
    for cand in b.record.candidates:
        if cand.where.key is None or not cand.section:
            continue
        if b.vocab.match(cand.section) not in _STORAGE_SLOTS:
            continue
        match = _KEY_RE.match(normalise_label(cand.label))
        currency = currency_of(cand.label.replace("_", " "))
        if match is None or currency is None:
            continue
        amount = cand.value if isinstance(cand.value, (int, float)) else None
        if isinstance(cand.value, str) and (number := _NUMBER_RE.match(cand.value)):
            amount = float(number.group(1))
        if amount is None or isinstance(amount, bool):
            continue
        scale = _PRICE_PER_TB_SCALE[match.group("unit")]
        b._usd("storage_usd_per_tb_month", V.Money(float(amount), currency, ("tb", "month"),
                                                   str(cand.value)),
               cand.where, f"{cand.label}: {cand.value}", LABELLED,
               f"the key {cand.label!r} names the price's unit (x {scale:g} per TB)", scale=scale)
        _forget_unreadable(b, cand.where)
        return


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
