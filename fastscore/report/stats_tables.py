"""Reports of comparisons and sweeps: text, JSON, CSV, Markdown, LaTeX.

Every p-value is printed the same way (:func:`p_value`): four decimals, truncated (not rounded), so
that a printed value is never on the other side of 0.05 or 0.01 than its significance mark says;
``< 0.0001`` below that.  JSON keeps the exact values.
"""
from __future__ import annotations

import csv as _csv
import io
import json
from decimal import ROUND_FLOOR, Decimal

from ..messages import counted
from ..stats.significance import mark
from .cells import interval, pct

P_DECIMALS = 4
P_FLOOR = Decimal(1).scaleb(-P_DECIMALS)  # 0.0001
METHOD_NAMES = {"percentile": "percentile", "bca": "BCa"}


def p_value(p: float | None) -> str:
    """A p-value as every statistics table prints it: ``0.0423``, ``1.0000``, ``< 0.0001``; nothing where no test
    was made (too few documents)."""
    if p is None:
        return ""
    if p < P_FLOOR:
        return f"< {P_FLOOR}"
    return str(Decimal(repr(float(p))).quantize(P_FLOOR, rounding=ROUND_FLOOR))


def level_percent(level: float) -> str:
    """0.95 -> ``95%``, 0.975 -> ``97.5%``."""
    return f"{100 * level:g}%"


def _number(x: float) -> str:  # an error count (explain) or an interval end of one
    return f"{x:.2f}".rstrip("0").rstrip(".")


def _scale(result) -> tuple:
    """(what the score is, how a value prints, how a difference prints): F1 in percent, or a count."""
    if getattr(result, "count", False):
        return "count", _number, lambda d: ("+" if d >= 0 else "") + _number(d)
    return "F1", pct, lambda d: f"{100 * d:+.2f}"


def _latex_escape(s: str) -> str:
    special = {"\\": "\\textbackslash{}", "<": "\\textless{}", ">": "\\textgreater{}", "~": "\\textasciitilde{}",
               "^": "\\textasciicircum{}"}
    return "".join("\\" + c if c in "&%$#_{}" else special.get(c, c) for c in s)


def intervals_note(method: str, level: float, resamples: int, seed, metric: str = "") -> str:
    return (f"intervals: {level_percent(level)} {METHOD_NAMES.get(method, method)} bootstrap, "
            f"{counted(resamples, 'resample')} of documents{_within(metric)}, seed {seed}")


def _within(metric: str) -> str:
    """A metric of datasets (a macro average, or one dataset's) resamples documents within each dataset
    (fastscore.datasets)."""
    return " within each dataset" if metric.endswith("-macro") or "@" in metric else ""


def significance_note(result) -> str:
    if result.test == "permutation":
        return (f"test: approximate randomization (permutation), {counted(result.resamples, 'trial')} of "
                f"per-document swaps, seed {result.seed}")
    return (f"test: paired bootstrap, {counted(result.resamples, 'resample')} of documents{_within(result.metric)}, "
            f"seed {result.seed}")


def comparison(result, fmt: str) -> str:
    if fmt == "json":
        return json.dumps(result.to_dict(), indent=2) + "\n"
    what, value, diff = _scale(result)
    head = ["system", f"{result.metric} {what}", f"{level_percent(result.level)} CI", "delta", "delta CI",
            "p", "p (Holm)", ""]
    rows = [[result.baseline_name + " (baseline)", value(result.baseline_score), interval(result.baseline_ci, value),
             "", "", "", "", ""]]
    for s in result.systems:
        rows.append([s.name, value(s.score), interval(s.ci, value), diff(s.delta), interval(s.delta_ci, value),
                     p_value(s.p_value), p_value(s.p_adjusted), mark(s.p_adjusted)])
    n = len(result.systems)
    note = [significance_note(result),
            intervals_note(result.method, result.level, result.resamples, result.seed, result.metric),
            (f"p-values: {P_DECIMALS} decimals, truncated (< {P_FLOOR} below that); p (Holm): Holm-Bonferroni "
             f"adjusted over {counted(n, 'system')}; * p < 0.05, ** p < 0.01 (Holm-adjusted)"
             if any(s.p_value is not None for s in result.systems) else
             "p-values: none (no test can say anything on fewer than 2 documents)")]
    return _table(head, rows, fmt, note, result)


def sweep(result, fmt: str) -> str:
    if fmt == "json":
        return json.dumps(result.to_dict(), indent=2) + "\n"
    metrics = list(result.systems[0].metrics) if result.systems else []
    if fmt == "csv":
        buf = io.StringIO()
        w = _csv.writer(buf, lineterminator="\n")
        w.writerow(["rank", "name", "score", "ci_low", "ci_high", *metrics])
        for i, r in enumerate(result.systems, 1):
            lo, hi = r.ci if r.ci is not None else ("", "")
            w.writerow([i, r.name, repr(r.score), lo, hi, *(repr(r.metrics[m]) for m in metrics)])
        return buf.getvalue()
    what, value, _ = _scale(result)
    head = ["#", "system", f"{result.metric} {what}"] + ([f"{level_percent(result.level)} CI"] if result.resamples else [])
    head += [m for m in metrics if m != result.metric]
    rows = []
    for i, r in enumerate(result.systems, 1):
        row = [str(i), r.name, value(r.score)] + ([interval(r.ci, value)] if result.resamples else [])
        rows.append(row + [value(r.metrics[m]) for m in metrics if m != result.metric])
    note = [f"{counted(len(result.systems), 'system')}, " + ("error counts" if what == "count" else "F1 in %")]
    if result.resamples:
        note.append(intervals_note(result.method, result.level, result.resamples,
                                   result.seed, result.metric))
    return _table(head, rows, fmt, note, result)


def _table(head: list[str], rows: list[list[str]], fmt: str, note: list[str], result) -> str:
    if fmt == "markdown":
        lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        lines += ["| " + " | ".join(c.replace("|", "\\|") for c in r) + " |" for r in rows]
        return "\n".join(lines + ["", "  \n".join(note), "", f"`{result.signature()}`"]) + "\n"
    if fmt == "latex":
        lines = ["\\begin{tabular}{l" + "r" * (len(head) - 1) + "}", "\\toprule",
                 " & ".join(_latex_escape(h) for h in head) + " \\\\", "\\midrule"]
        lines += [" & ".join(_latex_escape(c) for c in r) + " \\\\" for r in rows]
        lines += ["\\bottomrule", "\\end{tabular}", *(f"% {n}" for n in note), f"% signature: {result.signature()}"]
        return "\n".join(lines) + "\n"
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(head)]
    out = ["  ".join(h.ljust(w) for h, w in zip(head, widths)).rstrip()]
    out += ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows]
    return "\n".join(out + ["", *note, f"signature: {result.signature()}"]) + "\n"
