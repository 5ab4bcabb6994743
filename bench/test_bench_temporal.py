"""pytest-benchmark: TempEval-3 temporal evaluation (python -m pytest -n 0 bench/test_bench_temporal.py -m bench).

Targets (issue 12): a TimeBank-sized corpus (183 documents, ~6,400 gold TLINKs) <= 0.5 s, and one
document with ~4,000 gold TLINKs <= 0.5 s.  The corpora come from scripts/gen_timeml.py (seeded) and are
kept in bench/.corpus.  Timed: scoring (normalisation, entities, both timegraphs, the three methods'
counts) on inputs already read, and the same from the files; after a warm-up run (numba compiled).
"""
import sys

import pytest

from fastscore.temporal.score import read, score_temporal

from .conftest import ROOT

pytestmark = pytest.mark.bench


def corpus(name: str):
    sys.path.insert(0, str(ROOT / "scripts"))
    from gen_timeml import big, timebank, write_corpus

    out = ROOT / "bench" / ".corpus" / f"temporal-{name}"
    if not (out / "gold").is_dir():
        write_corpus(out, timebank() if name == "timebank" else big(4000))
    return str(out / "gold"), str(out / "system")


@pytest.fixture(scope="module", params=["timebank", "big-4000"], ids=lambda n: f"corpus={n}")
def temporal_files(request):
    return corpus(request.param)


@pytest.mark.parametrize("method", ["te3", "acl11", "implicit_in_recall"])
def test_temporal_read_inputs(benchmark, temporal_files, method):
    gold, system = (read(p) for p in temporal_files)
    score_temporal(gold, system, evaluation_method=method)
    result = benchmark.pedantic(score_temporal, args=(gold, system), kwargs={"evaluation_method": method}, rounds=5)
    assert result.relations()["gold_total"] > 0


def test_temporal_from_files(benchmark, temporal_files):
    gold, system = temporal_files
    score_temporal(gold, system)
    result = benchmark.pedantic(score_temporal, args=(gold, system), rounds=3)
    assert result.relations()["gold_total"] > 0


def test_temporal_fixed(benchmark, temporal_files):
    gold, system = (read(p) for p in temporal_files)
    score_temporal(gold, system, fix_toolkit_quirks=True)
    result = benchmark.pedantic(score_temporal, args=(gold, system), kwargs={"fix_toolkit_quirks": True}, rounds=5)
    assert result.relations()["gold_total"] > 0
