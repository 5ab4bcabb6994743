"""The ``fastscore`` command.  It only parses arguments and calls the API.

Exit codes: 0 scored, 1 invalid input, 2 bad usage.  ``--help`` and
``--version`` do not import numba.
"""
from __future__ import annotations

import argparse
import errno
import os
import re
import sys
import warnings
from contextlib import contextmanager

from ._version import __version__
from .errors import (FastscoreError, FastscoreWarning, InputError, InputNotFound, OtherFormatError, OutputError,
                     UsageError, out_of_memory)
from .messages import LINE, did_you_mean, shown
from .task import Task
from .tasks import DEFAULT_TASK, TASKS

def _stats_examples(command: str) -> str:
    """compare's or sweep's examples, one per task, made from its declarations (its inputs' first extension, the
    metric it ranks by); the default task's also shows the generic options."""
    lines = []
    for t in TASKS.values():
        ext = t.extensions[0] if t.extensions else ""
        task = "" if t.name == DEFAULT_TASK else f" --task {t.name}"
        if command == "compare":
            more = " --test permutation --output latex" if not task else ""
            lines.append(f"fastscore compare gold{ext} base{ext} A{ext} B{ext}{task} --metric {t.default_metric}{more}")
        else:
            lines.append(f"fastscore sweep gold{ext} outputs/{task}   # every *{ext} in the folder")
            if not task:
                lines.append(f"fastscore sweep gold{ext} 'runs/*/dev{ext}' --bootstrap 1000 --output markdown")
    return "examples:\n" + "".join(f"  {line}\n" for line in lines)


CONVERT_EXAMPLE = """\
examples:
  fastscore convert key.conllu key.jsonl --to jsonl                  # losses reported on stderr
  fastscore convert system.jsonl system.conllu --to conllu --template key.conllu   # aligned with the key
  fastscore convert key.conll - --to conllu | less
"""

STATISTICS_DEFAULTS = {"ci": 0.95, "ci_method": "percentile", "seed": 12345}


class _Parser(argparse.ArgumentParser):
    """Every parser of the command (subcommands included): no abbreviated option is taken for a whole one
    (``--boot`` is not ``--bootstrap``), and a value not among the choices (a command, ``--task``...) is
    answered with the closest one."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)

    def error(self, message: str):
        m = re.search(r"invalid choice: '([^']*)' \(choose from (.*)\)$", message)
        if m:
            choices = [c.strip().strip("'") for c in m.group(2).split(",")]  # quoted or not (Python 3.12.8+)
            flags = re.match(r"argument ([^:]+): ", message)
            owner = _task_with_choice(flags.group(1).split("/") if flags else [], m.group(1))
            message += (f": {flags.group(1).split('/')[-1]} {m.group(1)} is the {owner} task's (fastscore {owner}, "
                        f"or compare|sweep --task {owner})" if owner else did_you_mean(m.group(1), choices))
        self.exit(2, f"{self.short_usage()}\n{self.prog}: error: {message}\n")

    def short_usage(self) -> str:
        """The usage line before an error: the whole one where it is short, else the arguments and where the
        options are listed (a task's command has dozens: the error would be lost below them)."""
        usage = self.format_usage().rstrip()
        if usage.count("\n") < 3:
            return usage
        formatter = self._get_formatter()
        arguments = [formatter._format_args(a, a.dest.upper()) for a in self._get_positional_actions()]
        return f"usage: {self.prog} [options] {' '.join(arguments)}   ({self.prog} --help lists the options)"


def _task_with_choice(flags: list[str], value: str) -> str | None:
    """The one task whose option of these ``flags`` takes ``value`` (``--preset kbp2016``: nugget), if any."""
    owners = [t.name for t in TASKS.values()
              if any(set(flags) & set(o.flags) and value in map(str, o.choices or ()) for o in t.options)]
    return owners[0] if len(owners) == 1 else None


def _statistics_options(p: argparse.ArgumentParser, resamples_flag: str, default: int) -> None:
    """The resampling options; where resampling is off by default (``--bootstrap 0``), the others default to
    None so that giving one without ``--bootstrap N`` can be refused (see ``_statistics``)."""
    optional = default == 0
    given = (lambda name: None) if optional else STATISTICS_DEFAULTS.get
    p.add_argument(resamples_flag, type=int, default=default, metavar="N",
                   help=f"bootstrap resamples (default {default}: {'no intervals' if optional else 'of the test and of every interval'})")
    p.add_argument("--ci", type=float, default=given("ci"), metavar="LEVEL", help="confidence level (default 0.95)")
    p.add_argument("--ci-method", choices=("percentile", "bca"), default=given("ci_method"),
                   help="interval method (default percentile)")
    p.add_argument("--seed", type=int, default=given("seed"), help="random seed (default 12345)")


def _statistics(args, resamples: int) -> dict:
    """level, seed and method of the resampling; refused when given without resampling (they would do nothing)."""
    given = [f"--{k.replace('_', '-')}" for k in STATISTICS_DEFAULTS if getattr(args, k) is not None]
    if given and not resamples and args.command != "compare":  # compare always resamples (0 is refused)
        raise UsageError(f"{', '.join(given)} {'has' if len(given) == 1 else 'have'} no effect without "
                         "--bootstrap N (the number of resamples)")
    values = {k: STATISTICS_DEFAULTS[k] if getattr(args, k) is None else getattr(args, k) for k in STATISTICS_DEFAULTS}
    return {"level": values["ci"], "seed": values["seed"], "method": values["ci_method"]}


def _task_group(p: argparse.ArgumentParser, task: Task, *scopes: str) -> None:
    """The task's own options, as declared by the task."""
    g = p.add_argument_group(f"{task.name} options")
    for option in task.in_scope(*scopes):
        option.add_to(g)


def _task_command(sub, task: Task) -> argparse.ArgumentParser:
    c = sub.add_parser(task.name, help=task.summary, description=task.description, epilog=task.example,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    gold, system = task.input_names
    c.add_argument("gold", metavar=gold, help=task.gold_help)
    c.add_argument("system", metavar=system, help=task.system_help)
    _task_group(c, task, "score", "command", "report")
    c.add_argument("--per-doc", action="store_true", help="also report every document")
    # a format, and for some formats the file to write: --output html FILE
    formats = {"metavar": "FORMAT [FILE]"} if task.output_file else {"choices": [name for name, _ in task.outputs]}
    c.add_argument("--output", "-o", default=task.outputs[0][0],
                   help=", ".join(f"{name} ({what})" for name, what in task.outputs), **formats)
    _statistics_options(c, "--bootstrap", 0)
    if task.corpus is not None:
        _corpus_options(c, task, *task.input_names)
    return c


def _corpus_options(p: argparse.ArgumentParser, task: Task, gold: str = "GOLD", systems: str = "SYSTEM",
                    own: bool = True) -> None:
    """Corpora as shards (folders, glob patterns) and large files in batches: how the work is spread (the options
    declared in fastscore.shards; ``own``: the task's own command, which also scores by file)."""
    from dataclasses import replace

    from .shards import CORPUS_OPTIONS

    g = p.add_argument_group(f"large corpora ({gold} and {systems} may be folders or quoted glob patterns of shards)")
    for option in CORPUS_OPTIONS:
        if option.keyword == "batch_size" and task.corpus.batches is None:  # the tasks whose files can be cut
            continue
        if own or option.scope != "command":
            replace(option, help=option.help.replace("{formats}", task.corpus.batch_formats or "")).add_to(g)
    if own:
        g.add_argument("--by-file", action="store_true", help="each file pair (same name) is a dataset scored on "
                       "its own: one row per dataset and the macro average of each F1 over datasets (CRAC's "
                       "ranking; compare and sweep: --metric conll-macro)")
    g.add_argument("--quiet", "-q", action="store_true", help="no progress bar on stderr")


def _corpus_keywords(args, task: Task, keep_inputs: bool = False, progress: bool = True) -> dict:
    """The corpus options given, as the API's keywords (none for a task without corpora); a progress bar on a
    terminal unless ``--quiet``; ``keep_inputs``: the report asked shows the read inputs (``Task.inputs_shown``)."""
    from .shards import CORPUS_OPTIONS

    if task.corpus is None:
        return {}
    given = {o.keyword: getattr(args, o.keyword) for o in CORPUS_OPTIONS if hasattr(args, o.keyword)}
    bar = progress and not args.quiet and sys.stderr.isatty()
    return {**given, "keep_inputs": keep_inputs, **({"progress": ProgressBar()} if bar else {})}


class ProgressBar:
    """``reading 12/32 shards  3.1/s  ETA 6 s`` on one line of stderr (a terminal only)."""

    def __init__(self, stream=None):
        self.stream = stream or sys.stderr
        self.started: dict[str, float] = {}

    def __call__(self, what: str, done: int, total: int) -> None:
        import time

        now = time.monotonic()
        start = self.started.setdefault(what, now)
        rate = done / (now - start) if now > start else 0.0
        eta = f"  ETA {(total - done) / rate:.0f} s" if rate and done < total else ""
        end = "\n" if done == total else ""
        print(f"\r{what} {done}/{total} parts  {rate:.1f}/s{eta}   ", end=end, file=self.stream, flush=True)


def _stats_command(sub, name: str, task: Task, help: str, description: str, example: str) -> argparse.ArgumentParser:
    """`compare` or `sweep` for one task: the generic options, then the task's scoring options."""
    others = [t for t in TASKS if t != task.name]
    epilog = example + (f"\nthe options of another task: fastscore {name} --task {others[0]} --help\n" if others else "")
    c = sub.add_parser(name, help=help, description=description, epilog=epilog,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    c.add_argument("key", metavar="GOLD", help=f"{task.gold_help.split(' (')[0]}")
    c.add_argument("--task", choices=list(TASKS), default=DEFAULT_TASK,
                   help=f"what is scored: {'; '.join(f'{t.name} ({t.summary})' for t in TASKS.values())} "
                        f"(default {DEFAULT_TASK})")
    return c


class _Version(argparse.Action):
    """``--version``: the version, and whether the kernels compiled at installation are in use (checked only
    when asked: it loads them)."""

    def __init__(self, option_strings, dest, **kwargs):
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kwargs)

    def __call__(self, parser, namespace, values, option_string=None):
        from .first_run import kernels_status

        print(f"fastscore {__version__}\n{kernels_status()}", flush=True)
        parser.exit()


def _parser(stats_task: Task) -> tuple[argparse.ArgumentParser, dict[str, argparse.ArgumentParser]]:
    """The command line, with ``compare`` and ``sweep`` offering ``stats_task``'s options."""
    tasks = "; ".join(f"{t.name}: {t.summary}" for t in TASKS.values())
    p = _Parser(
        prog="fastscore",
        description=f"Exact, fast scorers with the numbers of the official scorers ({tasks}), "
                    "with bootstrap intervals, significance tests and sweeps.",
    )
    p.add_argument("--version", action=_Version, help="show the version and which kernels run, and exit")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    commands = {t.name: _task_command(sub, t) for t in TASKS.values()}

    m = _stats_command(sub, "compare", stats_task, "paired significance tests of systems against a baseline",
                       "Compare systems with a baseline on the same gold: scores with intervals, differences "
                       "with intervals, p-values (paired bootstrap or approximate randomization) and "
                       "Holm-Bonferroni adjusted p-values.", _stats_examples("compare"))
    m.add_argument("baseline", metavar="BASELINE", help="baseline system output")
    m.add_argument("systems", metavar="SYSTEM", nargs="+", help="system outputs to compare with the baseline")
    m.add_argument("--metric", metavar="METRIC", help=f"metric whose F1 is compared: {stats_task.metric_help}"
                   + _MACRO_HELP * (stats_task.corpus is not None))
    m.add_argument("--test", choices=("bootstrap", "permutation"), default="bootstrap",
                   help="paired bootstrap (default) or approximate randomization")
    _statistics_options(m, "--resamples", 10000)
    m.add_argument("--output", "-o", choices=("text", "json", "markdown", "latex"), default="text",
                   help="text (default), json, markdown, latex")
    m.add_argument("--plot", metavar="FILE.png", help="draw the bootstrap distributions of the differences")

    w = _stats_command(sub, "sweep", stats_task, "score many system outputs against one gold",
                       "Score many system outputs against one gold (read once), best first.", _stats_examples("sweep"))
    ext = " or ".join(f"*{e}" for e in stats_task.extensions)
    w.add_argument("systems", metavar="SYSTEM", nargs="+",
                   help=f"system outputs: files, folders (every {ext} file) or glob patterns")
    w.add_argument("--metric", metavar="METRIC", help=f"ranking metric: {stats_task.metric_help}"
                   + _MACRO_HELP * (stats_task.corpus is not None))
    _statistics_options(w, "--bootstrap", 0)
    w.add_argument("--output", "-o", choices=("text", "csv", "json", "markdown", "latex"), default="text",
                   help="text (default), csv, json, markdown, latex")
    for name, c, systems in (("compare", m, "the systems"), ("sweep", w, "each SYSTEM")):
        _task_group(c, stats_task, "score")
        if stats_task.corpus is not None:
            _corpus_options(c, stats_task, "GOLD", systems, own=False)
        commands[name] = c

    commands["convert"] = _convert_command(sub)
    return p, commands


_MACRO_HELP = ("; METRIC-macro (e.g. conll-macro): the mean of its F1 over datasets, each file pair of the folders "
               "a dataset (the CRAC ranking); METRIC@DATASET: one of those datasets")


def _stats_task(argv: list[str]) -> Task:
    """The task `compare` or `sweep` is asked for (its options are then offered); the default otherwise."""
    if not argv or argv[0] not in ("compare", "sweep"):
        return TASKS[DEFAULT_TASK]
    pre = _Parser(add_help=False)
    pre.add_argument("--task")
    pre.add_argument("--metric")
    known, _ = pre.parse_known_args(argv[1:])
    if known.task is None:  # a metric only one task has (an error count of explain) names that task
        owners = [t for t in TASKS.values() if known.metric in t.metric_names]
        return owners[0] if len(owners) == 1 else TASKS[DEFAULT_TASK]
    return TASKS.get(known.task, TASKS[DEFAULT_TASK])  # an unknown name: the full parser says so


def _refuse_unknown(parser: argparse.ArgumentParser, extra: list[str], command: str, task: Task) -> None:
    """Exit 2 naming the arguments; an option of another task says which task has it."""
    for arg in extra:
        flag = arg.split("=", 1)[0]
        owners = [t.name for t in TASKS.values() if t is not task
                  and any(flag in o.flags for o in t.options)]
        if owners:
            where = (f"fastscore {owners[0]}" if command == task.name
                     else f"fastscore {command} --task {owners[0]}")
            parser.error(f"{flag} is an option of {where}, not of {command if command == task.name else f'{command} --task {task.name}'}")
    flags = [a.split("=", 1)[0] for a in extra if a.startswith("-") and a != "-"]
    hint = did_you_mean(flags[0], parser._option_string_actions) if flags else ""
    parser.error(f"unrecognized arguments: {' '.join(map(shown, extra))}{hint}")


def main(argv: list[str] | None = None, own_process: bool = False) -> int:
    """The command line.  ``own_process`` (the console entry point): the process is this command's alone,
    so it may choose how the kernels run (fastscore.first_run); a caller's process is left as it is.

    The one place where a run ends: Ctrl-C -> ``fastscore: interrupted``, 130; standard output closed, or
    its reader gone (``| head``) -> the rest of the output is dropped, quietly, 0; an error -> one line on
    stderr, 1 (bad usage: 2)."""
    _ensure_streams()
    try:
        return _main(sys.argv[1:] if argv is None else list(argv), own_process)
    except KeyboardInterrupt:
        _error_line("fastscore: interrupted")
        return 130
    except BrokenPipeError:
        _drop_output()
        return 0
    except FastscoreError as exc:
        _error_line(f"fastscore: error: {exc}{_example_hint(exc)}")
        return 2 if isinstance(exc, UsageError) else 1
    except MemoryError:  # outside a command's run (_main names its files)
        _error_line(f"fastscore: error: {out_of_memory([])}")
        return 1
    except OSError as exc:  # one the code did not name (OutputError names what it writes)
        _error_line(f"fastscore: error: {_os_error(exc)}")
        return 1


def _example_hint(exc: FastscoreError) -> str:
    """Where ``example`` named no file: what it stands for, and where."""
    if isinstance(exc, InputNotFound) and exc.path == "example":
        return (" (example names the bundled example only as both inputs of a task's command: fastscore TASK example "
                "example)")
    return ""


def _os_error(exc: OSError) -> str:
    """An OSError the code did not name: the paths it names, else the working folder when it is gone (Python
    then fails to resolve any relative path, numba too)."""
    names = [shown(n) for n in (exc.filename, exc.filename2) if n is not None]
    if not names:
        gone = _working_folder_gone()
        if gone:
            return gone
    return "".join(f"{n}: " for n in names) + (exc.strerror or str(exc))


def _working_folder_gone() -> str | None:
    """What to say when the working folder no longer exists (removed while a shell was in it), else None."""
    try:
        os.getcwd()
        return None
    except FileNotFoundError:
        pass
    try:  # Linux names the folder it was, with " (deleted)"
        was = os.readlink("/proc/self/cwd").removesuffix(" (deleted)")
    except OSError:
        was = None
    folder = "the working folder" + (f" {shown(was)}" if was else "")
    return f"{folder} no longer exists (it was removed or renamed): cd to an existing folder and run again"


def _main(argv: list[str], own_process: bool) -> int:
    stats_task = _stats_task(argv)
    parser, commands = _parser(stats_task)
    argv, output_file = _take_output_file(argv, commands)
    args, extra = parser.parse_known_args(argv)
    if args.command is None:
        parser.print_help()
        return 2
    task = TASKS[args.command] if args.command in TASKS else stats_task
    gone = _working_folder_gone()
    if gone:  # relative paths resolve to nothing and compiling the kernels fails without a path: say why first
        raise InputError(gone)
    if task.output_file and args.command == task.name:
        args.output = [args.output] + ([output_file] if output_file is not None else [])
    if extra:
        _refuse_unknown(commands[args.command], extra, args.command, task)
    _check_before_reading(args, task, output_file)
    from .outputs import refuse_outputs_on_inputs

    refuse_outputs_on_inputs(*_paths(args, task), standard_output=True)  # before anything is read
    if own_process:  # a note of compiling kernels goes to stderr, not into a caller's warnings
        from . import first_run

        first_run.ANNOUNCE_ON_STDERR = True
        first_run.setting()  # FASTSCORE_JIT checked before anything is read
    try:
        with _warnings_on_stderr():
            if args.command in ("compare", "sweep"):
                return _stats(args, task)
            if args.command == "convert":
                return _convert(args)
            return _score(args, task)
    except MemoryError:  # outputs are written whole or not at all (fastscore.outputs): none is left half-written
        doing = "converting" if args.command == "convert" else "reading or scoring"
        raise out_of_memory(_inputs(args), doing, hasattr(args, "jobs")) from None


def _paths(args, task: Task) -> tuple[list, list, list]:
    """The paths a command reads (files, folders, glob patterns), the files it writes and the folders it writes
    files into (named from the inputs): its positional arguments, and the options declared with a ``path``."""
    if args.command == "convert":
        options = [o for c in _converters() for o in c.options]
        inputs, outputs = [args.input], [args.output]
    elif args.command in ("compare", "sweep"):
        options = task.in_scope("score")
        inputs, outputs = [args.key, getattr(args, "baseline", None), *args.systems], [getattr(args, "plot", None)]
    else:
        options = task.options
        inputs, outputs = [args.gold, args.system], []
        if task.output_file and len(args.output) > 1:  # --output FORMAT FILE
            outputs.append(args.output[1])
    folders = []
    for o in options:
        value = getattr(args, o.keyword, None)
        if not o.path or value is None:
            continue
        values = value if isinstance(value, list) else [value]
        {"input": inputs, "output": outputs, "folder": folders}[o.path].extend(values)
    return inputs, outputs, folders


def _inputs(args) -> list[str]:
    """The files a command reads (named when memory runs out)."""
    given = [getattr(args, name, None) for name in ("input", "template", "gold", "system", "key", "baseline")]
    return [str(x) for x in given + list(getattr(args, "systems", None) or []) if x is not None]


def _ensure_streams() -> None:
    """A closed standard stream (``>&-``) becomes the null device: output with nowhere to go is dropped (the
    run still says what is wrong on stderr, if that is open), and no file opened later takes its number."""
    for fd, name in ((0, "stdin"), (1, "stdout"), (2, "stderr")):
        try:
            os.fstat(fd)
        except OSError:
            null = os.open(os.devnull, os.O_RDWR)
            if null != fd:
                os.dup2(null, fd)
                os.close(null)
        if getattr(sys, name) is None:
            setattr(sys, name, open(fd, "r" if fd == 0 else "w", closefd=False))


def _drop_output() -> None:
    """Standard output's reader went away: what is still buffered goes to the null device, not to an error."""
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, sys.stdout.fileno())
    except (OSError, ValueError):  # not a real file (a test's capture)
        pass
    finally:
        os.close(null)


def _emit(text: str) -> None:
    """The report on standard output, flushed: a full device is one line naming it (a reader gone away,
    BrokenPipeError, is left to main)."""
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:
        raise
    except OSError as exc:
        from .outputs import cannot_write

        raise cannot_write("-", exc) from None


def _error_line(text: str) -> None:
    """A message on stderr as one line: a value quoted without ``shown`` is escaped (and cut) here."""
    try:
        print(shown(text, LINE), file=sys.stderr)
        sys.stderr.flush()
    except (OSError, ValueError):  # stderr gone too: the exit status says it
        pass


@contextmanager
def _warnings_on_stderr():
    """The API's warnings (FastscoreWarning) as ``fastscore: warning: ...`` lines on stderr, each once."""
    from .api import flags_kept

    with warnings.catch_warnings(record=True) as caught, flags_kept():
        warnings.simplefilter("always", FastscoreWarning)
        try:
            yield
        finally:
            for w in caught:
                if issubclass(w.category, FastscoreWarning):
                    print(shown(f"fastscore: warning: {w.message}", LINE), file=sys.stderr)
                else:
                    print(warnings.formatwarning(w.message, w.category, w.filename, w.lineno), end="",
                          file=sys.stderr)


def _keywords(args, task: Task, *scopes: str) -> dict:
    return {o.keyword: getattr(args, o.keyword) for o in task.in_scope(*scopes)}


def _score(args, task: Task) -> int:
    """A task's own command: score, warn, bootstrap, report."""
    fmt, file = _output_file(args.output, task) if task.output_file else (args.output, None)
    task.check_output(fmt, bool(args.bootstrap))  # before the scoring, not after it
    gold, system = args.gold, args.system
    keywords = _keywords(args, task, "score", "command")
    if task.bundled_example is not None and gold == system == "example":
        gold, system, example_keywords = task.bundled_example(keywords)
        keywords.update(example_keywords)
    from .api import score

    stats = _statistics(args, args.bootstrap)
    corpus = _corpus_keywords(args, task, keep_inputs=fmt in task.inputs_shown)
    if getattr(args, "by_file", False):
        return _score_by_file(args, task, fmt, {**corpus, **keywords}, stats)
    try:
        result = score(gold, system, task=task.name, **corpus, **keywords)
    except OtherFormatError as exc:  # the remedy as this command's user gives it
        from .formats.files import readers_hint

        raise exc.with_hint(readers_hint(exc.format, running=task.name)) from None
    if args.bootstrap:
        from .api import bootstrap

        bootstrap(result, args.bootstrap, **stats)
    _emit(task.render(result, fmt, args.per_doc, **_keywords(args, task, "report"), **({"file": file} if file else {})))
    return 0


def _score_by_file(args, task: Task, fmt: str, keywords: dict, stats: dict) -> int:
    """``--by-file``: each file pair of the two folders a dataset, and the macro averages (fastscore.datasets)."""
    from . import datasets
    from .api import bootstrap, score_by_file

    if fmt not in datasets.OUTPUTS:
        raise UsageError(f"--output {fmt}: --by-file prints {', '.join(datasets.OUTPUTS)}")
    result = score_by_file(args.gold, args.system, task=task.name, **keywords)
    if args.bootstrap:
        bootstrap(result, args.bootstrap, **stats)
    _emit(datasets.render(result, fmt, args.per_doc))
    return 0


def _output_file(values: list[str], task: Task) -> tuple[str, str | None]:
    """``--output FORMAT [FILE]`` of a task that writes files (``Task.output_file``: the formats that take one)."""
    formats = [name for name, _ in task.outputs]
    if values[0] not in formats or len(values) > 2:
        raise UsageError(f"--output {' '.join(values)}: give a format ({', '.join(formats)}) and at most a file")
    fmt, file = values[0], (values[1] if len(values) == 2 else None)
    if file is not None and fmt not in task.output_file:
        raise UsageError(f"--output {fmt} writes to standard output: only {' or '.join(task.output_file)} "
                         "takes a FILE")
    if file is None and fmt in task.output_file and sys.stdout.isatty():  # a page of markup, not for reading there
        raise UsageError(f"--output {fmt} without FILE writes the page to standard output, here a terminal: give a "
                         f"FILE (--output {fmt} page.{fmt}) or redirect standard output")
    return fmt, file


def _take_output_file(argv: list[str], commands: dict[str, argparse.ArgumentParser]) -> tuple[list[str], str | None]:
    """``--output FORMAT FILE`` of a task that writes files: FILE taken out of the arguments, but only when the
    word after FORMAT is not needed as an input (the command has one word more than its positionals take) and
    ends a run of words (``--output html KEY RESPONSE PAGE`` does not write on KEY), so that ``--output json KEY
    RESPONSE`` keeps KEY."""
    if not argv or argv[0] not in TASKS or not TASKS[argv[0]].output_file:
        return argv, None
    parser = commands[argv[0]]
    takes_value = {flag for flag, action in parser._option_string_actions.items() if action.nargs != 0}
    positionals = sum(1 for action in parser._actions if not action.option_strings)
    words: list[int] = []  # positions of the words that are neither an option nor an option's value
    file_at = None  # the position after --output's FORMAT
    i = 1
    while i < len(argv):
        arg = argv[i]
        if arg == "--":
            words += range(i + 1, len(argv))
            break
        if not arg.startswith("-") or arg == "-":
            words.append(i)
        elif arg in ("--output", "-o"):
            file_at = i + 2
            i += 1
        elif arg.startswith("--output=") or arg.startswith("-o") and not arg.startswith("--"):
            file_at = i + 1  # --output=html, -ohtml
        elif arg in takes_value:
            i += 1
        i += 1
    if file_at in words and file_at + 1 not in words and len(words) == positionals + 1:
        return argv[:file_at] + argv[file_at + 1:], argv[file_at]
    return argv, None


def _check_before_reading(args, task: Task, output_file: str | None) -> None:
    """What can be found wrong without the inputs, found before them: the files to write (their folder exists
    and can be written; not a folder), the optional packages the options need, the resampling's numbers, the
    metric's name."""
    from importlib.util import find_spec

    converted = args.output if args.command == "convert" and not os.path.isdir(args.input) else None  # else a folder
    for path in (output_file, getattr(args, "plot", None), converted):
        if path is not None:
            check_writable(path)
    if getattr(args, "plot", None) and find_spec("matplotlib") is None:
        raise UsageError("--plot needs matplotlib: pip install 'fastscore-ie[plot]'")
    resamples = args.resamples if args.command == "compare" else getattr(args, "bootstrap", 0)
    if args.command == "compare" or resamples:  # compare always resamples; --bootstrap 0: no resampling
        from .stats.intervals import check_level, check_method
        from .stats.resample import check_count

        check_count(resamples)
        statistics = _statistics(args, resamples)
        check_level(statistics["level"])
        check_method(statistics["method"])
    metric = getattr(args, "metric", None)
    if metric is not None and args.command in ("compare", "sweep") and task.metric_choices is not None:
        choices = task.metric_choices(_keywords(args, task, "score"))
        named = metric
        if task.corpus is not None:  # by file: the macro average over datasets, or one dataset (fastscore.datasets)
            from .datasets import base_metric, by_file

            choices = (*choices, *(m + "-macro" for m in choices))
            named = base_metric(metric) if by_file(metric) else metric
        if named not in choices:
            raise UsageError(f"--metric {metric}: not a metric of task {task.name}{did_you_mean(metric, choices)}; "
                             f"choose from {', '.join(choices)}")


def check_writable(path: str) -> None:
    """An OutputError, worded as ``outputs.output_path`` words it, when ``path`` cannot be written: a folder, or
    in a missing or read-only folder (``-``, standard output, and devices are written into: fine)."""
    if path == "-":
        return
    real = os.path.realpath(path) if os.path.islink(path) else path
    if os.path.isdir(real):
        raise OutputError(f"{path}: cannot write: is a folder (give the file to write)")
    if os.path.exists(real) and not os.path.isfile(real):
        return
    folder = os.path.dirname(os.path.abspath(real))
    if not os.path.isdir(folder):
        raise OutputError(f"{path}: cannot write: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK | os.X_OK):
        read_only = os.statvfs(folder).f_flag & os.ST_RDONLY
        reason = os.strerror(errno.EROFS if read_only else errno.EACCES)  # as the write itself would say
        raise OutputError(f"{path}: cannot write: the folder {folder} is not writable: {reason}")


def _converters() -> list:
    return [t.converter for t in TASKS.values() if t.converter is not None]


def _convert_command(sub) -> argparse.ArgumentParser:
    """``fastscore convert``: every task's converter (its targets under ``--to``, its options in a group)."""
    converters = _converters()
    what = "; ".join(c.summary for c in converters)
    v = sub.add_parser("convert", help="convert files between formats", description=f"Convert {what}. What the "
                       "target format cannot express is reported on stderr, with counts; the written file is read "
                       "back and checked.", epilog=CONVERT_EXAMPLE, formatter_class=argparse.RawDescriptionHelpFormatter)
    v.add_argument("input", metavar="INPUT", help="the file (or folder, where the target takes one) to convert")
    v.add_argument("output", metavar="OUTPUT", help='the file to write ("-": standard output)')
    v.add_argument("--to", required=True, choices=[t for c in converters for t in c.targets],
                   help="the target format: " + "; ".join(f"{', '.join(c.targets)} ({c.summary})" for c in converters))
    for c in converters:
        group = v.add_argument_group(f"with --to {'|'.join(c.targets)}")
        for option in c.options:
            option.add_to(group)
    return v


def _convert(args) -> int:
    """Convert with the converter that writes ``--to``; an option of another converter is refused."""
    converters = _converters()
    converter = next(c for c in converters if args.to in c.targets)
    for other in (c for c in converters if c is not converter):
        given = [o.flags[0] for o in other.options if getattr(args, o.keyword) != o.default]
        if given:
            raise UsageError(f"{', '.join(given)} appl{'ies' if len(given) == 1 else 'y'} to --to "
                             f"{'|'.join(other.targets)}, not to --to {args.to}")
    keywords = {o.keyword: getattr(args, o.keyword) for o in converter.options}
    for message in converter.convert(args.input, args.output, args.to, **keywords):
        warnings.warn(message, FastscoreWarning, stacklevel=2)
    return 0


def _stats(args, task: Task) -> int:
    """compare or sweep; a file of another task's format names the --task that reads it (of the task's own
    formats, read with a --format that does not fit: the options that read it)."""
    from .formats.files import readers_hint

    try:
        return _compare(args, task) if args.command == "compare" else _sweep(args, task)
    except OtherFormatError as exc:
        raise exc.with_hint(readers_hint(exc.format, task_option=True, running=task.name)) from None


def _compare(args, task: Task) -> int:
    from .api import compare
    from .report import stats_tables

    result = compare(args.key, args.baseline, args.systems, args.metric, task=task.name, test=args.test,
                     resamples=args.resamples, **_statistics(args, args.resamples), **_corpus_keywords(args, task),
                     **_keywords(args, task, "score"))
    if args.plot:
        from .report.plot import plot_deltas

        print(f"fastscore: plot written to {shown(plot_deltas(result, args.plot), LINE)}", file=sys.stderr)
    _emit(stats_tables.comparison(result, args.output))
    return 0


def expand_systems(items: list[str], extensions: tuple[str, ...] = (".conll",), task: Task | None = None,
                   key: str | None = None) -> list[str]:
    """Files as given; folders -> their files with one of the extensions (sorted), or, for a ``task`` that
    reads corpora of shards, a folder of none but with subfolders of shards -> those subfolders (each a
    system), and a folder of the files of a gold folder (``key``) -> itself (one system); glob patterns ->
    their matches (sorted).  A file named twice (by name and through its folder) is listed once; the key
    itself, reached through a folder or a pattern, is left out with a warning (named as a system, it is kept:
    the gold against itself is a check some users want in the table)."""
    import glob

    from .planner import is_pattern

    out: list[str] = []
    named: set[int] = set()  # positions in out of the systems given by name
    for item in items:
        if os.path.isdir(item) and task is not None and key is not None and _mirrors(item, key, task):
            named.add(len(out))
            out.append(item)
        elif os.path.isdir(item):
            found = sorted(f for ext in extensions for f in glob.glob(os.path.join(glob.escape(item), "*" + ext)))
            _refuse_no_files(found)
            if not found and task is not None:
                from .planner import is_corpus

                found = sorted(d for d in glob.glob(os.path.join(glob.escape(item), "*")) if is_corpus(d, task))
            if not found:
                raise UsageError(f"{item}: folder has no {' or '.join('*' + e for e in extensions)} file"
                                 + _other_files_hint(item, task))
            out += found
        elif is_pattern(item):
            found = sorted(glob.glob(item))
            if not found:
                raise InputNotFound(item, "the pattern matches no file")
            _refuse_no_files([f for f in found if not os.path.isdir(f)])  # links to nothing (folders are systems)
            out += found
        else:
            named.add(len(out))
            out.append(item)
    return _once_without_key(out, named, key)


def _refuse_no_files(found: list[str]) -> None:
    """A system file that is none (a folder named like one, a link to a folder or to nothing): an InputError
    saying what it is, before anything is scored."""
    from .formats.files import not_a_file

    for path in found:
        reason = not_a_file(path)
        if reason is not None:
            raise InputError(f"{shown(path)}: {reason}")


def _mirrors(folder: str, key: str, task: Task) -> bool:
    """Whether a system folder holds files named as the gold folder's: it is one system's output, not a
    folder of systems."""
    from .planner import is_corpus, shard_files

    if not (os.path.isdir(key) and is_corpus(key, task) and is_corpus(folder, task)):
        return False
    names = lambda spec: {os.path.basename(f) for f in shard_files(spec, task)}
    return bool(names(folder) & names(key))


def _once_without_key(systems: list[str], named: set[int], key: str | None) -> list[str]:
    """Each system once (the same file through two names: the first); the key itself, unless named as a system
    (position in ``named``), left out with a warning."""
    key_path = os.path.realpath(key) if key is not None and key != "-" else None
    seen: set[str] = set()
    out: list[str] = []
    keep_key = any(os.path.realpath(systems[i]) == key_path for i in named if systems[i] != "-")
    for system in systems:
        real = os.path.realpath(system) if system != "-" else system
        if real in seen:
            continue
        seen.add(real)
        if real == key_path and not keep_key:
            warnings.warn(f"{system}: the gold itself (found in a folder or a pattern), left out of the systems",
                          FastscoreWarning, stacklevel=2)
        else:
            out.append(system)
    if not out:
        raise UsageError("no system to score: the only one given is the gold itself")
    return out


def _other_files_hint(folder: str, task: Task | None) -> str:
    """What a folder of none of a task's files holds: another task's files -> the ``--task`` that reads them;
    else ``: it has 12 *.v4_gold_conll files: give the pattern 'DIR/*.v4_gold_conll'`` for the commonest ending."""
    from .formats.files import folder_hint, readers_hint

    text, fmt = folder_hint(folder, {f for f, _ in task.reads} if task is not None else ())
    return text + (f": {readers_hint(fmt, task_option=True)}" if fmt is not None else "")


def _sweep(args, task: Task) -> int:
    from .api import sweep
    from .report import stats_tables

    systems = expand_systems(args.systems, task.extensions, task, args.key)
    stats = _statistics(args, args.bootstrap)
    result = sweep(args.key, systems, args.metric, task=task.name, resamples=args.bootstrap, **stats,
                   progress=None if getattr(args, "quiet", False) else _progress("scoring"),
                   **_corpus_keywords(args, task, progress=False),  # one line per system, not per shard
                   **_keywords(args, task, "score"))
    _emit(stats_tables.sweep(result, args.output))
    return 0


def _progress(what: str):
    """A progress callback writing to stderr, or None when stderr is not a terminal."""
    if not sys.stderr.isatty():
        return None

    def report(done: int, total: int) -> None:
        end = "\n" if done == total else ""
        print(f"\r{what} {done}/{total}", end=end, file=sys.stderr, flush=True)

    return report


def run() -> None:
    """Console entry point: ``main``, then exit without tearing the interpreter down.

    After a large run the interpreter would spend a noticeable time (0.4 s on the
    5,000-document nugget benchmark) freeing objects one by one; the output is
    flushed first, and nothing else needs the orderly shutdown.
    """
    # no kernel of fastscore calls BLAS: OpenBLAS's thread pool, started with numpy (one thread a core, each
    # spinning a while), would only take CPU from the workers of a run (0.07 s of CPU on 2 cores)
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    # numba's parallel kernels on a threading layer that survives a fork (TBB, else numba's workqueue), not GNU
    # OpenMP, which ends every child forked after it started: --jobs forks workers once the kernels are loaded
    os.environ.setdefault("NUMBA_THREADING_LAYER", "forksafe")
    code = main(own_process=True)
    try:
        sys.stdout.flush()
    except BrokenPipeError:  # the reader of our output went away (e.g. `| head`): not an error of ours
        _drop_output()
    except KeyboardInterrupt:
        _error_line("fastscore: interrupted")
        code = 130
    except (OSError, ValueError) as exc:  # e.g. the output is a full device
        _error_line(f"fastscore: error: standard output: {getattr(exc, 'strerror', None) or exc}")
        code = code or 1
    try:
        sys.stderr.flush()
    except (OSError, ValueError):
        pass
    os._exit(code)


if __name__ == "__main__":
    run()
