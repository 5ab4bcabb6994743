"""Differential test against the Triple evaluation module (cltl/TripleEvaluation, current source) on the wide
cases of ``scripts/gen_triples.py`` (duplicates and near-duplicates with other relations, overlap chains,
elements without ids, token ids no token has, empty files...): every run of ``FILE_RUNS`` on every case, the
module's report (``tests/data/triples_anchors/wide.json.gz``, made by ``scripts/make_triples_anchors.py``)
reproduced to the character by ``--output module``, and the numbers of the API (JSON) equal to the ones the
module printed.  The inputs are made again by the seeded generator."""
import gzip
import json
import sys
from pathlib import Path

import pytest

from fastscore.triples.report import render
from fastscore.triples.score import score_triples

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
from gen_triples import generate_wide_case, write_case  # noqa: E402

WIDE = ROOT / "tests" / "data" / "triples_anchors" / "wide.json.gz"
DATA = json.loads(gzip.decompress(WIDE.read_bytes())) if WIDE.exists() else {"runs": [], "cases": 0, "seed": 0}


@pytest.fixture(scope="module")
def cases(tmp_path_factory):
    root = tmp_path_factory.mktemp("wide")
    for k in range(DATA["cases"]):
        write_case(str(root / f"wide-{k:03d}"), generate_wide_case(DATA["seed"] * 1000 + k))
    return root


def _printed(report: str) -> dict[str, str]:
    """``label -> value`` of the module's tab-separated figure lines (the last one of each label)."""
    out = {}
    for line in report.split("\n"):
        parts = line.strip("\t").split("\t")
        if len(parts) == 2:
            out[parts[0]] = parts[1]
    return out


def _relation_rows(report: str) -> dict[str, tuple[int, int, int]]:
    """EvaluateTriples' per-relation table: relation -> (gold, unique system, correct)."""
    rows = report.split("\nResults per relation\n", 1)[1].split("\n")[1:]
    return {f[0]: (int(f[1]), int(f[3]), int(f[5])) for f in (r.split("\t") for r in rows if r)
            if f[0] != "Total"}


def same_numbers(result, report: str) -> None:
    """The API's numbers (what ``--output json`` prints) are those the module printed (EvaluateTriples)."""
    figures = _printed(report)
    s = result.scores()
    m, sy = s["metrics"]["triples"], s["statistics"]["system"]
    assert m["correct"] == int(figures["Nr. correct"])
    for name, value in (("precision", figures["Precision"]), ("recall", figures["Recall"])):
        if value not in ("NaN", "Infinity"):
            assert m[name] == float(value), name
    assert sy["unique_in_scope"] == int(figures["Number of unique Triples in scope"])
    assert sy["in_range"] == int(figures["Nr. of Triples in range"])
    assert sy["out_of_range"] == int(figures["Nr. of Triples out of range"])
    assert s["statistics"]["gold"]["triples"] == int(figures["Nr. of Triples"])
    per_relation = {k: (v["gold"], v["system"], v["correct"]) for k, v in s["per_relation"].items()}
    assert per_relation == _relation_rows(report)


@pytest.mark.slow
@pytest.mark.parametrize("run", DATA["runs"], ids=[f"{r['case']}-{r['run']}" for r in DATA["runs"]])
def test_wide_case_as_the_module(run, cases, monkeypatch):
    monkeypatch.chdir(cases)  # the report names the token-range file as given
    case = run["case"]
    result = score_triples(f"{case}/gold.trp", f"{case}/system.trp", location_defect=True, **run["keywords"])
    assert render(result, "module") == run["report"]
    if run["class"] == "DriverE":
        same_numbers(result, run["report"])


def test_wide_anchors_cover_every_file_run():
    from make_triples_anchors import FILE_RUNS

    assert DATA["cases"] >= 200
    assert len(DATA["runs"]) == DATA["cases"] * len(FILE_RUNS)
    assert {r["run"] for r in DATA["runs"]} == {name for name, *_ in FILE_RUNS}
