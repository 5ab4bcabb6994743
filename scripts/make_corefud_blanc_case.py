#!/usr/bin/env python3
"""Write the CorefUD lookup cases (issue 10, BLANC non-coreference numerator) and record what the official
CorefUD scorer prints for them.

The CorefUD scorer finds the counterpart of a mention through a dictionary of the non-identical alignment
pairs kept both ways (key -> response, then response -> key, the second overwriting the first for equal
mentions).  When dependent zero matching pairs equal zeros across positions, two key mentions can find one
response mention (or two response mentions one key mention); each is then counted on its own.  These
cases are the smallest documents that show it: one sentence with three empty nodes whose DEPS the response
rotates, so that the zero pass pairs each key zero with a response zero at another node, and a second
sentence that gives every entity a second mention (singletons are dropped by default).

* ``key_side``: two key zeros of different entities find one response zero (BLANC non-coreference
  numerator, B-cubed recall); the pattern found in the generated document d11
  (``bench/corefud_side_by_side.py --docs 20 --sentences 3000``);
* ``key_side_one_entity``: the same with both key zeros in one entity (BLANC coreference numerator);
* ``response_side``: two response zeros find one key zero (B-cubed precision).

Writes ``tests/data/corefud_blanc/``: ``cases/NAME.key.conllu``, ``cases/NAME.response.conllu`` and
``expected.json`` (the layout of ``tests/data/corefud_anchors/expected.json``: per case and configuration
the scorer's command, exit code, stdout and, from its own modules, the raw counts).  Get ufal/corefud-scorer
(v1.2, commit 4fd7b0e) and a virtual environment with its requirements, then:

    python scripts/make_corefud_blanc_case.py --scorer DIR/corefud-scorer.py --python VENV/bin/python [--check]

The same scorer gives the same bytes; ``--check`` compares with the stored data instead of writing.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import make_corefud_anchors as anchors

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "data" / "corefud_blanc"
HEADER = "# global.Entity = eid-etype-head-other-infstat-minspan-identity"


def _document(empty: list[tuple[str, str]], mary: str, second: list[str]) -> str:
    """Sentence 1: 'John saw _ _ _ Mary' with empty nodes 2.1-2.3 (DEPS, MISC given); sentence 2: 'He met
    her and them' with the MISC of He, her and them given."""
    lines = ["# newdoc id = doc1", HEADER, "# sent_id = s1", "# text = John saw Mary",
             "1\tJohn\tJohn\tPROPN\t_\t_\t2\tnsubj\t2:nsubj\t_",
             "2\tsaw\tsee\tVERB\t_\t_\t0\troot\t0:root\t_"]
    for n, (deps, misc) in enumerate(empty, 1):
        lines.append(f"2.{n}\t_\t_\tPRON\t_\t_\t_\t_\t{deps}\t{misc}")
    lines += [f"3\tMary\tMary\tPROPN\t_\t_\t2\tobj\t2:obj\t{mary}", "",
              "# sent_id = s2", "# text = He met her and them",
              f"1\tHe\the\tPRON\t_\t_\t2\tnsubj\t2:nsubj\t{second[0]}",
              "2\tmet\tmeet\tVERB\t_\t_\t0\troot\t0:root\t_",
              f"3\ther\tshe\tPRON\t_\t_\t2\tobj\t2:obj\t{second[1]}",
              "4\tand\tand\tCCONJ\t_\t_\t5\tcc\t5:cc\t_",
              f"5\tthem\tthey\tPRON\t_\t_\t3\tconj\t3:conj\t{second[2]}", "", ""]
    return "\n".join(lines)


def _e(eid: str) -> str:
    return f"Entity=({eid}-person-1)"


SECOND = [_e("e1"), _e("e2"), _e("e3")]

CASES = {
    # key zeros 2.1 (obj), 2.2 (iobj), 2.3 (nsubj); the response's 2.1 is nsubj, 2.2 obj, 2.3 iobj, so the zero
    # pass pairs key 2.3 with response 2.1, key 2.1 with response 2.2-3, key 2.2 with response 2.3: key 2.1
    # finds (through the dictionary) key 2.3 = response 2.3, and key 2.2 finds response 2.3 too
    "key_side": {
        "description": "two key zeros of different entities find one response zero (BLANC non-coreference "
                       "links, B-cubed recall); the pattern of generated document d11",
        "key": _document([("2:obj", _e("e1")), ("2:iobj", _e("e2")), ("2:nsubj", _e("e3"))], "_", SECOND),
        "response": _document([("2:nsubj", _e("e2")), ("2:obj", "Entity=(e3-person-1"), ("2:iobj", _e("e1"))],
                              "Entity=e3)", SECOND),
    },
    "key_side_one_entity": {
        "description": "two key zeros of one entity find one response zero (BLANC coreference links)",
        "key": _document([("2:obj", _e("e1")), ("2:iobj", _e("e1")), ("2:nsubj", _e("e3"))], "_",
                         [_e("e2"), _e("e2"), _e("e3")]),
        "response": _document([("2:nsubj", _e("e2")), ("2:obj", "Entity=(e3-person-1"), ("2:iobj", _e("e1"))],
                              "Entity=e3)", SECOND),
    },
    # key zeros 2.1 (obj), 2.2 (iobj); response zeros 2.1 (nsubj), 2.2 (obj), 2.3 (iobj): the zero pass pairs
    # key 2.1 with response 2.2 and key 2.2 with response 2.3; response 2.1 stays unpaired and finds (through
    # key 2.1's entry) response 2.2 = key 2.2, which response 2.3 finds too
    "response_side": {
        "description": "two response zeros find one key zero (B-cubed precision)",
        "key": _document([("2:obj", _e("e1")), ("2:iobj", _e("e2")), ("2:nsubj", "_")], _e("e3"), SECOND),
        "response": _document([("2:nsubj", _e("e1")), ("2:obj", _e("e2")), ("2:iobj", _e("e3"))], "_", SECOND),
    },
}


def build(out: Path, scorer: str, python: str) -> None:
    cases_dir = out / "cases"
    cases_dir.mkdir(parents=True)
    scorer = str(Path(scorer).resolve())
    expected = {"scorer": {"repository": anchors.SCORER_REPO, "commit": anchors.SCORER_COMMIT,
                           "sha256": anchors.sha256_tree(Path(scorer).parent)},
                "generator": "python scripts/make_corefud_blanc_case.py --scorer DIR/corefud-scorer.py "
                             "--python VENV/bin/python",
                "cases": {}}
    cfgs = anchors.configs()
    for name, spec in CASES.items():
        key, resp = f"cases/{name}.key.conllu", f"cases/{name}.response.conllu"
        (out / key).write_text(spec["key"])
        (out / resp).write_text(spec["response"])
        rc, stdout, err = anchors.run([python, "-c", anchors.HARNESS, str(Path(scorer).parent), key, resp], out)
        if rc != 0:
            raise SystemExit(f"{name}: the scorer's modules failed: {anchors.tail(err)}")
        results = anchors.score_case(python, scorer, out, key, resp, cfgs, json.loads(stdout))
        expected["cases"][name] = {"description": spec["description"], "key": key, "response": resp,
                                   "results": results}
    (out / "expected.json").write_text(anchors.dumps(expected, 4) + "\n")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scorer", required=True, help="path to corefud-scorer.py")
    ap.add_argument("--python", required=True, help="Python with udapi, numpy and scipy")
    ap.add_argument("--out", default=str(OUT))
    ap.add_argument("--check", action="store_true", help="regenerate into a temporary directory and compare")
    a = ap.parse_args()
    return anchors.write_or_check(Path(a.out), lambda new: build(new, a.scorer, a.python), a.check)


if __name__ == "__main__":
    sys.exit(main())
