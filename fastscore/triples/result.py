"""The result of a triple run: every number from its ``DocStats`` (column sums), laid out as the JSON,
tables and the module's own report show them."""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from ..messages import counted
from ..result import Result
from ..stats.docstats import DocStats
from .engine import Inputs
from .metrics import REGISTRIES, SEP, SHORT, merged_layout
from .options import VARIANT_TITLES, Options

LAYERS_IGNORED = "--layers and --intersect convert NAF/KAF input; both inputs are triple files: ignored"


def _frac(num: float, den: float) -> float:
    return float(num / den) if den else 0.0


@dataclass
class TriplesResult(Result):
    """Triple scores of a gold/system pair (files or folders, or a corpus of shards merged)."""

    doc_stats: DocStats
    inputs: Inputs
    warnings: list[str] = field(default_factory=list)
    bootstrap: object = None
    metrics: list[str] = field(default_factory=lambda: ["triples"])
    skipped_shards: list[str] = field(default_factory=list)  # shards left out (score_corpus, skip_bad_shards)
    _prepared: object = field(default=None, repr=False, compare=False)  # engine.Prepared, when at hand
    task = "triples"

    @property
    def prepared(self):
        """``engine.Prepared``: what the module's report layout needs beyond the numbers (the stored triples
        and the kernels' matches).  A merged or unpickled result reads its inputs again the first time."""
        if self._prepared is None:
            from .engine import prepare_again

            self._prepared = prepare_again(self.inputs)
        return self._prepared

    def __getstate__(self):  # pickled (sent back by a worker): the inputs' names and files, not their triples
        return {**self.__dict__, "_prepared": None}

    @property
    def options(self) -> Options:
        return self.inputs.options

    @property
    def variant(self) -> str:
        return self.options.variant

    def totals(self) -> dict[str, float]:
        return {c: float(v) for c, v in zip(self.doc_stats.columns, self.doc_stats.total())}

    def signature_items(self) -> dict:
        return self.options.signature_items(self.inputs.folder, self.inputs.naf)

    # ---- numbers

    @staticmethod
    def _variant(t: dict, variant: str) -> dict:
        """P, R and F1 of a variant, from its registry entry, and its counts."""
        v = SHORT[variant]
        scores = REGISTRIES[variant][variant].score(t)
        return {**{k: float(scores[k]) for k in ("precision", "recall", "f1")}, "correct": int(t[f"correct_{v}"]),
                "system": int(t[f"unique_{v}"]), "gold": int(t["gold"])}

    def scores(self, t: dict | None = None) -> dict:
        """``metrics`` (the chosen variant), ``statistics`` and ``per_relation`` from totals ``t``."""
        t = self.totals() if t is None else t
        triples = self._variant(t, self.variant)
        if self.bootstrap is not None and t is not None:
            lo, hi = self.bootstrap.intervals.get("triples", (math.nan, math.nan))
            triples["ci"] = [lo, hi]
        stats = {
            "variant": self.variant,
            "variant_title": VARIANT_TITLES[self.variant],
            "dedup": "exact" if self.options.dedup_exact(self.inputs.folder) else "overlap",
            "documents": len(self.doc_stats),
            "gold": {"triples": int(t["gold"]),
                     "average_first_ids": _frac(t["gold_first_ids"], t["gold"]),
                     "average_second_ids": _frac(t["gold_second_ids"], t["gold"])},
            "system": {"triples": int(t["system"] + t["out_of_range"]), "in_range": int(t["system"]),
                       "out_of_range": int(t["out_of_range"]),
                       # the module's "Number of unique Triples in scope", whatever the variant: no earlier
                       # such triple shares ids (partially) with the same relation (the variant's own system
                       # count, its precision's denominator, may differ: --ignore-relations de-duplicates by
                       # ids alone)
                       "unique_in_scope": int(t["unique_pr"]),
                       "average_first_ids": _frac(t["system_first_ids"], t["system"]),
                       "average_second_ids": _frac(t["system_second_ids"], t["system"])},
        }
        for side in ("first", "second"):
            scores = REGISTRIES[self.variant][f"{side}-elements"].score(t)
            stats[f"{side}_elements"] = {"gold": int(t[f"{side}_gold"]), "system": int(t[f"{side}_system"]),
                                         "correct": int(t[f"{side}_correct"]),
                                         "precision": float(scores["precision"]), "recall": float(scores["recall"])}
        stats["variants"] = {v: self._variant(t, v) for v in SHORT}
        return {"metrics": {"triples": triples}, "statistics": stats, "per_relation": self.per_relation(t)}

    def per_relation(self, t: dict | None = None) -> dict[str, dict]:
        """Per relation (after the map; exact names, as the module keys them), sorted by name: gold count and
        share of the gold triples, unique system triples and their share of the in-range system triples,
        correct (gold triples of the relation counted), recall and precision."""
        t = self.totals() if t is None else t
        v = SHORT[self.variant]
        names = sorted({c.split(SEP)[1] for c in t if c.startswith("relation" + SEP)})
        out = {}
        for name in names:
            key = f"relation{SEP}{name}{SEP}"
            gold, system, correct = t[key + "gold"], t[key + "system"], t[key + f"correct_{v}"]
            out[name] = {"gold": int(gold), "gold_share": _frac(gold, t["gold"]), "system": int(system),
                         "system_share": _frac(system, t["system"]), "correct": int(correct),
                         "recall": _frac(correct, gold), "precision": _frac(correct, system)}
        return out

    def document_object(self, i: int) -> dict:
        row = self.doc_stats.row(i)
        return {"metrics": {"triples": self._variant(row, self.variant)},
                "variants": {v: self._variant(row, v) for v in SHORT}}

    def summary(self) -> dict:
        return {"gold": self.inputs.gold_path, "system": self.inputs.system_path, **self.scores()}

    def trailer(self) -> dict:
        return {"warnings": list(self.warnings)}

    def __repr__(self) -> str:
        m = self.scores()["metrics"]["triples"]
        return (f"TriplesResult({self.variant}: P={m['precision']:.4f} R={m['recall']:.4f} F1={m['f1']:.4f}, "
                f"{counted(len(self.doc_stats), 'document')})")


def run_warnings(result: TriplesResult, gold_warnings: list[str], system_warnings: list[str]) -> list[str]:
    """A run's warnings in the order one run gives them: the options' files, reading the gold documents, then the
    system documents, --layers without NAF/KAF input, precision above one."""
    inputs = result.inputs
    out = [*inputs.options.warnings, *gold_warnings, *system_warnings]
    if inputs.options.layers and not inputs.naf:
        out.append(LAYERS_IGNORED)
    return out + precision_above_one(result) + gold_repeats(result) + nothing_in_common(result)


_DUPLICATE_RULES = {  # how a gold triple duplicates one counted before (dedup overlap), per variant
    "partial-any-relation": "ids meeting in both elements", "partial": "ids meeting in both elements, same relation",
    "exact": "equal ids and relation", "exact-any-relation": "equal ids and relation"}


def gold_repeats(result: TriplesResult) -> list[str]:
    """Gold triples that even the gold file as the system would not get counted (duplicates and overlaps of
    other gold triples): a warning says how many and why recall stays below 100."""
    t = result.totals()
    n, gold = int(t.get("gold_repeats", 0)), int(t["gold"])
    if not n:
        return []
    exact = result.options.dedup_exact(result.inputs.folder)
    rule = "equal ids and relation" if exact else _DUPLICATE_RULES[result.variant]
    hint = "" if exact else "; --dedup exact merges only identical ones"
    return [f"{n} of {gold} gold triples are merged as duplicates: the gold file scored against itself has "
            f"recall {100 * (gold - n) / gold:.2f}, not 100, because the module counts for each system triple "
            f"only the first gold triple it matches, and not one that duplicates a gold triple counted before "
            f"({rule}){hint}"]


def nothing_in_common(result: TriplesResult) -> list[str]:
    """Gold and system triples, and not one correct: say why (no ids in common, or ids but no relation)."""
    t = result.totals()
    short = SHORT[result.variant]
    if not t["gold"] or not t["system"] or t[f"correct_{short}"]:
        return []
    naf = " (NAF/KAF input converted with --layers " + ",".join(result.options.layers) + ")" \
        if result.inputs.naf else ""
    if not t["correct_p"]:
        why = "no system triple has ids in both elements in common with a gold triple: are both of the same text?"
    elif short in ("xr", "x") and not t["correct_x"]:
        why = ("system triples share ids with gold triples, never all of an element's ids (--exact-ids); "
               "without it, one id in common is enough")
    else:  # the ids meet, the relations never (only a relation-aware variant gets here)
        rel = result.per_relation(t)
        gold = [k for k, v in rel.items() if v["gold"]][:4]
        system = [k for k, v in rel.items() if v["system"]][:4]
        why = (f"system triples meet gold triples by their ids, never with the same relation (gold relations: "
               f"{', '.join(gold)}; system relations: {', '.join(system)}); --ignore-relations matches ids only")
    return [f"{result.inputs.system_path} against {result.inputs.gold_path}: nothing correct{naf}: {why}"]


def merge_results(results: list[TriplesResult], gold: str, system: str) -> TriplesResult:
    """``Task.merge``: the results of a corpus's shards as the result of the one folder they make — documents
    in the key shards' order, statistics columns as one run lays them out, warnings in one run's order (the
    system files' in their order).  The module's report reads the files again (:attr:`TriplesResult.prepared`)."""
    documents = tuple(d for r in results for d in r.inputs.documents)
    inputs = Inputs(gold, system, True, results[0].inputs.options, documents, any(r.inputs.naf for r in results),
                    shards=True)
    parts = [r.doc_stats for r in results]
    sources = [", ".join(d.gold_file for d in r.inputs.documents) for r in results]
    merged = TriplesResult(DocStats.concat(parts, sources, merged_layout(parts)), inputs)
    in_system_order = sorted(documents, key=lambda d: d.system_file)
    merged.warnings = run_warnings(merged, [w for d in documents for w in d.gold_warnings],
                                   [w for d in in_system_order for w in d.system_warnings])
    return merged


def precision_above_one(result: TriplesResult) -> list[str]:
    """The module's precision can pass 1: system triples told apart as duplicates can still each count a
    different gold triple.  A warning says so when it happens."""
    t, short = result.totals(), SHORT[result.variant]
    if t[f"correct_{short}"] <= t[f"unique_{short}"]:
        return []
    return [f"precision above 1 ({int(t[f'correct_{short}'])} correct of {int(t[f'unique_{short}'])} unique system "
            "triples): system triples the module counts as duplicates of each other matched different gold triples "
            "(the module's definition, kept)"]
