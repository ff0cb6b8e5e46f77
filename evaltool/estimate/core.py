"""MFU-adjusted time and cost of one workload on one offer.

The data's path: offer + workload + assumptions -> plain views (floats) -> FLOPs -> fit ->
parallel layout (TP inside the NVLink domain, PP / DP / FSDP across nodes) -> step time
with pipeline, tensor-parallel, recompute and inter-node losses -> checkpoint and failure
losses (Young/Daly) -> MFU -> time -> money. Every formula is in `formulas.py` or named
here with its source (shared/research/mfu-specs.md §2, §4; seed 001).

The hot path is pure float math on slotted dataclasses: no pint, pandas or pydantic per
pair, so `estimate_many` handles 10,000 pairs well under a second (benchmarks/estimate.py).
The pydantic `Estimates` and its `explain` are built once per pair, at the end.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from evaltool.errors import EvaltoolError
from evaltool.estimate import formulas as fm
from evaltool.estimate.assumptions import assumption_values
from evaltool.models import Estimates, OfferFields, Workload

SECONDS_PER_HOUR = 3600.0
_int = math.floor  # rounding fast path (after a range check: floor(inf) raises)


# ----------------------------------------------------------------------------- inputs ---


@dataclass(frozen=True, slots=True)
class AcceleratorSpec:
    """What the estimate needs from the accelerator catalog (evaltool.estimate.catalog)."""

    id: str
    dense_tflops: Mapping[str, float]
    matmul_efficiency: Mapping[str, float] = field(default_factory=dict)
    memory_gb: float | None = None
    memory_bandwidth_tbyte_s: float | None = None
    intra_node_gbyte_s: float | None = None  # bidirectional, per GPU
    scale_up_domain_gpus: int | None = None

    @classmethod
    def from_catalog_entry(cls, entry: Any) -> AcceleratorSpec:
        """Adapt a catalog entry (any object with the catalog's attribute names)."""
        return cls(
            id=str(getattr(entry, "id", "") or ""),
            dense_tflops=dict(getattr(entry, "dense_tflops", {}) or {}),
            matmul_efficiency={
                str(k): float(getattr(x, "value", x))
                for k, x in (getattr(entry, "matmul_efficiency", {}) or {}).items()
            },
            memory_gb=getattr(entry, "memory_gb", None),
            memory_bandwidth_tbyte_s=getattr(entry, "memory_bandwidth_tbyte_s", None),
            intra_node_gbyte_s=getattr(entry, "intra_node_gbyte_s", None),
            scale_up_domain_gpus=getattr(entry, "scale_up_domain_gpus", None),
        )


_CATALOG_CACHE: dict[str, AcceleratorSpec | None] = {}


def lookup_accelerator(accelerator_id: str | None) -> AcceleratorSpec | None:
    """The catalog entry for an id, or None when the id or the catalog is unknown."""
    if not accelerator_id:
        return None
    if accelerator_id in _CATALOG_CACHE:
        return _CATALOG_CACHE[accelerator_id]
    spec: AcceleratorSpec | None = None
    try:
        from evaltool.estimate.catalog import load_catalog

        entry = load_catalog().get(accelerator_id)
    except (ImportError, KeyError, LookupError, EvaltoolError):
        entry = None
    if entry is not None:
        spec = AcceleratorSpec.from_catalog_entry(entry)
        if not spec.id:
            spec = AcceleratorSpec(accelerator_id, spec.dense_tflops, spec.matmul_efficiency,
                                   spec.memory_gb, spec.memory_bandwidth_tbyte_s,
                                   spec.intra_node_gbyte_s, spec.scale_up_domain_gpus)
    _CATALOG_CACHE[accelerator_id] = spec
    return spec


@dataclass(slots=True)
class Params:
    """Assumption values as plain attributes (resolved once per assumptions mapping)."""

    values: dict[str, Any]
    training_bytes_per_param: float
    activation_memory_factor: float
    inference_bytes_per_param: dict[str, float]
    d_model_per_layer: float
    d_model_multiple: int
    kv_dim: int
    software_efficiency: float
    fp8_software_factor: float
    moe_software_factor: float
    matmul_efficiency_fallback: float
    recompute: str
    gpu_memory_usable_fraction: float
    activation_bytes: float
    fabric_efficiency: dict[str, float]
    shared_network_factor: float
    unknown_dedication_factor: float
    missing_inter_node_gbit_s_per_gpu: float
    overlap: float
    exposed_fraction: float
    grad_bytes: float
    nvlink_efficiency: float
    tp_overlap: float
    missing_intra_node_gbyte_s: float
    interleave: float
    micro_batch: int
    default_global_batch_tokens: float
    default_gpus_per_node: int
    checkpoint_bytes_per_param: float
    checkpoint_write_by_storage: dict[str, float]
    missing_checkpoint_write: float
    failures_per_gpu_day: float
    restart_s: float
    storage_usable_fraction: float
    dataset_bytes_per_token: float
    checkpoints_kept: float
    hbm_efficiency: float
    prefill_mfu: float
    decode_batch_size: int
    inference_context_tokens: int
    hours_per_month: float
    cost_basis: str
    upfront_credited: bool
    reference_rent: dict[str, float]


def resolve_params(overrides: Mapping[str, Any] | None = None) -> Params:
    v = assumption_values(overrides)
    return Params(
        values=v,
        training_bytes_per_param=float(v["training_bytes_per_param"]),
        activation_memory_factor=float(v["activation_memory_factor"]),
        inference_bytes_per_param={k: float(x) for k, x in v["inference_bytes_per_param"].items()},
        d_model_per_layer=float(v["d_model_per_layer"]),
        d_model_multiple=int(v["d_model_multiple"]),
        kv_dim=int(v["kv_dim"]),
        software_efficiency=float(v["software_efficiency"]),
        fp8_software_factor=float(v["fp8_software_factor"]),
        moe_software_factor=float(v["moe_software_factor"]),
        matmul_efficiency_fallback=float(v["matmul_efficiency_fallback"]),
        recompute=str(v["recompute"]),
        gpu_memory_usable_fraction=float(v["gpu_memory_usable_fraction"]),
        activation_bytes=float(v["activation_bytes_per_token_per_hidden"]),
        fabric_efficiency={k: float(x) for k, x in v["fabric_efficiency"].items()},
        shared_network_factor=float(v["shared_network_factor"]),
        unknown_dedication_factor=float(v["unknown_dedication_factor"]),
        missing_inter_node_gbit_s_per_gpu=float(v["missing_inter_node_gbit_s_per_gpu"]),
        overlap=float(v["overlap_window_fraction"]),
        exposed_fraction=float(v["exposed_comm_fraction"]),
        grad_bytes=float(v["gradient_reduce_bytes"]),
        nvlink_efficiency=float(v["nvlink_efficiency"]),
        tp_overlap=float(v["tensor_parallel_overlap"]),
        missing_intra_node_gbyte_s=float(v["missing_intra_node_gbyte_s"]),
        interleave=max(1.0, float(v["pipeline_interleave"])),
        micro_batch=max(1, int(v["micro_batch_sequences"])),
        default_global_batch_tokens=float(v["default_global_batch_tokens"]),
        default_gpus_per_node=max(1, int(v["default_gpus_per_node"])),
        checkpoint_bytes_per_param=float(v["checkpoint_bytes_per_param"]),
        checkpoint_write_by_storage={
            k: float(x) for k, x in v["checkpoint_write_gbyte_s_by_storage"].items()
        },
        missing_checkpoint_write=float(v["missing_checkpoint_write_gbyte_s"]),
        failures_per_gpu_day=float(v["failures_per_gpu_day"]),
        restart_s=float(v["restart_minutes"]) * 60.0,
        storage_usable_fraction=float(v["storage_usable_fraction"]),
        dataset_bytes_per_token=float(v["dataset_bytes_per_token"]),
        checkpoints_kept=float(v["checkpoints_kept"]),
        hbm_efficiency=float(v["hbm_efficiency"]),
        prefill_mfu=float(v["prefill_mfu"]),
        decode_batch_size=max(1, int(v["decode_batch_size"])),
        inference_context_tokens=max(1, int(v["inference_context_tokens"])),
        hours_per_month=float(v["hours_per_month"]),
        cost_basis=str(v["cost_basis"]),
        upfront_credited=bool(v["upfront_credited"]),
        reference_rent={k: float(x) for k, x in v["reference_rent_usd_per_gpu_hour"].items()},
    )


_DEFAULT_PARAMS: list[Params] = []


def default_params() -> Params:
    if not _DEFAULT_PARAMS:
        _DEFAULT_PARAMS.append(resolve_params(None))
    return _DEFAULT_PARAMS[0]


@dataclass(slots=True)
class WorkloadView:
    """The workload as floats, with the model shape settled."""

    name: str
    kind: str
    precision: str
    params: float  # total parameters
    active_params: float  # compute parameters (MoE active, else total)
    is_moe: bool
    tokens: float | None
    seq_len: int
    n_layers: int
    d_model: int
    shape_derived: bool
    global_batch_tokens: float
    batch_assumed: bool
    cost_of_delay_usd_per_day: float
    deadline_days: float | None
    start_date: dt.date | None
    storage_needed_tb: float | None
    egress_tb: float | None
    gpus_wanted: int | None
    software_efficiency: float | None
    serving: Any


def workload_view(w: Workload, p: Params) -> WorkloadView:
    params = w.params_b * 1e9
    active = (w.active_params_b or w.params_b) * 1e9
    derived = w.n_layers is None or w.d_model is None
    if derived:
        # MoE: attention layers are shared, so the shape follows the active parameters.
        layers, d_model = fm.derive_shape(active, p.d_model_per_layer, p.d_model_multiple)
        layers = w.n_layers or layers
        d_model = w.d_model or d_model
    else:
        layers, d_model = int(w.n_layers or 1), int(w.d_model or 1)
    return WorkloadView(
        name=w.name, kind=w.kind, precision=w.precision, params=params, active_params=active,
        is_moe=active < params, tokens=(w.tokens_b * 1e9) if w.tokens_b else None,
        seq_len=w.seq_len, n_layers=layers, d_model=d_model, shape_derived=derived,
        global_batch_tokens=float(w.global_batch_tokens or p.default_global_batch_tokens),
        batch_assumed=w.global_batch_tokens is None,
        cost_of_delay_usd_per_day=w.cost_of_delay_usd_per_day, deadline_days=w.deadline_days,
        start_date=w.start_date, storage_needed_tb=w.storage_needed_tb, egress_tb=w.egress_tb,
        gpus_wanted=w.gpus_wanted,
        software_efficiency=w.software_efficiency, serving=w.serving,
    )


@dataclass(slots=True)
class OfferView:
    """The offer's numbers the model uses, with each fallback written down in `assumed`."""

    accelerator: str | None
    acc: AcceleratorSpec | None
    offer_kind: str | None
    gpu_count: int | None
    gpus_per_node: int
    nodes: int | None
    memory_gb: float | None
    peak_tflops: dict[str, float]
    matmul_efficiency: dict[str, float]
    hbm_tbyte_s: float | None
    intra_gbyte_s: float
    domain_gpus: int
    fabric: str | None
    inter_gbit_s_per_gpu: float
    network_factor: float  # fabric efficiency x tenancy
    fabric_efficiency: float
    tenancy_factor: float
    storage_type: str | None
    storage_capacity_tb: float | None
    write_gbyte_s: float
    price_usd_per_gpu_hour: float | None
    compute_price_usd_per_gpu_hour: float | None
    term_months: float | None
    upfront_usd: float
    egress_usd_per_gb: float | None
    storage_usd_per_tb_month: float | None
    support_usd_per_month: float
    network_usd_per_month: float
    min_commit_usd: float
    owning_usd_per_month: float | None
    capex_usd: float | None
    amortization_months: float | None
    delivery_date: dt.date | None
    assumed: list[str]


def offer_view(o: OfferFields, p: Params, acc: AcceleratorSpec | None = None) -> OfferView:
    assumed: list[str] = []
    if acc is None:
        acc = lookup_accelerator(o.accelerator)
    gpus_per_node = o.gpus_per_node
    if gpus_per_node is None and o.gpu_count and o.node_count:
        gpus_per_node = max(1, o.gpu_count // o.node_count)
    if gpus_per_node is None:
        domain = acc.scale_up_domain_gpus if acc else None
        gpus_per_node = min(domain, p.default_gpus_per_node) if domain else p.default_gpus_per_node
        assumed.append(f"GPUs per node not stated: assumed {gpus_per_node}.")
    gpu_count = o.gpu_count
    if gpu_count is None and o.node_count:
        gpu_count = o.node_count * gpus_per_node
    nodes = o.node_count or (math.ceil(gpu_count / gpus_per_node) if gpu_count else None)
    memory_gb = o.gpu_memory_gb or (acc.memory_gb if acc else None)

    peak: dict[str, float] = dict(acc.dense_tflops) if acc else {}
    if not peak and o.claimed_peak_tflops_per_gpu and o.claimed_peak_precision:
        peak = {o.claimed_peak_precision.lower(): o.claimed_peak_tflops_per_gpu}
        assumed.append(
            f"accelerator {o.accelerator!r} is not in the catalog: used the vendor's claimed "
            f"{o.claimed_peak_tflops_per_gpu:g} TFLOPS ({o.claimed_peak_precision}) as dense peak."
        )
    matmul = dict(acc.matmul_efficiency) if acc else {}

    intra = o.intra_node_gbyte_s_per_gpu or (acc.intra_node_gbyte_s if acc else None)
    if intra is None:
        intra = p.missing_intra_node_gbyte_s
        assumed.append(f"intra-node GPU link not stated: assumed {intra:g} GB/s per GPU (PCIe).")
    domain_gpus = gpus_per_node
    if acc and acc.scale_up_domain_gpus and acc.scale_up_domain_gpus > p.default_gpus_per_node:
        # NVL72 / TPU ICI / Trn2 UltraServer: the scale-up fabric spans hosts. An 8-GPU
        # HGX-class domain does not reach beyond its node.
        domain_gpus = max(gpus_per_node, acc.scale_up_domain_gpus)

    inter = o.inter_node_gbit_s_per_gpu
    if inter is None and o.inter_node_gbit_s_per_node:
        inter = o.inter_node_gbit_s_per_node / gpus_per_node
    if inter is None:
        inter = p.missing_inter_node_gbit_s_per_gpu
        assumed.append(f"inter-node bandwidth not stated: assumed {inter:g} Gbit/s per GPU.")
    fabric = o.inter_node_fabric
    if fabric is None:
        fabric_eff = p.fabric_efficiency.get("ethernet", 0.6)
        assumed.append(f"inter-node fabric not stated: assumed Ethernet efficiency {fabric_eff:g}.")
    else:
        fabric_eff = p.fabric_efficiency.get(fabric, p.fabric_efficiency.get("other", 0.6))
    if o.network_dedicated is True:
        tenancy = 1.0
    elif o.network_dedicated is False:
        tenancy = p.shared_network_factor
    else:
        tenancy = p.unknown_dedication_factor
        assumed.append("network tenancy not stated: assumed partly shared "
                       f"({tenancy:g} of a dedicated fabric).")

    if o.storage_write_gbyte_s:
        write = o.storage_write_gbyte_s
    elif o.storage_type and o.storage_type in p.checkpoint_write_by_storage:
        write = p.checkpoint_write_by_storage[o.storage_type]
        if o.storage_type == "local_nvme":
            write *= nodes or 1
        assumed.append(f"storage write speed not stated: assumed {write:g} GB/s aggregate "
                       f"for {o.storage_type}.")
    else:
        write = p.missing_checkpoint_write
        assumed.append(f"storage write speed not stated: assumed {write:g} GB/s (NFS-class).")

    owning: float | None = None
    if o.capex_usd is not None and o.amortization_months:
        owning = o.capex_usd / o.amortization_months + (o.opex_usd_per_month or 0.0)
        if o.power_kw_per_node and nodes:
            kw = o.power_kw_per_node * nodes
            if o.colocation_usd_per_kw_month is not None:
                owning += kw * o.colocation_usd_per_kw_month
            elif o.power_usd_per_kwh is not None:
                owning += kw * p.hours_per_month * o.power_usd_per_kwh
    price = o.price_usd_per_gpu_hour
    if price is None and owning is not None and gpu_count:
        price = owning / (gpu_count * p.hours_per_month)  # PRODUCT.md purchase formula

    return OfferView(
        accelerator=o.accelerator, acc=acc, offer_kind=o.offer_kind, gpu_count=gpu_count,
        gpus_per_node=gpus_per_node, nodes=nodes, memory_gb=memory_gb, peak_tflops=peak,
        matmul_efficiency=matmul,
        hbm_tbyte_s=acc.memory_bandwidth_tbyte_s if acc else None,
        intra_gbyte_s=intra, domain_gpus=domain_gpus, fabric=fabric,
        inter_gbit_s_per_gpu=inter, network_factor=fabric_eff * tenancy,
        fabric_efficiency=fabric_eff, tenancy_factor=tenancy,
        storage_type=o.storage_type, storage_capacity_tb=o.storage_capacity_tb,
        write_gbyte_s=write, price_usd_per_gpu_hour=price,
        compute_price_usd_per_gpu_hour=o.compute_price_usd_per_gpu_hour,
        term_months=o.term_months, upfront_usd=o.upfront_usd or 0.0,
        egress_usd_per_gb=o.egress_usd_per_gb, storage_usd_per_tb_month=o.storage_usd_per_tb_month,
        support_usd_per_month=o.support_usd_per_month or 0.0,
        network_usd_per_month=o.network_usd_per_month or 0.0,
        min_commit_usd=o.min_commit_usd or 0.0, owning_usd_per_month=owning,
        capex_usd=o.capex_usd, amortization_months=o.amortization_months,
        delivery_date=o.delivery_date, assumed=assumed,
    )


# ----------------------------------------------------------------------------- layout ---


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
        ratio = 16.0 * (tp - 1) * x.f_gpu / (72.0 * x.h * link)  # mfu-specs §4.6 step 6
        t_tp = (1.0 - x.tp_overlap) * ratio * t_work
    comm_bytes = 0.0
    dp_nodes = 1.0
    if used > x.g:
        local_dp = max(1, x.g // mp) if mp < x.g else 1
        dp_nodes = dp / local_dp
        if dp_nodes > 1.0:
            c = 3.0 if fsdp else 2.0  # ZeRO paper §7 / mfu-specs §4.3
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


def clear_caches() -> None:
    """Forget memoised layouts and catalog entries (benchmarks measure cold runs with it)."""
    _LAYOUT_CACHE.clear()
    _CATALOG_CACHE.clear()
    _SIG6.clear()


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


# ----------------------------------------------------------------------------- result ---


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
    days: float | None = None
    gpu_hours: float | None = None
    costs: dict[str, float] = field(default_factory=dict)
    total_cost: float | None = None
    commitment_usd: float | None = None
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


def _peak_and_ceiling(wv: WorkloadView, ov: OfferView, p: Params, r: Result) -> bool:
    peak = ov.peak_tflops.get(wv.precision)
    if peak is None:
        r.notes.append(f"no dense {wv.precision} peak for {ov.accelerator or 'this accelerator'}: "
                       "compute estimates are not possible.")
        return False
    r.peak_tflops = peak
    ceiling = ov.matmul_efficiency.get(wv.precision)
    if ceiling is None:
        ceiling = p.matmul_efficiency_fallback
        r.assumed.append(f"no measured {wv.precision} matmul ceiling for "
                         f"{ov.accelerator or 'this accelerator'}: assumed {ceiling:g} of peak.")
    r.matmul_efficiency = ceiling
    if wv.software_efficiency is not None:
        soft = wv.software_efficiency
    else:
        soft = p.software_efficiency
        if wv.precision == "fp8":
            soft *= p.fp8_software_factor
        if wv.is_moe:
            soft *= p.moe_software_factor
    r.software_efficiency = soft
    r.base_mfu = ceiling * soft
    return True


def _fit(wv: WorkloadView, ov: OfferView, p: Params, r: Result, inference: bool) -> None:
    if not ov.memory_gb:
        r.fit_reason = "GPU memory unknown: cannot check that the model fits."
        return
    bpp = (p.inference_bytes_per_param.get(wv.precision, 2.0) if inference
           else p.training_bytes_per_param)
    r.min_gpus_required = fm.min_gpus_by_memory(wv.params / 1e9, bpp,
                                                p.activation_memory_factor, ov.memory_gb)
    if ov.gpu_count is None:
        r.fit_reason = "GPU count unknown: cannot check that the model fits."
        return
    r.fits = ov.gpu_count >= r.min_gpus_required
    r.fit_reason = (
        f"{'fits' if r.fits else 'does not fit'}: needs at least {r.min_gpus_required} GPUs "
        f"of {ov.memory_gb:g} GB ({wv.params / 1e9:g}B params x {bpp:g} B x "
        f"{p.activation_memory_factor:g} / {ov.memory_gb:g} GB), offer has {ov.gpu_count}."
    )


def _gpus_used(wv: WorkloadView, ov: OfferView, r: Result) -> int | None:
    if ov.gpu_count is None:
        return None
    n = ov.gpu_count
    if wv.gpus_wanted is not None and wv.gpus_wanted < n:
        n = max(wv.gpus_wanted, r.min_gpus_required or 1)
        n = min(n, ov.gpu_count)
        r.gpus_note = (f"the offer has {ov.gpu_count} GPUs; the workload plans "
                       f"{wv.gpus_wanted}, so the run uses {n}.")
    else:
        r.gpus_note = f"the run uses all {n} GPUs of the offer."
    return n


def _training(wv: WorkloadView, ov: OfferView, p: Params, r: Result) -> None:
    _fit(wv, ov, p, r, inference=False)
    L, h, s = wv.n_layers, wv.d_model, wv.seq_len
    fpt = fm.palm_flops_per_token(wv.active_params, L, h, s)
    r.flops_per_token = fpt
    if wv.tokens is not None:
        r.total_flops = wv.tokens * fpt
    n = _gpus_used(wv, ov, r)
    r.gpus_used = n
    r.checkpoint_tb = p.checkpoint_bytes_per_param * wv.params / 1e12
    _storage_capacity(wv, ov, p, r)
    if n is None or not _peak_and_ceiling(wv, ov, p, r):
        return
    assert r.peak_tflops is not None and r.base_mfu is not None
    peak = r.peak_tflops * 1e12
    base = r.base_mfu
    lay = plan_layout(n, wv, ov, p, peak, base, fpt) if ov.memory_gb else None
    if lay is None:
        r.notes.append("no parallel layout holds the model in GPU memory: MFU is the base "
                       "ceiling without parallelism losses, an optimistic bound.")
        step_mfu = base
        recompute = p.recompute
        r.losses = {}
    else:
        r.layout = lay
        recompute = lay.recompute
        u = lay.gpus / n
        scale = base * u / lay.t_step
        r.losses = {
            "network_loss": scale * lay.t_exposed,
            "tensor_parallel_loss": scale * lay.t_tp,
            "pipeline_bubble_loss": scale * lay.t_bubble,
            "recompute_loss": scale * lay.t_recompute,
            "idle_gpu_loss": base * (1.0 - u),
        }
        step_mfu = scale * lay.t_compute
        if lay.comm_gbyte_per_gpu > 0.0:
            r.required_gbit_s_per_gpu = 8.0 * fm.required_gbyte_s(
                lay.comm_gbyte_per_gpu * 1e9, lay.t_window, ov.network_factor, p.overlap)
        else:
            r.required_gbit_s_per_gpu = 0.0
    fpt_hw = fm.hardware_flops_per_token(wv.active_params, L, h, s, recompute)
    r.hardware_flops_per_token = fpt_hw

    # Checkpoints and failures (mfu-specs §4.7): Young/Daly interval and what it costs.
    stall = r.checkpoint_tb * 1e12 / (ov.write_gbyte_s * 1e9)
    mtbf_s = fm.SECONDS_PER_DAY / (p.failures_per_gpu_day * n)
    tau, ck, fail = fm.checkpoint_overheads(stall, mtbf_s, p.restart_s)
    if ck + fail > 0.95:  # Young/Daly is invalid this far out; cap and say so
        scale_down = 0.95 / (ck + fail)
        ck, fail = ck * scale_down, fail * scale_down
        r.notes.append("checkpoint + failure overhead capped at 95%: the run cannot make progress.")
    r.stall_s, r.interval_s, r.mtbf_h = stall, tau, mtbf_s / SECONDS_PER_HOUR
    r.storage_frac, r.failure_frac = ck, fail
    r.losses["storage_loss"] = step_mfu * ck
    r.losses["failure_loss"] = step_mfu * fail
    r.mfu = step_mfu * (1.0 - ck - fail)
    r.hfu = r.mfu * fpt_hw / fpt
    r.tokens_per_s_per_gpu = peak * r.mfu / fpt
    if r.total_flops is not None and r.mfu > 0:
        r.days = r.total_flops / (n * peak * r.mfu) / fm.SECONDS_PER_DAY
        r.gpu_hours = n * r.days * 24.0
    _money(wv, ov, p, r)


def _storage_capacity(wv: WorkloadView, ov: OfferView, p: Params, r: Result) -> None:
    if wv.storage_needed_tb is not None:
        r.storage_needed_tb = wv.storage_needed_tb
    elif wv.tokens is not None and r.checkpoint_tb is not None:
        r.storage_needed_tb = (wv.tokens * p.dataset_bytes_per_token / 1e12
                               + p.checkpoints_kept * r.checkpoint_tb)
    if ov.storage_capacity_tb is not None:
        r.storage_usable_tb = ov.storage_capacity_tb * p.storage_usable_fraction


def _delivery_wait_days(wv: WorkloadView, ov: OfferView, r: Result) -> float | None:
    """Days between the workload's start date and the offer's delivery date (0 if earlier)."""
    if wv.start_date is None:
        return None
    if ov.delivery_date is None:
        r.assumed.append(
            "delivery date not stated: assumed ready on the start date "
            f"({wv.start_date.isoformat()})."
        )
        return None
    wait = max(0, (ov.delivery_date - wv.start_date).days)
    r.delivery_wait_days = float(wait)
    if wait:
        r.notes.append(
            f"delivery on {ov.delivery_date.isoformat()}: {wait} days after the start date "
            f"{wv.start_date.isoformat()}, counted in the cost of delay and the deadline."
        )
    return float(wait)


def _commitment(ov: OfferView, p: Params, price: float | None) -> float:
    """What signing commits the buyer to: the minimum spend, the whole block for the whole
    term, or for a purchase the capital outlay."""
    commitment = ov.min_commit_usd
    if ov.offer_kind == "purchase":
        return max(commitment, ov.capex_usd or 0.0)
    if price is not None and ov.term_months and ov.gpu_count:
        term_cost = ov.gpu_count * ov.term_months * p.hours_per_month * price
        commitment = max(commitment, term_cost)
    return commitment


def _money(wv: WorkloadView, ov: OfferView, p: Params, r: Result) -> None:
    n = r.gpus_used
    price = ov.price_usd_per_gpu_hour
    if r.days is not None and r.mfu:
        # Time has a price (seed 001): waiting for delivery delays the model as much as a
        # slower run, so both count in the cost of delay and against the deadline.
        wait = _delivery_wait_days(wv, ov, r)
        r.days_to_trained_model = r.days + (wait or 0.0)
        r.cost_of_delay = wv.cost_of_delay_usd_per_day * r.days_to_trained_model
        if wv.deadline_days is not None:
            r.deadline_met = r.days_to_trained_model <= wv.deadline_days
    if price is None or n is None or r.gpu_hours is None or r.days is None:
        if price is None:
            r.notes.append("no price per GPU-hour: costs cannot be computed.")
        return
    hours = r.days * 24.0
    months = hours / p.hours_per_month
    compute_price = ov.compute_price_usd_per_gpu_hour
    if compute_price is None:
        compute_price = price
    r.price_used = compute_price
    costs: dict[str, float] = {"compute": n * hours * compute_price}
    billed_tb = ov.storage_capacity_tb
    if billed_tb is None and r.storage_needed_tb is not None:
        billed_tb = r.storage_needed_tb / p.storage_usable_fraction
    costs["storage"] = (ov.storage_usd_per_tb_month or 0.0) * (billed_tb or 0.0) * months
    costs["support"] = ov.support_usd_per_month * months
    costs["network"] = ov.network_usd_per_month * months
    if wv.egress_tb and ov.egress_usd_per_gb is None:
        r.assumed.append("egress price not stated: egress counted as free.")
    costs["egress"] = (wv.egress_tb or 0.0) * 1000.0 * (ov.egress_usd_per_gb or 0.0)
    fees = costs["compute"] + costs["storage"] + costs["support"] + costs["network"]
    if ov.offer_kind == "purchase":
        costs["upfront"] = 0.0  # capex is already amortised into the GPU-hour price
    elif p.upfront_credited and p.cost_basis == "run":
        # A prepayment credited against usage is paid by this run's fees and later work;
        # it shows in the commitment, not in the cost of the run.
        costs["upfront"] = 0.0
    elif p.upfront_credited:
        costs["upfront"] = max(0.0, ov.upfront_usd - fees)  # only the part usage never uses
    else:
        costs["upfront"] = ov.upfront_usd
    run_total = sum(costs.values())
    commitment = _commitment(ov, p, price)
    r.commitment_usd = commitment
    shortfall = max(0.0, commitment - run_total)
    costs["commitment_shortfall"] = shortfall if p.cost_basis == "commitment" else 0.0
    r.costs = costs
    r.total_cost = sum(costs.values())
    r.effective_price = r.total_cost / r.gpu_hours if r.gpu_hours else None
    assert r.peak_tflops is not None and r.mfu is not None
    pflop_hours = r.gpu_hours * r.peak_tflops * r.mfu / 1000.0
    r.usd_per_pflop_hour = r.total_cost / pflop_hours if pflop_hours else None
    if wv.tokens:
        r.usd_per_m_tokens = r.total_cost / wv.tokens * 1e6
    r.economic_cost = r.total_cost + (r.cost_of_delay or 0.0)
    if ov.offer_kind == "purchase" or ov.owning_usd_per_month is not None:
        r.buy_vs_rent = buy_vs_rent(ov, p, months)


def buy_vs_rent(ov: OfferView, p: Params, run_months: float | None,
                rent_usd_per_gpu_hour: float | None = None) -> dict[str, Any]:
    """A purchase beside renting: owning cost, break-even utilisation, value kept after the run.

    Break-even utilisation = owning cost per GPU-hour / rental price: buying wins when the
    hardware is busy more than that share of the time (seed 001 'buy vs rent', PRODUCT.md).
    """
    out: dict[str, Any] = {}
    owning = ov.owning_usd_per_month
    if owning is None or not ov.gpu_count:
        return out
    own_per_gpu_hour = owning / (ov.gpu_count * p.hours_per_month)
    out["owning_usd_per_month"] = owning
    out["owning_usd_per_gpu_hour_at_full_use"] = own_per_gpu_hour
    rent = rent_usd_per_gpu_hour
    if rent is None and ov.accelerator:
        rent = p.reference_rent.get(ov.accelerator)
    if rent is None and ov.accelerator:
        from evaltool.estimate.catalog import public_price_reference

        reference = public_price_reference(ov.accelerator)
        rent = reference.median_usd_per_gpu_hour if reference else None
    if rent:
        out["reference_rent_usd_per_gpu_hour"] = rent
        out["break_even_utilisation"] = own_per_gpu_hour / rent
    if run_months is not None and ov.capex_usd is not None and ov.amortization_months:
        out["run_months"] = run_months
        out["cash_outlay_usd"] = ov.capex_usd + (owning - ov.capex_usd / ov.amortization_months
                                                 ) * run_months
        kept = max(0.0, 1.0 - run_months / ov.amortization_months)
        out["book_value_after_run_usd"] = ov.capex_usd * kept
    return out


def _inference(wv: WorkloadView, ov: OfferView, p: Params, r: Result) -> None:
    _fit(wv, ov, p, r, inference=True)
    if not _peak_and_ceiling(wv, ov, p, r) or not ov.memory_gb:
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
        r.commitment_usd = _commitment(ov, p, price)
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
        r.assumed.append(f"global batch not given: assumed {wv.global_batch_tokens:,.0f} tokens "
                         "per optimizer step.")
    if wv.kind == "inference":
        _inference(wv, ov, p, r)
    else:
        _training(wv, ov, p, r)
    return r


# ----------------------------------------------------------------------------- output ---


def sig(x: float | None, digits: int = 6) -> float | None:
    """Round to `digits` significant digits so the same inputs give the same JSON bytes."""
    if x is None:
        return None
    if not math.isfinite(x):
        return None
    if x == 0:
        return 0.0
    return float(f"{x:.{digits}g}")


_SIG6: dict[float, float] = {}  # memo: prices, peaks, sizes repeat across a batch


def _sig6_slow(v: float) -> float | None:
    if v - v != 0.0:  # inf or nan: not JSON
        return None
    # Whole numbers are already 6 significant digits (and v + 0.0 turns -0.0 into 0.0).
    out = v + 0.0 if -1e6 < v < 1e6 and v == _int(v) else float(f"{v:.6g}")
    if len(_SIG6) < 100_000:
        _SIG6[v] = out
    return out


def _rounded(obj: Any) -> Any:
    """Round every float in a JSON-like structure (bools and ints stay as they are).

    Runs ~40 times per estimate, the largest cost of `estimate_many`: a memo of rounded
    values and an inlined dict comprehension keep it cheap.
    """
    if type(obj) is dict:
        memo = _SIG6
        return {
            k: (memo[v] if v in memo else _sig6_slow(v)) if type(v) is float
            else (_rounded(v) if type(v) in (dict, list) else v)
            for k, v in obj.items()
        }
    if type(obj) is float:
        return sig(obj)
    if type(obj) in (list, tuple):
        return [_rounded(v) for v in obj]
    if isinstance(obj, Mapping):
        return _rounded(dict(obj))
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
        "days_to_trained_model": r.days_to_trained_model,
        "tokens_per_s_per_gpu": r.tokens_per_s_per_gpu, "gpu_hours": r.gpu_hours,
        "usd_per_effective_pflop_hour": r.usd_per_pflop_hour,
        "usd_per_million_tokens": r.usd_per_m_tokens, "cost_of_delay_usd": r.cost_of_delay,
        "cost_breakdown_usd": dict(r.costs) if r.costs else None,
        "minimum_commitment_usd": r.commitment_usd,
        "storage_needed_tb": r.storage_needed_tb, "storage_usable_tb": r.storage_usable_tb,
        "storage_fits": (r.storage_needed_tb <= r.storage_usable_tb
                         if r.storage_needed_tb is not None and r.storage_usable_tb is not None
                         else None),
        "peak_dense_tflops": r.peak_tflops, "precision": r.precision,
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
        d["inference"] = dict(inf)
    if r.buy_vs_rent:
        d["buy_vs_rent"] = r.buy_vs_rent
    return _rounded(d) if rounded else d


def round_numbers(numbers_dict: dict[str, Any]) -> dict[str, Any]:
    """Round every float to 6 significant digits, as `estimate_offer` reports them."""
    out = _rounded(numbers_dict)
    assert isinstance(out, dict)
    return out


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
    from evaltool.estimate.explain import build_explain

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
