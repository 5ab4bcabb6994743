"""CorefUD lookups that are not one 1-to-1 alignment (issue 10: BLANC's non-coreference numerator on generated
document d11): after dependent zero matching, two key mentions can find one response mention, or two response
mentions one key mention, and the CorefUD scorer counts each lookup on its own.  The cases and the scorer's
output are in tests/data/corefud_blanc (made by scripts/make_corefud_blanc_case.py)."""
import contextlib
import io
import json

import pytest

import fastscore
from fastscore.cli import main
from fastscore.coref import corefud
from tests.conftest import TESTDATA

DATA = TESTDATA / "corefud_blanc"
EXPECTED = json.loads((DATA / "expected.json").read_text())["cases"]
PRF = ("precision_num", "precision_den", "recall_num", "recall_den")  # the scorer's order of counts


def _config(config):
    mode, singletons, zeros = config.split("-")
    return {"match": mode, "singletons": singletons, "zero_match": zeros}


@pytest.mark.parametrize("case", sorted(EXPECTED))
def test_report_matches_corefud_scorer_in_every_configuration(case):
    spec = EXPECTED[case]
    for config, result in spec["results"].items():
        c = _config(config)
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            code = main(["coref", str(DATA / spec["key"]), str(DATA / spec["response"]), "--match", c["match"],
                         "--singletons", c["singletons"], "--zero-match", c["zero_match"], "-o", "corefud"])
        assert code == 0
        assert out.getvalue() == result["stdout"], config


@pytest.mark.parametrize("case", sorted(EXPECTED))
def test_counts_are_the_scorers(case):
    spec = EXPECTED[case]
    for config, result in spec["results"].items():
        got = fastscore.score_coref(DATA / spec["key"], DATA / spec["response"], **_config(config)).to_dict()
        want = result["internal"]
        for m in ("muc", "bcub", "ceafe", "ceafm", "lea", "mor", "zero"):
            assert [got["metrics"][m][c] for c in PRF] == want[m], (config, m)
        blanc = got["metrics"]["blanc"]
        assert [[blanc[part][c] for c in PRF] for part in ("coref_links", "noncoref_links")] == want["blanc"], config


@pytest.mark.parametrize("case", sorted(EXPECTED))
def test_cases_need_the_lookups_of_each_mention(case, monkeypatch):
    """Every case goes through ``lookup_statistics`` with dependent zero matching (and only then)."""
    spec = EXPECTED[case]
    calls = []
    real = corefud.lookup_statistics
    monkeypatch.setattr(corefud, "lookup_statistics", lambda a, m: calls.append(m) or real(a, m))
    for zeros in ("dependent", "linear"):
        calls.clear()
        fastscore.score_coref(DATA / spec["key"], DATA / spec["response"], match="head", zero_match=zeros)
        assert len(calls) == (zeros == "dependent")
    fastscore.score_coref(DATA / spec["key"], DATA / spec["response"], match="head", zero_match="dependent")
    finds = calls[-1].resp_finds[0] if case == "response_side" else calls[-1].key_finds[0]
    found = finds[finds >= 0].tolist()
    assert len(found) > len(set(found)), "two mentions find one"
