"""The open market beside the quotes: public GPU offers from dated catalog snapshots.

- ``current_market()``: the bundled snapshot plus what the user imported (``market import``),
  the newest snapshot of each provider winning, so every row has one source and one date;
- ``filter_offers()``: what ``evaltool market`` lists;
- ``compare_quote()`` (``evaltool.market.compare``): a quote against public offers of the same
  accelerator and commitment class;
- ``market_offers_for_workload()`` (``evaltool.market.scoring``): the N best public offers as
  ``Offer`` objects, sized to the workload, ready for the normal estimate and score path.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from evaltool.market.catalog import TERMS, MarketOffer, read_snapshot_text
from evaltool.market.store import stored_offers

SNAPSHOT_RESOURCE = "market/skypilot-snapshot.csv"


@functools.lru_cache(maxsize=1)
def bundled_snapshot() -> tuple[MarketOffer, ...]:
    """The snapshot shipped with evaltool (no network, no user files)."""
    text = resources.files("evaltool").joinpath("data", SNAPSHOT_RESOURCE).read_text(
        encoding="utf-8")
    return tuple(read_snapshot_text(text, f"evaltool/data/{SNAPSHOT_RESOURCE}"))


@dataclass(frozen=True)
class Market:
    """Public offers, newest snapshot per provider, with the dates they were taken."""

    offers: tuple[MarketOffer, ...]
    dates: dict[str, str]  # provider -> snapshot date used

    @property
    def date_range(self) -> str:
        dates = sorted(set(self.dates.values()))
        if not dates:
            return "no snapshot"
        return dates[0] if len(dates) == 1 else f"{dates[0]} to {dates[-1]}"


def current_market(store: Path | None = None, *, include_store: bool = True) -> Market:
    """Bundled snapshot + imported catalogs; for each provider only its newest snapshot.

    Mixing two dates of one provider would count a price twice or compare a stale price with a
    fresh one; taking the newest per provider keeps one date per provider and says which.
    Ties (same provider and date, e.g. a re-download) keep every row of that date.
    """
    rows: list[MarketOffer] = list(bundled_snapshot())
    if include_store:
        rows += stored_offers(store)
    newest: dict[str, str] = {}
    for row in rows:
        if row.snapshot_date > newest.get(row.provider, ""):
            newest[row.provider] = row.snapshot_date
    kept = tuple(r for r in rows if r.snapshot_date == newest[r.provider])
    return Market(kept, dict(sorted(newest.items())))


def _matches_accelerator(offer: MarketOffer, query: str) -> bool:
    """H100 matches H100-SXM, H100-PCIe and H100-NVL; an exact id matches itself only."""
    q = query.strip().lower()
    acc = offer.accelerator_id.lower()
    name = offer.accelerator_name.lower()
    return bool(q) and (acc == q or acc.startswith(q + "-") or name == q
                        or name.startswith(q + "-") or (not acc and q in name))


def filter_offers(
    offers: Sequence[MarketOffer], *, accelerator: str | None = None,
    max_price_usd_per_gpu_hour: float | None = None, min_gpus: int | None = None,
    min_memory_gb: float | None = None, provider: Sequence[str] = (),
    region: str | None = None, term: str | None = None,
) -> list[MarketOffer]:
    """Offers that pass every given filter, cheapest per GPU-hour first.

    Memory is per GPU: the catalogs list GiB as the cloud reports it (AWS: usable memory), so
    the minimum is compared with 8% slack, the tolerance the accelerator catalog snaps with.
    """
    if term is not None and term not in TERMS:
        raise ValueError(f"term {term!r}: expected one of {', '.join(TERMS)}")
    providers = {p.lower() for p in provider}
    out = []
    for o in offers:
        if accelerator and not _matches_accelerator(o, accelerator):
            continue
        if max_price_usd_per_gpu_hour is not None and \
                o.price_usd_per_gpu_hour > max_price_usd_per_gpu_hour:
            continue
        if min_gpus is not None and o.gpu_count < min_gpus:
            continue
        if min_memory_gb is not None and (o.gpu_memory_gib is None
                                          or o.gpu_memory_gib < min_memory_gb * 0.92):
            continue
        if providers and o.provider.lower() not in providers:
            continue
        if region and region.lower() not in f"{o.region} {o.zone}".lower():
            continue
        if term and o.term != term:
            continue
        out.append(o)
    out.sort(key=lambda o: (o.price_usd_per_gpu_hour, o.provider, o.instance_type, o.region,
                            o.zone, o.term))
    return out
