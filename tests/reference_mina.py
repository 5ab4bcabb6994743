"""Plain-Python references for the MINA kernels: trees as objects, coval's evaluator as dictionaries.

``min_span(bits, words, pos, sent_pos, own_words, variant)`` gives a mention's minimum span as coval
(variant "coval") or the paper (variant "paper") defines it: a set of (terminal words, index) pairs, or for
the paper a set of token positions.  ``coval_counts(key, response)`` gives (p_num, p_den, r_num, r_den) of
each metric for one document whose clusters are lists of hashable mention identities.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

NP_TAGS = ("NP", "NM", "QP", "NX")


@dataclass
class Node:
    tag: str  # letters of a constituent's tag, or the words of a terminal joined by spaces
    terminal: bool
    index: int
    tokens: tuple = ()  # a terminal's sentence positions
    pos: tuple = ()
    children: list = field(default_factory=list)


def _word_ok(w: str) -> bool:
    return (any(c.isalpha() or c.isdigit() for c in w) or w == "%") and w not in ("-LRB-", "-RRB-")


class Mention:
    def __init__(self, bits, words, pos, sent_pos, variant):
        self.bits, self.words, self.pos, self.sent_pos, self.variant = bits, words, pos, sent_pos, variant
        self.skipped = ("CC", "DT", "IN") if variant == "coval" else ("CC", "DT")

    def keeps(self, run) -> bool:
        if self.variant == "coval":
            return any(self.words[i].isalpha() or self.words[i].isdigit() for i in run)
        return any(any(c.isalpha() or c.isdigit() for c in self.words[i]) for i in run)

    def terminal(self, run, index) -> Node:
        return Node(" ".join(self.words[i] for i in run), True, index,
                    tuple(self.sent_pos + i for i in run), tuple(self.pos[i] for i in run))

    def tree(self):
        stack, roots, run, tag, started, popped = [], [], [], "", False, None

        def place(node):
            if stack:
                stack[-1].children.append(node)
            else:
                stack.append(node)

        for i, bit in enumerate(self.bits):
            index = self.sent_pos + i
            for j, c in enumerate(bit):
                if c == "(":
                    if started:
                        node = Node(tag, False, index)
                        if stack:
                            stack[-1].children.append(node)
                        stack.append(node)
                        tag = ""
                    if run:
                        if self.keeps(run):
                            place(self.terminal(run, index))
                        run = []
                    started = True
                elif c == "*":
                    run.append(i)
                    if started:
                        node = Node(tag, False, index)
                        if stack:
                            stack[-1].children.append(node)
                        stack.append(node)
                        tag, started = "", False
                    elif tag:
                        roots.append(Node(tag, False, index))
                elif c == ")":
                    if run and (self.variant == "coval" or self.keeps(run)):
                        place(self.terminal(run, index))
                    run = []
                    if stack:
                        popped = stack.pop()
                        if not stack:
                            roots.append(popped)
                    started = False
                elif c.isascii() and c.isalpha():
                    tag += c
                if i == len(self.bits) - 1 and j == len(bit) - 1 and run and (
                        self.variant == "coval" or self.keeps(run)):
                    place(self.terminal(run, index))
                    run = []
        while stack:
            popped = stack.pop()
            if not stack:
                roots.append(popped)
        if len(roots) > 1:
            return Node("NP", False, self.sent_pos, children=roots)
        return popped

    def valid(self, node) -> bool:
        return any(_word_ok(w) and p not in self.skipped for w, p in zip(node.tag.split(" "), node.pos))

    def search(self, start, tags, adaptive, found):
        queue = [(start, 0)]
        shallowest = float("inf")
        while queue:
            node, depth = queue.pop(0)
            if adaptive and tags is None:
                tags = NP_TAGS if node.tag[:2] in ("NP", "NM") else ("VP",) if node.tag[:2] == "VP" else None
            if node.terminal and depth <= shallowest:
                if self.valid(node):
                    found.append(node)
                    shallowest = min(shallowest, depth)
            elif (not found or depth < shallowest) and node.children and (
                    depth == 0 or tags is None or node.tag[:2] in tags):
                for child in node.children:
                    if not child.terminal or (tags is not None and node.tag[:2] in tags):
                        queue.append((child, depth + 1))

    def min_span_nodes(self, root) -> list:
        if root.tag[:2] == "VP":
            tags = ("VP",)
        elif root.tag[:2] in ("NP", "NM"):
            tags = NP_TAGS
        elif root.children:
            first = [c.tag[:2] for c in root.children]
            tags = NP_TAGS if ("NP" in first or "NM" in first) else ("VP",) if "VP" in first else NP_TAGS
        else:
            tags = None
        if root.terminal and self.valid(root):
            return [root]
        # an invalid terminal root goes on to its children (constituents opened after its run)
        found = [c for c in root.children if c.terminal and self.valid(c)]
        if found:
            return found
        top = [c for c in root.children if c.children and tags is not None and c.tag[:2] in tags]
        for node in top:
            self.search(node, tags, False, found)
        if not top and not root.terminal:  # a search from a terminal root stops at it
            self.search(root, None, True, found)
        return found


def min_span(bits, words, pos, sent_pos, own_words, variant="coval"):
    """(minimum span as a frozenset, the tree's root is tagged VP)."""
    m = Mention(bits, words, pos, sent_pos, variant)
    root = m.tree()
    found = m.min_span_nodes(root) if root is not None else []  # the paper's tree of punctuation only: none
    verbal = root is not None and root.tag == "VP"
    if variant == "paper":
        if found:
            return frozenset(t for node in found for t in node.tokens), verbal
        return frozenset(range(sent_pos, sent_pos + len(bits))), verbal
    if found:
        return frozenset((node.tag, node.index) for node in found), verbal
    return frozenset((w, i) for i, w in enumerate(own_words)), verbal


# ---- coval's evaluator, as dictionaries


def _last_cluster(clusters) -> dict:
    out = {}
    for i, c in enumerate(clusters):
        for m in c:
            out[m] = i
    return out


def _muc(clusters, to):
    tp = p = 0
    for c in clusters:
        p += len(c) - 1
        found = [to[m] for m in c if m in to]
        tp += len(found) - len(set(found))
    return tp, p


def _bcub(clusters, to):
    num = den = 0.0
    for c in clusters:
        counts = Counter(to[m] for m in c if m in to)
        num += sum(v * v for v in counts.values()) / len(c)
        den += len(c)
    return num, den


def _lea(clusters, others, to):
    num = den = 0.0
    for c in clusters:
        if len(c) == 1:
            common = 1 if c[0] in to and len(others[to[c[0]]]) == 1 else 0
            num += common
        else:
            links = sum(1 for i in range(len(c)) for j in range(i + 1, len(c))
                        if c[i] in to and c[j] in to and to[c[i]] == to[c[j]])
            num += len(c) * links / (len(c) * (len(c) - 1) / 2)
        den += len(c)
    return num, den


def _ceaf(key, resp, phi):
    import numpy as np
    from scipy.optimize import linear_sum_assignment

    w = np.array([[phi(k, r) for r in resp] for k in key]).reshape(len(key), len(resp))
    rows, cols = linear_sum_assignment(-w)
    return float(w[rows, cols].sum())


def _links(cluster_of: dict) -> dict:
    """{True: coreference links, False: non-coreference links} between the distinct mentions of a side."""
    ms = list(cluster_of)
    links = {True: set(), False: set()}
    for i, a in enumerate(ms):
        for b in ms[i + 1:]:
            links[cluster_of[a] == cluster_of[b]].add(frozenset((a, b)))
    return links


def coval_counts(key: list[list], resp: list[list]) -> dict:
    """(p_num, p_den, r_num, r_den) per metric for one document; CEAFm with mention denominators; BLANC
    over distinct mentions (MINA's) and with every mention (``ua_blanc_*``, CorefUD's)."""
    to_resp, to_key = _last_cluster(resp), _last_cluster(key)
    k_set = {m for c in key for m in c}
    r_set = {m for c in resp for m in c}
    out = {"mentions": (len(r_set & k_set), len(r_set), len(k_set & r_set), len(k_set))}
    pn, pd = _muc(resp, to_key)
    rn, rd = _muc(key, to_resp)
    out["muc"] = (pn, pd, rn, rd)
    out["bcub"] = (*_bcub(resp, to_key), *_bcub(key, to_resp))
    out["lea"] = (*_lea(resp, key, to_key), *_lea(key, resp, to_resp))
    phi3 = _ceaf(key, resp, lambda k, r: len([m for m in k if m in r]))
    phi4 = _ceaf(key, resp, lambda k, r: 2 * len([m for m in k if m in r]) / (len(k) + len(r)))
    out["ceafm"] = (phi3, sum(map(len, resp)), phi3, sum(map(len, key)))
    out["ceafe"] = (phi4, len(resp), phi4, len(key))
    # the Universal Anaphora scorer's BLANC with these lookups (CorefUD's), every mention counted
    coref = sum(1 for c in key for i in range(len(c)) for j in range(i + 1, len(c))
                if c[i] in to_resp and c[j] in to_resp and to_resp[c[i]] == to_resp[c[j]])
    flat = [(ci, m) for ci, c in enumerate(key) for m in c]
    noncoref = sum(1 for a in range(len(flat)) for b in range(a + 1, len(flat))
                   if flat[a][0] != flat[b][0] and flat[a][1] in to_resp and flat[b][1] in to_resp
                   and to_resp[flat[a][1]] != to_resp[flat[b][1]])
    n_k, n_r = len(flat), sum(map(len, resp))
    k_links = sum(len(c) * (len(c) - 1) // 2 for c in key)
    r_links = sum(len(c) * (len(c) - 1) // 2 for c in resp)
    out["ua_blanc_coref"] = (coref, r_links, coref, k_links)
    out["ua_blanc_noncoref"] = (noncoref, n_r * (n_r - 1) // 2 - r_links, noncoref, n_k * (n_k - 1) // 2 - k_links)
    # BLANC over the mentions the lookups see: distinct identities, each in the last cluster of its side
    k_links, r_links = _links(to_key), _links(to_resp)
    for kind, k in (("blanc_coref", True), ("blanc_noncoref", False)):
        both = len(k_links[k] & r_links[k])
        out[kind] = (both, len(r_links[k]), both, len(k_links[k]))
    return out


def remove_nested(clusters, spans, keep_singletons):
    """coval's remove_nested on clusters of mention indices; ``spans[m] = (identity, sentence, start, end)``."""
    out = []
    for c in clusters:
        listed = []
        for i, a in enumerate(c):
            for b in c[i + 1:]:
                ia, sa, s1, e1 = spans[a]
                ib, sb, s2, e2 = spans[b]
                if ia == ib or sa != sb:
                    continue
                if s1 >= s2 and e1 <= e2:
                    listed.append(a)
                elif s2 >= s1 and e2 <= e1:
                    listed.append(b)
        if len(c) != 1 and len(c) - len(listed) == 1:
            if keep_singletons:
                out.append(list(c))
            continue
        gone = {spans[m][0] for m in listed}
        out.append([m for m in c if spans[m][0] not in gone])
    return out


# ---- identities (kernels/mina.py: element_strings, mention_identities)


def element_string(kind: str, a: int, b: int, words: list, stars: list, own_words: list) -> tuple:
    """coval's string of a minimum-span element: a terminal run [a, b) of key tokens gives each token's word
    once per '*' of its parse bit; a fallback the mention's own word ``own_words[a]``."""
    if kind == "terminal":
        return tuple(w for t in range(a, b) for w in [words[t]] * stars[t])
    return (own_words[a],)


def mention_identity(doc: int, sentence: int, elements: list, span: tuple | None, token_sets: bool) -> tuple:
    """What makes two mentions one: (document, sentence, the set of elements (x, y) or, with ``token_sets``, the
    set of tokens of the ranges [x, y)); a mention without a tree (``span`` given) is its span."""
    if span is not None:
        return doc, sentence, "span", span
    if token_sets:
        return doc, sentence, frozenset(t for x, y in elements for t in range(x, y))
    return doc, sentence, frozenset(elements)
