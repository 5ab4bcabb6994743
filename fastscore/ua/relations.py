"""Non-referring markables and bridging pairs, counted per document as the UA scorer counts them."""
from __future__ import annotations

from .reader import Markable, UADocument


def same_markable(key: Markable, other: Markable) -> bool:
    """The scorer's equality of a key markable and another: with a Min (minimum spans), the other lies between
    the key's bounds and its Min; else the same span."""
    if key.min is not None:
        return key.start <= other.start <= key.min[0] and key.min[1] <= other.end <= key.end
    return key.span == other.span


def non_referring_counts(key: list[Markable], sys: list[Markable]) -> tuple[int, int, int]:
    """(found, key's, response's): key non-referring markables with an equal response one, and the two counts
    less the response's with no equal key one counted as found (the scorer's tp, tp + fn, tp + fp)."""
    tp = sum(1 for k in key if any(same_markable(k, s) for s in sys))
    fp = sum(1 for s in sys if not any(same_markable(k, s) for k in key))
    return tp, len(key), tp + fp


def _pairs(doc: UADocument, with_min: bool) -> dict:
    """anaphor span -> (anaphor, anchor) markables; an anaphor span given twice keeps its first place and its last
    anchor (the scorer's dictionary of markables)."""
    out: dict = {}
    for anaphor, anchor in doc.bridging.items():
        ana, ant = doc.markables[anaphor], doc.markables[anchor]
        if ana.span in out:
            ana = out[ana.span][0]
        out[ana.span] = (ana, ant)
    return out


def bridging_counts(key_doc: UADocument, sys_doc: UADocument, key_cluster_of: dict) -> list[int]:
    """[tp, fp, fn] of anaphor recognition, full bridging by markable, full bridging by entity (9 numbers);
    ``key_cluster_of``: key span -> its key cluster (the scored clusters)."""
    key, sys = _pairs(key_doc, True), _pairs(sys_doc, False)
    tp_ar = fp_ar = fn_ar = tp_m = fp_m = fn_m = tp_e = fp_e = fn_e = 0

    def same_entity(a: Markable, b: Markable) -> bool:
        return (a.span in key_cluster_of and b.span in key_cluster_of
                and key_cluster_of[a.span] == key_cluster_of[b.span])

    for span, (_, k_ant) in key.items():
        if span not in sys:
            fn_ar += 1
            fn_m += 1
            fn_e += 1
            continue
        tp_ar += 1
        s_ant = sys[span][1]
        if same_markable(k_ant, s_ant):
            tp_m += 1
            tp_e += 1
        else:
            fn_m += 1
            if same_entity(s_ant, k_ant):
                tp_e += 1
            else:
                fn_e += 1
    for span, (_, s_ant) in sys.items():
        if span not in key:
            fp_ar += 1
            fp_m += 1
            fp_e += 1
            continue
        k_ant = key[span][1]
        if not same_markable(k_ant, s_ant):
            fp_m += 1
            if not same_entity(s_ant, k_ant):
                fp_e += 1
    return [tp_ar, fp_ar, fn_ar, tp_m, fp_m, fn_m, tp_e, fp_e, fn_e]
