"""The bundled examples (fastscore/examples): each `TASK example example` runs, prints what the official tool
prints for the pair (tests/data/examples/expected.json, made by scripts/make_example_expectations.py), and
holds the case it is there for."""
import json
import re
import subprocess
import sys

import pytest

from fastscore import score
from fastscore.cli import main
from fastscore.examples import EXAMPLES, KEY, RESPONSE, example, path
from fastscore.formats.conllu import key_ord
from tests.conftest import TESTDATA

EXPECTED = json.loads((TESTDATA / "examples" / "expected.json").read_text())
COMMANDS = {  # example -> its command's arguments
    "coref": ["coref", "example", "example"],
    "corefud": ["coref", "example", "example", "--format", "conllu"],
    "corpus": ["coref", str(example("corpus").key), str(example("corpus").response)],
    "mina": ["coref", str(example("mina").key), str(example("mina").response), "--match", "mina"],
    "ua": ["coref", "example", "example", "--format", "ua"],
    "nugget": ["nugget", "example", "example"],
    "temporal": ["temporal", "example", "example"],
    "triples": ["triples", "example", "example"],
    "explain": ["explain", "example", "example"],
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_example_prints_the_official_report(name, capsys):
    run = EXPECTED[name]
    assert run["exit"] == 0 and run["report"].strip()
    assert main(COMMANDS[run["example"]] + run["fastscore"]) == 0
    out = capsys.readouterr().out
    if run.get("drop_first_line"):  # v8.01's version line names where its scorer lies
        out = out.split("\n", 1)[1]
    assert out == run["report"]


def test_every_example_is_compared_with_its_tool():
    # explain's example is the coreference example, analysed: its agreement with the Berkeley Analyser is
    # tests/test_explain.py's (258 documents); here its errors are checked against the coref numbers below.
    # corpus is the explain anchors' mixture case: its errors are compared with the Analyser's there too, and its
    # numbers are those of fastscore's engine, which agrees with v8.01 on every anchor (tests/test_perl_anchors.py)
    assert {run["example"] for run in EXPECTED.values()} == set(EXAMPLES) - {"explain", "corpus"}


def test_the_explain_example_accounts_for_the_coref_examples_mentions(capsys):
    """The mentions the analysis finds are v8.01's on the same files, and each key mention the response lacks is
    named by an error or stays put by the Analyser's rules (tests/test_explain.py's check)."""
    from tests.test_explain import _agree_with_coref

    assert main(["explain", "example", "example", "-o", "json"]) == 0
    errors = json.loads(capsys.readouterr().out)["errors"]
    assert errors["missing_mention"] > 0 and errors["extra_mention"] > 0  # what the example shows
    _agree_with_coref(KEY, RESPONSE, singletons="keep")


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_example_command_runs(name):
    """As a user types it: exit 0, a table of numbers, no warning."""
    proc = subprocess.run([sys.executable, "-m", "fastscore", *COMMANDS[name]], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    if name == "explain":  # error counts, not percentages; the files are named in the JSON (below)
        assert re.search(r"Missing Mention +[1-9]", proc.stdout)
        return
    assert re.search(r"\b\d+\.\d\d\b", proc.stdout)
    assert str(example(name).key) in proc.stdout  # the example's own files were scored


def test_every_example_has_a_command_and_a_licence():
    assert set(COMMANDS) == set(EXAMPLES)
    for name, ex in EXAMPLES.items():
        assert ex.key.is_file() and ex.response.is_file(), name
        assert (path(name) / "LICENSE.md").is_file(), name
    assert (EXAMPLES["coref"].key, EXAMPLES["coref"].response) == (KEY, RESPONSE)
    with pytest.raises(ValueError, match="no bundled example 'ner'"):
        example("ner")
    import fastscore

    assert fastscore.examples.example is example  # reached from the package, loaded on first use


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_the_python_way_gives_the_command_numbers(name, capsys):
    ex = example(name)
    result = score(ex.key, ex.response, task=ex.task, **ex.options)
    assert main(COMMANDS[name] + ["--output", "json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert json.loads(json.dumps(result.to_dict())) == printed


def test_a_crac_preset_scores_the_corefud_example(capsys):
    assert main(["coref", "example", "example", "--preset", "crac2023", "-o", "json"]) == 0
    assert "format:conllu|preset:crac2023" in json.loads(capsys.readouterr().out)["signature"]


def test_corefud_example_has_a_zero_and_a_discontinuous_mention():
    from fastscore.coref.score import read

    table = read(str(example("corefud").key))
    words = table.words
    assert words.zero.sum() == 1  # the empty node 5.1
    discontinuous = []
    for m in range(len(table.start)):
        ords = [key_ord(int(k)) for k in words.keys[words.offsets[m]:words.offsets[m + 1]]]
        if max(ords) - min(ords) + 1 > len(ords):  # a gap: words of the sentence left out
            discontinuous.append(ords)
    assert discontinuous == [[3, 4, 6, 7, 8, 9, 10, 11]]


def test_corefud_example_zero_counts():
    result = score(*(str(p) for p in (example("corefud").key, example("corefud").response)), task="coref")
    zero = result.to_dict()["metrics"]["zero"]
    assert zero["recall"] == zero["precision"] == 1.0  # found by its dependencies


def test_nugget_example_scores_coreference():
    ex = example("nugget")
    assert "@Coreference" in ex.key.read_text() and "@Coreference" in ex.response.read_text()
    result = score(ex.key, ex.response, task="nugget", **ex.options).to_dict()
    assert 0 < result["coref"]["average"] < 1


def test_nugget_on_character_spans_without_options_says_what_to_do(capsys):
    """Why a first run on TBF files at hand fails: the default preset (kbp2015, scorer_v1.7.1) reads token ids,
    the files are in characters. The message says so and the remedies work."""
    ex = example("nugget")
    assert main(["nugget", str(ex.key), str(ex.response)]) == 1
    err = capsys.readouterr().err
    assert "(the default preset, kbp2015 = EvmEval scorer_v1.7.1 for TAC KBP 2015, reads token ids" in err
    assert "use --char-spans" in err and len(err.splitlines()) == 1
    for remedy in (["--char-spans"], ["--preset", "kbp2017"]):
        assert main(["nugget", str(ex.key), str(ex.response), *remedy]) == 0
    capsys.readouterr()


def test_temporal_example_has_a_relation_verified_only_through_closure(tmp_path):
    ex = example("temporal")
    key_links = re.findall(r'<TLINK [^>]*/>', ex.key.read_text())
    pairs = {tuple(re.findall(r'(?:eventInstanceID|relatedToEventInstance|timeID|relatedToTime)="(\w+)"', t))
             for t in key_links}
    assert ("ei3", "ei1") not in pairs and ("ei1", "ei3") not in pairs
    text = ex.response.read_text()
    links = re.findall(r'<TLINK [^>]*/>\n', text)
    assert 'eventInstanceID="ei3" relatedToEventInstance="ei1"' in links[0]
    only_first = tmp_path / "response.tml"
    only_first.write_text(text.replace("".join(links[1:]), ""))
    relations = score(ex.key, only_first, task="temporal").to_dict()["relations"]
    assert (relations["system_verified"], relations["system_total"]) == (1, 1)


def test_triples_example_has_a_partial_id_match():
    ex = example("triples")
    variants = score(ex.key, ex.response, task="triples").to_dict()["statistics"]["variants"]
    assert variants["partial"]["correct"] == 1 and variants["exact"]["correct"] == 0


def test_nugget_example_with_token_tables_says_it_is_in_characters(tmp_path, capsys):
    assert main(["nugget", "example", "example", "--tokens", str(tmp_path)]) == 1
    assert "read as token ids (--tokens): drop --tokens" in capsys.readouterr().err
