"""The UA scorer's MUC, B-cubed, LEA and BLANC counts (``fastscore.ua.batch``), many documents in one call:
fastscore/ua/engine.py's definitions on integer arrays, each sum in that module's order (so that every float is
the same).

A *problem* is one key and one response list of clusters: a document, or a pair of plural sets being aligned.
Clusters are ranges of items (``off``: item offsets of all clusters; ``k_prob``/``s_prob``: cluster offsets of the
problems).  Per item: ``self_g``, the other side's cluster holding the item (local to the problem, -1: none);
``split``, whether it is a plural set; per metric column, ``map_g``/``map_w``, the other side's cluster of the
plural set's aligned partner and the alignment's weight (-1: not aligned).  Key columns: MUC, B-cubed, LEA (recall
maps), BLANC coreference, BLANC non-coreference (F1 maps); response columns: MUC, B-cubed, LEA (precision maps).
"""
import numpy as np

from ._jit import njit

MUC, BCUB, LEA, BLANCC, BLANCN = 0, 1, 2, 3, 4


@njit(cache=True)
def _muc(off, lo, hi, self_g, split, map_g, map_w, col, o_off, o_lo, singletons, mark, epoch):
    """MUC's (numerator, denominator) of clusters lo..hi against the other side's (engine.muc)."""
    tp = 0.0
    p = 0
    for c in range(lo, hi):
        a, b = off[c], off[c + 1]
        n = b - a
        if n == 1 and singletons:
            p += 1
            g = self_g[a]
            if g >= 0 and o_off[o_lo + g + 1] - o_off[o_lo + g] == 1:
                tp += 1
            continue
        p += n - 1
        tp += n
        epoch[0] += 1
        e = epoch[0]
        linked = 0
        last_split = -1
        for i in range(a, b):
            if split[i]:
                last_split = i
            elif self_g[i] >= 0:
                if mark[self_g[i]] != e:
                    mark[self_g[i]] = e
                    linked += 1
            else:
                tp -= 1
        if last_split >= 0:
            g = map_g[last_split, col]
            if g >= 0:
                if mark[g] == e:
                    tp -= (1 - map_w[last_split, col])
                else:
                    tp -= 1
            else:
                tp -= 1
        tp -= linked
    return tp, p


@njit(cache=True)
def _bcub(off, lo, hi, self_g, split, map_g, map_w, col, mark, value, order, epoch):
    num = 0.0
    den = 0
    for c in range(lo, hi):
        a, b = off[c], off[c + 1]
        epoch[0] += 1
        e = epoch[0]
        k = 0
        for i in range(a, b):
            if split[i]:
                g = map_g[i, col]
                if g < 0:
                    continue
                v = map_w[i, col]
            else:
                g = self_g[i]
                if g < 0:
                    continue
                v = 1.0
            if mark[g] != e:
                mark[g] = e
                value[g] = 0.0
                order[k] = g
                k += 1
            value[g] += v
        correct = 0.0
        for t in range(k):
            correct += value[order[t]] * value[order[t]]
        num += correct / (b - a)
        den += b - a
    return num, den


@njit(cache=True)
def _pairs_together(a, b, self_g, mark, count, epoch):
    """Pairs of items a..b found in one cluster of the other side."""
    epoch[0] += 1
    e = epoch[0]
    total = 0
    for i in range(a, b):
        g = self_g[i]
        if g < 0:
            continue
        if mark[g] != e:
            mark[g] = e
            count[g] = 0
        total += count[g]  # n (n - 1) / 2 summed as it grows
        count[g] += 1
    return total


@njit(cache=True)
def _has_split(a, b, split):
    for i in range(a, b):
        if split[i]:
            return True
    return False


@njit(cache=True)
def _found(i, self_g, split, map_g, map_w, col):
    """An item as LEA and BLANC see it: a plural set stands for its partner with the alignment's weight."""
    if split[i] and map_g[i, col] >= 0:
        return map_g[i, col], map_w[i, col]
    return self_g[i], 1.0


@njit(cache=True)
def _lea(off, lo, hi, self_g, split, map_g, map_w, col, o_off, o_lo, mark, count, epoch):
    num = 0.0
    den = 0
    for c in range(lo, hi):
        a, b = off[c], off[c + 1]
        n = b - a
        if n == 1:
            all_links = 1.0
            g = self_g[a]
            common = 1.0 if g >= 0 and o_off[o_lo + g + 1] - o_off[o_lo + g] == 1 else 0.0
        else:
            all_links = n * (n - 1) / 2.0
            if _has_split(a, b, split):
                common = 0.0
                for i in range(a, b):
                    g, weight = _found(i, self_g, split, map_g, map_w, col)
                    if g < 0:
                        continue
                    for j in range(i + 1, b):
                        if split[j] and map_g[j, col] >= 0:
                            g2 = map_g[j, col]
                            weight *= map_w[j, col]
                        else:
                            g2 = self_g[j]
                        if g2 >= 0 and g == g2:
                            common += weight
            else:
                common = float(_pairs_together(a, b, self_g, mark, count, epoch))
        num += n * common / all_links
        den += n
    return num, den


@njit(cache=True)
def _links(off, lo, hi):
    total = 0.0
    for c in range(lo, hi):
        n = off[c + 1] - off[c]
        total += n * (n - 1) / 2
    return total


@njit(cache=True)
def _blancc(off, lo, hi, self_g, split, map_g, map_w, col, mark, count, epoch):
    num = 0.0
    for c in range(lo, hi):
        a, b = off[c], off[c + 1]
        if not _has_split(a, b, split):
            num += _pairs_together(a, b, self_g, mark, count, epoch)
            continue
        for i in range(a, b):
            g, weight = _found(i, self_g, split, map_g, map_w, col)
            if g < 0:
                continue
            for j in range(i + 1, b):
                if self_g[j] >= 0 and self_g[j] == g:
                    num += weight
    return num


@njit(cache=True)
def _blancn(off, lo, hi, self_g, split, map_g, map_w, col, mark, value, order, pair_mark, pair_value,
            pair_order, epoch):
    """The non-coreference numerator: (total^2 - sum of squares within key clusters - (sum of squares by
    response cluster - sum of squares by key x response cluster)) / 2, each sum in engine.blancn's order."""
    total = 0.0
    square = 0.0
    pairs = 0.0
    epoch[0] += 1
    doc = epoch[0]
    k_sys = 0
    for c in range(lo, hi):
        a, b = off[c], off[c + 1]
        within = 0.0
        epoch[0] += 1
        e = epoch[0]
        k_pair = 0
        for i in range(a, b):
            g, weight = _found(i, self_g, split, map_g, map_w, col)
            if g < 0:
                continue
            within += weight
            if mark[g] != doc:
                mark[g] = doc
                value[g] = 0.0
                order[k_sys] = g
                k_sys += 1
            value[g] += weight
            if pair_mark[g] != e:
                pair_mark[g] = e
                pair_value[g] = 0.0
                pair_order[k_pair] = g
                k_pair += 1
            pair_value[g] += weight
        total += within
        square += within * within
        for t in range(k_pair):
            pairs += pair_value[pair_order[t]] * pair_value[pair_order[t]]
    by_sys = 0.0
    for t in range(k_sys):
        by_sys += value[order[t]] * value[order[t]]
    apart = total * total - square
    together = by_sys - pairs
    return (apart - together) / 2


@njit(cache=True)
def ua_counts(k_prob, k_off, k_self, k_split, k_map_g, k_map_w, s_prob, s_off, s_self, s_split, s_map_g, s_map_w,
              singletons):
    """(problems, 5, 4): per problem, MUC, B-cubed, LEA, BLANC coreference and non-coreference as (precision
    numerator, precision denominator, recall numerator, recall denominator); ``singletons``: per problem,
    whether MUC counts one-item clusters (the plural sets' alignment)."""
    n_prob = len(k_prob) - 1
    out = np.zeros((n_prob, 5, 4))
    width = 1
    for p in range(n_prob):
        width = max(width, k_prob[p + 1] - k_prob[p], s_prob[p + 1] - s_prob[p])
    mark = np.zeros(width, dtype=np.int64)
    count = np.zeros(width, dtype=np.int64)
    value = np.zeros(width)
    order = np.zeros(max(len(k_self), len(s_self)) + 1, dtype=np.int64)
    pair_mark = np.zeros(width, dtype=np.int64)
    pair_value = np.zeros(width)
    pair_order = np.zeros(len(order), dtype=np.int64)
    epoch = np.zeros(1, dtype=np.int64)
    for p in range(n_prob):
        klo, khi, slo, shi = k_prob[p], k_prob[p + 1], s_prob[p], s_prob[p + 1]
        single = singletons[p]
        rn, rd = _muc(k_off, klo, khi, k_self, k_split, k_map_g, k_map_w, MUC, s_off, slo, single, mark, epoch)
        pn, pd = _muc(s_off, slo, shi, s_self, s_split, s_map_g, s_map_w, MUC, k_off, klo, single, mark, epoch)
        out[p, MUC, 0], out[p, MUC, 1], out[p, MUC, 2], out[p, MUC, 3] = pn, pd, rn, rd
        rn, rd = _bcub(k_off, klo, khi, k_self, k_split, k_map_g, k_map_w, BCUB, mark, value, order, epoch)
        pn, pd = _bcub(s_off, slo, shi, s_self, s_split, s_map_g, s_map_w, BCUB, mark, value, order, epoch)
        out[p, BCUB, 0], out[p, BCUB, 1], out[p, BCUB, 2], out[p, BCUB, 3] = pn, pd, rn, rd
        rn, rd = _lea(k_off, klo, khi, k_self, k_split, k_map_g, k_map_w, LEA, s_off, slo, mark, count, epoch)
        pn, pd = _lea(s_off, slo, shi, s_self, s_split, s_map_g, s_map_w, LEA, k_off, klo, mark, count, epoch)
        out[p, LEA, 0], out[p, LEA, 1], out[p, LEA, 2], out[p, LEA, 3] = pn, pd, rn, rd
        key_links, sys_links = _links(k_off, klo, khi), _links(s_off, slo, shi)
        num = _blancc(k_off, klo, khi, k_self, k_split, k_map_g, k_map_w, BLANCC, mark, count, epoch)
        out[p, BLANCC, 0], out[p, BLANCC, 1], out[p, BLANCC, 2], out[p, BLANCC, 3] = num, sys_links, num, key_links
        num = _blancn(k_off, klo, khi, k_self, k_split, k_map_g, k_map_w, BLANCN, mark, value, order, pair_mark,
                      pair_value, pair_order, epoch)
        n_key = k_off[khi] - k_off[klo]
        n_sys = s_off[shi] - s_off[slo]
        out[p, BLANCN, 0], out[p, BLANCN, 2] = num, num
        out[p, BLANCN, 1] = n_sys * (n_sys - 1) / 2 - sys_links
        out[p, BLANCN, 3] = n_key * (n_key - 1) / 2 - key_links
    return out
