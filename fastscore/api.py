"""The public Python API."""
from __future__ import annotations

import os
from typing import Iterable

from .coref.result import CorefResult
from .errors import UsageError
from .formats.table import MentionTable

PathOrTable = "str | os.PathLike | MentionTable"


def read_conll(path: str | os.PathLike) -> MentionTable:
    """Read a CoNLL-2011/2012 coreference file (see :mod:`fastscore.formats.conll`)."""
    from .formats.conll import read_conll as _read

    return _read(path)


def _table(x) -> MentionTable:
    return x if isinstance(x, MentionTable) else read_conll(x)


def score_coref(
    key,
    response,
    metrics: Iterable[str] | None = None,
    *,
    singletons: str = "keep",
    doc: str | None = None,
    allow_repeated: bool = False,
) -> CorefResult:
    """Score a coreference response against a key, as the CoNLL-2012 scorer v8.01 does.

    Parameters
    ----------
    key, response : path or MentionTable
        CoNLL-2011/2012 files (or tables read with :func:`read_conll`).
    metrics : names from ``muc, bcub, ceafm, ceafe, blanc, lea, conll, all`` (default all).
    singletons : ``keep`` (v8.01) or ``drop`` (remove one-mention clusters from both sides first).
    doc : score only this key document.
    allow_repeated : score a response with more than 10 repeated mentions (v8.01 refuses).

    Returns
    -------
    CorefResult
        ``.scores()``, ``.document(name)``, ``.to_dict()``, ``.to_arrow()`` and
        ``.doc_stats`` (per-document numerators and denominators).
        Recall = num/den, Precision = num/den, F1 = 2PR/(P+R) for every metric;
        see README.md for each metric's numerator and denominator.
    """
    from .coref.engine import align_documents, score_aligned
    from .metrics import resolve

    names = resolve(metrics)
    if singletons not in ("keep", "drop"):
        raise UsageError(f"singletons must be 'keep' or 'drop', not {singletons!r}")
    k, r = _table(key), _table(response)
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
    result = CorefResult(scored.stats, names, k.path, r.path, options, warnings, missing)
    result._scored = scored  # kept for the v8.01-layout report
    result._tables = (k, r)
    return result
