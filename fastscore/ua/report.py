"""The UA scorer's report (``--output ua``), to the digit."""
from __future__ import annotations

from .metrics import BRIDGING

ORDER = ("lea", "muc", "bcub", "ceafe", "ceafm", "blanc")  # the scorer prints its metrics in this order


def _line(scores: dict) -> str:
    r, p, f = (float(scores[k]) * 100 for k in ("recall", "precision", "f1"))
    return f"Recall: {r:.2f}  Precision: {p:.2f}  F1: {f:.2f}"


def render(result) -> str:
    sums = result.doc_stats.sums()
    registry = result.doc_stats.registry
    lines = [result.header, *result.printed]
    conll = 0.0
    for name in ORDER:
        if name not in result.metrics:
            continue
        scores = registry[name].score(sums)
        if name in ("muc", "bcub", "ceafe"):
            conll += float(scores["f1"])
        lines += [name, _line(scores)]
    if all(m in result.metrics for m in ("muc", "bcub", "ceafe")):
        lines.append(f"CoNLL score: {conll / 3 * 100:.2f}")
    if result.options.get("non-referring"):
        lines += ["============================================", "Non-referring markable identification scores:",
                  _line(registry["non_referring"].score(sums))]
    if result.options.get("bridging"):
        lines.append("============================================")
        for name, title in BRIDGING.items():
            lines += [f"{title}:", _line(registry[name].score(sums))]
    return "\n".join(lines) + "\n"
