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

``wide.json.gz``: the module's reports for every run of FILE_RUNS on ``--wide`` pairs of
``gen_triples.generate_wide_case`` (duplicates and near-duplicates with other relations, overlap chains,
elements without ids, token ids no token has, empty files...).  The inputs are not stored: the seeded
generator makes them again (``tests/test_triples_wide.py``).  These runs go through a fourth driver,
``DriverB`` (one JVM for many runs: each line of its job file is ``REPORT<TAB>DriverE|DriverD<TAB>ARGS...``, the
report file the run writes moved to ``REPORT``), from a folder holding every case, so the token range is named
``wide-NNN/range.txt`` in the reports.

``--check`` makes everything again in a temporary folder and compares it with the stored files byte for byte.
"""
from __future__ import annotations

import argparse
import filecmp
import gzip
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gen_naf import generate, generate_tuples  # noqa: E402
from gen_triples import generate_case, generate_wide_case, write_case  # noqa: E402

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "triples_anchors"
WIDE = "wide.json.gz"

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


def convert_anchors(classpath: str, n_docs: int, seed: int, out: Path) -> list[dict]:
    """KAF files through ConvertKafToTriples (every layer flag), KYOTO tuple files through
    ConvertTuplesToTriples (first element event and participant); NAF twins of the KAF files beside them."""
    folder = out / "convert"
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


def wide_job(name: str, cls: str, margs: list[str]) -> list[str]:
    """A FILE_RUNS run's module arguments for the case folder ``name`` (paths relative to its parent)."""
    return ["--gold-standard-triples", f"{name}/gold.trp", "--system-triples", f"{name}/system.trp",
            *(f"{name}/{a}" if a.endswith(".txt") else a for a in margs)]


def wide_keywords(name: str, keywords: dict) -> dict:
    return {k: f"{name}/{v}" if isinstance(v, str) and v.endswith(".txt") else v for k, v in keywords.items()}


def wide_anchors(classpath: str, n_cases: int, seed: int) -> list[dict]:
    """Every FILE_RUNS run on ``n_cases`` wide cases, through DriverB (each run twice)."""
    runs = []
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "reports").mkdir()
        jobs = []
        for k in range(n_cases):
            name = f"wide-{k:03d}"
            write_case(str(root / name), generate_wide_case(seed * 1000 + k))
            for run, cls, margs, keywords in FILE_RUNS:
                for rep in (0, 1):
                    jobs.append("\t".join([f"reports/{name}.{run}.{rep}", cls, *wide_job(name, cls, margs)]))
                runs.append({"case": name, "run": run, "class": cls, "args": wide_job(name, cls, margs),
                             "keywords": wide_keywords(name, keywords)})
        (root / "jobs.txt").write_text("\n".join(jobs) + "\n", encoding="utf-8")
        java(classpath, "DriverB", ["jobs.txt"], root)
        for r in runs:
            first, second = (root / "reports" / f"{r['case']}.{r['run']}.{rep}" for rep in (0, 1))
            if first.read_bytes() != second.read_bytes():
                raise SystemExit(f"{r['case']} {r['run']}: two runs differ")
            r["report"] = first.read_text(encoding="utf-8")
    return runs


def write_wide(out: Path, runs: list[dict], n_cases: int, seed: int) -> None:
    data = json.dumps({"generator": "scripts/gen_triples.py generate_wide_case", "seed": seed, "cases": n_cases,
                       "runs": runs}, indent=1, sort_keys=True) + "\n"
    (out / WIDE).write_bytes(gzip.compress(data.encode("utf-8"), compresslevel=9, mtime=0))


def compare_trees(made: Path, stored: Path) -> list[str]:
    """Files that differ between two trees (or are in one only)."""
    bad = []
    cmp = filecmp.dircmp(made, stored)
    bad += [str(stored / n) for n in cmp.left_only + cmp.right_only + cmp.funny_files]
    bad += [str(stored / n) for n in cmp.common_files if not filecmp.cmp(made / n, stored / n, shallow=False)]
    for sub in cmp.common_dirs:
        bad += compare_trees(made / sub, stored / sub)
    return bad


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--classpath", required=True, help="drivers, the module's classes, its jar (':'-separated)")
    ap.add_argument("--cases", type=int, default=30)
    ap.add_argument("--folders", type=int, default=4)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--convert-docs", type=int, default=20, help="KAF/NAF twins and tuple files converted")
    ap.add_argument("--wide", type=int, default=220, help="wide cases (every FILE_RUNS run on each)")
    ap.add_argument("--wide-seed", type=int, default=24)
    ap.add_argument("--only-wide", action="store_true", help="make (or check) wide.json.gz only")
    ap.add_argument("--check", action="store_true", help="make everything in a temporary folder and compare it "
                    "with the stored files (exit 1 on a difference)")
    args = ap.parse_args(argv)
    if args.check:
        with tempfile.TemporaryDirectory() as tmp:
            made = Path(tmp) / "triples_anchors"
            build(args, made)
            if args.only_wide:
                bad = [] if (made / WIDE).read_bytes() == (OUT / WIDE).read_bytes() else [str(OUT / WIDE)]
            else:
                bad = compare_trees(made, OUT)
        if bad:
            raise SystemExit("differ from what the module writes now: " + ", ".join(bad[:10]))
        print(f"{os.path.relpath(OUT)}: identical to what the module writes now")
        return
    build(args, OUT)


def build(args, out: Path) -> None:
    if args.only_wide:
        out.mkdir(parents=True, exist_ok=True)
        write_wide(out, wide_anchors(args.classpath, args.wide, args.wide_seed), args.wide, args.wide_seed)
        print(f"{args.wide * len(FILE_RUNS)} runs of the module on {args.wide} wide cases, written to {out / WIDE}")
        return
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    expected = []
    for k in range(args.cases):
        case = out / f"case-{k:03d}"
        write_case(str(case), generate_case(args.seed * 1000 + k))
        for name, cls, margs, keywords in FILE_RUNS:
            report = file_run(args.classpath, case, cls, margs)
            expected.append({"case": case.name, "run": name, "class": cls, "args": margs,
                             "keywords": keywords, "report": report})
    for k in range(args.folders):
        folder = out / f"folder-{k}"
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
    convert = convert_anchors(args.classpath, args.convert_docs, args.seed, out)
    with open(out / "expected_convert.json", "w", encoding="utf-8", newline="\n") as fh:
        json.dump({"generator": "scripts/gen_naf.py", "seed": args.seed, "runs": convert}, fh, indent=1,
                  sort_keys=True)
        fh.write("\n")
    with open(out / "expected.json", "w", encoding="utf-8", newline="\n") as fh:
        json.dump({"generator": "scripts/gen_triples.py", "seed": args.seed, "runs": expected}, fh, indent=1,
                  sort_keys=True)
        fh.write("\n")
    print(f"{len(expected)} runs of the module on {args.cases} file cases and {args.folders} folder cases, "
          f"{len(convert)} converter runs on {args.convert_docs} KAF and tuple files, written to "
          f"{out}")
    write_wide(out, wide_anchors(args.classpath, args.wide, args.wide_seed), args.wide, args.wide_seed)
    print(f"{args.wide * len(FILE_RUNS)} runs of the module on {args.wide} wide cases, written to {out / WIDE}")


if __name__ == "__main__":
    main()
