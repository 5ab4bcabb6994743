"""Triples as corpora of shards (issue 13): a folder or glob pattern of .trp files, each file a document, scored
through fastscore.shards prints what one read of the folder prints, to the byte, whatever --jobs."""
from __future__ import annotations

import json
import re
import pickle
import shutil
from pathlib import Path

import pytest

import fastscore
from fastscore import planner, shards, tasks
from fastscore.api import score_corpus
from fastscore.cli import main
from fastscore.errors import InputError
from fastscore.formats.triples import read_triple_shard, read_triples
from fastscore.triples import report as triples_report
from fastscore.triples.score import score_triples

ANCHORS = Path(__file__).parent / "data" / "triples_anchors"
pytestmark = pytest.mark.filterwarnings("ignore::fastscore.errors.FastscoreWarning")  # results' warnings: checked
TRIPLES = tasks.get_task("triples")
FORMATS = [name for name, _ in TRIPLES.outputs]


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    """The anchor cases' file pairs as one folder corpus: gold/case-NNN.tag.trp with system/case-NNN.kaf.trp
    (pairing by --ignore-file-suffix 8), and the same files named alike in same/gold, same/system.  A gold and a
    system file carry a value the reader warns about (warnings in one read's order)."""
    out = tmp_path_factory.mktemp("triples-corpus")
    for folder in ("gold", "system", "same/gold", "same/system"):
        (out / folder).mkdir(parents=True)
    for case in sorted(ANCHORS.glob("case-*")):
        for side, suffix in (("gold", ".tag.trp"), ("system", ".kaf.trp")):
            shutil.copy(case / f"{side}.trp", out / side / f"{case.name}{suffix}")
            shutil.copy(case / f"{side}.trp", out / "same" / side / f"{case.name}.trp")
    for side, name in (("gold", "case-004.tag.trp"), ("system", "case-002.kaf.trp"), ("system", "case-009.kaf.trp")):
        path = out / side / name
        path.write_text(path.read_text().replace("<triple ", '<triple profile_confidence="high" ', 1))
    return out


@pytest.fixture
def fixed_date(monkeypatch):
    """The module's folder report names the date: one date for both runs."""
    monkeypatch.setattr(triples_report.time, "strftime", lambda fmt: "Mon 2024.01.01 at 12:00:00 PM UTC")


def _one_read(gold, system, **options):
    """The path without shards: the task scores the two folders it reads whole."""
    return TRIPLES.score(str(gold), str(system), **options)


def _cli(capsys, *args) -> str:
    assert main(["triples", *map(str, args)]) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("jobs", [1, pytest.param(2, marks=pytest.mark.slow)])  # 2: worker processes, ~10 s
def test_folder_shards_print_the_folder_reports(corpus, capsys, fixed_date, jobs):
    gold, system = corpus / "gold", corpus / "system"
    whole = _one_read(gold, system, ignore_file_suffix=8)
    assert len(whole.documents) == 30 and len(whole.warnings) == 4  # 3 from reading, gold duplicates
    for fmt in FORMATS:
        for per_doc in ([], ["--per-doc"]):
            printed = _cli(capsys, gold, system, "--ignore-file-suffix", "8", "-o", fmt, "-j", jobs, "-q", *per_doc)
            assert printed == TRIPLES.report(whole, fmt, bool(per_doc)), (fmt, per_doc)
    sharded = score_corpus(gold, system, task="triples", jobs=jobs, ignore_file_suffix=8)
    assert sharded.warnings == whole.warnings  # the gold file's, then the system files' in their order
    assert sharded.doc_stats.doc_names == whole.doc_stats.doc_names
    assert sharded.doc_stats.columns == whole.doc_stats.columns
    assert (sharded.doc_stats.matrix == whole.doc_stats.matrix).all()


def test_the_columns_are_laid_out_as_one_read_not_shard_by_shard(corpus):
    """The corpus is one where the shards' columns, joined in order, are not one read's (a relation of a later
    gold file comes before a relation only system files of earlier files have): merge_results must lay them out."""
    from fastscore.triples.metrics import merged_layout

    gold, system = sorted((corpus / "gold").iterdir()), sorted((corpus / "system").iterdir())
    units = [score_triples(read_triple_shard(g), read_triple_shard(s), ignore_file_suffix=8).doc_stats
             for g, s in zip(gold, system)]
    one = _one_read(corpus / "gold", corpus / "system", ignore_file_suffix=8).doc_stats.columns
    assert list(dict.fromkeys(c for u in units for c in u.columns)) != list(one)
    assert merged_layout(units) == one
    assert merged_layout(units[::-1]) != one  # the order of the documents decides it


def test_a_glob_pattern_scores_as_the_folder(corpus, capsys, fixed_date):
    gold, system = corpus / "same" / "gold", corpus / "same" / "system"
    pattern = str(system / "case-*.trp")
    for fmt in ("text", "module", "json"):
        whole = TRIPLES.report(_one_read(gold, system), fmt, True)
        printed = _cli(capsys, gold, pattern, "-o", fmt, "--per-doc", "-j", "1")
        assert printed.replace(pattern, str(system)) == whole, fmt


def test_shards_named_alike_are_scored_pair_by_pair(corpus, monkeypatch):
    """x.tag.trp and x.kaf.trp pair by --ignore-file-suffix: scored in one step, no read crossing processes."""
    monkeypatch.setattr(shards, "score_unit", lambda *a: pytest.fail("two-step path"))
    sharded = score_corpus(corpus / "gold", corpus / "system", task="triples", jobs=1, ignore_file_suffix=8)
    assert sharded.documents[0] == "case-000"  # the names the files pair by, as a folder's


def test_unpaired_files_give_the_folder_error(corpus, tmp_path, capsys):
    system = tmp_path / "system"
    shutil.copytree(corpus / "system", system)
    (system / "case-003.kaf.trp").unlink()
    (system / "case-005.kaf.trp").unlink()
    shutil.copy(corpus / "system" / "case-001.kaf.trp", system / "extra.kaf.trp")
    with pytest.raises(InputError) as whole:
        _one_read(corpus / "gold", system, ignore_file_suffix=8)
    assert "case-003.tag.trp has no system file (2 unpaired)" in str(whole.value)
    assert "extra.kaf.trp has no gold file" in str(whole.value)
    for jobs in ("1", "2"):
        assert main(["triples", str(corpus / "gold"), str(system), "--ignore-file-suffix", "8", "-j", jobs]) == 1
        assert capsys.readouterr().err == f"fastscore: error: {whole.value}\n"
    assert main(["triples", str(corpus / "gold"), str(corpus / "system"), "-j", "1"]) == 1  # no suffix: no pair
    assert "(names compared whole; --ignore-file-suffix N cuts N characters off each name)" in capsys.readouterr().err


def test_a_bad_shard_fails_the_run_or_is_skipped(corpus, tmp_path, capsys):
    system = tmp_path / "system"
    shutil.copytree(corpus / "system", system)
    bad = system / "case-007.kaf.trp"
    # (malformed XML is read as the module reads it, the triples before the error: a triple without relation fails)
    bad.write_text(re.sub(r' relation="[^"]*"', "", bad.read_text(), count=1))
    with pytest.raises(InputError) as whole:
        read_triples(system)
    args = ["triples", str(corpus / "gold"), str(system), "--ignore-file-suffix", "8", "-o", "json", "-j", "2"]
    assert main(args) == 1
    assert capsys.readouterr().err == f"fastscore: error: {whole.value}\n" and "case-007.kaf.trp:" in str(whole.value)
    assert main([*args, "--skip-bad-shards"]) == 0
    captured = capsys.readouterr()
    out = json.loads(captured.out)
    assert len(out["skipped_shards"]) == 1 and "case-007.kaf.trp" in out["skipped_shards"][0]
    assert "shard skipped" in captured.err and "case-007.tag.trp: no system file to pair with" in captured.err
    assert out["statistics"]["documents"] == len(list((corpus / "gold").iterdir()))
    full = _one_read(corpus / "gold", corpus / "system", ignore_file_suffix=8).to_dict()
    assert out["metrics"]["triples"]["gold"] == full["metrics"]["triples"]["gold"]  # case-007 against no triples
    assert out["metrics"]["triples"]["correct"] < full["metrics"]["triples"]["correct"]
    # a bad gold shard: its system file is in no pair, and listed
    gold = tmp_path / "gold"
    shutil.copytree(corpus / "gold", gold)
    (gold / "case-007.tag.trp").write_text(bad.read_text())
    assert main(["triples", str(gold), str(corpus / "system"), "--ignore-file-suffix", "8", "-j", "1",
                 "--skip-bad-shards", "-o", "json"]) == 0
    assert "1 response document(s) in no key shard, not scored" in capsys.readouterr().err


def test_a_document_in_two_shards_is_an_error(corpus, tmp_path, capsys):
    for sub in ("a", "b"):
        (tmp_path / sub).mkdir()
        shutil.copy(corpus / "same" / "gold" / "case-001.trp", tmp_path / sub / "case-001.trp")
    assert main(["triples", str(tmp_path / "*" / "case-001.trp"), str(corpus / "same" / "system"), "-j", "1"]) == 1
    assert 'document "case-001.trp" is in two shards' in capsys.readouterr().err


@pytest.fixture(scope="module")
def systems(corpus, tmp_path_factory) -> list[Path]:
    """Two more systems of the same file names: each file a case's system or gold triples."""
    out = tmp_path_factory.mktemp("triples-systems")
    paths = []
    for k in (2, 3):
        folder = out / f"sys{k}"
        folder.mkdir()
        for i, case in enumerate(sorted(ANCHORS.glob("case-*"))):
            shutil.copy(case / ("gold.trp" if i % k == 0 else "system.trp"), folder / f"{case.name}.trp")
        paths.append(folder)
    return paths


def test_compare_sweep_and_bootstrap_over_shards(corpus, systems, capsys):
    """compare and sweep with --task triples: shards (paths) against the folders read whole (read inputs)."""
    gold = corpus / "same" / "gold"
    one = fastscore.compare(read_triples(gold), read_triples(systems[0]), [read_triples(systems[1])], task="triples",
                            resamples=300).to_dict()
    sharded = fastscore.compare(str(gold), str(systems[0]), [str(systems[1])], task="triples", resamples=300,
                                jobs=2).to_dict()
    assert sharded == one
    one = fastscore.sweep(read_triples(gold), [read_triples(s) for s in systems], task="triples").to_dict()
    assert fastscore.sweep(str(gold), [str(s) for s in systems], task="triples", jobs=1).to_dict() == one
    whole = fastscore.bootstrap(_one_read(gold, systems[0]), 200)
    assert _cli(capsys, gold, systems[0], "--bootstrap", "200", "-j", "1") == TRIPLES.report(whole, "text")


def test_results_cross_processes_light(corpus, fixed_date):
    """A shard's result pickles without its triples; a merged result prepares its run again from the files for
    the module's report (the folder report: confusion table and error log over every document)."""
    gold, system = corpus / "gold", corpus / "system"
    unit = score_triples(read_triple_shard(gold / "case-001.tag.trp"), read_triple_shard(system / "case-001.kaf.trp"),
                        ignore_file_suffix=8)
    data = pickle.dumps(unit)
    assert b"TripleDoc" not in data and b"elementFirst" not in data and len(data) < 20_000
    merged = score_corpus(gold, system, task="triples", jobs=1, ignore_file_suffix=8)
    assert merged._prepared is None
    again = pickle.loads(pickle.dumps(merged))
    whole = _one_read(gold, system, ignore_file_suffix=8)
    assert TRIPLES.report(again, "module", False) == TRIPLES.report(whole, "module", False)
    assert "Wrong Triples:" in TRIPLES.report(whole, "module", False)


def test_file_pairs_and_naf_folders_stay_one_input(corpus, tmp_path):
    naf = tmp_path / "naf"
    naf.mkdir()
    shutil.copy(ANCHORS / "convert" / "doc-000.naf", naf / "doc-000.naf")
    files = [str(corpus / "same" / "gold" / "case-001.trp"), str(corpus / "same" / "system" / "case-001.trp")]
    assert not planner.uses_shards(*files, TRIPLES, planner.DEFAULT_BATCH_BYTES)
    assert not planner.uses_shards(str(naf), str(naf), TRIPLES, planner.DEFAULT_BATCH_BYTES)
    assert not planner.uses_shards(str(corpus / "gold"), str(naf), TRIPLES, planner.DEFAULT_BATCH_BYTES)
    assert planner.uses_shards(str(corpus / "gold"), str(corpus / "system"), TRIPLES, planner.DEFAULT_BATCH_BYTES)
    assert score_triples(*files).to_dict()["statistics"]["dedup"] == "overlap"


@pytest.mark.slow  # a LocalCluster's start (tests/test_shards.py keeps one in the default run)
def test_dask_local_cluster(corpus):
    pytest.importorskip("dask.distributed")
    whole = _one_read(corpus / "gold", corpus / "system", ignore_file_suffix=8)
    sharded = score_corpus(corpus / "gold", corpus / "system", task="triples", executor="dask", jobs=2,
                                     ignore_file_suffix=8)
    assert sharded.to_dict(per_doc=True) == whole.to_dict(per_doc=True)
