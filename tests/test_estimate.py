"""MFU-adjusted cost: the reference checks of shared/research/mfu-specs.md §6, the worked
example §4.6, the tables of §4.5 and §4.7, the sizing rule of seed 001, and how
`estimate_offer` behaves on offers a buyer would see."""

from __future__ import annotations

import datetime as dt
import json
import math
from pathlib import Path

import pytest

from evaltool.catalog import public_price_reference
from evaltool.clauses import extract_terms
from evaltool.errors import UsageError
from evaltool.estimate import (
    AcceleratorSpec,
    estimate_many,
    estimate_offer,
    load_assumptions,
    round_numbers,
)
from evaltool.estimate import formulas as fm
from evaltool.estimate.contract import with_contract_facts
from evaltool.estimate.layout import _plan_one
from evaltool.estimate.money import estimate_with_money
from evaltool.estimate.views import default_params, offer_view, resolve_params, workload_view
from evaltool.models import Offer, OfferFields, ServingTarget, Workload
from evaltool.normalize.core import normalize_files

DAY = 86_400.0

# Stand-in for the catalog entry, with the numbers of mfu-specs §1.1 / §1.3, so these tests
# check the estimate and not the catalog.
H100 = AcceleratorSpec(
    id="H100-SXM", dense_tflops={"bf16": 989.0, "fp8": 1979.0},
    matmul_efficiency={"bf16": 0.803, "fp8": 0.709}, memory_gb=80.0,
    memory_bandwidth_tbyte_s=3.35, intra_node_gbyte_s=900.0, scale_up_domain_gpus=8,
)
A100_80 = AcceleratorSpec(
    id="A100-SXM-80GB", dense_tflops={"bf16": 312.0}, matmul_efficiency={"bf16": 0.869},
    memory_gb=80.0, memory_bandwidth_tbyte_s=2.039, intra_node_gbyte_s=600.0,
    scale_up_domain_gpus=8,
)

LLAMA2_70B = Workload(  # mfu-specs §4.6: N = 68.98e9, L 80, h 8192, seq 4096, 2T tokens
    name="llama-70b", params_b=68.98, tokens_b=2000, seq_len=4096, n_layers=80, d_model=8192,
    global_batch_tokens=4_194_304, cost_of_delay_usd_per_day=40_000, deadline_days=120,
)


def ib_cluster(**update: object) -> OfferFields:
    """128 nodes x 8 H100 SXM, 8 x 400 Gbit/s NDR InfiniBand, dedicated, WEKA."""
    fields: dict[str, object] = dict(
        vendor="Nimbus", accelerator="H100-SXM", gpu_count=1024, gpus_per_node=8,
        node_count=128, gpu_memory_gb=80, inter_node_fabric="infiniband",
        inter_node_gbit_s_per_node=3200, network_dedicated=True, storage_type="weka",
        storage_capacity_tb=2000, storage_write_gbyte_s=120, price_usd_per_gpu_hour=2.50,
        egress_usd_per_gb=0.0,
    )
    fields.update(update)
    return OfferFields(**fields)


def shared_ethernet(**update: object) -> OfferFields:
    """Same GPUs on a 100 Gbit/s-per-GPU Ethernet partition shared with other tenants."""
    base: dict[str, object] = dict(inter_node_fabric="ethernet", inter_node_gbit_s_per_node=800,
                                   network_dedicated=False)
    base.update(update)
    return ib_cluster(**base)


# --------------------------------------------------------------- §6 reference checks ---


@pytest.mark.parametrize(
    ("layers", "hidden", "batch", "gpus", "seconds", "expected"),
    [
        (96, 12288, 64, 64, 13.75, 0.514),  # #1 GPT-3 175B
        (48, 6144, 4, 8, 1.10, 0.417),  # #2 22B
        (105, 20480, 280, 280, 37.83, 0.560),  # #2 530B
        (128, 25600, 512, 512, 71.49, 0.563),  # #2 1T
    ],
)
def test_megatron_72_formula_reproduces_korthikanti_mfu(
    layers: int, hidden: int, batch: int, gpus: int, seconds: float, expected: float
) -> None:
    flops = fm.megatron_model_flops_per_iteration(batch, 2048, layers, hidden, 51200)
    assert fm.mfu_from_iteration(flops, seconds, gpus, 312) == pytest.approx(expected, abs=0.002)


def test_megatron_96_formula_gpt3_iteration() -> None:
    # #3: 4.51e18 FLOPs per iteration (B = 1536), 20.8 s at 1536 GPUs x 141 TF
    flops = fm.megatron_hardware_flops_per_iteration(1536, 2048, 96, 12288, 51200)
    assert flops == pytest.approx(4.51e18, rel=0.005)
    assert flops / (1536 * 141e12) == pytest.approx(20.8, rel=0.005)


def test_megatron_end_to_end_gpt3_days() -> None:
    # #4: 8TP/(nX), 175B, 300B tokens, 384 GPUs at 153 TF -> 82.5 days
    assert fm.training_days(8 * 300e9 * 175e9, 384, 153) == pytest.approx(82.5, rel=0.005)


def test_mt_nlg_iteration_time() -> None:
    # #5: 530B (L105, h20480, V 50272), gbs 1920, 2800 GPUs at 121 TF -> 49.98 s
    flops = fm.megatron_hardware_flops_per_iteration(1920, 2048, 105, 20480, 50272)
    assert flops / (2800 * 121e12) == pytest.approx(49.98, rel=0.005)


def test_llama_65b_mfu_from_tokens_per_second() -> None:
    # #6: 380 tokens/s/GPU on A100 -> ~49.6% with the PaLM formula
    fpt = fm.palm_flops_per_token(65.2e9, 80, 8192, 2048)
    assert 380 * fpt / 312e12 == pytest.approx(0.496, abs=0.005)


def test_llama3_405b_tokens_per_second() -> None:
    # #7: 400 TF/GPU, seq 8192 (L126, h16384) -> ~152 tokens/s/GPU
    fpt = fm.palm_flops_per_token(405e9, 126, 16384, 8192)
    assert 400e12 / fpt == pytest.approx(152, rel=0.01)


def test_semianalysis_fp8_cost_per_million_tokens() -> None:
    # #8: GPT-3 175B FP8 at 39.5% of 1979 TF, $1.42/GPU-h -> ~726 tok/s/GPU, $0.543 per M
    fpt = fm.palm_flops_per_token(174.6e9, 96, 12288, 2048)
    tokens_per_s = 0.395 * 1979e12 / fpt
    assert tokens_per_s == pytest.approx(726, rel=0.01)
    assert fm.usd_per_million_tokens(1.42, tokens_per_s) == pytest.approx(0.543, rel=0.01)


def test_deepseek_v3_implied_mfu() -> None:
    # #9: 2.664M GPU-h, 14.8T tokens, 37B active -> ~343 TF/GPU, 34.6% of BF16 peak
    tflops = 6 * 37e9 * 14.8e12 / (2.664e6 * 3600) / 1e12
    assert tflops == pytest.approx(343, rel=0.005)
    assert tflops / 989 == pytest.approx(0.346, abs=0.002)


def test_eleutherai_gpt3_total_flops() -> None:
    # #10: 4.29e23 with recompute, 3.22e23 without (per-iteration formulas x tokens / B s)
    tokens, s = 300e9, 2048
    model = fm.megatron_model_flops_per_iteration(1, s, 96, 12288, 51200) / s * tokens
    hardware = fm.megatron_hardware_flops_per_iteration(1, s, 96, 12288, 51200) / s * tokens
    assert model == pytest.approx(3.22e23, rel=0.005)
    assert hardware == pytest.approx(4.29e23, rel=0.005)


def test_nanogpt_days() -> None:
    # #11: 124M, 300B tokens, 8 A100 at 30% MFU -> 3.46 days (6ND)
    assert fm.training_days(6 * 124e6 * 300e9, 8, 312 * 0.30) == pytest.approx(3.46, rel=0.005)


def test_llama2_70b_decode_roofline() -> None:
    # #12: 137 GB of bf16 weights over 2 x A100-80GB: 33.7 ms/token at full HBM bandwidth
    seconds = fm.decode_seconds_per_token(137e9, 0.0, 2, 2.039, 1.0)
    assert seconds * 1000 == pytest.approx(33.6, abs=0.2)


def test_llama2_70b_decode_through_estimate_offer() -> None:
    # #12 end to end: batch 1 on 2 x A100-80GB; llm-analysis 35.3 ms, roofline >= 33.7 ms
    offer = OfferFields(accelerator="A100-SXM-80GB", gpu_count=2, gpus_per_node=2,
                        price_usd_per_gpu_hour=2.0)
    workload = Workload(name="serve", kind="inference", params_b=68.5, n_layers=80,
                        d_model=8192, serving=ServingTarget(tokens_per_s=10, batch_size=1,
                                                           prompt_tokens=512, output_tokens=512))
    est = estimate_offer(offer, workload, {"hbm_efficiency": 1.0}, accelerator=A100_80)
    ms = est.model_extra["inference"]["decode_ms_per_token"]  # type: ignore[index]
    assert 33.6 <= ms <= 35.3 * 1.1
    assert est.model_extra["inference"]["replica_gpus"] == 2  # type: ignore[index]


def test_unit_check_70b_gradient_all_reduce() -> None:
    # #13: 8 x 400 Gbit/s = 400 GB/s per node, 50 GB/s per GPU; TP8 x PP4 x DP32 bf16 grads:
    # 4.31 GB shard, ring all-reduce moves 2 x 31/32 x 4.31 = 8.35 GB, 0.21 s at 40 GB/s
    assert 8 * 400 / 8 == 400 and 8 * 400 / 8 / 8 == 50
    shard = 68.98e9 * 2 / 32
    assert shard / 1e9 == pytest.approx(4.31, abs=0.01)
    moved = fm.ring_allreduce_bytes(shard, 32)
    assert moved / 1e9 == pytest.approx(8.35, abs=0.01)
    assert moved / 40e9 == pytest.approx(0.21, abs=0.005)


def test_layout_traffic_matches_the_unit_check() -> None:
    # The same TP8 x PP4 x DP32 layout inside the estimator: the same bytes and seconds.
    p = default_params()
    ov = offer_view(ib_cluster(), p, H100)
    wv = workload_view(LLAMA2_70B, p)
    fpt = fm.palm_flops_per_token(wv.active_params, 80, 8192, 4096)
    lay = _plan_one(8, 4, "zero1", 1024, wv, ov, p, 989e12, 0.4, fpt, 72e9)
    assert lay is not None and lay.dp == 32
    # DP gradient bytes plus a little pipeline activation traffic (67 MB per boundary, §4.3)
    assert lay.comm_gbyte_per_gpu == pytest.approx(8.35 + 0.54, abs=0.02)
    assert lay.t_comm == pytest.approx((8.35e9 + 0.54e9) / 40e9, rel=0.01)


# ------------------------------------------------------------- §4.6 worked example ---


def test_worked_example_flops() -> None:
    fpt = fm.palm_flops_per_token(68.98e9, 80, 8192, 4096)
    assert fpt == pytest.approx(4.46e11, rel=0.005)
    assert 12 * 80 * 8192 * 4096 / fpt == pytest.approx(0.072, abs=0.001)  # attention share
    assert 2e12 * fpt == pytest.approx(8.92e23, rel=0.005)


@pytest.mark.parametrize(
    ("mfu", "days", "gpu_hours", "usd"),
    [(0.35, 29.1, 716e3, 1.79e6), (0.40, 25.5, 626e3, 1.57e6), (0.45, 22.7, None, 1.39e6),
     (0.50, 20.4, None, 1.25e6)],
)
def test_worked_example_time_and_cost(mfu: float, days: float, gpu_hours: float | None,
                                      usd: float) -> None:
    total = 2e12 * fm.palm_flops_per_token(68.98e9, 80, 8192, 4096)
    got_days = fm.training_days(total, 1024, 989 * mfu)
    assert got_days == pytest.approx(days, abs=0.1)
    if gpu_hours is not None:
        assert got_days * 24 * 1024 == pytest.approx(gpu_hours, rel=0.005)
    assert got_days * 24 * 1024 * 2.50 == pytest.approx(usd, rel=0.01)


def test_worked_example_step_time_and_comm() -> None:
    fpt = fm.palm_flops_per_token(68.98e9, 80, 8192, 4096)
    step = 4_194_304 * fpt / (1024 * 0.40 * 989e12)
    assert step == pytest.approx(4.62, abs=0.01)
    # step 4: DP traffic per node 2 x 31/32 x 138 GB / 4 = 66.8 GB
    per_node = fm.ring_allreduce_bytes(68.98e9 * 2, 32) / 4
    assert per_node / 1e9 == pytest.approx(66.8, abs=0.1)
    ib = per_node / (400e9 * 0.8)
    eth = per_node / (200e9 * 0.8)
    assert ib == pytest.approx(0.21, abs=0.005) and ib / step == pytest.approx(0.045, abs=0.001)
    assert eth == pytest.approx(0.42, abs=0.005) and eth / step == pytest.approx(0.090, abs=0.002)
    # step 5: pure FSDP, 3 x 138 GB per node per step: 1.28 s on IB, 2.57 s on 200G Ethernet
    fsdp = 3 * 127 / 128 * 68.98e9 * 2
    assert fsdp / (400e9 * 0.8) == pytest.approx(1.28, abs=0.01)
    assert fsdp / (200e9 * 0.8) == pytest.approx(2.57, abs=0.02)


def test_worked_example_tensor_parallel_and_bubble_inside_the_estimator() -> None:
    p = default_params()
    ov = offer_view(ib_cluster(), p, H100)
    wv = workload_view(LLAMA2_70B, p)
    fpt = fm.palm_flops_per_token(wv.active_params, 80, 8192, 4096)
    base = 400e12 / 989e12  # 400 TF achieved, as in step 6
    no_overlap = dict(p.values, tensor_parallel_overlap=0.0, pipeline_interleave=1)

    q = resolve_params({k: no_overlap[k] for k in ("tensor_parallel_overlap",
                                                  "pipeline_interleave")})
    lay = _plan_one(8, 4, "zero1", 1024, wv, ov, q, 989e12, base, fpt, 72e9)
    assert lay is not None
    work = lay.t_compute + lay.t_recompute
    assert lay.t_tp / work == pytest.approx(0.21, abs=0.005)  # step 6: TP8 in node = 0.21
    assert lay.t_bubble / work == pytest.approx(3 / 32, rel=0.001)  # step 7: 1F1B, m = 32


def test_worked_example_sizing() -> None:
    # step 8 and seed 001: 70 x 18 x 1.25 / 80 -> 20 H100 (training); 70 x 2 x 1.25 / 80 -> 3
    assert fm.min_gpus_by_memory(70, 18, 1.25, 80) == 20
    assert fm.min_gpus_by_memory(70, 2, 1.25, 80) == 3
    # seed 001's own example: 80B on 80 GB -> at least 23 (training) and 3 (inference)
    assert fm.min_gpus_by_memory(80, 18, 1.25, 80) == 23
    assert fm.min_gpus_by_memory(80, 2, 1.25, 80) == 3


# ------------------------------------------------------ §4.5 required bandwidth table ---


@pytest.mark.parametrize(("tokens_per_gpu", "per_node"), [(4096, 112), (2048, 224), (1024, 448)])
def test_required_bandwidth_table(tokens_per_gpu: int, per_node: float) -> None:
    # FSDP c = 3, bf16, r = 1, eta 0.8, o = 1, 400 TF achieved, 4.46e11 FLOPs/token
    window = tokens_per_gpu * 4.46e11 / 400e12
    got = fm.required_gbyte_s(3 * 2 * 68.98e9, window, 0.8, 1.0)
    assert got == pytest.approx(per_node, rel=0.02)
    assert got / 8 * 8 == pytest.approx(per_node, rel=0.02)  # GB/s per GPU x 8 = Gbit/s


# ------------------------------------------------------- §4.7 checkpoint cost table ---


@pytest.mark.parametrize(
    ("write_gbyte_s", "stall_s", "interval_h", "overhead"),
    [(2, 483, 3.6, 0.074), (10, 97, 1.6, 0.033), (50, 19, 0.73, 0.015), (100, 10, 0.52, 0.010)],
)
def test_checkpoint_table(write_gbyte_s: float, stall_s: float, interval_h: float,
                          overhead: float) -> None:
    assumptions = load_assumptions()
    rate = assumptions["failures_per_gpu_day"]["value"]
    mtbf = DAY / (rate * 1024)
    assert mtbf / 3600 == pytest.approx(49.5, abs=0.2)
    stall = 14 * 69e9 / (write_gbyte_s * 1e9)  # 0.97 TB
    assert stall == pytest.approx(stall_s, abs=0.5)  # the table rounds to whole seconds
    tau, ck, fail = fm.checkpoint_overheads(stall, mtbf, 0.0)
    assert tau / 3600 == pytest.approx(interval_h, rel=0.05)
    assert ck + fail == pytest.approx(overhead, rel=0.05)


# ----------------------------------------------------------- estimate_offer behaviour ---


def test_ib_cluster_loses_a_few_percent_and_shared_ethernet_far_more() -> None:
    ib = estimate_offer(ib_cluster(), LLAMA2_70B, accelerator=H100)
    eth = estimate_offer(shared_ethernet(), LLAMA2_70B, accelerator=H100)
    ib_loss = ib.model_extra["mfu_breakdown"]["network_loss"]  # type: ignore[index]
    eth_loss = eth.model_extra["mfu_breakdown"]["network_loss"]  # type: ignore[index]
    assert 0.002 <= ib_loss <= 0.05
    assert eth_loss >= 3 * ib_loss and eth_loss >= 0.05
    assert ib.mfu is not None and eth.mfu is not None and ib.mfu > eth.mfu
    assert 0.35 <= ib.mfu <= 0.55  # mfu-specs §3 takeaway 1: tuned H100 + 400G IB, 40-55%
    # both carry their reasons: bandwidth offered vs needed, fabric efficiency and tenancy
    for est, fabric in ((ib, "infiniband"), (eth, "ethernet")):
        net = est.explain["network"]
        assert net["inputs"]["fabric"] == fabric
        assert "exposed" in net["formula"]
        extra = est.model_extra or {}
        assert extra["offered_inter_node_gbit_s_per_gpu"] > 0
        assert extra["required_inter_node_gbit_s_per_gpu"] > 0
    assert eth.explain["network"]["inputs"]["tenancy_factor"] == 0.5
    eth_extra = eth.model_extra or {}
    assert eth_extra["required_inter_node_gbit_s_per_gpu"] > eth_extra[
        "offered_inter_node_gbit_s_per_gpu"]


def test_slower_network_costs_more_time_and_money() -> None:
    ib = estimate_offer(ib_cluster(), LLAMA2_70B, accelerator=H100)
    eth = estimate_offer(shared_ethernet(price_usd_per_gpu_hour=2.30), LLAMA2_70B,
                         accelerator=H100)
    # PRODUCT.md rule 1: the cheaper GPU-hour finishes later and costs more in total
    assert eth.time_to_train_days > ib.time_to_train_days  # type: ignore[operator]
    assert eth.total_cost_usd > ib.total_cost_usd  # type: ignore[operator]
    assert eth.total_economic_cost_usd > ib.total_economic_cost_usd  # type: ignore[operator]


def test_estimates_are_consistent_with_the_formulas() -> None:
    est = estimate_offer(ib_cluster(), LLAMA2_70B, accelerator=H100)
    extra = est.model_extra or {}
    assert est.gpus_used == 1024 and est.fits is True and est.min_gpus_required == 20
    mfu = est.mfu
    assert mfu is not None
    running = 8.92e23 / (1024 * 989e12 * mfu) / DAY
    parts = extra["time_to_train_breakdown_days"]
    assert parts["running"] == pytest.approx(running, rel=0.005)
    assert parts["spot_unavailable"] == 0.0
    days = parts["running"] + parts["replacement_wait"]
    assert est.time_to_train_days == pytest.approx(days, rel=1e-5)
    assert extra["gpu_hours"] == pytest.approx(days * 24 * 1024, rel=0.005)
    assert extra["cost_breakdown_usd"]["compute"] == pytest.approx(
        extra["gpu_hours"] * 2.50, rel=1e-5)
    assert est.total_cost_usd == pytest.approx(sum(extra["cost_breakdown_usd"].values()),
                                               rel=1e-5)
    assert est.effective_usd_per_gpu_hour == pytest.approx(
        est.total_cost_usd / extra["gpu_hours"], rel=1e-5)
    assert extra["usd_per_million_tokens"] == pytest.approx(
        est.total_cost_usd / 2000e3, rel=1e-5)  # type: ignore[operator]
    assert extra["cost_of_delay_usd"] == pytest.approx(40_000 * days, rel=0.005)
    assert est.total_economic_cost_usd == pytest.approx(
        est.total_cost_usd + extra["cost_of_delay_usd"], rel=1e-5)
    assert est.deadline_met is True
    breakdown = extra["mfu_breakdown"]
    losses = sum(v for k, v in breakdown.items() if k != "base")
    assert breakdown["base"] - losses == pytest.approx(mfu, abs=2e-6)
    assert breakdown["base"] == pytest.approx(0.803 * 0.60, rel=1e-6)
    assert extra["hfu"] >= mfu
    assert extra["tokens_per_s_per_gpu"] == pytest.approx(989e12 * mfu / 4.46e11, rel=0.005)
    assert extra["storage_usable_tb"] == 1600  # 0.8 x 2000 TB sold (seed 001)
    # no storage_needed_tb in the workload: tokenised data (4 B/token) + 3 checkpoints
    assert extra["storage_needed_tb"] == pytest.approx(2e12 * 4 / 1e12 + 3 * 14 * 68.98e9 / 1e12,
                                                       rel=1e-5)
    layout = extra["parallel_layout"]
    assert layout["tp"] * layout["pp"] * layout["dp"] <= 1024 and layout["tp"] <= 8


def test_every_quantity_is_explained() -> None:
    est = estimate_offer(ib_cluster(), LLAMA2_70B, accelerator=H100)
    for key in ("mfu", "time_to_train_days", "total_cost_usd", "network", "checkpoint",
                "parallel_layout", "required_inter_node_gbit_s_per_gpu", "gpus_used",
                "min_gpus_required", "base_mfu", "flops_per_token"):
        item = est.explain[key]
        assert set(item) == {"value", "formula", "inputs", "sources"}
        assert item["formula"]
    assert any("arXiv 2204.02311" in s for s in est.explain["mfu"]["sources"])
    assert "1024" in est.explain["gpus_used"]["sources"][0]


def test_same_inputs_give_the_same_json_bytes() -> None:
    first = estimate_offer(ib_cluster(), LLAMA2_70B, accelerator=H100).model_dump(mode="json")
    second = estimate_offer(ib_cluster(), LLAMA2_70B, accelerator=H100).model_dump(mode="json")
    text = json.dumps(first, sort_keys=True, allow_nan=False)
    assert text == json.dumps(second, sort_keys=True, allow_nan=False)
    # rounded to 6 significant digits
    assert first["mfu"] == float(f"{first['mfu']:.6g}")


def test_offer_that_cannot_hold_the_model_does_not_fit() -> None:
    small = ib_cluster(gpu_count=8, node_count=1)
    est = estimate_offer(small, LLAMA2_70B, accelerator=H100)
    assert est.fits is False and est.min_gpus_required == 20
    assert "does not fit" in est.explain["fits"]["sources"][0]
    assert est.time_to_train_days is not None  # still estimated where it makes sense


def test_gpus_used_is_capped_by_the_workload_plan() -> None:
    workload = LLAMA2_70B.model_copy(update={"gpus_wanted": 512})
    est = estimate_offer(ib_cluster(gpu_count=2048, node_count=256), workload, accelerator=H100)
    assert est.gpus_used == 512
    assert "512" in est.explain["gpus_used"]["sources"][0]


def test_missing_offer_fields_become_stated_assumptions() -> None:
    bare = OfferFields(accelerator="H100-SXM", gpu_count=256, price_usd_per_gpu_hour=2.0)
    est = estimate_offer(bare, LLAMA2_70B, accelerator=H100)
    assumed = " ".join(est.explain["assumed"])
    for words in ("inter-node bandwidth", "fabric", "tenancy", "storage write", "GPUs per node"):
        assert words in assumed
    assert est.mfu is not None and est.total_cost_usd is not None


def test_derived_model_shape_is_stated() -> None:
    workload = Workload(name="gpt3", params_b=175, tokens_b=300, seq_len=2048)
    est = estimate_offer(ib_cluster(), workload, accelerator=H100)
    shape = est.explain["model_shape"]["value"]
    assert 90 <= shape["n_layers"] <= 100 and 11_500 <= shape["d_model"] <= 13_000
    assert any("model shape not given" in s for s in est.explain["assumed"])


def test_moe_uses_active_parameters_for_compute_and_total_for_memory() -> None:
    moe = Workload(name="moe", params_b=671, active_params_b=37, tokens_b=14_800,
                   n_layers=61, d_model=7168, seq_len=4096)
    dense_small = moe.model_copy(update={"params_b": 37, "active_params_b": None})
    est = estimate_offer(ib_cluster(), moe, accelerator=H100)
    small = estimate_offer(ib_cluster(), dense_small, accelerator=H100)
    assert est.min_gpus_required == math.ceil(671 * 18 * 1.25 / 80)
    extra, small_extra = est.model_extra or {}, small.model_extra or {}
    assert est.explain["flops_per_token"]["value"] == small.explain["flops_per_token"]["value"]
    assert extra["checkpoint"]["size_tb"] == pytest.approx(14 * 671e9 / 1e12, rel=1e-5)
    moe_factor = load_assumptions()["moe_software_factor"]["value"]
    assert extra["mfu_breakdown"]["base"] == pytest.approx(
        small_extra["mfu_breakdown"]["base"] * moe_factor, rel=1e-5)


def test_fp8_mfu_is_against_the_fp8_peak() -> None:
    fp8 = LLAMA2_70B.model_copy(update={"precision": "fp8"})
    est = estimate_offer(ib_cluster(), fp8, accelerator=H100)
    extra = est.model_extra or {}
    assert extra["peak_dense_tflops"] == 1979
    assert extra["mfu_breakdown"]["base"] == pytest.approx(0.709 * 0.60 * 0.83, rel=1e-5)


def test_software_efficiency_can_be_overridden() -> None:
    by_workload = LLAMA2_70B.model_copy(update={"software_efficiency": 0.5})
    est = estimate_offer(ib_cluster(), by_workload, accelerator=H100)
    assert (est.model_extra or {})["mfu_breakdown"]["base"] == pytest.approx(0.803 * 0.5)
    est2 = estimate_offer(ib_cluster(), LLAMA2_70B, {"software_efficiency": 0.5},
                          accelerator=H100)
    assert (est2.model_extra or {})["mfu_breakdown"]["base"] == pytest.approx(0.803 * 0.5)
    assert est.explain["base_mfu"]["sources"][0] == "workload.software_efficiency"


def test_unknown_or_mistyped_assumption_is_a_usage_error() -> None:
    with pytest.raises(UsageError, match="unknown assumption"):
        estimate_offer(ib_cluster(), LLAMA2_70B, {"sofware_efficiency": 0.5}, accelerator=H100)
    with pytest.raises(UsageError, match="software_efficiency"):
        estimate_offer(ib_cluster(), LLAMA2_70B, {"software_efficiency": "high"},
                       accelerator=H100)


def test_every_assumption_has_a_source() -> None:
    for name, entry in load_assumptions().items():
        assert entry["source"], name
        assert "value" in entry, name


def test_slow_checkpoint_storage_costs_mfu() -> None:
    fast = estimate_offer(ib_cluster(), LLAMA2_70B, accelerator=H100)
    nfs = estimate_offer(ib_cluster(storage_type="nfs", storage_write_gbyte_s=2), LLAMA2_70B,
                         accelerator=H100)
    fast_ck, nfs_ck = (fast.model_extra or {})["checkpoint"], (nfs.model_extra or {})["checkpoint"]
    assert nfs_ck["stall_s"] == pytest.approx(14 * 68.98e9 / 2e9, rel=1e-5)
    assert nfs_ck["overhead"] > 0.05 > fast_ck["overhead"]
    assert nfs.mfu < fast.mfu  # type: ignore[operator]


def test_storage_capacity_uses_the_80_percent_rule() -> None:
    est = estimate_offer(ib_cluster(storage_capacity_tb=125), LLAMA2_70B.model_copy(
        update={"storage_needed_tb": 100}), accelerator=H100)
    extra = est.model_extra or {}
    assert extra["storage_usable_tb"] == 100 and extra["storage_fits"] is True
    est2 = estimate_offer(ib_cluster(storage_capacity_tb=100), LLAMA2_70B.model_copy(
        update={"storage_needed_tb": 100}), accelerator=H100)
    assert (est2.model_extra or {})["storage_fits"] is False


def test_storage_quoted_as_usable_is_not_cut_to_80_percent_again() -> None:
    # Rule 5 ("rent 125 TB for a reliable 100 TB") applies to capacity as sold; a quote that
    # already states usable capacity has taken the cut itself.
    workload = LLAMA2_70B.model_copy(update={"storage_needed_tb": 100})
    usable = estimate_offer(ib_cluster(storage_capacity_tb=100, storage_capacity_usable=True),
                            workload, accelerator=H100)
    extra = usable.model_extra or {}
    assert extra["storage_usable_tb"] == 100 and extra["storage_fits"] is True
    raw = estimate_offer(ib_cluster(storage_capacity_tb=100), workload, accelerator=H100)
    assert (raw.model_extra or {})["storage_usable_tb"] == 80


def test_our_sample_quote_of_usable_storage_is_read_as_usable() -> None:
    # Ironbridge's quotation says "DDN AI400X2, 1 PB usable"; NimbusGPU's says "2 PB".
    root = Path(__file__).resolve().parents[1] / "offers"
    offers = normalize_files([root / "ironbridge-dgx-purchase.xlsx",
                              root / "nimbusgpu-h100-ib.xlsx"]).offers
    by_id = {o.id: o for o in offers}
    iron, nimbus = by_id["ironbridge-dgx-purchase"], by_id["nimbusgpu-h100-ib"]
    assert iron.fields.storage_capacity_tb == 1000 and iron.fields.storage_capacity_usable
    assert "usable" in (iron.provenance["storage_capacity_usable"].raw or "")
    assert nimbus.fields.storage_capacity_usable is None
    workload = LLAMA2_70B.model_copy(update={"storage_needed_tb": 900})
    iron_est = estimate_offer(iron.fields, workload)
    nimbus_est = estimate_offer(nimbus.fields, workload)
    assert (iron_est.model_extra or {})["storage_usable_tb"] == 1000  # not 800
    assert (nimbus_est.model_extra or {})["storage_usable_tb"] == 1600  # 0.8 x 2 PB
    assert (iron_est.model_extra or {})["storage_fits"] is True


@pytest.mark.parametrize(("label", "value", "capacity_tb", "usable"), [
    ("Nutzbare Kapazität", "500 TB", 500, True),
    ("storage_capacity_tb", "500 TB net", 500, True),
    ("Storage", "Lustre, 500 TB usable", 500, True),
    ("Storage", "WEKA, 500 TB användbart", 500, True),
    ("Storage capacity", "500 TB", 500, None),
    ("Storage capacity", "500 TB raw", 500, None),
    # two figures, raw and usable: neither is taken, and nothing is marked usable
    ("Storage capacity", "500 TB raw, 400 TB usable", None, None),
])
def test_a_capacity_stated_as_usable_is_flagged_from_label_or_value(
    tmp_path: Path, label: str, value: str, capacity_tb: float | None, usable: bool | None,
) -> None:
    path = tmp_path / "offer.yaml"
    path.write_text(json.dumps({"vendor": "V", "accelerator": "H100 SXM", "gpu_count": 64,
                                "price_usd_per_gpu_hour": 2.0, label: value}), "utf-8")
    offer = normalize_files([path]).offers[0]
    assert offer.fields.storage_capacity_tb == capacity_tb
    assert offer.fields.storage_capacity_usable is usable


def test_costs_add_storage_support_egress_and_leave_the_commitment_to_the_money() -> None:
    offer = ib_cluster(compute_price_usd_per_gpu_hour=2.0, storage_usd_per_tb_month=100,
                       support_usd_per_month=30_000, egress_usd_per_gb=0.09, term_months=12,
                       min_commit_usd=1e6)
    workload = LLAMA2_70B.model_copy(update={"egress_tb": 50})
    est = estimate_offer(offer, workload, accelerator=H100)
    extra = est.model_extra or {}
    costs = extra["cost_breakdown_usd"]
    months = extra["gpu_hours"] / 1024 / 730
    assert costs["compute"] == pytest.approx(extra["gpu_hours"] * 2.0, rel=1e-5)
    assert costs["storage"] == pytest.approx(100 * 2000 * months, rel=1e-4)
    assert costs["support"] == pytest.approx(30_000 * months, rel=1e-4)
    assert costs["egress"] == pytest.approx(50_000 * 0.09)
    # What signing commits depends on the contract's words: computed once, by the money.
    assert "minimum_commitment_usd" not in extra and "commitment_shortfall" not in costs
    commit = estimate_offer(offer, workload, {"cost_basis": "commitment"}, accelerator=H100)
    assert commit.total_cost_usd == pytest.approx(est.total_cost_usd)
    for quote, full in ((offer, 1e6), (offer.model_copy(update={"min_commit_usd": 0.0}),
                                        12 * (1024 * 730 * 2.5 + 100 * 2000 + 30_000))):
        # a stated floor is the commitment as worded; without one, the term's fees
        money = estimate_with_money(Offer(id="o", source={"file": "o.yaml"}, fields=quote),
                                    workload)
        extra = money.model_extra or {}
        assert extra["full_commitment_usd"] == pytest.approx(full, rel=1e-5)
        assert extra["minimum_commitment_usd"] == extra["full_commitment_usd"]


def test_purchase_buy_vs_rent_break_even() -> None:
    # 128 nodes, capex $300M over 60 months, 10 kW/node at $0.10/kWh, $200k/month opex
    offer = ib_cluster(offer_kind="purchase", price_usd_per_gpu_hour=None, capex_usd=300e6,
                       amortization_months=60, power_kw_per_node=10, power_usd_per_kwh=0.10,
                       opex_usd_per_month=200_000)
    est = estimate_offer(offer, LLAMA2_70B, accelerator=H100)
    bvr = (est.model_extra or {})["buy_vs_rent"]
    owning = 300e6 / 60 + 10 * 128 * 730 * 0.10 + 200_000
    per_gpu_hour = owning / (1024 * 730)
    assert bvr["owning_usd_per_month"] == pytest.approx(owning, rel=1e-5)
    assert est.effective_usd_per_gpu_hour == pytest.approx(per_gpu_hour, rel=1e-4)

    reference = public_price_reference(offer.accelerator or "")
    assert reference is not None  # the shipped public on-demand median is the default rent
    rent = reference.median_usd_per_gpu_hour
    assert bvr["reference_rent_usd_per_gpu_hour"] == pytest.approx(rent)
    assert bvr["break_even_utilisation"] == pytest.approx(per_gpu_hour / rent, rel=1e-4)
    assert 0 < bvr["book_value_after_run_usd"] < 300e6


def test_inference_replicas_and_cost_per_million_output_tokens() -> None:
    workload = Workload(name="serve", kind="inference", params_b=70, n_layers=80, d_model=8192,
                        serving=ServingTarget(requests_per_s=20, prompt_tokens=1000,
                                              output_tokens=300))
    est = estimate_offer(ib_cluster(gpu_count=64, node_count=8), workload, accelerator=H100)
    extra = est.model_extra or {}
    assert est.min_gpus_required == 3 and est.fits is True
    inf = extra["inference"]
    assert inf["replica_gpus"] == 4
    needed = 6000 / extra["decode_tokens_per_s_per_gpu"] + 20_000 / extra[
        "prefill_tokens_per_s_per_gpu"]
    assert extra["replicas_needed"] == math.ceil(needed / 4 - 1e-9)
    # Replicas of 4 GPUs are billed by the 8-GPU node: capacity is rented whole nodes.
    gpus = math.ceil(extra["replicas_needed"] * 4 / 8) * 8
    assert est.gpus_used == gpus
    assert extra["usd_per_million_output_tokens"] == pytest.approx(
        2.50 * gpus / (6000 * 3600) * 1e6, rel=1e-4)


def test_estimate_many_gives_the_same_numbers() -> None:
    offers = [ib_cluster(), shared_ethernet(), ib_cluster(gpu_count=8, node_count=1)]
    workloads = [LLAMA2_70B, Workload(name="8b", params_b=8, tokens_b=1000)]
    pairs = [(o, w) for o in offers for w in workloads]
    many = estimate_many(pairs)
    for (offer, workload), numbers in zip(pairs, many, strict=True):
        single = estimate_offer(offer, workload).model_dump(mode="json")
        single.pop("explain")
        assert single == round_numbers(numbers)


def test_tensor_parallel_stays_inside_the_node() -> None:
    # 4-GPU A100 nodes on a slow shared network (the HPC-centre sample): TP <= 4, and the
    # network loss is large and stated.
    offer = OfferFields(accelerator="A100-SXM-80GB", gpu_count=256, gpus_per_node=4,
                        inter_node_fabric="ethernet", inter_node_gbit_s_per_node=100,
                        network_dedicated=False, storage_type="nfs", storage_write_gbyte_s=2,
                        price_usd_per_gpu_hour=6.70)
    est = estimate_offer(offer, LLAMA2_70B, accelerator=A100_80)
    extra = est.model_extra or {}
    assert extra["parallel_layout"]["tp"] <= 4
    assert extra["mfu_breakdown"]["network_loss"] > 0.05
    assert extra["required_inter_node_gbit_s_per_gpu"] > extra[
        "offered_inter_node_gbit_s_per_gpu"] == 25


def test_fine_tuning_and_inference_without_target_are_estimated() -> None:
    tune = Workload(name="ft", kind="fine-tuning", params_b=13, tokens_b=5)
    est = estimate_offer(ib_cluster(gpu_count=64, node_count=8), tune, accelerator=H100)
    assert est.fits is True and est.time_to_train_days is not None
    assert any("global batch not given" in s for s in est.explain["assumed"])
    serve = Workload(name="serve", kind="inference", params_b=8)
    est = estimate_offer(ib_cluster(gpu_count=16, node_count=2), serve, accelerator=H100)
    extra = est.model_extra or {}
    # 8B fits one GPU; with no target the replicas of the shape with the most tokens per
    # GPU fill the offer.
    inf = extra["inference"]
    assert est.gpus_used == 16 and extra["replicas_needed"] * inf["replica_gpus"] == 16
    best = max(s["tokens_per_s_per_gpu"] for s in inf["shapes_considered"])
    assert extra["decode_tokens_per_s_per_gpu"] == best
    assert extra["usd_per_million_output_tokens"] > 0
    assert est.time_to_train_days is None


# ------------------------------------------------------------------ calibration (issue 11.8) ---

def deepseek_v3_cluster() -> OfferFields:
    """DeepSeek-V3's pretraining cluster: 2048 H800 (NVLink 400 GB/s, 8 x 400 Gbit/s IB)."""
    return OfferFields(
        vendor="DeepSeek", accelerator="H800", gpu_count=2048, gpus_per_node=8, node_count=256,
        intra_node_gbyte_s_per_gpu=400, inter_node_fabric="infiniband",
        inter_node_gbit_s_per_gpu=400, network_dedicated=True, storage_type="other",
        storage_write_gbyte_s=1000, price_usd_per_gpu_hour=2.0, hw_replacement_hours=24,
    )


DEEPSEEK_V3 = Workload(name="DeepSeek-V3", params_b=671, active_params_b=37, tokens_b=14_800,
                       precision="fp8", seq_len=4096, n_layers=61, d_model=7168,
                       global_batch_tokens=15_360 * 4096)


def test_moe_fp8_run_lands_within_25_percent_of_deepseek_v3_published_gpu_hours() -> None:
    # DeepSeek-V3 technical report (arXiv 2412.19437), Table 1: 2.664M H800 GPU-hours of
    # pre-training for 14.8T tokens, 671B parameters with 37B active, FP8 mixed precision.
    est = estimate_offer(deepseek_v3_cluster(), DEEPSEEK_V3)
    extra = est.model_extra or {}
    assert extra["gpu_hours"] == pytest.approx(2.664e6, rel=0.25)
    # and the published MFU (6 x 37e9 x 14.8e12 / 2.664e6 h / 1979 TFLOPS = 17.3% of the FP8
    # peak) lies inside the stated range
    published = 6 * 37e9 * 14.8e12 / (2.664e6 * 3600) / 1979e12
    assert extra["mfu_low"] <= published <= extra["mfu_high"]
    assert extra["mfu_basis"] == "fp8 dense peak"


def test_fp8_speed_up_is_counted_once_for_moe() -> None:
    a = load_assumptions()
    est = estimate_offer(ib_cluster(), DEEPSEEK_V3, accelerator=H100)
    base = (est.model_extra or {})["mfu_breakdown"]["base"]
    once = 0.709 * a["software_efficiency"]["value"] * a["fp8_software_factor"]["value"] * a[
        "moe_fp8_software_factor"]["value"]
    assert base == pytest.approx(once, rel=1e-5)
    # the BF16 MoE penalty is not applied on top
    assert base < 0.709 * 0.60 * 0.83 * a["moe_software_factor"]["value"]


def test_mfu_is_a_range_wider_where_the_evidence_is_thin() -> None:
    def spread(accelerator: str) -> float:
        est = estimate_offer(ib_cluster(accelerator=accelerator, gpu_memory_gb=None), LLAMA2_70B)
        extra = est.model_extra or {}
        assert extra["mfu_low"] < est.mfu < extra["mfu_high"]  # type: ignore[operator]
        assert extra["mfu_basis"] == "bf16 dense peak"
        return float(extra["mfu_high"] / extra["mfu_low"])

    assert spread("MI300X") > spread("H100-SXM")
    assert spread("Trainium2") > spread("H100-SXM")


def test_per_family_efficiency_follows_published_results() -> None:
    def mfu(accelerator: str) -> float:
        est = estimate_offer(ib_cluster(accelerator=accelerator, gpu_memory_gb=None), LLAMA2_70B)
        assert est.mfu is not None
        return est.mfu

    # TPU v5p: MaxText publishes 52-71% MFU (AI-Hypercomputer/maxtext configs/v5p/README.md)
    assert 0.45 <= mfu("TPU-v5p") <= 0.71
    # Blackwell: lower MFU than Hopper with the same software (faster chip)
    assert mfu("B200") < mfu("H100-SXM")
    # Gaudi2's 97% best-shape matmul ratio is not taken at face value
    assert mfu("Gaudi2") < 0.969 * 0.60


# ---------------------------------------------------------------- inference (issue 11.5) ---

LLAMA3_70B_SERVE = Workload(
    name="serve-70b", kind="inference", params_b=70, n_layers=80, d_model=8192, n_heads=64,
    n_kv_heads=8, head_dim=128,
    serving=ServingTarget(tokens_per_s=60_000, prompt_tokens=1000, output_tokens=300),
)


def serving_offer(gpus: int, accelerator: str = "H100-SXM") -> OfferFields:
    return OfferFields(vendor="Serve", accelerator=accelerator, gpu_count=gpus, gpus_per_node=8,
                       node_count=max(1, gpus // 8), price_usd_per_gpu_hour=2.5)


def test_decode_batch_is_the_largest_the_kv_cache_and_latency_allow() -> None:
    est = estimate_offer(serving_offer(256), LLAMA3_70B_SERVE)
    inf = (est.model_extra or {})["inference"]
    assert inf["decode_ms_per_token"] <= 40.0 + 1e-6  # default target: MLPerf interactive TPOT
    for shape in inf["shapes_considered"]:
        assert shape["batch_limited_by"] in {"kv_cache", "latency", "engine_cap"}
    # a tighter latency target can only shrink the batch and the throughput per GPU
    tight = LLAMA3_70B_SERVE.model_copy(update={"serving": LLAMA3_70B_SERVE.serving.model_copy(
        update={"max_latency_ms_per_token": 20})})  # type: ignore[union-attr]
    tight_inf = (estimate_offer(serving_offer(256), tight).model_extra or {})["inference"]
    assert tight_inf["decode_ms_per_token"] <= 20.0 + 1e-6
    assert tight_inf["decode_tokens_per_s_per_gpu"] < inf["decode_tokens_per_s_per_gpu"]


def test_more_kv_heads_mean_a_bigger_cache_and_fewer_sequences() -> None:
    mha = LLAMA3_70B_SERVE.model_copy(update={"n_kv_heads": 64})
    gqa_inf = (estimate_offer(serving_offer(256), LLAMA3_70B_SERVE).model_extra or {})[
        "inference"]
    mha_inf = (estimate_offer(serving_offer(256), mha).model_extra or {})["inference"]
    assert mha_inf["kv_bytes_per_token"] == pytest.approx(8 * gqa_inf["kv_bytes_per_token"])
    assert mha_inf["decode_tokens_per_s_per_gpu"] < gqa_inf["decode_tokens_per_s_per_gpu"]


def test_the_chosen_shape_needs_the_fewest_gpus_for_the_target() -> None:
    est = estimate_offer(serving_offer(256), LLAMA3_70B_SERVE)
    extra = est.model_extra or {}
    inf = extra["inference"]
    need = [s["gpus_for_target"] for s in inf["shapes_considered"]
            if s["ms_per_token"] <= 40.0 + 1e-6]
    assert extra["required_gpus"] == min(need)
    assert est.gpus_used == extra["required_gpus"] and extra["meets_throughput"] is True


def test_an_offer_too_small_for_the_target_fails_meets_throughput() -> None:
    big = estimate_offer(serving_offer(256), LLAMA3_70B_SERVE)
    required = (big.model_extra or {})["required_gpus"]
    small_gpus = (required // 8 - 1) * 8  # one node short
    small = estimate_offer(serving_offer(small_gpus), LLAMA3_70B_SERVE)
    extra = small.model_extra or {}
    assert extra["meets_throughput"] is False and extra["required_gpus"] == required
    assert extra["serving_capacity_tokens_per_s"] < 60_000
    assert small.gpus_used == small_gpus  # it can only use what it offers
    assert "needs" in small.explain["gpus_used"]["sources"][0]


def test_no_serving_target_means_no_throughput_gate() -> None:
    serve = Workload(name="serve", kind="inference", params_b=8)
    extra = estimate_offer(serving_offer(16), serve).model_extra or {}
    assert extra["meets_throughput"] is None and extra["required_gpus"] is None
    assert extra["serving_capacity_tokens_per_s"] > 0


def test_time_per_output_token_is_the_industry_name_of_the_latency_target() -> None:
    tpot = ServingTarget.model_validate({"tokens_per_s": 1000, "max_time_per_output_token_ms": 25})
    assert tpot.max_latency_ms_per_token == 25
    serve = LLAMA3_70B_SERVE.model_copy(update={"serving": tpot})
    inf = (estimate_offer(serving_offer(64), serve).model_extra or {})["inference"]
    assert inf["latency_target_ms_per_token"] == 25 and inf["decode_ms_per_token"] <= 25 + 1e-6


def test_time_to_first_token_excludes_shapes_too_slow_to_prefill_a_prompt() -> None:
    long_prompts = ServingTarget(tokens_per_s=2000, prompt_tokens=8_000, output_tokens=500)
    serve = LLAMA3_70B_SERVE.model_copy(update={"serving": long_prompts, "seq_len": 8_192})
    free = (estimate_offer(serving_offer(64), serve).model_extra or {})["inference"]
    tight = serve.model_copy(update={"serving": long_prompts.model_copy(
        update={"max_time_to_first_token_ms": 500})})
    inf = (estimate_offer(serving_offer(64), tight).model_extra or {})["inference"]
    # an 8k-token prompt of a 70B model takes ~0.65 s to prefill on four H100s, ~0.33 s on
    # eight: a 500 ms target rules the four-GPU replica out
    assert free["replica_gpus"] == 4 and free["time_to_first_token_ms"] > 500
    assert inf["replica_gpus"] == 8
    assert inf["time_to_first_token_ms"] <= 500 and inf["meets_latency"] is True
    impossible = serve.model_copy(update={"serving": long_prompts.model_copy(
        update={"max_time_to_first_token_ms": 10})})
    worst = (estimate_offer(serving_offer(64), impossible).model_extra or {})["inference"]
    assert worst["meets_latency"] is False


def test_a_serving_duration_sets_the_run_a_reservation_bills_as_a_block() -> None:
    six = LLAMA3_70B_SERVE.model_copy(update={"serving": LLAMA3_70B_SERVE.serving.model_copy(
        update={"duration_months": 6})})  # type: ignore[union-attr]
    on_demand = estimate_offer(serving_offer(256), six)
    required = (on_demand.model_extra or {})["required_gpus"]
    # on demand: the GPUs the target needs, for the six months the service runs
    assert on_demand.total_cost_usd == pytest.approx(required * 2.5 * 730 * 6)
    # a 12-month reservation of 256 GPUs: the service holds the whole block for six months
    reserved = estimate_offer(serving_offer(256).model_copy(update={"term_months": 12}), six)
    assert reserved.gpus_used == 256
    assert reserved.total_cost_usd == pytest.approx(256 * 2.5 * 730 * 6)
    assert (reserved.model_extra or {})["gpu_hours"] == pytest.approx(256 * 730 * 6)


# ------------------------------------------------------ time a buyer can count on (11.6) ---

def test_spot_capacity_stretches_time_but_bills_only_running_hours() -> None:
    on_demand = estimate_offer(ib_cluster(hw_replacement_hours=24), LLAMA2_70B,
                               accelerator=H100)
    spot = estimate_offer(ib_cluster(preemptible=True, availability_pct=80), LLAMA2_70B,
                          accelerator=H100)
    od, sp = on_demand.model_extra or {}, spot.model_extra or {}
    parts = sp["time_to_train_breakdown_days"]
    assert parts["spot_unavailable"] == pytest.approx(parts["running"] * 0.25, rel=1e-4)
    assert spot.time_to_train_days == pytest.approx(parts["running"] / 0.8, rel=1e-4)
    assert sp["gpu_hours"] == pytest.approx(parts["running"] * 24 * 1024, rel=1e-4)
    assert sp["mfu_breakdown"]["preemption_loss"] > 0  # each preemption is a restart
    assert spot.mfu < on_demand.mfu  # type: ignore[operator]
    assert sp["days_to_trained_model"] > od["days_to_trained_model"]
    assert any("preemption rate" in s for s in spot.explain["assumed"])


def test_spot_without_a_stated_availability_uses_the_cited_default() -> None:
    spot = estimate_offer(ib_cluster(preemptible=True, preemptions_per_node_day=0.01),
                          LLAMA2_70B, accelerator=H100)
    default = load_assumptions()["spot_availability_fraction"]
    parts = (spot.model_extra or {})["time_to_train_breakdown_days"]
    assert spot.time_to_train_days == pytest.approx(parts["running"] / default["value"], rel=1e-4)
    assert any("spot_availability_fraction" in s
               for s in spot.explain["time_to_train_days"]["sources"])
    # the stated preemption rate is explained as the offer's, not the default's
    checkpoint = spot.explain["checkpoint"]
    assert checkpoint["inputs"]["preemptions_per_node_day"] == 0.01
    assert not any("spot_preemptions_per_node_day" in s for s in checkpoint["sources"])


def test_a_hedged_delivery_date_carries_its_slip_into_the_deadline_and_delay() -> None:
    start = dt.date(2026, 1, 1)
    wl = LLAMA2_70B.model_copy(update={"start_date": start})
    firm = estimate_offer(ib_cluster(delivery_date=dt.date(2026, 1, 11),
                                     delivery_date_committed=True), wl, accelerator=H100)
    hedged = estimate_offer(ib_cluster(delivery_date=dt.date(2026, 1, 11),
                                       delivery_date_committed=False), wl, accelerator=H100)
    slip = load_assumptions()["hedged_delivery_slip_days"]["value"]
    f, h = firm.model_extra or {}, hedged.model_extra or {}
    assert f["delivery_slip_days"] == 0.0 and h["delivery_slip_days"] == slip
    assert h["days_to_trained_model"] == pytest.approx(f["days_to_trained_model"] + slip,
                                                       rel=1e-5)
    assert h["cost_of_delay_usd"] - f["cost_of_delay_usd"] == pytest.approx(40_000 * slip,
                                                                             rel=1e-4)


HEDGED_CONTRACT = (
    "2. Delivery. Pinecrest will use commercially reasonable efforts to make the Cluster "
    'available to Customer on or about 11 January 2026 (the "Target Delivery Date"). The '
    "Target Delivery Date is an estimate only.")
FIRM_CONTRACT = (
    "2. Delivery. Corvid shall hand over the Reserved Capacity no later than 11 January 2026 "
    '(the "Delivery Date"). For each day of delay Corvid shall credit one day of fees.')


def test_the_contract_says_whether_a_delivery_date_is_committed_when_the_offer_does_not() -> None:
    wl = LLAMA2_70B.model_copy(update={"start_date": dt.date(2026, 1, 1)})
    slip = load_assumptions()["hedged_delivery_slip_days"]["value"]

    def slip_days(contract: str, **fields: object) -> float:
        offer = Offer(id="o", source={"file": "o.yaml"}, fields=ib_cluster(**fields))
        offer = with_contract_facts(offer, extract_terms(contract))
        est = estimate_offer(offer.fields, wl, accelerator=H100)
        return float((est.model_extra or {})["delivery_slip_days"])

    assert slip_days(HEDGED_CONTRACT) == slip  # the date itself comes from the contract
    assert slip_days(FIRM_CONTRACT) == 0.0
    # the quote's own statement is kept
    assert slip_days(HEDGED_CONTRACT, delivery_date=dt.date(2026, 1, 11),
                     delivery_date_committed=True) == 0.0
    offer = with_contract_facts(Offer(id="o", source={"file": "o.yaml"}, fields=ib_cluster()),
                                extract_terms(HEDGED_CONTRACT))
    assert offer.fields.delivery_date == dt.date(2026, 1, 11)
    assert "commercially reasonable efforts" in (
        offer.provenance["delivery_date_committed"].raw or "")


REALLOCATION = ("4. Capacity management. Cobalt may, at its sole discretion and on twenty-four "
                "(24) hours' notice, reallocate, pre-empt or substitute any portion of the "
                "Reserved Capacity to meet the needs of other customers.")
BARRED = ("2. Dedicated capacity. Granite shall not reallocate, pre-empt or substitute them "
          "without Customer's prior written consent.")
SPOT_POOL = ("1.1 Spot Capacity means preemptible H100 instances. 2.3 For information only: the "
             "median number of GPUs concurrently available to a single customer was 448.")


@pytest.mark.parametrize(("contract", "preemptible", "availability_pct"), [
    (REALLOCATION, True, None), (BARRED, None, None), (SPOT_POOL, True, 100.0 * 448 / 1024)])
def test_capacity_the_vendor_may_take_back_is_timed_as_preemptible(
        contract: str, preemptible: bool | None, availability_pct: float | None) -> None:
    fields = ib_cluster(gpu_count=1024, contract_text=contract)
    offer = with_contract_facts(Offer(id="o", source={"file": "o.yaml"}, fields=fields),
                                extract_terms(contract))
    assert offer.fields.preemptible is preemptible
    assert offer.fields.availability_pct == (
        None if availability_pct is None else pytest.approx(availability_pct))
    if preemptible:
        assert offer.provenance["preemptible"].raw
        taken = estimate_offer(offer.fields, LLAMA2_70B, accelerator=H100)
        kept = estimate_offer(fields, LLAMA2_70B, accelerator=H100)
        assert (taken.time_to_train_days or 0.0) > (kept.time_to_train_days or 0.0)


def test_slow_hardware_replacement_costs_time_unless_spare_nodes_cover_it() -> None:
    fast = estimate_offer(ib_cluster(hw_replacement_hours=4), LLAMA2_70B, accelerator=H100)
    slow = estimate_offer(ib_cluster(hw_replacement_hours=168), LLAMA2_70B, accelerator=H100)
    f, s = fast.model_extra or {}, slow.model_extra or {}
    assert s["time_to_train_breakdown_days"]["replacement_wait"] > f[
        "time_to_train_breakdown_days"]["replacement_wait"] > 0
    assert slow.total_cost_usd > fast.total_cost_usd  # type: ignore[operator]
    # planning 1008 of 1024 GPUs leaves two spare nodes: enough to cover the expected failures
    spare = estimate_offer(ib_cluster(hw_replacement_hours=24),
                           LLAMA2_70B.model_copy(update={"gpus_wanted": 1008}),
                           accelerator=H100)
    assert (spare.model_extra or {})["time_to_train_breakdown_days"]["replacement_wait"] == 0


# ---------------------------------------------------------- public citations (issue 13.5) ---

INTERNAL_NAMES = ("seed 0", "seeds/", "mfu-specs", "PRODUCT.md", "shared/research",
                  "shared/seeds")


def test_packaged_estimate_data_cites_only_public_sources() -> None:
    data = Path(__file__).resolve().parents[1] / "evaltool" / "data"
    for name in ("assumptions.yaml", "accelerators.yaml", "public_prices.csv",
                 "public_prices.md"):
        text = (data / name).read_text(encoding="utf-8").lower()
        for internal in INTERNAL_NAMES:
            assert internal.lower() not in text, f"{name} names {internal!r}"


def test_every_assumption_cites_a_public_source() -> None:
    for name, entry in load_assumptions().items():
        source = str(entry["source"])
        assert len(source) > 20, name
        assert any(mark in source.lower() for mark in (
            "arxiv", "http", ".com", ".org", "github", "judgement", "derived", "datasheet",
            "spec", "paper", "bekman", "et al.", "llama", "the spread", "ratio", "vllm",
            "mlperf", "aws", "nvidia", "pcie", "bf16", "empty by default")), name


def test_estimates_and_their_explanations_name_no_internal_document() -> None:
    for offer, workload in ((ib_cluster(), LLAMA2_70B), (serving_offer(64), LLAMA3_70B_SERVE),
                            (deepseek_v3_cluster(), DEEPSEEK_V3)):
        text = json.dumps(estimate_offer(offer, workload).model_dump(mode="json")).lower()
        for internal in INTERNAL_NAMES:
            assert internal.lower() not in text, internal


def test_storage_neither_quoted_nor_priced_is_said_to_be_unknown_not_free() -> None:
    silent = estimate_offer(ib_cluster(storage_capacity_tb=None, storage_usd_per_tb_month=None),
                            LLAMA2_70B, accelerator=H100)
    included = estimate_offer(ib_cluster(storage_capacity_tb=500, storage_usd_per_tb_month=0),
                              LLAMA2_70B, accelerator=H100)
    said = [a for a in silent.explain.get("assumed", []) if "storage" in a]
    assert said and "unknown, not free" in said[0]
    assert not [a for a in included.explain.get("assumed", []) if "storage not" in a]
