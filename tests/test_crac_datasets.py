"""Scoring by file (the CRAC ranking: the CoNLL F1 macro-averaged over datasets, one gold/system file pair per
treebank): every dataset's numbers against corefud-scorer 1.2 run on that file pair with the preset's options
(tests/data/crac_datasets, made by scripts/make_crac_datasets.py, which regenerates the files), the macro
average, compare and sweep by ``--metric conll-macro``, and documents resampled within each dataset."""
import contextlib
import io
import json
import math
import sys
from pathlib import Path

import numpy as np
import pytest

import fastscore
from fastscore.cli import main
from fastscore.datasets import side_by_side
from fastscore.stats.docstats import DocStats
from fastscore.stats.resample import bootstrap_indices
from tests.conftest import SHARED

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))
import make_crac_datasets as crac  # noqa: E402

EXPECTED = crac.load()
PRF = ("precision_num", "precision_den", "recall_num", "recall_den")  # the scorer's order of counts
COUNTED = ("muc", "bcub", "ceafe", "ceafm", "lea", "mor", "zero")


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return crac.write_datasets(tmp_path_factory.mktemp("crac"), SHARED, expected=EXPECTED)


def _run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def _by_file(folder: Path, system: str, preset: str) -> dict:
    code, out, err = _run("coref", str(folder / "gold"), str(folder / system), "--preset", preset, "--by-file",
                          "-j", "1", "-q", "-o", "json")
    assert code == 0, err
    return json.loads(out)


def _same(got: float, want: float) -> bool:
    """Counts equal; sums of fractions to the last bits (the scorer adds in its own order)."""
    return got == want or (want != int(want) and math.isclose(got, want, rel_tol=1e-12))


def differences(folder: Path, system: str, preset: str) -> list[str]:
    """Where fastscore's numbers of a system by file differ from the scorer's on each file pair, or the macro
    average from the mean of the scorer's CoNLL F1s."""
    got = _by_file(folder, system, preset)
    config = crac.PRESETS[preset]
    want = {name: cases[config] for name, cases in EXPECTED["results"][system].items()}
    out = []
    assert list(got["datasets"]) == [spec["name"] for spec in sorted(crac.DATASETS, key=lambda s: s["name"])]
    for name, w in want.items():
        metrics = got["datasets"][name]["metrics"]
        for m in COUNTED:
            counts = [metrics[m][c] for c in PRF]
            if not all(_same(g, x) for g, x in zip(counts, w["counts"][m])):
                out.append(f"{name} {m}: {counts} != {w['counts'][m]}")
        if not math.isclose(metrics["conll"]["f1"], w["conll_f1"], rel_tol=0, abs_tol=1e-9):
            out.append(f"{name} conll: {metrics['conll']['f1']} != {w['conll_f1']}")
    macro = sum(w["conll_f1"] for w in want.values()) / len(want)
    if not math.isclose(got["macro"]["conll"]["f1"], macro, rel_tol=0, abs_tol=1e-9):
        out.append(f"macro conll: {got['macro']['conll']['f1']} != {macro}")
    return out


def test_each_dataset_scores_as_the_corefud_scorer_on_its_file_pair_and_the_macro_is_their_mean(folder):
    assert differences(folder, "sys_b", "crac2024") == []


def test_the_text_report_has_a_row_per_dataset_and_the_macro_average(folder):
    code, out, err = _run("coref", str(folder / "gold"), str(folder / "sys_a"), "--preset", "crac2023", "--by-file",
                          "-j", "1", "-q")
    assert code == 0, err
    want = {n: c["head-drop-linear"]["conll_f1"] for n, c in EXPECTED["results"]["sys_a"].items()}
    rows = {line.split()[0]: line.split() for line in out.splitlines() if line.split() and line.split()[0] in want}
    assert {n: float(r[-1]) for n, r in rows.items()} == {n: round(100 * f, 2) for n, f in want.items()}
    macro = next(line for line in out.splitlines() if line.startswith("macro average"))
    assert float(macro.split()[-1]) == round(100 * sum(want.values()) / len(want), 2)
    assert "by-file:6" in out and "preset:crac2023" in out


def test_sweep_and_compare_rank_by_the_macro_average(folder):
    systems = [str(folder / s) for s in ("sys_c", "sys_a", "sys_b")]
    code, out, err = _run("sweep", str(folder / "gold"), *systems, "--preset", "crac2024", "--metric", "conll-macro",
                          "-j", "1", "-q", "-o", "json")
    assert code == 0, err
    rows = json.loads(out)["systems"]
    macro = {s: sum(c["head-drop-dependent"]["conll_f1"] for c in EXPECTED["results"][s].values()) / 6
             for s in crac.SYSTEMS}
    assert [Path(r["name"]).name for r in rows] == sorted(macro, key=lambda s: -macro[s])
    for r in rows:
        assert math.isclose(r["score"], macro[Path(r["name"]).name], abs_tol=1e-9)
        assert math.isclose(r["metrics"]["conll@xx_plain"],
                            EXPECTED["results"][Path(r["name"]).name]["xx_plain"]["head-drop-dependent"]["conll_f1"],
                            abs_tol=1e-9)
    code, out, err = _run("sweep", str(folder / "gold"), *systems, "--preset", "crac2024", "--metric",
                          "conll@en_ontogum_b", "-j", "1", "-q", "-o", "json")
    assert code == 0, err
    one = {s: EXPECTED["results"][s]["en_ontogum_b"]["head-drop-dependent"]["conll_f1"] for s in crac.SYSTEMS}
    assert [(Path(r["name"]).name, round(r["score"], 9)) for r in json.loads(out)["systems"]] == sorted(
        ((s, round(f, 9)) for s, f in one.items()), key=lambda x: -x[1])
    code, _, err = _run("sweep", str(folder / "gold"), *systems, "--metric", "conll@en_gum", "-j", "1", "-q")
    assert code == 2 and "no dataset 'en_gum'" in err and "its datasets: en_ontogum_a, en_ontogum_b, xx_" in err
    code, out, err = _run("compare", str(folder / "gold"), str(folder / "sys_c"), str(folder / "sys_a"),
                          "--preset", "crac2024", "--metric", "conll-macro", "--resamples", "200", "-j", "1", "-q")
    assert code == 0, err
    assert "resamples of documents within each dataset" in out
    result = fastscore.compare(folder / "gold", folder / "sys_c", [folder / "sys_a"], "conll-macro",
                               preset="crac2024", resamples=200, jobs=1)
    assert math.isclose(result.systems[0].delta, macro["sys_a"] - macro["sys_c"], abs_tol=1e-9)


def test_resamples_draw_documents_within_each_dataset():
    strata = np.array([0, 0, 0, 1, 2, 2, 2, 2, 1, 0])
    for index in bootstrap_indices(len(strata), 300, 7, strata):
        assert (strata[index] == strata[None, :]).all()  # every place keeps its dataset
    one = np.concatenate(list(bootstrap_indices(len(strata), 2500, 3, strata)))
    assert {int(i) for i in np.unique(one[:, 0])} == {0, 1, 2, 9}  # all of its dataset's documents, no other
    # the chunk size does not change the draws
    from fastscore.stats import resample

    small = resample.chunk_rows
    try:
        resample.chunk_rows = lambda n: 7
        again = np.concatenate(list(bootstrap_indices(len(strata), 2500, 3, strata)))
    finally:
        resample.chunk_rows = small
    assert (again == one).all()


def test_side_by_side_statistics_give_each_datasets_totals_and_survive_a_change_of_order(folder):
    a = fastscore.score_coref(folder / "gold" / "xx_plain.conllu", folder / "sys_a" / "xx_plain.conllu",
                              preset="crac2024").doc_stats
    b = fastscore.score_coref(folder / "gold" / "xx_zeros.conllu", folder / "sys_a" / "xx_zeros.conllu",
                              preset="crac2024").doc_stats
    both = side_by_side([("p", a), ("z", b)])
    total = both.total()
    assert both.f1("conll@p", total)[0] == a.f1("conll", a.total())[0]
    assert both.f1("conll-macro", total)[0] == (a.f1("conll", a.total())[0] + b.f1("conll", b.total())[0]) / 2
    assert both.doc_names[0] == "p/" + a.doc_names[0] and list(both.strata) == [0] * len(a) + [1] * len(b)
    reordered = both.in_order(list(reversed(both.doc_names)))
    assert list(reordered.strata) == list(reversed(both.strata))
    assert isinstance(reordered.of_metrics(["conll-macro"]), DocStats)
    assert reordered.of_metrics(["conll-macro"]).strata is not None


def test_by_file_refuses_what_it_cannot_score(folder, tmp_path):
    code, _, err = _run("coref", str(folder / "gold" / "xx_plain.conllu"), str(folder / "sys_a" / "xx_plain.conllu"),
                        "--by-file")
    assert code == 2 and "--by-file pairs the files of two folders" in err
    code, _, err = _run("coref", str(folder / "gold"), str(folder / "sys_a"), "--by-file", "-o", "corefud", "-q")
    assert code == 2 and "--by-file prints text, json, csv, markdown" in err
    for option in (["--skip-bad-shards"], ["--doc", "d1"]):
        code, _, err = _run("coref", str(folder / "gold"), str(folder / "sys_a"), "--by-file", "-q", *option)
        assert code == 2 and f"{option[0]}: not with --by-file" in err
    partial = tmp_path / "partial"
    partial.mkdir()
    (partial / "xx_plain.conllu").write_bytes((folder / "sys_a" / "xx_plain.conllu").read_bytes())
    code, _, err = _run("coref", str(folder / "gold"), str(partial), "--by-file", "-q", "-j", "1")
    assert code == 1 and "no file of 5 gold dataset(s)" in err and err.count("fastscore: error:") == 1
    code, _, err = _run("sweep", str(folder / "gold"), str(partial), "--metric", "conll-macro", "-q", "-j", "1")
    assert code == 1 and "no file of 5 gold dataset(s)" in err


@pytest.mark.slow
@pytest.mark.parametrize("preset", list(crac.PRESETS))
@pytest.mark.parametrize("system", list(crac.SYSTEMS))
def test_every_system_and_preset_scores_as_the_corefud_scorer(folder, system, preset):
    assert differences(folder, system, preset) == []


def test_a_bootstrap_gives_each_dataset_and_the_macro_average_an_interval(folder):
    code, out, err = _run("coref", str(folder / "gold"), str(folder / "sys_a"), "--preset", "crac2024", "--by-file",
                          "--bootstrap", "200", "-j", "1", "-q", "-o", "json", "--per-doc")
    assert code == 0, err
    got = json.loads(out)
    low, high = got["macro"]["conll"]["ci"]
    assert low <= got["macro"]["conll"]["f1"] <= high
    for name, dataset in got["datasets"].items():
        low, high = dataset["metrics"]["conll"]["ci"]
        assert low <= dataset["metrics"]["conll"]["f1"] <= high
    assert "xx_plain/d1" in got["per_doc"] and "bootstrap:200" in got["signature"]


def test_by_file_serves_every_task_with_corpora(tmp_path):
    """The macro average is generic: event nuggets by file (the bundled example as two datasets)."""
    from fastscore.examples import example

    ex = example("nugget")
    for side, source in (("g", ex.key), ("s", ex.response)):
        (tmp_path / side).mkdir()
        for name in ("a", "b"):
            (tmp_path / side / f"{name}.tbf").write_bytes(source.read_bytes())
    result = fastscore.api.score_by_file(tmp_path / "g", tmp_path / "s", task="nugget", jobs=1, **ex.options)
    one = fastscore.score(ex.key, ex.response, task="nugget", **ex.options)
    metric = one.metrics[0]
    assert result.macro()[metric] == result.dataset_scores("a")[metric] == one.doc_stats.f1(
        metric, one.doc_stats.total())[0]


def test_datasets_side_by_side_are_summed_one_dataset_at_a_time_with_the_same_bits():
    """Resampled sums of datasets side by side add each dataset's draws over its own columns only: the same
    values, bit for bit, as summing every column (the other datasets add zeros); the plain path otherwise."""
    from fastscore.kernels.resample import index_sums
    from fastscore.stats import resample

    rng = np.random.default_rng(5)
    strata = np.array([0, 1, 0, 2, 1, 1, 0, 2])
    matrix = np.zeros((8, 7))
    own = {0: [0, 1], 1: [2, 3, 4], 2: [5, 6]}
    for row, s in enumerate(strata):
        matrix[row, own[int(s)]] = rng.random(len(own[int(s)])) * 10
    blocks = resample._blocks(matrix, strata)
    assert blocks is not None
    for index in bootstrap_indices(8, 50, 1, strata):
        assert (resample._block_sums(index, blocks, 7) == index_sums(index, matrix)).all()
    matrix[0, 2] = 1.0  # a column shared by two strata: summed whole
    assert resample._blocks(matrix, strata) is None


def test_crac2025_has_the_settings_of_crac2024(folder):
    key, response = folder / "gold" / "xx_zeros.conllu", folder / "sys_c" / "xx_zeros.conllu"
    r24, r25 = (fastscore.score_coref(key, response, preset=p) for p in ("crac2024", "crac2025"))
    assert r25.scores() == r24.scores() and "preset:crac2025" in r25.signature()
    assert "match:head|zero-match:dependent|singletons:drop" in r25.signature()
    want = EXPECTED["results"]["sys_c"]["xx_zeros"]["head-drop-dependent"]["conll_f1"]
    assert math.isclose(r25.f1("conll"), want, abs_tol=1e-9)
