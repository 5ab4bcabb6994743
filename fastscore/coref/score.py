"""Scoring a CoNLL-2011/2012 response against a key (see :func:`fastscore.api.score_coref`)."""
from __future__ import annotations

import os
from typing import Iterable

from ..errors import UsageError
from ..formats.conll import read_conll
from ..formats.table import MentionTable
from ..metrics import resolve
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
    aligned = align_documents(k, r, doc)
    scored = score_aligned(aligned, allow_repeated=allow_repeated, response_path=r.path)
    missing = [n for n, found in zip(aligned.doc_names, aligned.r_found) if not found]
    warnings = []
    if missing:
        warnings.append(
            f"{r.path}: {len(missing)} key document(s) missing from the response, scored as empty: "
            + ", ".join(f'"{n}"' for n in missing[:5]) + (" ..." if len(missing) > 5 else "")
        )
    if scored.repeated:
        warnings.append(f"{r.path}: {scored.repeated} repeated response mention(s) of key spans dropped")
    options = {"singletons": singletons}
    if doc is not None:
        options["doc"] = doc
    return CorefResult(scored.stats, names, k.path, r.path, options, warnings, missing, tables=(k, r))
