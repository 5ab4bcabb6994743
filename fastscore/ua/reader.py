"""Universal Anaphora (UA) files: documents, markables, plural sets, bridging, as the UA scorer reads them.

A UA file is CoNLL-U-like: ``# newdoc id = NAME`` starts a document, other ``#`` lines and blank lines are skipped,
every other line is a token whose whitespace-separated columns are read by position: the IDENTITY column (11th;
the DISCOURSE_DEIXIS column, 13th, when discourse deixis is scored) holds markables as brackets
``(EntityID=E|MarkableID=M|Min=3,4|ElementOf=P1,P2 ... )`` and the BRIDGING column (12th) holds
``(MarkableID=M|MentionAnchor=A)``.  Tokens are numbered per document from 0 (``Min`` is 1-based).

Read as the scorer reads (its dictionaries' rules kept): a MarkableID given twice is one markable whose last
reading wins but whose place is its first; a document name given twice keeps its first place and its last lines;
lines before the first ``# newdoc`` belong to the first document; a bridging anaphor given twice keeps its last
anchor.  What makes the scorer crash (a closing bracket with nothing open, a markable never closed, a missing
EntityID or MarkableID, a non-number Min, too few columns) is one error naming the file, line and document.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field

from ..errors import InputError, ParseError

IDENTITY, BRIDGING, DEIXIS = 10, 11, 12  # 0-based column numbers


@dataclass
class Markable:
    """One markable as read: tokens ``start..end`` (0-based, inclusive), its Min (0-based) or None."""

    start: int
    end: int
    min: tuple[int, int] | None
    entity: str
    line: int  # where it opens (for messages)

    @property
    def span(self) -> tuple[int, int]:
        return (self.start, self.end)


@dataclass
class UADocument:
    """The markables of one document of one file (markables in the order of their MarkableIDs' first
    appearance, as the scorer keeps them), its plural sets and its bridging pairs."""

    name: str
    markables: dict[str, Markable] = field(default_factory=dict)  # MarkableID -> markable
    element_of: dict[str, list[str]] = field(default_factory=dict)  # plural EntityID -> member MarkableIDs
    bridging: dict[str, str] = field(default_factory=dict)  # anaphor MarkableID -> anchor MarkableID
    skipped_bridging: list[tuple[str, str]] = field(default_factory=list)  # (anchor, anaphor) of no markable


@dataclass
class UAFile:
    path: str
    documents: dict[str, UADocument]
    warnings: list[str] = field(default_factory=list)  # what the reading found that the scorer reads silently

    @property
    def doc_names(self) -> list[str]:
        return list(self.documents)


class UASource:
    """A UA file named for scoring: read when scored (how depends on the options); its document names on
    demand (compare and sweep check them)."""

    def __init__(self, path: str):
        self.path = path
        self.warnings: list[str] = []
        self._names: list[str] | None = None

    @property
    def doc_names(self) -> list[str]:
        if self._names is None:
            self._names = list(self._read_names())
        return self._names

    def _read_names(self) -> list[str]:
        return read_ua(self.path).doc_names


_FIELD = re.compile(r"([^|=]*)=([^|]*)")


def _fields(annotation: str) -> dict[str, str]:
    """``A=1|B=2`` -> {A: 1, B: 2}; a part without ``=`` is read as the scorer reads it (its name is the part
    less its last character, its value the whole part)."""
    found = _FIELD.findall(annotation)
    if len(found) == annotation.count("|") + 1:  # every part has a '=' (one match each, split at the first)
        return dict(found)
    out = {}
    for part in annotation.split("|"):
        at = part.find("=")
        out[part[:at]] = part[at + 1:]
    return out


Row = tuple  # (token index in the document, line number, IDENTITY (or DEIXIS) cell, BRIDGING cell or "_")


@dataclass
class DocumentRows:
    """The token lines of one document that the reader parses: those with a markable or bridging cell, and the
    first line with too few columns (its number and column count), if any."""

    rows: list[Row]
    short: tuple[int, int] | None = None


def document_rows(data: bytes, column: int, with_bridging: bool) -> dict[str, DocumentRows]:
    """Document name -> its marked token lines, split as the scorer splits them: ``# newdoc`` starts a document
    (named by what follows ``# newdoc id = ``; lines before the first belong to it; a document without lines, or
    unnamed, passes its lines on to the next), other ``#`` lines and blank lines are skipped; a name given twice
    keeps its first place and its last lines.  ``data``: the file's bytes, newlines ``\\n``."""
    import numpy as np

    from ..kernels.ua_scan import LINE_NEWDOC, LINE_TOKEN, scan_ua

    bridging = BRIDGING if with_bridging else -1
    need = max(column, bridging, 1) + 1
    arr = np.frombuffer(data, dtype=np.uint8)
    kind, ss, se, nf, cs, ce, bs, be, marked = scan_ua(arr, data.count(b"\n") + 1, column, bridging)
    newdocs = np.flatnonzero(kind == LINE_NEWDOC)
    tokens = np.flatnonzero(kind == LINE_TOKEN)
    bounds = np.searchsorted(tokens, newdocs)
    parts: dict[str, tuple[int, int]] = {}  # name -> its token lines, tokens[a:b]
    name, first = None, 0
    for line, b in zip(newdocs.tolist(), bounds.tolist()):
        if name and b > first:
            parts[name] = (first, b)
            first = b
        name = data[ss[line]:se[line]].decode("utf-8")[len("# newdoc id = "):]
    if name and len(tokens) > first:
        parts[name] = (first, len(tokens))

    text = data.decode("ascii") if data.isascii() else None  # where byte offsets are character offsets

    def cells(starts, ends) -> list[str]:
        if text is not None:
            return ["_" if s < 0 else text[s:e] for s, e in zip(starts.tolist(), ends.tolist())]
        return ["_" if s < 0 else data[s:e].decode("utf-8") for s, e in zip(starts.tolist(), ends.tolist())]

    at = np.flatnonzero(marked[tokens])  # the marked token lines, by their place among the token lines
    lines = tokens[at]
    numbers = (lines + 1).tolist()
    identity = cells(cs[lines], ce[lines])
    bridging_cells = cells(bs[lines], be[lines]) if with_bridging else ["_"] * len(lines)
    short = tokens[nf[tokens] < need]
    out = {}
    for name, (a, b) in parts.items():
        i, j = np.searchsorted(at, (a, b)).tolist()
        rows = list(zip((at[i:j] - a).tolist(), numbers[i:j], identity[i:j], bridging_cells[i:j]))
        k = int(np.searchsorted(short, tokens[a]))
        shown = (int(short[k]) + 1, int(nf[short[k]])) if k < len(short) and short[k] <= tokens[b - 1] else None
        out[name] = DocumentRows(rows, shown)
    return out


def _read_document(path: str, name: str, lines: DocumentRows, column: int, with_min: bool,
                   with_bridging: bool) -> UADocument:
    doc = UADocument(name)
    starts: dict[str, int] = {}
    ends: dict[str, int] = {}
    mins: dict[str, tuple[int, int] | None] = {}
    entities: dict[str, str] = {}
    opened_at: dict[str, int] = {}
    anchors: dict[str, str] = {}
    stack: list[str] = []
    need = max(column, BRIDGING if with_bridging else 1) + 1
    if lines.short is not None:
        number, n_columns = lines.short
        conllu = " (a CoNLL-U file? score it with --format conllu)" if n_columns == 10 else ""
        raise ParseError(path, number, f"{n_columns} column(s): the UA scorer reads column {need} (IDENTITY is "
                         f"the 11th, BRIDGING the 12th, DISCOURSE_DEIXIS the 13th){conllu}", name)
    for index, number, cell, bridging_cell in lines.rows:
        if cell != "_":
            pieces = cell.split("(")
            for _ in pieces[0]:  # each character before the first '(' closes the last open markable
                if not stack:
                    raise ParseError(path, number, f"a closing bracket with no markable open in {cell!r}", name)
                ends[stack.pop()] = index
            for annotation in pieces[1:]:
                single = annotation.endswith(")")
                info = _fields(annotation[:-1] if single else annotation)
                for key in ("MarkableID", "EntityID"):
                    if key not in info:
                        raise ParseError(path, number, f"a markable without {key} in {cell!r}", name)
                markable_id, entity = info["MarkableID"], info["EntityID"]
                entities[markable_id] = entity
                starts[markable_id] = index
                opened_at[markable_id] = number
                if single:
                    ends[markable_id] = index
                else:
                    stack.append(markable_id)
                mins[markable_id] = _min_span(path, number, name, info.get("Min")) if with_min else None
                if "ElementOf" in info:
                    for plural in info["ElementOf"].split(","):
                        doc.element_of.setdefault(plural, []).append(markable_id)
        if bridging_cell != "_":
            for annotation in bridging_cell.split("(")[1:]:
                info = _fields(annotation[:-1] if annotation.endswith(")") else annotation)
                for key in ("MarkableID", "MentionAnchor"):
                    if key not in info:
                        raise ParseError(path, number, f"a bridging annotation without {key} in "
                                         f"{bridging_cell!r}", name)
                anchors[info["MarkableID"]] = info["MentionAnchor"]
    for markable_id in entities:
        if markable_id not in ends:
            raise ParseError(path, opened_at[markable_id], f"markable {markable_id!r} is never closed", name)
        m = Markable(starts[markable_id], ends[markable_id], mins[markable_id], entities[markable_id],
                     opened_at[markable_id])
        if m.min is not None and not (m.start <= m.min[0] and m.min[1] <= m.end):
            raise ParseError(path, m.line, f"markable {markable_id!r} (tokens {m.start + 1}-{m.end + 1}) has its Min "
                             f"({m.min[0] + 1}-{m.min[1] + 1}) outside it: with minimum spans the UA scorer then finds "
                             "it equal to no markable, itself included, and its numbers follow Python's dictionary "
                             "probing; fix the Min, or score without --match min", name)
        doc.markables[markable_id] = m
    for anaphor, anchor in anchors.items():
        if anaphor in doc.markables and anchor in doc.markables:
            doc.bridging[anaphor] = anchor
        else:
            doc.skipped_bridging.append((anchor, anaphor))
    return doc


def _min_span(path: str, number: int, name: str, value: str | None) -> tuple[int, int] | None:
    if value is None:
        return None
    parts = value.split(",")
    try:
        first = int(parts[0]) - 1
        last = int(parts[1]) - 1 if len(parts) == 2 else first
    except ValueError:
        raise ParseError(path, number, f"Min={value!r} is not one token number or two separated by a comma",
                         name) from None
    return (first, last)


def read_ua(path, column: int = IDENTITY, with_min: bool = False, with_bridging: bool = False) -> UAFile:
    """A UA file: its documents as the scorer splits them, each document's markables read from ``column``
    (``IDENTITY`` or ``DEIXIS``), Min spans when ``with_min``, bridging pairs when ``with_bridging``."""
    from ..formats.files import read_bytes_and_bom

    path = os.fspath(path)
    data, bom = read_bytes_and_bom(path)
    return read_ua_bytes(path, data, bom, column, with_min, with_bridging)


def read_ua_bytes(path: str, data: bytes, bom: bool = False, column: int = IDENTITY, with_min: bool = False,
                  with_bridging: bool = False) -> UAFile:
    """:func:`read_ua` of bytes already read (``path`` names them in messages; ``bom``: they started with a
    byte-order mark, removed)."""
    if bom:
        raise InputError(f"{path}: starts with a byte-order mark, which the UA scorer reads as part of the first "
                         "line (its '# newdoc' is then a token line, and the scorer crashes): remove the mark")
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise InputError(f"{path}: not UTF-8 (byte {e.start}): the UA scorer reads UTF-8 text") from None
    if b"\r" in data:  # Python's universal newlines, as the scorer reads
        data = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    docs = {name: _read_document(path, name, lines, column, with_min, with_bridging)
            for name, lines in document_rows(data, column, with_bridging).items()}
    return UAFile(path, docs, [] if docs else [_no_document(path, data)])


def _no_document(path: str, data: bytes) -> str:
    """The warning for a file of no document: the scorer reads nothing from it and prints zeros, as fastscore does
    (a file of another format, or one without ``# newdoc id = NAME``)."""
    from ..formats.files import FORMATS, sniff_format

    sniffed = sniff_format(data)
    other = f"; it looks like {FORMATS[sniffed.format]}" if sniffed and sniffed.format != "conllu" else ""
    for number, line in enumerate(data.split(b"\n"), 1):
        if line.strip() and not line.startswith(b"#"):
            return (f"{path}:{number}: a token line outside any document: the UA scorer reads documents from "
                    f"'# newdoc id = NAME' lines, and reads nothing from this file (every score 0){other}")
    return f"{path}: no document ('# newdoc id = NAME' lines): the UA scorer reads nothing from it (every score 0)"
