"""Similarities of key and response mentions for partial and head matching (CorefUD scorer 1.2).

Mentions are sorted sets of word keys (CSR ``(offsets, keys)``) with a head key.
``partial``: the response lies inside the key and holds the key's head: |R| / |K|.
``head``: same head: |K & R| / |K| (1 for the same words and head).
Rows are key mentions, columns response mentions, in the order given.
"""
import numpy as np
from numba import njit

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
    lo = 0
    hi = len(a)
    while lo < hi:
        mid = (lo + hi) // 2
        if a[mid] < x:
            lo = mid + 1
        else:
            hi = mid
    return lo < len(a) and a[lo] == x


@njit(cache=True)
def similarities(mode, k_off, k_keys, k_head, r_off, r_keys, r_head):
    """(n_key, n_response) float64 similarity matrix of one document."""
    nk = len(k_off) - 1
    nr = len(r_off) - 1
    out = np.zeros((nk, nr), dtype=np.float64)
    for i in range(nk):
        k = k_keys[k_off[i]:k_off[i + 1]]
        for j in range(nr):
            r = r_keys[r_off[j]:r_off[j + 1]]
            if r[0] > k[len(k) - 1] or k[0] > r[len(r) - 1]:
                continue  # disjoint spans
            if mode == PARTIAL:
                if len(r) <= len(k) and _contains(r, k_head[i]):
                    common = _common(k, r)
                    if common == len(r):  # r inside k
                        out[i, j] = common * 1.0 / len(k)
            elif k_head[i] == r_head[j]:
                out[i, j] = _common(k, r) * 1.0 / len(k)
    return out


@njit(cache=True)
def overlaps(k_off, k_keys, r_off, r_keys):
    """(n_key, n_response) float64 matrix of |K & R| (word overlaps) of one group of mentions."""
    nk = len(k_off) - 1
    nr = len(r_off) - 1
    out = np.zeros((nk, nr), dtype=np.float64)
    for i in range(nk):
        k = k_keys[k_off[i]:k_off[i + 1]]
        for j in range(nr):
            r = r_keys[r_off[j]:r_off[j + 1]]
            if r[0] <= k[len(k) - 1] and k[0] <= r[len(r) - 1]:
                out[i, j] = _common(k, r)
    return out
