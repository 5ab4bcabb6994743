"""The CorefUD scorer's report (``corefud-scorer.py``), to the digit: a header, then per metric its name
and ``Recall: %.2f  Precision: %.2f  F1: %.2f``, then ``CoNLL score: %.2f``."""
from __future__ import annotations

from ...errors import UsageError
from ..metrics import COREFUD_METRICS

ORDER = ("muc", "bcub", "ceafe", "ceafm", "blanc", "lea", "mor", "zero")  # the scorer's order of `all`
MATCH_NAMES = {"exact": "exact", "partial": "partial-corefud", "head": "head"}


def render(result) -> str:
    if result.doc_stats.registry is not COREFUD_METRICS:
        raise UsageError("--output corefud is the CorefUD scorer's report: it needs CoNLL-U input")
    o = result.options
    what = "coreferential mentions" + (", singletons" if o["singletons"] == "keep" else "")
    what += f", zeros (using {o['zero-match']} match method)"
    metrics = [m for m in ORDER if m in result.metrics]
    lines = [f"The scorer is evaluating {what} using {MATCH_NAMES[o['match']]} match evaluation setting.",
             f"The following metrics will be evaluated: {', '.join(metrics)}", ""]
    scores = result.scores()["metrics"]
    for m in metrics:
        s = scores[m]
        lines += [m, f"Recall: {s['recall'] * 100:.2f}  Precision: {s['precision'] * 100:.2f}  F1: {s['f1'] * 100:.2f}"]
    if all(m in metrics for m in ("muc", "bcub", "ceafe")):
        conll = 0.0
        for m in ("muc", "bcub", "ceafe"):  # summed in this order, as the scorer does
            conll += scores[m]["f1"]
        lines.append(f"CoNLL score: {conll / 3 * 100:.2f}")
    return "\n".join(lines) + "\n"
