"""A quote beside the public offers of the same accelerator and commitment class.

Like with like: an on-demand (or monthly) quote is set against on-demand list prices, a 1-year
reserved quote against 1-year reserved list prices, a 3-year one against 3-year prices. Setting a
reserved quote against on-demand medians flatters every quote (reserved list prices run well below
on-demand), so when the snapshot has no public offer of the quote's class the comparison says so
and compares nothing. Every comparison names the snapshot date and how many offers it rests on.
The flags carry the figures; evaltool.report.flag_words writes their sentences.

Offers listed at one price in every region (Lambda, OCI: listing is not capacity) count once:
rows with the same provider, instance type, term and per-GPU price are one offer.
Quartiles use linear interpolation (numpy's default; ``statistics.quantiles`` 'inclusive').
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from evaltool.market import Market, current_market
from evaltool.market.catalog import MarketOffer
from evaltool.market.store import store_path
from evaltool.models import Flag, Offer

# Commitment classes by term length in months. Up to one month is bought like on-demand
# (monthly billing, no long commitment); 1-year and 3-year are the reserved terms the clouds
# publish (AWS, Azure, GCP CUDs); a term within a month of those counts as that term.
ON_DEMAND_MAX_MONTHS = 1.0
RESERVED_TERMS = {"1y": 12.0, "3y": 36.0}
TERM_SLACK_MONTHS = 1.0


def term_class(term_months: float | None) -> str | None:
    """"on-demand", "1y", "3y", or None for a term no public list price matches (6 months)."""
    if term_months is None or term_months <= ON_DEMAND_MAX_MONTHS:
        return "on-demand"
    for name, months in RESERVED_TERMS.items():
        if abs(term_months - months) <= TERM_SLACK_MONTHS:
            return name
    return None


def _quartiles(values: Sequence[float]) -> tuple[float, float, float]:
    if len(values) == 1:
        return values[0], values[0], values[0]
    q1, q2, q3 = statistics.quantiles(values, n=4, method="inclusive")
    return q1, q2, q3


@dataclass(frozen=True)
class PriceSpread:
    """Public per-GPU prices of one accelerator and term, one per distinct offer."""

    accelerator_id: str
    term: str
    prices: tuple[float, ...]  # sorted
    providers: tuple[str, ...]
    snapshot_dates: tuple[str, ...]

    def summary(self) -> dict[str, Any]:
        p25, median, p75 = _quartiles(self.prices)
        return {"n_compared": len(self.prices), "min_usd_per_gpu_hour": self.prices[0],
                "p25_usd_per_gpu_hour": p25, "median_usd_per_gpu_hour": median,
                "p75_usd_per_gpu_hour": p75, "max_usd_per_gpu_hour": self.prices[-1],
                "providers": list(self.providers), "snapshot_dates": list(self.snapshot_dates)}


class MarketIndex:
    """Public offers grouped by (catalog id, term), built once per run."""

    def __init__(self, market: Market) -> None:
        self.market = market
        seen: dict[tuple[str, str], dict[tuple[str, str, float], MarketOffer]] = defaultdict(dict)
        for o in market.offers:
            if not o.accelerator_id:
                continue
            key = (o.provider, o.instance_type, round(o.price_usd_per_gpu_hour, 4))
            seen[(o.accelerator_id, o.term)].setdefault(key, o)
        self.spreads: dict[tuple[str, str], PriceSpread] = {}
        for (acc, term), offers in seen.items():
            rows = list(offers.values())
            self.spreads[(acc, term)] = PriceSpread(
                acc, term, tuple(sorted(o.price_usd_per_gpu_hour for o in rows)),
                tuple(sorted({o.provider for o in rows})),
                tuple(sorted({o.snapshot_date for o in rows})))

    def spread(self, accelerator_id: str, term: str) -> PriceSpread | None:
        return self.spreads.get((accelerator_id, term))


def compare_quote(offer: Offer, index: MarketIndex) -> tuple[list[Flag], dict[str, Any] | None]:
    """The comparison flag of a rental quote and its figures (for the estimates), or nothing.

    Purchases are not compared with rentals here (the estimate's buy-vs-rent does that).
    """
    f = offer.fields
    if f.offer_kind == "purchase" or not f.accelerator or not f.price_usd_per_gpu_hour:
        return [], None
    price = f.compute_price_usd_per_gpu_hour or f.price_usd_per_gpu_hour
    source = offer.provenance.get("price_usd_per_gpu_hour")
    where = dict(source.where) if source else dict(offer.source)
    cls = term_class(f.term_months)
    figures: dict[str, Any] = {"accelerator": f.accelerator, "term_class": cls,
                               "quote_term_months": f.term_months,
                               "quote_usd_per_gpu_hour": price,
                               "snapshot": index.market.date_range}
    spread = index.spread(f.accelerator, cls) if cls else None
    if spread is None:
        figures["n_compared"] = 0
        return [Flag(code="market-no-comparable-offers", kind="market_no_comparable_offers",
                     severity="info", where=where, figures=dict(figures))], figures
    summary = spread.summary()
    figures.update(summary)
    figures["spread_term"] = spread.term
    median = summary["median_usd_per_gpu_hour"]
    figures["change_vs_median_pct"] = (price - median) / median * 100
    return [Flag(code="market-price-comparison", kind="market_price_comparison",
                 severity="info", where=where, figures=dict(figures))], figures


_INDEX_CACHE: dict[tuple[str, float], MarketIndex] = {}


def default_market_index() -> MarketIndex:
    """The index of `current_market()`, rebuilt only when the store file changes."""
    path = store_path()
    try:
        stamp = path.stat().st_mtime
    except OSError:
        stamp = -1.0
    key = (str(path), stamp)
    if key not in _INDEX_CACHE:
        _INDEX_CACHE.clear()
        _INDEX_CACHE[key] = MarketIndex(current_market(path))
    return _INDEX_CACHE[key]
