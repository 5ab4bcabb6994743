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
            self._names = read_ua(self.path).doc_names
        return self._names


def _fields(annotation: str) -> dict[str, str]:
    """``A=1|B=2`` -> {A: 1, B: 2}; a part without ``=`` is read as the scorer reads it (its name is the part
    less its last character, its value the whole part)."""
    out = {}
    for part in annotation.split("|"):
        at = part.find("=")
        out[part[:at]] = part[at + 1:]
    return out


def _document_lines(path: str, text: str) -> dict[str, list[tuple[int, str]]]:
    """Document name -> its token lines (line number, stripped text), split as the scorer splits them."""
    stripped = [line.strip() for line in text.split("\n")]
    starts = [i for i, line in enumerate(stripped) if line.startswith("# newdoc")]
    docs: dict[str, list[tuple[int, str]]] = {}
    lines: list[tuple[int, str]] = []
    name = None
    for a, b in zip([-1, *starts], [*starts, len(stripped)]):
        if a >= 0:
            if name and lines:
                docs[name] = lines
                lines = []
            name = stripped[a][len("# newdoc id = "):]
        lines += [(n, line) for n, line in enumerate(stripped[a + 1:b], a + 2) if line and line[0] != "#"]
    if name and lines:
        docs[name] = lines
    return docs


def _read_document(path: str, name: str, lines: list[tuple[int, str]], column: int, with_min: bool,
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
    rows = [line.split(None, need) for _, line in lines]  # the columns read, and the rest
    short = next((i for i, r in enumerate(rows) if len(r) < need), None)
    if short is not None:
        raise ParseError(path, lines[short][0], f"{len(lines[short][1].split())} column(s): the UA scorer reads "
                         f"column {need} (IDENTITY is the 11th, BRIDGING the 12th, DISCOURSE_DEIXIS the 13th)", name)
    marked = [i for i, r in enumerate(rows) if r[column] != "_" or (with_bridging and r[BRIDGING] != "_")]
    for index in marked:
        number, columns = lines[index][0], rows[index]
        cell = columns[column]
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
        if with_bridging and columns[BRIDGING] != "_":
            for annotation in columns[BRIDGING].split("(")[1:]:
                info = _fields(annotation[:-1] if annotation.endswith(")") else annotation)
                for key in ("MarkableID", "MentionAnchor"):
                    if key not in info:
                        raise ParseError(path, number, f"a bridging annotation without {key} in "
                                         f"{columns[BRIDGING]!r}", name)
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
    if bom:
        raise InputError(f"{path}: starts with a byte-order mark, which the UA scorer reads as part of the first "
                         "line (its '# newdoc' is then a token line, and the scorer crashes): remove the mark")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise InputError(f"{path}: not UTF-8 (byte {e.start}): the UA scorer reads UTF-8 text") from None
    text = text.replace("\r\n", "\n").replace("\r", "\n")  # Python's universal newlines, as the scorer reads
    docs = {name: _read_document(path, name, lines, column, with_min, with_bridging)
            for name, lines in _document_lines(path, text).items()}
    return UAFile(path, docs)
