"""Packaging: the wheel of scripts/build_wheel.sh (manylinux, the compiled kernels) installs without a C
compiler and runs with the compiled kernels; the kernels install as fastscore.kernels, never as a top-level
module; the kernels also run with NUMBA_DISABLE_JIT=1 (plain Python), so coverage sees them.

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


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """The wheel of scripts/build_wheel.sh (compiled kernels, auditwheel's manylinux tag), built once."""
    out = tmp_path_factory.mktemp("dist")
    proc = subprocess.run(["bash", str(ROOT / "scripts" / "build_wheel.sh"), sys.executable], capture_output=True,
                          text=True, env={**os.environ, "FASTSCORE_WHEEL_DIR": str(out)})
    assert proc.returncode == 0, proc.stderr[-3000:]
    path = Path(proc.stdout.strip().splitlines()[-1])
    assert path.parent == out and path.is_file(), proc.stdout
    return path


def test_the_wheel_is_manylinux_with_the_kernels_under_fastscore(wheel):
    tags = wheel.name[:-len(".whl")].split("-")[-1].split(".")
    assert all(t.startswith("manylinux") for t in tags), wheel.name  # auditwheel repaired it
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
    compiled = {n.rsplit("/", 1)[-1].split(".")[0] for n in _compiled_modules(wheel)}
    assert compiled == {"_aot", "_aot_1"}, compiled  # both modules of the kernels (kernels/_aot_build.PARTS)
    assert all(n.startswith("fastscore/kernels/") for n in _compiled_modules(wheel))


def _compiled_modules(wheel: Path) -> list[str]:
    return [n for n in zipfile.ZipFile(wheel).namelist() if n.rsplit("/", 1)[-1].startswith(("_aot.", "_aot_1."))]


def test_a_source_build_compiles_the_kernels_unless_told_not_to(tmp_path):
    """pip's isolated build (what `pip install .` and `pip install -e .` do) brings numba, a build requirement:
    the kernels are compiled; FASTSCORE_NO_AOT=1 skips them (a pure wheel)."""
    source = _source_copy(tmp_path)
    for name, env in (("a", {}), ("b", {"FASTSCORE_NO_AOT": "1"})):
        proc = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path / name),
                               str(source)], capture_output=True, text=True, env={**os.environ, **env})
        assert proc.returncode == 0, proc.stderr[-3000:]
    compiled = next((tmp_path / "a").glob("fastscore_ie-*.whl"))
    assert sorted(n.rsplit("/", 1)[-1].split(".")[0] for n in _compiled_modules(compiled)) == ["_aot", "_aot_1"]
    pure = next((tmp_path / "b").glob("fastscore_ie-*.whl"))
    assert pure.name.endswith("-py3-none-any.whl") and not _compiled_modules(pure), pure.name


def test_the_wheel_installs_without_a_compiler_and_runs_the_compiled_kernels(wheel, tmp_path):
    """Installed with its dependencies into a new venv whose PATH has no C compiler (and CC=false): the
    commands run with the compiled kernels, outside the source tree."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    bin_ = venv / "bin"
    env = {**os.environ, "PATH": str(bin_), "CC": "false"}
    assert shutil.which("cc", path=env["PATH"]) is None and shutil.which("gcc", path=env["PATH"]) is None
    proc = subprocess.run([str(bin_ / "python"), "-m", "pip", "install", "-q", str(wheel)], capture_output=True,
                          text=True, env=env)
    assert proc.returncode == 0, proc.stderr[-2000:]

    def fastscore(*args, cwd=tmp_path):
        return subprocess.run([str(bin_ / "fastscore"), *map(str, args)], capture_output=True, text=True,
                              cwd=cwd, env=env)

    proc = fastscore("--version")
    assert proc.returncode == 0, proc.stderr
    assert "kernels: compiled ahead of time" in proc.stdout, proc.stdout
    check = ("import importlib.util, fastscore.kernels, sys\n"
             "assert importlib.util.find_spec('kernels') is None, 'top-level kernels installed'\n"
             "print(fastscore.kernels.__file__)\n")
    proc = subprocess.run([str(bin_ / "python"), "-c", check], capture_output=True, text=True, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "site-packages/fastscore/kernels/__init__.py" in proc.stdout
    for command in (["coref"], ["coref", "--format", "conllu"], ["nugget"], ["temporal"], ["triples"]):
        proc = fastscore(command[0], "example", "example", *command[1:], "-o", "json")
        assert proc.returncode == 0, proc.stderr
        assert '"conll"' in proc.stdout if command[0] == "coref" else '"signature"' in proc.stdout
    # the compiled kernels score it, numba never imported
    run = ("import sys\nfrom fastscore.cli import main\ncode = main(sys.argv[1:], own_process=True)\n"
           "from fastscore.kernels import _jit\nprint('mode', _jit.MODE, 'numba', 'numba' in sys.modules)\n"
           "sys.exit(code)")
    proc = subprocess.run([str(bin_ / "python"), "-c", run, "coref", "example", "example", "-o", "json"],
                          capture_output=True, text=True, cwd=tmp_path, env=env)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.rstrip().endswith("mode aot numba False"), proc.stdout[-300:]
    demo = SHARED / "evmeval-demo"
    proc = fastscore("nugget", demo / "gold.tbf", demo / "temporal.tbf", "--preset", "kbp2016", "--coref",
                     "--sequencing", "-o", "json")
    assert proc.returncode == 0, proc.stderr
    assert '"sequencing"' in proc.stdout
    # in the source tree (which has no fastscore/kernels), `python -m fastscore` imports the tree's fastscore/:
    # its kernels are found beside it
    source = _source_copy(tmp_path)
    proc = subprocess.run([str(bin_ / "python"), "-m", "fastscore", "coref", "example", "example", "-m", "muc"],
                          capture_output=True, text=True, cwd=source, env=env)
    assert proc.returncode == 0, proc.stderr
    assert "muc" in proc.stdout


def test_kernels_agree_with_reference_without_jit():
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-n", "0", "--hypothesis-seed=1",
         "tests/test_kernels_vs_reference.py", "tests/test_official_cases.py", "tests/test_assignment.py",
         "tests/test_nugget.py", "tests/test_reader.py",
         "-k", "repeats or A1 or A9 or assignment or greedy or crlf or TC-A-4 or itself"],
        capture_output=True, text=True, cwd=ROOT, env=env)
    assert proc.returncode == 0, proc.stdout[-3000:]
    assert " passed" in proc.stdout and " failed" not in proc.stdout
