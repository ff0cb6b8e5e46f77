"""The implementations before issue 15 ("linear at scale"), kept as the oracle that the
faster ones must equal: tests/test_scale.py compares them on random matrices and on the
sample offers. Not used by the product.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from evaltool.decide import sensitivity as sa
from evaltool.decide import weight_draws as wd
from evaltool.decide.mcda import FloatArray
from evaltool.issues import Issue
from evaltool.score.core import ScoredOffer
from evaltool.score.rubric import Rubric

WEIGHT_GRID = 200


def _round(value: float | None, digits: int = 6) -> float | None:
    return None if value is None else float(f"{value:.{digits}g}")


class _ExactScores:
    """Scores of offers under changed global weights, exactly as `score.aggregate` gives them.

    The additive matrix of `value_matrix` holds a neutral-missing value at its category's
    mean for the current weights; when a sibling's weight moves, the real score re-shares
    it. Break-evens are therefore solved on this form: Σ_cat W_cat(t) × mean_cat(t).
    """

    def __init__(self, scored: Sequence[ScoredOffer], rubric: Rubric) -> None:
        cats = list(rubric.categories)
        n_crit, n_cat = len(rubric.criteria), len(cats)
        self.member = np.zeros((n_crit, n_cat))
        for j, c in enumerate(rubric.criteria):
            self.member[j, cats.index(c.category)] = 1.0
        raw = [[s.values.get(c.id) for c in rubric.criteria] for s in scored]
        known = np.array([[v is not None for v in row] for row in raw], dtype=float)
        values = np.array([[0.0 if v is None else float(v) for v in row] for row in raw])
        self.n_alt, self.n_cat = len(scored), n_cat
        # [criterion, offer × category] so one matrix product gives every category sum.
        self.num = np.einsum("aj,jc->jac", values * known, self.member).reshape(n_crit, -1)
        self.den = np.einsum("aj,jc->jac", known, self.member).reshape(n_crit, -1)

    def scores(self, weights: Any) -> Any:
        """Points [n_t, n_alt] for global weights [n_t, n_crit] (rows need not sum to 1)."""
        w = np.atleast_2d(weights)
        shape = (w.shape[0], self.n_alt, self.n_cat)
        num = (w @ self.num).reshape(shape)
        den = (w @ self.den).reshape(shape)
        cat_value = np.divide(num, den, out=np.zeros_like(num), where=den > 0)
        return 100.0 * (cat_value * (w @ self.member)[:, None, :]).sum(axis=2)


def old_weight_break_evens(
    scored: Sequence[ScoredOffer], rubric: Rubric, bands: Any | None = None
) -> list[dict[str, Any]]:
    """Per criterion, the nearest global weight (others rescaled in proportion) at which
    another offer ties the winner (`scored[0]`), on the exact scoring; sorted with those
    inside the criterion's weight band first, then by distance from the current weight.

    Triantaphyllou & Sánchez (1997) via mcda-procurement.md §5.2 give the closed form on a
    fixed value matrix; here it is the start of a grid + bisection on the real aggregation,
    so applying `rubric_with_weight(rubric, criterion, weight_at_tie)` reproduces the tie.
    A tie only at a weight of exactly 0 or 1 (all the score on one criterion, or none) is
    not a break-even anyone could act on and is left out.
    """
    if len(scored) < 2:
        return []
    exact = _ExactScores(scored, rubric)
    weights = rubric.global_weights()
    ids = [c.id for c in rubric.criteria]
    w = np.array([weights[c] for c in ids])

    def gap(ks: Any, ts: Any) -> tuple[Any, Any]:
        """Best challenger minus the winner when criterion ks[i] weighs ts[i] (vectorised)."""
        rows = w[None, :] * ((1.0 - ts) / (1.0 - w[ks]))[:, None]
        rows[np.arange(ks.size), ks] = ts
        s = exact.scores(rows)
        return s[:, 1:].max(axis=1) - s[:, 0], 1 + s[:, 1:].argmax(axis=1)

    # Every criterion and side at once: a grid from the current weight towards 1 (up) and
    # towards 0 (down), then bisection between the last grid point behind and the first
    # at or past a tie. Pairs: (criterion, side); 2 x n_crit x WEIGHT_GRID rows.
    movable = np.flatnonzero(w < 1.0)
    u = np.linspace(0.0, 1.0, WEIGHT_GRID + 1)[1:]
    pair_k = np.repeat(movable, 2)
    t0 = w[pair_k]
    up = np.tile([True, False], movable.size)
    grid = np.where(up[:, None], t0[:, None] + (1.0 - t0[:, None]) * u, t0[:, None] * (1.0 - u))
    g, _ = gap(np.repeat(pair_k, u.size), grid.ravel())
    crossed = g.reshape(grid.shape) >= 0.0
    has = crossed.any(axis=1)
    first = crossed.argmax(axis=1)
    a = np.where(first == 0, t0, grid[np.arange(len(grid)), np.maximum(first - 1, 0)])
    b = grid[np.arange(len(grid)), first]
    ks, a, b = pair_k[has], a[has], b[has]
    for _ in range(45):  # to ~1e-15 of the weight: g(a) < 0 <= g(b)
        mid = 0.5 * (a + b)
        ahead = gap(ks, mid)[0] >= 0.0
        b = np.where(ahead, mid, b)
        a = np.where(ahead, a, mid)
    who = gap(ks, b)[1] if ks.size else np.zeros(0, dtype=int)

    out: list[dict[str, Any]] = []
    nearest: dict[int, tuple[float, int]] = {}
    for k, t, c in zip(ks.tolist(), b.tolist(), who.tolist(), strict=True):
        if not 1e-9 < t < 1.0 - 1e-9:
            continue
        if k not in nearest or abs(t - w[k]) < abs(nearest[k][0] - w[k]):
            nearest[k] = (t, c)
    for k, (t, c) in sorted(nearest.items()):
        within = None if bands is None else bool(bands[k][0] - 1e-12 <= t <= bands[k][1] + 1e-12)
        out.append({
            "criterion": ids[k],
            "weight_now": _round(float(w[k]), 4),
            "weight_at_tie": _round(t, 9),
            "new_winner": scored[c].offer.id,
            "within_band": within,
        })
    out.sort(key=lambda b: (not b["within_band"],
                            abs(b["weight_at_tie"] - b["weight_now"]), b["criterion"]))
    return out


# --------------------------------------------------------------------------- SMAA


def old_smaa(
    values: ArrayLike,
    weights: ArrayLike,
    weight_bands: ArrayLike,
    n_draws: int = 10_000,
    seed: int = 0,
    missing_intervals: ArrayLike | None = None,
    *,
    extra_outputs: bool = False,
) -> sa.SmaaResult:
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
    the rank acceptabilities alone.
    """
    if n_draws < 1:
        raise sa.McdaError(Issue(None, code="mcda-draws-count", params={"found": repr(n_draws)}))
    if missing_intervals is not None and np.asarray(missing_intervals).dtype == np.bool_:
        intervals = sa.intervals_from_mask(values, missing_intervals)
        v = intervals[..., 0]
    else:
        v = sa.as_values(values, allow_nan=missing_intervals is not None)
        intervals = None
        if missing_intervals is not None:
            intervals = sa._as_float_array(missing_intervals, "missing_intervals")
            if intervals.shape != (*v.shape, 2):
                raise sa.McdaError(Issue(None, code="mcda-intervals-shape", params={
                    "shape": str(intervals.shape), "expected_shape": str((*v.shape, 2))}))
            sa.as_values(intervals[..., 0], "missing_intervals[..., 0]")
            sa.as_values(intervals[..., 1], "missing_intervals[..., 1]")
            reversed_ = intervals[..., 0] > intervals[..., 1]
            if reversed_.any():
                i, j = (int(k) for k in np.argwhere(reversed_)[0])
                raise sa.McdaError(Issue(None, code="mcda-interval-reversed", params={
                    "row": i, "column": j, "low": repr(float(intervals[i, j, 0])),
                    "high": repr(float(intervals[i, j, 1]))}))
            stray = np.isnan(v) & (intervals[..., 0] == intervals[..., 1])
            if stray.any():
                i, j = (int(k) for k in np.argwhere(stray)[0])
                raise sa.McdaError(Issue(None, code="mcda-nan-without-interval", params={
                    "row": i, "column": j, "low": repr(float(intervals[i, j, 0]))}))
            v = intervals[..., 0]
    n_alt, n_crit = v.shape
    w = sa.as_weights(weights, n_crit)
    bands = wd._as_bands(weight_bands, n_crit)
    outside = (w < bands[:, 0] - 1e-9) | (w > bands[:, 1] + 1e-9)
    if outside.any():
        j = int(np.argwhere(outside)[0][0])
        raise sa.McdaError(Issue(None, code="mcda-weight-outside-band", params={
            "index": j, "found": float(w[j]), "low": float(bands[j, 0]),
            "high": float(bands[j, 1])}))
    rng = np.random.default_rng(seed)
    draws, acceptance, method = wd.sample_weights_in_bands(bands, n_draws, rng)
    scores = draws @ v.T  # [n_draws, n_alt]
    if intervals is not None:
        width = intervals[..., 1] - intervals[..., 0]
        alt_idx, crit_idx = np.nonzero(width > 0)
        if alt_idx.size:
            u = rng.random((n_draws, alt_idx.size))
            extra = u * width[alt_idx, crit_idx] * draws[:, crit_idx]
            # Sum each uncertain cell's contribution into its offer's column.
            onehot = np.zeros((alt_idx.size, n_alt))
            onehot[np.arange(alt_idx.size), alt_idx] = 1.0
            scores = scores + extra @ onehot
    order = np.argsort(-scores, axis=1, kind="stable")  # order[d, r] = offer at rank r
    positions = np.broadcast_to(np.arange(n_alt), order.shape)
    counts = np.bincount((order * n_alt + positions).ravel(), minlength=n_alt * n_alt)
    rank_acceptability = counts.reshape(n_alt, n_alt) / n_draws
    central: FloatArray | None = None
    pairwise: FloatArray | None = None
    if extra_outputs:
        central, pairwise = _central_and_pairwise(draws, order, n_alt, n_crit, n_draws)
    return sa.SmaaResult(
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


def _central_and_pairwise(draws: FloatArray, order: np.ndarray, n_alt: int, n_crit: int,
                          n_draws: int) -> tuple[FloatArray, FloatArray]:
    """Mean weights under which each offer wins, and the share of draws where i beats j."""
    winners = order[:, 0]
    central = np.full((n_alt, n_crit), np.nan)
    win_counts = np.bincount(winners, minlength=n_alt)
    sums = np.column_stack(
        [np.bincount(winners, weights=draws[:, c], minlength=n_alt) for c in range(n_crit)]
    )
    won = win_counts > 0
    central[won] = sums[won] / win_counts[won, None]
    # Rank positions in the smallest integer type: the pairwise pass is memory-bound.
    ranks = np.empty(order.shape, dtype=np.int16 if n_alt < 2**15 else np.int64)
    np.put_along_axis(ranks, order, np.arange(n_alt, dtype=ranks.dtype)[None, :], axis=1)
    pairwise = np.empty((n_alt, n_alt))
    for i in range(n_alt):  # a loop over offers keeps memory at n_draws x n_alt
        pairwise[i] = np.count_nonzero(ranks[:, i : i + 1] < ranks, axis=0) / n_draws
    return central, pairwise


def old_dominance(values: ArrayLike) -> list[tuple[int, int]]:
    """Pairs (a, b) where a dominates b: a >= b on every criterion and > on at least one.

    ``values`` are "more is better" (criterion values 0..1). Sorted by (a, b).
    """
    v = sa.as_values(values)
    ge = (v[:, None, :] >= v[None, :, :]).all(axis=2)
    gt = (v[:, None, :] > v[None, :, :]).any(axis=2)
    pairs = np.argwhere(ge & gt)
    return [(int(a), int(b)) for a, b in pairs]


# --------------------------------------------------------------------------- quadratic passes


def old_kendall_tau(x: Sequence[float], y: Sequence[float]) -> float | None:
    """Kendall's tau-b between two score vectors (higher = better in both); None if undefined.

    tau-b counts ties in either ranking (Kendall 1945), as VIKOR's compromise set and
    equal scores produce them; O(n²), n is the number of offers.
    """
    n = len(x)
    concordant = discordant = ties_x = ties_y = 0
    for i in range(n):
        for j in range(i + 1, n):
            dx = (x[i] > x[j]) - (x[i] < x[j])
            dy = (y[i] > y[j]) - (y[i] < y[j])
            if dx == 0 and dy == 0:
                continue
            if dx == 0:
                ties_x += 1
            elif dy == 0:
                ties_y += 1
            elif dx == dy:
                concordant += 1
            else:
                discordant += 1
    denom = math.sqrt((concordant + discordant + ties_x) * (concordant + discordant + ties_y))
    return (concordant - discordant) / denom if denom > 0 else None


def old_rank_intervals(
    values: ArrayLike, weights: ArrayLike, missing_mask: ArrayLike
) -> list[tuple[int, int]]:
    """Best and worst rank of each offer while its unknown values range over [0, 1].

    Best case: the offer's unknowns at 1, everyone else's at 0; worst case the reverse.
    Each offer's score depends only on its own row, so these extremes are attained and
    the interval is exact (interval arithmetic; mcda-procurement.md §6.7, §7.4). Ranks are
    competition ranks: a tie does not push an offer down.
    """
    v, mask = sa._known_values(values, missing_mask)
    w = sa.as_weights(weights, v.shape[1])
    known = np.where(mask, 0.0, v)
    # In points (0..100), the scale ``rank_scores`` compares weighted_additive scores on.
    low = 100.0 * sa._scores_unit(known, w)
    high = low + 100.0 * (mask.astype(np.float64) * w).sum(axis=1)
    tol = sa.TIE_TOLERANCE
    result = []
    for i in range(v.shape[0]):
        others = np.arange(v.shape[0]) != i
        best = 1 + int((low[others] > high[i] + tol).sum())
        worst = 1 + int((high[others] > low[i] + tol).sum())
        result.append((best, worst))
    return result


def old_clarification_priority(
    values: ArrayLike, weights: ArrayLike, missing_mask: ArrayLike
) -> list[sa.ClarificationItem]:
    """Unknown values ranked by how much their answer could change the decision (§7.1).

    Each unknown (alt, crit) is set to 0 and to 1 with every other value at its current
    assumption (the value given; NaN means the conservative 0 of §6.7), one at a time.
    ``swing_points`` = 100 w_crit, the score range the answer spans;
    ``could_change_winner`` is True if either end changes the winner. Sorted: those that
    could change the winner first, then by swing, then by (alt, crit).
    """
    v, mask = sa._known_values(values, missing_mask)
    w = sa.as_weights(weights, v.shape[1])
    base = np.where(np.isnan(v), 0.0, v)
    base_scores = sa._scores_unit(base, w)
    winner = sa._winner(base_scores)
    items = []
    for i, j in np.argwhere(mask):
        i, j = int(i), int(j)
        ends = []
        for end in (0.0, 1.0):
            s = base_scores.copy()
            s[i] += (end - base[i, j]) * w[j]
            ends.append(sa._winner(s))
        items.append(
            sa.ClarificationItem(
                i, j, 100.0 * float(w[j]), ends[0] != winner or ends[1] != winner, ends[0], ends[1]
            )
        )
    items.sort(key=lambda c: (not c.could_change_winner, -c.swing_points, c.alt, c.crit))
    return items
