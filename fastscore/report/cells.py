"""The cells every readable report shares: percentages, interval cells, the interval column's head and note."""
from __future__ import annotations

import math


def pct(x) -> str:
    """A fraction as a percentage with two decimals (``nan`` where it is undefined)."""
    return "nan" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{100 * x:.2f}"


def pct_of(obj: dict, key: str) -> str:
    """``obj[key]`` as :func:`pct`, empty where the object has no such number (e.g. the CoNLL average's recall)."""
    return pct(obj[key]) if key in obj else ""


def ci_of(obj: dict) -> str:
    """The interval cell of a score object (its ``ci``; empty without one)."""
    return interval(obj.get("ci"))


def interval(ci, value=pct) -> str:
    """``[low, high]`` of an interval (empty without one)."""
    return "" if ci is None else f"[{value(ci[0])}, {value(ci[1])}]"


def ci_head(result, of: str = "") -> str:
    """The interval column's head (empty before a bootstrap): ``95% CI`` + ``of``."""
    return "" if result.bootstrap is None else f"{result.bootstrap.level * 100:g}% CI{of}"


def ci_note(result, of: str = "") -> list[str]:
    """The line under a table that says how its intervals were made (none before a bootstrap)."""
    b = result.bootstrap
    if b is None:
        return []
    return [f"intervals{of}: {b.method} bootstrap, {b.resamples} resamples of documents, seed {b.seed}"]
