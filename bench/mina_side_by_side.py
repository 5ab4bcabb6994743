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
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
PY = sys.executable


def best(cmd, repeat: int, cwd=None) -> tuple[float, str]:
    times, out = [], ""
    for _ in range(repeat):
        t = time.perf_counter()
        p = subprocess.run(cmd, capture_output=True, text=True, cwd=cwd)
        times.append(time.perf_counter() - t)
        if p.returncode != 0:
            sys.exit(f"failed: {' '.join(map(str, cmd))}\n{p.stderr}")
        out = p.stdout
    return min(times), out


def in_process(key, resp, repeat: int, **options) -> float:
    from fastscore import score_coref

    score_coref(key, resp, **options)  # caches loaded
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        score_coref(key, resp, **options)
        times.append(time.perf_counter() - t)
    return min(times)


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
    rows = []
    exact_cli, _ = best(cli, a.repeat)
    mina_cli, mina_out = best(cli + ["--match", "mina", "--output", "coval"], a.repeat)
    rows.append(("fastscore CLI, exact", exact_cli))
    rows.append(("fastscore CLI, --match mina", mina_cli))
    exact_in = in_process(key, resp, a.repeat)
    mina_in = in_process(key, resp, a.repeat, match="mina")
    rows.append(("fastscore in-process (from paths), exact", exact_in))
    rows.append(("fastscore in-process (from paths), mina", mina_in))
    agree = None
    if a.coval:
        plain, _ = best([a.python, "scorer.py", key, resp], 1, cwd=a.coval)
        minimum, coval_out = best([a.python, "scorer.py", key, resp, "min_span"], 1, cwd=a.coval)
        rows.append(("coval scorer.py", plain))
        rows.append(("coval scorer.py min_span", minimum))
        wanted = [line for line in coval_out.splitlines() if line.split()[:1] and line.split()[0] in (
            "mentions", "muc", "bcub", "ceafe", "lea", "CoNLL")]
        agree = wanted == mina_out.splitlines()
    print(f"corpus: {key} ({a.docs} documents, ~{a.tokens} tokens)")
    for name, t in rows:
        print(f"{name:45s} {t:8.3f} s")
    print(f"mina / exact: CLI {mina_cli / exact_cli:.2f}x, in-process {mina_in / exact_in:.2f}x")
    if a.coval:
        print(f"coval min_span / fastscore mina: CLI {minimum / mina_cli:.0f}x, in-process {minimum / mina_in:.0f}x")
        print(f"coval's printed lines identical: {agree}")


if __name__ == "__main__":
    main()
