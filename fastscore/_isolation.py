"""Only the installation: what fastscore's own processes import, what configures numba, where it keeps files
in the shared temporary directory.  Nothing in the working folder (where a user may run fastscore among
other people's files) is imported or read as configuration, and no folder someone else made in ``/tmp`` is used.

- A Python process fastscore starts imports from this process's import path, never from the working folder
  (:func:`python_command`, :func:`no_working_folder_in_children`).
- numba is configured by its defaults and the ``NUMBA_*`` environment variables, never by a
  ``.numba_config.yaml`` in the working folder (:func:`import_numba`).
- A folder under the temporary directory is used only when it is this user's own (:func:`private_folder`).
"""
from __future__ import annotations

import contextlib
import os
import stat
import sys
import warnings

# run first by python_command's child (isolated: nothing but the standard library on its path yet): the import
# path it is given, then the code
_BOOT = "import json, sys; sys.path[:] = json.loads(sys.argv.pop(1))\n"


def installation_path() -> list[str]:
    """This process's import path without the working folder: neither ``''`` nor relative entries (Python
    resolves them against the working folder) nor the working folder itself (``python -m`` puts it first),
    unless it is the folder this fastscore was imported from (``python -m fastscore`` in a checkout)."""
    try:
        here = os.path.realpath(os.getcwd())
    except OSError:  # the working folder was deleted: nothing in it can be imported
        return [p for p in sys.path if os.path.isabs(p)]
    installation = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
    path = []
    for entry in sys.path:
        full = os.path.realpath(entry)  # '' and relative entries: in the working folder
        if full == installation or (os.path.isabs(entry) and full != here):
            path.append(full if full == installation else entry)
    return path


def python_command(code: str, *args: str) -> list[str]:
    """The command that runs ``code`` (``sys.argv[1:]``: ``args``) in a new Python process that imports what
    this one does and nothing from the working folder: isolated (``-I``: no working folder, no user site, no
    ``PYTHON*`` variables), then given :func:`installation_path`, so that it finds this installation of
    fastscore wherever it is installed (user site, ``PYTHONPATH``) and no other."""
    import json

    return [sys.executable, "-I", "-c", _BOOT + code, json.dumps(installation_path()), *args]


@contextlib.contextmanager
def no_working_folder_in_children():
    """While it lasts, the Python processes that multiprocessing or Dask start from this one (a forkserver, a
    spawned worker, the resource tracker) do not put the working folder first on their import path.  They
    start as ``python -c ...``, which would, and import the standard library modules they need from there
    before they take this process's path.  ``PYTHONSAFEPATH`` (Python 3.11+) tells them not to; a forked
    worker starts no interpreter and needs nothing."""
    before = os.environ.get("PYTHONSAFEPATH")
    os.environ["PYTHONSAFEPATH"] = "1"
    try:
        yield
    finally:
        if before is None:
            os.environ.pop("PYTHONSAFEPATH", None)
        else:
            os.environ["PYTHONSAFEPATH"] = before


def import_numba():
    """numba, configured by its defaults and the ``NUMBA_*`` environment variables only.  numba also reads a
    ``.numba_config.yaml`` in the working folder (when PyYAML is importable) when it is imported and again at
    every compilation (``reload_config``); a ``cache_dir:`` there would make it load pickled kernels from
    anywhere.  So it is imported with PyYAML hidden, and its file name emptied (``os.path.exists("")`` is
    False); where the program imported numba before, its configuration is read again without the file."""
    config = sys.modules.get("numba.core.config")
    if config is None:
        missing = object()
        yaml = sys.modules.get("yaml", missing)
        sys.modules["yaml"] = None  # an import of it fails at once
        try:
            with warnings.catch_warnings():  # numba's note that it found the file and cannot read it
                warnings.filterwarnings("ignore", message="A Numba config file is found")
                from numba.core import config
        finally:
            if yaml is missing:
                del sys.modules["yaml"]
            else:
                sys.modules["yaml"] = yaml
    if getattr(config, "_config_fname", ""):
        config._config_fname = ""
        config.reload_config()  # values a file gave (numba imported before) give way to the environment's
    import numba

    return numba


def private_folder(path: str, create: bool = True) -> bool:
    """Whether ``path`` is a folder that only this user can change: made now with mode 0700 when it is missing
    (``create``); refused when it is a link or not a folder, belongs to another user, or others may write in
    it (in a shared temporary directory anyone may have made it first)."""
    if create:
        try:
            os.mkdir(path, 0o700)
        except FileExistsError:
            pass
        except OSError:
            return False
    try:
        st = os.lstat(path)
    except OSError:
        return False
    owner = os.getuid() if hasattr(os, "getuid") else st.st_uid  # Windows: a per-user temporary directory
    return stat.S_ISDIR(st.st_mode) and st.st_uid == owner and not st.st_mode & (stat.S_IWGRP | stat.S_IWOTH)
