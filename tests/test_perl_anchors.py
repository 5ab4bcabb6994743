"""Agreement with the reference scorers run locally on generated cases.

tests/data/anchors holds random CoNLL cases made by scripts/make_anchors.py
and what the CoNLL reference scorer v8.01 printed for them (TOTALS lines of
every metric, the full verbose report of single-document cases) and coval's
exact LEA numerators and denominators.
"""
import json
import re

import pytest

from fastscore import score_coref
from fastscore.report import perl
from tests.conftest import TESTDATA

ANCHORS = TESTDATA / "anchors"
EXPECTED = json.loads((ANCHORS / "expected.json").read_text())["cases"]


def _score(case, metrics=None):
    spec = EXPECTED[case]
    return score_coref(ANCHORS / spec["key"], ANCHORS / spec["response"], metrics, allow_repeated=True)


@pytest.mark.parametrize("case", sorted(EXPECTED))
def test_totals_lines_match_v801_to_the_digit(case):
    for metric, lines in EXPECTED[case]["metrics"].items():
        report = perl.render(_score(case, [metric]), per_doc=False)
        tail = report.split("====== TOTALS =======\n", 1)[1]
        got = [ln for ln in tail.splitlines() if ln and not ln.startswith("-----")]
        assert got == lines, metric


def _blocks(report: str) -> tuple[list[str], str]:
    """Per-document blocks (sorted: v8.01 prints documents in hash order) and the totals."""
    body, totals = report.split("\n====== TOTALS =======\n", 1)
    parts = re.split(r"(?m)^(?=====> )", body)
    head, parts = parts[0], parts[1:]
    blocks = ["".join(parts[k:k + 2]) for k in range(0, len(parts), 2)]  # key dump + response dump and scores
    return sorted(blocks), head + totals


@pytest.mark.parametrize("case", sorted(c for c in EXPECTED if "verbose" in EXPECTED[c]))
def test_verbose_report_matches_v801_per_document(case):
    for metric, text in EXPECTED[case]["verbose"].items():
        report = perl.render(_score(case, [metric]), per_doc=True).split("\n", 1)[1]
        assert _blocks(report) == _blocks(text), metric


@pytest.mark.parametrize("case", sorted(c for c in EXPECTED if "coval_lea" in EXPECTED[c]))
def test_lea_matches_coval(case):
    lea = _score(case).scores()["metrics"]["lea"]
    got = [lea["recall_num"], lea["recall_den"], lea["precision_num"], lea["precision_den"]]
    assert got == pytest.approx(EXPECTED[case]["coval_lea"], rel=1e-12, abs=1e-12)
