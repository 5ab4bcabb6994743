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
            lines.extend(f"\t\t<{el_tag}/>" if i is None else f"\t\t<{el_tag} id={quoteattr(pad(i))}/>" for i in ids)
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


KYOTO = ("patient", "done-by", "instrument")


def _relation_twins(rng: random.Random, triples: list[Triple], n_tokens: int, tag: str) -> list[Triple]:
    """Duplicates and near-duplicates with another relation: a copy with another relation (``participant``
    beside a KYOTO role among them), a copy whose ids are shifted by one (partial overlap) with another
    relation, a copy with one id more and the relation in other case."""
    out = []
    for k, t in enumerate(triples):
        out.append(t)
        roll = rng.random()
        if roll < 0.15:
            other = "participant" if t.relation in KYOTO and rng.random() < 0.6 else rng.choice(RELATIONS)
            out.append(t.copy(tid=f"{t.tid}{tag}r", relation=other))
        elif roll < 0.25 and t.second:
            shifted = [f"w{min(n_tokens + 2, int(i[1:]) + 1)}" if i and i[0] == "w" and i[1:].isdigit() else i
                       for i in t.second]
            out.append(t.copy(tid=f"{t.tid}{tag}n", relation=rng.choice(RELATIONS), second=t.second[:1] + shifted))
        elif roll < 0.32 and t.first:
            out.append(t.copy(tid=f"{t.tid}{tag}c", relation=t.relation.swapcase(),
                              first=t.first + [f"w{rng.randint(1, n_tokens)}"]))
    return out


def _chain(rng: random.Random, n_tokens: int, tag: str) -> list[Triple]:
    """Triples overlapping their neighbours only (a-b, b-c, c-d: a and c share nothing), with one event,
    some with another relation: which of them are duplicates depends on the ones kept before."""
    event = [f"w{rng.randint(1, n_tokens)}"]
    start = rng.randint(1, n_tokens)
    relation = rng.choice(RELATIONS)
    return [Triple(f"{tag}{k}", relation if rng.random() < 0.7 else rng.choice(RELATIONS), event,
                   [f"w{start + k}", f"w{start + k + 1}"]) for k in range(rng.randint(2, 5))]


def _odd_ids(rng: random.Random, triples: list[Triple], n_tokens: int) -> None:
    """In place: elements with no id (``<elementFirst/>``, None here) or an empty one, and token ids no
    token has (beyond the document's)."""
    for t in triples:
        roll = rng.random()
        side = t.first if rng.random() < 0.5 else t.second
        if roll < 0.06:
            side.insert(rng.randint(0, len(side)), None)
        elif roll < 0.09:
            side.append(rng.choice(("", " ")))
        elif roll < 0.15:
            side.append(f"w{n_tokens + rng.randint(1, 50)}")


def generate_wide_case(seed: int) -> dict[str, str]:
    """A case with, beside :func:`generate_case`'s features: duplicate and near-duplicate triples with other
    relations on both sides (gold duplicates among them), chains of partially overlapping triples, elements
    with no id or an empty one, token ids no token has (also in the token range, which may name no id of
    the files at all), empty files (either side, or both), files of only unary or element-less triples, and
    elements after a triple's end."""
    rng = random.Random(seed)
    n_tokens = rng.randint(8, 40)  # few tokens: many overlaps
    gold = _gold(rng, n_tokens, rng.randint(2, 8))
    system = _system(rng, gold, n_tokens)
    gold = _relation_twins(rng, gold, n_tokens, "g")
    system = _relation_twins(rng, system, n_tokens, "s")
    for _ in range(rng.randint(0, 2)):
        links = _chain(rng, n_tokens, f"c{len(gold)}_")
        gold += links
        system += [t.copy(tid="s" + t.tid) for t in links if rng.random() < 0.8]
    if rng.random() < 0.5:
        system += _chain(rng, n_tokens, f"sc{len(system)}_")
    _odd_ids(rng, gold, n_tokens)
    _odd_ids(rng, system, n_tokens)
    shape = rng.random()
    if shape < 0.05:
        gold = []
    elif shape < 0.10:
        system = []
    elif shape < 0.12:
        gold, system = [], []
    elif shape < 0.15:
        system = [t.copy(second=[]) for t in system]  # only unary triples
    elif shape < 0.17:
        system = [t.copy(first=[], second=[]) for t in system[:3]]  # no ids at all
    used = sorted({int(i[1:]) for t in gold + system for i in t.first + t.second
                   if i and i[0] == "w" and i[1:].isdigit()}) or [1]
    if rng.random() < 0.1:
        in_range = [n_tokens + 100 + k for k in range(3)]  # names no id of the files
    else:
        in_range = sorted(set(rng.sample(used, max(1, len(used) // 2))) | {n_tokens + 60, n_tokens + 61})
    files = generate_case(seed)
    files.update({
        "gold.trp": triple_xml(gold, rng),
        "system.trp": triple_xml(system, rng),
        "range.txt": "\n".join(f"w{k}" for k in in_range) + "\n",
    })
    strays = random.Random(seed + 7_000_003)  # its own draws: the files above stay as they were without it
    for name in ("gold.trp", "system.trp"):
        if strays.random() < 0.15:
            files[name] = _with_stray(files[name], strays, n_tokens)
    return files


def _with_stray(xml: str, rng: random.Random, n_tokens: int) -> str:
    """An element after a triple's end (between two triples): the module's parser adds it to that triple."""
    lines = xml.split("\n")
    ends = [k for k, line in enumerate(lines) if line in ("</triple>", "</triplet>")]
    if not ends:
        return xml
    stray = rng.choice((f'<elementSecond id="w{rng.randint(1, n_tokens)}"/>',
                        f'<elementFirst id="w{rng.randint(1, n_tokens)}"/>', '<elementSecondIds label="target"/>'))
    lines.insert(rng.choice(ends) + 1, stray)
    return "\n".join(lines)


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
    ap.add_argument("--wide", action="store_true", help="cases of generate_wide_case (duplicates with other "
                    "relations, overlap chains, missing ids, empty files...)")
    args = ap.parse_args(argv)
    if args.big:
        for name, gold, system in big_corpus(args.big, args.seed, args.per_doc):
            write_case(os.path.join(args.out, "gold"), {f"{name}.trp": triple_xml(gold)})
            write_case(os.path.join(args.out, "system"), {f"{name}.trp": triple_xml(system)})
        return
    make = generate_wide_case if args.wide else generate_case
    for k in range(args.cases):
        write_case(os.path.join(args.out, f"case-{k:03d}"), make(args.seed * 1000 + k))


if __name__ == "__main__":
    main()
