"""Obviously-correct pure-Python versions of the TBF kernels (``kernels/tbf_read.py``, ``span_keys`` in
``kernels/tbf_scan.py``, ``group_tokens`` and ``span_numbers`` in ``kernels/tbf_tokens.py``).

The whole reader's reference is the line-by-line reader of tests/reference_tbf_reader.py; these are the
references of single kernels: one line, one field, one span at a time, with ``str`` methods."""
from __future__ import annotations

import re

BEGIN, END, OUTSIDE, SHORT, BAD_RELATION, EDGE, BLANK = 2, 3, 4, 5, 6, 7, 8
N_FIELDS = 7
_BLANKS = " \t\n\r\x0b\x0c"  # what Python 2's str.strip() removes from bytes
_PLAIN_SPAN = re.compile(r"\d{1,18},\d{1,18}(?:;\d{1,18},\d{1,18})*")
HASH_MOD = 2147483647


def scan_lines(data: bytes):
    """(mentions, events, relations) as lists: see kernels/tbf_read.scan_lines."""
    mentions: list[tuple[int, list[int], list[int]]] = []
    events: list[tuple[int, int, int, int, int, int, int]] = []
    relations: list[tuple[int, list[int]]] = []
    in_doc = False
    pos = 0
    for k, raw in enumerate(data.split(b"\n")):
        start = pos
        pos += len(raw) + 1
        line = raw.decode("latin-1")  # one character per byte: positions are byte positions
        stripped = line.strip(_BLANKS)
        if not stripped:
            continue
        s = start + len(line) - len(line.lstrip(_BLANKS))
        e = s + len(stripped)

        def event(kind, count=0):
            events.append((k, kind, s, e, len(mentions), len(relations), count))

        text = stripped.encode("latin-1").decode("utf-8")
        if text != text.strip():
            event(EDGE if text.strip() else BLANK)
            if not text.strip():
                continue
        if stripped.startswith("#"):
            for kind, marker, inside in ((BEGIN, "#BeginOfDocument", True), (END, "#EndOfDocument", False)):
                if stripped.startswith(marker):
                    in_doc = inside
                    event(kind)
                    break
            continue
        if not in_doc:
            event(OUTSIDE)
        if stripped.startswith("@"):
            rest = stripped[1:].lstrip(_BLANKS)
            parts = rest.split("\t")
            if len(parts) != 3:
                event(BAD_RELATION, len(parts))
                continue
            at = e - len(rest)
            bounds = []
            for f in parts:
                bounds += [at, at + len(f)]
                at += len(f) + 1
            relations.append((k, bounds))
            continue
        fields = stripped.split("\t")
        if len(fields) < N_FIELDS:
            event(SHORT, len(fields))
            continue
        starts, ends = [], []
        at = s
        for f in fields[:N_FIELDS]:
            starts.append(at)
            ends.append(at + len(f))
            at += len(f) + 1
        mentions.append((k, starts, ends))
    return mentions, events, relations


def gather(data: bytes, starts, ends) -> bytes:
    return b"\n".join(data[s:e] for s, e in zip(starts, ends))


def intern_fields(data: bytes, starts, ends) -> tuple[list[int], list[int]]:
    ids: list[int] = []
    first: list[int] = []
    seen: dict[bytes, int] = {}
    for i, (s, e) in enumerate(zip(starts, ends)):
        key = data[s:e]
        if key not in seen:
            seen[key] = len(first)
            first.append(i)
        ids.append(seen[key])
    return ids, first


def merged_ranges(span: str) -> tuple[tuple[int, int], ...] | None:
    """The characters of a plain ``b,e;b,e`` span as sorted, merged, non-empty ranges; None otherwise."""
    if not _PLAIN_SPAN.fullmatch(span):
        return None
    merged: list[list[int]] = []
    for b, e in sorted(tuple(map(int, part.split(","))) for part in span.split(";")):
        if b >= e:
            continue
        if merged and b <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], e)
        else:
            merged.append([b, e])
    return tuple(map(tuple, merged))


def span_key(span: str) -> tuple[bool, int]:
    """(plain, hash) of one span, as kernels/tbf_scan.span_keys computes them."""
    ranges = merged_ranges(span)
    if ranges is None:
        return False, 0
    h = 0
    for b, e in ranges:
        h = (h * 1000003 + b % HASH_MOD) % HASH_MOD
        h = (h * 1000003 + e % HASH_MOD) % HASH_MOD
    return True, h


def group_tokens(tokens: list[bytes], docs: list[int], n_docs: int) -> tuple[list[int], list[tuple[int, bytes]]]:
    """(a number per token, per number its document and bytes): equal bytes of one document share a number,
    numbered document by document, in each in the order the tokens come (kernels/tbf_tokens.group_tokens
    without a hash that collides)."""
    numbers = [0] * len(tokens)
    groups: list[tuple[int, bytes]] = []
    for d in range(n_docs):
        seen: dict[bytes, int] = {}
        for t, token in enumerate(tokens):
            if docs[t] == d:
                if token not in seen:
                    seen[token] = len(groups)
                    groups.append((d, token))
                numbers[t] = seen[token]
    return numbers, groups


def span_numbers(spans: list[list[int]], keep: list[bool], numbers: list[int]) -> list[list[int]]:
    """Per span (its tokens), the sorted distinct numbers of the tokens ``keep`` selects."""
    return [sorted({numbers[t] for t in span if keep[t]}) for span in spans]


_PY2_INT = re.compile(r"[ \t\n\r\x0b\x0c]*[+-]?[0-9]+[ \t\n\r\x0b\x0c]*")
MAX_DIGITS, MAX_FIELD, MAX_MENTION_CHARS = 18, 4000, 1 << 20


def char_span(span: str) -> list[int] | None:
    """The characters of a character span as EvmEval lists them (``span.split(";")``, each part's first two
    ``split(",")`` fields read by Python 2's ``int()``), or None where EvmEval or fastscore's limits refuse it
    (an offset of more than ``MAX_FIELD`` characters, negative, of ``10 ** MAX_DIGITS`` or more; a mention of
    more than ``MAX_MENTION_CHARS`` characters): what ``parse_char_spans`` gives a mention (the engine's
    reading of the spans one by one before the kernel read them all)."""
    chars: list[int] = []
    for part in span.split(";"):
        bounds = part.split(",")
        if len(bounds) < 2 or any(len(x) > MAX_FIELD or not _PY2_INT.fullmatch(x) for x in bounds[:2]):
            return None
        b, e = int(bounds[0]), int(bounds[1])
        if min(b, e) < 0 or max(b, e) >= 10 ** MAX_DIGITS or len(chars) + max(e - b, 0) > MAX_MENTION_CHARS:
            return None
        chars.extend(range(b, e))
    return chars
