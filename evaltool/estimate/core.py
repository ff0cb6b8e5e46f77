"""MFU-adjusted time and cost of one workload on one offer: the public entry points.

The data's path: offer + workload + assumptions -> plain views (`views`) -> FLOPs -> fit ->
parallel layout (`layout`: TP inside the NVLink domain, PP / DP / FSDP across nodes) -> step
time with pipeline, tensor-parallel, recompute and inter-node losses -> checkpoint and failure
losses (Young/Daly) -> MFU (`efficiency`, `training`) -> time a buyer can count on
(`timeline`) -> money (`costs`); inference is sized in `inference`. Every formula is in
`formulas.py` or named beside its code with its public source.

The hot path is pure float math on slotted dataclasses: no pint, pandas or pydantic per
pair, so `estimate_many` handles 10,000 pairs well under a second (benchmarks/estimate.py).
The pydantic `Estimates` and its `explain` are built once per pair, at the end.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from evaltool.estimate.explain import build_explain
from evaltool.estimate.inference import estimate_inference
from evaltool.estimate.layout import clear_layout_cache
from evaltool.estimate.result import SIG6_MEMO, Result, numbers, round_numbers
from evaltool.estimate.training import estimate_training
from evaltool.estimate.views import (
    CATALOG_CACHE,
    AcceleratorSpec,
    OfferView,
    Params,
    WorkloadView,
    default_params,
    offer_view,
    resolve_params,
    workload_view,
)
from evaltool.models import Estimates, OfferFields, Workload

__all__ = ["AcceleratorSpec", "clear_caches", "compute", "estimate_many", "estimate_offer",
           "estimate_offers", "round_numbers"]


def clear_caches() -> None:
    """Forget memoised layouts, catalog entries and rounded values (benchmarks measure cold
    runs with it)."""
    clear_layout_cache()
    CATALOG_CACHE.clear()
    SIG6_MEMO.clear()


def compute(ov: OfferView, wv: WorkloadView, p: Params) -> Result:
    """All estimate numbers for one (offer, workload) pair, unrounded."""
    r = Result(kind=wv.kind, precision=wv.precision)
    r.assumed.extend(ov.assumed)
    r.offered_gbit_s_per_gpu = ov.inter_gbit_s_per_gpu
    r.network_efficiency = ov.network_factor
    if wv.shape_derived:
        r.assumed.append(
            f"model shape not given: derived {wv.n_layers} layers x d_model {wv.d_model} from "
            f"{wv.active_params / 1e9:g}B parameters (N = 12 L d^2, d = "
            f"{p.d_model_per_layer:g} L)."
        )
    if wv.batch_assumed and wv.kind != "inference":
        a, b = p.batch_law
        how = (f" (the batch published runs choose for this compute budget, B = {a:g} C^{b:g}"
               " tokens, DeepSeek LLM arXiv 2401.02954)" if wv.batch_from_compute else "")
        r.assumed.append(f"global batch not given: assumed {wv.global_batch_tokens:,.0f} tokens "
                         f"per optimizer step{how}.")
    if wv.kind == "inference":
        estimate_inference(wv, ov, p, r)
    else:
        estimate_training(wv, ov, p, r)
    return r


def estimate_many(
    pairs: Iterable[tuple[OfferFields, Workload]],
    assumptions: Mapping[str, Any] | None = None,
) -> list[dict[str, Any]]:
    """Headline numbers for many (offer, workload) pairs: the same numbers as `estimate_offer`
    without `explain`, unrounded (a batch is usually compared or aggregated, not printed;
    `round_numbers` gives estimate_offer's 6-significant-digit form). Views are built once per
    offer and per workload object."""
    p = default_params() if not assumptions else resolve_params(assumptions)
    offer_views: dict[int, tuple[OfferFields, OfferView]] = {}
    work_views: dict[int, tuple[Workload, WorkloadView]] = {}
    out: list[dict[str, Any]] = []
    for offer, workload in pairs:
        hit_o = offer_views.get(id(offer))
        if hit_o is None or hit_o[0] is not offer:
            hit_o = (offer, offer_view(offer, p))
            offer_views[id(offer)] = hit_o
        hit_w = work_views.get(id(workload))
        if hit_w is None or hit_w[0] is not workload:
            hit_w = (workload, workload_view(workload, p))
            work_views[id(workload)] = hit_w
        out.append(numbers(compute(hit_o[1], hit_w[1], p), rounded=False))
    return out


def estimate_offer(
    offer: OfferFields,
    workload: Workload,
    assumptions: Mapping[str, Any] | None = None,
    *,
    accelerator: AcceleratorSpec | None = None,
) -> Estimates:
    """MFU, time to train and total cost of `workload` on `offer`, with how each was reached.

    `assumptions` overrides values of evaltool/data/assumptions.yaml by name;
    `accelerator` replaces the catalog entry (for hardware the catalog does not know).
    """
    p = default_params() if not assumptions else resolve_params(assumptions)
    ov = offer_view(offer, p, accelerator)
    wv = workload_view(workload, p)
    r = compute(ov, wv, p)
    values = numbers(r)
    values["explain"] = build_explain(r, ov, wv, p, values)
    return Estimates(**values)


def estimate_offers(
    offers: Sequence[OfferFields], workload: Workload,
    assumptions: Mapping[str, Any] | None = None,
) -> list[Estimates]:
    """`estimate_offer` for each offer against one workload."""
    return [estimate_offer(o, workload, assumptions) for o in offers]
