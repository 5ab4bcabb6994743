"""Token-id spans of TBF mentions and the documents' token tables, for all documents at once.

A span in token mode is token ids separated by commas (``t3,t4``: as Python's ``split(',')`` cuts it);
a token table (``DOCID.tab``) has lines ``id<TAB>word<TAB>begin<TAB>end``.  The kernels cut the spans into
tokens, hash each token's bytes, number equal tokens of a document alike (comparing the bytes: two tokens
of one document with the same hash and other bytes are reported, and that document is read in Python), and
look each table line's id up among the tokens of its document.
"""
import numpy as np
from ._jit import njit
from .byte_spans import same_bytes

NEWLINE, TAB, COMMA = 10, 9, 44
HASH_MOD_A, HASH_MOD_B = 2147483647, 2147483629  # two 31-bit hashes in one int64: products stay below 2**52


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
    a = 0
    b = 0
    for i in range(s, e):
        a = (a * 1000003 + int(buf[i]) + 1) % HASH_MOD_A  # int(): a uint8 sum would wrap in plain Python
        b = (b * 999983 + int(buf[i]) + 1) % HASH_MOD_B
    return a * HASH_MOD_B + b


@njit(cache=True)
def slice_hashes(buf, start, end):
    """A hash of each slice ``buf[start[i]:end[i]]``."""
    out = np.empty(len(start), dtype=np.int64)
    for i in range(len(start)):
        out[i] = _hash(buf, start[i], end[i])
    return out


@njit(cache=True)
def number_tokens(buf, start, end, doc, key, n_docs):
    """Tokens sorted by (document, hash): a number per token, equal for the same bytes in one document
    (numbers grow with the order), and per document whether two of its tokens share a hash with other bytes
    (then the numbers of that document are not to be used): (numbers, clash)."""
    code = np.empty(len(start), dtype=np.int64)
    clash = np.zeros(n_docs, dtype=np.bool_)
    c = -1
    lead = 0
    for i in range(len(start)):
        if i == 0 or doc[i] != doc[i - 1] or key[i] != key[i - 1]:
            c += 1
            lead = i
        elif not same_bytes(buf, start[lead], end[lead], buf, start[i], end[i]):
            clash[doc[i]] = True
        code[i] = c
    return code, clash


@njit(cache=True)
def _rstrip_end(tab, s, e):
    """End of the line ``tab[s:e]`` once its trailing ASCII white space (``str.isspace``) is dropped."""
    while e > s:
        c = tab[e - 1]
        if c == 32 or 9 <= c <= 13 or 28 <= c <= 31:
            e -= 1
        else:
            break
    return e


@njit(cache=True)
def _invisible(tab, s, e, words, word_off):
    """1 when the word ``tab[s:e]``, ASCII letters lowered and white space stripped, is one of ``words``;
    0 when not; 2 when it has a byte outside ASCII (Python's ``lower``/``strip`` decide)."""
    for i in range(s, e):
        if tab[i] >= 128:
            return 2
    while s < e and (tab[s] == 32 or 9 <= tab[s] <= 13 or 28 <= tab[s] <= 31):
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
    return 0


@njit(cache=True)
def table_lookup(tab, tab_start, tab_end, buf, g_doc, g_key, g_start, g_end, words, word_off):
    """Each document's token table (``tab[tab_start[d]:tab_end[d]]``; empty: none) looked at line by line as
    EvmEval reads it (a line of four fields or more once its trailing white space is dropped: id, word, ...).
    The tokens' groups (sorted by document, then hash; each with the bytes ``buf[g_start:g_end]``): whether
    the table of the group's document has a line with that id, and whether the word of its last such line is
    invisible (:func:`_invisible`: 0, 1, or 2 for Python to decide).  Per document: whether a line of three tabs
    or more ends in a byte outside ASCII (white space only Python can tell: that table is read in Python)."""
    n_groups = len(g_doc)
    found = np.zeros(n_groups, dtype=np.bool_)
    invisible = np.zeros(n_groups, dtype=np.int64)
    odd = np.zeros(len(tab_start), dtype=np.bool_)
    g = 0
    for d in range(len(tab_start)):
        while g < n_groups and g_doc[g] < d:
            g += 1
        lo = g
        hi = g
        while hi < n_groups and g_doc[hi] == d:
            hi += 1
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
                if e > p and tab[e - 1] >= 128:
                    odd[d] = True
                if t3 < e and hi > lo:  # three tabs before the end once white space is dropped: four fields
                    key = _hash(tab, p, t1)
                    a = lo
                    b = hi
                    while a < b:  # the first group of the document with a key >= key
                        m = (a + b) // 2
                        if g_key[m] < key:
                            a = m + 1
                        else:
                            b = m
                    if a < hi and g_key[a] == key and same_bytes(tab, p, t1, buf, g_start[a], g_end[a]):
                        found[a] = True
                        invisible[a] = _invisible(tab, t1 + 1, t2, words, word_off) if len(word_off) > 1 else 0
            p = q + 1
    return found, invisible, odd
