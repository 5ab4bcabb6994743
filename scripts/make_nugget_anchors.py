#!/usr/bin/env python3
"""Generate random TAC KBP event nugget cases and record what EvmEval prints for them.

Writes ``tests/data/nugget_anchors/case-NNN/`` (gold and system TBF files in
token-id and character-span form, token tables, sometimes a type whitelist)
and ``tests/data/nugget_anchors/expected.json`` with, per case and run, the
scorer, its arguments and the report it printed (log lines removed).

Runs both official versions under Python 2.7 (EvmEval is Python 2 code):
scorer_v1.7.1 (EvmEval commit 1bd96c9, scorer_v1.7.py, TAC KBP 2015 rules)
and scorer_v1.8 (EvmEval head, TAC KBP 2016/2017).  Fetch EvmEval yourself
(hunterhector/EvmEval) and extract the v1.7 scorer with its bundled CoNLL
scorer (``git archive 1bd96c9 scorer_v1.7.py reference-coreference-scorers-8.01``):

    python scripts/make_nugget_anchors.py --python2 PY27 --v18 DIR/scorer_v1.8.py --v171 DIR/scorer_v1.7.py
        [--cases 60] [--seed 4242]
"""
from __future__ import annotations

import argparse
import json
import random
import shutil
import subprocess
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "nugget_anchors"
WORDS = ["the", "The", "a", "an", "I", "i", "he", "She", "when", "who", "attack", "fired", "died", "moved",
         "elected", "war", "meeting", "paid", "bought", "arrest", "left", "visit", "trial", "said", "bombing"]
TYPES = ["Conflict_Attack", "conflict-attack", "Life_Die", "Movement_Transport-Person", "Personnel_Elect",
         "Transaction.Transfer-Money", "Justice_Arrest-Jail", "Contact Meet"]
REALIS = ["Actual", "Generic", "Other", "actual"]
# v1.8 (TAC KBP 2016/2017) and v1.7.1 (2015) runs; MODE token -> -t DIR; the fastscore options alongside
RUNS = [
    ("v18", "char", ["-c", "COREF"], ["--preset", "kbp2016", "--coref"]),
    ("v18", "token", ["-t", "TOKENS", "-c", "COREF"], ["--preset", "kbp2017", "--tokens", "TOKENS", "--coref"]),
    ("v171", "token", ["-t", "TOKENS", "-c", "COREF"], ["--preset", "kbp2015", "--tokens", "TOKENS", "--coref"]),
    ("v171", "char", ["--eval_mode", "char", "-c", "COREF"], ["--preset", "kbp2015", "--char-spans", "--coref"]),
]
MAPPINGS = ["span", "type", "realis", "type+realis"]


def make_words(rng: random.Random, n_tok: int):
    """Random words and their character offsets (one space between words)."""
    words = [rng.choice(WORDS) for _ in range(n_tok)]
    offsets, pos = [], 0
    for w in words:
        offsets.append((pos, pos + len(w)))
        pos += len(w) + 1
    return words, offsets


def make_doc(rng: random.Random, doc_id: str, sizes=(0, 1, 2, 4, 6, 8)):
    n_tok = rng.randint(8, 40)
    words, offsets = make_words(rng, n_tok)
    gold = []
    for k in range(rng.choice(sizes)):
        s = rng.randrange(n_tok)
        span = list(range(s, min(n_tok, s + rng.choice((1, 1, 1, 2, 3)))))
        if gold and rng.random() < 0.15:  # double annotation: the same span, another type
            span = list(gold[rng.randrange(len(gold))][0])
        realis = rng.choice(REALIS + (["NOT_ANNOTATED"] if rng.random() < 0.2 else []))
        gold.append((span, rng.choice(TYPES), realis))
    system = []
    for span, typ, realis in gold:
        r = rng.random()
        if r < 0.15:
            continue
        if r < 0.35:
            span = [t for t in range(max(0, span[0] - 1), min(n_tok, span[-1] + rng.choice((1, 2))))]
        if rng.random() < 0.25:
            typ = rng.choice(TYPES)
        if rng.random() < 0.25 or realis == "NOT_ANNOTATED":
            realis = rng.choice(REALIS)
        system.append((span, typ, realis))
    for _ in range(rng.randint(0, 3)):
        s = rng.randrange(n_tok)
        system.append(([s], rng.choice(TYPES), rng.choice(REALIS)))
    rng.shuffle(system)
    return {"id": doc_id, "words": words, "offsets": offsets, "gold": gold, "system": system}


def clusters(rng: random.Random, n: int) -> list[list[int]]:
    idx = list(range(n))
    rng.shuffle(idx)
    out = []
    while len(idx) >= 2 and rng.random() < 0.7:
        size = min(len(idx), rng.choice((2, 2, 3, 4)))
        out.append(sorted(idx[:size]))
        idx = idx[size:]
    return out


def write_tbf(path: Path, docs, side: str, mode: str, corefs, run: str, extra=None):
    """One side of the documents as TBF; ``extra[doc id][side]``: more relation lines."""
    lines = []
    for doc in docs:
        mentions = doc[side]
        lines.append(f"#BeginOfDocument {doc['id']}")
        for k, (span, typ, realis) in enumerate(mentions):
            if mode == "token":
                field = ",".join(f"t{t}" for t in span)
            else:  # contiguous tokens as one range, sometimes split in two ranges
                if len(span) > 1 and (k % 3 == 0):
                    field = ";".join(f"{doc['offsets'][t][0]},{doc['offsets'][t][1]}" for t in span)
                else:
                    field = f"{doc['offsets'][span[0]][0]},{doc['offsets'][span[-1]][1]}"
            text = " ".join(doc["words"][t] for t in span)
            lines.append(f"{run}\t{doc['id']}\tE{k + 1}\t{field}\t{text}\t{typ}\t{realis}")
        for c, members in enumerate(corefs[doc["id"]][side]):
            lines.append(f"@Coreference\tR{c + 1}\t" + ",".join(f"E{m + 1}" for m in members))
        lines += (extra or {}).get(doc["id"], {}).get(side, [])
        lines.append("#EndOfDocument")
    path.write_text("\n".join(lines) + "\n")


def write_case(case: Path, docs, sys_docs, corefs, extra=None) -> None:
    """A case's token tables and its gold and system TBF files, with token ids and with character spans."""
    for doc in docs:
        rows = [f"t{t}\t{w}\t{b}\t{e}" for t, (w, (b, e)) in enumerate(zip(doc["words"], doc["offsets"]))]
        (case / "tkn" / f"{doc['id']}.tab").write_text("\n".join(rows) + "\n")
    for mode in ("token", "char"):
        write_tbf(case / f"gold.{mode}.tbf", docs, "gold", mode, corefs, "gold_run", extra)
        write_tbf(case / f"system.{mode}.tbf", sys_docs, "system", mode, corefs, "sysA", extra)


def add_whitelist(rng: random.Random, case: Path, run: int, evm_args: list[str], our_args: list[str]) -> None:
    """A type whitelist file for one run (four random types), passed to both scorers."""
    name = f"whitelist-{run}.txt"
    (case / name).write_text("\n".join(rng.sample(TYPES, 4)) + "\n")
    evm_args += ["-wl", str(case / name)]
    our_args += ["--type-whitelist", name]


def finish(out: Path, expected: dict) -> None:
    (out / "expected.json").write_text(json.dumps(expected, indent=1) + "\n")
    failed = sum(r["exit"] != 0 for runs in expected["cases"].values() for r in runs)
    print(f"{len(expected['cases'])} cases written to {out}; {failed} runs exited non-zero")


def report(stdout: str) -> str:
    return "".join(ln for ln in stdout.splitlines(keepends=True) if not ln.startswith("["))


def start(doc: str, out: Path, cases: int, seed: int, v171: bool = False) -> tuple[argparse.Namespace, random.Random]:
    """The anchor generators' command line, their seeded generator and an emptied output folder."""
    ap = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--python2", required=True, help="a Python 2.7 interpreter")
    ap.add_argument("--v18", type=Path, required=True, help="EvmEval scorer_v1.8.py")
    if v171:
        ap.add_argument("--v171", type=Path, required=True, help="EvmEval scorer_v1.7.py at commit 1bd96c9")
    ap.add_argument("--cases", type=int, default=cases)
    ap.add_argument("--seed", type=int, default=seed)
    args = ap.parse_args()
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    return args, random.Random(args.seed)


def main() -> None:
    args, rng = start(__doc__, OUT, 60, 4242, v171=True)
    scorers = {"v18": args.v18.resolve(), "v171": args.v171.resolve()}
    expected = {"generator": f"scripts/make_nugget_anchors.py --cases {args.cases} --seed {args.seed}",
                "scorers": {"v18": "EvmEval scorer_v1.8.py (head)", "v171": "EvmEval scorer_v1.7.py @1bd96c9"},
                "cases": {}}
    for n in range(args.cases):
        case = OUT / f"case-{n:03d}"
        (case / "tkn").mkdir(parents=True)
        docs = [make_doc(rng, f"doc_{rng.randint(0, 99):02d}_{d}") for d in range(rng.randint(1, 4))]
        corefs = {d["id"]: {"gold": clusters(rng, len(d["gold"])), "system": clusters(rng, len(d["system"]))}
                  for d in docs}
        sys_docs = [d for d in docs if rng.random() > 0.1] or docs[:1]
        write_case(case, docs, sys_docs, corefs)
        runs = []
        for version, mode, evm_args, our_args in RUNS:
            evm_args, our_args = list(evm_args), list(our_args)
            if rng.random() < 0.35:
                m = rng.randrange(4)
                evm_args += ["-m", str(m)]
                our_args += ["--coref-mapping", MAPPINGS[m]]
            if rng.random() < 0.25:
                evm_args += ["-ct", "0.5"]
                our_args += ["--coref-threshold", "0.5"]
            if version == "v18" and rng.random() < 0.2:
                add_whitelist(rng, case, len(runs), evm_args, our_args)
            cmd = [args.python2, str(scorers[version]), "-g", str(case / f"gold.{mode}.tbf"),
                   "-s", str(case / f"system.{mode}.tbf")]
            cmd += [str(case / "tkn") if a == "TOKENS" else str(case / "coref.out") if a == "COREF" else a
                    for a in evm_args]
            proc = subprocess.run(cmd, capture_output=True, text=True, cwd=scorers[version].parent)
            runs.append({"scorer": version, "mode": mode, "evmeval_args": evm_args, "args": our_args,
                         "exit": proc.returncode, "report": report(proc.stdout)})
        for p in case.glob("coref.out*"):
            p.unlink()
        expected["cases"][case.name] = runs
    finish(OUT, expected)


if __name__ == "__main__":
    main()
