"""Mention tables as Parquet files or Arrow IPC files: parsed once, read back without parsing.

Schema (one row per mention, grouped by document):

====================  ==========================  =================================================
column                type                        meaning
====================  ==========================  =================================================
``doc``               dictionary<int32, string>   the document (the dictionary lists every document
                                                  in order, those without mentions included)
``start``, ``end``    int32                       token offsets in the document, end exclusive
``cluster``           int32                       the cluster's index in its document
``label``             string                      the cluster's label in the source file
====================  ==========================  =================================================

The schema's ``fastscore.mentions`` metadata (JSON) holds ``version`` (1), ``doc_tokens`` (the number of
tokens of each document, in dictionary order) and ``source`` (the file it was converted from).  Only span
tables are written (CoNLL-2012, jsonlines, NAF); CoNLL-U's nodes, heads and zeros are not.
"""
from __future__ import annotations

import json
import os

import numpy as np

from ..errors import InputError, UsageError
from .table import MentionTable, offsets

KINDS = ("parquet", "arrow")
_KEY = b"fastscore.mentions"


def sniff(head: bytes) -> str | None:
    """``parquet`` or ``arrow`` from a file's first bytes, else None."""
    if head.startswith(b"PAR1"):
        return "parquet"
    if head.startswith(b"ARROW1"):
        return "arrow"
    return None


def write_mention_table(table: MentionTable, path, kind: str) -> None:
    if kind not in KINDS:
        raise UsageError(f"unknown columnar format {kind!r}: choose from {', '.join(KINDS)}")
    if table.words is not None:
        raise UsageError("CoNLL-U mentions (nodes, heads, zeros) are not written to Parquet or Arrow: convert "
                         "CoNLL-2012, jsonlines or NAF input")
    import pyarrow as pa

    meta = {"version": 1, "doc_tokens": [int(n) for n in table.doc_tokens], "source": table.path}
    arrow = table.to_arrow().replace_schema_metadata({_KEY: json.dumps(meta).encode()})
    path = os.fspath(path)
    if kind == "parquet":
        import pyarrow.parquet as pq

        pq.write_table(arrow, path)
    else:
        with pa.OSFile(path, "wb") as sink, pa.ipc.new_file(sink, arrow.schema) as writer:
            writer.write_table(arrow)


def read_mention_table(path) -> MentionTable:
    """A mention table written by :func:`write_mention_table` (or by any tool that follows the schema)."""
    import pyarrow as pa

    path = os.fspath(path)
    try:
        with open(path, "rb") as fh:
            head = fh.read(8)
        if sniff(head) == "parquet":
            import pyarrow.parquet as pq

            arrow = pq.read_table(path)
        else:
            import pyarrow as pa

            with pa.memory_map(path) as source:  # the columns are copied out before the map is closed
                return _table(pa.ipc.open_file(source).read_all(), path)
    except (OSError, pa.ArrowInvalid) as exc:
        raise InputError(f"{path}: cannot read it as Parquet or Arrow: {exc}") from None
    return _table(arrow, path)


def _table(arrow, path: str) -> MentionTable:
    import pyarrow as pa

    missing = [c for c in ("doc", "start", "end", "cluster", "label") if c not in arrow.column_names]
    if missing:
        raise InputError(f"{path}: not a fastscore mention table: no column {', '.join(missing)} "
                         "(see fastscore.formats.columnar for the schema)")
    raw = (arrow.schema.metadata or {}).get(_KEY)
    if raw is None:
        raise InputError(f"{path}: no '{_KEY.decode()}' metadata (the documents' token counts): write it with "
                         "fastscore convert --to parquet|arrow")
    meta = json.loads(raw)
    doc = arrow.column("doc").combine_chunks()
    if not pa.types.is_dictionary(doc.type):
        raise InputError(f"{path}: column 'doc' must be dictionary-encoded (its dictionary lists the documents)")
    names = [str(x) for x in doc.dictionary.to_pylist()]
    tokens = np.asarray(meta.get("doc_tokens", []), dtype=np.int64)
    if len(tokens) != len(names) or len(set(names)) != len(names):
        raise InputError(f"{path}: {len(names)} documents (some named twice?) but {len(tokens)} token counts")
    doc_idx = doc.indices.to_numpy(zero_copy_only=False).astype(np.int64)
    start = arrow.column("start").to_numpy().astype(np.int64)
    end = arrow.column("end").to_numpy().astype(np.int64)
    cluster = arrow.column("cluster").to_numpy().astype(np.int64)
    labels = arrow.column("label").to_pylist()
    bad = np.flatnonzero((start < 0) | (end <= start) | (end > tokens[doc_idx] if len(doc_idx) else False)
                        | (cluster < 0))
    if len(bad):
        r = int(bad[0])
        raise InputError(f"{path}: row {r} (document {names[doc_idx[r]]!r}): span [{start[r]}, {end[r]}) of cluster "
                         f"{cluster[r]} is not inside the document's {tokens[doc_idx[r]]} tokens")
    order = np.lexsort((cluster, doc_idx))  # grouped by document, then by cluster, the rows' order kept
    doc_idx, start, end, cluster = doc_idx[order], start[order], end[order], cluster[order]
    labels = [labels[i] for i in order.tolist()]
    sizes = np.bincount(doc_idx, minlength=len(names))
    off = offsets(sizes)
    cluster_labels, new_cluster = [], np.empty(len(cluster), dtype=np.int32)
    for d in range(len(names)):
        lo, hi = int(off[d]), int(off[d + 1])
        found, index = np.unique(cluster[lo:hi], return_inverse=True)  # clusters renumbered densely
        new_cluster[lo:hi] = index.reshape(-1)
        first = np.searchsorted(cluster[lo:hi], found)
        cluster_labels.append([str(labels[lo + int(f)]) for f in first])
    return MentionTable(path=path, doc_names=names, doc_lines=np.zeros(len(names), dtype=np.int64),
                        doc_tokens=tokens, doc_offsets=off, start=start.astype(np.int32), end=end.astype(np.int32),
                        cluster=new_cluster, cluster_labels=cluster_labels)

