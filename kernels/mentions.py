"""Exact mention alignment with the reference scorer's (v8.01) identity rules.

Per document, every distinct key span gets an id (repeated key spans share
it and all copies stay in their clusters).  Response mentions are read in
chain order: a span that matches a key span takes the key id the first time
and is dropped as a repeat afterwards; a span not in the key gets a new id,
shared by its repeats.
"""
import numpy as np
from numba import njit, prange

COUNT_COLUMNS = ("key_spans", "response_spans", "exact", "repeated")


@njit(cache=True)
def _span_codes(start, end):
    codes = np.empty(len(start), dtype=np.int64)
    for i in range(len(start)):
        codes[i] = (np.int64(start[i]) << 32) | np.int64(end[i])
    return codes


@njit(cache=True)
def _rank_unique(codes, out, first_id):
    """out[p] = first_id + rank of codes[p] among the distinct codes; returns (#distinct, sorted distinct)."""
    n = len(codes)
    order = np.argsort(codes, kind="mergesort")
    uniq = np.empty(n, dtype=np.int64)
    k = -1
    for q in range(n):
        p = order[q]
        if k < 0 or codes[p] != uniq[k]:
            k += 1
            uniq[k] = codes[p]
        out[p] = first_id + k
    return k + 1, uniq[: k + 1]


@njit(cache=True)
def _align_doc(ks, ke, rs, re, k_id, r_id, counts):
    n_key, key_codes = _rank_unique(_span_codes(ks, ke), k_id, 0)
    r_codes = _span_codes(rs, re)
    seen = np.zeros(n_key, dtype=np.bool_)
    other = np.empty(len(rs), dtype=np.int64)  # rows whose span is not in the key
    n_other = 0
    exact = 0
    repeated = 0
    for p in range(len(rs)):
        pos = np.searchsorted(key_codes, r_codes[p])
        if pos < n_key and key_codes[pos] == r_codes[p]:
            if seen[pos]:
                r_id[p] = -1
                repeated += 1
            else:
                seen[pos] = True
                r_id[p] = pos
                exact += 1
        else:
            other[n_other] = p
            n_other += 1
    other = other[:n_other]
    other_ids = np.empty(n_other, dtype=np.int64)
    n_new, _ = _rank_unique(r_codes[other], other_ids, n_key)
    for q in range(n_other):
        r_id[other[q]] = other_ids[q]
    counts[0] = n_key
    counts[1] = exact + n_new
    counts[2] = exact
    counts[3] = repeated


@njit(cache=True, parallel=True)
def _align(k_off, ks, ke, r_off, rs, re):
    n_docs = len(k_off) - 1
    k_id = np.empty(len(ks), dtype=np.int64)
    r_id = np.empty(len(rs), dtype=np.int64)
    counts = np.zeros((n_docs, 4), dtype=np.int64)
    for d in prange(n_docs):
        a, b = k_off[d], k_off[d + 1]
        c, e = r_off[d], r_off[d + 1]
        _align_doc(ks[a:b], ke[a:b], rs[c:e], re[c:e], k_id[a:b], r_id[c:e], counts[d])
    return k_id, r_id, counts


def align_exact(k_off, k_start, k_end, r_off, r_start, r_end):
    """Mention ids for key and response rows (-1: dropped repeat) and per-document counts.

    Counts columns: distinct key spans, distinct response spans, exact
    matches (distinct), response repeats of key spans dropped.
    """
    as64 = lambda a: np.ascontiguousarray(a, dtype=np.int64)
    as32 = lambda a: np.ascontiguousarray(a, dtype=np.int32)
    return _align(as64(k_off), as32(k_start), as32(k_end), as64(r_off), as32(r_start), as32(r_end))
