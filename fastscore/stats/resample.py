"""Seeded resampling plans and what is computed from resampled statistics sums.

A bootstrap resample draws n documents with replacement (indices from
``numpy.random.default_rng(seed)``, one call per chunk of resamples);
approximate randomization draws, per trial, a fair coin per document that
swaps the two systems' statistics.  The sums themselves are numba kernels
(``kernels/resample.py``); nothing is re-scored.

Memory does not grow with the number of resamples beyond what is kept: the
sums of a chunk of resamples are turned into the values asked for (F1 of a
metric) before the next chunk is drawn, and only those values, ``n`` floats
each, are kept (percentile and BCa intervals and p-values need all of them).
A chunk has at most ``CHUNK`` resamples and its indices at most ``INDEX_BYTES``
bytes.  The draws do not depend on the chunk size: numpy's Generator gives the
same integers in the same order whether ``integers(0, n_docs, size=(k, n_docs))``
is called once or in several calls of fewer rows (its 32-bit draws keep their
leftover half in the bit generator's state; ``tests/test_statistics_outputs.py``
checks it), so the same seed gives the same numbers whatever the corpus size.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

import numpy as np

from ..errors import UsageError

CHUNK = 1000  # most resamples drawn per call
INDEX_BYTES = 64 * 2**20  # most bytes of one chunk of resample indices (int64) or swap draws
SAMPLE_BUDGET = 2 * 10**9  # most bytes of resampled values held at once (n float64 per metric or system)
WORKING = 2  # arrays of n floats beside the kept ones: a quantile's copy, a p-value's temporaries

Values = Callable[[np.ndarray], np.ndarray]  # (m, k) summed statistics -> (m,) values (an F1 per row)


def check_count(n: int, what: str = "resamples") -> int:
    if not isinstance(n, (int, np.integer)) or isinstance(n, bool) or n < 1:
        raise UsageError(f"the number of {what} must be a whole number >= 1, not {n!r}")
    return int(n)


def check_budget(n: int, kept: int, what: str, working: int = WORKING, budget: int = SAMPLE_BUDGET) -> None:
    """Refuse ``n`` resamples before anything is drawn when ``kept`` arrays of ``n`` float64 values (one per
    metric or system; ``what`` names them, e.g. ``"8 metrics"``) and ``working`` arrays of working space
    would need more than ``budget`` bytes."""
    arrays = kept + working
    need = 8 * n * arrays
    if need > budget:
        raise UsageError(f"{n} resamples need about {_gb(need)} of memory for the resampled F1 values of {what} "
                         f"({arrays} arrays of {n} floats with the working copies; the limit is {_gb(budget)}): "
                         f"use at most {budget // (8 * arrays)} resamples")


def _gb(n: int) -> str:
    return f"{n / 1e9:.1f} GB"


def chunk_rows(n_docs: int) -> int:
    """Resamples per chunk: at most ``CHUNK``, and at most ``INDEX_BYTES`` of int64 indices (at least 1)."""
    return max(1, min(CHUNK, INDEX_BYTES // (8 * max(n_docs, 1))))


def _chunk_sizes(n_docs: int, n: int) -> Iterator[int]:
    """The sizes of the chunks of ``n`` resamples of ``n_docs`` documents, in order."""
    rows = chunk_rows(n_docs)
    for done in range(0, n, rows):
        yield min(rows, n - done)


def bootstrap_indices(n_docs: int, n: int, seed: int | None,
                      strata: np.ndarray | None = None) -> Iterator[np.ndarray]:
    """Chunks (m, n_docs) of document indices, one row per bootstrap resample.  With ``strata`` (each
    document's stratum, e.g. its dataset) each document's place is drawn among the documents of its own stratum,
    so that every resample holds as many documents of each stratum as the corpus."""
    if n_docs < 1:
        raise UsageError("cannot resample a corpus without documents")
    rng = np.random.default_rng(seed)
    groups = None if strata is None else [np.flatnonzero(strata == s) for s in np.unique(strata)]
    for m in _chunk_sizes(n_docs, n):
        if groups is None:
            yield rng.integers(0, n_docs, size=(m, n_docs))
        else:
            yield _stratified(rng.random((m, n_docs)), groups)


def _stratified(uniform: np.ndarray, groups: list[np.ndarray]) -> np.ndarray:
    """Indices from uniform draws in [0, 1): place j of a resample takes a document of j's own stratum.
    (Floats, one 64-bit draw each: chunks of any size give the same indices, as integers do.)"""
    index = np.empty(uniform.shape, dtype=np.int64)
    for rows in groups:
        pick = np.minimum((uniform[:, rows] * len(rows)).astype(np.int64), len(rows) - 1)
        index[:, rows] = rows[pick]
    return index


def swap_masks(n_docs: int, n: int, seed: int | None) -> Iterator[np.ndarray]:
    """Chunks (m, n_docs) of per-document swaps (bool), one row per randomization trial."""
    rng = np.random.default_rng(seed)
    for m in _chunk_sizes(n_docs, n):
        yield rng.integers(0, 2, size=(m, n_docs)).astype(bool)


def bootstrap_values(matrices: Sequence[np.ndarray], values: Sequence[Sequence[Values]], n: int,
                     seed: int | None, strata: np.ndarray | None = None) -> list[list[np.ndarray]]:
    """For each statistics matrix i and each function f of ``values[i]``: f of the resampled column sums,
    (n,) float64, all matrices with the same resamples (``strata``: drawn within each stratum, see
    :func:`bootstrap_indices`).  Only these arrays are kept."""
    from ..kernels.resample import index_sums

    n = check_count(n)
    out = [[np.empty(n, dtype=np.float64) for _ in fs] for fs in values]
    # the matrices side by side: one pass over each resample's draws sums them all (each column on its own,
    # in draw order: the same sums as one matrix at a time)
    together = np.hstack(matrices) if len(matrices) > 1 else matrices[0]
    ends = np.cumsum([m.shape[1] for m in matrices]).tolist()
    blocks = None if strata is None else _blocks(together, strata)
    done = 0
    for index in bootstrap_indices(matrices[0].shape[0], n, seed, strata):
        m = len(index)
        sums = index_sums(index, together) if blocks is None else _block_sums(index, blocks, together.shape[1])
        for start, end, fs, acc in zip([0] + ends, ends, values, out):
            for f, a in zip(fs, acc):
                a[done:done + m] = f(sums[:, start:end])
        done += m
    return out


def _blocks(matrix: np.ndarray, strata: np.ndarray) -> list[tuple] | None:
    """Per stratum: its rows, the columns where they are not all zero, those rows' values there, and where each
    row sits among its stratum's — when no column is non-zero in two strata (datasets side by side, each in its
    own columns); else None.  Summing a stratum's draws over its own columns only gives the same sums, bit for
    bit (the other strata add zeros), in a fraction of the work."""
    out, seen = [], np.zeros(matrix.shape[1], dtype=bool)
    position = np.empty(matrix.shape[0], dtype=np.int64)
    for s in np.unique(strata):
        rows = np.flatnonzero(strata == s)
        cols = np.flatnonzero((matrix[rows] != 0).any(axis=0))
        if seen[cols].any():
            return None
        seen[cols] = True
        position[rows] = np.arange(len(rows))
        out.append((rows, cols, np.ascontiguousarray(matrix[np.ix_(rows, cols)])))
    return [(rows, cols, values, position) for rows, cols, values in out]


def _block_sums(index: np.ndarray, blocks: list[tuple], k: int) -> np.ndarray:
    """:func:`~fastscore.kernels.resample.index_sums` of stratified draws, one stratum's columns at a time."""
    from ..kernels.resample import index_sums

    sums = np.zeros((len(index), k), dtype=np.float64)
    for rows, cols, values, position in blocks:
        if len(cols):
            sums[:, cols] = index_sums(position[index[:, rows]], values)
    return sums


def permutation_values(a: np.ndarray, b: np.ndarray, value: Values, n: int, seed: int | None) -> np.ndarray:
    """(n,) value(b's swapped sums) - value(a's swapped sums): the randomization distribution of the difference."""
    from ..kernels.resample import swapped_sums

    n = check_count(n, "trials")
    out = np.empty(n, dtype=np.float64)
    done = 0
    for swaps in swap_masks(a.shape[0], n, seed):
        m = len(swaps)
        sa, sb = swapped_sums(swaps, a, b)
        out[done:done + m] = value(sb) - value(sa)
        done += m
    return out


def bootstrap_sums(matrices: list[np.ndarray], n: int, seed: int | None) -> list[np.ndarray]:
    """(n, k) resampled column sums of each statistics matrix, all with the same resamples.

    Keeps every sum (n x k floats per matrix): for benchmarks and small n; the statistics use
    :func:`bootstrap_values`, which keeps only the values derived from them."""
    from ..kernels.resample import index_sums

    n_docs = matrices[0].shape[0]
    out: list[list[np.ndarray]] = [[] for _ in matrices]
    for index in bootstrap_indices(n_docs, check_count(n), seed):
        for acc, m in zip(out, matrices):
            acc.append(index_sums(index, m))
    return [np.concatenate(acc) for acc in out]


def permutation_sums(a: np.ndarray, b: np.ndarray, n: int, seed: int | None) -> tuple[np.ndarray, np.ndarray]:
    """(n, k) column sums of both systems after random per-document swaps (keeps every sum; see
    :func:`permutation_values`)."""
    from ..kernels.resample import swapped_sums

    out_a, out_b = [], []
    for swaps in swap_masks(a.shape[0], check_count(n, "trials"), seed):
        sa, sb = swapped_sums(swaps, a, b)
        out_a.append(sa)
        out_b.append(sb)
    return np.concatenate(out_a), np.concatenate(out_b)
