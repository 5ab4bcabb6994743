"""A toy task, the worked example of ARCHITECTURE.md's "How to add a task": documents are sets of items,
precision and recall of the items found.  ``tasks.register(ToyTask())`` is all it takes to get its command,
``compare``, ``sweep``, ``--bootstrap`` and ``fastscore.score_toy``; ``ShardedToyTask`` adds corpora of shards."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from fastscore.metrics import MetricSpec, ratio_score
from fastscore.result import Result, check_same_options
from fastscore.stats.docstats import DocStats
from fastscore.task import Corpus, Option, Task

TOY_METRICS = {"items": MetricSpec("items", "items", ("tp", "sys", "gold"), ratio_score("tp", "sys", "tp", "gold"),
                                   "items found")}


@dataclass
class ToyFile:
    path: str
    docs: dict


@dataclass(kw_only=True)
class ToyResult(Result):
    doc_stats: DocStats
    lowercase: bool = False
    metrics: list = field(default_factory=lambda: ["items"])
    warnings: list = field(default_factory=list)
    bootstrap: object = None
    skipped_shards: list = field(default_factory=list)
    task = "toy"

    def signature_items(self) -> dict:
        return {"lowercase": self.lowercase}

    def summary(self) -> dict:
        return self.document_object(None)

    def document_object(self, index) -> dict:
        sums = self.doc_stats.sums() if index is None else self.doc_stats.row(index)
        out = {k: float(v) for k, v in TOY_METRICS["items"].score(sums).items()}
        if index is None and self.bootstrap is not None:
            out["ci"] = list(self.intervals()["items"])
        return {"items": out}

    @classmethod
    def merge(cls, results, gold, system):
        check_same_options(results, lambda r: r.lowercase, lambda r: r.doc_stats.doc_names[0])
        return cls(doc_stats=DocStats.concat([r.doc_stats for r in results]), lowercase=results[0].lowercase)


def read_toy(source) -> ToyFile:
    if isinstance(source, ToyFile):
        return source
    docs: dict = {}
    for line in Path(source).read_text().splitlines():
        doc, item = line.split()
        docs.setdefault(doc, set()).add(item)
    return ToyFile(str(source), docs)


class ToyTask(Task):
    name = "toy"
    summary = "toy items"
    description = "Score toy items."
    gold_help = "gold toy file"
    system_help = "system toy file"
    docs_page = "docs/toy.md"
    extensions = (".toy",)
    default_metric = "items"
    metric_help = "items"
    api_doc = "Returns a ToyResult."
    outputs = (("json", "JSON"),)
    options = (Option(("--lowercase",), "lowercase", "compare items in lower case", switch=True, default=False),
               Option(("--doc",), "doc", "one document", scope="command"),
               Option(("--shout",), "shout", "upper-case report", switch=True, default=False, scope="report"))

    def read(self, source) -> ToyFile:
        return read_toy(source)

    def doc_names(self, read: ToyFile) -> list[str]:
        return sorted(read.docs)

    def score(self, gold, system, lowercase: bool = False, doc: str | None = None) -> ToyResult:
        g, s = read_toy(gold), read_toy(system)
        names = sorted(g.docs) if doc is None else [doc]
        norm = (lambda xs: {x.lower() for x in xs}) if lowercase else set
        cols: dict = {"tp": [], "sys": [], "gold": []}
        for n in names:
            gi, si = norm(g.docs[n]), norm(s.docs.get(n, set()))
            cols["tp"].append(len(gi & si))
            cols["sys"].append(len(si))
            cols["gold"].append(len(gi))
        stats = DocStats.from_columns(names, {k: np.asarray(v, float) for k, v in cols.items()}, TOY_METRICS)
        return ToyResult(doc_stats=stats, lowercase=lowercase)

    def report(self, result: ToyResult, fmt: str, per_doc: bool = False, shout: bool = False) -> str:
        import json

        text = json.dumps(result.to_dict(per_doc)) + "\n"
        return text.upper() if shout else text


class ToyCorpus(Corpus):
    def concat(self, reads: list, name: str, like) -> ToyFile:
        return ToyFile(name, {n: items for r in reads for n, items in r.docs.items()})


class ShardedToyTask(ToyTask):
    corpus = ToyCorpus()  # merge: ToyResult.merge (Corpus.merge's default)
