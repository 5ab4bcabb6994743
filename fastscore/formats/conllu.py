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
_BLANK = re.compile(r"(\n[ \t]*\n)")


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
            raise ParseError(response.path, r.line, f"sentence {r.sent_id!r}: word {n + 1} is {got!r} where "
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
        self.deps: dict[int, list[tuple[int, str]]] = {}  # heads' DEPS, parsed when asked for
        self.empty_nodes: set[int] = set()
        self.sentence_lines: list[tuple[list[str], list[int], list[str]]] = []  # token lines, numbers, IDs
        self.index_cache: dict[int, dict[str, tuple[str, int]]] = {}
        self.linked: dict[str, tuple[int, str, str]] = {}  # entities named by Bridge / SplitAnte: where

    def fail(self, line: int | None, problem: str, doc: str | None = None):
        raise ParseError(self.path, line, problem, doc)

    # ---- lines to sentences

    def read(self) -> MentionTable:
        text = self.text.replace("\r\n", "\n") if "\r" in self.text else self.text
        line = 1
        pieces = _BLANK.split(text)  # sentences (blocks of lines), and the blank lines between them
        for n, piece in enumerate(pieces):
            if n % 2 == 0 and piece.strip():
                self.sentence(piece.split("\n"), line)
            line += piece.count("\n")
        if not self.file.sentences:
            reject_other_format(self.path, self.text, "conllu")
            self.fail(None, "no sentence: not a CoNLL-U file (or empty)")
        self.close_file()
        return self.table()

    def sentence(self, lines: list[str], first_line: int) -> None:
        """One block of lines (``first_line`` is the number of its first line)."""
        s = len(self.file.sentences)
        sent_id, newdoc = None, None
        toks: list[str] = []
        numbers: list[int] = []
        for k, line in enumerate(lines):
            if not line.strip():
                continue
            if line[0] != "#":
                toks.append(line)
                numbers.append(first_line + k)
                continue
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
                self.global_entity(m.group(1), first_line + k)
        block_line = numbers[0] if numbers else first_line
        if newdoc is not None:
            self.start_document(newdoc, first_line)
        doc = self.doc_names[-1] if self.doc_names else None
        for k, line in enumerate(toks):
            if line.count("\t") != 9:
                if not self.file.sentences and k == 0:
                    reject_other_format(self.path, self.text, "conllu")
                self.fail(numbers[k], f"token line with {line.count(chr(9)) + 1} tab-separated columns, expected 10 "
                                      "(CoNLL-U)", doc)
        if not self.doc_names:
            self.fail(block_line, 'sentence before any "# newdoc" line: every sentence must belong to a document '
                                  '(add "# newdoc id = NAME")')
        idents = [t[:t.index("\t")] for t in toks]
        regular = [x.isdigit() for x in idents]
        forms = tuple(t.split("\t", 2)[1] for t, r in zip(toks, regular) if r)
        previous = self.file.sentences[-1] if self.file.sentences else None
        if sent_id and previous is not None and previous.sent_id == sent_id:
            self.fail(block_line, f"sentence id {sent_id!r} again (as at line {previous.line}): sentence ids must "
                                  "differ (the CorefUD scorer stops here)", doc)
        self.file.sentences.append(Sentence(sent_id or "", block_line, forms, newdoc))
        self.node_doc[s] = len(self.doc_names) - 1
        self.doc_words[-1] += len(forms)
        self.sentence_lines.append((toks, numbers, idents))
        marked = [k for k, t in enumerate(toks) if "Entity=" in t or "Bridge=" in t or "SplitAnte=" in t]
        if not marked and all(regular):
            return
        nodes = self.nodes(s, idents, regular, numbers, doc)  # (key, index in toks), in ord order
        order = [key for key, _ in nodes]
        position = {k: n for n, (_, k) in enumerate(nodes)}
        for k in sorted(marked, key=position.__getitem__):  # udapi reads words and empty nodes in ord order
            misc = toks[k][toks[k].rindex("\t") + 1:]
            key = nodes[position[k]][0]
            for item in misc.split("|"):
                if item.startswith("Entity="):
                    self.brackets(item[len("Entity="):], key, numbers[k], order, position[k])
                elif item.startswith(("Bridge=", "SplitAnte=")):
                    self.links(item, numbers[k])

    def nodes(self, s: int, idents: list[str], regular: list[bool], numbers: list[int], doc) -> list[tuple[int, int]]:
        """(word key, line index) of the sentence's words and empty nodes, in ord order; checks the ids."""
        out = []
        seen: dict[int, str] = {}
        for k, (ident, plain) in enumerate(zip(idents, regular)):
            if plain:
                out.append(((s << SENTENCE_SHIFT) | (int(ident) << ORD_SHIFT), k))
                continue
            if "-" in ident:  # a multiword token: its words have their own lines
                continue
            try:
                key = word_key(s, ident)
            except ValueError:
                self.fail(numbers[k], f"bad ID {ident!r} (expected 7, 7-8 or 7.1)", doc)
            if len(ident.partition(".")[2]) > 3:
                self.fail(numbers[k], f"empty node {ident!r}: at most 3 digits after the point are read", doc)
            if key in seen:
                self.fail(numbers[k], f"empty nodes {seen[key]!r} and {ident!r} are the same node to the CorefUD "
                                      "scorer (it reads the ids as numbers): renumber them", doc)
            seen[key] = ident
            self.empty_nodes.add(key)
            out.append((key, k))
        out.sort()
        return out

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
        s = head >> SENTENCE_SHIFT
        doc = self.doc_names[self.node_doc[s]]
        lines = self.sentence_index(s)
        line_of = lines.get(key_ord_text(head))
        out: list[tuple[int, str]] = []
        if line_of is not None:
            text, number = line_of
            deps = text.split("\t")[8]
            for item in deps.split("|") if deps != "_" else []:
                parent, sep, rel = item.partition(":")
                try:
                    key = word_key(s, parent)
                except ValueError:
                    key = -1
                if not sep or key < 0:
                    self.fail(number, f"DEPS item {item!r} is not HEAD:RELATION", doc)
                if parent != "0" and parent not in lines:
                    self.fail(number, f"DEPS item {item!r} names node {parent!r}, which the sentence does not have "
                                      "(the CorefUD scorer crashes here)", doc)
                out.append((key, rel))
        self.deps[head] = out
        return out

    def sentence_index(self, s: int) -> dict[str, tuple[str, int]]:
        """ID -> (line, line number) of one sentence, built when a head of it is looked up."""
        cached = self.index_cache.get(s)
        if cached is None:
            toks, numbers, idents = self.sentence_lines[s]
            cached = self.index_cache[s] = {i: (t, n) for i, t, n in zip(idents, toks, numbers)}
        return cached


def key_ord_text(key: int) -> str:
    """The ID text of a node key as written in canonical form (``7``, ``7.1``)."""
    major = (key >> ORD_SHIFT) & MAX_ORD
    minor = key & ((1 << ORD_SHIFT) - 1)
    return str(major) if not minor else f"{major}.{minor:03d}".rstrip("0")


def _mention_order(m: _Mention) -> tuple:
    """udapi's mention order: first node, then the longer mention first, then the last node."""
    return (m.words[0], -len(m.words), m.words[-1])


# ---- conversion: a file's sentences as lines, and the writer


_SPEAKER = re.compile(r"#\s*speaker\s*=\s*(.*)$")
_ENTITY_ID = re.compile(r"[^\s()\[\]|=-]+")
DEFAULT_ENTITY_FIELDS = ("eid", "etype", "head", "other")


@dataclass
class Block:
    """A sentence of a CoNLL-U file as its lines (comments and token lines, ``\\r`` dropped), with what
    conversion needs: the document it starts, its id, its nodes and words."""

    lines: list[str]
    line: int  # number of the first line
    newdoc: str | bool | None  # as :class:`Sentence`
    sent_id: str | None
    nodes: list[str]  # ords of the words and empty nodes, in order (7, 7.1, 8)
    forms: list[str]  # forms of the words (not of empty nodes or multiword tokens)
    speaker: str | None = None  # a "# speaker = X" comment
    multiword: int = 0  # multiword-token lines


def read_conllu_blocks(path: str | os.PathLike) -> list[Block]:
    """The sentences of a CoNLL-U file, cut as :func:`read_conllu` cuts them (block ``i`` is the table's
    sentence ``i``: its word keys have ``i`` as sentence).  The file is expected to be valid (read with
    :func:`read_conllu` first)."""
    text = read_text(os.fspath(path))
    text = text.replace("\r\n", "\n") if "\r" in text else text
    blocks: list[Block] = []
    line = 1
    for n, piece in enumerate(_BLANK.split(text)):  # as the reader cuts the file
        if n % 2 == 0 and piece.strip():
            lines = piece.split("\n")
            first = next(i for i, x in enumerate(lines) if x.strip())
            blocks.append(_block([x for x in lines if x.strip()], line + first, len(blocks)))
        line += piece.count("\n")
    return blocks


def _block(lines: list[str], first: int, s: int) -> Block:
    block = Block(lines, first, None, None, [], [])
    keyed = []
    for line in lines:
        if line.startswith("#"):
            m = _NEWDOC.match(line)
            if m:
                block.newdoc = m.group(1).strip() if m.group(1) else True
            elif _SENT_ID.match(line):
                block.sent_id = _SENT_ID.match(line).group(1)
            elif _SPEAKER.match(line):
                block.speaker = _SPEAKER.match(line).group(1).strip()
            continue
        ident, form = line.split("\t", 2)[:2]
        if "-" in ident:
            block.multiword += 1
            continue
        keyed.append((word_key(s, ident), ident))
        if "." not in ident:
            block.forms.append(form)
    block.nodes = [ident for _, ident in sorted(keyed)]
    return block


def conllu_cell(text: str) -> str:
    """A word as a CoNLL-U column: tabs and line breaks as spaces, empty as ``_``."""
    return re.sub(r"[\t\n\r]", " ", text) or "_"


def sentence_id(doc_name: str, n: int) -> str:
    """A made-up sentence id: ``DOCUMENT-N``, the name's characters other than letters, digits, ``.`` and ``-``
    as ``_`` (udapi, which the CorefUD scorer uses, reads ``/`` in a sentence id as a zone)."""
    stem = re.sub(r"[^\w.-]+", "_", doc_name).strip("_") or "doc"
    return f"{stem}-{n}"


def make_block(sent_id: str, forms: list[str], newdoc: str | None = None, speaker: str | None = None) -> Block:
    """A sentence of the given words, with its id (and the document it starts): no lemma, tags or features;
    a flat tree (the first word the root, every other word ``dep`` of it)."""
    lines = [f"# newdoc id = {newdoc}"] if newdoc is not None else []
    lines.append(f"# sent_id = {sent_id}")
    if speaker is not None:
        lines.append(f"# speaker = {speaker}")
    words = [conllu_cell(f) for f in forms]
    lines.append("# text = " + " ".join(words))
    for i, word in enumerate(words, 1):
        head, rel = ("0", "root") if i == 1 else ("1", "dep")
        lines.append(f"{i}\t{word}\t_\t_\t_\t_\t{head}\t{rel}\t_\t_")
    return Block(lines, 0, newdoc, sent_id, [str(i) for i in range(1, len(words) + 1)], words, speaker)


def write_conllu(table: MentionTable, path, blocks: list[Block] | None = None, *,
                 sentences: list[list[list[str]]] | None = None, labels: list[list[str]] | None = None,
                 fields: list[dict | None] | None = None, heads: bool = True, links: bool = True) -> None:
    """Write a table as CoNLL-U with CorefUD ``Entity=`` annotations; reading it back gives the same
    mentions (word sets), heads and entities.

    A table with :class:`Words` (read from CoNLL-U) is written into ``blocks``, the sentences its word keys
    count (:func:`read_conllu_blocks`): every line is kept but the ``Entity=`` items of MISC, which are
    written anew, and the ``# global.Entity`` lines, which name the fields written (the blocks' own, plus
    ``head`` if they lack it; else ``eid-etype-head-other``).  A table of spans (CoNLL-2012, jsonlines) is
    written into sentences made of ``sentences`` (per document, its sentences' words; without them one
    sentence of ``_`` per document) with ids ``DOCUMENT-N``.

    A mention is written as its runs of consecutive nodes: one run is an ordinary mention, several the
    parts ``[i/n]`` of a discontinuous one.  ``labels``: per document the entity id of each cluster (by
    default the table's labels where they are valid ids, else ``e1``, ``e2``, ... over the file).
    ``fields``: per mention (row), the values of the other Entity fields (``{"etype": "person"}``).
    ``heads``: write every head index (else only those that are not the mention's first node, or needed).
    ``links``: keep the blocks' ``Bridge`` and ``SplitAnte`` items (False: drop them, when they name the
    entities of another annotation).
    ``path`` may be an open text stream."""
    if table.words is None:
        table, blocks = _spans_to_words(table, sentences)
    elif blocks is None:
        raise ValueError("a table with words (CoNLL-U) is written into the sentences its keys count: give blocks")
    labels = labels if labels is not None else _entity_labels(table)
    header = _header_fields(blocks)
    items = _entity_items(table, blocks, labels, header, fields, heads)
    if items.needs_head and "head" not in header:
        header = header + ("head",)
    header_line = "# global.Entity = " + "-".join(header)
    with _opened(path) as fh:
        placed = any(_GLOBAL_ENTITY.match(x) for b in blocks for x in b.lines if x.startswith("#"))
        for s, block in enumerate(blocks):
            out = []
            for line in block.lines:
                if line.startswith("#"):
                    if _GLOBAL_ENTITY.match(line):
                        line = header_line
                    out.append(line)
                    if not placed and _NEWDOC.match(line):
                        out.append(header_line)
                        placed = True
                    continue
                cols = line.split("\t")
                if "-" not in cols[0]:
                    cols[9] = _misc(cols[9], items.chunks.get(word_key(s, cols[0])), links)
                out.append("\t".join(cols))
            if not placed:
                out.insert(0, header_line)
                placed = True
            fh.write("\n".join(out) + "\n\n")


def _opened(path):
    """A path opened for writing (UTF-8, "\\n" line ends), or an open text stream used as it is."""
    import contextlib

    return contextlib.nullcontext(path) if hasattr(path, "write") else open(path, "w", encoding="utf-8", newline="\n")


def _misc(misc: str, chunks: str | None, links: bool = True) -> str:
    """MISC with its Entity= items replaced by ``Entity=chunks`` (and without Bridge and SplitAnte unless
    ``links``)."""
    items = [] if misc == "_" else misc.split("|")
    at = next((i for i, x in enumerate(items) if x.startswith("Entity=")), 0)
    drop = ("Entity=",) if links else ("Entity=", "Bridge=", "SplitAnte=")
    items = [x for x in items if not x.startswith(drop)]
    if chunks:
        items.insert(min(at, len(items)), "Entity=" + chunks)
    return "|".join(items) or "_"


def _header_fields(blocks: list[Block]) -> tuple[str, ...]:
    """The Entity fields the blocks declare (their last ``# global.Entity``), or CorefUD's default."""
    fields = None
    for block in blocks:
        for line in block.lines:
            if line.startswith("#"):
                m = _GLOBAL_ENTITY.match(line)
                if m:
                    fields = tuple(m.group(1).split("-"))
    return fields or DEFAULT_ENTITY_FIELDS


def _entity_labels(table: MentionTable) -> list[list[str]]:
    labels = table.cluster_labels
    if all(_ENTITY_ID.fullmatch(x) for doc in labels for x in doc):
        return labels
    out, n = [], 0
    for doc in labels:
        out.append([f"e{n + c + 1}" for c in range(len(doc))])
        n += len(doc)
    return out


def _spans_to_words(table: MentionTable, sentences) -> tuple[MentionTable, list[Block]]:
    """A span table as a table of word keys over sentences made of ``sentences`` (heads: first words)."""
    blocks: list[Block] = []
    where: list[np.ndarray] = []  # per document: word index -> key
    for d, name in enumerate(table.doc_names):
        doc_sentences = sentences[d] if sentences is not None else [["_"] * int(table.doc_tokens[d])]
        keys = []
        for i, forms in enumerate(doc_sentences):
            s = len(blocks)
            blocks.append(make_block(sentence_id(name, i + 1), forms, newdoc=name if i == 0 else None))
            keys.extend(word_key(s, str(k)) for k in range(1, len(forms) + 1))
        if len(keys) != int(table.doc_tokens[d]):
            raise ValueError(f"document {name!r}: {len(keys)} words for {int(table.doc_tokens[d])} tokens")
        where.append(np.asarray(keys, dtype=np.int64))
    sizes, flat = [], []
    for d in range(table.n_docs):
        lo, hi = int(table.doc_offsets[d]), int(table.doc_offsets[d + 1])
        for s, e in zip(table.start[lo:hi].tolist(), table.end[lo:hi].tolist()):
            ks = where[d][s:e]
            sizes.append(len(ks))
            flat.append(ks)
    n = len(table.start)
    keys = np.concatenate(flat) if flat else np.zeros(0, dtype=np.int64)
    off = offsets(sizes)
    words = Words(off, keys, keys[off[:-1]] if n else np.zeros(0, dtype=np.int64), np.zeros(n, dtype=bool),
                  np.zeros(n + 1, dtype=np.int64), np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int32), [],
                  np.zeros(n, dtype=np.int64))
    out = MentionTable(table.path, list(table.doc_names), table.doc_lines, table.doc_tokens, table.doc_offsets,
                       np.asarray([k[0] if len(k) else 0 for k in flat], dtype=np.int64),
                       np.asarray([k[-1] + 1 if len(k) else 0 for k in flat], dtype=np.int64),
                       table.cluster, table.cluster_labels, words)
    return out, blocks


@dataclass
class _Items:
    chunks: dict  # node key -> its Entity value
    needs_head: bool


def _entity_items(table: MentionTable, blocks: list[Block], labels, header: tuple[str, ...], fields,
                  heads: bool) -> _Items:
    """The Entity value of every node, built as udapi writes it (so that its reader, and fastscore's, pair
    the brackets back): mentions and parts in udapi's order (first node; the longer first; last node; id),
    an opening appended to its first node, a closing put in front of its last node's value, a one-node
    mention placed among the others by udapi's rules."""
    position: dict[int, tuple[int, int]] = {}  # node key -> (sentence, index among its nodes)
    for s, block in enumerate(blocks):
        for i, ident in enumerate(block.nodes):
            position[word_key(s, ident)] = (s, i)
    words = table.words
    needs_head = False
    id_field = next((f for f in header if f in ("eid", "GRP")), None)
    if id_field is None:
        raise ValueError(f"global.Entity {'-'.join(header)!r} names no eid (or GRP) field")
    spans = []  # (first node, -length, last node, id, body)
    for d in range(table.n_docs):
        for row in range(int(table.doc_offsets[d]), int(table.doc_offsets[d + 1])):
            keys = words.keys[words.offsets[row]:words.offsets[row + 1]].tolist()
            if not keys:
                continue
            try:
                at = [position[k] for k in keys]
            except KeyError as exc:
                raise ValueError(f"document {table.doc_names[d]!r}: a mention's node {exc.args[0]} is not in the "
                                 "sentences") from None
            runs: list[list[int]] = [[keys[0]]]
            for j in range(1, len(keys)):
                (s0, i0), (s1, i1) = at[j - 1], at[j]
                if s1 == s0 and i1 == i0 + 1:
                    runs[-1].append(keys[j])
                else:
                    runs.append([keys[j]])
            head = int(words.head[row])
            head_index = keys.index(head) + 1 if head in keys else 1
            label = labels[d][int(table.cluster[row])]
            extra = (fields[row] or {}) if fields is not None else {}
            for p, run in enumerate(runs, 1):
                eid = label if len(runs) == 1 else f"{label}[{p}/{len(runs)}]"
                values = []
                for name in header:
                    if name == id_field:
                        values.append(eid)
                    elif name == "head":
                        values.append(str(head_index) if heads or head_index != 1 or len(runs) > 1 else "")
                    else:
                        values.append(str(extra.get(name, "")))
                if "head" not in header and (head_index != 1 or len(runs) > 1):
                    needs_head = True
                    values.append(str(head_index))
                while values and values[-1] == "":
                    values.pop()
                if "head" in header:
                    h = header.index("head")
                    if h < len(values) and values[h] == "":
                        values[h] = "1"  # an empty head index between other fields is an error; 1 = the first node
                spans.append((run[0], -len(run), run[-1], eid, "-".join(values)))
    spans.sort()
    value: dict[int, str] = {}
    for first, minus_len, last, eid, body in spans:
        here = value.get(first, "")
        if minus_len == -1:
            single = f"({body})"
            if not here or here[-1] != ")":
                value[first] = here + single
            elif "(" not in here:
                value[first] = single + here
            elif any(c and c[0] == "(" and c[-1] != ")" for c in _CHUNKS.split(here)):
                value[first] = here + single
            else:
                value[first] = single + here
        else:
            value[first] = here + f"({body}"
            value[last] = f"{eid})" + value.get(last, "")
    return _Items(value, needs_head)


def entity_fields(table: MentionTable, blocks: list[Block]) -> list[dict]:
    """Per mention (row of a table read from the file of ``blocks``), the values of its Entity fields other
    than the id and the head (``etype``, ``other``, ...), from the opening bracket of its first part: what
    :func:`write_conllu` needs to write them again."""
    found: dict[tuple[str, int], list[dict]] = {}
    header: list[str] | None = None
    for s, block in enumerate(blocks):
        for line in block.lines:
            if line.startswith("#"):
                m = _GLOBAL_ENTITY.match(line)
                if m:
                    header = m.group(1).split("-")
                continue
            cols = line.split("\t")
            if "-" in cols[0] or "Entity=" not in cols[9] or header is None:
                continue
            key = word_key(s, cols[0])
            for item in cols[9].split("|"):
                if not item.startswith("Entity="):
                    continue
                for chunk in _CHUNKS.split(item[len("Entity="):]):
                    if not chunk.startswith("("):
                        continue
                    values = dict(zip(header, chunk.strip("()").split("-")))
                    eid = values.get("eid", values.get("GRP", ""))
                    m = _DISCONTINUOUS.match(eid)
                    if m:
                        if m.group(2) != "1":
                            continue
                        eid = m.group(1)
                    found.setdefault((eid, key), []).append(
                        {k: v for k, v in values.items() if k not in ("eid", "GRP", "head") and v})
    words = table.words
    out = []
    for d in range(table.n_docs):
        for row in range(int(table.doc_offsets[d]), int(table.doc_offsets[d + 1])):
            first = int(words.keys[words.offsets[row]]) if words.offsets[row + 1] > words.offsets[row] else -1
            waiting = found.get((table.cluster_labels[d][int(table.cluster[row])], first))
            out.append(waiting.pop(0) if waiting else {})
    return out
