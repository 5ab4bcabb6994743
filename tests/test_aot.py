"""The kernels compiled ahead of time (issue 15; in the wheel, or in place): built from the current sources, used by the
command line without numba, the same numbers as the JIT, and a call of any other argument types sent to the
JIT instead of crashing the compiled code."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from fastscore import first_run

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
NUGGET = DATA / "nugget_anchors" / "case-003"
CONLLU = DATA / "corefud_anchors" / "cases" / "gum_news_crane"

# `pip install -e .` compiles them (numba is a build requirement, see setup.py); FASTSCORE_NO_AOT=1 skips them,
# and these tests with them. CI sets FASTSCORE_TEST_AOT=1, so that there these tests run (and fail without them)
needs_compiled = pytest.mark.skipif(
    os.environ.get("FASTSCORE_TEST_AOT") != "1" and first_run.compiled_kernels() is None,
    reason="the kernels are not compiled ahead of time here: python -m fastscore.kernels._aot_build")


def _env(**extra) -> dict:
    env = {k: v for k, v in os.environ.items()
           if k not in ("NUMBA_DISABLE_JIT", "FASTSCORE_JIT", "NUMBA_CACHE_DIR")}
    env.update(extra)
    return env


# the console entry point's process, saying on stderr whether numba was imported
RUN = ("import sys\nfrom fastscore.cli import main\ncode = main(sys.argv[1:], own_process=True)\n"
       "sys.stdout.flush()\nprint('numba imported:', 'numba' in sys.modules, file=sys.stderr)\nsys.exit(code)")


def _run(args, **env) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", RUN, *map(str, args)], capture_output=True, text=True,
                          env=_env(**env))


@needs_compiled
def test_the_compiled_kernels_are_installed_and_current():
    module = first_run.compiled_kernels()
    assert module is not None, "fastscore.kernels._aot missing or built from other sources: reinstall"
    from fastscore.kernels.aot_signatures import SIGNATURES

    assert len(SIGNATURES) > 20
    assert module._stamp() == first_run.source_stamp()


def test_a_module_from_other_sources_is_not_used(monkeypatch):
    monkeypatch.setattr(first_run, "source_stamp", lambda: -1)
    assert first_run.compiled_kernels() is None


@pytest.mark.slow  # each JIT run compiles its kernels (~30 s on 2 cores)
@needs_compiled
@pytest.mark.parametrize("args", [
    ["coref", DATA / "anchors" / "case-000.key", DATA / "anchors" / "case-000.response", "-m", "all",
     "--allow-repeated"],
    ["coref", f"{CONLLU}.key.conllu", f"{CONLLU}.response.conllu", "-m", "all", "-m", "mor", "-m", "zero"],
    ["coref", f"{CONLLU}.key.conllu", f"{CONLLU}.response.conllu", "--match", "partial", "-o", "corefud"],
    ["coref", DATA / "mina_anchors" / "case-000.key.gz", DATA / "mina_anchors" / "case-000.response.gz",
     "--match", "mina"],
    ["nugget", NUGGET / "gold.char.tbf", NUGGET / "system.char.tbf", "--char-spans", "--coref"],
    ["temporal", DATA / "temporal_anchors" / "chains-0" / "gold", DATA / "temporal_anchors" / "chains-0" / "system"],
    ["temporal", DATA / "temporal_anchors" / "chains-0" / "gold", DATA / "temporal_anchors" / "chains-0" / "system",
     "--fix-toolkit-quirks"],
    ["triples", DATA / "triples_anchors" / "case-003" / "gold.trp", DATA / "triples_anchors" / "case-003" / "system.trp"],
    ["coref", DATA / "ua_anchors" / "edge-readings.key", DATA / "ua_anchors" / "edge-readings.sys", "--format", "ua",
     "--bridging"],
], ids=["coref", "corefud", "corefud-partial", "mina", "nugget", "temporal", "temporal-exact", "triples", "ua"])
def test_every_task_prints_the_same_with_the_compiled_kernels_without_numba(args):
    compiled = _run(args)
    jit = _run(args, FASTSCORE_JIT="always")
    assert compiled.returncode == jit.returncode == 0, compiled.stderr + jit.stderr
    assert compiled.stdout == jit.stdout and compiled.stdout.strip()
    assert "numba imported: True" in jit.stderr or args[0] == "temporal"  # its small graphs need no kernel
    assert "numba imported: False" in compiled.stderr, compiled.stderr


@pytest.mark.slow  # compiles a kernel
@needs_compiled
def test_other_argument_types_go_to_the_jit():
    """The compiled code trusts its argument types (an int32 array where int64 was compiled would crash it):
    a call that does not fit runs through numba's JIT, which is imported only then."""
    code = (
        "import sys\nimport numpy as np\nfrom fastscore.kernels import conllu_scan as K, _jit\n"
        "assert _jit.MODE == 'aot'\n"
        "data = np.frombuffer(b'abcabd', dtype=np.uint8)\n"
        "s, e = np.array([0, 0]), np.array([2, 3])\n"
        "s2, e2 = np.array([3, 3]), np.array([5, 6])\n"
        "a = K.same_spans(data, s, e, data, s2, e2)\n"
        "print(a.tolist(), 'numba' in sys.modules)\n"
        "b = K.same_spans(data, s.astype(np.int32), e.astype(np.int32), data, s2.astype(np.int32), e2.astype(np.int32))\n"
        "print(b.tolist(), 'numba' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=_env())
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == ["[True, False] False", "[True, False] True"]


# scores from memory in a fresh process: their numbers, whether numba was imported and FASTSCORE_AOT (gone) unset
FROM_MEMORY = ("import os, sys\nimport numpy as np\nimport fastscore\n"
               "rng = np.random.default_rng(5)\nev = fastscore.CorefEvaluator()\n"
               "for d in range(20):\n"
               "    spans = np.sort(rng.integers(0, 30, size=(9, 2)), axis=1)\n"
               "    ev.update((spans, rng.integers(0, 3, 9)), [tuple(map(tuple, spans[:4])), ((40, 41),)])\n"
               "words = [f'd 0 {i} w NN * - ' + ('(1)' if i % 3 else '-') for i in range(8)]\n"
               "other = words[:1] + [words[1].replace('(1)', '(2)')] + words[2:]\n"
               "out = fastscore.coval.compute([words, other], [other, words])\n"
               "print(repr(ev.get_prf()), repr(ev.metrics['lea'].get_counts()), repr(sorted(out.items())))\n"
               "print('numba' in sys.modules, os.environ.get('FASTSCORE_AOT'))\n")


@pytest.mark.slow  # the JIT run compiles the coref kernels
@needs_compiled
def test_scores_from_memory_load_the_compiled_kernels_without_numba():
    """CorefEvaluator and coval.compute: the first score of a process uses the kernels compiled at installation
    (no numba import: a first epoch as fast as later ones), with the JIT's numbers."""
    aot = subprocess.run([sys.executable, "-c", FROM_MEMORY], capture_output=True, text=True, env=_env(), cwd=ROOT)
    jit = subprocess.run([sys.executable, "-c", FROM_MEMORY], capture_output=True, text=True,
                         env=_env(FASTSCORE_JIT="always"), cwd=ROOT)
    assert aot.returncode == jit.returncode == 0, aot.stderr[-3000:] + jit.stderr[-3000:]
    assert aot.stdout.splitlines()[0] == jit.stdout.splitlines()[0]
    assert aot.stdout.splitlines()[1] == "False None" and jit.stdout.splitlines()[1] == "True None"


def test_fits_checks_what_numba_would_type():
    from fastscore.kernels._jit import fits

    i64 = ("array", "int64", 1, "C", False)
    u8r = ("array", "uint8", 1, "C", True)
    a = np.arange(6)
    ro = np.frombuffer(b"abc", dtype=np.uint8)
    assert fits((a,), (i64,))
    assert not fits((a.astype(np.int32),), (i64,))
    assert not fits((a[::2],), (i64,))  # not contiguous
    assert fits((a[::2],), (("array", "int64", 1, "A", False),))
    assert not fits((a.reshape(2, 3),), (i64,))
    assert fits((ro,), (u8r,)) and not fits((ro.copy(),), (u8r,))  # numba types read-only arrays apart
    assert not fits((a.astype(">i8"),), (i64,))  # byte-swapped: numba refuses it, the compiled code crashes
    assert not fits((a, a), (i64,))
    assert not fits(([1, 2],), (i64,))
    assert fits((3, 2.5, True), (("scalar", "int64"), ("scalar", "float64"), ("scalar", "bool")))
    assert fits((np.int64(3), np.float64(1), np.bool_(False)),
                (("scalar", "int64"), ("scalar", "float64"), ("scalar", "bool")))
    assert not fits((True,), (("scalar", "int64"),))  # numba types a bool as a boolean
    assert not fits((np.int32(3),), (("scalar", "int64"),))
    assert fits((-(1 << 63),), (("scalar", "int64"),)) and not fits((1 << 63,), (("scalar", "int64"),))
    assert not fits((3,), (("scalar", "float64"),))
    assert not fits((1,), (("scalar", "bool"),))


@pytest.mark.slow  # ~5 s: every task's command run to record the kernels' signatures
def test_the_signatures_are_those_the_command_line_calls_today():
    """kernels/aot_signatures.py is what scripts/aot_signatures.py records now (rerun it when a kernel's
    arguments change: the kernels it misses would start through the JIT)."""
    code = ("import sys\nsys.path.insert(0, sys.argv[1])\nimport aot_signatures as a\n"
            "now = a.record()\n"  # first: the kernels' mode is chosen when they are first imported
            "from fastscore.kernels.aot_signatures import SIGNATURES as old\n"
            "assert now == old, [k for k in sorted(set(now) | set(old)) if now.get(k) != old.get(k)]\n")
    out = subprocess.run([sys.executable, "-c", code, str(ROOT / "scripts")], capture_output=True, text=True,
                         env=_env(), cwd=ROOT)
    assert out.returncode == 0, out.stderr[-3000:]


def _anchor_commands() -> list[list[str]]:
    """v8.01's anchors, the CorefUD anchors in three matchings and the nugget anchors with coreference: each
    command's JSON (bad inputs give their error line instead)."""
    out = [["coref", str(k), str(k.with_suffix(".response")), "-m", "all", "-o", "json", "--allow-repeated"]
           for k in sorted((DATA / "anchors").glob("*.key"))]
    for k in sorted((DATA / "corefud_anchors" / "cases").glob("*.key.conllu")):
        r = str(k).replace(".key.", ".response.")
        out += [["coref", str(k), r, "--match", m, "-m", "all", "-m", "mor", "-m", "zero", "-o", "json"]
                for m in ("head", "partial", "exact")]
    for case in sorted((DATA / "nugget_anchors").glob("case-*")):
        if (case / "gold.char.tbf").exists():
            out.append(["nugget", str(case / "gold.char.tbf"), str(case / "system.char.tbf"), "--char-spans",
                        "--coref", "-o", "json"])
    return out


# every command's exit code, output and error lines, in a process whose kernels are in the given mode
ALL_RUNS = ("import contextlib, io, json, sys\nfrom fastscore.cli import main\nfrom fastscore.kernels import _jit\n"
            "runs = []\nfor cmd in json.loads(sys.stdin.read()):\n"
            "    out, err = io.StringIO(), io.StringIO()\n"
            "    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):\n"
            "        code = main(cmd)\n"
            "    runs.append([code, out.getvalue(), err.getvalue()])\n"
            "print(json.dumps([_jit.MODE, 'numba' in sys.modules, runs]))\n")


@pytest.mark.slow  # ~6 s: the anchors in subprocesses
@needs_compiled
def test_the_anchors_give_the_same_output_with_the_compiled_kernels():
    import json

    commands = json.dumps(_anchor_commands())
    results = {}
    for name, env in (("aot", _env()), ("jit", _env(FASTSCORE_JIT="always"))):
        proc = subprocess.run([sys.executable, "-c", ALL_RUNS], input=commands, capture_output=True, text=True,
                              env=env, cwd=ROOT)
        assert proc.returncode == 0, proc.stderr[-3000:]
        results[name] = json.loads(proc.stdout)
    assert results["aot"][0] == "aot" and results["jit"][0] == "numba"
    assert results["aot"][2] == results["jit"][2]
    assert sum(code == 0 for code, _, _ in results["aot"][2]) > 250
    assert results["aot"][1] is False  # every kernel these commands call was compiled ahead of time
