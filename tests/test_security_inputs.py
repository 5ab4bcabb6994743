"""Hostile values read from input files (issue 35, items 7 and 8): an offset out of range, a count no table
can hold, a NUL byte in an id that names a file.  Each gets one message naming the file, the line (where the
format has lines) and the value, exit code 1, never a crash, a traceback or memory in proportion to the value.

The compiled kernels crashed the process on a negative TBF span (a segfault), so the TBF cases run in this
process (the kernels as the test run compiles them) and, once, in a process with ``NUMBA_DISABLE_JIT=1``."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from fastscore.api import score
from fastscore.cli import main
from fastscore.errors import InputError, ParseError

from .conftest import ROOT, TESTDATA

TBF = ("#BeginOfDocument d1\n"
       "sys\td1\tE1\t{span}\tmade way\tMovement_Transport-Person\tActual\n"
       "sys\td1\tE2\t20,26\tresign\tPersonnel_End-Position\tActual\n"
       "#EndOfDocument\n")


def _tbf(tmp_path, span: str, name: str = "s.tbf", doc: str = "d1"):
    path = tmp_path / name
    path.write_text(TBF.format(span=span).replace("d1", doc), encoding="utf-8")
    return path


def _one_line_error(capsys, code: int) -> str:
    err = capsys.readouterr().err
    assert code == 1, err
    assert "Traceback" not in err and err.count("\n") == 1, err
    return err


BAD_CHAR_SPANS = {
    "-5,8": "offset -5 is negative",  # a segfault with the compiled kernels, an IndexError without
    "-8,-4": "offset -8 is negative",
    "4,200000000": "more than 1048576 characters",  # 5.6 GiB
    "0,600000;700000,1300000": "more than 1048576 characters",  # the ranges together
    "4,99999999999999999999": "offset 99999999999999999999 is too large",  # int64 overflow in the kernel
}


@pytest.mark.parametrize("span", sorted(BAD_CHAR_SPANS))
def test_tbf_character_span_out_of_range_cli(tmp_path, capsys, span):
    gold = _tbf(tmp_path, "4,8", "g.tbf")
    system = _tbf(tmp_path, span)
    err = _one_line_error(capsys, main(["nugget", str(gold), str(system), "--char-spans"]))
    assert f"{system}:2:" in err and repr(span) in err and BAD_CHAR_SPANS[span] in err


@pytest.mark.parametrize("span", ["-5,8", "4,200000000"])
def test_tbf_character_span_out_of_range_api(tmp_path, span):
    gold = _tbf(tmp_path, span, "g.tbf")
    with pytest.raises(ParseError) as caught:
        score(gold, gold, task="nugget", char_spans=True)
    assert caught.value.path == str(gold) and caught.value.line == 2 and BAD_CHAR_SPANS[span] in str(caught.value)


@pytest.mark.parametrize("span", ["-5,8", "4,200000000"])
def test_tbf_character_span_out_of_range_without_jit(tmp_path, span):
    """The kernels as plain Python (an IndexError traceback; 5.6 GiB) give the same message."""
    gold = _tbf(tmp_path, "4,8", "g.tbf")
    system = _tbf(tmp_path, span)
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1", "PYTHONPATH": str(ROOT)}
    run = subprocess.run([sys.executable, "-m", "fastscore", "nugget", str(gold), str(system), "--char-spans"],
                         capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120)
    assert run.returncode == 1 and "Traceback" not in run.stderr, run.stderr
    assert f"{system}:2:" in run.stderr and BAD_CHAR_SPANS[span] in run.stderr


def test_tbf_character_spans_listing_too_many_characters_in_all(tmp_path):
    """Each mention under the limit of one, together more than a file of this size may list (8 bytes each: 20
    mentions of a million characters took 160 MB; a million such lines, 8 TB)."""
    lines = [f"sys\td1\tE{k}\t0,1000000\tx\tMovement_Transport-Person\tActual\n" for k in range(20)]
    path = tmp_path / "s.tbf"
    path.write_text("#BeginOfDocument d1\n" + "".join(lines) + "#EndOfDocument\n")
    with pytest.raises(ParseError, match="cover more than 4194304 characters in all") as caught:
        score(path, path, task="nugget", char_spans=True)
    assert caught.value.line == 2 and "'0,1000000'" in str(caught.value)


def _nugget_totals(gold, system):
    return score(gold, system, task="nugget", char_spans=True).doc_stats.total().tolist()


def test_tbf_far_character_offsets_score_as_near_ones(tmp_path):
    """Offsets far from 0 are what EvmEval scores: the same Dice as the same spans near 0, without memory in
    proportion to the offset (a counting sort over 10**15 characters before)."""
    far = 10 ** 15
    near = (_tbf(tmp_path, "4,8", "g.tbf"), _tbf(tmp_path, "6,10", "s.tbf"))
    (tmp_path / "far").mkdir()
    far_files = (_tbf(tmp_path / "far", f"{far + 4},{far + 8}", "g.tbf"),
                 _tbf(tmp_path / "far", f"{far + 6},{far + 10}", "s.tbf"))
    for path in far_files:  # the second mention far too
        path.write_text(path.read_text().replace("20,26", f"{far + 20},{far + 26}"))
    assert _nugget_totals(*far_files) == _nugget_totals(*near)


def test_nul_byte_in_document_id_naming_a_token_table(tmp_path, capsys):
    """The id names the token table ``DOCID.tab``: open() raised ``ValueError: embedded null byte``."""
    tokens = tmp_path / "tokens"
    tokens.mkdir()
    gold = _tbf(tmp_path, "t1,t2", "g.tbf", doc="d\x001")
    err = _one_line_error(capsys, main(["nugget", str(gold), str(gold), "--tokens", str(tokens)]))
    assert f"{gold}:1:" in err
    with pytest.raises(InputError):
        score(gold, gold, task="nugget", tokens=str(tokens))


# jsonlines: spans [start, end] (inclusive) inside the document's tokens (checked before this issue: guards)
BAD_JSONL_SPANS = [[-1, 0], [0, 10 ** 12], [3, 1], [10 ** 19, 10 ** 19], [2 ** 31, 2 ** 31 + 1]]


@pytest.mark.parametrize("span", BAD_JSONL_SPANS, ids=lambda s: f"{s[0]}_{s[1]}")
def test_jsonl_span_out_of_range(tmp_path, capsys, span):
    path = tmp_path / "d.jsonl"
    path.write_text(json.dumps({"doc_key": "d1", "sentences": [["a", "b", "c", "d"]],
                                "clusters": [[[0, 0], span]]}) + "\n")
    err = _one_line_error(capsys, main(["coref", str(path), str(path)]))
    assert f"{path}:1:" in err and f"[{span[0]}, {span[1]}]" in err
    with pytest.raises(ParseError):
        score(path, path)


def _table(tmp_path, name: str, **meta):
    """The mention table of an anchor case, its ``fastscore.mentions`` metadata changed by ``meta``."""
    import pyarrow.parquet as pq

    from fastscore.coref.convert import convert_columnar

    source = tmp_path / "source.parquet"
    if not source.exists():
        convert_columnar(TESTDATA / "anchors" / "case-001.key", source, "parquet")
    table = pq.read_table(source)
    info = json.loads(table.schema.metadata[b"fastscore.mentions"])
    n = len(info["doc_tokens"])
    info.update({k: [v] * n for k, v in meta.items()})
    path = tmp_path / name
    pq.write_table(table.replace_schema_metadata({**table.schema.metadata,
                                                  b"fastscore.mentions": json.dumps(info).encode()}), path)
    return source, path


TABLE_COUNTS = {
    "tokens-1e300": {"doc_tokens": 1e300},  # OverflowError traceback
    "tokens-2**31-1": {"doc_tokens": 2 ** 31 - 1},  # valid-looking: 16 GiB for the kernels' counting sorts
    "tokens-negative": {"doc_tokens": -5},
    "tokens-fraction": {"doc_tokens": 16.5},  # read as 16 in silence
    "lines-1e30": {"doc_lines": 10 ** 30},  # OverflowError traceback
}


@pytest.mark.parametrize("case", sorted(TABLE_COUNTS))
def test_mention_table_counts_out_of_range(tmp_path, capsys, case):
    ((key, value),) = TABLE_COUNTS[case].items()
    source, path = _table(tmp_path, "bad.parquet", **{key: value})
    with pytest.raises(InputError, match=rf"{key}.*whole number"):
        score(path, path)
    err = _one_line_error(capsys, main(["coref", str(source), str(path)]))
    assert str(path) in err and key in err


@pytest.mark.parametrize("spans", [["--char-spans"], ["--tokens", "tokens"]])
def test_tbf_number_past_ints_digit_limit(tmp_path, capsys, monkeypatch, spans):
    """int() refuses more than 4,300 digits (a ValueError traceback, in character and token mode alike)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "tokens").mkdir()
    path = _tbf(tmp_path, "1," + "9" * 5000)
    err = _one_line_error(capsys, main(["nugget", str(path), str(path), *spans]))
    assert f"{path}:2:" in err


def test_conll_part_number_past_ints_digit_limit(tmp_path):
    """A part number of 5,000 digits (a document key of jsonlines) written as CoNLL-2012 (a ValueError before)."""
    source = tmp_path / "d.jsonl"
    part = "9" * 5000
    source.write_text(json.dumps({"doc_key": f"(d1); part {part}", "sentences": [["a", "b"]],
                                  "clusters": [[[0, 0], [1, 1]]]}) + "\n")
    assert main(["convert", str(source), str(tmp_path / "d.conll"), "--to", "conll2012"]) == 0
    assert (tmp_path / "d.conll").read_text().startswith(f"#begin document (d1); part {part}\n")


def test_jsonl_number_past_ints_digit_limit(tmp_path, capsys):
    """json.loads raises a plain ValueError (not a JSONDecodeError) for a number of more than 4,300 digits."""
    path = tmp_path / "d.jsonl"
    path.write_text('{"doc_key": "d1", "sentences": [["a", "b"]], "clusters": [[[0, ' + "9" * 5000 + "]]]}\n")
    err = _one_line_error(capsys, main(["coref", str(path), str(path)]))
    assert f"{path}:1:" in err and "4,300 digits" in err
    with pytest.raises(ParseError):
        score(path, path)
