"""Corpora as shards, large files in batches, --jobs and Dask (issue 13): the same numbers as one file."""
from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import warnings
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import fastscore
from fastscore.api import score_corpus
from fastscore.errors import InputError
from fastscore.planner import parse_size, plan_units
from fastscore.shards import Settings
from tests.conftest import fastscore_in_process

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
FASTSCORE = [sys.executable, "-m", "fastscore"]


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> dict[str, Path]:
    """A generated key and response (60 documents) as one file each, as 4 key shards with 3 response shards of
    other boundaries, as aligned Parquet shards."""
    from gen_corpus import generate

    out = tmp_path_factory.mktemp("corpus")
    key, response = generate(out, docs=60, tokens=30_000, mentions=3_500, clusters=900, seed=7)
    paths = {"key": key, "response": response}
    for side, path, n in (("key", key, 4), ("response", response, 3)):
        docs = _documents(path)
        folder = out / f"{side}-shards"
        folder.mkdir()
        per = -(-len(docs) // n)
        for i in range(n):
            (folder / f"part-{i:02d}.conll").write_text("".join(docs[i * per:(i + 1) * per]))
        paths[f"{side}-shards"] = folder
        pq = out / f"{side}-parquet"
        pq.mkdir()
        for i in range(3):  # aligned: the same 3 splits on both sides
            third = -(-len(docs) // 3)
            src = out / f"{side}-{i}.conll"
            src.write_text("".join(docs[i * third:(i + 1) * third]))
            _in_process([*FASTSCORE, "convert", str(src), str(pq / f"part-{i}.parquet"), "--to", "parquet"],
                           check=True, capture_output=True)
        paths[f"{side}-parquet"] = pq
    return paths


def _in_process(argv: list, *, capture_output=True, text=True, check=False, timeout=None):
    """``subprocess.run([*FASTSCORE, ...])`` in this process (tests/conftest.fastscore_in_process)."""
    assert argv[:len(FASTSCORE)] == FASTSCORE
    run = fastscore_in_process(*argv[len(FASTSCORE):])
    if check and run.returncode:
        raise subprocess.CalledProcessError(run.returncode, argv, run.stdout, run.stderr)
    return run


def _documents(path: Path) -> list[str]:
    return [d for d in re.split(r"(?m)^(?=#begin document)", path.read_text()) if d.strip()]


def _numbers(result) -> dict:
    out = result.to_dict(per_doc=True)
    out.pop("signature")
    return out


@pytest.fixture(scope="module")
def one_file(corpus) -> dict:
    return _numbers(fastscore.score_coref(corpus["key"], corpus["response"]))


@pytest.mark.parametrize("jobs", [1, 2])
def test_shards_score_as_one_file(corpus, one_file, jobs):
    result = score_corpus(corpus["key-shards"], corpus["response-shards"], jobs=jobs)
    assert _numbers(result) == one_file
    assert result.doc_stats.doc_names == fastscore.read_conll(corpus["key"]).doc_names  # the key's order


def test_shards_of_the_same_names_are_scored_in_pairs(corpus, one_file, monkeypatch):
    """Key and response shards named alike and holding the same documents: one step, no read crossing
    processes; shards named alike but holding other documents: the two-step path, the same numbers."""
    from fastscore import shards

    calls = []
    monkeypatch.setattr(shards, "score_unit", lambda *a: calls.append(a) or pytest.fail("two-step path"))
    assert _numbers(score_corpus(corpus["key-parquet"], corpus["response-parquet"], jobs=1)) == one_file
    monkeypatch.undo()
    renamed = corpus["key-shards"].parent / "response-as-key-names"
    renamed.mkdir(exist_ok=True)
    docs = _documents(corpus["response"])
    cuts = [0, 10, 25, 40, len(docs)]  # the key's shards hold 15 documents each
    for i in range(4):
        (renamed / f"part-{i:02d}.conll").write_text("".join(docs[cuts[i]:cuts[i + 1]]))
    assert _numbers(score_corpus(corpus["key-shards"], renamed, jobs=1)) == one_file


@pytest.mark.parametrize("side", ["key-parquet", pytest.param("key-shards", marks=pytest.mark.slow)])  # paired shards
# (one step); other cuts (units, in the slow run: test_shards_score_as_one_file keeps them in the default run)
def test_results_keep_their_inputs_only_when_asked(corpus, one_file, side):
    """Workers send back statistics only when no report that shows the inputs is asked: the same numbers, and
    no tables crossing the pool (most of a coreference result's bytes)."""
    response = "response-parquet" if side == "key-parquet" else "response-shards"
    lean = score_corpus(corpus[side], corpus[response], settings=Settings(jobs=2, keep_inputs=False))
    kept = score_corpus(corpus[side], corpus[response], settings=Settings(jobs=2))
    assert _numbers(lean) == _numbers(kept) == one_file
    assert lean.tables is None and kept.tables is not None


def test_parquet_shards_and_globs(corpus, one_file):
    assert _numbers(score_corpus(corpus["key-parquet"], corpus["response-parquet"], jobs=2)) == one_file
    pattern = str(corpus["key-shards"] / "part-*.conll")
    assert _numbers(score_corpus(pattern, corpus["response"], jobs=1)) == one_file


@pytest.mark.parametrize("jobs", [1, 2])
def test_large_files_in_batches(corpus, one_file, jobs):
    size = corpus["key"].stat().st_size
    result = score_corpus(corpus["key"], corpus["response"], jobs=jobs, batch_size=size // 7)
    assert _numbers(result) == one_file


def test_batches_cut_before_documents_and_keep_line_numbers(corpus, tmp_path):
    from fastscore.formats.conll import conll_batches

    key = corpus["key"]
    data = key.read_bytes()
    parts = conll_batches(str(key), len(data) // 5)
    assert len(parts) >= 5 and parts[0].start == 0 and parts[-1].end == len(data)
    assert all(a.end == b.start for a, b in zip(parts, parts[1:]))
    for p in parts:
        assert data[p.start:p.end].startswith(b"#begin document")
        assert p.line == data[:p.start].count(b"\n")
    # a broken bracket in the last batch: the message of the whole file, its line included
    lines = data.decode().split("\n")
    bad = next(i for i in range(len(lines) - 1, 0, -1) if lines[i].rstrip().endswith(")") and "(" not in lines[i]
               and not lines[i].startswith("#"))
    lines[bad] = re.sub(r"\S+$", "-", lines[bad].rstrip())  # a cluster opened and never closed
    broken = tmp_path / "broken.conll"
    broken.write_text("\n".join(lines))
    with pytest.raises(InputError) as whole:
        fastscore.read_conll(broken)
    with pytest.raises(InputError) as batched:
        score_corpus(broken, corpus["response"], jobs=1, batch_size=len(data) // 5)
    assert str(batched.value) == str(whole.value) and "never closed" in str(whole.value)


@pytest.mark.slow  # ~3 s (the default run keeps a shorter test of the same path)
def test_jsonlines_files_in_batches(corpus, tmp_path):
    """A jsonlines file larger than the batch size is read in batches of whole lines: the numbers of the file
    read whole, and a bad line's message (its line number included) as reading the whole file gives."""
    from fastscore.formats.jsonl import jsonl_batches

    paths = {}
    for side in ("key", "response"):
        paths[side] = tmp_path / f"{side}.jsonl"
        _in_process([*FASTSCORE, "convert", str(corpus[side]), str(paths[side]), "--to", "jsonl"], check=True,
                       capture_output=True)
    data = paths["key"].read_bytes()
    parts = jsonl_batches(str(paths["key"]), len(data) // 6)
    assert len(parts) >= 6 and all(data[p.start - 1:p.start] == b"\n" for p in parts[1:])
    assert parts[-1].end == len(data) and all(p.line == data[:p.start].count(b"\n") for p in parts)
    whole = fastscore.score_coref(paths["key"], paths["response"])
    for jobs in (1, 2):
        batched = score_corpus(paths["key"], paths["response"], jobs=jobs, batch_size=len(data) // 6)
        assert _numbers(batched) == _numbers(whole)
    lines = data.decode().split("\n")
    lines[-3] = lines[-3].replace('"clusters"', '"klusters"')
    broken = tmp_path / "broken.jsonl"
    broken.write_text("\n".join(lines))
    with pytest.raises(InputError) as one:
        fastscore.score_coref(broken, paths["response"])
    with pytest.raises(InputError) as cut:
        score_corpus(broken, paths["response"], jobs=1, batch_size=len(data) // 6)
    assert str(cut.value) == str(one.value) and f":{len(lines) - 2}:" in str(one.value)


def test_cli_prints_the_same_report(corpus, tmp_path):
    one = _in_process([*FASTSCORE, "coref", str(corpus["key"]), str(corpus["response"]), "-o", "perl", "-m", "all"],
                         capture_output=True, text=True, check=True).stdout
    sharded = _in_process([*FASTSCORE, "coref", str(corpus["key-shards"]), str(corpus["response-shards"]),
                              "-o", "perl", "-m", "all", "--jobs", "2", "--quiet"],
                             capture_output=True, text=True, check=True)
    assert sharded.stdout.replace(str(corpus["key-shards"]), str(corpus["key"])).replace(
        str(corpus["response-shards"]), str(corpus["response"])) == one
    assert sharded.stderr == ""  # no progress bar without a terminal


@pytest.mark.parametrize("response", ["key-shards", pytest.param("response-shards", marks=pytest.mark.slow)])  # paired
# by name; other cuts (two steps, in the slow run)
def test_shards_are_read_in_the_format_given(corpus, response):
    """``--format`` reads every shard as it reads one file: CoNLL-2012 shards given as CoNLL-U are refused with
    the reader's message, not scored as tables of another format."""
    from fastscore.errors import OtherFormatError

    with pytest.raises(OtherFormatError, match=r"part-00\.conll:1: this looks like a CoNLL-2012"):
        score_corpus(corpus["key-shards"], corpus[response], jobs=2, format="conllu")
    given = score_corpus(corpus["key-shards"], corpus["response-shards"], jobs=1, format="conll2012")  # (workers:
    assert _numbers(given) == _numbers(score_corpus(corpus["key-shards"], corpus["response-shards"], jobs=1))  # above)


def test_a_document_in_two_shards_is_an_error(corpus, tmp_path):
    folder = tmp_path / "dup"
    folder.mkdir()
    docs = _documents(corpus["response"])
    (folder / "a.conll").write_text("".join(docs[:10]))
    (folder / "b.conll").write_text("".join(docs[9:]))
    run = _in_process([*FASTSCORE, "coref", str(corpus["key"]), str(folder), "--jobs", "1"],
                         capture_output=True, text=True)
    assert run.returncode == 1 and run.stdout == ""
    assert re.fullmatch(r'fastscore: error: document ".+" is in two shards: .*a\.conll and .*b\.conll .*\n', run.stderr)


def test_unnamed_documents_in_two_shards_are_an_error_that_says_so(shared_data, tmp_path):
    """OntoGUM's CoNLL files hold one document each, all without a name."""
    source = shared_data / "gum" / "coref" / "ontogum" / "conll"
    for side in ("k", "r"):
        (tmp_path / side).mkdir()
        for f in sorted(source.glob("*.conll"))[:2]:
            (tmp_path / side / f.name).write_bytes(f.read_bytes())
    run = _in_process([*FASTSCORE, "coref", str(tmp_path / "k"), str(tmp_path / "r"), "--jobs", "1"],
                         capture_output=True, text=True)
    assert run.returncode == 1 and run.stdout == ""
    assert "both hold a document without a name" in run.stderr and run.stderr.count("\n") == 1


@pytest.mark.slow  # ~4 s (the default run keeps a shorter test of the same path)
def test_conllu_shards_of_real_data(shared_data, tmp_path):
    """OntoGUM's CoNLL-U files as shards: the CorefUD report and every JSON number of the files joined in one."""
    files = sorted((shared_data / "gum" / "coref" / "ontogum" / "conllu").glob("*.conllu"))[:3]
    (tmp_path / "shards").mkdir()
    for f in files:
        (tmp_path / "shards" / f.name).write_bytes(f.read_bytes())
    (tmp_path / "one.conllu").write_bytes(b"".join(f.read_bytes() for f in files))
    outputs = {}
    for inputs in (("one.conllu", "one.conllu"), ("shards", "shards")):
        for fmt in ("corefud", "json", "perl"):
            run = _in_process([*FASTSCORE, "coref", *(str(tmp_path / x) for x in inputs), "-o", fmt, "--per-doc",
                                  "--jobs", "2"], capture_output=True, text=True)
            outputs[inputs[0], fmt] = (run.returncode, run.stdout, run.stderr)
    assert outputs["one.conllu", "corefud"] == outputs["shards", "corefud"] and outputs["shards", "corefud"][0] == 0
    one, sharded = json.loads(outputs["one.conllu", "json"][1]), json.loads(outputs["shards", "json"][1])
    assert one.pop("signature") == sharded.pop("signature") and one == sharded
    assert outputs["shards", "perl"][0] == 2 and "for CoNLL-U use --output corefud" in outputs["shards", "perl"][2]


def test_bad_shard_fails_the_run_or_is_skipped(corpus, tmp_path):
    folder = tmp_path / "bad"
    folder.mkdir()
    docs = _documents(corpus["response"])
    (folder / "a.conll").write_text("".join(docs[:30]))
    (folder / "b.conll").write_text("".join(docs[30:]).replace("#end document", "", 1))
    args = [*FASTSCORE, "coref", str(corpus["key"]), str(folder), "--jobs", "2", "-o", "json"]
    run = _in_process(args, capture_output=True, text=True)
    assert run.returncode == 1 and run.stdout == ""
    assert re.fullmatch(r"fastscore: error: .*b\.conll:\d+: document \".+\": .*\n", run.stderr)
    run = _in_process([*args, "--skip-bad-shards"], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    assert len(out["skipped_shards"]) == 1 and "b.conll" in out["skipped_shards"][0]
    assert "shard skipped" in run.stderr and "30 key document(s) missing from the response" in run.stderr
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        alone = fastscore.score_coref(corpus["key"], folder / "a.conll")
    assert out["metrics"] == json.loads(json.dumps(alone.to_dict()))["metrics"]


def test_one_pair_of_files_refuses_corpus_options(corpus):
    run = _in_process([*FASTSCORE, "coref", str(corpus["key"]), str(corpus["response"]), "--skip-bad-shards"],
                         capture_output=True, text=True)
    assert run.returncode == 2 and "--skip-bad-shards: for corpora of shards" in run.stderr


def test_options_that_cannot_apply_are_refused(corpus, timeml):
    """--jobs 0 (it meant every core before: a falsy number); --batch-size for a task whose files are not cut."""
    run = _in_process([*FASTSCORE, "coref", str(corpus["key-shards"]), str(corpus["response-shards"]), "-j", "0"],
                         capture_output=True, text=True)
    assert run.returncode == 2 and "--jobs 0: give at least 1" in run.stderr
    run = _in_process([*FASTSCORE, "temporal", str(timeml / "gold"), str(timeml / "system"), "--batch-size", "1M"],
                         capture_output=True, text=True)
    assert run.returncode == 2 and "unrecognized arguments: --batch-size" in run.stderr


def test_every_api_entry_takes_corpora_itself(corpus, one_file):
    """Issue 37 (one runner): score and score_<task> take folders of shards and the corpus keywords as
    score_corpus does (one decision, shards.plan_run); a pair of files with a corpus option is refused there
    as on the command line."""
    for function in (fastscore.score, fastscore.score_coref):
        result = function(corpus["key-shards"], corpus["response-shards"], jobs=1)
        assert _numbers(result) == one_file
    assert _numbers(fastscore.score(str(corpus["key-shards"] / "part-*.conll"), corpus["response-shards"],
                                    jobs=1, batch_size="64M")) == one_file
    with pytest.raises(fastscore.UsageError, match="--executor dask: for corpora of shards"):
        fastscore.score(corpus["key"], corpus["response"], executor="dask")
    with pytest.raises(fastscore.UsageError, match="--jobs 0: give at least 1"):
        fastscore.score_coref(corpus["key"], corpus["response"], jobs=0)


def test_corpus_options_are_declared_once():
    """The command's corpus flags and the API's keywords are made from shards.CORPUS_OPTIONS."""
    import argparse
    import inspect

    from fastscore.cli import _parser
    from fastscore.shards import CORPUS_KEYWORDS, CORPUS_OPTIONS

    _, commands = _parser(fastscore.tasks.get_task("coref"))
    for command, scopes in (("coref", ("score", "command")), ("compare", ("score",)), ("sweep", ("score",))):
        actions = {a.dest: a for a in commands[command]._actions}
        for option in CORPUS_OPTIONS:
            assert (option.keyword in actions) == (option.scope in scopes), (command, option.keyword)
            if option.scope in scopes:
                action = actions[option.keyword]
                assert tuple(action.option_strings) == option.flags and action.default == option.default
                assert isinstance(action, argparse._StoreTrueAction) == option.switch
    parameters = inspect.signature(fastscore.score_coref).parameters
    assert all(parameters[k].kind is inspect.Parameter.KEYWORD_ONLY for k in CORPUS_KEYWORDS)


def test_corpus_options_for_a_task_without_corpora_are_refused():
    from fastscore.examples import command_inputs

    key, response, _ = command_inputs("coref")
    with pytest.raises(fastscore.UsageError, match="jobs: task 'explain' scores one pair of inputs"):
        fastscore.score(key, response, task="explain", jobs=2)


@pytest.fixture(scope="module")
def timeml(tmp_path_factory) -> Path:
    """12 generated TimeML documents (gold/, system/), two attribute values outside TimeML's in two files
    (one warning counts them over every shard), one file without the .tml ending (read all the same)."""
    from gen_timeml import make_corpus, write_corpus

    out = tmp_path_factory.mktemp("timeml")
    write_corpus(out, make_corpus(seed=5, docs=12))
    for name in ("doc003.tml", "doc008.tml"):
        f = out / "system" / name
        f.write_text(f.read_text().replace('class="OCCURRENCE"', 'class="HAPPENING"', 1))
    for side in ("gold", "system"):
        (out / side / "doc011.tml").rename(out / side / "doc011.xml")
    return out


@pytest.mark.filterwarnings("ignore:2 attribute value:fastscore.errors.FastscoreWarning")  # checked: .warnings
def test_temporal_folders_as_shards(timeml):
    """A TimeML folder, each file a shard: --jobs 1, --jobs 2 and Dask-free glob patterns give the numbers and
    the warning of the folder read whole (fastscore.score, the path without shards)."""
    whole = fastscore.score(timeml / "gold", timeml / "system", task="temporal")
    assert len(whole.documents) == 12 and len(whole.warnings) == 1 and whole.warnings[0].startswith("2 attribute")
    expected = _numbers(whole)
    for jobs in (1, 2):
        sharded = score_corpus(timeml / "gold", timeml / "system", task="temporal", jobs=jobs)
        assert _numbers(sharded) == expected
        assert sharded.warnings == whole.warnings
    pattern = score_corpus(str(timeml / "gold" / "doc*"), timeml / "system", task="temporal", jobs=1,
                           evaluation_method="acl11")
    assert _numbers(pattern) == _numbers(fastscore.score(timeml / "gold", timeml / "system", task="temporal",
                                                         evaluation_method="acl11"))
    run = _in_process([*FASTSCORE, "temporal", str(timeml / "gold"), str(timeml / "system"), "-o", "te3",
                          "-j", "2"], capture_output=True, text=True, check=True)
    assert run.stdout == fastscore.tasks.get_task("temporal").report(whole, "te3")


def test_temporal_shards_need_the_same_documents(timeml, tmp_path):
    """The toolkit scores a system folder of exactly the gold's files: a missing or an extra file is an error
    with shards too (not a warning, as for coreference)."""
    import shutil

    for what, change in (("missing", lambda d: (d / "doc004.tml").unlink()),
                         ("not in the gold", lambda d: shutil.copy(d / "doc004.tml", d / "extra.tml"))):
        system = tmp_path / what.replace(" ", "-")
        shutil.copytree(timeml / "system", system)
        change(system)
        run = _in_process([*FASTSCORE, "temporal", str(timeml / "gold"), str(system), "-j", "1"],
                             capture_output=True, text=True)
        assert run.returncode == 1 and run.stdout == "", run.stderr
        assert re.fullmatch(rf"fastscore: error: {re.escape(str(system))}: 1 (gold )?document\(s\) {what} "
                            r"\(first: \"(doc004|extra)\.tml\"\): .*\n", run.stderr)


@pytest.mark.slow  # ~4 s (the default run keeps a shorter test of the same path)
def test_event_nugget_shards(tmp_path):
    """The nugget task through the same shape: the official report and every JSON number as one file."""
    from gen_nuggets import generate

    generate(tmp_path, docs=40, seed=3)
    # 3 shards a side; and 2 cut otherwise, in reverse document order: joined with the key's (concat), or scored
    # in pairs; either way the documents come in one file's order (sorted)
    for side in ("gold", "system"):
        docs = [d for d in re.split(r"(?m)^(?=#BeginOfDocument)", (tmp_path / f"{side}.tbf").read_text()) if d.strip()]
        cuts = {side: {"p0": (0, 14), "p1": (14, 28), "p2": (28, 40)}, f"{side}-reversed": {"a": (25, 40), "b": (0, 25)}}
        for folder, shards in cuts.items():
            (tmp_path / folder).mkdir()
            for name, (a, b) in shards.items():
                (tmp_path / folder / f"{name}.tbf").write_text("".join(docs[a:b]))
    common = ["--coref", "--char-spans", "--quiet", "--jobs", "2"]
    outputs = []
    for gold, system in (("gold.tbf", "system.tbf"), ("gold", "system"), ("gold", "system-reversed"),
                         ("gold-reversed", "system-reversed")):
        for fmt in ("evmeval", "json"):
            run = _in_process([*FASTSCORE, "nugget", str(tmp_path / gold), str(tmp_path / system), "-o", fmt,
                                  "--per-doc", *common], capture_output=True, text=True)
            assert run.returncode == 0, run.stderr
            outputs.append(run.stdout)
    assert outputs[0] == outputs[2] == outputs[4] == outputs[6]
    one, *others = (json.loads(outputs[k]) for k in (1, 3, 5, 7))
    signature = one.pop("signature")
    for other in others:
        assert other.pop("signature") == signature and other == one
        assert list(other["per_doc"]) == list(one["per_doc"])
    sharded = others[0]
    run = _in_process([*FASTSCORE, "nugget", str(tmp_path / "gold"), str(tmp_path / "system"), "--sequencing",
                          "--preset", "kbp2016", *common], capture_output=True, text=True)
    assert run.returncode == 2 and "--sequencing scores one pair of whole files" in run.stderr
    bad = tmp_path / "bad"
    bad.mkdir()
    for i in range(3):
        text = (tmp_path / "system" / f"p{i}.tbf").read_text()
        # a relation line of two fields: refused when read (a 6-field mention line is refused only where its
        # document is scored, as EvmEval reads it, which --skip-bad-shards does not skip)
        (bad / f"p{i}.tbf").write_text(text if i else text.replace("#EndOfDocument", "@After\tR1\n#EndOfDocument", 1))
    args = [*FASTSCORE, "nugget", str(tmp_path / "gold"), str(bad), "-o", "json", *common]
    run = _in_process(args, capture_output=True, text=True)
    assert run.returncode == 1 and run.stdout == "" and re.fullmatch(r"fastscore: error: .*p0\.tbf:\d+: .*\n", run.stderr)
    run = _in_process([*args, "--skip-bad-shards"], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    skipped = json.loads(run.stdout)
    assert len(skipped["skipped_shards"]) == 1 and "p0.tbf" in skipped["skipped_shards"][0]
    assert skipped["documents"] == 40 and skipped["metrics"] != sharded["metrics"]


@pytest.mark.slow  # ~6 s (the default run keeps a shorter test of the same path)
def test_event_nugget_files_in_batches(tmp_path):
    """A TBF file larger than the batch size is read in batches of whole documents: every batch's documents,
    mention lines and relation lines keep the file's own line numbers, the report and JSON are those of the files
    read whole, and a bad line's message too."""
    from gen_nuggets import generate

    from fastscore.formats.tbf import read_tbf, tbf_batches

    generate(tmp_path, docs=300, seed=5)
    gold, system = tmp_path / "gold.tbf", tmp_path / "system.tbf"
    data = gold.read_bytes()
    whole = read_tbf(gold)
    for size in (len(data) // 5, 16 << 10):  # a few batches, and many small ones
        parts = tbf_batches(str(gold), size)
        assert len(parts) >= 5 and all(data[p.start:p.start + 16] == b"#BeginOfDocument" for p in parts[1:])
        assert parts[0].start == 0 and parts[-1].end == len(data)
        reads = [read_tbf(p) for p in parts]
        assert [d.line for r in reads for d in r.documents.values()] == [d.line for d in whole.documents.values()]
        assert [x for r in reads for x in r.lines] == whole.lines and [x for r in reads for x in r.ids] == whole.ids
        assert ([x.line for r in reads for d in r.documents.values() for x in d.relations]
                == [x.line for d in whole.documents.values() for x in d.relations])
    common = ["--coref", "--char-spans", "--preset", "kbp2016", "--quiet"]
    outputs = []
    for extra in ([], ["--batch-size", str(len(data) // 5), "-j", "1"], ["--batch-size", "100K", "-j", "2"]):
        for fmt in ("evmeval", "json"):
            run = _in_process([*FASTSCORE, "nugget", str(gold), str(system), "-o", fmt, "--per-doc", *common,
                                  *extra], capture_output=True, text=True)
            assert run.returncode == 0, run.stderr
            outputs.append((run.stdout, run.stderr))
    assert outputs[0] == outputs[2] == outputs[4] and outputs[1] == outputs[3] == outputs[5]
    lines = system.read_text().split("\n")
    late = next(i for i in range(len(lines) - 1, 0, -1) if lines[i].count("\t") >= 6)
    lines[late] = lines[late].replace("\t", " ", 1)
    broken = tmp_path / "broken.tbf"
    broken.write_text("\n".join(lines))
    messages = []
    for extra in ([], ["--batch-size", "100K", "-j", "2"]):
        run = _in_process([*FASTSCORE, "nugget", str(gold), str(broken), *common, *extra], capture_output=True,
                             text=True)
        assert run.returncode == 1 and run.stdout == ""
        messages.append(run.stderr)
    assert messages[0] == messages[1] and f"broken.tbf:{late + 1}:" in messages[0]


def test_progress_bar():
    import io

    from fastscore.cli import ProgressBar

    out = io.StringIO()
    bar = ProgressBar(out)
    for done in range(1, 4):
        bar("reading", done, 3)
    lines = out.getvalue()
    assert lines.startswith("\rreading 1/3 parts") and lines.endswith("\n") and "reading 3/3 parts" in lines


def test_parts_go_out_largest_first(tmp_path):
    from fastscore.formats.files import Part
    from fastscore.executors import largest_first
    from fastscore.planner import part_size

    small, large = tmp_path / "small.conll", tmp_path / "large.conll"
    small.write_text("x" * 10)
    large.write_text("x" * 1000)
    parts = [str(small), Part(str(large), 100, 600, 3), str(large), str(tmp_path / "gone.conll")]
    sizes = [part_size(p) for p in parts]
    assert sizes == [10, 500, 1000, 0]
    assert largest_first(4, sizes) == [2, 1, 0, 3] and largest_first(3, None) == [0, 1, 2]
    assert largest_first(3, [5, 5, 5]) == [0, 1, 2]  # ties keep their order


def test_small_parts_go_to_the_pool_in_chunks():
    from fastscore.executors import in_chunks, largest_first

    sizes = [100, 5, 60, 5, 5, 20, 5]
    order = largest_first(len(sizes), sizes)  # 0, 2, 5, 1, 3, 4, 6
    chunks = in_chunks(order, sizes, 4)  # about 50 bytes a chunk
    assert chunks == [[0], [2], [5, 1, 3, 4, 6]]  # the large alone, the small together, still largest first
    assert [i for c in chunks for i in c] == order
    assert in_chunks(order, sizes, 7) == [[i] for i in order]  # as many chunks as items: one each
    assert in_chunks([0, 1, 2, 3, 4, 5], None, 3) == [[0, 1], [2, 3], [4, 5]]  # no sizes: equal counts


@given(st.lists(st.integers(0, 1000), min_size=1, max_size=60), st.integers(1, 70))
@settings(max_examples=200, deadline=None)
def test_chunks_keep_every_item_once_in_order(sizes, n_chunks):
    from fastscore.executors import in_chunks, largest_first

    order = largest_first(len(sizes), sizes)
    chunks = in_chunks(order, sizes, n_chunks)
    assert [i for c in chunks for i in c] == order and all(chunks)
    assert len(chunks) <= 2 * n_chunks or len(chunks) == len(order)  # a chunk and the next hold over 1/n


def test_planning_opens_no_file_smaller_than_a_batch(corpus, monkeypatch):
    """Shards are listed by size alone: only a file larger than --batch-size is opened (to cut it)."""
    from fastscore import planner

    task = fastscore.tasks.get_task("coref")
    cut = []
    real = planner._cached_batches
    monkeypatch.setattr(planner, "_cached_batches", lambda name, path, *rest: cut.append(path) or real(name, path, *rest))
    parts = planner.parts_of(str(corpus["key-shards"]), task, 1 << 20)
    assert parts == planner.shard_files(str(corpus["key-shards"]), task) and cut == []
    batches = planner.parts_of(str(corpus["key"]), task, 64 << 10)
    assert cut == [str(corpus["key"])] and len(batches) > 1


def _warm_state() -> tuple[bool, bool]:
    """In a worker: whether it warmed up for coreference, and whether numba is loaded (it should not be where
    the compiled kernels are installed)."""
    return "coref" in fastscore.executors.WARM, "numba" in sys.modules


def test_the_pool_is_sized_by_the_batches_files_will_make(tmp_path):
    """The pool starts before the parts are planned and never grows: two files cut into ten batches each give
    work to every one of 8 workers, not to 2 (one per file)."""
    from fastscore.planner import parts_expected

    files = []
    for name, size in (("a", 1000), ("b", 950), ("c", 10)):
        (tmp_path / name).write_bytes(b"x" * size)
        files.append(str(tmp_path / name))
    assert parts_expected(files, 100) == 10 + 10 + 1
    assert parts_expected(files, None) == 3


def test_pool_workers_are_warm_before_their_first_part():
    from fastscore.first_run import compiled_kernels
    from fastscore.executors import LocalExecutor

    # warmed up in this process before the fork (prepare_to_fork), or by each worker when not forked
    with LocalExecutor(2) as ex:
        ex.start("coref", 2)
        states = ex.run(_warm_state, [(), ()], lambda i, v: None)
    assert all(warm for warm, _ in states), states  # the bundled example was scored at start
    if compiled_kernels() is not None and "numba" not in sys.modules:  # forked from a process without numba
        assert not any(numba for _, numba in states), states


_FORKED_READY = ("cloudpickle", "fastscore.coref.score", "pyarrow.parquet", "pyarrow.compute", "numpy.ma")


def _imported() -> list[bool]:
    """In a worker, before its first part: which of :data:`_FORKED_READY` it has."""
    return [m in sys.modules for m in _FORKED_READY]


def test_forked_workers_start_with_what_their_parts_need(corpus):
    """Imported once in the parent before the fork (prepare_to_fork), not again in each worker: cloudpickle,
    the task's modules, and pyarrow's reader for Parquet shards."""
    import multiprocessing
    import threading

    from fastscore.executors import LocalExecutor

    if threading.active_count() > 1 or "fork" not in multiprocessing.get_all_start_methods():
        pytest.skip("the pool forks only a process with one thread")
    part = str(sorted(corpus["key-parquet"].glob("*.parquet"))[0])
    with LocalExecutor(2) as ex:
        ex.start("coref", 2, part)
        states = ex.run(_imported, [(), ()], lambda i, v: None)
        threads = ex.run(_pyarrow_threads, [(), ()], lambda i, v: None)
    assert states == [[True] * len(_FORKED_READY)] * 2, (_FORKED_READY, states)
    assert threads == [1, 1]  # pyarrow's pool on one thread in each worker


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="workers come from a forkserver on Linux only")
def test_local_cluster_workers_start_warm(corpus):
    """A LocalCluster's workers warm up as they start (``--preload fastscore.shards``: every task's modules and
    kernels; the reader of a part's format is imported by the first such part, as in a deployment); pyarrow there
    runs on one thread (the workers are the parallelism)."""
    pytest.importorskip("dask.distributed")
    from fastscore.executors import DaskExecutor

    part = str(sorted(corpus["key-parquet"].glob("*.parquet"))[0])
    with DaskExecutor(2, None) as ex:
        ex.start("coref", 2, part)
        ex.client.wait_for_workers(2)
        states = list(ex.client.run(_imported).values())
        threads = ex.client.submit(_pyarrow_threads, pure=False).result()
        profiled = ex.client.run(lambda: __import__("dask").config.get("distributed.worker.profile.enabled"))
    assert list(profiled.values()) == [False, False]  # no dashboard to show the profiler's samples
    warm = [m in ("cloudpickle", "fastscore.coref.score") for m in _FORKED_READY]  # what the preload loads
    assert [[a for a, w in zip(state, warm) if w] for state in states] == [[True, True]] * 2, (_FORKED_READY, states)
    assert threads == 1


def _pyarrow_threads() -> int:
    from fastscore.executors import _on_worker

    return _on_worker(lambda: __import__("pyarrow").cpu_count(), ())


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.lists(st.integers(0, 8), max_size=3), st.lists(st.integers(0, 10), max_size=3)),
                min_size=2, max_size=4))
def test_shards_paired_one_to_one_are_planned_as_plan_units_plans_them(pairs):
    """The paired path's one-pass check agrees with plan_units: one unit per pair of shards (or not), and the
    same response documents in no key shard."""
    from fastscore.planner import unpaired_if_one_to_one

    key = [[f"d{n}" for n in k] for k, _ in pairs]
    response = [[f"d{n}" for n in r] for _, r in pairs]
    parts = [f"part-{i}" for i in range(len(pairs))]
    try:
        units, unpaired = plan_units(key, response, parts, parts)
        one_to_one = len(units) == len(parts) and all(u.key == [i] and u.response in ([i], [])
                                                      for i, u in enumerate(units))
    except InputError:  # a document in two shards of a side
        one_to_one = False
    found = unpaired_if_one_to_one(key, response)
    assert (found is not None) == one_to_one
    assert found is None or found == unpaired


def test_sizes():
    assert parse_size("64M") == 64 << 20 and parse_size("1g") == 1 << 30 and parse_size("500") == 500
    with pytest.raises(fastscore.errors.UsageError):
        parse_size("lots")


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 4), st.integers(0, 4), st.booleans()), min_size=1, max_size=30))
def test_units_link_the_parts_of_shared_documents(docs):
    """Each document's key part and response part are in one unit; units are the connected parts (a
    reference: merge until nothing changes)."""
    key_names = [[] for _ in range(5)]
    response_names = [[] for _ in range(5)]
    for d, (k, r, in_response) in enumerate(docs):
        key_names[k].append(f"d{d}")
        if in_response:
            response_names[r].append(f"d{d}")
    units, unpaired = plan_units(key_names, response_names, list("ABCDE"), list("vwxyz"))
    assert unpaired == []
    groups = [({("k", k)} | {("r", r) for rr, (k2, r, inr) in enumerate(docs) if k2 == k and inr}) for k in range(5)]
    changed = True
    while changed:
        changed = False
        for i in range(len(groups)):
            for j in range(i + 1, len(groups)):
                if groups[i] & groups[j]:
                    groups[i] |= groups.pop(j)
                    changed = True
                    break
            if changed:
                break
    expected = sorted(sorted(g) for g in groups)
    got = sorted(sorted({("k", k) for k in u.key} | {("r", r) for r in u.response}) for u in units)
    assert got == expected


def test_dask_local_cluster(corpus, one_file):
    pytest.importorskip("dask.distributed")
    result = score_corpus(corpus["key-shards"], corpus["response-shards"], executor="dask", jobs=2)
    assert _numbers(result) == one_file
    paired = score_corpus(corpus["key-parquet"], corpus["response-parquet"], executor="dask", jobs=2)
    assert _numbers(paired) == one_file


@pytest.mark.slow  # ~2 s: a cluster started from a subprocess (the default run keeps a shorter test of the same path)
def test_dask_local_cluster_from_the_command_line(corpus, one_file):
    """The command a user types: a LocalCluster whose workers are forked (fastscore already loaded)."""
    pytest.importorskip("dask.distributed")
    run = subprocess.run([*FASTSCORE, "coref", str(corpus["key-shards"]), str(corpus["response-shards"]),
                          "--executor", "dask", "--jobs", "2", "-o", "json", "--per-doc"],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    out.pop("signature")
    assert out == json.loads(json.dumps(one_file))


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="workers are forked on Linux only")
def test_local_cluster_needs_no_fixed_port():
    """Another cluster (or anything) on Dask's default port 8787: no warning, the run goes on."""
    pytest.importorskip("dask.distributed")
    from fastscore import executors

    with socket.socket() as held:
        held.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        with contextlib.suppress(OSError):  # already held by another process: as good
            held.bind(("0.0.0.0", 8787))
            held.listen()
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            with executors.DaskExecutor(1, None) as ex:
                assert ex.client.submit(sum, [1, 2]).result() == 3


def test_local_cluster_starts_its_workers_from_a_forkserver_with_fastscore_loaded(monkeypatch):
    """Not forked from this process, whose Dask event loop thread may hold a lock at the fork (a worker was seen
    waiting for ever on standard error's)."""
    dask = pytest.importorskip("dask")
    from fastscore import executors

    key = "distributed.worker.multiprocessing-method"
    monkeypatch.setattr(executors, "_PROBE", "set in the parent", raising=False)  # a forked worker would have it
    with executors.DaskExecutor(1, None) as ex:
        assert ex.client is not None  # the cluster starts with the first use of its client (or at start())
        assert dask.config.get(key) == "forkserver"
        seen = ex.client.run(lambda: (getattr(__import__("fastscore.executors").executors, "_PROBE", None),
                                      "fastscore.shards" in __import__("sys").modules))
        assert list(seen.values()) == [(None, True)]
    assert dask.config.get(key) == "spawn"  # restored when the cluster closes
    with dask.config.set({key: "forkserver"}):
        with executors.DaskExecutor(1, None):
            assert dask.config.get(key) == "forkserver"  # the user's choice is kept


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(params=[False, True], ids=["cold", "preloaded"])
def dask_deployment(request):
    """``dask scheduler`` and two ``dask worker`` processes on 127.0.0.1, as users start them (with
    ``--preload fastscore.shards``, or cold: fastscore loaded by the first task); stopped after."""
    pytest.importorskip("dask.distributed")
    port = _free_port()
    address = f"tcp://127.0.0.1:{port}"
    dask = [sys.executable, "-m", "distributed.cli.dask_scheduler"]
    procs = [subprocess.Popen([*dask, "--host", "127.0.0.1", "--port", str(port), "--dashboard-address", ":0"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)]
    worker = [sys.executable, "-m", "distributed.cli.dask_worker", address, "--nthreads", "1", "--no-nanny",
              "--dashboard-address", ":0", *(["--preload", "fastscore.shards"] if request.param else [])]
    try:
        procs += [subprocess.Popen(worker, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for _ in range(2)]
        from dask.distributed import Client

        with Client(address, timeout=60) as client:
            client.wait_for_workers(2, timeout=120)
        yield address, procs[1:]
    finally:
        for p in procs:
            p.kill()
            p.wait()


@pytest.mark.slow  # ~3 s: a scheduler and workers started (the default run keeps a shorter test of the same path)
def test_dask_deployment_and_a_killed_worker(corpus, one_file, dask_deployment, tmp_path):
    address, workers = dask_deployment
    run = subprocess.run([*FASTSCORE, "coref", str(corpus["key-shards"]), str(corpus["response-shards"]),
                          "--executor", "dask", "--scheduler", address, "-o", "json", "--per-doc"],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    out.pop("signature")
    assert out == json.loads(json.dumps(one_file))
    # many small parts; one worker is killed once the first part is read: Dask runs its tasks again
    folder = tmp_path / "many"
    folder.mkdir()
    for i, doc in enumerate(_documents(corpus["key"])):
        (folder / f"k{i:03d}.conll").write_text(doc)
    killed = []

    def kill_once(what, done, total):
        if not killed:
            workers[0].send_signal(signal.SIGKILL)
            killed.append(time.monotonic())

    result = fastscore.shards.score_corpus(fastscore.tasks.get_task("coref"), str(folder), str(corpus["response"]),
                                           {}, Settings(executor="dask", scheduler=address, progress=kill_once))
    assert killed and workers[0].wait(timeout=10) is not None
    assert _numbers(result) == one_file


@pytest.mark.slow  # ~3 s: waits for the connection to fail (the default run keeps a shorter test of the same path)
def test_dask_unreachable_scheduler_is_a_usage_error(corpus):
    pytest.importorskip("dask.distributed")
    run = subprocess.run([*FASTSCORE, "coref", str(corpus["key-shards"]), str(corpus["response-shards"]),
                          "--executor", "dask", "--scheduler", f"tcp://127.0.0.1:{_free_port()}"],
                         capture_output=True, text=True, timeout=120, env={**os.environ, "DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT": "2s"})
    assert run.returncode == 2 and "cannot reach the Dask scheduler" in run.stderr, run.stderr


def _peak_kb(args: list[str]) -> int:
    """Peak resident memory (KB) of a fastscore run in a process of its own."""
    probe = ("import resource, subprocess, sys; subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL); "
             "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    return int(subprocess.run([sys.executable, "-c", probe, *FASTSCORE, *args], capture_output=True, text=True,
                              check=True).stdout)


@pytest.mark.slow
def test_streaming_memory_is_bounded_by_the_batch(corpus, tmp_path):
    """A file of ~60 MB read in batches of 4 MB: the peak stays well below reading it whole."""
    docs = _documents(corpus["key"])
    big = tmp_path / "big.conll"
    with big.open("w") as out:
        for copy in range(20):
            for doc in docs:
                out.write(doc.replace("#begin document (", f"#begin document (c{copy}/", 1))
    size_kb = big.stat().st_size // 1024
    args = ["coref", str(big), str(big), "-o", "json", "--jobs", "1", "-m", "muc"]
    whole = _peak_kb([*args, "--batch-size", "1G"])
    streamed = _peak_kb([*args, "--batch-size", "4M"])
    assert streamed < whole - size_kb, (streamed, whole, size_kb)


@pytest.fixture(scope="module")
def systems(tmp_path_factory) -> dict[str, Path]:
    """A key and two responses as files, and each as a folder of 3 shards (under runs/ for the responses)."""
    from gen_corpus import generate

    out = tmp_path_factory.mktemp("systems")
    key, a, b = generate(out, docs=24, tokens=9_000, mentions=1_000, clusters=250, seed=11, responses=2)
    paths = {"key": key, "a": a, "b": b}
    for name, path in (("key", key), ("a", a), ("b", b)):
        docs = _documents(path)
        folder = out / ("runs" if name != "key" else "") / f"{name}-shards"
        folder.mkdir(parents=True)
        for i in range(3):
            (folder / f"part-{i}.conll").write_text("".join(docs[i::3]))  # interleaved: not the key's order
        paths[f"{name}-shards"] = folder
    paths["runs"] = out / "runs"
    return paths


@pytest.mark.parametrize("jobs", [1, pytest.param(2, marks=pytest.mark.slow)])  # 2: test_triples_shards compares
def test_compare_and_sweep_over_shards(systems, jobs):  # over shards in worker processes in the default run
    """Key and systems as shards: the same comparison and sweep as one file each (documents in the key's
    order), every system scored on one executor."""
    one = fastscore.compare(systems["key"], systems["a"], [systems["b"]], resamples=300).to_dict()
    sharded = fastscore.compare(systems["key"], systems["a-shards"], [systems["b-shards"]], resamples=300,
                                jobs=jobs).to_dict()
    for d in (one, sharded):
        d.pop("signature")
        d["baseline"]["name"] = "a"
        d["systems"][0]["name"] = "b"
    assert sharded == one
    swept = fastscore.sweep(systems["key-shards"], [systems["a-shards"], systems["b"]], jobs=jobs).to_dict()
    plain = fastscore.sweep(systems["key"], [systems["a"], systems["b"]]).to_dict()
    assert [r["metrics"] for r in swept["systems"]] == [r["metrics"] for r in plain["systems"]]


def test_sweep_a_folder_of_sharded_systems(systems):
    """A folder of no system files but subfolders of shards: each subfolder is a system."""
    run = _in_process([*FASTSCORE, "sweep", str(systems["key"]), str(systems["runs"]), "-o", "json", "-j", "1"],
                         capture_output=True, text=True, check=True)
    names = sorted(r["name"] for r in json.loads(run.stdout)["systems"])
    assert names == [str(systems["a-shards"]), str(systems["b-shards"])]
    plain = _in_process([*FASTSCORE, "sweep", str(systems["key"]), str(systems["a"]), str(systems["b"]), "-o",
                            "json"], capture_output=True, text=True, check=True)
    scores = lambda out: sorted(r["score"] for r in json.loads(out)["systems"])
    assert scores(run.stdout) == scores(plain.stdout)


def test_compare_refuses_a_system_without_every_key_document(systems, tmp_path):
    partial = tmp_path / "partial"
    partial.mkdir()
    for f in sorted(systems["a-shards"].iterdir())[:2]:
        (partial / f.name).write_text(f.read_text())
    run = _in_process([*FASTSCORE, "compare", str(systems["key"]), str(systems["a"]), str(partial), "-j", "1"],
                         capture_output=True, text=True)
    assert run.returncode == 1 and run.stdout == ""
    assert re.fullmatch(r"fastscore: error: .*partial: 8 gold document\(s\) missing \(first: .*\): systems must be "
                        r"scored on the gold's documents: add them to the system output .*\n", run.stderr)


def test_minimum_spans_over_shards_paired_by_name(tmp_path):
    """--match mina reads the CoNLL-2012 files themselves: shards paired by file name score as the files joined;
    a file in batches is refused with that reason (exit 2, no traceback)."""
    import gzip

    mina = ROOT / "tests" / "data" / "mina_anchors"
    joined = {"key": "", "response": ""}
    for side in joined:
        (tmp_path / side).mkdir()
        for i in range(3):
            text = gzip.decompress((mina / f"case-00{i}.{side}.gz").read_bytes()).decode()
            (tmp_path / side / f"c{i}.conll").write_text(text)
            joined[side] += text
        (tmp_path / f"{side}.conll").write_text(joined[side])

    def scored(*args: str) -> subprocess.CompletedProcess:
        return _in_process([*FASTSCORE, "coref", *args, "--match", "mina", "-o", "json", "--per-doc"],
                              capture_output=True, text=True, timeout=300)

    whole, shards = scored(str(tmp_path / "key.conll"), str(tmp_path / "response.conll")), \
        scored(str(tmp_path / "key"), str(tmp_path / "response"), "--jobs", "2")
    assert whole.returncode == shards.returncode == 0, whole.stderr + shards.stderr
    drop = lambda out: {k: v for k, v in json.loads(out).items() if k != "signature"}
    assert drop(shards.stdout) == drop(whole.stdout) and json.loads(whole.stdout)["documents"] == 6
    batched = scored(str(tmp_path / "key.conll"), str(tmp_path / "response.conll"), "--batch-size", "1")
    assert batched.returncode == 2 and "as a batch of a large file" in batched.stderr, batched.stderr
    assert "Traceback" not in batched.stderr
