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
* ``implicit_in_recall``: as ``te3``, plus in recall the weighted implicit part
  (:func:`fastscore.temporal.awareness.implicit_recall`); the toolkit stops (ZeroDivisionError) where the weight's
  denominator is 0.

With ``exact`` the graphs are the exact closure (:mod:`fastscore.temporal.closure`) instead of the
official timegraph, and the implicit part of a document's recall is limited to what makes its
recall 100% (``w`` counted only when its denominator is positive): the corrected behaviour of
``--fix-toolkit-quirks``.
"""
from __future__ import annotations

from .awareness import Counts, Relation, build, score_document, verified

METHODS = ("te3", "acl11", "implicit_in_recall")

# the scorer's reverse of a relation (for the "other direction" of a relation); others stay as they are
REVERSE = {"BEFORE": "AFTER", "AFTER": "BEFORE", "IBEFORE": "IAFTER", "IAFTER": "IBEFORE", "DURING": "DURING_INV",
           "BEGINS": "BEGUN_BY", "BEGUN_BY": "BEGINS", "ENDS": "ENDED_BY", "ENDED_BY": "ENDS",
           "INCLUDES": "IS_INCLUDED", "IS_INCLUDED": "INCLUDES"}


def triples(relations: list[Relation]) -> list[Relation]:
    """Every relation followed by its reverse (not for an interval related to itself)."""
    out = []
    for x, y, rel in relations:
        out.append((x, y, rel))
        if x != y:
            out.append((y, x, REVERSE.get(rel, rel)))
    return out


def score_relations(gold: list[Relation], system: list[Relation], method: str = "te3",
                    exact: bool = False) -> Counts:
    """The counts one document adds to the corpus sums."""
    if method not in METHODS:
        raise ValueError(f"unknown method {method!r}")
    g, s = build(gold, exact), build(system, exact)
    g_triples, s_triples = triples(gold), triples(system)
    if method == "acl11":
        return Counts(verified(s_triples, set(g_triples), g), verified(g_triples, set(s_triples), s), len(s_triples),
                      len(g_triples))
    return score_document(g, s, set(g_triples), set(s_triples), implicit=method == "implicit_in_recall",
                          corrected=exact)
