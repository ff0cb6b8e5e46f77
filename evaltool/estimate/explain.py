"""How each estimate was reached: value, formula, inputs and sources, JSON-ready.

`build_explain` turns a computed `Result` into `Estimates.explain`:
{quantity: {value, formula, inputs, sources}}, plus `assumed` (human sentences the lead
turns into warnings) and `notes`. Values are the rounded numbers of the estimate itself.
"""

from __future__ import annotations

import functools
from typing import Any

from evaltool.estimate.assumptions import assumption_source
from evaltool.estimate.result import Result, rounded_json
from evaltool.estimate.views import OfferView, Params, WorkloadView

AIB = ('S. Bekman, Machine Learning Engineering Open Book, "The AI Battlefield" '
       "(github.com/stas00/ml-engineering/blob/master/insights/ai-battlefield.md)")
PALM = "PaLM (Chowdhery et al. 2022, arXiv 2204.02311) App. B"
MFU_HFU = "MFU vs HFU: PaLM (arXiv 2204.02311) App. B; Korthikanti et al. 2022 (arXiv 2205.05198)"
MAMF = ("ml-engineering maximum achievable matmul FLOPS table "
        "(github.com/stas00/ml-engineering/blob/master/compute/accelerator/README.md)")
MEGATRON = ("Narayanan et al. 2021 (arXiv 2104.04473); "
            "ZeRO (Rajbhandari et al. 2020, arXiv 1910.02054)")
NCCL = "NCCL collective costs (github.com/NVIDIA/nccl-tests/blob/master/doc/PERFORMANCE.md)"
YOUNG_DALY = ("Young 1974, CACM 17(9); Daly 2006, FGCS 22(3); failure rate: Llama 3 "
              "(arXiv 2407.21783, section 3.3.4)")
ROOFLINE = "Pope et al. 2022, Efficiently Scaling Transformer Inference (arXiv 2211.05102)"
CATALOG = ("evaltool accelerator catalog: vendor datasheets, dense peaks (NVIDIA's sparse "
           "headline figures halved)")


def _item(value: Any, formula: str, inputs: dict[str, Any], sources: list[str]) -> dict[str, Any]:
    return {"value": value, "formula": formula, "inputs": rounded_json(inputs), "sources": sources}


def _src(*names: str) -> list[str]:
    return [_source_line(name) for name in names]


@functools.cache
def _source_line(name: str) -> str:
    """One string per assumption, shared by every offer's explain tree (not one copy each)."""
    return f"{name}: {assumption_source(name)}"


def build_explain(r: Result, ov: OfferView, wv: WorkloadView, p: Params,
                  values: dict[str, Any]) -> dict[str, Any]:
    ex: dict[str, Any] = {}
    ex["gpus_used"] = _item(values.get("gpus_used"), "offer.gpu_count, capped by "
                            "workload.gpus_wanted (never below the minimum that fits)",
                            {"offer_gpu_count": ov.gpu_count, "gpus_wanted": wv.gpus_wanted},
                            [r.gpus_note])
    ex["min_gpus_required"] = _item(
        values.get("min_gpus_required"),
        (f"ceil(params_B x {p.inference_bytes_per_param.get(wv.precision, 2.0):g} x "
         f"{p.activation_memory_factor:g} / gpu_memory_GB)" if r.kind == "inference"
         else f"ceil(params_B x {p.training_bytes_per_param:g} x {p.activation_memory_factor:g} "
              "/ gpu_memory_GB)"),
        {"params_b": wv.params / 1e9, "gpu_memory_gb": ov.memory_gb},
        [f"{AIB}, 'Tell how many GPUs do you need in 5 secs'", r.fit_reason],
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
            [CATALOG])
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
        [PALM])
    ex["total_flops"] = _item(rounded_json(r.total_flops), "tokens x flops_per_token",
                              {"tokens": wv.tokens}, [PALM])
    if r.base_mfu is None:
        return
    sw_sources = (["workload.software_efficiency"] if wv.software_efficiency is not None
                  else _src("software_efficiency")
                  + (_src("fp8_software_factor") if wv.precision == "fp8" else [])
                  + (_src("moe_fp8_software_factor" if wv.precision == "fp8"
                          else "moe_software_factor") if wv.is_moe else [])
                  + (_src("accelerator_software_factor")
                     if ov.accelerator in p.accelerator_factor else []))
    ex["base_mfu"] = _item(
        rounded_json(r.base_mfu), "measured matmul ceiling x software efficiency",
        {"matmul_efficiency": r.matmul_efficiency, "software_efficiency": r.software_efficiency},
        [*sw_sources, MAMF])
    lay = r.layout
    if lay is not None:
        ex["parallel_layout"] = _item(
            v.get("parallel_layout"),
            "best MFU among TP (inside the NVLink domain) x PP x DP with a distributed "
            "optimizer, and FSDP; memory per GPU = states + activations <= usable memory",
            {"gpus_per_node": ov.gpus_per_node, "nvlink_domain_gpus": ov.domain_gpus,
             "gpu_memory_gb": ov.memory_gb, "global_batch_tokens": wv.global_batch_tokens},
            [MEGATRON, *_src("gpu_memory_usable_fraction", "recompute",
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
            [NCCL, *_src("fabric_efficiency", "shared_network_factor",
                                             "overlap_window_fraction", "exposed_comm_fraction",
                                             "gradient_reduce_bytes")])
        ex["required_inter_node_gbit_s_per_gpu"] = _item(
            v.get("required_inter_node_gbit_s_per_gpu"),
            "8 x bytes per GPU per step / (fabric efficiency x tenancy x o x overlap window)",
            {"offered_gbit_s_per_gpu": ov.inter_gbit_s_per_gpu, "window_s": lay.t_window},
            [NCCL, "the step model above, solved for the bandwidth that hides the traffic"])
    ex["network_effective_efficiency"] = _item(
        rounded_json(ov.network_factor), "fabric efficiency x tenancy factor",
        {"fabric": ov.fabric, "dedicated_factor": ov.tenancy_factor},
        _src("fabric_efficiency", "shared_network_factor", "unknown_dedication_factor"))
    ex["checkpoint"] = _item(
        v.get("checkpoint"),
        "size = 14 B x N_total; stall = size / write speed; MTBF = 1 / (failures per GPU-day x "
        "GPUs + spot preemptions per node-day x nodes); interval = sqrt(2 stall MTBF); "
        "storage loss = stall / interval; failure loss = interval / (2 MTBF) + restart / MTBF "
        "(the preemptions' share of it is preemption_loss)",
        {"write_gbyte_s": ov.write_gbyte_s, "gpus": r.gpus_used,
         "preemptible": ov.preemptible,
         "preemptions_per_node_day": ov.preemptions_per_node_day if ov.preemptible else None,
         "preemption_share_of_restarts": r.preemption_frac if ov.preemptible else None},
        [YOUNG_DALY, *_src("checkpoint_bytes_per_param", "failures_per_gpu_day",
                           "restart_minutes")
         + (_src("spot_preemptions_per_node_day")
            if ov.preemptible and ov.preemptions_per_node_day is None else [])])
    ex["mfu"] = _item(
        v.get("mfu"), "base - network - tensor parallel - pipeline bubble - recompute - idle "
        "GPUs - storage - failure losses (each in MFU points)", v.get("mfu_breakdown") or {},
        [MFU_HFU, f"MFU against the dense {wv.precision} peak"])
    ex["mfu_range"] = _item(
        {"low": v.get("mfu_low"), "likely": v.get("mfu"), "high": v.get("mfu_high")},
        "mfu x (low or high / likely) of each efficiency factor that applies (software, "
        "MoE, accelerator family): the spread of the published results behind them",
        {"low_factor": r.mfu_low_factor, "high_factor": r.mfu_high_factor},
        [*(_src("software_efficiency_range") if wv.software_efficiency is None else []),
         *(_src("moe_fp8_software_factor_range" if wv.precision == "fp8"
                else "moe_software_factor_range") if wv.is_moe else []),
         *(_src("accelerator_software_factor")
           if ov.accelerator in p.accelerator_factor else [])])
    ex["hfu"] = _item(v.get("hfu"), "mfu x hardware FLOPs / model FLOPs (recompute counted)",
                      {"hardware_flops_per_token": r.hardware_flops_per_token},
                      [MFU_HFU])
    ex["tokens_per_s_per_gpu"] = _item(v.get("tokens_per_s_per_gpu"),
                                       "peak x mfu / flops_per_token", {}, [PALM])
    ex["time_to_train_days"] = _item(
        v.get("time_to_train_days"),
        "running + replacement_wait + spot_unavailable; running = total_flops / (gpus x peak "
        "x mfu) / 86400; replacement_wait = running x lost / (1 - lost), lost = (node failures "
        "per day x nodes x replacement hours / 24 - spare nodes) / nodes; spot_unavailable = "
        "(running + replacement_wait) x (1 / availability - 1)",
        {"gpus": r.gpus_used, "breakdown_days": v.get("time_to_train_breakdown_days"),
         "hw_replacement_hours": ov.hw_replacement_hours,
         "capacity_lost_to_replacement": r.capacity_lost_to_replacement,
         "preemptible": ov.preemptible, "spot_availability": r.spot_availability,
         "spot_availability_stated": ov.availability is not None if ov.preemptible else None},
        [f"{AIB}, 'TFLOPS', 'MFU'",
         *_src("failures_per_gpu_day", "hardware_failure_share")
         + (_src("default_hw_replacement_hours") if ov.hw_replacement_hours is None else [])
         + (_src("spot_availability_fraction") if ov.preemptible and ov.availability is None
            else [])])
    ex["gpu_hours"] = _item(v.get("gpu_hours"),
                            "gpus x (running + replacement_wait days) x 24 (spot waiting is "
                            "not billed)", {}, [])
    if r.costs:
        ex["total_cost_usd"] = _item(
            v.get("total_cost_usd"),
            "compute (gpus x hours x price) + storage + support + network + egress + unused "
            "upfront (what signing commits is the money stage's full_commitment_usd)",
            {"usd_per_gpu_hour": r.price_used, "breakdown": r.costs},
            _src("cost_basis", "upfront_credited", "hours_per_month"))
        ex["effective_usd_per_gpu_hour"] = _item(v.get("effective_usd_per_gpu_hour"),
                                                 "total_cost / gpu_hours", {}, [])
        ex["usd_per_effective_pflop_hour"] = _item(
            v.get("usd_per_effective_pflop_hour"),
            "total_cost / (gpu_hours x peak x mfu / 1000)", {}, [])
        ex["usd_per_million_tokens"] = _item(v.get("usd_per_million_tokens"),
                                             "total_cost / tokens x 1e6", {}, [])
    ex["days_to_trained_model"] = _item(
        v.get("days_to_trained_model"),
        "delivery_wait_days + delivery_slip_days + time_to_train_days",
        {"delivery_wait_days": v.get("delivery_wait_days"),
         "delivery_slip_days": v.get("delivery_slip_days"),
         "delivery_date_committed": ov.delivery_committed,
         "start_date": wv.start_date.isoformat() if wv.start_date else None},
        [f"{AIB}, 'Say no to reasonable effort contracts' (delivery dates matter)",
         *(_src("hedged_delivery_slip_days") if ov.delivery_committed is False else [])])
    ex["cost_of_delay_usd"] = _item(
        v.get("cost_of_delay_usd"), "cost_of_delay_usd_per_day x days_to_trained_model",
        {"usd_per_day": wv.cost_of_delay_usd_per_day},
        [f"{AIB}, 'What's important in the AI race?' (time to market)"])
    ex["total_economic_cost_usd"] = _item(v.get("total_economic_cost_usd"),
                                          "total_cost + cost_of_delay", {}, [])
    ex["deadline_met"] = _item(v.get("deadline_met"), "days_to_trained_model <= deadline_days",
                               {"deadline_days": wv.deadline_days}, [])
    ex["storage"] = _item(
        {"needed_tb": v.get("storage_needed_tb"), "usable_tb": v.get("storage_usable_tb")},
        "usable = 0.8 x sold (x 1 when the quote states it as usable); needed = "
        "workload.storage_needed_tb, else tokens x 4 B + 3 checkpoints",
        {"sold_tb": ov.storage_capacity_tb, "quoted_as_usable": ov.storage_capacity_usable},
        _src("storage_usable_fraction", "dataset_bytes_per_token", "checkpoints_kept"))
    if r.buy_vs_rent:
        ex["buy_vs_rent"] = _item(
            v.get("buy_vs_rent"),
            "owning per GPU-hour = (capex / amortization + power or colocation + opex) / "
            "(gpus x 730); break-even utilisation = owning per GPU-hour / rent per GPU-hour",
            {"capex_usd": ov.capex_usd, "amortization_months": ov.amortization_months},
            [f"{AIB}, buy vs rent",
             *_src("reference_rent_usd_per_gpu_hour")])


def _explain_inference(ex: dict[str, Any], r: Result, ov: OfferView, wv: WorkloadView,
                       p: Params, v: dict[str, Any]) -> None:
    inf = r.inference or {}
    ex["replica_shape"] = _item(
        {"tensor_parallel": inf.get("tensor_parallel"), "pipeline_stages": inf.get(
            "pipeline_stages"), "decode_batch": inf.get("decode_batch"),
         "decode_batch_limited_by": inf.get("decode_batch_limited_by")},
        "for each TP (powers of two inside the scale-up domain) and PP (only when the weights "
        "need more than one domain): batch = min(KV room / (PP x context x KV bytes per "
        "token), the batch that keeps a step within the time-per-output-token target, the "
        "engine cap); a shape whose time to first token (the step in flight + the prompt's "
        "prefill on the replica's GPUs) exceeds the TTFT target is ruled out; the shape "
        "needing the fewest GPUs for the target wins (else the most tokens per GPU)",
        {"shapes_considered": inf.get("shapes_considered"),
         "kv_bytes_per_token": inf.get("kv_bytes_per_token"),
         "latency_target_ms_per_token": inf.get("latency_target_ms_per_token"),
         "latency_target_ttft_ms": inf.get("latency_target_ttft_ms"),
         "time_to_first_token_ms": inf.get("time_to_first_token_ms"),
         "meets_latency": inf.get("meets_latency"),
         "usable_memory_fraction": p.gpu_memory_usable_fraction},
        [ROOFLINE, *_src("max_decode_batch_sequences", "kv_cache_bytes_per_element",
                         "gpu_memory_usable_fraction")
         + (_src("serving_max_latency_ms_per_token")
            if getattr(wv.serving, "max_latency_ms_per_token", None) is None else [])
         + (_src("kv_dim") if not wv.kv_shape_given else [])])
    ex["decode_tokens_per_s_per_gpu"] = _item(
        v.get("decode_tokens_per_s_per_gpu"),
        "PP x batch / step / replica GPUs; step = max((weights + batch x context x KV bytes) "
        "/ (TP x HBM x eff), batch x 2 N_active / (TP x peak x prefill_mfu)) + batch x TP "
        "all-reduce time",
        {"batch": inf.get("decode_batch"), "context_tokens": inf.get("context_tokens"),
         "hbm_tbyte_s": ov.hbm_tbyte_s, "replica_gpus": inf.get("replica_gpus"),
         "weight_gb": inf.get("weight_gb"), "ms_per_token": inf.get("decode_ms_per_token")},
        [ROOFLINE, *_src("hbm_efficiency", "nvlink_efficiency")])
    ex["prefill_tokens_per_s_per_gpu"] = _item(
        v.get("prefill_tokens_per_s_per_gpu"), "peak x prefill_mfu / (2 N_active + 4 L d T)",
        {}, [ROOFLINE, *_src("prefill_mfu")])
    ex["required_gpus"] = _item(
        v.get("required_gpus"),
        "replicas x replica GPUs (whole nodes when a replica is smaller than a node); "
        "replicas = ceil((output tok/s / decode per GPU + prompt tok/s / prefill per GPU) / "
        "replica GPUs)",
        {"serving": wv.serving.model_dump() if wv.serving is not None else None,
         "offer_gpu_count": ov.gpu_count, "meets_throughput": v.get("meets_throughput")}, [])
    ex["serving_capacity_tokens_per_s"] = _item(
        v.get("serving_capacity_tokens_per_s"),
        "whole replicas in the offer x replica GPUs / (1 / decode per GPU + prompt tokens per "
        "output token / prefill per GPU)", {"offer_gpu_count": ov.gpu_count}, [])
    ex["replicas_needed"] = _item(v.get("replicas_needed"), "see required_gpus", {}, [])
    ex["usd_per_million_output_tokens"] = _item(
        v.get("usd_per_million_output_tokens"),
        "(price x GPUs + support) per hour / (output tokens per hour) x 1e6",
        {"usd_per_gpu_hour": r.price_used}, [])
    if r.costs:
        duration = getattr(wv.serving, "duration_months", None)
        ex["total_cost_usd"] = _item(
            v.get("total_cost_usd"),
            "serving GPUs x 730 h x price x months; months = the workload's serving duration, "
            "else the offer's term, else one month; a reservation bills its whole block",
            {**r.costs, "serving_duration_months": duration, "term_months": ov.term_months,
             "gpus_billed": r.gpus_used, "required_gpus": v.get("required_gpus")},
            _src("hours_per_month"))
