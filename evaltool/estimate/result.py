"""Every number of one estimate (`Result`), and its JSON-ready, rounded form (`numbers`)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from evaltool.estimate.layout import Layout

SECONDS_PER_HOUR = 3600.0
_int = math.floor  # rounding fast path (after a range check: floor(inf) raises)

@dataclass(slots=True)
class Result:
    """Every number of one estimate, unrounded; `numbers` gives the JSON-ready form."""

    kind: str
    fits: bool | None = None
    fit_reason: str = ""
    min_gpus_required: int | None = None
    gpus_used: int | None = None
    gpus_note: str = ""
    precision: str = "bf16"
    peak_tflops: float | None = None
    matmul_efficiency: float | None = None
    software_efficiency: float | None = None
    base_mfu: float | None = None
    mfu_low_factor: float = 1.0  # mfu_low = mfu x this (the evidence's range, relative)
    mfu_high_factor: float = 1.0
    mfu: float | None = None
    hfu: float | None = None
    losses: dict[str, float] = field(default_factory=dict)
    flops_per_token: float | None = None
    hardware_flops_per_token: float | None = None
    total_flops: float | None = None
    layout: Layout | None = None
    required_gbit_s_per_gpu: float | None = None
    checkpoint_tb: float | None = None
    stall_s: float | None = None
    interval_s: float | None = None
    mtbf_h: float | None = None
    storage_frac: float = 0.0
    failure_frac: float = 0.0
    storage_needed_tb: float | None = None
    storage_usable_tb: float | None = None
    tokens_per_s_per_gpu: float | None = None
    days: float | None = None  # wall-clock time to train: running + replacement + unavailable
    running_days: float | None = None
    replacement_wait_days: float | None = None
    spot_unavailable_days: float | None = None
    billed_days: float | None = None
    capacity_lost_to_replacement: float | None = None
    spot_availability: float | None = None
    preemption_frac: float = 0.0
    delivery_slip_days: float | None = None
    gpu_hours: float | None = None
    costs: dict[str, float] = field(default_factory=dict)
    total_cost: float | None = None
    price_used: float | None = None
    effective_price: float | None = None
    usd_per_pflop_hour: float | None = None
    usd_per_m_tokens: float | None = None
    cost_of_delay: float | None = None
    economic_cost: float | None = None
    deadline_met: bool | None = None
    delivery_wait_days: float | None = None
    days_to_trained_model: float | None = None
    buy_vs_rent: dict[str, Any] | None = None
    inference: dict[str, Any] | None = None
    offered_gbit_s_per_gpu: float | None = None
    network_efficiency: float | None = None
    assumed: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def sig(x: float | None, digits: int = 6) -> float | None:
    """Round to `digits` significant digits so the same inputs give the same JSON bytes."""
    if x is None:
        return None
    if not math.isfinite(x):
        return None
    if x == 0:
        return 0.0
    return float(f"{x:.{digits}g}")


SIG6_MEMO: dict[float, float] = {}  # memo: prices, peaks, sizes repeat across a batch


def _sig6_slow(v: float) -> float | None:
    if v - v != 0.0:  # inf or nan: not JSON
        return None
    # Whole numbers are already 6 significant digits (and v + 0.0 turns -0.0 into 0.0).
    out = v + 0.0 if -1e6 < v < 1e6 and v == _int(v) else float(f"{v:.6g}")
    if len(SIG6_MEMO) < 100_000:
        SIG6_MEMO[v] = out
    return out


def rounded_json(obj: Any) -> Any:
    """Round every float in a JSON-like structure (bools and ints stay as they are).

    Runs ~40 times per estimate, the largest cost of `estimate_many`: a memo of rounded
    values and an inlined dict comprehension keep it cheap.
    """
    if type(obj) is dict:
        memo = SIG6_MEMO
        return {
            k: (memo[v] if v in memo else _sig6_slow(v)) if type(v) is float
            else (rounded_json(v) if type(v) in (dict, list) else v)
            for k, v in obj.items()
        }
    if type(obj) is float:
        return sig(obj)
    if type(obj) in (list, tuple):
        return [rounded_json(v) for v in obj]
    if isinstance(obj, Mapping):
        return rounded_json(dict(obj))
    return obj


def numbers(r: Result, *, rounded: bool = True) -> dict[str, Any]:
    """The headline numbers of a Result as a flat JSON-ready dict (rounded to 6 significant
    digits unless `rounded` is False: `round_numbers` does it later)."""
    lay = r.layout
    d: dict[str, Any] = {
        "mfu": r.mfu, "time_to_train_days": r.days, "total_cost_usd": r.total_cost,
        "effective_usd_per_gpu_hour": r.effective_price,
        "total_economic_cost_usd": r.economic_cost, "gpus_used": r.gpus_used,
        "min_gpus_required": r.min_gpus_required, "fits": r.fits,
        "deadline_met": r.deadline_met, "hfu": r.hfu,
        "delivery_wait_days": r.delivery_wait_days,
        "delivery_slip_days": r.delivery_slip_days,
        "days_to_trained_model": r.days_to_trained_model,
        "tokens_per_s_per_gpu": r.tokens_per_s_per_gpu, "gpu_hours": r.gpu_hours,
        "usd_per_effective_pflop_hour": r.usd_per_pflop_hour,
        "usd_per_million_tokens": r.usd_per_m_tokens, "cost_of_delay_usd": r.cost_of_delay,
        "cost_breakdown_usd": dict(r.costs) if r.costs else None,
        "storage_needed_tb": r.storage_needed_tb, "storage_usable_tb": r.storage_usable_tb,
        "storage_fits": (r.storage_needed_tb <= r.storage_usable_tb
                         if r.storage_needed_tb is not None and r.storage_usable_tb is not None
                         else None),
        "peak_dense_tflops": r.peak_tflops, "precision": r.precision,
        "mfu_basis": f"{r.precision} dense peak" if r.peak_tflops is not None else None,
    }
    if r.mfu is not None and r.kind != "inference":
        d["mfu_low"] = r.mfu * r.mfu_low_factor
        d["mfu_high"] = r.mfu * r.mfu_high_factor
    if r.running_days is not None:
        d["time_to_train_breakdown_days"] = {
            "running": r.running_days, "replacement_wait": r.replacement_wait_days,
            "spot_unavailable": r.spot_unavailable_days,
        }
    if r.base_mfu is not None and r.kind != "inference":
        d["mfu_breakdown"] = {"base": r.base_mfu, **r.losses}
    if r.kind != "inference":
        d["required_inter_node_gbit_s_per_gpu"] = r.required_gbit_s_per_gpu
        d["offered_inter_node_gbit_s_per_gpu"] = r.offered_gbit_s_per_gpu
        d["network_effective_efficiency"] = r.network_efficiency
        d["checkpoint"] = {
            "size_tb": r.checkpoint_tb, "stall_s": r.stall_s,
            "interval_h": (r.interval_s / SECONDS_PER_HOUR
                           if r.interval_s is not None and math.isfinite(r.interval_s) else None),
            "overhead": (r.storage_frac + r.failure_frac) if r.stall_s is not None else None,
            "job_mtbf_h": r.mtbf_h,
        }
    if lay is not None:
        d["parallel_layout"] = {
            "tp": lay.tp, "pp": lay.pp, "dp": lay.dp, "sharding": lay.sharding,
            "recompute": lay.recompute, "gpus_in_layout": lay.gpus,
            "micro_batches_per_step": lay.micro_batches,
            "memory_gb_per_gpu": lay.memory_gb_per_gpu, "step_s": lay.t_step,
        }  # the step's parts are in explain["network"]
    if r.inference is not None:
        inf = r.inference
        d["decode_tokens_per_s_per_gpu"] = inf.get("decode_tokens_per_s_per_gpu")
        d["prefill_tokens_per_s_per_gpu"] = inf.get("prefill_tokens_per_s_per_gpu")
        d["replicas_needed"] = inf.get("replicas_needed")
        d["usd_per_million_output_tokens"] = inf.get("usd_per_million_output_tokens")
        d["serving_capacity_tokens_per_s"] = inf.get("serving_capacity_tokens_per_s")
        d["required_gpus"] = inf.get("required_gpus")
        d["meets_throughput"] = inf.get("meets_throughput")
        d["inference"] = dict(inf)
    if r.buy_vs_rent:
        d["buy_vs_rent"] = r.buy_vs_rent
    return rounded_json(d) if rounded else d


def round_numbers(numbers_dict: dict[str, Any]) -> dict[str, Any]:
    """Round every float to 6 significant digits, as `estimate_offer` reports them."""
    out = rounded_json(numbers_dict)
    assert isinstance(out, dict)
    return out

