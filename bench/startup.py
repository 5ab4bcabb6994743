#!/usr/bin/env python3
"""Start-up: every first call of issue 37's list, each in a fresh process with an empty numba cache, beside
v8.01 on the CoNLL-2012-test-sized corpus, in one run.

    python bench/startup.py [--perl-scorer DIR/scorer.pl] [--repeat 3]

Each call runs in a new Python process (``python -c``: the interpreter's start-up and fastscore's imports
included) whose ``NUMBA_CACHE_DIR`` is a new empty folder; its wall time is from the process's start to its
exit, best of ``--repeat``.  Printed per call: the seconds, whether the process imported numba (which it
does only to compile a kernel nothing was compiled for) and whether it stayed within the issue's 3 s.  Then
the test-sized corpus: v8.01 ``all`` (with ``--perl-scorer``), fastscore's first run and a warm one.
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
TARGET_SECONDS = 3.0

# the process's code: a command (sys.argv[1:]) or an API call, then whether numba was imported, on stderr
COMMAND = ("import sys\nfrom fastscore.cli import main\ncode = main(sys.argv[1:], own_process=True)\n"
           "print('numba imported:', 'numba' in sys.modules, file=sys.stderr)\nsys.exit(code)")
API_SCORE = ("import sys, fastscore\nfrom fastscore.examples import KEY, RESPONSE\n"
             "print(fastscore.score_coref(str(KEY), str(RESPONSE)).f1('conll'))\n")
API_EVALUATOR = ("import sys, numpy as np, fastscore\nrng = np.random.default_rng(5)\n"
                 "ev = fastscore.CorefEvaluator()\nfor d in range(20):\n"
                 "    spans = np.sort(rng.integers(0, 30, size=(9, 2)), axis=1)\n"
                 "    ev.update((spans, rng.integers(0, 3, 9)), [tuple(map(tuple, spans[:4])), ((40, 41),)])\n"
                 "print(ev.get_f1())\n")
API_COVAL = ("import sys, fastscore\nfrom fastscore.examples import KEY, RESPONSE\n"
             "lines = lambda p: [l.rstrip('\\n') for l in open(p) if l.strip() and not l.startswith('#')]\n"
             "print(fastscore.coval.compute(predictions=[lines(RESPONSE)], references=[lines(KEY)]))\n")
NUMBA_LINE = "\nprint('numba imported:', 'numba' in sys.modules, file=sys.stderr)\n"


def run(cmd: list, env: dict) -> tuple[float, str]:
    t = time.perf_counter()
    p = subprocess.run(list(map(str, cmd)), capture_output=True, text=True, env=env, cwd=tempfile.gettempdir())
    dt = time.perf_counter() - t
    if p.returncode != 0:
        sys.exit(f"failed: {' '.join(map(str, cmd))}\n{p.stderr}")
    return dt, p.stderr


def fresh_env(**extra) -> dict:
    """This environment without fastscore's and numba's settings, with a new empty numba cache."""
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_DISABLE_JIT", "FASTSCORE_JIT", "NUMBA_CACHE_DIR")}
    env["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="fastscore-startup-cache-")
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))  # this checkout
    env.update({k: str(v) for k, v in extra.items()})
    return env


def first_call(cmd: list, repeat: int) -> tuple[float, bool]:
    """(best seconds, numba imported) of ``cmd`` run ``repeat`` times, each with an empty numba cache."""
    best, numba = float("inf"), False
    for _ in range(repeat):
        seconds, stderr = run(cmd, fresh_env())
        best = min(best, seconds)
        numba = numba or "numba imported: True" in stderr
    return best, numba


def calls() -> list[tuple[str, list]]:
    from fastscore.examples import EXAMPLES

    key, resp, resp2 = corpus("conll2012-test", responses=2)
    mina = EXAMPLES["mina"]
    cli = [PY, "-c", COMMAND]
    return [
        *[(f"fastscore {t} example example", [*cli, t, "example", "example"])
          for t in ("coref", "nugget", "temporal", "triples", "explain")],
        ("fastscore coref example example --format conllu", [*cli, "coref", "example", "example", "--format", "conllu"]),
        ("fastscore compare KEY A B --resamples 1000", [*cli, "compare", key, resp, resp2, "--resamples", "1000"]),
        ("fastscore coref KEY A --bootstrap 1000", [*cli, "coref", key, resp, "--bootstrap", "1000"]),
        ("fastscore coref KEY RESP --match mina (parsed)", [*cli, "coref", mina.key, mina.response, "--match", "mina"]),
        ("fastscore.score_coref(KEY, RESPONSE)", [PY, "-c", API_SCORE + NUMBA_LINE]),
        ("CorefEvaluator: update, get_f1()", [PY, "-c", API_EVALUATOR + NUMBA_LINE]),
        ("fastscore.coval.compute(...)", [PY, "-c", API_COVAL + NUMBA_LINE]),
    ]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--perl-scorer", type=Path)
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    from fastscore.first_run import kernels_status

    print(kernels_status())
    worst = 0.0
    for name, cmd in calls():
        seconds, numba = first_call(cmd, a.repeat)
        worst = max(worst, seconds)
        print(f"{name:52s} {seconds:6.2f} s  numba {'imported' if numba else 'not imported'}  "
              f"{'ok' if seconds <= TARGET_SECONDS else 'OVER ' + str(TARGET_SECONDS) + ' s'}", flush=True)
    print(f"slowest first call: {worst:.2f} s (target <= {TARGET_SECONDS:.0f} s)")

    key, resp = corpus("conll2012-test")
    cold, _ = run([PY, "-m", "fastscore", "coref", key, resp], fresh_env())
    warm = min(run([PY, "-m", "fastscore", "coref", key, resp], fresh_env())[0] for _ in range(a.repeat))
    print(f"test-sized corpus, all metrics: fastscore first run {cold:.2f} s, warm {warm:.2f} s")
    if a.perl_scorer:
        perl, _ = run(["perl", a.perl_scorer, "all", key, resp, "none"], dict(os.environ))
        print(f"test-sized corpus: v8.01 all {perl:.2f} s; v8.01 / fastscore first run = {perl / cold:.1f}, "
              f"v8.01 / fastscore warm = {perl / warm:.1f}")


if __name__ == "__main__":
    main()
