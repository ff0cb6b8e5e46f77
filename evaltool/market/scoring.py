"""The N best public offers for a workload, as offers the normal pipeline can score.

A catalog row is one instance type (e.g. 8 x H100) at a list price. For a workload it becomes an
offer of whole instances: enough GPUs for the workload's plan (``gpus_wanted``) and at least the
sizing rule's minimum (training: params_B x 18 x 1.25 / GPU memory; inference x 2), rounded up to
whole instances. What the catalog states is used (accelerator, GPUs per instance, host memory,
region, price); what it does not state (inter-node network, storage, delivery date, contract,
support) stays unknown, so the rubric's missing-data policy and gates treat it as unknown, never
as good. Every such offer carries a ``market-list-price`` flag and a source naming the catalog
file and snapshot date.

Choosing the N best: rows with the same hardware (catalog id, GPUs per instance, memory) take
the same time on the same workload, and their run cost is GPU-hours x list price (a list price
has no storage, egress or support add-ons). So one estimate per hardware group gives the time,
and each row's total economic cost (run cost + cost of delay) follows from its price; the N
lowest go through the full estimate and score path like any quote.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from typing import Any

from evaltool.estimate import estimate_offer
from evaltool.market import Market, filter_offers
from evaltool.market.catalog import TERM_WORDS, MarketOffer
from evaltool.models import FieldSource, Flag, Offer, OfferFields, Workload

GIB_TO_GB = 1024**3 / 1e9
MARKET_SOURCE_KEY = "public_market"


def is_market_offer(offer: Offer) -> bool:
    return bool(offer.source.get(MARKET_SOURCE_KEY))


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def _fields(row: MarketOffer, instances: int) -> OfferFields:
    return OfferFields(
        vendor=row.provider, offer_kind="rent", region=row.region or None,
        offer_name=f"{row.instance_type} x{instances} ({TERM_WORDS[row.term]} list price)",
        accelerator=row.accelerator_id, gpu_count=row.gpu_count * instances,
        gpus_per_node=row.gpu_count, node_count=instances,
        cpu_memory_gb_per_node=row.memory_gib * GIB_TO_GB if row.memory_gib else None,
        price_usd_per_gpu_hour=row.price_usd_per_gpu_hour,
    )


def market_offer(row: MarketOffer, instances: int) -> Offer:
    """One catalog row as an offer of ``instances`` whole instances, with its provenance."""
    fields = _fields(row, instances)
    where = {"file": row.source, "key": f"{row.provider} {row.instance_type} {row.region} "
             f"{row.zone} {row.term}".replace("  ", " ").strip()}
    note = f"public catalog list price, snapshot {row.snapshot_date}"
    provenance = {
        "vendor": FieldSource(where=where, raw=row.provider, note=note),
        "accelerator": FieldSource(where=where, raw=row.accelerator_name, note=note),
        "gpu_count": FieldSource(where=where, raw=str(row.gpu_count), derived_from=None,
                                 note=f"{instances} instance(s) of {row.gpu_count} GPUs, sized "
                                 "to the workload"),
        "gpus_per_node": FieldSource(where=where, raw=str(row.gpu_count), note=note),
        "node_count": FieldSource(where=where, raw=str(instances),
                                  note="instances needed for the workload"),
        "price_usd_per_gpu_hour": FieldSource(
            where=where, raw=f"{row.price_usd_per_hour:g} USD per instance-hour",
            note=f"{note}; per GPU = instance price / {row.gpu_count}"),
    }
    if fields.region:
        provenance["region"] = FieldSource(where=where, raw=row.region, note=note)
    if fields.cpu_memory_gb_per_node:
        provenance["cpu_memory_gb_per_node"] = FieldSource(
            where=where, raw=f"{row.memory_gib:g} GiB", note=note)
    # evaltool.report.flag_words writes the sentence from these figures.
    flag = Flag(kind="market_list_price", severity="info", where=where, figures={
        "provider": row.provider, "instance_type": row.instance_type,
        "region": row.region or None, "term": row.term, "snapshot_date": row.snapshot_date})
    ident = f"market-{_slug(row.provider)}-{_slug(row.instance_type)}-{_slug(row.region)}-" \
            f"{_slug(row.zone)}-{row.term}-{row.key[:6]}".replace("--", "-")
    return Offer(
        id=ident,
        source={"file": row.source, "key": where["key"], MARKET_SOURCE_KEY: {
            "provider": row.provider, "snapshot_date": row.snapshot_date, "term": row.term,
            "list_price": True, "data_notes": row.data_notes}},
        fields=fields, provenance={k: provenance[k] for k in sorted(provenance)}, flags=[flag])


def _instances_for(row: MarketOffer, workload: Workload,
                   assumptions: Mapping[str, Any] | None) -> int | None:
    """Whole instances for the workload's GPUs (and the sizing minimum); None if unknown."""
    single = estimate_offer(_fields(row, 1), workload, assumptions)
    need = max(workload.gpus_wanted or 0, single.min_gpus_required or 0, 1)
    return max(1, math.ceil(need / row.gpu_count))


def best_market_offers(
    market: Market, workload: Workload, n: int, *,
    assumptions: Mapping[str, Any] | None = None, term: str = "on-demand",
    accelerators: Sequence[str] = (),
) -> list[Offer]:
    """The ``n`` public offers with the lowest total economic cost for the workload.

    Only rows whose accelerator is in the catalog can be estimated; rows without a time
    estimate (e.g. no peak for the workload's precision) rank last, never first.
    """
    if n <= 0:
        return []
    rows = [r for r in filter_offers(market.offers, term=term) if r.accelerator_id]
    if accelerators:
        rows = [r for r in rows if r.accelerator_id in set(accelerators)]
    groups: dict[tuple[str, int, float | None], list[MarketOffer]] = {}
    for r in rows:
        groups.setdefault((r.accelerator_id, r.gpu_count, r.gpu_memory_gib), []).append(r)
    delay = workload.cost_of_delay_usd_per_day
    ranked: list[tuple[float, str, MarketOffer, int]] = []
    for members in groups.values():
        rep = members[0]
        instances = _instances_for(rep, workload, assumptions)
        if instances is None:
            continue
        est = estimate_offer(_fields(rep, instances), workload, assumptions)
        days, cost = est.time_to_train_days, est.total_cost_usd
        for r in members:
            if days is None or cost is None:
                total = math.inf
            else:
                total = cost * r.price_usd_per_gpu_hour / rep.price_usd_per_gpu_hour \
                    + delay * days
            ranked.append((total, r.key, r, instances))
    ranked.sort(key=lambda t: (t[0], t[1]))
    return [market_offer(r, instances) for _, _, r, instances in ranked[:n]]
