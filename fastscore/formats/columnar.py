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
tokens of each document, in dictionary order), ``doc_lines``, ``source`` (the file it was converted
from) and, in a table without mentions (a file of no rows keeps no dictionary), ``doc_names``; see
:meth:`MentionTable.to_arrow`, which writes it, and :meth:`MentionTable.from_arrow`, which reads it.  CoNLL-U tables (the columns ``nodes``, ``head``, ``zero``, ``deps_parent``, ``deps_rel``, ``line``)
also keep, in the ``fastscore.sentences`` metadata (JSON), what the check that key and response hold the
same sentences and words needs: ``ids`` and ``lines`` of the sentences, ``newdoc`` (sentence index ->
document id, or true for a newdoc without id) and ``digests`` (hexadecimal: an 8-byte BLAKE2b of each
sentence's forms joined by NUL, in order).
"""
from __future__ import annotations

import json
import os

from ..errors import InputError, UsageError
from .files import refuse_stdin, sniff_format
from .table import ARROW_METADATA, MentionTable

KINDS = ("parquet", "arrow")
SENTENCES = b"fastscore.sentences"  # CoNLL-U tables: their sentences' ids, lines, document starts, form digests


def table_file_kind(path) -> str | None:
    """``parquet`` or ``arrow`` when ``path`` is a file of that kind (its first bytes; a compressed file is
    not opened further), else None."""
    path = os.fspath(path)
    if path == "-" or not os.path.isfile(path):
        return None
    with open(path, "rb") as fh:
        sniffed = sniff_format(fh.read(8))
    return sniffed.format if sniffed is not None and sniffed.format in KINDS else None


def write_mention_table(table: MentionTable, path, kind: str) -> None:
    """``table`` as a Parquet or Arrow file at ``path``, put in place only when complete (outputs.output_path)."""
    from ..outputs import output_path

    with output_path(path) as tmp:
        write_table_file(table, tmp, kind)


def write_table_file(table: MentionTable, path, kind: str) -> None:
    """``table`` written straight to ``path`` (a temporary file of :func:`fastscore.outputs.output_path`)."""
    if kind not in KINDS:
        raise UsageError(f"unknown columnar format {kind!r}: choose from {', '.join(KINDS)}")
    import pyarrow as pa

    arrow = table.to_arrow()
    if table.words is not None:  # CoNLL-U: what the key/response check needs of the sentences
        from .conllu import sentences_to_meta

        if table.sentences is None:
            raise UsageError(f"{table.path}: a CoNLL-U mention table without its sentences (from Arrow) cannot be "
                             "written: convert the CoNLL-U file")
        sentences = json.dumps(sentences_to_meta(table.sentences)).encode()
        arrow = arrow.replace_schema_metadata({**arrow.schema.metadata, SENTENCES: sentences})
    path = os.fspath(path)
    if kind == "parquet":
        import pyarrow.parquet as pq

        pq.write_table(arrow, path)
    else:
        with pa.OSFile(path, "wb") as sink, pa.ipc.new_file(sink, arrow.schema) as writer:
            writer.write_table(arrow)


def import_reader(path) -> None:
    """pyarrow's readers imported when ``path`` is a Parquet or Arrow file (``Corpus.prepare``: once in a process
    that forks workers to read such files)."""
    if isinstance(path, (str, os.PathLike)) and table_file_kind(path) is not None:
        import numpy.ma  # noqa: F401 - pa.array of a NumPy array (MentionTable.from_arrow) imports it
        import pyarrow.compute  # noqa: F401 - Table.take
        import pyarrow.ipc  # noqa: F401
        import pyarrow.parquet  # noqa: F401


def read_mention_table(path) -> MentionTable:
    """A mention table written by :func:`write_mention_table` (or by any tool that follows the schema of
    :meth:`MentionTable.to_arrow`)."""
    import pyarrow as pa

    path = os.fspath(path)
    refuse_stdin(path, "a Parquet or Arrow mention table is read from its file (memory-mapped)")
    try:
        if table_file_kind(path) == "parquet":
            import pyarrow.parquet as pq

            # one file's table: ParquetFile reads it as read_table does, without importing pyarrow.dataset
            with pq.ParquetFile(path) as parquet:
                arrow = parquet.read()
            return _table(arrow, path)
        with pa.memory_map(path) as source:  # the columns are copied out before the map is closed
            return _table(pa.ipc.open_file(source).read_all(), path)
    except (OSError, pa.ArrowException, UnicodeDecodeError) as exc:  # a damaged column name is not UTF-8
        reason = " ".join(str(exc).split())  # pyarrow's messages may span lines
        raise InputError(f"{path}: cannot read it as Parquet or Arrow: {reason}") from None


def _table(arrow, path: str) -> MentionTable:
    # its buffers checked first: a damaged Arrow file is read without checks, and reading its offsets or
    # dictionary indices out of range would crash the process (pyarrow's error: the caller's message)
    arrow.validate(full=True)
    try:
        table = MentionTable.from_arrow(arrow, path)
        sentences = (arrow.schema.metadata or {}).get(SENTENCES)
        if table.words is not None and sentences is not None:
            from .conllu import sentences_from_meta

            source = json.loads(arrow.schema.metadata[ARROW_METADATA]).get("source")
            table.sentences = sentences_from_meta(json.loads(sentences), source)
        return table
    except InputError:
        raise
    except (ValueError, TypeError, KeyError, RecursionError) as exc:  # a column of another type, metadata not ours
        raise InputError(f"{path}: not a fastscore mention table ({type(exc).__name__}: {exc}); see "
                         "MentionTable.to_arrow for the schema") from None
