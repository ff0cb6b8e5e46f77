"""Sensitivity of the weighted-additive decision: what the memo says about robustness.

Oracles: mcda-procurement.md §5 (break-even and input break-even worked checks) and
§3 R15 (analytic SMAA cases, rank-order-centroid weights). Properties (hypothesis)
follow the test plan in §6.13.
"""

from __future__ import annotations

import json
import math
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from evaltool.decide.mcda import (
    McdaError,
    rank_scores,
    weighted_additive,
)
from evaltool.decide.sensitivity import (
    BreakEven,
    apply_weight_change,
    clarification_priority,
    dominance,
    intervals_from_mask,
    invert_piecewise_linear,
    margin,
    pareto_frontier,
    rank_intervals,
    smaa,
    tornado,
    value_gain_to_win,
    weight_break_evens,
)
from evaltool.decide.weight_draws import (
    relative_weight_bands,
    sample_ordinal_weights,
    sample_weights_in_bands,
)

unit = st.floats(min_value=0.0, max_value=1.0, allow_nan=False, allow_subnormal=False)
positive_weight = st.floats(min_value=0.01, max_value=1.0, allow_nan=False)


@st.composite
def problems(draw: st.DrawFn, min_alt: int = 2) -> tuple[np.ndarray, np.ndarray]:
    """A values table [n_alt, n_crit] in 0..1 and positive weights."""
    n_alt = draw(st.integers(min_alt, 6))
    n_crit = draw(st.integers(1, 5))
    values = draw(arrays(np.float64, (n_alt, n_crit), elements=unit))
    weights = draw(arrays(np.float64, (n_crit,), elements=positive_weight))
    return values, weights


# --------------------------------------------------------------------------- properties


@given(problems(), st.data())
def test_improving_a_value_never_lowers_the_offers_rank(
    problem: tuple[np.ndarray, np.ndarray], data: st.DataObject
) -> None:
    values, weights = problem
    alt = data.draw(st.integers(0, values.shape[0] - 1))
    crit = data.draw(st.integers(0, values.shape[1] - 1))
    better = values.copy()
    better[alt, crit] = data.draw(st.floats(values[alt, crit], 1.0))
    before = rank_scores(weighted_additive(values, weights))[alt]
    after = rank_scores(weighted_additive(better, weights))[alt]
    assert after <= before


@given(problems(min_alt=1), arrays(np.float64, (5,), elements=unit))
def test_adding_an_offer_never_changes_the_others_scores(
    problem: tuple[np.ndarray, np.ndarray], extra: np.ndarray
) -> None:
    values, weights = problem
    new_row = extra[: values.shape[1]]
    scores = weighted_additive(values, weights)
    with_new = weighted_additive(np.vstack([values, new_row]), weights)
    np.testing.assert_array_equal(with_new[:-1], scores)  # bit for bit


@given(problems(), st.randoms(use_true_random=False))
def test_row_order_does_not_matter(
    problem: tuple[np.ndarray, np.ndarray], rnd: random.Random
) -> None:
    values, weights = problem
    perm = np.array(rnd.sample(range(values.shape[0]), values.shape[0]))
    scores = weighted_additive(values, weights)
    np.testing.assert_array_equal(weighted_additive(values[perm], weights), scores[perm])
    np.testing.assert_array_equal(rank_scores(scores[perm]), rank_scores(scores)[perm])


@given(problems())
def test_applying_a_reported_break_even_produces_a_tie(
    problem: tuple[np.ndarray, np.ndarray],
) -> None:
    values, weights = problem
    for be in weight_break_evens(values, weights):
        for shift in (be.increase, be.decrease):
            if shift is None:
                continue
            assert 0.0 <= shift.to_weight <= 1.0
            moved = apply_weight_change(weights, be.criterion, shift.to_weight)
            scores = weighted_additive(values, moved)
            assert abs(scores[be.winner] - scores[shift.new_winner]) <= 1e-9
            assert scores[be.winner] >= scores.max() - 1e-9  # nobody else got ahead first


@given(problems(), st.data())
def test_value_gain_to_win_produces_a_tie(
    problem: tuple[np.ndarray, np.ndarray], data: st.DataObject
) -> None:
    values, weights = problem
    alt = data.draw(st.integers(0, values.shape[0] - 1))
    crit = data.draw(st.integers(0, values.shape[1] - 1))
    gain = value_gain_to_win(values, weights, alt, crit)
    scores = weighted_additive(values, weights)
    if gain is None:
        # Not reachable on this criterion alone: even a perfect value stays behind.
        best = values.copy()
        best[alt, crit] = 1.0
        assert weighted_additive(best, weights)[alt] < scores.max()
        return
    improved = values.copy()
    improved[alt, crit] = min(values[alt, crit] + gain, 1.0)
    new_scores = weighted_additive(improved, weights)
    assert new_scores[alt] == pytest.approx(scores.max(), abs=1e-9)


@settings(max_examples=30, deadline=None)
@given(problems(), st.integers(0, 2**32 - 1))
def test_smaa_same_seed_same_numbers_and_win_probabilities_sum_to_one(
    problem: tuple[np.ndarray, np.ndarray], seed: int
) -> None:
    values, weights = problem
    bands = relative_weight_bands(weights, 0.3)
    first = smaa(values, weights, bands, n_draws=500, seed=seed, extra_outputs=True)
    second = smaa(values, weights, bands, n_draws=500, seed=seed, extra_outputs=True)
    for name in ("rank_acceptability", "win_probability", "central_weights", "pairwise_winning"):
        np.testing.assert_array_equal(getattr(first, name), getattr(second, name))
    assert json.dumps(first.to_dict()) == json.dumps(second.to_dict())
    assert first.win_probability.sum() == pytest.approx(1.0, abs=1e-12)
    np.testing.assert_allclose(first.rank_acceptability.sum(axis=0), 1.0)
    np.testing.assert_allclose(first.rank_acceptability.sum(axis=1), 1.0)


@settings(max_examples=40, deadline=None)
@given(
    arrays(np.float64, st.integers(2, 8), elements=positive_weight),
    st.floats(0.0, 0.9),
    st.integers(0, 1000),
)
def test_sampled_weights_stay_in_their_bands_and_sum_to_one(
    weights: np.ndarray, relative: float, seed: int
) -> None:
    bands = relative_weight_bands(weights, relative)
    draws, rate, _ = sample_weights_in_bands(bands, 300, np.random.default_rng(seed))
    assert draws.shape == (300, weights.size)
    assert 0 < rate <= 1
    np.testing.assert_allclose(draws.sum(axis=1), 1.0, atol=1e-12)
    assert (draws >= bands[:, 0] - 1e-12).all() and (draws <= bands[:, 1] + 1e-12).all()


@given(problems(), st.data())
def test_rank_intervals_contain_every_rank_the_missing_values_allow(
    problem: tuple[np.ndarray, np.ndarray], data: st.DataObject
) -> None:
    values, weights = problem
    mask = data.draw(arrays(np.bool_, values.shape))
    intervals = rank_intervals(np.where(mask, np.nan, values), weights, mask)
    filled = np.where(mask, data.draw(arrays(np.float64, values.shape, elements=unit)), values)
    ranks = rank_scores(weighted_additive(filled, weights))
    for (best, worst), rank in zip(intervals, ranks, strict=True):
        assert best <= rank <= worst
    if not mask.any():
        assert [b for b, _ in intervals] == rank_scores(weighted_additive(values, weights)).tolist()
        assert all(b == w for b, w in intervals)


@given(
    arrays(np.float64, st.integers(1, 12), elements=st.floats(0, 100, allow_subnormal=False)),
    st.data(),
)
def test_pareto_frontier_keeps_exactly_the_undominated(
    cost: np.ndarray, data: st.DataObject
) -> None:
    time = data.draw(
        arrays(np.float64, cost.shape, elements=st.floats(0, 100, allow_subnormal=False))
    )
    frontier = set(pareto_frontier(cost, time))

    def dominated(a: int) -> bool:
        return any(
            cost[b] <= cost[a] and time[b] <= time[a] and (cost[b] < cost[a] or time[b] < time[a])
            for b in range(cost.size)
        )

    assert frontier == {a for a in range(cost.size) if not dominated(a)}


# --------------------------------------------------------------------------- oracles


def test_break_even_worked_check_from_the_notes() -> None:
    # mcda-procurement.md §5.2: V = [[0.9, 0.4, 0.7], [0.6, 0.9, 0.5]], w = (0.5, 0.3, 0.2)
    # gives 0.71 / 0.67; delta*_2 = 0.08 before renormalisation, i.e. weights
    # (0.463, 0.352, 0.185) and a tie at 0.687 / 0.687: "B overtakes A if network weight
    # rises from 30 % to 35 % (others scaled down proportionally)".
    values = [[0.9, 0.4, 0.7], [0.6, 0.9, 0.5]]
    weights = [0.5, 0.3, 0.2]
    np.testing.assert_allclose(weighted_additive(values, weights), [71, 67])
    network = weight_break_evens(values, weights)[1]
    assert isinstance(network, BreakEven)
    assert network.winner == 0 and network.decrease is None
    assert network.increase is not None
    assert network.increase.new_winner == 1
    assert network.increase.to_weight == pytest.approx(0.38 / 1.08, abs=1e-12)
    moved = apply_weight_change(weights, 1, network.increase.to_weight)
    np.testing.assert_allclose(moved, [0.463, 0.352, 0.185], atol=1e-3)
    np.testing.assert_allclose(weighted_additive(values, moved), [68.7, 68.7], atol=0.01)
    assert network.nearest == network.increase


def test_break_even_flags_whether_it_lies_inside_the_weight_band() -> None:
    values = [[0.9, 0.4, 0.7], [0.6, 0.9, 0.5]]
    weights = [0.5, 0.3, 0.2]
    network = weight_break_evens(values, weights, relative_weight_bands(weights, 0.2))[1]
    assert network.increase is not None
    assert network.increase.within_band is True  # 0.352 <= 0.36
    narrow = weight_break_evens(values, weights, relative_weight_bands(weights, 0.1))[1]
    assert narrow.increase is not None and narrow.increase.within_band is False


def test_price_cut_to_win_worked_check_from_the_notes() -> None:
    # mcda-procurement.md §5.3: margin 0.05, price weight 0.4, linear value on declared
    # bounds 50-150 -> B needs a 12.5-unit price cut.
    price_value = [(50.0, 1.0), (150.0, 0.0)]
    values = [[0.5, 0.6], [0.5, 0.6 - 0.05 / 0.6]]  # both priced at 100
    weights = [0.4, 0.6]
    m = margin(weighted_additive(values, weights))
    assert (m.winner, m.runner_up) == (0, 1)
    assert m.margin_points == pytest.approx(5.0)
    gain = value_gain_to_win(values, weights, alt=1, crit=0)
    assert gain is not None and gain == pytest.approx(0.125)
    price = invert_piecewise_linear(0.5 + gain, price_value)
    assert price is not None and 100 - price == pytest.approx(12.5)
    assert value_gain_to_win(values, weights, alt=0, crit=0) == 0.0


def test_invert_piecewise_linear_picks_the_least_demanding_level() -> None:
    mfu = [(0.30, 0.0), (0.45, 0.8), (0.55, 1.0)]
    assert invert_piecewise_linear(0.8, mfu) == pytest.approx(0.45)
    assert invert_piecewise_linear(0.9, mfu) == pytest.approx(0.50)
    assert invert_piecewise_linear(1.2, mfu) is None
    saturating_price = [(50.0, 1.0), (100.0, 0.5), (120.0, 0.5), (150.0, 0.0)]
    assert invert_piecewise_linear(0.5, saturating_price) == 120.0  # highest price still 0.5
    assert invert_piecewise_linear(0.5, saturating_price, current_x=110.0) == 110.0
    target = [(0.0, 0.0), (5.0, 1.0), (10.0, 0.0)]
    with pytest.raises(McdaError, match="not monotone"):
        invert_piecewise_linear(0.5, target)
    assert invert_piecewise_linear(0.5, target, current_x=9.0) == pytest.approx(7.5)


def test_margin_names_winner_runner_up_and_tie() -> None:
    m = margin([61.0, 70.5, 69.0])
    assert m.astuple() == (1, 2, pytest.approx(1.5))
    assert not m.statistical_tie
    assert margin([61.0, 70.5, 69.0], tie_threshold_points=2.0).statistical_tie
    assert margin([50.0]).astuple() == (0, None, None)
    assert margin([50.0, 50.0]).astuple() == (0, 1, 0.0)  # ties go to input order


def test_smaa_two_criteria_analytic_four_sevenths() -> None:
    # mcda-procurement.md §3 R15: weights uniform on the simplex (bands 0..1), A = (0.8, 0.3),
    # B = (0.4, 0.6): A wins iff w1 > 3/7, so P(A first) = 4/7. Monte Carlo within 3 sigma.
    n = 20_000
    result = smaa([[0.8, 0.3], [0.4, 0.6]], [0.5, 0.5], [[0, 1], [0, 1]], n_draws=n, seed=7,
                  extra_outputs=True)
    sigma = math.sqrt((4 / 7) * (3 / 7) / n)
    assert abs(result.win_probability[0] - 4 / 7) < 3 * sigma
    # Central weights: A wins when w1 > 3/7, so its mean w1 is (3/7 + 1)/2 = 5/7.
    assert result.central_weights is not None and result.pairwise_winning is not None
    assert result.central_weights[0, 0] == pytest.approx(5 / 7, abs=0.01)
    assert result.pairwise_winning[0, 1] == pytest.approx(result.win_probability[0])


def test_smaa_three_criteria_symmetric_case_is_one_half() -> None:
    # mcda-procurement.md §3 R15: A = (1, 0, 0.5), B = (0, 1, 0.5): acceptability 0.5.
    n = 20_000
    result = smaa([[1, 0, 0.5], [0, 1, 0.5]], [1 / 3] * 3, [[0, 1]] * 3, n_draws=n, seed=11)
    assert abs(result.win_probability[0] - 0.5) < 3 * math.sqrt(0.25 / n)


def roc_weights(n: int) -> np.ndarray:
    """Rank-order-centroid weights, w_i = (1/n) sum_{k=i..n} 1/k (Barron & Barrett 1996)."""
    inverse = 1.0 / np.arange(1, n + 1)
    return np.cumsum(inverse[::-1])[::-1] / n


def test_ordinal_weight_draws_average_to_rank_order_centroid() -> None:
    # mcda-procurement.md §3 R15: sorted uniform-simplex draws have mean = ROC weights.
    for n_crit in (3, 4):
        draws = sample_ordinal_weights(40_000, n_crit, np.random.default_rng(3))
        assert (np.diff(draws, axis=1) <= 0).all()
        se = draws.std(axis=0) / math.sqrt(draws.shape[0])
        assert (np.abs(draws.mean(axis=0) - roc_weights(n_crit)) < 4 * se).all()


def test_uniform_then_renormalise_would_not_match_the_oracle() -> None:
    # Why the sampler is exact: with bands (0, 1) our draws are uniform on the simplex
    # (P(w1 > 3/7) = 4/7 = 0.571), while uniform-then-renormalise gives 0.625.
    draws, _, _ = sample_weights_in_bands([[0, 1], [0, 1]], 20_000, np.random.default_rng(0))
    assert (draws[:, 0] > 3 / 7).mean() == pytest.approx(4 / 7, abs=0.015)


def test_smaa_with_missing_values_spreads_the_uncertain_offer() -> None:
    values = np.array([[0.7, 0.7], [0.9, np.nan]])
    mask = np.array([[False, False], [False, True]])
    result = smaa(
        values, [0.5, 0.5], [[0.4, 0.6], [0.4, 0.6]], n_draws=4000, seed=1, missing_intervals=mask
    )
    # B's unknown value is uniform on 0..1: B wins when 0.9 w1 + u w2 > 0.7, about half.
    assert 0.3 < result.win_probability[1] < 0.7
    explicit = smaa(
        values,
        [0.5, 0.5],
        [[0.4, 0.6], [0.4, 0.6]],
        n_draws=4000,
        seed=1,
        missing_intervals=intervals_from_mask(values, mask),
    )
    np.testing.assert_array_equal(explicit.win_probability, result.win_probability)


def test_smaa_refuses_weights_outside_their_bands_and_infeasible_bands() -> None:
    with pytest.raises(McdaError, match=r"weights\[0\].*outside its band"):
        smaa([[0.5, 0.5]], [0.9, 0.1], [[0.2, 0.6], [0.4, 0.8]])
    with pytest.raises(McdaError, match="no weights summing to 1"):
        smaa([[0.5, 0.5]], [0.5, 0.5], [[0.6, 0.7], [0.6, 0.7]])


def test_dominance_lists_pairs_that_are_no_worse_anywhere_and_better_somewhere() -> None:
    values = [[0.9, 0.8], [0.5, 0.8], [0.9, 0.8], [1.0, 0.1]]
    assert dominance(values) == [(0, 1), (2, 1)]


def test_pareto_frontier_on_cost_and_time() -> None:
    cost = [10.0, 12.0, 9.0, 15.0, 9.0]
    time = [30.0, 20.0, 40.0, 20.0, 45.0]
    # 4 is dominated by 2 (same cost, slower); 3 by 1 (dearer, same time).
    assert pareto_frontier(cost, time) == [2, 0, 1]


def test_rank_intervals_worked_example() -> None:
    # C's storage score is unknown: it could be 1st or 3rd; A and B are each pushed down
    # by C only if C's answer is good.
    values = np.array([[0.8, 0.6], [0.7, 0.6], [0.9, np.nan]])
    mask = np.isnan(values)
    assert rank_intervals(values, [0.5, 0.5], mask) == [(1, 2), (2, 3), (1, 3)]


def test_clarification_priority_puts_decision_relevant_questions_first() -> None:
    values = np.array([[0.8, 0.6, 0.5], [0.7, np.nan, 0.5], [0.1, 0.2, np.nan]])
    mask = np.isnan(values)
    items = clarification_priority(values, [0.4, 0.4, 0.2], mask)
    assert [(c.alt, c.crit) for c in items] == [(1, 1), (2, 2)]
    first, second = items
    assert first.could_change_winner and first.winner_if_best == 1
    assert first.swing_points == pytest.approx(40.0)
    assert not second.could_change_winner  # C cannot catch up whatever it answers
    assert json.loads(json.dumps(first.to_dict()))["swing_points"] == 40.0


def test_tornado_orders_weights_by_swing_and_flags_crossings() -> None:
    values = [[0.9, 0.4, 0.7], [0.6, 0.9, 0.5]]
    weights = [0.5, 0.3, 0.2]
    bars = tornado(values, weights, relative_weight_bands(weights, 0.2))
    # Hand check, compute weight at 40 %: weights (0.4, 0.36, 0.24), A = 67.2, B = 68.4.
    assert [b.criterion for b in bars] == [0, 1, 2]
    compute, network, storage = bars
    assert compute.margin_at_low_points == pytest.approx(-1.2)
    assert compute.margin_at_high_points == pytest.approx(9.2)
    assert network.crosses_zero  # the network break-even (35.2 %) lies inside 24-36 %
    assert network.margin_at_low_points > 0 > network.margin_at_high_points
    assert not storage.crosses_zero


def test_bad_inputs_name_the_argument() -> None:
    with pytest.raises(McdaError, match=r"missing_mask: .*expected booleans of shape \(2, 2\)"):
        rank_intervals([[0.5, 0.5], [0.5, 0.5]], [0.5, 0.5], [[0, 1], [1, 0]])
    with pytest.raises(McdaError, match=r"values\[0, 1\]: found NaN on a cell not marked missing"):
        rank_intervals([[0.5, np.nan]], [0.5, 0.5], np.zeros((1, 2), dtype=bool))
    with pytest.raises(McdaError, match="alt: found 5"):
        value_gain_to_win([[0.5, 0.5]], [0.5, 0.5], 5, 0)
    with pytest.raises(McdaError, match=r"weight_bands\[1\]"):
        smaa([[0.5, 0.5]], [0.5, 0.5], [[0.4, 0.6], [0.7, 0.6]])


def test_break_evens_are_not_invented_between_identical_offers() -> None:
    # Two identical offers: no weight change separates them, so no break-even is invented.
    values = [[0.5, 0.5], [0.5, 0.5]]
    assert all(
        be.increase is None and be.decrease is None for be in weight_break_evens(values, [0.5, 0.5])
    )


def test_narrow_bands_mixed_with_free_weights_fall_back_to_hit_and_run() -> None:
    # Half the weights free (0..1), half within +/-20 %: both exact proposals accept
    # almost nothing, so the sampler switches to hit-and-run and still honours the bands.
    weights = np.full(30, 1 / 30)
    bands = relative_weight_bands(weights, 0.2)
    bands[:15] = [0.0, 1.0]
    draws, _, method = sample_weights_in_bands(bands, 2000, np.random.default_rng(0))
    assert method == "hit-and-run"
    np.testing.assert_allclose(draws.sum(axis=1), 1.0, atol=1e-12)
    assert (draws >= bands[:, 0] - 1e-12).all() and (draws <= bands[:, 1] + 1e-12).all()


def test_hit_and_run_matches_the_exact_sampler() -> None:
    from evaltool.decide.weight_draws import _hit_and_run

    weights = np.random.default_rng(5).dirichlet(np.ones(12))
    bands = relative_weight_bands(weights, 0.2)
    exact, _, method = sample_weights_in_bands(bands, 40_000, np.random.default_rng(1))
    assert method == "rejection (exact)"
    chain = _hit_and_run(np.random.default_rng(0), bands[:, 0], bands[:, 1], 40_000)
    sd = exact.std(axis=0)
    assert (np.abs(chain.mean(axis=0) - exact.mean(axis=0)) < 0.1 * sd).all()
    np.testing.assert_allclose(chain.std(axis=0) / sd, 1.0, atol=0.03)
