"""The runner of corpora: whether a run is one of corpora, its settings, and the work done on its parts.

GOLD and SYSTEM may be folders or glob patterns of files (any format the task reads, Parquet included);
a file larger than the batch size is read in batches of whole documents when its format can be cut
(``Corpus.batches`` of ``Task.corpus``), so memory is bounded by the batches in flight, not by the file.  Every shard
file or batch is a *part* (which parts and units: :mod:`fastscore.planner`).  Scoring runs in two steps on an
executor (in this process, a process pool, or Dask: :mod:`fastscore.executors`):

1. every part is read (``Corpus.read_shard`` or ``Task.read``) and its documents listed;
2. parts are grouped into *units*: the key and response parts linked by shared document names (usually one
   key shard and the response shard of the same documents); a unit's reads are joined (``Corpus.concat``) and
   scored (``Task.score``); the units' results are merged (``Corpus.merge``: ``DocStats.concat`` and the
   warnings), in the order of the key's parts.

Corpus totals are exactly rounded sums of the per-document statistics (``DocStats.total``), so a corpus
prints the same digits as one file, in shards, with any ``--jobs`` and on Dask.  A document in two parts of
one side is an error; a part that cannot be read fails the run, or with ``skip_bad`` is left out and listed
(its key documents are not scored; a response part's documents count as missing from the response).

The corpus options are declared once (:data:`CORPUS_OPTIONS`: the command line's flags and the API's keywords) and
checked in one place, :func:`plan_run`, which every API entry calls.  ``dask worker ADDRESS --preload
fastscore.shards`` warms each worker as it starts (:func:`dask_setup`).
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from .errors import FastscoreError, InputError, UsageError
from .executors import executor_for, warm_worker
from .formats.files import Part
from .messages import few, shown
from .pairing import pair
from .planner import (DEFAULT_BATCH_BYTES, parse_size, part_size, parts_expected, parts_of, plan_units,
                      refuse_patterns, shard_files, unpaired_if_one_to_one, uses_shards)
from .task import Option

# the corpus options, declared once: the command line's flags (those of "command" scope on a task's own command
# only) and the API's keywords; ``{formats}``: the formats the task cuts into batches
CORPUS_OPTIONS = (
    Option(("--jobs", "-j"), "jobs", "processes (or Dask workers) reading and scoring shards and batches "
           "(default: every core)", type=int, metavar="N"),
    Option(("--executor",), "executor", "local (this machine: a process pool, default) or dask (pip install "
           "'fastscore-ie[dask]')", default="local", choices=("local", "dask")),
    Option(("--scheduler",), "scheduler", "with --executor dask: the scheduler (e.g. tcp://10.0.0.5:8786); "
           "default: a LocalCluster of --jobs workers", metavar="ADDRESS"),
    Option(("--batch-size",), "batch_size", "read files larger than this in batches of whole documents ({formats}; "
           "default 256M): memory is bounded by the batches", metavar="SIZE"),
    Option(("--skip-bad-shards",), "skip_bad_shards", "leave out shards that cannot be read, listed in the warnings "
           "and the JSON (default: the run fails, with no partial score)", default=False, switch=True, scope="command"),
)
# the API's keywords: the options', how progress is told (``progress(what, done, total)``), whether results keep
# their read inputs (False: statistics and warnings only, when no report shows the inputs), and ``settings`` (a
# Settings made already, in place of the others)
CORPUS_KEYWORDS = (*(o.keyword for o in CORPUS_OPTIONS), "progress", "keep_inputs", "settings")


@dataclass
class Settings:
    """How a run of corpora is carried out (none of it changes a number)."""

    jobs: int | None = None  # None: every core
    executor: str = "local"  # local (this process or a process pool) or dask
    scheduler: str | None = None  # dask: a scheduler's address; None starts a LocalCluster
    batch_bytes: int = DEFAULT_BATCH_BYTES
    skip_bad: bool = False
    progress: Callable[[str, int, int], None] | None = None
    # results keep their read inputs (False when no report that shows them is asked: workers then send back
    # statistics and warnings only, Result.without_inputs)
    keep_inputs: bool = True

    def __post_init__(self):
        if self.jobs is not None and self.jobs < 1:  # refused whatever the inputs (files or corpora)
            raise UsageError(f"--jobs {self.jobs}: give at least 1")
        if self.executor not in ("local", "dask"):
            raise UsageError(f"--executor {self.executor}: choose local or dask")
        if self.executor == "dask":
            from importlib.util import find_spec

            if find_spec("dask") is None or find_spec("distributed") is None:
                raise UsageError("--executor dask needs Dask: pip install 'fastscore-ie[dask]'")


def corpus_keywords(options: dict) -> dict:
    """The corpus keywords (:data:`CORPUS_KEYWORDS`) taken out of an API call's ``options``."""
    return {k: options.pop(k) for k in CORPUS_KEYWORDS if k in options}


def plan_run(task, gold, systems: list, given: dict, *, corpora: bool = False) -> tuple[Settings | None, list[bool]]:
    """The one place that decides whether a run scores corpora and checks the corpus options ``given`` (keywords of
    :data:`CORPUS_KEYWORDS`): the run's Settings (None: no corpus) and, per system,
    whether its pair with ``gold`` is scored as corpora (a side is a folder or glob pattern of shards, or a file to
    read in batches: :func:`~fastscore.planner.uses_shards`).  ``corpora``: the caller scores corpora whatever
    the inputs (``score_corpus``, by file).  Options for corpora given for pairs of inputs are refused."""
    settings = given.get("settings")
    if settings is None:
        batch = given.get("batch_size")
        settings = Settings(jobs=given.get("jobs"), executor=given.get("executor") or "local",
                            scheduler=given.get("scheduler"),
                            batch_bytes=DEFAULT_BATCH_BYTES if batch is None else _bytes(batch),
                            skip_bad=bool(given.get("skip_bad_shards")), progress=given.get("progress"),
                            keep_inputs=given.get("keep_inputs", True))
    paths = [os.fspath(s) if isinstance(s, (str, os.PathLike)) else None for s in systems]
    key = os.fspath(gold) if isinstance(gold, (str, os.PathLike)) else None
    if key is not None:
        for system in paths:
            if system is not None:
                refuse_patterns(key, system, task)
    if task.corpus is None:
        given = [o.keyword for o in CORPUS_OPTIONS if given.get(o.keyword, o.default) != o.default]
        if corpora or given:
            raise UsageError(f"{''.join(k + ': ' for k in given[:1])}task {task.name!r} scores one pair of inputs: it "
                             "does not read corpora of shards")
        return None, [False] * len(systems)
    sharded = [corpora or (key is not None and s is not None and uses_shards(key, s, task, settings.batch_bytes))
               for s in paths]
    if not any(sharded):
        given = [flag for flag, on in (("--executor dask", settings.executor == "dask"),
                                       ("--scheduler", settings.scheduler), ("--skip-bad-shards", settings.skip_bad))
                 if on]
        if given:
            raise UsageError(f"{', '.join(given)}: for corpora of shards (folders or glob patterns) or files "
                             "larger than --batch-size; here GOLD and SYSTEM are one file each")
        return None, sharded
    if settings.scheduler is not None and settings.executor != "dask":
        raise UsageError("--scheduler is the address of a Dask scheduler: give it with --executor dask")
    return settings, sharded


def _bytes(size: int | str) -> int:
    """A batch size given as bytes or as text (``64M``)."""
    if isinstance(size, str):
        return parse_size(size)
    if size <= 0:
        raise UsageError(f"--batch-size {size}: must be positive")
    return size


def dask_setup(worker=None) -> None:
    """``dask worker ADDRESS --preload fastscore.shards``: each worker process warms up once when it starts
    (:func:`~fastscore.executors.warm_worker` for every task), so that a run's first parts cost what later ones do."""
    warm_worker(None)


# ---- work done by the executors (module-level functions: processes and Dask workers import them)

def read_part(task_name: str, part, options: dict | None = None) -> tuple[Any, tuple[list[str], Any]]:
    """A part read (or the part itself, when it is to be read again where it is scored: ``Corpus.read_again``),
    with what it tells of itself (:func:`described`)."""
    from .tasks import get_task

    corpus = get_task(task_name).corpus
    read = read_only(task_name, part, options)
    again = corpus.read_again is not None and corpus.read_again(part)
    return part if again else read, described(task_name, read)


def _read(task, part, options: dict | None = None):
    """A part of a corpus read (``Corpus.read_shard``, else ``Task.read``) as one file is read: with the score
    options that decide how (``Task.read_keywords``, e.g. coreference's ``--format``)."""
    keywords = {k: options[k] for k in task.read_keywords if k in options} if options else {}
    return (task.corpus.read_shard or task.read)(part, **keywords)


def _keys(task, names: Sequence[list[str] | None], options: dict) -> list[list[str] | None]:
    """Per part, the keys its documents pair by (``Pairing.key``; None: a part left out)."""
    return [None if docs is None else [task.pairing.key_of(n, options) for n in docs] for docs in names]


def read_only(task_name: str, part, options: dict | None = None) -> Any:
    from .tasks import get_task

    return _read(get_task(task_name), part, options)


def described(task_name: str, read) -> tuple[list[str], Any]:
    """The document names of a read part, and its summary for the other parts (``Corpus.part_summary``)."""
    from .tasks import get_task

    task = get_task(task_name)
    summary = task.corpus.part_summary
    return list(task.doc_names(read)), summary(read) if summary is not None else None


def score_unit(task_name: str, key_reads: list, response_reads: list, names: tuple[str, str], options: dict,
               contexts: tuple[list, list] | None = None, keep_inputs: bool = True):
    """One unit scored: its key parts against its response parts (each in its context, when it has one)."""
    from .tasks import get_task

    task = get_task(task_name)
    key_reads, response_reads = ([_read(task, r, options) if isinstance(r, Part) else r for r in reads]
                                 for reads in (key_reads, response_reads))
    if contexts is not None:
        key_reads, response_reads = ([r if c is None else task.corpus.in_context(r, c) for r, c in zip(reads, ctx)]
                                     for reads, ctx in ((key_reads, contexts[0]), (response_reads, contexts[1])))
    gold = _joined(task, key_reads, names[0], key_reads[0])
    system = _joined(task, response_reads, names[1], key_reads[0])
    return _kept(task.score(gold, system, **options), keep_inputs)


def score_pair(task_name: str, key_part, response_part, names: tuple[str, str], options: dict,
               keep_inputs: bool = True):
    """A key shard and the response shard of its name read and scored in one go: (result, the pairing keys of
    the key's documents, of the response's: ``Pairing.key``, found here rather than in the parent); the result
    is None when the response shares no document with the key (the shards are then paired otherwise)."""
    from .tasks import get_task

    task = get_task(task_name)
    gold, system = _read(task, key_part, options), _read(task, response_part, options)
    k, r = _keys(task, [list(task.doc_names(gold)), list(task.doc_names(system))], options)
    if pair(k, r).disjoint:
        return None, k, r
    return _kept(task.score(gold, system, **options), keep_inputs), k, r


def _kept(result, keep_inputs: bool):
    return result if keep_inputs else result.without_inputs()


def _joined(task, reads: list, name: str, like):
    """One input of the reads (none: an input like ``like`` without documents)."""
    if len(reads) == 1:
        return reads[0]
    if task.corpus.concat is None:
        raise InputError(f"{name}: documents of one shard are spread over several shards of the other side: "
                         f"task {task.name} needs key and response shards of the same documents")
    return task.corpus.concat(reads, name, like)


def _described_or_error(task_name: str, read):
    return read if isinstance(read, BaseException) else described(task_name, read)


def _read_parts(ex, task_name: str, parts: list, on_done, options: dict | None) -> tuple[list, list]:
    """(read handles, (names, summary) or exception) of each part: on Dask the reads stay on the workers
    (futures) and only what they tell comes back."""
    sizes, files = [part_size(p) for p in parts], [[str(p)] for p in parts]
    arguments = [(task_name, p, options) for p in parts]
    if ex.keeps_values:
        reads = ex.submit(read_only, arguments, sizes)
        return reads, ex.run(_described_or_error, [(task_name, r) for r in reads], on_done, sizes, files, "reading")
    got = ex.run(read_part, arguments, on_done, sizes, files, "reading")
    return [g if isinstance(g, BaseException) else g[0] for g in got], \
           [g if isinstance(g, BaseException) else g[1] for g in got]


def score_pairs(ex, task_name: str, jobs: list[tuple], on_done) -> list:
    """:func:`score_pair` of each job (key part, response part, ...) on an executor, the largest first."""
    sizes = [part_size(j[0]) + part_size(j[1]) for j in jobs]
    return ex.run(score_pair, [(task_name, *j) for j in jobs], on_done, sizes, [[str(j[0]), str(j[1])] for j in jobs],
                  "reading and scoring")


# ---- the run

def score_corpus(task, gold: str, system: str, options: dict, settings: Settings, same_documents: bool = False):
    """Score a corpus given as shards and/or large files; the result of ``Corpus.merge``.  With
    ``same_documents`` (compare, sweep) the response must hold exactly the key's documents."""
    with executor_for(settings) as ex:
        return score_corpus_on(ex, task, gold, system, options, settings, same_documents)


def score_corpus_on(ex, task, gold: str, system: str, options: dict, settings: Settings,
                    same_documents: bool = False):
    """:func:`score_corpus` on an open executor (``compare`` and ``sweep`` score every system on one)."""
    key_files, response_files = shard_files(gold, task), shard_files(system, task)
    # workers started now, while the parts are planned
    ex.start(task.name, max(parts_expected(key_files, settings.batch_bytes),
                            parts_expected(response_files, settings.batch_bytes)), key_files[0])
    key_parts = parts_of(gold, task, settings.batch_bytes, key_files)
    response_parts = parts_of(system, task, settings.batch_bytes, response_files)
    # one file cut into batches: started now
    ex.start(task.name, max(len(key_parts), len(response_parts)), key_files[0])
    doc = options.get("doc")
    paired = None if doc is not None else _score_pairs(ex, task, key_parts, response_parts, (gold, system),
                                                         options, settings)
    if paired is not None:
        results, unpaired, k_keys, r_keys = paired
        _check_pairing(task, k_keys, r_keys, key_parts, response_parts, system=system, options=options,
                       same_documents=same_documents, skipped=[])
        return _merged(task, results, unpaired, gold, system, [])
    n = len(key_parts) + len(response_parts)
    tick = ticker(settings.progress, "reading", n)
    reads, infos = _read_parts(ex, task.name, key_parts + response_parts, tick, options)
    infos, skipped = _check_reads(infos, settings.skip_bad)
    names = [None if d is None else d[0] for d in infos]
    k_names, r_names = names[:len(key_parts)], names[len(key_parts):]
    contexts = _contexts(task, key_parts, response_parts, [None if d is None else d[1] for d in infos])
    k_keys, r_keys = _keys(task, k_names, options), _keys(task, r_names, options)
    units, unpaired = plan_units(k_keys, r_keys, key_parts, response_parts)
    _check_pairing(task, k_keys, r_keys, key_parts, response_parts, system=system, options=options,
                   same_documents=same_documents, skipped=skipped)
    if doc is not None:
        units = [u for u in units if any(doc in k_names[k] for k in u.key)]
        if not units:
            raise UsageError(f'--doc "{shown(doc)}": no such document in the key')
    if not units:
        raise InputError(f"{gold}: no key document could be read")
    all_parts = key_parts + response_parts
    sides = [(u.key, [len(key_parts) + r for r in u.response]) for u in units]  # indices in all_parts
    jobs = [(task.name, [reads[i] for i in k], [reads[i] for i in r], (gold, system), options,
             None if contexts is None else ([contexts[i] for i in k], [contexts[i] for i in r]), settings.keep_inputs)
            for k, r in sides]
    sizes = [sum(part_size(all_parts[i]) for i in k + r) for k, r in sides]
    files = [[str(all_parts[i]) for i in k + r] for k, r in sides]
    results = ex.run(score_unit, jobs, ticker(settings.progress, "scoring", len(jobs)), sizes, files, "scoring")
    return _merged(task, results, unpaired, gold, system, skipped)


def _contexts(task, key_parts: list, response_parts: list, summaries: list) -> list | None:
    """Each part's context (``Corpus.part_contexts``, each side's parts together), or None: none has one."""
    if task.corpus.part_contexts is None or all(s is None for s in summaries):
        return None
    n = len(key_parts)
    contexts = (task.corpus.part_contexts(key_parts, summaries[:n])
                + task.corpus.part_contexts(response_parts, summaries[n:]))
    return contexts if any(c is not None for c in contexts) else None


def _merged(task, results: list, unpaired: list[str], gold: str, system: str, skipped: list[str]):
    for r in results:
        if isinstance(r, BaseException):
            raise r
    result = task.corpus.merge(results, gold, system)
    result.warnings[:] = summed_warnings(result.warnings, system)
    if unpaired:
        result.warnings.append(f"{system}: {len(unpaired)} response document(s) in no key shard, not scored: "
                               f"{few(unpaired)}")
    result.warnings.extend(f"shard skipped: {s}" for s in skipped)
    result.skipped_shards = skipped
    return result


# "PATH: N what: "a", "b" ...": a count of documents (or mentions) with the first few names, as each shard warns
COUNTED = re.compile(r'(?P<path>[^:]+): (?P<n>\d+) (?P<what>[^:"]+): (?P<names>".*)')


def summed_warnings(warnings: list[str], system: str) -> list[str]:
    """The shards' warnings with those that say the same of their own documents ("2 key document(s) missing
    from the response, scored as empty: ...") said once, for the whole corpus: the total and the first names."""
    found = [COUNTED.fullmatch(w) for w in warnings]
    groups: dict[str, list[int]] = {}  # what -> the warnings saying it
    for i, m in enumerate(found):
        if m is not None:
            groups.setdefault(m["what"], []).append(i)
    out = []
    for i, (w, m) in enumerate(zip(warnings, found)):
        same = [] if m is None else groups[m["what"]]
        if len(same) < 2:
            out.append(w)
        elif i == same[0]:
            total = sum(int(found[k]["n"]) for k in same)
            names = [n for k in same for n in re.findall(r'"([^"]*)"', found[k]["names"])][:5]
            out.append(f"{system}: {total} {m['what']}: {few(names)}" + (" ..." if total > len(names) else ""))
    return out


def _score_pairs(ex, task, key_parts: list, response_parts: list, names: tuple[str, str], options: dict,
                 settings: Settings) -> tuple | None:
    """The common case in one step: key and response shards of the same file names, each pair holding the
    same documents, read and scored together (no read crosses processes).  None when the shards are not so
    paired (or a shard failed): the two-step path then decides, and reports, everything.  Else the results,
    the unpaired response documents and the documents' pairing keys of each key and response shard."""
    def stem(p) -> str | None:  # a file's name as its documents pair (Pairing.key), without its ending
        if not isinstance(p, str):
            return None
        try:
            return os.path.splitext(task.pairing.key_of(os.path.basename(p), options))[0]
        except FastscoreError:
            return None

    if len(key_parts) != len(response_parts) or len(key_parts) < 2 or any(
            stem(k) is None or stem(k) != stem(r) for k, r in zip(key_parts, response_parts)):
        return None
    tick = ticker(settings.progress, "scoring", len(key_parts))
    got = score_pairs(ex, task.name, [(k, r, names, options, settings.keep_inputs)
                                      for k, r in zip(key_parts, response_parts)], tick)
    if any(isinstance(g, BaseException) or g[0] is None for g in got):
        return None
    k_keys, r_keys = [g[1] for g in got], [g[2] for g in got]
    unpaired = unpaired_if_one_to_one(k_keys, r_keys)
    return None if unpaired is None else ([g[0] for g in got], unpaired, k_keys, r_keys)


def _check_pairing(task, key_keys: list, response_keys: list, key_parts: list, response_parts: list, *,
                   system: str, options: dict, same_documents: bool, skipped: list[str]) -> None:
    """Documents of one side without the other's, when compared (``same_documents``) or refused by the task's
    pairing: compare's error, or the task's own (``Pairing.error``) unless shards were skipped (their documents
    are unknown: a key document without a response then meets an empty one, as the task's ``concat`` makes it)."""
    policy = task.pairing
    if same_documents or policy.error is None and policy.missing == policy.extra == "error":
        from .stats.compare import check_same_documents

        flat = lambda keys: [k for docs in keys if docs is not None for k in docs]
        check_same_documents(flat(key_keys), system, flat(response_keys))
    elif policy.error is not None and not skipped:
        where = lambda keys, parts: {k: parts[i] for i, docs in enumerate(keys) if docs is not None for k in docs}
        gold, found = where(key_keys, key_parts), where(response_keys, response_parts)
        paired = pair(gold, found, policy)
        if paired.missing or paired.extra:
            raise policy.error([str(gold[k]) for k in paired.missing], [str(found[k]) for k in paired.extra], options)


def _check_reads(infos: list, skip_bad: bool) -> tuple[list, list[str]]:
    """What each part read tells (names, summary); the first part that failed raises (or, with ``skip_bad``, each
    gets None and is listed)."""
    failed = [got for got in infos if isinstance(got, BaseException)]
    if failed and not skip_bad:
        raise failed[0]
    if failed and len(failed) == len(infos):
        raise InputError("every shard failed; the first: " + str(failed[0]))
    return [None if isinstance(got, BaseException) else got for got in infos], [str(got) for got in failed]


def ticker(progress, what: str, total: int) -> Callable[..., None]:
    """An executor's ``on_done`` telling ``progress`` (when there is one) of each item done."""
    done = [0]

    def tick(*_) -> None:
        done[0] += 1
        if progress is not None:
            progress(what, done[0], total)

    return tick
