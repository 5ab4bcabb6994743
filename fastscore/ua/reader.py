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

import functools
import os
import re
from dataclasses import dataclass, field

from .._gc import collector_paused
from ..errors import InputError, ParseError

IDENTITY, BRIDGING, DEIXIS = 10, 11, 12  # 0-based column numbers


@dataclass(slots=True)  # slots: a side has a markable per mention, made faster so
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


class _Scan:
    """One file's lines as ``kernels/ua_scan.py`` finds them, split into documents as the scorer splits them:
    ``# newdoc`` starts a document (named by what follows ``# newdoc id = ``; lines before the first belong to it;
    a document without lines, or unnamed, passes its lines on to the next), other ``#`` lines and blank lines are
    skipped; a name given twice keeps its first place and its last lines.  Token lines are counted by their place
    among the token lines (``tokens``: their line numbers)."""

    def __init__(self, data: bytes, column: int, with_bridging: bool):
        import numpy as np

        from ..kernels.ua_scan import MARK_BRIDGING, scan_ua

        bridging = BRIDGING if with_bridging else -1
        self.data, self.with_bridging, self.need = data, with_bridging, max(column, bridging, 1) + 1
        self.arr = np.frombuffer(data, dtype=np.uint8)
        tokens, nf, cs, ce, bs, be, marks, newdocs, ns, ne = scan_ua(self.arr, column, bridging)
        self.tokens, self.cs, self.ce, self.bs, self.be = tokens, cs, ce, bs, be  # cells: per token line
        bounds = np.searchsorted(tokens, newdocs)
        self.parts: dict[str, tuple[int, int]] = {}  # name -> its token lines, tokens[a:b]
        name, first = None, 0
        for b, s, e in zip(bounds.tolist(), ns.tolist(), ne.tolist()):
            if name and b > first:
                self.parts[name] = (first, b)
                first = b
            name = data[s:e].decode("utf-8")[len("# newdoc id = "):]
        if name and len(tokens) > first:
            self.parts[name] = (first, len(tokens))
        self.at = np.flatnonzero(marks)  # the marked token lines, by their place among the token lines
        self.bridged = np.flatnonzero(marks & MARK_BRIDGING)  # those whose BRIDGING cell holds something
        short = np.flatnonzero(nf < self.need)
        self.short_lines, self.short_fields = tokens[short], nf[short]

    @functools.cached_property
    def text(self) -> str | None:
        """The file's text where byte offsets are character offsets (ASCII)."""
        return self.data.decode("ascii") if self.data.isascii() else None

    def strings(self, starts, ends) -> list[str]:
        """The text of data[s:e] for each pair (``_`` where s < 0)."""
        text, data = self.text, self.data
        if text is not None:
            return ["_" if s < 0 else text[s:e] for s, e in zip(starts.tolist(), ends.tolist())]
        return ["_" if s < 0 else data[s:e].decode("utf-8") for s, e in zip(starts.tolist(), ends.tolist())]

    def texts(self, starts, ends) -> list[str]:
        """The text of data[s:e] for each pair (none holds a newline): gathered, decoded and split at once."""
        from ..kernels.tbf_read import gather

        return gather(self.arr, starts, ends).tobytes().decode("utf-8").split("\n") if len(starts) else []

    def short_documents(self, spans) -> list[bool]:
        """For each document (tokens[a:b] for (a, b) in ``spans``) whether it has a line with too few columns."""
        import numpy as np

        if not len(self.short_lines):
            return [False] * len(spans)
        k = np.minimum(np.searchsorted(self.short_lines, self.tokens[spans[:, 0]]), len(self.short_lines) - 1)
        return ((self.short_lines[k] >= self.tokens[spans[:, 0]])
                & (self.short_lines[k] <= self.tokens[spans[:, 1] - 1])).tolist()

    def marked(self, a: int, b: int):
        """The places (among the token lines) of the marked lines of tokens[a:b]."""
        import numpy as np

        i, j = np.searchsorted(self.at, (a, b)).tolist()
        return self.at[i:j]

    def rows(self, a: int, b: int) -> list[Row]:
        """The marked lines of tokens[a:b]."""
        at = self.marked(a, b)
        cells = self.strings(self.cs[at], self.ce[at])
        bridging = self.strings(self.bs[at], self.be[at]) if self.with_bridging else ["_"] * len(at)
        return list(zip((at - a).tolist(), (self.tokens[at] + 1).tolist(), cells, bridging))

    def short(self, a: int, b: int) -> tuple[int, int] | None:
        """The first line of tokens[a:b] with too few columns (its number and column count), if any."""
        import numpy as np

        short, tokens = self.short_lines, self.tokens
        k = int(np.searchsorted(short, tokens[a]))
        if k < len(short) and short[k] <= tokens[b - 1]:
            return (int(short[k]) + 1, int(self.short_fields[k]))
        return None


def document_rows(data: bytes, column: int, with_bridging: bool) -> dict[str, DocumentRows]:
    """Document name -> its marked token lines (:class:`_Scan`).  ``data``: the file's bytes, newlines ``\\n``."""
    scan = _Scan(data, column, with_bridging)
    return {name: DocumentRows(scan.rows(a, b), scan.short(a, b)) for name, (a, b) in scan.parts.items()}


def _read_documents(path: str, data: bytes, column: int, with_min: bool, with_bridging: bool) -> dict[str, UADocument]:
    """Every document of a file: its markables read by ``kernels/ua_scan.parse_markables``, but for the documents
    the kernel leaves to :func:`_read_document` (an error to word, a Min Python reads otherwise)."""
    import numpy as np

    from ..kernels.ua_scan import parse_markables

    scan = _Scan(data, column, with_bridging)
    spans = np.array(list(scan.parts.values()), dtype=np.int64).reshape(-1, 2)
    first_row, end_row = np.searchsorted(scan.at, spans[:, 0]), np.searchsorted(scan.at, spans[:, 1])
    doc_rows = np.zeros(len(spans) + 1, dtype=np.int64)
    np.cumsum(end_row - first_row, out=doc_rows[1:])
    n_rows = np.diff(doc_rows)
    row_at = scan.at[np.arange(doc_rows[-1]) + np.repeat(first_row - doc_rows[:-1], n_rows)]
    row_index = row_at - np.repeat(spans[:, 0], n_rows)
    (bad, mk_off, id_s, id_e, start, end, ent_s, ent_e, opened, min_a, min_b, el_off, el_of, el_s,
     el_e) = parse_markables(scan.arr, scan.cs[row_at], scan.ce[row_at], scan.tokens[row_at], row_index, doc_rows,
                             with_min)
    ids, entities = scan.texts(id_s, id_e), scan.texts(ent_s, ent_e)
    mins = _mins(min_a, min_b) if with_min else [None] * len(ids)
    markables = list(map(Markable, start.tolist(), end.tolist(), mins, entities, opened.tolist()))
    outside_before = np.zeros(len(ids) + 1, dtype=np.int64)  # markables with their Min outside them, cumulated
    if with_min:
        np.cumsum((min_a >= 0) & ((min_a - 1 < start) | (min_b - 1 > end)), out=outside_before[1:])
    outside = (outside_before[mk_off[1:]] > outside_before[mk_off[:-1]]).tolist()
    plurals = scan.texts(el_s, el_e)
    short = scan.short_documents(spans)
    bridged = _BridgingCells(scan, spans) if with_bridging else None
    mk_off, el_off, el_of, bad = mk_off.tolist(), el_off.tolist(), el_of.tolist(), bad.tolist()
    docs = {}
    for d, (name, (a, b)) in enumerate(scan.parts.items()):
        if short[d] or bad[d]:
            docs[name] = _read_document(path, name, DocumentRows(scan.rows(a, b), scan.short(a, b)), column,
                                        with_min, with_bridging)
            continue
        first, last = mk_off[d], mk_off[d + 1]
        doc = docs[name] = UADocument(name, dict(zip(ids[first:last], markables[first:last])), {}, {}, [])
        for k in range(el_off[d], el_off[d + 1]):
            for plural in plurals[k].split(","):
                doc.element_of.setdefault(plural, []).append(ids[first + el_of[k]])
        anchors = bridged.anchors(path, name, d) if bridged is not None else {}
        if outside[d]:
            m = first + int(np.argmax(outside_before[first + 1:last + 1] > outside_before[first]))
            _min_outside(path, name, ids[m], markables[m])
        _link_bridging(doc, anchors)
    return docs


def _mins(min_a, min_b) -> list[tuple[int, int] | None]:
    """The Min spans (0-based) of the markables whose Mins the kernel read as ``min_a``, ``min_b`` (-1: none)."""
    import numpy as np

    mins: list = list(zip((min_a - 1).tolist(), (min_b - 1).tolist()))
    for m in np.flatnonzero(min_a < 0).tolist():
        mins[m] = None
    return mins


class _BridgingCells:
    """The BRIDGING cells that hold something, decoded at once, and where each document's lie among them."""

    def __init__(self, scan: _Scan, spans):
        import numpy as np

        at = scan.bridged
        self.cells = scan.texts(scan.bs[at], scan.be[at])
        self.numbers = (scan.tokens[at] + 1).tolist()
        self.first = np.searchsorted(at, spans[:, 0]).tolist()
        self.end = np.searchsorted(at, spans[:, 1]).tolist()

    def anchors(self, path: str, name: str, d: int) -> dict[str, str]:
        """Anaphor MarkableID -> its anchor's, from the BRIDGING cells of document ``d``."""
        anchors: dict[str, str] = {}
        for k in range(self.first[d], self.end[d]):
            _bridging_cell(path, name, self.numbers[k], self.cells[k], anchors)
        return anchors


_ONE_BRIDGING = re.compile(r"\(MarkableID=([^|(=]*)\|MentionAnchor=([^|(=]*)\)")


def _bridging_cell(path: str, name: str, number: int, bridging_cell: str, anchors: dict[str, str]) -> None:
    one = _ONE_BRIDGING.fullmatch(bridging_cell)
    if one:  # the common cell, one annotation of the two fields, read as the loop below reads it
        anchors[one[1]] = one[2]
        return
    for annotation in bridging_cell.split("(")[1:]:
        info = _fields(annotation[:-1] if annotation.endswith(")") else annotation)
        for key in ("MarkableID", "MentionAnchor"):
            if key not in info:
                raise ParseError(path, number, f"a bridging annotation without {key} in {bridging_cell!r}", name)
        anchors[info["MarkableID"]] = info["MentionAnchor"]


def _min_outside(path: str, name: str, markable_id: str, m: Markable):
    raise ParseError(path, m.line, f"markable {markable_id!r} (tokens {m.start + 1}-{m.end + 1}) has its Min "
                     f"({m.min[0] + 1}-{m.min[1] + 1}) outside it: with minimum spans the UA scorer then finds "
                     "it equal to no markable, itself included, and its numbers follow Python's dictionary "
                     "probing; fix the Min, or score without --match min", name)


def _link_bridging(doc: UADocument, anchors: dict[str, str]) -> None:
    for anaphor, anchor in anchors.items():
        if anaphor in doc.markables and anchor in doc.markables:
            doc.bridging[anaphor] = anchor
        else:
            doc.skipped_bridging.append((anchor, anaphor))


def _read_document(path: str, name: str, lines: DocumentRows, column: int, with_min: bool,
                   with_bridging: bool) -> UADocument:
    """One document read in Python: where ``kernels/ua_scan.parse_markables`` finds an error (worded here) or a
    Min that Python's int() reads and the kernel does not."""
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
            _bridging_cell(path, name, number, bridging_cell, anchors)
    for markable_id in entities:
        if markable_id not in ends:
            raise ParseError(path, opened_at[markable_id], f"markable {markable_id!r} is never closed", name)
        m = Markable(starts[markable_id], ends[markable_id], mins[markable_id], entities[markable_id],
                     opened_at[markable_id])
        if m.min is not None and not (m.start <= m.min[0] and m.min[1] <= m.end):
            _min_outside(path, name, markable_id, m)
        doc.markables[markable_id] = m
    _link_bridging(doc, anchors)
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


@collector_paused()  # many small objects, no cycles: collections would only rescan them
def read_ua_bytes(path: str, data: bytes, bom: bool = False, column: int = IDENTITY, with_min: bool = False,
                  with_bridging: bool = False) -> UAFile:
    """:func:`read_ua` of bytes already read (``path`` names them in messages; ``bom``: they started with a
    byte-order mark, removed)."""
    if bom:
        raise InputError(f"{path}: starts with a byte-order mark, which the UA scorer reads as part of the first "
                         "line (its '# newdoc' is then a token line, and the scorer crashes): remove the mark")
    try:
        if not data.isascii():  # ASCII (checked much faster) is UTF-8
            data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        raise InputError(f"{path}:{line}: not UTF-8 (byte {e.start}): the UA scorer reads UTF-8 text") from None
    if b"\r" in data:  # Python's universal newlines, as the scorer reads
        data = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    docs = _read_documents(path, data, column, with_min, with_bridging)
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
