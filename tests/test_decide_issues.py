"""A decision method refuses what it cannot use with a registered issue (``mcda-*`` codes in
evaltool/data/issues/decide.yaml): each says which argument and entry, what was found and
what was expected, and ``evaltool explain CODE`` describes it.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable

import numpy as np
import pytest
from click.testing import CliRunner

from evaltool.cli import cli
from evaltool.decide import mcda, sensitivity, weight_draws
from evaltool.decide.mcda import McdaError
from evaltool.errors import UsageError
from evaltool.issues import issue_type, issue_types

LINEAR = [(1.0, 0.0), (2.0, 1.0)]
TWO_BY_TWO = [[0.5, 0.5], [0.5, 0.5]]
NO_MASK = np.zeros((2, 2), dtype=bool)

# Each call a library caller could get wrong, the code it is refused with, and the words.
CASES: list[tuple[str, Callable[[], object], str]] = [
    ("mcda-not-numeric", lambda: mcda.as_matrix([["a"]]),
     "matrix: found a non-numeric entry (could not convert string to float: 'a'), "
     "expected numbers"),
    ("mcda-table-shape", lambda: mcda.as_matrix([1, 2]),
     "matrix: found shape (2,), expected a 2-D table [alternatives x criteria] with at least "
     "one row and one column"),
    ("mcda-not-finite", lambda: mcda.as_matrix([[1, math.inf]]),
     "matrix[0, 1]: found inf, expected a finite number"),
    ("mcda-value-outside-0-1", lambda: mcda.as_values([[0.5], [1.2]]),
     "values[1, 0]: found 1.2, expected a value in 0..1 (apply the criterion's value "
     "function first)"),
    ("mcda-weights-shape", lambda: mcda.normalize_weights([[1]]),
     "weights: found shape (1, 1), expected a 1-D list of weights"),
    ("mcda-weights-count", lambda: mcda.normalize_weights([1, 2], 3),
     "weights: found 2 weights, expected one per criterion (3)"),
    ("mcda-weight-negative", lambda: mcda.normalize_weights([1, -2]),
     "weights[1]: found -2.0, expected a finite weight >= 0"),
    ("mcda-weights-all-zero", lambda: mcda.normalize_weights([0, 0]),
     "weights: all weights are 0, expected at least one positive weight"),
    ("mcda-directions-count", lambda: mcda.as_benefit([True], 2),
     "benefit: found 1 directions, expected one per criterion (2)"),
    ("mcda-directions-not-boolean", lambda: mcda.as_benefit(np.array([1, 0], dtype=np.int64), 2),
     "benefit: found dtype int64, expected booleans (True = more is better, False = less is "
     "better)"),
    ("mcda-unknown-option", lambda: mcda.topsis([[1, 2]], [1, 1], [True, True], "l2"),
     "normalization: found 'l2', expected one of 'vector', 'minmax', 'max', 'sum'"),
    ("mcda-points-unreadable", lambda: mcda.piecewise_linear_value(1, [(1, "a"), (2, 3)]),
     "points: could not convert string to float: 'a'; expected a list of (x, value) pairs"),
    ("mcda-points-shape", lambda: mcda.piecewise_linear_value(1, [(1, 0)]),
     "points: found shape (1, 2), expected at least two (x, value) pairs"),
    ("mcda-points-not-increasing", lambda: mcda.piecewise_linear_value(1, [(2, 0), (1, 1)]),
     "points[1]: found x = 1.0 after 2.0, expected x strictly increasing"),
    ("mcda-point-value-outside-0-1", lambda: mcda.piecewise_linear_value(1, [(1, 0), (2, 2)]),
     "points[1]: found value 2.0, expected a value in 0..1"),
    ("mcda-points-not-monotone",
     lambda: sensitivity.invert_piecewise_linear(0.5, [(0, 0), (5, 1), (10, 0)]),
     "points: the value function is not monotone (a target criterion); pass current_x to "
     "choose which side to move towards"),
    ("mcda-x-missing", lambda: mcda.piecewise_linear_values([1, math.nan], LINEAR),
     "x[1]: found NaN, expected a number (a missing value has its own policy)"),
    ("mcda-levels-empty", lambda: mcda.discrete_level_value("a", {}),
     "levels: empty, expected at least one level -> value"),
    ("mcda-level-value-outside-0-1", lambda: mcda.discrete_level_value("a", {"a": 2}),
     "levels['a']: found 2, expected a value in 0..1"),
    ("mcda-unknown-level", lambda: mcda.discrete_level_value("z", {"a": 1, "b": 0}),
     "level: found 'z', expected one of ['a', 'b']"),
    ("mcda-vikor-strategy-weight", lambda: mcda.vikor([[1, 2]], [1, 1], [True, True], v=2),
     "v: found 2, expected a strategy weight in 0..1"),
    ("mcda-mask-shape",
     lambda: sensitivity.rank_intervals(TWO_BY_TWO, [0.5, 0.5],
                                    np.array([[0, 1], [1, 0]], dtype=np.int64)),
     "missing_mask: found shape (2, 2) dtype int64, expected booleans of shape (2, 2) "
     "(True = value unknown)"),
    ("mcda-nan-not-marked-missing",
     lambda: sensitivity.rank_intervals([[0.5, math.nan]], [0.5, 0.5], NO_MASK[:1]),
     "values[0, 1]: found NaN on a cell not marked missing, expected a value in 0..1 or "
     "missing_mask[i, j] = True"),
    ("mcda-criterion-index", lambda: sensitivity.apply_weight_change([0.5, 0.5], 2, 0.3),
     "crit: found 2, expected a criterion index 0..1"),
    ("mcda-offer-index", lambda: sensitivity.value_gain_to_win([[0.5, 0.5]], [0.5, 0.5], 5, 0),
     "alt: found 5, expected an offer index 0..0"),
    ("mcda-new-weight", lambda: sensitivity.apply_weight_change([0.5, 0.5], 0, 1.5),
     "new_weight: found 1.5, expected a weight in 0..1"),
    ("mcda-weight-cannot-rescale", lambda: sensitivity.apply_weight_change([1, 0], 0, 0.5),
     "weights[0]: is 1, the other weights are all 0 and cannot be rescaled proportionally"),
    ("mcda-no-scores", lambda: sensitivity.margin([]),
     "scores: found none, expected at least one finite score"),
    ("mcda-draws-count", lambda: sensitivity.smaa(TWO_BY_TWO, [0.5, 0.5], [[0, 1], [0, 1]],
                                                  n_draws=0),
     "n_draws: found 0, expected at least 1"),
    ("mcda-intervals-shape",
     lambda: sensitivity.smaa(TWO_BY_TWO, [0.5, 0.5], [[0, 1], [0, 1]],
                              missing_intervals=[[0.1, 0.2]]),
     "missing_intervals: found shape (1, 2), expected (2, 2, 2): (low, high) per value"),
    ("mcda-interval-reversed",
     lambda: sensitivity.smaa([[0.5]], [1], [[0, 1]], missing_intervals=[[[0.6, 0.4]]]),
     "missing_intervals[0, 0]: found low 0.6 > high 0.4, expected low <= high"),
    ("mcda-nan-without-interval",
     lambda: sensitivity.smaa([[math.nan]], [1], [[0, 1]], missing_intervals=[[[0.3, 0.3]]]),
     "values[0, 0]: NaN without an interval (found low = high = 0.3, expected low < high)"),
    ("mcda-weight-outside-band",
     lambda: sensitivity.smaa(TWO_BY_TWO, [0.5, 0.5], [[0.6, 0.8], [0.2, 0.4]]),
     "weights[0]: found 0.5, outside its band (0.6, 0.8)"),
    ("mcda-ranks-shape", lambda: sensitivity.pairwise_winning_indices([1, 2]),
     "ranks: found shape (2,), expected [n_samples, n_alt]"),
    ("mcda-time-count", lambda: sensitivity.pareto_frontier([1, 2], [1]),
     "time: found 1 values, expected one per offer (2)"),
    ("mcda-bands-shape", lambda: weight_draws._as_bands([[0, 1]], 2),
     "weight_bands: found shape (1, 2), expected (2, 2): (low, high) per criterion"),
    ("mcda-band-invalid", lambda: weight_draws._as_bands([[0.4, 0.6], [0.7, 0.6]], 2),
     "weight_bands[1]: found (0.7, 0.6), expected 0 <= low <= high <= 1"),
    ("mcda-bands-infeasible", lambda: weight_draws._as_bands([[0.6, 0.7], [0.6, 0.7]], 2),
     "weight_bands: the lows sum to 1.2 and the highs to 1.4; no weights summing to 1 fit "
     "(expected lows <= 1 <= highs)"),
    ("mcda-relative-negative", lambda: weight_draws.relative_weight_bands([0.5, 0.5], -0.1),
     "relative: found -0.1, expected >= 0"),
]


@pytest.mark.parametrize(("code", "call", "text"), CASES, ids=[c[0] for c in CASES])
def test_a_bad_argument_is_refused_with_its_code_and_the_facts(
        code: str, call: Callable[[], object], text: str) -> None:
    with pytest.raises(McdaError) as raised:
        call()
    assert (raised.value.code, str(raised.value)) == (code, text)
    assert isinstance(raised.value, UsageError) and raised.value.exit_code == 2


@pytest.mark.parametrize(("name", "call", "text"), [
    ("scores", lambda: mcda.rank_scores([1, math.nan]), "scores[1]: found nan"),
    ("points", lambda: mcda.piecewise_linear_value(1, [(1, 0), (math.inf, 1)]),
     "points[1, 0]: found inf"),
    ("cost", lambda: sensitivity.pareto_frontier([1, math.nan], [1, 2]), "cost[1]: found nan"),
    ("v", lambda: sensitivity.invert_piecewise_linear(math.inf, LINEAR), "v: found inf"),
    ("weight_bands", lambda: weight_draws._as_bands([[0, math.inf]], 1),
     "weight_bands[0, 1]: found inf"),
    ("a NaN allowed, an infinity not", lambda: mcda.as_matrix([[math.nan, -math.inf]],
                                                             allow_nan=True),
     "matrix[0, 1]: found -inf"),
])
def test_a_nan_or_an_infinity_is_named_by_its_entry(
        name: str, call: Callable[[], object], text: str) -> None:
    with pytest.raises(McdaError) as raised:
        call()
    assert raised.value.code == "mcda-not-finite"
    assert str(raised.value) == f"{text}, expected a finite number", name


def test_every_decision_method_code_has_a_case_above() -> None:
    mcda_codes = {code for code in issue_types() if code.startswith("mcda-")}
    assert mcda_codes == {code for code, _, _ in CASES}
    assert all(issue_type(code).stage == "decide" for code in mcda_codes)


@pytest.mark.parametrize("code", sorted({c[0] for c in CASES}))
def test_explain_describes_each_decision_method_code(code: str) -> None:
    result = CliRunner().invoke(cli, ["explain", code])
    assert result.exit_code == 0, result.output
    kind = issue_type(code)
    assert kind.title in result.output and kind.description in result.output
    assert f"message:  {kind.message}" in result.output
    data = json.loads(CliRunner().invoke(cli, ["explain", code, "--format", "json"]).output)
    assert data["message"] == kind.message and data["severity"] == "error"
