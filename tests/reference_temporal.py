"""Obviously-correct (slow) references for the temporal kernels.

* ``naive_closure``: the exact closure of interval relations by Floyd-Warshall over their end
  points, recomputed from scratch for every relation (the oracle of ``kernels/temporal_closure.py``
  and of :class:`PathClosure`);
* ``PathClosure``: the exact closure by path searches, relation by relation (the oracle of
  :class:`fastscore.temporal.closure.Closure`, which builds it in one kernel call);
* ``official_search``: the official TempEval-3 depth-first search over a timegraph's chains, as
  ``relation_to_timegraph.py`` writes it (the oracle of ``kernels/temporal_timegraph.py``);
* ``official_outcome``: whether the official graph implies, contradicts or leaves open a relation
  between two intervals it holds, by that search (the oracle of the kernel's ``relate_two``);
* ``official_holds``: whether the official graph entails a relation, by that search (the oracle of
  ``Timegraph.holds_many``).
"""
from __future__ import annotations

from fastscore.temporal.closure import POINTS

ADDED, REDUNDANT, VIOLATED = "added", "redundant", "violated"


def _points(x: str, y: str, rel: str) -> list[tuple[str, str, str]]:
    name = {"xs": x + "_s", "xe": x + "_e", "ys": y + "_s", "ye": y + "_e"}
    return [(name[a], op, name[b]) for a, op, b in POINTS[rel]]


def _matrix(points: list[str], edges: set[tuple[str, str, int]]) -> dict:
    """d[u, v]: 0 no path, 1 a path (u <= v), 2 a path with a strict edge (u < v)."""
    d = {(u, v): 1 if u == v else 0 for u in points for v in points}
    for u, v, s in edges:
        d[u, v] = max(d[u, v], 2 if s else 1)
    for m in points:
        for u in points:
            if d[u, m] == 0:
                continue
            for v in points:
                if d[m, v]:
                    d[u, v] = max(d[u, v], max(d[u, m], d[m, v]))
    return d


def _entailed(d: dict, a: str, op: str, b: str) -> bool:
    if op == "<":
        return d[a, b] == 2
    return a == b or (d[a, b] >= 1 and d[b, a] >= 1)


def naive_closure(relations: list[tuple[str, str, str]]):
    """(outcome per relation, {(x, y, rel) entailed at the end, over the intervals seen and every relation})."""
    intervals: list[str] = []
    edges: set[tuple[str, str, int]] = set()
    outcomes = []
    for x, y, rel in relations:
        for z in (x, y):
            if z not in intervals:
                intervals.append(z)
                edges.add((z + "_s", z + "_e", 1))
        points = [z + e for z in intervals for e in ("_s", "_e")]
        pairs = _points(x, y, rel)
        d = _matrix(points, edges)
        if all(_entailed(d, *p) for p in pairs):
            outcomes.append(REDUNDANT)
            continue
        new = set()
        for a, op, b in pairs:
            new.add((a, b, 1 if op == "<" else 0))
            if op == "=":
                new.add((b, a, 0))
        d2 = _matrix(points, edges | new)
        if any(d2[p, p] == 2 for p in points):
            outcomes.append(VIOLATED)
        else:
            edges |= new
            outcomes.append(ADDED)
    points = [z + e for z in intervals for e in ("_s", "_e")]
    d = _matrix(points, edges)
    holds = {(x, y, rel) for x in intervals for y in intervals for rel in POINTS
             if all(_entailed(d, *p) for p in _points(x, y, rel))}
    return outcomes, holds


def official_search(tg, a: str, b: str) -> bool:
    """``a <= b`` by the official depth-first search (chains on the path never re-entered; the search
    stops at the first point it reaches on ``b``'s chain), from the graph's connection points by name."""
    pts = tg.points
    target = pts[b]

    def search(p, path: tuple[int, ...]) -> bool:
        if p.chain == target.chain:
            return p.pseudo <= target.pseudo
        path = path + (p.chain,)
        for cp_name, (_, after) in tg.cross.get(p.chain, {}).items():
            if p.pseudo <= pts[cp_name].pseudo:
                for q_name in after:
                    q = pts[q_name]
                    if q.chain not in path and search(q, path):
                        return True
        return False

    return search(pts[a], ())


def _official_relation(tg, a: str, b: str) -> str | None:
    """'<', '>', '=' or None between two points of ``tg`` (same chain: by pseudo time; else by
    :func:`official_search` both ways)."""
    pa, pb = tg.points[a], tg.points[b]
    if pa.chain == pb.chain:
        return "<" if pa.pseudo < pb.pseudo else ">" if pa.pseudo > pb.pseudo else "="
    ab, ba = official_search(tg, a, b), official_search(tg, b, a)
    return "=" if ab and ba else "<" if ab else ">" if ba else None


def _end_tests(x: str, y: str, rel: str) -> list[tuple[str, str, str]]:
    """The end-point tests of ``x rel y`` (``POINTS``) with the points' names."""
    name = {"xs": x + "_s", "xe": x + "_e", "ys": y + "_s", "ye": y + "_e"}
    return [(name[a], name[b], want) for a, want, b in POINTS[rel]]


def official_outcome(tg, x: str, y: str, rel: str) -> str:
    """What the official graph says of ``x rel y`` when both intervals are in ``tg`` (and ``x != y``, not
    BEGINS): each end-point test of ``rel`` by :func:`official_search` (same chain: by pseudo time); one
    contradicted -> violated, all implied -> redundant, else added (as cross links)."""
    decided = True
    for a, b, want in _end_tests(x, y, rel):
        r = _official_relation(tg, a, b)
        if r is None:
            decided = False
        elif r != want:
            return "violated"
    return "redundant" if decided else "added"


def official_holds(tg, x: str, y: str, rel: str) -> bool:
    """Whether the official graph entails ``x rel y``: every end-point test of ``rel`` holds by
    :func:`official_search` (False for an interval not in ``tg``, and for BEGINS: the official test never
    holds); the oracle of ``Timegraph.holds_many``."""
    if x + "_s" not in tg.points or y + "_s" not in tg.points or rel == "BEGINS":
        return False
    return all(_official_relation(tg, a, b) == want for a, b, want in _end_tests(x, y, rel))


class PathClosure:
    """The exact closure by depth-first searches over the points, one relation added at a time (``add``
    returns added / redundant / violated; ``holds``): the oracle of ``fastscore.temporal.closure.Closure``."""

    def __init__(self) -> None:
        self.succ: dict[str, dict[str, bool]] = {}  # point -> successor -> strict (<) or not (<=)

    def _interval(self, x: str) -> None:
        if x + "_s" not in self.succ:
            self.succ[x + "_s"] = {x + "_e": True}
            self.succ[x + "_e"] = {}

    def _reach(self, a: str, b: str) -> int:
        """0: no path from ``a`` to ``b``; 1: a path (``a <= b``); 2: a path with a strict edge (``a < b``)."""
        best = 0
        seen = {(a, False)}
        stack = [(a, False)]
        while stack:
            p, strict = stack.pop()
            for q, s in self.succ[p].items():
                st = strict or s
                if q == b:
                    if st:
                        return 2
                    best = 1
                if (q, st) not in seen:
                    seen.add((q, st))
                    stack.append((q, st))
        return best

    def _entailed(self, a: str, op: str, b: str) -> bool:
        if op == "<":
            return self._reach(a, b) == 2
        return a == b or (self._reach(a, b) >= 1 and self._reach(b, a) >= 1)

    def _edges(self, a: str, op: str, b: str) -> list[tuple[str, str, bool]]:
        return [(a, b, True)] if op == "<" else [(a, b, False), (b, a, False)]

    def add(self, x: str, y: str, rel: str) -> str:
        pairs = _points(x, y, rel)
        self._interval(x)
        self._interval(y)
        if all(self._entailed(*p) for p in pairs):
            return REDUNDANT
        new = [e for p in pairs for e in self._edges(*p) if e[0] != e[1]]
        if any(a == b and op == "<" for a, op, b in pairs):
            return VIOLATED
        added = []
        for a, b, strict in new:
            old = self.succ[a].get(b)
            if old is None or (strict and not old):
                added.append((a, b, old))
                self.succ[a][b] = strict or bool(old)
        if any(self._reach(b, a) >= (1 if strict else 2) for a, b, strict in new):
            for a, b, old in reversed(added):
                if old is None:
                    del self.succ[a][b]
                else:
                    self.succ[a][b] = old
            return VIOLATED
        return ADDED

    def holds(self, x: str, y: str, rel: str) -> bool:
        if x + "_s" not in self.succ or y + "_s" not in self.succ:
            return False
        return all(self._entailed(*p) for p in _points(x, y, rel))
