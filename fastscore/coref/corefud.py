"""CorefUD matching (exact, partial, head; zeros by their dependencies) and the CorefUD-only statistics
(MOR, the zero score), as the CorefUD scorer 1.2 computes them.

Per document, as the scorer does:

1. each side's clusters lose repeated mentions (the same words, and in head matching the same head),
   then one-mention clusters unless singletons are kept;
2. key and response zeros (mentions whose head is an empty node) in the same sentence are paired first
   (``--zero-match dependent``) by maximum weight on 10 * F1(parent+relation) + F1(parent) of their
   heads' DEPS;
3. equal mentions are paired;
4. the rest by maximum weight on the partial or head similarity (``kernels/matching.py``).

Steps 2 and 4 solve an assignment with scipy's ``linear_sum_assignment`` on rows and columns in the
scorer's order: mentions sorted by (first word, last word, length), ties in the iteration order of
the Python sets the scorer keeps them in — reproduced here by building the same sets of values with
the same hashes (a mention hashes as the frozenset of its words' (sentence, ord) pairs, with its head
in head matching).  The result is the ``(key ids, response ids, counts)`` contract of
``kernels.mentions.align_exact``: aligned response mentions take their key mention's id.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import InputError, UsageError
from ..formats.conllu import SENTENCE_SHIFT, key_ord
from ..formats.table import MentionTable, Words, offsets

MODES = ("exact", "partial", "head")
ZERO_MODES = ("dependent", "linear")


@dataclass(frozen=True)
class Matching:
    """How key and response mentions are paired."""

    mode: str = "head"  # exact | partial | head
    zeros: str = "dependent"  # dependent | linear

    def __post_init__(self):
        if self.mode not in MODES:
            raise UsageError(f"unknown matching {self.mode!r}: choose from {', '.join(MODES)}")
        if self.zeros not in ZERO_MODES:
            raise UsageError(f"unknown zero matching {self.zeros!r}: choose from {', '.join(ZERO_MODES)}")


# ---- preparing each side: repeated mentions, singletons, mentions in two clusters


def _identity(words: Words, row: int, head_mode: bool) -> tuple:
    """What makes two mentions the same mention: their words (and head, in head matching)."""
    w = tuple(words.keys[words.offsets[row]:words.offsets[row + 1]].tolist())
    return (w, int(words.head[row])) if head_mode else (w,)


def prepare(table: MentionTable, matching: Matching, keep_singletons: bool) -> tuple[MentionTable, list[str]]:
    """The table with each cluster's repeated mentions removed (the first kept), then one-mention clusters
    (unless ``keep_singletons``); a mention in two clusters stays in the later one (the scorer keeps it in
    both lists but maps it to the later cluster), with a warning."""
    words = table.words
    head_mode = matching.mode == "head"
    keep = np.ones(len(table.start), dtype=bool)
    warnings: list[str] = []
    twice: list[str] = []
    for d in range(table.n_docs):
        lo, hi = int(table.doc_offsets[d]), int(table.doc_offsets[d + 1])
        seen: dict[tuple, int] = {}
        for row in range(lo, hi):  # rows of a cluster are contiguous: a repeat is seen in its own cluster
            ident = (int(table.cluster[row]),) + _identity(words, row, head_mode)
            if ident in seen:
                keep[row] = False
            seen[ident] = row
        sizes = np.bincount(table.cluster[lo:hi][keep[lo:hi]], minlength=len(table.cluster_labels[d]))
        if not keep_singletons:
            keep[lo:hi] &= sizes[table.cluster[lo:hi]] > 1
        owner: dict[tuple, int] = {}
        for row in range(lo, hi):
            if keep[row]:
                ident = _identity(words, row, head_mode)
                if ident in owner:
                    keep[owner[ident]] = False
                    twice.append(f"{table.path}:{int(words.lines[row])}: document \"{table.doc_names[d]}\"")
                owner[ident] = row
    if twice:
        warnings.append(f"{len(twice)} mention(s) belong to two entities: each is scored in the later one (the "
                        f"CorefUD scorer keeps it in both and maps it to the later one); first: {twice[0]}")
    return _keep_rows(table, keep), warnings


def _keep_rows(table: MentionTable, keep: np.ndarray) -> MentionTable:
    """The rows ``keep``; clusters renumbered in order, empty ones removed."""
    cluster = table.cluster.astype(np.int64)
    labels: list[list[str]] = []
    new_cluster = np.empty(len(cluster), dtype=np.int64)
    sizes = []
    for d in range(table.n_docs):
        lo, hi = int(table.doc_offsets[d]), int(table.doc_offsets[d + 1])
        counts = np.bincount(cluster[lo:hi][keep[lo:hi]], minlength=len(table.cluster_labels[d]))
        kept = counts > 0
        remap = np.cumsum(kept) - 1
        new_cluster[lo:hi] = remap[cluster[lo:hi]]
        labels.append([lab for lab, k in zip(table.cluster_labels[d], kept) if k])
        sizes.append(int(keep[lo:hi].sum()))
    rows = np.flatnonzero(keep)
    return MentionTable(path=table.path, doc_names=list(table.doc_names), doc_lines=table.doc_lines,
                        doc_tokens=table.doc_tokens, doc_offsets=offsets(sizes), start=table.start[rows],
                        end=table.end[rows], cluster=new_cluster[rows].astype(np.int32), cluster_labels=labels,
                        words=table.words.take(rows))


# ---- the scorer's mention values: hashes and order as in its Python sets


def _pair(key: int) -> tuple[int, int | float]:
    """A word key as the scorer's (sentence number, ord) pair (sentences numbered from 1 in the file)."""
    return ((key >> SENTENCE_SHIFT) + 1, key_ord(key))


class _Side:
    """One side of one document: its mentions as the scorer's values (same hash, same equality)."""

    def __init__(self, words: Words, rows: np.ndarray, head_mode: bool):
        self.words = words
        self.rows = rows
        self.values = []
        self.row_of: dict = {}
        for row in rows.tolist():
            pairs = frozenset(_pair(k) for k in words.keys[words.offsets[row]:words.offsets[row + 1]].tolist())
            value = (pairs, frozenset((_pair(int(words.head[row])),))) if head_mode else pairs
            self.values.append(value)
            self.row_of[value] = row

    def first_last_len(self, value) -> tuple:
        row = self.row_of[value]
        lo, hi = self.words.offsets[row], self.words.offsets[row + 1]
        return (int(self.words.keys[lo]), int(self.words.keys[hi - 1]), int(hi - lo))

    def ordered(self, values) -> list:
        """The scorer's ``sorted(set)``: by (first word, last word, length), ties in set order."""
        return sorted(values, key=self.first_last_len)


def _assign(similarity: np.ndarray) -> list[tuple[int, int]]:
    from scipy.optimize import linear_sum_assignment

    rows, cols = linear_sum_assignment(-similarity)
    return [(int(i), int(j)) for i, j in zip(rows, cols) if similarity[i, j] > 0]


def _csr(side: _Side, values: list) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rows = np.asarray([side.row_of[v] for v in values], dtype=np.int64)
    sub = side.words.take(rows)
    return sub.offsets, sub.keys, sub.head


def _zero_similarities(k: _Side, r: _Side, rows: list, cols: list, path: str) -> np.ndarray:
    """10 * F1(parent+relation) + F1(parent) of the heads' DEPS for zeros of the same sentence, else 0."""
    sim = np.zeros((len(rows), len(cols)), dtype=np.float64)
    by_sentence: dict[int, list[int]] = {}
    for j, v in enumerate(cols):
        by_sentence.setdefault(int(r.words.head[r.row_of[v]]) >> SENTENCE_SHIFT, []).append(j)
    r_deps = [_deps(r.words, r.row_of[v]) for v in cols]
    for i, v in enumerate(rows):
        row = k.row_of[v]
        same = by_sentence.get(int(k.words.head[row]) >> SENTENCE_SHIFT, [])
        if not same:
            continue
        kd = _deps(k.words, row)
        for j in same:
            rd = r_deps[j]
            if not kd or not rd:
                side, at = (k.words, row) if not kd else (r.words, r.row_of[cols[j]])
                raise InputError(f"{path}:{int(side.lines[at])}: a zero mention whose head has no DEPS meets another "
                                 "zero of its sentence: dependent zero matching compares their DEPS (the CorefUD "
                                 "scorer crashes here with ZeroDivisionError); add the DEPS, or use --zero-match "
                                 "linear")
            sim[i, j] = 10 * _f(kd, rd) + _f({p for p, _ in kd}, {p for p, _ in rd})
    return sim


def _deps(words: Words, row: int) -> set:
    lo, hi = words.dep_offsets[row], words.dep_offsets[row + 1]
    return {(int(p), words.rel_names[int(r)]) for p, r in zip(words.dep_parent[lo:hi], words.dep_rel[lo:hi])}


def _f(a: set, b: set) -> float:
    common = len(a & b)
    p = common / len(a)
    r = common / len(b)
    return 2 * p * r / (p + r) if p > 0 and r > 0 else 0


def align_document(k: _Side, r: _Side, matching: Matching, path: str) -> list[tuple]:
    """The scorer's alignment of one document: pairs of (key value, response value)."""
    from ..kernels.matching import HEAD, PARTIAL, similarities

    key_set = set(k.values)
    sys_set = set(r.values)
    key_left, sys_left = key_set.copy(), sys_set.copy()
    pairs = []
    if matching.zeros == "dependent":
        kz = {v for v in key_set if k.words.zero[k.row_of[v]]}
        sz = {v for v in sys_set if r.words.zero[r.row_of[v]]}
        if kz and sz:
            rows, cols = k.ordered(kz), r.ordered(sz)
            zero_pairs = [(rows[i], cols[j]) for i, j in _assign(_zero_similarities(k, r, rows, cols, path))]
            key_left = key_left - {a for a, _ in zero_pairs}
            sys_left = sys_left - {b for _, b in zero_pairs}
            pairs += zero_pairs
    exact = [v for v in key_left if v in sys_left]
    key_left = key_left - set(exact)
    sys_left = sys_left - set(exact)
    pairs += [(v, v) for v in exact]
    key_left = {v for v in key_left}  # the scorer's split-antecedent filter: a new set, same members
    sys_left = {v for v in sys_left}
    if matching.mode != "exact" and key_left and sys_left:
        rows, cols = k.ordered(key_left), r.ordered(sys_left)
        sim = similarities(PARTIAL if matching.mode == "partial" else HEAD, *_csr(k, rows), *_csr(r, cols))
        pairs += [(rows[i], cols[j]) for i, j in _assign(sim)]
    return pairs


@dataclass
class Matched:
    """A CorefUD alignment in the engine's terms (the ``(key ids, response ids, counts)`` contract).

    The scorer looks a mention up in a dictionary of the non-identical pairs kept both ways
    (key -> response, then response -> key, the second overwriting the first for equal mentions) and
    then by equality in the other side's mentions.  Normally that is one 1-to-1 alignment; when the
    zero pass pairs mentions across positions, a key mention can find a response mention other than
    the one that finds it.  ``recall_ids`` follow the lookups from the key side (recall, CEAF,
    BLANC), ``precision_ids`` those from the response side (precision of MUC, B-cubed, LEA); they
    differ only in the documents flagged in ``two_way``."""

    recall_ids: tuple
    precision_ids: tuple
    two_way: np.ndarray  # bool per document
    counterparts: list  # per document: (key row, response row) the zero score pairs


def _ids(n_key: int, rows_r: range, target: dict[int, int], klo: int) -> np.ndarray:
    """Response ids: the id of the key row whose lookup finds it, else a new id."""
    found = {}
    for k_row, r_row in sorted(target.items()):
        found.setdefault(r_row, k_row)
    out = np.empty(len(rows_r), dtype=np.int64)
    next_id = n_key
    for n, row in enumerate(rows_r):
        if row in found:
            out[n] = found[row] - klo
        else:
            out[n] = next_id
            next_id += 1
    return out


def match(a, key_words: Words, resp_words: Words, matching: Matching, path: str) -> Matched:
    """The alignment of the aligned documents ``a`` (``key_words`` and ``resp_words`` row-aligned with
    ``a``); counts per document: key mentions, response mentions, aligned pairs, 0."""
    head_mode = matching.mode == "head"
    n_docs = len(a.doc_names)
    k_id = np.empty(len(a.k_chain), dtype=np.int64)
    r_rec = np.empty(len(a.r_chain), dtype=np.int64)
    r_prec = np.empty(len(a.r_chain), dtype=np.int64)
    counts = np.zeros((n_docs, 4), dtype=np.int64)
    two_way = np.zeros(n_docs, dtype=bool)
    counterparts: list[list[tuple[int, int]]] = []
    for d in range(n_docs):
        klo, khi = int(a.k_off[d]), int(a.k_off[d + 1])
        rlo, rhi = int(a.r_off[d]), int(a.r_off[d + 1])
        k = _Side(key_words, np.arange(klo, khi), head_mode)
        r = _Side(resp_words, np.arange(rlo, rhi), head_mode)
        pairs = align_document(k, r, matching, path)
        both_ways = {kv: rv for kv, rv in pairs if kv != rv}
        both_ways.update({rv: kv for kv, rv in pairs if kv != rv})
        recall = {}  # key row -> the response row its lookup finds
        for kv, row in k.row_of.items():
            found = both_ways.get(kv, kv)
            if found in r.row_of:
                recall[row] = r.row_of[found]
        precision = {}  # response row -> key row
        for rv, row in r.row_of.items():
            found = both_ways.get(rv, rv)
            if found in k.row_of:
                precision[k.row_of[found]] = row
        k_id[klo:khi] = np.arange(khi - klo)
        r_rec[rlo:rhi] = _ids(khi - klo, range(rlo, rhi), recall, klo)
        r_prec[rlo:rhi] = _ids(khi - klo, range(rlo, rhi), precision, klo)
        two_way[d] = recall != precision
        counts[d] = (khi - klo, rhi - rlo, len(pairs), 0)
        # the zero score's counterpart of a key mention: an equal response mention, else its pair
        counterparts.append([(row, r.row_of[v] if v in r.row_of else r.row_of.get(both_ways[v], -1))
                             for v, row in k.row_of.items() if v in r.row_of or v in both_ways])
    return Matched((k_id, r_rec, counts), (k_id, r_prec, counts), two_way, counterparts)


# ---- statistics only CorefUD has: MOR and the zero score


def mention_overlap(a, key_words: Words, resp_words: Words) -> np.ndarray:
    """MOR of every aligned document (the scorer's ``mention_overlap``), (n_docs, 4): overlap, response words,
    overlap, key words (precision and recall numerator and denominator).  All mentions of both sides are
    swept, by first word, into groups of overlapping spans; each group adds the maximum-weight pairing of
    word overlaps (``kernels.matching.mention_overlaps``)."""
    from ..kernels.matching import mention_overlaps

    parts = []
    for side, words, off in ((0, key_words, a.k_off), (1, resp_words, a.r_off)):
        n = len(words.offsets) - 1
        doc = np.repeat(np.arange(len(off) - 1), np.diff(off))
        first, last = words.keys[words.offsets[:-1]], words.keys[words.offsets[1:] - 1]
        parts.append((doc, first, last, np.full(n, side), np.arange(n)))
    doc, first, last, side, row = (np.concatenate(x) for x in zip(*parts))
    order = np.lexsort((first, doc))
    seg = np.searchsorted(doc[order], np.arange(len(a.k_off)))
    total = mention_overlaps(seg.astype(np.int64), first[order], last[order], side[order].astype(np.int64),
                             row[order].astype(np.int64), key_words.offsets, key_words.keys, resp_words.offsets,
                             resp_words.keys)
    k_len = _per_doc(np.diff(key_words.offsets), a.k_off)
    r_len = _per_doc(np.diff(resp_words.offsets), a.r_off)
    return np.stack([total, r_len, total, k_len], axis=1)


def _per_doc(values: np.ndarray, off: np.ndarray) -> np.ndarray:
    """Sums of consecutive groups (CSR offsets ``off``), 0 for an empty group."""
    cum = np.concatenate([[0], np.cumsum(values, dtype=np.float64)])
    return cum[off[1:]] - cum[off[:-1]]


def zero_score(k_chain: np.ndarray, k_words: Words, k_rows: np.ndarray, r_chain: np.ndarray, r_words: Words,
               r_rows: np.ndarray, pairs: list[tuple[int, int]]) -> tuple:
    """The anaphor-decomposable score of zeros of one document (the scorer's ``als_zeros``):
    (TP, TP + FP + WL, TP, TP + FN + WL)."""
    def order(words, rows):  # the scorer's mention order: first word, last word, length
        lo, hi = words.offsets[rows], words.offsets[rows + 1]
        return np.lexsort((hi - lo, words.keys[hi - 1], words.keys[lo]))

    counterpart = {k: r for k, r in pairs if r >= 0}
    r_cluster = dict(zip(r_rows.tolist(), r_chain.tolist()))
    first_of_cluster: dict[int, int] = {}
    for i in order(r_words, r_rows).tolist():
        first_of_cluster.setdefault(int(r_chain[i]), int(r_rows[i]))
    firsts = set(first_of_cluster.values())
    tp = fp = fn = wl = 0
    covered: set[int] = set()
    k_zero = k_words.zero[k_rows]
    for c in np.unique(k_chain[k_zero]).tolist():  # only clusters with a zero can count
        members = np.flatnonzero(k_chain == c)
        members = members[order(k_words, k_rows[members])]
        previous: set[int] = set()
        for n, i in enumerate(members.tolist()):
            partner = counterpart.get(int(k_rows[i]))
            if n and k_zero[i]:
                if partner is None or partner in firsts:
                    fn += 1
                elif r_cluster[partner] not in previous:
                    wl += 1
                else:
                    tp += 1
                if partner is not None:
                    covered.add(partner)
            if partner is not None:
                previous.add(r_cluster[partner])
    for row in r_rows[r_words.zero[r_rows]].tolist():
        if row not in firsts and row not in covered:
            fp += 1
    return tp, tp + fp + wl, tp, tp + fn + wl
