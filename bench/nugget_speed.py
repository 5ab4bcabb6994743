#!/usr/bin/env python3
"""Event nuggets with coreference on the 5,000-document benchmark corpus: the whole in-process scoring from
the files (reading included) and the warm command line, best of ``--repeat``.

    python bench/nugget_speed.py [--repeat 3]

The corpus is scripts/gen_nuggets.py's default (seeded), kept in bench/.corpus/nuggets-5000.
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import time
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    from gen_nuggets import generate

    import fastscore

    out = ROOT / "bench" / ".corpus" / "nuggets-5000"
    if not (out / "gold.tbf").exists():
        generate(out)
    gold, system = out / "gold.tbf", out / "system.tbf"
    options = {"coref": True, "char_spans": True}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fastscore.score_nugget(gold, system, **options)  # kernels loaded
        times = []
        for _ in range(a.repeat):
            t = time.perf_counter()
            fastscore.score_nugget(gold, system, **options)
            times.append(time.perf_counter() - t)
    cmd = [sys.executable, "-m", "fastscore", "nugget", gold, system, "--coref", "--char-spans"]
    subprocess.run(cmd, capture_output=True)  # the cache filled
    cli = []
    for _ in range(a.repeat):
        t = time.perf_counter()
        subprocess.run(cmd, capture_output=True, check=True)
        cli.append(time.perf_counter() - t)
    print(f"in-process, from the files: {min(times):.2f} s; warm CLI: {min(cli):.2f} s (best of {a.repeat})")


if __name__ == "__main__":
    main()
