"""Linear at scale (issue 15): the faster paths give the same results as the old ones.

Speed itself is measured by benchmarks/scale.py, never by a timed test.
"""

from __future__ import annotations

import numpy as np
import pytest

from evaltool.decide.sensitivity import relative_weight_bands, smaa


@pytest.mark.parametrize("seed", range(6))
def test_smaa_without_unread_outputs_gives_the_same_acceptabilities(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n_alt, n_crit = int(rng.integers(2, 40)), int(rng.integers(2, 12))
    values = rng.random((n_alt, n_crit))
    weights = rng.random(n_crit) + 0.05
    weights /= weights.sum()
    bands = relative_weight_bands(weights, 0.3)
    missing = rng.random((n_alt, n_crit)) < 0.1
    old = smaa(values, weights, bands, n_draws=2_000, seed=seed, missing_intervals=missing,
               extra_outputs=True)
    new = smaa(values, weights, bands, n_draws=2_000, seed=seed, missing_intervals=missing)
    np.testing.assert_array_equal(new.rank_acceptability, old.rank_acceptability)
    np.testing.assert_array_equal(new.win_probability, old.win_probability)
    assert new.central_weights is None and new.pairwise_winning is None
    assert old.pairwise_winning is not None
    # the pairwise table, when asked for, still agrees with the acceptabilities
    np.testing.assert_allclose(old.pairwise_winning.diagonal(), 0.0)
