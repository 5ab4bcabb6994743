"""Agreement with the Triple evaluation module (cltl/TripleEvaluation, current source): its report files
for generated cases (``scripts/make_triples_anchors.py``), reproduced to the character by
``--output module``, and its numbers through the API."""
import json
from pathlib import Path

import pytest

from fastscore.triples.score import score_triples
from fastscore.triples.report import render
from tests.conftest import sample_in_default_run
from tests.test_triples_wide import same_numbers

ANCHORS = Path(__file__).parent / "data" / "triples_anchors"
RUNS = json.loads((ANCHORS / "expected.json").read_text(encoding="utf-8"))["runs"] if ANCHORS.exists() else []
FOLDER_HEADER_LINES = 5  # folders, date: the module's header (the driver leaves it out)


def _score(run, monkeypatch):
    case = ANCHORS / run["case"]
    monkeypatch.chdir(case)  # the report names the token-range file as given
    if run["class"] == "DriverF":
        return score_triples("gold", "system", location_defect=True, **run["keywords"])
    return score_triples("gold.trp", "system.trp", location_defect=True, **run["keywords"])


@pytest.mark.parametrize("run", sample_in_default_run(RUNS, 3), ids=[f"{r['case']}-{r['run']}" for r in RUNS])
def test_module_report_to_the_character(run, monkeypatch):
    result = _score(run, monkeypatch)
    report = render(result, "module")
    if run["class"] == "DriverF":
        lines = report.split("\n")
        assert lines[0].startswith("goldStandardTripleFolder\t") and lines[3].startswith("Date\t")
        report = "\n".join(lines[FOLDER_HEADER_LINES:])
    assert report == run["report"]
    if run["class"] == "DriverE":  # and the JSON's numbers are the ones the module printed
        same_numbers(result, run["report"])


def test_anchor_runs_cover_every_configuration():
    assert len({r["run"] for r in RUNS}) == 14
    assert len(RUNS) >= 300
