"""The numba kernels agree with the pure-Python reference (tests/reference.py)
on random documents, including v8.01's repeated-mention rules."""
import numpy as np
from hypothesis import example, given, settings

from fastscore import score_coref
from fastscore.formats.table import MentionTable
from fastscore.coref.metrics import METRICS
from tests import reference
from tests.strategies import chains, clean_chains, corpora
from tests.conftest import COREF_INPUT_NOTES

# hypothesis draws repeats and one-sided documents
pytestmark = COREF_INPUT_NOTES

TOKENS = 8


def _score(key_docs, resp_docs):
    key = MentionTable.from_documents(key_docs, {n: TOKENS for n in key_docs})
    resp = MentionTable.from_documents(resp_docs, {n: TOKENS for n in resp_docs})
    return score_coref(key, resp, allow_repeated=True)


def _assert_agree(key_docs, resp_docs):
    result = _score(key_docs, resp_docs)
    for i, name in enumerate(result.documents):
        expected = reference.document_stats(key_docs[name], resp_docs.get(name, []))
        row = result.doc_stats.row(i)
        for metric, values in expected.items():
            got = [row[c] for c in METRICS[metric].columns]
            np.testing.assert_allclose(got, values, rtol=1e-12, atol=1e-12, err_msg=f"{name} {metric}")


@settings(max_examples=300, deadline=None)
@given(corpora(chains))
@example(({"d0": []}, {}))
@example(({"d0": [[(0, 1)]]}, {"d0": [[(0, 1)]]}))
@example(({"d0": [[(0, 1), (0, 1)], [(0, 1), (2, 3)]]}, {"d0": [[(0, 1), (2, 3), (0, 1)], [(4, 5), (4, 5)]]}))
@example(({"d0": [[(0, 1), (2, 3)], [(4, 5)]]}, {"d0": [[(0, 1), (2, 3)], [(4, 5)]]}))
def test_kernels_match_reference_with_repeats(case):
    _assert_agree(*case)


@settings(max_examples=200, deadline=None)
@given(corpora(clean_chains))
def test_kernels_match_reference_clean(case):
    _assert_agree(*case)
