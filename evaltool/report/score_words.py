"""The words of the score stage: the reasons of the knock-out gates and the notes of the
criteria an offer left without a value.

evaltool/score returns each gate's status and figures (the values of the metrics it read and
its `says` template states, by metric path) and each criterion's treatment when it has no
value; this module is the one place that turns them into the reason shown in the JSON's
`why`, the memo, the terminal and the exports. The words of a reason come from the rubric
(the gate's title, its `says` template and its `why`), the numbers from the figures.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from evaltool.models import CriterionScore, GateResult
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


# How a criterion without a value was scored, in words (CriterionScore.treatment).
TREATMENT_NOTES: dict[str, str] = {
    "not_applicable": ("does not apply to a purchase; left out and its weight shared by the "
                       "others"),
    "neutral": "not stated; left out and its weight shared by the others",
    "worst": "not stated; scored at the worst plausible value",
    "unverified": "not stated; unverified, scored at the worst value until answered",
}


def criteria_with_words(criteria: Sequence[CriterionScore]) -> list[CriterionScore]:
    """Each criterion score with the note on how a missing value was treated."""
    return [
        c.model_copy(update={"note": TREATMENT_NOTES[c.treatment]})
        if c.treatment in TREATMENT_NOTES else c
        for c in criteria
    ]
