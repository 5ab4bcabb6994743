"""``python -m fastscore._warmup ARGV``: the background compilation a first run starts
(:mod:`fastscore.first_run`)."""
from __future__ import annotations

import os
import sys

from .first_run import lock_path


def _warm(argv: list[str]) -> None:
    """Run the command with the JIT, its output discarded, to fill numba's cache (the bundled example if
    the command fails: its inputs may be gone)."""
    lock = lock_path()
    try:
        with open(lock, "w") as fh:
            fh.write(str(os.getpid()))
    except OSError:
        return
    try:
        if hasattr(os, "nice"):
            os.nice(10)
        from .cli import main

        devnull = open(os.devnull, "w")
        sys.stdout = sys.stderr = devnull
        os.environ["FASTSCORE_JIT"] = "always"
        if main(argv) != 0 and argv and argv[0] != "compare" and argv[0] != "sweep":
            main([argv[0], "example", "example"])
    except BaseException:  # noqa: BLE001 - a background helper: nothing to report to
        pass
    finally:
        try:
            os.remove(lock)
        except OSError:
            pass


if __name__ == "__main__":
    _warm(sys.argv[1:])
