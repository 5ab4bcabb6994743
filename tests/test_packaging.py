"""Packaging: the kernels install as fastscore.kernels, never as a top-level module;
the kernels also run with NUMBA_DISABLE_JIT=1 (plain Python), so coverage sees them.

Marked slow (they build wheels and a fresh venv): `.ci/run` runs them explicitly
(`python -m pytest -m slow tests/test_packaging.py`)."""
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.conftest import SHARED

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent


def _source_copy(tmp_path: Path) -> Path:
    """The project without build leftovers (a stale build/ folder can hide a package missing from
    pyproject.toml)."""
    dest = tmp_path / "src"
    shutil.copytree(ROOT, dest, ignore=shutil.ignore_patterns("build", "dist", "*.egg-info", ".git", ".venv",
                                                              "tests", "bench", "__pycache__", ".hypothesis"))
    return dest


def test_wheel_installs_kernels_under_fastscore(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path),
                           str(_source_copy(tmp_path))], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    wheel = next(tmp_path.glob("fastscore_ie-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    tops = {n.split("/", 1)[0] for n in names}
    assert tops <= {"fastscore", next(t for t in tops if t.endswith(".dist-info"))}, tops
    for needed in ("fastscore/kernels/contingency.py", "fastscore/examples/key.conll",
                   "fastscore/examples/LICENSE.md", "fastscore/py.typed"):
        assert needed in names
    # every bundled example (its files and licence) is in the wheel
    examples = {str(p.relative_to(ROOT)) for p in (ROOT / "fastscore" / "examples").rglob("*")
                if p.is_file() and "__pycache__" not in p.parts}
    assert examples <= set(names), sorted(examples - set(names))
    # every module of the source tree is in the wheel (a package missing from pyproject.toml is not)
    source = {str(p.relative_to(ROOT)) for p in (ROOT / "fastscore").rglob("*.py")}
    assert source <= set(names), sorted(source - set(names))
    assert any(n.startswith("fastscore/kernels/_aot.") for n in names), "kernels not compiled ahead of time"


def test_a_wheel_without_the_compiled_kernels_installs_and_runs(tmp_path):
    """FASTSCORE_NO_AOT=1 (as when they cannot be built): no compiled module, the JIT and plain Python."""
    env = {**os.environ, "FASTSCORE_NO_AOT": "1"}
    proc = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path),
                           str(_source_copy(tmp_path))], capture_output=True, text=True, env=env)
    assert proc.returncode == 0, proc.stderr
    wheel = next(tmp_path.glob("fastscore_ie-*.whl"))
    assert not any("_aot." in n for n in zipfile.ZipFile(wheel).namelist())


def test_wheel_in_a_fresh_venv_runs_the_example(tmp_path):
    """The built wheel, installed with its dependencies into a new venv, works outside the source tree."""
    proc = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path),
                           str(_source_copy(tmp_path))], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    wheel = next(tmp_path.glob("fastscore_ie-*.whl"))
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    py = venv / "bin" / "python"
    proc = subprocess.run([str(py), "-m", "pip", "install", "-q", str(wheel)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-2000:]
    check = ("import importlib.util, fastscore.kernels, sys\n"
             "assert importlib.util.find_spec('kernels') is None, 'top-level kernels installed'\n"
             "print(fastscore.kernels.__file__)\n")
    proc = subprocess.run([str(py), "-c", check], capture_output=True, text=True, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "site-packages/fastscore/kernels/__init__.py" in proc.stdout
    check = "from fastscore.first_run import compiled_kernels\nassert compiled_kernels() is not None\n"
    proc = subprocess.run([str(py), "-c", check], capture_output=True, text=True, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr  # built, and its stamp is that of the installed sources
    for command in (["coref"], ["coref", "--format", "conllu"], ["nugget"], ["temporal"], ["triples"]):
        proc = subprocess.run([str(venv / "bin" / "fastscore"), command[0], "example", "example", *command[1:],
                               "-o", "json"], capture_output=True, text=True, cwd=tmp_path)
        assert proc.returncode == 0, proc.stderr
        assert '"conll"' in proc.stdout if command[0] == "coref" else '"signature"' in proc.stdout
    demo = SHARED / "evmeval-demo"
    proc = subprocess.run([str(venv / "bin" / "fastscore"), "nugget", str(demo / "gold.tbf"),
                           str(demo / "temporal.tbf"), "--preset", "kbp2016", "--coref", "--sequencing", "-o", "json"],
                          capture_output=True, text=True, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert '"sequencing"' in proc.stdout
    # in the source tree (which has no fastscore/kernels), `python -m fastscore` imports the tree's fastscore/:
    # its kernels are found beside it
    source = tmp_path / "src"
    proc = subprocess.run([str(py), "-m", "fastscore", "coref", "example", "example", "-m", "muc"],
                          capture_output=True, text=True, cwd=source)
    assert proc.returncode == 0, proc.stderr
    assert "muc" in proc.stdout


def test_kernels_agree_with_reference_without_jit():
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "--hypothesis-seed=1",
         "tests/test_kernels_vs_reference.py", "tests/test_official_cases.py", "tests/test_assignment.py",
         "tests/test_nugget.py", "tests/test_reader.py",
         "-k", "repeats or A1 or A9 or assignment or greedy or crlf or TC-A-4 or itself"],
        capture_output=True, text=True, cwd=ROOT, env=env)
    assert proc.returncode == 0, proc.stdout[-3000:]
    assert " passed" in proc.stdout and " failed" not in proc.stdout
