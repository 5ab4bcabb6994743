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
    """Token mode's documents read one at a time with sets and dicts (:func:`token_sides`), the oracle of the
    engine's reading of them all at once (``engine._token_sides``, ``nugget/token_spans.py``)."""
    from fastscore.nugget import engine

    monkeypatch.setattr(engine, "_token_sides", token_sides)


def token_sides(spans, tables, pairs: list, kept: dict, opts, out, unknown_tokens: dict) -> None:
    """``engine._token_sides`` document by document: each table read into a dict (``read_token_table``), each
    span into a set of its visible tokens, numbered in the order they come."""
    from fastscore.formats.tbf import ASCII_BLANKS, TbfDocument, read_token_table
    from fastscore.nugget import engine
    from fastscore.nugget.options import ASCII_LOWER
    from fastscore.messages import shown

    sides: dict = {"gold": [], "system": []}
    for d, g_doc, s_doc in pairs:
        path = engine._token_path(d, opts, g_doc)  # None: no table wanted; the table None: no such file
        table = None if path is None else read_token_table(path)
        docs = {"gold": g_doc, "system": s_doc or TbfDocument(d, 0, file=spans.files["system"])}
        read = {t for t, words in (table or {}).items()
                if any(w.translate(ASCII_LOWER).strip(ASCII_BLANKS) in opts.invisible for w in words)}
        named = {t for role, doc in docs.items() for r in doc.rows for t in spans.files[role].spans[r].split(",")}
        # Python 3's reading matters where a named token has a word outside ASCII (the warning names them)
        if opts.invisible and any(t not in read and not all(w.isascii() for w in table[t])
                                  for t in named if t in (table or {})):
            invisible = engine._invisible_ids(table, opts, path, out.kept_visible)
        else:
            invisible = read
        numbers: dict[str, int] = {}
        for role, doc in docs.items():
            tbf, ids, starts, lengths = spans.files[role], [], [0], []
            for r in kept[role][len(sides[role])]:
                visible = {t for t in tbf.spans[r].split(",") if t not in invisible}
                ids.extend(sorted(numbers.setdefault(t, len(numbers)) for t in visible))
                starts.append(len(ids))
                lengths.append(len(visible))
                missing = next((t for t in tbf.spans[r].split(",") if t not in table), None) if table is not None \
                    else None
                if missing is not None:
                    unknown_tokens[role].append(f'{tbf.path}:{tbf.lines[r]}: document "{shown(doc.id)}": mention '
                                                f"{tbf.ids[r]!r} names token {missing!r}, which {path} does not have")
            sides[role].append((ids, starts, lengths))
    for role, side in (("gold", out.gold), ("system", out.system)):
        tbf = spans.files[role]
        types, realis = engine._canonical_columns(tbf, opts)
        for rows, (ids, starts, lengths) in zip(kept[role], sides[role]):
            side.append(engine.DocMentions(tbf, rows, ids, starts, lengths, engine._pick(types, rows),
                                           engine._pick(realis, rows)))