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
are per document).  ``SplitAnte`` and ``Bridge`` are checked as udapi reads them and kept for the UA options
(:func:`read_conllu_links`, fastscore/ua/corefud.py), which score them; the CorefUD scoring does not.

Each node gets a *word key*, an int64 ordered as (sentence of the file, ord):
``sentence << 24 | int(ord) << 10 | thousandths of an empty node's ord``, so key and
response keys agree whatever empty nodes each side has.  Mentions are sets of
word keys (:class:`~fastscore.formats.table.Words`).

A file is read by the byte scanners of ``kernels/conllu_scan.py`` and the glue of :class:`_File` (numpy over
their arrays; the regular expressions below for the comments they leave, Python's ``int()`` for the IDs
not written canonically, like ``01`` or ``1.10``).  A kernel stops at its first problem with a code that the
glue makes into the message; of the problems of the checks made apart (comments, documents, sentence ids,
columns, IDs), the brackets' and the links', the file's first is reported, in the order of the line-by-line
reader this reproduces (``tests/reference_conllu.py``, the oracle of the tests): sentence by sentence, the
checks of a sentence in a fixed order, the brackets in ord order, then the links and the heads' DEPS.
Where it departs from that reader: an ID above 16383 is an error (there it ran into the sentence's bits of
the key), and head indices and the ``i/n`` of discontinuous parts are read in ASCII digits only.
"""
from __future__ import annotations

import os
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from ..errors import InputError, ParseError
from ..outputs import writable
from .files import Part, decode_utf8, read_bytes, read_part, read_text, reject_other_format, source_name
from .table import MentionTable, Words, gather_csr, offsets

SENTENCE_SHIFT = 24
ORD_SHIFT = 10
MAX_ORD = (1 << (SENTENCE_SHIFT - ORD_SHIFT)) - 1
_CHUNKS = re.compile(r"(\([^()]+\)?|[^()]+\))")
_DISCONTINUOUS = re.compile(r"^([^[]+)\[(\d+)/(\d+)\]")
_NEWDOC = re.compile(r"# newdoc(?:\s+id\s*=\s*(.+))?$")  # udapi's: "# " exactly, the id to the end (its blanks too)
_SENT_ID = re.compile(r"#\s*sent_id\s*=?\s*(\S+)")
_GLOBAL_ENTITY = re.compile(r"# global\.Entity\s*=\s*(\S+)")
_LOOSE = re.compile(r"#\s*(newdoc|global\.Entity)\b")  # what a reader may mean as those, which udapi does not read
_BLANK = re.compile(r"(\n[ \t]*\n)")
# a Universal Anaphora file: its column header, or a token line whose 11th column (IDENTITY) opens a markable
_UA = re.compile(r"^# global\.columns\s*=[^\n]*\bIDENTITY\b|^(?:[^\t\n]*\t){10}\(EntityID=", re.M)


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
        picked = range(len(self))[b]  # (negative indices, slices and IndexError as a list's)
        return [self._sentence(i) for i in picked] if isinstance(b, slice) else self._sentence(picked)


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
    """The inverse of :func:`sentences_to_meta` (a ValueError, KeyError or TypeError when it is not that: every
    value is checked, as a file's metadata may hold anything)."""
    ids, lines, newdoc, digests = meta["ids"], meta["lines"], meta["newdoc"], meta["digests"]
    if not (isinstance(ids, list) and isinstance(lines, list) and isinstance(newdoc, dict)
            and isinstance(digests, str) and isinstance(source, (str, type(None)))):
        raise TypeError("sentences: ids and lines must be lists, newdoc an object, digests and source strings")
    if not all(isinstance(x, str) for x in ids):
        raise TypeError("sentences: an id is not a string")
    if not all(type(x) is int and 0 <= x < 2 ** 63 for x in lines):
        raise ValueError("sentences: a line is not a whole number")
    if not all(k.isascii() and k.isdigit() and int(k) < len(ids) and isinstance(v, (str, bool))
               for k, v in newdoc.items()):
        raise ValueError("sentences: a document start names no sentence, or its id is not a string")
    return SentenceDigests(ids, lines, {int(k): v for k, v in newdoc.items()}, bytes.fromhex(digests), source)


def read_conllu(path: str | os.PathLike | Part, fix_corefud_quirks: bool = False) -> MentionTable:
    """Read a CoNLL-U file into a :class:`MentionTable` with :class:`Words`, its sentences (for the
    key/response alignment check) and the reader's warnings.  A batch of a large file
    (:class:`~fastscore.formats.conllu_batches.ConlluPart`) is read as the file's reader would read those
    documents: sentences numbered, id-less documents named and the ``# global.Entity`` header in force as
    the lines before it make them (the order of entities first used in earlier batches is set afterwards,
    by :func:`~fastscore.formats.conllu_batches.in_context`).  One ``# global.Entity`` header holds for the
    whole file, the last one, as udapi reads it (a warning where headers differ); ``fix_corefud_quirks``: each
    sentence is read with the header above it, as written."""
    start = path if isinstance(path, Part) else None
    if start is not None:
        name, data = start.path, read_part(start)
    else:
        name, data = source_name(os.fspath(path)), read_bytes(os.fspath(path))
    table = _File(name, data, start, fix_corefud_quirks).read()
    if start is not None:
        _shift_sentences(table, start.sentences_before)
        table.batch.left_open, table.batch.continued = discontinuous_parts(data, start.line)
    return table


@dataclass(frozen=True)
class CorefLink:
    """A Bridge or SplitAnte link ``ANTE<ENTITY``, with the line and document of its node and, for a Bridge, the
    table row of its anaphor (:func:`read_conllu_links`).  Entity ids as the reader names them: a ``GRP`` id
    after its document's number and ``:``, so that the label of its cluster is ``id.split(":", 1)[-1]``."""

    line: int
    attribute: str  # Bridge or SplitAnte (the legacy Split included)
    ante: str
    entity: str
    doc: str | None
    row: int | None


def read_conllu_links(path: str | os.PathLike, fix_corefud_quirks: bool = False, data: bytes | None = None
                      ) -> tuple[MentionTable, list[CorefLink]]:
    """A CoNLL-U file read as :func:`read_conllu` reads it, with its Bridge and SplitAnte links; ``data``: its
    bytes, read already (a pipe cannot be read twice)."""
    name = source_name(os.fspath(path))
    reader = _File(name, read_bytes(os.fspath(path)) if data is None else data, None, fix_corefud_quirks)
    return reader.read(), reader.coref_links()


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
    # links naming an entity not opened before them in the batch (entity, line, document, message): the file
    # stops there unless an earlier batch mentions the entity
    early: list[tuple[str, int, str, str]] = field(default_factory=list)


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


def _without_document(eid: str) -> str:
    """An entity id as written: without the document number a GRP id is given here ("2:e1")."""
    return re.sub(r"^\d+:", "", eid)


def entity_without_mention(attribute: str, eid: str) -> str:
    return f"{attribute} names entity {_without_document(eid)!r}, which has no mention (the CorefUD scorer stops here)"


# lines read here that crash the CorefUD scorer, which the score does not depend on ("{where}": FILE:LINE)
CRASH_WARNINGS = {
    "blank_line": "{where}: a line of only white space (spaces, tabs, U+00A0, ...), read as an empty line; the CorefUD "
                  "scorer crashes on it (udapi reads it as a word line): remove the blanks to run it",
    "single_newline": "{where}: the last sentence ends the file with one newline, no empty line after it; the CorefUD "
                      "scorer crashes on it (udapi reads the empty text after that newline as a line): end the file "
                      "with an empty line to run it",
    "leading_empty_line": "{where}: the file starts with one empty line, skipped; the CorefUD scorer crashes on it "
                          "(two or more it skips): remove it to run the scorer",
}


def crash_warning(kind: str, where: str) -> str:
    return CRASH_WARNINGS[kind].format(where=where)


def misc_links(misc: str) -> list[tuple[str, str]]:
    """The links of a MISC column as udapi reads them: on a node with an Entity value only (the others it
    skips), the last item of a name counts (its DualDict), Bridge first, then SplitAnte, or the legacy Split
    where SplitAnte is empty; an empty value is none."""
    items = dict(item.partition("=")[::2] for item in misc.split("|"))
    if not items.get("Entity"):
        return []
    split = "SplitAnte" if items.get("SplitAnte") else "Split"
    return [(name, items[name]) for name in ("Bridge", split) if items.get(name)]


def link_to_itself(attribute: str, link: str, eid: str) -> str:
    return f"{attribute} link {link!r} links entity {eid!r} to itself (the CorefUD scorer stops here)"


def link_pair(attribute: str, link: str) -> tuple[str, str]:
    """(antecedent, entity) of a link ``A<B``: udapi drops a Bridge's relation (``A<B:part``), not a SplitAnte's."""
    ante, _, this = link.partition("<")
    return ante, this.split(":", 1)[0] if attribute == "Bridge" else this


def link_before_entity(attribute: str, eid: str) -> str:
    return (f"{attribute} names entity {_without_document(eid)!r} before its first mention: the CorefUD scorer stops "
            "here (udapi reads links node by node)")


def zone_invalid(sent_id: str, zone: str) -> str:
    return (f"sentence id {sent_id!r}: udapi reads the text after '/' as a zone, and {zone!r} is not a zone name "
            "(the CorefUD scorer stops here): use another character than '/' in sentence ids")


def zones_mixed(zone: str, line: int, other: str) -> str:
    def name(z):
        return f"zone {z!r}" if z else "no zone"
    return (f"a mention in a sentence of {name(other)} after one in {name(zone)} (line {line}): udapi reads the text "
            "after '/' in sentence ids as a zone and compares words across zones (the CorefUD scorer stops here): "
            "use another character than '/' in sentence ids")


def newdoc_without_words() -> str:
    return ("'# newdoc' in a block without words: udapi drops such a block, newdoc and all, so the CorefUD scorer "
            "merges the document into the one before (and crashes on a file's first): write it just above the "
            "document's first sentence, with no empty line between")


# the warnings that count the lines of one kind ("{count}"), each ended with the first: what udapi does with them
COUNTED_WARNINGS = {
    "no_bracket": "{count} Entity chunk(s) with neither an opening nor a closing bracket (trailing spaces, say) "
                  "ignored, as the CorefUD scorer ignores them",
    "multiword": "coreference on {count} multiword-token line(s) ignored, as udapi (and so the CorefUD scorer) "
                 "ignores it: write it on the lines of its words",
    "extra_columns": "{count} token line(s) with more than 10 columns: the columns after the 10th ignored, as udapi "
                     "(and so the CorefUD scorer) ignores them",
    "short_lines": "{count} token line(s) with fewer than 10 columns: the missing ones read as '_', as udapi (and so "
                   "the CorefUD scorer) reads them",
    "loose_comment": "{count} newdoc or global.Entity comment(s) without '# ' before the word, read as plain "
                     "comments, as udapi (and so the CorefUD scorer) reads them: write '# newdoc' / "
                     "'# global.Entity'",
    "no_words": "{count} block(s) of empty nodes or multiword tokens only (no word) dropped, with their sentence id "
                "and coreference, as udapi (and so the CorefUD scorer) drops them",
    "tree": "{count} sentence(s) whose HEAD column udapi cannot build a tree from: the CorefUD scorer (udapi) stops "
            "on this HEAD (no score); scored as written here (no metric reads HEAD)",
    "heads_outside": "{count} head index(es) outside their mention, read as the CorefUD scorer reads them: ignored "
                     "on a one-node mention (its node is its head), 0 on the one-node last part of a discontinuous "
                     "mention taken as that part's node",
}


def counted_warning(kind: str, count: int, first: str) -> str:
    """One warning for ``count`` lines of a kind of ``COUNTED_WARNINGS``, naming the first."""
    return COUNTED_WARNINGS[kind].format(count=count) + f"; first: {first}"


def header_warning(count: int, first: str, last: str, where: str) -> str:
    return (f"{count} global.Entity header(s) differ from the file's last, {last!r} at {where}: udapi (and so the "
            "CorefUD scorer) reads the last one for every sentence of the file, and so it is read here "
            f"(--fix-corefud-quirks reads each sentence with the header above it); first: {first}")


def udapi_tree_problem(heads: Sequence[str]) -> tuple[int, str] | None:
    """Where (the word's place) and why udapi stops building a sentence's tree from its words' HEAD values, or
    None: ``int()`` of each ('_' is the root), then, word after word, a HEAD outside the sentence (negative ones
    index from its end, as Python lists do), a word attached to itself, a word closing a cycle."""
    parents = []
    for k, h in enumerate(heads):
        try:
            parents.append(int(h))
        except ValueError:
            if h != "_":
                return k, f"HEAD {h!r} is not a number"
            parents.append(0)
    n = len(parents)
    attached: dict[int, int] = {}  # word (from 1) -> its parent (0: the root)
    for k, h in enumerate(parents, 1):
        if not -n - 1 <= h <= n:
            return k - 1, f"HEAD {h} is outside the sentence's {n} word(s)"
        p = h % (n + 1)
        if p == k:
            return k - 1, "a word attached to itself"
        climbing = attached.get(p)
        while climbing:
            if climbing == k:
                return k - 1, "a cycle of HEADs"
            climbing = attached.get(climbing)
        attached[k] = p
    return None


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


def read_conllu_blocks(path: str | os.PathLike, data: bytes | None = None) -> list[Block]:
    """The sentences of a CoNLL-U file, cut as :func:`read_conllu` cuts them (block ``i`` is the table's
    sentence ``i``: its word keys have ``i`` as sentence; token lines of fewer than 10 columns filled with
    ``_``, blocks without words left out, as the reader reads them).  The file is expected to be valid (read with
    :func:`read_conllu` first); ``data``: its bytes, read already (a pipe cannot be read twice)."""
    path = os.fspath(path)
    text = read_text(path) if data is None else decode_utf8(source_name(path), data)
    text = text.replace("\r\n", "\n") if "\r" in text else text
    blocks: list[Block] = []
    line = 1
    for n, piece in enumerate(_BLANK.split(text)):  # as the reader cuts the file
        if n % 2 == 0 and piece.strip():
            lines = piece.split("\n")
            first = next(i for i, x in enumerate(lines) if x.strip())
            block = _block([x for x in lines if x.strip()], line + first, len(blocks))
            if block.forms:  # (a block without words: udapi drops it, and so does the reader)
                blocks.append(block)
        line += piece.count("\n")
    return blocks


def _block(lines: list[str], first: int, s: int) -> Block:
    block = Block(lines, first, None, None, [], [])
    keyed = []
    for k, line in enumerate(lines):
        if line.startswith("#"):
            if m := _NEWDOC.match(line):
                block.newdoc = m.group(1) or True
            elif m := _SENT_ID.match(line):
                block.sent_id = m.group(1)
            elif m := _SPEAKER.match(line):
                block.speaker = m.group(1).strip()
            continue
        cols = line.split("\t")
        if len(cols) < 10:  # udapi, and so the reader, reads the missing columns as '_'
            cols += ["_"] * (10 - len(cols))
            lines[k] = "\t".join(cols)
        ident, form = cols[0], cols[1]
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
    headers = _headers(blocks)  # the fields the blocks declare (their last header), or CorefUD's default
    header = tuple(headers[-1].split("-")) if headers else DEFAULT_ENTITY_FIELDS
    chunks, needs_head = _entity_items(table, blocks, labels, header, fields, heads)
    if needs_head:
        header = header + ("head",)
    header_line = "# global.Entity = " + "-".join(header)
    with writable(path) as fh:  # an open stream as it is, a path written safely
        placed = bool(headers)
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
                    cols[9] = _misc(cols[9], chunks.get(word_key(s, cols[0])), links)
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


def _headers(blocks: list[Block]) -> list[str]:
    """The values of the blocks' ``# global.Entity`` lines, in order."""
    return [m.group(1) for b in blocks for x in b.lines if x.startswith("#") and (m := _GLOBAL_ENTITY.match(x))]


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
    return MentionTable(table.path, list(table.doc_names), table.doc_lines, table.doc_tokens, table.doc_offsets,
                        np.asarray([k[0] if len(k) else 0 for k in flat], dtype=np.int64),
                        np.asarray([k[-1] + 1 if len(k) else 0 for k in flat], dtype=np.int64),
                        table.cluster, table.cluster_labels, words), blocks


def _entity_items(table: MentionTable, blocks: list[Block], labels, header: tuple[str, ...], fields,
                  heads: bool) -> tuple[dict[int, str], bool]:
    """The Entity value of every node (node key -> value), and whether a head index must be written with no head
    field in the header; built as udapi writes it (so that its reader, and fastscore's, pair
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
                own = {id_field: eid, "head": str(head_index) if heads or head_index != 1 or len(runs) > 1 else ""}
                values = [own[name] if name in own else str(extra.get(name, "")) for name in header]
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
        if minus_len == -1:  # after the node's value unless that ends with closings only, or with openings
            after = not here or here[-1] != ")" or "(" in here and any(
                c and c[0] == "(" and c[-1] != ")" for c in _CHUNKS.split(here))
            value[first] = here + f"({body})" if after else f"({body})" + here
        else:
            value[first] = here + f"({body}"
            value[last] = f"{eid})" + value.get(last, "")
    return value, needs_head


def entity_fields(table: MentionTable, blocks: list[Block]) -> list[dict]:
    """Per mention (row of a table read from the file of ``blocks``), the values of its Entity fields other
    than the id and the head (``etype``, ``other``, ...), from the opening bracket of its first part: what
    :func:`write_conllu` needs to write them again."""
    found: dict[tuple[str, int], list[dict]] = {}
    header: list[str] | None = None
    for s, block in enumerate(blocks):
        for line in block.lines:
            if line.startswith("#"):
                if m := _GLOBAL_ENTITY.match(line):
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
                    if m := _DISCONTINUOUS.match(eid):
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


# ---- reading: the byte scanners of kernels/conllu_scan.py, the regular expressions above for the few
# comments they leave and Python's int() for IDs not written canonically


@dataclass(eq=False, kw_only=True)
class _Sentences(_MadeSentences):
    """The sentences of a file, as :class:`Sentence` objects made when asked for."""

    data: np.ndarray  # uint8 array of the file
    sid_s: np.ndarray  # span of each sentence id (-1: see sid_text, else none)
    sid_e: np.ndarray
    sid_text: dict[int, str]  # block -> sentence id the regular expression read
    lines: np.ndarray
    newdoc: dict  # block -> newdoc value
    form_off: np.ndarray  # the regular words' forms: spans [form_s, form_e) of sentence b at form_off[b]...
    form_s: np.ndarray
    form_e: np.ndarray
    words: np.ndarray  # regular words per sentence

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


# the checks made before the brackets, in the order the CorefUD reader made them within a sentence (a
# problem of an earlier sentence comes first)
_HEADER, _DOCUMENT, _COLUMNS, _NO_DOCUMENT, _SENTENCE_ID, _IDS, _MULTIWORD = range(7)


@dataclass(order=True)
class _Problem:
    block: int
    check: int
    line: int
    problem: str = field(compare=False)
    doc: str | None = field(compare=False, default=None)
    other_format: bool = field(compare=False, default=False)  # the file may be of another format (say so first)


def _reject_ua(path: str, text: str, line0: int) -> None:
    """A UA file read as CoNLL-U fails on whatever udapi trips on first: say what it is instead."""
    if m := _UA.search(text, 0, 1 << 16):
        raise ParseError(path, line0 + text.count("\n", 0, m.start()) + 1,
                         "this is a Universal Anaphora (UA) file (an IDENTITY column), not CoNLL-U: score it with "
                         "--format ua (convert it with fastscore convert FILE OUT.conllu --to conllu)")


class _File:
    """A CoNLL-U file (or batch) as the scanners read it: lines, blocks (sentences), documents, the Entity
    fields in force, nodes; :meth:`read` pairs the brackets and builds the mention table, or raises the
    ParseError of the file's first problem."""

    def __init__(self, path: str, data: bytes, start: Part | None, fix_quirks: bool = False):
        from ..kernels import conllu_scan as K

        self.fix_quirks = fix_quirks  # --fix-corefud-quirks: the header above each sentence, not the file's last

        self.K = K
        self.path, self.start = path, start
        self.line0 = start.line if start is not None else 0  # lines of the file before a batch
        self.docs_before = start.docs_before if start is not None else 0
        self.text = decode_utf8(path, data, self.line0)  # (its error for a byte that is not UTF-8)
        _reject_ua(path, self.text, self.line0)
        if b"\r" in data:
            data = data.replace(b"\r\n", b"\n")
        self.short = (0, "")  # token lines with fewer than 10 columns, read with '_' for the missing ones
        for _ in range(2):
            self.data = data
            self.buf = np.frombuffer(data, dtype=np.uint8)
            newlines = np.flatnonzero(self.buf == 10)
            self.ls, self.le = np.r_[0, newlines + 1], np.r_[newlines, len(data)]
            (self.kind, self.block, b_first, b_tok, b_sid_line, b_sid_s, b_sid_e,
             self.nb) = K.scan_lines(self.buf, self.ls, self.le, *_WORDS[:3])
            data = self.padded()
            if data is self.data:
                break
        nb = self.nb
        self.b_first, self.b_tok, self.b_sid_line = b_first[:nb], b_tok[:nb], b_sid_line[:nb]
        self.b_sid_s, self.b_sid_e = b_sid_s[:nb].copy(), b_sid_e[:nb].copy()
        self.bare_newdoc: list[tuple[int, int]] = []  # newdoc lines udapi drops before a sentence: block, line
        self.wordless_blocks()
        if self.nb == 0:
            reject_other_format(path, self.text, "conllu")
            raise ParseError(path, None, "no sentence: not a CoNLL-U file (or empty)")
        self.problems: list[_Problem] = []
        self.comments()
        self.documents()
        self.sentence_ids()
        self.token_lines()

    def padded(self) -> bytes:
        """udapi reads a token line with fewer than 10 columns as if '_' filled the missing ones: the data with
        those filled (the same lines), where the line's first column is a node id; else the data as it is."""
        tabs = np.bincount(np.searchsorted(self.ls, np.flatnonzero(self.buf == 9), side="right") - 1,
                           minlength=len(self.ls))
        short = [i for i in np.flatnonzero((self.kind == self.K.KIND_TOKEN) & (tabs < 9)).tolist()
                 if _NODE_ID.match(self.data, self.ls[i], self.le[i])]
        if not short:
            return self.data
        self.short = (len(short), f"{self.path}:{short[0] + 1 + self.line0}")
        pieces, at = [], 0
        for i in short:
            pieces += [self.data[at:self.le[i]], b"\t_" * (9 - int(tabs[i]))]
            at = int(self.le[i])
        return b"".join(pieces + [self.data[at:]])

    def wordless_blocks(self) -> None:
        """udapi drops a block without words (comments only): no sentence here either.  Of its lines only a
        global.Entity header counts (udapi's is the file's; as written, it holds for the next sentence); a
        newdoc there is lost, which merges the next sentence into the document before: noted for an error."""
        K = self.K
        tokens = self.kind == K.KIND_TOKEN
        words = np.zeros(self.nb, dtype=bool)
        words[self.block[tokens & ~self.node_or_range()]] = True
        self.no_words = (0, "")  # blocks of empty nodes or multiword tokens only: count, first token line
        if words.all():
            return
        no_words = np.flatnonzero(tokens & ~words[np.maximum(self.block, 0)] & (self.block >= 0))
        if len(no_words):
            self.no_words = (len(np.unique(self.block[no_words])), f"{self.path}:{int(no_words[0]) + 1 + self.line0}")
        kept = np.flatnonzero(words)
        old = self.block.copy()
        in_kept = (old >= 0) & words[np.maximum(old, 0)]
        self.block[in_kept] = (np.cumsum(words) - 1)[old[in_kept]]
        following = np.searchsorted(kept, np.arange(self.nb))  # each block -> the next with words (new number)
        for i in np.flatnonzero((old >= 0) & ~in_kept).tolist():
            b = int(following[old[i]])
            b = b if b < len(kept) else -1
            line = self.text_at(self.ls[i], self.le[i]) if self.kind[i] == K.KIND_PYTHON else ""
            if _NEWDOC.match(line) and b >= 0:
                self.bare_newdoc.append((b, int(self.b_first[old[i]])))
            if not _GLOBAL_ENTITY.match(line):
                self.kind[i] = K.KIND_SKIP
            self.block[i] = b
        self.nb = len(kept)
        self.b_first, self.b_tok, self.b_sid_line = self.b_first[kept], self.b_tok[kept], self.b_sid_line[kept]
        self.b_sid_s, self.b_sid_e = self.b_sid_s[kept], self.b_sid_e[kept]

    def node_or_range(self) -> np.ndarray:
        """The token lines whose ID (the text before the first tab) holds '.' or '-': udapi's empty nodes and
        multiword tokens, not words (other lines: False)."""
        buf, ls, le = self.buf, self.ls, self.le
        out = np.zeros(len(ls), dtype=bool)
        todo = np.flatnonzero((le > ls) & (self.kind == self.K.KIND_TOKEN))
        at = ls[todo].copy()
        while len(todo):  # byte by byte along the IDs (a few bytes), for all lines at once
            c = buf[at]
            out[todo] = (c == 46) | (c == 45)
            go = ~out[todo] & (c != 9) & (at + 1 < le[todo])
            todo, at = todo[go], at[go] + 1
        return out

    def fail(self, line: int | None, problem: str, doc: str | None = None):
        raise ParseError(self.path, None if line is None else line + self.line0, problem, doc)

    def doc_of(self, b: int) -> str | None:
        d = int(self.b_doc[b])
        return self.doc_names[d] if d >= 0 else None

    def text_at(self, s: int, e: int) -> str:
        return self.data[s:e].decode()

    # ---- comments, documents, sentence ids

    def comments(self) -> None:
        """newdoc, sent_id and global.Entity comments the scanner left to the regular expressions."""
        nb = self.nb
        self.newdoc: dict[int, str | bool] = {}
        self.sid_text: dict[int, str] = {}
        self.loose: list[str] = []  # newdoc / global.Entity comments udapi does not read (no "# "): which, where
        fields_at: dict[int, list[str]] = {}
        headers: list[tuple[int, int, str]] = []  # global.Entity headers: block, line (from 1), value
        if self.start is not None and self.start.entity_fields is not None and self.fix_quirks:
            value, line = self.start.entity_fields  # the header in force where the batch starts
            fields_at[0] = self.entity_fields(value, -1, line - self.line0) or []
        for i in np.flatnonzero(self.kind == self.K.KIND_PYTHON).tolist():
            line = self.text_at(self.ls[i], self.le[i])
            b = int(self.block[i])
            if m := _NEWDOC.match(line):
                self.newdoc[b] = m.group(1) or True
                continue
            if _LOOSE.match(line) and not _GLOBAL_ENTITY.match(line):
                self.loose.append(f"{line.split()[0]!r} at {self.path}:{i + 1 + self.line0}")
            if m := _SENT_ID.match(line):
                if i > self.b_sid_line[b]:
                    self.sid_text[b] = m.group(1)
                continue
            if m := _GLOBAL_ENTITY.match(line):
                headers.append((b, i + 1, m.group(1)))
        self.header_warning = None
        if self.fix_quirks:
            for b, line, value in headers:
                if b < 0:  # after the last sentence
                    continue
                fields = self.entity_fields(value, b, line)
                if fields is not None:  # (else the file's problem from this sentence on)
                    fields_at[b] = fields
        else:
            self.the_last_header(headers, fields_at)
        # the fields in force in each block: a row of f_kind / f_n
        rows = sorted(fields_at)
        width = max((len(fields_at[b]) for b in rows), default=0)
        self.f_kind = np.zeros((max(len(rows), 1), max(width, 1)), dtype=np.int64)
        self.f_n = np.zeros(max(len(rows), 1), dtype=np.int64)
        self.b_frow = np.full(nb, -1, dtype=np.int64)
        self.b_grp = np.zeros(nb, dtype=bool)
        codes = {"eid": self.K.FIELD_ID, "GRP": self.K.FIELD_ID, "head": self.K.FIELD_HEAD}
        for r, b in enumerate(rows):
            fields = fields_at[b]
            self.f_kind[r, :len(fields)] = [codes.get(f, self.K.FIELD_OTHER) for f in fields]
            self.f_n[r] = len(fields)
            self.b_frow[b:] = r
            self.b_grp[b:] = "GRP" in fields

    def the_last_header(self, headers: list[tuple[int, int, str]], fields_at: dict[int, list[str]]) -> None:
        """udapi keeps one global.Entity header per file, the last it reads, for every sentence: so here,
        with a warning naming the headers that differ from it (in a batch, the file's last is given)."""
        last = self.start.file_entity if self.start is not None else None
        if last is None and headers:
            last = headers[-1][2], headers[-1][1] + self.line0
        if last is None:
            return
        fields = self.entity_fields(last[0], -1, last[1] - self.line0)
        fields_at[0] = fields
        other = [line for _, line, value in headers if value != last[0]]
        if other:
            self.header_warning = header_warning(len(other), f"{self.path}:{other[0] + self.line0}", last[0],
                                                 f"{self.path}:{last[1]}")

    def entity_fields(self, value: str, b: int, line: int) -> list[str] | None:
        fields = value.split("-")
        if "eid" not in fields and "GRP" not in fields:
            problem = _Problem(b, _HEADER, line, f"global.Entity {value!r} names no eid (or GRP) field")
            if b < 0:
                self.fail(line, problem.problem)
            self.problems.append(problem)
            return None
        return fields

    def documents(self) -> None:
        starts = sorted(self.newdoc)
        if self.bare_newdoc:
            b, line = self.bare_newdoc[0]
            self.problems.append(_Problem(b, _HEADER, line, newdoc_without_words()))
        self.starts = starts
        self.doc_names: list[str] = []
        first: dict[str, int] = {}
        for b in starts:
            v = self.newdoc[b]
            name = v if isinstance(v, str) else str(self.docs_before + len(self.doc_names) + 1)
            if name in first and not any(p.check == _DOCUMENT for p in self.problems):  # the CorefUD scorer
                line = int(self.b_first[b])  # merges the two silently
                self.problems.append(_Problem(b, _DOCUMENT, line, document_again(first[name] + self.line0), name))
            first.setdefault(name, int(self.b_first[b]))
            self.doc_names.append(name)
        is_start = np.zeros(self.nb, dtype=np.int64)
        is_start[starts] = 1
        self.b_doc = np.cumsum(is_start) - 1
        if self.b_doc[0] < 0:
            self.problems.append(_Problem(0, _NO_DOCUMENT, int(self.b_tok[0]), 'sentence before any "# newdoc" line: '
                                          'every sentence must belong to a document (add "# newdoc id = NAME")',
                                          other_format=True))  # a file of another format has no newdoc either

    def sentence_ids(self) -> None:
        """The same sentence id twice in a row is an error."""
        nb, buf = self.nb, self.buf
        if nb < 2:
            return
        special = np.zeros(nb, dtype=bool)  # ids the regular expression read
        special[list(self.sid_text)] = True
        has_id = (self.b_sid_s >= 0) | special
        pair = np.flatnonzero(has_id[1:] & has_id[:-1])
        plain = pair[~special[pair] & ~special[pair + 1]]
        same = plain[self.K.same_spans(buf, self.b_sid_s[plain], self.b_sid_e[plain], buf, self.b_sid_s[plain + 1],
                                       self.b_sid_e[plain + 1])].tolist()
        odd = pair[special[pair] | special[pair + 1]].tolist()
        same += [b for b in odd if self.sent_id(b) == self.sent_id(b + 1)]
        if same:
            b = min(same) + 1
            self.problems.append(_Problem(b, _SENTENCE_ID, int(self.b_tok[b]),
                                          repeated_sentence_id(self.sent_id(b), int(self.b_tok[b - 1]) + self.line0),
                                          self.doc_of(b)))

    def sent_id(self, b: int) -> str:
        if b in self.sid_text:
            return self.sid_text[b]
        return self.text_at(self.b_sid_s[b], self.b_sid_e[b]) if self.b_sid_s[b] >= 0 else ""

    # ---- token lines

    def token_lines(self) -> None:
        K = self.K
        self.tabs, self.t0, self.t1, self.t7, self.t8, what, ord_key = K.token_lines(self.buf, self.ls, self.le,
                                                                                   self.kind)
        tok = self.kind == K.KIND_TOKEN
        self.le_misc = self.le  # where MISC ends: udapi reads the first 10 columns of a longer line
        longer = np.flatnonzero(tok & (self.tabs > 9))
        self.extra_columns = (len(longer), f"{self.path}:{int(longer[0]) + 1 + self.line0}" if len(longer) else "")
        if len(longer):
            self.le_misc = self.le.copy()
            self.le_misc[longer] = [self.data.index(b"\t", int(self.t8[i]) + 1) for i in longer.tolist()]
            self.tabs[longer] = 9
        bad = np.flatnonzero(tok & (self.tabs != 9))
        if len(bad):
            i = int(bad[0])
            b = int(self.block[i])
            other = b == 0 and i + 1 == self.b_tok[0]  # the file's first token line: maybe another format
            self.problems.append(_Problem(b, _COLUMNS, i + 1, f"token line with {int(self.tabs[i]) + 1} tab-separated "
                                          "columns, expected 10 (CoNLL-U)", self.doc_of(b), other))
        self.canonical = what >= 0
        self.what, self.ord_key = what.copy(), ord_key.copy()
        self.zero_keys: list[int] = []  # empty nodes whose keys are words' ("7.0"): heads there are "zero"
        for i in np.flatnonzero(tok & (self.tabs == 9) & (what == K.ID_PYTHON)).tolist():
            self.python_id(i)
        self.empty_node_twice()
        multi = [i for i in np.flatnonzero(tok & (self.tabs == 9) & (self.what == K.ID_RANGE)).tolist()
                 if _MARKED.search(self.data, self.ls[i], self.le_misc[i])]
        self.multiword = (len(multi), f"{self.ident(multi[0])!r} at {self.path}:{multi[0] + 1 + self.line0}"
                          if multi else "")
        self.tree = self.tree_problems()

    def tree_problems(self) -> str | None:
        """The sentences whose HEAD column udapi cannot build a tree from (:func:`udapi_tree_problem`): found
        over all words at once, the first told by :func:`udapi_tree_problem`; a warning, or None."""
        K = self.K
        lines = np.flatnonzero((self.kind == K.KIND_TOKEN) & (self.tabs == 9) & (self.what == K.ID_WORD))
        if not len(lines):
            return None
        he = self.tab_before(self.t7[lines])  # HEAD: the 7th column, before DEPREL, before the 8th tab
        hs = self.tab_before(he) + 1
        value, number = self.head_values(hs, he)
        block = self.block[lines]
        firsts = np.flatnonzero(np.r_[True, block[1:] != block[:-1]])  # each sentence's first word
        sizes = np.diff(np.r_[firsts, len(block)])
        start, n = np.repeat(firsts, sizes), np.repeat(sizes, sizes)  # each word's sentence: first word, size
        value = np.where(value < 0, value + n + 1, value)  # (udapi indexes a list: -1 is the last word)
        inside = number & (value >= 0) & (value <= n)
        w = len(lines)
        parent = np.where(inside & (value > 0), start + value - 1, w)  # w: the root (or no tree)
        bad = ~inside | (parent == np.arange(w))
        up = np.r_[parent, w]
        for _ in range(int(n.max()).bit_length() + 1):  # 2^k-th ancestors: a word of a cycle never reaches w
            up = up[up]
        bad |= up[:w] != w
        if not bad.any():
            return None
        sentences = np.unique(block[bad])
        first = np.flatnonzero(block == sentences[0])
        heads = [self.text_at(hs[i], he[i]) for i in first.tolist()]
        k, problem = udapi_tree_problem(heads)
        where = f"{self.path}:{int(lines[first[k]]) + 1 + self.line0}"
        return counted_warning("tree", len(sentences), f"{where}: {problem}")

    def tab_before(self, at: np.ndarray) -> np.ndarray:
        """The tab before each position (a column back: short columns, a few steps for all at once)."""
        out = at - 1
        todo = np.flatnonzero(self.buf[out] != 9)
        while len(todo):
            out[todo] -= 1
            todo = todo[self.buf[out[todo]] != 9]
        return out

    def head_values(self, hs: np.ndarray, he: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The HEAD values as udapi's ``int()`` reads them ('_' as 0) and whether it reads them: ASCII digits at
        once, other text (rare) one by one; values beyond any sentence's size read as 2**40."""
        length = he - hs
        plain = (length >= 1) & (length <= 9)
        value = np.zeros(len(hs), dtype=np.int64)
        for k in range(int(length[plain].max()) if plain.any() else 0):
            here = plain & (k < length)
            c = self.buf[np.where(here, hs + k, 0)].astype(np.int64)
            plain &= ~here | ((c >= 48) & (c <= 57))
            value = np.where(here, value * 10 + c - 48, value)
        number = plain.copy()
        for i in np.flatnonzero(~plain).tolist():
            text = self.text_at(hs[i], he[i])
            try:
                value[i] = max(-(2 ** 40), min(int(text), 2 ** 40))
            except ValueError:
                value[i] = 0
                number[i] = text == "_"
            else:
                number[i] = True
        return value, number

    def ident(self, i: int) -> str:
        return self.text_at(self.ls[i], self.t0[i])

    def python_id(self, i: int) -> None:
        """An ID the scanner does not read (not canonical): read as int() reads it (``01``, ``1.10``)."""
        K, ident, b = self.K, self.ident(i), int(self.block[i])
        if "-" in ident:  # a multiword token (never decimal)
            self.what[i] = K.ID_RANGE
            return
        try:
            key = word_key(0, ident)
        except ValueError:
            key, problem = 0, f"bad ID {ident!r} (expected 7, 7-8 or 7.1)"
        else:
            problem = None
            if len(ident.partition(".")[2]) > 3:
                problem = f"empty node {ident!r}: at most 3 digits after the point are read"
            elif key >> ORD_SHIFT > MAX_ORD:  # (the CorefUD reader read such a key into the sentence's)
                problem = f"ID {ident!r}: at most {MAX_ORD} words and empty nodes are read"
        if problem is not None:
            self.problems.append(_Problem(b, _IDS, i + 1, problem, self.doc_of(b)))
            return  # (left ID_PYTHON: no node)
        self.what[i] = K.ID_WORD if ident.isdecimal() else K.ID_EMPTY
        self.ord_key[i] = key
        if self.what[i] == K.ID_EMPTY and not key & ((1 << ORD_SHIFT) - 1):
            self.zero_keys.append((b << SENTENCE_SHIFT) | key)

    def empty_node_twice(self) -> None:
        """Two empty nodes with one key in a sentence (``1.1`` and ``1.10``) are an error."""
        lines = np.flatnonzero((self.kind == self.K.KIND_TOKEN) & (self.tabs == 9) & (self.what == self.K.ID_EMPTY))
        if len(lines) < 2:
            return
        keys = (self.block[lines] << SENTENCE_SHIFT) | self.ord_key[lines]
        order = np.lexsort((lines, keys))
        again = np.flatnonzero(keys[order][1:] == keys[order][:-1])
        if not len(again):
            return
        at = np.argmin(lines[order][again + 1])
        first, i = int(lines[order][again[at]]), int(lines[order][again[at] + 1])
        b = int(self.block[i])
        self.problems.append(_Problem(b, _IDS, i + 1, f"empty nodes {self.ident(first)!r} and {self.ident(i)!r} are "
                                      "the same node to the CorefUD scorer (it reads the ids as numbers): renumber "
                                      "them", self.doc_of(b)))

    # ---- brackets

    def first_problem(self) -> _Problem | None:
        return min(self.problems) if self.problems else None

    def raise_problem(self, p: _Problem) -> None:
        if p.other_format:
            reject_other_format(self.path, self.text, "conllu")
        self.fail(p.line, p.problem, p.doc)

    def nodes(self, limit: int) -> None:
        """The words and empty nodes of the blocks before ``limit``, in ord order (sentence after sentence; one
        key twice in the order of the lines)."""
        K = self.K
        lines = np.flatnonzero((self.kind == K.KIND_TOKEN) & (self.tabs == 9) & (self.block < limit)
                               & ((self.what == K.ID_WORD) | (self.what == K.ID_EMPTY)))
        keys = (self.block[lines] << SENTENCE_SHIFT) | self.ord_key[lines]
        order = np.lexsort((lines, keys))
        self.node_line, self.node_key = lines[order], keys[order]

    def brackets(self, limit: int) -> None:
        K = self.K
        data, buf = self.data, self.buf
        self.nodes(limit)
        # head indices udapi reads outside their mention, chunks without a bracket it ignores: count, first line
        self.outside = np.zeros(4, dtype=np.int64)
        err = np.zeros(8, dtype=np.int64)
        n_open = data.count(b"(")
        n_links = data.count(b"Bridge=") + data.count(b"SplitAnte=")
        log_cap = 4 * n_open + 16
        while True:
            self.outside[:] = 0
            status, M, log, e_s, e_e, e_tag, links, drop, cnt = K.parse_tokens(
                buf, self.le_misc, self.node_line, self.node_key, self.block, self.b_doc, self.b_frow, self.f_kind,
                self.f_n, self.b_grp, self.t8, n_open, n_links, log_cap, *_WORDS[3:], self.outside, err)
            if status == K.E_HEAD_TEXT and self.python_digits(err):
                buf = self.buf_heads.view()  # (the same bytes elsewhere: ids, names and messages read as written)
                buf.flags.writeable = False  # read-only as the file's bytes: the compiled kernel's argument types
                continue
            if status != K.FULL:
                break
            log_cap *= 4
        n_m, n_log, n_e, n_lk, n_drop = (int(x) for x in cnt[[0, 1, 2, 3, 7]])
        self.M, self.log, self.drop = M[:n_m], log[:n_log], drop[:n_drop]
        values = _texts(data, buf, e_s[:n_e], e_e[:n_e])
        tags = e_tag[:n_e]
        self.names = ([f"{t + self.docs_before}:{v}" if t else v for v, t in zip(values, tags.tolist())]
                      if tags.any() else values)
        self.links = links[:n_lk]
        self.link_format(limit, status, err)
        if status != K.OK:
            self.bracket_problem(status, err)

    def python_digits(self, err: np.ndarray) -> bool:
        """A head index the scanner, reading ASCII, cannot read, which udapi's ``int()`` reads (other decimal
        digits, as '٢', and blanks): written here with ASCII digits, the same length (blanks after), for the
        scanner to read again; False if ``int()`` fails too."""
        s, e = int(err[2]), int(err[3])
        try:
            value = int(self.data[s:e].decode())
        except ValueError:
            return False
        digits = str(value).encode().ljust(e - s)
        if not hasattr(self, "buf_heads"):
            self.buf_heads = self.buf.copy()
        if len(digits) > e - s or bytes(self.buf_heads[s:e]) == digits:
            return False
        self.buf_heads[s:e] = np.frombuffer(digits, dtype=np.uint8)
        return True

    def link_format(self, limit: int, status: int, err: np.ndarray) -> None:
        """The links of the nodes before the brackets' first problem, as udapi reads them (:func:`misc_links`),
        node by node in its order: the format checked (else an error), the entities named noted."""
        self.linked: dict[str, tuple[int, str, str]] = {}
        self.link_items: list[tuple[int, str, str, str, str | None]] = []  # line, attribute, antecedent, entity, doc
        self.rank = np.full(len(self.ls) + 1, -1, dtype=np.int64)  # line (from 1) -> its node's place in udapi's order
        self.rank[self.node_line + 1] = np.arange(len(self.node_line))
        lines = {int(x) for x in self.links[:, 0].tolist()} | self.legacy_split(limit)
        if status != self.K.OK:  # udapi reads a node's Entity before its links: none from the failing node on
            lines = {i for i in lines if self.rank[i] < self.rank[int(err[1])]}
        for line in sorted(lines, key=self.rank.__getitem__):
            b = int(self.block[line - 1])
            doc = self.doc_of(b)
            for name, value in misc_links(self.text_at(int(self.t8[line - 1]) + 1, int(self.le_misc[line - 1]))):
                for link in value.split(","):
                    if link.count("<") != 1:  # (what makes udapi stop on a link)
                        self.fail(line, f"{name} link {link!r} is not ANTECEDENT<ENTITY", doc)
                    ante, this = link_pair(name, link)
                    if ante == this:
                        self.fail(line, link_to_itself(name, link, ante), doc)
                    pair = [f"{int(self.b_doc[b]) + 1 + self.docs_before}:{eid}" if self.b_grp[b] else eid
                            for eid in (ante, this)]
                    for eid in pair:
                        self.linked.setdefault(eid, (line, doc, name))
                    self.link_items.append((line, name, pair[0], pair[1], doc))

    def legacy_split(self, limit: int) -> set[int]:
        """The lines (from 1) of word and empty nodes with a ``Split=`` item in MISC (udapi's legacy name of
        SplitAnte, read where SplitAnte is empty)."""
        if b"Split=" not in self.data:
            return set()
        K, out = self.K, set()
        for m in _LEGACY_SPLIT.finditer(self.data):
            i = int(np.searchsorted(self.ls, m.start(), side="right")) - 1
            b = int(self.block[i])
            if (self.kind[i] == K.KIND_TOKEN and self.tabs[i] == 9 and 0 <= b < limit
                    and self.what[i] in (K.ID_WORD, K.ID_EMPTY) and self.t8[i] < m.start() < self.le_misc[i]):
                out.add(i + 1)
        return out

    def links_before_their_entity(self) -> None:
        """udapi reads the links node by node: the entity after ``<`` must be known there (a Bridge's must
        have a mention opened at or before the node; a SplitAnte's may also have been named before, by any
        link), or the scorer crashes (KeyError, IndexError).  An entity mentioned nowhere in the file is
        :meth:`links_resolved`'s error; in a batch, one opened in an earlier batch is settled by the file."""
        opened: dict[str, int] = {}  # entity -> the place of its first mention's node in udapi's order
        for eid, line in self.M[:, [self.K.M_EID, self.K.M_LINE]].tolist():
            place = int(self.rank[line])
            if place < opened.get(self.names[eid], place + 1):
                opened[self.names[eid]] = place
        named: set[str] = set()
        for line, name, ante, this, doc in self.link_items:  # (in udapi's order)
            first = opened.get(this)
            known = first is not None and first <= self.rank[line] or name != "Bridge" and this in named
            if not known and self.start is not None:
                self.early.append((this, line + self.line0, doc, link_before_entity(name, this)))
            elif not known and first is not None:  # (else links_resolved's error: no mention at all)
                self.fail(line, link_before_entity(name, this), doc)
            named.add(ante)

    def bracket_problem(self, status: int, err: np.ndarray) -> None:
        K = self.K
        line, a_s, a_e, b_s, b_e, v0, v1 = (int(x) for x in err[1:])
        a = self.text_at(a_s, a_e) if a_e > a_s else ""
        doc = self.doc_of(int(self.block[line - 1]))
        name = self.names[a_s] if status == K.E_HEAD_OUTSIDE else self.names[v0] if v0 < len(self.names) else ""
        problems = {
            K.E_NO_HEADER: lambda: 'Entity= annotation but no "# global.Entity = ..." header line',
            K.E_HEAD_TEXT: lambda: f"head index {a!r} of {self.text_at(b_s, b_e)!r} is not a number",
            K.E_NO_ID: lambda: f"Entity {a!r} has no entity id",
            K.E_BAD_PART: lambda: f"entity id {a!r} ends with ']' but is not a discontinuous part like e3[1/2]",
            K.E_NO_FIRST_PART: lambda: (
                f"part {a}/{self.text_at(b_s, b_e)} of a discontinuous mention of {name!r} without its first part"
                + (" in this batch of the file (an earlier document may have left one incomplete, which the CorefUD "
                   "scorer would complete: read the file whole, with a larger --batch-size)"
                   if self.start is not None else "")),
            K.E_LAST_PART_NO_HEAD: lambda: (f"the last part of a discontinuous mention of {name!r} has no head index "
                                            "(the CorefUD scorer crashes here)"),
            K.E_NOT_OPENED: lambda: f"mention of {a!r} closed but not opened",
            K.E_CROSSES: lambda: (f"mention of {a!r} opened at line {v0 + self.line0} crosses a sentence boundary "
                                  "(the CorefUD scorer does not read cross-sentence mentions)"),
            K.E_NOT_DISCONTINUOUS: lambda: (
                f"{a!r} closes part {self.text_at(b_s, b_e)} of a discontinuous mention, but the mention of "
                f"{name!r} opened at line {v1 + self.line0} is not discontinuous"),
            K.E_HEAD_OUTSIDE: lambda: f"head index {v0} of a mention of {name!r} outside the mention's {v1} node(s)",
        }
        self.fail(line, problems[status](), doc)

    # ---- the table

    def read(self) -> MentionTable:
        first = self.first_problem()
        self.brackets(first.block if first is not None else self.nb)
        if first is not None:
            self.raise_problem(first)
        self.warnings = [f"{self.path}:{int(self.M[m, self.K.M_LINE]) + self.line0}: mention of "
                         f"{self.names[int(self.M[m, self.K.M_EID])]!r} opened but never closed: ignored (as the "
                         "CorefUD scorer does)" for m in self.drop.tolist()]
        counts = {"no_bracket": (int(self.outside[2]), f"{self.path}:{int(self.outside[3]) + self.line0}"),
                  "multiword": self.multiword, "extra_columns": self.extra_columns, "short_lines": self.short,
                  "loose_comment": (len(self.loose), self.loose[0] if self.loose else ""),
                  "heads_outside": (int(self.outside[0]), f"{self.path}:{int(self.outside[1]) + self.line0}"),
                  "no_words": self.no_words}

        def counted(*kinds: str) -> list[str]:
            return [counted_warning(kind, *counts[kind]) for kind in kinds if counts[kind][0]]

        self.warnings += counted("no_bracket", "multiword", "extra_columns", "short_lines", "loose_comment")
        self.warnings += [w for w in (self.header_warning, *self.scorer_crash_warnings()) if w]
        self.warnings += counted("heads_outside") + ([self.tree] if self.tree else []) + counted("no_words")
        self.early: list[tuple[str, int, str, str]] = []
        self.links_before_their_entity()
        opened = set(self.names)  # (udapi deletes an entity whose mentions were all left open: no error)
        self.all_mentions, self.all_names = self.M, self.names  # before the left-open ones go (coref_links)
        self.keep_mentions()
        self.unresolved = self.links_resolved(opened)
        self.zones()
        table = self.table()
        table.sentences = self.sentences()
        table.warnings = self.warnings
        if self.start is not None:
            table.batch = BatchFacts(self.b_grp[self.starts].tolist(), self.docs_before, self.unresolved,
                                     early=self.early)
        return table

    def coref_links(self) -> list[CorefLink]:
        """The Bridge and SplitAnte links read, in udapi's order, each with the table row of a Bridge's anaphor:
        udapi gives a Bridge to the last mention of its entity opened so far (None: that mention was left open,
        and udapi deleted it with its link)."""
        K, M = self.K, self.all_mentions
        kept = M[:, K.M_DROPPED] == 0
        row_of = np.full(len(M), -1, dtype=np.int64)
        row_of[np.flatnonzero(kept)[self.rows]] = np.arange(len(self.rows))
        by_entity: dict[str, list[int]] = {}
        for m, x in enumerate(M[:, K.M_EID].tolist()):
            by_entity.setdefault(self.all_names[x], []).append(m)
        out = []
        for line, name, ante, this, doc in self.link_items:
            row = None
            if name == "Bridge":
                made = [m for m in by_entity.get(this, ()) if self.rank[M[m, K.M_LINE]] <= self.rank[line]]
                row = int(row_of[made[-1]]) if made and row_of[made[-1]] >= 0 else None
            out.append(CorefLink(line + self.line0, "Bridge" if name == "Bridge" else "SplitAnte",
                                 ante, this, doc, row))
        return out

    def scorer_crash_warnings(self) -> list[str]:
        """Lines read here that crash the CorefUD scorer, which the intended score does not depend on: one
        empty line opening the file (udapi's ``re.split(r"\\n\\n+")`` leaves it at the start of the first
        sentence), lines of only blanks (udapi reads them as word lines) and one newline ending the file."""
        out = []
        data = self.data[3:] if self.data.startswith(b"\xef\xbb\xbf") else self.data
        if self.line0 == 0 and data.startswith(b"\n") and not data.startswith(b"\n\n"):
            out.append(crash_warning("leading_empty_line", f"{self.path}:1"))
        if _BLANK_AT_END.search(data):  # (a line of white space ends so; most files have none)
            if m := _BLANKS_LINE.search(self.data):
                line = self.data.count(b"\n", 0, m.start()) + 1 + self.line0
                out.append(crash_warning("blank_line", f"{self.path}:{line}"))
        if data.endswith(b"\n") and not data.endswith(b"\n\n"):
            last = self.data.count(b"\n") + self.line0
            out.append(crash_warning("single_newline", f"{self.path}:{last}"))
        return out

    def zones(self) -> None:
        """udapi reads ``# sent_id = BUNDLE/ZONE``: a zone must be a valid name, and mentions in two zones
        make it compare words across zones: the CorefUD scorer stops on both."""
        if not self.data.count(b"/"):
            return
        blocks = [b for b in range(self.nb) if "/" in self.sent_id(b)]
        if not blocks:
            return
        zone = {b: self.sent_id(b).split("/", 1)[1] for b in blocks}
        for b in blocks:
            if not _ZONE.match(zone[b]):
                self.fail(int(self.b_sid_line[b]) + 1 if self.b_sid_line[b] >= 0 else int(self.b_first[b]),
                          zone_invalid(self.sent_id(b), zone[b]), self.doc_of(b))
        first: dict[str, int] = {}  # zone -> the line of its first mention ("": none, as udapi's default)
        for line in sorted(self.M[:, self.K.M_LINE].tolist()):
            first.setdefault(zone.get(int(self.block[line - 1]), ""), line)
        if len(first) > 1:
            (z1, l1), (z2, l2) = sorted(first.items(), key=lambda x: x[1])[:2]
            self.fail(l2, zones_mixed(z1, l1 + self.line0, z2), self.doc_of(int(self.block[l2 - 1])))

    def keep_mentions(self) -> None:
        """Mentions dropped (left open) out; entities numbered among those with a mention."""
        K, M = self.K, self.M
        kept = M[:, K.M_DROPPED] == 0
        new = np.cumsum(kept) - 1
        log = self.log[kept[self.log[:, 0]]]
        self.log_m, self.log_k = new[log[:, 0]], log[:, 1].copy()
        self.M = M = M[kept]
        used = np.zeros(len(self.names), dtype=bool)
        used[M[:, K.M_EID]] = True
        self.m_eid = (np.cumsum(used) - 1)[M[:, K.M_EID]]
        self.names = [n for n, u in zip(self.names, used.tolist()) if u]

    def links_resolved(self, opened: set[str]) -> list[tuple[str, int, str, str]]:
        """Bridge and SplitAnte name entities that must have a mention, kept or left open (else the scorer
        stops); in a batch, those without one in the batch are left to the whole file."""
        unresolved = [(eid, line + self.line0, doc, name) for eid, (line, doc, name) in self.linked.items()
                      if eid not in opened]
        if unresolved and self.start is None:
            eid, line, doc, name = unresolved[0]
            raise ParseError(self.path, line, entity_without_mention(name, eid), doc)
        return unresolved

    def table(self) -> MentionTable:
        """Mentions grouped by document and entity: entities in the order of their first mention, mentions
        sorted as udapi sorts them (first node; the longer first; last node); an entity whose mentions lie in
        two documents is one cluster per document."""
        K, M = self.K, self.M
        n_m, n_e, n_log = len(M), len(self.names), len(self.log_m)
        m_eid, log_m, log_k = self.m_eid, self.log_m, self.log_k
        # each mention's words (sorted, without repeats) and head
        by_m = np.argsort(log_m, kind="stable")
        log_off = offsets(np.bincount(log_m, minlength=n_m))
        order = np.lexsort((log_k, log_m))
        lm, lk = log_m[order], log_k[order]
        keep = np.ones(n_log, dtype=bool)
        keep[1:] = (lm[1:] != lm[:-1]) | (lk[1:] != lk[:-1])
        w_keys = lk[keep]
        w_off = offsets(np.bincount(lm[keep], minlength=n_m))
        first = w_keys[w_off[:-1]] if n_m else np.zeros(0, dtype=np.int64)
        last = w_keys[w_off[1:] - 1] if n_m else np.zeros(0, dtype=np.int64)
        size = np.diff(w_off)
        heads = K.mention_heads(log_off, log_k[by_m], M[:, K.M_EV].copy(), M[:, K.M_EV_H].copy(),
                                M[:, K.M_EV_CNT].copy(), first)
        # rows: by document, entity (in the order of its first mention, then its id), mention (udapi's order)
        mention_order = np.lexsort((np.arange(n_m), last, -size, first, m_eid))
        sorted_eid = m_eid[mention_order]
        starts_e = np.flatnonzero(np.r_[True, sorted_eid[1:] != sorted_eid[:-1]]) if n_m else np.zeros(0, np.int64)
        ef = mention_order[starts_e]  # each entity's first mention
        e_key = (first[ef], -size[ef], last[ef])
        name_rank = np.empty(n_e, dtype=np.int64)
        name_rank[sorted(range(n_e), key=self.names.__getitem__)] = np.arange(n_e)
        e_order = np.lexsort((name_rank,) + e_key[::-1])  # entities whose first mentions are the same: by id
        e_rank = np.empty(n_e, dtype=np.int64)
        e_rank[e_order] = np.arange(n_e)
        m_doc = self.b_doc[first >> SENTENCE_SHIFT]
        rows = np.lexsort((np.arange(n_m), last, -size, first, e_rank[m_eid], m_doc))
        self.rows = rows  # table row -> mention (coref_links)
        r_doc, r_ent = m_doc[rows], m_eid[rows]
        new_cluster = np.ones(n_m, dtype=bool)
        new_cluster[1:] = (r_doc[1:] != r_doc[:-1]) | (r_ent[1:] != r_ent[:-1])
        n_docs = len(self.doc_names)
        doc_off = offsets(np.bincount(r_doc, minlength=n_docs))
        cum = np.cumsum(new_cluster) - 1
        cluster = cum - cum[doc_off[:-1][r_doc]] if n_m else cum
        labels: list[list[str]] = [[] for _ in range(n_docs)]
        for d, x in zip(r_doc[new_cluster].tolist(), r_ent[new_cluster].tolist()):
            labels[d].append(self.names[x].split(":", 1)[-1])
        r_heads = heads[rows]
        dep_off, parent, rel, rel_names = self.head_deps(r_heads)
        zero = (r_heads & ((1 << ORD_SHIFT) - 1)) != 0
        if self.zero_keys:
            zero |= np.isin(r_heads, self.zero_keys)
        at_w, key_off = gather_csr(w_off, rows)
        words = Words(offsets=key_off, keys=w_keys[at_w], head=r_heads, zero=zero, dep_offsets=dep_off,
                      dep_parent=parent, dep_rel=rel, rel_names=rel_names, lines=M[rows, K.M_LINE] + self.line0)
        self.b_words = np.bincount(self.block[self.regular_lines()], minlength=self.nb)
        doc_words = np.bincount(self.b_doc, weights=self.b_words, minlength=n_docs).astype(np.int64)
        return MentionTable(
            path=self.path, doc_names=self.doc_names, doc_lines=self.b_first[self.starts] + self.line0,
            doc_tokens=doc_words, doc_offsets=doc_off, start=first[rows], end=last[rows] + 1,
            cluster=cluster.astype(np.int32), cluster_labels=labels, words=words)

    def regular_lines(self) -> np.ndarray:
        return np.flatnonzero((self.kind == self.K.KIND_TOKEN) & (self.what == self.K.ID_WORD))

    def head_deps(self, heads: np.ndarray):
        """The heads' DEPS: (offsets, parent keys, relation codes, relation names)."""
        K, data = self.K, self.data
        node_ds, node_de = self.t7[self.node_line] + 1, self.t8[self.node_line]
        canon = self.canonical[self.node_line]
        err = np.zeros(8, dtype=np.int64)
        slots, cap = 64, 2 * len(heads) + 16
        while True:
            st, dep_off, parent, rel, r_s, r_e, n_rel, odd, n_odd = K.head_deps(
                self.buf, heads, self.node_key, canon, node_ds, node_de, np.full(slots, -1, dtype=np.int64), cap, err)
            if st != K.FULL:
                break
            slots, cap = 4 * slots, 4 * cap
        for k, m, p, q, colon in odd[:n_odd].tolist():  # parents not written canonically (before any problem)
            parent[k] = self.python_parent(int(heads[m]), p, q, colon)
        if st != K.OK:
            m, p, q = (int(x) for x in err[1:4])
            self.deps_problem(int(heads[m]), self.text_at(p, q), st)  # (E_DEPS_ITEM or E_DEPS_NODE)
        rel_text = [data[s:e].decode() for s, e in zip(r_s[:n_rel].tolist(), r_e[:n_rel].tolist())]
        rel_names = sorted(set(rel_text))
        code = np.asarray([rel_names.index(x) for x in rel_text] or [0], dtype=np.int32)
        n_deps = int(dep_off[-1])
        return dep_off, parent[:n_deps].copy(), code[rel[:n_deps]], rel_names

    def python_parent(self, head: int, p: int, q: int, colon: int) -> int:
        """The key of a DEPS parent not written canonically, as int() reads it; an error if the sentence has
        no node of that ID."""
        item, parent = self.text_at(p, q), self.text_at(p, colon)
        s = head >> SENTENCE_SHIFT
        try:
            key = word_key(s, parent)
        except ValueError:
            key = -1
        if key < 0:
            self.deps_problem(head, item, self.K.E_DEPS_ITEM)
        lines = np.flatnonzero((self.block == s) & (self.kind == self.K.KIND_TOKEN)).tolist()
        if parent != "0" and parent not in {self.ident(i) for i in lines}:
            self.deps_problem(head, item, self.K.E_DEPS_NODE)
        return key

    def deps_problem(self, head: int, item: str, problem: int) -> None:
        j = int(np.searchsorted(self.node_key, head, side="right")) - 1
        while not self.canonical[self.node_line[j]]:
            j -= 1
        line = int(self.node_line[j]) + 1
        doc = self.doc_of(int(self.block[line - 1]))
        if problem == self.K.E_DEPS_ITEM:
            self.fail(line, f"DEPS item {item!r} is not HEAD:RELATION", doc)
        parent = item.partition(":")[0]
        self.fail(line, f"DEPS item {item!r} names node {parent!r}, which the sentence does not have (the CorefUD "
                        "scorer crashes here)", doc)

    def sentences(self) -> _Sentences:
        lines = self.regular_lines()
        return _Sentences(data=self.buf, sid_s=self.b_sid_s, sid_e=self.b_sid_e, sid_text=self.sid_text,
                          lines=self.b_tok + self.line0, newdoc=self.newdoc, form_off=offsets(self.b_words),
                          form_s=self.t0[lines] + 1, form_e=self.t1[lines], words=self.b_words)


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
# a line of only what str.isspace() calls white space (the scanner's _space: ASCII blanks, U+0085, U+00A0, U+1680,
# U+2000-U+200A, U+2028, U+2029, U+202F, U+205F, U+3000), and the last byte such a line can end with
_BLANKS_LINE = re.compile(rb"^(?:[\t\x0b\x0c\r\x1c-\x1f ]|\xc2[\x85\xa0]|\xe1\x9a\x80|\xe3\x80\x80|"
                          rb"\xe2\x80[\x80-\x8a\xa8\xa9\xaf]|\xe2\x81\x9f)+$", re.M)
_BLANK_AT_END = re.compile(rb"[\t\x0b\x0c\r\x1c-\x1f \x80-\x8a\x9f\xa0\xa8\xa9\xaf](?:\n|\Z)")
_LEGACY_SPLIT = re.compile(rb"(?<=[\t|])Split=[^|\n]*")
_ZONE = re.compile(r"^[a-z-]*(_[A-Za-z0-9-]+)?$")  # udapi's VALID_ZONE_REGEX
_MARKED = re.compile(rb"Entity=|Bridge=|SplitAnte=")
_NODE_ID = re.compile(rb"[0-9]+(?:[.-][0-9]+)?(?:\t|$)", re.M)  # a word's, empty node's or multiword token's
