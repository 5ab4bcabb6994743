"""Byte scanners for CoNLL-U files with CorefUD ``Entity=`` annotations (``fastscore.formats.conllu``).

The reader's fast path: the file's bytes (``\\r\\n`` already made ``\\n``) as a uint8 array.  The kernels
read what regular files have -- comments, token lines of 10 columns, canonical IDs (``7``, ``7-8``,
``7.1``) in ord order, ``Entity=`` brackets, DEPS -- and give up (``status`` > 0) on anything else, so
that the plain-Python reader reads the file instead and says what is wrong exactly as it always has.

- :func:`scan_lines`: lines, the blocks (sentences) ``re.split(r"(\\n[ \\t]*\\n)")`` cuts, each line's kind,
  the ``# sent_id`` the kernel can read; other ``newdoc`` / ``sent_id`` / ``global.Entity`` comments are
  left to Python's regular expressions (``KIND_PYTHON``).
- :func:`parse_tokens`: nodes (word keys), forms, DEPS and MISC of token lines; the bracket items of
  ``Entity=`` as udapi pairs them (one stack per entity, discontinuous parts); entities interned by their
  bytes (and document, for ``GRP`` ids).
- :func:`mention_heads`: each mention's head from its head event (the index into its words as they were
  when the head was set).
- :func:`head_deps`: the DEPS of each mention's head: parent keys and relation ids (interned).
- :func:`same_spans`: which pairs of byte spans are equal.
"""
import numpy as np

from ._jit import njit
from .byte_spans import same_bytes

SENTENCE_SHIFT = 24
ORD_SHIFT = 10
MAX_ORD = 16383

KIND_SKIP = 0  # a blank line inside a block, a separator or a comment no regex of the reader matches
KIND_TOKEN = 1
KIND_PYTHON = 2  # a comment for the reader's regular expressions (newdoc, global.Entity, unusual sent_id)
KIND_SENT_ID = 3  # "# sent_id = X" read here

HEAD_NONE = 0
HEAD_SORTED = 1  # set when a mention closes: index into its words sorted (repeats included)
HEAD_AS_ADDED = 2  # set by the one-node last part of a discontinuous mention: words in the order added

OK = 0
FULL = 99  # a status of parse_tokens and head_deps: call again with larger arrays
MOD = 2147483647


@njit(cache=True)
def _blankish(data, s, e):
    for i in range(s, e):
        if data[i] != 32 and data[i] != 9:
            return False
    return True


@njit(cache=True)
def _starts(data, s, e, word):
    if e - s < len(word):
        return False
    for k in range(len(word)):
        if data[s + k] != word[k]:
            return False
    return True


@njit(cache=True)
def _has(data, s, e, word):
    for i in range(s, e - len(word) + 1):
        if _starts(data, i, e, word):
            return True
    return False


@njit(cache=True)
def _simple(data, s, e):
    """Printable ASCII or tabs only (no byte the reader's ``\\s`` would see as whitespace beyond these)."""
    for i in range(s, e):
        c = data[i]
        if c != 9 and (c < 32 or c > 126):
            return False
    return True


@njit(cache=True)
def scan_lines(data, newdoc_w, sent_id_w, global_w):
    """Lines and blocks.  Returns (status, line_start, line_end, kind, block (-1: none), block_first_line,
    block_token_line, block_sid_line (line index of the last sent_id read here, -1), block_sid_start,
    block_sid_end, n_blocks)."""
    n = len(data)
    n_lines = 1
    for i in range(n):
        if data[i] == 10:
            n_lines += 1
    ls = np.empty(n_lines, dtype=np.int64)
    le = np.empty(n_lines, dtype=np.int64)
    j = 0
    ls[0] = 0
    for i in range(n):
        if data[i] == 10:
            le[j] = i
            j += 1
            ls[j] = i + 1
    le[n_lines - 1] = n
    kind = np.zeros(n_lines, dtype=np.int8)
    block = np.full(n_lines, -1, dtype=np.int64)
    b_first = np.empty(n_lines, dtype=np.int64)
    b_tok = np.empty(n_lines, dtype=np.int64)
    b_sid_line = np.empty(n_lines, dtype=np.int64)
    b_sid_s = np.empty(n_lines, dtype=np.int64)
    b_sid_e = np.empty(n_lines, dtype=np.int64)
    nb = 0
    # pieces as re.split(r"(\n[ \t]*\n)") cuts the text: a match is the newline ending line j and the
    # blank line j + 1 with its own newline (not the last line); the search goes on after it
    piece = 0
    j = 0
    while j <= n_lines - 1:
        end_piece = j == n_lines - 1
        if not end_piece and j + 1 <= n_lines - 2 and _blankish(data, ls[j + 1], le[j + 1]):
            end_piece = True
        if end_piece:
            # lines piece..j form a piece; it is a block if a line has something
            has = False
            for k in range(piece, j + 1):
                if not _blankish(data, ls[k], le[k]):
                    has = True
                    break
            if has:
                b = nb
                nb += 1
                b_first[b] = piece + 1
                b_tok[b] = -1
                b_sid_line[b] = -1
                b_sid_s[b] = -1
                b_sid_e[b] = -1
                for k in range(piece, j + 1):
                    s = ls[k]
                    e = le[k]
                    if _blankish(data, s, e):
                        continue
                    c = data[s]
                    block[k] = b
                    if 48 <= c <= 57:
                        kind[k] = KIND_TOKEN
                        if b_tok[b] < 0:
                            b_tok[b] = k + 1
                        continue
                    if c != 35:  # '#'
                        return 1, ls, le, kind, block, b_first, b_tok, b_sid_line, b_sid_s, b_sid_e, nb
                    p = s + 1
                    while p < e and (data[p] == 32 or data[p] == 9):
                        p += 1
                    if p == e:
                        continue
                    c = data[p]
                    if c >= 128 or c == 11 or c == 12 or c == 13 or 28 <= c <= 31 or _starts(data, p, e, newdoc_w) or _starts(data, p, e, global_w):
                        kind[k] = KIND_PYTHON
                    elif _starts(data, p, e, sent_id_w):
                        if not _simple(data, p, e):
                            kind[k] = KIND_PYTHON
                            continue
                        # sent_id\s*=?\s*(\S+)
                        q = p + len(sent_id_w)
                        while q < e and (data[q] == 32 or data[q] == 9):
                            q += 1
                        if q == e:
                            continue  # no match: an ignored comment
                        if data[q] == 61:  # '='
                            r = q + 1
                            while r < e and (data[r] == 32 or data[r] == 9):
                                r += 1
                            if r < e:
                                q = r
                        t = q
                        while t < e and data[t] != 32 and data[t] != 9:
                            t += 1
                        kind[k] = KIND_SENT_ID
                        b_sid_line[b] = k
                        b_sid_s[b] = q
                        b_sid_e[b] = t
                if b_tok[b] < 0:
                    b_tok[b] = b_first[b]
            if j == n_lines - 1:
                break
            if j + 1 <= n_lines - 2 and _blankish(data, ls[j + 1], le[j + 1]):
                piece = j + 2
                j = j + 2
                if piece > n_lines - 1:
                    break
                continue
        j += 1
    return 0, ls, le, kind, block, b_first, b_tok, b_sid_line, b_sid_s, b_sid_e, nb


@njit(cache=True)
def _hash(data, s, e, tag):
    h = (tag + 7) % MOD
    for i in range(s, e):
        h = (h * 257 + np.int64(data[i]) + 1) % MOD
    # spread consecutive ids (e1, e2, ...) over the table: linear probing then finds short runs
    h = (h * 1103515245 + 12345) % MOD
    h ^= h >> 13
    h = (h * 1103515245 + 12345) % MOD
    return h ^ (h >> 16)


@njit(cache=True)
def _find(data, s, e, tag, slots, e_s, e_e, e_tag):
    """The slot of (bytes, tag) in the open-addressing table: where it is, or the empty slot to put it."""
    mask = len(slots) - 1
    at = _hash(data, s, e, tag) & mask
    while True:
        x = slots[at]
        if x < 0 or (e_tag[x] == tag and same_bytes(data, s, e, data, e_s[x], e_e[x])):
            return at
        at = (at + 1) & mask


@njit(cache=True)
def _digits(data, s, e, canonical):
    """The number written in ASCII digits data[s:e] (at most 9, no leading zero if ``canonical``), or -1."""
    if e <= s or e - s > 9:
        return -1
    if canonical and e - s > 1 and data[s] == 48:
        return -1
    v = 0
    for i in range(s, e):
        c = np.int64(data[i])
        if c < 48 or c > 57:
            return -1
        v = v * 10 + (c - 48)
    return v


@njit(cache=True)
def _node_id(data, s, e, sentence):
    """(kind, key) of a canonical ID: kind 0 a word, 1 an empty node, 2 a multiword range, -1 anything else."""
    dot = -1
    for i in range(s, e):
        if data[i] == 45:  # '-': a multiword token, as the reader has it
            return 2, 0
        if data[i] == 46:
            if dot >= 0:
                return -1, 0
            dot = i
    if dot < 0:
        v = _digits(data, s, e, True)
        if v < 0 or v > MAX_ORD:
            return -1, 0
        return 0, (sentence << SENTENCE_SHIFT) | (v << ORD_SHIFT)
    v = _digits(data, s, dot, True)
    if v < 0 or v > MAX_ORD or e - dot - 1 < 1 or e - dot - 1 > 3 or data[e - 1] == 48:
        return -1, 0
    minor = 0
    for i in range(dot + 1, dot + 4):
        minor *= 10
        if i < e:
            c = np.int64(data[i])
            if c < 48 or c > 57:
                return -1, 0
            minor += c - 48
    return 1, (sentence << SENTENCE_SHIFT) | (v << ORD_SHIFT) | minor


@njit(cache=True)
def _disc(data, s, e):
    """``NAME[i/n]`` at data[s:e]: (status, end of NAME, i, n); status 0 not of that form, 1 read,
    -1 something the fast path does not read (the reader's regular expression decides)."""
    k = s
    while k < e and data[k] != 91:  # '['
        k += 1
    if k == s or k == e:
        return 0, 0, 0, 0
    slash = k + 1
    while slash < e and 48 <= data[slash] <= 57:
        slash += 1
    if slash == k + 1 or slash >= e or data[slash] != 47:
        return (0, 0, 0, 0) if _plain_ascii(data, s, e) else (-1, 0, 0, 0)
    close = slash + 1
    while close < e and 48 <= data[close] <= 57:
        close += 1
    if close == slash + 1 or close >= e or data[close] != 93:
        return (0, 0, 0, 0) if _plain_ascii(data, s, e) else (-1, 0, 0, 0)
    if close != e - 1:
        return -1, 0, 0, 0
    part = _digits(data, k + 1, slash, True)
    parts = _digits(data, slash + 1, close, True)
    if part < 0 or parts < 0:
        return -1, 0, 0, 0
    return 1, k, part, parts


@njit(cache=True)
def _plain_ascii(data, s, e):
    for i in range(s, e):
        if data[i] >= 128:
            return False
    return True


@njit(cache=True)
def _head_outside(outside, line_no):
    if outside[0] == 0:
        outside[1] = line_no
    outside[0] += 1


@njit(cache=True)
def parse_tokens(data, ls, le, kind, block, b_doc, b_idpos, b_headpos, b_nfields, b_grp, n_open, n_links,
                 log_cap, entity_w, bridge_w, split_w, outside):
    """Token lines and their ``Entity=`` brackets.  ``b_*``: per block its document (0-based), and the
    ``global.Entity`` fields in force (position of the id and of the head field, -1 if none; number of
    fields, -1: no header yet; GRP ids).  ``n_open``, ``n_links``: upper bounds of bracket openings (the
    ``(``s) and of Bridge/SplitAnte items; ``log_cap``: the word log's size (status FULL: call again with a
    larger one); ``outside`` (2 int64, zeros) gets the number of head indices outside their mention that udapi
    reads anyway and the line of the first (the reader warns of them).  The arrays are sized up front, never
    regrown: an array variable assigned inside the loop costs reference counting on every line (2.6x the time
    of the whole scan).

    Returns (status, fail line, nodes: key, DEPS start, end; word forms: start, end; words per block;
    mentions: entity, line, head event kind, index, word count at the event; the word log: mention, key;
    entities: start, end, tag; links: line, start, end, block)."""
    n_lines = len(ls)
    n_tok = 0
    for i in range(n_lines):
        if kind[i] == KIND_TOKEN:
            n_tok += 1
    node_key = np.empty(n_tok, dtype=np.int64)
    node_ds = np.empty(n_tok, dtype=np.int64)
    node_de = np.empty(n_tok, dtype=np.int64)
    form_s = np.empty(n_tok, dtype=np.int64)
    form_e = np.empty(n_tok, dtype=np.int64)
    n_blocks = len(b_doc)
    b_words = np.zeros(n_blocks, dtype=np.int64)
    cap = n_open + 1
    m_eid = np.empty(cap, dtype=np.int64)
    m_line = np.empty(cap, dtype=np.int64)
    m_ev = np.zeros(cap, dtype=np.int64)
    m_ev_h = np.zeros(cap, dtype=np.int64)
    m_ev_cnt = np.zeros(cap, dtype=np.int64)
    m_cnt = np.zeros(cap, dtype=np.int64)
    m_max = np.zeros(cap, dtype=np.int64)
    on_stack = np.zeros(cap, dtype=np.bool_)
    d_next = np.full(cap, -1, dtype=np.int64)
    d_prev = np.full(cap, -1, dtype=np.int64)
    st_m = np.empty(cap, dtype=np.int64)
    st_h = np.empty(cap, dtype=np.int64)
    st_prev = np.empty(cap, dtype=np.int64)
    n_st = 0
    e_s = np.empty(cap, dtype=np.int64)
    e_e = np.empty(cap, dtype=np.int64)
    e_tag = np.empty(cap, dtype=np.int64)
    e_top = np.empty(cap, dtype=np.int64)
    e_dhead = np.empty(cap, dtype=np.int64)
    e_dtail = np.empty(cap, dtype=np.int64)
    size = 16
    while size < 2 * cap:
        size *= 2
    slots = np.full(size, -1, dtype=np.int64)
    n_e = 0
    n_m = 0
    n_unf = 0
    log_m = np.empty(log_cap, dtype=np.int64)
    log_k = np.empty(log_cap, dtype=np.int64)
    n_log = 0
    lk_line = np.empty(n_links, dtype=np.int64)
    lk_s = np.empty(n_links, dtype=np.int64)
    lk_e = np.empty(n_links, dtype=np.int64)
    lk_b = np.empty(n_links, dtype=np.int64)
    n_lk = 0
    n_nodes = 0
    n_forms = 0
    cur_b = -1
    cur_doc = -1
    b_start = 0
    tabs = np.empty(9, dtype=np.int64)
    for i in range(n_lines):
        if kind[i] != KIND_TOKEN:
            continue
        line_no = i + 1
        s = ls[i]
        e = le[i]
        b = block[i]
        if b != cur_b:
            cur_b = b
            b_start = n_nodes
            if b_doc[b] != cur_doc:
                if n_unf > 0 or b_doc[b] < 0:
                    return 2, line_no, node_key, node_ds, node_de, form_s, form_e, b_words, m_eid, m_line, m_ev, \
                        m_ev_h, m_ev_cnt, log_m, log_k, e_s, e_e, e_tag, lk_line, lk_s, lk_e, lk_b, n_nodes, \
                        n_forms, n_m, n_log, n_e, n_lk
                cur_doc = b_doc[b]
        nt = 0
        for p in range(s, e):
            if data[p] == 9:
                if nt < 9:
                    tabs[nt] = p
                nt += 1
        if nt != 9:
            return 3, line_no, node_key, node_ds, node_de, form_s, form_e, b_words, m_eid, m_line, m_ev, \
                m_ev_h, m_ev_cnt, log_m, log_k, e_s, e_e, e_tag, lk_line, lk_s, lk_e, lk_b, n_nodes, \
                n_forms, n_m, n_log, n_e, n_lk
        what, key = _node_id(data, s, tabs[0], b)
        if what < 0 or (what != 2 and n_nodes > b_start and key <= node_key[n_nodes - 1]):
            return 4, line_no, node_key, node_ds, node_de, form_s, form_e, b_words, m_eid, m_line, m_ev, \
                m_ev_h, m_ev_cnt, log_m, log_k, e_s, e_e, e_tag, lk_line, lk_s, lk_e, lk_b, n_nodes, \
                n_forms, n_m, n_log, n_e, n_lk
        if what == 2:
            # the reader looks for these anywhere in a line and then fails on a multiword token's line
            if _has(data, s, e, entity_w) or _has(data, s, e, bridge_w) or _has(data, s, e, split_w):
                return 18, line_no, node_key, node_ds, node_de, form_s, form_e, b_words, m_eid, m_line, m_ev, \
                    m_ev_h, m_ev_cnt, log_m, log_k, e_s, e_e, e_tag, lk_line, lk_s, lk_e, lk_b, n_nodes, \
                    n_forms, n_m, n_log, n_e, n_lk
            continue
        if what == 0:
            form_s[n_forms] = tabs[0] + 1
            form_e[n_forms] = tabs[1]
            n_forms += 1
            b_words[b] += 1
        node_key[n_nodes] = key
        node_ds[n_nodes] = tabs[7] + 1
        node_de[n_nodes] = tabs[8]
        n_nodes += 1
        # MISC items
        p = tabs[8] + 1
        while p <= e:
            q = p
            while q < e and data[q] != 124:  # '|'
                q += 1
            if _starts(data, p, q, bridge_w) or _starts(data, p, q, split_w):
                lk_line[n_lk] = line_no
                lk_s[n_lk] = p
                lk_e[n_lk] = q
                lk_b[n_lk] = b
                n_lk += 1
            elif _starts(data, p, q, entity_w):
                if b_nfields[b] < 0:
                    return 5, line_no, node_key, node_ds, node_de, form_s, form_e, b_words, m_eid, m_line, m_ev, \
                        m_ev_h, m_ev_cnt, log_m, log_k, e_s, e_e, e_tag, lk_line, lk_s, lk_e, lk_b, n_nodes, \
                        n_forms, n_m, n_log, n_e, n_lk
                tag = b_doc[b] + 1 if b_grp[b] else 0
                c = p + len(entity_w)
                while c < q:
                    # a chunk: "(" body ")"? or body ")"; body: no parentheses
                    opening = data[c] == 40
                    bs = c + 1 if opening else c
                    be = bs
                    while be < q and data[be] != 40 and data[be] != 41:
                        be += 1
                    if be == bs or (not opening and (be == q or data[be] != 41)):
                        return 6, line_no, node_key, node_ds, node_de, form_s, form_e, b_words, m_eid, m_line, \
                            m_ev, m_ev_h, m_ev_cnt, log_m, log_k, e_s, e_e, e_tag, lk_line, lk_s, lk_e, lk_b, \
                            n_nodes, n_forms, n_m, n_log, n_e, n_lk
                    closing = be < q and data[be] == 41
                    c = be + 1 if closing else be
                    if opening:
                        # fields: values split by '-'
                        es = -1
                        ee = -1
                        head = -1
                        f = 0
                        vs = bs
                        while True:
                            ve = vs
                            while ve < be and data[ve] != 45:
                                ve += 1
                            if f < b_nfields[b]:
                                if f == b_idpos[b]:
                                    es = vs
                                    ee = ve
                                if f == b_headpos[b]:
                                    head = _digits(data, vs, ve, False)
                                    if head < 0:
                                        return 7, line_no, node_key, node_ds, node_de, form_s, form_e, b_words, \
                                            m_eid, m_line, m_ev, m_ev_h, m_ev_cnt, log_m, log_k, e_s, e_e, e_tag, \
                                            lk_line, lk_s, lk_e, lk_b, n_nodes, n_forms, n_m, n_log, n_e, n_lk
                            f += 1
                            if ve >= be:
                                break
                            vs = ve + 1
                        if es < 0 or ee == es:
                            return 8, line_no, node_key, node_ds, node_de, form_s, form_e, b_words, m_eid, m_line, \
                                m_ev, m_ev_h, m_ev_cnt, log_m, log_k, e_s, e_e, e_tag, lk_line, lk_s, lk_e, lk_b, \
                                n_nodes, n_forms, n_m, n_log, n_e, n_lk
                        part = -1
                        parts = -1
                        for t in range(es, ee):
                            if data[t] == 58:  # ':' (GRP ids are written DOC:ID by the reader)
                                return 9, line_no, node_key, node_ds, node_de, form_s, form_e, b_words, m_eid, \
                                    m_line, m_ev, m_ev_h, m_ev_cnt, log_m, log_k, e_s, e_e, e_tag, lk_line, lk_s, \
                                    lk_e, lk_b, n_nodes, n_forms, n_m, n_log, n_e, n_lk
                        if data[ee - 1] == 93:
                            st, name_end, part, parts = _disc(data, es, ee)
                            if st != 1:
                                return 10, line_no, node_key, node_ds, node_de, form_s, form_e, b_words, m_eid, \
                                    m_line, m_ev, m_ev_h, m_ev_cnt, log_m, log_k, e_s, e_e, e_tag, lk_line, lk_s, \
                                    lk_e, lk_b, n_nodes, n_forms, n_m, n_log, n_e, n_lk
                            ee = name_end
                        if closing and part < 0 and head > 1:  # a head index udapi ignores (its node is the head)
                            _head_outside(outside, line_no)
                        at = _find(data, es, ee, tag, slots, e_s, e_e, e_tag)
                        x = slots[at]
                        if x < 0:
                            x = n_e
                            n_e += 1
                            slots[at] = x
                            e_s[x] = es
                            e_e[x] = ee
                            e_tag[x] = tag
                            e_top[x] = -1
                            e_dhead[x] = -1
                            e_dtail[x] = -1
                        if part >= 0 and part != 1:
                            m = e_dhead[x]
                            while m >= 0 and on_stack[m]:
                                m = d_next[m]
                            if m < 0:
                                return 11, line_no, node_key, node_ds, node_de, form_s, form_e, b_words, m_eid, \
                                    m_line, m_ev, m_ev_h, m_ev_cnt, log_m, log_k, e_s, e_e, e_tag, lk_line, lk_s, \
                                    lk_e, lk_b, n_nodes, n_forms, n_m, n_log, n_e, n_lk
                            if n_log == log_cap:
                                return FULL, line_no, node_key, node_ds, node_de, form_s, form_e, b_words, m_eid, m_line, m_ev, \
                                    m_ev_h, m_ev_cnt, log_m, log_k, e_s, e_e, e_tag, lk_line, lk_s, lk_e, lk_b, n_nodes, n_forms, \
                                    n_m, n_log, n_e, n_lk
                            log_m[n_log] = m
                            log_k[n_log] = key
                            n_log += 1
                            m_cnt[m] += 1
                            m_max[m] = max(m_max[m], key)
                            if closing and part == parts:
                                t = e_dtail[x]  # the list's last mention leaves it (as the reader pops)
                                e_dtail[x] = d_prev[t]
                                if d_prev[t] >= 0:
                                    d_next[d_prev[t]] = -1
                                else:
                                    e_dhead[x] = -1
                                d_prev[t] = -1
                                if head < 0:
                                    return 12, line_no, node_key, node_ds, node_de, form_s, form_e, b_words, \
                                        m_eid, m_line, m_ev, m_ev_h, m_ev_cnt, log_m, log_k, e_s, e_e, e_tag, \
                                        lk_line, lk_s, lk_e, lk_b, n_nodes, n_forms, n_m, n_log, n_e, n_lk
                                m_ev[m] = HEAD_AS_ADDED
                                m_ev_h[m] = head
                                if head == 0:  # udapi takes the node just added (the last as added)
                                    _head_outside(outside, line_no)
                                    m_ev_h[m] = m_cnt[m]
                                m_ev_cnt[m] = m_cnt[m]
                        else:
                            m = n_m
                            n_m += 1
                            m_eid[m] = x
                            m_line[m] = line_no
                            m_cnt[m] = 1
                            m_max[m] = key
                            if n_log == log_cap:
                                return FULL, line_no, node_key, node_ds, node_de, form_s, form_e, b_words, m_eid, m_line, m_ev, \
                                    m_ev_h, m_ev_cnt, log_m, log_k, e_s, e_e, e_tag, lk_line, lk_s, lk_e, lk_b, n_nodes, n_forms, \
                                    n_m, n_log, n_e, n_lk
                            log_m[n_log] = m
                            log_k[n_log] = key
                            n_log += 1
                            if part >= 0:
                                t = e_dtail[x]
                                d_prev[m] = t
                                if t >= 0:
                                    d_next[t] = m
                                else:
                                    e_dhead[x] = m
                                e_dtail[x] = m
                        if not closing:
                            st_m[n_st] = m
                            st_h[n_st] = head
                            st_prev[n_st] = e_top[x]
                            e_top[x] = n_st
                            n_st += 1
                            on_stack[m] = True
                            n_unf += 1
                    else:
                        # a closing: the body as an entity id, else as a part NAME[i/n]
                        es = bs
                        ee = be
                        part = -1
                        parts = -1
                        at = _find(data, es, ee, tag, slots, e_s, e_e, e_tag)
                        x = slots[at]
                        if x < 0 or e_top[x] < 0:
                            st, name_end, part, parts = _disc(data, es, ee)
                            if st < 0:
                                return 13, line_no, node_key, node_ds, node_de, form_s, form_e, b_words, m_eid, \
                                    m_line, m_ev, m_ev_h, m_ev_cnt, log_m, log_k, e_s, e_e, e_tag, lk_line, lk_s, \
                                    lk_e, lk_b, n_nodes, n_forms, n_m, n_log, n_e, n_lk
                            if st == 1:
                                ee = name_end
                                at = _find(data, es, ee, tag, slots, e_s, e_e, e_tag)
                                x = slots[at]
                            else:
                                part = -1
                                parts = -1
                        if x < 0 or e_top[x] < 0:
                            return 14, line_no, node_key, node_ds, node_de, form_s, form_e, b_words, m_eid, \
                                m_line, m_ev, m_ev_h, m_ev_cnt, log_m, log_k, e_s, e_e, e_tag, lk_line, lk_s, \
                                lk_e, lk_b, n_nodes, n_forms, n_m, n_log, n_e, n_lk
                        top = e_top[x]
                        e_top[x] = st_prev[top]
                        m = st_m[top]
                        head = st_h[top]
                        on_stack[m] = False
                        n_unf -= 1
                        last = m_max[m]
                        if (last >> SENTENCE_SHIFT) != (key >> SENTENCE_SHIFT):
                            return 15, line_no, node_key, node_ds, node_de, form_s, form_e, b_words, m_eid, \
                                m_line, m_ev, m_ev_h, m_ev_cnt, log_m, log_k, e_s, e_e, e_tag, lk_line, lk_s, \
                                lk_e, lk_b, n_nodes, n_forms, n_m, n_log, n_e, n_lk
                        for t in range(b_start, n_nodes):
                            if node_key[t] > last:
                                if n_log == log_cap:
                                    return FULL, line_no, node_key, node_ds, node_de, form_s, form_e, b_words, m_eid, m_line, m_ev, \
                                        m_ev_h, m_ev_cnt, log_m, log_k, e_s, e_e, e_tag, lk_line, lk_s, lk_e, lk_b, n_nodes, n_forms, \
                                        n_m, n_log, n_e, n_lk
                                log_m[n_log] = m
                                log_k[n_log] = node_key[t]
                                n_log += 1
                                m_cnt[m] += 1
                                m_max[m] = max(m_max[m], node_key[t])
                        if head > 0 and (part < 0 or part == parts):
                            m_ev[m] = HEAD_SORTED
                            m_ev_h[m] = head
                            m_ev_cnt[m] = m_cnt[m]
                        if part >= 0 and part == parts:
                            t = e_dtail[x]
                            if t < 0:
                                return 16, line_no, node_key, node_ds, node_de, form_s, form_e, b_words, m_eid, \
                                    m_line, m_ev, m_ev_h, m_ev_cnt, log_m, log_k, e_s, e_e, e_tag, lk_line, lk_s, \
                                    lk_e, lk_b, n_nodes, n_forms, n_m, n_log, n_e, n_lk
                            e_dtail[x] = d_prev[t]
                            if d_prev[t] >= 0:
                                d_next[d_prev[t]] = -1
                            else:
                                e_dhead[x] = -1
                            d_prev[t] = -1
            p = q + 1
    status = 17 if n_unf > 0 else OK
    return status, 0, node_key, node_ds, node_de, form_s, form_e, b_words, m_eid, m_line, m_ev, m_ev_h, m_ev_cnt, \
        log_m, log_k, e_s, e_e, e_tag, lk_line, lk_s, lk_e, lk_b, n_nodes, n_forms, n_m, n_log, n_e, n_lk


@njit(cache=True)
def mention_heads(log_off, log_k, ev, ev_h, ev_cnt, first):
    """Each mention's head key: from its head event (``ev``: HEAD_SORTED or HEAD_AS_ADDED; the index
    ``ev_h``, 1-based, into its first ``ev_cnt`` words as added (``log_k`` by mention, CSR ``log_off``),
    sorted or not), else ``first`` (its first word).  Returns (status, the mention failing or -1, heads)."""
    n = len(ev)
    out = first.copy()
    for m in range(n):
        if ev[m] == HEAD_NONE:
            continue
        cnt = ev_cnt[m]
        h = ev_h[m]
        if h < 1 or h > cnt:
            return 1, m, out
        words = log_k[log_off[m]:log_off[m] + cnt].copy()
        if ev[m] == HEAD_SORTED:
            words.sort()
        out[m] = words[h - 1]
    return 0, -1, out


@njit(cache=True)
def head_deps(data, heads, node_key, node_ds, node_de, rel_slots, cap):
    """The DEPS of each head node (``PARENT:RELATION|...``, ``_`` none): (status, failing head index, offsets,
    parent keys, relation ids, relation starts, ends (the first occurrence of each id)).  Parents must be
    canonical IDs of the sentence's nodes (or 0).  Status FULL: call again with a larger relation table
    (``rel_slots``) and output size (``cap``)."""
    n = len(heads)
    off = np.zeros(n + 1, dtype=np.int64)
    parent = np.empty(cap, dtype=np.int64)
    rel = np.empty(cap, dtype=np.int32)
    r_s = np.empty(len(rel_slots), dtype=np.int64)
    r_e = np.empty(len(rel_slots), dtype=np.int64)
    r_tag = np.zeros(len(rel_slots), dtype=np.int64)
    n_rel = 0
    k = 0
    for m in range(n):
        h = heads[m]
        i = np.searchsorted(node_key, h)
        if i >= len(node_key) or node_key[i] != h:
            return 1, m, off, parent, rel, r_s, r_e, n_rel
        s = node_ds[i]
        e = node_de[i]
        if not (e - s == 1 and data[s] == 95):  # '_'
            sentence = h >> SENTENCE_SHIFT
            p = s
            while p <= e:
                q = p
                while q < e and data[q] != 124:
                    q += 1
                colon = p
                while colon < q and data[colon] != 58:
                    colon += 1
                if colon == q:
                    return 2, m, off, parent, rel, r_s, r_e, n_rel
                what, key = _node_id(data, p, colon, sentence)
                if what < 0 or what == 2:
                    return 3, m, off, parent, rel, r_s, r_e, n_rel
                if key != (sentence << SENTENCE_SHIFT):  # 0: the root; else a node of the sentence
                    j = np.searchsorted(node_key, key)
                    if j >= len(node_key) or node_key[j] != key:
                        return 4, m, off, parent, rel, r_s, r_e, n_rel
                elif colon - p != 1:
                    return 3, m, off, parent, rel, r_s, r_e, n_rel
                at = _find(data, colon + 1, q, 0, rel_slots, r_s, r_e, r_tag)
                x = rel_slots[at]
                if x < 0:
                    if 2 * (n_rel + 1) > len(rel_slots):  # half full: the caller grows the table (a full one
                        return FULL, m, off, parent, rel, r_s, r_e, n_rel  # would make _find loop forever)
                    x = n_rel
                    n_rel += 1
                    rel_slots[at] = x
                    r_s[x] = colon + 1
                    r_e[x] = q
                if k == cap:
                    return FULL, m, off, parent, rel, r_s, r_e, n_rel
                parent[k] = key
                rel[k] = x
                k += 1
                p = q + 1
        off[m + 1] = k
    return 0, -1, off, parent, rel, r_s, r_e, n_rel


@njit(cache=True)
def same_spans(data_a, s_a, e_a, data_b, s_b, e_b):
    """Which pairs of spans (data_a[s_a[i]:e_a[i]], data_b[s_b[i]:e_b[i]]) have the same bytes."""
    n = len(s_a)
    out = np.zeros(n, dtype=np.bool_)
    for i in range(n):
        la = e_a[i] - s_a[i]
        if la != e_b[i] - s_b[i]:
            continue
        same = True
        for k in range(la):
            if data_a[s_a[i] + k] != data_b[s_b[i] + k]:
                same = False
                break
        out[i] = same
    return out
