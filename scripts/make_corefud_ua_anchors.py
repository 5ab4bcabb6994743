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

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "data" / "corefud_ua_anchors"
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT))

from gen_corefud_ua import pair  # noqa: E402
from make_ua_anchors import arguments, scored, store  # noqa: E402

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

    a = arguments()
    with tempfile.TemporaryDirectory() as tmp:
        files = []
        for seed in range(1, a.cases + 1):
            stem = Path(tmp) / f"seed_{seed}"
            for side, text in zip(("key", "sys"), pair(seed, **GENERATOR)):
                Path(f"{stem}.{side}.conllu").write_text(text)
                Path(f"{stem}.{side}").write_text(corefud_as_ua(f"{stem}.{side}.conllu").text)
            files.append((f"seed:{seed}", Path(f"{stem}.key"), Path(f"{stem}.sys")))
        out = scored(a, files, CONFIGS, GENERATOR)
    store(out, OUT)


if __name__ == "__main__":
    main()
