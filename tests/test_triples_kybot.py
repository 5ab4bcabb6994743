"""KYOTO Kybot output to triples: the triple files of the module's KybotOutputToTriples to the byte (generated
Kybot output with its KAF files at four WSD thresholds, and the module's shipped example 11767.kaf.kybot.xml),
its counts of unresolved events and roles, and clear errors for what the module crashes on."""
import json
import re
import shutil
from pathlib import Path

import pytest

from fastscore.errors import ParseError, UsageError
from fastscore.formats.triples import write_triples
from fastscore.triples.convert import convert, java_double, kybot_output_to_triples

ANCHORS = Path(__file__).parent / "data" / "kybot_anchors"
RUNS = json.loads((ANCHORS / "expected.json").read_text(encoding="utf-8"))["runs"]


def _unresolved(doc):
    events = sum(w.endswith("in the KAF file: no triples") for w in doc.warnings)
    roles = sum(w.endswith("in the KAF file: no triple") for w in doc.warnings)
    return events, roles


@pytest.mark.parametrize("run", RUNS, ids=[f"{r['case']}-{r['threshold']}" for r in RUNS])
def test_module_converter_to_the_byte(run):
    folder = ANCHORS / run["case"]
    doc = kybot_output_to_triples(folder / run["kybot"], folder / run["kaf"], run["threshold"])
    expected = (folder / f"{run['kybot']}.{run['threshold']}.trp").read_text(encoding="utf-8")
    assert write_triples(doc) == expected
    counts = run["counts"]
    assert _unresolved(doc) == (counts["unresolved_facts"], counts["unresolved_roles"])
    assert len(doc) == counts["triples"]


def _blocks(text: str) -> list[str]:
    return sorted(re.findall(r"<triple .*?</triple>\n", text, re.DOTALL))


@pytest.mark.parametrize("threshold", [0, 60])
def test_shipped_example(threshold, tmp_path):
    """The module's own example: the triples of its shipped .0.trp/.60.trp files (written by a 2013 Java,
    whose HashMap iterated in another order), through `convert` with the KAF file found beside it."""
    example = ANCHORS / "example"
    shipped = (example / f"11767.kaf.kybot.xml.{threshold}.shipped.trp").read_text(encoding="utf-8")
    out = tmp_path / "out.trp"
    warnings = convert(example / "11767.kaf.kybot.xml", out, threshold=threshold)
    counts = next(r["counts"] for r in RUNS if r["case"] == "example" and r["threshold"] == threshold)
    assert len(warnings) == counts["unresolved_facts"] + counts["unresolved_roles"] > 0
    assert all("has no tokens in the KAF file" in w for w in warnings)
    written = out.read_text(encoding="utf-8")
    assert _blocks(written) == _blocks(shipped)
    assert written == (example / f"11767.kaf.kybot.xml.{threshold}.trp").read_text(encoding="utf-8")


def test_thresholds_differ():
    """The generated cases cross the threshold: fewer triples as it rises (all but the module's defect of
    keeping every role of an event when the threshold would leave it none)."""
    sizes = {}
    for run in RUNS:
        sizes.setdefault(run["case"], []).append(run["counts"]["triples"])
    assert sum(len(set(s)) > 1 for s in sizes.values()) >= len(sizes) - 1


def test_folders(tmp_path):
    """A folder of Kybot output files with a folder of KAF files (NAME for NAME.kybot.xml)."""
    src, kafs, out = tmp_path / "kybot", tmp_path / "kaf", tmp_path / "out"
    src.mkdir()
    kafs.mkdir()
    cases = [r["case"] for r in RUNS if r["case"].startswith("case-")][:8:4]
    for case in cases:
        shutil.copy(ANCHORS / case / "doc.kaf.kybot.xml", src / f"{case}.kybot.xml")
        shutil.copy(ANCHORS / case / "doc.kaf", kafs / case)
    convert(src, out, kaf=kafs, threshold=35)
    for case in cases:
        assert (out / f"{case}.kybot.xml.trp").read_text(encoding="utf-8") == \
            (ANCHORS / case / "doc.kaf.kybot.xml.35.trp").read_text(encoding="utf-8")
    with pytest.raises(UsageError, match=r"--kaf FILE"):
        convert(src, out)


def test_command_line(tmp_path, capsys):
    from fastscore.cli import main

    case = ANCHORS / "case-00"
    out = tmp_path / "x.trp"
    assert main(["convert", str(case / "doc.kaf.kybot.xml"), str(out), "--to", "triples"]) == 0
    assert out.read_text(encoding="utf-8") == (case / "doc.kaf.kybot.xml.0.trp").read_text(encoding="utf-8")


def _kybot(tmp_path, body: str, words=("Annapolis", "fish")) -> tuple[Path, Path]:
    kaf = tmp_path / "d.kaf"
    kaf.write_text('<KAF><text>' + "".join(f'<wf wid="w{k}">{w}</wf>' for k, w in enumerate(words, 1)) +
                   '</text><terms><term tid="t1"><span><target id="w1"/></span></term>'
                   '<term tid="t2"><span><target id="w2"/></span></term>'
                   '<term tid="t3"><span><target id="w9"/></span></term></terms></KAF>', encoding="utf-8")
    kybot = tmp_path / "d.kaf.kybot.xml"
    kybot.write_text('<?xml version="1.0"?>\n<kybotOut>\n<doc shortname="d">\n' + body + "\n</doc>\n</kybotOut>\n",
                     encoding="utf-8")
    return kybot, kaf


def test_reads_as_the_module(tmp_path):
    kybot, kaf = _kybot(tmp_path, '<role event="e1" target="t1" rtype="Kyoto#a#b" rank="zz"/>\n'
                                  '<event eid="e1" target="t2" lemma="fish &amp; &quot;chips&quot;">\n'
                                  '<place latitude="1.5"><span id="t9"/><span id="t1"/><span id="t8"/></place>\n'
                                  '<dateInfo><span id="t2"/></dateInfo></event>\n'
                                  '<role target="t2"/>')
    doc = kybot_output_to_triples(kybot, kaf, 0)
    assert list(zip(doc.relations, doc.first, doc.second, doc.first_comments, doc.second_comments)) == [
        ("a#b", ["w2"], ["w1"], "fish &amp; chips", ""),  # a role before its event
        ("LOCATION", ["w2"], ["w1"], "fish &amp; chips", "Annapolis"),
        ("TIME", ["w2"], ["w2"], "fish &amp; chips", "fish")]
    assert any("rank 'zz' is not a number" in w for w in doc.warnings)


@pytest.mark.parametrize("body, message", [
    ('<event eid="e1" target="t1"><role event="e1" target="t2"/>', r"d.kaf.kybot.xml:5: malformed XML: mismatched tag"),
    ('<event eid="e1" target="t1"/>\n<place latitude="north"/>', r"d.kaf.kybot.xml:5: place latitude 'north' is not"),
    ('<event eid="e1" target="t1"><country><span id="t3"/></country></event>',
     r'd.kaf.kybot.xml:4: token "w9" of the KAF file .*d.kaf has no word form'),
])
def test_bad_input(tmp_path, body, message):
    kybot, kaf = _kybot(tmp_path, body)
    with pytest.raises(ParseError, match=message):
        kybot_output_to_triples(kybot, kaf, 0)


def test_usage_errors(tmp_path):
    kybot, kaf = _kybot(tmp_path, '<event eid="e1" target="t1"/>')
    with pytest.raises(ParseError, match="none.kaf: file not found"):
        kybot_output_to_triples(kybot, tmp_path / "none.kaf", 0)
    with pytest.raises(UsageError, match="--threshold"):
        convert(kybot, tmp_path / "o.trp", threshold="60")
    kaf.unlink()
    with pytest.raises(UsageError, match=r"--kaf FILE"):
        convert(kybot, tmp_path / "o.trp")


@pytest.mark.parametrize("text, value", [
    ("1.1f", 1.1), ("1.1d", 1.1), ("0x1p3", 8.0), ("1e400", float("inf")), ("+.5", 0.5), ("5.", 5.0),
    ("0x.8p1D", 1.0), ("-Infinity", float("-inf")), ("1_0", None), ("infinity", None), ("1e", None),
    ("\u0663", None), ("", None)])
def test_java_double(text, value):
    assert java_double(text) == value
    assert java_double("NaN") != java_double("NaN")


def test_strict_threshold_drops_what_the_module_keeps():
    """--strict-threshold (the module's defect corrected): every role below the threshold goes, even when
    the event would keep none, so the strict conversion is a subset of the module's, smaller somewhere.
    (Neither is monotonic in the threshold: an event removed on one term no longer competes on the next.)"""
    smaller = 0
    for run in RUNS:
        if run["case"] == "example":
            continue
        folder = ANCHORS / run["case"]
        strict = kybot_output_to_triples(folder / run["kybot"], folder / run["kaf"], run["threshold"],
                                         strict_threshold=True)
        module = kybot_output_to_triples(folder / run["kybot"], folder / run["kaf"], run["threshold"])
        assert set(_blocks(write_triples(strict))) <= set(_blocks(write_triples(module)))
        smaller += len(strict) < len(module)
        if run["threshold"] == 0:
            assert len(strict) == len(module)
    assert smaller


def test_kybot_options_that_would_do_nothing_are_refused(tmp_path):
    """--kaf/--threshold on input without Kybot output, --strict-threshold without a threshold: refused."""
    run = next(r for r in RUNS if r["case"] != "example")
    folder = ANCHORS / run["case"]
    with pytest.raises(UsageError, match="changes nothing without --threshold"):
        convert(folder / run["kybot"], tmp_path / "a.trp", kaf=folder / run["kaf"], strict_threshold=True)
    with pytest.raises(UsageError, match="apply to KYOTO Kybot output"):
        convert(folder / run["kaf"], tmp_path / "b.trp", threshold=60)
