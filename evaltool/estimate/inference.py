"""Inference: a serving fleet sized like a serving engineer would, and its cost.

For each replica shape the offer allows (tensor parallel inside the scale-up domain, pipeline
stages across nodes when the weights need them) the largest decode batch is the smallest of:
what the KV cache leaves room for (layers x K/V heads x head dim x context x bytes), what
keeps a token within the latency target, and the engine's batch cap. The shape that needs the
fewest GPUs for the serving target (the lowest cost per million tokens on one offer's price)
wins; without a target, the one with the most tokens per GPU. An offer whose GPUs cannot
reach the target reports it (`meets_throughput`).

Decode step time per replica (roofline, Pope et al. 2022, "Efficiently Scaling Transformer
Inference", arXiv 2211.05102): max(memory, compute) + tensor-parallel all-reduces, with
memory = (weights + batch x context x KV bytes per token) / (TP x HBM bandwidth x efficiency)
and compute = batch x 2 N_active / (TP x peak x efficiency).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from evaltool.estimate.efficiency import peak_and_ceiling
from evaltool.estimate.result import Result
from evaltool.estimate.training import check_fit
from evaltool.estimate.views import OfferView, Params, WorkloadView


@dataclass(slots=True)
class ReplicaShape:
    """One replica shape and what it serves."""

    tp: int
    pp: int
    batch: int
    batch_limit: str  # what bounds the batch: "kv_cache", "latency", "engine_cap" or "workload"
    step_s: float  # decode step (= time per output token)
    decode_per_gpu: float  # output tokens/s per GPU
    bound: str  # "memory" or "compute"
    ttft_s: float = 0.0  # time to first token: the step in flight + the prompt's prefill
    gpus_for_target: int | None = None

    @property
    def gpus(self) -> int:
        return self.tp * self.pp


@dataclass(slots=True)
class _Model:
    weights: float  # bytes
    kv_per_token: float  # bytes per token of context, all layers
    ctx: float  # context held per sequence (tokens)
    flops_per_token: float  # 2 N_active
    allreduce_bytes_per_seq: float  # per decode step, all layers, before the ring factor


def _shapes(ov: OfferView, weights: float, usable_per_gpu: float) -> list[tuple[int, int]]:
    """(tp, pp) candidates: TP powers of two inside the scale-up domain; PP across nodes only
    when one domain cannot hold the weights."""
    domain = max(1, min(ov.domain_gpus, ov.gpu_count or ov.domain_gpus))
    out: list[tuple[int, int]] = []
    tp = 1
    while tp <= domain:
        out.append((tp, 1))
        tp *= 2
    top = out[-1][0]
    if weights >= top * usable_per_gpu:
        pp = 2
        while weights >= top * pp * usable_per_gpu:
            pp *= 2
        out.append((top, pp))
        out.append((top, pp * 2))
    return out


def _size(m: _Model, tp: int, pp: int, ov: OfferView, p: Params, peak: float,
          usable_per_gpu: float, limit_s: float, fixed_batch: int | None) -> ReplicaShape | None:
    gpus = tp * pp
    free = gpus * usable_per_gpu - m.weights
    per_seq = m.ctx * m.kv_per_token
    if free < per_seq:
        return None  # cannot hold the weights and one sequence's KV cache
    assert ov.hbm_tbyte_s is not None
    bw = tp * ov.hbm_tbyte_s * 1e12 * p.hbm_efficiency  # one stage at a time
    link = ov.intra_gbyte_s / 2.0 * 1e9 * p.nvlink_efficiency  # per direction
    tp_s_per_seq = (2.0 * (tp - 1) / tp * m.allreduce_bytes_per_seq / link) if tp > 1 else 0.0
    compute_s_per_seq = m.flops_per_token / (tp * peak * p.prefill_mfu)
    # pp micro-batches in flight, one per stage: the KV cache holds pp x batch sequences.
    by_kv = int(free // (per_seq * pp))
    mem_fixed = m.weights / bw
    lat_mem = (limit_s - mem_fixed) / (per_seq / bw + tp_s_per_seq)
    lat_compute = limit_s / (compute_s_per_seq + tp_s_per_seq)
    by_latency = int(min(lat_mem, lat_compute))
    limits = {"kv_cache": by_kv, "latency": by_latency, "engine_cap": p.max_decode_batch}
    if fixed_batch is not None:
        limits = {"kv_cache": by_kv, "workload": fixed_batch}
    batch_limit = min(limits, key=lambda k: limits[k])
    batch = limits[batch_limit]
    if batch < 1:
        if fixed_batch is None and by_kv >= 1:
            batch, batch_limit = 1, "latency"  # the target is out of reach; report the best
        else:
            return None
    mem_s = (m.weights + batch * per_seq) / bw
    compute_s = batch * compute_s_per_seq
    step = max(mem_s, compute_s) + batch * tp_s_per_seq
    return ReplicaShape(tp, pp, batch, batch_limit, step, pp * batch / step / gpus,
                        "memory" if mem_s >= compute_s else "compute")


def estimate_inference(wv: WorkloadView, ov: OfferView, p: Params, r: Result) -> None:
    check_fit(wv, ov, p, r, inference=True)
    if not peak_and_ceiling(wv, ov, p, r) or not ov.memory_gb:
        return
    assert r.peak_tflops is not None
    if ov.hbm_tbyte_s is None:
        r.notes.append("memory bandwidth unknown: decode throughput cannot be estimated.")
        return
    peak = r.peak_tflops * 1e12
    serving = wv.serving
    prompt = getattr(serving, "prompt_tokens", None) if serving else None
    output = getattr(serving, "output_tokens", None) if serving else None
    ctx = (prompt or 0) + (output or 0) or p.inference_context_tokens
    kv_bytes = p.kv_bytes.get(wv.precision, 2.0)
    if not wv.kv_shape_given:
        r.assumed.append(f"K/V heads and head dim not given: assumed {wv.kv_heads_x_head_dim} "
                         "K (and V) elements per token per layer (8 KV heads x 128).")
    m = _Model(
        weights=wv.params * p.inference_bytes_per_param.get(wv.precision, 2.0),
        kv_per_token=2.0 * wv.n_layers * wv.kv_heads_x_head_dim * kv_bytes,  # K and V
        ctx=float(ctx), flops_per_token=2.0 * wv.active_params,
        allreduce_bytes_per_seq=2.0 * wv.n_layers * wv.d_model * 2.0,  # 2 per layer, bf16
    )
    usable = ov.memory_gb * 1e9 * p.gpu_memory_usable_fraction
    limit_ms = (getattr(serving, "max_latency_ms_per_token", None) if serving else None)
    if limit_ms is None:
        limit_ms = p.serving_latency_ms
        r.assumed.append(f"no latency target: decode sized for {limit_ms:g} ms per output token.")
    fixed = getattr(serving, "batch_size", None) if serving else None
    shapes = [s for tp, pp in _shapes(ov, m.weights, usable)
              if (s := _size(m, tp, pp, ov, p, peak, usable, limit_ms / 1000.0, fixed))]
    if not shapes:
        r.notes.append("no replica shape holds the weights and one sequence's KV cache.")
        return
    prefill_fpt = 2.0 * wv.active_params + 4.0 * wv.n_layers * wv.d_model * (prompt or ctx)
    prefill_per_gpu = peak * p.prefill_mfu / prefill_fpt
    ttft_ms = getattr(serving, "max_time_to_first_token_ms", None) if serving else None
    for s in shapes:
        # A new request waits for the decode step in flight, then its prompt is prefilled by
        # the replica's GPUs (chunked prefill, Agrawal et al. 2024, "Sarathi-Serve",
        # arXiv 2403.02310, spreads it over steps only when the target leaves room).
        s.ttft_s = s.step_s + (prompt or ctx) / (prefill_per_gpu * s.gpus)
    out_tps, prefill_tps = _target(serving, prompt, output)
    offer_gpus = ov.gpu_count
    g = ov.gpus_per_node

    def gpus_needed(s: ReplicaShape) -> int:
        assert out_tps is not None
        load = out_tps / s.decode_per_gpu + prefill_tps / prefill_per_gpu
        replicas = max(1, math.ceil(load / s.gpus - 1e-9))
        # Capacity is rented by the node: replicas smaller than a node share nodes.
        return math.ceil(replicas * s.gpus / g) * g if s.gpus < g else replicas * s.gpus

    def on_time(s: ReplicaShape) -> bool:
        return s.step_s * 1000.0 <= limit_ms * (1 + 1e-9) and (
            ttft_ms is None or s.ttft_s * 1000.0 <= ttft_ms * (1 + 1e-9))

    feasible = [s for s in shapes if on_time(s)]
    within = feasible or shapes  # none meets the latency targets: report the best, say so
    meets_latency = bool(feasible)
    if not feasible:
        r.notes.append("no replica shape meets the latency targets (time per output token"
                       + (", time to first token" if ttft_ms is not None else "")
                       + "): the estimate is the closest shape.")
    if out_tps is not None:
        for s in within:
            s.gpus_for_target = gpus_needed(s)
        best = min(within, key=lambda s: (s.gpus_for_target or 0, s.gpus))
    else:
        best = max(within, key=lambda s: (s.decode_per_gpu, -s.gpus))
    size = best.gpus
    fitting = (offer_gpus // size) * size if offer_gpus else size
    # Output tokens/s the offer's GPUs can serve with this shape, prompts included.
    gpu_s_per_output = 1.0 / best.decode_per_gpu + (
        (prefill_tps / out_tps) / prefill_per_gpu if out_tps else 0.0)
    capacity = fitting / gpu_s_per_output if fitting else 0.0
    if out_tps is not None:
        required = best.gpus_for_target or size
        replicas = math.ceil(required / size) if size >= g else max(
            1, math.ceil((out_tps / best.decode_per_gpu + prefill_tps / prefill_per_gpu)
                         / size - 1e-9))
        meets = (required <= offer_gpus) if offer_gpus else None
        used = required if (meets or offer_gpus is None) else offer_gpus
        if offer_gpus and ov.term_months:
            # A reservation is billed as the block it is: the service holds all its GPUs.
            used = offer_gpus
        served_tps = out_tps if meets is not False else capacity
        r.gpus_note = (f"{replicas} replica(s) of {size} GPUs (TP {best.tp} x PP {best.pp}, "
                       f"batch {best.batch}) serve the target." if meets is not False else
                       f"the target needs {required} GPUs; the offer has {offer_gpus}, which "
                       f"serve {capacity:,.0f} of {out_tps:,.0f} output tokens/s.")
    else:
        required, meets = None, None
        replicas = max(1, fitting // size)
        used = replicas * size
        served_tps = capacity
        r.gpus_note = f"no serving target: {replicas} replica(s) of {size} GPUs fill the offer."
    r.gpus_used = used
    r.mfu = best.decode_per_gpu * m.flops_per_token / peak
    r.tokens_per_s_per_gpu = best.decode_per_gpu
    inf: dict[str, Any] = {
        "replica_gpus": size, "tensor_parallel": best.tp, "pipeline_stages": best.pp,
        "replicas_needed": replicas, "decode_batch": best.batch,
        "decode_batch_limited_by": best.batch_limit, "context_tokens": ctx,
        "latency_target_ms_per_token": limit_ms,
        "decode_ms_per_token": best.step_s * 1000.0,
        "latency_target_ttft_ms": ttft_ms,
        "time_to_first_token_ms": best.ttft_s * 1000.0,
        "meets_latency": meets_latency,
        "decode_tokens_per_s_per_gpu": best.decode_per_gpu,
        "prefill_tokens_per_s_per_gpu": prefill_per_gpu,
        "output_tokens_per_s": served_tps,
        "target_output_tokens_per_s": out_tps,
        "serving_capacity_tokens_per_s": capacity,
        "required_gpus": required, "meets_throughput": meets,
        "capacity_met": meets,
        "kv_bytes_per_token": m.kv_per_token, "weight_gb": m.weights / 1e9,
        "decode_bound": best.bound,
        "shapes_considered": [
            {"tp": s.tp, "pp": s.pp, "batch": s.batch, "batch_limited_by": s.batch_limit,
             "ms_per_token": s.step_s * 1000.0, "ttft_ms": s.ttft_s * 1000.0,
             "tokens_per_s_per_gpu": s.decode_per_gpu,
             "gpus_for_target": s.gpus_for_target} for s in shapes],
    }
    r.inference = inf
    duration = getattr(serving, "duration_months", None) if serving else None
    _serving_money(ov, p, r, used, served_tps, duration)


def _target(serving: Any, prompt: int | None, output: int | None
            ) -> tuple[float | None, float]:
    """(output tokens/s, prompt tokens/s) the workload asks for; (None, 0) without a target."""
    if serving is None:
        return None, 0.0
    if serving.tokens_per_s is not None:
        out_tps = float(serving.tokens_per_s)
        if serving.requests_per_s is not None and prompt:
            return out_tps, serving.requests_per_s * prompt
        if prompt and output:
            return out_tps, out_tps * prompt / output
        return out_tps, 0.0
    if serving.requests_per_s is not None and output:
        return serving.requests_per_s * output, serving.requests_per_s * (prompt or 0)
    return None, 0.0


def _serving_money(ov: OfferView, p: Params, r: Result, used: int, served_tps: float,
                   duration_months: float | None) -> None:
    price = ov.price_usd_per_gpu_hour
    if price is None or r.inference is None:
        return
    inf = r.inference
    per_hour = price * used + (ov.support_usd_per_month + ov.network_usd_per_month) / (
        p.hours_per_month)
    if served_tps > 0:
        inf["usd_per_million_output_tokens"] = per_hour / (served_tps * 3600.0) * 1e6
    # How long the service runs: the workload's duration; else the horizon a buyer is
    # committed for (the term, a purchase's amortisation), else one month.
    months = duration_months or ov.term_months or (
        ov.amortization_months if ov.offer_kind == "purchase" else None) or 1.0
    r.costs = {"compute": price * used * p.hours_per_month * months,
               "support": ov.support_usd_per_month * months,
               "network": ov.network_usd_per_month * months}
    r.total_cost = sum(r.costs.values())
    r.gpu_hours = used * p.hours_per_month * months
    r.effective_price = r.total_cost / r.gpu_hours
    r.economic_cost = r.total_cost
    r.price_used = price
    horizon = ("the workload's serving duration" if duration_months else
               "the offer term" if ov.term_months else
               "the amortisation period" if months != 1.0 else
               "one month: the workload states no serving duration")
    r.notes.append(f"inference cost covers {months:g} month(s) of serving ({horizon}).")
