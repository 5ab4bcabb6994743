"""Kummerfeld & Klein's error classification (EMNLP 2013), as the Berkeley Coreference Analyser applies it.

Per document, the response is turned into the key by operations, in this order:

1. span errors: a response mention not in the key takes the place of a key mention not in the response whose
   span is the same once a leading "the" or one-character non-letter token and a trailing "'s" or
   one-character non-letter token are stripped (one key mention each; pairs in span order); then, among
   the mentions still unmatched, a response and a key mention that are alone to share a head (heads.py: from
   the key's parse, else the last word) are paired;
2. per confusion group (key and response entities linked by shared mentions) that differs: response entities
   are split into their parts in each key entity (Split; a mention in no key entity goes nowhere: Remove),
   key mentions absent from the response are introduced (Introduce), parts are merged into key entities (Merge);
3. the operations are classified: Extra Entity (two or more removed mentions of a response entity whose key
   mentions are all pronouns), Missing Entity (two or more introduced mentions of a key entity whose mentions in
   the response are all pronouns), splits and merges of the part holding the entity's earliest non-pronoun
   mention dropped (nothing moved), Extra Mention (a single mention split off to go nowhere), Missing Mention
   (a single introduced mention merged, not elsewhere split off); the splits left are Conflated Entities, the
   merges left Divided Entity.
"""
from __future__ import annotations

import string
from dataclasses import dataclass

from .documents import Document, Mention, Side, Types
from .names import ERRORS  # noqa: F401  (also read from here)
TITLES = {"span_error": "Span Error", "conflated_entities": "Conflated Entities", "extra_entity": "Extra Entity",
          "extra_mention": "Extra Mention", "divided_entity": "Divided Entity", "missing_mention": "Missing Mention",
          "missing_entity": "Missing Entity"}


@dataclass
class Error:
    kind: str  # one of ERRORS
    mentions: tuple  # the mentions involved (a span error: (response mention, key mention)), sorted
    key_entities: tuple  # labels of the key entities involved
    response_entities: tuple  # labels of the response entities involved


def classify(doc: Document, response: Side) -> list[Error]:
    """The errors of one document (``response``: its response side as the Analyser reads it, singletons dropped
    or not)."""
    types = Types(doc)
    key = doc.key
    auto = {m: e for m, e in response.entity_of.items()}  # mention -> response label, after span corrections
    errors = [Error("span_error", (r, k), (key.entity_of[k],), (response.entity_of[r],))
              for r, k in _span_corrections(doc, set(key.entity_of), auto)]
    auto_entities: dict = {}
    for m, e in auto.items():
        auto_entities.setdefault(e, set()).add(m)
    key_entities = {e: set(ms) for e, ms in key.entities.items()}
    for auto_group, key_group in _confusion_groups(key.entity_of, auto, key_entities, auto_entities):
        if sorted(map(sorted, auto_group.values())) == sorted(map(sorted, key_group.values())):
            continue
        errors.extend(_group_errors(auto_group, key_group, key.entity_of, auto, types))
    return errors


def _trim(words: list, start: int, end: int) -> tuple[int, int]:
    def light(w: str, extra: str) -> bool:
        return w == extra or (len(w) == 1 and w[0] not in string.ascii_letters)

    while start < end - 1 and light(words[start], "the"):
        start += 1
    while start < end - 1 and light(words[end - 1], "'s"):
        end -= 1
    return start, end


def _span_corrections(doc: Document, key_mentions: set, auto: dict) -> list[tuple[Mention, Mention]]:
    """(response mention, key mention) pairs; ``auto`` is updated in place (the key span replaces the
    response's)."""
    pairs = []
    words = doc.words
    only_auto = sorted(set(auto) - key_mentions)
    only_key = sorted(key_mentions - set(auto))
    by_trim: dict = {}
    for k in only_key:
        by_trim.setdefault((k[0], *_trim(words[k[0]], k[1], k[2])), []).append(k)
    for r in only_auto:
        waiting = by_trim.get((r[0], *_trim(words[r[0]], r[1], r[2])))
        if waiting:
            pairs.append((r, waiting.pop(0)))
    _move(auto, pairs)
    heads: dict = {}
    for r in sorted(set(auto) - key_mentions):
        heads.setdefault((r[0], doc.head(r)), ([], []))[0].append(r)
    for k in sorted(key_mentions - set(auto)):
        heads.setdefault((k[0], doc.head(k)), ([], []))[1].append(k)
    by_head = [(rs[0], ks[0]) for rs, ks in heads.values() if len(rs) == 1 and len(ks) == 1]
    _move(auto, by_head)
    return pairs + by_head


def _move(auto: dict, pairs: list) -> None:
    for r, k in pairs:
        auto[k] = auto.pop(r)


def _confusion_groups(key_of: dict, auto_of: dict, key_entities: dict, auto_entities: dict):
    """Connected components of key and response entities sharing mentions: ({label: set}, {label: set})."""
    seen: set = set()  # (is_key, label)
    for start in [(True, g) for g in key_entities] + [(False, a) for a in auto_entities]:
        if start in seen:
            continue
        group_key, group_auto = {}, {}
        seen.add(start)
        stack = [start]
        while stack:
            is_key, label = stack.pop()
            if is_key:
                group_key[label] = key_entities[label]
                links = [(False, auto_of[m]) for m in key_entities[label] if m in auto_of]
            else:
                group_auto[label] = auto_entities[label]
                links = [(True, key_of[m]) for m in auto_entities[label] if m in key_of]
            for other in links:
                if other not in seen:
                    seen.add(other)
                    stack.append(other)
        yield group_auto, group_key


def _min_non_pronoun(mentions, types: Types):
    candidates = [m for m in mentions if not types.is_pronoun(m)]
    return min(candidates) if candidates else None


def _operations(auto_group: dict, key_group: dict, auto_of: dict) -> tuple[list, list, set]:
    """The response made the key: splits (part, response label, goes nowhere), merges (part, key label) and the
    key mentions introduced.  A response entity's parts are its mentions grouped by the key entity holding them
    (key entities share no mention), so the work grows with the mentions, not with entities times parts."""
    splits, introduced = [], set()
    rank = {g: i for i, g in enumerate(key_group)}  # parts in the key entities' order
    key_of = {m: g for g, gcluster in key_group.items() for m in gcluster}
    parts_of: dict = {g: [] for g in key_group}  # key label -> the parts inside it, in the order they are made
    for a, acluster in auto_group.items():
        by_key: dict = {}
        nowhere = []
        for m in acluster:
            g = key_of.get(m)
            if g is None:
                nowhere.append(m)
            else:
                by_key.setdefault(g, set()).add(m)
        for g in sorted(by_key, key=rank.__getitem__):
            part = by_key[g]
            parts_of[g].append(part)
            if part != acluster:
                splits.append((frozenset(part), a, False))
        for m in sorted(nowhere):
            splits.append((frozenset((m,)), a, True))
    for g, gcluster in key_group.items():
        for m in gcluster:
            if m not in auto_of:
                introduced.add(m)
                parts_of[g].append({m})
    merges = [(frozenset(part), g) for g, gcluster in key_group.items() for part in parts_of[g] if part != gcluster]
    return splits, merges, introduced


def _group_errors(auto_group: dict, key_group: dict, key_of: dict, auto_of: dict, types: Types) -> list[Error]:
    """The operations of a confusion group, named in the Analyser's order."""
    splits, merges, introduced = _operations(auto_group, key_group, auto_of)
    errors = []
    # Extra Entity: removed mentions of a response entity with no key mention but pronouns
    nowhere: dict = {}
    only_pronouns: dict = {}  # response label -> whether its mentions in the key are all pronouns
    for split in splits:
        a = split[1]
        if split[2] and a not in only_pronouns:
            only_pronouns[a] = all(types.is_pronoun(m) for m in auto_group[a] if m in key_of)
        if split[2] and only_pronouns[a]:
            nowhere.setdefault(a, []).append(split)
    removed = {s for parts in nowhere.values() if len(parts) > 1 for s in parts}
    for a, parts in nowhere.items():
        if len(parts) > 1:
            mentions = tuple(sorted(m for p in parts for m in p[0]))
            errors.append(Error("extra_entity", mentions, (), (a,)))
    if removed:
        splits = [s for s in splits if s not in removed]
    # Missing Entity: introduced mentions of a key entity with no response mention but pronouns
    gone: set = set()  # (key label, introduced mention) merges that the Missing Entity accounts for
    for g, gcluster in key_group.items():
        present = [m for m in gcluster if m in auto_of]
        missing = [m for m in gcluster if m not in auto_of]
        if all(types.is_pronoun(m) for m in present) and len(missing) > 1:
            errors.append(Error("missing_entity", tuple(sorted(gcluster)), (g,), ()))
            gone.update((g, frozenset((m,))) for m in missing)
            introduced -= set(missing)
    if gone:
        merges = [mg for mg in merges if (mg[1], mg[0]) not in gone]
    # nothing moves for the part holding the entity's earliest non-pronoun mention
    auto_first = {a: _first(c, types) for a, c in auto_group.items()}
    key_first = {g: _first(c, types) for g, c in key_group.items()}
    splits = [s for s in splits if not _holds_first(s[0], auto_first[s[1]], types)]
    merges = [mg for mg in merges if not _holds_first(mg[0], key_first[mg[1]], types)]
    # Extra Mention: a single mention split off to go nowhere
    for part, a, goes_nowhere in splits:
        if len(part) == 1 and goes_nowhere:
            (m,) = part
            errors.append(Error("extra_mention", (m,), (), (a,)))
    splits = [s for s in splits if not (len(s[0]) == 1 and s[2])]
    # Missing Mention: a single introduced mention merged in, not split off elsewhere
    split_singles = {s[0] for s in splits if len(s[0]) == 1}
    kept = []
    for part, g in merges:
        m = next(iter(part)) if len(part) == 1 else None
        if m is not None and part not in split_singles and m != key_first[g][0] and m in introduced:
            errors.append(Error("missing_mention", (m,), (g,), ()))
        else:
            kept.append((part, g))
    for part, a, _ in splits:
        g = {key_of[m] for m in part if m in key_of}
        errors.append(Error("conflated_entities", tuple(sorted(part)), tuple(sorted(g)), (a,)))
    for part, g in kept:
        a = {auto_of[m] for m in part if m in auto_of}
        errors.append(Error("divided_entity", tuple(sorted(part)), (g,), tuple(sorted(a))))
    return errors


def _first(cluster, types: Types) -> tuple:
    """(earliest non-pronoun mention or None, earliest mention) of an entity."""
    return _min_non_pronoun(cluster, types), min(cluster)


def _holds_first(part, cluster_first: tuple, types: Types) -> bool:
    """The Analyser's test: the part's earliest non-pronoun mention is the entity's (with only pronouns on both
    sides, the part's earliest mention is the entity's)."""
    first = _min_non_pronoun(part, types)
    if first != cluster_first[0]:
        return False
    return first is not None or min(part) == cluster_first[1]
