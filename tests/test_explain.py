"""`fastscore explain`: the Berkeley Coreference Analyser's error types on seeded perturbations (its counts stored by
scripts/make_explain_anchors.py), cort's tree errors against MUC, the JSON contract, compare on error counts, the
HTML page."""
import json
import re
from pathlib import Path

import pytest

import fastscore
from fastscore.cli import main
from fastscore.explain.analyser import ERRORS
from fastscore.explain.result import score_explain
from tests.conftest import ROOT, SHARED

DATA = ROOT / "tests" / "data" / "explain_anchors"
EXPECTED = json.loads((DATA / "expected.json").read_text())
CASES = sorted(k for k in EXPECTED if k not in ("litbank", "gum", "analyser_example"))
LITBANK = SHARED / "litbank" / "coref" / "conll"
# what each single perturbation is, as the Analyser classified it (end_over_word: an extra and a missing mention,
# and with them a conflated or a divided entity where the moved mention leaves or joins an entity part)
SINGLE = {"identical": set(), "end_over_punct": {"span_error"}, "join_entities": {"conflated_entities"},
          "cut_entity": {"divided_entity"}, "drop_mention": {"missing_mention"}, "drop_entity": {"missing_entity"},
          "add_entity": {"extra_entity"}, "add_mention": {"extra_mention", "conflated_entities"},
          "end_over_word": {"extra_mention", "missing_mention", "conflated_entities", "divided_entity"}}


def counts(result, k):
    return {e: int(result.doc_stats.matrix[k, result.doc_stats.columns.index(e)]) for e in ERRORS}


@pytest.mark.parametrize("case", CASES)
def test_every_document_is_classified_as_the_analyser_does(case):
    result = score_explain(DATA / f"{case}.key.conll", DATA / f"{case}.response.conll")
    assert set(result.doc_stats.doc_names) == set(EXPECTED[case])
    for k, name in enumerate(result.doc_stats.doc_names):
        assert counts(result, k) == EXPECTED[case][name], name


@pytest.mark.parametrize("case", sorted(SINGLE))
def test_each_perturbation_makes_its_error_type(case):
    """The stored expectations hold what the generator claims: one perturbation, its error type (and the Analyser
    agrees per document, above)."""
    found = {e for doc in EXPECTED[case].values() for e, n in doc.items() if n}
    assert found == SINGLE[case] if case in ("identical", "end_over_punct", "join_entities", "cut_entity",
                                             "drop_mention", "drop_entity", "add_entity") else found <= SINGLE[case]
    if case == "end_over_punct":  # each document: one mention's end moved over a punctuation token
        assert {doc["span_error"] for doc in EXPECTED[case].values()} <= {0, 1}


def test_identical_input_has_no_errors():
    path = next(iter(sorted(LITBANK.glob("*.conll"))))
    for singletons in ("drop", "keep"):
        result = score_explain(path, path, singletons=singletons)
        totals = result.totals()
        assert all(totals[e] == 0 for e in ERRORS)
        assert totals["cort_recall_errors"] == 0 and totals["cort_precision_errors"] == 0


def test_an_empty_response_misses_every_entity(tmp_path):
    key = DATA / "mixture.key.conll"
    empty = tmp_path / "empty.conll"
    empty.write_text(re.sub(r"\t[^\t\n]+$", "\t-", key.read_text(), flags=re.M))
    result = score_explain(key, empty)
    entities = [ms for d in result.documents for ms in d.doc.key.entities.values()]
    totals = result.totals()
    assert totals["missing_entity"] == sum(len(ms) > 1 for ms in entities)
    assert sum(totals[e] for e in ERRORS) == totals["missing_entity"]
    assert totals["cort_recall_errors"] == sum(len(ms) - 1 for ms in entities)  # the MUC recall denominator
    assert totals["cort_precision_errors"] == 0


@pytest.mark.parametrize("case", CASES)
def test_cort_errors_bound_the_muc_deficit(case):
    """A key entity cut into p parts by the response loses at least p - 1 tree edges (MUC's recall deficit), and
    none exactly when MUC loses none (a response entity likewise for precision)."""
    key, response = DATA / f"{case}.key.conll", DATA / f"{case}.response.conll"
    explained = score_explain(key, response, singletons="keep")
    muc = fastscore.score(str(key), str(response)).doc_stats
    for k in range(len(explained.doc_stats)):
        row, m = explained.doc_stats.row(k), muc.row(k)
        recall_deficit = m["muc_recall_den"] - m["muc_recall_num"]
        precision_deficit = m["muc_precision_den"] - m["muc_precision_num"]
        assert row["cort_recall_errors"] >= recall_deficit and (row["cort_recall_errors"] == 0) == (recall_deficit == 0)
        assert row["cort_precision_errors"] >= precision_deficit
        assert (row["cort_precision_errors"] == 0) == (precision_deficit == 0)


def test_json_contract_and_file_lines(capsys):
    key, response = DATA / "mixture.key.conll", DATA / "mixture.response.conll"
    assert main(["explain", str(key), str(response), "--output", "json", "--per-doc", "--bootstrap", "200"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["task"] == "explain" and out["documents"] == 30
    assert list(out["errors"]) == list(ERRORS)
    assert set(out["by_mention_type"]) == set(ERRORS)
    assert set(out["cort"]) == {"recall_errors", "precision_errors"}
    assert out["signature"].startswith("explain|") and set(out["intervals"]) >= set(ERRORS)
    assert sum(d["errors"]["divided_entity"] for d in out["per_doc"].values()) == out["errors"]["divided_entity"]
    files = {"key": key.read_text().splitlines(), "response": response.read_text().splitlines()}
    listed = [m for d in out["per_doc"].values() for err in d["list"] for m in err["mentions"]]
    assert listed
    for m in listed:  # the line given is where the mention opens, its first word on it
        line = files[m["side"]][m["line"] - 1].split("\t")
        assert line[3] == m["text"].split()[0] and "(" in line[-1]


def test_compare_on_an_error_type_picks_the_explain_task(capsys):
    key, response = DATA / "mixture.key.conll", DATA / "mixture.response.conll"
    assert main(["compare", str(key), str(key), str(response), "--metric", "divided_entity", "--resamples", "300",
                 "-o", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["task"] == "explain" and out["metric"] == "divided_entity"
    assert out["baseline"]["score"] == 0 and out["systems"][0]["score"] == EXPECTED_TOTAL("mixture", "divided_entity")
    assert main(["compare", str(key), str(key), str(response), "--metric", "missing_entity", "--resamples", "300"]) == 0
    assert "missing_entity count" in capsys.readouterr().out


def EXPECTED_TOTAL(case, error):
    return sum(doc[error] for doc in EXPECTED[case].values())


def test_html_page_is_self_contained_and_linked(tmp_path, capsys):
    key, response = DATA / "mixture.key.conll", DATA / "mixture.response.conll"
    page = tmp_path / "errors.html"
    assert main(["explain", str(key), str(response), "--output", "html", str(page), "--bootstrap", "100"]) == 0
    assert "wrote" in capsys.readouterr().out
    text = page.read_text()
    assert not re.search(r"(src|href)=\"(https?:)?//", text) and "<script" not in text
    ids = set(re.findall(r' id="([^"]+)"', text))
    targets = re.findall(r'href="#([^"]+)"', text)
    assert targets and set(targets) <= ids
    assert text.count("<details") == 30 and "Divided Entity" in text
    assert main(["explain", str(key), str(response), "--output", "json", str(page)]) == 2


@pytest.mark.slow
def test_litbank_agrees_with_the_analyser(tmp_path):
    """LitBank's 100 documents against seeded perturbations, as the Analyser classified them."""
    import sys

    sys.path.insert(0, str(ROOT / "scripts"))
    from make_explain_anchors import litbank_response

    expected = EXPECTED["litbank"]
    for k, path in enumerate(sorted(LITBANK.glob("*.conll"))):
        out = tmp_path / "response.conll"
        out.write_text(litbank_response(str(path), k))
        result = score_explain(path, out)
        (name,) = result.doc_stats.doc_names
        assert counts(result, 0) == expected[name], name


def test_jsonlines_explain_as_conll(tmp_path):
    """The same documents as jsonlines (fastscore convert): the same errors (the tags are lost; the pronoun words
    decide there)."""
    from fastscore.convert import convert

    sides, untagged = [], []
    for side in ("key", "response"):
        out = tmp_path / f"{side}.jsonl"
        assert convert(str(DATA / f"mixture.{side}.conll"), str(out), "jsonl")  # (POS columns not written)
        sides.append(out)
        plain = tmp_path / f"{side}.conll"  # the same CoNLL-2012 file without its tags
        plain.write_text(re.sub(r"^([^#\n][^\t\n]*\t[^\t]*\t[^\t]*\t[^\t]*)\t[^\t]*", r"\1\t-",
                                (DATA / f"mixture.{side}.conll").read_text(), flags=re.M))
        untagged.append(plain)
    as_jsonl = score_explain(*sides)
    as_conll = score_explain(*untagged)
    assert as_conll.documents[0].doc.tags is None
    assert as_jsonl.doc_stats.doc_names == as_conll.doc_stats.doc_names
    assert (as_jsonl.doc_stats.matrix == as_conll.doc_stats.matrix).all()


def test_conllu_is_refused_with_one_line(capsys):
    conllu = next(iter(sorted((SHARED / "gum" / "coref" / "ontogum" / "conllu").glob("*.conllu"))))
    assert main(["explain", str(conllu), str(conllu)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "explain reads CoNLL-2012 and jsonlines files, not conllu" in err


@pytest.mark.slow
def test_html_page_renders_in_headless_chromium(tmp_path):
    """The page as Chromium lays it out: the documents, the marks and the error list are in the rendered DOM, and
    the screenshot is a real picture (the Debian package `chromium`; skipped without it)."""
    import shutil
    import subprocess

    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        pytest.skip("headless Chromium is not installed (apt-get install chromium)")
    page = tmp_path / "errors.html"
    assert main(["explain", str(DATA / "mixture.key.conll"), str(DATA / "mixture.response.conll"), "--doc",
                 "(mixture_01); part 0", "--output", "html", str(page)]) == 0
    flags = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--window-size=1366,1500"]
    shot = tmp_path / "errors.png"
    subprocess.run(flags + [f"--screenshot={shot}", page.as_uri()], check=True, capture_output=True, timeout=120)
    png = shot.read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 20_000  # not a blank page
    dom = subprocess.run(flags + ["--dump-dom", page.as_uri()], check=True, capture_output=True, timeout=120,
                         text=True).stdout
    assert "(mixture_01); part 0" in dom and dom.count('class="m') > 10 and dom.count("<li><strong>") == sum(EXPECTED["mixture"]["(mixture_01); part 0"].values()) > 0


@pytest.mark.slow
def test_the_analysers_own_example_with_full_parses():
    """Heads from the key's parse (Collins' rules): the Analyser's bundled example (OntoNotes WSJ, Stanford's
    output), read from its checkout (FASTSCORE_ANALYSER; skipped without it)."""
    import os

    checkout = os.environ.get("FASTSCORE_ANALYSER")
    if not checkout:
        pytest.skip("set FASTSCORE_ANALYSER to a checkout of berkeley-coreference-analyser")
    gold = sorted(Path(checkout, "data", "gold", "nw", "wsj", "00").glob("*gold_conll"))
    key = Path(__import__("tempfile").mkdtemp()) / "gold.conll"
    key.write_text("".join(f.read_text() for f in gold))
    result = score_explain(key, Path(checkout, "data", "homogenised", "stanford.homogenised.out"))
    expected = EXPECTED["analyser_example"]
    assert len(result.doc_stats) == len(expected) == 4
    for k, name in enumerate(result.doc_stats.doc_names):
        assert counts(result, k) == expected[name], name


def _conll(tokens, name="d"):
    """A one-document CoNLL-2012 file from (word, tag, parse bit, coreference) rows (None: sentence break)."""
    lines = [f"#begin document ({name}); part 0"]
    position = 0
    for row in tokens:
        if row is None:
            lines.append("")
            position = 0
            continue
        word, tag, bit, coref = row
        lines.append(f"{name}\t0\t{position}\t{word}\t{tag}\t{bit}\t-\t-\t-\t-\t*\t{coref}")
        position += 1
    return "\n".join(lines + ["", "#end document", ""])


def test_a_head_from_the_parse_pairs_a_span_error(tmp_path):
    """(NP (NP the dog) (PP of (NP Bob))): the head of "the dog of Bob" is "dog" by Collins' NP rules, so a
    response "the dog" is one span error; without the parse (last words: Bob, dog) the two mentions are not
    paired, and as the Analyser classifies it (each side's earliest non-pronoun mention stays put), "It" is split
    off the response entity and merged into the key's: a conflated and a divided entity."""
    rows = [("the", "DT", "(TOP(S(NP(NP*", "(1"), ("dog", "NN", "*)", ""), ("of", "IN", "(PP*", ""),
            ("Bob", "NNP", "(NP*)))", "1)"), ("barked", "VBD", "(VP*)", ""), (".", ".", "*))", ""), None,
            ("It", "PRP", "(TOP(S(NP*)", "(1)"), ("slept", "VBD", "(VP*)", ""), (".", ".", "*))", "")]
    key, response = tmp_path / "key.conll", tmp_path / "response.conll"
    key.write_text(_conll(rows))
    moved = [r if r is None or r[0] not in ("dog", "the", "Bob") else
             (r[0], r[1], r[2], {"the": "(1", "dog": "1)", "Bob": ""}[r[0]]) for r in rows]
    response.write_text(_conll(moved))
    totals = score_explain(key, response).totals()
    assert {e: totals[e] for e in ERRORS if totals[e]} == {"span_error": 1}
    flat = [r if r is None else (r[0], r[1], "-", r[3]) for r in rows]
    key.write_text(_conll(flat))
    totals = score_explain(key, response).totals()
    assert {e: totals[e] for e in ERRORS if totals[e]} == {"conflated_entities": 1, "divided_entity": 1}


def test_a_response_with_other_sentences_is_one_clear_error(tmp_path, capsys):
    """The response's mentions are read against the key's words: another sentence count or length is refused."""
    from fastscore.cli import main
    from fastscore.examples import KEY

    lines = Path(KEY).read_text().splitlines()
    last = max(i for i, line in enumerate(lines) if line.strip() and not line.startswith("#"))
    extra = tmp_path / "extra.conll"
    extra.write_text("\n".join(lines[:last + 1] + ["", lines[last]] + lines[last + 1:]) + "\n")
    assert main(["explain", str(KEY), str(extra)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "extra.conll" in err and "3 sentences, the key 2" in err
