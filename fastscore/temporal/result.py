"""Scores of a TempEval-3 run: every number from the per-document statistics (``doc_stats``)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

from ..messages import counted
from ..result import Result, check_same_options
from ..stats.docstats import DocStats
from .entities import KINDS
from .metrics import ENTITY_METRICS, TEMPORAL_METRICS


@dataclass(frozen=True)
class _Paths:
    """What a merged or pickled result keeps of an input: its path."""

    path: str


def schema_warnings(issues: list[str]) -> list[str]:
    """The one warning for attribute values outside TimeML's (none without)."""
    if not issues:
        return []
    return [f"{len(issues)} attribute(s) or value(s) outside TimeML's (the toolkit's normaliser checks files against "
            f"its schema and scores nothing when one fails; fastscore scores them); first: {issues[0]}"]


def _number(x) -> float | int:
    x = float(x)
    return int(x) if x.is_integer() else x


def _metric_scores(sums: Mapping[str, object], metrics) -> dict[str, dict]:
    """The score of each metric from ``sums`` (numbers, or one array entry per document)."""
    return {m: TEMPORAL_METRICS[m].score(sums) for m in metrics}


def _relations(s: Mapping[str, object], scores: dict, d: int | None = None) -> dict:
    """Temporal awareness: P, R, F1 and the four counts (of document ``d`` of per-document arrays)."""
    at = (lambda x: x) if d is None else (lambda x: x[d])
    sc = scores["temporal"]
    out = {k: float(at(sc[k])) for k in ("precision", "recall", "f1")}
    out.update(system_verified=_number(at(s["rel_system_verified"])), system_total=_number(at(s["rel_system_total"])),
               gold_verified=_number(at(s["rel_gold_verified"])), gold_total=_number(at(s["rel_gold_total"])))
    return out


def _entities(s: Mapping[str, object], scores: dict, d: int | None = None) -> dict:
    """Per kind: strict and relaxed P, R, F1 (and counts), attribute F1 (of document ``d`` of per-document
    arrays)."""
    at = (lambda x: x) if d is None else (lambda x: x[d])
    out = {}
    for kind, attrs in KINDS.items():
        obj: dict = {"gold": _number(at(s[f"{kind}_gold"])), "system": _number(at(s[f"{kind}_system"]))}
        for m in ("strict", "relaxed"):
            sc = scores[f"{kind}-{m}"]
            obj[m] = {k: float(at(sc[k])) for k in ("precision", "recall", "f1")}
            obj[m].update(system_matched=_number(at(s[f"{kind}_{m}_p"])), gold_matched=_number(at(s[f"{kind}_{m}_r"])))
        obj["attributes"] = {a: float(at(scores[f"{kind}-{a}"]["f1"])) for a in attrs}
        obj["attribute_matches"] = {a: _number(at(s[f"{kind}_{a}"])) for a in attrs}
        out[kind] = obj
    return out


@dataclass
class TemporalResult(Result):
    gold: object  # TimemlInput
    system: object
    method: str
    fix_toolkit_quirks: bool
    parts: tuple[str, ...]  # "relations", "entities" (what was scored)
    doc_stats: DocStats
    warnings: list[str] = field(default_factory=list)
    bootstrap: object = None  # fastscore.stats.bootstrap.Bootstrap, set by fastscore.bootstrap()
    schema_issues: list[str] = field(default_factory=list)  # values outside TimeML's ("file:line: what")
    skipped_shards: list[str] = field(default_factory=list)  # shards left out (score_corpus, skip_bad_shards)
    task = "temporal"
    per_doc_always = True

    def __getstate__(self):  # pickled (sent back by a worker), the inputs keep their paths, not their documents
        state = dict(self.__dict__)
        state.update(gold=_Paths(self.gold.path), system=_Paths(self.system.path))
        state.pop("_objects", None)
        return state

    @classmethod
    def merge(cls, results: list["TemporalResult"], gold: str, system: str) -> "TemporalResult":
        """The results of a corpus's shards as one (``Task.merge``): documents in the shards' order, the
        schema warning counted over every shard."""
        first = results[0]
        check_same_options(results, lambda r: (r.method, r.fix_toolkit_quirks, r.parts), lambda r: r.gold.path)
        issues = [i for r in results for i in r.schema_issues]
        others = [w for r in results for w in r.warnings if w not in schema_warnings(r.schema_issues)]
        stats = DocStats.concat([r.doc_stats for r in results], [r.gold.path for r in results])
        return cls(_Paths(gold), _Paths(system), first.method, first.fix_toolkit_quirks,
                   first.parts, stats, schema_warnings(issues) + others, schema_issues=issues)

    @property
    def metrics(self) -> list[str]:
        """Registry names of the reported metrics (what ``fastscore.bootstrap`` gives intervals for)."""
        return (["temporal"] if "relations" in self.parts else []) + \
            (list(ENTITY_METRICS) if "entities" in self.parts else [])

    def relations(self, sums: Mapping[str, object] | None = None) -> dict:
        """Temporal awareness: P, R, F1 and the four counts (corpus, or given sums)."""
        s = self.doc_stats.sums() if sums is None else sums
        return _relations(s, _metric_scores(s, ("temporal",)))

    def entities(self, sums: Mapping[str, object] | None = None) -> dict:
        """Per kind: strict and relaxed P, R, F1 (and counts), attribute F1."""
        s = self.doc_stats.sums() if sums is None else sums
        return _entities(s, _metric_scores(s, ENTITY_METRICS))

    def signature_items(self) -> dict:
        return {"method": self.method, "closure": "exact" if self.fix_toolkit_quirks else "official",
                "scored": "+".join(self.parts)}

    def summary(self) -> dict:
        """``relations``, ``entities``, ``temporal_awareness`` (F1 of the relations); ``per_doc`` always follows
        (the same objects per document)."""
        return {"method": self.method, "fix_toolkit_quirks": self.fix_toolkit_quirks,
                "documents": len(self.documents), **self._scores(None, self.intervals())}

    def document_object(self, d: int) -> dict:
        return self._document_objects()[d]

    def _document_objects(self) -> list[dict]:
        """Every document's object, their scores computed for all documents at once (per document, the
        numpy calls cost more than the numbers), kept while ``doc_stats`` is the same."""
        kept = self.__dict__.get("_objects")
        if kept is not None and kept[0] is self.doc_stats:
            return kept[1]
        stats = self.doc_stats
        columns = {c: stats.matrix[:, k] for k, c in enumerate(stats.columns)}
        scores = _metric_scores(columns, self.metrics)
        objects = [self._scores(columns, {}, (scores, d)) for d in range(len(stats.doc_names))]
        self.__dict__["_objects"] = (stats, objects)
        return objects

    def _scores(self, sums, intervals: dict, at: tuple | None = None) -> dict:
        """The numbers of the corpus (``sums``), or, ``at`` = (scores, d), of document ``d`` (``sums`` and
        ``scores`` then hold every document's)."""
        if sums is None:
            sums = self.doc_stats.sums()
        scores, d = at if at is not None else (_metric_scores(sums, self.metrics), None)
        rel = _relations(sums, scores, d) if "relations" in self.parts else None
        ent = _entities(sums, scores, d) if "entities" in self.parts else None
        if rel is not None and "temporal" in intervals:
            rel["ci"] = list(intervals["temporal"])
        if ent is not None:
            for kind, attrs in KINDS.items():
                for m in ("strict", "relaxed"):
                    if f"{kind}-{m}" in intervals:
                        ent[kind][m]["ci"] = list(intervals[f"{kind}-{m}"])
                cis = {a: list(intervals[f"{kind}-{a}"]) for a in attrs if f"{kind}-{a}" in intervals}
                if cis:
                    ent[kind]["attribute_ci"] = cis
        return {"relations": rel, "entities": ent, "temporal_awareness": None if rel is None else rel["f1"]}

    def __repr__(self) -> str:
        what = []
        if "relations" in self.parts:
            what.append(f"temporal awareness F1 {100 * self.relations()['f1']:.2f}")
        if "entities" in self.parts:
            e = self.entities()
            what.append(f"event F1 {100 * e['event']['strict']['f1']:.2f}, timex F1 "
                        f"{100 * e['timex']['strict']['f1']:.2f} (strict)")
        return (f"TemporalResult({counted(len(self.documents), 'document')}, {self.method}, {self.gold.path!r} vs "
                f"{self.system.path!r}: {'; '.join(what)})")
