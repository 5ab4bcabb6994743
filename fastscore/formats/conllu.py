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

A file is first read by the byte scanners of ``kernels/conllu_scan.py`` (:func:`_read_fast`), which read
regular files only -- canonical IDs in ord order, no problem to report, no mention left open -- and leave
every other file (and every file when the kernels run as plain Python) to :class:`_Reader`, whose table
and messages they reproduce exactly.
"""
from __future__ import annotations

import os
import re
from abc import abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from ..errors import InputError, ParseError
from ..first_run import jit_disabled
from ..outputs import writable
from .files import Part, decode_utf8, read_bytes, read_part, read_text, reject_other_format, source_name
from .table import MentionTable, Words, gather_csr, offsets

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


class _MadeSentences(Sequence):
    """Sentences kept as columns, made into :class:`Sentence` objects when asked for (``_sentence(b)``)."""

    def __getitem__(self, b):
        if isinstance(b, slice):
            return [self[i] for i in range(*b.indices(len(self)))]
        if b < 0:
            b += len(self)
        if not 0 <= b < len(self):
            raise IndexError(b)
        return self._sentence(b)

    @abstractmethod
    def _sentence(self, b: int) -> Sentence:
        """Sentence ``b`` (0 <= b < len)."""


class SentenceDigests(_MadeSentences):
    """Sentences as a mention table file keeps them (:func:`sentences_to_meta`): ids, first lines, document
    starts, and a digest of each sentence's word forms in place of the forms (an 8-byte BLAKE2b of the forms
    joined by NUL), which is what the key/response check compares."""

    def __init__(self, ids: list[str], lines: list[int], newdoc: dict[int, str | bool], digests: bytes,
                 source: str | None = None):
        if len(lines) != len(ids) or len(digests) != DIGEST_BYTES * len(ids):
            raise ValueError(f"{len(ids)} sentence ids, {len(lines)} lines, {len(digests)} bytes of digests")
        self.ids, self.lines, self.newdoc, self.digests = ids, lines, newdoc, digests
        self.source = source  # the CoNLL-U file they were read from (the lines are its lines)

    def __len__(self) -> int:
        return len(self.ids)

    def _sentence(self, b: int) -> Sentence:
        return Sentence(self.ids[b], self.lines[b], (self.digests[DIGEST_BYTES * b:DIGEST_BYTES * (b + 1)],),
                        self.newdoc.get(b))


DIGEST_BYTES = 8


def as_digests(sentences: Sequence[Sentence]) -> SentenceDigests:
    """Any sentences (read from a file, or kept by a mention table file) as :class:`SentenceDigests`."""
    if isinstance(sentences, SentenceDigests):
        return sentences
    from hashlib import blake2b

    ids, lines, newdoc, digests = [], [], {}, []
    for i, s in enumerate(sentences):
        ids.append(s.sent_id)
        lines.append(s.line)
        if s.newdoc is not None:
            newdoc[i] = s.newdoc
        digests.append(blake2b("\0".join(s.forms).encode("utf-8"), digest_size=DIGEST_BYTES).digest())
    return SentenceDigests(ids, lines, newdoc, b"".join(digests))


def sentences_to_meta(sentences: Sequence[Sentence]) -> dict:
    """What a mention table file keeps of a CoNLL-U file's sentences (JSON): ids, lines, document starts,
    and the digests of their forms (hexadecimal)."""
    d = as_digests(sentences)
    return {"ids": d.ids, "lines": [int(x) for x in d.lines], "newdoc": {str(k): v for k, v in d.newdoc.items()},
            "digests": d.digests.hex()}


def sentences_from_meta(meta: dict, source: str | None = None) -> SentenceDigests:
    """The inverse of :func:`sentences_to_meta` (a ValueError, KeyError or TypeError when it is not that)."""
    return SentenceDigests([str(x) for x in meta["ids"]], [int(x) for x in meta["lines"]],
                           {int(k): v for k, v in meta["newdoc"].items()}, bytes.fromhex(meta["digests"]), source)


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


def read_conllu(path: str | os.PathLike | Part) -> MentionTable:
    """Read a CoNLL-U file into a :class:`MentionTable` with :class:`Words`, its sentences (for the
    key/response alignment check) and the reader's warnings.  A batch of a large file
    (:class:`~fastscore.formats.conllu_batches.ConlluPart`) is read as the file's reader would read those
    documents: sentences numbered, id-less documents named and the ``# global.Entity`` header in force as
    the lines before it make them (the order of entities first used in earlier batches is set afterwards,
    by :func:`~fastscore.formats.conllu_batches.in_context`)."""
    start = path if isinstance(path, Part) else None
    if start is not None:
        name, data = start.path, read_part(start)
    else:
        name, data = source_name(os.fspath(path)), read_bytes(os.fspath(path))
    table = _read_fast(name, data, start)
    if table is None:
        reader = _Reader(name, decode_utf8(name, data, start.line if start else 0), start)
        table = reader.read()
        table.sentences = reader.file.sentences
        table.warnings = reader.file.warnings
        if start is not None:
            table.batch = BatchFacts(reader.grp_docs, start.docs_before, reader.unresolved)
    if start is not None:
        _shift_sentences(table, start.sentences_before)
        table.batch.left_open, table.batch.continued = discontinuous_parts(data, start.line)
    return table


@dataclass
class BatchFacts:
    """What the reader of a batch found that only the whole file can settle: the documents whose entity ids
    are per document (``GRP``), and Bridge/SplitAnte links to entities without a mention in the batch
    (entity, line, document, attribute), which may have mentions in another batch."""

    grp: list[bool]
    docs_before: int  # the documents of the file before the batch
    unresolved: list[tuple[str, int, str, str]] = field(default_factory=list)
    # discontinuous mentions: ids with one left incomplete at the batch's end (-> the line of its first part),
    # ids with a later part in the batch (the reader completes the oldest waiting mention of an id, whatever
    # its document)
    left_open: dict[str, int] = field(default_factory=dict)
    continued: set[str] = field(default_factory=set)


_PART = re.compile(rb"\[\d+/\d+\]")  # a discontinuous part's marker (searched first: most batches have none)
_OPENED_PART = re.compile(rb"\(([^()\[\]|\s]+)\[(\d+)/(\d+)\]")


def discontinuous_parts(data: bytes, lines_before: int) -> tuple[dict[str, int], set[str]]:
    """(ids with a discontinuous mention left incomplete -> the line of its first part, ids with a part after
    the first) of a batch's ``Entity=`` values: a first part opens a mention, the last part completes it."""
    if not _PART.search(data):
        return {}, set()
    waiting: dict[str, list[int]] = {}
    continued: set[str] = set()
    for m in _OPENED_PART.finditer(data):
        eid, part, parts = m.group(1).decode("utf-8", "replace"), int(m.group(2)), int(m.group(3))
        if part == 1:
            waiting.setdefault(eid, []).append(m.start())
            continue
        continued.add(eid)
        if part == parts and waiting.get(eid):
            waiting[eid].pop(0)
    left = {eid: lines_before + data.count(b"\n", 0, at[0]) + 1 for eid, at in waiting.items() if at}
    return left, continued


def _shift_sentences(table: MentionTable, sentences_before: int) -> None:
    """Word keys of a batch made the file's: its sentences come after ``sentences_before`` others."""
    if not sentences_before:
        return
    shift = np.int64(sentences_before) << SENTENCE_SHIFT
    words = table.words
    table.start, table.end = table.start + shift, table.end + shift
    words.keys, words.head, words.dep_parent = words.keys + shift, words.head + shift, words.dep_parent + shift


def document_again(first_line: int) -> str:
    return f"the same document appears twice (first at line {first_line}): document names must be unique"


def repeated_sentence_id(sent_id: str, previous_line: int) -> str:
    return (f"sentence id {sent_id!r} again (as at line {previous_line}): sentence ids must differ (the CorefUD "
            "scorer stops here)")


def entity_without_mention(attribute: str, eid: str) -> str:
    return f"{attribute} names entity {eid.split(':', 1)[-1]!r}, which has no mention (the CorefUD scorer stops here)"


def heads_outside_warning(count: int, first: str) -> str:
    return (f"{count} head index(es) outside their mention, read as the CorefUD scorer reads them: ignored on a "
            "one-node mention (its node is its head), 0 on the one-node last part of a discontinuous mention taken "
            f"as that part's node; first: {first}")


def check_alignment(key: MentionTable, response: MentionTable) -> None:
    """Key and response must have the same documents, sentence ids and word forms (empty nodes may
    differ): the first difference is an error (the CorefUD scorer zips the two files and silently scores
    a response with fewer sentences or words).  A side read from a mention table file has digests of its
    forms: messages then name the sentence, not the word, and the lines of the file it was converted from."""
    for table in (key, response):
        if table.sentences is None:
            raise InputError(f"{table.path}: a CoNLL-U mention table without its sentences (MentionTable.from_arrow "
                             "gives such tables): key and response cannot be checked to hold the same words; score "
                             "the CoNLL-U files, or tables written by fastscore convert --to parquet|arrow")
    ks, rs = key.sentences, response.sentences
    if isinstance(ks, _Sentences) and isinstance(rs, _Sentences) and ks.same(rs):
        return
    kpath, rpath = _lines_of(key), _lines_of(response)
    digests = isinstance(ks, SentenceDigests) or isinstance(rs, SentenceDigests)
    if digests:
        ks, rs = as_digests(ks), as_digests(rs)
    for k, r in zip(ks, rs):
        if k.newdoc != r.newdoc:
            raise ParseError(rpath, r.line, f"document boundary differs from the key ({kpath}:{k.line}): "
                                            f"newdoc {_newdoc(r.newdoc)} where the key has {_newdoc(k.newdoc)}")
        if k.sent_id != r.sent_id:
            raise ParseError(rpath, r.line, f"sentence id {r.sent_id!r} where the key ({kpath}:{k.line}) "
                                            f"has {k.sent_id!r}: key and response must have the same sentences")
        if k.forms != r.forms and digests:
            raise ParseError(rpath, r.line, f"sentence {r.sent_id!r}: its words differ from the key's "
                                            f"({kpath}:{k.line}): key and response must have the same words")
        if k.forms != r.forms:
            n = next((i for i, (a, b) in enumerate(zip(k.forms, r.forms)) if a != b), min(len(k.forms), len(r.forms)))
            got = r.forms[n] if n < len(r.forms) else "(end of sentence)"
            want = k.forms[n] if n < len(k.forms) else "(end of sentence)"
            raise ParseError(rpath, r.line, f"sentence {r.sent_id!r}: word {n + 1} is {got!r} where "
                                            f"the key ({kpath}:{k.line}) has {want!r}: key and response must "
                                            "have the same words")
    if len(ks) != len(rs):
        more, fewer = (kpath, rpath) if len(ks) > len(rs) else (rpath, kpath)
        extra = (ks if len(ks) > len(rs) else rs)[min(len(ks), len(rs))]
        raise ParseError(fewer, None, f"{min(len(ks), len(rs))} sentences, but {more} has "
                                      f"{max(len(ks), len(rs))} (the first one more: {extra.sent_id!r} at line "
                                      f"{extra.line}): key and response must have the same sentences")


def _lines_of(table: MentionTable) -> str:
    """The file whose lines a table's sentences give (a mention table file's: the CoNLL-U file it was
    converted from)."""
    return getattr(table.sentences, "source", None) or table.path


def _newdoc(value) -> str:
    return "(none)" if value is None else "(without id)" if value is True else repr(value)


class _Reader:
    def __init__(self, path: str, text: str, start: Part | None = None):
        self.path = path
        self.text = text
        self.start = start  # a batch of a large file (ConlluPart), or None
        self.docs_before = start.docs_before if start is not None else 0
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
        self.grp_docs: list[bool] = []  # per document: entity ids are per document (GRP)
        self.unresolved: list[tuple[str, int, str, str]] = []  # a batch's links to entities it has no mention of
        self.heads_outside: list[str] = []  # head indices outside their mention that udapi reads anyway: where
        if start is not None and start.entity_fields is not None:
            self.global_entity(*start.entity_fields)  # the header in force where the batch starts

    def fail(self, line: int | None, problem: str, doc: str | None = None):
        raise ParseError(self.path, line, problem, doc)

    # ---- lines to sentences

    def read(self) -> MentionTable:
        text = self.text.replace("\r\n", "\n") if "\r" in self.text else self.text
        line = 1 + (self.start.line if self.start is not None else 0)
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
        regular = [x.isdecimal() for x in idents]  # what int() reads ("²" is a digit, not a decimal)
        forms = tuple(t.split("\t", 2)[1] for t, r in zip(toks, regular) if r)
        previous = self.file.sentences[-1] if self.file.sentences else None
        if sent_id and previous is not None and previous.sent_id == sent_id:
            self.fail(block_line, repeated_sentence_id(sent_id, previous.line), doc)
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
        for k in marked:
            if k not in position:  # a multiword-token line: udapi keeps its MISC apart from the words'
                self.fail(numbers[k], f"coreference on the multiword-token line {idents[k]!r}: write it on the lines "
                                      "of its words", doc)
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

    def global_entity(self, value: str, line: int) -> None:
        fields = value.split("-")
        if "eid" not in fields and "GRP" not in fields:
            self.fail(line, f"global.Entity {value!r} names no eid (or GRP) field")
        self.fields = fields  # the last header of the file counts, as in udapi

    def start_document(self, newdoc, line: int) -> None:
        self.close_mentions()
        name = newdoc if isinstance(newdoc, str) else str(self.docs_before + len(self.doc_names) + 1)
        if name in self.doc_names:  # the CorefUD scorer merges the two silently
            first = self.doc_lines[self.doc_names.index(name)]
            self.fail(line, document_again(first), name)
        self.doc_names.append(name)
        self.doc_lines.append(line)
        self.doc_words.append(0)
        self.grp_docs.append(bool(self.fields) and "GRP" in self.fields)

    # ---- brackets

    def eid_of(self, value: str) -> str:
        return f"{self.docs_before + len(self.doc_names)}:{value}" if self.fields and "GRP" in self.fields else value

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
                self.fail(line, f"part {part}/{parts} of a discontinuous mention of {eid!r} without its first part"
                          + (" in this batch of the file (an earlier document may have left one incomplete, which "
                             "the CorefUD scorer would complete: read the file whole, with a larger --batch-size)"
                             if self.start is not None else ""), doc)
            mention = waiting[0]
            mention.words.append(key)
            if closing and part == parts:
                self.discontinuous[eid].pop()
                if head_idx is None:
                    self.fail(line, f"the last part of a discontinuous mention of {eid!r} has no head index "
                                    "(the CorefUD scorer crashes here)", doc)
                if head_idx == 0:  # udapi takes words[-1] here: the node just added
                    self.heads_outside.append(f"{self.path}:{line}")
                    mention.head = mention.words[-1]
                else:
                    self.set_head(mention, head_idx, mention.words, line, eid)
        else:
            if closing and part is None and head_idx is not None and head_idx > 1:  # udapi never reads it
                self.heads_outside.append(f"{self.path}:{line}")
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
            if not self.discontinuous.get(eid):
                self.fail(line, f"{body!r} closes part {part}/{parts} of a discontinuous mention, but the mention of "
                                f"{eid!r} opened at line {mention.line} is not discontinuous", doc)
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
        if self.heads_outside:
            self.file.warnings.append(heads_outside_warning(len(self.heads_outside), self.heads_outside[0]))
        self.entities = {e: ms for e, ms in self.entities.items() if ms}
        for eid, (line, doc, name) in self.linked.items():
            if eid in self.entities:
                continue
            if self.start is not None:  # a batch: the entity may have mentions in another batch of the file
                self.unresolved.append((eid, line, doc, name))
            else:
                self.fail(line, entity_without_mention(name, eid), doc)

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
    with writable(path) as fh:  # an open stream as it is, a path written safely
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


# ---- the fast path: the byte scanners of kernels/conllu_scan.py, the regular expressions above for the
# few comments they leave; any file they do not read as a regular file is read by _Reader instead (which
# then reports its problem as it always has)


class _Sentences(_MadeSentences):
    """The sentences of a file read by the fast path, as :class:`Sentence` objects made when asked for."""

    def __init__(self, data, sid_s, sid_e, sid_text, lines, newdoc, form_off, form_s, form_e, words):
        self.data = data  # uint8 array of the file
        self.sid_s, self.sid_e = sid_s, sid_e  # span of each sentence id (-1: see sid_text, else none)
        self.sid_text = sid_text  # block -> sentence id the regular expression read
        self.lines = lines
        self.newdoc = newdoc  # block -> newdoc value
        self.form_off, self.form_s, self.form_e = form_off, form_s, form_e
        self.words = words  # regular words per sentence

    def __len__(self) -> int:
        return len(self.lines)

    def sent_id(self, b: int) -> str:
        if b in self.sid_text:
            return self.sid_text[b]
        return self.data[self.sid_s[b]:self.sid_e[b]].tobytes().decode() if self.sid_s[b] >= 0 else ""

    def _sentence(self, b: int) -> Sentence:
        lo, hi = int(self.form_off[b]), int(self.form_off[b + 1])
        forms = tuple(self.data[s:e].tobytes().decode() for s, e in zip(self.form_s[lo:hi].tolist(),
                                                                          self.form_e[lo:hi].tolist()))
        return Sentence(self.sent_id(b), int(self.lines[b]), forms, self.newdoc.get(b))

    def same(self, other: _Sentences) -> bool:
        """The same sentences (ids, document starts, word forms) as ``other`` (lines aside)."""
        from ..kernels.conllu_scan import same_spans

        if len(self) != len(other) or self.newdoc != other.newdoc or not np.array_equal(self.words, other.words):
            return False
        if not same_spans(self.data, self.form_s, self.form_e, other.data, other.form_s, other.form_e).all():
            return False
        special = sorted(set(self.sid_text) | set(other.sid_text))
        if any(self.sent_id(b) != other.sent_id(b) for b in special):
            return False
        plain = np.ones(len(self), dtype=bool)
        plain[special] = False
        a_none, b_none = self.sid_s < 0, other.sid_s < 0
        if not np.array_equal(a_none[plain], b_none[plain]):
            return False
        both = plain & ~a_none
        return bool(same_spans(self.data, self.sid_s[both], self.sid_e[both], other.data, other.sid_s[both],
                               other.sid_e[both]).all())


def _read_fast(path: str, data: bytes, start: Part | None = None) -> MentionTable | None:
    """The table of a regular CoNLL-U file (or batch of one), or None (the file is for :class:`_Reader`; so
    is every file when the kernels run as plain Python, where the reader's own Python is faster)."""
    return None if jit_disabled() else _scan(path, data, start)


def _scan(path: str, data: bytes, start: Part | None = None) -> MentionTable | None:
    """:func:`_read_fast` whatever runs the kernels."""
    from ..kernels import conllu_scan as K

    if b"\r" in data:
        data = data.replace(b"\r\n", b"\n")
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    buf = np.frombuffer(data, dtype=np.uint8)
    (status, ls, le, kind, block, b_first, b_tok, b_sid_line, b_sid_s, b_sid_e,
     nb) = K.scan_lines(buf, *_WORDS[:3])
    if status or nb == 0:
        return None
    b_first, b_tok, b_sid_line = b_first[:nb], b_tok[:nb], b_sid_line[:nb]
    b_sid_s, b_sid_e = b_sid_s[:nb].copy(), b_sid_e[:nb].copy()
    newdoc: dict[int, str | bool] = {}
    sid_text: dict[int, str] = {}
    fields_at: dict[int, list[str]] = {}
    for i in np.flatnonzero(kind == K.KIND_PYTHON).tolist():
        line = data[ls[i]:le[i]].decode()
        b = int(block[i])
        m = _NEWDOC.match(line)
        if m:
            newdoc[b] = m.group(1).strip() if m.group(1) else True
            continue
        m = _SENT_ID.match(line)
        if m:
            if i > b_sid_line[b]:
                sid_text[b] = m.group(1)
            continue
        m = _GLOBAL_ENTITY.match(line)
        if m:
            fields = m.group(1).split("-")
            if "eid" not in fields and "GRP" not in fields:
                return None
            fields_at[b] = fields
    if 0 not in newdoc:
        return None  # a sentence before any document
    docs_before, line0 = (start.docs_before, start.line) if start is not None else (0, 0)
    if start is not None and start.entity_fields is not None and 0 not in fields_at:
        fields = start.entity_fields[0].split("-")  # the header in force where the batch starts
        if "eid" not in fields and "GRP" not in fields:
            return None
        fields_at[0] = fields
    # documents
    starts = sorted(newdoc)
    doc_names: list[str] = []
    for b in starts:
        name = newdoc[b] if isinstance(newdoc[b], str) else str(docs_before + len(doc_names) + 1)
        doc_names.append(name)
    if len(set(doc_names)) != len(doc_names):
        return None
    is_start = np.zeros(nb, dtype=np.int64)
    is_start[starts] = 1
    b_doc = np.cumsum(is_start) - 1
    # sentence ids: the same id twice in a row is an error
    sid_none = b_sid_s < 0
    for b in sid_text:
        sid_none[b] = False
    if nb > 1:
        pair = np.flatnonzero(~sid_none[1:] & ~sid_none[:-1])
        special = np.zeros(nb, dtype=bool)
        special[list(sid_text)] = True
        plain = pair[~special[pair] & ~special[pair + 1]]
        if K.same_spans(buf, b_sid_s[plain], b_sid_e[plain], buf, b_sid_s[plain + 1], b_sid_e[plain + 1]).any():
            return None
        odd = pair[special[pair] | special[pair + 1]]
        sid = lambda b: sid_text[b] if b in sid_text else data[b_sid_s[b]:b_sid_e[b]].decode()
        if any(sid(b) == sid(b + 1) for b in odd.tolist()):
            return None
    # the Entity fields in force in each block
    b_idpos = np.full(nb, -1, dtype=np.int64)
    b_headpos = np.full(nb, -1, dtype=np.int64)
    b_nfields = np.full(nb, -1, dtype=np.int64)
    b_grp = np.zeros(nb, dtype=bool)
    at = sorted(fields_at)
    for n, b in enumerate(at):
        fields = fields_at[b]
        ids = [k for k, f in enumerate(fields) if f in ("eid", "GRP")]
        heads = [k for k, f in enumerate(fields) if f == "head"]
        if len(ids) != 1 or len(heads) > 1:
            return None
        end = at[n + 1] if n + 1 < len(at) else nb
        b_idpos[b:end] = ids[0]
        b_headpos[b:end] = heads[0] if heads else -1
        b_nfields[b:end] = len(fields)
        b_grp[b:end] = "GRP" in fields
    n_open = data.count(b"(")
    n_links = data.count(b"Bridge=") + data.count(b"SplitAnte=")
    log_cap = 4 * n_open + 16
    while True:
        outside = np.zeros(2, dtype=np.int64)  # head indices udapi reads outside their mention: how many, first line
        (status, _, node_key, node_ds, node_de, form_s, form_e, b_words, m_eid, m_line, m_ev, m_ev_h, m_ev_cnt,
         log_m, log_k, e_s, e_e, e_tag, lk_line, lk_s, lk_e, lk_b, n_nodes, n_forms, n_m, n_log, n_e,
         n_lk) = K.parse_tokens(buf, ls, le, kind, block, b_doc, b_idpos, b_headpos, b_nfields, b_grp, n_open,
                                n_links, log_cap, *_WORDS[3:], outside)
        if status != K.FULL:
            break
        log_cap *= 4
    if status:
        return None
    node_key, node_ds, node_de = node_key[:n_nodes], node_ds[:n_nodes], node_de[:n_nodes]
    form_s, form_e = form_s[:n_forms], form_e[:n_forms]
    m_eid, m_line, m_ev, m_ev_h, m_ev_cnt = (x[:n_m] for x in (m_eid, m_line, m_ev, m_ev_h, m_ev_cnt))
    log_m, log_k = log_m[:n_log], log_k[:n_log]
    values = _texts(data, buf, e_s[:n_e], e_e[:n_e])
    tags = e_tag[:n_e]
    names = [f"{t + docs_before}:{v}" if t else v for v, t in zip(values, tags.tolist())] if tags.any() else values
    # Bridge and SplitAnte: the entities they name must exist
    if n_lk:
        known = set(names)
        for line, s, e, b in zip(lk_line[:n_lk].tolist(), lk_s[:n_lk].tolist(), lk_e[:n_lk].tolist(),
                                 lk_b[:n_lk].tolist()):
            _, _, value = data[s:e].decode().partition("=")
            for link in value.split(","):
                ante, sep, this = link.partition("<")
                if not sep:
                    return None
                for eid in (ante, this.split(":", 1)[0]):
                    if (f"{int(b_doc[b]) + 1 + docs_before}:{eid}" if b_grp[b] else eid) not in known:
                        return None  # the reader says so (or, for a batch, leaves it to the whole file)
    # each mention's words (sorted, without repeats) and head
    counts = np.bincount(log_m, minlength=n_m)
    log_off = offsets(counts)
    by_m = np.argsort(log_m, kind="stable")
    order = np.lexsort((log_k, log_m))
    lm, lk = log_m[order], log_k[order]
    keep = np.ones(n_log, dtype=bool)
    keep[1:] = (lm[1:] != lm[:-1]) | (lk[1:] != lk[:-1])
    w_keys = lk[keep]
    w_off = offsets(np.bincount(lm[keep], minlength=n_m))
    first = w_keys[w_off[:-1]] if n_m else np.zeros(0, dtype=np.int64)
    last = w_keys[w_off[1:] - 1] if n_m else np.zeros(0, dtype=np.int64)
    size = np.diff(w_off)
    status, _, heads = K.mention_heads(log_off, log_k[by_m], m_ev, m_ev_h, m_ev_cnt, first)
    if status:
        return None
    # rows: by document, entity (in the order of its first mention, then its id), mention (udapi's order)
    mention_order = np.lexsort((np.arange(n_m), last, -size, first, m_eid))  # by entity, then udapi's order
    e_first = np.full(n_e, -1, dtype=np.int64)
    sorted_eid = m_eid[mention_order]
    starts_e = np.flatnonzero(np.r_[True, sorted_eid[1:] != sorted_eid[:-1]]) if n_m else np.zeros(0, np.int64)
    e_first[sorted_eid[starts_e]] = mention_order[starts_e]
    ef = e_first
    e_key = (first[ef], -size[ef], last[ef])
    e_order = np.lexsort(e_key[::-1])
    same = np.zeros(n_e, dtype=bool)
    if n_e > 1:
        same[1:] = ((e_key[0][e_order][1:] == e_key[0][e_order][:-1]) & (e_key[1][e_order][1:] == e_key[1][e_order][:-1])
                    & (e_key[2][e_order][1:] == e_key[2][e_order][:-1]))
    if same.any():  # entities whose first mentions are the same: by their ids
        name_rank = np.empty(n_e, dtype=np.int64)
        name_rank[sorted(range(n_e), key=names.__getitem__)] = np.arange(n_e)
        e_order = np.lexsort((name_rank,) + e_key[::-1])
    e_rank = np.empty(n_e, dtype=np.int64)
    e_rank[e_order] = np.arange(n_e)
    m_doc = b_doc[first >> SENTENCE_SHIFT]
    rows = np.lexsort((np.arange(n_m), last, -size, first, e_rank[m_eid], m_doc))
    r_doc, r_ent = m_doc[rows], m_eid[rows]
    new_cluster = np.ones(n_m, dtype=bool)
    new_cluster[1:] = (r_doc[1:] != r_doc[:-1]) | (r_ent[1:] != r_ent[:-1])
    n_docs = len(doc_names)
    doc_rows = np.bincount(r_doc, minlength=n_docs)
    doc_off = offsets(doc_rows)
    cum = np.cumsum(new_cluster) - 1
    cluster = cum - cum[doc_off[:-1][r_doc]] if n_m else cum
    starts_c = np.flatnonzero(new_cluster)
    labels: list[list[str]] = [[] for _ in range(n_docs)]
    for d, x in zip(r_doc[starts_c].tolist(), r_ent[starts_c].tolist()):
        labels[d].append(values[x])
    # heads' DEPS
    r_heads = heads[rows]
    slots, cap = 64, 2 * len(r_heads) + 16
    while True:
        st, _, dep_off, parent, rel, r_s, r_e, n_rel = K.head_deps(buf, r_heads, node_key, node_ds, node_de,
                                                                   np.full(slots, -1, dtype=np.int64), cap)
        if st != K.FULL:
            break
        slots, cap = 4 * slots, 4 * cap
    if st:
        return None
    rel_text = [data[s:e].decode() for s, e in zip(r_s[:n_rel].tolist(), r_e[:n_rel].tolist())]
    rel_names = sorted(set(rel_text))
    code = np.asarray([rel_names.index(x) for x in rel_text] or [0], dtype=np.int32)
    n_deps = int(dep_off[-1])
    at_w, key_off = gather_csr(w_off, rows)
    words = Words(offsets=key_off, keys=w_keys[at_w], head=r_heads, zero=(r_heads & ((1 << ORD_SHIFT) - 1)) != 0,
                  dep_offsets=dep_off, dep_parent=parent[:n_deps].copy(), dep_rel=code[rel[:n_deps]],
                  rel_names=rel_names, lines=m_line[rows])
    doc_words = np.bincount(b_doc, weights=b_words, minlength=n_docs).astype(np.int64)
    if line0:  # a batch: lines of the file
        b_first, b_tok, words.lines = b_first + line0, b_tok + line0, words.lines + line0
    table = MentionTable(
        path=path, doc_names=doc_names, doc_lines=b_first[starts].astype(np.int64), doc_tokens=doc_words,
        doc_offsets=doc_off, start=first[rows], end=last[rows] + 1, cluster=cluster.astype(np.int32),
        cluster_labels=labels, words=words)
    form_off = offsets(b_words)
    table.sentences = _Sentences(buf, b_sid_s, b_sid_e, sid_text, b_tok, newdoc, form_off, form_s, form_e,
                                 b_words)
    table.warnings = [heads_outside_warning(int(outside[0]), f"{path}:{int(outside[1]) + line0}")] if outside[0] else []
    if start is not None:
        table.batch = BatchFacts(b_grp[starts].tolist(), docs_before)
    return table


def _texts(data: bytes, buf: np.ndarray, start: np.ndarray, end: np.ndarray) -> list[str]:
    """The strings data[start[i]:end[i]], decoded at once (joined by NUL bytes, split again)."""
    if not len(start) or b"\0" in data:
        return [data[s:e].decode() for s, e in zip(start.tolist(), end.tolist())]
    sizes = end - start
    within = np.arange(int(sizes.sum()), dtype=np.int64) - np.repeat(offsets(sizes)[:-1], sizes)
    out = np.zeros(int(sizes.sum()) + len(sizes) - 1, dtype=np.uint8)  # NUL between the strings
    out[np.repeat(offsets(sizes + 1)[:-1], sizes) + within] = buf[np.repeat(start, sizes) + within]
    return out.tobytes().decode().split("\0")



_WORDS = tuple(np.frombuffer(w, dtype=np.uint8) for w in (b"newdoc", b"sent_id", b"global.Entity", b"Entity=",
                                                              b"Bridge=", b"SplitAnte="))
