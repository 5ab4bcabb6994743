"""Which files make a corpus, and which of its parts are scored together: the pure planning of corpora of shards
(no document is parsed, no executor: a file larger than the batch size is only cut at document starts).  ``shards.py``
runs what is planned here; ``explain`` pairs its files with it too.
"""
from __future__ import annotations

import functools
import glob
import os
from dataclasses import dataclass
from typing import Sequence

from .errors import InputError, InputNotFound, UsageError
from .formats.files import not_a_file
from .messages import shown
from .outputs import is_hidden

DEFAULT_BATCH_BYTES = 256 << 20


@dataclass
class Unit:
    key: list[int]  # indices of key parts
    response: list[int]  # indices of response parts


def is_pattern(spec: str) -> bool:
    """Whether an input is a glob pattern (not a file whose name has ``*``, ``?`` or ``[``)."""
    return glob.has_magic(spec) and not os.path.exists(spec)


def is_corpus(spec: str, task) -> bool:
    """Whether an input names a set of shards: a glob pattern, or a folder holding files of the task's
    extensions (another folder, such as NAF documents, is one input the task reads itself)."""
    if spec == "-" or task.corpus is None:
        return False
    if is_pattern(spec):
        return True
    return os.path.isdir(spec) and bool(_folder_files(spec, task))


def _folder_files(folder: str, task) -> list[str]:
    if task.corpus is not None and task.corpus.folder_files is not None:
        return task.corpus.folder_files(folder)
    endings = _shard_endings(task)
    return _files([os.path.join(folder, f) for f in os.listdir(folder) if f.endswith(endings) and not is_hidden(f)],
                  task)


def _shard_endings(task) -> tuple[str, ...]:
    return tuple(task.extensions) + tuple(e + ".gz" for e in task.extensions)


def _files(paths: list[str], task) -> list[str]:
    """The files among paths (sorted); a path named like a shard (the task's extensions, maybe gzipped) that is no
    file (a folder, a link to one or to nothing) is an InputError saying what it is, not a shard left out."""
    endings = _shard_endings(task)
    out = []
    for path in sorted(paths):
        if os.path.isfile(path):
            out.append(path)
        elif path.endswith(endings):
            raise InputError(f"{shown(path)}: {not_a_file(path) or 'not a regular file'}")
    return out


def shard_files(spec: str, task) -> list[str]:
    """The files of a folder (those with the task's extensions, maybe gzipped; sorted) or
    of a glob pattern (sorted), or the file itself."""
    if os.path.isdir(spec):
        files = _folder_files(spec, task)
        if not files:
            raise UsageError(f"{spec}: the folder has no {' or '.join('*' + e for e in task.extensions)} file")
        return files
    if is_pattern(spec):
        files = _files([f for f in glob.glob(spec, recursive=True) if not is_hidden(f)], task)
        if not files:
            raise InputNotFound(spec, "the pattern matches no file")
        return files
    reason = not_a_file(spec) if spec != "-" and not os.path.exists(spec) else None
    if reason is not None:  # one side a corpus, the other missing: said here, before any worker stats it
        raise InputNotFound(spec, reason)
    return [spec]


def plan_units(key_names: Sequence[list[str] | None], response_names: Sequence[list[str] | None],
               key_parts: list, response_parts: list) -> tuple[list[Unit], list[str]]:
    """Units of parts linked by shared documents (key parts in order), and the response documents of no key
    part.  ``None`` names: a part left out.  A document in two parts of one side is an InputError."""
    key_at = _owners(key_names, key_parts)
    response_at = _owners(response_names, response_parts)
    parent = list(range(len(key_parts)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    # key parts joined when one response part holds documents of both
    response_key: dict[int, int] = {}
    for name, r in response_at.items():
        k = key_at.get(name)
        if k is None:
            continue
        first = response_key.setdefault(r, k)
        a, b = root(first), root(k)
        if a != b:
            parent[max(a, b)] = min(a, b)
    units: dict[int, Unit] = {}
    for k, names in enumerate(key_names):
        if names is not None:
            units.setdefault(root(k), Unit([], [])).key.append(k)
    for r, k in sorted(response_key.items()):
        units[root(k)].response.append(r)
    unpaired = [name for name, r in response_at.items() if name not in key_at]
    return [units[k] for k in sorted(units)], unpaired


def _owners(names: Sequence[list[str] | None], parts: list) -> dict[str, int]:
    owner: dict[str, int] = {}
    for i, docs in enumerate(names):
        for name in docs or ():
            j = owner.setdefault(name, i)
            if j != i and not name:
                raise InputError(f"{parts[j]} and {parts[i]} both hold a document without a name (a bare "
                                 '"#begin document" line): name the documents to score the files as one corpus, '
                                 "or score them one pair of files at a time")
            if j != i:
                raise InputError(f'document "{shown(name)}" is in two shards: {parts[j]} and {parts[i]} '
                                 "(a document must be in one shard only)")
    return owner


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
    patterns = [s for s in (gold, system) if is_pattern(s)]
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
    return list(_cached_batches(task.corpus.batches, path, batch_bytes, stat.st_size, stat.st_mtime_ns))


@functools.lru_cache(maxsize=16)
def _cached_batches(batches, path: str, batch_bytes: int, size: int, mtime_ns: int) -> tuple:
    return tuple(batches(path, batch_bytes))



def part_size(part) -> int:
    """Bytes of a part: a batch's span, a file's size (0 when unknown)."""
    if isinstance(part, str):
        try:
            return os.path.getsize(part)
        except OSError:
            return 0
    start, end = getattr(part, "start", None), getattr(part, "end", None)
    return end - start if isinstance(start, int) and isinstance(end, int) else 0


def parts_expected(files: list, batch_bytes: int | None) -> int:
    """How many parts ``files`` will make (a file larger than ``batch_bytes`` is cut into batches), from their
    sizes alone: the pool is started before the parts are planned, and never grows."""
    if not batch_bytes:
        return len(files)
    return sum(max(1, -(-part_size(f) // batch_bytes)) for f in files)



def unpaired_if_one_to_one(key_keys: list[list[str]], response_keys: list[list[str]]) -> list[str] | None:
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
