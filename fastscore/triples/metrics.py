"""The triple task's metric registry and per-document statistics.

Per document (a file pair), the module's counts:
  gold                 gold triples (after the filters and the map)
  system               system triples in range; out_of_range those outside the token range
  unique_V             system triples in scope, told apart by variant V's match (the precision denominator)
  correct_V            gold triples matched (each counted once, see ``kernels/triples.py``)
  *_first_ids, *_second_ids   ids summed over the triples (average = sum / triples)
  first_gold, first_system, first_correct   non-intersecting first elements of the gold and of the
                       system triples, and the system ones whose ids meet a gold element with an agreeing
                       label (``Util.compareElements``); first_system_out those of out-of-range triples;
                       second_* the same for second elements
  gold_triple_ids, system_triple_ids  distinct triple ids
  gold_repeats         gold triples the run would not count were the gold file the system (duplicates and
                       overlaps of other gold triples: recall stays below 1 even for the gold file itself)
Variant V: ``pr`` partial ids and same relation, ``p`` partial ids, ``xr`` exact ids and same relation,
``x`` exact ids.  Precision = correct_V / unique_V, recall = correct_V / gold, F1 = 2PR / (P + R).

Further columns, one per name: ``relation<TAB>R<TAB>gold|system|correct_pr|correct_p|correct_xr|correct_x|
all`` (system: unique per relation; all: every in-range system triple), ``profile<TAB>P<TAB>...``,
``first_label_match<TAB>L``, ``first_label_mismatch<TAB>G:S`` (and ``second_...``).
"""
from __future__ import annotations

from itertools import chain

import numpy as np

from ..metrics import MetricSpec, name_registries, ratio_score
from ..stats.docstats import DocStats

SHORT = {"partial": "pr", "partial-any-relation": "p", "exact": "xr", "exact-any-relation": "x"}
BASE = ("gold", "system", "out_of_range", *(f"{c}_{v}" for v in ("pr", "p", "xr", "x") for c in ("unique", "correct")),
        "gold_first_ids", "gold_second_ids", "system_first_ids", "system_second_ids",
        "first_gold", "first_system", "first_correct", "first_system_out",
        "second_gold", "second_system", "second_correct", "second_system_out",
        "gold_triple_ids", "system_triple_ids", "gold_repeats")
SEP = "\t"
RELATION_STATS = ("gold", "system", "all", "correct_pr", "correct_p", "correct_xr", "correct_x")
PROFILE_STATS = ("total", "pr", "p", "xr", "x")
LABEL_TABLES = ("first_label_match", "first_label_mismatch", "second_label_match", "second_label_mismatch")


def _variant_metric(name: str, variant: str, description: str) -> MetricSpec:
    v = SHORT[variant]
    return MetricSpec(name, name, (f"correct_{v}", f"unique_{v}", "gold"),
                      ratio_score(f"correct_{v}", f"unique_{v}", f"correct_{v}", "gold"), description)


def registry(variant: str) -> dict[str, MetricSpec]:
    """The registry of a run: ``triples`` is the chosen variant; the four variants and the element
    statistics beside it."""
    specs = [_variant_metric("triples", variant, f"triples ({variant})"),
             _variant_metric("partial", "partial", "partial ids, same relation (ignoring case)"),
             _variant_metric("partial-any-relation", "partial-any-relation", "partial ids, any relation"),
             _variant_metric("exact", "exact", "exact ids, same relation (ignoring case)"),
             _variant_metric("exact-any-relation", "exact-any-relation", "exact ids, any relation")]
    for side in ("first", "second"):
        specs.append(MetricSpec(f"{side}-elements", f"{side} elements",
                                (f"{side}_correct", f"{side}_system", f"{side}_gold"),
                                ratio_score(f"{side}_correct", f"{side}_system", f"{side}_correct", f"{side}_gold"),
                                f"non-intersecting {side} elements found (the module's element statistics)"))
    return {s.name: s for s in specs}


REGISTRIES = {v: registry(v) for v in SHORT}
name_registries(__name__, REGISTRIES)
METRIC_NAMES = tuple(REGISTRIES["partial"])


def doc_stats(prep) -> DocStats:
    """The per-document statistics of a prepared and matched run (``engine.run``)."""
    from .engine import PR, REL, XR, P, X

    n_docs = len(prep.doc_names)
    st = prep.store
    off_g, off_s, off_o = prep.offsets["gold"], prep.offsets["system"], prep.offsets["out"]
    n_gold = prep.n_gold
    gdoc = st["doc"][:n_gold]
    sdoc = st["doc"][n_gold: off_s[-1]]
    odoc = st["doc"][off_s[-1]:]
    f_len = np.diff(st["f_off"])
    s_len = np.diff(st["s_off"])

    def per_doc(docs, weights=None):
        return np.bincount(docs, weights=weights, minlength=n_docs).astype(np.float64)[:n_docs]

    cols: dict[str, np.ndarray] = {
        "gold": np.diff(off_g).astype(np.float64),
        "system": np.diff(off_s).astype(np.float64),
        "out_of_range": np.diff(off_o).astype(np.float64),
        "gold_first_ids": per_doc(gdoc, f_len[:n_gold]), "gold_second_ids": per_doc(gdoc, s_len[:n_gold]),
        "system_first_ids": per_doc(sdoc, f_len[n_gold: off_s[-1]]),
        "system_second_ids": per_doc(sdoc, s_len[n_gold: off_s[-1]]),
    }
    rows = {"pr": PR, "p": P, "xr": XR, "x": X}  # the kernels' row of each variant
    for v, row in rows.items():
        cols[f"unique_{v}"] = per_doc(sdoc, prep.unique[row])
        cols[f"correct_{v}"] = per_doc(gdoc, prep.counted[row])
    n_sys = len(sdoc)
    for side, el in prep.elements.items():
        cols[f"{side}_gold"] = per_doc(gdoc, el["gold_new"])
        cols[f"{side}_system"] = per_doc(sdoc, el["system_new"][:n_sys])
        cols[f"{side}_correct"] = per_doc(sdoc, el["system_matched"][:n_sys])
        cols[f"{side}_system_out"] = per_doc(odoc, el["system_new"][n_sys:])
    for side, docs_of, rows_of in (("gold", prep.gold_docs, prep.gold.rows),
                                   ("system", prep.system_docs, prep.system.rows)):
        for d, doc in enumerate(docs_of):  # ids added after a triple's end: not in the module's averages
            for k in (k for k in rows_of[d] if k in doc.late) if doc.late else ():
                cols[f"{side}_first_ids"][d] -= doc.late[k][0]
                cols[f"{side}_second_ids"][d] -= doc.late[k][1]
        cols[f"{side}_triple_ids"] = np.array([len({doc.ids[k] for k in rows}) for doc, rows in zip(docs_of, rows_of)],
                                              dtype=np.float64)
    cols["gold_repeats"] = per_doc(gdoc, prep.gold_repeats)
    extras = _extras(prep, gdoc, sdoc, n_docs, rows, prep.unique[REL])
    cols.update(extras)
    reg = REGISTRIES[prep.options.variant]
    layout = BASE + tuple(extras)
    return DocStats.from_columns(list(prep.doc_names), cols, reg, layout)


def _per_doc(docs: np.ndarray, codes: np.ndarray, n_docs: int, n_codes: int, weights=None) -> np.ndarray:
    """A (document, code) table of counts (or of summed ``weights``), float64."""
    flat = np.bincount(docs * n_codes + codes, weights=weights, minlength=n_docs * n_codes).astype(np.float64)
    return flat[: n_docs * n_codes].reshape(n_docs, n_codes)


def _extras(prep, gdoc, sdoc, n_docs, rows: dict[str, int], unique_rel) -> dict[str, np.ndarray]:
    """The relation, profile and label columns (``rows``: the kernels' row of each variant; ``unique_rel``: system
    triples unique per relation)."""
    st = prep.store
    n_gold = prep.n_gold
    names = st["relation_names"]
    n_rel = max(len(names), 1)
    grel = st["rel"][:n_gold]
    srel = st["rel"][n_gold: n_gold + prep.n_system]

    out: dict[str, np.ndarray] = {}
    gold_t = _per_doc(gdoc, grel, n_docs, n_rel)
    sys_t = _per_doc(sdoc, srel, n_docs, n_rel, unique_rel)
    all_t = _per_doc(sdoc, srel, n_docs, n_rel)
    counted = {v: _per_doc(gdoc, grel, n_docs, n_rel, prep.counted[row]) for v, row in rows.items()}
    present = (gold_t + all_t).sum(axis=0) > 0
    for r, name in enumerate(names):
        if not present[r]:
            continue
        values = {"gold": gold_t[:, r], "system": sys_t[:, r], "all": all_t[:, r],
                  **{f"correct_{v}": counted[v][:, r] for v in rows}}
        for stat in RELATION_STATS:
            out[f"relation{SEP}{name}{SEP}{stat}"] = values[stat]
    # profiles of the in-range system triples (EvaluateTriplesDebug's table)
    profile_codes = {p: n for n, p in enumerate(dict.fromkeys(chain.from_iterable(prep.system.profiles)))}
    prof = np.fromiter(map(profile_codes.__getitem__, chain.from_iterable(prep.system.profiles)), np.int64,
                       len(sdoc))
    n_prof = max(len(profile_codes), 1)
    total = _per_doc(sdoc, prof, n_docs, n_prof)
    found = {v: _per_doc(sdoc, prof, n_docs, n_prof, (prep.match[row] >= 0).astype(np.float64))
             for v, row in rows.items()}
    for p, name in enumerate(profile_codes):
        values = {"total": total[:, p], **{v: found[v][:, p] for v in rows}}
        for stat in PROFILE_STATS:
            out[f"profile{SEP}{name}{SEP}{stat}"] = values[stat]
    # element labels (Util.compareElements' tables), columns in order of the events
    labels = st["label_names"]
    n_lab = len(labels)
    for side, key in (("first", "f_label"), ("second", "s_label")):
        el = prep.elements[side]
        lab = st[key]
        matched = np.nonzero(el["gold_match"] >= 0)[0]
        pairs = el["pairs"]
        for kind, docs, codes, name_of in (
                ("match", gdoc[matched], lab[matched], lambda c: labels[c]),
                ("mismatch", gdoc[pairs[:, 0]], lab[pairs[:, 0]] * n_lab + lab[pairs[:, 1]],  # pairs: (m, 2), m >= 0
                 lambda c: f"{labels[c // n_lab]}:{labels[c % n_lab]}")):
            if not len(codes):
                continue
            values, first_at, inverse = np.unique(codes, return_index=True, return_inverse=True)
            order = np.argsort(first_at, kind="stable")
            n_val = len(values)
            counts = np.bincount(docs * n_val + inverse, minlength=n_docs * n_val).reshape(n_docs, n_val)
            for i in order:
                out[f"{side}_label_{kind}{SEP}{name_of(int(values[i]))}"] = counts[:, i].astype(np.float64)
    return out


# ---- shards: the columns of several runs as one run over their documents lays them out

def merged_layout(parts: list[DocStats]) -> tuple[str, ...]:
    """The columns of runs over consecutive documents (a corpus's shards, in order) as :func:`doc_stats` lays out
    one run over all of them: the base columns; relations in the order the run codes them — the gold triples,
    document by document, then the in-range system triples — (only those with gold or in-range system triples
    have columns, and those are coded before any out-of-range triple could code them); profiles of the system
    triples, document by document; the label tables, each in order of first use, document by document."""
    offsets = np.cumsum([0] + [len(p) for p in parts])
    first_use: dict[str, tuple[int, int, int]] = {}  # relation -> (gold 0 | system 1, document, place in its run)
    singles: dict[str, dict[str, None]] = {kind: {} for kind in ("profile", *LABEL_TABLES)}
    for part, offset in zip(parts, offsets):
        for place, name in enumerate(_names_of(part, "relation")):
            for side, stat in enumerate(("gold", "all")):
                used = np.flatnonzero(part.column(f"relation{SEP}{name}{SEP}{stat}"))
                if len(used):
                    key = (side, int(offset + used[0]), place)
                    first_use[name] = min(first_use.get(name, key), key)
        # one pass over the documents: the first use in a part is the first use after the earlier parts'
        singles["profile"].update(dict.fromkeys(_names_of(part, "profile")))
        for table in LABEL_TABLES:
            singles[table].update(dict.fromkeys(c for c in part.columns if c.startswith(table + SEP)))
    relations = sorted(first_use, key=first_use.__getitem__)
    return (BASE + tuple(f"relation{SEP}{r}{SEP}{s}" for r in relations for s in RELATION_STATS)
            + tuple(f"profile{SEP}{p}{SEP}{s}" for p in singles["profile"] for s in PROFILE_STATS)
            + tuple(c for table in LABEL_TABLES for c in singles[table]))


def _names_of(stats: DocStats, kind: str) -> list[str]:
    """The relation (or profile) names of ``kind<TAB>NAME<TAB>STAT`` columns, in column order."""
    return list(dict.fromkeys(c[len(kind) + 1:].rsplit(SEP, 1)[0] for c in stats.columns
                              if c.startswith(kind + SEP)))
