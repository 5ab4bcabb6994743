"""CorefUD (CoNLL-U) coreference: agreement with corefud-scorer 1.2 on generated cases and OntoGUM
(tests/data/corefud_anchors, made by scripts/make_corefud_anchors.py), its crashes turned into clear
errors, the matching kernels against pure-Python references, and the reader on bad input."""
import contextlib
import io
import json
import random
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import fastscore
from fastscore.cli import main
from fastscore.errors import FastscoreError, FastscoreWarning, ParseError, UsageError
from fastscore.formats.conllu import read_conllu
from tests import reference_corefud as ref
from tests.conftest import SHARED, TESTDATA, fuzz_rounds, sample_in_default_run
from tests.strategies import mutate_lines

ANCHORS = TESTDATA / "corefud_anchors"
EXPECTED = json.loads((ANCHORS / "expected.json").read_text())
FAILURES = json.loads((ANCHORS / "failures.json").read_text())

# the failure cases where fastscore differs on purpose (docs/corefud.md)
ERROR_WHERE_SILENT = {  # the scorer scores them silently; fastscore stops with an error
    "duplicate_doc_ids": "the same document appears twice",
    "empty_node_2_10": "are the same node to the CorefUD scorer",
    "response_extra_sentence": "key and response must have the same sentences",
    "response_fewer_sentences": "key and response must have the same sentences",
    "response_sentence_fewer_words": "key and response must have the same words",
}
SCORED_WHERE_CRASH = {"no_final_blank_line"}  # the scorer crashes on a valid file: fastscore reads it
WARNED = {"mention_in_two_entities": "belong to two entities",  # scored as the scorer does, with a warning
          "head_index_outside_single_word": "head index(es) outside their mention"}


def _run(key, response, config) -> tuple[int, str, str]:
    mode, singletons, zeros = config.split("-")
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["coref", str(ANCHORS / key), str(ANCHORS / response), "--match", mode, "--singletons",
                     singletons, "--zero-match", zeros, "-o", "corefud"])
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("case", sample_in_default_run(sorted(EXPECTED["cases"]), 3))
def test_report_matches_corefud_scorer_in_every_configuration(case):
    spec = EXPECTED["cases"][case]
    for config, result in spec["results"].items():
        assert result["exit_code"] == 0
        code, out, err = _run(spec["key"], spec["response"], config)
        assert code == 0, err
        assert out == result["stdout"], config


def test_anchors_cover_every_configuration_and_the_hard_cases():
    configs = {c for spec in EXPECTED["cases"].values() for c in spec["results"]}
    assert len(configs) == 12
    text = " ".join(json.dumps(spec["description"]) for spec in EXPECTED["cases"].values()).lower()
    keys = " ".join((ANCHORS / spec["key"]).read_text() for spec in EXPECTED["cases"].values())
    assert "gum" in text and "ties" in text
    assert "[1/2]" in keys, "discontinuous mentions"
    assert any(f"\t{w}.1\t" in keys or f"\n{w}.1\t" in keys for w in range(1, 30)), "empty nodes"


@pytest.mark.parametrize("case", sample_in_default_run(sorted(FAILURES["cases"]), 3))
def test_failure_cases_are_scored_as_the_scorer_or_refused_clearly(case):
    spec = FAILURES["cases"][case]
    for config, result in spec["results"].items():
        code, out, err = _run(spec["key"], spec["response"], config)
        if case in ERROR_WHERE_SILENT:
            assert code == 1 and ERROR_WHERE_SILENT[case] in err
        elif result["exit_code"] == 0 or case in SCORED_WHERE_CRASH:
            assert code == 0, err
            if result["exit_code"] == 0:
                assert out == result["stdout"], config
            if WARNED.get(case):
                assert WARNED[case] in err
        else:  # the scorer crashes: one clear line, exit 1
            assert code == 1, (config, err)
            lines = [ln for ln in err.splitlines() if ln.startswith("fastscore: error:")]
            assert len(lines) == 1 and "Traceback" not in err, err


# ---- real data


def test_ontogum_conllu_files_read_with_every_mention():
    files = sorted((SHARED / "gum/coref/ontogum/conllu").glob("*.conllu"))
    assert len(files) == 70
    mentions = sum(len(read_conllu(f).start) for f in files)
    assert mentions == 7837  # the count of data/README.md


def test_ontogum_file_against_itself_scores_100():
    f = SHARED / "gum/coref/ontogum/conllu/GUM_academic_art.conllu"
    scores = fastscore.score_coref(f, f).scores()["metrics"]
    for m in ("muc", "bcub", "ceafe", "ceafm", "blanc", "lea", "mor", "conll"):
        assert scores[m]["f1"] == 1.0, m


# ---- options


def test_presets_name_the_crac_settings():
    spec = EXPECTED["cases"]["syn05"] if "syn05" in EXPECTED["cases"] else next(iter(EXPECTED["cases"].values()))
    key, resp = ANCHORS / spec["key"], ANCHORS / spec["response"]
    crac24 = fastscore.score_coref(key, resp, preset="crac2024")
    plain = fastscore.score_coref(key, resp, match="head", zero_match="dependent", singletons="drop")
    assert crac24.f1("conll") == plain.f1("conll")
    assert "preset:crac2024" in crac24.signature() and "match:head" in crac24.signature()
    with pytest.raises(UsageError, match="fixes match=head: drop match=exact"):
        fastscore.score_coref(key, resp, preset="crac2024", match="exact")


def test_partial_matching_needs_conllu(tmp_path):
    from fastscore.examples import KEY, RESPONSE

    with pytest.raises(UsageError, match="needs CoNLL-U input"):
        fastscore.score_coref(KEY, RESPONSE, match="head")
    with pytest.raises(UsageError, match="CorefUD metric"):
        fastscore.score_coref(KEY, RESPONSE, metrics="mor")
    spec = EXPECTED["cases"]["gum_news_crane"]
    with pytest.raises(UsageError, match="allow_repeated=True applies to CoNLL-2012"):
        fastscore.score_coref(ANCHORS / spec["key"], ANCHORS / spec["response"], allow_repeated=True)


def test_format_detected_from_content_and_outputs_refuse_the_wrong_input(capsys):
    spec = EXPECTED["cases"]["gum_news_crane"]
    key, resp = str(ANCHORS / spec["key"]), str(ANCHORS / spec["response"])
    assert main(["coref", key, resp, "-o", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert {"mor", "zero"} <= set(out["metrics"]) and "format:conllu" in out["signature"]
    assert main(["coref", key, resp, "-o", "perl"]) == 2
    assert "--output corefud" in capsys.readouterr().err
    from fastscore.examples import KEY, RESPONSE

    assert main(["coref", str(KEY), str(RESPONSE), "-o", "corefud"]) == 2


# ---- the kernels against pure-Python references


def _mentions(draw, n):
    out = []
    for _ in range(n):
        words = sorted(draw(st.sets(st.integers(0, 12), min_size=1, max_size=5)))
        out.append((words, draw(st.sampled_from(words))))
    return out


@st.composite
def mention_sets(draw):
    return _mentions(draw, draw(st.integers(1, 6))), _mentions(draw, draw(st.integers(1, 6)))


def _csr(mentions):
    off = np.concatenate([[0], np.cumsum([len(w) for w, _ in mentions])]).astype(np.int64)
    keys = np.asarray([k for w, _ in mentions for k in w], dtype=np.int64)
    heads = np.asarray([h for _, h in mentions], dtype=np.int64)
    return off, keys, heads


@settings(max_examples=200, deadline=None)
@given(mention_sets(), st.sampled_from(["partial", "head"]))
def test_similarity_kernel_matches_reference(sides, mode):
    from fastscore.kernels.matching import HEAD, PARTIAL, similarities

    key, resp = sides
    got = similarities(PARTIAL if mode == "partial" else HEAD, *_csr(key), *_csr(resp))
    want = [[ref.similarity(mode, k, r) for r in resp] for k in key]
    np.testing.assert_array_equal(got, np.asarray(want, dtype=np.float64))


@settings(max_examples=200, deadline=None)
@given(mention_sets())
def test_mor_matches_reference(sides):
    key, resp = sides
    from fastscore.coref.corefud import mention_overlap
    from fastscore.formats.table import Words

    def words(ms):
        off, keys, heads = _csr(ms)
        n = len(ms)
        return Words(off, keys, heads, np.zeros(n, bool), np.zeros(n + 1, np.int64), np.zeros(0, np.int64),
                     np.zeros(0, np.int32), [], np.zeros(n, np.int64))

    class OneDocument:
        k_off = np.array([0, len(key)])
        r_off = np.array([0, len(resp)])

    ((total, resp_len, _, key_len),) = mention_overlap(OneDocument, words(key), words(resp))
    assert total == ref.max_overlap([set(k) for k, _ in key], [set(r) for r, _ in resp])
    assert key_len == sum(len(k) for k, _ in key) and resp_len == sum(len(r) for r, _ in resp)


# ---- the reader on bad input

HEAD = "# newdoc id = d1\n# global.Entity = eid-etype-head-other\n# sent_id = s1\n# text = a b c\n"


def _conllu(tmp_path, lines: list[str], name="x.conllu"):
    rows = []
    for i, misc in enumerate(lines, 1):
        rows.append(f"{i}\tw{i}\tw\t_\t_\t_\t0\troot\t0:root\t{misc}")
    path = tmp_path / name
    path.write_text(HEAD + "\n".join(rows) + "\n\n")
    return path


@pytest.mark.parametrize("miscs, fragment", [
    (["Entity=(e1-person-1", "_", "_"], "opened but never closed"),  # a warning, not an error: see below
    (["Entity=e1)", "_", "_"], "closed but not opened"),
    (["Entity=(e1-person-9", "Entity=e1)", "_"], "outside the mention"),
    (["Entity=(e1-person-x)", "_", "_"], "is not a number"),
    (["Entity=(e1[2/2]-person-1)", "_", "_"], "without its first part"),
    # udapi reads links only on nodes with an Entity value
    (["Entity=(e1-person-1)", "Entity=(e2-x-1)|Bridge=e9<e1", "Entity=(e1-person-1)"], "has no mention"),
    (["Entity=(e2-x-1)|Bridge=e9<e1", "Entity=(e1-person-1)", "Entity=(e1-person-1)"], "before its first mention"),
])
def test_malformed_entity_annotation_gives_one_clear_message(tmp_path, miscs, fragment):
    path = _conllu(tmp_path, miscs)
    if "never closed" in fragment:
        assert any(fragment in w for w in read_conllu(path).warnings)
        return
    with pytest.raises(ParseError) as err:
        read_conllu(path)
    assert fragment in str(err.value) and str(path) in str(err.value)


def test_head_indices_udapi_ignores_are_read_as_it_reads_them(tmp_path):
    """A head index on a one-node mention is never read (its node is its head); 0 on the one-node last part of
    a discontinuous mention is read as udapi's words[-1], that part's node.  One warning, naming file:line."""
    path = _conllu(tmp_path, ["Entity=(e1-person-7)", "Entity=(e2[1/2]-x-1)", "Entity=(e2[2/2]-x-0)"])
    table = read_conllu(path)
    (warning,) = [w for w in table.warnings if "outside their mention" in w]
    assert warning.startswith("2 head index(es)") and warning.endswith(f"first: {path}:5")
    words = table.words
    for row, head_at in ((0, 0), (1, 1)):  # e1: its one node; e2 (nodes 2 and 3): node 3
        nodes = words.keys[words.offsets[row]:words.offsets[row + 1]]
        assert words.head[row] == nodes[head_at]


@pytest.mark.parametrize("heads, line, problem", [
    (["2", "3", "1"], 7, "a cycle of HEADs"),  # udapi stops at the word that closes the cycle
    (["0", "2", "1"], 6, "a word attached to itself"),
    (["0", "-1", "3"], 7, "a word attached to itself"),  # -1: the last word (udapi indexes a list)
    (["0", "7", "1"], 6, "HEAD 7 is outside the sentence's 3 word(s)"),
    (["0", "-5", "1"], 6, "HEAD -5 is outside the sentence's 3 word(s)"),
    (["x", "0", "9"], 5, "HEAD 'x' is not a number"),
    (["0", "", "1"], 6, "HEAD '' is not a number"),
])
def test_head_column_udapi_builds_no_tree_from_is_scored_with_one_warning(tmp_path, heads, line, problem):
    """udapi (and so the CorefUD scorer) stops on such a HEAD column; no metric reads HEAD: scored as written,
    with one warning naming file, line and problem (the same mentions as with a good HEAD column)."""
    good = _conllu(tmp_path, ["Entity=(e1-person-1)", "_", "Entity=(e1-person-1)"], "good.conllu")
    path = tmp_path / "bad.conllu"
    rows = good.read_text().split("\n")
    for k, head in enumerate(heads):
        cols = rows[4 + k].split("\t")
        cols[6] = head
        rows[4 + k] = "\t".join(cols)
    path.write_text("\n".join(rows))
    table = read_conllu(path)
    (warning,) = table.warnings
    assert "HEAD column udapi cannot build a tree from" in warning and warning.startswith("1 sentence(s)")
    assert warning.endswith(f"first: {path}:{line}: {problem}")
    assert np.array_equal(table.words.keys, read_conllu(good).words.keys) and not read_conllu(good).warnings


def test_head_column_udapi_reads_gives_no_warning(tmp_path):
    """'_' (udapi attaches the word to the root), several roots, a negative HEAD inside the sentence."""
    path = _conllu(tmp_path, ["Entity=(e1-person-1)", "_", "Entity=(e1-person-1)"])
    rows = path.read_text().split("\n")
    for k, head in enumerate(["_", "-4", "-3"]):  # -4: the root, -3: word 1
        cols = rows[4 + k].split("\t")
        cols[6] = head
        rows[4 + k] = "\t".join(cols)
    path.write_text("\n".join(rows))
    assert read_conllu(path).warnings == []


@fuzz_rounds(150, 40)
def test_fuzz_mutations_are_scored_or_rejected_cleanly(tmp_path, rounds):
    """Random mutations of anchor files: scored, or a FastscoreError — never anything else."""
    rng = random.Random(11)
    specs = sorted(EXPECTED["cases"].values(), key=lambda s: s["key"])[:12]
    outcomes = {"scored": 0, "rejected": 0}
    for n in range(rounds):
        spec = rng.choice(specs)
        text = mutate_lines((ANCHORS / spec["response"]).read_text(), rng)
        path = tmp_path / f"m{n}.conllu"
        path.write_text(text)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", FastscoreWarning)
                fastscore.score_coref(ANCHORS / spec["key"], path)
            outcomes["scored"] += 1
        except FastscoreError as exc:
            assert str(exc) and "\n" not in str(exc)
            outcomes["rejected"] += 1
    assert outcomes["scored"] > rounds // 15 and outcomes["rejected"] > rounds // 15


@pytest.mark.parametrize("block", [["1.1\tpro\t_\t_\t_\t_\t_\t_\t0:root\tEntity=(e1-person-1)"],
                                   ["1-2\tab\t_\t_\t_\t_\t_\t_\t_\tEntity=(e1-person-1)"]])
def test_block_of_empty_nodes_or_multiword_tokens_only_is_dropped_as_udapi_drops_it(tmp_path, block):
    """udapi reads no word there and drops the block (sentence id and coreference): the CorefUD scorer scores the
    file so; here too, with one warning (a key without the block aligns with it)."""
    key = _conllu(tmp_path, ["Entity=(e1-person-1)", "_", "Entity=(e1-person-1)"], "key.conllu")
    path = tmp_path / "response.conllu"
    path.write_text(key.read_text() + "# sent_id = s2\n" + "\n".join(block) + "\n\n")
    table = read_conllu(path)
    (warning,) = table.warnings
    assert warning.startswith("1 block(s) of empty nodes or multiword tokens only") and warning.endswith(
        f"first: {path}:10")
    assert list(table.sentences) == list(read_conllu(key).sentences)
    assert np.array_equal(table.cluster, read_conllu(key).cluster)


def _sentences(tmp_path, name, sentences: list[list[str]]):
    """A file of one document whose sentences have these MISC values (one word each)."""
    rows = ["# newdoc id = d1", "# global.Entity = eid-etype-head-other"]
    for s, miscs in enumerate(sentences, 1):
        rows += [f"# sent_id = s{s}"] + [f"{i}\tw{i}\tw\t_\t_\t_\t0\troot\t_\t{m}" for i, m in enumerate(miscs, 1)]
        rows.append("")
    path = tmp_path / name
    path.write_text("\n".join(rows) + "\n")
    return path


def test_discontinuous_parts_in_two_sentences_are_read_as_udapi_sorts_words(tmp_path):
    """udapi sorts a mention's words by ord alone: closing a later part in another sentence, it stops where its
    last word so sorted is of an earlier sentence (an error here); else a head index counts in that order."""
    crash = _sentences(tmp_path, "crash.conllu", [["_", "Entity=(e2[1/2]-person-1)", "_"],
                                                  ["Entity=(e2[2/2]-person-1", "Entity=e2[2/2])"]])
    with pytest.raises(ParseError) as err:
        read_conllu(crash)
    assert "crosses a sentence boundary" in str(err.value) and f"{crash}:10" in str(err.value)
    read = _sentences(tmp_path, "head.conllu", [["_", "_", "Entity=(e2[1/3]-person-1)"],
                                                ["Entity=(e2[2/3]-person-1)", "_", "_", "Entity=(e2[3/3]-person-1",
                                                 "Entity=e2[3/3])"]])
    table = read_conllu(read)
    words = table.words
    (row,) = [r for r in range(len(table.start)) if words.offsets[r + 1] - words.offsets[r] == 4]
    assert words.head[row] == (1 << 24) | (1 << 10)  # sentence 2's word 1 (first by ord), not sentence 1's word 3
