"""``python -m fastscore._warmup ARGV``: the background compilation a first run starts
(:mod:`fastscore.first_run`).  It scores the command's inputs again with the JIT, so that the kernels and
types the command needs get compiled and cached, and writes nothing but numba's cache: no report, no
``--diff``/``--timeml``/``--plot`` file, no converted file (a conversion warms up on the bundled example)."""
from __future__ import annotations

import os
import sys

from .first_run import lock_path


def _score_again(argv: list[str]) -> None:
    from .api import score
    from .cli import _keywords, _parser, _stats_task
    from .tasks import TASKS

    parser, _ = _parser(_stats_task(argv))
    args, _ = parser.parse_known_args(argv)
    task = TASKS.get(args.command) or _converting_task(args.to)
    keywords = _keywords(args, task, "score", "command") if args.command in TASKS else {}
    example = task.bundled_example(keywords) if task.bundled_example is not None else None
    if args.command in TASKS and not any(map(_is_pipe, (args.gold, args.system))):
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


def _is_pipe(path) -> bool:
    """A FIFO is the command's to read: opened here too, it would wait for a writer or take part of its bytes."""
    from .formats.files import is_pipe

    return isinstance(path, str) and is_pipe(path)


def _converting_task(target: str):
    """The task whose converter writes ``target`` (a conversion warms up on that task's example)."""
    from .tasks import TASKS

    return next(t for t in TASKS.values() if t.converter is not None and target in t.converter.targets)


def _warm(argv: list[str]) -> None:
    lock = lock_path()
    try:
        with open(lock, "w") as fh:
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
