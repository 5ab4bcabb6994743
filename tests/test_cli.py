"""The command line: contract of options, output formats and exit codes."""
import csv
import io
import json
import subprocess
import sys

import pytest

from fastscore.cli import main
from tests.conftest import SHARED

CASES = SHARED / "conll-reference-tests"
KEY, RESP = str(CASES / "TC-A.key"), str(CASES / "TC-A-4.response")
COUNTS = {"recall_num", "recall_den", "precision_num", "precision_den", "recall", "precision", "f1"}


def run(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_json_contract(capsys):
    code, out, _ = run(capsys, "coref", KEY, RESP, "--output", "json", "--per-doc")
    assert code == 0
    data = json.loads(out)
    assert data["task"] == "coref" and data["documents"] == 1
    assert set(data["mentions"]) == COUNTS
    assert set(data["metrics"]) == {"muc", "bcub", "ceafm", "ceafe", "blanc", "lea", "conll"}
    for m in ("muc", "bcub", "ceafm", "ceafe", "lea"):
        assert set(data["metrics"][m]) == COUNTS
    assert set(data["metrics"]["blanc"]) == {"coref_links", "noncoref_links", "recall", "precision", "f1"}
    assert set(data["metrics"]["blanc"]["coref_links"]) == COUNTS
    assert set(data["metrics"]["conll"]) == {"f1"}
    assert data["metrics"]["muc"]["recall_num"] == 1 and data["metrics"]["muc"]["recall_den"] == 3
    doc = data["per_doc"]["(LuoTestCase); "]
    assert doc["metrics"]["bcub"] == data["metrics"]["bcub"]


def test_metric_selection(capsys):
    code, out, _ = run(capsys, "coref", KEY, RESP, "-o", "json", "-m", "muc", "-m", "lea")
    assert set(json.loads(out)["metrics"]) == {"muc", "lea"}


def test_perl_layout(capsys):
    code, out, _ = run(capsys, "coref", KEY, RESP, "-o", "perl", "-m", "muc")
    assert "Coreference: Recall: (1 / 3) 33.33%\tPrecision: (1 / 3) 33.33%\tF1: 33.33%" in out
    assert "Identification of Mentions: Recall: (4 / 6) 66.66%" in out
    code, out, _ = run(capsys, "coref", KEY, RESP, "-o", "perl")  # exactly v8.01's `all`: no LEA
    assert [ln for ln in out.splitlines() if ln.startswith("METRIC")] == [
        "METRIC muc:", "METRIC bcub:", "METRIC ceafm:", "METRIC ceafe:", "METRIC blanc:"]
    code, out, _ = run(capsys, "coref", KEY, RESP, "-o", "perl", "-m", "all", "-m", "lea")  # LEA when named
    assert [ln for ln in out.splitlines() if ln.startswith("METRIC")][-1] == "METRIC lea:"
    code, out, _ = run(capsys, "coref", KEY, RESP, "-o", "perl", "--totals-only", "-m", "bcub")
    assert "Total key mentions" not in out and "====== TOTALS" in out


def test_csv_and_markdown(capsys):
    code, out, _ = run(capsys, "coref", KEY, RESP, "-o", "csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    muc = next(r for r in rows if r["metric"] == "muc")
    assert muc["recall_num"] == "1" and float(muc["f1"]) == pytest.approx(1 / 3)
    code, out, _ = run(capsys, "coref", KEY, RESP, "-o", "markdown")
    assert "| muc | 33.33 | 33.33 | 33.33 |" in out


def test_text_default_has_signature(capsys):
    code, out, _ = run(capsys, "coref", KEY, RESP, "--singletons", "drop")
    assert code == 0 and "signature: coref|" in out and "singletons:drop" in out


def test_usage_errors_exit_2(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["coref", KEY])
    assert exc.value.code == 2
    with pytest.raises(SystemExit) as exc:
        main(["coref", KEY, RESP, "-m", "nope"])
    assert exc.value.code == 2
    assert main([]) == 2


def test_help_has_example(capsys):
    with pytest.raises(SystemExit):
        main(["coref", "--help"])
    assert "examples:" in capsys.readouterr().out


def test_version_says_which_kernels_run(capsys, monkeypatch, tmp_path):
    from fastscore import __version__, first_run

    for name in ("NUMBA_DISABLE_JIT", "FASTSCORE_JIT"):
        monkeypatch.delenv(name, raising=False)
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    version, kernels = capsys.readouterr().out.splitlines()
    assert version == f"fastscore {__version__}"
    compiled = first_run.compiled_kernels() is not None
    assert kernels.startswith("kernels: compiled ahead of time (_aot.") == compiled, kernels
    assert kernels.startswith("kernels: numba's JIT") != compiled, kernels
    if compiled:
        monkeypatch.setattr(first_run, "source_stamp", lambda: -1)  # a module built from other sources: not used
        assert first_run.kernels_status().endswith(
            "built from other kernel sources (python -m fastscore.kernels._aot_build rebuilds them)")
    monkeypatch.delitem(sys.modules, "fastscore.kernels._aot", raising=False)
    monkeypatch.setattr(first_run, "_kernel_sources", lambda: [str(tmp_path)])  # kernels without the module
    assert "; the module compiled ahead of time: none is installed (the installation could not" in first_run.kernels_status()
    monkeypatch.setenv("NUMBA_DISABLE_JIT", "1")
    assert first_run.kernels_status() == "kernels: plain Python (NUMBA_DISABLE_JIT is set)"


@pytest.mark.parametrize("args", [["--version"], ["--help"], ["coref", "--help"]])
def test_help_and_version_do_not_import_numba(args):
    code = ("import sys, runpy; sys.argv = ['fastscore'] + %r\n"
            "try:\n    runpy.run_module('fastscore', run_name='__main__')\n"
            "except SystemExit:\n    pass\n"
            "assert 'numba' not in sys.modules, 'numba imported'\n" % args)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


def test_import_does_not_import_numba():
    proc = subprocess.run([sys.executable, "-c", "import sys, fastscore; assert 'numba' not in sys.modules"],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


def test_python_m_fastscore_runs():
    proc = subprocess.run([sys.executable, "-m", "fastscore", "coref", KEY, RESP, "-o", "json"],
                          capture_output=True, text=True)
    assert proc.returncode == 0 and json.loads(proc.stdout)["documents"] == 1


def test_missing_document_warns(capsys, tmp_path):
    key = tmp_path / "k.conll"
    key.write_text("#begin document a\nx (1)\n#end document\n#begin document b\nx (1)\n#end document\n")
    resp = tmp_path / "r.conll"
    resp.write_text("#begin document b\nx (1)\n#end document\n")
    code, out, err = run(capsys, "coref", str(key), str(resp), "-o", "json")
    assert code == 0 and 'missing from the response, scored as empty: "a"' in err
    assert json.loads(out)["mentions"]["recall_den"] == 2
