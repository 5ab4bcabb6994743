"""The CoNLL-U reader (the byte scanners of kernels/conllu_scan.py and their glue in formats/conllu.py)
against the line-by-line Python reader it replaced (tests/reference_conllu.py): the same table, sentences
and warnings for every file the reference reads, the same error (message, file, line, document) for every
file it rejects.  Files: generated CorefUD files (scripts/gen_conllu.py), random edits of them, lines that
only irregular files have (IDs not written canonically, Unicode blank lines, odd brackets and links,
mentions left open), the anchors and the official failure cases."""
from __future__ import annotations

import random
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fastscore.errors import FastscoreError
from fastscore.formats.conllu import read_conllu
from tests import reference_conllu
from tests.conftest import TESTDATA
from tests.strategies import mutate_lines

sys.path.insert(0, str(TESTDATA.parent.parent / "scripts"))
import gen_conllu as gen


def _read(reader, path):
    try:
        return reader(path)
    except FastscoreError as exc:
        return f"{type(exc).__name__}: {exc}"


def assert_same_read(path) -> bool:
    """The reader and the reference give the same table (or the same error); True if they read the file."""
    want, got = _read(reference_conllu.read_conllu, path), _read(read_conllu, path)
    if isinstance(want, str) or isinstance(got, str):
        assert got == want
        return False
    assert got.doc_names == want.doc_names and got.cluster_labels == want.cluster_labels
    for name in ("doc_lines", "doc_tokens", "doc_offsets", "start", "end", "cluster"):
        assert np.array_equal(np.asarray(getattr(got, name)), np.asarray(getattr(want, name))), name
    for name in ("offsets", "keys", "head", "zero", "dep_offsets", "dep_parent", "dep_rel", "lines"):
        assert np.array_equal(getattr(got.words, name), getattr(want.words, name)), name
    assert got.words.rel_names == want.words.rel_names
    assert list(got.sentences) == list(want.sentences)
    assert got.warnings == want.warnings
    return True


# lines only irregular files have: each edit puts one in place of, or after, a random line
_ODD_LINES = [
    "", " ", "\u00a0", "\u2003\t", "\x0b", "# newdoc", "# newdoc id = d1", "# sent_id = s1", "#\u00a0sent_id = x",
    "# global.Entity = eid-etype-head-other", "# global.Entity = GRP-etype-head", "# global.Entity = etype-head",
    "# global.Entity = eid-head-head", "x\ty", "01\tw\tw\tX\t_\t_\t0\troot\t_\t_", "1.10\tw\t_\t_\t_\t_\t_\t_\t_\t_",
    "1.0\tz\t_\t_\t_\t_\t_\t_\t_\t_", "3-4\tab\t_\t_\t_\t_\t_\t_\t_\tEntity=(e1)",
    "\u0661\tw\tw\tX\t_\t_\t0\troot\t_\tEntity=(e9-x-1)", "+2\tw\tw\tX\t_\t_\t0\troot\t_\t_",
    "1.1234\tw\t_\t_\t_\t_\t_\t_\t_\t_", "1\tw\tw\tX\t_\t_\t0\troot\t0:root\tEntity=(e1-x-2)",
    "5\tw", "3\tw\tw\tX\t_\t_\t0", "# a comment only", "# global.Entity = eid-etype",
]
_ODD_MISC = ["Entity=(e1-x-1", "Entity=e1)", "Entity=(e2[1/2]-x-1)", "Entity=(e2[2/2]-x-1)", "Entity=e2[2/2])",
             "Entity=()", "Entity=x", "Entity=(e1-x- 2)", "Entity=(e1-x-+1)", "Entity=(e1-x-0)", "Entity=(e1-x-a)",
             "Entity=(e1]-x-1)", "Entity=)", "Entity=(e1)(e1)e1)", "Entity=ab()", "Entity=()x", "Entity=(-x-1)",
             "Bridge=e1<e2", "Bridge=e1", "SplitAnte=e1<e9:x", "Entity=(e3[2/2]-x-0)", "Entity=(e1-x-7)",
             "Entity=(a:b-x-1)", "Entity=(e1-x-\u0662", "Entity=(e1-x-1)|Bridge=e1<e1", "Entity=(e2-x-1)|SplitAnte=e9<e2",
             "Entity=(e1-x-1)|Bridge=a<b<c", "Entity=(e3-x-1)|SplitAnte=e2<e1:x", "Entity=(e2-x-1)|Split=e1<e2"]
_ODD_DEPS = ["0:root", "01:x", "1.10:y", "1-2:z", "9:w", "x", "", "1:a|0:b", "0.1:c", "+1:d"]
_ODD_HEADS = ["_", "x", "", "-1", "-2", "99", "-99", "+1", " 2", "\u0663", "1_0", "2", "3", "1.1"]


def _odd_edit(text: str, rng: random.Random) -> str:
    """Up to four edits that make a file irregular (or wrong) the way real files are."""
    lines = text.split("\n")
    for _ in range(rng.randint(1, 4)):
        i = rng.randrange(len(lines))
        cols = lines[i].split("\t")
        kind = rng.randrange(6)
        if kind == 0:
            lines.insert(i, rng.choice(_ODD_LINES))
        elif kind == 1:
            lines[i] = rng.choice(_ODD_LINES)
        elif kind == 2 and len(cols) == 10:
            cols[9] = rng.choice(_ODD_MISC) if rng.random() < 0.7 else cols[9] + "|" + rng.choice(_ODD_MISC)
            lines[i] = "\t".join(cols)
        elif kind == 3 and len(cols) == 10:  # DEPS, or a HEAD udapi may read no tree from (its own ID: a loop)
            if rng.random() < 0.5:
                cols[8] = rng.choice(_ODD_DEPS)
            else:
                cols[6] = rng.choice(_ODD_HEADS + [cols[0]])
            lines[i] = "\t".join(cols)
        elif kind == 4 and len(cols) == 10:  # an ID written otherwise, or two lines swapped
            cols[0] = rng.choice(["0" + cols[0], cols[0] + "0" if "." in cols[0] else cols[0], cols[0] + ".",
                                  " " + cols[0]])
            lines[i] = "\t".join(cols)
        elif i + 1 < len(lines):
            lines[i], lines[i + 1] = lines[i + 1], lines[i]
    return "\n".join(lines)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10 ** 6), st.sampled_from(["none", "mutate", "odd"]), st.booleans())
def test_reads_generated_files_as_the_reference(tmp_path_factory, seed, edit, ties):
    p = gen.Params(ties=ties, p_twin_heads=0.2 if ties else 0.0, reuse_eids=seed % 2 == 0,
                   p_head_outside=0.1 if seed % 3 == 0 else 0.0)
    key, response = gen.generate_case(seed, 2, 8, p)
    rng = random.Random(seed)
    folder = tmp_path_factory.mktemp("read")
    for n, text in enumerate((key, response)):
        if edit == "mutate":
            text = mutate_lines(text, rng)
        elif edit == "odd":
            text = _odd_edit(text, rng)
        path = folder / f"f{n}.conllu"
        path.write_text(text, encoding="utf-8")
        read = assert_same_read(path)
        assert read or edit != "none"


def _fuzz(folder, seeds: range) -> dict[bool, int]:
    """Edited generated files (keys and responses): how many were read, how many refused (both compared)."""
    outcomes = {True: 0, False: 0}
    for seed in seeds:
        p = gen.Params(reuse_eids=seed % 2 == 0, p_head_outside=0.1 if seed % 3 == 0 else 0.0, ties=seed % 5 == 0)
        rng = random.Random(seed)
        for n, text in enumerate(gen.generate_case(seed, 2, 6, p)):
            edit = seed % 4
            text = (_odd_edit(text, rng) if edit < 2 else mutate_lines(text, rng) if edit == 2
                    else _odd_edit(mutate_lines(text, rng), rng))
            path = folder / f"f{seed}-{n}.conllu"
            path.write_text(text, encoding="utf-8")
            outcomes[assert_same_read(path)] += 1
    return outcomes


def test_fuzzed_files_read_as_the_reference(tmp_path):
    """Many edited files at once: both outcomes, table and error, occur often."""
    outcomes = _fuzz(tmp_path, range(100))
    assert min(outcomes.values()) >= 40, outcomes


@pytest.mark.slow
def test_many_fuzzed_files_read_as_the_reference(tmp_path):
    """3,000 edited files (about 10 s)."""
    outcomes = _fuzz(tmp_path, range(100, 1600))
    assert min(outcomes.values()) >= 1000, outcomes


def test_reads_every_anchor_and_failure_file_as_the_reference():
    files = sorted((TESTDATA / "corefud_anchors" / "cases").glob("*.conllu"))
    files += sorted((TESTDATA / "corefud_anchors" / "failures").glob("*.conllu"))
    assert len(files) > 10
    for path in files:
        assert_same_read(path)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10 ** 6), st.booleans())
def test_reads_batches_as_the_reference(tmp_path_factory, seed, odd):
    """A large file's batches (ConlluPart: the header in force, documents and sentences before them) read as
    the reference reads them, with the facts only the whole file settles."""
    from fastscore.formats.conllu_batches import BYTES_PER_SENTENCE, conllu_batches

    key, _ = gen.generate_case(seed, 4, 6, gen.Params(reuse_eids=seed % 2 == 0, p_discontinuous=0.2))
    if odd:
        key = _odd_edit(key, random.Random(seed))
    path = tmp_path_factory.mktemp("batches") / "k.conllu"
    path.write_text(key, encoding="utf-8")
    try:
        parts = conllu_batches(str(path), 3 * BYTES_PER_SENTENCE)
    except FastscoreError:
        return
    for part in parts:
        if assert_same_read(part):
            want, got = reference_conllu.read_conllu(part).batch, read_conllu(part).batch
            assert (got.grp, got.docs_before, got.unresolved, got.left_open, got.continued) == (
                want.grp, want.docs_before, want.unresolved, want.left_open, want.continued)


def test_head_columns_read_as_the_reference(tmp_path):
    """Sentences of random HEAD values (numbers in and out of range, negative, '_', text, loops, cycles): the
    reader finds the sentences udapi builds no tree from, and tells the first, as the reference (one by one)."""
    rng = random.Random(7)
    seen = set()
    for n in range(40):
        rows = ["# newdoc id = d1", "# global.Entity = eid-etype-head-other"]
        for s in range(6):
            size = rng.randint(1, 5)
            rows += [f"# sent_id = s{s}"]
            for i in range(1, size + 1):
                head = rng.choice([str(rng.randint(-size - 2, size + 1)), "_", "x", "\u0661", " 1"])
                rows.append(f"{i}\tw\tw\tX\t_\t_\t{head}\tdep\t_\t" + ("Entity=(e1-x-1)" if i == 1 else "_"))
            rows.append("")
        path = tmp_path / f"h{n}.conllu"
        path.write_text("\n".join(rows) + "\n", encoding="utf-8")
        assert assert_same_read(path)
        seen.update(w.rsplit(": ", 1)[-1].split(" ")[0] for w in read_conllu(path).warnings if "HEAD column" in w)
    assert {"HEAD", "a"} <= seen, seen  # (some files have each kind of problem)
