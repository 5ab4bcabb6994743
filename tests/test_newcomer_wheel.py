"""What a newcomer hit trying fastscore from its wheel: advice that fits the command run, signatures that list
only what applies, messages that say what to do.  Each test names the scenario."""
import json

import pytest

from fastscore.cli import main
from fastscore.examples import example

CORPUS, COREFUD = example("corpus"), example("corefud")


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out = capsys.readouterr()
    return code, out.out, out.err


# ---- 1. explain gives the advice coref gives on a --format that does not fit

@pytest.mark.parametrize("command", ["coref", "explain"])
@pytest.mark.parametrize("key, response, options, advice", [
    (CORPUS.key, CORPUS.response, ["--format", "conllu"], "leave --format out: the format is told from the content"),
    (COREFUD.key, COREFUD.response, ["--format", "conll2012"], "give --format conllu"),
    (COREFUD.key, CORPUS.response, [], "key and response must both be CoNLL-U"),
])
def test_a_format_that_does_not_fit_gets_the_commands_own_advice(capsys, command, key, response, options, advice):
    code, out, err = run(capsys, command, key, response, *options)
    assert code == 1 and out == ""
    assert advice in err and "score it with" not in err, err


def test_explain_of_a_conll_key_and_a_conllu_response_says_both_must_be_conll(capsys):
    code, _, err = run(capsys, "explain", CORPUS.key, COREFUD.response)
    assert code == 1
    assert f"{COREFUD.response}: not a CoNLL-2012 file, but {CORPUS.key} is" in err


def test_explain_example_with_format_conllu_explains_the_corefud_example(capsys):
    code, out, err = run(capsys, "explain", "example", "example", "--format", "conllu", "--output", "json")
    assert code == 0, err
    assert f'"{COREFUD.key}"'.replace("\\", "\\\\") in out
    assert "|format:conllu|" in json.loads(out)["signature"]  # as coref signs CoNLL-U input


# ---- 3. an option triples ignores is not in the signature

def test_layers_ignored_on_triple_files_are_not_signed(capsys):
    code, out, err = run(capsys, "triples", "example", "example", "--layers", "opinion,entity", "--intersect")
    assert code == 0 and "both inputs are triple files: ignored" in err
    signature = out.rstrip().splitlines()[-1]
    assert signature.startswith("signature: triples|") and "layers" not in signature and "intersect" not in signature


# ---- 4. signatures: as the docs show them, flags lower case, only what applies

def _signature(out: str) -> str:
    return out.rstrip().splitlines()[-1].removeprefix("signature: ")


def test_the_coreference_page_shows_the_signature_coref_makes(capsys):
    from tests.conftest import ROOT

    code, out, _ = run(capsys, "coref", "example", "example")
    assert code == 0
    page = (ROOT / "docs" / "coreference.md").read_text(encoding="utf-8")
    assert _signature(out).replace("|", "\\|") in page and f'"signature": "{_signature(out)}"' in page


@pytest.mark.parametrize("command", ["coref", "explain"])
def test_flags_are_signed_lower_case(capsys, command):
    ex = example("mina")
    code, out, err = run(capsys, command, ex.key, ex.response, "--match", "mina", "--np-only", "--remove-nested")
    assert code == 0, err
    signature = _signature(out)
    assert "|np-only:true|remove-nested:true|" in signature and "True" not in signature


@pytest.mark.parametrize("command", ["compare", "sweep"])
def test_compare_and_sweep_sign_only_what_applies_as_coref_does(capsys, command):
    code, out, _ = run(capsys, "coref", CORPUS.key, CORPUS.response)
    coref = _signature(out).removeprefix("coref|").removesuffix("|version:0.1.0")
    options = [CORPUS.response, "--resamples", "10"] if command == "compare" else []
    code, out, err = run(capsys, command, CORPUS.key, CORPUS.response, *options)
    assert code == 0, err
    signature = _signature(out)
    assert "False" not in signature and "True" not in signature and "np-only" not in signature
    assert signature.endswith(f"|{coref}|version:0.1.0")


# ---- 5. a preset's clash says what the preset sets

def test_a_preset_clash_says_what_the_preset_fixes_and_what_to_drop(capsys):
    code, _, err = run(capsys, "coref", "example", "example", "--preset", "crac2024", "--match", "exact")
    assert code == 2
    assert err.rstrip().endswith("fixes --match head: drop --match exact"), err


# ---- 6. a file of another format given to the NAF and TimeML readers

def test_naf_on_a_conll_file_says_what_the_file_is(capsys):
    code, _, err = run(capsys, "coref", CORPUS.key, CORPUS.response, "--format", "naf")
    assert code == 1
    assert ('this looks like a CoNLL-2012 coreference file, not a NAF/KAF document (it has "#begin document"): '
            "leave --format out") in err, err


@pytest.mark.parametrize("argv, kind", [(["coref", "--format", "naf"], "NAF/KAF"), (["temporal"], "TimeML")])
def test_a_file_that_is_no_xml_is_said_to_be_no_xml(capsys, tmp_path, argv, kind):
    text = tmp_path / "notes.txt"
    text.write_text("\n  plain words, no markup\n", encoding="utf-8")
    code, _, err = run(capsys, argv[0], text, text, *argv[1:])
    assert code == 1
    assert f"not XML (its first non-blank character is not '<'): {kind} documents are XML" in err
    assert "syntax error" not in err


# ---- 7. one system, one dataset: singular

def test_a_sweep_of_one_system_says_1_system(capsys):
    code, out, err = run(capsys, "sweep", CORPUS.key, CORPUS.response)
    assert code == 0, err
    assert "1 system, F1 in %" in out and "1 systems" not in out


def test_by_file_over_one_file_pair_says_1_dataset(capsys, tmp_path):
    for side, path in (("key", CORPUS.key), ("response", CORPUS.response)):
        (tmp_path / side).mkdir()
        (tmp_path / side / "a.conll").write_bytes(path.read_bytes())
    code, out, err = run(capsys, "coref", tmp_path / "key", tmp_path / "response", "--by-file")
    assert code == 0, err
    assert "1 dataset (one file pair each)" in out and "1 datasets" not in out
