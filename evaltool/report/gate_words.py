"""The reasons of the rubric's knock-out gates, written from the values the gate read.

evaltool/score returns each gate's status and figures (the values of the metrics it read and
its `says` template states, by metric path); this module is the one place that turns them
into the reason shown in the JSON's `why`, the memo, the terminal and the exports. The words
of a reason come from the rubric (the gate's title, its `says` template and its `why`), the
numbers from the figures.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from evaltool.models import GateResult
from evaltool.score.rubric import SAYS_PLACEHOLDER, Gate, Rubric, is_number


def fill_says(template: str, figures: Mapping[str, Any]) -> str | None:
    """Fill "{derived.x:.0f}" from the figures; None when a value is not stated."""
    missing = False

    def sub(match: Any) -> str:
        nonlocal missing
        value = figures.get(match.group(1))
        if value is None:
            missing = True
            return ""
        try:
            return format(value, match.group(2) or "")
        except (TypeError, ValueError):
            return str(value)

    filled = SAYS_PLACEHOLDER.sub(sub, template)
    return None if missing else filled


def gate_why(result: GateResult, gate: Gate) -> str:
    """The gate's reason: not stated, or yes/no with what it found (the `says` template
    filled from the figures, else the metric's value and the gate's rationale)."""
    figures = result.figures
    value = figures.get(gate.reads)
    if value is None:
        return f"{gate.title}: not stated in the offer" + (
            " (cannot be verified)" if result.status == "unverified" else ""
        )
    answer = "yes" if result.status == "pass" else "no"
    found = fill_says(gate.says, figures) if gate.says else None
    if found:  # the rubric says in words what it found: that is the reason
        return f"{gate.title}: {answer}, {found}."
    shown = f"{value:.3g}" if is_number(value) else str(value)
    metric = gate.reads.split(".")[-1]
    return f"{gate.title}: {answer} ({metric} = {shown}). {gate.why}"


def gates_with_words(results: Sequence[GateResult], rubric: Rubric) -> list[GateResult]:
    """Each gate result with its reason written (a gate the rubric does not hold keeps its
    own `why`)."""
    gates = {g.id: g for g in rubric.gates}
    return [
        r.model_copy(update={"why": gate_why(r, gates[r.gate])}) if r.gate in gates else r
        for r in results
    ]
