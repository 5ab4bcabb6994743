"""How the kernels run, so that every first call is instant: the kernels compiled ahead of time when the
package was installed (setup.py, kernels/_aot_build.py), in every process (the command line, the API, workers).
``FASTSCORE_JIT=always`` (development: kernels being edited) or ``NUMBA_DISABLE_JIT`` (numba's own: the
kernels as plain Python, for debugging), or no compiled module built from the kernels' current sources, leave
them to numba's JIT, which compiles each kernel at its first call (seconds each) and caches it; a run that
compiles says so once (:func:`announce_compilation`).  Also: where numba may cache (:func:`ensure_cache_location`)
and what ``fastscore --version`` says (:func:`kernels_status`).
"""
from __future__ import annotations

import glob
import importlib.util
import os
import sys
import tempfile
import zlib

from ._isolation import import_numba, private_folder

SETTINGS = ("auto", "always")  # FASTSCORE_JIT: the compiled kernels (JIT for other types), or the JIT only
ANNOUNCE_ON_STDERR = False  # the command line's own process: the compilation note on stderr, not a warning


def _kernel_sources() -> list[str]:
    spec = importlib.util.find_spec("fastscore.kernels")
    return list(spec.submodule_search_locations or []) if spec is not None else []


def kernels_cached(modules: tuple[str, ...] | None = None) -> bool:
    """Whether compiled kernels of fastscore are in the cache numba uses: an index file named after a kernel
    module (``ceaf._ceaf-123.py311.nbi``), for each of ``modules`` (default: any module).  The cache numba
    uses: its ``CACHE_DIR`` (``NUMBA_CACHE_DIR``, or the fallback :func:`ensure_cache_location` chose), else
    beside the sources when that folder can be written, else the user's cache folder."""
    sources = _kernel_sources()
    known = {os.path.splitext(os.path.basename(f))[0] for s in sources for f in glob.glob(os.path.join(s, "*.py"))}
    numba = sys.modules.get("numba")
    chosen = (numba.config.CACHE_DIR if numba is not None else "") or os.environ.get("NUMBA_CACHE_DIR")
    if chosen:  # numba then caches there only
        folders = [chosen]
    else:
        folders = [os.path.join(s, "__pycache__") for s in sources if _writable(os.path.join(s, "__pycache__"))]
        xdg = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        folders.append(os.path.join(xdg, "numba"))
    found = known & {os.path.basename(index).split(".", 1)[0] for folder in folders
                     for index in glob.glob(os.path.join(glob.escape(folder), "**", "*.nbi"), recursive=True)}
    return bool(found) if modules is None else set(modules) <= found


def source_stamp() -> int:
    """A checksum of the kernels' sources (every ``.py`` file of the kernels' folder, by name), compiled into
    the ahead-of-time module when it is built (kernels/_aot_build.py)."""
    crc = 0
    for folder in _kernel_sources():
        for name in sorted(os.listdir(folder)):
            if name.endswith(".py"):
                with open(os.path.join(folder, name), "rb") as fh:
                    crc = zlib.crc32(name.encode() + b"\0" + fh.read(), crc)
    return crc


def compiled_kernels():
    """The kernels compiled ahead of time (``fastscore.kernels._aot``) when installed and built from the
    kernels' current sources (an editable checkout whose kernels changed since has a stale one), else None.
    Loaded from its file without importing ``fastscore.kernels`` (which would choose the kernels' mode)."""
    return _load_compiled_kernels()[0]


def _load_extension(name: str, path: str):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _load_compiled_kernels():
    """(the compiled module or None, why not).  Its parts (``_aot_1``..., compiled side by side at
    installation: kernels/_aot_build.py) are loaded with it and their kernels set on it."""
    name = "fastscore.kernels._aot"
    module = sys.modules.get(name)
    if module is None:
        from importlib.machinery import EXTENSION_SUFFIXES

        paths = [os.path.join(f, "_aot" + x) for f in _kernel_sources() for x in EXTENSION_SUFFIXES]
        path = next((p for p in paths if os.path.isfile(p)), None)
        if path is None:
            return None, ("none is installed (the installation could not compile them: see pip install -v; "
                          "python -m fastscore.kernels._aot_build compiles them in place)")
        try:
            module = _load_extension(name, path)
            stamp = module._stamp()
            for part in range(1, module._parts() if hasattr(module, "_parts") else 1):
                folder, base = os.path.split(path)
                other = _load_extension(f"{name}_{part}", os.path.join(folder, base.replace("_aot", f"_aot_{part}", 1)))
                if other._stamp() != stamp:
                    return None, f"not used: {os.path.basename(other.__file__)} was built from other kernel sources than _aot"
                for attr, value in vars(other).items():
                    if not attr.startswith("_"):
                        setattr(module, attr, value)
        except (ImportError, OSError, AttributeError) as exc:
            return None, f"installed, but it does not load ({exc})"
        sys.modules[name] = module
    try:
        if module._stamp() == source_stamp():
            return module, ""
    except AttributeError:
        pass
    return None, "not used: built from other kernel sources (python -m fastscore.kernels._aot_build rebuilds them)"


def setting() -> str:
    """``FASTSCORE_JIT``: ``auto`` (default) or ``always``; anything else is refused."""
    value = os.environ.get("FASTSCORE_JIT", "auto") or "auto"
    if value not in SETTINGS:
        from .errors import UsageError

        raise UsageError(f"FASTSCORE_JIT={value!r}: choose auto (the compiled kernels; default) or always "
                         "(numba's JIT only, for kernels being edited); NUMBA_DISABLE_JIT=1 runs them as plain Python")
    return value


def jit_disabled() -> bool:
    """Whether the kernels run as plain Python (numba's ``NUMBA_DISABLE_JIT``, for debugging them): the
    compiled kernels are not used then, and nothing compiles."""
    jit = sys.modules.get("fastscore.kernels._jit")
    if getattr(jit, "MODE", None) == "aot":
        return False
    if "numba" in sys.modules:
        return bool(sys.modules["numba"].config.DISABLE_JIT)
    return os.environ.get("NUMBA_DISABLE_JIT", "0") not in ("", "0")


_WHY_JIT = ""  # why the kernels run on numba's JIT (use_compiled), said when nothing is cached


def use_compiled():
    """The compiled kernels' module when the kernels are to use it (read once, by ``kernels/_jit.py``), else
    None: numba's JIT (``kernels/__init__.py`` then calls :func:`announce_if_nothing_cached`)."""
    global _WHY_JIT
    if jit_disabled():
        return None
    if setting() == "always":
        _WHY_JIT = "FASTSCORE_JIT=always"
        return None
    module, why = _load_compiled_kernels()
    _WHY_JIT = f"the kernels compiled at installation are not used: {why}"
    return module


def announce_if_nothing_cached() -> None:
    """The kernels run on numba's JIT, their cache folder chosen: say so when nothing is cached there."""
    if not jit_disabled() and not kernels_cached():
        announce_compilation(_WHY_JIT)


def kernels_status() -> str:
    """Which kernels run, for ``fastscore --version``: the compiled ones, or the JIT and why (never imports
    numba; asked before any kernel is loaded, so the environment decides)."""
    if os.environ.get("NUMBA_DISABLE_JIT", "0") not in ("", "0"):
        return "kernels: plain Python (NUMBA_DISABLE_JIT is set)"
    module, why = _load_compiled_kernels()
    if setting() == "always":
        return "kernels: numba's JIT (FASTSCORE_JIT=always)" + ("; compiled kernels installed" if module else "")
    if module is None:
        return f"kernels: numba's JIT (compiled at first use, then cached); the module compiled ahead of time: {why}"
    return f"kernels: compiled ahead of time ({os.path.basename(module.__file__)})"


def temporary_folder(create: bool = True) -> str | None:
    """This user's folder in the temporary directory (``fastscore-UID``), for the fallback cache and the
    locks: made private (mode 0700) when missing; None when it is not this user's private folder (a link, a
    folder someone else made first, or one others may write in: then nothing is kept there)."""
    folder = _temporary_folder_name()
    return folder if private_folder(folder, create) else None


def _temporary_folder_name() -> str:
    uid = os.getuid() if hasattr(os, "getuid") else "user"
    return os.path.join(tempfile.gettempdir(), f"fastscore-{uid}")


def fallback_cache_dir(create: bool = True) -> str | None:
    """Where the kernels are cached when neither their folder nor the user's cache folder can be written;
    None when :func:`temporary_folder` is not private."""
    folder = temporary_folder(create)
    return None if folder is None else os.path.join(folder, "numba-cache")


def _writable(folder: str) -> bool:
    try:
        os.makedirs(folder, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):
            return True
    except OSError:
        return False


def ensure_cache_location() -> None:
    """Give numba a folder it can write when it has none (read-only site-packages and home): otherwise
    ``cache=True`` fails at import.  Called by ``fastscore.kernels`` before any kernel is declared."""
    config = import_numba().config
    if config.CACHE_DIR:
        return
    sources = _kernel_sources()
    if any(_writable(os.path.join(s, "__pycache__")) for s in sources):
        return
    xdg = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    if _writable(os.path.join(xdg, "numba")):
        return
    config.CACHE_DIR = fallback_cache_dir() or _cache_for_this_run()


def _cache_for_this_run() -> str:
    """A new private folder for this process's compiled kernels, removed when it ends: the fallback folder's
    name is taken by a folder that is not this user's private one, whose cache numba must not load."""
    import atexit
    import shutil
    import warnings

    from .errors import FastscoreWarning

    folder = tempfile.mkdtemp(prefix="fastscore-numba-cache-")
    atexit.register(shutil.rmtree, folder, True)
    warnings.warn(f"{_temporary_folder_name()} is not this user's private folder (a link, another user's, or "
                  "writable by others): the kernels compiled in this run are not cached for later runs (set "
                  "NUMBA_CACHE_DIR to a folder of yours)", FastscoreWarning)
    return folder


_announced = False


def announce_compilation(why: str) -> None:
    """Say once per process that a call compiles kernels (seconds to a minute), and why: on stderr in the
    command line's own process, else as a :class:`FastscoreWarning`."""
    global _announced
    if _announced:
        return
    _announced = True
    text = (f"fastscore: compiling scoring kernels with numba's JIT ({why}); this takes seconds to a minute, "
            "once: later runs load them from numba's cache")
    if ANNOUNCE_ON_STDERR:
        print(text, file=sys.stderr, flush=True)
    else:
        import warnings

        from .errors import FastscoreWarning

        warnings.warn(text, FastscoreWarning, stacklevel=3)
