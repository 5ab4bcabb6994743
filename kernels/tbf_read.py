"""Byte-level reading of TBF event nugget files (the reader is ``fastscore.formats.tbf``).

``scan_lines`` reads every line as EvmEval's reader (Python 2, bytes) does: a line loses its ASCII white space
at both ends (``" \\t\\n\\r\\x0b\\x0c"``), then is blank, a comment, a ``#BeginOfDocument`` or ``#EndOfDocument``,
a relation line (``@``) or a mention line.  It gives the bounds of the fields of the mention and relation lines
and, as events in line order, everything else the reader needs to write its messages: the document lines, the
lines outside a document, mention lines with too few fields, relation lines without 3 fields, and lines with
Unicode white space (or 0x1c-0x1f, which Python 3 strips and EvmEval keeps) at an edge.
``gather``: byte fields joined by newlines (one decode and one split in Python make the column).
"""
import numpy as np

from ._jit import njit
from .byte_spans import starts_with
from .conll_scan import intern_fields  # noqa: F401 (ids of equal byte strings: shared with the CoNLL readers)

# event kinds: a document line, a mention or relation line outside a document, a mention line with fewer than
# N_FIELDS fields, a relation line without 3 fields, a line with Unicode white space at an edge (EDGE: read on;
# BLANK: nothing else, skipped)
BEGIN, END, OUTSIDE, SHORT, BAD_RELATION, EDGE, BLANK = 2, 3, 4, 5, 6, 7, 8
N_FIELDS = 7  # fields of a mention line the reader keeps: system, document, id, span, text, type, realis


@njit(cache=True)
def _blank(b):
    """ASCII white space as Python 2's ``str.strip`` (bytes) sees it: tab to carriage return, space."""
    return (9 <= b <= 13) or b == 32


@njit(cache=True)
def is_space(c):
    """``str.isspace`` of the code point ``c`` (Python 3's white space: ASCII, 0x1c-0x1f, and Unicode's)."""
    return ((9 <= c <= 13) or (28 <= c <= 32) or c == 0x85 or c == 0xA0 or c == 0x1680 or (0x2000 <= c <= 0x200A)
            or c == 0x2028 or c == 0x2029 or c == 0x202F or c == 0x205F or c == 0x3000)


@njit(cache=True)
def _code_point(buf, p, e):
    """(code point, length) of the UTF-8 character starting at ``buf[p]`` (ending by ``e``); a byte that starts
    none: itself, length 1."""
    b = int(buf[p])
    if b < 0xC0:
        return b, 1
    n = 2 if b < 0xE0 else 3 if b < 0xF0 else 4
    if p + n > e:
        return b, 1
    c = b & (0x3F >> (n - 1))
    for q in range(p + 1, p + n):
        c = (c << 6) | (int(buf[q]) & 0x3F)
    return c, n


@njit(cache=True)
def _edge_space(buf, s, e):
    """Whether the stripped line ``buf[s:e]`` starts or ends with a character that ``str.isspace``."""
    first, _ = _code_point(buf, s, e)
    if is_space(first):
        return True
    q = e - 1
    while q > s and e - q < 4 and (int(buf[q]) & 0xC0) == 0x80:  # back to the last character's first byte
        q -= 1
    last, _ = _code_point(buf, q, e)
    return is_space(last)


@njit(cache=True)
def _all_space(buf, s, e):
    """Whether every character of ``buf[s:e]`` is white space (``str.isspace``)."""
    p = s
    while p < e:
        c, n = _code_point(buf, p, e)
        if not is_space(c):
            return False
        p += n
    return True


@njit(cache=True)
def _event(events, n, line, kind, s, e, n_mentions, n_relations, count):
    """``events`` with one more event at column ``n`` (grown when full)."""
    if n == events.shape[1]:
        grown = np.empty((7, 2 * n + 16), dtype=np.int64)
        grown[:, :n] = events
        events = grown
    events[0, n] = line
    events[1, n] = kind
    events[2, n] = s
    events[3, n] = e
    events[4, n] = n_mentions
    events[5, n] = n_relations
    events[6, n] = count
    return events


@njit(cache=True)
def scan_lines(buf, begin, end):
    """(mentions, events, relations) of a file (see the module).  ``mentions``: per mention line of at least
    N_FIELDS fields, in file order, its line index and the bounds of its first N_FIELDS fields ((N_FIELDS, n)
    arrays).  ``events``: (7, n) — line index, kind, bounds of the stripped line, the numbers of mention and
    relation lines before it, and a count: the fields of a SHORT line, of a BAD_RELATION line.  ``relations``:
    per relation line of 3 fields, its line index and the bounds of its fields ((6, n): name, id, mention ids)
    after the '@' and its white space."""
    n = 1
    for p in range(len(buf)):
        if buf[p] == 10:
            n += 1
    m_line = np.empty(n, dtype=np.int64)
    fs = np.empty((N_FIELDS, n), dtype=np.int64)
    fe = np.empty((N_FIELDS, n), dtype=np.int64)
    events = np.empty((7, 64), dtype=np.int64)
    r_line = np.empty(n, dtype=np.int64)
    r_bounds = np.empty((6, n), dtype=np.int64)
    m = 0
    n_events = 0
    n_rels = 0
    in_doc = False
    p = 0
    for k in range(n):
        q = p
        while q < len(buf) and buf[q] != 10:
            q += 1
        s, e = p, q
        p = q + 1
        while s < e and _blank(buf[s]):
            s += 1
        while e > s and _blank(buf[e - 1]):
            e -= 1
        if s == e:
            continue
        a, z = buf[s], buf[e - 1]
        if (a >= 128 or 28 <= a <= 31 or z >= 128 or 28 <= z <= 31) and _edge_space(buf, s, e):
            blank = _all_space(buf, s, e)
            events = _event(events, n_events, k, BLANK if blank else EDGE, s, e, m, n_rels, 0)
            n_events += 1
            if blank:
                continue
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
            events = _event(events, n_events, k, kind, s, e, m, n_rels, 0)
            n_events += 1
            continue
        if not in_doc:
            events = _event(events, n_events, k, OUTSIDE, s, e, m, n_rels, 0)
            n_events += 1
        if first == 64:  # '@': 3 tab-separated fields after it and its white space
            c = s + 1
            while c < e and _blank(buf[c]):
                c += 1
            f = 0
            r_bounds[0, n_rels] = c
            for t in range(c, e):
                if buf[t] == 9:
                    if f < 2:
                        r_bounds[2 * f + 1, n_rels] = t
                        r_bounds[2 * f + 2, n_rels] = t + 1
                    f += 1
            if f != 2:
                events = _event(events, n_events, k, BAD_RELATION, s, e, m, n_rels, f + 1)
                n_events += 1
                continue
            r_bounds[5, n_rels] = e
            r_line[n_rels] = k
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
        if f < N_FIELDS - 1:
            events = _event(events, n_events, k, SHORT, s, e, m, n_rels, f + 1)
            n_events += 1
            continue
        if f < N_FIELDS:
            fe[f, m] = e
        m_line[m] = k
        m += 1
    return (m_line[:m], fs[:, :m], fe[:, :m]), events[:, :n_events], (r_line[:n_rels], r_bounds[:, :n_rels])


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
