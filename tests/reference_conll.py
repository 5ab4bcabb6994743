"""Pure-Python line-by-line CoNLL reader: the oracle for the byte-scanning kernels
(kernels/conll_scan.py) behind fastscore.formats.conll.  The same rules (see that
module), written plainly: one line at a time, dictionaries and lists.  ``read_conll_tokens``: the
oracle of the token columns ``fastscore.formats.conll.read_conll_tokens`` gives ``convert``."""
from __future__ import annotations

import os
import re

import numpy as np

from fastscore.errors import ParseError
from fastscore.formats.conll import ConllDocument
from fastscore.formats.conll import _cluster_key  # label syntax: shared; brackets: the oracle's own
from fastscore.formats.files import read_text
from fastscore.formats.table import MentionTable

_BEGIN = re.compile(r"#\s*begin document (.*)$")
_BEGIN_LOOSE = re.compile(r"#\s*begin document\s*$")
_END = re.compile(r"#\s*end document")
_NO_MENTION = frozenset(("-", "_", ""))


def read_conll(path: str | os.PathLike) -> MentionTable:
    """Read a CoNLL-2011/2012 file into a :class:`MentionTable`.

    Raises :class:`~fastscore.errors.ParseError` naming the file, line and
    document for anything the format does not allow.
    """
    path = os.fspath(path)
    text = read_text(path)  # file errors are shared with the reader under test; parsing is not
    return _parse(path, text)


class _DocBuilder:
    """Collects one document's mentions in v8.01 chain order."""

    __slots__ = ("name", "line", "tokens", "index", "labels", "open", "mentions")

    def __init__(self, name: str, line: int):
        self.name = name
        self.line = line
        self.tokens = 0
        self.index: dict[str, int] = {}  # cluster key -> chain index (first appearance)
        self.labels: list[str] = []
        self.open: dict[int, list[tuple[int, int]]] = {}  # chain -> stack of (token, line)
        self.mentions: list[tuple[int, int, int]] = []  # (chain, start, end) in completion order

    def chain(self, key: str) -> int:
        i = self.index.get(key)
        if i is None:
            i = self.index[key] = len(self.labels)
            self.labels.append(key)
        return i


def _parse(path: str, text: str) -> MentionTable:
    parser = _Parser(path)
    for lineno, line in enumerate(text.split("\n"), 1):
        if line:
            parser.line(lineno, line)
    return parser.finish()


class _Parser:
    """Line-by-line state machine; finished documents collect in ``docs``."""

    def __init__(self, path: str):
        self.path = path
        self.doc: _DocBuilder | None = None
        self.docs: list[_DocBuilder] = []
        self.seen: dict[str, int] = {}

    def line(self, lineno: int, line: str) -> None:
        doc = self.doc
        if line[0] == "#":
            self.directive(lineno, line.rstrip("\r"))
        elif not line.isspace():
            if doc is None:
                self.outside(lineno)
            col = _last_column(line)
            if "(" in col or ")" in col:
                _token(self.path, lineno, col, doc)
            doc.tokens += 1

    def outside(self, lineno: int) -> None:
        raise ParseError(
            self.path, lineno, 'token line outside a document: add a "#begin document NAME" line before it'
        )

    def directive(self, lineno: int, line: str) -> None:
        """A line starting with '#': begin, end, or a comment (ignored)."""
        path, doc = self.path, self.doc
        m = _BEGIN.match(line) or _BEGIN_LOOSE.match(line)
        if m is not None:
            name = m.group(1) if m.re is _BEGIN else ""
            if doc is not None:
                raise ParseError(
                    path, lineno,
                    f'"#begin document" inside document "{doc.name}" (begun at line {doc.line}): '
                    'add the missing "#end document" line', name,
                )
            if name in self.seen:
                raise ParseError(
                    path, lineno, f"the same document appears twice (first at line {self.seen[name]}): "
                    "document names must be unique in a file", name,
                )
            self.seen[name] = lineno
            self.doc = _DocBuilder(name, lineno)
        elif _END.match(line):
            if doc is None:
                raise ParseError(path, lineno, '"#end document" without a matching "#begin document"')
            for chain, stack in doc.open.items():
                if stack:
                    token, opened = stack[-1]
                    raise ParseError(
                        path, opened,
                        f"unbalanced bracket: cluster {doc.labels[chain]} opened at token {token} is never closed",
                        doc.name,
                    )
            self.docs.append(doc)
            self.doc = None

    def finish(self) -> MentionTable:
        path, doc = self.path, self.doc
        if doc is not None:
            raise ParseError(
                path, doc.line,
                '"#begin document" without "#end document": the file ends inside the document', doc.name,
            )
        if not self.docs:
            raise ParseError(path, None, 'no "#begin document" line: not a CoNLL coreference file (or empty)')
        starts: list[int] = []
        ends: list[int] = []
        clusters: list[int] = []
        for d in self.docs:
            # stable sort by chain: v8.01's chain order, mentions in completion order
            for c, s, e in sorted(d.mentions, key=lambda m: m[0]):
                clusters.append(c)
                starts.append(s)
                ends.append(e)
        sizes = [len(d.mentions) for d in self.docs]
        return MentionTable(
            path=path,
            doc_names=[d.name for d in self.docs],
            doc_lines=np.asarray([d.line for d in self.docs], dtype=np.int64),
            doc_tokens=np.asarray([d.tokens for d in self.docs], dtype=np.int64),
            doc_offsets=np.concatenate([[0], np.cumsum(sizes, dtype=np.int64)]).astype(np.int64),
            start=np.asarray(starts, dtype=np.int32),
            end=np.asarray(ends, dtype=np.int32),
            cluster=np.asarray(clusters, dtype=np.int32),
            cluster_labels=[d.labels for d in self.docs],
        )


def _last_column(line: str) -> str:
    # v8.01 splits on tabs (trailing empty fields dropped); space-separated
    # files take their last whitespace-separated field.
    line = line.rstrip()
    tab = line.rfind("\t")
    if tab >= 0:
        return line[tab + 1:].strip()
    parts = line.rsplit(None, 1)
    return parts[-1]


def _items(col: str):
    """Split a coreference column into (kind, label) items; kind in '(', ')', '()'."""
    i, n = 0, len(col)
    while i < n:
        ch = col[i]
        if ch == "|":
            i += 1
            continue
        if ch == "(":
            j = i + 1
            while j < n and col[j] not in "()|":
                j += 1
            if j < n and col[j] == ")":
                yield "()", col[i + 1:j]
                i = j + 1
            else:
                yield "(", col[i + 1:j]
                i = j
        else:
            j = i
            while j < n and col[j] not in "()|":
                j += 1
            if j < n and col[j] == ")":
                yield ")", col[i:j]
                i = j + 1
            elif j == n and col[i:j] in _NO_MENTION:
                return
            else:
                raise ValueError(f"unexpected text {col[i:j]!r}")


def _v801_items(col: str):
    """v8.01's own reading of a column: remove the first match of each pattern in turn, searching again from
    the start each time (split antecedents (N+D) dropped)."""
    out = []
    for kind, pattern in (("+", r"\((\d+\+\d)\)"), ("()", r"\((\d+)\)"), ("(", r"\((\d+)"), (")", r"(\d+)\)")):
        m = re.search(pattern, col)
        while m:
            col = col[:m.start()] + col[m.end():]
            if kind != "+":
                out.append((kind, m.group(1)))
            m = re.search(pattern, col)
    return out


def _read_as_v801(col: str) -> bool:
    """Digit columns whose items are back to back or hold a '+': item-by-item reading would differ from v8.01's."""
    return bool(re.fullmatch(r"[\d()|+]*", col)) and ("+" in col or re.search(r"[\d)]\(|\)\d", col) is not None)


def _token(path: str, lineno: int, col: str, doc: _DocBuilder) -> None:
    t = doc.tokens
    try:
        items = _v801_items(col) if _read_as_v801(col) else list(_items(col))
        singles, opens, closes = [], [], []
        for kind, label in items:
            if not label:
                raise ValueError("empty cluster label")
            key = _cluster_key(label)
            if key is None:
                if kind != "()":
                    raise ValueError(f"split-antecedent label {label!r} must be a one-token mention")
                continue
            (singles if kind == "()" else opens if kind == "(" else closes).append(key)
    except ValueError as exc:
        raise ParseError(path, lineno, f"bad coreference column {col!r}: {exc}", doc.name) from None
    for key in singles:
        doc.mentions.append((doc.chain(key), t, t + 1))
    for key in opens:
        doc.open.setdefault(doc.chain(key), []).append((t, lineno))
    for key in closes:
        chain = doc.chain(key)
        stack = doc.open.get(chain)
        if not stack:
            raise ParseError(
                path, lineno,
                f"unbalanced bracket: cluster {key} closed at token {t} but never opened", doc.name,
            )
        start, _ = stack.pop()
        doc.mentions.append((chain, start, t + 1))


def read_conll_tokens(path: str | os.PathLike) -> list[ConllDocument]:
    """The token lines of a valid CoNLL-2012 file split into columns (at tabs when a line has one, else at
    whitespace), by document and sentence (blank lines end sentences), one line at a time."""
    docs: list[ConllDocument] = []
    current: ConllDocument | None = None
    sentence: list[list[str]] = []
    for number, raw in enumerate(read_text(os.fspath(path)).split("\n"), 1):
        line = raw.rstrip(" \t\r\v\f")
        if not line:
            if current is not None and sentence:
                current.sentences.append(sentence)
                sentence = []
            continue
        if line[0] == "#":
            m = re.match(r"#\s*begin document(?: (.*))?$", raw.rstrip("\r"))
            if m is not None:
                current = ConllDocument(m.group(1) or "", number, [])
                docs.append(current)
            elif _END.match(raw) and current is not None:
                if sentence:
                    current.sentences.append(sentence)
                    sentence = []
                current = None
            continue
        if current is not None:
            sentence.append([c.strip(" \t\r\v\f") for c in line.split("\t")] if "\t" in line else line.split())
    return docs

