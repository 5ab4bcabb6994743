"""What a new user of the Python API and the docs tripped on (issue 38, items 4, 5 and 8): errors Python's own
``except`` clauses catch, misspelt keywords that name the right one, reports that read well."""
import pickle

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
])
def test_a_misspelt_keyword_names_the_closest_one(call, guess):
    with pytest.raises(TypeError, match=f"did you mean "{guess}"") as caught:
        call()
    assert isinstance(caught.value, UnknownKeyword)


def test_a_keyword_with_no_near_name_lists_the_keywords():
    with pytest.raises(TypeError, match=r"CorefEvaluator\(\) got an unexpected keyword argument 'singletons' "
                                        r"\(its keywords: none\)"):
        fastscore.CorefEvaluator(singletons=False)
