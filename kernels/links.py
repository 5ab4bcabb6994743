"""MUC and BLANC link counts per document.

MUC (v8.01): correct links = sum over cells of max(d_ij - 1, 0); key links
sum(|K_i| - 1); response links sum(|R_j| - 1) over non-empty chains.

BLANC (Luo et al. 2014): coreference links are mention pairs inside a
chain, non-coreference links pairs across chains, counted as sets of id
pairs.  Without repeated ids the counts follow from the table:
correct coref = sum C(n_ij, 2); correct non-coref = C(N, 2) - sum_i C(a_i, 2)
- sum_j C(b_j, 2) + sum C(n_ij, 2) over the N mentions found on both sides
(a_i, b_j the row and column sums).  Documents with repeated ids go
through ``blanc_pairs``, which enumerates the pair sets as v8.01 does
(a chain holding id x twice yields the link x-x).
"""
import numpy as np
from numba import njit, prange

COLUMNS = 12  # muc r_num r_den p_num p_den; blanc coref r_num r_den p_num p_den, noncoref likewise


@njit(cache=True)
def _pairs(n):
    return n * (n - 1) // 2


@njit(cache=True, parallel=True)
def _muc_blanc(cell_off, ci, cj, cd, k_size_off, k_size, r_size_off, r_size):
    n_docs = len(cell_off) - 1
    out = np.zeros((n_docs, COLUMNS), dtype=np.int64)
    for doc in prange(n_docs):
        a, b = cell_off[doc], cell_off[doc + 1]
        ks = k_size[k_size_off[doc]:k_size_off[doc + 1]]
        rs = r_size[r_size_off[doc]:r_size_off[doc + 1]]
        row = np.zeros(len(ks), dtype=np.int64)
        col = np.zeros(len(rs), dtype=np.int64)
        correct = 0
        both_coref = 0
        common = 0
        for t in range(a, b):
            n = cd[t]
            if n > 1:
                correct += n - 1
            both_coref += _pairs(n)
            common += n
            row[ci[t]] += n
            col[cj[t]] += n
        key_links = 0
        key_coref = 0
        for s in ks:
            if s > 0:
                key_links += s - 1
            key_coref += _pairs(s)
        resp_links = 0
        resp_coref = 0
        for s in rs:
            if s > 0:
                resp_links += s - 1
            resp_coref += _pairs(s)
        row_coref = 0
        for s in row:
            row_coref += _pairs(s)
        col_coref = 0
        for s in col:
            col_coref += _pairs(s)
        out[doc, 0] = correct
        out[doc, 1] = key_links
        out[doc, 2] = correct
        out[doc, 3] = resp_links
        out[doc, 4] = both_coref
        out[doc, 5] = key_coref
        out[doc, 6] = both_coref
        out[doc, 7] = resp_coref
        both_non = _pairs(common) - row_coref - col_coref + both_coref
        out[doc, 8] = both_non
        out[doc, 9] = _pairs(ks.sum()) - key_coref
        out[doc, 10] = both_non
        out[doc, 11] = _pairs(rs.sum()) - resp_coref
    return out


def muc_blanc(cell_off, ci, cj, cd, k_size_off, k_size, r_size_off, r_size):
    """Per-document MUC and BLANC counts, shape (n_docs, 12), int64 (repeat-free documents)."""
    return _muc_blanc(cell_off, ci, cj, cd, k_size_off, k_size, r_size_off, r_size)


@njit(cache=True)
def _link_sets(ids, chains):
    """Sorted unique coref and non-coref id-pair codes of one side (ids < 0 skipped)."""
    keep = ids >= 0
    x = ids[keep]
    ch = chains[keep]
    n = len(x)
    m = np.int64(x.max() + 1) if n else np.int64(1)
    same = 0
    for p in range(n):
        for q in range(p + 1, n):
            if ch[p] == ch[q]:
                same += 1
    coref = np.empty(same, dtype=np.int64)
    non = np.empty(n * (n - 1) // 2 - same, dtype=np.int64)
    u = 0
    v = 0
    for p in range(n):
        for q in range(p + 1, n):
            lo, hi = min(x[p], x[q]), max(x[p], x[q])
            if ch[p] == ch[q]:
                coref[u] = lo * m + hi
                u += 1
            else:
                non[v] = lo * m + hi
                v += 1
    return np.unique(coref), np.unique(non), m


@njit(cache=True)
def _recode(codes, m_from, m_to):
    return (codes // m_from) * m_to + codes % m_from


@njit(cache=True)
def _intersection(a, b):
    n = 0
    p = 0
    q = 0
    while p < len(a) and q < len(b):
        if a[p] < b[q]:
            p += 1
        elif a[p] > b[q]:
            q += 1
        else:
            n += 1
            p += 1
            q += 1
    return n


@njit(cache=True)
def blanc_pairs(k_ids, k_chains, r_ids, r_chains):
    """BLANC counts of one document by explicit pair sets: the 8 BLANC columns."""
    kc, kn, km = _link_sets(k_ids, k_chains)
    rc, rn, rm = _link_sets(r_ids, r_chains)
    m = max(km, rm)
    kc, kn = _recode(kc, km, m), _recode(kn, km, m)
    rc, rn = _recode(rc, rm, m), _recode(rn, rm, m)
    out = np.zeros(8, dtype=np.int64)
    both = _intersection(kc, rc)
    out[0], out[1], out[2], out[3] = both, len(kc), both, len(rc)
    both = _intersection(kn, rn)
    out[4], out[5], out[6], out[7] = both, len(kn), both, len(rn)
    return out
