"""An obviously-correct pure-Python oracle of ``kernels/triples.py``: the Triple evaluation module's
counting written as its loops are (lists scanned in order, no index), one document at a time.

A triple here is ``T(first, second, relation, first_label, second_label)`` (ids as lists, repeats
allowed).  Roles: ``a`` is the module's "gold" argument of a comparison, ``b`` its "system" argument.
"""
from __future__ import annotations

from typing import NamedTuple

from fastscore.triples.java import fold

KYOTO_ROLES = {"patient", "done-by", "destination-of", "use-of", "instrument", "source-of", "product-of", "path-of"}


class T(NamedTuple):
    first: list
    second: list
    relation: str
    first_label: str = ""
    second_label: str = ""


def partial(a: list, b: list) -> bool:
    return (not a and not b) or bool(set(a) & set(b))


def exact(a: list, b: list) -> bool:
    return len(a) == len(b) and set(a) <= set(b)


def P(a: T, b: T) -> bool:
    return partial(a.first, b.first) and partial(a.second, b.second)


def X(a: T, b: T) -> bool:
    return exact(a.first, b.first) and exact(a.second, b.second)


def same(a: T, b: T) -> bool:
    return fold(a.relation) == fold(b.relation)


def kyoto(a: T, b: T) -> bool:
    return b.relation == "participant" and a.relation in KYOTO_ROLES


def PR(a, b):
    return same(a, b) and P(a, b)


def XR(a, b):
    return same(a, b) and X(a, b)


def PR_dedup(a, b):
    return P(a, b) if same(a, b) else (kyoto(a, b) and X(a, b))


def XR_dedup(a, b):
    return X(a, b) if same(a, b) else (kyoto(a, b) and X(a, b))


def RP(a, b):
    return a.relation == b.relation and P(a, b)


VARIANTS = {"P": (P, P), "X": (X, X), "PR": (PR, PR_dedup), "XR": (XR, XR_dedup)}


def evaluate(gold: list[T], system: list[T], dedup_exact: bool) -> dict:
    """Per variant: ``match`` (first gold index per system triple, -1), ``unique`` flags per system
    triple, ``counted`` flags per gold triple; ``unique_rel`` per system triple."""
    out = {}
    for v, (match_pred, unique_pred) in VARIANTS.items():
        uniques: list[T] = []
        unique = []
        for s in system:
            fresh = not any(unique_pred(s, u) for u in uniques)
            unique.append(int(fresh))
            if fresh:
                uniques.append(s)
        if dedup_exact:
            dedup = XR_dedup
        else:
            dedup = {"P": P, "X": XR_dedup, "PR": PR_dedup, "XR": XR_dedup}[v]
        correct: list[T] = []
        counted = [0] * len(gold)
        match = []
        for s in system:
            m = next((j for j, g in enumerate(gold) if match_pred(g, s)), -1)
            match.append(m)
            if m >= 0 and not any(dedup(gold[m], c) for c in correct):
                correct.append(gold[m])
                counted[m] = 1
        out[v] = {"match": match, "unique": unique, "counted": counted}
    lists: dict[str, list[T]] = {}
    unique_rel = []
    for s in system:
        same_rel = lists.setdefault(s.relation, [])
        fresh = not any(P(s, u) for u in same_rel)
        unique_rel.append(int(fresh))
        if fresh:
            same_rel.append(s)
    out["unique_rel"] = unique_rel
    return out


def elements(gold: list[T], system: list[T], out_of_range: list[T], side: str) -> dict:
    """``Util.compareElements`` for the first (side ``first``) or second element, and the unique elements
    of the out-of-range triples (``TripleSaxParser.countElementsFirst``)."""
    ids = (lambda t: t.first) if side == "first" else (lambda t: t.second)
    label = (lambda t: t.first_label) if side == "first" else (lambda t: t.second_label)
    seen: list = []
    gold_new, gold_match, pairs = [0] * len(gold), [-1] * len(gold), []
    for j, g in enumerate(gold):
        if ids(g) and not set(seen) & set(ids(g)):
            seen += ids(g)
            gold_new[j] = 1
            for k, s in enumerate(system):
                if set(ids(g)) & set(ids(s)):
                    if not label(g) or label(g) == label(s):
                        gold_match[j] = k
                        break
                    pairs.append((j, k))
    seen = []
    system_new, system_matched = [0] * len(system), [0] * len(system)
    for k, s in enumerate(system):
        if ids(s) and not set(seen) & set(ids(s)):
            seen += ids(s)
            system_new[k] = 1
            system_matched[k] = int(any(set(ids(g)) & set(ids(s)) and (not label(g) or label(g) == label(s))
                                        for g in gold))
    seen = []
    out_new = []
    for t in out_of_range:
        fresh = bool(ids(t)) and not set(seen) & set(ids(t))
        if fresh:
            seen += ids(t)
        out_new.append(int(fresh))
    return {"gold_new": gold_new, "gold_match": gold_match, "pairs": pairs, "system_new": system_new,
            "system_matched": system_matched, "out_new": out_new}


def relation_mismatches(gold: list[T], system: list[T]) -> list[tuple[int, int]]:
    return [(k, j) for k, s in enumerate(system) for j, g in enumerate(gold) if P(g, s) and g.relation != s.relation]
