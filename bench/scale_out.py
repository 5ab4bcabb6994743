#!/usr/bin/env python3
"""Massive corpora (issue 13): the fastscore CLI from 1x to 100x the CoNLL-2012 test set, one file, shards,
Parquet shards, streaming and Dask, beside the CoNLL reference scorer v8.01.

    python bench/scale_out.py [--scales 1,3,10,30,100] [--shards 16] [--configs one-file,shards-j2,...]
        [--dask-scale 10] [--perl-scorer DIR/scorer.pl [--perl-scale 10] [--perl-timeout 900]
        [--perl-metrics muc,bcub,ceafm,ceafe,blanc]] [--runs 1] [--timeout 1800] [--prepare-only]

Corpora (written once, in bench/.corpus/scale-<N>x/): the seeded CoNLL-2012-test-sized key and response of
bench/conftest.py (348 documents, ~170k tokens) N times over, every copy's documents renamed
(``#begin document (NAME); part 000`` -> ``(NAME-cK); part 000``, and the document column with it; the same
on both sides, so they still pair):

- ``key.conll``, ``response.conll``: one file each;
- ``key/``, ``response/``: ``--shards`` files each (``part-000.conll`` ...), the documents split in order,
  the same split on both sides;
- ``key-parquet/``, ``response-parquet/``: those shards through ``fastscore convert SHARD OUT --to parquet``.

Configurations of ``fastscore coref KEY RESPONSE --output json`` (all metrics), timed with the wall clock,
the CPU time of the process and the descendants it waited for (user + system), and the peak memory of the
whole process tree (the RSS of the process and all its descendants summed, sampled every 50 ms; never less
than the largest single process's maxrss):

    one-file     KEY.conll RESPONSE.conll
    shards-j1    key/ response/ --jobs 1
    shards-j2    key/ response/ --jobs 2
    parquet-j2   key-parquet/ response-parquet/ --jobs 2
    batch-64M    KEY.conll RESPONSE.conll --batch-size 64M    (one file streamed in batches of whole documents)
    dask-j2      key/ response/ --executor dask --jobs 2      (a LocalCluster of 2 workers, start-up
                                                               included; at --dask-scale only, default 10x)

A configuration whose flags ``fastscore coref --help`` does not list is reported "not available"; one that
fails is reported with its error and the rest go on.  Every configuration of a scale must print the same
JSON (parsed, the "signature" key left out); a difference is printed loudly.  Then:

- the curve: the best local configuration (all but Dask) per scale, seconds per million tokens, and a
  least-squares fit ``wall = fixed + slope x tokens`` with its largest residual (linear from 1x to 100x?);
- with ``--perl-scorer``: ``perl scorer.pl METRIC KEY RESPONSE none`` for each metric on the one-file corpus
  at ``--perl-scale`` (default 10x; BLANC is much slower: ``--perl-timeout`` applies to every run), CPU and
  wall, its numerators and denominators checked against fastscore's JSON, and the ratio of the sum of
  v8.01's per-metric times to fastscore, all metrics, one run;
- the issue's targets: 100x all metrics <= 60 s wall and <= 2 GB peak when streaming (batch-64M); Parquet
  >= 3x faster than text (parquet-j2 against shards-j2, at the largest scale with both); Dask LocalCluster
  within 2x of the process pool (dask-j2 against shards-j2 at --dask-scale).

The jobs curve (issue 30), instead of scales and configurations:

    python bench/scale_out.py --jobs-curve 1,2,4,8,16 [--curve-scale 100] [--shards 64] [--runs 2]
        [--curve-configs parquet,one-file,dask,deploy] [--json FILE] [--fastscore 'python -m fastscore']

times text shards (64 a side by default) and Parquet shards at each ``--jobs``, the one file (default batches,
every core), and at the largest job count a LocalCluster (``--executor dask --jobs N``) and a deployment: ``dask
scheduler`` and ``dask worker ADDRESS --nworkers N --nthreads 1 --preload fastscore.shards`` started as
processes of their own on 127.0.0.1 (no network), scored with ``--scheduler ADDRESS``, run at least twice (a
deployment outlives a run: the best is shown, every wall is in the JSON; its CPU and memory include the
scheduler's and workers'). Then the fit ``wall = serial + parallel / jobs`` (least squares) of text and
Parquet shards, issue 30's targets, ``--json FILE`` (every run, the fits, the targets) and, last, a compact
table.  Corpora are written by every core (one process per shard; the one file is the shards joined; Parquet
shards converted ``cores`` at a time): the 100x corpus takes ~25 s on 2 cores for text.
``--fastscore 'python -m fastscore'`` measures this checkout (run in it) instead of the installed command.

The numba cache is filled first (one run of the 1x corpus with ``FASTSCORE_JIT=always``, not reported);
every command line is printed as it runs.  Disk: ~34 MB a 1x copy (one file and shards, key and response;
the Parquet shards are ~1/100 of the text), so 3.4 GB at 100x and 4.9 GB for all five scales; writing 100x
takes ~25 s, its Parquet shards ~1 min (32 ``fastscore convert`` runs).  A full run (all scales and
configurations, no v8.01) takes ~5 minutes on 2 cores; v8.01 at 10x adds ~2.5 minutes (BLANC ~75 s).
Measurements on a shared machine vary by 20-30% from run to run at the small scales: ``--runs 3`` keeps the
best of three.  The reference scorer is not part of fastscore: fetch conll/reference-coreference-scorers
yourself.
"""
from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from contextlib import ExitStack
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench.conftest import CORPUS_DIR, corpus

PY = sys.executable
_EXE = Path(PY).with_name("fastscore")
FASTSCORE = [str(_EXE)] if _EXE.exists() else [PY, "-m", "fastscore"]  # --fastscore CMD replaces it
RUN_CWD: Path | None = None if _EXE.exists() else ROOT  # where fastscore and Dask run: ROOT for "python -m fastscore"
DASK_SCHEDULER = [PY, "-m", "distributed.cli.dask_scheduler"]  # `dask scheduler`
DASK_WORKER = [PY, "-m", "distributed.cli.dask_worker"]  # `dask worker`

#: name -> (inputs: file | shards | parquet, extra flags); the flags decide availability.
CONFIGS = {
    "one-file": ("file", []),
    "shards-j1": ("shards", ["--jobs", "1"]),
    "shards-j2": ("shards", ["--jobs", "2"]),
    "parquet-j2": ("parquet", ["--jobs", "2"]),
    "batch-64M": ("file", ["--batch-size", "64M"]),
    "dask-j2": ("shards", ["--executor", "dask", "--jobs", "2"]),
}
PERL_METRICS = ("muc", "bcub", "ceafm", "ceafe", "blanc")
SAMPLE_EVERY = 0.05


# --------------------------------------------------------------------------------------------- measuring

try:
    import psutil
except ImportError:  # the /proc fallback below
    psutil = None


def tree_rss(pid: int) -> int:
    """Bytes of RSS of ``pid`` and all its descendants, summed (0 once it is gone)."""
    if psutil is not None:
        try:
            root = psutil.Process(pid)
            procs = [root, *root.children(recursive=True)]
        except psutil.Error:
            return 0
        total = 0
        for p in procs:
            try:
                total += p.memory_info().rss
            except psutil.Error:
                pass
        return total
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as fh:
                    ppid = int(fh.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(entry))
    total, todo = 0, [pid]
    while todo:
        p = todo.pop()
        todo.extend(children.get(p, ()))
        try:
            with open(f"/proc/{p}/status") as fh:
                for line in fh:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1]) * 1024
                        break
        except OSError:
            pass
    return total


@dataclass
class Run:
    cmd: list[str]
    wall: float | None = None  # None: timed out
    cpu: float | None = None
    peak_mb: float | None = None
    code: int | None = None
    stdout: str = ""
    stderr: str = ""

    @property
    def ok(self) -> bool:
        return self.code == 0

    def error(self) -> str:
        if self.wall is None:
            return "timeout"
        lines = [ln for ln in self.stderr.strip().splitlines() if ln.strip()]
        return f"exit {self.code}: {lines[-1] if lines else '(no message)'}"


def tree_cpu(pids: list[int]) -> float:
    """CPU seconds (user + system) used so far by ``pids`` and their descendants (psutil; 0 without it)."""
    if psutil is None:
        return 0.0
    total = 0.0
    for pid in pids:
        try:
            root = psutil.Process(pid)
            procs = [root, *root.children(recursive=True)]
        except psutil.Error:
            continue
        for p in procs:
            try:
                t = p.cpu_times()
                total += t.user + t.system
            except psutil.Error:
                pass
    return total


def measure(cmd, timeout: float | None = None, env=None, also: list[int] = (), cwd=None) -> Run:
    """Run ``cmd``: wall seconds, CPU seconds (user + system of the child and the descendants it waited for),
    peak MB of the process tree; a command over ``timeout`` is killed with its process group.  ``also``:
    processes already running (a Dask deployment) whose trees' memory and CPU used meanwhile count too."""
    cmd = [str(c) for c in cmd]
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        cpu_before = tree_cpu(list(also))
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=out, stderr=err, env=env, start_new_session=True, cwd=cwd)
        peak, timed_out = 0, False
        while True:
            peak = max(peak, tree_rss(proc.pid) + sum(tree_rss(p) for p in also))
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            if timeout is not None and time.perf_counter() - t0 > timeout:
                timed_out = True
                os.killpg(proc.pid, signal.SIGKILL)
                pid, status, usage = os.wait4(proc.pid, 0)
                break
            time.sleep(SAMPLE_EVERY)
        wall = time.perf_counter() - t0
        proc.returncode = os.waitstatus_to_exitcode(status)  # reaped here, not by Popen
        run = Run(cmd, code=proc.returncode)
        if not timed_out:
            run.wall = wall
            run.cpu = usage.ru_utime + usage.ru_stime + tree_cpu(list(also)) - cpu_before
            run.peak_mb = max(peak / 2**20, usage.ru_maxrss / 1024)
        out.seek(0)
        err.seek(0)
        run.stdout = out.read().decode("utf-8", "replace")
        run.stderr = err.read().decode("utf-8", "replace")
    return run


def show(cmd) -> None:
    print("$ " + shlex.join(map(str, cmd)), flush=True)


# --------------------------------------------------------------------------------------------- corpora

_BEGIN = re.compile(r"#begin document \((.*)\); part (\S+)")


def documents(path: Path) -> list[tuple[str, str, str]]:
    """(name, the rest of the begin line, the text after it) of every document, in order."""
    text = path.read_text(encoding="utf-8")
    starts = [m.start() for m in re.finditer(r"^#begin document", text, re.MULTILINE)]
    if not starts or text[:starts[0]].strip():
        raise SystemExit(f"{path}: expected a CoNLL-2012 file starting with '#begin document'")
    docs = []
    for a, b in zip(starts, [*starts[1:], len(text)]):
        first, _, body = text[a:b].partition("\n")
        m = _BEGIN.fullmatch(first.rstrip())
        if not m:
            raise SystemExit(f"{path}: begin line not of the form '#begin document (NAME); part P': {first!r}")
        docs.append((m.group(1), first[m.end(1) + 1:], "\n" + body))
    return docs


def renamed(doc: tuple[str, str, str], k: int) -> str:
    """The document's text with NAME -> NAME-cK (begin line and document column)."""
    name, rest, body = doc
    new = f"{name}-c{k}"
    body = body.replace(f"\n{name}\t", f"\n{new}\t").replace(f"\n{name} ", f"\n{new} ")
    return f"#begin document ({new}){rest}{body}"


_SIDES: dict[str, list] = {}


def _write_shard(job: tuple[str, Path, int, int, int]) -> None:
    """Shard ``s`` of ``shards`` of a side: documents ``g`` with ``g * shards // total == s`` (consecutive), copy
    ``g // len(docs)`` of document ``g % len(docs)``, renamed."""
    side, path, s, shards, n = job
    docs = _SIDES[side]
    total = len(docs) * n
    lo = -(-s * total // shards)  # the first g with g * shards // total == s
    hi = -(-(s + 1) * total // shards)
    with open(path, "w", encoding="utf-8") as fh:
        for g in range(lo, hi):
            fh.write(renamed(docs[g % len(docs)], g // len(docs)))


def cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


def _process_pool() -> ProcessPoolExecutor:
    import multiprocessing

    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else None
    return ProcessPoolExecutor(cores(), mp_context=multiprocessing.get_context(method))


@dataclass
class Scale:
    n: int
    folder: Path
    tokens: int
    docs: int
    shards: int

    def inputs(self, kind: str) -> tuple[Path, Path]:
        if kind == "file":
            return self.folder / "key.conll", self.folder / "response.conll"
        if kind == "shards":
            return self.folder / "key", self.folder / "response"
        return self.folder / "key-parquet", self.folder / "response-parquet"


def token_lines(path: Path) -> int:
    n = 0
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            if line.strip() and not line.startswith("#"):
                n += 1
    return n


class Corpora:
    """The scaled corpora, built on demand and cached (meta.json marks a finished folder)."""

    def __init__(self, shards: int):
        self.key, self.response = corpus("conll2012-test")
        self.shards = shards
        self._docs = None
        self.tokens_1x = token_lines(self.key)
        self.source = {"key": self.key.stat().st_size, "response": self.response.stat().st_size}

    def docs(self):
        if self._docs is None:
            k, r = documents(self.key), documents(self.response)
            if [(d[0], d[1]) for d in k] != [(d[0], d[1]) for d in r]:
                raise SystemExit(f"{self.key} and {self.response}: not the same documents in the same order")
            self._docs = (k, r)
        return self._docs

    def get(self, n: int, parquet: bool = False) -> Scale:
        folder = CORPUS_DIR / f"scale-{n}x"
        meta_path = folder / "meta.json"
        meta = json.loads(meta_path.read_text()) if meta_path.exists() else {}
        want = {"scale": n, "shards": self.shards, "source": self.source}
        if {k: meta.get(k) for k in want} != want:
            meta = self._write(n, folder)
            meta_path.write_text(json.dumps(meta, indent=1))
        if parquet and not meta.get("parquet"):
            self._parquet(folder, meta["shards_written"])
            meta["parquet"] = True
            meta_path.write_text(json.dumps(meta, indent=1))
        return Scale(n, folder, self.tokens_1x * n, meta["documents"], meta["shards_written"])

    def _write(self, n: int, folder: Path) -> dict:
        key_docs, resp_docs = self.docs()
        total = len(key_docs) * n
        shards = min(self.shards, total)
        print(f"writing {folder.relative_to(ROOT)}: {total} documents x 2, one file and {shards} shards "
              f"({n} copies of {self.key.relative_to(ROOT)} and {self.response.name})", flush=True)
        t = time.perf_counter()
        for sub in ("key", "response", "key-parquet", "response-parquet"):
            shutil.rmtree(folder / sub, ignore_errors=True)
        (folder / "meta.json").unlink(missing_ok=True)
        global _SIDES
        _SIDES = {"key": key_docs, "response": resp_docs}  # the forked writers' documents
        for side in _SIDES:
            (folder / side).mkdir(parents=True)
        jobs = [(side, folder / side / f"part-{s:03d}.conll", s, shards, n) for side in _SIDES for s in range(shards)]
        with _process_pool() as pool:  # every shard written by its own process (all cores)
            list(pool.map(_write_shard, jobs))
        for side in _SIDES:  # the one file: the shards in order (a shard holds consecutive documents)
            with open(folder / f"{side}.conll", "wb") as one:
                for s in range(shards):
                    with open(folder / side / f"part-{s:03d}.conll", "rb") as part:
                        shutil.copyfileobj(part, one, 1 << 24)
        print(f"  written in {time.perf_counter() - t:.1f} s", flush=True)
        return {"scale": n, "shards": self.shards, "source": self.source, "documents": total,
                "shards_written": shards, "parquet": False}

    def _parquet(self, folder: Path, shards: int) -> None:
        t = time.perf_counter()
        cmds = []
        for side in ("key", "response"):
            target = folder / f"{side}-parquet"
            shutil.rmtree(target, ignore_errors=True)
            target.mkdir()
            cmds += [[*FASTSCORE, "convert", folder / side / f"part-{s:03d}.conll", target / f"part-{s:03d}.parquet",
                      "--to", "parquet"] for s in range(shards)]
        show(cmds[0])
        print(f"  ... and the same for every shard of key/ and response/ ({cores()} at a time)", flush=True)
        with ThreadPoolExecutor(cores()) as pool:  # each conversion is a process of its own
            for cmd, p in zip(cmds, pool.map(lambda c: subprocess.run(list(map(str, c)), capture_output=True,
                                                                       text=True, check=False, cwd=RUN_CWD), cmds)):
                if p.returncode != 0:
                    raise SystemExit(f"failed ({p.returncode}): {shlex.join(map(str, cmd))}\n{p.stderr}")
        print(f"  Parquet shards of {folder.relative_to(ROOT)} in {time.perf_counter() - t:.1f} s", flush=True)


# --------------------------------------------------------------------------------------------- fastscore

def available_flags() -> set[str]:
    p = subprocess.run([*FASTSCORE, "coref", "--help"], capture_output=True, text=True, check=False, cwd=RUN_CWD)
    return set(re.findall(r"(?<![\w-])(--[a-z][a-z0-9-]*)", p.stdout))


def missing(config: str, flags: set[str]) -> list[str]:
    return [f for f in config_spec(config)[1] if f.startswith("--") and f not in flags]


_CURVE = re.compile(r"(shards|parquet|dask|deploy)-j(\d+)")
FAMILIES = ("one-file", "batch-64M", "shards", "parquet", "dask", "deploy")


def config_spec(name: str) -> tuple[str, list[str]]:
    """(inputs, flags) of a configuration: one of CONFIGS, or shards-jN, parquet-jN, dask-jN (a LocalCluster
    of N workers) or deploy-jN (a deployment of N workers started by the benchmark: ``--scheduler`` is added
    when it runs)."""
    if name in CONFIGS:
        return CONFIGS[name]
    m = _CURVE.fullmatch(name)
    if m is None:
        raise KeyError(name)
    family, jobs = m.groups()
    if family == "dask":
        return "shards", ["--executor", "dask", "--jobs", jobs]
    if family == "deploy":
        return "shards", ["--executor", "dask"]
    return family, ["--jobs", jobs]


def config_order(name: str) -> tuple[int, int]:
    m = _CURVE.fullmatch(name)
    family, jobs = (m.group(1), int(m.group(2))) if m else (name.split("-j")[0], 0)
    return (FAMILIES.index(family) if family in FAMILIES else len(FAMILIES), jobs)


def jobs_of(name: str) -> int | None:
    m = _CURVE.fullmatch(name)
    return int(m.group(2)) if m else None


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Deployment:
    """``dask scheduler`` and ``dask worker ADDRESS --nworkers N --nthreads 1 --preload fastscore.shards``,
    started as processes of their own on 127.0.0.1 (no network needed), stopped on exit."""

    def __init__(self, workers: int):
        self.workers = workers
        self.procs: list[subprocess.Popen] = []

    def __enter__(self) -> "Deployment":
        port = free_port()
        self.address = f"tcp://127.0.0.1:{port}"
        scheduler = [*DASK_SCHEDULER, "--host", "127.0.0.1", "--port", str(port), "--dashboard-address", ":0"]
        worker = [*DASK_WORKER, self.address, "--nworkers", str(self.workers), "--nthreads", "1",
                  "--preload", "fastscore.shards", "--dashboard-address", ":0"]
        t = time.perf_counter()
        for cmd in (scheduler, worker):
            show(cmd)
            self.procs.append(subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,  # the
                                               cwd=RUN_CWD or tempfile.gettempdir(),  # workers import FASTSCORE's
                                               start_new_session=True))
        try:
            from distributed import Client

            with Client(self.address, timeout=120) as client:
                client.wait_for_workers(self.workers, timeout=600)
        except BaseException:
            self.__exit__()
            raise
        print(f"  {self.workers} workers ready in {time.perf_counter() - t:.1f} s", flush=True)
        return self

    @property
    def pids(self) -> list[int]:
        return [p.pid for p in self.procs]

    def __exit__(self, *exc) -> None:
        for p in reversed(self.procs):
            with contextlib.suppress(ProcessLookupError):
                os.killpg(p.pid, signal.SIGTERM)
        for p in reversed(self.procs):
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(p.pid, signal.SIGKILL)
                p.wait()


def json_diff(a, b, path: str = "") -> list[tuple[str, object, object]]:
    if isinstance(a, dict) and isinstance(b, dict):
        out = []
        for k in sorted(set(a) | set(b), key=str):
            if k not in a or k not in b:
                out.append((f"{path}.{k}".lstrip("."), a.get(k, "(missing)"), b.get(k, "(missing)")))
            else:
                out.extend(json_diff(a[k], b[k], f"{path}.{k}"))
        return out
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return [d for i, (x, y) in enumerate(zip(a, b)) for d in json_diff(x, y, f"{path}[{i}]")]
    same = a == b and (isinstance(a, bool) == isinstance(b, bool))  # 1 and 1.0 are the same number
    return [] if same else [(path.lstrip("."), a, b)]


@dataclass
class Result:
    scale: Scale
    config: str
    run: Run | None = None  # None: not available
    why: str = ""
    numbers: dict | None = None
    same: str = "-"
    reported: bool = False
    walls: list = field(default_factory=list)  # every run's wall (None: timed out)

    def ok(self) -> bool:
        return self.run is not None and self.run.ok

    def to_json(self) -> dict:
        run = self.run
        return {"scale": self.scale.n, "documents": self.scale.docs, "tokens": self.scale.tokens,
                "shards": self.scale.shards, "config": self.config, "jobs": jobs_of(self.config),
                "command": None if run is None else shlex.join(run.cmd),
                "wall_s": None if not self.ok() else run.wall, "walls_s": self.walls,
                "cpu_s": None if not self.ok() else run.cpu, "peak_mb": None if not self.ok() else run.peak_mb,
                "same_as_reference": self.same, "error": self.why or None}


class Bench:
    def __init__(self, corpora: Corpora, flags: set[str], runs: int, timeout: float | None):
        self.corpora, self.flags, self.runs, self.timeout = corpora, flags, runs, timeout
        self.results: dict[tuple[int, str], Result] = {}

    def fastscore(self, n: int, config: str) -> Result:
        if (n, config) in self.results:
            return self.results[(n, config)]
        kind, extra = config_spec(config)
        lack = missing(config, self.flags)
        scale = self.corpora.get(n, parquet=kind == "parquet" and not lack)
        res = Result(scale, config)
        self.results[(n, config)] = res
        if lack:
            res.why = f"not available (no {', '.join(lack)} in fastscore coref --help)"
            print(f"[{n}x {config}] {res.why}", flush=True)
            return res
        key, response = scale.inputs(kind)
        cmd = [*FASTSCORE, "coref", key, response, "--output", "json", *extra]
        with ExitStack() as stack:
            also, runs = [], self.runs
            if config.startswith("deploy-"):  # a deployment lives on between runs: its first run is kept apart
                try:
                    deployment = stack.enter_context(Deployment(jobs_of(config)))
                except Exception as exc:  # noqa: BLE001 - reported, and the other rows go on
                    res.why = f"the deployment did not start: {type(exc).__name__}: {exc}"
                    print(f"!!! [{n}x {config}] {res.why}", flush=True)
                    return res
                cmd += ["--scheduler", deployment.address]
                also, runs = deployment.pids, max(2, self.runs)
            show(cmd)
            best = None
            for _ in range(runs):
                run = measure(cmd, self.timeout, also=also, cwd=RUN_CWD)
                res.walls.append(run.wall)
                if not run.ok:
                    best = run
                    break
                if best is None or run.wall < best.wall:
                    best = run
        res.run = best
        if best.ok:
            try:
                res.numbers = {k: v for k, v in json.loads(best.stdout).items() if k != "signature"}
            except json.JSONDecodeError as e:
                res.why = f"output is not JSON: {e}"
            print(f"[{n}x {config}] {best.wall:.2f} s wall, {best.cpu:.2f} s CPU, {best.peak_mb:.0f} MB peak",
                  flush=True)
        else:
            res.why = best.error()
            print(f"!!! [{n}x {config}] FAILED: {res.why}", flush=True)
        if best.stderr.strip() and best.ok:
            print("  stderr: " + best.stderr.strip().splitlines()[-1], flush=True)
        self.check(n)
        return res

    def check(self, n: int) -> None:
        """Every configuration of scale ``n`` against the first that printed JSON."""
        rows = [r for (m, c), r in self.results.items() if m == n and r.numbers is not None]
        if not rows:
            return
        ref = rows[0]
        ref.same = "ref"
        for r in rows[1:]:
            diffs = json_diff(ref.numbers, r.numbers)
            r.same = "yes" if not diffs else f"NO ({len(diffs)})"
            if diffs and not r.reported:
                r.reported = True
                print(f"!!! JSON DIFFERS at {n}x: {r.config} against {ref.config}, {len(diffs)} value(s):")
                for path, a, b in diffs[:10]:
                    print(f"!!!   {path}: {a!r} ({ref.config}) vs {b!r} ({r.config})")


# --------------------------------------------------------------------------------------------- v8.01

_PAIR = r"\(([-\d.e+]+) / ([-\d.e+]+)\)"


def perl_check(metric: str, report: str, numbers: dict | None) -> str:
    """Do v8.01's TOTALS numerators and denominators equal fastscore's JSON (relative 1e-9)?"""
    if numbers is None:
        return "-"
    m = numbers.get("metrics", {}).get(metric)
    if m is None:
        return "-"
    if metric == "blanc":
        lines = [("Coreference links", m["coref_links"]), ("Non-coreference links", m["noncoref_links"])]
    else:
        lines = [("Coreference", m)]
    for label, ours in lines:
        found = re.findall(rf"^{label}: Recall: {_PAIR}\s[\d.]+%\s+Precision: {_PAIR}", report, re.MULTILINE)
        if not found:
            return "NO (no TOTALS)"
        theirs = [float(x) for x in found[-1]]
        want = [ours["recall_num"], ours["recall_den"], ours["precision_num"], ours["precision_den"]]
        if not all(math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9) for a, b in zip(theirs, want)):
            return f"NO ({theirs} vs {want})"
    return "yes"


def times(x: float) -> str:
    return f"{x:.1f}x" if x < 10 else f"{x:.0f}x"


def reference(bench: Bench, scorer: Path, n: int, metrics: list[str], timeout: float) -> None:
    ours = bench.fastscore(n, "one-file")
    scale = ours.scale
    key, response = scale.inputs("file")
    print(f"\nv8.01 on the {n}x one-file corpus ({scale.docs} documents, {scale.tokens / 1e6:.2f}M tokens), "
          f"timeout {timeout:.0f} s per run:", flush=True)
    rows = []
    for metric in metrics:
        cmd = ["perl", scorer, metric, key, response, "none"]
        show(cmd)
        run = measure(cmd, timeout)
        if run.wall is None:
            rows.append((metric, None, None, None, "timeout"))
            print(f"  {metric}: timeout after {timeout:.0f} s", flush=True)
            continue
        if not run.ok:
            rows.append((metric, None, None, None, run.error()))
            print(f"!!! {metric}: FAILED {run.error()}", flush=True)
            continue
        agree = perl_check(metric, run.stdout, ours.numbers)
        rows.append((metric, run.wall, run.cpu, run.peak_mb, agree))
        print(f"  {metric}: {run.wall:.1f} s wall, {run.cpu:.1f} s CPU, {run.peak_mb:.0f} MB; "
              f"TOTALS equal to fastscore's: {agree}", flush=True)
    print(f"\n{'v8.01 metric':<14}{'wall s':>10}{'CPU s':>10}{'peak MB':>10}  TOTALS = fastscore")
    for metric, wall, cpu, mb, agree in rows:
        cell = (lambda x, f: "-" if x is None else format(x, f))
        print(f"{metric:<14}{cell(wall, '.1f'):>10}{cell(cpu, '.1f'):>10}{cell(mb, '.0f'):>10}  {agree}")
    done = [r for r in rows if r[1] is not None]
    lower = "" if len(done) == len(rows) else ">= "
    if done:
        wall, cpu = sum(r[1] for r in done), sum(r[2] for r in done)
        print(f"{'sum':<14}{lower + format(wall, '.1f'):>10}{lower + format(cpu, '.1f'):>10}"
              + ("" if not lower else f"   (without: {', '.join(r[0] for r in rows if r[1] is None)})"))
        local = [r for (m, c), r in bench.results.items() if m == n and not c.startswith(("dask-", "deploy-")) and r.ok()]
        best = min(local, key=lambda r: r.run.wall) if local else None
        for r in [ours] + ([best] if best is not None and best is not ours else []):
            if r.run and r.run.ok:
                print(f"v8.01 (sum of {len(done)} metric runs) / fastscore {r.config} (all metrics, one run) at "
                      f"{n}x: {lower}{times(wall / r.run.wall)} wall, {lower}{times(cpu / r.run.cpu)} CPU")


# --------------------------------------------------------------------------------------------- report

def table(bench: Bench) -> None:
    print(f"\n{'scale':>6}{'docs':>8}{'Mtok':>7}  {'configuration':<12}{'wall s':>9}{'CPU s':>9}{'peak MB':>9}"
          f"{'s/Mtok':>8}{'vs one-file':>12}  same JSON")
    for (n, c), r in sorted(bench.results.items(), key=lambda kv: (kv[0][0], config_order(kv[0][1]))):
        s = r.scale
        head = f"{n:>5}x{s.docs:>8}{s.tokens / 1e6:>7.2f}  {c:<12}"
        if not (r.run and r.run.ok):
            print(head + f"  {r.why}")
            continue
        base = bench.results.get((n, "one-file"))
        vs = f"{base.run.wall / r.run.wall:.2f}x" if base and base.run and base.run.ok else "-"
        print(head + f"{r.run.wall:>9.2f}{r.run.cpu:>9.2f}{r.run.peak_mb:>9.0f}"
              f"{r.run.wall / (s.tokens / 1e6):>8.2f}{vs:>12}  {r.same}")


def curve(bench: Bench, scales: list[int]) -> None:
    """The best local configuration per scale, then, per configuration, the marginal cost of each step
    (extra seconds per extra million tokens: constant when the cost is linear) and a least-squares line."""
    print("\nthe curve, best local configuration (all but Dask) per scale:")
    print(f"{'scale':>6}{'Mtok':>8}  {'configuration':<12}{'wall s':>9}{'s/Mtok':>9}{'peak MB':>9}")
    for n in scales:
        rs = [r for (m, c), r in bench.results.items() if m == n and not c.startswith(("dask-", "deploy-")) and r.ok()]
        if rs:
            best = min(rs, key=lambda r: r.run.wall)
            mtok = best.scale.tokens / 1e6
            print(f"{n:>5}x{mtok:>8.2f}  {best.config:<12}{best.run.wall:>9.2f}{best.run.wall / mtok:>9.2f}"
                  f"{best.run.peak_mb:>9.0f}")
    print("\nlinear? per configuration, marginal s/Mtok of each step (wall difference / token difference) and "
          "the fit wall = fixed + slope x Mtok:")
    for c in sorted({c for _, c in bench.results}, key=config_order):
        rs = [bench.results[(n, c)] for n in scales if (n, c) in bench.results]
        points = [(r.scale.n, r.scale.tokens / 1e6, r.run.wall) for r in rs if r.run and r.run.ok]
        if len(points) < 2:
            continue
        steps = ", ".join(f"{a}x->{b}x {(wb - wa) / (xb - xa):.2f}"
                          for (a, xa, wa), (b, xb, wb) in pairwise(points))
        xs, ys = [p[1] for p in points], [p[2] for p in points]
        mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
        sxx = sum((x - mx) ** 2 for x in xs)
        slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx
        fixed = my - slope * mx
        worst = max(abs(y - (fixed + slope * x)) for x, y in zip(xs, ys))
        print(f"  {c:<12} {steps}; fit {fixed:.2f} s + {slope:.2f} s/Mtok, largest residual {worst:.2f} s")


def targets(bench: Bench, dask_scale: int) -> None:
    def ok(n, c):
        r = bench.results.get((n, c))
        return r if r and r.run and r.run.ok else None

    parts = []
    r = ok(100, "batch-64M")
    if r:
        good = r.run.wall <= 60 and r.run.peak_mb <= 2048
        parts.append(f"100x streamed {r.run.wall:.1f} s, {r.run.peak_mb:.0f} MB (<= 60 s, <= 2048 MB): "
                     f"{'PASS' if good else 'FAIL'}")
    else:
        parts.append("100x streamed: not measured")
    both = [n for n in sorted({n for n, _ in bench.results}, reverse=True) if ok(n, "parquet-j2") and ok(n, "shards-j2")]
    if both:
        n = both[0]
        x = ok(n, "shards-j2").run.wall / ok(n, "parquet-j2").run.wall
        one = ok(n, "one-file")
        also = f"; against the one text file {one.run.wall / ok(n, 'parquet-j2').run.wall:.2f}x" if one else ""
        parts.append(f"Parquet vs text shards at {n}x (both --jobs 2) {x:.2f}x (>= 3x): "
                     f"{'PASS' if x >= 3 else 'FAIL'}{also}")
    else:
        parts.append("Parquet vs text: not measured")
    if ok(dask_scale, "dask-j2") and ok(dask_scale, "shards-j2"):
        x = ok(dask_scale, "dask-j2").run.wall / ok(dask_scale, "shards-j2").run.wall
        parts.append(f"Dask vs process pool at {dask_scale}x {x:.2f}x (<= 2x): {'PASS' if x <= 2 else 'FAIL'}")
    else:
        parts.append(f"Dask vs process pool at {dask_scale}x: not measured")
    differ = [f"{n}x {r.config}" for (n, c), r in bench.results.items() if r.same.startswith("NO")]
    parts.append("JSON identical across configurations: " + ("yes" if not differ else "NO: " + ", ".join(differ)))
    print("\ntargets (issue 13): " + "; ".join(parts))


# --------------------------------------------------------------------------------------------- the jobs curve

def fit_jobs(points: list[tuple[int, float]]) -> tuple[float, float, float] | None:
    """Least squares ``wall = serial + parallel / jobs`` over (jobs, wall): (serial, parallel, largest
    residual), or None with fewer than two job counts."""
    if len({j for j, _ in points}) < 2:
        return None
    xs, ys = [1 / j for j, _ in points], [w for _, w in points]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    parallel = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
    serial = my - parallel * mx
    return serial, parallel, max(abs(y - serial - parallel * x) for x, y in zip(xs, ys))


def run_curve(bench: Bench, n: int, jobs: list[int], configs: set[str]) -> None:
    """The curve at scale ``n``: text and Parquet shards at each ``--jobs``, the one file (default batches,
    every core), and at the largest job count a LocalCluster and a deployment of as many workers."""
    top = max(jobs)
    for j in jobs:
        bench.fastscore(n, f"shards-j{j}")
    if "parquet" in configs:
        for j in jobs:
            bench.fastscore(n, f"parquet-j{j}")
    if "one-file" in configs:
        bench.fastscore(n, "one-file")
    if "dask" in configs:
        bench.fastscore(n, f"dask-j{top}")
    if "deploy" in configs:
        bench.fastscore(n, f"deploy-j{top}")


def curve_summary(bench: Bench, n: int, jobs: list[int]) -> dict:
    """The fits, speed-ups and issue 30's targets at scale ``n`` (printed, and returned for the JSON)."""
    def row(c):
        r = bench.results.get((n, c))
        return r if r is not None and r.ok() else None

    top, out = max(jobs), {"fits": {}, "targets": {}}
    print(f"\nfit wall = serial + parallel / jobs at {n}x (least squares over --jobs {','.join(map(str, jobs))}):")
    for family in ("shards", "parquet"):
        points = [(j, row(f"{family}-j{j}").run.wall) for j in jobs if row(f"{family}-j{j}")]
        fit = fit_jobs(points)
        if fit is None:
            continue
        serial, parallel, worst = fit
        out["fits"][family] = {"serial_s": serial, "parallel_s": parallel, "largest_residual_s": worst,
                               "predicted_16_s": serial + parallel / 16}
        ceiling = f", at most {(serial + parallel) / serial:.1f}x one job" if serial > 0 and parallel > 0 else ""
        print(f"  {family:<8} serial {serial:.3f} s + parallel {parallel:.3f} s / jobs (largest residual "
              f"{worst:.3f} s; predicted at 16 jobs {serial + parallel / 16:.2f} s{ceiling})")
        low, high = row(f"{family}-j{min(jobs)}"), row(f"{family}-j{top}")
        if low and high and top > min(jobs):  # what each worker costs beyond its parts (issue 30: ~0.2-0.4 s)
            extra = (high.run.cpu - low.run.cpu) / (top - min(jobs))
            out["fits"][family]["cpu_per_extra_job_s"] = extra
            print(f"  {'':<8} CPU per extra job {extra:.3f} s ({low.run.cpu:.2f} s at --jobs {min(jobs)}, "
                  f"{high.run.cpu:.2f} s at {top})")
    checks = []
    one, best = row("shards-j1"), row(f"shards-j{top}")
    if one and best:
        speedup = one.run.wall / best.run.wall
        checks.append((f"shards --jobs {top} >= 12x --jobs 1 (target at 16)", speedup >= 12, f"{speedup:.2f}x"))
        checks.append((f"shards --jobs {top} <= 0.8 s (target at 16, 100x)", best.run.wall <= 0.8,
                       f"{best.run.wall:.2f} s"))
    pq = row(f"parquet-j{top}")
    if pq:
        checks.append((f"Parquet --jobs {top} <= 0.5 s (target at 16, 100x)", pq.run.wall <= 0.5, f"{pq.run.wall:.2f} s"))
    for c, limit, what in ((f"dask-j{top}", 1.3, "LocalCluster"), (f"deploy-j{top}", 1.5, "deployment")):
        if row(c) and best:
            x = row(c).run.wall / best.run.wall
            checks.append((f"{what} of {top} <= {limit}x the pool of {top}", x <= limit, f"{x:.2f}x"))
    differ = [r.config for (m, c), r in bench.results.items() if m == n and r.same.startswith("NO")]
    failed = [r.config for (m, c), r in bench.results.items() if m == n and not r.ok()]
    checks.append(("every result identical", not differ and not failed,
                   "yes" if not differ and not failed else f"differ: {differ}, failed: {failed}"))
    print(f"\ntargets (issue 30; this machine has {cores()} cores):")
    for what, good, value in checks:
        out["targets"][what] = {"value": value, "pass": good}
        print(f"  {'PASS' if good else 'FAIL'}  {what}: {value}")
    return out


def compact_table(bench: Bench, n: int) -> None:
    rows = sorted(((c, r) for (m, c), r in bench.results.items() if m == n), key=lambda cr: config_order(cr[0]))
    one = bench.results.get((n, "shards-j1"))
    print(f"\n{n}x ({rows[0][1].scale.docs} documents, {rows[0][1].scale.tokens / 1e6:.1f}M tokens, "
          f"{rows[0][1].scale.shards} shards a side), {cores()} cores:")
    print(f"{'configuration':<14}{'wall s':>8}{'CPU s':>8}{'peak MB':>9}{'vs j1':>7}  same")
    for c, r in rows:
        if not r.ok():
            print(f"{c:<14}  {r.why}")
            continue
        vs = f"{one.run.wall / r.run.wall:.1f}x" if one is not None and one.ok() else "-"
        print(f"{c:<14}{r.run.wall:>8.2f}{r.run.cpu:>8.2f}{r.run.peak_mb:>9.0f}{vs:>7}  {r.same}")


def measured_python() -> str:
    return FASTSCORE[0] if FASTSCORE[1:2] == ["-m"] else PY


def kernels_compiled() -> bool:
    """Whether the measured fastscore has its kernels compiled at installation (current ones)."""
    probe = "from fastscore.first_run import compiled_kernels; print(compiled_kernels() is not None)"
    p = subprocess.run([measured_python(), "-c", probe], capture_output=True, text=True, check=False, cwd=RUN_CWD)
    return p.stdout.strip() == "True"


def compile_bytecode() -> None:
    """The measured fastscore's modules compiled to bytecode once (with PYTHONDONTWRITEBYTECODE, or a
    read-only tree, every run would compile them again)."""
    find = ("import importlib.util as u; print('\\n'.join(p for n in ('fastscore', 'fastscore.kernels') "
            "for p in u.find_spec(n).submodule_search_locations))")
    python = measured_python()
    p = subprocess.run([python, "-c", find], capture_output=True, text=True, check=False, cwd=RUN_CWD)
    folders = p.stdout.split()
    if folders:
        subprocess.run([python, "-m", "compileall", "-q", *folders], capture_output=True, check=False)


def main() -> None:
    global FASTSCORE, RUN_CWD
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scales", default="1,3,10,30,100", help="copies of the 1x corpus (default 1,3,10,30,100)")
    ap.add_argument("--shards", type=int, help="shard files a side (default 16; 64 with --jobs-curve)")
    ap.add_argument("--configs", default=",".join(CONFIGS),
                    help=f"configurations to time (default all: {','.join(CONFIGS)})")
    ap.add_argument("--dask-scale", type=int, default=10, help="the one scale Dask runs at (default 10)")
    ap.add_argument("--jobs-curve", metavar="N,N,...", help="instead of --scales/--configs: the curve over these "
                    "--jobs at --curve-scale (shards, Parquet shards, one file, LocalCluster and deployment)")
    ap.add_argument("--curve-scale", type=int, default=100, help="the corpus of --jobs-curve (default 100)")
    ap.add_argument("--curve-configs", default="parquet,one-file,dask,deploy",
                    help="what --jobs-curve times besides text shards (default parquet,one-file,dask,deploy)")
    ap.add_argument("--json", type=Path, metavar="FILE", help="write every measurement (and the fits) to FILE")
    ap.add_argument("--fastscore", metavar="CMD", help="the command measured (default: the fastscore beside this "
                    "Python, else python -m fastscore); 'python -m fastscore' runs in this checkout")
    ap.add_argument("--runs", type=int, default=1, help="runs of each configuration, best wall kept (default 1; "
                    "a deployment always gets 2 or more: its first run is kept in the JSON)")
    ap.add_argument("--timeout", type=float, default=1800, help="seconds before a fastscore run is killed")
    ap.add_argument("--perl-scorer", type=Path, help="v8.01 scorer.pl (omit: no reference)")
    ap.add_argument("--perl-scale", type=int, default=10, help="the scale v8.01 runs at (default 10)")
    ap.add_argument("--perl-metrics", default=",".join(PERL_METRICS), help="v8.01 metrics (default all five)")
    ap.add_argument("--perl-timeout", type=float, default=900, help="seconds per v8.01 run (default 900)")
    ap.add_argument("--prepare-only", action="store_true", help="build the corpora (text and Parquet) and stop")
    args = ap.parse_args()
    started = time.perf_counter()
    if args.fastscore:
        FASTSCORE = shlex.split(args.fastscore)
        RUN_CWD = ROOT if FASTSCORE[1:3] == ["-m", "fastscore"] else None
    scales = [int(s) for s in args.scales.split(",") if s.strip()]
    configs = [c.strip() for c in args.configs.split(",") if c.strip()]
    unknown = [c for c in configs if c not in CONFIGS]
    if unknown:
        ap.error(f"unknown configuration(s) {', '.join(unknown)}; choose from {', '.join(CONFIGS)}")
    curve_jobs = sorted({int(j) for j in args.jobs_curve.split(",") if j.strip()}) if args.jobs_curve else []
    if args.jobs_curve and (not curve_jobs or min(curve_jobs) < 1):
        ap.error("--jobs-curve: give job counts of 1 or more, e.g. 1,2,4,8,16")
    curve_configs = {c.strip() for c in args.curve_configs.split(",") if c.strip()}
    if curve_configs - {"parquet", "one-file", "dask", "deploy"}:
        ap.error("--curve-configs: choose from parquet, one-file, dask, deploy")
    perl_metrics = [m.strip() for m in args.perl_metrics.split(",") if m.strip()]
    if any(m not in PERL_METRICS for m in perl_metrics):
        ap.error(f"--perl-metrics: choose from {', '.join(PERL_METRICS)}")

    corpora = Corpora(args.shards or (64 if curve_jobs else 16))
    flags = available_flags()
    print(f"fastscore: {shlex.join(FASTSCORE)}; 1x corpus: {corpora.key.relative_to(ROOT)} "
          f"({corpora.tokens_1x:,} tokens); {cores()} cores; peak memory from {'psutil' if psutil else '/proc'}; "
          f"flags present: " + ", ".join(f"{f} {'yes' if f in flags else 'no'}"
                                         for f in ("--jobs", "--batch-size", "--executor")), flush=True)
    if os.environ.get("PYTHONDONTWRITEBYTECODE"):  # an installed wheel has its bytecode; without it every run compiles
        print("note: PYTHONDONTWRITEBYTECODE is set: unless `python -m compileall` ran over fastscore (and Dask), each "
              "run compiles their modules first (0.24 s of a 16-core run's parent, measured 2026-11-26)", flush=True)
    if args.prepare_only:
        wanted = [args.curve_scale] if curve_jobs else sorted(
            {*scales, *([args.dask_scale] if "dask-j2" in configs else []), *([args.perl_scale] if args.perl_scorer else [])})
        for n in wanted:
            corpora.get(n, parquet=("parquet" in curve_configs) if curve_jobs else "parquet-j2" in configs)
        return

    compile_bytecode()
    warm = [*FASTSCORE, "coref", corpora.key, corpora.response, "--output", "json"]
    jit = {} if kernels_compiled() else {"FASTSCORE_JIT": "always"}  # compiled at installation: no JIT to warm
    print(f"{'filling the numba cache' if jit else 'a first run'} (not timed):", flush=True)
    show(["env", *[f"{k}={v}" for k, v in jit.items()], *warm])
    subprocess.run(list(map(str, warm)), capture_output=True, env={**os.environ, **jit}, check=False, cwd=RUN_CWD)

    bench = Bench(corpora, flags, args.runs, args.timeout)
    summary = {}
    if curve_jobs:
        run_curve(bench, args.curve_scale, curve_jobs, curve_configs)
    else:
        for n in scales:
            for c in configs:
                if c != "dask-j2":
                    bench.fastscore(n, c)
        if "dask-j2" in configs:
            bench.fastscore(args.dask_scale, "dask-j2")
            if "shards-j2" in configs:
                bench.fastscore(args.dask_scale, "shards-j2")
    if args.perl_scorer:
        reference(bench, args.perl_scorer, args.perl_scale, perl_metrics, args.perl_timeout)
    if curve_jobs:
        summary = curve_summary(bench, args.curve_scale, curve_jobs)
    else:
        table(bench)
        curve(bench, sorted({n for n, _ in bench.results}))
        targets(bench, args.dask_scale)
    if args.json:
        import platform

        args.json.write_text(json.dumps({
            "machine": {"cores": cores(), "python": platform.python_version(), "platform": platform.platform()},
            "fastscore": shlex.join(FASTSCORE), "runs": args.runs, "jobs_curve": curve_jobs,
            "results": [r.to_json() for r in bench.results.values()], **summary,
            "bench_seconds": time.perf_counter() - started}, indent=1) + "\n")
        print(f"\nwritten: {args.json}")
    if curve_jobs:
        compact_table(bench, args.curve_scale)
    print(f"(benchmark: {time.perf_counter() - started:.0f} s in all)")


if __name__ == "__main__":
    main()
