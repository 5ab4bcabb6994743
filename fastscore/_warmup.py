"""``python -m fastscore._warmup ARGV``: the background compilation a first run starts
(:mod:`fastscore.first_run`, as an isolated process: ``first_run.warmup_command``).  It scores the command's
inputs again with the JIT, so that the kernels and types the command needs get compiled and cached, and writes
nothing but numba's cache and its lock: no report, no ``--diff``/``--timeml``/``--plot`` file, no converted file
(a conversion warms up on the bundled example, and so does a run whose inputs are not plain files or folders:
a FIFO, standard input)."""
from __future__ import annotations

import os
import sys

from .first_run import lock_path, take_lock


def _score_again(argv: list[str]) -> None:
    from .api import score
    from .cli import _keywords, _parser, _stats_task
    from .tasks import TASKS

    parser, _ = _parser(_stats_task(argv))
    args, _ = parser.parse_known_args(argv)
    task = TASKS.get(args.command) or _converting_task(args.to)
    keywords = _keywords(args, task, "score", "command") if args.command in TASKS else {}
    example = task.bundled_example(keywords) if task.bundled_example is not None else None
    if args.command in TASKS and _plain(args.gold) and _plain(args.system):
        gold, system = args.gold, args.system
        if gold == system == "example" and example is not None:
            gold, system, example_keywords = example
            keywords.update(example_keywords)
        try:
            score(gold, system, task=task.name, **keywords)
            return
        except Exception:  # noqa: BLE001 - the inputs may be gone: warm up on the bundled example
            pass
    if example is not None:
        gold, system, example_keywords = example
        score(gold, system, task=task.name, **example_keywords)


def _plain(path: str) -> bool:
    """A file or folder to read again: never a FIFO, a device or standard input (the command has read those;
    opening a FIFO again would wait for, and take, the data meant for another reader)."""
    return path == "example" or os.path.isfile(path) or os.path.isdir(path)


def _converting_task(target: str):
    """The task whose converter writes ``target`` (a conversion warms up on that task's example)."""
    from .tasks import TASKS

    return next(t for t in TASKS.values() if t.converter is not None and target in t.converter.targets)


def _warm(argv: list[str]) -> None:
    lock = lock_path()
    fd = None if lock is None else take_lock(lock)
    if fd is None:
        return
    try:
        with open(fd, "w") as fh:
            fh.write(str(os.getpid()))
    except OSError:
        return
    try:
        if hasattr(os, "nice"):
            os.nice(10)
        sys.stdout = sys.stderr = open(os.devnull, "w")
        _score_again(argv)
    except BaseException:  # noqa: BLE001 - a background helper: nothing to report to
        pass
    finally:
        try:
            os.remove(lock)
        except OSError:
            pass


if __name__ == "__main__":
    _warm(sys.argv[1:])
