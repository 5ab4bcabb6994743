"""pytest-benchmark suite: python -m pytest -n 0 bench -m bench

Timings exclude compilation (one call before timing).  Targets (issue 2):
all metrics <= 50 ms on the CoNLL-2012-test-sized corpus, <= 1 s on one
document of 5,000 mentions.
"""
import pytest

from fastscore import score_coref
from fastscore.api import read_conll

pytestmark = pytest.mark.bench


@pytest.fixture(scope="module")
def tables(corpus_files):
    key, resp = corpus_files
    return read_conll(key), read_conll(resp)


def test_score_all_metrics(benchmark, tables):
    key, resp = tables
    score_coref(key, resp)  # compile / load the cache first
    result = benchmark(score_coref, key, resp)
    assert 0 < result.f1("conll") < 1


def test_read_key_and_response(benchmark, corpus_files):
    key, resp = corpus_files
    benchmark(lambda: (read_conll(key), read_conll(resp)))
