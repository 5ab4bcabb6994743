"""Scoring a pair of TBF files: the engine's steps in order, then the result."""
from __future__ import annotations

from .._gc import collector_paused
from ..coref.engine import align_documents, score_aligned
from ..formats.tbf import TbfFile, read_tbf
from .engine import align, coref_tables, prepare
from .metrics import nugget_doc_stats
from .options import resolve_options
from .quirks import evmeval_reading, fixed_reading
from .result import NuggetResult
from .sequencing import score_sequencing


def read(source, allow_empty: bool = False) -> TbfFile:
    """A TBF file, read once (an already-read :class:`TbfFile` is returned as it is; a list of mention records
    is read as the TBF file it would be written as); ``allow_empty``:
    a blank file is a file without documents (a system that found nothing)."""
    if isinstance(source, TbfFile):
        return source
    if isinstance(source, (list, tuple)):  # mention records in memory (formats/records.py)
        from ..formats.records import read_records

        return read_records(source, "<gold records>" if not allow_empty else "<system records>")
    return read_tbf(source, allow_empty)


def score_nugget(gold, system, *, doc: str | None = None, **options) -> NuggetResult:
    """See :func:`fastscore.api.score_nugget`."""
    with collector_paused():
        opts = resolve_options(**options)
        g, s = read(gold), read(system, allow_empty=True)
        if opts.fix_evmeval_quirks:
            g, s = fixed_reading(g), fixed_reading(s)
        read_s, notes = evmeval_reading(g, s, opts)
        prep = prepare(g, read_s, opts, doc)
        prep.warnings[:0] = notes
        al = align(prep, opts)
        coref = None
        if opts.coref:
            key, resp = coref_tables(prep, al, opts)
            coref = score_aligned(align_documents(key, resp), allow_repeated=True).stats
        sequencing = None
        if opts.sequencing:
            sequencing = score_sequencing(prep, al, opts)
            prep.warnings.extend(sequencing.warnings)
        stats = nugget_doc_stats(prep.doc_ids, al, coref, sequencing)
        return NuggetResult(g, s, opts, prep, al, stats, sequencing=sequencing)
