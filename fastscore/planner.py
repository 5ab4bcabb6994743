"""Which files make a corpus, and which of its parts are scored together: the pure planning of corpora of shards
(no reading, no executor).  ``shards.py`` runs what is planned here; ``explain`` pairs its files with it too.

- :func:`shard_files`: the files of a folder (the task's extensions, maybe gzipped) or of a glob pattern; a path
  named like a shard that is no file is an error saying what it is, never a shard left out;
- :func:`plan_units`: parts linked by shared document names, grouped into units (a document in two parts of one
  side is an error).
"""
from __future__ import annotations

import glob
import os
from dataclasses import dataclass
from typing import Sequence

from .errors import InputError, UsageError
from .formats.files import not_a_file
from .messages import shown
from .outputs import is_hidden


@dataclass
class Unit:
    key: list[int]  # indices of key parts
    response: list[int]  # indices of response parts


def is_corpus(spec: str, task) -> bool:
    """Whether an input names a set of shards: a glob pattern, or a folder holding files of the task's
    extensions (another folder, such as NAF documents, is one input the task reads itself)."""
    if spec == "-" or task.corpus is None:
        return False
    if glob.has_magic(spec) and not os.path.exists(spec):
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
    if glob.has_magic(spec) and not os.path.exists(spec):
        files = _files([f for f in glob.glob(spec, recursive=True) if not is_hidden(f)], task)
        if not files:
            raise UsageError(f"{spec}: the pattern matches no file")
        return files
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
            units.setdefault(root(k), Unit([], []))
    for k in range(len(key_parts)):
        if key_names[k] is not None:
            units[root(k)].key.append(k)
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
