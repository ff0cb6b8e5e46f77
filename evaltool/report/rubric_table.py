"""The rubric as a table a reader can check: one row per criterion, every column filled.

Read from the rubric models (`evaltool.score.rubric`), not guessed from a dict: the
direction and the bounds come from each criterion's value function, the weight in the
whole score from `Rubric.global_weights()`. Used by the XLSX "Rubric" sheet, the full
report's Appendix B and `evaltool rubric show --format csv|markdown|table`; `describe_rubric`
is the plain text of `evaltool rubric show`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from evaltool.score.rubric import Levels, LogScale, Rubric

NONE_STATED = "none stated"


@dataclass(frozen=True)
class CriterionRow:
    criterion: str  # the title, in words
    id: str
    category: str
    direction: str  # "higher is better", "lower is better", "best at …", "levels"
    bounds: str  # worst and best values with the points they earn
    unit: str
    weight_in_category: float
    weight: float  # share of the whole score, 0..1
    if_missing: str
    reads: str
    source: str


COLUMNS: tuple[tuple[str, str], ...] = (
    ("criterion", "Criterion"),
    ("id", "Criterion id"),
    ("category", "Category"),
    ("direction", "Direction"),
    ("bounds", "Bounds (value → points of 100)"),
    ("unit", "Unit"),
    ("weight_in_category", "Weight in category (%)"),
    ("weight", "Weight in score (%)"),
    ("if_missing", "If not stated"),
    ("reads", "Reads"),
    ("source", "Source"),
)


def _num(x: float) -> str:
    return f"{x:,.4g}" if abs(x) < 1e6 else f"{x:,.0f}"


def _shape(c: Any) -> tuple[str, str]:
    vf = c.value_function
    if isinstance(vf, Levels):
        levels = sorted(vf.levels.items(), key=lambda kv: -kv[1])
        words = {"true": "yes", "false": "no"}
        text = ", ".join(f"{words.get(k, k)} → {v * 100:.0f}" for k, v in levels)
        if vf.default is not None:
            text += f"; anything else → {vf.default * 100:.0f}"
        return "levels (best first)", text
    points = list(vf.points)
    values = [v for _, v in points]
    bounds = ", ".join(f"{_num(x)} → {v * 100:.0f}" for x, v in points)
    if values == sorted(values) and values[0] < values[-1]:
        direction = "higher is better"
    elif values == sorted(values, reverse=True) and values[0] > values[-1]:
        direction = "lower is better"
    else:
        best = max(points, key=lambda p: p[1])[0]
        direction = f"best at {_num(best)}"
    return direction, bounds


def criterion_rows(rubric: Rubric | Mapping[str, Any]) -> list[CriterionRow]:
    """Every criterion of `rubric` (a model, or its JSON as stored in a ScoreReport)."""
    if isinstance(rubric, Rubric):
        model = rubric
    else:
        try:
            model = Rubric.model_validate(dict(rubric))
        except ValidationError:  # a report written by another version: read what it states
            return _rows_from_dict(rubric)
    weights = model.global_weights()
    local_totals: dict[str, float] = {}
    for c in model.criteria:
        local_totals[c.category] = local_totals.get(c.category, 0.0) + c.weight
    rows = []
    for c in model.criteria:
        direction, bounds = _shape(c)
        rows.append(CriterionRow(
            criterion=c.title, id=c.id, category=c.category, direction=direction,
            bounds=bounds,
            unit=c.unit or ("level" if isinstance(c.value_function, Levels) else "as read"),
            weight_in_category=round(c.weight / local_totals[c.category], 6),
            weight=round(weights[c.id], 6), if_missing=model.missing_policy(c), reads=c.reads,
            source=c.source or NONE_STATED,
        ))
    return rows


def _text(value: Any) -> str:
    if isinstance(value, list | tuple):
        return " to ".join(_num(v) if isinstance(v, int | float) else str(v) for v in value)
    return "" if value is None else str(value)


def _rows_from_dict(rubric: Mapping[str, Any]) -> list[CriterionRow]:
    items = [c for c in rubric.get("criteria") or [] if isinstance(c, Mapping)]
    total = sum(float(c.get("weight") or 0) for c in items) or 1.0
    rows = []
    for c in items:
        direction = {"higher": "higher is better", "lower": "lower is better"}.get(
            str(c.get("direction")), _text(c.get("direction")) or NONE_STATED)
        ident = _text(c.get("id") or c.get("name"))
        weight = float(c.get("weight") or 0)
        rows.append(CriterionRow(
            criterion=_text(c.get("title")) or ident, id=ident,
            category=_text(c.get("category")) or NONE_STATED, direction=direction,
            bounds=_text(c.get("bounds")) or NONE_STATED, unit=_text(c.get("unit")) or "as read",
            weight_in_category=round(weight, 6), weight=round(weight / total, 6),
            if_missing=_text(c.get("missing")) or _text(rubric.get("missing_default"))
            or NONE_STATED,
            reads=_text(c.get("reads")) or ident,
            source=_text(c.get("source") or rubric.get("citation")) or NONE_STATED,
        ))
    return rows


def criterion_table(rubric: Rubric | Mapping[str, Any]) -> tuple[list[str], list[list[Any]]]:
    """(headers, rows) with weights as percentages, for text outputs."""
    rows = [
        [r.criterion, r.id, r.category, r.direction, r.bounds, r.unit,
         round(r.weight_in_category * 100, 1), round(r.weight * 100, 1), r.if_missing,
         r.reads, r.source]
        for r in criterion_rows(rubric)
    ]
    return [title for _, title in COLUMNS], rows


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
            elif isinstance(vf, LogScale):
                shape = ("log scale on " + vf.anchor + ": "
                         + " → ".join(f"{m:g}×:{v:g}" for m, v in vf.points))
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
