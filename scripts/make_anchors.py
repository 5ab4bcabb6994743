#!/usr/bin/env python3
"""Generate random CoNLL coreference cases and record what the reference scorers print.

Writes ``tests/data/anchors/case-NNN.{key,response}`` and
``tests/data/anchors/expected.json`` with, per case and metric, the TOTALS
lines that the CoNLL reference scorer v8.01 prints (``perl scorer.pl METRIC
KEY RESPONSE none``), its full verbose report for single-document cases, and
coval's exact LEA numerators and denominators.  A case v8.01 refuses (it
dies, or exits 1) is recorded with its message; fastscore must reject it too.

The reference scorers are not part of fastscore: fetch them yourself
(conll/reference-coreference-scorers, ns-moosavi/coval) and point to them:

    python scripts/make_anchors.py --perl-scorer DIR/scorer.pl --coval DIR/coval [--cases 80] [--seed 2026]
"""
from __future__ import annotations

import argparse
import json
import random
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from fastscore.formats.conll import bracket_items

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "anchors"
METRICS = ("muc", "bcub", "ceafm", "ceafe", "blanc")


def random_key(rng: random.Random, n_tokens: int, repeats: bool):
    """Clusters of (start, end) spans (end exclusive) with string labels."""
    n_clusters = rng.randint(0, 6)
    labels = rng.sample(["0", "1", "2", "3", "7", "07", "12", "40", "41", "9"], n_clusters)
    clusters = {}
    for label in labels:
        spans = []
        for _ in range(rng.choice((1, 1, 2, 2, 3, 4, 6))):
            s = rng.randrange(n_tokens)
            spans.append((s, min(n_tokens, s + rng.choice((1, 1, 1, 2, 3, 5)))))
        clusters[label] = spans
    if not repeats:  # drop repeated spans
        used = set()
        for label in list(clusters):
            clusters[label] = [sp for sp in clusters[label] if not (sp in used or used.add(sp))]
            if not clusters[label]:
                del clusters[label]
    return clusters


def perturb(rng: random.Random, key: dict, n_tokens: int, repeats: bool):
    """A response with realistic errors: dropped, shifted, invented mentions, merges, splits."""
    resp = {}
    for label, spans in key.items():
        out = []
        for s, e in spans:
            r = rng.random()
            if r < 0.15:
                continue
            if r < 0.25:
                s = max(0, s - 1)
            if r > 0.95 and e < n_tokens:
                e += 1
            out.append((s, e))
        if out:
            resp[str(rng.choice((label, label, label, "5", "6", "88")))] = resp.get(label, []) + out
    for _ in range(rng.randint(0, 3)):
        s = rng.randrange(n_tokens)
        resp.setdefault(rng.choice(("5", "6", "88", "90")), []).append((s, min(n_tokens, s + 1)))
    if repeats and resp and rng.random() < 0.6:
        label = rng.choice(list(resp))
        resp[label].append(rng.choice(resp[rng.choice(list(resp))]))
    if not repeats:
        used = set()
        for label in list(resp):
            resp[label] = [sp for sp in resp[label] if not (sp in used or used.add(sp))]
            if not resp[label]:
                del resp[label]
    return resp


def coref_column(clusters: dict, n_tokens: int, rng: random.Random):
    """One column per token; items written in a random order, joined with '|'."""
    out = []
    for token_items in bracket_items(clusters.items(), n_tokens):
        rng.shuffle(token_items)
        out.append("|".join(token_items) if token_items else "-")
    return out


def write_file(path: Path, docs: dict, tokens: dict, rng: random.Random):
    lines = []
    for name, clusters in docs.items():
        lines.append(f"#begin document ({name}); part 000")
        col = coref_column(clusters, tokens[name], rng)
        for t in range(tokens[name]):
            lines.append(f"{name}\t0\t{t}\tw{t}\t{col[t]}")
            if t % 7 == 6:
                lines.append("")
        lines.append("#end document")
    path.write_text("\n".join(lines) + "\n")


def run_perl(scorer: Path, metric: str, key: Path, resp: Path, verbose: bool = False):
    args = ["perl", str(scorer), metric, str(key), str(resp)] + ([] if verbose else ["none"])
    proc = subprocess.run(args, capture_output=True, text=True, cwd=scorer.parent)
    return proc.returncode, proc.stdout, proc.stderr


def totals_lines(stdout: str) -> list[str]:
    tail = stdout.split("====== TOTALS =======", 1)[1]
    return [ln for ln in tail.splitlines() if ln and not ln.startswith("-----")]


def coval_copy(path: Path) -> Path:
    """The same mentions in a form coval reads as v8.01 does: coval parses labels with
    int() (merging "07" and "7") and splits mentions at sentence breaks."""
    names: dict[str, str] = {}
    rename = lambda m: names.setdefault(m.group(0), str(1000 + len(names)))
    lines = []
    for line in path.read_text().splitlines():
        if not line:
            continue
        if not line.startswith("#"):
            cols = line.split("\t")
            cols[-1] = re.sub(r"\d+", rename, cols[-1])
            line = "\t".join(cols)
        lines.append(line)
    out = Path(tempfile.mkdtemp()) / path.name
    out.write_text("\n".join(lines) + "\n")
    return out


def coval_lea(coval_dir: Path, key: Path, resp: Path):
    sys.path.insert(0, str(coval_dir.parent))
    from coval.conll import reader
    from coval.eval import evaluator

    infos = reader.get_coref_infos(str(coval_copy(key)), str(coval_copy(resp)), False, False, True, False)
    for key_clusters, sys_clusters, _, _ in infos.values():
        for clusters in (key_clusters, sys_clusters):
            mentions = [m for c in clusters for m in c]
            if len(mentions) != len(set(mentions)):
                return None  # repeated spans: coval and v8.01 order clusters differently
    ev = evaluator.Evaluator(evaluator.lea)
    for doc in infos:
        ev.update(infos[doc])
    p_num, p_den, r_num, r_den = ev.get_counts()
    return [r_num, r_den, p_num, p_den]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--perl-scorer", type=Path, required=True, help="path of v8.01 scorer.pl")
    ap.add_argument("--coval", type=Path, help="path of coval's 'coval' package folder (for LEA)")
    ap.add_argument("--cases", type=int, default=80)
    ap.add_argument("--seed", type=int, default=2026)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    OUT.mkdir(parents=True, exist_ok=True)
    expected = {"generator": f"scripts/make_anchors.py --cases {args.cases} --seed {args.seed}",
                "scorer": "CoNLL reference scorer v8.01 (perl scorer.pl METRIC KEY RESPONSE none)",
                "cases": {}}
    for n in range(args.cases):
        repeats = n % 3 == 0
        n_docs = rng.choice((1, 1, 2, 3))
        names = [f"doc{d}" for d in range(n_docs)]
        tokens = {name: rng.randint(4, 24) for name in names}
        key = {name: random_key(rng, tokens[name], repeats) for name in names}
        resp = {name: perturb(rng, key[name], tokens[name], repeats) for name in names if rng.random() > 0.1}
        if rng.random() < 0.2 or not resp:  # an empty file is an error, not an empty response
            tokens["extra"] = 5
            resp["extra"] = {"1": [(0, 1), (2, 3)]}
        case = f"case-{n:03d}"
        kpath, rpath = OUT / f"{case}.key", OUT / f"{case}.response"
        write_file(kpath, key, tokens, rng)
        write_file(rpath, resp, tokens, rng)
        record = {"key": kpath.name, "response": rpath.name, "repeats": repeats, "metrics": {}}
        for metric in METRICS:
            code, out, err = run_perl(args.perl_scorer, metric, kpath, rpath)
            if code != 0 or "TOTALS" not in out:
                record["refused"] = (err.strip() or out.strip().splitlines()[-1])[:300]
                break
            record["metrics"][metric] = totals_lines(out)
            if n < 45:  # v8.01 prints documents in Perl's hash order: tests compare them as a set
                code, out, err = run_perl(args.perl_scorer, metric, kpath, rpath, verbose=True)
                record.setdefault("verbose", {})[metric] = out.split("\n", 1)[1]  # drop the version line
        if args.coval and not repeats and "refused" not in record and set(key) <= set(resp):
            # coval crashes (KeyError) on key documents missing from the response
            lea = coval_lea(args.coval, kpath, rpath)
            if lea is not None:
                record["coval_lea"] = lea
        expected["cases"][case] = record
    (OUT / "expected.json").write_text(json.dumps(expected, indent=1) + "\n")
    refused = sum("refused" in r for r in expected["cases"].values())
    print(f"{args.cases} cases written to {OUT} ({refused} refused by v8.01)")


if __name__ == "__main__":
    main()
