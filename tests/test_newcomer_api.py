"""What a new user of the Python API and the docs tripped on (issue 38, items 4, 5 and 8): errors Python's own
``except`` clauses catch, misspelt keywords that name the right one, reports that read well."""
import pickle
import re

import pytest

import fastscore
import fastscore.coval
from fastscore.cli import main
from fastscore.errors import InputNotFound, ParseError, UnknownKeyword
from fastscore.examples import KEY, RESPONSE, example


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


# ---- 5. errors Python cannot catch as expected

@pytest.mark.parametrize("name, task", [("coref", "coref"), ("corefud", "coref"), ("nugget", "nugget"),
                                        ("temporal", "temporal"), ("triples", "triples"), ("coref", "explain")])
def test_a_missing_input_is_a_file_not_found_error_and_fastscores(tmp_path, name, task):
    ex = example(name)
    missing = str(tmp_path / ("missing" + ex.response.suffix))
    for gold, system in ((str(ex.key), missing), (missing, str(ex.response))):
        with pytest.raises(FileNotFoundError) as caught:
            fastscore.score(gold, system, task=task, **ex.options)
        assert isinstance(caught.value, ParseError) and caught.value.filename == missing
        assert str(caught.value).startswith(missing + ": ")  # one line, not OSError's "[Errno 2] ..."


def _corpus(tmp_path):
    gold = tmp_path / "gold"
    gold.mkdir()
    (gold / "a.conll").write_bytes(KEY.read_bytes())
    return str(gold)


def test_a_missing_input_against_a_folder_is_a_file_not_found_error_and_fastscores(tmp_path, capsys):
    gold, missing = _corpus(tmp_path), str(tmp_path / "nope")
    for call in (lambda: fastscore.score(gold, missing), lambda: fastscore.score(missing, gold),
                 lambda: fastscore.sweep(gold, [missing])):
        with pytest.raises(InputNotFound, match="nope: file not found"):
            call()
    code, _, stderr = run(capsys, "coref", gold, missing)
    assert code == 1 and stderr == f"fastscore: error: {missing}: file not found\n"


def test_compare_and_sweep_take_one_system_given_alone(tmp_path):
    gold = _corpus(tmp_path)
    assert [row.name for row in fastscore.sweep(gold, gold).systems] == [gold]
    with pytest.warns(fastscore.FastscoreWarning, match="resampl"):  # one document, few resamples
        assert len(fastscore.compare(gold, gold, gold, resamples=10).systems) == 1


def test_a_missing_input_survives_pickling_and_keeps_the_cli_line(tmp_path, capsys):
    err = pickle.loads(pickle.dumps(InputNotFound("a/b.conll")))
    assert isinstance(err, OSError) and str(err) == "a/b.conll: file not found"
    code, _, stderr = run(capsys, "coref", str(tmp_path / "k.conll"), str(RESPONSE))
    assert code == 1 and stderr == f"fastscore: error: {tmp_path / 'k.conll'}: file not found\n"


@pytest.mark.parametrize("call, guess", [
    (lambda: fastscore.score_coref(KEY, RESPONSE, singleton="drop"), "singletons"),
    (lambda: fastscore.score_nugget("g.tbf", "s.tbf", present="kbp2016"), "preset"),
    (lambda: fastscore.score(KEY, RESPONSE, singleton="drop"), "singletons"),
    (lambda: fastscore.compare(KEY, RESPONSE, [KEY], singleton="drop"), "singletons"),
    (lambda: fastscore.compare(KEY, RESPONSE, [KEY], resample=10), "resamples"),
    (lambda: fastscore.sweep(KEY, [KEY], metrc="muc"), "metric"),
    (lambda: fastscore.bootstrap(None, 10, sed=1), "seed"),
    (lambda: fastscore.CorefEvaluator().update([], [], docs="d1"), "doc"),
    (lambda: fastscore.coval.compute([], [], keep_singleton=True), "keep_singletons"),
    (lambda: fastscore.coval.compute_documents([], [], minspan=True), "min_span"),
    (lambda: fastscore.score_temporal(KEY, KEY, method="acl11"), "evaluation_method"),  # the flag's name
    (lambda: fastscore.score(KEY, KEY, task="temporal", method="acl11"), "evaluation_method"),
])
def test_a_misspelt_keyword_names_the_closest_one(call, guess):
    with pytest.raises(TypeError, match=f'did you mean "{guess}"') as caught:
        call()
    assert isinstance(caught.value, UnknownKeyword)


def test_a_keyword_with_no_near_name_lists_the_keywords():
    with pytest.raises(TypeError, match=r"CorefEvaluator\(\) got an unexpected keyword argument 'singletons' "
                                        r"\(its keywords: none\)"):
        fastscore.CorefEvaluator(singletons=False)


# ---- 4. docs that run from any folder: the bundled examples, written where the user is

@pytest.mark.parametrize("argv", [["coref", str(KEY), "example"], ["compare", "example", "example", "example"],
                                  ["temporal", "example", "missing.tml"]])
def test_example_given_with_another_input_says_what_it_stands_for(tmp_path, monkeypatch, capsys, argv):
    monkeypatch.chdir(tmp_path)
    code, _, err = run(capsys, *argv)
    assert code == 1 and "example names the bundled example only as both inputs" in err


def test_a_pattern_matching_nothing_is_a_missing_input_exit_1(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    for argv in (["coref", "gold/*.conll", "sys/*.conll"], ["sweep", str(KEY), "runs/*.conll"]):
        code, _, err = run(capsys, *argv)
        assert code == 1 and "the pattern matches no file" in err
    with pytest.raises(FileNotFoundError, match="the pattern matches no file"):
        fastscore.score("gold/*.conll", "sys/*.conll")


def test_the_examples_are_written_into_a_folder_and_never_over_a_users_file(tmp_path, capsys):
    from fastscore.examples.__main__ import main as examples_main

    assert examples_main(["corpus", "mina", "--to", str(tmp_path)]) == 0
    assert (tmp_path / "corpus" / "key.conll").read_bytes() == example("corpus").key.read_bytes()
    assert (tmp_path / "mina" / "LICENSE.md").is_file()
    assert examples_main(["mina", "--to", str(tmp_path)]) == 0  # the same files again: left as they are
    (tmp_path / "mina" / "key.conll").write_text("mine")
    capsys.readouterr()
    assert examples_main(["mina", "--to", str(tmp_path)]) == 1
    assert "not overwritten" in capsys.readouterr().err and (tmp_path / "mina" / "key.conll").read_text() == "mine"


def test_the_corpus_example_is_the_explain_anchors_mixture():
    from tests.conftest import TESTDATA

    for side in ("key", "response"):
        assert (getattr(example("corpus"), side).read_bytes()
                == (TESTDATA / "explain_anchors" / f"mixture.{side}.conll").read_bytes())


def test_the_mina_example_shows_what_minimum_spans_change():
    ex = example("mina")
    with pytest.warns(fastscore.FastscoreWarning, match="repeated response mention"):  # exact spans: v8.01 drops a repeat
        exact = fastscore.score_coref(ex.key, ex.response, metrics="conll")
    mina = fastscore.score_coref(ex.key, ex.response, metrics="conll", match="mina")
    assert round(100 * exact.f1("conll"), 2) == 65.46 and round(100 * mina.f1("conll"), 2) == 84.29


def test_docs_blocks_run_in_a_folder_outside_the_checkout(tmp_path):
    from tests.conftest import ROOT
    from tests.doc_blocks import make_folder

    assert not (make_folder(tmp_path) / "tests").exists()
    with pytest.raises(AssertionError):
        make_folder(ROOT / "docs")


# ---- 8. small things that looked broken

def test_version_says_which_kernels_in_a_sentence(capsys):
    with pytest.raises(SystemExit):
        main(["--version"])
    kernels = capsys.readouterr().out.splitlines()[1]
    assert "not compiled ones" not in kernels and "none beside" not in kernels


def test_one_document_is_singular_in_reprs_and_reports(capsys):
    result = fastscore.score_coref(KEY, RESPONSE)
    assert repr(result).startswith("CorefResult(1 document, ")
    assert "(1 document)" not in repr(fastscore.read_conll(KEY)) and "1 document," in repr(fastscore.read_conll(KEY))
    code, out, _ = run(capsys, "explain", "example", "example")
    assert code == 0 and out.startswith("1 document, ")


def test_docstats_repr_is_one_short_line():
    stats = fastscore.score_coref(KEY, RESPONSE).doc_stats
    text = repr(stats)
    assert "\n" not in text and "lambda" not in text and "function" not in text and len(text) < 200
    assert text.startswith("DocStats(1 document ['(LuoTestCase); '], 32 columns, metrics mentions, muc")


def test_undefined_nugget_scores_are_a_dash_with_a_note_and_evmeval_keeps_nan(tmp_path, capsys):
    ex = example("nugget")
    empty = tmp_path / "empty.tbf"
    empty.write_text("#BeginOfDocument example1\n#EndOfDocument\n#BeginOfDocument example2\n#EndOfDocument\n")
    code, out, _ = run(capsys, "nugget", str(ex.key), str(empty), "--char-spans")
    assert code == 0 and " nan" not in out.split("-: not defined")[0]
    assert "span                  -    0.00       -      0.00    0.00       -" in out
    assert "-: not defined, a division by zero" in out
    code, out, _ = run(capsys, "nugget", str(ex.key), str(empty), "--char-spans", "--output", "evmeval")
    assert code == 0 and "nan\t0.00\tnan" in out  # EvmEval's own layout, as it prints it


def test_no_zero_row_for_conllu_files_without_zeros(tmp_path, capsys):
    ex = example("corefud")
    lines = [line for line in ex.key.read_text().splitlines(keepends=True) if not re.match(r"\d+\.\d+\t", line)]
    key = tmp_path / "k.conllu"
    key.write_text("".join(lines))
    code, out, _ = run(capsys, "coref", str(key), str(key), "--format", "conllu")
    assert code == 0 and "\nzero " not in out and "zero: no row, no zero (empty node) to score" in out
    code, out, _ = run(capsys, "coref", "example", "example", "--format", "conllu")  # with a zero: its row
    assert "\nzero  " in out and "no row" not in out


def test_api_warnings_name_the_keyword_not_the_flag(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # no token table here
    gold = [{"doc": "d1", "id": "E1", "tokens": ["t3"], "type": "Conflict_Attack", "realis": "Actual"}]
    with pytest.warns(fastscore.FastscoreWarning, match=r"unless tokens=DIR names another") as caught:
        fastscore.score_nugget(gold, gold)
    assert not any("--tokens" in str(w.message) for w in caught)


def test_command_line_warnings_name_the_flag(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)  # no token table here
    (tmp_path / "g.tbf").write_text("#BeginOfDocument d1\nsys\td1\tE1\tt3\tx\tConflict_Attack\tActual\n"
                                    "#EndOfDocument\n", encoding="utf-8")
    code, _, err = run(capsys, "nugget", "g.tbf", "g.tbf")
    assert code == 0 and "unless --tokens DIR names another" in err and "tokens=DIR" not in err


def test_api_errors_name_the_keyword_not_the_flag(capsys):
    nugget = example("nugget")  # character offsets, read as token ids by the default preset
    with pytest.raises(ParseError) as caught:
        fastscore.score_nugget(nugget.key, nugget.response)
    assert "use char_spans=True (or preset=kbp2016/kbp2017" in str(caught.value) and "--" not in str(caught.value)
    assert "--char-spans" not in caught.value.problem
    code, _, err = run(capsys, "nugget", str(nugget.key), str(nugget.response))  # the command line: its flags
    assert code == 1 and "use --char-spans (or --preset kbp2016/kbp2017" in err


def test_the_api_module_and_the_corpus_functions_are_attributes_after_import_alone(tmp_path):
    import subprocess
    import sys

    code = ("import sys, fastscore; assert fastscore.api.score_corpus is fastscore.score_corpus; "
            "assert callable(fastscore.score_by_file); assert 'numba' not in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=tmp_path)


def test_to_pandas_and_score_table_have_the_mentions_row():
    table = fastscore.score_coref(KEY, RESPONSE).score_table()
    assert table.column("metric").to_pylist()[:2] == ["mentions", "muc"]
    assert round(table.column("f1")[0].as_py(), 6) == 0.615385


def _shards(tmp_path, missing_per_shard: int) -> tuple[str, str]:
    docs = re.findall(r"#begin document.*?#end document\n", example("corpus").key.read_text(), re.S)
    for side in ("key", "response"):
        (tmp_path / side).mkdir()
    text = example("corpus").response.read_text()
    response_docs = re.findall(r"#begin document.*?#end document\n", text, re.S)
    for s in range(3):
        (tmp_path / "key" / f"s{s}.conll").write_text("".join(docs[s * 10:(s + 1) * 10]))
        kept = response_docs[s * 10:(s + 1) * 10 - missing_per_shard]
        (tmp_path / "response" / f"s{s}.conll").write_text("".join(kept))
    return str(tmp_path / "key"), str(tmp_path / "response")


def test_missing_documents_of_every_shard_are_warned_once_with_the_total(tmp_path, capsys):
    key, response = _shards(tmp_path, 2)
    code, _, err = run(capsys, "coref", key, response, "--jobs", "1", "-m", "muc")
    warned = [line for line in err.splitlines() if "missing from the response" in line]
    assert code == 0 and warned == [
        f'fastscore: warning: {response}: 6 key document(s) missing from the response, scored as empty: '
        '"(mixture_08); part 0", "(mixture_09); part 0", "(mixture_18); part 0", "(mixture_19); part 0", '
        '"(mixture_28); part 0" ...']


def test_compare_says_what_to_do_with_missing_documents(tmp_path, capsys):
    key, response = _shards(tmp_path, 2)
    code, _, err = run(capsys, "compare", key + "/s0.conll", response + "/s0.conll", key + "/s0.conll",
                       "--resamples", "10")
    assert code == 1 and "add them to the system output" in err and "a gold holding only the documents" in err


def test_explain_says_why_mention_types_are_unknown(tmp_path, capsys):
    corpus = example("corpus")
    untagged = tmp_path / "untagged.conll"  # the corpus without its part-of-speech column ("-"), as LitBank's
    untagged.write_text("".join(
        "\t".join(f if k != 4 else "-" for k, f in enumerate(line.split("\t"))) if "\t" in line else line
        for line in corpus.key.read_text().splitlines(keepends=True)))
    code, out, _ = run(capsys, "explain", str(untagged), str(corpus.response))
    assert code == 0 and out.count("unknown: no part-of-speech tags in 30 of 30 documents") == 1
    code, out, _ = run(capsys, "explain", str(corpus.key), str(corpus.response))
    assert code == 0 and "part-of-speech" not in out


def test_a_span_error_of_the_same_words_says_what_differs(tmp_path):
    from fastscore.explain.report import text

    key, response = tmp_path / "k.conllu", tmp_path / "r.conllu"
    rows = ["1\tthe\tthe\tDET\t_\t_\t2\tdet\t_\tEntity=(e1-person-1",
            "2\tman\tman\tNOUN\t_\t_\t3\tnsubj\t_\tEntity=e1)",
            "3\tslept\tsleep\tVERB\t_\t_\t0\troot\t_\tEntity=(e1-person-1)"]
    head = "# newdoc id = d\n# global.Entity = eid-etype-head-other\n# sent_id = 1\n# text = the man slept\n"
    key.write_text(head + "\n".join(rows) + "\n\n")
    rows[0] = rows[0].replace("Entity=(e1-person-1", "Entity=(e1-person-2")  # the same words, head "man"
    response.write_text(head + "\n".join(rows) + "\n\n")
    out = text(fastscore.score_explain(str(key), str(response)), per_doc=True)
    span_errors = [line for line in out.splitlines() if "Span Error:" in line]
    assert span_errors and all('head "' in line for line in span_errors), out


def test_html_numbers_a_response_entity_as_the_key_entity_it_overlaps():
    from types import SimpleNamespace

    from fastscore.explain.report import response_labels

    key = SimpleNamespace(entity_of={"a": "0", "b": "0", "c": "1", "d": "1"})
    response = SimpleNamespace(entity_of={"a": "16", "b": "16", "c": "3", "x": "3", "y": "7", "d": "0"})
    assert response_labels(key, response) == {"16": "0", "3": "1", "7": "2", "0": "3"}  # the rest in order


def test_an_html_page_is_not_written_to_a_terminal(monkeypatch, capsys):
    import sys

    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    code, out, err = run(capsys, "explain", "example", "example", "--output", "html")
    assert code == 2 and out == "" and "here a terminal: give a FILE (--output html page.html)" in err
    monkeypatch.setattr(sys.stdout, "isatty", lambda: False)  # redirected: the page
    code, out, _ = run(capsys, "explain", "example", "example", "--output", "html")
    assert code == 0 and out.startswith("<!DOCTYPE html>")
