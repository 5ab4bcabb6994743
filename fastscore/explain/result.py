"""Scoring a key/response pair for error analysis: per-document error counts (DocStats), the errors themselves."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from ..messages import counted
from ..metrics import MetricSpec
from ..result import Result
from ..stats.docstats import DocStats
from .analyser import ERRORS, TITLES, Error, classify
from .cort import Edge, tree_errors
from ..errors import InputError, UsageError
from .documents import Document, Types, drop_singletons, input_format, read_conll_sides, read_sides
from .names import CORT
COUNTS = ("key_mentions", "response_mentions", "key_entities", "response_entities")
TYPES = ("proper", "nominal", "pronoun", "unknown")


def _count_metric(name: str, title: str, description: str) -> MetricSpec:
    def score(sums, column=name):
        return {"f1": sums[column], "count": sums[column]}

    return MetricSpec(name, title, (name,), score, description, count=True)


EXPLAIN_METRICS: dict[str, MetricSpec] = {
    **{e: _count_metric(e, TITLES[e], f"Kummerfeld & Klein error count: {TITLES[e]}") for e in ERRORS},
    "cort_recall_errors": _count_metric("cort_recall_errors", "cort recall errors",
                                        "key spanning-tree edges the response does not recover"),
    "cort_precision_errors": _count_metric("cort_precision_errors", "cort precision errors",
                                           "response spanning-tree edges the key does not recover"),
}
LAYOUT = ERRORS + CORT + COUNTS


@dataclass
class DocumentErrors:
    doc: Document
    errors: list  # [Error]
    recall: list  # [Edge]
    precision: list  # [Edge]
    response_lines: dict  # response mention -> its line in the response file
    response_view: object = None  # the response as analysed (Side: singletons dropped or not)
    key_file: str | None = None  # the files of the document, when a result is of several (explain.corpus)
    response_file: str | None = None


@dataclass
class ExplainResult(Result):
    key_path: str
    response_path: str
    doc_stats: DocStats
    analysed: list  # [DocumentErrors], one per document
    options: dict
    metrics: list = field(default_factory=lambda: list(EXPLAIN_METRICS))
    warnings: list = field(default_factory=list)
    bootstrap: object = None
    skipped_shards: tuple = ()  # (explain reads no corpora of shards)

    task = "explain"

    def signature_items(self) -> dict:
        return {"analyser": "kummerfeld-klein-2013", "cort": "closest-preceding", **self.options}

    def summary(self) -> dict:
        totals = self.totals()
        out = {"documents": len(self.analysed), "key": self.key_path, "response": self.response_path,
               "errors": {e: totals[e] for e in ERRORS}, "by_mention_type": self.by_mention_type(),
               "cort": self.cort(), "counts": {c: totals[c] for c in COUNTS}}
        if self.bootstrap is not None:
            out["intervals"] = {m: list(ci) for m, ci in self.bootstrap.intervals.items()}
        return out

    def document_object(self, index: int) -> dict:
        return document_dict(self.analysed[index])

    def to_dict(self, per_doc: bool = False) -> dict:
        """The JSON object: ``per_doc`` is there, empty, when not asked."""
        out = super().to_dict(per_doc)
        signature = out.pop("signature")
        return {**out, "per_doc": out.get("per_doc", {}), "signature": signature}

    def __repr__(self) -> str:
        totals = self.totals()
        found = ", ".join(f"{TITLES[e].lower()} {totals[e]}" for e in ERRORS if totals[e]) or "no errors"
        return (f"ExplainResult({counted(len(self.doc_stats), 'document')}, {self.key_path!r} vs {self.response_path!r}: "
                f"{found})")

    def totals(self) -> dict:
        return {c: int(round(v)) for c, v in zip(self.doc_stats.columns, self.doc_stats.total())}

    def by_mention_type(self) -> dict:
        """Per error type, the mentions involved by type (a span error: its key mention)."""
        out = {e: {t: 0 for t in TYPES} for e in ERRORS}
        for d in self.analysed:
            types = Types(d.doc)
            for err in d.errors:
                mentions = err.mentions[1:] if err.kind == "span_error" else err.mentions
                for m in mentions:
                    out[err.kind][types.of(m)] += 1
        return out

    def cort(self) -> dict:
        def table(which: str) -> dict:
            pairs: Counter = Counter()
            for d in self.analysed:
                types = Types(d.doc)
                pairs.update(edge.type_pair(types) for edge in getattr(d, which))
            return {"total": sum(pairs.values()), "by_type": dict(sorted(pairs.items()))}

        return {"recall_errors": table("recall"), "precision_errors": table("precision")}


def document_dict(d: DocumentErrors) -> dict:
    """One document's errors, with the file lines of the mentions involved."""
    counts = Counter(err.kind for err in d.errors)
    return {"errors": {e: counts.get(e, 0) for e in ERRORS},
            "cort": {"recall_errors": len(d.recall), "precision_errors": len(d.precision)},
            "list": [error_dict(d, err) for err in d.errors]}


def mention_dict(d: DocumentErrors, m: tuple, side: str) -> dict:
    """A mention for the reports; ``file`` (the line's) only in a result of several files."""
    words = d.doc.words_of(m)
    line = (d.doc.key.lines if side == "key" else d.response_lines).get(m)
    out = {"sentence": m[0], "start": m[1], "end": m[2], "text": " ".join(words), "side": side, "line": line}
    file = d.key_file if side == "key" else d.response_file
    return out if file is None else {**out, "file": file}


def where(m: dict) -> str:
    """``key line 12`` (``key KEY/a.conll line 12`` in a result of several files; ``key`` without a line)."""
    if not m["line"]:
        return m["side"]
    return f"{m['side']}{' ' + m['file'] if 'file' in m else ''} line {m['line']}"


def span_error_notes(d: DocumentErrors, err: Error) -> tuple[str, str]:
    """What tells a span error's response and key mention apart where their words are the same (head matching
    leaves a response mention of the key mention's words unpaired): their heads, else their positions; ("", "")
    where the words differ."""
    response, key = err.mentions[0], err.mentions[1]
    if d.doc.words_of(response) != d.doc.words_of(key):
        return "", ""
    words = d.doc.words[key[0]]
    heads = d.doc.head(response), d.doc.head(key)
    if heads[0] != heads[1]:  # the head's place where its word is the same
        same = words[heads[0]] == words[heads[1]]
        return tuple(f'head "{words[h]}"' + (f" (word {h + 1} of the sentence)" if same else "") for h in heads)
    where = tuple(", ".join(str(p + 1) for p in (m[3] if len(m) > 3 else range(m[1], m[2]))) for m in (response, key))
    if where[0] != where[1]:
        return tuple(f"words {w}" for w in where)
    return "unpaired: the key mention is paired with another response mention", ""


def error_dict(d: DocumentErrors, err: Error) -> dict:
    if err.kind == "span_error":
        mentions = [mention_dict(d, err.mentions[0], "response"), mention_dict(d, err.mentions[1], "key")]
    else:
        mentions = [mention_dict(d, m, "key" if m in d.doc.key.entity_of else "response") for m in err.mentions]
    return {"type": err.kind, "mentions": mentions, "key_entities": list(err.key_entities),
            "response_entities": list(err.response_entities)}


def score_explain(key, response, *, singletons: str = "drop", doc: str | None = None, format: str = "auto",
                  match: str | None = None, np_only: bool = False, remove_nested: bool = False,
                  zero_match: str | None = None) -> ExplainResult:
    """Error analysis of a CoNLL-2012, CoNLL-U or jsonlines response against its key.  ``singletons``: drop
    the response's one-mention entities first (the Analyser's default) or keep them; where `fastscore coref`'s
    matching is used (CoNLL-U; CoNLL-2012 with ``match="mina"``, ``np_only`` or ``remove_nested``), mentions are
    kept and matched as it keeps and matches them, one-mention entities of both sides included (matching.py)."""
    from .conllu import read_conllu_sides
    from .matching import CorefMatching, apply_coval

    if singletons not in ("keep", "drop"):
        raise UsageError(f"--singletons must be keep or drop, not {singletons!r}")
    if format not in ("auto", "conll2012", "jsonl", "conllu"):
        raise UsageError(f"explain reads CoNLL-2012, CoNLL-U and jsonlines files (--format conll2012|conllu|jsonl), "
                         f"not {format}")
    key_path, response_path = str(getattr(key, "path", key)), str(getattr(response, "path", response))
    fmt = input_format(key_path, format)
    if format == "auto":
        _check_same_format(key_path, response_path, fmt)
    matching = CorefMatching(match, np_only, remove_nested, zero_match)
    _check_options(fmt, matching)
    by_coref = fmt == "conllu" or matching.coval()
    if fmt == "conllu":
        docs, warnings = read_conllu_sides(key_path, response_path, matching, singletons == "keep", doc)
    else:
        read = read_conll_sides(key_path, response_path) if fmt == "conll2012" else None
        docs, warnings = read_sides(key_path, response_path, fmt, read)
        if matching.coval():  # coval's matching, on the files read once
            warnings += apply_coval(docs, *read, matching, singletons == "keep", doc)
    if doc is not None:
        docs = [d for d in docs if d.name == doc]
        if not docs:
            raise UsageError(f"{key_path}: no document named {doc!r}")
    results = [analyse(d, "keep" if by_coref else singletons) for d in docs]
    columns = {c: np.zeros(len(docs)) for c in LAYOUT}
    for i, r in enumerate(results):
        for err in r.errors:
            columns[err.kind][i] += 1
        key, response = r.doc.key, r.doc.response
        for c, n in zip(CORT + COUNTS, (r.recall, r.precision, key.entity_of, response.entity_of, key.entities,
                                        response.entities)):
            columns[c][i] = len(n)
    stats = DocStats.from_columns([d.name for d in docs], columns, EXPLAIN_METRICS, LAYOUT)
    options = {**matching.shown(fmt), "singletons": singletons}
    return ExplainResult(key_path, response_path, stats, results, options, warnings=warnings)


_NAMES = {"conll2012": "CoNLL-2012", "jsonl": "jsonlines", "conllu": "CoNLL-U"}


def _check_same_format(key_path: str, response_path: str, fmt: str) -> None:
    """A response in the key's format (told from the content): the two are read side by side, so one of another
    format is refused as `fastscore coref` refuses a CoNLL-U file paired with another (not with a --format hint
    that fits only one of them)."""
    from ..formats.files import source_name

    if input_format(response_path) != fmt:
        raise InputError(f"{source_name(response_path)}: not a {_NAMES[fmt]} file, but {source_name(key_path)} is: key "
                         f"and response must both be {_NAMES[fmt]} (explain reads them side by side)")


def _check_options(fmt: str, matching) -> None:
    """The matching options `fastscore coref` offers for the format, and no other."""
    allowed = {"conll2012": ("exact", "mina"), "jsonl": ("exact",), "conllu": ("exact", "partial", "head")}[fmt]
    name = _NAMES[fmt]
    if matching.match is not None and matching.match not in allowed:
        raise UsageError(f"--match {matching.match} does not apply to {name} files (they take --match "
                         f"{'|'.join(allowed)})")
    if fmt != "conll2012" and (matching.np_only or matching.remove_nested):
        raise UsageError(f"--np-only and --remove-nested read the parse of CoNLL-2012 files, not {name} files")
    if fmt != "conllu" and matching.zero_match is not None:
        raise UsageError(f"--zero-match applies to zeros (empty nodes), which only CoNLL-U files have, not {name} "
                         "files")


def analyse(doc: Document, singletons: str = "drop") -> DocumentErrors:
    response = drop_singletons(doc.response) if singletons == "drop" else doc.response
    errors = classify(doc, response)
    errors.sort(key=lambda e: (ERRORS.index(e.kind), e.mentions))
    recall: list[Edge] = tree_errors(doc.key, response)
    precision: list[Edge] = tree_errors(response, doc.key)
    return DocumentErrors(doc, errors, recall, precision, doc.response.lines, response)
