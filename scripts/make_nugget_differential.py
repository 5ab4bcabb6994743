#!/usr/bin/env python3
"""Differential testing against EvmEval: seeded TBF pairs with the inputs the anchor cases lack, and
what scorer_v1.8 and scorer_v1.7.1 print for them.

Each case is made from its own seed (``case_inputs(seed, n)``), so a test regenerates any case alone.
Beside what ``make_nugget_anchors.make_doc`` draws (double annotation, invisible words, NOT_ANNOTATED,
shifted spans, missing and invented mentions) a case holds, at random: mentions written twice (same
span, type and realis, another id), the same span again with another type or realis, a mention id
used twice in a document, @Coreference clusters naming a mention the document lacks or sharing a
mention with another cluster, empty documents on either side, documents on one side only, and on
some v1.8 runs @After/@Subevent links (``-a``), with or without validation.

Writes ``tests/data/nugget_differential/expected.json.gz`` (gzip without a time stamp, so the bytes
are reproducible): per case the SHA-256 of every input file and, per run, EvmEval's arguments, the
fastscore options alongside, the exit code, the report (log lines removed) and EvmEval's first error.

    python scripts/make_nugget_differential.py --python2 PY27 --v18 DIR/scorer_v1.8.py
        --v171 DIR/scorer_v1.7.py [--cases 200] [--seed 2424] [--check] [--quirks | --structure]

``--quirks`` writes ``expected_quirks.json.gz`` instead: the cases of ``quirk_inputs`` (issue 36: a byte-order
mark, a whitelist with a blank line or empty), run with ``--cases 60``; ``--structure`` (``--cases 40``)
``expected_structure.json.gz``: the cases of ``structure_inputs`` (issue 36: lines outside a document, a stray or
missing ``#EndOfDocument``, a 6-field line in a system-only document, an empty document id or one holding
``#end document``).

``--check`` runs everything again and compares the bytes with the stored file (EvmEval's bundled
v8.01 adds documents in Perl's hash order: a CoNLL figure on a truncation boundary can move by 0.01
between runs, as docs/agreement.md says).
"""
from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import random
import re
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from expectations import gzipped_json, parser, store_or_check  # noqa: E402
from make_nugget_anchors import MAPPINGS, RUNS, TYPES, REALIS, clusters, make_doc  # noqa: E402
from make_sequencing_anchors import first_error, ordered_links, tangled_links  # noqa: E402

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "nugget_differential"
FEATURES = ("duplicate", "retyped", "repeated_id", "missing_member", "shared_member", "empty", "one_side")


def _edit_side(rng: random.Random, mentions: list, features: set[str]) -> list:
    """One side's mentions with copies: the same mention twice, the same span with another type or realis."""
    out = list(mentions)
    if out and "duplicate" in features and rng.random() < 0.5:
        out.insert(rng.randrange(len(out) + 1), out[rng.randrange(len(out))])
    if out and "retyped" in features and rng.random() < 0.5:
        span, typ, realis = out[rng.randrange(len(out))]
        if rng.random() < 0.5:
            typ = rng.choice([t for t in TYPES if t != typ])
        else:
            realis = rng.choice([r for r in REALIS + ["NOT_ANNOTATED"] if r != realis])
        out.insert(rng.randrange(len(out) + 1), (span, typ, realis))
    return out


def _ids(rng: random.Random, n: int, features: set[str]) -> list[str]:
    ids = [f"E{k + 1}" for k in range(n)]
    if n >= 2 and "repeated_id" in features and rng.random() < 0.5:
        i, j = rng.sample(range(n), 2)
        ids[j] = ids[i]
    return ids


def _clusters(rng: random.Random, ids: list[str], features: set[str]) -> list[list[str]]:
    """Coreference clusters of mention ids, sometimes naming an absent id or sharing a member."""
    out = [[ids[k] for k in c] for c in clusters(rng, len(ids))]
    if "missing_member" in features and rng.random() < 0.5:
        absent = f"E{len(ids) + rng.randint(1, 9)}"
        if out and rng.random() < 0.7:
            out[rng.randrange(len(out))].append(absent)
        elif ids:
            out.append([rng.choice(ids), absent])
        else:
            out.append([absent, f"E{len(ids) + 10}"])
    if "shared_member" in features and len(out) >= 2 and rng.random() < 0.5:
        a, b = rng.sample(range(len(out)), 2)
        out[b].append(rng.choice(out[a]))
    return out


def _links(rng: random.Random, ids: list[str], corefs: list[list[str]], tangled: bool) -> list[str]:
    """@After / @Subevent lines between the mentions, sometimes naming an absent mention."""
    index = {m: k for k, m in enumerate(ids)}
    groups = [[index[m] for m in c if m in index] for c in corefs]
    drawn = tangled_links(rng, len(ids)) if tangled else ordered_links(rng, len(ids), [g for g in groups if g])
    out = [(name, ids[a], ids[b]) for name, a, b in drawn]
    if out and rng.random() < 0.1:
        name, a, _ = out[rng.randrange(len(out))]
        out.append((name, a, f"E{len(ids) + 20}"))
    return [f"@{name}\t{name[0]}{k + 1}\t{a},{b}" for k, (name, a, b) in enumerate(out)]


def _field(doc: dict, span: list[int], mode: str, k: int) -> str:
    if mode == "token":
        return ",".join(f"t{t}" for t in span)
    if len(span) > 1 and k % 3 == 0:  # contiguous tokens as separate ranges
        return ";".join(f"{doc['offsets'][t][0]},{doc['offsets'][t][1]}" for t in span)
    return f"{doc['offsets'][span[0]][0]},{doc['offsets'][span[-1]][1]}"


def _tbf(docs: list[dict], side: str, mode: str, run: str) -> str:
    lines = []
    for doc in docs:
        lines.append(f"#BeginOfDocument {doc['id']}")
        for k, ((span, typ, realis), mid) in enumerate(zip(doc[side], doc[side + "_ids"])):
            text = " ".join(doc["words"][t] for t in span)
            lines.append(f"{run}\t{doc['id']}\t{mid}\t{_field(doc, span, mode, k)}\t{text}\t{typ}\t{realis}")
        lines += [f"@Coreference\tR{c + 1}\t" + ",".join(m) for c, m in enumerate(doc[side + "_corefs"])]
        lines += doc.get(side + "_links", [])
        lines.append("#EndOfDocument")
    return "\n".join(lines) + "\n"


def case_features(rng: random.Random) -> set[str]:
    return {f for f in FEATURES if rng.random() < (0.15 if f in ("repeated_id", "shared_member") else 0.5)}


def case_inputs(seed: int, n: int) -> tuple[dict[str, str], list[dict]]:
    """Case ``n``'s input files (name -> text) and its runs (EvmEval's and fastscore's arguments)."""
    rng = random.Random(seed * 100003 + n)
    features = case_features(rng)
    tangled = rng.random() < 0.4
    docs = [make_doc(rng, f"doc_{rng.randint(0, 99):02d}_{d}") for d in range(rng.randint(1, 4))]
    for d in docs:
        for side in ("gold", "system"):
            if "empty" in features and rng.random() < 0.25:
                d[side] = []
            d[side] = _edit_side(rng, d[side], features)
            d[side + "_ids"] = _ids(rng, len(d[side]), features)
            d[side + "_corefs"] = _clusters(rng, d[side + "_ids"], features)
            d[side + "_links"] = _links(rng, d[side + "_ids"], d[side + "_corefs"], tangled)
    gold_docs, sys_docs = list(docs), [d for d in docs if rng.random() > 0.15]
    if "one_side" in features and len(docs) > 1:
        extra = docs[-1]
        gold_docs.remove(extra)
        if extra not in sys_docs:
            sys_docs.append(extra)
    if not any(d in gold_docs for d in sys_docs):  # a system sharing no document is refused (docs/nuggets.md)
        sys_docs.append(gold_docs[0])
    files = {}
    for d in docs:
        rows = [f"t{t}\t{w}\t{b}\t{e}" for t, (w, (b, e)) in enumerate(zip(d["words"], d["offsets"]))]
        files[f"tkn/{d['id']}.tab"] = "\n".join(rows) + "\n"
    for mode in ("token", "char"):
        files[f"gold.{mode}.tbf"] = _tbf(gold_docs, "gold", mode, "gold_run")
        files[f"system.{mode}.tbf"] = _tbf(sys_docs, "system", mode, "sysA")
    runs = []
    for version, mode, evm_args, our_args in RUNS:
        evm_args, our_args = list(evm_args), list(our_args)
        if rng.random() < 0.25:  # no coreference: undefined and shared members are only warned
            k = evm_args.index("-c")
            del evm_args[k:k + 2]
            our_args.remove("--coref")
        if version == "v18" and rng.random() < 0.35:
            evm_args += ["-a", "SEQ"]
            our_args.append("--sequencing")
            if tangled or rng.random() < 0.3:
                evm_args.append("-nv")
                our_args.append("--no-script-validation")
        mapped = "--coref" in our_args or "--sequencing" in our_args  # fastscore refuses a mapping unused
        if mapped and rng.random() < 0.35:
            m = rng.randrange(4)
            evm_args += ["-m", str(m)]
            our_args += ["--coref-mapping", MAPPINGS[m]]
        if mapped and rng.random() < 0.2:
            evm_args += ["-ct", "0.5"]
            our_args += ["--coref-threshold", "0.5"]
        if version == "v18" and rng.random() < 0.15:
            name = f"whitelist-{len(runs)}.txt"
            files[name] = "\n".join(rng.sample(TYPES, 4)) + "\n"
            evm_args += ["-wl", name]
            our_args += ["--type-whitelist", name]
        runs.append({"scorer": version, "mode": mode, "evmeval_args": evm_args, "args": our_args})
    return files, runs


QUIRKS = ("bom_gold", "bom_system", "whitelist_blank", "whitelist_empty",  # issue 36: how EvmEval reads a file
          "blank_doc_id", "blank_line", "blank_edge", "table_blank", "table_repeat",
          "span_underscore", "empty_member")
KBP2015 = {"the", "a", "an", "you", "he", "she", "we", "my", "your", "her", "our", "who", "where", "when"}
BLANKS = ("\u00a0", "\u2003", "\u3000", "\x1c")  # white space to Python 3's strip(), not to Python 2's


def _token_table(text: str, rng: random.Random, quirks: list[str]) -> str:
    """A token table as scorer_v1.7.1's ``read_token_ids`` reads it its own way: an invisible word with Unicode
    white space after it (visible to it), an id on two lines, one of them an invisible word (invisible to it)."""
    out = []
    for line in text.split("\n"):
        fields = line.split("\t")
        if "table_blank" in quirks and len(fields) == 4 and fields[1].lower() in KBP2015 and rng.random() < 0.5:
            line = "\t".join([fields[0], fields[1] + rng.choice(BLANKS[:3])] + fields[2:])
        if "table_repeat" in quirks and len(fields) == 4 and rng.random() < 0.2:
            other = "\t".join([fields[0], rng.choice(["the", "an", "car"])] + fields[2:])
            out += [other, line] if rng.random() < 0.5 else [line, other]
            continue
        out.append(line)
    return "\n".join(out)


def _unicode_blanks(text: str, seed: float, quirks: list[str]) -> str:
    """A TBF text with Unicode white space EvmEval keeps: after a document id, as a line of its own, at the end
    of a mention or relation line; relations with an empty member (``E1,E2,``, ``,E3``) (the same draws for the
    token and the character files)."""
    rng = random.Random(seed)
    out = []
    for line in text.split("\n"):
        if "blank_doc_id" in quirks and line.startswith("#BeginOfDocument") and rng.random() < 0.4:
            line += rng.choice(BLANKS)
        elif "blank_edge" in quirks and line and line[0] != "#" and rng.random() < 0.15:
            line += rng.choice(BLANKS)
        if "empty_member" in quirks and line.startswith("@") and rng.random() < 0.3:  # EvmEval: no such mention
            name, rid, members = line.split("\t")
            line = f"{name}\t{rid}\t{members}," if name == "@Coreference" else f"{name}\t{rid}\t,{members}"
        out.append(line)
        if "blank_line" in quirks and line.startswith("#BeginOfDocument") and rng.random() < 0.3:
            out.append(rng.choice(BLANKS))
    return "\n".join(out)


def quirk_inputs(seed: int, n: int) -> tuple[dict[str, str], list[dict], list[str]]:
    """Case ``n`` (``case_inputs``) with inputs EvmEval reads its own way, drawn from a stream of their own
    (the plain cases stay as stored): a byte-order mark starting the gold or the system files, Unicode white space
    (``_unicode_blanks``), token tables v1.7.1 reads its own way (``_token_table``), and, on v1.8 runs, a type
    whitelist with a blank line or none at all.  Also the quirks drawn."""
    files, runs = case_inputs(seed, n)
    rng = random.Random(seed * 7919 + n)
    quirks = [q for q in QUIRKS if rng.random() < 0.3] or [rng.choice(QUIRKS)]
    for side in ("gold", "system"):
        blanks = rng.random()
        for mode in ("token", "char"):
            files[f"{side}.{mode}.tbf"] = _unicode_blanks(files[f"{side}.{mode}.tbf"], blanks, quirks)
            if f"bom_{side}" in quirks:
                files[f"{side}.{mode}.tbf"] = "\ufeff" + files[f"{side}.{mode}.tbf"]
    if "span_underscore" in quirks:  # Python 2's int() refuses "4_0" (EvmEval crashes), Python 3's reads 40
        side = rng.choice(["gold", "system"])
        files[f"{side}.char.tbf"] = re.sub(r"\t(\d)(\d+),", r"\t\1_\2,", files[f"{side}.char.tbf"], count=1)
    for name in sorted(files):
        if name.startswith("tkn/"):
            files[name] = _token_table(files[name], rng, quirks)
    for k, run in enumerate(runs):
        if run["scorer"] != "v18" or "-wl" in run["evmeval_args"]:
            continue
        if "whitelist_empty" in quirks and rng.random() < 0.5:
            text = ""
        elif "whitelist_blank" in quirks:
            text = "\n".join(rng.sample(TYPES, 4) + [""] * rng.randint(1, 2) + rng.sample(TYPES, 2)) + "\n"
        else:
            continue
        name = f"whitelist-q{k}.txt"
        files[name] = text
        run["evmeval_args"] += ["-wl", name]
        run["args"] += ["--type-whitelist", name]
    return files, runs, quirks


STRUCTURE = ("end_document_id", "before_first", "stray_end", "short_system_only", "empty_id", "missing_end",
             "unterminated_last")  # issue 36: structure lines and ids EvmEval's reader or its CoNLL step reads its way
END_LINE = "#EndOfDocument"


def _structure_side(text: str, seed: float, quirks: list[str], side: str) -> str:
    """One side's TBF text with the structure quirks drawn for it (the same draws for the token and the character
    files): a mention line before the first document, a stray or missing ``#EndOfDocument``, the last one
    missing, a system-only document with a 6-field mention line."""
    rng = random.Random(seed)
    lines = text.rstrip("\n").split("\n")
    ends = [k for k, line in enumerate(lines) if line == END_LINE]
    mentions = [line for line in lines if line and line[0] not in "#@"]
    if "before_first" in quirks and mentions and rng.random() < 0.6:
        fields = rng.choice(mentions).split("\t")
        lines.insert(0, "\t".join(fields[:2] + ["E99"] + fields[3:]))
    if "stray_end" in quirks and rng.random() < 0.6:
        k = rng.choice([-1] + ends)
        lines.insert(k + 1, END_LINE)
    elif "missing_end" in quirks and len(ends) > 1 and rng.random() < 0.6:
        del lines[rng.choice(ends[:-1])]
    elif "unterminated_last" in quirks and rng.random() < 0.5:
        del lines[len(lines) - 1 - lines[::-1].index(END_LINE)]
    if "short_system_only" in quirks and side == "system":
        span = rng.choice([m.split("\t")[3] for m in mentions] or ["0,1"])
        lines += ["#BeginOfDocument doc_only", f"sysA\tdoc_only\tE1\t{span}\tx\t{rng.choice(TYPES)}", END_LINE]
    return "\n".join(lines) + "\n"


def structure_inputs(seed: int, n: int) -> tuple[dict[str, str], list[dict], list[str]]:
    """Case ``n`` (``case_inputs``) with structure EvmEval reads its own way, drawn from a stream of their own: a
    document id holding ``#end document`` (its CoNLL step's v8.01 ends the document at its first line) or empty
    (on both sides and its token table), and per side ``_structure_side``.  Also the quirks drawn."""
    files, runs = case_inputs(seed, n)
    rng = random.Random(seed * 7907 + n)
    quirks = [q for q in STRUCTURE if rng.random() < 0.3] or [rng.choice(STRUCTURE)]
    ids = sorted({_name(line) for line in files["gold.char.tbf"].split("\n") if line.startswith("#BeginOfDocument")})
    for quirk, new in (("end_document_id", "{} #end document"), ("empty_id", "")):
        if quirk in quirks:
            old = rng.choice(ids)
            ids.remove(old)
            new = new.format(old)
            for name in [k for k in files if k.endswith(".tbf")]:
                files[name] = files[name].replace(f"#BeginOfDocument {old}\n", f"#BeginOfDocument {new}\n")
            files[f"tkn/{new}.tab"] = files.pop(f"tkn/{old}.tab")
            if not ids:
                break
    for side in ("gold", "system"):
        draws = rng.random()
        for mode in ("token", "char"):
            files[f"{side}.{mode}.tbf"] = _structure_side(files[f"{side}.{mode}.tbf"], draws, quirks, side)
    return files, runs, quirks


def evmeval_documents(tbf: str) -> dict[str, list[str]]:
    """The mention lines of each document of a TBF text as EvmEval's ``read_docs_with_doc_id_and_name`` gathers
    them: until an ``#EndOfDocument``, which gives them to the last ``#BeginOfDocument``'s id (Python 2's strip:
    ASCII white space only)."""
    docs: dict[str, list[str]] = {}
    gathered: list[str] = []
    doc = ""
    for line in tbf.split("\n"):
        line = line.strip(_ASCII_BLANKS)
        if line.startswith("#BeginOfDocument"):
            doc = _name(line)
        elif line.startswith("#EndOfDocument"):
            docs[doc], gathered = gathered, []
        elif line and line[0] not in "#@":
            gathered.append(line)
    return docs


def repeated_ids(tbf: str) -> set[str]:
    """The documents of a TBF text that use a mention id twice (issue 26: the readers' checks), as EvmEval reads
    them (``evmeval_documents``)."""
    found: set[str] = set()
    for doc, lines in evmeval_documents(tbf).items():
        ids = [fields[2] for fields in (line.split("\t") for line in lines) if len(fields) >= 7]
        if len(ids) != len(set(ids)):
            found.add(doc)
    return found


def documents(tbf: str) -> set[str]:
    """The document ids of a TBF text as EvmEval reads them."""
    return set(evmeval_documents(tbf))


_ASCII_BLANKS = " \t\n\r\x0b\x0c"


def _name(begin_line: str) -> str:
    return begin_line[len("#BeginOfDocument"):].strip(_ASCII_BLANKS)


def write_inputs(folder: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)


def digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def report(stdout: str) -> str:
    """EvmEval's report without its log lines (lines end at "\\n" only: a document id may hold U+001C)."""
    lines = re.split(r"(?<=\n)", stdout)
    return "".join(ln for ln in lines if not ln.startswith("["))


def run_evmeval(python2: str, scorer: Path, folder: Path, run: dict) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        subst = {"TOKENS": str(folder / "tkn"), "COREF": str(Path(tmp) / "coref.out"), "SEQ": str(Path(tmp) / "seq")}
        cmd = [python2, str(scorer), "-g", str(folder / f"gold.{run['mode']}.tbf"),
               "-s", str(folder / f"system.{run['mode']}.tbf")]
        cmd += [subst.get(a, str(folder / a) if a.startswith("whitelist-") else a) for a in run["evmeval_args"]]
        proc = subprocess.run(cmd, capture_output=True, text=True, cwd=scorer.parent)
    error = first_error(proc).replace(str(folder), "INPUTS") if proc.returncode else ""  # no temporary path
    return {"exit": proc.returncode, "report": report(proc.stdout) if proc.returncode == 0 else "", "error": error}


def build(args: argparse.Namespace) -> bytes:
    scorers = {"v18": args.v18.resolve(), "v171": args.v171.resolve()}
    quirks = " --quirks" if args.quirks else " --structure" if args.structure else ""
    expected = {"generator": f"scripts/make_nugget_differential.py --cases {args.cases} --seed {args.seed}{quirks}",
                "seed": args.seed,
                "scorers": {"v18": "EvmEval scorer_v1.8.py (head)", "v171": "EvmEval scorer_v1.7.py @1bd96c9"},
                "cases": {}}
    for n in range(args.cases):
        files, runs = quirk_inputs(args.seed, n)[:2] if args.quirks else structure_inputs(args.seed, n)[:2] \
            if args.structure else case_inputs(args.seed, n)
        with tempfile.TemporaryDirectory() as tmp:
            write_inputs(Path(tmp), files)
            for run in runs:
                run.update(run_evmeval(args.python2, scorers[run["scorer"]], Path(tmp), run))
        expected["cases"][f"case-{n:03d}"] = {"inputs": {k: digest(v) for k, v in sorted(files.items())},
                                              "runs": runs}
    return gzipped_json(expected)


def main() -> None:
    ap = parser(__doc__, cases=200, seed=2424)
    ap.add_argument("--python2", required=True, help="a Python 2.7 interpreter")
    ap.add_argument("--v18", type=Path, required=True, help="EvmEval scorer_v1.8.py")
    ap.add_argument("--v171", type=Path, required=True, help="EvmEval scorer_v1.7.py at commit 1bd96c9")
    ap.add_argument("--quirks", action="store_true", help="the cases with inputs EvmEval reads its own way "
                    "(quirk_inputs), written to expected_quirks.json.gz")
    ap.add_argument("--structure", action="store_true", help="the cases with structure lines and document ids "
                    "EvmEval reads its own way (structure_inputs), written to expected_structure.json.gz")
    args = ap.parse_args()
    data = build(args)
    target = OUT / ("expected_quirks.json.gz" if args.quirks else "expected_structure.json.gz" if args.structure
                    else "expected.json.gz")
    store_or_check(target, data, args.check)
    cases = json.loads(gzip.decompress(data))["cases"]
    failed = sum(r["exit"] != 0 for c in cases.values() for r in c["runs"])
    print(f"{len(cases)} cases ({sum(len(c['runs']) for c in cases.values())} runs) written to {target}; "
          f"{failed} runs exited non-zero")


if __name__ == "__main__":
    main()
