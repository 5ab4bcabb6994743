#!/usr/bin/env python3
"""Run the Universal Anaphora scorer on seeded generated CorefUD pairs (scripts/gen_corefud_ua.py) converted to UA
by fastscore's converter (fastscore/ua/corefud.py), in every option set that applies to CorefUD files, and store its
outputs: ``tests/data/corefud_ua_anchors/anchors.json.gz`` (issue 39 §2).

For each case (a seed: ``gen_corefud_ua.pair(seed)``) and option set (``CONFIGS``: the scorer's flags), the scorer's
report and its evaluator's numerators and denominators per metric (scripts/ua_driver.py), or the error it raised.
The pairs are not stored: the test makes them again from their seeds and scores the CoNLL-U files themselves.

    python scripts/make_corefud_ua_anchors.py --scorer /path/to/universal-anaphora-scorer --python VENV/bin/python

Run from the repository root (the converter is imported from it).  Same arguments, same bytes.
"""
from __future__ import annotations

import argparse
import gzip
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "data" / "corefud_ua_anchors"
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT))

from gen_corefud_ua import pair  # noqa: E402

CONFIGS = {
    "default": [],
    "keep_bridging": ["keep_bridging"],
    "remove_split_antecedent": ["remove_split_antecedent"],
    "remove_singletons+remove_split_antecedent+keep_bridging": ["remove_singletons", "remove_split_antecedent",
                                                                "keep_bridging"],
    "remove_singletons": ["remove_singletons"],
    "min": ["min"],
    "min+keep_bridging": ["min", "keep_bridging"],
    "only_split_antecedent": ["only_split_antecedent"],
}
GENERATOR = {"docs": 3, "sentences": 5}


def main() -> None:
    from fastscore.ua.corefud import corefud_as_ua

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scorer", required=True, type=Path)
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("--cases", type=int, default=200)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        jobs = []
        for seed in range(1, a.cases + 1):
            name = f"seed:{seed}"
            stem = Path(tmp) / f"seed_{seed}"
            for side, text in zip(("key", "sys"), pair(seed, **GENERATOR)):
                Path(f"{stem}.{side}.conllu").write_text(text)
                Path(f"{stem}.{side}").write_text(corefud_as_ua(f"{stem}.{side}.conllu").text)
            for config, flags in CONFIGS.items():
                jobs.append((name, config, {"key": f"{stem}.key", "sys": f"{stem}.sys", "flags": flags}))
        run = subprocess.run([a.python, str(ROOT / "scripts" / "ua_driver.py"), str(a.scorer)],
                             input="".join(json.dumps(j) + "\n" for _, _, j in jobs), capture_output=True,
                             text=True, check=True, env={"PYTHONHASHSEED": "0", "PATH": "/usr/bin:/bin"})
        answers = [json.loads(line) for line in run.stdout.splitlines()]
    assert len(answers) == len(jobs), run.stderr[-2000:]
    out: dict = {"generator": GENERATOR, "configs": CONFIGS, "cases": {}}
    for (name, config, _), answer in zip(jobs, answers):
        out["cases"].setdefault(name, {})[config] = answer
    OUT.mkdir(parents=True, exist_ok=True)
    data = json.dumps(out, sort_keys=True, separators=(",", ":")).encode()
    with open(OUT / "anchors.json.gz", "wb") as f:
        f.write(gzip.compress(data, mtime=0))
    errors: dict = {}
    for per in out["cases"].values():
        for config, answer in per.items():
            if "error" in answer:
                errors[(config, answer["error"])] = errors.get((config, answer["error"]), 0) + 1
    print(f"{len(out['cases'])} cases x {len(CONFIGS)} option sets; errors: {errors}")


if __name__ == "__main__":
    main()
