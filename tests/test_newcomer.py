"""What a new user hit (issue 9): every output shows what was asked, errors point the right way,
no silent zeros.  Each test names the scenario."""
import builtins
import csv
import io
import json
import os
import subprocess
import sys

import pytest

import fastscore
from fastscore.cli import main
from fastscore.errors import FastscoreWarning, InputError, UsageError
from fastscore.examples import KEY, RESPONSE
from tests.conftest import SHARED, TESTDATA

CASE_KEY = str(TESTDATA / "anchors" / "case-000.key")
CASE_RESP = str(TESTDATA / "anchors" / "case-000.response")
DEMO = SHARED / "evmeval-demo"


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


# ---- outputs that show what was asked

@pytest.mark.parametrize("fmt", ["text", "markdown", "csv"])
def test_coref_bootstrap_intervals_in_every_output_format(capsys, fmt):
    code, out, _ = run(capsys, "coref", CASE_KEY, CASE_RESP, "--bootstrap", "200", "-o", fmt, "--allow-repeated")
    assert code == 0
    if fmt == "csv":
        rows = {r["metric"]: r for r in csv.DictReader(io.StringIO(out))}
        for m in ("muc", "bcub", "ceafm", "ceafe", "lea", "blanc", "conll"):
            assert float(rows[m]["ci_low"]) <= float(rows[m]["f1"]) <= float(rows[m]["ci_high"]), m
    else:
        assert "95% CI" in out and "percentile bootstrap, 200 resamples" in out
        conll = next(line for line in out.splitlines() if line.lstrip("| ").startswith("conll"))
        assert conll.count("[") == 1


@pytest.mark.parametrize("fmt", ["text", "markdown", "csv"])
def test_nugget_bootstrap_intervals_in_every_output_format(capsys, fmt):
    code, out, _ = run(capsys, "nugget", str(DEMO / "gold.tbf"), str(DEMO / "system_A.tbf"), "--preset", "kbp2016",
                       "--coref", "--bootstrap", "100", "-o", fmt)
    assert code == 0
    if fmt == "csv":
        rows = [r for r in csv.DictReader(io.StringIO(out)) if r["ci_low"]]
        assert {r["attribute"] for r in rows} >= {"span", "type", "muc", "blanc", "coref-average"}
    else:
        assert out.count("[") >= 9  # four attributes and five coreference metrics


@pytest.mark.parametrize("argv", [
    ["coref", str(KEY), str(RESPONSE), "--bootstrap", "10", "-o", "perl"],
    ["nugget", str(DEMO / "gold.tbf"), str(DEMO / "system_A.tbf"), "--preset", "kbp2016", "--bootstrap", "10",
     "-o", "evmeval"],
])
def test_official_layouts_refuse_bootstrap(capsys, argv):
    code, _, err = run(capsys, *argv)
    assert code == 2 and "no place for intervals" in err


def _interval_free_outputs():
    from fastscore.tasks import TASKS

    return [(name, fmt) for name, task in TASKS.items() for fmt in task.interval_free]


@pytest.mark.parametrize("task, fmt", _interval_free_outputs())
def test_every_official_layout_refuses_bootstrap_before_scoring(capsys, monkeypatch, task, fmt):
    """Declared once per task (``interval_free``) and checked before anything is read: the inputs here do not
    even exist."""
    code, out, err = run(capsys, task, "no-such-gold", "no-such-system", "--bootstrap", "10", "-o", fmt)
    assert code == 2 and out == "" and f"--output {fmt} (" in err and "has no place for intervals" in err
    assert err.rstrip().endswith("use --bootstrap with --output text, json, csv or markdown")


def test_conll_metric_alone_shows_the_three_f1s_it_averages(capsys):
    code, out, _ = run(capsys, "coref", CASE_KEY, CASE_RESP, "-m", "conll", "-o", "json", "--allow-repeated")
    assert code == 0 and list(json.loads(out)["metrics"]) == ["muc", "bcub", "ceafe", "conll"]


def test_metric_option_takes_one_value_and_does_not_swallow_the_files(capsys):
    code, out, _ = run(capsys, "coref", "-m", "muc", CASE_KEY, CASE_RESP, "-o", "json")
    assert code == 0 and list(json.loads(out)["metrics"]) == ["muc"]
    code, out, _ = run(capsys, "coref", CASE_KEY, CASE_RESP, "-m", "muc,lea", "-m", "bcub", "-o", "json")
    assert code == 0 and list(json.loads(out)["metrics"]) == ["muc", "bcub", "lea"]


def test_api_metrics_given_as_one_string_is_one_name():
    with pytest.warns(fastscore.FastscoreWarning, match="4 repeated response mention"):
        result = fastscore.score_coref(CASE_KEY, CASE_RESP, metrics="muc")
    assert result.metrics == ["muc"]


# ---- errors and warnings that point the right way

def test_response_sharing_no_document_with_the_key_is_an_error(tmp_path, capsys):
    other = tmp_path / "other.conll"
    other.write_text(KEY.read_text().replace("#begin document (LuoTestCase);", "#begin document (Other);"))
    code, _, err = run(capsys, "coref", str(KEY), str(other))
    assert code == 1 and "shares no document with the key" in err
    assert '"(LuoTestCase); "' in err and '"(Other); "' in err


def test_response_documents_absent_from_the_key_are_named_in_a_warning(tmp_path):
    both = tmp_path / "both.conll"
    text = RESPONSE.read_text()
    both.write_text(text + text.replace("(LuoTestCase);", "(Extra);"))
    with pytest.warns(FastscoreWarning, match=r'1 response document\(s\) not in the key, ignored: "\(Extra\); "'):
        fastscore.score_coref(KEY, both)


def test_doc_near_miss_suggests_close_names(capsys):
    code, _, err = run(capsys, "coref", str(KEY), str(RESPONSE), "--doc", "(LuoTestCase)")
    assert code == 1 and 'did you mean "(LuoTestCase); "?' in err


@pytest.mark.parametrize("argv, fragment", [
    (["coref", str(KEY), str(RESPONSE), "--ci", "0.9"], "--ci has no effect without --bootstrap"),
    (["coref", str(KEY), str(RESPONSE), "--seed", "1", "--ci-method", "bca"], "--ci-method, --seed have no effect"),
    (["sweep", str(KEY), str(RESPONSE), "--seed", "1"], "--seed has no effect without --bootstrap"),
    (["coref", str(KEY), str(RESPONSE), "--totals-only"], "--totals-only shapes the v8.01 report"),
])
def test_options_that_would_do_nothing_are_refused(capsys, argv, fragment):
    code, _, err = run(capsys, *argv)
    assert code == 2 and fragment in err


@pytest.mark.parametrize("options, fragment", [
    ({"coref_threshold": 0.0}, "is a Dice score in (0, 1]"),
    ({"coref": True, "coref_threshold": 1.5}, "is a Dice score in (0, 1]"),
    ({"coref_threshold": 0.5}, "coref_threshold=0.5: no effect without coref=True"),  # keywords, not flags
    ({"coref_mapping": "span"}, "coref_mapping=span: no effect without coref=True"),
    ({"preset": "kbp2016", "sequencing_graph": "exact"}, "no effect without sequencing=True"),
    ({"preset": "kbp2016", "invisible_words": "none"}, "no effect with character spans"),
])
def test_nugget_options_that_would_do_nothing_are_refused(options, fragment):
    with pytest.raises(UsageError) as err:
        fastscore.score_nugget(DEMO / "gold.tbf", DEMO / "system_A.tbf", **options)
    assert fragment in str(err.value)


def test_sweep_folder_of_other_files_suggests_the_pattern(tmp_path, capsys):
    for name in ("a.v4_gold_conll", "b.v4_gold_conll"):
        (tmp_path / name).write_text(KEY.read_text())
    code, _, err = run(capsys, "sweep", str(KEY), str(tmp_path))
    assert code == 2 and f"'{tmp_path}/*.v4_gold_conll'" in err


def test_api_warnings_go_through_the_warnings_module():
    with pytest.warns(FastscoreWarning, match="resampling 1 document"):
        fastscore.bootstrap(fastscore.score_coref(KEY, RESPONSE), 200)


# ---- install, README, API

def test_reprs_are_one_line_summaries():
    with pytest.warns(fastscore.FastscoreWarning, match="4 repeated response mention"):
        result = fastscore.score_coref(CASE_KEY, CASE_RESP, allow_repeated=True)  # 4 repeats x 5 metrics > 10
    table = fastscore.read_conll(CASE_KEY)
    for text in (repr(result), repr(table)):
        assert "\n" not in text and len(text) < 400
    assert repr(table).startswith("MentionTable(") and "mentions" in repr(table)
    assert "conll" in repr(result)
    assert fastscore.MentionTable is type(table)


def test_to_pandas_without_pandas_is_a_clear_error(monkeypatch):
    real_import = builtins.__import__

    def no_pandas(name, *args, **kwargs):
        if name == "pandas" or name.startswith("pandas."):
            raise ImportError("No module named 'pandas'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_pandas)
    with pytest.raises(UsageError, match="pip install pandas"):
        fastscore.score_coref(KEY, RESPONSE).to_pandas()


def test_the_compilation_note_once_on_stderr_or_as_a_warning(tmp_path, monkeypatch, capsys):
    from fastscore import first_run
    from fastscore.errors import FastscoreWarning

    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    assert not first_run.kernels_cached()
    monkeypatch.setattr(first_run, "_announced", False)
    with pytest.warns(FastscoreWarning, match="compiling scoring kernels with numba's JIT [(]why[)]"):
        first_run.announce_compilation("why")
    first_run.announce_compilation("again")  # once per process
    monkeypatch.setattr(first_run, "_announced", False)
    monkeypatch.setattr(first_run, "ANNOUNCE_ON_STDERR", True)
    first_run.announce_compilation("why")
    assert capsys.readouterr().err.startswith("fastscore: compiling scoring kernels with numba's JIT (why)")
    index = tmp_path / "work" / "kernels" / "ceaf._ceaf-1.py311.nbi"
    index.parent.mkdir(parents=True)
    index.write_bytes(b"")
    assert first_run.kernels_cached()


def test_kernels_are_found_beside_the_source_tree():
    """`python -m fastscore` run inside the repository imports the tree's fastscore/, which has no kernels/."""
    root = TESTDATA.parent.parent
    code = ("import fastscore.kernels, os; "
            "print(os.path.relpath(fastscore.kernels.__file__))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=root,
                          env={**os.environ, "PYTHONPATH": str(root)})
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == os.path.join("kernels", "__init__.py")


def test_usage_errors_and_input_errors_keep_their_kinds():
    with pytest.raises(UsageError):
        fastscore.score_coref(KEY, RESPONSE, metrics="nope")
    with pytest.raises(InputError):
        fastscore.score_coref(KEY, RESPONSE, doc="nope")


# ---- errors that point the right way (issue 27): each message as a new user met it

GUM_KEY = TESTDATA / "corefud_anchors" / "cases" / "gum_news_asylum.key.conllu"
GUM_RESP = TESTDATA / "corefud_anchors" / "cases" / "gum_news_asylum.response.conllu"
TIMEML = TESTDATA / "temporal_anchors" / "begins-0"
TRP = TESTDATA / "triples_anchors" / "case-000" / "gold.trp"
NAF = TESTDATA / "triples_anchors" / "convert"


def _stdin(monkeypatch, path) -> None:
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(path.read_bytes())))


def _jsonl_pair(tmp_path):
    from fastscore.coref.convert import convert

    convert(KEY, tmp_path / "key.jsonl", "jsonl")
    convert(RESPONSE, tmp_path / "response.jsonl", "jsonl")
    return tmp_path / "key.jsonl", tmp_path / "response.jsonl"


def test_preset_conll2012_scores_conll2012_files_as_without_it(capsys):
    code, out, err = run(capsys, "coref", "example", "example", "--preset", "conll2012", "-o", "json")
    assert code == 0, err
    _, plain, _ = run(capsys, "coref", "example", "example", "-o", "json")
    assert json.loads(out)["metrics"] == json.loads(plain)["metrics"]
    assert "preset:conll2012" in json.loads(out)["signature"]


@pytest.mark.parametrize("preset, key, response, fragment", [
    ("conll2012", GUM_KEY, GUM_RESP, "a CoNLL-U (CorefUD) file, but --preset conll2012 (CoNLL-2012 shared task: "
     "reference scorer v8.01) reads CoNLL-2012 files: use --preset crac2022 or crac2023 or crac2024 or crac2025"),
    ("crac2023", KEY, RESPONSE, "a CoNLL-2012 file, but --preset crac2023 (CRAC 2023: CorefUD, head matching, no "
     "singletons) reads CoNLL-U (CorefUD) files: use --preset conll2012"),
])
def test_a_preset_refuses_a_file_of_another_format_naming_the_presets_that_read_it(capsys, preset, key, response,
                                                                                  fragment):
    code, _, err = run(capsys, "coref", str(key), str(response), "--preset", preset)
    assert code == 2 and err == f"fastscore: error: {key}: {fragment}\n"


def test_conllu_and_jsonlines_on_standard_input_score_as_their_files(tmp_path, monkeypatch, capsys):
    jkey, jresp = _jsonl_pair(tmp_path)
    for key, response in ((GUM_KEY, GUM_RESP), (jkey, jresp)):
        _, from_files, _ = run(capsys, "coref", str(key), str(response), "-o", "json")
        _stdin(monkeypatch, key)
        code, from_stdin, err = run(capsys, "coref", "-", str(response), "-o", "json")
        assert code == 0, err
        assert json.loads(from_stdin)["metrics"] == json.loads(from_files)["metrics"]
        assert json.loads(from_stdin)["signature"] == json.loads(from_files)["signature"]


def test_standard_input_that_cannot_be_read_so_says_why(tmp_path, monkeypatch, capsys):
    _stdin(monkeypatch, NAF / "doc-000.naf")
    code, _, err = run(capsys, "coref", str(NAF / "doc-000.naf"), "-")
    assert code == 2 and "NAF documents are named, and paired with the other side's, by their file names" in err
    (tmp_path / "a.conll").write_bytes(KEY.read_bytes())
    _stdin(monkeypatch, KEY)
    code, _, err = run(capsys, "coref", str(tmp_path), "-")
    assert code == 2 and "standard input cannot be scored against a corpus of shards" in err


def test_temporal_reads_standard_input(monkeypatch, capsys):
    gold, system = TIMEML / "gold" / "doc000.tml", TIMEML / "system" / "doc000.tml"
    _, from_files, _ = run(capsys, "temporal", str(gold), str(system), "-o", "json")
    _stdin(monkeypatch, system)
    code, from_stdin, err = run(capsys, "temporal", str(gold), "-", "-o", "json")
    assert code == 0, err
    assert json.loads(from_stdin)["relations"] == json.loads(from_files)["relations"]
    assert json.loads(from_stdin)["entities"] == json.loads(from_files)["entities"]


@pytest.mark.parametrize("command, given, remedy", [
    ("nugget", GUM_KEY, 'score it with "fastscore coref --format conllu"'),
    ("nugget", "jsonl", 'score it with "fastscore coref --format jsonl"'),
    ("triples", TIMEML / "gold" / "doc000.tml", 'score it with "fastscore temporal"'),
    ("triples", KEY, 'score it with "fastscore coref"'),
    ("temporal", KEY, 'score it with "fastscore coref"'),
    ("temporal", TRP, 'score it with "fastscore triples"'),
    ("coref", TIMEML / "gold" / "doc000.tml", 'score it with "fastscore temporal"'),
    ("temporal", NAF / "doc-000.naf", 'score it with "fastscore coref --format naf" or "fastscore triples"'),
])
def test_a_file_of_another_task_names_the_command_that_reads_it(tmp_path, capsys, command, given, remedy):
    given = _jsonl_pair(tmp_path)[0] if given == "jsonl" else given
    code, out, err = run(capsys, command, str(given), str(given))
    assert code == 1 and out == "" and err.startswith(f"fastscore: error: {given}:") and err.endswith(remedy + "\n")
    assert err.count("\n") == 1 and "this looks like" in err


def test_compare_and_sweep_name_the_task_option(tmp_path, capsys):
    gold, system = DEMO / "gold.tbf", DEMO / "system_A.tbf"
    folder = tmp_path / "gold"
    folder.mkdir()
    (folder / "a.tbf").write_bytes(gold.read_bytes())
    for argv in (["compare", gold, system, system], ["sweep", gold, system], ["compare", folder, folder, folder]):
        code, _, err = run(capsys, *map(str, argv))
        assert code == 1 and err.endswith(": give --task nugget\n"), err


def test_compare_and_sweep_name_the_format_option_for_their_own_task(tmp_path, capsys):
    """A file the task reads, given with a --format that does not fit it: the remedy is the format, not a task."""
    folder = tmp_path / "key"
    folder.mkdir()
    (folder / "a.conll").write_bytes(KEY.read_bytes())
    for argv in (["compare", KEY, KEY, KEY], ["sweep", KEY, KEY], ["compare", folder, folder, folder]):
        code, _, err = run(capsys, *map(str, argv), "--format", "conllu")
        assert code == 1 and "this looks like a CoNLL-2012" in err, err
        assert err.endswith(": leave --format out: the format is told from the content\n"), err


def test_a_folder_of_no_naf_document_and_no_shard_says_what_it_holds(tmp_path, capsys):
    (tmp_path / "empty").mkdir()
    code, _, err = run(capsys, "coref", str(tmp_path / "empty"), str(tmp_path / "empty"))
    assert code == 1 and err.endswith("the folder holds no NAF/KAF document (.naf, .kaf, .xml) and no shard (.conll, "
                                      ".conllu, .jsonl, .parquet, .arrow): it is empty\n")
    (tmp_path / "v4").mkdir()
    (tmp_path / "v4" / "a.v4_gold_conll").write_bytes(KEY.read_bytes())
    code, _, err = run(capsys, "coref", str(tmp_path / "v4"), str(tmp_path / "v4"))
    pattern = tmp_path / "v4" / "*.v4_gold_conll"
    assert code == 1 and err.endswith(f"it has 1 *.v4_gold_conll file(s): give the pattern '{pattern}' (quoted)\n")


@pytest.mark.parametrize("to", ["jsonl", "parquet"])
def test_convert_says_what_a_folder_is_and_what_it_reads(tmp_path, capsys, to):
    empty, conll = tmp_path / "empty", tmp_path / "conll"
    empty.mkdir()
    conll.mkdir()
    for name in ("a.conll", "b.conll"):
        (conll / name).write_bytes(KEY.read_bytes())
    for folder, held in ((empty, "a folder, empty"), (conll, "a folder of 2 *.conll file(s)")):
        code, _, err = run(capsys, "convert", str(folder), str(tmp_path / f"out.{to}"), "--to", to)
        assert code == 2 and err == (f"fastscore: error: {folder}: {held}: convert --to {to} reads one CoNLL-2012, "
                                     "CoNLL-U or jsonlines file at a time (a folder of NAF/KAF documents converts "
                                     "--to triples, parquet or arrow)\n")


def test_convert_of_naf_to_a_text_format_is_refused_not_a_traceback(tmp_path, capsys):
    code, _, err = run(capsys, "convert", str(NAF / "doc-000.naf"), str(tmp_path / "x.jsonl"), "--to", "jsonl")
    assert code == 2 and "NAF/KAF input has no jsonlines text to write" in err and err.count("\n") == 1


def test_convert_to_triples_names_an_empty_folder_and_another_task_s_file(tmp_path, capsys):
    (tmp_path / "empty").mkdir()
    code, _, err = run(capsys, "convert", str(tmp_path / "empty"), str(tmp_path / "out"), "--to", "triples")
    assert code == 1 and "the folder has no file to convert" in err and not (tmp_path / "out").exists()
    code, _, err = run(capsys, "convert", str(KEY), str(tmp_path / "x.trp"), "--to", "triples")
    assert code == 1 and err.endswith('not a NAF/KAF document (it has "#begin document"): score it with '
                                      '"fastscore coref"\n')


def test_convert_into_a_missing_folder_is_one_line(tmp_path, capsys):
    target = tmp_path / "out" / "sub" / "y.parquet"
    code, _, err = run(capsys, "convert", str(KEY), str(target), "--to", "parquet")
    assert code == 1 and err == f"fastscore: error: {target}: cannot write: the folder {target.parent} does not exist\n"


def test_sweep_of_a_timeml_folder_names_the_task_and_then_scores_it(capsys):
    gold, system = TIMEML / "gold", TIMEML / "system"
    code, _, err = run(capsys, "sweep", str(gold), str(system))
    assert code == 2 and err.endswith("it has 5 *.tml file(s), which look like a TimeML document: give --task "
                                      "temporal\n")
    code, out, err = run(capsys, "sweep", str(gold), str(system), "--task", "temporal", "-o", "json")
    assert code == 0, err
    assert [row["name"] for row in json.loads(out)["systems"]] == [str(system)]  # the folder is one system


def test_sweep_leaves_the_gold_out_and_lists_each_file_once(tmp_path, capsys):
    for name in ("key.conll", "a.conll", "b.conll"):
        (tmp_path / name).write_bytes((KEY if name == "key.conll" else RESPONSE).read_bytes())
    key = tmp_path / "key.conll"
    code, out, err = run(capsys, "sweep", str(key), str(tmp_path), str(tmp_path / "a.conll"), str(tmp_path / "*"),
                         "-o", "json")
    assert code == 0, err
    assert sorted(row["name"] for row in json.loads(out)["systems"]) == [str(tmp_path / "a.conll"),
                                                                         str(tmp_path / "b.conll")]
    assert err == (f"fastscore: warning: {key}: the gold itself (found in a folder or a pattern), left out of "
                   "the systems\n")
    # named as a system, the gold is kept (a sanity row some users want), once
    code, out, err = run(capsys, "sweep", str(key), str(tmp_path), str(key), "-o", "json")
    assert code == 0 and err == ""
    names = [row["name"] for row in json.loads(out)["systems"]]
    assert sorted(names) == [str(tmp_path / n) for n in ("a.conll", "b.conll", "key.conll")]
    assert json.loads(out)["systems"][0]["score"] == 1.0


@pytest.mark.parametrize("inputs", ["files", "folders"])
def test_jobs_below_one_is_refused_for_files_and_folders_alike(capsys, inputs):
    pair = [str(KEY), str(RESPONSE)] if inputs == "files" else [str(TESTDATA / "temporal_anchors" / "dense-0")] * 2
    code, _, err = run(capsys, "coref", *pair, "--jobs", "0")
    assert code == 2 and err == "fastscore: error: --jobs 0: give at least 1\n"
    from fastscore.shards import Settings

    with pytest.raises(UsageError, match="--jobs 0: give at least 1"):  # the API's settings, whatever the inputs
        Settings(jobs=0)


def test_sweep_quiet_prints_no_progress(monkeypatch, capsys):
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    for quiet, shown in (([], True), (["--quiet"], False)):
        code, _, err = run(capsys, "sweep", str(KEY), str(RESPONSE), str(RESPONSE), *quiet)
        assert code == 0 and ("scoring 1/1" in err) == shown, err


def test_a_reader_gone_ends_the_run_quietly_with_0(monkeypatch, capsys):
    """`fastscore ... | head -1`: no traceback, no message, exit 0 (what the command would have exited with),
    as `head` users expect of a filter; the choice is documented in the README's exit codes."""
    class Gone(io.StringIO):
        def write(self, text):
            raise BrokenPipeError(32, "Broken pipe")

        def fileno(self):
            raise io.UnsupportedOperation("no file")

    monkeypatch.setattr(sys, "stdout", Gone())
    assert main(["sweep", str(KEY), str(RESPONSE)]) == 0
    assert capsys.readouterr().err == ""


def test_a_naf_folder_has_one_signature_with_or_without_its_format(tmp_path, capsys):
    for name in ("doc-000.naf", "doc-001.naf"):
        (tmp_path / name).write_bytes((NAF / name).read_bytes())
    signatures = []
    for given in ([], ["--format", "naf"]):
        code, out, err = run(capsys, "coref", str(tmp_path), str(tmp_path), "-o", "json", *given)
        assert code == 0, err
        signatures.append(json.loads(out)["signature"])
    assert signatures[0] == signatures[1] and "format:naf" in signatures[0]


def test_convert_takes_each_tasks_converter_and_refuses_the_options_of_another(tmp_path, capsys):
    """`fastscore convert` is built from the tasks' converters: --to lists every target, each task's options sit in
    a group of their own, and an option of another converter is refused naming the targets it applies to."""
    from fastscore.tasks import TASKS

    with pytest.raises(SystemExit) as stop:
        main(["convert", "--help"])
    out = capsys.readouterr().out
    targets = [t for task in TASKS.values() if task.converter for t in task.converter.targets]
    assert stop.value.code == 0 and set(targets) >= {"conll2012", "conllu", "jsonl", "parquet", "arrow", "triples"}
    assert "with --to triples:" in out and "with --to conll2012|conllu|jsonl|parquet|arrow|ua:" in out
    code, _, err = run(capsys, "convert", str(KEY), str(tmp_path / "k.trp"), "--to", "triples", "--template", str(KEY))
    assert code == 2 and "--template applies to --to conll2012|conllu|jsonl|parquet|arrow|ua, not to --to triples" in err
    code, _, err = run(capsys, "convert", str(KEY), str(tmp_path / "k.jsonl"), "--to", "jsonl", "--intersect",
                       "--threshold", "5")
    assert code == 2 and "--intersect, --threshold apply to --to triples, not to --to jsonl" in err
    assert not (tmp_path / "k.jsonl").exists()


def test_compare_and_sweep_pair_two_temporal_files_as_the_temporal_command_does(capsys):
    """Two single TimeML files are one document whatever their names (fastscore temporal scores them so): compare
    and sweep take them too; folders must still hold the same files."""
    from fastscore.examples import example

    ex = example("temporal")
    code, out, err = run(capsys, "compare", "--task", "temporal", str(ex.key), str(ex.response), str(ex.key),
                         "--resamples", "100", "-o", "json")
    assert code == 0, err
    assert json.loads(out)["systems"][0]["score"] == 1.0
    code, out, err = run(capsys, "sweep", "--task", "temporal", str(ex.key), str(ex.response), "-o", "json")
    assert code == 0, err
    assert [s["name"] for s in json.loads(out)["systems"]] == [str(ex.response)]


def test_a_conllu_response_to_a_conll_key_is_an_input_error_naming_the_odd_file(capsys):
    from fastscore.examples import example

    conllu = example("corefud").response
    code, _, err = run(capsys, "coref", str(KEY), str(conllu))
    assert code == 1 and err.startswith(f"fastscore: error: {KEY}: not a CoNLL-U file, but {conllu} is")


def test_a_format_option_that_does_not_fit_the_file_says_to_leave_it_out(capsys):
    """The running command reads the file: the remedy is its own --format, not "score it with" the same command."""
    code, _, err = run(capsys, "coref", str(KEY), str(RESPONSE), "--format", "conllu")
    assert code == 1 and err.rstrip().endswith("leave --format out: the format is told from the content")
    code, _, err = run(capsys, "nugget", str(KEY), str(RESPONSE))  # another task's file: that task's command
    assert code == 1 and err.rstrip().endswith('score it with "fastscore coref"')


def test_the_python_api_names_the_task_keyword_that_reads_a_file():
    with pytest.raises(InputError, match='give task="coref"$'):
        fastscore.score(str(KEY), str(RESPONSE), task="temporal")
    with pytest.raises(InputError, match=r"leave format out \(it is told from the content\)"):
        fastscore.score_coref(str(KEY), str(RESPONSE), format="jsonl")
