"""Inference: a serving fleet sized like a serving engineer would, and its cost."""

from __future__ import annotations

import math
from typing import Any

from evaltool.estimate.costs import commitment_usd
from evaltool.estimate.efficiency import peak_and_ceiling
from evaltool.estimate.result import Result
from evaltool.estimate.training import check_fit
from evaltool.estimate.views import OfferView, Params, WorkloadView


def estimate_inference(wv: WorkloadView, ov: OfferView, p: Params, r: Result) -> None:
    check_fit(wv, ov, p, r, inference=True)
    if not peak_and_ceiling(wv, ov, p, r) or not ov.memory_gb:
        return
    assert r.peak_tflops is not None
    peak = r.peak_tflops * 1e12
    bpp = p.inference_bytes_per_param.get(wv.precision, 2.0)
    weights = wv.params * bpp
    g = ov.gpus_per_node
    kv_per_token = 2.0 * wv.n_layers * min(p.kv_dim, wv.d_model) * 2.0  # K and V, bf16
    serving = wv.serving
    prompt = getattr(serving, "prompt_tokens", None) if serving else None
    output = getattr(serving, "output_tokens", None) if serving else None
    ctx = (prompt or 0) + (output or 0) or p.inference_context_tokens
    # A replica gets the seed's x1.25 minimum (room for a useful KV cache). When the offer is
    # smaller than that, the least that holds the weights and one sequence's KV cache.
    usable = ov.memory_gb * 1e9 * p.gpu_memory_usable_fraction
    need = r.min_gpus_required or 1
    if ov.gpu_count is not None and need > ov.gpu_count:
        need = max(1, math.ceil((weights + ctx * kv_per_token) / usable))
    if need <= g:
        size = 1
        while size < need:
            size *= 2
        size = min(size, g)  # tensor parallel inside the node
    else:
        size = math.ceil(need / g) * g  # pipeline across nodes
    batch = (getattr(serving, "batch_size", None) if serving else None) or p.decode_batch_size
    free = size * ov.memory_gb * 1e9 * p.gpu_memory_usable_fraction - weights
    max_batch = max(1, int(free // (ctx * kv_per_token))) if free > 0 else 1
    if batch > max_batch:
        r.notes.append(f"decode batch cut from {batch} to {max_batch} to fit the KV cache.")
        batch = max_batch
    hbm = ov.hbm_tbyte_s
    if hbm is None:
        r.notes.append("memory bandwidth unknown: decode throughput cannot be estimated.")
        return
    bw = size * hbm * 1e12 * p.hbm_efficiency
    limit_ms = getattr(serving, "max_latency_ms_per_token", None) if serving else None
    if limit_ms:
        fit_batch = int((limit_ms / 1000.0 * bw - weights) // (ctx * kv_per_token))
        if fit_batch < batch:
            batch = max(1, fit_batch)
            r.notes.append(f"decode batch limited to {batch} by the {limit_ms:g} ms/token target.")
    mem_s = (weights + batch * ctx * kv_per_token) / bw
    compute_s = batch * 2.0 * wv.active_params / (size * peak * p.prefill_mfu)
    step_s = max(mem_s, compute_s)
    decode_per_gpu = batch / step_s / size
    prefill_fpt = 2.0 * wv.active_params + 4.0 * wv.n_layers * wv.d_model * (prompt or ctx)
    prefill_per_gpu = peak * p.prefill_mfu / prefill_fpt
    out_tps = None
    prefill_tps = 0.0
    if serving is not None:
        if serving.tokens_per_s is not None:
            out_tps = serving.tokens_per_s
            if serving.requests_per_s is not None and prompt:
                prefill_tps = serving.requests_per_s * prompt
            elif prompt and output:
                prefill_tps = out_tps * prompt / output
        elif serving.requests_per_s is not None and output:
            out_tps = serving.requests_per_s * output
            prefill_tps = serving.requests_per_s * (prompt or 0)
    if out_tps is not None:
        gpu_load = out_tps / decode_per_gpu + prefill_tps / prefill_per_gpu
        replicas = max(1, math.ceil(gpu_load / size - 1e-9))
    else:
        replicas = max(1, (ov.gpu_count or size) // size)
    used = replicas * size
    if size < g:
        # Capacity is rented by the node: replicas smaller than a node still pay for it.
        used = math.ceil(used / g) * g
        if ov.gpu_count:
            used = min(used, max(ov.gpu_count, replicas * size))
    r.gpus_used = used
    r.gpus_note = (f"{replicas} replica(s) of {size} GPUs serve the target."
                   if out_tps is not None else
                   f"no serving target: {replicas} replica(s) of {size} GPUs fill the offer.")
    served_tps = out_tps if out_tps is not None else decode_per_gpu * used
    r.mfu = decode_per_gpu * 2.0 * wv.active_params / peak
    r.tokens_per_s_per_gpu = decode_per_gpu
    inf: dict[str, Any] = {
        "replica_gpus": size, "replicas_needed": replicas, "decode_batch": batch,
        "context_tokens": ctx, "decode_ms_per_token": step_s * 1000.0,
        "decode_tokens_per_s_per_gpu": decode_per_gpu,
        "prefill_tokens_per_s_per_gpu": prefill_per_gpu,
        "output_tokens_per_s": served_tps,
        "capacity_met": (used <= ov.gpu_count) if ov.gpu_count else None,
        "kv_bytes_per_token": kv_per_token, "weight_gb": weights / 1e9,
        "decode_bound": "memory" if mem_s >= compute_s else "compute",
    }
    price = ov.price_usd_per_gpu_hour
    if price is not None:
        per_hour = price * used + (ov.support_usd_per_month + ov.network_usd_per_month) / (
            p.hours_per_month)
        inf["usd_per_million_output_tokens"] = per_hour / (served_tps * 3600.0) * 1e6
        # The horizon a buyer is committed for: the term, a purchase's amortisation, else 1 month.
        months = ov.term_months or (ov.amortization_months if ov.offer_kind == "purchase"
                                    else None) or 1.0
        r.costs = {"compute": price * used * p.hours_per_month * months,
                   "support": ov.support_usd_per_month * months,
                   "network": ov.network_usd_per_month * months}
        run_total = sum(r.costs.values())
        r.commitment_usd = commitment_usd(ov, p, price)
        shortfall = max(0.0, r.commitment_usd - run_total)
        r.costs["commitment_shortfall"] = shortfall if p.cost_basis == "commitment" else 0.0
        r.total_cost = sum(r.costs.values())
        r.gpu_hours = used * p.hours_per_month * months
        r.effective_price = r.total_cost / r.gpu_hours
        r.economic_cost = r.total_cost
        r.price_used = price
        horizon = ("the offer term" if ov.term_months else
                   "the amortisation period" if months != 1.0 else "one month")
        r.notes.append(f"inference cost covers {months:g} month(s) of serving ({horizon}).")
    r.inference = inf

