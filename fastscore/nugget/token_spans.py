"""Token-id spans of every scored document at once (kernels/tbf_tokens.py), where ``engine.prepare`` would
otherwise read each document's token table into a dict and each span into a set.

Every document is read here (the reading one document at a time, with sets and dicts, is the oracle of
tests/reference_nugget.py).  Python reads one thing: the token table of a document one of whose mentions names
a token with a word outside ASCII, for Python 3's Unicode ``lower``/``strip`` (``engine._invisible_ids``: the
invisible tokens of --fix-evmeval-quirks and the warning on the words scorer_v1.7.1 keeps visible).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from itertools import chain

import numpy as np

from ..formats.table import offsets
from ..formats.tbf import TbfDocument, TbfFile

ROLES = ("gold", "system")


def row_positions(row_lists: list) -> np.ndarray:
    """The rows of every list (a document's rows: a range, or a list with a whitelist), one after another."""
    if all(isinstance(r, range) and r.step == 1 for r in row_lists):
        starts = np.fromiter((r.start for r in row_lists), np.int64, len(row_lists))
        sizes = np.fromiter(map(len, row_lists), np.int64, len(row_lists))
        return np.repeat(starts - offsets(sizes)[:-1], sizes) + np.arange(int(sizes.sum()), dtype=np.int64)
    return np.fromiter(chain.from_iterable(row_lists), np.int64)


@dataclass
class TokenSpans:
    """Every token of the scored documents' mentions, both sides (gold spans, then system spans)."""

    files: dict  # role -> TbfFile
    n_docs: int
    span_doc: np.ndarray  # per span, its document
    row_span: dict  # role -> per row of the file, its span (-1: not in a scored document)
    buf: np.ndarray  # the spans' bytes, joined by newlines
    tok_span: np.ndarray  # per token, its span
    tok_start: np.ndarray  # per token, its bytes in buf (start, end)
    tok_end: np.ndarray
    span_first: np.ndarray  # per span, its first token (CSR offsets)
    code: np.ndarray  # per token, its number (equal tokens of a document alike, numbered document by document)
    groups: tuple  # per number: document, hash, start, end (sorted by document)

    @classmethod
    def build(cls, gold: TbfFile, system: TbfFile, docs: list[tuple[TbfDocument, TbfDocument | None]]):
        from ..kernels.tbf_tokens import group_tokens, slice_hashes, split_tokens

        spans: list = []
        span_doc = []
        row_span = {}
        for role, tbf, side in (("gold", gold, 0), ("system", system, 1)):
            rows = [d[side].rows if d[side] is not None else range(0) for d in docs]
            positions = np.full(len(tbf.spans), -1, dtype=np.int64)
            sizes = np.fromiter(map(len, rows), np.int64, len(rows))
            positions[row_positions(rows)] = len(spans) + np.arange(sizes.sum())
            row_span[role] = positions
            span_doc.append(np.repeat(np.arange(len(docs), dtype=np.int64), sizes))
            spans.extend(chain.from_iterable(tbf.spans[r.start:r.stop] for r in rows))  # a document's rows: a range
        buf = np.frombuffer("\n".join(spans).encode("utf-8"), dtype=np.uint8)
        tok_span, start, end, span_first = split_tokens(buf, len(spans))
        doc_of_span = np.concatenate(span_doc)
        code, groups = group_tokens(buf, start, end, slice_hashes(buf, start, end), doc_of_span[tok_span], len(docs))
        return cls({"gold": gold, "system": system}, len(docs), doc_of_span, row_span, buf, tok_span, start, end,
                   span_first, code, groups)

    def _distinct(self, keep: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Per span, its distinct numbers of the tokens ``keep`` selects (None: all, computed once), sorted
        (CSR: counts, numbers)."""
        from ..kernels.tbf_tokens import span_numbers

        return self._every_token if keep is None else span_numbers(self.span_first, self.code, keep)

    @cached_property
    def _every_token(self) -> tuple[np.ndarray, np.ndarray]:
        return self._distinct(np.ones(len(self.code), dtype=bool))

    def span_keys(self, role: str) -> tuple[np.ndarray, np.ndarray]:
        """Per row of the role's file, what ``kernels/tbf_scan.span_keys`` gives for character spans: a hash
        equal for two spans naming the same set of tokens, and whether it holds (a row of a scored
        document)."""
        counts, codes = self._distinct()
        mixed = (codes.astype(np.uint64) + np.uint64(1)) * np.uint64(0x9E3779B97F4A7C15)
        mixed ^= mixed >> np.uint64(29)
        sums = np.add.reduceat(mixed, offsets(counts)[:-1]) if len(mixed) else np.zeros(0, np.uint64)
        n_rows = len(self.files[role].spans)
        keys, ok = np.zeros(n_rows, dtype=np.int64), np.zeros(n_rows, dtype=bool)
        rows = np.flatnonzero(self.row_span[role] >= 0)
        spans = self.row_span[role][rows]
        keys[rows] = sums[spans].view(np.int64)
        ok[rows] = True
        return keys, ok

    def look_up(self, tab: np.ndarray, bounds: np.ndarray, invisible: frozenset[str]):
        """The documents' tables (document d's bytes: ``tab[bounds[d]:bounds[d + 1]]``, empty: none) -> per
        number whether its table has it and whether it is invisible as scorer_v1.7.1 reads bytes, and the
        documents with a visible token whose word is outside ASCII (Python 3 may read it otherwise)."""
        from ..kernels.tbf_tokens import table_lookup

        words = sorted(w.encode("utf-8") for w in invisible)
        word_buf = np.frombuffer(b"".join(words), dtype=np.uint8)
        word_off = offsets(np.fromiter(map(len, words), np.int64, len(words)))
        found, hidden = table_lookup(tab, bounds[:-1], bounds[1:], self.buf, *self.groups, word_buf, word_off)
        return found, hidden == 1, np.unique(self.groups[0][hidden == 2])

    def numbers_of(self, doc: int) -> tuple[range, list[str]]:
        """The numbers of a document and their tokens."""
        g_doc, _, g_start, g_end = self.groups
        lo, hi = np.searchsorted(g_doc, [doc, doc + 1]).tolist()
        data = self.buf.tobytes()
        return range(lo, hi), [data[s:e].decode("utf-8") for s, e in zip(g_start[lo:hi].tolist(),
                                                                           g_end[lo:hi].tolist())]

    def sides(self, role: str, kept: list, hidden: np.ndarray):
        """The role's kept rows of every document as one CSR: mentions per document, each mention's number of
        distinct visible tokens, their numbers (``hidden``: per number)."""
        counts, codes = self._distinct(~hidden[self.code] if hidden.any() else None)
        sizes = np.fromiter(map(len, kept), np.int64, len(kept))
        spans = self.row_span[role][row_positions(kept)]
        doc_of = np.repeat(np.arange(len(kept), dtype=np.int64), sizes)
        lengths = counts[spans]
        # numbers from 0 in each document (the mapping kernel's counting sort spans a document's numbers)
        first = np.searchsorted(self.groups[0], np.arange(len(kept)))
        values = _gather(codes, offsets(counts), spans) - np.repeat(first[doc_of], lengths)
        return sizes, lengths, values

    def unknown(self, role: str, kept: list, found: np.ndarray, has_table: np.ndarray) -> list[tuple[int, int, str]]:
        """(document, row, token) of each kept row of a document with a table naming a token the table lacks
        (``found``: per number), its first such token, in document and row order."""
        sizes = np.fromiter(map(len, kept), np.int64, len(kept))
        rows = row_positions(kept)
        spans = self.row_span[role][rows]
        doc_of = np.repeat(np.arange(len(kept), dtype=np.int64), sizes)
        lacking = ~found[self.code]
        missing = np.bincount(self.tok_span[lacking], minlength=len(self.span_doc)) > 0
        data = self.buf.tobytes()
        out = []
        for k in np.flatnonzero(missing[spans] & has_table[doc_of]).tolist():
            t = self.span_first[spans[k]] + int(np.argmax(lacking[self.span_first[spans[k]]:
                                                                  self.span_first[spans[k] + 1]]))
            out.append((int(doc_of[k]), int(rows[k]), data[self.tok_start[t]:self.tok_end[t]].decode("utf-8")))
        return out


def _gather(values: np.ndarray, starts: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """The CSR rows ``rows`` of ``values`` (row k: ``values[starts[k]:starts[k + 1]]``), one after another."""
    lengths = starts[rows + 1] - starts[rows]
    total = int(lengths.sum())
    if not total:
        return np.zeros(0, dtype=values.dtype)
    return values[np.repeat(starts[rows] - offsets(lengths)[:-1], lengths) + np.arange(total)]
