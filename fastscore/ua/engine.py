"""The UA scorer's coreference metrics with split antecedents (Paun et al. 2022), per document.

Each metric gives ``(precision_num, precision_den, recall_num, recall_den)`` for a document.  A plural set
(:class:`~fastscore.ua.clusters.Split`) of the key is first aligned to one of the response: every key set against
every response set scored with the metric itself on their member clusters (MUC counting one-cluster members), the
pairs chosen that maximise the sum of F1 (scipy's ``linear_sum_assignment``, as the scorer); an aligned set then
counts as a mention of its partner's cluster weighted by the pair's recall (recall side), precision (precision
side) or F1 (CEAF, BLANC).  The alignment's own counts are what ``--only-split-antecedents`` reports.

Where the arithmetic in the alignment decides which pairs are chosen (ties), it is done in the scorer's order, so
that the same floating-point numbers are compared.
"""
from __future__ import annotations

from collections import defaultdict

import numpy as np

from .clusters import Side, Split

METRICS = ("muc", "bcub", "ceafe", "ceafm", "lea", "blancc", "blancn")


class Undefined(ValueError):
    """A number the scorer cannot compute (it crashes): the glue names the file and document."""


# --- the metrics, on clusters whose items are spans and at most one Split each ---------------------------------

def muc(clusters, other, cluster_of, split_map, count_singletons=False) -> tuple[float, int]:
    """MUC's numerator and denominator of ``clusters`` against ``other`` (recall: key against response)."""
    tp = p = 0
    for c in clusters:
        if len(c) == 1 and count_singletons:
            p += 1
            if c[0] in cluster_of and len(other[cluster_of[c[0]]]) == 1:
                tp += 1
            continue
        p += len(c) - 1
        tp += len(c)
        linked = set()
        split = None
        for m in c:
            if isinstance(m, Split):
                split = m
            elif m in cluster_of:
                linked.add(cluster_of[m])
            else:
                tp -= 1
        if split is not None:
            if split in split_map:
                partner, weight = split_map[split]
                tp -= (1 - weight) if cluster_of[partner] in linked else 1
            else:
                tp -= 1
        tp -= len(linked)
    return tp, p


def bcub(clusters, cluster_of, split_map) -> tuple[float, int]:
    num, den = 0, 0
    for c in clusters:
        counts: dict = defaultdict(float)
        for m in c:
            if isinstance(m, Split):
                if m in split_map:
                    partner, weight = split_map[m]
                    counts[cluster_of[partner]] += weight
            elif m in cluster_of:
                counts[cluster_of[m]] += 1
        correct = 0
        for v in counts.values():
            correct += v * v
        num += correct / float(len(c))
        den += len(c)
    return num, den


def _pairs_together(c, cluster_of) -> int:
    """Pairs of items of ``c`` found in one cluster of the other side (no Split in ``c``)."""
    found = [cluster_of[m] for m in c if m in cluster_of]
    if len(found) < 2:
        return 0
    groups: dict = defaultdict(int)
    for g in found:
        groups[g] += 1
    return sum(n * (n - 1) // 2 for n in groups.values())


def lea(clusters, other, cluster_of, split_map) -> tuple[float, int]:
    num, den = 0, 0
    for c in clusters:
        if len(c) == 1:
            all_links = 1
            common = 1 if c[0] in cluster_of and len(other[cluster_of[c[0]]]) == 1 else 0
        else:
            all_links = len(c) * (len(c) - 1) / 2.0
            if Split in map(type, c):
                common = _split_links_lea(c, cluster_of, split_map)
            else:
                common = _pairs_together(c, cluster_of)
        num += len(c) * common / float(all_links)
        den += len(c)
    return num, den


def _split_links_lea(c, cluster_of, split_map):
    """LEA's common links of a cluster holding a plural set, as the scorer counts them: a link from a set weighs
    its alignment's score, and so does every later link of the item before it (the scorer's weight carries on)."""
    common = 0
    for i, m in enumerate(c):
        weight = 1
        if isinstance(m, Split) and m in split_map:
            m, weight = split_map[m]
        if m not in cluster_of:
            continue
        for m2 in c[i + 1:]:
            if isinstance(m2, Split) and m2 in split_map:
                m2, w2 = split_map[m2]
                weight *= w2
            if m2 in cluster_of and cluster_of[m] == cluster_of[m2]:
                common += weight
    return common


def _links(clusters) -> float:
    return sum(len(c) * (len(c) - 1) / 2 for c in clusters)


def blancc(sys_clusters, key_clusters, key_to_sys, split_map) -> tuple:
    """Coreference links of the key found in the response: a link from a plural set (first of the pair in the
    cluster's order) weighs its alignment's F1; a link to one counts only if the response has an equal set."""
    num = 0
    for c in key_clusters:
        if Split not in map(type, c):
            num += _pairs_together(c, key_to_sys)
            continue
        for i, m in enumerate(c):
            weight = 1
            if isinstance(m, Split) and m in split_map:
                m, weight = split_map[m]
            if m in key_to_sys:
                for m2 in c[i + 1:]:
                    if m2 in key_to_sys and key_to_sys[m] == key_to_sys[m2]:
                        num += weight
    return num, _links(sys_clusters), num, _links(key_clusters)


def blancn(sys_clusters, key_clusters, key_to_sys, split_map) -> tuple:
    """Non-coreference links of the key (items of different key clusters) that the response keeps apart
    (both found, in different response clusters); plural sets weigh their alignment's F1."""
    total = 0.0  # sum of weights of found items
    square = 0.0  # sum over key clusters of (their found items' weight)^2
    by_sys: dict = defaultdict(float)  # response cluster -> weight of the found items in it
    by_pair: dict = defaultdict(float)  # (key cluster, response cluster) -> weight
    for k, c in enumerate(key_clusters):
        within = 0.0
        for m in c:
            weight = 1
            if isinstance(m, Split) and m in split_map:
                m, weight = split_map[m]
            g = key_to_sys.get(m)
            if g is None:
                continue
            within += weight
            by_sys[g] += weight
            by_pair[(k, g)] += weight
        total += within
        square += within * within
    apart = total * total - square
    together = sum(v * v for v in by_sys.values()) - sum(v * v for v in by_pair.values())
    num = (apart - together) / 2
    if num == int(num):
        num = int(num)
    n_key = sum(len(c) for c in key_clusters)
    n_sys = sum(len(c) for c in sys_clusters)
    rd = n_key * (n_key - 1) / 2 - _links(key_clusters)
    pd = n_sys * (n_sys - 1) / 2 - _links(sys_clusters)
    return num, pd, num, rd


# --- CEAF ---------------------------------------------------------------------------------------------------

def _min_inside(span, min_span, other) -> bool:
    """The scorer's match of a key markable with a Min and another markable: the other starts between the key's
    start and its Min's start and ends between the Min's end and the key's end."""
    return span[0] <= other[0] <= min_span[0] and min_span[1] <= other[1] <= span[1]


def _overlaps(key_clusters, key_mins, sys_clusters, split_map) -> dict:
    """phi3 of every key x response cluster pair that shares something: {(i, j): overlap}."""
    where: dict = {}  # item -> response clusters holding it (each once, in order)
    for j, c in enumerate(sys_clusters):
        for m in c:
            found = where.get(m)
            if found is None:
                where[m] = [j]
            elif found[-1] != j:
                found.append(j)
    by_start = None
    out: dict = defaultdict(float)
    for i, c in enumerate(key_clusters):
        mins = key_mins[i] if key_mins is not None else None
        for k, m in enumerate(c):
            if type(m) is Split:
                if m in split_map:
                    partner, weight = split_map[m]
                    for j in where.get(partner, ()):
                        out[(i, j)] += weight
                continue
            min_span = mins[k] if mins is not None else None
            if min_span is None:
                found = where.get(m, ())
            else:
                if by_start is None:
                    by_start = sorted((s, n) for s in where if type(s) is not Split for n in where[s])
                found = _min_matches(m, min_span, by_start)
            for j in found:
                out[(i, j)] += 1
    return out


def _min_matches(span, min_span, by_start) -> dict:
    import bisect

    found: dict = {}
    lo = bisect.bisect_left(by_start, ((span[0], -1), -1))
    for k in range(lo, len(by_start)):
        other, j = by_start[k]
        if other[0] > min_span[0]:
            break
        if _min_inside(span, min_span, other):
            found[j] = None
    return found


_ASSIGNMENTS: dict = {}  # (shape, bytes) of a cost matrix -> scipy's assignment: small matrices recur often
_MEMO_CELLS = 64  # matrices up to this many cells are remembered
_MEMO_ENTRIES = 100_000


def forget_assignments() -> None:
    _ASSIGNMENTS.clear()
    _PAIRS.clear()
    _TOTALS.clear()


def best_assignment(cost: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """scipy's ``linear_sum_assignment(cost)`` (rows, columns), remembered for small matrices (the same matrix,
    bit for bit, gives the same assignment)."""
    if cost.size > _MEMO_CELLS:
        from scipy.optimize import linear_sum_assignment

        return linear_sum_assignment(cost)
    key = (cost.shape, cost.tobytes())
    found = _ASSIGNMENTS.get(key)
    if found is None:
        from scipy.optimize import linear_sum_assignment

        if len(_ASSIGNMENTS) >= _MEMO_ENTRIES:
            _ASSIGNMENTS.clear()
        found = _ASSIGNMENTS[key] = linear_sum_assignment(cost)
    return found


_TOTALS: dict = {}  # (shape, bytes) of a score matrix -> best_total's


def best_total(scores: np.ndarray) -> np.float64:
    """The sum of ``scores`` over ``best_assignment(-scores)``, as numpy sums it; remembered for small matrices."""
    key = (scores.shape, scores.tobytes()) if scores.size <= _MEMO_CELLS else None
    found = _TOTALS.get(key)
    if found is None:
        r, c = best_assignment(-scores)
        found = scores[r, c].sum()
        if key is not None:
            if len(_TOTALS) >= _MEMO_ENTRIES:
                _TOTALS.clear()
            _TOTALS[key] = found
    return found


_PAIRS: dict = {}  # (rows, the scores row by row) -> the pairs best_assignment chooses for those scores


def best_pairs(scores: list[list[float]]) -> list[tuple[int, int]]:
    """The (row, column) pairs of ``best_assignment(-np.array(scores))`` (scores as Python numbers, at least 0,
    none NaN: equal values make bit-equal cost matrices, so the values key the memo)."""
    key = (len(scores), *[x for row in scores for x in row])
    found = _PAIRS.get(key)
    if found is None:
        rows, cols = best_assignment(-np.array(scores, dtype=np.float64))
        if len(_PAIRS) >= _MEMO_ENTRIES:
            _PAIRS.clear()
        found = _PAIRS[key] = list(zip(rows.tolist(), cols.tolist()))
    return found


def ceaf_totals(similarity, key_sizes, sys_sizes, entity: bool) -> tuple:
    """CEAF's (pn, pd, rn, rd) from the alignment's similarity: over entities (``entity``) or over mentions."""
    if entity:
        return similarity, len(sys_sizes), similarity, len(key_sizes)
    return similarity, int(sum(sys_sizes)), similarity, int(sum(key_sizes))


def ceaf(sys_clusters, key_clusters, key_mins, split_map, entity: bool) -> tuple:
    """CEAFe (``entity``) or CEAFm as the scorer computes them: one score matrix of every key cluster against every
    response cluster, scipy's assignment, and numpy's sum of the chosen scores in the order of the key clusters
    (which pairs are chosen on ties, and the order of the sum, decide the last bit)."""
    scores = np.zeros((len(key_clusters), len(sys_clusters)))
    for (i, j), v in _overlaps(key_clusters, key_mins, sys_clusters, split_map).items():
        scores[i, j] = 2 * v / float(len(key_clusters[i]) + len(sys_clusters[j])) if entity else v
    similarity = best_total(scores)
    return ceaf_totals(similarity, [len(c) for c in key_clusters], [len(c) for c in sys_clusters], entity)


# --- one metric on one document -------------------------------------------------------------------------------

def _counts(metric, key_clusters, sys_clusters, key_mins, key_to_sys, sys_to_key, maps, alignment=False):
    """(pn, pd, rn, rd) of ``metric``; ``maps``: (key set -> (response set, recall), response set -> (key set,
    precision), key set -> (response set, F1))."""
    key_r, sys_p, key_f = maps
    if metric in ("ceafe", "ceafm"):
        if alignment:
            return ceaf(sys_clusters, key_clusters, key_mins, {}, metric == "ceafe")
        return ceaf(sys_clusters, key_clusters, key_mins, key_f, metric == "ceafe")
    if metric == "blancc":
        return blancc(sys_clusters, key_clusters, key_to_sys, key_f)
    if metric == "blancn":
        return blancn(sys_clusters, key_clusters, key_to_sys, key_f)
    if metric == "lea":
        pn, pd = lea(sys_clusters, key_clusters, sys_to_key, sys_p)
        rn, rd = lea(key_clusters, sys_clusters, key_to_sys, key_r)
    elif metric == "muc":
        pn, pd = muc(sys_clusters, key_clusters, sys_to_key, sys_p, alignment)
        rn, rd = muc(key_clusters, sys_clusters, key_to_sys, key_r, alignment)
    else:
        pn, pd = bcub(sys_clusters, sys_to_key, sys_p)
        rn, rd = bcub(key_clusters, key_to_sys, key_r)
    return pn, pd, rn, rd


NO_MAPS = ({}, {}, {})


def _alignment_counts(raw: list, pairs: list) -> list:
    """The alignment's (pn, pd, rn, rd): sums over the chosen pairs (pn, rn), the first key set (pd) and the
    first response set (rd), as the scorer's numpy sums them: fewer than 8 numbers one after the other from 0.0
    (numpy's pairwise sum below 8), else with numpy on the scorer's array."""
    n, m = len(raw), len(raw[0])
    if len(pairs) < 8 and n < 8 and m < 8:
        out = [0.0, 0.0, 0.0, 0.0]
        for r, c in pairs:
            out[0] += raw[r][c][0]
            out[2] += raw[r][c][2]
        for j in range(m):
            out[1] += raw[0][j][1]
        for i in range(n):
            out[3] += raw[i][0][3]
        return out
    a = np.array(raw, dtype=np.float64)
    rows, cols = np.array([p[0] for p in pairs]), np.array([p[1] for p in pairs])
    return [a[rows, cols, 0].sum(), a[0, :, 1].sum(), a[rows, cols, 2].sum(), a[:, 0, 3].sum()]


def align_splits(metric: str, key: Side, sys: Side) -> tuple[tuple, list]:
    """The plural sets' alignment for ``metric``: the three maps and the alignment's (pn, pd, rn, rd)."""
    key_sets, sys_sets = key.splits(), sys.splits()
    if not key_sets and not sys_sets:
        return NO_MAPS, [0, 0, 0, 0]
    with_min = key.mins is not None
    key_members = [(s.members, s.member_mins if with_min else None, s.member_of) for s in key_sets] or [([], None, {})]
    sys_members = [(s.members, s.member_of) for s in sys_sets] or [([], {})]  # the scorer's empty stand-ins
    raw = [[_counts(metric, kc, sc, kmins, s_map, k_map, NO_MAPS, alignment=True) for sc, s_map in sys_members]
           for kc, kmins, k_map in key_members]  # [i][j]: (pn, pd, rn, rd)
    return aligned(metric, raw, key_sets, sys_sets)


def _undefined(metric: str, which: str) -> Undefined:
    return Undefined(f"the alignment of plural sets divides {metric}'s {which} by zero (a member cluster holds a "
                     "span twice): the UA scorer raises ZeroDivisionError here")


def _pair_f1(metric: str, raw: list) -> list[list[float]]:
    """Each pair's F1 as the scorer computes it (a float, or 0); raises Undefined where the scorer divides by
    zero."""
    f: list[list[float]] = []
    for row in raw:
        f_row = []
        for pn, pd, rn, rd in row:
            if pd == 0:
                if pn != 0:
                    raise _undefined(metric, "precision")
                p = 0
            else:
                p = pn / float(pd)
            if rd == 0:
                if rn != 0:
                    raise _undefined(metric, "precision" if pd == 0 else "recall")
                r = 0
            else:
                r = rn / float(rd)
            f_row.append(0 if p + r == 0 else 2 * p * r / (p + r))
        f.append(f_row)
    return f


def aligned(metric: str, raw: list, key_sets: list, sys_sets: list, f: list | None = None) -> tuple[tuple, list]:
    """The alignment chosen from every key set's counts against every response set's (``raw[i][j]``: (pn, pd,
    rn, rd); one row or column stands in for a side without sets): the three maps and the alignment's counts.
    ``f``: each pair's F1 where the caller has it (none undefined), else computed here."""
    if f is None:
        f = _pair_f1(metric, raw)
    pairs = [(0, 0)] if len(f) == 1 and len(f[0]) == 1 else best_pairs(f)
    counts = _alignment_counts(raw, pairs)
    key_r, sys_p, key_f = {}, {}, {}
    for r, c in pairs:
        if r >= len(key_sets) or c >= len(sys_sets):
            continue  # the stand-in scores 0 with everything
        pn, pd, rn, rd = raw[r][c]
        recall = 0 if rn == 0 else rn / float(rd)
        precision = 0 if pn == 0 else pn / float(pd)
        if recall > 0:
            key_r[key_sets[r]] = (sys_sets[c], float(recall))
        if precision > 0:
            sys_p[sys_sets[c]] = (key_sets[r], float(precision))
        if f[r][c] > 0:
            key_f[key_sets[r]] = (sys_sets[c], float(f[r][c]))
    return (key_r, sys_p, key_f), counts


def metric_counts(metric: str, key: Side, sys: Side, maps: tuple) -> tuple:
    """``metric``'s (pn, pd, rn, rd) for the document, given its plural sets' alignment (:func:`align_splits`)."""
    return _counts(metric, key.clusters, sys.clusters, key.mins, sys.cluster_of, key.cluster_of, maps)


def score_document(metric: str, key: Side, sys: Side) -> tuple[tuple, list, tuple]:
    """``metric``'s (pn, pd, rn, rd) for the document, its plural sets' alignment counts (pn, pd, rn, rd), and
    the alignment's maps."""
    maps, split_counts = align_splits(metric, key, sys)
    return metric_counts(metric, key, sys, maps), split_counts, maps
