"""Which labelled price the buyer pays: net beats list.

A calculator or a private offer states a price several times: the list or base rate, the
discount, and the net rate ("Precio base por acelerador-hora | 2,10", "Descuento por volumen |
10%", "Precio neto por acelerador-hora | 1,89"). The buyer pays the net one. Each labelled
compute price gets a rank by its label's words (evaltool/data/paid_words.yaml, any language):
-1 for a list or base price (the price before the discount: the price only when no other is
stated), +1 for a net, effective or discounted price (it beats a price whose label says
neither), 0 otherwise. Between two prices of the same rank the first stated is used, and the
other is said (`second-compute-price`).

A discount stated as a labelled share ("Descuento por volumen | 10%") applies to the price it
names: to a list or base price with no net one stated (the buyer pays it less the
discount); beside a price that says neither, it is said, as the figure may be before or after
it (never picked silently).
"""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING, Any

from evaltool.models import FieldSource
from evaltool.normalize.facts import _Priced
from evaltool.normalize.money import is_list_price
from evaltool.read.cells import Candidate, cell_text
from evaltool.read.paid_rows import row_role
from evaltool.read.vocabulary import normalise_label
from evaltool.resources import data_dir

if TYPE_CHECKING:  # (slots.py reads each price's rank from here)
    from evaltool.normalize.slots import SlotReaders


@functools.cache
def _words(key: str) -> tuple[str, ...]:
    import yaml

    raw = yaml.safe_load((data_dir() / "paid_words.yaml").read_text(encoding="utf-8"))
    return tuple(sorted({normalise_label(str(w)) for w in raw[key]} - {""}, key=len,
                        reverse=True))


def _says(label: str, key: str) -> bool:
    padded = f" {normalise_label(label)} "
    return any(f" {w} " in padded for w in _words(key))


def paid_rank(label: str) -> int:
    """'List $/GPU-hr', 'Precio base (€)' -> -1; 'Net $/GPU-hr', 'Precio neto' -> 1; else 0."""
    if is_list_price(label) or _says(label, "list_price"):
        return -1
    return 1 if _says(label, "net_price") else 0


_SHARE_RE = re.compile(r"^\s*[-−–]?\s*(\d{1,2}(?:[.,]\d{1,3})?)\s*%\s*$")


def _share(value: Any) -> float | None:
    """'10%', '10 %', 0.1 (a cell formatted as a percentage): a share of a price."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return float(value) if 0 < value < 1 else None
    found = _SHARE_RE.match(str(value))
    return float(found.group(1).replace(",", ".")) / 100.0 if found else None


def stated_discounts(candidates: list[Candidate]) -> list[tuple[float, Candidate]]:
    """The discounts an offer states as a labelled share ('Descuento por volumen | 10%',
    'Mengenrabatt | 0,1', 'Committed-use discount | 15%')."""
    found = []
    for cand in candidates:
        share = _share(cand.value)
        if share is not None and row_role(cand.label, False) == "discount":
            found.append((share, cand))
    return found


def settle_stated_discount(values: dict[str, Any], provenance: dict[str, FieldSource],
                           b: SlotReaders, compute: list[_Priced]) -> None:
    """A stated discount applied to the price it names: a list or base price with no net
    one beside it is paid less the discount (`list-price-discounted`); a price whose label
    says neither list nor net beside a stated discount may be either, and is said
    (`price-discount-unclear`), never changed."""
    rate = values.get("compute_price_usd_per_gpu_hour")
    if rate is None or not compute:
        return
    found = stated_discounts(b.record.candidates)
    shares = sorted({round(s, 6) for s, _ in found})
    first = sorted(compute, key=lambda p: (-p.priority, -p.paid))[0]
    if not found or first.paid > 0:
        return
    share, cand = found[0]
    text = ", ".join(f"{c.label!r} {cell_text(c.value)}" for _, c in found)[:200]
    if first.paid < 0 and len(shares) == 1:
        net = float(rate) * (1.0 - share)
        for name in ("compute_price_usd_per_gpu_hour", "price_usd_per_gpu_hour"):
            if values.get(name) == rate:
                values[name] = net
                old = provenance.get(name)
                provenance[name] = FieldSource(
                    where=old.where if old else cand.where.to_dict(),
                    raw=old.raw if old else None, derived_from=old.derived_from if old else None,
                    note=f"the list price {float(rate):.4g} less the stated discount "
                         f"{share * 100:g}% = {net:.4g} USD per GPU-hour")
        b.note(cand.where, "list-price-discounted", {"discount": text, "before": float(rate),
                                                     "after": net}, "price_usd_per_gpu_hour")
        return
    b.note(cand.where, "price-discount-unclear", {"discount": text, "price": float(rate)},
           "price_usd_per_gpu_hour")
