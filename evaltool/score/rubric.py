"""Rubrics: categories, criteria, value functions, gates and missing-data policy.

A rubric is YAML (rubrics/*.yaml). Every criterion reads one metric of an offer
(`fields.X`, `estimates.X` or `derived.X`, see `evaltool.score.core.offer_metrics`) and
turns it into a value in 0..1 with a value function on bounds declared in the
rubric, never relative to the other bids (mcda-procurement.md §6.2-6.3: absolute
value functions keep scores free of rank reversal).
"""

from __future__ import annotations

import math
from functools import lru_cache
from itertools import pairwise
from pathlib import Path
from typing import Any, Literal, TypeGuard

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from evaltool.errors import UsageError
from evaltool.resources import rubrics_dir

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
    value_function: PiecewiseLinear | Levels = Field(discriminator="type")
    weight: float = Field(gt=0, description="weight within its category")
    weight_band: tuple[float, float] | None = None
    missing: MissingPolicy | None = None
    source: str = Field(min_length=3, description="where the bounds and the rule come from")
    rule: int | None = Field(None, description="PRODUCT.md domain rule this encodes")

    @model_validator(mode="after")
    def _check(self) -> Criterion:
        if not self.reads.startswith(("fields.", "estimates.", "derived.")):
            raise ValueError("reads must start with fields., estimates. or derived.")
        if self.weight_band and not self.weight_band[0] <= self.weight <= self.weight_band[1]:
            raise ValueError("weight must lie inside its weight_band")
        return self

    def band(self) -> tuple[float, float]:
        return self.weight_band or (self.weight * 0.8, self.weight * 1.2)


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


class Category(_Strict):
    weight: float = Field(gt=0)
    weight_band: tuple[float, float] | None = None
    why: str
    source: str

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
        return self

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
        raise UsageError(f"{source}: a rubric must be a YAML mapping, found {type(data).__name__}")
    if not {"name", "categories", "criteria"} & {str(k) for k in data}:
        # Not a rubric at all (a mistyped path, say): never echo another file's keys.
        raise UsageError(f"{source}: not a rubric (none of the keys name, categories, criteria; "
                         f"{len(data)} other keys not shown)")
    try:
        return Rubric.model_validate(data)
    except ValidationError as exc:
        lines = []
        for err in exc.errors():
            where = _format_loc(tuple(err["loc"]), data) or "(top level)"
            found = err.get("input")
            found_text = "" if isinstance(found, dict | list) else f" (found {found!r})"
            lines.append(f"{source} › {where}: {err['msg']}{found_text}")
        raise UsageError("invalid rubric:\n  " + "\n  ".join(lines)) from None


def shipped_rubrics() -> dict[str, Path]:
    return {p.stem: p for p in sorted(rubrics_dir().glob("*.yaml"))}


@lru_cache(maxsize=16)
def _load_path(path: Path) -> Rubric:
    from evaltool.errors import InputError
    from evaltool.yamlsafe import load_yaml_file

    try:
        data = load_yaml_file(path)
    except OSError as exc:
        raise UsageError(f"{path}: cannot read rubric ({exc.strerror or exc})") from None
    except InputError as exc:
        raise UsageError(f"cannot read rubric: {exc}") from None
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
            raise UsageError(f"rubric file {path} does not exist")
        return _load_path(path.resolve())
    raise UsageError(
        f"unknown rubric {name!r}: expected one of {', '.join(sorted(shipped))} or a .yaml path"
    )


def is_number(value: Any) -> TypeGuard[float]:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def describe_rubric(rubric: Rubric) -> str:
    """The rubric in plain text: categories, criteria (global weights), value functions, gates."""
    weights = rubric.global_weights()
    lines = [f"{rubric.title} — {rubric.name} v{rubric.version} ({rubric.workload_kind})",
             rubric.description, ""]
    for name, cat_weight in rubric.category_weights().items():
        category = rubric.categories[name]
        lines.append(f"{name} — {cat_weight:.0%} of the score. {category.why} [{category.source}]")
        for c in (c for c in rubric.criteria if c.category == name):
            vf = c.value_function
            if isinstance(vf, Levels):
                shape = ", ".join(f"{k}={v:g}" for k, v in vf.levels.items())
            else:
                shape = " → ".join(f"{x:g}:{v:g}" for x, v in vf.points)
            unit = f" [{c.unit}]" if c.unit else ""
            policy = rubric.missing_policy(c)
            lines.append(f"  {c.id:<32} {weights[c.id]:6.1%}  {c.title}{unit}")
            lines.append(f"      reads {c.reads}; value {shape}; if missing: {policy}")
            lines.append(f"      source: {c.source}")
        lines.append("")
    if rubric.gates:
        lines.append("gates (knock-out, checked before scoring):")
        for g in rubric.gates:
            bound = " ".join(
                f"{k} {v}" for k, v in (("min", g.min), ("max", g.max), ("equals", g.equals))
                if v is not None
            )
            lines.append(f"  {g.id:<20} {g.reads} {bound}; if missing: {g.when_missing}")
            lines.append(f"      {g.why} [{g.source}]")
    return "\n".join(lines) + "\n"
