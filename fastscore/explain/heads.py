"""Heads of mentions from the key's parse (CoNLL-2012 parse bits), as the Berkeley Coreference Analyser finds them.

A mention's head is the head word of the lowest constituent with exactly its span, found with Collins' head
rules (Collins 1999, with Magerman's table; NP and NML by Collins' NP rules; an unknown label takes its last
child's head); a mention that is no constituent takes its last word.  Without a parse every head is the last word.
"""
from __future__ import annotations

from dataclasses import dataclass, field

# label -> (search from the left?, priorities): a child matches a priority by its label or its head's tag
RULES = {
    "ADJP": (False, "NNS QP NN $ ADVP JJ VBN VBG ADJP JJR NP JJS DT FW RBR RBS SBAR RB"),
    "ADVP": (True, "RB RBR RBS FW ADVP TO CD JJR JJ IN NP JJS NN"),
    "CONJP": (True, "CC RB IN"),
    "FRAG": (True, ""),
    "INTJ": (False, ""),
    "LST": (True, "LS :"),
    "NAC": (False, "NN NNS NNP NNPS NP NAC EX $ CD QP PRP VBG JJ JJS JJR ADJP FW"),
    "PP": (True, "IN TO VBG VBN RP FW"),
    "PRN": (False, ""),
    "PRT": (True, "RP"),
    "QP": (False, "$ IN NNS NN JJ RB DT CD NCD QP JJR JJS"),
    "RRC": (True, "VP NP ADVP ADJP PP"),
    "S": (False, "TO IN VP S SBAR ADJP UCP NP"),
    "SBAR": (False, "WHNP WHPP WHADVP WHADJP IN DT S SQ SINV SBAR FRAG"),
    "SBARQ": (False, "SQ S SINV SBARQ FRAG"),
    "SINV": (False, "VBZ VBD VBP VB MD VP S SINV ADJP NP"),
    "SQ": (False, "VBZ VBD VBP VB MD VP SQ"),
    "UCP": (True, ""),
    "VP": (False, "TO VBD VBN MD VBZ VB VBG VBP VP ADJP NN NNS NP"),
    "WHADJP": (False, "CC WRB JJ ADJP"),
    "WHADVP": (True, "CC WRB"),
    "WHNP": (False, "WDT WP WP$ WHADJP WHPP WHNP"),
    "WHPP": (True, "IN TO FW"),
    "NX": (False, "NN NNS NNP NNPS NP NAC EX $ CD QP PRP VBG JJ JJS JJR ADJP FW"),  # the Analyser's additions
    "X": (False, "NN NNS NNP NNPS NP NAC EX $ CD QP PRP VBG JJ JJS JJR ADJP FW"),
    "META": (False, ""),
}
RULES = {label: (left, tuple(priorities.split())) for label, (left, priorities) in RULES.items()}
# Collins' NP rules, in order: (search from the left?, labels or tags)
NP_RULES = ((False, frozenset("NN NNP NNPS NNS NX POS JJR".split())), (True, frozenset(("NP", "NML"))),
            (False, frozenset(("$", "ADJP", "PRN"))), (False, frozenset(("CD",))),
            (False, frozenset(("JJ", "JJS", "RB", "QP"))))


@dataclass
class Node:
    label: str
    start: int
    end: int = -1
    children: list = field(default_factory=list)
    head: tuple = ()  # (word position, tag)


def parse_sentence(tags: list, bits: list) -> Node | None:
    """The tree of one sentence from its parse bits (None: no parse, or brackets that do not close)."""
    if all(b in ("-", "_", "") for b in bits):
        return None
    stack: list[Node] = [Node("", 0)]
    for i, (tag, bit) in enumerate(zip(tags, bits)):
        if bit.count("*") != 1:
            return None
        opens, closes = bit.split("*")
        for label in opens.split("(")[1:]:
            node = Node(label, i)
            stack[-1].children.append(node)
            stack.append(node)
        stack[-1].children.append(Node(tag, i, i + 1, head=(i, tag)))
        if closes.strip(")"):
            return None
        for _ in closes:
            if len(stack) < 2:
                return None
            done = stack.pop()
            done.end = done.children[-1].end
    if len(stack) != 1 or len(stack[0].children) != 1:
        return None
    root = stack[0].children[0]
    _find_heads(root)
    return root


def _find_heads(node: Node) -> tuple:
    if node.head:
        return node.head
    for child in node.children:
        _find_heads(child)
    node.head = _head(node)
    return node.head


def _head(node: Node) -> tuple:
    kids = node.children
    if node.label in RULES:
        left, priorities = RULES[node.label]
        ordered = kids if left else kids[::-1]
        for want in priorities:
            for child in ordered:
                if child.label == want or child.head[1] == want:
                    return child.head
        return ordered[0].head
    if node.label in ("NP", "NML"):
        if kids[-1].head[1] == "POS":
            return kids[-1].head
        for left, wanted in NP_RULES:
            for child in (kids if left else kids[::-1]):
                if child.label in wanted or child.head[1] in wanted:
                    return child.head
    return kids[-1].head


def lowest(node: Node, start: int, end: int) -> Node | None:
    """The lowest node with exactly this span."""
    found = None
    while node is not None and node.start <= start and end <= node.end:
        if node.start == start and node.end == end:
            found = node
        node = next((c for c in node.children if c.start <= start and end <= c.end), None)
    return found


def mention_head(tree: Node | None, start: int, end: int) -> int:
    """The position of a mention's head word in its sentence."""
    if tree is not None:
        node = lowest(tree, start, end)
        if node is not None:
            return node.head[0]
    return end - 1
