"""Event sequencing (@After / @Subevent, EvmEval scorer_v1.8 -a).

Agreement with EvmEval run locally on generated cases (scripts/make_sequencing_anchors.py):
the whole official report, or an error where EvmEval stops; Python 2's set order
(scripts/make_py2_set_order.py, recorded with Python 2.7); the cluster-graph reduction
and the temporal awareness score against literal references; bad input.
"""
import json
import random
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fastscore import score_nugget
from fastscore.cli import main
from fastscore.errors import InputError, ParseError, UsageError
from fastscore.nugget.py2order import set_order, str_hash, tuple_hash
from fastscore.nugget.sequencing import _reduced, py2_percent
from fastscore.nugget.metrics import SEQUENCING_METRICS
from fastscore.temporal.awareness import ZeroWeightError, build, score_document
from fastscore.temporal.closure import Closure
from fastscore.temporal.timegraph import ADDED, REDUNDANT, VIOLATED, Timegraph
from tests.conftest import NUGGET_INPUT_NOTES, ROOT, SHARED, TESTDATA, fuzz_rounds, sample_in_default_run
from tests.reference_temporal import official_search

# the generated TBF corpora hold every defect EvmEval tolerates
pytestmark = NUGGET_INPUT_NOTES

ANCHORS = TESTDATA / "sequencing_anchors"
EXPECTED = json.loads((ANCHORS / "expected.json").read_text())["cases"]
RUNS = [(case, k) for case, runs in sorted(EXPECTED.items()) for k in range(len(runs))]
DEMO = SHARED / "evmeval-demo"


def _args(case: str, run: dict) -> list[str]:
    folder = ANCHORS / case
    out = [str(folder / "tkn") if a == "TOKENS" else str(folder / a) if a.startswith("whitelist-") else a
           for a in run["args"]]
    return [str(folder / f"gold.{run['mode']}.tbf"), str(folder / f"system.{run['mode']}.tbf")] + out


@pytest.mark.parametrize("case, k", sample_in_default_run(RUNS, 3),
                         ids=[f"{c}-{EXPECTED[c][k]['mode']}" for c, k in RUNS])
def test_official_report_matches(case, k, capsys):
    """The whole report where EvmEval finishes; one clear error where it stops (exit 255) or crashes."""
    run = EXPECTED[case][k]
    code = main(["nugget", *_args(case, run), "--output", "evmeval"])
    out, err = capsys.readouterr()
    if run["exit"] == 0:
        assert code == 0 and out == run["report"]
    else:
        assert code == 1 and out == ""
        lines = err.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("fastscore: error: ")
        if "both ways" in lines[0]:
            assert "cluster" in run["error"] or "KeyError" in run["error"]  # EvmEval's validation (or its crash)
        else:
            assert "divides by zero" in lines[0] and "ZeroDivisionError" in run["error"]


def _digest(folder):
    """The digest the generator recorded for EvmEval's -a folder, of our folder."""
    sys.path.insert(0, str(ROOT / "scripts"))
    from make_sequencing_anchors import folder_digest

    return folder_digest(folder)


@pytest.mark.parametrize("case", sorted(EXPECTED)[::6])
def test_timeml_folder_is_evmevals(case, tmp_path, capsys):
    """--timeml writes the folder EvmEval's -a writes, byte for byte (every sixth case)."""
    for k, run in enumerate(EXPECTED[case]):
        if run["exit"] == 0:
            assert main(["nugget", *_args(case, run), "--timeml", str(tmp_path / str(k)), "-o", "json"]) == 0
            assert _digest(tmp_path / str(k)) == run["timeml_sha256"]
    capsys.readouterr()


def test_timeml_needs_sequencing(tmp_path, capsys):
    assert main(["nugget", str(DEMO / "gold.tbf"), str(DEMO / "gold.tbf"), "--preset", "kbp2016",
                 "--timeml", str(tmp_path)]) == 2
    assert "--timeml needs --sequencing" in capsys.readouterr().err


def test_anchor_cases_cover_both_outcomes():
    runs = [r for rs in EXPECTED.values() for r in rs]
    scored = [r for r in runs if r["exit"] == 0]
    assert len(scored) >= 150 and len(runs) - len(scored) >= 20
    assert sum("-nv" in r["evmeval_args"] for r in scored) >= 40
    assert any("100.0" not in r["report"].split("Sequencing")[-1] and "\t0.0\t" not in r["report"] for r in scored)


@pytest.mark.parametrize("system, f1_after", [("temporal_sample.tbf", "75.0"), ("temporal.tbf", "100.0")])
def test_demo_data(system, f1_after, capsys):
    """EvmEval's own sequencing demo; these are the numbers it prints."""
    assert main(["nugget", str(DEMO / "gold.tbf"), str(DEMO / system), "--preset", "kbp2016", "--sequencing",
                 "-o", "evmeval"]) == 0
    out = capsys.readouterr().out
    after = out.split("Event Sequencing Results for After")[1]
    assert f"Overall Temporal Awareness Score (F1 score): {f1_after}\n" in after


# -- Python 2 set order -----------------------------------------------------------------------

PY2 = json.loads((TESTDATA / "py2_set_order.json").read_text())["cases"]


@pytest.mark.parametrize("k", range(len(PY2)))
def test_set_order_is_python2s(k):
    case = PY2[k]
    assert set_order([tuple(x) for x in case["added"]]) == [tuple(x) for x in case["order"]]


def test_python2_hashes():
    """Values printed by Python 2.7.18 (64-bit): hash('E1'), hash(('E1', 'E2', 'After')), hash('')."""
    assert str_hash("E1") == 8832053061079740
    assert tuple_hash(("E1", "E2", "After")) == -8926210483074807023
    assert str_hash("") == 0


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["E1", "E2", "E10", "x", "é"]), st.sampled_from(["a", "b", "E1"]),
                          st.sampled_from(["After", "Subevent"])), max_size=60))
def test_set_order_lists_each_distinct_item_once(items):
    order = set_order(items)
    assert sorted(order) == sorted(set(items))
    assert set_order(items + items[::-1]) == order  # adding members again changes nothing


# -- the cluster graph reduction ----------------------------------------------------------------

def reduced_reference(links):
    """EvmEval's rule, literally: drop (a, c) if some b != a, b != c has tc[a][b] and tc[b][c], with tc the
    reflexive transitive closure (Warshall)."""
    nodes = sorted({x for a, c, _ in links for x in (a, c)})
    tc = {(u, v): u == v for u in nodes for v in nodes}
    for a, c, _ in links:
        tc[a, c] = True
    for m in nodes:
        for u in nodes:
            for v in nodes:
                tc[u, v] = tc[u, v] or (tc[u, m] and tc[m, v])
    return [(a, c, ln) for a, c, ln in links
            if not any(b not in (a, c) and tc[a, b] and tc[b, c] for b in nodes)]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 6), st.integers(0, 6), st.integers(0, 99)).filter(lambda x: x[0] != x[1]),
                max_size=14))
def test_reduction_matches_reference(links):
    assert _reduced(links) == reduced_reference(links)


# -- temporal awareness ---------------------------------------------------------------------------

relations = st.lists(st.tuples(st.sampled_from([f"te{i}" for i in range(6)]),
                               st.sampled_from([f"te{i}" for i in range(6)]),
                               st.sampled_from(["BEFORE", "INCLUDES"])).filter(lambda r: r[0] != r[1]), max_size=12)


@settings(max_examples=200, deadline=None)
@given(relations)
def test_identical_sides_score_one(rels):
    g = build(rels)
    n = len({x for r in g.final for x in r[:2]})
    if len(g.final) == 1 + n * (n - 1) // 2:  # more relations than pairs: the weight's 0.99 / 0 (EvmEval crashes)
        with pytest.raises(ZeroWeightError):
            score_document(g, build(rels))
        return
    c = score_document(g, build(rels))
    if g.final:
        assert c.precision_matched == c.system == c.gold == len(g.final) and c.recall_matched == c.gold
        sums = {"seq_all_pm": c.precision_matched, "seq_all_rm": c.recall_matched, "seq_all_sys": c.system,
                "seq_all_gold": c.gold}
        scores = SEQUENCING_METRICS["sequencing-all"].score(sums)
        assert [float(scores[m]) for m in ("precision", "recall", "f1")] == [1.0, 1.0, 1.0]
    else:
        assert (c.system, c.gold) == (0, 0)


@settings(max_examples=200, deadline=None)
@given(relations)
def test_timegraph_keeps_or_flags_every_relation(rels):
    """Every distinct relation is added, found redundant or violated; final = kept then violated."""
    tg = Timegraph()
    outcomes = {}
    for r in dict.fromkeys(rels):
        outcomes[r] = tg.add(*r)
    assert set(outcomes.values()) <= {ADDED, REDUNDANT, VIOLATED}
    g = build(rels)
    kept = [r for r, o in outcomes.items() if o == ADDED]
    assert g.final == kept + [r for r, o in outcomes.items() if o == VIOLATED]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.sampled_from([f"te{i}" for i in range(8)]), st.sampled_from([f"te{i}" for i in range(8)]),
                          st.sampled_from(["BEFORE", "INCLUDES"])).filter(lambda r: r[0] != r[1]), max_size=20))
def test_cross_chain_search_matches_the_official_depth_first_search(rels):
    """The search kernel answers exactly as the official search over every pair of points."""
    tg = Timegraph()
    for r in rels:
        tg.add(*r)
    pairs = [(a, b) for a, pa in tg.points.items() for b, pb in tg.points.items() if pa.chain != pb.chain]
    assert tg._search_many(pairs) == {(a, b): official_search(tg, a, b) for a, b in pairs}


def test_timegraph_chains_and_cross_links():
    tg = Timegraph()
    assert tg.add("a", "b", "BEFORE") == ADDED
    assert tg.add("b", "c", "BEFORE") == ADDED  # c joins a's chain after b
    assert tg.add("a", "c", "BEFORE") == REDUNDANT
    assert tg.add("c", "a", "BEFORE") == VIOLATED
    assert tg.add("d", "b", "INCLUDES") == ADDED  # b's start has a parent: d on a new chain, cross links
    assert tg.holds("d", "b", "INCLUDES") and tg.holds("a", "c", "BEFORE")
    assert not tg.holds("d", "a", "BEFORE") and not tg.holds("x", "a", "BEFORE")


def test_official_timegraph_entails_what_the_closure_does_not():
    """A defect the exact closure corrects: e BEFORE c puts e on c's chain with its start at the fixed
    pseudo time -1000 and its end below that, so the search finds d's start before e's start."""
    rels = [("a", "b", "BEFORE"), ("c", "b", "BEFORE"), ("d", "c", "INCLUDES"), ("e", "c", "BEFORE")]
    tg, cl = Timegraph(), Closure(rels)
    assert [tg.add(*r) for r in rels] == cl.outcomes == [ADDED] * len(rels)
    assert tg.holds("d", "e", "INCLUDES") and not cl.holds("d", "e", "INCLUDES")
    assert build(rels, exact=True).final == build(rels).final == rels


def test_official_timegraph_can_lose_a_relation_it_took_in():
    """e BEFORE c puts e's start at -1000 and its end at -2000 (below it); d placed inside e by those
    times sits outside it, so the graph no longer entails e INCLUDES d, which it has just added."""
    rels = [("a", "b", "BEFORE"), ("c", "a", "BEFORE"), ("e", "c", "BEFORE"), ("e", "d", "INCLUDES")]
    tg, cl = Timegraph(), Closure(rels)
    assert [tg.add(*r) for r in rels] == cl.outcomes == [ADDED] * len(rels)
    assert cl.holds("e", "d", "INCLUDES") and not tg.holds("e", "d", "INCLUDES")
    assert (tg.points["e_s"].pseudo, tg.points["e_e"].pseudo) == (-1000, -2000)


def closure_reference(rels):
    """Outcomes and entailments by Warshall's algorithm over the points, recomputed for every relation."""
    edges, outcomes = set(), []
    names = sorted({x for r in rels for x in r[:2]})
    points = [f"{x}_{e}" for x in names for e in "se"]

    def reach():
        tc = {(u, v): (u, v) in edges for u in points for v in points}
        for m in points:
            for u in points:
                for v in points:
                    tc[u, v] = tc[u, v] or (tc[u, m] and tc[m, v])
        return tc

    seen = set()
    for x, y, rel in rels:
        for z in (x, y):
            if z not in seen:
                seen.add(z)
                edges.add((f"{z}_s", f"{z}_e"))
        pairs = [(f"{x}_e", f"{y}_s")] if rel == "BEFORE" else [(f"{x}_s", f"{y}_s"), (f"{y}_e", f"{x}_e")]
        tc = reach()
        if all(tc[p] for p in pairs):
            outcomes.append(REDUNDANT)
        elif any(tc[b, a] for a, b in pairs):
            outcomes.append(VIOLATED)
        else:
            edges.update(pairs)
            outcomes.append(ADDED)
    tc = reach()
    holds = {(x, y, rel) for x in seen for y in seen if x != y for rel in ("BEFORE", "INCLUDES")
             if all(tc[p] for p in ([(f"{x}_e", f"{y}_s")] if rel == "BEFORE" else
                                    [(f"{x}_s", f"{y}_s"), (f"{y}_e", f"{x}_e")]))}
    return outcomes, holds


@settings(max_examples=200, deadline=None)
@given(relations)
def test_exact_closure_matches_reference(rels):
    rels = list(dict.fromkeys(rels))
    cl = Closure(rels)
    outcomes = cl.outcomes
    names = {x for r in rels for x in r[:2]}
    holds = {(x, y, rel) for x in names for y in names if x != y for rel in ("BEFORE", "INCLUDES")
             if cl.holds(x, y, rel)}
    assert (outcomes, holds) == closure_reference(rels)


def test_py2_percent():
    assert py2_percent(0) == "0.0" and py2_percent(1) == "100.0" and py2_percent(0.75) == "75.0"
    assert py2_percent(1 / 3) == "33.3333"
    assert py2_percent(1 / 128) == "0.7813"  # an exact tie: Python 2 rounds half away from zero


# -- options and bad input -----------------------------------------------------------------------

def _tbf(tmp_path, name, body):
    p = tmp_path / name
    p.write_text("#BeginOfDocument d\n" + body + "#EndOfDocument\n")
    return p


MENTIONS = "".join(f"r\td\tE{k}\t{2 * k},{2 * k + 1}\tw\tConflict_Attack\tActual\n" for k in range(1, 5))


@pytest.mark.parametrize("relation, fragment", [
    ("@After\tA1\tE1,E2,E3\n", "has 3 mentions"),
    ("@After\tA1\tE1,E2\n@After\tA2\tE2,E1\n", "run both ways"),
])
def test_bad_links_are_clear_errors(tmp_path, relation, fragment):
    gold = _tbf(tmp_path, "g.tbf", MENTIONS + relation)
    with pytest.raises(ParseError) as err:
        score_nugget(gold, gold, preset="kbp2016", sequencing=True)
    assert fragment in str(err.value) and str(gold) in str(err.value) and 'document "d"' in str(err.value)


def test_link_naming_an_undefined_mention_is_skipped(tmp_path):
    """EvmEval logs an error and skips the link; the others are scored."""
    gold = _tbf(tmp_path, "g.tbf", MENTIONS + "@After\tA1\tE1,E9\n@After\tA2\tE1,E2\n")
    plain = _tbf(tmp_path, "p.tbf", MENTIONS + "@After\tA2\tE1,E2\n")
    system = _tbf(tmp_path, "s.tbf", MENTIONS + "@After\tA1\tE1,E2\n@After\tA2\tE2,E3\n")
    res = score_nugget(gold, system, preset="kbp2016", sequencing=True)
    assert res.to_dict()["sequencing"] == score_nugget(plain, system, preset="kbp2016",
                                                       sequencing=True).to_dict()["sequencing"]
    assert res.to_dict()["sequencing"]["after"]["gold"] == 1
    assert any("1 event sequencing link(s) name a mention that is not defined" in w and "A1 names mention 'E9'" in w
               for w in res.warnings)


def test_mention_in_two_linked_clusters_is_no_link_both_ways(tmp_path):
    """Without --coref EvmEval does not check clusters; -a puts a shared mention in the later cluster and
    expands links to it from both, so a link can join it to itself: its own reverse, which EvmEval's
    validation does not count.  A real pair of links both ways is still refused."""
    shared = "@Coreference\tR1\tE1,E2\n@Coreference\tR2\tE2,E3\n"
    gold = _tbf(tmp_path, "g.tbf", MENTIONS + shared + "@Subevent\tS1\tE1,E2\n")
    res = score_nugget(gold, gold, preset="kbp2016", sequencing=True).to_dict()["sequencing"]["subevent"]
    assert res["gold"] == res["system"] > 0
    with pytest.raises(ParseError, match="mention 'E2' is in clusters 'R1'"):
        score_nugget(gold, gold, preset="kbp2016", sequencing=True, coref=True)
    both = _tbf(tmp_path, "b.tbf", MENTIONS + shared + "@Subevent\tS1\tE1,E4\n@Subevent\tS2\tE4,E1\n")
    with pytest.raises(ParseError, match="run both ways"):
        score_nugget(both, both, preset="kbp2016", sequencing=True)


def test_single_mention_link_is_a_parse_error(tmp_path):
    gold = _tbf(tmp_path, "g.tbf", MENTIONS + "@Subevent\tS1\tE1\n")
    with pytest.raises(ParseError, match="names one mention"):
        score_nugget(gold, gold, preset="kbp2016")


def test_links_both_ways_are_scored_without_validation(tmp_path):
    gold = _tbf(tmp_path, "g.tbf", MENTIONS + "@After\tA1\tE1,E2\n@After\tA2\tE2,E1\n")
    system = _tbf(tmp_path, "s.tbf", MENTIONS + "@After\tA1\tE1,E2\n")
    res = score_nugget(gold, system, preset="kbp2016", sequencing=True, no_script_validation=True)
    after = res.to_dict()["sequencing"]["after"]
    # the second gold link contradicts the first: violated, and kept in the count (as EvmEval keeps it)
    assert (after["gold"], after["system"], after["precision_matched"], after["recall_matched"]) == (2, 1, 1, 1.0)


def test_zero_weight_is_a_clear_error(tmp_path):
    gold = _tbf(tmp_path, "g.tbf", MENTIONS + "@After\tA1\tE1,E2\n@Subevent\tS1\tE1,E2\n")
    with pytest.raises(InputError, match="divides by zero") as err:
        score_nugget(gold, gold, preset="kbp2016", sequencing=True)
    assert str(gold) in str(err.value) and 'document "d"' in str(err.value)


def test_sequencing_needs_the_v18_rules(tmp_path):
    gold = _tbf(tmp_path, "g.tbf", MENTIONS)
    with pytest.raises(UsageError, match="kbp2016"):
        score_nugget(gold, gold, preset="kbp2015", sequencing=True)


def test_links_inside_a_cluster_are_ignored_with_a_warning(tmp_path):
    gold = _tbf(tmp_path, "g.tbf", MENTIONS + "@Coreference\tR1\tE1,E2\n@After\tA1\tE1,E2\n@After\tA2\tE2,E3\n")
    res = score_nugget(gold, gold, preset="kbp2016", sequencing=True)
    assert any("join two mentions of one coreference cluster" in w for w in res.warnings)
    assert res.to_dict()["sequencing"]["after"]["gold"] == 2  # E1 and E2 before E3


def test_json_contract_and_statistics(tmp_path, capsys):
    assert main(["nugget", str(DEMO / "gold.tbf"), str(DEMO / "temporal_sample.tbf"), "--preset", "kbp2016",
                 "--sequencing", "-o", "json", "--per-doc", "--bootstrap", "100"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data["sequencing"]) == {"subevent", "after", "all"}
    after = data["sequencing"]["after"]
    assert set(after) == {"precision", "recall", "f1", "precision_matched", "recall_matched", "system", "gold", "ci"}
    assert (after["precision"], after["recall"]) == (1.0, 0.6)
    assert set(data["per_doc"]["example1"]["sequencing"]) == {"subevent", "after", "all"}


def test_compare_on_a_sequencing_metric(capsys):
    assert main(["compare", str(DEMO / "gold.tbf"), str(DEMO / "temporal_sample.tbf"), str(DEMO / "temporal.tbf"),
                 "--task", "nugget", "--preset", "kbp2016", "--sequencing", "--metric", "sequencing-after",
                 "--resamples", "200", "-o", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["metric"] == "sequencing-after"
    assert data["baseline"]["score"] == pytest.approx(0.75) and data["systems"][0]["score"] == pytest.approx(1.0)


def _mutate_links(rng, text):
    """Random edits of a TBF file with links: characters, whole relation lines, swapped ids."""
    lines = text.split("\n")
    for _ in range(rng.randint(1, 3)):
        if len(lines) < 3:
            break
        k = rng.randrange(1, len(lines) - 1)
        while k > 1 and lines[k - 1].startswith("#EndOfDocument"):  # mostly inside a document
            k -= 1
        op = rng.random()
        if op < 0.3:
            valid = ["@After\tA9\tE1,E2", "@Subevent\tS9\tE2,E1", "@After\tA8\tE2,E1", "@Before\tB1\tE1,E2"]
            invalid = ["@After\tA9\tE1", "@After\tA9\tE1,E2,E3", "@Subevent\tS9\tE1,E99", "@After\tA9\t,E1"]
            lines.insert(k, rng.choice(valid * 3 + invalid))
        elif op < 0.5:
            del lines[k]
        elif op < 0.7:
            lines[k] = lines[k].replace("E1", "E2")
        else:
            chars = list(lines[k])
            pos = rng.randrange(len(chars) + 1)
            chars.insert(pos, rng.choice("\t,;@#E0123456789 "))
            lines[k] = "".join(chars)
    return "\n".join(lines)


@fuzz_rounds(250, 60)
def test_fuzz_sequencing_is_scored_or_rejected_cleanly(tmp_path, rounds):
    """Mutated anchor files: scored (both graphs, with and without validation), or one clean FastscoreError."""
    from fastscore import FastscoreError

    rng = random.Random(11)
    cases = [ANCHORS / c for c in sorted(EXPECTED)[:40]]
    outcomes = {"scored": 0, "rejected": 0}
    for n in range(rounds):
        case = rng.choice(cases)
        gold, system = tmp_path / f"g{n}.tbf", tmp_path / f"s{n}.tbf"
        texts = [(case / "gold.char.tbf").read_text(), (case / "system.char.tbf").read_text()]
        k = rng.randrange(2)
        texts[k] = _mutate_links(rng, texts[k])  # one side mutated, the other as generated
        gold.write_text(texts[0])
        system.write_text(texts[1])
        try:
            res = score_nugget(gold, system, preset="kbp2016", sequencing=True, coref=rng.random() < 0.3,
                               no_script_validation=rng.random() < 0.5,
                               sequencing_graph=rng.choice(["official", "exact"]))
            for kind in ("subevent", "after", "all"):
                sc = res.to_dict()["sequencing"][kind]
                assert 0 <= sc["precision"] <= 1 and sc["gold"] >= 0
            outcomes["scored"] += 1
        except FastscoreError as exc:
            assert str(exc) and "\n" not in str(exc)
            outcomes["rejected"] += 1
    assert min(outcomes.values()) > rounds // 12, outcomes
