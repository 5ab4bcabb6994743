#!/usr/bin/env python3
"""Seeded generator of CorefUD (CoNLL-U) key and response files with split antecedents (``SplitAnte=``) and
bridging (``Bridge=``), for checking fastscore's UA scoring of CorefUD files against the UA scorer (issue 39 §2).

A document has sentences of words, sometimes an empty node (``3.1``) and a multiword token (``2-3``), the same on
both sides.  A key has entities with mentions (nested, crossing, one-node mentions, mentions on empty nodes,
singletons); plural entities with ``SplitAnte`` links (several antecedents, an antecedent that is itself plural, an
entity in two sets); ``Bridge`` links from a mention to an entity (some with a relation, ``:part``; a mention both
in a bridge and a split; two links from one mention).  A response is the key perturbed: mentions dropped, added
and shifted, moved between entities, links dropped, added and redirected (to entities missing there), documents
dropped or added (one-sided documents).

    python scripts/gen_corefud_ua.py --seed 7 --out DIR [--docs 3] [--sentences 5]

Writes DIR/case.key.conllu and DIR/case.sys.conllu; ``pair(seed, ...)`` returns the two texts.  Plain Python 3;
same arguments, same bytes.
"""
from __future__ import annotations

import argparse
import random
from dataclasses import dataclass, field
from pathlib import Path

WORDS = "the a man woman dog city they it he she report plan and of in said saw that which".split()


@dataclass
class Mention:
    entity: str
    sent: int
    start: int  # node positions in the sentence (0-based)
    end: int


@dataclass
class Doc:
    name: str
    sentences: list[list[str]]  # node ids per sentence ("1", "2", "2.1", ...), multiword lines apart
    multiword: dict[int, tuple[int, int]]  # sentence -> (first, last) word of a multiword token
    mentions: list[Mention] = field(default_factory=list)
    split: dict[str, list[str]] = field(default_factory=dict)  # plural entity -> its antecedent entities
    bridge: list[tuple[int, str, str]] = field(default_factory=list)  # (mention index, target entity, relation)


def _skeleton(rng: random.Random, name: str, n_sent: int) -> Doc:
    sentences, multiword = [], {}
    for s in range(n_sent):
        n = rng.randint(3, 8)
        nodes = [str(i) for i in range(1, n + 1)]
        if rng.random() < 0.3:
            at = rng.randint(1, n)
            nodes.insert(at, f"{at}.1")
        if rng.random() < 0.3 and n >= 3:
            a = rng.randint(1, n - 1)
            multiword[s] = (a, a + 1)
        sentences.append(nodes)
    return Doc(name, sentences, multiword)


def _mentions(rng: random.Random, doc: Doc, n_entities: int, prefix: str) -> None:
    entities = [f"{prefix}{k}" for k in range(1, n_entities + 1)]
    for e in entities:
        for _ in range(1 if rng.random() < 0.3 else rng.randint(2, 4)):
            _add_mention(rng, doc, e)


def _add_mention(rng: random.Random, doc: Doc, entity: str) -> None:
    for _ in range(20):
        s = rng.randrange(len(doc.sentences))
        n = len(doc.sentences[s])
        a = rng.randrange(n)
        b = min(n - 1, a + (0 if rng.random() < 0.5 else rng.randint(1, 3)))
        # mentions of one entity do not overlap (udapi pairs a closing bracket with the last opening of its entity)
        if not any(m.entity == entity and m.sent == s and not (b < m.start or m.end < a) for m in doc.mentions):
            doc.mentions.append(Mention(entity, s, a, b))
            return


def _entities(doc: Doc) -> list[str]:
    return list(dict.fromkeys(m.entity for m in doc.mentions))


def _links(rng: random.Random, doc: Doc) -> None:
    ents = _entities(doc)
    if len(ents) >= 3:
        for plural in rng.sample(ents, min(len(ents) // 3, 2)):
            others = [e for e in ents if e != plural and plural not in doc.split.get(e, ()) and e not in doc.split]
            if len(others) >= 2:
                doc.split[plural] = rng.sample(others, rng.randint(2, min(3, len(others))))
        plurals = list(doc.split)
        if len(plurals) == 2 and rng.random() < 0.5:  # a set inside a set
            a, b = plurals
            if b not in doc.split[a] and a not in doc.split[b]:
                doc.split[b].append(a)
    for i, m in enumerate(doc.mentions):
        if rng.random() < 0.25:
            targets = [e for e in ents if e != m.entity]
            for t in rng.sample(targets, min(len(targets), 2 if rng.random() < 0.2 else 1)):
                doc.bridge.append((i, t, rng.choice(["", "", ":part", ":subset"])))


def _perturb(rng: random.Random, key: Doc, prefix: str) -> Doc:
    doc = Doc(key.name, key.sentences, key.multiword)
    for m in key.mentions:
        r = rng.random()
        if r < 0.1:
            continue
        m2 = Mention(m.entity, m.sent, m.start, m.end)
        if r < 0.2:
            m2.end = min(len(key.sentences[m.sent]) - 1, m.end + 1)
        elif r < 0.3 and len(_entities(key)) > 1:
            m2.entity = rng.choice(_entities(key))
        if any(x.entity == m2.entity and x.sent == m2.sent and not (m2.end < x.start or x.end < m2.start)
               for x in doc.mentions):
            continue
        doc.mentions.append(m2)
    for _ in range(rng.randint(0, 3)):
        _add_mention(rng, doc, rng.choice(_entities(key) + [f"{prefix}x{rng.randint(1, 3)}"]))
    ents = set(_entities(doc))
    for plural, antes in key.split.items():
        if plural in ents and rng.random() < 0.8:
            kept = [a for a in antes if a in ents and rng.random() < 0.85]
            if rng.random() < 0.2:
                kept += [e for e in rng.sample(sorted(ents), 1) if e != plural and e not in kept]
            if kept:
                doc.split[plural] = kept
    _no_cycles(doc)
    index = {(m.entity, m.sent, m.start, m.end): i for i, m in enumerate(doc.mentions)}
    for i, target, rel in key.bridge:
        m = key.mentions[i]
        j = index.get((m.entity, m.sent, m.start, m.end))
        if j is None or rng.random() < 0.15:
            continue
        if rng.random() < 0.2:
            target = rng.choice(sorted(ents))
        if target in ents and target != m.entity:
            doc.bridge.append((j, target, rel))
    if rng.random() < 0.3 and doc.mentions:
        j = rng.randrange(len(doc.mentions))
        others = sorted(ents - {doc.mentions[j].entity})
        if others:
            doc.bridge.append((j, rng.choice(others), ""))
    return doc


def _no_cycles(doc: Doc) -> None:
    def reaches(a: str, b: str, seen=()) -> bool:
        return a == b or any(reaches(x, b, seen + (a,)) for x in doc.split.get(a, ()) if x not in seen)

    for plural in list(doc.split):
        doc.split[plural] = [a for a in doc.split[plural] if not reaches(a, plural)]
        if not doc.split[plural]:
            del doc.split[plural]


def _write(docs: list[Doc]) -> str:
    out = ["# global.Entity = eid-etype-head-other"]
    for doc in docs:
        out.append(f"# newdoc id = {doc.name}")
        first_of: dict[str, tuple[int, int]] = {}  # entity -> its first mention's first node
        for m in sorted(doc.mentions, key=lambda m: (m.sent, m.start)):
            first_of.setdefault(m.entity, (m.sent, m.start))
        for s, nodes in enumerate(doc.sentences):
            if s:
                out.append("")
            out.append(f"# sent_id = {doc.name}-{s + 1}")
            here = [(i, m) for i, m in enumerate(doc.mentions) if m.sent == s]
            for k, node in enumerate(nodes):
                if s in doc.multiword and node == str(doc.multiword[s][0]):
                    a, b = doc.multiword[s]
                    out.append(f"{a}-{b}\tww\t_\t_\t_\t_\t_\t_\t_\t_")
                entity = []
                ends = sorted((m for _, m in here if m.end == k and m.start < k), key=lambda m: -m.start)
                entity += [f"{m.entity})" for m in ends]
                starts = sorted(((i, m) for i, m in here if m.start == k), key=lambda x: (-x[1].end, x[0]))
                for i, m in starts:
                    head = 1 + (i % (m.end - m.start + 1))
                    entity.append(f"({m.entity}-thing-{head}" + (")" if m.end == m.start else ""))
                misc = []
                if entity:
                    misc.append("Entity=" + "".join(entity))
                    bridge = [f"{t}<{doc.mentions[i].entity}{rel}" for i, _ in starts for j, t, rel in doc.bridge
                              if j == i]
                    if bridge:
                        misc.append("Bridge=" + ",".join(bridge))
                    split = [f"{a}<{p}" for p, antes in doc.split.items() if first_of[p] == (s, k) for a in antes]
                    if split:
                        misc.append("SplitAnte=" + ",".join(split))
                empty = "." in node
                out.append("\t".join([node, "w" if not empty else "#Gen", "_", "_", "_", "_",
                                      "_" if empty else ("0" if node == "1" else "1"),
                                      "_" if empty else ("root" if node == "1" else "dep"),
                                      "1:dep" if empty or node != "1" else "0:root", "|".join(misc) or "_"]))
        out.append("")
    return "\n".join(out) + "\n"


def _valid_bridges(doc: Doc) -> None:
    """A Bridge is read at its mention's first node: that mention must be the last of its entity opened there
    (udapi gives the link to the last), so links of a mention another of its entity opens at or after are
    dropped; two mentions of one entity opening at one node carry none."""
    keep = []
    for i, t, rel in doc.bridge:
        m = doc.mentions[i]
        later = [x for x in doc.mentions if x.entity == m.entity and x is not m and x.sent == m.sent
                 and x.start == m.start]
        if not later:
            keep.append((i, t, rel))
    doc.bridge = keep


def pair(seed: int, docs: int = 3, sentences: int = 5) -> tuple[str, str]:
    rng = random.Random(seed)
    keys, responses = [], []
    for d in range(rng.randint(1, docs)):
        key = _skeleton(rng, f"doc{d + 1}", rng.randint(1, sentences))
        prefix = f"e{d + 1}n"
        _mentions(rng, key, rng.randint(2, 7), prefix)
        _links(rng, key)
        _valid_bridges(key)
        response = _perturb(rng, key, prefix)
        _valid_bridges(response)
        r = rng.random()
        if r < 0.08:
            keys.append(key)  # a document the response lacks
        elif r < 0.14:
            keys.append(key)
            responses.append(response)
            extra = _skeleton(rng, f"extra{d + 1}", 2)
            _mentions(rng, extra, 2, f"x{d + 1}n")
            responses.append(extra)  # a document only the response has
        else:
            keys.append(key)
            responses.append(response)
    if not responses:
        responses.append(_skeleton(rng, "other", 1))
    return _write(keys), _write(responses)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--docs", type=int, default=3)
    ap.add_argument("--sentences", type=int, default=5)
    a = ap.parse_args()
    key, sys_ = pair(a.seed, a.docs, a.sentences)
    a.out.mkdir(parents=True, exist_ok=True)
    (a.out / "case.key.conllu").write_text(key)
    (a.out / "case.sys.conllu").write_text(sys_)


if __name__ == "__main__":
    main()
