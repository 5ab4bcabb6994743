"""The event nugget metric registry: per-document statistics that add up.

Columns per attribute A (span, type, realis, type+realis): ``A_tp`` (sum of
Dice of the mapped pairs), ``A_p`` and ``A_r`` (the document's P and R, for
the macro average); plus ``gold`` and ``system`` (mention counts of documents
with gold mentions, as EvmEval's micro average counts them) and ``valid`` (1
for a document with gold mentions).  With coreference, the coreference
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

import numpy as np

from ..metrics import METRICS as COREF_METRICS
from ..metrics import MetricSpec, ratio_score
from .engine import ATTRIBUTES
from .sequencing import REPORTED

NUGGET_COLUMNS = tuple(f"{a}_{c}" for a in ATTRIBUTES for c in ("tp", "p", "r")) + ("gold", "system", "valid")


def _coref_average(s):
    return {"f1": sum(COREF_METRICS[m].score(s)["f1"] for m in ("bcub", "ceafe", "muc", "blanc")) / 4}


NUGGET_METRICS: dict[str, MetricSpec] = {}
for _a in ATTRIBUTES:
    _cols = (f"{_a}_tp", "gold", "system")
    NUGGET_METRICS[_a] = MetricSpec(_a, _a, _cols, ratio_score(f"{_a}_tp", "system", f"{_a}_tp", "gold"),
                                    f"{_a}: micro F1 of Dice-weighted TP", False)
    NUGGET_METRICS[f"{_a}-macro"] = MetricSpec(f"{_a}-macro", f"{_a} (macro)", (f"{_a}_p", f"{_a}_r", "valid"),
                                               ratio_score(f"{_a}_p", "valid", f"{_a}_r", "valid"),
                                               f"{_a}: macro F1 over documents", False)
COREF_NAMES = ("muc", "bcub", "ceafe", "ceafm", "blanc")
WITH_COREF = dict(NUGGET_METRICS)
WITH_COREF.update({m: COREF_METRICS[m] for m in COREF_NAMES})
WITH_COREF["coref-average"] = MetricSpec("coref-average", "average", (), _coref_average,
                                         "mean F1 of bcub, ceafe, muc, blanc (EvmEval's average)", False)

SEQ_KINDS = tuple(k.lower() for k in REPORTED)
SEQUENCING_COLUMNS = tuple(f"seq_{k}_{c}" for k in SEQ_KINDS for c in ("pm", "rm", "sys", "gold"))
SEQUENCING_METRICS = {
    f"sequencing-{k}": MetricSpec(f"sequencing-{k}", f"sequencing {k}", tuple(f"seq_{k}_{c}" for c in
                                                                            ("pm", "rm", "sys", "gold")),
                                  ratio_score(f"seq_{k}_pm", f"seq_{k}_sys", f"seq_{k}_rm", f"seq_{k}_gold"),
                                  f"event sequencing ({k} links): temporal awareness F1", False)
    for k in SEQ_KINDS}


def nugget_doc_stats(result):
    """The per-document statistics of a NuggetResult (with coreference columns when scored)."""
    from ..metrics import COLUMNS
    from ..stats.docstats import DocStats

    al = result.aligned
    n_gold = al.n_gold.astype(np.float64)
    n_sys = al.n_sys.astype(np.float64)
    valid = (n_gold > 0).astype(np.float64)
    cols = []
    for a in range(len(ATTRIBUTES)):
        tp = al.tp[:, a]
        with np.errstate(divide="ignore", invalid="ignore"):
            p = np.where((valid > 0) & (n_sys > 0), tp / np.where(n_sys > 0, n_sys, 1), 0.0)
            r = np.where(valid > 0, tp / np.where(n_gold > 0, n_gold, 1), 0.0)
        cols += [tp * valid, p, r]
    cols += [n_gold * valid, n_sys * valid, valid]
    blocks, columns, registry = [np.stack(cols, axis=1)], NUGGET_COLUMNS, dict(NUGGET_METRICS)
    if result.coref_stats is not None:
        blocks.append(result.coref_stats.matrix)
        columns += COLUMNS
        registry = dict(WITH_COREF)
    if result.sequencing is not None:
        counts = result.sequencing.counts
        per_kind = [[(c.precision_matched, c.recall_matched, c.system, c.gold) for c in counts[k]] for k in REPORTED]
        blocks.append(np.concatenate([np.asarray(x, dtype=np.float64).reshape(-1, 4) for x in per_kind], axis=1))
        columns += SEQUENCING_COLUMNS
        registry.update(SEQUENCING_METRICS)
    return DocStats(result.documents, np.concatenate(blocks, axis=1), columns, registry)
