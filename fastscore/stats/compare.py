"""Paired significance tests of several systems against a baseline, and sweeps."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .._version import __version__
from ..errors import InputError, UsageError
from ..messages import shown
from ..pairing import pair
from .bootstrap import DEFAULT_SEED, f1_values, interval, jackknife_f1, resampling_warnings
from .docstats import DocStats
from .intervals import check_level, check_method
from .resample import bootstrap_values, check_budget, check_count, permutation_values
from .significance import MIN_TESTED, TESTS, holm, mark, paired_bootstrap_p, permutation_p


def check_same_documents(gold_names: list[str], name: str, names: list[str]) -> None:
    """A system must cover exactly the gold's documents to be compared or swept (resamples of documents pair
    each gold document with every system's): the error says how to make it so."""
    paired = pair(gold_names, names)
    missing, extra = paired.missing, paired.extra
    if missing or extra:
        what, remedy = [], []
        if missing:
            what.append(f"{len(missing)} gold document(s) missing (first: \"{shown(missing[0])}\")")
            remedy.append("add them to the system output (empty where the system found nothing: a score counts a "
                          "missing document as empty), or compare on a gold holding only the documents every system "
                          "has")
        if extra:
            what.append(f"{len(extra)} document(s) not in the gold (first: \"{shown(extra[0])}\")")
            remedy.append("leave the documents the gold lacks out of the system output")
        raise InputError(f"{name}: " + " and ".join(what) + ": systems must be scored on the gold's documents: "
                         + "; ".join(remedy))


def _in_baseline_order(name: str, st: DocStats, base: DocStats) -> DocStats:
    """A system's statistics in the baseline's document order; an InputError when its documents differ."""
    same = st.in_order(base.doc_names)
    if same is not None:
        return same
    theirs, ours = set(base.doc_names), set(st.doc_names)
    missing = next((n for n in base.doc_names if n not in ours), None)
    extra = next((n for n in st.doc_names if n not in theirs), None)
    what = ([f'the baseline\'s document "{shown(missing)}" is missing'] if missing is not None else []) + (
        [f'document "{shown(extra)}" is not the baseline\'s'] if extra is not None else [])
    raise InputError(f"{shown(name)}: documents differ from the baseline's: "
                     + (" and ".join(what) or "a document is there a different number of times"))


class _Frame:
    def to_pandas(self):
        """As a ``pandas.DataFrame`` (needs pandas)."""
        from ..frames import to_pandas

        return to_pandas(self.to_arrow())


@dataclass
class SystemComparison:
    name: str
    score: float
    ci: tuple[float, float]
    delta: float
    delta_ci: tuple[float, float]
    p_value: float | None  # None: no test on fewer than MIN_TESTED documents
    p_adjusted: float | None = 1.0
    deltas: np.ndarray | None = None  # bootstrap distribution of the difference

    def to_dict(self) -> dict:
        return {"name": self.name, "score": self.score, "ci": list(self.ci), "delta": self.delta,
                "delta_ci": list(self.delta_ci), "p_value": self.p_value, "p_adjusted": self.p_adjusted}


@dataclass
class Comparison(_Frame):
    task: str
    metric: str
    test: str
    resamples: int
    seed: int | None
    level: float
    baseline_name: str
    baseline_score: float
    baseline_ci: tuple[float, float]
    systems: list[SystemComparison] = field(default_factory=list)
    method: str = "percentile"  # of the intervals
    options: dict = field(default_factory=dict)  # the task's scoring options, for the signature
    warnings: list[str] = field(default_factory=list)  # intervals and p-values that mean little
    count: bool = False  # the metric is a count (an error type of explain), not an F1

    def signature(self) -> str:
        return (f"compare|task:{self.task}|metric:{self.metric}|test:{self.test}|resamples:{self.resamples}"
                f"|seed:{self.seed}|ci:{self.level}|ci-method:{self.method}{_options(self.options)}"
                f"|version:{__version__}")

    def to_dict(self) -> dict:
        return {"task": self.task, "metric": self.metric, "test": self.test, "resamples": self.resamples,
                "seed": self.seed, "ci_level": self.level,
                "baseline": {"name": self.baseline_name, "score": self.baseline_score, "ci": list(self.baseline_ci)},
                "systems": [s.to_dict() for s in self.systems], "signature": self.signature()}

    def to_arrow(self):
        import pyarrow as pa

        rows = [s.to_dict() for s in self.systems]
        return pa.table({k: [r[k] for r in rows] for k in rows[0]}) if rows else pa.table({})

    def mark(self, s: SystemComparison) -> str:
        return mark(s.p_adjusted)


def _options(options: dict | None) -> str:
    from ..result import signed

    return "".join(f"|{k}:{signed(v)}" for k, v in (options or {}).items())


def compare_stats(baseline: tuple[str, DocStats], systems: list[tuple[str, DocStats]], metric: str,
                  test: str = "bootstrap", resamples: int = 10000, seed: int | None = DEFAULT_SEED,
                  level: float = 0.95, method: str = "percentile", *, task: str,
                  options: dict | None = None) -> Comparison:
    """Compare systems to a baseline on per-document statistics of the same documents (a system's in another
    order are put in the baseline's: shards cut otherwise give the same numbers).

    ``options`` (the task's scoring options) go into the signature.  Keeps ``resamples`` F1 values per
    system and the baseline (refused beyond ``resample.SAMPLE_BUDGET`` bytes)."""
    if test not in TESTS:
        raise UsageError(f"unknown test {test!r}: choose from {', '.join(TESTS)}")
    check_method(method)
    check_level(level)
    resamples = check_count(resamples)
    if not systems:
        raise UsageError("compare needs at least one system besides the baseline")
    base_name, base = baseline
    systems = [(name, _in_baseline_order(name, st, base)) for name, st in systems]
    kept = len(systems) + 1
    check_budget(resamples, kept, f"{kept} systems, the baseline included",
                 working=3 if test == "permutation" else 2)
    base = base.of_metrics([metric])  # its columns only (an unknown metric fails here, before any draw)
    systems = [(name, st.of_metrics([metric])) for name, st in systems]
    value = f1_values(base, metric)
    scores = [v for (v,) in bootstrap_values([base.matrix] + [st.matrix for _, st in systems],
                                             [[value]] * kept, resamples, seed, base.strata)]
    point = [float(base.f1(metric, st.total())[0]) for st in [base] + [s for _, s in systems]]
    jack = jackknife_f1(base, metric) if method == "bca" else None
    out = Comparison(task, metric, test, resamples, seed, level, base_name, point[0],
                     interval(scores[0], point[0], jack, level, method), method=method, options=dict(options or {}),
                     warnings=resampling_warnings(len(base), resamples, p_values=True),
                     count=getattr(base.registry.get(metric), "count", False))
    for k, (name, st) in enumerate(systems, start=1):
        delta = point[k] - point[0]
        jk = jackknife_f1(st, metric) if method == "bca" else None
        ci = interval(scores[k], point[k], jk, level, method)
        deltas = scores[k]
        deltas -= scores[0]  # in place: the system's F1 values are no longer needed
        scores[k] = None
        if len(base) < MIN_TESTED:  # every resample is the one document: the test cannot say anything
            p = None
        elif test == "bootstrap":
            p = paired_bootstrap_p(deltas, delta)
        else:
            p = permutation_p(permutation_values(base.matrix, st.matrix, value, resamples, seed), delta)
        jd = jk - jack if method == "bca" else None
        out.systems.append(SystemComparison(name, point[k], ci, delta, interval(deltas, delta, jd, level, method),
                                            p, deltas=deltas))
    tested = len(base) >= MIN_TESTED
    for s, adj in zip(out.systems, holm([s.p_value for s in out.systems]) if tested else [None] * len(out.systems)):
        s.p_adjusted = adj
    return out


@dataclass
class SweepRow:
    name: str
    score: float
    ci: tuple[float, float] | None
    metrics: dict[str, float]

    def to_dict(self) -> dict:
        return {"name": self.name, "score": self.score, "ci": None if self.ci is None else list(self.ci),
                "metrics": self.metrics}


@dataclass
class Sweep(_Frame):
    task: str
    metric: str
    resamples: int
    seed: int | None
    level: float
    systems: list[SweepRow] = field(default_factory=list)
    method: str = "percentile"  # of the intervals
    options: dict = field(default_factory=dict)  # the task's scoring options, for the signature
    warnings: list[str] = field(default_factory=list)  # intervals that mean little
    count: bool = False  # the metrics are counts (error types of explain), not F1

    def signature(self) -> str:
        resampling = (f"|seed:{self.seed}|ci:{self.level}|ci-method:{self.method}" if self.resamples else "")
        return (f"sweep|task:{self.task}|metric:{self.metric}|resamples:{self.resamples}{resampling}"
                f"{_options(self.options)}|version:{__version__}")

    def to_dict(self) -> dict:
        return {"task": self.task, "metric": self.metric, "resamples": self.resamples, "seed": self.seed,
                "ci_level": self.level, "systems": [s.to_dict() for s in self.systems],
                "signature": self.signature()}

    def to_arrow(self):
        import pyarrow as pa

        rows = self.systems
        data = {"name": [r.name for r in rows], "score": [r.score for r in rows],
                "ci_low": [None if r.ci is None else r.ci[0] for r in rows],
                "ci_high": [None if r.ci is None else r.ci[1] for r in rows]}
        for m in (rows[0].metrics if rows else {}):
            data[m] = [r.metrics[m] for r in rows]
        return pa.table(data)


def sweep_stats(systems: list[tuple[str, DocStats]], metric: str, metrics: list[str], resamples: int = 0,
                seed: int | None = DEFAULT_SEED, level: float = 0.95, method: str = "percentile", *,
                task: str, options: dict | None = None) -> Sweep:
    """Rank systems by ``metric`` F1 (best first), with bootstrap intervals when ``resamples`` > 0.

    ``options`` (the task's scoring options) go into the signature.  Systems are resampled one after
    the other, each keeping ``resamples`` F1 values (refused beyond ``resample.SAMPLE_BUDGET`` bytes)."""
    check_method(method)
    check_level(level)
    out = Sweep(task, metric, resamples, seed, level, method=method, options=dict(options or {}),
                count=bool(systems) and getattr(systems[0][1].registry.get(metric), "count", False))
    if resamples:
        check_count(resamples)
        check_budget(resamples, 1, "1 system at a time")
        if systems:
            out.warnings = resampling_warnings(len(systems[0][1]), resamples)
    for name, st in systems:
        total = st.total()
        score = float(st.f1(metric, total)[0])
        ci = None
        if resamples:
            own = st.of_metrics([metric])  # its columns only
            ((samples,),) = bootstrap_values([own.matrix], [[f1_values(own, metric)]], resamples, seed, own.strata)
            jack = jackknife_f1(st, metric) if method == "bca" else None
            ci = interval(samples, score, jack, level, method)
        out.systems.append(SweepRow(name, score, ci, {m: float(st.f1(m, total)[0]) for m in metrics}))
    out.systems.sort(key=lambda r: r.score if out.count else -r.score)  # best first (fewest errors); stable
    return out
