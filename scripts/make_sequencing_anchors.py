#!/usr/bin/env python3
"""Generate random event sequencing cases and record what EvmEval scorer_v1.8 ``-a`` prints.

Writes ``tests/data/sequencing_anchors/case-NNN/`` (gold and system TBF files
with @Coreference, @After and @Subevent lines, in token-id and character-span
form, token tables, sometimes a type whitelist) and
``tests/data/sequencing_anchors/expected.json``: per case and run, EvmEval's
arguments, the matching fastscore options, the exit code, the report (log
lines removed) and a SHA-256 digest of the TimeML folder ``-a`` wrote.

Links are drawn two ways: "ordered" cases follow a random order of the
coreference clusters (valid event sequences, with some copied, reversed or
added system links, so some runs fail EvmEval's validation), "tangled" cases
are random (cycles, links both ways, contradictions; scored with ``-nv``).

    python scripts/make_sequencing_anchors.py --python2 PY27 --v18 DIR/scorer_v1.8.py [--cases 120] [--seed 77]
"""
from __future__ import annotations

import hashlib
import random
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from make_nugget_anchors import add_whitelist, clusters, finish, make_doc, report, start, write_case  # noqa: E402

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "sequencing_anchors"
NAMES = ("After", "Subevent")
MAPPINGS = ["span", "type", "realis", "type+realis"]


def groups(n: int, clusters_: list[list[int]]) -> list[list[int]]:
    """Coreference clusters plus singletons: the nodes the links are drawn between."""
    inside = {m for c in clusters_ for m in c}
    return [list(c) for c in clusters_] + [[m] for m in range(n) if m not in inside]


def ordered_links(rng: random.Random, n: int, clusters_) -> list[tuple[str, int, int]]:
    """Links that follow one random order of the clusters per link type."""
    if n < 2:
        return []
    out = []
    for name in NAMES:
        order = groups(n, clusters_)
        rng.shuffle(order)
        for _ in range(rng.randint(0, n + 2)):
            i, j = sorted(rng.sample(range(len(order)), 2)) if len(order) > 1 else (0, 0)
            if i == j:
                continue
            out.append((name, rng.choice(order[i]), rng.choice(order[j])))
        if rng.random() < 0.1 and clusters_:  # a link inside one cluster: ignored with a warning
            c = rng.choice(clusters_)
            out.append((name, c[0], c[-1]))
    return out


def tangled_links(rng: random.Random, n: int) -> list[tuple[str, int, int]]:
    if n < 2:
        return []
    subevent = rng.random()  # the share of Subevent links varies from case to case
    return [("Subevent" if rng.random() < subevent else "After", *rng.sample(range(n), 2))
            for _ in range(rng.randint(1, 2 * n))]


def system_links(rng, gold_links, doc, sys_clusters, tangled: bool):
    """Some gold links carried over to the system mentions with the same span, some reversed, some new."""
    same = {}
    for k, (span, _, _) in enumerate(doc["system"]):
        same.setdefault(tuple(span), k)
    out = []
    for name, a, b in gold_links:
        sa, sb = same.get(tuple(doc["gold"][a][0])), same.get(tuple(doc["gold"][b][0]))
        if sa is None or sb is None or sa == sb or rng.random() < 0.25:
            continue
        if rng.random() < (0.3 if tangled else 0.02):
            sa, sb = sb, sa
        if rng.random() < 0.1:
            name = "Subevent" if name == "After" else "After"
        out.append((name, sa, sb))
    n = len(doc["system"])
    extra = tangled_links(rng, n) if tangled else ordered_links(rng, n, sys_clusters)
    out += extra[:rng.randint(0, len(extra))]
    rng.shuffle(out)
    return out


def lines(links) -> list[str]:
    return [f"@{name}\t{name[0]}{k + 1}\tE{a + 1},E{b + 1}" for k, (name, a, b) in enumerate(links)]


def folder_digest(folder: Path) -> str:
    """SHA-256 over the relative paths and bytes of every file below ``folder`` (sorted by path)."""
    h = hashlib.sha256()
    for p in sorted(q for q in folder.rglob("*") if q.is_file()):
        h.update(str(p.relative_to(folder)).encode() + b"\0" + p.read_bytes() + b"\0")
    return h.hexdigest()


def first_error(proc) -> str:
    """EvmEval's first [ERROR] log line, else the last line of a Python traceback."""
    errors = [ln for ln in (proc.stdout + proc.stderr).splitlines() if ln.startswith("[ERROR]")]
    if errors:
        return errors[0].split(" : ", 1)[-1]
    return (proc.stderr.strip() or "?").splitlines()[-1]


def main() -> None:
    args, rng = start(__doc__, OUT, 120, 77)
    scorer = args.v18.resolve()
    expected = {"generator": f"scripts/make_sequencing_anchors.py --cases {args.cases} --seed {args.seed}",
                "scorer": "EvmEval scorer_v1.8.py (head)", "cases": {}}
    for n in range(args.cases):
        case = OUT / f"case-{n:03d}"
        (case / "tkn").mkdir(parents=True)
        tangled = rng.random() < 0.4
        docs = [make_doc(rng, f"doc_{rng.randint(0, 99):02d}_{d}", sizes=(0, 2, 4, 7, 10, 14))
                for d in range(rng.randint(1, 4))]
        corefs, extra = {}, {}
        for d in docs:
            g_cl, s_cl = clusters(rng, len(d["gold"])), clusters(rng, len(d["system"]))
            corefs[d["id"]] = {"gold": g_cl, "system": s_cl}
            g_links = tangled_links(rng, len(d["gold"])) if tangled else ordered_links(rng, len(d["gold"]), g_cl)
            s_links = system_links(rng, g_links, d, s_cl, tangled)
            extra[d["id"]] = {"gold": lines(g_links), "system": lines(s_links)}
        sys_docs = [d for d in docs if rng.random() > 0.1] or docs[:1]
        write_case(case, docs, sys_docs, corefs, extra)
        runs = []
        for mode in ("char", "token"):
            evm_args, our_args = ["-a", "SEQ"], ["--preset", "kbp2016", "--sequencing"]
            if mode == "token":
                evm_args += ["-t", "TOKENS"]
                our_args += ["--tokens", "TOKENS"]
            if tangled or rng.random() < 0.2:
                evm_args.append("-nv")
                our_args.append("--no-script-validation")
            if rng.random() < 0.4:
                m = rng.randrange(4)
                evm_args += ["-m", str(m)]
                our_args += ["--coref-mapping", MAPPINGS[m]]
            if rng.random() < 0.3:
                evm_args += ["-c", "COREF"]
                our_args.append("--coref")
            if rng.random() < 0.15:
                add_whitelist(rng, case, len(runs), evm_args, our_args)
            with tempfile.TemporaryDirectory() as tmp:
                subst = {"TOKENS": str(case / "tkn"), "COREF": str(Path(tmp) / "coref.out"),
                         "SEQ": str(Path(tmp) / "seq")}
                cmd = [args.python2, str(scorer), "-g", str(case / f"gold.{mode}.tbf"),
                       "-s", str(case / f"system.{mode}.tbf")] + [subst.get(a, a) for a in evm_args]
                proc = subprocess.run(cmd, capture_output=True, text=True, cwd=scorer.parent)
                timeml = folder_digest(Path(subst["SEQ"])) if proc.returncode == 0 else ""
            runs.append({"mode": mode, "evmeval_args": evm_args, "args": our_args, "exit": proc.returncode,
                         "report": report(proc.stdout) if proc.returncode == 0 else "",
                         "error": first_error(proc) if proc.returncode else "", "timeml_sha256": timeml})
        expected["cases"][case.name] = runs
    finish(OUT, expected)


if __name__ == "__main__":
    main()
