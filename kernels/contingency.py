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

from .order import lex_order, sorted_pairs, take


@njit(cache=True)
def _has_repeats(sorted_ids):
    for p in range(1, len(sorted_ids)):
        if sorted_ids[p] == sorted_ids[p - 1]:
            return True
    return False


@njit(cache=True)
def _doc_cells(k_ids, k_chains, nk, r_ids, r_chains, nr, ci, cj, cc, cd, ce, cf, write):
    """Emit the cells of one document (unaggregated); returns how many."""
    kx, kc = sorted_pairs(k_ids, k_chains, nk)
    rx, rc = sorted_pairs(r_ids, r_chains, nr)
    n = 0
    p = 0
    q = 0
    while p < len(kx) and q < len(rx):
        if kx[p] < rx[q]:
            p += 1
        elif kx[p] > rx[q]:
            q += 1
        else:
            x = kx[p]
            p2 = p
            while p2 < len(kx) and kx[p2] == x:
                p2 += 1
            q2 = q
            while q2 < len(rx) and rx[q2] == x:
                q2 += 1
            k_last = kc[p2 - 1]
            r_last = rc[q2 - 1]
            a = p
            while a < p2:  # runs of equal key chain
                a2 = a
                while a2 < p2 and kc[a2] == kc[a]:
                    a2 += 1
                b = q
                while b < q2:
                    b2 = b
                    while b2 < q2 and rc[b2] == rc[b]:
                        b2 += 1
                    if write:
                        ci[n] = kc[a]
                        cj[n] = rc[b]
                        cc[n] = b2 - b
                        ce[n] = a2 - a
                        cd[n] = b2 - b if kc[a] == k_last else 0
                        cf[n] = a2 - a if rc[b] == r_last else 0
                    n += 1
                    b = b2
                a = a2
            p = p2
            q = q2
    return n, _has_repeats(kx) or _has_repeats(rx)


@njit(cache=True)
def _aggregate(nk, nr, ci, cj, cc, cd, ce, cf):
    """Sum cells with equal (i, j) in place, sorted by (j, i); returns the new length."""
    n = len(ci)
    order = lex_order(cj, ci, nr, nk)
    ti = take(ci, order)
    tj = take(cj, order)
    tc = take(cc, order)
    td = take(cd, order)
    te = take(ce, order)
    tf = take(cf, order)
    m = -1
    for t in range(n):
        if m >= 0 and ti[t] == ci[m] and tj[t] == cj[m]:
            cc[m] += tc[t]
            cd[m] += td[t]
            ce[m] += te[t]
            cf[m] += tf[t]
        else:
            m += 1
            ci[m] = ti[t]
            cj[m] = tj[t]
            cc[m] = tc[t]
            cd[m] = td[t]
            ce[m] = te[t]
            cf[m] = tf[t]
    return m + 1


@njit(cache=True)
def _chain_sizes(ids, chains, n_chains):
    sizes = np.zeros(n_chains, dtype=np.int64)
    for p in range(len(ids)):
        if ids[p] >= 0:
            sizes[chains[p]] += 1
    return sizes


@njit(cache=True)
def _tables(k_off, k_ids, k_chains, k_nch, r_off, r_ids, r_chains, r_nch):
    n_docs = len(k_off) - 1
    bound = np.zeros(n_docs + 1, dtype=np.int64)
    repeats = np.zeros(n_docs, dtype=np.bool_)
    empty = np.zeros(0, dtype=np.int64)
    for d in range(n_docs):
        a, b, c, e = k_off[d], k_off[d + 1], r_off[d], r_off[d + 1]
        n, rep = _doc_cells(k_ids[a:b], k_chains[a:b], k_nch[d], r_ids[c:e], r_chains[c:e], r_nch[d],
                            empty, empty, empty, empty, empty, empty, False)
        bound[d + 1] = n
        repeats[d] = rep
    bound = np.cumsum(bound)
    total = bound[-1]
    ci = np.empty(total, dtype=np.int64)
    cj = np.empty(total, dtype=np.int64)
    cc = np.empty(total, dtype=np.int64)
    cd = np.empty(total, dtype=np.int64)
    ce = np.empty(total, dtype=np.int64)
    cf = np.empty(total, dtype=np.int64)
    used = np.zeros(n_docs + 1, dtype=np.int64)
    for d in range(n_docs):
        a, b, c, e = k_off[d], k_off[d + 1], r_off[d], r_off[d + 1]
        s, t = bound[d], bound[d + 1]
        _doc_cells(k_ids[a:b], k_chains[a:b], k_nch[d], r_ids[c:e], r_chains[c:e], r_nch[d],
                   ci[s:t], cj[s:t], cc[s:t], cd[s:t], ce[s:t], cf[s:t], True)
        used[d + 1] = _aggregate(k_nch[d], r_nch[d], ci[s:t], cj[s:t], cc[s:t], cd[s:t], ce[s:t], cf[s:t])
    # compact: cells of document d end up in [off[d], off[d+1])
    off = np.cumsum(used)
    for d in range(n_docs):
        s = bound[d]
        for t in range(used[d + 1]):
            ci[off[d] + t] = ci[s + t]
            cj[off[d] + t] = cj[s + t]
            cc[off[d] + t] = cc[s + t]
            cd[off[d] + t] = cd[s + t]
            ce[off[d] + t] = ce[s + t]
            cf[off[d] + t] = cf[s + t]
    m = off[-1]
    # chain sizes (response chains count only rows that were kept)
    k_size_off = np.zeros(n_docs + 1, dtype=np.int64)
    r_size_off = np.zeros(n_docs + 1, dtype=np.int64)
    for d in range(n_docs):
        k_size_off[d + 1] = k_size_off[d] + k_nch[d]
        r_size_off[d + 1] = r_size_off[d] + r_nch[d]
    k_size = np.empty(k_size_off[-1], dtype=np.int64)
    r_size = np.empty(r_size_off[-1], dtype=np.int64)
    for d in range(n_docs):
        a, b, c, e = k_off[d], k_off[d + 1], r_off[d], r_off[d + 1]
        k_size[k_size_off[d]:k_size_off[d + 1]] = _chain_sizes(k_ids[a:b], k_chains[a:b], k_nch[d])
        r_size[r_size_off[d]:r_size_off[d + 1]] = _chain_sizes(r_ids[c:e], r_chains[c:e], r_nch[d])
    return (off, ci[:m].copy(), cj[:m].copy(), cc[:m].copy(), cd[:m].copy(), ce[:m].copy(), cf[:m].copy(),
            k_size_off, k_size, r_size_off, r_size, repeats)


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
