"""Build ``fastscore.kernels._aot``: the kernels of ``aot_signatures.py`` compiled ahead of time with numba's
``pycc`` (called by setup.py at installation; needs numba and a C compiler then, nothing at run time).

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


def build(path: str) -> None:
    """Compile the module to ``path`` (a file name with the platform's extension suffix)."""
    if os.environ.get("NUMBA_DISABLE_JIT", "0") not in ("", "0") or os.environ.get("FASTSCORE_AOT") == "1":
        raise RuntimeError("the ahead-of-time build needs numba's compiler: unset NUMBA_DISABLE_JIT and "
                           "FASTSCORE_AOT")
    from numba.core import types
    from numba.pycc import CC

    from fastscore.first_run import source_stamp

    from ._jit import exported_name
    from .aot_signatures import SIGNATURES

    namespace = vars(types)
    cc = CC("_aot")
    cc.output_dir = os.path.dirname(os.path.abspath(path))
    cc.output_file = os.path.basename(path)
    cc.verbose = False
    for key, entries in SIGNATURES.items():
        module, name = key.split(".")
        func = getattr(importlib.import_module(f"{__package__}.{module}"), name).py_func
        for i, (_, args) in enumerate(entries):
            argtypes = tuple(eval(a, namespace) for a in args)  # reprs of numba types; the return type inferred
            cc.export(exported_name(module, name, i), argtypes)(func)
    cc.export("_stamp", types.int64())(_constant(source_stamp()))
    cc.compile()
