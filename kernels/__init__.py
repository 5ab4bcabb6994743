"""numba kernels of fastscore (installed as ``fastscore.kernels``).

Plain numpy arrays in, arrays out; ``@njit(cache=True)`` everywhere; no
Python objects.  Installed, they run as compiled at installation (``_jit``:
no numba import, no compilation); in development (``FASTSCORE_JIT=always``)
numba compiles and caches them, in a cache folder it can write
(``fastscore.first_run.ensure_cache_location``).
"""
from ._jit import MODE

if MODE == "numba":
    from fastscore.first_run import announce_if_nothing_cached, ensure_cache_location

    ensure_cache_location()
    announce_if_nothing_cached()
