"""CEAF: similarities, connected components and per-document sums.

phi3(K, R) = |K & R| (CEAFm) and phi4(K, R) = 2|K & R| / (|K| + |R|)
(CEAFe), with |K & R| the table's ``e`` count.  The best one-to-one
assignment decomposes over connected components of the cluster-overlap
graph (cells with e > 0).  A component with a single key or a single
response chain takes its best cell; the others are solved exactly with the
Hungarian method (``max_weight_assignment``; tests check it against
scipy's linear_sum_assignment).
"""
import numpy as np
from ._jit import njit

from .order import stable_order, take


@njit(cache=True)
def max_weight_assignment(w):
    """Column assigned to each row (-1 none) maximising the total weight of a dense matrix.

    Shortest augmenting paths with potentials (Kuhn-Munkres), O(n^2 m) for n <= m;
    a wider-than-tall matrix is solved transposed.
    """
    n0, m0 = w.shape
    flip = n0 > m0
    a = -(w.T if flip else w)  # minimise cost
    n, m = a.shape
    u = np.zeros(n + 1)
    v = np.zeros(m + 1)
    p = np.zeros(m + 1, dtype=np.int64)  # p[j]: row (1-based) matched to column j
    way = np.zeros(m + 1, dtype=np.int64)
    for i in range(1, n + 1):
        p[0] = i
        j0 = 0
        minv = np.full(m + 1, np.inf)
        used = np.zeros(m + 1, dtype=np.bool_)
        while True:
            used[j0] = True
            i0 = p[j0]
            delta = np.inf
            j1 = 0
            for j in range(1, m + 1):
                if not used[j]:
                    cur = a[i0 - 1, j - 1] - u[i0] - v[j]
                    if cur < minv[j]:
                        minv[j] = cur
                        way[j] = j0
                    if minv[j] < delta:
                        delta = minv[j]
                        j1 = j
            for j in range(m + 1):
                if used[j]:
                    u[p[j]] += delta
                    v[j] -= delta
                else:
                    minv[j] -= delta
            j0 = j1
            if p[j0] == 0:
                break
        while j0 != 0:
            j1 = way[j0]
            p[j0] = p[j1]
            j0 = j1
    out = np.full(n0, -1, dtype=np.int64)
    for j in range(1, m + 1):
        if p[j] != 0:
            if flip:
                out[j - 1] = p[j] - 1
            else:
                out[p[j] - 1] = j - 1
    return out


@njit(cache=True)
def _solve_component(cells, ci, cj, phi3, phi4, key_row, resp_col, ko, best3, best4):
    """Exact assignment of one component (cells = its cell indices)."""
    n_rows = 0
    n_cols = 0
    for t in cells:
        if key_row[ci[t]] < 0:
            key_row[ci[t]] = n_rows
            n_rows += 1
        if resp_col[cj[t]] < 0:
            resp_col[cj[t]] = n_cols
            n_cols += 1
    keys = np.empty(n_rows, dtype=np.int64)
    for t in cells:
        keys[key_row[ci[t]]] = ci[t]
    for phi, best in ((phi3, best3), (phi4, best4)):
        w = np.zeros((n_rows, n_cols))
        for t in cells:
            w[key_row[ci[t]], resp_col[cj[t]]] = phi[t]
        cols = max_weight_assignment(w)
        for r in range(n_rows):
            if cols[r] >= 0 and w[r, cols[r]] > 0:
                best[ko + keys[r]] = w[r, cols[r]]
    for t in cells:  # reset the scratch maps
        key_row[ci[t]] = -1
        resp_col[cj[t]] = -1


@njit(cache=True)
def find_root(parent, x):
    """The root of ``x`` in a union-find forest, halving the path on the way."""
    while parent[x] != x:
        parent[x] = parent[parent[x]]
        x = parent[x]
    return x


@njit(cache=True)
def _doc_components(ci, cj, nk, nr, comp, parent):
    """comp[t] = component root (a node index) of cell t; keys 0..nk-1, responses nk..
    (``parent``: scratch, at least nk + nr long)."""
    for x in range(nk + nr):
        parent[x] = x
    for t in range(len(ci)):
        a = find_root(parent, ci[t])
        b = find_root(parent, nk + cj[t])
        if a != b:
            parent[max(a, b)] = min(a, b)
    for t in range(len(ci)):
        comp[t] = find_root(parent, ci[t])


@njit(cache=True)
def _ceaf(cell_off, ci, cj, ce, k_size_off, k_size, r_size_off, r_size):
    n_docs = len(cell_off) - 1
    n_cells = len(ci)
    phi3 = np.zeros(n_cells, dtype=np.float64)
    phi4 = np.zeros(n_cells, dtype=np.float64)
    comp = np.empty(n_cells, dtype=np.int64)
    hard = np.zeros(n_cells, dtype=np.bool_)  # cell belongs to a component with several keys and responses
    best3 = np.zeros(k_size_off[-1], dtype=np.float64)  # value assigned to each key chain
    best4 = np.zeros(k_size_off[-1], dtype=np.float64)
    nodes = 1  # per-document buffers, allocated once (scores from memory call this per epoch)
    for doc in range(n_docs):
        nodes = max(nodes, k_size_off[doc + 1] - k_size_off[doc] + r_size_off[doc + 1] - r_size_off[doc])
    parent = np.empty(nodes, dtype=np.int64)
    n_keys = np.empty(nodes, dtype=np.int64)
    n_resp = np.empty(nodes, dtype=np.int64)
    seen = np.empty(nodes, dtype=np.bool_)  # key chains, then response chains
    arg3 = np.empty(nodes, dtype=np.int64)
    arg4 = np.empty(nodes, dtype=np.int64)
    for doc in range(n_docs):
        a, b = cell_off[doc], cell_off[doc + 1]
        ko, ro = k_size_off[doc], r_size_off[doc]
        nk = k_size_off[doc + 1] - ko
        nr = r_size_off[doc + 1] - ro
        for t in range(a, b):
            phi3[t] = ce[t]
            phi4[t] = 2.0 * ce[t] / (k_size[ko + ci[t]] + r_size[ro + cj[t]])
        _doc_components(ci[a:b], cj[a:b], nk, nr, comp[a:b], parent)
        # distinct key and response chains per component
        for x in range(nk + nr):
            n_keys[x] = 0
            n_resp[x] = 0
            seen[x] = False
            arg3[x] = -1
            arg4[x] = -1
        for t in range(a, b):
            if not seen[ci[t]]:
                seen[ci[t]] = True
                n_keys[comp[t]] += 1
            if not seen[nk + cj[t]]:
                seen[nk + cj[t]] = True
                n_resp[comp[t]] += 1
        # trivial components: the best cell, first in cell order on ties
        n_hard = 0
        for t in range(a, b):
            c = comp[t]
            if n_keys[c] > 1 and n_resp[c] > 1:
                hard[t] = True
                n_hard += 1
                continue
            if arg3[c] < 0 or phi3[t] > phi3[arg3[c]]:
                arg3[c] = t
            if arg4[c] < 0 or phi4[t] > phi4[arg4[c]]:
                arg4[c] = t
        for c in range(nk + nr):
            if arg3[c] >= 0:
                best3[ko + ci[arg3[c]]] = phi3[arg3[c]]
                best4[ko + ci[arg4[c]]] = phi4[arg4[c]]
        if n_hard == 0:
            continue
        # components with several keys and responses: sort their cells by component, solve each
        hard_cells = np.flatnonzero(hard[a:b]) + a
        hard_cells = take(hard_cells, stable_order(take(comp, hard_cells), nk + nr))
        key_row = np.full(nk, -1, dtype=np.int64)
        resp_col = np.full(nr, -1, dtype=np.int64)
        s = 0
        while s < n_hard:
            e = s
            while e < n_hard and comp[hard_cells[e]] == comp[hard_cells[s]]:
                e += 1
            _solve_component(hard_cells[s:e], ci, cj, phi3, phi4, key_row, resp_col, ko, best3, best4)
            s = e
    return best3, best4


def ceaf_assignments(cell_off, ci, cj, ce, k_size_off, k_size, r_size_off, r_size):
    """The similarity (phi3, phi4) of the response chain assigned to each key chain (0: none)."""
    return _ceaf(cell_off, ci, cj, ce, k_size_off, k_size, r_size_off, r_size)


@njit(cache=True)
def _ceaf_sums(k_size_off, k_size, r_size_off, r_size, best3, best4):
    n_docs = len(k_size_off) - 1
    out = np.zeros((n_docs, 8), dtype=np.float64)
    for doc in range(n_docs):
        ko, kz = k_size_off[doc], k_size_off[doc + 1]
        ro, rz = r_size_off[doc], r_size_off[doc + 1]
        num3 = 0.0
        num4 = 0.0
        for i in range(ko, kz):
            num3 += best3[i]
            # v8.01 stores 1 - phi for its minimising solver and adds back 1 - (1 - phi)
            if best4[i] > 0:
                num4 += 1.0 - (1.0 - best4[i])
        out[doc, 0] = num3
        out[doc, 1] = k_size[ko:kz].sum()
        out[doc, 2] = num3
        out[doc, 3] = r_size[ro:rz].sum()
        out[doc, 4] = num4
        out[doc, 5] = (k_size[ko:kz] > 0).sum()
        out[doc, 6] = num4
        out[doc, 7] = (r_size[ro:rz] > 0).sum()
    return out


def ceaf_sums(k_size_off, k_size, r_size_off, r_size, best3, best4):
    """Per-document CEAFm and CEAFe statistics, shape (n_docs, 8)."""
    return _ceaf_sums(k_size_off, k_size, r_size_off, r_size, best3, best4)
