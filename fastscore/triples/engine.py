"""Triple scoring steps: read the inputs (NAF/KAF layers converted), pair the documents, filter each side as the
module's parser does, lay the triples out as arrays, run the kernels, and gather per-document statistics; what a
result keeps of its inputs (``Inputs``), and its run prepared again from them.

Filtering, per triple (``TripleSaxParser.endElement``): ``TIME``/``LOCATION`` dropped with
``skip_time_and_location`` (``LOCATION`` always with ``location_defect``, the module's operator-precedence
defect, off by default); the relation filter (exact names, before the map); the relation map; then, on the
system side only, the token range (a triple is in range when one of its first-element ids is in it).
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from itertools import chain

import numpy as np

from ..errors import InputError, ParseError, UsageError
from ..formats.triples import TripleDoc, TripleSet, concat_triples, read_triple_shard, read_triples
from ..pairing import pair
from . import PAIRING
from .java import fold
from .options import Options

KYOTO_ROLES = frozenset(("patient", "done-by", "destination-of", "use-of", "instrument", "source-of", "product-of",
                         "path-of"))
P, X, PR, XR, REL = 0, 1, 2, 3, 4  # kernel rows
PARALLEL_FROM = 200_000  # triples (both sides): below this the matching kernel runs on one thread


@dataclass
class Side:
    """The triples of one side kept for scoring (per document: source indices and relations after the map)."""

    rows: list[list[int]]
    relations: list[list[str]]
    profiles: list[list[str]]
    passed: list[int]  # per document: triples past the filters (the module's TripleCount)


@dataclass
class Prepared:
    doc_names: list[str]
    gold_docs: list[TripleDoc]
    system_docs: list[TripleDoc]
    gold: Side
    system: Side  # in range
    out: Side  # system triples out of the token range
    options: Options
    folder: bool
    gold_path: str
    system_path: str
    # filled by run()
    offsets: dict = field(default_factory=dict)  # "gold"/"system"/"out" -> document CSR over store rows
    store: dict = field(default_factory=dict)  # the arrays handed to the kernels
    match: np.ndarray | None = None  # (4, n_system) gold store row or -1
    unique: np.ndarray | None = None  # (5, n_system)
    counted: np.ndarray | None = None  # (4, n_gold)
    elements: dict = field(default_factory=dict)  # "first"/"second" -> kernel outputs
    _mismatches: np.ndarray | None = None
    gold_repeats: np.ndarray | None = None  # (n_gold,) 1: not counted were the gold file the system

    @property
    def n_gold(self) -> int:
        return int(self.offsets["gold"][-1])

    @property
    def n_system(self) -> int:
        return int(self.offsets["system"][-1] - self.offsets["system"][0])

    def mismatches(self) -> np.ndarray:
        """(system row, gold row) store rows of partial matches with different relations (computed once)."""
        if self._mismatches is None:
            from ..kernels.triples import relation_mismatches

            st = self.store
            self._mismatches = relation_mismatches(st["f_off"], st["f_ids"], st["s_off"], st["s_ids"], st["fold"],
                                                   st["rel"], st["flags"], st["doc"], self.n_gold,
                                                   self.n_gold + self.n_system, st["n_keys"], len(self.doc_names))
        return self._mismatches


def read(source) -> TripleSet:
    """A triple file or folder, read once (an already-read input is returned as it is)."""
    if isinstance(source, TripleSet):
        return source
    return read_triples(os.fspath(source))


def converted(ts: TripleSet, opts: Options) -> TripleSet:
    """Triples of a NAF/KAF input (its layers converted in memory); triple input as it is."""
    if ts.naf is None:
        return as_asked(ts, opts)
    if not opts.layers:
        raise UsageError(f"{ts.path}: NAF/KAF input: choose the layers that become triples with --layers "
                         f"(e.g. --layers entity,opinion)")
    from .convert import naf_to_triples

    docs = {name: naf_to_triples(doc, opts.layers, opts.intersect, name=name)
            for name, doc in ts.naf.items()}
    return TripleSet(ts.path, docs, folder=ts.folder)


def as_asked(ts: TripleSet, opts: Options) -> TripleSet:
    """Triple files as the module reads them, or, with --fix-module-quirks, as their encoding says (a malformed
    file refused) where the module reads them otherwise."""
    if not opts.fix_module_quirks or not any(d.fixed is not None for d in ts.documents.values()):
        return ts
    docs = {}
    for name, d in ts.documents.items():
        if isinstance(d.fixed, Exception):
            raise d.fixed
        docs[name] = d.fixed or d
    return TripleSet(ts.path, docs, folder=ts.folder)


@dataclass(frozen=True)
class DocSource:
    """A scored document's files, and what reading them warned about."""

    gold_file: str
    system_file: str  # "": none (a gold file whose system shard was skipped, scored against no triples)
    gold_warnings: tuple[str, ...] = ()
    system_warnings: tuple[str, ...] = ()


@dataclass(frozen=True)
class Inputs:
    """What a result keeps of its inputs (light, and all a result carries across processes): their names, the
    options, each document's files; enough for every report, and to read the inputs again for the module's."""

    gold_path: str
    system_path: str
    folder: bool
    options: Options
    documents: tuple[DocSource, ...]
    naf: bool = False  # an input was NAF/KAF (converted with --layers)
    shards: bool = False  # a corpus of shards: read again file by file (else the two inputs whole)


def inputs_of(prep: Prepared, naf: bool) -> Inputs:
    """What a result keeps of a run's inputs."""
    documents = tuple(DocSource(g.path, s.path, tuple(g.warnings), tuple(s.warnings))
                      for g, s in zip(prep.gold_docs, prep.system_docs))
    return Inputs(prep.gold_path, prep.system_path, prep.folder, prep.options, documents, naf)


def prepare_again(inputs: Inputs) -> Prepared:
    """A result's run prepared and matched again from its inputs, read again: a corpus of shards file by file,
    as one folder of them (a gold file without a system file against an empty one), else the two inputs whole."""
    if inputs.shards:
        golds = [read_triple_shard(d.gold_file) for d in inputs.documents]
        systems = [read_triple_shard(d.system_file) if d.system_file else concat_triples([], "", g)
                   for d, g in zip(inputs.documents, golds)]
        gold, system = (as_asked(concat_triples(reads, path), inputs.options)
                        for reads, path in ((golds, inputs.gold_path), (systems, inputs.system_path)))
    else:
        gold, system = (converted(read(p), inputs.options) for p in (inputs.gold_path, inputs.system_path))
    return run(prepare(gold, system, inputs.options))


def pair_documents(gold: TripleSet, system: TripleSet, suffix: int) -> list[tuple[str, TripleDoc, TripleDoc]]:
    """(name, gold document, system document): one pair for two files; for two folders, files paired by
    name (``suffix`` characters cut from the end of each name first), every file paired exactly once."""
    if gold.folder != system.folder:
        raise InputError(f"{gold.path} and {system.path}: give two files or two folders, not one of each")
    if not gold.folder:
        (g,), (s,) = gold.documents.values(), system.documents.values()
        return [(g.name, g, s)]

    def keyed(ts: TripleSet) -> dict[str, TripleDoc]:
        out: dict[str, TripleDoc] = {}
        for name, doc in ts.documents.items():
            key = pair_key(name, suffix, os.path.join(ts.path, name))
            if key in out:
                raise InputError(f"{ts.path}: files {out[key].name!r} and {name!r} both pair as {key!r}"
                                 + (f" once {suffix} characters are cut" if suffix else ""))
            out[key] = doc
        return out

    g_keys, s_keys = keyed(gold), keyed(system)
    paired = pair(g_keys, s_keys, PAIRING)
    if paired.missing or paired.extra:
        raise unpaired_error([os.path.join(gold.path, g_keys[k].name) for k in paired.missing],
                             [os.path.join(system.path, s_keys[k].name) for k in paired.extra],
                             {"ignore_file_suffix": suffix})
    return paired.pairs


def pair_key(name: str, suffix: int, path: str) -> str:
    """The key a file pairs by: its name without the last ``suffix`` characters."""
    if suffix and len(name) <= suffix:
        raise ParseError(path, None, f"file name has {len(name)} characters: --ignore-file-suffix {suffix} would "
                         "leave nothing to pair it by")
    return name[: len(name) - suffix] if suffix else name


def unpaired_error(missing: list[str], extra: list[str], options: dict) -> InputError:
    """``PAIRING.error``: gold files without a system file (``missing``) and system files without a gold one."""
    suffix = options.get("ignore_file_suffix") or 0
    cut = f" (names compared without their last {suffix} characters)" if suffix else \
        " (names compared whole; --ignore-file-suffix N cuts N characters off each name)"
    count = lambda files: f" ({len(files)} unpaired)" if len(files) > 1 else ""
    what = [f"gold file {missing[0]} has no system file{count(missing)}"] if missing else []
    if extra:
        what.append(f"system file {extra[0]} has no gold file{count(extra)}")
    return InputError("; ".join(what) + cut)


# ---- corpora of shards (fastscore.shards): a shard is a file, its one document named by the file

def pair_name(name: str, options: dict) -> str:
    """``PAIRING.key``: a file's key with the ``ignore_file_suffix`` of the scoring options."""
    return pair_key(name, options.get("ignore_file_suffix") or 0, name)


def _filter(doc: TripleDoc, opts: Options, token_range: set[str] | None) -> tuple[Side, Side]:
    """(kept, out of range) of one document's triples."""
    rels = doc.relations
    dropped = {"LOCATION"} if opts.location_defect else set()
    if opts.skip_time_and_location:
        dropped |= {"TIME", "LOCATION"}
    filt = set(opts.filter_relations) if opts.filter_relations else None
    if dropped or filt is not None:
        rows = [k for k, r in enumerate(rels) if r not in dropped and (filt is None or r in filt)]
    else:
        rows = list(range(len(rels)))
    passed = len(rows)
    if opts.mapping:
        kept_rels = [opts.mapping.get(rels[k], rels[k]) for k in rows]
    else:
        kept_rels = rels if passed == len(rels) else [rels[k] for k in rows]
    out_rows, out_rels = [], []
    if token_range is not None:  # (the ids a triple had when it ended)
        inside = [any(i in token_range for i in doc.first[k][: doc.ids_at_end(k)]) for k in rows]
        rows, kept_rels, out_rows, out_rels = [[x for x, ok in zip(column, inside) if ok == want]
                                               for want in (True, False) for column in (rows, kept_rels)]

    def profiles(rows: list[int], relations: list[str]) -> list[str]:
        return [doc.profiles[k] or r for k, r in zip(rows, relations)]

    return (Side([rows], [kept_rels], [profiles(rows, kept_rels)], [passed]),
            Side([out_rows], [out_rels], [profiles(out_rows, out_rels)], [0]))


def _concat(sides: list[Side]) -> Side:
    return Side([r for s in sides for r in s.rows], [r for s in sides for r in s.relations],
                [r for s in sides for r in s.profiles], [p for s in sides for p in s.passed])


def prepare(gold: TripleSet, system: TripleSet, opts: Options) -> Prepared:
    pairs = pair_documents(gold, system, opts.ignore_file_suffix)
    token_range = set(opts.range_tokens) if opts.range_tokens else None
    systems = [_filter(s, opts, token_range) for _, _, s in pairs]  # (in range, out of range) per document
    return Prepared([p[0] for p in pairs], [p[1] for p in pairs], [p[2] for p in pairs],
                    _concat([_filter(g, opts, None)[0] for _, g, _ in pairs]), _concat([k for k, _ in systems]),
                    _concat([o for _, o in systems]), opts, gold.folder, gold.path, system.path)


def _layout(prep: Prepared) -> None:
    """The store: gold rows, then in-range system rows, then out-of-range rows (each side by document).
    Ids are coded per document (one dictionary each), the codes of a document offset so that no two
    documents share one."""
    n_docs = len(prep.doc_names)
    label_codes: dict[str, int] = {"": 0}
    rel_codes: dict[str, int] = {}
    parts: dict[str, list] = {k: [] for k in ("f_len", "s_len", "f_ids", "s_ids", "f_lab", "s_lab", "rel", "doc")}
    sides = (("gold", prep.gold, prep.gold_docs), ("system", prep.system, prep.system_docs),
             ("out", prep.out, prep.system_docs))
    codes_of: list[dict[str, int]] = [{} for _ in range(n_docs)]
    base = 0
    bases = []
    # codes of every id of a document's two files (filtered triples too: a code nobody uses costs nothing)
    for d in range(n_docs):
        bases.append(base)
        gold_doc, system_doc = prep.gold_docs[d], prep.system_docs[d]
        every = chain(gold_doc.first, gold_doc.second, system_doc.first, system_doc.second)  # filtered or not
        codes = codes_of[d] = {i: n for n, i in enumerate(dict.fromkeys(chain.from_iterable(every)))}
        base += len(codes)
    offsets = {}
    start = 0
    for name, side, docs_of in sides:
        sizes = np.zeros(n_docs, dtype=np.int64)
        for d in range(n_docs):
            doc, rows = docs_of[d], side.rows[d]
            sizes[d] = len(rows)
            if not rows:
                continue
            whole = len(rows) == len(doc) and rows[-1] == len(doc) - 1
            first = doc.first if whole else [doc.first[k] for k in rows]
            second = doc.second if whole else [doc.second[k] for k in rows]
            get = codes_of[d].__getitem__
            parts["f_len"].append(np.fromiter(map(len, first), np.int64, len(first)))
            parts["s_len"].append(np.fromiter(map(len, second), np.int64, len(second)))
            parts["f_ids"].append(np.fromiter(map(get, chain.from_iterable(first)), np.int64) + bases[d])
            parts["s_ids"].append(np.fromiter(map(get, chain.from_iterable(second)), np.int64) + bases[d])
            for key, values, table in (("f_lab", doc.first_labels, label_codes), ("s_lab", doc.second_labels,
                                                                                  label_codes),
                                       ("rel", side.relations[d], rel_codes)):
                if key != "rel" and not whole:
                    values = [values[k] for k in rows]
                for x in dict.fromkeys(values):  # new names coded in order of appearance
                    if x not in table:
                        table[x] = len(table)
                parts[key].append(np.fromiter(map(table.__getitem__, values), np.int64, len(rows)))
            parts["doc"].append(np.full(len(rows), d, dtype=np.int64))
        offsets[name] = start + np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
        start = int(offsets[name][-1])

    def cat(key):
        return np.concatenate(parts[key]) if parts[key] else np.zeros(0, dtype=np.int64)

    rel = cat("rel")
    names = list(rel_codes)
    fold_codes: dict[str, int] = {}
    fold_of = np.array([fold_codes.setdefault(fold(r), len(fold_codes)) for r in names] or [0], dtype=np.int64)
    flags_of = np.array([(1 if r == "participant" else 0) | (2 if r in KYOTO_ROLES else 0) for r in names] or [0],
                        dtype=np.int64)
    prep.offsets = offsets
    prep.store = {
        "f_off": np.concatenate([[0], np.cumsum(cat("f_len"))]).astype(np.int64), "f_ids": cat("f_ids"),
        "s_off": np.concatenate([[0], np.cumsum(cat("s_len"))]).astype(np.int64), "s_ids": cat("s_ids"),
        "rel": rel, "fold": fold_of[rel], "flags": flags_of[rel], "doc": cat("doc"), "n_keys": max(base, 1),
        "relation_names": names, "f_label": cat("f_lab"), "s_label": cat("s_lab"),
        "label_names": list(label_codes),
    }


def run(prep: Prepared) -> Prepared:
    """Lay out the store and run the matching and element kernels."""
    from ..kernels.triples import element_stats, match_triples, match_triples_parallel

    _layout(prep)
    st = prep.store
    n_gold, n_sys = prep.n_gold, prep.n_system
    # documents in parallel only where it pays (starting the threads costs more than a small corpus)
    kernel = match_triples_parallel if len(prep.doc_names) > 1 and n_gold + n_sys > PARALLEL_FROM else match_triples
    prep.match, prep.unique, prep.counted = kernel(
        st["f_off"], st["f_ids"], st["s_off"], st["s_ids"], st["fold"], st["rel"], st["flags"], st["doc"],
        prep.offsets["gold"], prep.offsets["system"], st["n_keys"], prep.options.dedup_exact(prep.folder))
    prep.gold_repeats = gold_repeats(prep)
    for side, off, ids, label in (("first", "f_off", "f_ids", "f_label"), ("second", "s_off", "s_ids", "s_label")):
        gold_new, gold_match, pairs, system_new, system_matched = element_stats(
            st[off], st[ids], st[label], n_gold, n_gold + n_sys, st["n_keys"])
        prep.elements[side] = {"gold_new": gold_new, "gold_match": gold_match, "pairs": pairs,
                               "system_new": system_new, "system_matched": system_matched}
    return prep


def gold_repeats(prep: Prepared) -> np.ndarray:
    """1 for each gold triple the module would not count if the gold file were the system: a system triple
    counts only the first gold triple it matches, and not one that duplicates a gold triple counted before,
    so duplicate and overlapping gold triples keep even the gold file against itself below recall 1.  The
    matching kernel run on the gold triples against themselves."""
    from ..kernels.triples import match_triples

    st, n_gold = prep.store, prep.n_gold
    if n_gold == 0:
        return np.zeros(0, dtype=np.uint8)

    def twice(off, ids):
        lens = np.diff(off[: n_gold + 1])
        return (np.concatenate([[0], np.cumsum(np.concatenate([lens, lens]))]).astype(np.int64),
                np.concatenate([ids[: off[n_gold]], ids[: off[n_gold]]]))

    f_off, f_ids = twice(st["f_off"], st["f_ids"])
    s_off, s_ids = twice(st["s_off"], st["s_ids"])
    cols = [np.concatenate([st[k][:n_gold], st[k][:n_gold]]) for k in ("fold", "rel", "flags", "doc")]
    g_docs = prep.offsets["gold"]
    _, _, counted = match_triples(f_off, f_ids, s_off, s_ids, *cols, g_docs, g_docs + n_gold, st["n_keys"],
                                  prep.options.dedup_exact(prep.folder))
    row = {"partial-any-relation": P, "exact-any-relation": X, "partial": PR, "exact": XR}[prep.options.variant]
    return (1 - counted[row]).astype(np.uint8)


def range_warnings(prep: Prepared) -> list[str]:
    """Token-range ids that no triple of either input names (the module reads them and puts no triple in
    range with them): how many, and the first."""
    opts = prep.options
    if not opts.range_tokens:
        return []
    used: set[str] = set()
    for doc in chain(prep.gold_docs, prep.system_docs):
        for element in chain(doc.first, doc.second):
            used.update(element)
    unknown = [t for t in opts.range_tokens if t not in used]
    if not unknown:
        return []
    return [f"{opts.token_range}: {len(unknown)} of {len(opts.range_tokens)} token ids occur in no triple of "
            f"{prep.gold_path} or {prep.system_path} (first: {unknown[0]!r}): they put no system triple in range "
            "(a system triple is in range when one of its first-element ids is listed)"]
