"""Character spans of TBF mentions (``b,e;b,e``, ``e`` exclusive), parsed in one pass.

Input: the span fields of many mentions joined by newlines.  Output per
mention: its sorted, unique character offsets (CSR) and its length as
EvmEval counts it (a character in two ranges counts twice), or the index
of the first malformed span.
"""
import numpy as np
from ._jit import njit

NEWLINE, COMMA, SEMICOLON = 10, 44, 59
MAX_DIGITS = 18  # a longer number is refused (no overflow, so the same without the JIT)


@njit(cache=True)
def _bounded_number(buf, p, end):
    """(value, next position) of the digits at p; value -1 when there are none or more than MAX_DIGITS."""
    v = 0
    q = p
    while q < end and 48 <= buf[q] <= 57:
        if q - p == MAX_DIGITS:
            return -1, q
        v = v * 10 + (int(buf[q]) - 48)  # int(): a uint8 sum would wrap in plain Python
        q += 1
    return (v if q > p else -1), q


@njit(cache=True)
def _range(buf, q, end):
    """(begin, end, next position) of the range ``b,e`` at q; begin -1 when there is none."""
    b, q = _bounded_number(buf, q, end)
    if b < 0 or q >= end or buf[q] != COMMA:
        return -1, -1, q
    e, q = _bounded_number(buf, q + 1, end)
    return (b if e >= 0 else -1), e, q


MAX_FIELD = 4000  # a longer offset is an error (Python's int() refuses more than 4,300 digits)


@njit(cache=True)
def _blank(c):
    return c == 32 or 9 <= c <= 13  # Python 2's white space of a byte string


@njit(cache=True)
def _py2_number(buf, p, end):
    """(value, next position) of the field at p (up to a comma, a semicolon or ``end``) read as Python 2's
    ``int()`` reads it (ASCII digits, a sign and white space around them); value -1 when it does not read it, is
    negative, longer than ``MAX_FIELD`` bytes or of more than ``MAX_DIGITS`` digits once leading zeros go."""
    q = p
    while q < end and buf[q] != COMMA and buf[q] != SEMICOLON:
        q += 1
    if q - p > MAX_FIELD:
        return -1, q
    s = p
    while s < q and _blank(buf[s]):
        s += 1
    e = q
    while e > s and _blank(buf[e - 1]):
        e -= 1
    minus = s < e and buf[s] == 45
    if s < e and (buf[s] == 43 or minus):
        s += 1
    if s == e:
        return -1, q
    v = 0
    digits = 0
    for i in range(s, e):
        c = buf[i]
        if not 48 <= c <= 57:
            return -1, q
        if digits == MAX_DIGITS:
            return -1, q
        if digits or c != 48:
            digits += 1
        v = v * 10 + (int(c) - 48)  # int(): a uint8 sum would wrap in plain Python
    return (-1 if minus and v else v), q


@njit(cache=True)
def _py2_range(buf, q, end):
    """(begin, end, next position) of the part ``b,e`` at q (up to a semicolon or ``end``) as EvmEval reads it:
    ``part.split(",")``, its first two fields through :func:`_py2_number` (a third and more: not read); begin -1
    when it does not read."""
    b, q = _py2_number(buf, q, end)
    if b < 0 or q >= end or buf[q] != COMMA:
        return -1, -1, q
    e, q = _py2_number(buf, q + 1, end)
    while q < end and buf[q] != SEMICOLON:  # fields after the second
        q += 1
    return (b if e >= 0 else -1), e, q


FULL = -2  # parse_char_spans: call again with a larger ``cap``
MAX_MENTION_CHARS = 1 << 20  # characters one mention may list (fastscore.nugget.engine checks the same in Python)


@njit(cache=True)
def parse_char_spans(buf, n_mentions, cap):
    """(offsets, characters, lengths, the first malformed mention or -1, or FULL when more than ``cap``
    characters).  Offsets are read as EvmEval reads them (:func:`_py2_range`); a mention listing more than
    ``MAX_MENTION_CHARS`` characters, or an offset EvmEval refuses, is negative, or of more than ``MAX_DIGITS``
    digits, is malformed here (``nugget.engine._chars`` names the problem).  Arrays are sized up
    front, never regrown in the loop (an array variable assigned there costs reference counting at every
    step)."""
    off = np.zeros(n_mentions + 1, dtype=np.int64)
    lengths = np.zeros(n_mentions, dtype=np.float64)
    vals = np.empty(cap, dtype=np.int64)
    n = 0
    p = 0
    for k in range(n_mentions):
        end = p
        while end < len(buf) and buf[end] != NEWLINE:
            end += 1
        start_k = n
        q = p
        while True:
            b, e, r = _range(buf, q, end)  # plain digits: the files as written
            if b < 0 or (r < end and buf[r] != SEMICOLON):
                b, e, r = _py2_range(buf, q, end)
            q = r
            if b < 0 or n - start_k + max(e - b, 0) > MAX_MENTION_CHARS:
                return off, vals[:0], lengths, k
            if n + max(e - b, 0) > cap:
                return off, vals[:0], lengths, FULL
            for c in range(b, e):
                vals[n] = c
                n += 1
            if q == end:
                break
            if buf[q] != SEMICOLON:
                return off, vals[:0], lengths, k
            q += 1
        lengths[k] = n - start_k
        # sort (insertion: a mention has few characters) and drop repeats
        for i in range(start_k + 1, n):
            x = vals[i]
            j = i - 1
            while j >= start_k and vals[j] > x:
                vals[j + 1] = vals[j]
                j -= 1
            vals[j + 1] = x
        w = start_k
        for i in range(start_k, n):
            if i == start_k or vals[i] != vals[w - 1]:
                vals[w] = vals[i]
                w += 1
        n = w
        off[k + 1] = n
        p = end + 1
    return off, vals[:n], lengths, -1


HASH_MOD = 2147483647


@njit(cache=True)
def span_keys(buf, n_spans):
    """Per span (spans joined by newlines): whether it is plain ``b,e;b,e`` digits and, if so, a hash of
    the characters it covers (its ranges sorted and merged, empty ones dropped): two spans covering the
    same characters have the same hash.  Any other span: ok False, hash 0."""
    keys = np.zeros(n_spans, dtype=np.int64)
    ok = np.zeros(n_spans, dtype=np.bool_)
    cap = 1  # ranges of one span: at most one more than the semicolons of all
    for c in buf:
        if c == SEMICOLON:
            cap += 1
    bs = np.empty(cap, dtype=np.int64)
    es = np.empty(cap, dtype=np.int64)
    p = 0
    for k in range(n_spans):
        end = p
        while end < len(buf) and buf[end] != NEWLINE:
            end += 1
        n = 0
        q = p
        good = True
        while True:
            b, e, q = _range(buf, q, end)
            if b < 0:
                good = False
                break
            bs[n] = b
            es[n] = e
            n += 1
            if q == end:
                break
            if buf[q] != SEMICOLON:
                good = False
                break
            q += 1
        p = end + 1
        if not good:
            continue
        for i in range(1, n):  # insertion sort by (begin, end): few ranges
            b, e = bs[i], es[i]
            j = i - 1
            while j >= 0 and (bs[j] > b or (bs[j] == b and es[j] > e)):
                bs[j + 1] = bs[j]
                es[j + 1] = es[j]
                j -= 1
            bs[j + 1] = b
            es[j + 1] = e
        h = 0
        last_b = -1
        last_e = -1
        for i in range(n):
            b, e = bs[i], es[i]
            if b >= e:
                continue
            if last_e >= 0 and b <= last_e:
                last_e = max(last_e, e)
                continue
            if last_e >= 0:
                h = (h * 1000003 + last_b % HASH_MOD) % HASH_MOD
                h = (h * 1000003 + last_e % HASH_MOD) % HASH_MOD
            last_b = b
            last_e = e
        if last_e >= 0:
            h = (h * 1000003 + last_b % HASH_MOD) % HASH_MOD
            h = (h * 1000003 + last_e % HASH_MOD) % HASH_MOD
        keys[k] = h
        ok[k] = True
    return keys, ok
