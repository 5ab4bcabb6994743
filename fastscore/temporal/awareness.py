"""Temporal awareness (UzZaman & Allen), the TempEval-3 score EvmEval uses for event sequencing.

Each side's relations are added to a timegraph in order; the relations kept ("final": not redundant, plus the
violated ones) are scored: precision, the system final relations that the gold side verifies (its annotation or
its graph), over the system final relations; recall ("implicit in recall", :func:`implicit_recall`), likewise for
the gold final relations.  Document counts add up over a corpus; P, R and F1 come from the sums.
"""
from __future__ import annotations

from dataclasses import dataclass

from .closure import Closure
from .timegraph import REDUNDANT, VIOLATED, Timegraph

Relation = tuple[str, str, str]  # (interval, interval, BEFORE | INCLUDES)


@dataclass(frozen=True)
class Graph:
    """One side of one document: its timegraph, its annotation and its final relations."""

    timegraph: Timegraph | Closure
    annotation: frozenset[Relation]
    final: list[Relation]


def build(relations: list[Relation], exact: bool = False) -> Graph:
    """Add the relations in order (repeats skipped); final = kept in order, then the violated ones.
    ``exact``: the exact closure (built by the closure kernel) instead of the official timegraph."""
    unique = list(dict.fromkeys(relations))
    if exact:
        tg: Timegraph | Closure = Closure(unique)
        outcomes = tg.outcomes
    else:
        tg = Timegraph()
        outcomes = [tg.add(*rel) for rel in unique]
    kept = [r for r, o in zip(unique, outcomes) if o not in (REDUNDANT, VIOLATED)]
    violated = [r for r, o in zip(unique, outcomes) if o == VIOLATED]
    return Graph(tg, frozenset(relations), kept + violated)


class ZeroWeightError(ArithmeticError):
    """``1 + n(n-1)/2 - matched`` is 0: the implicit-recall weight is undefined (the toolkit stops)."""


@dataclass(frozen=True)
class Counts:
    """What one document adds to the corpus sums."""

    precision_matched: int
    recall_matched: float  # matched gold relations + w * implicitly matched system relations
    system: int  # system final relations
    gold: int  # gold final relations


def verified(relations: list[Relation], known: set[Relation] | frozenset[Relation], other: Graph) -> int:
    """Relations in ``known`` (the other side's relations) or entailed by the other side's graph (its queries in
    one kernel call)."""
    todo = [r for r in relations if r not in known]
    return len(relations) - len(todo) + sum(other.timegraph.holds_many(todo))


def _intervals(relations: list[Relation]) -> set[str]:
    return {x for r in relations for x in r[:2]}


def implicit_recall(gold: Graph, system: Graph, matched: int, corrected: bool = False) -> float:
    """The recall numerator of "implicit in recall": the ``matched`` (verified) gold final relations plus ``w``
    times the system final relations that are not gold final relations but that the gold graph entails,
    ``w = 0.99 / (1 + n(n-1)/2 - matched)``, ``n`` the intervals in both sides' final relations.  The toolkit
    stops where the denominator is 0 (:class:`ZeroWeightError`); ``corrected``: the weight counts only where its
    denominator is positive and the numerator stops at the gold final relations (recall 100%)."""
    gold_final = set(gold.final)
    implicit = sum(gold.timegraph.holds_many([r for r in system.final if r not in gold_final]))
    n = len(_intervals(gold.final) & _intervals(system.final))
    denominator = 1 + 0.5 * n * (n - 1) - matched
    if corrected:
        return min(matched + (0.99 / denominator * implicit if denominator > 0 else 0.0), len(gold.final))
    if denominator == 0:
        raise ZeroWeightError(f"{n} intervals in both sides' final relations and {matched} verified gold relations")
    w = 0.99 / denominator
    return matched + w * implicit


def score_document(gold: Graph, system: Graph, gold_known: set[Relation] | None = None,
                   system_known: set[Relation] | None = None, *, implicit: bool = True,
                   corrected: bool = False) -> Counts:
    """The temporal awareness counts of one document: final relations verified by the other side's relations
    (``*_known``, default its annotation) or graph; in recall, with ``implicit``, the implicit part
    (:func:`implicit_recall`)."""
    prec = verified(system.final, gold.annotation if gold_known is None else gold_known, gold)
    rec = verified(gold.final, system.annotation if system_known is None else system_known, system)
    if implicit:
        rec = implicit_recall(gold, system, rec, corrected)
    return Counts(prec, rec, len(system.final), len(gold.final))
