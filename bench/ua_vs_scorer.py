#!/usr/bin/env python3
"""fastscore vs the Universal Anaphora scorer, side by side on a generated corpus (scripts/gen_ua.py): about a
million tokens, key and response together, default options (coreference with split antecedents and singletons,
every metric), or with minimum spans and bridging (``--match-min``, ``--bridging``: the scorer's MIN and
keep_bridging).

    python bench/ua_vs_scorer.py --scorer /path/to/universal-anaphora-scorer [--python VENV/bin/python]
        [--tokens 1000000] [--repeat 3] [--match-min] [--bridging]

Prints the scorer's time, fastscore's first run (a fresh process: imports, reading, scoring) and its warm time
(in this process, after one run), their ratios, and checks that both print the same report.  Times are wall
clock and CPU (user + system: steadier on a shared machine); the load average is printed with them.
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
sys.path.insert(0, str(ROOT / "scripts"))


def corpus(folder: Path, tokens: int, seed: int = 39) -> tuple[Path, Path]:
    """A key and a response of about ``tokens`` tokens together (documents of up to 300 tokens)."""
    from gen_ua import pair

    per_doc = 300
    docs = max(1, tokens // (2 * per_doc * 2 // 3))  # documents average two thirds of the longest
    key, sys_ = pair(seed, docs=docs, tokens=per_doc, repeats=False)  # no span twice: the scorer can divide by zero
    k, s = folder / "corpus.key", folder / "corpus.sys"
    k.write_text(key)
    s.write_text(sys_)
    return k, s


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _timed(command: list[str], env=None) -> tuple[float, float, str]:
    """Wall and CPU seconds of a command, and what it printed."""
    cpu = _children_cpu()
    start = time.perf_counter()
    run = subprocess.run(command, capture_output=True, text=True, env=env)
    elapsed = time.perf_counter() - start
    if run.returncode != 0:
        raise SystemExit(f"{command[:3]} failed: {run.stderr[-2000:]}")
    return elapsed, _children_cpu() - cpu, run.stdout


def _row(label: str, wall: float, cpu: float, scorer: tuple[float, float] | None = None, note: str = "") -> str:
    ratios = f"   {scorer[0] / wall:6.1f}x {scorer[1] / cpu:6.1f}x" if scorer else ""
    return f"{label:<20}{wall:8.2f} s {cpu:8.2f} s{ratios}{note}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scorer", required=True, type=Path)
    ap.add_argument("--python", default=sys.executable, help="a Python with numpy and scipy, for the scorer")
    ap.add_argument("--tokens", type=int, default=1_000_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--match-min", action="store_true", help="minimum spans (the scorer's MIN)")
    ap.add_argument("--bridging", action="store_true", help="bridging kept (the scorer's keep_bridging)")
    a = ap.parse_args()
    scorer_options = ["MIN"] * a.match_min + ["keep_bridging"] * a.bridging
    cli_options = ["--match", "min"] * a.match_min + ["--bridging"] * a.bridging
    api_options = {"match": "min" if a.match_min else None, "bridging": a.bridging}
    with tempfile.TemporaryDirectory() as tmp:
        k, s = corpus(Path(tmp), a.tokens)
        n_tokens = sum(1 for p in (k, s) for line in p.open() if line.strip() and not line.startswith("#"))
        print(f"corpus: {n_tokens} tokens (key + response), {k.stat().st_size + s.stat().st_size >> 20} MiB")
        print(f"load average before: {os.getloadavg()[0]:.2f}")
        scorer_s, scorer_cpu, scorer_out = _timed([a.python, str(a.scorer / "ua-scorer.py"), str(k), str(s),
                                                    *scorer_options])
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        cold_s, cold_cpu, ours = _timed([sys.executable, "-m", "fastscore", "coref", str(k), str(s), "--format", "ua",
                                         "--output", "ua", *cli_options], env=env)
        sys.path.insert(0, str(ROOT))
        from fastscore.ua.report import render
        from fastscore.ua.score import score_ua

        render(score_ua(str(k), str(s), **api_options))
        warm = []
        for _ in range(a.repeat):
            start, cpu = time.perf_counter(), time.process_time()
            render(score_ua(str(k), str(s), **api_options))
            warm.append((time.perf_counter() - start, time.process_time() - cpu))
        warm_s, warm_cpu = min(w for w, _ in warm), min(c for _, c in warm)
        same = "same report" if ours == scorer_out else "REPORTS DIFFER"
        scorer = (scorer_s, scorer_cpu)
        print(f"{'':<20}{'wall':>8}   {'CPU':>8}     ratios (wall, CPU)")
        print(_row("UA scorer:", scorer_s, scorer_cpu))
        print(_row("fastscore, fresh:", cold_s, cold_cpu, scorer))
        print(_row("fastscore, warm:", warm_s, warm_cpu, scorer, f"   ({same})"))
        print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
