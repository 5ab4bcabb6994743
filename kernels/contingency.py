"""Sparse key x response cluster contingency table, per document.

Input: mention ids and chain indices of key and response rows (as given by
``mentions.align_exact``; response rows with id -1 are ignored).  For every
id x found on both sides, every key chain i and response chain j holding x
contribute one cell (i, j) with four counts:

- ``c``: response copies of x in j   (v8.01 B-cubed: membership of j's mentions in i)
- ``d``: as ``c`` but only for i = the last key chain holding x   (MUC, B-cubed, LEA precision)
- ``e``: key copies of x in i   (CEAF similarity)
- ``f``: as ``e`` but only for j = the last response chain holding x   (LEA recall)

Without repeated ids, which is the normal case, c = d = e = f = |K_i & R_j|.
Cells are sorted by (j, i), the order v8.01 walks response chains.
"""
import numpy as np
from ._jit import njit

from .order import lex_order_into, sorted_pairs_into


@njit(cache=True)
def _has_repeats(sorted_ids):
    for p in range(1, len(sorted_ids)):
        if sorted_ids[p] == sorted_ids[p - 1]:
            return True
    return False


@njit(cache=True)
def _grown(a, n):
    """``a`` in a buffer of at least ``n`` (twice as long at least)."""
    out = np.empty(max(2 * len(a), n), dtype=a.dtype)
    out[:len(a)] = a
    return out


@njit(cache=True)
def _chain_sizes(ids, chains, sizes):
    for p in range(len(ids)):
        if ids[p] >= 0:
            sizes[chains[p]] += 1


@njit(cache=True)
def _walk(kx, kc, nk, rx, rc, nr, ci, cj, cc, cd, ce, cf, n, write):
    """The cells of one document (unaggregated), from both sides' sorted (id, chain) pairs, written from
    ``n`` on when ``write``; returns how many."""
    m = 0
    p = 0
    q = 0
    while p < nk and q < nr:
        if kx[p] < rx[q]:
            p += 1
        elif kx[p] > rx[q]:
            q += 1
        else:
            x = kx[p]
            p2 = p
            while p2 < nk and kx[p2] == x:
                p2 += 1
            q2 = q
            while q2 < nr and rx[q2] == x:
                q2 += 1
            k_last = kc[p2 - 1]
            r_last = rc[q2 - 1]
            u = p
            while u < p2:  # runs of equal key chain
                u2 = u
                while u2 < p2 and kc[u2] == kc[u]:
                    u2 += 1
                v = q
                while v < q2:
                    v2 = v
                    while v2 < q2 and rc[v2] == rc[v]:
                        v2 += 1
                    if write:
                        t = n + m
                        ci[t] = kc[u]
                        cj[t] = rc[v]
                        cc[t] = v2 - v
                        ce[t] = u2 - u
                        cd[t] = v2 - v if kc[u] == k_last else 0
                        cf[t] = u2 - u if rc[v] == r_last else 0
                    m += 1
                    v = v2
                u = u2
            p = p2
            q = q2
    return m


@njit(cache=True)
def _tables(k_off, k_ids, k_chains, k_nch, r_off, r_ids, r_chains, r_nch):
    """Every document in one pass, with buffers allocated once (scores from memory call this per epoch)."""
    n_docs = len(k_off) - 1
    rows = 1
    top = 1  # ids and chain indices are below this
    for d in range(n_docs):
        rows = max(rows, k_off[d + 1] - k_off[d], r_off[d + 1] - r_off[d])
        top = max(top, k_nch[d], r_nch[d])
    for v in k_ids:
        top = max(top, v + 1)
    for v in r_ids:
        top = max(top, v + 1)
    counts = np.empty(top + 1, dtype=np.int64)
    first = np.empty(rows, dtype=np.int64)
    moved = np.empty(rows, dtype=np.int64)
    order = np.empty(rows, dtype=np.int64)
    kx = np.empty(rows, dtype=np.int64)
    kc = np.empty(rows, dtype=np.int64)
    rx = np.empty(rows, dtype=np.int64)
    rc = np.empty(rows, dtype=np.int64)
    columns = np.empty((6, rows), dtype=np.int64)
    # cells, unaggregated then aggregated per document (at most the rows of a side without repeated ids)
    cap = len(k_ids) + 16
    ci = np.empty(cap, dtype=np.int64)
    cj = np.empty(cap, dtype=np.int64)
    cc = np.empty(cap, dtype=np.int64)
    cd = np.empty(cap, dtype=np.int64)
    ce = np.empty(cap, dtype=np.int64)
    cf = np.empty(cap, dtype=np.int64)
    cell_off = np.zeros(n_docs + 1, dtype=np.int64)
    repeats = np.zeros(n_docs, dtype=np.bool_)
    n = 0
    for d in range(n_docs):
        a, b, c, e = k_off[d], k_off[d + 1], r_off[d], r_off[d + 1]
        nk = sorted_pairs_into(k_ids[a:b], k_chains[a:b], k_nch[d], counts, first, moved, order, kx, kc)
        nr = sorted_pairs_into(r_ids[c:e], r_chains[c:e], r_nch[d], counts, first, moved, order, rx, rc)
        repeats[d] = _has_repeats(kx[:nk]) or _has_repeats(rx[:nr])
        # without repeated ids each id makes one cell; with them, count first
        need = _walk(kx, kc, nk, rx, rc, nr, ci, cj, cc, cd, ce, cf, n, False) if repeats[d] else min(nk, nr)
        if n + need > len(ci):
            ci, cj, cc = _grown(ci, n + need), _grown(cj, n + need), _grown(cc, n + need)
            cd, ce, cf = _grown(cd, n + need), _grown(ce, n + need), _grown(cf, n + need)
        s = n
        n += _walk(kx, kc, nk, rx, rc, nr, ci, cj, cc, cd, ce, cf, n, True)
        if n - s > len(first):  # more cells than rows (repeated ids)
            first, moved, order = np.empty(n - s, np.int64), np.empty(n - s, np.int64), np.empty(n - s, np.int64)
            columns = np.empty((6, n - s), dtype=np.int64)
        n = s + _aggregate(k_nch[d], r_nch[d], ci[s:n], cj[s:n], cc[s:n], cd[s:n], ce[s:n], cf[s:n], counts,
                           first, moved, order, columns)
        cell_off[d + 1] = n
    # chain sizes (response chains count only rows that were kept)
    k_size_off = np.zeros(n_docs + 1, dtype=np.int64)
    r_size_off = np.zeros(n_docs + 1, dtype=np.int64)
    k_size_off[1:] = np.cumsum(k_nch)
    r_size_off[1:] = np.cumsum(r_nch)
    k_size = np.zeros(k_size_off[-1], dtype=np.int64)
    r_size = np.zeros(r_size_off[-1], dtype=np.int64)
    for d in range(n_docs):
        a, b, c, e = k_off[d], k_off[d + 1], r_off[d], r_off[d + 1]
        _chain_sizes(k_ids[a:b], k_chains[a:b], k_size[k_size_off[d]:k_size_off[d + 1]])
        _chain_sizes(r_ids[c:e], r_chains[c:e], r_size[r_size_off[d]:r_size_off[d + 1]])
    return (cell_off, ci[:n].copy(), cj[:n].copy(), cc[:n].copy(), cd[:n].copy(), ce[:n].copy(), cf[:n].copy(),
            k_size_off, k_size, r_size_off, r_size, repeats)


@njit(cache=True)
def _aggregate(nk, nr, ci, cj, cc, cd, ce, cf, counts, first, moved, order, columns):
    """Sum cells with equal (i, j) in place, sorted by (j, i); returns the new length (scratch: ``counts`` at
    least max(nk, nr) + 1 long, ``first``, ``moved``, ``order`` and ``columns``' rows as long as the cells)."""
    n = len(ci)
    lex_order_into(cj, ci, nr, nk, counts, first, moved, order)
    for t in range(n):
        k = order[t]
        columns[0, t] = ci[k]
        columns[1, t] = cj[k]
        columns[2, t] = cc[k]
        columns[3, t] = cd[k]
        columns[4, t] = ce[k]
        columns[5, t] = cf[k]
    m = -1
    for t in range(n):
        if m >= 0 and columns[0, t] == ci[m] and columns[1, t] == cj[m]:
            cc[m] += columns[2, t]
            cd[m] += columns[3, t]
            ce[m] += columns[4, t]
            cf[m] += columns[5, t]
        else:
            m += 1
            ci[m] = columns[0, t]
            cj[m] = columns[1, t]
            cc[m] = columns[2, t]
            cd[m] = columns[3, t]
            ce[m] = columns[4, t]
            cf[m] = columns[5, t]
    return m + 1


def contingency_tables(k_off, k_ids, k_chains, k_nchains, r_off, r_ids, r_chains, r_nchains):
    """Per-document sparse contingency tables and chain sizes (see module doc).

    Returns ``(cell_off, i, j, c, d, e, f, k_size_off, k_size, r_size_off,
    r_size, repeats)``: cells of document ``n`` are ``[cell_off[n],
    cell_off[n+1])``; chain sizes count copies; ``repeats[n]`` tells whether
    an id occurs more than once on one side.
    """
    i64 = lambda a: np.ascontiguousarray(a, dtype=np.int64)
    return _tables(i64(k_off), i64(k_ids), i64(k_chains), i64(k_nchains),
                   i64(r_off), i64(r_ids), i64(r_chains), i64(r_nchains))
