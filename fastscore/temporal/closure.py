"""The exact temporal closure of BEFORE / INCLUDES relations: the corrected alternative to the
official timegraph (:mod:`fastscore.temporal.timegraph`).

Intervals are pairs of points with ``start < end``; ``x BEFORE y`` is ``x_e < y_s``,
``x INCLUDES y`` is ``x_s < y_s`` and ``y_e < x_e``.  With only strict ``<`` between
points, a relation is entailed exactly when each of its point pairs is joined by a
path, and contradicted exactly when it would close a cycle.  Same interface as the
timegraph: ``add`` returns added / redundant / violated, ``holds`` answers queries.
"""
from __future__ import annotations

from .timegraph import ADDED, BEFORE, INCLUDES, REDUNDANT, VIOLATED


class Closure:
    def __init__(self) -> None:
        self.succ: dict[str, set[str]] = {}

    def _interval(self, x: str) -> None:
        if x + "_s" not in self.succ:
            self.succ[x + "_s"] = {x + "_e"}
            self.succ[x + "_e"] = set()

    def _reaches(self, a: str, b: str) -> bool:
        """A path of one or more ``<`` from point ``a`` to point ``b``."""
        stack, seen = [a], {a}
        while stack:
            for n in self.succ[stack.pop()]:
                if n == b:
                    return True
                if n not in seen:
                    seen.add(n)
                    stack.append(n)
        return False

    @staticmethod
    def _pairs(x: str, y: str, rel: str) -> list[tuple[str, str]]:
        if rel == BEFORE:
            return [(x + "_e", y + "_s")]
        if rel == INCLUDES:
            return [(x + "_s", y + "_s"), (y + "_e", x + "_e")]
        raise ValueError(f"unsupported relation {rel!r}")

    def add(self, x: str, y: str, rel: str) -> str:
        pairs = self._pairs(x, y, rel)
        if x == y:
            return VIOLATED
        self._interval(x)
        self._interval(y)
        if all(self._reaches(a, b) for a, b in pairs):
            return REDUNDANT
        if any(self._reaches(b, a) for a, b in pairs):
            return VIOLATED
        for a, b in pairs:
            self.succ[a].add(b)
        return ADDED

    def holds(self, x: str, y: str, rel: str) -> bool:
        if x + "_s" not in self.succ or y + "_s" not in self.succ:
            return False
        return all(self._reaches(a, b) for a, b in self._pairs(x, y, rel))
