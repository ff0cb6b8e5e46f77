"""Typed models for every stage: canonical offer fields, workloads and results.

Field names and units follow PRODUCT.md ("Canonical offer fields and units"):
the unit is part of every name (`_gbit_s` gigabits per second, `_gbyte_s`
gigabytes per second, `_tb` decimal terabytes, `_gb` decimal gigabytes).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import Any, Literal

from pydantic import AliasChoices, BaseModel, ConfigDict, Field, model_validator

OfferKind = Literal["rent", "purchase", "hpc_allocation"]
Fabric = Literal["infiniband", "roce", "ethernet", "ici", "other"]
StorageType = Literal[
    "lustre", "gpfs", "weka", "vast", "ddn", "nfs", "object", "local_nvme", "other"
]
Orchestrator = Literal["slurm", "kubernetes", "both", "none", "proprietary"]
Severity = Literal["high", "medium", "low", "info"]
Precision = Literal["bf16", "fp8"]
WorkloadKind = Literal["pretraining", "fine-tuning", "inference"]

PARALLEL_FILE_SYSTEMS = frozenset({"lustre", "gpfs", "weka", "vast", "ddn"})
HOURS_PER_MONTH = 730  # PRODUCT.md: "730 hours a month"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_assignment=True)


_ALL_FIELDS: dict[type[BaseModel], set[str]] = {}


def share_fields_sets(models: Iterable[BaseModel]) -> None:
    """Let every model that was given all its fields share one "fields set" per class.

    pydantic keeps a set of the field names given on each instance: 728 bytes for eight
    fields, more than the values themselves. At 10,000 offers with ~25 criterion rows, flags
    and gates each, those sets alone held ~250 MB (benchmarks/limits.py). A set naming every
    field is the same for every such instance, and pydantic only ever adds a name to it (on
    assignment), which cannot change a set that names them all already.
    """
    for model in models:
        cls = type(model)
        full = _ALL_FIELDS.get(cls)
        if full is None:
            full = _ALL_FIELDS[cls] = set(cls.model_fields)
        if model.__pydantic_fields_set__ == full:
            object.__setattr__(model, "__pydantic_fields_set__", full)


class OfferFields(_Strict):
    """The canonical fields of one offer. A field the offer does not state is None."""

    # identity
    vendor: str | None = None
    offer_name: str | None = None
    offer_kind: OfferKind | None = None
    currency: str | None = Field(None, description="currency of the source prices (ISO code)")
    valid_until: dt.date | None = None
    region: str | None = None
    # compute
    accelerator: str | None = Field(None, description="catalog id, e.g. H100-SXM")
    gpu_count: int | None = Field(None, ge=1, le=1_000_000)
    gpus_per_node: int | None = Field(None, ge=1, le=128)
    node_count: int | None = Field(None, ge=1, le=200_000)
    gpu_memory_gb: float | None = Field(None, gt=0, le=4096)
    claimed_peak_tflops_per_gpu: float | None = Field(None, gt=0, le=100_000)
    claimed_peak_precision: str | None = None
    # host
    cpu_cores_per_node: int | None = Field(None, ge=1, le=4096)
    cpu_memory_gb_per_node: float | None = Field(None, gt=0, le=65_536)
    local_nvme_tb_per_node: float | None = Field(None, ge=0, le=10_000)
    # network
    intra_node_gbyte_s_per_gpu: float | None = Field(None, gt=0, le=100_000)
    inter_node_fabric: Fabric | None = None
    inter_node_gbit_s_per_node: float | None = Field(None, gt=0, le=1_000_000)
    inter_node_gbit_s_per_gpu: float | None = Field(None, gt=0, le=100_000)
    network_dedicated: bool | None = None
    # storage
    storage_type: StorageType | None = None
    storage_capacity_tb: float | None = Field(None, ge=0, le=10_000_000)
    storage_capacity_usable: bool | None = Field(
        None, description="the quote states the capacity as usable (net): no usable-fraction "
                          "haircut applies to it")
    storage_read_gbyte_s: float | None = Field(None, gt=0, le=1_000_000)
    storage_write_gbyte_s: float | None = Field(None, gt=0, le=1_000_000)
    # operations
    orchestrator: Orchestrator | None = None
    root_access: bool | None = None
    hw_replacement_hours: float | None = Field(None, ge=0, le=24 * 365)
    support_response_hours: float | None = Field(None, ge=0, le=24 * 365)
    sla_uptime_pct: float | None = Field(None, ge=0, le=100)
    sla_max_credit_pct: float | None = Field(None, ge=0, le=100)
    delivery_date: dt.date | None = None
    delivery_date_committed: bool | None = Field(
        None, description="False when the vendor only hedges the date ('target', 'estimated')"
    )
    preemptible: bool | None = Field(None, description="spot / preemptible capacity")
    availability_pct: float | None = Field(
        None, gt=0, le=100, description="stated share of time spot capacity is available"
    )
    preemptions_per_node_day: float | None = Field(None, ge=0, le=100)
    # price (USD)
    price_usd_per_gpu_hour: float | None = Field(None, ge=0, le=10_000)
    compute_price_usd_per_gpu_hour: float | None = Field(
        None, ge=0, le=10_000, description="compute alone, before storage/support/network add-ons"
    )
    term_months: float | None = Field(None, gt=0, le=240)
    upfront_usd: float | None = Field(None, ge=0)
    egress_usd_per_gb: float | None = Field(None, ge=0, le=100)
    storage_usd_per_tb_month: float | None = Field(None, ge=0, le=100_000)
    support_usd_per_month: float | None = Field(None, ge=0)
    network_usd_per_month: float | None = Field(None, ge=0)
    min_commit_usd: float | None = Field(None, ge=0)
    # purchase
    capex_usd: float | None = Field(None, ge=0)
    amortization_months: float | None = Field(None, gt=0, le=240)
    power_kw_per_node: float | None = Field(None, gt=0, le=1000)
    power_usd_per_kwh: float | None = Field(None, ge=0, le=10)
    colocation_usd_per_kw_month: float | None = Field(None, ge=0, le=10_000)
    opex_usd_per_month: float | None = Field(None, ge=0)
    # contract
    contract_text: str | None = None


CANONICAL_FIELDS: tuple[str, ...] = tuple(OfferFields.model_fields)


class FieldSource(_Strict):
    """Where one canonical value came from, and the raw text it was read from."""

    where: dict[str, Any] = Field(description="file, sheet and cell, or key path")
    raw: str | None = None
    derived_from: list[str] | None = Field(None, description="fields it was computed from")
    note: str | None = None
    from_contract: bool = Field(
        False, description="read from the offer's contract text, so it is contractual")


def code_of(kind: str) -> str:
    """The issue code of a flag, finding or gate kind: ``weak_commitment`` → ``weak-commitment``."""
    return kind.replace("_", "-")


class Flag(_Strict):
    """Something a buyer must see: a weak clause, a sparse TFLOPS claim, an assumption.

    ``code`` is its registered issue code (``evaltool explain CODE``); it follows ``kind``
    unless given. ``figures`` holds the numbers the flag rests on, units in their names
    (``committed_usd``, ``run_cost_usd``); evaltool.report.flag_words writes ``why`` from them.
    """

    code: str = ""
    kind: str
    severity: Severity
    quote: str | None = None
    where: dict[str, Any] | None = None
    why: str = ""  # a stage may leave it to evaltool.report.flag_words (from code and figures)
    ask_for: str | None = None
    figures: dict[str, Any] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _default_code(self) -> Flag:
        if not self.code:
            object.__setattr__(self, "code", code_of(self.kind))
        return self


class Offer(_Strict):
    """One normalised offer: canonical fields with provenance and warnings."""

    id: str
    source: dict[str, Any]
    fields: OfferFields
    provenance: dict[str, FieldSource] = Field(default_factory=dict)
    warnings: list[dict[str, Any]] = Field(default_factory=list)
    flags: list[Flag] = Field(default_factory=list)
    contract_segments: list[dict[str, Any]] = Field(
        default_factory=list, description="contract text blocks with where they stand"
    )

    @property
    def label(self) -> str:
        name = self.fields.offer_name
        vendor = self.fields.vendor or self.id
        return f"{vendor} — {name}" if name else vendor


class NotEvaluated(_Strict):
    """An input that could not be evaluated, and every reason why."""

    source: dict[str, Any]
    errors: list[dict[str, Any]]


class ServingTarget(_Strict):
    tokens_per_s: float | None = Field(None, gt=0)
    requests_per_s: float | None = Field(None, gt=0)
    prompt_tokens: int | None = Field(None, ge=1)
    output_tokens: int | None = Field(None, ge=1)
    # Time per output token (TPOT, the industry's name, is accepted for it).
    max_latency_ms_per_token: float | None = Field(
        None, gt=0, validation_alias=AliasChoices("max_latency_ms_per_token",
                                                  "max_time_per_output_token_ms"))
    max_time_to_first_token_ms: float | None = Field(
        None, gt=0, description="time to first token (TTFT): queueing + the prompt's prefill")
    batch_size: int | None = Field(None, ge=1)
    duration_months: float | None = Field(
        None, gt=0, description="how long the service runs (730 hours a month)")


class Workload(_Strict):
    """What will run on the cluster (PRODUCT.md "Workloads")."""

    name: str
    kind: WorkloadKind = "pretraining"
    params_b: float = Field(gt=0, le=100_000, description="total parameters, billions")
    active_params_b: float | None = Field(None, gt=0, description="MoE active parameters")
    tokens_b: float | None = Field(None, gt=0, description="training tokens, billions")
    seq_len: int = Field(4096, ge=1, le=10_000_000)
    precision: Precision = "bf16"
    cost_of_delay_usd_per_day: float = Field(0.0, ge=0)
    deadline_days: float | None = Field(None, gt=0, description="counted from start_date")
    start_date: dt.date | None = Field(
        None, description="when the team wants to start; delivery waits and the deadline count "
        "from it (default: the day of the run)"
    )
    n_layers: int | None = Field(None, ge=1)
    d_model: int | None = Field(None, ge=1)
    n_heads: int | None = Field(None, ge=1, description="attention (query) heads")
    n_kv_heads: int | None = Field(None, ge=1, description="K/V heads (GQA/MQA); default n_heads")
    head_dim: int | None = Field(None, ge=1, description="default d_model / n_heads")
    global_batch_tokens: int | None = Field(None, ge=1)
    storage_needed_tb: float | None = Field(None, ge=0, description="dataset + checkpoints")
    egress_tb: float | None = Field(None, ge=0, description="data moved out over the run")
    gpus_wanted: int | None = Field(None, ge=1, description="GPUs the team plans to use")
    software_efficiency: float | None = Field(
        None, gt=0, le=1, description="override for the parallelism/software efficiency"
    )
    serving: ServingTarget | None = None
    resale_value_fraction: float | None = Field(
        None, ge=0, le=1, description="what capacity paid for but not used by this run is worth "
        "(follow-on work or resale), as a fraction of its cost; default 0"
    )

    @property
    def compute_params_b(self) -> float:
        return self.active_params_b or self.params_b


class Estimates(BaseModel):
    """What the workload costs and takes on one offer. Extra keys are allowed."""

    model_config = ConfigDict(extra="allow")

    mfu: float | None = None
    time_to_train_days: float | None = None
    total_cost_usd: float | None = None
    effective_usd_per_gpu_hour: float | None = None
    total_economic_cost_usd: float | None = None
    gpus_used: int | None = None
    min_gpus_required: int | None = None
    fits: bool | None = None
    deadline_met: bool | None = None
    explain: dict[str, Any] = Field(default_factory=dict)


class GateResult(_Strict):
    """One knock-out gate on one offer. ``code`` is ``gate-<id>`` (``evaltool explain``).

    ``figures`` holds the values of the metrics the gate read, by metric path
    (``derived.time_vs_deadline``); evaltool.report.score_words writes ``why`` from them.
    """

    code: str = ""
    gate: str
    status: Literal["pass", "fail", "unverified"]
    why: str = ""  # left to evaltool.report.score_words (from the gate and its figures)
    figures: dict[str, Any] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _default_code(self) -> GateResult:
        if not self.code:
            object.__setattr__(self, "code", "gate-" + code_of(self.gate))
        return self


class CriterionScore(_Strict):
    criterion: str
    category: str
    value: Any = None
    score: float | None = Field(None, description="0-100 on the rubric's value function")
    weight: float
    contribution: float = Field(description="points it adds to the total score")
    missing: bool = False
    # How a criterion without a value was scored: not_applicable (left out, its weight to
    # its siblings), neutral (the same, not stated), worst or unverified (scored 0);
    # evaltool.report.score_words writes ``note`` from it.
    treatment: Literal["not_applicable", "neutral", "worst", "unverified"] | None = None
    note: str | None = None


class OfferResult(_Strict):
    id: str
    vendor: str
    offer_name: str | None = None
    accelerator: str | None = None
    rank: int
    score: float
    eligible: bool
    gates: list[GateResult] = Field(default_factory=list)
    categories: dict[str, float]
    criteria: list[CriterionScore] = Field(default_factory=list)
    estimates: dict[str, Any]
    flags: list[Flag] = Field(default_factory=list)
    missing: list[str] = Field(default_factory=list)
    source: dict[str, Any] = Field(default_factory=dict)
    fields: dict[str, Any] = Field(
        default_factory=dict, description="the canonical values the score rests on"
    )
    provenance: dict[str, FieldSource] = Field(
        default_factory=dict, description="field → where it was read, and the raw text"
    )
    warnings: list[dict[str, Any]] = Field(default_factory=list)


class ScoreReport(_Strict):
    """The JSON that every output of `score` is built from (PRODUCT.md)."""

    evaltool_version: str
    generated_for: str | None = None
    offers: list[OfferResult]
    not_evaluated: list[NotEvaluated]
    rubric: dict[str, Any]
    workload: dict[str, Any]
    assumptions: dict[str, Any]
    sensitivity: dict[str, Any] = Field(default_factory=dict)
    recommendation: dict[str, Any] = Field(default_factory=dict)


class _Open(BaseModel):
    """A typed view of a dict the decide stage writes; keys it does not name are kept."""

    model_config = ConfigDict(extra="allow", frozen=True)


class Recommendation(_Open):
    """`ScoreReport.recommendation` as a typed object (`evaltool.recommendation(report)`)."""

    offer_id: str | None = None
    vendor: str | None = None
    headline: str = ""
    confidence: str | None = None
    confidence_reason: str | None = None
    margin_points: float | None = None
    win_probability: float | None = None
    runner_up_id: str | None = None
    tradeoff: str | None = None
    excluded: list[str] = Field(default_factory=list)


class Sensitivity(_Open):
    """`ScoreReport.sensitivity` as a typed object (`evaltool.sensitivity(report)`)."""

    win_probability: dict[str, float] = Field(default_factory=dict)
    rank_acceptability: dict[str, list[float]] = Field(default_factory=dict)
    rank_intervals: dict[str, list[int]] = Field(default_factory=dict)
    margin: dict[str, Any] = Field(default_factory=dict)
    weight_break_evens: list[dict[str, Any]] = Field(default_factory=list)
    price_cut_to_win: list[dict[str, Any]] = Field(default_factory=list)
    what_would_change: list[str] = Field(default_factory=list)
    clarification_questions: list[dict[str, Any]] = Field(default_factory=list)
    tornado: list[dict[str, Any]] = Field(default_factory=list)
    pareto_frontier: list[str] = Field(default_factory=list)
