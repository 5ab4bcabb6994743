"""The task shape: a task registered in the tests only gets the scoring command, `compare`,
`sweep` and `--bootstrap` without touching any other module; options of one task are refused
by another (the package's import graph: tests/test_layers.py)."""
import importlib
import inspect
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import fastscore
import fastscore.api
from fastscore import tasks
from fastscore.cli import main
from fastscore.errors import UsageError
from tests.conftest import ROOT, SHARED
from tests.toy_task import ShardedToyTask, ToyTask

# ---- a toy task (tests/toy_task.py): documents are sets of items; precision and recall of the items found

@pytest.fixture
def toy(tmp_path):
    tasks.register(ToyTask())
    rng = np.random.default_rng(7)
    gold_lines = [f"d{d} i{i}" for d in range(12) for i in range(int(rng.integers(3, 9)))]
    (tmp_path / "gold.toy").write_text("\n".join(gold_lines))
    systems = []
    for k, keep in enumerate((0.9, 0.6, 0.3)):
        lines = [x for x in gold_lines if rng.random() < keep] + [f"d{d} x{k}" for d in range(0, 12, 3)]
        lines += [f"d{d} z" for d in range(12)]  # every document present
        path = tmp_path / f"sys{k}.toy"
        path.write_text("\n".join(lines))
        systems.append(str(path))
    yield str(tmp_path / "gold.toy"), systems
    tasks.unregister("toy")


def test_toy_task_compare_sweep_bootstrap_through_the_api(toy):
    gold, systems = toy
    cmp = fastscore.compare(gold, systems[0], systems[1:], task="toy", resamples=200)
    assert cmp.task == "toy" and cmp.metric == "items" and len(cmp.systems) == 2
    assert cmp.systems[0].delta < 0 and cmp.systems[1].delta < cmp.systems[0].delta
    swept = fastscore.sweep(gold, list(reversed(systems)), task="toy", resamples=100)
    assert [r.name for r in swept.systems] == systems  # best first
    assert set(swept.systems[0].metrics) == {"items"}
    result = fastscore.bootstrap(fastscore.score(gold, systems[0], task="toy"), 100)
    lo, hi = result.bootstrap.intervals["items"]
    assert lo <= result.doc_stats.f1("items", result.doc_stats.total())[0] <= hi


def test_a_task_without_shards_refuses_glob_patterns(toy, capsys, tmp_path):
    gold, _ = toy
    assert main(["toy", gold, str(tmp_path / "*.toy")]) == 2
    assert "task toy scores one pair of inputs" in capsys.readouterr().err


def test_toy_task_on_the_command_line(toy, capsys, tmp_path):
    gold, systems = toy
    assert main(["toy", gold, systems[0], "--bootstrap", "50", "--output", "json", "--shout"]) == 0
    out = json.loads(capsys.readouterr().out.lower())
    assert out["task"] == "toy" and len(out["items"]["ci"]) == 2
    assert main(["compare", gold, systems[0], systems[1], "--task", "toy", "--resamples", "100", "-o", "json",
                 "--lowercase"]) == 0
    assert json.loads(capsys.readouterr().out)["task"] == "toy"
    folder = tmp_path / "runs"
    folder.mkdir()
    for s in systems:
        Path(s).rename(folder / Path(s).name)
    assert main(["sweep", gold, str(folder), "--task", "toy", "-o", "json"]) == 0
    assert len(json.loads(capsys.readouterr().out)["systems"]) == 3
    with pytest.raises(SystemExit) as exc:  # a report option is not an option of compare
        main(["compare", gold, systems[0], systems[1], "--task", "toy", "--shout"])
    assert exc.value.code == 2


def test_toy_task_with_a_corpus_part_reads_folders_of_shards(toy, tmp_path):
    """``Task.corpus`` alone (and the result's ``merge``) makes a task read corpora of shards: a folder of shards scores as the one file."""
    gold, systems = toy
    for side, path in (("gold", gold), ("sys", systems[1])):
        lines = Path(path).read_text().splitlines()
        (tmp_path / side).mkdir()
        for shard, first in (("a", lambda d: d < 6), ("b", lambda d: d >= 6)):
            (tmp_path / side / f"{shard}.toy").write_text(
                "\n".join(x for x in lines if first(int(x.split()[0][1:]))))
    whole = fastscore.score(gold, systems[1], task="toy").to_dict()
    with pytest.raises(UsageError, match="does not read corpora"):
        fastscore.api.score_corpus(str(tmp_path / "gold"), str(tmp_path / "sys"), task="toy", jobs=1)
    tasks.register(ShardedToyTask())
    sharded = fastscore.api.score_corpus(str(tmp_path / "gold"), str(tmp_path / "sys"), task="toy", jobs=1)
    first, second = (sorted(f"d{d}" for d in shard) for shard in (range(6), range(6, 12)))
    assert sharded.doc_stats.doc_names == first + second  # the shards' order
    assert sharded.to_dict() == whole


def test_toy_task_keywords_are_checked(toy):
    gold, systems = toy
    with pytest.raises(UsageError, match="not an option of task 'toy'"):
        fastscore.compare(gold, systems[0], systems[1:], task="toy", preset="kbp2016")
    with pytest.raises(UsageError, match="unknown task"):
        fastscore.sweep(gold, systems, task="nope")


# ---- options of one task are refused by another

@pytest.mark.parametrize("argv, owner", [
    (["compare", "K", "B", "S", "--coref", "--sequencing"], "fastscore compare --task nugget"),
    (["sweep", "K", "S", "--tokens", "tkn"], "fastscore sweep --task nugget"),
    (["compare", "K", "B", "S", "--task", "nugget", "--singletons", "drop"], "fastscore compare --task coref"),
    (["coref", "K", "R", "--char-spans"], "fastscore nugget"),
])
def test_options_of_another_task_are_refused(argv, owner, capsys):
    """(`--preset` belongs to both tasks, with other values: a nugget preset given to coref is an invalid
    choice, also exit 2.)"""
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    assert f"is an option of {owner}" in capsys.readouterr().err


@pytest.mark.parametrize("argv, owner", [
    (["compare", "K", "B", "S", "--preset", "kbp2016"], "--preset kbp2016 is the nugget task's"),
    (["nugget", "K", "R", "--preset", "crac2024"], "--preset crac2024 is the coref task's"),
])
def test_a_value_of_another_tasks_option_names_that_task(argv, owner, capsys):
    with pytest.raises(SystemExit) as exc:
        main(argv)
    err = capsys.readouterr().err
    assert exc.value.code == 2 and owner in err and "did you mean" not in err


def test_compare_help_lists_only_the_tasks_options(capsys):
    with pytest.raises(SystemExit):
        main(["compare", "--help"])
    coref_help = capsys.readouterr().out
    assert "--singletons {keep,drop}" in coref_help and "--char-spans" not in coref_help
    assert "--task nugget --help" in coref_help
    with pytest.raises(SystemExit):
        main(["sweep", "--task", "nugget", "--help"])
    nugget_help = capsys.readouterr().out
    assert "--char-spans" in nugget_help and "--singletons" not in nugget_help and "*.tbf" in nugget_help


def test_top_level_help_names_every_task(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    out = " ".join(capsys.readouterr().out.split())  # help text is wrapped
    for t in tasks.TASKS.values():
        assert t.name in out and t.summary in out


def test_toy_task_gets_its_python_function(toy):
    """``fastscore.score_toy`` is made from the declaration: signature, help, name, and the scores of ``score``."""
    gold, systems = toy
    function = fastscore.score_toy
    assert function.__name__ == function.__qualname__ == "score_toy"
    assert "score_toy" in fastscore.__all__ and "score_toy" in dir(fastscore)
    assert str(inspect.signature(function)) == "(gold, system, *, lowercase=False, doc=None)"
    assert function.__doc__.startswith("Score toy items.\n\nReturns a ToyResult.")
    assert "lowercase : default False (--lowercase)\n    compare items in lower case" in function.__doc__
    scored = function(gold, systems[1], lowercase=True)
    assert scored.to_dict() == fastscore.score(gold, systems[1], task="toy", lowercase=True).to_dict()
    with pytest.raises(TypeError, match="shout"):  # a report option is not a keyword of the score function
        function(gold, systems[1], shout=True)
    with pytest.raises(TypeError):  # options are keywords only
        function(gold, systems[1], True)


def test_toy_task_function_leaves_with_the_task(toy):
    tasks.unregister("toy")
    assert "score_toy" not in fastscore.__all__
    with pytest.raises(AttributeError):
        fastscore.score_toy


def test_a_positional_option_follows_the_inputs():
    """coref's ``metrics`` is the third positional argument (``Option.positional``), as callers use it."""
    parameters = list(inspect.signature(fastscore.score_coref).parameters.values())
    assert [p.name for p in parameters[:3]] == ["key", "response", "metrics"]
    assert parameters[2].kind is inspect.Parameter.POSITIONAL_OR_KEYWORD
    assert all(p.kind is inspect.Parameter.KEYWORD_ONLY for p in parameters[3:])


@pytest.mark.parametrize("name, function", [("coref", "fastscore.coref.score:score_coref"),
                                            ("temporal", "fastscore.temporal.score:score_temporal"),
                                            ("triples", "fastscore.triples.score:score_triples"),
                                            ("explain", "fastscore.explain.result:score_explain")])
def test_option_defaults_are_the_score_functions_defaults(name, function):
    """``fastscore.score(task=...)``, compare and sweep pass only the keywords given: the task's score function
    must default as the options are declared (the generated ``score_<task>`` passes every declared default)."""
    module, attribute = function.split(":")
    signature = inspect.signature(getattr(importlib.import_module(module), attribute)).parameters
    for option in tasks.TASKS[name].in_scope("score", "command"):
        assert option.keyword in signature, option.flags
        default = signature[option.keyword].default
        assert option.default == (None if default is inspect.Parameter.empty else default), option.flags


def test_every_task_has_a_row_in_the_readme_and_a_docs_page():
    """README's task table is written by hand (a task may have several rows): each registered task must have one,
    linking the page its declaration names, and the page must exist."""
    table = [line for line in (ROOT / "README.md").read_text().split("\n## ")[0].splitlines() if line.startswith("|")]
    for t in tasks.TASKS.values():
        assert (ROOT / t.docs_page).is_file(), t.docs_page
        rows = [row for row in table if f"`fastscore {t.name}" in row]
        assert rows, f"README's task table has no row for fastscore {t.name}"
        assert any(f"]({t.docs_page})" in row for row in rows), f"no row of {t.name} links {t.docs_page}"


def test_the_command_line_is_built_without_numba():
    code = ("import sys\nfrom fastscore.cli import _parser, _stats_task\n_parser(_stats_task(['compare']))\n"
            "assert 'numba' not in sys.modules, 'numba imported'\nprint('ok')")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=SHARED.parent)
    assert proc.returncode == 0 and proc.stdout.strip() == "ok", proc.stderr


def test_a_folder_of_ua_shards_scores_as_the_one_file(tmp_path, capsys):
    """A corpus of Universal Anaphora shards (``--format ua``): its reads are scored whole (no CoNLL-U batch
    summary), merged as UA results (the UA report and JSON keys kept), numbers as the one file's."""
    example = ROOT / "fastscore" / "examples" / "ua"
    for side, source in (("key", "key.ua"), ("response", "response.ua")):
        (tmp_path / side).mkdir()
        text = (example / source).read_text()
        (tmp_path / side / "a.conll").write_text(text)
        (tmp_path / side / "b.conll").write_text(text.replace("# newdoc id = story", "# newdoc id = storyb"))
    outputs = []
    for key, response in ((tmp_path / "key", tmp_path / "response"), (example / "key.ua", example / "response.ua")):
        for fmt in ("json", "ua"):
            assert main(["coref", str(key), str(response), "--format", "ua", "--output", fmt, "-j", "1"]) == 0
            outputs.append(capsys.readouterr().out)
    folder_json, folder_ua, file_json, file_ua = outputs
    assert json.loads(folder_json)["documents"] == 2
    f1 = lambda text: {m: scores["f1"] for m, scores in json.loads(text)["metrics"].items()}
    assert f1(folder_json) == pytest.approx(f1(file_json))  # each shard the file, under another document name
    assert folder_ua.splitlines()[:3] == file_ua.splitlines()[:3]
