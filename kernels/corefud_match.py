"""CorefUD matching of whole corpora (``fastscore.coref.corefud.match``), for documents whose mentions
differ in (first word, last word, length) on each side -- there the CorefUD scorer's order of mentions
is that sort alone, whatever order its Python sets iterate in.  Other documents are matched in Python.

Mentions are CSR rows (``w_off``, ``w_keys``: sorted word keys) with heads; documents are row ranges
(``k_off``, ``r_off``); ``k_ord``/``r_ord`` list each document's rows sorted by (first, last, length).

- :func:`equal_rows`: the response row equal to each key row (same words; same head in head matching).
- :func:`zero_similarities`: per document, the zeros of each side (sorted) and the matrix
  10 * F1(parent+relation) + F1(parent) of their heads' DEPS (same sentence; 0 otherwise).
- :func:`leftovers`: exact pairs of what the zero pass left, and per document the remaining rows (sorted)
  and their partial or head similarity matrix.
- :func:`lookups`: from the pairs, each side's lookup of its counterpart as the scorer makes it, whether
  that is one 1-to-1 alignment, response ids, and the zero score's counterparts.
"""
import numpy as np

from ._jit import njit
from .matching import similarity

SENTENCE_SHIFT = 24


@njit(cache=True)
def _same_words(a_off, a_keys, i, b_off, b_keys, j):
    la = a_off[i + 1] - a_off[i]
    if la != b_off[j + 1] - b_off[j]:
        return False
    for t in range(la):
        if a_keys[a_off[i] + t] != b_keys[b_off[j] + t]:
            return False
    return True


@njit(cache=True)
def _triple_cmp(a_off, a_keys, i, b_off, b_keys, j):
    """-1, 0, 1: (first, last, length) of row i against row j."""
    af, al, an = a_keys[a_off[i]], a_keys[a_off[i + 1] - 1], a_off[i + 1] - a_off[i]
    bf, bl, bn = b_keys[b_off[j]], b_keys[b_off[j + 1] - 1], b_off[j + 1] - b_off[j]
    if af != bf:
        return -1 if af < bf else 1
    if al != bl:
        return -1 if al < bl else 1
    if an != bn:
        return -1 if an < bn else 1
    return 0


@njit(cache=True)
def equal_rows(k_off, k_ord, kw_off, kw_keys, k_head, r_off, r_ord, rw_off, rw_keys, r_head, head_mode):
    """(eq_k, eq_r): the other side's equal row of each row (global rows), or -1."""
    eq_k = np.full(len(k_ord), -1, dtype=np.int64)
    eq_r = np.full(len(r_ord), -1, dtype=np.int64)
    for d in range(len(k_off) - 1):
        a = k_off[d]
        b = r_off[d]
        while a < k_off[d + 1] and b < r_off[d + 1]:
            i = k_ord[a]
            j = r_ord[b]
            c = _triple_cmp(kw_off, kw_keys, i, rw_off, rw_keys, j)
            if c < 0:
                a += 1
            elif c > 0:
                b += 1
            else:
                if _same_words(kw_off, kw_keys, i, rw_off, rw_keys, j) and (not head_mode or k_head[i] == r_head[j]):
                    eq_k[i] = j
                    eq_r[j] = i
                a += 1
                b += 1
    return eq_k, eq_r


@njit(cache=True)
def _index(p, r, n, parent, relation, parents_only):
    """Where (parent, relation) first stands among the first ``n`` items of a DEPS list (-1: not there)."""
    for y in range(n):
        if p[y] == parent and (parents_only or r[y] == relation):
            return y
    return -1


@njit(cache=True)
def _f1(pa, ra, pb, rb, parents_only):
    """F1 of two DEPS lists as sets ((parent, relation) pairs, or parents only)."""
    na = 0
    common = 0
    for x in range(len(pa)):
        if _index(pa, ra, x, pa[x], ra[x], parents_only) < 0:  # not a repeat
            na += 1
            common += _index(pb, rb, len(pb), pa[x], ra[x], parents_only) >= 0
    nb = 0
    for x in range(len(pb)):
        nb += _index(pb, rb, x, pb[x], rb[x], parents_only) < 0
    p = common / na
    r = common / nb
    if p > 0 and r > 0:
        return 2 * p * r / (p + r)
    return 0.0


@njit(cache=True)
def zero_similarities(k_off, k_ord, k_zero, k_head, k_doff, k_par, k_rel, r_off, r_ord, r_zero, r_head, r_doff,
                      r_par, r_rel):
    """Per document the sorted zeros of each side (CSR ``kz_off``/``kz``, ``rz_off``/``rz``), the flat
    similarity matrices (``sim_off``), and a flag per document where a zero without DEPS meets another
    zero of its sentence (the Python matching says so)."""
    n_docs = len(k_off) - 1
    kz_off = np.zeros(n_docs + 1, dtype=np.int64)
    rz_off = np.zeros(n_docs + 1, dtype=np.int64)
    sim_off = np.zeros(n_docs + 1, dtype=np.int64)
    for d in range(n_docs):
        nk = _count(k_off[d], k_off[d + 1], k_ord, k_zero)
        nr = _count(r_off[d], r_off[d + 1], r_ord, r_zero)
        kz_off[d + 1] = kz_off[d] + nk
        rz_off[d + 1] = rz_off[d] + nr
        sim_off[d + 1] = sim_off[d] + (nk * nr if nk > 0 and nr > 0 else 0)
    kz = np.empty(kz_off[n_docs], dtype=np.int64)
    rz = np.empty(rz_off[n_docs], dtype=np.int64)
    sim = np.zeros(sim_off[n_docs], dtype=np.float64)
    bad = np.zeros(n_docs, dtype=np.bool_)
    for d in range(n_docs):
        _select(k_off[d], k_off[d + 1], k_ord, k_zero, kz, kz_off[d])
        _select(r_off[d], r_off[d + 1], r_ord, r_zero, rz, rz_off[d])
        nr = rz_off[d + 1] - rz_off[d]
        if sim_off[d + 1] == sim_off[d]:
            continue
        for x in range(kz_off[d + 1] - kz_off[d]):
            i = kz[kz_off[d] + x]
            ka, kb = k_doff[i], k_doff[i + 1]
            for y in range(nr):
                j = rz[rz_off[d] + y]
                if (k_head[i] >> SENTENCE_SHIFT) != (r_head[j] >> SENTENCE_SHIFT):
                    continue
                ra, rb = r_doff[j], r_doff[j + 1]
                if ka == kb or ra == rb:
                    bad[d] = True
                    continue
                f_rel = _f1(k_par[ka:kb], k_rel[ka:kb], r_par[ra:rb], r_rel[ra:rb], False)
                f_par = _f1(k_par[ka:kb], k_rel[ka:kb], r_par[ra:rb], r_rel[ra:rb], True)
                sim[sim_off[d] + x * nr + y] = 10 * f_rel + f_par
    return kz_off, kz, rz_off, rz, sim_off, sim, bad


@njit(cache=True)
def _count(lo, hi, order, keep):
    """How many of the rows order[lo:hi] ``keep`` marks."""
    n = 0
    for a in range(lo, hi):
        n += keep[order[a]]
    return n


@njit(cache=True)
def _select(lo, hi, order, keep, out, t):
    """The rows order[lo:hi] that ``keep`` marks, written to out from t on."""
    for a in range(lo, hi):
        if keep[order[a]]:
            out[t] = order[a]
            t += 1


@njit(cache=True)
def leftovers(mode, k_off, k_ord, kw_off, kw_keys, k_head, r_off, r_ord, rw_off, rw_keys, r_head, eq_k, k_taken,
              r_taken):
    """After the zero pass (``k_taken``/``r_taken``: rows it paired): exact pairs (``ex_k``, ``ex_r``,
    per document ``ex_off``), the rows left on each side (sorted; CSR ``kl_off``/``kl``, ``rl_off``/``rl``)
    and, unless ``mode`` is 0 (exact), their flat similarity matrices (``sim_off``)."""
    n_docs = len(k_off) - 1
    k_exact = np.zeros(len(k_ord), dtype=np.bool_)
    r_exact = np.zeros(len(r_ord), dtype=np.bool_)
    ex_off = np.zeros(n_docs + 1, dtype=np.int64)
    for d in range(n_docs):
        n = 0
        for a in range(k_off[d], k_off[d + 1]):
            i = k_ord[a]
            j = eq_k[i]
            if not k_taken[i] and j >= 0 and not r_taken[j]:
                k_exact[i] = True
                r_exact[j] = True
                n += 1
        ex_off[d + 1] = ex_off[d] + n
    k_left = ~(k_exact | k_taken)
    r_left = ~(r_exact | r_taken)
    ex_k = np.empty(ex_off[n_docs], dtype=np.int64)
    kl_off = np.zeros(n_docs + 1, dtype=np.int64)
    rl_off = np.zeros(n_docs + 1, dtype=np.int64)
    sim_off = np.zeros(n_docs + 1, dtype=np.int64)
    for d in range(n_docs):
        _select(k_off[d], k_off[d + 1], k_ord, k_exact, ex_k, ex_off[d])
        nk = _count(k_off[d], k_off[d + 1], k_ord, k_left)
        nr = _count(r_off[d], r_off[d + 1], r_ord, r_left)
        kl_off[d + 1] = kl_off[d] + nk
        rl_off[d + 1] = rl_off[d] + nr
        sim_off[d + 1] = sim_off[d] + (nk * nr if mode != 0 and nk > 0 and nr > 0 else 0)
    ex_r = eq_k[ex_k]
    kl = np.empty(kl_off[n_docs], dtype=np.int64)
    rl = np.empty(rl_off[n_docs], dtype=np.int64)
    sim = np.zeros(sim_off[n_docs], dtype=np.float64)
    for d in range(n_docs):
        _select(k_off[d], k_off[d + 1], k_ord, k_left, kl, kl_off[d])
        _select(r_off[d], r_off[d + 1], r_ord, r_left, rl, rl_off[d])
        if sim_off[d + 1] == sim_off[d]:
            continue
        nr = rl_off[d + 1] - rl_off[d]
        for x in range(kl_off[d + 1] - kl_off[d]):
            i = kl[kl_off[d] + x]
            for y in range(nr):
                j = rl[rl_off[d] + y]
                sim[sim_off[d] + x * nr + y] = similarity(mode, kw_keys[kw_off[i]:kw_off[i + 1]],
                                                          rw_keys[rw_off[j]:rw_off[j + 1]], k_head[i], r_head[j])
    return ex_off, ex_k, ex_r, kl_off, kl, rl_off, rl, sim_off, sim


@njit(cache=True)
def lookups(k_off, r_off, p_off, p_k, p_r, eq_k, eq_r):
    """From each document's pairs (global rows ``p_k``, ``p_r``, CSR ``p_off``): the lookups ``kf``, ``rf``
    (per row, the other side's row offset in the document that its lookup finds, or -1), whether they
    are one 1-to-1 alignment, response ids for the engine, and the zero score's counterparts (global key
    row, global response row or -1; CSR ``c_off``)."""
    n_docs = len(k_off) - 1
    n_k = k_off[n_docs]
    n_r = r_off[n_docs]
    kf = np.full(n_k, -1, dtype=np.int64)
    rf = np.full(n_r, -1, dtype=np.int64)
    r_id = np.empty(n_r, dtype=np.int64)
    regular = np.ones(n_docs, dtype=np.bool_)
    c_key = np.empty(n_k, dtype=np.int64)
    c_resp = np.empty(n_k, dtype=np.int64)
    c_off = np.zeros(n_docs + 1, dtype=np.int64)
    nc = 0
    for d in range(n_docs):
        klo, khi, rlo, rhi = k_off[d], k_off[d + 1], r_off[d], r_off[d + 1]
        nk = khi - klo
        nr = rhi - rlo
        # value ids: a key row's own; a response row's, that of its equal key row if any
        vid_r = np.empty(nr, dtype=np.int64)
        for b in range(nr):
            e = eq_r[rlo + b]
            vid_r[b] = e - klo if e >= 0 else nk + b
        both = np.full(nk + nr, -1, dtype=np.int64)
        for t in range(p_off[d], p_off[d + 1]):
            if eq_k[p_k[t]] != p_r[t]:
                both[p_k[t] - klo] = vid_r[p_r[t] - rlo]
        for t in range(p_off[d], p_off[d + 1]):
            if eq_k[p_k[t]] != p_r[t]:
                both[vid_r[p_r[t] - rlo]] = p_k[t] - klo
        for a in range(nk):
            v = both[a] if both[a] >= 0 else a
            if v < nk:
                e = eq_k[klo + v]
                kf[klo + a] = e - rlo if e >= 0 else -1
            else:
                kf[klo + a] = v - nk
        for b in range(nr):
            v = both[vid_r[b]] if both[vid_r[b]] >= 0 else vid_r[b]
            rf[rlo + b] = v if v < nk else -1
        # one 1-to-1 alignment?
        seen = np.zeros(nr, dtype=np.bool_)
        n_found = 0
        ok = True
        for a in range(nk):
            f = kf[klo + a]
            if f >= 0:
                n_found += 1
                if seen[f] or rf[rlo + f] != a:
                    ok = False
                seen[f] = True
        n_rf = 0
        for b in range(nr):
            n_rf += rf[rlo + b] >= 0
        if n_rf != n_found:
            ok = False
        regular[d] = ok
        for b in range(nr):
            r_id[rlo + b] = -1
        if ok:
            for a in range(nk):
                if kf[klo + a] >= 0:
                    r_id[rlo + kf[klo + a]] = a
        new = nk
        for b in range(nr):
            if r_id[rlo + b] < 0:
                r_id[rlo + b] = new
                new += 1
        for a in range(nk):
            e = eq_k[klo + a]
            if e >= 0:
                c_key[nc] = klo + a
                c_resp[nc] = e
                nc += 1
            elif both[a] >= 0:
                v = both[a]
                if v < nk:
                    hit = eq_k[klo + v]
                else:
                    hit = rlo + v - nk
                c_key[nc] = klo + a
                c_resp[nc] = hit
                nc += 1
        c_off[d + 1] = nc
    return kf, rf, regular, r_id, c_off, c_key[:nc], c_resp[:nc]


@njit(cache=True)
def identity_groups(order, doc, w_off, w_keys, head, head_mode):
    """A group id per row: rows of one document with the same words (and head, in head matching) share it.
    ``order``: the rows sorted by (document, first word, last word, length, head)."""
    n = len(order)
    group = np.full(n, -1, dtype=np.int64)
    g = 0
    a = 0
    while a < n:
        i = order[a]
        b = a + 1
        while b < n:
            j = order[b]
            if (doc[j] != doc[i] or _triple_cmp(w_off, w_keys, i, w_off, w_keys, j) != 0
                    or (head_mode and head[j] != head[i])):
                break
            b += 1
        for t in range(a, b):
            i = order[t]
            for u in range(a, t):
                j = order[u]
                if _same_words(w_off, w_keys, i, w_off, w_keys, j) and (not head_mode or head[i] == head[j]):
                    group[i] = group[j]
                    break
            if group[i] < 0:
                group[i] = g
                g += 1
        a = b
    return group
