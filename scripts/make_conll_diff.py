#!/usr/bin/env python3
"""Differential cases for CoNLL-2012: seeded key/response pairs with every feature v8.01 reads, and
what the CoNLL reference scorer v8.01 (and coval's LEA) printed for them.

Each pair can hold, beside plain mentions: the same span in several entities (a mention in two
entities), repeated mentions in one entity, nested and crossing brackets (of one entity or two),
same-token brackets (``3)|(3``), ``07``/``7`` labels, items written back to back, split-antecedent
items ``(1+2)``, empty documents (with tokens and no mentions, or no token at all), documents present
on one side only, multi-part documents (``(name); part 000``, ``part 001``) and, in some responses,
more than 10 repeated mentions (v8.01 refuses those).

For every pair v8.01 is run with each metric and ``all`` (``perl scorer.pl METRIC KEY RESPONSE none``),
and with one document's name as its 4th argument (``--doc NAME``: the whole verbose report).  v8.01 adds
documents in Perl's hash order, so its last digit can depend on that order: it is run with
``PERL_HASH_SEED`` 0 (and ``PERL_PERTURB_KEYS`` 0), and for pairs of several documents also with seeds 1
to 3; every distinct TOTALS reading is kept.  coval's LEA counts are kept where coval reads the pair as
v8.01 does: no span twice on a side (about two pairs in three are made so), key documents missing from
the response given to coval as documents without mentions (it crashes on missing ones).

Written to ``tests/data/conll_diff/cases.json.gz`` (the inputs and the outputs; ``--check`` regenerates
and compares the bytes).  ``--quirks`` writes ``quirks.json.gz`` instead: pairs made as above, each with one
of the lines v8.01's ``GetFileNames``/``GetCoreference`` read otherwise than meant (issue 36; ``QUIRKS``), put
in the key or the response (classes appended at the end of ``QUIRKS``, so the earlier cases stay as stored);
v8.01's figures are fastscore's by default (with a warning).  The reference scorers are not part of fastscore: fetch them yourself
(conll/reference-coreference-scorers, ns-moosavi/coval) and point to them:

    python scripts/make_conll_diff.py --perl-scorer DIR/scorer.pl --coval DIR/coval [--cases 360] [--seed 24] [--check]
"""
from __future__ import annotations

import os
import random
import re
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from expectations import gzipped_json, parser, store_or_check  # noqa: E402

from fastscore.formats.conll import bracket_items  # noqa: E402

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "conll_diff" / "cases.json.gz"
OUT_QUIRKS = OUT.with_name("quirks.json.gz")
RUNS = ("muc", "bcub", "ceafm", "ceafe", "blanc", "all")
LABELS = ("0", "1", "2", "3", "7", "07", "9", "12", "40", "41", "100")
HASH_SEEDS = (0, 1, 2, 3)


# ---- the generator -------------------------------------------------------------------------------

def random_span(rng: random.Random, n_tokens: int) -> tuple[int, int]:
    """(start, end), end exclusive."""
    s = rng.randrange(n_tokens)
    return s, min(n_tokens, s + rng.choice((1, 1, 1, 2, 2, 3, 4, 6)))


def random_entities(rng: random.Random, n_tokens: int) -> dict[str, list[tuple[int, int]]]:
    """Entities with labels from LABELS; repeats, shared spans, nesting and crossing come by chance
    and by the steps below."""
    if n_tokens == 0 or rng.random() < 0.08:
        return {}
    entities = {label: [random_span(rng, n_tokens) for _ in range(rng.choice((1, 1, 2, 2, 3, 4, 6)))]
                for label in rng.sample(LABELS, rng.randint(1, 6))}
    labels = list(entities)
    if rng.random() < 0.3:  # a mention in two entities
        a, b = rng.choice(labels), rng.choice(labels)
        entities[b].append(rng.choice(entities[a]))
    if rng.random() < 0.2:  # a repeated mention in one entity
        a = rng.choice(labels)
        entities[a].append(rng.choice(entities[a]))
    if rng.random() < 0.3:  # a mention nested in (or around) one of the same entity
        a = rng.choice(labels)
        s, e = rng.choice(entities[a])
        entities[a].append((max(0, s - 1), min(n_tokens, e + 1)) if rng.random() < 0.5 else (s, s + 1))
    return entities


def perturb(rng: random.Random, key: dict, n_tokens: int, many_repeats: bool) -> dict:
    """A response: dropped, shifted, invented mentions, merges, splits, shared and repeated spans."""
    if n_tokens == 0:
        return {}
    resp: dict[str, list[tuple[int, int]]] = {}
    for label, spans in key.items():
        out = []
        for s, e in spans:
            r = rng.random()
            if r < 0.15:
                continue
            if r < 0.25:
                s = max(0, s - 1)
            if r > 0.93 and e < n_tokens:
                e += 1
            out.append((s, e))
        if out:
            new = rng.choice((label, label, label, "5", "6", "7", "07", "88"))
            resp.setdefault(new, []).extend(out)
    for _ in range(rng.randint(0, 3)):
        resp.setdefault(rng.choice(("5", "6", "88", "90", "07")), []).append(random_span(rng, n_tokens))
    labels = list(resp)
    if labels and rng.random() < 0.35:  # a mention in two entities, or repeated in one
        a, b = rng.choice(labels), rng.choice(labels)
        resp[b].append(rng.choice(resp[a]))
    if many_repeats and labels:  # more than 10 repeats of key spans: v8.01 refuses the response
        spans = [sp for spans in key.values() for sp in spans] or [random_span(rng, n_tokens)]
        for _ in range(rng.randint(4, 14)):
            resp[rng.choice(labels)].append(rng.choice(spans))
    return resp


def without_repeats(entities: dict) -> dict:
    """The entities with each span kept once (its first place) and no two spans of one entity sharing a
    token (brackets of one entity pair last-opened first: nested ones can read as one span twice)."""
    seen: set = set()
    kept = {}
    for label, spans in entities.items():
        mine: list[tuple[int, int]] = []
        for s, e in spans:
            if (s, e) not in seen and not any(a < e and s < b for a, b in mine):
                seen.add((s, e))
                mine.append((s, e))
        if mine:
            kept[label] = mine
    return kept


def coref_column(entities: dict, n_tokens: int, rng: random.Random, back_to_back: float) -> list[str]:
    """One column per token: items in a random order, joined by '|' or (with probability ``back_to_back``)
    written back to back, split antecedents added here and there."""
    items = bracket_items(entities.items(), n_tokens)
    out = []
    for token_items in items:
        if rng.random() < 0.04:
            token_items.append(f"({rng.randint(0, 12)}+{rng.randint(0, 9)})")
        rng.shuffle(token_items)
        joint = "" if rng.random() < back_to_back else "|"
        out.append(joint.join(token_items) if token_items else rng.choice("--_"))
    return out


def document_text(name: str, n_tokens: int, entities: dict, rng: random.Random, back_to_back: float) -> list[str]:
    lines = [f"#begin document {name}"]
    col = coref_column(entities, n_tokens, rng, back_to_back)
    sentence_length = rng.randint(3, 9)
    for t in range(n_tokens):
        lines.append(f"{name.split(';')[0]}\t0\t{t % sentence_length}\tw{t}\tNN\t*\t{col[t]}")
        if t % sentence_length == sentence_length - 1:
            lines.append("")
    lines.append("#end document")
    return lines


def make_case(rng: random.Random) -> tuple[str, str, list[str]]:
    """Key text, response text and the key's document names."""
    names = []
    for d in range(rng.choice((1, 1, 2, 3, 4))):
        base = f"(nw/doc{d})" if rng.random() < 0.8 else f"doc{d}"
        names += [f"{base}; part {p:03d}" for p in range(rng.choice((1, 1, 1, 2, 3)))]
    tokens = {name: rng.choice((0, 3, 8, 12, 18, 25)) if rng.random() < 0.1 else rng.randint(4, 25)
              for name in names}
    key = {name: random_entities(rng, tokens[name]) for name in names}
    many_repeats = rng.random() < 0.06
    in_response = [name for name in names if rng.random() > 0.12] or [names[0]]  # one document at least shared
    resp = {name: perturb(rng, key[name], tokens[name], many_repeats) for name in in_response}
    if rng.random() < 0.2:  # a document the key lacks
        tokens["(extra); part 000"] = rng.randint(0, 6)
        resp["(extra); part 000"] = random_entities(rng, tokens["(extra); part 000"])
    if rng.random() < 0.65:  # pairs without a span twice on a side (coval's LEA reads them as v8.01)
        key, resp = ({name: without_repeats(entities) for name, entities in side.items()} for side in (key, resp))
    back_to_back = 0.3 if rng.random() < 0.1 else 0.0  # v8.01 reads "(12" + "3)" as "(123)"
    key_lines = [ln for name in names for ln in document_text(name, tokens[name], key[name], rng, back_to_back)]
    order = list(resp)
    rng.shuffle(order)  # the response's documents in another order
    resp_lines = [ln for name in order for ln in document_text(name, tokens[name], resp[name], rng, back_to_back)]
    return "\n".join(key_lines) + "\n", "\n".join(resp_lines) + "\n", names


# v8.01's misreadings (issue 36), one feature class each: a byte-order mark before the first
# "#begin document"; whitespace after the last TAB of token lines (split(/\t/) keeps it as the last field);
# a CRLF file with a TAB at the end of every token line (inside a document v8.01 does not strip the CR)
# a start line v8.01's /^\#\s*begin document (.*?)$/ misses; an end line only its unanchored test sees
# items only v8.01's byte regexes read (fastscore refused them): other scripts' digits, a sign, a letter, a blank
# a last document without "#end document" (v8.01 reads it to the end of the file)
# '#' lines inside documents (v8.01 reads them as token lines, their last TAB field as a coreference column)
# a token line holding "#end document" inside a document (v8.01 ends the document there: fewer tokens than written)
QUIRKS = ("bom", "blank_last_field", "crlf_blank_last_field", "unseen_begin", "unanchored_end", "odd_items",
          "unterminated_last", "comment_inside", "early_token_end")


def with_quirk(rng: random.Random, text: str, quirk: str) -> str:
    """``text`` (a key or a response) with one of QUIRKS."""
    if quirk == "bom":
        return "\ufeff" + text
    token_line = lambda line: bool(line) and not line.startswith("#")
    if quirk == "blank_last_field":  # on every token line, or on some
        tail, share = rng.choice(("\t ", "\t\x0b", "\t\x0c", "\t \t")), rng.choice((0.1, 0.3, 1.0))
        return "\n".join(line + tail if token_line(line) and rng.random() < share else line
                         for line in text.split("\n"))
    if quirk == "unseen_begin":  # one document's start
        starts = [m.start() for m in re.finditer(r"(?m)^#begin document ", text)]
        at = rng.choice(starts)
        name = text[at:].split("\n", 1)[0][len("#begin document "):]
        start = rng.choice(("#begin document", f"  #begin document {name}", f"#begin  document {name}",
                            f"#BEGIN DOCUMENT {name}"))
        return text[:at] + start + text[at:].split("\n", 1)[1].join(("\n", ""))
    if quirk == "unanchored_end":  # one document's end
        ends = [m.start() for m in re.finditer(r"(?m)^#end document$", text)]
        at = rng.choice(ends)
        return text[:at] + rng.choice(("  ", "\t", "end: ")) + text[at:]
    if quirk == "unterminated_last":
        return text[:text.rindex("#end document")]
    if quirk == "comment_inside":  # after some token lines
        comments = ("# a note", "#", "# see (1) here", "#\tx\t(2)", "# a note", "#", "# (3")  # "(3": v8.01 stops
        return "\n".join(line + "\n" + rng.choice(comments) if token_line(line) and rng.random() < 0.08 else line
                          for line in text.split("\n"))
    if quirk == "early_token_end":  # one token line, in its last column or another
        lines = text.split("\n")
        tokens = [k for k, line in enumerate(lines) if token_line(line)]
        if not tokens:  # (documents without tokens: nothing to end early)
            return text
        k = rng.choice(tokens)
        head, _, column = lines[k].rpartition("\t")
        lines[k] = rng.choice((f"{head}\t{column} #end document", f"{head} #end document\t{column}"))
        return "\n".join(lines)
    if quirk == "odd_items":  # in some token lines' last column
        def odd(line: str) -> str:
            head, _, column = line.rpartition("\t")
            column = rng.choice((f"(\u0661)", "(\uff12)", f"{column}|(x1", f"{column} |(9)", re.sub(r"\((\d)", r"( \1", column),
                                 re.sub(r"(\d+)\)", r"e\1)", column), re.sub(r"\((\d+)\)", r"(-\1)", column)))
            return f"{head}\t{column}"
        return "\n".join(odd(line) if token_line(line) and rng.random() < 0.2 else line for line in text.split("\n"))
    return "\r\n".join(line + "\t" if token_line(line) else line for line in text.split("\n"))


def make_quirk_case(rng: random.Random, quirk: str) -> tuple[str, str, list[str]]:
    key_text, resp_text, names = make_case(rng)
    if rng.random() < 0.5:
        return with_quirk(rng, key_text, quirk), resp_text, names
    return key_text, with_quirk(rng, resp_text, quirk), names


# ---- running the reference scorers ---------------------------------------------------------------

def run_perl(scorer: Path, args: list[str], hash_seed: int = 0) -> dict:
    env = dict(os.environ, PERL_HASH_SEED=str(hash_seed), PERL_PERTURB_KEYS="0")
    proc = subprocess.run(["perl", str(scorer), *args], capture_output=True, text=True, cwd=scorer.parent, env=env)
    return {"rc": proc.returncode, "stdout": proc.stdout.split("\n", 1)[-1],  # without the version line (a path)
            "stderr": proc.stderr.strip()}


def totals_sections(stdout: str) -> list[str]:
    """Every TOTALS section of a report (one per metric), as text."""
    return [part.split("\n\n", 1)[0] if "METRIC" in part else part
            for part in stdout.split("====== TOTALS =======\n")[1:]]


def coval_lea(coval_dir: Path, key_text: str, resp_text: str):
    """coval's LEA counts [recall num, den, precision num, den], or None where coval would not read
    the pair as v8.01 does."""
    sys.path.insert(0, str(coval_dir.parent))
    from coval.conll import reader
    from coval.eval import evaluator

    folder = Path(tempfile.mkdtemp())
    paths = []
    # coval crashes on key documents missing from the response; v8.01 scores them as empty documents
    for block in re.findall(r"(?ms)^#begin document .*?^#end document$", key_text):
        if block.split("\n", 1)[0] + "\n" not in resp_text:  # its tokens without mentions
            resp_text += re.sub(r"(?m)\t[^\t\n]*$", "\t-", block) + "\n"
    for side, text in (("key", key_text), ("response", resp_text)):
        path = folder / side
        path.write_text(coval_form(text))
        paths.append(str(path))
    infos = reader.get_coref_infos(paths[0], paths[1], False, False, True, False)
    for key_clusters, sys_clusters, _, _ in infos.values():
        for clusters in (key_clusters, sys_clusters):
            mentions = [m for c in clusters for m in c]
            if len(mentions) != len(set(mentions)):
                return None  # repeated spans: coval and v8.01 order and drop them differently
    ev = evaluator.Evaluator(evaluator.lea)
    for doc in infos:
        ev.update(infos[doc])
    p_num, p_den, r_num, r_den = ev.get_counts()
    return [r_num, r_den, p_num, p_den]


def coval_form(text: str) -> str:
    """The mentions v8.01 reads, in a form coval reads the same way: one item per '|', labels renamed
    (coval parses them with int(), merging "07" and "7"), no split antecedents, no sentence breaks
    (coval closes mentions at them), empty documents dropped (coval skips their lines)."""

    names: dict[str, str] = {}
    lines, doc = [], []
    for line in text.splitlines():
        if line.startswith("#begin"):
            doc = [line]
        elif line.startswith("#end"):
            if len(doc) > 1:
                lines += doc + [line]
        elif line:
            cols = line.split("\t")
            items = v801_items(cols[-1])
            column = "|".join(re.sub(r"\d+", lambda m: names.setdefault(m.group(0), str(1000 + len(names))), it)
                              for it in items) or "-"
            doc.append("\t".join(cols[:-1] + [column]))
    return "\n".join(lines) + "\n"


def v801_items(column: str) -> list[str]:
    """The items v8.01 takes from a coreference column: split antecedents ``(N+D)`` removed, then one-token
    mentions, openings and closings, each pattern searched again from the start after every removal."""

    items = []
    for pattern, form in ((r"\((\d+\+\d)\)", None), (r"\((\d+)\)", "({})"), (r"\((\d+)", "({}"), (r"(\d+)\)", "{})")):
        while (m := re.search(pattern, column)) is not None:
            column = column[:m.start()] + column[m.end():]
            if form is not None:
                items.append(form.format(m.group(1)))
    return items


def make_record(rng: random.Random, scorer: Path, coval: Path | None, folder: Path, quirk: str | None = None) -> dict:
    key_text, resp_text, names = make_case(rng) if quirk is None else make_quirk_case(rng, quirk)
    key, resp = folder / "key", folder / "response"
    key.write_text(key_text)
    resp.write_text(resp_text)
    several = len(names) > 1
    runs = {}
    for metric in RUNS:
        first = run_perl(scorer, [metric, str(key), str(resp), "none"])
        variants = [totals_sections(first["stdout"])]
        for seed in HASH_SEEDS[1:] if several and first["rc"] == 0 else ():
            other = totals_sections(run_perl(scorer, [metric, str(key), str(resp), "none"], seed)["stdout"])
            if other not in variants:
                variants.append(other)
        first["totals"] = variants  # every TOTALS reading seen under the hash seeds
        runs[metric] = first
    doc = rng.choice(names)
    runs["doc"] = run_perl(scorer, ["all", str(key), str(resp), doc])
    record = {"key": key_text, "response": resp_text, "doc": doc, "runs": runs}
    if quirk is not None:
        record["quirk"] = quirk
    scored = runs["muc"]["rc"] == 0 and "TOTALS" in runs["muc"]["stdout"]
    if coval is not None and scored:
        lea = coval_lea(coval, key_text, resp_text)
        if lea is not None:
            record["coval_lea"] = lea
    return record


def build(scorer: Path, coval: Path | None, cases: int, seed: int) -> bytes:
    rng = random.Random(seed)
    folder = Path(tempfile.mkdtemp())
    data = {"generator": f"scripts/make_conll_diff.py --cases {cases} --seed {seed}",
            "scorer": "CoNLL reference scorer v8.01, PERL_HASH_SEED 0 (and 1-3: every TOTALS reading seen)",
            "cases": {f"case-{n:03d}": make_record(rng, scorer, coval, folder) for n in range(cases)}}
    return gzipped_json(data, indent=0)


def build_quirks(scorer: Path, cases: int, seed: int) -> bytes:
    """``cases`` pairs per class of QUIRKS (coval, which reads lines otherwise, is not run)."""
    rng = random.Random(seed)
    folder = Path(tempfile.mkdtemp())
    data = {"generator": f"scripts/make_conll_diff.py --quirks --cases {cases} --seed {seed}",
            "scorer": "CoNLL reference scorer v8.01, PERL_HASH_SEED 0 (and 1-3: every TOTALS reading seen)",
            "cases": {f"{quirk}-{n:03d}": make_record(rng, scorer, None, folder, quirk)
                      for quirk in QUIRKS for n in range(cases)}}
    return gzipped_json(data, indent=0)


def main() -> None:
    ap = parser(__doc__, cases=360, seed=24)
    ap.add_argument("--perl-scorer", type=Path, required=True, help="path of v8.01 scorer.pl")
    ap.add_argument("--coval", type=Path, help="path of coval's 'coval' package folder (for LEA)")
    ap.add_argument("--quirks", action="store_true", help="write quirks.json.gz: --cases pairs per class of v8.01's "
                    "misreadings (issue 36)")
    args = ap.parse_args()
    if args.quirks:
        data, out = build_quirks(args.perl_scorer.resolve(), args.cases, args.seed), OUT_QUIRKS
    else:
        data, out = build(args.perl_scorer.resolve(), args.coval, args.cases, args.seed), OUT
    store_or_check(out, data, args.check)
    print(f"{args.cases} cases written to {out}")


if __name__ == "__main__":
    main()
