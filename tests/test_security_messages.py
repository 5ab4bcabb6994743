"""Messages on hostile input (issue 35, item 11): every id, name, path and line a message quotes is escaped (one
line, invisible and right-to-left characters shown as escapes) and cut to a sane length; a removed working folder,
links to nothing or to folders are named for what they are; compare pairs documents by name, not by order."""
from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from fastscore.cli import main
from fastscore.errors import InputError, ParseError
from fastscore.stats.compare import compare_stats
from fastscore.stats.docstats import DocStats
from tests.conftest import ROOT

EXAMPLES = ROOT / "fastscore" / "examples"
KEY, RESPONSE = EXAMPLES / "key.conll", EXAMPLES / "response.conll"


def _error(capsys, *args) -> str:
    """The one error line of a run that exits 1."""
    code = main([str(a) for a in args])
    err = capsys.readouterr().err
    lines = [x for x in err.splitlines() if not x.startswith("fastscore: warning: ")]
    assert code == 1 and len(lines) == 1 and lines[0].startswith("fastscore: error: "), err
    return lines[0]


def _documents(tmp_path: Path, name: str, names: list[str], source: Path = RESPONSE) -> Path:
    """A CoNLL file of the example document once per name, in that order."""
    text = source.read_text()
    path = tmp_path / name
    path.write_text("".join(text.replace("(LuoTestCase)", f"({n})") for n in names))
    return path


# ---- shown: the one helper


def test_shown_escapes_what_does_not_show_and_cuts_the_middle():
    from fastscore.messages import SHOWN, shown

    assert shown("nw/wsj/0001") == "nw/wsj/0001"  # printable text as it is
    assert shown("a\u200bb") == "a\\u200bb" and shown("x\u202ey") == "x\\u202ey" and shown("\u2066") == "\\u2066"
    assert shown("a\nb\rc\td\x00") == "a\\nb\\rc\\td\\x00"
    assert shown("a\u00a0b") == "a\\xa0b" and shown("\u3164") == "\\u3164"  # a space that is none, a blank letter
    assert shown("é日本") == "é日本"
    assert shown("\udcff.conll") == "\\xff.conll"  # a byte of a file name that is not UTF-8
    long = "a" * 50 + "b" * 10_000 + "c" * 50
    cut = shown(long)
    assert len(cut) <= SHOWN and cut.startswith("aaa") and cut.endswith("ccc") and "10,100 characters" in cut
    assert shown(cut) == cut and shown(shown("a\nb")) == "a\\nb"  # showing twice changes nothing


# ---- the cases of the issue


def test_a_lone_cr_file_gets_a_short_message(tmp_path, capsys):
    """Lines ended by CR alone are one line: the document name is the whole file (1.8 MB on the issue's file)."""
    lone_cr = tmp_path / "cr.conll"
    lone_cr.write_bytes(KEY.read_bytes().replace(b"\n", b"\r") * 300)
    line = _error(capsys, "coref", lone_cr, RESPONSE)
    assert len(line) < 700 and "\r" not in line and "\\r" in line and "characters]" in line  # (two paths in it)
    assert "lines end with a lone CR" in line
    from fastscore.api import read_conll

    table = read_conll(lone_cr)  # read as v8.01 reads it: one document named by the whole file, warned of
    assert len(table.doc_names[0]) > 100_000 and all(len(w) < 700 and "\r" not in w for w in table.warnings)
    with pytest.raises(ParseError) as caught:  # the refusal of the corrected reading: its attribute keeps the name
        read_conll(lone_cr, fix_scorer_quirks=True)
    assert len(str(caught.value)) < 400 and len(caught.value.document) > 100_000


@pytest.mark.parametrize("mark", ["\u200b", "\u202e", "\u2067"])
def test_zero_width_and_right_to_left_ids_are_escaped(tmp_path, capsys, mark):
    key = _documents(tmp_path, "key.conll", [f"a{mark}b"], KEY)
    response = _documents(tmp_path, "response.conll", ["ab"])
    line = _error(capsys, "coref", key, response)
    assert mark not in line and f"a\\u{ord(mark):04x}b" in line and '"(ab); "' in line


def test_a_removed_working_folder_is_named(tmp_path, capsys, monkeypatch):
    gone = tmp_path / "gone"
    gone.mkdir()
    monkeypatch.chdir(gone)
    gone.rmdir()
    for args in (["coref", KEY, RESPONSE], ["coref", "key.conll", "response.conll"],
                 ["compare", KEY, RESPONSE, KEY]):
        line = _error(capsys, *args)
        assert "working folder" in line and "no longer exists" in line
        if os.path.exists("/proc/self/cwd"):
            assert str(gone) in line


def test_a_newline_in_a_path_stays_on_one_line(tmp_path, capsys):
    bad = tmp_path / "bad\nname.conll"
    bad.write_text("x\t0\t0\tw\t-\n")
    line = _error(capsys, "coref", bad, RESPONSE)
    assert "bad\\nname.conll:1:" in line
    line = _error(capsys, "coref", KEY, tmp_path / "mis\nsing.conll")
    assert "mis\\nsing.conll: file not found" in line


def test_an_unknown_argument_with_a_newline_stays_on_one_line(capsys):
    with pytest.raises(SystemExit):
        main(["coref", str(KEY), str(RESPONSE), "x\ny"])
    err = capsys.readouterr().err
    assert "x\\ny" in err and not any(line == "y" for line in err.splitlines())


# ---- compare: documents paired by name


def _stats(names: list[str], rows: dict[str, list[float]]) -> DocStats:
    from fastscore.coref.metrics import METRICS
    from fastscore.metrics import layout_of

    columns = layout_of(METRICS)
    matrix = np.array([[rows[n][k % 2] + k for k in range(len(columns))] for n in names], dtype=np.float64)
    return DocStats(list(names), matrix, columns, METRICS)


def test_compare_puts_a_system_in_the_baseline_order():
    base = {"a": [3.0, 5.0], "b": [1.0, 4.0], "c": [2.0, 2.0], "d": [0.0, 6.0]}
    system = {"a": [4.0, 5.0], "b": [1.0, 2.0], "c": [2.0, 3.0], "d": [1.0, 6.0]}
    order = ["a", "b", "c", "d"]
    same = compare_stats(("base", _stats(order, base)), [("sys", _stats(order, system))], "muc", resamples=200,
                         task="coref")
    shuffled = compare_stats(("base", _stats(order, base)), [("sys", _stats(["c", "a", "d", "b"], system))], "muc",
                             resamples=200, task="coref")
    assert same.systems[0].to_dict() == shuffled.systems[0].to_dict()
    assert same.baseline_score == shuffled.baseline_score and same.baseline_ci == shuffled.baseline_ci
    with pytest.raises(InputError, match='documents differ from the baseline\'s: the baseline\'s document "d" is '
                                         'missing and document "e" is not'):
        compare_stats(("base", _stats(order, base)), [("sys", _stats(["a", "b", "c", "e"], {**system, "e": [1, 1]}))],
                      "muc", resamples=10, task="coref")


def test_compare_shards_cut_otherwise(tmp_path, capsys):
    """Key and baseline one document a shard, the system two documents in one shard: its documents come in
    another order (the issue's `compare ks rs ks2`)."""
    for folder in ("key", "base", "sys"):
        (tmp_path / folder).mkdir()
    for i, name in enumerate("abc", 1):
        _documents(tmp_path / "key", f"{i}.conll", [name], KEY)
        _documents(tmp_path / "base", f"{i}.conll", [name])
    _documents(tmp_path / "sys", "x.conll", ["a", "c"])
    _documents(tmp_path / "sys", "y.conll", ["b"])
    code = main(["compare", str(tmp_path / "key"), str(tmp_path / "base"), str(tmp_path / "sys"), "--resamples",
                 "50", "--jobs", "1", "-o", "json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert str(tmp_path / "sys") in out


# ---- what a path is when it is no file


def test_a_link_to_a_folder_in_a_sweep_says_so(tmp_path, capsys):
    runs = tmp_path / "runs"
    runs.mkdir()
    (tmp_path / "folder").mkdir()
    (runs / "a.conll").write_bytes(RESPONSE.read_bytes())
    (runs / "b.conll").symlink_to(tmp_path / "folder")
    line = _error(capsys, "sweep", KEY, runs)
    assert "runs/b.conll: is a link to the folder" in line and "expected a file" in line


def test_a_dangling_link_says_so(tmp_path, capsys):
    (tmp_path / "c.conll").symlink_to(tmp_path / "nothing")
    line = _error(capsys, "coref", KEY, tmp_path / "c.conll")
    assert "file not found: it is a link to" in line and "dangling link" in line
    line = _error(capsys, "sweep", KEY, tmp_path)
    assert "c.conll: file not found: it is a link to" in line


def test_a_shard_that_is_no_file_is_refused_not_left_out(tmp_path, capsys):
    key = tmp_path / "key"
    key.mkdir()
    _documents(key, "1.conll", ["a"], KEY)
    _documents(key, "2.conll", ["b"], KEY)
    (key / "3.conll").symlink_to(tmp_path / "nothing")  # a gold shard gone: its documents would go unscored
    line = _error(capsys, "coref", key, key)
    assert "3.conll: file not found: it is a link to" in line
