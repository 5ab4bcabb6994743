"""Significance tests between systems scored on the same documents.

Paired bootstrap (Koehn 2004), with the p-value of Berg-Kirkpatrick et al.
(2012) made two-sided and never zero: with delta the observed difference
(system - baseline) and delta_b its value on resample b,
``p = (#{b : |delta_b - delta| >= |delta|} + 1) / (B + 1)``
(resampled differences recentred on the null hypothesis).

Approximate randomization (Noreen 1989; per-document swaps):
``p = (#{t : |delta_t| >= |delta|} + 1) / (T + 1)``.

Holm-Bonferroni adjusts the p-values of several systems against one baseline.
Comparisons allow 1e-12 of rounding (two identical systems give p = 1).
"""
from __future__ import annotations

import numpy as np

TOLERANCE = 1e-12
TESTS = ("bootstrap", "permutation")
# fewer documents and no test can say anything (one document: every resample is that document, every swap of
# it gives the same difference or its opposite): no p-value, no mark
MIN_TESTED = 2


def paired_bootstrap_p(deltas: np.ndarray, delta: float) -> float:
    c = int(np.sum(np.abs(deltas - delta) >= abs(delta) - TOLERANCE))
    return (c + 1) / (len(deltas) + 1)


def permutation_p(deltas: np.ndarray, delta: float) -> float:
    c = int(np.sum(np.abs(deltas) >= abs(delta) - TOLERANCE))
    return (c + 1) / (len(deltas) + 1)


def holm(p_values) -> list[float]:
    """Holm-Bonferroni adjusted p-values, in the order given."""
    p = np.asarray(p_values, dtype=np.float64)
    m = len(p)
    order = np.argsort(p, kind="mergesort")
    adjusted = np.empty(m)
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p[i]))
        adjusted[i] = running
    return adjusted.tolist()


def mark(p: float | None) -> str:
    """Significance mark: ** p < 0.01, * p < 0.05 (none without a p-value)."""
    if p is None:
        return ""
    return "**" if p < 0.01 else "*" if p < 0.05 else ""
