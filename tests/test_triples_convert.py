"""NAF/KAF layers and KYOTO tuples to triples: the triple files of the module's converters
(ConvertKafToTriples, ConvertTuplesToTriples) to the byte, NAF twins converted like their KAF twins, and
NAF/KAF scored directly with --layers."""
import json
import shutil
from pathlib import Path

import pytest

from fastscore.errors import ParseError, UsageError
from fastscore.formats.triples import read_triples, write_triples
from fastscore.triples.convert import convert, naf_to_triples, tuples_to_triples
from fastscore.triples.score import score_triples

ANCHORS = Path(__file__).parent / "data" / "triples_anchors"
CONVERT = ANCHORS / "convert"
RUNS = json.loads((ANCHORS / "expected_convert.json").read_text(encoding="utf-8"))["runs"] \
    if (ANCHORS / "expected_convert.json").exists() else []


@pytest.mark.parametrize("run", RUNS, ids=[f"{r['file']}-{r['run']}" for r in RUNS])
def test_module_converters_to_the_byte(run, monkeypatch):
    monkeypatch.chdir(CONVERT)
    if run["file"].endswith(".tpl"):
        doc = tuples_to_triples(run["file"], run["first_element"])
    else:
        doc = naf_to_triples(run["file"], run["layers"], run["intersect"])
    assert write_triples(doc) == run["triples"]


def _without_lemma_relations(doc):
    """NAF properties without a type take their lemma (reported); the KAF twins leave the relation empty."""
    return [(i, r if not any("its lemma" in w and f'"{i}"' in w for w in doc.warnings) else "")
            for i, r in zip(doc.ids, doc.relations)]


@pytest.mark.parametrize("kaf", sorted(CONVERT.glob("*.kaf")), ids=lambda p: p.name)
def test_naf_twins_convert_like_kaf(kaf):
    layers = ["sentiment", "opinion", "entity", "property", "srl"]
    a = naf_to_triples(kaf, layers)
    b = naf_to_triples(kaf.with_suffix(".naf"), layers)
    assert (a.first, a.second, a.layers, a.profiles) == (b.first, b.second, b.layers, b.profiles)
    assert _without_lemma_relations(b) == list(zip(a.ids, a.relations))


def test_srl_triples_and_reports(tmp_path):
    naf = tmp_path / "x.naf"
    naf.write_text("""<NAF version="v3"><text><wf id="w1">Anna</wf><wf id="w2">ran</wf><wf id="w3">home</wf></text>
<terms><term id="t1"><span><target id="w1"/></span></term><term id="t2"><span><target id="w2"/></span></term>
<term id="t3"><span><target id="w3"/></span></term></terms>
<entities><entity id="e1" type="PER"><references></references></entity></entities>
<srl><predicate id="pr1"><span><target id="t2"/></span><role id="r1" semRole="A0"><span><target id="t1"/></span>
</role><role id="r2" semRole="AM-DIR"><span><target id="t3"/></span></role></predicate></srl></NAF>""",
                   encoding="utf-8")
    doc = naf_to_triples(naf, ["srl", "entity", "opinion"])
    assert list(zip(doc.ids, doc.relations, doc.first, doc.second)) == [
        ("r1", "A0", ["w2"], ["w1"]), ("r2", "AM-DIR", ["w2"], ["w3"])]
    assert any('entity "e1" has no span' in w for w in doc.warnings)
    assert any("no opinion layer" in w for w in doc.warnings)


def test_unknown_term_is_an_error(tmp_path):
    naf = tmp_path / "bad.kaf"
    naf.write_text('<KAF><text><wf wid="w1">a</wf></text><terms><term tid="t1"><span><target id="w1"/></span>'
                   '</term></terms>\n<entities><entity eid="e1" type="X"><references>\n<span><target id="t9"/></span>'
                   "</references></entity></entities></KAF>", encoding="utf-8")
    with pytest.raises(ParseError, match=r'bad.kaf:3: entity "e1": target "t9" names no term'):
        naf_to_triples(naf, ["entity"])
    with pytest.raises(UsageError, match="unknown layer"):
        naf_to_triples(naf, ["entities"])


def test_score_naf_directly(tmp_path):
    if not RUNS:
        pytest.skip("no converter anchors")
    gold, system = tmp_path / "gold", tmp_path / "system"
    gold.mkdir()
    system.mkdir()
    for k, kaf in enumerate(sorted(CONVERT.glob("*.kaf"))[:4]):
        shutil.copy(kaf, gold / f"d{k}.kaf")
        shutil.copy(kaf.with_suffix(".naf"), system / f"d{k}.kaf")
    with pytest.raises(UsageError, match="--layers"):
        score_triples(gold, system)
    r = score_triples(gold, system, layers="entity,opinion,sentiment,srl")
    m = r.to_dict()["metrics"]["triples"]
    assert m["correct"] == m["gold"] and m["precision"] == 1.0
    # in memory, and through files written by the converter: the same numbers (layers whose triples all
    # have relations: the reader refuses a triple without one)
    r = score_triples(gold, system, layers="opinion,sentiment")
    out_gold, out_system = tmp_path / "tg", tmp_path / "ts"
    convert(gold, out_gold, layers=["opinion", "sentiment"])
    convert(system, out_system, layers=["opinion", "sentiment"])
    r2 = score_triples(out_gold, out_system)
    assert r2.to_dict()["statistics"]["variants"] == r.to_dict()["statistics"]["variants"]
    assert len(read_triples(out_gold).documents) == 4


def test_intersect_needs_opinions(tmp_path):
    with pytest.raises(UsageError, match="--intersect"):
        score_triples(tmp_path, tmp_path, intersect=True, layers="entity")


def test_naf_on_the_command_line(tmp_path, capsys):
    from fastscore import tasks
    from fastscore.cli import main
    from fastscore.triples.task import TRIPLES

    if not RUNS:
        pytest.skip("no converter anchors")
    kaf = sorted(CONVERT.glob("*.kaf"))[0]
    tasks.register(TRIPLES)  # registered already: stays so
    assert main(["triples", str(kaf), str(kaf.with_suffix(".naf")), "--layers", "opinion", "--intersect",
                 "--output", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["metrics"]["triples"]["precision"] in (0.0, 1.0)
    assert "layers:opinion|intersect:yes" in out["signature"]
    assert main(["triples", str(kaf), str(kaf), "--layers", "nonsense"]) == 2
    assert "unknown layer" in capsys.readouterr().err


def test_an_id_given_twice_is_seen_on_one_line_too():
    """Generated NAF is often one line: a wf id given twice there is still an id given twice."""
    from fastscore.formats.naf import parse_naf

    one_line = (b'<NAF><text><wf id="w1">a</wf><wf id="w1">b</wf></text><terms><term id="t1"><span>'
                b'<target id="w1"/></span></term></terms></NAF>')
    doc = parse_naf(one_line, "x.naf")
    assert [(tag, ident) for tag, ident, *_ in doc.repeated] == [("wf", "w1")]
    two_lines = one_line.replace(b'</wf><wf', b'</wf>\n<wf')
    assert [(tag, ident) for tag, ident, *_ in parse_naf(two_lines, "x.naf").repeated] == [("wf", "w1")]
