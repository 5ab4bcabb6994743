"""Scoring a CoNLL-2011/2012 response against a key (see :func:`fastscore.api.score_coref`)."""
from __future__ import annotations

import os
from typing import Iterable

from ..errors import InputError, UsageError
from ..formats.conll import read_conll
from ..formats.table import MentionTable
from ..messages import few
from ..metrics import named, resolve
from .engine import align_documents, score_aligned
from .result import CorefResult


def read(source: str | os.PathLike | MentionTable) -> MentionTable:
    """A mention table, read once (an already-read table is returned as it is)."""
    return source if isinstance(source, MentionTable) else read_conll(source)


def score_coref(key, response, metrics: Iterable[str] | None = None, *, singletons: str = "keep",
                doc: str | None = None, allow_repeated: bool = False) -> CorefResult:
    """See :func:`fastscore.api.score_coref`."""
    names = resolve(metrics)
    if singletons not in ("keep", "drop"):
        raise UsageError(f"singletons must be 'keep' or 'drop', not {singletons!r}")
    k, r = read(key), read(response)
    if singletons == "drop":
        k, r = k.without_singletons(), r.without_singletons()
    warnings = _check_documents(k, r, doc)
    aligned = align_documents(k, r, doc)
    scored = score_aligned(aligned, allow_repeated=allow_repeated, response_path=r.path)
    missing = [n for n, found in zip(aligned.doc_names, aligned.r_found) if not found]
    if missing:
        warnings.append(f"{r.path}: {len(missing)} key document(s) missing from the response, scored as empty: "
                        + few(missing))
    if scored.repeated:
        warnings.append(f"{r.path}: {scored.repeated} repeated response mention(s) of key spans dropped")
    options = {"singletons": singletons}
    if doc is not None:
        options["doc"] = doc
    return CorefResult(scored.stats, names, k.path, r.path, options, warnings, missing, tables=(k, r),
                       asked=tuple(named(metrics)))


def _check_documents(key: MentionTable, response: MentionTable, doc: str | None) -> list[str]:
    """A response that shares no document with the key is a mistake (wrong file, or document names that
    differ), not a score of 0; response documents the key does not have are ignored, with a warning."""
    names = set(key.doc_names)
    extra = [n for n in response.doc_names if n not in names]
    if doc is None and response.doc_names and len(extra) == len(response.doc_names):
        raise InputError(f"{response.path}: the response shares no document with the key ({key.path}): key "
                         f"documents {few(key.doc_names, 3)}; response documents {few(response.doc_names, 3)} "
                         "(the names after '#begin document', part included, must be the same)")
    if extra:
        return [f"{response.path}: {len(extra)} response document(s) not in the key, ignored: {few(extra)}"]
    return []
