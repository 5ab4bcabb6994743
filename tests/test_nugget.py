"""Event nuggets: kernel against the oracle, validation rules, options, interfaces."""
import json
import os
import random
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import fastscore
from fastscore.cli import main
from fastscore.errors import FastscoreError, FastscoreWarning, ParseError, UsageError
from fastscore.kernels.nugget import mappings
from tests import reference_nugget
from tests.conftest import NUGGET_INPUT_NOTES, SHARED, TESTDATA, fuzz_rounds
from tests.test_bad_input import _mutate

# the generated TBF corpora hold every defect EvmEval tolerates
pytestmark = NUGGET_INPUT_NOTES

mention = st.tuples(st.sets(st.integers(0, 8), min_size=0, max_size=4), st.sampled_from([None, 0, 1]),
                    st.sampled_from([None, 0, 1]))


def _arrays(side, annotated_any: bool):
    off, vals, lens, typ, rea, typ_any, rea_any = [0], [], [], [], [], [], []
    for ids, t, r in side:
        vals += sorted(ids)
        off.append(len(vals))
        lens.append(len(ids))
        typ.append(-1 if t is None else t)
        rea.append(-1 if r is None else r)
        typ_any.append(annotated_any and t is None)
        rea_any.append(annotated_any and r is None)
    return off, vals, lens, typ, rea, typ_any, rea_any


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.lists(mention, max_size=6), st.lists(mention, max_size=6)), min_size=1, max_size=3))
def test_greedy_kernel_matches_oracle(docs):
    g_all = [[], [], [], [], [], [], []]
    s_all = [[], [], [], [], [], []]
    gd, sd = [0], [0]
    for gold, system in docs:
        g = _arrays(gold, True)
        s = _arrays([(ids, -2 if t is None else t, -2 if r is None else r) for ids, t, r in system], False)
        base_g, base_s = len(g_all[1]), len(s_all[1])
        g_all[0] += [base_g + o for o in g[0][1:]]
        s_all[0] += [base_s + o for o in s[0][1:]]
        for k in range(1, 7):
            g_all[k] += g[k]
        for k in range(1, 6):
            s_all[k] += s[k]
        gd.append(gd[-1] + len(gold))
        sd.append(sd[-1] + len(system))
    g_all[0] = [0] + g_all[0]
    s_all[0] = [0] + s_all[0]
    tp, map_sys, map_score = mappings(gd, *g_all, sd, *s_all[:5])
    best, _, _ = mappings(gd, *g_all, sd, *s_all[:5], optimal=True)
    for d, (gold, system) in enumerate(docs):
        g_ref = [(ids, len(ids), t, r) for ids, t, r in gold]
        s_ref = [(ids, len(ids), -2 if t is None else t, -2 if r is None else r) for ids, t, r in system]
        want_tp, want_map = reference_nugget.greedy(g_ref, s_ref)
        assert tp[d].tolist() == want_tp
        np.testing.assert_allclose(best[d], reference_nugget.optimal(g_ref, s_ref), rtol=0, atol=1e-12)
        for m in range(4):
            got = [(int(j), float(sc)) for j, sc in zip(map_sys[m, gd[d]:gd[d + 1]], map_score[m, gd[d]:gd[d + 1]])]
            assert got == [(j, float(sc)) for j, sc in want_map[m]]


def test_greedy_kernel_with_more_pairs_than_its_first_arrays_hold():
    """30 gold and 30 system mentions that all overlap: 900 pairs, more than the kernel's first guess (4 per
    mention), so it fills larger arrays again; the mapping is still the oracle's."""
    rng = random.Random(3)
    gold = [({0, 1, rng.randrange(2, 6)}, rng.randrange(2), rng.randrange(2)) for _ in range(30)]
    system = [({0, rng.randrange(1, 6)}, rng.randrange(2), rng.randrange(2)) for _ in range(30)]
    g, s = _arrays(gold, True), _arrays(system, False)
    tp, map_sys, map_score = mappings([0, 30], *g, [0, 30], *s[:5])
    want_tp, want_map = reference_nugget.greedy([(ids, len(ids), t, r) for ids, t, r in gold],
                                                [(ids, len(ids), t, r) for ids, t, r in system])
    assert tp[0].tolist() == want_tp
    for m in range(4):
        assert [(int(j), float(sc)) for j, sc in zip(map_sys[m], map_score[m])] == [(j, float(sc)) for j, sc in want_map[m]]


def _tbf(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text)
    return p


GOLD = ("#BeginOfDocument d1\n"
        "g\td1\tE1\t0,4\tmade\tConflict_Attack\tActual\n"
        "g\td1\tE2\t10,14\tkill\tLife_Die\tActual\n"
        "g\td1\tE3\t20,24\tdied\tLife_Die\tNOT_ANNOTATED\n"
        "@Coreference\tR1\tE2,E3\n"
        "#EndOfDocument\n")


@pytest.mark.parametrize("text, fragment", [
    (GOLD.replace("#EndOfDocument\n", ""), 'without "#EndOfDocument"'),  # EvmEval reads these two: warned, and
    ("x\ty\n" + GOLD, "line outside a document"),  # refused under --fix-evmeval-quirks (test_nugget_quirks.py)
    (GOLD.replace("\tActual\n", "\n", 1), "needs at least 7"),
    (GOLD.replace("@Coreference\tR1\tE2,E3\n", "@Coreference\tR1\tE2,E3\n@Coreference\tR2\tE3,E1\n"),
     "resolve the transitive closure"),
    (GOLD.replace("@Coreference\tR1\tE2,E3\n", "@Coreference\tR1\tE2,E9\n@Coreference\tR2\tE3,E9\n"),
     "mention 'E9' is in clusters 'R1'"),  # EvmEval's check sees members no mention defines too
    (GOLD.replace("0,4", "0-4"), "bad character span"),
    (GOLD + GOLD, "the same document appears twice"),
    (GOLD.replace("@Coreference\tR1\tE2,E3", "@Coreference\tE2,E3"), "relation line needs 3"),
])
def test_validation_rules_give_clear_errors(tmp_path, text, fragment):
    bad = _tbf(tmp_path, "bad.tbf", text)
    good = _tbf(tmp_path, "good.tbf", GOLD)
    with pytest.raises(ParseError) as err:
        fastscore.score_nugget(good, bad, preset="kbp2016", coref=True, fix_evmeval_quirks=True)
    assert fragment in str(err.value) and str(bad) in str(err.value)


def test_a_mention_id_used_twice_is_scored_as_evmeval_v18_does(tmp_path):
    """v1.8 scores both mentions and a cluster naming the id takes both: the same scores as the file with
    the second mention renamed and added to the cluster (on either side); a warning names it."""
    twice = _tbf(tmp_path, "twice.tbf", GOLD.replace("E3\t20,24", "E1\t20,24").replace("R1\tE2,E3", "R1\tE1,E2"))
    renamed = _tbf(tmp_path, "renamed.tbf", GOLD.replace("R1\tE2,E3", "R1\tE1,E2,E3"))
    other = _tbf(tmp_path, "other.tbf", GOLD)
    for gold, system in ((twice, other), (other, twice)):
        got = fastscore.score_nugget(gold, system, preset="kbp2016", coref=True)
        want = fastscore.score_nugget(renamed if gold == twice else gold, renamed if system == twice else system,
                                      preset="kbp2016", coref=True)
        assert got.to_dict()["coref"] == want.to_dict()["coref"]
        assert got.to_dict()["metrics"] == want.to_dict()["metrics"]
        assert want.to_dict()["coref"]["muc"]["f1"] < 1  # the clusters differ: the check can fail
        assert any("reuse an id" in w and "twice.tbf:4" in w for w in got.warnings)


def test_kbp2015_refuses_a_system_document_using_a_mention_id_twice(tmp_path):
    """scorer_v1.7.1 stops there silently (exit 0, the documents before it as the whole score): an error;
    it scores a gold document using an id twice, as v1.8 does."""
    twice = _tbf(tmp_path, "twice.tbf", GOLD.replace("E3\t20,24", "E1\t20,24"))
    good = _tbf(tmp_path, "good.tbf", GOLD)
    with pytest.raises(ParseError) as err:
        fastscore.score_nugget(good, twice, preset="kbp2015", char_spans=True)
    assert "duplicate mention id 'E1'" in str(err.value) and "twice.tbf:4" in str(err.value)
    result = fastscore.score_nugget(twice, good, preset="kbp2015", char_spans=True)
    assert any("reuse an id" in w for w in result.warnings)


def test_same_span_twice_in_a_cluster_warns(tmp_path):
    text = GOLD.replace("20,24\tdied", "10,14\tkill")
    gold = _tbf(tmp_path, "g.tbf", text)
    result = fastscore.score_nugget(gold, gold, preset="kbp2016", coref=True)
    assert any("same span" in w for w in result.warnings)
    assert result.to_dict()["metrics"]["span"]["micro"]["f1"] == 1.0


def test_not_annotated_gold_realis_matches_any_system_realis(tmp_path):
    gold = _tbf(tmp_path, "g.tbf", GOLD)
    system = _tbf(tmp_path, "s.tbf", GOLD.replace("died\tLife_Die\tNOT_ANNOTATED", "died\tLife_Die\tGeneric"))
    realis = fastscore.score_nugget(gold, system, preset="kbp2016").to_dict()["metrics"]["realis"]
    assert realis["micro"]["f1"] == 1.0


def test_kbp2015_invisible_words_and_the_capital_i_quirk(tmp_path):
    (tmp_path / "tkn").mkdir()
    (tmp_path / "tkn" / "d1.tab").write_text("t1\tthe\t0\t3\nt2\tattack\t4\t10\nt3\tI\t11\t12\nt4\tran\t13\t16\n")
    gold = _tbf(tmp_path, "g.tbf", "#BeginOfDocument d1\ng\td1\tE1\tt1,t2\tthe attack\tA\tActual\n"
                                  "g\td1\tE2\tt3,t4\tI ran\tB\tActual\n#EndOfDocument\n")
    system = _tbf(tmp_path, "s.tbf", "#BeginOfDocument d1\ns\td1\tE1\tt2\tattack\tA\tActual\n"
                                    "s\td1\tE2\tt4\tran\tB\tActual\n#EndOfDocument\n")
    tkn = str(tmp_path / "tkn")
    tp = fastscore.score_nugget(gold, system, tokens=tkn).to_dict()["metrics"]["span"]["micro"]["tp"]
    assert tp == pytest.approx(1 + 2 / 3)  # "the" is removed, "I" is not (v1.7.1 lowercases first)
    fixed = tmp_path / "words.txt"
    fixed.write_text("the\ni\n")
    tp = fastscore.score_nugget(gold, system, tokens=tkn, invisible_words=str(fixed)).to_dict()
    assert tp["metrics"]["span"]["micro"]["tp"] == pytest.approx(2.0)
    none = fastscore.score_nugget(gold, system, tokens=tkn, invisible_words="none").to_dict()
    assert none["metrics"]["span"]["micro"]["tp"] == pytest.approx(4 / 3)


def test_optimal_mapping_never_below_greedy():
    demo = SHARED / "evmeval-demo"
    for preset in ("kbp2016",):
        greedy = fastscore.score_nugget(demo / "gold.tbf", demo / "system_A.tbf", preset=preset)
        optimal = fastscore.score_nugget(demo / "gold.tbf", demo / "system_A.tbf", preset=preset, mapping="optimal")
        assert np.all(optimal.aligned.tp >= greedy.aligned.tp - 1e-12)
        assert "mapping:optimal" in optimal.signature()


@pytest.mark.parametrize("fmt", ["text", "json", "csv", "markdown", "evmeval"])
def test_cli_outputs(capsys, fmt):
    demo = SHARED / "evmeval-demo"
    assert main(["nugget", str(demo / "gold.tbf"), str(demo / "system_A.tbf"), "--preset", "kbp2016", "--coref",
                 "--per-doc", "-o", fmt]) == 0
    out = capsys.readouterr().out
    if fmt == "json":
        data = json.loads(out)
        assert data["task"] == "nugget"
        assert set(data["metrics"]) == {"span", "type", "realis", "type+realis"}
        assert set(data["metrics"]["span"]["micro"]) == {"precision", "recall", "f1", "tp", "system", "gold"}
        assert set(data["metrics"]["span"]["macro"]) == {"precision", "recall", "f1"}
        assert set(data["coref"]) == {"muc", "bcub", "ceafe", "ceafm", "blanc", "average"}
        assert set(data["coref"]["muc"]) >= {"recall_num", "recall_den", "f1"}
        assert "per_type" in data and set(data["per_doc"]) == {"example1", "example2"}


def test_doc_option_and_usage_errors(tmp_path, capsys):
    demo = SHARED / "evmeval-demo"
    args = ["nugget", str(demo / "gold.tbf"), str(demo / "system_A.tbf"), "--preset", "kbp2016"]
    assert main(args + ["--doc", "example2", "-o", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["documents"] == 1
    assert main(args + ["--doc", "nope"]) == 1
    assert main(args + ["--coref-threshold", "0"]) == 2
    (tmp_path / "file").write_text("")
    assert main(args + ["--tokens", str(tmp_path / "file")]) == 2  # a missing folder is scored as EvmEval -t does
    with pytest.raises(UsageError):
        fastscore.score_nugget(demo / "gold.tbf", demo / "system_A.tbf", preset="kbp2099")


@fuzz_rounds(300, 80)
def test_fuzz_tbf_is_scored_or_rejected_cleanly(tmp_path, rounds):
    rng = random.Random(3)
    texts = [(SHARED / "evmeval-demo" / n).read_text() for n in ("gold.tbf", "system_A.tbf")]
    gold = SHARED / "evmeval-demo" / "gold.tbf"
    outcomes = {"scored": 0, "rejected": 0}
    for n in range(rounds):
        p = tmp_path / f"m{n}.tbf"
        p.write_text(_mutate(rng, rng.choice(texts)), encoding="utf-8", errors="surrogateescape")
        try:
            fastscore.score_nugget(gold, p, preset="kbp2016", coref=True)
            outcomes["scored"] += 1
        except FastscoreError as exc:
            assert str(exc) and "\n" not in str(exc)
            outcomes["rejected"] += 1
    assert min(outcomes.values()) > rounds // 15, outcomes


def test_diff_file_written(tmp_path):
    demo = SHARED / "evmeval-demo"
    out = tmp_path / "diff.txt"
    assert main(["nugget", str(demo / "gold.tbf"), str(demo / "system_A.tbf"), "--preset", "kbp2016", "--coref",
                 "--diff", str(out)]) == 0
    text = out.read_text()
    assert text.startswith("#BeginOfDocument example1\n") and "@coref\tgold\t" in text


def test_a_file_scored_against_itself(tmp_path):
    gold = _tbf(tmp_path, "g.tbf", GOLD)
    for preset in ("kbp2015", "kbp2016"):
        result = fastscore.score_nugget(gold, gold, preset=preset, coref=True, char_spans=preset == "kbp2015")
        assert result.aligned.tp.shape == (1, 4)
        data = result.to_dict()
        assert data["metrics"]["type+realis"]["micro"]["f1"] == 1.0
        assert data["coref"]["average"] == 1.0


def test_text_report_names_rules_and_non_official_mapping(capsys):
    demo = SHARED / "evmeval-demo"
    args = ["nugget", str(demo / "gold.tbf"), str(demo / "system_A.tbf"), "--preset", "kbp2016"]
    assert main(args) == 0
    assert "EvmEval scorer_v1.8" in capsys.readouterr().out
    assert main(args + ["--mapping", "optimal"]) == 0
    assert "not the official greedy mapping" in capsys.readouterr().out


def test_byte_order_mark_and_crlf_in_tbf(tmp_path):
    p = tmp_path / "bom.tbf"
    p.write_bytes(b"\xef\xbb\xbf" + GOLD.replace("\n", "\r\n").encode())
    with pytest.warns(FastscoreWarning, match="EvmEval fails on this gold file"):  # issue 36: it exits 1
        result = fastscore.score_nugget(p, _tbf(tmp_path, "g.tbf", GOLD), preset="kbp2016", coref=True)
    assert result.to_dict()["metrics"]["span"]["micro"]["f1"] == 1.0


def test_same_report_with_one_and_two_threads():
    """The mappings kernel runs documents in parallel; the report must not depend on the threads."""
    case = TESTDATA / "nugget_anchors" / "case-043"  # four documents
    outs = []
    for threads in ("1", "2"):
        env = {**os.environ, "NUMBA_NUM_THREADS": threads}
        proc = subprocess.run([sys.executable, "-m", "fastscore", "nugget", str(case / "gold.char.tbf"),
                               str(case / "system.char.tbf"), "--preset", "kbp2016", "--coref", "-o", "evmeval"],
                              capture_output=True, text=True, env=env)
        assert proc.returncode == 0, proc.stderr
        outs.append(proc.stdout)
    assert outs[0] == outs[1] and "Final Mention Coreference Results" in outs[0]
