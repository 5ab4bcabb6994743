"""``njit`` and ``prange`` for the kernels: numba's, or, when the JIT is disabled and numba is not loaded
yet, plain Python without importing numba at all (numba's own ``NUMBA_DISABLE_JIT`` returns the functions
unchanged too, but only after a 0.3 s import).  A short command-line run uses this (``fastscore.first_run``):
the same code runs, so the numbers are the same."""
import os
import sys

PLAIN_PYTHON = os.environ.get("NUMBA_DISABLE_JIT", "0") not in ("", "0") and "numba" not in sys.modules

if PLAIN_PYTHON:
    prange = range

    def njit(*args, **kwargs):
        if len(args) == 1 and callable(args[0]) and not kwargs:
            return args[0]
        return lambda func: func
else:
    from numba import njit, prange  # noqa: F401
