"""Bootstrap, significance tests and sweeps (issue 3)."""
import json
import os
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import fastscore
from fastscore.errors import InputError, UsageError
from fastscore.formats.conll import read_conll, write_conll
from fastscore.kernels.resample import index_sums, swapped_sums
from fastscore.coref.metrics import SCORED, coref_f1
from fastscore.stats.docstats import DocStats
from fastscore.stats.resample import bootstrap_indices
from fastscore.stats.significance import holm
from tests import reference
from tests.conftest import TESTDATA

ANCHORS = TESTDATA / "anchors"


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    """A 12-document key and two perturbed responses, made by the benchmark generator."""
    sys.path.insert(0, str(TESTDATA.parent.parent / "scripts"))
    from gen_corpus import generate

    out = tmp_path_factory.mktemp("corpus")
    return generate(out, docs=12, tokens=3000, mentions=400, clusters=100, seed=3, responses=2)


@settings(max_examples=60, deadline=None)
@given(hnp.arrays(np.float64, st.tuples(st.integers(1, 6), st.integers(1, 4)),
                  elements=st.floats(0, 100, allow_nan=False)),
       st.integers(1, 8), st.integers(0, 2**32 - 1))
def test_resample_kernels_match_reference(stats, n_res, seed):
    rng = np.random.default_rng(seed)
    index = rng.integers(0, len(stats), size=(n_res, len(stats)))
    np.testing.assert_array_equal(index_sums(index, stats), reference.index_sums(index, stats))
    other = stats[::-1].copy()
    swaps = rng.integers(0, 2, size=(n_res, len(stats))).astype(bool)
    for got, want in zip(swapped_sums(swaps, stats, other), reference.swapped_sums(swaps, stats, other)):
        np.testing.assert_array_equal(got, want)


@settings(max_examples=200, deadline=None)
@given(hnp.arrays(np.float64, st.integers(1, 40), elements=st.sampled_from([0.0, 0.25, 1 / 3, 0.5, 0.7, 1.0, -0.2])
                  | st.floats(-1, 1, allow_nan=False)),
       st.lists(st.floats(0, 1) | st.sampled_from([0.0, 1.0, 0.025, 0.975, 0.05, 0.95, 0.005, 0.995]),
                min_size=1, max_size=4))
def test_quantiles_are_numpys(samples, qs):
    """The intervals' quantiles (without numpy.quantile's import of numpy.ma) are numpy.quantile's, bit for bit."""
    from fastscore.stats.intervals import quantiles

    before = samples.copy()
    assert quantiles(samples, qs) == np.quantile(samples, qs).tolist()
    np.testing.assert_array_equal(samples, before)  # left as it was


@pytest.mark.parametrize("seed", [1, 2, 99])
def test_bootstrap_equals_physically_resampled_corpus(tmp_path, corpus, seed):
    key_path, resp_path = corpus[:2]
    key, resp = read_conll(key_path), read_conll(resp_path)
    with pytest.warns(fastscore.FastscoreWarning, match="only 5 resamples"):  # enough to compare two ways
        result = fastscore.bootstrap(fastscore.score_coref(key, resp), 5, seed=seed)
    index = next(bootstrap_indices(key.n_docs, 5, seed))
    for b in (0, 3):
        docs = index[b].tolist()
        for name, table in (("key", key), ("resp", resp)):
            part = table.select(docs)
            part.doc_names = [f"{n}#{k}" for k, n in enumerate(part.doc_names)]  # duplicates renamed
            write_conll(part, tmp_path / f"{name}{b}.conll")
        again = fastscore.score_coref(tmp_path / f"key{b}.conll", tmp_path / f"resp{b}.conll").scores()
        for m in (*SCORED, "conll"):
            assert result.bootstrap.samples[m][b] == pytest.approx(again["metrics"][m]["f1"], rel=1e-12, abs=1e-12)


def test_identical_systems_p_one_and_zero_width(corpus):
    key, resp = corpus[:2]
    for test in ("bootstrap", "permutation"):
        out = fastscore.compare(key, resp, [resp], "conll", test=test, resamples=500)
        s = out.systems[0]
        assert s.p_value == 1.0 and s.p_adjusted == 1.0
        assert s.delta == 0.0 and s.delta_ci == (0.0, 0.0)


def test_gold_against_noisy_system_is_significant(corpus):
    key, resp = corpus[:2]
    for test in ("bootstrap", "permutation"):
        out = fastscore.compare(key, resp, [key], "muc", test=test, resamples=2000)
        assert out.systems[0].p_value < 0.001 and out.systems[0].delta > 0


# resampling commands run in one process whose kernels are as its environment makes them (numba loaded as the
# command line loads it), once per number of numba's threads given (none: the compiled kernels): the kernels'
# mode, whether numba was imported, and per run the threads used and each command's exit code and output
RESAMPLING_RUNS = ("import contextlib, io, json, os, sys\n"
                   "threads = json.loads(sys.argv[2])\n"
                   "from fastscore.cli import main\nfrom fastscore.kernels import _jit\n"
                   "runs = []\nfor t in threads or [None]:\n"
                   "    if t:\n        import numba\n        numba.set_num_threads(t)\n"
                   "    outs = []\n"
                   "    for cmd in json.loads(sys.argv[1]):\n"
                   "        out = io.StringIO()\n"
                   "        with contextlib.redirect_stdout(out):\n"
                   "            outs.append([main(cmd), out.getvalue()])\n"
                   "    numba = sys.modules.get('numba')\n"
                   "    runs.append([numba and numba.get_num_threads(), outs])\n"
                   "print(json.dumps([_jit.MODE, 'numba' in sys.modules, runs]))\n")


def _resampling_runs(commands: list[list[str]], threads: list[int], **env) -> list:
    clean = {k: v for k, v in os.environ.items() if k not in ("NUMBA_DISABLE_JIT", "FASTSCORE_JIT")}
    proc = subprocess.run([sys.executable, "-c", RESAMPLING_RUNS, json.dumps(commands), json.dumps(threads)],
                          capture_output=True, text=True, env={**clean, **env}, cwd=TESTDATA.parent.parent)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout)


@pytest.mark.slow  # compiles numba's parallel resampling kernels
def test_same_numbers_whatever_the_threads_and_compiled(corpus):
    """Each resample is summed in document-draw order whatever runs it: numba's parallel kernels with one thread
    or two, and the kernels compiled ahead of time (serial, no numba import) give the same output, digit for
    digit, for bootstrap intervals, both tests of compare and a sweep's intervals."""
    from fastscore.first_run import compiled_kernels

    key, resp, resp2 = map(str, corpus)
    commands = [["compare", key, resp, resp2, "--resamples", "3000", "-o", "json"],
                ["compare", key, resp, resp2, "--resamples", "2000", "--test", "permutation", "-o", "json"],
                ["coref", key, resp, "--bootstrap", "2000", "-o", "json"],
                ["sweep", key, resp, resp2, "--bootstrap", "1000", "-o", "json"]]
    mode, numba, runs = _resampling_runs(commands, [1, 2], NUMBA_NUM_THREADS="2", FASTSCORE_JIT="always")  # 2 threads even on one core
    assert mode == "numba" and numba and [threads for threads, _ in runs] == [1, 2]
    outputs = {f"{threads} thread(s)": out for threads, out in runs}
    if compiled_kernels() is not None or os.environ.get("FASTSCORE_TEST_AOT") == "1":  # as tests/test_aot.py
        mode, numba, ((_, outputs["compiled"]),) = _resampling_runs(commands, [])
        assert mode == "aot" and not numba  # the compiled resampling kernels: numba not imported
    first = outputs["1 thread(s)"]
    assert all(code == 0 for code, _ in first) and json.loads(first[0][1])["resamples"] == 3000
    for name, out in outputs.items():
        assert out == first, name


def test_resampling_sums_only_the_metrics_columns_with_the_same_numbers(corpus):
    """Resampling a metric sums only the columns it reads (DocStats.of_metrics): the same F1 values, bit for bit."""
    from fastscore.stats.bootstrap import f1_values
    from fastscore.stats.resample import bootstrap_values

    stats = fastscore.score_coref(*corpus[:2]).doc_stats
    for metrics in (["conll"], ["muc", "lea"], list(SCORED)):
        own = stats.of_metrics(metrics)
        assert own.matrix.flags.c_contiguous and len(own.columns) < len(stats.columns)
        assert set(own.columns) == {c for m in metrics for c in stats.registry[m].columns}
        full = bootstrap_values([stats.matrix], [[f1_values(stats, m) for m in metrics]], 300, 7)
        mine = bootstrap_values([own.matrix], [[f1_values(own, m) for m in metrics]], 300, 7)
        for a, b in zip(full[0], mine[0]):
            np.testing.assert_array_equal(a, b)
    with pytest.raises(UsageError, match="unknown metric 'nope'"):
        stats.of_metrics(["nope"])


@pytest.mark.slow  # ~4 s: many simulated corpora
def test_interval_coverage_near_nominal():
    """Micro-averaged recall of synthetic corpora with a known true value 0.6."""
    rng = np.random.default_rng(5)
    from fastscore.coref.metrics import COLUMNS, METRICS

    col = {c: i for i, c in enumerate(COLUMNS)}
    covered = {"percentile": 0, "bca": 0}
    runs = 200
    for _ in range(runs):
        n = 60
        den = rng.integers(5, 40, size=n)
        num = rng.binomial(den, 0.6)
        m = np.zeros((n, len(COLUMNS)))
        for part in ("recall", "precision"):
            m[:, col[f"muc_{part}_num"]] = num
            m[:, col[f"muc_{part}_den"]] = den
        stats = DocStats([f"d{i}" for i in range(n)], m, COLUMNS, METRICS)
        for method in covered:
            from fastscore.stats.bootstrap import bootstrap_stats

            lo, hi = bootstrap_stats(stats, ["muc"], 400, seed=int(rng.integers(1 << 30)), method=method).intervals["muc"]
            covered[method] += lo <= 0.6 <= hi
    for method, c in covered.items():
        assert 0.90 <= c / runs <= 0.99, (method, c / runs)


def test_holm_adjustment():
    assert holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    assert holm([0.5]) == [0.5]


def test_sweep_ranks_best_first(corpus):
    key, resp, resp2 = corpus
    out = fastscore.sweep(key, [resp, key, resp2], "conll", resamples=200)
    assert out.systems[0].name == str(key) and out.systems[0].score == 1.0
    assert [r.score for r in out.systems] == sorted((r.score for r in out.systems), reverse=True)
    assert set(out.to_dict()["systems"][0]) == {"name", "score", "ci", "metrics"}


def test_cli_bootstrap_ci_in_every_metric(corpus, capsys):
    from fastscore.cli import main

    key, resp = map(str, corpus[:2])
    assert main(["coref", key, resp, "--bootstrap", "200", "-o", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    for name, obj in data["metrics"].items():
        lo, hi = obj["ci"]
        assert lo <= obj["f1"] <= hi, name
    assert "bootstrap:200" in data["signature"]


def test_compare_json_contract(corpus, capsys):
    from fastscore.cli import main

    key, resp, resp2 = map(str, corpus)
    assert main(["compare", key, resp, resp2, "--resamples", "300", "-o", "json", "--metric", "lea"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data) >= {"task", "metric", "test", "resamples", "seed", "baseline", "systems"}
    assert set(data["baseline"]) == {"name", "score", "ci"}
    assert set(data["systems"][0]) == {"name", "score", "ci", "delta", "delta_ci", "p_value", "p_adjusted"}
    assert data["metric"] == "lea" and data["baseline"]["name"] == resp


@pytest.mark.parametrize("fmt", ["text", "markdown", "latex"])
def test_compare_tables(corpus, capsys, fmt):
    from fastscore.cli import main

    key, resp, resp2 = map(str, corpus)
    assert main(["compare", key, resp, resp2, key, "--resamples", "300", "-o", fmt]) == 0
    out = capsys.readouterr().out
    assert "**" in out  # the gold is significantly better
    if fmt == "latex":
        assert "\\begin{tabular}" in out


def test_sweep_folder_glob_and_csv(corpus, capsys):
    from fastscore.cli import main

    key = str(corpus[0])
    folder = str(corpus[0].parent)
    assert main(["sweep", key, folder, "-o", "csv"]) == 0
    out, err = capsys.readouterr()
    assert "the gold itself (found in a folder or a pattern), left out" in err  # the folder holds the key
    rows = out.splitlines()
    assert rows[0].startswith("rank,name,score") and len(rows) == 3 and not any(key in r for r in rows)
    assert main(["sweep", key, os.path.join(folder, "response-*.conll"), "-o", "json"]) == 0
    assert len(json.loads(capsys.readouterr().out)["systems"]) == 2


def test_bad_statistics_input(corpus, tmp_path, capsys):
    from fastscore.cli import main

    key, resp = map(str, corpus[:2])
    assert main(["compare", key, resp, resp, "--resamples", "0"]) == 2
    assert "resamples must be a whole number >= 1" in capsys.readouterr().err
    with pytest.raises(UsageError):
        fastscore.compare(key, resp, [resp], "nope")
    part = read_conll(resp).select([0, 1])
    write_conll(part, tmp_path / "part.conll")
    with pytest.raises(InputError, match="gold document\\(s\\) missing"):
        fastscore.compare(key, resp, [tmp_path / "part.conll"], resamples=10)
    assert main(["sweep", key, str(tmp_path / "part.conll")]) == 1
    assert "systems must be scored on the gold's documents" in capsys.readouterr().err
    assert main(["sweep", key, str(tmp_path / "nothing-*.conll")]) == 1  # a pattern that matches nothing: a missing input


def _f1_by_hand(sums: dict, m: str) -> float:
    """F1 from summed numerators and denominators, written out (the oracle of the registry's functions)."""
    def prf(prefix):
        r = sums[f"{prefix}_recall_num"] / sums[f"{prefix}_recall_den"] if sums[f"{prefix}_recall_den"] else 0.0
        p = sums[f"{prefix}_precision_num"] / sums[f"{prefix}_precision_den"] if sums[f"{prefix}_precision_den"] else 0
        return 2 * p * r / (p + r) if p + r else 0.0

    if m == "conll":
        return (prf("muc") + prf("bcub") + prf("ceafe")) / 3
    if m == "blanc":  # the key has both kinds of links in these corpora
        return (prf("blanc_coref") + prf("blanc_noncoref")) / 2
    return prf(m)


def test_f1_of_matches_f1_by_hand(corpus):
    key, resp = corpus[:2]
    r = fastscore.score_coref(key, resp)
    rows = [r.doc_stats.row(i) for i in range(len(r.doc_stats))]
    sums = {c: sum(row[c] for row in rows) for c in r.doc_stats.columns}
    for m in (*SCORED, "conll"):
        assert coref_f1(m, r.doc_stats.total())[0] == pytest.approx(_f1_by_hand(sums, m), abs=1e-12), m
        assert 0 < r.f1(m) < 1


def test_plot_without_matplotlib_is_a_clear_usage_error(corpus, tmp_path, capsys):
    import importlib.util

    from fastscore.cli import main

    key, resp, resp2 = map(str, corpus)
    code = main(["compare", key, resp, resp2, "--resamples", "50", "--plot", str(tmp_path / "d.png")])
    if importlib.util.find_spec("matplotlib") is None:
        assert code == 2 and "pip install 'fastscore-ie[plot]'" in capsys.readouterr().err
    else:
        assert code == 0 and (tmp_path / "d.png").stat().st_size > 0


@settings(max_examples=20, deadline=None)
@given(samples=hnp.arrays(np.float64, st.integers(5, 60), elements=st.floats(0, 1)),
       jackknife=hnp.arrays(np.float64, st.integers(2, 20), elements=st.floats(0, 1)),
       estimate=st.floats(0, 1), level=st.sampled_from([0.5, 0.9, 0.95]))
def test_bca_ends_are_those_of_scipy_stats_norm(samples, jackknife, estimate, level):
    """The normal cdf and ppf come from scipy.special (scipy.stats takes seconds to import): the same numbers as
    the plain definition with scipy.stats.norm."""
    from scipy.stats import norm

    from fastscore.stats.intervals import bca_interval, quantiles

    alpha, b = (1 - level) / 2, len(samples)
    z0 = norm.ppf(np.clip((np.sum(samples < estimate) + 0.5 * np.sum(samples == estimate)) / b, 1 / (b + 1),
                          b / (b + 1)))
    d = jackknife.mean() - jackknife
    a = np.sum(d ** 3) / (6 * np.sum(d * d) ** 1.5) if np.sum(d * d) > 0 else 0.0
    z = norm.ppf([alpha, 1 - alpha])
    ends = norm.cdf(z0 + (z0 + z) / (1 - a * (z0 + z)))
    assert bca_interval(samples, estimate, jackknife, level) == tuple(quantiles(samples, ends))


def test_bca_intervals_do_not_import_scipy_stats(tmp_path):
    code = ("import sys, fastscore; r = fastscore.score_coref(fastscore.examples.KEY, fastscore.examples.RESPONSE); "
            "fastscore.bootstrap(r, 50, method='bca'); assert 'scipy.stats' not in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=tmp_path)
