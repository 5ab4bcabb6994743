"""Byte-level scanning of CoNLL coreference files.

``classify_lines``: per line, its kind and the bounds of its last column.
``bracket_items``: the bracket items of the coreference columns, in v8.01's
processing order per token (one-token mentions, openings, closings), with a
numeric code per label (exact for digit labels, leading zeros included).
``v801_read_lines``: the lines whose column v8.01 reads otherwise than item by item.
``pair_brackets``: chains by first appearance and mentions (LIFO pairing
per chain) for every document.  Errors come back as codes with the item
that caused them; the Python reader writes the message.
"""
import numpy as np
from ._jit import njit

from .byte_spans import same_bytes
from .order import stable_order, take

BLANK, DIRECTIVE, TOKEN, TOKEN_BRACKETS = 0, 1, 2, 3
SINGLE, OPEN, CLOSE = 0, 1, 2
# bracket_items error codes
ERR_EMPTY_LABEL, ERR_UNEXPECTED = 1, 2
# pair_brackets error codes
ERR_NOT_OPENED, ERR_NOT_CLOSED = 1, 2
LEN_SHIFT = 56  # digit-label code: value + (length << LEN_SHIFT), so "07" != "7"
MAX_DIGITS = 15


@njit(cache=True)
def _space(b):
    return b == 32 or b == 9 or b == 13 or b == 11 or b == 12


@njit(cache=True)
def classify_lines(buf, starts, ends):
    """kind, column start, column end per line (see module constants)."""
    n = len(starts)
    kind = np.zeros(n, dtype=np.int8)
    col_s = np.zeros(n, dtype=np.int64)
    col_e = np.zeros(n, dtype=np.int64)
    for k in range(n):
        s, e = starts[k], ends[k]
        while e > s and _space(buf[e - 1]):
            e -= 1
        if e == s:
            continue
        if buf[s] == 35:  # '#'
            kind[k] = DIRECTIVE
            continue
        tab = -1
        ws = -1
        for p in range(e - 1, s - 1, -1):
            if buf[p] == 9:
                tab = p
                break
            if ws < 0 and _space(buf[p]):
                ws = p
        if tab >= 0:
            c = tab + 1
            while c < e and _space(buf[c]):
                c += 1
        else:
            c = ws + 1 if ws >= 0 else s
        col_s[k] = c
        col_e[k] = e
        kind[k] = TOKEN
        for p in range(c, e):
            if buf[p] == 40 or buf[p] == 41:  # '(' ')'
                kind[k] = TOKEN_BRACKETS
                break
    return kind, col_s, col_e


@njit(cache=True)
def _label_code(buf, s, e):
    """Exact code of a digit label; -1 for anything else (resolved by the caller)."""
    if e - s > MAX_DIGITS:
        return np.int64(-1)
    v = np.int64(0)
    for p in range(s, e):
        d = buf[p] - 48
        if d < 0 or d > 9:
            return np.int64(-1)
        v = v * 10 + d
    return v + (np.int64(e - s) << LEN_SHIFT)


@njit(cache=True)
def _is_stop(b):
    return b == 40 or b == 41 or b == 124  # ( ) |


@njit(cache=True)
def _line_items(buf, s, e, kinds, ls, le):
    """Items of one column in written order; returns (count, error)."""
    n = 0
    i = s
    while i < e:
        b = buf[i]
        if b == 124:
            i += 1
            continue
        if b == 40:
            j = i + 1
            while j < e and not _is_stop(buf[j]):
                j += 1
            if j == i + 1:
                return n, ERR_EMPTY_LABEL
            ls[n] = i + 1
            le[n] = j
            if j < e and buf[j] == 41:
                kinds[n] = SINGLE
                i = j + 1
            else:
                kinds[n] = OPEN
                i = j
            n += 1
        else:
            j = i
            while j < e and not _is_stop(buf[j]):
                j += 1
            if j < e and buf[j] == 41:
                if j == i:
                    return n, ERR_EMPTY_LABEL
                ls[n] = i
                le[n] = j
                kinds[n] = CLOSE
                n += 1
                i = j + 1
            elif j == e and (j - i == 1 and (buf[i] == 45 or buf[i] == 95)):  # '-' '_'
                i = j
            else:
                return n, ERR_UNEXPECTED
    return n, 0


@njit(cache=True)
def bracket_items(buf, lines, col_s, col_e):
    """Items of the given lines, per line ordered singles, opens, closes.

    Returns (item_line, item_kind, label_start, label_end, label_code,
    error, error_line); ``error_line`` indexes ``lines``.
    """
    cap = 0
    for k in range(len(lines)):
        for p in range(col_s[lines[k]], col_e[lines[k]]):
            if buf[p] == 40 or buf[p] == 41:
                cap += 1
    item_line = np.empty(cap, dtype=np.int64)
    item_kind = np.empty(cap, dtype=np.int8)
    lab_s = np.empty(cap, dtype=np.int64)
    lab_e = np.empty(cap, dtype=np.int64)
    code = np.empty(cap, dtype=np.int64)
    kinds = np.empty(cap, dtype=np.int8)
    ls = np.empty(cap, dtype=np.int64)
    le = np.empty(cap, dtype=np.int64)
    n = 0
    for k in range(len(lines)):
        line = lines[k]
        m, err = _line_items(buf, col_s[line], col_e[line], kinds, ls, le)
        if err:
            return item_line[:n], item_kind[:n], lab_s[:n], lab_e[:n], code[:n], err, k
        for want in (SINGLE, OPEN, CLOSE):
            for t in range(m):
                if kinds[t] == want:
                    item_line[n] = line
                    item_kind[n] = want
                    lab_s[n] = ls[t]
                    lab_e[n] = le[t]
                    code[n] = _label_code(buf, ls[t], le[t])
                    n += 1
    return item_line[:n], item_kind[:n], lab_s[:n], lab_e[:n], code[:n], 0, -1


@njit(cache=True)
def v801_read_lines(buf, lines, col_s, col_e):
    """Per line, whether v8.01 may read its column otherwise than item by item (the reader then reads it
    as v8.01 does): only digits, brackets, '|' and '+', with a '+' or two items back to back."""
    out = np.zeros(len(lines), dtype=np.bool_)
    for k in range(len(lines)):
        s, e = col_s[lines[k]], col_e[lines[k]]
        plain = True
        joined = False
        for p in range(s, e):
            b = buf[p]
            digit = b >= 48 and b <= 57
            if not (digit or b == 40 or b == 41 or b == 124 or b == 43):
                plain = False
                break
            if b == 43 or (p > s and ((b == 40 and (buf[p - 1] == 41 or (buf[p - 1] >= 48 and buf[p - 1] <= 57)))
                                      or (digit and buf[p - 1] == 41))):
                joined = True
        out[k] = plain and joined
    return out


@njit(cache=True)
def _pair_doc(kind, label, token, chain_of, chain, m_chain, m_start, m_end, prev):
    """One document: chain index per item (labels numbered by first appearance) and its mentions.

    ``chain_of`` maps labels to chains (-1: not seen) and is reset before returning.
    Returns (n_chains, error, error item).  Mentions come in completion order.
    """
    n = len(kind)
    n_chains = 0
    for t in range(n):
        if chain_of[label[t]] < 0:
            chain_of[label[t]] = n_chains
            n_chains += 1
        chain[t] = chain_of[label[t]]
    for t in range(n):
        chain_of[label[t]] = -1
    top = np.full(n_chains, -1, dtype=np.int64)
    m = 0
    for t in range(n):
        c = chain[t]
        if kind[t] == SINGLE:
            m_chain[m] = c
            m_start[m] = token[t]
            m_end[m] = token[t] + 1
            m += 1
        elif kind[t] == OPEN:
            prev[t] = top[c]
            top[c] = t
        else:
            o = top[c]
            if o < 0:
                return n_chains, ERR_NOT_OPENED, t
            top[c] = prev[o]
            m_chain[m] = c
            m_start[m] = token[o]
            m_end[m] = token[t] + 1
            m += 1
    for c in range(n_chains):
        if top[c] >= 0:
            return n_chains, ERR_NOT_CLOSED, top[c]
    return n_chains, 0, -1


@njit(cache=True)
def pair_brackets(doc_item_off, doc_mention_off, kind, label, n_labels, token):
    """Mentions of every document in v8.01 chain order.

    ``label``: dense cluster-label numbers (0 .. n_labels-1).  Returns (chain per
    item, n_chains per doc, mention chain, start, end, error per doc, error
    item per doc; a document with an error keeps unordered mentions).  ``m_seq``: each mention's place in
    completion order inside its document.
    """
    n_docs = len(doc_item_off) - 1
    chain = np.empty(len(kind), dtype=np.int64)
    prev = np.empty(len(kind), dtype=np.int64)
    chain_of = np.full(n_labels, -1, dtype=np.int64)
    n_m = doc_mention_off[-1]
    m_seq = np.empty(n_m, dtype=np.int64)  # completion order inside the document (coval's)
    m_chain = np.empty(n_m, dtype=np.int64)
    m_start = np.empty(n_m, dtype=np.int64)
    m_end = np.empty(n_m, dtype=np.int64)
    n_chains = np.zeros(n_docs, dtype=np.int64)
    error = np.zeros(n_docs, dtype=np.int64)
    error_item = np.full(n_docs, -1, dtype=np.int64)
    for d in range(n_docs):
        a, b = doc_item_off[d], doc_item_off[d + 1]
        ma, mb = doc_mention_off[d], doc_mention_off[d + 1]
        nc, err, at = _pair_doc(kind[a:b], label[a:b], token[a:b], chain_of, chain[a:b],
                                m_chain[ma:mb], m_start[ma:mb], m_end[ma:mb], prev[a:b])
        n_chains[d] = nc
        if err:  # the caller refuses the file, or only a document it scores (v8.01 reads no other)
            error[d] = err
            error_item[d] = a + at
            continue
        # v8.01 chain order: by chain, mentions in completion order (stable)
        order = stable_order(m_chain[ma:mb], nc)
        m_seq[ma:mb] = order
        m_chain[ma:mb] = take(m_chain[ma:mb], order)
        m_start[ma:mb] = take(m_start[ma:mb], order)
        m_end[ma:mb] = take(m_end[ma:mb], order)
    return chain, n_chains, m_chain, m_start, m_end, m_seq, error, error_item


@njit(cache=True)
def token_fields(buf, starts, ends, lines, n_fields):
    """Byte bounds of the first ``n_fields`` whitespace-separated fields of the given lines, and each
    line's number of fields (fields past ``n_fields`` are counted, not stored)."""
    n = len(lines)
    fs = np.zeros((n, n_fields), dtype=np.int64)
    fe = np.zeros((n, n_fields), dtype=np.int64)
    count = np.zeros(n, dtype=np.int64)
    for k in range(n):
        p = starts[lines[k]]
        e = ends[lines[k]]
        f = 0
        while p < e:
            while p < e and _space(buf[p]):
                p += 1
            if p >= e:
                break
            q = p
            while q < e and not _space(buf[q]):
                q += 1
            if f < n_fields:
                fs[k, f] = p
                fe[k, f] = q
            f += 1
            p = q
        count[k] = f
    return fs, fe, count


@njit(cache=True)
def intern_fields(buf, fs, fe):
    """An id per byte string ``buf[fs[i]:fe[i]]`` (equal strings, equal ids, numbered by first
    appearance) and the first field of each id."""
    n = len(fs)
    size = 1
    while size < 2 * n + 2:
        size *= 2
    slots = np.full(size, -1, dtype=np.int64)  # open addressing: the first field holding each string
    ids = np.empty(n, dtype=np.int64)
    slot_id = np.empty(size, dtype=np.int64)
    first = np.empty(n, dtype=np.int64)
    n_ids = 0
    for i in range(n):
        s, e = fs[i], fe[i]
        h = e - s  # a polynomial hash modulo 2^31 - 1: no overflow, so the same without the JIT
        for q in range(s, e):
            h = (h * 1000003 + int(buf[q])) % 2147483647
        k = h & (size - 1)
        while True:
            j = slots[k]
            if j < 0:
                slots[k] = i
                slot_id[k] = n_ids
                ids[i] = n_ids
                first[n_ids] = i
                n_ids += 1
                break
            if same_bytes(buf, fs[j], fe[j], buf, s, e):
                ids[i] = slot_id[k]
                break
            k = (k + 1) & (size - 1)
    return ids, first[:n_ids]
