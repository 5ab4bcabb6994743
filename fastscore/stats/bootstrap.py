"""Bootstrap confidence intervals of every metric of a scoring result."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .docstats import DocStats
from .intervals import bca_interval, check_level, check_method, percentile_interval
from .resample import bootstrap_sums, check_count

DEFAULT_SEED = 12345


@dataclass
class Bootstrap:
    """F1 intervals per metric, with how they were obtained."""

    resamples: int
    level: float
    seed: int | None
    method: str
    intervals: dict[str, tuple[float, float]] = field(default_factory=dict)
    samples: dict[str, np.ndarray] = field(default_factory=dict)  # F1 of each resample

    def signature(self) -> str:
        return f"bootstrap:{self.resamples}|ci:{self.level}|ci-method:{self.method}|seed:{self.seed}"


def interval(samples: np.ndarray, estimate: float, jackknife: np.ndarray | None, level: float, method: str):
    if method == "bca":
        return bca_interval(samples, estimate, jackknife, level)
    return percentile_interval(samples, level)


def jackknife_f1(stats: DocStats, metric: str) -> np.ndarray:
    """F1 with each document left out in turn."""
    total = stats.total()
    return stats.f1(metric, total[None, :] - stats.matrix)


def bootstrap_stats(stats: DocStats, metrics: list[str], resamples: int = 1000, level: float = 0.95,
                    seed: int | None = DEFAULT_SEED, method: str = "percentile") -> Bootstrap:
    """Resample documents ``resamples`` times and give each metric's F1 interval."""
    check_method(method)
    check_level(level)
    resamples = check_count(resamples)
    (sums,) = bootstrap_sums([stats.matrix], resamples, seed)
    out = Bootstrap(resamples, level, seed, method)
    total = stats.total()
    for m in metrics:
        samples = stats.f1(m, sums)
        estimate = float(stats.f1(m, total)[0])
        jack = jackknife_f1(stats, m) if method == "bca" else None
        out.intervals[m] = interval(samples, estimate, jack, level, method)
        out.samples[m] = samples
    return out
