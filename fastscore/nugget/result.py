"""Scores of an event nugget run, computed as EvmEval computes them.

Per document: P = TP / #system, R = TP / #gold (NaN when the count is 0).
Micro: TP summed over documents with gold mentions, over their gold and
system counts (a document whose system output is empty adds its gold count
only).  Macro: mean of the per-document P and R over documents with gold
mentions (an empty system output counts as P = 0).  F1 = 2PR / (P + R),
NaN when P + R = 0 — EvmEval prints ``nan``; JSON has ``null``.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from ..messages import counted
from ..result import Result, check_same_options
from ..stats.docstats import DocStats
from .engine import Aligned, Prepared
from .metrics import (
    doc_scores,
    evmeval_averages,
    official_coref_average,
    per_type_table,
    sequencing_scores,
)
from .options import ATTRIBUTES, COREF_METRICS, REPORTED, Options


def _json(x):
    """A JSON value: NaN -> None, numpy scalars -> Python numbers."""
    if isinstance(x, (float, np.floating)):
        return None if math.isnan(x) else float(x)
    return int(x) if isinstance(x, np.integer) else x


@dataclass
class NuggetResult(Result):
    """Scores of an event nugget run; every number comes from ``doc_stats`` (the nugget registry's
    per-document columns) through the reducers of :mod:`fastscore.nugget.metrics`, except the
    per-type table (mention by mention, see ``per_type_table``)."""

    gold: object
    system: object
    options: Options
    prepared: Prepared
    aligned: Aligned
    doc_stats: DocStats
    sequencing: object = None  # fastscore.nugget.sequencing.Sequencing (intervals and links), with sequencing=True
    bootstrap: object = None  # fastscore.stats.bootstrap.Bootstrap, set by fastscore.bootstrap()
    skipped_shards: list = field(default_factory=list)  # shards left out (score_corpus, skip_bad_shards)
    _doc_scores: dict = field(default_factory=dict, repr=False)  # (attribute, percent) -> rows of (P, R, F1)
    task = "nugget"

    @property
    def has_coref(self) -> bool:
        return "coref-average" in self.doc_stats.registry

    @property
    def metrics(self) -> list[str]:
        """Registry names of the headline metrics (what ``fastscore.bootstrap`` gives intervals for)."""
        coref = [*COREF_METRICS, "coref-average"] if self.has_coref else []
        seq = [f"sequencing-{k.lower()}" for k in REPORTED] if self.sequencing is not None else []
        return list(ATTRIBUTES) + coref + seq

    @property
    def documents(self) -> list[str]:
        return self.prepared.doc_ids

    @property
    def warnings(self) -> list[str]:
        return self.prepared.warnings

    def doc_scores(self, d: int, a: int, percent: bool = False) -> tuple[float, float, float]:
        """(P, R, F1) of document d for attribute a (NaN where undefined)."""
        return tuple(self.doc_score_rows(a, percent)[d])

    def doc_score_rows(self, a: int, percent: bool = False) -> list[list[float]]:
        """[P, R, F1] of every document for attribute a (NaN where undefined), computed once."""
        key = (a, percent)
        if key not in self._doc_scores:
            self._doc_scores[key] = doc_scores(self.doc_stats, ATTRIBUTES[a], 100 if percent else 1).tolist()
        return self._doc_scores[key]

    def averages(self, a: int, percent: bool = False) -> dict:
        """Micro and macro averages with EvmEval's arithmetic (and its order of additions)."""
        return evmeval_averages(self.doc_stats, ATTRIBUTES[a], 100 if percent else 1)

    def per_type(self) -> dict[str, dict]:
        """Per gold type: tp (sum of Dice), #gold, #system, P, R, F1 (see ``per_type_table``)."""
        return per_type_table(self.prepared, self.aligned, self.options)

    def coref_scores(self) -> dict | None:
        """Coreference metrics (fastscore coref objects) and the official average."""
        if not self.has_coref:
            return None
        from ..coref.result import metric_object

        sums = self.doc_stats.sums()
        out = {m: metric_object(m, sums) for m in COREF_METRICS}
        printed, average = official_coref_average(sums)
        out["average"] = average / 100
        out["printed_percent"] = printed
        out["average_percent"] = average  # what the official report prints
        return out

    def sequencing_scores(self, kind: str, d: int | None = None) -> dict:
        """Temporal awareness of one link type (Subevent, After, All): corpus, or document d."""
        sums = self.doc_stats.sums() if d is None else self.doc_stats.row(d)
        return sequencing_scores(sums, kind)

    def signature_items(self) -> dict:
        o = self.options
        items = {"preset": o.preset.name, "spans": "token" if o.token_mode else "char", "mapping": o.mapping,
                 "invisible": len(o.invisible)}
        if o.whitelist is not None:
            items["whitelist"] = len(o.whitelist)
        if o.coref:
            items["coref"] = f"{o.coref_mapping}@{o.coref_threshold}"
        if o.sequencing:
            items["sequencing"] = o.sequencing_graph + ("" if o.no_script_validation else ":validated")
        return items

    def summary(self) -> dict:
        metrics = {}
        intervals = self.intervals()
        for a, name in enumerate(ATTRIBUTES):
            avg = self.averages(a)
            metrics[name] = {k: {kk: _json(vv) for kk, vv in v.items()} for k, v in avg.items()}
            if name in intervals:
                metrics[name]["micro"]["ci"] = list(intervals[name])
        out = {"documents": len(self.documents), "metrics": metrics}
        coref = self.coref_scores()
        if coref is not None:
            out["coref"] = {k: v for k, v in coref.items() if k not in ("printed_percent", "average_percent")}
            for m in COREF_METRICS:
                if m in intervals:
                    out["coref"][m]["ci"] = list(intervals[m])
            if "coref-average" in intervals:
                out["coref"]["average_ci"] = list(intervals["coref-average"])
        if self.sequencing is not None:
            out["sequencing"] = {k.lower(): self.sequencing_scores(k) for k in REPORTED}
            for k, obj in out["sequencing"].items():
                if f"sequencing-{k}" in intervals:
                    obj["ci"] = list(intervals[f"sequencing-{k}"])
        out["per_type"] = {t: {k: _json(v) for k, v in obj.items()} for t, obj in self.per_type().items()}
        return out

    def document_object(self, d: int) -> dict:
        entry = {}
        row = self.doc_stats.row(d)
        for a, name in enumerate(ATTRIBUTES):
            p, r, f = self.doc_scores(d, a)
            entry[name] = {"precision": _json(p), "recall": _json(r), "f1": _json(f), "tp": row[f"{name}_tp"],
                           "system": int(row["system_mentions"]), "gold": int(row["gold"])}
        if self.sequencing is not None:
            entry["sequencing"] = {k.lower(): self.sequencing_scores(k, d) for k in REPORTED}
        return entry

    @classmethod
    def merge(cls, results: list["NuggetResult"], gold: str, system: str) -> "NuggetResult":
        """The results of a corpus's shards as one, documents sorted by id as one file's are (EvmEval adds
        per-document numbers in that order).  Sequencing links are scored file by file only."""
        from types import SimpleNamespace

        from ..errors import UsageError

        first = results[0]
        if any(r.sequencing is not None for r in results):
            raise UsageError("--sequencing scores one pair of whole files: give the gold and system as one file "
                             "each (a file larger than --batch-size is read in batches: give a larger one)")
        check_same_options(results, lambda r: r.options, lambda r: r.gold.path)
        lists = lambda name: [x for r in results for x in getattr(r.prepared, name)]
        prepared = Prepared(lists("doc_ids"), lists("gold"), lists("system"), lists("gold_corefs"),
                            lists("system_corefs"), lists("warnings"))
        aligned = Aligned(*(np.concatenate([getattr(r.aligned, k) for r in results]) for k in ("tp", "n_gold", "n_sys")),
                          [m for r in results for m in r.aligned.map_sys],
                          [m for r in results for m in r.aligned.map_score])
        stats = DocStats.concat([r.doc_stats for r in results], [r.gold.path for r in results])
        order = sorted(range(len(stats)), key=stats.doc_names.__getitem__)
        if order != list(range(len(stats))):  # shards not in document order (or interleaved)
            pick = lambda xs: [xs[i] for i in order]
            prepared = Prepared(*(pick(getattr(prepared, k)) for k in ("doc_ids", "gold", "system", "gold_corefs",
                                                                      "system_corefs")), prepared.warnings)
            aligned = Aligned(aligned.tp[order], aligned.n_gold[order], aligned.n_sys[order], pick(aligned.map_sys),
                              pick(aligned.map_score))
            stats = DocStats(pick(stats.doc_names), stats.matrix[order], stats.columns, stats.registry)
        run = next((r.system.system for r in results if r.system.ids), first.system.system)  # a mention line's
        return cls(SimpleNamespace(path=gold, system=first.gold.system),
                   SimpleNamespace(path=system, system=run), first.options, prepared, aligned, stats)

    def __repr__(self) -> str:
        f1 = ", ".join(f"{name} {100 * self.averages(a)['micro']['f1']:.2f}" for a, name in enumerate(ATTRIBUTES))
        return (f"NuggetResult({counted(len(self.documents), 'document')}, {self.gold.path!r} vs {self.system.path!r}: "
                f"micro F1 {f1})")
