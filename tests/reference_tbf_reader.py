"""The TBF reader's oracle: the file read line by line with ``str`` methods, as EvmEval's
``read_docs_with_doc_id_and_name`` reads it (the reader fastscore had before its byte scan read every file).
``fastscore.formats.tbf.read_text`` must return exactly what :func:`parse` returns — the same documents,
columns, warnings and errors — for every file (tests/test_tbf_reader.py)."""
from __future__ import annotations

import os
from operator import itemgetter

from fastscore.errors import ParseError
from fastscore.formats.files import reject_other_format
from fastscore.formats.tbf import ASCII_BLANKS, BEGIN, END, MIN_FIELDS, Relation, TbfDocument, TbfFile, _Documents


def parse(path: str, text: str, allow_empty: bool = False, before: int = 0) -> TbfFile:
    """The file read line by line, as EvmEval's ``read_docs_with_doc_id_and_name`` reads it, every message
    written where its line is read.  Mention and relation lines
    are gathered until an ``#EndOfDocument``, which gives them to the id of the last ``#BeginOfDocument`` (or
    ""); lines no ``#EndOfDocument`` follows are not read.  Where that differs from the file's plain reading (a
    line outside a document, a stray or missing ``#EndOfDocument``), the reader's ``_Documents`` notes it (the
    lines are what this oracle reads its own way; what a document is made of them, the reader's one place says)."""
    docs = _Documents(path, [])  # the reader's documents, fed here line by line
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
                docs.end(lineno, len(rows), len(docs.relations))
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
            if docs.short_line is None:
                docs.short_line = lineno, len(fields)
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

