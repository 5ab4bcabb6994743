"""Similarities of key and response mentions for partial and head matching (CorefUD scorer 1.2).

Mentions are sorted sets of word keys (CSR ``(offsets, keys)``) with a head key.
``partial``: the response lies inside the key and holds the key's head: |R| / |K|.
``head``: same head: |K & R| / |K| (1 for the same words and head).
Rows are key mentions, columns response mentions, in the order given.
"""
import numpy as np
from ._jit import njit

from .ceaf import max_weight_assignment

PARTIAL = 1
HEAD = 2


@njit(cache=True)
def _common(a, b):
    """|a & b| of two sorted arrays without repeats."""
    i = 0
    j = 0
    n = 0
    while i < len(a) and j < len(b):
        if a[i] < b[j]:
            i += 1
        elif a[i] > b[j]:
            j += 1
        else:
            n += 1
            i += 1
            j += 1
    return n


@njit(cache=True)
def _contains(a, x):
    """x in a (a sorted)."""
    k = np.searchsorted(a, x)
    return k < len(a) and a[k] == x


@njit(cache=True)
def similarity(mode, k, r, k_head, r_head):
    """The similarity (``mode``: PARTIAL or HEAD) of a key mention's words ``k`` and a response mention's ``r``."""
    if r[0] > k[len(k) - 1] or k[0] > r[len(r) - 1]:
        return 0.0  # disjoint spans
    if mode == PARTIAL:
        if len(r) <= len(k) and _contains(r, k_head) and _common(k, r) == len(r):  # r inside k
            return len(r) * 1.0 / len(k)
        return 0.0
    return _common(k, r) * 1.0 / len(k) if k_head == r_head else 0.0


@njit(cache=True)
def similarities(mode, k_off, k_keys, k_head, r_off, r_keys, r_head):
    """(n_key, n_response) float64 similarity matrix of one document."""
    nk = len(k_off) - 1
    nr = len(r_off) - 1
    out = np.zeros((nk, nr), dtype=np.float64)
    for i in range(nk):
        for j in range(nr):
            out[i, j] = similarity(mode, k_keys[k_off[i]:k_off[i + 1]], r_keys[r_off[j]:r_off[j + 1]], k_head[i],
                                   r_head[j])
    return out


@njit(cache=True)
def _group_overlap(rows_k, rows_r, k_off, k_keys, r_off, r_keys):
    """The largest total word overlap of a one-to-one pairing of the group's key and response mentions."""
    m = np.zeros((len(rows_k), len(rows_r)), dtype=np.float64)
    for a in range(len(rows_k)):
        k = k_keys[k_off[rows_k[a]]:k_off[rows_k[a] + 1]]
        for b in range(len(rows_r)):
            r = r_keys[r_off[rows_r[b]]:r_off[rows_r[b] + 1]]
            if r[0] <= k[len(k) - 1] and k[0] <= r[len(r) - 1]:
                m[a, b] = _common(k, r)
    if len(rows_k) == 1 or len(rows_r) == 1:
        return m.max()
    cols = max_weight_assignment(m)
    total = 0.0
    for a in range(len(rows_k)):
        if cols[a] >= 0:
            total += m[a, cols[a]]
    return total


@njit(cache=True)
def mention_overlaps(seg, first, last, side, row, k_off, k_keys, r_off, r_keys):
    """MOR numerator per document: mentions of both sides (``side`` 0 key, 1 response; ``row`` into their
    CSR), sorted by first word within each document segment ``seg``, are swept into groups of overlapping
    spans; each group adds its maximum-weight pairing of word overlaps."""
    n_docs = len(seg) - 1
    out = np.zeros(n_docs, dtype=np.float64)
    for d in range(n_docs):
        i = seg[d]
        end = seg[d + 1]
        while i < end:
            bound = last[i]
            j = i + 1
            while j < end and first[j] <= bound:
                bound = max(bound, last[j])
                j += 1
            nk = 0
            for t in range(i, j):
                nk += side[t] == 0
            if 0 < nk < j - i:
                rows_k = np.empty(nk, dtype=np.int64)
                rows_r = np.empty(j - i - nk, dtype=np.int64)
                a = 0
                b = 0
                for t in range(i, j):
                    if side[t] == 0:
                        rows_k[a] = row[t]
                        a += 1
                    else:
                        rows_r[b] = row[t]
                        b += 1
                out[d] += _group_overlap(rows_k, rows_r, k_off, k_keys, r_off, r_keys)
            i = j
    return out
