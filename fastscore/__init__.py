"""fastscore: exact, fast scorers for coreference and information extraction.

Importing this package is cheap: numba, numpy's heavy users, scipy and
pyarrow are imported only when something is scored or converted.
"""
from ._version import __version__
from .errors import FastscoreError, InputError, ParseError, UsageError

_API = ("score", "score_coref", "score_nugget", "read_conll", "bootstrap", "compare", "sweep")
__all__ = ["__version__", *_API, "FastscoreError", "InputError", "ParseError", "UsageError"]


def __getattr__(name):  # lazy API: keeps `import fastscore` free of numba
    if name in _API:
        from . import api

        return getattr(api, name)
    raise AttributeError(f"module 'fastscore' has no attribute {name!r}")
