"""Token-id spans of TBF mentions and the documents' token tables, for all documents at once.

A span in token mode is token ids separated by commas (``t3,t4``: as Python's ``split(',')`` cuts it);
a token table (``DOCID.tab``) has lines ``id<TAB>word<TAB>begin<TAB>end``.  The kernels cut the spans into
tokens, hash each token's bytes, number equal tokens of a document alike with a small hash table per document
(comparing the bytes: two tokens with one hash and other bytes get two numbers), look each table line's id up
in its document's hash table, and list each span's distinct numbers.  No sort: every step is one pass.
"""
import numpy as np
from ._jit import njit
from .byte_spans import same_bytes
from .order import stable_order

NEWLINE, TAB, COMMA = 10, 9, 44
HASH_BITS = (1 << 40) - 1  # a 40-bit hash: times the multiplier (< 2**20) it stays below 2**60, in Python too
HASH_MUL = 1000003
MIN_SLOTS = 16


@njit(cache=True)
def split_tokens(buf, n_spans):
    """Spans joined by newlines -> per token its span, start and end (the fields between commas, empty
    ones included, as ``str.split(',')``), and per span its first token (CSR offsets)."""
    n_tokens = n_spans
    for c in buf:
        if c == COMMA:
            n_tokens += 1
    span = np.empty(n_tokens, dtype=np.int64)
    start = np.empty(n_tokens, dtype=np.int64)
    end = np.empty(n_tokens, dtype=np.int64)
    first = np.zeros(n_spans + 1, dtype=np.int64)
    t = 0
    p = 0
    for k in range(n_spans):
        q = p
        while True:
            if q == len(buf) or buf[q] == NEWLINE or buf[q] == COMMA:
                span[t] = k
                start[t] = p
                end[t] = q
                t += 1
                if q == len(buf) or buf[q] == NEWLINE:
                    break
                p = q + 1
            q += 1
        p = q + 1
        first[k + 1] = t
    return span[:t], start[:t], end[:t], first


@njit(cache=True)
def _hash(buf, s, e):
    h = 0
    for i in range(s, e):
        h = (h * HASH_MUL + int(buf[i]) + 1) & HASH_BITS  # int(): a uint8 sum would wrap in plain Python
    return h


@njit(cache=True)
def slice_hashes(buf, start, end):
    """A hash of each slice ``buf[start[i]:end[i]]``."""
    out = np.empty(len(start), dtype=np.int64)
    for i in range(len(start)):
        out[i] = _hash(buf, start[i], end[i])
    return out


@njit(cache=True)
def _slots(n):
    """Slots of an open-addressing table for ``n`` entries (a power of two, at least twice ``n``)."""
    size = MIN_SLOTS
    while size < 2 * n:
        size *= 2
    return size


@njit(cache=True)
def _slot(key, mask):
    return (key ^ (key >> 17)) & mask  # the high bits mixed in: ids that differ only early stay apart


@njit(cache=True)
def group_tokens(buf, start, end, key, doc, n_docs):
    """Tokens in any order (``key``: the hash of ``buf[start:end]``, ``doc``: the document) -> a number per
    token, equal for the same bytes in one document, numbered document by document in the order the tokens
    come (tokens with one hash and other bytes: other numbers); per number its document, hash, start and end
    (of its first token): (numbers, (g_doc, g_key, g_start, g_end)).  A counting sort by document, then one
    hash table per document."""
    n = len(start)
    first = np.zeros(n_docs + 1, dtype=np.int64)
    for t in range(n):
        first[doc[t] + 1] += 1
    for d in range(n_docs):
        first[d + 1] += first[d]
    order = stable_order(doc, n_docs)
    code = np.empty(n, dtype=np.int64)
    g_doc = np.empty(n, dtype=np.int64)
    g_key = np.empty(n, dtype=np.int64)
    g_start = np.empty(n, dtype=np.int64)
    g_end = np.empty(n, dtype=np.int64)
    table = np.empty(MIN_SLOTS, dtype=np.int64)
    c = 0
    for d in range(n_docs):
        size = _slots(first[d + 1] - first[d])
        if size > len(table):
            table = np.empty(size, dtype=np.int64)
        table[:size] = -1
        mask = size - 1
        for i in range(first[d], first[d + 1]):
            t = order[i]
            k = key[t]
            s = _slot(k, mask)
            while True:
                g = table[s]
                if g < 0:
                    table[s] = c
                    g_doc[c] = d
                    g_key[c] = k
                    g_start[c] = start[t]
                    g_end[c] = end[t]
                    code[t] = c
                    c += 1
                    break
                if g_key[g] == k and same_bytes(buf, g_start[g], g_end[g], buf, start[t], end[t]):
                    code[t] = g
                    break
                s = (s + 1) & mask  # another token, or one with the same hash and other bytes
    return code, (g_doc[:c], g_key[:c], g_start[:c], g_end[:c])


@njit(cache=True)
def span_numbers(first, code, keep):
    """Per span (its tokens ``first[k]:first[k + 1]``) the distinct numbers of the tokens ``keep`` selects,
    sorted (spans hold a few tokens: an insertion sort each): CSR (counts, numbers)."""
    n_spans = len(first) - 1
    counts = np.zeros(n_spans, dtype=np.int64)
    out = np.empty(len(code), dtype=np.int64)
    n = 0
    for k in range(n_spans):
        s = n
        for t in range(first[k], first[k + 1]):
            if not keep[t]:
                continue
            c = code[t]
            i = n
            while i > s and out[i - 1] > c:
                i -= 1
            if i > s and out[i - 1] == c:
                continue
            for j in range(n, i, -1):
                out[j] = out[j - 1]
            out[i] = c
            n += 1
        counts[k] = n - s
    return counts, out[:n]


@njit(cache=True)
def _rstrip_end(tab, s, e):
    """End of the line ``tab[s:e]`` once its trailing white space is dropped as Python 2's ``rstrip`` drops it
    from EvmEval's byte strings (tab to carriage return, space: not 0x1c-0x1f)."""
    while e > s:
        c = tab[e - 1]
        if c == 32 or 9 <= c <= 13:
            e -= 1
        else:
            break
    return e


@njit(cache=True)
def _invisible(tab, s, e, words, word_off):
    """1 when the word ``tab[s:e]``, ASCII letters lowered and ASCII white space stripped (Python 2's reading of
    bytes), is one of ``words``; else 2 when it has a byte outside ASCII (Python 3's ``lower``/``strip`` may
    read it otherwise: --fix-evmeval-quirks, the warning); else 0."""
    wide = 0
    for i in range(s, e):
        if tab[i] >= 128:
            wide = 2
            break
    while s < e and (tab[s] == 32 or 9 <= tab[s] <= 13):
        s += 1
    e = _rstrip_end(tab, s, e)
    for w in range(len(word_off) - 1):
        ws, we = word_off[w], word_off[w + 1]
        if we - ws != e - s:
            continue
        same = True
        for i in range(e - s):
            c = tab[s + i]
            if 65 <= c <= 90:
                c += 32
            if c != words[ws + i]:
                same = False
                break
        if same:
            return 1
    return wide


@njit(cache=True)
def table_lookup(tab, tab_start, tab_end, buf, g_doc, g_key, g_start, g_end, words, word_off):
    """Each document's token table (``tab[tab_start[d]:tab_end[d]]``; empty: none) looked at line by line as
    EvmEval reads it (a line of four fields or more once its trailing white space is dropped: id, word, ...).
    The tokens' groups (by document; each with its hash and the bytes ``buf[g_start:g_end]``): whether the
    table of the group's document has a line with that id (looked up in a hash table of the document's
    groups), and whether the word of any such line is invisible (:func:`_invisible`: 0, 1, or 2 for
    Python 3 to read), as scorer_v1.7.1's ``read_token_ids`` collects them: (found, invisible)."""
    n_groups = len(g_doc)
    found = np.zeros(n_groups, dtype=np.bool_)
    invisible = np.zeros(n_groups, dtype=np.int64)
    table = np.empty(MIN_SLOTS, dtype=np.int64)
    g = 0
    for d in range(len(tab_start)):
        while g < n_groups and g_doc[g] < d:
            g += 1
        lo = g
        hi = g
        while hi < n_groups and g_doc[hi] == d:
            hi += 1
        size = _slots(hi - lo)
        if hi > lo and tab_end[d] > tab_start[d]:
            if size > len(table):
                table = np.empty(size, dtype=np.int64)
            table[:size] = -1
            for a in range(lo, hi):
                s = _slot(g_key[a], size - 1)
                while table[s] >= 0:
                    s = (s + 1) & (size - 1)
                table[s] = a
        p = tab_start[d]
        while p < tab_end[d]:
            q = p  # one pass over the line: its end and its first three tabs
            tabs = 0
            t1 = -1
            t2 = -1
            t3 = -1
            while q < tab_end[d] and tab[q] != NEWLINE:
                if tab[q] == TAB:
                    tabs += 1
                    if tabs == 1:
                        t1 = q
                    elif tabs == 2:
                        t2 = q
                    elif tabs == 3:
                        t3 = q
                q += 1
            if t3 >= 0:  # fewer tabs: skipped however the line ends
                e = _rstrip_end(tab, p, q)
                if t3 < e and hi > lo:  # three tabs before the end once white space is dropped: four fields
                    key = _hash(tab, p, t1)
                    s = _slot(key, size - 1)
                    while table[s] >= 0:
                        a = table[s]
                        if g_key[a] == key and same_bytes(tab, p, t1, buf, g_start[a], g_end[a]):
                            found[a] = True
                            # invisible when any of its lines is (scorer_v1.7.1's set): 1 wins, then 2 (Python)
                            v = _invisible(tab, t1 + 1, t2, words, word_off) if len(word_off) > 1 else 0
                            if v == 1 or (v == 2 and invisible[a] == 0):
                                invisible[a] = v
                            break
                        s = (s + 1) & (size - 1)
            p = q + 1
    return found, invisible
