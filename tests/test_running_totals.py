"""The scorers that loop over documents (the UA scorer, the CorefUD scorer, coval) add each document's numbers
to running totals in the key's order; v8.01 adds them in Perl's hash order, for which fastscore takes the
correctly rounded sum.  A case where the two differ in the printed digits (tests/data/running_totals/README.md),
and DocStats keeping the order wherever it travels."""
import math
import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fastscore.cli import main
from fastscore.coref.metrics import METRICS
from fastscore.stats.docstats import DocStats
from tests.conftest import TESTDATA

CASE = TESTDATA / "running_totals"


@pytest.mark.parametrize("files, options, official", [
    (("key.ua", "sys.ua"), ["--format", "ua", "--output", "ua"], "ua-scorer.txt"),
    (("key.conllu", "sys.conllu"), ["--format", "conllu", "--match", "exact", "--singletons", "keep", "--output",
                                    "corefud"], "corefud-scorer.txt"),
    (("key.conll", "sys.conll"), ["--remove-nested", "--output", "coval"], "coval-scorer.txt"),
])
def test_reports_add_documents_in_the_keys_order_as_the_scorer(capsys, files, options, official):
    assert main(["coref", *[str(CASE / f) for f in files], *options]) == 0
    out = capsys.readouterr().out
    report = (CASE / official).read_text()
    if official == "coval-scorer.txt":  # what coval prints while reading comes before its report's lines
        report = report[report.index("mentions   "):]
    assert "Recall: 34.37" in out and out == report


def test_v801_totals_stay_correctly_rounded(capsys):
    assert main(["coref", str(CASE / "key.conll"), str(CASE / "sys.conll"), "--output", "json", "-m", "ceafe"]) == 0
    assert '"recall_num": 2.75,' in capsys.readouterr().out


@settings(max_examples=30, deadline=None)
@given(st.lists(st.floats(0, 10, allow_nan=False), min_size=0, max_size=12))
def test_totals_in_file_order_are_the_running_sum_wherever_the_statistics_go(values):
    registry = METRICS
    columns = tuple(dict.fromkeys(c for m in registry.values() for c in m.columns))
    k = columns.index("bcub_recall_num")
    matrix = np.zeros((len(values), len(columns)))
    matrix[:, k] = values
    names = [f"d{i}" for i in range(len(values))]
    ordered = DocStats(names, matrix, columns, registry, in_file_order=True)
    running = 0.0
    for v in values:
        running += v
    assert ordered.total()[k] == running
    assert DocStats(names, matrix, columns, registry).total()[k] == math.fsum(values)
    half = len(values) // 2
    parts = [DocStats(names[:half], matrix[:half], columns, registry, in_file_order=True),
             DocStats(names[half:], matrix[half:], columns, registry, in_file_order=True)]
    travelled = [pickle.loads(pickle.dumps(ordered)), DocStats.from_arrow(ordered.to_arrow(), registry),
                 ordered.of_metrics(["bcub"]), ordered.in_order(list(names)), DocStats.concat(parts)]
    for stats in travelled:
        assert stats.in_file_order and stats.total()[stats.columns.index("bcub_recall_num")] == running
