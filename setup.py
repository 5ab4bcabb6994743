"""The ahead-of-time kernels (``fastscore.kernels._aot``, see kernels/_aot_build.py); everything else is in
pyproject.toml.  If they cannot be built (no C compiler, a numba without ``pycc``) the package installs
without them and says so: the command line then compiles the kernels with numba's JIT as it needs them.
``FASTSCORE_NO_AOT=1`` skips them."""
import os
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = os.path.dirname(os.path.abspath(__file__))
NAME = "fastscore.kernels._aot"


class BuildKernels(build_ext):
    def build_extension(self, ext):
        if ext.name != NAME:
            return super().build_extension(ext)
        target = self.get_ext_fullpath(ext.name)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        sys.path.insert(0, ROOT)  # the sources being installed, not an installed fastscore
        try:
            from fastscore.kernels._aot_build import build

            build(target)
        except Exception as exc:  # noqa: BLE001 (any failure: install without them)
            print(f"fastscore: the ahead-of-time kernels were not built ({type(exc).__name__}: {exc}); "
                  "runs will compile them with numba's JIT", file=sys.stderr)
        finally:
            sys.path.remove(ROOT)

    def get_outputs(self):
        return [p for p in super().get_outputs() if os.path.exists(p)]


extensions = [] if os.environ.get("FASTSCORE_NO_AOT") == "1" else [Extension(NAME, sources=[], optional=True)]
setup(ext_modules=extensions, cmdclass={"build_ext": BuildKernels})
