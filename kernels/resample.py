"""Resampling as weighted sums of per-document statistics.

Random numbers never enter a kernel: callers draw bootstrap counts or swap
masks with numpy's Generator; each resample is summed serially over
documents inside a ``prange`` over resamples, so results do not depend on
the number of threads.  Compiled ahead of time (the command line), the
``prange`` is a plain loop: the same additions in the same order, so the
same numbers, and no numba import (~0.5 s of a run that resamples).
"""
import numpy as np
from ._jit import njit, prange


@njit(cache=True, parallel=True)
def _index_sums(index, stats):
    n_res, n_draws = index.shape
    k = stats.shape[1]
    out = np.zeros((n_res, k), dtype=np.float64)
    for b in prange(n_res):
        for j in range(n_draws):
            d = index[b, j]
            for c in range(k):
                out[b, c] += stats[d, c]
    return out


def index_sums(index: np.ndarray, stats: np.ndarray) -> np.ndarray:
    """(n_resamples, k) bootstrap sums: row b adds stats[index[b, 0]], stats[index[b, 1]], ... in order,
    exactly as scoring a corpus made of those documents in that order would."""
    return _index_sums(np.ascontiguousarray(index, dtype=np.int64), np.ascontiguousarray(stats, dtype=np.float64))


@njit(cache=True, parallel=True)
def _swapped_sums(swaps, a, b):
    n_res, n_docs = swaps.shape
    k = a.shape[1]
    out_a = np.zeros((n_res, k), dtype=np.float64)
    out_b = np.zeros((n_res, k), dtype=np.float64)
    for t in prange(n_res):
        for d in range(n_docs):
            if swaps[t, d]:
                for c in range(k):
                    out_a[t, c] += b[d, c]
                    out_b[t, c] += a[d, c]
            else:
                for c in range(k):
                    out_a[t, c] += a[d, c]
                    out_b[t, c] += b[d, c]
    return out_a, out_b


def swapped_sums(swaps: np.ndarray, a: np.ndarray, b: np.ndarray):
    """Approximate randomization: sums of both systems with documents d swapped where swaps[t, d]."""
    return _swapped_sums(np.ascontiguousarray(swaps, dtype=np.bool_),
                         np.ascontiguousarray(a, dtype=np.float64), np.ascontiguousarray(b, dtype=np.float64))
