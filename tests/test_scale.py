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


# --------------------------------------------------------------------------- JSON writer


def _old_report_to_json(data: object) -> str:
    """The writer before issue 15: the oracle the fast writer must equal byte for byte."""
    import json

    from evaltool.report.exports import _canonical

    return json.dumps(_canonical(data), sort_keys=True, indent=2, ensure_ascii=False,
                      allow_nan=False) + "\n"


def _fast(data: object) -> str:
    from evaltool.report.exports import _encode_canonical

    out: list[str] = []
    _encode_canonical(data, "", out)
    return "".join(out) + "\n"


def test_fast_json_writer_equals_the_old_one_on_the_sample_report() -> None:
    import json
    from pathlib import Path

    sample = json.loads((Path(__file__).parent / "fixtures" / "score_report_sample.json")
                        .read_text(encoding="utf-8"))
    assert _fast(sample) == _old_report_to_json(sample)


@pytest.mark.parametrize("seed", range(20))
def test_fast_json_writer_equals_the_old_one_on_random_documents(seed: int) -> None:
    rng = np.random.default_rng(seed)
    atoms = [None, True, False, 0, -3, 10**20, 0.0, -0.0, 1e-9, -1e-7, 2.5e-7, 123456.7654321,
             float("nan"), float("inf"), 1e300, "", "é € \u2028 \"q\" \\ \n\t\x01", "z", "a"]

    def build(depth: int) -> object:
        kind = int(rng.integers(0, 4 if depth < 4 else 1))
        if kind == 0:
            if rng.random() < 0.3:
                return float(rng.normal() * 10.0 ** int(rng.integers(-8, 8)))
            return atoms[int(rng.integers(0, len(atoms)))]
        if kind == 1:
            return [build(depth + 1) for _ in range(int(rng.integers(0, 4)))]
        if kind == 2:
            return tuple(build(depth + 1) for _ in range(int(rng.integers(0, 3))))
        return {str(atoms[int(rng.integers(15, len(atoms)))]) + str(i): build(depth + 1)
                for i in range(int(rng.integers(0, 5)))}

    for _ in range(30):
        doc = build(0)
        assert _fast(doc) == _old_report_to_json(doc)
