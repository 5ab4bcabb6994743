#!/usr/bin/env python3
"""Generate triple cases (``scripts/gen_triples.py``) and record the reports of the Triple evaluation
module (cltl/TripleEvaluation, its current source built with javac) for them.

Writes ``tests/data/triples_anchors/case-NNN/`` (gold, system, token range, relation filter, relation map),
``folder-K/`` (``gold/NAME.tag.trp`` and ``system/NAME.kaf.trp`` files, paired with --ignore-file-suffix 8)
and ``expected.json``: per run, the module's class, its arguments, the fastscore keywords that ask for the
same thing, and the report file the module wrote.  Also ``convert/`` (KAF files with their NAF twins,
``scripts/gen_naf.py``, and KYOTO tuple files) and ``expected_convert.json``: the triple files the module's
``ConvertKafToTriples`` (every layer flag, with and without --intersect) and ``ConvertTuplesToTriples``
(first element event, participant) wrote.

The module's classes run through three small drivers (kept outside this repository, beside the build):
``DriverE``/``DriverD`` run ``EvaluateTriples.main``/``EvaluateTriplesDebug.main``'s steps on an evaluator
whose parsers also get a relation filter and a relation map (fields of the module's parser its command
lines do not set: ``--x-relation-filter``, ``--x-relation-map``); ``DriverF`` runs
``EvaluateTripleFolders.main``'s steps with each folder's files in name order (the module takes them in
directory order, which the file system decides) and writes its results file without the header (folders,
date).  Build (Java 17):

    javac -d BUILD -cp TripleEvaluation/target/TripleEvaluation-1.0-jar-with-dependencies.jar $(find src -name '*.java')
    javac -d DRIVERS -cp BUILD:JAR driver/vu/tripleevaluation/evaluation/*.java
    python scripts/make_triples_anchors.py --classpath DRIVERS:BUILD:JAR [--cases 30] [--seed 11]

Every run is made twice and must give the same report (the module has no randomness; a difference would
be a hash-order dependence worth knowing).
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gen_naf import generate, generate_tuples  # noqa: E402
from gen_triples import generate_case, write_case  # noqa: E402

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "triples_anchors"

# (name, class, module arguments, fastscore keywords); every run also has location_defect=True (the module
# drops LOCATION triples whatever its options)
FILE_RUNS = [
    ("e-plain", "DriverE", [], {}),
    ("e-ignore", "DriverE", ["--ignore-relations"], {"ignore_relations": True}),
    ("e-range", "DriverE", ["--token-range", "range.txt"], {"token_range": "range.txt"}),
    ("e-range-ignore", "DriverE", ["--token-range", "range.txt", "--ignore-relations"],
     {"token_range": "range.txt", "ignore_relations": True}),
    ("e-filter-map", "DriverE", ["--x-relation-filter", "filter.txt", "--x-relation-map", "map.txt"],
     {"relation_filter": "filter.txt", "relation_map": "map.txt"}),
    ("e-skip", "DriverE", ["--skip-time-and-location"], {"skip_time_and_location": True}),
    ("d-plain", "DriverD", [], {"exact_ids": True}),
    ("d-range", "DriverD", ["--token-range", "range.txt"], {"exact_ids": True, "token_range": "range.txt"}),
    ("d-filter-map", "DriverD", ["--x-relation-filter", "filter.txt", "--x-relation-map", "map.txt"],
     {"dedup": "exact", "relation_filter": "filter.txt", "relation_map": "map.txt"}),
    ("d-skip", "DriverD", ["--skip-time-and-location"], {"dedup": "exact", "skip_time_and_location": True}),
]
# ConvertKafToTriples flags -> fastscore layers, intersect
CONVERT_RUNS = [
    ("entity", ["--entity"], ["entity"], False),
    ("property", ["--property"], ["property"], False),
    ("opinion", ["--opinion"], ["opinion"], False),
    ("opinion-intersect", ["--opinion", "--intersect"], ["opinion"], True),
    ("sentiment", ["--term-sentiment"], ["sentiment"], False),
    ("all", ["--entity", "--property", "--opinion", "--term-sentiment"], ["entity", "property", "opinion",
                                                                          "sentiment"], False),
]
FOLDER_RUNS = [
    ("f-plain", ["--ignore-file-suffix", "8"], {"ignore_file_suffix": 8}),
    ("f-filter", ["--ignore-file-suffix", "8", "--relation-filter", "filter.txt"],
     {"ignore_file_suffix": 8, "relation_filter": "filter.txt"}),
    ("f-map", ["--ignore-file-suffix", "8", "--x-relation-map", "map.txt"],
     {"ignore_file_suffix": 8, "relation_map": "map.txt"}),
    ("f-skip", ["--ignore-file-suffix", "8", "--skip-time-and-location"],
     {"ignore_file_suffix": 8, "skip_time_and_location": True}),
]


def java(classpath: str, cls: str, args: list[str], cwd: Path) -> None:
    proc = subprocess.run(["java", "-cp", classpath, f"vu.tripleevaluation.evaluation.{cls}", *args], cwd=cwd,
                          capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit(f"{cls} {args} in {cwd} failed:\n{proc.stderr}")


def file_run(classpath: str, case: Path, cls: str, args: list[str]) -> str:
    reports = []
    for _ in range(2):
        with tempfile.TemporaryDirectory() as tmp:
            work = Path(tmp)
            for f in case.iterdir():
                shutil.copy(f, work / f.name)
            java(classpath, cls, ["--gold-standard-triples", "gold.trp", "--system-triples", "system.trp", *args],
                 work)
            reports.append((work / "system.trp.xls").read_text(encoding="utf-8"))
    if reports[0] != reports[1]:
        raise SystemExit(f"{case.name} {cls} {args}: two runs differ")
    return reports[0]


def folder_run(classpath: str, folder: Path, args: list[str]) -> str:
    reports = []
    for _ in range(2):
        with tempfile.TemporaryDirectory() as tmp:
            work = Path(tmp) / folder.name
            shutil.copytree(folder, work)
            java(classpath, "DriverF", ["--gold-standard-triples", "gold", "--system-triples", "system",
                                        "--out", "report.txt", *args], work)
            reports.append((work / "report.txt").read_text(encoding="utf-8"))
    if reports[0] != reports[1]:
        raise SystemExit(f"{folder.name} {args}: two runs differ")
    return reports[0]


def convert_run(classpath: str, cls: str, source: Path, args: list[str], out_name: str) -> str:
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        shutil.copy(source, work / source.name)
        proc = subprocess.run(["java", "-cp", classpath, f"vu.tripleevaluation.conversion.{cls}", *args], cwd=work,
                              capture_output=True, text=True)
        if proc.returncode != 0:
            raise SystemExit(f"{cls} {args} failed:\n{proc.stderr}")
        return (work / out_name).read_text(encoding="utf-8")


def convert_anchors(classpath: str, n_docs: int, seed: int) -> list[dict]:
    """KAF files through ConvertKafToTriples (every layer flag), KYOTO tuple files through
    ConvertTuplesToTriples (first element event and participant); NAF twins of the KAF files beside them."""
    folder = OUT / "convert"
    folder.mkdir()
    runs = []
    for k in range(n_docs):
        for kind in ("kaf", "naf"):
            (folder / f"doc-{k:03d}.{kind}").write_text(generate(seed * 1000 + k, kind), encoding="utf-8")
        (folder / f"doc-{k:03d}.tpl").write_text(generate_tuples(seed * 1000 + k), encoding="utf-8")
        kaf = folder / f"doc-{k:03d}.kaf"
        for name, flags, layers, intersect in CONVERT_RUNS:
            out = convert_run(classpath, "ConvertKafToTriples", kaf, ["--kaf-file", kaf.name, *flags],
                              kaf.name + ".trp")
            runs.append({"file": kaf.name, "run": name, "args": flags, "layers": layers, "intersect": intersect,
                         "triples": out})
        tpl = folder / f"doc-{k:03d}.tpl"
        for first in ("event", "participant"):
            out = convert_run(classpath, "ConvertTuplesToTriples", tpl,
                              ["--tuple-file", tpl.name, "--first-element", first], tpl.name + ".trp")
            runs.append({"file": tpl.name, "run": f"tuples-{first}", "args": ["--first-element", first],
                         "first_element": first, "triples": out})
    return runs


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--classpath", required=True, help="drivers, the module's classes, its jar (':'-separated)")
    ap.add_argument("--cases", type=int, default=30)
    ap.add_argument("--folders", type=int, default=4)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--convert-docs", type=int, default=20, help="KAF/NAF twins and tuple files converted")
    args = ap.parse_args(argv)
    if OUT.exists():
        shutil.rmtree(OUT)
    OUT.mkdir(parents=True)
    expected = []
    for k in range(args.cases):
        case = OUT / f"case-{k:03d}"
        write_case(str(case), generate_case(args.seed * 1000 + k))
        for name, cls, margs, keywords in FILE_RUNS:
            report = file_run(args.classpath, case, cls, margs)
            expected.append({"case": case.name, "run": name, "class": cls, "args": margs,
                             "keywords": keywords, "report": report})
    for k in range(args.folders):
        folder = OUT / f"folder-{k}"
        n_files = 2 + k % 4
        for i in range(n_files):
            files = generate_case(args.seed * 100000 + 100 * k + i)
            write_case(str(folder / "gold"), {f"doc{i}.tag.trp": files["gold.trp"]})
            write_case(str(folder / "system"), {f"doc{i}.kaf.trp": files["system.trp"]})
            if i == 0:
                write_case(str(folder), {"filter.txt": files["filter.txt"], "map.txt": files["map.txt"]})
        for name, margs, keywords in FOLDER_RUNS:
            report = folder_run(args.classpath, folder, margs)
            expected.append({"case": folder.name, "run": name, "class": "DriverF", "args": margs,
                             "keywords": keywords, "report": report})
    convert = convert_anchors(args.classpath, args.convert_docs, args.seed)
    with open(OUT / "expected_convert.json", "w", encoding="utf-8", newline="\n") as fh:
        json.dump({"generator": "scripts/gen_naf.py", "seed": args.seed, "runs": convert}, fh, indent=1,
                  sort_keys=True)
        fh.write("\n")
    with open(OUT / "expected.json", "w", encoding="utf-8", newline="\n") as fh:
        json.dump({"generator": "scripts/gen_triples.py", "seed": args.seed, "runs": expected}, fh, indent=1,
                  sort_keys=True)
        fh.write("\n")
    print(f"{len(expected)} runs of the module on {args.cases} file cases and {args.folders} folder cases, "
          f"{len(convert)} converter runs on {args.convert_docs} KAF and tuple files, written to "
          f"{os.path.relpath(OUT)}")


if __name__ == "__main__":
    main()
