"""Byte-level scanning of TBF event nugget files (the reader is ``fastscore.formats.tbf``).

``scan_lines`` classifies every line and gives the bounds of its fields (see its docstring).  A file it
cannot read exactly as the line-by-line reader does (a mention line with fewer than 7 fields, a mention or
relation line outside a document, a relation line without exactly 3 fields or with an empty mention id, a line
starting or ending with a non-ASCII byte, which may be Unicode white space) comes back with ``status`` set to
its line number: the reader then parses that file line by line, which writes the message.
``gather``: byte fields joined by newlines (one decode and one split in Python make the column).
"""
import numpy as np

from ._jit import njit
from .byte_spans import starts_with
from .conll_scan import intern_fields  # noqa: F401 (ids of equal byte strings: shared with the CoNLL readers)

BEGIN, END = 2, 3
N_FIELDS = 7  # fields of a mention line the reader keeps: system, document, id, span, text, type, realis


@njit(cache=True)
def _space(b):
    """ASCII white space as Python's ``str.strip`` sees it (tab to carriage return, 0x1c-0x1f, space)."""
    return (9 <= b <= 13) or (28 <= b <= 32)


@njit(cache=True)
def _relation_fields(buf, s, e, out):
    """Bounds of the 3 tab-separated fields of the relation line buf[s:e] (stripped, '@' at s) after
    the '@' and its white space, into out[0:6], and the number of mention ids; -1 when the line is
    irregular (another number of fields, an empty mention id, a non-ASCII byte after the '@')."""
    p = s + 1
    while p < e and _space(buf[p]):
        p += 1
    if p == e or buf[p] >= 128:
        return -1
    f = 0
    out[0] = p
    for c in range(p, e):
        if buf[c] == 9:
            if f == 2:
                return -1
            out[2 * f + 1] = c
            f += 1
            out[2 * f] = c + 1
    if f != 2:
        return -1
    out[5] = e
    n_args = 1
    if out[4] == e or buf[out[4]] == 44 or buf[e - 1] == 44:  # ','
        return -1
    for c in range(out[4] + 1, e):
        if buf[c] == 44:
            if buf[c - 1] == 44:
                return -1
            n_args += 1
    return n_args


@njit(cache=True)
def scan_lines(buf, begin, end):
    """(status, mentions, documents, relations) of a file (see the module); status 0, or the 1-based
    number of the first line the scan does not read.  ``mentions``: per mention line, in file order,
    its line index and the bounds of its first N_FIELDS fields ((N_FIELDS, n) arrays).  ``documents``:
    per ``#BeginOfDocument`` and ``#EndOfDocument`` line, its line index, kind, bounds (after
    stripping) and the numbers of mention and relation lines before it ((6, n)).  ``relations``: per relation
    line, its line index, the bounds of its 3 fields ((6, n): name, id, mention ids) and its number of
    mention ids."""
    n = 1
    for p in range(len(buf)):
        if buf[p] == 10:
            n += 1
    m_line = np.empty(n, dtype=np.int64)
    fs = np.empty((N_FIELDS, n), dtype=np.int64)
    fe = np.empty((N_FIELDS, n), dtype=np.int64)
    docs = np.empty((6, n), dtype=np.int64)  # line, kind, start, end, mention and relation lines before
    r_line = np.empty(n, dtype=np.int64)
    r_bounds = np.empty((6, n), dtype=np.int64)
    r_args = np.empty(n, dtype=np.int64)
    out = np.empty(6, dtype=np.int64)
    m = 0
    n_docs = 0
    n_rels = 0
    in_doc = False
    status = 0
    p = 0
    for k in range(n):
        q = p
        while q < len(buf) and buf[q] != 10:
            q += 1
        s, e = p, q
        p = q + 1
        while s < e and _space(buf[s]):
            s += 1
        while e > s and _space(buf[e - 1]):
            e -= 1
        if s == e:
            continue
        if buf[s] >= 128 or buf[e - 1] >= 128:
            status = k + 1
            break
        first = buf[s]
        if first == 35:  # '#'
            if starts_with(buf, s, e, begin):
                kind = BEGIN
                in_doc = True
            elif starts_with(buf, s, e, end):
                kind = END
                in_doc = False
            else:
                continue  # a comment
            docs[0, n_docs] = k
            docs[1, n_docs] = kind
            docs[2, n_docs] = s
            docs[3, n_docs] = e
            docs[4, n_docs] = m
            docs[5, n_docs] = n_rels
            n_docs += 1
            continue
        if not in_doc:
            status = k + 1
            break
        if first == 64:  # '@'
            n_args = _relation_fields(buf, s, e, out)
            if n_args < 0:
                status = k + 1
                break
            r_line[n_rels] = k
            r_bounds[:, n_rels] = out
            r_args[n_rels] = n_args
            n_rels += 1
            continue
        f = 0
        fs[0, m] = s
        for c in range(s, e):
            if buf[c] == 9:
                fe[f, m] = c
                f += 1
                if f == N_FIELDS:
                    break
                fs[f, m] = c + 1
        if f < N_FIELDS:
            if f < N_FIELDS - 1:
                status = k + 1
                break
            fe[f, m] = e
        m_line[m] = k
        m += 1
    return (status, (m_line[:m], fs[:, :m], fe[:, :m]), docs[:, :n_docs],
            (r_line[:n_rels], r_bounds[:, :n_rels], r_args[:n_rels]))


@njit(cache=True)
def gather(buf, fs, fe):
    """The fields ``buf[fs[i]:fe[i]]`` joined by newlines (none after the last)."""
    n = len(fs)
    size = 0
    for i in range(n):
        size += fe[i] - fs[i] + 1
    out = np.empty(max(size - 1, 0), dtype=np.uint8)
    w = 0
    for i in range(n):
        if i > 0:
            out[w] = 10
            w += 1
        for q in range(fs[i], fe[i]):
            out[w] = buf[q]
            w += 1
    return out
