"""The UA metrics of many documents at once: MUC, B-cubed, LEA and BLANC of every document, and of every pair of
plural sets being aligned, counted by one kernel call each (``kernels/ua_counts.py``) on items made integers;
the alignment's choice (scipy), CEAF and the glue stay in :mod:`fastscore.ua.engine`, whose plain definitions the
kernel follows sum by sum.

Items of a cluster are numbered per problem: ``self_g`` is the cluster of the other side holding the item (-1:
none), so that a document's clusters become two offset arrays and a few integer columns.
"""
from __future__ import annotations

from itertools import repeat

import numpy as np

from .clusters import Side, Split
from .engine import METRICS, NO_MAPS, Undefined, _counts, aligned, best_total, metric_counts

KERNEL_METRICS = ("muc", "bcub", "lea", "blancc", "blancn")  # the kernel's columns, in its order
KEY_MAPS = ((0, "muc", 0), (1, "bcub", 0), (2, "lea", 0), (3, "blancc", 2),
            (4, "blancn", 2))  # column, metric, map (engine.align_splits's: 0 recall, 1 precision, 2 F1)
SYS_MAPS = ((0, "muc", 1), (1, "bcub", 1), (2, "lea", 1))


class _Problems:
    """Key and response clusters of many problems, gathered as lists and made arrays once."""

    def __init__(self, key_columns: int, sys_columns: int):
        self.sides = [_Columns(key_columns), _Columns(sys_columns)]
        self.singletons: list[bool] = []
        self.n_ids = 0

    def add(self, key: tuple, sys: tuple, singletons: bool) -> int:
        """``key``, ``sys``: (cluster sizes, self_g per item, split positions, {(position, column): (g, w)}[, span
        numbers per item, for CEAF's overlaps])."""
        self.sides[0].add(*key)
        self.sides[1].add(*sys)
        self.singletons.append(singletons)
        return len(self.singletons) - 1

    def counts(self) -> np.ndarray:
        """(problems, 5, 4): the kernel's counts."""
        key, sys = self.arrays = self.sides[0].arrays(), self.sides[1].arrays()
        if not self.singletons:
            return np.zeros((0, 5, 4))
        from ..kernels.ua_counts import ua_counts

        return ua_counts(*key, *sys, np.array(self.singletons, dtype=np.bool_))


class _Columns:
    def __init__(self, columns: int):
        self.columns = columns
        self.problem_clusters = [0]
        self.sizes: list[int] = []
        self.self_g: list[int] = []
        self.splits: list[int] = []
        self.ids: list[int] = []  # per item: its span's number, for CEAF (-1: none to match)
        self.maps: list[tuple[int, int, int, float]] = []  # (item, column, g, w)

    def add(self, sizes, self_g, splits, maps, ids=()) -> None:
        base = len(self.self_g)
        self.ids += ids
        self.problem_clusters.append(self.problem_clusters[-1] + len(sizes))
        self.sizes += sizes
        self.self_g += self_g
        if splits:
            self.splits += [base + i for i in splits]
        if maps:
            self.maps += [(base + i, col, g, w) for (i, col), (g, w) in maps.items()]

    def arrays(self) -> tuple:
        n = len(self.self_g)
        off = np.zeros(len(self.sizes) + 1, dtype=np.int64)
        np.cumsum(self.sizes, out=off[1:])
        split = np.zeros(n, dtype=np.bool_)
        split[self.splits] = True
        map_g = np.full((n, self.columns), -1, dtype=np.int64)
        map_w = np.ones((n, self.columns))
        if self.maps:
            items, cols, gs, ws = zip(*self.maps)
            map_g[items, cols] = gs
            map_w[items, cols] = ws
        return (np.array(self.problem_clusters, dtype=np.int64), off, np.array(self.self_g, dtype=np.int64), split,
                map_g, map_w)

    def span_numbers(self) -> np.ndarray:
        return np.array(self.ids, dtype=np.int64)


def _flat(clusters) -> tuple[list, list[int]]:
    return [m for c in clusters for m in c], [len(c) for c in clusters]


class _Document:
    """One document's sides and what the batch knows of it."""

    def __init__(self, key: Side, sys: Side):
        self.key, self.sys = key, sys
        self.key_sets, self.sys_sets = key.splits(), sys.splits()
        self.pairs: list[list[int]] = []  # [i][j]: the problem of key set i against response set j
        self.found: dict = {}  # metric -> (the alignment's counts, its maps)


def _alignment_problems(doc: _Document, problems: _Problems) -> None:
    """The problems of every key set against every response set (engine.align_splits's members)."""
    if not doc.key_sets and not doc.sys_sets:
        return
    key_members = [(s.members, s.member_of) for s in doc.key_sets] or [([], {})]
    sys_members = [(s.members, s.member_of) for s in doc.sys_sets] or [([], {})]
    key_flat = [_flat(kc) for kc, _ in key_members]
    sys_flat = []
    for sc, _ in sys_members:
        s_items, s_sizes = _flat(sc)
        first: dict = {}  # the response set's items numbered by first appearance, the same against every key set
        local = [first.setdefault(m, len(first)) for m in s_items]
        sys_flat.append((s_items, s_sizes, first, local))
    for (_, k_map), (k_items, k_sizes) in zip(key_members, key_flat):
        row = []
        for (_, s_map), (s_items, s_sizes, first, local) in zip(sys_members, sys_flat):
            base = problems.n_ids
            s_ids = [base + x for x in local]
            k_ids = [-1 if type(m) is Split or m not in first else base + first[m] for m in k_items]
            problems.n_ids = base + len(first)
            row.append(problems.add((k_sizes, list(map(s_map.get, k_items, repeat(-1))), [], {}, k_ids),
                                    (s_sizes, list(map(k_map.get, s_items, repeat(-1))), [], {}, s_ids), True))
        doc.pairs.append(row)


def _kernel_f1(counts: np.ndarray) -> tuple[list, list]:
    """Each pair problem's F1 of each kernel metric, as engine.aligned computes it from the counts (the same
    divisions in the same order, 0 where it gives 0), and whether the scorer divides by zero there."""
    pn, pd, rn, rd = counts[..., 0], counts[..., 1], counts[..., 2], counts[..., 3]
    with np.errstate(divide="ignore", invalid="ignore"):
        p = np.where(pd == 0, 0.0, pn / pd)
        r = np.where(rd == 0, 0.0, rn / rd)
        f = np.where(p + r == 0, 0.0, 2 * p * r / (p + r))
    return f.tolist(), (((pn != 0) & (pd == 0)) | ((rn != 0) & (rd == 0))).tolist()


def _align(doc: _Document, counts: list, f1: tuple[list, list], dense: dict) -> None:
    """Every metric's alignment of the document's plural sets (in the engine's metric order, so that the first
    that cannot be computed is the one named); ``counts``: the pair problems' kernel counts, ``f1``: their F1 and
    where it is undefined (:func:`_kernel_f1`), ``dense``: their CEAF matrices (absent with Min spans: the
    engine's)."""
    f_all, undefined = f1
    for metric in METRICS:
        if not doc.key_sets and not doc.sys_sets:
            doc.found[metric] = ([0, 0, 0, 0], NO_MAPS)
            continue
        f = None  # aligned computes it (and raises where it is undefined)
        if metric in KERNEL_METRICS:
            col = KERNEL_METRICS.index(metric)
            raw = [[counts[p][col] for p in row] for row in doc.pairs]
            if not any(undefined[p][col] for row in doc.pairs for p in row):
                f = [[f_all[p][col] for p in row] for row in doc.pairs]
        elif dense:
            raw = [[_ceaf_dense(dense, p, metric == "ceafe") for p in row] for row in doc.pairs]
        else:
            with_min = doc.key.mins is not None
            key_members = [(s.members, s.member_mins if with_min else None) for s in doc.key_sets] or [([], None)]
            sys_members = [s.members for s in doc.sys_sets] or [[]]
            raw = [[_counts(metric, kc, sc, kmins, {}, {}, NO_MAPS, alignment=True) for sc in sys_members]
                   for kc, kmins in key_members]
        maps, split_counts = aligned(metric, raw, doc.key_sets, doc.sys_sets, f)
        doc.found[metric] = (split_counts, maps)


def _ceaf_dense(dense: dict, p: int, entity: bool) -> tuple:
    """engine.ceaf_dense of pair problem ``p``: its counts where its matrix is a line (``kernels/ua_ceaf.line_ceaf``),
    else from its score matrices."""
    found = dense[p]
    if len(found) == 2:  # a line: its CEAFe and CEAFm counts
        return found[not entity]
    entity_scores, overlap, entities, mentions = found
    similarity = best_total(entity_scores if entity else overlap)
    n_sys, n_key = entities if entity else mentions  # ceaf_totals's
    return similarity, n_sys, similarity, n_key


def _dense_matrices(problems: _Problems, docs: list[_Document]) -> dict:
    """Pair problem -> its CEAFe and CEAFm counts where its matrix is a line, else (its CEAFe score matrix, its
    overlap matrix (CEAFm's), the numbers of response and key clusters, of response and key mentions), for
    documents matched exactly."""
    from ..kernels.ua_ceaf import dense_overlaps, line_ceaf

    (k_prob, k_off, *_), (s_prob, s_off, *_) = problems.arrays
    mat_off, mat = dense_overlaps(k_prob, k_off, problems.sides[0].span_numbers(), s_prob, s_off,
                                  problems.sides[1].span_numbers(), problems.n_ids)
    sim, needs_matrix = line_ceaf(k_prob, k_off, s_prob, s_off, mat_off, mat)
    k_sizes, s_sizes = np.diff(k_off), np.diff(s_off)
    n_key, n_sys = np.diff(k_prob), np.diff(s_prob)
    # every cell's CEAFe score, 2 * overlap / (key cluster's size + response cluster's size), as ceaf_dense's
    cell_p = np.repeat(np.arange(len(n_key)), np.diff(mat_off))
    local = np.arange(len(mat)) - mat_off[cell_p]
    width = n_sys[cell_p]
    entity_scores = 2 * mat / (k_sizes[k_prob[cell_p] + local // width]
                               + s_sizes[s_prob[cell_p] + local % width]).astype(np.float64)
    key_mentions = np.add.reduceat(np.append(k_sizes, 0), k_prob[:-1]) * (n_key > 0)
    sys_mentions = np.add.reduceat(np.append(s_sizes, 0), s_prob[:-1]) * (n_sys > 0)
    key_mentions, sys_mentions = key_mentions.tolist(), sys_mentions.tolist()
    n_key, n_sys = n_key.tolist(), n_sys.tolist()
    sim, needs_matrix = sim.tolist(), needs_matrix.tolist()
    out = {}
    for doc in docs:
        if doc.key.mins is None:
            for p in (p for row in doc.pairs for p in row):
                if needs_matrix[p]:
                    cells = slice(mat_off[p], mat_off[p + 1])
                    shape = (n_key[p], n_sys[p])
                    out[p] = (entity_scores[cells].reshape(shape), mat[cells].reshape(shape), (n_sys[p], n_key[p]),
                              (sys_mentions[p], key_mentions[p]))
                else:
                    e, m = sim[p]
                    out[p] = ((e, n_sys[p], e, n_key[p]), (m, sys_mentions[p], m, key_mentions[p]))
    return out


def _side(side: Side, other: Side, found: dict, columns) -> tuple:
    """The kernel's columns of one side of a document: its cluster sizes, the other side's cluster of each item,
    where its plural sets are, and each set's partner cluster and weight per metric."""
    items, sizes = _flat(side.clusters)
    cluster_of = other.cluster_of
    self_g = list(map(cluster_of.get, items, repeat(-1)))
    splits = [i for i, m in enumerate(items) if type(m) is Split] if side.split_items else []
    maps = {}
    for i in splits:
        for col, metric, which in columns:
            partner = found[metric][1][which].get(items[i])
            if partner is not None:
                maps[(i, col)] = (cluster_of[partner[0]], partner[1])
    return sizes, self_g, splits, maps


def score_documents(documents: list[tuple[Side, Side]]) -> list[dict]:
    """Per document, metric -> (its (pn, pd, rn, rd), the alignment's (pn, pd, rn, rd), the alignment's maps),
    as engine.score_document gives them; raises engine.Undefined (with the document's index in ``index``) for the
    first document and metric the scorer cannot compute."""
    docs = [_Document(k, s) for k, s in documents]
    pair_problems = _Problems(5, 3)
    for doc in docs:
        _alignment_problems(doc, pair_problems)
    pair_array = pair_problems.counts()
    pair_counts, f1 = pair_array.tolist(), _kernel_f1(pair_array)
    dense = _dense_matrices(pair_problems, docs) if pair_counts else {}
    for index, doc in enumerate(docs):
        try:
            _align(doc, pair_counts, f1, dense if doc.key.mins is None else {})
        except Undefined as e:
            e.index = index
            raise
    main = _Problems(len(KEY_MAPS), len(SYS_MAPS))
    for doc in docs:
        main.add(_side(doc.key, doc.sys, doc.found, KEY_MAPS), _side(doc.sys, doc.key, doc.found, SYS_MAPS), False)
    counts = main.counts().tolist()
    out = []
    for p, doc in enumerate(docs):
        row = {}
        for metric in doc.found:
            split_counts, maps = doc.found[metric]
            if metric in KERNEL_METRICS:
                c = tuple(counts[p][KERNEL_METRICS.index(metric)])
            else:  # CEAF: the scorer's one assignment over the document, summed in its order (engine.ceaf)
                c = metric_counts(metric, doc.key, doc.sys, maps)
            row[metric] = (c, split_counts, maps)
        out.append(row)
    return out
