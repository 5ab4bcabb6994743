"""Converting coreference files between CoNLL-2012, CoNLL-U (CorefUD) and jsonlines.

A conversion reads the mentions (:func:`fastscore.coref.score.read`, as scoring reads them) and the
words of the input (its format's ``read_*_tokens``/``blocks``/``documents``), puts every mention in
one neutral form — the *positions* of its nodes in its document (words counted over the document,
empty nodes after the word they follow), its head where the input has heads, its cluster — and writes
them with the target format's writer into the words of the input, or of a *template* (a file of the
target format whose documents have the same words: a CoNLL-U key, so that the output aligns with it).

What the target cannot express is reported as warnings, with counts (discontinuous mentions become
their covering span, zeros are dropped, heads other than the first word are lost, ...); what cannot
be written at all is an error.  The written file is read back and compared with what was meant to be
written: a difference is reported, never passed silently.  Later targets (Parquet, Arrow, triples)
plug in as one more entry of ``_WRITERS``.
"""
from __future__ import annotations

import os
import re
from collections import Counter
from dataclasses import dataclass, field
from functools import partial

import numpy as np

from ..errors import InputError, UsageError
from ..formats.files import is_pipe
from ..formats.table import MentionTable, Words, offsets
from ..messages import shown
from ..outputs import refuse_outputs_on_inputs
from .choices import TEXT_FORMATS as FORMATS
TITLES = {"conll2012": "CoNLL-2012", "conllu": "CoNLL-U", "jsonl": "jsonlines"}

# a node's position in its document: word index << _SHIFT | (thousandths of an empty node's ord + _MID);
# an empty node before the first word of its sentence (0.1) counts negative thousandths
_SHIFT = 11
_MID = 1 << 10
_UNKNOWN = -1


def convert(source, target, to: str, *, source_format: str = "auto", template=None, verify: bool = True) -> list[str]:
    """Convert a coreference file to another format; return the warnings (what the target format cannot
    express, and what the readers warned about).

    Parameters
    ----------
    source : path of a CoNLL-2012, CoNLL-U (CorefUD) or jsonlines file (gzip-compressed files are read).
    target : path to write (``-``: standard output).
    to : ``conll2012``, ``conllu`` or ``jsonl``.
    source_format : ``auto`` (from the content), ``conll2012``, ``conllu`` or ``jsonl``.
    template : a file in the target format whose documents have the input's words (same names, same
        number of words; forms may differ, with a warning): the output keeps its text — sentence ids,
        every CoNLL-U column and empty node, CoNLL-2012 columns, jsonlines fields — and replaces its
        coreference.  Converting a system's output with the key as template makes it align with the key.
    verify : read the written file back and report any mention that does not read back as written.

    Raises
    ------
    UsageError
        An unknown format, standard input as ``source``.
    InputError, ParseError
        An input that cannot be read, a template that does not match the input.
    """
    from .score import detect_format, read

    if to not in FORMATS:
        raise UsageError(f"unknown target format {to!r}: choose from {', '.join(FORMATS)}")
    if source_format not in ("auto",) + FORMATS:
        raise UsageError(f"unknown input format {source_format!r}: choose from auto, {', '.join(FORMATS)}")
    source = os.fspath(source)
    if source == "-":
        raise UsageError('convert reads its input twice (mentions, then words): give a file, not "-"')
    if is_pipe(source):
        raise UsageError(f"{source}: convert reads its input twice (mentions, then words): give a file, not a pipe")
    refuse_outputs_on_inputs([source, template], [target])
    refuse_folder(source, f"--to {to}")
    fmt = detect_format(source) if source_format == "auto" else source_format
    if fmt not in FORMATS:  # NAF, a mention table: no text of words and sentences to write in another format
        what = "NAF/KAF" if fmt == "naf" else f"a {fmt.capitalize()} mention table"
        raise UsageError(f"{source}: {what} input has no {TITLES[to]} text to write: convert reads CoNLL-2012, "
                         "CoNLL-U and jsonlines files (NAF/KAF converts --to triples, parquet or arrow)")
    table = read(source, fmt, defer_bracket_errors=False)
    if not table.doc_names:  # v8.01's reading can leave out every document (a byte-order mark): nothing to write
        why = f" ({table.warnings[0]})" if table.warnings else ""
        raise InputError(f"{source}: no document to convert{why}")
    report = _Report(fmt, to)
    report.warnings.extend(table.warnings)
    text = _read_text(source, fmt, table, report, own=True)
    mentions = _Mentions.of(table, text, report.blocks)
    if template is not None:
        template = os.fspath(template)
        if template == "-" or is_pipe(template):
            raise UsageError(f'the template must be a file, not "{template}"')
        _refuse_empty(template, f"the template must be a {TITLES[to]} file with the input's documents")
        fmt_t = detect_format(template)
        if fmt_t != to:
            raise UsageError(f"{template}: the template must be a {TITLES[to]} file (the target format), "
                             f"this looks like {TITLES[fmt_t]}")
        out_text = _read_text(template, to, read(template, to, defer_bracket_errors=False), report, own=False)
        mentions = _onto_template(mentions, text, out_text, report)
    else:
        out_text = text
    expected, write = _WRITERS[to](mentions, text, out_text, report, template is not None)
    _write_checked(source, target, to, expected, write, verify, report)
    return report.lines()


def _refuse_empty(path: str, why: str) -> None:
    """An empty file is an InputError saying ``why`` (format detection would call it CoNLL-2012)."""
    if os.path.isfile(path) and not os.path.getsize(path):
        raise InputError(f"{path}: empty file: {why}")


def refuse_folder(source: str, target: str) -> None:
    """A folder given as the input of a coreference conversion: a UsageError saying what convert reads (and
    what the folder holds, if anything)."""
    if not os.path.isdir(source):
        return
    from ..formats.files import folder_contents

    held = folder_contents(source)
    raise UsageError(f"{source}: a folder{f' of {held}' if held else ', empty'}: convert {target} reads one "
                     "CoNLL-2012, CoNLL-U or jsonlines file at a time (a folder of NAF/KAF documents converts --to "
                     "triples, parquet or arrow)")


# ---- the words of a file


@dataclass
class _Doc:
    """A document's words and what its format keeps beside them."""

    name: str
    sentences: list[list[str]]  # word forms, per sentence
    speakers: list[list[str | None]] | None = None  # per sentence, per word
    positions: list[list[int]] = field(default_factory=list)  # per sentence, its nodes (empty nodes included)
    columns: list[list[list[str]]] | None = None  # CoNLL-2012: each token's columns but the coreference one
    fields: dict | None = None  # jsonlines: the object's other fields
    blocks: list | None = None  # CoNLL-U: the sentences as lines
    etypes: dict[str, str] = field(default_factory=dict)  # CoNLL-2012 typed labels: cluster label -> TYPE

    @property
    def n_words(self) -> int:
        return sum(len(s) for s in self.sentences)


@dataclass
class _Text:
    fmt: str
    path: str
    docs: list[_Doc]
    key_pos: dict[int, tuple[int, int]] | None = None  # CoNLL-U: word key -> (document, position)


def _word(w: int) -> int:
    return (w << _SHIFT) | _MID


def _read_text(path: str, fmt: str, table: MentionTable, report: _Report, own: bool) -> _Text:
    """The words of the file ``table`` was read from (``own``: the input, whose losses are counted)."""
    docs = {"conll2012": _conll_text, "conllu": _conllu_text, "jsonl": _jsonl_text}[fmt](path, table, report, own)
    names = [d.name for d in docs.docs]
    if names != list(table.doc_names) or any(d.n_words != int(n) for d, n in zip(docs.docs, table.doc_tokens)):
        raise InputError(f"{path}: the words of the file do not match its mentions (documents "
                         f"{len(names)} vs {table.n_docs}): please report this as a fastscore bug")
    return docs


def _conll_text(path: str, table: MentionTable, report: _Report, own: bool) -> _Text:
    from ..formats.conll import read_conll_tokens, token_form, token_speaker, typed_labels

    docs = []
    no_form = wide = split = 0
    for doc in read_conll_tokens(path):
        sentences, speakers, columns = [], [], []
        etypes: dict[str, str] = {}
        for sentence in doc.sentences:
            forms, who = [], []
            for cols in sentence:
                form = token_form(cols)
                no_form += form is None
                forms.append("_" if form is None else form)
                who.append(token_speaker(cols))
                wide += any(x not in ("-", "_", "*") for i, x in enumerate(cols[4:-1], 4) if i != 9)
                for etype, label in typed_labels(cols[-1]):
                    etypes.setdefault(label, etype)
                if "+" in cols[-1]:
                    split += len(re.findall(r"\([^()|]*\+[^()|]*\)", cols[-1]))
            sentences.append(forms)
            speakers.append(who)
            columns.append([cols[:-1] for cols in sentence])
        has_speakers = any(x is not None for s in speakers for x in s)
        docs.append(_Doc(doc.name, sentences, speakers if has_speakers else None, columns=columns, etypes=etypes))
    _span_positions(docs)
    if own:
        report.count("no_form", no_form)
        report.count("conll_columns", wide)
        report.count("split_antecedents", split)
    return _Text("conll2012", path, docs)


def _span_positions(docs: list[_Doc]) -> None:
    for doc in docs:
        w = 0
        doc.positions = []
        for sentence in doc.sentences:
            doc.positions.append([_word(i) for i in range(w, w + len(sentence))])
            w += len(sentence)


def _conllu_text(path: str, table: MentionTable, report: _Report, own: bool) -> _Text:
    from ..formats.conllu import read_conllu_blocks, word_key

    blocks = read_conllu_blocks(path)
    docs: list[_Doc] = []
    key_pos: dict[int, tuple[int, int]] = {}
    w = 0
    for s, block in enumerate(blocks):
        if block.newdoc is not None or not docs:
            name = block.newdoc if isinstance(block.newdoc, str) else str(len(docs) + 1)
            docs.append(_Doc(name, [], [], blocks=[]))
            w = 0
        doc = docs[-1]
        doc.blocks.append(block)
        doc.sentences.append(list(block.forms))
        doc.speakers.append([block.speaker] * len(block.forms))
        regular = [int(o) for o in block.nodes if "." not in o]
        index = {o: i for i, o in enumerate(regular)}
        where = []
        for ident in block.nodes:
            major, _, minor = ident.partition(".")
            if not minor:
                pos = _word(w + index[int(major)])
            else:
                thousandths = int((minor + "000")[:3])
                before = sum(1 for r in regular if r <= int(major))
                pos = (((w + before - 1) << _SHIFT) | (_MID + thousandths) if before
                       else (w << _SHIFT) | (_MID - thousandths))
            where.append(pos)
            key_pos[word_key(s, ident)] = (len(docs) - 1, pos)
        doc.positions.append(where)
        w += len(regular)
    for doc in docs:
        if all(x is None for s in doc.speakers for x in s):
            doc.speakers = None
    if own:
        report.count("multiword", sum(b.multiword for b in blocks))
        report.count("empty_nodes", sum(len(b.nodes) - len(b.forms) for b in blocks))
        report.count("bridge", sum(len(_LINKS.findall(line)) for b in blocks for line in b.lines
                                   if ("Bridge=" in line or "SplitAnte=" in line) and not line.startswith("#")))
        report.blocks = blocks
    return _Text("conllu", path, docs, key_pos)


def _jsonl_text(path: str, table: MentionTable, report: _Report, own: bool) -> _Text:
    from ..formats.jsonl import read_jsonl_documents

    docs = []
    extra: set[str] = set()
    for doc in read_jsonl_documents(path):
        other = {k: v for k, v in doc.fields.items() if k not in ("doc_key", "sentences", "speakers", "clusters")}
        extra.update(other)
        docs.append(_Doc(doc.doc_key, doc.sentences, doc.speakers, fields=other))
    _span_positions(docs)
    if own:
        report.extra_fields = sorted(extra)
        report.count("empty_clusters", sum(1 for d in range(table.n_docs)
                                           for c in table.document(d) if not c))
    return _Text("jsonl", path, docs)


# ---- mentions in neutral form


@dataclass
class _Mentions:
    """Every mention as its document, cluster, node positions (sorted) and head position (or unknown)."""

    doc: list[int]
    cluster: list[int]
    nodes: list[list[int]]
    head: list[int]
    labels: list[list[str]]  # per document, per cluster
    etypes: list[dict[str, str]]  # per document: cluster label -> entity type (CoNLL-2012 typed labels)
    fields: list[dict] | None = None  # CoNLL-U input: the other Entity fields of each mention
    conllu: bool = False  # the input is CoNLL-U (mentions have heads, entities CoNLL-U ids)

    @classmethod
    def of(cls, table: MentionTable, text: _Text, blocks=None) -> _Mentions:
        n = len(table.start)
        doc = np.repeat(np.arange(table.n_docs), np.diff(table.doc_offsets)).tolist()
        nodes, head = [], []
        fields = None
        if table.words is not None:
            from ..formats.conllu import entity_fields

            fields = entity_fields(table, blocks)
            etypes: list[dict[str, str]] = [{} for _ in table.doc_names]
            for d, c, f in zip(doc, table.cluster.tolist(), fields):
                if f.get("etype"):
                    etypes[d].setdefault(table.cluster_labels[d][c], f["etype"])
            words = table.words
            pos = text.key_pos
            for row in range(n):
                keys = words.keys[words.offsets[row]:words.offsets[row + 1]].tolist()
                nodes.append([pos[k][1] for k in keys])
                head.append(pos[int(words.head[row])][1])
        else:
            for s, e in zip(table.start.tolist(), table.end.tolist()):
                nodes.append([_word(w) for w in range(s, e)])
                head.append(_UNKNOWN)
        return cls(doc, table.cluster.tolist(), nodes, head, [list(x) for x in table.cluster_labels],
                   etypes if fields is not None else [d.etypes for d in text.docs], fields, fields is not None)


def _onto_template(m: _Mentions, text: _Text, template: _Text, report: _Report) -> _Mentions:
    """The mentions in the template's documents (its order): every input document must be there with as
    many words; differing word forms are reported."""
    exact = {d.name: i for i, d in enumerate(template.docs)}
    stripped = Counter(d.name.strip() for d in template.docs)
    loose = {d.name.strip(): i for i, d in enumerate(template.docs) if stripped[d.name.strip()] == 1}
    # CoNLL-U cannot keep whitespace around names: a name matches without it where that is unambiguous
    at = [exact.get(d.name, loose.get(d.name.strip())) for d in text.docs]
    missing = [d.name for d, i in zip(text.docs, at) if i is None]
    if missing:
        raise InputError(f"{template.path}: {len(missing)} input document(s) not in the template, e.g. "
                         f"{missing[0]!r}: the template must have the input's documents")
    twice = [d.name for d, i in zip(text.docs, at) if at.count(i) > 1]
    if twice:
        raise InputError(f"{template.path}: input documents {twice[0]!r} and {twice[1]!r} match the same template "
                         "document")
    where = {d.name: i for d, i in zip(text.docs, at)}
    forms = 0
    first = None
    for doc in text.docs:
        t = template.docs[where[doc.name]]
        if t.n_words != doc.n_words:
            raise InputError(f"{template.path}: document {doc.name!r} has {t.n_words} words, the input "
                             f"{text.path} {doc.n_words}: the template must have the input's words")
        a = [x for s in doc.sentences for x in s]
        b = [x for s in t.sentences for x in s]
        diff = [i for i, (x, y) in enumerate(zip(a, b)) if x != y]
        forms += len(diff)
        if diff and first is None:
            first = (f'document "{shown(doc.name)}" word {diff[0] + 1}: {a[diff[0]]!r} in the input, {b[diff[0]]!r} '
                     "in the template")
    if forms:
        report.add(f"{forms} word(s) differ between the input and the template {template.path} (the template's are "
                   f"written); first: {first}")
    used = {where[x.name] for x in text.docs}
    extra = [d.name for i, d in enumerate(template.docs) if i not in used]
    if extra:
        report.add(f"{len(extra)} template document(s) not in the input, written without mentions: "
                   + ", ".join(f'"{shown(x)}"' for x in extra[:3]) + (" ..." if len(extra) > 3 else ""))
    new_doc = [where[text.docs[d].name] for d in m.doc]
    labels: list[list[str]] = [[] for _ in template.docs]
    etypes: list[dict[str, str]] = [{} for _ in template.docs]
    for d, doc in enumerate(text.docs):
        labels[where[doc.name]] = m.labels[d]
        etypes[where[doc.name]] = m.etypes[d]
    order = sorted(range(len(m.doc)), key=lambda r: (new_doc[r], r))  # rows in the template's document order
    return _Mentions([new_doc[r] for r in order], [m.cluster[r] for r in order], [m.nodes[r] for r in order],
                     [m.head[r] for r in order], labels, etypes,
                     None if m.fields is None else [m.fields[r] for r in order], m.conllu)


# ---- what is lost


class _Report:
    """Counts of what the target cannot express, and the warnings they make."""

    def __init__(self, source: str, target: str):
        self.source, self.target = source, target
        self.counts: Counter = Counter()
        self.first: dict[str, str] = {}
        self.warnings: list[str] = []
        self.notes: list[str] = []
        self.extra_fields: list[str] = []  # jsonlines fields of the input other than the four known
        self.field_names: list[str] = []  # CoNLL-U Entity fields other than id, type and head
        self.blocks = None  # the CoNLL-U input's sentences

    def count(self, what: str, n: int = 1, where: str | None = None) -> None:
        if n:
            self.counts[what] += n
            if where is not None:
                self.first.setdefault(what, where)

    def add(self, message: str) -> None:
        self.notes.append(message)

    def lines(self) -> list[str]:
        c = Counter(self.counts, conllu_columns=self.source == "conllu", extra_fields=len(self.extra_fields))
        values = {"t": TITLES[self.target], "source": TITLES[self.source], "fields": ", ".join(self.field_names),
                  "extra": ", ".join(self.extra_fields),
                  "why": ("its cluster labels are written as numbers, as the reference scorer reads them"
                          if self.target == "conll2012" else f"{TITLES[self.target]} has no place for them")}
        lost = [message.format(n=c[what], first=f"; first: {self.first[what]}" if what in self.first else "", **values)
                for what, message, unless in _LOSSES if c[what] and self.target not in unless]
        return self.warnings + lost + self.notes


# what a target cannot express, said when its count is not 0, in this order: (count, message, targets it is not
# said for); {n}: the count, {t}: the target, {first}: where it happened first
_LOSSES = (
    ("discontinuous", "{n} discontinuous mention(s) written as their covering span ({t} has no discontinuous "
     "mentions){first}", ()),
    ("covering_repeats", "{n} of these spans repeat another mention of the same entity", ()),
    ("zeros", "{n} zero mention(s) (empty nodes only) not written: {t} has no empty nodes{first}", ()),
    ("lose_empty", "{n} mention(s) written without the empty nodes inside them ({t} has no empty nodes){first}", ()),
    ("empty_nodes", "{n} empty node(s) of the CoNLL-U input not written ({t} has none)", ("conllu",)),
    ("heads", "{n} mention head(s) other than the first word not written: {t} has no heads (read back, a mention's "
     "head is its first word){first}", ()),
    ("etypes", "the entity types of {n} entities not written: {why}", ()),
    ("other_fields", "{n} mention(s) lose their other Entity fields ({fields}): {t} has no place for them", ()),
    ("bridge", "{n} Bridge/SplitAnte annotation(s) not written: {t} has no bridging or split antecedents",
     ("conllu",)),
    ("bridge_lost", "{n} Bridge/SplitAnte annotation(s) not written (with a template)", ()),  # (CoNLL-U only)
    ("multiword", "{n} multiword token(s) written as their words ({t} has no multiword tokens)", ("conllu",)),
    ("conllu_columns", "sentence ids and the other CoNLL-U columns (lemmas, tags, features, trees, MISC) are not "
     "written: {t} has words and sentence breaks only (to get CoNLL-U back that aligns with the original, convert "
     "with the original as template)", ("conllu",)),
    ("no_heads", "{n} mention(s) of more than one word get no head index ({source} has no heads): their head is their "
     "first word, which CorefUD head and partial matching use", ()),
    ("made_ids", "sentence ids made up as DOCUMENT-N for {n} sentence(s): to score against a CoNLL-U key, convert "
     "with the key as template", ()),
    ("cross_sentence", "{n} mention(s) cross a sentence boundary: written as discontinuous mentions, one part per "
     "sentence (a CoNLL-U bracket opens and closes in one sentence){first}", ()),
    ("no_words_doc", "{n} document(s) without words not written: a {t} document is its sentences{first}", ()),
    ("no_form", "{n} token line(s) without a word column: words written as _", ("conll2012",)),
    ("bad_form", "{n} word(s) {t} cannot hold as they are (whitespace, empty) written changed{first}", ()),
    ("conll_columns", "the CoNLL-2012 columns other than the word and the speaker (POS, parse, lemma, sense, named "
     "entities, arguments: {n} token lines) are not written ({t} has no place for them)", ("conll2012",)),
    ("split_antecedents", "{n} split-antecedent label(s) like (1+2) not written (the scorer ignores them)", ()),
    ("extra_fields", "jsonlines field(s) {extra} not written ({t} has no place for them)", ("jsonl",)),
    ("empty_clusters", "{n} cluster(s) without mentions not written", ("jsonl",)),
    ("speakers", "the speakers of {n} sentence(s) not written: CoNLL-U keeps one speaker per sentence (# speaker) "
     "and these have several", ()),
    ("names", "{n} document name(s) changed: {t} cannot hold them as they are (leading or trailing whitespace, line "
     "breaks){first}", ()),
    ("template_nodes", "{n} mention(s) lose empty nodes the template does not have{first}", ()),
)


_SPECIAL = {"conll2012": re.compile(r"\s"), "conllu": re.compile(r"[\t\n\r]")}
_LINKS = re.compile(r"(?:\t|\|)(?:Bridge|SplitAnte)=")


def _where(doc: str, label: str) -> str:
    return f'document "{shown(doc)}", entity {label}'


# ---- writers: (mentions, input words, output words) -> (what should read back, a function writing it)


def _span_writer(to: str):
    def build(m: _Mentions, text: _Text, out: _Text, report: _Report, templated: bool):
        docs = out.docs
        per_doc: list[dict[int, list[tuple[int, int]]]] = [{} for _ in docs]
        seen: set = set()
        for d, c, nodes, head in zip(m.doc, m.cluster, m.nodes, m.head):
            words = [p >> _SHIFT for p in nodes if p & ((1 << _SHIFT) - 1) == _MID]
            where = _where(docs[d].name, m.labels[d][c])
            if not words:
                report.count("zeros", 1, where)
                continue
            if len(words) < len(nodes):
                report.count("lose_empty", 1, where)
            span = (words[0], words[-1] + 1)
            if words[-1] - words[0] + 1 != len(words):
                report.count("discontinuous", 1, where)
                if (d, c, span) in seen:
                    report.count("covering_repeats")
            seen.add((d, c, span))
            if head != _UNKNOWN and head != _word(words[0]):
                report.count("heads", 1, where)
            per_doc[d].setdefault(c, []).append(span)
        typed = to == "conll2012" and out.fmt == "conll2012" and any(doc.etypes for doc in out.docs)
        if not typed:
            report.count("etypes", len({(d, c) for d, c in zip(m.doc, m.cluster) if m.labels[d][c] in m.etypes[d]}))
        if m.fields is not None:
            others = [f for f in m.fields if any(k != "etype" for k in f)]
            report.count("other_fields", len(others))
            report.field_names = sorted({k for f in others for k in f if k != "etype"})
        clusters, labels = [], []
        for d, doc in enumerate(docs):
            kept = sorted(per_doc[d])
            if to == "jsonl" and not m.conllu:
                kept = list(range(len(m.labels[d])))  # jsonlines keeps clusters without mentions
            clusters.append([per_doc[d].get(c, []) for c in kept])
            own = [m.labels[d][c] for c in kept]
            if to == "conll2012":  # digits (the input's where they are digits), TYPE-ID where types are kept
                if not all(x.isascii() and x.isdigit() for x in own) or len(set(own)) < len(own):
                    own = [str(c) for c in range(len(own))]
                own = [f"{m.etypes[d][m.labels[d][c]]}-{x}" if typed and m.labels[d][c] in m.etypes[d] else x
                       for c, x in zip(kept, own)]
            labels.append(own)
        names = [_name(doc.name, to, report) for doc in docs]
        table = MentionTable.from_documents({str(i): c for i, c in enumerate(clusters)},
                                            {str(i): doc.n_words for i, doc in enumerate(docs)})
        table.doc_names = names
        speakers = [None if doc.speakers is None else [[x if x is not None else "-" for x in s] for s in doc.speakers]
                    for doc in docs]
        if to == "conll2012":
            from ..formats.conll import write_conll

            columns = [doc.columns for doc in docs] if out.fmt == "conll2012" else None
            sentences = None if columns is not None else [[[_form(x, to, report, doc.name) for x in s]
                                                          for s in doc.sentences] for doc in docs]
            write = partial(write_conll, table, sentences=sentences, speakers=speakers, columns=columns, labels=labels)
        else:
            from ..formats.jsonl import write_jsonl

            write = partial(write_jsonl, table, sentences=[doc.sentences for doc in docs], speakers=speakers,
                            fields=[doc.fields for doc in docs] if out.fmt == "jsonl" else None)
        return _canonical_spans(table), write
    return build


def _name(name: str, to: str, report: _Report) -> str:
    new = re.sub(r"[\r\n]+", " ", name)
    if to == "conllu":
        new = new.strip()
    if new != name:
        report.count("names", 1, f'"{shown(name)}" as "{shown(new)}"')
    return new


def _form(word: str, to: str, report: _Report, doc: str) -> str:
    if word and not _SPECIAL[to].search(word):
        return word
    if to == "conll2012":
        from ..formats.conll import conll_cell as cell
    else:
        from ..formats.conllu import conllu_cell as cell
    new = cell(word)
    if new != word:
        report.count("bad_form", 1, f'document "{shown(doc)}": {word!r} as {new!r}')
    return new


def _canonical_spans(table: MentionTable) -> dict:
    return {name: sorted(sorted(c) for c in table.document(d) if c) for d, name in enumerate(table.doc_names)}


def _conllu_writer(m: _Mentions, text: _Text, out: _Text, report: _Report, templated: bool):
    from ..formats.conllu import SENTENCE_SHIFT, make_block, sentence_id, word_key, write_conllu

    docs = out.docs
    if out.fmt == "conllu":
        blocks = [b for doc in docs for b in doc.blocks]
        names = [doc.name for doc in docs]
        pos_key = {(d, p): k for k, (d, p) in out.key_pos.items()}
    else:  # sentences made of the input's words
        blocks, names, pos_key = [], [], {}
        for d, doc in enumerate(docs):
            name = _name(doc.name, "conllu", report)
            names.append(name)
            if not doc.n_words:
                report.count("no_words_doc", 1, f'"{shown(doc.name)}"')
                continue
            for i, (forms, nodes) in enumerate(zip(doc.sentences, doc.positions)):
                speaker = None
                if doc.speakers is not None:
                    who = {x for x in doc.speakers[i] if x is not None}
                    if len(who) == 1:
                        speaker = who.pop()
                    elif len(who) > 1:
                        report.count("speakers")
                s = len(blocks)
                block = make_block(sentence_id(name, i + 1), [_form(x, "conllu", report, doc.name) for x in forms],
                                   newdoc=name if i == 0 else None, speaker=speaker)
                blocks.append(block)
                report.count("made_ids")
                for ident, p in zip(block.nodes, nodes):
                    pos_key[(d, p)] = word_key(s, ident)
    rows: list[list[int]] = [[] for _ in docs]  # per output document, its mentions (input rows)
    keys: dict[int, list[int]] = {}
    heads: dict[int, int] = {}
    spread = not m.conllu and any(len(p) > len(f) for doc in docs for p, f in zip(doc.positions, doc.sentences))
    if spread:  # a span read in CoNLL-U takes the empty nodes inside it (udapi's reading of brackets)
        in_order = [np.asarray([p for ps in doc.positions for p in ps], dtype=np.int64) for doc in docs]
    for r, (d, c, nodes, head) in enumerate(zip(m.doc, m.cluster, m.nodes, m.head)):
        if spread:
            lo, hi = np.searchsorted(in_order[d], [nodes[0], nodes[-1]], side="left")
            nodes = in_order[d][lo:hi + 1].tolist()
        ks = [pos_key.get((d, p)) for p in nodes]
        where = _where(docs[d].name, m.labels[d][c])
        if None in ks:
            report.count("template_nodes", 1, where)
            ks = [k for k in ks if k is not None]
            if not ks:
                continue
        if head == _UNKNOWN and len(ks) > 1:
            report.count("no_heads")
        if not m.conllu and len({k >> SENTENCE_SHIFT for k in ks}) > 1:
            report.count("cross_sentence", 1, where)
        rows[d].append(r)
        keys[r] = ks
        heads[r] = pos_key.get((d, head), ks[0]) if head != _UNKNOWN else ks[0]
    order = [r for d in rows for r in d]
    words = Words(offsets([len(keys[r]) for r in order]),
                  np.asarray([k for r in order for k in keys[r]], dtype=np.int64),
                  np.asarray([heads[r] for r in order], dtype=np.int64), np.zeros(len(order), dtype=bool),
                  np.zeros(len(order) + 1, dtype=np.int64), np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int32),
                  [], np.zeros(len(order), dtype=np.int64))
    labels = m.labels
    if not m.conllu or templated:  # entity ids of our own, e1, e2, ... over the file (a template's are the key's)
        labels, n = [], 0
        for lab in m.labels:
            labels.append([f"e{n + c + 1}" for c in range(len(lab))])
            n += len(lab)
    table = MentionTable("<converted>", names, np.zeros(len(docs), dtype=np.int64),
                         np.asarray([doc.n_words for doc in docs], dtype=np.int64),
                         offsets([len(x) for x in rows]),
                         np.asarray([keys[r][0] for r in order], dtype=np.int64),
                         np.asarray([keys[r][-1] + 1 for r in order], dtype=np.int64),
                         np.asarray([m.cluster[r] for r in order], dtype=np.int32), labels, words)
    if m.fields is not None:
        fields = [m.fields[r] for r in order]
    else:
        fields = [{"etype": m.etypes[m.doc[r]].get(m.labels[m.doc[r]][m.cluster[r]], "")} for r in order]
    if m.conllu and templated:
        report.count("bridge_lost", report.counts["bridge"])
    return _canonical_words(table), partial(write_conllu, table, blocks=blocks, labels=labels, fields=fields,
                                            heads=m.conllu, links=not templated)


def _canonical_words(table: MentionTable) -> dict:
    w = table.words
    out = {}
    for d, name in enumerate(table.doc_names):
        clusters: dict[int, list] = {}
        for r in range(int(table.doc_offsets[d]), int(table.doc_offsets[d + 1])):
            ks = tuple(w.keys[w.offsets[r]:w.offsets[r + 1]].tolist())
            clusters.setdefault(int(table.cluster[r]), []).append((ks, int(w.head[r])))
        out[name] = sorted(sorted(c) for c in clusters.values())
    return out


_WRITERS = {"conll2012": _span_writer("conll2012"), "jsonl": _span_writer("jsonl"), "conllu": _conllu_writer}


# ---- writing, then reading back


def _write_checked(source: str, target, to: str, expected: dict, write, verify: bool, report: _Report) -> None:
    """Write into a temporary file, read it back, then put it in the target's place (outputs.output_path):
    a failed or interrupted conversion leaves the target as it was."""
    from ..outputs import output_path

    target = os.fspath(target)
    with output_path(target) as tmp:
        with open(tmp, "w", encoding="utf-8", newline="\n") as fh:
            write(fh)
        if verify:
            _verify(tmp, to, expected, report, target, source)


def _verify(path: str, to: str, expected: dict, report: _Report, target: str, source: str) -> None:
    from .score import read
    from ..errors import FastscoreError

    try:
        table = read(path, to, defer_bracket_errors=False)
    except FastscoreError as exc:  # a writer's bug: say so rather than leave an unreadable file
        if to == "conllu" and "crosses a sentence boundary" in str(exc):  # parts udapi orders across sentences
            # named by the input and its document: the lines are those of the temporary file, never kept
            where = f' document "{shown(exc.document)}":' if getattr(exc, "document", None) else ""
            raise InputError(f"{source}:{where} a mention across sentences cannot be written as CoNLL-U the "
                             f"CorefUD scorer reads (udapi stops on its parts): {getattr(exc, 'problem', exc)}, "
                             f"in the CoNLL-U written") from None
        raise InputError(f"{target}: the written {TITLES[to]} file does not read back ({exc}): please report "
                         "this as a fastscore bug") from None
    got = _canonical_words(table) if to == "conllu" else _canonical_spans(table)
    wrong = [name for name in expected if got.get(name, []) != expected[name]]
    if wrong:
        n = sum(len(set(map(str, expected[x])) ^ set(map(str, got.get(x, [])))) for x in wrong)
        why = ("CoNLL-2012 brackets cannot express crossing mentions of one entity (a closing bracket pairs with "
               "the last opening of its cluster)" if to == "conll2012" else
               "CoNLL-U brackets cannot express some crossing or interleaved mentions of one entity"
               if to == "conllu" else "")
        report.add(f"{target}: {len(wrong)} document(s) read back with different clusters than written "
                   f"({n} cluster(s) differ){': ' + why if why else ''}; first: \"{shown(wrong[0])}\"")


def convert_columnar(source, target, kind: str, source_format: str = "auto") -> list[str]:
    """``fastscore convert SOURCE TARGET --to parquet|arrow``: the mention table of a coreference file,
    written, then read back and compared; returns the reader's warnings."""
    from .score import read
    from ..formats.columnar import read_mention_table, write_table_file
    from ..outputs import output_path

    if os.fspath(target) == "-":
        raise UsageError("--to parquet|arrow writes a binary file: give a path, not '-'")
    refuse_outputs_on_inputs([source], [target])
    from ..formats.naf import holds_naf

    if os.path.isdir(source) and not holds_naf(source):
        refuse_folder(source, f"--to {kind}")
    table = read(source, source_format, defer_bracket_errors=False)
    if table.words is not None and table.sentences is not None:
        from ..formats.conllu import as_digests

        table.sentences = as_digests(table.sentences)  # once: written, then compared with what reads back
    with output_path(target) as tmp:
        write_table_file(table, tmp, kind)
        back = read_mention_table(tmp)
        same = back.same_mentions(table)
        if same and table.words is not None:
            same = back.sentences.digests == table.sentences.digests
        if not same:
            raise InputError(f"{os.fspath(target)}: the written table does not read back as written")
    return list(table.warnings)


def convert_command(source, target, to: str, source_format: str = "auto", template=None) -> list[str]:
    """``fastscore convert SOURCE TARGET --to FORMAT`` for coreference files (the mention table too)."""
    from ..ua.corefud import looks_like_ua

    if to == "ua" or source_format == "ua" or (source_format == "auto" and os.path.isfile(source)
                                               and looks_like_ua(source)):
        return _convert_ua(source, target, to, source_format, template)
    if to in ("parquet", "arrow"):
        if template:
            raise UsageError("--to parquet|arrow writes the mention table: --template does not apply")
        return convert_columnar(source, target, to, source_format=source_format)
    return convert(source, target, to, source_format=source_format, template=template)



def _convert_ua(source, target, to: str, source_format: str, template) -> list[str]:
    """CoNLL-U to Universal Anaphora (--to ua) and back (a UA file --to conllu): fastscore/ua/corefud.py."""
    from ..ua.corefud import convert_to_ua, convert_ua_to_conllu
    from .score import detect_format

    if template:
        raise UsageError("--template does not apply to conversions to or from UA files")
    source = os.fspath(source)
    refuse_folder(source, f"--to {to}")
    if to == "ua":
        _refuse_empty(source, "no document to convert")
        fmt = detect_format(source) if source_format == "auto" else source_format
        if fmt == "ua":  # only --from ua leads here
            raise UsageError(f"{source}: --from ua --to ua: a UA file converts --to conllu (a CoNLL-U file converts "
                             "--to ua without --from, or with --from conllu)")
        if fmt != "conllu":
            raise UsageError(f"{source}: --to ua converts CorefUD CoNLL-U files (their SplitAnte and Bridge too); "
                             f"this is {TITLES.get(fmt, fmt)}: convert it --to conllu first")
        return convert_to_ua(source, target)
    if to != "conllu":
        raise UsageError(f"{source}: a UA file converts --to conllu (CorefUD), not --to {to}")
    return convert_ua_to_conllu(source, target)
