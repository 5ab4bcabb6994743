"""MINA against coval on 200 generated pairs with the inputs coval accepts that the first generator never
made (colliding minimum spans, repeated mentions, a mention in two clusters, unbalanced and missing parse
bits, empty documents, documents on one side only), in coval's seven configurations: every numerator
and denominator, corpus totals and per document (tests/data/mina_differential, made by
scripts/make_mina_differential.py, which also regenerates the inputs: their digests are checked)."""
import gzip
import json
import sys
import warnings
from pathlib import Path

import pytest

import fastscore
from tests.conftest import TESTDATA
from tests.test_mina_anchors import KEYWORDS, _compare

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
import make_mina_differential as generator  # noqa: E402

EXPECTED = json.loads(gzip.decompress((TESTDATA / "mina_differential" / "expected.json.gz").read_bytes()))
ABOUT = EXPECTED.pop("about")
PAIRS = sorted(EXPECTED)


@pytest.fixture(scope="module")
def pair_files(tmp_path_factory):
    made = {}

    def files(name: str) -> tuple[str, str]:
        if name not in made:
            key, resp, _ = generator.pair_texts(ABOUT["seed"], int(name.split("-")[1]))
            assert generator.sha(key) == EXPECTED[name]["key_sha256"], f"{name}: the generator changed"
            assert generator.sha(resp) == EXPECTED[name]["response_sha256"], f"{name}: the generator changed"
            folder = tmp_path_factory.mktemp(name)
            (folder / "key.conll").write_bytes(key)
            (folder / "response.conll").write_bytes(resp)
            made[name] = (str(folder / "key.conll"), str(folder / "response.conll"))
        return made[name]

    return files


def test_data_cover_what_the_issue_asks():
    assert len(PAIRS) >= 200 and ABOUT["configs"].keys() == KEYWORDS.keys()
    assert sum("scored_as" in EXPECTED[p] for p in PAIRS) >= 5  # key documents the response lacks


@pytest.mark.slow
@pytest.mark.parametrize("config", list(KEYWORDS))
@pytest.mark.parametrize("name", PAIRS)
def test_agreement_with_coval(pair_files, name, config):
    entry = EXPECTED[name]
    want = entry["coval"][config]
    key, resp = pair_files(name)
    if "error" in want:  # coval's KeyError on a key document the response lacks: scored as present and empty
        assert want["error"]["type"] == "KeyError"
        want = entry["scored_as"][config]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", fastscore.FastscoreWarning)
        stats = fastscore.score_coref(key, resp, **KEYWORDS[config]).doc_stats
    assert list(stats.doc_names) == want["docs"]
    bad = _compare(stats.sums(), want["totals"], "total")
    for k, doc in enumerate(want["docs"]):
        per = {metric: values[k] for metric, values in want["per_doc"].items()}
        bad += _compare({c: stats.column(c)[k] for c in stats.columns}, per, doc)
    assert not bad, "\n".join(bad[:20])



@pytest.mark.slow
def test_generated_pairs_have_the_features():
    """The seeded pairs hold what they are meant to (counted on the generator's documents)."""
    seen = dict.fromkeys(("missing bit", "loose brackets", "repeat in a cluster", "in two clusters",
                          "empty document", "key only", "response only"), 0)
    for name in PAIRS:
        key_docs, resp_docs = generator.pair_docs(ABOUT["seed"], int(name.split("-")[1]))
        k_names, r_names = {d.name for d in key_docs}, {d.name for d in resp_docs}
        seen["key only"] += bool(k_names - r_names)
        seen["response only"] += bool(r_names - k_names)
        for doc in key_docs:
            bits = [b for s in doc.sents for b in s.bits]
            seen["missing bit"] += "-" in bits
            seen["loose brackets"] += any(sum(b.count("(") - b.count(")") for b in s.bits) != 0 for s in doc.sents)
            for clusters in (doc.key, doc.response):
                spans = [sp for c in clusters.values() for sp in set(c)]  # each cluster's distinct spans
                seen["repeat in a cluster"] += any(len(set(c)) < len(c) for c in clusters.values())
                seen["in two clusters"] += len(set(spans)) < len(spans)
                seen["empty document"] += not clusters
    assert min(seen.values()) >= 5, seen


# ---- issue 36: a blank Python's str.split() splits at inside a key or response field (U+00A0, U+3000, ...)

BLANKS = json.loads(gzip.decompress((TESTDATA / "mina_differential" / "blanks.json.gz").read_bytes()))
BLANKS_ABOUT = BLANKS.pop("about")
BLANK_PAIRS = sorted(BLANKS)


def blank_pair(tmp_path_factory, name: str) -> tuple[str, str]:
    key, resp = generator.blank_pair_texts(BLANKS_ABOUT["seed"], int(name.split("-")[1]))
    assert generator.sha(key) == BLANKS[name]["key_sha256"], f"{name}: the generator changed"
    assert generator.sha(resp) == BLANKS[name]["response_sha256"], f"{name}: the generator changed"
    folder = tmp_path_factory.mktemp(name)
    (folder / "key.conll").write_bytes(key)
    (folder / "response.conll").write_bytes(resp)
    return str(folder / "key.conll"), str(folder / "response.conll")


def test_blank_data_cover_the_class():
    assert len(BLANK_PAIRS) >= 50 and BLANKS_ABOUT["blanks"] and BLANKS_ABOUT["configs"].keys() == KEYWORDS.keys()


@pytest.mark.slow
@pytest.mark.parametrize("name", BLANK_PAIRS)
def test_blanks_agree_with_coval(tmp_path_factory, name):
    """coval's figures, each config; a warning names the first line holding such a blank."""
    key, resp = blank_pair(tmp_path_factory, name)
    bad = []
    for config, keywords in KEYWORDS.items():
        want = BLANKS[name]["coval"][config]
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            stats = fastscore.score_coref(key, resp, **keywords).doc_stats
        told = [str(w.message) for w in caught]
        if "min_span" in config or "NP_only" in config:
            assert any("coval's line.split() splits at" in w for w in told), (config, told)
        assert list(stats.doc_names) == want["docs"]
        bad += _compare(stats.sums(), want["totals"], f"{config} total")
        for k, doc in enumerate(want["docs"]):
            per = {metric: values[k] for metric, values in want["per_doc"].items()}
            bad += _compare({c: stats.column(c)[k] for c in stats.columns}, per, f"{config} {doc}")
    assert not bad, "\n".join(bad[:20])


# ---- issue 36, the next class: the documents coval's get_doc_lines finds (marks, starts, '#' lines, CRLF)

STARTS = json.loads(gzip.decompress((TESTDATA / "mina_differential" / "starts.json.gz").read_bytes()))
STARTS_ABOUT = STARTS.pop("about")
START_PAIRS = sorted(STARTS)


def test_start_data_cover_the_class():
    kinds = {STARTS[p]["kind"] for p in START_PAIRS}
    assert len(START_PAIRS) >= 50 and kinds == set(generator.STARTS) and STARTS_ABOUT["starts"]


@pytest.mark.slow
@pytest.mark.parametrize("name", START_PAIRS)
def test_starts_agree_with_coval(tmp_path, name):
    """coval's figures; where coval reads no key document, one clear error; where it fails (a response whose
    first start a byte-order mark hides), the figures with a warning that it fails; a '#' line inside a
    document (a token to coval), a warning (the figures differ where a mention spans it)."""
    kind, key, resp = generator.start_pair_texts(STARTS_ABOUT["seed"], int(name.split("-")[1]))
    assert (generator.sha(key), generator.sha(resp)) == (STARTS[name]["key_sha256"], STARTS[name]["response_sha256"])
    (tmp_path / "key.conll").write_bytes(key)
    (tmp_path / "response.conll").write_bytes(resp)
    bad = []
    for config, keywords in KEYWORDS.items():
        want = STARTS[name]["coval"][config]
        if "error" not in want and not want["docs"]:
            with pytest.raises(fastscore.InputError, match="coval reads no document of this key"):
                fastscore.score_coref(str(tmp_path / "key.conll"), str(tmp_path / "response.conll"), **keywords)
            continue
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            stats = fastscore.score_coref(str(tmp_path / "key.conll"), str(tmp_path / "response.conll"),
                                          **keywords).doc_stats
        told = [str(w.message) for w in caught]
        if kind == "comment both":  # a token to coval, skipped here: said (figures equal unless a mention spans it)
            assert any("a '#' line inside a document" in w for w in told), told
            continue
        if "error" in want:
            assert kind == "bom response" and any("coval fails" in w for w in told), (config, want)
            continue
        assert list(stats.doc_names) == want["docs"]
        bad += _compare(stats.sums(), want["totals"], f"{config} total")
        for k, doc in enumerate(want["docs"]):
            per = {metric: values[k] for metric, values in want["per_doc"].items()}
            bad += _compare({c: stats.column(c)[k] for c in stats.columns}, per, f"{config} {doc}")
    assert not bad, "\n".join(bad[:20])
