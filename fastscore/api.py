"""The public Python API: ``score_<task>`` for every registered task (made from the task's declaration:
:func:`score_function`), ``score``, ``score_corpus``, ``bootstrap``, ``compare``, ``sweep`` and the readers."""
from __future__ import annotations

import inspect
import os
import re
import textwrap
import warnings
from contextlib import contextmanager
from typing import Callable, Iterator

from .errors import FastscoreError, FastscoreWarning, UnknownKeyword, UsageError, keyword_hint, suggest_keywords
from .formats.table import MentionTable
from .task import Task
from .tasks import DEFAULT_TASK, TASKS, get_task


_FLAGS_KEPT = False  # the command line's own run: its messages name the flags the user typed


@contextmanager
def flags_kept() -> Iterator[None]:
    """While it lasts (the command line's run), warnings name options as flags (``--tokens DIR``), not keywords."""
    global _FLAGS_KEPT
    before, _FLAGS_KEPT = _FLAGS_KEPT, True
    try:
        yield
    finally:
        _FLAGS_KEPT = before


def _warned(result, stacklevel: int = 3, task: Task | None = None):
    """Emit a result's warnings through Python's ``warnings`` module (category FastscoreWarning), attributed to
    the caller of the API function (``stacklevel`` frames up); ``task``: its options named as keywords there
    (unless the command line runs: :func:`flags_kept`)."""
    said = getattr(result, "warnings", None)
    if task is not None and said and not _FLAGS_KEPT:
        said[:] = [as_keywords(message, task) for message in said]
    for message in said or ():
        warnings.warn(message, FastscoreWarning, stacklevel=stacklevel)
    return result


def as_keywords(message: str, task: Task) -> str:
    """A message for the command line told to Python: ``--tokens DIR`` is ``tokens=DIR``, a switch
    ``--char-spans`` is ``char_spans=True``, ``--preset kbp2016`` (one of its choices, or a number)
    ``preset=kbp2016`` (other uses of a flag are left as they are)."""
    for o in task.options:
        for flag in o.flags:
            if not flag.startswith("--"):
                continue
            if o.switch:
                message = re.sub(rf"(?<![\w-]){re.escape(flag)}(?![\w-])", f"{o.keyword}=True", message)
                continue
            values = [re.escape(o.metavar)] if o.metavar else []
            values += [re.escape(str(c)) for c in o.choices or ()]
            values.append(r"-?\d+(?:\.\d+)?")  # a number
            message = re.sub(rf"(?<![\w-]){re.escape(flag)} ({'|'.join(values)})(?![\w-])",
                             lambda m: f"{o.keyword}={m.group(1)}", message)
    return message


def _error_as_keywords(exc: FastscoreError, task: Task) -> None:
    """An error raised to Python names the keywords (``allow_repeated=True``), not the command line's flags
    (unless the command line runs: :func:`flags_kept`); the message is changed in place, its type kept."""
    if _FLAGS_KEPT or not exc.args or not isinstance(exc.args[0], str):
        return
    told = as_keywords(exc.args[0], task)
    if told != exc.args[0]:
        exc.args = (told, *exc.args[1:])
        if isinstance(getattr(exc, "problem", None), str):
            exc.problem = as_keywords(exc.problem, task)  # what a pickled ParseError is rebuilt from


def read_conll(path: str | os.PathLike, fix_scorer_quirks: bool = False) -> MentionTable:
    """Read a CoNLL-2011/2012 coreference file (see :mod:`fastscore.formats.conll`): lines v8.01 misreads are read
    as it reads them (``MentionTable.warnings`` says where), or as meant with ``fix_scorer_quirks``."""
    from .formats.conll import read_conll as _read

    return _read(path, fix_scorer_quirks=fix_scorer_quirks)


def read_tbf(path: str | os.PathLike):
    """Read a TBF event nugget file (see :mod:`fastscore.formats.tbf`)."""
    from .formats.tbf import read_tbf as _read

    return _read(path)


@suggest_keywords
def bootstrap(result, resamples: int = 1000, *, level: float = 0.95, seed: int | None = 12345,
              method: str = "percentile"):
    """Attach bootstrap confidence intervals (F1 of every metric) to a result and return it.

    ``result`` is the result of any task (anything with ``doc_stats``
    and ``metrics``).

    Documents are resampled with replacement ``resamples`` times; each
    resample is a sum of per-document statistics (nothing is re-scored).
    ``method`` is ``percentile`` or ``bca``.  ``to_dict()`` then has
    ``"ci": [lo, hi]`` in every metric object.
    """
    from .stats.bootstrap import bootstrap_stats

    result.bootstrap = bootstrap_stats(result.doc_stats, result.metrics, resamples, level, seed, method)
    _warned(result.bootstrap, stacklevel=4)  # bootstrap, suggest_keywords, then the caller
    return result


def _scored(t: Task, gold, system, options: dict):
    """The task's result, its warnings emitted; a file of another task's format names the ``task=`` that reads it."""
    from .errors import OtherFormatError
    from .formats.files import readers_hint

    try:
        return _warned(t.score(gold, system, **options), stacklevel=4, task=t)  # _scored, then the API function
    except OtherFormatError as exc:
        raise exc.with_hint(readers_hint(exc.format, running=t.name, api=True)) from None
    except FastscoreError as exc:
        _error_as_keywords(exc, t)
        raise


def score(gold, system, *, task: str = DEFAULT_TASK, **options):
    """Score ``system`` against ``gold`` with any registered task (``fastscore.tasks.TASKS``);
    ``options`` are the task's keywords (those of ``score_<task>``, e.g. :func:`score_coref`).  Folders and glob
    patterns of shards, and files larger than the batch size, are scored as corpora, with the keywords of
    :func:`score_corpus`."""
    t = get_task(task)
    settings, _ = _plan(t, gold, [system], options, score, "command")
    if settings is not None:
        return _corpus_scored(t, gold, system, options, settings)
    return _scored(t, gold, system, options)


def score_corpus(gold, system, *, task: str = DEFAULT_TASK, **options):
    """Score a corpus: ``gold`` and ``system`` may be folders or glob patterns of shard files (any format the
    task reads, Parquet too) and files larger than ``batch_size`` bytes (or text: ``"64M"``) are read in batches
    of whole documents.  ``jobs`` processes (default every core), or Dask workers with ``executor="dask"`` (at
    ``scheduler``, or a LocalCluster); ``progress(what, done, total)`` is told of each part; ``keep_inputs=False``:
    results without their read inputs; ``settings``: a :class:`fastscore.shards.Settings` in place of those
    keywords.  The numbers are those of one file holding every document; the result lists skipped shards in
    ``skipped_shards`` (``skip_bad_shards``).  See :mod:`fastscore.shards`."""
    t = get_task(task)
    settings, _ = _plan(t, gold, [system], options, score_corpus, "command", corpora=True)
    return _corpus_scored(t, gold, system, options, settings)


def _corpus_scored(t: Task, gold, system, options: dict, settings):
    """:func:`fastscore.shards.score_corpus`, its warnings emitted (attributed to the API function's caller)."""
    from .shards import score_corpus as _score

    try:
        return _warned(_score(t, os.fspath(gold), os.fspath(system), options, settings), stacklevel=4, task=t)
    except FastscoreError as exc:
        _error_as_keywords(exc, t)
        raise


def score_by_file(gold, system, *, task: str = DEFAULT_TASK, **options):
    """Score each file of ``gold`` (a folder or glob pattern) against the file of ``system`` of the same name, each
    pair a dataset of its own: a :class:`fastscore.datasets.DatasetsResult` with each dataset's result and the
    macro averages over datasets of every metric's F1 (``macro()``; the metrics ``METRIC-macro`` of its
    ``doc_stats``, which :func:`bootstrap` resamples within each dataset).  The keywords of :func:`score_corpus`
    say how the datasets are scored (every dataset is scored whole: no ``skip_bad_shards``)."""
    from .datasets import score_datasets

    t = get_task(task)
    settings, _ = _plan(t, gold, [system], options, score_by_file, "command")
    if settings is None:
        raise UsageError(f"task {t.name!r} scores one pair of inputs: it does not read datasets of files"
                         if t.corpus is None else "--by-file pairs the files of two folders (or quoted glob "
                         "patterns): give GOLD and SYSTEM as folders")
    if settings.skip_bad or options.get("doc") is not None:  # every dataset counts in the macro average
        raise UsageError(f"{'--skip-bad-shards' if settings.skip_bad else '--doc'}: not with --by-file (every "
                         "dataset is scored whole)")
    return _warned(score_datasets(t, os.fspath(gold), os.fspath(system), options, settings), task=t)


def _plan(t: Task, gold, systems: list, options: dict, caller: Callable, *scopes: str, corpora: bool = False):
    """The corpus keywords taken out of ``options``, the task's keywords checked (scopes ``score`` and
    ``scopes``), and :func:`fastscore.shards.plan_run`: (Settings or None, whether each system is a corpus)."""
    from .shards import CORPUS_KEYWORDS, corpus_keywords, plan_run

    given = corpus_keywords(options)
    t.check_keywords(options, "score", *scopes, also=[*_own_keywords(caller), *CORPUS_KEYWORDS])
    return plan_run(t, gold, systems, given, corpora=corpora)


def _own_keywords(function: Callable) -> list[str]:
    """A function's named keywords (those beside its ``**options``), for the closest to a misspelt one."""
    return [n for n, p in inspect.signature(function).parameters.items() if p.kind != p.VAR_KEYWORD]


@contextmanager
def _task_scorer(t: Task, key, systems: list, sharded: list[bool], options: dict, settings):
    """A function system -> result for a task, with the key read once; every system must cover exactly the
    key's documents (a task whose pairing refuses missing and extra documents checks them as it scores: a
    temporal pair of two single files is one document whatever the files' names).  The systems scored as corpora
    (``sharded``, each system's: :func:`fastscore.shards.plan_run`) are scored on one executor (``settings``),
    opened only when one is."""
    from .executors import executor_for
    from .shards import score_corpus_on
    from .stats.compare import check_same_documents

    corpora = {os.fspath(s) for s, on in zip(systems, sharded) if on}
    read_key: list = []
    read_keywords = {k: options[k] for k in t.read_keywords if k in options}

    def scored(system, ex=None):
        if isinstance(system, (str, os.PathLike)) and os.fspath(system) in corpora:
            return score_corpus_on(ex, t, os.fspath(key), os.fspath(system), options, settings, same_documents=True)
        if not read_key:
            gold = t.read(key, **read_keywords)
            read_key.append((gold, t.doc_names(gold)))
        gold, names = read_key[0]
        read = t.read(system, **read_keywords)
        if not (t.pairing.missing == t.pairing.extra == "error"):  # else the task's own scoring refuses them
            check_same_documents(names, read.path, t.doc_names(read))
        return t.score(gold, read, **options)

    if not corpora:
        yield t, scored
        return
    with executor_for(settings) as ex:
        yield t, lambda system: scored(system, ex)


def _scorer(task: str, key, systems: list, metric: str | None, options: dict, caller: Callable):
    """:func:`_task_scorer`, or by file for a metric of datasets (``conll-macro``, the macro average, or
    ``conll@DATASET``: each file pair of the key's and a system's folders a dataset, :mod:`fastscore.datasets`).
    Only the statistics of the systems' results are used: they keep no read inputs unless told."""
    from .datasets import by_file, datasets_scorer

    t = get_task(task)
    options.setdefault("keep_inputs", False)
    if not by_file(metric):
        settings, sharded = _plan(t, key, systems, options, caller)
        return _task_scorer(t, key, systems, sharded, options, settings)
    if t.corpus is None:
        raise UsageError(f"--metric {metric}: task {t.name!r} scores one pair of inputs, not datasets of files")
    settings, _ = _plan(t, key, systems, options, caller, corpora=True)
    return datasets_scorer(t, key, options, settings, metric)


def compare(key, baseline, systems, metric: str | None = None, *, task: str = DEFAULT_TASK, test: str = "bootstrap",
            resamples: int = 10000, seed: int | None = 12345, level: float = 0.95, method: str = "percentile",
            **options):
    """Paired significance tests of ``systems`` (paths; one path alone is one system) against ``baseline`` on
    ``metric`` F1.

    ``task`` is any registered task (``coref``: CoNLL files, options ``singletons``,
    ``allow_repeated``; ``nugget``: TBF files, the options of :func:`score_nugget`); ``options``
    are the task's scoring options.  Every system must cover exactly the key's documents.
    ``test`` is ``bootstrap`` (paired bootstrap, Koehn 2004, p-value after Berg-Kirkpatrick
    et al. 2012) or ``permutation`` (approximate randomization); p-values are Holm-Bonferroni
    adjusted over the systems.  See :mod:`fastscore.stats.significance`.  Key and systems may be corpora of
    shards (with the keywords of :func:`score_corpus`).
    """
    from .stats.compare import compare_stats

    systems = _systems(systems)
    with _scorer(task, key, [baseline, *systems], metric, options, compare) as (t, scored):
        metric = metric or t.default_metric
        scored_base = scored(baseline)
        base = (_name(baseline), scored_base.doc_stats)
        base[1].f1(metric, base[1].total())  # an unknown metric fails before the systems are read
        others = [(_name(s), scored(s).doc_stats) for s in systems]
    return _warned(compare_stats(base, others, metric, test, resamples, seed, level, method, task=t.name,
                                 options=scored_base.signature_items()))


def sweep(key, systems, metric: str | None = None, *, task: str = DEFAULT_TASK, resamples: int = 0,
          seed: int | None = 12345, level: float = 0.95, method: str = "percentile", progress=None, **options):
    """Score many systems against one key (read once); best first, with intervals if ``resamples`` > 0.
    Every metric the task reports is shown beside the ranking metric; ``progress(done, total)`` is told of each
    system.  Key and systems may be corpora of shards (see :func:`compare`)."""
    from .stats.compare import sweep_stats

    systems = _systems(systems)
    rows = []
    shown: list[str] = []
    signed: dict = {}
    with _scorer(task, key, systems, metric, options, sweep) as (t, scored):
        metric = metric or t.default_metric
        for n, s in enumerate(systems):
            result = scored(s)
            if n == 0:
                result.doc_stats.f1(metric, result.doc_stats.total())  # an unknown metric fails at once
                shown = list(result.metrics)
                signed = result.signature_items()  # what applied to the run, as a score's signature says
            rows.append((_name(s), result.doc_stats))
            if progress is not None:
                progress(n + 1, len(systems))
    return _warned(sweep_stats(rows, metric, shown, resamples, seed, level, method, task=t.name,
                               options=signed))


def _systems(systems) -> list:
    """compare's and sweep's systems as a list: one path given alone is one system (not its characters)."""
    return [systems] if isinstance(systems, (str, os.PathLike)) else list(systems)


def _name(x) -> str:
    return os.fspath(x) if isinstance(x, (str, os.PathLike)) else x.path


def read_triples(path: str | os.PathLike):
    """Read a triple XML file (see :mod:`fastscore.formats.triples`)."""
    from .formats.triples import read_triples as _read

    return _read(path)


def read_timeml(path: str | os.PathLike):
    """Read a TimeML file or a folder of them (see :mod:`fastscore.formats.timeml`)."""
    from .formats.timeml import read_timeml as _read

    return _read(path)


# ---- score_<task>, made from each task's declaration

SCORE_PREFIX = "score_"
_made: dict[str, tuple[Task, Callable]] = {}  # task name -> (the task it was made from, its function)


def score_function(name: str) -> Callable:
    """``score_<name>(gold, system, *, options)`` of a registered task: its signature and help from the task's
    declared options (scopes ``score`` and ``command``), made again when the task is registered anew."""
    task = get_task(name)
    made = _made.get(name)
    if made is None or made[0] is not task:
        made = _made[name] = (task, _make_score_function(task))
    return made[1]


def _corpus_parameters(task: Task) -> list[inspect.Parameter]:
    """The corpus keywords (those of :func:`score_corpus`) of a task that reads corpora."""
    from .shards import CORPUS_KEYWORDS, CORPUS_OPTIONS

    if task.corpus is None:
        return []
    defaults = {**{o.keyword: o.default for o in CORPUS_OPTIONS}, "keep_inputs": True}
    return [inspect.Parameter(k, inspect.Parameter.KEYWORD_ONLY, default=defaults.get(k)) for k in CORPUS_KEYWORDS]


def _make_score_function(task: Task) -> Callable:
    from .shards import corpus_keywords, plan_run

    options = task.in_scope("score", "command")
    gold, system = (n.lower() for n in task.input_names)
    kinds = {True: inspect.Parameter.POSITIONAL_OR_KEYWORD, False: inspect.Parameter.KEYWORD_ONLY}
    signature = inspect.Signature(
        [inspect.Parameter(n, inspect.Parameter.POSITIONAL_OR_KEYWORD) for n in (gold, system)]
        + [inspect.Parameter(o.keyword, kinds[o.positional], default=o.default)
           for o in sorted(options, key=lambda o: not o.positional)]
        + _corpus_parameters(task))

    def score_task(*args, **keywords):
        unknown = [k for k in keywords if k not in signature.parameters]
        if unknown:
            hint = (task.flag_hint(unknown[0], "score", "command")
                    or keyword_hint(unknown[0], signature.parameters))
            raise UnknownKeyword(f"{score_task.__name__}() got an unexpected keyword argument "
                                 f"{', '.join(map(repr, unknown))}{hint}")
        given = signature.bind(*args, **keywords)
        given.apply_defaults()
        values = dict(given.arguments)
        key, response = values.pop(gold), values.pop(system)
        settings, _ = plan_run(task, key, [response], corpus_keywords(values))
        if settings is not None:
            return _corpus_scored(task, key, response, values, settings)
        return _scored(task, key, response, values)

    score_task.__name__ = score_task.__qualname__ = SCORE_PREFIX + task.name
    score_task.__module__ = __name__
    score_task.__signature__ = signature
    score_task.__doc__ = _score_doc(task, options)
    return score_task


def _score_doc(task: Task, options) -> str:
    """The help of ``score_<task>``: the task's description and API notes, then each option's help."""
    fill = lambda text, indent="": textwrap.fill(" ".join(text.replace("%%", "%").split()), 100,
                                                initial_indent=indent, subsequent_indent=indent)
    parts = [fill(task.description)]
    parts += [fill(p) for p in textwrap.dedent(task.api_doc).split("\n\n") if p.strip()]
    title = f"Options (those of `fastscore {task.name}`, as keywords)"
    lines = [title, "-" * len(title)]
    for o in options:
        where = ", also positional" if o.positional else ""
        lines += [f"{o.keyword} : default {o.default!r}{where} ({'/'.join(o.flags)})", fill(o.help, "    ")]
    if task.corpus is not None:
        parts.append(fill("GOLD and SYSTEM may be folders or glob patterns of shards, scored as corpora: the "
                          "keywords jobs, executor, ... of fastscore.score_corpus."))
    return "\n\n".join(parts + ["\n".join(lines)]) + "\n"


def __getattr__(name: str):  # score_<task> of the registered tasks
    if name.startswith(SCORE_PREFIX) and name[len(SCORE_PREFIX):] in TASKS:
        return score_function(name[len(SCORE_PREFIX):])
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
