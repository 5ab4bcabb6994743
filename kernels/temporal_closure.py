"""The exact temporal closure of interval relations, over their end points.

Interval ``i`` has points ``2i`` (start) and ``2i + 1`` (end), with ``start < end``.  A relation is a
list of point relations ``a < b`` (op 0) or ``a = b`` (op 1) (relation ``r``: entries
``off[r]:off[r + 1]`` of ``pa``, ``op``, ``pb``).  Point relations are edges: ``a < b`` a strict
edge ``a -> b``, ``a = b`` two non-strict edges.  For this convex point algebra, ``a < b`` is
entailed exactly when a path from ``a`` to ``b`` has a strict edge, ``a = b`` when paths run both
ways, and a set of relations is contradictory exactly when a cycle has a strict edge.

``build`` adds the relations in order: *redundant* (1) when every point relation is already
entailed, *violated* (2) when adding it would make a cycle with a strict edge (it is then left
out), else *added* (0).  ``holds`` answers queries on the result.

Edges are linked lists per point (``head``, ``nxt``, ``dst``, ``strict``).  Searches go over
states ``2 * point + (a strict edge seen)`` with stamped marks, so nothing is cleared per search.
"""
import numpy as np
from ._jit import njit


@njit(cache=True)
def _reach(a, b, head, nxt, dst, strict, seen, stack, stamp):
    """0: no path from a to b; 1: a path (a <= b); 2: a path with a strict edge (a < b)."""
    stamp[0] += 1
    s = stamp[0]
    best = 0
    top = 0
    stack[top] = 2 * a
    top += 1
    seen[2 * a] = s
    while top > 0:
        top -= 1
        state = stack[top]
        p = state >> 1
        st = state & 1
        e = head[p]
        while e >= 0:
            q = dst[e]
            nst = st | strict[e]
            e = nxt[e]
            if q == b:
                if nst == 1:
                    return 2
                best = 1
            ns = 2 * q + nst
            if seen[ns] != s:
                seen[ns] = s
                stack[top] = ns
                top += 1
    return best


@njit(cache=True)
def _entailed(a, o, b, head, nxt, dst, strict, seen, stack, stamp):
    if o == 0:
        return _reach(a, b, head, nxt, dst, strict, seen, stack, stamp) == 2
    if a == b:
        return True
    return (_reach(a, b, head, nxt, dst, strict, seen, stack, stamp) >= 1
            and _reach(b, a, head, nxt, dst, strict, seen, stack, stamp) >= 1)


@njit(cache=True)
def _add_edge(n, a, b, is_strict, head, nxt, dst, src, strict):
    """Edge ``n``: ``a -> b`` at the head of ``a``'s list; returns the next edge number."""
    dst[n] = b
    src[n] = a
    strict[n] = is_strict
    nxt[n] = head[a]
    head[a] = n
    return n + 1


@njit(cache=True)
def build(n_intervals, off, pa, op, pb):
    """Outcome per relation (0 added, 1 redundant, 2 violated) and the final graph
    (head, nxt, dst, strict, n_edges)."""
    n_points = 2 * n_intervals
    cap = n_intervals + 2 * len(pa) + 1
    head = np.full(n_points, -1, np.int64)
    nxt = np.empty(cap, np.int64)
    dst = np.empty(cap, np.int64)
    src = np.empty(cap, np.int64)
    strict = np.empty(cap, np.int64)
    seen = np.zeros(2 * n_points, np.int64)
    stack = np.empty(2 * n_points + 1, np.int64)
    stamp = np.zeros(1, np.int64)
    n = 0
    for i in range(n_intervals):
        n = _add_edge(n, 2 * i, 2 * i + 1, 1, head, nxt, dst, src, strict)
    n_rel = len(off) - 1
    outcome = np.zeros(n_rel, np.int64)
    for r in range(n_rel):
        done = True
        impossible = False
        for k in range(off[r], off[r + 1]):
            if op[k] == 0 and pa[k] == pb[k]:
                impossible = True
            if done and not _entailed(pa[k], op[k], pb[k], head, nxt, dst, strict, seen, stack, stamp):
                done = False
        if done:
            outcome[r] = 1
            continue
        if impossible:
            outcome[r] = 2
            continue
        first = n
        for k in range(off[r], off[r + 1]):
            a, b = pa[k], pb[k]
            if a == b:
                continue
            n = _add_edge(n, a, b, 1 if op[k] == 0 else 0, head, nxt, dst, src, strict)
            if op[k] == 1:
                n = _add_edge(n, b, a, 0, head, nxt, dst, src, strict)
        bad = False
        for e in range(first, n):  # a cycle through a strict edge goes through a new edge u -> v
            back = _reach(dst[e], src[e], head, nxt, dst, strict, seen, stack, stamp)
            if (strict[e] == 1 and back >= 1) or back == 2:
                bad = True
                break
        if bad:
            for e in range(n - 1, first - 1, -1):  # undo, newest first (each new edge heads its list)
                head[src[e]] = nxt[e]
            n = first
            outcome[r] = 2
    return outcome, head, nxt, dst, strict, n


@njit(cache=True)
def holds(off, pa, op, pb, head, nxt, dst, strict, n_points):
    """Whether every point relation of each query (``off``, ``pa``, ``op``, ``pb`` as in ``build``) is
    entailed by the graph."""
    seen = np.zeros(2 * n_points, np.int64)
    stack = np.empty(2 * n_points + 1, np.int64)
    stamp = np.zeros(1, np.int64)
    n = len(off) - 1
    out = np.zeros(n, np.bool_)
    for r in range(n):
        ok = True
        for k in range(off[r], off[r + 1]):
            if not _entailed(pa[k], op[k], pb[k], head, nxt, dst, strict, seen, stack, stamp):
                ok = False
                break
        out[r] = ok
    return out
