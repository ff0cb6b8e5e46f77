"""How robust is the recommendation? Sensitivity of a weighted-additive decision.

Everything here works on the product's primary model, V_i = sum_j w_j v_ij with v in
0..1 from absolute value functions and sum_j w_j = 1 (``evaltool.decide.mcda.weighted_additive``;
scores are reported in points, 0..100). Closed forms are used wherever they exist
(mcda-procurement.md §5): the margin, weight break-evens, the value gain an offer needs,
rank intervals for missing data; SMAA-2 (Lahdelma & Salminen 2001) is vectorised Monte
Carlo over the weight bands declared in the rubric.

Conventions: the winner is the highest score, ties broken by the lower row index (the
input order), so ``margin`` and break-evens are deterministic; ranks use competition
ranking (``evaltool.decide.mcda.rank_scores``) so tied offers share a rank.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from evaltool.decide.draws import (
    add_pairwise,
    central_weights,
    chunk_rows,
    top_ranks,
    uncertain_cells,
    uncertain_contribution,
)
from evaltool.decide.mcda import (
    TIE_TOLERANCE,
    BoolArray,
    FloatArray,
    McdaError,
    _as_float_array,
    _check_points,
    _not_finite,
    _ToDict,
    as_values,
    as_weights,
    piecewise_linear_value,
)
from evaltool.decide.weight_draws import (
    _as_bands,
    sample_weights_in_bands,
)
from evaltool.issues import Issue

# Bytes per array of one chunk of draws: cache-sized (2.5x faster than 16 MiB at 5,000 offers).
_CHUNK_BYTES = 2**20


# --------------------------------------------------------------------------- helpers


def _scores_unit(values: FloatArray, weights: FloatArray) -> FloatArray:
    """V = values @ w on the 0..1 scale (points / 100)."""
    return np.asarray((values * weights).sum(axis=1), dtype=np.float64)


def _winner(scores: FloatArray) -> int:
    """Highest score; ties go to the lower index (input order)."""
    return int(np.argmax(scores))


def _as_mask(mask: ArrayLike, shape: tuple[int, ...], name: str = "missing_mask") -> BoolArray:
    array = np.asarray(mask)
    if array.shape != shape or array.dtype != np.bool_:
        raise McdaError(Issue(None, code="mcda-mask-shape", params={
            "name": name, "shape": str(array.shape), "dtype": str(array.dtype),
            "expected_shape": str(shape)}))
    return array.astype(np.bool_)


def _known_values(values: ArrayLike, missing_mask: ArrayLike) -> tuple[FloatArray, BoolArray]:
    """Values where unknown cells may hold NaN; NaN outside the mask is an error."""
    v = as_values(values, allow_nan=True)
    mask = _as_mask(missing_mask, v.shape)
    stray = np.isnan(v) & ~mask
    if stray.any():
        i, j = (int(k) for k in np.argwhere(stray)[0])
        raise McdaError(Issue(None, code="mcda-nan-not-marked-missing",
                              params={"row": i, "column": j}))
    return v, mask


def apply_weight_change(weights: ArrayLike, crit: int, new_weight: float) -> FloatArray:
    """Set criterion ``crit``'s weight to ``new_weight`` and rescale the others
    proportionally so the weights still sum to 1: w'_j = w_j (1 - t)/(1 - w_k)."""
    w = _as_float_array(weights, "weights")
    w = as_weights(w, w.size)
    if not 0 <= crit < w.size:
        raise McdaError(Issue(None, code="mcda-criterion-index",
                              params={"found": repr(crit), "last": w.size - 1}))
    if not 0.0 <= new_weight <= 1.0:
        raise McdaError(Issue(None, code="mcda-new-weight", params={"found": repr(new_weight)}))
    rest = 1.0 - w[crit]
    if rest <= 0.0:
        if new_weight == 1.0:
            return w.copy()
        raise McdaError(Issue(None, code="mcda-weight-cannot-rescale", params={"index": crit}))
    out = w * ((1.0 - new_weight) / rest)
    out[crit] = new_weight
    return np.asarray(out, dtype=np.float64)


# --------------------------------------------------------------------------- margin


@dataclass(frozen=True)
class Margin(_ToDict):
    """Winner, runner-up and the gap between them in score points (0..100 scale)."""

    winner: int
    runner_up: int | None
    margin_points: float | None
    statistical_tie: bool

    def astuple(self) -> tuple[int, int | None, float | None]:
        return (self.winner, self.runner_up, self.margin_points)


def margin(scores: ArrayLike, tie_threshold_points: float = 0.0) -> Margin:
    """Decision margin: Delta = V_winner - V_runner-up (mcda-procurement.md §5.1).

    ``statistical_tie`` is True when Delta is below the rubric's declared tie threshold
    (e.g. 2 points; shma.co.uk "Tie-breakers") or exactly 0.
    """
    s = _as_float_array(scores, "scores").ravel()
    if s.size == 0:
        raise McdaError(Issue(None, code="mcda-no-scores"))
    error = _not_finite("scores", s)
    if error is not None:
        raise error
    order = np.argsort(-s, kind="stable")
    winner = int(order[0])
    if s.size == 1:
        return Margin(winner, None, None, False)
    runner_up = int(order[1])
    gap = float(s[winner] - s[runner_up])
    return Margin(winner, runner_up, gap, gap == 0.0 or gap < tie_threshold_points)


# --------------------------------------------------------------------------- weight break-evens


@dataclass(frozen=True)
class WeightShift(_ToDict):
    """Moving one weight to ``to_weight`` (others rescaled) makes ``new_winner`` tie."""

    to_weight: float
    new_winner: int
    within_band: bool | None


@dataclass(frozen=True)
class BreakEven(_ToDict):
    """Weight break-evens of one criterion, in each direction (None: no change in 0..1)."""

    criterion: int
    weight: float
    winner: int
    increase: WeightShift | None
    decrease: WeightShift | None

    @property
    def nearest(self) -> WeightShift | None:
        """The break-even closest to the current weight."""
        shifts = [s for s in (self.increase, self.decrease) if s is not None]
        if not shifts:
            return None
        return min(shifts, key=lambda s: abs(s.to_weight - self.weight))


def weight_break_evens(
    values: ArrayLike, weights: ArrayLike, weight_bands: ArrayLike | None = None
) -> list[BreakEven]:
    """For each criterion k, the weight at which the winner first ties a challenger.

    Weight k moves to t, the others are rescaled proportionally (w_j (1 - t)/(1 - w_k)),
    which is what people mean by "give X more importance"; for WSM it is equivalent to
    changing w_k alone and renormalising (Triantaphyllou & Sánchez 1997; §5.2). Each
    score is then linear in t: V_i(t) = t v_ik + (1 - t) R_i, R_i = (V_i - w_k v_ik)/(1 - w_k),
    so the winner W ties challenger C at t* = t0 - D/b, where D = V_W - V_C at t0 and
    b = (v_Wk - v_Ck) - (R_W - R_C). The nearest t* in [0, 1] on each side of t0 is
    reported with the challenger that takes over there. ``within_band`` says whether t*
    lies inside the criterion's weight band, when bands are given.
    """
    v = as_values(values)
    n_alt, n_crit = v.shape
    w = as_weights(weights, n_crit)
    bands = None if weight_bands is None else _as_bands(weight_bands, n_crit)
    scores = _scores_unit(v, w)
    winner = _winner(scores)
    result: list[BreakEven] = []
    for k in range(n_crit):
        t0 = float(w[k])
        rest = 1.0 - t0
        if rest <= 0.0 or n_alt < 2:
            result.append(BreakEven(k, t0, winner, None, None))
            continue
        r = (scores - t0 * v[:, k]) / rest
        others = np.array([i for i in range(n_alt) if i != winner])
        gap = scores[winner] - scores[others]  # >= 0
        slope = (v[winner, k] - v[others, k]) - (r[winner] - r[others])
        up: tuple[float, float, int] | None = None
        down: tuple[float, float, int] | None = None
        for c, d, b in zip(others, gap, slope, strict=True):
            if b == 0.0:
                continue
            t_star = t0 - d / b
            # Among equal t*, the steepest challenger is the one ahead just beyond t*.
            if b < 0 and t_star <= 1.0 + 1e-12:
                key = (t_star, b, int(c))
                if up is None or key < up:
                    up = key
            elif b > 0 and t_star >= -1e-12:
                key = (-t_star, -b, int(c))
                if down is None or key < down:
                    down = key
        increase = decrease = None
        if up is not None:
            t = float(min(max(up[0], 0.0), 1.0))
            increase = WeightShift(t, up[2], _within(bands, k, t))
        if down is not None:
            t = float(min(max(-down[0], 0.0), 1.0))
            decrease = WeightShift(t, down[2], _within(bands, k, t))
        result.append(BreakEven(k, t0, winner, increase, decrease))
    return result


def _within(bands: FloatArray | None, k: int, t: float) -> bool | None:
    if bands is None:
        return None
    return bool(bands[k, 0] - 1e-12 <= t <= bands[k, 1] + 1e-12)


# --------------------------------------------------------------------------- input break-evens


def value_gain_to_win(values: ArrayLike, weights: ArrayLike, alt: int, crit: int) -> float | None:
    """Criterion value (0..1) offer ``alt`` must gain on ``crit`` to tie the winner.

    Delta v = (V_W - V_alt)/w_crit (all else equal; §5.3). 0.0 for the winner itself;
    None when the weight is 0 or the gain would take the value above 1. Map the target
    value (values[alt, crit] + gain) back to units with ``invert_piecewise_linear``.
    """
    v = as_values(values)
    n_alt, n_crit = v.shape
    w = as_weights(weights, n_crit)
    if not 0 <= alt < n_alt:
        raise McdaError(Issue(None, code="mcda-offer-index",
                              params={"found": repr(alt), "last": n_alt - 1}))
    if not 0 <= crit < n_crit:
        raise McdaError(Issue(None, code="mcda-criterion-index",
                              params={"found": repr(crit), "last": n_crit - 1}))
    scores = _scores_unit(v, w)
    deficit = float(scores.max() - scores[alt])
    if deficit <= 0.0:
        return 0.0
    if w[crit] <= 0.0:
        return None
    gain = deficit / float(w[crit])
    if v[alt, crit] + gain > 1.0 + 1e-12:
        return None
    return gain


def invert_piecewise_linear(
    v: float, points: Sequence[tuple[float, float]], current_x: float | None = None
) -> float | None:
    """The x at which a piecewise-linear value function reaches value ``v``.

    Searches the declared domain [x_first, x_last]. Where v is reached on a flat stretch
    or at several places, returns: the solution nearest ``current_x`` if given; else for
    a non-decreasing function the smallest x, for a non-increasing one the largest x
    (the least demanding level: the lowest MFU, the highest price that still scores v).
    None when v is outside the function's range. A non-monotone function (a target
    criterion) needs ``current_x``.
    """
    xs, vs = _check_points(points)
    if not math.isfinite(v):
        raise McdaError(Issue(None, code="mcda-not-finite", params={"name": "v", "found": repr(v)}))
    lo, hi = float(vs.min()), float(vs.max())
    eps = 1e-12
    if v < lo - eps or v > hi + eps:
        return None
    v = min(max(v, lo), hi)
    solutions: list[float] = []
    for i in range(len(xs) - 1):
        x0, x1, v0, v1 = float(xs[i]), float(xs[i + 1]), float(vs[i]), float(vs[i + 1])
        if v0 == v1:
            if abs(v - v0) <= eps:
                solutions.extend((x0, x1))
            continue
        if min(v0, v1) - eps <= v <= max(v0, v1) + eps:
            t = (v - v0) / (v1 - v0)
            solutions.append(x0 + min(max(t, 0.0), 1.0) * (x1 - x0))
    if current_x is not None:
        # Within a flat stretch containing current_x, current_x itself is a solution.
        if abs(piecewise_linear_value(current_x, points) - v) <= eps and (
            xs[0] <= current_x <= xs[-1]
        ):
            return float(current_x)
        return min(solutions, key=lambda s: (abs(s - current_x), s))
    steps = np.diff(vs)
    if (steps >= 0).all():
        return min(solutions)
    if (steps <= 0).all():
        return max(solutions)
    raise McdaError(Issue(None, code="mcda-points-not-monotone"))


# --------------------------------------------------------------------------- tornado


@dataclass(frozen=True)
class TornadoBar(_ToDict):
    """Margin of the current winner over the best other offer at each end of a band."""

    criterion: int
    low_weight: float
    high_weight: float
    margin_at_low_points: float
    margin_at_high_points: float
    swing_points: float
    crosses_zero: bool


def tornado(values: ArrayLike, weights: ArrayLike, weight_bands: ArrayLike) -> list[TornadoBar]:
    """One-at-a-time weight sensitivity of the margin (§5.4), sorted by swing.

    For each criterion, its weight is set to the low and high end of its band (others
    rescaled proportionally) and the margin of the current winner over the best other
    offer is recomputed; a bar that crosses 0 is a decision-relevant weight.
    """
    v = as_values(values)
    _n_alt, n_crit = v.shape
    w = as_weights(weights, n_crit)
    bands = _as_bands(weight_bands, n_crit)
    winner = _winner(_scores_unit(v, w))

    def winner_margin(weights_now: FloatArray) -> float:
        s = _scores_unit(v, weights_now) * 100.0
        others = np.delete(s, winner)
        return float(s[winner] - others.max()) if others.size else 0.0

    bars = []
    for k in range(n_crit):
        if w[k] >= 1.0:
            continue
        low, high = float(bands[k, 0]), float(bands[k, 1])
        m_low = winner_margin(apply_weight_change(w, k, low))
        m_high = winner_margin(apply_weight_change(w, k, high))
        bars.append(
            TornadoBar(k, low, high, m_low, m_high, abs(m_high - m_low), min(m_low, m_high) < 0.0)
        )
    bars.sort(key=lambda b: (-b.swing_points, b.criterion))
    return bars


# --------------------------------------------------------------------------- SMAA-2


def intervals_from_mask(values: ArrayLike, missing_mask: ArrayLike) -> FloatArray:
    """Value intervals [n_alt, n_crit, 2]: [0, 1] where unknown, [v, v] where known."""
    v, mask = _known_values(values, missing_mask)
    lo = np.where(mask, 0.0, v)
    hi = np.where(mask, 1.0, v)
    return np.stack([lo, hi], axis=-1)


@dataclass(frozen=True)
class SmaaResult(_ToDict):
    """SMAA-2 results. ``rank_acceptability[i, r]``: share of draws where offer i is at
    rank r + 1 (ranks 1..min(ranks, offers) when ``smaa(ranks=...)`` limits them);
    ``win_probability`` is its first column; ``central_weights[i]`` the mean
    weights under which i wins (NaN row, None in JSON, if it never wins);
    ``pairwise_winning[i, j]`` the share of draws where i ranks above j."""

    n_draws: int
    seed: int
    weight_model: str
    acceptance_rate: float
    rank_acceptability: FloatArray
    win_probability: FloatArray
    central_weights: FloatArray | None  # None unless asked for (extra_outputs=True)
    pairwise_winning: FloatArray | None  # None unless asked for (extra_outputs=True)
    standard_error: float


def smaa(
    values: ArrayLike,
    weights: ArrayLike,
    weight_bands: ArrayLike,
    n_draws: int = 10_000,
    seed: int = 0,
    missing_intervals: ArrayLike | None = None,
    *,
    extra_outputs: bool = False,
    ranks: int | None = None,
) -> SmaaResult:
    """SMAA-2 on the additive model (Lahdelma & Salminen 2001; §5.5).

    Weights are drawn uniformly from the weight bands (``sample_weights_in_bands``); the
    elicited ``weights`` must lie inside them. Optional ``missing_intervals`` (shape
    [n_alt, n_crit, 2], or a boolean mask meaning [0, 1] where True) makes those values
    uniform within their interval, independently per draw. In each draw offers are
    ranked by score (ties to the lower index; exact ties only occur between offers with
    identical rows). Fully vectorised; numpy's PCG64 generator seeded with ``seed``, so
    the same inputs and seed give the same numbers bit for bit. N = 10,000 puts the
    95 % half-width of any acceptability at <= 1 percentage point (``standard_error``
    is the worst-case sqrt(0.25 / N)).

    ``central_weights`` and ``pairwise_winning`` (offers x offers x draws of work: 1.2 s at 500
    offers, 19 s at 2,000) are computed only with ``extra_outputs=True``; the product reads
    the rank acceptabilities alone. ``ranks`` keeps ranks 1..ranks only (no full sort per
    draw; None keeps all). Draws run in chunks: memory is chunk x offers whatever n_draws.
    """
    if n_draws < 1:
        raise McdaError(Issue(None, code="mcda-draws-count", params={"found": repr(n_draws)}))
    if missing_intervals is not None and np.asarray(missing_intervals).dtype == np.bool_:
        intervals = intervals_from_mask(values, missing_intervals)
        v = intervals[..., 0]
    else:
        v = as_values(values, allow_nan=missing_intervals is not None)
        intervals = None
        if missing_intervals is not None:
            intervals = _as_float_array(missing_intervals, "missing_intervals")
            if intervals.shape != (*v.shape, 2):
                raise McdaError(Issue(None, code="mcda-intervals-shape", params={
                    "shape": str(intervals.shape), "expected_shape": str((*v.shape, 2))}))
            as_values(intervals[..., 0], "missing_intervals[..., 0]")
            as_values(intervals[..., 1], "missing_intervals[..., 1]")
            reversed_ = intervals[..., 0] > intervals[..., 1]
            if reversed_.any():
                i, j = (int(k) for k in np.argwhere(reversed_)[0])
                raise McdaError(Issue(None, code="mcda-interval-reversed", params={
                    "row": i, "column": j, "low": repr(float(intervals[i, j, 0])),
                    "high": repr(float(intervals[i, j, 1]))}))
            stray = np.isnan(v) & (intervals[..., 0] == intervals[..., 1])
            if stray.any():
                i, j = (int(k) for k in np.argwhere(stray)[0])
                raise McdaError(Issue(None, code="mcda-nan-without-interval", params={
                    "row": i, "column": j, "low": repr(float(intervals[i, j, 0]))}))
            v = intervals[..., 0]
    n_alt, n_crit = v.shape
    w = as_weights(weights, n_crit)
    bands = _as_bands(weight_bands, n_crit)
    outside = (w < bands[:, 0] - 1e-9) | (w > bands[:, 1] + 1e-9)
    if outside.any():
        j = int(np.argwhere(outside)[0][0])
        raise McdaError(Issue(None, code="mcda-weight-outside-band", params={
            "index": j, "found": float(w[j]), "low": float(bands[j, 0]),
            "high": float(bands[j, 1])}))
    rng = np.random.default_rng(seed)
    draws, acceptance, method = sample_weights_in_bands(bands, n_draws, rng)
    # The pairwise table needs every draw's full order.
    n_ranks = n_alt if ranks is None or extra_outputs else max(1, min(int(ranks), n_alt))
    counts = np.zeros(n_alt * n_ranks, dtype=np.int64)
    winners = np.empty(n_draws, dtype=np.int64)
    pair_counts = np.zeros((n_alt, n_alt), dtype=np.int64) if extra_outputs else None
    cells = uncertain_cells(intervals)
    # The random stream is the one of a single block: numpy's generator fills a (rows, cols)
    # array row by row, so consecutive row chunks draw the same numbers.
    chunk = chunk_rows(n_alt + (0 if cells is None else cells[0].size), _CHUNK_BYTES)
    for first in range(0, n_draws, chunk):
        w_chunk = draws[first:first + chunk]
        scores = w_chunk @ v.T  # [chunk, n_alt]
        if cells is not None:
            scores = scores + uncertain_contribution(rng, cells, w_chunk, n_alt)
        top = top_ranks(scores, n_ranks)  # top[d, r] = offer at rank r
        winners[first:first + chunk] = top[:, 0]
        positions = np.broadcast_to(np.arange(n_ranks), top.shape)
        counts += np.bincount((top * n_ranks + positions).ravel(), minlength=n_alt * n_ranks)
        if pair_counts is not None:
            add_pairwise(pair_counts, top)
    rank_acceptability = counts.reshape(n_alt, n_ranks) / n_draws
    central: FloatArray | None = None
    pairwise: FloatArray | None = None
    if extra_outputs:
        central = central_weights(draws, winners, n_alt, n_crit)
        pairwise = np.asarray(pair_counts, dtype=np.float64) / n_draws
    return SmaaResult(
        n_draws=n_draws,
        seed=seed,
        weight_model=f"uniform within weight bands; {method}",
        acceptance_rate=acceptance,
        rank_acceptability=rank_acceptability,
        win_probability=rank_acceptability[:, 0].copy(),
        central_weights=central,
        pairwise_winning=pairwise,
        standard_error=math.sqrt(0.25 / n_draws),
    )


def pairwise_winning_indices(ranks: ArrayLike) -> FloatArray:
    """PWI[i, j]: share of samples where i has a better (lower) rank than j.

    ``ranks`` is [n_samples, n_alt] (smaa.pwi in gertvv/rsmaa; R15)."""
    r = _as_float_array(ranks, "ranks")
    if r.ndim != 2 or r.shape[0] == 0:
        raise McdaError(Issue(None, code="mcda-ranks-shape", params={"shape": str(r.shape)}))
    return np.asarray((r[:, :, None] < r[:, None, :]).mean(axis=0), dtype=np.float64)


# --------------------------------------------------------------------------- dominance


def pareto_frontier(cost: ArrayLike, time: ArrayLike) -> list[int]:
    """Offers not dominated on (total cost, time to train), both minimised.

    b dominates a if b is no worse on both and strictly better on one; equal points are
    all kept. Returned cheapest first (ties by time, then index). O(n log n) sweep.
    """
    c = _as_float_array(cost, "cost").ravel()
    t = _as_float_array(time, "time").ravel()
    if c.shape != t.shape:
        raise McdaError(Issue(None, code="mcda-time-count",
                              params={"count": t.size, "offers": c.size}))
    for name, array in (("cost", c), ("time", t)):
        error = _not_finite(name, array)
        if error is not None:
            raise error
    order = np.lexsort((np.arange(c.size), t, c))
    frontier: list[int] = []
    best_time = math.inf
    i = 0
    while i < order.size:
        j = i
        while j < order.size and c[order[j]] == c[order[i]]:
            j += 1
        group = order[i:j]
        group_best = float(t[group].min())
        if group_best < best_time:
            frontier.extend(int(g) for g in group if t[g] == group_best)
            best_time = group_best
        i = j
    return frontier


def dominance(values: ArrayLike, dominated_among: int | None = None) -> list[tuple[int, int]]:
    """Pairs (a, b) where a dominates b: a >= b on every criterion and > on at least one.

    ``values`` are "more is better" (criterion values 0..1). Sorted by (a, b).
    ``dominated_among`` keeps only the pairs whose dominated offer b is one of the first
    that many rows (with rows in rank order: the contenders a reader compares), so the list
    is at most that many squared long; None keeps every pair (up to offers squared).
    Work runs in blocks of dominated offers: memory stays at block x offers x criteria.
    """
    v = as_values(values)
    n = v.shape[0]
    limit = n if dominated_among is None else max(0, min(int(dominated_among), n))
    block = max(1, (8 * 2**20) // max(1, n * v.shape[1]))
    found: list[tuple[int, int]] = []
    for first in range(0, limit, block):
        b = v[first:min(first + block, limit)]
        ge = (v[:, None, :] >= b[None, :, :]).all(axis=2)  # [a, b]
        gt = (v[:, None, :] > b[None, :, :]).any(axis=2)
        found.extend((int(a), int(j) + first) for a, j in np.argwhere(ge & gt))
    return sorted(found)


# --------------------------------------------------------------------------- missing data


def rank_intervals(
    values: ArrayLike, weights: ArrayLike, missing_mask: ArrayLike
) -> list[tuple[int, int]]:
    """Best and worst rank of each offer while its unknown values range over [0, 1].

    Best case: the offer's unknowns at 1, everyone else's at 0; worst case the reverse.
    Each offer's score depends only on its own row, so these extremes are attained and
    the interval is exact (interval arithmetic; mcda-procurement.md §6.7, §7.4). Ranks are
    competition ranks: a tie does not push an offer down.
    """
    v, mask = _known_values(values, missing_mask)
    w = as_weights(weights, v.shape[1])
    known = np.where(mask, 0.0, v)
    # In points (0..100), the scale ``rank_scores`` compares weighted_additive scores on.
    low = 100.0 * _scores_unit(known, w)
    high = low + 100.0 * (mask.astype(np.float64) * w).sum(axis=1)
    tol = TIE_TOLERANCE
    n = v.shape[0]
    # Counts by binary search in the sorted bounds: O(n log n) rather than every pair.
    # An offer never counts against its own best rank (low <= high) but may against its worst.
    above_best = n - np.searchsorted(np.sort(low), high + tol, side="right")
    above_worst = n - np.searchsorted(np.sort(high), low + tol, side="right")
    above_worst -= high > low + tol
    return [(1 + int(b), 1 + int(w)) for b, w in zip(above_best, above_worst, strict=True)]


@dataclass(frozen=True)
class ClarificationItem(_ToDict):
    """An unknown value, how far it could move its offer's score, and whether it matters."""

    alt: int
    crit: int
    swing_points: float
    could_change_winner: bool
    winner_if_worst: int
    winner_if_best: int


def clarification_priority(
    values: ArrayLike, weights: ArrayLike, missing_mask: ArrayLike
) -> list[ClarificationItem]:
    """Unknown values ranked by how much their answer could change the decision (§7.1).

    Each unknown (alt, crit) is set to 0 and to 1 with every other value at its current
    assumption (the value given; NaN means the conservative 0 of §6.7), one at a time.
    ``swing_points`` = 100 w_crit, the score range the answer spans;
    ``could_change_winner`` is True if either end changes the winner. Sorted: those that
    could change the winner first, then by swing, then by (alt, crit).
    """
    v, mask = _known_values(values, missing_mask)
    w = as_weights(weights, v.shape[1])
    base = np.where(np.isnan(v), 0.0, v)
    base_scores = _scores_unit(base, w)
    winner = _winner(base_scores)
    # The best other offer for any offer i: the winner, or for the winner the runner-up
    # (highest score, ties to the lower index, as _winner picks): O(1) per answer.
    order = np.lexsort((np.arange(base_scores.size), -base_scores))
    runner = int(order[1]) if order.size > 1 else -1
    items = []
    for i, j in np.argwhere(mask):
        i, j = int(i), int(j)
        other = runner if i == winner else winner
        ends = []
        for end in (0.0, 1.0):
            score = base_scores[i] + (end - base[i, j]) * w[j]
            if other < 0 or score > base_scores[other] or (
                    score == base_scores[other] and i < other):
                ends.append(i)
            else:
                ends.append(other)
        items.append(
            ClarificationItem(
                i, j, 100.0 * float(w[j]), ends[0] != winner or ends[1] != winner, ends[0], ends[1]
            )
        )
    items.sort(key=lambda c: (not c.could_change_winner, -c.swing_points, c.alt, c.crit))
    return items
