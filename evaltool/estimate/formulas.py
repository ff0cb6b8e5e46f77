"""Closed-form formulas of the MFU-adjusted cost model, each with its source.

Pure float math, no imports beyond `math`: these are the building blocks of
`evaltool.estimate.core` and the functions the tests check against the published
reference numbers of the papers they cite.
"""

from __future__ import annotations

import math

SECONDS_PER_DAY = 86_400.0


def palm_flops_per_token(params: float, n_layers: int, d_model: int, seq_len: int) -> float:
    """Training model FLOPs per token, PaLM App. B: 6N + 12 L H Q T (H x Q = d_model).

    The attention term counts QK^T and AV over the full (non-causal) sequence, as PaLM,
    nanoGPT and llm-foundry do (Chowdhery et al. 2022, arXiv 2204.02311).
    """
    return 6.0 * params + 12.0 * n_layers * d_model * seq_len


def hardware_flops_per_token(
    params: float, n_layers: int, d_model: int, seq_len: int, recompute: str
) -> float:
    """FLOPs executed per token including activation recomputation (for HFU).

    none: the model FLOPs; selective: re-runs the attention scores and AV forward
    (+4 L h T, Korthikanti et al. 2022); full: a second forward of every layer (8N + 16 L h T).
    """
    model = palm_flops_per_token(params, n_layers, d_model, seq_len)
    if recompute == "full":
        return model + 2.0 * params + 4.0 * n_layers * d_model * seq_len
    if recompute == "selective":
        return model + 4.0 * n_layers * d_model * seq_len
    return model


def megatron_model_flops_per_iteration(
    batch: int, seq_len: int, n_layers: int, d_model: int, vocab: int
) -> float:
    """Megatron-LM model FLOPs per iteration without recompute: 72 B s l h^2 (1 + s/6h + V/12lh).

    Narayanan et al. 2021, arXiv 2104.04473, eq. 3 (the MFU count).
    """
    h = float(d_model)
    return 72.0 * batch * seq_len * n_layers * h * h * (
        1.0 + seq_len / (6.0 * h) + vocab / (12.0 * n_layers * h)
    )


def megatron_hardware_flops_per_iteration(
    batch: int, seq_len: int, n_layers: int, d_model: int, vocab: int
) -> float:
    """With full recompute: 96 B s l h^2 (1 + s/6h + V/16lh) (Narayanan et al. 2021 eq. 3)."""
    h = float(d_model)
    return 96.0 * batch * seq_len * n_layers * h * h * (
        1.0 + seq_len / (6.0 * h) + vocab / (16.0 * n_layers * h)
    )


def mfu_from_iteration(flops_per_iteration: float, seconds: float, gpus: int,
                       peak_tflops: float) -> float:
    """MFU = model FLOPs per iteration / (time x GPUs x dense peak) (PaLM, arXiv 2204.02311)."""
    return flops_per_iteration / (seconds * gpus * peak_tflops * 1e12)


def training_days(total_flops: float, gpus: int, achieved_tflops_per_gpu: float) -> float:
    """Time to train = required FLOPs / (GPUs x achieved FLOP/s): achievable, not peak FLOPS."""
    return total_flops / (gpus * achieved_tflops_per_gpu * 1e12) / SECONDS_PER_DAY


def usd_per_million_tokens(usd_per_gpu_hour: float, tokens_per_s_per_gpu: float) -> float:
    """price per GPU-hour / (tokens/s/GPU x 3600) x 1e6."""
    return usd_per_gpu_hour / (tokens_per_s_per_gpu * 3600.0) * 1e6


def derive_shape(params: float, d_model_per_layer: float, multiple: int) -> tuple[int, int]:
    """(n_layers, d_model) with N = 12 L d^2 and d = ratio x L (Kaplan et al. 2020).

    d_model is rounded to `multiple` (head dim); n_layers then re-fitted to N.
    """
    n_layers_exact = (params / (12.0 * d_model_per_layer ** 2)) ** (1.0 / 3.0)
    d_model = max(multiple, round(d_model_per_layer * n_layers_exact / multiple) * multiple)
    n_layers = max(1, round(params / (12.0 * d_model * d_model)))
    return n_layers, d_model


def optimal_batch_tokens(compute_flops: float, coefficient: float, exponent: float) -> float:
    """Global batch in tokens that published large runs choose for a compute budget C:
    B = coefficient x C ^ exponent (DeepSeek LLM, arXiv 2401.02954, section 3.1:
    B_opt = 0.2920 C^0.3271, fitted on their 1e17-3e20 FLOP sweeps and matched by their 7B,
    67B and V3 runs)."""
    return float(coefficient * compute_flops ** exponent)


def min_gpus_by_memory(params_b: float, bytes_per_param: float, overhead: float,
                       gpu_memory_gb: float) -> int:
    """params_B x bytes x 1.25 / GPU GB, rounded up to whole GPUs (S. Bekman, "The AI
    Battlefield", ML Engineering Open Book).

    A tiny relative tolerance keeps exact multiples (80*18*1.25/80 = 22.5 -> 23) stable
    under floating point.
    """
    raw = params_b * bytes_per_param * overhead / gpu_memory_gb
    return max(1, math.ceil(raw - 1e-9))


def ring_allreduce_bytes(payload_bytes: float, ranks: int) -> float:
    """Bytes each rank sends in a ring all-reduce: 2 (n-1)/n x S (nccl-tests PERFORMANCE.md)."""
    return 2.0 * (ranks - 1) / ranks * payload_bytes if ranks > 1 else 0.0


def required_gbyte_s(bytes_per_step: float, window_s: float, efficiency: float,
                     overlap: float) -> float:
    """Nominal bandwidth (GB/s) that moves `bytes_per_step` hidden inside `window_s`.

    Traffic stays hidden when V / (eta B) <= o x T, so B >= V / (eta o T).
    With V = c b N / r per node and T = t_gpu x 6N / F_gpu this is the note's
    B_node >= c b F_gpu / (6 r eta o t_gpu): N cancels.
    """
    return bytes_per_step / (efficiency * overlap * window_s) / 1e9


def young_daly_interval_s(stall_s: float, mtbf_s: float) -> float:
    """Optimal checkpoint interval tau = sqrt(2 x stall x MTBF) (Young 1974, CACM 17(9))."""
    return math.sqrt(2.0 * stall_s * mtbf_s)


def checkpoint_overheads(stall_s: float, mtbf_s: float, restart_s: float
                         ) -> tuple[float, float, float]:
    """(interval_s, checkpoint_fraction, failure_fraction) at the Young/Daly optimum.

    checkpoint = stall / tau (time spent writing); failure = tau / (2 MTBF) (work redone)
    + restart / MTBF (Daly 2006, FGCS 22(3)).
    """
    if stall_s <= 0.0:
        return math.inf, 0.0, restart_s / mtbf_s
    tau = young_daly_interval_s(stall_s, mtbf_s)
    return tau, stall_s / tau, tau / (2.0 * mtbf_s) + restart_s / mtbf_s


def decode_seconds_per_token(weight_bytes: float, kv_bytes: float, gpus: int,
                             hbm_tbyte_s: float, hbm_efficiency: float) -> float:
    """Decode is HBM-bound: (weights + KV) / (GPUs x HBM bandwidth) per step (Pope et al.
    2022, arXiv 2211.05102)."""
    return (weight_bytes + kv_bytes) / (gpus * hbm_tbyte_s * 1e12 * hbm_efficiency)
