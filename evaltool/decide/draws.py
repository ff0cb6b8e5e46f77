"""SMAA's draws in chunks: the per-chunk work of `evaltool.decide.sensitivity.smaa`.

Scores of a chunk of weight draws, the uncertain values' contributions drawn for it, the top
ranks of each draw without a full sort, and the optional pairwise counts. Every function
gives, chunk by chunk, the numbers the one-block implementation gave (tests/test_scale.py).
"""

from __future__ import annotations

import numpy as np

from evaltool.decide.mcda import FloatArray


def chunk_rows(columns: int, chunk_bytes: int) -> int:
    """Draws per chunk so that a chunk x `columns` array of doubles takes `chunk_bytes`."""
    return max(1, min(10_000, chunk_bytes // (8 * max(columns, 1))))


Cells = tuple[np.ndarray, np.ndarray, FloatArray, list[tuple[np.ndarray, np.ndarray]]]


def uncertain_cells(intervals: FloatArray | None) -> Cells | None:
    """The cells with an interval of positive width, and for each position p the offers
    with at least p + 1 such cells and the column of their (p + 1)-th cell."""
    if intervals is None:
        return None
    width = intervals[..., 1] - intervals[..., 0]
    alt_idx, crit_idx = np.nonzero(width > 0)  # row-major: each offer's cells in a run
    if not alt_idx.size:
        return None
    starts = np.flatnonzero(np.r_[True, alt_idx[1:] != alt_idx[:-1]])
    lengths = np.diff(np.r_[starts, alt_idx.size])
    steps = []
    for p in range(int(lengths.max())):
        has = lengths > p
        steps.append((alt_idx[starts[has]], starts[has] + p))
    return alt_idx, crit_idx, width[alt_idx, crit_idx], steps


def uncertain_contribution(rng: np.random.Generator, cells: Cells, w_chunk: FloatArray,
                            n_alt: int) -> FloatArray:
    """Each uncertain value uniform in its interval: its extra score, summed per offer.

    Summed cell by cell in the order of the cells ((0 + e1) + e2 + ...), the order in which
    a matrix product with a one-hot matrix (the first implementation) accumulates them.
    """
    _alt_idx, crit_idx, width, steps = cells
    extra = rng.random((w_chunk.shape[0], crit_idx.size))
    # (u x width) x weight, as before, in place: no temporaries of chunk x cells
    np.multiply(extra, width, out=extra)
    np.multiply(extra, np.take(w_chunk, crit_idx, axis=1), out=extra)
    out = np.zeros((w_chunk.shape[0], n_alt))
    for alts, columns in steps:
        out[:, alts] += extra[:, columns]
    return out


def top_ranks(scores: FloatArray, n_ranks: int) -> np.ndarray:
    """The offers at ranks 1..n_ranks of each row: highest score first, ties to the lower index
    (what a stable argsort of -scores gives), without sorting the whole row."""
    neg = -scores
    n_alt = scores.shape[1]
    if n_ranks >= n_alt or n_alt <= 64:
        return np.argsort(neg, axis=1, kind="stable")[:, :n_ranks]
    part = np.argpartition(neg, n_ranks - 1, axis=1)[:, :n_ranks]
    part.sort(axis=1)  # by index, so the stable sort below breaks ties to the lower index
    keys = np.take_along_axis(neg, part, axis=1)
    top = np.take_along_axis(part, np.argsort(keys, axis=1, kind="stable"), axis=1)
    # A row whose last listed score ties offers left out may have kept a higher index than
    # a stable sort would: redo those rows in full.
    last = np.take_along_axis(neg, top[:, -1:], axis=1)
    tied_all = np.count_nonzero(neg == last, axis=1)
    tied_kept = np.count_nonzero(keys == last, axis=1)
    redo = np.flatnonzero(tied_all > tied_kept)
    if redo.size:
        top[redo] = np.argsort(neg[redo], axis=1, kind="stable")[:, :n_ranks]
    return top


def add_pairwise(pair_counts: np.ndarray, order: np.ndarray) -> None:
    """pair_counts[i, j] += draws of this chunk where i ranks above j (full orders only)."""
    n_alt = pair_counts.shape[0]
    # Rank positions in the smallest integer type: the pairwise pass is memory-bound.
    ranks = np.empty(order.shape, dtype=np.int16 if n_alt < 2**15 else np.int64)
    np.put_along_axis(ranks, order, np.arange(n_alt, dtype=ranks.dtype)[None, :], axis=1)
    for i in range(n_alt):  # a loop over offers keeps memory at chunk x n_alt
        pair_counts[i] += np.count_nonzero(ranks[:, i : i + 1] < ranks, axis=0)


def central_weights(draws: FloatArray, winners: np.ndarray, n_alt: int,
                     n_crit: int) -> FloatArray:
    """Mean weights under which each offer wins (NaN for an offer that never wins)."""
    central = np.full((n_alt, n_crit), np.nan)
    win_counts = np.bincount(winners, minlength=n_alt)
    sums = np.column_stack(
        [np.bincount(winners, weights=draws[:, c], minlength=n_alt) for c in range(n_crit)]
    )
    won = win_counts > 0
    central[won] = sums[won] / win_counts[won, None]
    return central
