#!/usr/bin/env python3
"""fastscore beside the Triple evaluation module (cltl/TripleEvaluation, its current source built with
javac), on the same generated files, in one run.

    python bench/triples_side_by_side.py --classpath DRIVERS:BUILD:JAR [--sizes 1000,4000] [--files 100]
    python bench/triples_side_by_side.py --classpath BUILD:JAR --files 0     # the file pairs only

For each size, one gold/system file pair (``scripts/gen_triples.py big_pair``, seed 7) scored by
``java vu.tripleevaluation.evaluation.EvaluateTriples`` and by ``fastscore triples --output module``
(warm: the numba cache filled by a first run); then a folder pair of ``--files`` files of 500 triples
scored by ``EvaluateTripleFolders``'s steps (the ``DriverF`` of scripts/make_triples_anchors.py: files in
name order) and by ``fastscore triples FOLDER FOLDER``.  Prints wall times and
ratios, and checks that fastscore's ``--output module`` equals the module's report file (every line
after the folders' header and date).  LOCATION triples are not generated (the module drops them).
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
from gen_triples import big_corpus, big_pair, triple_xml  # noqa: E402

PY = sys.executable


def timed(cmd, cwd=None) -> tuple[float, str]:
    t = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=cwd, env=ENV)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(map(str, cmd))} failed:\n{proc.stderr}")
    return time.perf_counter() - t, proc.stdout


# the command line as installed (the console entry point, which picks the compiled kernels), with Python's
# bytecode caches kept as an installation keeps them, from this checkout
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
ENV["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))


def fastscore(*args) -> list[str]:
    return [PY, "-m", "fastscore", "triples", *map(str, args), "--location-defect"]


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--classpath", required=True, help="the module's classes and jar (':'-separated)")
    ap.add_argument("--sizes", default="1000,4000", help="triples per file of the file pairs")
    ap.add_argument("--files", type=int, default=100, help="files of 500 triples in the folder pair (0: no folder "
                    "pair, which needs the DriverF driver on the class path)")
    args = ap.parse_args(argv)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for n in [int(x) for x in args.sizes.split(",") if x]:
            gold, system = big_pair(n, 7)
            (work / f"gold-{n}.trp").write_text(triple_xml(gold), encoding="utf-8")
            (work / f"system-{n}.trp").write_text(triple_xml(system), encoding="utf-8")
            java_s, _ = timed(["java", "-cp", args.classpath, "vu.tripleevaluation.evaluation.EvaluateTriples",
                               "--gold-standard-triples", f"gold-{n}.trp", "--system-triples", f"system-{n}.trp"],
                              cwd=work)
            expected = (work / f"system-{n}.trp.xls").read_text(encoding="utf-8")
            timed(fastscore(f"gold-{n}.trp", f"system-{n}.trp"), cwd=work)  # warm the cache
            fast_s, out = timed(fastscore(f"gold-{n}.trp", f"system-{n}.trp", "--output", "module"), cwd=work)
            rows.append((f"file pair, {n:,} triples", java_s, fast_s, out == expected))
        if args.files:
            rows.append(folder_row(args.classpath, args.files, work))
    print(f"{'input':<40}{'module (s)':>12}{'fastscore (s)':>15}{'ratio':>9}  same report")
    for name, java_s, fast_s, same in rows:
        print(f"{name:<40}{java_s:>12.2f}{fast_s:>15.2f}{java_s / fast_s:>8.1f}x  {'yes' if same else 'NO'}")


def folder_row(classpath: str, files: int, work: Path) -> tuple:
    """The folder pair: ``files`` files of 500 triples a side, the module through ``DriverF``."""
    folder = work / "folders"
    for name, gold, system in big_corpus(files * 500, 7):
        for side, triples in (("gold", gold), ("system", system)):
            (folder / side).mkdir(parents=True, exist_ok=True)
            (folder / side / f"{name}.trp").write_text(triple_xml(triples), encoding="utf-8")
    java_s, _ = timed(["java", "-cp", classpath, "vu.tripleevaluation.evaluation.DriverF",
                       "--gold-standard-triples", "gold", "--system-triples", "system", "--out", "report.txt"],
                      cwd=folder)
    expected = (folder / "report.txt").read_text(encoding="utf-8")
    timed(fastscore("gold", "system"), cwd=folder)
    fast_s, out = timed(fastscore("gold", "system", "--output", "module"), cwd=folder)
    same = out.split("\n", 5)[5] == expected
    return f"folders, {files} files, {files * 500:,} triples", java_s, fast_s, same


if __name__ == "__main__":
    main()
