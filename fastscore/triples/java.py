"""What the Triple evaluation module's printed reports inherit from Java: ``String.trim``,
``equalsIgnoreCase``, ``Double.toString``, integer division, and the iteration order of a
``HashMap<String, ...>`` (the order of its per-relation and per-label rows).

A ``java.util.HashMap`` iterates bucket by bucket (bucket = ``(h ^ (h >>> 16)) & (capacity - 1)``,
``h = String.hashCode()``); keys in one bucket come in insertion order (new keys are appended to the
bucket's list, and a resize splits a list keeping its order).  The capacity starts at 16 and doubles
whenever the map holds more than 3/4 of it.  (Buckets turn into trees only past 8 keys in one bucket
with a capacity of 64 or more; no report of the module comes near that.)
"""
from __future__ import annotations

import math
from decimal import Decimal
from typing import Iterable

from ..formats.triples import fold  # noqa: F401  (Java's equalsIgnoreCase, read there)


def _bucket(key: str, capacity: int) -> int:
    """The bucket of ``key``: ``String.hashCode()`` (over UTF-16 code units, 32 bits) spread as a ``HashMap``
    spreads it."""
    h = 0
    data = key.encode("utf-16-be")
    for k in range(0, len(data), 2):
        h = (31 * h + (data[k] << 8 | data[k + 1])) & 0xFFFFFFFF
    return (h ^ (h >> 16)) & (capacity - 1)


def hashmap_order(keys_in_insertion_order: Iterable[str]) -> list[str]:
    """The keys of a ``HashMap<String, ...>`` (no removals) in its iteration order."""
    keys = list(dict.fromkeys(keys_in_insertion_order))
    capacity = 16
    while len(keys) > capacity * 3 // 4:
        capacity *= 2
    return [k for _, _, k in sorted((_bucket(k, capacity), n, k) for n, k in enumerate(keys))]


def idiv(a: int, b: int) -> int:
    """Java's ``int / int`` (truncation toward zero)."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def ddiv(a: float, b: float) -> float:
    """Java's ``double / double``: NaN for 0/0, infinities for x/0."""
    if b == 0:
        if a == 0 or math.isnan(a):
            return math.nan
        return math.copysign(math.inf, a) * (math.copysign(1.0, b))
    return a / b


def d2i(x: float) -> int:
    """Java's ``(int)`` of a double (and ``Double.intValue``): NaN 0, saturated at the int range, else
    truncated toward zero."""
    if math.isnan(x):
        return 0
    if x >= 2147483647:
        return 2147483647
    if x <= -2147483648:
        return -2147483648
    return int(x)


def percent_int(count: int, total: int) -> int:
    """``new Double(100 * (double) count / (double) total).intValue()``."""
    return d2i(ddiv(100.0 * count, float(total)))


def double_str(x: float) -> str:
    """``Double.toString(x)``: the shortest digits that read back as ``x`` (Python's repr), laid out as
    Java does — plain with at least one decimal between 10^-3 and 10^7, else ``d.dddE-n``."""
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    if x == 0:
        return "-0.0" if math.copysign(1.0, x) < 0 else "0.0"
    sign = "-" if x < 0 else ""
    digits, exponent = _shortest(abs(x))  # value = 0.d1d2... * 10^exponent
    if 1e-3 <= abs(x) < 1e7:
        if exponent <= 0:
            return f"{sign}0.{'0' * -exponent}{digits}"
        whole, frac = digits[:exponent].ljust(exponent, "0"), digits[exponent:]
        return f"{sign}{whole}.{frac or '0'}"
    mantissa = digits[0] + "." + (digits[1:] or "0")
    return f"{sign}{mantissa}E{exponent - 1}"


def _shortest(x: float) -> tuple[str, int]:
    """Shortest decimal digits of a positive finite double and the exponent e with x = 0.digits * 10^e."""
    _, digits, exponent = Decimal(repr(x)).normalize().as_tuple()
    return "".join(map(str, digits)), len(digits) + exponent
