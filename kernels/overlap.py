"""B-cubed and LEA statistics from the contingency table (see contingency.py).

B-cubed (v8.01): recall_num = sum d_ij c_ij / |K_i|, precision_num =
sum d_ij c_ij / |R_j|, denominators the mention counts.  The sums are
taken in v8.01's order (response chains, then their mentions, adding
c / |R| and c / |K| once per mention), so that even the last bit of a
document's numerator is v8.01's.
coval adds B-cubed per chain instead: recall_num = sum_i (sum_j f_ij^2) / |K_i|,
precision_num = sum_j (sum_i d_ij^2) / |R_j| (``per_chain``).
LEA (Moosavi & Strube 2016, as coval computes it): recall_num =
sum_i |K_i| * links(K_i & R) / links(K_i) with links(n) = n(n-1)/2, and a
key singleton resolved when its mention forms a response singleton;
precision symmetrically.
"""
import numpy as np
from ._jit import njit

COLUMNS = 8  # bcub r_num r_den p_num p_den, lea r_num r_den p_num p_den


@njit(cache=True)
def _lea_side(n_own, own_size, other_size, own_idx, other_idx, count, common, single):
    """LEA numerator and denominator for the chains of one side (``common``, ``single``: scratch, at least
    ``n_own`` long)."""
    for i in range(n_own):
        common[i] = 0.0
        single[i] = False
    for t in range(len(own_idx)):
        n = count[t]
        common[own_idx[t]] += n * (n - 1) / 2.0
        if n >= 1 and other_size[other_idx[t]] == 1:
            single[own_idx[t]] = True
    num = 0.0
    den = 0.0
    for i in range(n_own):
        s = own_size[i]
        if s == 0:
            continue
        if s == 1:
            num += 1.0 if single[i] else 0.0
        else:
            num += s * common[i] / (s * (s - 1) / 2.0)
        den += s
    return num, den


@njit(cache=True)
def _bcub_side(n_own, own_size, own_idx, count, squares):
    """coval's B-cubed numerator of one side's chains: per chain, its squared cell counts over its size
    (``squares``: scratch, at least ``n_own`` long)."""
    for i in range(n_own):
        squares[i] = 0
    for t in range(len(own_idx)):
        squares[own_idx[t]] += count[t] * count[t]
    num = 0.0
    for i in range(n_own):
        if own_size[i] > 0:
            num += squares[i] / float(own_size[i])
    return num


@njit(cache=True)
def _cell(ci, cc, lo, hi, i):
    """c of cell (i, j) among cells [lo, hi) of chain j (sorted by i); 0 if absent."""
    k = lo + np.searchsorted(ci[lo:hi], i)
    return cc[k] if k < hi and ci[k] == i else 0


@njit(cache=True)
def _bcub_doc(k_ids, k_chains, r_ids, r_chains, ci, cj, cc, ks, rs, last_key, start):
    """B-cubed numerators of one document, added as v8.01 adds them (``last_key``: scratch as long as the
    document's ids, ``start``: as its response chains + 1)."""
    n_ids = 0
    for x in k_ids:
        n_ids = max(n_ids, x + 1)
    for x in r_ids:
        n_ids = max(n_ids, x + 1)
    for x in range(n_ids):
        last_key[x] = -1  # the last key chain holding each id
    for p in range(len(k_ids)):
        last_key[k_ids[p]] = max(last_key[k_ids[p]], k_chains[p])
    # cells of each response chain: [start[j], start[j + 1]) (cells are sorted by (j, i))
    for j in range(len(rs) + 1):
        start[j] = 0
    for t in range(len(cj)):
        start[cj[t] + 1] += 1
    for j in range(len(rs)):
        start[j + 1] += start[j]
    r_num = 0.0
    p_num = 0.0
    for p in range(len(r_ids)):  # response rows are in chain order, mentions in chain order
        x = r_ids[p]
        if x < 0:
            continue
        i = last_key[x]
        if i < 0:
            continue
        j = r_chains[p]
        c = _cell(ci, cc, start[j], start[j + 1], i)
        p_num += c / rs[j]
        r_num += c / ks[i]
    return r_num, p_num


@njit(cache=True)
def _bcub_lea(cell_off, ci, cj, cc, cd, cf, k_size_off, k_size, r_size_off, r_size,
              k_off, k_ids, k_chains, r_off, r_ids, r_chains, per_chain):
    n_docs = len(cell_off) - 1
    out = np.zeros((n_docs, COLUMNS), dtype=np.float64)
    top = 1  # per-document buffers, allocated once: ids and chains of a document are below this
    for doc in range(n_docs):
        top = max(top, k_size_off[doc + 1] - k_size_off[doc] + 1, r_size_off[doc + 1] - r_size_off[doc] + 1)
    for x in k_ids:
        top = max(top, x + 1)
    for x in r_ids:
        top = max(top, x + 1)
    last_key = np.empty(top, dtype=np.int64)
    start = np.empty(top, dtype=np.int64)
    common = np.empty(top, dtype=np.float64)
    single = np.empty(top, dtype=np.bool_)
    squares = np.empty(top, dtype=np.int64)
    for doc in range(n_docs):
        a, b = cell_off[doc], cell_off[doc + 1]
        ks = k_size[k_size_off[doc]:k_size_off[doc + 1]]
        rs = r_size[r_size_off[doc]:r_size_off[doc + 1]]
        ka, kb, ra, rb = k_off[doc], k_off[doc + 1], r_off[doc], r_off[doc + 1]
        if per_chain:
            out[doc, 0] = _bcub_side(len(ks), ks, ci[a:b], cf[a:b], squares)
            out[doc, 2] = _bcub_side(len(rs), rs, cj[a:b], cd[a:b], squares)
        else:
            out[doc, 0], out[doc, 2] = _bcub_doc(k_ids[ka:kb], k_chains[ka:kb], r_ids[ra:rb], r_chains[ra:rb],
                                                 ci[a:b], cj[a:b], cc[a:b], ks, rs, last_key, start)
        out[doc, 1] = ks.sum()
        out[doc, 3] = rs.sum()
        out[doc, 4], out[doc, 5] = _lea_side(len(ks), ks, rs, ci[a:b], cj[a:b], cf[a:b], common, single)
        out[doc, 6], out[doc, 7] = _lea_side(len(rs), rs, ks, cj[a:b], ci[a:b], cd[a:b], common, single)
    return out


def bcub_lea(cell_off, ci, cj, cc, cd, cf, k_size_off, k_size, r_size_off, r_size,
             k_off, k_ids, k_chains, r_off, r_ids, r_chains, per_chain: bool = False):
    """Per-document B-cubed and LEA statistics, shape (n_docs, 8); the rows are the kernel's
    mention ids and chains (key and response, in chain order).  ``per_chain``: coval's B-cubed."""
    i64 = lambda v: np.ascontiguousarray(v, dtype=np.int64)
    return _bcub_lea(cell_off, ci, cj, cc, cd, cf, k_size_off, k_size, r_size_off, r_size,
                     i64(k_off), i64(k_ids), i64(k_chains), i64(r_off), i64(r_ids), i64(r_chains), bool(per_chain))
