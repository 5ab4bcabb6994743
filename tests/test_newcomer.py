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
    ({"coref_threshold": 0.5}, "--coref-threshold 0.5: no effect without --coref"),
    ({"coref_mapping": "span"}, "--coref-mapping span: no effect without --coref"),
    ({"preset": "kbp2016", "sequencing_graph": "exact"}, "no effect without --sequencing"),
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


def test_first_run_note_only_when_nothing_is_cached(tmp_path, monkeypatch, capsys):
    from fastscore import first_run

    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    assert not first_run.kernels_cached()

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    first_run.announce_compilation()
    assert "compiling the scoring kernels for the first run" in terminal.getvalue()
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
