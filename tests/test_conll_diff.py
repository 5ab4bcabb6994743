"""Differential test against the CoNLL reference scorer v8.01 and coval's LEA on generated pairs.

tests/data/conll_diff/cases.json.gz holds key/response pairs made by scripts/make_conll_diff.py (mentions
in two entities, repeats, nested and crossing brackets, split antecedents, empty, one-sided and
multi-part documents, more than 10 repeats, items back to back) and what v8.01 printed for each metric,
for ``all`` and for one document named (``--doc``), and coval's LEA counts.  Where v8.01 refuses or dies,
fastscore must refuse with an input error; elsewhere every TOTALS section must be one v8.01 printed.
v8.01 adds documents in Perl's hash order, so a fractional numerator's 15th digit can follow that order:
the generator keeps the reading of each of four hash seeds, and a section also agrees when v8.01's
reading is what adding fastscore's per-document numbers in some order prints (fastscore adds them
exactly).  The ``--doc`` report (one document: no order) must be v8.01's, line for line.

tests/data/conll_diff/quirks.json.gz holds such pairs with one of the lines v8.01 reads otherwise than meant
(a byte-order mark, whitespace after the last TAB, a CRLF file with trailing TABs): fastscore reads them as
v8.01 does by default, so the same comparison holds.

Every pair v8.01 scores is also converted to jsonlines (``fastscore convert``) and scored metric by
metric: the same totals.  The whole comparison is slow (``-m slow``); the default run checks every 30th case.
"""
from __future__ import annotations

import gzip
import itertools
import json
import random
import warnings
from pathlib import Path

import pytest

from fastscore import InputError, read_conll, score_coref
from fastscore.coref.convert import convert
from fastscore.errors import FastscoreError, FastscoreWarning
from fastscore.formats.conll import v801_column_items
from fastscore.metrics import PRF
from fastscore.coref.reports import perl
from tests.conftest import TESTDATA

def _load(name: str) -> dict:
    return json.loads(gzip.decompress((TESTDATA / "conll_diff" / name).read_bytes()))["cases"]


# the pairs, and those with one of v8.01's misreadings (issue 36: ``make_conll_diff.py --quirks``)
CASES = {**_load("cases.json.gz"), **{f"quirk-{name}": case for name, case in _load("quirks.json.gz").items()}}
METRIC_RUNS = {"muc": ["muc"], "bcub": ["bcub"], "ceafm": ["ceafm"], "ceafe": ["ceafe"], "blanc": ["blanc"],
               "all": None}


def _files(case: str, folder: Path) -> tuple[Path, Path]:
    key, resp = folder / "key", folder / "response"
    key.write_text(CASES[case]["key"])
    resp.write_text(CASES[case]["response"])
    return key, resp


def _totals(report: str) -> list[str]:
    """The TOTALS sections of a report, as make_conll_diff.totals_sections cuts them."""
    return [part.split("\n\n", 1)[0] if "METRIC" in part else part
            for part in report.split("====== TOTALS =======\n")[1:]]


def _score(key: Path, resp: Path, metrics, doc: str | None = None):
    """fastscore's result, or None where it refuses the input."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return score_coref(key, resp, metrics, doc=doc)
    except InputError:
        return None


def _report(result, per_doc: bool = False) -> str:
    return perl.render(result, per_doc=per_doc).split("\n", 1)[1]


def _in_some_order(result, metric: str, section: str) -> bool:
    """v8.01 adds documents' numerators in Perl's hash order: whether ``section`` (one TOTALS section
    of v8.01) is what adding fastscore's per-document numbers in some order prints (every order up to 6
    documents, else 3,000 seeded ones)."""
    stats = result.doc_stats
    rows = [stats.row(i) for i in range(len(stats.doc_names))]
    sums = stats.sums()
    ident = "Identification of Mentions: " + perl.rpf_line(*(float(sums[f"mentions_{c}"]) for c in PRF))
    if metric not in ("bcub", "ceafe") or len(rows) < 2:
        return False  # integer counts, or one document: no order to follow
    rng = random.Random(0)
    orders = (itertools.permutations(range(len(rows))) if len(rows) <= 6
              else (rng.sample(range(len(rows)), len(rows)) for _ in range(3000)))
    for order in orders:
        values = [0.0] * 4
        for i in order:
            for k, c in enumerate(PRF):
                values[k] += float(rows[i][f"{metric}_{c}"])
        if ident + "Coreference: " + perl.rpf_line(*values) == section.rstrip("\n") + "\n":
            return True
    return False


def _totals_match(result, metrics: list[str], got: list[str], readings: list[list[str]]) -> bool:
    """Every TOTALS section is one v8.01 printed under some hash seed, or v8.01's is what adding
    fastscore's per-document numbers in another order prints (fastscore adds them exactly)."""
    return len(got) == len(readings[0]) and all(
        any(section == r[i] for r in readings) or _in_some_order(result, metrics[i], readings[0][i])
        for i, section in enumerate(got))


def _lea(key: Path, resp: Path) -> list[float] | None:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            lea = score_coref(key, resp, ["lea"]).scores()["metrics"]["lea"]
    except InputError:
        return None
    return [lea["recall_num"], lea["recall_den"], lea["precision_num"], lea["precision_den"]]


def differences(case: str, folder: Path) -> list[str]:
    """What differs from v8.01 and coval on one case (empty: identical)."""
    spec = CASES[case]
    key, resp = _files(case, folder)
    out = []
    for run, metrics in METRIC_RUNS.items():
        expected = spec["runs"][run]
        result = _score(key, resp, metrics)
        if expected["rc"] != 0 or "TOTALS" not in expected["stdout"]:
            if result is not None:
                out.append(f"{run}: v8.01 refuses ({expected['stderr'][:80]!r}), fastscore scores")
        elif result is None:
            out.append(f"{run}: fastscore refuses, v8.01 scores")
        elif not _totals_match(result, metrics or list(perl.PERL_METRICS), _totals(_report(result)),
                               expected["totals"]):
            out.append(f"{run}: totals differ:\n{_totals(_report(result))}\nv8.01: {expected['totals'][0]}")
    expected = spec["runs"]["doc"]
    result = _score(key, resp, None, spec["doc"])
    if expected["rc"] != 0 or "TOTALS" not in expected["stdout"]:
        if result is not None:
            out.append(f"--doc: v8.01 refuses ({expected['stderr'][:80]!r}), fastscore scores")
    elif result is None:
        out.append("--doc: fastscore refuses, v8.01 scores")
    elif _report(result, per_doc=True) != expected["stdout"]:
        out.append(f"--doc: report differs:\n{_report(result, per_doc=True)}\nv8.01:\n{expected['stdout']}")
    if "coval_lea" in spec:
        got_lea = _lea(key, resp)
        if got_lea is None:
            out.append("lea: fastscore refuses, coval scores")
        elif got_lea != pytest.approx(spec["coval_lea"], rel=1e-12, abs=1e-12):
            out.append(f"lea: {got_lea} != coval {spec['coval_lea']}")
    return out


def jsonl_differences(case: str, folder: Path) -> list[str] | None:
    """The pair converted to jsonlines (``fastscore convert``), scored metric by metric: what differs from
    v8.01's totals on the CoNLL files (None: v8.01 refuses the pair, or jsonlines cannot hold it)."""
    spec = CASES[case]
    if any(spec["runs"][m]["rc"] != 0 for m in perl.PERL_METRICS):
        return None
    if any(c in case for c in ("early_token_end", "comment_inside", "bom")):
        # converted, each side holds the tokens v8.01 reads (an early end, '#' lines as tokens, a document hidden
        # by a BOM): where that leaves the sides with different tokens, scoring the jsonlines is refused, as any
        # such pair is
        return None
    key, resp = _files(case, folder)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            convert(key, folder / "key.jsonl", "jsonl")
            convert(resp, folder / "response.jsonl", "jsonl")
    except FastscoreError:
        return None
    out = []
    for metric in perl.PERL_METRICS:
        result = _score(folder / "key.jsonl", folder / "response.jsonl", [metric])
        if result is None or not _totals_match(result, [metric], _totals(_report(result)),
                                               spec["runs"][metric]["totals"]):
            out.append(f"jsonlines {metric}: {'refused' if result is None else _totals(_report(result))}")
    return out


@pytest.mark.slow
@pytest.mark.parametrize("case", sorted(CASES))
def test_every_case_matches_v801(case, tmp_path):
    assert differences(case, tmp_path) == []
    assert jsonl_differences(case, tmp_path) in (None, [])


@pytest.mark.parametrize("case", sorted(CASES)[::30])
def test_some_cases_match_v801(case, tmp_path):
    assert differences(case, tmp_path) == []
    assert jsonl_differences(case, tmp_path) in (None, [])


# ---- what the differences found, one by one (each checked against v8.01 on the generated cases) ----

def _doc(name: str, columns: list[str]) -> str:
    return "\n".join([f"#begin document {name}", *(f"d\t0\t{t}\tw\t{c}" for t, c in enumerate(columns)),
                      "#end document", ""])


def test_columns_read_as_v801_substitutes_items(tmp_path):
    """v8.01 removes each item it finds and searches again, so items written back to back can join:
    (7(12+2)07) loses (12+2), then reads (707); (1+23) is an opening of 1 and a closing of 23."""
    assert v801_column_items("(7(12+2)07)") == ([("single", "707")], ["12+2"])
    assert v801_column_items("(1)|(2|3)") == ([("single", "1"), ("open", "2"), ("close", "3")], [])
    # v8.01 (verbose) reads this document as Entity 0: (0,2); 1: (0,2); 2: (1,1); 3: (2,3), "Discarded (12+2)"
    path = tmp_path / "key"
    path.write_text(_doc("(a); part 000", ["(3|(23", "(7(12+2)07)", "3)|(1+23)", "1)"]))
    table = read_conll(path)
    assert table.document(0) == [[(0, 3)], [(0, 3)], [(1, 2)], [(2, 4)]]
    assert table.cluster_labels[0] == ["3", "23", "707", "1"]
    assert table.discarded == {"(a); part 000": ["12+2"]}


def test_broken_documents_refused_only_when_scored(tmp_path):
    """v8.01 reads only the key's documents (with --doc, only that one) and their namesakes in the response."""
    key = tmp_path / "key"
    key.write_text(_doc("(a); part 000", ["(1", "1)", "(1)"]) + _doc("(b); part 000", ["(2", "-", "-"]))
    resp = tmp_path / "response"
    resp.write_text(_doc("(a); part 000", ["(1", "1)", "(1)"]) + _doc("(x); part 000", ["4)", "-", "-"]))
    with pytest.raises(InputError, match=r'key:\d+: document "\(b\); part 000": unbalanced bracket'):
        score_coref(key, resp, ["muc"])
    with pytest.warns(FastscoreWarning, match=r'1 response document\(s\) not in the key, ignored: "\(x\); part 000"'):
        assert score_coref(key, resp, ["muc"], doc="(a); part 000").scores()["metrics"]["muc"]["recall_num"] == 1
    with pytest.raises(InputError, match="unbalanced bracket"):
        read_conll(resp)  # read on its own, the file is refused as before
    with pytest.raises(InputError, match="unbalanced bracket"):
        convert(resp, tmp_path / "r.jsonl", "jsonl")  # and converted


# ---- issue 36: lines v8.01 reads otherwise than meant (GetFileNames, GetCoreference): its figures, a warning ----

_KEY = _doc("d1", ["(1", "1)", "(1)", "(2)", "-"]) + _doc("d2", ["(3", "3)", "(3)", "-", "(4)"])


def _mentions(tmp_path, response: bytes, **options) -> list[float]:
    """The mention identification counts [recall num, den, precision num, den] of the response against _KEY."""
    key, resp = tmp_path / "key", tmp_path / "response"
    key.write_text(_KEY)
    resp.write_bytes(response)
    m = score_coref(key, resp, ["muc"], **options).scores()["mentions"]
    return [m["recall_num"], m["recall_den"], m["precision_num"], m["precision_den"]]


def test_bom_hides_the_first_document_as_in_v801(tmp_path):
    """v8.01's /^\\#\\s*begin document/ misses a first line starting with U+FEFF: d1 is not in the response
    (v8.01: mentions 3/6, 3/3); --fix-scorer-quirks reads it."""
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        assert _mentions(tmp_path, b"\xef\xbb\xbf" + _KEY.encode()) == [3, 6, 3, 3]
    assert 'response:1: a byte-order mark before "#begin document d1"' in str(said[0].message)
    assert 'missing from the response, scored as empty: "d1"' in str(said[1].message)
    assert _mentions(tmp_path, b"\xef\xbb\xbf" + _KEY.encode(), fix_scorer_quirks=True) == [6, 6, 6, 6]


@pytest.mark.parametrize("tail", ["\t ", "\t\x0b", "\t\x0c", "\t \t"])
def test_whitespace_after_the_last_tab_hides_the_items_as_in_v801(tmp_path, tail):
    """split(/\\t/) drops trailing empty fields only: a last field of whitespace is v8.01's coreference column,
    so d1's items are not read (v8.01: mentions 3/6, 3/3)."""
    resp = _doc("d1", ["(1", "1)", "(1)", "(2)", "-"]).replace("\n", tail + "\n").replace("document" + tail, "document")
    resp = resp.replace("#begin document d1" + tail, "#begin document d1")
    text = (resp + _doc("d2", ["(3", "3)", "(3)", "-", "(4)"])).encode()
    with pytest.warns(FastscoreWarning, match=r"response:2: whitespace after the last TAB \(and 3 more line\(s\)\)"):
        assert _mentions(tmp_path, text) == [3, 6, 3, 3]
    assert _mentions(tmp_path, text, fix_scorer_quirks=True) == [6, 6, 6, 6]


def test_crlf_with_a_trailing_tab_reads_no_item_as_in_v801(tmp_path):
    """Inside a document v8.01 does not strip the CR: "(1)\\t\\r" has the last field "\\r" (v8.01: 0/6, 0/0)."""
    text = "".join(line + "\t\r\n" if line.startswith("d\t") else line + "\r\n" for line in _KEY.splitlines())
    with pytest.warns(FastscoreWarning, match="whitespace after the last TAB"):
        assert _mentions(tmp_path, text.encode()) == [0, 6, 0, 0]
    assert _mentions(tmp_path, text.encode(), fix_scorer_quirks=True) == [6, 6, 6, 6]


def test_a_bracket_hidden_by_a_blank_field_stops_v801_and_fastscore(tmp_path):
    """v8.01 dies ("some mentions in the document do not close"): an error saying why."""
    text = _KEY.replace("d\t0\t1\tw\t1)\n", "d\t0\t1\tw\t1)\t \n", 1).encode()
    with pytest.raises(InputError, match=r"never closed \(v8.01 stops on this document too: .* line 3, whose last "
                                         r"TAB field is whitespace; fix_scorer_quirks=True"):
        _mentions(tmp_path, text)
    assert _mentions(tmp_path, text, fix_scorer_quirks=True) == [6, 6, 6, 6]


@pytest.mark.parametrize("begin", ["#begin document", "  #begin document d1", "#begin  document d1",
                                   "#BEGIN DOCUMENT d1"])
def test_a_start_v801_misses_leaves_the_document_out(tmp_path, begin):
    """/^\\#\\s*begin document (.*?)$/ (a name, one space, at the line's start): v8.01 reads no line up to the next
    start, so d1 is not in the response (v8.01: mentions 3/6, 3/3); fastscore refused these or named d1 ""."""
    text = _KEY.replace("#begin document d1", begin, 1).encode()
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        assert _mentions(tmp_path, text) == [3, 6, 3, 3]
    assert f'response:1: "{begin}" does not start a document for v8.01' in str(said[0].message)


def test_a_response_of_documents_v801_misses_scores_as_empty(tmp_path):
    """v8.01 scores a response whose every document it misses (0/6): not "shares no document"."""
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        assert _mentions(tmp_path, _KEY.replace("#begin document ", "#Begin document ").encode()) == [0, 6, 0, 0]


@pytest.mark.parametrize("end", ["  #end document", "d\t0\t4\tw\t- #end document"])
def test_the_unanchored_end_test_ends_the_document(tmp_path, end):
    """/\\#\\s*end document/ matches anywhere: the line ends d1 for v8.01 (no mention lost here: 6/6)."""
    if end.startswith("d"):  # the last token line of d1 holds the end: d1 has 4 tokens for v8.01, as in this key
        text = _KEY.replace("d\t0\t4\tw\t-\n#end document", end, 1)
        key_text = _KEY.replace("d\t0\t4\tw\t-\n", "", 1)
    else:
        text, key_text = _KEY.replace("\n#end document\n", f"\n{end}\n", 1), _KEY
    (tmp_path / "k2").write_text(key_text)
    (tmp_path / "r2").write_text(text)
    with pytest.warns(FastscoreWarning, match="ends the document for v8.01"):
        m = score_coref(tmp_path / "k2", tmp_path / "r2", ["muc"]).scores()["mentions"]
    assert (m["recall_num"], m["precision_den"]) == (6, 6)


@pytest.mark.parametrize("column, read", [("(2)|(\u0661)", 6), ("(\uff12)", 5), ("(2)|(x1", 6), ("(2) |(1)", 6)])
def test_columns_fastscore_refused_are_read_by_v801s_regexes(tmp_path, column, read):
    """v8.01 reads bytes (\\d: 0-9): (١), (２), (x1 are no items; "(2) |(1)" is two.  Mentions found as v8.01 finds
    them (v8.01: precision's denominator 6, 5, 6, 6); --fix-scorer-quirks refuses the column, as fastscore did."""
    text = _KEY.replace("d\t0\t3\tw\t(2)", f"d\t0\t3\tw\t{column}", 1).encode()
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        assert _mentions(tmp_path, text)[3] == read
    assert "is read by v8.01's regexes as" in str(said[0].message)
    with pytest.raises(InputError, match="bad coreference column"):
        _mentions(tmp_path, text, fix_scorer_quirks=True)


@pytest.mark.parametrize("column", ["(-1)", "e1)", "( 1)"])
def test_a_closing_v801_finds_inside_other_text(tmp_path, column):
    """(\\d+)\\) matches inside "(-1)", "e1)", "( 1)": each closes the open (1 (v8.01: 6/6)."""
    text = _KEY.replace("d\t0\t1\tw\t1)", f"d\t0\t1\tw\t{column}", 1).encode()
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        assert _mentions(tmp_path, text) == [6, 6, 6, 6]


def test_an_unterminated_last_document_is_read_to_the_end_as_in_v801(tmp_path):
    """v8.01 reads the last document to the end of the file (6/6); --fix-scorer-quirks refuses the file."""
    text = _KEY[:-len("#end document\n")].encode()
    with pytest.warns(FastscoreWarning, match=r'response:8: document "d2" has no "#end document"'):
        assert _mentions(tmp_path, text) == [6, 6, 6, 6]
    with pytest.raises(InputError, match='without "#end document"'):
        _mentions(tmp_path, text, fix_scorer_quirks=True)


@pytest.mark.parametrize("side", ["response", "key"])
def test_a_document_ended_early_is_scored_whatever_its_token_count_as_in_v801(tmp_path, side):
    """v8.01 has no token-count check: a document its unanchored end test ends at d1's third token keeps two
    tokens on that side and is scored (v8.01: mentions 4/6, 4/4 and 4/4, 4/6); fastscore refused the counts."""
    early = _KEY.replace("d\t0\t2\tw\t(1)\n", "d\t0\t2\tw\t- #end document\n", 1)
    (tmp_path / "k").write_text(early if side == "key" else _KEY)
    (tmp_path / "r").write_text(_KEY if side == "key" else early)
    with pytest.warns(FastscoreWarning, match="ends the document for v8.01"):
        m = score_coref(tmp_path / "k", tmp_path / "r", ["muc"]).scores()["mentions"]
    got = [m["recall_num"], m["recall_den"], m["precision_num"], m["precision_den"]]
    assert got == ([4, 6, 4, 4] if side == "response" else [4, 4, 4, 6])


@pytest.mark.parametrize("comment, got", [("# a note", [5, 6, 5, 6]), ("# see (2) here", [6, 6, 6, 7]),
                                          ("#\tx\t(2)\t", [6, 6, 6, 7])])
def test_a_comment_inside_a_document_is_a_token_for_v801(tmp_path, comment, got):
    """v8.01 reads every line of a document up to its end as a token line: a `#` line after d1's second token
    moves the tokens after it one on (v8.01: mentions 5/6, 5/6), and its last TAB field is read as a coreference
    column ("(2)": one more mention, 6/7); fastscore read it as a comment (6/6) and refused the token counts."""
    text = _KEY.replace("d\t0\t1\tw\t1)\n", f"d\t0\t1\tw\t1)\n{comment}\n", 1)
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        assert _mentions(tmp_path, text.encode()) == got
    assert "response:4: " in str(said[0].message) and "inside a document is a token line" in str(said[0].message)
    assert _mentions(tmp_path, text.encode(), fix_scorer_quirks=True) == [6, 6, 6, 6]


def test_doc_naming_a_key_document_v801_misses_scores_it_as_empty(tmp_path):
    """v8.01 given `--doc d1` where it misses d1's start in the key scores an empty key document against the
    response's d1 (mentions 0/0, 0/3; its verbose dump prints the key side as "====> :"); fastscore refused it."""
    (tmp_path / "k").write_text(_KEY.replace("#begin document d1", "#BEGIN DOCUMENT d1", 1))
    (tmp_path / "r").write_text(_KEY)
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        result = score_coref(tmp_path / "k", tmp_path / "r", ["muc"], doc="d1")
    m = result.scores()["mentions"]
    assert [m["recall_num"], m["recall_den"], m["precision_num"], m["precision_den"]] == [0, 0, 0, 3]
    assert any('no document "d1" for v8.01' in str(w.message) for w in said)
    assert "d1:\n====> :\nFile :\n====> d1:\n" in perl.render(result, per_doc=True)
