"""Reading and scoring a triple pair: the engine's steps in order, then the result."""
from __future__ import annotations

from .._gc import collector_paused
from .engine import converted, inputs_of, prepare, range_warnings, read, run
from .metrics import doc_stats
from .options import resolve_options
from .result import TriplesResult, run_warnings

__all__ = ["read", "score_triples"]


def score_triples(gold, system, *, ignore_relations: bool = False, exact_ids: bool = False,
                  token_range: str | None = None, relation_filter: str | None = None,
                  relation_map: str | None = None, ignore_file_suffix: int = 0, dedup: str = "auto",
                  skip_time_and_location: bool = False, location_defect: bool = False, layers=None,
                  intersect: bool = False, fix_module_quirks: bool = False) -> TriplesResult:
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
    dedup : ``auto`` | ``overlap`` | ``exact`` — how a gold triple matched twice is told apart (see docs/triples.md).
    skip_time_and_location : drop TIME and LOCATION triples.  location_defect : drop every LOCATION triple,
        as the module does by an operator-precedence defect.
    layers, intersect : NAF/KAF input, converted in memory (see :mod:`fastscore.triples.convert`).
    fix_module_quirks : files read as their encoding says and malformed XML refused, where the module reads them
        otherwise (a BOM, an XML declaration it ignores, triples before an XML error): not official.

    Precision = correct / unique system triples in scope, recall = correct / gold triples,
    F1 = 2PR / (P + R); see :mod:`fastscore.kernels.triples` for "correct" and "unique".
    """
    with collector_paused():
        opts = resolve_options(ignore_relations=ignore_relations, exact_ids=exact_ids, token_range=token_range,
                               relation_filter=relation_filter, relation_map=relation_map,
                               ignore_file_suffix=ignore_file_suffix, dedup=dedup,
                               skip_time_and_location=skip_time_and_location, location_defect=location_defect,
                               layers=layers, intersect=intersect, fix_module_quirks=fix_module_quirks)
        g0, s0 = read(gold), read(system)
        g, s = converted(g0, opts), converted(s0, opts)
        prep = run(prepare(g, s, opts))
        naf = g0.naf is not None or s0.naf is not None
        result = TriplesResult(doc_stats(prep), inputs_of(prep, naf), _prepared=prep)
        result.warnings = run_warnings(result, g.warnings, s.warnings) + range_warnings(prep)
        return result
