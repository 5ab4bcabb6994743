"""Temporal awareness of one document's relations, as the TempEval-3 toolkit counts them
(``temporal_evaluation.py``).

Each side's relations (normalised, in TLINK order) are added to its timegraph; repeats are
skipped; the *final* relations are those kept (neither implied by earlier ones nor
contradicting them), then the contradicting ("violated") ones.  A relation is *verified* by
the other side when it, or its reverse, is among the other side's relations, or the other
side's graph entails it (relations on intervals the other graph lacks are unverified).

* ``te3`` (the toolkit's default): system final relations verified by the gold side over all
  system final relations (precision); gold final relations verified by the system side over
  all gold final relations (recall).
* ``acl11`` (UzZaman & Allen 2011): every relation counted, each in both directions (the
  relation and its reverse), repeats too, against the other side's graph.
* ``implicit_in_recall``: as ``te3``, plus in recall ``w`` times the system final relations that
  are not gold final relations but that the gold graph entails, with
  ``w = 0.99 / (1 + n(n-1)/2 - matched)``, ``n`` the intervals in both sides' final relations,
  ``matched`` the verified gold final relations.  ``w`` may be large or negative, so recall can
  pass 100%; when the denominator is 0 the toolkit stops (ZeroDivisionError).

With ``exact`` the graphs are the exact closure (:mod:`fastscore.temporal.closure`) instead of the
official timegraph, and the implicit part of a document's recall is limited to what makes its
recall 100% (``w`` counted only when its denominator is positive): the corrected behaviour of
``--fix-toolkit-quirks``.
"""
from __future__ import annotations

from dataclasses import dataclass

from .awareness import Relation, build, implicit_recall, verified

METHODS = ("te3", "acl11", "implicit_in_recall")

# the scorer's reverse of a relation (for the "other direction" of a relation); others stay as they are
REVERSE = {"BEFORE": "AFTER", "AFTER": "BEFORE", "IBEFORE": "IAFTER", "IAFTER": "IBEFORE", "DURING": "DURING_INV",
           "BEGINS": "BEGUN_BY", "BEGUN_BY": "BEGINS", "ENDS": "ENDED_BY", "ENDED_BY": "ENDS",
           "INCLUDES": "IS_INCLUDED", "IS_INCLUDED": "INCLUDES"}


@dataclass(frozen=True)
class RelationCounts:
    system_verified: float
    system_total: int
    gold_verified: float  # with implicit_in_recall: matched + w * implicit
    gold_total: int


def triples(relations: list[Relation]) -> list[Relation]:
    """Every relation followed by its reverse (not for an interval related to itself)."""
    out = []
    for x, y, rel in relations:
        out.append((x, y, rel))
        if x != y:
            out.append((y, x, REVERSE.get(rel, rel)))
    return out


def score_relations(gold: list[Relation], system: list[Relation], method: str = "te3",
                    exact: bool = False) -> RelationCounts:
    """The counts one document adds to the corpus sums."""
    g, s = build(gold, exact), build(system, exact)
    g_triples, s_triples = triples(gold), triples(system)
    if method == "acl11":
        return RelationCounts(verified(s_triples, set(g_triples), g), len(s_triples),
                              verified(g_triples, set(s_triples), s), len(g_triples))
    prec = verified(s.final, set(g_triples), g)
    rec = verified(g.final, set(s_triples), s)
    if method == "te3":
        return RelationCounts(prec, len(s.final), rec, len(g.final))
    if method != "implicit_in_recall":
        raise ValueError(f"unknown method {method!r}")
    return RelationCounts(prec, len(s.final), implicit_recall(g, s, rec, corrected=exact), len(g.final))
