"""What every readable report shares: percentages, interval cells, the interval column's head and note; the score
tables of Markdown and CSV."""
from __future__ import annotations

import csv as _csv
import io
import math


def pct(x) -> str:
    """A fraction as a percentage with two decimals (``nan`` where it is undefined)."""
    return "nan" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{100 * x:.2f}"


def pct_of(obj: dict, key: str) -> str:
    """``obj[key]`` as :func:`pct`, empty where the object has no such number (e.g. the CoNLL average's recall)."""
    return pct(obj[key]) if key in obj else ""


def ci_of(obj: dict) -> str:
    """The interval cell of a score object (its ``ci``; empty without one)."""
    return interval(obj.get("ci"))


def interval(ci, value=pct) -> str:
    """``[low, high]`` of an interval (empty without one)."""
    return "" if ci is None else f"[{value(ci[0])}, {value(ci[1])}]"


def ci_head(result, of: str = "") -> str:
    """The interval column's head (empty before a bootstrap): ``95% CI`` + ``of``."""
    return "" if result.bootstrap is None else f"{result.bootstrap.level * 100:g}% CI{of}"


def ci_note(result, of: str = "") -> list[str]:
    """The line under a table that says how its intervals were made (none before a bootstrap)."""
    b = result.bootstrap
    if b is None:
        return []
    return [f"intervals{of}: {b.method} bootstrap, {b.resamples} resamples of documents, seed {b.seed}"]


HEADS = {"recall": "recall", "precision": "precision", "f1": "F1"}


def markdown_scores(rows: list[tuple[str, dict]], columns: tuple[str, ...], ci: str, ci_rule: str = "---:|") -> list[str]:
    """A score table in Markdown: a line per (name, score object), ``columns`` as percentages, then the interval
    column when ``ci`` (its head: empty before a bootstrap) is given."""
    lines = ["| metric | " + " | ".join(HEADS[c] for c in columns) + " |" + (f" {ci} |" if ci else ""),
             "|---|" + "---:|" * len(columns) + (ci_rule if ci else "")]
    return lines + [f"| {name} | " + " | ".join(pct_of(obj, c) for c in columns) + " |"
                    + (f" {ci_of(obj)} |" if ci else "") for name, obj in rows]


def markdown_per_document(metrics: list[str], documents) -> list[str]:
    """F1 per document in Markdown, after a blank line: ``documents`` are (name, cells) pairs."""
    return ["", "| document | " + " | ".join(metrics) + " |", "|---|" + "---:|" * len(metrics),
            *(f"| {name} | " + " | ".join(cells) + " |" for name, cells in documents)]


def csv_scores(result, scopes, columns: tuple[str, ...], counts: tuple[str, ...] = ()) -> str:
    """Scores as CSV: a line per (document, or "" for the corpus; metric) of ``scopes`` ((document, rows of (metric,
    score object)) pairs): the object's ``counts`` as they are, ``columns`` as ``repr`` of floats, then the
    interval's ends after a bootstrap."""
    buf = io.StringIO()
    w = _csv.writer(buf, lineterminator="\n")
    ci = result.bootstrap is not None
    w.writerow(["document", "metric", *counts, *columns, *(("ci_low", "ci_high") if ci else ())])
    for scope, rows in scopes:
        for name, obj in rows:
            interval = [repr(float(x)) for x in obj["ci"]] if "ci" in obj else ["", ""]
            w.writerow([scope, name, *(obj.get(k, "") for k in counts),
                        *(repr(float(obj[k])) if k in obj else "" for k in columns), *(interval if ci else ())])
    return buf.getvalue()
