"""Slow, obviously-correct pure-Python versions of every coreference metric,
following the CoNLL reference scorer v8.01 semantics (and coval's for LEA).

Chains are lists of mention ids; a chain may hold an id more than once and
an id may sit in several chains (v8.01 keeps repeated key spans).  The
kernels must agree with these on any input.
"""
from __future__ import annotations

from itertools import combinations, product

import numpy as np
from scipy.optimize import linear_sum_assignment


def perl_ids(key_chains, resp_chains):
    """v8.01's mention identity: (key chains, response chains, mention counts, repeats)."""
    key_id: dict = {}
    for chain in key_chains:
        for span in chain:
            key_id.setdefault(span, len(key_id))
    keys = [[key_id[s] for s in chain] for chain in key_chains]
    seen, new, resp = set(), {}, []
    exact = repeated = 0
    for chain in resp_chains:
        out = []
        for span in chain:
            if span in key_id:
                if span in seen:
                    repeated += 1
                    continue
                seen.add(span)
                exact += 1
                out.append(key_id[span])
            else:
                out.append(new.setdefault(span, len(key_id) + len(new)))
        if out:
            resp.append(out)
    mentions = (exact, len(key_id), exact, exact + len(new))
    return keys, resp, mentions, repeated


def last_index(chains):
    """id -> index of the last chain holding it."""
    return {x: i for i, chain in enumerate(chains) for x in chain}


def muc(keys, resp):
    k_index = last_index(keys)
    correct = 0
    for chain in resp:
        for p, x in enumerate(chain):
            if x in k_index and any(y in k_index and k_index[y] == k_index[x] for y in chain[p + 1:]):
                correct += 1
    return (correct, sum(len(c) - 1 for c in keys), correct, sum(len(c) - 1 for c in resp))


def bcub(keys, resp):
    k_index = last_index(keys)
    r_num = p_num = 0.0
    for chain in resp:
        for x in chain:
            k_chain = keys[k_index[x]] if x in k_index else []
            common = sum(1 for y in chain if y in k_chain)
            p_num += common / len(chain)
            if k_chain:
                r_num += common / len(k_chain)
    return (r_num, sum(map(len, keys)), p_num, sum(map(len, resp)))


def _ceaf(keys, resp, phi):
    if not keys or not resp:
        return 0.0
    sim = np.array([[phi(k, r) for r in resp] for k in keys], dtype=float)
    rows, cols = linear_sum_assignment(sim, maximize=True)
    return float(sim[rows, cols].sum())


def _common(a, b):
    return sum(1 for x in a if x in b)


def ceafm(keys, resp):
    num = _ceaf(keys, resp, _common)
    return (num, sum(map(len, keys)), num, sum(map(len, resp)))


def ceafe(keys, resp):
    num = _ceaf(keys, resp, lambda k, r: 2 * _common(k, r) / (len(k) + len(r)))
    return (num, len(keys), num, len(resp))


def _links(chains):
    coref = {tuple(sorted(p)) for chain in chains for p in combinations(chain, 2)}
    non = {tuple(sorted(p)) for a, b in combinations(chains, 2) for p in product(a, b)}
    return coref, non


def blanc(keys, resp):
    kc, kn = _links(keys)
    rc, rn = _links(resp)
    return (len(kc & rc), len(kc), len(kc & rc), len(rc), len(kn & rn), len(kn), len(kn & rn), len(rn))


def _lea_side(clusters, other, to_other):
    num = den = 0.0
    for c in clusters:
        if len(c) == 1:
            common, links = (1 if c[0] in to_other and len(other[to_other[c[0]]]) == 1 else 0), 1
        else:
            links = len(c) * (len(c) - 1) / 2.0
            common = sum(1 for a, b in combinations(c, 2)
                         if a in to_other and b in to_other and to_other[a] == to_other[b])
        num += len(c) * common / links
        den += len(c)
    return num, den


def lea(keys, resp):
    r_num, r_den = _lea_side(keys, resp, last_index(resp))
    p_num, p_den = _lea_side(resp, keys, last_index(keys))
    return (r_num, r_den, p_num, p_den)


METRIC_FUNCTIONS = {"muc": muc, "bcub": bcub, "ceafm": ceafm, "ceafe": ceafe, "lea": lea, "blanc": blanc}


def document_stats(key_chains, resp_chains) -> dict[str, tuple]:
    """Every metric's statistics for one document of span chains."""
    keys, resp, mentions, _ = perl_ids(key_chains, resp_chains)
    out = {"mentions": mentions}
    out.update({name: fn(keys, resp) for name, fn in METRIC_FUNCTIONS.items()})
    return out


def index_sums(index, stats):
    """Bootstrap sums by plain loops: row b adds stats[index[b, j]] for j in order."""
    out = np.zeros((len(index), stats.shape[1]))
    for b, row in enumerate(index):
        for d in row:
            out[b] += stats[d]
    return out


def swapped_sums(swaps, a, b):
    """Approximate-randomization sums by plain loops."""
    out_a = np.zeros((len(swaps), a.shape[1]))
    out_b = np.zeros((len(swaps), a.shape[1]))
    for t, row in enumerate(swaps):
        for d, swap in enumerate(row):
            out_a[t] += b[d] if swap else a[d]
            out_b[t] += a[d] if swap else b[d]
    return out_a, out_b
