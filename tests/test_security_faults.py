"""Faults of the machine, not of the input: a pool worker that dies, memory that runs out, numba's threads
across a fork, and table files whose metadata holds anything.  Each is one line naming the files, exit 1, no
traceback, nothing half-written (issue 35, items 6 and 8)."""
from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import types
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from fastscore import executors, shards
from fastscore.cli import main
from fastscore.errors import InputError, ResourceError
from fastscore.formats.columnar import read_mention_table, write_mention_table
from fastscore.outputs import TEMPORARY_PREFIX
from tests.conftest import ROOT, TESTDATA

NUGGET = ROOT / "fastscore" / "examples" / "nugget"
KEY = ROOT / "fastscore" / "examples" / "key.conll"
RESPONSE = ROOT / "fastscore" / "examples" / "response.conll"


def _one_error_line(code: int, err: str, *fragments: str) -> None:
    assert code == 1, err
    lines = [x for x in err.splitlines() if not x.startswith("fastscore: warning: ")]
    assert len(lines) == 1 and lines[0].startswith("fastscore: error: "), err
    for fragment in fragments:
        assert fragment in lines[0], lines[0]


@pytest.fixture
def tbf_shards(tmp_path) -> tuple[Path, Path]:
    """Three key shards and their response shards (d1, d2, d3: the nugget example, its documents renamed)."""
    gold, system = tmp_path / "gold", tmp_path / "system"
    gold.mkdir(), system.mkdir()
    for i in (1, 2, 3):
        for source, folder in (("key.tbf", gold), ("response.tbf", system)):
            text = re.sub(r"(?m)^(#BeginOfDocument \S+)", rf"\1_{i}", (NUGGET / source).read_text(encoding="utf-8"))
            (folder / f"d{i}.tbf").write_text(text, encoding="utf-8")
    return gold, system


# ---- a pool worker that dies


# what the items of a pool run: code given to the builtin exec (no module of the tests to import in a worker)
KILLED_ON_B = [("pass",), ("import os, signal; os.kill(os.getpid(), signal.SIGKILL)",), ("pass",)]
NO_MEMORY_ON_B = [("pass",), ("raise MemoryError",), ("pass",)]
FILES = [["a.tbf"], ["b.tbf"], ["c.tbf"]]

DYING_READER = (
    "import os, signal, sys\n"
    "from fastscore import shards\n"
    "from fastscore.cli import main\n"
    "parent, read = os.getpid(), shards._read\n"
    "def dying(task, part, options=None):\n"
    "    if os.getpid() != parent and os.path.basename(str(part)) == 'd2.tbf':\n"
    "        os.kill(os.getpid(), signal.SIGKILL)\n"
    "    return read(task, part, options)\n"
    "shards._read = dying\n")


def test_a_killed_pool_worker_names_the_files_it_had():
    with executors.LocalExecutor(2) as ex:
        with pytest.raises(ResourceError) as got:
            ex.run(exec, KILLED_ON_B, lambda i, v: None, None, FILES)
    message = str(got.value)
    assert "a worker process was killed by SIGKILL while working on" in message
    assert '"b.tbf"' in message and '"a.tbf"' not in message
    assert "fewer --jobs" in message


def test_a_killed_worker_on_the_command_line_is_one_line(tbf_shards):
    """The command line scoring shards with --jobs 2, one worker killed (SIGKILL) as it reads d2.tbf."""
    gold, system = tbf_shards
    program = DYING_READER + "sys.exit(main(sys.argv[1:]))\n"
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    proc = subprocess.run([sys.executable, "-c", program, "nugget", str(gold), str(system), "--char-spans",
                           "--jobs", "2", "--quiet"], capture_output=True, text=True, cwd=ROOT, env=env, timeout=120)
    _one_error_line(proc.returncode, proc.stderr, "killed by SIGKILL", "d2.tbf")
    assert "d1.tbf" not in proc.stderr and "Traceback" not in proc.stderr


@pytest.mark.slow
def test_a_killed_dask_worker_is_one_line(tbf_shards, tmp_path):
    """A LocalCluster's worker killed as it reads d2.tbf (Dask gives up at once: allowed-failures 0), Dask's
    own logs silenced.  The workers come from a forkserver, not from this process: the dying reader reaches
    them as a worker preload of their own."""
    pytest.importorskip("dask.distributed")
    gold, system = tbf_shards
    preload = tmp_path / "dying_reader.py"
    preload.write_text(DYING_READER.replace("parent, read = os.getpid(), shards._read",
                                            "parent, read = None, shards._read"))  # run in the workers only
    program = (
        "import sys\n"
        "import dask\n"
        "from fastscore.cli import main\n"
        f"with dask.config.set({{'distributed.scheduler.allowed-failures': 0, "
        f"'distributed.worker.preload': [{str(preload)!r}]}}):\n"
        "    sys.exit(main(sys.argv[1:]))\n")
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    proc = subprocess.run([sys.executable, "-c", program, "nugget", str(gold), str(system), "--char-spans",
                           "--executor", "dask", "--jobs", "2", "--quiet"], capture_output=True, text=True, cwd=ROOT,
                          env=env, timeout=300)
    _one_error_line(proc.returncode, proc.stderr, "Dask workers died while reading and scoring", "d2.tbf")


def test_a_system_that_refuses_more_processes_is_one_error(monkeypatch):
    """fork() failing with EAGAIN (a limit on processes, or on memory): a ResourceError naming --jobs, and
    nothing left running."""
    import errno
    import threading

    def refused():
        raise BlockingIOError(errno.EAGAIN, "Resource temporarily unavailable")

    monkeypatch.setattr(threading, "active_count", lambda: 1)  # the pool forks (the test's process may have threads)
    monkeypatch.setattr(executors, "kernel_threads_allow_fork", lambda: True)
    monkeypatch.setattr(os, "fork", refused)
    with executors.LocalExecutor(2) as ex:
        with pytest.raises(ResourceError, match=r"--jobs 2: cannot start the worker processes \(Resource "
                                                r"temporarily unavailable\): no result \(try fewer --jobs\)"):
            ex.run(abs, [(-1,), (-2,)], lambda i, v: None)


# ---- memory that runs out


@pytest.mark.parametrize("jobs", [1, 2])
def test_memory_running_out_in_a_part_names_its_files(jobs):
    with executors.LocalExecutor(jobs) as ex:
        with pytest.raises(ResourceError, match='out of memory while working on "b.tbf": no result'):
            ex.run(exec, NO_MEMORY_ON_B, lambda i, v: None, None, FILES)


def test_memory_running_out_while_reading_is_one_line(monkeypatch, capsys):
    def no_memory(*args, **kwargs):
        raise MemoryError

    monkeypatch.setattr("fastscore.nugget.score.read_tbf", no_memory)
    code = main(["nugget", str(NUGGET / "key.tbf"), str(NUGGET / "response.tbf")])
    _one_error_line(code, capsys.readouterr().err, "out of memory while reading or scoring", "key.tbf",
                    "response.tbf", "--batch-size")


def test_memory_running_out_while_converting_leaves_the_target_as_it_was(tmp_path, monkeypatch, capsys):
    target = tmp_path / "out.jsonl"
    target.write_text("what the user had\n")

    def no_memory(*args, **kwargs):  # once the whole output is in the temporary file
        raise MemoryError

    monkeypatch.setattr("fastscore.coref.convert._verify", no_memory)
    code = main(["convert", str(KEY), str(target), "--to", "jsonl"])
    _one_error_line(code, capsys.readouterr().err, "out of memory while converting", "key.conll")
    assert target.read_text() == "what the user had\n"
    assert not list(tmp_path.glob(TEMPORARY_PREFIX + "*"))


@pytest.mark.slow
def test_a_real_memory_limit_while_converting(tmp_path):
    """``ulimit -v`` of 550 MB and a CoNLL-2012 file of 1M tokens (as plain Python: numba's JIT alone needs
    more): one line, and no output."""
    import resource

    lines = [f"#begin document (d{d}); part 000\n" + "".join(
        f"d{d}\t0\t{i}\tword{i}\tNN\t*\t-\t-\t-\t-\t*\t{'(1)' if i % 7 == 0 else '-'}\n" + ("\n" if i % 25 == 24 else "")
        for i in range(500)) + "#end document\n" for d in range(2000)]
    (tmp_path / "big.conll").write_text("".join(lines))
    limit = lambda: resource.setrlimit(resource.RLIMIT_AS, (550 << 20, 550 << 20))  # noqa: E731
    proc = subprocess.run([sys.executable, "-m", "fastscore", "convert", str(tmp_path / "big.conll"),
                           str(tmp_path / "out.jsonl"), "--to", "jsonl"], capture_output=True, text=True, cwd=ROOT,
                          env={**os.environ, "NUMBA_DISABLE_JIT": "1"}, preexec_fn=limit, timeout=900)
    _one_error_line(proc.returncode, proc.stderr, "out of memory while converting", "big.conll")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["big.conll"]


def test_dask_workers_that_died_or_ran_out_of_memory_name_the_files():
    distributed = pytest.importorskip("distributed")

    class Failed:
        def __init__(self, exc):
            self.exc = exc

        def result(self):
            raise self.exc

    with pytest.raises(ResourceError, match='Dask workers died while scoring "k.tbf", "r.tbf"'):
        executors.dask_result(Failed(distributed.KilledWorker("score-1", None, 3)), ["k.tbf", "r.tbf"], "scoring")
    with pytest.raises(ResourceError, match='out of memory while reading "k.tbf"'):
        executors.dask_result(Failed(MemoryError()), ["k.tbf"], "reading")
    with pytest.raises(KeyError):  # anything else is the caller's to report
        executors.dask_result(Failed(KeyError("x")), ["k.tbf"], "reading")


# ---- numba's threads and fork


@pytest.mark.parametrize("layer, vendor, safe", [("omp", "GNU", False), ("omp", "Intel", True),
                                                 ("workqueue", None, True), ("tbb", None, True), (None, None, True)])
def test_a_process_on_gnu_openmp_is_not_forked(monkeypatch, layer, vendor, safe):
    """numba's GNU OpenMP layer ends every child forked after it started ("Terminating: fork() called from a
    process already using GNU OpenMP"); the other layers, or none started yet, allow a fork."""
    def threading_layer():
        if layer is None:
            raise ValueError("Threading layer is not initialized.")
        return layer

    monkeypatch.setitem(sys.modules, "numba", types.SimpleNamespace(threading_layer=threading_layer))
    monkeypatch.setitem(sys.modules, "numba.np.ufunc.omppool", types.SimpleNamespace(openmp_vendor=vendor))
    assert executors.kernel_threads_allow_fork() is safe


def test_the_pool_starts_its_workers_otherwise_when_a_fork_is_unsafe(monkeypatch):
    monkeypatch.setattr(executors, "kernel_threads_allow_fork", lambda: False)
    with executors.LocalExecutor(2) as ex:
        assert ex.run(abs, [(-1,), (-2,)], lambda i, v: None) == [1, 2]
        assert ex.pool._mp_context.get_start_method() == "forkserver"


def test_the_command_line_chooses_a_fork_safe_threading_layer(monkeypatch):
    from fastscore import cli

    class Exited(Exception):
        pass

    def exit_(code):
        raise Exited(code)

    monkeypatch.setattr(cli, "main", lambda own_process=False: 0)
    monkeypatch.setattr(cli.os, "_exit", exit_)
    for name in ("NUMBA_THREADING_LAYER", "OPENBLAS_NUM_THREADS"):
        monkeypatch.setenv(name, "set")  # restored after the test
        monkeypatch.delenv(name)
    with pytest.raises(Exited):
        cli.run()
    assert os.environ["NUMBA_THREADING_LAYER"] == "forksafe"
    monkeypatch.setenv("NUMBA_THREADING_LAYER", "omp")  # the user's choice is kept (the pool then avoids a fork)
    with pytest.raises(Exited):
        cli.run()
    assert os.environ["NUMBA_THREADING_LAYER"] == "omp"


@pytest.mark.slow
@pytest.mark.parametrize("layer", [None, "omp"])
def test_shards_with_numba_kernels_and_jobs(tbf_shards, layer):
    """The documented run on numba's JIT (a source install): --jobs 2 over folders, after the parent loaded
    parallel kernels (compiles them on a cold cache: minutes)."""
    gold, system = tbf_shards
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_THREADING_LAYER"}
    env["FASTSCORE_JIT"] = "always"
    if layer is not None:
        env["NUMBA_THREADING_LAYER"] = layer
    proc = subprocess.run([sys.executable, "-m", "fastscore", "nugget", str(gold), str(system), "--char-spans",
                           "--jobs", "2", "--quiet"], capture_output=True, text=True, cwd=ROOT, env=env, timeout=1200)
    assert proc.returncode == 0 and "Terminating" not in proc.stderr, proc.stderr
    assert "documents: 6" in proc.stdout


# ---- table files whose metadata holds anything


@pytest.fixture
def table_file(tmp_path):
    import fastscore

    write_mention_table(fastscore.read_conll(KEY), tmp_path / "good.parquet", "parquet")
    return pq.read_table(tmp_path / "good.parquet")


def _with_metadata(arrow, key: bytes, edit) -> pa.Table:
    meta = dict(arrow.schema.metadata)
    value = json.loads(meta[key])
    edit(value)
    meta[key] = json.dumps(value).encode()
    return arrow.replace_schema_metadata(meta)


@pytest.mark.parametrize("tokens, problem", [
    ([1e300], "holds 1e+300 at 0"), ([-1], "holds -1 at 0"), ([2.0], "holds 2.0 at 0"), (["12"], "holds '12' at 0"),
    ([True], "holds True at 0"), ([[3]], "holds [3] at 0"), ([2 ** 40], "holds 1099511627776 at 0, not a whole number from 0 to 67108864"),
    ([12, 12], "holds 2 values for 1 documents"), (None, "holds no list for 1 documents"),
])
def test_table_metadata_is_checked(table_file, tmp_path, tokens, problem):
    bad = _with_metadata(table_file, b"fastscore.mentions", lambda m: m.update(doc_tokens=tokens))
    pq.write_table(bad, tmp_path / "bad.parquet")
    with pytest.raises(InputError, match="bad.parquet: its metadata 'doc_tokens' " + _escaped(problem)):
        read_mention_table(tmp_path / "bad.parquet")


def _escaped(text: str) -> str:
    return re.escape(text)


def test_table_metadata_of_1e300_on_the_command_line(table_file, tmp_path, capsys):
    bad = _with_metadata(table_file, b"fastscore.mentions", lambda m: m.update(doc_tokens=[1e300]))
    pq.write_table(bad, tmp_path / "bad.parquet")
    code = main(["coref", str(tmp_path / "bad.parquet"), str(RESPONSE)])
    _one_error_line(code, capsys.readouterr().err, "bad.parquet", "doc_tokens", "1e+300")


def test_table_lines_and_columns_are_checked(table_file, tmp_path):
    bad = _with_metadata(table_file, b"fastscore.mentions", lambda m: m.update(doc_lines=[float("inf")]))
    pq.write_table(bad, tmp_path / "lines.parquet")
    with pytest.raises(InputError, match="'doc_lines' holds inf"):
        read_mention_table(tmp_path / "lines.parquet")
    start = table_file.column("start").to_numpy().astype("float64")
    bad = table_file.set_column(table_file.column_names.index("start"), "start", pa.array(start))
    pq.write_table(bad, tmp_path / "floats.parquet")
    with pytest.raises(InputError, match="column 'start' holds double, not integers"):
        read_mention_table(tmp_path / "floats.parquet")


@pytest.mark.parametrize("edit", [
    lambda s: s.update(lines=[float("inf")] * len(s["lines"])),
    lambda s: s.update(lines=["1"] * len(s["lines"])),
    lambda s: s.update(ids=[[1]] * len(s["ids"])),
    lambda s: s.update(newdoc={"99999": "d"}),
    lambda s: s.update(newdoc={"0": {"a": 1}}),
    lambda s: s.update(digests=5),
], ids=["inf", "string", "list", "no-such-sentence", "object", "number"])
def test_conllu_sentence_metadata_is_checked(tmp_path, edit):
    from fastscore.formats.conllu import read_conllu

    case = sorted((TESTDATA / "corefud_anchors" / "cases").glob("*.conllu"))[0]
    write_mention_table(read_conllu(case), tmp_path / "good.parquet", "parquet")
    bad = _with_metadata(pq.read_table(tmp_path / "good.parquet"), b"fastscore.sentences", edit)
    pq.write_table(bad, tmp_path / "bad.parquet")
    with pytest.raises(InputError, match="bad.parquet: not a fastscore mention table .*sentences"):
        read_mention_table(tmp_path / "bad.parquet")


def test_statistics_metadata_and_columns_are_checked():
    """Per-document statistics read back (DocStats.from_arrow): metadata that is not ours, deeply nested JSON,
    a column of strings: an InputError naming the source."""
    import fastscore
    from fastscore.coref.metrics import METRICS
    from fastscore.stats.docstats import DocStats

    table = fastscore.score_coref(KEY, RESPONSE).doc_stats.to_arrow()
    info = json.loads(table.schema.metadata[b"fastscore"])
    for raw in (json.dumps({**info, "columns": 5}), json.dumps([info]), "[" * 100000, "{"):
        with pytest.raises(InputError, match="s.parquet: its 'fastscore' metadata is not that of fastscore"):
            DocStats.from_arrow(table.replace_schema_metadata({"fastscore": raw}), METRICS, "s.parquet")
    column = info["columns"][0]
    strings = table.set_column(1, column, pa.array([str(x) for x in table.column(1).to_pylist()]))
    with pytest.raises(InputError, match=f"s.parquet: column '{column}' holds string, not numbers"):
        DocStats.from_arrow(strings, METRICS, "s.parquet")
