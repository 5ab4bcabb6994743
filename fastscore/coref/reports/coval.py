"""coval's report (``scorer.py``), to the digit: per metric ``name.ljust(10)`` and
``Recall: %.2f  Precision: %.2f  F1: %.2f``, then ``CoNLL score: %.2f`` when MUC, B-cubed and CEAFe
are all there.  coval's notes before the scores (singletons and nested mentions removed) are not
repeated: fastscore's options say what was done."""
from __future__ import annotations

from ...errors import UsageError
from ..metrics import COVAL_METRICS

ORDER = ("mentions", "muc", "bcub", "ceafe", "lea")  # what coval's scorer computes, in its order


def render(result) -> str:
    if result.doc_stats.registry is not COVAL_METRICS:
        raise UsageError("--output coval is coval's report: use it with --match mina, --np-only or --remove-nested "
                         "(CoNLL-2012)")
    everything = "all" in result.asked or not result.asked
    names = [m for m in ORDER if (m == "mentions" and everything) or m in result.metrics]
    scores = result.scores()
    lines = []
    conll, parts = 0.0, 0
    for m in names:
        s = scores["mentions"] if m == "mentions" else scores["metrics"][m]
        if m in ("muc", "bcub", "ceafe"):
            conll += s["f1"]
            parts += 1
        lines.append(f"{m.ljust(10)} Recall: {s['recall'] * 100:.2f}  Precision: {s['precision'] * 100:.2f}  "
                     f"F1: {s['f1'] * 100:.2f}")
    if parts == 3:
        lines.append(f"CoNLL score: {conll / 3 * 100:.2f}")
    return "\n".join(lines) + "\n"
