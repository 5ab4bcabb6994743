#!/usr/bin/env python3
"""Resampling beside a plain scoring run, warm, on the CoNLL-2012-test-sized corpus (bench/conftest.py), in one run.

    python bench/resample_startup.py [--repeat 5] [--resamples 10000] [--source DIR]

Times (wall and CPU, each the best of ``--repeat``, the commands taking turns so that a busy machine slows them
alike):

- ``fastscore coref KEY RESPONSE`` (the plain run);
- ``fastscore compare KEY RESPONSE-1 RESPONSE-2 --resamples N`` (paired bootstrap, two systems scored);
- ``fastscore coref KEY RESPONSE --bootstrap N`` (intervals of every metric);
- ``fastscore compare ... --test permutation`` (approximate randomization, for reference);

then each one's ratio to the plain run (issue 30's target: compare with 10,000 resamples <= 1.5x) and whether
the resampling runs imported numba (with the kernels compiled ahead of time they should not).  ``--source DIR``
runs the fastscore of another checkout (an older commit, to time the change), this one by default.
"""
from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench.conftest import corpus  # noqa: E402

# the console entry point's process, saying on stderr whether numba was imported
RUN = ("import sys\nfrom fastscore.cli import main\ncode = main(sys.argv[1:], own_process=True)\n"
       "sys.stdout.flush()\nprint('numba imported:', 'numba' in sys.modules, file=sys.stderr)\nsys.exit(code)")


def run(args: list, source: Path) -> tuple[float, float, bool]:
    """(wall seconds, CPU seconds, whether numba was imported) of one ``fastscore ARGS`` in a fresh process."""
    # Python keeps its bytecode caches, as an installation has them (a sandbox's PYTHONDONTWRITEBYTECODE would have
    # each run compile fastscore's modules, and a resampling run imports more of them)
    env = {k: v for k, v in os.environ.items()
           if k not in ("NUMBA_DISABLE_JIT", "FASTSCORE_JIT", "PYTHONDONTWRITEBYTECODE")}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    p = subprocess.run([sys.executable, "-c", RUN, *map(str, args)], capture_output=True, text=True, env=env,
                       cwd=source)  # python -c imports fastscore from its working folder
    dt = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode != 0:
        sys.exit(f"failed: fastscore {' '.join(map(str, args))}\n{p.stderr}")
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return dt, cpu, "numba imported: True" in p.stderr


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--resamples", type=int, default=10000)
    ap.add_argument("--source", type=Path, default=ROOT, help="the checkout whose fastscore runs (default: this one)")
    a = ap.parse_args()
    print(f"fastscore of {a.source}")
    key, resp, resp2 = corpus("conll2012-test", responses=2)
    n = str(a.resamples)
    runs = {
        "coref KEY RESPONSE (plain run)": ["coref", key, resp],
        f"compare KEY R1 R2 --resamples {n}": ["compare", key, resp, resp2, "--resamples", n],
        f"coref KEY RESPONSE --bootstrap {n}": ["coref", key, resp, "--bootstrap", n],
        f"compare ... --test permutation --resamples {n}": ["compare", key, resp, resp2, "--resamples", n,
                                                            "--test", "permutation"],
    }
    for args in runs.values():  # warm-up: numba's cache filled where the JIT is used, files in the page cache
        run(args, a.source)
    wall = {name: float("inf") for name in runs}
    cpu = dict(wall)
    numba = {}
    for _ in range(a.repeat):
        for name, args in runs.items():
            dt, used, numba[name] = run(args, a.source)
            wall[name], cpu[name] = min(wall[name], dt), min(cpu[name], used)
    first = next(iter(runs))
    print(f"{'best of ' + str(a.repeat):50s} {'wall':>7s} {'ratio':>6s} {'CPU':>7s} {'ratio':>6s}")
    for name in runs:
        print(f"{name:50s} {wall[name]:6.2f}s {wall[name] / wall[first]:5.2f}x {cpu[name]:6.2f}s "
              f"{cpu[name] / cpu[first]:5.2f}x  numba imported: {numba[name]}")
    compare = f"compare KEY R1 R2 --resamples {n}"
    print(f"compare {n} resamples / plain run = {wall[compare] / wall[first]:.2f} wall, "
          f"{cpu[compare] / cpu[first]:.2f} CPU (target <= 1.5)")


if __name__ == "__main__":
    main()
