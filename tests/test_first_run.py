"""The first run after installation (issues 15, 37): the kernels compiled at installation in every process, the
JIT only in development (``FASTSCORE_JIT=always``) or for argument types nothing was compiled for, announced
once; a cache folder numba can write; the numbers the same on every path."""
from __future__ import annotations

import os
import subprocess
import sys
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
    assert out.returncode == 0 and out.stderr.startswith("fastscore: compiling scoring kernels"), out.stderr
    assert out.stderr.count("\n") == 1  # one line, once
    cached = list((tmp_path / f"fastscore-{os.getuid()}" / "numba-cache").rglob("*.nbi"))
    assert cached, "nothing cached in the fallback folder"


DATA = ROOT / "tests" / "data"


@pytest.mark.slow  # every task run with its kernels interpreted
@pytest.mark.parametrize("args", [
    ["nugget", DATA / "nugget_anchors/case-003/gold.char.tbf", DATA / "nugget_anchors/case-003/system.char.tbf",
     "--char-spans", "--coref"],
    ["temporal", DATA / "temporal_anchors/chains-0/gold", DATA / "temporal_anchors/chains-0/system"],
    ["triples", DATA / "triples_anchors/case-003/gold.trp", DATA / "triples_anchors/case-003/system.trp"],
    ["coref", DATA / "corefud_anchors/cases/gum_news_crane.key.conllu",
     DATA / "corefud_anchors/cases/gum_news_crane.response.conllu"],
], ids=["nugget", "temporal", "triples", "corefud"])
def test_every_task_prints_the_same_without_the_jit(args):
    """The kernels as plain Python (numba's NUMBA_DISABLE_JIT, for debugging them) and compiled give the same
    report."""
    plain = _run(args, _env(NUMBA_DISABLE_JIT="1"))
    compiled = _run(args, _env())
    assert plain.returncode == compiled.returncode == 0, plain.stderr + compiled.stderr
    assert plain.stdout == compiled.stdout and plain.stdout.strip()


def test_a_bad_fastscore_jit_is_a_usage_error():
    out = _run(["coref", "example", "example"], _env(FASTSCORE_JIT="sometimes"))
    assert out.returncode == 2 and "FASTSCORE_JIT='sometimes'" in out.stderr and "Traceback" not in out.stderr


@pytest.mark.slow  # compiles the coref kernels twice (minutes on 2 cores)
def test_a_compiling_run_says_so_once(tmp_path):
    """Nothing cached and the JIT asked for: the command line says so on stderr before it compiles, the API
    with one FastscoreWarning; a compiled run of the same says nothing."""
    env = _env(FASTSCORE_JIT="always", NUMBA_CACHE_DIR=str(tmp_path / "cache"))
    cli = _run(["coref", "example", "example"], env)
    assert cli.returncode == 0 and cli.stderr.count("fastscore: compiling scoring kernels") == 1, cli.stderr
    code = ("import warnings, fastscore\nwith warnings.catch_warnings(record=True) as seen:\n"
            "    warnings.simplefilter('always')\n    import fastscore.examples as E\n    fastscore.score_coref(str(E.KEY), str(E.RESPONSE))\n"
            "print([str(w.message)[:30] for w in seen])")
    api = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT)
    assert api.returncode == 0, api.stderr
    assert api.stdout.strip() == "[]"  # cached by the command line's run: nothing compiles, nothing said
    env["NUMBA_CACHE_DIR"] = str(tmp_path / "other")
    api = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT)
    assert api.stdout.strip() == "['fastscore: compiling scoring k']", api.stdout + api.stderr
