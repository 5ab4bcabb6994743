"""Byte scanner for Universal Anaphora files (``fastscore.ua.reader``): each line's kind and the cells the UA
scorer reads from it, found as the scorer's ``line.strip()`` and ``line.split()`` find them (Unicode whitespace
included, ``conllu_scan._space``).

The file's bytes (newlines already ``\\n``, valid UTF-8) come as a uint8 array; a line is what lies between two
``\\n``.  Python reads only the cells that hold something (``marked``), a few in a hundred lines.
"""
import numpy as np

from ._jit import njit
from .conllu_scan import _space

LINE_SKIP, LINE_NEWDOC, LINE_TOKEN = 0, 1, 2  # blank or other comment; '# newdoc'; a token line
_HASH, _UNDERSCORE = 35, 95


@njit(cache=True)
def _is_newdoc(data, s, e):
    """Whether data[s:e] starts with ``# newdoc``."""
    word = (35, 32, 110, 101, 119, 100, 111, 99)
    if e - s < 8:
        return False
    for k in range(8):
        if data[s + k] != word[k]:
            return False
    return True


@njit(cache=True)
def _blank(data, s, e):
    """Whether data[s:e] is ``_`` (an empty cell)."""
    return e - s == 1 and data[s] == _UNDERSCORE


@njit(cache=True)
def scan_ua(data, n_lines, column, bridging):
    """Per line (``n_lines``: the ``\\n`` count + 1): its kind (``LINE_*``); where its stripped text starts and
    ends; for token lines the number of whitespace-separated fields, where field ``column`` and field
    ``bridging`` (-1: not read) start and end (-1 where the line is shorter), and whether either holds other
    than ``_`` (``marked``)."""
    kind = np.zeros(n_lines, dtype=np.int8)
    ss = np.zeros(n_lines, dtype=np.int64)
    se = np.zeros(n_lines, dtype=np.int64)
    nf = np.zeros(n_lines, dtype=np.int64)
    cs = np.full(n_lines, -1, dtype=np.int64)
    ce = np.full(n_lines, -1, dtype=np.int64)
    bs = np.full(n_lines, -1, dtype=np.int64)
    be = np.full(n_lines, -1, dtype=np.int64)
    marked = np.zeros(n_lines, dtype=np.bool_)
    n = len(data)
    start = 0
    for line in range(n_lines):
        end = start
        while end < n and data[end] != 10:
            end += 1
        p = start
        fields = 0
        first = -1
        last = start
        while p < end:  # fields: runs of non-whitespace (printable ASCII, the common case, tested here)
            c = data[p]
            w = 0 if 32 < c < 128 else 1 if c == 9 or c == 32 else _space(data, p, end)
            if w > 0:
                p += w
                continue
            f0 = p
            p += 1
            while p < end:
                c = data[p]
                if c == 9 or c == 32 or (not 32 < c < 128 and _space(data, p, end) > 0):
                    break
                p += 1
            if first < 0:
                first = f0
            last = p
            if fields == column:
                cs[line], ce[line] = f0, p
            if fields == bridging:
                bs[line], be[line] = f0, p
            fields += 1
        if first >= 0:
            ss[line], se[line] = first, last
            if data[first] != _HASH:
                kind[line] = LINE_TOKEN
                nf[line] = fields
                marked[line] = ((cs[line] >= 0 and not _blank(data, cs[line], ce[line]))
                                or (bs[line] >= 0 and not _blank(data, bs[line], be[line])))
            elif _is_newdoc(data, first, last):
                kind[line] = LINE_NEWDOC
        start = end + 1
    return kind, ss, se, nf, cs, ce, bs, be, marked
