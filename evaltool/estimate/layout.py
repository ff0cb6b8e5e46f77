"""The parallel layout of a training run and the step time it gives.

TP inside the NVLink (scale-up) domain, PP and DP (with a distributed optimizer) or FSDP
across nodes; the step time carries pipeline-bubble, tensor-parallel, recompute and exposed
inter-node communication time (Narayanan et al. 2021, arXiv 2104.04473; Korthikanti et al.
2022, arXiv 2205.05198; Rajbhandari et al. 2020 ZeRO, arXiv 1910.02054).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from evaltool.estimate import formulas as fm
from evaltool.estimate.views import OfferView, Params, WorkloadView


@dataclass(slots=True)
class Layout:
    """One parallel layout and the step time it gives (seconds per optimizer step)."""

    tp: int
    pp: int
    dp: int
    sharding: str  # "zero1" (Megatron distributed optimizer) or "fsdp" (ZeRO-3)
    recompute: str
    gpus: int  # tp x pp x dp actually in use
    micro_batches: int
    memory_gb_per_gpu: float
    t_compute: float
    t_recompute: float
    t_bubble: float
    t_tp: float
    t_comm: float
    t_exposed: float
    t_window: float
    t_step: float
    comm_gbyte_per_gpu: float
    dp_nodes: float


@dataclass(slots=True)
class _LayoutInputs:
    """Everything a layout's step time depends on, read once per search (hot loop)."""

    n: int
    params: float
    L: int
    h: int
    s: int
    gbt: float
    seqs: float
    f_gpu: float
    fpt: float
    extra_flops: dict[str, float]  # recompute mode -> hardware minus model FLOPs per token
    state_bytes: float
    act_sel: float  # selective-recompute activations per GPU at TP 1
    act_full: float
    mem_limit: float
    recompute: str
    micro_batch: int
    interleave: float
    nvlink_bytes_s: float
    nic_bytes_s: float
    domain: int
    g: int
    grad_bytes: float
    exposed_fraction: float
    overlap: float
    tp_overlap: float


def _layout_inputs(n: int, wv: WorkloadView, ov: OfferView, p: Params, peak: float,
                   base: float, fpt: float, mem_limit: float) -> _LayoutInputs:
    L, h, s = wv.n_layers, wv.d_model, wv.seq_len
    extra = {mode: fm.hardware_flops_per_token(wv.active_params, L, h, s, mode) - fpt
             for mode in ("none", "selective", "full")}
    return _LayoutInputs(
        n=n, params=wv.params, L=L, h=h, s=s, gbt=wv.global_batch_tokens,
        seqs=max(1.0, wv.global_batch_tokens / s), f_gpu=peak * base, fpt=fpt,
        extra_flops=extra, state_bytes=p.training_bytes_per_param,
        act_sel=L * s * h * p.activation_bytes * p.micro_batch,
        act_full=(L * s * h * 2.0 + s * h * p.activation_bytes) * p.micro_batch,
        mem_limit=mem_limit, recompute=p.recompute, micro_batch=p.micro_batch,
        interleave=p.interleave,
        nvlink_bytes_s=ov.intra_gbyte_s / 2.0 * 1e9 * p.nvlink_efficiency,  # per direction
        nic_bytes_s=ov.inter_gbit_s_per_gpu / 8.0 * 1e9 * ov.network_factor,  # effective
        domain=ov.domain_gpus, g=ov.gpus_per_node, grad_bytes=p.grad_bytes,
        exposed_fraction=p.exposed_fraction, overlap=p.overlap, tp_overlap=p.tp_overlap,
    )


def _step(x: _LayoutInputs, tp: int, pp: int, fsdp: bool) -> tuple[Any, ...] | None:
    """Step times of one layout as a tuple (Layout fields), or None when it does not fit."""
    mp = tp * pp
    dp = x.n // mp
    if dp < 1:
        return None
    used = mp * dp
    N = x.params
    # FSDP shards everything; a distributed optimizer keeps bf16 weights + fp32 grads per
    # model shard and shards master weights and Adam states over DP.
    states = (N * x.state_bytes / used if fsdp
              else N * (6.0 / mp + (x.state_bytes - 6.0) / used))
    if x.recompute != "full" and states + x.act_sel / tp <= x.mem_limit:
        recompute, mem = x.recompute, states + x.act_sel / tp
    elif states + x.act_full / tp <= x.mem_limit:
        recompute, mem = "full", states + x.act_full / tp
    else:
        return None
    m = max(1, math.ceil(x.seqs / (dp * x.micro_batch)))
    per = x.gbt / (used * x.f_gpu)
    t_compute = per * x.fpt
    t_recompute = per * x.extra_flops[recompute]
    t_work = t_compute + t_recompute
    t_bubble = t_work * (pp - 1) / (x.interleave * m) if pp > 1 else 0.0
    t_tp = 0.0
    if tp > 1:
        # TP beyond the NVLink domain would run on the NIC instead
        link = x.nvlink_bytes_s if tp <= x.domain else x.nic_bytes_s
        # Megatron TP all-reduces per layer (arXiv 2104.04473)
        ratio = 16.0 * (tp - 1) * x.f_gpu / (72.0 * x.h * link)
        t_tp = (1.0 - x.tp_overlap) * ratio * t_work
    comm_bytes = 0.0
    dp_nodes = 1.0
    if used > x.g:
        local_dp = max(1, x.g // mp) if mp < x.g else 1
        dp_nodes = dp / local_dp
        if dp_nodes > 1.0:
            c = 3.0 if fsdp else 2.0  # ZeRO, arXiv 1910.02054, section 7
            comm_bytes += c * (dp_nodes - 1.0) / dp_nodes * x.grad_bytes * N / (mp * local_dp)
        if pp > 1 and mp > x.g:  # stage boundaries cross nodes: activations fwd + grads bwd
            comm_bytes += 2.0 * m * x.micro_batch * x.s * x.h * 2.0 / tp
    t_comm = comm_bytes / x.nic_bytes_s
    # FSDP prefetches its all-gathers through forward and backward; a distributed optimizer
    # reduces gradients during the last micro-batch's backward and the pipeline drain.
    window = t_work if fsdp else t_work * (2.0 / 3.0) / m + t_bubble
    f = x.exposed_fraction
    t_exposed = f * t_comm + max(0.0, (1.0 - f) * t_comm - x.overlap * window)
    t_step = t_work + t_bubble + t_tp + t_exposed
    return (tp, pp, dp, "fsdp" if fsdp else "zero1", recompute, used, m, mem / 1e9, t_compute,
            t_recompute, t_bubble, t_tp, t_comm, t_exposed, window, t_step, comm_bytes / 1e9,
            dp_nodes)


def _plan_one(
    tp: int, pp: int, sharding: str, n: int, wv: WorkloadView, ov: OfferView, p: Params,
    peak: float, base: float, fpt: float, mem_limit: float,
) -> Layout | None:
    """One layout's step times (TP x PP x DP with `sharding` "zero1" or "fsdp")."""
    x = _layout_inputs(n, wv, ov, p, peak, base, fpt, mem_limit)
    row = _step(x, tp, pp, sharding == "fsdp")
    return Layout(*row) if row is not None else None


_MAX_DEEPER_PIPELINES = 4


_LAYOUT_CACHE: dict[tuple[Any, ...], Layout | None] = {}
_LAYOUT_CACHE_MAX = 65_536


def clear_layout_cache() -> None:
    """Forget memoised layouts (benchmarks measure cold runs with it)."""
    _LAYOUT_CACHE.clear()


def plan_layout(n: int, wv: WorkloadView, ov: OfferView, p: Params, peak: float, base: float,
                fpt: float) -> Layout | None:
    """The layout with the best MFU among TP (inside the NVLink domain) x PP x DP and FSDP.

    Memoised on every input it reads: sensitivity runs and batches repeat the same shapes.
    """
    key = (n, ov.gpus_per_node, ov.domain_gpus, ov.memory_gb, ov.intra_gbyte_s,
           ov.inter_gbit_s_per_gpu, ov.network_factor, peak, base, fpt, wv.params,
           wv.active_params, wv.n_layers, wv.d_model, wv.seq_len, wv.global_batch_tokens,
           id(p))
    if key in _LAYOUT_CACHE:
        return _LAYOUT_CACHE[key]
    if len(_LAYOUT_CACHE) >= _LAYOUT_CACHE_MAX:
        _LAYOUT_CACHE.clear()
    best = _search_layout(n, wv, ov, p, peak, base, fpt)
    _LAYOUT_CACHE[key] = best
    return best


def _first_pipeline_depth(x: _LayoutInputs, tp: int) -> int:
    """Smallest power-of-two PP whose distributed-optimizer states + activations may fit.

    Solves N (6 / (tp pp) + 12 / n) + activations / tp <= limit for pp; `_step` still
    checks the exact figure, this only skips depths that cannot fit.
    """
    sharded = x.params * (x.state_bytes - 6.0) / x.n
    need = math.inf
    for act, allowed in ((x.act_sel, x.recompute != "full"), (x.act_full, True)):
        room = x.mem_limit - act / tp - sharded
        if allowed and room > 0:
            need = min(need, x.params * 6.0 / (tp * room))
    if need == math.inf:
        return 1 << 30  # nothing fits at any depth
    pp = 1
    while pp < need:
        pp *= 2
    return pp


def _search_layout(n: int, wv: WorkloadView, ov: OfferView, p: Params, peak: float,
                   base: float, fpt: float) -> Layout | None:
    mem_limit = (ov.memory_gb or 0.0) * 1e9 * p.gpu_memory_usable_fraction
    x = _layout_inputs(n, wv, ov, p, peak, base, fpt, mem_limit)
    best: tuple[Any, ...] | None = None
    best_mfu = -1.0
    tps: list[int] = []
    tp = 1
    while tp <= min(ov.domain_gpus, n):
        tps.append(tp)
        tp *= 2
    fsdp_settled = False
    for tp in tps:
        rows: list[tuple[Any, ...] | None] = []
        # FSDP traffic per GPU does not shrink with TP (it is sharded across the node either
        # way); more TP only buys activation memory. Stop at the first TP that fits without
        # full recompute.
        if not fsdp_settled:
            row = _step(x, tp, 1, True)
            rows.append(row)
            fsdp_settled = row is not None and row[4] != "full"
        # Smallest PP that fits, then deeper pipelines: each halves the DP traffic per GPU
        # (a slow network favours them) at the price of a bigger bubble.
        pp, deeper = _first_pipeline_depth(x, tp), 0
        while tp * pp <= n and pp <= x.L and deeper < _MAX_DEEPER_PIPELINES:
            row = _step(x, tp, pp, False)
            if row is not None:
                rows.append(row)
                deeper += 1
                # Doubling PP at least halves the exposed traffic and doubles the bubble:
                # once the bubble costs more than the traffic, deeper pipelines only lose.
                if row[13] <= row[10]:
                    break
            pp *= 2
        for row in rows:
            if row is None:
                continue
            mfu = row[8] / row[15] * row[5] / n  # t_compute / t_step x used / n
            if mfu > best_mfu + 1e-12:
                best, best_mfu = row, mfu
    return Layout(*best) if best is not None else None

