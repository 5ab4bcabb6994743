"""Seeded resampling plans and resampled statistics sums.

A bootstrap resample draws n documents with replacement (indices from
``numpy.random.default_rng(seed)``, in chunks of ``CHUNK`` resamples);
approximate randomization draws, per trial, a fair coin per document that
swaps the two systems' statistics.  The sums themselves are numba kernels
(``kernels/resample.py``); nothing is re-scored.
"""
from __future__ import annotations

from typing import Iterator

import numpy as np

from ..errors import UsageError

CHUNK = 1000  # resamples drawn per call; fixed so that results depend only on (seed, n)


def check_count(n: int, what: str = "resamples") -> int:
    if not isinstance(n, (int, np.integer)) or isinstance(n, bool) or n < 1:
        raise UsageError(f"the number of {what} must be a whole number >= 1, not {n!r}")
    return int(n)


def bootstrap_indices(n_docs: int, n: int, seed: int | None) -> Iterator[np.ndarray]:
    """Chunks (m, n_docs) of document indices, one row per bootstrap resample."""
    if n_docs < 1:
        raise UsageError("cannot resample a corpus without documents")
    rng = np.random.default_rng(seed)
    done = 0
    while done < n:
        m = min(CHUNK, n - done)
        yield rng.integers(0, n_docs, size=(m, n_docs))
        done += m


def bootstrap_sums(matrices: list[np.ndarray], n: int, seed: int | None) -> list[np.ndarray]:
    """(n, k) resampled column sums of each statistics matrix, all with the same resamples."""
    from ..kernels.resample import index_sums

    n_docs = matrices[0].shape[0]
    out: list[list[np.ndarray]] = [[] for _ in matrices]
    for index in bootstrap_indices(n_docs, check_count(n), seed):
        for acc, m in zip(out, matrices):
            acc.append(index_sums(index, m))
    return [np.concatenate(acc) for acc in out]


def permutation_sums(a: np.ndarray, b: np.ndarray, n: int, seed: int | None) -> tuple[np.ndarray, np.ndarray]:
    """(n, k) column sums of both systems after random per-document swaps."""
    from ..kernels.resample import swapped_sums

    rng = np.random.default_rng(seed)
    out_a, out_b = [], []
    done = 0
    n = check_count(n, "trials")
    while done < n:
        m = min(CHUNK, n - done)
        swaps = rng.integers(0, 2, size=(m, a.shape[0])).astype(bool)
        sa, sb = swapped_sums(swaps, a, b)
        out_a.append(sa)
        out_b.append(sb)
        done += m
    return np.concatenate(out_a), np.concatenate(out_b)
