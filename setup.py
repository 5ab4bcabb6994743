"""The ahead-of-time kernels (``fastscore.kernels._aot``, see kernels/_aot_build.py); everything else is in
pyproject.toml.  If they cannot be built (no C compiler, a numba without ``pycc``) the package installs
without them and says so: the command line then compiles the kernels with numba's JIT as it needs them.
``FASTSCORE_NO_AOT=1`` skips them.  A module already built from the same kernel sources (an editable
install given an extra, a wheel rebuilt in the same tree) is kept, not compiled again."""
import os
import sys
import time

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = os.path.dirname(os.path.abspath(__file__))
NAME = "fastscore.kernels._aot"


def say(message: str) -> None:
    """On stderr (pip shows it with -v) and on the terminal, if there is one: ``pip install -q`` hides the
    build's output, and compiling takes a minute."""
    print(message, file=sys.stderr, flush=True)
    try:
        with open("/dev/tty", "w") as tty:
            tty.write(message + "\n")
    except OSError:
        pass  # no terminal (CI, a pipe): stderr only


class BuildKernels(build_ext):
    def build_extension(self, ext):
        if ext.name.startswith(NAME + "_"):
            return  # a part of the module, built with it (below)
        if ext.name != NAME:
            return super().build_extension(ext)
        target = self.get_ext_fullpath(ext.name)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        sys.path.insert(0, ROOT)  # the sources being installed, not an installed fastscore
        try:
            from fastscore.kernels._aot_build import build, is_current

            if is_current(target):
                say(f"fastscore: the compiled kernels are current ({os.path.basename(target)}): not compiled again")
                return
            say("fastscore: compiling the kernels ahead of time (about a minute, once; FASTSCORE_NO_AOT=1 skips "
                "it) ...")
            start = time.monotonic()
            build(target)
            say(f"fastscore: kernels compiled in {time.monotonic() - start:.0f} s")
        except Exception as exc:  # noqa: BLE001 (any failure: install without them)
            say(f"fastscore: the ahead-of-time kernels were not built ({type(exc).__name__}: {exc}); "
                "runs will compile them with numba's JIT")
        finally:
            sys.path.remove(ROOT)

    def get_outputs(self):
        return [p for p in super().get_outputs() if os.path.exists(p)]


PARTS = 2  # kernels/_aot_build.PARTS: _aot and _aot_1, compiled side by side
extensions = [] if os.environ.get("FASTSCORE_NO_AOT") == "1" else [
    Extension(NAME + (f"_{i}" if i else ""), sources=[], optional=True) for i in range(PARTS)]
setup(ext_modules=extensions, cmdclass={"build_ext": BuildKernels})
