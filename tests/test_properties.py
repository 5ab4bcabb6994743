"""Properties every metric must have (iterating over the registry)."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fastscore import score_coref
from fastscore.formats.table import MentionTable
from fastscore.coref.metrics import METRICS, SCORED
from fastscore.metrics import layout_of
from fastscore.nugget.metrics import SEQUENCING_METRICS, WITH_COREF
from tests.strategies import clean_chains, corpora
from tests.conftest import COREF_INPUT_NOTES

# hypothesis draws one-sided documents
pytestmark = COREF_INPUT_NOTES


def table(docs):
    return MentionTable.from_documents(docs, {n: 8 for n in docs})


@settings(max_examples=100, deadline=None)
@given(corpora(clean_chains))
def test_identical_key_and_response_score_one(case):
    key, _ = case
    if not any(len(c) > 1 for chains in key.values() for c in chains):
        return  # MUC needs a key link to be defined
    scores = score_coref(table(key), table(key)).scores()
    for name in SCORED:
        assert scores["metrics"][name]["f1"] == 1.0, name
    assert scores["mentions"]["f1"] == 1.0


@settings(max_examples=100, deadline=None)
@given(corpora(clean_chains), st.randoms(use_true_random=False))
def test_invariant_under_renaming_clusters_and_reordering_documents(case, rnd):
    key, resp = case
    base = score_coref(table(key), table(resp)).scores()
    shuffled_key = {}
    names = list(key)
    rnd.shuffle(names)
    for name in names:
        chains = [list(c) for c in key[name]]
        rnd.shuffle(chains)
        shuffled_key[name] = chains
    shuffled_resp = {n: list(reversed(resp[n])) for n in reversed(list(resp))}
    other = score_coref(table(shuffled_key), table(shuffled_resp)).scores()
    for name in (*SCORED, "conll"):
        assert np.isclose(other["metrics"][name]["f1"], base["metrics"][name]["f1"], rtol=0, atol=1e-12), name


@settings(max_examples=60, deadline=None)
@given(corpora(clean_chains))
def test_per_document_rows_equal_single_document_runs(case):
    key, resp = case
    full = score_coref(table(key), table(resp))
    for i, name in enumerate(full.documents):
        alone = score_coref(table(key), table(resp), doc=name)
        np.testing.assert_allclose(alone.doc_stats.matrix[0], full.doc_stats.matrix[i], rtol=0, atol=1e-12)
    np.testing.assert_allclose(full.doc_stats.matrix.sum(axis=0),
                               [float(v) for v in full.doc_stats.sums().values()])


REGISTRIES = {"coref": METRICS, "nugget": {**WITH_COREF, **SEQUENCING_METRICS}}


@pytest.mark.parametrize("name", REGISTRIES)
def test_every_metric_reads_exactly_its_declared_columns(name):
    """A metric's declared columns are what its score function reads: changing any one of them
    changes the score, changing any other column does not (so statistics, bootstrap and Arrow
    export can rely on the declaration)."""
    registry = REGISTRIES[name]
    layout = layout_of(registry)
    rng = np.random.default_rng(5)
    base = {c: float(rng.integers(5, 50)) for c in layout}
    for spec in registry.values():
        assert spec.description, spec.name
        before = spec.score(base)
        read = set()
        for c in layout:
            changed = dict(base, **{c: base[c] * 1.7 + 3})
            after = spec.score(changed)
            if any(not np.isclose(after[k], before[k], rtol=0, atol=1e-15) for k in before):
                read.add(c)
        assert read == set(spec.columns), spec.name


def test_scored_statistics_follow_the_registry_layout():
    key = {"d": [[(0, 1), (2, 3)], [(4, 5)]]}
    stats = score_coref(table(key), table(key)).doc_stats
    assert stats.columns == layout_of(METRICS) and len(set(stats.columns)) == len(stats.columns)
    for spec in METRICS.values():
        for c in spec.columns:  # laid out by name: the column holds what its name says
            assert stats.column(c)[0] == stats.row(0)[c]
    assert stats.column("muc_recall_den")[0] == 1 and stats.column("mentions_recall_den")[0] == 3


@settings(max_examples=60, deadline=None)
@given(corpora(clean_chains))
def test_dropping_singletons_equals_scoring_without_them(case):
    key, resp = case
    dropped = score_coref(table(key), table(resp), singletons="drop")
    strip = lambda docs: {n: [c for c in chains if len(c) > 1] for n, chains in docs.items()}
    manual = score_coref(table(strip(key)), table(strip(resp)))
    np.testing.assert_array_equal(dropped.doc_stats.matrix, manual.doc_stats.matrix)
