"""Aggregation methods: turn a matrix of criterion values into scores and ranks.

Pure numeric functions over numpy arrays, independent of offers and rubrics, so each
can be checked against the textbook oracles in ``shared/research/mcda-procurement.md``
§3 (R1-R15). Rows are alternatives (offers), columns are criteria.

The product's primary model is the additive value model on *absolute* value functions
(``piecewise_linear_value`` / ``discrete_level_value`` then ``weighted_additive``): a
score depends only on the offer and the rubric, never on the other bids, so adding or
removing an offer cannot change anyone else's score (mcda-procurement.md §4.3, §6.3).
Everything else here (relative normalisations, TOPSIS, VIKOR, PROMETHEE II, SPOTIS,
AHP, ELECTRE I, tender price formulas) is a labelled cross-check or a weight-elicitation
aid (§6.4, §6.5).

Weights are always renormalised to sum to 1; ``normalize_weights`` reports whether that
happened so the caller can log it (§6.5, R6).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields, is_dataclass
from typing import Any, Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray

from evaltool.errors import UsageError

FloatArray = NDArray[np.float64]
BoolArray = NDArray[np.bool_]
IntArray = NDArray[np.int64]

Normalization = Literal["vector", "minmax", "max", "sum"]
OutOfBounds = Literal["clip", "interpolate"]
PreferenceFunction = Literal["usual", "ushape", "vshape", "level", "linear", "gaussian"]
RandomIndexTable = Literal["saaty", "donegan-dodd"]

# Ties: two scores closer than this share a rank (absolute; on the 0..100 points scale it
# is far below any rounding in a memo and far above float noise from summing products).
TIE_TOLERANCE = 1e-9
JSON_DECIMALS = 6


class McdaError(UsageError):
    """A matrix, weight vector or parameter that an aggregation method cannot use."""


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
        raise McdaError(f"{name}: found a non-numeric entry ({exc}), expected numbers") from exc
    return array


def _first_bad(mask: BoolArray) -> str:
    index = tuple(int(i) for i in np.argwhere(mask)[0])
    return "[" + ", ".join(str(i) for i in index) + "]"


def as_matrix(matrix: ArrayLike, name: str = "matrix", *, allow_nan: bool = False) -> FloatArray:
    """Check ``matrix`` is a non-empty 2-D array of finite numbers [n_alt, n_crit]."""
    array = _as_float_array(matrix, name)
    if array.ndim != 2 or array.shape[0] == 0 or array.shape[1] == 0:
        raise McdaError(
            f"{name}: found shape {array.shape}, expected a 2-D table "
            "[alternatives x criteria] with at least one row and one column"
        )
    bad = ~np.isfinite(array)
    if allow_nan:
        bad &= ~np.isnan(array)
    if bad.any():
        where = _first_bad(bad)
        raise McdaError(
            f"{name}{where}: found {float(array[tuple(np.argwhere(bad)[0])])!r}, "
            "expected a finite number"
        )
    return array


def as_values(values: ArrayLike, name: str = "values", *, allow_nan: bool = False) -> FloatArray:
    """Check ``values`` is a 2-D table of criterion values in 0..1."""
    array = as_matrix(values, name, allow_nan=allow_nan)
    with np.errstate(invalid="ignore"):
        bad = (array < 0.0) | (array > 1.0)
    if bad.any():
        where = _first_bad(bad)
        raise McdaError(
            f"{name}{where}: found {float(array[tuple(np.argwhere(bad)[0])])!r}, "
            "expected a value in 0..1 (apply the criterion's value function first)"
        )
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
        raise McdaError(f"{name}: found shape {array.shape}, expected a 1-D list of weights")
    if n_criteria is not None and array.size != n_criteria:
        raise McdaError(
            f"{name}: found {array.size} weights, expected one per criterion ({n_criteria})"
        )
    bad = ~np.isfinite(array) | (array < 0)
    if bad.any():
        i = int(np.argwhere(bad)[0][0])
        raise McdaError(f"{name}[{i}]: found {float(array[i])!r}, expected a finite weight >= 0")
    total = float(array.sum())
    if total <= 0.0:
        raise McdaError(f"{name}: all weights are 0, expected at least one positive weight")
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
        raise McdaError(
            f"benefit: found {array.size} directions, expected one per criterion ({n_criteria})"
        )
    if array.dtype != np.bool_:
        raise McdaError(
            f"benefit: found dtype {array.dtype}, expected booleans "
            "(True = more is better, False = less is better)"
        )
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
    if not np.isfinite(array).all():
        raise McdaError("scores: found a non-finite score, expected finite numbers")
    signed = array if higher_is_better else -array
    better = signed[None, :] > signed[:, None] + tolerance
    return (1 + better.sum(axis=1)).astype(np.int64)


# --------------------------------------------------------------------------- value functions


def _check_points(points: Sequence[tuple[float, float]]) -> tuple[FloatArray, FloatArray]:
    try:
        array = np.asarray(points, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise McdaError(f"points: {exc}; expected a list of (x, value) pairs") from exc
    if array.ndim != 2 or array.shape[1] != 2 or array.shape[0] < 2:
        raise McdaError(
            f"points: found shape {array.shape}, expected at least two (x, value) pairs"
        )
    if not np.isfinite(array).all():
        raise McdaError("points: found a non-finite number, expected finite (x, value) pairs")
    xs, vs = array[:, 0], array[:, 1]
    steps = np.diff(xs)
    if (steps <= 0).any():
        i = int(np.argwhere(steps <= 0)[0][0]) + 1
        raise McdaError(
            f"points[{i}]: found x = {float(xs[i])!r} after {float(xs[i - 1])!r}, "
            "expected x strictly increasing"
        )
    if ((vs < 0) | (vs > 1)).any():
        i = int(np.argwhere((vs < 0) | (vs > 1))[0][0])
        raise McdaError(f"points[{i}]: found value {float(vs[i])!r}, expected a value in 0..1")
    return xs, vs


def piecewise_linear_values(
    xs: ArrayLike, points: Sequence[tuple[float, float]], out_of_bounds: OutOfBounds = "clip"
) -> FloatArray:
    """Vectorised ``piecewise_linear_value``."""
    px, pv = _check_points(points)
    x = _as_float_array(xs, "x")
    if np.isnan(x).any():
        raise McdaError("x: found NaN, expected a number (a missing value has its own policy)")
    result = np.interp(x, px, pv)
    if out_of_bounds == "interpolate":
        low, high = x < px[0], x > px[-1]
        slope_low = (pv[1] - pv[0]) / (px[1] - px[0])
        slope_high = (pv[-1] - pv[-2]) / (px[-1] - px[-2])
        result = np.where(low, pv[0] + slope_low * (x - px[0]), result)
        result = np.where(high, pv[-1] + slope_high * (x - px[-1]), result)
    elif out_of_bounds != "clip":
        raise McdaError(f"out_of_bounds: found {out_of_bounds!r}, expected 'clip' or 'interpolate'")
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
        raise McdaError("levels: empty, expected at least one level -> value")
    for name, value in levels.items():
        if not (isinstance(value, (int, float)) and 0.0 <= float(value) <= 1.0):
            raise McdaError(f"levels[{name!r}]: found {value!r}, expected a value in 0..1")
    if level in levels:
        return float(levels[level])
    wanted = str(level).strip().casefold()
    for name, value in levels.items():
        if name.strip().casefold() == wanted:
            return float(value)
    raise McdaError(f"level: found {level!r}, expected one of {sorted(levels)}")


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


def normalize_matrix(
    matrix: ArrayLike, benefit: Sequence[bool] | ArrayLike, method: Normalization
) -> FloatArray:
    """Relative normalisations that also turn cost columns into "more is better".

    * ``vector``: benefit x/sqrt(sum x^2); cost 1 - x/sqrt(sum x^2)
    * ``minmax``: benefit (x - min)/(max - min); cost (max - x)/(max - min); a constant
      column becomes 1 (every offer is equally best on it)
    * ``max`` (linear, "ratio to best", SAW): benefit x/max; cost min/x
    * ``sum``: benefit x/sum x; cost (1/x)/sum(1/x) (1/x inversion then sum scaling)

    These depend on the other bids and break independence of irrelevant alternatives
    (§4.3); they exist to reproduce literature examples and for labelled cross-checks.
    Sources: pymcdm normalizations; scikit-criteria scalers; mcda-procurement.md R4-R6, R13.
    """
    x = as_matrix(matrix)
    is_benefit = as_benefit(benefit, x.shape[1])
    if method in ("vector", "max", "sum") and (x < 0).any():
        where = _first_bad(x < 0)
        raise McdaError(
            f"matrix{where}: found a negative value, '{method}' normalisation expects values >= 0"
        )
    out = np.empty_like(x)
    for j in range(x.shape[1]):
        col, ben = x[:, j], bool(is_benefit[j])
        if method == "vector":
            norm = float(np.sqrt((col**2).sum()))
            ratio = col / norm if norm > 0 else np.zeros_like(col)
            out[:, j] = ratio if ben else 1.0 - ratio
        elif method == "minmax":
            lo, hi = float(col.min()), float(col.max())
            if hi == lo:
                out[:, j] = 1.0
            else:
                out[:, j] = (col - lo) / (hi - lo) if ben else (hi - col) / (hi - lo)
        elif method in ("max", "sum"):
            if ben:
                denom = float(col.max() if method == "max" else col.sum())
                out[:, j] = col / denom if denom > 0 else 0.0
            else:
                if (col <= 0).any():
                    i = int(np.argwhere(col <= 0)[0][0])
                    raise McdaError(
                        f"matrix[{i}, {j}]: found {float(col[i])!r} on a cost criterion, "
                        f"'{method}' normalisation needs values > 0 (it uses 1/x)"
                    )
                out[:, j] = col.min() / col if method == "max" else (1 / col) / (1 / col).sum()
        else:
            raise McdaError(
                f"normalization: found {method!r}, expected 'vector', 'minmax', 'max' or 'sum'"
            )
    return out


def weighted_sum(
    matrix: ArrayLike,
    weights: ArrayLike,
    benefit: Sequence[bool] | ArrayLike,
    normalization: Normalization = "sum",
) -> FloatArray:
    """Weighted sum model (WSM/SAW) on a relative normalisation: S_i = sum_j w_j n_ij.

    Fishburn (1967). ``normalization="sum"`` reproduces Kracka et al. (2010) (R4) and the
    pymcdm WSM test (R6); ``"max"`` is SAW with x/max (Rizan et al. 2020, R13). For the
    product's own scoring use ``weighted_additive`` on absolute value functions.
    """
    n = normalize_matrix(matrix, benefit, normalization)
    w = as_weights(weights, n.shape[1])
    return np.asarray(n @ w, dtype=np.float64)


def weighted_product(
    matrix: ArrayLike,
    weights: ArrayLike,
    benefit: Sequence[bool] | ArrayLike,
    normalization: Normalization = "sum",
) -> FloatArray:
    """Weighted product model: P_i = prod_j n_ij ** w_j (Bridgman 1922; Miller & Starr 1969).

    log10(P_i) = sum_j w_j log10(n_ij) is the form scikit-criteria reports (R5). Scores
    depend on the weight scale, so weights are always normalised to sum 1 first (R6).
    """
    n = normalize_matrix(matrix, benefit, normalization)
    w = as_weights(weights, n.shape[1])
    return np.asarray(np.prod(n**w, axis=1), dtype=np.float64)


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


def _scale_columns(x: FloatArray, method: Normalization) -> FloatArray:
    """Direction-preserving column scaling used inside TOPSIS."""
    if method == "vector":
        denom = np.sqrt((x**2).sum(axis=0))
        return np.divide(x, denom, out=np.zeros_like(x), where=denom > 0)
    if method == "minmax":
        lo, span = x.min(axis=0), np.ptp(x, axis=0)
        return np.divide(x - lo, span, out=np.zeros_like(x), where=span > 0)
    if method == "max":
        denom = np.abs(x).max(axis=0)
        return np.divide(x, denom, out=np.zeros_like(x), where=denom > 0)
    if method == "sum":
        denom = x.sum(axis=0)
        return np.divide(x, denom, out=np.zeros_like(x), where=denom != 0)
    raise McdaError(f"normalization: found {method!r}, expected 'vector', 'minmax', 'max' or 'sum'")


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
        raise McdaError(f"v: found {v!r}, expected a strategy weight in 0..1")
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


# --------------------------------------------------------------------------- PROMETHEE II


@dataclass(frozen=True)
class PrometheeResult(_ToDict):
    """PROMETHEE II leaving (phi_plus), entering (phi_minus) and net (phi) flows."""

    phi_plus: FloatArray
    phi_minus: FloatArray
    phi: FloatArray
    ranks: IntArray
    preference_matrix: FloatArray


def _per_criterion(value: float | ArrayLike | None, n: int, name: str) -> FloatArray:
    if value is None:
        return np.zeros(n)
    array = np.broadcast_to(_as_float_array(value, name), (n,)).astype(np.float64)
    if (~np.isfinite(array) | (array < 0)).any():
        raise McdaError(f"{name}: found {array.tolist()}, expected thresholds >= 0")
    return array


def promethee_ii(
    matrix: ArrayLike,
    weights: ArrayLike,
    benefit: Sequence[bool] | ArrayLike,
    preference: PreferenceFunction = "usual",
    q: float | ArrayLike | None = None,
    p: float | ArrayLike | None = None,
    s: float | ArrayLike | None = None,
) -> PrometheeResult:
    """PROMETHEE II net flows (Brans & Vincke 1985).

    d_j(a, b) = x_aj - x_bj (sign flipped for cost criteria); P_j(d) = 0 for d <= 0 and:
    ``usual`` 1; ``ushape`` 1 if d > q; ``vshape`` min(d/p, 1); ``level`` 0 if d <= q,
    1/2 if q < d <= p, 1 beyond; ``linear`` (V-shape with indifference; pymcdm calls it
    ``vshape_2``) 0 if d <= q, (d - q)/(p - q) if q < d < p, 1 if d >= p; ``gaussian``
    1 - exp(-d^2 / (2 s^2)). pi(a, b) = sum_j w_j P_j(d_j(a, b));
    phi+(a) = sum_b pi(a, b)/(m - 1), phi-(a) = sum_b pi(b, a)/(m - 1), phi = phi+ - phi-.
    Thresholds are per criterion (scalar or one per column), in the criterion's units.
    """
    x = as_matrix(matrix)
    n_alt, n_crit = x.shape
    is_benefit = as_benefit(benefit, n_crit)
    w = as_weights(weights, n_crit)
    qs, ps, ss = (
        _per_criterion(q, n_crit, "q"),
        _per_criterion(p, n_crit, "p"),
        _per_criterion(s, n_crit, "s"),
    )
    sign = np.where(is_benefit, 1.0, -1.0)
    d = (x[:, None, :] - x[None, :, :]) * sign  # d[a, b, j]
    if preference == "usual":
        pref = (d > 0).astype(np.float64)
    elif preference == "ushape":
        pref = (d > qs).astype(np.float64)
    elif preference == "vshape":
        if (ps <= 0).any():
            raise McdaError("p: 'vshape' needs a preference threshold p > 0 on every criterion")
        pref = np.clip(d / ps, 0.0, 1.0)
    elif preference == "level":
        if (ps < qs).any():
            raise McdaError("p: 'level' needs p >= q on every criterion")
        pref = np.where(d > ps, 1.0, np.where(d > qs, 0.5, 0.0))
    elif preference == "linear":
        if (ps <= qs).any():
            raise McdaError("p: 'linear' needs p > q on every criterion")
        pref = np.clip((d - qs) / (ps - qs), 0.0, 1.0)
    elif preference == "gaussian":
        if (ss <= 0).any():
            raise McdaError("s: 'gaussian' needs s > 0 on every criterion")
        pref = np.where(d > 0, 1.0 - np.exp(-(d**2) / (2.0 * ss**2)), 0.0)
    else:
        raise McdaError(
            f"preference: found {preference!r}, expected one of "
            "'usual', 'ushape', 'vshape', 'level', 'linear', 'gaussian'"
        )
    pi = pref @ w
    np.fill_diagonal(pi, 0.0)
    denom = max(n_alt - 1, 1)
    phi_plus, phi_minus = pi.sum(axis=1) / denom, pi.sum(axis=0) / denom
    phi = phi_plus - phi_minus
    return PrometheeResult(phi_plus, phi_minus, phi, rank_scores(phi), pi)


# --------------------------------------------------------------------------- SPOTIS


@dataclass(frozen=True)
class SpotisResult(_ToDict):
    """SPOTIS distances to the reference point (lower is better)."""

    scores: FloatArray
    ranks: IntArray
    reference: FloatArray


def spotis(
    matrix: ArrayLike,
    weights: ArrayLike,
    bounds: ArrayLike,
    benefit: Sequence[bool] | ArrayLike,
    reference: ArrayLike | None = None,
) -> SpotisResult:
    """SPOTIS (Dezert et al. 2020): distance to a reference point on declared bounds.

    score_i = sum_j w_j |x_ij - s_j| / (max_j - min_j), lower is better; ``bounds`` is
    [n_crit, 2] (min, max) fixed in advance, ``reference`` s defaults to the ideal point
    (min for cost, max for benefit) or may be an expected-solution point. Because bounds
    are fixed, adding or removing a bid never changes the others' scores (R10).
    """
    x = as_matrix(matrix)
    n_crit = x.shape[1]
    is_benefit = as_benefit(benefit, n_crit)
    w = as_weights(weights, n_crit)
    b = _as_float_array(bounds, "bounds")
    if b.shape != (n_crit, 2) or not np.isfinite(b).all():
        raise McdaError(f"bounds: found shape {b.shape}, expected finite (min, max) per criterion")
    lo, hi = b[:, 0], b[:, 1]
    if (hi <= lo).any():
        j = int(np.argwhere(hi <= lo)[0][0])
        raise McdaError(
            f"bounds[{j}]: found min {float(lo[j])!r} >= max {float(hi[j])!r}, expected min < max"
        )
    outside = (x < lo) | (x > hi)
    if outside.any():
        i, j = (int(k) for k in np.argwhere(outside)[0])
        raise McdaError(
            f"matrix[{i}, {j}]: found {float(x[i, j])!r}, expected a value within the "
            f"declared bounds {float(lo[j])!r}..{float(hi[j])!r}"
        )
    if reference is None:
        ref = np.where(is_benefit, hi, lo)
    else:
        ref = _as_float_array(reference, "reference")
        if ref.shape != (n_crit,):
            raise McdaError(f"reference: found shape {ref.shape}, expected one value per criterion")
    scores = (np.abs(x - ref) / (hi - lo)) @ w
    return SpotisResult(scores, rank_scores(scores, higher_is_better=False), ref)


# --------------------------------------------------------------------------- AHP

# Random consistency indices RI by matrix size n.
# Saaty (1980) "The Analytic Hierarchy Process", Table 1.7 (n = 1..15).
SAATY_RANDOM_INDEX: dict[int, float] = {
    1: 0.0,
    2: 0.0,
    3: 0.58,
    4: 0.90,
    5: 1.12,
    6: 1.24,
    7: 1.32,
    8: 1.41,
    9: 1.45,
    10: 1.49,
    11: 1.51,
    12: 1.48,
    13: 1.56,
    14: 1.57,
    15: 1.59,
}
# Donegan & Dodd (1991) "A note on Saaty's random indexes", Math. Comput. Modelling 15(10),
# as tabulated in AHPy (PhilipGriffith/AHPy, src/ahpy/ahpy.py).
DONEGAN_DODD_RANDOM_INDEX: dict[int, float] = {
    1: 0.0,
    2: 0.0,
    3: 0.4914,
    4: 0.8286,
    5: 1.0591,
    6: 1.1797,
    7: 1.2519,
    8: 1.3171,
    9: 1.3733,
    10: 1.4055,
    11: 1.4213,
    12: 1.4497,
    13: 1.4643,
    14: 1.4822,
    15: 1.4969,
    16: 1.5078,
    17: 1.5153,
    18: 1.5262,
    19: 1.5313,
    20: 1.5371,
}
CONSISTENCY_RATIO_LIMIT = 0.10  # Saaty's rule of thumb: CR <= 0.1 is acceptable


@dataclass(frozen=True)
class AhpResult(_ToDict):
    """AHP priority vector and consistency of one pairwise-comparison matrix."""

    weights: FloatArray
    lambda_max: float
    consistency_index: float
    random_index: float | None
    consistency_ratio: float | None
    consistent: bool | None


def pairwise_matrix(items: Sequence[str], judgments: Mapping[tuple[str, str], float]) -> FloatArray:
    """Reciprocal matrix from judgments {(a, b): how many times a is preferred to b}.

    Every unordered pair must be judged exactly once (reciprocals are implied).
    """
    index = {name: k for k, name in enumerate(items)}
    if len(index) != len(items):
        raise McdaError(f"items: found duplicates in {list(items)}, expected unique names")
    n = len(items)
    a = np.ones((n, n))
    seen: set[frozenset[str]] = set()
    for (first, second), value in judgments.items():
        for name in (first, second):
            if name not in index:
                raise McdaError(
                    f"judgments[{first!r}, {second!r}]: unknown item {name!r}, "
                    f"expected one of {list(items)}"
                )
        pair = frozenset((first, second))
        if first == second or pair in seen:
            raise McdaError(f"judgments[{first!r}, {second!r}]: repeated or self comparison")
        if not (isinstance(value, (int, float)) and math.isfinite(value) and value > 0):
            raise McdaError(
                f"judgments[{first!r}, {second!r}]: found {value!r}, "
                "expected a ratio > 0 (Saaty scale 1/9..9)"
            )
        seen.add(pair)
        i, j = index[first], index[second]
        a[i, j], a[j, i] = float(value), 1.0 / float(value)
    for i in range(n):
        for j in range(i + 1, n):
            if frozenset((items[i], items[j])) not in seen:
                raise McdaError(
                    f"judgments: missing ({items[i]!r}, {items[j]!r}), "
                    "expected every pair to be compared"
                )
    return a


def ahp_priorities(pairwise: ArrayLike, random_index: RandomIndexTable = "saaty") -> AhpResult:
    """AHP priority vector (principal right eigenvector) and consistency ratio (Saaty 1980).

    A w = lambda_max w, w normalised to sum 1; CI = (lambda_max - n)/(n - 1); CR = CI/RI(n)
    with RI from Saaty (1980) or Donegan & Dodd (1991). CR > 0.1 means the judgments are
    too inconsistent to use as weights without review (mcda-procurement.md §6.5, R11).
    """
    a = as_matrix(pairwise, "pairwise")
    n = a.shape[0]
    if a.shape != (n, n):
        raise McdaError(f"pairwise: found shape {a.shape}, expected a square matrix")
    if (a <= 0).any():
        raise McdaError(f"pairwise{_first_bad(a <= 0)}: expected ratios > 0")
    if not np.allclose(a * a.T, 1.0, rtol=1e-6, atol=1e-9):
        raise McdaError(
            f"pairwise{_first_bad(~np.isclose(a * a.T, 1.0))}: expected a "
            "reciprocal matrix (a_ij = 1/a_ji)"
        )
    eigenvalues, eigenvectors = np.linalg.eig(a)
    k = int(np.argmax(eigenvalues.real))
    lambda_max = float(eigenvalues[k].real)
    vector = np.abs(eigenvectors[:, k].real)
    weights = vector / vector.sum()
    ci = (lambda_max - n) / (n - 1) if n > 2 else 0.0
    table = SAATY_RANDOM_INDEX if random_index == "saaty" else DONEGAN_DODD_RANDOM_INDEX
    if random_index not in ("saaty", "donegan-dodd"):
        raise McdaError(f"random_index: found {random_index!r}, expected 'saaty' or 'donegan-dodd'")
    ri = table.get(n)
    if n <= 2:
        cr: float | None = 0.0
    elif ri is None:
        cr = None
    else:
        cr = ci / ri
    consistent = None if cr is None else cr <= CONSISTENCY_RATIO_LIMIT
    return AhpResult(weights, lambda_max, ci, ri, cr, consistent)


def ahp_global_priorities(
    criteria_weights: ArrayLike, alternative_matrices: Sequence[ArrayLike]
) -> FloatArray:
    """Classic AHP synthesis: global_i = sum_k w_k p_ik, p_k the eigenvector priorities of
    the alternatives' pairwise matrix under criterion k (Saaty 1980; R11 hierarchy)."""
    w = _as_float_array(criteria_weights, "criteria_weights")
    if w.ndim != 1 or len(alternative_matrices) != w.size:
        raise McdaError(
            f"alternative_matrices: found {len(alternative_matrices)}, "
            f"expected one per criterion ({w.size})"
        )
    w = as_weights(w, w.size, "criteria_weights")
    local = np.column_stack([ahp_priorities(m).weights for m in alternative_matrices])
    return np.asarray(local @ w, dtype=np.float64)


# --------------------------------------------------------------------------- ELECTRE I


@dataclass(frozen=True)
class ElectreIResult(_ToDict):
    """ELECTRE I concordance/discordance, outranking relation and kernel."""

    concordance: FloatArray
    discordance: FloatArray
    outranks: BoolArray
    kernel: tuple[int, ...]


def electre_i(
    matrix: ArrayLike,
    weights: ArrayLike,
    benefit: Sequence[bool] | ArrayLike,
    p: float = 0.65,
    q: float = 0.35,
) -> ElectreIResult:
    """ELECTRE I (Roy 1968), in the formulation scikit-criteria tests (Cebrián & Porcar 2009).

    c(a, b) = sum of w_j over criteria where a is at least as good as b (ties count);
    d(a, b) = max over criteria where b is strictly better of |x_bj - x_aj| / delta, delta
    the largest column range of the matrix (so columns must be commensurate: scale them
    first, e.g. by column sums); a outranks b iff c(a, b) >= p and d(a, b) <= q; the kernel
    is the alternatives no other outranks. Diagonals are NaN.
    """
    x = as_matrix(matrix)
    n_alt, n_crit = x.shape
    is_benefit = as_benefit(benefit, n_crit)
    w = as_weights(weights, n_crit)
    sign = np.where(is_benefit, 1.0, -1.0)
    diff = (x[:, None, :] - x[None, :, :]) * sign  # > 0: a better than b on j
    concordance = (diff >= 0) @ w
    delta = float(np.ptp(x, axis=0).max())
    worse = np.where(diff < 0, -diff, 0.0)
    discordance = worse.max(axis=2) / delta if delta > 0 else np.zeros((n_alt, n_alt))
    np.fill_diagonal(concordance, np.nan)
    np.fill_diagonal(discordance, np.nan)
    with np.errstate(invalid="ignore"):
        outranks = (concordance >= p) & (discordance <= q)
    kernel = tuple(int(i) for i in np.flatnonzero(~outranks.any(axis=0)))
    return ElectreIResult(concordance, discordance, outranks, kernel)


# --------------------------------------------------------------------------- tender price formulas


def _as_prices(prices: ArrayLike) -> FloatArray:
    array = _as_float_array(prices, "prices").ravel()
    if array.size == 0 or (~np.isfinite(array) | (array <= 0)).any():
        raise McdaError("prices: expected at least one finite price > 0")
    return array


def price_points_relative_to_lowest(prices: ArrayLike, max_points: float) -> FloatArray:
    """Points = max_points * P_min / P_i ("low-bid" formula; Negometrix; R14).

    Relative: depends on the other bids and breaks IIA (§4.3). Reference only.
    """
    p = _as_prices(prices)
    return np.asarray(max_points * p.min() / p, dtype=np.float64)


def price_points_linear_from_lowest(prices: ArrayLike, max_points: float) -> FloatArray:
    """Points = max_points * max(0, 1 - (P_i - P_min)/P_min) (relative; §4.3)."""
    p = _as_prices(prices)
    return np.asarray(max_points * np.clip(1 - (p - p.min()) / p.min(), 0, 1), dtype=np.float64)


def price_points_between_bounds(
    prices: ArrayLike, full_points_price: float, zero_points_price: float, max_points: float
) -> FloatArray:
    """Points = max_points * clip((P_zero - P_i)/(P_zero - P_full), 0, 1).

    Linear between buyer-set prices declared before bids are opened (Negometrix
    Psetmin/Psetmax): independent of the other bids (§4.3).
    """
    p = _as_prices(prices)
    if not zero_points_price > full_points_price:
        raise McdaError(
            f"zero_points_price: found {zero_points_price!r}, expected a price "
            f"above full_points_price {full_points_price!r}"
        )
    share = (zero_points_price - p) / (zero_points_price - full_points_price)
    return np.asarray(max_points * np.clip(share, 0.0, 1.0), dtype=np.float64)


# --------------------------------------------------------------------------- weights from a ranking


def rank_order_centroid_weights(n: int) -> FloatArray:
    """ROC weights for criteria ranked 1..n: w_i = (1/n) sum_{k=i..n} 1/k.

    Barron & Barrett (1996); the mean of uniform simplex weights sorted in decreasing
    order (mcda-procurement.md §3 R15).
    """
    if n < 1:
        raise McdaError(f"n: found {n}, expected at least one criterion")
    inverse = 1.0 / np.arange(1, n + 1)
    return np.asarray(np.cumsum(inverse[::-1])[::-1] / n, dtype=np.float64)
