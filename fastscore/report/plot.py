"""Plots (matplotlib is optional: ``pip install 'fastscore-ie[plot]'``; imported only here)."""
from __future__ import annotations

import os

from ..errors import UsageError
from .stats_tables import p_value

TESTS = {"bootstrap": "paired bootstrap test", "permutation": "approximate randomization (permutation) test"}


def delta_labels(result) -> dict:
    """The texts of :func:`plot_deltas`: ``title`` (the figure's), ``panels`` (one per system) and ``xlabel``."""
    n = len(result.systems)
    title = (f"{result.metric} F1: {TESTS.get(result.test, result.test)}"
             f"\nhistograms: bootstrap distribution of the difference ({result.resamples} resamples)\np-values: "
             + (f"from the permutation test ({result.resamples} trials), not from the histograms"
                if result.test == "permutation" else "from the same resamples"))
    panels = [f"{s.name} - {result.baseline_name}: {100 * s.delta:+.2f}, {_p_clause('p (Holm)', s.p_adjusted)}"
              for s in result.systems]
    xlabel = (f"difference in {result.metric} F1 (points); red line: observed difference; "
              f"p (Holm): Holm-Bonferroni adjusted over {n} system{'s' if n != 1 else ''}")
    return {"title": title, "panels": panels, "xlabel": xlabel}


def _p_clause(label: str, p: float | None) -> str:
    if p is None:
        return f"no {label} (too few documents)"
    text = p_value(p)
    return f"{label} {text}" if text.startswith("<") else f"{label} = {text}"


def plot_deltas(result, path) -> str:
    """Histogram of each system's bootstrap distribution of the difference to the baseline, written to
    ``path`` (PNG, PDF or SVG by its extension).  Returns the path written."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise UsageError("--plot needs matplotlib: pip install 'fastscore-ie[plot]'") from None
    # matplotlib's own defaults, not a matplotlibrc it read in the working folder (it looks there first); the
    # program's settings are back afterwards
    with matplotlib.rc_context():
        matplotlib.rcdefaults()
        return _draw(plt, result, path)


def _draw(plt, result, path) -> str:
    labels = delta_labels(result)
    n = len(result.systems)
    fig, axes = plt.subplots(n, 1, figsize=(7, 2.2 * n + 1.2), squeeze=False)
    for ax, s, text in zip(axes[:, 0], result.systems, labels["panels"]):
        ax.hist(100 * s.deltas, bins=60, color="#4477aa")
        ax.axvline(0, color="black", linewidth=1)
        ax.axvline(100 * s.delta, color="#cc3311", linewidth=1.5)
        ax.set_title(text, fontsize=9)
    fig.suptitle(labels["title"], fontsize=9)
    axes[-1, 0].set_xlabel(labels["xlabel"], fontsize=8)
    fig.tight_layout()
    path = os.fspath(path)
    from ..outputs import output_path

    try:
        with output_path(path) as tmp:
            fig.savefig(tmp, dpi=120, format=_image_format(fig, path))
    finally:
        plt.close(fig)
    return path


def _image_format(fig, path: str) -> str:
    """The image format the file name asks for (as savefig reads it; PNG when it has no known ending)."""
    ending = os.path.splitext(path)[1][1:].lower()
    return ending if ending in fig.canvas.get_supported_filetypes() else "png"
