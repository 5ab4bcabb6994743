"""Converters to triples: NAF/KAF layers (the Triple evaluation module's ``ConvertKafToTriples`` and
``KafLayerToTriple``) and KYOTO tuples (``ConvertTuplesToTriples``).  Relation translation
(``TripleRelationConversion``) is the scorer's ``--relation-map``.

Entry point of the future ``fastscore convert IN OUT --to triples [--layers ...]``::

    convert(in_path, out_path, to="triples", layers=None, intersect=False, first_element="event") -> list[str]

(warnings; ``in_path`` a NAF/KAF file, a KYOTO tuple file, or a folder of them; ``out_path`` a file or a
folder).  In memory, :func:`naf_to_triples` and :func:`tuples_to_triples` return a
:class:`~fastscore.formats.triples.TripleDoc` and the scorer uses them for ``--layers``.

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
"""
from __future__ import annotations

import os
from typing import Iterable

from ..errors import ParseError, UsageError
from ..formats.files import read_bytes, source_name
from ..formats.naf import NafDocument, is_naf, parse_naf
from ..formats.triples import TripleDoc, module_comment, write_triples

LAYER_ORDER = ("sentiment", "opinion", "entity", "property", "srl")
_LABEL_KEYS = ("polarity", "strength", "sentiment_semantic_type", "factual", "subjectivity", "sentiment_modifier",
               "sentiment_product_feature")


def sentiment_label(values: dict[str, str]) -> str:
    """``KafTermSentiment.toTripleLabel``."""
    v = dict(values)
    if "semantic_type" in v and not v.get("sentiment_semantic_type"):
        v["sentiment_semantic_type"] = v["semantic_type"]
    return "#".join(v.get(k, "") for k in _LABEL_KEYS)


def _has_value(values: dict[str, str] | None) -> bool:
    """``KafTermSentiment.hasValue`` (the modifier alone is no value)."""
    if not values:
        return False
    v = dict(values)
    if "semantic_type" in v and not v.get("sentiment_semantic_type"):
        v["sentiment_semantic_type"] = v["semantic_type"]
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
                raise ParseError(self.naf.path, line, f'{what}: target "{t}" names no term of the terms layer')
            out.extend(tokens)
        return out

    def words(self, tokens: list[str], line: int) -> str:
        text = ""
        missing = [t for t in tokens if t not in self.naf.words]
        if missing:
            self.warnings.append(f"{self.naf.path}:{line}: token \"{missing[0]}\" has no word form: left out of the "
                                 "comment")
        for t in tokens:
            if t in self.naf.words:
                text += self.naf.words[t] + " "
        return module_comment(text.strip())

    def add(self, tid, relation, first, second=(), first_comment="", second_comment="", second_label="",
            profile="", layer="", line=0, what=""):
        if not relation:
            self.warnings.append(f"{self.naf.path}:{line}: {what} gives a triple without a relation (the module "
                                 "writes it so; the scorer refuses it)")
        self.doc.append(tid, relation, first, second, "", second_label, first_comment, second_comment, profile,
                        layer, line)

    # ---- layers

    def sentiment(self) -> None:
        for term in self.naf.terms:
            if _has_value(term.sentiment):
                self.add(term.id, sentiment_label(term.sentiment), term.tokens, (),
                         self.words(term.tokens, term.line), layer="term", line=term.line,
                         what=f'term "{term.id}"')

    def opinion(self, intersect: bool) -> None:
        for op in self.naf.opinions:
            overlap = op.attrs.get("overlap_ents", "")
            if op.attrs.get("overlap_props", ""):
                overlap += " " + op.attrs["overlap_props"]
            overlap = overlap.strip()
            if intersect and not overlap:
                continue
            what = f'opinion "{op.id}"'
            expression = self.tokens(op.parts.get("opinion_expression", []), op.line, what)
            if "opinion_expression" not in op.parts:
                self.warnings.append(f"{self.naf.path}:{op.line}: {what} has no opinion_expression: its triples "
                                     "have an empty first element")
            relation = sentiment_label({k: v for k, v in op.part_attrs.get("opinion_expression", {}).items()
                                        if k != "sentiment_modifier"})
            comment = self.words(expression, op.line)
            holder = self.tokens(op.parts.get("opinion_holder", []), op.line, what)
            target = self.tokens(op.parts.get("opinion_target", []), op.line, what)
            if op.parts.get("opinion_holder"):
                holder_type = op.part_attrs["opinion_holder"].get("type", "")
                self.add(op.id, relation, expression, holder, comment, self.words(holder, op.line),
                         "holder:" + holder_type, overlap, "opinion", op.line, what)
            if op.parts.get("opinion_target"):
                self.add(op.id, relation, expression, target, comment, self.words(target, op.line), "target",
                         overlap, "opinion", op.line, what)
            if not op.parts.get("opinion_holder") and not op.parts.get("opinion_target"):
                self.add(op.id, relation, expression, (), comment, "", "", overlap, "opinion", op.line, what)

    def spans(self, items, layer: str) -> None:
        for item in items:
            what = f'{item.kind} "{item.id}"'
            relation = item.attrs.get("type", "")
            if layer == "property" and not relation and item.attrs.get("lemma"):
                relation = item.attrs["lemma"]
                self.warnings.append(f"{self.naf.path}:{item.line}: {what} has no type: its lemma "
                                     f"\"{relation}\" is the relation (the module's converter leaves it empty)")
            if not item.spans:
                self.warnings.append(f"{self.naf.path}:{item.line}: {what} has no span: no triple")
            for span in item.spans:
                tokens = self.tokens(span.targets, span.line, what)
                self.add(item.id, relation, tokens, (), self.words(tokens, span.line), layer=layer,
                         line=span.line, what=what)

    def srl(self) -> None:
        for pred in self.naf.predicates:
            what = f'predicate "{pred.id}"'
            first = self.tokens([t for s in pred.spans for t in s.targets], pred.line, what)
            if not pred.roles:
                self.warnings.append(f"{self.naf.path}:{pred.line}: {what} has no role: no triple")
            for role in pred.roles:
                second = self.tokens([t for s in role.spans for t in s.targets], role.line, f'role "{role.id}"')
                self.add(role.id, role.attrs.get("semrole", ""), first, second, self.words(first, pred.line),
                         self.words(second, role.line), "", "", "srl", role.line, f'role "{role.id}"')


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
    for layer in LAYER_ORDER:
        if layer not in wanted:
            continue
        needed = _LAYER_NAMES[layer]
        if needed not in naf.layers:
            conv.warnings.append(f"{naf.path}: no {needed} layer: no {layer} triples")
        if layer == "sentiment":
            conv.sentiment()
        elif layer == "opinion":
            conv.opinion(intersect)
        elif layer == "entity":
            conv.spans(naf.entities, "entity")
        elif layer == "property":
            conv.spans(naf.properties, "property")
        else:
            conv.srl()
    return conv.doc


def _read_naf(path: str) -> NafDocument:
    data = read_bytes(path)
    if not is_naf(data):
        raise ParseError(path, 1, "not a NAF or KAF document (its root element is not <NAF> or <KAF>)")
    return parse_naf(data, source_name(path))


# ---- KYOTO tuples (ConvertTuplesToTriples)

def tuples_to_triples(path: str | os.PathLike, first_element: str = "event") -> TripleDoc:
    """A KYOTO Kybot tuple file (``<kafkybot-results><tuples source><tuple id profile profileConfidence>
    <event tokens="w1;w2" lemma/><participant role tokens/>...``): for every element named ``first_element``
    and every other element of its tuple, a triple first -> other, relation the other element's role, id
    ``SOURCE#TUPLE``, profile and profile confidence the tuple's, labels the element names, comments their
    lemmas (sources in the order of the module's ``HashMap``)."""
    import xml.parsers.expat

    from .java import hashmap_order

    path = os.fspath(path)
    data = read_bytes(path)
    doc = TripleDoc(os.path.basename(path), source_name(path))
    sources: dict[str, list[dict]] = {}
    state: dict = {"source": "", "tuples": [], "tuple": None}
    parser = xml.parsers.expat.ParserCreate()

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
            tokens = [t for t in a["tokens"].split(";")] if "tokens" in a else []
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
    try:
        parser.Parse(data, True)
    except xml.parsers.expat.ExpatError as exc:
        raise ParseError(path, exc.lineno, f"malformed XML: {xml.parsers.expat.ErrorString(exc.code)}") from None
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
                        doc.warnings.append(f"{path}:{tup['line']}: tuple \"{tup['id']}\": element "
                                            f"<{other['name']}> has no role: a triple without a relation")
                    doc.append(f"{source}#{tup['id']}", other["role"], first["tokens"], other["tokens"],
                               first["name"], other["name"], module_comment(first["lemma"]),
                               module_comment(other["lemma"]), tup["profile"], "", tup["line"])
                    doc.confidences[len(doc) - 1] = tup["confidence"]
    return doc


# ---- files

def convert(in_path: str | os.PathLike, out_path: str | os.PathLike, to: str = "triples",
            layers: Iterable[str] | None = None, intersect: bool = False, first_element: str = "event") -> list[str]:
    """Convert a NAF/KAF file or a KYOTO tuple file (or a folder of them) to triple XML; returns warnings.
    A folder goes to a folder of ``NAME.trp`` files; a file to ``out_path``."""
    if to != "triples":
        raise UsageError(f"--to {to!r}: only 'triples' is written")
    in_path, out_path = os.fspath(in_path), os.fspath(out_path)
    layer_names = tuple(layers) if layers else LAYER_ORDER
    warnings: list[str] = []
    if os.path.isdir(in_path):
        names = sorted(n for n in os.listdir(in_path) if os.path.isfile(os.path.join(in_path, n)))
        os.makedirs(out_path, exist_ok=True)
        pairs = [(os.path.join(in_path, n), os.path.join(out_path, n + ".trp")) for n in names]
    else:
        pairs = [(in_path, out_path)]
    for src, dst in pairs:
        data = read_bytes(src)
        if is_naf(data):
            doc = naf_to_triples(parse_naf(data, source_name(src)), layer_names, intersect)
        else:
            doc = tuples_to_triples(src, first_element)
        write_triples(doc, dst)
        warnings.extend(doc.warnings)
    return warnings
