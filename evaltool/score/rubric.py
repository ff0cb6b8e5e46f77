"""Rubrics: categories, criteria, value functions, gates and missing-data policy.

A rubric is YAML (rubrics/*.yaml). Every criterion reads one metric of an offer
(`fields.X`, `estimates.X` or `derived.X`, see `evaltool.score.core.offer_metrics`) and
turns it into a value in 0..1 with a value function on bounds declared in the
rubric, never relative to the other bids (mcda-procurement.md §6.2-6.3: absolute
value functions keep scores free of rank reversal).
"""

from __future__ import annotations

import math
import re
from functools import lru_cache
from itertools import pairwise
from pathlib import Path
from typing import Any, Literal, TypeGuard

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from evaltool.errors import InputError, Location, Problem, UsageError
from evaltool.models import OfferFields, Workload
from evaltool.resources import rubrics_dir
from evaltool.yamlsafe import load_yaml_file

REQUIRED_CATEGORIES = ("compute", "network", "storage", "lock_in", "contract", "cost")
MissingPolicy = Literal["worst", "neutral", "unverified"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class PiecewiseLinear(_Strict):
    """Value at declared points, straight lines between, clamped outside."""

    type: Literal["piecewise_linear"] = "piecewise_linear"
    points: list[tuple[float, float]] = Field(min_length=2)

    @model_validator(mode="after")
    def _check(self) -> PiecewiseLinear:
        xs = [x for x, _ in self.points]
        if xs != sorted(xs) or len(set(xs)) != len(xs):
            raise ValueError("points must have strictly increasing x")
        if any(not 0.0 <= v <= 1.0 for _, v in self.points):
            raise ValueError("point values must lie in 0..1")
        values = [v for _, v in self.points]
        if any(a == b for a, b in pairwise(values)):
            raise ValueError("two neighbouring points have the same value: a flat stretch "
                             "where a real difference scores nothing")
        if not (values == sorted(values) or values == sorted(values, reverse=True)):
            raise ValueError("point values must rise or fall throughout (monotone)")
        return self

    def value(self, x: float) -> float:
        pts = self.points
        if x <= pts[0][0]:
            return pts[0][1]
        if x >= pts[-1][0]:
            return pts[-1][1]
        for (x0, v0), (x1, v1) in pairwise(pts):
            if x0 <= x <= x1:
                return v0 + (v1 - v0) * (x - x0) / (x1 - x0)
        return pts[-1][1]  # pragma: no cover - unreachable with sorted points

    def invert(self, value: float) -> float | None:
        """The smallest/largest x (by direction) that reaches `value`; None if never."""
        pts = self.points
        increasing = pts[-1][1] >= pts[0][1]
        candidates = pts if increasing else list(reversed(pts))
        for (x0, v0), (x1, v1) in pairwise(candidates):
            lo, hi = min(v0, v1), max(v0, v1)
            if lo <= value <= hi and v1 != v0:
                return x0 + (x1 - x0) * (value - v0) / (v1 - v0)
        return None


class LogScale(_Strict):
    """Money on a scale that cannot saturate: value by the ratio to a workload anchor.

    ``points`` are two (multiple of the anchor, value) pairs: between them the value is linear
    in the logarithm of the ratio (each doubling costs the same), and beyond them it keeps
    moving towards 0 or 1 without reaching it (hyperbolic tails), so any difference in dollars
    moves the value — strictly monotone from 0 to infinity. The anchor is a metric computed
    from the workload alone (e.g. ``derived.anchor_cost_usd``), never from the other bids.
    """

    type: Literal["log_scale"] = "log_scale"
    anchor: str = Field(description="metric path of the workload anchor "
                        "(e.g. derived.anchor_cost_usd)")
    points: tuple[tuple[float, float], tuple[float, float]]

    @model_validator(mode="after")
    def _check(self) -> LogScale:
        (m1, v1), (m2, v2) = self.points
        if not 0 < m1 < m2:
            raise ValueError("points must be two positive multiples of the anchor, increasing")
        if not (0.0 < v1 < 1.0 and 0.0 < v2 < 1.0) or v1 == v2:
            raise ValueError("point values must differ and lie strictly between 0 and 1 "
                             "(the tails need room to stay strictly monotone)")
        if not self.anchor.startswith(("fields.", "estimates.", "derived.", "workload.")):
            raise ValueError("anchor must be a metric path (derived.X, estimates.X, ...)")
        return self

    def value(self, x: float, anchor: float) -> float:
        (m1, v1), (m2, v2) = self.points
        r = max(0.0, x) / anchor
        decreasing = v2 < v1
        if r < m1:
            return 1.0 - (1.0 - v1) * r / m1 if decreasing else v1 * r / m1
        if r > m2:
            return v2 * m2 / r if decreasing else 1.0 - (1.0 - v2) * m2 / r
        return v1 + (v2 - v1) * math.log(r / m1) / math.log(m2 / m1)


class Levels(_Strict):
    """Anchored discrete levels for a qualitative criterion (0..1 per level)."""

    type: Literal["levels"] = "levels"
    levels: dict[str, float]
    default: float | None = Field(None, ge=0, le=1, description="value of an unlisted level")

    @model_validator(mode="after")
    def _check(self) -> Levels:
        if any(not 0.0 <= v <= 1.0 for v in self.levels.values()):
            raise ValueError("level values must lie in 0..1")
        return self

    def value(self, level: Any) -> float | None:
        key = str(level).lower()  # True -> "true", matching YAML's quoted level names
        if key in self.levels:
            return self.levels[key]
        return self.default


class Criterion(_Strict):
    id: str
    category: str
    title: str
    reads: str = Field(description="metric path: fields.X, estimates.X or derived.X")
    unit: str | None = None
    value_function: PiecewiseLinear | LogScale | Levels = Field(discriminator="type")
    weight: float = Field(gt=0, description="weight within its category")
    weight_band: tuple[float, float] | None = None
    missing: MissingPolicy | None = None
    source: str = Field(min_length=3, description="where the bounds and the rule come from")
    rule: int | None = Field(None, description="PRODUCT.md domain rule this encodes")
    priced_by: str | None = Field(
        None, description="id of the money criterion that already prices what this one "
        "measures (time) when the workload states a cost of delay: monetise first")

    @model_validator(mode="after")
    def _check(self) -> Criterion:
        if not self.reads.startswith(("fields.", "estimates.", "derived.")):
            raise ValueError("reads must start with fields., estimates. or derived.")
        _check_band(self.weight, self.weight_band)
        return self

    def band(self) -> tuple[float, float]:
        return self.weight_band or (self.weight * 0.8, self.weight * 1.2)


def _check_band(weight: float, band: tuple[float, float] | None) -> None:
    if band is None:
        return
    if not 0.0 <= band[0] <= band[1]:
        raise ValueError(f"weight_band {list(band)} must be [low, high] with 0 <= low <= high")
    if not band[0] <= weight <= band[1]:
        raise ValueError(f"weight {weight:g} must lie inside its weight_band {list(band)}")


# "{derived.time_vs_deadline:.2f}" in a gate's `says`: a metric path and its format.
SAYS_PLACEHOLDER = re.compile(r"\{([a-z_]+\.[a-z_0-9]+)(?::([^}]*))?\}")


class Gate(_Strict):
    """A knock-out rule, checked before scoring (mcda-procurement.md §6.6)."""

    id: str
    title: str
    reads: str
    min: float | None = None
    max: float | None = None
    equals: bool | str | None = None
    when_missing: Literal["unverified", "fail", "pass"] = "unverified"
    why: str
    source: str
    says: str | None = Field(
        None, description="what the gate found, in words; {metric.path:format} placeholders"
    )

    def metric_paths(self) -> list[str]:
        """The metric the gate reads, then those its `says` template states, each once."""
        found = [m.group(1) for m in SAYS_PLACEHOLDER.finditer(self.says or "")]
        return list(dict.fromkeys([self.reads, *found]))

    @model_validator(mode="after")
    def _check(self) -> Gate:
        if self.min is not None and self.max is not None and self.min > self.max:
            raise ValueError(f"min {self.min:g} is above max {self.max:g}: no value can pass")
        if self.min is None and self.max is None and self.equals is None:
            raise ValueError("a gate needs min, max or equals")
        return self


class Category(_Strict):
    weight: float = Field(gt=0)
    weight_band: tuple[float, float] | None = None
    why: str
    source: str

    @model_validator(mode="after")
    def _check(self) -> Category:
        _check_band(self.weight, self.weight_band)
        return self

    def band(self) -> tuple[float, float]:
        return self.weight_band or (self.weight * 0.8, self.weight * 1.2)


class Rubric(_Strict):
    name: str
    version: str
    title: str
    description: str
    workload_kind: Literal["pretraining", "fine-tuning", "inference"]
    missing_default: MissingPolicy = "worst"
    tie_threshold_points: float = Field(2.0, ge=0)
    categories: dict[str, Category]
    criteria: list[Criterion] = Field(min_length=1)
    gates: list[Gate] = Field(default_factory=list)
    rules_encoded: dict[int, str] = Field(
        default_factory=dict, description="PRODUCT.md domain rule → where this rubric encodes it"
    )
    priced_in_money: list[str] = Field(
        default_factory=list,
        description="criteria whose weight moved to the money criterion that prices them "
        "(set by `priced_for`, never written in a rubric file)")

    @model_validator(mode="after")
    def _check(self) -> Rubric:
        missing = [c for c in REQUIRED_CATEGORIES if c not in self.categories]
        if missing:
            raise ValueError(f"categories {missing} are required (PRODUCT.md)")
        ids = [c.id for c in self.criteria]
        duplicates = sorted({i for i in ids if ids.count(i) > 1})
        if duplicates:
            raise ValueError(f"duplicate criterion ids {duplicates}")
        for criterion in self.criteria:
            if criterion.category not in self.categories:
                raise ValueError(
                    f"criterion {criterion.id!r} names unknown category {criterion.category!r}"
                )
        empty = [c for c in self.categories if not any(k.category == c for k in self.criteria)]
        if empty:
            raise ValueError(f"categories {empty} have no criteria")
        unknown = [f"{c.id}: {path}" for c in self.criteria
                   for path in _paths_of(c) if not known_metric(path)]
        unknown += [f"gate {g.id}: {path}" for g in self.gates
                    for path in g.metric_paths()
                    if not known_metric(path)]
        if unknown:
            raise ValueError("reads a metric that does not exist (a typo scores every offer "
                             "as 'not stated'): " + "; ".join(unknown))
        for criterion in self.criteria:
            target = criterion.priced_by
            if target is None:
                continue
            found = next((c for c in self.criteria if c.id == target), None)
            if found is None or not isinstance(found.value_function, LogScale):
                raise ValueError(f"criterion {criterion.id!r}: priced_by {target!r} must name "
                                 "a money criterion of this rubric (a log_scale criterion)")
        return self

    def priced_for(self, cost_of_delay_usd_per_day: float | None) -> Rubric:
        """Monetise first: when time has a price, speed is scored once, in dollars.

        A criterion marked ``priced_by: X`` measures what the money criterion X already
        charges through the workload's cost of delay (time to a trained model, MFU lost to
        the network or to checkpoints). Scoring both counts speed twice (double counting
        breaks the additive model's independence; UK DCLG, "Multi-criteria analysis: a
        manual", 2009, §5.4.4, and DoD Source Selection Procedures 2022, VATEP: measurable
        performance enters as money). So its global weight moves to X; the rest of its
        category (risk and quality: memory, fabric, dedicated network, file system class)
        keeps its own. Without a cost of delay nothing moves.
        """
        priced = [c for c in self.criteria if c.priced_by]
        if not priced or not cost_of_delay_usd_per_day or cost_of_delay_usd_per_day <= 0:
            return self
        weights = self.global_weights()
        bands = self.global_weight_bands()
        moved = {c.id for c in priced}
        new_global = {c.id: weights[c.id] for c in self.criteria if c.id not in moved}
        new_bands = {c.id: bands[c.id] for c in self.criteria if c.id not in moved}
        for c in priced:
            target = str(c.priced_by)
            new_global[target] += weights[c.id]
            low, high = new_bands[target]
            new_bands[target] = (low + bands[c.id][0], high + bands[c.id][1])
        # Written as global weights: each category weighs the sum of its criteria, each
        # criterion its global weight, so `global_weights` and `global_weight_bands` give
        # back exactly these (the category bands collapse onto the weights; the bands of the
        # criteria carry the uncertainty the rubric declared).
        data = self.model_dump(mode="python")
        criteria = []
        for c in data["criteria"]:
            if c["id"] in moved:
                continue
            c["weight"] = new_global[c["id"]]
            c["weight_band"] = new_bands[c["id"]]
            criteria.append(c)
        for name, category in data["categories"].items():
            total = sum(new_global[c["id"]] for c in criteria if c["category"] == name)
            category["weight"] = total
            category["weight_band"] = (total, total)
        data["criteria"] = criteria
        data["priced_in_money"] = sorted(moved)
        return Rubric.model_validate(data)

    def category_weights(self) -> dict[str, float]:
        total = sum(c.weight for c in self.categories.values())
        return {name: c.weight / total for name, c in self.categories.items()}

    def global_weights(self) -> dict[str, float]:
        """Criterion id → weight in the whole score (category × local), summing to 1."""
        cat = self.category_weights()
        local_totals: dict[str, float] = {}
        for c in self.criteria:
            local_totals[c.category] = local_totals.get(c.category, 0.0) + c.weight
        return {c.id: cat[c.category] * c.weight / local_totals[c.category] for c in self.criteria}

    def global_weight_bands(self) -> dict[str, tuple[float, float]]:
        """Bands on global weights from the category and local bands (products of the ends)."""
        cat_total = sum(c.weight for c in self.categories.values())
        local_totals: dict[str, float] = {}
        for c in self.criteria:
            local_totals[c.category] = local_totals.get(c.category, 0.0) + c.weight
        bands: dict[str, tuple[float, float]] = {}
        for c in self.criteria:
            clo, chi = self.categories[c.category].band()
            llo, lhi = c.band()
            denom = local_totals[c.category]
            bands[c.id] = (clo / cat_total * llo / denom, chi / cat_total * lhi / denom)
        return bands

    def missing_policy(self, criterion: Criterion) -> MissingPolicy:
        return criterion.missing or self.missing_default


def _paths_of(criterion: Criterion) -> list[str]:
    paths = [criterion.reads]
    if isinstance(criterion.value_function, LogScale):
        paths.append(criterion.value_function.anchor)
    return paths


def known_metric(path: str) -> bool:
    """Whether a metric path names something `score.core.offer_metrics` can produce."""

    group, _, name = path.partition(".")
    if group == "fields":
        return name in OfferFields.model_fields
    if group == "workload":
        return name in Workload.model_fields
    if group == "estimates":
        return name in ESTIMATE_METRICS
    if group == "derived":
        return name in DERIVED_METRICS
    return False


# What estimate (estimate.core.numbers + estimate.money) puts in an offer's estimates.
ESTIMATE_METRICS = frozenset({
    "mfu", "time_to_train_days", "total_cost_usd", "effective_usd_per_gpu_hour",
    "total_economic_cost_usd", "gpus_used", "min_gpus_required", "fits", "deadline_met", "hfu",
    "delivery_wait_days", "days_to_trained_model", "tokens_per_s_per_gpu", "gpu_hours",
    "usd_per_effective_pflop_hour", "usd_per_million_tokens", "cost_of_delay_usd",
    "minimum_commitment_usd", "storage_needed_tb", "storage_usable_tb", "storage_fits",
    "peak_dense_tflops", "precision", "required_inter_node_gbit_s_per_gpu",
    "offered_inter_node_gbit_s_per_gpu", "network_effective_efficiency",
    "decode_tokens_per_s_per_gpu", "prefill_tokens_per_s_per_gpu", "replicas_needed",
    "usd_per_million_output_tokens", "minimum_cash_to_sign_usd", "full_commitment_usd",
    "charged_cost_usd", "mfu_low", "mfu_high", "delivery_slip_days", "required_gpus",
    "serving_capacity_tokens_per_s", "meets_throughput", "quote_valid",
})
# What score.core.offer_metrics derives (tests/test_rubric.py checks the two agree).
DERIVED_METRICS = frozenset({
    "time_vs_deadline", "delivery_wait_days", "achievable_tflops_per_gpu", "honest_peak_claim",
    "cpu_cores_per_gpu", "effective_inter_node_gbit_s_per_gpu", "network_mfu_loss",
    "storage_class", "storage_capacity_ratio", "checkpoint_overhead", "accelerator_lock_in",
    "tooling_openness", "egress_usd_per_gb", "commitment_months", "weak_commitments_high",
    "weak_commitments_total", "missing_essentials", "unilateral_change_count", "exit_terms",
    "usd_per_work_pflop_hour", "economic_usd_per_work_pflop_hour", "addon_share",
    "anchor_cost_usd", "charged_cost_usd", "economic_cost_usd",
})


def _format_loc(loc: tuple[Any, ...], data: Any) -> str:
    """Turn a pydantic location into a YAML key path, naming criteria by id."""
    parts: list[str] = []
    node = data
    for item in loc:
        if isinstance(item, int) and isinstance(node, list) and 0 <= item < len(node):
            element = node[item]
            ident = element.get("id") if isinstance(element, dict) else None
            parts.append(f"[{item}]" if ident is None else f"[{item}:{ident}]")
            node = element
        else:
            parts.append(("." if parts else "") + str(item))
            node = node.get(item) if isinstance(node, dict) else None
    return "".join(parts)


def parse_rubric(data: Any, source: str) -> Rubric:
    """Validate rubric data; errors name the file and the key path."""
    if not isinstance(data, dict):
        raise UsageError(Problem(Location(source), code="rubric-not-a-mapping",
                                 params={"type": type(data).__name__}))
    if not {"name", "categories", "criteria"} & {str(k) for k in data}:
        # Not a rubric at all (a mistyped path, say): never echo another file's keys.
        raise UsageError(Problem(Location(source), code="not-a-rubric",
                                 params={"count": len(data)}))
    try:
        return Rubric.model_validate(data)
    except ValidationError as exc:
        raise UsageError([_rubric_issue(err, data, source) for err in exc.errors()]) from None


def _rubric_issue(err: Any, data: Any, source: str) -> Problem:
    """One validation error as an issue naming the rubric file and the key path."""
    where = _format_loc(tuple(err["loc"]), data) or "(top level)"
    if err["type"] == "extra_forbidden":
        # an unknown key's value is never echoed: the file may not be a rubric at all
        return Problem(Location(source, key=where), code="rubric-unknown-key")
    if err["type"] == "missing":
        return Problem(Location(source, key=where), code="rubric-missing-key")
    found = err.get("input")
    return Problem(Location(source, key=where), code="rubric-invalid-value",
                   found=None if isinstance(found, dict | list) else str(found),
                   expected=_lower_first(str(err["msg"])))


def _lower_first(text: str) -> str:
    # pydantic's reasons are sentences ("Input should be ..."); ours continue "expected ..."
    return text[:1].lower() + text[1:]


def shipped_rubrics() -> dict[str, Path]:
    return {p.stem: p for p in sorted(rubrics_dir().glob("*.yaml"))}


@lru_cache(maxsize=16)
def _load_path(path: Path) -> Rubric:

    try:
        data = load_yaml_file(path)
    except OSError as exc:
        raise UsageError(Problem(Location(str(path)), code="rubric-unreadable",
                                 params={"reason": str(exc.strerror or exc)})) from None
    except InputError as exc:
        raise UsageError(Problem(None, code="rubric-file-invalid",
                                 params={"reason": str(exc)})) from None
    return parse_rubric(data, str(path))


def load_rubric(name_or_path: str | Path | None = None) -> Rubric:
    """A shipped rubric by name (default llm-pretraining) or a rubric file by path."""
    name = str(name_or_path) if name_or_path else "llm-pretraining"
    shipped = shipped_rubrics()
    if name in shipped:
        return _load_path(shipped[name])
    path = Path(name)
    if path.suffix.lower() in (".yaml", ".yml") or path.exists():
        if not path.exists():
            raise UsageError(Problem(None, code="rubric-not-found", params={"path": str(path)}))
        return _load_path(path.resolve())
    raise UsageError(Problem(None, code="unknown-rubric", params={
        "name": repr(name), "names": ", ".join(sorted(shipped))}))


def is_number(value: Any) -> TypeGuard[float]:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)
