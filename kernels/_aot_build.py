"""Build ``fastscore.kernels._aot``: the kernels of ``aot_signatures.py`` compiled ahead of time with numba's
``pycc`` (called by setup.py at installation; needs numba and a C compiler then, nothing at run time), as
``PARTS`` modules compiled side by side (numba compiles on one core: two take about half the time).

Each signature becomes ``MODULE__FUNCTION__I`` (``_jit.exported_name``); ``_stamp()`` returns the
sources' checksum (``fastscore.first_run.source_stamp``), so a module built from other sources is never
used.  The code is the kernels' own, compiled by the same numba, for the generic CPU of the platform (a
wheel runs on any machine of its platform), so the numbers are those of the JIT: the tests compare every
task's report both ways.
"""
from __future__ import annotations

import importlib
import os


def _constant(value: int):
    def _stamp():
        return value

    return _stamp


def is_current(path: str) -> bool:
    """Whether ``path`` is a module built from the kernels' current sources (then installing again, e.g. to
    add an extra, keeps it).  Read in a child process: the build may replace the file this one would map."""
    import subprocess

    from fastscore._isolation import python_command
    from fastscore.first_run import source_stamp

    paths = [part_path(path, i) for i in range(PARTS)]
    if not all(os.path.isfile(p) for p in paths):
        return False
    read = ("import importlib.util, sys\n"
            "for path in sys.argv[1:]:\n"
            "    name = 'fastscore.kernels.' + path.rsplit('/', 1)[-1].split('.')[0]\n"
            "    spec = importlib.util.spec_from_file_location(name, path)\n"
            "    module = importlib.util.module_from_spec(spec); spec.loader.exec_module(module)\n"
            "    print(module._stamp())\n")
    proc = subprocess.run(python_command(read, *paths), capture_output=True, text=True)
    return proc.returncode == 0 and proc.stdout.split() == [str(source_stamp())] * len(paths)


PARTS = 2  # modules compiled side by side (numba compiles on one core); fixed, so every wheel has the same files


def part_path(path: str, part: int) -> str:
    """The file of part ``part`` of the module ``path`` (part 0 is ``path`` itself: ``_aot``, then ``_aot_1``...)."""
    if part == 0:
        return path
    folder, name = os.path.split(path)
    return os.path.join(folder, name.replace("_aot", f"_aot_{part}", 1))


def split_signatures(signatures: dict, parts: int) -> list[list[str]]:
    """The kernels in ``parts`` groups of about as many signatures (a kernel module's kernels together:
    they share the helpers numba compiles with them)."""
    by_module: dict[str, list[str]] = {}
    for key in signatures:
        by_module.setdefault(key.split(".")[0], []).append(key)
    groups: list[list[str]] = [[] for _ in range(parts)]
    sizes = [0] * parts
    weight = {m: sum(len(signatures[k]) for k in keys) for m, keys in by_module.items()}
    for module in sorted(by_module, key=lambda m: (-weight[m], m)):
        lightest = sizes.index(min(sizes))
        groups[lightest] += by_module[module]
        sizes[lightest] += weight[module]
    return groups


def build(path: str, parts: int = PARTS) -> None:
    """Compile the module to ``path`` (a file name with the platform's extension suffix), in ``parts`` modules
    compiled in parallel processes: ``path`` (``_aot``, with ``_parts()``) and ``_aot_1``...  Each has
    ``_stamp()``; ``fastscore.first_run.compiled_kernels`` joins them."""
    from . import _jit

    if _jit.MODE != "numba" or os.environ.get("NUMBA_DISABLE_JIT", "0") not in ("", "0"):
        raise RuntimeError("the ahead-of-time build needs numba's compiler: set FASTSCORE_JIT=always and unset "
                           "NUMBA_DISABLE_JIT")
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    from fastscore._isolation import import_numba

    from .aot_signatures import SIGNATURES

    import_numba()  # configured without the working folder's .numba_config.yaml (the children are forked)
    groups = split_signatures(SIGNATURES, parts)
    # fork: the children see this process's sys.path (setup.py puts the sources being installed first)
    with ProcessPoolExecutor(parts, mp_context=multiprocessing.get_context("fork")) as pool:
        jobs = [pool.submit(_build_part, part_path(path, i), i, keys, parts) for i, keys in enumerate(groups)]
        for job in jobs:
            job.result()


def _build_part(path: str, part: int, keys: list[str], parts: int) -> None:
    from numba.core import types
    from numba.pycc import CC

    from fastscore.first_run import source_stamp

    from ._jit import exported_name
    from .aot_signatures import SIGNATURES

    namespace = vars(types)
    cc = CC(os.path.basename(path).split(".")[0])
    cc.output_dir = os.path.dirname(os.path.abspath(path))
    cc.output_file = os.path.basename(path)
    cc.verbose = False
    for key in keys:
        module, name = key.split(".")
        func = getattr(importlib.import_module(f"{__package__}.{module}"), name).py_func
        for i, (_, args) in enumerate(SIGNATURES[key]):
            argtypes = tuple(eval(a, namespace) for a in args)  # reprs of numba types; the return type inferred
            cc.export(exported_name(module, name, i), argtypes)(func)
    cc.export("_stamp", types.int64())(_constant(source_stamp()))
    if part == 0:
        cc.export("_parts", types.int64())(_constant(parts))
    cc.compile()


def build_in_place() -> str:
    """Compile the module beside the kernels' sources (a checkout or an installation installed without them);
    the path of ``_aot``."""
    from importlib.machinery import EXTENSION_SUFFIXES

    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_aot" + EXTENSION_SUFFIXES[0])
    build(path)
    return path


if __name__ == "__main__":  # python -m fastscore.kernels._aot_build
    import sys
    import time

    from . import _jit

    if _jit.MODE == "aot":
        sys.exit(f"fastscore: {_jit.COMPILED.__file__} is current: nothing to compile")
    start = time.monotonic()
    print("fastscore: compiling the kernels ahead of time (about a minute) ...", flush=True)
    print(f"fastscore: {build_in_place()} and its parts compiled in {time.monotonic() - start:.0f} s")
