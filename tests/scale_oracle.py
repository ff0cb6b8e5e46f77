"""The implementations before issue 15 ("linear at scale"), kept as the oracle that the
faster ones must equal: tests/test_scale.py compares them on random matrices and on the
sample offers. Not used by the product.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

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
