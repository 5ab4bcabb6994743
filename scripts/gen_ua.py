#!/usr/bin/env python3
"""Seeded generator of Universal Anaphora (UA) key and response files, for differential tests against the UA
scorer.

A key document has tokens in sentences (13 columns: ID FORM ... MISC IDENTITY BRIDGING DISCOURSE_DEIXIS) and
markables in the IDENTITY column: nested, overlapping and repeated spans (the same span in two entities, or twice in
one), some with a ``Min`` (one token or two, inside the markable), singular entities, non-referring ``-Pseudo``
entities, plural sets (``ElementOf``): sets of singular entities, a markable in two sets, sets nested in sets (a
set's markable ``ElementOf`` another set).  The BRIDGING column holds ``(MarkableID=M|MentionAnchor=A)``, sometimes
with an anchor that is no markable; the DISCOURSE_DEIXIS column holds markables of its own.  A response is the key
perturbed: markables dropped, added and shifted by a token, moved between entities, entities merged and split,
plural sets changed (members dropped, added, a set dropped, a set made), non-referring tags flipped, bridging
anchors changed, dropped and added, documents dropped or added.

    python scripts/gen_ua.py --seed 7 --out DIR [--docs 3] [--tokens 60] [--name case]

Writes DIR/NAME.key and DIR/NAME.sys.  ``pair(seed, ...)`` returns the two texts.  Plain Python 3; same arguments,
same bytes.  ``--cycle`` makes one ElementOf cycle (the scorer loops for ever on it).
"""
from __future__ import annotations

import argparse
import random
from dataclasses import dataclass, field, replace
from pathlib import Path

WORDS = "the a man woman dog city they it he she report plan and of in said saw that which".split()


@dataclass
class Mark:
    mid: str
    start: int
    end: int
    entity: str
    min: tuple[int, int] | None = None
    element_of: list[str] = field(default_factory=list)
    anchor: str | None = None  # bridging: MentionAnchor


@dataclass
class Doc:
    name: str
    n_tokens: int
    marks: list[Mark]
    deixis: list[Mark]
    plural: bool = True


def _span(rng: random.Random, n: int, longest: int = 5) -> tuple[int, int]:
    start = rng.randrange(n)
    return start, min(n - 1, start + rng.choice([0, 0, 0, 1, 1, 2, 3, longest]))


def _min(rng: random.Random, start: int, end: int):
    if rng.random() < 0.5:
        return None
    a = rng.randint(start, end)
    b = rng.randint(a, end)
    return (a, b) if rng.random() < 0.7 else (a, a)


def key_doc(rng: random.Random, name: str, n_tokens: int, plural: bool = True, repeats: bool = True) -> Doc:
    marks: list[Mark] = []
    counter = [0]

    def new(entity: str, span=None) -> Mark:
        counter[0] += 1
        s, e = span or _span(rng, n_tokens)
        m = Mark(f"markable_{counter[0]}", s, e, entity, _min(rng, s, e))
        marks.append(m)
        return m

    n_entities = rng.randint(2, max(3, n_tokens // 6))
    singular = [f"{i}" for i in range(1, n_entities + 1)]
    for e in singular:
        for _ in range(rng.choice([1, 1, 2, 2, 3, 4])):
            m = new(e)
            if rng.random() < 0.08 and marks and repeats:  # the same span as another markable
                other = rng.choice(marks)
                m.start, m.end, m.min = other.start, other.end, other.min
    for k in range(rng.choice([0, 1, 1, 2])):  # non-referring
        new(f"{n_entities + 10 + k}-Pseudo")
    plurals: list[str] = []
    for k in range(rng.choice([0, 1, 1, 2, 2, 3]) if plural else 0):  # plural sets, members among the singular entities
        p = f"{n_entities + 20 + k}"
        for _ in range(rng.choice([1, 1, 2])):
            new(p)
        members = rng.sample(singular, min(len(singular), rng.choice([1, 2, 2, 3])))
        for e in members:
            for m in [m for m in marks if m.entity == e][: rng.choice([1, 1, 2])]:
                m.element_of.append(p)
        plurals.append(p)
    if len(plurals) >= 2 and rng.random() < 0.5:  # a set in a set
        inner, outer = plurals[0], plurals[1]
        m = next(m for m in marks if m.entity == inner)
        m.element_of.append(outer)
    if plurals and rng.random() < 0.2:  # a set named by no markable
        rng.choice([m for m in marks if m.entity in singular]).element_of.append("999")
    for m in marks:  # bridging
        if rng.random() < 0.15:
            m.anchor = rng.choice(marks).mid if rng.random() < 0.85 else "markable_404"
    deixis: list[Mark] = []
    for k in range(rng.choice([0, 1, 2])):
        for _ in range(rng.choice([1, 2, 3])):
            s, e = _span(rng, n_tokens, longest=8)
            counter[0] += 1
            deixis.append(Mark(f"markable_{counter[0]}", s, e, f"{200 + k}", _min(rng, s, e)))
    return Doc(name, n_tokens, marks, deixis, plural)


def response_doc(rng: random.Random, key: Doc) -> Doc:
    marks = [replace(m, element_of=list(m.element_of)) for m in key.marks]
    n = key.n_tokens
    entities = sorted({m.entity for m in marks})
    out: list[Mark] = []
    for m in marks:
        r = rng.random()
        if r < 0.08:
            continue  # dropped
        if r < 0.16:  # a boundary off by one
            m.start = max(0, min(m.end, m.start + rng.choice([-1, 1])))
            m.end = min(n - 1, max(m.start, m.end + rng.choice([-1, 1])))
        elif r < 0.24 and entities:
            m.entity = rng.choice(entities)  # moved to another entity
        m.min = None if rng.random() < 0.7 else m.min
        if m.element_of and rng.random() < 0.15:
            m.element_of.pop()
        elif rng.random() < 0.05 and len(entities) > 1 and key.plural:
            m.element_of.append(rng.choice([e for e in entities if e != m.entity]))
        if m.entity.endswith("-Pseudo") and rng.random() < 0.2:
            m.entity = m.entity[: -len("-Pseudo")]
        elif rng.random() < 0.03:
            m.entity += "-Pseudo"
        if m.anchor is not None and rng.random() < 0.3:
            m.anchor = None if rng.random() < 0.5 else rng.choice(marks).mid
        elif rng.random() < 0.05:
            m.anchor = rng.choice(marks).mid if rng.random() < 0.8 else "markable_505"
        out.append(m)
    if entities and rng.random() < 0.3:  # two entities merged
        a, b = rng.sample(entities, 2) if len(entities) > 1 else (entities[0], entities[0])
        for m in out:
            if m.entity == b:
                m.entity = a
    for k in range(rng.choice([0, 1, 2, 3])):  # spurious markables
        s, e = _span(rng, n)
        out.append(Mark(f"markable_x{k}", s, e, rng.choice(entities + ["900", "901"]) if entities else "900"))
    if rng.random() < 0.15 and len(out) > 2 and key.plural:  # a new plural set
        p = "950"
        out.append(Mark("markable_p", *_span(rng, n), p))
        for m in rng.sample(out[:-1], 2):
            m.element_of.append(p)
    deixis = [replace(m) for m in key.deixis if rng.random() > 0.2]
    for m in deixis:
        if rng.random() < 0.2:
            m.end = min(n - 1, m.end + 1)
    if rng.random() < 0.3:
        s, e = _span(rng, n, longest=8)
        deixis.append(Mark("markable_dx", s, e, "299"))
    return Doc(key.name, n, out, deixis, key.plural)


def _drop_cycles(doc: Doc) -> None:
    """Drop ElementOf links that would close a cycle of plural sets (the scorer loops for ever on one)."""
    below: dict[str, set[str]] = {}  # plural entity -> entities it holds, directly or not

    def reaches(a: str, b: str) -> bool:
        seen, todo = set(), [a]
        while todo:
            x = todo.pop()
            if x == b:
                return True
            if x not in seen:
                seen.add(x)
                todo.extend(below.get(x, ()))
        return False

    for m in doc.marks:
        kept = []
        for p in m.element_of:
            if not reaches(m.entity, p):
                below.setdefault(p, set()).add(m.entity)
                kept.append(p)
        m.element_of = kept


def _column(marks: list[Mark], n: int, rng: random.Random, with_min: bool) -> list[str]:
    """Bracket cells of the markables (an annotation is ``EntityID=..|MarkableID=..[|Min=..][|ElementOf=..]``).
    Crossing markables are written as they come: the scorer's stack then gives them other ends, and a Min is put
    inside the markable as the scorer will read it."""
    opens: dict[int, list[Mark]] = {}
    closes = [0] * n
    for m in marks:
        opens.setdefault(m.start, []).append(m)
        if m.end > m.start:
            closes[m.end] += 1
    order = {}
    for t in range(n):
        starting = sorted(opens.get(t, []), key=lambda m: -m.end)
        if rng.random() < 0.05:
            rng.shuffle(starting)  # written in another order: the scorer's stack reads other ends
        order[t] = starting
    read_end: dict[int, int] = {}  # id(mark) -> the end the scorer's stack gives it
    stack: list[Mark] = []
    for t in range(n):
        for _ in range(closes[t]):
            read_end[id(stack.pop())] = t
        for m in order[t]:
            if m.end == m.start:
                read_end[id(m)] = t
            else:
                stack.append(m)
    cells = []
    for t in range(n):
        cell = ")" * closes[t]
        for m in order[t]:
            parts = [f"EntityID={m.entity}", f"MarkableID={m.mid}", "SemType=do"]
            if with_min and m.min is not None:
                end = read_end[id(m)]
                a, b = (min(max(x, m.start), end) for x in m.min)
                parts.append(f"Min={a + 1},{b + 1}" if a != b else f"Min={a + 1}")
            if m.element_of:
                parts.append("ElementOf=" + ",".join(m.element_of))
            cell += "(" + "|".join(parts) + (")" if m.end == m.start else "")
        cells.append(cell or "_")
    return cells


def write(docs: list[Doc], rng: random.Random) -> str:
    lines = ["# global.columns = ID FORM LEMMA UPOS XPOS FEATS HEAD DEPREL DEPS MISC IDENTITY BRIDGING "
             "DISCOURSE_DEIXIS"]
    for doc in docs:
        ident = _column(doc.marks, doc.n_tokens, rng, True)
        deixis = _column(doc.deixis, doc.n_tokens, rng, True)
        bridging = ["_"] * doc.n_tokens
        for m in doc.marks:
            if m.anchor is not None:
                cell = f"(MarkableID={m.mid}|MentionAnchor={m.anchor})"
                bridging[m.start] = cell if bridging[m.start] == "_" else bridging[m.start] + cell
        lines.append(f"# newdoc id = {doc.name}")
        sentence = 0
        for t in range(doc.n_tokens):
            if t % 9 == 0:
                sentence += 1
                lines += ["", f"# sent_id = {doc.name}-{sentence}"]
            word = WORDS[(t * 7 + len(doc.name)) % len(WORDS)]
            lines.append("\t".join([str(t % 9 + 1), word, word, "_", "_", "_", "0", "_", "_", "_",
                                    ident[t], bridging[t], deixis[t]]))
        lines.append("")
    return "\n".join(lines) + "\n"


def pair(seed: int, docs: int = 3, tokens: int = 60, cycle: bool = False, repeats: bool = True) -> tuple[str, str]:
    """The key and response texts of case ``seed`` (``repeats``: key markables may repeat a span, on which the
    scorer's alignment of plural sets may divide by zero)."""
    rng = random.Random(seed)
    plural = seed % 4 != 0  # one case in four without plural sets
    keys = [key_doc(rng, f"doc{seed}-{d}", rng.randint(max(4, tokens // 3), tokens), plural, repeats)
            for d in range(docs)]
    if cycle:
        plural = [m for m in keys[0].marks if m.element_of]
        if plural:
            target = plural[0].element_of[0]
            next(m for m in keys[0].marks if m.entity == target).element_of.append(plural[0].entity)
    responses = [response_doc(rng, k) for k in keys]
    for d in responses if cycle else [*keys, *responses]:
        _drop_cycles(d)
    if docs > 1 and rng.random() < 0.1:
        responses.pop(rng.randrange(len(responses)))  # a key document the response lacks
    if rng.random() < 0.1:
        responses.append(key_doc(rng, f"extra{seed}", 12))  # a response document the key lacks
    return write(keys, rng), write(responses, rng)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", required=True)
    ap.add_argument("--docs", type=int, default=3)
    ap.add_argument("--tokens", type=int, default=60)
    ap.add_argument("--name", default="case")
    ap.add_argument("--cycle", action="store_true")
    a = ap.parse_args()
    key, sys_ = pair(a.seed, a.docs, a.tokens, a.cycle)
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / f"{a.name}.key").write_text(key)
    (out / f"{a.name}.sys").write_text(sys_)


if __name__ == "__main__":
    main()
