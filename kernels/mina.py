"""MINA minimum spans (Moosavi et al. 2019) from CoNLL-2012 parse bits, as coval computes them.

For each mention a small tree is built from the parse bits of the mention's own tokens (the key file's
sixth column), then searched breadth-first for the shallowest valid terminals.  Everything is arrays:

* tokens: the key file's tokens, numbered across the file; ``p_s``/``p_e`` delimit each token's parse bit
  in ``buf``; ``word`` is the token's word id; ``pos_bad`` marks the POS tags a minimum span skips
  (CC, DT and, in coval, IN);
* words (by id): ``word_ok`` (a letter, a digit or ``%``, and not ``-LRB-``/``-RRB-``), ``word_keep``
  (a run flushed by an opening bracket is kept only if one of its words passes this), ``word_cat`` (the
  phrase class its first two characters spell, which coval compares with tags) and ``word_vp`` (it is
  ``VP``);
* mentions: the first token (file numbering), the length, the position of the first token in its
  sentence and, for the whole-span fallback, where the mention's own words start in ``own_word``.

A tree node is a constituent (tag letters) or a terminal: a run of consecutive ``*`` tokens.  The
``variant`` switches coval's quirks (``COVAL``) off (``PAPER``): runs are then identified by their
tokens rather than by the token that flushed them, punctuation-only runs are dropped whichever bracket
flushes them, and the fallback uses sentence positions rather than positions inside the mention.

Mentions are searched in the order of their first token (the parse bits are then read forwards), and a span
met before (a key mention's response twin) takes the elements found for it, with its own words.

Output: per mention (CSR ``el_off``) the elements of its minimum span as ``(kind, a, b, index)``:
``TERMINAL`` elements are the run ``[a, b)`` of key tokens at ``index``; ``FALLBACK`` elements are one
own word ``own_word[a]`` at ``index``.  ``root_vp`` tells whether the tree's root is tagged ``VP``
(``--np-only``), ``no_tree`` that no tree could be built (the mention is then known by its span).
"""
import numpy as np
from ._jit import njit

# phrase classes of a tag's (or a terminal string's) first two characters
OTHER, NP, NM, QP, NX, VP = 0, 1, 2, 3, 4, 5
NO_SET, NP_SET, VP_SET = 0, 1, 2  # the tags a search may descend through
COVAL, PAPER = 0, 1
TERMINAL, FALLBACK = 0, 1

_OPEN, _CLOSE, _STAR = 40, 41, 42  # ( ) *


@njit(cache=True)
def _cat2(a, b):
    """Phrase class of the two letters a, b (ASCII codes)."""
    if a == 78 and b == 80:  # NP
        return NP
    if a == 78 and b == 77:  # NM
        return NM
    if a == 81 and b == 80:  # QP
        return QP
    if a == 78 and b == 88:  # NX
        return NX
    if a == 86 and b == 80:  # VP
        return VP
    return OTHER


@njit(cache=True)
def _in_set(cat, tags):
    if tags == NP_SET:
        return cat == NP or cat == NM or cat == QP or cat == NX
    if tags == VP_SET:
        return cat == VP
    return False


@njit(cache=True)
def _new_node(nodes, n, term, cat, vp, index, lo, hi):
    """Append a node; nodes columns: term, cat, is_vp, index, run lo, run hi, first child, last child, next."""
    nodes[n, 0] = term
    nodes[n, 1] = cat
    nodes[n, 2] = vp
    nodes[n, 3] = index
    nodes[n, 4] = lo
    nodes[n, 5] = hi
    nodes[n, 6] = -1
    nodes[n, 7] = -1
    nodes[n, 8] = -1
    return n + 1


@njit(cache=True)
def _tag_node(nodes, n, t0, t1, tag_len, index):
    """Append a constituent whose tag has ``tag_len`` letters, the first two ``t0``, ``t1``."""
    vp = 1 if (tag_len == 2 and t0 == 86 and t1 == 80) else 0  # exactly "VP"
    return _new_node(nodes, n, 0, _cat2(t0, t1) if tag_len >= 2 else OTHER, vp, index, -1, -1)


@njit(cache=True)
def _attach(nodes, child, parent):
    if nodes[parent, 6] < 0:
        nodes[parent, 6] = child
    else:
        nodes[nodes[parent, 7], 8] = child
    nodes[parent, 7] = child


@njit(cache=True)
def _place(nodes, node, stack, sp):
    """Attach a new terminal to the open constituent, or open it as one when none is open (coval)."""
    if sp > 0:
        _attach(nodes, node, stack[sp - 1])
        return sp
    stack[sp] = node
    return sp + 1


@njit(cache=True)
def _flush(nodes, n, lo, hi, index, word, word_cat, word_vp, stack, sp):
    """The run [lo, hi) becomes a terminal; returns (number of nodes, stack depth)."""
    w = word[lo]
    vp = 1 if (hi - lo == 1 and word_vp[w]) else 0
    return _new_node(nodes, n, 1, word_cat[w], vp, index, lo, hi), _place(nodes, n, stack, sp)


@njit(cache=True)
def _pop(stack, sp, roots, nr):
    """Close the innermost open constituent (a root when nothing encloses it); returns (stack depth,
    number of roots, the closed node)."""
    sp -= 1
    if sp == 0:
        roots[nr] = stack[sp]
        nr += 1
    return sp, nr, stack[sp]


@njit(cache=True)
def _keep_run(lo, hi, word, word_keep):
    for t in range(lo, hi):
        if word_keep[word[t]]:
            return True
    return False


@njit(cache=True)
def build_tree(buf, p_s, p_e, first, length, sent_pos, word, word_cat, word_vp, word_keep, variant, nodes, stack,
               roots):
    """The tree of one mention's tokens into ``nodes`` (``stack`` and ``roots``: scratch of the same
    length); returns (root or -1, number of nodes)."""
    sp = 0
    nr = 0
    n = 0
    run_lo = -1
    run_hi = -1
    started = False
    tag_len = 0
    t0 = 0
    t1 = 0
    last_popped = -1
    for i in range(length):
        tok = first + i
        pos = sent_pos + i
        for q in range(p_s[tok], p_e[tok]):
            c = buf[q]
            if c == _OPEN:
                if started:
                    node = n
                    n = _tag_node(nodes, n, t0, t1, tag_len, pos)
                    if sp > 0:
                        _attach(nodes, node, stack[sp - 1])
                    stack[sp] = node
                    sp += 1
                    tag_len = 0
                if run_lo >= 0:
                    if _keep_run(run_lo, run_hi, word, word_keep):
                        n, sp = _flush(nodes, n, run_lo, run_hi, pos, word, word_cat, word_vp, stack, sp)
                    run_lo = -1
                started = True
            elif c == _STAR:
                if run_lo < 0:
                    run_lo = tok
                run_hi = tok + 1
                if started or tag_len > 0:
                    node = n
                    n = _tag_node(nodes, n, t0, t1, tag_len, pos)
                    if started:
                        if sp > 0:
                            _attach(nodes, node, stack[sp - 1])
                        stack[sp] = node
                        sp += 1
                        tag_len = 0
                        started = False
                    else:  # a tag with no opening bracket: coval keeps it as a root of its own
                        roots[nr] = node
                        nr += 1
            elif c == _CLOSE:
                if run_lo >= 0 and (variant == COVAL or _keep_run(run_lo, run_hi, word, word_keep)):
                    n, sp = _flush(nodes, n, run_lo, run_hi, pos, word, word_cat, word_vp, stack, sp)
                run_lo = -1
                if sp > 0:
                    sp, nr, last_popped = _pop(stack, sp, roots, nr)
                started = False
            elif (65 <= c <= 90) or (97 <= c <= 122):
                if tag_len == 0:
                    t0 = c
                elif tag_len == 1:
                    t1 = c
                tag_len += 1
            if i == length - 1 and q == p_e[tok] - 1 and run_lo >= 0 and (
                    variant == COVAL or _keep_run(run_lo, run_hi, word, word_keep)):
                n, sp = _flush(nodes, n, run_lo, run_hi, pos, word, word_cat, word_vp, stack, sp)
                run_lo = -1
    while sp > 0:
        sp, nr, last_popped = _pop(stack, sp, roots, nr)
    if nr > 1:  # not one constituent: a dummy NP over the pieces
        root = n
        n = _new_node(nodes, n, 0, NP, 0, sent_pos, -1, -1)
        for k in range(nr):
            _attach(nodes, roots[k], root)
        return root, n
    return last_popped, n


@njit(cache=True)
def _valid(nodes, node, word, word_ok, pos_bad):
    """A terminal with a word that is not punctuation nor a skipped part of speech."""
    for t in range(nodes[node, 4], nodes[node, 5]):
        if word_ok[word[t]] and not pos_bad[t]:
            return True
    return False


@njit(cache=True)
def _valid_tags(nodes, root):
    cat = nodes[root, 1]
    if cat == VP:
        return VP_SET
    if cat == NP or cat == NM:
        return NP_SET
    child = nodes[root, 6]
    if child < 0:
        return NO_SET
    has_vp = False
    while child >= 0:
        c = nodes[child, 1]
        if c == NP or c == NM:
            return NP_SET
        if c == VP:
            has_vp = True
        child = nodes[child, 8]
    return VP_SET if has_vp else NP_SET


@njit(cache=True)
def _search(nodes, start, tags, adaptive, word, word_ok, pos_bad, found, n_found, queue, depth):
    """Breadth-first search for the shallowest valid terminals under ``start`` (appended to ``found``).

    ``adaptive``: the descendable tags are those of the first NP- or VP-like node met (no valid tag at
    the top)."""
    head = 0
    tail = 1
    queue[0] = start
    depth[0] = 0
    shallowest = 1 << 30
    while head < tail:
        node = queue[head]
        d = depth[head]
        head += 1
        cat = nodes[node, 1]
        if adaptive and tags == NO_SET:
            if cat == NP or cat == NM:
                tags = NP_SET
            elif cat == VP:
                tags = VP_SET
        if nodes[node, 0] == 1 and d <= shallowest:
            if _valid(nodes, node, word, word_ok, pos_bad):
                found[n_found] = node
                n_found += 1
                shallowest = min(shallowest, d)
        elif (n_found == 0 or d < shallowest) and nodes[node, 6] >= 0 and (
                d == 0 or tags == NO_SET or _in_set(cat, tags)):
            descend_terminals = tags != NO_SET and _in_set(cat, tags)
            child = nodes[node, 6]
            while child >= 0:
                if nodes[child, 0] == 0 or descend_terminals:
                    queue[tail] = child
                    depth[tail] = d + 1
                    tail += 1
                child = nodes[child, 8]
    return n_found


@njit(cache=True)
def min_span_nodes(nodes, root, word, word_ok, pos_bad, found, queue, depth):
    """The terminals of the minimum span (into ``found``; ``queue`` and ``depth`` are scratch as long as
    ``nodes``); returns how many."""
    n_found = 0
    tags = _valid_tags(nodes, root)
    root_terminal = nodes[root, 0] == 1
    if root_terminal and _valid(nodes, root, word, word_ok, pos_bad):
        found[0] = root
        return 1
    # an invalid terminal root (a run that came before any bracket of the mention) may hold constituents
    child = nodes[root, 6]
    while child >= 0:
        if nodes[child, 0] == 1 and _valid(nodes, child, word, word_ok, pos_bad):
            found[n_found] = child
            n_found += 1
        child = nodes[child, 8]
    if n_found:
        return n_found
    # conjunctions and appositions: each top-level phrase of a valid tag is searched on its own
    top = False
    child = nodes[root, 6]
    while child >= 0:
        if nodes[child, 6] >= 0 and _in_set(nodes[child, 1], tags):
            top = True
            n_found = _search(nodes, child, tags, False, word, word_ok, pos_bad, found, n_found, queue, depth)
        child = nodes[child, 8]
    if not top and not root_terminal:  # (a terminal root: the search stops at it)
        n_found = _search(nodes, root, NO_SET, True, word, word_ok, pos_bad, found, n_found, queue, depth)
    return n_found


@njit(cache=True)
def _by_first_token(m_first, n_tokens):
    """The mentions in the order of their first token (a stable counting sort: the trees are then built
    walking the parse bits forwards, and mentions of the same first token are neighbours)."""
    count = np.zeros(n_tokens + 1, dtype=np.int64)
    for m in range(len(m_first)):
        count[m_first[m] + 1] += 1
    for t in range(n_tokens):
        count[t + 1] += count[t]
    order = np.empty(len(m_first), dtype=np.int64)
    for m in range(len(m_first)):
        order[count[m_first[m]]] = m
        count[m_first[m]] += 1
    return order


@njit(cache=True)
def min_spans(buf, p_s, p_e, word, pos_bad, word_ok, word_keep, word_cat, word_vp,
              m_first, m_len, m_sent_pos, m_own, variant):
    """Minimum-span elements of every mention (see the module's docstring)."""
    n_m = len(m_first)
    total = 0
    for m in range(n_m):
        total += m_len[m]
    # the elements, in the order the mentions are searched, then in the mentions' order (CSR)
    kind = np.empty(total, dtype=np.int64)
    at_a = np.empty(total, dtype=np.int64)
    at_b = np.empty(total, dtype=np.int64)
    at_index = np.empty(total, dtype=np.int64)
    first_el = np.zeros(n_m, dtype=np.int64)
    n_el = np.zeros(n_m, dtype=np.int64)
    root_vp = np.zeros(n_m, dtype=np.bool_)
    no_tree = np.zeros(n_m, dtype=np.bool_)
    cap = 0  # a node per bracket or star at most, a terminal per flush, the dummy root
    for m in range(n_m):
        c = 3
        for t in range(m_first[m], m_first[m] + m_len[m]):
            c += 2 * (p_e[t] - p_s[t]) + 1
        cap = max(cap, c)
    nodes = np.empty((cap, 9), dtype=np.int64)
    scratch = np.empty((5, cap), dtype=np.int64)  # stack, roots, found, queue, depth
    order = _by_first_token(m_first, len(p_s))
    k = 0
    group = 0  # where the mentions of the current first token start in ``order``
    for x in range(n_m):
        m = order[x]
        if m_first[m] != m_first[order[group]]:
            group = x
        twin = -1  # the same span met before (a key mention and its response twin): its elements, own words
        for y in range(group, x):
            if m_len[order[y]] == m_len[m] and m_sent_pos[order[y]] == m_sent_pos[m]:
                twin = order[y]
                break
        first_el[m] = k
        if twin >= 0:
            root_vp[m] = root_vp[twin]
            no_tree[m] = no_tree[twin]
            n_el[m] = n_el[twin]
            for e in range(first_el[twin], first_el[twin] + n_el[twin]):
                kind[k] = kind[e]
                at_index[k] = at_index[e]
                if kind[e] == FALLBACK:
                    at_a[k] = m_own[m] + at_a[e] - m_own[twin]
                    at_b[k] = at_a[k] + 1
                else:
                    at_a[k] = at_a[e]
                    at_b[k] = at_b[e]
                k += 1
            continue
        root, n = build_tree(buf, p_s, p_e, m_first[m], m_len[m], m_sent_pos[m], word, word_cat, word_vp,
                             word_keep, variant, nodes, scratch[0], scratch[1])
        if root < 0 and variant == COVAL:  # coval then compares the mention by its span
            no_tree[m] = True
            continue
        found = scratch[2]
        n_found = 0
        if root >= 0:
            root_vp[m] = nodes[root, 2] == 1
            n_found = min_span_nodes(nodes, root, word, word_ok, pos_bad, found, scratch[3], scratch[4])
        if n_found:
            for f in range(n_found):
                node = found[f]
                kind[k] = TERMINAL
                at_a[k] = nodes[node, 4]
                at_b[k] = nodes[node, 5]
                at_index[k] = nodes[node, 3]
                k += 1
        else:  # nothing valid (a parse error, punctuation only): the whole span
            for i in range(m_len[m]):
                kind[k] = FALLBACK
                at_a[k] = m_own[m] + i
                at_b[k] = m_own[m] + i + 1
                at_index[k] = i if variant == COVAL else m_sent_pos[m] + i
                k += 1
        n_el[m] = k - first_el[m]
    el_off = np.zeros(n_m + 1, dtype=np.int64)
    el_off[1:] = np.cumsum(n_el)
    at = np.empty(k, dtype=np.int64)  # the elements in the mentions' order: where each was found
    for m in range(n_m):
        at[el_off[m]:el_off[m + 1]] = np.arange(first_el[m], first_el[m] + n_el[m])
    return el_off, kind[at], at_a[at], at_b[at], at_index[at], root_vp, no_tree


@njit(cache=True)
def check_parse_bits(buf, p_s, p_e, sentence_start):
    """Parse bits coval reads but that are not one sentence's tree: returns (the first bad token, why,
    how many sentences have such bits), why being 0 a bit not '(TAG'... '*' ')'... (a missing bit '-'),
    1 a closing with nothing open in the sentence, 2 a sentence left with open brackets (reported at its
    last token); (-1, -1, 0) if all are good."""
    first = -1
    why = -1
    n_bad = 0
    depth = 0
    bad_sentence = False
    n = len(p_s)
    for t in range(n + 1):
        if t == n or sentence_start[t]:
            if t > 0 and depth != 0 and not bad_sentence:
                bad_sentence = True
                if first < 0:
                    first, why = t - 1, 2
            if bad_sentence:
                n_bad += 1
            if t == n:
                break
            depth = 0
            bad_sentence = False
        stars = 0
        kind = -1
        for q in range(p_s[t], p_e[t]):
            c = buf[q]
            if c == _STAR:
                stars += 1
            elif c == _OPEN:
                if stars:
                    kind = 0
                depth += 1
            elif c == _CLOSE:
                if not stars:
                    kind = 0
                depth -= 1
                if depth < 0 and kind < 0:
                    kind = 1
            elif stars:
                kind = 0
        if stars != 1:
            kind = 0
        if kind >= 0 and not bad_sentence:
            bad_sentence = True
            if first < 0:
                first, why = t, kind
    return first, why, n_bad


@njit(cache=True)
def star_counts(buf, p_s, p_e):
    """The number of '*' in each token's parse bit (coval takes a token's word into a run once per '*')."""
    n = len(p_s)
    stars = np.zeros(n, dtype=np.int64)
    for t in range(n):
        k = 0
        for q in range(p_s[t], p_e[t]):
            if buf[q] == _STAR:
                k += 1
        stars[t] = k
    return stars


@njit(cache=True)
def fields_among(buf, fs, fe, tags, tag_off):
    """Whether each field ``buf[fs[i]:fe[i]]`` is one of the byte strings ``tags`` holds (CSR ``tag_off``)."""
    out = np.zeros(len(fs), dtype=np.bool_)
    for i in range(len(fs)):
        for g in range(len(tag_off) - 1):
            if fe[i] - fs[i] != tag_off[g + 1] - tag_off[g]:
                continue
            same = True
            for k in range(tag_off[g + 1] - tag_off[g]):
                if buf[fs[i] + k] != tags[tag_off[g] + k]:
                    same = False
                    break
            if same:
                out[i] = True
                break
    return out


@njit(cache=True)
def _hash(values, lo, hi):
    """A polynomial hash modulo 2^40, its high bits folded in (no overflow in int64, so the same without the
    JIT; masks, not divisions, which cost a third of an interning)."""
    h = hi - lo
    for p in range(lo, hi):
        h = (h * 1000003 + (values[p] & 0xFFFFFFFFFF)) & 0xFFFFFFFFFF
    return h ^ (h >> 21)


@njit(cache=True)
def _same(values, off, a, b):
    if off[a + 1] - off[a] != off[b + 1] - off[b]:
        return False
    for k in range(off[a + 1] - off[a]):
        if values[off[a] + k] != values[off[b] + k]:
            return False
    return True


@njit(cache=True)
def intern_sequences(values, off):
    """An id per sequence (CSR ``off`` over ``values``), equal ids for equal sequences (compared in full),
    numbered by first appearance."""
    n = len(off) - 1
    size = 1
    while size < 2 * n + 2:
        size *= 2
    slots = np.full(size, -1, dtype=np.int64)  # open addressing: the first sequence of each id
    ids = np.empty(n, dtype=np.int64)
    next_id = 0
    for i in range(n):
        k = _hash(values, off[i], off[i + 1]) & (size - 1)
        while True:
            j = slots[k]
            if j < 0:
                slots[k] = i
                ids[i] = next_id
                next_id += 1
                break
            if _same(values, off, i, j):
                ids[i] = ids[j]
                break
            k = (k + 1) & (size - 1)
    return ids


@njit(cache=True)
def element_strings(el_kind, el_a, el_b, word, stars, own_word):
    """coval's string of each minimum-span element as an id (equal strings, equal ids): a terminal's is the
    words of its run of key tokens ``[a, b)``, each once per '*' of its parse bit; a fallback's the one word
    ``own_word[a]``."""
    n = len(el_kind)
    off = np.zeros(n + 1, dtype=np.int64)
    for e in range(n):
        k = 1
        if el_kind[e] == TERMINAL:
            k = 0
            for t in range(el_a[e], el_b[e]):
                k += stars[t]
        off[e + 1] = off[e] + k
    values = np.empty(off[n], dtype=np.int64)
    for e in range(n):
        p = off[e]
        if el_kind[e] == TERMINAL:
            for t in range(el_a[e], el_b[e]):
                for _ in range(stars[t]):
                    values[p] = word[t]
                    p += 1
        else:
            values[p] = own_word[el_a[e]]
    return intern_sequences(values, off)


@njit(cache=True)
def _sort_units(values, lo, n, step):
    """Insertion sort, in place, of the ``n`` units of ``step`` values at ``values[lo:]`` (by their values
    in order: a minimum span has few elements)."""
    for i in range(1, n):
        j = i
        while j > 0:
            a = lo + (j - 1) * step
            b = a + step
            greater = False
            for s in range(step):
                if values[a + s] != values[b + s]:
                    greater = values[a + s] > values[b + s]
                    break
            if not greater:
                break
            for s in range(step):
                tmp = values[a + s]
                values[a + s] = values[b + s]
                values[b + s] = tmp
            j -= 1


@njit(cache=True)
def _drop_repeats(values, lo, n, step):
    """Of ``n`` sorted units of ``step`` values at ``values[lo:]``, keep one of each (in place); returns
    how many values remain."""
    w = 0
    for r in range(n):
        src = lo + r * step
        repeat = w > 0
        if repeat:
            for s in range(step):
                if values[src + s] != values[lo + w - step + s]:
                    repeat = False
                    break
        if not repeat:
            for s in range(step):
                values[lo + w + s] = values[src + s]
            w += step
    return w


@njit(cache=True)
def mention_identities(el_off, x, y, doc, sentence, start, end, no_tree, token_sets):
    """An id per mention: equal for equal (document, sentence, minimum span).

    A minimum span is the set of pairs (x, y) of its elements (coval: terminal string id, index), or with
    ``token_sets`` the set of tokens of the ranges [x, y).  A mention without a tree is its span."""
    n = len(el_off) - 1
    off = np.zeros(n + 1, dtype=np.int64)
    for m in range(n):  # room for each mention's sequence; packed as it is written
        if no_tree[m]:
            size = 5
        elif token_sets:
            size = 3
            for e in range(el_off[m], el_off[m + 1]):
                size += y[e] - x[e]
        else:
            size = 3 + 2 * (el_off[m + 1] - el_off[m])
        off[m + 1] = off[m] + size
    values = np.empty(off[n], dtype=np.int64)
    p = 0
    for m in range(n):
        values[p] = doc[m]
        values[p + 1] = sentence[m]
        if no_tree[m]:
            values[p + 2] = -1
            values[p + 3] = start[m]
            values[p + 4] = end[m]
            off[m] = p
            p += 5
            continue
        values[p + 2] = 0
        q = p + 3
        if token_sets:
            for e in range(el_off[m], el_off[m + 1]):
                for t in range(x[e], y[e]):
                    values[q] = t
                    q += 1
            step = 1
        else:
            for e in range(el_off[m], el_off[m + 1]):
                values[q] = x[e]
                values[q + 1] = y[e]
                q += 2
            step = 2
        units = (q - p - 3) // step
        _sort_units(values, p + 3, units, step)  # a set: sorted, repeats dropped
        off[m] = p
        p += 3 + _drop_repeats(values, p + 3, units, step)
    off[n] = p
    return intern_sequences(values, off)


@njit(cache=True)
def first_completions(chain, completion, n_chains):
    """Per chain, the least ``completion`` of its mentions (``chain``: each mention's, in [0, n_chains))."""
    first = np.full(n_chains, np.iinfo(np.int64).max, dtype=np.int64)
    for m in range(len(chain)):
        if completion[m] < first[chain[m]]:
            first[chain[m]] = completion[m]
    return first


@njit(cache=True)
def nested_removals(chain_off, members, sentence, start, end, ident, keep_singletons):
    """coval's remove_nested over chains (``members[chain_off[c]:chain_off[c + 1]]``, mention indices):
    True for each mention it removes."""
    remove = np.zeros(len(sentence), dtype=np.bool_)
    for c in range(len(chain_off) - 1):
        lo, hi = chain_off[c], chain_off[c + 1]
        s = hi - lo
        listed = np.zeros(s, dtype=np.int64)  # times each member is listed as nested
        count = 0
        for i in range(lo, hi):
            a = members[i]
            for j in range(i + 1, hi):
                b = members[j]
                if ident[a] == ident[b] or sentence[a] != sentence[b]:
                    continue
                if start[a] >= start[b] and end[a] <= end[b]:
                    listed[i - lo] += 1
                    count += 1
                elif start[b] >= start[a] and end[b] <= end[a]:
                    listed[j - lo] += 1
                    count += 1
        if count == 0:
            continue
        if s != 1 and s - count == 1:
            if not keep_singletons:
                for i in range(lo, hi):
                    remove[members[i]] = True
            continue
        for i in range(lo, hi):  # every member equal to a listed one goes
            for j in range(lo, hi):
                if listed[j - lo] and ident[members[i]] == ident[members[j]]:
                    remove[members[i]] = True
                    break
    return remove
