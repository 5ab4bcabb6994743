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


def bootstrap(result: CorefResult, resamples: int = 1000, *, level: float = 0.95, seed: int | None = 12345,
              method: str = "percentile") -> CorefResult:
    """Attach bootstrap confidence intervals (F1 of every metric) to a result and return it.

    Documents are resampled with replacement ``resamples`` times; each
    resample is a sum of per-document statistics (nothing is re-scored).
    ``method`` is ``percentile`` or ``bca``.  ``to_dict()`` then has
    ``"ci": [lo, hi]`` in every metric object.
    """
    from .stats.bootstrap import bootstrap_stats

    result.bootstrap = bootstrap_stats(result.doc_stats, result.metrics, resamples, level, seed, method)
    return result


def _system_stats(k: MentionTable, system, singletons: str, allow_repeated: bool):
    from .stats.compare import check_same_documents

    t = _table(system)
    check_same_documents(k.doc_names, t.path, t.doc_names)
    return score_coref(k, t, singletons=singletons, allow_repeated=allow_repeated).doc_stats


def compare(key, baseline, systems, metric: str = "conll", *, test: str = "bootstrap", resamples: int = 10000,
            seed: int | None = 12345, level: float = 0.95, method: str = "percentile", singletons: str = "keep",
            allow_repeated: bool = False):
    """Paired significance tests of ``systems`` against ``baseline`` on ``metric`` F1.

    Every system must cover exactly the key's documents.  ``test`` is
    ``bootstrap`` (paired bootstrap, Koehn 2004, p-value after
    Berg-Kirkpatrick et al. 2012) or ``permutation`` (approximate
    randomization); p-values are Holm-Bonferroni adjusted over the systems.
    See :mod:`fastscore.stats.significance` for the exact definitions.
    """
    from .metrics import f1_of
    from .stats.compare import compare_stats

    f1_of(metric, _zero_sums())  # an unknown metric fails before any file is read
    k = _table(key)
    base = (_name(baseline), _system_stats(k, baseline, singletons, allow_repeated))
    others = [(_name(s), _system_stats(k, s, singletons, allow_repeated)) for s in systems]
    return compare_stats(base, others, metric, test, resamples, seed, level, method)


def sweep(key, systems, metric: str = "conll", *, resamples: int = 0, seed: int | None = 12345,
          level: float = 0.95, method: str = "percentile", singletons: str = "keep", allow_repeated: bool = False,
          progress=None):
    """Score many systems against one key (read once); best first, with intervals if ``resamples`` > 0."""
    from .metrics import SCORED, f1_of
    from .stats.compare import sweep_stats

    f1_of(metric, _zero_sums())  # an unknown metric fails before any file is read
    k = _table(key)
    scored = []
    for n, s in enumerate(systems):
        scored.append((_name(s), _system_stats(k, s, singletons, allow_repeated)))
        if progress is not None:
            progress(n + 1, len(systems))
    return sweep_stats(scored, metric, [*SCORED, "conll"], resamples, seed, level, method)


def _zero_sums():
    import numpy as np

    from .metrics import COLUMNS

    return np.zeros((1, len(COLUMNS)))


def _name(x) -> str:
    return x.path if isinstance(x, MentionTable) else os.fspath(x)


def score_nugget(gold, system, *, preset: str = "kbp2015", tokens: str | None = None, token_ext: str = ".tab",
                 char_spans: bool = False, invisible_words: str | None = None, coref: bool = False,
                 coref_mapping: str = "type", coref_threshold: float = 1.0, type_whitelist: str | None = None,
                 doc: str | None = None, mapping: str = "greedy", per_type_mapping: str = "type+realis"):
    """Score TAC KBP event nuggets (TBF files) as the official EvmEval scorer does.

    ``preset`` ``kbp2015`` follows scorer_v1.7.1, ``kbp2016``/``kbp2017`` scorer_v1.8.
    Spans are token ids when ``tokens`` (a folder of token tables) is given or the
    preset defaults to tokens (kbp2015), else character ranges; ``char_spans`` forces
    characters.  ``coref`` adds event coreference (MUC, B-cubed, CEAFe, CEAFm, BLANC
    from fastscore's v8.01-exact engine) on the ``coref_mapping`` alignment with Dice
    >= ``coref_threshold``.  ``mapping="optimal"`` replaces the official greedy
    mapping by a maximum-weight one (not official).  The per-type table uses the
    type+realis mapping, as EvmEval does (a defect); ``per_type_mapping="type"`` corrects it.

    Returns a :class:`~fastscore.nugget.result.NuggetResult` (``to_dict()``, ``averages()``,
    ``per_type()``, ``coref_scores()``).
    """
    from .nugget.engine import score_nugget as _score

    return _score(gold, system, preset=preset, tokens=tokens, token_ext=token_ext, char_spans=char_spans,
                  invisible_words=invisible_words, coref=coref, coref_mapping=coref_mapping,
                  coref_threshold=coref_threshold, type_whitelist=type_whitelist, doc=doc, mapping=mapping,
                  per_type_mapping=per_type_mapping)
