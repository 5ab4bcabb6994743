#!/usr/bin/env python3
"""fastscore beside the TempEval-3 toolkit, on the same TimeML folders, in one run.

    python bench/temporal_side_by_side.py --toolkit DIR/tempeval3_toolkit --python2 PY27 [--timeout 900]
                                          [--methods te3,acl11,implicit_in_recall] [--skip-big-toolkit]
                                          [--corpora timebank,big-1000,big-4000]

Generates (scripts/gen_timeml.py, seeded, kept in bench/.corpus) a TimeBank-sized corpus (183
documents, ~6,400 gold TLINKs), one document with ~1,000 and one with ~4,000 gold TLINKs, then per
corpus and method:

- the toolkit: ``TimeML-Normalizer.jar -a "GOLD;SYSTEM"`` (Java), then
  ``evaluate_entities.py`` and ``temporal_evaluation.py`` (Python 2.7) on the normalised folders
  (its ``TE3-evaluation.py`` cannot be given a temporary folder on Linux); wall time of the
  relation scorer alone and of all three steps;
- fastscore: the ``temporal`` command (``python -m fastscore temporal ... --output te3``) in a fresh
  process, warm (run once before), and ``score_temporal`` in-process on inputs already read (best of 5);
- agreement: fastscore's ``te3`` report must equal the toolkit's entity and relation lines.
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))
PY = sys.executable
# the command line as installed (``python -m fastscore``: the console entry point, which picks the compiled
# kernels), with Python's bytecode caches kept as an installation keeps them, from this checkout
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
ENV["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))


def corpus(name: str) -> tuple[Path, Path]:
    from gen_timeml import big, timebank, write_corpus

    out = ROOT / "bench" / ".corpus" / f"temporal-{name}"
    if not (out / "gold").is_dir():
        write_corpus(out, timebank() if name == "timebank" else big(int(name.split("-")[1])))
    return out / "gold", out / "system"


def run(cmd, cwd=None, timeout=None):
    """(seconds or None on timeout, completed process or None)."""
    t = time.perf_counter()
    try:
        p = subprocess.run(list(map(str, cmd)), cwd=cwd, capture_output=True, text=True, timeout=timeout, env=ENV)
    except subprocess.TimeoutExpired:
        return None, None
    return time.perf_counter() - t, p


def toolkit(args, gold: Path, system: Path, methods) -> dict:
    tmp = Path(tempfile.mkdtemp(prefix="te3-bench-"))
    try:
        shutil.copytree(gold, tmp / "gold")
        shutil.copytree(system, tmp / "system")
        tk = args.toolkit.resolve()
        t_norm, _ = run(["java", "-jar", "TimeML-Normalizer/TimeML-Normalizer.jar", "-a",
                         f"{tmp / 'gold'}/;{tmp / 'system'}/"], cwd=tk)
        gn, sn = f"{tmp / 'gold-normalized'}/", f"{tmp / 'system-normalized'}/"
        t_ent, p_ent = run([args.python2, "evaluation-entities/evaluate_entities.py", gn, sn, "0"], cwd=tk)
        out = {"normalise": t_norm, "entities": t_ent, "entity_lines": p_ent.stdout}
        for m in methods:
            cmd = [args.python2, "evaluation-relations/temporal_evaluation.py", gn, sn, "0"]
            cmd += [] if m == "te3" else [m]
            t, p = run(cmd, cwd=tk, timeout=args.timeout)
            out[m] = (t, None if p is None else p.stdout, None if p is None or p.returncode == 0 else p.stderr)
        return out
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def in_process(gold: Path, system: Path, method: str) -> float:
    from fastscore.temporal.score import read, score_temporal

    g, s = read(gold), read(system)
    score_temporal(g, s, evaluation_method=method)
    best = float("inf")
    for _ in range(5):
        t = time.perf_counter()
        score_temporal(g, s, evaluation_method=method)
        best = min(best, time.perf_counter() - t)
    return best


def fmt(x) -> str:
    return "timeout" if x is None else "not run" if x == "skipped" else f"{x:.2f} s"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--toolkit", type=Path, required=True, help="the tempeval3_toolkit folder")
    ap.add_argument("--python2", required=True, help="a Python 2.7 interpreter")
    ap.add_argument("--timeout", type=float, default=900, help="seconds per toolkit relation run")
    ap.add_argument("--methods", default="te3,acl11,implicit_in_recall")
    ap.add_argument("--skip-big-toolkit", action="store_true",
                    help="do not run the toolkit on the 4,000-TLINK document")
    ap.add_argument("--corpora", default="timebank,big-1000,big-4000",
                    help="which corpora (timebank, big-N: one document with about N gold TLINKs)")
    args = ap.parse_args()
    methods = args.methods.split(",")
    rows = []
    for name in args.corpora.split(","):
        gold, system = corpus(name)
        run([PY, "-m", "fastscore", "temporal", gold, system, "-o", "json"])  # compile / fill the numba cache
        skip = name == "big-4000" and args.skip_big_toolkit
        ref = None if skip else toolkit(args, gold, system, methods)
        for m in methods:
            t_cli, p = run([PY, "-m", "fastscore", "temporal", gold, system, "-o", "te3", "--method", m])
            row = {"corpus": name, "method": m, "cli": t_cli, "inproc": in_process(gold, system, m),
                   "tk_rel": "skipped", "tk_all": "skipped", "agree": "not run"}
            if ref is not None:
                t_rel, lines, err = ref[m]
                row["tk_rel"] = t_rel
                row["tk_all"] = None if t_rel is None else ref["normalise"] + ref["entities"] + t_rel
                if lines is not None:
                    if err:
                        row["agree"] = ("yes (both stop)" if p.returncode != 0 and "divides by zero" in p.stderr
                                        else "NO: " + err.strip().splitlines()[-1])
                    else:
                        row["agree"] = "yes" if p.stdout == ref["entity_lines"] + lines else "NO"
            rows.append(row)
            print(row, file=sys.stderr, flush=True)
    head = (f"{'corpus':<10}{'method':<20}{'toolkit rel.':>13}{'toolkit all':>13}{'fastscore CLI':>15}"
            f"{'in-process':>12}{'all/CLI':>9}{'rel./in-proc':>14}  agree")
    print(head)
    for r in rows:
        a = f"{r['tk_all'] / r['cli']:.0f}x" if isinstance(r["tk_all"], float) else "-"
        b = f"{r['tk_rel'] / r['inproc']:.0f}x" if isinstance(r["tk_rel"], float) else "-"
        print(f"{r['corpus']:<10}{r['method']:<20}{fmt(r['tk_rel']):>13}{fmt(r['tk_all']):>13}{fmt(r['cli']):>15}"
              f"{fmt(r['inproc']):>12}{a:>9}{b:>14}  {r['agree']}")


if __name__ == "__main__":
    main()
