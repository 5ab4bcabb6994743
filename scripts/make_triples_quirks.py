#!/usr/bin/env python3
"""Differential testing of how the Triple evaluation module reads a file's bytes (issue 36): seeded
``gen_triples.generate_case`` pairs, each with one quirk of ``QUIRKS`` (a BOM in the system file or the token
range, an XML declaration naming ISO-8859-1 over non-UTF-8 ids, a UTF-16 file, a relation or attribute name
with ``İ``, a truncated or malformed file, an empty or blank file), and the report EvaluateTriples writes for
each (run with and without the token range).

The module runs as built from its current source (Java 17; see ``scripts/make_triples_anchors.py``):
``java -cp BUILD:JAR vu.tripleevaluation.evaluation.EvaluateTriples --gold-standard-triples gold.trp
--system-triples system.trp [--token-range range.txt]``, its report ``system.trp.xls`` stored.  Writes
``tests/data/triples_anchors/quirks.json.gz``: per case its quirk, the SHA-256 of its files and the reports.

    python scripts/make_triples_quirks.py --classpath BUILD:JAR [--cases 40] [--seed 36] [--check]
"""
from __future__ import annotations

import hashlib
import json
import random
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from expectations import gzipped_json, parser, store_or_check  # noqa: E402
from gen_triples import generate_case  # noqa: E402

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "triples_anchors" / "quirks.json.gz"
QUIRKS = ("bom", "range_bom", "latin1", "utf16", "dotted_relation", "dotted_attribute", "truncated", "malformed",
          "empty", "blank")
RUNS = {"plain": [], "range": ["--token-range", "range.txt"]}


def quirk_case(seed: int, n: int) -> tuple[str, dict[str, bytes]]:
    """Case ``n``: its quirk and its files (gold.trp, system.trp, range.txt) as bytes."""
    rng = random.Random(seed * 100003 + n)
    files = {k: v.encode() for k, v in generate_case(seed * 1000 + n).items() if k in ("gold.trp", "system.trp",
                                                                                          "range.txt")}
    quirk = QUIRKS[n % len(QUIRKS)]
    system = files["system.trp"].decode()
    if quirk == "bom":
        files["system.trp"] = b"\xef\xbb\xbf" + files["system.trp"]
    elif quirk == "range_bom":
        files["range.txt"] = b"\xef\xbb\xbf" + files["range.txt"]
    elif quirk == "latin1":  # two ids that differ only in a non-UTF-8 byte
        for name, letter in (("gold.trp", "\u00e8"), ("system.trp", "\u00e9")):
            text = files[name].decode().replace('encoding="UTF-8"', 'encoding="ISO-8859-1"')
            files[name] = text.replace('id="w1"', f'id="w1{letter}"').encode("latin-1")
    elif quirk == "utf16":
        files["system.trp"] = system.replace('encoding="UTF-8"', 'encoding="UTF-16"').encode("utf-16")
    elif quirk == "dotted_relation":
        relations = sorted(set(__import__("re").findall(r'relation="([^"]*i[^"]*)"', system)))
        if relations:
            r = rng.choice(relations)
            files["system.trp"] = system.replace(f'relation="{r}"', f'relation="{r.upper().replace("I", "İ")}"'
                                                 ).encode()
    elif quirk == "dotted_attribute":
        files["system.trp"] = system.replace("elementFirst id=", "elementFirst İD=", rng.randint(1, 5)).encode()
    elif quirk == "truncated":
        files["system.trp"] = files["system.trp"][:rng.randrange(len(files["system.trp"]) // 4,
                                                                  len(files["system.trp"]))]
    elif quirk == "malformed":
        lines = system.split("\n")
        k = rng.randrange(2, max(3, len(lines) - 1))
        lines[k] = lines[k].replace(">", " <bad>", 1)
        files["system.trp"] = "\n".join(lines).encode()
    elif quirk == "empty":
        files["system.trp"] = b""
    elif quirk == "blank":
        files["system.trp"] = b"  \n\t\n"
    return quirk, files


def write_files(folder: Path, files: dict[str, bytes]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name, data in files.items():
        (folder / name).write_bytes(data)


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def build(args) -> bytes:
    expected = {"generator": f"scripts/make_triples_quirks.py --cases {args.cases} --seed {args.seed}",
                "seed": args.seed, "module": "cltl/TripleEvaluation (current source, Java 17)", "cases": {}}
    for n in range(args.cases):
        quirk, files = quirk_case(args.seed, n)
        reports = {}
        with tempfile.TemporaryDirectory() as tmp:
            write_files(Path(tmp), files)
            for run, extra in RUNS.items():
                subprocess.run(["java", "-cp", args.classpath, "vu.tripleevaluation.evaluation.EvaluateTriples",
                                "--gold-standard-triples", "gold.trp", "--system-triples", "system.trp", *extra],
                               cwd=tmp, capture_output=True, check=True)
                reports[run] = (Path(tmp) / "system.trp.xls").read_text(encoding="utf-8")
        expected["cases"][f"quirk-{n:03d}"] = {"quirk": quirk, "inputs": {k: digest(v) for k, v in
                                                                          sorted(files.items())}, "reports": reports}
        print(n, end=" ", flush=True)
    return gzipped_json(expected)


def main() -> None:
    ap = parser(__doc__, cases=40, seed=36)
    ap.add_argument("--classpath", required=True, help="the module's classes and its jar (':'-separated)")
    args = ap.parse_args()
    store_or_check(OUT, build(args), args.check)
    print(f"\n{args.cases} cases written to {OUT}")


if __name__ == "__main__":
    main()
