"""What compare, sweep and --bootstrap print and refuse: one p-value format, footers naming the test and
the intervals, signatures, warnings for intervals that mean nothing, memory bounded whatever the number
of resamples, and the same numbers for a seed whatever the chunk size."""
import json
import re
import sys

import numpy as np
import pytest

import fastscore
from fastscore.errors import UsageError
from fastscore.coref.metrics import COLUMNS, METRICS
from fastscore.report import stats_tables
from fastscore.report.plot import delta_labels, plot_deltas
from fastscore.stats import resample
from fastscore.stats.bootstrap import MIN_RESAMPLES, bootstrap_stats
from fastscore.stats.compare import Comparison, SystemComparison, compare_stats, sweep_stats
from fastscore.stats.docstats import DocStats
from fastscore.stats.resample import (bootstrap_indices, bootstrap_sums, bootstrap_values, chunk_rows,
                                      permutation_sums, permutation_values, swap_masks)
from tests.conftest import TESTDATA

P_CELL = re.compile(r"^(< 0\.0001|[01]\.\d{4})$")


def synthetic(seed: int, n: int = 30) -> DocStats:
    """Coreference statistics of n documents with P and R around 0.7 (numerators <= denominators)."""
    rng = np.random.default_rng(seed)
    den = rng.integers(5, 40, size=(n, len(COLUMNS))).astype(float)
    num = rng.binomial(den.astype(int), 0.7).astype(float)
    return DocStats([f"d{i}" for i in range(n)], np.where([c.endswith("_num") for c in COLUMNS], num, den),
                    COLUMNS, METRICS)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    sys.path.insert(0, str(TESTDATA.parent.parent / "scripts"))
    from gen_corpus import generate

    out = tmp_path_factory.mktemp("corpus")
    return generate(out, docs=12, tokens=3000, mentions=400, clusters=100, seed=3, responses=2)


def _comparison(p_values, test="bootstrap", method="percentile", level=0.95) -> Comparison:
    out = Comparison("coref", "conll", test, 10000, 12345, level, "base", 0.8493, (0.84, 0.86), method=method)
    for k, p in enumerate(p_values):
        out.systems.append(SystemComparison(f"s{k}", 0.85, (0.84, 0.86), 0.001, (-0.01, 0.01), p, p,
                                            deltas=np.zeros(3)))
    return out


def _p_cells(text: str, fmt: str) -> list[str]:
    """The p and p (Holm) cells of the system rows (after the header and the baseline) of a comparison table."""
    lines = text.splitlines()
    if fmt == "text":
        rows = [re.split(r"\s{2,}", line.strip()) for line in text.split("\n\n")[0].splitlines()[2:]]
    elif fmt == "markdown":
        rows = [line[2:-2].split(" | ") for line in lines if line.startswith("| ")][2:]
    else:
        body = lines[lines.index("\\midrule") + 1:lines.index("\\bottomrule")]
        rows = [line.removesuffix(" \\\\").replace("\\textless{}", "<").split(" & ") for line in body][1:]
    return [c for r in rows for c in r[5:7]]


@pytest.mark.parametrize("fmt", ["text", "markdown", "latex"])
def test_compare_p_values_print_in_one_format(fmt):
    text = stats_tables.comparison(_comparison([9.999e-05, 0.0002, 1.0, 0.5205]), fmt)
    cells = _p_cells(text, fmt)
    assert cells == ["< 0.0001"] * 2 + ["0.0002"] * 2 + ["1.0000"] * 2 + ["0.5205"] * 2
    assert all(P_CELL.match(c) for c in cells)


def test_p_values_truncated_so_marks_agree():
    assert stats_tables.p_value(0.009999) == "0.0099" and stats_tables.mark(0.009999) == "**"
    assert stats_tables.p_value(0.0499999) == "0.0499" and stats_tables.p_value(0.05) == "0.0500"
    assert stats_tables.p_value(0.03) == "0.0300" and stats_tables.p_value(1 / 10001) == "< 0.0001"
    assert stats_tables.p_value(0.0001) == "0.0001"


@pytest.mark.parametrize("fmt", ["text", "markdown", "latex"])
def test_compare_cli_p_values_in_one_format(corpus, capsys, fmt):
    from fastscore.cli import main

    key, resp, resp2 = map(str, corpus)
    assert main(["compare", key, resp, resp2, key, "--resamples", "300", "-o", fmt]) == 0
    cells = _p_cells(capsys.readouterr().out, fmt)
    assert len(cells) == 4 and all(P_CELL.match(c) for c in cells), cells


def test_compare_footer_names_the_interval_method_and_level():
    text = stats_tables.comparison(_comparison([0.5], method="bca", level=0.975), "text")
    assert "97.5% CI" in text
    assert "intervals: 97.5% BCa bootstrap, 10000 resamples of documents, seed 12345" in text
    assert "test: paired bootstrap, 10000 resamples of documents, seed 12345" in text
    assert "p (Holm): Holm-Bonferroni adjusted over 1 system;" in text
    permutation = stats_tables.comparison(_comparison([0.5, 0.2], test="permutation"), "latex")
    assert "% test: approximate randomization (permutation), 10000 trials" in permutation
    assert "% intervals: 95% percentile bootstrap" in permutation and "over 2 systems" in permutation


def test_sweep_footer_names_the_interval_method_and_level():
    out = sweep_stats([("a", synthetic(1)), ("b", synthetic(2))], "muc", ["muc", "lea"], 200, method="bca",
                      level=0.9, task="coref")
    assert "intervals: 90% BCa bootstrap, 200 resamples of documents, seed 12345" in stats_tables.sweep(out, "text")


def test_plot_labels_name_the_test_and_holm():
    bootstrap = delta_labels(_comparison([0.5, 0.00001]))
    assert "paired bootstrap test" in bootstrap["title"]
    assert bootstrap["panels"][1].endswith("p (Holm) < 0.0001") and "Holm-Bonferroni" in bootstrap["xlabel"]
    permutation = delta_labels(_comparison([0.5], test="permutation"))
    assert "bootstrap distribution of the difference" in permutation["title"]
    assert "p-values: from the permutation test" in permutation["title"]
    assert permutation["panels"][0].endswith("p (Holm) = 0.5000")


def test_plot_returns_the_path_written(tmp_path):
    pytest.importorskip("matplotlib")
    path = tmp_path / "deltas.png"
    assert plot_deltas(_comparison([0.5]), path) == str(path) and path.stat().st_size > 0


def test_compare_and_sweep_json_carry_a_signature(corpus, capsys):
    from fastscore.cli import main

    a, b = synthetic(1), synthetic(2)
    cmp = compare_stats(("a", a), [("b", b)], "conll", options={"singletons": "keep"}, task="coref")
    assert cmp.signature() == (f"compare|task:coref|metric:conll|test:bootstrap|resamples:10000|seed:12345|ci:0.95"
                               f"|ci-method:percentile|singletons:keep|version:{fastscore.__version__}")
    assert cmp.to_dict()["signature"] == cmp.signature()
    sw = sweep_stats([("a", a)], "muc", ["muc"], 0, options={"singletons": "drop"}, task="coref")
    assert sw.to_dict()["signature"] == ("sweep|task:coref|metric:muc|resamples:0|singletons:drop"
                                         f"|version:{fastscore.__version__}")
    sw = sweep_stats([("a", a)], "muc", ["muc"], 100, seed=4, method="bca", task="coref")
    assert sw.signature().startswith("sweep|task:coref|metric:muc|resamples:100|seed:4|ci:0.95|ci-method:bca|")
    key, resp, resp2 = map(str, corpus)
    assert main(["compare", key, resp, resp2, "--resamples", "300", "-o", "json", "--metric", "lea"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["signature"].startswith("compare|task:coref|metric:lea|test:bootstrap|resamples:300|seed:12345|")
    assert main(["sweep", key, resp, resp2, "-o", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["signature"].startswith("sweep|task:coref|metric:conll|resamples:0|")


def test_bootstrap_over_one_document_warns():
    one = synthetic(1, n=1)
    (warning,) = bootstrap_stats(one, ["muc"], 1000).warnings
    assert warning.startswith("resampling 1 document: every resample is that document")
    cmp = compare_stats(("a", one), [("b", synthetic(2, n=1))], "muc", resamples=1000, task="coref")
    assert len(cmp.warnings) == 1 and "p-values" in cmp.warnings[0]
    assert len(sweep_stats([("a", one)], "muc", ["muc"], 1000, task="coref").warnings) == 1


def test_few_resamples_warn():
    a, b = synthetic(1), synthetic(2)
    (warning,) = compare_stats(("a", a), [("b", b)], "muc", resamples=1, task="coref").warnings  # --resamples 1
    assert warning == ("only 1 resample (fewer than 100): interval ends rest on a handful of resamples and no "
                       "p-value can fall below 1/2 = 0.5000; use 1000 or more")
    assert len(bootstrap_stats(a, ["muc"], MIN_RESAMPLES - 1).warnings) == 1
    assert len(sweep_stats([("a", a)], "muc", ["muc"], 5, task="coref").warnings) == 1


def test_enough_documents_and_resamples_do_not_warn():
    a, b = synthetic(1), synthetic(2)
    assert bootstrap_stats(a, ["muc"], MIN_RESAMPLES).warnings == []
    assert compare_stats(("a", a), [("b", b)], "muc", resamples=MIN_RESAMPLES, task="coref").warnings == []
    assert sweep_stats([("a", a)], "muc", ["muc"], 0, task="coref").warnings == []  # no resampling, nothing to warn about


def test_resamples_beyond_the_memory_budget_are_refused_up_front(corpus, capsys, monkeypatch):
    from fastscore.cli import main

    def never(*args, **kwargs):
        raise AssertionError("resampled before the budget was checked")

    monkeypatch.setattr("fastscore.stats.bootstrap.bootstrap_values", never)
    with pytest.raises(UsageError, match=r"^100000000 resamples need about 7\.2 GB of memory for the resampled F1 "
                                         r"values of 7 metrics \(9 arrays of 100000000 floats with the working "
                                         r"copies; the limit is 2\.0 GB\): use at most 27777777 resamples$"):
        bootstrap_stats(synthetic(1), ["muc", "bcub", "ceafm", "ceafe", "blanc", "lea", "conll"], 100_000_000)
    with pytest.raises(UsageError, match="of 3 systems, the baseline included \\(5 arrays"):
        compare_stats(("a", synthetic(1)), [("b", synthetic(2)), ("c", synthetic(3))], "conll",
                      resamples=60_000_000, task="coref")
    with pytest.raises(UsageError, match="of 1 system at a time"):
        sweep_stats([("a", synthetic(1))], "muc", ["muc"], 10**9, task="coref")
    key, resp = map(str, corpus[:2])
    assert main(["coref", key, resp, "--bootstrap", "100000000"]) == 2
    assert "use at most" in capsys.readouterr().err


def test_index_chunks_stay_under_the_byte_bound():
    for n_docs in (1, 12, 8388, 8389, 1_000_000, 10**8):
        rows = chunk_rows(n_docs)
        assert 1 <= rows <= resample.CHUNK
        assert rows == 1 or rows * n_docs * 8 <= resample.INDEX_BYTES
    first = next(bootstrap_indices(1_000_000, 10**6, 1))
    assert first.shape == (chunk_rows(1_000_000), 1_000_000) and first.nbytes <= resample.INDEX_BYTES


@pytest.mark.parametrize("n_docs", [1, 2, 7, 12, 1001])
def test_chunked_draws_equal_one_draw(monkeypatch, n_docs):
    """numpy's Generator gives the same integers whether drawn in one call or in chunks of rows."""
    n = 1000
    for seed in (0, 12345):
        whole = np.random.default_rng(seed).integers(0, n_docs, size=(n, n_docs))
        coins = np.random.default_rng(seed).integers(0, 2, size=(n, n_docs)).astype(bool)
        for rows in (1, 7, 333):
            monkeypatch.setattr(resample, "CHUNK", rows)
            assert np.array_equal(np.concatenate(list(bootstrap_indices(n_docs, n, seed))), whole)
            assert np.array_equal(np.concatenate(list(swap_masks(n_docs, n, seed))), coins)


@pytest.mark.slow  # ~15 s: many chunk sizes over a corpus
def test_same_numbers_for_a_seed_whatever_the_chunk_size(monkeypatch):
    """F1 values computed chunk by chunk equal those of all resampled sums at once (the former way)."""
    a, b = synthetic(1, n=9), synthetic(2, n=9)
    f1 = [lambda s, m=m: a.f1(m, s) for m in ("muc", "blanc", "conll")]
    sums = bootstrap_sums([a.matrix, b.matrix], 1234, 5)
    whole = [[f(s) for f in f1] for s in sums]
    sa, sb = permutation_sums(a.matrix, b.matrix, 1234, 5)
    swapped = a.f1("conll", sb) - a.f1("conll", sa)
    for rows in (1000, 1, 7, 500):
        monkeypatch.setattr(resample, "CHUNK", rows)
        got = bootstrap_values([a.matrix, b.matrix], [f1, f1], 1234, 5)
        for g, w in zip(got, whole):
            for x, y in zip(g, w):
                assert np.array_equal(x, y)
        assert np.array_equal(permutation_values(a.matrix, b.matrix, f1[2], 1234, 5), swapped)


def test_seeded_numbers_unchanged():
    """Intervals and p-values recorded with the former code (all resampled sums kept) for these seeds."""
    a, b = synthetic(1), synthetic(2)
    assert bootstrap_stats(a, ["muc", "conll"], 2500, 0.95, 12345, "bca").intervals == {
        "muc": (0.6261401131340794, 0.8928937622363067), "conll": (0.6477676521980278, 0.7823075266794315)}
    for test, p in (("bootstrap", 0.8000799680127949), ("permutation", 0.8112754898040784)):
        c = compare_stats(("a", a), [("b", b)], "conll", test, 2500, 7, 0.95, "percentile", task="coref")
        s = c.systems[0]
        assert c.baseline_ci == (0.6454307017606892, 0.7753031826668093)
        assert s.ci == (0.6255974234953264, 0.7711249425683311)
        assert s.delta_ci == (-0.11558166262678266, 0.09002083231013995) and s.p_value == p
    sw = sweep_stats([("a", a), ("b", b)], "lea", ["lea"], 1500, 3, 0.9, "percentile", task="coref")
    assert [(r.name, r.ci) for r in sw.systems] == [("a", (0.6575013268503562, 0.8770478345500675)),
                                                     ("b", (0.6064470439536138, 0.8076831079970779))]
