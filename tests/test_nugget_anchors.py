"""Agreement with EvmEval scorer_v1.7.1 and scorer_v1.8, run locally (Python 2.7) on
generated cases (scripts/make_nugget_anchors.py): the whole official report, to the digit."""
import json

import pytest

from fastscore.cli import main
from tests.conftest import SHARED, TESTDATA, sample_in_default_run

ANCHORS = TESTDATA / "nugget_anchors"
EXPECTED = json.loads((ANCHORS / "expected.json").read_text())["cases"]
RUNS = [(case, k) for case, runs in sorted(EXPECTED.items()) for k in range(len(runs))]


def _args(case: str, run: dict) -> list[str]:
    folder = ANCHORS / case
    out = []
    for a in run["args"]:
        out.append(str(folder / "tkn") if a == "TOKENS" else str(folder / a) if a.startswith("whitelist-") else a)
    return [str(folder / f"gold.{run['mode']}.tbf"), str(folder / f"system.{run['mode']}.tbf")] + out


@pytest.mark.parametrize("case, k", sample_in_default_run(RUNS, 3), ids=[f"{c}-{EXPECTED[c][k]['scorer']}-{EXPECTED[c][k]['mode']}"
                                                for c, k in RUNS])
def test_official_report_matches(case, k, capsys):
    run = EXPECTED[case][k]
    assert main(["nugget", *_args(case, run), "--output", "evmeval"]) == 0
    assert capsys.readouterr().out == run["report"]


DEMO = SHARED / "evmeval-demo"


@pytest.mark.parametrize("preset", ["kbp2015", "kbp2016"])
def test_demo_data(preset, capsys):
    """The scorers' own demo (character spans): EvmEval prints these numbers for it."""
    args = ["nugget", str(DEMO / "gold.tbf"), str(DEMO / "system_A.tbf"), "--preset", preset, "--coref", "-o", "json"]
    if preset == "kbp2015":
        args.append("--char-spans")
    assert main(args) == 0
    data = json.loads(capsys.readouterr().out)
    span = data["metrics"]["span"]
    assert round(100 * span["micro"]["f1"], 2) == 90.48 and round(100 * span["macro"]["f1"], 2) == 71.43
    assert round(100 * data["coref"]["average"], 2) == 90.83
