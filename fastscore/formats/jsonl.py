"""Reader and writer of jsonlines coreference files, the format of most neural coreference systems.

One JSON object per line: ``{"doc_key": NAME, "sentences": [[token, ...], ...], "clusters":
[[[start, end], ...], ...]}`` with inclusive token indices over the whole document (optionally
``"speakers"``, one list of speakers per sentence, one per token — read for conversion, not scored).
Other fields are kept by :func:`fastscore.coref.convert.convert` when it writes jsonlines from jsonlines.
"""
from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

import numpy as np

from ..errors import ParseError
from ..messages import counted
from ..outputs import writable
from .files import Part, decode_utf8, document_batches, reject_other_format, source_bytes, source_name
from .table import MentionTable


@dataclass
class JsonlDocument:
    """One line of a jsonlines file, checked: what conversion needs beyond the mentions."""

    doc_key: str
    line: int
    sentences: list[list[str]]
    speakers: list[list[str]] | None  # per sentence, per token
    clusters: list[list[tuple[int, int]]]  # inclusive
    fields: dict = field(default_factory=dict)  # the whole object (other fields kept by conversion)


JSONL_LINE = re.compile(rb"(?m)^[ \t]*\{")  # a line holding a JSON object: a document


def jsonl_batches(path: str, batch_bytes: int) -> list[Part]:
    """A large jsonlines file as batches of whole lines (documents); ``[]``: read it whole."""
    return document_batches(path, JSONL_LINE, batch_bytes)


def read_jsonl(path: str | os.PathLike | Part) -> MentionTable:
    """Read a jsonlines coreference file (or a :class:`~fastscore.formats.files.Part`: a batch of its lines)
    into a :class:`MentionTable` (spans half-open).

    Raises :class:`~fastscore.errors.ParseError` naming the file, line and document for a line that is
    not a JSON object, a missing field, a mention that is not ``[start, end]`` inside the document, or a
    ``doc_key`` seen twice."""
    docs: dict[str, list[list[tuple[int, int]]]] = {}  # doc_key -> clusters of half-open spans (keys unique)
    tokens: dict[str, int] = {}
    lines: list[int] = []
    for number, obj, doc_key, sentences, spans in _objects(path):
        docs[doc_key] = [[(s, e + 1) for s, e in cluster] for cluster in spans]
        tokens[doc_key] = sum(len(s) for s in sentences)
        lines.append(number)
    name = path.path if isinstance(path, Part) else source_name(os.fspath(path))
    table = MentionTable.from_documents(docs, tokens, name)
    table.doc_lines = np.asarray(lines, dtype=np.int64)
    return table


def read_jsonl_documents(path: str | os.PathLike) -> list[JsonlDocument]:
    """The documents of a jsonlines file with their tokens and speakers (checked: tokens are strings,
    ``speakers`` has one entry per token, or one string per sentence)."""
    name = source_name(os.fspath(path))
    docs = []
    for number, obj, doc_key, sentences, spans in _objects(path):
        for s, sentence in enumerate(sentences):
            for t, token in enumerate(sentence):
                if not isinstance(token, str):
                    raise ParseError(name, number, f"sentence {s}: token {t} is {token!r}, not a string", doc_key)
        docs.append(JsonlDocument(doc_key, number, sentences, _speakers(name, number, doc_key, obj, sentences),
                                  spans, obj))
    return docs


def _objects(path) -> Iterator[tuple[int, dict, str, list, list]]:
    """(line, object, doc_key, sentences, clusters (inclusive)) of every non-blank line, checked."""
    data, name, before = source_bytes(path)
    text = decode_utf8(name, data, before)
    seen: dict[str, int] = {}
    for number, line in enumerate(text.split("\n"), before + 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except RecursionError:
            raise ParseError(name, number, "JSON nested too deeply to read (a jsonlines document is an object of "
                                           "doc_key, sentences, clusters)") from None
        except json.JSONDecodeError as exc:
            if not seen:
                reject_other_format(name, text, "jsonl")
            raise ParseError(name, number, f"not a JSON object: {exc.msg} (column {exc.colno})") from None
        except ValueError:  # int() refuses more than 4,300 digits
            raise ParseError(name, number, "a number of more than 4,300 digits: spans are token indices") from None
        doc_key, sentences, spans = _document(name, number, obj)
        if doc_key in seen:
            raise ParseError(name, number, f"the same doc_key appears twice (first at line {seen[doc_key]})", doc_key)
        seen[doc_key] = number
        yield number, obj, doc_key, sentences, spans
    if not seen:
        reject_other_format(name, text, "jsonl")
        raise ParseError(name, None, "no document: not a jsonlines coreference file (or empty)")


def _index(x) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _document(path: str, line: int, doc) -> tuple[str, list, list[list[tuple[int, int]]]]:
    """(doc_key, sentences, clusters of (start, end) inclusive) of one line, checked."""
    if not isinstance(doc, dict):
        hint = " (a JSON array: jsonlines has one JSON object per line, with doc_key, sentences, clusters)" \
            if isinstance(doc, list) else ""
        raise ParseError(path, line, f"expected a JSON object, found {type(doc).__name__}{hint}")
    for name in ("doc_key", "sentences", "clusters"):
        if name not in doc:
            raise ParseError(path, line, f'no "{name}" field (expected doc_key, sentences, clusters)')
    doc_key = doc["doc_key"]
    if not isinstance(doc_key, str):
        raise ParseError(path, line, f'"doc_key" must be a string, not {json.dumps(doc_key)}')
    sentences = doc["sentences"]
    if not isinstance(sentences, list) or not all(isinstance(s, list) for s in sentences):
        raise ParseError(path, line, '"sentences" must be a list of token lists', doc_key)
    n_tokens = sum(len(s) for s in sentences)
    if not isinstance(doc["clusters"], list):
        raise ParseError(path, line, '"clusters" must be a list of clusters, each a list of [start, end]', doc_key)
    clusters = []
    for c, cluster in enumerate(doc["clusters"]):
        if not isinstance(cluster, list):
            raise ParseError(path, line, f"cluster {c} is {json.dumps(cluster)}, not a list of [start, end]", doc_key)
        spans = []
        for span in cluster:
            if not isinstance(span, list) or len(span) != 2 or not all(_index(x) for x in span):
                raise ParseError(path, line, f"cluster {c}: mention {json.dumps(span)} is not [start, end]", doc_key)
            s, e = span
            if not 0 <= s <= e < n_tokens:
                raise ParseError(path, line, f"cluster {c}: mention [{s}, {e}] outside the document's {n_tokens} "
                                             "tokens (indices are inclusive, counted over the whole document)",
                                 doc_key)
            spans.append((s, e))
        clusters.append(spans)
    return doc_key, sentences, clusters


def _speakers(path: str, line: int, doc_key: str, obj: dict, sentences: list) -> list[list[str]] | None:
    """Speakers per sentence and token; a sentence's single string is every token's speaker."""
    raw = obj.get("speakers")
    if raw is None:
        return None
    problem = None
    if not isinstance(raw, list) or len(raw) != len(sentences):
        entries = (f"{len(raw)} {'entry' if len(raw) == 1 else 'entries'}" if isinstance(raw, list)
                   else "not a list of entries")
        problem = f"{entries} for {counted(len(sentences), 'sentence')}"
    else:
        out = []
        for s, (entry, sentence) in enumerate(zip(raw, sentences)):
            if isinstance(entry, str):
                out.append([entry] * len(sentence))
            elif isinstance(entry, list) and len(entry) == len(sentence) and all(isinstance(x, str) for x in entry):
                out.append(entry)
            else:
                problem = f"sentence {s} has {counted(len(sentence), 'token')} but speakers {json.dumps(entry)[:60]}"
                break
        else:
            return out
    raise ParseError(path, line, f'"speakers" must give one speaker per token of every sentence: {problem}', doc_key)


def write_jsonl(table: MentionTable, path, sentences: list[list[list[str]]] | None = None, *,
                speakers: list[list[list[str]] | None] | None = None, fields: list[dict | None] | None = None) -> None:
    """Write a mention table (spans half-open over each document's tokens) as jsonlines.

    ``sentences``: per document, its token lists (without them each document is one sentence of
    placeholder tokens ``_``); ``speakers``: per document (or None), one speaker per token, as
    ``sentences``; ``fields``: per document (or None), other fields of the object, written after
    ``doc_key``, ``sentences``, ``speakers`` and ``clusters``.  ``path`` may be an open text stream.
    """
    with writable(path) as fh:  # an open stream as it is, a path written safely
        for d, name in enumerate(table.doc_names):
            toks = sentences[d] if sentences is not None else [["_"] * int(table.doc_tokens[d])]
            obj = {"doc_key": name, "sentences": toks}
            if speakers is not None and speakers[d] is not None:
                obj["speakers"] = speakers[d]
            obj["clusters"] = [[[int(s), int(e) - 1] for s, e in chain] for chain in table.document(d)]
            for key, value in ((fields[d] or {}) if fields is not None else {}).items():
                obj.setdefault(key, value)
            fh.write(json.dumps(obj, ensure_ascii=False) + "\n")

