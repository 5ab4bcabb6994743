"""The UA scorer's CEAF (``fastscore.ua.batch``) for many documents at once, as fastscore/ua/engine.py's ``ceaf``
computes it: the overlap (phi3) of every key x response cluster pair that shares an item, the connected parts of
those pairs in the order of their first key cluster, and each part's best alignment.  A part of one pair is its
score; a larger part comes back as its matrix (rows and columns in ascending order) for scipy's assignment, so that
the caller sums the parts in order (``ordered_sums``).

Items are span numbers (-1: a plural set, found only through its aligned partner, ``map_g``/``map_w`` per metric
column: 0 CEAFe, 1 CEAFm); clusters and problems are offsets as in ``ua_counts``.
"""
import numpy as np

from ._jit import njit
from .ceaf import find_root


@njit(cache=True)
def _grow(a, need):
    if need <= len(a):
        return a
    b = np.empty(max(need, 2 * len(a)), dtype=a.dtype)
    b[:len(a)] = a
    return b


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
def ceaf_parts(k_prob, k_off, k_id, k_map_g, k_map_w, s_prob, s_off, s_id, n_ids):
    """Per problem and metric (index ``2 * problem + column``), its parts: ``part_off`` (their range), per part
    ``value`` (the one pair's score, NaN for a matrix), ``rows``, ``cols`` and ``mat_off`` (where its matrix
    starts in ``mat``, row-major)."""
    n_prob = len(k_prob) - 1
    where_off, where, where_n = _where(s_prob, s_off, s_id, n_ids)
    width = 1
    for p in range(n_prob):
        width = max(width, k_prob[p + 1] - k_prob[p], s_prob[p + 1] - s_prob[p])
    cell = np.zeros(width)  # overlap of the current key cluster with response cluster j
    seen = np.full(width, -1, dtype=np.int64)
    touched = np.zeros(width, dtype=np.int64)
    parent = np.zeros(2 * width, dtype=np.int64)
    used = np.zeros(2 * width, dtype=np.bool_)
    label = np.full(2 * width, -1, dtype=np.int64)
    part_off = np.zeros(2 * n_prob + 1, dtype=np.int64)
    value = np.zeros(16)
    rows = np.zeros(16, dtype=np.int64)
    cols = np.zeros(16, dtype=np.int64)
    mat_off = np.zeros(16, dtype=np.int64)
    mat = np.zeros(16)
    n_parts = 0
    n_mat = 0
    for p in range(n_prob):
        klo, khi, slo, shi = k_prob[p], k_prob[p + 1], s_prob[p], s_prob[p + 1]
        nk, ns = khi - klo, shi - slo
        nodes = 2 * max(nk, ns)
        for e in range(2):
            # the overlaps, cluster by cluster: edge lists (row, col, overlap) in the engine's order
            e_row = np.zeros(16, dtype=np.int64)
            e_col = np.zeros(16, dtype=np.int64)
            e_val = np.zeros(16)
            n_edges = 0
            for x in range(nodes):
                parent[x] = x
                used[x] = False
                label[x] = -1
            for i in range(nk):
                c = klo + i
                k = 0
                for t in range(k_off[c], k_off[c + 1]):
                    if k_id[t] < 0:
                        g = k_map_g[t, e]
                        if g < 0:
                            continue
                        if seen[g] != i:
                            seen[g] = i
                            cell[g] = 0.0
                            touched[k] = g
                            k += 1
                        cell[g] += k_map_w[t, e]
                        continue
                    x = k_id[t]
                    for q in range(where_off[x], where_off[x] + where_n[x]):
                        g = where[q]
                        if seen[g] != i:
                            seen[g] = i
                            cell[g] = 0.0
                            touched[k] = g
                            k += 1
                        cell[g] += 1
                e_row = _grow(e_row, n_edges + k)
                e_col = _grow(e_col, n_edges + k)
                e_val = _grow(e_val, n_edges + k)
                for q in range(k):
                    g = touched[q]
                    e_row[n_edges] = i
                    e_col[n_edges] = g
                    if e == 0:
                        e_val[n_edges] = 2 * cell[g] / float((k_off[c + 1] - k_off[c])
                                                             + (s_off[slo + g + 1] - s_off[slo + g]))
                    else:
                        e_val[n_edges] = cell[g]
                    n_edges += 1
            for g in range(ns):
                seen[g] = -1
            # connected parts: rows 2i, columns 2j + 1
            for q in range(n_edges):
                a, b = 2 * e_row[q], 2 * e_col[q] + 1
                used[a] = True
                used[b] = True
                ra, rb = find_root(parent, a), find_root(parent, b)
                if ra != rb:
                    parent[ra] = rb
            first = n_parts
            for i in range(nk):  # parts in the order of their first (lowest) key cluster
                if used[2 * i]:
                    r = find_root(parent, 2 * i)
                    if label[r] < 0:
                        label[r] = n_parts
                        n_parts += 1
            value = _grow(value, n_parts)
            rows = _grow(rows, n_parts)
            cols = _grow(cols, n_parts)
            mat_off = _grow(mat_off, n_parts)
            for t in range(first, n_parts):
                rows[t] = 0
                cols[t] = 0
            for x in range(nodes):
                if used[x]:
                    t = label[find_root(parent, x)]
                    if x % 2 == 0:
                        rows[t] += 1
                    else:
                        cols[t] += 1
            for t in range(first, n_parts):
                if rows[t] == 1 and cols[t] == 1:
                    mat_off[t] = -1
                else:
                    mat_off[t] = n_mat
                    n_mat += rows[t] * cols[t]
                    value[t] = np.nan
            mat = _grow(mat, n_mat)
            # positions of rows and columns within their part (ascending)
            pos = np.zeros(nodes, dtype=np.int64)
            r_seen = np.zeros(n_parts - first, dtype=np.int64)
            c_seen = np.zeros(n_parts - first, dtype=np.int64)
            for x in range(nodes):
                if used[x]:
                    t = label[find_root(parent, x)]
                    if x % 2 == 0:
                        pos[x] = r_seen[t - first]
                        r_seen[t - first] += 1
                    else:
                        pos[x] = c_seen[t - first]
                        c_seen[t - first] += 1
            for t in range(first, n_parts):
                if mat_off[t] >= 0:
                    mat[mat_off[t]:mat_off[t] + rows[t] * cols[t]] = 0.0
            for q in range(n_edges):
                a, b = 2 * e_row[q], 2 * e_col[q] + 1
                t = label[find_root(parent, a)]
                if mat_off[t] < 0:
                    value[t] = e_val[q]
                else:
                    mat[mat_off[t] + pos[a] * cols[t] + pos[b]] = e_val[q]
            part_off[2 * p + e + 1] = n_parts
    return part_off, value[:n_parts], rows[:n_parts], cols[:n_parts], mat_off[:n_parts], mat[:n_mat]


@njit(cache=True)
def ordered_sums(values, off):
    """Per range ``off[i]:off[i + 1]``, the sum of ``values`` one after the other from 0.0."""
    out = np.zeros(len(off) - 1)
    for i in range(len(off) - 1):
        total = 0.0
        for t in range(off[i], off[i + 1]):
            total += values[t]
        out[i] = total
    return out


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
