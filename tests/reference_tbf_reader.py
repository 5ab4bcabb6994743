"""The TBF reader's oracle: the file read line by line with ``str`` methods, as EvmEval's
``read_docs_with_doc_id_and_name`` reads it (the reader fastscore had before its byte scan read every file).
``fastscore.formats.tbf.read_text`` must return exactly what :func:`parse` returns — the same documents,
columns, warnings and errors — for every file (tests/test_tbf_reader.py)."""
from __future__ import annotations

import os
from operator import itemgetter

from fastscore.errors import ParseError
from fastscore.formats.files import lone_cr_hint, reject_other_format
from fastscore.formats.tbf import ASCII_BLANKS, BEGIN, END, MIN_FIELDS, Relation, TbfDocument, TbfFile
from fastscore.messages import shown


def parse(path: str, text: str, allow_empty: bool = False, before: int = 0) -> TbfFile:
    """The file read line by line, as EvmEval's ``read_docs_with_doc_id_and_name`` reads it, every message
    written where its line is read.  Mention and relation lines
    are gathered until an ``#EndOfDocument``, which gives them to the id of the last ``#BeginOfDocument`` (or
    ""); lines no ``#EndOfDocument`` follows are not read.  Where that differs from the file's plain reading (a
    line outside a document, a stray or missing ``#EndOfDocument``), :class:`_Documents` notes it."""
    docs = _Documents(path)
    rows: list[list[str]] = []
    lines: list[int] = []
    unicode_blanks = []
    for lineno, raw in enumerate(text.split("\n"), before + 1):
        line = raw.strip(ASCII_BLANKS)
        if not line:
            continue
        if not ("!" <= line[0] <= "~" and "!" <= line[-1] <= "~") and line != line.strip():
            unicode_blanks.append((lineno, "edge" if line.strip() else "blank"))
            if not line.strip():
                continue
        first = line[0]
        if first == "#":
            if line.startswith(BEGIN):
                docs.begin(line[len(BEGIN):].strip(ASCII_BLANKS), lineno)
            elif line.startswith(END):
                docs.end(lineno, len(rows))
            continue  # other '#' lines are comments
        if docs.open is None:
            docs.outside(lineno)
        if first == "@":
            parts = line[1:].strip(ASCII_BLANKS).split("\t")
            if len(parts) != 3:
                raise ParseError(path, lineno, f"relation line needs 3 tab-separated fields "
                                               f"(@NAME, id, mention ids), found {len(parts)}", docs.current)
            args = parts[2].split(",")  # an empty id ("E1,E2,") names no mention: ignored, warned, as EvmEval does
            docs.relations.append(Relation(parts[0], parts[1], args, lineno))
            continue
        fields = line.split("\t")
        if len(fields) < MIN_FIELDS:
            docs.short(lineno, len(fields))
            continue
        rows.append(fields)
        lines.append(lineno)
    docs.finish(len(rows))
    if not docs.names_seen and docs.first_line_outside is not None:  # no "#BeginOfDocument" at all: not TBF
        reject_other_format(path, text, "tbf")
        raise ParseError(path, docs.first_line_outside, f'line outside a document: add a "{BEGIN} ID" line before it')
    if not docs.found:
        if docs.notes:  # every document left unread as EvmEval reads the file: a file without documents
            out = TbfFile(path, os.path.basename(path), {})
            out.evmeval_structure = docs.notes
            return out
        if allow_empty and not text.strip():
            return TbfFile(path, os.path.basename(path), {})
        reject_other_format(path, text, "tbf")
        raise ParseError(path, None, f'no "{BEGIN}" line: not a TBF file (or empty)')
    found = docs.found
    if docs.moved:  # documents whose rows are not where the file's order puts them: each document's rows in turn
        rows, lines = _rows_in_order(found, rows, lines)
    ids, spans, texts, types, realis = (list(map(itemgetter(k), rows)) for k in range(2, MIN_FIELDS))
    tbf = TbfFile(path, rows[0][0] if rows else os.path.basename(path), found, ids, spans, texts, types, realis,
                  lines, unicode_blanks=unicode_blanks)
    tbf.evmeval_structure = docs.notes
    for d in found.values():
        d.file = tbf
    return tbf


def _rows_in_order(docs: dict[str, TbfDocument], rows: list, lines: list) -> tuple[list, list]:
    """The rows of the documents, in the documents' order, each document's row range set (rows no document holds
    left out)."""
    out_rows, out_lines = [], []
    for d in docs.values():
        start = len(out_rows)
        out_rows += rows[d.start:d.end]
        out_lines += lines[d.start:d.end]
        d.start, d.end = start, len(out_rows)
    return out_rows, out_lines


class _Documents:
    """The documents of a TBF file as EvmEval's reader makes them, line by line (see :func:`_parse`), with a note
    wherever that reading differs from the file's plain one: (warning, error) pairs, the error being what
    fastscore says of the file read as meant (``--fix-evmeval-quirks``)."""

    def __init__(self, path: str):
        self.path = path
        self.found: dict[str, TbfDocument] = {}
        self.notes: list[tuple[str, ParseError]] = []
        self.open: TbfDocument | None = None  # the document begun and not yet ended
        self.name = ""  # EvmEval's doc_id: the last #BeginOfDocument's id
        self.names_seen = False
        self.line = 0  # the line of that #BeginOfDocument
        self.start = 0  # the first row gathered since the last #EndOfDocument
        self.relations: list[Relation] = []
        self.first_outside: int | None = None  # the first line gathered outside a document
        self.first_line_outside: int | None = None  # the file's first line outside a document
        self.short_line: tuple[int, int] | None = None  # the first mention line gathered with too few fields, and
        # its number of fields
        self.stray: set[str] = set()  # the documents a stray "#EndOfDocument" made last
        self.moved = False  # a document's rows were given again (stray #EndOfDocument) or left out

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

    def short(self, line: int, n_fields: int) -> None:
        if self.short_line is None:
            self.short_line = line, n_fields

    def end(self, line: int, n_rows: int) -> None:
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
                                       self.relations, unread=unread)
        self.open, self.start, self.relations = None, n_rows, []
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
