"""Reader and writer of jsonlines coreference files, the format of most neural coreference systems.

One JSON object per line: ``{"doc_key": NAME, "sentences": [[token, ...], ...], "clusters":
[[[start, end], ...], ...]}`` with inclusive token indices over the whole document (optionally
``"speakers"``, read but not scored).
"""
from __future__ import annotations

import json
import os

import numpy as np

from ..errors import ParseError
from .files import read_text, reject_other_format, source_name
from .table import MentionTable, _numbers, offsets


def read_jsonl(path: str | os.PathLike) -> MentionTable:
    """Read a jsonlines coreference file into a :class:`MentionTable` (spans half-open)."""
    path = os.fspath(path)
    name = source_name(path)
    text = read_text(path)
    names: list[str] = []
    lines: list[int] = []
    tokens: list[int] = []
    starts: list[int] = []
    ends: list[int] = []
    clusters: list[int] = []
    sizes: list[int] = []
    labels: list[list[str]] = []
    for number, line in enumerate(text.split("\n"), 1):
        if not line.strip():
            continue
        try:
            doc = json.loads(line)
        except json.JSONDecodeError as exc:
            if not names:
                reject_other_format(name, text, "jsonl")
            raise ParseError(name, number, f"not a JSON object: {exc.msg} (column {exc.colno})") from None
        doc_key, n_tokens, spans = _document(name, number, doc)
        if doc_key in names:
            raise ParseError(name, number, f"the same doc_key appears twice (first at line "
                                           f"{lines[names.index(doc_key)]})", doc_key)
        names.append(doc_key)
        lines.append(number)
        tokens.append(n_tokens)
        for c, cluster in enumerate(spans):
            for s, e in cluster:
                starts.append(s)
                ends.append(e + 1)
                clusters.append(c)
        sizes.append(sum(len(c) for c in spans))
        labels.append(_numbers(len(spans)))
    if not names:
        reject_other_format(name, text, "jsonl")
        raise ParseError(name, None, "no document: not a jsonlines coreference file (or empty)")
    return MentionTable(path=name, doc_names=names, doc_lines=np.asarray(lines, dtype=np.int64),
                        doc_tokens=np.asarray(tokens, dtype=np.int64), doc_offsets=offsets(sizes),
                        start=np.asarray(starts, dtype=np.int32), end=np.asarray(ends, dtype=np.int32),
                        cluster=np.asarray(clusters, dtype=np.int32), cluster_labels=labels)


def _document(path: str, line: int, doc) -> tuple[str, int, list[list[tuple[int, int]]]]:
    """(doc_key, token count, clusters of (start, end) inclusive) of one line, checked."""
    if not isinstance(doc, dict):
        raise ParseError(path, line, f"expected a JSON object, found {type(doc).__name__}")
    for field in ("doc_key", "sentences", "clusters"):
        if field not in doc:
            raise ParseError(path, line, f'no "{field}" field (expected doc_key, sentences, clusters)')
    doc_key = str(doc["doc_key"])
    sentences = doc["sentences"]
    if not isinstance(sentences, list) or not all(isinstance(s, list) for s in sentences):
        raise ParseError(path, line, '"sentences" must be a list of token lists', doc_key)
    n_tokens = sum(len(s) for s in sentences)
    clusters = []
    for c, cluster in enumerate(doc["clusters"]):
        spans = []
        for span in cluster:
            if (not isinstance(span, list) or len(span) != 2 or not all(isinstance(x, int) for x in span)):
                raise ParseError(path, line, f"cluster {c}: mention {span!r} is not [start, end]", doc_key)
            s, e = span
            if not 0 <= s <= e < n_tokens:
                raise ParseError(path, line, f"cluster {c}: mention [{s}, {e}] outside the document's {n_tokens} "
                                             "tokens (indices are inclusive, counted over the whole document)",
                                 doc_key)
            spans.append((s, e))
        clusters.append(spans)
    return doc_key, n_tokens, clusters


def write_jsonl(table: MentionTable, path: str, sentences: list[list[list[str]]] | None = None) -> None:
    """Write a mention table as jsonlines (``sentences``: per document, its token lists; without them
    each document is one sentence of placeholder tokens ``_``)."""
    with open(path, "w", encoding="utf-8") as fh:
        for d, name in enumerate(table.doc_names):
            toks = sentences[d] if sentences is not None else [["_"] * int(table.doc_tokens[d])]
            clusters = [[[int(s), int(e) - 1] for s, e in chain] for chain in table.document(d)]
            fh.write(json.dumps({"doc_key": name, "sentences": toks, "clusters": clusters}) + "\n")
