"""Scores from memory: a drop-in ``CorefEvaluator`` for coreference training loops.

The interface is e2e-coref's (``metrics.py``, copied by many neural coreference repositories): documents are
added one by one with ``update(predicted, gold, mention_to_predicted, mention_to_gold)``, clusters being
sequences of ``(start, end)`` mentions with inclusive token offsets, and ``get_f1()`` gives the mean F1 of
MUC, B-cubed and CEAFe.  The numbers are the reference scorer v8.01's on the same clusters (singletons kept),
LEA coval's: ``update`` keeps the clusters it is given; when a score is asked for, the documents kept since the
last one are read into the columns of two mention tables at once (gold as key, predicted as response; C-level
passes over the tuples, no Python loop per mention) and scored by the engine that scores files
(``coref/engine.py``), one call of each kernel for every document.  The kernels are the ones compiled at installation
(``fastscore.first_run``): the first score costs what later ones do.
"""
from __future__ import annotations

from functools import reduce
from itertools import chain
from operator import iconcat
from struct import error as struct_error, pack_into as _pack_into
from typing import Sequence

import numpy as np

from ..errors import UsageError, suggest_keywords
from ..formats.table import offsets
from ..messages import counted

METRIC_NAMES = ("muc", "bcub", "ceafe", "ceafm", "lea", "blanc", "mentions")
_chain = chain.from_iterable


class _Side:
    """One side's documents.  ``update`` only keeps the caller's clusters (O(1) per document); the first score
    reads every document kept since the last one into flat columns at once, with C-level passes over the
    Python objects (``reduce(iconcat)`` flattens a list of sequences without an iterator per sequence)."""

    def __init__(self, what: str) -> None:
        self.what = what  # "gold" or "predicted", in messages
        self.pending: list = []  # documents not read yet: cluster sequences, or _ArrayDoc
        self.first = 0  # the number of the first pending document
        self.parts: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []  # read: (coords, cluster sizes, doc clusters)

    def add(self, clusters, n: int) -> None:
        """Keep document ``n``'s clusters (read when a score is asked for)."""
        kind = type(clusters)
        if kind is list or (kind is tuple and not (len(clusters) == 2 and isinstance(clusters[0], np.ndarray))):
            self.pending.append(clusters)
        elif kind is tuple:
            self.pending.append(_ArrayDoc(*_checked_arrays(clusters, f"{self.what} (document {n})")))
        elif isinstance(clusters, (str, bytes)) or not hasattr(clusters, "__iter__"):
            raise UsageError(f"{self.what} (document {n}): clusters must be a sequence of clusters of (start, end) "
                             "mentions, or a pair (spans array of shape (n, 2), cluster ids), not "
                             f"{type(clusters).__name__}")
        else:
            self.pending.append(list(clusters))

    def read(self) -> None:
        """Read the pending documents into ``parts`` (runs of cluster sequences at once); a malformed
        document raises and leaves everything as it was."""
        parts, run = [], []
        first = self.first
        for k, doc in enumerate(self.pending):
            if type(doc) is _ArrayDoc:
                if run:
                    parts.append(_flat_clusters(run, self.what, first))
                    run = []
                parts.append((doc.coords, doc.sizes, np.array([len(doc.sizes)], dtype=np.int64)))
                first = self.first + k + 1
            else:
                run.append(doc)
        if run:
            parts.append(_flat_clusters(run, self.what, first))
        _check_spans(parts, self.what, self.pending, self.first)
        self.parts += parts
        self.first += len(self.pending)
        self.pending = []

    def arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(start, end exclusive, cluster index in its document) per mention, mentions and clusters per document."""
        self.read()
        if len(self.parts) > 1:
            self.parts = [tuple(np.concatenate(columns) for columns in zip(*self.parts))]
        coords, sizes, doc_clusters = self.parts[0]
        first_cluster = offsets(doc_clusters)
        cluster = np.repeat(np.arange(len(sizes), dtype=np.int64) - np.repeat(first_cluster[:-1], doc_clusters), sizes)
        doc_mentions = np.diff(offsets(sizes)[first_cluster])
        coords = coords.reshape(-1, 2)
        return coords[:, 0], coords[:, 1] + 1, cluster, doc_mentions, doc_clusters


_MENTION_TYPES = {tuple, list, np.ndarray}
MAX_OFFSET = 2**31 - 2  # the engine's token offsets are int32, the end exclusive


def _check_spans(parts: list, what: str, docs: list, first: int) -> None:
    """Raise, naming the document, when a mention read is not a span of token offsets (before anything is
    kept: the caller can mend the document and score again)."""
    for coords, _, _ in parts:
        pairs = coords.reshape(-1, 2)
        if len(pairs) and ((pairs[:, 0] < 0).any() or (pairs[:, 1] < pairs[:, 0]).any()
                           or (pairs[:, 1] > MAX_OFFSET).any()):
            break
    else:
        return
    for k, doc in enumerate(docs):  # the slow path, once: which document
        pairs = doc.coords.reshape(-1, 2) if type(doc) is _ArrayDoc else np.array(
            [m for cluster in doc for m in cluster], dtype=np.int64).reshape(-1, 2)
        for start, end in pairs.tolist():
            if not 0 <= start <= end <= MAX_OFFSET:
                raise UsageError(f"{what}: document {first + k}: mention ({start}, {end}) is not a span of token "
                                 f"offsets (0 <= start <= end <= {MAX_OFFSET}, end inclusive)")


class _ArrayDoc:
    """A document given as arrays, read when added: mention coordinates (start, end, start, ...) grouped by
    cluster, and the clusters' sizes."""

    __slots__ = ("coords", "sizes")

    def __init__(self, spans: np.ndarray, ids: np.ndarray) -> None:
        order, sizes = _clusters_of_ids(ids)
        self.coords = spans[order].ravel()
        self.sizes = sizes.astype(np.int64)


def _flat_clusters(docs: list, what: str, first: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(mention coordinates, cluster sizes, clusters per document) of documents given as cluster sequences
    (``first``: the number of the first, in messages).  C-level passes: a training loop pays these per epoch."""
    try:
        clusters = reduce(iconcat, docs, [])
        sizes = np.fromiter(map(len, clusters), np.int64, len(clusters))  # before a generator is consumed
        mentions = reduce(iconcat, clusters, [])
        # (0,) beside (1, 2, 3) would add up to two pairs; a dict's keys would pass for offsets
        pairs_only = set(map(len, mentions)) <= {2} and set(map(type, mentions)) <= _MENTION_TYPES
        flat = reduce(iconcat, mentions, [])
        coords = np.empty(len(flat), dtype=np.int64)
        _pack_into(f"{len(flat)}q", coords, 0, *flat)  # refuses what is not an integer (1.9 is no offset)
    except (TypeError, ValueError, OverflowError, struct_error):
        coords = None
    if coords is None or not pairs_only or len(flat) != 2 * len(mentions):
        _diagnose(docs, what, first)  # raises, naming the document
    return coords, sizes, np.fromiter(map(len, docs), np.int64, len(docs))


def _diagnose(docs: list, what: str, first: int) -> None:
    """Raise the error of the first document that is not clusters of (start, end) integer pairs."""
    for k, clusters in enumerate(docs):
        where = f"{what} (document {first + k})"
        try:
            sizes = list(map(len, clusters))
            coords = list(_chain(_chain(clusters)))
        except TypeError:
            raise UsageError(f"{where}: every cluster must be a sequence of (start, end) mentions") from None
        if len(coords) != 2 * sum(sizes) or any(len(m) != 2 or type(m) not in _MENTION_TYPES
                                                  for m in _chain(clusters)):
            raise UsageError(f"{where}: every mention must be a (start, end) pair of token offsets")
        try:
            raw = np.array(coords)
        except (TypeError, ValueError, OverflowError):
            raw = None
        if raw is None or (raw.size and (raw.dtype.kind not in "iu" or raw.ndim != 1)):
            raise UsageError(f"{where}: mention offsets must be integers")  # 1.9 is no offset: never truncated
    raise UsageError(f"{what}: mention offsets must be integers of at most 64 bits")


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


class _Getters:
    """e2e-coref's getters, each a fraction, from ``_score(which)`` (``precision``, ``recall`` or ``f1``)."""

    def get_f1(self) -> float:
        return self._score("f1")

    def get_recall(self) -> float:
        return self._score("recall")

    def get_precision(self) -> float:
        return self._score("precision")

    def get_prf(self) -> tuple[float, float, float]:
        return self.get_precision(), self.get_recall(), self.get_f1()


class MetricScore(_Getters):
    """One metric of a :class:`CorefEvaluator` (``evaluator.metrics["muc"]``), with e2e-coref's ``Evaluator``
    methods: ``get_prf()`` -> (precision, recall, f1), ``get_f1()``, ``get_recall()``, ``get_precision()``,
    ``get_counts()`` -> (precision numerator, its denominator, recall numerator, its denominator)."""

    def __init__(self, evaluator: "CorefEvaluator", name: str) -> None:
        self._evaluator = evaluator
        self.name = name

    def _score(self, which: str) -> float:
        stats, sums = self._evaluator._doc_stats(), self._evaluator._sums()
        return float(stats.registry[self.name].score(sums)[which])

    def get_counts(self) -> tuple[float, float, float, float]:
        if self.name == "blanc":
            raise UsageError("BLANC is the mean of two link scores: its counts are those of blanc_coref_* and "
                             "blanc_noncoref_* in result().doc_stats")
        sums = self._evaluator._sums()
        return tuple(float(sums[f"{self.name}_{c}"]) for c in
                     ("precision_num", "precision_den", "recall_num", "recall_den"))

    def __repr__(self) -> str:
        p, r, f = self.get_prf()
        return f"MetricScore({self.name}: P {100 * p:.2f}, R {100 * r:.2f}, F1 {100 * f:.2f})"


class CorefEvaluator(_Getters):
    """e2e-coref's ``CorefEvaluator`` with the reference scorer's numbers.

    ``update(predicted, gold[, mention_to_predicted, mention_to_gold])`` adds one document: ``predicted`` and
    ``gold`` are sequences of clusters, each a sequence of ``(start, end)`` mentions (inclusive token offsets),
    or pairs ``(spans, cluster_ids)`` of numpy arrays (shape (n, 2) and (n,)).  The two dicts e2e-coref passes
    are accepted and not needed (they follow from the clusters).  ``get_f1()``, ``get_prf()``,
    ``get_precision()`` and ``get_recall()`` average MUC, B-cubed and CEAFe as e2e-coref does;
    ``metrics[name]`` scores one of ``muc, bcub, ceafe, ceafm, lea, blanc, mentions``; ``result()`` is the
    :class:`fastscore.coref.result.CorefResult` of every document added (for ``bootstrap``, ``to_pandas``, ...).
    """

    @suggest_keywords
    def __init__(self) -> None:
        self.metrics = {name: MetricScore(self, name) for name in METRIC_NAMES}
        self.reset()

    def reset(self) -> None:
        """Forget every document added."""
        self._predicted, self._gold = _Side("predicted"), _Side("gold")
        self._names: list[str | None] = []
        self._cached = None

    @suggest_keywords
    def update(self, predicted, gold, mention_to_predicted: dict | None = None, mention_to_gold: dict | None = None,
               *, doc: str | None = None) -> None:
        """Add one document (``doc``: its name in results; default its number, from 0).  The clusters are kept
        as given and read when a score is next asked for: change them in place only after that."""
        if type(predicted) is list and type(gold) is list and (mention_to_predicted is None or type(
                mention_to_predicted) is dict) and (mention_to_gold is None or type(mention_to_gold) is dict):
            self._predicted.pending.append(predicted)  # what a training loop passes: kept as it is
            self._gold.pending.append(gold)
            self._names.append(doc)
            self._cached = None
            return
        if not isinstance(mention_to_predicted, (dict, type(None))) or not isinstance(mention_to_gold,
                                                                                      (dict, type(None))):
            raise UsageError("mention_to_predicted and mention_to_gold are dicts (mention -> cluster), or None")
        n = len(self._names)
        self._predicted.add(predicted, n)
        try:
            self._gold.add(gold, n)
        except BaseException:
            self._predicted.pending.pop()  # a document refused on one side is added to neither
            raise
        self._names.append(doc)
        self._cached = None

    def __len__(self) -> int:
        return len(self._names)

    def _doc_names(self) -> list[str]:
        if all(name is None for name in self._names):
            return list(map(str, range(len(self._names))))
        names = [str(i) if name is None else str(name) for i, name in enumerate(self._names)]
        if len(set(names)) != len(names):
            raise UsageError("CorefEvaluator: two documents have the same name (update(..., doc=NAME))")
        return names

    def _aligned(self):
        """The documents as the engine's :class:`~fastscore.coref.engine.Aligned` (gold as key): both sides
        hold the same documents in the same order, so no alignment by name is needed."""
        from .engine import Aligned

        (ks, ke, kc, kn, k_chains), (rs, re, rc, rn, r_chains) = (self._gold.arrays(), self._predicted.arrays())
        k_off, r_off = offsets(kn), offsets(rn)
        return Aligned(self._doc_names(), k_off, ks.astype(np.int32), ke.astype(np.int32), kc, k_chains,
                       r_off, rs.astype(np.int32), re.astype(np.int32), rc, r_chains,
                       np.ones(len(self._names), dtype=bool), np.arange(k_off[-1]), np.arange(r_off[-1]))

    def _scored(self):
        """(Scored, Aligned, summed statistics) of the documents added, cached until the next update."""
        if self._cached is None:
            from .engine import score_aligned

            if not self._names:
                raise UsageError("CorefEvaluator: no document added yet (update)")
            aligned = self._aligned()
            scored = score_aligned(aligned, allow_repeated=True, response_path="<predicted>")
            self._cached = (scored, aligned, scored.stats.sums())
        return self._cached

    def _doc_stats(self):
        return self._scored()[0].stats

    def _sums(self):
        return self._scored()[2]

    def _tables(self, aligned):
        """(gold, predicted) mention tables of the documents (for v8.01's report of spans)."""
        from ..formats.table import MentionTable, _numbers

        n = len(aligned.doc_names)
        tokens = np.zeros(n, dtype=np.int64)  # as many tokens as the last mention needs, the same on both sides
        for off, end in ((aligned.k_off, aligned.k_end), (aligned.r_off, aligned.r_end)):
            np.maximum.at(tokens, np.repeat(np.arange(n), np.diff(off)), end)
        return tuple(MentionTable(path=path, doc_names=list(aligned.doc_names), doc_lines=np.zeros(n, np.int64),
                                  doc_tokens=tokens, doc_offsets=off, start=start, end=end, cluster=chain_,
                                  cluster_labels=[_numbers(int(c)) for c in nchains])
                     for path, off, start, end, chain_, nchains in (
                         ("<gold>", aligned.k_off, aligned.k_start, aligned.k_end, aligned.k_chain, aligned.k_nchains),
                         ("<predicted>", aligned.r_off, aligned.r_start, aligned.r_end, aligned.r_chain,
                          aligned.r_nchains)))

    def _score(self, which: str) -> float:
        """The CoNLL-2012 mean of MUC, B-cubed and CEAFe (``get_f1()``: the CoNLL-2012 score as a fraction)."""
        from .metrics import conll_average

        return float(conll_average(self._sums(), which))

    def result(self, metrics: Sequence[str] | str | None = None):
        """The :class:`~fastscore.coref.result.CorefResult` of the documents added (gold as key)."""
        from .result import CorefResult
        from .metrics import METRICS

        scored, aligned, _ = self._scored()
        gold, predicted = self._tables(aligned)
        warnings = []
        if scored.repeated:
            warnings.append(f"{predicted.path}: {scored.repeated} repeated response mention(s) of key spans dropped")
        options = {"match": "exact", "singletons": "keep", "format": "memory"}
        return CorefResult.scored(scored.stats, metrics, METRICS, gold.path, predicted.path, options, warnings,
                                  tables=(gold, predicted))

    def __repr__(self) -> str:
        if not self._names:
            return "CorefEvaluator(0 documents)"
        return f"CorefEvaluator({counted(len(self._names), 'document')}: CoNLL F1 {100 * self.get_f1():.2f})"
