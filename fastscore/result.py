"""What every task's result shares: its statistics, intervals, signature, JSON skeleton and tables.

A task's result class is a dataclass that inherits :class:`Result` and has the fields ``doc_stats`` (a
:class:`~fastscore.stats.docstats.DocStats`), ``warnings``, ``bootstrap`` (set by :func:`fastscore.bootstrap`)
and ``skipped_shards``; it declares ``task``, its signature items, the JSON object of its corpus numbers and
of one document, and ``merge`` when its task reads corpora of shards (``Corpus.merge`` calls it).  Everything else (``signature()``, ``to_dict()``, ``document()``, ``to_arrow()``,
``score_table()``, ``to_pandas()``, the option check of ``merge``) is written here, once.

This module names no task.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Sequence

from ._version import __version__
from .errors import UsageError
from .frames import score_table, to_pandas

if TYPE_CHECKING:
    from .stats.docstats import DocStats


class Result:
    task: ClassVar[str]
    per_doc_always: ClassVar[bool] = False  # the JSON object holds ``per_doc`` whether asked or not
    # the fields every result has (each task's dataclass declares them, where its constructor wants them)
    doc_stats: DocStats
    metrics: list[str]  # the registry names it reports
    warnings: list[str]
    bootstrap: Any  # fastscore.stats.bootstrap.Bootstrap, set by fastscore.bootstrap()
    skipped_shards: Sequence[str]  # shards left out (score_corpus, skip_bad_shards)

    # ---- what a task declares

    def signature_items(self) -> dict[str, Any]:
        """The options that decide the numbers, in signature order (``name: value``)."""
        raise NotImplementedError

    def summary(self) -> dict:
        """The JSON object's corpus part (after ``task``, before ``skipped_shards`` and ``per_doc``)."""
        raise NotImplementedError

    def document_object(self, index: int) -> dict:
        """The JSON object of document ``index`` (in ``per_doc``)."""
        raise NotImplementedError

    def trailer(self) -> dict:
        """What the JSON object holds after ``per_doc`` and before ``signature`` (nothing by default)."""
        return {}

    def without_inputs(self) -> "Result":
        """This result without the read inputs it keeps for a report that shows them (``Task.inputs_shown``):
        what a worker sends back when no such report is asked (they are most of its bytes).  Default: itself."""
        return self

    @classmethod
    def merge(cls, results: Sequence["Result"], gold: str, system: str) -> "Result":
        """The results of a corpus's shard pairs (in order) as one result named by the two corpora
        (``Corpus.merge``'s default); :func:`check_same_options` and ``DocStats.concat`` do the common part."""
        raise NotImplementedError(f"{cls.__name__} is scored one pair of inputs at a time")

    @property
    def table_metrics(self) -> list[str]:
        """The rows of ``score_table()``, in order: the metrics (a task adds what its text report shows)."""
        return list(self.metrics)

    # ---- written once

    @property
    def documents(self) -> list[str]:
        return list(self.doc_stats.doc_names)

    def intervals(self) -> dict:
        """Bootstrap intervals by metric name (none before :func:`fastscore.bootstrap`)."""
        return self.bootstrap.intervals if self.bootstrap is not None else {}

    def signature(self) -> str:
        """``TASK|name:value|...|bootstrap...|version:X``: the options and version that made the numbers."""
        parts = [self.task, *(f"{k}:{signed(v)}" for k, v in self.signature_items().items())]
        if self.bootstrap is not None:
            parts.append(self.bootstrap.signature())
        return "|".join(parts + [f"version:{__version__}"])

    def document(self, name: str) -> dict:
        """The JSON object of one document, by name."""
        try:
            i = list(self.doc_stats.doc_names).index(name)
        except ValueError:
            raise KeyError(f"no document {name!r} in this result") from None
        return self.document_object(i)

    def to_dict(self, per_doc: bool = False) -> dict:
        """The JSON object of ``--output json``."""
        out = {"task": self.task, **self.summary()}
        if self.skipped_shards:
            out["skipped_shards"] = list(self.skipped_shards)
        if per_doc or self.per_doc_always:
            out["per_doc"] = {name: self.document_object(i) for i, name in enumerate(self.documents)}
        out.update(self.trailer())
        out["signature"] = self.signature()
        return out

    def to_arrow(self):
        """Per-document statistics (numerators and denominators) as a ``pyarrow.Table``."""
        return self.doc_stats.to_arrow()

    def score_table(self, per_doc: bool = False):
        """Scores as a tidy ``pyarrow.Table`` (see :func:`fastscore.frames.score_table`)."""
        return score_table(self, per_doc)

    def to_pandas(self, per_doc: bool = False):
        """Scores as a tidy ``pandas.DataFrame``: one row per metric (and per document with ``per_doc``), with
        recall, precision, f1 and, after a bootstrap, ``ci_low`` and ``ci_high`` (needs pandas; the per-document
        numerators and denominators: ``doc_stats.to_pandas()``)."""
        return to_pandas(score_table(self, per_doc))


def signed(value: Any) -> str:
    """A value as a signature shows it: a flag lower case (``np-only:true``), as every other value, not Python's
    ``True``."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def check_same_options(results: Sequence, options_of, path_of, error=UsageError) -> None:
    """``merge``'s check: every shard's result was scored with the first one's options."""
    first = results[0]
    for r in results[1:]:
        if options_of(r) != options_of(first):
            raise error(f"{path_of(r)}: scored with other options than {path_of(first)}")
