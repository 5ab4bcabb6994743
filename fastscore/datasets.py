"""Scoring by file: each gold/system file pair of two folders (or glob patterns) is a dataset of its own, scored on
its own, and the datasets are ranked by the macro average of a metric's F1 over them (the CRAC shared tasks'
ranking: the CoNLL F1 averaged over treebanks).

The datasets' per-document statistics are laid side by side in one :class:`~fastscore.stats.docstats.DocStats`:
a document's row holds its numbers in its own dataset's columns (``COLUMN@DATASET``) and zeros elsewhere, so that
every dataset's totals, the macro averages (``METRIC-macro``) and one dataset's scores (``METRIC@DATASET``) are
functions of column sums like any metric; its ``strata`` (each document's dataset) make resamples draw documents
within each dataset (a resample keeps every dataset's size).  ``bootstrap``, ``compare`` and ``sweep`` then work
on it unchanged.

This module names no task.
"""
from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Iterator, Mapping

import numpy as np

from .errors import InputError, UsageError
from .messages import counted, few, shown
from .metrics import MetricSpec
from .result import Result
from .stats.docstats import DocStats

MACRO = "-macro"  # METRIC-macro: the mean over datasets of METRIC's F1
OUTPUTS = ("text", "json", "csv", "markdown")


def by_file(metric: str | None) -> bool:
    """Whether a metric is one of datasets: ``METRIC-macro`` (the mean over datasets) or ``METRIC@DATASET``."""
    return bool(metric) and (metric.endswith(MACRO) or "@" in metric)


def base_metric(metric: str) -> str:
    """``conll-macro``, ``conll@en_gum``: ``conll``."""
    return metric[:-len(MACRO)] if metric.endswith(MACRO) else metric.partition("@")[0]


def dataset_name(path: str, task) -> str:
    """A file's dataset: its name without ``.gz`` and the task's extension (``en_gum-test.conllu``:
    ``en_gum-test``)."""
    name = os.path.basename(path)
    name = name[:-3] if name.endswith(".gz") else name
    ext = next((e for e in task.extensions if name.endswith(e)), "")
    return name[:len(name) - len(ext)] if ext else name


def _named_files(spec: str, task) -> dict[str, str]:
    from .planner import is_pattern, shard_files

    if not (os.path.isdir(spec) or is_pattern(spec)):
        raise UsageError(f"{spec}: scoring by file pairs the files of two folders (or quoted glob patterns): "
                         "give a folder")
    out: dict[str, str] = {}
    for path in shard_files(spec, task):
        name = dataset_name(path, task)
        if name in out:
            raise InputError(f"{shown(out[name])} and {shown(path)}: two files of dataset {name!r} (a dataset is one "
                             "file)")
        out[name] = path
    return out


def dataset_pairs(gold: str, system: str, task, same_datasets: bool = False) -> tuple[list[tuple[str, str, str]],
                                                                                       list[str]]:
    """(dataset, gold file, system file) of every gold file (in the gold's order), and the system files of no gold
    dataset.  A gold dataset without a system file is an error; so is a system file of no gold dataset when
    ``same_datasets`` (compare, sweep)."""
    key, response = _named_files(gold, task), _named_files(system, task)
    missing = [n for n in key if n not in response]
    extra = [response[n] for n in response if n not in key]
    if missing:
        raise InputError(f"{system}: no file of {len(missing)} gold dataset(s): {few(missing)} (a system file must "
                         f"have the name of its gold file, e.g. {os.path.basename(key[missing[0]])})")
    if extra and same_datasets:
        raise InputError(f"{system}: {len(extra)} file(s) of no gold dataset: {few(extra)} (systems are ranked on "
                         "the gold's datasets: leave them out)")
    return [(n, key[n], response[n]) for n in key], extra


@dataclass(repr=False)
class DatasetsResult(Result):
    """Scores of a system on several datasets (one gold/system file pair each) and their macro averages."""

    datasets: list[tuple[str, Any]]  # (name, the task's result on that pair), in the gold's order
    doc_stats: DocStats  # every dataset's documents, each in its own dataset's columns (see the module)
    metrics: list[str]  # METRIC-macro for each metric of the datasets' results, then PRIMARY@DATASET ...
    key_path: str
    response_path: str
    warnings: list[str] = field(default_factory=list)
    bootstrap: object = None
    skipped_shards: list[str] = field(default_factory=list)
    task: str = ""
    files: list[tuple[str, str]] = field(default_factory=list)  # each dataset's gold and system file

    @property
    def base_metrics(self) -> list[str]:
        """The metrics of each dataset's result (those averaged)."""
        return list(self.datasets[0][1].metrics)

    @property
    def primary(self) -> str:
        """The metric each dataset's row gives an interval of: ``conll`` (CRAC's), else the last one."""
        return primary_of(self.base_metrics)

    def signature_items(self) -> dict[str, Any]:
        return {"by-file": len(self.datasets), **self.datasets[0][1].signature_items()}

    def dataset_scores(self, name: str) -> dict[str, float]:
        """F1 of every metric on one dataset."""
        total = self.doc_stats.total()
        return {m: float(self.doc_stats.f1(f"{m}@{name}", total)[0]) for m in self.base_metrics}

    def macro(self) -> dict[str, float]:
        """The macro average of every metric's F1 over the datasets."""
        total = self.doc_stats.total()
        return {m: float(self.doc_stats.f1(m + MACRO, total)[0]) for m in self.base_metrics}

    def summary(self) -> dict:
        ci = self.intervals()
        datasets = {}
        for (name, result), (key, response) in zip(self.datasets, self.files):
            obj = {"key": key, "response": response, **result.summary()}
            for m in self.base_metrics:
                if f"{m}@{name}" in ci and isinstance(obj.get("metrics", {}).get(m), dict):
                    obj["metrics"][m]["ci"] = list(ci[f"{m}@{name}"])
            datasets[name] = obj
        macro = {m: {"f1": f, **({"ci": list(ci[m + MACRO])} if m + MACRO in ci else {})}
                 for m, f in self.macro().items()}
        return {"documents": len(self.doc_stats), "datasets": datasets, "macro": macro}

    def document_object(self, index: int) -> dict:
        for name, result in self.datasets:
            if index < len(result.doc_stats):
                return result.document_object(index)
            index -= len(result.doc_stats)
        raise IndexError(index)

    def __repr__(self) -> str:
        return (f"DatasetsResult({counted(len(self.datasets), 'dataset')}, {self.key_path!r} vs "
                f"{self.response_path!r}: conll-macro {100 * self.macro().get('conll', float('nan')):.2f})")


# ---- the statistics of several datasets side by side

def _dataset_score(spec: MetricSpec, columns: tuple[str, ...], name: str, sums: Mapping[str, object]) -> dict:
    return spec.score({c: sums[f"{c}@{name}"] for c in columns})


def _macro_score(spec: MetricSpec, columns: tuple[str, ...], names: tuple[str, ...],
                 sums: Mapping[str, object]) -> dict:
    return {"f1": sum(np.asarray(_dataset_score(spec, columns, n, sums)["f1"], dtype=np.float64) for n in names)
            / len(names)}


def datasets_registry(registry: Mapping[str, MetricSpec], names: list[str]) -> dict[str, MetricSpec]:
    """``METRIC-macro`` (the mean of METRIC's F1 over the datasets) and ``METRIC@DATASET`` (METRIC on one dataset)
    for every metric of a task's registry."""
    out: dict[str, MetricSpec] = {}
    registry = {m: spec for m, spec in registry.items() if m != "mentions"}  # no F1 of its own (identification)
    for m, spec in registry.items():
        columns = spec.columns
        out[m + MACRO] = MetricSpec(m + MACRO, f"{spec.title} (macro average over datasets)",
                                    tuple(f"{c}@{n}" for n in names for c in columns),
                                    partial(_macro_score, spec, columns, tuple(names)),
                                    f"mean over datasets of {m} F1", integral=False, count=spec.count)
    for n in names:
        for m, spec in registry.items():
            out[f"{m}@{n}"] = MetricSpec(f"{m}@{n}", f"{spec.title} ({n})", tuple(f"{c}@{n}" for c in spec.columns),
                                         partial(_dataset_score, spec, spec.columns, n),
                                         f"{m} on dataset {n}", spec.integral, spec.count)
    return out


def side_by_side(datasets: list[tuple[str, DocStats]]) -> DocStats:
    """One DocStats of several datasets' statistics (the same registry): documents named ``DATASET/DOCUMENT``,
    each dataset's columns its own, each document's stratum its dataset."""
    names = [n for n, _ in datasets]
    registry = datasets_registry(datasets[0][1].registry, names)
    own = tuple(dict.fromkeys(c for _, st in datasets for c in st.columns))  # a column a dataset lacks: zeros
    layout = tuple(f"{c}@{n}" for n in names for c in own)
    at = {c: k for k, c in enumerate(layout)}
    rows = sum(len(st) for _, st in datasets)
    matrix = np.zeros((rows, len(layout)), dtype=np.float64)
    doc_names, strata, row = [], np.empty(rows, dtype=np.int64), 0
    for i, (name, st) in enumerate(datasets):
        if list(st.registry) != list(datasets[0][1].registry):
            raise InputError(f"dataset {name}: scored with other metrics than dataset {names[0]}")
        end = row + len(st)
        matrix[row:end, [at[f"{c}@{name}"] for c in st.columns]] = st.matrix
        strata[row:end] = i
        doc_names += [f"{name}/{d}" for d in st.doc_names]
        row = end
    return DocStats(doc_names, matrix, layout, registry, strata, datasets[0][1].in_file_order)  # zeros add exactly


# ---- scoring

def primary_of(metrics: list[str]) -> str:
    return "conll" if "conll" in metrics else metrics[-1]


def score_datasets_on(ex, task, gold: str, system: str, options: dict, settings,
                      same_datasets: bool = False) -> DatasetsResult:
    """Every dataset of ``gold`` (a folder or glob pattern of files) scored against the system file of its name, on
    an open executor (in parallel: one dataset per job)."""
    from .shards import score_pairs, ticker

    pairs, extra = dataset_pairs(gold, system, task, same_datasets)
    if not pairs:
        raise UsageError(f"{gold}: no dataset to score")
    tick = ticker(settings.progress, "scoring", len(pairs))
    jobs = [(k, r, (k, r), options, settings.keep_inputs) for _, k, r in pairs]
    got = score_pairs(ex, task.name, jobs, tick)
    results = []
    for (name, k, r), g in zip(pairs, got):
        if isinstance(g, BaseException):
            raise g
        result, key_names, response_names = g
        if result is None:
            raise InputError(f"{r}: shares no document with {k} (dataset {name})")
        if same_datasets:
            from .stats.compare import check_same_documents

            check_same_documents(key_names, r, response_names)
        results.append((name, result))
    warnings = [f"{name}: {w}" if not w.startswith((k, r)) else w
                for (name, k, r), (_, result) in zip(pairs, results) for w in result.warnings]
    if extra:
        warnings.append(f"{system}: {len(extra)} file(s) of no gold dataset, not scored: {few(extra)}")
    stats = side_by_side([(n, res.doc_stats) for n, res in results])
    primary = primary_of(results[0][1].metrics)
    metrics = [m + MACRO for m in results[0][1].metrics] + [f"{primary}@{n}" for n, _ in results]
    return DatasetsResult(results, stats, metrics, gold, system, warnings, task=task.name,
                          files=[(k, r) for _, k, r in pairs])


def score_datasets(task, gold: str, system: str, options: dict, settings) -> DatasetsResult:
    """:func:`score_datasets_on` on an executor of its own."""
    from .executors import executor_for

    with executor_for(settings) as ex:
        return score_datasets_on(ex, task, gold, system, options, settings)


@contextlib.contextmanager
def datasets_scorer(task, key, options: dict, settings, metric: str) -> Iterator:
    """``compare`` and ``sweep`` by file: a function system -> its DatasetsResult (the same datasets as the key's),
    every system scored on one executor; a ``metric`` of a dataset the key lacks is refused naming them."""
    from .executors import executor_for

    def scored(ex, system):
        result = score_datasets_on(ex, task, os.fspath(key), os.fspath(system), options, settings, same_datasets=True)
        dataset = metric.partition("@")[2]
        if dataset and dataset not in dict(result.datasets):
            raise UsageError(f"--metric {metric}: no dataset {dataset!r} in {key} (its datasets: "
                             f"{', '.join(n for n, _ in result.datasets)})")
        return result

    with executor_for(settings) as ex:
        yield task, lambda system: scored(ex, system)


# ---- reports

def render(result: DatasetsResult, fmt: str, per_doc: bool = False) -> str:
    """One row per dataset (F1 of every metric, the CoNLL interval after a bootstrap), then the macro average."""
    if fmt == "json":
        import json

        return json.dumps(result.to_dict(per_doc=per_doc), indent=2) + "\n"
    if fmt not in OUTPUTS:
        raise UsageError(f"--output {fmt}: scoring by file prints {', '.join(OUTPUTS)}")
    metrics, primary = result.base_metrics, result.primary
    ci = result.intervals()
    with_ci = bool(ci)
    head = ["dataset", "documents", *metrics] + ([f"{result.bootstrap.level * 100:g}% CI of {primary}"]
                                                 if with_ci else [])
    # (dataset, documents, F1 of each metric, the metric of its interval), then the macro average's
    numbers = [(name, len(res.doc_stats), result.dataset_scores(name), f"{primary}@{name}")
               for name, res in result.datasets] + [("macro", len(result.doc_stats), result.macro(), primary + MACRO)]
    if fmt == "csv":
        import csv
        import io

        buf = io.StringIO()
        csv.writer(buf, lineterminator="\n").writerows([["dataset", "documents", *metrics], *(
            [name, n, *(repr(scores[m]) for m in metrics)] for name, n, scores, _ in numbers)])
        return buf.getvalue()
    rows = [[name, str(n), *(f"{100 * scores[m]:.2f}" for m in metrics)] + ([_interval(ci.get(c))] if with_ci else [])
            for name, n, scores, c in numbers]
    rows[-1][0] = "macro average"
    note = [f"{counted(len(result.datasets), 'dataset')} (one file pair each), F1 in %; macro average: the mean "
            "of each dataset's F1"]
    if with_ci:
        b = result.bootstrap
        note.append(f"intervals: {b.method} bootstrap, {b.resamples} resamples of documents within each dataset, "
                    f"seed {b.seed}")
    if fmt == "markdown":
        lines = ["| " + " | ".join(head) + " |", "|---|" + "---:|" * (len(head) - 1)]
        lines += ["| " + " | ".join(c.replace("|", "\\|") for c in r) + " |" for r in rows]
        return "\n".join(lines + ["", "  \n".join(note), "", f"`{result.signature()}`"]) + "\n"
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(head)]
    align = lambda c, w, i: c.ljust(w) if i == 0 else c.rjust(w)  # noqa: E731
    lines = [f"key:      {result.key_path}", f"response: {result.response_path}", "",
             "  ".join(align(h, w, i) for i, (h, w) in enumerate(zip(head, widths)))]
    lines += ["  ".join(align(c, w, i) for i, (c, w) in enumerate(zip(r, widths))) for r in rows]
    return "\n".join(lines + ["", *note, f"signature: {result.signature()}"]) + "\n"


def _interval(ci) -> str:
    return "" if ci is None else f"[{100 * ci[0]:.2f}, {100 * ci[1]:.2f}]"
