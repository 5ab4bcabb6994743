#!/usr/bin/env python3
"""Generate TimeML cases and record what the TempEval-3 toolkit prints for them.

Writes ``tests/data/temporal_anchors/CASE/{gold,system}/*.tml`` (made by ``scripts/gen_timeml.py``
with each profile: closure chains, equal groups, INCLUDES nesting, cycles, boundaries (BEGINS,
ENDS, IBEFORE), BEGINS implied by other links, self-loops and duplicates, sparse and empty TLINK
sets, missing entities; plus a few hand-written cases) and
``tests/data/temporal_anchors/expected.json``: per case, the entity report and the relation report
of each method (``te3``, ``acl11``, ``implicit_in_recall``), each script's exit code and the last
line of its error output.

The toolkit's ``TE3-evaluation.py`` cannot be given a temporary folder on Linux, so its steps run
directly: ``TimeML-Normalizer.jar -a "GOLD;SYSTEM"`` (Java), then
``evaluation-entities/evaluate_entities.py`` and ``evaluation-relations/temporal_evaluation.py``
(Python 2.7) on the normalised folders, from the toolkit's folder.

    python scripts/make_temporal_anchors.py --toolkit DIR/tempeval3_toolkit --python2 PY27 [--seed 12]
"""
from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gen_timeml import HEAD, PROFILES, make_corpus, write_corpus  # noqa: E402

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "temporal_anchors"
METHODS = ("te3", "acl11", "implicit_in_recall")


def _doc(events: list[str], links: list[tuple[str, str, str]]) -> str:
    """A small hand-written document: one event per word (``e1`` ...), instances ``ei1`` ..."""
    words = " ".join(f'<EVENT eid="e{k}" class="OCCURRENCE">{w}</EVENT> x' for k, w in enumerate(events, 1))
    out = [HEAD, '<DOCID>D</DOCID>\n\n<DCT><TIMEX3 tid="t0" type="DATE" value="1998-02-06" '
           'functionInDocument="CREATION_TIME">1998-02-06</TIMEX3></DCT>\n\n<TEXT>\n', words, " .\n</TEXT>\n\n"]
    out += [f'<MAKEINSTANCE eiid="ei{k}" eventID="e{k}" tense="PAST" aspect="NONE" />\n'
            for k in range(1, len(events) + 1)]
    for n, (a, b, rel) in enumerate(links, 1):
        def ref(x, first):
            if x.startswith("t"):
                return f'{"timeID" if first else "relatedToTime"}="{x}"'
            return f'{"eventInstanceID" if first else "relatedToEventInstance"}="ei{x[1:]}"'
        out.append(f'<TLINK lid="l{n}" relType="{rel}" {ref(a, True)} {ref(b, False)} />\n')
    out.append("\n</TimeML>\n")
    return "".join(out)


WORDS = ["fell", "rose", "said", "met", "won", "cut"]
HAND = {
    # gold A BEGINS B; the system implies it (A = C, C BEGINS B): the toolkit never verifies BEGINS by closure
    "begins-implied": {"d.tml": (_doc(WORDS[:3], [("e1", "e2", "BEGINS")]),
                                 _doc(WORDS[:3], [("e1", "e3", "SIMULTANEOUS"), ("e3", "e2", "BEGINS")]))},
    # two relations on one pair, verified both ways: implicit_in_recall's weight divides by zero
    "zero-weight": {"d.tml": (_doc(WORDS[:2], [("e1", "e2", "BEFORE"), ("e1", "e2", "INCLUDES")]),
                              _doc(WORDS[:2], [("e1", "e2", "BEFORE"), ("e1", "e2", "INCLUDES")]))},
    # an implied system relation kept first, weighted into recall past 100%
    "implicit-over-100": {"d.tml": (_doc(WORDS[:3], [("e1", "e2", "BEFORE"), ("e2", "e3", "BEFORE")]),
                                    _doc(WORDS[:3], [("e1", "e3", "BEFORE"), ("e1", "e2", "BEFORE"),
                                                     ("e2", "e3", "BEFORE")]))},
    # no TLINK on either side, and a self-loop plus a duplicate
    "empty-and-self": {"a.tml": (_doc(WORDS[:2], []), _doc(WORDS[:2], [])),
                       "b.tml": (_doc(WORDS[:3], [("e1", "e1", "BEFORE"), ("e1", "e2", "AFTER"),
                                                  ("e2", "e1", "BEFORE"), ("e1", "t0", "IDENTITY")]),
                                 _doc(WORDS[:3], [("e2", "e2", "SIMULTANEOUS"), ("e2", "e1", "BEFORE"),
                                                  ("e3", "t0", "DURING"), ("t0", "e1", "AFTER")]))},
}


def run_toolkit(toolkit: Path, python2: str, gold: Path, system: Path) -> dict:
    tmp = Path(tempfile.mkdtemp(prefix="te3-"))
    try:
        shutil.copytree(gold, tmp / "gold")
        shutil.copytree(system, tmp / "system")
        norm = subprocess.run(["java", "-jar", "TimeML-Normalizer/TimeML-Normalizer.jar", "-a",
                               f"{tmp / 'gold'}/;{tmp / 'system'}/"], cwd=toolkit, capture_output=True, text=True)
        gn, sn = f"{tmp / 'gold-normalized'}/", f"{tmp / 'system-normalized'}/"
        errors = [ln for ln in norm.stderr.splitlines() if ln.strip() and not ln.startswith("Done in")]
        out = {"normalizer_errors": errors[-1:]}
        runs = {"entities": [python2, "evaluation-entities/evaluate_entities.py", gn, sn, "0"]}
        for m in METHODS:
            runs[m] = [python2, "evaluation-relations/temporal_evaluation.py", gn, sn, "0"]
            runs[m] += [] if m == "te3" else [m]
        for key, cmd in runs.items():
            p = subprocess.run(cmd, cwd=toolkit, capture_output=True, text=True)
            err = [ln for ln in p.stderr.splitlines() if ln.strip()]
            out[key] = {"stdout": p.stdout, "exit": p.returncode, "error": err[-1] if err else ""}
        return out
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def cases(seed: int) -> dict[str, dict]:
    out = {}
    for k, profile in enumerate(sorted(PROFILES)):
        for rep in range(2 if profile in ("random", "messy", "boundaries", "cycles", "mixed") else 1):
            out[f"{profile}-{rep}"] = make_corpus(seed * 1000 + 17 * k + rep, 5, profile)
    out.update(HAND)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--toolkit", type=Path, required=True, help="the tempeval3_toolkit folder")
    ap.add_argument("--python2", required=True, help="a Python 2.7 interpreter")
    ap.add_argument("--seed", type=int, default=12)
    args = ap.parse_args()
    if OUT.exists():
        shutil.rmtree(OUT)
    OUT.mkdir(parents=True)
    expected = {"generator": f"scripts/make_temporal_anchors.py --seed {args.seed}",
                "toolkit": "naushadzaman/tempeval3_toolkit (head)", "cases": {}}
    for name, corpus in cases(args.seed).items():
        write_corpus(OUT / name, corpus)
        expected["cases"][name] = run_toolkit(args.toolkit.resolve(), args.python2, OUT / name / "gold",
                                              OUT / name / "system")
        print(name, flush=True)
    (OUT / "expected.json").write_text(json.dumps(expected, indent=1, sort_keys=True) + "\n")
    print(f"{len(expected['cases'])} cases written to {OUT}")


if __name__ == "__main__":
    main()
