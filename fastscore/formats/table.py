"""The columnar mention table every reader produces.

Rows are mentions, grouped by document (``doc_offsets``) and, inside a
document, by cluster in the order the reference scorer builds its chains
(cluster of first appearance first; mentions in the order they are
completed).  Offsets are token positions inside the document, half-open.
Columns are numpy arrays so that kernels take them without copying;
``to_arrow`` gives the same data as an Arrow table.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..messages import counted


ARROW_METADATA = b"fastscore.mentions"  # the schema metadata key of MentionTable.to_arrow
TABLE_VERSION = 1  # the layout of the mention table written by to_arrow (read back only when equal)
# a table's token counts are claims, not counted words: the kernels allocate by the largest offset, so a
# document may hold at most this many tokens (a whole corpus as one document is some millions)
MAX_TABLE_TOKENS = 1 << 26
INT64_MAX = 2 ** 63 - 1


def whole_numbers(meta: dict, key: str, count: int, path: str, limit: int = INT64_MAX) -> np.ndarray:
    """``meta[key]`` (a table file's JSON metadata) as int64: a list of ``count`` whole numbers (one per document),
    each from 0 to ``limit`` (JSON may hold anything: a float of 1e300, a string, a list), else an InputError
    naming ``path``."""
    from ..errors import InputError

    values = meta.get(key)
    if not isinstance(values, list) or len(values) != count:
        got = f"{len(values)} values" if isinstance(values, list) else "no list"
        raise InputError(f"{path}: its metadata {key!r} holds {got} for {count} documents (write the file again "
                         "with fastscore convert)")
    for i, v in enumerate(values):
        if type(v) is not int or not 0 <= v <= limit:
            shown = repr(v) if len(repr(v)) <= 40 else repr(v)[:40] + "..."
            raise InputError(f"{path}: its metadata {key!r} holds {shown} at {i}, not a whole number from 0 to "
                             f"{limit} (write the file again with fastscore convert)")
    return np.asarray(values, dtype=np.int64)


def offsets(sizes) -> np.ndarray:
    """CSR offsets (int64, one more than ``sizes``) of consecutive groups of the given sizes."""
    return np.concatenate([[0], np.cumsum(sizes, dtype=np.int64)]).astype(np.int64)


_NUMBERS: list[str] = []


def _numbers(n: int) -> list[str]:
    """["0", "1", ..., str(n - 1)], sliced from a shared list."""
    while len(_NUMBERS) < n:
        _NUMBERS.extend(str(i) for i in range(len(_NUMBERS), max(n, 2 * len(_NUMBERS) + 16)))
    return _NUMBERS[:n]


@dataclass
class Words:
    """What CoNLL-U mentions have beyond a span: their nodes (discontinuous mentions, empty nodes), heads,
    zeros and the heads' enhanced dependencies, row-aligned with the mention table (CSR over mentions).

    Nodes are int64 word keys ordered as (sentence, ord) (see :mod:`fastscore.formats.conllu`)."""

    offsets: np.ndarray  # int64 (n_mentions + 1,)
    keys: np.ndarray  # int64: each mention's node keys, sorted
    head: np.ndarray  # int64 (n_mentions,): the head's key
    zero: np.ndarray  # bool (n_mentions,): the head is an empty node
    dep_offsets: np.ndarray  # int64 (n_mentions + 1,): the head's DEPS
    dep_parent: np.ndarray  # int64 parent keys (ord 0: the root)
    dep_rel: np.ndarray  # int32 codes into rel_names
    rel_names: list[str]
    lines: np.ndarray  # int64 (n_mentions,): the line where each mention opens

    def take(self, rows: np.ndarray) -> "Words":
        """The rows ``rows`` (in that order)."""
        rows = np.asarray(rows, dtype=np.int64)
        keys_at, key_off = gather_csr(self.offsets, rows)
        deps_at, dep_off = gather_csr(self.dep_offsets, rows)
        return Words(key_off, self.keys[keys_at], self.head[rows], self.zero[rows], dep_off,
                     self.dep_parent[deps_at], self.dep_rel[deps_at], self.rel_names, self.lines[rows])


def gather_csr(offs: np.ndarray, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Positions of the values of CSR rows ``rows`` and the new offsets."""
    sizes = offs[rows + 1] - offs[rows]
    new = offsets(sizes)
    at = np.repeat(offs[rows] - new[:-1], sizes) + np.arange(new[-1], dtype=np.int64)
    return at, new


@dataclass
class MentionTable:
    path: str
    doc_names: list[str]
    doc_lines: np.ndarray  # int64 (n_docs,): line of each "#begin document"
    doc_tokens: np.ndarray  # int64 (n_docs,): token count of each document
    doc_offsets: np.ndarray  # int64 (n_docs + 1,): row range of each document
    start: np.ndarray  # int32 (n_mentions,): first token
    end: np.ndarray  # int32 (n_mentions,): one past the last token
    cluster: np.ndarray  # int32 (n_mentions,): cluster index inside the document
    cluster_labels: list[list[str]] = field(default_factory=list)  # per document, by index
    words: Words | None = None  # CoNLL-U: mention nodes, heads, zeros (start/end are then word keys)
    sentences: list | None = field(default=None, repr=False)  # CoNLL-U: the file's sentences (alignment check)
    warnings: list[str] = field(default_factory=list)  # what the reader let pass with a warning
    batch: object = field(default=None, repr=False)  # a batch of a large CoNLL-U file: formats.conllu.BatchFacts
    # CoNLL-2012, by document name: split antecedents v8.01 discards (its verbose report names them), and
    # the error of each document whose brackets do not balance (read without mentions: v8.01 refuses a
    # file only for the documents it scores)
    discarded: dict[str, list[str]] = field(default_factory=dict, repr=False)
    unread: dict[str, Exception] = field(default_factory=dict, repr=False)
    sniffed: str | None = field(default=None, repr=False, compare=False)  # the format its reader was chosen by,
    # told from the file's content (``coref.score.read``); None: given, or not read from one file
    # a CoNLL-2012 file read with its token columns (``formats.conll.read_conll_columns``), which minimum spans
    # read: the file is read once
    tokens: object = field(default=None, repr=False, compare=False)

    @classmethod
    def from_documents(cls, docs: dict[str, list[list[tuple[int, int]]]], n_tokens: dict[str, int] | None = None,
                       path: str = "<memory>") -> "MentionTable":
        """Build a table from ``{name: [[(start, end), ...] per cluster]}`` (end exclusive)."""
        names = list(docs)
        rows = [(s, e, c) for name in names for c, chain in enumerate(docs[name]) for s, e in chain]
        starts, ends, clusters = ([row[k] for row in rows] for k in range(3))
        sizes = [sum(map(len, docs[name])) for name in names]
        tokens = [
            (n_tokens or {}).get(name, max((e for ch in docs[name] for _, e in ch), default=0)) for name in names
        ]
        return cls(
            path=path,
            doc_names=names,
            doc_lines=np.zeros(len(names), dtype=np.int64),
            doc_tokens=np.asarray(tokens, dtype=np.int64),
            doc_offsets=offsets(sizes),
            start=np.asarray(starts, dtype=np.int32),
            end=np.asarray(ends, dtype=np.int32),
            cluster=np.asarray(clusters, dtype=np.int32),
            cluster_labels=[_numbers(len(docs[name])) for name in names],
        )

    @property
    def n_docs(self) -> int:
        return len(self.doc_names)

    def __repr__(self) -> str:
        clusters = sum(len(x) for x in self.cluster_labels)
        return (f"MentionTable({self.path!r}: {counted(self.n_docs, 'document')}, {counted(int(self.doc_tokens.sum()), 'token')}, "
                f"{counted(len(self.start), 'mention')}, {counted(clusters, 'cluster')})")

    def doc_index(self) -> dict[str, int]:
        return {name: i for i, name in enumerate(self.doc_names)}

    def document(self, i: int) -> list[list[tuple[int, int]]]:
        """Clusters of document ``i`` as lists of (start, end) spans, end exclusive."""
        lo, hi = self.doc_offsets[i], self.doc_offsets[i + 1]
        n_clusters = len(self.cluster_labels[i])
        chains: list[list[tuple[int, int]]] = [[] for _ in range(n_clusters)]
        for s, e, c in zip(self.start[lo:hi], self.end[lo:hi], self.cluster[lo:hi]):
            chains[int(c)].append((int(s), int(e)))
        return chains

    def select(self, keep_docs: list[int]) -> "MentionTable":
        """A table with only the documents ``keep_docs`` (in that order)."""
        rows = [np.arange(self.doc_offsets[i], self.doc_offsets[i + 1]) for i in keep_docs]
        idx = np.concatenate(rows) if rows else np.zeros(0, dtype=np.int64)
        return self._subset(keep_docs, idx, [len(r) for r in rows], self.cluster[idx],
                            [self.cluster_labels[i] for i in keep_docs])

    def _subset(self, docs, rows: np.ndarray, sizes, cluster: np.ndarray, labels: list[list[str]],
                **kept) -> "MentionTable":
        """The documents ``docs`` with the mention rows ``rows`` (``sizes`` of them in each document)."""
        return MentionTable(path=self.path, doc_names=[self.doc_names[i] for i in docs], doc_lines=self.doc_lines[docs],
                            doc_tokens=self.doc_tokens[docs], doc_offsets=offsets(sizes),
                            start=self.start[rows], end=self.end[rows], cluster=cluster, cluster_labels=labels,
                            words=None if self.words is None else self.words.take(rows), **kept)

    @classmethod
    def concat(cls, tables: list["MentionTable"], path: str) -> "MentionTable":
        """The documents of several tables (shards, batches of a file) as one table, in order.  Spans only:
        CoNLL-U tables (nodes, heads, sentences) are scored shard by shard."""
        if any(t.words is not None for t in tables):
            raise ValueError("CoNLL-U tables are not concatenated")
        sizes = np.concatenate([np.diff(t.doc_offsets) for t in tables]) if tables else np.zeros(0, np.int64)
        join = (lambda arrays, dtype: np.concatenate(arrays).astype(dtype, copy=False) if arrays
                else np.zeros(0, dtype))
        out = cls(
            path=path,
            doc_names=[n for t in tables for n in t.doc_names],
            doc_lines=join([t.doc_lines for t in tables], np.int64),
            doc_tokens=join([t.doc_tokens for t in tables], np.int64),
            doc_offsets=offsets(sizes),
            start=join([t.start for t in tables], np.int32),
            end=join([t.end for t in tables], np.int32),
            cluster=join([t.cluster for t in tables], np.int32),
            cluster_labels=[labels for t in tables for labels in t.cluster_labels],
            warnings=[w for t in tables for w in t.warnings],
            discarded={n: d for t in tables for n, d in t.discarded.items()},
            unread={n: e for t in tables for n, e in t.unread.items()},
        )
        # the documents whose token count v8.01's reading changed (formats/conll.py): not checked
        out.v801_counts = set().union(*(getattr(t, "v801_counts", ()) for t in tables))
        return out

    def same_mentions(self, other: "MentionTable") -> bool:
        """The same documents, mentions, clusters and labels as ``other`` (CoNLL-U: nodes, heads, zeros and
        DEPS too); paths, lines of documents, sentences and warnings aside."""
        columns = ("doc_tokens", "doc_offsets", "start", "end", "cluster")
        if (self.doc_names != other.doc_names or self.cluster_labels != other.cluster_labels
                or not all(np.array_equal(getattr(self, c), getattr(other, c)) for c in columns)
                or (self.words is None) != (other.words is None)):
            return False
        a, b = self.words, other.words
        return a is None or (all(np.array_equal(getattr(a, c), getattr(b, c)) for c in
                                 ("offsets", "keys", "head", "zero", "dep_offsets", "dep_parent", "lines"))
                             and [a.rel_names[x] for x in a.dep_rel] == [b.rel_names[x] for x in b.dep_rel])

    def without_singletons(self) -> "MentionTable":
        """Drop clusters of one mention, renumbering the rest in order."""
        keep = np.ones(len(self.start), dtype=bool)
        new_cluster = self.cluster.copy()
        labels: list[list[str]] = []
        sizes = []
        for d in range(self.n_docs):
            lo, hi = int(self.doc_offsets[d]), int(self.doc_offsets[d + 1])
            counts = np.bincount(self.cluster[lo:hi], minlength=len(self.cluster_labels[d]))
            kept = counts > 1
            remap = np.cumsum(kept) - 1
            keep[lo:hi] = kept[self.cluster[lo:hi]]
            new_cluster[lo:hi] = remap[self.cluster[lo:hi]]
            labels.append([lab for lab, k in zip(self.cluster_labels[d], kept) if k])
            sizes.append(int(keep[lo:hi].sum()))
        rows = np.flatnonzero(keep)
        return self._subset(list(range(self.n_docs)), rows, sizes, new_cluster[rows].astype(np.int32), labels,
                            discarded=self.discarded, unread=self.unread)

    def to_arrow(self):
        """The table as a ``pyarrow.Table``, one row per mention (:meth:`from_arrow` reads it back):

        ``doc`` (dictionary-encoded; the dictionary lists every document, those without mentions too),
        ``start`` and ``end`` (token offsets, end exclusive: int32; CoNLL-U word keys: int64), ``cluster``
        (index in its document), ``label`` (the cluster's label in the source file); CoNLL-U tables add
        ``nodes`` (list<int64>: the mention's word keys, sorted), ``head`` (int64 word key), ``zero`` (bool:
        the head is an empty node), ``deps_parent`` (list<int64>) and ``deps_rel`` (list<string>): the
        head's enhanced dependencies, and ``line`` (int64: where the mention opens).  The schema's
        ``fastscore.mentions`` metadata (JSON) holds ``version`` (1), ``doc_tokens`` (each document's token
        count, in dictionary order), ``doc_lines``, ``source`` (the file read) and, in a table without
        mentions (whose files keep no dictionary), ``doc_names``.  CoNLL-U sentences (the
        words key and response must share) are not part of it."""
        import json

        import pyarrow as pa

        sizes = np.diff(self.doc_offsets)
        doc_idx = np.repeat(np.arange(self.n_docs, dtype=np.int32), sizes)
        doc = pa.DictionaryArray.from_arrays(pa.array(doc_idx), pa.array(self.doc_names, pa.string()))
        labels = [self.cluster_labels[d][c] for d, c in zip(doc_idx.tolist(), self.cluster.tolist())]
        position = pa.int32() if self.words is None else pa.int64()
        columns = {
            "doc": doc,
            "start": pa.array(self.start, position),
            "end": pa.array(self.end, position),
            "cluster": pa.array(self.cluster, pa.int32()),
            "label": pa.array(labels, pa.string()),
        }
        w = self.words
        if w is not None:
            rel = pa.DictionaryArray.from_arrays(pa.array(w.dep_rel, pa.int32()), pa.array(w.rel_names, pa.string()))
            columns.update({
                "nodes": pa.ListArray.from_arrays(pa.array(w.offsets, pa.int32()), pa.array(w.keys, pa.int64())),
                "head": pa.array(w.head, pa.int64()),
                "zero": pa.array(w.zero, pa.bool_()),
                "deps_parent": pa.ListArray.from_arrays(pa.array(w.dep_offsets, pa.int32()),
                                                        pa.array(w.dep_parent, pa.int64())),
                "deps_rel": pa.ListArray.from_arrays(pa.array(w.dep_offsets, pa.int32()), rel.cast(pa.string())),
                "line": pa.array(w.lines, pa.int64()),
            })
        meta = {"version": TABLE_VERSION, "doc_tokens": [int(n) for n in self.doc_tokens],
                "doc_lines": [int(n) for n in self.doc_lines], "source": self.path}
        if not len(self.start):  # no row: Parquet and Arrow files keep no dictionary, so the documents go here
            meta["doc_names"] = list(self.doc_names)
        return pa.table(columns).replace_schema_metadata({ARROW_METADATA: json.dumps(meta).encode()})

    @classmethod
    def from_arrow(cls, arrow, path: str = "<arrow>") -> "MentionTable":
        """The table :meth:`to_arrow` gave (or any table of that schema, rows in any order: they are grouped
        by document, then cluster, each cluster's rows in their order).  A table that breaks the schema is
        an :class:`~fastscore.errors.InputError` naming ``path``, the row and the document."""
        import json

        import pyarrow as pa

        from ..errors import InputError

        missing = [c for c in ("doc", "start", "end", "cluster", "label") if c not in arrow.column_names]
        if missing:
            raise InputError(f"{path}: not a fastscore mention table: no column {', '.join(missing)} "
                             "(see MentionTable.to_arrow for the schema)")
        raw = (arrow.schema.metadata or {}).get(ARROW_METADATA)
        if raw is None:
            raise InputError(f"{path}: no '{ARROW_METADATA.decode()}' metadata (the documents' token counts): "
                             "write it with fastscore convert --to parquet|arrow")
        try:
            meta = json.loads(raw)
        except (ValueError, RecursionError):
            meta = None
        if not isinstance(meta, dict):
            raise InputError(f"{path}: its '{ARROW_METADATA.decode()}' metadata is not a JSON object")
        if meta.get("version") != TABLE_VERSION:  # a later layout may mean other things by the same columns
            raise InputError(f"{path}: a mention table of version {meta.get('version')!r}; this fastscore reads "
                             f"version {TABLE_VERSION}: write it again with this fastscore's convert")
        nulls = [c for c in ("doc", "start", "end", "cluster") if arrow.column(c).null_count]
        if nulls:
            row = next(i for i, v in enumerate(arrow.column(nulls[0]).is_null().to_pylist()) if v)
            raise InputError(f"{path}: row {row}: column '{nulls[0]}' is null (every mention needs its document, "
                             "start, end and cluster)")
        doc = arrow.column("doc").combine_chunks()
        if not pa.types.is_dictionary(doc.type):
            raise InputError(f"{path}: column 'doc' must be dictionary-encoded (its dictionary lists the documents)")
        names = [str(x) for x in doc.dictionary.to_pylist()]
        if not len(doc) and not names:  # a table without mentions: its documents are in the metadata (to_arrow)
            names = meta.get("doc_names", [])
            if not isinstance(names, list) or not all(isinstance(x, str) for x in names):
                raise InputError(f"{path}: its metadata 'doc_names' is not a list of document names (write the "
                                 "file again with fastscore convert)")
        if len(set(names)) != len(names):
            seen: set[str] = set()
            twice = next(n for n in names if n in seen or seen.add(n))
            raise InputError(f"{path}: document {twice!r} is listed twice in the dictionary of column 'doc'")
        tokens = whole_numbers(meta, "doc_tokens", len(names), path, MAX_TABLE_TOKENS)
        lines = whole_numbers(meta, "doc_lines", len(names), path) if meta.get("doc_lines") else \
            np.zeros(len(names), dtype=np.int64)
        not_integers = [c for c in ("start", "end", "cluster") if not pa.types.is_integer(arrow.column(c).type)]
        if not_integers:
            raise InputError(f"{path}: column {not_integers[0]!r} holds {arrow.column(not_integers[0]).type}, not "
                             "integers (see MentionTable.to_arrow for the schema)")
        doc_idx = doc.indices.to_numpy(zero_copy_only=False).astype(np.int64)
        start, end, cluster = (arrow.column(c).to_numpy().astype(np.int64) for c in ("start", "end", "cluster"))
        words = _words_from_arrow(arrow, path, names, doc_idx, start, end) if "nodes" in arrow.column_names else None
        outside = (end > tokens[doc_idx]) if words is None and len(doc_idx) else False
        bad = np.flatnonzero((start < 0) | (end <= start) | outside | (cluster < 0))
        if len(bad):
            r = int(bad[0])
            raise InputError(f"{path}: row {r} (document {names[doc_idx[r]]!r}): span [{start[r]}, {end[r]}) of "
                             f"cluster {cluster[r]} is not inside the document's {tokens[doc_idx[r]]} tokens")
        order = np.lexsort((cluster, doc_idx))  # grouped by document, then by cluster, the rows' order kept
        doc_idx, start, end, cluster = doc_idx[order], start[order], end[order], cluster[order]
        off = offsets(np.bincount(doc_idx, minlength=len(names)))
        # clusters renumbered densely in each document, in the order of their numbers
        starts_cluster = np.ones(len(order), dtype=bool)
        starts_cluster[1:] = (doc_idx[1:] != doc_idx[:-1]) | (cluster[1:] != cluster[:-1])
        first_rows = np.flatnonzero(starts_cluster)
        per_doc = offsets(np.bincount(doc_idx[first_rows], minlength=len(names)))
        number = np.cumsum(starts_cluster) - 1
        new_cluster = (number - per_doc[doc_idx]).astype(np.int32)
        firsts = [str(x) for x in arrow.column("label").take(pa.array(order[first_rows])).to_pylist()]
        cluster_labels = [firsts[a:b] for a, b in zip(per_doc[:-1].tolist(), per_doc[1:].tolist())]
        dtype = np.int32 if words is None else np.int64
        return cls(path=path, doc_names=names, doc_lines=lines, doc_tokens=tokens, doc_offsets=off,
                   start=start.astype(dtype), end=end.astype(dtype), cluster=new_cluster, cluster_labels=cluster_labels,
                   words=None if words is None else words.take(order))


def _words_from_arrow(arrow, path: str, names: list[str], doc_idx, start, end) -> Words:
    """The :class:`Words` columns of an Arrow mention table, checked against its ``start`` and ``end``."""
    import pyarrow as pa

    from ..errors import InputError

    missing = [c for c in ("head", "zero", "deps_parent", "deps_rel", "line") if c not in arrow.column_names]
    if missing:
        raise InputError(f"{path}: a CoNLL-U mention table (column 'nodes') needs the columns {', '.join(missing)}")

    def csr(name: str):
        column = arrow.column(name).combine_chunks()
        if not pa.types.is_list(column.type) and not pa.types.is_large_list(column.type):
            raise InputError(f"{path}: column {name!r} must be a list column")
        if column.null_count:
            r = int(np.flatnonzero(column.is_null().to_numpy(zero_copy_only=False))[0])
            raise InputError(f"{path}: row {r} (document {names[doc_idx[r]]!r}): no {name!r}")
        flat = column.flatten()
        return np.asarray(column.offsets, dtype=np.int64) - int(column.offsets[0].as_py() or 0), flat

    node_off, nodes = csr("nodes")
    keys = nodes.to_numpy(zero_copy_only=False).astype(np.int64)
    dep_off, parent = csr("deps_parent")
    rel_off, rel = csr("deps_rel")
    rel_text = rel.cast(pa.string()).to_pylist()
    sizes = np.diff(node_off)
    bad = np.flatnonzero(sizes == 0)
    if not len(bad):
        row_of = np.repeat(np.arange(len(sizes)), sizes)
        wrong = (keys[node_off[:-1]] != start) | (keys[node_off[1:] - 1] + 1 != end)
        wrong[row_of[1:][(row_of[1:] == row_of[:-1]) & (np.diff(keys) <= 0)]] = True  # not increasing
        bad = np.flatnonzero(wrong)
    if len(bad):
        r = int(bad[0])
        raise InputError(f"{path}: row {r} (document {names[doc_idx[r]]!r}): its nodes must be sorted word keys "
                         "from 'start' to 'end' - 1")
    for name in ("head", "zero", "line"):
        if arrow.column(name).null_count:
            r = int(np.flatnonzero(arrow.column(name).is_null().to_numpy())[0])
            raise InputError(f"{path}: row {r} (document {names[doc_idx[r]]!r}): no {name!r}")
    if not np.array_equal(dep_off, rel_off):
        raise InputError(f"{path}: columns 'deps_parent' and 'deps_rel' must have lists of the same lengths")
    rel_names = sorted(set(rel_text))
    code = {name: i for i, name in enumerate(rel_names)}
    head = arrow.column("head").to_numpy().astype(np.int64)
    zero = arrow.column("zero").to_numpy().astype(bool)
    return Words(offsets=node_off, keys=keys, head=head, zero=zero, dep_offsets=dep_off,
                 dep_parent=parent.to_numpy(zero_copy_only=False).astype(np.int64),
                 dep_rel=np.fromiter(map(code.__getitem__, rel_text), np.int32, len(rel_text)),
                 rel_names=rel_names, lines=arrow.column("line").to_numpy().astype(np.int64))
