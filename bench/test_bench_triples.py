"""pytest-benchmark: triple matching, 1M gold triples against 1M system triples in 2,000 documents
(python -m pytest -n 0 bench/test_bench_triples.py -m bench).

Target (issue 14): <= 2 s for the matching kernel over sorted id arrays (all four variants, unique
system triples, counted gold triples).  The corpus is built in memory by scripts/gen_triples.py
(``big_corpus``, seed 7); the kernel is called once before timing (compilation), then timed alone,
then the whole in-process scoring (filters, layout, kernels, statistics) on the already-read documents.
"""
import sys

import pytest

from .conftest import ROOT

pytestmark = pytest.mark.bench


@pytest.fixture(scope="module", params=[100_000, 1_000_000], ids=lambda n: f"{n=}")
def prepared(request):
    sys.path.insert(0, str(ROOT / "scripts"))
    from gen_triples import big_corpus

    from fastscore.formats.triples import TripleDoc, TripleSet
    from fastscore.triples.engine import _layout, prepare
    from fastscore.triples.options import resolve_options

    def doc(name, triples):
        d = TripleDoc(name, name)
        for t in triples:
            d.append(t.tid, t.relation, t.first, t.second)
        return d

    corpus = big_corpus(request.param, 7)
    gold = TripleSet("gold", {n: doc(n, g) for n, g, _ in corpus}, folder=True)
    system = TripleSet("system", {n: doc(n, s) for n, _, s in corpus}, folder=True)
    prep = prepare(gold, system, resolve_options())
    _layout(prep)
    return gold, system, prep


def _kernel(prep):
    from fastscore.kernels.triples import match_triples_parallel

    st = prep.store
    return match_triples_parallel(st["f_off"], st["f_ids"], st["s_off"], st["s_ids"], st["fold"], st["rel"], st["flags"],
                         st["doc"], prep.offsets["gold"], prep.offsets["system"], st["n_keys"], True)


def test_matching_kernel(benchmark, prepared):
    _, _, prep = prepared
    _kernel(prep)
    match, unique, counted = benchmark.pedantic(_kernel, args=(prep,), rounds=3)
    assert counted.sum() > 0 and unique.shape[1] == prep.n_system


def test_whole_scoring_in_process(benchmark, prepared):
    from fastscore.triples.score import score_triples

    gold, system, _ = prepared
    result = benchmark.pedantic(score_triples, args=(gold, system), rounds=1)
    assert result.to_dict()["metrics"]["triples"]["correct"] > 0
