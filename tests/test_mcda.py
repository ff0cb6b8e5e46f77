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
    ahp_global_priorities,
    ahp_priorities,
    discrete_level_value,
    electre_i,
    normalize_weights,
    pairwise_matrix,
    piecewise_linear_value,
    piecewise_linear_values,
    price_points_between_bounds,
    price_points_linear_from_lowest,
    price_points_relative_to_lowest,
    promethee_ii,
    rank_order_centroid_weights,
    rank_scores,
    spotis,
    topsis,
    vikor,
    weighted_additive,
    weighted_product,
    weighted_sum,
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


def test_r4_weighted_sum_with_cost_inversion_kracka_2010() -> None:
    # mcda-procurement.md §3 R4; scikit-criteria test_WeightedSumModel_kracka2010ranking.
    matrix = [
        [33.95, 23.78, 11.45, 39.97, 29.44, 167.10, 3.852],
        [38.90, 4.17, 6.32, 0.01, 4.29, 132.52, 25.184],
        [37.59, 9.36, 8.23, 4.35, 10.22, 136.71, 10.845],
        [30.44, 37.59, 13.91, 74.08, 45.10, 198.34, 2.186],
        [36.21, 14.79, 9.17, 17.77, 17.06, 148.30, 6.610],
        [37.80, 8.55, 7.97, 2.35, 9.25, 134.83, 11.935],
    ]
    benefit = [False, False, False, False, True, False, True]
    scores = weighted_sum(matrix, [20] * 7, benefit, normalization="sum")
    expected = [0.12040426, 0.3458235, 0.13838192, 0.12841246, 0.12346084, 0.14351701]
    np.testing.assert_allclose(scores, expected, atol=1e-8)
    assert rank_scores(scores).tolist() == [6, 1, 3, 4, 5, 2]


def test_r5_weighted_product_log10_form_enwiki() -> None:
    # mcda-procurement.md §3 R5; scikit-criteria test_WeightedProductModel_enwiki_1015567716.
    matrix = [[25, 20, 15, 30], [10, 30, 20, 30], [30, 10, 30, 10]]
    scores = weighted_product(matrix, [20, 15, 40, 25], [True] * 4, normalization="sum")
    np.testing.assert_allclose(np.log10(scores), [-0.50128589, -0.50448471, -0.52947246], atol=1e-8)
    # Pairwise-ratio form (recomputed in the note): P(A1/A2) = 1.007 etc.
    assert scores[0] / scores[1] == pytest.approx(1.007, abs=TOL)
    assert scores[0] / scores[2] == pytest.approx(1.067, abs=TOL)
    assert scores[1] / scores[2] == pytest.approx(1.059, abs=TOL)


def test_r6_weights_not_summing_to_one_are_renormalised_and_flagged() -> None:
    # mcda-procurement.md §3 R6 (negative test); pymcdm TestWSM / TestWPM "self-reference".
    # pymcdm's expected values use weights summing to 2 with validation disabled; evaltool
    # renormalises (and reports it), so WSM scores are half of them and WPM scores their
    # square root. Ranks are unchanged.
    matrix = [[96, 83, 75, 7], [63, 5, 56, 9], [72, 30, 32, 48], [11, 4, 27, 9], [77, 21, 17, 11]]
    weights = np.array([8, 5, 6, 7]) / 13
    benefit = [True, True, False, False]
    check = normalize_weights(weights)
    assert check.renormalized and check.original_sum == pytest.approx(2.0)
    assert check.weights.sum() == pytest.approx(1.0)
    wsm_pymcdm = [0.609, 0.313, 0.334, 0.265, 0.479]
    wpm_pymcdm = [0.065, 0.017, 0.019, 0.007, 0.052]
    wsm = weighted_sum(matrix, weights, benefit, normalization="sum")
    np.testing.assert_allclose(2 * wsm, wsm_pymcdm, atol=TOL)
    assert rank_scores(wsm).tolist() == rank_scores(wsm_pymcdm).tolist()
    wpm = weighted_product(matrix, weights, benefit, normalization="sum")
    np.testing.assert_allclose(wpm**2, wpm_pymcdm, atol=TOL)
    assert not normalize_weights([0.25, 0.25, 0.5]).renormalized


def test_r7_promethee_ii_linear_preference_papathanasiou_ploskas_2018() -> None:
    # mcda-procurement.md §3 R7; pyrepo-mcda Test_PROMETHEE_II; pymcdm 'vshape_2', q=1, p=2.
    result = promethee_ii(
        PAPATHANASIOU_MATRIX, PAPATHANASIOU_WEIGHTS, [True] * 4, "linear", q=1, p=2
    )
    np.testing.assert_allclose(result.phi, [-0.26, -0.52, -0.22, 0.36, 0.70, -0.06], atol=TOL)
    np.testing.assert_allclose(result.phi_plus, [0.28, 0.14, 0.22, 0.52, 0.78, 0.26], atol=TOL)
    np.testing.assert_allclose(result.phi_minus, [0.54, 0.66, 0.44, 0.16, 0.08, 0.32], atol=TOL)
    assert result.ranks.tolist() == [5, 6, 4, 2, 1, 3]


def test_r8_promethee_ii_usual_preference_zhao_peng_li_2013() -> None:
    # mcda-procurement.md §3 R8; pymcdm TestPROMETHEE_II (Zhao, Peng & Li 2013).
    result = promethee_ii([[4, 3, 2], [3, 2, 4], [5, 1, 3]], [0.5, 0.3, 0.2], [True] * 3)
    np.testing.assert_allclose(result.phi, [0.1, -0.3, 0.2], atol=TOL)


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


def test_r10_spotis_ideal_and_expected_solution_point_dezert_2020() -> None:
    # mcda-procurement.md §3 R10; pyrepo-mcda Test_SPOTIS (ideal), pymcdm TestSPOTIS2 (ESP).
    # Our ideal-point scores are 0.47795, 0.57812, 0.55575, 0.58013: the note's 4-decimal
    # figures differ in the last digit only by half-way rounding (0.5558 vs 0.55575),
    # inside the 1e-3 tolerance (pyrepo-mcda itself compares at 3 decimals).
    ideal = spotis(SPOTIS_MATRIX, SPOTIS_WEIGHTS, SPOTIS_BOUNDS, SPOTIS_BENEFIT)
    np.testing.assert_allclose(ideal.scores, [0.4779, 0.5781, 0.5558, 0.5801], atol=TOL)
    assert ideal.ranks.tolist() == [1, 3, 2, 4]
    esp = spotis(
        SPOTIS_MATRIX,
        SPOTIS_WEIGHTS,
        SPOTIS_BOUNDS,
        SPOTIS_BENEFIT,
        reference=[15300, 4, 115, 50, 900],
    )
    np.testing.assert_allclose(esp.scores, [0.1841, 0.0734, 0.0842, 0.1920], atol=TOL)
    assert int(np.argmin(esp.scores)) == 1
    # Declared bounds: removing a bid leaves the others' scores untouched.
    fewer = spotis(SPOTIS_MATRIX[:3], SPOTIS_WEIGHTS, SPOTIS_BOUNDS, SPOTIS_BENEFIT)
    np.testing.assert_array_equal(fewer.scores, ideal.scores[:3])


def test_spotis_rejects_values_outside_declared_bounds() -> None:
    with pytest.raises(McdaError, match=r"matrix\[0, 0\].*13000.*14000"):
        spotis([[13000, 4, 99, 42, 737]], SPOTIS_WEIGHTS, SPOTIS_BOUNDS, SPOTIS_BENEFIT)


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


def test_r11_ahp_drinks_saaty_2008() -> None:
    # mcda-procurement.md §3 R11; AHPy tests/test_ahp.py::test_drinks_* (Saaty 2008).
    matrix = pairwise_matrix(DRINKS, DRINK_JUDGMENTS)
    result = ahp_priorities(matrix, random_index="saaty")
    expected = [0.1164, 0.1775, 0.1288, 0.1896, 0.0418, 0.3268, 0.0191]
    np.testing.assert_allclose(result.weights, expected, atol=1e-4)
    assert result.lambda_max == pytest.approx(7.1766, abs=1e-4)
    assert result.consistency_index == pytest.approx(0.0294, abs=1e-4)
    assert result.random_index == 1.32
    assert result.consistency_ratio == pytest.approx(0.022, abs=TOL)
    assert result.consistent is True
    dd = ahp_priorities(matrix, random_index="donegan-dodd")
    assert dd.consistency_ratio == pytest.approx(0.0235, abs=1e-4)


def test_r11_ahp_inconsistent_matrix_is_flagged_wang_chin_2011() -> None:
    # mcda-procurement.md §3 R11; pymcdm test_weights.py::TestAHPWeights (Wang & Chin 2011).
    matrix: list[list[float]] = [
        [1, 4, 3, 1, 3, 4],
        [1 / 4, 1, 7, 3, 1 / 5, 1],
        [1 / 3, 1 / 7, 1, 1 / 5, 1 / 5, 1 / 6],
        [1, 1 / 3, 5, 1, 1, 1 / 3],
        [1 / 3, 5, 5, 1, 1, 3],
        [1 / 4, 1, 6, 3, 1 / 3, 1],
    ]
    result = ahp_priorities(matrix)
    np.testing.assert_allclose(
        result.weights, [0.3208, 0.1395, 0.0348, 0.1285, 0.2374, 0.1391], atol=1e-4
    )
    assert result.lambda_max == pytest.approx(7.4199, abs=1e-4)
    assert result.consistency_ratio == pytest.approx(0.229, abs=TOL)
    assert result.consistent is False  # CR > 0.1: evaltool must warn


def test_r11_ahp_hierarchy_papathanasiou_ploskas_2018() -> None:
    # mcda-procurement.md §3 R11 "full hierarchy"; pyrepo-mcda Test_AHP (matrices from there).
    criteria: list[list[float]] = [
        [1, 1, 5, 3],
        [1, 1, 5, 3],
        [1 / 5, 1 / 5, 1, 1 / 3],
        [1 / 3, 1 / 3, 3, 1],
    ]
    weights = ahp_priorities(criteria).weights
    np.testing.assert_allclose(weights, [0.3899, 0.3899, 0.0679, 0.1524], atol=1e-4)
    pcm1: list[list[float]] = [
        [1, 5, 1, 1, 1 / 3, 3],
        [1 / 5, 1, 1 / 3, 1 / 5, 1 / 7, 1],
        [1, 3, 1, 1 / 3, 1 / 5, 1],
        [1, 5, 3, 1, 1 / 3, 3],
        [3, 7, 5, 3, 1, 7],
        [1 / 3, 1, 1, 1 / 3, 1 / 7, 1],
    ]
    pcm2: list[list[float]] = [
        [1, 7, 3, 1 / 3, 1 / 3, 1 / 3],
        [1 / 7, 1, 1 / 3, 1 / 7, 1 / 9, 1 / 7],
        [1 / 3, 3, 1, 1 / 5, 1 / 5, 1 / 5],
        [3, 7, 5, 1, 1, 1],
        [3, 9, 5, 1, 1, 1],
        [3, 7, 5, 1, 1, 1],
    ]
    pcm3: list[list[float]] = [
        [1, 1 / 9, 1 / 7, 1 / 9, 1, 1 / 5],
        [9, 1, 1, 1, 5, 3],
        [7, 1, 1, 1, 5, 1],
        [9, 1, 1, 1, 7, 3],
        [1, 1 / 5, 1 / 5, 1 / 7, 1, 1 / 3],
        [5, 1 / 3, 1, 1 / 3, 3, 1],
    ]
    pcm4: list[list[float]] = [
        [1, 1 / 5, 1 / 5, 1 / 3, 1 / 7, 1 / 5],
        [5, 1, 1, 3, 1 / 3, 1],
        [5, 1, 1, 1, 1 / 3, 1],
        [3, 1 / 3, 1, 1, 1 / 7, 1],
        [7, 3, 3, 7, 1, 5],
        [5, 1, 1, 1, 1 / 5, 1],
    ]
    global_priorities = ahp_global_priorities(weights, [pcm1, pcm2, pcm3, pcm4])
    np.testing.assert_allclose(
        global_priorities, [0.117, 0.071, 0.095, 0.212, 0.350, 0.155], atol=TOL
    )


def test_ahp_judgments_must_be_complete_and_reciprocal() -> None:
    partial = dict(DRINK_JUDGMENTS)
    del partial[("milk", "tea")]
    with pytest.raises(McdaError, match=r"missing.*'milk'.*'tea'"):
        pairwise_matrix(DRINKS, partial)
    with pytest.raises(McdaError, match="reciprocal"):
        ahp_priorities([[1, 3], [3, 1]])


def test_r12_electre_i_concordance_discordance_kernel_cebrian_porcar_2009() -> None:
    # mcda-procurement.md §3 R12; scikit-criteria tests/agg/test_electre.py (full matrices
    # copied from there). The matrix is sum-scaled per column first, as in that test.
    raw = np.array(
        [
            [6, 5, 28, 5, 5],
            [4, 2, 25, 10, 9],
            [5, 7, 35, 9, 6],
            [6, 1, 27, 6, 7],
            [6, 8, 30, 7, 9],
            [5, 6, 26, 4, 8],
        ],
        dtype=float,
    )
    result = electre_i(
        raw / raw.sum(axis=0), [0.25, 0.25, 0.10, 0.20, 0.20], [True, True, False, True, True]
    )
    nan = np.nan
    concordance = [
        [nan, 0.50, 0.35, 0.50, 0.35, 0.45],
        [0.50, nan, 0.50, 0.75, 0.50, 0.50],
        [0.65, 0.50, nan, 0.45, 0.20, 0.70],
        [0.75, 0.25, 0.55, nan, 0.35, 0.45],
        [0.90, 0.70, 0.80, 0.90, nan, 0.90],
        [0.55, 0.50, 0.55, 0.55, 0.10, nan],
    ]
    discordance = [
        [nan, 0.5052, 0.4042, 0.1883, 0.42857, 0.2825],
        [0.4286, nan, 0.7143, 0.2589, 0.8571, 0.5714],
        [0.1696, 0.2825, nan, 0.1938, 0.2825, 0.2180],
        [0.5714, 0.4042, 0.8571, nan, 1.0, 0.7143],
        [0.0485, 0.3031, 0.2021, 0.0727, nan, 0.0969],
        [0.1295, 0.6063, 0.5052, 0.2021, 0.3031, nan],
    ]
    np.testing.assert_allclose(result.concordance, concordance, atol=TOL)
    np.testing.assert_allclose(result.discordance, discordance, atol=TOL)
    assert result.kernel == (4,)  # {A5} with the defaults p = 0.65, q = 0.35


def test_r13_saw_ratio_to_best_rizan_2020() -> None:
    # mcda-procurement.md §3 R13; pyrepo-mcda Test_SAW (Rizan et al. 2020), x/max.
    matrix = [
        [0.75, 0.50, 0.75, 0, 0, 0, 1],
        [0.75, 1, 0.75, 0, 0, 0, 0.75],
        [0.75, 0.75, 0.75, 0, 0.50, 0.25, 1],
        [0.50, 0.50, 0.75, 1, 0.50, 0, 0.75],
    ]
    weights = [0.1, 0.1, 0.1, 0.15, 0.2, 0.25, 0.1]
    scores = weighted_sum(matrix, weights, [True] * 7, normalization="max")
    np.testing.assert_allclose(scores, [0.35, 0.375, 0.825, 0.641667], atol=1e-6)


def test_r14_tender_price_formulas_negometrix_and_ccs() -> None:
    # mcda-procurement.md §3 R14: Negometrix "Low bid scoring formula" worked example.
    price_points = price_points_relative_to_lowest([10_000, 8_000], max_points=70)
    np.testing.assert_allclose(price_points, [56, 70])
    totals = np.array([40 + 30 + 20, 32 + 20 + 22]) + price_points
    np.testing.assert_allclose(totals, [146, 144])  # A wins
    # Crown Commercial Service Digital Marketplace example (cheapest / quote).
    np.testing.assert_allclose(
        price_points_relative_to_lowest([15_000, 10_000, 30_000], 1),
        [0.667, 1, 0.333],
        atol=TOL,
    )
    # Linear deviation from lowest: a 25 % dearer bid scores 25 % less (§4.3 table).
    np.testing.assert_allclose(price_points_linear_from_lowest([100, 125, 250], 40), [40, 30, 0])


def test_relative_price_scoring_reverses_ranks_absolute_scoring_does_not() -> None:
    # mcda-procurement.md §4.3: quality 60 x Q/Q_max, price 40 x P_min/P_i. Adding C, a
    # clear loser, flips the winner from B to A. With absolute scoring (quality/100, price
    # linear between declared 50 and 150) A = 68 and B = 70 with or without C (C = 54).
    quality, price = np.array([80.0, 70.0, 30.0]), np.array([100.0, 80.0, 60.0])

    def relative(n: int) -> np.ndarray:
        q, p = quality[:n], price[:n]
        return 60 * q / q.max() + price_points_relative_to_lowest(p, 40)

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
    np.testing.assert_allclose(price_points_between_bounds(price, 50, 150, 40), [20, 28, 36])


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


def test_r15_rank_order_centroid_weights_barron_barrett_1996() -> None:
    # mcda-procurement.md §3 R15: w_i = (1/n) sum_{k=i..n} 1/k.
    np.testing.assert_allclose(rank_order_centroid_weights(3), [0.6111, 0.2778, 0.1111], atol=1e-4)
    np.testing.assert_allclose(
        rank_order_centroid_weights(4), [0.5208, 0.2708, 0.1458, 0.0625], atol=1e-4
    )


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
    electre = electre_i([[1, 2], [2, 1]], [0.5, 0.5], [True, True]).to_dict()
    assert electre["concordance"][0][0] is None  # NaN diagonal -> null
