"""The kernels a user's program gets from the API's scores from memory (``CorefEvaluator``,
``coval.compute``): the ones compiled at installation when they are current, so that the first score costs
what later ones do. Kept out of ``first_run``, which the kernels import."""
from __future__ import annotations

import os
import sys

from .first_run import compiled_kernels, jit_disabled, library_chooses_kernels


def prefer_compiled_kernels() -> bool:
    """For scores from memory (``CorefEvaluator``, ``coval.compute``), called before their first score: when
    this process has not loaded the kernels yet, load the ones compiled at installation if they are current,
    so that the first score costs what later ones do (no numba import, no cached kernels to load).  The
    setting holds for the process, as the command line's does (the same numbers; a kernel called with other
    types goes to the JIT); ``FASTSCORE_JIT`` other than ``auto``/``aot``, ``NUMBA_DISABLE_JIT`` or numba
    loaded already leave the kernels to numba.  True when the compiled kernels are used."""
    if "fastscore.kernels" in sys.modules or "numba" in sys.modules:
        return getattr(sys.modules.get("fastscore.kernels._jit"), "MODE", None) == "aot"
    if (os.environ.get("FASTSCORE_JIT", "auto") not in ("auto", "aot")
            or jit_disabled() or compiled_kernels() is None):
        return False
    library_chooses_kernels()
    before = os.environ.get("FASTSCORE_AOT")
    os.environ["FASTSCORE_AOT"] = "1"  # read once, when the kernels' mode is chosen; not left to child processes
    try:
        import fastscore.kernels  # noqa: F401
    finally:
        if before is None:
            del os.environ["FASTSCORE_AOT"]
        else:
            os.environ["FASTSCORE_AOT"] = before
    return getattr(sys.modules.get("fastscore.kernels._jit"), "MODE", None) == "aot"
