"""The ahead-of-time kernels (``fastscore.kernels._aot`` and ``_aot_1``, see kernels/_aot_build.py);
everything else is in pyproject.toml, whose build requirements bring numba: ``pip install .`` and
``pip install -e .`` compile the kernels (a minute or two, once), so that no call of an installed fastscore
compiles anything.  If they cannot be built (no C compiler, a numba without ``pycc``) the package installs
without them and says so, and the kernels fall back to numba's JIT (announced when it compiles);
``FASTSCORE_NO_AOT=1`` skips them.  A module already built from the same kernel sources (in the build folder
or in place in the tree) is kept, not compiled again."""
import importlib.util
import os
import shutil
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
        os.environ["FASTSCORE_JIT"] = "always"  # the kernels as numba's, which pycc compiles
        try:
            from fastscore.kernels._aot_build import PARTS, build, is_current, part_path

            in_tree = os.path.join(ROOT, "kernels", os.path.basename(target))  # an editable install's copy
            current = next((p for p in (target, in_tree) if is_current(p)), None)
            if current is not None:
                for i in range(PARTS * (current != target)):  # the tree's into the build folder
                    shutil.copy2(part_path(current, i), part_path(target, i))
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
wanted = os.environ.get("FASTSCORE_NO_AOT") != "1" and importlib.util.find_spec("numba") is not None
extensions = [] if not wanted else [
    Extension(NAME + (f"_{i}" if i else ""), sources=[], optional=True) for i in range(PARTS)]
setup(ext_modules=extensions, cmdclass={"build_ext": BuildKernels})
