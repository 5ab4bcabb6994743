#!/usr/bin/env python3
"""`fastscore explain` beside `fastscore coref` on a response that merges every key entity into one.

    python bench/explain_merged.py [--entities 10000] [--repeat 3]

The key holds ``--entities`` entities of four one-word mentions (interleaved, one word in seven a pronoun);
the response one entity of all their mentions: one confusion group of every key entity, where the
Analyser's operations used to pair each key entity with each part (28-32 s for 10,000 entities where coref
takes 2 s; 268 s for 20,000).  Measured, best of ``--repeat``: the CLI's wall time and the CPU time of its
process (steadier on a shared machine); printed: both and explain's ratio to coref (issue 35's target: a
few times).
"""
from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def write_merged(folder: Path, entities: int) -> tuple[Path, Path]:
    """key.conll and response.conll in ``folder``: ``entities`` four-mention entities, and all of them merged."""
    order = [e for _ in range(4) for e in range(entities)]
    paths = []
    for name, merged in (("key", False), ("response", True)):
        lines = ["#begin document (merged); part 000"]
        for i, e in enumerate(order):
            word = "he" if i % 7 == 3 else f"w{i}"
            lines.append(f"merged\t0\t{i % 50}\t{word}\t({0 if merged else e})")
            if i % 50 == 49:
                lines.append("")
        path = folder / f"{name}.conll"
        path.write_text("\n".join(lines) + "\n\n#end document\n", encoding="utf-8")
        paths.append(path)
    return paths[0], paths[1]


def best_run(cmd: list[str], repeat: int) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of the fastest of ``repeat`` runs."""
    runs = []
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(cmd, capture_output=True, check=True, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        runs.append((wall, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime))
    return min(runs)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--entities", type=int, default=10_000)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        key, response = write_merged(Path(tmp), args.entities)
        times = {}
        for command in ("coref", "explain"):
            times[command] = best_run([sys.executable, "-m", "fastscore", command, str(key), str(response)],
                                      args.repeat)
            wall, cpu = times[command]
            print(f"fastscore {command:8} {args.entities} merged entities: {wall:6.2f} s wall, {cpu:6.2f} s CPU")
        ratio_wall = times["explain"][0] / times["coref"][0]
        ratio_cpu = times["explain"][1] / times["coref"][1]
        print(f"explain / coref: {ratio_wall:.1f}x wall, {ratio_cpu:.1f}x CPU")


if __name__ == "__main__":
    main()
