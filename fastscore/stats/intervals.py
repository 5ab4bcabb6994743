"""Bootstrap confidence intervals: percentile and BCa (Efron 1987)."""
from __future__ import annotations

import numpy as np

from ..errors import UsageError

METHODS = ("percentile", "bca")


def check_level(level: float) -> float:
    if not 0 < level < 1:
        raise UsageError(f"the confidence level must be between 0 and 1 (e.g. 0.95), not {level!r}")
    return float(level)


def check_method(method: str) -> str:
    if method not in METHODS:
        raise UsageError(f"unknown interval method {method!r}: choose from {', '.join(METHODS)}")
    return method


def percentile_interval(samples: np.ndarray, level: float) -> tuple[float, float]:
    """The (1-level)/2 and (1+level)/2 quantiles of the bootstrap distribution (linear interpolation)."""
    alpha = (1 - check_level(level)) / 2
    lo, hi = np.quantile(samples, [alpha, 1 - alpha])
    return float(lo), float(hi)


def bca_interval(samples: np.ndarray, estimate: float, jackknife: np.ndarray, level: float) -> tuple[float, float]:
    """Bias-corrected and accelerated interval.

    z0 = Phi^-1(share of resamples below the estimate, ties counted half);
    a = sum(d^3) / (6 sum(d^2)^1.5) with d the jackknife (leave one document
    out) deviations from their mean; the interval is the percentile interval
    at Phi(z0 + (z0 + z) / (1 - a (z0 + z))) for z = Phi^-1 of the nominal ends.
    """
    from scipy.stats import norm

    alpha = (1 - check_level(level)) / 2
    b = len(samples)
    share = (np.sum(samples < estimate) + 0.5 * np.sum(samples == estimate)) / b
    z0 = norm.ppf(np.clip(share, 1 / (b + 1), b / (b + 1)))
    d = jackknife.mean() - jackknife
    denom = 6 * np.sum(d * d) ** 1.5
    a = np.sum(d ** 3) / denom if denom > 0 else 0.0
    z = norm.ppf([alpha, 1 - alpha])
    ends = norm.cdf(z0 + (z0 + z) / (1 - a * (z0 + z)))
    lo, hi = np.quantile(samples, ends)
    return float(lo), float(hi)
