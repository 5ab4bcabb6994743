"""The first run after installation (issue 15): plain-Python kernels for small inputs, compilation in the
background, a cache folder numba can write; the numbers the same on every path."""
from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from fastscore import first_run
from fastscore.coref.task import COREF
from fastscore.examples import KEY, RESPONSE

ROOT = Path(__file__).resolve().parent.parent
ANCHOR = ROOT / "tests" / "data" / "anchors"


def _env(**extra) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_DISABLE_JIT", "FASTSCORE_JIT", "NUMBA_CACHE_DIR")}
    env.update(extra)
    return env


def _run(args, env, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "fastscore", *map(str, args)], capture_output=True, text=True,
                          env=env, cwd=cwd)


def test_mode_choice(tmp_path, monkeypatch):
    monkeypatch.delenv("FASTSCORE_JIT", raising=False)
    monkeypatch.delenv("NUMBA_DISABLE_JIT", raising=False)
    monkeypatch.setattr(first_run, "compiling_in_background", lambda: False)
    monkeypatch.setattr(first_run, "compiled_kernels", lambda: None)  # as installed without them
    small = tmp_path / "small.conll"
    small.write_bytes(b"x" * 1000)
    medium = tmp_path / "medium.conll"
    medium.write_bytes(b"x" * (first_run.TINY_BYTES + 1))
    choose = first_run.choose_mode
    monkeypatch.delitem(sys.modules, "numba", raising=False)  # as in a fresh command-line process
    for cached in (False, True):
        monkeypatch.setattr(first_run, "kernels_cached", lambda modules=None, c=cached: c)
        assert choose([str(small)], COREF.kernels) == "python"  # tiny: always plain Python
        assert choose([str(medium)], COREF.kernels) == ("jit" if cached else "python")
        assert choose([str(small)], COREF.kernels, heavy=True) == "jit"  # resampling: compiled at once
        assert choose(["-"], COREF.kernels) == "jit"  # standard input cannot be sized
    monkeypatch.setattr(first_run, "PYTHON_MODE_BYTES", 10)
    monkeypatch.setattr(first_run, "TINY_BYTES", 5)
    monkeypatch.setattr(first_run, "kernels_cached", lambda modules=None: False)
    assert choose([str(small)], COREF.kernels) == "jit"  # too big to run as Python: compile
    monkeypatch.setenv("FASTSCORE_JIT", "never")
    assert choose([str(medium)], COREF.kernels) == "python"
    monkeypatch.setenv("FASTSCORE_JIT", "always")
    assert choose([str(small)], COREF.kernels) == "jit"
    monkeypatch.setenv("FASTSCORE_JIT", "aot")
    assert choose([str(small)], COREF.kernels) == "jit"  # asked for, but not there
    # with the kernels compiled at installation: every run but tiny and resampling ones uses them
    monkeypatch.setattr(first_run, "compiled_kernels", lambda: object())
    monkeypatch.setattr(first_run, "PYTHON_MODE_BYTES", 24 << 20)
    monkeypatch.setattr(first_run, "TINY_BYTES", 256 << 10)
    assert choose([str(small)], COREF.kernels) == "aot"
    monkeypatch.setenv("FASTSCORE_JIT", "auto")
    for cached in (False, True):
        monkeypatch.setattr(first_run, "kernels_cached", lambda modules=None, c=cached: c)
        assert choose([str(small)], COREF.kernels) == "python"
        assert choose([str(medium)], COREF.kernels) == "aot"
        assert choose(["-"], COREF.kernels) == "aot"
        assert choose([str(small)], COREF.kernels, heavy=True) == "aot"  # resampling: the compiled kernels too
    monkeypatch.setenv("FASTSCORE_JIT", "never")
    assert choose([str(medium)], COREF.kernels) == "python"
    monkeypatch.setenv("FASTSCORE_JIT", "always")
    assert choose([str(medium)], COREF.kernels) == "jit"


def test_tiny_runs_do_not_import_numba_and_print_the_same():
    code = ("import sys, contextlib, io\nfrom fastscore.cli import main\nbuf = io.StringIO()\n"
            "with contextlib.redirect_stdout(buf):\n"
            "    rc = main(['coref', sys.argv[1], sys.argv[2], '--output', 'perl', '--allow-repeated'], own_process=True)\n"
            "print(rc, 'numba' in sys.modules)\nprint(buf.getvalue())")
    key, resp = ANCHOR / "case-000.key", ANCHOR / "case-000.response"
    plain = subprocess.run([sys.executable, "-c", code, str(key), str(resp)], capture_output=True, text=True,
                           env=_env(FASTSCORE_JIT="never"))
    compiled = subprocess.run([sys.executable, "-c", code, str(key), str(resp)], capture_output=True, text=True,
                              env=_env(FASTSCORE_JIT="always"))
    assert plain.stdout.splitlines()[0] == "0 False", plain.stderr
    assert compiled.stdout.splitlines()[0] == "0 True", compiled.stderr
    assert plain.stdout.splitlines()[1:] == compiled.stdout.splitlines()[1:]
    assert plain.stdout.count("METRIC") >= 5


def test_cache_location_when_nothing_is_writable(tmp_path, monkeypatch):
    from numba.core import config

    monkeypatch.setattr(first_run, "_writable", lambda folder: False)
    monkeypatch.setattr(config, "CACHE_DIR", "")
    monkeypatch.setattr(first_run.tempfile, "gettempdir", lambda: str(tmp_path))
    first_run.ensure_cache_location()
    assert config.CACHE_DIR == first_run.fallback_cache_dir()
    assert config.CACHE_DIR.startswith(str(tmp_path))
    monkeypatch.setattr(config, "CACHE_DIR", "/somewhere/the/user/chose")
    first_run.ensure_cache_location()
    assert config.CACHE_DIR == "/somewhere/the/user/chose"  # NUMBA_CACHE_DIR is left alone


@pytest.mark.slow
def test_read_only_installation_compiles_into_the_fallback_folder(tmp_path):
    """Neither the package's folder nor the user's cache folder writable (simulated: the tests may run as
    root, who can write anywhere): the kernels compile into a folder under the temporary directory, and the
    run says nothing but its report."""
    code = ("import sys\nimport fastscore.first_run as f\nf._writable = lambda folder: False\n"
            "from fastscore.cli import main\nsys.exit(main(['coref', sys.argv[1], sys.argv[2]], own_process=True))")
    env = _env(FASTSCORE_JIT="always", TMPDIR=str(tmp_path))
    out = subprocess.run([sys.executable, "-c", code, str(KEY), str(RESPONSE)], capture_output=True, text=True,
                         env=env)
    assert out.returncode == 0 and out.stderr == "", out.stderr
    cached = list((tmp_path / f"fastscore-{os.getuid()}" / "numba-cache").rglob("*.nbi"))
    assert cached, "nothing cached in the fallback folder"


@pytest.mark.slow
def test_first_run_compiles_in_the_background(tmp_path, monkeypatch):
    """Empty cache: the example runs as plain Python, quickly, and starts a background compilation; once
    it is done the kernels are cached and a compiled run prints the same."""
    cache = tmp_path / "cache"
    env = _env(NUMBA_CACHE_DIR=str(cache), TMPDIR=str(tmp_path))
    t = time.perf_counter()
    cold = _run(["coref", "example", "example"], env)
    cold_seconds = time.perf_counter() - t
    assert cold.returncode == 0, cold.stderr
    assert cold_seconds < 10  # loose: the figure is in bench/startup.py; compiling would take ~20 s
    deadline = time.time() + 600
    monkeypatch.setattr(first_run.tempfile, "tempdir", str(tmp_path))  # the run's TMPDIR
    lock = Path(first_run.lock_path())
    while time.time() < deadline and (lock.exists() or not list(cache.rglob("*.nbi"))):
        time.sleep(1)
    while time.time() < deadline and lock.exists():
        time.sleep(1)
    environ = dict(os.environ)
    try:
        os.environ["NUMBA_CACHE_DIR"] = str(cache)
        assert first_run.kernels_cached(COREF.kernels)
    finally:
        os.environ.clear()
        os.environ.update(environ)
    stamps = {p: p.stat().st_mtime_ns for p in cache.rglob("*.nbi")}
    warm = _run(["coref", "example", "example"], {**env, "FASTSCORE_JIT": "always"})
    assert warm.returncode == 0 and warm.stdout == cold.stdout
    assert {p: p.stat().st_mtime_ns for p in cache.rglob("*.nbi")} == stamps  # nothing compiled again


DATA = ROOT / "tests" / "data"


@pytest.mark.parametrize("args", [
    ["nugget", DATA / "nugget_anchors/case-003/gold.char.tbf", DATA / "nugget_anchors/case-003/system.char.tbf",
     "--char-spans", "--coref"],
    ["temporal", DATA / "temporal_anchors/chains-0/gold", DATA / "temporal_anchors/chains-0/system"],
    ["triples", DATA / "triples_anchors/case-003/gold.trp", DATA / "triples_anchors/case-003/system.trp"],
    ["coref", DATA / "corefud_anchors/cases/gum_news_crane.key.conllu",
     DATA / "corefud_anchors/cases/gum_news_crane.response.conllu"],
], ids=["nugget", "temporal", "triples", "corefud"])
def test_every_task_prints_the_same_without_the_jit(args):
    """The plain-Python kernels (numba not imported) and the compiled ones give the same report."""
    plain = _run(args, _env(FASTSCORE_JIT="never"))
    compiled = _run(args, _env(FASTSCORE_JIT="always"))
    assert plain.returncode == compiled.returncode == 0, plain.stderr + compiled.stderr
    assert plain.stdout == compiled.stdout and plain.stdout.strip()


def test_in_process_main_leaves_the_process_alone(monkeypatch, capsys):
    """``cli.main`` called from a program (or a test) never switches that process's kernels to plain Python."""
    from fastscore.cli import main

    monkeypatch.delenv("NUMBA_DISABLE_JIT", raising=False)
    monkeypatch.delenv("FASTSCORE_JIT", raising=False)
    monkeypatch.delitem(sys.modules, "numba", raising=False)  # as if nothing had imported numba yet
    assert main(["coref", str(ANCHOR / "case-000.key"), str(ANCHOR / "case-000.response"), "--allow-repeated"]) == 0
    assert "NUMBA_DISABLE_JIT" not in os.environ


def test_a_bad_fastscore_jit_is_a_usage_error():
    out = _run(["coref", "example", "example"], _env(FASTSCORE_JIT="sometimes"))
    assert out.returncode == 2 and "FASTSCORE_JIT='sometimes'" in out.stderr and "Traceback" not in out.stderr
