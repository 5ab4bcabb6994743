"""Python 2.7's iteration order of a set of string tuples.

EvmEval (Python 2) expands event sequencing links into a ``set`` of
``(mention, mention, relation)`` tuples and hands them to the TempEval-3
timegraph in the set's iteration order; the timegraph's answers depend on that
order.  To give EvmEval's numbers, fastscore lists the tuples in the order a
CPython 2.7 set (64-bit build, hash randomisation off, its default) iterates
them: the same hash functions and the same open-addressing table.
"""
from __future__ import annotations

from functools import lru_cache

_MASK = (1 << 64) - 1
_MIN_SIZE = 8
_PERTURB_SHIFT = 5


def _signed(x: int) -> int:
    x &= _MASK
    return x - (1 << 64) if x >> 63 else x


@lru_cache(maxsize=None)  # mention ids and relation names repeat from document to document
def str_hash(s: str) -> int:
    """``hash(s)`` of a Python 2 byte string (its UTF-8 bytes) on a 64-bit build."""
    data = s.encode("utf-8")
    if not data:
        return 0
    x = data[0] << 7
    for b in data:
        x = ((1000003 * x) ^ b) & _MASK
    x = _signed(x ^ len(data))
    return -2 if x == -1 else x


def tuple_hash(items: tuple[str, ...]) -> int:
    """``hash(t)`` of a Python 2 tuple of byte strings on a 64-bit build."""
    x = 0x345678
    mult = 1000003
    n = len(items)
    for item in items:
        n -= 1
        x = ((x ^ str_hash(item)) * mult) & _MASK
        mult = (mult + 82520 + n + n) & _MASK
    x = _signed(x + 97531)
    return -2 if x == -1 else x


def _slot(table: list, h: int, mask: int) -> int:
    """The first free slot on the probe sequence of hash ``h`` (no deletions, so no dummies)."""
    i = h & _MASK
    j = i & mask
    perturb = i
    while table[j] is not None:
        i = ((i << 2) + i + perturb + 1) & _MASK
        j = i & mask
        perturb >>= _PERTURB_SHIFT
    return j


def set_order(items) -> list:
    """The distinct ``items`` (tuples of str) in the order ``list(set)`` gives in CPython 2.7 when
    they are added one by one, in the given order, to an empty set."""
    table: list = [None] * _MIN_SIZE
    mask = _MIN_SIZE - 1
    used = 0
    where: dict = {}  # item -> slot: equal tuples are the same entry
    for item in items:
        if item in where:
            continue
        h = tuple_hash(item)
        j = _slot(table, h, mask)
        table[j] = (h, item)
        where[item] = j
        used += 1
        if used * 3 >= (mask + 1) * 2:  # fill*3 >= (mask+1)*2: grow to the next power of two > used*4
            old = [e for e in table if e is not None]
            size = _MIN_SIZE
            while size <= (used * 2 if used > 50000 else used * 4):
                size <<= 1
            table, mask = [None] * size, size - 1
            for h_old, it in old:  # re-inserted in the old table's slot order
                k = _slot(table, h_old, mask)
                table[k] = (h_old, it)
                where[it] = k
    return [e[1] for e in table if e is not None]
