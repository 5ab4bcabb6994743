"""A large CoNLL-U file in batches of whole documents, scored as the file is.

The CorefUD scorer reads a file as a whole, and a batch must be read as the whole file would read its
documents.  Three things come from the lines before a batch; a first pass over the file (regular
expressions over the memory-mapped bytes, :func:`conllu_batches`) finds them and each
:class:`ConlluPart` carries them: the sentences before it (word keys number the sentences of the file),
the documents before it (a ``# newdoc`` without id is named by its number) and the ``# global.Entity``
header in force.

A fourth needs the other batches read: entity ids are the file's (unless ``GRP``), so an id used in two
documents is one entity, and the scorer orders a document's entities by their first mention in the file.
Each batch read tells which ids it uses and where each is first mentioned (:func:`batch_summary`); the ids
a batch shares with earlier batches are then given the place of their first use (:func:`part_contexts`)
and its documents' clusters put in that order (:func:`in_context`): ids first used earlier come first.
The summaries also settle what a batch alone cannot: the same sentence id on both sides of a cut, and
Bridge/SplitAnte links to an entity mentioned only in another batch.

Batches are cut before the first document starting after every ``batch_bytes / 1024`` sentences (about
``batch_bytes`` at 1 KB a sentence): key and response hold the same sentences, so they are cut before
the same documents and each key batch is scored with the response batch of its documents.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from ..errors import ParseError
from .conllu import _GLOBAL_ENTITY, _NEWDOC, document_again, entity_without_mention, repeated_sentence_id
from .files import Part, mapped_for_batches
from .table import MentionTable

BYTES_PER_SENTENCE = 1024  # how --batch-size becomes a number of sentences
_NEWDOC_WORD = re.compile(rb"newdoc")  # a literal: searched as fast as memchr; its line is checked after
# a block of comment lines only: at the start, or after a blank line; then a blank line or the end
_COMMENTS_ONLY = re.compile(rb"(?:\A[ \t\r\n]*|(?<=\n)[ \t]*\r?\n)(#[^\n]*(?:\n#[^\n]*)*)"
                            rb"(?=\r?\n[ \t]*\r?\n|\r?\n?[ \t\r]*\Z)")
# a sentence after the first of a stretch: a blank line (only spaces and tabs), then its first non-blank byte
_NEXT_SENTENCE = re.compile(rb"\n[ \t]*\r?\n[ \t\r\n]*(?=[^ \t\r\n])")


@dataclass(frozen=True)
class ConlluPart(Part):
    """A batch of whole documents of a CoNLL-U file, with what the lines before it make of it."""

    sentences_before: int = 0
    docs_before: int = 0
    entity_fields: tuple[str, int] | None = None  # the "# global.Entity" value in force and its line
    file_entity: tuple[str, int] | None = None  # the file's last "# global.Entity" (value, line): udapi's header


def read_again(part) -> bool:
    """``Corpus.read_again``: a CoNLL-U batch is read once to learn its documents, then again where it is scored:
    its table holds the batch's bytes (its sentences), so keeping every batch's until scoring (or sending it
    between processes) costs the file."""
    return isinstance(part, ConlluPart)


def conllu_batches(path: str, batch_bytes: int) -> list[ConlluPart]:
    """A large CoNLL-U file as batches of whole documents (``[]``: read it whole: a small or compressed
    file, standard input, or one batch's worth of sentences)."""
    with mapped_for_batches(path, batch_bytes) as data:
        return [] if data is None else _cut(path, data, max(1, batch_bytes // BYTES_PER_SENTENCE))


def _cut(path: str, data, sentences_per_batch: int) -> list[ConlluPart]:
    starts = _document_starts(data)
    bounds = sorted({0, *starts, len(data)})
    cuts = [(0, 0, 0, 0)]  # (byte, lines, sentences, documents) before each batch
    lines = sentences = docs = since = 0
    is_start = set(starts)
    for a, b in zip(bounds, bounds[1:]):
        if a and a in is_start and since >= sentences_per_batch:
            cuts.append((a, lines, sentences, docs))
            since = 0
        segment = data[a:b]
        n = _sentences(segment)
        lines, sentences, since, docs = lines + segment.count(b"\n"), sentences + n, since + n, docs + (a in is_start)
    if len(cuts) == 1:
        return []
    ends = [c[0] for c in cuts[1:]] + [len(data)]
    last = _in_force(data, len(data), lines)  # (lines: all the file's newlines)
    return [ConlluPart(path, byte, end, n_lines, n_sentences, n_docs, _in_force(data, byte, n_lines), last)
            for (byte, n_lines, n_sentences, n_docs), end in zip(cuts, ends)]


def _in_force(data, byte: int, lines_before: int) -> tuple[str, int] | None:
    """The last ``# global.Entity`` header before ``byte`` (value, line), searched backwards."""
    end = byte
    while True:
        at = data.rfind(b"global.Entity", 0, end)
        if at < 0:
            return None
        start = data.rfind(b"\n", 0, at) + 1
        line = _line_at(data, start)
        found = _GLOBAL_ENTITY.match(line) if line.startswith("#") else None
        if found:
            return found.group(1), lines_before - data[start:byte].count(b"\n") + 1
        end = at


def _document_starts(data) -> list[int]:
    """Where each block holding a ``# newdoc`` line starts (the reader's documents), in order."""
    out: list[int] = []
    for m in _NEWDOC_WORD.finditer(data):
        start = data.rfind(b"\n", 0, m.start()) + 1
        line = _line_at(data, start)
        if line.startswith("#") and _NEWDOC.match(line):
            block = _block_start(data, start)
            if not out or out[-1] != block:
                out.append(block)
    return out


def _line_at(data, start: int) -> str:
    """The line starting at byte ``start``, as the reader sees it (without its end of line)."""
    end = data.find(b"\n", start)
    return data[start:end if end >= 0 else len(data)].decode("utf-8", "replace").rstrip("\r")


def _block_start(data, pos: int) -> int:
    """Where the reader's piece of text holding the line at ``pos`` starts: the block's first line, or the
    blank line before it when an even number of blank lines come before (the reader's separators, a newline
    and a blank line, take the newlines between two blocks two at a time; a newline left over starts the next
    piece, whose first line, blank, is the line its document is said to start at)."""
    blank_lines: list[int] = []  # starts of the blank lines before the block, nearest first
    while pos > 0:
        previous = data.rfind(b"\n", 0, pos - 1) + 1  # the line before starts here
        if data[previous:pos - 1].strip(b" \t\r"):
            if blank_lines:
                break
        else:
            blank_lines.append(previous)
        pos = previous
    else:
        return 0
    block = pos if not blank_lines else data.find(b"\n", blank_lines[0]) + 1  # (the line after the blank one)
    return blank_lines[0] if len(blank_lines) % 2 == 0 else block


def _sentences(segment: bytes) -> int:
    """Blocks of lines with something on them, as the reader cuts them, but those of comments only (udapi
    drops them, and so does the reader)."""
    if segment[:1].isspace():  # the start of the file: blank lines before its first block
        segment = segment.lstrip()
    return 1 + len(_NEXT_SENTENCE.findall(segment)) - len(_COMMENTS_ONLY.findall(segment)) if segment else 0


# ---- what batches tell each other (after every batch is read)


@dataclass
class BatchSummary:
    """What a batch read tells the batches after it (small: it crosses processes)."""

    path: str
    firsts: dict[str, tuple[int, int, int]]  # entity id -> its first mention (first key, -words, last key)
    names: set[str]  # every entity it mentions (GRP ids as "DOCUMENT NUMBER:ID")
    unresolved: list[tuple[str, int, str, str]]  # Bridge/SplitAnte links to entities it does not mention
    early: list[tuple[str, int, str, str]]  # links to entities it does not open before them (BatchFacts.early)
    first_sentence: tuple[str, int, str]  # (id, line, document) of its first sentence
    last_sentence: tuple[str, int]  # (id, line) of its last
    documents: list[tuple[str, int]]  # (name, line) of each
    left_open: dict[str, int]  # discontinuous mentions left incomplete at its end: id -> line
    continued: set[str]  # ids with a discontinuous part after the first


def batch_summary(table: MentionTable) -> BatchSummary | None:
    """The summary of a batch of a CoNLL-U file (None for any other table)."""
    facts = table.batch
    if facts is None:
        return None
    sizes = np.diff(table.words.offsets)
    firsts: dict[str, tuple[int, int, int]] = {}
    names: set[str] = set()
    for d, labels in enumerate(table.cluster_labels):
        if facts.grp[d]:  # ids of this document only: nothing to share
            names.update(f"{facts.docs_before + d + 1}:{label}" for label in labels)
            continue
        names.update(labels)
        lo, hi = int(table.doc_offsets[d]), int(table.doc_offsets[d + 1])
        if lo == hi:
            continue
        cluster = table.cluster[lo:hi]
        first_rows = lo + np.flatnonzero(np.r_[True, cluster[1:] != cluster[:-1]])  # a cluster's rows are together
        for c, r in zip(table.cluster[first_rows].tolist(), first_rows.tolist()):
            key = (int(table.start[r]), -int(sizes[r]), int(table.end[r]) - 1)
            if labels[c] not in firsts or key < firsts[labels[c]]:
                firsts[labels[c]] = key
    first, last = table.sentences[0], table.sentences[-1]  # a batch starts with a document: never empty
    return BatchSummary(table.path, firsts, names, list(facts.unresolved), list(facts.early),
                        (first.sent_id, first.line, table.doc_names[0]), (last.sent_id, last.line),
                        list(zip(table.doc_names, table.doc_lines.tolist())), facts.left_open, facts.continued)


def part_contexts(parts: list, summaries: list) -> list[dict | None]:
    """For each part, the entity ids it shares with earlier batches of its file, with the place of their
    first mention (None: nothing to change); what only the whole file settles is checked here."""
    out: list[dict | None] = [None] * len(parts)
    files: dict[str, list[int]] = {}
    for i, (part, summary) in enumerate(zip(parts, summaries)):
        if isinstance(part, ConlluPart) and summary is not None:
            files.setdefault(part.path, []).append(i)
    for path, indices in files.items():
        mentioned = set().union(*(summaries[i].names for i in indices))
        seen: dict[str, tuple[int, int, int]] = {}
        documents: dict[str, int] = {}
        left_open: dict[str, int] = {}
        previous = None
        for i in indices:
            s = summaries[i]
            if previous is not None and previous == i - 1:
                _check_cut(path, summaries[previous], s)
            clash = sorted(s.continued & left_open.keys())
            if clash:
                raise ParseError(path, left_open[clash[0]], f"a discontinuous mention of {clash[0]!r} left incomplete "
                                 "here is completed by a part in a later batch of the file (the CorefUD scorer "
                                 "completes the oldest one waiting, whatever its document): read the file whole "
                                 "(a larger --batch-size), or complete the mention")
            left_open.update((eid, line) for eid, line in s.left_open.items() if eid not in left_open)
            for name, line in s.documents:  # the reader's error (the corpus's would name two shards)
                if name in documents:
                    raise ParseError(path, line, document_again(documents[name]), name)
                documents[name] = line
            for eid, line, doc, attribute in s.unresolved:
                if eid not in mentioned:
                    raise ParseError(path, line, entity_without_mention(attribute, eid), doc)
            for eid, line, doc, message in s.early:
                if eid not in seen:  # (an entity of an earlier batch is known)
                    raise ParseError(path, line, message, doc)
            shared = {eid: seen[eid] for eid in s.firsts if eid in seen}
            for eid, key in s.firsts.items():
                seen.setdefault(eid, key)
            out[i] = shared or None
            previous = i
    return out


def _check_cut(path: str, before: BatchSummary, after: BatchSummary) -> None:
    """The sentences on both sides of a cut must have different ids (the reader's check, across the cut)."""
    sent_id, line, doc = after.first_sentence
    if sent_id and sent_id == before.last_sentence[0]:
        raise ParseError(path, line, repeated_sentence_id(sent_id, before.last_sentence[1]), doc)


def in_context(table: MentionTable, shared: dict[str, tuple[int, int, int]]) -> MentionTable:
    """A batch's table with each document's clusters in the file's order: the entities first mentioned in
    an earlier batch (``shared``: id -> first mention) first, by their first mention (then id), then the
    others as they are."""
    rows, cluster, labels = [], table.cluster.copy(), []
    for d, names in enumerate(table.cluster_labels):
        lo, hi = int(table.doc_offsets[d]), int(table.doc_offsets[d + 1])
        early = [c for c, name in enumerate(names) if name in shared] if not table.batch.grp[d] else []
        if not early:
            rows.append(np.arange(lo, hi))
            labels.append(names)
            continue
        early.sort(key=lambda c: (shared[names[c]], names[c]))
        order = early + [c for c, name in enumerate(names) if name not in shared]
        rank = np.empty(len(order), dtype=np.int64)
        rank[order] = np.arange(len(order))
        new = rank[table.cluster[lo:hi]]
        moved = np.argsort(new, kind="stable")  # rows stay in their order inside a cluster
        rows.append(lo + moved)
        cluster[lo:hi] = new[moved]
        labels.append([names[c] for c in order])
    take = np.concatenate(rows) if rows else np.zeros(0, dtype=np.int64)
    return MentionTable(path=table.path, doc_names=table.doc_names, doc_lines=table.doc_lines,
                        doc_tokens=table.doc_tokens, doc_offsets=table.doc_offsets, start=table.start[take],
                        end=table.end[take], cluster=cluster, cluster_labels=labels, words=table.words.take(take),
                        sentences=table.sentences, warnings=table.warnings, batch=table.batch)
