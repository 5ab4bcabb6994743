#!/usr/bin/env python3
"""Where a sharded run's CPU goes (issue 30): each pool worker's CPU split into its parts and the rest, and what
a Dask LocalCluster costs before any part.

    python bench/pool_profile.py workers [--variants base,freeze,nogc] -- coref KEY/ RESPONSE/ --jobs 16 -o json
    python bench/pool_profile.py dask-start [--workers 16] [--runs 2]

``workers`` runs the fastscore command given after ``--`` in this process, once per variant, and prints its wall
time, this process's CPU, and over the pool's workers: their CPU, the CPU inside their parts (``executors._call``),
the rest (start, pickling, exit), system time and minor page faults, and the slowest worker.  Variants: ``base``;
``freeze`` (``gc.freeze()`` before the fork, the collector on again in the workers); ``nogc`` (no collector in
the workers).  Run the same command with ``--jobs 1`` for the parts' CPU in one process.  Malloc settings are
environment variables (e.g. ``MALLOC_TOP_PAD_``) given to the whole command.

``dask-start`` times importing ``dask.distributed``, starting a LocalCluster of ``--workers`` workers forked
as ``--executor dask`` forks them (the parent warmed for coreference first), and closing it.

Where ``PYTHONDONTWRITEBYTECODE`` is set, run ``python -m compileall`` over fastscore (and Dask) first, or every
run compiles their modules.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import tempfile
import time


def _install_probes(variants: set[str], outdir: str) -> None:
    """Wrap the pool's entry points (the workers are forked from this process, so they inherit the wrappers)."""
    import fastscore.executors as S

    parts_cpu: list[float] = []
    call, start, prepare = S._call, S._start_worker, S.prepare_to_fork

    def timed_call(fn, args):
        t = time.process_time()
        try:
            return call(fn, args)
        finally:
            parts_cpu.append(time.process_time() - t)

    def report() -> None:  # at the worker's exit (multiprocessing runs its finalizers before os._exit)
        u = resource.getrusage(resource.RUSAGE_SELF)
        with open(os.path.join(outdir, f"w-{os.getpid()}.json"), "w") as f:
            json.dump({"cpu": u.ru_utime + u.ru_stime, "sys": u.ru_stime, "minflt": u.ru_minflt,
                       "parts": sum(parts_cpu)}, f)

    def start_worker(task_name):
        import gc
        import multiprocessing.util

        multiprocessing.util.Finalize(None, report, exitpriority=100)
        if "freeze" in variants:
            gc.enable()
        if "nogc" in variants:
            gc.disable()
        start(task_name)

    def prepare_to_fork(*args, **kwargs):
        prepare(*args, **kwargs)
        if "freeze" in variants:
            import gc

            gc.disable()
            gc.freeze()

    S._call, S._start_worker, S.prepare_to_fork = timed_call, start_worker, prepare_to_fork


def workers(variants: set[str], command: list[str]) -> None:
    from fastscore.cli import main

    with tempfile.TemporaryDirectory() as outdir:
        _install_probes(variants, outdir)
        sys.argv = ["fastscore", *command]
        t = time.perf_counter()
        real, sys.stdout = sys.stdout, open(os.devnull, "w")
        try:
            main()
        except SystemExit:
            pass
        finally:
            sys.stdout.close()
            sys.stdout = real
        wall = time.perf_counter() - t
        ws = [json.load(open(os.path.join(outdir, f))) for f in os.listdir(outdir)]
    u = resource.getrusage(resource.RUSAGE_SELF)
    cpu, parts = sum(w["cpu"] for w in ws), sum(w["parts"] for w in ws)
    print(f"{''.join(variants) or 'base':>6}: wall {wall:.3f} s, this process {u.ru_utime + u.ru_stime:.2f} s "
          f"CPU; {len(ws)} workers {cpu:.2f} s CPU (parts {parts:.2f}, rest {cpu - parts:.2f}, system "
          f"{sum(w['sys'] for w in ws):.2f}; {sum(w['minflt'] for w in ws)} minor faults), slowest worker "
          f"{max((w['cpu'] for w in ws), default=0):.2f} s", flush=True)


def dask_start(n_workers: int) -> None:
    t = time.perf_counter()
    import dask.distributed  # noqa: F401

    from fastscore.executors import DaskExecutor

    t0 = time.perf_counter()
    ex = DaskExecutor(n_workers, None)
    ex.start("coref", n_workers)
    t1 = time.perf_counter()
    ex.client.wait_for_workers(n_workers)
    t2 = time.perf_counter()
    ex.__exit__(None, None, None)
    t3 = time.perf_counter()
    print(f"import dask.distributed {t0 - t:.2f} s; LocalCluster of {n_workers} started {t1 - t0:.2f} s "
          f"(all workers up {t2 - t1:.2f} s later); closed in {t3 - t2:.2f} s", flush=True)


def main() -> None:
    argv = sys.argv[1:]
    command = argv[argv.index("--") + 1:] if "--" in argv else []
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("what", choices=["workers", "dask-start"])
    ap.add_argument("--variants", default="base", help="comma-separated: base, freeze, nogc (workers)")
    ap.add_argument("--workers", type=int, default=16, help="LocalCluster size (dask-start)")
    ap.add_argument("--runs", type=int, default=1)
    args = ap.parse_args(argv[:argv.index("--")] if "--" in argv else argv)
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    if args.what == "workers":
        if not command:
            ap.error("workers: give the fastscore command after --")
        variants = [v.strip() for v in args.variants.split(",") if v.strip()]
        unknown = set(variants) - {"base", "freeze", "nogc"}
        if unknown:
            ap.error(f"--variants: unknown {sorted(unknown)}")
        for _ in range(args.runs):
            for variant in variants:  # a process each: the probes and the collector's state stay apart
                if os.fork() == 0:
                    try:
                        workers(set() if variant == "base" else {variant}, command)
                    finally:
                        os._exit(0)
                os.wait()
    else:
        for _ in range(args.runs):
            if os.fork() == 0:
                try:
                    dask_start(args.workers)
                finally:
                    os._exit(0)
            os.wait()


if __name__ == "__main__":
    main()
