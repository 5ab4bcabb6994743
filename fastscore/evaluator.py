"""Scores from memory: a drop-in ``CorefEvaluator`` for coreference training loops.

The interface is e2e-coref's (``metrics.py``, copied by many neural coreference repositories): documents are
added one by one with ``update(predicted, gold, mention_to_predicted, mention_to_gold)``, clusters being
sequences of ``(start, end)`` mentions with inclusive token offsets, and ``get_f1()`` gives the mean F1 of
MUC, B-cubed and CEAFe.  The numbers are the reference scorer v8.01's on the same clusters (singletons kept),
LEA coval's: every document added is kept as columns of two mention tables (gold as key, predicted as
response) and scored by the engine that scores files (``coref/engine.py``), in one pass when a score is
asked for.  Adding a document is plain Python (no numba is imported until a score is asked for).
"""
from __future__ import annotations

from typing import Sequence

import numpy as np

from .errors import UsageError

METRIC_NAMES = ("muc", "bcub", "ceafe", "ceafm", "lea", "blanc", "mentions")
CONLL_PARTS = ("muc", "bcub", "ceafe")  # get_f1, get_prf average these (the CoNLL-2012 score)


class _Side:
    """One side's documents, kept as flat Python lists until scored (appending is what a training loop pays)."""

    def __init__(self) -> None:
        self.coords: list[int] = []  # start, end (inclusive), start, end, ... of every mention
        self.cluster_sizes: list[int] = []  # mentions of every cluster
        self.doc_clusters: list[int] = []  # clusters of every document

    def add(self, clusters, what: str) -> None:
        if _is_arrays(clusters):
            spans, ids = _checked_arrays(clusters, what)
            order, sizes = _clusters_of_ids(ids)
            self.coords.extend(spans[order].ravel().tolist())
            self.cluster_sizes.extend(sizes.tolist())
            self.doc_clusters.append(len(sizes))
            return
        if isinstance(clusters, (str, bytes)) or not hasattr(clusters, "__iter__"):
            raise UsageError(f"{what}: clusters must be a sequence of clusters of (start, end) mentions, or a pair "
                             f"(spans array of shape (n, 2), cluster ids), not {type(clusters).__name__}")
        clusters = list(clusters)
        sizes = [len(c) for c in clusters]
        coords = [x for c in clusters for m in c for x in m]
        if len(coords) != 2 * sum(sizes):
            raise UsageError(f"{what}: every mention must be a (start, end) pair of token offsets")
        self.coords.extend(coords)
        self.cluster_sizes.extend(sizes)
        self.doc_clusters.append(len(clusters))

    def arrays(self, what: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(start, end exclusive, cluster index in its document) per mention, and the mentions per document."""
        try:
            coords = np.array(self.coords, dtype=np.int64).reshape(-1, 2)
        except (TypeError, ValueError, OverflowError):
            raise UsageError(f"{what}: mention offsets must be integers") from None
        sizes = np.asarray(self.cluster_sizes, dtype=np.int64)
        doc_clusters = np.asarray(self.doc_clusters, dtype=np.int64)
        first_cluster = np.repeat(np.cumsum(doc_clusters) - doc_clusters, doc_clusters)
        index_in_doc = np.arange(len(sizes), dtype=np.int64) - first_cluster
        cluster = np.repeat(index_in_doc, sizes)
        cluster_doc = np.repeat(np.arange(len(doc_clusters)), doc_clusters)
        doc_mentions = np.bincount(cluster_doc, weights=sizes, minlength=len(doc_clusters)).astype(np.int64)
        start, end = coords[:, 0], coords[:, 1]
        bad = np.flatnonzero((start < 0) | (end < start))
        if len(bad):
            m = int(bad[0])
            doc = int(np.searchsorted(np.cumsum(doc_mentions), m, side="right"))
            raise UsageError(f"{what}: document {doc}: mention ({int(start[m])}, {int(end[m])}) is not a span of "
                             "token offsets (0 <= start <= end, end inclusive)")
        return start, end + 1, cluster, doc_mentions


def _is_arrays(value) -> bool:
    return (isinstance(value, tuple) and len(value) == 2 and isinstance(value[0], np.ndarray)
            and value[0].ndim == 2)


def _checked_arrays(value, what: str) -> tuple[np.ndarray, np.ndarray]:
    spans, ids = np.asarray(value[0]), np.asarray(value[1])
    if spans.shape[1:] != (2,) or ids.shape != (len(spans),) or not (
            np.issubdtype(spans.dtype, np.integer) and np.issubdtype(ids.dtype, np.integer)):
        raise UsageError(f"{what}: arrays must be integer spans of shape (n, 2) (start, end inclusive) and n "
                         f"integer cluster ids, not shapes {spans.shape} and {ids.shape}")
    return spans.astype(np.int64), ids


def _clusters_of_ids(ids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Mention order grouping equal ids (clusters in order of first appearance, mentions in given order), and
    each cluster's size."""
    _, first, inverse, sizes = np.unique(ids, return_index=True, return_inverse=True, return_counts=True)
    rank = np.empty(len(first), dtype=np.int64)
    rank[np.argsort(first, kind="stable")] = np.arange(len(first))
    order = np.argsort(rank[inverse.ravel()], kind="stable")
    return order, sizes[np.argsort(first, kind="stable")]


class MetricScore:
    """One metric of a :class:`CorefEvaluator` (``evaluator.metrics["muc"]``), with e2e-coref's ``Evaluator``
    methods: ``get_prf()`` -> (precision, recall, f1), ``get_f1()``, ``get_recall()``, ``get_precision()``,
    ``get_counts()`` -> (precision numerator, its denominator, recall numerator, its denominator)."""

    def __init__(self, evaluator: "CorefEvaluator", name: str) -> None:
        self._evaluator = evaluator
        self.name = name

    def _scores(self) -> dict:
        stats = self._evaluator._doc_stats()
        return {k: float(v) for k, v in stats.registry[self.name].score(stats.sums()).items()}

    def get_f1(self) -> float:
        return self._scores()["f1"]

    def get_recall(self) -> float:
        return self._scores()["recall"]

    def get_precision(self) -> float:
        return self._scores()["precision"]

    def get_prf(self) -> tuple[float, float, float]:
        s = self._scores()
        return s["precision"], s["recall"], s["f1"]

    def get_counts(self) -> tuple[float, float, float, float]:
        if self.name == "blanc":
            raise UsageError("BLANC is the mean of two link scores: its counts are those of blanc_coref_* and "
                             "blanc_noncoref_* in result().doc_stats")
        sums = self._evaluator._doc_stats().sums()
        return tuple(float(sums[f"{self.name}_{c}"]) for c in
                     ("precision_num", "precision_den", "recall_num", "recall_den"))

    def __repr__(self) -> str:
        p, r, f = self.get_prf()
        return f"MetricScore({self.name}: P {100 * p:.2f}, R {100 * r:.2f}, F1 {100 * f:.2f})"


class CorefEvaluator:
    """e2e-coref's ``CorefEvaluator`` with the reference scorer's numbers.

    ``update(predicted, gold[, mention_to_predicted, mention_to_gold])`` adds one document: ``predicted`` and
    ``gold`` are sequences of clusters, each a sequence of ``(start, end)`` mentions (inclusive token offsets),
    or pairs ``(spans, cluster_ids)`` of numpy arrays (shape (n, 2) and (n,)).  The two dicts e2e-coref passes
    are accepted and not needed (they follow from the clusters).  ``get_f1()``, ``get_prf()``,
    ``get_precision()`` and ``get_recall()`` average MUC, B-cubed and CEAFe as e2e-coref does;
    ``metrics[name]`` scores one of ``muc, bcub, ceafe, ceafm, lea, blanc, mentions``; ``result()`` is the
    :class:`fastscore.coref.result.CorefResult` of every document added (for ``bootstrap``, ``to_pandas``, ...).
    """

    def __init__(self) -> None:
        self.metrics = {name: MetricScore(self, name) for name in METRIC_NAMES}
        self.reset()

    def reset(self) -> None:
        """Forget every document added."""
        self._predicted, self._gold = _Side(), _Side()
        self._names: list[str] = []
        self._cached = None

    def update(self, predicted, gold, mention_to_predicted: dict | None = None, mention_to_gold: dict | None = None,
               *, doc: str | None = None) -> None:
        """Add one document (``doc``: its name in results; default its number, from 0)."""
        for what, mapping in (("mention_to_predicted", mention_to_predicted), ("mention_to_gold", mention_to_gold)):
            if mapping is not None and not hasattr(mapping, "get"):
                raise UsageError(f"{what} must be a dict (mention -> cluster), not {type(mapping).__name__}")
        n = len(self._names)
        self._predicted.add(predicted, f"predicted (document {n})")
        self._gold.add(gold, f"gold (document {n})")
        self._names.append(str(n) if doc is None else str(doc))
        self._cached = None

    def __len__(self) -> int:
        return len(self._names)

    def _tables(self):
        """(gold, predicted) mention tables of every document added."""
        from .formats.table import MentionTable, _numbers, offsets

        if len(set(self._names)) != len(self._names):
            raise UsageError("CorefEvaluator: two documents have the same name (update(..., doc=NAME))")
        sides = [side.arrays(what) for side, what in ((self._gold, "gold"), (self._predicted, "predicted"))]
        n = len(self._names)
        tokens = np.zeros(n, dtype=np.int64)  # both sides get the same count: the engine checks they agree
        for start, end, _, doc_mentions in sides:
            doc = np.repeat(np.arange(n), doc_mentions)
            np.maximum.at(tokens, doc, end)
        tables = []
        for (start, end, cluster, doc_mentions), side, name in zip(sides, (self._gold, self._predicted),
                                                                   ("<gold>", "<predicted>")):
            tables.append(MentionTable(
                path=name, doc_names=list(self._names), doc_lines=np.zeros(n, dtype=np.int64), doc_tokens=tokens,
                doc_offsets=offsets(doc_mentions), start=start.astype(np.int32), end=end.astype(np.int32),
                cluster=cluster.astype(np.int32), cluster_labels=[_numbers(c) for c in side.doc_clusters]))
        return tables

    def _scored(self):
        if self._cached is None:
            from .coref.engine import align_documents, score_aligned

            if not self._names:
                raise UsageError("CorefEvaluator: no document added yet (update)")
            gold, predicted = self._tables()
            scored = score_aligned(align_documents(gold, predicted), allow_repeated=True,
                                   response_path=predicted.path)
            self._cached = (scored, gold, predicted)
        return self._cached

    def _doc_stats(self):
        return self._scored()[0].stats

    def _mean(self, which: str) -> float:
        stats = self._doc_stats()
        sums = stats.sums()
        return sum(float(stats.registry[m].score(sums)[which]) for m in CONLL_PARTS) / len(CONLL_PARTS)

    def get_f1(self) -> float:
        """The CoNLL-2012 score as a fraction: the mean F1 of MUC, B-cubed and CEAFe."""
        return self._mean("f1")

    def get_recall(self) -> float:
        return self._mean("recall")

    def get_precision(self) -> float:
        return self._mean("precision")

    def get_prf(self) -> tuple[float, float, float]:
        return self.get_precision(), self.get_recall(), self.get_f1()

    def result(self, metrics: Sequence[str] | str | None = None):
        """The :class:`~fastscore.coref.result.CorefResult` of the documents added (gold as key)."""
        from .coref.result import CorefResult
        from .metrics import METRICS, named, resolve

        scored, gold, predicted = self._scored()
        warnings = []
        if scored.repeated:
            warnings.append(f"{predicted.path}: {scored.repeated} repeated response mention(s) of key spans dropped")
        options = {"match": "exact", "singletons": "keep", "format": "memory"}
        return CorefResult(scored.stats, resolve(metrics, METRICS), gold.path, predicted.path, options, warnings,
                           [], tables=(gold, predicted), asked=tuple(named(metrics)))

    def __repr__(self) -> str:
        if not self._names:
            return "CorefEvaluator(0 documents)"
        return f"CorefEvaluator({len(self._names)} documents: CoNLL F1 {100 * self.get_f1():.2f})"
