"""The TempEval-3 timegraph, as the official temporal-awareness scorer builds it.

Intervals are pairs of points (start ``s``, end ``e``).  Points live on *chains*
(sequences ordered by a "pseudo time"); ``a < b`` across chains is stored in a
*metagraph*: at a connection point ``a`` of ``a``'s chain, a cross link to ``b``.
Relations are added one at a time; one between two intervals already in the
graph is first checked against it: already implied -> *redundant*, contradicted
-> *violated* (not added), unknown -> added as cross links.

This is not a complete closure.  A query ``a < b`` across chains is a search
along cross links that never revisits a chain on its path and only leaves a
chain at connection points at or after the current point (by pseudo time);
pseudo times are fixed when a point is created and are not always consistent
with the order (a new interval placed before the head of a chain gets its start
at ``-1000``, whatever the chain's times).  The official scorer's results
depend on all of this and on the order relations are added, so this module
keeps those rules exactly (it is the reference behaviour the numbers are
checked against); :mod:`fastscore.temporal.closure` is the exact alternative.

Only the relations event sequencing produces are modelled: ``BEFORE`` and
``INCLUDES`` (and their reverses, used internally).
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass

BASE = 100000  # pseudo time of a new chain's first point
STEP = 1000  # pseudo time between neighbours on a chain
NIL = "-1"  # "no parent/child" (distinct from "" = never set; the graph tells them apart)

BEFORE, INCLUDES = "BEFORE", "INCLUDES"
REVERSE = {"BEFORE": "AFTER", "AFTER": "BEFORE", "INCLUDES": "IS_INCLUDED", "IS_INCLUDED": "INCLUDES"}

ADDED, REDUNDANT, VIOLATED = "added", "redundant", "violated"


@dataclass(slots=True, eq=False)  # compared and hashed by identity: one object per point name
class Point:
    chain: int
    pseudo: int
    parent: str = ""  # space-separated point names, NIL, or "" (never set)
    child: str = ""


def _has(name: str, names: str) -> bool:
    return name in names.split(" ")


class Timegraph:
    """Points, chains and cross links; ``add`` relations, then ask ``holds``."""

    def __init__(self) -> None:
        self.points: dict[str, Point] = {}
        self._known: dict[tuple[str, str], str | None] = {}  # point relations, while the graph is unchanged
        self.next_chain = 0
        # chain -> connection point name -> (the point, the points after it on other chains, in insertion order)
        self.cross: dict[int, dict[str, tuple[Point, list[Point]]]] = {}

    # -- building -----------------------------------------------------------------------------

    def add(self, x: str, y: str, rel: str) -> str:
        """Add ``x rel y`` (intervals ``x`` and ``y``); returns ADDED, REDUNDANT or VIOLATED."""
        if x == y:  # (the official graph counts it as violated; sequencing never relates a mention to itself)
            return VIOLATED
        pts = self.points
        x_in, y_in = x + "_s" in pts, y + "_s" in pts
        if x_in and not y_in:  # the new interval goes first
            x, y, rel = y, x, REVERSE[rel]
            x_in, y_in = False, True
        if not x_in and not y_in:
            self._two_new(x, y, rel)
            return ADDED
        if not x_in:
            self._one_new(x, y, rel)
            return ADDED
        return self._both_known(x, y, rel)

    def _new_chain(self) -> int:
        self.next_chain += 1
        return self.next_chain - 1

    def _link(self, lo: str, hi: str) -> None:
        """Cross link ``lo < hi``, kept at ``lo``'s chain."""
        self._known.clear()
        lp, hp = self.points[lo], self.points[hi]
        at_chain = self.cross.setdefault(lp.chain, {})
        if lo not in at_chain:
            at_chain[lo] = (lp, [])
        after = at_chain[lo][1]
        if hp not in after:
            after.append(hp)

    def _two_new(self, x: str, y: str, rel: str) -> None:
        """Both intervals new: the four points in order on a new chain."""
        c = self._new_chain()
        if rel == BEFORE:
            order = (x + "_s", x + "_e", y + "_s", y + "_e")
        elif rel == INCLUDES:
            order = (x + "_s", y + "_s", y + "_e", x + "_e")
        else:
            raise ValueError(f"unsupported relation {rel!r}")
        for k, name in enumerate(order):
            self.points[name] = Point(c, BASE + k * STEP, order[k - 1] if k else NIL,
                                      order[k + 1] if k < 3 else NIL)

    def _one_new(self, x: str, y: str, rel: str) -> None:
        """``x`` new, ``y`` in the graph: ``x``'s points go on ``y``'s chain when the neighbouring
        place is free, else on a new chain joined by cross links."""
        y1, y2 = self.points[y + "_s"], self.points[y + "_e"]
        x1n, x2n, y1n, y2n = x + "_s", x + "_e", y + "_s", y + "_e"
        if rel == BEFORE:  # x1 < x2 < y1
            # the official graph computes x1's time from x2's before setting it: always -STEP
            x1 = Point(0, -STEP, NIL, x2n)
            x2 = Point(0, y1.pseudo - STEP, x1n, y1n)
            self._next_to(x1n, x1, x2n, x2, y1, "parent", x2n, (x2n, y1n))
        elif rel == "AFTER":  # y2 < x1 < x2
            x1 = Point(0, y2.pseudo + STEP, y2n, x2n)
            x2 = Point(0, x1.pseudo + STEP, x1n, NIL)
            self._next_to(x1n, x1, x2n, x2, y2, "child", x1n, (y2n, x1n))
        elif rel == INCLUDES:  # x1 < y1, y2 < x2
            # (an interval's two points are always on one chain here, so the official graph's branch
            # for free ends on two chains cannot be reached)
            if y1.parent == NIL and y2.child == NIL:
                x1 = Point(y1.chain, y1.pseudo - STEP, NIL, y1n)
                x2 = Point(y2.chain, y2.pseudo + STEP, y2n, NIL)
                y1.parent, y2.child = x1n, x2n
                self._put(x1n, x1, x2n, x2)
            else:
                c = self._new_chain()
                x1 = Point(c, y1.pseudo - STEP, NIL, "")  # the official graph leaves x1's child unset
                x2 = Point(c, y2.pseudo + STEP, x1n, NIL)
                self._put(x1n, x1, x2n, x2)
                self._link(x1n, y1n)
                self._link(y2n, x2n)
        elif rel == "IS_INCLUDED":  # y1 < x1 < x2 < y2
            gap = y2.pseudo - y1.pseudo  # floor divisions, as Python 2 integer division
            t1, t2 = y1.pseudo + gap // 3, y1.pseudo + gap * 2 // 3
            if _has(y2n, y1.child) and _has(y1n, y2.parent) and y1.chain == y2.chain:
                x1 = Point(y1.chain, t1, " " + y1n, x2n)
                x2 = Point(y1.chain, t2, x1n, " " + y2n)
                y1.child = x1n
                self._put(x1n, x1, x2n, x2)
            else:
                c = self._new_chain()
                self._put(x1n, Point(c, t1, NIL, x2n), x2n, Point(c, t2, x1n, NIL))
                self._link(y1n, x1n)
                self._link(x2n, y2n)
        else:
            raise ValueError(f"unsupported relation {rel!r}")

    def _next_to(self, n1: str, p1: Point, n2: str, p2: Point, end: Point, side: str, neighbour: str,
                 link: tuple[str, str]) -> None:
        """Put a new interval's points on ``end``'s chain when ``end``'s ``side`` ("parent" or "child")
        is free (``neighbour`` takes it), else on a new chain joined to ``end`` by the cross ``link``."""
        taken = getattr(end, side)
        if taken == NIL:
            p1.chain = p2.chain = end.chain
            setattr(end, side, neighbour)
            self._put(n1, p1, n2, p2)
        else:
            p1.chain = p2.chain = self._new_chain()
            setattr(end, side, taken + " " + neighbour)
            self._put(n1, p1, n2, p2)
            self._link(*link)

    def _put(self, n1: str, p1: Point, n2: str, p2: Point) -> None:
        self._known.clear()
        self.points[n1] = p1
        self.points[n2] = p2

    def _both_known(self, x: str, y: str, rel: str) -> str:
        """Both intervals in the graph: implied, contradicted, or added as cross links."""
        x1, x2, y1, y2 = x + "_s", x + "_e", y + "_s", y + "_e"
        if rel == BEFORE:
            r = self.point_relation(x2, y1)
            if r == "<":
                return REDUNDANT
            if r is None:
                self._link(x2, y1)
                return ADDED
            return VIOLATED
        if rel == INCLUDES:
            a = self.point_relation(x1, y1)
            if a not in ("<", None):
                return VIOLATED
            b = self.point_relation(y2, x2)
            if b not in ("<", None):
                return VIOLATED
            if a == "<" and b == "<":
                return REDUNDANT
            self._link(x1, y1)  # both links, even if one was known
            self._link(y2, x2)
            return ADDED
        raise ValueError(f"unsupported relation {rel!r}")

    # -- queries ------------------------------------------------------------------------------

    def point_relation(self, a: str, b: str) -> str | None:
        """'<', '>', '=' or None (unknown) between points ``a`` and ``b``."""
        key = (a, b)
        if key not in self._known:
            pa, pb = self.points[a], self.points[b]
            if pa.chain == pb.chain:
                r = "<" if pa.pseudo < pb.pseudo else ">" if pa.pseudo > pb.pseudo else "="
            else:
                ab, ba = self._reaches(a, b), self._reaches(b, a)
                r = "=" if ab and ba else "<" if ab else ">" if ba else None
            self._known[key] = r
        return self._known[key]

    def _reaches(self, a: str, b: str) -> bool:
        """Does the official search find ``a <= b`` (``a``, ``b`` on different chains)?

        The search never returns to a chain it has left on the current path, and stops at the
        first point it reaches on ``b``'s chain.  A breadth-first search without the first rule
        answers most queries at once: nothing reachable -> no; a shortest path through distinct
        chains -> yes.  Only the rest go through the official depth-first search."""
        cross = self.cross
        start, target = self.points[a], self.points[b]
        prev: dict[Point, Point | None] = {start: None}
        queue = deque([start])
        while queue:
            p = queue.popleft()
            for cp, after in cross.get(p.chain, {}).values():
                if p.pseudo > cp.pseudo:
                    continue  # only connection points at or after the current point
                for q in after:
                    if q in prev:
                        continue
                    prev[q] = p
                    if q.chain != target.chain:
                        queue.append(q)
                    elif q.pseudo <= target.pseudo:
                        chains = []
                        while p is not None:
                            chains.append(p.chain)
                            p = prev[p]
                        return len(set(chains)) == len(chains) or self._search(start, target, ())
        return False

    def _search(self, p: Point, target: Point, path: tuple[int, ...]) -> bool:
        """The official depth-first search (chains on the path are not revisited)."""
        if p.chain == target.chain:
            return p.pseudo <= target.pseudo  # and the search stops here either way
        path = path + (p.chain,)
        for cp, after in self.cross.get(p.chain, {}).values():
            if p.pseudo <= cp.pseudo:
                for q in after:
                    if q.chain not in path and self._search(q, target, path):
                        return True
        return False

    def holds(self, x: str, y: str, rel: str) -> bool:
        """Does the graph entail ``x rel y``?  (False when either interval is not in the graph.)"""
        if x + "_s" not in self.points or y + "_s" not in self.points:
            return False
        if rel == BEFORE:
            return self._less(x + "_e", y + "_s")
        if rel == INCLUDES:
            return self._less(x + "_s", y + "_s") and self._less(y + "_e", x + "_e")
        raise ValueError(f"unsupported relation {rel!r}")

    def _less(self, a: str, b: str) -> bool:
        """``point_relation(a, b) == "<"``, without the search from ``b`` when none leads from ``a``."""
        if (a, b) in self._known or self.points[a].chain == self.points[b].chain:
            return self.point_relation(a, b) == "<"
        return self._reaches(a, b) and not self._reaches(b, a)
