"""Event nugget alignment: Dice overlaps and EvmEval's greedy mappings.

Mentions are sets of token (or character) ids, as CSR ``(offsets, values)``
with sorted, unique values per mention, plus a length per mention used in
the Dice denominator (EvmEval counts a character twice when two ranges of a
mention overlap).  Dice(g, s) = 2 |g & s| / (len(g) + len(s)).

Only pairs that share an id are visited (an inverted index of the gold
ids), so the cost is linear in the overlapping pairs.  Pairs with Dice > 0
are taken in the order of EvmEval's heap: Dice descending, then system
index, then gold index.  Four mappings run side by side: span only, type,
realis, type+realis; each takes a pair when both mentions are still free in
it and, for the attribute mappings, the attributes match (a gold attribute
NOT_ANNOTATED matches anything).  TP of a mapping = sum of the Dice of its
pairs, added in the order taken.
"""
import numpy as np
from ._jit import njit, prange

from .ceaf import max_weight_assignment
from .order import stable_order, take

SPAN, TYPE, REALIS, BOTH = 0, 1, 2, 3
N_MAPPINGS = 4


@njit(cache=True)
def _doc_pairs(g_off, g_val, g_len, s_off, s_val, s_len):
    """(dice, system index, gold index) of every overlapping pair, in EvmEval's order."""
    n_g = len(g_off) - 1
    n_s = len(s_off) - 1
    # inverted index: gold ids sorted, with their mention
    n_vals = g_off[-1] - g_off[0]
    vals = np.empty(n_vals, dtype=np.int64)
    owner = np.empty(n_vals, dtype=np.int64)
    k = 0
    for i in range(n_g):
        for p in range(g_off[i], g_off[i + 1]):
            vals[k] = g_val[p]
            owner[k] = i
            k += 1
    top = 0
    for v in vals:
        top = max(top, v + 1)
    # token numbers and character offsets are non-negative (the readers check); a counting sort needs memory
    # up to the largest, so far offsets (a character 200000000) take the general sort, as stable
    order = stable_order(vals, top) if top <= 4 * n_vals + 4096 else np.argsort(vals, kind="mergesort")
    vals = take(vals, order)
    owner = take(owner, order)
    cap = 4 * (n_g + n_s) + 16
    while True:  # arrays sized up front (regrown inside the loop they would cost reference counting there)
        dice = np.empty(cap, dtype=np.float64)
        sys_i = np.empty(cap, dtype=np.int64)
        gold_i = np.empty(cap, dtype=np.int64)
        n = _fill_pairs(vals, owner, g_len, s_off, s_val, s_len, dice, sys_i, gold_i)
        if n >= 0:
            break
        cap *= 4
    dice, sys_i, gold_i = dice[:n], sys_i[:n], gold_i[:n]
    order = np.argsort(-dice, kind="mergesort")  # stable: (system, gold) order among equal Dice
    return dice[order], sys_i[order], gold_i[order]


@njit(cache=True)
def _fill_pairs(vals, owner, g_len, s_off, s_val, s_len, dice, sys_i, gold_i):
    """The overlapping pairs (system order, then gold order) written into ``dice``, ``sys_i``, ``gold_i``:
    their number, or -1 when they do not fit."""
    n_g = len(g_len)
    n_s = len(s_off) - 1
    n_vals = len(vals)
    cap = len(dice)
    inter = np.zeros(n_g, dtype=np.int64)
    touched = np.empty(n_g, dtype=np.int64)
    n = 0
    for j in range(n_s):
        n_t = 0
        for p in range(s_off[j], s_off[j + 1]):
            lo = np.searchsorted(vals, s_val[p])
            while lo < n_vals and vals[lo] == s_val[p]:
                i = owner[lo]
                if inter[i] == 0:
                    touched[n_t] = i
                    n_t += 1
                inter[i] += 1
                lo += 1
        touched[:n_t].sort()
        if n + n_t > cap:
            return -1
        for q in range(n_t):
            i = touched[q]
            dice[n] = 2.0 * inter[i] / (g_len[i] + s_len[j])
            sys_i[n] = j
            gold_i[n] = i
            n += 1
            inter[i] = 0
    return n


@njit(cache=True)
def _attrs_match(kind, i, j, g_type, g_realis, g_type_any, g_realis_any, s_type, s_realis):
    type_ok = g_type_any[i] or g_type[i] == s_type[j]
    realis_ok = g_realis_any[i] or g_realis[i] == s_realis[j]
    if kind == TYPE:
        return type_ok
    if kind == REALIS:
        return realis_ok
    return type_ok and realis_ok


@njit(cache=True)
def _greedy_doc(dice, sys_i, gold_i, n_g, n_s, g_type, g_realis, g_type_any, g_realis_any, s_type, s_realis,
                tp, map_sys, map_score):
    gold_used = np.zeros((N_MAPPINGS, n_g), dtype=np.bool_)
    sys_used = np.zeros((N_MAPPINGS, n_s), dtype=np.bool_)
    for t in range(len(dice)):
        j = sys_i[t]
        i = gold_i[t]
        for m in range(N_MAPPINGS):
            if sys_used[m, j] or gold_used[m, i]:
                continue
            if m != SPAN and not _attrs_match(m, i, j, g_type, g_realis, g_type_any, g_realis_any, s_type, s_realis):
                continue
            tp[m] += dice[t]
            map_sys[m, i] = j
            map_score[m, i] = dice[t]
            sys_used[m, j] = True
            gold_used[m, i] = True


@njit(cache=True)
def _optimal_doc(dice, sys_i, gold_i, n_g, n_s, g_type, g_realis, g_type_any, g_realis_any, s_type, s_realis,
                 tp, map_sys, map_score):
    """Maximum-weight one-to-one mapping per attribute (not official): the Hungarian method on the
    Dice of the pairs whose attributes match."""
    for m in range(N_MAPPINGS):
        w = np.zeros((n_g, n_s))
        for t in range(len(dice)):
            i, j = gold_i[t], sys_i[t]
            if m == SPAN or _attrs_match(m, i, j, g_type, g_realis, g_type_any, g_realis_any, s_type, s_realis):
                w[i, j] = dice[t]
        cols = max_weight_assignment(w)
        for i in range(n_g):
            j = cols[i]
            if j >= 0 and w[i, j] > 0:
                tp[m] += w[i, j]
                map_sys[m, i] = j
                map_score[m, i] = w[i, j]


@njit(cache=True, parallel=True)
def _mappings(gd_off, g_off, g_val, g_len, g_type, g_realis, g_type_any, g_realis_any,
              sd_off, s_off, s_val, s_len, s_type, s_realis, optimal):
    n_docs = len(gd_off) - 1
    tp = np.zeros((n_docs, N_MAPPINGS), dtype=np.float64)
    n_gold = gd_off[-1]
    map_sys = np.full((N_MAPPINGS, n_gold), -1, dtype=np.int64)
    map_score = np.zeros((N_MAPPINGS, n_gold), dtype=np.float64)
    for d in prange(n_docs):  # documents write disjoint slices: the result does not depend on the threads
        ga, gb = gd_off[d], gd_off[d + 1]
        sa, sb = sd_off[d], sd_off[d + 1]
        dice, sys_i, gold_i = _doc_pairs(g_off[ga:gb + 1], g_val, g_len[ga:gb], s_off[sa:sb + 1], s_val, s_len[sa:sb])
        args = (dice, sys_i, gold_i, gb - ga, sb - sa, g_type[ga:gb], g_realis[ga:gb], g_type_any[ga:gb],
                g_realis_any[ga:gb], s_type[sa:sb], s_realis[sa:sb], tp[d], map_sys[:, ga:gb], map_score[:, ga:gb])
        if optimal:
            _optimal_doc(*args)
        else:
            _greedy_doc(*args)
    return tp, map_sys, map_score


def mappings(gd_off, g_off, g_val, g_len, g_type, g_realis, g_type_any, g_realis_any,
             sd_off, s_off, s_val, s_len, s_type, s_realis, optimal: bool = False):
    """Per document the TP of the four mappings (n_docs, 4); per gold mention and mapping the
    system mention (document-local index, -1 none) and its Dice.  ``optimal``: maximum-weight
    mappings instead of EvmEval's greedy ones."""
    i64 = lambda a: np.ascontiguousarray(a, dtype=np.int64)
    f64 = lambda a: np.ascontiguousarray(a, dtype=np.float64)
    b = lambda a: np.ascontiguousarray(a, dtype=np.bool_)
    return _mappings(i64(gd_off), i64(g_off), i64(g_val), f64(g_len), i64(g_type), i64(g_realis), b(g_type_any),
                     b(g_realis_any), i64(sd_off), i64(s_off), i64(s_val), f64(s_len), i64(s_type), i64(s_realis),
                     bool(optimal))
