"""Aggregation methods reproduce the literature's worked examples.

Every oracle below is copied from shared/research/mcda-procurement.md §3 (R1-R15), which
cites the original paper and the library test it comes from; tolerances are the ones the
note states (1e-3 absolute unless noted; sources quote 2-4 decimals).
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from evaltool.decide.mcda import (
    McdaError,
    discrete_level_value,
    normalize_weights,
    piecewise_linear_value,
    piecewise_linear_values,
    rank_scores,
    topsis,
    vikor,
    weighted_additive,
)
from evaltool.decide.sensitivity import pairwise_winning_indices
from evaltool.errors import EvaltoolError

TOL = 1e-3

# R1/R2: Tzeng & Huang (2011), "Multiple attribute decision making", all benefit.
TZENG_MATRIX = [[5, 8, 4], [7, 6, 8], [8, 8, 6], [7, 4, 6]]
TZENG_WEIGHTS = [0.3, 0.4, 0.3]

# R7/R9: Papathanasiou & Ploskas (2018), "Multiple Criteria Decision Aid", all benefit.
PAPATHANASIOU_MATRIX = [
    [8, 7, 2, 1],
    [5, 3, 7, 5],
    [7, 5, 6, 4],
    [9, 9, 7, 3],
    [11, 10, 3, 7],
    [6, 9, 5, 4],
]
PAPATHANASIOU_WEIGHTS = [0.4, 0.3, 0.1, 0.2]


def test_r1_topsis_vector_normalisation_tzeng_huang_2011() -> None:
    # mcda-procurement.md §3 R1; scikit-criteria tests/agg/test_topsis.py (Tzeng & Huang 2011).
    result = topsis(TZENG_MATRIX, TZENG_WEIGHTS, [True] * 3, normalization="vector")
    np.testing.assert_allclose(result.closeness, [0.5037, 0.6581, 0.7482, 0.3340], atol=TOL)
    np.testing.assert_allclose(
        result.closeness, [0.503720, 0.658085, 0.748249, 0.333997], atol=1e-6
    )
    assert result.ranks.tolist() == [3, 2, 1, 4]
    # Cross-check in R1: pymcdm's default min-max TOPSIS gives other numbers, same order.
    minmax = topsis(TZENG_MATRIX, TZENG_WEIGHTS, [True] * 3, normalization="minmax")
    np.testing.assert_allclose(minmax.closeness, [0.4853, 0.6484, 0.7768, 0.3630], atol=TOL)
    assert minmax.ranks.tolist() == [3, 2, 1, 4]


def test_r2_vikor_tzeng_huang_2011_compromise_set() -> None:
    # mcda-procurement.md §3 R2; scikit-criteria tests/agg/test_vikor.py::test_VIKOR.
    result = vikor(TZENG_MATRIX, TZENG_WEIGHTS, [True] * 3, v=0.5)
    np.testing.assert_allclose(result.s, [0.60, 0.30, 0.15, 0.65], atol=TOL)
    np.testing.assert_allclose(result.r, [0.30, 0.20, 0.15, 0.40], atol=TOL)
    np.testing.assert_allclose(result.q, [0.75, 0.25, 0.00, 1.00], atol=TOL)
    assert result.dq == pytest.approx(1 / 3)
    assert result.acceptable_advantage is False  # Q(A2) - Q(A3) = 0.25 < DQ
    assert result.acceptable_stability is True
    assert set(result.compromise_set) == {2, 1}
    assert result.ranks.tolist() == [2, 1, 1, 3]
    assert result.q_ranks.tolist() == [3, 2, 1, 4]


def test_r3_normalisation_changes_the_winner_opricovic_tzeng_2004() -> None:
    # mcda-procurement.md §3 R3; Opricovic & Tzeng (2004), EJOR 156(2). Risk (cost), Altitude.
    matrix = [[1, 3000], [2, 3750], [5, 4500]]
    benefit = [False, True]
    result = vikor(matrix, [0.5, 0.5], benefit, v=0.5)
    np.testing.assert_allclose(result.s, [0.5, 0.375, 0.5], atol=TOL)
    np.testing.assert_allclose(result.r, [0.5, 0.25, 0.5], atol=TOL)
    np.testing.assert_allclose(result.q, [1, 0, 1], atol=TOL)
    assert result.acceptable_advantage and result.acceptable_stability
    assert result.compromise_set == (1,)
    minmax = topsis(matrix, [0.5, 0.5], benefit, normalization="minmax")
    np.testing.assert_allclose(minmax.closeness, [0.500, 0.617, 0.500], atol=TOL)
    assert int(np.argmax(minmax.closeness)) == 1  # A2 wins with min-max
    vector = topsis(matrix, [0.5, 0.5], benefit, normalization="vector")
    np.testing.assert_allclose(vector.closeness, [0.7621, 0.7222, 0.2379], atol=TOL)
    assert int(np.argmax(vector.closeness)) == 0  # A1 wins with vector normalisation
    assert vector.normalization == "vector"  # recorded so the memo can say which


def test_r6_weights_not_summing_to_one_are_renormalised_and_flagged() -> None:
    # pymcdm TestWSM "self-reference" uses weights summing to 2 with validation disabled;
    # evaltool renormalises them and reports that it did.
    weights = np.array([8, 5, 6, 7]) / 13
    check = normalize_weights(weights)
    assert check.renormalized and check.original_sum == pytest.approx(2.0)
    assert check.weights.sum() == pytest.approx(1.0)
    assert not normalize_weights([0.25, 0.25, 0.5]).renormalized


def test_r9_vikor_v0625_papathanasiou_and_yang_wu_2020() -> None:
    # mcda-procurement.md §3 R9; pyrepo-mcda Test_VIKOR, pymcdm VIKOR(v=0.625) agrees.
    result = vikor(PAPATHANASIOU_MATRIX, PAPATHANASIOU_WEIGHTS, [True] * 4, v=0.625)
    np.testing.assert_allclose(result.q, [0.640, 1.000, 0.693, 0.271, 0.000, 0.694], atol=TOL)
    np.testing.assert_allclose(result.s, [0.6286, 0.7667, 0.6010, 0.3095, 0.0800, 0.5162], atol=TOL)
    np.testing.assert_allclose(result.r, [0.2, 0.4, 0.2667, 0.1333, 0.08, 0.3333], atol=TOL)
    # Second oracle: Yang & Wu (2020), equal weights; pymcdm TestVIKOR.test_output_yang.
    yang = [[78, 56, 34, 6], [4, 45, 3, 97], [18, 2, 50, 63], [9, 14, 11, 92], [85, 9, 100, 29]]
    result = vikor(yang, [0.25] * 4, [True] * 4)
    np.testing.assert_allclose(result.q, [0.5679, 0.7667, 1, 0.7493, 0], atol=TOL)


SPOTIS_MATRIX = [
    [15000, 4.3, 99, 42, 737],
    [15290, 5.0, 116, 42, 892],
    [15350, 5.0, 114, 45, 952],
    [15490, 5.3, 123, 45, 1120],
]
SPOTIS_WEIGHTS = [0.2941, 0.2353, 0.2353, 0.0588, 0.1765]
SPOTIS_BOUNDS = np.array([[14000, 3, 80, 35, 650], [16000, 8, 140, 60, 1300]]).T
SPOTIS_BENEFIT = [False, False, False, True, True]


DRINKS = ["beer", "coffee", "milk", "soda", "tea", "water", "wine"]
DRINK_JUDGMENTS = {
    ("coffee", "wine"): 9,
    ("coffee", "tea"): 5,
    ("coffee", "beer"): 2,
    ("coffee", "soda"): 1,
    ("coffee", "milk"): 1,
    ("water", "coffee"): 2,
    ("water", "wine"): 9,
    ("water", "tea"): 9,
    ("water", "beer"): 3,
    ("water", "soda"): 2,
    ("water", "milk"): 3,
    ("tea", "wine"): 3,
    ("beer", "wine"): 9,
    ("beer", "tea"): 3,
    ("beer", "milk"): 1,
    ("soda", "wine"): 9,
    ("soda", "tea"): 4,
    ("soda", "beer"): 2,
    ("soda", "milk"): 2,
    ("milk", "wine"): 9,
    ("milk", "tea"): 3,
}


def test_relative_price_scoring_reverses_ranks_absolute_scoring_does_not() -> None:
    # mcda-procurement.md §4.3: quality 60 x Q/Q_max, price 40 x P_min/P_i. Adding C, a
    # clear loser, flips the winner from B to A. With absolute scoring (quality/100, price
    # linear between declared 50 and 150) A = 68 and B = 70 with or without C (C = 54).
    quality, price = np.array([80.0, 70.0, 30.0]), np.array([100.0, 80.0, 60.0])

    def relative(n: int) -> np.ndarray:
        q, p = quality[:n], price[:n]
        return 60 * q / q.max() + 40 * p.min() / p  # the "low-bid" price formula

    np.testing.assert_allclose(relative(2), [92.0, 92.5])
    np.testing.assert_allclose(relative(3), [84.0, 82.5, 62.5])

    def absolute(n: int) -> np.ndarray:
        values = np.column_stack(
            [
                quality[:n] / 100,
                [piecewise_linear_value(p, [(50, 1), (150, 0)]) for p in price[:n]],
            ]
        )
        return weighted_additive(values, [60, 40])

    np.testing.assert_allclose(absolute(3), [68.0, 70.0, 54.0])
    np.testing.assert_array_equal(absolute(2), absolute(3)[:2])


def test_r15_piecewise_linear_value_functions_rsmaa_pvf() -> None:
    # mcda-procurement.md §3 R15; gertvv/rsmaa smaa/tests/pvf.R.
    assert piecewise_linear_value(0.1, [(-0.15, 0), (0.35, 1)]) == pytest.approx(0.5)
    assert piecewise_linear_value(0.35, [(-0.15, 0), (0.35, 1)]) == pytest.approx(1)
    assert piecewise_linear_value(75, [(50, 1), (100, 0)]) == pytest.approx(0.5)
    pvf3 = [(-0.15, 0), (0.0, 0.1), (0.25, 0.9), (0.35, 1)]
    assert piecewise_linear_value(0.1, pvf3) == pytest.approx(2 / 5 * 0.8 + 0.1)
    pvf4 = [(50, 1), (75, 0.8), (90, 0.5), (100, 0)]
    assert piecewise_linear_value(60, pvf4) == pytest.approx(1 - (2 / 5) * 0.2)
    np.testing.assert_allclose(piecewise_linear_values([50, 75, 90, 100], pvf4), [1, 0.8, 0.5, 0])
    outside = [10, 40, 101, 120]
    np.testing.assert_allclose(
        piecewise_linear_values(outside, pvf4, "interpolate"), [1.32, 1.08, -0.05, -1]
    )
    np.testing.assert_allclose(piecewise_linear_values(outside, pvf4, "clip"), [1, 1, 0, 0])


def test_r15_pairwise_winning_index_rsmaa_pwi() -> None:
    # mcda-procurement.md §3 R15; rsmaa smaa/tests/pwi.R: ten samples, A1 beats A2 in nine.
    ranks = np.array([[1, 2]] * 9 + [[2, 1]])
    pwi = pairwise_winning_indices(ranks)
    assert pwi[0, 1] == pytest.approx(0.9)
    assert pwi[1, 0] == pytest.approx(0.1)


# --------------------------------------------------------------------------- product model


def test_weighted_additive_scores_are_points_out_of_100() -> None:
    values = [[1.0, 0.0], [0.5, 0.5], [0.0, 1.0]]
    np.testing.assert_allclose(weighted_additive(values, [3, 1]), [75, 50, 25])


def test_weighted_additive_refuses_values_outside_0_to_1_naming_the_cell() -> None:
    with pytest.raises(McdaError, match=r"values\[1, 0\].*1\.2.*0\.\.1"):
        weighted_additive([[0.5, 0.5], [1.2, 0.1]], [0.5, 0.5])
    assert issubclass(McdaError, EvaltoolError)


@pytest.mark.parametrize(
    ("weights", "message"),
    [
        ([0.5, -0.1], r"weights\[1\].*-0\.1"),
        ([0.0, 0.0], "all weights are 0"),
        ([0.5, 0.3, 0.2], "3 weights.*one per criterion \\(2\\)"),
        ([0.5, float("nan")], r"weights\[1\]"),
    ],
)
def test_bad_weights_are_usage_errors_with_clear_messages(
    weights: list[float], message: str
) -> None:
    with pytest.raises(McdaError, match=message):
        weighted_additive([[0.5, 0.5]], weights)


def test_value_function_direction_comes_from_its_points() -> None:
    price = [(50.0, 1.0), (150.0, 0.0)]  # cost: cheaper is better
    mfu = [(0.30, 0.0), (0.45, 0.8), (0.55, 1.0)]  # benefit with diminishing returns
    assert piecewise_linear_value(40, price) == 1.0  # no credit beyond the objective
    assert piecewise_linear_value(125, price) == pytest.approx(0.25)
    assert piecewise_linear_value(0.5, mfu) == pytest.approx(0.9)
    with pytest.raises(McdaError, match="strictly increasing"):
        piecewise_linear_value(1, [(2, 0), (1, 1)])
    with pytest.raises(McdaError, match=r"points\[1\].*value 2"):
        piecewise_linear_value(1, [(0, 0), (2, 2)])


def test_discrete_levels_match_loosely_and_refuse_unknown_levels() -> None:
    levels = {"none": 0.0, "partial": 0.5, "full": 1.0}
    assert discrete_level_value("Partial ", levels) == 0.5
    with pytest.raises(McdaError, match=r"'sometimes'.*expected one of"):
        discrete_level_value("sometimes", levels)


def test_rank_scores_gives_tied_scores_the_same_rank() -> None:
    assert rank_scores([70, 80, 80, 10]).tolist() == [3, 1, 1, 4]
    assert rank_scores([0.2, 0.1], higher_is_better=False).tolist() == [2, 1]


def test_results_serialise_to_deterministic_json() -> None:
    result = vikor(TZENG_MATRIX, TZENG_WEIGHTS, [True] * 3)
    data = result.to_dict()
    assert data["compromise_set"] == [1, 2] or data["compromise_set"] == [2, 1]
    assert data["q"] == [0.75, 0.25, 0.0, 1.0]
    assert json.dumps(data, sort_keys=True) == json.dumps(
        vikor(TZENG_MATRIX, TZENG_WEIGHTS, [True] * 3).to_dict(), sort_keys=True
    )
