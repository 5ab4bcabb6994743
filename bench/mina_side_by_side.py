#!/usr/bin/env python3
"""MINA: fastscore's minimum-span scoring beside exact matching and beside coval, on the same files.

    python bench/mina_side_by_side.py [--coval DIR] [--python PY] [--docs 348] [--tokens 170000] [--repeat 3]

Generates a CoNLL-2012-test-sized corpus with constituency parses (scripts/gen_parsed_corpus.py, seeded)
and measures, best of ``--repeat`` runs:

- fastscore CLI (the kernels compiled ahead of time, or a warm numba cache), exact matching and ``--match
  mina``;
- fastscore in-process ``score_coref`` from the paths (reading included), exact and mina;
- with ``--coval DIR`` (a checkout of ns-moosavi/coval, run with ``--python``, which needs numpy and
  scipy): ``scorer.py KEY RESPONSE`` and ``scorer.py KEY RESPONSE min_span`` once each, whether
  ``fastscore coref --output coval`` prints the same lines, and coval ``min_span``'s time over fastscore's
  mina on the command line and in process (issue 30's target: at least 50x).
"""
from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
PY = sys.executable


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def best(cmd, repeat: int, cwd=None) -> tuple[float, float, str]:
    """The best wall time and the best CPU time (user + system) of ``repeat`` runs of ``cmd``, and its output."""
    walls, cpus, out = [], [], ""
    for _ in range(repeat):
        t, c = time.perf_counter(), _children_cpu()
        p = subprocess.run(cmd, capture_output=True, text=True, cwd=cwd)
        walls.append(time.perf_counter() - t)
        cpus.append(_children_cpu() - c)
        if p.returncode != 0:
            sys.exit(f"failed: {' '.join(map(str, cmd))}\n{p.stderr}")
        out = p.stdout
    return min(walls), min(cpus), out


def in_process(key, resp, repeat: int, **options) -> tuple[float, float]:
    """Best wall and CPU time of ``score_coref`` from the paths, in this process, with the kernels compiled ahead
    of time when they are built (else numba's, their cache loaded by a first call)."""
    from fastscore import score_coref

    score_coref(key, resp, **options)  # caches loaded
    walls, cpus = [], []
    for _ in range(repeat):
        t, c = time.perf_counter(), time.process_time()
        score_coref(key, resp, **options)
        walls.append(time.perf_counter() - t)
        cpus.append(time.process_time() - c)
    return min(walls), min(cpus)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--coval", type=Path)
    ap.add_argument("--python", default=PY, help="interpreter for coval")
    ap.add_argument("--docs", type=int, default=348)
    ap.add_argument("--tokens", type=int, default=170_000)
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    from gen_parsed_corpus import generate

    out = ROOT / "bench" / ".corpus" / f"mina-d{a.docs}-t{a.tokens}"
    key, resp = out / "key.conll", out / "response.conll"
    if not (key.exists() and resp.exists()):
        generate(out, a.docs, a.tokens)
    cli = [PY, "-m", "fastscore", "coref", key, resp]
    best(cli + ["--match", "mina"], 1)  # fill the cache
    exact_cli = best(cli, a.repeat)
    mina_cli = best(cli + ["--match", "mina", "--output", "coval"], a.repeat)
    rows = [("fastscore CLI, exact", exact_cli[:2]), ("fastscore CLI, --match mina", mina_cli[:2])]
    exact_in = in_process(key, resp, a.repeat)
    mina_in = in_process(key, resp, a.repeat, match="mina")
    rows += [("fastscore in-process (from paths), exact", exact_in),
             ("fastscore in-process (from paths), mina", mina_in)]
    agree = None
    if a.coval:
        plain = best([a.python, "scorer.py", key, resp], 1, cwd=a.coval)
        minimum = best([a.python, "scorer.py", key, resp, "min_span"], 1, cwd=a.coval)
        rows += [("coval scorer.py", plain[:2]), ("coval scorer.py min_span", minimum[:2])]
        wanted = [line for line in minimum[2].splitlines() if line.split()[:1] and line.split()[0] in (
            "mentions", "muc", "bcub", "ceafe", "lea", "CoNLL")]
        agree = wanted == mina_cli[2].splitlines()
    print(f"corpus: {key} ({a.docs} documents, ~{a.tokens} tokens); best of {a.repeat} (coval: one run)")
    for name, (wall, cpu) in rows:
        print(f"{name:45s} {wall:8.3f} s  (CPU {cpu:.3f} s)")
    print(f"mina / exact: CLI {mina_cli[0] / exact_cli[0]:.2f}x, in-process {mina_in[0] / exact_in[0]:.2f}x")
    if a.coval:
        for what, i in (("wall", 0), ("CPU", 1)):
            print(f"coval min_span / fastscore mina ({what}): CLI {minimum[i] / mina_cli[i]:.0f}x, "
                  f"in-process {minimum[i] / mina_in[i]:.0f}x")
        print(f"coval's printed lines identical: {agree}")

if __name__ == "__main__":
    main()
