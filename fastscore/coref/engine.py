"""Coreference scoring glue: align documents, run the kernels, collect DocStats.

Documents are those of the key (a key document missing from the response is
scored against an empty response; response-only documents are ignored), as
v8.01 does.  All metrics are computed in one pass from the same contingency
tables.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import InputError
from ..formats.files import lone_cr_hint
from ..formats.table import MentionTable, offsets
from ..messages import did_you_mean, few, shown
from ..pairing import pair
from .metrics import METRICS
from ..stats.docstats import DocStats
from . import PAIRING

MAX_REPEATED = 10  # v8.01 refuses a response with more repeated mentions than this


@dataclass
class Aligned:
    """Key and response rows of the scored documents, ready for the kernels."""

    doc_names: list[str]
    k_off: np.ndarray
    k_start: np.ndarray
    k_end: np.ndarray
    k_chain: np.ndarray
    k_nchains: np.ndarray
    r_off: np.ndarray
    r_start: np.ndarray
    r_end: np.ndarray
    r_chain: np.ndarray
    r_nchains: np.ndarray
    r_found: np.ndarray  # bool per document: present in the response
    k_rows: np.ndarray  # the key table's rows, in this order (CoNLL-U: their Words)
    r_rows: np.ndarray  # the response table's rows


def refuse_unread(table: MentionTable, names: list[str]) -> None:
    """Raise the reading error of the first of ``names`` the table could not read (v8.01 dies on it)."""
    for name in names:
        if name in table.unread:
            raise table.unread[name]


def align_documents(key: MentionTable, response: MentionTable, doc: str | None = None) -> Aligned:
    """Pair each key document with the response document of the same name (``PAIRING``)."""
    if doc is None:
        docs = list(range(key.n_docs))
    else:
        index = key.doc_index()
        if doc not in index:
            hint = (" (v8.01 does not see some of the key's documents: --fix-scorer-quirks reads them)"
                    if getattr(key, "documents_hidden", 0) else did_you_mean(doc, index))
            raise InputError(f'{key.path}: no document "{shown(doc)}" in the key (--doc){hint}')
        docs = [index[doc]]
    r_docs = [r for _, _, r in pair([key.doc_names[d] for d in docs], response.doc_names, PAIRING).pairs]
    refuse_unread(key, [key.doc_names[d] for d in docs])
    refuse_unread(response, [response.doc_names[r] for r in r_docs if r is not None])
    early = getattr(key, "v801_counts", set()) | getattr(response, "v801_counts", set())  # (the reader warned)
    for d, r in zip(docs, r_docs):
        if r is not None and response.doc_tokens[r] != key.doc_tokens[d] and key.doc_names[d] not in early:
            raise InputError(
                f'{response.path}:{response.doc_lines[r]}: document "{shown(key.doc_names[d])}": '
                f"{response.doc_tokens[r]} tokens, but the key ({key.path}:{key.doc_lines[d]}) has "
                f"{key.doc_tokens[d]}: the response must have the same tokens as the key"
            )
    k = key.select(docs)
    none = np.zeros(0, np.int64)
    k_rows = [np.arange(key.doc_offsets[d], key.doc_offsets[d + 1]) for d in docs]
    r_rows = [np.arange(response.doc_offsets[r], response.doc_offsets[r + 1]) if r is not None else none
              for r in r_docs]
    rows = np.concatenate(r_rows) if r_rows else none
    return Aligned(doc_names=k.doc_names, k_off=k.doc_offsets, k_start=k.start, k_end=k.end, k_chain=k.cluster,
                   k_nchains=np.asarray([len(x) for x in k.cluster_labels], dtype=np.int64),
                   r_off=offsets([len(x) for x in r_rows]), r_start=response.start[rows], r_end=response.end[rows],
                   r_chain=response.cluster[rows],
                   r_nchains=np.asarray([len(response.cluster_labels[r]) if r is not None else 0 for r in r_docs],
                                        dtype=np.int64),
                   r_found=np.asarray([r is not None for r in r_docs]),
                   k_rows=np.concatenate(k_rows) if k_rows else none, r_rows=rows)


@dataclass
class Scored:
    """Per-document statistics and the number of dropped repeats."""

    stats: DocStats
    repeated: int  # response repeats of key mentions dropped, over all documents


def score_aligned(a: Aligned, *, allow_repeated: bool = False, response_path: str = "response", matched=None,
                  registry: dict = METRICS, extra: dict | None = None, metric_runs: int = 1) -> Scored:
    """Compute every metric's per-document statistics for aligned documents.

    ``metric_runs``: how many of v8.01's metrics the run reports; v8.01 counts each repeated mention once
    per metric it scores (its ``all`` mode: five times) and refuses the response past ``MAX_REPEATED``.

    ``matched``: the mention alignment ``(key ids, response ids, counts)`` of another matching (the
    contract of ``kernels.mentions.align_exact``, which gives the exact-span one by default);
    ``extra``: more statistics columns (per document) that ``registry`` reads.
    """
    from ..kernels import contingency, links, mentions, overlap

    if matched is None:
        k_id, r_id, counts = mentions.align_exact(a.k_off, a.k_start, a.k_end, a.r_off, a.r_start, a.r_end)
    else:
        k_id, r_id, counts = matched
    repeated = int(counts[:, 3].sum())
    if repeated * metric_runs > MAX_REPEATED and not allow_repeated:
        times = "" if metric_runs == 1 else (f", counted once per metric as v8.01 counts them: {repeated} x "
                                             f"{metric_runs} metrics = {repeated * metric_runs}")
        raise InputError(
            f"{response_path}: {repeated} repeated mentions (the same span twice in the response, "
            f"matching a key mention{times}); the reference scorer refuses more than {MAX_REPEATED}: "
            "fix the output, or pass --allow-repeated to score it anyway (repeats are dropped)"
        )
    (cell_off, ci, cj, cc, cd, ce, cf, k_size_off, k_size, r_size_off, r_size, repeats) = (
        contingency.contingency_tables(a.k_off, k_id, a.k_chain, a.k_nchains, a.r_off, r_id, a.r_chain, a.r_nchains)
    )
    mention_counts = np.stack([counts[:, 2], counts[:, 0], counts[:, 2], counts[:, 1]], axis=1).astype(np.float64)
    muc_blanc = links.muc_blanc(cell_off, ci, cj, cd, cd, k_size_off, k_size, r_size_off, r_size)
    for d in np.flatnonzero(repeats):
        ks, ke, rs, re = a.k_off[d], a.k_off[d + 1], a.r_off[d], a.r_off[d + 1]
        muc_blanc[d, 4:] = links.blanc_with_repeats(
            k_id[ks:ke], a.k_chain[ks:ke].astype(np.int64), a.k_nchains[d],
            r_id[rs:re], a.r_chain[rs:re].astype(np.int64), a.r_nchains[d],
        )
    bcub_lea = overlap.bcub_lea(cell_off, ci, cj, cc, cd, cf, k_size_off, k_size, r_size_off, r_size,
                                a.k_off, k_id, a.k_chain, a.r_off, r_id, a.r_chain)
    ceaf_stats = _ceaf(cell_off, ci, cj, ce, k_size_off, k_size, r_size_off, r_size)
    # each metric's columns, in the registry's order for that metric
    blocks = {"mentions": mention_counts, "muc": muc_blanc[:, :4], "bcub": bcub_lea[:, :4], "ceafm": ceaf_stats[:, :4],
              "ceafe": ceaf_stats[:, 4:], "lea": bcub_lea[:, 4:], "blanc": muc_blanc[:, 4:]}
    columns = {c: block[:, k] for m, block in blocks.items() for k, c in enumerate(METRICS[m].columns)}
    columns.update(extra or {})
    return Scored(DocStats.from_columns(a.doc_names, columns, registry), repeated)


def _ceaf(cell_off, ci, cj, ce, k_size_off, k_size, r_size_off, r_size) -> np.ndarray:
    from ..kernels import ceaf

    best3, best4 = ceaf.ceaf_assignments(cell_off, ci, cj, ce, k_size_off, k_size, r_size_off, r_size)
    return ceaf.ceaf_sums(k_size_off, k_size, r_size_off, r_size, best3, best4)


def unseen_key_document(key: MentionTable, response: MentionTable, doc: str | None) -> tuple[MentionTable, list[str]]:
    """v8.01 given ``--doc NAME`` scores a key document whose start it does not see (its reader hid some) as an
    empty key document: the key with such a document added at its end, and the warning; else the key as it is."""
    if doc is None or not getattr(key, "documents_hidden", 0) or doc in key.doc_index():
        return key, []
    r = response.doc_index().get(doc)
    if r is None:
        return key, []  # (nothing of that name on either side: refused, as a misspelt name)
    empty = MentionTable.from_documents({doc: []}, {doc: int(response.doc_tokens[r])}, key.path)
    out = MentionTable.concat([key, empty], key.path)
    out.documents_hidden, out.v801_counts = key.documents_hidden, getattr(key, "v801_counts", set())
    out.v801_unseen = {doc}
    return out, [f'{key.path}: no document "{shown(doc)}" for v8.01 (it does not see the start of some of the key\'s '
                 "documents): scored as an empty key document, as v8.01 scores it (--fix-scorer-quirks reads them)"]


def coval_statistics(k_off, k_ids, k_chain, k_nchains, r_off, r_ids, r_chain, r_nchains, *,
                     ceaf: bool = True) -> dict[str, np.ndarray]:
    """Per-document statistics with coval's mention semantics (MINA, and the CorefUD scorer's lookups) from the
    kernels of :func:`score_aligned`.  Mentions are identity ids (equal mentions, equal ids) with their chain:
    coval keeps every mention of a chain, repeats too, and finds a mention on the other side through a
    dictionary whose entry for equal mentions holds the LAST chain that has one, which the contingency
    table's ``f`` (key mentions) and ``d`` (response mentions) count.  Returns each metric's columns (recall
    numerator and denominator, precision numerator and denominator; BLANC's coreference links, then its
    non-coreference links, as the Universal Anaphora scorer counts them): mentions (distinct identities),
    muc, bcub, lea, blanc and, with ``ceaf``, ceafm and ceafe."""
    from ..kernels import contingency, links, overlap

    k_ids, r_ids = _per_document_ids(k_off, k_ids, r_off, r_ids)
    (cell_off, ci, cj, cc, cd, ce, cf, k_size_off, k_size, r_size_off, r_size, _) = (
        contingency.contingency_tables(k_off, k_ids, k_chain, k_nchains, r_off, r_ids, r_chain, r_nchains))
    muc_blanc = links.muc_blanc(cell_off, ci, cj, cf, cd, k_size_off, k_size, r_size_off, r_size)
    bcub_lea = overlap.bcub_lea(cell_off, ci, cj, cc, cd, cf, k_size_off, k_size, r_size_off, r_size,
                                k_off, k_ids, k_chain, r_off, r_ids, r_chain, per_chain=True)
    out = {"mentions": _distinct_mentions(k_off, k_ids, r_off, r_ids), "muc": muc_blanc[:, :4],
           "bcub": bcub_lea[:, :4], "lea": bcub_lea[:, 4:], "blanc": muc_blanc[:, 4:]}
    if ceaf:
        order = np.lexsort((cj, ci, _doc_of(cell_off)))  # coval's cells by key chain, then response chain (its ties' order)
        stats = _ceaf(cell_off, ci[order], cj[order], ce[order], k_size_off, k_size, r_size_off, r_size)
        out.update(ceafm=stats[:, :4], ceafe=stats[:, 4:])
    return out


def distinct_blanc(k_off, k_ids, k_chain, k_nchains, r_off, r_ids, r_chain, r_nchains) -> np.ndarray:
    """BLANC link counts (n_docs, 8: coreference then non-coreference links, each recall numerator and
    denominator, precision numerator and denominator) over the mentions coval's lookups see with minimum spans:
    distinct identities, each in the last chain of its side that holds it."""
    from ..kernels import contingency, links

    k_ids, r_ids = _per_document_ids(k_off, k_ids, r_off, r_ids)
    key, resp = _last_chains(k_off, k_ids, k_chain), _last_chains(r_off, r_ids, r_chain)
    (cell_off, ci, cj, _, cd, _, _, k_size_off, k_size, r_size_off, r_size, _) = (
        contingency.contingency_tables(*key, k_nchains, *resp, r_nchains))
    return links.muc_blanc(cell_off, ci, cj, cd, cd, k_size_off, k_size, r_size_off, r_size)[:, 4:]


def _doc_of(off) -> np.ndarray:
    return np.repeat(np.arange(len(off) - 1), np.diff(off))


def _per_document_ids(k_off, k_ids, r_off, r_ids) -> tuple[np.ndarray, np.ndarray]:
    """The identity ids numbered from 0 in each document, in the same order (the kernels size their tables by
    the largest id, per document: ids numbered over the corpus would cost the corpus's ids per document)."""
    doc = np.concatenate([_doc_of(k_off), _doc_of(r_off)])
    ids = np.concatenate([k_ids, r_ids]).astype(np.int64)
    width = int(ids.max(initial=-1)) + 1
    values, dense = np.unique(doc * width + ids, return_inverse=True)
    first = np.searchsorted(values // max(width, 1), np.arange(len(k_off) - 1))
    local = dense.reshape(-1) - first[doc]
    return local[:len(k_ids)], local[len(k_ids):]


def _last_chains(off, ids, chain) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(offsets, ids, chains) of one row per identity of each document, in the last chain holding it."""
    doc = _doc_of(off)
    order = np.lexsort((chain, ids, doc))
    last = np.ones(len(order), dtype=bool)
    last[:-1] = (doc[order][1:] != doc[order][:-1]) | (ids[order][1:] != ids[order][:-1])
    keep = order[last]
    return offsets(np.bincount(doc[keep], minlength=len(off) - 1)), ids[keep], chain[keep]


def _distinct_mentions(k_off, k_ids, r_off, r_ids) -> np.ndarray:
    """(n_docs, 4): key identities the response has, key identities, the same, response identities."""
    n_docs = len(k_off) - 1
    width = int(max(k_ids.max(initial=-1), r_ids.max(initial=-1))) + 1
    key, resp = (np.unique(_doc_of(off) * width + ids) for off, ids in ((k_off, k_ids), (r_off, r_ids)))
    common = np.intersect1d(key, resp, assume_unique=True)
    key_n, resp_n, common_n = (np.bincount(x // max(width, 1), minlength=n_docs) for x in (key, resp, common))
    return np.stack([common_n, key_n, common_n, resp_n], axis=1).astype(np.float64)


def check_documents(key: MentionTable, response: MentionTable, doc: str | None) -> list[str]:
    """A response that shares no document with the key is a mistake (wrong file, or document names that
    differ), not a score of 0; response documents the key does not have are ignored, with a warning."""
    paired = pair(key.doc_names, response.doc_names, PAIRING)
    extra = paired.extra
    hidden = getattr(key, "documents_hidden", 0) + getattr(response, "documents_hidden", 0)
    if doc is None and paired.disjoint and not hidden:  # (v8.01 scores what it sees: the reader warned)
        names = ("the '# newdoc id' values" if key.words is not None
                 else "the names after '#begin document', part included,")
        raise InputError(f"{response.path}: the response shares no document with the key ({key.path}): key "
                         f"documents {few(key.doc_names, 3)}; response documents {few(response.doc_names, 3)} "
                         f"({names} must be the same)"
                         + next((lone_cr_hint(n) for n in (*key.doc_names, *response.doc_names) if "\r" in n), ""))
    if extra:
        return [f"{response.path}: {len(extra)} response document(s) not in the key, ignored: {few(extra)}"]
    return []


def missing_warnings(aligned: Aligned, response_path: str) -> tuple[list[str], list[str]]:
    """(key documents the response lacks, the warning that they are scored as empty)."""
    missing = [n for n, found in zip(aligned.doc_names, aligned.r_found) if not found]
    return missing, [f"{response_path}: {len(missing)} key document(s) missing from the response, scored as empty: "
                     + few(missing)] if missing else []
