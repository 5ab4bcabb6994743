"""What a new user hit on the command line (issue 38): explain over folders, a test on one document, --output
taking an input, checks after the work, abbreviations and misspellings.  Each test names the scenario."""
import json
import shutil

import pytest

from fastscore.cli import main
from fastscore.examples import KEY, RESPONSE
from fastscore.tasks import TASKS
from tests.conftest import TESTDATA

ANCHORS = TESTDATA / "explain_anchors"
CASES = ("add_entity", "cut_entity")


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture
def corpus(tmp_path):
    """Two key files and their responses, as folders of files of the same names."""
    for side, ending in (("key", "key"), ("response", "response")):
        (tmp_path / side).mkdir()
        for case in CASES:
            shutil.copy(ANCHORS / f"{case}.{ending}.conll", tmp_path / side / f"{case}.conll")
    return tmp_path


# ---- 1. explain takes folders and patterns as coref does

def test_explain_over_folders_is_the_sum_of_its_files(capsys, corpus):
    code, out, err = run(capsys, "explain", corpus / "key", corpus / "response", "-o", "json")
    assert code == 0, err
    whole = json.loads(out)
    parts = []
    for case in CASES:
        code, out, _ = run(capsys, "explain", ANCHORS / f"{case}.key.conll", ANCHORS / f"{case}.response.conll",
                           "-o", "json")
        parts.append(json.loads(out))
    assert whole["documents"] == sum(p["documents"] for p in parts)
    for e, count in whole["errors"].items():
        assert count == sum(p["errors"][e] for p in parts), e


def test_explain_over_glob_patterns_and_its_page(capsys, corpus):
    page = corpus / "page.html"
    code, out, err = run(capsys, "explain", f"{corpus}/key/*.conll", f"{corpus}/response/*.conll",
                         "--output", "html", page)
    assert code == 0, err
    assert "documents" in out and page.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


def test_explain_over_folders_names_the_file_of_each_line(capsys, corpus):
    code, out, _ = run(capsys, "explain", corpus / "key", corpus / "response", "--per-doc")
    assert code == 0
    assert f"response {corpus / 'response' / 'add_entity.conll'} line " in out


def test_explain_files_of_other_names_pair_by_their_documents(capsys, corpus):
    (corpus / "response" / "add_entity.conll").rename(corpus / "response" / "a.conll")
    code, out, err = run(capsys, "explain", corpus / "key", corpus / "response", "-o", "json")
    assert code == 0, err
    assert json.loads(out)["errors"]["extra_entity"] > 0


def test_explain_response_documents_of_no_key_file_warned_once(capsys, corpus):
    (corpus / "response" / "add_entity.conll").rename(corpus / "response" / "a.conll")
    shutil.copy(ANCHORS / "drop_mention.response.conll", corpus / "response" / "other.conll")
    code, _, err = run(capsys, "explain", corpus / "key", corpus / "response")
    assert code == 0
    assert err.count("drop_mention_00") == 1 and "response document(s) in no key file" in err


def test_explain_key_folder_against_one_response_file_says_what_to_give(capsys, corpus):
    together = corpus / "all.conll"
    together.write_text("".join((corpus / "response" / f"{c}.conll").read_text() for c in CASES))
    code, _, err = run(capsys, "explain", corpus / "key", together)
    assert code == 1 and "spread over several files" in err and "Traceback" not in err


# ---- 2. no p-value where no test can say anything

@pytest.mark.parametrize("test", ["bootstrap", "permutation"])
def test_compare_on_one_document_gives_no_p_value_nor_star(capsys, test):
    code, out, err = run(capsys, "compare", KEY, RESPONSE, KEY, "--resamples", "200", "--test", test)
    assert code == 0
    row = next(line for line in out.splitlines() if line.startswith(str(KEY)))
    assert "*" not in row and "0.00" not in row.split("]")[-1] and "1.0000" not in row
    assert "p-values: none" in out and "no p-values are given" in err
    code, out, _ = run(capsys, "compare", KEY, RESPONSE, KEY, "--resamples", "200", "--test", test, "-o", "json")
    system = json.loads(out)["systems"][0]
    assert system["p_value"] is None and system["p_adjusted"] is None


# ---- 3. --output FORMAT [FILE] takes no input

def test_explain_output_before_the_inputs(capsys):
    code, out, err = run(capsys, "explain", "--output", "json", KEY, RESPONSE)
    assert code == 0, err
    assert json.loads(out)["documents"] == 1


def test_explain_output_file_after_the_inputs_still_written(capsys, tmp_path):
    page = tmp_path / "p.html"
    code, _, err = run(capsys, "explain", KEY, RESPONSE, "--output", "html", page, "--per-doc")
    assert code == 0, err
    assert page.exists()


def test_explain_output_never_takes_the_key_for_its_file(capsys, tmp_path):
    key = tmp_path / "key.conll"
    shutil.copy(KEY, key)
    before = key.read_bytes()
    with pytest.raises(SystemExit) as exit_:  # which is the page: the command cannot tell, and says so
        main(["explain", "--output", "html", str(key), str(RESPONSE), str(tmp_path / "p.html")])
    assert exit_.value.code == 2 and key.read_bytes() == before


# ---- 6. what can be checked without the inputs is checked before them

@pytest.mark.parametrize("argv, says", [
    (["explain", "--output", "html", "/nonexistent/dir/p.html"], "does not exist"),
    (["compare", "--metric", "f1"], "--metric f1: not a metric of task coref"),
    (["compare", "--task", "explain", "--metric", "divided_entities"], 'did you mean "divided_entity"'),
    (["compare", "--ci", "1.5"], "confidence level must be between 0 and 1"),
    (["coref", "--bootstrap", "-1"], "number of resamples must be a whole number >= 1"),
])
def test_options_refused_before_the_inputs_are_read(capsys, tmp_path, argv, says):
    missing = [str(tmp_path / "missing.conll")] * (3 if argv[0] == "compare" else 2)
    code, _, err = run(capsys, argv[0], *missing, *argv[1:])
    assert code in (1, 2) and says in err and "missing.conll" not in err


def test_output_file_that_is_a_folder_refused_before_reading(capsys, tmp_path):
    code, _, err = run(capsys, "explain", tmp_path / "missing.conll", tmp_path / "missing.conll", "-o", "html",
                       tmp_path)
    assert code == 1 and "is a folder" in err


def test_plot_without_matplotlib_refused_before_reading(capsys, tmp_path, monkeypatch):
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "matplotlib" else real(name, *a))
    missing = tmp_path / "missing.conll"
    code, _, err = run(capsys, "compare", missing, missing, missing, "--plot", tmp_path / "d.png")
    assert code == 2 and "--plot needs matplotlib" in err


def test_convert_into_a_missing_folder_refused_before_reading(capsys, tmp_path):
    code, _, err = run(capsys, "convert", tmp_path / "missing.conll", tmp_path / "no" / "out.jsonl", "--to", "jsonl")
    assert code == 1 and "does not exist" in err and "missing.conll" not in err


def test_every_metric_of_a_task_is_among_its_declared_choices():
    import fastscore

    for task in TASKS.values():
        if task.bundled_example is None:
            continue
        gold, system, keywords = task.bundled_example({})
        result = fastscore.score(gold, system, task=task.name, **keywords)
        choices = task.metric_choices(keywords)
        assert set(result.doc_stats.registry) - {"mentions"} <= set(choices), task.name


# ---- 7. no abbreviation, and the closest spelling suggested

@pytest.mark.parametrize("argv, says", [
    (["coref", KEY, RESPONSE, "--bootstap", "10"], 'did you mean "--bootstrap"'),
    (["coref", KEY, RESPONSE, "--boot", "10"], 'did you mean "--bootstrap"'),
    (["coref", KEY, RESPONSE, "--singleton", "drop"], 'did you mean "--singletons"'),
    (["cref", KEY, RESPONSE], 'did you mean "coref"'),
    (["compare", "--task", "coreff", KEY, RESPONSE, KEY], 'did you mean "coref"'),
])
def test_misspelled_or_abbreviated_names_are_refused_with_the_closest(capsys, argv, says):
    with pytest.raises(SystemExit) as exit_:
        main([str(a) for a in argv])
    assert exit_.value.code == 2 and says in capsys.readouterr().err
