"""Converters to triples: NAF/KAF layers (the Triple evaluation module's ``ConvertKafToTriples`` and
``KafLayerToTriple``) and KYOTO tuples (``ConvertTuplesToTriples``).  Relation translation
(``TripleRelationConversion``) is the scorer's ``--relation-map``.

``fastscore convert IN OUT --to triples`` is :func:`convert`.  In memory, :func:`naf_to_triples` and
:func:`tuples_to_triples` return a :class:`~fastscore.formats.triples.TripleDoc` (the scorer's ``--layers``).

NAF/KAF layers, as the module converts them (a layer's triples after the previous layer's, in the
module's order: term sentiment, opinions, entities, properties; then semantic roles):

- ``sentiment``: one unary triple per term with a sentiment value (id: the term; relation
  ``polarity#strength#semantic_type#factual#subjectivity#modifier#product_feature``; first element: the
  term's tokens);
- ``opinion``: per opinion, a triple expression -> holder (second label ``holder:TYPE``) and one
  expression -> target (label ``target``), or a unary triple of the expression when it has neither; relation
  ``polarity#strength#semantic_type#factual#subjectivity##product_feature`` of the expression; profile: the
  opinion's ``overlap_ents`` and ``overlap_props``; ``intersect``: only opinions with one of them;
- ``entity``: one unary triple per entity span (relation: the entity type);
- ``property``: one unary triple per property span (relation: its ``type``; NAF properties without one:
  their ``lemma``, reported);
- ``srl`` (not in the module, whose semantic-role converter is commented out): one triple per role,
  predicate -> role, relation the role's ``semRole``, id the role's id.

Term ids become token ids through the terms layer; comments are the words of the tokens.  What a layer
cannot express is reported: annotations without spans, targets naming no term, triples left without a
relation, tokens without a word form, requested layers missing from a file.

KYOTO Kybot output (the module's ``KybotOutputToTriples``, see :func:`kybot_output_to_triples`) needs the KAF
file the Kybots read (its terms layer maps term ids to tokens) and a WSD ``threshold``.
"""
from __future__ import annotations

import math
import os
import re
from typing import Iterable

from ..errors import InputError, ParseError, UsageError
from ..formats.files import read_bytes, read_head, reject_other_format, source_name
from ..formats.naf import NAF_ROOTS, NafDocument, id_problems, is_naf, parse_naf, trim
from ..formats.xml_input import expat_parser, parse_whole, xml_root
from ..formats.triples import TripleDoc, module_comment, write_triples
from ..messages import shown
from ..outputs import cannot_write, is_hidden, refuse_outputs_on_inputs, write_output
from .java import d2i, hashmap_order

LAYER_ORDER = ("sentiment", "opinion", "entity", "property", "srl")
_LABEL_KEYS = ("polarity", "strength", "sentiment_semantic_type", "factual", "subjectivity", "sentiment_modifier",
               "sentiment_product_feature")


def _sentiment(values: dict[str, str]) -> dict[str, str]:
    """Sentiment values, NAF's ``semantic_type`` read as KAF's ``sentiment_semantic_type`` where that is empty."""
    v = dict(values)
    if "semantic_type" in v and not v.get("sentiment_semantic_type"):
        v["sentiment_semantic_type"] = v["semantic_type"]
    return v


def sentiment_label(values: dict[str, str]) -> str:
    """``KafTermSentiment.toTripleLabel``."""
    v = _sentiment(values)
    return "#".join(v.get(k, "") for k in _LABEL_KEYS)


def _has_value(values: dict[str, str] | None) -> bool:
    """``KafTermSentiment.hasValue`` (the modifier alone is no value)."""
    v = _sentiment(values or {})
    return any(v.get(k) for k in ("resource", "polarity", "strength", "factual", "subjectivity",
                                  "sentiment_semantic_type", "sentiment_product_feature"))


class _Converter:
    def __init__(self, naf: NafDocument, name: str):
        self.naf = naf
        self.doc = TripleDoc(name, naf.path)
        self.warnings = self.doc.warnings

    def tokens(self, terms: list[str], line: int, what: str) -> list[str]:
        out = []
        for t in terms:
            tokens = self.naf.term_tokens.get(t)
            if tokens is None:
                raise ParseError(self.naf.path, line, f'{what}: target "{shown(t)}" names no term of the terms layer')
            out.extend(tokens)
        return out

    def words(self, tokens: list[str], line: int) -> str:
        missing = [t for t in tokens if t not in self.naf.words]
        if missing:
            self.warnings.append(f"{self.naf.path}:{line}: token \"{shown(missing[0])}\" has no word form: left out "
                                 "of the comment")
        return module_comment(" ".join(self.naf.words[t] for t in tokens if t in self.naf.words).strip())

    def add(self, tid, relation, first, second=(), *, first_comment="", second_comment="", second_label="",
            profile="", layer="", line=0, what=""):
        if not relation:
            self.warnings.append(f"{self.naf.path}:{line}: {what} gives a triple without a relation (the module "
                                 "writes it so; the scorer refuses it)")
        self.doc.append(tid, relation, first, second, second_label=second_label, first_comment=first_comment,
                        second_comment=second_comment, profile=profile, layer=layer, line=line)

    # ---- layers

    def sentiment(self) -> None:
        for term in self.naf.terms:
            if _has_value(term.sentiment):
                self.add(term.id, sentiment_label(term.sentiment), term.tokens, (),
                         first_comment=self.words(term.tokens, term.line), layer="term", line=term.line,
                         what=f'term "{shown(term.id)}"')

    def opinion(self, intersect: bool) -> None:
        for op in self.naf.opinions:
            overlap = op.attrs.get("overlap_ents", "")
            if op.attrs.get("overlap_props", ""):
                overlap += " " + op.attrs["overlap_props"]
            overlap = overlap.strip()
            if intersect and not overlap:
                continue
            what = f'opinion "{shown(op.id)}"'
            expression = self.tokens(op.parts.get("opinion_expression", []), op.line, what)
            if "opinion_expression" not in op.parts:
                self.warnings.append(f"{self.naf.path}:{op.line}: {what} has no opinion_expression: its triples "
                                     "have an empty first element")
            relation = sentiment_label({k: v for k, v in op.part_attrs.get("opinion_expression", {}).items()
                                        if k != "sentiment_modifier"})
            comment = self.words(expression, op.line)
            holder = self.tokens(op.parts.get("opinion_holder", []), op.line, what)
            target = self.tokens(op.parts.get("opinion_target", []), op.line, what)
            holder_label = "holder:" + op.part_attrs.get("opinion_holder", {}).get("type", "")
            seconds = [(tokens, label) for part, tokens, label in (("opinion_holder", holder, holder_label),
                                                                   ("opinion_target", target, "target"))
                       if op.parts.get(part)]
            for second, label in seconds or [((), "")]:  # neither: a unary triple of the expression
                self.add(op.id, relation, expression, second, first_comment=comment,
                         second_comment=self.words(second, op.line), second_label=label, profile=overlap,
                         layer="opinion", line=op.line, what=what)

    def spans(self, items, layer: str) -> None:
        for item in items:
            what = f'{item.kind} "{shown(item.id)}"'
            relation = item.attrs.get("type", "")
            if layer == "property" and not relation and item.attrs.get("lemma"):
                relation = item.attrs["lemma"]
                self.warnings.append(f"{self.naf.path}:{item.line}: {what} has no type: its lemma "
                                     f"\"{shown(relation)}\" is the relation (the module's converter leaves it empty)")
            if not item.spans:
                self.warnings.append(f"{self.naf.path}:{item.line}: {what} has no span: no triple")
            for span in item.spans:
                tokens = self.tokens(span.targets, span.line, what)
                self.add(item.id, relation, tokens, first_comment=self.words(tokens, span.line), layer=layer,
                         line=span.line, what=what)

    def srl(self) -> None:
        for pred in self.naf.predicates:
            what = f'predicate "{shown(pred.id)}"'
            first = self.tokens([t for s in pred.spans for t in s.targets], pred.line, what)
            if not pred.roles:
                self.warnings.append(f"{self.naf.path}:{pred.line}: {what} has no role: no triple")
            for role in pred.roles:
                second = self.tokens([t for s in role.spans for t in s.targets], role.line, f'role "{shown(role.id)}"')
                self.add(role.id, role.attrs.get("semrole", ""), first, second,
                         first_comment=self.words(first, pred.line), second_comment=self.words(second, role.line),
                         layer="srl", line=role.line, what=f'role "{shown(role.id)}"')


_LAYER_NAMES = {"sentiment": "terms", "opinion": "opinion", "entity": "entity", "property": "property",
                "srl": "srl"}


def naf_to_triples(source: str | os.PathLike | NafDocument, layers: Iterable[str] = LAYER_ORDER,
                   intersect: bool = False, name: str | None = None) -> TripleDoc:
    """The triples of a NAF/KAF document's ``layers`` (any of ``sentiment, opinion, entity, property,
    srl``), in the module's layer order; ``intersect``: only opinions overlapping an entity or property.
    Warnings (what the layers cannot express) are in the result's ``warnings``."""
    naf = source if isinstance(source, NafDocument) else _read_naf(os.fspath(source))
    wanted = set(layers)
    unknown = wanted - set(LAYER_ORDER)
    if unknown:
        raise UsageError(f"unknown layer {sorted(unknown)[0]!r}: choose from {', '.join(LAYER_ORDER)}")
    conv = _Converter(naf, name or os.path.basename(naf.path))
    conv.warnings.extend(id_problems(naf))  # the module scores such files as read: said, not refused
    convert_layer = {"sentiment": conv.sentiment, "opinion": lambda: conv.opinion(intersect),
                     "entity": lambda: conv.spans(naf.entities, "entity"),
                     "property": lambda: conv.spans(naf.properties, "property"), "srl": conv.srl}
    for layer in (layer for layer in LAYER_ORDER if layer in wanted):
        if _LAYER_NAMES[layer] not in naf.layers:
            conv.warnings.append(f"{naf.path}: no {_LAYER_NAMES[layer]} layer: no {layer} triples")
        convert_layer[layer]()
    return conv.doc


def _read_naf(path: str) -> NafDocument:
    data = read_bytes(path)
    if not is_naf(data, source_name(path)):
        raise ParseError(path, 1, "not a NAF or KAF document (its root element is not <NAF> or <KAF>)")
    return parse_naf(data, source_name(path))


# ---- KYOTO tuples (ConvertTuplesToTriples)

TUPLES_ROOT = "kafkybot-results"

def tuples_to_triples(path: str | os.PathLike, first_element: str = "event", data: bytes | None = None) -> TripleDoc:
    """A KYOTO Kybot tuple file (``<kafkybot-results><tuples source><tuple id profile profileConfidence>
    <event tokens="w1;w2" lemma/><participant role tokens/>...``): for every element named ``first_element``
    and every other element of its tuple, a triple first -> other, relation the other element's role, id
    ``SOURCE#TUPLE``, profile and profile confidence the tuple's, labels the element names, comments their
    lemmas (sources in the order of the module's ``HashMap``).  ``data``: the file's bytes, when read already."""
    path = os.fspath(path)
    data = read_bytes(path) if data is None else data
    doc = TripleDoc(os.path.basename(path), source_name(path))
    sources: dict[str, list[dict]] = {}
    state: dict = {"source": "", "tuples": [], "tuple": None}
    parser = expat_parser(source_name(path))

    def start(name, attrs):
        low = name.lower()
        a = {k.lower(): v.strip() for k, v in attrs.items()}
        if low == "tuples":
            state["tuples"] = []
            state["source"] = a.get("source", "")
        elif low == "tuple":
            confidence = 0
            if "profileconfidence" in a:
                try:
                    confidence = int(a["profileconfidence"])
                except ValueError:
                    doc.warnings.append(f"{path}:{parser.CurrentLineNumber}: profileConfidence "
                                        f"{a['profileconfidence']!r} is not a whole number: 0")
            state["tuple"] = {"id": a.get("id", ""), "profile": a.get("profile", ""), "confidence": confidence,
                              "children": [], "line": parser.CurrentLineNumber}
        elif state["tuple"] is not None:
            tokens = a["tokens"].split(";") if "tokens" in a else []
            while tokens and tokens[-1] == "":
                tokens.pop()
            state["tuple"]["children"].append({"name": name, "tokens": tokens, "lemma": a.get("lemma", ""),
                                               "role": a.get("role", "")})

    def end(name):
        low = name.lower()
        if low == "tuples" and state["source"]:
            sources[state["source"]] = state["tuples"]
        elif low == "tuple" and state["tuple"] is not None:
            state["tuples"].append(state["tuple"])
            state["tuple"] = None

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parse_whole(parser, data, path)
    for source in hashmap_order(sources):
        for tup in sources[source]:
            children = tup["children"]
            for j, first in enumerate(children):
                if first["name"] != first_element:
                    continue
                for k, other in enumerate(children):
                    if k == j:
                        continue
                    if not other["role"]:
                        doc.warnings.append(f"{path}:{tup['line']}: tuple \"{shown(tup['id'])}\": element "
                                            f"<{other['name']}> has no role: a triple without a relation")
                    doc.append(f"{source}#{tup['id']}", other["role"], first["tokens"], other["tokens"],
                               first_label=first["name"], second_label=other["name"],
                               first_comment=module_comment(first["lemma"]),
                               second_comment=module_comment(other["lemma"]), profile=tup["profile"],
                               line=tup["line"])
                    doc.confidences[len(doc) - 1] = tup["confidence"]
    return doc


# ---- KYOTO Kybot output (KybotOutputToTriples)

KYBOT_SUFFIX = ".kybot.xml"
_JAVA_DOUBLE = re.compile(r"[+-]?(NaN|Infinity|(?P<dec>([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?)[fFdD]?"
                          r"|(?P<hex>0[xX]([0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)[pP][+-]?[0-9]+)[fFdD]?)")


def java_double(text: str) -> float | None:
    """``Double.parseDouble`` of a trimmed value (``None`` where Java throws ``NumberFormatException``):
    signs, ``NaN``, ``Infinity``, exponents, hexadecimal, a trailing ``f``/``d`` type letter."""
    text = trim(text)
    m = _JAVA_DOUBLE.fullmatch(text)
    if m is None:
        return None
    sign = -1.0 if text.startswith("-") else 1.0
    if m.group(1) == "NaN":
        return math.nan
    if m.group(1) == "Infinity":
        return sign * math.inf
    if m.group("hex") is not None:
        return sign * float.fromhex(m.group("hex"))
    return sign * float(m.group("dec"))


def is_kybot_output(data: bytes) -> bool:
    """Is this XML whose root element is ``<kybotOut>`` (KYOTO Kybot output)?"""
    root = xml_root(data)
    return root is not None and root.name.lower() == "kybotout"


class _Event:
    __slots__ = ("countries", "dates", "id", "lemma", "line", "locs", "profile", "roles", "score", "target")

    def __init__(self, line: int):
        self.id = self.lemma = self.target = self.profile = ""
        self.score = 0.0
        self.roles: list[_Role] = []
        self.locs: list[list[str]] = []
        self.countries: list[list[str]] = []
        self.dates: list[list[str]] = []
        self.line = line


class _Role:
    __slots__ = ("event", "lemma", "line", "profile", "rtype", "score", "target")

    def __init__(self, line: int):
        self.event = self.lemma = self.target = self.profile = self.rtype = ""
        self.score = 0.0
        self.line = line


def _rtype(value: str) -> str:
    """A role type without its ontology prefix (``Kyoto#patient`` -> ``patient``: after the first ``#``)."""
    return value.split("#", 1)[1] if "#" in value else value


_EVENT_FIELDS = {"eid": "id", "lemma": "lemma", "target": "target", "profile_id": "profile"}
_ROLE_FIELDS = {"event": "event", "lemma": "lemma", "target": "target", "profile_id": "profile", "rtype": "rtype"}


class _KybotReader:
    """The Kybot output as the KYOTO parser the module uses reads it (``KybotOutputSaxParser`` with no short
    names and every document kept): events by id (a later event with the same id replaces an earlier
    one, keeping its place), every role attached after the whole file is read to the event its ``event``
    names; an event without an id is numbered by its position in its ``<doc>`` (from 1), a role without an
    event takes that number of the last event before it.  Places, countries and dates are the term ids of
    their ``<span id>`` children; an event gets the places and dates read since it started, and the
    countries read since the previous event ended."""

    def __init__(self, path: str):
        self.path = path
        self.warnings: list[str] = []
        self.events: dict[str, _Event] = {}
        self.roles: list[_Role] = []
        self.fact = _Event(0)
        self.event_count = 0
        self.spans: list[str] = []
        self.locs: list[list[str]] = []
        self.countries: list[list[str]] = []
        self.dates: list[list[str]] = []

    def _attributes(self, item, pairs, fields: dict[str, str], what: str) -> None:
        """An event's or a role's attributes, names compared ignoring case, in the file's order."""
        for key, value in pairs:
            low = key.lower()
            if low in fields:
                setattr(item, fields[low], _rtype(value) if low == "rtype" else value)
            elif low == "rank":
                score = java_double(value)
                if score is None:
                    self.warnings.append(f"{self.path}:{self.parser.CurrentLineNumber}: {what} rank {value!r} is "
                                         "not a number: rank 0 (as the module reads it)")
                else:
                    item.score = score

    def start(self, name: str, attrs: list[str]) -> None:
        pairs = [(attrs[k], trim(attrs[k + 1])) for k in range(0, len(attrs), 2)]
        line = self.parser.CurrentLineNumber
        if name == "doc":
            if pairs:
                self.event_count = 0
        elif name == "event":
            fact = self.fact = _Event(line)
            self.locs, self.dates = [], []
            self.event_count += 1
            self._attributes(fact, pairs, _EVENT_FIELDS, "event")
            if not fact.id:
                fact.id = str(self.event_count)
        elif name.lower() == "role":
            role = _Role(line)
            self._attributes(role, pairs, _ROLE_FIELDS, "role")
            if not role.event:
                role.event = str(self.event_count)
            self.roles.append(role)
        elif name in ("place", "country", "dateInfo"):
            self.spans = []
            if name == "place":
                for key, value in pairs:
                    if key in ("latitude", "longitude") and java_double(value) is None:
                        raise ParseError(self.path, line, f"place {key} {value!r} is not a number (the module "
                                                          "stops with a NumberFormatException)")
        elif name == "span":
            for key, value in pairs:
                if key == "id":
                    self.spans.append(value)

    def end(self, name: str) -> None:
        if name == "event":
            fact = self.fact
            fact.dates, fact.locs, fact.countries = self.dates, self.locs, self.countries
            self.events[fact.id] = fact
            self.locs, self.dates, self.countries = [], [], []
        elif name == "doc":
            self.locs, self.dates = [], []
        elif name in ("place", "country", "dateInfo"):
            {"place": self.locs, "country": self.countries, "dateInfo": self.dates}[name].append(self.spans)
            self.spans = []

    def read(self, data: bytes) -> None:
        self.parser = expat_parser(self.path)
        self.parser.ordered_attributes = True
        self.parser.StartElementHandler = self.start
        self.parser.EndElementHandler = self.end
        parse_whole(self.parser, data, self.path)
        for role in self.roles:
            if role.event in self.events:
                self.events[role.event].roles.append(role)


def _reduce_by_wsd_score(events: dict[str, _Event], threshold: int, strict: bool = False) -> list[str]:
    """The module's WSD threshold (``reduceIdFactsByWsdScore``), in place; returns the event ids in the
    order the module's ``HashMap`` gives them (removed events left out).

    For every term named by more than one event or role (an event counts once for its own term and once
    per role on another term), in the order of the module's map of terms: the top rank of the events and
    roles on that term (events already removed not counted); if it is positive, every role on the term
    ranking below ``threshold`` percent of the top (``(int) (100 * rank / top)``) is dropped — unless that
    leaves its event with no role: then the event keeps all its roles — and an event on the term ranking
    below it is removed.  ``strict`` corrects that defect (a higher threshold could keep more roles): roles
    below the threshold always go."""
    order = hashmap_order(events)
    by_term: dict[str, list[str]] = {}
    for eid in order:
        event = events[eid]
        by_term.setdefault(event.target, []).append(eid)
        for role in event.roles:
            if role.target != event.target:
                by_term.setdefault(role.target, []).append(eid)
    live = dict(events)
    for term in hashmap_order(by_term):
        ids = by_term[term]
        if len(ids) <= 1:
            continue
        top = 0.0
        for eid in ids:
            event = live.get(eid)
            if event is None:
                continue
            if event.target == term and top < event.score:
                top = event.score
            for role in event.roles:
                if role.target == term and top < role.score:
                    top = role.score
        if not top > 0:
            continue
        for eid in ids:
            event = live.get(eid)
            if event is None:
                continue
            kept = [r for r in event.roles if r.target != term or d2i(100.0 * r.score / top) >= threshold]
            if kept or strict:
                event.roles = kept
            if event.target == term and d2i(100.0 * event.score / top) < threshold:
                del live[eid]
    return [eid for eid in order if eid in live]


def kybot_output_to_triples(path: str | os.PathLike, kaf: str | os.PathLike | NafDocument, threshold: int = 0,
                            name: str | None = None, strict_threshold: bool = False,
                            data: bytes | None = None) -> TripleDoc:
    """KYOTO Kybot output (``<kybotOut><doc><event eid target lemma rank profile_id/><role rid event
    target lemma rtype rank profile_id/>...``) as the module's ``KybotOutputToTriples`` converts it, with
    the KAF file the Kybots read (``kaf``: its terms map term ids to token ids) and the WSD ``threshold``
    (0-100: 0 keeps everything, 100 only the top-ranked reading of each term; see
    :func:`_reduce_by_wsd_score`).

    Per event (in the order of the module's ``HashMap`` of event ids), when its term has tokens: one triple
    per role whose term has tokens (id the event id, relation the role's ``rtype`` after its ``#``, profile
    the role's ``profile_id``, comments the event's and the role's lemmas); then one ``LOCATION`` triple per
    ``<place>`` and ``<country>`` and one ``TIME`` triple per ``<dateInfo>`` of the event (second element:
    the tokens of the last of its span terms found in the KAF, comment their words).  Events and roles whose
    terms have no tokens are left out (reported, as the module prints them); ``<doc>`` elements are not
    matched to the KAF file (the module's converter reads every document into one map).  ``data``: the file's
    bytes, when read already."""
    path = os.fspath(path)
    if not isinstance(kaf, NafDocument):
        kaf = _read_naf(os.fspath(kaf))
    reader = _KybotReader(source_name(path))
    reader.read(read_bytes(path) if data is None else data)
    doc = TripleDoc(name or os.path.basename(path), source_name(path))
    doc.warnings.extend(reader.warnings)
    terms = kaf.term_tokens
    words: dict[str, str] = {}
    for wid in kaf.word_order:
        words.setdefault(wid.lower(), kaf.words[wid])

    def word_forms(tokens: list[str], line: int) -> str:
        text = ""
        for t in tokens:
            if t.lower() not in words:
                raise ParseError(reader.path, line, f'token "{shown(t)}" of the KAF file {kaf.path} has no word form '
                                                    "(the module stops with a NullPointerException)")
            text += words[t.lower()] + " "
        return module_comment(trim(text))

    for eid in _reduce_by_wsd_score(reader.events, threshold, strict_threshold):
        event = reader.events[eid]
        first = terms.get(event.target, [])
        if not first:
            doc.warnings.append(f"{reader.path}:{event.line}: event \"{shown(eid)}\": term "
                                f"\"{shown(event.target)}\" has no tokens in the KAF file: no triples")
            continue
        comment = module_comment(event.lemma)
        for role in event.roles:
            second = terms.get(role.target, [])
            if not second:
                doc.warnings.append(f"{reader.path}:{role.line}: role of event \"{shown(eid)}\": term "
                                    f"\"{shown(role.target)}\" has no tokens in the KAF file: no triple")
                continue
            if not role.rtype:
                doc.warnings.append(f"{reader.path}:{role.line}: role of event \"{shown(eid)}\" has no rtype: a triple "
                                    "without a relation")
            doc.append(eid, role.rtype, first, second, first_comment=comment,
                       second_comment=module_comment(role.lemma), profile=role.profile, line=role.line)
        for relation, items in (("LOCATION", event.locs), ("LOCATION", event.countries), ("TIME", event.dates)):
            for spans in items:
                tokens: list[str] = []
                for term in spans:
                    if term in terms:
                        tokens = terms[term]
                lemma = word_forms(tokens, event.line)
                if tokens:
                    doc.append(eid, relation, first, tokens, first_comment=comment, second_comment=lemma,
                               line=event.line)
    return doc


def kybot_kaf_path(kybot_path: str, kaf: str | None) -> str:
    """The KAF file of a Kybot output file: ``kaf`` (a file, or a folder holding ``NAME`` for
    ``NAME.kybot.xml``), else ``NAME`` beside it."""
    base = os.path.basename(kybot_path)
    stem = base[: -len(KYBOT_SUFFIX)] if base.endswith(KYBOT_SUFFIX) else None
    if kaf is not None and not os.path.isdir(kaf):
        return kaf
    folder = kaf if kaf is not None else os.path.dirname(kybot_path)
    if stem is None or not os.path.isfile(os.path.join(folder, stem)):
        where = f"in {folder}" if kaf is not None else "beside it"
        raise UsageError(f"{kybot_path}: Kybot output needs the KAF file the Kybots read (--kaf FILE); "
                         f"none found {where} (NAME for NAME{KYBOT_SUFFIX})")
    return os.path.join(folder, stem)


# ---- files

def convert(in_path: str | os.PathLike, out_path: str | os.PathLike, to: str = "triples", *,
            layers: Iterable[str] | None = None, intersect: bool = False, first_element: str = "event",
            kaf: str | os.PathLike | None = None, threshold: int = 0, strict_threshold: bool = False) -> list[str]:
    """Convert a NAF/KAF file, a KYOTO tuple file or a KYOTO Kybot output file (or a folder of them) to
    triple XML; returns warnings.  A folder goes to a folder of ``NAME.trp`` files; a file to ``out_path``.
    Kybot output needs its KAF file (``kaf``: a file, or a folder with ``NAME`` for ``NAME.kybot.xml``;
    default: ``NAME`` beside it) and takes the WSD ``threshold`` (the module's third argument;
    ``strict_threshold``: without the module's defect, see :func:`_reduce_by_wsd_score`)."""
    if to != "triples":
        raise UsageError(f"--to {to!r}: only 'triples' is written")
    in_path, out_path = os.fspath(in_path), os.fspath(out_path)
    kaf = None if kaf is None else os.fspath(kaf)
    if isinstance(threshold, bool) or not isinstance(threshold, int):
        raise UsageError(f"--threshold {threshold!r}: a whole number (0-100: percent of the top WSD rank)")
    layer_names = tuple(layers) if layers else LAYER_ORDER
    warnings: list[str] = []
    if os.path.isdir(in_path):
        names = sorted(n for n in os.listdir(in_path) if not is_hidden(n) and os.path.isfile(os.path.join(in_path, n)))
        if not names:
            raise InputError(f"{in_path}: the folder has no file to convert (NAF/KAF, KYOTO tuple or Kybot output)")
        pairs = [(os.path.join(in_path, n), os.path.join(out_path, n + ".trp")) for n in names]
    else:
        pairs = [(in_path, out_path)]
    beside = [os.path.join(os.path.dirname(src), os.path.basename(src)[: -len(KYBOT_SUFFIX)])
              for src, _ in pairs if src.endswith(KYBOT_SUFFIX)]  # the KAF files Kybot outputs read by default
    refuse_outputs_on_inputs([in_path, kaf, *beside], [out_path, *(dst for _, dst in pairs)])
    if os.path.isdir(in_path):  # a folder of files
        try:
            os.makedirs(out_path, exist_ok=True)
        except OSError as exc:
            raise cannot_write(out_path, exc) from None
    kybot_options = kaf is not None or threshold or strict_threshold
    if kybot_options and not any(is_kybot_output(read_head(src)) for src, _ in pairs):
        raise UsageError(f"--kaf, --threshold and --strict-threshold apply to KYOTO Kybot output: {in_path} has none")
    if strict_threshold and not threshold:
        raise UsageError("--strict-threshold changes nothing without --threshold N (N > 0)")
    for src, dst in pairs:
        data = read_bytes(src)
        root = xml_root(data, path=source_name(src))
        kind = None if root is None else root.name.lower()
        if kind in ("naf", "kaf") and root.name in NAF_ROOTS:
            doc = naf_to_triples(parse_naf(data, source_name(src)), layer_names, intersect)
        elif kind == "kybotout":
            doc = kybot_output_to_triples(src, kybot_kaf_path(src, kaf), threshold,
                                          strict_threshold=strict_threshold, data=data)
        else:  # KYOTO tuples, as the module finds them: <tuple> elements under any root
            reject_other_format(source_name(src), data, "naf", allowed=("xml",))  # another task's file
            doc = tuples_to_triples(src, first_element, data)
            if root is not None and kind != TUPLES_ROOT and not len(doc):  # XML of no kind converted
                raise ParseError(source_name(src), root.line, f"root element <{root.name}> and no tuple: not a "
                                 f"NAF/KAF document (<NAF>, <KAF>), KYOTO tuple file (<{TUPLES_ROOT}>) or Kybot "
                                 "output (<kybotOut>), which fastscore convert --to triples converts")
        write_output(dst, write_triples(doc))
        warnings.extend(doc.warnings)
    return warnings

