"""CoNLL-U (CorefUD) key and response read for the error analysis, their mentions filtered and matched as
`fastscore coref` does for CoNLL-U (the CorefUD scorer's preparation and exact, partial or head matching, zeros
paired by their dependencies or linearly).

A sentence's tokens are its nodes in order, words and empty nodes (``7``, ``7.1``, ``8``); an empty node's word is
shown as ``∅``.  A mention is ``(sentence, start, end)`` over those nodes when its nodes are exactly
``start..end-1``; otherwise (a discontinuous mention, or one that skips an empty node) ``(sentence, start, end,
positions)``, ``positions`` its nodes.  A mention whose nodes lie in two sentences is left out (as the other
formats' readers leave out a mention across a sentence boundary).
"""
from __future__ import annotations

from bisect import bisect_right

import numpy as np

from ..errors import InputError, InputNotFound
from .documents import NO_TAG, Document, Side
from .matching import CorefMatching, build_sides

ZERO = "∅"


def read_conllu_sides(key_path: str, response_path: str, matching: CorefMatching, keep_singletons: bool,
                      doc: str | None = None) -> tuple[list[Document], list[str]]:
    """Key documents (in key order) with their response, mentions as `fastscore coref` keeps and matches them."""
    from ..coref.corefud import Matching
    from ..coref.engine import check_documents
    from ..coref.score import match_corefud_sides
    from ..formats.conllu import read_conllu, read_conllu_blocks
    from ..formats.files import read_bytes

    try:
        data = [read_bytes(p, keep=True) for p in (key_path, response_path)]  # once: a pipe is read once
        k, r = read_conllu(key_path), read_conllu(response_path)
        blocks = read_conllu_blocks(key_path, data[0]), read_conllu_blocks(response_path, data[1])
    except InputNotFound:
        raise
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read {getattr(exc, 'filename', None) or key_path}: {exc}") from None
    way = Matching(matching.match or "head", matching.zero_match or "dependent")
    warnings = [*k.warnings, *r.warnings, *check_documents(k, r, doc)]
    k, r, a, key_words, resp_words, matched = match_corefud_sides(k, r, way, keep_singletons, doc, warnings)
    text = _Text(*blocks, k.doc_lines.tolist())
    k_index, r_index = k.doc_index(), r.doc_index()
    docs = []
    for d, name in enumerate(a.doc_names):
        kd = k_index[name]
        words, tags, zeros = text.document(kd)
        document = Document(name, words, tags, Side(), Side(), int(k.doc_lines[kd]), tagset="upos", zeros=zeros,
                            heads={})
        key = text.entries(kd, key_words, np.arange(a.k_off[d], a.k_off[d + 1]), a.k_chain, k.cluster_labels[kd],
                           document.heads, k.path)
        rd = r_index.get(name)
        resp_rows = np.arange(a.r_off[d], a.r_off[d + 1])
        resp_heads: dict = {}
        resp = [] if rd is None else text.entries(kd, resp_words, resp_rows, a.r_chain, r.cluster_labels[rd],
                                                  resp_heads, r.path)
        build_sides(document, [e for e, _ in key], [e for e, _ in resp],
                    _pairs(matched, d, int(a.k_off[d]), int(a.r_off[d]), key, resp), resp_heads)
        docs.append(document)
    for path, (n, line) in text.across.items():
        warnings.append(f"{path}:{line}: {n} mention(s) whose nodes lie in two sentences (discontinuous), left out "
                        "of the analysis (the first here)")
    return docs, warnings


def _pairs(matched, d: int, k_first: int, r_first: int, key: list, resp: list) -> dict:
    """Response mention -> key mention: the scorer's pairs in document ``d`` (what its mention scores count; rows
    of mentions left out, across sentences, pair nothing)."""
    key_at = {i: e[0] for e, i in key}
    resp_at = {j: e[0] for e, j in resp}
    pairs = {}
    for i, j in matched.pairs[d]:
        if i - k_first in key_at and j - r_first in resp_at:
            pairs[resp_at[j - r_first]] = key_at[i - k_first]
    return pairs


class _Text:
    """The key file's sentences as nodes: per document, words (``∅`` for an empty node), UPOS tags, where the
    empty nodes are; each node key's place."""

    def __init__(self, blocks: list, response_blocks: list, doc_lines: list[int]):
        self.blocks, self.response_blocks = blocks, response_blocks  # (the same sentences: empty nodes may differ)
        self.doc_of_block = [bisect_right(doc_lines, b.line) - 1 for b in blocks]
        self.first_block = {}
        for s, d in enumerate(self.doc_of_block):
            self.first_block.setdefault(d, s)
        self.place: dict = {}  # node key -> (file sentence, position)
        self.across: dict = {}  # path -> [mentions across sentences left out, the line of the first]

    def document(self, d: int) -> tuple[list, list, list]:
        from ..formats.conllu import word_key

        words, tags, zeros = [], [], []
        for s in range(self.first_block.get(d, len(self.blocks)), len(self.blocks)):
            if self.doc_of_block[s] != d:
                break
            found: dict = {}  # node key -> (word, UPOS, empty): the key's nodes, then the response's empty nodes
            for block in (self.response_blocks[s], self.blocks[s]):
                for line in block.lines:
                    fields = line.split("\t")
                    if line.startswith("#") or "-" in fields[0]:
                        continue
                    empty = "." in fields[0]
                    found[word_key(s, fields[0])] = (ZERO if empty else fields[1], fields[3], empty)
            nodes = sorted((key, *value) for key, value in found.items())
            for p, (key, _, _, _) in enumerate(nodes):
                self.place[key] = (s, p)
            words.append([n[1] for n in nodes])
            tags.append([n[2] for n in nodes])
            zeros.append({p for p, n in enumerate(nodes) if n[3]})
        return words, None if all(t in NO_TAG for s in tags for t in s) else tags, zeros

    def entries(self, d: int, words, rows: np.ndarray, chains: np.ndarray, labels: list,
                heads: dict, path: str) -> list[tuple[tuple, int]]:
        """(entry, row offset in the document) per mention of ``rows`` inside one sentence; their heads' positions
        put in ``heads`` (a mention listed twice: its first)."""
        first = self.first_block.get(d, 0)
        out = []
        for j, row in enumerate(rows.tolist()):
            places = [self.place[k] for k in words.keys[words.offsets[row]:words.offsets[row + 1]].tolist()]
            s = places[0][0]
            if any(p[0] != s for p in places):
                self.across.setdefault(path, [0, int(words.lines[row])])[0] += 1
                continue
            positions = tuple(p for _, p in places)
            a, e = positions[0], positions[-1] + 1
            mention = (s - first, a, e) if positions == tuple(range(a, e)) else (s - first, a, e, positions)
            head = self.place.get(int(words.head[row]))
            heads.setdefault(mention, head[1] if head is not None and head[0] == s else e - 1)
            out.append(((mention, labels[int(chains[row])], int(words.lines[row])), j))
        return out
