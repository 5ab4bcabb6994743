"""Differential testing against EvmEval scorer_v1.8 and scorer_v1.7.1 (slow: ``-m slow``).

The cases (scripts/make_nugget_differential.py, one seed per case) hold what the anchor cases lack:
mentions written twice, one span with several types or realis, a mention id used twice, clusters
naming absent mentions or sharing one, empty documents, documents on one side only, sequencing links
(some naming absent mentions).
Each case is regenerated here (its input files checked against the digests stored with EvmEval's
outputs), then every run is compared: the whole official report where EvmEval finishes, one clear
error where it stops or crashes.  A mention id used twice is scored as v1.8 scores it (both mentions;
a cluster naming the id takes both); where scorer_v1.7.1 meets one in a scored system document it
stops, exits 0 and prints the documents before it as the whole score: there fastscore must give one
clear error naming the duplicate id.
"""
import gzip
import json
import sys

import pytest

from fastscore.cli import main
from tests.conftest import ROOT, TESTDATA

sys.path.insert(0, str(ROOT / "scripts"))
from make_nugget_differential import (case_inputs, digest, documents, quirk_inputs, repeated_ids,  # noqa: E402
                                      structure_inputs, write_inputs)

STORED = json.loads(gzip.decompress((TESTDATA / "nugget_differential" / "expected.json.gz").read_bytes()))
CASES = STORED["cases"]
QUIRKS = json.loads(gzip.decompress((TESTDATA / "nugget_differential" / "expected_quirks.json.gz").read_bytes()))
STRUCTURE = json.loads(gzip.decompress((TESTDATA / "nugget_differential" / "expected_structure.json.gz").read_bytes()))


def _args(folder, run: dict) -> list[str]:
    out = [str(folder / "tkn") if a == "TOKENS" else str(folder / a) if a.startswith("whitelist-") else a
           for a in run["args"]]
    return [str(folder / f"gold.{run['mode']}.tbf"), str(folder / f"system.{run['mode']}.tbf")] + out


def _one_clear_error(code: int, out: str, err: str) -> bool:
    lines = err.strip().splitlines()
    return code == 1 and out == "" and len(lines) == 1 and lines[0].startswith("fastscore: error: ")


@pytest.mark.slow
@pytest.mark.parametrize("case", sorted(CASES))
def test_evmeval_differential(case, tmp_path, capsys):
    files, runs = case_inputs(STORED["seed"], int(case.split("-")[1]))
    assert {k: digest(v) for k, v in files.items()} == CASES[case]["inputs"]
    write_inputs(tmp_path, files)
    for k, (run, stored) in enumerate(zip(runs, CASES[case]["runs"])):
        _compare(k, run, stored, files, tmp_path, capsys)


@pytest.mark.slow
@pytest.mark.parametrize("case", sorted(QUIRKS["cases"]))
def test_evmeval_differential_quirks(case, tmp_path, capsys):
    """Inputs EvmEval reads its own way (issue 36): its figures, warned; where it fails on a byte-order mark or
    a line of Unicode white space, the score warned as one EvmEval fails on (or a clear error)."""
    files, runs, quirks = quirk_inputs(QUIRKS["seed"], int(case.split("-")[1]))
    assert {k: digest(v) for k, v in files.items()} == QUIRKS["cases"][case]["inputs"]
    write_inputs(tmp_path, files)
    fails = {"bom_gold", "bom_system", "blank_line"} & set(quirks)  # where EvmEval may fail on a plain meaning
    for k, (run, stored) in enumerate(zip(runs, QUIRKS["cases"][case]["runs"])):
        if stored["exit"] and fails:
            code = main(["nugget", *_args(tmp_path, run), "--output", "evmeval"])
            out, err = capsys.readouterr()
            scored_warned = code == 0 and "EvmEval fails on" in err
            assert scored_warned or _one_clear_error(code, out, err), f"run {k}: {stored['error']}: {err}"
            continue
        _compare(k, run, stored, files, tmp_path, capsys)


@pytest.mark.slow
@pytest.mark.parametrize("case", sorted(STRUCTURE["cases"]))
def test_evmeval_differential_structure(case, tmp_path, capsys):
    """Structure EvmEval reads its own way (issue 36): lines outside a document, a stray or missing
    #EndOfDocument, a 6-field line in a system-only document, an empty document id or one holding
    "#end document": EvmEval's whole report (warned), or one clear error where it stops."""
    files, runs, _ = structure_inputs(STRUCTURE["seed"], int(case.split("-")[1]))
    assert {k: digest(v) for k, v in files.items()} == STRUCTURE["cases"][case]["inputs"]
    write_inputs(tmp_path, files)
    for k, (run, stored) in enumerate(zip(runs, STRUCTURE["cases"][case]["runs"])):
        _compare(k, run, stored, files, tmp_path, capsys)


def _compare(k: int, run: dict, stored: dict, files: dict[str, str], folder, capsys) -> None:
    """Run ``k``: fastscore's report is EvmEval's where it finishes, one clear error where it stops."""
    assert run["args"] == stored["args"]
    code = main(["nugget", *_args(folder, run), "--output", "evmeval"])
    out, err = capsys.readouterr()
    stop = _v171_stop(files, run)
    if stop is not None and stored["exit"] == 0:
        assert f"\n{stop or '  '}\t" not in stored["report"], f"run {k}: v1.7.1 scored {stop}"  # it stopped there
        assert _one_clear_error(code, out, err) and "duplicate mention id" in err, f"run {k}: {err}"
    elif stored["exit"] == 0:
        assert (code, out) == (0, stored["report"]), f"run {k}: {stored['evmeval_args']}: {err}"
    else:
        assert _one_clear_error(code, out, err), f"run {k}: EvmEval stopped ({stored['error']}): {err}"


def _v171_stop(files: dict[str, str], run: dict) -> str | None:
    """The document where scorer_v1.7.1 stops silently: the first scored (gold) document, in its sorted order,
    whose system uses a mention id twice; None for v1.8 or when there is none."""
    gold, system = (files[f"{side}.{run['mode']}.tbf"] for side in ("gold", "system"))
    found = repeated_ids(system) & documents(gold) if run["scorer"] == "v171" else set()
    return min(found) if found else None
