"""The first run after installation: scored without compiling, the kernels compiled in the background.

numba caches compiled kernels (``cache=True``) beside their source (``__pycache__``), or under
``NUMBA_CACHE_DIR``, or in the user's cache folder when the source folder is read-only.  No cache index
(``*.nbi``) there means a run would compile every kernel it uses (~20 s), where scoring itself takes
milliseconds to seconds.  So a command-line run (the console entry point only: ``cli.main`` called from a
program leaves its process alone) whose task's kernels are not cached yet, on input of at most
``PYTHON_MODE_BYTES``, runs the kernels as the plain Python functions they are written as (the same code,
so the same numbers; ``kernels/_jit.py`` then does not even import numba); once the command has printed
its result, a background process (``fastscore._warmup``, isolated, at low priority) scores the same inputs
with the JIT, which fills the cache.  Later runs load the compiled kernels, except on tiny inputs
(``TINY_BYTES``), which always run as plain Python: loading numba and the cached kernels costs more than
scoring them.  Runs that resample never run as plain Python: without compiled kernels they compile at
once.  When the kernels were compiled ahead of time at installation (setup.py, kernels/_aot_build.py),
every other run uses them (kernels/_jit.py), resampling runs included: no numba, no cache, no compilation.
``FASTSCORE_JIT=always`` compiles in the run itself, ``FASTSCORE_JIT=never`` never compiles,
``FASTSCORE_JIT=aot`` uses the compiled kernels whatever the input's size; ``auto`` is the default.
"""
from __future__ import annotations

import glob
import importlib.util
import os
import stat
import subprocess
import sys
import tempfile
import time
import zlib

from ._isolation import import_numba, private_folder, python_command

NOTE = ("fastscore: compiling the scoring kernels for the first run after installation "
        "(up to ~20 s; later runs reuse them)")
TINY_BYTES = 256 << 10  # input always scored with the plain-Python kernels
PYTHON_MODE_BYTES = 24 << 20  # input scored without the JIT when nothing is cached (the plain-Python kernels
# score ~3 MB/s, compiling costs ~20 s)
LOCK_SECONDS = 600  # a background compilation older than this is taken to have died


def _kernel_sources() -> list[str]:
    spec = importlib.util.find_spec("fastscore.kernels")
    return list(spec.submodule_search_locations or []) if spec is not None else []


def kernels_cached(modules: tuple[str, ...] | None = None) -> bool:
    """Whether compiled kernels of fastscore are in a cache numba looks in: an index file named after a
    kernel module (``ceaf._ceaf-123.py311.nbi``), for each of ``modules`` (default: any module)."""
    sources = _kernel_sources()
    known = {os.path.splitext(os.path.basename(f))[0] for s in sources for f in glob.glob(os.path.join(s, "*.py"))}
    if os.environ.get("NUMBA_CACHE_DIR"):  # numba then caches there only
        folders = [os.environ["NUMBA_CACHE_DIR"]]
    else:  # beside the source, or numba's user-wide folder when the source folder is read-only
        folders = [os.path.join(s, "__pycache__") for s in sources]
        folders.append(os.path.join(os.path.expanduser("~"), ".cache", "numba"))
        fallback = fallback_cache_dir(create=False)
        if fallback is not None:
            folders.append(fallback)
    found = set()
    for folder in folders:
        for index in glob.glob(os.path.join(glob.escape(folder), "**", "*.nbi"), recursive=True):
            found.add(os.path.basename(index).split(".", 1)[0])
    found &= known
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
            return None, ("none is installed (a source install leaves the kernels to the JIT; the wheel of "
                          "scripts/build_wheel.sh has them, python -m fastscore.kernels._aot_build compiles them)")
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


def kernels_status() -> str:
    """Which kernels the command line runs, for ``fastscore --version``: the compiled ones, or the JIT and
    why (never imports numba)."""
    setting = os.environ.get("FASTSCORE_JIT", "auto")
    if os.environ.get("NUMBA_DISABLE_JIT", "0") not in ("", "0"):
        return "kernels: plain Python (NUMBA_DISABLE_JIT is set)"
    if setting == "never":
        return "kernels: plain Python (FASTSCORE_JIT=never)"
    module, why = _load_compiled_kernels()
    if module is None:
        return f"kernels: numba's JIT (compiled at first use, then cached); the module compiled ahead of time: {why}"
    if setting == "always":
        return "kernels: numba's JIT (FASTSCORE_JIT=always); compiled kernels installed"
    return f"kernels: compiled ahead of time ({os.path.basename(module.__file__)}); tiny inputs plain Python"


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


def lock_path() -> str | None:
    """The lock a background compilation holds, in this user's :func:`temporary_folder` (None: no private
    folder, no background compilation)."""
    from ._version import __version__

    folder = temporary_folder()
    if folder is None:
        return None
    where = "-".join(f"{zlib.crc32(s.encode()):08x}" for s in _kernel_sources()) or "none"
    return os.path.join(folder, f"compiling-{__version__}-{where}.lock")


def take_lock(path: str) -> int | None:
    """The lock file at ``path`` opened for writing (a file descriptor), or None: never through a link
    (``O_NOFOLLOW``), never a file of another user's or other than a plain file (nor waiting on a FIFO), never
    truncated before it is checked."""
    flags = os.O_WRONLY | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(path, flags, 0o600)
    except OSError:
        return None
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode) or (hasattr(os, "getuid") and st.st_uid != os.getuid()):
        os.close(fd)
        return None
    os.ftruncate(fd, 0)
    return fd


def compiling_in_background() -> bool:
    lock = lock_path()
    try:
        return lock is not None and time.time() - os.lstat(lock).st_mtime < LOCK_SECONDS
    except OSError:
        return False


def _input_bytes(paths: list[str]) -> int | None:
    """Total size of the inputs (folders walked); None when one cannot be sized (standard input)."""
    total = 0
    for p in paths:
        if p == "-":
            return None
        if os.path.isdir(p):
            for root, _, files in os.walk(p):
                total += sum(os.path.getsize(os.path.join(root, f)) for f in files)
        elif os.path.exists(p):
            total += os.path.getsize(p)
        elif glob.has_magic(p):  # a corpus of shards
            total += sum(os.path.getsize(f) for f in glob.glob(p, recursive=True) if os.path.isfile(f))
    return total


def choose_mode(inputs: list[str], kernels: tuple[str, ...] = (), heavy: bool = False) -> str:
    """``python`` (the plain-Python kernels), ``aot`` (the kernels compiled at installation) or ``jit``, for
    a command-line run that has not imported numba yet.  Tiny inputs always run as Python: loading the
    compiled kernels costs more than scoring them.  Others use the kernels compiled ahead of time when they
    are there (kernels/_jit.py); else small ones run as Python while ``kernels`` are not cached (compiling
    would cost ~20 s).  ``heavy``: the run resamples or compares many systems, never as plain Python (the
    resampling loops would take seconds): the compiled kernels, else the JIT at once."""
    setting = os.environ.get("FASTSCORE_JIT", "auto")
    if setting not in ("auto", "always", "never", "aot"):
        from .errors import UsageError

        raise UsageError(f"FASTSCORE_JIT={setting!r}: choose auto (default), always, never or aot")
    if "numba" in sys.modules or jit_disabled():
        return "jit"  # decided already (by the caller, or the user's NUMBA_DISABLE_JIT)
    if setting == "never":
        return "python"
    if setting == "always":
        return "jit"
    if setting == "aot" or heavy:
        return "aot" if compiled_kernels() is not None else "jit"
    size = _input_bytes(inputs)
    if size is not None and size <= TINY_BYTES:
        return "python"
    if compiled_kernels() is not None:
        return "aot"
    if size is None:
        return "jit"
    if size > PYTHON_MODE_BYTES or (kernels_cached(kernels or None) and not compiling_in_background()):
        return "jit"
    return "python"


_LIBRARY_CHOSE = False  # fastscore.library chose the kernels' mode: numba, if loaded later, keeps its BLAS


def library_chooses_kernels() -> None:
    """``fastscore.library`` chose the kernels for a user's program: the command line's shortcuts (no BLAS
    probe) are not taken in that process."""
    global _LIBRARY_CHOSE
    _LIBRARY_CHOSE = True


def jit_disabled() -> bool:
    """Whether the kernels run as plain Python: the one answer to "is the JIT on?".  As ``kernels/_jit.py``
    made them (``python`` mode), or as numba read ``NUMBA_DISABLE_JIT`` when it was imported, or (nothing
    loaded yet) as the setting will make them."""
    jit = sys.modules.get("fastscore.kernels._jit")
    if jit is not None and jit.PLAIN_PYTHON:
        return True
    if "numba" in sys.modules:
        return bool(sys.modules["numba"].config.DISABLE_JIT)
    return os.environ.get("NUMBA_DISABLE_JIT", "0") not in ("", "0")


def use_python_kernels() -> None:
    os.environ["NUMBA_DISABLE_JIT"] = "1"


def use_compiled_kernels() -> None:
    os.environ["FASTSCORE_AOT"] = "1"


def skip_blas_check() -> None:
    """Load numba's array functions without its BLAS probe, which imports scipy.linalg (~0.4 s) to find
    BLAS for ``np.dot`` and friends; no kernel of fastscore uses BLAS.  Only for the command line's own
    process (a user's program keeps numba's BLAS: the API's compiled kernels never skip it)."""
    if _LIBRARY_CHOSE or "numba.np.arraymath" in sys.modules or "scipy.linalg" in sys.modules:
        return
    name = "scipy.linalg.cython_blas"
    missing = object()
    before = sys.modules.get(name, missing)
    sys.modules[name] = None  # an import of it fails at once, without importing scipy.linalg
    try:
        import_numba()
        import numba.np.arraymath  # noqa: F401
    except ImportError:
        pass
    finally:
        if before is missing:
            del sys.modules[name]
        else:
            sys.modules[name] = before


def compile_in_background(argv: list[str], kernels: tuple[str, ...] = ()) -> None:
    """Start the warm-up (:func:`warmup_command`) detached when ``kernels`` are not cached, unless one is
    running already or this user has no private temporary folder for its lock."""
    if (os.environ.get("FASTSCORE_JIT", "auto") == "never" or lock_path() is None or compiling_in_background()
            or kernels_cached(kernels or None)):
        return
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_DISABLE_JIT"}
    try:
        subprocess.Popen(warmup_command(argv), env=env, stdin=subprocess.DEVNULL,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
                         close_fds=True)
    except OSError:
        pass  # nothing lost: the next run compiles in place


def warmup_command(argv: list[str]) -> list[str]:
    """``python -m fastscore._warmup ARGV``, as a process that imports only from this installation
    (:func:`fastscore._isolation.python_command`): not ``python -m``, which puts the working folder first."""
    return python_command("import runpy; runpy.run_module('fastscore._warmup', run_name='__main__', "
                          "alter_sys=True)", *argv)


_announced = False


def announce_compilation() -> None:
    """Print the note on stderr, once, when it is a terminal, nothing is cached yet and this run compiles
    (with the kernels compiled at installation: when a kernel falls back to the JIT, kernels/_jit.py)."""
    global _announced
    if (not _announced and sys.stderr.isatty() and not jit_disabled()
            and ("numba" in sys.modules or os.environ.get("FASTSCORE_AOT") != "1") and not kernels_cached()):
        _announced = True
        print(NOTE, file=sys.stderr, flush=True)
