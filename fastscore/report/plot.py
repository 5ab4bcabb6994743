"""Plots (matplotlib is optional: ``pip install 'fastscore[plot]'``; imported only here)."""
from __future__ import annotations

from ..errors import UsageError


def plot_deltas(result, path: str) -> None:
    """Histogram of each system's bootstrap distribution of the difference to the baseline."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise UsageError("--plot needs matplotlib: pip install 'fastscore[plot]'") from None
    n = len(result.systems)
    fig, axes = plt.subplots(n, 1, figsize=(7, 2.2 * n + 0.6), squeeze=False)
    for ax, s in zip(axes[:, 0], result.systems):
        ax.hist(100 * s.deltas, bins=60, color="#4477aa")
        ax.axvline(0, color="black", linewidth=1)
        ax.axvline(100 * s.delta, color="#cc3311", linewidth=1.5)
        ax.set_title(f"{s.name} - {result.baseline_name}: {100 * s.delta:+.2f} (p = {s.p_adjusted:.3g})",
                     fontsize=9)
    axes[-1, 0].set_xlabel(f"difference in {result.metric} F1 (points), {result.resamples} bootstrap resamples")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
