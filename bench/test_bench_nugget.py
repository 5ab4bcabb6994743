"""pytest-benchmark: event nuggets with coreference, 5,000 documents; event sequencing, 1,000 documents
(python -m pytest -n 0 bench -m bench).

Target (issue 4): <= 2 s wall for the whole run; this times the in-process scoring after warm-up.
"""
import sys

import pytest

from fastscore import score_nugget
from fastscore.formats.tbf import read_tbf

from .conftest import ROOT

pytestmark = pytest.mark.bench


@pytest.fixture(scope="module")
def nugget_files():
    sys.path.insert(0, str(ROOT / "scripts"))
    from gen_nuggets import generate

    out = ROOT / "bench" / ".corpus" / "nuggets-5000"
    if not (out / "gold.tbf").exists():
        generate(out)
    return read_tbf(out / "gold.tbf"), read_tbf(out / "system.tbf")


def test_nugget_with_coref_5000_docs(benchmark, nugget_files):
    gold, system = nugget_files
    score_nugget(gold, system, preset="kbp2016", coref=True)
    result = benchmark.pedantic(score_nugget, args=(gold, system), kwargs={"preset": "kbp2016", "coref": True},
                                rounds=3)
    assert result.coref_scores() is not None


@pytest.fixture(scope="module")
def sequencing_files():
    sys.path.insert(0, str(ROOT / "scripts"))
    from gen_nuggets import generate

    out = ROOT / "bench" / ".corpus" / "sequencing-1000"
    if not (out / "gold.tbf").exists():
        generate(out, docs=1000, links=True)
    return read_tbf(out / "gold.tbf"), read_tbf(out / "system.tbf")


def test_sequencing_1000_docs(benchmark, sequencing_files):
    """Event sequencing (After and Subevent, ~34k gold links) with the official timegraph."""
    gold, system = sequencing_files
    kwargs = {"preset": "kbp2016", "sequencing": True, "no_script_validation": True}
    result = benchmark.pedantic(score_nugget, args=(gold, system), kwargs=kwargs, rounds=3)
    assert result.sequencing_scores("All")["gold"] > 0
