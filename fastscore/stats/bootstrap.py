"""Bootstrap confidence intervals of every metric of a scoring result."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .docstats import DocStats
from .intervals import bca_interval, check_level, check_method, percentile_interval
from .resample import bootstrap_values, check_budget, check_count

DEFAULT_SEED = 12345
MIN_RESAMPLES = 100  # fewer gets a warning: interval ends rest on a handful of resamples


@dataclass
class Bootstrap:
    """F1 intervals per metric, with how they were obtained."""

    resamples: int
    level: float
    seed: int | None
    method: str
    intervals: dict[str, tuple[float, float]] = field(default_factory=dict)
    samples: dict[str, np.ndarray] = field(default_factory=dict)  # F1 of each resample
    warnings: list[str] = field(default_factory=list)  # intervals that mean little (resampling_warnings)

    def signature(self) -> str:
        return f"bootstrap:{self.resamples}|ci:{self.level}|ci-method:{self.method}|seed:{self.seed}"


def resampling_warnings(n_docs: int, resamples: int, p_values: bool = False) -> list[str]:
    """Why intervals (and p-values) over ``n_docs`` documents and ``resamples`` resamples mean little, if they do.

    One document: every resample is that document, so intervals have zero width.  Fewer than
    ``MIN_RESAMPLES`` resamples: interval ends rest on a handful of resamples, and no p-value can
    fall below 1 / (resamples + 1)."""
    out = []
    if n_docs == 1:
        out.append("resampling 1 document: every resample is that document, so intervals have zero width and "
                   "say nothing about uncertainty" + (", and no test can say anything (no p-values are given)"
                                                      if p_values else "")
                   + "; resampling needs a corpus of many documents")
    if resamples < MIN_RESAMPLES:
        out.append(f"only {resamples} resample{'s' if resamples != 1 else ''} (fewer than {MIN_RESAMPLES}): "
                   "interval ends rest on a handful of resamples"
                   + (f" and no p-value can fall below 1/{resamples + 1} = {1 / (resamples + 1):.4f}"
                      if p_values else "") + "; use 1000 or more")
    return out


def interval(samples: np.ndarray, estimate: float, jackknife: np.ndarray | None, level: float, method: str):
    if method == "bca":
        return bca_interval(samples, estimate, jackknife, level)
    return percentile_interval(samples, level)


def jackknife_f1(stats: DocStats, metric: str) -> np.ndarray:
    """F1 with each document left out in turn."""
    total = stats.total()
    return stats.f1(metric, total[None, :] - stats.matrix)


def f1_values(stats: DocStats, metric: str):
    """The function summed statistics -> F1 of ``metric`` (one value per row)."""
    return lambda sums: stats.f1(metric, sums)


def bootstrap_stats(stats: DocStats, metrics: list[str], resamples: int = 1000, level: float = 0.95,
                    seed: int | None = DEFAULT_SEED, method: str = "percentile") -> Bootstrap:
    """Resample documents ``resamples`` times and give each metric's F1 interval.

    Keeps ``resamples`` F1 values per metric (refused beyond ``resample.SAMPLE_BUDGET`` bytes)."""
    check_method(method)
    check_level(level)
    resamples = check_count(resamples)
    check_budget(resamples, len(metrics), f"{len(metrics)} metric{'s' if len(metrics) != 1 else ''}")
    stats = stats.of_metrics(metrics)  # the columns the metrics read: no other is summed
    (values,) = bootstrap_values([stats.matrix], [[f1_values(stats, m) for m in metrics]], resamples, seed,
                                 stats.strata)
    out = Bootstrap(resamples, level, seed, method, warnings=resampling_warnings(len(stats), resamples))
    total = stats.total()
    for m, samples in zip(metrics, values):
        estimate = float(stats.f1(m, total)[0])
        jack = jackknife_f1(stats, m) if method == "bca" else None
        out.intervals[m] = interval(samples, estimate, jack, level, method)
        out.samples[m] = samples
    return out
