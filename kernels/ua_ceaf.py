"""The UA scorer's CEAF on the pairs of plural sets being aligned (``fastscore.ua.batch``), many problems at once,
as fastscore/ua/engine.py's ``ceaf`` computes it: the dense overlap (phi3) matrix of every problem's key x
response clusters, and the best total of those that are one row or column (the others go to scipy's assignment).

Items are span numbers; clusters and problems are offsets as in ``ua_counts``.
"""
import numpy as np

from ._jit import njit


@njit(cache=True)
def _where(s_prob, s_off, s_id, n_ids):
    """Span number -> the response clusters holding it (numbers local to the problem, each once, in order):
    ``where[where_off[x]:where_off[x] + where_n[x]]``."""
    n_prob = len(s_prob) - 1
    where_off = np.zeros(n_ids + 1, dtype=np.int64)
    for p in range(n_prob):
        for c in range(s_prob[p], s_prob[p + 1]):
            for t in range(s_off[c], s_off[c + 1]):
                if s_id[t] >= 0:
                    where_off[s_id[t] + 1] += 1
    for x in range(n_ids):
        where_off[x + 1] += where_off[x]
    where = np.empty(where_off[n_ids], dtype=np.int64)
    where_n = np.zeros(n_ids, dtype=np.int64)
    for p in range(n_prob):
        for c in range(s_prob[p], s_prob[p + 1]):
            j = c - s_prob[p]
            for t in range(s_off[c], s_off[c + 1]):
                x = s_id[t]
                if x >= 0:
                    n = where_n[x]
                    if n == 0 or where[where_off[x] + n - 1] != j:
                        where[where_off[x] + n] = j
                        where_n[x] = n + 1
    return where_off, where, where_n


@njit(cache=True)
def dense_overlaps(k_prob, k_off, k_id, s_prob, s_off, s_id, n_ids):
    """Per problem, the key x response matrix of overlaps (phi3: items of key cluster i found in response cluster
    j, each item once per cluster), row-major from ``mat_off[problem]`` (engine.ceaf_dense's, no plural sets)."""
    n_prob = len(k_prob) - 1
    where_off, where, where_n = _where(s_prob, s_off, s_id, n_ids)
    mat_off = np.zeros(n_prob + 1, dtype=np.int64)
    for p in range(n_prob):
        mat_off[p + 1] = mat_off[p] + (k_prob[p + 1] - k_prob[p]) * (s_prob[p + 1] - s_prob[p])
    mat = np.zeros(mat_off[n_prob])
    for p in range(n_prob):
        ns = s_prob[p + 1] - s_prob[p]
        for i in range(k_prob[p + 1] - k_prob[p]):
            c = k_prob[p] + i
            for t in range(k_off[c], k_off[c + 1]):
                x = k_id[t]
                if x < 0:
                    continue
                for q in range(where_off[x], where_off[x] + where_n[x]):
                    mat[mat_off[p] + i * ns + where[q]] += 1
    return mat_off, mat


@njit(cache=True)
def line_ceaf(k_prob, k_off, s_prob, s_off, mat_off, mat):
    """Per problem of ``dense_overlaps``, CEAFe's and CEAFm's similarity (``sim[problem]``) where its matrix has
    one row or one column (or none): the largest score (phi4 = 2 phi3 / (|K| + |R|), phi3); ``dense``: the
    problems whose matrix needs scipy's assignment (left 0 here)."""
    n_prob = len(k_prob) - 1
    sim = np.zeros((n_prob, 2))
    dense = np.zeros(n_prob, dtype=np.bool_)
    for p in range(n_prob):
        nk, ns = k_prob[p + 1] - k_prob[p], s_prob[p + 1] - s_prob[p]
        if nk > 1 and ns > 1:
            dense[p] = True
            continue
        for i in range(nk):
            size_i = k_off[k_prob[p] + i + 1] - k_off[k_prob[p] + i]
            for j in range(ns):
                size_j = s_off[s_prob[p] + j + 1] - s_off[s_prob[p] + j]
                v = mat[mat_off[p] + i * ns + j]
                e = 2 * v / float(size_i + size_j)
                if (i == 0 and j == 0) or e > sim[p, 0]:
                    sim[p, 0] = e
                if (i == 0 and j == 0) or v > sim[p, 1]:
                    sim[p, 1] = v
    return sim, dense
