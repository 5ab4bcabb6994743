"""Where the work of a corpus runs: this process, a pool of local processes, or Dask workers.

An executor runs a module-level function on lists of arguments (:meth:`LocalExecutor.run`,
:meth:`DaskExecutor.run`) and hands each value back as it comes, a :class:`~fastscore.errors.FastscoreError` raised
by the function as a value (one bad part does not lose the others); a worker that dies or memory that runs out is
one :class:`~fastscore.errors.ResourceError` naming the files it had.  What is run (reading parts, scoring units)
is :mod:`fastscore.shards`'; which parts there are, :mod:`fastscore.planner`'s.
"""
from __future__ import annotations

import contextlib
import os
import sys

from ._isolation import no_working_folder_in_children
from .errors import FastscoreError, ResourceError, UsageError, out_of_memory, while_doing

def cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


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

    def start(self, task_name: str | None, n_items: int, part=None):
        """The pool, its workers started now (no more than ``n_items``), ready for ``task_name`` and for parts like
        ``part`` (:func:`prepare_to_fork`), while this process plans the run; None: the work runs here."""
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

    keeps_values = False  # values come back to this process (DaskExecutor's may stay on the workers)

    def run(self, fn, argument_lists: list[tuple], on_done, sizes: list[int] | None = None,
            files: list[list[str]] | None = None, doing: str | None = None) -> list:
        """``fn(*args)`` for each argument tuple; ``on_done(i, value_or_exception)`` as each ends.  With
        ``sizes`` (bytes of each item's input), the largest items go first, so that no worker is left with a
        large one at the end.  ``files``: each item's files, named (with what was ``doing``) when memory runs
        out or a worker dies on it (a :class:`~fastscore.errors.ResourceError`)."""
        pool = self.start(None, len(argument_lists))
        out: list = [None] * len(argument_lists)
        files = files or [[] for _ in argument_lists]
        if pool is None:
            for i, args in enumerate(argument_lists):
                try:
                    out[i] = _call(fn, args)
                except MemoryError:
                    raise out_of_memory(files[i], doing, True) from None
                on_done(i, out[i])
            return out
        from concurrent.futures import as_completed
        from concurrent.futures.process import BrokenProcessPool

        groups = in_chunks(largest_first(len(argument_lists), sizes), sizes, self.jobs * CHUNKS_PER_WORKER)
        futures = {}
        with self._starting_workers():  # a pool not started yet forks its workers at the first submission
            for group in groups:
                self.chunks.append([f for i in group for f in files[i]])  # numbered by its place in the list
                futures[pool.submit(_packed_calls, fn, Packed([argument_lists[i] for i in group]),
                                    len(self.chunks) - 1)] = group
        waiting = dict(futures)
        for future in as_completed(futures):
            del waiting[future]
            try:
                values = future.result().unpack()
            except BrokenProcessPool:
                unfinished = [f for group in [futures[future], *waiting.values()] for i in group for f in files[i]]
                raise self._worker_died(doing, unfinished) from None
            except MemoryError:
                raise out_of_memory([f for i in futures[future] for f in files[i]], doing, True) from None
            for i, value in zip(futures[future], values):
                out[i] = value
                on_done(i, value)
        return out

    def _worker_died(self, doing: str | None, unfinished: list[str]) -> ResourceError:
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
        return worker_died(files, ended[died[0]] if died else None, doing)


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
    return ResourceError(f"a worker process {how}{while_doing(files, doing)}: no result{hint}")


KILLED_HINT = "the system kills a process that runs out of memory: try fewer --jobs or a smaller --batch-size"




def largest_first(n: int, sizes: list[int] | None) -> list[int]:
    """Indices of ``n`` items, the largest first (ties and no sizes: in order)."""
    return list(range(n)) if sizes is None else sorted(range(n), key=lambda i: -sizes[i])


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
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the whole process group gets Ctrl-C: the parent stops the run
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

    keeps_values = True  # a value sent to another task stays on the workers (its future)

    def __init__(self, jobs: int, scheduler: str | None):
        from dask.distributed import Client  # installed: checked with the Settings (shards.Settings)

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
        """A LocalCluster of ``n_workers`` processes, started from a forkserver with fastscore preloaded
        (:func:`_forkserver_workers`)."""
        import logging

        import dask
        from dask.distributed import Client, LocalCluster

        self._config = contextlib.ExitStack()  # Dask settings in force while the cluster lives
        started = _forkserver_workers()
        if started is not None:
            self._config.enter_context(started)
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

    def start(self, task_name: str, n_items: int, part=None) -> None:
        """A LocalCluster started (no more workers than items; each warms up as it starts, as a deployment's
        workers started with ``--preload fastscore.shards`` do)."""
        if self._client is None:
            self._start_cluster(max(1, min(self.jobs, n_items)))

    def submit(self, fn, argument_lists: list[tuple], sizes: list[int] | None = None) -> list:
        """Futures of ``fn(*args)`` for each argument tuple, left on the workers (a future given in another's
        arguments is its value there).  The largest items are submitted first: Dask runs a client's tasks in
        the order they came."""
        futures: list = [None] * len(argument_lists)
        for i in largest_first(len(argument_lists), sizes):
            futures[i] = self.client.submit(_on_worker, fn, argument_lists[i], pure=False)
        return futures

    def run(self, fn, argument_lists: list[tuple], on_done, sizes: list[int] | None = None,
            files: list[list[str]] | None = None, doing: str | None = None) -> list:
        """As :meth:`LocalExecutor.run`, on the Dask workers."""
        from dask.distributed import as_completed

        futures = self.submit(fn, argument_lists, sizes)
        index = {f.key: i for i, f in enumerate(futures)}
        out: list = [None] * len(futures)
        for future in as_completed(futures):
            i = index[future.key]
            out[i] = dask_result(future, files[i] if files else [], doing)
            on_done(i, out[i])
        return out


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
        raise ResourceError(f"Dask workers died{while_doing(files, doing)} (each worker that took them): no result "
                            f"({KILLED_HINT})") from None



def _on_worker(fn, args):
    """A Dask task: :func:`_call`, one kernel thread per worker."""
    _one_thread_each()
    return _call(fn, args)



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


def _forkserver_workers():
    """Dask's settings that start a LocalCluster's workers from a forkserver (Linux, unless the user chose a start
    method other than Dask's default, spawn), each preloading ``fastscore.shards`` (``dask_setup``: fastscore and
    its compiled kernels loaded as it starts, where a spawned worker would load them in its first task).  Not
    forked from this process: Dask's event loop runs in a thread here, and a thread that holds a lock (a stream's,
    while it writes) when the process forks leaves the child waiting on that lock for ever (a worker was seen
    stuck flushing standard error).  The settings are in force while the cluster lives."""
    import dask

    key = "distributed.worker.multiprocessing-method"
    if not sys.platform.startswith("linux") or dask.config.get(key, "spawn") != "spawn":
        return None
    preload = [*dask.config.get("distributed.worker.preload", []), "fastscore.shards"]
    return dask.config.set({key: "forkserver", "distributed.worker.preload": preload})


def executor_for(settings) -> LocalExecutor | DaskExecutor:
    """The executor of a run's settings (:class:`fastscore.shards.Settings`, checked when made)."""
    jobs = cores() if settings.jobs is None else settings.jobs
    return DaskExecutor(jobs, settings.scheduler) if settings.executor == "dask" else LocalExecutor(jobs)

