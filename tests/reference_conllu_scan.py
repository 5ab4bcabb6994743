"""Obviously-correct pure-Python versions of the CoNLL-U scanning and CorefUD matching kernels
(``kernels/conllu_scan.py``, ``kernels/corefud_match.py``).

The references of the whole pipelines are ``tests.reference_conllu`` (the reader) and
``tests.reference_corefud.match_python`` (the matching); these are the references of single kernels."""
from __future__ import annotations

import re

_BLANK = re.compile(r"(\n[ \t]*\n)")


def blocks(text: str) -> list[tuple[int, list[int]]]:
    """The reader's blocks: (first line of the piece, line numbers of its non-blank lines), as
    ``re.split(r"(\\n[ \\t]*\\n)")`` cuts the text (a line ``str.strip`` empties is blank within a piece)."""
    out = []
    line = 1
    for n, piece in enumerate(_BLANK.split(text)):
        if n % 2 == 0 and piece.strip():
            lines = piece.split("\n")
            out.append((line, [line + k for k, x in enumerate(lines) if x.strip()]))
        line += piece.count("\n")
    return out


def same_spans(a: bytes, s_a, e_a, b: bytes, s_b, e_b) -> list[bool]:
    return [a[x:y] == b[u:v] for x, y, u, v in zip(s_a, e_a, s_b, e_b)]


def mention_heads(words_as_added: list[list[int]], events: list[tuple[int, int, int]]) -> list[int] | None:
    """Per mention, its head: event (kind, index, count): kind 0 none (the smallest word), 1 the index
    into its first ``count`` words sorted, 2 into them as added; None if an index is outside."""
    out = []
    for words, (kind, h, cnt) in zip(words_as_added, events):
        if kind == 0:
            out.append(min(words))
            continue
        seen = sorted(words[:cnt]) if kind == 1 else words[:cnt]
        if not 1 <= h <= cnt:
            return None
        out.append(seen[h - 1])
    return out


def equal_rows(key: list[tuple], response: list[tuple]) -> tuple[list[int], list[int]]:
    """(response row equal to each key mention, key row equal to each response mention), -1 if none;
    mentions as hashable values (their words, and head in head matching), unique on each side."""
    where_r = {v: j for j, v in enumerate(response)}
    where_k = {v: i for i, v in enumerate(key)}
    return [where_r.get(v, -1) for v in key], [where_k.get(v, -1) for v in response]


def deps_f1(a: list[tuple[int, int]], b: list[tuple[int, int]]) -> float:
    """10 * F1 of the (parent, relation) sets + F1 of the parent sets (both non-empty)."""
    def f(x: set, y: set) -> float:
        common = len(x & y)
        p, r = common / len(x), common / len(y)
        return 2 * p * r / (p + r) if p > 0 and r > 0 else 0

    return 10 * f(set(a), set(b)) + f({p for p, _ in a}, {p for p, _ in b})
