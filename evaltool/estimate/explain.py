"""How each estimate was reached: value, formula, inputs and sources, JSON-ready.

`build_explain` turns a computed `Result` into `Estimates.explain`:
{quantity: {value, formula, inputs, sources}}, plus `assumed` (human sentences the lead
turns into warnings) and `notes`. Values are the rounded numbers of the estimate itself.
"""

from __future__ import annotations

from typing import Any

from evaltool.estimate.assumptions import assumption_source
from evaltool.estimate.result import Result, rounded_json
from evaltool.estimate.views import OfferView, Params, WorkloadView

MFU_SPECS = "shared/research/mfu-specs.md"


def _item(value: Any, formula: str, inputs: dict[str, Any], sources: list[str]) -> dict[str, Any]:
    return {"value": value, "formula": formula, "inputs": rounded_json(inputs), "sources": sources}


def _src(*names: str) -> list[str]:
    return [f"{name}: {assumption_source(name)}" for name in names]


def build_explain(r: Result, ov: OfferView, wv: WorkloadView, p: Params,
                  values: dict[str, Any]) -> dict[str, Any]:
    ex: dict[str, Any] = {}
    ex["gpus_used"] = _item(values.get("gpus_used"), "offer.gpu_count, capped by "
                            "workload.gpus_wanted (never below the minimum that fits)",
                            {"offer_gpu_count": ov.gpu_count, "gpus_wanted": wv.gpus_wanted},
                            [r.gpus_note])
    ex["min_gpus_required"] = _item(
        values.get("min_gpus_required"),
        ("ceil(params_B x 2 x 1.25 / gpu_memory_GB)" if r.kind == "inference"
         else "ceil(params_B x 18 x 1.25 / gpu_memory_GB)"),
        {"params_b": wv.params / 1e9, "gpu_memory_gb": ov.memory_gb},
        ["seed 001 'Tell how many GPUs do you need in 5 secs'", r.fit_reason],
    )
    ex["fits"] = _item(values.get("fits"), "offer GPUs >= min_gpus_required",
                       {"offer_gpu_count": ov.gpu_count}, [r.fit_reason])
    ex["model_shape"] = _item(
        {"n_layers": wv.n_layers, "d_model": wv.d_model, "seq_len": wv.seq_len},
        "given" if not wv.shape_derived else
        "N = 12 L d^2 with d = d_model_per_layer x L (rounded to d_model_multiple)",
        {"active_params": wv.active_params, "total_params": wv.params},
        _src("d_model_per_layer") if wv.shape_derived else ["workload"],
    )
    if r.peak_tflops is not None:
        ex["peak_dense_tflops"] = _item(
            r.peak_tflops, f"catalog dense {wv.precision} peak of {ov.accelerator}",
            {"accelerator": ov.accelerator, "precision": wv.precision},
            ["evaltool/data/accelerators.yaml (dense, never sparse: mfu-specs §0, §1.2)"])
    if r.kind == "inference":
        _explain_inference(ex, r, ov, wv, p, values)
    else:
        _explain_training(ex, r, ov, wv, p, values)
    ex["assumed"] = list(dict.fromkeys(r.assumed))
    ex["notes"] = list(dict.fromkeys(r.notes))
    return ex


def _explain_training(ex: dict[str, Any], r: Result, ov: OfferView, wv: WorkloadView,
                      p: Params, v: dict[str, Any]) -> None:
    ex["flops_per_token"] = _item(
        rounded_json(r.flops_per_token), "6 N_active + 12 L d_model T (PaLM App. B)",
        {"N_active": wv.active_params, "L": wv.n_layers, "d_model": wv.d_model, "T": wv.seq_len},
        [f"{MFU_SPECS} §2.1"])
    ex["total_flops"] = _item(rounded_json(r.total_flops), "tokens x flops_per_token",
                              {"tokens": wv.tokens}, [f"{MFU_SPECS} §2.1"])
    if r.base_mfu is None:
        return
    sw_sources = (["workload.software_efficiency"] if wv.software_efficiency is not None
                  else _src("software_efficiency")
                  + (_src("fp8_software_factor") if wv.precision == "fp8" else [])
                  + (_src("moe_software_factor") if wv.is_moe else []))
    ex["base_mfu"] = _item(
        rounded_json(r.base_mfu), "measured matmul ceiling x software efficiency",
        {"matmul_efficiency": r.matmul_efficiency, "software_efficiency": r.software_efficiency},
        [*sw_sources, f"{MFU_SPECS} §1.3 (best-matmul ratios)"])
    lay = r.layout
    if lay is not None:
        ex["parallel_layout"] = _item(
            v.get("parallel_layout"),
            "best MFU among TP (inside the NVLink domain) x PP x DP with a distributed "
            "optimizer, and FSDP; memory per GPU = states + activations <= usable memory",
            {"gpus_per_node": ov.gpus_per_node, "nvlink_domain_gpus": ov.domain_gpus,
             "gpu_memory_gb": ov.memory_gb, "global_batch_tokens": wv.global_batch_tokens},
            [f"{MFU_SPECS} §4.3, §4.6", *_src("gpu_memory_usable_fraction", "recompute",
                                              "pipeline_interleave")])
        ex["network"] = _item(
            v["mfu_breakdown"].get("network_loss"),
            "exposed = f x T_comm + max(0, (1 - f) T_comm - o x window); "
            "loss = base x exposed / T_step; T_comm = bytes per GPU / (nominal x efficiency)",
            {"inter_node_gbit_s_per_gpu": ov.inter_gbit_s_per_gpu,
             "fabric": ov.fabric, "fabric_efficiency": ov.fabric_efficiency,
             "tenancy_factor": ov.tenancy_factor, "bytes_per_gpu_per_step_gb":
             lay.comm_gbyte_per_gpu, "comm_s": lay.t_comm, "window_s": lay.t_window,
             "exposed_s": lay.t_exposed, "compute_s": lay.t_compute, "step_s": lay.t_step},
            [f"{MFU_SPECS} §4.2-§4.4", *_src("fabric_efficiency", "shared_network_factor",
                                             "overlap_window_fraction", "exposed_comm_fraction",
                                             "gradient_reduce_bytes")])
        ex["required_inter_node_gbit_s_per_gpu"] = _item(
            v.get("required_inter_node_gbit_s_per_gpu"),
            "8 x bytes per GPU per step / (fabric efficiency x tenancy x o x overlap window)",
            {"offered_gbit_s_per_gpu": ov.inter_gbit_s_per_gpu, "window_s": lay.t_window},
            [f"{MFU_SPECS} §4.5"])
    ex["network_effective_efficiency"] = _item(
        rounded_json(ov.network_factor), "fabric efficiency x tenancy factor",
        {"fabric": ov.fabric, "dedicated_factor": ov.tenancy_factor},
        _src("fabric_efficiency", "shared_network_factor", "unknown_dedication_factor"))
    ex["checkpoint"] = _item(
        v.get("checkpoint"),
        "size = 14 B x N_total; stall = size / write speed; MTBF = 1 / (failures per GPU-day x "
        "GPUs); interval = sqrt(2 stall MTBF); storage loss = stall / interval; failure loss = "
        "interval / (2 MTBF) + restart / MTBF",
        {"write_gbyte_s": ov.write_gbyte_s, "gpus": r.gpus_used},
        [f"{MFU_SPECS} §4.7", *_src("checkpoint_bytes_per_param", "failures_per_gpu_day",
                                    "restart_minutes")])
    ex["mfu"] = _item(
        v.get("mfu"), "base - network - tensor parallel - pipeline bubble - recompute - idle "
        "GPUs - storage - failure losses (each in MFU points)", v.get("mfu_breakdown") or {},
        [f"{MFU_SPECS} §2.2, §4.4; MFU against the dense {wv.precision} peak"])
    ex["hfu"] = _item(v.get("hfu"), "mfu x hardware FLOPs / model FLOPs (recompute counted)",
                      {"hardware_flops_per_token": r.hardware_flops_per_token},
                      [f"{MFU_SPECS} §2.2"])
    ex["tokens_per_s_per_gpu"] = _item(v.get("tokens_per_s_per_gpu"),
                                       "peak x mfu / flops_per_token", {}, [f"{MFU_SPECS} §4.4"])
    ex["time_to_train_days"] = _item(
        v.get("time_to_train_days"), "total_flops / (gpus x peak x mfu) / 86400",
        {"gpus": r.gpus_used}, ["PRODUCT.md rule 1; seed 001 'TFLOPS', 'MFU'"])
    ex["gpu_hours"] = _item(v.get("gpu_hours"), "gpus x days x 24", {}, [])
    if r.costs:
        ex["total_cost_usd"] = _item(
            v.get("total_cost_usd"),
            "compute (gpus x hours x price) + storage + support + network + egress + unused "
            "upfront (+ commitment shortfall when cost_basis = commitment)",
            {"usd_per_gpu_hour": r.price_used, "breakdown": r.costs,
             "minimum_commitment_usd": r.commitment_usd},
            _src("cost_basis", "upfront_credited", "hours_per_month"))
        ex["effective_usd_per_gpu_hour"] = _item(v.get("effective_usd_per_gpu_hour"),
                                                 "total_cost / gpu_hours", {}, [])
        ex["usd_per_effective_pflop_hour"] = _item(
            v.get("usd_per_effective_pflop_hour"),
            "total_cost / (gpu_hours x peak x mfu / 1000)", {}, [])
        ex["usd_per_million_tokens"] = _item(v.get("usd_per_million_tokens"),
                                             "total_cost / tokens x 1e6", {}, [f"{MFU_SPECS} §4.4"])
    ex["days_to_trained_model"] = _item(
        v.get("days_to_trained_model"), "delivery_wait_days + time_to_train_days",
        {"delivery_wait_days": v.get("delivery_wait_days"),
         "start_date": wv.start_date.isoformat() if wv.start_date else None},
        ["seed 001 'Say no to reasonable effort contracts' (delivery dates matter)"])
    ex["cost_of_delay_usd"] = _item(
        v.get("cost_of_delay_usd"), "cost_of_delay_usd_per_day x days_to_trained_model",
        {"usd_per_day": wv.cost_of_delay_usd_per_day}, ["PRODUCT.md rule 2 (seed 001)"])
    ex["total_economic_cost_usd"] = _item(v.get("total_economic_cost_usd"),
                                          "total_cost + cost_of_delay", {}, [])
    ex["deadline_met"] = _item(v.get("deadline_met"), "days_to_trained_model <= deadline_days",
                               {"deadline_days": wv.deadline_days}, [])
    ex["storage"] = _item(
        {"needed_tb": v.get("storage_needed_tb"), "usable_tb": v.get("storage_usable_tb")},
        "usable = 0.8 x sold; needed = workload.storage_needed_tb, else tokens x 4 B + 3 "
        "checkpoints", {"sold_tb": ov.storage_capacity_tb},
        _src("storage_usable_fraction", "dataset_bytes_per_token", "checkpoints_kept"))
    if r.buy_vs_rent:
        ex["buy_vs_rent"] = _item(
            v.get("buy_vs_rent"),
            "owning per GPU-hour = (capex / amortization + power or colocation + opex) / "
            "(gpus x 730); break-even utilisation = owning per GPU-hour / rent per GPU-hour",
            {"capex_usd": ov.capex_usd, "amortization_months": ov.amortization_months},
            ["PRODUCT.md purchase formula; seed 001 buy vs rent",
             *_src("reference_rent_usd_per_gpu_hour")])


def _explain_inference(ex: dict[str, Any], r: Result, ov: OfferView, wv: WorkloadView,
                       p: Params, v: dict[str, Any]) -> None:
    inf = r.inference or {}
    ex["decode_tokens_per_s_per_gpu"] = _item(
        v.get("decode_tokens_per_s_per_gpu"),
        "batch / max((weights + batch x context x KV bytes) / (replica GPUs x HBM x eff), "
        "batch x 2 N_active / (replica GPUs x peak x prefill_mfu)) / replica GPUs",
        {"batch": inf.get("decode_batch"), "context_tokens": inf.get("context_tokens"),
         "hbm_tbyte_s": ov.hbm_tbyte_s, "replica_gpus": inf.get("replica_gpus"),
         "weight_gb": inf.get("weight_gb")},
        [f"{MFU_SPECS} §2.4", *_src("hbm_efficiency", "kv_dim", "decode_batch_size")])
    ex["prefill_tokens_per_s_per_gpu"] = _item(
        v.get("prefill_tokens_per_s_per_gpu"), "peak x prefill_mfu / (2 N_active + 4 L d T)",
        {}, [f"{MFU_SPECS} §2.4", *_src("prefill_mfu")])
    ex["replicas_needed"] = _item(
        v.get("replicas_needed"),
        "ceil((output tok/s / decode per GPU + prompt tok/s / prefill per GPU) / replica GPUs)",
        {"serving": wv.serving.model_dump() if wv.serving is not None else None}, [])
    ex["usd_per_million_output_tokens"] = _item(
        v.get("usd_per_million_output_tokens"),
        "(price x GPUs + support) per hour / (output tokens per hour) x 1e6",
        {"usd_per_gpu_hour": r.price_used}, [])
    if r.costs:
        ex["total_cost_usd"] = _item(v.get("total_cost_usd"),
                                     "serving GPUs x 730 h x price x months", r.costs,
                                     _src("hours_per_month"))
