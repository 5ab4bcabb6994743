"""Mention tables as Parquet and Arrow files (issue 13: parsed once, read back without parsing)."""
from __future__ import annotations

import json
import warnings
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import given, settings

import fastscore
from fastscore.errors import InputError, UsageError
from fastscore.formats.columnar import read_mention_table, write_mention_table
from fastscore.formats.conllu import read_conllu
from fastscore.formats.table import MentionTable

from tests.conftest import fastscore_in_process
from tests.strategies import corpora

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
        # allow_repeated: some cases have more repeats than v8.01's `all` mode scores (3 x 5 metrics > 10)
        direct = fastscore.score_coref(ANCHORS / f"{case}.key", ANCHORS / f"{case}.response",
                                       allow_repeated=True).to_dict(per_doc=True)
        columnar = fastscore.score_coref(tmp_path / f"k.{kind}", tmp_path / f"r.{kind}",
                                         allow_repeated=True).to_dict(per_doc=True)
    # the signature names the input format read (told from the content): the rest is the same
    assert columnar.pop("signature") == direct.pop("signature").replace("|version:", f"|format:{kind}|version:")
    assert columnar == direct


def test_documents_without_mentions_are_kept(tmp_path):
    table = fastscore.MentionTable.from_documents({"a": [[(0, 1), (2, 3)]], "empty": [], "b": [[(1, 2)], [(0, 1)]]},
                                                  {"a": 5, "empty": 7, "b": 3})
    write_mention_table(table, tmp_path / "t.parquet", "parquet")
    back = read_mention_table(tmp_path / "t.parquet")
    _same(back, table)
    assert back.doc_tokens.tolist() == [5, 7, 3]



@pytest.mark.parametrize("kind", ["parquet", "arrow"])
def test_a_table_without_any_mention_keeps_its_documents(tmp_path, kind):
    # a file of no rows keeps no dictionary of documents (a system that found nothing): the metadata does
    table = fastscore.MentionTable.from_documents({"a": [], "b": []}, {"a": 5, "b": 3})
    write_mention_table(table, tmp_path / f"t.{kind}", kind)
    back = read_mention_table(tmp_path / f"t.{kind}")
    _same(back, table)
    assert back.doc_tokens.tolist() == [5, 3]
    arrow = pq.read_table(tmp_path / "t.parquet") if kind == "parquet" else table.to_arrow()
    meta = json.loads(arrow.schema.metadata[b"fastscore.mentions"])
    pq.write_table(arrow.replace_schema_metadata({b"fastscore.mentions": json.dumps({**meta, "doc_names": [1, 2]})}),
                   tmp_path / "bad.parquet")
    with pytest.raises(InputError, match="bad.parquet: its metadata 'doc_names' is not a list of document names"):
        read_mention_table(tmp_path / "bad.parquet")


COREFUD_EXPECTED = json.loads((DATA / "corefud_anchors" / "expected.json").read_text())["cases"]


# one case in the default run; the others (12 command runs each) in the slow run
@pytest.mark.parametrize("case", ["gum_news_asylum", *(pytest.param(c, marks=pytest.mark.slow) for c in
                                                     ("syn03_zeros_heavy", "syn04_ties_heavy", "syn17"))])
def test_conllu_tables_as_files_agree_with_the_corefud_scorer(tmp_path, case):
    """CoNLL-U files converted to Parquet (key) and Arrow (response): the official report, as the CorefUD
    scorer printed it for the CoNLL-U files, in all 12 configurations."""
    spec = COREFUD_EXPECTED[case]
    key, response = tmp_path / "k.parquet", tmp_path / "r.arrow"
    for source, target, kind in ((spec["key"], key, "parquet"), (spec["response"], response, "arrow")):
        run = _cli("convert", DATA / "corefud_anchors" / source, target, "--to", kind)
        assert run.returncode == 0, run.stderr
    for config, result in spec["results"].items():
        mode, singletons, zeros = config.split("-")
        run = _cli("coref", key, response, "--match", mode, "--singletons", singletons, "--zero-match", zeros,
                   "-o", "corefud")
        assert run.returncode == 0 and run.stdout == result["stdout"], (config, run.stderr)


def test_conllu_tables_as_files_check_the_sentences(tmp_path, shared_data):
    """A table file keeps digests of its sentences' words: a response with another word or fewer sentences
    is refused, naming the lines of the CoNLL-U file; a preset reads the tables; a span preset refuses them."""
    source = shared_data / "gum/coref/ontogum/conllu/GUM_academic_art.conllu"
    text = source.read_text(encoding="utf-8")
    assert _cli("convert", source, tmp_path / "k.parquet", "--to", "parquet").returncode == 0
    lines = text.split("\n")
    n = next(i for i, line in enumerate(lines) if line.startswith("1\t") and i > 200)
    fields = lines[n].split("\t")
    lines[n] = "\t".join([fields[0], fields[1] + "x", *fields[2:]])
    (tmp_path / "other-word.conllu").write_text("\n".join(lines), encoding="utf-8")
    run = _cli("coref", tmp_path / "k.parquet", tmp_path / "other-word.conllu")
    assert run.returncode == 1 and "its words differ from the key's" in run.stderr
    assert f"other-word.conllu:{n + 1}: " in run.stderr and f"GUM_academic_art.conllu:{n + 1})" in run.stderr
    cut = text.index("\n\n", len(text) // 2) + 2
    (tmp_path / "fewer.conllu").write_text(text[:cut], encoding="utf-8")
    run = _cli("coref", tmp_path / "k.parquet", tmp_path / "fewer.conllu")
    assert run.returncode == 1 and "key and response must have the same sentences" in run.stderr
    same = _cli("coref", tmp_path / "k.parquet", source, "--preset", "crac2022", "-o", "corefud")
    assert same.returncode == 0 and same.stdout == _cli("coref", source, source, "--preset", "crac2022",
                                                        "-o", "corefud").stdout
    other = shared_data / "gum/coref/ontogum/conllu/GUM_court_carpet.conllu"
    run = _cli("coref", tmp_path / "k.parquet", other)
    assert run.returncode == 1 and "the '# newdoc id' values must be the same" in run.stderr
    run = _cli("coref", tmp_path / "k.parquet", source, "--preset", "conll2012")
    assert run.returncode == 2 and "a CoNLL-U (CorefUD) file, but --preset conll2012" in run.stderr
    assert "use --preset crac2022 or crac2023 or crac2024 or crac2025" in run.stderr


def _cli(*args):
    return fastscore_in_process(*args)


@settings(max_examples=60, deadline=None)
@given(corpora())
def test_span_tables_to_arrow_and_back(docs):
    table = MentionTable.from_documents(docs[0])
    _same(MentionTable.from_arrow(table.to_arrow()), table)


def _same_words(a, b) -> None:
    _same(a, b)
    assert np.array_equal(a.doc_lines, b.doc_lines)
    wa, wb = a.words, b.words
    for name in ("offsets", "keys", "head", "zero", "dep_offsets", "dep_parent", "lines"):
        assert np.array_equal(getattr(wa, name), getattr(wb, name)), name
    assert [wa.rel_names[c] for c in wa.dep_rel] == [wb.rel_names[c] for c in wb.dep_rel]


CONLLU_CASES = sorted((DATA / "corefud_anchors" / "cases").glob("*.conllu"))


@pytest.mark.parametrize("path", CONLLU_CASES[::9], ids=lambda p: p.name)
def test_conllu_tables_to_arrow_and_back(path, tmp_path):
    """CoNLL-U tables (word keys past int32, nodes, heads, zeros, DEPS) through Arrow and back, rows in any
    order; scoring them without their sentences is refused, not silently unchecked."""
    table = read_conllu(path)
    arrow = table.to_arrow()
    assert arrow.column("start").type == pa.int64()
    _same_words(MentionTable.from_arrow(arrow, "t"), table)
    # rows in another order (clusters and documents shuffled, each cluster's rows in their order)
    group = arrow.column("doc").combine_chunks().indices.to_numpy() * 10_000 + arrow.column("cluster").to_numpy()
    rank = np.random.default_rng(0).permutation(int(group.max()) + 1)[group]
    shuffled = arrow.take(np.argsort(rank, kind="stable"))
    _same_words(MentionTable.from_arrow(shuffled, "t"), table)
    with pytest.raises(InputError, match="without its sentences"):
        fastscore.score_coref(MentionTable.from_arrow(arrow, "t"), path)
    with pytest.raises(UsageError, match="without its sentences"):
        write_mention_table(MentionTable.from_arrow(arrow, "t"), tmp_path / "never-written.parquet", "parquet")


def test_conllu_tables_past_int32(shared_data, tmp_path):
    """A CoNLL-U file of more than 127 sentences: its word keys do not fit int32 (to_arrow raised before)."""
    files = sorted((shared_data / "gum/coref/ontogum/conllu").glob("*.conllu"))[:4]
    (tmp_path / "four.conllu").write_text("".join(f.read_text(encoding="utf-8") for f in files), encoding="utf-8")
    table = read_conllu(tmp_path / "four.conllu")
    assert table.start.max() > np.iinfo(np.int32).max
    _same_words(MentionTable.from_arrow(table.to_arrow()), table)


def test_bad_conllu_tables():
    arrow = read_conllu(CONLLU_CASES[0]).to_arrow()
    nodes = arrow.column("nodes").to_pylist()
    nodes[1] = nodes[1][::-1] if len(nodes[1]) > 1 else [nodes[1][0] + 1]
    bad = arrow.set_column(arrow.column_names.index("nodes"), "nodes", pa.array(nodes, pa.list_(pa.int64())))
    with pytest.raises(InputError, match="row 1 .*nodes must be sorted word keys"):
        MentionTable.from_arrow(bad, "t")
    nodes = arrow.column("nodes").to_pylist()
    nodes[3] = []
    bad = arrow.set_column(arrow.column_names.index("nodes"), "nodes", pa.array(nodes, pa.list_(pa.int64())))
    with pytest.raises(InputError, match="row 3 .*nodes must be sorted word keys"):
        MentionTable.from_arrow(bad, "t")
    with pytest.raises(InputError, match="needs the columns head"):
        MentionTable.from_arrow(arrow.drop(["head"]), "t")
    heads = arrow.column("head").to_pylist()
    heads[2] = None
    bad = arrow.set_column(arrow.column_names.index("head"), "head", pa.array(heads, pa.int64()))
    with pytest.raises(InputError, match="row 2 .*no 'head'"):
        MentionTable.from_arrow(bad, "t")


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
    out = _cli("convert", ANCHORS / "case-003.key", tmp_path / "k.parquet", "--to", "parquet")
    assert out.returncode == 0, out.stderr
    out = _cli("convert", ANCHORS / "case-003.response", tmp_path / "r.arrow", "--to", "arrow")
    assert out.returncode == 0, out.stderr
    # --allow-repeated: 4 repeats, which v8.01's `all` mode refuses (4 x 5 metrics > 10)
    columnar = _cli("coref", tmp_path / "k.parquet", tmp_path / "r.arrow", "--output", "perl", "--allow-repeated")
    direct = _cli("coref", ANCHORS / "case-003.key", ANCHORS / "case-003.response", "--output", "perl",
                  "--allow-repeated")
    assert direct.returncode == 0, direct.stderr
    assert columnar.returncode == 0 and columnar.stdout == direct.stdout
    assert _cli("convert", ANCHORS / "case-003.key", "-", "--to", "parquet").returncode == 2


def test_mutated_table_files_give_one_clear_error(tmp_path):
    """Seeded corruptions of a CoNLL-U table file (columns dropped, retyped or shuffled, metadata cut or
    changed): read back as a table or refused with an InputError, never another exception."""
    import random

    write_mention_table(read_conllu(CONLLU_CASES[0]), tmp_path / "good.parquet", "parquet")
    good = pq.read_table(tmp_path / "good.parquet")
    rng = random.Random(5)
    refused = 0
    for n in range(60):
        table = good
        for _ in range(rng.randint(1, 3)):
            name = rng.choice(table.column_names)
            i = table.column_names.index(name)
            edit = rng.randrange(5)
            if edit == 0:
                table = table.drop([name])
            elif edit == 1:
                table = table.set_column(i, name, pa.array([str(x) for x in table.column(name).to_pylist()]))
            elif edit == 2:
                table = table.set_column(i, name, table.column(name).take(
                    pa.array(rng.sample(range(table.num_rows), table.num_rows))))
            else:
                meta = dict(table.schema.metadata or {})
                key = rng.choice(sorted(meta)) if meta else b"x"
                value = meta.get(key, b"{}")
                meta[key] = value[: rng.randrange(len(value) + 1)] if edit == 3 else value.replace(b"1", b"7")
                table = table.replace_schema_metadata(meta)
        pq.write_table(table, tmp_path / f"m{n}.parquet")
        try:
            read_mention_table(tmp_path / f"m{n}.parquet")
        except InputError:
            refused += 1
    assert refused > 10  # the corruptions do reach the checks
