"""Stable orderings of small non-negative integers (counting sorts).

Every sort on the coreference path orders token offsets, chain indices or
ids, all bounded by the document's size: a counting sort is O(n + k), stable
by construction (ties keep their input order, which the kernels rely on),
and compiles far faster than numba's general sorts.
"""
import numpy as np
from ._jit import njit


@njit(cache=True)
def order_into(keys, n, counts, out):
    """Indices that sort ``keys`` (integers in [0, n)) stably, written to ``out[:len(keys)]``; ``counts`` (at
    least n + 1 long) is scratch: kernels that sort every document reuse their buffers."""
    for k in range(n + 1):
        counts[k] = 0
    for v in keys:
        counts[v + 1] += 1
    for k in range(n):
        counts[k + 1] += counts[k]
    for i in range(len(keys)):
        v = keys[i]
        out[counts[v]] = i
        counts[v] += 1


@njit(cache=True)
def stable_order(keys, n):
    """Indices that sort ``keys`` (integers in [0, n)) stably."""
    out = np.empty(len(keys), dtype=np.int64)
    order_into(keys, n, np.empty(n + 1, dtype=np.int64), out)
    return out


@njit(cache=True)
def lex_order_into(major, minor, n_major, n_minor, counts, first, moved, out):
    """:func:`lex_order` written to ``out[:len(major)]``, with scratch ``counts`` (max(n_major, n_minor) + 1
    long) and ``first`` and ``moved`` (as long as the keys)."""
    n = len(major)
    order_into(minor, n_minor, counts, first)
    for k in range(n):
        moved[k] = major[first[k]]
    order_into(moved[:n], n_major, counts, out)
    for k in range(n):
        moved[k] = first[out[k]]
    for k in range(n):
        out[k] = moved[k]


@njit(cache=True)
def take(a, idx):
    """a[idx] (written as a loop: numba compiles fancy indexing slowly)."""
    out = np.empty(len(idx), dtype=a.dtype)
    for k in range(len(idx)):
        out[k] = a[idx[k]]
    return out


@njit(cache=True)
def lex_order(major, minor, n_major, n_minor):
    """Indices that sort by (major, minor) stably (a two-pass radix sort)."""
    n = len(major)
    out = np.empty(n, dtype=np.int64)
    lex_order_into(major, minor, n_major, n_minor, np.empty(max(n_major, n_minor) + 1, dtype=np.int64),
                   np.empty(n, dtype=np.int64), np.empty(n, dtype=np.int64), out)
    return out


@njit(cache=True)
def sorted_pairs_into(ids, chains, n_chains, counts, first, moved, order, x, c):
    """(id, chain) of the rows with id >= 0, sorted by id then chain, written to ``x`` and ``c``; returns
    how many.  ``counts`` (max(ids) + 2 and n_chains + 1 long at least), ``first``, ``moved`` and ``order``
    (as long as ``ids``) are scratch, see :func:`lex_order_into`."""
    n = 0
    n_ids = 0
    for p in range(len(ids)):
        if ids[p] >= 0:
            x[n] = ids[p]
            c[n] = chains[p]
            n += 1
            n_ids = max(n_ids, ids[p] + 1)
    lex_order_into(x[:n], c[:n], n_ids, n_chains, counts, first, moved, order)
    for k in range(n):
        moved[k] = x[order[k]]
        first[k] = c[order[k]]
    for k in range(n):
        x[k] = moved[k]
        c[k] = first[k]
    return n


@njit(cache=True)
def sorted_pairs(ids, chains, n_chains):
    """(id, chain) of the rows with id >= 0, sorted by id then chain."""
    n_ids = 0
    for p in range(len(ids)):
        n_ids = max(n_ids, ids[p] + 1)
    m = len(ids)
    x, c = np.empty(m, dtype=np.int64), np.empty(m, dtype=np.int64)
    n = sorted_pairs_into(ids, chains, n_chains, np.empty(max(n_ids, n_chains) + 1, dtype=np.int64),
                          np.empty(m, dtype=np.int64), np.empty(m, dtype=np.int64), np.empty(m, dtype=np.int64),
                          x, c)
    return x[:n].copy(), c[:n].copy()
