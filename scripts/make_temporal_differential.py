#!/usr/bin/env python3
"""Differential testing against the TempEval-3 toolkit: seeded TimeML pairs with the inputs the anchor
cases lack, and what the toolkit prints for them.

Each case is made from its own seed (``case_corpus(seed, n)``), so a test regenerates any case alone:
one to four documents of a random ``scripts/gen_timeml.py`` profile, beside which a case holds, at
random: TLINKs repeated with a conflicting relation, events with no TLINK, documents with no entity
and no TLINK, a TLINK naming an event instance or time the document lacks, an EVENT or TIMEX3 id
used twice, and a document present on one side only.

The toolkit runs as in ``scripts/make_temporal_anchors.py`` (its normaliser, then
``evaluate_entities.py`` and ``temporal_evaluation.py`` with each method).  Writes
``tests/data/temporal_differential/expected.json.gz`` (gzip without a time stamp): per case the
SHA-256 of every input file and the toolkit's outputs, exit codes and last error lines.

    python scripts/make_temporal_differential.py --toolkit DIR/tempeval3_toolkit --python2 PY27
        [--cases 200] [--seed 31] [--check]

``--check`` runs everything again and compares the bytes with the stored file.
"""
from __future__ import annotations

import argparse
import dataclasses
import gzip
import hashlib
import json
import random
import re
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from expectations import gzipped_json, parser, store_or_check  # noqa: E402
from gen_timeml import PROFILES, Profile, make_pair  # noqa: E402
from make_temporal_anchors import run_toolkit  # noqa: E402

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "temporal_differential"
EMPTY = Profile("empty", sentences=(1, 3), events=0.0, timexes=0.0)  # text only: no entity, no TLINK


def _profile(rng: random.Random, features: set[str]) -> Profile:
    p = EMPTY if "empty" in features and rng.random() < 0.3 else PROFILES[rng.choice(sorted(PROFILES))]
    return dataclasses.replace(p, conflicting=0.15 if "conflicting" in features else 0.0,
                               dangling=0.5 if "dangling" in features else 0.0,
                               duplicate_ids=0.5 if "duplicate_ids" in features else 0.0,
                               sentences=(min(p.sentences[0], 5), min(p.sentences[1], 8)))


def case_corpus(seed: int, n: int) -> dict[str, str]:
    """Case ``n``'s files: ``gold/NAME`` and ``system/NAME`` -> TimeML text."""
    rng = random.Random(seed * 100003 + n)
    features = {"conflicting"} if rng.random() < 0.6 else set()
    features |= {f for f, p in (("empty", 0.3), ("dangling", 0.06), ("duplicate_ids", 0.1), ("one_side", 0.06))
                 if rng.random() < p}
    files = {}
    for d in range(rng.randint(1, 4)):
        gold, system = make_pair(rng, _profile(rng, features))
        files[f"gold/doc{d}.tml"], files[f"system/doc{d}.tml"] = gold, system
    if "one_side" in features and len(files) > 2:
        name = rng.choice(sorted(files))
        del files[name]
    return files


def write_inputs(folder: Path, files: dict[str, str]) -> None:
    for sub in ("gold", "system"):
        (folder / sub).mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")


def digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def _without_temporary_paths(out: dict) -> dict:
    """The toolkit's messages name the temporary folder it was given: ``TMP/`` instead, for bytes that repeat."""
    return json.loads(re.sub(r"/[^\s\"]*?/te3-[^/\s\"]+/", "TMP/", json.dumps(out)))


def build(args: argparse.Namespace) -> bytes:
    expected = {"generator": f"scripts/make_temporal_differential.py --cases {args.cases} --seed {args.seed}",
                "seed": args.seed, "toolkit": "naushadzaman/tempeval3_toolkit (head)", "cases": {}}
    for n in range(args.cases):
        files = case_corpus(args.seed, n)
        with tempfile.TemporaryDirectory() as tmp:
            write_inputs(Path(tmp), files)
            out = _without_temporary_paths(run_toolkit(args.toolkit.resolve(), args.python2, Path(tmp) / "gold",
                                                       Path(tmp) / "system"))
        out["inputs"] = {k: digest(v) for k, v in sorted(files.items())}
        expected["cases"][f"case-{n:03d}"] = out
        print(n, end=" ", flush=True)
    return gzipped_json(expected)


def main() -> None:
    ap = parser(__doc__, cases=200, seed=31)
    ap.add_argument("--toolkit", type=Path, required=True, help="the tempeval3_toolkit folder")
    ap.add_argument("--python2", required=True, help="a Python 2.7 interpreter")
    args = ap.parse_args()
    data = build(args)
    target = OUT / "expected.json.gz"
    store_or_check(target, data, args.check)
    cases = json.loads(gzip.decompress(data))["cases"]
    stopped = sum(bool(c["normalizer_errors"]) for c in cases.values())
    print(f"\n{len(cases)} cases written to {target}; the normaliser stopped on {stopped}")


if __name__ == "__main__":
    main()
