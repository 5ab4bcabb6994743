"""NAF coreference as a mention table (fastscore.formats.naf.read_naf_coref), scored through
fastscore.api.score_coref: within documents (one table document per file) and across documents (ECB+: one
table document per topic), against the pure-Python metrics of tests/reference.py on chains built by hand,
and against the same tables written as CoNLL files (a topic scored as one document, v8.01 semantics)."""
import sys
from pathlib import Path

import pytest

import fastscore.api
from fastscore.errors import ParseError
from fastscore.formats.conll import write_conll
from fastscore.formats.naf import read_naf_coref
from fastscore.formats.table import MentionTable
from tests import reference as ref

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
from gen_naf import generate_topic  # noqa: E402


@pytest.fixture(scope="module")
def topics(tmp_path_factory):
    out = tmp_path_factory.mktemp("topics")
    for t in range(4):
        key, resp = generate_topic(900 + t, n_docs=3 + t % 2)
        for side, docs in (("key", key), ("response", resp)):
            for name, text in docs.items():
                folder = out / side / name.split("_")[0]
                folder.mkdir(parents=True, exist_ok=True)
                (folder / name).write_text(text, encoding="utf-8")
    return out


def _chains_by_hand(folder: Path, cross: bool) -> dict[str, list[list[tuple[int, int]]]]:
    """The chains of every file (or topic), read with the standard library: spans of terms t<k> over
    tokens w<k>, numbered one file after the other inside a topic."""
    import xml.etree.ElementTree as ET

    out: dict[str, dict[str, list]] = {}
    bases: dict[str, int] = {}
    for topic in sorted(p for p in folder.iterdir() if p.is_dir()):
        for f in sorted(topic.iterdir()):
            root = ET.parse(f).getroot()
            key = topic.name if cross else f"{topic.name}/{f.name}"
            base = bases.get(key, 0)
            n_words = len(root.find("text"))
            chains = out.setdefault(key, {})
            for coref in root.iter("coref"):
                for span in coref.iter("span"):
                    toks = [int(t.get("id")[1:]) - 1 + base for t in span.iter("target")]
                    chains.setdefault(coref.get("id"), []).append((min(toks), max(toks) + 1))
            bases[key] = base + n_words
    return {k: list(v.values()) for k, v in out.items()}


@pytest.mark.parametrize("cross", [False, True], ids=["within", "cross"])
def test_naf_coref_scores_agree_with_the_reference_metrics(topics, cross):
    key = read_naf_coref(topics / "key", cross_document=cross)
    response = read_naf_coref(topics / "response", cross_document=cross)
    assert key.doc_names == response.doc_names
    if cross:
        assert key.doc_names == sorted(key.doc_names) and len(key.doc_names) == 4
    # the generated responses repeat a few spans: v8.01 counts them once per metric (refused at 3 in all mode)
    with pytest.warns(fastscore.FastscoreWarning, match="repeated response mention"):
        result = fastscore.api.score_coref(key, response, allow_repeated=True)
    want_key, want_resp = _chains_by_hand(topics / "key", cross), _chains_by_hand(topics / "response", cross)
    assert {n: sorted(map(sorted, key.document(i))) for i, n in enumerate(key.doc_names)} == \
        {n: sorted(map(sorted, c)) for n, c in want_key.items()}
    totals = {m: [0.0] * 4 for m in ("muc", "bcub", "ceafe")}
    for name in key.doc_names:
        stats = ref.document_stats(want_key[name], want_resp.get(name, []))
        for m in totals:
            totals[m] = [a + b for a, b in zip(totals[m], stats[m])]
    scores = result.scores()["metrics"]
    f1s = []
    for m, (rn, rd, pn, pd) in totals.items():
        r, p = rn / rd, (pn / pd if pd else 0)
        f = 2 * p * r / (p + r) if p + r else 0
        assert scores[m]["f1"] == pytest.approx(f, abs=1e-12)
        f1s.append(f)
    assert scores["conll"]["f1"] == pytest.approx(sum(f1s) / 3, abs=1e-12)  # MELA


def _without_repeats(table):
    """The table without a span's second and later mentions in a document: which repeat v8.01 drops depends
    on the chain order, which a CoNLL file decides by its brackets and a NAF file by its <coref> order."""
    docs, tokens = {}, {}
    for i, name in enumerate(table.doc_names):
        seen = set()
        chains = []
        for chain in table.document(i):
            kept = [s for s in chain if s not in seen]
            seen.update(kept)
            chains.append(kept)
        docs[name] = [c for c in chains if c]
        tokens[name] = int(table.doc_tokens[i])
    return MentionTable.from_documents(docs, tokens)


def test_a_topic_is_scored_as_one_document(topics, tmp_path):
    key = _without_repeats(read_naf_coref(topics / "key", cross_document=True))
    response = _without_repeats(read_naf_coref(topics / "response", cross_document=True))
    write_conll(key, tmp_path / "key.conll")
    write_conll(response, tmp_path / "response.conll")
    from_tables = fastscore.api.score_coref(key, response).scores()["metrics"]
    from_conll = fastscore.api.score_coref(tmp_path / "key.conll", tmp_path / "response.conll").scores()["metrics"]
    for m in ("muc", "bcub", "ceafe", "ceafm", "blanc", "conll"):
        assert from_tables[m]["f1"] == pytest.approx(from_conll[m]["f1"], abs=1e-12)


def test_cross_document_chains_join_across_files(tmp_path):
    def naf(words, corefs):
        text = "".join(f'<wf id="w{k}">{w}</wf>' for k, w in enumerate(words, 1))
        terms = "".join(f'<term id="t{k}"><span><target id="w{k}"/></span></term>' for k in range(1, len(words) + 1))
        return f"<NAF><text>{text}</text><terms>{terms}</terms><coreferences>{corefs}</coreferences></NAF>"

    (tmp_path / "5_1ecb.naf").write_text(naf(["Anna", "ran"], '<coref id="x"><span><target id="t1"/></span></coref>'))
    (tmp_path / "5_2ecb.naf").write_text(naf(["She", "won"], '<coref id="x"><span><target id="t1"/></span></coref>'
                                             '<coref id="y"><target id="5_1ecb#t2"/><span><target id="t2"/></span>'
                                             "</coref>"))
    within = read_naf_coref(tmp_path)
    assert within.doc_names == ["5_1ecb.naf", "5_2ecb.naf"]
    assert within.cluster_labels == [["x", "y"], ["x", "y"]]  # y's first mention is in 5_1ecb
    assert within.document(0) == [[(0, 1)], [(1, 2)]] and within.document(1) == [[(0, 1)], [(1, 2)]]
    cross = read_naf_coref(tmp_path, cross_document=True)
    assert cross.doc_names == ["5"] and int(cross.doc_tokens[0]) == 4
    assert cross.cluster_labels == [["x", "y"]]
    assert cross.document(0) == [[(0, 1), (2, 3)], [(1, 2), (3, 4)]]


def test_bad_targets_name_file_and_line(tmp_path):
    (tmp_path / "bad.naf").write_text('<NAF><text><wf id="w1">a</wf></text><terms><term id="t1"><span>'
                                      '<target id="w1"/></span></term></terms>\n<coreferences><coref id="c1">'
                                      '\n<span><target id="t7"/></span></coref></coreferences></NAF>')
    with pytest.raises(ParseError, match=r'bad.naf:3: document "bad.naf": coreference chain "c1": target "t7" '
                                         "names no term"):
        read_naf_coref(tmp_path / "bad.naf")
    (tmp_path / "empty").mkdir()
    with pytest.raises(ParseError, match="no NAF/KAF files"):
        read_naf_coref(tmp_path / "empty")


def test_an_xml_document_of_another_kind_is_refused_not_scored_empty(tmp_path):
    (tmp_path / "doc.xml").write_text('<Document><token t_id="1">a</token></Document>')
    with pytest.raises(ParseError, match=r"doc.xml: the root element is <Document>, not <NAF> or <KAF>"):
        read_naf_coref(tmp_path / "doc.xml")
    timeml = Path(fastscore.api.__file__).parent / "examples" / "temporal" / "key.tml"
    with pytest.raises(ParseError, match='looks like a TimeML document.*"fastscore temporal"'):
        read_naf_coref(timeml)


def test_coref_command_reads_naf_folders_within_and_across_documents(topics, capsys):
    """`fastscore coref KEY RESPONSE --format naf [--cross-document]` (folders detected as NAF)."""
    import json

    from fastscore.cli import main

    key, resp = str(topics / "key"), str(topics / "response")
    for extra in ([], ["--cross-document"]):
        assert main(["coref", key, resp, "-o", "json", "--allow-repeated", *extra]) == 0
        out = json.loads(capsys.readouterr().out)
        table_k = read_naf_coref(key, cross_document=bool(extra))
        assert out["documents"] == table_k.n_docs and 0 < out["metrics"]["conll"]["f1"] <= 1
    assert main(["coref", key, resp, "--format", "naf", "-m", "muc"]) == 0
    capsys.readouterr()
    from fastscore.examples import KEY

    assert main(["coref", str(KEY), str(KEY), "--cross-document"]) == 2
    assert "applies to NAF input" in capsys.readouterr().err


def test_convert_command_writes_triples(tmp_path, capsys):
    from fastscore.cli import main
    from fastscore.formats.triples import read_triples

    kaf = ROOT / "tests/data/triples_anchors/convert/doc-000.kaf"
    out = tmp_path / "doc.trp"
    assert main(["convert", str(kaf), str(out), "--to", "triples", "--layers", "opinion"]) == 0
    assert read_triples(out).path
    capsys.readouterr()
    assert main(["convert", str(kaf), str(tmp_path / "x.jsonl"), "--to", "jsonl", "--layers", "opinion"]) == 2
    assert "--layers applies to --to triples, not to --to jsonl" in capsys.readouterr().err
