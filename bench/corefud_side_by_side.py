#!/usr/bin/env python3
"""fastscore beside the CorefUD scorer 1.2 on the same CoNLL-U files, in one run.

    python bench/corefud_side_by_side.py --scorer DIR/corefud-scorer.py --python VENV/bin/python
        [--docs 400] [--sentences 60000] [--match head] [--skip-scorer]

Generates (once, in bench/.corpus/corefud) a seeded key and response with
scripts/gen_conllu.py, then measures wall time and peak memory of the CorefUD
scorer and of the fastscore CLI (warm: the numba cache filled first) with the
same matching, prints the ratio, and checks that both print the same report.
The scorer is not part of fastscore: fetch ufal/corefud-scorer and install udapi
in a venv of its own.
"""
from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench.side_by_side import PY, timed  # noqa: E402

CORPUS = ROOT / "bench" / ".corpus" / "corefud"


def corpus(docs: int, sentences: int, seed: int = 7) -> tuple[Path, Path]:
    name = f"d{docs}-s{sentences}-r{seed}"
    key, response = CORPUS / f"{name}.key.conllu", CORPUS / f"{name}.response.conllu"
    if not (key.exists() and response.exists()):
        CORPUS.mkdir(parents=True, exist_ok=True)
        subprocess.run([PY, str(ROOT / "scripts" / "gen_conllu.py"), "--seed", str(seed), "--docs", str(docs),
                        "--sentences", str(sentences), "--out", str(CORPUS), "--name", name], check=True)
    return key, response


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scorer", help="corefud-scorer.py of ufal/corefud-scorer")
    ap.add_argument("--python", default=PY, help="the Python that runs the scorer (with udapi installed)")
    ap.add_argument("--docs", type=int, default=400)
    ap.add_argument("--sentences", type=int, default=60000)
    ap.add_argument("--match", choices=("exact", "partial", "head"), default="head")
    ap.add_argument("--skip-scorer", action="store_true", help="time fastscore only")
    args = ap.parse_args()
    key, response = corpus(args.docs, args.sentences)
    ours = [PY, "-m", "fastscore", "coref", key, response, "--match", args.match, "-o", "corefud"]
    timed(ours)  # fill the numba cache
    t_ours, mem_ours, out_ours = timed(ours)
    tokens = sum(1 for line in key.open() if line[:1].isdigit() and line.split("\t", 1)[0].isdigit())
    print(f"corpus: {args.docs} documents, {tokens} tokens ({key})")
    print(f"fastscore CLI (warm)  {t_ours:8.2f} s  {mem_ours:8.0f} MB")
    if args.scorer and not args.skip_scorer:
        theirs = [args.python, args.scorer, key, response, "-a", args.match]
        t_theirs, mem_theirs, out_theirs = timed(theirs)
        print(f"corefud-scorer 1.2     {t_theirs:8.2f} s  {mem_theirs:8.0f} MB")
        print(f"ratio                  {t_theirs / t_ours:8.1f}x")
        same = out_ours == out_theirs
        print(f"report identical: {same}")
        if not same:
            for a, b in zip(out_ours.splitlines(), out_theirs.splitlines()):
                if a != b:
                    print(f"  fastscore:      {a}\n  corefud-scorer: {b}")


if __name__ == "__main__":
    main()
