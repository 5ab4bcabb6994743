"""Triple matching as the Triple evaluation module (cltl/TripleEvaluation) counts it.

A triple is a relation and two elements, each a list of token ids (int codes, unique per document:
triples of two documents never share a code).  Gold and system triples live in one store: rows
``0..n_gold-1`` are gold, ``n_gold..`` system, each side grouped by document.  Elements cross as CSR
``(offsets, ids)``; the kernel sorts each element's ids (repeats kept: the module compares list sizes).

Element predicates (``a`` plays the module's gold argument, ``b`` its system argument):
  partial(a, b): both empty, or they share an id;
  exact(a, b):   same list size and every id of ``a`` in ``b``.
Triple predicates (``fold``: relation codes equal when Java's ``equalsIgnoreCase`` says so; ``flags``:
bit 0 relation is exactly ``participant``, bit 1 it is one of the KYOTO roles the module lets a
``participant`` stand for):
  P  = partial first and partial second           X  = exact first and exact second
  PR = same fold and P                            XR = same fold and X
  PR' (dedup) = same fold and P, or (b participant, a KYOTO role and X)
  XR' (dedup) = X and (same fold, or b participant and a KYOTO role)
  RP = same exact relation and P (the per-relation lists)

Counting, system triples in file order (per variant V in P, X, PR, XR):
  unique_V[s]:  no earlier unique_V system triple u with V'(s, u) (PR' for PR, XR' for XR);
  match_V[s]:   the first gold g (file order) with V(g, s), or -1;
  counted_V[g]: when s matches g first, g is counted unless a counted gold c has D(g, c), where D is
                XR' (``dedup_exact``: EvaluateTriplesDebug, EvaluateTripleFolders) or, for P and PR,
                the variant's own dedup predicate (EvaluateTriples: P, PR').
  unique_rel[s]: no earlier unique_rel system triple u with RP(s, u).

Candidates come from inverted indexes (postings) over element ids: a triple with a non-empty first
element only matches triples sharing a first id; one with an empty first element and a non-empty second
only triples with an empty first element sharing a second id; one with both empty only such triples of
its document.  So the cost is the number of triples sharing ids, not gold x system.
"""
import numpy as np
from ._jit import njit, prange

MODE_P, MODE_X, MODE_PR, MODE_XR, MODE_PR_DEDUP, MODE_XR_DEDUP, MODE_RP = 0, 1, 2, 3, 4, 5, 6
PARTICIPANT, KYOTO_ROLE = 1, 2


@njit(cache=True)
def sort_elements(off, ids):
    """A copy of ``ids`` with each element's ids sorted (insertion sort: elements are short)."""
    out = ids.copy()
    for r in range(len(off) - 1):
        for i in range(off[r] + 1, off[r + 1]):
            v = out[i]
            j = i - 1
            while j >= off[r] and out[j] > v:
                out[j + 1] = out[j]
                j -= 1
            out[j + 1] = v
    return out


@njit(cache=True)
def _intersect(ids, a0, a1, b0, b1):
    i, j = a0, b0
    while i < a1 and j < b1:
        if ids[i] == ids[j]:
            return True
        if ids[i] < ids[j]:
            i += 1
        else:
            j += 1
    return False


@njit(cache=True)
def _subset(ids, a0, a1, b0, b1):
    """Every id of ids[a0:a1] in ids[b0:b1] (both sorted)."""
    j = b0
    for i in range(a0, a1):
        while j < b1 and ids[j] < ids[i]:
            j += 1
        if j == b1 or ids[j] != ids[i]:
            return False
    return True


@njit(cache=True)
def _partial(off, ids, a, b):
    a0, a1, b0, b1 = off[a], off[a + 1], off[b], off[b + 1]
    if a0 == a1 and b0 == b1:
        return True
    return _intersect(ids, a0, a1, b0, b1)


@njit(cache=True)
def _exact(off, ids, a, b):
    a0, a1, b0, b1 = off[a], off[a + 1], off[b], off[b + 1]
    if a1 - a0 != b1 - b0:
        return False
    return _subset(ids, a0, a1, b0, b1)


@njit(cache=True)
def postings(off, ids, lo, hi, n_keys):
    """CSR key -> rows (ascending) of rows lo..hi-1 of an element whose ids are sorted (a row once per key,
    even when its element lists the id twice)."""
    counts = np.zeros(n_keys + 1, dtype=np.int64)
    for r in range(lo, hi):
        last = -1
        for p in range(off[r], off[r + 1]):
            if ids[p] != last:
                counts[ids[p] + 1] += 1
            last = ids[p]
    for k in range(n_keys):
        counts[k + 1] += counts[k]
    out = np.empty(counts[n_keys], dtype=np.int64)
    fill = counts[:n_keys].copy()
    for r in range(lo, hi):
        last = -1
        for p in range(off[r], off[r + 1]):
            k = ids[p]
            if k != last:
                out[fill[k]] = r
                fill[k] += 1
            last = k
    return counts, out


@njit(cache=True)
def empty_rows(f_off, s_off, doc, lo, hi, n_docs):
    """CSR document -> rows (ascending) of rows lo..hi-1 whose two elements are empty."""
    counts = np.zeros(n_docs + 1, dtype=np.int64)
    for r in range(lo, hi):
        if f_off[r] == f_off[r + 1] and s_off[r] == s_off[r + 1]:
            counts[doc[r] + 1] += 1
    for d in range(n_docs):
        counts[d + 1] += counts[d]
    out = np.empty(counts[n_docs], dtype=np.int64)
    fill = counts[:n_docs].copy()
    for r in range(lo, hi):
        if f_off[r] == f_off[r + 1] and s_off[r] == s_off[r + 1]:
            out[fill[doc[r]]] = r
            fill[doc[r]] += 1
    return counts, out


BIT_P, BIT_X, BIT_FOLD, BIT_REL, BIT_KYOTO = 1, 2, 4, 8, 16


@njit(cache=True)
def _comps(a, b, f_off, f_ids, s_off, s_ids, fold, rel, flags):
    """What every predicate needs of a candidate pair, as bits: P, X, same fold, same relation, KYOTO (b
    participant and a KYOTO role).  Candidates (``_candidates``) share a first id or both have an empty
    first element, so their first elements always match partially; X implies P."""
    bits = 0
    if _partial(s_off, s_ids, a, b):
        bits |= BIT_P
        if _exact(f_off, f_ids, a, b) and _exact(s_off, s_ids, a, b):
            bits |= BIT_X
    if fold[a] == fold[b]:
        bits |= BIT_FOLD
    if rel[a] == rel[b]:
        bits |= BIT_REL
    if (flags[b] & PARTICIPANT) != 0 and (flags[a] & KYOTO_ROLE) != 0:
        bits |= BIT_KYOTO
    return bits


@njit(cache=True)
def _holds(mode, bits):
    if mode == MODE_P:
        return (bits & BIT_P) != 0
    if mode == MODE_X:
        return (bits & BIT_X) != 0
    if mode == MODE_PR:
        return (bits & BIT_FOLD) != 0 and (bits & BIT_P) != 0
    if mode == MODE_XR:
        return (bits & BIT_FOLD) != 0 and (bits & BIT_X) != 0
    if mode == MODE_PR_DEDUP:
        if (bits & BIT_FOLD) != 0:
            return (bits & BIT_P) != 0
        return (bits & BIT_KYOTO) != 0 and (bits & BIT_X) != 0
    if mode == MODE_XR_DEDUP:
        return (bits & BIT_X) != 0 and ((bits & BIT_FOLD) != 0 or (bits & BIT_KYOTO) != 0)
    return (bits & BIT_REL) != 0 and (bits & BIT_P) != 0


@njit(cache=True)
def _push(buf, n, t):
    """``buf`` with ``buf[n] = t``, twice as long first when full."""
    if n == len(buf):
        grown = np.empty(2 * len(buf), dtype=np.int64)
        grown[:n] = buf[:n]
        buf = grown
    buf[n] = t
    return buf


@njit(cache=True)
def _candidates(q, before, f_off, f_ids, s_off, s_ids, doc, pf_off, pf, ps_off, ps, pe_off, pe, buf):
    """Rows of the postings' side that can match row q (below ``before`` when it is >= 0), each listed once
    per shared id: those sharing a first id (q's first element not empty), else those with an empty first
    element sharing a second id, else those of q's document with both elements empty."""
    if f_off[q + 1] > f_off[q]:
        return _posted_by_id(f_off, f_ids, q, pf_off, pf, before, f_off, False, buf)
    if s_off[q + 1] > s_off[q]:
        return _posted_by_id(s_off, s_ids, q, ps_off, ps, before, f_off, True, buf)
    return _posted(pe, pe_off[doc[q]], pe_off[doc[q] + 1], before, f_off, False, buf, 0)


@njit(cache=True)
def _posted_by_id(ids_off, ids, q, post_off, post, before, f_off, empty_first, buf):
    """:func:`_posted` of each distinct id of row q's element (``ids_off``, ``ids``), in turn."""
    n = 0
    for p in range(ids_off[q], ids_off[q + 1]):
        if p > ids_off[q] and ids[p] == ids[p - 1]:
            continue
        k = ids[p]
        buf, n = _posted(post, post_off[k], post_off[k + 1], before, f_off, empty_first, buf, n)
    return buf, n


@njit(cache=True)
def _posted(post, lo, hi, before, f_off, empty_first, buf, n):
    """Rows post[lo:hi] (those below ``before`` when it is >= 0; with ``empty_first`` those whose first element
    is empty) added to the ``n`` rows of ``buf``; returns (buf, n)."""
    for i in range(lo, hi):
        t = post[i]
        if before >= 0 and t >= before:
            break
        if not empty_first or f_off[t + 1] == f_off[t]:
            buf = _push(buf, n, t)
            n += 1
    return buf, n


@njit(cache=True)
def _match_document(d, g_docs, s_docs, f_off, s_off, fold, rel, flags, doc, state):
    """Document d: its system rows against its gold rows (its slices of the outputs; ``state``: what
    :func:`_setup` made)."""
    (match, unique, counted, kept, count_marks, m_modes, u_modes, c_modes, fs, ss,
     gpf_off, gpf, gps_off, gps, gpe_off, gpe, spf_off, spf, sps_off, sps, spe_off, spe) = state
    g_lo, g_hi, s_lo, s_hi, n_gold = g_docs[d], g_docs[d + 1], s_docs[d], s_docs[d + 1], g_docs[len(g_docs) - 1]
    buf = np.empty(64, dtype=np.int64)
    found = np.zeros(5, dtype=np.bool_)
    best = np.empty(4, dtype=np.int64)
    for s in range(s_lo, s_hi):
        j = s - n_gold
        # unique: is an earlier unique system row a duplicate of s?
        buf, n_c = _candidates(s, s, f_off, fs, s_off, ss, doc, spf_off, spf, sps_off, sps, spe_off, spe, buf)
        found[:] = False
        n_found = 0
        for i in range(n_c):
            u = buf[i]
            ju = u - n_gold
            wanted = False
            for v in range(5):
                if not found[v] and kept[ju, v]:
                    wanted = True
            if not wanted:
                continue
            bits = _comps(s, u, f_off, fs, s_off, ss, fold, rel, flags)
            for v in range(5):
                if not found[v] and kept[ju, v] and _holds(u_modes[v], bits):
                    found[v] = True
                    n_found += 1
            if n_found == 5:
                break
        for v in range(5):
            if not found[v]:
                kept[j, v] = True
                unique[v, j] = 1
        # matches: the first gold row of each variant
        buf, n_c = _candidates(s, -1, f_off, fs, s_off, ss, doc, gpf_off, gpf, gps_off, gps, gpe_off, gpe, buf)
        best[:] = -1
        for i in range(n_c):
            t = buf[i]
            useful = False
            for v in range(4):
                if best[v] < 0 or t < best[v]:
                    useful = True
            if not useful:
                continue
            bits = _comps(t, s, f_off, fs, s_off, ss, fold, rel, flags)
            for v in range(4):
                if (best[v] < 0 or t < best[v]) and _holds(m_modes[v], bits):
                    best[v] = t
        for v in range(4):
            match[v, j] = best[v]
        # counting: each distinct matched gold row's counted candidates, once for the variants it serves
        for v in range(4):
            g = best[v]
            if g < 0:
                continue
            first_v = True
            for w in range(v):
                if best[w] == g:
                    first_v = False
            if not first_v:
                continue
            buf, n_c = _candidates(g, -1, f_off, fs, s_off, ss, doc, gpf_off, gpf, gps_off, gps, gpe_off, gpe,
                                   buf)
            found[:] = False
            for i in range(n_c):
                c = buf[i]
                wanted = False
                for w in range(v, 4):
                    if best[w] == g and not found[w] and count_marks[c, w]:
                        wanted = True
                if not wanted:
                    continue
                bits = _comps(g, c, f_off, fs, s_off, ss, fold, rel, flags)
                for w in range(v, 4):
                    if best[w] == g and not found[w] and count_marks[c, w] and _holds(c_modes[w], bits):
                        found[w] = True
            for w in range(v, 4):
                if best[w] == g and not found[w]:
                    count_marks[g, w] = True
                    counted[w, g] = 1


@njit(cache=True)
def _setup(f_off, f_ids, s_off, s_ids, doc, g_docs, s_docs, n_keys, dedup_exact):
    """The outputs (match, unique, counted first), the variant modes, the sorted elements and both sides'
    postings, in one flat tuple (numba's prange takes a tuple of arrays, not one holding tuples)."""
    n_docs = len(g_docs) - 1
    n_gold = g_docs[n_docs]
    n = s_docs[n_docs]
    n_sys = n - n_gold
    fs = sort_elements(f_off, f_ids)
    ss = sort_elements(s_off, s_ids)
    gpf_off, gpf = postings(f_off, fs, 0, n_gold, n_keys)
    gps_off, gps = postings(s_off, ss, 0, n_gold, n_keys)
    gpe_off, gpe = empty_rows(f_off, s_off, doc, 0, n_gold, n_docs)
    spf_off, spf = postings(f_off, fs, n_gold, n, n_keys)
    sps_off, sps = postings(s_off, ss, n_gold, n, n_keys)
    spe_off, spe = empty_rows(f_off, s_off, doc, n_gold, n, n_docs)
    match = np.full((4, n_sys), -1, dtype=np.int64)
    unique = np.zeros((5, n_sys), dtype=np.uint8)
    counted = np.zeros((4, n_gold), dtype=np.uint8)
    kept = np.zeros((n_sys, 5), dtype=np.bool_)  # unique, per variant, of each system row
    count_marks = np.zeros((n_gold, 4), dtype=np.bool_)  # counted, per variant, of each gold row
    m_modes = np.array([MODE_P, MODE_X, MODE_PR, MODE_XR])
    u_modes = np.array([MODE_P, MODE_X, MODE_PR_DEDUP, MODE_XR_DEDUP, MODE_RP])
    if dedup_exact:
        c_modes = np.array([MODE_XR_DEDUP, MODE_XR_DEDUP, MODE_XR_DEDUP, MODE_XR_DEDUP])
    else:
        c_modes = np.array([MODE_P, MODE_XR_DEDUP, MODE_PR_DEDUP, MODE_XR_DEDUP])
    return (match, unique, counted, kept, count_marks, m_modes, u_modes, c_modes, fs, ss,
            gpf_off, gpf, gps_off, gps, gpe_off, gpe, spf_off, spf, sps_off, sps, spe_off, spe)


@njit(cache=True)
def match_triples(f_off, f_ids, s_off, s_ids, fold, rel, flags, doc, g_docs, s_docs, n_keys, dedup_exact):
    """Matches, unique system triples and counted gold triples of the four variants (see the module
    docstring).  ``g_docs``/``s_docs``: CSR document -> store rows of the gold and of the (in-range)
    system triples; gold rows are 0..n_gold-1 and the system rows follow (rows after them are ignored).
    Returns ``match`` (4, n_system) int64 (gold row or -1; rows P, X, PR, XR), ``unique`` (5, n_system)
    uint8 (P, X, PR, XR, per relation) and ``counted`` (4, n_gold) uint8.

    Each system row's candidates are listed once and every variant is decided on them together.
    ``match_triples_parallel`` is the same over documents in parallel."""
    state = _setup(f_off, f_ids, s_off, s_ids, doc, g_docs, s_docs, n_keys, dedup_exact)
    for d in range(len(g_docs) - 1):
        _match_document(d, g_docs, s_docs, f_off, s_off, fold, rel, flags, doc, state)
    return state[0], state[1], state[2]  # match, unique, counted


@njit(cache=True, parallel=True)
def match_triples_parallel(f_off, f_ids, s_off, s_ids, fold, rel, flags, doc, g_docs, s_docs, n_keys,
                           dedup_exact):
    """``match_triples`` with documents in parallel (``prange``): each writes its own slices, so the result
    does not depend on the number of threads.  Pays on large corpora of many documents."""
    state = _setup(f_off, f_ids, s_off, s_ids, doc, g_docs, s_docs, n_keys, dedup_exact)
    for d in prange(len(g_docs) - 1):
        _match_document(d, g_docs, s_docs, f_off, s_off, fold, rel, flags, doc, state)
    return state[0], state[1], state[2]  # match, unique, counted


@njit(cache=True)
def _mark_new(seen, sorted_ids, a0, a1):
    """Whether none of the ids [a0, a1) was seen yet (a triple not counted before); marks them if so."""
    for p in range(a0, a1):
        if seen[sorted_ids[p]]:
            return False
    for p in range(a0, a1):
        seen[sorted_ids[p]] = True
    return True


@njit(cache=True)
def element_stats(off, ids, label, n_gold, lo_out, n_keys):
    """The module's first- (or second-) element statistics (``Util.compareElements``) for one element.

    Gold rows in order: a gold element with ids none of which an earlier counted gold element had is
    counted (``gold_new``); the system rows sharing an id with it are visited in order until one whose
    label agrees (gold label empty, or equal): ``gold_match`` (system row or -1); each visited system row
    before it whose label disagrees is a mismatch (``pairs``: gold row, system row).  System rows in
    order, the same way: ``system_new``; ``system_matched`` when some gold row shares an id and its label
    agrees.  Rows lo_out..hi_out-1 (out-of-range system triples, stored after the others) only get
    ``system_new`` (the module's count of unique elements out of range).
    """
    n = len(off) - 1
    sorted_ids = sort_elements(off, ids)
    gp_off, gp = postings(off, sorted_ids, 0, n_gold, n_keys)
    sp_off, sp = postings(off, sorted_ids, n_gold, lo_out, n_keys)
    seen = np.zeros(n_keys, dtype=np.bool_)
    gold_new = np.zeros(n_gold, dtype=np.uint8)
    gold_match = np.full(n_gold, -1, dtype=np.int64)
    pairs = np.empty(32, dtype=np.int64)  # (gold row, system row) pairs, flat
    n_pairs = 0
    longest = 1
    for r in range(n):
        longest = max(longest, off[r + 1] - off[r])
    heads = np.empty(longest, dtype=np.int64)
    for g in range(n_gold):
        a0, a1 = off[g], off[g + 1]
        if a0 == a1:
            continue
        if not _mark_new(seen, sorted_ids, a0, a1):
            continue
        gold_new[g] = 1
        # system rows sharing an id with g, ascending, each once: a k-way merge of the postings
        k = a1 - a0
        for i in range(k):
            heads[i] = sp_off[sorted_ids[a0 + i]]
        while True:
            best = -1
            for i in range(k):
                key = sorted_ids[a0 + i]
                if heads[i] < sp_off[key + 1]:
                    t = sp[heads[i]]
                    if best < 0 or t < best:
                        best = t
            if best < 0:
                break
            for i in range(k):
                key = sorted_ids[a0 + i]
                if heads[i] < sp_off[key + 1] and sp[heads[i]] == best:
                    heads[i] += 1
            if label[g] == 0 or label[g] == label[best]:
                gold_match[g] = best
                break
            pairs = _push(_push(pairs, 2 * n_pairs, g), 2 * n_pairs + 1, best)
            n_pairs += 1
    seen[:] = False
    n_sys = n - n_gold
    system_new = np.zeros(n_sys, dtype=np.uint8)
    system_matched = np.zeros(n_sys, dtype=np.uint8)
    for s in range(n_gold, n):
        if s == lo_out:
            seen[:] = False  # out-of-range triples are counted on their own
        a0, a1 = off[s], off[s + 1]
        if a0 == a1:
            continue
        if not _mark_new(seen, sorted_ids, a0, a1):
            continue
        system_new[s - n_gold] = 1
        if s >= lo_out:
            continue
        found = False
        for p in range(a0, a1):
            key = sorted_ids[p]
            for i in range(gp_off[key], gp_off[key + 1]):
                g = gp[i]
                if label[g] == 0 or label[g] == label[s]:
                    found = True
                    break
            if found:
                break
        if found:
            system_matched[s - n_gold] = 1
    return gold_new, gold_match, pairs[: 2 * n_pairs].reshape(n_pairs, 2).copy(), system_new, system_matched


@njit(cache=True)
def relation_mismatches(f_off, f_ids, s_off, s_ids, fold, rel, flags, doc, n_gold, n, n_keys, n_docs):
    """(system row, gold row) of every pair with P(gold, system) and different exact relations, system rows
    n_gold..n-1, ordered by system row then gold row (the module's relation confusion matrix and mismatch
    log)."""
    fs = sort_elements(f_off, f_ids)
    ss = sort_elements(s_off, s_ids)
    gpf_off, gpf = postings(f_off, fs, 0, n_gold, n_keys)
    gps_off, gps = postings(s_off, ss, 0, n_gold, n_keys)
    gpe_off, gpe = empty_rows(f_off, s_off, doc, 0, n_gold, n_docs)
    out = np.empty(32, dtype=np.int64)  # (system row, gold row) pairs, flat
    n_out = 0
    buf = np.empty(64, dtype=np.int64)
    for s in range(n_gold, n):
        buf, n_buf = _candidates(s, -1, f_off, fs, s_off, ss, doc, gpf_off, gpf, gps_off, gps, gpe_off, gpe, buf)
        last = -1
        for g in np.sort(buf[:n_buf]):  # ascending, each once
            if g == last:
                continue
            last = g
            if rel[g] != rel[s] and _partial(f_off, fs, g, s) and _partial(s_off, ss, g, s):
                out = _push(_push(out, 2 * n_out, s), 2 * n_out + 1, g)
                n_out += 1
    return out[: 2 * n_out].reshape(n_out, 2).copy()
