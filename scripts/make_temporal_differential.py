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
    python scripts/make_temporal_differential.py --toolkit DIR/tempeval3_toolkit --python2 PY27 --quirks --cases 45

``--quirks`` (issue 36) makes ``quirk_corpus`` cases instead (the same cases, one quirk each: see ``QUIRKS``)
and writes ``expected_quirks.json.gz``.

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


# issue 36: the ways the toolkit reads inputs the cases above never hold, one class per quirk case
QUIRKS = ("stop_character", "both_sources", "attribute_text")
_STOPS = ("|", "\u00a0", "&quot;", "&lt;", "&gt;", "&apos;", "&#65;", "\u2009", "\u3000", "&amp;")
_ATTRIBUTE_TEXT = (' origin="relatedToTime"', ' origin="timeID"', ' origin="USER relatedToTime"', ' origin="USER"')


def quirk_corpus(seed: int, n: int) -> dict[str, str]:
    """Quirk case ``n``: case ``n``'s files with the quirk ``QUIRKS[n % 3]`` in one document: a character
    the normaliser stops on (or ``&amp;``, which it reads) in a line of both texts; a system TLINK given
    both ``eventInstanceID`` and ``timeID``; a system TLINK with another attribute naming an end."""
    files = case_corpus(seed, n)
    rng = random.Random(seed * 7919 + n)
    quirk = QUIRKS[n % len(QUIRKS)]
    doc = rng.choice(sorted(k.split("/", 1)[1] for k in files if k.startswith("system/")))
    gold, system = files.get(f"gold/{doc}"), files[f"system/{doc}"]
    if quirk == "stop_character" and gold is not None:
        stop = rng.choice(_STOPS)
        lines = gold[gold.index("<TEXT>"):gold.index("</TEXT>")].count("\n")
        k = rng.randrange(1, max(lines, 2))
        files[f"gold/{doc}"], files[f"system/{doc}"] = (_after_text_line(t, k, f" w{stop}x") for t in (gold, system))
    elif quirk == "both_sources":
        links = [m for m in re.finditer(r'<TLINK [^>]*eventInstanceID="[^"]*"[^>]*/>', system)]
        times = re.findall(r'<TIMEX3 tid="([^"]+)"', system)
        if links and times:
            m = rng.choice(links)
            tag = m.group().replace(" eventInstanceID=", f' timeID="{rng.choice(times)}" eventInstanceID=', 1)
            files[f"system/{doc}"] = system[:m.start()] + tag + system[m.end():]
    elif quirk == "attribute_text":
        links = list(re.finditer(r"<TLINK [^>]*?(?=\s*/>)", system))
        if links:
            m = rng.choice(links)
            files[f"system/{doc}"] = system[:m.end()] + rng.choice(_ATTRIBUTE_TEXT) + system[m.end():]
    return files


def _after_text_line(text: str, k: int, insert: str) -> str:
    """``insert`` at the end of line ``k`` of the TEXT (counted from its opening tag)."""
    start = text.index("<TEXT>")
    end = start
    for _ in range(k):
        end = text.index("\n", end + 1)
    end = text.index("\n", end + 1) if end == start else end
    return text[:end] + insert + text[end:]


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
    flag = " --quirks" if args.quirks else ""
    expected = {"generator": f"scripts/make_temporal_differential.py --cases {args.cases} --seed {args.seed}{flag}",
                "seed": args.seed, "toolkit": "naushadzaman/tempeval3_toolkit (head)", "cases": {}}
    for n in range(args.cases):
        files = (quirk_corpus if args.quirks else case_corpus)(args.seed, n)
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
    ap.add_argument("--quirks", action="store_true", help="the quirk cases (quirk_corpus): expected_quirks.json.gz")
    args = ap.parse_args()
    data = build(args)
    target = OUT / ("expected_quirks.json.gz" if args.quirks else "expected.json.gz")
    store_or_check(target, data, args.check)
    cases = json.loads(gzip.decompress(data))["cases"]
    stopped = sum(bool(c["normalizer_errors"]) for c in cases.values())
    print(f"\n{len(cases)} cases written to {target}; the normaliser stopped on {stopped}")


if __name__ == "__main__":
    main()
