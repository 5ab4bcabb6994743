"""The metric registry mechanism: a metric's statistics columns and score function (each task declares its
registry in its own folder: ``coref/metrics.py``, ``nugget/metrics.py`` ...).

Each metric is two steps (as in sacrebleu): additive per-document
statistics (numerators and denominators, ``DocStats`` columns), then a score
computed from summed statistics.  Score functions are vectorised: they take
scalars or arrays of sums (one per bootstrap resample) alike.
"""
from __future__ import annotations

import importlib
import math
from dataclasses import dataclass
from typing import Callable, Mapping

import numpy as np

PRF = ("recall_num", "recall_den", "precision_num", "precision_den")


def divide(num, den, empty):
    """num / den element-wise, ``empty`` where den is 0."""
    num = np.asarray(num, dtype=np.float64)
    den = np.asarray(den, dtype=np.float64)
    out = np.full(np.broadcast_shapes(num.shape, den.shape), empty, dtype=np.float64)
    return np.divide(num, den, out=out, where=den != 0)  # divides only where den != 0: no errstate needed


def f1(recall, precision):
    """F1 as v8.01 computes it: 2PR / (P + R), 0 when P + R = 0."""
    recall = np.asarray(recall, dtype=np.float64)
    precision = np.asarray(precision, dtype=np.float64)
    total = precision + recall
    out = np.zeros(total.shape, dtype=np.float64)
    return np.divide(2 * precision * recall, total, out=out, where=total != 0)


def ratio_score(p_num: str, p_den: str, r_num: str, r_den: str) -> Callable[[Mapping[str, object]], dict]:
    """Score function: precision = p_num / p_den, recall = r_num / r_den (0 where a denominator is 0), f1."""
    def score(sums: Mapping[str, object]) -> dict:
        r = divide(sums[r_num], sums[r_den], 0.0)
        p = divide(sums[p_num], sums[p_den], 0.0)
        return {"recall": r, "precision": p, "f1": f1(r, p)}
    return score


def truncated_percent_value(fraction) -> float:
    """v8.01's printed percentage as a number: truncated (not rounded) to two decimals."""
    return math.trunc(float(fraction) * 10000) / 100


def prf_score(sums: Mapping[str, object], prefix: str) -> dict:
    """recall, precision, f1 from the ``PREFIX_recall_num`` ... columns."""
    c = [f"{prefix}_{name}" for name in ("precision_num", "precision_den", "recall_num", "recall_den")]
    return ratio_score(*c)(sums)


@dataclass(frozen=True)
class MetricSpec:
    name: str
    title: str  # as v8.01 and the literature write it
    columns: tuple[str, ...]  # every statistics column the score function reads
    score: Callable[[Mapping[str, object]], dict]
    description: str
    integral: bool = True  # numerators are counts (False: sums of fractions)
    count: bool = False  # the "f1" it gives is a count (error analysis), printed as a number, not a percentage


# registries by "module:name": statistics sent to other processes carry the name, not the registry (DocStats
# pickling), so that reports recognise the registry by identity where they land and no closure is pickled
NAMED_REGISTRIES: dict[str, dict[str, MetricSpec]] = {}


def name_registries(module: str, registries: Mapping[str, dict[str, MetricSpec]]) -> None:
    """Register a module's registries under ``module:key`` (looked up by :func:`named_registry`)."""
    NAMED_REGISTRIES.update({f"{module}:{key}": r for key, r in registries.items()})


def named_registry(name: str) -> dict[str, MetricSpec]:
    """A registry by its ``module:key`` name (the module imported first: it registers its registries)."""
    if name not in NAMED_REGISTRIES:
        importlib.import_module(name.partition(":")[0])
    return NAMED_REGISTRIES[name]




def layout_of(registry: Mapping[str, MetricSpec]) -> tuple[str, ...]:
    """The statistics columns a registry reads, each once, in registry order."""
    return tuple(dict.fromkeys(c for m in registry.values() for c in m.columns))


def every_metric(*registries: Mapping[str, MetricSpec]) -> tuple[str, ...]:
    """The names ``--metric`` may take in any of the registries (``Task.metric_choices``)."""
    return tuple(m for m in dict.fromkeys(m for r in registries for m in r) if m != "mentions")


def f1_of(metric: str, sums: np.ndarray, columns: tuple[str, ...],
          registry: dict[str, MetricSpec]) -> np.ndarray:
    """F1 of ``metric`` for each row of a (n, len(columns)) matrix of summed statistics."""
    if metric not in registry or metric == "mentions":
        from .errors import UsageError

        choices = [m for m in registry if m != "mentions"]
        raise UsageError(f"unknown metric {metric!r}: choose from {', '.join(choices)}")
    sums = np.atleast_2d(sums)
    return np.asarray(registry[metric].score({c: sums[:, j] for j, c in enumerate(columns)})["f1"], dtype=np.float64)
