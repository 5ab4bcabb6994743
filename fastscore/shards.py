"""Corpora as sets of shards, large files in batches, and the executors that score them.

GOLD and SYSTEM may be folders or glob patterns of files (any format the task reads, Parquet included);
a file larger than the batch size is read in batches of whole documents when its format can be cut
(``Corpus.batches`` of ``Task.corpus``), so memory is bounded by the batches in flight, not by the file.  Every shard file or
batch is a *part*.  Scoring runs in two steps on an executor (in this process, a process pool, or Dask):

1. every part is read (``Corpus.read_shard`` or ``Task.read``) and its documents listed;
2. parts are grouped into *units*: the key and response parts linked by shared document names (usually one
   key shard and the response shard of the same documents); a unit's reads are joined (``Corpus.concat``) and
   scored (``Task.score``); the units' results are merged (``Corpus.merge``: ``DocStats.concat`` and the
   warnings), in the order of the key's parts.

Corpus totals are exactly rounded sums of the per-document statistics (``DocStats.total``), so a corpus
prints the same digits as one file, in shards, with any ``--jobs`` and on Dask.  A document in two parts of
one side is an error; a part that cannot be read fails the run, or with ``skip_bad`` is left out and listed
(its key documents are not scored; a response part's documents count as missing from the response).
"""
from __future__ import annotations

import contextlib
import functools
import glob
import os
import re
import sys
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from ._isolation import no_working_folder_in_children
from .errors import FastscoreError, InputError, ResourceError, UsageError, out_of_memory
from .formats.files import Part
from .messages import few, shown
from .pairing import pair
from .planner import is_corpus, plan_units, shard_files  # noqa: F401  (is_corpus: the front's, from here)

DEFAULT_BATCH_BYTES = 256 << 20


@dataclass
class Settings:
    """How a sharded run is carried out (none of it changes a number)."""

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


def cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def parts_of(spec: str, task, batch_bytes: int, files: list[str] | None = None) -> list:
    """Shard files (``files``, else :func:`shard_files`), each cut into batches of whole documents when it is
    larger than ``batch_bytes``."""
    out: list = []
    for path in shard_files(spec, task) if files is None else files:
        batches = _batches(task, path, batch_bytes)
        out.extend(batches or [path])
    return out


def refuse_patterns(gold: str, system: str, task) -> None:
    """A glob pattern given to a task that reads no corpora of shards (nor patterns itself): a UsageError saying so."""
    patterns = [s for s in (gold, system) if glob.has_magic(s) and not os.path.exists(s)]
    if task.corpus is None and not task.reads_patterns and patterns:
        raise UsageError(f"{patterns[0]}: task {task.name} scores one pair of inputs (files, or the folders it "
                         "reads itself), not corpora of shards given as glob patterns")


def uses_shards(gold: str, system: str, task, batch_bytes: int) -> bool:
    """Whether a run needs the sharded path: a side is a corpus of shards or a file to be read in batches."""
    if task.corpus is None:
        return False
    if any(os.path.isdir(s) and not is_corpus(s, task) for s in (gold, system)):
        return False  # a folder the task reads itself (NAF documents...): the pair is the task's to score
    if is_corpus(gold, task) or is_corpus(system, task):
        if "-" in (gold, system):  # shards are read by worker processes, which have no standard input of ours
            corpus = gold if is_corpus(gold, task) else system
            raise UsageError(f'"-": standard input cannot be scored against a corpus of shards ({corpus}): write it '
                             "to a file, or to a folder of shards")
        return True
    return task.corpus.batches is not None and any(  # a large file its task can cut (not gzip)
        p != "-" and os.path.isfile(p) and os.path.getsize(p) > batch_bytes and _batches(task, p, batch_bytes)
        for p in (gold, system))


def _batches(task, path: str, batch_bytes: int) -> list:
    """``Corpus.batches`` of a file, found once per run (deciding on shards and listing parts both ask).  A file
    of ``batch_bytes`` or less is read whole by every task's ``batches`` (``formats.files.mapped_for_batches``):
    it is not opened here, so planning a corpus of shards reads no file (the workers read each once)."""
    if task.corpus is None or task.corpus.batches is None:
        return []
    stat = os.stat(path)
    if stat.st_size <= batch_bytes:
        return []
    return list(_cached_batches(task.name, path, batch_bytes, stat.st_size, stat.st_mtime_ns))


@functools.lru_cache(maxsize=16)
def _cached_batches(task_name: str, path: str, batch_bytes: int, size: int, mtime_ns: int) -> tuple:
    from .tasks import get_task

    return tuple(get_task(task_name).corpus.batches(path, batch_bytes))


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


# ---- planning

# ---- executors

class LocalExecutor:
    """This process (one job, or one unit of work), or a pool of processes started once per run (compare and
    sweep score every system on it)."""

    def __init__(self, jobs: int):
        self.jobs = jobs
        self.pool = None
        self._isolated = contextlib.ExitStack()  # in force while the pool lives
        self.board = None  # the chunk each worker is on (_Board)
        self.chunks: list[list[str]] = []  # the files of each chunk sent to the pool (its number: the index)

    def __enter__(self):
        return self

    def __exit__(self, kind, *exc):
        if self.pool is None:
            return
        interrupted = kind is not None and not issubclass(kind, Exception)  # Ctrl-C: do not wait for the workers
        workers = list((getattr(self.pool, "_processes", None) or {}).values())  # shutdown forgets them
        self.pool.shutdown(wait=not interrupted, cancel_futures=True)
        self._isolated.close()
        if interrupted:  # they ignore Ctrl-C, and this process ends without telling them
            for process in workers:
                process.terminate()

    def start(self, task_name: str, n_items: int, part=None) -> None:
        """The workers started now (no more than ``n_items``), ready for ``task_name`` and for parts like
        ``part`` (:func:`prepare_to_fork`), while this process plans the run."""
        self._pool(n_items, task_name, part)

    def _pool(self, n_items: int, task_name: str | None = None, part=None):
        if self.jobs <= 1 or n_items <= 1:
            return self.pool
        if self.pool is None:
            import multiprocessing
            import threading
            from concurrent.futures import ProcessPoolExecutor

            prepare_to_fork(task_name, part)

            # fork while this process has one thread (workers start at once, with what is imported); else
            # forkserver, since forking a process with threads (Dask's) may deadlock, and a child forked from
            # one whose kernels run on GNU OpenMP stops at once (kernel_threads_allow_fork)
            method = "fork" if threading.active_count() == 1 and kernel_threads_allow_fork() \
                and "fork" in multiprocessing.get_all_start_methods() else "forkserver"
            # a forkserver (or a spawned worker) imports nothing from the working folder
            self._isolated.enter_context(no_working_folder_in_children())
            # no more processes than parts: a fork pool starts them all at the first task
            workers, context = min(self.jobs, n_items), multiprocessing.get_context(method)
            self.board = _Board(context, workers)
            self.pool = ProcessPoolExecutor(workers, mp_context=context, initializer=_start_worker,
                                            initargs=(task_name, self.board.rows))
            with self._starting_workers():  # forked now, not at the first part: they warm up while the parts are planned
                self.pool.submit(int)
        return self.pool

    @contextlib.contextmanager
    def _starting_workers(self):
        """Workers started within the block (a fork pool starts them all at its first task, a forkserver one as
        tasks come): Ctrl-C held back (:func:`_interrupts_held`), and a system that refuses more processes
        (EAGAIN: a limit on processes or memory) a ResourceError, the workers already started ended."""
        try:
            with _interrupts_held():
                yield
        except OSError as exc:
            for process in list((getattr(self.pool, "_processes", None) or {}).values()):
                process.terminate()
            self.pool.shutdown(wait=False, cancel_futures=True)
            raise ResourceError(f"--jobs {self.jobs}: cannot start the worker processes ({exc.strerror or exc}): "
                                "no result (try fewer --jobs)") from None

    def run(self, fn, argument_lists: list[tuple], on_done, sizes: list[int] | None = None,
            files: list[list[str]] | None = None) -> list:
        """``fn(*args)`` for each argument tuple; ``on_done(i, value_or_exception)`` as each ends.  With
        ``sizes`` (bytes of each item's input), the largest items go first, so that no worker is left with a
        large one at the end.  ``files``: each item's files, named when memory runs out or a worker dies on it
        (a :class:`~fastscore.errors.ResourceError`)."""
        pool = self._pool(len(argument_lists))
        out: list = [None] * len(argument_lists)
        files = files or [[] for _ in argument_lists]
        if pool is None:
            for i, args in enumerate(argument_lists):
                try:
                    out[i] = _call(fn, args)
                except MemoryError:
                    raise out_of_memory(files[i], _DOING.get(fn), True) from None
                on_done(i, out[i])
            return out
        from concurrent.futures import as_completed
        from concurrent.futures.process import BrokenProcessPool

        groups = in_chunks(largest_first(len(argument_lists), sizes), sizes, self.jobs * CHUNKS_PER_WORKER)
        futures = {}
        with self._starting_workers():  # a pool not started yet forks its workers at the first submission
            for group in groups:
                self.chunks.append([f for i in group for f in files[i]])
                chunk = len(self.chunks) - 1
                futures[pool.submit(_packed_calls, fn, Packed([argument_lists[i] for i in group]), chunk)] = group
        waiting = dict(futures)
        for future in as_completed(futures):
            del waiting[future]
            try:
                values = future.result().unpack()
            except BrokenProcessPool:
                unfinished = [f for group in [futures[future], *waiting.values()] for i in group for f in files[i]]
                raise self._worker_died(fn, unfinished) from None
            except MemoryError:
                raise out_of_memory([f for i in futures[future] for f in files[i]], _DOING.get(fn), True) from None
            for i, value in zip(futures[future], values):
                out[i] = value
                on_done(i, value)
        return out

    def _worker_died(self, fn, unfinished: list[str]) -> ResourceError:
        """The error of a pool broken by a worker's death (killed, crashed): the files of the chunk it was on
        (else of every chunk in work, else the ``unfinished`` ones), and how it ended."""
        import signal

        processes = list((getattr(self.pool, "_processes", None) or {}).items())  # shutdown forgets them
        self.pool.shutdown(wait=True)  # the pool's thread ends the other workers and collects every exit status
        ended = {pid: p.exitcode for pid, p in processes}
        # the pool ends the other workers with SIGTERM once one died: the first did not end so
        died = [pid for pid, code in ended.items() if code not in (None, 0, -signal.SIGTERM)] or \
            [pid for pid, code in ended.items() if code]
        on = self.board.chunks_in_work() if self.board is not None else {}
        chunks = [on[pid] for pid in died if pid in on] or list(on.values())
        files = [f for c in chunks for f in self.chunks[c]] or unfinished
        return worker_died(files, ended[died[0]] if died else None, _DOING.get(fn))

    def read_parts(self, task_name, parts, on_done, options: dict | None = None):
        """(read handles, (names, summary) or exception) of each part."""
        got = self.run(read_part, [(task_name, p, options) for p in parts], on_done, [part_size(p) for p in parts],
                       [[str(p)] for p in parts])
        return [g if isinstance(g, BaseException) else g[0] for g in got], \
               [g if isinstance(g, BaseException) else g[1] for g in got]

    def score_units(self, task_name, jobs: list[tuple], on_done, sizes: list[int] | None = None,
                    files: list[list[str]] | None = None):
        return self.run(score_unit, [(task_name, *j) for j in jobs], on_done, sizes, files)

    def score_pairs(self, task_name, jobs: list[tuple], on_done, sizes: list[int] | None = None):
        return self.run(score_pair, [(task_name, *j) for j in jobs], on_done, sizes, [pair_files(j) for j in jobs])


def pair_files(job: tuple) -> list[str]:
    """The key and response shard of a :func:`score_pair` job."""
    return [str(job[0]), str(job[1])]


def worker_died(files: list[str], exitcode: int | None, doing: str | None = None) -> ResourceError:
    """The error of a worker process that ended while it had ``files`` (``exitcode``: a signal's is negative)."""
    import signal

    how = "ended"
    if exitcode is not None and exitcode < 0:
        try:
            how = f"was killed by {signal.Signals(-exitcode).name}"
        except ValueError:
            how = f"was killed by signal {-exitcode}"
    elif exitcode:
        how = f"exited with status {exitcode}"
    hint = f" ({KILLED_HINT})" if exitcode == -getattr(signal, "SIGKILL", 9) else ""
    return ResourceError(f"a worker process {how}{_while(files, doing)}: no result{hint}")


KILLED_HINT = "the system kills a process that runs out of memory: try fewer --jobs or a smaller --batch-size"


def _while(files: list[str], doing: str | None) -> str:
    return f" while {doing or 'working on'} {few(files)}" if files else ""


_DOING = {read_part: "reading", score_unit: "scoring", score_pair: "reading and scoring"}


def largest_first(n: int, sizes: list[int] | None) -> list[int]:
    """Indices of ``n`` items, the largest first (ties and no sizes: in order)."""
    if sizes is None:
        return list(range(n))
    return sorted(range(n), key=lambda i: -sizes[i])


CHUNKS_PER_WORKER = 4  # tasks per worker: few enough that the pool's cost per task is small, enough to balance


def in_chunks(order: list[int], sizes: list[int] | None, n_chunks: int) -> list[list[int]]:
    """Items (indices in the order they are to go out) grouped into about ``n_chunks`` tasks of about equal
    bytes (``sizes``; none: equal counts), keeping the order: a large item goes alone, small ones together (one
    task per part of a corpus of small shards cost more in the pool than scoring them)."""
    if n_chunks >= len(order):
        return [[i] for i in order]
    weight = (lambda i: 1) if sizes is None else (lambda i: max(sizes[i], 1))
    target = sum(weight(i) for i in order) / n_chunks
    chunks: list[list[int]] = [[]]
    filled = 0.0
    for i in order:
        if chunks[-1] and filled + weight(i) > target:
            chunks.append([])
            filled = 0.0
        chunks[-1].append(i)
        filled += weight(i)
    return chunks


def part_size(part) -> int:
    """Bytes of a part: a batch's span, a file's size (0 when unknown)."""
    if isinstance(part, str):
        try:
            return os.path.getsize(part)
        except OSError:
            return 0
    start, end = getattr(part, "start", None), getattr(part, "end", None)
    return end - start if isinstance(start, int) and isinstance(end, int) else 0


def _parts_expected(files: list, batch_bytes: int | None) -> int:
    """How many parts ``files`` will make (a file larger than ``batch_bytes`` is cut into batches), from their
    sizes alone: the pool is started before the parts are planned, and never grows."""
    if not batch_bytes:
        return len(files)
    return sum(max(1, -(-part_size(f) // batch_bytes)) for f in files)


def prepare_to_fork(task_name: str | None, part=None) -> None:
    """What each forked worker would otherwise do again, done once in this process before it forks them (each
    worker's copy was ~0.1 s of CPU, 15 copies at 16 workers): cloudpickle imported (results cross in it), the
    task warmed up (:func:`warm_worker`: its modules imported, its kernels loaded; a forked worker then finds
    it warm), and the reader of parts like ``part`` imported (``Corpus.prepare``: pyarrow's for Parquet)."""
    import cloudpickle  # noqa: F401

    if task_name is None:
        return
    warm_worker(task_name)
    from .tasks import get_task

    prepare = get_task(task_name).corpus.prepare
    if prepare is not None and part is not None:
        try:
            prepare(part)
        except Exception:  # noqa: BLE001 - best effort, as warm_worker: the part's own read reports it
            pass


def kernel_threads_allow_fork() -> bool:
    """Whether a child forked from this process can run: not when numba's threading layer (started by the
    first parallel kernel this process compiled or loaded) is GNU OpenMP, whose fork handler ends every child
    ("Terminating: fork() called from a process already using GNU OpenMP").  The command line chooses a
    fork-safe layer (``NUMBA_THREADING_LAYER=forksafe``, ``cli.run``); a user's program or setting may not."""
    numba = sys.modules.get("numba")
    if numba is None:
        return True
    try:
        layer = numba.threading_layer()
    except ValueError:  # not started yet: a forked child starts its own
        return True
    if layer != "omp":
        return True  # TBB and numba's workqueue are fork-safe
    omppool = sys.modules.get("numba.np.ufunc.omppool")  # loaded with the layer
    return getattr(omppool, "openmp_vendor", "GNU") != "GNU"


def warm_worker(task_name: str | None) -> None:
    """A worker made ready to score: the task's bundled
    example scored once, which imports its readers and engines and loads its kernels (once, instead of within
    the first part: in the parent before it forks its pool, :func:`prepare_to_fork`, else in each worker).
    ``None``: every registered task.  Best effort: a failure here is left for the real work to meet."""
    from .tasks import TASKS

    try:
        for task in TASKS.values() if task_name is None else [TASKS[task_name]]:
            if task.bundled_example is not None and task.name not in WARM:
                gold, system, keywords = task.bundled_example({})
                task.score(task.read(gold), task.read(system), **keywords)
                WARM.add(task.name)
    except Exception:  # noqa: BLE001 - see the docstring
        pass


WARM: set[str] = set()  # the tasks this process has warmed up for (once each)


def _start_worker(task_name: str | None, board_rows=None) -> None:
    _leave_interrupts_to_the_parent()
    if board_rows is not None:
        _Board.take_row(board_rows)
    _one_thread_each()
    if task_name is not None:
        warm_worker(task_name)


def _one_thread_each() -> None:
    """A worker's libraries on one thread: the workers are the parallelism (pyarrow's pool has a thread per
    core in each worker, 256 threads for 16 workers reading Parquet parts)."""
    pyarrow = sys.modules.get("pyarrow")
    if pyarrow is not None and pyarrow.cpu_count() != 1:
        pyarrow.set_cpu_count(1)


@contextlib.contextmanager
def _interrupts_held():
    """Ctrl-C held back while workers are forked, and delivered after: one arriving inside a fork would be
    lost in a fork hook (Python prints it as an ignored exception and goes on), and a new worker would get it
    before it ignores Ctrl-C."""
    import signal
    import threading

    if not hasattr(signal, "pthread_sigmask") or threading.current_thread() is not threading.main_thread():
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def _leave_interrupts_to_the_parent() -> None:
    """A worker ignores Ctrl-C (the whole process group gets it): the parent stops the run, with one line."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _call(fn, args):
    """``fn(*args)``, or the FastscoreError it raised (returned, so that one bad part does not lose the others)."""
    try:
        return fn(*args)
    except FastscoreError as exc:
        return exc


class Packed:
    """A value pickled with cloudpickle (results carry their metric registry, whose score functions are
    closures the standard pickle refuses): how values cross the process pool."""

    def __init__(self, value):
        import cloudpickle

        self.data = cloudpickle.dumps(value)

    def unpack(self):
        import pickle

        return pickle.loads(self.data)


def _packed_calls(fn, argument_lists: Packed, chunk: int = -1) -> Packed:
    """``fn`` called on each argument tuple of a chunk (:func:`in_chunks`, numbered ``chunk``): the list of what
    :func:`_call` gave."""
    _Board.on_chunk(chunk)
    try:
        return Packed([_call(fn, args) for args in argument_lists.unpack()])
    finally:
        _Board.on_chunk(-1)


class _Board:
    """The chunk each worker of a pool is on, in memory shared with the parent (a process id and a chunk
    number per worker): when a worker dies, the files it had are named (the pool only says that one died)."""

    ROW: tuple | None = None  # in a worker: (the board's rows, this worker's index)

    def __init__(self, context, workers: int):
        self.rows = context.Array("q", 2 * workers)  # (pid: 0 none yet, chunk: -1 none) per worker

    @classmethod
    def take_row(cls, rows) -> None:
        """A worker's row, taken as it starts."""
        with rows.get_lock():
            for i in range(0, len(rows), 2):
                if rows[i] == 0:
                    rows[i], rows[i + 1] = os.getpid(), -1
                    cls.ROW = (rows, i)
                    return

    @classmethod
    def on_chunk(cls, chunk: int) -> None:
        if cls.ROW is not None:
            rows, i = cls.ROW
            rows[i + 1] = chunk

    def chunks_in_work(self) -> dict[int, int]:
        """Worker process id -> the chunk it is on (those on one)."""
        rows = self.rows[:]
        return {rows[i]: rows[i + 1] for i in range(0, len(rows), 2) if rows[i] and rows[i + 1] >= 0}


class DaskExecutor:
    """Parts read and units scored as Dask tasks; the reads stay on the workers (futures) and only the
    results (per-document statistics and warnings) come back."""

    def __init__(self, jobs: int, scheduler: str | None):
        try:
            from dask.distributed import Client
        except ImportError:
            raise UsageError("--executor dask needs Dask: pip install 'fastscore-ie[dask]'") from None
        self.jobs = jobs
        self.cluster = None
        self._config = None
        self._client = None
        if scheduler is not None:
            import dask

            try:  # Dask's connect timeout (distributed.comm.timeouts.connect, default 30 s)
                self._client = Client(scheduler, timeout=dask.config.get("distributed.comm.timeouts.connect"))
            except (OSError, TimeoutError) as exc:
                raise UsageError(f"--scheduler {scheduler}: cannot reach the Dask scheduler ({exc})") from None

    @property
    def client(self):
        """The client of the scheduler given, or of a LocalCluster started now unless :meth:`start` started it."""
        if self._client is None:
            self._start_cluster(self.jobs)
        return self._client

    def _start_cluster(self, n_workers: int) -> None:
        """A LocalCluster of ``n_workers`` processes, forked from this process (Dask's event loop starts them one
        after the other: ~0.1 s each on 2 cores)."""
        import logging

        import dask
        from dask.distributed import Client, LocalCluster

        self._config = contextlib.ExitStack()  # Dask settings in force while the cluster lives
        fork = _fork_workers()
        if fork is not None:
            self._config.enter_context(fork)
        self._config.enter_context(no_working_folder_in_children())  # spawned workers (not Linux, or asked for)
        if dask.config.get("temporary-directory", None) is None:  # else the folder the user chose
            self._config.enter_context(dask.config.set({"temporary-directory": _private_scratch(self._config)}))
        # no dashboard, so no use for the workers' profiler, whose sampling every 10 ms only slows the parts
        self._config.enter_context(dask.config.set({"distributed.worker.profile.enabled": False}))
        # no dashboard; the scheduler's HTTP server (always started) on a free port, not 8787, which another
        # cluster may hold (Dask then warns, "Port 8787 is already in use")
        # Dask's own logs silenced: a worker that dies is fastscore's one error line (dask_result), not a page of
        # the scheduler's and nannies' warnings
        self.cluster = LocalCluster(n_workers=n_workers, threads_per_worker=1, processes=True,
                                    dashboard_address=None, scheduler_kwargs={"dashboard_address": ":0"},
                                    silence_logs=logging.CRITICAL)
        self._client = Client(self.cluster)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if self._client is not None:
            self._client.close()
        if self.cluster is not None:
            self.cluster.close()
        if self._config is not None:
            self._config.close()

    def _gather(self, futures, on_done, files: list[list[str]] | None = None, fn=None) -> list:
        from dask.distributed import as_completed

        index = {f.key: i for i, f in enumerate(futures)}
        out: list = [None] * len(futures)
        for future in as_completed(futures):
            i = index[future.key]
            out[i] = dask_result(future, files[i] if files else [], _DOING.get(fn))
            on_done(i, out[i])
        return out

    def start(self, task_name: str, n_items: int, part=None) -> None:
        """A LocalCluster started (no more workers than items), its workers forked from this process once it
        is ready for ``task_name`` and parts like ``part`` (:func:`prepare_to_fork`).  A deployment's workers are
        there (warmed by ``--preload fastscore.shards``)."""
        if self._client is None:
            prepare_to_fork(task_name, part)
            self._start_cluster(max(1, min(self.jobs, n_items)))

    def read_parts(self, task_name, parts, on_done, options: dict | None = None):
        order = largest_first(len(parts), [part_size(p) for p in parts])
        reads = [None] * len(parts)
        names = [None] * len(parts)
        for i in order:  # submitted largest first: Dask runs a client's tasks in the order they came
            reads[i] = self.client.submit(_on_worker, read_only, (task_name, parts[i], options), pure=False)
            names[i] = self.client.submit(_described_or_error, task_name, reads[i], pure=False)
        return reads, self._gather(names, on_done, [[str(p)] for p in parts], read_part)

    def score_units(self, task_name, jobs: list[tuple], on_done, sizes: list[int] | None = None,
                    files: list[list[str]] | None = None):
        return self._submit(score_unit, task_name, jobs, on_done, sizes, files)

    def score_pairs(self, task_name, jobs: list[tuple], on_done, sizes: list[int] | None = None):
        return self._submit(score_pair, task_name, jobs, on_done, sizes, [pair_files(j) for j in jobs])

    def _submit(self, fn, task_name, jobs: list[tuple], on_done, sizes: list[int] | None,
                files: list[list[str]] | None):
        futures = [None] * len(jobs)
        for i in largest_first(len(jobs), sizes):
            futures[i] = self.client.submit(_on_worker, fn, (task_name, *jobs[i]), pure=False)
        return self._gather(futures, on_done, files, fn)


def dask_result(future, files: list[str], doing: str | None = None):
    """A Dask task's result; memory run out, or workers that died on it (Dask's KilledWorker, once as many
    workers as ``distributed.scheduler.allowed-failures`` allows died running it), as a ResourceError naming
    ``files``."""
    from distributed import KilledWorker

    try:
        return future.result()
    except MemoryError:
        raise out_of_memory(files, doing, True) from None
    except KilledWorker:
        raise ResourceError(f"Dask workers died{_while(files, doing)} (each worker that took them): no result "
                            f"({KILLED_HINT})") from None


def _on_worker(fn, args):
    """A Dask task: :func:`_call`, one kernel thread per worker."""
    _one_thread_each()
    return _call(fn, args)


def _described_or_error(task_name: str, read):
    return read if isinstance(read, BaseException) else described(task_name, read)


def dask_setup(worker=None) -> None:
    """``dask worker ADDRESS --preload fastscore.shards``: each worker process warms up once when it starts
    (:func:`warm_worker` for every task), so that a run's first parts cost what later ones do."""
    warm_worker(None)


def _private_scratch(stack: contextlib.ExitStack) -> str:
    """A new private folder for a LocalCluster's scratch space, removed when ``stack`` closes.  Dask's default
    is a fixed folder in the shared temporary directory (``dask-scratch-space``, else ``dask-scratch-space-UID``),
    used by whoever made it first, and every Dask server puts its folder there first on its import path: the
    scheduler and nannies in this process, each worker in its own."""
    import shutil
    import tempfile

    folder = tempfile.mkdtemp(prefix="fastscore-dask-")
    stack.callback(shutil.rmtree, folder, True)
    return folder


def _fork_workers():
    """Dask's setting that makes a LocalCluster fork its worker processes (Linux, unless the user chose a
    start method other than Dask's default, spawn): a forked worker starts with fastscore and its compiled
    kernels loaded, where a spawned one imports them again.
    The setting is in force while the cluster lives (a worker that dies is forked again)."""
    import dask

    key = "distributed.worker.multiprocessing-method"
    if not sys.platform.startswith("linux") or dask.config.get(key, "spawn") != "spawn" \
            or not kernel_threads_allow_fork():
        return None
    import warnings

    # Python 3.12+ warns of any fork of a process with threads (Dask's event loop runs in one): chosen knowingly
    warnings.filterwarnings("ignore", message=r".*use of fork\(\) may lead to deadlocks", category=DeprecationWarning)
    return dask.config.set({key: "fork"})


def executor_for(settings: Settings):
    jobs = cores() if settings.jobs is None else settings.jobs
    if jobs < 1:
        raise UsageError(f"--jobs {jobs}: give at least 1")
    if settings.executor == "dask":
        return DaskExecutor(jobs, settings.scheduler)
    if settings.scheduler is not None:
        raise UsageError("--scheduler is the address of a Dask scheduler: give it with --executor dask")
    return LocalExecutor(jobs)


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
    ex.start(task.name, max(_parts_expected(key_files, settings.batch_bytes),
                            _parts_expected(response_files, settings.batch_bytes)), key_files[0])
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
    tick = _ticker(settings.progress, "reading", n)
    reads, infos = ex.read_parts(task.name, key_parts + response_parts, lambda i, v: tick(), options)
    infos, skipped = _check_reads(key_parts + response_parts, infos, settings.skip_bad)
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
    jobs = [([reads[k] for k in u.key], [reads[len(key_parts) + r] for r in u.response], (gold, system), options,
             None if contexts is None else ([contexts[k] for k in u.key],
                                            [contexts[len(key_parts) + r] for r in u.response]), settings.keep_inputs)
            for u in units]
    tick = _ticker(settings.progress, "scoring", len(jobs))
    sizes = [sum(part_size(all_parts[k]) for k in u.key) + sum(part_size(all_parts[len(key_parts) + r])
                                                               for r in u.response) for u in units]
    files = [[str(all_parts[k]) for k in u.key] + [str(all_parts[len(key_parts) + r]) for r in u.response]
             for u in units]
    results = ex.score_units(task.name, jobs, lambda i, v: tick(), sizes, files)
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
    notes = []
    if unpaired:
        notes.append(f"{system}: {len(unpaired)} response document(s) in no key shard, not scored: {few(unpaired)}")
    notes += [f"shard skipped: {s}" for s in skipped]
    result.warnings.extend(notes)
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
    tick = _ticker(settings.progress, "scoring", len(key_parts))
    got = ex.score_pairs(task.name, [(k, r, names, options, settings.keep_inputs)
                                     for k, r in zip(key_parts, response_parts)],
                         lambda i, v: tick(), [part_size(k) + part_size(r) for k, r in zip(key_parts, response_parts)])
    if any(isinstance(g, BaseException) or g[0] is None for g in got):
        return None
    k_keys, r_keys = [g[1] for g in got], [g[2] for g in got]
    unpaired = _unpaired_if_one_to_one(k_keys, r_keys)
    return None if unpaired is None else ([g[0] for g in got], unpaired, k_keys, r_keys)


def _unpaired_if_one_to_one(key_keys: list[list[str]], response_keys: list[list[str]]) -> list[str] | None:
    """What :func:`plan_units` finds for shards paired one to one, in one pass: the response documents in no key
    shard, when no document is in two shards of a side and every response document of the key is in the key
    shard of its own pair; else None (:func:`plan_units` then plans, and reports, the general case)."""
    owner: dict[str, int] = {}
    for i, docs in enumerate(key_keys):
        for name in docs:
            if owner.setdefault(name, i) != i:
                return None
    seen: dict[str, int] = {}
    for i, docs in enumerate(response_keys):
        for name in docs:
            if seen.setdefault(name, i) != i or owner.get(name, i) != i:
                return None
    return [name for name in seen if name not in owner]


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


def _check_reads(parts: list, infos: list, skip_bad: bool) -> tuple[list, list[str]]:
    """What each part read tells (names, summary); a part that failed raises (or, with ``skip_bad``, gets None
    and is listed)."""
    out, skipped = [], []
    for part, got in zip(parts, infos):
        if isinstance(got, BaseException):
            if not skip_bad:
                raise got
            skipped.append(str(got))
            out.append(None)
        else:
            out.append(got)
    if skipped and all(n is None for n in out):
        raise InputError("every shard failed; the first: " + skipped[0])
    return out, skipped


def _ticker(progress, what: str, total: int):
    done = [0]

    def tick() -> None:
        done[0] += 1
        if progress is not None:
            progress(what, done[0], total)

    return tick


class ProgressBar:
    """``reading 12/32 shards  3.1/s  ETA 6 s`` on one line of stderr (a terminal only)."""

    def __init__(self, stream=None):
        self.stream = stream or sys.stderr
        self.started: dict[str, float] = {}

    def __call__(self, what: str, done: int, total: int) -> None:
        now = time.monotonic()
        start = self.started.setdefault(what, now)
        rate = done / (now - start) if now > start else 0.0
        eta = f"  ETA {(total - done) / rate:.0f} s" if rate and done < total else ""
        end = "\n" if done == total else ""
        print(f"\r{what} {done}/{total} parts  {rate:.1f}/s{eta}   ", end=end, file=self.stream, flush=True)


def parse_size(text: str) -> int:
    """``64M``, ``1G``, ``500000`` -> bytes."""
    units = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    t = text.strip().upper().removesuffix("B")
    unit = t[-1:] if t[-1:] in "KMG" else ""
    try:
        value = float(t[:len(t) - len(unit)])
    except ValueError:
        raise UsageError(f"--batch-size {text!r}: give bytes, e.g. 64M or 1G") from None
    if value <= 0:
        raise UsageError(f"--batch-size {text!r}: must be positive")
    return int(value * units[unit])
