"""Reader for CoNLL-2011/2012 coreference files.

Documents run from ``#begin document NAME`` to ``#end document``; the name
is the text after ``begin document `` (part included), as the reference
scorer v8.01 sees it.  Token lines carry the coreference column last:
``-`` or ``_`` for none, else bracket items ``(3``, ``3)``, ``(3)``,
separated by ``|`` or written back to back.  Labels are digits (``07`` and
``7`` are different clusters) or typed labels ``TYPE-ID[-EXTRA]`` (GUM),
whose cluster is ``ID``.

Within one token the items are applied in v8.01's order: one-token
mentions, then openings, then closings; a closing pairs with the last
opening of the same cluster.  Deviations from v8.01, where v8.01 silently
mis-reads the file, are documented in docs/formats.md.

The bytes are scanned by numba kernels (``kernels/conll_scan.py``); Python
handles the ``#`` lines, labels that are not plain digits, and the messages.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass

import numpy as np

from ..errors import ParseError
from ..messages import shown
from ..outputs import writable
from .files import (BOM, Part, decode_utf8, document_batches, lone_cr_hint, read_bytes, read_bytes_and_bom,
                    reject_other_format, source_bytes, source_name)
from .table import MentionTable, offsets

_BEGIN = re.compile(r"#\s*begin document(?: (.*))?$")
_BEGIN_LINE = re.compile(rb"^#[ \t\f\v]*begin document", re.MULTILINE)  # where a batch of documents may start
_END = re.compile(r"#\s*end document")
_V801_BEGIN = re.compile(r"#\s*begin document (.*)$")  # v8.01's test (GetFileNames), matched after the mark
_BEGIN_LIKE = re.compile(rb"^[ \t\x0b\x0c]*#[ \t\x0b\x0c]*begin[ \t\x0b\x0c]+document", re.MULTILINE | re.IGNORECASE)
_V801_END = re.compile(rb"#[ \t\r\x0b\x0c]*end document")  # v8.01's end test, anywhere in a line
# a token line whose last non-empty TAB field is whitespace (v8.01's ``\s``, a CR included)
_BLANK_LAST_FIELD = re.compile(rb"\t[ \r\x0b\x0c]+\t*$", re.MULTILINE)
_LABEL = re.compile(r"(?:[^\W\d][\w.]*-)?(\d+)(?:-.*)?", re.ASCII | re.DOTALL)


def read_conll(path: str | os.PathLike | Part, defer_bracket_errors: bool = False,
               fix_scorer_quirks: bool = False) -> MentionTable:
    """Read a CoNLL-2011/2012 file (or a :class:`~fastscore.formats.files.Part` of one: a batch of its
    documents) into a :class:`MentionTable`.

    Raises :class:`~fastscore.errors.ParseError` naming the file, line and
    document for anything the format does not allow.  ``-`` reads standard
    input; gzip-compressed files are read as they are.  ``defer_bracket_errors``: a document whose
    brackets do not balance is read without mentions and its error kept in ``unread`` (for scoring,
    which refuses it only when the document is scored, as v8.01 does).  Where v8.01 misreads the file (a
    byte-order mark before the first ``#begin document``, whitespace after the last TAB of a token line), the
    file is read as v8.01 reads it, with a warning in ``warnings``; ``fix_scorer_quirks``: as it was meant.
    """
    data, name, first_line, bom = _source_bytes_and_bom(path)
    decode_utf8(name, data, first_line)  # the kernels read bytes; the text must be UTF-8 all the same
    reader = _Reader(name, data, first_line)
    if not fix_scorer_quirks:
        reader.read_as_v801(bom)
    return reader.table(defer_bracket_errors)


def _source_bytes_and_bom(source: str | os.PathLike | Part) -> tuple[bytes, str, int, bool]:
    """:func:`~fastscore.formats.files.source_bytes`, and whether a byte-order mark was dropped from the bytes
    (read once: a pipe too)."""
    if isinstance(source, Part):  # a batch of a regular file: its first bytes can be looked at again
        data, name, first_line = source_bytes(source)
        with open(source.path, "rb") as fh:
            return data, name, first_line, source.start == 0 and fh.read(len(BOM)) == BOM
    path = os.fspath(source)
    data, bom = read_bytes_and_bom(path)
    return data, source_name(path), 0, bom


def conll_batches(path: str, batch_bytes: int) -> list[Part]:
    """A large CoNLL-2012 file as batches of whole documents (``[]``: read it whole)."""
    return document_batches(path, _BEGIN_LINE, batch_bytes)


@dataclass
class TokenColumns:
    """The token lines of a CoNLL-2012 file as columns (for MINA: words, parts of speech, parse bits).

    Tokens are numbered across the file in file order; ``doc_offsets`` delimit each document's.  Fields
    are split at whitespace (as coval splits them); ``field_start``/``field_end`` hold the byte bounds of
    the first ``FIELDS`` fields in ``buf``, ``n_fields`` each line's count.  ``sentence`` numbers the
    sentences inside each document (a blank line after a token ends one); ``position`` is the token's
    place in its sentence.  ``completion`` is each mention's place (rows of the mention table) in the
    order mentions are completed inside their document."""

    path: str
    buf: np.ndarray
    line: np.ndarray  # 0-based file line of each token
    doc_offsets: np.ndarray
    sentence: np.ndarray
    position: np.ndarray
    field_start: np.ndarray  # (n_tokens, FIELDS)
    field_end: np.ndarray
    n_fields: np.ndarray
    completion: np.ndarray
    line_start: np.ndarray | None = None  # byte bounds of each token's line in ``buf`` (read without fields:
    line_end: np.ndarray | None = None  # a field of a few tokens is then split from its line)

    FIELDS = 6  # document, part, number, word, part of speech, parse bit

    def field(self, token: int, k: int) -> str:
        return bytes(self.buf[self.field_start[token, k]:self.field_end[token, k]]).decode("utf-8")


def read_conll_columns(path: str | os.PathLike, data: bytes | None = None,
                       fields: bool = True) -> tuple[MentionTable, TokenColumns]:
    """:func:`read_conll`, and the token columns beside the mention table.  ``data``: the text's bytes, already
    in memory (``path`` then only names it in messages); ``fields=False``: no field bounds (none of
    ``FIELDS`` columns: what scoring without minimum spans or NP_only reads)."""
    path = os.fspath(path)
    name = path if data is not None else source_name(path)
    data = read_bytes(path) if data is None else data
    decode_utf8(name, data)
    reader = _Reader(name, data)
    return reader.table(), reader.token_columns(fields)


# v8.01 reads bytes: its \d is 0-9 only (re.ASCII)
_V801_PATTERNS = ((re.compile(r"\((\d+\+\d)\)", re.A), "discard"), (re.compile(r"\((\d+)\)", re.A), "single"),
                  (re.compile(r"\((\d+)", re.A), "open"), (re.compile(r"(\d+)\)", re.A), "close"))


class _ReadByV801(Exception):
    """Coreference columns fastscore's reading refuses, to be read by v8.01's regexes instead."""

    def __init__(self, lines: list[int]):
        self.lines = lines


# a column the bracket kernel reads (its labels checked after): items "(L)", "(L", "L)" and "|"
_KERNEL_READS = re.compile(rb"(?:\||\([^()|]+\)?|[^()|]+\))*")


def v801_column_items(column: str) -> tuple[list[tuple[str, str]], list[str]]:
    """A coreference column read as v8.01 reads it: split antecedents ``(N+D)`` removed, then one-token
    mentions, openings and closings, each pattern searched from the start again after every removal.
    Returns the items ``(single|open|close, label)`` and the discarded split antecedents."""
    items, discarded = [], []
    for pattern, what in _V801_PATTERNS:
        while (m := pattern.search(column)) is not None:
            column = column[:m.start()] + column[m.end():]
            if what == "discard":
                discarded.append(m.group(1))
            else:
                items.append((what, m.group(1)))
    return items, discarded


def _cluster_key(label: str) -> str | None:
    """The cluster a label names; None for v8.01's discarded split antecedents ``(1+2)``."""
    if label.isdigit() and label.isascii():
        return label
    if "+" in label:
        return None
    m = _LABEL.fullmatch(label)
    if m is None:
        raise ValueError(f"unrecognised cluster label {label!r} (expected digits or TYPE-ID)")
    return m.group(1)


class _Reader:
    def __init__(self, path: str, data: bytes, first_line: int = 0):
        from ..kernels import conll_scan as scan

        self.scan = scan
        self.path = path
        self.first_line = first_line  # lines of the file before ``data`` (a batch of a large file)
        self.data = data
        self.buf = np.frombuffer(data, dtype=np.uint8)
        newlines = np.flatnonzero(self.buf == 10)
        self.starts = np.concatenate([[0], newlines + 1]).astype(np.int64)
        self.ends = np.concatenate([newlines, [len(self.buf)]]).astype(np.int64)
        self.kind, self.col_s, self.col_e = scan.classify_lines(self.buf, self.starts, self.ends)
        self.warnings: list[str] = []  # where the file is read as v8.01 misreads it (read_as_v801)
        self.items_hidden: list[int] = []  # lines whose items v8.01 does not read
        self.v801_ends: set[int] = set()  # lines that end a document for v8.01 only
        self.documents_hidden = 0  # documents v8.01 does not see
        self.v801 = False  # read as v8.01 reads (read_as_v801)
        self.read_by_v801: list[int] = []  # lines whose column only v8.01's regexes read
        self.comments_counted: list[int] = []  # '#' lines inside a document v8.01 reads as token lines

    def read_as_v801(self, bom: bool) -> None:
        """The lines as v8.01's ``GetFileNames``/``GetCoreference`` read them, where that differs from the file's
        intended reading, each kind with one warning (``--fix-scorer-quirks`` reads the file as written)."""
        self.v801 = True
        self.directive_lines = np.flatnonzero(self.kind == self.scan.DIRECTIVE)
        self._hide_unseen_documents(bom)
        self._end_where_v801_ends()
        self._count_comments_as_tokens()
        self._hide_items_after_blank_field()

    def _lines_matching(self, pattern: "re.Pattern[bytes]") -> list[int]:
        starts = [m.start() for m in pattern.finditer(self.data)]
        return (np.searchsorted(self.starts, starts, side="right") - 1).tolist() if starts else []

    def _directives(self, k: int, forward: bool):
        """The ``#`` lines after line ``k`` (``forward``) or before it, nearest first (from the lines found once)."""
        at = int(np.searchsorted(self.directive_lines, k, side="right" if forward else "left"))
        lines = self.directive_lines[at:] if forward else self.directive_lines[:at][::-1]
        return (j for j in lines.tolist() if self.kind[j] == self.scan.DIRECTIVE)

    def _next_end(self, k: int) -> int | None:
        """The first ``#end document`` line after line ``k``, if no ``#begin document`` comes before it."""
        for j in self._directives(k, True):
            text = self.text(j)
            if _END.match(text):
                return j
            if _BEGIN_LIKE.match(text.encode()):  # (any start, so each search stops at the next document)
                return None
        return None

    def _inside_document(self, k: int) -> bool:
        """Whether a ``#begin document`` comes before line ``k`` with no ``#end document`` between."""
        for j in self._directives(k, False):
            text = self.text(j)
            if _END.match(text) or j in self.v801_ends:
                return False
            if _BEGIN.match(text):
                return True
        return False

    def _first_of(self, lines: list[int], unit: str = "") -> tuple[str, str]:
        """``path:line`` of the first of ``lines`` (indexes of this file's lines), and `` (and N more UNIT)``
        where there are more."""
        more = f" (and {len(lines) - 1} more{unit})" if len(lines) > 1 else ""
        return f"{self.path}:{lines[0] + 1 + self.first_line}", more

    def _hide_unseen_documents(self, bom: bool) -> None:
        """v8.01 starts a document only at a line its ``/^\\#\\s*begin document (.*?)$/`` matches: not after a
        byte-order mark, nor ``#begin document`` without a name, ``  #begin``, ``#begin  document``, ``#BEGIN``.
        It reads no line up to the next start, so such a document is not in the file for it."""
        hidden = []
        for k in self._lines_matching(_BEGIN_LIKE):
            text = self.text(k)
            if _V801_BEGIN.match(text) is not None and not (k == 0 and bom):
                continue
            end = self._next_end(k)
            if end is not None:
                self.kind[k:end + 1] = self.scan.BLANK
                hidden.append(k)
        self.documents_hidden = len(hidden)
        if hidden:
            where, more = self._first_of(hidden)
            why = "a byte-order mark before " if hidden[0] == 0 and bom else ""
            self.warnings.append(
                f'{where}: {why}"{shown(self.text(hidden[0]))}"{more} does not start a document '
                "for v8.01 (its test is /^#\\s*begin document (.*?)$/), so it leaves the document out of this file, "
                "and so does fastscore (--fix-scorer-quirks reads the file as written)")

    def _end_where_v801_ends(self) -> None:
        """v8.01's end test ``/\\#\\s*end document/`` is not anchored: ``  #end document``, or a token line whose
        last field holds ``#end document``, ends the document; the lines up to the written end are not read."""
        early = []
        for k in self._lines_matching(_V801_END):
            if self.kind[k] == self.scan.BLANK or _END.match(self.text(k)):
                continue
            end = self._next_end(k)
            if end is None and not self._inside_document(k):
                continue  # a written end follows no begin: refused as written
            self.kind[k] = self.scan.DIRECTIVE
            if end is not None:
                self.kind[k + 1:end + 1] = self.scan.BLANK
            self.v801_ends.add(k)
            early.append(k)
        if early:
            where, more = self._first_of(early)
            self.warnings.append(
                f'{where}: "{shown(self.text(early[0]))}"{more} ends the document for v8.01 (its '
                "test /\\#\\s*end document/ is not anchored), so the lines up to the next \"#end document\" are not read, "
                "by v8.01 nor by fastscore (--fix-scorer-quirks reads the file as written)")

    def _count_comments_as_tokens(self) -> None:
        """v8.01 reads every non-empty line of a document up to its end as a token line: a ``#`` comment inside a
        document is a token for it (the tokens after it one further on), its last TAB field read as a coreference
        column."""
        counted, inside = [], False
        for k in np.flatnonzero(self.kind == self.scan.DIRECTIVE).tolist():
            text = self.text(k)
            if _BEGIN.match(text):
                inside = True
            elif _END.match(text) or k in self.v801_ends:
                inside = False
            elif inside:
                counted.append(k)
        if not counted:
            return
        for k in counted:
            raw = self.data[self.starts[k]:self.ends[k]].rstrip(b"\t")  # (split(/\t/) drops empty last fields)
            column = raw.split(b"\t")[-1]
            self.col_e[k] = self.starts[k] + len(raw)
            self.col_s[k] = self.col_e[k] - len(column)
            self.kind[k] = self.scan.TOKEN_BRACKETS if re.search(rb"[()]", column) else self.scan.TOKEN
        self.comments_counted = counted
        where, more = self._first_of(counted)
        self.warnings.append(
            f'{where}: "{shown(self.text(counted[0]))}"{more} inside a document '
            "is a token line for v8.01 (it reads every line up to the end as one), so the tokens after it are one "
            "further on, for v8.01 and for fastscore (--fix-scorer-quirks reads it as a comment)")

    def _hide_items_after_blank_field(self) -> None:
        """v8.01 takes the last non-empty TAB field as the coreference column (``split(/\\t/)`` drops trailing
        empty fields): where that field is whitespace (``\\t `` at the end of a line, or ``\\t\\r`` in a CRLF file),
        the line's items are not read."""
        lost = [k for k in self._lines_matching(_BLANK_LAST_FIELD) if self.kind[k] == self.scan.TOKEN_BRACKETS]
        if not lost:
            return
        self.kind[lost] = self.scan.TOKEN
        self.items_hidden = lost
        where, more = self._first_of(lost, " line(s)")
        self.warnings.append(
            f"{where}: whitespace after the last TAB{more}: v8.01 reads it as the "
            f'coreference column, so the items "{shown(self.column(lost[0]))}" are not read, by v8.01 nor by fastscore '
            "(--fix-scorer-quirks reads them)")

    def _hidden_hint(self, d: int) -> str:
        """Why a document's brackets do not balance where v8.01 does not read some of its items."""
        end = self.doc_ends[d] if d < len(self.doc_ends) else len(self.kind)
        hidden = [k for k in self.items_hidden if self.begins[d] < k < end]
        if not hidden:
            return ""
        return (f" (v8.01 stops on this document too: it does not read the items of line "
                f"{hidden[0] + 1 + self.first_line}, whose last TAB field is whitespace; --fix-scorer-quirks reads them)")

    def text(self, line: int) -> str:
        return self.data[self.starts[line]:self.ends[line]].decode("utf-8").rstrip("\r")

    def column(self, line: int) -> str:
        return self.data[self.col_s[line]:self.col_e[line]].decode("utf-8")

    def fail(self, line: int | None, problem: str, doc: int | None = None):
        name = None if doc is None else self.names[doc]
        raise ParseError(self.path, None if line is None else int(line) + 1 + self.first_line, problem, name)

    def documents(self) -> None:
        """Names and line ranges of the documents, from the '#' lines."""
        self.names: list[str] = []
        begins: list[int] = []
        ends: list[int] = []
        seen: dict[str, int] = {}
        open_doc = None
        for line in np.flatnonzero(self.kind == self.scan.DIRECTIVE).tolist():
            text = self.text(line)
            m = _BEGIN.match(text)
            if m is not None:
                name = m.group(1) or ""
                if open_doc is not None:
                    self.names.append(name)
                    self.fail(line, f'"#begin document" inside document "{shown(self.names[open_doc])}" (begun at '
                                    f'line {begins[open_doc] + 1 + self.first_line}): add the missing "#end document" line',
                              len(self.names) - 1)
                if name in seen:
                    self.names.append(name)
                    self.fail(line, f"the same document appears twice (first at line {seen[name]}): "
                                    "document names must be unique in a file", len(self.names) - 1)
                seen[name] = line + 1 + self.first_line
                open_doc = len(self.names)
                self.names.append(name)
                begins.append(line)
            elif _END.match(text) or line in self.v801_ends:
                if open_doc is None:
                    self.fail(line, '"#end document" without a matching "#begin document"')
                ends.append(line)
                open_doc = None
        if open_doc is not None and self.v801:  # v8.01 reads the last document to the end of the file
            ends.append(len(self.kind) - 1)
            self.warnings.append(
                f'{self.path}:{begins[open_doc] + 1 + self.first_line}: document "{shown(self.names[open_doc])}" has no '
                '"#end document": v8.01 reads it to the end of the file, and so does fastscore (--fix-scorer-quirks '
                "refuses the file)")
        elif open_doc is not None:
            self.fail(begins[open_doc], '"#begin document" without "#end document": the file ends inside the '
                                        "document" + lone_cr_hint(self.names[open_doc]), open_doc)
        self.begins = np.asarray(begins, dtype=np.int64)
        self.doc_ends = np.asarray(ends, dtype=np.int64)

    def tokens(self) -> None:
        """Token index of every line inside its document; reject token lines outside documents."""
        is_token = self.kind >= self.scan.TOKEN
        lines = np.flatnonzero(is_token)
        doc = np.searchsorted(self.begins, lines) - 1
        outside = doc < 0
        if len(self.begins):
            outside |= lines > self.doc_ends[np.maximum(doc, 0)]
        if outside.any():
            reject_other_format(self.path, self.data, "conll")
            self.fail(lines[np.argmax(outside)],
                      'token line outside a document: add a "#begin document NAME" line before it')
        if not self.names and not self.documents_hidden:  # (every document hidden as v8.01 misses it: none)
            reject_other_format(self.path, self.data, "conll")
            self.fail(None, 'no "#begin document" line: not a CoNLL coreference file (or empty)')
        self.token_lines, self.token_doc = lines, doc  # (token_columns reads them again)
        self.token_count = np.cumsum(is_token)  # token lines up to and including each line
        self.doc_tokens = self.token_count[self.doc_ends] - self.token_count[self.begins]

    def token_index(self, lines: np.ndarray) -> np.ndarray:
        """Index of each (token) line among its document's tokens."""
        begin = self.begins[np.searchsorted(self.begins, lines) - 1]
        return self.token_count[lines] - self.token_count[begin] - 1

    def items(self):
        """Bracket items with resolved cluster codes (split antecedents dropped).  Reading as v8.01
        (:meth:`read_as_v801`), a column fastscore's reading refuses (``(-1)``, ``e1)``, ``(x1``, ``(2) |(1)``,
        digits of other scripts) is read by v8.01's regexes instead, with one warning."""
        while True:
            try:
                found = self._read_items()
            except _ReadByV801 as exc:
                self.read_by_v801 = sorted(set(self.read_by_v801) | set(exc.lines))
                continue
            if self.read_by_v801:
                k = self.read_by_v801[0]
                where, more = self._first_of(self.read_by_v801, " line(s)")
                items = [f"{'(' if w != 'close' else ''}{x}{')' if w != 'open' else ''}"
                         for w, x in v801_column_items(self.column(k))[0]]
                self.warnings.append(
                    f'{where}: the coreference column "{shown(self.column(k))}"{more}'
                    f" is read by v8.01's regexes as "
                    f"{' '.join(items) or 'no item'}, and so by fastscore (--fix-scorer-quirks refuses it)")
            return found

    def _kernel_refused(self, lines: np.ndarray) -> list[int]:
        """The lines whose column the bracket kernel refuses (one pass: the kernel stops at the first)."""
        return [k for k in lines.tolist() if _KERNEL_READS.fullmatch(self.data, self.col_s[k], self.col_e[k]) is None]

    def _read_items(self):
        scan = self.scan
        lines = np.flatnonzero(self.kind == scan.TOKEN_BRACKETS)
        self.label_of_code: dict[int, str] = {}
        self.long_codes: dict[str, int] = {}
        self.discarded: dict[str, list[str]] = {}
        substituted = self._substituted_lines(lines)
        if len(substituted):
            lines = np.setdiff1d(lines, substituted)
        line, kind, ls, le, code, err, at = scan.bracket_items(self.buf, lines, self.col_s, self.col_e)
        if err:
            if self.v801:
                raise _ReadByV801(self._kernel_refused(lines) or [int(lines[at])])
            bad = lines[at]
            problem = "empty cluster label" if err == scan.ERR_EMPTY_LABEL else "unexpected text"
            self.fail(bad, f"bad coreference column {self.column(bad)!r}: {problem}", self._doc_of(bad))
        if len(substituted):
            line, kind, ls, le, code = self._with_substituted(substituted, line, kind, ls, le, code)
        unresolved = np.flatnonzero(code < 0)
        if len(unresolved):
            keep = np.ones(len(code), dtype=bool)
            cache: dict[bytes, str | None] = {}
            refused: list[int] = []  # (reading as v8.01: every line whose label fastscore refuses, at once)
            for t in unresolved.tolist():
                raw = self.data[ls[t]:le[t]]
                if raw not in cache:
                    try:
                        cache[raw] = _cluster_key(raw.decode("utf-8"))
                    except ValueError as exc:
                        if not self.v801:
                            self.fail(line[t], f"bad coreference column {self.column(line[t])!r}: {exc}",
                                      self._doc_of(line[t]))
                        refused.append(int(line[t]))
                        continue
                if refused:
                    continue
                key = cache[raw]
                if key is None:
                    if kind[t] != scan.SINGLE:
                        self.fail(line[t], f"split-antecedent label {raw.decode()!r} must be a one-token "
                                           "mention", self._doc_of(line[t]))
                    keep[t] = False
                    self.discarded.setdefault(self.names[self._doc_of(line[t])], []).append(raw.decode())
                    continue
                code[t] = self._key_code(key)
            if refused:
                raise _ReadByV801(refused)
            line, kind, code = line[keep], kind[keep], code[keep]
            ls, le = ls[keep], le[keep]
        return line, kind, code, ls, le

    def _substituted_lines(self, lines: np.ndarray) -> np.ndarray:
        """Lines whose digit-only column v8.01 reads otherwise than item by item: items written back to back
        (``(7(12+2)07)``: each removal joins its neighbours, here into ``(707)``) or a ``+`` (only
        ``(N+D)``, one digit after the ``+``, is a discarded split antecedent)."""
        found = lines[self.scan.v801_read_lines(self.buf, lines, self.col_s, self.col_e)]
        return np.union1d(found, self.read_by_v801).astype(np.int64) if self.read_by_v801 else found

    def _with_substituted(self, substituted: np.ndarray, line, kind, ls, le, code):
        """The kernel's items with those of ``substituted`` lines, read as v8.01 reads them, in line order."""
        kinds = {"single": self.scan.SINGLE, "open": self.scan.OPEN, "close": self.scan.CLOSE}
        rows = []
        for t in substituted.tolist():
            items, discarded = v801_column_items(self.column(t))
            if discarded:
                self.discarded.setdefault(self.names[self._doc_of(t)], []).extend(discarded)
            for what, label in items:
                c = self._key_code(label)
                self.label_of_code[c] = label
                rows.append((t, kinds[what], self.col_s[t], self.col_e[t], c))
        extra = np.asarray(rows, dtype=np.int64).reshape(-1, 5)
        order = np.argsort(np.concatenate([line, extra[:, 0]]), kind="stable")
        join = lambda a, b: np.concatenate([a, b.astype(a.dtype)])[order]
        return (join(line, extra[:, 0]), join(kind, extra[:, 1]), join(ls, extra[:, 2]), join(le, extra[:, 3]),
                join(code, extra[:, 4]))

    def _key_code(self, key: str) -> int:
        if len(key) <= self.scan.MAX_DIGITS:
            return int(key) + (len(key) << self.scan.LEN_SHIFT)
        code = self.long_codes.get(key)
        if code is None:  # very long digit strings: one code of their own per label
            code = self.long_codes[key] = (3 << 60) + len(self.long_codes)
            self.label_of_code[code] = key
        return code

    def _doc_of(self, line: int) -> int:
        return int(np.searchsorted(self.begins, line) - 1)

    def table(self, defer_bracket_errors: bool = False) -> MentionTable:
        scan = self.scan
        self.documents()
        self.tokens()
        line, kind, code, ls, le = self.items()
        n_docs = len(self.names)
        item_off = np.searchsorted(line, self.begins).astype(np.int64)
        item_off = np.append(item_off, len(line))
        ends_mention = (kind != scan.OPEN).astype(np.int64)
        mention_off = offsets(ends_mention)[item_off]
        token = self.token_index(line)
        uniq, label = np.unique(code, return_inverse=True)  # dense label numbers
        chain, n_chains, m_chain, m_start, m_end, self.completion, error, error_item = scan.pair_brackets(
            item_off, mention_off, kind, label.astype(np.int64), len(uniq), token)
        unread = {}
        for d in np.flatnonzero(error).tolist():
            t = int(error_item[d])
            label = self._label(t, code, ls, le)
            what = (f"closed at token {token[t]} but never opened" if error[d] == scan.ERR_NOT_OPENED
                    else f"opened at token {token[t]} is never closed") + self._hidden_hint(d)
            if not defer_bracket_errors:
                self.fail(line[t], f"unbalanced bracket: cluster {label} {what}", d)
            unread[self.names[d]] = ParseError(self.path, int(line[t]) + 1 + self.first_line,
                                               f"unbalanced bracket: cluster {label} {what}", self.names[d])
        # the label of each chain is that of its first item
        chain_off = offsets(n_chains)
        doc_of_item = np.repeat(np.arange(n_docs), np.diff(item_off))
        _, first = np.unique(chain + chain_off[doc_of_item], return_index=True)
        flat = self._labels(code[first].tolist())
        labels = [flat[chain_off[d]:chain_off[d + 1]] for d in range(n_docs)]
        if unread:  # documents read without mentions
            m_start, m_end, m_chain, mention_off = _without_documents(
                error != 0, mention_off, m_start, m_end, m_chain)
            labels = [[] if error[d] else x for d, x in enumerate(labels)]
        table = MentionTable(path=self.path, doc_names=self.names, doc_lines=self.begins + 1 + self.first_line,
                             doc_tokens=self.doc_tokens.astype(np.int64), doc_offsets=mention_off.astype(np.int64),
                             start=m_start.astype(np.int32), end=m_end.astype(np.int32),
                             cluster=m_chain.astype(np.int32), cluster_labels=labels, discarded=self.discarded,
                             unread=unread, warnings=self.warnings)
        table.documents_hidden = self.documents_hidden  # (scoring then pairs what v8.01 sees, even nothing)
        # documents v8.01 counts otherwise than written (ended early by its unanchored end test, comment lines
        # counted as tokens): v8.01 has no token-count check, coref/engine.align_documents lets them pass
        table.v801_counts = {self.names[d] for d, e in enumerate(self.doc_ends.tolist()) if e in self.v801_ends}
        if self.comments_counted:
            table.v801_counts |= {self.names[d] for d in np.searchsorted(self.begins, self.comments_counted) - 1}
        return table

    def token_columns(self, fields: bool = True) -> TokenColumns:
        """The token columns (after :meth:`table`; ``fields=False``: without field bounds)."""
        scan = self.scan
        lines = self.token_lines
        if fields:
            fs, fe, n_fields = scan.token_fields(self.buf, self.starts, self.ends, lines, TokenColumns.FIELDS)
        else:
            fs = fe = np.zeros((len(lines), 0), dtype=np.int64)
            n_fields = np.zeros(len(lines), dtype=np.int64)
        # a blank line after a token line ends a sentence; sentences are numbered inside each document
        ends_sentence = np.zeros(len(self.kind), dtype=np.int64)
        blank = np.flatnonzero(self.kind[1:] == scan.BLANK) + 1
        ends_sentence[blank[self.kind[blank - 1] >= scan.TOKEN]] = 1
        ended = np.cumsum(ends_sentence)
        doc_of = self.token_doc
        sentence = ended[lines] - ended[self.begins[doc_of]]
        first = np.flatnonzero(np.diff(np.concatenate([[-1], sentence + (doc_of << 32)])) != 0)
        position = np.arange(len(lines)) - np.repeat(first, np.diff(np.append(first, len(lines))))
        return TokenColumns(self.path, self.buf, lines, offsets(self.doc_tokens), sentence.astype(np.int64),
                            position.astype(np.int64), fs, fe, n_fields, self.completion, self.starts[lines],
                            self.ends[lines])

    def _labels(self, codes: list[int]) -> list[str]:
        """The cluster keys of these items' codes (as :meth:`_label`: a code is a digit key's value and length,
        or one of ``label_of_code``)."""
        lookup, mask, shift = self.label_of_code, (1 << self.scan.LEN_SHIFT) - 1, self.scan.LEN_SHIFT
        return [lookup[c] if c in lookup else str(c & mask).zfill(c >> shift) for c in codes]

    def _label(self, t: int, code, ls, le) -> str:
        """The cluster key of item t (the label for digits, the ID of a typed label)."""
        if self.label_of_code and int(code[t]) in self.label_of_code:
            return self.label_of_code[int(code[t])]
        raw = self.data[ls[t]:le[t]].decode("utf-8")
        return raw if raw.isdigit() else _cluster_key(raw)


def _without_documents(drop: np.ndarray, mention_off: np.ndarray, *columns: np.ndarray):
    """The mention columns without the mentions of the documents ``drop`` marks, and the new offsets."""
    sizes = np.where(drop, 0, np.diff(mention_off))
    keep = np.repeat(~drop, np.diff(mention_off))
    return (*(c[keep] for c in columns), offsets(sizes))


def bracket_items(clusters, n_tokens: int) -> list[list[str]]:
    """The coreference items of every token for ``(label, [(start, end), ...])`` clusters (end exclusive):
    ``(L)`` for a one-token mention, ``(L`` and ``L)`` around longer ones."""
    items: list[list[str]] = [[] for _ in range(n_tokens)]
    for label, spans in clusters:
        for s, e in spans:
            if e - s == 1:
                items[s].append(f"({label})")
            else:
                items[s].append(f"({label}")
                items[e - 1].append(f"{label})")
    return items


def write_conll(table: MentionTable, path, sentences: list[list[list[str]]] | None = None, *,
                speakers: list[list[list[str]] | None] | None = None,
                columns: list[list[list[list[str]]] | None] | None = None,
                labels: list[list[str]] | None = None) -> None:
    """Write a table (spans half-open over each document's tokens) as a CoNLL-2012 file; reading it back
    gives the same mentions (except crossing mentions of one cluster, which brackets cannot express).

    Columns are document, part, word number (in its sentence), word and coreference; with ``speakers``
    the OntoNotes layout (12 columns: speaker in the 10th, unknown columns ``-``).  ``sentences``: per
    document its sentences' words (blank lines between sentences); without them each document is one
    sentence of placeholder words ``w``.  ``columns``: per document (or None), per sentence and token,
    the columns to write before the coreference column (a CoNLL-2012 file's own, kept as they are).
    ``labels``: per document, a label (digits, or ``TYPE-ID``) per cluster; by default the table's labels
    where they are all digits, else the cluster numbers.  Words are written with whitespace as ``_``
    (an empty word as ``-``).  ``path`` may be an open text stream.
    """
    with writable(path) as fh:  # an open stream as it is, a path written safely
        for d, name in enumerate(table.doc_names):
            n = int(table.doc_tokens[d])
            chains = table.document(d)
            names = labels[d] if labels is not None else _digit_labels(table.cluster_labels[d], len(chains))
            items = bracket_items(zip(names, chains), n)
            m = _PART.fullmatch(name)
            doc_id, part = (m.group(1), _part_number(m.group(2))) if m else (name, "0")
            doc_id = conll_cell(doc_id).lstrip("#") or "-"
            own = columns[d] if columns is not None else None
            if own is not None:
                shape = [len(s) for s in own]
            elif sentences is not None:
                shape = [len(s) for s in sentences[d]]
            else:
                shape = [n] if n else []
            if sum(shape) != n:
                raise ValueError(f"document {name!r}: {sum(shape)} words for {n} tokens")
            who = speakers[d] if speakers is not None else None
            fh.write(f"#begin document {name}\n")
            t = 0
            for s, size in enumerate(shape):
                if s:
                    fh.write("\n")
                for i in range(size):
                    coref = "|".join(items[t]) if items[t] else "-"
                    if own is not None:
                        cells = own[s][i]
                    else:
                        word = conll_cell(sentences[d][s][i]) if sentences is not None else "w"
                        cells = [doc_id, part, str(i), word]
                        if who is not None:
                            cells += ["-"] * 5 + [conll_cell(who[s][i]), "-"]
                    fh.write("\t".join(cells) + "\t" + coref + "\n")
                    t += 1
            fh.write("#end document\n")


_PART = re.compile(r"\((.*)\); part (\d+)")


def _part_number(digits: str) -> str:
    """A part number as written back (``007``: ``7``): int() reads any script's digits, but refuses more than
    4,300 of them (a ValueError); such a number keeps its digits, leading zeros dropped."""
    return str(int(digits)) if len(digits) <= 4000 else digits.lstrip("0") or "0"
_WHITESPACE = re.compile(r"\s+")


def conll_cell(text: str) -> str:
    """A word as a CoNLL-2012 column: whitespace as ``_``, empty as ``-``."""
    return _WHITESPACE.sub("_", text) or "-"


def _digit_labels(labels: list[str], n: int) -> list[str]:
    """The labels if they are all plain digits (and distinct), else the cluster numbers."""
    if len(labels) == n and all(x.isascii() and x.isdigit() for x in labels) and len(set(labels)) == n:
        return labels
    return [str(c) for c in range(n)]



@dataclass
class ConllDocument:
    """A document's token lines split into columns (the coreference column last), by sentence."""

    name: str
    line: int  # of "#begin document"
    sentences: list[list[list[str]]]


def read_conll_tokens(path: str | os.PathLike) -> list[ConllDocument]:
    """The token lines of a CoNLL-2012 file, split into columns (at tabs when a line has one, else at
    whitespace), by document and sentence (blank lines end sentences): the documents and tokens
    :func:`read_conll` reads; for conversion (words, speakers, the other columns)."""
    data, name, first_line, bom = _source_bytes_and_bom(path)
    decode_utf8(name, data, first_line)
    reader = _Reader(name, data, first_line)
    reader.read_as_v801(bom)
    table = reader.table(defer_bracket_errors=True)
    lines = reader.token_lines
    blanks = np.cumsum(reader.kind == reader.scan.BLANK)[lines].tolist()  # a new sentence after a blank line
    starts, ends = reader.starts[lines].tolist(), reader.ends[lines].tolist()
    first = np.searchsorted(reader.token_doc, np.arange(table.n_docs)).tolist()
    docs: list[ConllDocument] = []
    for d, n_tokens in enumerate(table.doc_tokens.tolist()):
        sentences: list[list[list[str]]] = []
        for t in range(first[d], first[d] + n_tokens):
            if not sentences or blanks[t] != blanks[t - 1]:
                sentences.append([])
            # split as bytes: at ASCII whitespace only, as v8.01 and the reader (str.split would also split at
            # U+2028, U+00A0, ..., making a token without its coreference column)
            line = data[starts[t]:ends[t]].rstrip(b" \t\r\v\f")
            cols = [c.strip(b" \t\r\v\f") for c in line.split(b"\t")] if b"\t" in line else line.split()
            sentences[-1].append([c.decode("utf-8") for c in cols])
        docs.append(ConllDocument(table.doc_names[d], int(table.doc_lines[d]), sentences))
    return docs


def token_form(columns: list[str]) -> str | None:
    """The word of a token line's columns: the 4th of 5 or more (CoNLL-2012), the 2nd of 3 or 4 (GUM's
    ``index word coreference``), the 1st of 2; None for a line with the coreference column only."""
    n = len(columns)
    return columns[3] if n >= 5 else columns[1] if n >= 3 else columns[0] if n == 2 else None


def token_speaker(columns: list[str]) -> str | None:
    """The speaker (10th column) of an OntoNotes line (12 columns or more); None otherwise or for ``-``."""
    return columns[9] if len(columns) >= 12 and columns[9] not in ("-", "_") else None


_TYPED = re.compile(r"\(([^\W\d][\w.]*)-(\d+)", re.ASCII)


def typed_labels(column: str) -> list[tuple[str, str]]:
    """The (TYPE, ID) of the typed openings ``(TYPE-ID`` of a coreference column (GUM's entity types)."""
    return _TYPED.findall(column) if "(" in column else []
