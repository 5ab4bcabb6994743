"""Differential testing against EvmEval scorer_v1.8 and scorer_v1.7.1 (slow: ``-m slow``).

The cases (scripts/make_nugget_differential.py, one seed per case) hold what the anchor cases lack:
mentions written twice, one span with several types or realis, a mention id used twice, clusters
naming absent mentions or sharing one, empty documents, documents on one side only, sequencing links
(some naming absent mentions).
Each case is regenerated here (its input files checked against the digests stored with EvmEval's
outputs), then every run is compared: the whole official report where EvmEval finishes, one clear
error where it stops or crashes.  A run on a file with a mention id used twice may also end in one clear
error naming it (issue 26 decides what the reader does with them; EvmEval v1.8 scores both mentions,
v1.7.1 stops at the first document whose system repeats an id and prints what it scored so far).
"""
import gzip
import json
import sys

import pytest

from fastscore.cli import main
from tests.conftest import ROOT, TESTDATA

sys.path.insert(0, str(ROOT / "scripts"))
from make_nugget_differential import case_inputs, digest, repeated_ids, write_inputs  # noqa: E402

STORED = json.loads(gzip.decompress((TESTDATA / "nugget_differential" / "expected.json.gz").read_bytes()))
CASES = STORED["cases"]


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
        assert run["args"] == stored["args"]
        code = main(["nugget", *_args(tmp_path, run), "--output", "evmeval"])
        out, err = capsys.readouterr()
        if any(repeated_ids(files[f"{side}.{run['mode']}.tbf"]) for side in ("gold", "system")):
            # a mention id used twice: the readers' check is issue 26's; until then one clear error is allowed
            assert (code, out) == (0, stored["report"]) or (_one_clear_error(code, out, err)
                                                            and "duplicate mention id" in err), f"run {k}: {err}"
        elif stored["exit"] == 0:
            assert (code, out) == (0, stored["report"]), f"run {k}: {stored['evmeval_args']}: {err}"
        else:
            assert _one_clear_error(code, out, err), f"run {k}: EvmEval stopped ({stored['error']}): {err}"
