"""The inputs of an estimate as plain floats: assumptions, workload and offer views.

offer + workload + assumptions -> `Params`, `WorkloadView`, `OfferView`: every fallback an
offer needs is written down in `OfferView.assumed`. Slotted dataclasses, no pint, pandas or
pydantic per pair, so `estimate_many` stays fast (benchmarks/estimate.py).
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from evaltool.catalog import load_catalog
from evaltool.errors import EvaltoolError
from evaltool.estimate import formulas as fm
from evaltool.estimate.assumptions import assumption_values
from evaltool.models import OfferFields, Workload


@dataclass(frozen=True, slots=True)
class AcceleratorSpec:
    """What the estimate needs from the accelerator catalog (evaltool.catalog)."""

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


CATALOG_CACHE: dict[str, AcceleratorSpec | None] = {}


def lookup_accelerator(accelerator_id: str | None) -> AcceleratorSpec | None:
    """The catalog entry for an id, or None when the id or the catalog is unknown."""
    if not accelerator_id:
        return None
    if accelerator_id in CATALOG_CACHE:
        return CATALOG_CACHE[accelerator_id]
    spec: AcceleratorSpec | None = None
    try:
        entry = load_catalog().get(accelerator_id)
    except (KeyError, LookupError, EvaltoolError):
        entry = None
    if entry is not None:
        spec = AcceleratorSpec.from_catalog_entry(entry)
        if not spec.id:
            spec = AcceleratorSpec(accelerator_id, spec.dense_tflops, spec.matmul_efficiency,
                                   spec.memory_gb, spec.memory_bandwidth_tbyte_s,
                                   spec.intra_node_gbyte_s, spec.scale_up_domain_gpus)
    CATALOG_CACHE[accelerator_id] = spec
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
    software_efficiency_low: float
    software_efficiency_high: float
    moe_software_factor: tuple[float, float, float]  # likely, low, high
    moe_fp8_software_factor: tuple[float, float, float]
    accelerator_factor: dict[str, tuple[float, float, float]]
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
    batch_law: tuple[float, float]  # (coefficient, exponent) of B = a C^b, tokens
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
    max_decode_batch: int
    serving_latency_ms: float
    kv_bytes: dict[str, float]
    inference_context_tokens: int
    hw_failure_share: float
    default_hw_replacement_h: float
    spot_preemptions_per_node_day: float
    spot_availability: float
    hedged_slip_days: float
    hours_per_month: float
    cost_basis: str
    upfront_credited: bool
    reference_rent: dict[str, float]


def _ranged(likely: Any, bounds: Mapping[str, Any]) -> tuple[float, float, float]:
    """(likely, low, high) from a value and its {low, high} range."""
    value = float(likely)
    return value, float(bounds.get("low", value)), float(bounds.get("high", value))


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
        software_efficiency_low=float(v["software_efficiency_range"]["low"]),
        software_efficiency_high=float(v["software_efficiency_range"]["high"]),
        moe_software_factor=_ranged(v["moe_software_factor"], v["moe_software_factor_range"]),
        moe_fp8_software_factor=_ranged(v["moe_fp8_software_factor"],
                                        v["moe_fp8_software_factor_range"]),
        accelerator_factor={
            str(k): _ranged(x["likely"], x) for k, x in v["accelerator_software_factor"].items()
        },
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
        batch_law=(float(v["batch_size_scaling"]["coefficient"]),
                   float(v["batch_size_scaling"]["exponent"])),
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
        max_decode_batch=max(1, int(v["max_decode_batch_sequences"])),
        serving_latency_ms=float(v["serving_max_latency_ms_per_token"]),
        kv_bytes={k: float(x) for k, x in v["kv_cache_bytes_per_element"].items()},
        hw_failure_share=float(v["hardware_failure_share"]),
        default_hw_replacement_h=float(v["default_hw_replacement_hours"]),
        spot_preemptions_per_node_day=float(v["spot_preemptions_per_node_day"]),
        spot_availability=min(1.0, max(0.01, float(v["spot_availability_fraction"]))),
        hedged_slip_days=float(v["hedged_delivery_slip_days"]),
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
    kv_heads_x_head_dim: int  # K (or V) elements per token per layer
    kv_shape_given: bool
    shape_derived: bool
    global_batch_tokens: float
    batch_assumed: bool
    batch_from_compute: bool  # assumed from the run's compute budget (batch_size_scaling)
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
    head_dim = w.head_dim or (d_model // w.n_heads if w.n_heads else None)
    kv_heads = w.n_kv_heads or w.n_heads
    kv_given = bool(head_dim and kv_heads)
    kv_elements = kv_heads * head_dim if kv_heads and head_dim else min(p.kv_dim, d_model)
    tokens = (w.tokens_b * 1e9) if w.tokens_b else None
    batch, from_compute = _global_batch_tokens(w, p, active, layers, d_model, tokens)
    return WorkloadView(
        name=w.name, kind=w.kind, precision=w.precision, params=params, active_params=active,
        is_moe=active < params, tokens=tokens,
        seq_len=w.seq_len, n_layers=layers, d_model=d_model, kv_heads_x_head_dim=kv_elements,
        kv_shape_given=kv_given, shape_derived=derived,
        global_batch_tokens=batch, batch_assumed=w.global_batch_tokens is None,
        batch_from_compute=from_compute,
        cost_of_delay_usd_per_day=w.cost_of_delay_usd_per_day, deadline_days=w.deadline_days,
        start_date=w.start_date, storage_needed_tb=w.storage_needed_tb, egress_tb=w.egress_tb,
        gpus_wanted=w.gpus_wanted,
        software_efficiency=w.software_efficiency, serving=w.serving,
    )


def _global_batch_tokens(w: Workload, p: Params, active: float, layers: int, d_model: int,
                        tokens: float | None) -> tuple[float, bool]:
    """The workload's global batch, or the one published runs choose for its compute budget
    (whole sequences, at least one); the fixed default when the token count is unknown."""
    if w.global_batch_tokens:
        return float(w.global_batch_tokens), False
    if not tokens or w.kind == "inference":
        return p.default_global_batch_tokens, False
    flops = tokens * fm.palm_flops_per_token(active, layers, d_model, w.seq_len)
    batch = fm.optimal_batch_tokens(flops, *p.batch_law)
    return float(max(1, round(batch / w.seq_len)) * w.seq_len), True


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
    storage_capacity_usable: bool  # quoted as usable (net): no usable-fraction haircut
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
    delivery_committed: bool | None
    preemptible: bool
    availability: float | None  # stated share of time (0-1), spot
    preemptions_per_node_day: float | None
    hw_replacement_hours: float | None
    assumed: list[str]


def _node_shape(
    o: OfferFields, p: Params, acc: AcceleratorSpec | None, assumed: list[str]
) -> tuple[int, int | None, int | None]:
    """(GPUs per node, GPUs, nodes): stated, derived from each other, else assumed."""
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
    return gpus_per_node, gpu_count, nodes


def _dense_peak(
    o: OfferFields, acc: AcceleratorSpec | None, assumed: list[str]
) -> dict[str, float]:
    """Dense TFLOPS per precision: the catalog's, else the vendor's claimed peak."""
    peak: dict[str, float] = dict(acc.dense_tflops) if acc else {}
    if not peak and o.claimed_peak_tflops_per_gpu and o.claimed_peak_precision:
        peak = {o.claimed_peak_precision.lower(): o.claimed_peak_tflops_per_gpu}
        assumed.append(
            f"accelerator {o.accelerator!r} is not in the catalog: used the vendor's claimed "
            f"{o.claimed_peak_tflops_per_gpu:g} TFLOPS ({o.claimed_peak_precision}) as dense peak."
        )
    return peak


@dataclass(frozen=True)
class _Network:
    intra_gbyte_s: float
    domain_gpus: int
    inter_gbit_s_per_gpu: float
    fabric_efficiency: float
    tenancy_factor: float


def _network(
    o: OfferFields, p: Params, acc: AcceleratorSpec | None, gpus_per_node: int,
    assumed: list[str],
) -> _Network:
    """The links a step's collectives cross: inside the node, across nodes, and how shared."""
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
        fabric_eff = p.fabric_efficiency.get("ethernet", 0.7)
        assumed.append(f"inter-node fabric not stated: assumed Ethernet efficiency {fabric_eff:g}.")
    else:
        fabric_eff = p.fabric_efficiency.get(fabric, p.fabric_efficiency.get("other", 0.7))
    if o.network_dedicated is True:
        tenancy = 1.0
    elif o.network_dedicated is False:
        tenancy = p.shared_network_factor
    else:
        tenancy = p.unknown_dedication_factor
        assumed.append("network tenancy not stated: assumed partly shared "
                       f"({tenancy:g} of a dedicated fabric).")
    return _Network(intra, domain_gpus, inter, fabric_eff, tenancy)


def _checkpoint_write(
    o: OfferFields, p: Params, nodes: int | None, assumed: list[str]
) -> float:
    """Aggregate checkpoint write speed, GB/s: stated, else by storage type, else NFS-class."""
    if o.storage_write_gbyte_s:
        return o.storage_write_gbyte_s
    if o.storage_type and o.storage_type in p.checkpoint_write_by_storage:
        write = p.checkpoint_write_by_storage[o.storage_type]
        if o.storage_type == "local_nvme":
            write *= nodes or 1
        assumed.append(f"storage write speed not stated: assumed {write:g} GB/s aggregate "
                       f"for {o.storage_type}.")
        return write
    write = p.missing_checkpoint_write
    assumed.append(f"storage write speed not stated: assumed {write:g} GB/s (NFS-class).")
    return write


def _owning_usd_per_month(o: OfferFields, p: Params, nodes: int | None) -> float | None:
    """A purchase's monthly cost: capex / amortisation + opex + power or colocation."""
    if o.capex_usd is None or not o.amortization_months:
        return None
    owning = o.capex_usd / o.amortization_months + (o.opex_usd_per_month or 0.0)
    if o.power_kw_per_node and nodes:
        kw = o.power_kw_per_node * nodes
        if o.colocation_usd_per_kw_month is not None:
            owning += kw * o.colocation_usd_per_kw_month
        elif o.power_usd_per_kwh is not None:
            owning += kw * p.hours_per_month * o.power_usd_per_kwh
    return owning


def offer_view(
    o: OfferFields, p: Params, acc: AcceleratorSpec | None = None
) -> OfferView:
    assumed: list[str] = []
    if acc is None:
        acc = lookup_accelerator(o.accelerator)
    gpus_per_node, gpu_count, nodes = _node_shape(o, p, acc, assumed)
    memory_gb = o.gpu_memory_gb or (acc.memory_gb if acc else None)
    peak = _dense_peak(o, acc, assumed)
    matmul = dict(acc.matmul_efficiency) if acc else {}
    net = _network(o, p, acc, gpus_per_node, assumed)
    write = _checkpoint_write(o, p, nodes, assumed)
    owning = _owning_usd_per_month(o, p, nodes)
    price = o.price_usd_per_gpu_hour
    if price is None and owning is not None and gpu_count:
        # (capex / amortisation + power or colocation + opex) per GPU-hour
        price = owning / (gpu_count * p.hours_per_month)

    return OfferView(
        accelerator=o.accelerator, acc=acc, offer_kind=o.offer_kind, gpu_count=gpu_count,
        gpus_per_node=gpus_per_node, nodes=nodes, memory_gb=memory_gb, peak_tflops=peak,
        matmul_efficiency=matmul,
        hbm_tbyte_s=acc.memory_bandwidth_tbyte_s if acc else None,
        intra_gbyte_s=net.intra_gbyte_s, domain_gpus=net.domain_gpus, fabric=o.inter_node_fabric,
        inter_gbit_s_per_gpu=net.inter_gbit_s_per_gpu,
        network_factor=net.fabric_efficiency * net.tenancy_factor,
        fabric_efficiency=net.fabric_efficiency, tenancy_factor=net.tenancy_factor,
        storage_type=o.storage_type, storage_capacity_tb=o.storage_capacity_tb,
        storage_capacity_usable=bool(o.storage_capacity_usable),
        write_gbyte_s=write, price_usd_per_gpu_hour=price,
        compute_price_usd_per_gpu_hour=o.compute_price_usd_per_gpu_hour,
        term_months=o.term_months, upfront_usd=o.upfront_usd or 0.0,
        egress_usd_per_gb=o.egress_usd_per_gb, storage_usd_per_tb_month=o.storage_usd_per_tb_month,
        support_usd_per_month=o.support_usd_per_month or 0.0,
        network_usd_per_month=o.network_usd_per_month or 0.0,
        min_commit_usd=o.min_commit_usd or 0.0, owning_usd_per_month=owning,
        capex_usd=o.capex_usd, amortization_months=o.amortization_months,
        delivery_date=o.delivery_date, delivery_committed=o.delivery_date_committed,
        preemptible=bool(o.preemptible),
        availability=o.availability_pct / 100.0 if o.availability_pct else None,
        preemptions_per_node_day=o.preemptions_per_node_day,
        hw_replacement_hours=o.hw_replacement_hours, assumed=assumed,
    )


