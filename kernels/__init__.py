"""numba kernels of fastscore (installed as ``fastscore.kernels``).

Plain numpy arrays in, arrays out; ``@njit(cache=True)`` everywhere; no
Python objects.  Importing this package imports numba (unless the JIT is off
or the kernels compiled ahead of time are used, see ``_jit``): the rest of
fastscore imports it only when it scores.  A cache folder numba can write is
ensured first (read-only installations: see ``fastscore.first_run``).
"""
from ._jit import MODE

if MODE == "numba":
    from fastscore.first_run import ensure_cache_location

    ensure_cache_location()
