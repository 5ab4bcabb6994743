import contextlib
import io
import os
import subprocess
import sys
import types
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest


def _hypothesis_asserts_as_written() -> None:
    """pytest rewrites the asserts of every module of an installed package that provides a pytest plugin:
    hypothesis's ~100 modules, ~1.5 s in each test process for asserts that are hypothesis's own (the tests'
    asserts are rewritten still). Undone here, before a test module imports hypothesis; a pytest without
    this (private) set rewrites them as before."""
    for finder in sys.meta_path:
        marked = getattr(finder, "_must_rewrite", None)
        if isinstance(marked, set) and "hypothesis" in marked:
            marked.discard("hypothesis")
            getattr(finder, "_marked_for_rewrite_cache", {}).clear()


_hypothesis_asserts_as_written()

# the kernels' threads as the command line runs them (cli.run): a fork-safe threading layer, so that the tests'
# process pools and LocalClusters fork their workers whatever parallel kernel ran before in the same process
os.environ.setdefault("NUMBA_THREADING_LAYER", "forksafe")

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("FASTSCORE_SHARED", ROOT.parent / "shared")) / "data"
TESTDATA = Path(__file__).resolve().parent / "data"


def pytest_configure(config):
    """Many tests read the shared test data: without it the whole run stops with one reason
    (rather than some tests skipping and others failing, or parametrized lists coming out empty)."""
    if not SHARED.is_dir():
        raise pytest.UsageError(f"the shared test data is not at {SHARED}: put the shared/ folder beside the "
                                "project, or set FASTSCORE_SHARED to the folder that holds data/")


# Hypothesis sizes: the default run (README's command, within 2 minutes on 2 cores) draws an eighth of the
# examples each test asks for (at least 10; every @example too); CI's full run (FASTSCORE_HYPOTHESIS=full,
# .ci/run) runs only the hypothesis tests, with all their examples. Slow tests always draw them all.
FULL_HYPOTHESIS = os.environ.get("FASTSCORE_HYPOTHESIS") == "full"


def default_examples(n: int) -> int:
    return min(n, max(10, n // 8))


def _hypothesis_settings(item):
    test = getattr(item, "obj", None)
    return getattr(test, "_hypothesis_internal_use_settings", None) if getattr(test, "is_hypothesis_test", False) \
        else None


def pytest_collection_modifyitems(config, items):
    if FULL_HYPOTHESIS:
        others = [item for item in items if _hypothesis_settings(item) is None]
        if others:
            config.hook.pytest_deselected(items=others)
            items[:] = [item for item in items if _hypothesis_settings(item) is not None]


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    """Hypothesis reads a test's settings when it runs: the default run's size is set for this item only (one
    function can be both a default and a slow item)."""
    full = _hypothesis_settings(item)
    if full is None or FULL_HYPOTHESIS or item.get_closest_marker("slow"):
        return (yield)
    from hypothesis import settings  # here: xdist's controller process, which runs no test, never imports it

    item.obj._hypothesis_internal_use_settings = settings(full, max_examples=default_examples(full.max_examples))
    try:
        return (yield)
    finally:
        item.obj._hypothesis_internal_use_settings = full


@pytest.hookimpl(trylast=True)  # after the test's fixtures are torn down (a cluster they hold closed)
def pytest_runtest_teardown(item, nextitem):
    """Each test starts with the threads it would have alone: Dask keeps one thread ("Dask-Offload", a module's
    executor) for the rest of the process once a client or cluster used it, and a process with threads starts
    its pools by forkserver (fastscore.executors), so every pool test after a Dask test in the same worker would
    start fresh interpreters instead of forking as the command line does (test_temporal's command tests: ~10 s
    instead of ~1.5 s). The idle thread is ended and the executor replaced by a new one, which Dask starts again
    when it needs it."""
    utils = sys.modules.get("distributed.utils")
    executor = getattr(utils, "_offload_executor", None)
    if isinstance(executor, ThreadPoolExecutor) and executor._threads:
        executor.shutdown(wait=True)
        utils._offload_executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="Dask-Offload")


def plain(kernel):
    """A kernel as plain Python, with the kernels it calls plain too (``prange`` as ``range``): the default run
    checks a kernel's logic against its oracle without numba compiling the kernels that are not compiled ahead
    of time; the slow run checks the compiled kernel itself (:data:`KERNEL_RUNS`)."""
    return _plain(kernel, {})


def _plain(kernel, done: dict):
    if kernel in done:
        return done[kernel]
    f = getattr(kernel, "py_func", kernel)  # with NUMBA_DISABLE_JIT a kernel is its Python function already
    env = dict(f.__globals__)
    copy = types.FunctionType(f.__code__, env, f.__name__, f.__defaults__, f.__closure__)
    done[kernel] = copy
    for name, value in env.items():
        if hasattr(value, "py_func"):  # a kernel (aot mode's Kernel, or numba's dispatcher)
            env[name] = _plain(value, done)
    if "prange" in env:
        env["prange"] = range
    return copy


def _compiled(kernel):
    return kernel


# parametrize a kernel's oracle test over these: plain Python in the default run, compiled by numba (the JIT
# where the kernel is not compiled ahead of time for these types) in the slow run
KERNEL_RUNS = pytest.mark.parametrize("runner", [pytest.param(plain, id="python"),
                                              pytest.param(_compiled, id="compiled", marks=pytest.mark.slow)])


def fastscore_in_process(*args) -> subprocess.CompletedProcess:
    """``python -m fastscore ARGS`` run in this process (the command line's main, no interpreter to start): what
    it returned and printed, as a finished process. For tests of what the command prints; tests of processes
    themselves (a killed worker, memory, what a fresh interpreter imports) start their own."""
    from fastscore.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main([str(a) for a in args])
        except SystemExit as exc:  # argparse refusing the arguments
            code = exc.code
    return subprocess.CompletedProcess(["fastscore", *map(str, args)], code, out.getvalue(), err.getvalue())


def sample_in_default_run(values, every: int) -> list:
    """Parametrize values: every ``every``-th in the default run, the others marked slow (CI's slow run runs
    them: the default run and the slow run together compare every case). A tuple is the values of several
    arguments; a ``pytest.param`` keeps its id and marks."""
    out = []
    for i, v in enumerate(values):
        if i % every == 0:
            out.append(v)
        elif isinstance(v, type(pytest.param(None))):
            out.append(pytest.param(*v.values, marks=[*v.marks, pytest.mark.slow], id=v.id))
        else:
            out.append(pytest.param(*(v if isinstance(v, tuple) else (v,)), marks=pytest.mark.slow))
    return out


def fuzz_rounds(full: int, short: int):
    """Parametrize a fuzz test's ``rounds``: ``short`` in the default run, ``full`` in the slow run (the same
    seed: the slow run's first rounds are the default run's)."""
    return pytest.mark.parametrize("rounds", [pytest.param(short, id="short"),
                                              pytest.param(full, id="full", marks=pytest.mark.slow)])


@pytest.fixture(scope="session")
def shared_data() -> Path:
    return SHARED


def _ignoring(*messages: str) -> list:
    """Marks that ignore FastscoreWarnings whose text contains one of these phrases (and no other warning)."""
    return [pytest.mark.filterwarnings(f"ignore:.*{m}:fastscore.errors.FastscoreWarning") for m in messages]


# What a scorer warns about on inputs made nasty on purpose (the official test cases, the seeded generators,
# the fuzzers). Modules that score such inputs for their numbers ignore these warnings by name, so that the
# test run ends without a page of expected warnings; the warnings themselves are checked where they are the
# subject (pytest.warns in test_bad_input, test_nugget_inputs, test_tbf_reader, test_sequencing ...).
COREF_INPUT_NOTES = _ignoring(
    "repeated response mention\\(s\\) of key spans dropped",  # v8.01 drops repeats with a note
    "key document\\(s\\) missing from the response",  # generated responses leave documents out
    "response document\\(s\\) not in the key",  # and fuzzed ones rename them
)
NUGGET_INPUT_NOTES = _ignoring(
    "gold document\\(s\\) missing from the system output",
    "system document\\(s\\) not in the gold standard",
    "@Coreference member\\(s\\) name mentions that are not defined",
    "mention\\(s\\) reuse an id",
    "coreference cluster\\(s\\) hold two mentions with the same span",  # EvmEval scores them anyway
    "event sequencing link\\(s\\) join two mentions of one coreference cluster",
    "event sequencing link\\(s\\) name a mention that is not defined",
)
