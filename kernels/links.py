"""MUC and BLANC link counts per document.

MUC (v8.01): correct links = sum over cells of max(d_ij - 1, 0); key links
sum(|K_i| - 1); response links sum(|R_j| - 1) over non-empty chains.  coval
counts the recall's correct links from f_ij instead (each key mention in the
response chain its lookup finds), and its BLANC from f_ij too.

BLANC (Luo et al. 2014): coreference links are mention pairs inside a
chain, non-coreference links pairs across chains, counted as sets of id
pairs.  Without repeated ids the counts follow from the table:
correct coref = sum C(n_ij, 2); correct non-coref = C(N, 2) - sum_i C(a_i, 2)
- sum_j C(b_j, 2) + sum C(n_ij, 2) over the N mentions found on both sides
(a_i, b_j the row and column sums).  Documents with repeated ids go
through ``blanc_with_repeats``, which follows v8.01's pair sets (a chain
holding id x twice yields the link x-x).
"""
import numpy as np
from ._jit import njit

from .order import lex_order, sorted_pairs, take

COLUMNS = 12  # muc r_num r_den p_num p_den; blanc coref r_num r_den p_num p_den, noncoref likewise


@njit(cache=True)
def _pairs(n):
    return n * (n - 1) // 2


@njit(cache=True)
def _sum_pairs(counts):
    total = 0
    for c in counts:
        total += _pairs(c)
    return total


@njit(cache=True)
def _chain_links(sizes):
    """MUC links (|C| - 1 per non-empty chain) and coreference pairs (C(|C|, 2)) of a side's chains."""
    links = 0
    pairs = 0
    for s in sizes:
        if s > 0:
            links += s - 1
        pairs += _pairs(s)
    return links, pairs


@njit(cache=True)
def _muc_blanc(cell_off, ci, cj, found, found_back, k_size_off, k_size, r_size_off, r_size):
    n_docs = len(cell_off) - 1
    out = np.zeros((n_docs, COLUMNS), dtype=np.int64)
    for doc in range(n_docs):
        a, b = cell_off[doc], cell_off[doc + 1]
        ks = k_size[k_size_off[doc]:k_size_off[doc + 1]]
        rs = r_size[r_size_off[doc]:r_size_off[doc + 1]]
        row = np.zeros(len(ks), dtype=np.int64)
        col = np.zeros(len(rs), dtype=np.int64)
        correct = 0
        both_coref = 0
        common = 0
        correct_back = 0
        for t in range(a, b):
            n = found[t]
            if n > 1:
                correct += n - 1
            if found_back[t] > 1:
                correct_back += found_back[t] - 1
            both_coref += _pairs(n)
            common += n
            row[ci[t]] += n
            col[cj[t]] += n
        key_links, key_coref = _chain_links(ks)
        resp_links, resp_coref = _chain_links(rs)
        row_coref = _sum_pairs(row)
        col_coref = _sum_pairs(col)
        out[doc, 0] = correct
        out[doc, 1] = key_links
        out[doc, 2] = correct_back
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


def muc_blanc(cell_off, ci, cj, found, found_back, k_size_off, k_size, r_size_off, r_size):
    """Per-document MUC and BLANC counts, shape (n_docs, 12), int64, from cell counts: ``found`` (MUC recall,
    BLANC) and ``found_back`` (MUC precision).  v8.01 gives ``d`` for both (its BLANC holds for repeat-free
    documents), coval ``f`` and ``d``."""
    return _muc_blanc(cell_off, ci, cj, found, found_back, k_size_off, k_size, r_size_off, r_size)


@njit(cache=True)
def _by_id(ids, chains, n_chains, n_ids):
    """CSR of each id's chains (sorted, with repeats): (offsets, chains); ids < 0 skipped."""
    x, c = sorted_pairs(ids, chains, n_chains)
    off = np.zeros(n_ids + 1, dtype=np.int64)
    for v in x:
        off[v + 1] += 1
    for k in range(n_ids):
        off[k + 1] += off[k]
    return off, c


@njit(cache=True)
def _coref_pair(off, ch, a, b):
    """Is {a, b} a coreference link of this side (a chain holds both; a == b: holds it twice)?"""
    if off[a] == off[a + 1] or off[b] == off[b + 1]:
        return False
    if a == b:
        for t in range(off[a] + 1, off[a + 1]):
            if ch[t] == ch[t - 1]:
                return True
        return False
    p, q = off[a], off[b]
    while p < off[a + 1] and q < off[b + 1]:
        if ch[p] < ch[q]:
            p += 1
        elif ch[p] > ch[q]:
            q += 1
        else:
            return True
    return False


@njit(cache=True)
def _noncoref_pair(off, ch, a, b):
    """Is {a, b} a non-coreference link (a in one chain, b in another)?"""
    if off[a] == off[a + 1] or off[b] == off[b + 1]:
        return False
    # some chain of a differs from some chain of b unless both sit in one and the same chain
    return not (ch[off[a]] == ch[off[a + 1] - 1] and ch[off[b]] == ch[off[b + 1] - 1] and ch[off[a]] == ch[off[b]])


@njit(cache=True)
def blanc_with_repeats(k_ids, k_chains, nk, r_ids, r_chains, nr):
    """BLANC counts of a document where some id occurs more than once on a side.

    v8.01 counts links as sets of id pairs.  Pairs of ordinary ids (once on
    each side) follow the closed-form counts; pairs involving a repeated id
    are checked one by one, so the cost is O(#repeated ids x #ids).
    """
    n_ids = 0
    for x in k_ids:
        n_ids = max(n_ids, x + 1)
    for x in r_ids:
        n_ids = max(n_ids, x + 1)
    k_o, k_c = _by_id(k_ids, k_chains, nk, n_ids)
    r_o, r_c = _by_id(r_ids, r_chains, nr, n_ids)
    special = np.zeros(n_ids, dtype=np.bool_)
    for x in range(n_ids):
        special[x] = k_o[x + 1] - k_o[x] > 1 or r_o[x + 1] - r_o[x] > 1
    # ordinary ids: closed form over their chains
    k_cnt = np.zeros(nk, dtype=np.int64)
    r_cnt = np.zeros(nr, dtype=np.int64)
    row = np.zeros(nk, dtype=np.int64)
    col = np.zeros(nr, dtype=np.int64)
    cell_k = np.empty(n_ids, dtype=np.int64)
    cell_r = np.empty(n_ids, dtype=np.int64)
    n_cells = 0
    n_k = 0
    n_r = 0
    for x in range(n_ids):
        if special[x]:
            continue
        in_k = k_o[x + 1] > k_o[x]
        in_r = r_o[x + 1] > r_o[x]
        if in_k:
            k_cnt[k_c[k_o[x]]] += 1
            n_k += 1
        if in_r:
            r_cnt[r_c[r_o[x]]] += 1
            n_r += 1
        if in_k and in_r:
            row[k_c[k_o[x]]] += 1
            col[r_c[r_o[x]]] += 1
            cell_k[n_cells] = k_c[k_o[x]]
            cell_r[n_cells] = r_c[r_o[x]]
            n_cells += 1
    cell_k, cell_r = cell_k[:n_cells], cell_r[:n_cells]
    order = lex_order(cell_k, cell_r, nk, nr)
    cell_k, cell_r = take(cell_k, order), take(cell_r, order)
    both_coref = 0
    t = 0
    while t < n_cells:
        t2 = t
        while t2 < n_cells and cell_k[t2] == cell_k[t] and cell_r[t2] == cell_r[t]:
            t2 += 1
        both_coref += _pairs(t2 - t)
        t = t2
    key_coref = _sum_pairs(k_cnt)
    resp_coref = _sum_pairs(r_cnt)
    row_coref = _sum_pairs(row)
    col_coref = _sum_pairs(col)
    key_non = _pairs(n_k) - key_coref
    resp_non = _pairs(n_r) - resp_coref
    both_non = _pairs(n_cells) - row_coref - col_coref + both_coref
    # pairs with a repeated id: each unordered pair once
    for s in range(n_ids):
        if not special[s]:
            continue
        for y in range(n_ids):
            if special[y] and y < s:
                continue
            kc = _coref_pair(k_o, k_c, s, y)
            kn = _noncoref_pair(k_o, k_c, s, y)
            rc = _coref_pair(r_o, r_c, s, y)
            rn = _noncoref_pair(r_o, r_c, s, y)
            key_coref += kc
            key_non += kn
            resp_coref += rc
            resp_non += rn
            both_coref += kc and rc
            both_non += kn and rn
    out = np.zeros(8, dtype=np.int64)
    out[0], out[1], out[2], out[3] = both_coref, key_coref, both_coref, resp_coref
    out[4], out[5], out[6], out[7] = both_non, key_non, both_non, resp_non
    return out
