"""Character spans of TBF mentions (``b,e;b,e``, ``e`` exclusive), parsed in one pass.

Input: the span fields of many mentions joined by newlines.  Output per
mention: its sorted, unique character offsets (CSR) and its length as
EvmEval counts it (a character in two ranges counts twice), or the index
of the first malformed span.
"""
import numpy as np
from ._jit import njit

NEWLINE, COMMA, SEMICOLON = 10, 44, 59


@njit(cache=True)
def _number(buf, p, end):
    """(value, next position) of the digits at p; value -1 when there are none."""
    v = 0
    q = p
    while q < end and 48 <= buf[q] <= 57:
        v = v * 10 + (buf[q] - 48)
        q += 1
    return (v if q > p else -1), q


@njit(cache=True)
def parse_char_spans(buf, n_mentions):
    off = np.zeros(n_mentions + 1, dtype=np.int64)
    lengths = np.zeros(n_mentions, dtype=np.float64)
    cap = max(16, len(buf))
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
            b, q = _number(buf, q, end)
            if b < 0 or q >= end or buf[q] != COMMA:
                return off, vals[:0], lengths, k
            e, q = _number(buf, q + 1, end)
            if e < 0:
                return off, vals[:0], lengths, k
            for c in range(b, e):
                if n == cap:
                    cap *= 2
                    vals = np.concatenate((vals, np.empty(cap - n, dtype=np.int64)))
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
