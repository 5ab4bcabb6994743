"""Byte scanners for CoNLL-U files with CorefUD ``Entity=`` annotations: the CoNLL-U reader
(``fastscore.formats.conllu``), which turns their arrays into a mention table and their error codes into
messages.

The file's bytes (``\\r\\n`` already made ``\\n``) come as a uint8 array.  Each kernel reads the whole file
and stops at its first problem, with a code (``E_*``) and what the message needs (line, byte spans, values)
in ``err``; the reader reports the problem the file shows first.

- :func:`scan_lines`: the blocks (sentences) ``re.split(r"(\\n[ \\t]*\\n)")`` cuts (a line of Unicode
  whitespace is blank within a block), each line's kind, the ``# sent_id`` the kernel can read;
  other ``newdoc`` / ``sent_id`` / ``global.Entity`` comments are left to Python's regular expressions
  (``KIND_PYTHON``).
- :func:`token_lines`: the columns of every token line, its ID when written canonically (``7``, ``7-8``,
  ``7.1``; other IDs are read by Python).
- :func:`parse_tokens`: the ``Entity=`` brackets of the nodes, in ord order, as udapi pairs them (one stack
  per entity, discontinuous parts, mentions left open dropped at a document's end); entities interned by
  their bytes (and document, for ``GRP`` ids); Bridge/SplitAnte items.
- :func:`mention_heads`: each mention's head from its head event (the index into its words as they were
  when the head was set).
- :func:`head_deps`: the DEPS of each mention's head: parent keys and relation ids (interned).
- :func:`same_spans`: which pairs of byte spans are equal.
"""
import numpy as np

from ._jit import njit
from .byte_spans import ascii_number, find_byte, same_bytes, starts_with

SENTENCE_SHIFT = 24
ORD_SHIFT = 10
MAX_ORD = 16383

KIND_SKIP = 0  # a blank line inside a block, a separator or a comment no regex of the reader matches
KIND_TOKEN = 1
KIND_PYTHON = 2  # a comment for the reader's regular expressions (newdoc, global.Entity, unusual sent_id)
KIND_SENT_ID = 3  # "# sent_id = X" read here

ID_PYTHON = -1  # token_lines: an ID not written canonically (Python reads it as int() does)
ID_WORD, ID_EMPTY, ID_RANGE = 0, 1, 2

FIELD_OTHER, FIELD_ID, FIELD_HEAD = 0, 1, 2
HEAD_NONE = -(1 << 62)  # an opening without a head index

EV_NONE = 0
EV_SORTED = 1  # set when a mention closes: index into its words sorted (repeats included)
EV_AS_ADDED = 2  # set by the one-node last part of a discontinuous mention: words in the order added

OK = 0
FULL = 99  # call again with larger arrays
# problems of parse_tokens; err = [code, line, a start, a end, b start, b end, value, value]
E_NO_HEADER = 1  # Entity= before any global.Entity
E_HEAD_TEXT = 3  # a head index int() does not read: a = the value, b = the body
E_NO_ID = 4  # a = the body
E_BAD_PART = 5  # an id ending with ']' that is not NAME[i/n]: a = the id
E_NO_FIRST_PART = 6  # a = part, b = parts, value = entity
E_LAST_PART_NO_HEAD = 7  # value = entity
E_NOT_OPENED = 8  # a = the body
E_CROSSES = 9  # a = the body, value = the mention's line
E_NOT_DISCONTINUOUS = 10  # a = the body, b = part (its end: parts' end), value = entity, mention's line
E_HEAD_OUTSIDE = 11  # value = head index, words; a = (entity, 0)
# problems of head_deps: err = [code, head row, item start, item end]
E_DEPS_ITEM = 21  # not HEAD:RELATION
E_DEPS_NODE = 22  # names a node the sentence does not have
MOD = 2147483647
# columns of parse_tokens' mention array
M_EID, M_LINE, M_EV, M_EV_H, M_EV_CNT, M_CNT, M_MAX, M_ON_STACK, M_NEXT, M_PREV, M_DROPPED, M_MAX_ORD = range(12)
ORD_MASK = (1 << SENTENCE_SHIFT) - 1  # a key's ord (and thousandths), without its sentence
# columns of its entity array (top of the stack, list of discontinuous mentions waiting, generation of its
# entry in the list of entities with open mentions)
X_TOP, X_DHEAD, X_DTAIL, X_GEN = range(4)


@njit(cache=True)
def _blankish(data, s, e):
    for i in range(s, e):
        if data[i] != 32 and data[i] != 9:
            return False
    return True


@njit(cache=True)
def _space(data, i, e):
    """The length of the whitespace character (``str.isspace``) at data[i], 0 if none."""
    c = data[i]
    if 9 <= c <= 13 or 28 <= c <= 32:
        return 1
    if c == 0xC2 and i + 1 < e and (data[i + 1] == 0x85 or data[i + 1] == 0xA0):
        return 2
    if i + 2 >= e:
        return 0
    a, b = data[i + 1], data[i + 2]
    if (c == 0xE1 and a == 0x9A and b == 0x80) or (c == 0xE3 and a == 0x80 and b == 0x80):
        return 3
    if c == 0xE2 and a == 0x80 and (0x80 <= b <= 0x8A or b == 0xA8 or b == 0xA9 or b == 0xAF):
        return 3
    return 3 if c == 0xE2 and a == 0x81 and b == 0x9F else 0


@njit(cache=True)
def _strip_blank(data, s, e):
    """Whether ``str.strip`` empties data[s:e]."""
    i = s
    while i < e:
        w = _space(data, i, e)
        if w == 0:
            return False
        i += w
    return True


@njit(cache=True)
def _simple(data, s, e):
    """Printable ASCII or tabs only (no byte the reader's ``\\s`` would see as whitespace beyond these)."""
    for i in range(s, e):
        c = data[i]
        if c != 9 and (c < 32 or c > 126):
            return False
    return True


@njit(cache=True)
def scan_lines(data, ls, le, newdoc_w, sent_id_w, global_w):
    """Blocks and the kinds of lines (``ls``, ``le``: where each line starts and ends).  Returns (kind,
    block (-1: none), block_first_line, block_token_line, block_sid_line (line index of the last sent_id
    read here, -1), block_sid_start, block_sid_end, n_blocks)."""
    n_lines = len(ls)
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
    while j < n_lines:
        if j < n_lines - 1 and not (j + 1 <= n_lines - 2 and _blankish(data, ls[j + 1], le[j + 1])):
            j += 1
            continue
        # lines piece..j form a piece; it is a block if a line has something
        has = False
        for k in range(piece, j + 1):
            if not _strip_blank(data, ls[k], le[k]):
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
                if _strip_blank(data, s, e):
                    continue
                c = data[s]
                block[k] = b
                if c != 35:  # not '#': a token line
                    kind[k] = KIND_TOKEN
                    if b_tok[b] < 0:
                        b_tok[b] = k + 1
                    continue
                p = s + 1
                while p < e and (data[p] == 32 or data[p] == 9):
                    p += 1
                if p == e:
                    continue
                c = data[p]
                if (c >= 128 or c == 11 or c == 12 or c == 13 or 28 <= c <= 31 or starts_with(data, p, e, newdoc_w)
                        or starts_with(data, p, e, global_w)):
                    kind[k] = KIND_PYTHON
                elif starts_with(data, p, e, sent_id_w):
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
        j += 2  # the next piece starts after the blank line
        piece = j
    return kind, block, b_first, b_tok, b_sid_line, b_sid_s, b_sid_e, nb


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
    if canonical and e - s > 1 and data[s] == 48:
        return -1
    return ascii_number(data, s, e, 9)


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
def _head_outside(outside, line_no):
    if outside[0] == 0:
        outside[1] = line_no
    outside[0] += 1


@njit(cache=True)
def token_lines(data, ls, le, kind):
    """The columns of the token lines (other lines: 0 tabs, -1): the number of tabs, where the 1st, 2nd, 8th
    and 9th tabs are (the ID before the first, the form before the second, DEPS and MISC after the last two),
    the ID's kind (``ID_*``; ID_PYTHON: not written canonically) and ord key (``ord << 10 | thousandths``)."""
    n = len(ls)
    tabs = np.zeros(n, dtype=np.int64)
    t0 = np.full(n, -1, dtype=np.int64)
    t1 = np.full(n, -1, dtype=np.int64)
    t7 = np.full(n, -1, dtype=np.int64)
    t8 = np.full(n, -1, dtype=np.int64)
    what = np.full(n, ID_PYTHON, dtype=np.int8)
    ord_key = np.zeros(n, dtype=np.int64)
    for i in range(n):
        if kind[i] != KIND_TOKEN:
            continue
        nt = 0
        for p in range(ls[i], le[i]):
            if data[p] == 9:
                if nt == 0:
                    t0[i] = p
                elif nt == 1:
                    t1[i] = p
                elif nt == 7:
                    t7[i] = p
                elif nt == 8:
                    t8[i] = p
                nt += 1
        tabs[i] = nt
        if nt > 0:
            w, k = _node_id(data, ls[i], t0[i], 0)
            what[i] = w
            ord_key[i] = k
    return tabs, t0, t1, t7, t8, what, ord_key


@njit(cache=True)
def _disc(data, s, e):
    """``re.match(r"([^[]+)\\[(\\d+)/(\\d+)\\]")`` on data[s:e] (ASCII digits): (matched, end of the name, start
    and end of ``i``, of ``n``)."""
    k = find_byte(data, s, e, 91)  # '['
    if k == s or k == e:
        return False, 0, 0, 0, 0, 0
    slash = k + 1
    while slash < e and 48 <= data[slash] <= 57:
        slash += 1
    if slash == k + 1 or slash >= e or data[slash] != 47:
        return False, 0, 0, 0, 0, 0
    close = slash + 1
    while close < e and 48 <= data[close] <= 57:
        close += 1
    if close == slash + 1 or close >= e or data[close] != 93:
        return False, 0, 0, 0, 0, 0
    return True, k, k + 1, slash, slash + 1, close


@njit(cache=True)
def _int(data, s, e):
    """What ``int()`` makes of data[s:e] (ASCII digits; whitespace around, a ``+``, ``_`` between digits), or
    HEAD_NONE when it raises a ValueError.  Never negative (the text has no ``-``)."""
    while s < e and _space(data, s, e) > 0:
        s += _space(data, s, e)
    while e > s:
        if _space(data, e - 1, e) == 1:
            e -= 1
        elif e - s >= 2 and _space(data, e - 2, e) == 2:
            e -= 2
        elif e - s >= 3 and _space(data, e - 3, e) == 3:
            e -= 3
        else:
            break
    if s < e and data[s] == 43:  # '+'
        s += 1
    if s == e:
        return HEAD_NONE
    v = 0
    for i in range(s, e):
        c = data[i]
        if c == 95:  # '_' only between digits
            if i == s or i == e - 1 or data[i - 1] == 95:
                return HEAD_NONE
            continue
        if c < 48 or c > 57:
            return HEAD_NONE
        v = min(v * 10 + (c - 48), 1 << 40)
    return v


@njit(cache=True)
def _match_end(data, c, q):
    """The end of a match of ``\\([^()]+\\)?|[^()]+\\)`` (the reader's Entity chunks) at data[c], -1 if none."""
    if data[c] == 41:  # ')'
        return -1
    j = c + 1
    while j < q and data[j] != 40 and data[j] != 41:
        j += 1
    if data[c] == 40:
        if j == c + 1:
            return -1
        return j + 1 if j < q and data[j] == 41 else j
    return j + 1 if j < q and data[j] == 41 else -1


@njit(cache=True)
def _fail(err, code, line, a_s, a_e, b_s, b_e, v0, v1):
    err[0] = code
    err[1] = line
    err[2] = a_s
    err[3] = a_e
    err[4] = b_s
    err[5] = b_e
    err[6] = v0
    err[7] = v1
    return code


@njit(cache=True)
def _add(M, log, cnt, m, key):
    """Node ``key`` added to mention ``m`` (its count, largest key and ord) and to the word log (False: the
    log is full)."""
    if cnt[1] == len(log):
        return False
    log[cnt[1], 0] = m
    log[cnt[1], 1] = key
    cnt[1] += 1
    M[m, M_CNT] += 1
    M[m, M_MAX] = max(M[m, M_MAX], key)
    M[m, M_MAX_ORD] = max(M[m, M_MAX_ORD], key & ORD_MASK)
    return True


@njit(cache=True)
def _drop_open(M, X, stack, u_list, cnt, drop):
    """A document (or the file) ends: the mentions still open are dropped, entity by entity in the order
    their first open mention came, each entity's from the bottom of its stack (as the reader warns)."""
    for u in range(cnt[6]):
        x = u_list[u]
        top = X[x, X_TOP]
        first = cnt[7]
        while top >= 0:
            drop[cnt[7]] = stack[top, 0]
            cnt[7] += 1
            top = stack[top, 2]
        drop[first:cnt[7]] = drop[first:cnt[7]][::-1].copy()
        for k in range(first, cnt[7]):
            M[drop[k], M_ON_STACK] = 0
            M[drop[k], M_DROPPED] = 1
        X[x, X_TOP] = -1
    cnt[6] = 0
    cnt[5] += 1  # a new generation of the list


@njit(cache=True)
def parse_tokens(data, le, node_line, node_key, block, b_doc, b_frow, f_kind, f_n, b_grp, t8, n_open, n_links,
                 log_cap, entity_w, bridge_w, split_w, outside, err):
    """The ``Entity=`` brackets and Bridge/SplitAnte items of the nodes (``node_line``, ``node_key``: in ord
    order, sentence after sentence).  ``b_*``: per block its document (0-based), the row of ``f_kind`` /
    ``f_n`` giving the ``global.Entity`` fields in force (``FIELD_*``; -1: no header yet), whether ids are
    per document (GRP).  ``n_open``, ``n_links``: upper bounds of mentions (the ``(``s) and of
    Bridge/SplitAnte items; ``log_cap``: the word log's size (status FULL: call again with a larger one);
    ``outside`` (4 int64, zeros) gets the number of head indices outside their mention that udapi reads
    anyway and the line of the first, then the number of chunks with neither bracket (udapi ignores them)
    and the line of the first.  A problem: its code (``E_*``), with ``err`` filled.  The arrays are
    sized up front, never regrown: an array variable assigned inside the loop costs reference counting on
    every line.

    Returns (status, mentions (columns ``M_*``), word log (mention, key), entities: start, end, tag; links
    (line, start, end, block), dropped mentions in the reader's order, counts: [mentions, log, entities,
    links, stack, generation, open entities, dropped])."""
    cap = n_open + 1
    M = np.zeros((cap, 12), dtype=np.int64)
    X = np.zeros((cap, 4), dtype=np.int64)
    stack = np.zeros((cap, 3), dtype=np.int64)  # mention, head index, previous of its entity
    e_s = np.empty(cap, dtype=np.int64)
    e_e = np.empty(cap, dtype=np.int64)
    e_tag = np.empty(cap, dtype=np.int64)
    u_list = np.empty(cap, dtype=np.int64)  # entities with open mentions, in the order of their first
    drop = np.empty(cap, dtype=np.int64)
    size = 16
    while size < 2 * cap:
        size *= 2
    slots = np.full(size, -1, dtype=np.int64)
    log = np.empty((log_cap, 2), dtype=np.int64)
    links = np.empty((n_links, 4), dtype=np.int64)
    cnt = np.zeros(8, dtype=np.int64)  # mentions, log, entities, links, stack, generation, open entities, dropped
    cur_b = -1
    cur_doc = -1
    b_start = 0
    status = OK
    for n in range(len(node_line)):
        i = node_line[n]
        line_no = i + 1
        key = node_key[n]
        b = block[i]
        if b != cur_b:
            cur_b = b
            b_start = n
            if b_doc[b] != cur_doc:
                _drop_open(M, X, stack, u_list, cnt, drop)
                cur_doc = b_doc[b]
        e = le[i]
        p = t8[i] + 1
        # udapi's MISC is a dictionary: of two items of one name, the last counts
        last_e = -1
        last_b = -1
        last_s = -1
        r = p
        while r <= e:
            t = find_byte(data, r, e, 124)
            if starts_with(data, r, t, entity_w):
                last_e = r
            elif starts_with(data, r, t, bridge_w):
                last_b = r
            elif starts_with(data, r, t, split_w):
                last_s = r
            r = t + 1
        while p <= e and status == OK:
            q = find_byte(data, p, e, 124)  # '|'
            if p != last_e and p != last_b and p != last_s:
                pass  # not the last item of its name (nor a link or Entity item): udapi reads the last
            elif starts_with(data, p, q, bridge_w) or starts_with(data, p, q, split_w):
                k = cnt[3]
                links[k, 0] = line_no
                links[k, 1] = p
                links[k, 2] = q
                links[k, 3] = b
                cnt[3] += 1
            elif starts_with(data, p, q, entity_w):
                row = b_frow[b]
                if row < 0:
                    status = _fail(err, E_NO_HEADER, line_no, 0, 0, 0, 0, 0, 0)
                    break
                tag = b_doc[b] + 1 if b_grp[b] else 0
                c = p + len(entity_w)
                while c < q and status == OK:
                    # the next chunk: text no match covers (from c), else the match at c
                    ms = c
                    me = -1
                    while ms < q:
                        me = _match_end(data, ms, q)
                        if me >= 0:
                            break
                        ms += 1
                    ps, pe = (c, ms) if ms > c else (ms, me)
                    c = pe
                    opening = data[ps] == 40
                    closing = data[pe - 1] == 41
                    bs, be = ps, pe
                    while bs < be and (data[bs] == 40 or data[bs] == 41):
                        bs += 1
                    while be > bs and (data[be - 1] == 40 or data[be - 1] == 41):
                        be -= 1
                    if not opening and not closing:  # udapi warns and goes on
                        if outside[2] == 0:
                            outside[3] = line_no
                        outside[2] += 1
                    elif opening:
                        status = _open(data, bs, be, closing, key, line_no, tag, f_kind[row], f_n[row], M, X, stack,
                                       e_s, e_e, e_tag, slots, log, u_list, cnt, outside, err)
                    else:
                        status = _close(data, bs, be, key, line_no, tag, node_key, b_start, n, M, X, stack, e_s,
                                        e_e, e_tag, slots, log, cnt, err)
            p = q + 1
        if status != OK:
            break
    if status == OK:
        _drop_open(M, X, stack, u_list, cnt, drop)
    return status, M, log, e_s, e_e, e_tag, links, drop, cnt


@njit(cache=True)
def _open(data, bs, be, closing, key, line_no, tag, kinds, nf, M, X, stack, e_s, e_e, e_tag, slots, log, u_list,
          cnt, outside, err):
    """An opening bracket (and the closing of a one-node mention): the reader's ``open``."""
    es = -1
    ee = -1
    head = HEAD_NONE
    f = 0
    vs = bs
    while f < nf:  # the values (split by '-') paired with the fields
        ve = find_byte(data, vs, be, 45)
        if kinds[f] == FIELD_ID:
            es = vs
            ee = ve
        elif kinds[f] == FIELD_HEAD:
            head = _int(data, vs, ve)
            if head == HEAD_NONE:
                return _fail(err, E_HEAD_TEXT, line_no, vs, ve, bs, be, 0, 0)
        f += 1
        if ve >= be:
            break
        vs = ve + 1
    if es < 0 or ee == es:
        return _fail(err, E_NO_ID, line_no, bs, be, 0, 0, 0, 0)
    part = False
    first_part = False
    last_part = False
    name_end = ps = pe = ns = ne = 0
    if data[ee - 1] == 93:  # ']'
        part, name_end, ps, pe, ns, ne = _disc(data, es, ee)
        if not part:
            return _fail(err, E_BAD_PART, line_no, es, ee, 0, 0, 0, 0)
        first_part = pe - ps == 1 and data[ps] == 49
        last_part = same_bytes(data, ps, pe, data, ns, ne)
        ee = name_end
    x = _intern(data, es, ee, tag, slots, e_s, e_e, e_tag, X, cnt)
    if part and not first_part:
        m = X[x, X_DHEAD]  # the oldest waiting mention of the entity that is not open
        while m >= 0 and M[m, M_ON_STACK]:
            m = M[m, M_NEXT]
        if m < 0:
            return _fail(err, E_NO_FIRST_PART, line_no, ps, pe, ns, ne, x, 0)
        if not _add(M, log, cnt, m, key):
            return FULL
        if closing and last_part:
            _pop_waiting(M, X, x)
            if head == HEAD_NONE:
                return _fail(err, E_LAST_PART_NO_HEAD, line_no, 0, 0, 0, 0, x, 0)
            M[m, M_EV] = EV_AS_ADDED
            M[m, M_EV_CNT] = M[m, M_CNT]
            if head == 0:  # udapi takes the node just added (the last as added)
                _head_outside(outside, line_no)
                M[m, M_EV_H] = M[m, M_CNT]
            elif head < 1 or head > M[m, M_CNT]:
                return _fail(err, E_HEAD_OUTSIDE, line_no, x, 0, 0, 0, head, M[m, M_CNT])
            else:
                M[m, M_EV_H] = head
    else:
        if closing and not part and head != HEAD_NONE and head > 1:  # a head index udapi ignores
            _head_outside(outside, line_no)
        m = cnt[0]
        cnt[0] += 1
        M[m, M_EID] = x
        M[m, M_LINE] = line_no
        M[m, M_NEXT] = -1
        M[m, M_PREV] = -1
        if not _add(M, log, cnt, m, key):  # (the row's count, largest key and ord were 0)
            return FULL
        if part:  # a first part waits for the others
            t = X[x, X_DTAIL]
            M[m, M_PREV] = t
            if t >= 0:
                M[t, M_NEXT] = m
            else:
                X[x, X_DHEAD] = m
            X[x, X_DTAIL] = m
    if not closing:
        k = cnt[4]
        stack[k, 0] = m
        stack[k, 1] = head
        stack[k, 2] = X[x, X_TOP]
        X[x, X_TOP] = k
        cnt[4] += 1
        M[m, M_ON_STACK] = 1
        if X[x, X_GEN] != cnt[5] + 1:
            X[x, X_GEN] = cnt[5] + 1
            u_list[cnt[6]] = x
            cnt[6] += 1
    return OK


@njit(cache=True)
def _intern(data, s, e, tag, slots, e_s, e_e, e_tag, X, cnt):
    at = _find(data, s, e, tag, slots, e_s, e_e, e_tag)
    x = slots[at]
    if x < 0:
        x = cnt[2]
        cnt[2] += 1
        slots[at] = x
        e_s[x] = s
        e_e[x] = e
        e_tag[x] = tag
        X[x, X_TOP] = -1
        X[x, X_DHEAD] = -1
        X[x, X_DTAIL] = -1
        X[x, X_GEN] = 0
    return x


@njit(cache=True)
def _pop_waiting(M, X, x):
    """The last mention of the entity's waiting list leaves it (as the reader pops, whichever was completed)."""
    t = X[x, X_DTAIL]
    X[x, X_DTAIL] = M[t, M_PREV]
    if M[t, M_PREV] >= 0:
        M[M[t, M_PREV], M_NEXT] = -1
    else:
        X[x, X_DHEAD] = -1
    M[t, M_PREV] = -1


@njit(cache=True)
def _close(data, bs, be, key, line_no, tag, node_key, b_start, n, M, X, stack, e_s, e_e, e_tag, slots, log, cnt,
           err):
    """A closing bracket: the reader's ``close``."""
    part = False
    last_part = False
    ps = pe = ns = ne = 0
    x = slots[_find(data, bs, be, tag, slots, e_s, e_e, e_tag)]
    if x < 0 or X[x, X_TOP] < 0:  # not an open entity: a part NAME[i/n]?
        matched, name_end, ps, pe, ns, ne = _disc(data, bs, be)
        if matched:
            part = True
            last_part = same_bytes(data, ps, pe, data, ns, ne)
            x = slots[_find(data, bs, name_end, tag, slots, e_s, e_e, e_tag)]
    if x < 0 or X[x, X_TOP] < 0:
        return _fail(err, E_NOT_OPENED, line_no, bs, be, 0, 0, 0, 0)
    top = X[x, X_TOP]
    X[x, X_TOP] = stack[top, 2]
    m = stack[top, 0]
    head = stack[top, 1]
    M[m, M_ON_STACK] = 0
    last = M[m, M_MAX]
    # udapi's last word is the last of its words sorted by ord alone (a stable sort): one of an earlier
    # sentence where that ord is larger (a discontinuous mention's parts in two sentences)
    if (last >> SENTENCE_SHIFT) != (key >> SENTENCE_SHIFT) or M[m, M_MAX_ORD] > (last & ORD_MASK):
        return _fail(err, E_CROSSES, line_no, bs, be, 0, 0, M[m, M_LINE], 0)
    for t in range(b_start, n + 1):  # every node after the mention's last, up to this one
        if node_key[t] > last and not _add(M, log, cnt, m, node_key[t]):
            return FULL
    if head != HEAD_NONE and head != 0 and (not part or last_part):
        if head < 1 or head > M[m, M_CNT]:
            return _fail(err, E_HEAD_OUTSIDE, line_no, x, 0, 0, 0, head, M[m, M_CNT])
        M[m, M_EV] = EV_SORTED
        M[m, M_EV_H] = head
        M[m, M_EV_CNT] = M[m, M_CNT]
    if part and last_part:
        if X[x, X_DTAIL] < 0:
            return _fail(err, E_NOT_DISCONTINUOUS, line_no, bs, be, ps, ne, x, M[m, M_LINE])
        _pop_waiting(M, X, x)
    return OK


@njit(cache=True)
def mention_heads(log_off, log_k, ev, ev_h, ev_cnt, first):
    """Each mention's head key: from its head event (``ev``: EV_SORTED or EV_AS_ADDED; the index ``ev_h``,
    1-based, into its first ``ev_cnt`` words as added (``log_k`` by mention, CSR ``log_off``), sorted or
    not), else ``first`` (its first word).  ``parse_tokens`` checked the indices."""
    n = len(ev)
    out = first.copy()
    for m in range(n):
        if ev[m] == EV_NONE:
            continue
        words = log_k[log_off[m]:log_off[m] + ev_cnt[m]].copy()
        if ev[m] == EV_SORTED:  # udapi sorts by ord alone, stably (parts in two sentences interleave)
            words = words[np.argsort(words & ORD_MASK, kind="mergesort")]
        out[m] = words[ev_h[m] - 1]
    return out


@njit(cache=True)
def _canonical_node(node_key, node_canon, key):
    """The last node written canonically with this key (the one the reader's ID -> line index keeps), -1."""
    j = np.searchsorted(node_key, key, side="right") - 1
    while j >= 0 and node_key[j] == key:
        if node_canon[j]:
            return j
        j -= 1
    return -1


@njit(cache=True)
def head_deps(data, heads, node_key, node_canon, node_ds, node_de, rel_slots, cap, err):
    """The DEPS of each head node (``PARENT:RELATION|...``, ``_`` none), read from the node written
    canonically with the head's key (none: no DEPS): (status, offsets, parent keys, relation ids, relation
    starts, ends (the first occurrence of each id), items whose parent is not written canonically (item
    index, head row, item start, end, the parent's end; its key is Python's to find), count).  A problem: its code, with
    ``err`` = [code, head row, item start, item end].  Status FULL: call again with a larger relation table
    (``rel_slots``) and output size (``cap``)."""
    n = len(heads)
    off = np.zeros(n + 1, dtype=np.int64)
    parent = np.empty(cap, dtype=np.int64)
    rel = np.empty(cap, dtype=np.int32)
    odd = np.empty((cap, 5), dtype=np.int64)
    n_odd = 0
    r_s = np.empty(len(rel_slots), dtype=np.int64)
    r_e = np.empty(len(rel_slots), dtype=np.int64)
    r_tag = np.zeros(len(rel_slots), dtype=np.int64)
    n_rel = 0
    k = 0
    status = OK
    for m in range(n):
        h = heads[m]
        i = _canonical_node(node_key, node_canon, h)
        if i >= 0 and not (node_de[i] - node_ds[i] == 1 and data[node_ds[i]] == 95):  # '_': none
            s = node_ds[i]
            e = node_de[i]
            sentence = h >> SENTENCE_SHIFT
            p = s
            while p <= e:
                q = find_byte(data, p, e, 124)
                colon = find_byte(data, p, q, 58)
                what, key = _node_id(data, p, colon, sentence)
                if colon == q or what == ID_RANGE:  # no ':', or a '-' before it (which int() does not read)
                    return _fail(err, E_DEPS_ITEM, m, p, q, 0, 0, 0, 0), off, parent, rel, r_s, r_e, n_rel, odd, n_odd
                if k == cap:
                    return FULL, off, parent, rel, r_s, r_e, n_rel, odd, n_odd
                if what == ID_PYTHON:
                    odd[n_odd, 0] = k
                    odd[n_odd, 1] = m
                    odd[n_odd, 2] = p
                    odd[n_odd, 3] = q
                    odd[n_odd, 4] = colon
                    n_odd += 1
                    key = -1
                elif colon - p != 1 or data[p] != 48:  # not "0" (the root): a node of the sentence
                    if _canonical_node(node_key, node_canon, key) < 0:
                        return _fail(err, E_DEPS_NODE, m, p, q, 0, 0, 0, 0), off, parent, rel, r_s, r_e, n_rel, \
                            odd, n_odd
                at = _find(data, colon + 1, q, 0, rel_slots, r_s, r_e, r_tag)
                x = rel_slots[at]
                if x < 0:
                    if 2 * (n_rel + 1) > len(rel_slots):  # half full: the caller grows the table (a full one
                        return FULL, off, parent, rel, r_s, r_e, n_rel, odd, n_odd  # would make _find loop forever)
                    x = n_rel
                    n_rel += 1
                    rel_slots[at] = x
                    r_s[x] = colon + 1
                    r_e[x] = q
                parent[k] = key
                rel[k] = x
                k += 1
                p = q + 1
        off[m + 1] = k
    return status, off, parent, rel, r_s, r_e, n_rel, odd, n_odd


@njit(cache=True)
def same_spans(data_a, s_a, e_a, data_b, s_b, e_b):
    """Which pairs of spans (data_a[s_a[i]:e_a[i]], data_b[s_b[i]:e_b[i]]) have the same bytes."""
    out = np.zeros(len(s_a), dtype=np.bool_)
    for i in range(len(s_a)):
        out[i] = same_bytes(data_a, s_a[i], e_a[i], data_b, s_b[i], e_b[i])
    return out
