"""Scoring Universal Anaphora files as the UA scorer does (``fastscore coref KEY SYS --format ua``)."""
from __future__ import annotations

import os
from dataclasses import dataclass

import numpy as np

from .._gc import collector_paused
from ..errors import InputError, UsageError
from .clusters import Split, prepare_side
from .batch import score_documents
from .engine import Undefined, forget_assignments
from .metrics import BRIDGING, COREFERENCE, METRICS
from .reader import DEIXIS, IDENTITY, UAFile, read_ua, read_ua_bytes
from .relations import bridging_counts, non_referring_counts
from .result import UAResult


@dataclass(frozen=True)
class Settings:
    """The scorer's options, after its own overrides (only split antecedents, discourse deixis)."""

    keep_singletons: bool = True
    keep_split: bool = True
    use_min: bool = False
    keep_non_referring: bool = False
    keep_bridging: bool = False
    only_split: bool = False
    deixis: bool = False

    @classmethod
    def of(cls, singletons, split_antecedents, match, non_referring, bridging, only_split_antecedents,
           discourse_deixis) -> "Settings":
        for name, value, choices in (("singletons", singletons, ("keep", "drop")),
                                     ("split-antecedents", split_antecedents, ("keep", "drop")),
                                     ("match", match, ("exact", "min"))):
            if value is not None and value not in choices:
                raise UsageError(f"--{name} {value} does not apply to UA files (--format ua): choose from "
                                 f"{', '.join(choices)}")
        s = dict(keep_singletons=singletons != "drop", keep_split=split_antecedents != "drop", use_min=match == "min",
                 keep_non_referring=bool(non_referring), keep_bridging=bool(bridging),
                 only_split=bool(only_split_antecedents), deixis=bool(discourse_deixis))
        if s["only_split"]:  # the scorer's overrides, in its order
            s.update(keep_split=True, keep_singletons=True, keep_bridging=False, keep_non_referring=False)
        if s["deixis"]:
            s.update(keep_split=True, keep_singletons=True, only_split=False, keep_bridging=False,
                     keep_non_referring=False)
        return cls(**s)

    def header(self) -> str:
        """The scorer's first line."""
        if self.deixis:
            what = "only discourse deixis"
        elif self.only_split:
            what = "only split-antecedents"
        else:
            what = "corferent markables"  # sic
            what += ", singletons" if self.keep_singletons else ""
            what += ", split-antecedents" if self.keep_split else ""
            what += ", non-referring mentions" if self.keep_non_referring else ""
            what += ", bridging relations" if self.keep_bridging else ""
        return (f"The scorer is evaluating  {what} "
                + (" using the minimum span evaluation setting " if self.use_min else ""))


def read(source, settings: Settings, key: bool, data: bytes | None = None) -> UAFile:
    """A UA file (or ``data``, its bytes already in memory, named by ``source``) read for these settings."""
    if isinstance(source, UAFile):
        return source
    column, with_min = DEIXIS if settings.deixis else IDENTITY, key and settings.use_min
    if data is not None:
        return read_ua_bytes(os.fspath(source), data, False, column, with_min, settings.keep_bridging)
    return read_ua(source, column, with_min=with_min, with_bridging=settings.keep_bridging)


def _ignored(settings: Settings, given: dict) -> list[str]:
    """Options the scorer's modes override, said once."""
    out = []
    mode = "--discourse-deixis" if settings.deixis else "--only-split-antecedents" if settings.only_split else None
    if mode:
        ignored = [name for name, value in given.items() if value]
        if ignored:
            out.append(f"{mode} scores with singletons and split antecedents kept, without non-referring markables "
                       f"or bridging (as the UA scorer): {', '.join(ignored)} ignored")
    return out


@collector_paused()  # many small objects, no cycles: collections would only rescan them
def score_ua(key, response, metrics=None, *, singletons=None, split_antecedents=None, match=None,
             non_referring=False, bridging=False, only_split_antecedents=False, discourse_deixis=False,
             doc=None) -> UAResult:
    """Score a UA response against a UA key with the UA scorer's numbers (see docs/ua.md)."""
    from ..coref.metrics import named, resolve

    settings = Settings.of(singletons, split_antecedents, match, non_referring, bridging, only_split_antecedents,
                           discourse_deixis)
    given = {"--singletons drop": singletons == "drop", "--split-antecedents drop": split_antecedents == "drop",
             "--non-referring": non_referring, "--bridging": bridging}
    if discourse_deixis:
        given["--only-split-antecedents"] = only_split_antecedents
    warnings = _ignored(settings, given)
    names = resolve(metrics, {k: v for k, v in COREFERENCE.items()})
    forget_assignments()  # each run solves its own assignments (a warm run does not reuse the last one's)
    k, r = read(key, settings, True), read(response, settings, False)
    warnings += list(dict.fromkeys(k.warnings + r.warnings))  # a file given as both: once
    printed: list[str] = []
    rows: list[dict] = []
    doc_names: list[str] = []
    scored: list[tuple] = []  # (key document, response document)
    for name, kdoc in k.documents.items():
        if doc is not None and name != doc:
            continue
        if name not in r.documents:
            printed.append(f"The document  {name}  does not exist in the system output.")
            continue
        sdoc = r.documents[name]
        for d in (kdoc, sdoc):
            printed += [f"Skip bridging pair ({ant}, {ana}) as markable_id does not exist in identity column!"
                        for ant, ana in d.skipped_bridging]
        scored.append((kdoc, sdoc))
        doc_names.append(name)
    rows = _document_rows(k.path, r.path, scored, settings)
    ordered = sum(row.pop("order_dependent") for row in rows)
    if doc is not None and not doc_names:
        raise UsageError(f"--doc {doc!r}: no such document in both {k.path} and {r.path}")
    if ordered and {"blanc", "lea"} & set(names) and not settings.only_split:
        warnings.append(f"{ordered} document(s) with plural sets on both sides: there the UA scorer's BLANC and LEA "
                        "depend on the order in which Python iterates its sets (a link from a plural set weighs its "
                        "alignment only when the set comes first); fastscore follows the order CPython 3.8 and later "
                        "give the scorer (see docs/ua.md)")
    missing = [n for n in k.documents if n not in r.documents]
    if missing:
        warnings.append(f"{r.path}: {len(missing)} key document(s) not in the response, left out as the UA scorer "
                        f"leaves them out (not scored as empty): {', '.join(missing[:3])}"
                        + (", ..." if len(missing) > 3 else ""))
    from ..stats.docstats import DocStats

    layout = tuple(dict.fromkeys(c for m in METRICS.values() for c in m.columns))
    columns = {c: np.array([row.get(c, 0.0) for row in rows], dtype=np.float64) for c in layout}
    stats = DocStats.from_columns(doc_names, columns, METRICS)
    stats.in_file_order = True  # the UA scorer adds each document's numbers to running totals, in the key's order
    options = {"format": "ua", "match": "min" if settings.use_min else "exact",
               "singletons": "keep" if settings.keep_singletons else "drop",
               "split-antecedents": "keep" if settings.keep_split else "drop"}
    for flag, on in (("non-referring", settings.keep_non_referring), ("bridging", settings.keep_bridging),
                     ("only-split-antecedents", settings.only_split), ("discourse-deixis", settings.deixis)):
        if on:
            options[flag] = True
    if doc is not None:
        options["doc"] = doc
    return UAResult(doc_stats=stats, metrics=names, key_path=k.path, response_path=r.path, options=options,
                    warnings=warnings, missing=missing, asked=tuple(named(metrics)), printed=printed,
                    header=settings.header())


_SIDES = {"muc": "muc", "bcub": "bcub", "ceafe": "ceafe", "ceafm": "ceafm", "lea": "lea",
          "blancc": "blanc_coref", "blancn": "blanc_noncoref"}
_COUNT_COLUMNS = {metric: tuple(f"{prefix}_{c}" for c in ("precision_num", "precision_den", "recall_num",
                                                           "recall_den")) for metric, prefix in _SIDES.items()}


def _order_dependent(ks, ss, found: dict) -> bool:
    """Whether BLANC or LEA would change if the plural sets stood first, or last, in their clusters (the scorer's
    order is that of its Python's sets): each cluster holding a plural set scored alone in the three orders."""
    if not (ks.splits() and ss.splits()):
        return False
    from .engine import blancc, lea

    key_r, sys_p, key_f = found["lea"][1]
    blanc_f = found["blancc"][1][2]
    for c in _split_clusters(ks):
        others = _other_orders(c)
        if others:
            recall, coref = lea([c], ss.clusters, ss.cluster_of, key_r), blancc([], [c], ss.cluster_of, blanc_f)[0]
            if any(lea([o], ss.clusters, ss.cluster_of, key_r) != recall
                   or blancc([], [o], ss.cluster_of, blanc_f)[0] != coref for o in others):
                return True
    for c in _split_clusters(ss):
        others = _other_orders(c)
        if others:
            precision = lea([c], ks.clusters, ks.cluster_of, sys_p)
            if any(lea([o], ks.clusters, ks.cluster_of, sys_p) != precision for o in others):
                return True
    return False


def _split_clusters(side) -> list[list]:
    """The clusters holding a plural set (each holds one: clusters of equal sets are merged)."""
    return [side.clusters[side.cluster_of[s]] for s in side.split_items]


def _other_orders(c: list) -> list[list]:
    """The cluster's items with its plural sets first, and last, where that is not their order already (none
    without a plural set: an order that is the cluster's own scores as it does)."""
    out = []
    for first in (True, False):
        order = sorted(c, key=lambda m: isinstance(m, Split) != first)
        if any(a is not b for a, b in zip(order, c)):
            out.append(order)
    return out


def _document_rows(key_path: str, sys_path: str, docs: list[tuple], settings: Settings) -> list[dict]:
    """Each document's statistics columns; the first document the scorer cannot score, the error (in the
    order of the documents, then of the metrics)."""
    sides = []
    refused = None
    for kdoc, sdoc in docs:
        try:
            sides.append((prepare_side(key_path, kdoc, settings.keep_singletons, settings.keep_non_referring,
                                       settings.keep_split, settings.use_min),
                          prepare_side(sys_path, sdoc, settings.keep_singletons, settings.keep_non_referring,
                                       settings.keep_split, False)))
        except InputError as e:
            refused = e  # raised once the documents before it are known to score
            break
    try:
        found = score_documents(sides)
    except Undefined as e:
        raise InputError(f"{key_path} and {sys_path}: document {docs[e.index][0].name!r}: {e}") from None
    if refused is not None:
        raise refused
    return [_document_row(kdoc, sdoc, ks, ss, f, settings) for (kdoc, sdoc), (ks, ss), f in zip(docs, sides, found)]


def _document_row(kdoc, sdoc, ks, ss, scored: dict, settings: Settings) -> dict:
    """One document's statistics columns (``scored``: metric -> its counts, the alignment's, its maps)."""
    row: dict = {}
    found = {}  # metric -> its counts and alignment
    for metric, prefix in _SIDES.items():
        counts, split_counts, maps = scored[metric]
        found[metric] = (counts, maps)
        shown = split_counts if settings.only_split else counts
        row.update(zip(_COUNT_COLUMNS[metric], map(float, shown)))
        if metric.startswith("blanc"):
            row[f"{prefix}_links"] = float(counts[1]) + float(counts[3])
    row["order_dependent"] = int(_order_dependent(ks, ss, found))
    key_spans = set(ks.cluster_of).difference(ks.split_items)  # every item is in cluster_of
    sys_spans = set(ss.cluster_of).difference(ss.split_items)
    common = len(key_spans & sys_spans)
    row.update({"mentions_recall_num": common, "mentions_recall_den": len(key_spans),
                "mentions_precision_num": common, "mentions_precision_den": len(sys_spans)})
    if settings.keep_non_referring:
        tp, n_key, n_sys = non_referring_counts(ks.non_referring, ss.non_referring)
        row.update({"non_referring_recall_num": tp, "non_referring_recall_den": n_key,
                    "non_referring_precision_num": tp, "non_referring_precision_den": n_sys})
    if settings.keep_bridging:
        counts = bridging_counts(kdoc, sdoc, ks.cluster_of)
        for f, name in enumerate(BRIDGING):
            tp, fp, fn = counts[3 * f: 3 * f + 3]
            row.update({f"{name}_recall_num": tp, f"{name}_recall_den": tp + fn, f"{name}_precision_num": tp,
                        f"{name}_precision_den": tp + fp})
    return row

