"""The exact temporal closure of TimeML relations: the corrected alternative to the official
timegraph (:mod:`fastscore.temporal.timegraph`).

Intervals are pairs of points with ``start < end``; each relation is a conjunction of point
relations ``<`` and ``=`` on start and end points (``POINTS``: BEFORE is ``x_e < y_s``, BEGINS
``x_s = y_s`` and ``x_e < y_e``, ...).  Points and ``<=`` / ``<`` edges form a graph; for this
convex point algebra path consistency is complete, so a point relation is entailed exactly
when a path shows it (``a < b``: a path from ``a`` to ``b`` with a strict edge; ``a = b``:
paths both ways), and a relation is contradicted exactly when adding it would close a cycle
through a strict edge.  Like the timegraph, each relation added in turn is added / redundant /
violated, ``holds`` answers queries (False when an interval is not in the graph).  An interval
related to itself: SIMULTANEOUS is redundant, anything else violated (the interval is in the
graph either way, as in the official graph).
"""
from __future__ import annotations

from .timegraph import ADDED, POINTS, REDUNDANT, VIOLATED

_OPS = {"<": 0, "=": 1}


class Closure:
    """The exact closure of a list of relations, built in one call of the closure kernel
    (``kernels/temporal_closure.py``): ``outcomes`` (added / redundant / violated, each relation added in
    turn), ``holds`` and ``holds_many`` (the tests' ``reference_temporal.PathClosure`` is its plain-Python oracle)."""

    def __init__(self, relations: list[tuple[str, str, str]]) -> None:
        import numpy as np

        from ..kernels.temporal_closure import build

        self.index: dict[str, int] = {}
        for x, y, _ in relations:
            self.index.setdefault(x, len(self.index))
            self.index.setdefault(y, len(self.index))
        off, pa, op, pb = self._encode(relations)
        codes, *self._graph = build(len(self.index), off, pa, op, pb)
        self.outcomes = [(ADDED, REDUNDANT, VIOLATED)[c] for c in codes.tolist()]
        self._np = np

    def _encode(self, relations):
        import numpy as np

        off, pa, op, pb = [0], [], [], []
        ends = {"xs": (0, 0), "xe": (0, 1), "ys": (1, 0), "ye": (1, 1)}
        for x, y, rel in relations:
            ids = (self.index[x], self.index[y])
            for a, o, b in POINTS[rel]:
                (sa, ea), (sb, eb) = ends[a], ends[b]
                pa.append(2 * ids[sa] + ea)
                op.append(_OPS[o])
                pb.append(2 * ids[sb] + eb)
            off.append(len(pa))
        return (np.asarray(off, np.int64), np.asarray(pa, np.int64), np.asarray(op, np.int64),
                np.asarray(pb, np.int64))

    def holds_many(self, relations: list[tuple[str, str, str]]) -> list[bool]:
        from ..kernels.temporal_closure import holds

        known = [x in self.index and y in self.index for x, y, _ in relations]
        asked = [r for r, k in zip(relations, known) if k]
        if not asked:
            return [False] * len(relations)
        head, nxt, dst, strict, n = self._graph
        answers = iter(holds(*self._encode(asked), head, nxt[:n], dst[:n], strict[:n], len(head)).tolist())
        return [next(answers) if k else False for k in known]

    def holds(self, x: str, y: str, rel: str) -> bool:
        return self.holds_many([(x, y, rel)])[0]
