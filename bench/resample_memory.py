"""Bounded-memory resampling (issue 13): 10,000 bootstrap resamples, and a 10,000-resample paired comparison of two
systems, over corpora of up to 1M documents; wall time and peak memory of each, measured in a fresh process.

    python bench/resample_memory.py [--docs 10000,100000,1000000] [--resamples 10000]

Per-document statistics are generated (coreference columns, integer counts of realistic sizes): resampling
reads nothing else, so scoring 1M real documents first would only add time.  "extra" is the peak minus the
memory held once the statistics exist: what resampling itself costs (target: 10,000 resamples over 1M
documents within 1 GB).
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys

CHILD = r"""
import json, resource, sys, time
import numpy as np
from fastscore.coref.metrics import METRICS, SCORED
from fastscore.metrics import layout_of
from fastscore.stats.bootstrap import bootstrap_stats
from fastscore.stats.compare import compare_stats
from fastscore.stats.docstats import DocStats

n, resamples, what = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]


def stats(seed):
    rng = np.random.default_rng(seed)
    columns = {c: rng.integers(0, 60, n).astype(np.float64) for c in layout_of(METRICS)}
    return DocStats.from_columns([f"d{i}" for i in range(n)], columns, METRICS)


a, b = stats(1), stats(2)
kb = lambda: resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
held = kb()
start = time.perf_counter()
if what == "bootstrap":
    out = bootstrap_stats(a, [*SCORED, "conll"], resamples, seed=12345).intervals["conll"]
else:
    out = compare_stats(("a", a), [("b", b)], "conll", "bootstrap", resamples, task="coref").systems[0].p_value
print(json.dumps({"seconds": time.perf_counter() - start, "held_mb": held / 1024, "peak_mb": kb() / 1024,
                  "value": str(out)}))
"""


def run(n: int, resamples: int, what: str) -> dict:
    done = subprocess.run([sys.executable, "-c", CHILD, str(n), str(resamples), what], capture_output=True,
                          text=True, check=True)
    return json.loads(done.stdout)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--docs", default="10000,100000,1000000")
    ap.add_argument("--resamples", type=int, default=10000)
    args = ap.parse_args()
    print(f"{'documents':>10} {'what':>22} {'seconds':>8} {'held MB':>8} {'peak MB':>8} {'extra MB':>9}")
    for n in (int(x) for x in args.docs.split(",")):
        for what, label in (("bootstrap", "bootstrap, 7 metrics"), ("compare", "paired bootstrap, 2 sys")):
            r = run(n, args.resamples, what)
            print(f"{n:>10} {label:>22} {r['seconds']:>8.2f} {r['held_mb']:>8.0f} {r['peak_mb']:>8.0f} "
                  f"{r['peak_mb'] - r['held_mb']:>9.0f}", flush=True)


if __name__ == "__main__":
    main()
