"""The public Python API."""
from __future__ import annotations

import os
import warnings
from contextlib import contextmanager
from typing import Iterable

from .coref.result import CorefResult
from .errors import FastscoreWarning, UsageError
from .formats.table import MentionTable
from .tasks import get_task


def _warned(result):
    """Emit a result's warnings through Python's ``warnings`` module (category FastscoreWarning)."""
    for message in getattr(result, "warnings", ()):
        warnings.warn(message, FastscoreWarning, stacklevel=3)
    return result


def read_conll(path: str | os.PathLike) -> MentionTable:
    """Read a CoNLL-2011/2012 coreference file (see :mod:`fastscore.formats.conll`)."""
    from .formats.conll import read_conll as _read

    return _read(path)


def read_tbf(path: str | os.PathLike):
    """Read a TBF event nugget file (see :mod:`fastscore.formats.tbf`)."""
    from .formats.tbf import read_tbf as _read

    return _read(path)


def score_coref(
    key,
    response,
    metrics: Iterable[str] | None = None,
    *,
    singletons: str | None = None,
    doc: str | None = None,
    allow_repeated: bool = False,
    format: str = "auto",
    match: str | None = None,
    zero_match: str | None = None,
    preset: str | None = None,
    cross_document: bool = False,
    mina_variant: str | None = None,
    np_only: bool = False,
    remove_nested: bool = False,
) -> CorefResult:
    """Score a coreference response against a key, as the CoNLL-2012 scorer v8.01 (CoNLL-2012, jsonlines)
    or the CorefUD scorer 1.2 (CoNLL-U) does.

    Parameters
    ----------
    key, response : path or MentionTable
        CoNLL-2011/2012, CoNLL-U or jsonlines files (or tables read with :func:`read_conll`).
    metrics : names from ``muc, bcub, ceafm, ceafe, blanc, lea, conll`` (CoNLL-U also ``mor, zero``) and
        ``all`` (default all); a string or a list, each possibly comma-separated.
    singletons : ``keep`` or ``drop`` (remove one-mention clusters from both sides first); default keep
        for CoNLL-2012 and jsonlines (v8.01), drop for CoNLL-U (the CorefUD scorer).
    doc : score only this key document.
    allow_repeated : score a response with more than 10 repeated mentions (v8.01 refuses).
    format : ``auto`` (from the content), ``conll2012``, ``conllu`` or ``jsonl``.
    match : ``exact``, ``partial`` or ``head`` (CoNLL-U; default head, as the CorefUD scorer); ``mina``
        (CoNLL-2012: minimum spans from the key's parse bits, scored as coval scores them with ``min_span``).
    zero_match : ``dependent`` (zeros paired first by their DEPS, default) or ``linear`` (CoNLL-U).
    preset : ``conll2012``, ``crac2022``, ``crac2023`` or ``crac2024`` (published configurations).
    cross_document : NAF input: each topic (a folder, or ECB+'s ``T_`` names) is one coreference space.
    mina_variant : with ``match="mina"``: ``coval`` (its numbers, default) or ``paper`` (the paper's definition).
    np_only, remove_nested : coval's ``NP_only`` and ``remove_nested`` (CoNLL-2012, exact or mina matching).

    Returns
    -------
    CorefResult
        ``.scores()``, ``.document(name)``, ``.to_dict()``, ``.to_arrow()`` and
        ``.doc_stats`` (per-document numerators and denominators).
        Recall = num/den, Precision = num/den, F1 = 2PR/(P+R) for every metric;
        see docs/coreference.md for each metric's numerator and denominator.
    """
    from .coref.score import score_coref as _score

    return _warned(_score(key, response, metrics, singletons=singletons, doc=doc, allow_repeated=allow_repeated,
                          format=format, match=match, zero_match=zero_match, preset=preset,
                          cross_document=cross_document, mina_variant=mina_variant, np_only=np_only,
                          remove_nested=remove_nested))


def bootstrap(result, resamples: int = 1000, *, level: float = 0.95, seed: int | None = 12345,
              method: str = "percentile"):
    """Attach bootstrap confidence intervals (F1 of every metric) to a result and return it.

    ``result`` is a :class:`CorefResult` or a nugget result (anything with ``doc_stats``
    and ``metrics``).

    Documents are resampled with replacement ``resamples`` times; each
    resample is a sum of per-document statistics (nothing is re-scored).
    ``method`` is ``percentile`` or ``bca``.  ``to_dict()`` then has
    ``"ci": [lo, hi]`` in every metric object.
    """
    from .stats.bootstrap import bootstrap_stats

    result.bootstrap = bootstrap_stats(result.doc_stats, result.metrics, resamples, level, seed, method)
    _warned(result.bootstrap)
    return result


def score(gold, system, *, task: str = "coref", **options):
    """Score ``system`` against ``gold`` with any registered task (``fastscore.tasks.TASKS``);
    ``options`` are the task's keywords (see :func:`score_coref`, :func:`score_nugget`)."""
    t = get_task(task)
    t.check_keywords(options, "score", "command")
    return _warned(t.score(gold, system, **options))


def score_corpus(gold, system, *, task: str = "coref", settings=None, jobs: int | None = None,
                 executor: str = "local", scheduler: str | None = None, batch_size: int | None = None,
                 skip_bad_shards: bool = False, **options):
    """Score a corpus: ``gold`` and ``system`` may be folders or glob patterns of shard files (any format the
    task reads, Parquet too) and files larger than ``batch_size`` bytes are read in batches of whole
    documents.  ``jobs`` processes (default every core), or Dask workers with ``executor="dask"`` (at
    ``scheduler``, or a LocalCluster).  The numbers are those of one file holding every document; the
    result lists skipped shards in ``skipped_shards`` (``skip_bad_shards``).  See :mod:`fastscore.shards`."""
    from .shards import score_corpus as _score

    t = get_task(task)
    t.check_keywords(options, "score", "command")
    if t.merge is None:
        raise UsageError(f"task {t.name!r} scores one pair of inputs: it does not read corpora of shards")
    settings = _corpus_settings(settings, jobs, executor, scheduler, batch_size, skip_bad_shards)
    return _warned(_score(t, os.fspath(gold), os.fspath(system), options, settings))


def _corpus_settings(settings, jobs: int | None, executor: str, scheduler: str | None, batch_size: int | None,
                     skip_bad_shards: bool = False):
    from .shards import DEFAULT_BATCH_BYTES, Settings

    if settings is not None:
        return settings
    return Settings(jobs=jobs, executor=executor, scheduler=scheduler,
                    batch_bytes=batch_size or DEFAULT_BATCH_BYTES, skip_bad=skip_bad_shards)


@contextmanager
def _task_scorer(task: str, key, systems: list, options: dict, settings):
    """A function system -> result for a task, with the key read once; every system must cover exactly the
    key's documents.  Key or systems that are corpora of shards (folders, glob patterns, files to read in
    batches) are scored on one executor (``settings``), opened only when one is."""
    from .shards import executor_for, score_corpus_on, uses_shards
    from .stats.compare import check_same_documents

    t = get_task(task)
    t.check_keywords(options, "score")
    is_path = lambda x: isinstance(x, (str, os.PathLike))
    sharded = lambda s: is_path(key) and is_path(s) and uses_shards(os.fspath(key), os.fspath(s), t,
                                                                    settings.batch_bytes)
    read_key: list = []

    def scored(system, ex=None):
        if ex is not None and sharded(system):
            return score_corpus_on(ex, t, os.fspath(key), os.fspath(system), options, settings, same_documents=True)
        if not read_key:
            gold = t.read(key)
            read_key.append((gold, t.doc_names(gold)))
        gold, names = read_key[0]
        read = t.read(system)
        check_same_documents(names, read.path, t.doc_names(read))
        return t.score(gold, read, **options)

    if not any(sharded(s) for s in systems):
        yield t, scored
        return
    with executor_for(settings) as ex:
        yield t, lambda system: scored(system, ex)


def compare(key, baseline, systems, metric: str | None = None, *, task: str = "coref", test: str = "bootstrap",
            resamples: int = 10000, seed: int | None = 12345, level: float = 0.95, method: str = "percentile",
            settings=None, jobs: int | None = None, executor: str = "local", scheduler: str | None = None,
            batch_size: int | None = None, **options):
    """Paired significance tests of ``systems`` against ``baseline`` on ``metric`` F1.

    ``task`` is any registered task (``coref``: CoNLL files, options ``singletons``,
    ``allow_repeated``; ``nugget``: TBF files, the options of :func:`score_nugget`); ``options``
    are the task's scoring options.  Every system must cover exactly the key's documents.
    ``test`` is ``bootstrap`` (paired bootstrap, Koehn 2004, p-value after Berg-Kirkpatrick
    et al. 2012) or ``permutation`` (approximate randomization); p-values are Holm-Bonferroni
    adjusted over the systems.  See :mod:`fastscore.stats.significance`.  Key and systems may be corpora of
    shards (see :func:`score_corpus`: ``settings``, or ``jobs``, ``executor``, ``scheduler``, ``batch_size``).
    """
    from .stats.compare import compare_stats

    settings = _corpus_settings(settings, jobs, executor, scheduler, batch_size)
    with _task_scorer(task, key, [baseline, *systems], options, settings) as (t, scored):
        metric = metric or t.default_metric
        base = (_name(baseline), scored(baseline).doc_stats)
        base[1].f1(metric, base[1].total())  # an unknown metric fails before the systems are read
        others = [(_name(s), scored(s).doc_stats) for s in systems]
    return _warned(compare_stats(base, others, metric, test, resamples, seed, level, method, task=t.name,
                                 options=_signature_options(t, options)))


def sweep(key, systems, metric: str | None = None, *, task: str = "coref", resamples: int = 0,
          seed: int | None = 12345, level: float = 0.95, method: str = "percentile", progress=None,
          settings=None, jobs: int | None = None, executor: str = "local", scheduler: str | None = None,
          batch_size: int | None = None, **options):
    """Score many systems against one key (read once); best first, with intervals if ``resamples`` > 0.
    Every metric the task reports is shown beside the ranking metric.  Key and systems may be corpora of
    shards (see :func:`compare`)."""
    from .stats.compare import sweep_stats

    settings = _corpus_settings(settings, jobs, executor, scheduler, batch_size)
    rows = []
    shown: list[str] = []
    with _task_scorer(task, key, list(systems), options, settings) as (t, scored):
        metric = metric or t.default_metric
        for n, s in enumerate(systems):
            result = scored(s)
            if n == 0:
                result.doc_stats.f1(metric, result.doc_stats.total())  # an unknown metric fails at once
                shown = list(result.metrics)
            rows.append((_name(s), result.doc_stats))
            if progress is not None:
                progress(n + 1, len(systems))
    return _warned(sweep_stats(rows, metric, shown, resamples, seed, level, method, task=t.name,
                               options=_signature_options(t, options)))


def _signature_options(task, options: dict) -> dict:
    """The task's scoring options as the signature shows them: every option, given or default."""
    return {k.replace("_", "-"): v for k, v in {**task.defaults("score"), **options}.items() if v is not None}


def _name(x) -> str:
    return x.path if hasattr(x, "path") and not isinstance(x, (str, os.PathLike)) else os.fspath(x)


def score_nugget(gold, system, *, preset: str = "kbp2015", tokens: str | None = None, token_ext: str = ".tab",
                 char_spans: bool = False, invisible_words: str | None = None, coref: bool = False,
                 coref_mapping: str = "type", coref_threshold: float = 1.0, type_whitelist: str | None = None,
                 doc: str | None = None, mapping: str = "greedy", per_type_mapping: str = "type+realis",
                 sequencing: bool = False, no_script_validation: bool = False,
                 sequencing_graph: str = "official"):
    """Score TAC KBP event nuggets (TBF files) as the official EvmEval scorer does.

    ``preset`` ``kbp2015`` follows scorer_v1.7.1, ``kbp2016``/``kbp2017`` scorer_v1.8.
    Spans are token ids when ``tokens`` (a folder of token tables) is given or the
    preset defaults to tokens (kbp2015), else character ranges; ``char_spans`` forces
    characters.  ``coref`` adds event coreference (MUC, B-cubed, CEAFe, CEAFm, BLANC
    from fastscore's v8.01-exact engine) on the ``coref_mapping`` alignment with Dice
    >= ``coref_threshold``.  ``mapping="optimal"`` replaces the official greedy
    mapping by a maximum-weight one (not official).  The per-type table uses the
    type+realis mapping, as EvmEval does (a defect); ``per_type_mapping="type"`` corrects it.
    ``sequencing`` scores the @After/@Subevent links with temporal awareness as scorer_v1.8
    ``-a`` does (kbp2016/kbp2017); ``no_script_validation`` accepts links both ways between
    two clusters (``-nv``); ``sequencing_graph="exact"`` replaces the official TempEval-3
    timegraph (incomplete and, after some orders of links, unsound) by the exact closure.

    Returns a :class:`~fastscore.nugget.result.NuggetResult` (``to_dict()``, ``averages()``,
    ``per_type()``, ``coref_scores()``).
    """
    from .nugget.score import score_nugget as _score

    return _warned(_score(gold, system, preset=preset, tokens=tokens, token_ext=token_ext, char_spans=char_spans,
                  invisible_words=invisible_words, coref=coref, coref_mapping=coref_mapping,
                  coref_threshold=coref_threshold, type_whitelist=type_whitelist, doc=doc, mapping=mapping,
                  per_type_mapping=per_type_mapping, sequencing=sequencing,
                  no_script_validation=no_script_validation, sequencing_graph=sequencing_graph))


def score_triples(gold, system, **options):
    """Score triples (NewsReader triple XML, or NAF/KAF layers converted in memory) as the Triple evaluation
    module counts them; the keywords are those of ``fastscore triples`` (see
    :func:`fastscore.triples.score.score_triples`)."""
    from .triples.score import score_triples as _score

    return _warned(_score(gold, system, **options))


def read_triples(path: str | os.PathLike):
    """Read a triple XML file (see :mod:`fastscore.formats.triples`)."""
    from .formats.triples import read_triples as _read

    return _read(path)


def score_temporal(gold, system, *, evaluation_method: str = "te3", fix_toolkit_quirks: bool = False,
                   relations_only: bool = False, entities_only: bool = False):
    """Score TimeML files or folders as the TempEval-3 toolkit does: temporal awareness of the TLINKs
    (``evaluation_method`` te3, acl11 or implicit_in_recall) and the extraction of events and TIMEX3s
    (see :func:`fastscore.temporal.score.score_temporal`)."""
    from .temporal.score import score_temporal as _score

    return _warned(_score(gold, system, evaluation_method=evaluation_method, fix_toolkit_quirks=fix_toolkit_quirks,
                          relations_only=relations_only, entities_only=entities_only))


def read_timeml(path: str | os.PathLike):
    """Read a TimeML file or a folder of them (see :mod:`fastscore.formats.timeml`)."""
    from .formats.timeml import read_timeml as _read

    return _read(path)
