#!/usr/bin/env python3
"""Start-up: the first run after installation (empty numba cache) and warm runs, beside v8.01, in one run.

    python bench/startup.py [--perl-scorer DIR/scorer.pl] [--repeat 3]

Measured (wall time, best of ``--repeat`` for warm runs; every cold run starts from an empty
``NUMBA_CACHE_DIR`` and its own temporary folder, and the background compilation it starts is waited for
before anything else is timed):

- the bundled example (``fastscore coref example example``): cold, and warm; the issue's target is
  cold <= 3x warm;
- the same example compiling in the run itself (``FASTSCORE_JIT=always``, the behaviour before), for
  reference;
- the CoNLL-2012-test-sized corpus (bench/conftest.py), all metrics: v8.01 ``all``, fastscore cold
  (the kernels compiled at installation, or else plain-Python kernels, compiled in the background
  afterwards) and warm, and warm with numba's JIT (``FASTSCORE_JIT=always``, as without the compiled
  kernels);
- a small event nugget corpus (50 documents, scripts/gen_nuggets.py): cold and warm (target: cold <= 2x
  warm).

Prints the times and the ratios.
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
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))
from bench.conftest import corpus  # noqa: E402

PY = sys.executable


def run(cmd, env=None) -> float:
    t = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    dt = time.perf_counter() - t
    if p.returncode != 0:
        sys.exit(f"failed: {' '.join(map(str, cmd))}\n{p.stderr}")
    return dt


def clean_env(**extra) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_DISABLE_JIT", "FASTSCORE_JIT", "NUMBA_CACHE_DIR")}
    env.update({k: str(v) for k, v in extra.items()})
    return env


def wait_for_background(tmp: str, timeout: float = 900) -> None:
    """Until no compiling lock is left in this user's folder in ``tmp`` (the background compilation has
    finished)."""
    deadline = time.time() + timeout
    time.sleep(0.5)
    folder = os.path.join(tmp, f"fastscore-{os.getuid()}")
    while time.time() < deadline and os.path.isdir(folder) and any(n.startswith("compiling-")
                                                                   for n in os.listdir(folder)):
        time.sleep(0.5)


def cold_and_warm(args: list, repeat: int) -> tuple[float, float]:
    """(cold seconds, warm seconds) of ``fastscore ARGS``, the cache filled in between by the background
    compilation the cold run starts."""
    tmp = tempfile.mkdtemp(prefix="fastscore-startup-")
    env = clean_env(NUMBA_CACHE_DIR=os.path.join(tmp, "cache"), TMPDIR=tmp)
    cold = run([PY, "-m", "fastscore", *args], env)
    wait_for_background(tmp)
    run([PY, "-m", "fastscore", *args], {**env, "FASTSCORE_JIT": "always"})  # whatever the background missed
    warm = min(run([PY, "-m", "fastscore", *args], env) for _ in range(repeat))
    return cold, warm


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--perl-scorer", type=Path)
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    from fastscore.first_run import compiled_kernels

    print("kernels compiled ahead of time:", "installed, current" if compiled_kernels() else "no (numba's JIT)")
    rows = []
    cold, warm = cold_and_warm(["coref", "example", "example"], a.repeat)
    rows.append(("example: cold (empty cache)", cold))
    rows.append(("example: warm", warm))
    tmp = tempfile.mkdtemp(prefix="fastscore-startup-")
    in_place = run([PY, "-m", "fastscore", "coref", "example", "example"],
                   clean_env(NUMBA_CACHE_DIR=os.path.join(tmp, "cache"), TMPDIR=tmp, FASTSCORE_JIT="always"))
    rows.append(("example: cold, compiling in the run (before)", in_place))
    print(f"example: cold / warm = {cold / warm:.2f} (target <= 3)", flush=True)

    key, resp = corpus("conll2012-test")
    perl = None
    if a.perl_scorer:
        perl = run(["perl", a.perl_scorer, "all", key, resp, "none"])
        rows.append(("test-sized corpus: v8.01 all", perl))
        print(f"v8.01 all: {perl:.2f} s", flush=True)
    c_cold, c_warm = cold_and_warm(["coref", key, resp], a.repeat)
    print(f"test-sized corpus: cold {c_cold:.2f} s, warm {c_warm:.2f} s", flush=True)
    rows.append(("test-sized corpus: fastscore cold (empty cache)", c_cold))
    rows.append(("test-sized corpus: fastscore warm", c_warm))
    jit_warm = min(run([PY, "-m", "fastscore", "coref", key, resp], clean_env(FASTSCORE_JIT="always"))
                   for _ in range(a.repeat))
    rows.append(("test-sized corpus: fastscore warm, numba's JIT", jit_warm))

    from gen_nuggets import generate

    nug = ROOT / "bench" / ".corpus" / "nuggets-50"
    if not (nug / "gold.tbf").exists():
        generate(nug, docs=50)
    n_cold, n_warm = cold_and_warm(["nugget", nug / "gold.tbf", nug / "system.tbf", "--coref", "--char-spans"], a.repeat)
    rows.append(("nugget, 50 documents: cold (empty cache)", n_cold))
    rows.append(("nugget, 50 documents: warm", n_warm))

    for name, t in rows:
        print(f"{name:50s} {t:8.2f} s")
    print(f"example: cold / warm = {cold / warm:.2f} (target <= 3); compiling in the run was "
          f"{in_place / warm:.0f}x warm")
    if perl:
        print(f"test-sized corpus: v8.01 / fastscore cold = {perl / c_cold:.2f} (target > 1); "
              f"v8.01 / fastscore warm = {perl / c_warm:.1f} (target >= 20)")
    print(f"nugget: cold / warm = {n_cold / n_warm:.2f} (target <= 2)")


if __name__ == "__main__":
    main()
