"""Reader for CoNLL-U files with CorefUD 1.x coreference (``Entity=`` in MISC).

Documents start at ``# newdoc [id = NAME]`` (an id-less newdoc is named by its
1-based number, as the CorefUD scorer does); sentences are blocks of token lines
(10 tab-separated columns).  Multiword-token lines (``3-4``) carry no
coreference; empty nodes (``3.1``) can be mention words and heads.

``Entity=`` brackets are read as udapi (which the CorefUD scorer uses) reads them:
``(e1-person-2`` opens a mention of entity ``e1`` whose head is its 2nd word,
``e1)`` closes the most recently opened mention of ``e1`` and takes every node of
the sentence up to the closing one (empty nodes inside the span included),
``(e5-event-1)`` is a one-node mention; ``(e3[1/2]-...`` ... ``(e3[2/2]-...``
are the parts of a discontinuous mention, whose head index is the one written
on its last part.  The head index counts the mention's nodes in order (empty
nodes included); a missing or 0 index means the first node.  The field names come
from ``# global.Entity`` (``eid`` or ``GRP`` names the entity; with ``GRP`` ids
are per document).  ``SplitAnte`` and ``Bridge`` are not scored.

Each node gets a *word key*, an int64 ordered as (sentence of the file, ord):
``sentence << 24 | int(ord) << 10 | thousandths of an empty node's ord``, so key and
response keys agree whatever empty nodes each side has.  Mentions are sets of
word keys (:class:`~fastscore.formats.table.Words`).
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field

import numpy as np

from ..errors import ParseError
from .files import read_text, reject_other_format, source_name
from .table import MentionTable, Words, offsets

SENTENCE_SHIFT = 24
ORD_SHIFT = 10
MAX_ORD = (1 << (SENTENCE_SHIFT - ORD_SHIFT)) - 1
_CHUNKS = re.compile(r"(\([^()]+\)?|[^()]+\))")
_DISCONTINUOUS = re.compile(r"^([^[]+)\[(\d+)/(\d+)\]")
_NEWDOC = re.compile(r"#\s*newdoc(?:\s+id\s*=\s*(.+))?$")
_SENT_ID = re.compile(r"#\s*sent_id\s*=?\s*(\S+)")
_GLOBAL_ENTITY = re.compile(r"#\s*global\.Entity\s*=\s*(\S+)")


def word_key(sentence: int, ord_text: str) -> int:
    """The key of a node: its sentence (of the file) and its ord (``7`` or ``7.1``)."""
    major, _, minor = ord_text.partition(".")
    thousandths = int((minor + "000")[:3]) if minor else 0
    return (sentence << SENTENCE_SHIFT) | (int(major) << ORD_SHIFT) | thousandths


def key_ord(key: int) -> int | float:
    """The ord the CorefUD scorer uses for a key: an int for a word, ``float("7.1")`` for an empty node."""
    major = (key >> ORD_SHIFT) & MAX_ORD
    minor = key & ((1 << ORD_SHIFT) - 1)
    return major if not minor else float(f"{major}.{minor:03d}".rstrip("0"))


@dataclass
class Sentence:
    sent_id: str
    line: int  # first line of the block
    forms: tuple[str, ...]  # forms of the regular words (what key and response must share)
    newdoc: str | bool | None  # the newdoc value on this sentence (True: without id)


@dataclass
class _Mention:
    eid: str
    words: list[int]  # node keys, in the order added
    line: int
    head: int | None = None  # node key


@dataclass
class ConlluFile:
    """What the reader found beyond the mentions: sentences (for the alignment check) and warnings."""

    path: str
    sentences: list[Sentence] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def read_conllu(path: str | os.PathLike) -> MentionTable:
    """Read a CoNLL-U file into a :class:`MentionTable` with :class:`Words`, its sentences (for the
    key/response alignment check) and the reader's warnings."""
    path = os.fspath(path)
    reader = _Reader(source_name(path), read_text(path))
    table = reader.read()
    table.sentences = reader.file.sentences
    table.warnings = reader.file.warnings
    return table


def check_alignment(key: MentionTable, response: MentionTable) -> None:
    """Key and response must have the same documents, sentence ids and word forms (empty nodes may
    differ): the first difference is an error (the CorefUD scorer zips the two files and silently scores
    a response with fewer sentences or words)."""
    ks, rs = key.sentences or [], response.sentences or []
    for k, r in zip(ks, rs):
        where = f"{response.path}:{r.line}: sentence {r.sent_id!r}"
        if k.newdoc != r.newdoc:
            raise ParseError(response.path, r.line, f"document boundary differs from the key ({key.path}:{k.line}): "
                                                    f"newdoc {_newdoc(r.newdoc)} where the key has {_newdoc(k.newdoc)}")
        if k.sent_id != r.sent_id:
            raise ParseError(response.path, r.line, f"sentence id {r.sent_id!r} where the key ({key.path}:{k.line}) "
                                                    f"has {k.sent_id!r}: key and response must have the same sentences")
        if k.forms != r.forms:
            n = next((i for i, (a, b) in enumerate(zip(k.forms, r.forms)) if a != b), min(len(k.forms), len(r.forms)))
            got = r.forms[n] if n < len(r.forms) else "(end of sentence)"
            want = k.forms[n] if n < len(k.forms) else "(end of sentence)"
            raise ParseError(response.path, r.line, f"{where[len(response.path) + 1:]}: word {n + 1} is {got!r} where "
                                                    f"the key ({key.path}:{k.line}) has {want!r}: key and response must "
                                                    "have the same words")
    if len(ks) != len(rs):
        more, fewer = (key, response) if len(ks) > len(rs) else (response, key)
        extra = (ks if len(ks) > len(rs) else rs)[min(len(ks), len(rs))]
        raise ParseError(fewer.path, None, f"{min(len(ks), len(rs))} sentences, but {more.path} has "
                                           f"{max(len(ks), len(rs))} (the first one more: {extra.sent_id!r} at line "
                                           f"{extra.line}): key and response must have the same sentences")


def _newdoc(value) -> str:
    return "(none)" if value is None else "(without id)" if value is True else repr(value)


class _Reader:
    def __init__(self, path: str, text: str):
        self.path = path
        self.text = text
        self.file = ConlluFile(path)
        self.fields: list[str] | None = None  # global.Entity field names
        self.entities: dict[str, list[_Mention]] = {}  # eid -> mentions, in creation order
        self.unfinished: dict[str, list[tuple[_Mention, int | None]]] = {}
        self.discontinuous: dict[str, list[_Mention]] = {}
        self.node_doc: dict[int, int] = {}  # sentence -> document index
        self.doc_names: list[str] = []
        self.doc_lines: list[int] = []
        self.doc_words: list[int] = []
        self.deps: dict[int, list[tuple[int, str]]] = {}  # head candidates' DEPS, parsed lazily
        self.raw_deps: dict[int, tuple[str, int]] = {}  # node key -> (DEPS text, line)
        self.empty_nodes: set[int] = set()
        self.node_keys: set[int] = set()
        self.linked: dict[str, tuple[int, str, str]] = {}  # entities named by Bridge / SplitAnte: where

    def fail(self, line: int | None, problem: str, doc: str | None = None):
        raise ParseError(self.path, line, problem, doc)

    # ---- lines to sentences

    def read(self) -> MentionTable:
        lines = self.text.split("\n")
        block: list[tuple[int, str]] = []
        for number, line in enumerate(lines, 1):
            line = line.rstrip("\r")
            if line.strip():
                block.append((number, line))
            elif block:
                self.sentence(block)
                block = []
        if block:
            self.sentence(block)
        if not self.file.sentences:
            reject_other_format(self.path, self.text, "conllu")
            self.fail(None, "no sentence: not a CoNLL-U file (or empty)")
        self.close_file()
        return self.table()

    def sentence(self, block: list[tuple[int, str]]) -> None:
        s = len(self.file.sentences)
        sent_id, newdoc = None, None
        nodes: list[tuple[int, str, int]] = []  # (key, MISC, line) of words and empty nodes
        forms: list[str] = []
        seen_keys: dict[int, str] = {}
        first_line = block[0][0]
        for number, line in block:
            if line.startswith("#"):
                m = _NEWDOC.match(line)
                if m:
                    newdoc = m.group(1).strip() if m.group(1) else True
                    continue
                m = _SENT_ID.match(line)
                if m:
                    sent_id = m.group(1)
                    continue
                m = _GLOBAL_ENTITY.match(line)
                if m:
                    self.global_entity(m.group(1), number)
                continue
            cols = line.split("\t")
            if len(cols) != 10:
                if not nodes and not forms and not self.file.sentences:
                    reject_other_format(self.path, self.text, "conllu")
                self.fail(number, f"token line with {len(cols)} tab-separated columns, expected 10 (CoNLL-U)",
                          self.current_doc_name(newdoc))
            ident = cols[0]
            if "-" in ident:  # a multiword token: its words have their own lines
                continue
            try:
                key = word_key(s, ident)
            except ValueError:
                self.fail(number, f"bad ID {ident!r} (expected 7, 7-8 or 7.1)", self.current_doc_name(newdoc))
            if "." in ident:
                if len(ident.partition(".")[2]) > 3:
                    self.fail(number, f"empty node {ident!r}: at most 3 digits after the point are read",
                              self.current_doc_name(newdoc))
                if key in seen_keys:
                    self.fail(number, f"empty nodes {seen_keys[key]!r} and {ident!r} are the same node to the CorefUD "
                                      "scorer (it reads the ids as numbers): renumber them",
                              self.current_doc_name(newdoc))
                self.empty_nodes.add(key)
            else:
                forms.append(cols[1])
            seen_keys[key] = ident
            self.node_keys.add(key)
            nodes.append((key, cols[9], number))
            if cols[8] != "_":
                self.raw_deps[key] = (cols[8], number)
        if newdoc is not None:
            self.start_document(newdoc, first_line)
        if not self.doc_names:
            self.fail(first_line, 'sentence before any "# newdoc" line: every sentence must belong to a document '
                                  '(add "# newdoc id = NAME")')
        previous = self.file.sentences[-1] if self.file.sentences else None
        if sent_id and previous is not None and previous.sent_id == sent_id:
            self.fail(first_line, f"sentence id {sent_id!r} again (as at line {previous.line}): sentence ids must "
                                  "differ (the CorefUD scorer stops here)", self.doc_names[-1])
        self.file.sentences.append(Sentence(sent_id or "", first_line, tuple(forms), newdoc))
        self.node_doc[s] = len(self.doc_names) - 1
        self.doc_words[-1] += len(forms)
        nodes.sort()  # udapi reads the Entity brackets of words and empty nodes in ord order
        order = [k for k, _, _ in nodes]
        for i, (key, misc, number) in enumerate(nodes):
            if "Entity=" in misc or "Bridge=" in misc or "SplitAnte=" in misc:
                for item in misc.split("|"):
                    if item.startswith("Entity="):
                        self.brackets(item[len("Entity="):], key, number, order, i)
                    elif item.startswith(("Bridge=", "SplitAnte=")):
                        self.links(item, number)

    def links(self, item: str, line: int) -> None:
        """Bridge and SplitAnte are not scored, but the entities they name must exist (the scorer stops)."""
        name, _, value = item.partition("=")
        for link in value.split(","):
            ante, sep, this = link.partition("<")
            if not sep:
                self.fail(line, f"{name} link {link!r} is not ANTECEDENT<ENTITY", self.doc_names[-1])
            for eid in (ante, this.split(":", 1)[0]):
                self.linked.setdefault(self.eid_of(eid), (line, self.doc_names[-1], name))

    def current_doc_name(self, newdoc) -> str | None:
        if isinstance(newdoc, str):
            return newdoc
        return self.doc_names[-1] if self.doc_names and newdoc is None else None

    def global_entity(self, value: str, line: int) -> None:
        fields = value.split("-")
        if "eid" not in fields and "GRP" not in fields:
            self.fail(line, f"global.Entity {value!r} names no eid (or GRP) field")
        self.fields = fields  # the last header of the file counts, as in udapi

    def start_document(self, newdoc, line: int) -> None:
        self.close_mentions()
        name = newdoc if isinstance(newdoc, str) else str(len(self.doc_names) + 1)
        if name in self.doc_names:  # the CorefUD scorer merges the two silently
            first = self.doc_lines[self.doc_names.index(name)]
            self.fail(line, f"the same document appears twice (first at line {first}): document names must be "
                            "unique", name)
        self.doc_names.append(name)
        self.doc_lines.append(line)
        self.doc_words.append(0)

    # ---- brackets

    def eid_of(self, value: str) -> str:
        return f"{len(self.doc_names)}:{value}" if self.fields and "GRP" in self.fields else value

    def brackets(self, value: str, key: int, line: int, order: list[int], index: int) -> None:
        doc = self.doc_names[-1]
        if self.fields is None:
            self.fail(line, 'Entity= annotation but no "# global.Entity = ..." header line', doc)
        for chunk in (c for c in _CHUNKS.split(value) if c):
            opening, closing = chunk[0] == "(", chunk[-1] == ")"
            body = chunk.strip("()")
            if not opening and not closing:
                self.fail(line, f"Entity chunk {chunk!r} has neither an opening nor a closing bracket", doc)
            if opening:
                self.open(body, closing, key, line)
            else:
                self.close(body, key, line, order, index)

    def open(self, body: str, closing: bool, key: int, line: int) -> None:
        doc = self.doc_names[-1]
        eid, head_idx = None, None
        for name, value in zip(self.fields, body.split("-")):
            if name in ("eid", "GRP"):
                eid = value
            elif name == "head":
                try:
                    head_idx = int(value)
                except ValueError:
                    self.fail(line, f"head index {value!r} of {body!r} is not a number", doc)
        if not eid:
            self.fail(line, f"Entity {body!r} has no entity id", doc)
        part, parts = None, None
        if eid.endswith("]"):
            m = _DISCONTINUOUS.match(eid)
            if not m:
                self.fail(line, f"entity id {eid!r} ends with ']' but is not a discontinuous part like e3[1/2]", doc)
            eid, part, parts = m.group(1), m.group(2), m.group(3)
        eid = self.eid_of(eid)
        if part is not None and part != "1":
            opened = [m for m, _ in self.unfinished.get(eid, [])]
            waiting = [m for m in self.discontinuous.get(eid, []) if all(m is not o for o in opened)]
            if not waiting:
                self.fail(line, f"part {part}/{parts} of a discontinuous mention of {eid!r} without its first part",
                          doc)
            mention = waiting[0]
            mention.words.append(key)
            if closing and part == parts:
                self.discontinuous[eid].pop()
                if head_idx is None:
                    self.fail(line, f"the last part of a discontinuous mention of {eid!r} has no head index "
                                    "(the CorefUD scorer crashes here)", doc)
                self.set_head(mention, head_idx, mention.words, line, eid)
        else:
            mention = _Mention(eid, [key], line)
            self.entities.setdefault(eid, []).append(mention)
            if part is not None:
                self.discontinuous.setdefault(eid, []).append(mention)
        if not closing:
            self.unfinished.setdefault(eid, []).append((mention, head_idx))

    def close(self, body: str, key: int, line: int, order: list[int], index: int) -> None:
        doc = self.doc_names[-1]
        eid, part, parts = self.eid_of(body), None, None
        if eid not in self.unfinished or not self.unfinished[eid]:
            m = _DISCONTINUOUS.match(body)
            if m:
                eid, part, parts = self.eid_of(m.group(1)), m.group(2), m.group(3)
        stack = self.unfinished.get(eid)
        if not stack:
            self.fail(line, f"mention of {body!r} closed but not opened", doc)
        mention, head_idx = stack.pop()
        words = sorted(mention.words)
        last = words[-1]
        if last >> SENTENCE_SHIFT != key >> SENTENCE_SHIFT:
            self.fail(line, f"mention of {body!r} opened at line {mention.line} crosses a sentence boundary "
                            "(the CorefUD scorer does not read cross-sentence mentions)", doc)
        for k in order[:index + 1]:  # every node after the last word, up to this one
            if k > last:
                mention.words.append(k)
        if head_idx and (part is None or part == parts):
            self.set_head(mention, head_idx, sorted(mention.words), line, eid)
        if part is not None and part == parts:
            self.discontinuous[eid].pop()

    def set_head(self, mention: _Mention, head_idx: int, words: list[int], line: int, eid: str) -> None:
        if not 1 <= head_idx <= len(words):
            self.fail(line, f"head index {head_idx} of a mention of {eid!r} outside the mention's {len(words)} "
                            "node(s)", self.doc_names[-1])
        mention.head = words[head_idx - 1]

    def close_mentions(self) -> None:
        """Mentions still open at the end of a document (or file) are dropped, with a warning."""
        for eid, stack in self.unfinished.items():
            for mention, _ in stack:
                self.file.warnings.append(f"{self.path}:{mention.line}: mention of {eid!r} opened but never closed: "
                                          "ignored (as the CorefUD scorer does)")
                self.entities[eid].remove(mention)
        self.unfinished = {}

    def close_file(self) -> None:
        self.close_mentions()
        self.entities = {e: ms for e, ms in self.entities.items() if ms}
        for eid, (line, doc, name) in self.linked.items():
            if eid not in self.entities:
                self.fail(line, f"{name} names entity {eid.split(':', 1)[-1]!r}, which has no mention (the CorefUD "
                                "scorer stops here)", doc)

    # ---- the table

    def table(self) -> MentionTable:
        """Mentions grouped by document and entity: entities in the order of their first mention, mentions
        sorted as udapi sorts them (first node; the longer first; last node); an entity whose mentions lie in
        two documents is one cluster per document."""
        for mentions in self.entities.values():
            for m in mentions:
                m.words = sorted(set(m.words))
                if m.head is None:
                    m.head = m.words[0]
            mentions.sort(key=_mention_order)
        # entities in the order of their first mention in the file (udapi), each split by document
        ordered = sorted(self.entities.items(), key=lambda e: _mention_order(e[1][0]) + (e[0],))
        by_doc: list[list[tuple[str, list[_Mention]]]] = [[] for _ in self.doc_names]
        for eid, mentions in ordered:
            per_doc: dict[int, list[_Mention]] = {}
            for m in mentions:
                per_doc.setdefault(self.node_doc[m.words[0] >> SENTENCE_SHIFT], []).append(m)
            for d, ms in per_doc.items():
                by_doc[d].append((eid, ms))
        rows: list[_Mention] = []
        cluster: list[int] = []
        labels: list[list[str]] = []
        sizes: list[int] = []
        for entities in by_doc:
            labels.append([eid.split(":", 1)[-1] for eid, _ in entities])
            n = 0
            for c, (_, ms) in enumerate(entities):
                rows.extend(ms)
                cluster.extend([c] * len(ms))
                n += len(ms)
            sizes.append(n)
        words = self.words(rows)
        return MentionTable(
            path=self.path, doc_names=list(self.doc_names), doc_lines=np.asarray(self.doc_lines, dtype=np.int64),
            doc_tokens=np.asarray(self.doc_words, dtype=np.int64), doc_offsets=offsets(sizes),
            start=np.asarray([m.words[0] for m in rows], dtype=np.int64),
            end=np.asarray([m.words[-1] + 1 for m in rows], dtype=np.int64),
            cluster=np.asarray(cluster, dtype=np.int32), cluster_labels=labels, words=words)

    def words(self, rows: list[_Mention]) -> Words:
        heads = [m.head for m in rows]
        deps_off = [0]
        parents: list[int] = []
        rels: list[str] = []
        for m in rows:
            for parent, rel in self.head_deps(m.head):
                parents.append(parent)
                rels.append(rel)
            deps_off.append(len(parents))
        names = sorted(set(rels))
        code = {r: i for i, r in enumerate(names)}
        return Words(
            offsets=offsets([len(m.words) for m in rows]),
            keys=np.asarray([k for m in rows for k in m.words], dtype=np.int64),
            head=np.asarray(heads, dtype=np.int64),
            zero=np.asarray([h in self.empty_nodes for h in heads], dtype=bool),
            dep_offsets=np.asarray(deps_off, dtype=np.int64),
            dep_parent=np.asarray(parents, dtype=np.int64),
            dep_rel=np.asarray([code[r] for r in rels], dtype=np.int32),
            rel_names=names,
            lines=np.asarray([m.line for m in rows], dtype=np.int64))

    def head_deps(self, head: int) -> list[tuple[int, str]]:
        """The enhanced dependencies (DEPS) of a head node: (parent key, relation)."""
        if head in self.deps:
            return self.deps[head]
        raw = self.raw_deps.get(head)
        out: list[tuple[int, str]] = []
        if raw is not None:
            text, line = raw
            s = head >> SENTENCE_SHIFT
            for item in text.split("|"):
                parent, sep, rel = item.partition(":")
                try:
                    key = word_key(s, parent)
                except ValueError:
                    key = -1
                doc = self.doc_names[self.node_doc[s]]
                if not sep or key < 0:
                    self.fail(line, f"DEPS item {item!r} is not HEAD:RELATION", doc)
                if key not in self.node_keys and key != word_key(s, "0"):
                    self.fail(line, f"DEPS item {item!r} names node {parent!r}, which the sentence does not have "
                                    "(the CorefUD scorer crashes here)", doc)
                out.append((key, rel))
        self.deps[head] = out
        return out


def _mention_order(m: _Mention) -> tuple:
    """udapi's mention order: first node, then the longer mention first, then the last node."""
    return (m.words[0], -len(m.words), m.words[-1])
