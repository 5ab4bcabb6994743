"""Reading and scoring a triple pair: the engine's steps in order, then the result."""
from __future__ import annotations

import os

from .._gc import collector_paused
from ..errors import UsageError
from ..formats.triples import TripleSet, read_triples
from .engine import prepare, run
from .metrics import doc_stats
from .options import resolve_options
from .result import TriplesResult, precision_above_one


def read(source) -> TripleSet:
    """A triple file or folder, read once (an already-read input is returned as it is)."""
    if isinstance(source, TripleSet):
        return source
    return read_triples(os.fspath(source))


def _converted(ts: TripleSet, opts) -> TripleSet:
    """Triples of a NAF/KAF input (its layers converted in memory); triple input as it is."""
    if ts.naf is None:
        return ts
    if not opts.layers:
        raise UsageError(f"{ts.path}: NAF/KAF input: choose the layers that become triples with --layers "
                         f"(e.g. --layers entity,opinion)")
    from .convert import naf_to_triples

    docs = {name: naf_to_triples(doc, _module_order(opts.layers), opts.intersect, name=name)
            for name, doc in ts.naf.items()}
    return TripleSet(ts.path, docs, folder=ts.folder)


def _module_order(layers):
    return [layer for layer in ("sentiment", "opinion", "entity", "property", "srl") if layer in layers]


def score_triples(gold, system, *, ignore_relations: bool = False, exact_ids: bool = False,
                  token_range: str | None = None, relation_filter: str | None = None,
                  relation_map: str | None = None, ignore_file_suffix: int = 0, dedup: str = "auto",
                  skip_time_and_location: bool = False, location_defect: bool = False, layers=None,
                  intersect: bool = False) -> TriplesResult:
    """Score system triples against gold triples as the Triple evaluation module counts them.

    Parameters
    ----------
    gold, system : path (file or folder) or an already-read :class:`~fastscore.formats.triples.TripleSet`
        Two triple files (one document), or two folders of ``.trp`` files paired by name (cutting
        ``ignore_file_suffix`` characters off each name first).
    ignore_relations, exact_ids : the variant reported as ``triples``: ids intersect (default) or are equal
        (``exact_ids``), relations equal ignoring case (default) or anything (``ignore_relations``).
    token_range : file of token ids; only system triples with a first-element id among them are scored.
    relation_filter, relation_map : files; relations kept (exact names) and ``FROM<TAB>TO`` translations,
        both sides, the filter first.
    dedup : ``auto`` | ``overlap`` | ``exact`` — how a gold triple matched twice is told apart (see README).
    skip_time_and_location : drop TIME and LOCATION triples.  location_defect : drop every LOCATION triple,
        as the module does by an operator-precedence defect.
    layers, intersect : NAF/KAF input, converted in memory (see :mod:`fastscore.triples.convert`).

    Precision = correct / unique system triples in scope, recall = correct / gold triples,
    F1 = 2PR / (P + R); see :mod:`fastscore.kernels.triples` for "correct" and "unique".
    """
    with collector_paused():
        opts = resolve_options(ignore_relations=ignore_relations, exact_ids=exact_ids, token_range=token_range,
                               relation_filter=relation_filter, relation_map=relation_map,
                               ignore_file_suffix=ignore_file_suffix, dedup=dedup,
                               skip_time_and_location=skip_time_and_location, location_defect=location_defect,
                               layers=layers, intersect=intersect)
        g0, s0 = read(gold), read(system)
        g, s = _converted(g0, opts), _converted(s0, opts)
        prep = run(prepare(g, s, opts))
        result = TriplesResult(doc_stats(prep), prep, warnings=list(prep.warnings))
        if opts.layers and g0.naf is None and s0.naf is None:
            result.warnings.append("--layers and --intersect convert NAF/KAF input; both inputs are triple files: "
                                   "ignored")
        result.warnings.extend(precision_above_one(result))
        return result
