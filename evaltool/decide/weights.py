"""Weight break-evens on the exact scoring, in closed form.

"Which single weight, moved how far, would change the winner?" (mcda-procurement.md §5.2;
Triantaphyllou & Sánchez 1997). Criterion k moves to the global weight t and every other
criterion keeps its share of the rest: w_j (1 - t)/(1 - w_k), which is
`decide.core.rubric_with_weight`. The scores are the real aggregation of
`score.core.aggregate`, in which a neutral-missing value shares its weight among its
category's known siblings, so they are not linear in t. Only k's own category changes shape:

    V_i(t) = s P_i + G(t) m_i(t),   s = (1 - t)/(1 - w_k),   G(t) = s (W_c - w_k) + t,
    m_i(t) = (s A_i + t v_ik)/(s B_i + t)   when k is known for offer i, else A_i / B_i,

with P_i the other categories' weighted values, W_c the category's weight, and A_i, B_i the
weighted values and weights of k's known siblings. The tie V_C(t) = V_W(t) of a challenger C
with the winner W is then a cubic N_C D_W - N_W D_C = 0 (N/D is V as a ratio of a quadratic
and a linear function; D > 0 on (0, 1]). Its first root beyond the current weight is found
exactly: the cubic is monotone between the roots of its derivative (a quadratic), so each
piece holds at most one root, which bisection pins to the last bit. Work and memory are
criteria x offers; no grid of weights.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from evaltool.score.core import ScoredOffer
from evaltool.score.rubric import Rubric

# Bisection steps within a monotone piece of the tie cubic: 2^-64 of the piece, below the
# spacing of doubles near any weight.
_BISECTION_STEPS = 64
# Two challengers whose ties lie this close are the same break-even: the one ahead just
# beyond it is reported.
_SAME_TIE = 1e-12


def _round(value: float, digits: int) -> float:
    return float(f"{value:.{digits}g}")


def _mul(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Row-wise product of polynomials (coefficients lowest degree first)."""
    out = np.zeros((a.shape[0], a.shape[1] + b.shape[1] - 1))
    for i in range(a.shape[1]):
        for j in range(b.shape[1]):
            out[:, i + j] += a[:, i] * b[:, j]
    return out


def _horner(coef: np.ndarray, t: np.ndarray) -> np.ndarray:
    out: np.ndarray = np.zeros(coef.shape[0]) + coef[:, -1]
    for d in range(coef.shape[1] - 2, -1, -1):
        out = out * t + coef[:, d]
    return out


def _critical_points(coef: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Real roots of the derivative of each cubic row (NaN where there is none)."""
    a, b, c = 3.0 * coef[:, 3], 2.0 * coef[:, 2], coef[:, 1]
    r1 = np.full(a.shape, np.nan)
    r2 = np.full(a.shape, np.nan)
    quad = a != 0.0
    disc = b * b - 4.0 * a * c
    ok = quad & (disc >= 0.0)
    root = np.sqrt(np.where(ok, disc, 0.0))
    with np.errstate(divide="ignore", invalid="ignore"):
        # q = -(b + sign(b) sqrt(disc))/2 avoids cancellation (Numerical Recipes §5.6).
        q = -0.5 * (b + np.where(b >= 0.0, root, -root))
        r1 = np.where(ok, q / a, r1)
        r2 = np.where(ok & (q != 0.0), c / q, np.where(ok, r1, r2))
        lin = ~quad & (b != 0.0)
        r1 = np.where(lin, -c / b, r1)
    return r1, r2


def _first_crossing(coef: np.ndarray, start: float, end: float) -> np.ndarray:
    """Per row, the first t from `start` towards `end` at which the cubic is >= 0 (NaN if
    none): the exact first tie, reported on the side where the challenger is level or ahead."""
    n = coef.shape[0]
    lo, hi = min(start, end), max(start, end)
    r1, r2 = _critical_points(coef)
    points = np.column_stack([np.full(n, start), r1, r2, np.full(n, end)])
    inside = np.isfinite(points) & (points >= lo) & (points <= hi)
    points = np.where(inside, points, start)
    points = np.take_along_axis(points, np.argsort(np.abs(points - start), axis=1), axis=1)
    values = np.column_stack([_horner(coef, points[:, j]) for j in range(points.shape[1])])
    ahead = values >= 0.0
    found = ahead.any(axis=1)
    first = ahead.argmax(axis=1)
    rows = np.arange(n)
    b = points[rows, first]
    a = points[rows, np.maximum(first - 1, 0)]
    bisect = found & (first > 0)
    for _ in range(_BISECTION_STEPS):
        mid = 0.5 * (a + b)
        level = _horner(coef, mid) >= 0.0
        b = np.where(bisect & level, mid, b)
        a = np.where(bisect & ~level, mid, a)
    return np.where(found, b, np.nan)


class _Parts:
    """P, A, B, v_k and 'k known' per offer for one criterion k (see the module docstring)."""

    def __init__(self, values: np.ndarray, known: np.ndarray, w: np.ndarray,
                 member: np.ndarray, k: int) -> None:
        cat = int(member[k].argmax())
        in_cat = member[:, cat] > 0.0
        wk = values * known * w  # weighted known values [offer, criterion]
        kw = known * w
        cat_num = wk @ member  # [offer, category]
        cat_den = kw @ member
        cat_weight = w @ member
        with np.errstate(divide="ignore", invalid="ignore"):
            cat_value = np.where(cat_den > 0.0, cat_num / np.where(cat_den > 0, cat_den, 1), 0.0)
        others = np.ones(member.shape[1], dtype=bool)
        others[cat] = False
        self.p = cat_value[:, others] @ cat_weight[others]
        siblings = in_cat.copy()
        siblings[k] = False
        self.a = wk[:, siblings].sum(axis=1)
        self.b = kw[:, siblings].sum(axis=1)
        self.v = values[:, k]
        self.known = known[:, k] > 0.0
        self.w0 = float(w[k])
        self.rest = float(cat_weight[cat] - w[k])

    def ratio(self) -> tuple[np.ndarray, np.ndarray]:
        """Each offer's score V(t) as N(t)/D(t): N quadratic, D linear (coefficients)."""
        n = self.p.size
        alpha = 1.0 / (1.0 - self.w0)
        beta = alpha * self.rest
        s = np.tile([alpha, -alpha], (n, 1))
        g = np.tile([beta, 1.0 - beta], (n, 1))
        p_s = s * self.p[:, None]
        # k known: D = s B + t, N = s P D + G (s A + t v)
        d_known = np.column_stack([alpha * self.b, 1.0 - alpha * self.b])
        num = np.column_stack([alpha * self.a, self.v - alpha * self.a])
        n_known = _mul(p_s, d_known) + _mul(g, num)
        # k unknown: D = 1, N = s P + G m with m the siblings' mean (0 without any)
        with np.errstate(divide="ignore", invalid="ignore"):
            m = np.where(self.b > 0.0, self.a / np.where(self.b > 0, self.b, 1.0), 0.0)
        n_unknown = np.column_stack([p_s + g * m[:, None], np.zeros(n)])
        d_unknown = np.tile([1.0, 0.0], (n, 1))
        known = self.known[:, None]
        return np.where(known, n_known, n_unknown), np.where(known, d_known, d_unknown)


def weight_break_evens(
    scored: Sequence[ScoredOffer], rubric: Rubric, bands: Any | None = None
) -> list[dict[str, Any]]:
    """Per criterion, the nearest global weight (others rescaled in proportion) at which
    another offer ties the winner (`scored[0]`), on the exact scoring; sorted with those
    inside the criterion's weight band first, then by distance from the current weight.

    Applying `rubric_with_weight(rubric, criterion, weight_at_tie)` reproduces the tie. A tie
    only at a weight of exactly 0 or 1 (all the score on one criterion, or none) is not a
    break-even anyone could act on and is left out.
    """
    if len(scored) < 2:
        return []
    cats = list(rubric.categories)
    ids = [c.id for c in rubric.criteria]
    member = np.zeros((len(ids), len(cats)))
    for j, criterion in enumerate(rubric.criteria):
        member[j, cats.index(criterion.category)] = 1.0
    raw = [[s.values.get(c) for c in ids] for s in scored]
    known = np.array([[v is not None for v in row] for row in raw], dtype=float)
    values = np.array([[0.0 if v is None else float(v) for v in row] for row in raw])
    weights = rubric.global_weights()
    w = np.array([weights[c] for c in ids])

    nearest: dict[int, tuple[float, int]] = {}
    for k in np.flatnonzero(w < 1.0).tolist():
        parts = _Parts(values, known, w, member, k)
        num, den = parts.ratio()
        # The tie cubic of every challenger with the winner (row 0): N_C D_W - N_W D_C.
        tie = _mul(num[1:], np.repeat(den[:1], len(scored) - 1, axis=0)) - _mul(
            np.repeat(num[:1], len(scored) - 1, axis=0), den[1:])
        t0 = float(w[k])
        for end in (1.0, 0.0):  # up, then down: the first side wins a tie in distance
            at = _first_crossing(tie, t0, end)
            if not np.isfinite(at).any():
                continue
            t = float(np.nanmin(at) if end > t0 else np.nanmax(at))
            who = _ahead_beyond(num, den, at, t, end - t0)
            if not 1e-9 < t < 1.0 - 1e-9:
                continue
            if k not in nearest or abs(t - t0) < abs(nearest[k][0] - t0):
                nearest[k] = (t, who)
    out: list[dict[str, Any]] = []
    for k, (t, who) in sorted(nearest.items()):
        within = None if bands is None else bool(bands[k][0] - 1e-12 <= t <= bands[k][1] + 1e-12)
        out.append({
            "criterion": ids[k],
            "weight_now": _round(float(w[k]), 4),
            "weight_at_tie": _round(t, 9),
            "new_winner": scored[who].offer.id,
            "within_band": within,
        })
    out.sort(key=lambda b: (not b["within_band"],
                            abs(b["weight_at_tie"] - b["weight_now"]), b["criterion"]))
    return out


def _ahead_beyond(num: np.ndarray, den: np.ndarray, at: np.ndarray, t: float,
                  direction: float) -> int:
    """The challenger (index into the offers) with the highest score just past the tie at t:
    among those tying there, the one ahead beyond it; ties to the better-ranked offer."""
    tied = np.flatnonzero(np.abs(np.nan_to_num(at, nan=np.inf) - t) <= _SAME_TIE)
    if tied.size == 1:
        return int(tied[0]) + 1
    beyond = min(max(t + np.sign(direction) * 1e-9, 0.0), 1.0)
    rows = tied + 1
    x = np.full(rows.size, beyond)
    with np.errstate(divide="ignore", invalid="ignore"):
        scores = _horner(num[rows], x) / _horner(den[rows], x)
    return int(rows[int(np.argmax(np.nan_to_num(scores, nan=-np.inf)))])
