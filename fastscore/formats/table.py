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

    @classmethod
    def from_documents(cls, docs: dict[str, list[list[tuple[int, int]]]], n_tokens: dict[str, int] | None = None,
                       path: str = "<memory>") -> "MentionTable":
        """Build a table from ``{name: [[(start, end), ...] per cluster]}`` (end exclusive)."""
        names = list(docs)
        starts, ends, clusters, sizes = [], [], [], []
        for name in names:
            n = 0
            for c, chain in enumerate(docs[name]):
                for s, e in chain:
                    starts.append(s)
                    ends.append(e)
                    clusters.append(c)
                    n += 1
            sizes.append(n)
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
        return (f"MentionTable({self.path!r}: {self.n_docs} documents, {int(self.doc_tokens.sum())} tokens, "
                f"{len(self.start)} mentions, {clusters} clusters)")

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
        sizes = [self.doc_offsets[i + 1] - self.doc_offsets[i] for i in keep_docs]
        return MentionTable(
            path=self.path,
            doc_names=[self.doc_names[i] for i in keep_docs],
            doc_lines=self.doc_lines[keep_docs],
            doc_tokens=self.doc_tokens[keep_docs],
            doc_offsets=offsets(sizes),
            start=self.start[idx],
            end=self.end[idx],
            cluster=self.cluster[idx],
            cluster_labels=[self.cluster_labels[i] for i in keep_docs],
            words=None if self.words is None else self.words.take(idx),
        )

    @classmethod
    def concat(cls, tables: list["MentionTable"], path: str) -> "MentionTable":
        """The documents of several tables (shards, batches of a file) as one table, in order.  Spans only:
        CoNLL-U tables (nodes, heads, sentences) are scored shard by shard."""
        if any(t.words is not None for t in tables):
            raise ValueError("CoNLL-U tables are not concatenated")
        sizes = np.concatenate([np.diff(t.doc_offsets) for t in tables]) if tables else np.zeros(0, np.int64)
        join = (lambda arrays, dtype: np.concatenate(arrays).astype(dtype, copy=False) if arrays
                else np.zeros(0, dtype))
        return cls(
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
        )

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
        return MentionTable(
            path=self.path,
            doc_names=list(self.doc_names),
            doc_lines=self.doc_lines,
            doc_tokens=self.doc_tokens,
            doc_offsets=offsets(sizes),
            start=self.start[keep],
            end=self.end[keep],
            cluster=new_cluster[keep].astype(np.int32),
            cluster_labels=labels,
            words=None if self.words is None else self.words.take(np.flatnonzero(keep)),
        )

    def to_arrow(self):
        """The table as ``pyarrow.Table`` (doc dictionary-encoded, cluster label kept)."""
        import pyarrow as pa

        sizes = np.diff(self.doc_offsets)
        doc_idx = np.repeat(np.arange(self.n_docs, dtype=np.int32), sizes)
        doc = pa.DictionaryArray.from_arrays(pa.array(doc_idx), pa.array(self.doc_names, pa.string()))
        labels = [self.cluster_labels[d][c] for d, c in zip(doc_idx.tolist(), self.cluster.tolist())]
        return pa.table(
            {
                "doc": doc,
                "start": pa.array(self.start, pa.int32()),
                "end": pa.array(self.end, pa.int32()),
                "cluster": pa.array(self.cluster, pa.int32()),
                "label": pa.array(labels, pa.string()),
            }
        )
