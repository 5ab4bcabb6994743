"""Small pieces of messages shared by every task: a few names of a long list, close matches."""
from __future__ import annotations

import difflib
from typing import Iterable, Sequence


def few(names: Sequence[str], n: int = 5) -> str:
    """``"a", "b", "c" ...``: the first n names, quoted, and an ellipsis when there are more."""
    return ", ".join(f'"{x}"' for x in names[:n]) + (" ..." if len(names) > n else "")


def did_you_mean(name: str, names: Iterable[str]) -> str:
    """``: did you mean "x" or "y"?`` for close matches of a mistyped name, else ``""``."""
    close = difflib.get_close_matches(name, list(names), n=3, cutoff=0.6)
    return (": did you mean " + " or ".join(f'"{c}"' for c in close) + "?") if close else ""


def counted(n: int, noun: str) -> str:
    """``1 document``, ``2 documents``: a count and its noun, singular for one."""
    return f"{n} {noun}" + ("" if n == 1 else "s")
