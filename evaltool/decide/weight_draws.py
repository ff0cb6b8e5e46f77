"""Weights drawn for SMAA: uniformly inside the rubric's weight bands, or from a ranking.

Exact rejection sampling (a box or a simplex proposal) where acceptance is high enough,
hit-and-run otherwise (Smith 1984; Tervonen & Lahdelma 2007 for SMAA weight sampling), and
rank-ordered draws (Barron & Barrett 1996) when only an order of importance is known.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from evaltool.decide.mcda import (
    FloatArray,
    McdaError,
    _as_float_array,
    _not_finite,
    as_weights,
)
from evaltool.issues import Issue

# Below this acceptance rate exact rejection sampling is too slow; use hit-and-run.
MIN_ACCEPTANCE = 0.01


def _as_bands(weight_bands: ArrayLike, n_crit: int) -> FloatArray:
    bands = _as_float_array(weight_bands, "weight_bands")
    if bands.shape != (n_crit, 2):
        raise McdaError(Issue(None, code="mcda-bands-shape",
                              params={"shape": str(bands.shape), "criteria": n_crit}))
    error = _not_finite("weight_bands", bands)
    if error is not None:
        raise error
    bad = (bands[:, 0] < 0) | (bands[:, 1] > 1) | (bands[:, 0] > bands[:, 1])
    if bad.any():
        j = int(np.argwhere(bad)[0][0])
        raise McdaError(Issue(None, code="mcda-band-invalid", params={
            "index": j, "low": repr(float(bands[j, 0])), "high": repr(float(bands[j, 1]))}))
    if bands[:, 0].sum() > 1 + 1e-9 or bands[:, 1].sum() < 1 - 1e-9:
        raise McdaError(Issue(None, code="mcda-bands-infeasible", params={
            "low_sum": float(bands[:, 0].sum()), "high_sum": float(bands[:, 1].sum())}))
    return bands


def relative_weight_bands(weights: ArrayLike, relative: float = 0.2) -> FloatArray:
    """Bands w_j (1 -/+ relative), clipped to 0..1: the default +/-20 %."""
    w = _as_float_array(weights, "weights")
    w = as_weights(w, w.size)
    if not relative >= 0.0:
        raise McdaError(Issue(None, code="mcda-relative-negative",
                              params={"found": repr(relative)}))
    return np.column_stack([np.clip(w * (1 - relative), 0, 1), np.clip(w * (1 + relative), 0, 1)])


def _propose_box(
    rng: np.random.Generator, lo: FloatArray, hi: FloatArray, k: int, size: int
) -> FloatArray:
    """Uniform in the box on every coordinate but k; w_k = 1 - sum(others); keep if in band."""
    n = lo.size
    others = np.array([j for j in range(n) if j != k])
    u = rng.random((size, n - 1))
    draws = np.empty((size, n))
    draws[:, others] = lo[others] + u * (hi[others] - lo[others])
    draws[:, k] = 1.0 - draws[:, others].sum(axis=1)
    keep = (draws[:, k] >= lo[k]) & (draws[:, k] <= hi[k])
    kept: FloatArray = draws[keep]
    return kept


def _propose_simplex(
    rng: np.random.Generator, lo: FloatArray, hi: FloatArray, size: int
) -> FloatArray:
    """lo + (1 - sum lo) * Dirichlet(1, ..., 1); keep if under every high bound."""
    e = rng.standard_exponential((size, lo.size))
    draws = lo + (1.0 - lo.sum()) * (e / e.sum(axis=1, keepdims=True))
    kept: FloatArray = draws[(draws <= hi).all(axis=1)]
    return kept


def _hit_and_run(
    rng: np.random.Generator, lo: FloatArray, hi: FloatArray, n_draws: int
) -> FloatArray:
    """Hit-and-run on {sum w = 1, lo <= w <= hi} (Smith 1984; Tervonen et al. 2013,
    R package hitandrun), many chains advanced together so each step is one numpy pass.

    It runs in band units u_j = (w_j - lo_j)/(hi_j - lo_j), where the polytope is a slice
    of the unit cube (an affine map keeps the uniform distribution uniform, and mixing is
    far faster than in raw weights when band widths differ). Each chain starts at the
    interior point u = const, burns in 10 n steps and then yields one draw every n steps
    (n = criteria with a non-zero band).
    """
    free = hi - lo > 1e-15
    n_free = int(free.sum())
    width = (hi - lo)[free]
    start = lo + (hi - lo) * ((1.0 - lo.sum()) / (hi - lo).sum())
    n_chains = min(n_draws, 256)
    per_chain = -(-n_draws // n_chains)
    thin, burn_in = max(n_free, 5), 10 * max(n_free, 5)
    # Directions keep sum_j width_j u_j (= sum w - sum lo) constant.
    normal = width / np.sqrt((width**2).sum())
    u = np.full((n_chains, n_free), (1.0 - lo.sum()) / (hi - lo).sum())
    out = np.empty((per_chain, n_chains, n_free))
    taken = 0
    for step in range(burn_in + per_chain * thin):
        d = rng.standard_normal(u.shape)
        d -= (d @ normal)[:, None] * normal
        inv = 1.0 / d
        a, b = -u * inv, (1.0 - u) * inv
        t_min = np.minimum(a, b).max(axis=1)
        t_max = np.maximum(a, b).min(axis=1)
        t = t_min + rng.random(n_chains) * np.maximum(t_max - t_min, 0.0)
        u = np.clip(u + t[:, None] * d, 0.0, 1.0)
        if step >= burn_in and (step - burn_in) % thin == thin - 1:
            out[taken] = u
            taken += 1
    draws = np.tile(start, (n_chains * per_chain, 1))
    draws[:, free] = lo[free] + out.reshape(-1, n_free) * width
    draws = draws[:n_draws]
    return np.asarray(draws / draws.sum(axis=1, keepdims=True), dtype=np.float64)


def sample_weights_in_bands(
    weight_bands: ArrayLike, n_draws: int, rng: np.random.Generator
) -> tuple[FloatArray, float, str]:
    """Weights drawn uniformly from {w : sum w = 1, low_j <= w_j <= high_j}.

    This is SMAA-2's "uniform over the feasible weight space" (Lahdelma & Salminen 2001;
    Tervonen & Figueira 2008) restricted to the rubric's bands; with bands (0, 1) it is
    the uniform simplex, Dirichlet(1, ..., 1). Sampling is exact by rejection from one of
    two proposals that are uniform on sets containing the polytope: (a) the box of bands
    on all coordinates but the widest, that one set to 1 - sum(others) (an affine graph
    over the box, so uniform); (b) lows + slack x Dirichlet(1) (uniform on the simplex
    above the lows). A 1,000-draw pilot picks the one that accepts more often; both give
    the same distribution. When both accept under 1 % (e.g. many free weights mixed with
    narrow bands) it falls back to hit-and-run, uniform in the limit.
    Uniform-then-renormalise was rejected: it leaves the bands and is not uniform (with
    bands (0, 1) it gives P(w1 > 3/7) = 0.625, not 4/7).
    Returns the draws [n_draws, n_crit], the acceptance rate, and the method used.
    """
    bands = _as_float_array(weight_bands, "weight_bands")
    bands = _as_bands(bands, bands.shape[0] if bands.ndim == 2 else -1)
    lo, hi = bands[:, 0], bands[:, 1]
    n = lo.size
    if n_draws < 1:
        raise McdaError(Issue(None, code="mcda-draws-count", params={"found": repr(n_draws)}))
    slack_low, slack_high = 1.0 - lo.sum(), hi.sum() - 1.0
    if n == 1 or slack_low <= 1e-12 or slack_high <= 1e-12:
        point = lo / lo.sum() if slack_low <= 1e-12 else hi / hi.sum()
        if n == 1:
            point = np.ones(1)
        return np.tile(point, (n_draws, 1)), 1.0, "fixed (the bands admit one weight vector)"
    k = int(np.argmax(hi - lo))
    pilot = 1000
    rate_box = _propose_box(rng, lo, hi, k, pilot).shape[0] / pilot
    rate_simplex = _propose_simplex(rng, lo, hi, pilot).shape[0] / pilot
    rate = max(rate_box, rate_simplex)
    if rate < MIN_ACCEPTANCE:
        return _hit_and_run(rng, lo, hi, n_draws), rate, "hit-and-run"
    use_box = rate_box >= rate_simplex
    chunks: list[FloatArray] = []
    have, proposed = 0, 0
    while have < n_draws:
        size = int(min(max((n_draws - have) / rate * 1.1 + 64, 256), 250_000))
        proposed += size
        batch = (
            _propose_box(rng, lo, hi, k, size) if use_box else _propose_simplex(rng, lo, hi, size)
        )
        chunks.append(batch)
        have += batch.shape[0]
    draws = np.concatenate(chunks)[:n_draws]
    return np.ascontiguousarray(draws), float(have / proposed), "rejection (exact)"


def sample_ordinal_weights(n_draws: int, n_crit: int, rng: np.random.Generator) -> FloatArray:
    """Uniform simplex weights sorted w_1 >= w_2 >= ... >= w_n (criteria ranked only).

    Their mean is the rank-order-centroid weights (Barron & Barrett 1996; R15)."""
    e = rng.standard_exponential((n_draws, n_crit))
    w = e / e.sum(axis=1, keepdims=True)
    return np.asarray(-np.sort(-w, axis=1), dtype=np.float64)
