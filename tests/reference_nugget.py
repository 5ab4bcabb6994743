"""Pure-Python oracle of EvmEval's nugget mapping: all pairs, a heap, greedy mappings."""
from __future__ import annotations

import heapq


def dice(g: set, g_len: float, s: set, s_len: float) -> float:
    if g_len + s_len == 0:
        return 0
    return 2.0 * len(g & s) / (g_len + s_len)


def greedy(gold, system):
    """gold/system: lists of (id set, length, type, realis); gold type/realis None = NOT_ANNOTATED.

    Returns (tp per mapping [span, type, realis, type+realis], mapping per gold mention)."""
    heap = []
    for j, (s, s_len, _, _) in enumerate(system):
        for i, (g, g_len, _, _) in enumerate(gold):
            d = dice(g, g_len, s, s_len)
            if d > 0:
                heapq.heappush(heap, (-d, j, i))
    tp = [0.0] * 4
    used_g = [set() for _ in range(4)]
    used_s = [set() for _ in range(4)]
    mapping = [[(-1, 0.0)] * len(gold) for _ in range(4)]
    while heap:
        neg, j, i = heapq.heappop(heap)
        _, _, gt, gr = gold[i]
        _, _, st, sr = system[j]
        ok = [True, gt is None or gt == st, gr is None or gr == sr]
        ok.append(ok[1] and ok[2])
        for m in range(4):
            if ok[m] and j not in used_s[m] and i not in used_g[m]:
                tp[m] += -neg
                used_s[m].add(j)
                used_g[m].add(i)
                mapping[m][i] = (j, -neg)
    return tp, mapping


def optimal(gold, system):
    """Maximum-weight mappings per attribute by scipy's assignment: TP per mapping."""
    import numpy as np
    from scipy.optimize import linear_sum_assignment

    tp = []
    for m in range(4):
        w = np.zeros((len(gold), len(system)))
        for i, (g, g_len, gt, gr) in enumerate(gold):
            for j, (s, s_len, st, sr) in enumerate(system):
                ok = [True, gt is None or gt == st, gr is None or gr == sr]
                ok.append(ok[1] and ok[2])
                if ok[m]:
                    w[i, j] = dice(g, g_len, s, s_len)
        rows, cols = linear_sum_assignment(w, maximize=True) if w.size else ([], [])
        tp.append(float(w[rows, cols].sum()) if w.size else 0.0)
    return tp


def documents_one_by_one(monkeypatch) -> None:
    """Token mode's documents all read by the engine's document-by-document path (``engine._token_side``,
    ``_unknown_tokens``: what it takes for the documents the kernels leave to Python), the oracle of reading
    them all at once (``nugget/token_spans.py``)."""
    import numpy as np

    from fastscore.nugget.token_spans import TokenSpans

    look_up = TokenSpans.look_up

    def every_document_to_python(self, *args):
        found, hidden, python = look_up(self, *args)
        return found, hidden, np.ones_like(python)

    monkeypatch.setattr(TokenSpans, "look_up", every_document_to_python)

