"""Plain-Python references for fastscore/ua/engine.py's counting shortcuts: each metric written from its
definition, pair by pair and assignment by assignment (slow, small inputs only).

Clusters are lists of items (spans, and :class:`~fastscore.ua.clusters.Split` plural sets); ``cluster_of`` maps an
item of the other side to its cluster; ``split_map`` maps a plural set to (its partner, a weight).
"""
from __future__ import annotations

import itertools

from fastscore.ua.clusters import Split


def _found(m, cluster_of, split_map):
    """An item as BLANC sees it: a plural set stands for its partner, with the alignment's weight."""
    weight = 1
    if isinstance(m, Split) and m in split_map:
        m, weight = split_map[m]
    return (cluster_of[m] if m in cluster_of else None), weight


def blanc_coref(key_clusters, key_to_sys, split_map) -> float:
    """Pairs (earlier, later) of one key cluster in one response cluster; the earlier item's weight counts, the
    later item is looked up as it is."""
    num = 0
    for c in key_clusters:
        for i in range(len(c)):
            for j in range(i + 1, len(c)):
                g, w = _found(c[i], key_to_sys, split_map)
                h = key_to_sys.get(c[j])
                if g is not None and h is not None and g == h:
                    num += w
    return num


def blanc_noncoref(key_clusters, key_to_sys, split_map) -> float:
    """Pairs of items of different key clusters, both found, in different response clusters; product of
    weights."""
    items = [(k, m) for k, c in enumerate(key_clusters) for m in c]
    num = 0
    for (k1, a), (k2, b) in itertools.combinations(items, 2):
        if k1 == k2:
            continue
        g, w = _found(a, key_to_sys, split_map)
        h, v = _found(b, key_to_sys, split_map)
        if g is not None and h is not None and g != h:
            num += w * v
    return num


def lea_links(c, cluster_of) -> int:
    """Links of a cluster (no plural set) whose two ends lie in one cluster of the other side."""
    return sum(1 for a, b in itertools.combinations(c, 2)
               if a in cluster_of and b in cluster_of and cluster_of[a] == cluster_of[b])


def ceaf_best(key_clusters, sys_clusters, entity: bool) -> float:
    """The best similarity over every one-to-one alignment of key and response clusters (no plural sets):
    phi3 = |K & R| (as lists: an item counted once per cluster), phi4 = 2 phi3 / (|K| + |R|)."""
    def phi(k, r):
        overlap = sum(1 for m in k if m in r)
        return 2 * overlap / (len(k) + len(r)) if entity else overlap

    n, m = len(key_clusters), len(sys_clusters)
    best = 0.0
    if n <= m:
        for cols in itertools.permutations(range(m), n):
            best = max(best, sum(phi(key_clusters[i], sys_clusters[j]) for i, j in enumerate(cols)))
    else:
        for rows in itertools.permutations(range(n), m):
            best = max(best, sum(phi(key_clusters[i], sys_clusters[j]) for j, i in enumerate(rows)))
    return best


def document_rows(text: str, column: int, with_bridging: bool) -> dict:
    """The reader's ``document_rows`` (``kernels/ua_scan.py``) line by line, as the UA scorer splits a file:
    ``str.strip`` and ``str.split`` on each line of ``text`` (newlines ``\\n``)."""
    from fastscore.ua.reader import BRIDGING, DocumentRows

    need = max(column, BRIDGING if with_bridging else 1) + 1
    stripped = [line.strip() for line in text.split("\n")]
    starts = [i for i, line in enumerate(stripped) if line.startswith("# newdoc")]
    docs: dict = {}
    lines: list = []
    name = None
    for a, b in zip([-1, *starts], [*starts, len(stripped)]):
        if a >= 0:
            if name and lines:
                docs[name] = lines
                lines = []
            name = stripped[a][len("# newdoc id = "):]
        lines += [(n, line) for n, line in enumerate(stripped[a + 1:b], a + 2) if line and line[0] != "#"]
    if name and lines:
        docs[name] = lines
    out = {}
    for name, lines in docs.items():
        rows, short = [], None
        for index, (number, line) in enumerate(lines):
            fields = line.split()
            if len(fields) < need:
                short = short or (number, len(fields))
                continue
            cell = fields[column]
            bridging = fields[BRIDGING] if with_bridging else "_"
            if cell != "_" or bridging != "_":
                rows.append((index, number, cell, bridging))
        out[name] = DocumentRows(rows, short)
    return out
