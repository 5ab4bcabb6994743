"""Mention tables as Parquet and Arrow files (issue 13: parsed once, read back without parsing)."""
from __future__ import annotations

import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import fastscore
from fastscore.errors import InputError, UsageError
from fastscore.formats.columnar import read_mention_table, write_mention_table

DATA = Path(__file__).parent / "data"
ANCHORS = DATA / "anchors"


def _same(a, b) -> None:
    assert a.doc_names == b.doc_names and a.cluster_labels == b.cluster_labels
    for name in ("doc_tokens", "doc_offsets", "start", "end", "cluster"):
        assert np.array_equal(getattr(a, name), getattr(b, name)), name


@pytest.mark.parametrize("kind", ["parquet", "arrow"])
@pytest.mark.parametrize("case", ["case-000", "case-007", "case-019"])
def test_round_trip_scores_the_same(tmp_path, kind, case):
    key = fastscore.read_conll(ANCHORS / f"{case}.key")
    resp = fastscore.read_conll(ANCHORS / f"{case}.response")
    for table, name in ((key, "k"), (resp, "r")):
        write_mention_table(table, tmp_path / f"{name}.{kind}", kind)
        _same(read_mention_table(tmp_path / f"{name}.{kind}"), table)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        direct = fastscore.score_coref(ANCHORS / f"{case}.key", ANCHORS / f"{case}.response").to_dict(per_doc=True)
        columnar = fastscore.score_coref(tmp_path / f"k.{kind}", tmp_path / f"r.{kind}").to_dict(per_doc=True)
    assert columnar == direct


def test_documents_without_mentions_are_kept(tmp_path):
    table = fastscore.MentionTable.from_documents({"a": [[(0, 1), (2, 3)]], "empty": [], "b": [[(1, 2)], [(0, 1)]]},
                                                  {"a": 5, "empty": 7, "b": 3})
    write_mention_table(table, tmp_path / "t.parquet", "parquet")
    back = read_mention_table(tmp_path / "t.parquet")
    _same(back, table)
    assert back.doc_tokens.tolist() == [5, 7, 3]


def test_conllu_tables_are_refused(tmp_path):
    conllu = sorted((DATA / "corefud_anchors" / "cases").glob("*.key.conllu"))[0]
    from fastscore.formats.conllu import read_conllu

    with pytest.raises(UsageError, match="CoNLL-U"):
        write_mention_table(read_conllu(conllu), tmp_path / "x.parquet", "parquet")


def test_bad_tables(tmp_path):
    table = fastscore.read_conll(ANCHORS / "case-001.key")
    write_mention_table(table, tmp_path / "good.parquet", "parquet")
    arrow = pq.read_table(tmp_path / "good.parquet")
    pq.write_table(arrow.drop(["label"]), tmp_path / "nolabel.parquet")
    with pytest.raises(InputError, match="no column label"):
        read_mention_table(tmp_path / "nolabel.parquet")
    pq.write_table(arrow.replace_schema_metadata({}), tmp_path / "nometa.parquet")
    with pytest.raises(InputError, match="token counts"):
        read_mention_table(tmp_path / "nometa.parquet")
    end = arrow.column("end").to_numpy().copy()
    end[0] = 10 ** 6
    bad = arrow.set_column(arrow.column_names.index("end"), "end", pa.array(end, pa.int32()))
    pq.write_table(bad, tmp_path / "outside.parquet")
    with pytest.raises(InputError, match="row 0 .* not inside the document"):
        read_mention_table(tmp_path / "outside.parquet")


def test_command_line(tmp_path):
    def run(*args):
        return subprocess.run([sys.executable, "-m", "fastscore", *map(str, args)], capture_output=True, text=True)

    out = run("convert", ANCHORS / "case-003.key", tmp_path / "k.parquet", "--to", "parquet")
    assert out.returncode == 0, out.stderr
    out = run("convert", ANCHORS / "case-003.response", tmp_path / "r.arrow", "--to", "arrow")
    assert out.returncode == 0, out.stderr
    columnar = run("coref", tmp_path / "k.parquet", tmp_path / "r.arrow", "--output", "perl")
    direct = run("coref", ANCHORS / "case-003.key", ANCHORS / "case-003.response", "--output", "perl")
    assert columnar.returncode == 0 and columnar.stdout == direct.stdout
    assert run("convert", ANCHORS / "case-003.key", "-", "--to", "parquet").returncode == 2
