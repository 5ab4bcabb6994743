"""pytest-benchmark suite for statistics (issue 3): python -m pytest -n 0 bench -m bench

Targets on the CoNLL-2012-test-sized corpus: 10,000 paired bootstrap
resamples of all metrics <= 0.5 s; 10,000 approximate-randomization trials
<= 0.5 s (both after scoring).
"""
import pytest

from fastscore import score_coref
from fastscore.api import read_conll
from fastscore.coref.metrics import SCORED, coref_f1
from fastscore.stats.resample import bootstrap_sums, permutation_sums

from .conftest import corpus

pytestmark = pytest.mark.bench


@pytest.fixture(scope="module")
def two_systems():
    key, r1, r2 = corpus("conll2012-test", responses=2)
    k = read_conll(key)
    return score_coref(k, r1).doc_stats, score_coref(k, r2).doc_stats


def _all_f1(sums):
    return [coref_f1(m, sums) for m in (*SCORED, "conll")]


def test_paired_bootstrap_10k_all_metrics(benchmark, two_systems):
    a, b = two_systems

    def run():
        sa, sb = bootstrap_sums([a.matrix, b.matrix], 10000, 1)
        return [fb - fa for fa, fb in zip(_all_f1(sa), _all_f1(sb))]

    run()
    benchmark(run)


def test_approximate_randomization_10k_all_metrics(benchmark, two_systems):
    a, b = two_systems

    def run():
        sa, sb = permutation_sums(a.matrix, b.matrix, 10000, 1)
        return [fb - fa for fa, fb in zip(_all_f1(sa), _all_f1(sb))]

    run()
    benchmark(run)
