"""The shape every task fills (coreference, event nuggets, and the tasks to come).

A task is a subclass of :class:`Task` in its folder's ``task.py``: it says how to read its inputs, which options
it takes (declared once: the command line and the API keywords are made from them), how to score a gold/system
pair into a result (a :class:`fastscore.result.Result`), its default metric and its reports.  Scoring commands,
``compare``, ``sweep`` and ``--bootstrap`` ask the shape, never a task's name; tasks are registered in
:mod:`fastscore.tasks`.

This module imports nothing of fastscore but its errors and the pairing policy.
"""
from __future__ import annotations

import argparse
import importlib
from dataclasses import dataclass
from operator import attrgetter
from typing import Any, Callable, Iterable

from .errors import UnknownKeyword, UsageError, keyword_hint
from .pairing import Pairing

SCOPES = ("score", "command", "report")


def lazy(module: str, name: str) -> Callable[..., Any]:
    """``module.name`` (``name`` may be dotted: ``Class.method``), imported when first called: a task's declaration
    stays light (the command line is built from it without importing numba or the engines)."""
    def call(*args, **kwargs):
        return attrgetter(name)(importlib.import_module(module))(*args, **kwargs)

    call.__name__ = call.__qualname__ = name
    return call


@dataclass(frozen=True)
class Option:
    """One task option: its command-line flags and the keyword it sets.

    ``scope``: ``score`` — a keyword of the task's score function, offered by the task's
    command, ``compare`` and ``sweep``; ``command`` — a score keyword offered only by the
    task's own command (it changes what that command reports, not the statistics);
    ``report`` — a keyword of the task's report function.
    """

    flags: tuple[str, ...]
    keyword: str
    help: str
    default: Any = None
    choices: tuple | None = None
    type: Callable[[str], Any] | None = None
    metavar: str | None = None
    switch: bool = False  # a flag without a value (on when given)
    repeatable: bool = False  # given several times, the values form a list
    scope: str = "score"
    positional: bool = False  # the API takes it also as a positional argument, after gold and system
    # its value is a path the run reads ("input": a file or folder) or writes ("output": a file; "folder": a folder
    # of files named from the inputs): the command line refuses an output on an input (outputs.refuse_outputs_on_inputs)
    path: str = ""

    def __post_init__(self):
        if self.scope not in SCOPES:
            raise ValueError(f"option {self.flags[0]}: scope must be one of {SCOPES}")
        if self.path not in ("", "input", "output", "folder"):
            raise ValueError(f"option {self.flags[0]}: path must be input, output or folder")
        if self.positional and self.scope == "report":
            raise ValueError(f"option {self.flags[0]}: a report option is no argument of the score function")

    def add_to(self, parser: argparse.ArgumentParser | argparse._ArgumentGroup) -> None:
        kw: dict[str, Any] = {"dest": self.keyword, "help": self.help, "default": self.default}
        if self.switch:
            kw["action"] = "store_true"
        else:
            kw.update(choices=self.choices, type=self.type, metavar=self.metavar)
            if self.repeatable:
                kw["action"] = "append"
        parser.add_argument(*self.flags, **kw)


class Converter:
    """What ``fastscore convert --to TARGET`` writes for a task (a subclass per task): its targets, its options
    (each an :class:`Option`; ``keyword`` is the converter's keyword), and ``convert``."""

    targets: tuple[str, ...]
    summary: str  # what it converts, for the command's help
    options: tuple[Option, ...] = ()

    def convert(self, input: str, output: str, to: str, **keywords) -> list[str]:
        """Write ``input`` converted to ``to`` into ``output``; the warnings."""
        raise NotImplementedError


class Corpus:
    """How a task reads corpora: folders and glob patterns of shards, large files in batches
    (:mod:`fastscore.shards`).  A task's subclass defines, as methods, the hooks it has (a hook left None is
    one the task does without).  A task without a corpus scores one pair of inputs only."""

    batch_formats: str = ""  # which of its formats ``batches`` cuts (for --batch-size's help)
    # (read inputs, name, like) -> one input of their documents in order (none: like's kind, no documents);
    # None: a unit must be one key shard and one response shard
    concat: Callable[[list, str, Any], Any] | None = None
    batches: Callable[[str, int], list] | None = None  # (a file, bytes) -> Parts of whole documents ([]: read whole)
    # batches that need each other (a CoNLL-U file's entity ids): what a read part tells the others (small, or None)
    part_summary: Callable[[Any], Any] | None = None
    part_contexts: Callable[[list, list], list] | None = None  # (parts of a side, their summaries) -> contexts
    in_context: Callable[[Any, Any], Any] | None = None  # (a read part, its context) -> the read in its context
    # (a part) -> True: the part, not its read, goes to where it is scored and is read again there (its read holds
    # the batch's bytes: keeping every batch's read, or sending it between processes, would cost the file)
    read_again: Callable[[Any], bool] | None = None
    folder_files: Callable[[str], list[str]] | None = None  # the shards of a folder (None: files of `extensions`)
    # a shard file -> the read input (None: Task.read; a task whose single file is read otherwise, e.g. as one
    # unnamed document, names a shard's documents here)
    read_shard: Callable[[Any], Any] | None = None
    # (a part) -> None: imports what reading such a part takes (pyarrow's Parquet reader...), done once in a parent
    # process before it forks its workers, which would each import it again
    prepare: Callable[[Any], None] | None = None

    def merge(self, results: list, gold: str, system: str) -> Any:
        """The results of shard pairs (in order) as one result, named by the gold and system corpora: by default
        their class's ``merge`` (:meth:`fastscore.result.Result.merge`)."""
        return type(results[0]).merge(results, gold, system)


class Task:
    """A scoring task: what the generic commands and the API need to know of it.

    One subclass per task, in its folder's ``task.py``: class attributes for what it declares, methods for what
    it does (each imports its engine when called: a declaration stays light, the command line is built from it
    without numba).  An instance is registered in :mod:`fastscore.tasks`.
    """

    # ---- what every task sets
    name: str  # its command (`fastscore NAME`), `--task NAME`, `fastscore.score_NAME`
    summary: str  # one line, for `fastscore --help`
    description: str  # the task command's description; the first paragraph of `fastscore.score_NAME`'s help
    example: str = ""  # the task command's epilog
    gold_help: str  # e.g. "gold CoNLL file"
    system_help: str
    docs_page: str  # its page, e.g. "docs/coreference.md" (README's task table links it)
    extensions: tuple[str, ...]  # a folder given to `sweep`, or of shards, holds files ending so
    default_metric: str
    metric_help: str  # what `compare/sweep --metric` accepts
    outputs: tuple[tuple[str, str], ...]  # (format, what it is) of the task command's --output; text first
    options: tuple[Option, ...] = ()

    def read(self, source, **read_keywords) -> Any:
        """A path (or an already-read input) -> the read input (with a ``.path``)."""
        raise NotImplementedError

    def doc_names(self, read) -> list[str]:
        """The document names of a read input (by default its ``doc_names``)."""
        return list(read.doc_names)

    def score(self, gold, system, **keywords) -> Any:
        """(gold, system, the score keywords) -> a result (a :class:`fastscore.result.Result`)."""
        raise NotImplementedError

    def report(self, result, fmt: str, per_doc: bool = False, **report_keywords) -> str:
        """The text of output format ``fmt`` (one of ``outputs``)."""
        raise NotImplementedError

    # ---- optional
    api_doc: str = ""  # `fastscore.score_NAME`'s help after the description: its inputs, what it returns
    # `TASK example example`: a method (the command's keywords) -> the key, the response and the keywords they are
    # scored with
    bundled_example: Callable[[dict], tuple[str, str, dict]] | None = None
    # how the task command's help names its two inputs (lower case: the API's first two parameters)
    input_names: tuple[str, str] = ("GOLD", "SYSTEM")
    corpus: Corpus | None = None  # corpora as shards and batches (None: one pair of inputs only)
    reads_patterns: bool = False  # without a corpus, its score reads folders and glob patterns of files itself
    pairing: Pairing = Pairing()  # how its gold and system documents pair (declared in the task's package)
    # the formats of `--output FORMAT FILE`: report gets file=FILE (e.g. an HTML page) and writes it
    output_file: tuple[str, ...] = ()
    metric_names: tuple[str, ...] = ()  # metrics only this task has: `compare --metric NAME` picks it without --task
    # a method (the score options) -> every metric `compare/sweep --metric` takes, known before any input is read
    # (None: an unknown metric is found on the first input scored)
    metric_choices: Callable[[dict], tuple[str, ...]] | None = None
    interval_free: tuple[str, ...] = ()  # outputs (official layouts) with no place for bootstrap intervals
    # outputs that show the read inputs (a result scored in parts keeps them only for these: Result.without_inputs)
    inputs_shown: tuple[str, ...] = ()
    converter: Converter | None = None  # its part of `fastscore convert`
    # (a format of fastscore.formats.files.FORMATS, the options that read it, e.g. "--format naf"): a file of that
    # format given to another command is refused naming this one
    reads: tuple[tuple[str, str], ...] = ()
    # formats it reads as well, for which other commands' messages name the tasks that declare them in `reads`
    # (explain reads coreference files, whose scorer is coref): its own messages on a wrong --format say which fits
    also_reads: tuple[tuple[str, str], ...] = ()
    # score keywords that `compare` and `sweep` also give its `read` (how an input is read depends on them)
    read_keywords: tuple[str, ...] = ()

    def in_scope(self, *scopes: str) -> list[Option]:
        return [o for o in self.options if o.scope in scopes]

    def check_keywords(self, keywords: Iterable[str], *scopes: str, also: Iterable[str] = ()) -> None:
        """A clear error (a TypeError too, as Python's) for keywords that are not options of this task in these
        scopes, naming the closest of them or of ``also`` (the calling function's own keywords)."""
        known = {o.keyword for o in self.in_scope(*scopes)}
        unknown = [k for k in keywords if k not in known]
        if unknown:
            hint = self.flag_hint(unknown[0], *scopes) or keyword_hint(unknown[0], known | set(also), "its options")
            raise UnknownKeyword(f"{', '.join(map(repr, unknown))}: not an option of task {self.name!r} here{hint}")

    def flag_hint(self, word: str, *scopes: str) -> str:
        """``: did you mean "evaluation_method" (the keyword of --method)?`` where ``word`` is the name of a flag
        whose keyword is another word, else ``""``."""
        flag = f"--{word.replace('_', '-')}"
        owner = next((o for o in self.in_scope(*scopes) if flag in o.flags and o.keyword != word), None)
        return f': did you mean "{owner.keyword}" (the keyword of {flag})?' if owner else ""

    def defaults(self, *scopes: str) -> dict[str, Any]:
        return {o.keyword: o.default for o in self.in_scope(*scopes)}

    def check_output(self, fmt: str, intervals: bool) -> None:
        """A clear error for intervals asked of a layout that has no place for them (before any scoring)."""
        if intervals and fmt in self.interval_free:
            others = [f for f, _ in self.outputs if f not in self.interval_free]
            raise UsageError(f"--output {fmt} ({dict(self.outputs)[fmt]}) has no place for intervals: use "
                             f"--bootstrap with --output {', '.join(others[:-1])} or {others[-1]}")

    def render(self, result, fmt: str, per_doc: bool = False, **report_keywords) -> str:
        """The task's report of a result, in output format ``fmt``."""
        self.check_output(fmt, getattr(result, "bootstrap", None) is not None)
        return self.report(result, fmt, per_doc, **report_keywords)
