"""The byte-scanning reader agrees with the plain line-by-line oracle
(tests/reference_conll.py) on real files and on random mutations of them."""
import random

import numpy as np
import pytest

from fastscore.errors import ParseError
from fastscore.formats.conll import read_conll, read_conll_tokens
from tests import reference_conll
from tests.conftest import SHARED, TESTDATA, fuzz_rounds
from tests.test_bad_input import _mutate


def _same(a, b):
    assert a.doc_names == b.doc_names
    np.testing.assert_array_equal(a.doc_tokens, b.doc_tokens)
    np.testing.assert_array_equal(a.doc_lines, b.doc_lines)
    np.testing.assert_array_equal(a.doc_offsets, b.doc_offsets)
    np.testing.assert_array_equal(a.start, b.start)
    np.testing.assert_array_equal(a.end, b.end)
    np.testing.assert_array_equal(a.cluster, b.cluster)
    assert a.cluster_labels == b.cluster_labels


REAL = sorted(SHARED.glob("gum/coref/*/conll/GUM_academic_[a-e]*.conll")) + sorted(
    SHARED.glob("litbank/coref/conll/1*.conll"))[:3] + sorted(SHARED.glob("conll-reference-tests/TC-[AMN]*"))


@pytest.mark.parametrize("path", REAL, ids=lambda p: p.name)
def test_real_files_read_like_the_oracle(path):
    _same(read_conll(path), reference_conll.read_conll(path))


@fuzz_rounds(500, 150)
def test_mutated_files_read_like_the_oracle(tmp_path, rounds):
    rng = random.Random(11)
    sources = sorted((TESTDATA / "anchors").glob("case-0[0-3]*.key")) + [
        SHARED / "gum/coref/gum/conll/GUM_academic_art.conll"]
    texts = [p.read_text() for p in sources]
    outcomes = {"same": 0, "both rejected": 0}
    for n in range(rounds):
        p = tmp_path / f"m{n}.conll"
        p.write_bytes(_mutate(rng, rng.choice(texts)).encode("utf-8", "surrogateescape"))
        try:
            expected = reference_conll.read_conll(p)
        except ParseError as exc:
            with pytest.raises(ParseError) as got:
                read_conll(p, fix_scorer_quirks=True)
            assert got.value.path == exc.path
            outcomes["both rejected"] += 1
            continue
        _same(read_conll(p, fix_scorer_quirks=True), expected)  # the oracle reads files as written
        outcomes["same"] += 1
    assert min(outcomes.values()) > rounds // 10, outcomes


@pytest.mark.parametrize("path", REAL, ids=lambda p: p.name)
def test_token_columns_of_real_files_read_like_the_oracle(path):
    assert read_conll_tokens(path) == reference_conll.read_conll_tokens(path)


def test_token_columns_of_mutated_files_read_like_the_oracle(tmp_path):
    """Sentences (blank lines, comment lines between tokens), columns split at tabs or spaces, CRs: what
    ``convert`` reads, on the files v8.01 reads as written."""
    rng = random.Random(12)
    texts = [p.read_text() for p in sorted((TESTDATA / "anchors").glob("case-0[0-3]*.key"))]
    texts.append("#begin document (d); part 000\r\nd 0 0 A (1\r\n# note\r\n\r\nd  0  1  B   1)\r\n \t\r\n\r\n"
                 "d\t0\t2\t C \t(1)\t\r\n# note\nd\t0\t3\tD\t-\n#end document\r\n")
    same = 0
    for n in range(300):
        p = tmp_path / f"m{n}.conll"
        p.write_bytes(_mutate(rng, rng.choice(texts)).encode("utf-8", "surrogateescape") if n else texts[-1].encode())
        try:
            read = read_conll(p)
        except ParseError:
            continue
        if not read.warnings:  # (the oracle reads files as written)
            assert read_conll_tokens(p) == reference_conll.read_conll_tokens(p)
            same += 1
    assert same > 50


def test_crlf_and_space_separated(tmp_path):
    p = tmp_path / "crlf.conll"
    p.write_bytes(b"#begin document (d); part 000\r\nd 0 0 A (1\r\nd  0  1  B   1)\r\n\r\nd\t0\t2\tC\t(1)\t\r\n#end document\r\n")
    t = read_conll(p, fix_scorer_quirks=True)
    assert t.doc_names == ["(d); part 000"] and t.document(0) == [[(0, 2), (2, 3)]]
    _same(t, reference_conll.read_conll(p))
    # as v8.01 reads it: inside a document it keeps the CR, so "(1)\t\r" has the last TAB field "\r" (issue 36)
    t = read_conll(p)
    assert t.document(0) == [[(0, 2)]] and "crlf.conll:5: whitespace after the last TAB" in t.warnings[0]


def test_labels_longer_than_the_numeric_fast_path(tmp_path):
    p = tmp_path / "long.conll"
    p.write_text("#begin document (x); part 000\n"
                 "d\t0\t0\tA\t(1234567890123456789012|(0001234567890123456789012\n"
                 "d\t0\t1\tB\t1234567890123456789012)\n"
                 "d\t0\t2\tC\t(1234567890123456789012)|0001234567890123456789012)\n#end document\n")
    t = read_conll(p)
    assert t.document(0) == [[(0, 2), (2, 3)], [(0, 3)]]  # 0001... and 1234... are different clusters
    assert t.cluster_labels[0] == ["1234567890123456789012", "0001234567890123456789012"]
    _same(t, reference_conll.read_conll(p))
