"""Aggregation methods: turn a matrix of criterion values into scores and ranks.

Pure numeric functions over numpy arrays, independent of offers and rubrics. Rows are
alternatives (offers), columns are criteria.

The product's model is the additive value model on *absolute* value functions
(``piecewise_linear_value`` / ``discrete_level_value`` then ``weighted_additive``; Keeney &
Raiffa, "Decisions with Multiple Objectives", 1976): a score depends only on the offer and
the rubric, never on the other bids, so adding or removing an offer cannot change anyone
else's score. TOPSIS (Hwang & Yoon 1981) and VIKOR (Opricovic & Tzeng 2004) are labelled
cross-checks behind ``score --method``.

Weights are always renormalised to sum to 1; ``normalize_weights`` reports whether that
happened so the caller can log it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields, is_dataclass
from itertools import pairwise
from typing import Any, Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray

from evaltool.errors import UsageError
from evaltool.issues import Issue

FloatArray = NDArray[np.float64]
BoolArray = NDArray[np.bool_]
IntArray = NDArray[np.int64]

Normalization = Literal["vector", "minmax", "max", "sum"]
OutOfBounds = Literal["clip", "interpolate"]

# Ties: two scores closer than this share a rank (absolute; on the 0..100 points scale it
# is far below any rounding in a memo and far above float noise from summing products).
TIE_TOLERANCE = 1e-9
JSON_DECIMALS = 6


class McdaError(UsageError):
    """A matrix, weight vector or parameter that an aggregation method cannot use.

    Raised with its registered issue (evaltool/data/issues/decide.yaml, codes ``mcda-*``):
    ``McdaError(Issue(None, code=..., params={"name": "values[1, 0]", ...}))``. It names the
    library argument and the index of its first bad entry, not a file: its ``where`` is None.
    """


# --------------------------------------------------------------------------- JSON output


def json_ready(value: Any, decimals: int = JSON_DECIMALS) -> Any:
    """Turn a result into plain JSON types, floats rounded so the JSON is deterministic.

    NaN and infinities become ``None`` (JSON has no NaN); ``-0.0`` becomes ``0.0``.
    """
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: json_ready(getattr(value, f.name), decimals) for f in fields(value)}
    if isinstance(value, Mapping):
        return {str(k): json_ready(v, decimals) for k, v in value.items()}
    if isinstance(value, np.ndarray):
        return [json_ready(v, decimals) for v in value.tolist()]
    if isinstance(value, (list, tuple)):
        return [json_ready(v, decimals) for v in value]
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        number = float(value)
        if not math.isfinite(number):
            return None
        rounded = round(number, decimals)
        return 0.0 if rounded == 0 else rounded
    return value


class _ToDict:
    """Mixin for frozen result dataclasses: ``to_dict()`` gives JSON-ready data."""

    def to_dict(self) -> dict[str, Any]:
        data = json_ready(self)
        assert isinstance(data, dict)
        return data


# --------------------------------------------------------------------------- validation


def _as_float_array(value: ArrayLike, name: str) -> FloatArray:
    try:
        array = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise McdaError(Issue(None, code="mcda-not-numeric",
                              params={"name": name, "reason": str(exc)})) from exc
    return array


def _first_bad(mask: BoolArray) -> tuple[int, ...]:
    """The index of the first True entry of ``mask``."""
    return tuple(int(i) for i in np.argwhere(mask)[0])


def _indexed(name: str, index: tuple[int, ...]) -> str:
    """An argument's entry as a caller writes it: values[1, 0]."""
    return f"{name}[{', '.join(str(i) for i in index)}]"


def _not_finite(name: str, array: FloatArray) -> McdaError | None:
    """The error for the first NaN or infinity of ``array``, or None if all are finite."""
    bad = ~np.isfinite(array)
    if not bad.any():
        return None
    index = _first_bad(bad)
    return McdaError(Issue(None, code="mcda-not-finite", params={
        "name": _indexed(name, index), "found": repr(float(array[index]))}))


def as_matrix(matrix: ArrayLike, name: str = "matrix", *, allow_nan: bool = False) -> FloatArray:
    """Check ``matrix`` is a non-empty 2-D array of finite numbers [n_alt, n_crit]."""
    array = _as_float_array(matrix, name)
    if array.ndim != 2 or array.shape[0] == 0 or array.shape[1] == 0:
        raise McdaError(Issue(None, code="mcda-table-shape",
                              params={"name": name, "shape": str(array.shape)}))
    error = _not_finite(name, np.where(np.isnan(array), 0.0, array) if allow_nan else array)
    if error is not None:
        raise error
    return array


def as_values(values: ArrayLike, name: str = "values", *, allow_nan: bool = False) -> FloatArray:
    """Check ``values`` is a 2-D table of criterion values in 0..1."""
    array = as_matrix(values, name, allow_nan=allow_nan)
    with np.errstate(invalid="ignore"):
        bad = (array < 0.0) | (array > 1.0)
    if bad.any():
        index = _first_bad(bad)
        raise McdaError(Issue(None, code="mcda-value-outside-0-1", params={
            "name": _indexed(name, index), "found": repr(float(array[index]))}))
    return array


@dataclass(frozen=True)
class WeightNormalization(_ToDict):
    """Weights scaled to sum 1, with what they summed to before."""

    weights: FloatArray
    original_sum: float
    renormalized: bool


def normalize_weights(
    weights: ArrayLike, n_criteria: int | None = None, name: str = "weights"
) -> WeightNormalization:
    """Scale non-negative weights to sum to 1: w_j / sum(w).

    Weights that did not already sum to 1 (within 1e-9) are flagged ``renormalized`` so
    the caller can log it (mcda-procurement.md §6.5; R6 is the negative example, weights
    summing to 2). WSM ranks are invariant to this scaling; WPM scores are not.
    """
    array = _as_float_array(weights, name)
    if array.ndim != 1 or array.size == 0:
        raise McdaError(Issue(None, code="mcda-weights-shape",
                              params={"name": name, "shape": str(array.shape)}))
    if n_criteria is not None and array.size != n_criteria:
        raise McdaError(Issue(None, code="mcda-weights-count", params={
            "name": name, "count": array.size, "criteria": n_criteria}))
    bad = ~np.isfinite(array) | (array < 0)
    if bad.any():
        index = _first_bad(bad)
        raise McdaError(Issue(None, code="mcda-weight-negative", params={
            "name": _indexed(name, index), "found": repr(float(array[index]))}))
    total = float(array.sum())
    if total <= 0.0:
        raise McdaError(Issue(None, code="mcda-weights-all-zero", params={"name": name}))
    return WeightNormalization(
        weights=array / total, original_sum=total, renormalized=abs(total - 1.0) > 1e-9
    )


def as_weights(weights: ArrayLike, n_criteria: int, name: str = "weights") -> FloatArray:
    """Weights checked and scaled to sum 1 (see ``normalize_weights``)."""
    return normalize_weights(weights, n_criteria, name).weights


def as_benefit(benefit: Sequence[bool] | ArrayLike, n_criteria: int) -> BoolArray:
    """Directions: True = benefit (more is better), False = cost (less is better)."""
    array = np.asarray(benefit)
    if array.ndim != 1 or array.size != n_criteria:
        raise McdaError(Issue(None, code="mcda-directions-count",
                              params={"count": array.size, "criteria": n_criteria}))
    if array.dtype != np.bool_:
        raise McdaError(Issue(None, code="mcda-directions-not-boolean",
                              params={"dtype": str(array.dtype)}))
    return array.astype(np.bool_)


def rank_scores(
    scores: ArrayLike, *, higher_is_better: bool = True, tolerance: float = TIE_TOLERANCE
) -> IntArray:
    """Competition ranks (1 = best; tied scores share the better rank: 1, 2, 2, 4).

    rank_i = 1 + #{j : s_j better than s_i by more than ``tolerance``} (absolute, in the
    scores' own units). Ties share a rank so the ranking does not depend on the order
    offers were listed in.
    """
    array = _as_float_array(scores, "scores").ravel()
    error = _not_finite("scores", array)
    if error is not None:
        raise error
    signed = array if higher_is_better else -array
    better = signed[None, :] > signed[:, None] + tolerance
    ranks: IntArray = (1 + better.sum(axis=1)).astype(np.int64)
    return ranks


# --------------------------------------------------------------------------- value functions


def _check_points(points: Sequence[tuple[float, float]]) -> tuple[FloatArray, FloatArray]:
    try:
        array = np.asarray(points, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise McdaError(Issue(None, code="mcda-points-unreadable",
                              params={"reason": str(exc)})) from exc
    if array.ndim != 2 or array.shape[1] != 2 or array.shape[0] < 2:
        raise McdaError(Issue(None, code="mcda-points-shape",
                              params={"shape": str(array.shape)}))
    error = _not_finite("points", array)
    if error is not None:
        raise error
    xs, vs = array[:, 0], array[:, 1]
    steps = np.diff(xs)
    if (steps <= 0).any():
        i = int(np.argwhere(steps <= 0)[0][0]) + 1
        raise McdaError(Issue(None, code="mcda-points-not-increasing", params={
            "index": i, "x": repr(float(xs[i])), "previous": repr(float(xs[i - 1]))}))
    if ((vs < 0) | (vs > 1)).any():
        i = int(np.argwhere((vs < 0) | (vs > 1))[0][0])
        raise McdaError(Issue(None, code="mcda-point-value-outside-0-1",
                              params={"index": i, "value": repr(float(vs[i]))}))
    return xs, vs


def piecewise_linear_values(
    xs: ArrayLike, points: Sequence[tuple[float, float]], out_of_bounds: OutOfBounds = "clip"
) -> FloatArray:
    """Vectorised ``piecewise_linear_value``."""
    px, pv = _check_points(points)
    x = _as_float_array(xs, "x")
    if np.isnan(x).any():
        name = _indexed("x", _first_bad(np.isnan(x))) if x.size > 1 else "x"
        raise McdaError(Issue(None, code="mcda-x-missing", params={"name": name}))
    result = np.interp(x, px, pv)
    if out_of_bounds == "interpolate":
        low, high = x < px[0], x > px[-1]
        slope_low = (pv[1] - pv[0]) / (px[1] - px[0])
        slope_high = (pv[-1] - pv[-2]) / (px[-1] - px[-2])
        result = np.where(low, pv[0] + slope_low * (x - px[0]), result)
        result = np.where(high, pv[-1] + slope_high * (x - px[-1]), result)
    elif out_of_bounds != "clip":
        raise McdaError(Issue(None, code="mcda-unknown-option", params={
            "name": "out_of_bounds", "found": repr(out_of_bounds),
            "options": "'clip', 'interpolate'"}))
    return np.asarray(result, dtype=np.float64)


def piecewise_linear_value(
    x: float, points: Sequence[tuple[float, float]], out_of_bounds: OutOfBounds = "clip"
) -> float:
    """Value of ``x`` on a piecewise-linear value function through ``points``.

    ``points`` are (x, v) pairs with x strictly increasing and v in 0..1, declared in the
    rubric before offers are seen (absolute bounds). Direction is expressed by the points:
    [(50, 1), (150, 0)] is a cost criterion, [(0.3, 0), (0.5, 1)] a benefit one. Between
    points v is linearly interpolated; outside them it is clipped to the end values
    (``clip``, the rubric default: no credit beyond the objective, VATEP) or the end
    segments are extended (``interpolate``). Same definition as smaa.pvf in gertvv/rsmaa
    (mcda-procurement.md §3 R15).
    """
    return float(piecewise_linear_values(np.asarray([x]), points, out_of_bounds)[0])


def discrete_level_value(level: str, levels: Mapping[str, float]) -> float:
    """Value of an anchored qualitative level, e.g. {"poor": 0, "good": 0.75, ...}.

    Levels match ignoring case and surrounding spaces. An unknown level is an error that
    lists the allowed ones (a guess would silently score the offer).
    """
    if not levels:
        raise McdaError(Issue(None, code="mcda-levels-empty"))
    for name, value in levels.items():
        if not (isinstance(value, (int, float)) and 0.0 <= float(value) <= 1.0):
            raise McdaError(Issue(None, code="mcda-level-value-outside-0-1",
                                  params={"level": repr(name), "found": repr(value)}))
    if level in levels:
        return float(levels[level])
    wanted = str(level).strip().casefold()
    for name, value in levels.items():
        if name.strip().casefold() == wanted:
            return float(value)
    raise McdaError(Issue(None, code="mcda-unknown-level",
                          params={"found": repr(level), "levels": str(sorted(levels))}))


# --------------------------------------------------------------------------- additive model


def weighted_additive(values: ArrayLike, weights: ArrayLike) -> FloatArray:
    """Additive value model, scores 0..100: V_i = 100 * sum_j w_j v_ij, sum_j w_j = 1.

    ``values`` [n_alt, n_crit] are already in 0..1 (absolute value functions). Each score
    depends only on its own row, so adding or removing an offer never changes the others'
    scores (MAVT; Keeney & Raiffa 1976; mcda-procurement.md §6.4).
    """
    array = as_values(values)
    w = as_weights(weights, array.shape[1])
    # A row-wise sum (not BLAS matmul) so a score is bit-identical whatever the other
    # rows are: adding, removing or reordering offers cannot move it even by 1 ulp.
    return np.asarray(100.0 * (array * w).sum(axis=1), dtype=np.float64)


# --------------------------------------------------------------------------- normalisations


# --------------------------------------------------------------------------- TOPSIS


@dataclass(frozen=True)
class TopsisResult(_ToDict):
    """TOPSIS closeness (higher is better) with the quantities behind it."""

    closeness: FloatArray
    ranks: IntArray
    ideal: FloatArray
    anti_ideal: FloatArray
    distance_to_ideal: FloatArray
    distance_to_anti_ideal: FloatArray
    normalization: str


def _float_array(value: Any) -> FloatArray:
    return np.asarray(value, dtype=np.float64)


def _scale_columns(x: FloatArray, method: Normalization) -> FloatArray:
    """Direction-preserving column scaling used inside TOPSIS."""
    if method == "vector":
        denom = np.sqrt((x**2).sum(axis=0))
        return _float_array(np.divide(x, denom, out=np.zeros_like(x), where=denom > 0))
    if method == "minmax":
        lo, span = x.min(axis=0), np.ptp(x, axis=0)
        return _float_array(np.divide(x - lo, span, out=np.zeros_like(x), where=span > 0))
    if method == "max":
        denom = np.abs(x).max(axis=0)
        return _float_array(np.divide(x, denom, out=np.zeros_like(x), where=denom > 0))
    if method == "sum":
        denom = x.sum(axis=0)
        return _float_array(np.divide(x, denom, out=np.zeros_like(x), where=denom != 0))
    raise McdaError(Issue(None, code="mcda-unknown-option", params={
        "name": "normalization", "found": repr(method),
        "options": "'vector', 'minmax', 'max', 'sum'"}))


def topsis(
    matrix: ArrayLike,
    weights: ArrayLike,
    benefit: Sequence[bool] | ArrayLike,
    normalization: Normalization = "vector",
) -> TopsisResult:
    """TOPSIS (Hwang & Yoon 1981), Euclidean distances.

    r_ij = column-scaled x_ij (``vector``: x/sqrt(sum x^2), the classic choice; ``minmax``,
    ``max``, ``sum`` also available); v_ij = w_j r_ij; ideal A+_j = max_i v_ij for benefit,
    min for cost, anti-ideal the reverse; d+_i = ||v_i - A+||, d-_i = ||v_i - A-||;
    closeness C_i = d-_i / (d+_i + d-_i) (0.5 when both are 0: all offers identical).

    The scalings are linear per column, so treating cost columns via the ideal (as here)
    gives the same distances as flipping them first (pymcdm). Normalisation changes the
    winner in Opricovic & Tzeng (2004) (R3): pin it and report it.
    """
    x = as_matrix(matrix)
    is_benefit = as_benefit(benefit, x.shape[1])
    w = as_weights(weights, x.shape[1])
    v = _scale_columns(x, normalization) * w
    ideal = np.where(is_benefit, v.max(axis=0), v.min(axis=0))
    anti_ideal = np.where(is_benefit, v.min(axis=0), v.max(axis=0))
    d_plus = np.sqrt(((v - ideal) ** 2).sum(axis=1))
    d_minus = np.sqrt(((v - anti_ideal) ** 2).sum(axis=1))
    total = d_plus + d_minus
    closeness = np.divide(d_minus, total, out=np.full_like(total, 0.5), where=total > 0)
    return TopsisResult(
        closeness=closeness,
        ranks=rank_scores(closeness),
        ideal=ideal,
        anti_ideal=anti_ideal,
        distance_to_ideal=d_plus,
        distance_to_anti_ideal=d_minus,
        normalization=normalization,
    )


# --------------------------------------------------------------------------- VIKOR


@dataclass(frozen=True)
class VikorResult(_ToDict):
    """VIKOR S (group utility), R (individual regret), Q (lower is better) and conditions."""

    s: FloatArray
    r: FloatArray
    q: FloatArray
    q_ranks: IntArray
    ranks: IntArray
    acceptable_advantage: bool
    acceptable_stability: bool
    compromise_set: tuple[int, ...]
    dq: float
    v: float


def vikor(
    matrix: ArrayLike,
    weights: ArrayLike,
    benefit: Sequence[bool] | ArrayLike,
    v: float = 0.5,
) -> VikorResult:
    """VIKOR (Opricovic 1998; Opricovic & Tzeng 2004) on the raw matrix.

    f*_j = best value of criterion j (max for benefit, min for cost), f-_j the worst;
    d_ij = w_j (f*_j - x_ij)/(f*_j - f-_j) (0 when the column is constant, instead of NaN);
    S_i = sum_j d_ij, R_i = max_j d_ij;
    Q_i = v (S_i - S*)/(S- - S*) + (1 - v)(R_i - R*)/(R- - R*) (a term is 0 if its range is 0).
    Conditions, with a' the best by Q and DQ = 1/(m - 1):
    C1 acceptable advantage: Q(a'') - Q(a') >= DQ; C2 acceptable stability: a' is also best
    by S or by R. Compromise set: {a'} if both hold; {a', a''} if only C2 fails; else every
    a with Q(a) - Q(a') < DQ. ``ranks`` puts the whole compromise set at rank 1 and numbers
    the rest after it (as scikit-criteria does); ``q_ranks`` is the plain Q order.
    """
    x = as_matrix(matrix)
    is_benefit = as_benefit(benefit, x.shape[1])
    w = as_weights(weights, x.shape[1])
    if not 0.0 <= v <= 1.0:
        raise McdaError(Issue(None, code="mcda-vikor-strategy-weight",
                              params={"found": repr(v)}))
    best = np.where(is_benefit, x.max(axis=0), x.min(axis=0))
    worst = np.where(is_benefit, x.min(axis=0), x.max(axis=0))
    span = best - worst
    gap = np.divide(best - x, span, out=np.zeros_like(x), where=span != 0)
    d = w * gap
    s, r = d.sum(axis=1), d.max(axis=1)

    def scaled(a: FloatArray) -> FloatArray:
        lo, hi = float(a.min()), float(a.max())
        return (a - lo) / (hi - lo) if hi > lo else np.zeros_like(a)

    q = v * scaled(s) + (1.0 - v) * scaled(r)
    q_ranks = rank_scores(q, higher_is_better=False)
    m = x.shape[0]
    if m == 1:
        return VikorResult(s, r, q, q_ranks, q_ranks, True, True, (0,), 1.0, v)
    dq = 1.0 / (m - 1)
    chosen = np.flatnonzero(q_ranks == 1)
    best_q = float(q[chosen[0]])
    within_dq = np.flatnonzero(q - best_q < dq - TIE_TOLERANCE)
    advantage = len(within_dq) == len(chosen)
    best_by_s_or_r = set(np.flatnonzero(np.isclose(s, s.min()) | np.isclose(r, r.min())).tolist())
    stability = set(chosen.tolist()) <= best_by_s_or_r
    if advantage and stability:
        compromise = chosen
    elif advantage:
        compromise = np.flatnonzero(q_ranks <= 2)
    else:
        compromise = within_dq
    top = int(q_ranks[compromise].max())
    ranks = np.where(q_ranks <= top, 1, q_ranks - top + 1).astype(np.int64)
    return VikorResult(
        s=s,
        r=r,
        q=q,
        q_ranks=q_ranks,
        ranks=ranks,
        acceptable_advantage=bool(advantage),
        acceptable_stability=bool(stability),
        compromise_set=tuple(int(i) for i in compromise),
        dq=dq,
        v=v,
    )


# --------------------------------------------------------------------------- rank agreement


def kendall_tau(x: Sequence[float], y: Sequence[float]) -> float | None:
    """Kendall's tau-b between two score vectors (higher = better in both); None if undefined.

    tau-b counts ties in either ranking (Kendall 1945), as VIKOR's compromise set and
    equal scores produce them. Knight's O(n log n) algorithm (Knight 1966, JASA 61(314)):
    sort by (x, y), count the ties, and count discordant pairs as the inversions of y in
    that order with a merge sort; the same integer counts as comparing every pair.
    """
    n = len(x)
    order = sorted(range(n), key=lambda i: (x[i], y[i]))
    pairs = n * (n - 1) // 2
    ties_x = _tied_pairs([x[i] for i in order])
    ties_both = _tied_pairs([(x[i], y[i]) for i in order])
    ys = [y[i] for i in order]
    discordant = _inversions(ys)
    ties_y = _tied_pairs(sorted(ys))
    concordant = pairs - ties_x - ties_y + ties_both - discordant
    # Pairs tied in x only / y only, as the pairwise definition counts them.
    only_x, only_y = ties_x - ties_both, ties_y - ties_both
    denom = math.sqrt((concordant + discordant + only_x) * (concordant + discordant + only_y))
    return (concordant - discordant) / denom if denom > 0 else None


def _tied_pairs(sorted_values: Sequence[Any]) -> int:
    """Pairs of equal values in a sorted sequence."""
    total, run = 0, 1
    for a, b in pairwise(sorted_values):
        if a == b:
            run += 1
        else:
            total += run * (run - 1) // 2
            run = 1
    return total + run * (run - 1) // 2


def _inversions(values: list[float]) -> int:
    """Pairs i < j with values[i] > values[j] (equal values are not inversions); sorts
    `values` in place (a bottom-up merge sort)."""
    n = len(values)
    count = 0
    width = 1
    buf = values[:]
    while width < n:
        for lo in range(0, n, 2 * width):
            mid, hi = min(lo + width, n), min(lo + 2 * width, n)
            i, j, k = lo, mid, lo
            while i < mid and j < hi:
                if values[j] < values[i]:
                    buf[k] = values[j]
                    count += mid - i
                    j += 1
                else:
                    buf[k] = values[i]
                    i += 1
                k += 1
            buf[k:hi] = values[i:mid] + values[j:hi]
        values, buf = buf, values
        width *= 2
    return count
