"""fastscore.coval.compute against coval called as Hugging Face evaluate's coval metric calls it.

tests/data/coval_compute (scripts/make_coval_compute_anchors.py): generated evaluate inputs (clusters across
examples, '#' lines, examples of different lengths) with coval's flat output, per configuration without parse
bits.  tests/data/mina_anchors (scripts/make_mina_anchors.py): coval's per-document numbers with min_span,
NP_only, remove_nested and without singletons; each document's sentences as examples are one evaluate call.
"""
import gzip
import json

import pytest

import fastscore
from fastscore.errors import UsageError
from tests.conftest import TESTDATA

CASES = json.loads(gzip.decompress((TESTDATA / "coval_compute" / "cases.json.gz").read_bytes()))
MINA = TESTDATA / "mina_anchors"
COVAL_NAMES = {"mentions": "mentions", "muc": "muc", "bcub": "b_cubed", "ceafe": "ceafe", "lea": "lea"}


def test_output_has_evaluate_keys_in_its_order():
    case = CASES["cases"][0]
    got = fastscore.coval.compute(case["predictions"], case["references"])
    assert list(got) == [f"{m}/{k}" for m in COVAL_NAMES for k in ("recall", "precision", "f1")] + ["conll_score"]


@pytest.mark.parametrize("config", sorted(CASES["configs"]))
def test_generated_cases_match_coval(config):
    options = CASES["configs"][config]
    compared = 0
    for case in CASES["cases"]:
        expected = case["results"][config]
        assert "error" not in expected  # the generator makes inputs coval scores
        got = fastscore.coval.compute(case["predictions"], case["references"], **options)
        assert got.keys() == expected.keys()
        for k, v in expected.items():
            assert got[k] == pytest.approx(v, rel=1e-12, abs=1e-12), (case["name"], k)
        compared += 1
    assert compared == len(CASES["cases"]) >= 50


def _documents(path):
    """{document: [sentence lines]} of a gzipped CoNLL-2012 file."""
    docs, sentence, name = {}, [], None
    for line in gzip.open(path, "rt", encoding="utf-8"):
        line = line.rstrip("\n")
        if line.startswith("#begin document "):
            name = line[len("#begin document "):]
            docs[name] = []
        elif not line.strip() or line.startswith("#end document"):
            if sentence:
                docs[name].append(sentence)
            sentence = []
        else:
            sentence.append(line)
    return docs


def _mina_cases(n=None):
    cases = sorted(p.name[:-5] for p in MINA.glob("case-*.json"))
    return cases[:n] if n else cases


def _check_mina_case(case):
    spec = json.loads((MINA / f"{case}.json").read_text())
    key, resp = _documents(MINA / f"{case}.key.gz"), _documents(MINA / f"{case}.response.gz")
    compared = 0
    for config, rec in spec.items():
        flags = set(config.split("+"))
        options = dict(min_span="min_span" in flags, NP_only="NP_only" in flags,
                       remove_nested="remove_nested" in flags, keep_singletons="remove_singletons" not in flags)
        per_doc = rec.get("per_doc") or {m: [rec["totals"][m]] for m in rec["totals"]}
        for i, doc in enumerate(rec["docs"]):
            got = fastscore.coval.compute(resp[doc], key[doc], **options)
            for name, coval_name in COVAL_NAMES.items():
                pn, pd, rn, rd = per_doc[coval_name][i]
                assert got[f"{name}/recall"] == pytest.approx(rn / rd if rn else 0, rel=1e-12, abs=1e-12)
                assert got[f"{name}/precision"] == pytest.approx(pn / pd if pn else 0, rel=1e-12, abs=1e-12)
            compared += 1
    assert compared


@pytest.mark.parametrize("case", _mina_cases(3))
def test_parse_options_match_coval_per_document(case):
    _check_mina_case(case)


@pytest.mark.slow
@pytest.mark.parametrize("case", _mina_cases()[3:])
def test_parse_options_match_coval_per_document_all(case):
    _check_mina_case(case)


def test_examples_are_sentences_of_one_document():
    """A label names one entity across examples: the same mentions split into two examples still corefer."""
    line = "d 0 {} w NN * - {}"
    together = [[line.format(0, "(1)"), line.format(1, "(1)")]]
    apart = [[line.format(0, "(1)")], [line.format(0, "(1)")]]
    assert fastscore.coval.compute(together, together)["muc/recall"] == 1.0
    got = fastscore.coval.compute(apart, [[line.format(0, "(1)")], [line.format(0, "(2)")]])
    assert got["muc/recall"] == 0.0 and got["muc/precision"] == 0.0  # the key's chain is split across examples


@pytest.mark.parametrize("bad, message", [
    ([["d 0 0 w NN * - (1)", "  "]], "blank line"),
    ("d 0 0 w NN * - (1)", "list of examples"),
    ([[3]], "a line is a string"),
])
def test_bad_inputs_are_clear_errors(bad, message):
    with pytest.raises(UsageError, match=message):
        fastscore.coval.compute(bad, bad)


def test_a_block_of_lines_beside_a_comment_line_is_refused():
    """Two lines in one string and a '#' line beside it add up to the example's count of token lines: the
    prediction is still refused, as the line-by-line reading refuses it."""
    line = "d 0 {} w NN * - {}"
    a, b, c = line.format(0, "(1)"), line.format(1, "(1)"), line.format(2, "-")
    with pytest.raises(UsageError, match="block of lines"):
        fastscore.coval.compute([[a + "\n" + b, "#x", c]], [[a, b, c]])


def test_parse_options_refuse_comment_lines():
    lines = [["#begin document (x); part 000", "d 0 0 w NN (TOP(NP*)) - (1)"]]
    with pytest.raises(UsageError, match="'#' lines"):
        fastscore.coval.compute(lines, lines, min_span=True)


def test_result_is_a_coref_result():
    case = CASES["cases"][1]
    result = fastscore.coval.score(case["predictions"], case["references"])
    assert result.f1("muc") == pytest.approx(case["results"]["plain"]["muc/f1"], rel=1e-12)
    assert result.score_table().column("metric").to_pylist()[:4] == ["mentions", "muc", "bcub", "ceafm"]


def test_compute_documents_is_compute_of_each_document():
    cases = CASES["cases"]
    got = fastscore.coval.compute_documents([c["predictions"] for c in cases], [c["references"] for c in cases],
                                            keep_singletons=False)
    assert len(got) == len(cases)
    for case, mine in zip(cases, got):
        expected = case["results"]["drop_singletons"]
        assert mine == pytest.approx(expected, rel=1e-12, abs=1e-12), case["name"]


def test_no_documents_give_no_outputs():
    from fastscore import coval

    assert coval.compute_documents([], []) == []
