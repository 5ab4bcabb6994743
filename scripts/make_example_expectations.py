#!/usr/bin/env python3
"""Record what each official tool prints for the bundled examples (``fastscore/examples``).

Writes ``tests/data/examples/expected.json``: per run (an example, maybe with a preset), the tool, its command
line (with the example's files named ``KEY`` and ``RESPONSE``), its exit code and the report it printed, which
``fastscore TASK example example --output FORMAT`` must reproduce byte for byte (``tests/test_examples.py``):

* ``coref``: the CoNLL-2012 example (test case TC-A/TC-A-4), v8.01's ``scorer.pl all`` (Perl); its first line
  (``version: 8.01 PATH``) left out, as it names where the scorer lies;
* ``mina``: the MINA example (minimum spans), coval's ``scorer.py KEY RESPONSE min_span`` report as
  ``scripts/make_mina_anchors.py`` recorded it for the same files (its case-016);
* ``corefud``: the CorefUD scorer 1.2 (ufal/corefud-scorer, commit 4fd7b0e), its defaults (head match,
  singletons dropped, zeros matched by their dependencies); Python 3 with udapi, numpy and scipy;
* ``ua``: the Universal Anaphora scorer (juntaoy/universal-anaphora-scorer, ``ua-scorer.py KEY RESPONSE``, its
  defaults), with the same Python 3;
* ``nugget``: EvmEval scorer_v1.7.1 (commit 1bd96c9, ``scorer_v1.7.py``, TAC KBP 2015 rules; fastscore's
  default preset) with ``--eval_mode char -c FILE``, under Python 2.7; its log lines (``[INFO] ...``) left out;
  ``nugget-kbp2017``: the same with EvmEval scorer_v1.8 (commit 9f60e17, ``-c FILE``: character spans are its
  default);
* ``temporal``: the TempEval-3 toolkit (naushadzaman/tempeval3_toolkit), its steps as
  ``scripts/make_temporal_anchors.py`` runs them: the entity report, then the relation report (method te3);
* ``triples``: the Triple evaluation module (cltl/TripleEvaluation, its source built with javac, as for
  ``scripts/make_triples_anchors.py``), ``EvaluateTriples`` itself: the report file it writes.

    python scripts/make_example_expectations.py --perl-scorer DIR/scorer.pl --corefud DIR/corefud-scorer.py --ua-scorer DIR/ua-scorer.py \\
        --python3 VENV/bin/python --evmeval DIR/scorer_v1.7.py --evmeval18 DIR/scorer_v1.8.py --python2 PY27 \\
        --toolkit DIR/tempeval3_toolkit \\
        --triples-classpath BUILD:JAR [--check]

``--check`` runs the tools again and compares with the stored file instead of writing.
"""
from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))
from fastscore.examples import example  # noqa: E402
from make_temporal_anchors import run_toolkit  # noqa: E402

OUT = ROOT / "tests" / "data" / "examples" / "expected.json"


def run(cmd: list[str], cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)


def named(cmd: list[str], key: Path, response: Path) -> list[str]:
    """The command as stored: the example's files by their role, the tool by its file name."""
    names = {str(key): "KEY", str(response): "RESPONSE"}
    return [names.get(a, Path(a).name if "/" in a else a) for a in cmd]


def coref(args) -> dict:
    ex = example("coref")
    cmd = ["perl", str(args.perl_scorer), "all", str(ex.key), str(ex.response)]
    p = run(cmd, args.perl_scorer.parent)
    return {"example": "coref", "tool": "conll/reference-coreference-scorers v8.01",
            "command": named(cmd, ex.key, ex.response), "exit": p.returncode, "report": p.stdout.split("\n", 1)[1], "drop_first_line": True,
            "fastscore": ["--output", "perl"]}


def mina(args) -> dict:
    """coval's ``scorer.py KEY RESPONSE min_span`` report, as scripts/make_mina_anchors.py recorded it for the
    case the example is (tests/data/mina_anchors/case-016: the same lines, gzipped)."""
    import gzip

    ex = example("mina")
    case = ROOT / "tests" / "data" / "mina_anchors" / "case-016"
    for name, path in (("key", ex.key), ("response", ex.response)):
        if gzip.decompress(Path(f"{case}.{name}.gz").read_bytes()) != path.read_bytes():
            raise SystemExit(f"{path} is not {case}.{name}.gz")
    run = json.loads(Path(f"{case}.json").read_text())["min_span"]
    return {"example": "mina", "tool": "ns-moosavi/coval 87071a6 (tests/data/mina_anchors/case-016.json)",
            "command": ["python", "scorer.py", "KEY", "RESPONSE", "min_span"], "exit": 0, "report": run["report"],
            "fastscore": ["--match", "mina", "--output", "coval"]}


def corefud(args) -> dict:
    ex = example("corefud")
    cmd = [args.python3, str(args.corefud), str(ex.key), str(ex.response)]
    p = run(cmd, args.corefud.parent)
    return {"example": "corefud", "tool": "ufal/corefud-scorer 4fd7b0e", "command": named(cmd, ex.key, ex.response),
            "exit": p.returncode, "report": p.stdout, "fastscore": ["--format", "conllu", "--output", "corefud"]}


def ua(args) -> dict:
    ex = example("ua")
    cmd = [args.python3, str(args.ua_scorer), str(ex.key), str(ex.response)]
    p = run(cmd, args.ua_scorer.parent)
    return {"example": "ua", "tool": "juntaoy/universal-anaphora-scorer (ua-scorer.py)",
            "command": ["python", "ua-scorer.py", "KEY", "RESPONSE"], "exit": p.returncode, "report": p.stdout,
            "fastscore": ["--format", "ua", "--output", "ua"]}


def evmeval(args, scorer: Path, tool: str, mode: list[str], preset: list[str]) -> dict:
    ex = example("nugget")
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [args.python2, str(scorer), "-g", str(ex.key), "-s", str(ex.response), *mode,
               "-c", str(Path(tmp) / "coref.out")]
        p = run(cmd, scorer.parent)
    report = "".join(ln for ln in p.stdout.splitlines(keepends=True) if not ln.startswith("["))
    cmd[-1] = "COREF_OUT"
    return {"example": "nugget", "tool": tool, "command": named(cmd, ex.key, ex.response), "exit": p.returncode,
            "report": report, "fastscore": [*preset, "--output", "evmeval"]}


def nugget(args) -> dict:
    return evmeval(args, args.evmeval, "hunterhector/EvmEval 1bd96c9 scorer_v1.7.py", ["--eval_mode", "char"], [])


def nugget_kbp2017(args) -> dict:
    return evmeval(args, args.evmeval18, "hunterhector/EvmEval 9f60e17 scorer_v1.8.py", [], ["--preset", "kbp2017"])


def temporal(args) -> dict:
    ex = example("temporal")
    with tempfile.TemporaryDirectory() as tmp:
        for side, path in (("key", ex.key), ("response", ex.response)):
            (Path(tmp) / side).mkdir()
            shutil.copy(path, Path(tmp) / side / "example.tml")
        out = run_toolkit(args.toolkit.resolve(), args.python2, Path(tmp) / "key", Path(tmp) / "response")
    runs = (out["entities"], out["te3"])
    return {"example": "temporal", "tool": "naushadzaman/tempeval3_toolkit", "command": [
                "TimeML-Normalizer.jar -a KEY;RESPONSE", "evaluate_entities.py KEY RESPONSE 0",
                "temporal_evaluation.py KEY RESPONSE 0"],
            "exit": max(r["exit"] for r in runs), "normalizer_errors": out["normalizer_errors"],
            "report": "".join(r["stdout"] for r in runs), "fastscore": ["--output", "te3"]}


def triples(args) -> dict:
    ex = example("triples")
    with tempfile.TemporaryDirectory() as tmp:
        for path in (ex.key, ex.response):
            shutil.copy(path, Path(tmp) / path.name)
        cmd = ["java", "-cp", args.triples_classpath, "vu.tripleevaluation.evaluation.EvaluateTriples",
               "--gold-standard-triples", ex.key.name, "--system-triples", ex.response.name]
        p = run(cmd, Path(tmp))
        report = (Path(tmp) / (ex.response.name + ".xls")).read_text(encoding="utf-8")
    cmd[2] = "CLASSPATH"
    return {"example": "triples", "tool": "cltl/TripleEvaluation (source, javac)", "command": cmd, "exit": p.returncode,
            "report": report, "fastscore": ["--output", "module"]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--perl-scorer", type=Path, required=True, help="the reference scorer v8.01's scorer.pl")
    ap.add_argument("--corefud", type=Path, required=True, help="corefud-scorer.py")
    ap.add_argument("--python3", required=True, help="a Python 3 with the CorefUD scorer's requirements")
    ap.add_argument("--ua-scorer", type=Path, required=True, help="the Universal Anaphora scorer's ua-scorer.py")
    ap.add_argument("--evmeval", type=Path, required=True, help="EvmEval scorer_v1.7.py (v1.7.1)")
    ap.add_argument("--evmeval18", type=Path, required=True, help="EvmEval scorer_v1.8.py")
    ap.add_argument("--python2", required=True, help="a Python 2.7 interpreter")
    ap.add_argument("--toolkit", type=Path, required=True, help="the tempeval3_toolkit folder")
    ap.add_argument("--triples-classpath", required=True, help="the Triple evaluation module's classes and jar")
    ap.add_argument("--check", action="store_true", help="compare with the stored file instead of writing")
    args = ap.parse_args()
    for name in ("perl_scorer", "corefud", "ua_scorer", "evmeval", "evmeval18"):
        setattr(args, name, getattr(args, name).resolve())
    expected = {name: make(args) for name, make in
                (("coref", coref), ("corefud", corefud), ("mina", mina), ("nugget", nugget), ("nugget-kbp2017", nugget_kbp2017),
                 ("temporal", temporal), ("triples", triples), ("ua", ua))}
    text = json.dumps(expected, indent=1, sort_keys=True) + "\n"
    if args.check:
        same = OUT.read_text() == text
        print("same as stored" if same else f"differs from {OUT}")
        raise SystemExit(0 if same else 1)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(text)
    print(f"{len(expected)} runs written to {OUT}")


if __name__ == "__main__":
    main()
