"""TempEval-3 temporal evaluation: agreement with the toolkit on generated cases (the report lines of
every method, entities included), the task shape (command, JSON contract, compare, sweep, bootstrap),
--fix-toolkit-quirks, the normaliser, bad input."""
import json
import re
import shutil
from pathlib import Path

import pytest

import fastscore
from fastscore import tasks
from fastscore.cli import main
from fastscore.errors import InputError, ParseError, UsageError
from fastscore.temporal.normalize import normalise, tokens
from fastscore.temporal.relations import METHODS, score_relations
from fastscore.temporal.report import py2_round, py2_str, te3
from fastscore.temporal.score import read, score_temporal
from fastscore.temporal.task import TEMPORAL
from tests.conftest import TESTDATA

ANCHORS = TESTDATA / "temporal_anchors"
EXPECTED = json.loads((ANCHORS / "expected.json").read_text())["cases"]
HEAD = ('<?xml version="1.0" ?>\n<TimeML>\n<DCT><TIMEX3 tid="t0" type="DATE" value="1998-02-06">1998-02-06</TIMEX3>'
        '</DCT>\n')


@pytest.fixture
def registered():
    tasks.register(TEMPORAL)
    yield  # a registered task: stays registered


def case(name: str) -> tuple[str, str]:
    return str(ANCHORS / name / "gold"), str(ANCHORS / name / "system")


# -- agreement with the toolkit ------------------------------------------------------------------

@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_toolkit_report_lines(name, method):
    exp = EXPECTED[name]
    gold, system = case(name)
    assert exp["entities"]["exit"] == 0 and not exp["normalizer_errors"]
    if exp[method]["exit"] != 0:
        assert "ZeroDivisionError" in exp[method]["error"]
        with pytest.raises(InputError, match="divides by zero"):
            score_temporal(gold, system, evaluation_method=method)
        result = score_temporal(gold, system, evaluation_method=method, entities_only=True)
        assert te3(result) == exp["entities"]["stdout"]
        return
    result = score_temporal(gold, system, evaluation_method=method)
    assert te3(result) == exp["entities"]["stdout"] + exp[method]["stdout"]
    assert te3(score_temporal(gold, system, evaluation_method=method, relations_only=True)) == exp[method]["stdout"]


def test_anchor_cases_cover_the_issue():
    """Closure chains, equal groups, nesting, cycles, boundaries, BEGINS only implied, self-loops and
    duplicates, empty TLINK sets, missing entities, recall over 100%, the zero weight."""
    assert {n.rsplit("-", 1)[0] for n in EXPECTED} >= {"chains", "equal", "nesting", "cycles", "boundaries", "begins",
                                                      "messy", "sparse", "random", "begins", "implicit-over"}
    out = EXPECTED["implicit-over-100"]["implicit_in_recall"]["stdout"]
    assert float(out.splitlines()[3].split("\t")[4]) > 100
    assert EXPECTED["zero-weight"]["implicit_in_recall"]["exit"] != 0
    methods_differ = {n for n in EXPECTED if EXPECTED[n]["te3"]["stdout"] != EXPECTED[n]["acl11"]["stdout"].replace(
        "Evaluated with ACL'11 score, not taking the reduced graph for relations.", "")}
    assert len(methods_differ) > len(EXPECTED) // 2


def test_begins_is_never_verified_through_closure_unless_fixed():
    gold, system = case("begins-implied")
    assert score_temporal(gold, system).relations()["gold_verified"] == 0
    fixed = score_temporal(gold, system, fix_toolkit_quirks=True).relations()
    assert fixed["gold_verified"] == fixed["gold_total"] == 1


def test_implicit_recall_over_100_unless_fixed():
    gold, system = case("implicit-over-100")
    r = score_temporal(gold, system, evaluation_method="implicit_in_recall").relations()
    assert r["recall"] == pytest.approx((2 + 0.99 / 2) / 2) and r["recall"] > 1
    fixed = score_temporal(gold, system, evaluation_method="implicit_in_recall", fix_toolkit_quirks=True).relations()
    assert fixed["recall"] == 1.0
    zero = score_temporal(*case("zero-weight"), evaluation_method="implicit_in_recall", fix_toolkit_quirks=True)
    assert zero.relations()["recall"] == 1.0


def test_fixed_scores_on_consistent_graphs_are_the_exact_closure():
    """On every anchor case the fixed method runs; identical sides score 1."""
    gold, _ = case("chains-0")
    for method in METHODS:
        r = score_temporal(gold, gold, evaluation_method=method, fix_toolkit_quirks=True).relations()
        assert r["precision"] == r["recall"] == 1.0
        r = score_temporal(gold, gold, evaluation_method=method).relations()
        assert r["precision"] == r["recall"] == 1.0


# -- pieces --------------------------------------------------------------------------------------

def test_py2_rounding_and_str():
    assert py2_str(py2_round(2.675 * 100, 2)) == "267.5"
    assert py2_str(py2_round(0.125, 2)) == "0.13" and py2_str(py2_round(2.675, 2)) == "2.67"
    assert py2_str(100 * py2_round(1 / 3, 6)) == "33.3333" and py2_str(py2_round(0, 2)) == "0.0"
    assert py2_str(100.0) == "100.0" and py2_str(1e-5) == "1e-05"


def test_tokens_cut_punctuation_clitics_and_hyphens():
    text = 'He said, "the U.S.-backed deal (re-emerged) isn\'t done."'
    words = [text[a:b] for a, b in tokens(text)]
    # (the tokenizer keeps U.S.-backed and re-emerged; the normaliser then cuts a once-hyphenated word)
    assert words == ["He", "said", ",", '"', "the", "U.S.", "-", "backed", "deal", "(", "re", "-", "emerged", ")", "is",
                     "n't", "done", ".", '"']


def doc(text: str, tail: str = "", dct: str = "t0") -> str:
    return (HEAD.replace('tid="t0"', f'tid="{dct}"') + f"<TEXT>\n{text}\n</TEXT>\n{tail}</TimeML>\n")


def test_overlapping_timexes_share_a_name_and_events_their_token(tmp_path):
    g = doc('<TIMEX3 tid="t1" type="DATE" value="X">last week</TIMEX3> we '
            '<EVENT eid="e1" class="OCCURRENCE">met</EVENT> .')
    s = doc('last <TIMEX3 tid="t9" type="DATE" value="Y">week</TIMEX3> we <EVENT eid="e7" class="STATE">met</EVENT> .')
    (tmp_path / "g.tml").write_text(g)
    (tmp_path / "s.tml").write_text(s)
    pair = normalise(read(tmp_path / "g.tml").documents["g.tml"], read(tmp_path / "s.tml").documents["s.tml"])
    assert list(pair.gold.timexes) == list(pair.system.timexes) == ["t1"]
    assert list(pair.gold.events) == list(pair.system.events) == ["e1"]
    assert pair.gold.timexes["t1"].text == "last week" and pair.system.timexes["t1"].text == "week"


def test_links_are_normalised_as_the_toolkit_writes_them(tmp_path):
    text = ('<EVENT eid="e5" class="OCCURRENCE">fell</EVENT> and <EVENT eid="e2" class="OCCURRENCE">rose</EVENT> on '
            '<TIMEX3 tid="t3" type="DATE" value="X">monday</TIMEX3> .')
    tail = ('<MAKEINSTANCE eiid="ei9" eventID="e5"/>\n<MAKEINSTANCE eiid="ei8" eventID="e2"/>\n'
            '<MAKEINSTANCE eiid="ei7" eventID="e2"/>\n'
            '<TLINK lid="l1" relType="IDENTITY" eventInstanceID="ei8" relatedToEventInstance="ei9"/>\n'
            '<TLINK lid="l2" relType="BEFORE" eventInstanceID="ei7" relatedToEventInstance="ei9"/>\n'
            '<TLINK lid="l3" relType="IDENTITY" eventInstanceID="ei9" relatedToTime="t3"/>\n'
            '<TLINK lid="l4" relType="DURING" timeID="t3" relatedToEventInstance="ei8"/>\n'
            '<TLINK lid="l5" relType="BEGINS" timeID="t3" relatedToTime="t0"/>\n')
    (tmp_path / "a.tml").write_text(doc(text, tail))
    d = read(tmp_path / "a.tml").documents["a.tml"]
    pair = normalise(d, d)
    assert pair.gold.relations == [("ei1", "ei2", "SIMULTANEOUS"), ("ei1", "ei1000002", "AFTER"),
                                   ("ei1", "t1", "IDENTITY"), ("ei2", "t1", "SIMULTANEOUS"),
                                   ("t0", "t1", "BEGUN_BY")]


def test_identical_sides_score_one_with_every_relation():
    rels = [("a", "b", r) for r in ("BEFORE", "IBEFORE", "BEGINS", "ENDS", "INCLUDES", "SIMULTANEOUS")]
    for method in METHODS:
        c = score_relations(rels, rels, "te3" if method == "implicit_in_recall" else method)
        assert c.precision_matched == c.system and c.recall_matched == c.gold


# -- the task shape ------------------------------------------------------------------------------

def test_json_contract(registered, capsys):
    gold, system = case("mixed-0")
    assert main(["temporal", gold, system, "--output", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["task"] == "temporal"
    assert set(out["relations"]) >= {"precision", "recall", "f1", "system_verified", "system_total", "gold_verified",
                                     "gold_total"}
    assert set(out["entities"]) == {"event", "timex"}
    for kind, attrs in (("event", {"class", "tense", "aspect"}), ("timex", {"type", "value"})):
        for m in ("strict", "relaxed"):
            assert {"precision", "recall", "f1"} <= set(out["entities"][kind][m])
        assert set(out["entities"][kind]["attributes"]) == attrs
    assert out["temporal_awareness"] == out["relations"]["f1"]
    assert set(out["per_doc"]) == {p.name for p in Path(gold).iterdir()}
    assert all(0 <= out["relations"][k] <= 1 for k in ("precision", "recall", "f1"))


def test_command_outputs_and_parts(registered, capsys):
    gold, system = case("random-0")
    exp = EXPECTED["random-0"]
    assert main(["temporal", gold, system, "--output", "te3", "--method", "acl11"]) == 0
    assert capsys.readouterr().out == exp["entities"]["stdout"] + exp["acl11"]["stdout"]
    assert main(["temporal", gold, system, "-o", "te3", "--entities-only"]) == 0
    assert capsys.readouterr().out == exp["entities"]["stdout"]
    for fmt in ("text", "csv", "markdown"):
        assert main(["temporal", gold, system, "-o", fmt, "--per-doc"]) == 0
        assert "temporal awareness" in capsys.readouterr().out
    assert main(["temporal", gold, system, "--relations-only", "--bootstrap", "50", "-o", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["entities"] is None and len(out["relations"]["ci"]) == 2
    assert main(["temporal", gold, system, "--relations-only", "--entities-only"]) == 2


def test_compare_sweep_and_bootstrap(registered, tmp_path, capsys):
    gold, system = case("mixed-1")
    worse = tmp_path / "worse"
    shutil.copytree(system, worse)
    for f in worse.iterdir():
        f.write_text(re.sub(r"<TLINK[^>]*>\n", "", f.read_text(), count=3))
    cmp = fastscore.compare(gold, system, [str(worse)], task="temporal", resamples=200)
    shutil.copytree(system, tmp_path / "runs" / "base")
    shutil.copytree(worse, tmp_path / "runs" / "worse")
    assert cmp.task == "temporal" and cmp.metric == "temporal"
    swept = fastscore.sweep(gold, [str(worse), system], task="temporal", metric="event-strict")
    assert {r.name for r in swept.systems} == {str(worse), system}
    result = fastscore.bootstrap(fastscore.score(gold, system, task="temporal"), 100)
    assert set(result.bootstrap.intervals) == set(result.metrics)
    # system folders: given as a pattern (a folder given to sweep is a folder of system files)
    assert main(["sweep", gold, str(tmp_path / "runs" / "*"), "--task", "temporal", "--method", "acl11",
                 "-o", "json"]) == 0
    assert len(json.loads(capsys.readouterr().out)["systems"]) == 2


def test_single_files_are_one_document(tmp_path):
    gold, system = case("chains-0")
    g, s = sorted(Path(gold).iterdir())[0], sorted(Path(system).iterdir())[0]
    shutil.copy(s, tmp_path / "other-name.tml")
    r = score_temporal(g, tmp_path / "other-name.tml")
    assert r.documents == [g.name]


# -- bad input -----------------------------------------------------------------------------------

GOOD_TEXT = ('<EVENT eid="e1" class="OCCURRENCE">fell</EVENT> on <TIMEX3 tid="t1" type="DATE" value="X">monday'
             '</TIMEX3> .')
GOOD_TAIL = '<MAKEINSTANCE eiid="ei1" eventID="e1"/>\n<TLINK lid="l1" relType="BEFORE" eventInstanceID="ei1" ' \
            'relatedToTime="t1"/>\n'


@pytest.mark.parametrize("text, tail, fragment", [
    (GOOD_TEXT, GOOD_TAIL.replace('relatedToTime="t1"', 'relatedToTime="t7"'), "names time 't7'"),
    (GOOD_TEXT, GOOD_TAIL.replace('eventInstanceID="ei1"', 'eventInstanceID="ei4"'), "names event instance 'ei4'"),
    (GOOD_TEXT, GOOD_TAIL.replace("BEFORE", "OVERLAPS"), "unknown relType 'OVERLAPS'"),
    (GOOD_TEXT, GOOD_TAIL.replace('relType="BEFORE" ', ""), "has no relType"),
    (GOOD_TEXT, GOOD_TAIL.replace(' lid="l1"', ""), "TLINK without lid"),
    (GOOD_TEXT, GOOD_TAIL.replace('eventID="e1"', 'eventID="e3"'), "names event 'e3'"),
    (GOOD_TEXT.replace("fell", ""), GOOD_TAIL, "has no text"),
    (GOOD_TEXT + " <b>", GOOD_TAIL, "malformed XML"),
])
def test_bad_files_are_clear_errors(tmp_path, text, tail, fragment):
    (tmp_path / "gold.tml").write_text(doc(GOOD_TEXT, GOOD_TAIL))
    (tmp_path / "sys.tml").write_text(doc(text, tail))
    with pytest.raises(InputError, match=re.escape(fragment)) as exc:
        score_temporal(tmp_path / "gold.tml", tmp_path / "sys.tml")
    assert "sys.tml:" in str(exc.value) and isinstance(exc.value, ParseError)
    assert re.search(r"sys\.tml:\d+:", str(exc.value))


def test_missing_dct_and_text_differences(tmp_path):
    (tmp_path / "gold.tml").write_text(doc(GOOD_TEXT, GOOD_TAIL))
    (tmp_path / "nodct.tml").write_text(doc(GOOD_TEXT, GOOD_TAIL).replace(HEAD.split("\n")[2] + "\n", ""))
    with pytest.raises(ParseError, match="no document creation time"):
        score_temporal(tmp_path / "gold.tml", tmp_path / "nodct.tml")
    (tmp_path / "other.tml").write_text(doc(GOOD_TEXT.replace("on", "in"), GOOD_TAIL))
    with pytest.raises(InputError, match=r"other\.tml:\d+: .*the text differs from the gold's"):
        score_temporal(tmp_path / "gold.tml", tmp_path / "other.tml")


def test_folders_must_hold_the_same_files(tmp_path):
    gold, system = case("sparse-0")
    shutil.copytree(system, tmp_path / "s")
    next((tmp_path / "s").iterdir()).unlink()
    with pytest.raises(InputError, match="no system file for 1 gold document"):
        score_temporal(gold, tmp_path / "s")
    with pytest.raises(InputError, match="no such file or folder"):
        score_temporal(gold, tmp_path / "nothing")


def test_values_the_toolkits_schema_rejects_are_scored_with_a_warning(tmp_path):
    (tmp_path / "gold.tml").write_text(doc(GOOD_TEXT, GOOD_TAIL))
    (tmp_path / "sys.tml").write_text(doc(GOOD_TEXT.replace("OCCURRENCE", "EVENTFUL"), GOOD_TAIL))
    r = score_temporal(tmp_path / "gold.tml", tmp_path / "sys.tml")
    assert len(r.warnings) == 1 and "sys.tml:" in r.warnings[0] and "'EVENTFUL'" in r.warnings[0]
    assert r.entities()["event"]["attributes"]["class"] == 0


def test_cyclic_system_graphs_are_scored(tmp_path):
    text = " ".join(f'<EVENT eid="e{k}" class="OCCURRENCE">w{k}</EVENT>' for k in range(1, 4)) + " ."
    mk = "".join(f'<MAKEINSTANCE eiid="ei{k}" eventID="e{k}"/>\n' for k in range(1, 4))
    links = [("1", "2"), ("2", "3"), ("3", "1")]
    tl = "".join(f'<TLINK lid="l{n}" relType="BEFORE" eventInstanceID="ei{a}" relatedToEventInstance="ei{b}"/>\n'
                 for n, (a, b) in enumerate(links))
    (tmp_path / "g.tml").write_text(doc(text, mk + tl.split("\n")[0] + "\n"))
    (tmp_path / "s.tml").write_text(doc(text, mk + tl))
    r = score_temporal(tmp_path / "g.tml", tmp_path / "s.tml").relations()
    assert r["system_total"] == 3 and r["system_verified"] == 1


def test_usage_errors():
    gold, system = case("chains-0")
    with pytest.raises(UsageError):
        score_temporal(gold, system, evaluation_method="nope")
    with pytest.raises(UsageError):
        score_temporal(gold, system, relations_only=True, entities_only=True)


def test_fuzz_is_scored_or_rejected_cleanly(tmp_path):
    """Random edits of a system file: every run scores or raises a FastscoreError (no traceback)."""
    import random

    from fastscore.errors import FastscoreError

    gold, system = case("mixed-0")
    rng = random.Random(5)
    for k in range(30):
        target = tmp_path / f"s{k}"
        shutil.copytree(system, target)
        f = rng.choice(sorted(target.iterdir()))
        data = f.read_text()
        for _ in range(rng.randint(1, 3)):
            at = rng.randrange(len(data))
            if rng.random() < 0.4:
                data = data[:at] + data[at + rng.randint(1, 20):]
            else:
                data = data[:at] + rng.choice(['<', '>', '"', 'ei2', 't0', ' ', '\n', 'relType="XX" ',
                                               '<EVENT eid="e9" class="STATE">', '</EVENT>', '&']) + data[at:]
        f.write_text(data)
        for method in METHODS:
            try:
                score_temporal(gold, target, evaluation_method=method, fix_toolkit_quirks=k % 3 == 0)
            except FastscoreError:
                pass


# -- issue 36: how the toolkit reads inputs no generator made (figures from the toolkit, Python 2.7 + Java 17) ----

BODY = ('The firm <EVENT eid="e1" class="OCCURRENCE">rose</EVENT> on <TIMEX3 tid="t1" type="DATE" value="X">Thursday'
        '</TIMEX3> and <EVENT eid="e2" class="OCCURRENCE">fell</EVENT> .')
MK = '<MAKEINSTANCE eiid="ei1" eventID="e1"/>\n<MAKEINSTANCE eiid="ei2" eventID="e2"/>\n'
LINKS = ('<TLINK lid="l1" relType="BEFORE" eventInstanceID="ei1" relatedToEventInstance="ei2" />\n'
         '<TLINK lid="l2" relType="IS_INCLUDED" eventInstanceID="ei1" relatedToTime="t1" />\n'
         '<TLINK lid="l3" relType="AFTER" eventInstanceID="ei2" relatedToTime="t0" />\n'
         '<TLINK lid="l4" relType="BEFORE" timeID="t1" relatedToTime="t0" />\n')


def _pair(tmp_path, gold_text, system_text, gold_tail, system_tail):
    (tmp_path / "g.tml").write_text(doc(gold_text, gold_tail), encoding="utf-8")
    (tmp_path / "s.tml").write_text(doc(system_text, system_tail), encoding="utf-8")
    return tmp_path / "g.tml", tmp_path / "s.tml"


@pytest.mark.parametrize("stop", ["fi|rm", "\u00a0firm", "&quot;firm&quot;", "a &lt; b", "it&apos;s", "a\u2009b"])
def test_characters_the_toolkits_normaliser_stops_on_are_an_error_unless_fixed(tmp_path, stop):
    text = BODY.replace("firm", stop)
    g, s = _pair(tmp_path, text, text, MK + LINKS, MK + LINKS)
    with pytest.raises(InputError, match=r"g\.tml:\d+: .* the toolkit's normaliser stops"):
        score_temporal(g, s)
    r = score_temporal(g, s, fix_toolkit_quirks=True)
    assert r.relations()["f1"] == 1.0 and "normaliser stops" in r.warnings[0]


def test_a_tlink_with_both_event_instance_and_time_is_read_as_the_toolkit_reads_it(tmp_path):
    both = LINKS.replace('eventInstanceID="ei2" relatedToTime="t0"', 'eventInstanceID="ei2" timeID="t1" '
                                                                        'relatedToTime="t0"')
    g, s = _pair(tmp_path, BODY, BODY, MK + LINKS, MK + both)
    r = score_temporal(g, s)  # the toolkit: te3 P 75.0, R 100.0 (timeID wins: t1 AFTER t0)
    assert (r.relations()["system_verified"], r.relations()["system_total"]) == (3, 4)
    assert r.relations()["recall"] == 1.0 and "both eventInstanceID and timeID" in r.warnings[0]


def test_attribute_text_naming_an_endpoint_is_read_as_the_toolkit_reads_it(tmp_path):
    origin = LINKS.replace('relatedToEventInstance="ei2" />', 'relatedToEventInstance="ei2" origin="relatedToTime" />')
    g, s = _pair(tmp_path, BODY, BODY, MK + LINKS, MK + origin)
    r = score_temporal(g, s)  # the toolkit: te3 P 75.0, R 100.0 (the end is the literal word relatedToTime)
    assert r.relations()["precision"] == 0.75 and r.relations()["recall"] == 1.0
    assert "origin=\"relatedToTime\"" in r.warnings[0]
    fixed = score_temporal(g, s, fix_toolkit_quirks=True)
    assert fixed.relations()["f1"] == 1.0 and fixed.warnings


def test_upper_case_clitics_are_not_cut_as_in_the_toolkits_tokenizer(tmp_path):
    assert [t for t in tokens("THE MARKET'S DON'T market's")] == [(0, 3), (4, 12), (13, 18), (19, 25), (25, 27)]
    gold = BODY.replace("The firm", "The <EVENT eid=\"e9\" class=\"OCCURRENCE\">MARKET</EVENT>'S")
    system = BODY.replace("The firm", "The MARKET<EVENT eid=\"e9\" class=\"OCCURRENCE\">'S</EVENT>")
    tail = MK + '<MAKEINSTANCE eiid="ei9" eventID="e9"/>\n'
    g, s = _pair(tmp_path, gold, system, tail, tail)
    # the toolkit: event strict F1 66.67 (the texts differ), relaxed 100.0 (one token: the same name)
    ev = score_temporal(g, s).entities()["event"]
    assert ev["relaxed"]["f1"] == 1.0 and round(ev["strict"]["f1"], 4) == 0.6667


def test_a_tlink_with_both_sources_to_an_event_is_an_error_as_the_toolkit_stops(tmp_path):
    both = LINKS.replace('eventInstanceID="ei1" relatedToEventInstance="ei2"',
                         'eventInstanceID="ei1" timeID="t1" relatedToEventInstance="ei2"')
    g, s = _pair(tmp_path, BODY, BODY, MK + LINKS, MK + both)
    with pytest.raises(ParseError, match=r"s\.tml:\d+: .*eventInstanceID twice .*duplicate attribute"):
        score_temporal(g, s)  # the normaliser writes eventInstanceID="ei1" eventInstanceID="ei1": the scorer stops


def test_a_tlink_attribute_outside_the_schema_is_scored_with_the_schema_warning(tmp_path):
    extra = LINKS.replace('relatedToEventInstance="ei2" />', 'relatedToEventInstance="ei2" comment="x" />')
    g, s = _pair(tmp_path, BODY, BODY, MK + LINKS, MK + extra)
    r = score_temporal(g, s)  # the toolkit's normaliser: "not a valid TimeML XML file"
    assert r.relations()["f1"] == 1.0 and "TLINK attribute 'comment'" in r.warnings[0]
