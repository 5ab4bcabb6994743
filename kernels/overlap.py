"""B-cubed and LEA statistics from the contingency table (see contingency.py).

B-cubed (v8.01): recall_num = sum d_ij c_ij / |K_i|, precision_num =
sum d_ij c_ij / |R_j|, denominators the mention counts.
LEA (Moosavi & Strube 2016, as coval computes it): recall_num =
sum_i |K_i| * links(K_i & R) / links(K_i) with links(n) = n(n-1)/2, and a
key singleton resolved when its mention forms a response singleton;
precision symmetrically.
"""
import numpy as np
from numba import njit

COLUMNS = 8  # bcub r_num r_den p_num p_den, lea r_num r_den p_num p_den


@njit(cache=True)
def _lea_side(n_own, own_size, other_size, own_idx, other_idx, count):
    """LEA numerator and denominator for the chains of one side."""
    common = np.zeros(n_own, dtype=np.float64)
    single = np.zeros(n_own, dtype=np.bool_)
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
def _bcub_lea(cell_off, ci, cj, cc, cd, cf, k_size_off, k_size, r_size_off, r_size):
    n_docs = len(cell_off) - 1
    out = np.zeros((n_docs, COLUMNS), dtype=np.float64)
    for doc in range(n_docs):
        a, b = cell_off[doc], cell_off[doc + 1]
        ks = k_size[k_size_off[doc]:k_size_off[doc + 1]]
        rs = r_size[r_size_off[doc]:r_size_off[doc + 1]]
        r_num = 0.0
        p_num = 0.0
        for t in range(a, b):
            dc = cd[t] * cc[t]
            if dc:
                r_num += dc / ks[ci[t]]
                p_num += dc / rs[cj[t]]
        out[doc, 0] = r_num
        out[doc, 1] = ks.sum()
        out[doc, 2] = p_num
        out[doc, 3] = rs.sum()
        out[doc, 4], out[doc, 5] = _lea_side(len(ks), ks, rs, ci[a:b], cj[a:b], cf[a:b])
        out[doc, 6], out[doc, 7] = _lea_side(len(rs), rs, ks, cj[a:b], ci[a:b], cd[a:b])
    return out


def bcub_lea(cell_off, ci, cj, cc, cd, cf, k_size_off, k_size, r_size_off, r_size):
    """Per-document B-cubed and LEA statistics, shape (n_docs, 8)."""
    return _bcub_lea(cell_off, ci, cj, cc, cd, cf, k_size_off, k_size, r_size_off, r_size)
