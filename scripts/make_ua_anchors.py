#!/usr/bin/env python3
"""Run the Universal Anaphora scorer on seeded generated pairs (scripts/gen_ua.py) in every option set and store
its outputs: ``tests/data/ua_anchors/anchors.json.gz``.

For each case (a seed: ``gen_ua.pair(seed)``) and option set (``CONFIGS``: the scorer's flags), the scorer's report
(ua-scorer.py's standard output) and its evaluator's numerators and denominators per metric
(``[pn, pd, rn, rd, split pn, split pd, split rn, split rd]``), or the error it raised (``timeout``: it looped).
The pairs are not stored: the test makes them again from their seeds.  The scorer's own test files
(plural-tests/) are run too, under ``plural:NAME``, and unittests.py's CoNLL-2012 cases (tests/) made UA files
(``conll_to_ua``), under ``unittest:NAME``, with their texts stored (they are small).

    python scripts/make_ua_anchors.py --scorer /path/to/universal-anaphora-scorer --python VENV/bin/python [--cases 200]

The scorer's Python needs numpy and scipy.  Same arguments, same bytes.
"""
from __future__ import annotations

import argparse
import gzip
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "data" / "ua_anchors"
sys.path.insert(0, str(ROOT / "scripts"))

from gen_ua import pair  # noqa: E402

CONFIGS = {
    "default": [],
    "remove_singletons+remove_split_antecedent": ["remove_singletons", "remove_split_antecedent"],
    "remove_split_antecedent": ["remove_split_antecedent"],
    "remove_singletons": ["remove_singletons"],
    "min": ["min"],
    "keep_non_referring+keep_bridging": ["keep_non_referring", "keep_bridging"],
    "min+keep_non_referring+keep_bridging": ["min", "keep_non_referring", "keep_bridging"],
    "only_split_antecedent": ["only_split_antecedent"],
    "evaluate_discourse_deixis": ["evaluate_discourse_deixis"],
}
GENERATOR = {"docs": 3, "tokens": 60}
EXTRA = {"cycle": {"seeds": [1, 2, 3, 6, 7], "cycle": True}}  # ElementOf cycles: the scorer loops


def plural_cases(scorer: Path) -> list[tuple[str, str, str]]:
    folder = scorer / "plural-tests"
    out = []
    for key in sorted(folder.glob("*.key")):
        for sys_ in sorted(folder.glob(key.stem + "-*.sys")):
            out.append((f"plural:{sys_.stem}", key.read_text(), sys_.read_text()))
    return out


def conll_to_ua(text: str) -> str:
    """A CoNLL-2012 file of the scorer's tests/ (coreference in the last column) as a UA file: each document
    ``# newdoc id = NAME``, each coreference bracket a markable of that entity in the IDENTITY column (ends closed
    before the token's openings, longest first)."""
    out = ["# global.columns = ID FORM LEMMA UPOS XPOS FEATS HEAD DEPREL DEPS MISC IDENTITY BRIDGING DISCOURSE_DEIXIS"]
    counter = 0
    for line in text.splitlines():
        if line.startswith("#begin document"):
            name = line[len("#begin document ("):].split(")")[0]
            out.append(f"# newdoc id = {name}")
            continue
        if line.startswith("#end") or not line.strip():
            out.append("")
            continue
        cols = line.split()
        closes, opens = 0, []
        for single, opened, closed in re.findall(r"\((\w+)\)|\((\w+)|(\w+)\)", cols[-1]):  # "(1(1", "1)1)" too
            if closed:
                closes += 1
                continue
            counter += 1
            opens.append((bool(single), single or opened, counter))
        cell = ")" * closes + "".join(f"(EntityID={e}|MarkableID=m{n}" + (")" if single else "")
                                      for single, e, n in sorted(opens, key=lambda o: o[0]))
        word = cols[3] if len(cols) > 4 else "_"  # some of the cases have only a document and a coreference column
        out.append("\t".join(["1", word] + ["_"] * 8 + [cell or "_", "_", "_"]))
    return "\n".join(out) + "\n"


def unittest_cases(scorer: Path) -> list[tuple[str, str, str]]:
    """The CoNLL-2012 cases of unittests.py, as UA files."""
    folder = scorer / "tests"
    out = []
    for key in sorted(folder.glob("*.key")):
        for sys_ in sorted(folder.glob(key.stem + "-*.response")):
            out.append((f"unittest:{sys_.stem}", conll_to_ua(key.read_text()), conll_to_ua(sys_.read_text())))
    return out


def edge_cases() -> list[tuple[str, str, str]]:
    """Hand-written cases stored beside the anchors (``edge-NAME.key``, ``edge-NAME.sys``): the scorer's readings
    (lines before the first document, a document name twice, a MarkableID twice, a cell of no bracket closing a
    markable, a non-referring plural set, ElementOf naming no entity, Min spans in the response, a response-only
    document)."""
    return [(f"edge:{key.stem}", key.read_text(), key.with_suffix(".sys").read_text())
            for key in sorted(OUT.glob("edge-*.key"))]


def arguments() -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scorer", required=True, type=Path)
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("--cases", type=int, default=200)
    return ap.parse_args()


def scored(a: argparse.Namespace, files: list[tuple[str, Path, Path]], configs: dict, generator: dict) -> dict:
    """The scorer's answers (scripts/ua_driver.py) for each (case name, key file, system file) in every option set."""
    jobs = [(name, config, {"key": str(key), "sys": str(sys_), "flags": flags})
            for name, key, sys_ in files for config, flags in configs.items()]
    run = subprocess.run([a.python, str(ROOT / "scripts" / "ua_driver.py"), str(a.scorer)],
                         input="".join(json.dumps(j) + "\n" for _, _, j in jobs), capture_output=True,
                         text=True, check=True, env={"PYTHONHASHSEED": "0", "PATH": "/usr/bin:/bin"})
    answers = [json.loads(line) for line in run.stdout.splitlines()]
    assert len(answers) == len(jobs), run.stderr[-2000:]
    out: dict = {"generator": generator, "configs": configs, "cases": {}}
    for (name, config, _), answer in zip(jobs, answers):
        out["cases"].setdefault(name, {})[config] = answer
    return out


def store(out: dict, folder: Path) -> None:
    """``anchors.json.gz`` in ``folder`` (same answers, same bytes), and the errors counted on standard output."""
    folder.mkdir(parents=True, exist_ok=True)
    data = json.dumps(out, sort_keys=True, separators=(",", ":")).encode()
    with open(folder / "anchors.json.gz", "wb") as f:
        f.write(gzip.compress(data, mtime=0))
    errors: dict = {}
    for per in out["cases"].values():
        for config, answer in per.items():
            if "error" in answer:
                errors[(config, answer["error"])] = errors.get((config, answer["error"]), 0) + 1
    print(f"{len(out['cases'])} cases x {len(out['configs'])} option sets; errors: {errors}")


def main() -> None:
    a = arguments()
    cases = [(f"seed:{s}", *pair(s, **GENERATOR)) for s in range(1, a.cases + 1)]
    cases += [(f"cycle:{s}", *pair(s, **GENERATOR, cycle=True)) for s in EXTRA["cycle"]["seeds"]]
    cases += plural_cases(a.scorer) + unittest_cases(a.scorer) + edge_cases()
    with tempfile.TemporaryDirectory() as tmp:
        files = []
        for name, key, sys_ in cases:
            stem = Path(tmp) / name.replace(":", "_")
            Path(f"{stem}.key").write_text(key)
            Path(f"{stem}.sys").write_text(sys_)
            files.append((name, Path(f"{stem}.key"), Path(f"{stem}.sys")))
        out = scored(a, files, CONFIGS, GENERATOR)
    out["plural_texts"] = {name: [key, sys_] for name, key, sys_ in cases if name.startswith(("plural:", "unittest:"))}
    store(out, OUT)


if __name__ == "__main__":
    main()
