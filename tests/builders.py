"""Offers built in code for tests: a sound 1024-GPU H100 InfiniBand rental, changed per test."""

from __future__ import annotations

from typing import Any

from evaltool.models import Offer, OfferFields

SOUND_RENTAL: dict[str, Any] = dict(
    accelerator="H100-SXM", gpu_count=1024, gpus_per_node=8, node_count=128, gpu_memory_gb=80,
    inter_node_fabric="infiniband", inter_node_gbit_s_per_gpu=400, network_dedicated=True,
    storage_type="weka", storage_capacity_tb=2000, orchestrator="slurm", root_access=True,
    hw_replacement_hours=24, support_response_hours=1, sla_uptime_pct=99.5,
    sla_max_credit_pct=25, price_usd_per_gpu_hour=2.35, term_months=12, egress_usd_per_gb=0.0,
    offer_kind="rent",
)


def make_offer(offer_id: str, *, suffix: str = ".yaml", **fields: Any) -> Offer:
    """A sound rental named after `offer_id`, with `fields` changed."""
    values = {"vendor": offer_id.title(), **SOUND_RENTAL, **fields}
    return Offer(id=offer_id, source={"file": f"{offer_id}{suffix}"},
                 fields=OfferFields(**values))
