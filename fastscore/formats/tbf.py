"""Reader for the TAC KBP event nugget format (TBF) and its token tables.

A document runs from ``#BeginOfDocument ID`` to ``#EndOfDocument``.  Mention
lines have at least 7 tab-separated fields: system, document, mention id,
span, text, type, realis (then optional confidences).  The span is a list of
token ids ``t1,t2`` (token mode) or character ranges ``b,e;b,e`` with ``e``
exclusive (character mode).  Relation lines are ``@NAME<TAB>ID<TAB>E1,E2,...``
(``@Coreference``, ``@After``, ``@Subevent``).  Blank lines are ignored.

Token tables (``DOCID.tab``) have lines ``token_id<TAB>token<TAB>begin<TAB>end``.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field, replace

from .._gc import collector_paused
from ..errors import InputNotFound, ParseError
from ..messages import shown
from .files import (BOM, GZIP_MAGIC, Part, decode_utf8, document_batches, lone_cr_hint, read_bytes,
                    read_bytes_and_bom, reject_other_format, source_bytes, source_name)

BEGIN = "#BeginOfDocument"
END = "#EndOfDocument"
MIN_FIELDS = 7
# what Python 2's str.strip() removes, as EvmEval reads the bytes: other Unicode white space (U+00A0, U+2003,
# and 0x1c-0x1f, which Python 3 strips) is part of a line, an id or a field
ASCII_BLANKS = " \t\n\r\x0b\x0c"
_ASCII_BLANK_BYTES = ASCII_BLANKS.encode()


@dataclass(slots=True)
class Mention:
    id: str
    span: str  # the raw span field
    text: str
    type: str  # raw
    realis: str  # raw
    line: int


@dataclass(slots=True)
class Relation:
    name: str
    id: str
    args: list[str]
    line: int


@dataclass
class TbfDocument:
    id: str
    line: int
    start: int = 0  # its mention rows in the file's columns: [start, end)
    end: int = 0
    relations: list[Relation] = field(default_factory=list)
    file: "TbfFile | None" = field(default=None, repr=False)
    # the first mention line with too few fields: EvmEval parses a document's lines only when it scores the
    # document, so the error is raised then (nugget/engine.prepare), not for a system-only document
    unread: ParseError | None = field(default=None, repr=False, compare=False)

    @property
    def rows(self) -> range:
        return range(self.start, self.end)

    @property
    def mentions(self) -> list[Mention]:
        """The document's mentions as objects (built on demand; the scorer reads the columns)."""
        f = self.file
        return [Mention(f.ids[r], f.spans[r], f.texts[r], f.types[r], f.realis[r], f.lines[r]) for r in self.rows]

    def coreference(self) -> list[Relation]:
        return [r for r in self.relations if r.name == "Coreference"]


@dataclass
class TbfFile:
    """A TBF file: documents by id, and the fields of every mention line as columns (file order)."""

    path: str
    system: str  # the run id (first field of the mention lines), or the file name
    documents: dict[str, TbfDocument]
    ids: list[str] = field(default_factory=list)
    spans: list[str] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)
    types: list[str] = field(default_factory=list)
    realis: list[str] = field(default_factory=list)
    lines: list[int] = field(default_factory=list)
    # the byte scan's interning of the ids, types and realis columns: (a code per row, the value of each code),
    # or None
    id_codes: tuple | None = field(default=None, repr=False, compare=False)
    type_codes: tuple | None = field(default=None, repr=False, compare=False)
    realis_codes: tuple | None = field(default=None, repr=False, compare=False)
    # lines whose edges hold Unicode white space that EvmEval keeps: (line, "blank") for a line of nothing
    # else (skipped here; EvmEval reads a mention line and stops), (line, "edge") otherwise (read as EvmEval)
    unicode_blanks: list = field(default_factory=list, repr=False, compare=False)
    bom: bool = False  # a UTF-8 byte-order mark started the file (dropped; EvmEval reads it: nugget/quirks.py)
    # structure lines read as EvmEval's read_docs_with_doc_id_and_name reads them (lines outside a document, a
    # stray or missing #EndOfDocument): (the warning, the error fastscore gives under --fix-evmeval-quirks)
    evmeval_structure: list = field(default_factory=list, repr=False, compare=False)


def concat_tbf(reads: list[TbfFile], name: str, like: TbfFile) -> TbfFile:
    """Several TBF files as one holding their documents in order (``Task.concat`` of shards); none: a file
    without documents, of ``like``'s run."""
    out = TbfFile(name, reads[0].system if reads else like.system, {})
    for read in reads:
        base = len(out.ids)
        for column in ("ids", "spans", "texts", "types", "realis", "lines"):
            getattr(out, column).extend(getattr(read, column))
        for doc_id, doc in read.documents.items():
            out.documents[doc_id] = replace(doc, start=doc.start + base, end=doc.end + base, file=out)
    out.bom = bool(reads) and reads[0].bom
    out.unicode_blanks = [b for read in reads for b in read.unicode_blanks]
    out.evmeval_structure = [b for read in reads for b in read.evmeval_structure]
    return out


def read_tbf(source: str | os.PathLike | Part, allow_empty: bool = False) -> TbfFile:
    """Read a TBF file (``-``: standard input; gzip-compressed or not), or a :class:`Part` of one (a batch
    of whole documents: messages name the file's own lines); a clear :class:`ParseError` for anything
    malformed.  ``allow_empty``: a file with nothing but white space is a file without documents (a system
    that found nothing) instead of an error."""
    if isinstance(source, Part):
        (data, name, before), bom = source_bytes(source), _part_starts_with_bom(source)
    else:  # read once: standard input and pipes cannot be read twice
        path = os.fspath(source)
        (data, bom), name, before = read_bytes_and_bom(path), source_name(path), 0
    if not data.isascii():
        decode_utf8(name, data, before)  # a ParseError naming the line of the first byte that is not UTF-8
    tbf = read_text(name, data, allow_empty, before)
    tbf.bom = bom
    return tbf


def read_text(name: str, data: bytes, allow_empty: bool = False, before: int = 0) -> TbfFile:
    """A TBF file's bytes (UTF-8) read as EvmEval's ``read_docs_with_doc_id_and_name`` reads them: the byte scan
    of kernels/tbf_read.py gives the fields of every line and, in line order, the lines that make or break the
    documents, from which :class:`_Documents` makes the documents and writes every message.  Mention and relation
    lines are gathered until an ``#EndOfDocument``, which gives them to the id of the last ``#BeginOfDocument``
    (or ""); lines no ``#EndOfDocument`` follows are not read.  ``before``: the lines of the file before ``data``
    (a batch)."""
    import numpy as np

    from ..kernels import tbf_read as scan

    with collector_paused():
        buf = np.frombuffer(data, dtype=np.uint8)
        marks = (np.frombuffer(m.encode(), dtype=np.uint8) for m in (BEGIN, END))
        (m_line, fs, fe), events, (r_line, r_bounds) = scan.scan_lines(buf, *marks)
        columns = [_column(buf, r_bounds[k], r_bounds[k + 1]) for k in (0, 2, 4)]
        relations = list(map(Relation, columns[0], columns[1], [a.split(",") for a in columns[2]],
                             (r_line + 1 + before).tolist()))
        docs = _Documents(name, relations)
        unicode_blanks = docs.read(data, events, before)
        docs.finish(len(m_line))
        if not docs.found or (not docs.names_seen and docs.first_line_outside is not None):
            return _without_documents(name, data, docs, allow_empty)
        if docs.moved:  # documents whose rows are not where the file's order puts them: each document's rows in turn
            order = _rows_in_order(docs.found)
            m_line, fs, fe = m_line[order], np.ascontiguousarray(fs[:, order]), np.ascontiguousarray(fe[:, order])
        return _file(name, data, buf, docs, (m_line + 1 + before).tolist(), fs, fe, unicode_blanks)


def _column(buf, s, e) -> list[str]:
    """The fields ``buf[s[i]:e[i]]`` as strings (one decode and one split)."""
    from ..kernels.tbf_read import gather

    return gather(buf, s, e).tobytes().decode("utf-8").split("\n") if len(s) else []


def _without_documents(path: str, data: bytes, docs: "_Documents", allow_empty: bool) -> TbfFile:
    """The file where no document was read or no ``#BeginOfDocument`` came before a mention or relation line: an
    error, or (every document left unread as EvmEval reads the file, or nothing but white space with
    ``allow_empty``) a file without documents."""
    text = data.decode("utf-8", "replace")
    if not docs.names_seen and docs.first_line_outside is not None:  # no "#BeginOfDocument" at all: not TBF
        reject_other_format(path, text, "tbf")
        raise ParseError(path, docs.first_line_outside, f'line outside a document: add a "{BEGIN} ID" line before it')
    out = TbfFile(path, os.path.basename(path), {})
    if docs.notes:
        out.evmeval_structure = docs.notes
        return out
    if allow_empty and not text.strip():
        return out
    reject_other_format(path, text, "tbf")
    raise ParseError(path, None, f'no "{BEGIN}" line: not a TBF file (or empty)')


def _rows_in_order(docs: dict[str, TbfDocument]):
    """The rows of the documents, in the documents' order (rows no document holds left out), each document's row
    range set to its place there."""
    import numpy as np

    ranges, start = [], 0
    for d in docs.values():
        ranges.append(np.arange(d.start, d.end, dtype=np.int64))
        d.start, d.end = start, start + len(ranges[-1])
        start = d.end
    return np.concatenate(ranges)


def _file(path: str, data: bytes, buf, docs: "_Documents", lines: list[int], fs, fe, unicode_blanks: list) -> TbfFile:
    """The TbfFile of the documents read and of the fields of their mention lines (``fs``, ``fe``: bounds)."""
    from ..kernels.tbf_read import intern_fields

    columns = []
    interned = {}
    for k in range(2, MIN_FIELDS):
        s, e = fs[k], fe[k]
        if k in (3, 4):  # spans and texts: mostly distinct
            columns.append(_column(buf, s, e))
        else:  # ids, types, realis: few distinct values
            codes, first = intern_fields(buf, s, e)
            distinct = [data[a:b].decode("utf-8") for a, b in zip(s[first].tolist(), e[first].tolist())]
            columns.append(values_of(distinct, codes))
            interned[k] = (codes, distinct)
    system = data[fs[0, 0]:fe[0, 0]].decode("utf-8") if len(lines) else os.path.basename(path)
    tbf = TbfFile(path, system, docs.found, *columns, lines, id_codes=interned[2], type_codes=interned[5],
                  realis_codes=interned[6], unicode_blanks=unicode_blanks, evmeval_structure=docs.notes)
    for d in docs.found.values():
        d.file = tbf
    return tbf


def _part_starts_with_bom(part: Part) -> bool:
    """Whether the batch starts the file and the file a UTF-8 byte-order mark (which the read dropped)."""
    if part.start:
        return False
    try:
        with open(part.path, "rb") as fh:
            return fh.read(len(BOM)) == BOM
    except OSError:
        return False


# where a batch of documents may start: a "#BeginOfDocument" right after an "#EndOfDocument" (blank lines between),
# so that no line EvmEval's reader gathers across documents (outside a document, a stray end) is cut from them
_BEGIN_LINE = re.compile(rb"^[ \t\f\v]*#EndOfDocument[ \t\r\f\v]*\n(?P<cut>)(?:[ \t\r\f\v]*\n)*"
                         rb"[ \t\f\v]*#BeginOfDocument", re.MULTILINE)


def tbf_batches(path: str, batch_bytes: int) -> list[Part]:
    """A large TBF file as batches of whole documents (``[]``: read it whole)."""
    return document_batches(path, _BEGIN_LINE, batch_bytes)


def values_of(distinct: list, codes) -> list:
    """``[distinct[c] for c in codes]`` (an array of codes), through an object array: no int per row."""
    import numpy as np

    table = np.empty(len(distinct), dtype=object)
    table[:] = distinct
    return table[codes].tolist()


class _Documents:
    """The documents of a TBF file as EvmEval's reader makes them, line by line (see :func:`read_text`), with a
    note wherever that reading differs from the file's plain one: (warning, error) pairs, the error being what
    fastscore says of the file read as meant (``--fix-evmeval-quirks``).  ``relations``: the file's relation
    lines of 3 fields, in file order."""

    def __init__(self, path: str, relations: list[Relation]):
        self.path = path
        self.relations = relations
        self.found: dict[str, TbfDocument] = {}
        self.notes: list[tuple[str, ParseError]] = []
        self.open: TbfDocument | None = None  # the document begun and not yet ended
        self.name = ""  # EvmEval's doc_id: the last #BeginOfDocument's id
        self.names_seen = False
        self.line = 0  # the line of that #BeginOfDocument
        self.start = 0  # the first row gathered since the last #EndOfDocument
        self.first_relation = 0  # the first relation gathered since then
        self.first_outside: int | None = None  # the first line gathered outside a document
        self.first_line_outside: int | None = None  # the file's first line outside a document
        self.short_line: tuple[int, int] | None = None  # the first mention line gathered with too few fields, and
        # its number of fields
        self.stray: set[str] = set()  # the documents a stray "#EndOfDocument" made last
        self.moved = False  # a document's rows were given again (stray #EndOfDocument) or left out

    def read(self, data: bytes, events, before: int) -> list[tuple[int, str]]:
        """Reads the lines ``kernels/tbf_read.scan_lines`` gives as events, in line order; the lines with
        Unicode white space at an edge: (line, "edge") for those read, (line, "blank") for those skipped."""
        from ..kernels import tbf_read as scan

        unicode_blanks = []
        for line, kind, s, e, n_rows, n_relations, count in events.T.tolist():
            line += before + 1
            if kind == scan.BEGIN:
                self.begin(data[s + len(BEGIN):e].strip(_ASCII_BLANK_BYTES).decode("utf-8"), line)
            elif kind == scan.END:
                self.end(line, n_rows, n_relations)
            elif kind == scan.OUTSIDE:
                self.outside(line)
            elif kind == scan.SHORT:
                if self.short_line is None:
                    self.short_line = line, count
            elif kind == scan.BAD_RELATION:
                raise ParseError(self.path, line, f"relation line needs 3 tab-separated fields (@NAME, id, mention "
                                                  f"ids), found {count}", self.current)
            else:
                unicode_blanks.append((line, "edge" if kind == scan.EDGE else "blank"))
        return unicode_blanks

    @property
    def current(self) -> str | None:
        return self.open.id if self.open is not None else None

    def note(self, line: int, warning: str, error: str, doc: str | None = None) -> None:
        self.notes.append((f"{self.path}:{line}: {warning}", ParseError(self.path, line, error, doc)))

    def begin(self, name: str, line: int) -> None:
        if self.open is not None:
            self.note(line, f'"{BEGIN}" inside document "{shown(self.open.id)}" (begun at line {self.open.line}), '
                            f'with no "{END}" between: EvmEval reads the lines of "{shown(self.open.id)}" as lines '
                            f'of "{shown(name)}" and does not score "{shown(self.open.id)}" (as here; '
                            f"{_FIX} refuses the file)",
                      f'"{BEGIN}" inside document "{shown(self.open.id)}" (begun at line {self.open.line}): add '
                      f'the missing "{END}" line', name)
        self.open = TbfDocument(name, line)
        self.name, self.line, self.names_seen = name, line, True

    def outside(self, line: int) -> None:
        if self.first_line_outside is None:
            self.first_line_outside = line
        if self.first_outside is None:
            self.first_outside = line

    def end(self, line: int, n_rows: int, n_relations: int) -> None:
        name = self.name
        if self.first_outside is not None:
            k = self.first_outside
            self.note(k, f'mention or relation line(s) outside a document (from line {k}): EvmEval reads them as '
                         f'lines of document "{shown(name)}", which the "{END}" of line {line} ends (as here; {_FIX} '
                         "refuses the file)",
                      f'line outside a document: add a "{BEGIN} ID" line before it')
        if self.open is None:
            ended = f'ends document "{shown(name)}" again' if name in self.found else \
                f'ends a document "{shown(name)}"'
            self.note(line, f'"{END}" without a matching "{BEGIN}": EvmEval {ended}, which it reads as the '
                            f"{n_rows - self.start} mention line(s) since the last \"{END}\" (as here; {_FIX} "
                            "refuses the file)",
                      f'"{END}" without a matching "{BEGIN}"')
            self.moved = self.moved or name in self.found
            self.stray.add(name)
        elif name in self.found and name not in self.stray:
            raise ParseError(self.path, self.line, f"the same document appears twice (first at line "
                                                   f"{self.found[name].line}): document ids must be unique", name)
        else:  # (a document a stray "#EndOfDocument" made before is replaced, as EvmEval replaces it)
            self.moved = self.moved or name in self.found
            self.stray.discard(name)
        unread = None
        if self.short_line is not None:
            k, n = self.short_line
            unread = ParseError(self.path, k, f"mention line has {n} tab-separated fields, needs at least {MIN_FIELDS} "
                                              "(system, document, mention id, span, text, type, realis)", name)
        self.found[name] = TbfDocument(name, self.open.line if self.open is not None else line, self.start, n_rows,
                                       self.relations[self.first_relation:n_relations], unread=unread)
        self.open, self.start, self.first_relation = None, n_rows, n_relations
        self.first_outside, self.short_line = None, None

    def finish(self, n_rows: int) -> None:
        """The file's end: what no ``#EndOfDocument`` followed is not read."""
        if self.open is not None:
            self.note(self.open.line, f'"{BEGIN}" without "{END}": EvmEval does not read document '
                                      f'"{shown(self.open.id)}" (the file ends inside it; as here, {_FIX} refuses '
                                      "the file)",
                      f'"{BEGIN}" without "{END}": the file ends inside the document' + lone_cr_hint(self.open.id),
                      self.open.id)
        elif self.first_outside is not None:
            self.note(self.first_outside, f'mention or relation line(s) after the last "{END}": EvmEval does not read '
                                          f"them (as here; {_FIX} refuses the file)",
                      f'line outside a document: add a "{BEGIN} ID" line before it')
        else:
            return
        self.moved = self.moved or n_rows > self.start


_FIX = "--fix-evmeval-quirks"


_CHAR_RANGES = re.compile(r"\d+,\d+(?:;\d+,\d+)+")  # two or more ranges: only character spans have ';'
_INT_PAIR = re.compile(r"(\d+),(\d+)")
_INTS = re.compile(r"\d+(?:,\d+)*")  # one integer or three and more: token ids, never a 'begin,end' range
_ID_LIST = re.compile(r"[^,;\s]+(?:,[^,;\s]+)*")


def _whole(digits: str) -> int | float:
    """The number ``digits`` writes; past 4,000 digits (int() refuses more than 4,300: a ValueError), inf: only
    its order against a small number matters."""
    return int(digits) if len(digits) <= 4000 else float("inf")


def span_kind(span: str) -> str:
    """What one span field looks like: ``"ranges"`` (``b,e;b,e``: character spans), ``"wide"`` (``b,e``
    with ``e - b >= 2``: a character range; as token ids, two tokens with a gap), ``"narrow"`` (``b,b+1``:
    one character, or two adjacent numeric token ids), ``"numbers"`` (one integer, three or more, or
    ``b,e`` with ``b >= e``: numeric token ids, not a character range), ``"letters"`` (ids with a letter:
    token ids), or ``"other"`` (neither: malformed)."""
    if _CHAR_RANGES.fullmatch(span):
        return "ranges"
    pair = _INT_PAIR.fullmatch(span)
    if pair is not None:
        b, e = _whole(pair[1]), _whole(pair[2])
        return "numbers" if b >= e else "narrow" if e - b == 1 else "wide"
    if _INTS.fullmatch(span):
        return "numbers"
    if _ID_LIST.fullmatch(span) and any(c.isalpha() for c in span):
        return "letters"
    return "other"


def read_token_bytes(path: str) -> bytes | None:
    """The bytes of a token table, checked to be UTF-8 text, or None when the file does not exist (as EvmEval,
    which then goes on).  ``kernels/tbf_tokens.table_lookup`` reads them as :func:`read_token_table` does."""
    try:
        data = read_bytes(path)
    except InputNotFound:
        return None
    if not data.isascii():
        decode_utf8(source_name(path), data)  # a ParseError naming the line of a byte that is not UTF-8
    return data


TABLES_BUFFER = 1 << 22  # bytes the buffer of the token tables starts with (grown as the files read tell)


def read_token_tables(paths: list[str]) -> tuple | None:
    """Every token table's bytes one after another, their offsets and whether each file exists: read into one
    buffer with a few system calls a file (for 5,000 tables, a file object and a bytes object each, then a join,
    cost more than the reading itself).  None where a table is gzip-compressed, has a byte-order mark or bytes
    outside ASCII, or cannot be read: the caller then reads each with :func:`read_token_bytes` (its messages)."""
    import numpy as np

    from .table import offsets

    buf = np.empty(TABLES_BUFFER, dtype=np.uint8)  # not zeroed: only the pages read into are touched
    used = 0
    sizes = np.full(len(paths), -1, dtype=np.int64)  # -1: no such file
    for i, path in enumerate(paths):
        start = used
        try:
            fd = os.open(path, os.O_RDONLY)
        except FileNotFoundError:
            continue
        except OSError:
            return None
        try:
            while True:
                if used == len(buf):
                    buf = _grown(buf, start, i, len(paths))
                n = os.readv(fd, [buf[used:]])
                if not n:
                    break
                used += n
        except OSError:
            return None
        finally:
            os.close(fd)
        if buf[start:min(used, start + len(BOM))].tobytes().startswith((GZIP_MAGIC, BOM)):
            return None
        sizes[i] = used - start
    data = buf[:used]
    if not _ascii(data):
        return None
    data.flags.writeable = False  # read-only, as from bytes: the type the compiled kernel takes
    return data, offsets(np.maximum(sizes, 0)), sizes >= 0


def _grown(buf, done_bytes: int, done_files: int, n_files: int):
    """A larger buffer holding ``buf`` (full): room for every file at the mean size of those read so far and a
    quarter more (one growth for tables of similar sizes), at least twice and at most 16 times as large."""
    import numpy as np

    predicted = done_bytes * n_files * 5 // (4 * done_files) if done_files else 0
    size = max(2 * len(buf), min(16 * len(buf), predicted))
    out = np.empty(size, dtype=np.uint8)
    out[:len(buf)] = buf
    return out


def _ascii(data) -> bool:
    """Whether no byte of the array has its high bit set (eight bytes at a time)."""
    import numpy as np

    n8 = len(data) // 8 * 8
    words = data[:n8].view(np.uint64)
    high = np.bitwise_or.reduce(words) if len(words) else np.uint64(0)
    return not (int(high) & 0x8080808080808080) and not (data[n8:] >= 128).any()


def join_token_tables(tables: list[bytes | None]) -> tuple:
    """What :func:`read_token_tables` gives, from each table's bytes (None: no such file)."""
    import numpy as np

    from .table import offsets

    sizes = np.array([-1 if t is None else len(t) for t in tables], dtype=np.int64)
    data = np.frombuffer(b"".join(t for t in tables if t is not None), dtype=np.uint8)
    return data, offsets(np.maximum(sizes, 0)), sizes >= 0


def read_token_table(path: str) -> dict[str, list[str]] | None:
    """token id -> the words of its lines (scorer_v1.7.1's ``read_token_ids`` makes an id invisible when any of
    them is), or None when the file does not exist (as EvmEval, which then goes on).  Lines end at "\\n" and
    lose their trailing ASCII white space only (Python 2 reads bytes)."""
    data = read_token_bytes(path)
    if data is None:
        return None
    tokens: dict[str, list[str]] = {}
    for raw in data.decode("utf-8").split("\n"):
        fields = raw.rstrip(ASCII_BLANKS).split("\t")
        if len(fields) < 4:
            continue  # EvmEval skips such lines (with a log message)
        tokens.setdefault(fields[0], []).append(fields[1])
    return tokens
