"""The triple task: registered in the tests (the lead adds the registry line), its command, compare, sweep and
--bootstrap; the JSON layout; options; differences from the module; bad input."""
import inspect
import json
from pathlib import Path

import pytest

import fastscore
from fastscore import tasks
from fastscore.cli import main
from fastscore.errors import InputError, ParseError, UsageError
from fastscore.formats.triples import read_triples
from fastscore.triples.score import score_triples
from fastscore.triples.task import TRIPLES

ANCHORS = Path(__file__).parent / "data" / "triples_anchors"

HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n<triples>\n'


def triple(tid, relation, first, second=(), first_label="", second_label=""):
    f = "".join(f'<elementFirst id="{i}"/>' for i in first)
    s = "".join(f'<elementSecond id="{i}"/>' for i in second)
    fl = f' label="{first_label}"' if first_label else ""
    sl = f' label="{second_label}"' if second_label else ""
    rel = f' relation="{relation}"' if relation is not None else ""
    return f'<triple id="{tid}"{rel}><elementFirstIds{fl}>{f}</elementFirstIds>' \
           f'<elementSecondIds{sl}>{s}</elementSecondIds></triple>\n'


def write(path, *triples):
    path.write_text(HEAD + "".join(triples) + "</triples>\n", encoding="utf-8")
    return str(path)


@pytest.fixture
def registered():
    tasks.register(TRIPLES)
    yield  # a registered task: stays registered


@pytest.fixture
def pair(tmp_path):
    gold = write(tmp_path / "gold.trp", triple("t1", "agent", ["w1"], ["w2", "w3"]),
                 triple("t2", "patient", ["w1"], ["w5"]), triple("t3", "LOCATION", ["w1"], ["w7"]),
                 triple("t4", "positive", ["w9"]))
    system = write(tmp_path / "system.trp", triple("s1", "Agent", ["w1", "w0"], ["w3"]),
                   triple("s2", "agent", ["w1"], ["w2"]), triple("s3", "patient", ["w1"], ["w2"]),
                   triple("s4", "positive", ["w9"]), triple("s5", "LOCATION", ["w1"], ["w7"]))
    return gold, system


def test_json_layout(pair, registered, capsys):
    assert main(["triples", *pair, "--output", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["task"] == "triples"
    m = out["metrics"]["triples"]
    assert set(m) == {"precision", "recall", "f1", "correct", "system", "gold"}
    assert (m["correct"], m["system"], m["gold"]) == (3, 5, 4)  # LOCATION scored (the module drops it)
    assert m["precision"] == pytest.approx(3 / 5) and m["recall"] == pytest.approx(3 / 4)
    assert all(0 <= m[k] <= 1 for k in ("precision", "recall", "f1"))
    stats = out["statistics"]
    assert stats["gold"]["triples"] == 4 and stats["system"]["unique_in_scope"] == 5
    assert set(stats["variants"]) == {"partial", "partial-any-relation", "exact", "exact-any-relation"}
    assert set(stats["first_elements"]) == {"gold", "system", "correct", "precision", "recall"}
    rel = out["per_relation"]
    assert set(rel) == {"Agent", "agent", "patient", "positive", "LOCATION"}  # exact names, as the module keys them
    assert rel["agent"] == {"gold": 1, "gold_share": 0.25, "system": 1, "system_share": 0.2, "correct": 1,
                            "recall": 1.0, "precision": 1.0}


def test_location_defect_switch_reproduces_the_module(pair):
    fixed = score_triples(*pair).to_dict()["metrics"]["triples"]
    module = score_triples(*pair, location_defect=True).to_dict()["metrics"]["triples"]
    assert (fixed["correct"], fixed["gold"]) == (3, 4)
    assert (module["correct"], module["system"], module["gold"]) == (2, 4, 3)


def test_variants_and_dedup(tmp_path):
    # two system triples overlapping each other (one unique) match two different gold triples: the
    # module's precision passes 1, and says so
    gold = write(tmp_path / "g.trp", triple("g1", "a", ["w1"], ["w2"]), triple("g2", "a", ["w1"], ["w4"]))
    system = write(tmp_path / "s.trp", triple("s1", "a", ["w1"], ["w2", "w3"]), triple("s2", "a", ["w1"], ["w3", "w4"]))
    r = score_triples(gold, system)
    m = r.to_dict()["metrics"]["triples"]
    assert (m["correct"], m["system"]) == (2, 1) and m["precision"] == 2.0
    assert any("precision above 1" in w for w in r.warnings)
    exact = score_triples(gold, system, exact_ids=True).to_dict()["metrics"]["triples"]
    assert exact["correct"] == 0
    # overlapping gold triples: EvaluateTriples counts one (overlap), the debug evaluator both (exact)
    gold2 = write(tmp_path / "g2.trp", triple("g1", "a", ["w1"], ["w2"]), triple("g2", "a", ["w1"], ["w2", "w3"]))
    sys2 = write(tmp_path / "s2.trp", triple("s1", "a", ["w1"], ["w2"]), triple("s2", "a", ["w1"], ["w3"]))
    assert score_triples(gold2, sys2).to_dict()["metrics"]["triples"]["correct"] == 1
    assert score_triples(gold2, sys2, dedup="exact").to_dict()["metrics"]["triples"]["correct"] == 2


def test_folders_pair_by_name(tmp_path, registered, capsys):
    for side, suffix in (("gold", ".tag.trp"), ("system", ".kaf.trp")):
        (tmp_path / side).mkdir()
        for k in range(3):
            write(tmp_path / side / f"doc{k}{suffix}", triple("t", "a", [f"w{k}"], ["w9"]))
    r = score_triples(tmp_path / "gold", tmp_path / "system", ignore_file_suffix=8)
    assert r.documents == ["doc0", "doc1", "doc2"]  # the names the files pair by
    assert r.to_dict()["statistics"]["dedup"] == "exact"
    with pytest.raises(InputError, match="has no system file"):
        score_triples(tmp_path / "gold", tmp_path / "system")
    (tmp_path / "system" / "doc2.kaf.trp").unlink()
    with pytest.raises(InputError, match="doc2.tag.trp has no system file"):
        score_triples(tmp_path / "gold", tmp_path / "system", ignore_file_suffix=8)
    assert main(["triples", str(tmp_path / "gold"), str(tmp_path / "system"), "--ignore-file-suffix", "8"]) == 1
    assert "has no system file" in capsys.readouterr().err


def _folder(path, n_docs, found):
    path.mkdir()
    for d in range(n_docs):
        write(path / f"d{d}.trp", *[triple(f"t{k}", "a", [f"w{k}"], [f"w{k + 50}"]) for k in range(found(d))])
    return str(path)


def test_compare_sweep_bootstrap(tmp_path, registered, capsys):
    gold = _folder(tmp_path / "gold", 12, lambda d: 10)
    runs = tmp_path / "runs"
    runs.mkdir()
    systems = [_folder(runs / f"sys{n}", 12, lambda d, n=n: max(1, n - d % 3)) for n in (9, 6, 3)]
    result = fastscore.bootstrap(fastscore.score(gold, systems[0], task="triples"), 200)
    lo, hi = result.to_dict()["metrics"]["triples"]["ci"]
    assert lo <= result.to_dict()["metrics"]["triples"]["f1"] <= hi
    swept = fastscore.sweep(gold, list(reversed(systems)), task="triples")
    assert [s.name for s in swept.systems] == systems
    assert main(["compare", gold, systems[0], systems[1], "--task", "triples", "--resamples", "200", "-o",
                 "json"]) == 0
    assert json.loads(capsys.readouterr().out)["task"] == "triples"
    assert main(["triples", gold, systems[0], "--bootstrap", "200", "--output", "text"]) == 0
    assert "CI of F1" in capsys.readouterr().out
    assert main(["triples", gold, systems[0], "--bootstrap", "200", "--output", "module"]) == 2


def test_sweep_a_folder_of_system_files(tmp_path, registered, capsys):
    gold = write(tmp_path / "gold.trp", *[triple(f"t{k}", "a", [f"w{k}"], [f"w{k + 50}"]) for k in range(20)])
    folder = tmp_path / "runs"
    folder.mkdir()
    for n in (18, 10, 4):
        write(folder / f"sys{n}.trp", *[triple(f"s{k}", "a", [f"w{k}"], [f"w{k + 50}"]) for k in range(n)])
    assert main(["sweep", gold, str(folder), "--task", "triples", "-o", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [s["name"].rsplit("/", 1)[-1] for s in out["systems"]] == ["sys18.trp", "sys10.trp", "sys4.trp"]


@pytest.mark.parametrize("fmt", ["text", "module", "json", "csv", "markdown"])
def test_every_output(pair, registered, capsys, fmt):
    assert main(["triples", *pair, "--output", fmt, "--per-doc"]) == 0
    assert capsys.readouterr().out.strip()


def test_option_defaults_are_the_api_defaults():
    signature = inspect.signature(score_triples).parameters
    for option in TRIPLES.in_scope("score", "command"):
        default = signature[option.keyword].default
        assert option.default == (None if default is inspect.Parameter.empty else default), option.flags


def test_relation_filter_and_map(tmp_path):
    gold = write(tmp_path / "g.trp", triple("g1", "done-by", ["w1"], ["w2"]), triple("g2", "theme", ["w1"], ["w4"]))
    system = write(tmp_path / "s.trp", triple("s1", "a0", ["w1"], ["w2"]), triple("s2", "theme", ["w1"], ["w4"]))
    (tmp_path / "map.tsv").write_text("done-by\ta0\nbad line\n", encoding="utf-8")
    (tmp_path / "filter.txt").write_text("done-by\na0\n", encoding="utf-8")
    r = score_triples(gold, system, relation_map=str(tmp_path / "map.tsv"))
    assert r.to_dict()["metrics"]["triples"]["correct"] == 2
    assert any("relation map line ignored" in w for w in r.warnings)
    r = score_triples(gold, system, relation_map=str(tmp_path / "map.tsv"),
                      relation_filter=str(tmp_path / "filter.txt"))
    assert r.to_dict()["metrics"]["triples"]["gold"] == 1  # the filter sees the file's names, then the map


def test_token_range(tmp_path):
    gold = write(tmp_path / "g.trp", triple("g1", "a", ["w1"], ["w2"]))
    system = write(tmp_path / "s.trp", triple("s1", "a", ["w1"], ["w2"]), triple("s2", "a", ["w8"], ["w2"]),
                   triple("s3", "a", [], ["w2"]))
    (tmp_path / "range.txt").write_text("  w1\n\nw1\n", encoding="utf-8")
    stats = score_triples(gold, system, token_range=str(tmp_path / "range.txt")).to_dict()["statistics"]["system"]
    assert (stats["in_range"], stats["out_of_range"]) == (1, 2)


# ---- bad input

def test_malformed_xml_names_file_and_line(tmp_path):
    bad = tmp_path / "bad.trp"
    bad.write_text(HEAD + '<triple id="t1" relation="a">\n<elementFirstIds>\n</triple>\n', encoding="utf-8")
    doc = read_triples(bad).documents["document"]  # the module keeps the triples read before the error (warned)
    assert len(doc) == 0 and "bad.trp:5: malformed XML: mismatched tag" in doc.warnings[0]
    with pytest.raises(ParseError, match=r"bad.trp:5: .*malformed XML: mismatched tag"):  # --fix-module-quirks
        raise doc.fixed


def test_triple_without_relation(tmp_path):
    bad = write(tmp_path / "norel.trp", triple("t1", "a", ["w1"]), triple("t2", None, ["w2"]))
    with pytest.raises(ParseError, match=r'norel.trp:4: .*triple "t2" has no relation'):
        read_triples(bad)


def test_empty_token_range_and_filter(pair, tmp_path):
    (tmp_path / "empty.txt").write_text("\n  \n", encoding="utf-8")
    with pytest.raises(ParseError, match="token-range file names no tokens"):
        score_triples(*pair, token_range=str(tmp_path / "empty.txt"))
    with pytest.raises(ParseError, match="relation filter names no relations"):
        score_triples(*pair, relation_filter=str(tmp_path / "empty.txt"))
    with pytest.raises(ParseError, match="file not found"):
        score_triples(*pair, relation_map=str(tmp_path / "missing.tsv"))


def test_file_against_folder_and_bad_suffix(pair, tmp_path, registered, capsys):
    with pytest.raises(InputError, match="two files or two folders"):
        score_triples(pair[0], tmp_path)
    with pytest.raises(UsageError):
        score_triples(*pair, dedup="sometimes")
    with pytest.raises(SystemExit):
        main(["triples", *pair, "--ignore-file-suffix", "-2"])
    assert "expected 0 or more characters" in capsys.readouterr().err


def test_upper_case_closing_tag_is_dropped_with_a_warning(tmp_path):
    path = tmp_path / "upper.trp"
    path.write_text(HEAD + '<TRIPLE id="t1" relation="a"><elementFirstIds><elementFirst id="w1"/>'
                    "</elementFirstIds></TRIPLE>\n</triples>\n", encoding="utf-8")
    read = read_triples(path)
    assert len(read.documents["document"]) == 0 and "dropped" in read.warnings[0]


def test_the_command_line_with_the_task_is_built_without_numba():
    import subprocess
    import sys

    code = ("import sys\nfrom fastscore import tasks\nfrom fastscore.triples.task import TRIPLES\n"
            "tasks.register(TRIPLES)\nfrom fastscore.cli import _parser, _stats_task\n"
            "_parser(_stats_task(['compare', '--task', 'triples']))\n"
            "assert 'numba' not in sys.modules, 'numba imported'\nprint('ok')")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0 and proc.stdout.strip() == "ok", proc.stderr


# ---- input the module reads quietly (issue 26): errors where it is not a triple file, else warnings

@pytest.mark.parametrize("text, kind", [
    ('<?xml version="1.0"?>\n<TimeML>\n<TEXT>He <EVENT eid="e1">left</EVENT>.</TEXT>\n</TimeML>\n',
     'score it with "fastscore temporal"'),
    ('<?xml version="1.0"?>\n<kybotOut>\n<doc shortname="x"/>\n</kybotOut>\n', "fastscore convert"),
    ('<?xml version="1.0"?>\n<catalog>\n<book id="b1"/>\n</catalog>\n', "not a triple file;"),
])
def test_xml_of_another_kind_is_refused_naming_the_task(tmp_path, pair, registered, capsys, text, kind):
    other = tmp_path / "other.xml"
    other.write_text(text, encoding="utf-8")
    for args in ([pair[0], other], [other, pair[1]]):
        assert main(["triples", *map(str, args)]) == 1
        err = capsys.readouterr().err.strip().split("\n")
        assert len(err) == 1 and f"{other}:2: " in err[0] and kind in err[0], err


def test_an_empty_triple_file_is_scored(tmp_path, pair):
    empty = tmp_path / "empty.trp"
    empty.write_text('<?xml version="1.0"?>\n<triples>\n</triples>\n', encoding="utf-8")
    m = score_triples(pair[0], empty).to_dict()["metrics"]["triples"]
    assert (m["correct"], m["system"], m["gold"]) == (0, 0, 4)


def test_elements_without_ids_are_ignored_with_a_warning(tmp_path):
    gold = write(tmp_path / "g.trp", triple("g1", "a", ["w1"], ["w2"]), triple("g2", "a", ["w5"], ["w6"]))
    plain = write(tmp_path / "plain.trp", triple("s1", "a", ["w1"], ["w2"]), triple("s2", "a", ["w5"]))
    odd = tmp_path / "odd.trp"
    odd.write_text(Path(plain).read_text(encoding="utf-8").replace(
        '<elementFirst id="w5"/>', '<elementFirst id="w5"/><elementFirst/>').replace(
        '<elementFirstIds><elementFirst id="w1"/>', '<elementFirstIds><elementFirst/><elementFirst id="w1"/>'),
        encoding="utf-8")
    result = score_triples(gold, str(odd))
    assert result.to_dict()["metrics"] == score_triples(gold, plain).to_dict()["metrics"]  # as the module: ignored
    (warning,) = [w for w in result.warnings if "has no id" in w]
    assert f"{odd}:3: " in warning and 'triple "s1"' in warning and "(2 such elements in the file)" in warning
    empty = write(tmp_path / "e.trp", triple("s1", "a", ["w1"], [" "]), triple("s2", "a", ["w1"], [""]))
    result = score_triples(gold, empty)
    assert any('e.trp:3: triple "s1": <elementSecond> has an empty id' in w for w in result.warnings)
    assert result.to_dict()["statistics"]["variants"]["partial"]["system"] == 1  # "" met "": one duplicate


def test_token_range_ids_no_triple_names_are_warned(tmp_path, pair):
    (tmp_path / "range.txt").write_text("w1\nw404\nw405\n", encoding="utf-8")
    result = score_triples(*pair, token_range=str(tmp_path / "range.txt"))
    (warning,) = [w for w in result.warnings if "range.txt" in w]
    assert "2 of 3 token ids occur in no triple" in warning and "'w404'" in warning
    (tmp_path / "inside.txt").write_text("w1\nw9\n", encoding="utf-8")
    assert not score_triples(*pair, token_range=str(tmp_path / "inside.txt")).warnings


@pytest.mark.parametrize("options", [{}, {"ignore_relations": True}, {"exact_ids": True}, {"dedup": "exact"}])
def test_gold_against_itself_says_how_many_gold_triples_were_merged(options):
    gold = str(ANCHORS / "case-006" / "gold.trp")  # duplicates and overlaps for every variant
    result = score_triples(gold, gold, **options)
    m = result.to_dict()["metrics"]["triples"]
    assert m["recall"] < 1
    (warning,) = [w for w in result.warnings if "merged as duplicates" in w]
    assert warning.startswith(f"{m['gold'] - m['correct']} of {m['gold']} gold triples are merged")
    assert f"recall {100 * m['recall']:.2f}, not 100" in warning


def test_nothing_correct_says_why(tmp_path, pair):
    other_ids = write(tmp_path / "ids.trp", triple("s1", "agent", ["w70"], ["w71"]))
    (warning,) = score_triples(pair[0], other_ids).warnings
    assert "nothing correct" in warning and "no system triple has ids in both elements in common" in warning
    other_rel = write(tmp_path / "rel.trp", triple("s1", "theme", ["w1"], ["w2"]))
    (warning,) = score_triples(pair[0], other_rel).warnings
    assert "never with the same relation" in warning and "system relations: theme" in warning
    assert not score_triples(pair[0], other_rel, ignore_relations=True).warnings
    partly = write(tmp_path / "partly.trp", triple("s1", "agent", ["w1", "w0"], ["w2"]))  # ids meet, not all
    for options in ({"exact_ids": True}, {"exact_ids": True, "ignore_relations": True}):
        (warning,) = score_triples(pair[0], partly, **options).warnings
        assert "never all of an element's ids (--exact-ids)" in warning and "--ignore-relations" not in warning


def test_an_element_after_a_triple_end_fills_that_triple_as_in_the_module(tmp_path):
    """The module's parser keeps adding to the triple it stored: the stray id matches, but the token range and
    the average ids were taken when the triple ended."""
    gold = write(tmp_path / "g.trp", triple("g1", "a", ["w1"], ["w2"]), triple("g2", "a", ["w5"], ["w9"]))
    system = tmp_path / "s.trp"
    system.write_text(HEAD + triple("s1", "a", ["w1"], ["w2"]) + triple("s2", "a", ["w5"]) + '<elementSecond id="w9"/>'
                      + '<elementFirst id="w7"/>\n</triples>\n', encoding="utf-8")
    result = score_triples(gold, str(system))
    assert result.to_dict()["metrics"]["triples"]["correct"] == 2
    (warning,) = [w for w in result.warnings if "after the triple's end" in w]
    assert f"{system}:5: " in warning and 'triple "s2"' in warning and "(2 such elements in the file)" in warning
    assert result.to_dict()["statistics"]["system"]["average_second_ids"] == 0.5  # w9 came after the end
    (tmp_path / "range.txt").write_text("w1\nw7\n", encoding="utf-8")  # w7 came after s2's end: out of range
    stats = score_triples(gold, str(system), token_range=str(tmp_path / "range.txt")).to_dict()["statistics"]
    assert (stats["system"]["in_range"], stats["system"]["out_of_range"]) == (1, 1)
