"""The CoNLL reference scorer v8.01 report layout, for scripts that parse it.

Numbers print as Perl prints them (integers plainly, other numbers with 15
significant digits); percentages are truncated, not rounded, to two
decimals: ``int(x * 10000) / 100``.
"""
from __future__ import annotations

import math


def perl_number(x: float) -> str:
    """A number as Perl stringifies it (``%.15g``; integral values without a point)."""
    x = float(x)
    if x == int(x) and abs(x) < 1e15:
        return str(int(x))
    return f"{x:.15g}"


def truncated_percent(fraction: float) -> str:
    """v8.01's percentage: ``int(fraction * 10000) / 100`` printed as Perl prints it."""
    return perl_number(math.trunc(float(fraction) * 10000) / 100)
