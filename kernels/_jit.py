"""``njit`` and ``prange`` for the kernels, in one of two modes (``MODE``), chosen when this module is first
imported (``fastscore.first_run.use_compiled``):

- ``aot`` (users): the kernels compiled ahead of time at installation (``fastscore.kernels._aot``, built by
  ``kernels/_aot_build.py`` from these very sources; ``fastscore.first_run.compiled_kernels``).  Each kernel is
  a :class:`Kernel`: its compiled versions when the arguments have the types they were compiled for
  (``aot_signatures.py``), else numba's JIT, imported then, and the compilation announced.  No numba import,
  no cache, no compilation: the first call costs what later ones do.
- ``numba`` (development, ``FASTSCORE_JIT=always``, ``NUMBA_DISABLE_JIT``, or no current compiled module):
  numba's ``njit`` and ``prange``, cached; the first run that compiles says so.
"""
from __future__ import annotations

import types

import numpy as _np

from fastscore.first_run import use_compiled

COMPILED = use_compiled()
MODE = "aot" if COMPILED is not None else "numba"


_DTYPES: dict = {}  # dtype name -> the native numpy dtype


def _array_fits(a, dtype: str, ndim: int, layout: str, readonly: bool) -> bool:
    """Checked before every call of a compiled kernel: kept cheap (scores from memory call kernels often)."""
    if type(a) is not _np.ndarray or a.ndim != ndim:
        return False
    native = _DTYPES.get(dtype)
    if native is None:
        native = _DTYPES[dtype] = _np.dtype(dtype)
    if a.dtype != native:  # a byte-swapped array's dtype differs from the native one
        return False
    flags = a.flags
    return flags.aligned and (layout == "A" or flags.c_contiguous) and flags.writeable != readonly


_SCALARS = {"int64": (int,), "float64": (float,), "bool": (bool,)}
_INT64 = 1 << 63


def fits(args: tuple, spec: tuple) -> bool:
    """Whether ``args`` have the numba types of ``spec`` (``aot_signatures.py``): ("array", dtype, ndim,
    layout, readonly) or ("scalar", name).  Anything else would crash the compiled code, not fail."""
    if len(args) != len(spec):
        return False
    for a, s in zip(args, spec):
        if s[0] == "array":
            if not _array_fits(a, *s[1:]):
                return False
        else:
            name = s[1]
            t = type(a)
            if name == "bool":
                if t is not bool and t is not _np.bool_:
                    return False
            elif t is bool or not (t in _SCALARS[name] or t is getattr(_np, name)):
                return False
            elif t is int and not -_INT64 <= a < _INT64:  # numba types it uint64 or refuses it
                return False
    return True


class Kernel:
    """A kernel in ``aot`` mode: called like numba's dispatcher, it runs the first compiled version whose
    argument types fit, else the JIT's (:meth:`dispatcher`)."""

    def __init__(self, func, options: dict):
        from .aot_signatures import SIGNATURES

        self.py_func = func
        self.options = options
        module = func.__module__.rsplit(".", 1)[-1]
        self.compiled = [(getattr(COMPILED, exported_name(module, func.__name__, i)), spec)
                         for i, (spec, _) in enumerate(SIGNATURES.get(f"{module}.{func.__name__}", ()))]
        self._dispatcher = None
        self.__name__, self.__doc__, self.__module__ = func.__name__, func.__doc__, func.__module__

    def __call__(self, *args):
        for compiled, spec in self.compiled:
            if fits(args, spec):
                return compiled(*args)
        return self.dispatcher()(*args)

    def dispatcher(self):
        """numba's dispatcher of this kernel (numba imported now), its globals' kernels dispatchers too: numba
        compiles a call only to a dispatcher.  A copy of the function gets these globals, so the module
        keeps its Kernels; the cache is numba's usual one (same source, same name)."""
        if self._dispatcher is None:
            from fastscore._isolation import import_numba
            from fastscore.first_run import announce_compilation, ensure_cache_location

            numba = import_numba()
            ensure_cache_location()
            announce_compilation(f"{self.__module__.rsplit('.', 1)[-1]}.{self.__name__} is called with argument "
                                 "types it was not compiled for")
            f = self.py_func
            env = dict(f.__globals__)
            copy = types.FunctionType(f.__code__, env, f.__name__, f.__defaults__, f.__closure__)
            copy.__qualname__, copy.__module__, copy.__doc__ = f.__qualname__, f.__module__, f.__doc__
            self._dispatcher = numba.njit(**self.options)(copy)  # first: a kernel may call itself
            try:
                for name, value in env.items():
                    if isinstance(value, Kernel):
                        env[name] = value.dispatcher()
                    elif name == "prange" and value is range:
                        env[name] = numba.prange
            except BaseException:
                self._dispatcher = None
                raise
        return self._dispatcher


def exported_name(module: str, function: str, i: int) -> str:
    """The name of a kernel's ``i``-th compiled version in the ahead-of-time module."""
    return f"{module}__{function}__{i}"


if MODE == "aot":
    prange = range  # a kernel falling back to the JIT gets numba's (Kernel.dispatcher)

    def njit(*args, **kwargs):
        if len(args) == 1 and callable(args[0]) and not kwargs:
            return Kernel(args[0], {})
        return lambda func: Kernel(func, kwargs)
else:
    from fastscore._isolation import import_numba

    import_numba()  # configured without the working folder's .numba_config.yaml
    from numba import njit, prange  # noqa: F401
