"""Coreference's metric registries: v8.01's (MUC, B-cubed, CEAFm, CEAFe, BLANC, LEA, the CoNLL average), the
CorefUD scorer's and coval's; how a user names them."""
from __future__ import annotations

from typing import Mapping

import numpy as np

from ..metrics import PRF, MetricSpec, divide, f1, f1_of, layout_of, name_registries, prf_score


def _blanc_mean(a: dict, b: dict, no_a, no_b) -> dict:
    """The mean of the coreference (``a``) and non-coreference (``b``) recall, precision and F; only one of them
    when the other part is missing; 0 when both are."""
    return {k: np.where(no_a & no_b, 0.0, np.where(no_a, b[k], np.where(no_b, a[k], (a[k] + b[k]) / 2)))
            for k in ("recall", "precision", "f1")}


def blanc_score(sums: Mapping[str, object]) -> dict:
    """BLANC as v8.01 reports it: a part is missing when the key has no link of its kind."""
    a, b = ({"recall": divide(sums[f"blanc_{kind}_recall_num"], sums[f"blanc_{kind}_recall_den"], -1.0),
             "precision": divide(sums[f"blanc_{kind}_precision_num"], sums[f"blanc_{kind}_precision_den"], 0.0)}
            for kind in ("coref", "noncoref"))
    for part in (a, b):
        part["f1"] = f1(part["recall"], part["precision"])
    return _blanc_mean(a, b, a["recall"] == -1, b["recall"] == -1)


def blanc_ua_score(sums: Mapping[str, object]) -> dict:
    """BLANC as the Universal Anaphora (CorefUD) scorer reports it: a part is missing only when neither side has
    a link of its kind (v8.01 skips a part when the key has none)."""
    a, b = (prf_score(sums, f"blanc_{kind}") for kind in ("coref", "noncoref"))
    no_a, no_b = ((np.asarray(sums[f"blanc_{kind}_recall_den"]) == 0)
                  & (np.asarray(sums[f"blanc_{kind}_precision_den"]) == 0) for kind in ("coref", "noncoref"))
    return _blanc_mean(a, b, no_a, no_b)


CONLL_PARTS = ("muc", "bcub", "ceafe")  # the CoNLL-2012 score averages their F1


def conll_average(sums: Mapping[str, object], which: str = "f1"):
    """The mean ``which`` (f1; recall or precision for CorefEvaluator's get_recall, get_precision) of MUC,
    B-cubed and CEAFe."""
    return sum(prf_score(sums, m)[which] for m in CONLL_PARTS) / len(CONLL_PARTS)


def conll_score(sums: Mapping[str, object]) -> dict:
    """The CoNLL-2012 average: mean F1 of MUC, B-cubed and CEAFe."""
    return {"f1": conll_average(sums)}


def _prf_metric(name: str, title: str, description: str, integral: bool = True) -> MetricSpec:
    return MetricSpec(name, title, tuple(f"{name}_{c}" for c in PRF), lambda s, n=name: prf_score(s, n), description,
                      integral)


_BLANC_COLUMNS = tuple(f"blanc_{kind}_{c}" for kind in ("coref", "noncoref") for c in PRF)

METRICS: dict[str, MetricSpec] = {
    m.name: m
    for m in (
        _prf_metric("mentions", "Identification of Mentions",
                    "exact-boundary mention identification (distinct spans)"),
        _prf_metric("muc", "MUC", "link-based: links(K) - partitions, Vilain et al. 1995"),
        _prf_metric("bcub", "B-cubed", "mention-based, Bagga & Baldwin 1998", integral=False),
        _prf_metric("ceafm", "CEAFm", "mention-based CEAF, phi3 = |K & R|, Luo 2005"),
        _prf_metric("ceafe", "CEAFe", "entity-based CEAF, phi4 = 2|K & R|/(|K|+|R|), Luo 2005",
                    integral=False),
        _prf_metric("lea", "LEA", "link-based entity-aware, Moosavi & Strube 2016", integral=False),
        MetricSpec("blanc", "BLANC", _BLANC_COLUMNS, blanc_score,
                   "mean of coreference- and non-coreference-link F, Luo et al. 2014"),
        MetricSpec("conll", "CoNLL", tuple(f"{m}_{c}" for m in CONLL_PARTS for c in PRF), conll_score,
                   "mean F1 of MUC, B-cubed and CEAFe (CoNLL-2012)", integral=False),
    )
}

# CorefUD (the Universal Anaphora scorer's definitions): BLANC skips a part only when both sides lack it;
# MOR and the zero score are its own
COREFUD_METRICS: dict[str, MetricSpec] = {
    **{m: spec for m, spec in METRICS.items() if m != "conll"},
    "blanc": MetricSpec("blanc", "BLANC", _BLANC_COLUMNS, blanc_ua_score,
                        "mean of coreference- and non-coreference-link F (a part skipped when neither side has "
                        "its links), Universal Anaphora scorer"),
    "mor": _prf_metric("mor", "MOR", "mention overlap ratio: maximum word overlap of key and response mentions, "
                       "CRAC 2022"),
    "zero": _prf_metric("zero", "zero", "anaphor-decomposable score of zeros: P = TP/(TP+FP+WL), "
                        "R = TP/(TP+FN+WL), CorefUD scorer"),
    "conll": METRICS["conll"],
}

# MINA (coval's evaluator): v8.01's metrics with the Universal Anaphora scorer's BLANC, the coval family's
COVAL_METRICS: dict[str, MetricSpec] = {**METRICS, "blanc": COREFUD_METRICS["blanc"]}

name_registries(__name__, {"METRICS": METRICS, "COREFUD_METRICS": COREFUD_METRICS, "COVAL_METRICS": COVAL_METRICS})

SCORED = ("muc", "bcub", "ceafm", "ceafe", "blanc", "lea")  # what --metric all means
COLUMNS: tuple[str, ...] = layout_of(METRICS)


def named(names) -> list[str]:
    """Metric names as a user gives them (a string or a list of them, each possibly comma-separated),
    lower-cased, one per item; ``["all"]`` when none is given."""
    if isinstance(names, str):
        names = [names]
    return [part.strip().lower() for name in names or ("all",) for part in name.split(",")]


def resolve(names, registry: dict[str, MetricSpec] | None = None) -> list[str]:
    """Metric names as given by a user (``all``, ``conll``, ``muc,bcub``; a string or a list of them)
    -> names of ``registry`` (default: the v8.01 one), in registry order.  ``conll`` brings the three F1s
    it averages with it; ``all`` is every metric of the registry."""
    from ..errors import UsageError

    registry = METRICS if registry is None else registry
    wanted: set[str] = set()
    for n in named(names):
        if n == "all":
            wanted.update(m for m in registry if m != "mentions")
        elif n == "conll":
            wanted.update((*CONLL_PARTS, "conll"))
        elif n in registry and n != "mentions":
            wanted.add(n)
        elif n in COREFUD_METRICS:
            raise UsageError(f"{n} is a CorefUD metric: it needs CoNLL-U input (--format conllu)")
        else:
            choices = [m for m in registry if m != "mentions"]
            raise UsageError(f"unknown metric {n!r}: choose from {', '.join(choices)}, all")
    return [m for m in registry if m in wanted]


def coref_f1(metric: str, sums: np.ndarray) -> np.ndarray:
    """F1 of a v8.01 metric for each row of a (n, len(COLUMNS)) matrix of summed statistics."""
    return f1_of(metric, sums, COLUMNS, METRICS)
