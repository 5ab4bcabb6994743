"""A large CoNLL-U file in batches (issue 13): every batch read as the whole file reads its documents, and the
same numbers and reports as the file read whole."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fastscore.api import score_corpus
from fastscore.errors import ParseError
from fastscore.formats.conllu import read_conllu
from fastscore.formats.conllu_batches import (BYTES_PER_SENTENCE, batch_summary, conllu_batches, in_context,
                                              part_contexts)
from tests.conftest import fastscore_in_process

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
import gen_conllu as gen  # noqa: E402

FASTSCORE = [sys.executable, "-m", "fastscore"]
CASES = ROOT / "tests" / "data" / "corefud_anchors" / "cases"
EVERY_DOCUMENT = 1  # a batch size of one byte: a batch per document
HEADER = "# global.Entity = eid-etype-head-other"
# problems found once every batch (or, for the whole file, every line) is read: which one is reported first may
# differ between a file and its batches
LATE_PROBLEMS = ("has no mention", "again (as at line", "appears twice", "DEPS item", "left incomplete here",
                 "in this batch of the file")


def _batches_in_context(path: Path, batch_bytes: int = EVERY_DOCUMENT, context: bool = True) -> list:
    parts = conllu_batches(str(path), batch_bytes)
    tables = [read_conllu(p) for p in parts]
    contexts = part_contexts(parts, [batch_summary(t) for t in tables])
    return [in_context(t, c) if c is not None and context else t for t, c in zip(tables, contexts)]


def _differences(whole, batches) -> list[str]:
    """Documents whose mentions, clusters, words, lines or sentences differ between the whole file and its
    batches."""
    index = whole.doc_index()
    out = []
    for table in batches:
        for d, name in enumerate(table.doc_names):
            a, b = whole.select([index[name]]), table.select([d])
            if not a.same_mentions(b) or not np.array_equal(a.doc_lines, b.doc_lines) \
                    or not np.array_equal(a.words.lines, b.words.lines):
                out.append(name)
    sentences = [s for t in batches for s in t.sentences]
    if batches and sentences != list(whole.sentences):
        out.append("(sentences)")
    return out


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_bytes(text.encode())
    return path


def _sentence(doc: str | None, n: int, entities: dict[int, str], header: bool = False, sent_id: str | None = None,
              words: int = 4) -> str:
    lines = ([f"# newdoc id = {doc}" if doc else "# newdoc"] if doc is not None else []) + ([HEADER] if header else [])
    lines.append(f"# sent_id = {sent_id or f'{doc}-{n}'}")
    for k in range(1, words + 1):
        head, rel = (0, "root") if k == 1 else (1, "dep")
        lines.append(f"{k}\tw{k}\tw{k}\tNOUN\t_\t_\t{head}\t{rel}\t{head}:{rel}\t{entities.get(k, '_')}")
    return "\n".join(lines) + "\n\n"


# ---- the reader's view of a batch


@pytest.mark.parametrize("case", sorted({p.name.split(".")[0] for p in CASES.glob("*.conllu")}))
def test_every_anchor_file_in_batches_reads_as_the_whole_file(case):
    for side in ("key", "response"):
        path = CASES / f"{case}.{side}.conllu"
        whole = read_conllu(path)
        batches = _batches_in_context(path)
        assert len(batches) == (whole.n_docs if whole.n_docs > 1 else 0)  # one batch: the file is read whole
        assert _differences(whole, batches) == []


def test_entities_first_used_in_an_earlier_batch_come_first(tmp_path):
    """e1 and e2 of the second and third documents are those of the first (ids are the file's): their
    clusters are ordered by their first mention in the file, not in the batch."""
    text = (_sentence("d1", 1, {1: "Entity=(e1-x-1)", 2: "Entity=(e2-x-1)", 3: "Entity=(e1-x-1)"}, header=True)
            + _sentence("d2", 1, {1: "Entity=(e2-x-1)", 2: "Entity=(e1-x-1)", 4: "Entity=(e2-x-1)"})
            + _sentence("d3", 1, {1: "Entity=(e3-x-1)", 2: "Entity=(e2-x-1)", 4: "Entity=(e1-x-1)(e3-x-1)"}))
    path = _write(tmp_path, "k.conllu", text)
    whole = read_conllu(path)
    assert whole.cluster_labels == [["e1", "e2"], ["e1", "e2"], ["e1", "e2", "e3"]]
    assert _differences(whole, _batches_in_context(path)) == []
    assert _differences(whole, _batches_in_context(path, context=False)) == ["d2", "d3"]  # the test can fail


def test_what_the_lines_before_a_batch_make_of_it(tmp_path):
    """Documents without id are named by their number in the file; the header of the first line holds in
    every batch; GRP ids are per document; a CRLF file reads the same."""
    grp = "# global.Entity = GRP-etype-head-other"
    text = (_sentence("", 1, {1: "Entity=(e1-x-1)", 3: "Entity=(e1-x-1)"}, header=True)
            + _sentence("", 2, {2: "Entity=(e2-x-1)", 4: "Entity=(e2-x-1)"}, sent_id="s2")
            + _sentence("", 3, {1: "Entity=(e1-x-1)", 2: "Entity=(e2-x-1)", 3: "Entity=(e2-x-1)"}, sent_id="s3")
            .replace("# sent_id", grp + "\n# sent_id")
            + _sentence("", 4, {1: "Entity=(e2-x-1)", 2: "Entity=(e1-x-1)", 3: "Entity=(e1-x-1)"}, sent_id="s4"))
    for name, data in (("lf.conllu", text), ("crlf.conllu", text.replace("\n", "\r\n"))):
        path = _write(tmp_path, name, data)
        whole = read_conllu(path)
        assert whole.doc_names == ["1", "2", "3", "4"]
        parts = conllu_batches(str(path), EVERY_DOCUMENT)
        assert [(p.sentences_before, p.docs_before) for p in parts] == [(0, 0), (1, 1), (2, 2), (3, 3)]
        assert [p.entity_fields[0] if p.entity_fields else None for p in parts] == \
            [None, "eid-etype-head-other", "eid-etype-head-other", "GRP-etype-head-other"]
        assert _differences(whole, _batches_in_context(path)) == []


def test_batches_are_cut_every_so_many_sentences_at_a_document_start(tmp_path):
    docs = "".join(_sentence(f"d{d}" if n == 0 else None, n, {}, header=d == n == 0, sent_id=f"d{d}-{n}", words=40)
                   for d in range(6) for n in range(3))
    path = _write(tmp_path, "k.conllu", docs)
    parts = conllu_batches(str(path), 4 * BYTES_PER_SENTENCE)  # 4 sentences: a cut after every second document
    assert [(p.sentences_before, p.docs_before) for p in parts] == [(0, 0), (6, 2), (12, 4)]
    assert parts[0].start == 0 and parts[-1].end == path.stat().st_size
    assert all(a.end == b.start for a, b in zip(parts, parts[1:]))
    assert conllu_batches(str(path), path.stat().st_size) == []  # a file of one batch is read whole
    assert _differences(read_conllu(path), _batches_in_context(path, 4 * BYTES_PER_SENTENCE)) == []


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10 ** 6), sentences_per_batch=st.integers(1, 30))
def test_generated_files_in_batches_read_as_whole(tmp_path_factory, seed, sentences_per_batch):
    """Generated files (entity ids reused across documents, discontinuous mentions, empty nodes, Bridge and
    SplitAnte) cut anywhere between documents."""
    key, response = gen.generate_case(seed, 6, 5, gen.Params(reuse_eids=seed % 3 != 0))
    folder = tmp_path_factory.mktemp("gen")
    for name, text in (("k.conllu", key), ("r.conllu", response)):
        path = _write(folder, name, text)
        batches = _batches_in_context(path, sentences_per_batch * BYTES_PER_SENTENCE)
        if batches:
            assert _differences(read_conllu(path), batches) == []


# ---- what only the whole file settles


def _assert_same_error(path: Path) -> None:
    """Read whole and in batches, the file gives one error, word for word."""
    with pytest.raises(ParseError) as whole:
        read_conllu(path)
    with pytest.raises(ParseError) as batched:
        _batches_in_context(path)
    assert str(batched.value) == str(whole.value)


def test_a_sentence_id_repeated_across_a_cut_is_the_whole_files_error(tmp_path):
    text = _sentence("d1", 1, {}, header=True, sent_id="s1") + _sentence("d2", 1, {}, sent_id="s1")
    _assert_same_error(_write(tmp_path, "k.conllu", text))


def test_a_document_in_two_batches_is_the_whole_files_error(tmp_path):
    text = _sentence("d1", 1, {}, header=True) + _sentence("d2", 1, {}) + _sentence("d1", 2, {})
    _assert_same_error(_write(tmp_path, "k.conllu", text))


@pytest.mark.parametrize("blank_lines", [1, 2, 3, 4])
def test_blank_lines_between_documents(tmp_path, blank_lines):
    """The reader takes the newlines between two blocks two at a time: after an even number of blank lines
    the next document is said to start at the last of them, and a batch cut there says so too."""
    text = _sentence("d1", 1, {1: "Entity=(e1-x-1)"}, header=True) + "\n" * (blank_lines - 1) \
        + _sentence("d2", 1, {1: "Entity=(e1-x-1)"}) + "  \n" * (blank_lines - 1) + _sentence("d3", 1, {})
    path = _write(tmp_path, "k.conllu", text)
    whole = read_conllu(path)
    assert _differences(whole, _batches_in_context(path)) == []


def test_a_discontinuous_mention_completed_in_a_later_batch(tmp_path):
    """The reader completes the oldest waiting discontinuous mention of an id, even one of an earlier document:
    read in batches, where that cannot be, a clear error names the mention left incomplete; a mention left
    incomplete that nothing completes later reads as in the whole file."""
    first = _sentence("d1", 1, {1: "Entity=(e3[1/2]-x-1)", 3: "Entity=(e1-x-1)"}, header=True)
    later = _sentence("d2", 1, {1: "Entity=(e3[1/2]-x-1)", 3: "Entity=(e3[2/2]-x-1)"})
    path = _write(tmp_path, "k.conllu", first + later)
    whole = read_conllu(path)
    assert whole.words.keys[whole.words.offsets[0]:whole.words.offsets[1]].tolist() == [1 << 10, (1 << 24) + (3 << 10)]
    with pytest.raises(ParseError, match="discontinuous mention of 'e3' left incomplete here") as batched:
        _batches_in_context(path)
    assert batched.value.line == 4
    alone = _write(tmp_path, "alone.conllu", first + _sentence("d2", 1, {1: "Entity=(e1-x-1)"}))
    assert _differences(read_conllu(alone), _batches_in_context(alone)) == []


def test_links_to_entities_of_another_batch(tmp_path):
    """A Bridge to an entity mentioned only in an earlier document is fine; to none, the whole file's error."""
    first = _sentence("d1", 1, {1: "Entity=(e1-x-1)"}, header=True)
    fine = first + _sentence("d2", 1, {2: "Entity=(e2-x-1)|Bridge=e1<e2"})
    path = _write(tmp_path, "fine.conllu", fine)
    assert _differences(read_conllu(path), _batches_in_context(path)) == []
    _assert_same_error(_write(tmp_path, "bad.conllu", first + _sentence("d2", 1, {2: "Entity=(e2-x-1)|Bridge=e9<e2"})))



def test_links_before_their_entity_across_batches(tmp_path):
    """A link naming an entity opened only later (in its batch or a later one) stops the file as when read
    whole (udapi reads links node by node, on nodes with an Entity value); one opened in an earlier batch is
    known."""
    first = _sentence("d1", 1, {1: "Entity=(e1-x-1)"}, header=True)
    fine = first + _sentence("d2", 1, {2: "Entity=(e3-x-1)|Bridge=e2<e1", 3: "Entity=(e2-x-1)"})
    path = _write(tmp_path, "fine.conllu", fine)
    assert _differences(read_conllu(path), _batches_in_context(path)) == []
    _assert_same_error(_write(tmp_path, "later.conllu", _sentence("d1", 1, {1: "Entity=(e1-x-1)|SplitAnte=e1<e2"},
                                                                   header=True)
                              + _sentence("d2", 1, {2: "Entity=(e2-x-1)"})))
    _assert_same_error(_write(tmp_path, "same.conllu", first + _sentence("d2", 1, {2: "Entity=(e3-x-1)|Split=e1<e2",
                                                                                    3: "Entity=(e2-x-1)"})))


@settings(max_examples=200, deadline=None, derandomize=True)  # the same files in every run
@given(seed=st.integers(0, 10 ** 6))
def test_fuzzed_files_in_batches_fail_or_read_as_whole(tmp_path_factory, seed):
    """Generated files with lines mutated: read in batches, a file gives the whole file's error (the same
    file, line, document and problem; a problem found across batches -- a link, a sentence id repeated across a
    cut, a document again -- and one the whole file finds only once every line is read -- a bad DEPS of a head,
    checked mention by mention in the order of the entities -- may come before or after another), or the whole
    file's table."""
    import random

    from fastscore.errors import FastscoreError
    from tests.strategies import mutate_lines

    key, _ = gen.generate_case(seed, 5, 4, gen.Params(reuse_eids=True))
    path = _write(tmp_path_factory.mktemp("fuzz"), "k.conllu", mutate_lines(key, random.Random(seed)))
    if len(conllu_batches(str(path), EVERY_DOCUMENT)) < 2:
        return  # a mutation left one document: the file is read whole
    try:
        whole = read_conllu(path)
    except FastscoreError as exc:
        with pytest.raises(FastscoreError) as batched:
            _batches_in_context(path)
        if not any(late in str(e) for e in (exc, batched.value) for late in LATE_PROBLEMS):
            assert str(batched.value) == str(exc)
        return
    try:
        batches = _batches_in_context(path)
    except ParseError as exc:  # the one file batches refuse to read: a mention the whole file completes later
        assert "left incomplete here" in str(exc) or "in this batch of the file" in str(exc)
        return
    assert _differences(whole, batches) == []


# ---- scoring


def _json(args: list[str]) -> dict:
    run = fastscore_in_process("coref", *args, "-o", "json", "--per-doc")
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    out.pop("signature")
    return out


@pytest.mark.parametrize("preset", ["crac2022", "crac2023", "crac2024"])
def test_scores_in_batches_are_those_of_the_whole_file(tmp_path, preset):
    """Anchor files joined into one key and one response (ids reused across their documents), scored whole
    and in batches of a document, in this process and two: the same JSON, to the last digit."""
    cases = ["syn08", "syn12", "syn36", "syn40", "gum_news_flag", "syn03_zeros_heavy"]
    for side in ("key", "response"):
        texts = [(CASES / f"{c}.{side}.conllu").read_text() for c in cases]
        texts = [t.replace("# newdoc id = ", f"# newdoc id = {c}-") for c, t in zip(cases, texts)]
        _write(tmp_path, f"{side}.conllu", "".join(t if t.endswith("\n\n") else t + "\n" for t in texts))
    files = [str(tmp_path / "key.conllu"), str(tmp_path / "response.conllu"), "--preset", preset]
    whole = _json(files)
    assert whole["documents"] > 10
    assert _json([*files, "--batch-size", "1", "--jobs", "1"]) == whole
    assert _json([*files, "--batch-size", "3K", "--jobs", "2"]) == whole


def test_key_and_response_of_other_sentences_in_batches(tmp_path):
    """A response missing a document is cut elsewhere than its key: a clear error, no score."""
    key = "".join(_sentence(f"d{d}", 1, {1: "Entity=(e1-x-1)", 2: "Entity=(e1-x-1)"}, header=d == 0)
                  for d in range(4))
    response = "".join(_sentence(f"d{d}", 1, {1: "Entity=(e1-x-1)", 2: "Entity=(e1-x-1)"}, header=d == 0)
                       for d in (0, 2, 3))
    k, r = _write(tmp_path, "k.conllu", key), _write(tmp_path, "r.conllu", response)
    run = fastscore_in_process("coref", k, r, "--batch-size", "2K")
    assert run.returncode == 1 and "Traceback" not in run.stderr, run.stderr
    assert run.stderr.startswith("fastscore: error:") and run.stderr.count("\n") == 1, run.stderr


def test_api_reads_a_large_conllu_file_in_batches(tmp_path):
    key, response = gen.generate_case(11, 8, 6, gen.Params(reuse_eids=True))
    k, r = _write(tmp_path, "k.conllu", key), _write(tmp_path, "r.conllu", response)
    whole = score_corpus(k, r, batch_size=10 ** 9, jobs=1)
    batched = score_corpus(k, r, batch_size=2 * BYTES_PER_SENTENCE, jobs=1)
    assert batched.to_dict(per_doc=True)["metrics"] == whole.to_dict(per_doc=True)["metrics"]
    assert batched.doc_stats.doc_names == whole.doc_stats.doc_names
    assert np.array_equal(batched.doc_stats.matrix, whole.doc_stats.matrix)


@pytest.mark.slow  # a LocalCluster's start (tests/test_shards.py keeps one in the default run)
def test_batches_on_dask(tmp_path):
    """Batches read on Dask workers, their contexts applied there: the numbers of the whole file."""
    pytest.importorskip("dask.distributed")
    key, response = gen.generate_case(5, 8, 6, gen.Params(reuse_eids=True))
    k, r = _write(tmp_path, "k.conllu", key), _write(tmp_path, "r.conllu", response)
    whole = score_corpus(k, r, batch_size=10 ** 9, jobs=1)
    on_dask = score_corpus(k, r, batch_size=2 * BYTES_PER_SENTENCE, jobs=2, executor="dask")
    assert np.array_equal(on_dask.doc_stats.matrix, whole.doc_stats.matrix)
    assert on_dask.doc_stats.doc_names == whole.doc_stats.doc_names


@pytest.mark.slow  # two runs over a 40 MB file, each in a process of its own (memory measured)
def test_conllu_streaming_memory_is_bounded_by_the_batch(tmp_path):
    """A CoNLL-U file of ~40 MB (anchor documents over and over) read in batches of 2 MB: the peak stays well
    below reading it whole, and the numbers are the same."""
    texts = [(CASES / f"{c}.key.conllu").read_text() for c in ("gum_news_flag", "gum_news_crane", "syn40")]
    big = tmp_path / "big.conllu"
    with big.open("w") as out:
        for copy in range(400):
            for n, text in enumerate(texts):
                out.write(text.replace("# newdoc id = ", f"# newdoc id = c{copy}-{n}-").rstrip("\n") + "\n\n")
    size_kb = big.stat().st_size // 1024
    args = ["coref", str(big), str(big), "-o", "json", "--jobs", "1"]
    probe = ("import resource, subprocess, sys; out = subprocess.run(sys.argv[1:], check=True, capture_output=True)"
             ".stdout; print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss); print(out.decode())")
    peaks, outputs = [], []
    for size in ("1G", "2M"):
        run = subprocess.run([sys.executable, "-c", probe, *FASTSCORE, *args, "--batch-size", size],
                             capture_output=True, text=True, check=True)
        peak, out = run.stdout.split("\n", 1)
        peaks.append(int(peak))
        outputs.append({k: v for k, v in json.loads(out).items() if k != "signature"})
    assert outputs[0] == outputs[1]
    assert peaks[1] < peaks[0] - size_kb, (peaks, size_kb)


def test_a_response_without_a_batchs_documents(tmp_path):
    """A key in batches against a response holding only some of its documents: one clear error naming the
    documents (an empty table would have no sentences to check), as for CoNLL-U shards."""
    key = "".join(_sentence(f"d{d}", 1, {1: "Entity=(e1-x-1)", 2: "Entity=(e1-x-1)"}, header=d == 0)
                  for d in range(4))
    k, r = _write(tmp_path, "k.conllu", key), _write(tmp_path, "r.conllu", _sentence("d3", 1, {}, header=True))
    run = fastscore_in_process("coref", k, r, "--batch-size", "1")
    assert run.returncode == 1 and run.stderr.count("\n") == 1, run.stderr
    assert f"{r}: holds none of the documents of {k}" in run.stderr and '"d0"' in run.stderr


def test_blocks_of_comments_only_are_no_sentences_in_batches_either(tmp_path):
    """udapi drops a block without words: the batches after one number their sentences as the whole file."""
    text = (_sentence("d1", 1, {1: "Entity=(e1-x-1)"}, header=True) + "# a comment only\n\n"
            + _sentence("d2", 1, {2: "Entity=(e1-x-1)"}) + "# one more\n# sent_id = x\n\n"
            + _sentence("d3", 1, {3: "Entity=(e1-x-1)"}))
    path = _write(tmp_path, "comments.conllu", text)
    whole, parts = read_conllu(path), conllu_batches(str(path), EVERY_DOCUMENT)
    assert len(parts) == 3 and [p.sentences_before for p in parts] == [0, 1, 2]
    assert len(whole.sentences) == 3 and _differences(whole, _batches_in_context(path)) == []
