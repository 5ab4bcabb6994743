"""Pure-Python references of the CorefUD matching kernels (kernels/matching.py), and of
``fastscore.coref.corefud``'s preparing and matching: ``prepare_python`` (dictionaries of the scorer's values)
and ``match_python`` (every document matched on the scorer's own values, as the kernels match only the
documents with ties; the zeros' similarities by ``zero_similarities``, with sets of DEPS)."""
from __future__ import annotations

from itertools import pairwise, permutations

import numpy as np

from fastscore.coref import corefud
from fastscore.coref.corefud import Matched, Matching, _ids, _keep_rows, _match_document, _place
from fastscore.errors import InputError
from fastscore.formats.conllu import SENTENCE_SHIFT
from fastscore.formats.table import MentionTable, Words


def similarity(mode: str, key: tuple, response: tuple) -> float:
    """key, response: (sorted words, head).  partial: R inside K and K's head in R: |R|/|K|;
    head: the same head: |K & R| / |K|."""
    (k, k_head), (r, r_head) = key, response
    k, r = set(k), set(r)
    if mode == "partial":
        return len(r) / len(k) if k_head in r and r <= k else 0.0
    return len(k & r) / len(k) if k_head == r_head else 0.0


def max_overlap(key: list[set], response: list[set]) -> int:
    """The largest total word overlap of a one-to-one pairing of key and response mentions (brute force)."""
    small, large = (key, response) if len(key) <= len(response) else (response, key)
    best = 0
    for chosen in permutations(range(len(large)), len(small)):
        best = max(best, sum(len(a & large[j]) for a, j in zip(small, chosen)))
    return best


def _identities(words: Words, head_mode: bool) -> list[tuple]:
    """What makes two mentions the same mention, for every row: their words (and head, in head matching)."""
    keys, off = words.keys.tolist(), words.offsets.tolist()
    if head_mode:
        return [(tuple(keys[lo:hi]), h) for (lo, hi), h in zip(pairwise(off), words.head.tolist())]
    return [(tuple(keys[lo:hi]),) for lo, hi in pairwise(off)]


def prepare_python(table: MentionTable, matching: Matching, keep_singletons: bool) -> tuple[MentionTable, tuple]:
    """``corefud.prepare`` with the scorer's own values in dictionaries (the oracle of its kernel and numpy)."""
    words = table.words
    head_mode = matching.mode == "head"
    keep = np.ones(len(table.start), dtype=bool)
    twice: list[str] = []
    idents = _identities(words, head_mode)
    clusters = table.cluster.tolist()
    for d in range(table.n_docs):
        lo, hi = int(table.doc_offsets[d]), int(table.doc_offsets[d + 1])
        seen: dict[tuple, int] = {}
        for row in range(lo, hi):  # rows of a cluster are contiguous: a repeat is seen in its own cluster
            ident = (clusters[row],) + idents[row]
            if ident in seen:
                keep[row] = False
            seen[ident] = row
        sizes = np.bincount(table.cluster[lo:hi][keep[lo:hi]], minlength=len(table.cluster_labels[d]))
        if not keep_singletons:
            keep[lo:hi] &= sizes[table.cluster[lo:hi]] > 1
        owner: set[tuple] = set()
        for row in range(lo, hi):
            if keep[row]:
                if idents[row] in owner:
                    twice.append(_place(table, row, d))
                owner.add(idents[row])
    return _keep_rows(table, keep), (len(twice), twice[0] if twice else None)


def zero_similarities(k, r, rows: list, cols: list, path: str, rels: tuple = ()) -> np.ndarray:
    """``corefud._zero_similarities`` with sets: 10 * F1(parent+relation) + F1(parent) of the heads' DEPS for
    zeros of the same sentence, else 0."""
    sim = np.zeros((len(rows), len(cols)), dtype=np.float64)
    by_sentence: dict[int, list[int]] = {}
    for j, v in enumerate(cols):
        by_sentence.setdefault(int(r.words.head[r.row_of[v]]) >> SENTENCE_SHIFT, []).append(j)
    r_deps = [_deps(r.words, r.row_of[v]) for v in cols]
    for i, v in enumerate(rows):
        row = k.row_of[v]
        kd = _deps(k.words, row)
        for j in by_sentence.get(int(k.words.head[row]) >> SENTENCE_SHIFT, []):
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


def match_python(a, key_words: Words, resp_words: Words, matching: Matching, path: str) -> Matched:
    """``corefud.match`` with every document on the scorer's own values (the oracle of its kernels)."""
    kernel = corefud._zero_similarities
    corefud._zero_similarities = zero_similarities
    try:
        return _match_all(a, key_words, resp_words, matching, path)
    finally:
        corefud._zero_similarities = kernel


def _match_all(a, key_words: Words, resp_words: Words, matching: Matching, path: str) -> Matched:
    n_docs = len(a.doc_names)
    k_id = np.empty(len(a.k_chain), dtype=np.int64)
    r_id = np.empty(len(a.r_chain), dtype=np.int64)
    counts = np.zeros((n_docs, 4), dtype=np.int64)
    irregular = np.zeros(n_docs, dtype=bool)
    key_finds: dict[int, np.ndarray] = {}
    resp_finds: dict[int, np.ndarray] = {}
    counterparts: list[list[tuple[int, int]]] = []
    key_same: dict[int, np.ndarray] = {}
    resp_same: dict[int, np.ndarray] = {}
    pairs: dict[int, list] = {}
    for d in range(n_docs):
        klo, khi = int(a.k_off[d]), int(a.k_off[d + 1])
        rlo, rhi = int(a.r_off[d]), int(a.r_off[d + 1])
        n_pairs, kf, rf, one_to_one, cp, same, pairs[d] = _match_document(key_words, resp_words, (klo, khi), (rlo, rhi),
                                                                          matching, path, ())
        if same is not None:
            key_same[d], resp_same[d] = same
        k_id[klo:khi] = np.arange(khi - klo)
        r_id[rlo:rhi] = _ids(khi - klo, rhi - rlo, kf if one_to_one else np.full(khi - klo, -1))
        if not one_to_one:
            irregular[d] = True
            key_finds[d], resp_finds[d] = kf, rf
        counts[d] = (khi - klo, rhi - rlo, n_pairs, 0)
        counterparts.append(cp)
    return Matched((k_id, r_id, counts), irregular, key_finds, resp_finds, counterparts, key_same, resp_same, pairs)
