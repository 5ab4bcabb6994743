"""Universal Anaphora files (issue 39): the UA scorer's numbers on its own tests (plural-tests/, unittests.py's
cases made UA files) and on seeded generated pairs in every option set (tests/data/ua_anchors, made by
scripts/make_ua_anchors.py); its traps made clear errors; the engine's counting shortcuts against plain
definitions (tests/reference_ua.py)."""
from __future__ import annotations

import contextlib
import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fastscore.cli import main
from fastscore.errors import InputError, ParseError
from fastscore.ua import engine
from fastscore.ua.clusters import Split, _Hashed
from fastscore.ua.score import score_ua
from tests import reference_ua as ref
from tests.ua_cases import anchors, differences, write_case

FAST_CASES = ("plural:TC-PA-5", "plural:TC-PA-9", "plural:TC-PB-3", "plural:TC-PB-4", "unittest:TC-A-4",
              "seed:2", "seed:7", "cycle:1", "edge:edge-readings")


def _all_pairs():
    data = anchors()
    return [(name, config) for name in data["cases"] for config in data["configs"]]


@pytest.mark.parametrize("name", FAST_CASES)
def test_a_few_cases_in_every_option_set_as_the_scorer(name, tmp_path):
    for config in anchors()["configs"]:
        assert differences(name, config, tmp_path) == [], (name, config)


@pytest.mark.slow
def test_every_stored_case_as_the_scorer(tmp_path):
    bad = {}
    for name, config in _all_pairs():
        found = differences(name, config, tmp_path)
        if found:
            bad[(name, config)] = found
    assert not bad, f"{len(bad)} of {len(_all_pairs())} differ; first: {next(iter(bad.items()))}"


def test_anchors_cover_two_hundred_pairs_per_option_set():
    data = anchors()
    seeds = [n for n in data["cases"] if n.startswith("seed:")]
    assert len(seeds) >= 200 and len(data["configs"]) >= 9
    assert any(n.startswith("plural:") for n in data["cases"]) and any(n.startswith("unittest:") for n in data["cases"])


def test_unittests_expectations(tmp_path):
    """unittests.py's expected numbers for TC-A-2 (read through the UA reader)."""
    key, sys_ = write_case("unittest:TC-A-2", tmp_path)
    r = score_ua(key, sys_)
    s = r.scores()["metrics"]
    assert (s["muc"]["recall"], s["muc"]["precision"]) == pytest.approx((1 / 3, 1))
    assert (s["bcub"]["recall"], s["bcub"]["precision"]) == pytest.approx(((7 / 3) / 6, 1))
    assert (s["ceafe"]["recall"], s["ceafe"]["precision"], s["ceafe"]["f1"]) == pytest.approx((0.6, 0.9, 0.72))
    assert s["blanc"]["f1"] == pytest.approx(0.35385, abs=1e-4)
    assert s["lea"]["recall"] == pytest.approx((1 + 3 * (1 / 3)) / 6)


def test_plural_expectations(tmp_path):
    """plural_unittests.py's TC-PA-4 (missing plural) and TC-PB-3."""
    for name, muc, lea in (("plural:TC-PA-4", (3 / 4, 1), (6 / 8, 1)), ("plural:TC-PB-3", (1, 14 / 15), (1, 0.92))):
        key, sys_ = write_case(name, tmp_path)
        s = score_ua(key, sys_).scores()["metrics"]
        assert (s["muc"]["recall"], s["muc"]["precision"]) == pytest.approx(muc)
        assert (s["lea"]["recall"], s["lea"]["precision"]) == pytest.approx(lea, abs=1e-4)


# --- the scorer's traps: one clear error ------------------------------------------------------------------------

LINE = "{i}\tw\t_\t_\t_\t_\t_\t_\t_\t_\t{ident}\t{bridge}\t_\n"


def _ua(path, cells, bridging=None):
    bridging = bridging or {}
    text = "# newdoc id = d\n" + "".join(LINE.format(i=i + 1, ident=c, bridge=bridging.get(i, "_"))
                                         for i, c in enumerate(cells))
    path.write_text(text)
    return str(path)


CYCLE = ["(EntityID=1|MarkableID=a|ElementOf=2)", "(EntityID=2|MarkableID=b|ElementOf=1)", "(EntityID=3|MarkableID=c)"]


def _cli(*args) -> tuple[int, str]:
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        rc = main(["coref", *args])
    return rc, err.getvalue()


def test_element_of_cycle_is_an_error_not_a_hang(tmp_path):
    key = _ua(tmp_path / "k", CYCLE)
    with pytest.raises(InputError, match="form a cycle"):
        score_ua(key, key)
    rc, err = _cli(key, key, "--format", "ua")
    assert rc == 1 and "cycle" in err and "Traceback" not in err
    assert score_ua(key, key, split_antecedents="drop").f1("bcub") == 1.0  # without plural sets: scored


def test_singletons_dropped_with_plural_sets_is_an_error(tmp_path):
    key = _ua(tmp_path / "k", ["(EntityID=1|MarkableID=a|ElementOf=3)", "(EntityID=2|MarkableID=b|ElementOf=3)",
                               "(EntityID=3|MarkableID=c)"])
    with pytest.raises(InputError, match="assertion"):
        score_ua(key, key, singletons="drop")
    assert score_ua(key, key, singletons="drop", split_antecedents="drop").doc_stats.sums()["muc_recall_den"] == 0


def test_min_outside_its_markable_is_an_error(tmp_path):
    key = _ua(tmp_path / "k", ["(EntityID=1|MarkableID=a|Min=3", ")", "_"])
    with pytest.raises(ParseError, match="Min"):
        score_ua(key, key, match="min")
    assert score_ua(key, key).f1("bcub") == 1.0  # Min is read only with --match min


@pytest.mark.parametrize("cells, problem", [
    ([")"], "closing bracket"),
    (["(EntityID=1|MarkableID=a", "_"], "never closed"),
    (["(EntityID=1)"], "without MarkableID"),
])
def test_what_crashes_the_scorer_is_one_error(tmp_path, cells, problem):
    key = _ua(tmp_path / "k", cells)
    rc, err = _cli(key, key, "--format", "ua")
    assert rc == 1 and problem in err and ":2:" in err and "Traceback" not in err


def test_byte_order_mark_is_an_error(tmp_path):
    key = tmp_path / "k"
    key.write_bytes(b"\xef\xbb\xbf# newdoc id = d\n" + LINE.format(i=1, ident="(EntityID=1|MarkableID=a)",
                                                                     bridge="_").encode())
    with pytest.raises(InputError, match="byte-order mark"):
        score_ua(str(key), str(key))


def test_a_file_without_documents_scores_zeros_as_the_scorer_with_a_warning(tmp_path):
    conll = tmp_path / "k.conll"
    conll.write_text("#begin document (d); part 000\nd 0 0 John (1)\n\n#end document\n")
    result = score_ua(str(conll), str(conll))
    assert result.documents == [] and result.to_dict()["metrics"]["muc"]["f1"] == 0
    assert len(result.warnings) == 1 and "k.conll:2: a token line outside any document" in result.warnings[0]
    assert "CoNLL-2012" in result.warnings[0]
    bare = tmp_path / "k.ua"
    bare.write_text(LINE.format(i=1, ident="(EntityID=1|MarkableID=a)", bridge="_"))
    rc, err = _cli(str(bare), str(bare), "--format", "ua")
    assert rc == 0 and "k.ua:1: a token line outside any document" in err and "Traceback" not in err
    empty = tmp_path / "e.ua"
    empty.write_text("")
    assert "no document" in score_ua(str(empty), str(bare)).warnings[0]


@pytest.mark.parametrize("argv", [["--format", "conllu", "--split-antecedents", "keep"], []])
def test_a_ua_file_read_as_conllu_says_to_give_format_ua(tmp_path, argv):
    key = tmp_path / "k.ua"
    key.write_text("# global.columns = ID FORM LEMMA UPOS XPOS FEATS HEAD DEPREL DEPS MISC IDENTITY BRIDGING "
                   "DISCOURSE_DEIXIS\n# newdoc id = d\n\n# sent_id = 1\n"
                   + LINE.format(i=1, ident="(EntityID=1|MarkableID=a)", bridge="_"))
    rc, err = _cli(str(key), str(key), *argv)
    assert rc == 1 and "k.ua:1: this is a Universal Anaphora (UA) file" in err and "--format ua" in err
    key.write_text("# newdoc id = d\n# sent_id = 1\n" + LINE.format(i=1, ident="(EntityID=1|MarkableID=a)",
                                                                     bridge="_") + "\n")
    rc, err = _cli(str(key), str(key), *argv)
    assert rc == 1 and "k.ua:3: this is a Universal Anaphora (UA) file" in err


def test_skipped_bridging_pairs_are_printed_as_the_scorer_prints_them(tmp_path):
    key = _ua(tmp_path / "k", ["(EntityID=1|MarkableID=a)", "(EntityID=2|MarkableID=b)"],
              {0: "(MarkableID=a|MentionAnchor=zz)"})
    r = score_ua(key, key, bridging=True)
    assert r.printed == ["Skip bridging pair (zz, a) as markable_id does not exist in identity column!"] * 2


def test_options_of_other_formats_are_refused(tmp_path):
    key = _ua(tmp_path / "k", ["(EntityID=1|MarkableID=a)"])
    rc, err = _cli(key, key, "--bridging")
    assert rc == 2 and "--format ua" in err
    rc, err = _cli(key, key, "--format", "ua", "--match", "head")
    assert rc == 2 and "UA" in err


# --- the counting shortcuts against their definitions --------------------------------------------------------

def _split(n):
    return Split({(_Hashed((n, n), None),)})


@st.composite
def _sides(draw):
    """Key clusters (items 0..9, a plural set now and then), a response lookup and plural-set weights."""
    n_clusters = draw(st.integers(1, 4))
    clusters = []
    splits = []
    for k in range(n_clusters):
        c = draw(st.lists(st.integers(0, 9).map(lambda i: (i, i)), min_size=1, max_size=5))
        if draw(st.booleans()):
            s = _split(100 + k)
            c.insert(draw(st.integers(0, len(c))), s)
            splits.append(s)
        clusters.append(c)
    to_sys = {(i, i): draw(st.integers(0, 3)) for i in draw(st.sets(st.integers(0, 9)))}
    split_map = {}
    for s in splits:
        if draw(st.booleans()):
            partner = _split(200 + len(split_map))
            to_sys[partner] = draw(st.integers(0, 3))
            split_map[s] = (partner, draw(st.sampled_from([0.5, 1.0, 2 / 3, 0.25])))
    return clusters, to_sys, split_map


@settings(max_examples=100, deadline=None)
@given(_sides())
def test_blanc_counts_match_their_definition(sides):
    clusters, to_sys, split_map = sides
    num = engine.blancc([], clusters, to_sys, split_map)[0]
    assert num == pytest.approx(ref.blanc_coref(clusters, to_sys, split_map))
    num = engine.blancn([], clusters, to_sys, split_map)[0]
    assert num == pytest.approx(ref.blanc_noncoref(clusters, to_sys, split_map))


@settings(max_examples=100, deadline=None)
@given(st.lists(st.lists(st.integers(0, 7).map(lambda i: (i, i)), min_size=1, max_size=4), min_size=1, max_size=4),
       st.lists(st.lists(st.integers(0, 7).map(lambda i: (i, i)), min_size=1, max_size=4), min_size=1, max_size=4))
def test_ceaf_and_lea_links_match_their_definition(key, sys_):
    for entity in (True, False):
        assert engine.ceaf(sys_, key, None, {}, entity)[0] == pytest.approx(ref.ceaf_best(key, sys_, entity))
    to_sys = {m: j for j, c in enumerate(sys_) for m in c}
    for c in key:
        assert engine._pairs_together(c, to_sys) == ref.lea_links(c, to_sys)


def test_json_keeps_the_coreference_layout_with_non_referring_and_bridging(capsys):
    import json

    assert main(["coref", "example", "example", "--format", "ua", "--non-referring", "--bridging", "--output",
                 "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    for m in ("muc", "bcub", "ceafe", "ceafm", "lea"):
        assert set(out["metrics"][m]) >= {"recall_num", "recall_den", "precision_num", "precision_den", "recall",
                                          "precision", "f1"}
    assert set(out["metrics"]["blanc"]) >= {"recall", "precision", "f1"} and "f1" in out["metrics"]["conll"]
    assert out["non_referring"] == {"recall": 1.0, "precision": 1.0, "f1": 1.0}
    assert set(out["bridging"]) == {"bridging_anaphora_recognition_scores", "full_bridging_scores_markable_level",
                                    "full_bridging_scores_entity_level"}
    assert out["metrics"]["conll"]["f1"] == pytest.approx(0.7289, abs=1e-4)


def test_plural_sets_shared_many_levels_deep_are_refused_not_walked_for_ever(tmp_path, monkeypatch):
    import fastscore.ua.clusters as clusters

    monkeypatch.setattr(clusters, "MAX_STEPS", 1000)
    # entity k+1 holds entity k twice over (two markables of k in it): the walk doubles at each of 12 levels
    cells = []
    for k in range(1, 14):
        below = f"|ElementOf={k + 1}" if k < 13 else ""
        cells += [f"(EntityID={k}|MarkableID=a{k}{below})", f"(EntityID={k}|MarkableID=b{k}{below})"]
    key = _ua(tmp_path / "k", cells)
    with pytest.raises(InputError, match="reach more than"):
        score_ua(key, key)


# pieces of UA lines: cells, Unicode whitespace str.split sees (NEL, no-break space, ideographic space, \x0b,
# \x1f), comments and document starts
_PIECES = st.sampled_from(["_", "(EntityID=1|MarkableID=m1)", "(EntityID=2|MarkableID=m2", ")", "x", "é", "#",
                           "# newdoc id = d1", "# newdoc id = d2", "# newdoc", "\t", " ", "\x0b", "\x1f", "\x85",
                           "\xa0", "\u3000", "\u2028", "\n", "\n", "\n\n"])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(_PIECES, max_size=16), max_size=8), st.sampled_from([(10, False), (10, True), (12, False)]))
def test_scanned_lines_are_the_scorers_lines(lines, read):
    """kernels/ua_scan.py (through reader.document_rows) finds the documents, token lines and cells that
    str.strip and str.split find, line by line."""
    from fastscore.ua.reader import document_rows

    text = "\n".join("\t".join(["a"] * (n % 14) + pieces) for n, pieces in enumerate(lines))
    got = document_rows(text.encode("utf-8"), *read)
    want = ref.document_rows(text, *read)
    assert list(got) == list(want)
    for name in want:
        assert got[name].short == want[name].short
        if want[name].short is None:
            assert got[name].rows == want[name].rows


# pieces of markable annotations: fields in any order, repeated, without '=', Min spans Python's int() reads and
# the kernel leaves to the Python path, and closing characters (one byte or two)
_FIELDS = st.sampled_from(["EntityID=1", "EntityID=2", "EntityID=x-Pseudo", "MarkableID=a", "MarkableID=b",
                           "MarkableID=c", "MarkableID=é", "Min=1", "Min=2,3", "Min=1,9", "Min=02", "Min=x", "Min=",
                           "Min=1,2,3", "Min=+1", "Min=\u0663", "ElementOf=1", "ElementOf=2,x", "ElementOf=",
                           "MarkableIDx", "EntityID", "Min", "", "=", "a=b=c"])
_ANNOTATION = st.tuples(st.sampled_from(["1", "2", "3"]), st.sampled_from(["a", "b", "c", "d", "é"]),
                        st.lists(_FIELDS, max_size=3), st.integers(0, 3), st.booleans())
_ROW = st.tuples(st.lists(st.sampled_from([")", "é", "x"]), max_size=2), st.lists(_ANNOTATION, max_size=2),
                 st.sampled_from(["_", "(MarkableID=a|MentionAnchor=b)", "(MarkableID=c|MentionAnchor=a)",
                                  "(MarkableID=a)", "(MarkableID=b|MentionAnchor=z)"]))


def _cells(rows, balanced: bool) -> list[tuple[str, str]]:
    """IDENTITY and BRIDGING cells of generated rows; ``balanced``: as many closing characters as markables open
    (the last row closes what is left), else as drawn."""
    out, depth = [], 0
    for closes, opened, bridge in rows:
        if balanced:
            closes = closes[:depth]
        depth -= len(closes)
        cell = "".join(closes)
        for entity, markable, extra, at, multi in opened:
            fields = [f"EntityID={entity}", f"MarkableID={markable}"]
            fields[min(at, 2):min(at, 2)] = extra  # the other fields before, between or after them
            cell += "(" + "|".join(fields) + ("" if multi else ")")
            depth += multi
        out.append((cell or "_", bridge))
    if balanced and depth:
        out.append((")" * depth, "_"))
    return out


def _python_reading(path, data, column, with_min, with_bridging):
    """Every document read by the reader's Python path (reader._read_document), the kernel's oracle."""
    from fastscore.ua.reader import _read_document, document_rows

    return {name: _read_document(path, name, rows, column, with_min, with_bridging)
            for name, rows in document_rows(data, column, with_bridging).items()}


@settings(max_examples=400, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["", "# newdoc id = d1", "# newdoc id = d2"]), st.lists(_ROW, max_size=6)),
                max_size=3),
       st.booleans(), st.booleans(), st.sampled_from([10, 12]), st.booleans())
def test_the_markable_kernel_reads_as_the_python_reader(docs, with_min, with_bridging, column, balanced):
    """kernels/ua_scan.parse_markables (through reader.read_ua_bytes) against the reader's Python path on every
    document: the same markables, plural sets and bridging pairs, or the same error."""
    from fastscore.ua.reader import read_ua_bytes

    lines = []
    for start, rows in docs:
        lines += [start] if start else []
        for cell, bridge in _cells(rows, balanced):
            columns = ["t"] * 10 + ([cell, bridge, "_"] if column == 10 else ["_", bridge, cell])
            lines.append("\t".join(columns))
    data = "\n".join(lines).encode("utf-8")

    def outcome(read):
        try:
            return read()
        except ParseError as e:
            return str(e)

    from fastscore.ua import reader

    left = []  # the documents the kernel left to the Python path

    def python_path(path, name, *args):
        left.append(name)
        return read_document(path, name, *args)

    read_document = reader._read_document
    reader._read_document = python_path
    try:
        got = outcome(lambda: read_ua_bytes("f", data, False, column, with_min, with_bridging).documents)
    finally:
        reader._read_document = read_document
    want = outcome(lambda: _python_reading("f", data, column, with_min, with_bridging))
    assert got == want
    odd_min = with_min and any(f"Min={v}".encode() in data for v in ("1,2,3", "+1", "\u0663"))  # int() reads them
    if not isinstance(want, str) and not odd_min:  # read without error: by the kernel alone
        assert left == []


def test_annotation_fields_are_read_as_the_scorer_splits_them():
    """reader._fields (a regular expression for the common case) against the scorer's part-by-part reading, on
    every string of '=', '|' and a letter up to 6 characters."""
    import itertools

    from fastscore.ua.reader import _fields

    def scorer(annotation):
        out = {}
        for part in annotation.split("|"):
            at = part.find("=")
            out[part[:at]] = part[at + 1:]
        return out

    for n in range(7):
        for chars in itertools.product("a=|", repeat=n):
            assert _fields("".join(chars)) == scorer("".join(chars))


def test_folders_of_ua_files_are_corpora(tmp_path):
    for side in ("k", "s"):
        (tmp_path / side).mkdir()
        for doc in ("d1", "d2"):
            _ua(tmp_path / side / f"{doc}.ua", ["(EntityID=1|MarkableID=a)", "(EntityID=1|MarkableID=b)"])
            text = (tmp_path / side / f"{doc}.ua").read_text()
            (tmp_path / side / f"{doc}.ua").write_text(text.replace("newdoc id = d", f"newdoc id = {doc}"))
    rc, err = _cli(str(tmp_path / "k"), str(tmp_path / "s"), "--format", "ua")
    assert rc == 0, err
    rc, err = _cli(str(tmp_path / "k"), str(tmp_path / "s"), "--format", "ua", "--by-file")
    assert rc == 0, err


# --- the batch's kernels (fastscore/ua/batch.py) against the engine's plain Python -----------------------------

_SPANS = st.integers(0, 6).map(lambda i: (i, i + i % 2))


@st.composite
def _side(draw, sets: list) -> "Side":
    """A document side as prepare_side makes it: clusters of spans (a span may stand in two), at most one plural
    set per cluster, equal plural sets in one cluster."""
    from fastscore.ua.clusters import Side

    clusters, used = [], set()
    for c in draw(st.lists(st.lists(_SPANS, min_size=1, max_size=4), min_size=0, max_size=5)):
        if sets and draw(st.booleans()):
            s = draw(st.sampled_from(sets))
            if s not in used:
                used.add(s)
                c = c[:] if draw(st.booleans()) else []
                c.insert(draw(st.integers(0, len(c))), s)
        if c:
            clusters.append(c)
    cluster_of = {m: i for i, c in enumerate(clusters) for m in c}
    return Side(clusters, None, [], cluster_of)


@st.composite
def _documents(draw):
    members = st.lists(st.lists(_SPANS, min_size=1, max_size=3).map(tuple), min_size=1, max_size=3)

    def sets():  # partly alike on the two sides: the alignments weigh less than 1
        return [Split({tuple(_Hashed(m, None) for m in t) for t in draw(members)})
                for _ in range(draw(st.integers(0, 3)))]

    return [(draw(_side(sets())), draw(_side(sets()))) for _ in range(draw(st.integers(1, 3)))]


@settings(max_examples=150, deadline=None)
@given(_documents())
def test_the_batch_kernels_count_as_the_engine(documents):
    """Every metric's counts and the plural sets' alignment counts, bit for bit (floats compared with ==)."""
    from fastscore.ua.batch import score_documents

    expected, failure = [], None
    for key, sys_ in documents:
        try:
            expected.append({m: engine.score_document(m, key, sys_)[:2] for m in engine.METRICS})
        except engine.Undefined as e:
            failure = (len(expected), str(e))
            break
    try:
        found = score_documents(documents)
    except engine.Undefined as e:
        assert failure == (e.index, str(e))
        return
    assert failure is None
    for ours, theirs in zip(found, expected):
        for m in engine.METRICS:
            assert [float(x) for x in ours[m][0]] == [float(x) for x in theirs[m][0]], m
            assert [float(x) for x in ours[m][1]] == [float(x) for x in theirs[m][1]], m


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.lists(st.integers(1, 4), max_size=3), st.lists(st.integers(1, 4), max_size=3),
                          st.integers(0, 2 ** 16)), max_size=5))
def test_the_line_ceaf_kernel_takes_the_largest_score(problems):
    """kernels/ua_ceaf.line_ceaf against CEAF's definition on matrices of one row or column: the best one-to-one
    alignment is the one pair of largest score (phi4 for CEAFe, phi3 for CEAFm); larger matrices are left to scipy."""
    import numpy as np

    from fastscore.kernels.ua_ceaf import line_ceaf

    k_prob, s_prob, k_off, s_off, mat_off, mat = [0], [0], [0], [0], [0], []
    want = []
    for key_sizes, sys_sizes, seed in problems:
        rng = np.random.default_rng(seed)
        overlap = [[float(rng.integers(0, min(a, b) + 1)) for b in sys_sizes] for a in key_sizes]
        k_prob.append(k_prob[-1] + len(key_sizes))
        s_prob.append(s_prob[-1] + len(sys_sizes))
        k_off += [k_off[-1] + sum(key_sizes[:i + 1]) for i in range(len(key_sizes))]
        s_off += [s_off[-1] + sum(sys_sizes[:i + 1]) for i in range(len(sys_sizes))]
        mat += [v for row in overlap for v in row]
        mat_off.append(len(mat))
        scores = [(2 * v / float(a + b), v) for a, row in zip(key_sizes, overlap) for b, v in zip(sys_sizes, row)]
        line = len(key_sizes) <= 1 or len(sys_sizes) <= 1
        want.append(((max((e for e, _ in scores), default=0.0), max((m for _, m in scores), default=0.0))
                     if line else (0.0, 0.0), not line))
    i64 = lambda a: np.array(a, dtype=np.int64)  # noqa: E731
    sim, dense = line_ceaf(i64(k_prob), i64(k_off), i64(s_prob), i64(s_off), i64(mat_off), np.array(mat, dtype=float))
    assert [(tuple(s), d) for s, d in zip(sim.tolist(), dense.tolist())] == want


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 4), st.integers(1, 4), st.lists(st.sampled_from([0, 0.0, 0.5, 1.0, 1 / 3, 2 / 3]),
                                                      min_size=16, max_size=16))
def test_best_pairs_are_scipys_pairs_on_tie_heavy_scores(n, m, values):
    """The memo keyed by the scores' values gives scipy's pairs for the cost matrix the alignment built before
    (``-np.array(f)``, ints when every score is the int 0), whichever equal scores were seen first."""
    import numpy as np
    from scipy.optimize import linear_sum_assignment

    scores = [values[i * m:(i + 1) * m] for i in range(n)]
    engine.forget_assignments()
    engine.best_pairs([[float(x) for x in row] for row in scores])  # equal values, seen first as floats
    rows, cols = linear_sum_assignment(-np.array(scores))
    assert engine.best_pairs(scores) == list(zip(rows.tolist(), cols.tolist()))


def test_order_dependence_counted_as_when_every_order_is_scored(tmp_path, monkeypatch):
    """Orders that are a cluster's own are not scored again: the warning's count is the one scoring all three
    orders gives (20 generated documents, 7 of them order-dependent)."""
    from gen_ua import pair  # scripts/, which tests.ua_cases puts on the path

    from fastscore.ua import score

    key, sys_ = pair(3, docs=20, tokens=300, repeats=False)
    (tmp_path / "k").write_text(key)
    (tmp_path / "s").write_text(sys_)

    def count():
        found = [w for w in score_ua(str(tmp_path / "k"), str(tmp_path / "s")).warnings if "plural sets on both" in w]
        return found[0].split()[0]

    def every_order(c):
        if Split not in map(type, c):
            return []
        return [sorted(c, key=lambda m: isinstance(m, Split) != first) for first in (True, False)]

    fast = count()
    monkeypatch.setattr(score, "_other_orders", every_order)
    assert fast == count() == "7"


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(*[st.sampled_from([0.0, 1.0, 2.0, 3.0, 0.5, 7.0, 1 / 3])] * 4), min_size=1, max_size=6))
def test_the_batch_f1_is_the_engines_bit_for_bit(cells):
    """F1 of the kernel's counts in one array operation: the engine's floats (0 for its int 0), and undefined
    exactly where the engine raises."""
    import numpy as np

    from fastscore.ua.batch import _kernel_f1

    f, undefined = _kernel_f1(np.array(cells).reshape(len(cells), 1, 4))
    for cell, (ours,), (bad,) in zip(cells, f, undefined):
        try:
            (theirs,), = engine._pair_f1("muc", [[cell]])
        except engine.Undefined:
            assert bad
            continue
        assert not bad and ours == theirs and (ours != 0 or theirs == 0)
