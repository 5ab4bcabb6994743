#!/usr/bin/env python3
"""Generate KYOTO Kybot output files with their KAF files and record the triple files the Triple evaluation
module's ``KybotOutputToTriples`` (cltl/TripleEvaluation, its current source built with javac against the
jar of the repository) writes for them at several WSD thresholds.

Writes ``tests/data/kybot_anchors/case-NN/doc.kaf`` and ``doc.kaf.kybot.xml`` (seeded: several ``<doc>``
elements, with and without a shortname; events with and without ``eid``, ``rank``, ``profile_id``; the same
event id in two documents; competing readings of one term (events and roles ranked against each other);
roles before their events, without ``event``, naming no event, with ``rtype`` prefixes ``X#``/``X#Y#``, no
``rtype``, ``<ROLE>``; ranks ``NaN``, ``1e-1``, ``+.5``, ``0x1p-2``, ``abc``, empty; places, countries and
dates inside events and between them; terms with several tokens, components, no tokens, unknown terms;
``&``, quotes and non-ASCII in lemmas and words) and, per threshold, ``doc.kaf.kybot.xml.T.trp``: the
module's output file, byte for byte.  ``expected.json`` lists the runs with the module's counts of
unresolved events and roles (its standard output).

``example/``: the module's shipped example (``11767.kaf.kybot.xml`` and the ``.0.trp``/``.60.trp`` files it
ships, as ``.T.shipped.trp``) with a KAF file rebuilt from the shipped ``.0.trp`` (the repository does not
ship ``11767.kaf``: each term the triples resolve gets the tokens they give it; the words are placeholders).
The module run on it (``.T.trp``, stored) must write the shipped triples again — the same triples: the
shipped files were written in 2013 by a Java whose ``HashMap`` iterated in another order.

Build and run (Java 17; BUILD holds the module's classes compiled from its source):

    javac -d BUILD -cp JAR $(find src/main/java -name '*.java')
    python scripts/make_kybot_anchors.py --classpath BUILD:JAR --release RELEASE_DIR [--cases 12] [--seed 3]

Every run is made twice and must give the same file (a difference would be a hash-order dependence).
"""
from __future__ import annotations

import argparse
import json
import random
import re
import shutil
import subprocess
import tempfile
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "kybot_anchors"
THRESHOLDS = (0, 35, 60, 100)
EXAMPLE_THRESHOLDS = (0, 60)
WORDS = ("fish", "river", "the", "migratory", "dam", "habitat", "Chesapeake", "Bay", "spawn", "&", 'say"s',
         "Zürich", "stream", "2010", "in", "of")
LEMMAS = ("fish", "migrate", "restore & protect", 'the "bay"', "live", "flood", "Zürich", "prevent", "")
RTYPES = ("Kyoto#patient", "patient", "Kyoto#done-by", "DOLCE-Lite.owl#q-location", "a#b#c", "use-of",
          "generic-location", "", "#")
RANKS = ("0.534691", "0.175324", "1.0", "0.5", "0.25", "0.0", "1e-1", "+.5", "0x1p-2", "NaN", "abc", "",
         "0.101492", "0.118576", "0.9", "-0.3", "1.1f")


def _a(**kw) -> str:
    return "".join(f" {k}={quoteattr(str(v))}" for k, v in kw.items() if v is not None)


def generate_kaf(rng: random.Random) -> tuple[str, list[str]]:
    """A KAF file (``wid``/``tid``; terms of 1-3 tokens, some with components, some without a span); returns
    it and the term (and component) ids."""
    n_words = rng.randint(20, 45)
    out = ['<?xml version="1.0" encoding="UTF-8"?>', '<KAF xml:lang="en">', "<text>"]
    for k in range(1, n_words + 1):
        out.append(f'  <wf{_a(wid=f"w{k}", sent=str(1 + k // 10))}>{escape(rng.choice(WORDS))}</wf>')
    out += ["</text>", "<terms>"]
    ids: list[str] = []
    w, t = 1, 1
    while w <= n_words:
        size = min(n_words - w + 1, rng.choice((1, 1, 1, 2, 3)))
        tid = f"t{t}" + ("mw" if size > 1 and rng.random() < 0.5 else "")
        ids.append(tid)
        out.append(f'  <term{_a(tid=tid, lemma="x", pos="N")}>')
        if rng.random() < 0.06:
            out.append("    <span></span>")  # a term with no tokens
        else:
            out.append("    <span>" + "".join(f'<target id="w{k}"/>' for k in range(w, w + size)) + "</span>")
        if size > 1 and rng.random() < 0.4:
            for c in range(1, size + 1):
                ids.append(f"{tid}.c{c}")
                out.append(f'    <component{_a(id=f"{tid}.c{c}", lemma="x", pos="N")}/>')
        out.append("  </term>")
        w += size
        t += 1
    out += ["</terms>", "</KAF>", ""]
    return "\n".join(out), ids


def generate_kybot(rng: random.Random, term_ids: list[str]) -> str:
    """Kybot output (``<kybotOut><doc><event/><role/>...``) over the KAF file's terms."""
    def term() -> str:
        r = rng.random()
        if r < 0.06:
            return "t999"  # names no term
        if r < 0.09:
            return ""
        return rng.choice(term_ids[: max(4, len(term_ids) // 2)]) if rng.random() < 0.6 else rng.choice(term_ids)

    def rank() -> str | None:
        return None if rng.random() < 0.1 else rng.choice(RANKS)

    def spans_element(indent: str) -> list[str]:
        kind = rng.choice(("place", "country", "dateInfo"))
        attrs = {"place": {"name": "Annapolis", "countryCode": "US", "latitude": "38.97", "longitude": "-76.5"},
                 "country": {"countryCode": "US", "countryName": "United States", "capital": "Washington"},
                 "dateInfo": {"dateISO": "2010-05", "lemma": "May 2010"}}[kind]
        lines = [f"{indent}<{kind}{_a(**attrs)}>"]
        for _ in range(rng.choice((0, 1, 1, 2))):
            lines.append(f'{indent}  <span id="{term()}"/>')
        lines.append(f"{indent}</{kind}>")
        return lines

    out = ['<?xml version="1.0" encoding="UTF-8"?>', "<kybotOut>"]
    event_no = 0
    role_no = 0
    all_eids: list[str] = []
    for d in range(rng.randint(1, 3)):
        short = None if rng.random() < 0.3 else f"doc{d}.kaf.onto"
        out.append(f"  <doc{_a(shortname=short)}>")
        pending_roles: list[str] = []
        for _ in range(rng.randint(2, 9)):
            event_no += 1
            r = rng.random()
            if r < 0.1:
                eid = None  # numbered by the parser
            elif r < 0.14:
                eid = ""
            elif r < 0.22 and all_eids:
                eid = rng.choice(all_eids)  # the same id again (replaces the earlier event)
            else:
                eid = f"e{event_no}"
            if eid:
                all_eids.append(eid)
            target = term()
            readings = rng.choice((1, 1, 2, 3))  # competing readings of one term
            for reading in range(readings):
                this_eid = eid if reading == 0 else f"e{event_no}x{reading}"
                attrs = _a(eid=this_eid, target=target, lemma=rng.choice(LEMMAS), pos="V",
                           synset=f"eng-30-{rng.randint(10 ** 7, 10 ** 8 - 1)}-v", rank=rank(),
                           profile_id=rng.choice((None, "complex_term", "generic_kybot_A,generic_kybot_B", "")))
                inner: list[str] = []
                if rng.random() < 0.3:
                    for _ in range(rng.randint(1, 2)):
                        inner += spans_element("      ")
                roles: list[str] = []
                role_target = term()
                for _ in range(rng.choice((0, 1, 2, 2, 3, 4))):
                    role_no += 1
                    ref = this_eid
                    r = rng.random()
                    if r < 0.08:
                        ref = None  # the parser's number of the last event
                    elif r < 0.12:
                        ref = "e404"  # names no event
                    elif r < 0.16 and all_eids:
                        ref = rng.choice(all_eids)
                    if rng.random() < 0.5:
                        role_target = term()  # else: another reading of the same participant
                    tag = "ROLE" if rng.random() < 0.05 else "role"
                    rtype = rng.choice(RTYPES)
                    roles.append(f"    <{tag}" + _a(rid=None if rng.random() < 0.1 else f"r{role_no}", event=ref,
                                                    target=role_target, lemma=rng.choice(LEMMAS), pos="N",
                                                    rtype=None if rtype == "" and rng.random() < 0.5 else rtype,
                                                    rank=rank(),
                                                    profile_id=rng.choice((None, "complex_term", "p1,p2"))) + "/>")
                if inner:
                    out.append(f"    <event{attrs}>")
                    out += inner
                    out.append("    </event>")
                else:
                    out.append(f"    <event{attrs}/>")
                if rng.random() < 0.15:
                    pending_roles += roles  # roles written later (after other events)
                else:
                    out += roles
                if rng.random() < 0.12:
                    out += spans_element("    ")  # between events
        out += pending_roles
        out.append("  </doc>")
    out += ["</kybotOut>", ""]
    return "\n".join(out)


# ---- the shipped example's KAF file, rebuilt from the shipped triples

def rebuild_example_kaf(kybot: str, triples: str) -> str:
    """A KAF file whose terms have the tokens the shipped ``.0.trp`` gives them (events: first element;
    roles: second element, matched by event id, relation, profile and lemma)."""
    events = {}
    for m in re.finditer(r"<event ([^>]*?)/?>", kybot):
        a = dict(re.findall(r'(\w+)="([^"]*)"', m.group(1)))
        events[a["eid"]] = a["target"]
    roles: dict[tuple, set[str]] = {}
    for m in re.finditer(r"<role ([^>]*)/>", kybot):
        a = dict(re.findall(r'(\w+)="([^"]*)"', m.group(1)))
        rtype = a.get("rtype", "").split("#", 1)[-1]
        roles.setdefault((a["event"], rtype, a.get("profile_id", ""), a.get("lemma", "")), set()).add(a["target"])
    tokens: dict[str, list[str]] = {}
    for m in re.finditer(r'<triple id="([^"]*)"(?: profile_id="([^"]*)")?(?: relation="([^"]*)")?>\s*'
                         r'<elementFirstIds comment="([^"]*)">(.*?)</elementFirstIds>\s*'
                         r'<elementSecondIds comment="([^"]*)">(.*?)</elementSecondIds>', triples, re.DOTALL):
        eid, profile, relation, _, first, second_comment, second = m.groups()
        first_ids = re.findall(r'id="([^"]*)"', first)
        second_ids = re.findall(r'id="([^"]*)"', second)
        assert tokens.setdefault(events[eid], first_ids) == first_ids
        targets = roles[(eid, relation or "", profile or "", second_comment)]
        assert len(targets) == 1, (eid, targets)
        assert tokens.setdefault(targets.pop(), second_ids) == second_ids
    words = sorted({w for ids in tokens.values() for w in ids}, key=lambda w: int(w[1:]))
    out = ['<?xml version="1.0" encoding="UTF-8"?>', '<KAF xml:lang="en">', "<text>"]
    out += [f'  <wf wid="{w}">{w}</wf>' for w in words]
    out += ["</text>", "<terms>"]
    for tid, ids in sorted(tokens.items()):
        out.append(f'  <term tid="{tid}"><span>' + "".join(f'<target id="{w}"/>' for w in ids) + "</span></term>")
    out += ["</terms>", "</KAF>", ""]
    return "\n".join(out)


def triple_blocks(data: bytes) -> list[bytes]:
    """The ``<triple>`` elements of a triple file, sorted (the shipped files were written by a Java whose
    ``HashMap`` iterated in another order: the same triples, in another order)."""
    return sorted(re.findall(rb"<triple .*?</triple>\n", data, re.DOTALL))


# ---- the module

def run_module(classpath: str, kybot: Path, kaf: Path, threshold: int) -> tuple[bytes, dict]:
    """``KybotOutputToTriples KYBOT KAF THRESHOLD`` in a scratch folder, twice: its output file and its counts."""
    results = []
    for _ in range(2):
        with tempfile.TemporaryDirectory() as tmp:
            work = Path(tmp)
            shutil.copy(kybot, work / kybot.name)
            shutil.copy(kaf, work / kaf.name)
            proc = subprocess.run(["java", "-cp", classpath, "vu.tripleevaluation.conversion.KybotOutputToTriples",
                                   kybot.name, kaf.name, str(threshold)], cwd=work, capture_output=True, text=True,
                                  check=False)
            if proc.returncode != 0:
                raise SystemExit(f"module failed on {kybot} {threshold}: {proc.stderr[-2000:]}")
            out = (work / f"{kybot.name}.{threshold}.trp").read_bytes()
            counts = {key: int(m.group(1)) for key, label in (("facts", "Nr. of facts"),
                                                              ("unresolved_facts", "Nr. of unresolved facts"),
                                                              ("unresolved_roles", "Nr. of unresolved roles"),
                                                              ("triples", "Nr. of triples"))
                      for m in [re.search(re.escape(label) + r" = (\d+)", proc.stdout)]}
            results.append((out, counts))
    if results[0] != results[1]:
        raise SystemExit(f"two runs of the module differ on {kybot} {threshold}")
    return results[0]


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--classpath", required=True, help="the module's classes and its jar (BUILD:JAR)")
    ap.add_argument("--release", help="the module's release folder (tripleevaluation.v0.1) for the example")
    ap.add_argument("--cases", type=int, default=12)
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--out", type=Path, default=OUT, help="where to write (default: the test anchors)")
    args = ap.parse_args(argv)
    write(args)


def write(args) -> None:
    out_dir = args.out
    if out_dir.exists():
        shutil.rmtree(out_dir)
    out_dir.mkdir(parents=True)
    runs = []
    for case in range(args.cases):
        rng = random.Random(args.seed * 1000 + case)
        folder = out_dir / f"case-{case:02d}"
        folder.mkdir()
        kaf_text, term_ids = generate_kaf(rng)
        (folder / "doc.kaf").write_text(kaf_text, encoding="utf-8", newline="\n")
        (folder / "doc.kaf.kybot.xml").write_text(generate_kybot(rng, term_ids), encoding="utf-8", newline="\n")
        for threshold in THRESHOLDS:
            out, counts = run_module(args.classpath, folder / "doc.kaf.kybot.xml", folder / "doc.kaf", threshold)
            (folder / f"doc.kaf.kybot.xml.{threshold}.trp").write_bytes(out)
            runs.append({"case": folder.name, "kybot": "doc.kaf.kybot.xml", "kaf": "doc.kaf",
                         "threshold": threshold, "counts": counts})
    if args.release:
        source = Path(args.release) / "data" / "kyoto"
        folder = out_dir / "example"
        folder.mkdir()
        kybot = folder / "11767.kaf.kybot.xml"
        shutil.copy(source / kybot.name, kybot)
        kaf = folder / "11767.kaf"
        kaf.write_text(rebuild_example_kaf(kybot.read_text(encoding="utf-8"),
                                           (source / "11767.kaf.kybot.xml.0.trp").read_text(encoding="utf-8")),
                       encoding="utf-8", newline="\n")
        for threshold in EXAMPLE_THRESHOLDS:
            shipped = (source / f"11767.kaf.kybot.xml.{threshold}.trp").read_bytes()
            out, counts = run_module(args.classpath, kybot, kaf, threshold)
            if triple_blocks(out) != triple_blocks(shipped):
                raise SystemExit(f"the module's run on the rebuilt example differs from the shipped "
                                 f"11767.kaf.kybot.xml.{threshold}.trp")
            (folder / f"11767.kaf.kybot.xml.{threshold}.trp").write_bytes(out)
            (folder / f"11767.kaf.kybot.xml.{threshold}.shipped.trp").write_bytes(shipped)
            runs.append({"case": "example", "kybot": kybot.name, "kaf": kaf.name, "threshold": threshold,
                         "counts": counts})
    with open(out_dir / "expected.json", "w", encoding="utf-8", newline="\n") as fh:
        json.dump({"module": "vu.tripleevaluation.conversion.KybotOutputToTriples", "seed": args.seed,
                   "runs": runs}, fh, indent=1)
        fh.write("\n")
    print(f"{len(runs)} runs ({args.cases} cases x {len(THRESHOLDS)} thresholds"
          f"{' + the shipped example' if args.release else ''}) -> {out_dir}")


if __name__ == "__main__":
    main()
