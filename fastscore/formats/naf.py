"""NAF and KAF documents (NewsReader, KYOTO, OpeNER): the layers the triple converters and the coreference
reader need — word forms, terms (with their token spans and sentiment), entities, properties, opinions,
semantic roles, coreference chains.

Both namings are read: KAF's ``wid``/``tid``/``eid``/``pid``/``oid``/``coid`` and NAF's ``id`` (element and
attribute names compared ignoring case, values trimmed, as the KYOTO KAF parser the Triple evaluation
module uses does; that parser reads KAF only).  Spans keep their targets in order, repeats included.

:func:`read_naf_coref` reads the coreference layer of one NAF/KAF file or of a folder of them as a
:class:`~fastscore.formats.table.MentionTable`: within documents (one table document per file) or across
documents (one table document per topic, ECB+ style).
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field

from ..errors import ParseError
from ..messages import shown
from ..outputs import is_hidden
from .files import read_bytes, refuse_stdin, reject_other_format, source_name
from .xml_input import expat_parser, looks_like_xml, parse_whole, xml_root


def trim(s: str) -> str:
    """Java's ``String.trim()``: every character up to U+0020 removed at both ends."""
    if s and s[0] > " " and s[-1] > " ":
        return s
    start, end = 0, len(s)
    while start < end and s[start] <= " ":
        start += 1
    while end > start and s[end - 1] <= " ":
        end -= 1
    return s[start:end]


EXTENSIONS = (".naf", ".kaf", ".xml")
SENTIMENT_KEYS = ("resource", "polarity", "strength", "subjectivity", "sentiment_semantic_type",
                  "sentiment_modifier", "factual", "sentiment_product_feature")


@dataclass
class Span:
    targets: list[str]
    line: int


@dataclass
class Annotation:
    """An entity, property, opinion, predicate, role or coreference chain: id, attributes, spans."""

    kind: str
    id: str
    attrs: dict[str, str]
    line: int
    spans: list[Span] = field(default_factory=list)  # entities, properties, chains: one per <span>
    parts: dict[str, list[str]] = field(default_factory=dict)  # opinions: holder/target/expression targets
    part_attrs: dict[str, dict[str, str]] = field(default_factory=dict)
    roles: list["Annotation"] = field(default_factory=list)  # predicates


@dataclass
class Term:
    id: str
    tokens: list[str]
    sentiment: dict[str, str] | None
    line: int


@dataclass
class NafDocument:
    path: str
    kind: str  # "naf" or "kaf" (the root element)
    root: str = ""  # the root element's name as written
    words: dict[str, str] = field(default_factory=dict)  # token id -> word form
    word_order: list[str] = field(default_factory=list)
    terms: list[Term] = field(default_factory=list)
    term_tokens: dict[str, list[str]] = field(default_factory=dict)  # term (and component) id -> token ids
    entities: list[Annotation] = field(default_factory=list)
    properties: list[Annotation] = field(default_factory=list)
    opinions: list[Annotation] = field(default_factory=list)
    predicates: list[Annotation] = field(default_factory=list)
    corefs: list[Annotation] = field(default_factory=list)
    layers: set[str] = field(default_factory=set)
    doc_id: str = ""  # public/@publicId or fileDesc (when given)
    repeated: list[tuple[str, str, int, int]] = field(default_factory=list)  # (element, id, line, first line)

    def __repr__(self) -> str:
        return (f"NafDocument({self.path!r}, {self.kind}, {len(self.words)} words, {len(self.terms)} terms, "
                f"{len(self.entities)} entities, {len(self.opinions)} opinions, {len(self.corefs)} chains)")


_ID_NAMES = {"wf": ("wid", "id"), "term": ("tid", "id"), "component": ("id",), "entity": ("eid", "id"),
             "property": ("pid", "id"), "opinion": ("oid", "id"), "predicate": ("prid", "id"),
             "role": ("rid", "id"), "coref": ("coid", "id")}
_OWNERS = {"entity": "entities", "property": "properties", "opinion": "opinions", "predicate": "predicates",
           "coref": "corefs"}  # annotations with spans, and the NafDocument list each goes to
_LAYERS = {"text": "text", "terms": "terms", "entities": "entity", "properties": "property", "opinions": "opinion",
           "srl": "srl", "coreferences": "coref"}


def _attrs(attrs: dict) -> dict[str, str]:
    return {k.lower(): trim(v) for k, v in attrs.items()}


def _id(tag: str, a: dict[str, str]) -> str:
    for name in _ID_NAMES[tag]:
        if name in a:
            return a[name]
    return ""


class _Handler:
    def __init__(self, doc: NafDocument, parser):
        self.doc = doc
        self.p = parser
        self.stack: list[str] = []
        self.text: list[str] = []
        self.word: str | None = None
        self.term: Term | None = None
        self.components: list[str] = []
        self.owner: Annotation | None = None  # entity, property, opinion, predicate or coref being read
        self.role: Annotation | None = None
        self.part: str | None = None  # opinion_holder, opinion_target, opinion_expression
        self.span: Span | None = None
        self.in_external = 0
        self.seen: dict[tuple[str, str], int] = {}  # (element, id) -> line: ids that must be unique

    def _note_id(self, tag: str, ident: str, line: int) -> None:
        first = self.seen.get((tag, ident))
        if first is None:
            self.seen[(tag, ident)] = line
        elif ident:  # given twice, on the same line too (generated NAF is often one line)
            self.doc.repeated.append((tag, ident, line, first))

    def start(self, name: str, attrs: dict) -> None:
        tag = name.lower()
        self.stack.append(tag)
        line = self.p.CurrentLineNumber
        a = _attrs(attrs)
        if len(self.stack) == 1:
            self.doc.kind = "naf" if tag == "naf" else "kaf"
            self.doc.root = name
        if tag in _LAYERS:
            self.doc.layers.add(_LAYERS[tag])
        if tag == "public" and not self.doc.doc_id:
            self.doc.doc_id = a.get("publicid", "") or a.get("uri", "")
        if tag == "externalreferences":
            self.in_external += 1
        elif tag == "wf":
            self.word = _id("wf", a)
            self.text = []
            self._note_id(tag, self.word, line)
        elif tag == "term":
            self.term = Term(_id("term", a), [], None, line)
            self.components = []
            self._note_id(tag, self.term.id, line)
        elif tag == "component" and self.term is not None:
            self.components.append(_id("component", a))
        elif tag == "sentiment" and self.term is not None and not self.in_external and "component" not in self.stack:
            self.term.sentiment = {k: a[k] for k in a if k in SENTIMENT_KEYS or k == "semantic_type"}
        elif tag in _OWNERS:
            self.owner = Annotation(tag, _id(tag, a), a, line)
            if tag == "coref":
                self._note_id(tag, self.owner.id, line)
        elif tag == "role" and self.owner is not None and self.owner.kind == "predicate":
            self.role = Annotation("role", _id("role", a), a, line)
        elif tag in ("opinion_holder", "opinion_target", "opinion_expression") and self.owner is not None:
            self.part = tag
            self.owner.parts[tag] = []
            self.owner.part_attrs[tag] = a
        elif tag == "span":
            self.span = Span([], line)
        elif tag == "target":
            if self.span is None:  # a target outside a span (old KAF): its own span
                self.span = Span([], line)
                self.stack[-1] = "target-span"
            self.span.targets.append(a.get("id", ""))

    def end(self, name: str) -> None:
        tag = self.stack.pop()
        if tag in ("span", "target-span"):
            self._close_span()
        elif tag == "externalreferences":
            self.in_external -= 1
        elif tag == "wf":
            if self.word is not None:
                self.doc.words[self.word] = trim("".join(self.text))
                self.doc.word_order.append(self.word)
            self.word = None
        elif tag == "term" and self.term is not None:
            self.doc.terms.append(self.term)
            self.doc.term_tokens[self.term.id] = self.term.tokens
            for c in self.components:
                self.doc.term_tokens[c] = self.term.tokens
            self.term = None
        elif tag in ("opinion_holder", "opinion_target", "opinion_expression"):
            self.part = None
        elif tag == "role" and self.role is not None and self.owner is not None:
            self.owner.roles.append(self.role)
            self.role = None
        elif tag in _OWNERS and self.owner is not None:
            getattr(self.doc, _OWNERS[tag]).append(self.owner)
            self.owner = None

    def _close_span(self) -> None:
        span = self.span
        self.span = None
        if span is None:
            return
        if self.term is not None and self.owner is None:
            if not self.in_external:
                self.term.tokens.extend(span.targets)
        elif self.role is not None:
            self.role.spans.append(span)
        elif self.owner is not None and self.part is not None:
            self.owner.parts[self.part].extend(span.targets)
        elif self.owner is not None:
            self.owner.spans.append(span)

    def chars(self, data: str) -> None:
        if self.word is not None:
            self.text.append(data)


def parse_naf(data: bytes, path: str) -> NafDocument:
    doc = NafDocument(path, "naf")
    parser = expat_parser(path)
    parser.buffer_text = True
    handler = _Handler(doc, parser)
    parser.StartElementHandler = handler.start
    parser.EndElementHandler = handler.end
    parser.CharacterDataHandler = handler.chars
    try:
        parse_whole(parser, data, path, column=True)
    except ParseError:
        reject_other_format(path, data, "naf", allowed=("xml",))  # a file of another task's: the command for it
        if not looks_like_xml(data):  # not expat's "syntax error (column 1)"
            raise ParseError(path, None, "not XML (its first non-blank character is not '<'): NAF/KAF documents are "
                                         "XML") from None
        raise
    return doc


def id_problems(doc: NafDocument) -> list[str]:
    """What a reader of ids would silently mis-read, one line per kind (for a warning): a token, term or
    coreference chain id given twice (the later one is looked up), terms covering tokens the text layer
    does not have, terms without a text layer."""
    out = []
    for tag in ("wf", "term", "coref"):
        twice = [(ident, line, first) for t, ident, line, first in doc.repeated if t == tag]
        if twice:
            ident, line, first = twice[0]
            out.append(f'{doc.path}:{line}: {len(twice)} {tag} id(s) given twice, first "{shown(ident)}" (also at line '
                       f"{first}): the later one is used")
    if doc.terms and not doc.words:
        out.append(f"{doc.path}:{doc.terms[0].line}: no text layer (no <wf> tokens): the terms cover no word")
    elif doc.words:
        missing = [(term, tok) for term in doc.terms for tok in term.tokens if tok not in doc.words]
        if missing:
            term, tok = missing[0]
            out.append(f'{doc.path}:{term.line}: {len(missing)} term target(s) name tokens the text layer does '
                       f'not have, first: term "{shown(term.id)}", token "{shown(tok)}"')
    return out


def read_naf(path: str | os.PathLike) -> NafDocument:
    """One NAF or KAF file."""
    path = os.fspath(path)
    return parse_naf(read_bytes(path), source_name(path))


NAF_ROOTS = ("NAF", "KAF", "naf", "kaf")


def is_naf(data: bytes, path: str | None = None) -> bool:
    """Is this XML whose root element is <NAF> or <KAF> (see :func:`.xml_input.xml_root`; ``path``: the file
    its refusal of an entity names)?"""
    root = xml_root(data, path=path)
    return root is not None and root.name in NAF_ROOTS


# ---- coreference as a mention table

_QUALIFIED = re.compile(r"^(?P<doc>.+)[#/:](?P<id>[^#/:]+)$")


def _naf_files(path: str) -> list[str]:
    return sorted(n for n in os.listdir(path)
                  if n.lower().endswith(EXTENSIONS) and not is_hidden(n) and os.path.isfile(os.path.join(path, n)))


def _topic_of(name: str) -> str:
    """ECB+ file names start with their topic: ``1_10ecb.xml``, ``1_3ecbplus.naf`` -> ``1``."""
    m = re.match(r"^(\d+)_", os.path.basename(name))
    return m.group(1) if m else os.path.splitext(os.path.basename(name))[0]


def holds_naf(folder: str) -> bool:
    """Whether a folder holds NAF/KAF files, in it or in topic folders."""
    return bool(_naf_files(folder)) or any(
        _naf_files(os.path.join(folder, d)) for d in os.listdir(folder)
        if not is_hidden(d) and os.path.isdir(os.path.join(folder, d)))


def _documents(path: str) -> list[tuple[str, str, str]]:
    """(topic, document name, file path) of a file, a folder of files, or a folder of topic folders."""
    if not os.path.isdir(path):
        base = os.path.basename(path)
        return [(_topic_of(base), base, path)]
    out = [(_topic_of(name), name, os.path.join(path, name)) for name in _naf_files(path)]
    out += [(d, f"{d}/{name}", os.path.join(path, d, name))
            for d in sorted(d for d in os.listdir(path) if not is_hidden(d) and os.path.isdir(os.path.join(path, d)))
            for name in _naf_files(os.path.join(path, d))]
    if not out:
        raise ParseError(path, None, f"folder has no NAF/KAF files ({', '.join(EXTENSIONS)}), neither in it nor in "
                         "topic folders")
    return out


def read_naf_coref(path_or_folder: str | os.PathLike, cross_document: bool = False):
    """The coreference chains of NAF/KAF documents as a :class:`~fastscore.formats.table.MentionTable`.

    Input: one file, a folder of files, or a folder of topic folders (ECB+ layout ``T/T_Necb.xml``).
    A mention is a span of a ``<coref>`` (``<span><target id="t3"/>...</span>``; in old KAF a bare
    ``<target>`` is a span of its own), its terms mapped to tokens through the terms layer and the tokens
    numbered in the order of the text layer; it covers its first to its last token (``[start, end)``,
    gaps included); a chain is a ``<coref>``, labelled by its id.

    ``cross_document=False``: one table document per file, named by its path in the folder.
    ``cross_document=True``: one table document per topic — the topic folder, or the number before ``_``
    in ECB+ file names — whose files' tokens are numbered one file after the other (files in name order),
    so that a topic is scored as one document; chains with the same id in files of a topic are one chain
    (cross-document ids), and a target may name another file of its topic (``FILE#t3``, ``FILE/t3`` or
    ``FILE:t3``, FILE with or without its extension: CAT style).

    A target naming no term, and a term's token missing from the text layer, are errors naming the file
    and line.
    """
    from .table import MentionTable

    path = os.fspath(path_or_folder)
    refuse_stdin(path, "NAF documents are named, and paired with the other side's, by their file names")
    files = _documents(path)
    keys = [topic if cross_document else name for topic, name, _ in files]
    groups = list(dict.fromkeys(keys))
    tokens_of = dict.fromkeys(groups, 0)
    parsed = []
    by_name: dict[str, tuple[NafDocument, dict[str, int], str]] = {}
    for key, (_, name, file) in zip(keys, files):
        doc = _coref_document(file)
        for tag, ident, line, first in doc.repeated[:1]:  # no official scorer to follow: refused
            raise ParseError(doc.path, line, f'{tag} id "{shown(ident)}" given twice (first at line {first})', name)
        base = tokens_of[key]
        positions = {t: base + k for k, t in enumerate(doc.word_order)}
        tokens_of[key] = base + len(doc.word_order)
        parsed.append((key, name, doc, positions))
        for alias in (name, os.path.basename(name), os.path.splitext(os.path.basename(name))[0]):
            by_name.setdefault(alias, (doc, positions, key))
    chains: dict[str, dict[str, list[tuple[int, int]]]] = {k: {} for k in groups}
    for key, name, doc, positions in parsed:
        for chain in doc.corefs:
            for span in chain.spans:
                where, tokens = None, []
                for target in span.targets:
                    group, toks = _target_tokens(target, doc, positions, key, by_name, chain.id, span.line, name)
                    if where is not None and group != where:
                        raise ParseError(doc.path, span.line, f'coreference chain "{shown(chain.id)}": a span with '
                                         f"targets in two documents ({where}, {group})", name)
                    where = group
                    tokens.extend(toks)
                if not tokens:
                    raise ParseError(doc.path, span.line, f'coreference chain "{shown(chain.id)}": empty span', name)
                chains[where].setdefault(chain.id, []).append((min(tokens), max(tokens) + 1))
    table = MentionTable.from_documents({k: list(chains[k].values()) for k in groups}, tokens_of,
                                        path=source_name(path))
    table.cluster_labels = [list(chains[k]) for k in groups]
    return table


def _coref_document(path: str) -> NafDocument:
    """One NAF or KAF file of coreference: another XML document (TimeML, a triples file...) is refused, not scored
    as a document without chains."""
    data = read_bytes(path)
    doc = parse_naf(data, source_name(path))
    if doc.root.lower() not in ("naf", "kaf"):
        reject_other_format(doc.path, data, "naf", allowed=("xml",))
        raise ParseError(doc.path, None, f"the root element is <{shown(doc.root)}>, not <NAF> or <KAF>: not a "
                                         "NAF/KAF document")
    return doc


def _target_tokens(target: str, doc: NafDocument, positions: dict[str, int], group: str, by_name, chain: str,
                   line: int, name: str) -> tuple[str, list[int]]:
    """(table document, token positions) of a coreference target (a term, or FILE#term of another file)."""
    path = doc.path
    if target not in doc.term_tokens:
        m = _QUALIFIED.match(target)
        if m and m.group("doc") in by_name:
            doc, positions, group = by_name[m.group("doc")]
            target = m.group("id")
    tokens = doc.term_tokens.get(target)
    if tokens is None:
        raise ParseError(path, line, f'coreference chain "{shown(chain)}": target "{shown(target)}" names no term',
                         name)
    out = []
    for tok in tokens:
        if tok not in positions:
            raise ParseError(path, line, f'coreference chain "{shown(chain)}": term "{shown(target)}" covers token '
                             f'"{shown(tok)}", which the text layer does not have', name)
        out.append(positions[tok])
    return group, out
