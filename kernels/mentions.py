"""Exact mention alignment with the reference scorer's (v8.01) identity rules.

Per document, every distinct key span gets an id (repeated key spans share
it and all copies stay in their clusters).  Response mentions are read in
chain order: a span that matches a key span takes the key id the first time
and is dropped as a repeat afterwards; a span not in the key gets a new id,
shared by its repeats.
"""
import numpy as np
from ._jit import njit

from .order import lex_order_into

@njit(cache=True)
def _align_doc(ks, ke, rs, re, k_id, r_id, counts, scratch, sort_counts):
    """One document; ``scratch`` (7 rows at least as long as a side) and ``sort_counts`` (the document's
    tokens + 1 at least) are buffers shared by every document."""
    n_tok = 1
    for e in ke:
        n_tok = max(n_tok, e + 1)
    for e in re:
        n_tok = max(n_tok, e + 1)
    first, moved, order, span_s, span_e, match, new_id = (scratch[0], scratch[1], scratch[2], scratch[3],
                                                          scratch[4], scratch[5], scratch[6])
    # key ids: distinct key spans in (start, end) order
    lex_order_into(ks, ke, n_tok, n_tok, sort_counts, first, moved, order)
    n_key = 0
    for q in range(len(ks)):
        p = order[q]
        if n_key == 0 or ks[p] != span_s[n_key - 1] or ke[p] != span_e[n_key - 1]:
            span_s[n_key] = ks[p]
            span_e[n_key] = ke[p]
            n_key += 1
        k_id[p] = n_key - 1
    # response spans in the same order, merged with the key's: key id or a new id per distinct span
    lex_order_into(rs, re, n_tok, n_tok, sort_counts, first, moved, order)
    q = 0
    n_new = 0
    last_s = -1
    last_e = -1
    for t in range(len(rs)):
        p = order[t]
        match[p] = -1
        new_id[p] = -1
        while q < n_key and (span_s[q] < rs[p] or (span_s[q] == rs[p] and span_e[q] < re[p])):
            q += 1
        if q < n_key and span_s[q] == rs[p] and span_e[q] == re[p]:
            match[p] = q
        else:
            if n_new == 0 or rs[p] != last_s or re[p] != last_e:
                n_new += 1
                last_s = rs[p]
                last_e = re[p]
            new_id[p] = n_key + n_new - 1
    # v8.01 reads the response in chain order: a key span seen before is a repeat (``first``: seen)
    for x in range(n_key):
        first[x] = 0
    exact = 0
    repeated = 0
    for p in range(len(rs)):
        if match[p] >= 0:
            if first[match[p]]:
                r_id[p] = -1
                repeated += 1
            else:
                first[match[p]] = 1
                r_id[p] = match[p]
                exact += 1
        else:
            r_id[p] = new_id[p]
    counts[0] = n_key
    counts[1] = exact + n_new
    counts[2] = exact
    counts[3] = repeated


@njit(cache=True)
def _align(k_off, ks, ke, r_off, rs, re):
    n_docs = len(k_off) - 1
    k_id = np.empty(len(ks), dtype=np.int64)
    r_id = np.empty(len(rs), dtype=np.int64)
    counts = np.zeros((n_docs, 4), dtype=np.int64)
    rows = 1
    for d in range(n_docs):
        rows = max(rows, k_off[d + 1] - k_off[d], r_off[d + 1] - r_off[d])
    n_tok = 1
    for e in ke:
        n_tok = max(n_tok, e + 1)
    for e in re:
        n_tok = max(n_tok, e + 1)
    scratch = np.empty((7, rows), dtype=np.int64)
    sort_counts = np.empty(n_tok + 1, dtype=np.int64)
    for d in range(n_docs):
        a, b = k_off[d], k_off[d + 1]
        c, e = r_off[d], r_off[d + 1]
        _align_doc(ks[a:b], ke[a:b], rs[c:e], re[c:e], k_id[a:b], r_id[c:e], counts[d], scratch, sort_counts)
    return k_id, r_id, counts


def align_exact(k_off, k_start, k_end, r_off, r_start, r_end):
    """Mention ids for key and response rows (-1: dropped repeat) and per-document counts.

    Counts columns: distinct key spans, distinct response spans, exact
    matches (distinct), response repeats of key spans dropped.
    """
    as64 = lambda a: np.ascontiguousarray(a, dtype=np.int64)
    as32 = lambda a: np.ascontiguousarray(a, dtype=np.int32)
    return _align(as64(k_off), as32(k_start), as32(k_end), as64(r_off), as32(r_start), as32(r_end))
