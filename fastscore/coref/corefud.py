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
``kernels.mentions.align_exact``: aligned response mentions take their key mention's id; documents whose
lookups of counterparts are not one 1-to-1 alignment (see :class:`Matched`) are scored by
:func:`lookup_statistics` instead.

Steps 1-4 run over the whole corpus in ``kernels/corefud_match.py`` (scipy only where a document has
mentions left on both sides) for every document whose mentions differ in (first word, last word, length)
on each side: there the sort alone gives the scorer's order.  Documents with such ties are matched on the
scorer's own values (:func:`align_document`).  The same path runs whether the kernels are compiled or
plain Python.  ``tests/reference_corefud.py`` holds the oracles: ``prepare_python`` (dictionaries of the
scorer's values) and ``match_python`` (every document matched on the scorer's own values).
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field

import numpy as np

from ..errors import InputError, UsageError
from ..formats.conllu import SENTENCE_SHIFT, key_ord
from ..formats.table import MentionTable, Words, offsets
from ..messages import shown
from .choices import MATCHES, ZERO_MATCHES


@dataclass(frozen=True)
class Matching:
    """How key and response mentions are paired."""

    mode: str = "head"  # exact | partial | head
    zeros: str = "dependent"  # dependent | linear

    def __post_init__(self):
        if self.mode not in MATCHES:
            raise UsageError(f"unknown matching {self.mode!r}: choose from {', '.join(MATCHES)}")
        if self.zeros not in ZERO_MATCHES:
            raise UsageError(f"unknown zero matching {self.zeros!r}: choose from {', '.join(ZERO_MATCHES)}")


# ---- preparing each side: repeated mentions, singletons, mentions in two clusters


def prepare(table: MentionTable, matching: Matching, keep_singletons: bool) -> tuple[MentionTable, tuple]:
    """The table with each cluster's repeated mentions removed (the first kept), then one-mention clusters
    (unless ``keep_singletons``), as the scorer prepares its clusters.  A mention listed in two clusters stays
    in both (the scorer keeps it in both clusters' lists and finds its cluster through the later one:
    :func:`match` sends such documents to :func:`lookup_statistics`); returned with the table: how many rows
    repeat a mention of another cluster, and where the first is (None: none)."""
    n = len(table.start)
    doc = np.repeat(np.arange(table.n_docs), np.diff(table.doc_offsets))
    group = _groups(table.words, doc, matching.mode == "head")
    cluster = table.cluster.astype(np.int64)
    # a cluster's repeats: the first kept
    width = int(cluster.max()) + 1 if n else 1
    keep = np.zeros(n, dtype=bool)
    keep[np.unique(group * width + cluster, return_index=True)[1]] = True
    if not keep_singletons:
        base = offsets([len(x) for x in table.cluster_labels])
        global_cluster = base[doc] + cluster
        counts = np.bincount(global_cluster[keep], minlength=int(base[-1]))
        keep &= counts[global_cluster] > 1
    # mentions of another cluster repeated: counted for the warning
    kept = np.flatnonzero(keep)
    is_first = np.zeros(len(kept), dtype=bool)
    is_first[np.unique(group[kept], return_index=True)[1]] = True
    later = kept[~is_first]
    twice = (len(later), _place(table, int(later[0]), int(doc[later[0]])) if len(later) else None)
    return _keep_rows(table, keep), twice


def _groups(words: Words, doc: np.ndarray, head_mode: bool) -> np.ndarray:
    """An identity per row: rows of one document with the same words (and head, in head matching) share it."""
    from ..kernels.corefud_match import identity_groups

    first, last, sizes = _spans(words)
    order = np.lexsort((words.head if head_mode else np.zeros(len(doc), dtype=np.int64), sizes, last, first, doc))
    return identity_groups(order.astype(np.int64), doc, words.offsets, words.keys, words.head, head_mode)


def _spans(words: Words) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each row's first word, last word and number of words."""
    return words.keys[words.offsets[:-1]], words.keys[words.offsets[1:] - 1], np.diff(words.offsets)


def _place(table: MentionTable, row: int, doc: int) -> str:
    return f"{table.path}:{int(table.words.lines[row])}: document \"{shown(table.doc_names[doc])}\""


def twice_warning(key: tuple, response: tuple) -> list[str]:
    """One warning for the mentions listed in two entities of both sides (``prepare``'s counts and places)."""
    n = key[0] + response[0]
    if not n:
        return []
    return [f"{n} mention(s) belong to two entities (key {key[0]}, response {response[0]}): scored as the CorefUD "
            "scorer does, in both entities' mentions, found through the later entity; first: "
            f"{key[1] or response[1]}"]


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
        self.row_of: dict = {}  # value -> its first row (the member the scorer's sets keep)
        if not len(rows):
            self.same = np.zeros(0, dtype=np.int64)
            return
        lo, hi = int(words.offsets[rows[0]]), int(words.offsets[rows[-1] + 1])  # rows are consecutive
        keys = words.keys[lo:hi].tolist()
        pair = {k: _pair(k) for k in set(keys)}
        off = (words.offsets[rows[0]:rows[-1] + 2] - lo).tolist()
        heads = words.head[rows].tolist()
        for n, row in enumerate(rows.tolist()):
            pairs = frozenset([pair[k] for k in keys[off[n]:off[n + 1]]])
            value = (pairs, frozenset((_pair(heads[n]),))) if head_mode else pairs
            self.values.append(value)
            self.row_of.setdefault(value, row)
        lo_row = int(rows[0])
        self.same = np.asarray([self.row_of[v] - lo_row for v in self.values], dtype=np.int64)  # representative

    @property
    def repeats(self) -> bool:
        """Is a mention listed twice (in two clusters)?"""
        return len(self.row_of) < len(self.values)

    def first_last_len(self, value) -> tuple:
        row = self.row_of[value]
        lo, hi = self.words.offsets[row], self.words.offsets[row + 1]
        return (int(self.words.keys[lo]), int(self.words.keys[hi - 1]), int(hi - lo))

    def ordered(self, values) -> list:
        """The scorer's ``sorted(set)``: by (first word, last word, length), ties in set order."""
        return sorted(values, key=self.first_last_len)


_LSA = []  # scipy's linear_sum_assignment, once found


def linear_sum_assignment(cost: np.ndarray):
    """scipy's ``linear_sum_assignment``.  It is one compiled function of scipy.optimize, whose package
    import costs ~0.5 s of a command-line run: the extension is loaded on its own where it is one, else
    through the package."""
    if not _LSA:
        import importlib.machinery
        import importlib.util
        import sys
        import types

        found = None
        if "scipy.optimize" not in sys.modules:
            try:
                import scipy

                folder = os.path.join(os.path.dirname(scipy.__file__), "optimize")
                for suffix in importlib.machinery.EXTENSION_SUFFIXES:
                    path = os.path.join(folder, "_lsap" + suffix)
                    if os.path.exists(path):
                        spec = importlib.util.spec_from_file_location("scipy.optimize._lsap", path)
                        module = importlib.util.module_from_spec(spec)
                        spec.loader.exec_module(module)
                        function = getattr(module, "linear_sum_assignment", None)
                        if isinstance(function, types.BuiltinFunctionType):
                            found = function
                        break
            except Exception:  # noqa: BLE001 - any surprise: the package's own import below
                found = None
        if found is None:
            from scipy.optimize import linear_sum_assignment as found
        _LSA.append(found)
    return _LSA[0](cost)


def _assign(similarity: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The maximum-weight pairing's (rows, columns) of positive similarity."""
    rows, cols = linear_sum_assignment(-similarity)
    keep = similarity[rows, cols] > 0
    return rows[keep].astype(np.int64), cols[keep].astype(np.int64)


def _csr(side: _Side, values: list) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rows = np.asarray([side.row_of[v] for v in values], dtype=np.int64)
    sub = side.words.take(rows)
    return sub.offsets, sub.keys, sub.head


def _rel_codes(key_words: Words, resp_words: Words) -> tuple[np.ndarray, np.ndarray]:
    """Each side's DEPS relations as codes of one numbering (the key's names, then the response's others)."""
    index = {name: n for n, name in enumerate(key_words.rel_names)}
    common = np.asarray([index.get(x, len(index) + n) for n, x in enumerate(resp_words.rel_names)] or [0],
                        dtype=np.int64)
    return key_words.dep_rel.astype(np.int64), common[resp_words.dep_rel]


def _zero_similarities(k: _Side, r: _Side, rows: list, cols: list, path: str, rels: tuple) -> np.ndarray:
    """10 * F1(parent+relation) + F1(parent) of the heads' DEPS for zeros of the same sentence, else 0
    (``kernels/corefud_match.zero_similarities`` on these rows, in this order; ``rels``: :func:`_rel_codes`)."""
    from ..kernels.corefud_match import zero_similarities

    kw, rw = k.words, r.words
    k_rows = np.asarray([k.row_of[v] for v in rows], dtype=np.int64)
    r_rows = np.asarray([r.row_of[v] for v in cols], dtype=np.int64)
    k_off, r_off = np.array([0, len(rows)], dtype=np.int64), np.array([0, len(cols)], dtype=np.int64)
    *_, sim, bad = zero_similarities(k_off, k_rows, kw.zero, kw.head, kw.dep_offsets, kw.dep_parent, rels[0], r_off,
                                     r_rows, rw.zero, rw.head, rw.dep_offsets, rw.dep_parent, rels[1])
    if bad[0]:
        side, at = _zero_without_deps(k, r, k_rows, r_rows)
        raise InputError(f"{path}:{int(side.lines[at])}: a zero mention whose head has no DEPS meets another "
                         "zero of its sentence: dependent zero matching compares their DEPS (the CorefUD "
                         "scorer crashes here with ZeroDivisionError); add the DEPS, or use --zero-match "
                         "linear")
    return sim.reshape(len(rows), len(cols))


def _zero_without_deps(k: _Side, r: _Side, k_rows: np.ndarray, r_rows: np.ndarray) -> tuple[Words, int]:
    """The first zero without DEPS the scorer meets beside a zero of its sentence (key before response)."""
    def no_deps(words: Words, row: int) -> bool:
        return words.dep_offsets[row] == words.dep_offsets[row + 1]

    i, j = next((i, j) for i in k_rows.tolist() for j in r_rows.tolist()
                if int(k.words.head[i]) >> SENTENCE_SHIFT == int(r.words.head[j]) >> SENTENCE_SHIFT
                and (no_deps(k.words, i) or no_deps(r.words, j)))
    return (k.words, i) if no_deps(k.words, i) else (r.words, j)


def align_document(k: _Side, r: _Side, matching: Matching, path: str, rels: tuple) -> list[tuple]:
    """The scorer's alignment of one document: pairs of (key value, response value) (``rels``: :func:`_rel_codes`).
    The documents where the order of mentions the scorer's sets give matters (ties in (first word, last word,
    length)) or a mention is listed twice take this path."""
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
            sim = _zero_similarities(k, r, rows, cols, path, rels)
            zero_pairs = [(rows[i], cols[j]) for i, j in zip(*_assign(sim))]
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
        pairs += [(rows[i], cols[j]) for i, j in zip(*_assign(sim))]
    return pairs


@dataclass
class Matched:
    """A CorefUD alignment in the engine's terms (the ``(key ids, response ids, counts)`` contract).

    The scorer finds a mention's counterpart by a lookup: first in a dictionary of the non-identical
    pairs kept both ways (key -> response, then response -> key, the second overwriting the first for
    equal mentions), then by equality among the other side's mentions.  Key-side lookups give recall
    (MUC, B-cubed, LEA), CEAF and BLANC; response-side lookups give precision of MUC, B-cubed and LEA.
    Normally the lookups are one 1-to-1 alignment, which ``ids`` express for the engine.  When the zero
    pass pairs equal mentions across positions they need not be: a key mention can find a response
    mention other than the one that finds it, and two key mentions can find one response mention (or
    two response mentions one key mention), which ids shared by one key and one response mention
    cannot say.  Those documents are flagged in ``irregular``; ``key_finds`` and ``resp_finds`` hold
    their lookups (per document: for each row of one side, the row offset of the mention its lookup
    finds on the other side, or -1) and :func:`lookup_statistics` scores them.  So are the documents
    where a mention is listed in two clusters (both lists keep it; its lookups find the later cluster):
    ``key_same`` and ``resp_same`` say which rows are one mention."""

    ids: tuple
    irregular: np.ndarray  # bool per document
    key_finds: dict  # document -> int64 array over its key rows
    resp_finds: dict  # document -> int64 array over its response rows
    counterparts: list  # per document: (key row, response row) the zero score pairs
    key_same: dict = field(default_factory=dict)  # document -> for each key row offset, the offset of its mention's
    resp_same: dict = field(default_factory=dict)  # first row (documents with a mention listed in two clusters only)
    pairs: dict = field(default_factory=dict)  # document -> the scorer's pairs [(key row, response row)]


def _ids(n_key: int, n_resp: int, key_finds: np.ndarray) -> np.ndarray:
    """Response ids of a 1-to-1 alignment: the id of the key row whose lookup finds it, else a new id."""
    out = np.full(n_resp, -1, dtype=np.int64)
    found = np.flatnonzero(key_finds >= 0)
    out[key_finds[found]] = found
    new = np.flatnonzero(out < 0)
    out[new] = n_key + np.arange(len(new))
    return out


def match(a, key_words: Words, resp_words: Words, matching: Matching, path: str) -> Matched:
    """The alignment of the aligned documents ``a`` (``key_words`` and ``resp_words`` row-aligned with
    ``a``); counts per document: key mentions, response mentions, aligned pairs, 0 (the kernels, or
    :func:`align_document` where ties make the scorer's set order matter: the module's steps 1-4)."""
    from ..kernels import corefud_match as K
    from ..kernels.matching import HEAD, PARTIAL

    head_mode = matching.mode == "head"
    n_docs = len(a.doc_names)
    k_ord, k_tie = _sorted_rows(key_words, a.k_off)
    r_ord, r_tie = _sorted_rows(resp_words, a.r_off)
    python_docs = k_tie | r_tie | _listed_twice(key_words, a.k_off, head_mode) | _listed_twice(resp_words, a.r_off,
                                                                                               head_mode)
    eq_k, eq_r = K.equal_rows(a.k_off, k_ord, key_words.offsets, key_words.keys, key_words.head, a.r_off, r_ord,
                              resp_words.offsets, resp_words.keys, resp_words.head, head_mode)
    k_taken = np.zeros(len(k_ord), dtype=bool)
    r_taken = np.zeros(len(r_ord), dtype=bool)
    found: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []  # (document, key rows, response rows)
    rels = _rel_codes(key_words, resp_words)
    if matching.zeros == "dependent":
        kz_off, kz, rz_off, rz, sim_off, sim, bad = K.zero_similarities(
            a.k_off, k_ord, key_words.zero, key_words.head, key_words.dep_offsets, key_words.dep_parent, rels[0],
            a.r_off, r_ord, resp_words.zero, resp_words.head, resp_words.dep_offsets, resp_words.dep_parent, rels[1])
        python_docs |= bad
        found += _assigned(python_docs, kz_off, kz, rz_off, rz, sim_off, sim)
        for _, rows, cols in found:
            k_taken[rows] = True
            r_taken[cols] = True
    mode = {"exact": 0, "partial": PARTIAL, "head": HEAD}[matching.mode]
    ex_off, ex_k, ex_r, kl_off, kl, rl_off, rl, sim_off, sim = K.leftovers(
        mode, a.k_off, k_ord, key_words.offsets, key_words.keys, key_words.head, a.r_off, r_ord, resp_words.offsets,
        resp_words.keys, resp_words.head, eq_k, k_taken, r_taken)
    found.append((np.repeat(np.arange(n_docs), np.diff(ex_off)), ex_k, ex_r))
    found += _assigned(python_docs, kl_off, kl, rl_off, rl, sim_off, sim)
    p_doc, p_k, p_r = (np.concatenate(x).astype(np.int64) for x in zip(*found))
    by_doc = np.argsort(p_doc, kind="stable")
    p_off = offsets(np.bincount(p_doc, minlength=n_docs))
    kf, rf, regular, r_id, c_off, c_key, c_resp = K.lookups(a.k_off, a.r_off, p_off, p_k[by_doc], p_r[by_doc], eq_k,
                                                            eq_r)
    k_sizes = np.diff(a.k_off)
    k_id = np.arange(len(a.k_chain), dtype=np.int64) - np.repeat(a.k_off[:-1], k_sizes)
    counts = np.stack([k_sizes, np.diff(a.r_off), np.diff(p_off), np.zeros(n_docs, dtype=np.int64)], axis=1)
    irregular = ~regular
    c_pairs = list(zip(c_key.tolist(), c_resp.tolist()))
    c_at = c_off.tolist()
    counterparts = [c_pairs[c_at[d]:c_at[d + 1]] for d in range(n_docs)]
    key_same: dict[int, np.ndarray] = {}
    resp_same: dict[int, np.ndarray] = {}
    pk, pr, at = p_k[by_doc].tolist(), p_r[by_doc].tolist(), p_off.tolist()
    pairs = {d: list(zip(pk[at[d]:at[d + 1]], pr[at[d]:at[d + 1]])) for d in range(n_docs)}
    for d in np.flatnonzero(python_docs).tolist():  # in document order: the first error is the scorer's
        klo, khi, rlo, rhi = int(a.k_off[d]), int(a.k_off[d + 1]), int(a.r_off[d]), int(a.r_off[d + 1])
        n_pairs, kf[klo:khi], rf[rlo:rhi], one_to_one, counterparts[d], same, pairs[d] = _match_document(
            key_words, resp_words, (klo, khi), (rlo, rhi), matching, path, rels)
        if same is not None:
            key_same[d], resp_same[d] = same
        r_id[rlo:rhi] = _ids(khi - klo, rhi - rlo, kf[klo:khi] if one_to_one else np.full(khi - klo, -1))
        irregular[d] = not one_to_one
        counts[d, 2] = n_pairs
    docs = np.flatnonzero(irregular).tolist()
    key_finds = {d: kf[a.k_off[d]:a.k_off[d + 1]].copy() for d in docs}
    resp_finds = {d: rf[a.r_off[d]:a.r_off[d + 1]].copy() for d in docs}
    return Matched((k_id, r_id, counts), irregular, key_finds, resp_finds, counterparts, key_same, resp_same, pairs)


def _assigned(skip: np.ndarray, k_off: np.ndarray, k_rows: np.ndarray, r_off: np.ndarray, r_rows: np.ndarray,
              sim_off: np.ndarray, sim: np.ndarray) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """(document, key rows, response rows) of each document's maximum-weight pairing on its similarity matrix
    (``sim`` from ``sim_off``: rows ``k_rows`` from ``k_off``, columns likewise), but the documents ``skip``."""
    out = []
    for d in np.flatnonzero((sim_off[1:] > sim_off[:-1]) & ~skip).tolist():
        rows, cols = k_rows[k_off[d]:k_off[d + 1]], r_rows[r_off[d]:r_off[d + 1]]
        i, j = _assign(sim[sim_off[d]:sim_off[d + 1]].reshape(len(rows), len(cols)))
        out.append((np.full(len(i), d), rows[i], cols[j]))
    return out


def _listed_twice(words: Words, off: np.ndarray, head_mode: bool) -> np.ndarray:
    """Per document: is a mention listed twice (in two of its clusters)?"""
    doc = np.repeat(np.arange(len(off) - 1), np.diff(off))
    groups = _groups(words, doc, head_mode)
    distinct = np.bincount(doc[np.unique(groups, return_index=True)[1]], minlength=len(off) - 1)
    return distinct < np.diff(off)


def _sorted_rows(words: Words, off: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each document's rows sorted by (first word, last word, length), and per document whether two of
    its rows share those three."""
    first, last, sizes = _spans(words)
    doc = np.repeat(np.arange(len(off) - 1), np.diff(off))
    order = np.lexsort((sizes, last, first, doc))
    f, la, n, dd = first[order], last[order], sizes[order], doc[order]
    same = (f[1:] == f[:-1]) & (la[1:] == la[:-1]) & (n[1:] == n[:-1]) & (dd[1:] == dd[:-1])
    tie = np.zeros(len(off) - 1, dtype=bool)
    tie[dd[1:][same]] = True
    return order.astype(np.int64), tie


def _match_document(key_words: Words, resp_words: Words, key_rows: tuple[int, int], resp_rows: tuple[int, int],
                    matching: Matching, path: str, rels: tuple) -> tuple:
    """One document (its mentions' rows ``key_rows`` and ``resp_rows``: start, end) on the scorer's own values:
    (pairs, key lookups, response lookups, one-to-one, the zero score's counterparts, each side's representatives
    (None: no mention listed twice), the pairs' rows)."""
    head_mode = matching.mode == "head"
    (klo, khi), (rlo, rhi) = key_rows, resp_rows
    k = _Side(key_words, np.arange(klo, khi), head_mode)
    r = _Side(resp_words, np.arange(rlo, rhi), head_mode)
    pairs = align_document(k, r, matching, path, rels)
    both_ways = {kv: rv for kv, rv in pairs if kv != rv}
    both_ways.update({rv: kv for kv, rv in pairs if kv != rv})
    kf = _finds(k, r, both_ways, rlo)
    rf = _finds(r, k, both_ways, klo)
    found = kf[kf >= 0]
    one_to_one = (not k.repeats and not r.repeats and len(np.unique(found)) == len(found)
                  and int((rf >= 0).sum()) == len(found) and bool(np.all(rf[found] == np.flatnonzero(kf >= 0))))
    # the zero score's counterpart of a key mention: an equal response mention, else its pair
    counterparts = [(row, r.row_of[v] if v in r.row_of else r.row_of.get(both_ways[v], -1))
                    for v, row in zip(k.values, k.rows.tolist()) if v in r.row_of or v in both_ways]
    same = (k.same, r.same) if k.repeats or r.repeats else None
    return len(pairs), kf, rf, one_to_one, counterparts, same, [(k.row_of[kv], r.row_of[rv]) for kv, rv in pairs]


def _finds(side: _Side, other: _Side, both_ways: dict, other_lo: int) -> np.ndarray:
    """For each row of ``side`` (offsets in its document), the other side's row offset its lookup finds
    (the pairs' dictionary, else the mention itself, then equality on the other side: the first row of
    that mention), else -1."""
    out = np.full(len(side.values), -1, dtype=np.int64)
    for n, value in enumerate(side.values):
        hit = other.row_of.get(both_ways.get(value, value))
        if hit is not None:
            out[n] = hit - other_lo
    return out


def lookup_statistics(a, matched: Matched) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """The statistics of the ``irregular`` documents, each mention scored through its own lookup, as the
    scorer does: the documents, and their columns of MUC, B-cubed, LEA, CEAF and BLANC.

    Each side is given to :func:`~fastscore.coref.engine.coval_statistics` with identity ids that encode one side's
    lookups: the other side's mentions have ids of their own (rows of one mention listed in two clusters
    share it: coval's dictionaries then find the later cluster, as the scorer's do), and a mention takes
    the id of the mention its lookup finds (mentions that find the same one share it).  The key-side run
    gives recall, CEAF and BLANC; the response-side run precision of MUC, B-cubed and LEA."""
    from .engine import coval_statistics
    from .metrics import COREFUD_METRICS

    docs = np.flatnonzero(matched.irregular)
    k_sizes = np.diff(a.k_off)[docs]
    r_sizes = np.diff(a.r_off)[docs]
    k_rows = np.concatenate([np.arange(a.k_off[d], a.k_off[d + 1]) for d in docs])
    r_rows = np.concatenate([np.arange(a.r_off[d], a.r_off[d + 1]) for d in docs])
    k_chain, r_chain = a.k_chain[k_rows].astype(np.int64), a.r_chain[r_rows].astype(np.int64)
    k_nch, r_nch = a.k_nchains[docs].astype(np.int64), a.r_nchains[docs].astype(np.int64)
    k_off, r_off = offsets(k_sizes), offsets(r_sizes)

    def identities(finds: dict, own: np.ndarray, other: np.ndarray, own_same: dict,
                   other_same: dict) -> tuple[np.ndarray, np.ndarray]:
        """Ids of the finding side (``finds``) and of the found side, document after document."""
        finding, found = [], []
        base = 0
        for d, n_own, n_other in zip(docs.tolist(), own.tolist(), other.tolist()):
            f = finds[d]
            found.append(base + other_same.get(d, np.arange(n_other)))
            finding.append(base + np.where(f >= 0, f, n_other + own_same.get(d, np.arange(n_own))))
            base += n_own + n_other
        return np.concatenate(finding).astype(np.int64), np.concatenate(found).astype(np.int64)

    k_ids, r_ids = identities(matched.key_finds, k_sizes, r_sizes, matched.key_same, matched.resp_same)
    rec = coval_statistics(k_off, k_ids, k_chain, k_nch, r_off, r_ids, r_chain, r_nch)
    r_ids, k_ids = identities(matched.resp_finds, r_sizes, k_sizes, matched.resp_same, matched.key_same)
    prec = coval_statistics(k_off, k_ids, k_chain, k_nch, r_off, r_ids, r_chain, r_nch, ceaf=False)
    columns = {}
    for m in ("muc", "bcub", "lea", "blanc", "ceafm", "ceafe"):
        columns.update({c: rec[m][:, n] for n, c in enumerate(COREFUD_METRICS[m].columns)})
    for m in ("muc", "bcub", "lea"):  # precision: the response side's lookups
        columns.update({f"{m}_precision_{c}": prec[m][:, 2 + n] for n, c in enumerate(("num", "den"))})
    return docs, columns


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
               r_rows: np.ndarray, pairs: list[tuple[int, int]], r_same: np.ndarray | None = None) -> tuple:
    """The anaphor-decomposable score of zeros of one document (the scorer's ``als_zeros``):
    (TP, TP + FP + WL, TP, TP + FN + WL).  ``pairs``: each key row's counterpart (the first row of its
    response mention); ``r_same``: for each response row offset, the offset of its mention's first row
    (None: each its own), for a mention listed in two clusters: the scorer compares mentions by equality
    and finds a mention's cluster through the later one."""
    def order(words, rows):  # the scorer's mention order: first word, last word, length
        lo, hi = words.offsets[rows], words.offsets[rows + 1]
        return np.lexsort((hi - lo, words.keys[hi - 1], words.keys[lo]))

    k_zero = k_words.zero[k_rows]
    r_zero_rows = r_rows[r_words.zero[r_rows]]
    if not k_zero.any() and not len(r_zero_rows):
        return 0, 0, 0, 0
    counterpart = {k: r for k, r in pairs if r >= 0}
    same = r_rows[r_same] if r_same is not None else r_rows  # each response row's mention (its first row)
    r_cluster = {}
    for row, chain in zip(same.tolist(), r_chain.tolist()):  # the later cluster of a mention listed twice
        r_cluster[row] = max(chain, r_cluster.get(row, chain))
    r_order = order(r_words, r_rows)
    _, at = np.unique(r_chain[r_order], return_index=True)  # each cluster's first mention
    firsts = set(same[r_order][at].tolist())
    tp = fp = fn = wl = 0
    covered: set[int] = set()
    # only clusters with a zero can count; each cluster's mentions in the scorer's order
    members = np.flatnonzero(np.isin(k_chain, k_chain[k_zero]))
    lo, hi = k_words.offsets[k_rows[members]], k_words.offsets[k_rows[members] + 1]
    members = members[np.lexsort((members, hi - lo, k_words.keys[hi - 1], k_words.keys[lo], k_chain[members]))]
    chain_of, row_of, zero_of = k_chain[members].tolist(), k_rows[members].tolist(), k_zero[members].tolist()
    previous: set[int] = set()
    n = 0
    for t in range(len(members)):
        if t == 0 or chain_of[t] != chain_of[t - 1]:
            previous = set()
            n = 0
        else:
            n += 1
        partner = counterpart.get(row_of[t])
        if n and zero_of[t]:
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
    for row in same[r_words.zero[r_rows]].tolist():
        if row not in firsts and row not in covered:
            fp += 1
    return tp, tp + fp + wl, tp, tp + fn + wl
