"""The UA scorer's stored outputs (tests/data/ua_anchors, made by scripts/make_ua_anchors.py) and fastscore's
numbers for the same cases and options, for tests/test_ua.py."""
from __future__ import annotations

import functools
import gzip
import json
import sys
from pathlib import Path

from tests.conftest import TESTDATA

ANCHORS = TESTDATA / "ua_anchors" / "anchors.json.gz"
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))

# the scorer's flags -> fastscore's keywords
KEYWORDS = {"remove_singletons": {"singletons": "drop"}, "remove_split_antecedent": {"split_antecedents": "drop"},
            "min": {"match": "min"}, "keep_non_referring": {"non_referring": True}, "keep_bridging": {"bridging": True},
            "only_split_antecedent": {"only_split_antecedents": True},
            "evaluate_discourse_deixis": {"discourse_deixis": True}}
PREFIX = {"muc": "muc", "bcub": "bcub", "ceafe": "ceafe", "ceafm": "ceafm", "lea": "lea", "blancc": "blanc_coref",
          "blancn": "blanc_noncoref"}
ORDER = ("precision_num", "precision_den", "recall_num", "recall_den")


@functools.lru_cache(maxsize=1)
def anchors() -> dict:
    return json.loads(gzip.decompress(ANCHORS.read_bytes()))


def keywords(flags: list[str]) -> dict:
    out: dict = {}
    for f in flags:
        out.update(KEYWORDS[f])
    return out


def texts(name: str) -> tuple[str, str]:
    """The key and response of a stored case (generated again from its seed)."""
    from gen_ua import pair

    data = anchors()
    kind, _, n = name.partition(":")
    if kind == "edge":
        folder = ANCHORS.parent
        return (folder / f"{n}.key").read_text(), (folder / f"{n}.sys").read_text()
    if kind in ("plural", "unittest"):
        return tuple(data["plural_texts"][name])
    return pair(int(n), **data["generator"], cycle=kind == "cycle")


def write_case(name: str, folder: Path) -> tuple[str, str]:
    key, sys_ = texts(name)
    stem = folder / name.replace(":", "_")
    Path(f"{stem}.key").write_text(key)
    Path(f"{stem}.sys").write_text(sys_)
    return f"{stem}.key", f"{stem}.sys"


def differences(name: str, config: str, folder: Path) -> list[str]:
    """What fastscore does otherwise than the stored scorer on one case and option set ([] when all agrees)."""
    from fastscore.errors import FastscoreError
    from fastscore.ua.report import render
    from fastscore.ua.score import score_ua

    data = anchors()
    answer = data["cases"][name][config]
    key, sys_ = write_case(name, folder)
    only_split = "only_split_antecedent" in data["configs"][config]
    try:
        result = score_ua(key, sys_, **keywords(data["configs"][config]))
    except FastscoreError as e:
        if "error" in answer:
            return []
        return [f"fastscore refused: {e}"]
    if "error" in answer:
        return [f"the scorer failed ({answer['error']}), fastscore scored"]
    out = []
    sums = result.doc_stats.sums()
    for metric, prefix in PREFIX.items():
        numbers = answer["counts"][metric][4:] if only_split else answer["counts"][metric][:4]
        ours = [float(sums[f"{prefix}_{c}"]) for c in ORDER]
        for c, a, b in zip(ORDER, numbers, ours):
            if abs(a - b) > 1e-9 * max(1.0, abs(a)):
                out.append(f"{metric} {c}: scorer {a!r}, fastscore {b!r}")
    if render(result) != answer["report"]:
        out.append(f"report differs:\n{render(result)}\n---\n{answer['report']}")
    return out
