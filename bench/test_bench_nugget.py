"""pytest-benchmark: event nuggets with coreference, 5,000 documents (python -m pytest bench -m bench).

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
