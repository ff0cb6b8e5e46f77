"""Sensitivity analysis speed: SMAA-2 with 10,000 draws x 50 offers x 30 criteria
(target: under 0.5 s on this 2-core machine), plus the closed-form analyses.

Run: PYTHONPATH=. .venv/bin/python benchmarks/sensitivity.py
Prints the figures; it asserts nothing (benchmarks are not tests).
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from evaltool.decide.sensitivity import (
    clarification_priority,
    dominance,
    rank_intervals,
    smaa,
    tornado,
    weight_break_evens,
)
from evaltool.decide.weight_draws import (
    relative_weight_bands,
    sample_weights_in_bands,
)

N_OFFERS, N_CRITERIA, N_DRAWS = 50, 30, 10_000


def timed(label: str, fn: Callable[[], Any], repeat: int = 7) -> Any:
    """Run ``fn`` ``repeat`` times; print best and median wall time."""
    result = None
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    print(
        f"{label:<58} best {min(times) * 1e3:8.1f} ms   median "
        f"{statistics.median(times) * 1e3:8.1f} ms"
    )
    return result


def main() -> None:
    rng = np.random.default_rng(2024)
    values = rng.random((N_OFFERS, N_CRITERIA))
    weights = rng.dirichlet(np.ones(N_CRITERIA))
    bands = relative_weight_bands(weights, 0.2)
    missing = rng.random(values.shape) < 0.05
    print(
        f"{N_OFFERS} offers x {N_CRITERIA} criteria, weight bands +/-20 %, "
        f"{int(missing.sum())} unknown values\n"
    )

    result = timed(
        f"smaa: {N_DRAWS:,} draws",
        lambda: smaa(values, weights, bands, n_draws=N_DRAWS, seed=0),
    )
    print(
        f"  weight model: {result.weight_model}; acceptance {result.acceptance_rate:.3f}; "
        f"max win probability {result.win_probability.max():.4f}"
    )
    timed(
        f"smaa: {N_DRAWS:,} draws + missing values sampled",
        lambda: smaa(values, weights, bands, n_draws=N_DRAWS, seed=0, missing_intervals=missing),
    )
    same = smaa(values, weights, bands, n_draws=N_DRAWS, seed=0)
    print(
        f"  same seed, same numbers: "
        f"{np.array_equal(same.rank_acceptability, result.rank_acceptability)}"
    )

    free = bands.copy()
    free[: N_CRITERIA // 2] = [0.0, 1.0]  # half free, half narrow: forces the fallback
    draws, rate, method = sample_weights_in_bands(free, N_DRAWS, np.random.default_rng(0))
    timed(
        f"weights only, mixed free/narrow bands ({method})",
        lambda: sample_weights_in_bands(free, N_DRAWS, np.random.default_rng(0)),
        repeat=3,
    )
    print(f"  pilot acceptance {rate:.4f}; draws {draws.shape}\n")

    timed("weight_break_evens (all criteria)", lambda: weight_break_evens(values, weights, bands))
    timed("tornado (all criteria)", lambda: tornado(values, weights, bands))
    timed("dominance", lambda: dominance(values))
    masked = np.where(missing, np.nan, values)
    timed("rank_intervals", lambda: rank_intervals(masked, weights, missing))
    timed("clarification_priority", lambda: clarification_priority(masked, weights, missing))


if __name__ == "__main__":
    main()
