"""Issue 35, code and configuration from elsewhere: the processes fastscore starts import nothing from the
working folder, numba reads no ``.numba_config.yaml`` there, and the folders and locks fastscore keeps in the
shared temporary directory are this user's private ones (links, other users' and world-writable ones refused)."""
from __future__ import annotations

import os
import stat
import subprocess
import sys
import tempfile
import textwrap
import warnings
from pathlib import Path

import pytest

from fastscore import _isolation, first_run
from fastscore.errors import FastscoreWarning

ROOT = Path(__file__).resolve().parent.parent
# modules a Python process imports after its start (first_run imports zlib; the warm-up, argparse; the
# forkserver, socket and selectors): planted in the working folder, each leaves a mark if it is ever run
PLANTED = ("zlib", "numpy", "argparse", "socket", "selectors", "fastscore")


def _plant(folder: Path) -> Path:
    marks = folder / "marks"
    marks.mkdir()
    for name in PLANTED:
        (folder / f"{name}.py").write_text(f"open({str(marks / name)!r}, 'w').close()\n")
    return marks


def _env(tmp: Path, **extra) -> dict:
    env = {k: v for k, v in os.environ.items()
           if k not in ("NUMBA_DISABLE_JIT", "FASTSCORE_JIT", "NUMBA_CACHE_DIR", "PYTHONSAFEPATH")}
    env.update(TMPDIR=str(tmp), **extra)
    return env


@pytest.fixture
def temporary(tmp_path, monkeypatch) -> Path:
    """The temporary directory, for this test only (``tempfile.gettempdir()`` caches it)."""
    folder = tmp_path / "tmp"
    folder.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    return folder


# ---- 1. processes started: nothing imported from the working folder

def test_an_isolated_child_runs_nothing_from_the_working_folder(tmp_path, temporary, monkeypatch):
    """The children fastscore starts itself (``_aot_build.is_current`` reading a module's stamp) import only
    the installation."""
    work = tmp_path / "work"
    work.mkdir()
    marks = _plant(work)
    monkeypatch.chdir(work)
    command = _isolation.python_command("import fastscore.first_run, sys; print(fastscore.first_run.setting())")
    assert command[1] == "-I"
    out = subprocess.run(command, capture_output=True, text=True, env=_env(temporary), timeout=120)
    assert out.returncode == 0 and out.stdout.strip() == "auto", out.stderr
    assert not list(marks.iterdir())



def test_the_working_folder_is_on_a_child_s_path_only_when_it_holds_this_fastscore(tmp_path, monkeypatch):
    from fastscore import _isolation

    installation = os.path.dirname(os.path.dirname(os.path.realpath(_isolation.__file__)))
    monkeypatch.setattr(sys, "path", ["", "relative", str(tmp_path), "/usr/lib/python3"])
    monkeypatch.chdir(tmp_path)
    assert _isolation.installation_path() == ["/usr/lib/python3"]
    monkeypatch.chdir(installation)  # python -m fastscore in a checkout: the checkout is the installation
    assert _isolation.installation_path() == [installation, str(tmp_path), "/usr/lib/python3"]


@pytest.mark.skipif(sys.version_info < (3, 11), reason="PYTHONSAFEPATH is Python 3.11's")
def test_pool_workers_started_by_a_forkserver_run_nothing_from_the_working_folder(tmp_path):
    """A pool started while this process has threads uses a forkserver, which multiprocessing starts as
    ``python -c``: it must not import the planted socket.py or selectors.py."""
    work, scripts = tmp_path / "work", tmp_path / "scripts"
    work.mkdir()
    scripts.mkdir()
    marks = _plant(work)
    script = scripts / "pool.py"
    script.write_text(textwrap.dedent(f"""
        import sys, threading, time
        sys.path.insert(0, {str(ROOT)!r})
        from fastscore.executors import LocalExecutor

        if __name__ == "__main__":
            threading.Thread(target=time.sleep, args=(60,), daemon=True).start()  # threads: a forkserver
            with LocalExecutor(2) as ex:
                print(sorted(ex.run(abs, [(-1,), (-2,)], lambda i, v: None)))
    """))
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, cwd=work,
                         env=_env(tmp_path), timeout=120)
    assert out.returncode == 0 and out.stdout.strip() == "[1, 2]", out.stderr
    assert not list(marks.iterdir())


def test_children_started_in_the_pool_s_lifetime_get_no_working_folder(tmp_path, monkeypatch):
    from fastscore import _isolation

    monkeypatch.delenv("PYTHONSAFEPATH", raising=False)
    with _isolation.no_working_folder_in_children():
        assert os.environ["PYTHONSAFEPATH"] == "1"
    assert "PYTHONSAFEPATH" not in os.environ  # the user's environment as it was
    monkeypatch.setenv("PYTHONSAFEPATH", "x")
    with _isolation.no_working_folder_in_children():
        pass
    assert os.environ["PYTHONSAFEPATH"] == "x"


# ---- 2. numba configured without the working folder's .numba_config.yaml

_NUMBA_CONFIG = ("import sys, warnings\nsys.path.insert(0, {root!r})\n{before}"
                 # whether numba's cache holds the kernels yet (a compilation announced) is not the subject
                 "warnings.filterwarnings('ignore', 'fastscore: compiling scoring kernels')\n"
                 "import fastscore.kernels\nfrom numba.core import config\n"
                 "print(repr(config.CACHE_DIR), int(config.OPT))\n"
                 "config.reload_config()\nprint(repr(config.CACHE_DIR))\n")


@pytest.mark.parametrize("before", ["", "import numba\n"], ids=["fastscore-first", "numba-imported-before"])
def test_numba_reads_no_config_file_from_the_working_folder(tmp_path, before):
    pytest.importorskip("yaml")  # numba reads the file only when it can
    work = tmp_path / "work"
    work.mkdir()
    planted = tmp_path / "planted-pickles"
    (work / ".numba_config.yaml").write_text(f"cache_dir: {planted}\nopt: '0'\n")
    code = _NUMBA_CONFIG.format(root=str(ROOT), before=before)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=work,
                         env=_env(tmp_path, FASTSCORE_JIT="always"),  # numba imported by fastscore
                         timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["''", "3", "''"]
    assert not out.stderr


def test_numba_environment_variables_still_count(tmp_path):
    pytest.importorskip("yaml")
    work = tmp_path / "work"
    work.mkdir()
    (work / ".numba_config.yaml").write_text(f"cache_dir: {tmp_path / 'planted'}\n")
    mine = tmp_path / "mine"
    code = _NUMBA_CONFIG.format(root=str(ROOT), before="")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=work,
                         env=_env(tmp_path, NUMBA_CACHE_DIR=str(mine), NUMBA_OPT="2", FASTSCORE_JIT="always"), timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == [repr(str(mine)), "2", repr(str(mine))]


# ---- 3. private folders and locks in the temporary directory

def _shared_name(temporary: Path) -> Path:
    return temporary / f"fastscore-{os.getuid()}"


def _is_private(folder: str) -> bool:
    st = os.lstat(folder)
    return stat.S_ISDIR(st.st_mode) and st.st_uid == os.getuid() and stat.S_IMODE(st.st_mode) & 0o077 == 0


def test_the_temporary_folder_is_made_private(temporary):
    folder = first_run.temporary_folder()
    assert folder == str(_shared_name(temporary)) and _is_private(folder)
    assert first_run.fallback_cache_dir().startswith(folder + os.sep)


def _world_writable(temporary: Path) -> Path:
    folder = _shared_name(temporary)
    folder.mkdir()
    folder.chmod(0o777)
    return folder


def _a_link(temporary: Path) -> Path:
    target = temporary / "elsewhere"
    target.mkdir(mode=0o700)
    _shared_name(temporary).symlink_to(target)
    return target


@pytest.mark.parametrize("plant", [_world_writable, _a_link], ids=["mode-0777", "symlink"])
def test_a_planted_temporary_folder_is_refused(temporary, plant):
    plant(temporary)
    assert first_run.temporary_folder() is None
    assert first_run.fallback_cache_dir() is None


def test_another_users_temporary_folder_is_refused(temporary, monkeypatch):
    other = os.getuid() + 4242
    (temporary / f"fastscore-{other}").mkdir(mode=0o700)  # made by this user: as another user sees it
    monkeypatch.setattr(os, "getuid", lambda: other)
    assert first_run.temporary_folder() is None


@pytest.mark.parametrize("plant", [_world_writable, _a_link], ids=["mode-0777", "symlink"])
def test_numba_never_caches_in_a_planted_folder(temporary, monkeypatch, plant):
    """Neither the kernels' folder nor the user's cache folder writable, and the fallback folder's name taken:
    numba gets a new private folder for this run, and the run says so."""
    from numba.core import config

    planted = plant(temporary)
    monkeypatch.setattr(first_run, "_writable", lambda folder: False)
    monkeypatch.setattr(config, "CACHE_DIR", "")
    with pytest.warns(FastscoreWarning, match="not this user's private folder"):
        first_run.ensure_cache_location()
    chosen = config.CACHE_DIR
    assert os.path.isdir(chosen) and _is_private(chosen)
    assert not os.path.realpath(chosen).startswith(os.path.realpath(planted))
    assert not os.path.realpath(chosen).startswith(os.path.realpath(_shared_name(temporary)))


def test_private_folder_refuses_a_file(tmp_path):
    from fastscore import _isolation

    (tmp_path / "f").write_text("")
    assert not _isolation.private_folder(str(tmp_path / "f"))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert _isolation.private_folder(str(tmp_path / "new")) and _is_private(str(tmp_path / "new"))


def test_a_plot_takes_no_matplotlibrc_from_the_working_folder(tmp_path):
    """matplotlib reads a ``matplotlibrc`` in the working folder first: ``--plot`` draws with its defaults."""
    pytest.importorskip("matplotlib")
    work = tmp_path / "work"
    work.mkdir()
    (work / "matplotlibrc").write_text("figure.facecolor: ff0000\naxes.facecolor: ff0000\n")
    code = textwrap.dedent(f"""
        import sys
        sys.path.insert(0, {str(ROOT)!r})
        import matplotlib, numpy as np
        from fastscore.report.plot import plot_deltas
        from fastscore.stats.compare import Comparison, SystemComparison
        out = Comparison("coref", "conll", "bootstrap", 10, 1, 0.95, "base", 0.8, (0.7, 0.9), method="percentile")
        out.systems.append(SystemComparison("s", 0.8, (0.7, 0.9), 0.0, (-0.1, 0.1), 0.5, 0.5, deltas=np.zeros(3)))
        plot_deltas(out, "deltas.svg")
        print(matplotlib.rcParams["figure.facecolor"])  # the program's settings are back
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=work,
                         env=_env(tmp_path, FASTSCORE_JIT="always"),  # numba imported by fastscore
                         timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "#ff0000"
    assert "#ff0000" not in (work / "deltas.svg").read_text().lower()


def test_a_local_cluster_keeps_its_scratch_space_in_a_private_folder(tmp_path, temporary, monkeypatch):
    """Dask's default scratch space is a fixed folder in /tmp (whoever made it first owns it) that every Dask
    server puts first on its import path: fastscore's LocalCluster gets a new private folder instead."""
    dask = pytest.importorskip("dask")
    distributed = pytest.importorskip("dask.distributed")
    from fastscore.executors import DaskExecutor

    (temporary / "dask-scratch-space").mkdir(mode=0o777)
    (temporary / "dask-scratch-space").chmod(0o777)
    seen = []

    class Cluster:
        def __init__(self, **kwargs):
            seen.append(dask.config.get("temporary-directory", None))

        def close(self):
            pass

    monkeypatch.setattr(distributed, "LocalCluster", Cluster)
    monkeypatch.setattr(distributed, "Client", lambda *a, **k: type("C", (), {"close": lambda self: None})())
    with dask.config.set({"temporary-directory": None}):
        with DaskExecutor(1, None) as ex:
            assert ex.client is not None  # the cluster started
            (scratch,) = seen
            assert scratch is not None and _is_private(scratch) and "dask-scratch-space" not in scratch
        assert not os.path.exists(scratch)  # removed with the cluster
        with dask.config.set({"temporary-directory": str(tmp_path)}), DaskExecutor(1, None) as ex:
            assert ex.client is not None
            assert seen[-1] == str(tmp_path)  # the user's own choice kept
