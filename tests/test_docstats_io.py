"""Per-document statistics as the unit that travels (issue 13's foundation): Arrow and Parquet round trips
with their metadata checked, and shards concatenated into the totals of one file, exactly."""
from __future__ import annotations

import json
import warnings
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import fastscore
from fastscore.errors import InputError
from fastscore.coref.metrics import COREFUD_METRICS, METRICS
from fastscore.stats.docstats import DocStats

ANCHORS = Path(__file__).parent / "data" / "anchors"


def _stats() -> DocStats:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fastscore.score_coref(ANCHORS / "case-003.key", ANCHORS / "case-003.response",
                                     allow_repeated=True).doc_stats  # 6 repeats: v8.01 scores them one metric a run


def test_arrow_and_parquet_round_trip(tmp_path):
    stats = _stats()
    table = stats.to_arrow({"task": "coref"})
    info = json.loads(table.schema.metadata[b"fastscore"])
    assert info["task"] == "coref" and info["columns"] == list(stats.columns)
    back = DocStats.from_arrow(table, METRICS)
    assert back.doc_names == stats.doc_names and np.array_equal(back.matrix, stats.matrix)
    path = tmp_path / "stats.parquet"
    stats.write_parquet(path)
    again = DocStats.read_parquet(path, METRICS)
    assert np.array_equal(again.matrix, stats.matrix) and np.array_equal(again.total(), stats.total())


def test_statistics_that_do_not_fit_are_refused(tmp_path):
    import pyarrow as pa

    stats = _stats()
    table = stats.to_arrow()
    with pytest.raises(InputError, match="not of"):
        DocStats.from_arrow(table, COREFUD_METRICS)
    info = json.loads(table.schema.metadata[b"fastscore"])
    old = table.replace_schema_metadata({"fastscore": json.dumps({**info, "version": "0.0.1"})})
    with pytest.raises(InputError, match="fastscore 0.0.1"):
        DocStats.from_arrow(old, METRICS)
    with pytest.raises(InputError, match="not fastscore statistics"):
        DocStats.from_arrow(pa.table({"doc": ["a"]}), METRICS)


def test_a_document_in_two_shards_is_an_error():
    stats = _stats()
    with pytest.raises(InputError, match='is in two shards: a.parquet and b.parquet'):
        DocStats.concat([stats, stats], ["a.parquet", "b.parquet"])


@settings(max_examples=100, deadline=None)
@given(st.lists(st.lists(st.floats(0, 1e6, allow_nan=False, allow_infinity=False), min_size=3, max_size=3),
                min_size=1, max_size=60), st.data())
def test_shards_give_the_totals_of_one_file(rows, data):
    from fastscore.metrics import MetricSpec, ratio_score

    registry = {"x": MetricSpec("x", "x", ("a", "b", "c"), ratio_score("a", "b", "a", "c"), "test", False)}
    names = [f"d{i}" for i in range(len(rows))]
    whole = DocStats.from_columns(names, {c: np.array([r[k] for r in rows]) for k, c in enumerate("abc")},
                                  registry, ("a", "b", "c"))
    cuts = sorted(data.draw(st.sets(st.integers(1, max(1, len(rows) - 1)), max_size=5)))
    bounds = [0, *[c for c in cuts if c < len(rows)], len(rows)]
    shards = [DocStats(names[a:b], whole.matrix[a:b], whole.columns, registry) for a, b in zip(bounds, bounds[1:])]
    travelled = [DocStats.from_arrow(s.to_arrow(), registry) for s in shards]
    merged = DocStats.concat(travelled)
    assert merged.doc_names == names
    assert merged.total().tobytes() == whole.total().tobytes()  # the same digits, bit for bit


_VALUES = st.one_of(st.integers(-2**40, 2**40).map(float), st.floats(-1e6, 1e6, allow_nan=False),
                    st.sampled_from([2.0**52, 2.0**53 - 1, 0.1, 1e-300]))


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 5).flatmap(lambda k: st.lists(st.lists(_VALUES, min_size=k, max_size=k), max_size=30)))
def test_totals_are_the_correctly_rounded_sums(rows):
    """Whole-number columns are added by numpy, the others by fsum: every total is fsum's, whatever the mix."""
    import math

    k = len(rows[0]) if rows else 1
    matrix = np.array(rows, dtype=np.float64).reshape(len(rows), k)
    stats = DocStats([str(i) for i in range(len(rows))], matrix, tuple(f"c{i}" for i in range(k)), METRICS)
    assert stats.total().tolist() == [math.fsum(matrix[:, c].tolist()) for c in range(k)]
