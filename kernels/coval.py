"""Coreference statistics with coval's mention semantics (MINA evaluation).

coval keeps every mention of a cluster, even two that are equal (the same minimum span), and finds a
mention's cluster on the other side through a dictionary: equal mentions share one entry, which holds the
LAST cluster (in cluster order) that contains such a mention.  Mentions are given here as identity ids
(equal mentions, equal ids; ids are global, across documents) with their chain, chains numbered in
coval's order.  Per document and side:

* mentions: distinct identities, and those the other side has;
* MUC: per chain, size - 1 links, minus the mentions not found and the distinct chains found;
* B-cubed: per chain, the sum over the other side's chains of (mentions mapped there)^2 / size;
* LEA: per chain, size x (pairs mapped to one chain) / (all pairs), a singleton counting 1 if it is
  found in a singleton;
* BLANC (the Universal Anaphora scorer's link counts, CorefUD's lookups): key coreference links whose
  two mentions are found in one response chain, key non-coreference links found in different ones
  (``distinct_blanc``: the links between distinct identities instead, for minimum spans);
* CEAF: the cells |{m in K_i : m in R_j}| (key mentions counted with repeats) and the chain sizes, for
  the CEAF kernel.
"""
import numpy as np
from ._jit import njit

from .order import lex_order

N_COLUMNS = 24  # mentions, muc, bcub, lea (recall num/den, precision num/den each), blanc (coref, noncoref)


@njit(cache=True)
def _last_chain(ids, chains, lo, hi, table):
    """table[id] = the largest chain containing the id (the dictionary's last write)."""
    for p in range(lo, hi):
        if chains[p] > table[ids[p]]:
            table[ids[p]] = chains[p]


@njit(cache=True)
def _clear(ids, lo, hi, table, value):
    for p in range(lo, hi):
        table[ids[p]] = value


@njit(cache=True)
def _side(ids, chains, n_chains, n_other, lo, hi, found, other_size):
    """MUC, B-cubed and LEA (num, den) of one side against the other, and the BLANC link counts.

    ``found[id]``: the other side's chain of an identity (-1: not there).  Returns
    (muc_num, muc_den, bcub_num, bcub_den, lea_num, lea_den, coref_links_found, coref_links,
    noncoref_links_found, noncoref_links).
    """
    n = hi - lo
    own = np.empty(n, dtype=np.int64)
    to = np.empty(n, dtype=np.int64)
    for p in range(n):
        own[p] = chains[lo + p]
        to[p] = found[ids[lo + p]] + 1  # 0: not found
    order = lex_order(own, to, n_chains, n_other + 1)
    size = np.zeros(n_chains, dtype=np.int64)
    for p in range(n):
        size[own[p]] += 1
    muc_num = 0
    muc_den = 0
    bcub_num = 0.0
    lea_num = 0.0
    coref_found = 0
    coref_all = 0
    per_other = np.zeros(n_other + 1, dtype=np.int64)  # found mentions mapped to each other chain
    same_chain_same_other = 0
    found_total = 0
    same_chain_found = 0
    q = 0
    for c in range(n_chains):
        s = size[c]
        if s == 0:
            continue
        end = q + s
        missing = 0
        linked = 0
        squares = 0
        pairs = 0
        n_found = 0
        while q < end:
            g = q
            while g < end and to[order[g]] == to[order[q]]:
                g += 1
            k = g - q
            t = to[order[q]]
            if t == 0:
                missing += k
            else:
                linked += 1
                squares += k * k
                pairs += k * (k - 1) // 2
                n_found += k
                per_other[t] += k
            q = g
        muc_num += s - missing - linked
        muc_den += s - 1
        bcub_num += squares / float(s)
        if s == 1:
            common = 1 if (n_found == 1 and other_size[_only_target(to, order, end - 1)] == 1) else 0
            lea_num += s * common / 1.0
        else:
            lea_num += s * pairs / (s * (s - 1) / 2.0)
        coref_found += pairs
        coref_all += s * (s - 1) // 2
        same_chain_same_other += pairs
        found_total += n_found
        same_chain_found += n_found * (n_found - 1) // 2
    same_other = 0
    for t in range(1, n_other + 1):
        same_other += per_other[t] * (per_other[t] - 1) // 2
    noncoref_found = (found_total * (found_total - 1) // 2 - same_chain_found) - (same_other - same_chain_same_other)
    noncoref_all = n * (n - 1) // 2 - coref_all
    out = np.empty(10, dtype=np.float64)
    out[0] = muc_num
    out[1] = muc_den
    out[2] = bcub_num
    out[3] = n
    out[4] = lea_num
    out[5] = n
    out[6] = coref_found
    out[7] = coref_all
    out[8] = noncoref_found
    out[9] = noncoref_all
    return out


@njit(cache=True)
def _only_target(to, order, p):
    return to[order[p]] - 1


@njit(cache=True)
def _cells(k_ids, k_chains, nk, r_ids, r_chains, nr, n_ids, by_id_off, by_id_chain):
    """CEAF cells of one document: (key chain, response chain, count), sorted."""
    # the response chains of each identity (distinct), CSR over the identities present
    order = lex_order(r_ids, r_chains, n_ids, nr)
    count = 0
    for q in range(len(order)):
        p = order[q]
        if q == 0 or r_ids[p] != r_ids[order[q - 1]] or r_chains[p] != r_chains[order[q - 1]]:
            by_id_off[r_ids[p] + 1] += 1
            count += 1
    # ids are global: only the entries of the ids present are touched (and reset below)
    n_pairs = 0
    for p in range(len(k_ids)):
        n_pairs += by_id_off[k_ids[p] + 1]
    pairs_i = np.empty(n_pairs, dtype=np.int64)
    pairs_j = np.empty(n_pairs, dtype=np.int64)
    # list the distinct (id, chain) pairs once, then expand each key mention
    dist_id = np.empty(count, dtype=np.int64)
    dist_ch = np.empty(count, dtype=np.int64)
    c = 0
    for q in range(len(order)):
        p = order[q]
        if q == 0 or r_ids[p] != r_ids[order[q - 1]] or r_chains[p] != r_chains[order[q - 1]]:
            dist_id[c] = r_ids[p]
            dist_ch[c] = r_chains[p]
            c += 1
    for q in range(count):  # first position of each id among the distinct pairs
        if q == 0 or dist_id[q] != dist_id[q - 1]:
            by_id_chain[dist_id[q]] = q
    w = 0
    for p in range(len(k_ids)):
        x = k_ids[p]
        m = by_id_off[x + 1]
        if m:
            f = by_id_chain[x]
            for q in range(f, f + m):
                pairs_i[w] = k_chains[p]
                pairs_j[w] = dist_ch[q]
                w += 1
    for q in range(count):  # reset the scratch tables
        by_id_off[dist_id[q] + 1] = 0
        by_id_chain[dist_id[q]] = -1
    cell_order = lex_order(pairs_i, pairs_j, nk, nr)
    ci = np.empty(n_pairs, dtype=np.int64)
    cj = np.empty(n_pairs, dtype=np.int64)
    ce = np.empty(n_pairs, dtype=np.int64)
    n_cells = 0
    for q in range(n_pairs):
        p = cell_order[q]
        if n_cells > 0 and ci[n_cells - 1] == pairs_i[p] and cj[n_cells - 1] == pairs_j[p]:
            ce[n_cells - 1] += 1
        else:
            ci[n_cells] = pairs_i[p]
            cj[n_cells] = pairs_j[p]
            ce[n_cells] = 1
            n_cells += 1
    return ci[:n_cells], cj[:n_cells], ce[:n_cells]


@njit(cache=True)
def _distinct(ids, lo, hi, mark, stamp):
    n = 0
    for p in range(lo, hi):
        if mark[ids[p]] != stamp:
            mark[ids[p]] = stamp
            n += 1
    return n


@njit(cache=True)
def coval_stats(k_off, k_ids, k_chains, k_nch, r_off, r_ids, r_chains, r_nch, n_ids):
    """Per-document statistics (n_docs, N_COLUMNS) and the CEAF cells and chain sizes."""
    n_docs = len(k_off) - 1
    out = np.zeros((n_docs, N_COLUMNS), dtype=np.float64)
    to_resp = np.full(n_ids, -1, dtype=np.int64)
    to_key = np.full(n_ids, -1, dtype=np.int64)
    mark = np.full(n_ids, -1, dtype=np.int64)
    by_id_off = np.zeros(n_ids + 1, dtype=np.int64)
    by_id_chain = np.full(n_ids, -1, dtype=np.int64)
    cell_off = np.zeros(n_docs + 1, dtype=np.int64)
    k_size_off = np.zeros(n_docs + 1, dtype=np.int64)
    r_size_off = np.zeros(n_docs + 1, dtype=np.int64)
    for d in range(n_docs):
        k_size_off[d + 1] = k_size_off[d] + k_nch[d]
        r_size_off[d + 1] = r_size_off[d] + r_nch[d]
    k_size = np.zeros(k_size_off[-1], dtype=np.int64)
    r_size = np.zeros(r_size_off[-1], dtype=np.int64)
    all_ci = []
    all_cj = []
    all_ce = []
    for d in range(n_docs):
        ka, kb = k_off[d], k_off[d + 1]
        ra, rb = r_off[d], r_off[d + 1]
        nk, nr = k_nch[d], r_nch[d]
        for p in range(ka, kb):
            k_size[k_size_off[d] + k_chains[p]] += 1
        for p in range(ra, rb):
            r_size[r_size_off[d] + r_chains[p]] += 1
        _last_chain(r_ids, r_chains, ra, rb, to_resp)
        _last_chain(k_ids, k_chains, ka, kb, to_key)
        # mentions: distinct identities of each side, and those of the key the response has
        n_key = _distinct(k_ids, ka, kb, mark, 2 * d)
        n_resp = _distinct(r_ids, ra, rb, mark, 2 * d + 1)
        common = 0
        for p in range(ka, kb):
            x = k_ids[p]
            if to_resp[x] >= 0 and mark[x] != -2:
                mark[x] = -2
                common += 1
        out[d, 0] = common
        out[d, 1] = n_key
        out[d, 2] = common
        out[d, 3] = n_resp
        rec = _side(k_ids, k_chains, nk, nr, ka, kb, to_resp, r_size[r_size_off[d]:r_size_off[d + 1]])
        prec = _side(r_ids, r_chains, nr, nk, ra, rb, to_key, k_size[k_size_off[d]:k_size_off[d + 1]])
        for m in range(3):  # muc, bcub, lea
            out[d, 4 + 4 * m] = rec[2 * m]
            out[d, 5 + 4 * m] = rec[2 * m + 1]
            out[d, 6 + 4 * m] = prec[2 * m]
            out[d, 7 + 4 * m] = prec[2 * m + 1]
        # BLANC: the key's links found (recall and precision numerators alike), each side's links
        r_coref_all = prec[7]
        r_noncoref_all = prec[9]
        out[d, 16] = rec[6]
        out[d, 17] = rec[7]
        out[d, 18] = rec[6]
        out[d, 19] = r_coref_all
        out[d, 20] = rec[8]
        out[d, 21] = rec[9]
        out[d, 22] = rec[8]
        out[d, 23] = r_noncoref_all
        ci, cj, ce = _cells(k_ids[ka:kb], k_chains[ka:kb].astype(np.int64), nk, r_ids[ra:rb],
                            r_chains[ra:rb].astype(np.int64), nr, n_ids, by_id_off, by_id_chain)
        all_ci.append(ci)
        all_cj.append(cj)
        all_ce.append(ce)
        cell_off[d + 1] = cell_off[d] + len(ci)
        _clear(r_ids, ra, rb, to_resp, -1)
        _clear(k_ids, ka, kb, to_key, -1)
    n_cells = cell_off[-1]
    ci = np.empty(n_cells, dtype=np.int64)
    cj = np.empty(n_cells, dtype=np.int64)
    ce = np.empty(n_cells, dtype=np.int64)
    for d in range(n_docs):
        ci[cell_off[d]:cell_off[d + 1]] = all_ci[d]
        cj[cell_off[d]:cell_off[d + 1]] = all_cj[d]
        ce[cell_off[d]:cell_off[d + 1]] = all_ce[d]
    return out, cell_off, ci, cj, ce, k_size_off, k_size, r_size_off, r_size


@njit(cache=True)
def _pairs(n):
    return n * (n - 1) // 2


@njit(cache=True)
def _blanc_side(ids, lo, hi, own, other, n_own, n_other, mark, stamp):
    """One side's BLANC link counts over its distinct identities, each in the chain the lookups give it
    (``own[id]``: the last of this side's chains holding it; ``other[id]``: the other side's, -1 if
    absent).  Returns (coreference links, non-coreference links, coreference links found, non-coreference
    links found)."""
    per_own = np.zeros(n_own, dtype=np.int64)  # distinct identities per own chain
    both_own = np.zeros(n_own, dtype=np.int64)  # ... of those the other side has
    both_other = np.zeros(n_other, dtype=np.int64)
    k_list = np.empty(hi - lo, dtype=np.int64)
    o_list = np.empty(hi - lo, dtype=np.int64)
    n = 0
    n_both = 0
    for p in range(lo, hi):
        x = ids[p]
        if mark[x] == stamp:
            continue
        mark[x] = stamp
        n += 1
        per_own[own[x]] += 1
        if other[x] >= 0:
            both_own[own[x]] += 1
            both_other[other[x]] += 1
            k_list[n_both] = own[x]
            o_list[n_both] = other[x]
            n_both += 1
    coref = 0
    same_own = 0
    for c in range(n_own):
        coref += _pairs(per_own[c])
        same_own += _pairs(both_own[c])
    same_other = 0
    for c in range(n_other):
        same_other += _pairs(both_other[c])
    order = lex_order(k_list[:n_both], o_list[:n_both], n_own, n_other)
    same_both = 0
    q = 0
    while q < n_both:
        g = q
        while g < n_both and k_list[order[g]] == k_list[order[q]] and o_list[order[g]] == o_list[order[q]]:
            g += 1
        same_both += _pairs(g - q)
        q = g
    noncoref_found = _pairs(n_both) - same_own - same_other + same_both
    return coref, _pairs(n) - coref, same_both, noncoref_found


@njit(cache=True)
def distinct_blanc(k_off, k_ids, k_chains, k_nch, r_off, r_ids, r_chains, r_nch, n_ids):
    """BLANC link counts (n_docs, 8: coreference then non-coreference links, each recall num/den, precision
    num/den) over the mentions coval's lookups see (minimum spans): distinct identities, each in the last
    chain of its side that holds it; a link both sides have is found (the recall and precision numerator)."""
    n_docs = len(k_off) - 1
    out = np.zeros((n_docs, 8), dtype=np.float64)
    to_resp = np.full(n_ids, -1, dtype=np.int64)
    to_key = np.full(n_ids, -1, dtype=np.int64)
    mark = np.full(n_ids, -1, dtype=np.int64)
    for d in range(n_docs):
        ka, kb = k_off[d], k_off[d + 1]
        ra, rb = r_off[d], r_off[d + 1]
        _last_chain(r_ids, r_chains, ra, rb, to_resp)
        _last_chain(k_ids, k_chains, ka, kb, to_key)
        k_coref, k_noncoref, coref_found, noncoref_found = _blanc_side(k_ids, ka, kb, to_key, to_resp, k_nch[d],
                                                                       r_nch[d], mark, 2 * d)
        r_coref, r_noncoref, _, _ = _blanc_side(r_ids, ra, rb, to_resp, to_key, r_nch[d], k_nch[d], mark, 2 * d + 1)
        out[d, 0] = coref_found
        out[d, 1] = k_coref
        out[d, 2] = coref_found
        out[d, 3] = r_coref
        out[d, 4] = noncoref_found
        out[d, 5] = k_noncoref
        out[d, 6] = noncoref_found
        out[d, 7] = r_noncoref
        _clear(r_ids, ra, rb, to_resp, -1)
        _clear(k_ids, ka, kb, to_key, -1)
    return out
