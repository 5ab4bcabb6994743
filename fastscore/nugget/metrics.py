"""The event nugget metric registry: per-document statistics that add up, and the reducers
that turn them into EvmEval's numbers.

Columns per attribute A (span, type, realis, type+realis): ``A_tp`` (sum of
Dice of the mapped pairs), ``A_p`` and ``A_r`` (the document's P and R, for
the macro average); plus ``gold`` and ``system`` (mention counts of documents
with gold mentions, as EvmEval's micro average counts them), ``valid`` (1
for a document with gold mentions) and ``system_mentions`` (all system mentions,
for the per-document scores).  With coreference, the coreference
columns of fastscore's coref registry follow.

With event sequencing, per link type K (subevent, after, all): ``seq_K_pm``
(system relations matched), ``seq_K_rm`` (gold relations matched, with the
weighted implicit part), ``seq_K_sys`` and ``seq_K_gold`` (final relations).

Metrics: ``A`` (micro F1), ``A-macro`` (macro F1), with coreference
``muc``, ``bcub``, ``ceafe``, ``ceafm``, ``blanc`` and ``coref-average``
(mean F1 of bcub, ceafe, muc and blanc, untruncated), with sequencing
``sequencing-K`` (temporal awareness).  A zero denominator gives 0 here
(EvmEval prints nan).
"""
from __future__ import annotations

import math
from typing import Mapping

import numpy as np

from ..coref.metrics import COLUMNS as COREF_COLUMNS
from ..coref.metrics import METRICS as COREF_REGISTRY
from ..metrics import MetricSpec, name_registries, ratio_score, truncated_percent_value
from ..stats.docstats import DocStats
from .engine import mention_labels
from .options import ATTRIBUTES, COREF_METRICS, EVMEVAL_COREF_ORDER, REPORTED, SKIPPED

# system_mentions: every system mention of the document (``system`` counts only documents with gold)
NUGGET_COLUMNS = tuple(f"{a}_{c}" for a in ATTRIBUTES for c in ("tp", "p", "r")) + ("gold", "system", "valid",
                                                                                     "system_mentions")


def _coref_average(s):
    return {"f1": sum(COREF_REGISTRY[m].score(s)["f1"] for m in _AVERAGED) / 4}


NUGGET_METRICS: dict[str, MetricSpec] = {}
for _a in ATTRIBUTES:
    _cols = (f"{_a}_tp", "gold", "system")
    NUGGET_METRICS[_a] = MetricSpec(_a, _a, _cols, ratio_score(f"{_a}_tp", "system", f"{_a}_tp", "gold"),
                                    f"{_a}: micro F1 of Dice-weighted TP", False)
    NUGGET_METRICS[f"{_a}-macro"] = MetricSpec(f"{_a}-macro", f"{_a} (macro)", (f"{_a}_p", f"{_a}_r", "valid"),
                                               ratio_score(f"{_a}_p", "valid", f"{_a}_r", "valid"),
                                               f"{_a}: macro F1 over documents", False)
WITH_COREF = dict(NUGGET_METRICS)
WITH_COREF.update({m: COREF_REGISTRY[m] for m in COREF_METRICS})
_AVERAGED = ("bcub", "ceafe", "muc", "blanc")
WITH_COREF["coref-average"] = MetricSpec("coref-average", "average",
                                         tuple(dict.fromkeys(c for m in _AVERAGED for c in COREF_REGISTRY[m].columns)),
                                         _coref_average,
                                         "mean F1 of bcub, ceafe, muc, blanc (EvmEval's average)", False)

SEQ_KINDS = tuple(k.lower() for k in REPORTED)
SEQ_PARTS = ("pm", "rm", "sys", "gold")
SEQUENCING_COLUMNS = tuple(f"seq_{k}_{c}" for k in SEQ_KINDS for c in SEQ_PARTS)
SEQUENCING_METRICS = {
    f"sequencing-{k}": MetricSpec(f"sequencing-{k}", f"sequencing {k}", tuple(f"seq_{k}_{c}" for c in SEQ_PARTS),
                                  ratio_score(f"seq_{k}_pm", f"seq_{k}_sys", f"seq_{k}_rm", f"seq_{k}_gold"),
                                  f"event sequencing ({k} links): temporal awareness F1", False)
    for k in SEQ_KINDS}


# the registry of a run, by (coreference scored, sequencing scored)
REGISTRIES = {(coref, seq): {**(WITH_COREF if coref else NUGGET_METRICS), **(SEQUENCING_METRICS if seq else {})}
              for coref in (False, True) for seq in (False, True)}
name_registries(__name__, {f"coref={int(c)},sequencing={int(q)}": r for (c, q), r in REGISTRIES.items()})


def nugget_doc_stats(doc_ids: list[str], aligned, coref_stats: DocStats | None = None,
                     sequencing=None) -> DocStats:
    """The per-document statistics of a nugget run (with coreference and sequencing columns when scored)."""
    n_gold = aligned.n_gold.astype(np.float64)
    n_sys = aligned.n_sys.astype(np.float64)
    valid = (n_gold > 0).astype(np.float64)
    columns: dict[str, np.ndarray] = {}
    for a, name in enumerate(ATTRIBUTES):
        tp = aligned.tp[:, a]
        with np.errstate(divide="ignore", invalid="ignore"):
            columns[f"{name}_p"] = np.where((valid > 0) & (n_sys > 0), tp / np.where(n_sys > 0, n_sys, 1), 0.0)
            columns[f"{name}_r"] = np.where(valid > 0, tp / np.where(n_gold > 0, n_gold, 1), 0.0)
        columns[f"{name}_tp"] = tp * valid
    columns.update(gold=n_gold * valid, system=n_sys * valid, valid=valid, system_mentions=n_sys)
    layout = NUGGET_COLUMNS
    if coref_stats is not None:
        columns.update({c: coref_stats.column(c) for c in COREF_COLUMNS})
        layout += COREF_COLUMNS
    if sequencing is not None:
        for kind in REPORTED:
            for part, field in zip(SEQ_PARTS, ("precision_matched", "recall_matched", "system", "gold")):
                columns[f"seq_{kind.lower()}_{part}"] = np.asarray([getattr(c, field) for c in sequencing.counts[kind]],
                                                                   np.float64)
        layout += SEQUENCING_COLUMNS
    return DocStats.from_columns(doc_ids, columns, REGISTRIES[coref_stats is not None, sequencing is not None], layout)


def _nan_div(n: float, d: float) -> float:
    return 1.0 * n / d if d > 0 else float("nan")


def _nan_f1(p: float, r: float) -> float:
    return _nan_div(2 * p * r, p + r)


def evmeval_averages(stats: DocStats, attribute: str, scale: float = 1.0) -> dict:
    """Micro and macro averages of one attribute with EvmEval's arithmetic.

    EvmEval scales each document's TP first (``scale`` 100 for its percentages), computes the
    document's P and R from it, and adds documents one by one in document order; NaN where
    a denominator is 0.  Only documents with gold mentions count; an empty system output
    adds its gold count and a precision of 0.
    """
    tp = stats.column(f"{attribute}_tp") * scale
    n_sys, n_gold, valid = stats.column("system"), stats.column("gold"), stats.column("valid")
    with np.errstate(divide="ignore", invalid="ignore"):
        p = np.where(n_sys > 0, tp / np.where(n_sys > 0, n_sys, 1), 0.0)
        r = np.where(valid > 0, tp / np.where(n_gold > 0, n_gold, 1), 0.0)
    ordered = DocStats.from_columns(stats.doc_names, {"tp": tp, "p": p, "r": r}, {}, ("tp", "p", "r"))
    s = ordered.ordered_sums()
    system, gold, n_valid = (int(round(math.fsum(stats.column(c)))) for c in ("system", "gold", "valid"))
    micro_p, micro_r = _nan_div(s["tp"], system), _nan_div(s["tp"], gold)
    macro_p, macro_r = _nan_div(s["p"], n_valid), _nan_div(s["r"], n_valid)
    return {"micro": {"precision": micro_p, "recall": micro_r, "f1": _nan_f1(micro_p, micro_r),
                      "tp": s["tp"] / scale, "system": system, "gold": gold},
            "macro": {"precision": macro_p, "recall": macro_r, "f1": _nan_f1(macro_p, macro_r)}}


def doc_scores(stats: DocStats, attribute: str, scale: float = 1.0) -> np.ndarray:
    """(n_docs, 3) P, R, F1 of every document for an attribute, as EvmEval computes them from the
    scaled TP (NaN where a count or P + R is 0)."""
    tp = stats.column(f"{attribute}_tp") * scale
    n_sys, n_gold = stats.column("system_mentions"), stats.column("gold")
    with np.errstate(divide="ignore", invalid="ignore"):
        p = np.where(n_sys > 0, tp / np.where(n_sys > 0, n_sys, 1), np.nan)
        r = np.where(n_gold > 0, tp / np.where(n_gold > 0, n_gold, 1), np.nan)
        total = p + r
        f = np.where(total > 0, 2 * p * r / np.where(total > 0, total, 1), np.nan)
    return np.stack([p, r, f], axis=1)


def official_coref_average(sums: Mapping[str, object]) -> tuple[dict[str, float], float]:
    """EvmEval's coreference average: the F1 percentages v8.01 prints (truncated), in EvmEval's order,
    then the mean of all but CEAFm.  Returns (printed percentage per metric, average percentage)."""
    printed = {m: truncated_percent_value(COREF_REGISTRY[m].score(sums)["f1"]) for m in EVMEVAL_COREF_ORDER}
    total = 0.0
    n = 0
    for m in EVMEVAL_COREF_ORDER:
        if m != SKIPPED:
            total += printed[m]
            n += 1
    return printed, total / n


def sequencing_scores(sums: Mapping[str, object], kind: str) -> dict:
    """Temporal awareness of one link type from summed statistics, in the scorer's arithmetic."""
    k = kind.lower()
    scores = SEQUENCING_METRICS[f"sequencing-{k}"].score(sums)
    pm, rm, system, gold = (float(sums[f"seq_{k}_{c}"]) for c in SEQ_PARTS)
    return {"precision": float(scores["precision"]), "recall": float(scores["recall"]), "f1": float(scores["f1"]),
            "precision_matched": int(round(pm)), "recall_matched": rm, "system": int(round(system)),
            "gold": int(round(gold))}


def per_type_table(prepared, aligned, options) -> dict[str, dict]:
    """Per gold type: tp (sum of Dice), #gold, #system, P, R, F1.

    An explicit reducer, not DocStats columns: EvmEval adds the Dice scores of a type mention by
    mention across documents, and per-document partial sums would change the last bits.  It
    takes the TP from the type+realis mapping (its selection loop keeps the last attribute
    combination that starts with the type); ``per_type_mapping="type"`` uses the type mapping.
    """
    raw = options.preset.raw_type_names
    m = 3 if options.per_type_mapping == "type+realis" else 1
    counts = []
    for role in ("gold", "system"):
        labels, label = mention_labels(prepared, role, "types", options, raw)
        n = np.bincount(label, minlength=len(labels)).tolist()
        counts.append((labels, label, {t: c for t, c in zip(labels, n) if c}))
    (g_labels, g_label, n_gold), (_, _, n_sys) = counts
    names = sorted(n_gold)
    code = {t: k for k, t in enumerate(names)}
    n_docs = len(prepared.doc_ids)
    matched = np.concatenate([aligned.map_sys[d][m] for d in range(n_docs)] + [np.zeros(0, np.int64)]) >= 0
    scores = np.concatenate([aligned.map_score[d][m] for d in range(n_docs)] + [np.zeros(0)])
    g_code = np.asarray([code.get(t, -1) for t in g_labels], dtype=np.int64)[g_label] if g_labels else g_label
    # bincount adds the weights one by one in input order: the mentions in gold order, as EvmEval adds them
    tp = np.bincount(g_code[matched], weights=scores[matched], minlength=len(names)).tolist()
    out = {}
    for t, k in code.items():
        p = _nan_div(tp[k], n_sys.get(t, 0))
        r = _nan_div(tp[k], n_gold[t])
        out[t] = {"precision": p, "recall": r, "f1": _nan_f1(p, r), "tp": tp[k],
                  "gold": n_gold[t], "system": n_sys.get(t, 0)}
    return out
