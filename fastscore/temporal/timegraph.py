"""The TempEval-3 timegraph, as the official temporal-awareness scorer builds it.

Intervals are pairs of points (start ``s``, end ``e``).  Points live on *chains*
(sequences ordered by a "pseudo time"); ``a <= b`` across chains is stored in a
*metagraph*: at a connection point ``a`` of ``a``'s chain, a cross link to ``b``.
Equal points are one point object under two names, or two points with one pseudo
time on one chain, or two points joined by cross links both ways.  Relations are
added one at a time; one between two intervals already in the graph is first
checked against it: already implied -> *redundant*, contradicted -> *violated* (not
added), unknown -> added as cross links.

This is not a complete closure.  A query ``a <= b`` across chains is a search
along cross links that never revisits a chain on its path and only leaves a
chain at connection points at or after the current point (by pseudo time);
pseudo times are fixed when a point is created and are not always consistent
with the order (a new interval placed before the head of a chain gets its start
at ``-1000``, whatever the chain's times).  Where a new interval goes (on a
chain, beside it, a new chain) depends on the parent / child / sibling strings
the official graph keeps for each point, so they are kept here as it keeps
them.  The official scorer's results depend on all of this and on the order
relations are added, so this module keeps those rules exactly (it is the
reference behaviour the numbers are checked against);
:mod:`fastscore.temporal.closure` is the exact alternative.

Every TimeML relation the scorer handles: BEFORE, AFTER, IBEFORE, IAFTER, BEGINS,
BEGUN_BY, ENDS, ENDED_BY, INCLUDES, IS_INCLUDED, SIMULTANEOUS and IDENTITY (DURING
and DURING_INV reach the graph as SIMULTANEOUS).  One defect of the official graph
is kept on purpose: a BEGINS relation between two intervals already in the graph is
never found to hold (its test asks for a point relation equal to both ``=`` and
unknown), so it is always *violated* when added and never verified (see
``BEGINS_NEVER_HOLDS``).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

BASE = 100000  # pseudo time of a new chain's first point
STEP = 1000  # pseudo time between neighbours on a chain
NIL = "-1"  # "no parent/child" (distinct from "" = never set; the graph tells them apart)

REVERSE = {"BEFORE": "AFTER", "AFTER": "BEFORE", "IBEFORE": "IAFTER", "IAFTER": "IBEFORE", "BEGINS": "BEGUN_BY",
           "BEGUN_BY": "BEGINS", "ENDS": "ENDED_BY", "ENDED_BY": "ENDS", "INCLUDES": "IS_INCLUDED",
           "IS_INCLUDED": "INCLUDES", "SIMULTANEOUS": "SIMULTANEOUS", "IDENTITY": "SIMULTANEOUS"}
EQUAL = ("SIMULTANEOUS", "IDENTITY")
BEGINS_NEVER_HOLDS = True  # the official test for BEGINS between known intervals is always false

ADDED, REDUNDANT, VIOLATED = "added", "redundant", "violated"
_CODE = (None, "<", ">", "=")  # the search kernel's point relations

# What a relation means on end points (x_s, x_e, y_s, y_e: "xs", "xe", "ys", "ye"): point relations a < b or a = b
# (one table for the timegraph's tests and the exact closure; DURING and DURING_INV as the toolkit reads them)
POINTS: dict[str, tuple[tuple[str, str, str], ...]] = {
    "BEFORE": (("xe", "<", "ys"),),
    "AFTER": (("ye", "<", "xs"),),
    "IBEFORE": (("xe", "=", "ys"),),
    "IAFTER": (("ye", "=", "xs"),),
    "BEGINS": (("xs", "=", "ys"), ("xe", "<", "ye")),
    "BEGUN_BY": (("xs", "=", "ys"), ("ye", "<", "xe")),
    "ENDS": (("xe", "=", "ye"), ("ys", "<", "xs")),
    "ENDED_BY": (("xe", "=", "ye"), ("xs", "<", "ys")),
    "INCLUDES": (("xs", "<", "ys"), ("ye", "<", "xe")),
    "IS_INCLUDED": (("ys", "<", "xs"), ("xe", "<", "ye")),
    "SIMULTANEOUS": (("xs", "=", "ys"), ("xe", "=", "ye")),
}
POINTS["IDENTITY"] = POINTS["DURING"] = POINTS["DURING_INV"] = POINTS["SIMULTANEOUS"]

# Two new intervals on a new chain: per relation, the points in order as (point, pseudo step, parent,
# child, sibling) of the points xs, xe, ys, ye (x_s, x_e, y_s, y_e; a "+" joins two names with a space).
_TWO_NEW = {
    "BEFORE": (("xs", 0, "-", "xe", ""), ("xe", 1, "xs", "ys", ""), ("ys", 2, "xe", "ye", ""),
               ("ye", 3, "ys", "-", "")),
    "AFTER": (("ys", 0, "-", "ye", ""), ("ye", 1, "ys", "xs", ""), ("xs", 2, "ye", "xe", ""), ("xe", 3, "xs", "-", "")),
    "IBEFORE": (("xs", 0, "-", "xe+ys", ""), ("xe", 1, "xs", "ye", "ys"), ("ys", 1, "xs", "ye", "xe"),
                ("ye", 2, "ys+xe", "-", "")),
    "IAFTER": (("ys", 0, "-", "ye+xs", ""), ("ye", 1, "ys", "xe", "xs"), ("xs", 1, "ys", "xe", "ye"),
               ("xe", 2, "xs+ye", "-", "")),
    "BEGINS": (("xs", 0, "-", "xe", "ys"), ("ys", 0, "-", "xe", "xs"), ("xe", 1, "xs+ys", "ye", ""),
               ("ye", 2, "xe", "-", "")),
    "BEGUN_BY": (("xs", 0, "-", "ye", "ys"), ("ys", 0, "-", "ye", "xs"), ("ye", 1, "xs+ys", "xe", ""),
                 ("xe", 2, "ye", "-", "")),
    "ENDS": (("ys", 0, "-", "xs", ""), ("xs", 1, "ys", "xe+ye", ""), ("xe", 2, "xs", "-", "ye"),
             ("ye", 2, "xs", "-", "xe")),
    "ENDED_BY": (("xs", 0, "-", "ys", ""), ("ys", 1, "xs", "xe+ye", ""), ("xe", 2, "ys", "-", "ye"),
                 ("ye", 2, "ys", "-", "xe")),
    "INCLUDES": (("xs", 0, "-", "ys", ""), ("ys", 1, "xs", "ye", ""), ("ye", 2, "ys", "xe", ""),
                 ("xe", 3, "ye", "-", "")),
    "IS_INCLUDED": (("ys", 0, "-", "xs", ""), ("xs", 1, "ys", "xe", ""), ("xe", 2, "xs", "ye", ""),
                    ("ye", 3, "xe", "-", "")),
    "SIMULTANEOUS": (("xs", 0, "-", "xe+ye", "ys"), ("ys", 0, "-", "xe+ye", "xs"), ("xe", 1, "xs+ys", "-", "ye"),
                     ("ye", 1, "xs+ys", "-", "xe")),
}
_TWO_NEW["IDENTITY"] = _TWO_NEW["SIMULTANEOUS"]

# Cross links a relation between two known intervals adds when the graph does not decide it: (lo, hi) = lo <= hi
_LINKS = {
    "BEFORE": (("xe", "ys"),),
    "AFTER": (("ye", "xs"),),
    "IBEFORE": (("ys", "xe"), ("xe", "ys")),
    "IAFTER": (("ye", "xs"), ("xs", "ye")),
    "BEGINS": (("ys", "xs"), ("xs", "ys"), ("xe", "ye")),
    "BEGUN_BY": (("ys", "xs"), ("xs", "ys"), ("ye", "xe")),
    "ENDS": (("ys", "xs"), ("ye", "xe"), ("xe", "ye")),
    "ENDED_BY": (("xs", "ys"), ("xe", "ye"), ("ye", "xe")),
    "INCLUDES": (("xs", "ys"), ("ye", "xe")),
    "IS_INCLUDED": (("ys", "xs"), ("xe", "ye")),
    "SIMULTANEOUS": (("ys", "xs"), ("xs", "ys"), ("ye", "xe"), ("xe", "ye")),
}
_LINKS["IDENTITY"] = _LINKS["SIMULTANEOUS"]
# Siblings those links record (they matter: later placements copy siblings into parents and children)
_SIBLINGS = {"IBEFORE": (("xe", "ys"),), "IAFTER": (("xs", "ye"),), "BEGINS": (("xs", "ys"),),
             "BEGUN_BY": (("xs", "ys"),), "ENDS": (("xe", "ye"),), "ENDED_BY": (("xe", "ye"),),
             "SIMULTANEOUS": (("xs", "ys"), ("xe", "ye"))}
_SIBLINGS["IDENTITY"] = _SIBLINGS["SIMULTANEOUS"]

_KEYS = ("xs", "xe", "ys", "ye")


def _template(spec: str) -> str:
    """A parent / child / sibling spec of ``_TWO_NEW`` as NIL or a format string of the four point names."""
    return NIL if spec == "-" else " ".join("{%d}" % _KEYS.index(w) for w in spec.split("+") if w)


_TWO_NEW_COMPILED = {rel: tuple((_KEYS.index(key), BASE + step * STEP, _template(p), _template(c), _template(sib))
                                for key, step, p, c, sib in order) for rel, order in _TWO_NEW.items()}


@dataclass(slots=True, eq=False)  # compared and hashed by identity: one object per point (or per equal names)
class Point:
    chain: int
    pseudo: int
    parent: str = ""  # space-separated point names, NIL, or "" (never set)
    child: str = ""
    sibling: str = ""
    pid: int = -1  # index in the search arrays, once the point is linked or queried


class _Arrays:
    """The graph as the search kernel reads it (``kernels/temporal_timegraph.py``): points, connection
    points per chain and cross links per connection point as linked lists, in growing 2-D arrays
    (``pts``: chain, pseudo time; ``chains``: first entry, and two work rows; ``cps``: point, next
    entry, first link; ``tgts``: point, next link)."""

    def __init__(self) -> None:
        self.n_pts = self.n_cp = self.n_tgt = 0
        self.pts = np.zeros((2, 64), np.int64)
        self.chains = np.zeros((5, 16), np.int64)
        self.chains[0] = -1
        self.cps = np.zeros((3, 64), np.int64)
        self.tgts = np.zeros((2, 64), np.int64)
        self.stamp = np.zeros(1, np.int64)
        self._work()

    def _work(self) -> None:
        self._args = None
        self.work = np.zeros((3, self.pts.shape[1]), np.int64)
        self.stack = np.zeros((3, self.chains.shape[1] + 1), np.int64)

    @staticmethod
    def _grow(a: np.ndarray, n: int, fill: int = 0) -> np.ndarray:
        out = np.full((a.shape[0], max(2 * a.shape[1], n)), fill, np.int64)
        out[:, :a.shape[1]] = a
        return out

    def pid(self, p: Point) -> int:
        if p.pid < 0:
            if self.n_pts == self.pts.shape[1]:
                self.pts = self._grow(self.pts, self.n_pts + 1)
                self._work()
            if p.chain >= self.chains.shape[1]:
                grown = self._grow(self.chains, p.chain + 1)
                grown[0, self.chains.shape[1]:] = -1
                self.chains = grown
                self._work()
            p.pid = self.n_pts
            self.pts[0, p.pid] = p.chain
            self.pts[1, p.pid] = p.pseudo
            self.n_pts += 1
        return p.pid

    def entry(self, p: Point) -> int:
        """A new connection point entry for ``p`` on its chain."""
        pid = self.pid(p)
        k = self.n_cp
        if k == self.cps.shape[1]:
            self.cps = self._grow(self.cps, k + 1)
            self._args = None
        cps = self.cps
        cps[0, k] = pid
        cps[1, k] = self.chains[0, p.chain]
        cps[2, k] = -1
        self.chains[0, p.chain] = k
        self.n_cp += 1
        return k

    def target(self, k: int, p: Point) -> None:
        pid = self.pid(p)
        j = self.n_tgt
        if j == self.tgts.shape[1]:
            self.tgts = self._grow(self.tgts, j + 1)
            self._args = None
        self.tgts[0, j] = pid
        self.tgts[1, j] = self.cps[2, k]
        self.cps[2, k] = j
        self.n_tgt += 1

    def args(self) -> tuple:
        if self._args is None:
            self._args = (self.pts, self.chains, self.cps, self.tgts, self.work, self.stack, self.stamp)
        return self._args


def _has(name: str, names: str) -> bool:
    return name in names.split(" ")


class Timegraph:
    """Points, chains and cross links; ``add`` relations, then ask ``holds``."""

    def __init__(self) -> None:
        self.points: dict[str, Point] = {}
        self.next_chain = 0
        # chain -> connection point name -> (the point, the points after it on other chains, by name)
        self.cross: dict[int, dict[str, tuple[Point, dict[str, Point]]]] = {}
        self._kernel_arrays: _Arrays | None = None  # made when the kernel is first needed
        self._entries: dict[tuple[int, str], int] = {}  # (chain, connection point name) -> kernel entry

    @property
    def _arrays(self) -> _Arrays:
        """The graph in the kernel's arrays (made from the cross links on first use, then kept up to date)."""
        if self._kernel_arrays is None:
            ar = self._kernel_arrays = _Arrays()
            for chain, entries in self.cross.items():
                for lo, (lp, targets) in entries.items():
                    k = self._entries[chain, lo] = ar.entry(lp)
                    for hp in targets.values():
                        ar.target(k, hp)
        return self._kernel_arrays

    # -- building -----------------------------------------------------------------------------

    def add(self, x: str, y: str, rel: str) -> str:
        """Add ``x rel y`` (intervals ``x`` and ``y``); returns ADDED, REDUNDANT or VIOLATED."""
        if rel not in _LINKS:
            raise ValueError(f"unsupported relation {rel!r}")
        pts = self.points
        outcome = None
        if x == y and rel not in EQUAL:
            outcome = VIOLATED  # (the official graph still places a new interval: it is in the graph after)
        x_in, y_in = x + "_s" in pts, y + "_s" in pts
        if x_in and not y_in:  # the new interval goes first
            x, y, rel = y, x, REVERSE[rel]
            x_in, y_in = False, True
        if not x_in and not y_in:
            self._two_new(x, y, rel)
        elif not x_in:
            self._one_new(x, y, rel)
        elif outcome is None:
            outcome = self._both_known(x, y, rel)
        return outcome or ADDED

    def _new_chain(self) -> int:
        self.next_chain += 1
        return self.next_chain - 1

    def _link(self, lo: str, lp: Point, hi: str, hp: Point) -> None:
        """Cross link ``lo <= hi``, kept at ``lo``'s chain."""
        at_chain = self.cross.setdefault(lp.chain, {})
        ar = self._kernel_arrays
        if lo not in at_chain:
            at_chain[lo] = (lp, {})
            if ar is not None:
                self._entries[lp.chain, lo] = ar.entry(lp)
        targets = at_chain[lo][1]
        if hi not in targets:
            targets[hi] = hp
            if ar is not None:
                ar.target(self._entries[lp.chain, lo], hp)

    def _two_new(self, x: str, y: str, rel: str) -> None:
        """Both intervals new: the four points in order on a new chain (a point given twice when x = y:
        the second placement wins)."""
        c = self._new_chain()
        names = (x + "_s", x + "_e", y + "_s", y + "_e")
        made = {k: Point(c, pseudo, parent.format(*names), child.format(*names), sibling.format(*names))
                for k, pseudo, parent, child, sibling in _TWO_NEW_COMPILED[rel]}
        pts = self.points
        for k in range(4):
            pts[names[k]] = made[k]

    def _one_new(self, x: str, y: str, rel: str) -> None:
        """``x`` new, ``y`` in the graph: ``x``'s points go on ``y``'s chain when the neighbouring
        places are free, else on new chains joined by cross links, or they are ``y``'s own points."""
        pts = self.points
        x1n, x2n, y1n, y2n = x + "_s", x + "_e", y + "_s", y + "_e"
        y1, y2 = pts[y1n], pts[y2n]
        x1 = x2 = None
        if rel == "BEFORE":  # x1 < x2 < y1
            # the official graph computes x1's time from x2's before setting it: always -STEP
            x1 = Point(0, -STEP, NIL, x2n)
            x2 = Point(0, y1.pseudo - STEP, x1n, y1n)
            if y1.parent == NIL:
                x1.chain = x2.chain = y1.chain
                y1.parent = x2n
            else:
                x1.chain = x2.chain = self._new_chain()
                y1.parent += " " + x2n
                self._link(x2n, x2, y1n, y1)
        elif rel == "AFTER":  # y2 < x1 < x2
            x1 = Point(0, y2.pseudo + STEP, y2n, x2n)
            x2 = Point(0, x1.pseudo + STEP, x1n, NIL)
            if y2.child == NIL:
                x1.chain = x2.chain = y2.chain
                y2.child = x1n
            else:
                x1.chain = x2.chain = self._new_chain()
                y2.child += " " + x1n
                self._link(y2n, y2, x1n, x1)
        elif rel == "IBEFORE":  # x1 < x2 = y1
            if y1.parent == NIL:
                y1.parent = x1n
                y1.sibling += " " + x2n
                y2.parent += " " + x2n
                x2 = Point(y1.chain, y1.pseudo, x1n, y1.child, y1.sibling + " " + y1n)
                x1 = Point(y1.chain, x2.pseudo - STEP, NIL, x2n + " " + y1n)
            else:
                c = self._new_chain()
                y1.parent += " " + x1n
                y1.sibling += " " + x2n
                y2.parent += " " + x2n
                x2 = Point(y1.chain, y1.pseudo, y1.parent, y1.child, y1.sibling + " " + y1n)
                x1 = Point(c, x2.pseudo - STEP, NIL, x2n + " " + y1n)
                self._link(x1n, x1, x2n, x2)
        elif rel == "IAFTER":  # y2 = x1 < x2
            if y2.child == NIL:
                y1.child += " " + x1n
                y2.sibling += " " + x1n
                y2.child = x2n
                x1 = Point(y2.chain, y2.pseudo, y2.parent, x2n, y2.sibling + " " + y2n)
                x2 = Point(y2.chain, x1.pseudo + STEP, x1n + " " + y2n, NIL)
            else:
                y1.child += " " + x1n
                x1 = y2  # x's start is y's end, one point
                y2.sibling += " " + y2n
                y2.child += " " + x2n
                y2.sibling += " " + x1n
                x2 = Point(self._new_chain(), y2.pseudo + STEP, x1n + " " + y2n, NIL)
                self._link(x1n, x1, x2n, x2)
        elif rel == "BEGINS":  # x1 = y1 < x2 < y2
            if _has(y2n, y1.child) and _has(y1n, y2.parent) and y1.chain == y2.chain:
                x1 = y1
                y1.sibling += " " + y1n
                x2 = Point(y1.chain, 0, x1n + " " + y1n, y2n)
                y1.sibling += " " + x1n
                y1.child = y1.child.replace(y2n, x2n)
                x2.pseudo = y1.pseudo + (y2.pseudo - y1.pseudo) // 2
                y2.parent = y2.parent.replace(y1n, x2n)
            else:
                x2 = self._between(x2n, y1n, y2n)
                y1.sibling += " " + x1n
                x1 = y1
                y1.sibling += " " + y1n
        elif rel == "BEGUN_BY":  # x1 = y1 < y2 < x2
            if y2.child == NIL and y1.chain == y2.chain:
                x2 = Point(y1.chain, y2.pseudo + STEP, y2n, NIL)
                y1.sibling += " " + x1n
                x1 = y1
                y1.sibling += " " + y1n
                y2.parent += " " + x1n
                y2.child = x2n
            else:
                x2 = self._after(x2n, y2n)
                x1 = y1
        elif rel == "ENDS":  # y1 < x1 < x2 = y2
            if _has(y2n, y1.child) and _has(y1n, y2.parent) and y1.chain == y2.chain:
                x1 = Point(y1.chain, y1.pseudo + (y2.pseudo - y1.pseudo) // 2, y1n, x2n)
                x2 = Point(y1.chain, y2.pseudo, x1n, y2.child, y2.sibling + " " + y2n)
                y1.child = x1n
                y2.sibling += " " + x2n
                y2.parent = x1n
            else:
                x2 = y2
                x1 = self._between(x1n, y1n, y2n)
        elif rel == "ENDED_BY":  # x1 < y1 < y2 = x2
            if y1.parent == NIL and y1.chain == y2.chain:
                x1 = Point(y1.chain, y1.pseudo - STEP, NIL, y1n)
                x2 = Point(y1.chain, y2.pseudo, y2.parent, y2.child, y2.sibling + " " + y2n)
                y1.parent = x1n
                y1.child += " " + x2n
                y2.sibling += " " + x2n
            else:
                x2 = y2
                x1 = self._before(x1n, y1n)
        elif rel == "INCLUDES":  # x1 < y1, y2 < x2
            if y1.parent == NIL and y2.child == NIL and y1.chain == y2.chain:
                x1 = Point(y1.chain, y1.pseudo - STEP, NIL, y1n)
                x2 = Point(y2.chain, y2.pseudo + STEP, y2n, NIL)
                y1.parent, y2.child = x1n, x2n
            elif y1.parent != NIL or y2.child != NIL:
                c = self._new_chain()
                x1 = Point(c, y1.pseudo - STEP, NIL, "")  # the official graph leaves x1's child unset
                x2 = Point(c, y2.pseudo + STEP, x1n, NIL)
                self._link(x1n, x1, y1n, y1)
                self._link(y2n, y2, x2n, x2)
            else:  # both ends free, on two chains
                x1 = self._before(x1n, y1n)
                x2 = self._after(x2n, y2n)
        elif rel == "IS_INCLUDED":  # y1 < x1 < x2 < y2
            gap = y2.pseudo - y1.pseudo  # floor divisions, as Python 2 integer division
            t1, t2 = y1.pseudo + gap // 3, y1.pseudo + gap * 2 // 3
            if _has(y2n, y1.child) and _has(y1n, y2.parent) and y1.chain == y2.chain:
                x1 = Point(y1.chain, t1, y1.sibling + " " + y1n, x2n)
                x2 = Point(y1.chain, t2, x1n, y2.sibling + " " + y2n)
                y1.child = x1n
            else:
                c = self._new_chain()
                x1 = Point(c, t1, NIL, x2n)
                x2 = Point(c, t2, x1n, NIL)
                self._link(y1n, y1, x1n, x1)
                self._link(x2n, x2, y2n, y2)
        elif rel in EQUAL:  # x1 = y1, x2 = y2: y's points under x's names
            x1, x2 = y1, y2
            if y1.chain == y2.chain:
                y1.sibling += " " + y1n
                y2.sibling += " " + y2n
                y1.sibling += " " + x1n
                y2.sibling += " " + x2n
        else:
            raise ValueError(f"unsupported relation {rel!r}")
        pts[x1n], pts[x2n] = x1, x2

    # the official graph's point helpers: a new point before / after / between points in the graph

    def _before(self, xn: str, yn: str) -> Point:
        y = self.points[yn]
        if y.parent == NIL:
            y.parent = xn
            return Point(y.chain, y.pseudo - STEP, NIL, yn)
        x = Point(self._new_chain(), y.pseudo - STEP, NIL, NIL)
        self._link(xn, x, yn, y)
        return x

    def _after(self, xn: str, yn: str) -> Point:
        y = self.points[yn]
        if y.child == NIL:
            y.child = xn
            return Point(y.chain, y.pseudo + STEP, yn, NIL)
        x = Point(self._new_chain(), y.pseudo + STEP, NIL, NIL)
        self._link(yn, y, xn, x)
        return x

    def _between(self, xn: str, yn: str, zn: str) -> Point:
        y, z = self.points[yn], self.points[zn]
        if y.chain == z.chain and _has(zn, y.child) and _has(yn, z.parent):
            y.child = xn
            z.parent = xn
            return Point(y.chain, y.pseudo + (z.pseudo - y.pseudo) // 2, yn, zn)
        if y.child == NIL:
            y.child = xn
            x = Point(y.chain, y.pseudo + STEP, yn, NIL)
            self._link(xn, x, zn, z)
            return x
        if z.parent == NIL:
            z.parent = xn
            x = Point(z.chain, z.pseudo - STEP, "", zn)  # the official graph leaves its parent unset
            self._link(yn, y, xn, x)
            return x
        x = Point(self._new_chain(), y.pseudo + (z.pseudo - y.pseudo) // 2)
        self._link(yn, y, xn, x)
        self._link(xn, x, zn, z)
        return x

    def _both_known(self, x: str, y: str, rel: str) -> str:
        """Both intervals in the graph: implied, contradicted, or added as cross links."""
        if rel == "BEGINS" and BEGINS_NEVER_HOLDS:
            return VIOLATED
        from ..kernels.temporal_timegraph import relate_two  # (importing it imports numba)

        pts, ar = self.points, self._arrays
        names = {"xs": x + "_s", "xe": x + "_e", "ys": y + "_s", "ye": y + "_e"}
        tests = POINTS[rel]
        (a1, w1, b1), (a2, w2, b2) = tests if len(tests) == 2 else (tests[0], (None, None, None))
        code = relate_two(ar.pid(pts[names[a1]]), ar.pid(pts[names[b1]]), -1 if a2 is None else ar.pid(pts[names[a2]]),
                          0 if b2 is None else ar.pid(pts[names[b2]]), *ar.args())
        r1 = _CODE[code >> 2]
        if r1 not in (w1, None):
            return VIOLATED
        r2 = _CODE[code & 3] if a2 is not None else w1
        if a2 is not None and r2 not in (w2, None):
            return VIOLATED
        if r1 is not None and r2 is not None:
            return REDUNDANT
        return self._add_links(names, rel)

    def _add_links(self, names: dict[str, str], rel: str) -> str:
        """The cross links (and siblings) of ``rel`` between two known intervals the graph does not decide."""
        pts = self.points
        for lo, hi in _LINKS[rel]:
            self._link(names[lo], pts[names[lo]], names[hi], pts[names[hi]])
        for a, b in _SIBLINGS.get(rel, ()):
            pts[names[a]].sibling += " " + names[b]
            pts[names[b]].sibling += " " + names[a]
        return ADDED

    # -- queries ------------------------------------------------------------------------------

    def holds(self, x: str, y: str, rel: str) -> bool:
        """Does the graph entail ``x rel y``?  (False when either interval is not in the graph;
        always False for BEGINS, as in the official scorer.)"""
        return self.holds_many([(x, y, rel)])[0]

    def holds_many(self, relations) -> list[bool]:
        """``holds`` of each (x, y, rel): the cross-chain searches in two kernel calls (``a <= b`` for every point
        pair, then ``b <= a`` only where ``a <= b`` was found)."""
        pts = self.points
        plans = []
        forward: dict[tuple[str, str], None] = {}
        for x, y, rel in relations:
            if x + "_s" not in pts or y + "_s" not in pts or (rel == "BEGINS" and BEGINS_NEVER_HOLDS):
                plans.append(None)
                continue
            names = {"xs": x + "_s", "xe": x + "_e", "ys": y + "_s", "ye": y + "_e"}
            plan = []
            for a, want, b in POINTS[rel]:
                a, b = names[a], names[b]
                pa, pb = pts[a], pts[b]
                if pa.chain == pb.chain:
                    plan.append(pa.pseudo < pb.pseudo if want == "<" else pa.pseudo == pb.pseudo)
                else:
                    forward[a, b] = None
                    plan.append((a, b, want))
            plans.append(plan)
        found = self._search_many(list(forward))
        backward = list(dict.fromkeys((b, a) for (a, b), ok in found.items() if ok))
        found.update(self._search_many(backward))

        def step_holds(step) -> bool:  # (b <= a is known only where a <= b was found)
            if isinstance(step, bool):
                return step
            a, b, want = step
            return found[a, b] and (not found[b, a] if want == "<" else found[b, a])

        return [plan is not None and all(map(step_holds, plan)) for plan in plans]

    def _search_many(self, pairs: list[tuple[str, str]]) -> dict[tuple[str, str], bool]:
        """Whether the official search finds ``a <= b``, for many point pairs (on different chains) in one call of
        the search kernel (``kernels/temporal_timegraph.py``: a breadth-first search, and the official depth-first
        search pruned by it where a shortest path repeats a chain; ``tests/reference_temporal.official_search`` is
        its oracle)."""
        if not pairs:
            return {}
        pts, ar = self.points, self._arrays
        starts = np.array([ar.pid(pts[a]) for a, _ in pairs], np.int64)
        targets = np.array([ar.pid(pts[b]) for _, b in pairs], np.int64)
        from ..kernels.temporal_timegraph import reaches_many

        return dict(zip(pairs, reaches_many(starts, targets, *ar.args()).tolist()))
