"""`fastscore coref`'s mention filters and matching, applied before the error analysis.

The mentions each side keeps and the pairs of matched key and response mentions come from the coreference
task's own code (one implementation): coval's for CoNLL-2012 with ``--match mina``, ``--np-only`` or
``--remove-nested`` (:func:`fastscore.coref.mina.prepare_sides`), the CorefUD scorer's for CoNLL-U
(:func:`fastscore.coref.corefud.prepare` and :func:`~fastscore.coref.corefud.match`).  A response mention matched
to a key mention then takes the key mention's span; an unmatched one keeps its own; the analysis is the same
as with exact spans.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .documents import Document, Side


@dataclass(frozen=True)
class CorefMatching:
    """The options of `fastscore coref` that explain takes (None: the format's default)."""

    match: str | None = None  # exact, mina (CoNLL-2012); exact, partial, head (CoNLL-U)
    np_only: bool = False
    remove_nested: bool = False
    zero_match: str | None = None  # CoNLL-U: dependent or linear

    def coval(self) -> bool:
        """CoNLL-2012 scored coval's way (minimum spans, NP_only, remove_nested)."""
        return self.match == "mina" or self.np_only or self.remove_nested

    def shown(self, fmt: str) -> dict:
        """The options as the signature shows them."""
        out = {"match": self.match or ("head" if fmt == "conllu" else "exact")}
        if fmt == "conllu":
            out["zero-match"] = self.zero_match or "dependent"
        if self.np_only:
            out["np-only"] = True
        if self.remove_nested:
            out["remove-nested"] = True
        return out


Entry = tuple  # (mention, entity label, file line)


def build_sides(doc: Document, key: list[Entry], response: list[Entry], pairs: dict) -> None:
    """Set a document's sides: ``key`` and ``response`` mentions (in order; a mention listed twice keeps its first
    entity, as the readers do), a response mention of ``pairs`` (response mention -> key mention) taking its key
    mention's span unless another response mention already has that span."""
    doc.key = _side(key)
    own = {m for m, _, _ in response}
    renamed = []
    for m, label, line in response:
        target = pairs.get(m, m)
        renamed.append((m if target != m and target in own else target, label, line))
    doc.response = _side(renamed)


def _side(entries: list[Entry]) -> Side:
    side = Side()
    for mention, label, line in entries:
        if mention in side.entity_of:
            continue
        side.entity_of[mention] = label
        side.entities.setdefault(label, []).append(mention)
        side.lines[mention] = line
    return side


def apply_coval(docs: list[Document], key_path: str, response_path: str, matching: CorefMatching,
                keep_singletons: bool, doc: str | None) -> list[str]:
    """Filter and match CoNLL-2012 mentions as `fastscore coref --match mina|--np-only|--remove-nested` does:
    coval's surviving mentions, a response mention matched to the first key mention (in span order) with its
    identity (minimum span, or exact span) not yet taken, an equal span first."""
    from ..coref.mina import Options, prepare_sides

    options = Options(min_span=matching.match == "mina", keep_singletons=keep_singletons, np_only=matching.np_only,
                      remove_nested=matching.remove_nested)
    a, key_side, resp_side, warnings = prepare_sides(key_path, response_path, options, doc)
    by_name = {d.name: d for d in docs}
    key_entries, resp_entries = _coval_entries(key_side, a.k_off), _coval_entries(resp_side, a.r_off)
    for d, name in enumerate(a.doc_names):
        if name not in by_name:
            continue
        keys, resps = key_entries[d], resp_entries[d]
        pairs = _pair_by_identity([(e[0], i) for e, i in keys], [(e[0], i) for e, i in resps])
        build_sides(by_name[name], [e for e, _ in keys], [e for e, _ in resps], pairs)
    return warnings


def _coval_entries(side, off: np.ndarray) -> list[list[tuple[Entry, int]]]:
    """Per aligned document, the surviving mentions as (entry, identity), in the order they are completed."""
    first = side.tokens(side.doc0)
    sentence, position = side.tok.sentence[first].tolist(), side.tok.position[first].tolist()
    length, lines = side.length().tolist(), (side.tok.line[first] + 1).tolist()
    completion = side.tok.completion[side.rows]
    clusters = side.table.cluster[side.rows].tolist()
    out = []
    for d in range(len(off) - 1):
        rows = np.arange(off[d], off[d + 1])
        rows = rows[side.alive[rows]]
        rows = rows[np.argsort(completion[rows], kind="stable")].tolist()
        out.append([(((sentence[i], position[i], position[i] + length[i]), side.labels[d][clusters[i]], lines[i]),
                      int(side.ident[i])) for i in rows])
    return out


def _pair_by_identity(keys: list[tuple], responses: list[tuple]) -> dict:
    """Response mention -> key mention, one to one, by equal identity: equal spans first, then in span order."""
    pairs = {}
    key_spans = {m for m, _ in keys}
    taken = set()
    for m, _ in responses:
        if m in key_spans:
            pairs[m] = m
            taken.add(m)
    waiting: dict = {}
    for m, ident in sorted(keys):
        if m not in taken:
            waiting.setdefault(ident, []).append(m)
    for m, ident in sorted(responses):
        if m not in pairs and waiting.get(ident):
            pairs[m] = waiting[ident].pop(0)
    return pairs
