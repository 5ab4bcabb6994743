"""fastscore: exact, fast scorers for coreference and information extraction.

Importing this package is cheap: numba, numpy's heavy users, scipy and
pyarrow are imported only when something is scored or converted.
"""
import os as _os

from ._version import __version__
from .errors import FastscoreError, FastscoreWarning, InputError, InputNotFound, ParseError, UnknownKeyword, UsageError

_API = ("score", "score_corpus", "score_by_file", "read_conll", "read_tbf", "read_timeml", "read_triples", "bootstrap",
        "compare", "sweep", "MentionTable")
_MODULES = ("api", "coval", "examples")  # loaded on first use (no numba either), as are the registry's EXPORTS
_NAMES = ("__version__", *_API, *_MODULES, "FastscoreError", "FastscoreWarning", "InputError", "InputNotFound",
          "ParseError", "UnknownKeyword", "UsageError")


def _score_functions() -> list[str]:
    """``score_<task>`` of every registered task (fastscore.tasks)."""
    from .api import SCORE_PREFIX
    from .tasks import TASKS

    return [SCORE_PREFIX + name for name in TASKS]


def _exports() -> dict[str, str]:
    """What the registry exports from the tasks' folders: name -> module."""
    from .tasks import EXPORTS

    return EXPORTS


def _kernels_beside_the_source_tree() -> None:
    """In a source checkout, ``kernels/`` (installed as ``fastscore.kernels``) sits beside this folder, not in
    it: when fastscore is imported from the checkout itself (``python -m fastscore`` or ``python -m pytest``
    in the repository after a non-editable install), let ``fastscore.kernels`` be found there."""
    here = _os.path.dirname(_os.path.abspath(__file__))
    root = _os.path.dirname(here)
    if (not _os.path.isdir(_os.path.join(here, "kernels"))
            and _os.path.isfile(_os.path.join(root, "kernels", "__init__.py"))
            and _os.path.isfile(_os.path.join(root, "pyproject.toml"))):
        __path__.append(root)  # fastscore.kernels -> ROOT/kernels


_kernels_beside_the_source_tree()


def __getattr__(name):  # lazy API: keeps `import fastscore` free of numba
    if name == "__all__":  # made from the task registry, when asked (`from fastscore import *`)
        return [*_NAMES, *_exports(), *_score_functions()]
    if name in _API or name.startswith("score_") and name in _score_functions():
        from . import api

        return getattr(api, name)
    if name in _MODULES or name in _exports():
        import importlib

        if name in _MODULES:
            return importlib.import_module(f".{name}", __name__)
        return getattr(importlib.import_module(_exports()[name]), name)
    raise AttributeError(f"module 'fastscore' has no attribute {name!r}")


def __dir__():
    return sorted({*globals(), *__getattr__("__all__")})
