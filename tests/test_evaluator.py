"""fastscore.CorefEvaluator: e2e-coref's interface with the reference scorer's numbers.

The anchor cases (tests/data/anchors, scripts/make_anchors.py) hold v8.01's TOTALS lines and coval's LEA for
random CoNLL files; here each document's clusters go to the evaluator as e2e-coref would pass them (tuples of
inclusive (start, end) mentions) and every count must be v8.01's.
"""
import json
import re
import subprocess
import sys
import warnings

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import fastscore
from fastscore import read_conll
from fastscore.errors import UsageError
from fastscore.formats.table import MentionTable
from tests.conftest import ROOT, TESTDATA
from tests.strategies import chains, corpora

ANCHORS = TESTDATA / "anchors"
EXPECTED = json.loads((ANCHORS / "expected.json").read_text())["cases"]
COUNTS = re.compile(r"\(([-\d.e+]+) / ([-\d.e+]+)\)")


def _clusters(table, i):
    return [tuple((s, e - 1) for s, e in chain) for chain in table.document(i)]


def _mention_to(clusters):
    return {m: c for c in clusters for m in c}


def _evaluator_of(case):
    spec = EXPECTED[case]
    key, response = read_conll(ANCHORS / spec["key"]), read_conll(ANCHORS / spec["response"])
    index = response.doc_index()
    ev = fastscore.CorefEvaluator()
    for i, name in enumerate(key.doc_names):
        gold = _clusters(key, i)
        predicted = _clusters(response, index[name]) if name in index else []
        ev.update(predicted, gold, _mention_to(predicted), _mention_to(gold), doc=name)
    return ev, key, response


SCORED = sorted(c for c in EXPECTED if set(read_conll(ANCHORS / EXPECTED[c]["key"]).doc_names)
                & set(read_conll(ANCHORS / EXPECTED[c]["response"]).doc_names))


def test_most_anchor_cases_are_compared():
    assert len(SCORED) >= 80


@pytest.mark.parametrize("case", SCORED)
def test_counts_are_v801s(case):
    ev, _, _ = _evaluator_of(case)
    for metric, lines in EXPECTED[case]["metrics"].items():
        (mrn, mrd), (mpn, mpd) = COUNTS.findall(lines[0])[:2]  # Identification of Mentions
        assert ev.metrics["mentions"].get_counts() == pytest.approx(tuple(map(float, (mpn, mpd, mrn, mrd))))
        (rn, rd), (pn, pd) = COUNTS.findall(lines[-1])[:2]
        if metric == "blanc":
            p, r, _ = ev.metrics["blanc"].get_prf()
            assert (r, p) == pytest.approx((float(rn), float(pn)), rel=1e-12, abs=1e-12)
        else:
            got = ev.metrics[metric].get_counts()
            assert got == pytest.approx(tuple(map(float, (pn, pd, rn, rd))), rel=1e-12, abs=1e-12), metric
    if "coval_lea" in EXPECTED[case]:
        pn, pd, rn, rd = ev.metrics["lea"].get_counts()
        assert [rn, rd, pn, pd] == pytest.approx(EXPECTED[case]["coval_lea"], rel=1e-12, abs=1e-12)


@pytest.mark.filterwarnings("ignore::fastscore.errors.FastscoreWarning")  # missing documents, repeats
@pytest.mark.parametrize("case", SCORED[:10])
def test_averages_and_result_are_the_files_scores(case):
    ev, key, response = _evaluator_of(case)
    files = fastscore.score_coref(ANCHORS / EXPECTED[case]["key"], ANCHORS / EXPECTED[case]["response"],
                                  allow_repeated=True)
    with np.errstate(all="ignore"):
        assert ev.get_f1() == pytest.approx(files.f1("conll"), rel=1e-12, abs=1e-15)
    parts = [ev.metrics[m].get_prf() for m in ("muc", "bcub", "ceafe")]
    assert ev.get_prf() == pytest.approx(tuple(sum(p[k] for p in parts) / 3 for k in range(3)))
    assert ev.get_precision() == ev.get_prf()[0] and ev.get_recall() == ev.get_prf()[1]
    mine = ev.result()
    assert np.allclose(mine.doc_stats.matrix, files.doc_stats.matrix, rtol=1e-12, atol=0)
    assert mine.documents == files.documents
    assert mine.to_dict()["metrics"] == files.to_dict()["metrics"]


def test_dicts_are_optional_and_arrays_are_accepted():
    _, key, response = _evaluator_of(SCORED[0])
    with_dicts, without, arrays = fastscore.CorefEvaluator(), fastscore.CorefEvaluator(), fastscore.CorefEvaluator()
    index = response.doc_index()
    for i, name in enumerate(key.doc_names):
        gold = _clusters(key, i)
        predicted = _clusters(response, index[name]) if name in index else []
        with_dicts.update(predicted, gold, _mention_to(predicted), _mention_to(gold))
        without.update(predicted, gold)
        as_arrays = [(np.array([m for c in cs for m in c], dtype=np.int64).reshape(-1, 2),
                      np.array([7 * k + 3 for k, c in enumerate(cs) for _ in c], dtype=np.int64))
                     for cs in (predicted, gold)]
        arrays.update(*as_arrays)
    assert with_dicts.get_prf() == without.get_prf() == arrays.get_prf()
    for m in ("muc", "bcub", "ceafe", "ceafm", "lea", "blanc", "mentions"):
        assert with_dicts.metrics[m].get_prf() == arrays.metrics[m].get_prf(), m


def test_singletons_are_kept_as_v801_keeps_them():
    """e2e-coref's B-cubed and CEAFe skip clusters of one mention; v8.01 (and fastscore) count them."""
    ev = fastscore.CorefEvaluator()
    ev.update([((1, 1), (2, 2))], [((0, 0),), ((1, 1), (2, 2))])
    pn, pd, rn, rd = ev.metrics["bcub"].get_counts()
    assert (rn, rd, pn, pd) == (2, 3, 2, 2)  # e2e-coref's own b_cubed: recall 2 / 2
    assert ev.metrics["ceafe"].get_counts() == (1, 1, 1, 2)  # e2e-coref's: the same here (gold singletons kept)


def test_reset_and_update_again():
    ev = fastscore.CorefEvaluator()
    ev.update([((0, 1), (3, 3))], [((0, 1), (3, 3))])
    assert ev.get_f1() == 1.0
    ev.update([], [((5, 5), (7, 8))])
    assert ev.get_f1() < 1.0 and len(ev) == 2
    ev.reset()
    assert len(ev) == 0
    with pytest.raises(UsageError, match="no document"):
        ev.get_f1()
    ev.update([((0, 0), (2, 2))], [((0, 0), (2, 2))])
    assert ev.get_prf() == (1.0, 1.0, 1.0)


def test_result_bootstrap_and_tables():
    ev = fastscore.CorefEvaluator()
    rng = np.random.default_rng(0)
    for d in range(30):
        spans = np.sort(rng.integers(0, 40, size=(12, 2)), axis=1)
        ev.update((spans, rng.integers(0, 4, 12)), (spans, rng.integers(0, 3, 12)), doc=f"doc{d}")
    result = fastscore.bootstrap(ev.result(), 200, seed=1)
    table = result.score_table(per_doc=True)
    assert table.num_rows == (1 + len(result.metrics)) * 31  # the mentions row, then every metric
    rows = table.to_pylist()
    conll = next(r for r in rows if r["document"] is None and r["metric"] == "conll")
    assert conll["f1"] == pytest.approx(ev.get_f1()) and conll["ci_low"] <= conll["f1"] <= conll["ci_high"]
    assert conll["recall"] is None
    doc_muc = next(r for r in rows if r["document"] == "doc3" and r["metric"] == "muc")
    assert doc_muc["f1"] == pytest.approx(result.document("doc3")["metrics"]["muc"]["f1"]) and doc_muc["ci_low"] is None
    pd = pytest.importorskip("pandas")
    frame = result.to_pandas()
    assert isinstance(frame, pd.DataFrame) and list(frame["metric"]) == ["mentions", *result.metrics]


@pytest.mark.parametrize("predicted, message", [
    ([((0, 1, 2),)], r"\(start, end\) pair"),
    ([((3, 1),)], "not a span"),
    ([(("a", "b"),)], "integers"),
    ("(0, 1)", "sequence of clusters"),
    ((np.zeros((2, 3), dtype=np.int64), np.zeros(2, dtype=np.int64)), "shape"),
    ([((0,),), ((1, 2, 3),)], r"\(start, end\) pair"),  # the coordinates add up to two pairs
    ([({0: 1, 2: 3},)], r"\(start, end\) pair"),  # a dict's keys are no offsets
    ([((0, 2**31),)], "not a span"),  # beyond the engine's int32 offsets: no wrap, no crash
    ([((2**63 - 1, 2**63 - 1),)], "not a span"),
    ((np.array([[0, 2**40]]), np.array([0])), "not a span"),
])
def test_bad_clusters_are_clear_errors(predicted, message):
    ev = fastscore.CorefEvaluator()
    with pytest.raises(UsageError, match=message):
        ev.update(predicted, [((0, 0),)])
        ev.get_f1()


def test_adding_documents_imports_no_numba():
    code = ("import sys, fastscore\n"
            "ev = fastscore.CorefEvaluator()\n"
            "ev.update([((0, 1), (3, 3))], [((0, 1),)], {}, {})\n"
            "assert 'numba' not in sys.modules, 'numba imported'\n")
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True)


def test_a_refused_update_adds_nothing_to_either_side():
    """A gold side refused after the predicted side was read: the next documents still pair up."""
    e = fastscore.CorefEvaluator()
    with pytest.raises(fastscore.UsageError):
        e.update([[(0, 1), (3, 3)]], None)
    e.update([[(0, 1), (3, 3)]], [[(0, 1), (3, 3)]])
    assert len(e) == 1 and e.get_f1() == 1.0


def test_offsets_that_are_not_integers_are_refused_not_truncated():
    e = fastscore.CorefEvaluator()
    e.update([[(0.7, 1.9), (3, 3)]], [[(0, 1), (3, 3)]])
    with pytest.raises(fastscore.UsageError, match="must be integers"):
        e.get_f1()


def _as_e2e(chains):
    """Chains with exclusive ends (tests.strategies) as e2e-coref's clusters: inclusive ends, tuples."""
    return [tuple((s, e - 1) for s, e in chain) for chain in chains]


def _as_arrays(chains):
    spans = np.array([(s, e - 1) for chain in chains for s, e in chain], dtype=np.int64).reshape(-1, 2)
    ids = np.array([5 * k + 1 for k, chain in enumerate(chains) for _ in chain], dtype=np.int64)
    return spans, ids


@settings(max_examples=100, deadline=None)
@given(corpora(chains, max_docs=6), st.integers(1, 6), st.sets(st.integers(0, 5)))
def test_documents_read_at_once_are_scored_as_the_engine_scores_tables(docs, scored_after, as_arrays):
    """Documents kept by update and read together (some given as arrays, a score asked for midway) have the
    statistics score_coref gives the same documents as tables, row for row (repeated spans included)."""
    key_docs, resp_docs = docs
    ev = fastscore.CorefEvaluator()
    for d, name in enumerate(key_docs):
        if d == scored_after:
            ev.result()  # reads the documents so far
        gold, predicted = key_docs[name], resp_docs.get(name, [])
        if d in as_arrays:
            ev.update(_as_arrays(predicted), _as_arrays(gold), doc=name)
        else:
            ev.update(_as_e2e(predicted), list(_as_e2e(gold)), doc=name)
    tables = [MentionTable.from_documents(side, {n: 8 for n in side}) for side in (key_docs, resp_docs)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", fastscore.FastscoreWarning)
        files = fastscore.score_coref(*tables, allow_repeated=True)
    mine = ev.result()
    assert mine.documents == files.documents
    np.testing.assert_allclose(mine.doc_stats.matrix, files.doc_stats.matrix, rtol=1e-12, atol=0)


def test_a_malformed_document_is_named_when_the_clusters_are_read():
    ev = fastscore.CorefEvaluator()
    ev.update([((0, 1),)], [((0, 1),)])
    ev.update([((0, 1), (2,))], [((0, 1),)])
    with pytest.raises(UsageError, match=r"predicted \(document 1\): .*\(start, end\) pair"):
        ev.get_f1()
    ev.reset()
    ev.update([((0, 1),)], [((0, 1),)])
    ev.update((np.array([[0, 1]]), np.array([0])), (np.array([[0, 1]]), np.array([0])))
    bad = [[(0, 1), (2.0, 3)]]
    ev.update([[(0, 1), (2, 3)]], bad)
    for _ in range(2):  # asked again: the same error
        with pytest.raises(UsageError, match=r"gold \(document 2\): mention offsets must be integers"):
            ev.get_f1()
    bad[0][1] = (2, 5)  # mended before the next score: read once, as mended (nothing read twice)
    same = fastscore.CorefEvaluator()
    for predicted, gold in (([((0, 1),)], [((0, 1),)]), ([((0, 1),)], [((0, 1),)]), ([[(0, 1), (2, 3)]], bad)):
        same.update(predicted, gold)
    assert ev.result().doc_stats.matrix.tolist() == same.result().doc_stats.matrix.tolist()
    ev.reset()
    ev.update([((0, 1),)], [((0, 1),)])
    ev.update([[(0, 1), (2, 3)]], [[(0, 1), (2.0, 3)]])
    with pytest.raises(UsageError, match=r"gold \(document 1\): mention offsets must be integers"):
        ev.get_f1()


def test_a_span_mended_after_its_error_is_read_as_mended():
    gold = [[[0, 1], [2, 3]]]
    gold[0][0][0] = 5
    ev = fastscore.CorefEvaluator()
    ev.update([[(0, 1), (2, 3)]], gold)
    with pytest.raises(UsageError, match=r"gold: document 0: mention \(5, 1\) is not a span"):
        ev.get_f1()
    gold[0][0][0] = 0
    assert ev.get_f1() == 1.0


def test_clusters_as_lists_generators_and_numpy_integers():
    ev, same = fastscore.CorefEvaluator(), fastscore.CorefEvaluator()
    ev.update([[[0, 1], [3, 3]]], (c for c in [((0, 1), (3, 3))]))
    ev.update([[(np.int64(4), np.int32(5))]], [[np.array([4, 5])]])
    same.update([((0, 1), (3, 3))], [((0, 1), (3, 3))])
    same.update([((4, 5),)], [((4, 5),)])
    assert ev.result().doc_stats.matrix.tolist() == same.result().doc_stats.matrix.tolist()


def test_a_cluster_that_is_a_generator_is_a_clear_error():
    ev = fastscore.CorefEvaluator()
    ev.update([(m for m in ((0, 1), (3, 3)))], [((0, 1),)])
    with pytest.raises(UsageError, match=r"predicted \(document 0\): every cluster must be a sequence"):
        ev.get_f1()
