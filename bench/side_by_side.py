#!/usr/bin/env python3
"""fastscore beside the CoNLL reference scorer v8.01, on the same files, in one run.

    python bench/side_by_side.py --perl-scorer DIR/scorer.pl [--skip-large-perl] [--perl-timeout 600]

Generates the seeded corpora of bench/conftest.py (CoNLL-2012-test-sized,
and one document of ~5,000 mentions), then measures:

- v8.01: ``perl scorer.pl all KEY RESPONSE none`` and BLANC alone (wall time, peak memory);
- fastscore CLI, all metrics, warm (numba cache filled) and cold (empty NUMBA_CACHE_DIR);
- fastscore in-process ``score_coref`` on tables already read (best of 10), all metrics;
- peak memory of the CLI;
- agreement: the TOTALS lines of ``fastscore coref --output perl --totals-only`` must equal
  v8.01's for every metric.

With ``--stats``: 10,000 paired bootstrap resamples and 10,000
approximate-randomization trials of all metrics (after scoring), and a sweep
of ``--sweep N`` system outputs (default 100) against one gold, with the
ratio to looping v8.01 (one ``all`` run x 10,000, x N).

With ``--evmeval DIR/scorer_v1.8.py --python2 PY27``: event nuggets with
coreference on 5,000 documents beside EvmEval (fastscore: best of 3 runs), in character spans and shaped
as TAC KBP data is distributed (token ids, one token table per document: ``--nugget-corpora char,tac``);
add ``--sequencing`` for event sequencing (``-a``) on 1,000 documents with links (the whole report must agree).

Prints a table of times and ratios.  The reference scorer is not part of
fastscore: fetch conll/reference-coreference-scorers yourself.
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
from bench.conftest import corpus  # noqa: E402

PY = sys.executable


def timed(cmd, env=None, timeout=None):
    """(seconds, peak RSS in MB, stdout) of a command; seconds None on timeout.  Python writes and reads its
    bytecode caches as on a user's machine (a sandbox's PYTHONDONTWRITEBYTECODE would have every run compile
    every module again, fastscore's ~0.1 s and the reference tools' alike)."""
    env = {k: v for k, v in (os.environ if env is None else env).items() if k != "PYTHONDONTWRITEBYTECODE"}
    wrapper = (
        "import resource, subprocess, sys, time\n"
        "t = time.perf_counter()\n"
        "p = subprocess.run(sys.argv[1:], capture_output=True, text=True)\n"
        "dt = time.perf_counter() - t\n"
        "rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024\n"
        "sys.stdout.write(f'{dt} {rss} {p.returncode}\\n' + p.stdout)\n"
        "sys.stderr.write(p.stderr)\n"
    )
    try:
        proc = subprocess.run([PY, "-c", wrapper, *map(str, cmd)], capture_output=True, text=True,
                              env=env, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, None, ""
    head, _, out = proc.stdout.partition("\n")
    dt, rss, code = head.split()
    if code != "0":
        raise SystemExit(f"command failed ({code}): {' '.join(map(str, cmd))}\n{proc.stderr}")
    return float(dt), float(rss), out


def totals(report: str) -> dict[str, list[str]]:
    """TOTALS lines per metric of a v8.01-layout report (``all`` mode)."""
    out = {}
    for block in report.split("\nMETRIC ")[1:]:
        name = block.split(":", 1)[0]
        tail = block.split("====== TOTALS =======\n", 1)[1]
        out[name] = [ln for ln in tail.splitlines() if ln and not ln.startswith("-----")]
    return out


def in_process(key: Path, resp: Path) -> float:
    from fastscore import score_coref
    from fastscore.api import read_conll

    k, r = read_conll(key), read_conll(resp)
    score_coref(k, r)
    best = float("inf")
    for _ in range(10):
        t = time.perf_counter()
        score_coref(k, r)
        best = min(best, time.perf_counter() - t)
    return best


def fmt(x, unit="s"):
    if x == "skipped":
        return "not run"
    return "timeout" if x is None else f"{x:.3f} {unit}" if unit == "s" else f"{x:.0f} {unit}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--perl-scorer", type=Path, help="v8.01 scorer.pl (omit to time fastscore alone)")
    ap.add_argument("--perl-timeout", type=float, default=600)
    ap.add_argument("--skip-large-perl", action="store_true", help="do not run v8.01 on the large document")
    ap.add_argument("--stats", action="store_true", help="also time bootstrap, randomization and a sweep")
    ap.add_argument("--sweep", type=int, default=100, help="systems in the sweep (with --stats)")
    ap.add_argument("--evmeval", type=Path, help="EvmEval scorer_v1.8.py: also time event nuggets with coreference")
    ap.add_argument("--nugget-corpora", default="char,tac",
                    help="with --evmeval: char (character spans), tac (token ids, a token table per document)")
    ap.add_argument("--sequencing", action="store_true",
                    help="with --evmeval: also time event sequencing (-a) on 1,000 documents with links")
    ap.add_argument("--python2", default="python2", help="a Python 2.7 interpreter for EvmEval")
    args = ap.parse_args()
    cli = [PY, "-m", "fastscore", "coref"]
    rows = []
    for name in ("conll2012-test", "one-large-doc"):
        key, resp = corpus(name)
        cold_dir = tempfile.mkdtemp(prefix="numba-cold-")
        cold, _, _ = timed(cli + [key, resp, "-o", "json"], env={**os.environ, "NUMBA_CACHE_DIR": cold_dir})
        timed(cli + [key, resp, "-o", "json"])  # fill the normal cache
        warm, rss, report = timed(cli + [key, resp, "-o", "perl", "--totals-only"])
        warm2, _, _ = timed(cli + [key, resp, "-o", "json"])
        warm = min(warm, warm2)
        inproc = in_process(key, resp)
        row = {"corpus": name, "cold": cold, "warm": warm, "inproc": inproc, "rss": rss,
               "perl_all": None, "perl_blanc": None, "perl_rss": None, "agree": "not run"}
        if not args.perl_scorer or (name == "one-large-doc" and args.skip_large_perl):
            row["perl_all"] = row["perl_blanc"] = row["perl_rss"] = "skipped"
        else:
            perl = ["perl", args.perl_scorer, "all", key, resp, "none"]
            row["perl_all"], row["perl_rss"], perl_out = timed(perl, timeout=args.perl_timeout)
            blanc = ["perl", args.perl_scorer, "blanc", key, resp, "none"]
            row["perl_blanc"], _, _ = timed(blanc, timeout=args.perl_timeout)
            if row["perl_all"] is not None:
                ours = totals(report)
                theirs = totals(perl_out)
                same = all(ours.get(m) == lines for m, lines in theirs.items()) and len(theirs) == 5
                row["agree"] = "yes, every TOTALS line" if same else "NO"
        rows.append(row)
    print(f"{'corpus':<16}{'v8.01 all':>12}{'v8.01 blanc':>13}{'fastscore CLI warm':>20}{'cold':>9}"
          f"{'in-process':>12}{'CLI/v8.01':>11}{'in-proc/v8.01':>15}{'RSS fastscore':>15}{'RSS v8.01':>11}  agree")
    for r in rows:
        measured = isinstance(r["perl_all"], float)
        ratio = f"{r['perl_all'] / r['warm']:.0f}x" if measured else "-"
        ratio_in = f"{r['perl_all'] / r['inproc']:.0f}x" if measured else "-"
        print(f"{r['corpus']:<16}{fmt(r['perl_all']):>12}{fmt(r['perl_blanc']):>13}{fmt(r['warm']):>20}"
              f"{fmt(r['cold']):>9}{r['inproc'] * 1000:>9.1f} ms{ratio:>11}{ratio_in:>15}"
              f"{fmt(r['rss'], 'MB'):>15}{fmt(r['perl_rss'], 'MB'):>11}  {r['agree']}")
    if args.stats:
        perl = rows[0]["perl_all"]
        statistics(perl if isinstance(perl, float) else None, args.sweep)
    if args.evmeval:
        nuggets(args.evmeval, args.python2, args.nugget_corpora.split(","))
        if args.sequencing:
            sequencing(args.evmeval, args.python2)


def statistics(perl_all: float | None, n_sweep: int) -> None:
    from fastscore import score_coref
    from fastscore.api import read_conll
    from fastscore.coref.metrics import SCORED, coref_f1
    from fastscore.stats.resample import bootstrap_sums, permutation_sums

    key, r1, r2 = corpus("conll2012-test", responses=2)
    k = read_conll(key)
    a, b = score_coref(k, r1).doc_stats.matrix, score_coref(k, r2).doc_stats.matrix
    metrics = (*SCORED, "conll")

    def paired_bootstrap():
        sa, sb = bootstrap_sums([a, b], 10000, 1)
        return [coref_f1(m, sb) - coref_f1(m, sa) for m in metrics]

    def randomization():
        sa, sb = permutation_sums(a, b, 10000, 1)
        return [coref_f1(m, sb) - coref_f1(m, sa) for m in metrics]

    print("\nstatistics on the CoNLL-2012-test-sized corpus (after scoring), all metrics:")
    for name, fn in (("10,000 paired bootstrap resamples", paired_bootstrap),
                     ("10,000 approximate-randomization trials", randomization)):
        fn()
        best = min(_clock(fn) for _ in range(3))
        loop = f"; looping v8.01: {perl_all * 10000 / 3600:.1f} h, ratio {perl_all * 10000 / best:,.0f}x" \
            if perl_all else ""
        print(f"  {name}: {best:.3f} s{loop}")
    paths = corpus("conll2012-test", seed=777, responses=n_sweep)
    t, _, _ = timed([PY, "-m", "fastscore", "sweep", paths[0], *paths[1:], "-o", "csv"])
    loop = f"; looping v8.01: {perl_all * n_sweep:.0f} s, ratio {perl_all * n_sweep / t:.0f}x" if perl_all else ""
    print(f"  sweep of {n_sweep} system outputs (CLI, gold read once): {t:.2f} s{loop}")


NUGGET_CORPORA = {  # name -> (folder, generator keywords, what it is)
    "char": ("nuggets-5000", {}, "5,000 documents, character spans"),
    "tac": ("nuggets-tac-5000", {"tokens": True},
            "5,000 documents shaped as TAC KBP distributes them: token ids, one token table per document"),
}


def nuggets(evmeval: Path, python2: str, corpora: list[str]) -> None:
    """EvmEval v1.8 with coreference beside fastscore nugget --coref on 5,000 documents: character spans
    (``char``) and the TAC KBP shape (``tac``: token ids, ``-t DIR`` / ``--tokens DIR``, one table a document)."""
    sys.path.insert(0, str(ROOT / "scripts"))
    from gen_nuggets import generate

    for name in corpora:
        folder, keywords, what = NUGGET_CORPORA[name]
        out = ROOT / "bench" / ".corpus" / folder
        gold, system = out / "gold.tbf", out / "system.tbf"
        if not (gold.exists() and system.exists()):
            generate(out, **keywords)
        tokens = out / "tkn" if keywords.get("tokens") else None
        ours_cmd = [PY, "-m", "fastscore", "nugget", gold, system, "--preset", "kbp2016", "--coref", "-o", "evmeval"]
        theirs_cmd = [python2, str(evmeval), "-g", str(gold), "-s", str(system)]
        if tokens is not None:
            ours_cmd += ["--tokens", tokens]
            theirs_cmd += ["-t", f"{tokens}/"]
        timed(ours_cmd)  # fill the cache
        runs = [_with_cpu(timed, ours_cmd) for _ in range(3)]
        (ours, rss, report), ours_cpu = min(runs, key=lambda m: m[0][0])  # best of 3
        coref_out = Path(tempfile.mkdtemp()) / "coref"
        t = time.perf_counter()
        proc, theirs_cpu = _with_cpu(subprocess.run, theirs_cmd + ["-c", str(coref_out)], capture_output=True,
                                     text=True, cwd=evmeval.parent)
        theirs = time.perf_counter() - t
        official = "".join(ln for ln in proc.stdout.splitlines(keepends=True) if not ln.startswith("["))
        agree = "yes, the whole report" if official == report else "NO"
        print(f"\nevent nuggets with coreference, {what}: EvmEval v1.8 {theirs:.1f} s (CPU {theirs_cpu:.1f} s), "
              f"fastscore CLI {ours:.2f} s (CPU {ours_cpu:.2f} s), wall {theirs / ours:.0f}x, CPU "
              f"{theirs_cpu / ours_cpu:.0f}x, peak RSS {rss:.0f} MB; agree: {agree}")


def sequencing(evmeval: Path, python2: str) -> None:
    """EvmEval v1.8 -a (event sequencing) beside fastscore nugget --sequencing on 1,000 documents with links."""
    sys.path.insert(0, str(ROOT / "scripts"))
    from gen_nuggets import generate

    out = ROOT / "bench" / ".corpus" / "sequencing-1000"
    gold, system = out / "gold.tbf", out / "system.tbf"
    if not (gold.exists() and system.exists()):
        generate(out, docs=1000, links=True)
    ours_cmd = [PY, "-m", "fastscore", "nugget", gold, system, "--preset", "kbp2016", "--sequencing",
                "--no-script-validation", "-o", "evmeval"]
    timed(ours_cmd)  # fill the cache
    (ours, rss, report), ours_cpu = _with_cpu(timed, ours_cmd)
    seq_dir = Path(tempfile.mkdtemp()) / "seq"
    t = time.perf_counter()
    proc, theirs_cpu = _with_cpu(subprocess.run, [python2, str(evmeval), "-g", str(gold), "-s", str(system), "-a",
                                                  str(seq_dir), "-nv"], capture_output=True, text=True,
                                 cwd=evmeval.parent)
    theirs = time.perf_counter() - t
    official = "".join(ln for ln in proc.stdout.splitlines(keepends=True) if not ln.startswith("["))
    agree = "yes, the whole report" if official == report else "NO"
    links = sum(ln.startswith(("@After", "@Subevent")) for ln in gold.read_text().splitlines())
    print(f"\nevent sequencing, 1,000 documents, {links:,} gold links: EvmEval v1.8 -a {theirs:.1f} s (CPU "
          f"{theirs_cpu:.1f} s), fastscore CLI {ours:.2f} s (CPU {ours_cpu:.2f} s), wall {theirs / ours:.0f}x, CPU "
          f"{theirs_cpu / ours_cpu:.0f}x, peak RSS {rss:.0f} MB; agree: {agree}")


def _with_cpu(fn, *args, **keywords):
    """(fn's result, CPU seconds, user and system, of the processes it ran and waited for): on a shared machine
    a run's wall time counts the other users' load, its CPU time does not."""
    before = os.times()
    out = fn(*args, **keywords)
    after = os.times()
    return out, (after.children_user - before.children_user) + (after.children_system - before.children_system)


def _clock(fn) -> float:
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


if __name__ == "__main__":
    main()
