"""The result of a coreference scoring run: statistics plus how to present them."""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Mapping

from ..errors import InputError
from ..messages import counted
from ..metrics import PRF
from .metrics import METRICS, named, resolve
from ..result import Result
from ..stats.docstats import DocStats


def _number(value, integral: bool):
    v = float(value)
    return int(round(v)) if integral else v


def counts_object(sums: Mapping[str, object], prefix: str, integral: bool) -> dict:
    """``recall_num, recall_den, precision_num, precision_den, recall, precision, f1``."""
    from ..metrics import prf_score

    out = {c: _number(sums[f"{prefix}_{c}"], integral) for c in PRF}
    out.update({k: float(v) for k, v in prf_score(sums, prefix).items()})
    return out


def shown_options(**options) -> dict:
    """The options a result shows (signature, JSON) in the order given, named as on the command line
    (``np_only``: ``np-only``); None and False are left out."""
    return {k.replace("_", "-"): v for k, v in options.items() if v is not None and v is not False}


def metric_object(name: str, sums: Mapping[str, object], registry: Mapping = METRICS) -> dict:
    """The JSON object of one metric from summed statistics."""
    spec = registry[name]
    if name == "blanc":
        obj = {
            "coref_links": counts_object(sums, "blanc_coref", True),
            "noncoref_links": counts_object(sums, "blanc_noncoref", True),
        }
        obj.update({k: float(v) for k, v in spec.score(sums).items()})
        return obj
    if name == "conll":
        return {k: float(v) for k, v in spec.score(sums).items()}
    return counts_object(sums, name, spec.integral)


@dataclass(kw_only=True)
class CorefResult(Result):
    """Scores of a response against a key (built by keyword).

    ``doc_stats`` holds the per-document sufficient statistics; ``to_dict``
    gives the JSON layout of ``fastscore coref --output json``.
    """

    doc_stats: DocStats
    metrics: list[str]
    key_path: str
    response_path: str
    options: dict = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)  # key documents absent from the response
    bootstrap: object = None  # fastscore.stats.bootstrap.Bootstrap, set by fastscore.bootstrap()
    tables: tuple | None = field(default=None, repr=False)  # (key, response) MentionTables, for the v8.01 report
    skipped_shards: list[str] = field(default_factory=list)  # shards left out (score_corpus, skip_bad_shards)
    asked: tuple[str, ...] = ("all",)  # the metric names as the user gave them (the v8.01 report shows LEA only if named)
    task = "coref"

    @classmethod
    def scored(cls, stats: DocStats, metrics, registry: Mapping, key_path: str, response_path: str, options: dict,
               warnings: list[str], *, aligned=None, tables: tuple | None = None) -> "CorefResult":
        """The one way a result is made from scoring: ``metrics`` as the user named them (resolved in the
        registry scored), the key documents the response lacks (``aligned``: the documents scored) warned."""
        from .engine import missing_warnings

        missing, note = missing_warnings(aligned, response_path) if aligned is not None else ([], [])
        return cls(doc_stats=stats, metrics=resolve(metrics, registry), key_path=key_path,
                   response_path=response_path, options=options, warnings=warnings + note, missing=missing,
                   tables=tables, asked=tuple(named(metrics)))

    def _object(self, sums, intervals: dict | None = None) -> dict:
        metrics = {m: metric_object(m, sums, self.doc_stats.registry) for m in self.metrics}
        for m, ci in (intervals or {}).items():
            metrics[m]["ci"] = list(ci)
        return {"mentions": counts_object(sums, "mentions", True), "metrics": metrics}

    @property
    def table_metrics(self) -> list[str]:
        return ["mentions", *self.metrics]  # mention identification first, as the text report shows it

    def scores(self) -> dict:
        """Corpus scores: ``{"mentions": {...}, "metrics": {name: {...}}}``."""
        return self._object(self.doc_stats.sums(), self.intervals())

    def document_object(self, index: int) -> dict:
        """The same object for one document."""
        return self._object(self.doc_stats.row(index))

    def f1(self, metric: str) -> float:
        return float(self.scores()["metrics"][metric]["f1"])

    def signature_items(self) -> dict:
        """``match:exact|singletons:keep|...`` (the input format too when it is not CoNLL-2012)."""
        return {k: v for k, v in self.options.items() if not (k == "format" and v == "conll2012")}

    def summary(self) -> dict:
        return {"documents": len(self.doc_stats), **self.scores()}

    def without_inputs(self) -> "CorefResult":
        return replace(self, tables=None)

    @classmethod
    def merge(cls, results: list["CorefResult"], key_path: str, response_path: str) -> "CorefResult":
        """The results of a corpus's shards as one result (documents in the shards' order; totals exactly
        those of one file).  The input tables are joined when every shard kept them (for ``--output perl``)."""
        from ..formats.table import MentionTable

        first = results[0]
        for r in results[1:]:
            if r.options != first.options or r.metrics != first.metrics:
                raise InputError(f"{r.key_path}: scored as {r.options}, but {first.key_path} as {first.options}: "
                                 "the shards of a corpus must be of one format")
        stats = DocStats.concat([r.doc_stats for r in results], [r.key_path for r in results])
        tables = None
        if all(r.tables is not None and r.tables[0].words is None for r in results):
            tables = (MentionTable.concat([r.tables[0] for r in results], key_path),
                      MentionTable.concat([r.tables[1] for r in results], response_path))
        return cls(doc_stats=stats, metrics=list(first.metrics), key_path=key_path, response_path=response_path,
                   options=dict(first.options), warnings=[w for r in results for w in r.warnings],
                   missing=[m for r in results for m in r.missing], tables=tables, asked=first.asked)

    def __repr__(self) -> str:
        f1 = ", ".join(f"{m} {100 * self.f1(m):.2f}" for m in self.metrics)
        return (f"CorefResult({counted(len(self.doc_stats), 'document')}, {self.key_path!r} vs {self.response_path!r}: "
                f"F1 {f1})")
