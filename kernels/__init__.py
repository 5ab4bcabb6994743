"""numba kernels of fastscore (installed as ``fastscore.kernels``).

Plain numpy arrays in, arrays out; ``@njit(cache=True)`` everywhere; no
Python objects.  Importing this package imports numba: the rest of
fastscore imports it only when it scores.
"""
