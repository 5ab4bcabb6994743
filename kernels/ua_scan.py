"""Byte scanner for Universal Anaphora files (``fastscore.ua.reader``): the token and ``# newdoc`` lines and the
cells the UA scorer reads from them, found as the scorer's ``line.strip()`` and ``line.split()`` find them
(Unicode whitespace included, ``conllu_scan._space``); then the markables of the cells that hold something.

The file's bytes (newlines already ``\\n``, valid UTF-8) come as a uint8 array; a line is what lies between two
``\\n``.  Python reads only the cells that hold something (``marks``), a few in a hundred lines.
"""
import numpy as np

from ._jit import njit
from .byte_spans import ascii_number, find_byte, same_bytes
from .conllu_scan import _space

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


MARK_CELL, MARK_BRIDGING = 1, 2  # a token line's marks: its IDENTITY (or DEIXIS) cell, its BRIDGING cell, holds other than _


@njit(cache=True)
def scan_ua(data, column, bridging):
    """The token lines and ``# newdoc`` lines of the file, in one pass over its bytes (no array per line: a file
    is mostly token lines, and a few in a hundred hold something).

    Per token line (stripped text not starting with ``#``): its line number (0-based), its number of
    whitespace-separated fields (``nf``), where field ``column`` and field ``bridging`` (-1: not read) start and
    end (-1 where the line is shorter), and ``marks`` (``MARK_CELL`` | ``MARK_BRIDGING``: which of them holds
    other than ``_``).  Per ``# newdoc`` line: its line number and where its stripped text starts and ends."""
    n = len(data)
    n_lines = 1
    for k in range(n):  # a counting loop the compiler vectorises
        n_lines += data[k] == 10
    tokens = np.empty(n_lines, dtype=np.int64)
    nf = np.empty(n_lines, dtype=np.int64)
    cs = np.empty(n_lines, dtype=np.int64)
    ce = np.empty(n_lines, dtype=np.int64)
    bs = np.empty(n_lines, dtype=np.int64)
    be = np.empty(n_lines, dtype=np.int64)
    marks = np.empty(n_lines, dtype=np.int8)
    newdocs = np.empty(n_lines, dtype=np.int64)
    ns = np.empty(n_lines, dtype=np.int64)
    ne = np.empty(n_lines, dtype=np.int64)
    n_tokens = 0
    n_newdocs = 0
    start = 0
    for line in range(n_lines):
        end = find_byte(data, start, n, 10)
        p = start
        fields = 0
        first = -1
        last = start
        c0 = c1 = b0 = b1 = -1
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
                c0, c1 = f0, p
            if fields == bridging:
                b0, b1 = f0, p
            fields += 1
        if first >= 0:
            if data[first] != _HASH:
                t = n_tokens
                tokens[t], nf[t], cs[t], ce[t], bs[t], be[t] = line, fields, c0, c1, b0, b1
                marks[t] = ((MARK_CELL if c0 >= 0 and not _blank(data, c0, c1) else 0)
                            | (MARK_BRIDGING if b0 >= 0 and not _blank(data, b0, b1) else 0))
                n_tokens += 1
            elif _is_newdoc(data, first, last):
                newdocs[n_newdocs], ns[n_newdocs], ne[n_newdocs] = line, first, last
                n_newdocs += 1
        start = end + 1
    t, d = n_tokens, n_newdocs
    return tokens[:t], nf[:t], cs[:t], ce[:t], bs[:t], be[:t], marks[:t], newdocs[:d], ns[:d], ne[:d]


MISSING = -1  # a field not given in an annotation
_MARKABLE_ID, _ENTITY_ID, _MIN, _ELEMENT_OF = 1, 2, 3, 4
# the fields the reader needs, their names' bytes one after another (code k: _NAME_ENDS[k-1]:_NAME_ENDS[k])
_NAMES = np.frombuffer(b"MarkableIDEntityIDMinElementOf", dtype=np.uint8)
_NAME_ENDS = np.array([0, 10, 18, 21, 30], dtype=np.int64)


@njit(cache=True)
def _field_name(data, s, e):
    """Which of the fields the reader needs data[s:e] names (0: none)."""
    for code in range(1, len(_NAME_ENDS)):
        if same_bytes(data, s, e, _NAMES, _NAME_ENDS[code - 1], _NAME_ENDS[code]):
            return code
    return 0


@njit(cache=True)
def parse_markables(data, row_s, row_e, row_line, row_index, doc_rows, with_min):
    """The markables of the IDENTITY (or DEIXIS) cells, read as ``reader.read_document`` reads them, document by
    document: per marked token line, the documents' one after another (``doc_rows``: offsets), where its cell
    starts and ends (``row_s``, ``row_e``; -1: none), its line number (0-based, ``row_line``) and its token number
    in its document (``row_index``).

    Per markable (the MarkableIDs of a document in the order of their first appearance, ``mk_off``: offsets per
    document): its MarkableID's bytes (``id_s``, ``id_e``), first and last token, EntityID's bytes and opening
    line (of its last reading), and with ``with_min`` its Min's two numbers as written (1-based; -1: no Min).
    Per ElementOf field (``el_off`` per document): the markable's number in its document and the value's bytes.
    ``bad``: the documents the kernel leaves to the reader's Python path (a closing bracket with nothing open, a
    missing MarkableID or EntityID, a markable never closed, a Min other than one or two plain numbers): there
    the scorer crashes or Python reads what the kernel does not, and the Python path words the error."""
    n_docs = len(doc_rows) - 1
    total = 0
    for r in range(len(row_line)):
        for k in range(row_s[r], row_e[r]):  # an annotation opens at each '('
            if data[k] == 40:
                total += 1
    bad = np.zeros(n_docs, dtype=np.bool_)
    mk_off = np.zeros(n_docs + 1, dtype=np.int64)
    el_off = np.zeros(n_docs + 1, dtype=np.int64)
    id_s = np.empty(total, dtype=np.int64)
    id_e = np.empty(total, dtype=np.int64)
    first = np.empty(total, dtype=np.int64)
    last = np.empty(total, dtype=np.int64)
    ent_s = np.empty(total, dtype=np.int64)
    ent_e = np.empty(total, dtype=np.int64)
    opened = np.empty(total, dtype=np.int64)
    min_a = np.full(total, MISSING, dtype=np.int64)
    min_b = np.full(total, MISSING, dtype=np.int64)
    el_of = np.empty(total, dtype=np.int64)
    el_s = np.empty(total, dtype=np.int64)
    el_e = np.empty(total, dtype=np.int64)
    size = 16
    while size < 2 * total:
        size *= 2
    table = np.full(size, -1, dtype=np.int64)  # MarkableID hash slot -> its markable (open addressing)
    used = np.empty(total, dtype=np.int64)  # the slots a document filled, cleared after it
    stack = np.empty(total, dtype=np.int64)
    n_mk = 0
    n_el = 0
    for d in range(n_docs):
        base, el_base, n_used, depth, ok = n_mk, n_el, 0, 0, True
        for r in range(doc_rows[d], doc_rows[d + 1]):
            line = row_line[r]
            s, e, index = row_s[r], row_e[r], row_index[r]
            if s < 0 or _blank(data, s, e):
                continue
            p = s
            while p < e and data[p] != 40:  # each character before the first '(' closes the last open markable
                if data[p] & 0xC0 != 0x80:  # not a UTF-8 continuation byte: a character starts here
                    if depth == 0:
                        ok = False
                        break
                    depth -= 1
                    last[stack[depth]] = index
                p += 1
            while ok and p < e:  # data[p] is '(': an annotation up to the next '('
                a = p + 1
                b = find_byte(data, a, e, 40)
                single = b > a and data[b - 1] == 41
                stop = b - 1 if single else b
                mid_s = mid_e = es = ee = ms = me = of_s = of_e = -1
                part = a
                while True:  # its '|'-separated parts: name=value, or (no '=') name the part less its last byte
                    q = find_byte(data, part, stop, 124)
                    t = find_byte(data, part, q, 61)
                    if t < q:
                        name_e, vs, ve = t, t + 1, q
                    else:
                        name_e, vs, ve = max(part, q - 1), part, q
                    field = _field_name(data, part, name_e)
                    if field == _MARKABLE_ID:
                        mid_s, mid_e = vs, ve
                    elif field == _ENTITY_ID:
                        es, ee = vs, ve
                    elif field == _MIN:
                        ms, me = vs, ve
                    elif field == _ELEMENT_OF:
                        of_s, of_e = vs, ve
                    if q >= stop:
                        break
                    part = q + 1
                p = b
                if mid_s < 0 or es < 0:
                    ok = False
                    break
                h = 5381
                for k in range(mid_s, mid_e):
                    h = (h * 33 + np.int64(data[k])) & 0x7FFFFFFFFFFF
                slot = h & (size - 1)
                m = -1
                while table[slot] >= 0:
                    if same_bytes(data, id_s[table[slot]], id_e[table[slot]], data, mid_s, mid_e):
                        m = table[slot]
                        break
                    slot = (slot + 1) & (size - 1)
                if m < 0:
                    m = n_mk
                    n_mk += 1
                    table[slot] = m
                    used[n_used] = slot
                    n_used += 1
                    id_s[m], id_e[m], last[m] = mid_s, mid_e, -1
                ent_s[m], ent_e[m], first[m], opened[m] = es, ee, index, line + 1
                if single:
                    last[m] = index
                else:
                    stack[depth] = m
                    depth += 1
                if with_min:
                    min_a[m] = min_b[m] = MISSING
                    if ms >= 0:
                        comma = find_byte(data, ms, me, 44)
                        min_a[m] = ascii_number(data, ms, comma, 18)
                        min_b[m] = ascii_number(data, comma + 1, me, 18) if comma < me else min_a[m]
                        if min_a[m] < 0 or min_b[m] < 0:
                            ok = False
                            break
                if of_s >= 0:
                    el_of[n_el], el_s[n_el], el_e[n_el] = m - base, of_s, of_e
                    n_el += 1
            if not ok:
                break
        for m in range(base, n_mk):
            if last[m] < 0:
                ok = False
        for k in range(n_used):
            table[used[k]] = -1
        if not ok:
            bad[d] = True
            n_mk, n_el = base, el_base
        mk_off[d + 1] = n_mk
        el_off[d + 1] = n_el
    return (bad, mk_off, id_s[:n_mk], id_e[:n_mk], first[:n_mk], last[:n_mk], ent_s[:n_mk], ent_e[:n_mk],
            opened[:n_mk], min_a[:n_mk], min_b[:n_mk], el_off, el_of[:n_el], el_s[:n_el], el_e[:n_el])
