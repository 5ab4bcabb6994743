"""Scores of an event nugget run, computed as EvmEval computes them.

Per document: P = TP / #system, R = TP / #gold (NaN when the count is 0).
Micro: TP summed over documents with gold mentions, over their gold and
system counts (a document whose system output is empty adds its gold count
only).  Macro: mean of the per-document P and R over documents with gold
mentions (an empty system output counts as P = 0).  F1 = 2PR / (P + R),
NaN when P + R = 0 — EvmEval prints ``nan``; JSON has ``null``.
"""
from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass

import numpy as np

from .._version import __version__
from .engine import ATTRIBUTES, Aligned, Options, Prepared
from .sequencing import REPORTED

COREF_METRICS = ("muc", "bcub", "ceafe", "ceafm", "blanc")
EVMEVAL_COREF_ORDER = ("bcub", "ceafe", "ceafm", "muc", "blanc")  # Python 2 dict order of the official report
SKIPPED = "ceafm"  # not part of the official average


def safe_div(n: float, d: float) -> float:
    return 1.0 * n / d if d > 0 else float("nan")


def f1(p: float, r: float) -> float:
    return safe_div(2 * p * r, p + r)


def _json(x):
    """A JSON value: NaN -> None, numpy scalars -> Python numbers."""
    if isinstance(x, (float, np.floating)):
        return None if math.isnan(x) else float(x)
    return int(x) if isinstance(x, np.integer) else x


@dataclass
class NuggetResult:
    gold: object
    system: object
    options: Options
    prepared: Prepared
    aligned: Aligned
    coref_stats: object = None  # DocStats of the event coreference, when --coref
    bootstrap: object = None  # fastscore.stats.bootstrap.Bootstrap, set by fastscore.bootstrap()
    sequencing: object = None  # fastscore.nugget.sequencing.Sequencing, with sequencing=True

    @property
    def metrics(self) -> list[str]:
        """Registry names of the headline metrics (what ``fastscore.bootstrap`` gives intervals for)."""
        coref = ["muc", "bcub", "ceafe", "ceafm", "blanc", "coref-average"] if self.coref_stats is not None else []
        seq = [f"sequencing-{k.lower()}" for k in REPORTED] if self.sequencing is not None else []
        return list(ATTRIBUTES) + coref + seq

    @property
    def doc_stats(self):
        """Per-document statistics (:class:`~fastscore.stats.docstats.DocStats`, nugget registry)."""
        from .metrics import nugget_doc_stats

        return nugget_doc_stats(self)

    @property
    def documents(self) -> list[str]:
        return self.prepared.doc_ids

    @property
    def warnings(self) -> list[str]:
        return self.prepared.warnings

    def doc_scores(self, d: int, a: int, percent: bool = False) -> tuple[float, float, float]:
        """(P, R, F1) of document d for attribute a (NaN where undefined)."""
        scale = 100 if percent else 1
        tp = self.aligned.tp[d, a] * scale
        p = safe_div(tp, self.aligned.n_sys[d])
        r = safe_div(tp, self.aligned.n_gold[d])
        return p, r, f1(p, r)

    def averages(self, a: int, percent: bool = False) -> dict:
        """Micro and macro averages with EvmEval's arithmetic (and its order of additions)."""
        scale = 100 if percent else 1
        tp_sum = p_sum = r_sum = 0.0
        gold = system = valid = 0
        for d in range(len(self.documents)):
            p, r, _ = self.doc_scores(d, a, percent)
            n_gold, n_sys = int(self.aligned.n_gold[d]), int(self.aligned.n_sys[d])
            if math.isnan(r):
                continue  # no gold mention: not part of the averages
            valid += 1
            gold += n_gold
            if math.isnan(p):
                continue  # empty system output: P counts as 0
            system += n_sys
            tp_sum += self.aligned.tp[d, a] * scale
            p_sum += p
            r_sum += r
        micro_p, micro_r = safe_div(tp_sum, system), safe_div(tp_sum, gold)
        macro_p, macro_r = safe_div(p_sum, valid), safe_div(r_sum, valid)
        return {"micro": {"precision": micro_p, "recall": micro_r, "f1": f1(micro_p, micro_r),
                          "tp": tp_sum / scale, "system": system, "gold": gold},
                "macro": {"precision": macro_p, "recall": macro_r, "f1": f1(macro_p, macro_r)}}

    def per_type(self) -> dict[str, dict]:
        """Per gold type: tp (sum of Dice), #gold, #system, P, R, F1.

        EvmEval takes the TP from the type+realis mapping (its selection loop keeps the last
        attribute combination that starts with the type); ``per_type_mapping="type"`` uses the
        type mapping instead.
        """
        raw = self.options.preset.raw_type_names
        m = 3 if self.options.per_type_mapping == "type+realis" else 1
        tp: dict[str, float] = {}
        n_gold: Counter = Counter()
        n_sys: Counter = Counter()
        for d in range(len(self.documents)):
            gold, system = self.prepared.gold[d], self.prepared.system[d]
            g_types = [gold.file.types[r] for r in gold.rows] if raw else gold.types
            s_types = [system.file.types[r] for r in system.rows] if raw else system.types
            scores = self.aligned.map_score[d][m].tolist()
            for i, j in enumerate(self.aligned.map_sys[d][m].tolist()):
                if j >= 0:  # in gold order, as EvmEval adds them
                    tp[g_types[i]] = tp.get(g_types[i], 0) + scores[i]
            n_gold.update(g_types)
            n_sys.update(s_types)
        out = {}
        for t in sorted(n_gold):
            p = safe_div(tp.get(t, 0), n_sys.get(t, 0))
            r = safe_div(tp.get(t, 0), n_gold[t])
            out[t] = {"precision": p, "recall": r, "f1": safe_div(2 * p * r, p + r), "tp": tp.get(t, 0.0),
                      "gold": n_gold[t], "system": n_sys.get(t, 0)}
        return out

    def coref_scores(self) -> dict | None:
        """Coreference metrics (fastscore coref objects) and the official average."""
        if self.coref_stats is None:
            return None
        from ..coref.result import metric_object
        from ..report.perl import truncated_percent

        sums = self.coref_stats.sums()
        out = {m: metric_object(m, sums) for m in COREF_METRICS}
        # the official average: the F1 percentages v8.01 prints (truncated), then their mean
        printed = {m: float(truncated_percent(out[m]["f1"])) for m in EVMEVAL_COREF_ORDER}
        total = 0.0
        n = 0
        for m in EVMEVAL_COREF_ORDER:
            if m != SKIPPED:
                total += printed[m]
                n += 1
        out["average"] = total / n / 100
        out["printed_percent"] = printed
        out["average_percent"] = total / n  # what the official report prints
        return out

    def signature(self) -> str:
        o = self.options
        parts = [f"nugget|preset:{o.preset.name}", f"spans:{'token' if o.token_mode else 'char'}",
                 f"mapping:{o.mapping}", f"invisible:{len(o.invisible)}"]
        if o.whitelist is not None:
            parts.append(f"whitelist:{len(o.whitelist)}")
        if o.coref:
            parts.append(f"coref:{o.coref_mapping}@{o.coref_threshold}")
        if o.sequencing:
            parts.append(f"sequencing:{o.sequencing_graph}" + ("" if o.no_script_validation else ":validated"))
        if self.bootstrap is not None:
            parts.append(self.bootstrap.signature())
        return "|".join(parts + [f"version:{__version__}"])

    def to_dict(self, per_doc: bool = False) -> dict:
        metrics = {}
        intervals = self.bootstrap.intervals if self.bootstrap is not None else {}
        for a, name in enumerate(ATTRIBUTES):
            avg = self.averages(a)
            metrics[name] = {k: {kk: _json(vv) for kk, vv in v.items()} for k, v in avg.items()}
            if name in intervals:
                metrics[name]["micro"]["ci"] = list(intervals[name])
        out = {"task": "nugget", "documents": len(self.documents), "metrics": metrics}
        coref = self.coref_scores()
        if coref is not None:
            out["coref"] = {k: v for k, v in coref.items() if k not in ("printed_percent", "average_percent")}
            for m in ("muc", "bcub", "ceafe", "ceafm", "blanc"):
                if m in intervals:
                    out["coref"][m]["ci"] = list(intervals[m])
            if "coref-average" in intervals:
                out["coref"]["average_ci"] = list(intervals["coref-average"])
        if self.sequencing is not None:
            out["sequencing"] = {k.lower(): self.sequencing.scores(k) for k in REPORTED}
            for k, obj in out["sequencing"].items():
                if f"sequencing-{k}" in intervals:
                    obj["ci"] = list(intervals[f"sequencing-{k}"])
        out["per_type"] = {t: {k: _json(v) for k, v in obj.items()} for t, obj in self.per_type().items()}
        if per_doc:
            out["per_doc"] = {}
            for d, doc_id in enumerate(self.documents):
                entry = {}
                for a, name in enumerate(ATTRIBUTES):
                    p, r, f = self.doc_scores(d, a)
                    entry[name] = {"precision": _json(p), "recall": _json(r), "f1": _json(f),
                                   "tp": float(self.aligned.tp[d, a]), "system": int(self.aligned.n_sys[d]),
                                   "gold": int(self.aligned.n_gold[d])}
                if self.sequencing is not None:
                    entry["sequencing"] = {k.lower(): self.sequencing.doc_scores(k, d) for k in REPORTED}
                out["per_doc"][doc_id] = entry
        out["signature"] = self.signature()
        return out

    def to_arrow(self):
        """Per-document statistics as a pyarrow table."""
        return self.doc_stats.to_arrow()
