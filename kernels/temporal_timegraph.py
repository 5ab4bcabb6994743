"""The official TempEval-3 timegraph search (``a <= b`` across chains), on arrays.

The graph (kept by :mod:`fastscore.temporal.timegraph`, which adds points and links):

* points: ``pt_chain[p]``, ``pt_pseudo[p]``;
* connection points of a chain as a linked list: ``chain_first[c]`` -> entry ``k`` with point
  ``cp_pid[k]``, next entry ``cp_next[k]``, first cross link ``cp_first[k]``;
* cross links of an entry as a linked list: target point ``tgt_pid[j]``, next ``tgt_next[j]``.

From a point ``p`` the search may take the cross links of every connection point of ``p``'s chain
at or after ``p`` (by pseudo time).  The official search is a depth-first search that never
enters a chain already on its path and stops at the first point it reaches on the target's
chain (success when that point is at or before the target).  Here it is answered exactly by:

1. a breadth-first search from the start over chains not on the path (revisits allowed): no
   path -> no; a shortest path through distinct chains -> yes (the official search finds it too);
2. otherwise the official depth-first search, pruned by step 1 at every point it enters (a point
   from which step 1 finds nothing is a dead end; one from which it finds a path through
   distinct chains succeeds).

Work arrays (``seen``, ``prev``, ``queue`` per point; ``in_path``, ``mark`` per chain; the
stacks) are passed in so that nothing is allocated per query; ``stamp`` is a one-element
counter that makes "seen" marks of earlier searches stale.  The public functions take them
packed in a few 2-D arrays (a call's cost grows with its number of arguments):
``pts`` = (pt_chain, pt_pseudo), ``chains`` = (chain_first, in_path, mark, done_at, done_from), ``cps`` = (cp_pid,
cp_next, cp_first), ``tgts`` = (tgt_pid, tgt_next), ``work`` = (seen, prev, queue), ``stack`` =
(st_p, st_k, st_j).
"""
import numpy as np
from ._jit import njit


@njit(cache=True)
def _bfs(start, target, pt_chain, pt_pseudo, chain_first, cp_pid, cp_next, cp_first, tgt_pid, tgt_next,
         in_path, seen, prev, queue, mark, stamp, done_at, done_from):
    """0: no path to the target's chain at or before the target; 1: a shortest one through distinct
    chains; 2: a shortest one that repeats a chain.  A point whose chain was already left from a point at
    or before it (``done_from[chain]``, valid when ``done_at[chain]`` is this search's stamp) adds nothing:
    its connection points are a subset of that point's."""
    stamp[0] += 1
    s = stamp[0]
    tc = pt_chain[target]
    tp = pt_pseudo[target]
    seen[start] = s
    prev[start] = -1
    queue[0] = start
    head = 0
    tail = 1
    while head < tail:
        p = queue[head]
        head += 1
        ps = pt_pseudo[p]
        pc = pt_chain[p]
        if done_at[pc] == s and done_from[pc] <= ps:
            continue
        done_at[pc] = s
        done_from[pc] = ps
        k = chain_first[pc]
        while k >= 0:
            if ps <= pt_pseudo[cp_pid[k]]:
                j = cp_first[k]
                while j >= 0:
                    q = tgt_pid[j]
                    j = tgt_next[j]
                    if seen[q] == s:
                        continue
                    qc = pt_chain[q]
                    if in_path[qc] != 0:
                        continue
                    seen[q] = s
                    prev[q] = p
                    if qc != tc:
                        queue[tail] = q
                        tail += 1
                    elif pt_pseudo[q] <= tp:
                        r = p
                        while r >= 0:
                            rc = pt_chain[r]
                            if mark[rc] == s:
                                return 2
                            mark[rc] = s
                            r = prev[r]
                        return 1
            k = cp_next[k]
    return 0


@njit(cache=True)
def _reaches(a, b, pt_chain, pt_pseudo, chain_first, cp_pid, cp_next, cp_first, tgt_pid, tgt_next,
             in_path, seen, prev, queue, mark, stamp, st_p, st_k, st_j, done_at, done_from):
    """Does the official search find ``a <= b`` (points on different chains)?"""
    r = _bfs(a, b, pt_chain, pt_pseudo, chain_first, cp_pid, cp_next, cp_first, tgt_pid, tgt_next,
             in_path, seen, prev, queue, mark, stamp, done_at, done_from)
    if r != 2:
        return r == 1
    tc = pt_chain[b]
    tp = pt_pseudo[b]
    found = False
    st_p[0] = a
    st_k[0] = chain_first[pt_chain[a]]
    st_j[0] = -1
    in_path[pt_chain[a]] = 1
    depth = 1
    while depth > 0 and not found:
        d = depth - 1
        p = st_p[d]
        ps = pt_pseudo[p]
        k = st_k[d]
        j = st_j[d]
        q = -1
        # the next cross link of p: entries of p's chain at or after p, their targets in order
        while q < 0:
            if j >= 0:
                q = tgt_pid[j]
                j = tgt_next[j]
            else:
                while k >= 0 and ps > pt_pseudo[cp_pid[k]]:
                    k = cp_next[k]
                if k < 0:
                    break
                j = cp_first[k]
                k = cp_next[k]
        st_k[d] = k
        st_j[d] = j
        if q < 0:  # every link tried: leave p's chain
            in_path[pt_chain[p]] = 0
            depth -= 1
            continue
        qc = pt_chain[q]
        if in_path[qc] != 0:
            continue
        if qc == tc:
            if pt_pseudo[q] <= tp:
                found = True
            continue
        r = _bfs(q, b, pt_chain, pt_pseudo, chain_first, cp_pid, cp_next, cp_first, tgt_pid, tgt_next,
                 in_path, seen, prev, queue, mark, stamp, done_at, done_from)
        if r == 1:
            found = True
        elif r == 2:
            st_p[depth] = q
            st_k[depth] = chain_first[qc]
            st_j[depth] = -1
            in_path[qc] = 1
            depth += 1
    for d in range(depth):
        in_path[pt_chain[st_p[d]]] = 0
    return found


@njit(cache=True)
def _relate(a, b, pt_chain, pt_pseudo, chain_first, cp_pid, cp_next, cp_first, tgt_pid, tgt_next,
            in_path, seen, prev, queue, mark, stamp, st_p, st_k, st_j, done_at, done_from):
    """The relation of points a and b: 0 unknown, 1 a < b, 2 a > b, 3 a = b (``a < 0``: 0)."""
    if a < 0:
        return 0
    if pt_chain[a] == pt_chain[b]:
        pa, pb = pt_pseudo[a], pt_pseudo[b]
        return 1 if pa < pb else 2 if pa > pb else 3
    ab = _reaches(a, b, pt_chain, pt_pseudo, chain_first, cp_pid, cp_next, cp_first, tgt_pid, tgt_next,
                  in_path, seen, prev, queue, mark, stamp, st_p, st_k, st_j, done_at, done_from)
    ba = _reaches(b, a, pt_chain, pt_pseudo, chain_first, cp_pid, cp_next, cp_first, tgt_pid, tgt_next,
                  in_path, seen, prev, queue, mark, stamp, st_p, st_k, st_j, done_at, done_from)
    return 3 if ab and ba else 1 if ab else 2 if ba else 0


@njit(cache=True)
def reaches_many(starts, targets, pts, chains, cps, tgts, work, stack, stamp):
    """Does the official search find ``start <= target`` (points on different chains), for each pair?"""
    out = np.zeros(len(starts), dtype=np.bool_)
    for i in range(len(starts)):
        out[i] = _reaches(starts[i], targets[i], pts[0], pts[1], chains[0], cps[0], cps[1], cps[2], tgts[0], tgts[1],
                          chains[1], work[0], work[1], work[2], chains[2], stamp, stack[0], stack[1], stack[2],
                          chains[3], chains[4])
    return out


@njit(cache=True)
def relate_two(a1, b1, a2, b2, pts, chains, cps, tgts, work, stack, stamp):
    """The point relations of two pairs (0 unknown, 1 <, 2 >, 3 =; the second 0 when ``a2 < 0``) as
    ``4 * first + second``."""
    r1 = _relate(a1, b1, pts[0], pts[1], chains[0], cps[0], cps[1], cps[2], tgts[0], tgts[1], chains[1], work[0],
                 work[1], work[2], chains[2], stamp, stack[0], stack[1], stack[2], chains[3], chains[4])
    r2 = _relate(a2, b2, pts[0], pts[1], chains[0], cps[0], cps[1], cps[2], tgts[0], tgts[1], chains[1], work[0],
                 work[1], work[2], chains[2], stamp, stack[0], stack[1], stack[2], chains[3], chains[4])
    return 4 * r1 + r2
