"""Reading and scoring a TempEval-3 gold/system pair: the toolkit's steps in order, then the result.

Per document (gold and system files of the same name; two single files are one document):
normalise both annotations (:mod:`.normalize`), count entity matches (:mod:`.entities`) and
score the relations (:mod:`.relations`); the per-document counts form the ``DocStats`` every
reported number comes from.
"""
from __future__ import annotations

import os

import numpy as np

from ..errors import InputError, InputNotFound, UsageError
from ..formats.files import not_a_file
from ..formats.timeml import TimemlInput, read_timeml
from ..messages import shown
from ..pairing import pair
from ..stats.docstats import DocStats
from . import PAIRING
from .awareness import ZeroWeightError
from .entities import columns as entity_columns
from .entities import entity_counts
from .metrics import REL_COLUMNS, TEMPORAL_COLUMNS, TEMPORAL_METRICS
from .normalize import normalise
from .relations import METHODS, score_relations
from .result import TemporalResult, schema_warnings


def read(source) -> TimemlInput:
    """A TimeML file or folder, ``-`` for standard input (or an already-read input)."""
    if isinstance(source, TimemlInput):
        return source
    if isinstance(source, (str, os.PathLike)) and os.fspath(source) != "-" and not os.path.exists(source):
        path = os.fspath(source)
        raise InputNotFound(path, not_a_file(path) if os.path.islink(path) else "no such file or folder")
    return read_timeml(source)


def pairs(gold: TimemlInput, system: TimemlInput) -> list[tuple[str, object, object]]:
    """(name, gold document, system document) in gold name order; the system must have exactly the gold's
    documents (as the toolkit's normaliser requires), except that two single files are one document."""
    if not gold.folder and not system.folder:
        (name, g), = gold.documents.items()
        (_, s), = system.documents.items()
        return [(name, g, s)]
    paired = pair(gold.documents, system.documents, PAIRING)
    missing, extra = paired.missing, paired.extra
    if missing or extra:
        what = [f"no system file for {len(missing)} gold document(s) (first: {missing[0]!r})"] if missing else []
        if extra:
            what.append(f"{len(extra)} system file(s) not in the gold (first: {extra[0]!r})")
        raise InputError(f"{system.path}: {'; '.join(what)}: the gold ({gold.path}) and the system must hold the same "
                         "files, as the toolkit's normaliser requires")
    return paired.pairs


def score_temporal(gold, system, *, evaluation_method: str = "te3", fix_toolkit_quirks: bool = False,
                   relations_only: bool = False, entities_only: bool = False) -> TemporalResult:
    """Score TimeML relations (temporal awareness) and entities (events, TIMEX3s) as the TempEval-3
    toolkit does (``evaluation_method``: the toolkit's te3, acl11 or implicit_in_recall)."""
    method = evaluation_method
    if method not in METHODS:
        raise UsageError(f"unknown method {method!r}: choose from {', '.join(METHODS)}")
    if relations_only and entities_only:
        raise UsageError("--relations-only and --entities-only exclude each other")
    g, s = read(gold), read(system)
    docs = pairs(g, s)
    cols: dict[str, list[float]] = {c: [] for c in TEMPORAL_COLUMNS}
    notes: list[str] = []
    for name, gd, sd in docs:
        notes += _normaliser_stops(gd, sd, fix_toolkit_quirks)
        pair = normalise(gd, sd, fix_toolkit_quirks)
        notes += pair.warnings
        ent = entity_counts(pair) if not relations_only else dict.fromkeys(entity_columns(), 0)
        for c, v in ent.items():
            cols[c].append(v)
        if entities_only:
            rel = (0, 0, 0, 0)
        else:
            try:
                c = score_relations(pair.gold.relations, pair.system.relations, method, exact=fix_toolkit_quirks)
            except ZeroWeightError as exc:
                raise InputError(f'{sd.path}: document "{shown(name)}": implicit_in_recall: the weight 0.99 / (1 + '
                                 f"n(n-1)/2 - matched) divides by zero ({exc}); the toolkit stops with "
                                 "ZeroDivisionError here (more verified gold relations than pairs of intervals: two "
                                 "relations between the same intervals); --fix-toolkit-quirks scores it") from None
            rel = (c.precision_matched, c.system, c.recall_matched, c.gold)
        for col, v in zip(REL_COLUMNS, rel):
            cols[col].append(v)
    issues = [i for _, gd, sd in docs for d in (gd, sd) for i in (d.schema_issues or ())]
    names = [n for n, _, _ in docs]
    stats = DocStats.from_columns(names, {c: np.asarray(v, np.float64) for c, v in cols.items()}, TEMPORAL_METRICS,
                                  TEMPORAL_COLUMNS)
    parts = ("relations",) if relations_only else ("entities",) if entities_only else ("relations", "entities")
    return TemporalResult(g, s, method, fix_toolkit_quirks, parts, stats, schema_warnings(issues) + _summary(notes),
                          schema_issues=issues)


def _normaliser_stops(gd, sd, fix: bool) -> list[str]:
    """The toolkit's normaliser stops on some characters of a TEXT and scores nothing: an error, or under
    --fix-toolkit-quirks a note that the text is scored as it reads."""
    stops = [d.normaliser_stop for d in (gd, sd) if d.normaliser_stop]
    if not stops:
        return []
    if not fix:
        raise InputError(f"{stops[0]}: the toolkit's normaliser stops on this character (merge_tok_n_tml: \"Distinct "
                         "chars\": `|`, a Unicode blank other than space, tab and line ends, or a character or "
                         "entity reference other than &amp;) and scores nothing; --fix-toolkit-quirks scores the "
                         "text as it reads")
    return [f"{stops[0]}: the toolkit's normaliser stops on this character and scores nothing; scored as the text "
            "reads (--fix-toolkit-quirks)"]


def _summary(notes: list[str]) -> list[str]:
    """Notes on how the toolkit reads the input: one warning, the first of them named."""
    if not notes:
        return []
    return [f"{len(notes)} place(s) where the official toolkit reads the input unusually (fastscore gives its "
            f"figures unless --fix-toolkit-quirks says otherwise); first: {notes[0]}"]
