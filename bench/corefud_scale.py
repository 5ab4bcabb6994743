#!/usr/bin/env python3
"""CorefUD scoring at scale (issue 10: 1M tokens in <= 3 s and <= 1 GB).

    python bench/corefud_scale.py [--docs 400 --sentences 120000 | --double] [--match head ...]
        [--batch-size 16M ... [--jobs 1 ...]]
        [--scorer DIR/corefud-scorer.py --python VENV/bin/python [--slice-docs 40 --slice-sentences 12000]]

Generates (once, in bench/.corpus/corefud, with scripts/gen_conllu.py: ~8.5 tokens a sentence, so the
defaults give ~1M tokens in 400 documents; generating them takes ~15 CPU minutes) a seeded key and
response -- or, with --double, takes the corpus of half as many sentences and writes it twice (the
second copy's documents and sentences renamed ``copy-...``: 2 x DOCS documents of the same size) -- and
times the fastscore CLI on them (warm: the numba cache filled first), wall seconds and peak MB, in every matching given with
--match.  The CorefUD scorer is far too slow for 1M tokens on a shared machine: with --scorer it runs on
a ~100k-token corpus of documents of the same size (--slice-*), beside fastscore on the same files, for
the ratio, and the two reports are compared.  With --batch-size (issue 13), each matching is timed again
with the files read in batches of that size, for each --jobs (default 1 and 2), and the report compared with
the files read whole (peak MB: the largest single process, so with --jobs 2 a worker or the parent).
"""
from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench.corefud_side_by_side import corpus
from bench.side_by_side import PY


def tokens(path: Path) -> int:
    n = 0
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            if line[:1].isdigit() and line.split("\t", 1)[0].isdigit():
                n += 1
    return n


def doubled(key: Path, response: Path) -> tuple[Path, Path]:
    """The files twice over, the second copy's document and sentence ids renamed."""
    out = []
    for path in (key, response):
        target = path.with_name("x2-" + path.name)
        if not target.exists():
            text = path.read_text(encoding="utf-8")
            copy = re.sub(r"^# (newdoc id|sent_id) = ", r"# \1 = copy-", text, flags=re.MULTILINE)
            target.write_text(text + copy, encoding="utf-8")
        out.append(target)
    return out[0], out[1]


WRAPPER = (
    "import resource, subprocess, sys, time\n"
    "t = time.perf_counter()\n"
    "p = subprocess.run(sys.argv[1:], capture_output=True, text=True)\n"
    "dt = time.perf_counter() - t\n"
    "u = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
    "sys.stdout.write(f'{dt} {u.ru_utime + u.ru_stime} {u.ru_maxrss / 1024} {p.returncode}\\n' + p.stdout)\n"
)


def measured(cmd) -> tuple[float, float, float, str]:
    """(wall seconds, CPU seconds (user + system), peak RSS in MB, stdout) of a command (a machine shared
    with other work shows in the wall time more than in the CPU time)."""
    proc = subprocess.run([PY, "-c", WRAPPER, *map(str, cmd)], capture_output=True, text=True, check=False)
    head, _, out = proc.stdout.partition("\n")
    wall, cpu, mb, code = head.split()
    if code != "0":
        raise SystemExit(f"command failed ({code}): {' '.join(map(str, cmd))}\n{proc.stderr}")
    return float(wall), float(cpu), float(mb), out


def fastscore(key: Path, response: Path, match: str, runs: int = 3, *flags: str) -> tuple[float, float, float, str]:
    """The best of ``runs`` warm runs (the numba cache filled first)."""
    cmd = [PY, "-m", "fastscore", "coref", key, response, "--match", match, "-o", "corefud", *flags]
    measured(cmd)
    return min((measured(cmd) for _ in range(runs)), key=lambda m: m[0])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--docs", type=int, default=400)
    ap.add_argument("--sentences", type=int, default=120000)
    ap.add_argument("--double", action="store_true", help="the corpus of SENTENCES / 2, written twice")
    ap.add_argument("--match", action="append", choices=("exact", "partial", "head"),
                    help="matchings to time (repeat; default head)")
    ap.add_argument("--batch-size", action="append", metavar="SIZE", help="also time the files read in batches "
                    "of SIZE (repeat)")
    ap.add_argument("--jobs", action="append", type=int, help="with --batch-size: processes (repeat; default 1, 2)")
    ap.add_argument("--scorer", help="corefud-scorer.py of ufal/corefud-scorer (run on the slice only)")
    ap.add_argument("--python", default=PY, help="the Python that runs the scorer (with udapi installed)")
    ap.add_argument("--slice-docs", type=int, default=40)
    ap.add_argument("--slice-sentences", type=int, default=12000)
    args = ap.parse_args()
    matches = args.match or ["head"]
    if args.double:
        key, response = doubled(*corpus(args.docs, args.sentences // 2))
    else:
        key, response = corpus(args.docs, args.sentences)
    print(f"corpus: {args.docs * (2 if args.double else 1)} documents, {tokens(key)} tokens ({key.name})")
    for match in matches:
        wall, cpu, mb, whole = fastscore(key, response, match)
        print(f"fastscore --match {match:<8} {wall:8.2f} s wall {cpu:8.2f} s CPU {mb:8.0f} MB")
        for size in args.batch_size or []:
            for jobs in args.jobs or [1, 2]:
                wall, cpu, mb, out = fastscore(key, response, match, 3, "--batch-size", size, "--jobs", str(jobs))
                print(f"  --batch-size {size} --jobs {jobs}: {wall:8.2f} s wall {cpu:8.2f} s CPU {mb:8.0f} MB; "
                      f"report identical to the files read whole: {out == whole}")
    if args.scorer:
        key, response = corpus(args.slice_docs, args.slice_sentences)
        print(f"slice: {args.slice_docs} documents, {tokens(key)} tokens ({key.name})")
        for match in matches:
            wall, cpu, mb, ours = fastscore(key, response, match)
            t, c, m, theirs = measured([args.python, args.scorer, key, response, "-a", match])
            print(f"--match {match}: fastscore {wall:.2f} s wall {cpu:.2f} s CPU {mb:.0f} MB; corefud-scorer "
                  f"{t:.2f} s wall {c:.2f} s CPU {m:.0f} MB; ratio {t / wall:.0f}x wall, {c / cpu:.0f}x CPU; "
                  f"report identical: {ours == theirs}")


if __name__ == "__main__":
    main()
