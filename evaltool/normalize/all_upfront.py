"""An upfront payment stated per instance, and an option paid all up front.

A hyperscaler's reserved pricing states its upfront per instance ("Upfront payment (per
instance) | 640,000") and often the total beside it ("Upfront payment (total, 32 instances) |
20,480,000"): the upfront covers every instance of the option, so a per-instance (per-node,
per-GPU) upfront is that figure times the offer's count, and agrees with the total rather
than conflicting with it.  An "All Upfront" option states its hourly rate as 0 (or none, and
says it is all up front): the buyer pays the whole term at signature, so its price per
GPU-hour is the upfront spread over the term (PRODUCT.md: per-term prices become
price_usd_per_gpu_hour, 730 hours a month):

    price $/GPU-h = upfront / (GPUs x 730 h x term months)
"""

from __future__ import annotations

import functools
import re
from typing import Any

from evaltool.errors import Location
from evaltool.issues import Param
from evaltool.models import HOURS_PER_MONTH, FieldSource
from evaltool.normalize.facts import LABELLED
from evaltool.normalize.slots import SlotReaders
from evaltool.read import text as T
from evaltool.read.cells import Candidate, cell_text
from evaltool.read.vocabulary import normalise_label
from evaltool.resources import data_dir

# "per instance", "/ node", "je Instanz", "pro Knoten", "par instance", "por instancia",
# "per istanza", "na węzeł", "each server": a word that makes what follows the unit priced.
_PER_UNIT_RE = re.compile(r"(?:\bper|\bje|\bpro|\bpar|\bpor|\beach|\bcada|\bogni|\bna|\bza|"
                          r"\bpr|/)\s*([^\W\d_]+)", re.I)
_COUNT_OF = {"node": "node_count", "gpu": "gpu_count"}


def per_unit(label: str) -> str | None:
    """'Upfront payment (per instance)' -> 'node'; 'Upfront (per GPU)' -> 'gpu'; 'Upfront
    payment (total, 32 instances)' -> None."""
    for found in _PER_UNIT_RE.finditer(normalise_label(label) if "/" not in label else label):
        resource = T.resource_of(found.group(1))
        if resource in _COUNT_OF:
            return resource
    return None


@functools.cache
def _all_upfront_words() -> tuple[str, ...]:
    import yaml

    raw = yaml.safe_load((data_dir() / "paid_words.yaml").read_text(encoding="utf-8"))
    return tuple(normalise_label(str(w)) for w in raw["all_upfront"])


def _says_all_upfront(b: SlotReaders) -> bool:
    """Whether the offer's own words say the whole term is paid up front ("3-Year Reserved,
    All Upfront"): then an upfront with no hourly rate is the offer's whole price."""
    texts = [*(f"{c.label} {cell_text(c.value)}" for c in b.record.candidates),
             str(b.record.source.get("option", ""))]
    return any(f" {w} " in f" {normalise_label(t)} " for t in texts
               for w in _all_upfront_words())


class UpfrontReaders(SlotReaders):
    """The upfront slot: a per-unit upfront is kept apart until the counts are known."""

    def _slot_upfront_usd(self, cand: Candidate, text: str) -> None:
        unit = per_unit(cand.label)
        if unit is None:
            self._money_field("upfront_usd", cand, text, "once")
            return
        money = self._money(cand, text, per=())
        self._usd(f"upfront_usd_per_{unit}", money, cand.where, text, LABELLED,
                  f"an upfront per {unit}")


def settle_upfront(values: dict[str, Any], provenance: dict[str, FieldSource],
                   b: SlotReaders, here: Location) -> None:
    """A per-unit upfront times its count; then an all-upfront option's price: the upfront
    spread over the term where the hourly rate is stated as 0."""
    for unit, count_name in _COUNT_OF.items():
        each = values.pop(f"upfront_usd_per_{unit}", None)
        source = provenance.pop(f"upfront_usd_per_{unit}", None)
        count = values.get(count_name)
        if each is None or not count:
            continue
        total = float(each) * float(count)
        where = Location(**source.where) if source and source.where else here
        params: dict[str, Param] = {"unit": unit, "each": float(each), "count": float(count),
                                    "total": total}
        stated = values.get("upfront_usd")
        if stated is None:
            values["upfront_usd"] = total
            provenance["upfront_usd"] = FieldSource(
                where=source.where if source else {}, raw=source.raw if source else None,
                derived_from=[count_name],
                note=f"{float(each):,.2f} USD per {unit} x {count:g} = {total:,.2f} USD")
            b.note(where, "upfront-per-unit", params, "upfront_usd", severity="info")
        elif abs(float(stated) - total) > 0.005 * max(total, 1.0):
            b.note(where, "upfront-per-unit-disagrees", {**params, "stated": float(stated)},
                   "upfront_usd")
    upfront, gpus, months = (values.get(n) for n in ("upfront_usd", "gpu_count",
                                                     "term_months"))
    rate = values.get("price_usd_per_gpu_hour")
    if (rate != 0 and not (rate is None and _says_all_upfront(b))) or values.get(
            "offer_kind") == "purchase" or not all(
            isinstance(x, (int, float)) and x > 0 for x in (upfront, gpus, months)):
        return
    paid, gpus, months = float(upfront), float(gpus), float(months)  # type: ignore[arg-type]
    price = paid / (gpus * HOURS_PER_MONTH * months)
    text = (f"the hourly rate is 0 and the upfront {paid:,.0f} USD pays the term: / ({gpus:g} "
            f"GPUs x {HOURS_PER_MONTH:g} h x {months:g} months) = {price:.4f}")
    old = provenance.get("price_usd_per_gpu_hour")
    values["price_usd_per_gpu_hour"] = price
    provenance["price_usd_per_gpu_hour"] = FieldSource(
        where=old.where if old else {}, raw=old.raw if old else None,
        derived_from=["upfront_usd", "gpu_count", "term_months"], note=text)
    b.note(Location(**old.where) if old and old.where else here, "upfront-amortised",
           {"note": text}, "price_usd_per_gpu_hour", severity="info")
