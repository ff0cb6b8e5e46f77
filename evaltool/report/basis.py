"""What the report rests on: its date, inputs, rubric, workload and settings."""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Mapping
from typing import Any

from evaltool.models import ScoreReport, Workload
from evaltool.report import fmt
from evaltool.report.picks import _get
from evaltool.report.rubric_table import criterion_rows


def as_of_date(report: ScoreReport) -> str:
    """The date the report rests on: the scorer's `as_of`, else SOURCE_DATE_EPOCH, else today.

    A date taken from the inputs keeps the output byte-stable; today's date is the last resort.
    """
    for key in ("as_of", "date", "generated_on", "price_date"):
        found = report.assumptions.get(key)
        if found:
            return fmt.clean_text(found, 40)
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "")
    if epoch.isdigit():
        return dt.datetime.fromtimestamp(int(epoch), tz=dt.UTC).date().isoformat()
    return dt.date.today().isoformat()


def _plural(n: int, word: str, words: str | None = None) -> str:
    return f"{n} {word if n == 1 else (words or word + 's')}"


def default_workload_note(workload: Workload) -> str:
    """What the run used when no workload was given, from the workload it loaded:
    "no workload given: used the bundled default workload (70B dense pretraining, 2T tokens)"."""
    shape = "MoE" if workload.active_params_b else "dense"
    about = [f"{workload.params_b:g}B {shape} {workload.kind}"]
    tokens = workload.tokens_b
    if tokens:
        about.append(f"{tokens / 1000:g}T tokens" if tokens >= 1000 else f"{tokens:g}B tokens")
    return f"no workload given: used the bundled default workload ({', '.join(about)})"


def inputs_line(report: ScoreReport) -> str:
    """"6 offer files, 1 workload file, 1 rates file; 6 offers evaluated" from
    assumptions.inputs, falling back on the offers and inputs not evaluated."""
    given = report.assumptions.get("inputs")
    given = given if isinstance(given, Mapping) else {}
    offer_files = given.get("offers")
    if isinstance(offer_files, list):
        n_files = len(offer_files)
    else:
        n_files = len({str(_get(o.source, "file") or o.id) for o in report.offers}
                      | {str(_get(n.source, "file")) for n in report.not_evaluated})
    parts = [_plural(n_files, "offer file")]
    workload = given.get("workload")
    if isinstance(workload, str) and workload:
        from_file = "/" in workload or workload.lower().endswith((".yaml", ".yml"))
        parts.append("1 workload file" if from_file else "the bundled default workload")
    fx_files = given.get("fx_files")
    if isinstance(fx_files, list) and fx_files:
        parts.append(_plural(len(fx_files), "rates file"))
    rubric = given.get("rubric")
    if isinstance(rubric, str) and ("/" in rubric or rubric.lower().endswith((".yaml", ".yml"))):
        parts.append("1 rubric file")
    done = _plural(len(report.offers), "offer") + " evaluated"
    if report.not_evaluated:
        done += f", {len(report.not_evaluated)} not evaluated"
    return f"{', '.join(parts)}; {done}"


def input_files(report: ScoreReport) -> list[str]:
    files = {fmt.clean_text(_get(o.source, "file"), 160) for o in report.offers}
    for key in ("offers", "fx_files"):
        listed = _get(report.assumptions, "inputs", key)
        if isinstance(listed, list):
            files |= {fmt.clean_text(f, 160) for f in listed}
    for key in ("workload", "rubric"):
        named = _get(report.assumptions, "inputs", key)
        if isinstance(named, str) and "/" in named:
            files.add(fmt.clean_text(named, 160))
    files |= {fmt.clean_text(_get(n.source, "file"), 160) for n in report.not_evaluated}
    return sorted(f for f in files if f)


def basis_rows(report: ScoreReport, as_of: str) -> list[tuple[str, str]]:
    rubric = report.rubric
    name = fmt.clean_text(rubric.get("name"), 60) or "unnamed rubric"
    version = fmt.clean_text(rubric.get("version"), 20)
    rubric_text = f"{name} v{version}" if version else name
    if rubric.get("title"):
        rubric_text += f" — {fmt.clean_text(rubric['title'], 100)}"
    wl = report.workload
    wl_parts = [fmt.clean_text(wl.get("name"), 60) or "unnamed workload"]
    if fmt.as_number(wl.get("params_b")) is not None:
        wl_parts.append(f"{fmt.number(wl['params_b'])}B parameters")
    if fmt.as_number(wl.get("tokens_b")) is not None:
        wl_parts.append(f"{fmt.number(wl['tokens_b'])}B tokens")
    if fmt.as_number(wl.get("deadline_days")) is not None:
        wl_parts.append(f"deadline {fmt.days(wl['deadline_days'])}")
    if fmt.as_number(wl.get("cost_of_delay_usd_per_day")):
        wl_parts.append(f"delay costs {fmt.usd(wl['cost_of_delay_usd_per_day'])}/day")
    rows = [
        ("Date", as_of),
        ("Inputs", inputs_line(report)),
        ("Rubric", rubric_text),
        ("Workload", ", ".join(wl_parts)),
    ]
    seed = _first(_get(report.sensitivity, "smaa", "seed"), report.sensitivity.get("seed"),
                  report.assumptions.get("seed"), report.assumptions.get("smaa_seed"))
    samples = _first(_get(report.sensitivity, "smaa", "draws"),
                     report.sensitivity.get("samples"), report.assumptions.get("smaa_draws"),
                     report.assumptions.get("smaa_samples"))
    if samples is not None or seed is not None:
        text = f"{fmt.count(samples)} weightings sampled, seed {fmt.clean_text(seed, 30)}"
        model = _get(report.sensitivity, "smaa", "weight_model")
        if model:
            text += f" ({fmt.clean_text(model, 80)})"
        rows.append(("Sensitivity", text))
    rows.append(("Tool", f"evaltool {fmt.clean_text(report.evaltool_version, 30)}"))
    if report.generated_for:
        rows.append(("Prepared for", fmt.clean_text(report.generated_for, 80)))
    return rows


def _first(*values: Any) -> Any:
    """The first value that is not None (0 is a real seed)."""
    return next((v for v in values if v is not None), None)


def flatten(data: Any, prefix: str = "") -> list[tuple[str, str]]:
    rows: list[tuple[str, str]] = []
    if isinstance(data, Mapping):
        for key in sorted(data, key=str):
            name = f"{prefix}.{key}" if prefix else str(key)
            item = data[key]
            if isinstance(item, Mapping) and item:
                rows.extend(flatten(item, name))
            else:
                rows.append((fmt.clean_text(name, 80), fmt.clean_text(fmt.any_value(item), 300)))
    return rows


def rubric_rows(report: ScoreReport) -> tuple[
    list[tuple[str, str]], list[tuple[str, str]], list[list[str]]
]:
    rubric = report.rubric
    head = [
        (fmt.label(k).capitalize(), fmt.clean_text(fmt.any_value(rubric[k]), 400))
        for k in sorted(rubric, key=str)
        if k not in ("categories", "criteria", "gates") and not isinstance(rubric[k], list)
    ]
    gates = rubric.get("gates")
    if isinstance(gates, list) and gates:
        head.append(("Gates", "; ".join(fmt.clean_text(fmt.any_value(g), 200) for g in gates)))
    cats = rubric.get("categories")
    categories = (
        [(fmt.category(str(k)), fmt.pct(v)) for k, v in cats.items()]
        if isinstance(cats, Mapping) else []
    )
    criteria = [
        [fmt.clean_text(r.criterion, 80), fmt.category(r.category), fmt.pct(r.weight, 1),
         r.direction, fmt.clean_text(r.bounds, 160), fmt.clean_text(r.unit, 40),
         fmt.clean_text(r.source, 300)]
        for r in criterion_rows(rubric)
    ] if rubric.get("criteria") else []
    return head, categories, criteria
