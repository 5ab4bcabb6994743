"""Small pieces of messages shared by every task: a value as a message shows it, a few names of a long list,
close matches."""
from __future__ import annotations

import difflib
from typing import Iterable, Sequence

SHOWN = 100  # characters of a value (an id, a path, a line) that a message shows: the rest is cut from its middle
LINE = 2000  # characters of a whole message line (the last guard: a value quoted without `shown`)

# Invisible characters that str.isprintable() lets through (letters, marks and symbols that show as nothing
# or as a blank): escaped like the format and control characters it does catch.
_INVISIBLE = frozenset("\u034f\u115f\u1160\u17b4\u17b5\u2800\u3164\uffa0") | frozenset(
    map(chr, [*range(0x180B, 0x1810), *range(0xFE00, 0xFE10), *range(0xE0100, 0xE01F0)]))


def _escaped(c: str) -> str:
    if c.isprintable() and c not in _INVISIBLE:
        return c
    if c in "\t\n\r":
        return {"\t": "\\t", "\n": "\\n", "\r": "\\r"}[c]
    n = ord(c)
    if 0xDC80 <= n <= 0xDCFF:  # a byte of a file name that is not UTF-8 (os.fsdecode's surrogateescape)
        n -= 0xDC00
    return f"\\x{n:02x}" if n < 0x100 else f"\\u{n:04x}" if n < 0x10000 else f"\\U{n:08x}"


def shown(value: object, limit: int = SHOWN) -> str:
    """A value (an id, a name, a path, a line of a file) as a message shows it: on one line, every character
    that does not show itself (controls, line and paragraph separators, zero-width and right-to-left marks,
    other invisible ones) escaped as ``\\n``, ``\\x00``, ``\\u200b``, and a value longer than ``limit``
    characters (once escaped) cut in the middle: ``start...[1,843,210 characters]...end`` (its length as it
    is).  Printable text is returned as it is, so showing a shown value again changes nothing."""
    text = str(value)
    if len(text) <= limit and text.isprintable() and _INVISIBLE.isdisjoint(text):
        return text
    if len(text) <= limit:
        text = _all_escaped(text)
        if len(text) <= limit:
            return text
    note = f"...[{len(str(value)):,} characters]..."
    head = max(1, (limit - len(note)) * 2 // 3)
    tail = max(1, limit - len(note) - head)
    # only the ends are escaped: a value of megabytes (a file of lone CRs read as one line) costs no more
    return _all_escaped(text[:head])[:head] + note + _all_escaped(text[-tail:])[-tail:]


def _all_escaped(text: str) -> str:
    return text if text.isprintable() and _INVISIBLE.isdisjoint(text) else "".join(map(_escaped, text))


def few(names: Sequence[str], n: int = 5) -> str:
    """``"a", "b", "c" ...``: the first n names, quoted, and an ellipsis when there are more."""
    return ", ".join(f'"{shown(x)}"' for x in names[:n]) + (" ..." if len(names) > n else "")


def did_you_mean(name: str, names: Iterable[str]) -> str:
    """``: did you mean "x" or "y"?`` for close matches of a mistyped name, else ``""``."""
    close = difflib.get_close_matches(name, list(names), n=3, cutoff=0.6)
    return (": did you mean " + " or ".join(f'"{shown(c)}"' for c in close) + "?") if close else ""


def counted(n: int, noun: str) -> str:
    """``1 document``, ``2 documents``: a count and its noun, singular for one."""
    return f"{n} {noun}" + ("" if n == 1 else "s")
