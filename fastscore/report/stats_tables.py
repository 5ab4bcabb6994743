"""Reports of comparisons and sweeps: text, JSON, CSV, Markdown, LaTeX."""
from __future__ import annotations

import csv as _csv
import io
import json

from ..stats.significance import mark


def _pct(x: float) -> str:
    return f"{100 * x:.2f}"


def _ci(ci) -> str:
    return "" if ci is None else f"[{_pct(ci[0])}, {_pct(ci[1])}]"


def _latex_escape(s: str) -> str:
    return "".join("\\" + c if c in "&%$#_{}" else "\\textbackslash{}" if c == "\\" else c for c in s)


def comparison(result, fmt: str) -> str:
    if fmt == "json":
        return json.dumps(result.to_dict(), indent=2) + "\n"
    head = ["system", f"{result.metric} F1", f"{int(result.level * 100)}% CI", "delta", "delta CI",
            "p", "p (Holm)", ""]
    rows = [[result.baseline_name + " (baseline)", _pct(result.baseline_score), _ci(result.baseline_ci),
             "", "", "", "", ""]]
    for s in result.systems:
        rows.append([s.name, _pct(s.score), _ci(s.ci), f"{100 * s.delta:+.2f}", _ci(s.delta_ci),
                     f"{s.p_value:.4g}", f"{s.p_adjusted:.4g}", mark(s.p_adjusted)])
    note = (f"{result.test} test, {result.resamples} resamples, seed {result.seed}; "
            "* p < 0.05, ** p < 0.01 (Holm-adjusted)")
    return _table(head, rows, fmt, note)


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
    head = ["#", "system", f"{result.metric} F1"] + ([f"{int(result.level * 100)}% CI"] if result.resamples else [])
    head += [m for m in metrics if m != result.metric]
    rows = []
    for i, r in enumerate(result.systems, 1):
        row = [str(i), r.name, _pct(r.score)] + ([_ci(r.ci)] if result.resamples else [])
        rows.append(row + [_pct(r.metrics[m]) for m in metrics if m != result.metric])
    note = f"{len(result.systems)} systems, F1 in %" + (
        f"; bootstrap {result.resamples} resamples, seed {result.seed}" if result.resamples else "")
    return _table(head, rows, fmt, note)


def _table(head: list[str], rows: list[list[str]], fmt: str, note: str) -> str:
    if fmt == "markdown":
        lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        lines += ["| " + " | ".join(c.replace("|", "\\|") for c in r) + " |" for r in rows]
        return "\n".join(lines + ["", note]) + "\n"
    if fmt == "latex":
        lines = ["\\begin{tabular}{l" + "r" * (len(head) - 1) + "}", "\\toprule",
                 " & ".join(_latex_escape(h) for h in head) + " \\\\", "\\midrule"]
        lines += [" & ".join(_latex_escape(c) for c in r) + " \\\\" for r in rows]
        lines += ["\\bottomrule", "\\end{tabular}", f"% {note}"]
        return "\n".join(lines) + "\n"
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(head)]
    out = ["  ".join(h.ljust(w) for h, w in zip(head, widths)).rstrip()]
    out += ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows]
    return "\n".join(out + ["", note]) + "\n"
