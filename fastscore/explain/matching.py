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
            out["format"] = fmt  # as coref signs it: the format decides the numbers
        if self.np_only:
            out["np-only"] = True
        if self.remove_nested:
            out["remove-nested"] = True
        return out


Entry = tuple  # (mention, entity label, file line)


def build_sides(doc: Document, key: list[Entry], response: list[Entry], pairs: dict,
                response_heads: dict | None = None) -> None:
    """Set a document's sides: ``key`` and ``response`` mentions (in order; a mention listed twice keeps its first
    entity, as the readers do), a response mention of ``pairs`` (response mention -> key mention) taking its key
    mention's span.  An unpaired response mention with a key mention's span (head matching: another head) is
    another mention: :func:`unpaired`.  ``response_heads``: the heads of the response's own mentions (CoNLL-U)."""
    doc.key = _side(key)
    renamed = []
    for m, label, line in response:
        target = pairs.get(m) or (unpaired(m) if m in doc.key.entity_of else m)
        if doc.heads is not None and target not in doc.heads:
            doc.heads[target] = response_heads.get(m, m[2] - 1)
        renamed.append((target, label, line))
    doc.response = _side(renamed)


def unpaired(m: tuple) -> tuple:
    """A response mention the matching leaves unpaired although a key mention has its nodes, made distinct from it:
    (sentence, start, end, its positions, "unpaired")."""
    return (*m[:3], m[3] if len(m) > 3 else tuple(range(m[1], m[2])), "unpaired")


def _side(entries: list[Entry]) -> Side:
    side = Side()
    for entry in entries:
        side.add(*entry)
    return side


def apply_coval(docs: list[Document], key, response, matching: CorefMatching, keep_singletons: bool,
                doc: str | None) -> list[str]:
    """Filter and match CoNLL-2012 mentions as `fastscore coref --match mina|--np-only|--remove-nested` does:
    coval's surviving mentions, known by their identity (minimum span, or exact span): mentions of one side with
    one identity are one mention, the first (in the order they are completed) kept; a response mention pairs
    with the key mention of its identity."""
    from ..coref.mina import Options, prepare_sides

    options = Options(min_span=matching.match == "mina", keep_singletons=keep_singletons, np_only=matching.np_only,
                      remove_nested=matching.remove_nested)
    a, key_side, resp_side, warnings = prepare_sides(key, response, options, doc)  # paths or files read
    by_name = {d.name: d for d in docs}
    key_entries, resp_entries = _coval_entries(key_side, a.k_off), _coval_entries(resp_side, a.r_off)
    for d, name in enumerate(a.doc_names):
        if name not in by_name:
            continue
        keys, resps = key_entries[d], resp_entries[d]
        key_of = {ident: e[0] for ident, e in keys.items()}
        pairs = {e[0]: key_of[ident] for ident, e in resps.items() if ident in key_of}
        build_sides(by_name[name], list(keys.values()), list(resps.values()), pairs)
    return warnings


def _coval_entries(side, off: np.ndarray) -> list[dict]:
    """Per aligned document, identity -> its first surviving mention's entry (in the order they are completed)."""
    first = side.tokens(side.doc0)
    sentence, position = side.tok.sentence[first].tolist(), side.tok.position[first].tolist()
    length, lines = side.length().tolist(), (side.tok.line[first] + 1).tolist()
    completion = side.tok.completion[side.rows]
    clusters = side.table.cluster[side.rows].tolist()
    idents = side.ident.tolist()
    out = []
    for d in range(len(off) - 1):
        rows = np.arange(off[d], off[d + 1])
        rows = rows[side.alive[rows]]
        entries: dict = {}
        for i in rows[np.argsort(completion[rows], kind="stable")].tolist():
            mention = (sentence[i], position[i], position[i] + length[i])
            entries.setdefault(idents[i], (mention, side.labels[d][clusters[i]], lines[i]))
        out.append(entries)
    return out
