#!/usr/bin/env python3
"""Seeded TempEval-3 TimeML pairs (gold and system folders with the same documents and texts).

Each document is a text of plain words (the toolkit's tokenizer and fastscore cut it the same
way), with EVENT and TIMEX3 tags, MAKEINSTANCEs and TLINKs.  The system annotation is the gold
one perturbed: events dropped or added, TIMEX3 extents moved (overlapping), attributes changed,
entities renumbered, TLINKs dropped, reversed (the same relation written the other way),
retyped, duplicated, made up (cycles, self-loops, contradictions), or implied by others only.

Relations are drawn from a hidden timeline (intervals on a small grid, so equal end points are
common) — a consistent gold graph — or at random (``random`` profile: any graph).

    python scripts/gen_timeml.py OUT [--seed 1] [--docs 5] [--profile mixed]
    python scripts/gen_timeml.py OUT --timebank          # 183 documents, ~6,400 TLINKs (benchmark)
    python scripts/gen_timeml.py OUT --big 4000          # one document with 4,000 TLINKs (benchmark)
"""
from __future__ import annotations

import argparse
import random
from dataclasses import dataclass, field
from pathlib import Path

WORDS = ("market share prices bank stocks analyst index points level month week year company deal "
         "government talks report plan sales growth rate loss profit trade news court vote office "
         "officials spokesman record budget move war peace city police crowd storm flood election").split()
EVENT_WORDS = ("said fell rose dipped reported announced expected agreed closed opened met told "
               "rallied plunged declined signed killed attacked elected visited warned cut raised "
               "sold bought hit won lost began ended continued resumed").split()
TIMEX_WORDS = ("monday tuesday wednesday thursday friday yesterday today tomorrow morning evening "
               "night april may june july last next early late two three months weeks days").split()
CLASSES = ("OCCURRENCE", "REPORTING", "STATE", "I_ACTION", "I_STATE", "ASPECTUAL", "PERCEPTION")
TENSES = ("PAST", "PRESENT", "FUTURE", "NONE", "INFINITIVE", "PRESPART", "PASTPART")
ASPECTS = ("NONE", "PROGRESSIVE", "PERFECTIVE", "PERFECTIVE_PROGRESSIVE")
TYPES = ("DATE", "TIME", "DURATION", "SET")
RELATIONS = ("BEFORE", "AFTER", "IBEFORE", "IAFTER", "BEGINS", "BEGUN_BY", "ENDS", "ENDED_BY", "INCLUDES",
             "IS_INCLUDED", "DURING", "DURING_INV", "SIMULTANEOUS", "IDENTITY")
INVERSE = {"BEFORE": "AFTER", "AFTER": "BEFORE", "IBEFORE": "IAFTER", "IAFTER": "IBEFORE", "BEGINS": "BEGUN_BY",
           "BEGUN_BY": "BEGINS", "ENDS": "ENDED_BY", "ENDED_BY": "ENDS", "INCLUDES": "IS_INCLUDED",
           "IS_INCLUDED": "INCLUDES", "DURING": "DURING_INV", "DURING_INV": "DURING", "SIMULTANEOUS": "SIMULTANEOUS",
           "IDENTITY": "IDENTITY"}

HEAD = ('<?xml version="1.0" ?>\n<TimeML xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
        'xsi:noNamespaceSchemaLocation="http://timeml.org/timeMLdocs/TimeML_1.2.1.xsd">\n\n')


@dataclass
class Profile:
    """Knobs of one kind of case."""

    name: str = "mixed"
    sentences: tuple[int, int] = (4, 9)
    events: float = 0.25  # share of words that are events
    timexes: float = 0.06
    relations: str = "timeline"  # timeline | random
    links: float = 1.2  # TLINKs per entity (gold)
    grid: int = 7  # timeline end points are drawn from range(grid)
    types: tuple[str, ...] = RELATIONS  # relation types of random graphs
    keep_event: float = 0.8  # system keeps a gold event
    extra_event: float = 0.08
    keep_timex: float = 0.8
    move_timex: float = 0.25
    keep_link: float = 0.6
    reverse_link: float = 0.3
    retype_link: float = 0.1
    extra_links: float = 0.3  # made-up system links per gold link
    implied_links: float = 0.2  # system links implied by gold ones (paths of two)
    duplicates: float = 0.05
    self_loops: float = 0.03
    second_instance: float = 0.03  # an event with two MAKEINSTANCEs
    attribute_noise: float = 0.2
    empty_links: bool = False  # some documents without any TLINK
    conflicting: float = 0.0  # a TLINK repeated with another relation on the same pair
    dangling: float = 0.0  # chance of a TLINK naming an event instance or time the document lacks (per side)
    duplicate_ids: float = 0.0  # chance of two EVENTs (or two TIMEX3s) with one id (per side)


PROFILES = {
    "mixed": Profile(),
    "chains": Profile("chains", types=("BEFORE", "AFTER"), relations="timeline", grid=30, links=1.5),
    "equal": Profile("equal", grid=3, links=1.6),
    "nesting": Profile("nesting", relations="random", types=("INCLUDES", "IS_INCLUDED", "DURING", "BEFORE")),
    "random": Profile("random", relations="random", links=1.5, extra_links=0.5),
    "cycles": Profile("cycles", relations="random", types=("BEFORE", "AFTER", "INCLUDES", "SIMULTANEOUS"),
                      links=2.0, extra_links=0.8),
    "boundaries": Profile("boundaries", relations="random",
                          types=("BEGINS", "BEGUN_BY", "ENDS", "ENDED_BY", "IBEFORE", "IAFTER", "SIMULTANEOUS",
                                 "IDENTITY"), links=1.5),
    "begins": Profile("begins", grid=4, links=2.0, implied_links=0.6),
    "sparse": Profile("sparse", links=0.5, keep_event=0.5, keep_timex=0.5, empty_links=True),
    "dense": Profile("dense", sentences=(8, 14), links=3.0, grid=12, extra_links=0.5),
    "messy": Profile("messy", relations="random", duplicates=0.2, self_loops=0.15, second_instance=0.15,
                     extra_links=0.6),
}


@dataclass(eq=False)  # compared and hashed by identity
class Entity:
    kind: str  # event | timex
    start: int  # token index
    end: int  # token index, inclusive
    attrs: dict = field(default_factory=dict)


@dataclass
class Side:
    entities: list  # Entity objects (shared objects where the system keeps a gold entity)
    ids: dict  # Entity -> original id (eid / tid)
    instances: dict  # Entity -> list of eiids
    links: list  # (Entity or "t0", Entity or "t0", relType)


def _words(rng: random.Random, p: Profile) -> list[list[str]]:
    return [[rng.choice(WORDS) for _ in range(rng.randint(5, 12))] + ["."]
            for _ in range(rng.randint(*p.sentences))]


def _sentence_of(sentences) -> list[int]:
    return [s for s, words in enumerate(sentences) for _ in words]


def _place(rng: random.Random, sentences, p: Profile) -> list[Entity]:
    """Events (one word) and timexes (one to three words in one sentence), never overlapping."""
    flat = [w for words in sentences for w in words]
    sent = _sentence_of(sentences)
    out = []
    pos = 0
    while pos < len(flat):
        if flat[pos] == ".":
            pos += 1
            continue
        r = rng.random()
        if r < p.timexes:
            end = pos
            for _ in range(rng.randint(1, 3) - 1):
                if flat[end + 1] != "." and sent[end + 1] == sent[pos]:
                    end += 1
            for j in range(pos, end + 1):
                flat[j] = rng.choice(TIMEX_WORDS)
            out.append(Entity("timex", pos, end, {"type": rng.choice(TYPES),
                                                  "value": f"1998-0{rng.randint(1, 9)}-1{rng.randint(0, 9)}"}))
            pos = end + 2
            continue
        if r < p.timexes + p.events:
            flat[pos] = rng.choice(EVENT_WORDS)
            out.append(Entity("event", pos, pos, {"class": rng.choice(CLASSES), "tense": rng.choice(TENSES),
                                                  "aspect": rng.choice(ASPECTS),
                                                  "polarity": rng.choice(("POS", "POS", "NEG")),
                                                  "pos": rng.choice(("VERB", "NOUN", "ADJECTIVE"))}))
            pos += 2
            continue
        pos += 1
    k = 0
    for words in sentences:
        words[:] = flat[k:k + len(words)]
        k += len(words)
    return out


def allen(a, b) -> str | None:
    """The TimeML relation of intervals a and b ((start, end), start < end); None for overlaps."""
    (s1, e1), (s2, e2) = a, b
    if e1 < s2:
        return "BEFORE"
    if e2 < s1:
        return "AFTER"
    if e1 == s2:
        return "IBEFORE"
    if e2 == s1:
        return "IAFTER"
    if s1 == s2 and e1 == e2:
        return "SIMULTANEOUS"
    if s1 == s2:
        return "BEGINS" if e1 < e2 else "BEGUN_BY"
    if e1 == e2:
        return "ENDS" if s1 > s2 else "ENDED_BY"
    if s1 < s2 and e2 < e1:
        return "INCLUDES"
    if s2 < s1 and e1 < e2:
        return "IS_INCLUDED"
    return None


def _timeline_links(rng: random.Random, nodes: list, p: Profile) -> list:
    times = {}
    for n in nodes:
        s = rng.randrange(p.grid - 1)
        times[n] = (s, rng.randint(s + 1, p.grid))
    links = []
    want = int(p.links * len(nodes))
    for _ in range(want * 3):
        if len(links) >= want or len(nodes) < 2:
            break
        a, b = rng.sample(nodes, 2)
        rel = allen(times[a], times[b])
        if rel is None:
            continue
        if rel == "SIMULTANEOUS" and rng.random() < 0.3:
            rel = rng.choice(("IDENTITY", "DURING", "DURING_INV"))
        if p.types != RELATIONS and rel not in p.types:
            continue
        links.append((a, b, rel))
    return links


def _random_links(rng: random.Random, nodes: list, p: Profile) -> list:
    if len(nodes) < 2:
        return []
    return [(*rng.sample(nodes, 2), rng.choice(p.types)) for _ in range(int(p.links * len(nodes)))]


def _implied(rng: random.Random, links: list) -> list:
    """A relation implied by two gold links sharing an entity (BEFORE/INCLUDES chains, equalities,
    BEGINS from a start equality and an end order)."""
    by_first: dict = {}
    for a, b, r in links:
        by_first.setdefault(a, []).append((b, r))
    out = []
    for a, b, r in links:
        for c, r2 in by_first.get(b, ()):
            if c is a:
                continue
            if r == r2 and r in ("BEFORE", "AFTER", "INCLUDES", "IS_INCLUDED", "SIMULTANEOUS"):
                out.append((a, c, r))
            elif r in ("SIMULTANEOUS", "IDENTITY") and r2 in ("BEGINS", "ENDS", "BEFORE", "INCLUDES"):
                out.append((a, c, r2))
            elif r == "BEGINS" and r2 in ("SIMULTANEOUS", "IDENTITY"):
                out.append((a, c, "BEGINS"))
    rng.shuffle(out)
    return out


def _attrs(rng: random.Random, attrs: dict, noise: float, kind: str) -> dict:
    out = dict(attrs)
    pools = {"class": CLASSES, "tense": TENSES, "aspect": ASPECTS, "type": TYPES}
    for k, pool in pools.items():
        if k in out and rng.random() < noise:
            out[k] = rng.choice(pool)
    if kind == "timex" and rng.random() < noise:
        out["value"] = f"1998-0{rng.randint(1, 9)}-1{rng.randint(0, 9)}"
    return out


def make_pair(rng: random.Random, p: Profile) -> tuple[str, str]:
    """One document: (gold TimeML, system TimeML)."""
    sentences = _words(rng, p)
    gold_entities = _place(rng, sentences, p)
    ntok = sum(len(s) for s in sentences)
    flat = [w for s in sentences for w in s]
    sent = _sentence_of(sentences)
    # system entities: kept (possibly with other attributes or a moved TIMEX3 extent), dropped, added
    sys_entities = []
    covered = set()
    for e in gold_entities:
        if e.kind == "event" and rng.random() < p.keep_event:
            sys_entities.append(e if rng.random() > p.attribute_noise else
                                Entity("event", e.start, e.end, _attrs(rng, e.attrs, 1.0, "event")))
        elif e.kind == "timex" and rng.random() < p.keep_timex:
            start, end = e.start, e.end
            if rng.random() < p.move_timex:
                s2, e2 = start + rng.choice((-1, 0, 1)), end + rng.choice((-1, 0, 1))
                if 0 <= s2 <= e2 < ntok and sent[s2] == sent[e2] == sent[start] and "." not in flat[s2:e2 + 1]:
                    start, end = s2, e2
            same = (start, end) == (e.start, e.end) and rng.random() > p.attribute_noise
            sys_entities.append(e if same else Entity("timex", start, end, _attrs(rng, e.attrs, p.attribute_noise,
                                                                                    "timex")))
    for s in sys_entities:
        covered.update(range(s.start, s.end + 1))
    for pos in range(ntok):
        if pos in covered or flat[pos] == "." or pos + 1 < ntok and pos + 1 in covered or pos - 1 in covered:
            continue
        if rng.random() < p.extra_event * 0.3:
            sys_entities.append(Entity("event", pos, pos, {"class": rng.choice(CLASSES), "tense": "PAST",
                                                           "aspect": "NONE", "polarity": "POS", "pos": "VERB"}))
            covered.add(pos)
    sys_entities.sort(key=lambda e: e.start)
    # drop system entities overlapping one another (a moved TIMEX3 may reach an event)
    clean, last = [], -1
    for e in sys_entities:
        if e.start > last:
            clean.append(e)
            last = e.end
    sys_entities = clean

    gold = _side(rng, gold_entities, p, shuffle_ids=False)
    system = _side(rng, sys_entities, p, shuffle_ids=True)
    # relations
    def nodes(side):
        return [e for e in side.entities if e.kind == "timex" or side.instances.get(e)] + ["t0"]
    gnodes = nodes(gold)
    gen = _random_links if p.relations == "random" else _timeline_links
    gold.links = [] if p.empty_links and rng.random() < 0.3 else gen(rng, gnodes, p)
    snodes = nodes(system)
    same = {e for e in gold_entities if e in set(system.entities)} | {"t0"}

    def map_node(n):
        if n in same:
            return n
        if isinstance(n, Entity):  # an entity the system changed: the system's one at the same start
            for s in system.entities:
                if s.kind == n.kind and s.start == n.start:
                    return s
        return None

    slinks = []
    for a, b, r in gold.links:
        if rng.random() > p.keep_link:
            continue
        a2, b2 = map_node(a), map_node(b)
        if a2 is None or b2 is None or (a2 != "t0" and a2 not in snodes) or (b2 != "t0" and b2 not in snodes):
            continue
        if rng.random() < p.retype_link:
            r = rng.choice(p.types)
        slinks.append((a2, b2, r))
    for a, b, r in _implied(rng, gold.links)[:int(p.implied_links * len(gold.links) + 0.5)]:
        a2, b2 = map_node(a), map_node(b)
        if a2 is not None and b2 is not None and (a2 == "t0" or a2 in snodes) and (b2 == "t0" or b2 in snodes):
            slinks.append((a2, b2, r))
    if len(snodes) > 1:
        for _ in range(int(p.extra_links * len(gold.links) + rng.random())):
            slinks.append((*rng.sample(snodes, 2), rng.choice(p.types)))
    rng.shuffle(slinks)
    if p.empty_links and rng.random() < 0.2:
        slinks = []
    system.links = slinks
    for side in (gold, system):
        extra = []
        for link in side.links:
            if rng.random() < p.duplicates:
                extra.append(link)
        if side.links and rng.random() < p.self_loops * len(side.links):
            n = rng.choice(nodes(side))
            extra.append((n, n, rng.choice(RELATIONS)))
        side.links = side.links + extra
        side.links = [(b, a, INVERSE[r]) if rng.random() < p.reverse_link else (a, b, r) for a, b, r in side.links]
        _edge_cases(rng, side, nodes(side), p)
    return render(sentences, gold), render(sentences, system)


def _edge_cases(rng: random.Random, side: Side, nodes: list, p: Profile) -> None:
    """Repeated TLINKs with conflicting relations, a TLINK to an absent entity, ids used twice
    (each drawn only when its knob is set, so profiles without them keep their documents)."""
    if p.conflicting:
        side.links += [(a, b, rng.choice([x for x in RELATIONS if x != r]))
                       for a, b, r in list(side.links) if rng.random() < p.conflicting]
    if p.dangling and rng.random() < p.dangling:
        absent = rng.choice(("ei999", "t999"))
        link = (absent, rng.choice(nodes), rng.choice(RELATIONS))
        side.links.insert(rng.randint(0, len(side.links)), link if rng.random() < 0.5 else link[1::-1] + link[2:])
    if p.duplicate_ids and rng.random() < p.duplicate_ids:
        for kind in ("event", "timex"):
            same = [e for e in side.entities if e.kind == kind]
            if len(same) >= 2 and rng.random() < 0.6:
                a, b = rng.sample(same, 2)
                side.ids[b] = side.ids[a]


def _side(rng: random.Random, entities: list, p: Profile, shuffle_ids: bool) -> Side:
    events = [e for e in entities if e.kind == "event"]
    timexes = [e for e in entities if e.kind == "timex"]
    eids = list(range(1, len(events) + 1))
    tids = list(range(1, len(timexes) + 1))
    if shuffle_ids:
        rng.shuffle(eids)
        rng.shuffle(tids)
        eids = [n + 100 for n in eids]
    ids = {e: f"e{n}" for e, n in zip(events, eids)}
    ids.update({e: f"t{n}" for e, n in zip(timexes, tids)})
    instances: dict = {}
    k = 1000 if shuffle_ids else 1
    order = list(events)
    if shuffle_ids:
        rng.shuffle(order)
    for e in order:
        if rng.random() < 0.05:
            continue  # an event without an instance (no TLINK can name it)
        n = 1 + (rng.random() < p.second_instance)
        instances[e] = [f"ei{k + j}" for j in range(n)]
        k += n
    return Side(list(entities), ids, instances, [])


def render(sentences, side: Side) -> str:
    by_start = {e.start: e for e in side.entities}
    out, pos, lines = [], 0, []
    for words in sentences:
        toks = []
        i = 0
        while i < len(words):
            e = by_start.get(pos + i)
            if e is None:
                toks.append(words[i])
                i += 1
                continue
            n = e.end - e.start + 1
            text = " ".join(words[i:i + n])
            if e.kind == "event":
                toks.append(f'<EVENT eid="{side.ids[e]}" class="{e.attrs["class"]}">{text}</EVENT>')
            else:
                toks.append(f'<TIMEX3 tid="{side.ids[e]}" type="{e.attrs["type"]}" value="{e.attrs["value"]}">'
                            f'{text}</TIMEX3>')
            i += n
        pos += len(words)
        lines.append(" ".join(toks))
    out.append(HEAD)
    out.append('<DOCID>DOC</DOCID>\n\n<DCT><TIMEX3 tid="t0" type="DATE" value="1998-02-06" temporalFunction="false" '
               'functionInDocument="CREATION_TIME">1998-02-06</TIMEX3></DCT>\n\n<TITLE>a title</TITLE>\n\n')
    out.append("<TEXT>\n" + "\n\n".join(lines) + "\n</TEXT>\n\n")
    for e in side.entities:
        for eiid in side.instances.get(e, ()):
            a = e.attrs
            out.append(f'<MAKEINSTANCE eiid="{eiid}" eventID="{side.ids[e]}" pos="{a["pos"]}" tense="{a["tense"]}" '
                       f'aspect="{a["aspect"]}" polarity="{a["polarity"]}" />\n')
    for k, (a, b, r) in enumerate(side.links, 1):
        def ref(n, first):
            if isinstance(n, str) and n.startswith("ei"):  # an instance no MAKEINSTANCE defines
                return f'eventInstanceID="{n}"' if first else f'relatedToEventInstance="{n}"'
            if isinstance(n, str) and n != "t0":  # a time no TIMEX3 defines
                return f'timeID="{n}"' if first else f'relatedToTime="{n}"'
            if n == "t0" or n.kind == "timex":
                tid = "t0" if n == "t0" else side.ids[n]
                return f'timeID="{tid}"' if first else f'relatedToTime="{tid}"'
            eiid = side.instances[n][-1 if k % 3 == 0 else 0]
            return f'eventInstanceID="{eiid}"' if first else f'relatedToEventInstance="{eiid}"'
        out.append(f'<TLINK lid="l{k}" relType="{r}" {ref(a, True)} {ref(b, False)} />\n')
    out.append("\n</TimeML>\n")
    return "".join(out)


def make_corpus(seed: int, docs: int, profile: str | Profile = "mixed") -> dict[str, tuple[str, str]]:
    """``{file name: (gold TimeML, system TimeML)}``."""
    p = PROFILES[profile] if isinstance(profile, str) else profile
    rng = random.Random(seed)
    return {f"doc{d:03d}.tml": make_pair(rng, p) for d in range(docs)}


def timebank(seed: int = 183) -> dict[str, tuple[str, str]]:
    """A TimeBank-sized corpus: 183 documents, about 6,400 gold TLINKs."""
    p = Profile("timebank", sentences=(6, 14), links=1.6, grid=20)
    rng = random.Random(seed)
    return {f"tb{d:03d}.tml": make_pair(rng, p) for d in range(183)}


def big(n_links: int, seed: int = 4000) -> dict[str, tuple[str, str]]:
    """One document with about ``n_links`` gold TLINKs."""
    sentences = max(20, n_links // 10)
    p = Profile("big", sentences=(sentences, sentences), links=n_links / (sentences * 2.1), grid=60)
    rng = random.Random(seed)
    return {"big.tml": make_pair(rng, p)}


def write_corpus(folder: str | Path, corpus: dict[str, tuple[str, str]]) -> None:
    folder = Path(folder)
    for sub in ("gold", "system"):
        (folder / sub).mkdir(parents=True, exist_ok=True)
    for name, (g, s) in corpus.items():
        (folder / "gold" / name).write_text(g, encoding="utf-8")
        (folder / "system" / name).write_text(s, encoding="utf-8")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--docs", type=int, default=5)
    ap.add_argument("--profile", default="mixed", choices=sorted(PROFILES))
    ap.add_argument("--timebank", action="store_true")
    ap.add_argument("--big", type=int, metavar="N_TLINKS")
    args = ap.parse_args()
    if args.timebank:
        corpus = timebank(args.seed if args.seed != 1 else 183)
    elif args.big:
        corpus = big(args.big, args.seed if args.seed != 1 else 4000)
    else:
        corpus = make_corpus(args.seed, args.docs, args.profile)
    write_corpus(args.out, corpus)


if __name__ == "__main__":
    main()
