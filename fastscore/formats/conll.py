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
mis-reads the file, are documented in README.md ("Formats").

The bytes are scanned by numba kernels (``kernels/conll_scan.py``); Python
handles the ``#`` lines, labels that are not plain digits, and the messages.
"""
from __future__ import annotations

import os
import re

import numpy as np

from ..errors import ParseError
from .files import decode_utf8, read_bytes, reject_other_format, source_name
from .table import MentionTable, offsets

_BEGIN = re.compile(r"#\s*begin document(?: (.*))?$")
_END = re.compile(r"#\s*end document")
_LABEL = re.compile(r"(?:[^\W\d][\w.]*-)?(\d+)(?:-.*)?", re.ASCII | re.DOTALL)


def read_conll(path: str | os.PathLike) -> MentionTable:
    """Read a CoNLL-2011/2012 file into a :class:`MentionTable`.

    Raises :class:`~fastscore.errors.ParseError` naming the file, line and
    document for anything the format does not allow.  ``-`` reads standard
    input; gzip-compressed files are read as they are.
    """
    path = os.fspath(path)
    data = read_bytes(path)
    name = source_name(path)
    decode_utf8(name, data)  # the kernels read bytes; the text must be UTF-8 all the same
    return _Reader(name, data).table()


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
    def __init__(self, path: str, data: bytes):
        from ..kernels import conll_scan as scan

        self.scan = scan
        self.path = path
        self.data = data
        self.buf = np.frombuffer(data, dtype=np.uint8)
        newlines = np.flatnonzero(self.buf == 10)
        self.starts = np.concatenate([[0], newlines + 1]).astype(np.int64)
        self.ends = np.concatenate([newlines, [len(self.buf)]]).astype(np.int64)
        self.kind, self.col_s, self.col_e = scan.classify_lines(self.buf, self.starts, self.ends)

    def text(self, line: int) -> str:
        return self.data[self.starts[line]:self.ends[line]].decode("utf-8").rstrip("\r")

    def column(self, line: int) -> str:
        return self.data[self.col_s[line]:self.col_e[line]].decode("utf-8")

    def fail(self, line: int | None, problem: str, doc: int | None = None):
        name = None if doc is None else self.names[doc]
        raise ParseError(self.path, None if line is None else int(line) + 1, problem, name)

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
                    self.fail(line, f'"#begin document" inside document "{self.names[open_doc]}" (begun at '
                                    f'line {begins[open_doc] + 1}): add the missing "#end document" line',
                              len(self.names) - 1)
                if name in seen:
                    self.names.append(name)
                    self.fail(line, f"the same document appears twice (first at line {seen[name]}): "
                                    "document names must be unique in a file", len(self.names) - 1)
                seen[name] = line + 1
                open_doc = len(self.names)
                self.names.append(name)
                begins.append(line)
            elif _END.match(text):
                if open_doc is None:
                    self.fail(line, '"#end document" without a matching "#begin document"')
                ends.append(line)
                open_doc = None
        if open_doc is not None:
            self.fail(begins[open_doc], '"#begin document" without "#end document": '
                                        "the file ends inside the document", open_doc)
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
        if not self.names:
            reject_other_format(self.path, self.data, "conll")
            self.fail(None, 'no "#begin document" line: not a CoNLL coreference file (or empty)')
        self.token_count = np.cumsum(is_token)  # token lines up to and including each line
        self.doc_tokens = self.token_count[self.doc_ends] - self.token_count[self.begins]

    def token_index(self, lines: np.ndarray) -> np.ndarray:
        """Index of each (token) line among its document's tokens."""
        begin = self.begins[np.searchsorted(self.begins, lines) - 1]
        return self.token_count[lines] - self.token_count[begin] - 1

    def items(self):
        """Bracket items with resolved cluster codes (split antecedents dropped)."""
        scan = self.scan
        lines = np.flatnonzero(self.kind == scan.TOKEN_BRACKETS)
        line, kind, ls, le, code, err, at = scan.bracket_items(self.buf, lines, self.col_s, self.col_e)
        if err:
            bad = lines[at]
            problem = "empty cluster label" if err == scan.ERR_EMPTY_LABEL else "unexpected text"
            self.fail(bad, f"bad coreference column {self.column(bad)!r}: {problem}", self._doc_of(bad))
        self.label_of_code: dict[int, str] = {}
        self.long_codes: dict[str, int] = {}
        unresolved = np.flatnonzero(code < 0)
        if len(unresolved):
            keep = np.ones(len(code), dtype=bool)
            cache: dict[bytes, str | None] = {}
            for t in unresolved.tolist():
                raw = self.data[ls[t]:le[t]]
                if raw not in cache:
                    try:
                        cache[raw] = _cluster_key(raw.decode("utf-8"))
                    except ValueError as exc:
                        self.fail(line[t], f"bad coreference column {self.column(line[t])!r}: {exc}",
                                  self._doc_of(line[t]))
                key = cache[raw]
                if key is None:
                    if kind[t] != scan.SINGLE:
                        self.fail(line[t], f"split-antecedent label {raw.decode()!r} must be a one-token "
                                           "mention", self._doc_of(line[t]))
                    keep[t] = False
                    continue
                code[t] = self._key_code(key)
            line, kind, code = line[keep], kind[keep], code[keep]
            ls, le = ls[keep], le[keep]
        return line, kind, code, ls, le

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

    def table(self) -> MentionTable:
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
        chain, n_chains, m_chain, m_start, m_end, error, error_item = scan.pair_brackets(
            item_off, mention_off, kind, label.astype(np.int64), len(uniq), token)
        bad_docs = np.flatnonzero(error)
        if len(bad_docs):
            d = int(bad_docs[0])
            t = int(error_item[d])
            label = self._label(t, code, ls, le)
            what = (f"closed at token {token[t]} but never opened" if error[d] == scan.ERR_NOT_OPENED
                    else f"opened at token {token[t]} is never closed")
            self.fail(line[t], f"unbalanced bracket: cluster {label} {what}", d)
        # the label of each chain is that of its first item
        chain_off = offsets(n_chains)
        doc_of_item = np.repeat(np.arange(n_docs), np.diff(item_off))
        _, first = np.unique(chain + chain_off[doc_of_item], return_index=True)
        flat = [self._label(t, code, ls, le) for t in first.tolist()]
        labels = [flat[chain_off[d]:chain_off[d + 1]] for d in range(n_docs)]
        return MentionTable(
            path=self.path,
            doc_names=self.names,
            doc_lines=self.begins + 1,
            doc_tokens=self.doc_tokens.astype(np.int64),
            doc_offsets=mention_off.astype(np.int64),
            start=m_start.astype(np.int32),
            end=m_end.astype(np.int32),
            cluster=m_chain.astype(np.int32),
            cluster_labels=labels,
        )

    def _label(self, t: int, code, ls, le) -> str:
        """The cluster key of item t (the label for digits, the ID of a typed label)."""
        if self.label_of_code and int(code[t]) in self.label_of_code:
            return self.label_of_code[int(code[t])]
        raw = self.data[ls[t]:le[t]].decode("utf-8")
        return raw if raw.isdigit() else _cluster_key(raw)


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


def write_conll(table: MentionTable, path: str | os.PathLike) -> None:
    """Write a table as a CoNLL-2012 file (columns: document, part, token, word, coreference).

    Words are placeholders; reading the file back gives the same mentions.
    """
    with open(path, "w", encoding="utf-8") as fh:
        for d, name in enumerate(table.doc_names):
            items = bracket_items(enumerate(table.document(d)), int(table.doc_tokens[d]))
            fh.write(f"#begin document {name}\n")
            for t, col in enumerate(items):
                fh.write(f"doc\t0\t{t}\tw\t{'|'.join(col) if col else '-'}\n")
            fh.write("#end document\n")
