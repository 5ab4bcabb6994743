"""Saying once, on a terminal, that the first run after installation compiles the kernels.

numba caches compiled kernels (``cache=True``) beside their source (``__pycache__``), or
under ``NUMBA_CACHE_DIR``, or in the user's cache folder when the source folder is read-only.
No cache index (``*.nbi``) anywhere there means this run compiles.
"""
from __future__ import annotations

import glob
import importlib.util
import os
import sys

NOTE = ("fastscore: compiling the scoring kernels for the first run after installation "
        "(up to ~20 s; later runs reuse them)")


def _kernel_sources() -> list[str]:
    spec = importlib.util.find_spec("fastscore.kernels")
    return list(spec.submodule_search_locations or []) if spec is not None else []


def kernels_cached() -> bool:
    """Whether a compiled kernel of fastscore is in a cache numba looks in (an index file named after one
    of the kernel modules: ``ceaf._ceaf-123.py311.nbi``)."""
    sources = _kernel_sources()
    modules = {os.path.splitext(os.path.basename(f))[0] for s in sources for f in glob.glob(os.path.join(s, "*.py"))}
    if os.environ.get("NUMBA_CACHE_DIR"):  # numba then caches there only
        folders = [os.environ["NUMBA_CACHE_DIR"]]
    else:  # beside the source, or numba's user-wide folder when the source folder is read-only
        folders = [os.path.join(s, "__pycache__") for s in sources]
        folders.append(os.path.join(os.path.expanduser("~"), ".cache", "numba"))
    for folder in folders:
        for index in glob.glob(os.path.join(glob.escape(folder), "**", "*.nbi"), recursive=True):
            if os.path.basename(index).split(".", 1)[0] in modules:
                return True
    return False


def announce_compilation() -> None:
    """Print the note on stderr when it is a terminal and nothing is cached yet."""
    if sys.stderr.isatty() and not kernels_cached():
        print(NOTE, file=sys.stderr, flush=True)
