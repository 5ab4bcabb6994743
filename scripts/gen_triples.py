"""Seeded generator of triple files (the NewsReader / KYOTO triple XML) for agreement tests and benchmarks.

A case is a gold file and a system file over the same token ids (``w1``..``wN``), with what makes the
Triple evaluation module's counting interesting: overlapping and disjoint id sets, duplicate triples on
both sides, gold triples that overlap each other, unary triples (empty second element), triples with an
empty first element, relation case differences, ``TIME``/``LOCATION`` triples, the KYOTO ``participant``
relation beside ``patient``/``done-by`` (the module's special case when it removes duplicates), element
labels (first/second element statistics), comments with quotes and ampersands, ids with spaces around
them, an element listing an id twice, the element aliases (``triplet``, ``eventids``, ``participant``...).
Beside each case: a token-range file, a relation filter and a relation map.

    python scripts/gen_triples.py OUT_DIR --cases 8 --seed 7        # case folders
    python scripts/gen_triples.py OUT_DIR --big 1000000 --seed 7    # gold/, system/: 1M triples each, 2,000 files
"""
from __future__ import annotations

import argparse
import os
import random
from xml.sax.saxutils import quoteattr

RELATIONS = ("agent", "patient", "theme", "LOCATION", "TIME", "participant", "done-by", "instrument",
             "positive#2#####", "negative#-1#####", "Agent")
FIRST_LABELS = ("", "", "event", "state")
SECOND_LABELS = ("", "", "holder:Speaker", "target")
COMMENTS = ("", "", "walked", 'said "no"', "R&D lab", "x < y")


class Triple:
    __slots__ = ("tid", "relation", "first", "second", "first_label", "second_label", "first_comment",
                 "second_comment", "profile")

    def __init__(self, tid, relation, first, second, first_label="", second_label="", first_comment="",
                 second_comment="", profile=""):
        self.tid, self.relation, self.first, self.second = tid, relation, list(first), list(second)
        self.first_label, self.second_label = first_label, second_label
        self.first_comment, self.second_comment, self.profile = first_comment, second_comment, profile

    def copy(self, **changes):
        t = Triple(self.tid, self.relation, self.first, self.second, self.first_label, self.second_label,
                   self.first_comment, self.second_comment, self.profile)
        for k, v in changes.items():
            setattr(t, k, v)
        return t


def _span(rng: random.Random, n_tokens: int, longest: int = 3) -> list[str]:
    start = rng.randint(1, n_tokens)
    return [f"w{k}" for k in range(start, min(n_tokens, start + rng.randint(1, longest) - 1) + 1)]


def _gold(rng: random.Random, n_tokens: int, n_events: int) -> list[Triple]:
    out = []
    for e in range(n_events):
        event = _span(rng, n_tokens, 2)
        label = rng.choice(FIRST_LABELS)
        comment = rng.choice(COMMENTS)
        for r in range(rng.randint(1, 4)):
            relation = rng.choice(RELATIONS)
            roll = rng.random()
            if roll < 0.12:
                second = []  # unary
            else:
                second = _span(rng, n_tokens)
            t = Triple(f"t{e}_{r}", relation, event, second, label, rng.choice(SECOND_LABELS), comment,
                       rng.choice(COMMENTS), rng.choice(("", "", "p1")))
            out.append(t)
            if rng.random() < 0.08:  # a duplicate gold triple
                out.append(t.copy())
            if rng.random() < 0.08 and second:  # an overlapping gold triple, same relation
                out.append(t.copy(tid=t.tid + "b", second=second + [f"w{min(n_tokens, int(second[-1][1:]) + 1)}"]))
    if rng.random() < 0.5:  # a triple with an empty first element
        out.append(Triple("tx", rng.choice(RELATIONS), [], _span(rng, n_tokens)))
    return out


def _system(rng: random.Random, gold: list[Triple], n_tokens: int) -> list[Triple]:
    out = []
    for k, g in enumerate(gold):
        roll = rng.random()
        t = g.copy(tid=f"s{k}", first_label=rng.choice((g.first_label, "")),
                   second_label=rng.choice((g.second_label, g.second_label, "")))
        if roll < 0.12:
            continue  # missed
        if roll < 0.22:
            t.relation = t.relation.upper() if t.relation.islower() else t.relation.lower()
        elif roll < 0.34:
            t.relation = rng.choice(RELATIONS)
        elif roll < 0.48:  # partial overlap
            if t.second and rng.random() < 0.5:
                t.second = t.second[:1] + [f"w{rng.randint(1, n_tokens)}"]
            else:
                t.first = t.first + [f"w{rng.randint(1, n_tokens)}"]
        elif roll < 0.52 and t.first:
            t.first = [t.first[0], t.first[0]] + t.first[1:]  # an id listed twice
        out.append(t)
        if rng.random() < 0.1:
            out.append(t.copy(tid=t.tid + "d"))  # duplicate system triple
    for k in range(rng.randint(0, max(1, len(gold) // 4))):  # spurious triples
        second = [] if rng.random() < 0.15 else _span(rng, n_tokens)
        out.append(Triple(f"x{k}", rng.choice(RELATIONS), _span(rng, n_tokens, 2), second,
                          rng.choice(FIRST_LABELS), rng.choice(SECOND_LABELS)))
    if rng.random() < 0.3:
        out.append(Triple("sx", rng.choice(RELATIONS), [], []))  # both elements empty
    # local reorderings: the module's counting depends on the order of the system triples
    for _ in range(len(out) // 5):
        i = rng.randrange(len(out))
        j = min(len(out) - 1, i + rng.randint(1, 3))
        out[i], out[j] = out[j], out[i]
    return out


def _attrs(pairs) -> str:
    return "".join(f" {k}={quoteattr(v)}" for k, v in pairs if v != "")


def triple_xml(triples: list[Triple], rng: random.Random | None = None) -> str:
    """Triple XML as the module writes it; with ``rng``, some aliases, id padding and attribute orders."""
    lines = ['<?xml version="1.0" encoding="UTF-8" standalone="yes"?>', "<triples>"]
    for t in triples:
        alias = rng is not None and rng.random() < 0.1
        tag, f_ids, f_el, s_ids, s_el = (("triplet", "eventids", "event", "participantids", "participant") if alias
                                         else ("triple", "elementFirstIds", "elementFirst", "elementSecondIds",
                                               "elementSecond"))
        pad = (lambda s: f" {s} ") if rng is not None and rng.random() < 0.05 else (lambda s: s)
        head = [("id", t.tid), ("relation", pad(t.relation)), ("profile_id", t.profile)]
        if rng is not None and rng.random() < 0.3:
            head = head[::-1]
        lines.append(f"<{tag}{_attrs(head)}>")
        for ids_tag, el_tag, ids, label, comment in ((f_ids, f_el, t.first, t.first_label, t.first_comment),
                                                      (s_ids, s_el, t.second, t.second_label, t.second_comment)):
            attrs = _attrs((("label", label), ("comment", comment)))
            if not ids:
                lines.append(f"\t<{ids_tag}{attrs}/>")
                continue
            lines.append(f"\t<{ids_tag}{attrs}>")
            lines.extend(f"\t\t<{el_tag} id={quoteattr(pad(i))}/>" for i in ids)
            lines.append(f"\t</{ids_tag}>")
        lines.append(f"</{tag}>")
    lines.append("</triples>")
    return "\n".join(lines) + "\n"


def generate_case(seed: int) -> dict[str, str]:
    """One case: gold and system triple XML, a token range, a relation filter and a relation map."""
    rng = random.Random(seed)
    n_tokens = rng.randint(20, 80)
    gold = _gold(rng, n_tokens, rng.randint(3, 12))
    system = _system(rng, gold, n_tokens)
    in_range = sorted(rng.sample(range(1, n_tokens + 1), n_tokens // 2))
    range_lines = [f"w{k}" for k in in_range] + ["", f" w{in_range[0]} "]  # a blank line, a repeat with spaces
    kept = rng.sample(RELATIONS, 5)
    mapping = [("agent", "a0"), ("Agent", "a0"), ("patient", "a1"), ("participant", "a1"), ("theme", "theme"),
               ("done-by", "a0\textra")]  # the last line has three fields: ignored
    return {
        "gold.trp": triple_xml(gold, rng),
        "system.trp": triple_xml(system, rng),
        "range.txt": "\n".join(range_lines) + "\n",
        "filter.txt": "\n".join(kept) + "\n\n",
        "map.txt": "\n".join(f"{a}\t{b}" for a, b in mapping) + "\n",
    }


def write_case(folder: str, files: dict[str, str]) -> None:
    os.makedirs(folder, exist_ok=True)
    for name, text in files.items():
        with open(os.path.join(folder, name), "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)


def big_pair(n: int, seed: int, docs: int = 1) -> tuple[list[Triple], list[Triple]]:
    """About ``n`` gold and ``n`` system triples (one document), for benchmarks: events with one to four
    roles, the system perturbed as in the cases (kept, missed, relation changed, overlapping, duplicated,
    spurious)."""
    rng = random.Random(seed)
    n_tokens = max(100, n * 3)
    gold: list[Triple] = []
    while len(gold) < n:
        start = rng.randint(1, n_tokens - 8)
        event = [f"w{start}"]
        for r in range(rng.randint(1, 4)):
            a = start + 1 + 2 * r
            gold.append(Triple(f"t{len(gold)}", RELATIONS[rng.randrange(3)], event, [f"w{a}", f"w{a + 1}"]))
    gold = gold[:n]
    system = _system(rng, gold, n_tokens)[:n]
    return gold, system


def big_corpus(n: int, seed: int, per_doc: int = 500) -> list[tuple[str, list[Triple], list[Triple]]]:
    """About ``n`` gold and ``n`` system triples in documents of about ``per_doc`` triples:
    (name, gold, system) per document."""
    return [(f"doc{k:05d}", *big_pair(per_doc, seed * 1000003 + k)) for k in range(max(1, n // per_doc))]


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out")
    ap.add_argument("--cases", type=int, default=8)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--big", type=int, default=0, help="write gold/ and system/ folders of this many triples")
    ap.add_argument("--per-doc", type=int, default=500, help="with --big: triples per document")
    args = ap.parse_args(argv)
    if args.big:
        for name, gold, system in big_corpus(args.big, args.seed, args.per_doc):
            write_case(os.path.join(args.out, "gold"), {f"{name}.trp": triple_xml(gold)})
            write_case(os.path.join(args.out, "system"), {f"{name}.trp": triple_xml(system)})
        return
    for k in range(args.cases):
        write_case(os.path.join(args.out, f"case-{k:03d}"), generate_case(args.seed * 1000 + k))


if __name__ == "__main__":
    main()
