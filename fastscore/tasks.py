"""The task registry: every task the command line, the API and the statistics know.

Adding a task: write its package (reader, engine, result, reports) with a ``task.py``
whose :class:`~fastscore.task.Task` subclass declares it, and add its instance to ``TASKS`` here.
"""
from __future__ import annotations

from .coref.task import COREF
from .errors import UsageError
from .explain.task import EXPLAIN
from .formats.files import OWN_READS, READERS
from .nugget.task import NUGGET
from .task import Task
from .temporal.task import TEMPORAL
from .triples.task import TRIPLES

TASKS: dict[str, Task] = {t.name: t for t in (COREF, NUGGET, TEMPORAL, TRIPLES, EXPLAIN)}
DEFAULT_TASK = "coref"  # of `compare` and `sweep`
# names the package exports from a task's folder (``fastscore.NAME``, loaded on first use): name -> module
EXPORTS = {"CorefEvaluator": "fastscore.coref.evaluator"}


def _name_readers() -> None:
    """The commands that read each format, for the readers' messages on a file of another format."""
    READERS.clear()
    OWN_READS.clear()
    for task in TASKS.values():
        for fmt, options in task.reads:
            READERS.setdefault(fmt, []).append((task.name, options))
        OWN_READS[task.name] = dict(task.also_reads + task.reads)


def register(task: Task) -> None:
    """Add a task (or replace one of the same name)."""
    TASKS[task.name] = task
    _name_readers()


def unregister(name: str) -> None:
    TASKS.pop(name, None)
    _name_readers()


_name_readers()


def get_task(name: str) -> Task:
    try:
        return TASKS[name]
    except KeyError:
        raise UsageError(f"unknown task {name!r}: choose from {', '.join(TASKS)}") from None
