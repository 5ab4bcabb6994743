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
from fastscore.explain.documents import Types
from fastscore.explain.result import score_explain
from tests import reference_corefud
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
    entities = [ms for d in result.analysed for ms in d.doc.key.entities.values()]
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
    from fastscore.coref.convert import convert

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
    assert as_conll.analysed[0].doc.tags is None
    assert as_jsonl.doc_stats.doc_names == as_conll.doc_stats.doc_names
    assert (as_jsonl.doc_stats.matrix == as_conll.doc_stats.matrix).all()


COREFUD = ROOT / "fastscore" / "examples" / "corefud"  # a zero (5.1), a discontinuous mention (e2[1/2], e2[2/2])
BIKE = "a bike that she had wanted for years"  # its words: "yesterday" is its gap


def test_conllu_is_explained_with_zeros_and_discontinuous_mentions(tmp_path, capsys):
    """The bundled CorefUD example: the discontinuous key mention "a bike ... that ... years" and the response's
    "a bike" share their head: one span error with exact matching, none with head matching (the response mention
    takes the key mention's nodes); the zero is a pronoun, shown as ∅; UPOS gives the mention types."""
    key, response = COREFUD / "key.conllu", COREFUD / "response.conllu"
    exact = score_explain(key, response, match="exact", singletons="keep")
    (span,) = [e for e in exact.analysed[0].errors if e.kind == "span_error"]
    words = exact.analysed[0].doc.words_of
    assert (words(span.mentions[0]), " ".join(words(span.mentions[1]))) == (["a", "bike"], BIKE)
    head = score_explain(key, response, singletons="keep")
    assert head.options["match"] == "head" and head.totals()["span_error"] == 0
    doc = head.analysed[0].doc
    (discontinuous,) = [m for m in doc.key.entity_of if len(m) > 3]
    assert " ".join(doc.words_of(discontinuous)) == BIKE and discontinuous[3] == (2, 3, 5, 6, 7, 8, 9, 10)
    assert discontinuous in head.analysed[0].response_view.entity_of  # "a bike", matched by its head
    types = Types(doc)
    zero = next(m for m in doc.key.entity_of if doc.words_of(m) == ["∅"])
    assert types.of(zero) == "pronoun" and types.of((0, 0, 1)) == "proper" and types.of(discontinuous) == "nominal"
    page = tmp_path / "errors.html"
    assert main(["explain", str(key), str(response), "--output", "html", str(page)]) == 0
    text = page.read_text()
    assert "∅" in text and "discontinuous: a bike" in text
    assert set(re.findall(r'href="#([^"]+)"', text)) <= set(re.findall(r' id="([^"]+)"', text))
    assert main(["explain", str(key), str(response), "--match", "mina"]) == 2
    assert "--match mina does not apply to CoNLL-U files" in capsys.readouterr().err


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


# ---- fastscore coref's matching options

UD_CASES = ROOT / "tests" / "data" / "corefud_anchors" / "cases"  # OntoGUM and generated CorefUD pairs
MINA_CASES = ROOT / "tests" / "data" / "mina_anchors"  # generated CoNLL-2012 pairs with parses


def _mentions(result):
    """Per document: the key's mentions and the response's as analysed (matched ones with their key spans)."""
    return [(d.doc.key.entity_of, d.response_view.entity_of) for d in result.analysed]


def test_exact_matching_changes_nothing():
    """--match exact: CoNLL-2012 as without it; CoNLL-U (OntoGUM, no empty nodes) and --np-only, every response
    mention as the response has it (the response read as a key), where head matching moves some.  (With empty
    nodes, --zero-match dependent may pair zeros in other places, even with --match exact: docs/explain.md.)"""
    key, response = DATA / "mixture.key.conll", DATA / "mixture.response.conll"
    plain, exact = score_explain(key, response), score_explain(key, response, match="exact")
    assert (plain.doc_stats.matrix == exact.doc_stats.matrix).all()
    assert plain.to_dict(True)["per_doc"] == exact.to_dict(True)["per_doc"]
    cases = [(UD_CASES / f"{c}.key.conllu", UD_CASES / f"{c}.response.conllu", {"zero_match": z})
             for c in ("gum_news_worship", "gum_news_flag") for z in ("dependent", "linear")]
    cases.append((MINA_CASES / "case-001.key.gz", MINA_CASES / "case-001.response.gz", {"np_only": True}))
    moved = 0
    for key, response, options in cases:
        as_read = [k for k, _ in _mentions(score_explain(response, response, match="exact", singletons="keep",
                                                         **options))]
        analysed = [r for _, r in _mentions(score_explain(key, response, match="exact", singletons="keep",
                                                          **options))]
        assert analysed == as_read
        if "zero_match" in options:
            head = [r for _, r in _mentions(score_explain(key, response, match="head", singletons="keep", **options))]
            moved += head != as_read
    assert moved == 4


def _conllu(rows, path):
    """A one-sentence CorefUD document from (form, UPOS, head, Entity) rows."""
    lines = ["# newdoc id = d", "# global.Entity = eid-etype-head-other", "# sent_id = d-1"]
    for i, (form, upos, head, entity) in enumerate(rows, 1):
        misc = f"Entity={entity}" if entity else "_"
        lines.append(f"{i}\t{form}\t{form.lower()}\t{upos}\t_\t_\t{head}\t{'root' if head == 0 else 'dep'}\t"
                     f"{head}:{'root' if head == 0 else 'dep'}\t{misc}")
    path.write_text("\n".join(lines) + "\n\n")
    return path


def test_a_difference_the_matching_ignores_is_no_span_error(tmp_path):
    """The response's "old teacher" for the key's "The old teacher" (head "teacher"): a span error with exact
    matching, nothing with partial or head matching; the same with minimum spans for "the dog" against "the dog of
    Bob" (both have the minimum span "dog" in the key's parse)."""
    rows = [("The", "DET", 3, "(e1-person-3-"), ("old", "ADJ", 3, None), ("teacher", "NOUN", 4, "e1)"),
            ("smiled", "VERB", 0, None), ("and", "CCONJ", 6, None), ("she", "PRON", 6, "(e1-person-1)"),
            ("left", "VERB", 4, None)]
    key = _conllu(rows, tmp_path / "key.conllu")
    moved = [("The", "DET", 3, None), ("old", "ADJ", 3, "(e1-person-2-")] + rows[2:]
    response = _conllu(moved, tmp_path / "response.conllu")
    found = {m: score_explain(key, response, match=m, singletons="keep").totals() for m in ("exact", "partial", "head")}
    assert {e: found["exact"][e] for e in ERRORS if found["exact"][e]} == {"span_error": 1}
    assert all(found[m][e] == 0 for m in ("partial", "head") for e in ERRORS)
    rows = [("the", "DT", "(TOP(S(NP(NP*", "(1"), ("dog", "NN", "*)", ""), ("of", "IN", "(PP*", ""),
            ("Bob", "NNP", "(NP*)))", "1)"), ("barked", "VBD", "(VP*)", ""), (".", ".", "*))", ""), None,
            ("It", "PRP", "(TOP(S(NP*)", "(1)"), ("slept", "VBD", "(VP*)", ""), (".", ".", "*))", "")]
    key, response = tmp_path / "key.conll", tmp_path / "response.conll"
    key.write_text(_conll(rows))
    response.write_text(_conll([r if r is None or r[0] not in ("dog", "Bob") else
                                (*r[:3], {"dog": "1)", "Bob": ""}[r[0]]) for r in rows]))
    assert score_explain(key, response, match="exact", np_only=True).totals()["span_error"] == 1
    assert all(v == 0 for e, v in score_explain(key, response, match="mina").totals().items() if e in ERRORS)


def _agree_with_coref(key, response, **options):
    """The mention counts the analysis implies are coref's under the same options: key mentions, response mentions,
    and key mentions the analysed response has (coref's mention recall and precision numerator); each key mention
    it lacks is a span error's or is named by a missing mention, missing entity or divided entity error, or else
    stays put as the Analyser lets it (alone in its entity, or its entity's earliest non-pronoun mention)."""
    explained = score_explain(key, response, **options)
    scored = fastscore.score(str(key), str(response), **options).doc_stats
    for d in explained.analysed:
        key_m, resp_m = set(d.doc.key.entity_of), set(d.response_view.entity_of)
        row = scored.row(scored.doc_names.index(d.doc.name))
        assert (len(key_m & resp_m), len(key_m), len(resp_m)) == (
            row["mentions_recall_num"], row["mentions_recall_den"], row["mentions_precision_den"]), d.doc.name
        assert row["mentions_precision_num"] == row["mentions_recall_num"]
        absent = key_m - resp_m
        named = {err.mentions[1] for err in d.errors if err.kind == "span_error"}
        named |= {m for err in d.errors if err.kind in ("missing_mention", "missing_entity", "divided_entity")
                  for m in err.mentions if m in absent}
        types = Types(d.doc)
        stays = {m for ms in d.doc.key.entities.values() for m in ms
                 if len(ms) == 1 or m == min((x for x in ms if not types.is_pronoun(x)), default=None)}
        assert named <= absent and absent - named <= stays, d.doc.name
    return explained


UD_FEW = ("gum_news_worship", "syn03_zeros_heavy", "syn22", "syn33")  # head differences, zeros paired across places
MINA_FEW = ("case-003", "case-033", "case-038")  # minimum spans shared by several mentions


@pytest.mark.parametrize("match", ["exact", "partial", "head"])
def test_conllu_mention_counts_agree_with_coref(match):
    for case in UD_FEW:
        for zero_match in ("dependent", "linear"):
            for singletons in ("keep", "drop"):
                _agree_with_coref(UD_CASES / f"{case}.key.conllu", UD_CASES / f"{case}.response.conllu", match=match,
                                  zero_match=zero_match, singletons=singletons)


CONLL_OPTIONS = [{"match": "mina"}, {"np_only": True}, {"remove_nested": True},
                 {"match": "mina", "np_only": True, "remove_nested": True}]


@pytest.mark.parametrize("options", CONLL_OPTIONS, ids=lambda o: "-".join(o))
def test_conll_mention_counts_agree_with_coref(options):
    for case in MINA_FEW:
        for singletons in ("keep", "drop"):
            _agree_with_coref(MINA_CASES / f"{case}.key.gz", MINA_CASES / f"{case}.response.gz", singletons=singletons,
                              **options)


@pytest.mark.slow
def test_every_stored_case_agrees_with_coref():
    for key in sorted(UD_CASES.glob("*.key.conllu")):
        for match in ("exact", "partial", "head"):
            for zero_match in ("dependent", "linear"):
                for singletons in ("keep", "drop"):
                    _agree_with_coref(key, UD_CASES / key.name.replace(".key.", ".response."), match=match,
                                      zero_match=zero_match, singletons=singletons)
    for key in sorted(MINA_CASES.glob("case-*.key.gz")):
        for options in CONLL_OPTIONS:
            for singletons in ("keep", "drop"):
                _agree_with_coref(key, MINA_CASES / key.name.replace(".key.", ".response."), singletons=singletons,
                                  **options)


def test_matching_options_are_checked_and_signed(capsys):
    key, response = DATA / "mixture.key.conll", DATA / "mixture.response.conll"
    for args, message in ((["--match", "head"], "--match head does not apply to CoNLL-2012 files"),
                          (["--zero-match", "linear"], "--zero-match applies to zeros"),
                          (["--np-only", "--format", "jsonl"], None)):
        assert main(["explain", str(key), str(response), *args]) in (1, 2)
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and (message is None or message in err)
    assert main(["explain", str(key), str(response), "--match", "mina", "--np-only", "-o", "json"]) == 0
    signature = json.loads(capsys.readouterr().out)["signature"]
    assert "|match:mina|np-only:true|singletons:drop|" in signature


@pytest.mark.parametrize("match", ["exact", "partial", "head"])
def test_the_scorers_pairs_are_the_same_from_the_kernels_and_in_python(match):
    """explain reads the CorefUD scorer's pairs (Matched.pairs): the kernels' and the scorer's own values' agree."""
    from fastscore.coref import corefud
    from fastscore.coref.engine import align_documents
    from fastscore.formats.conllu import read_conllu

    for case in UD_FEW:
        for zero_match in ("dependent", "linear"):
            way = corefud.Matching(match, zero_match)
            key, _ = corefud.prepare(read_conllu(UD_CASES / f"{case}.key.conllu"), way, True)
            response, _ = corefud.prepare(read_conllu(UD_CASES / f"{case}.response.conllu"), way, True)
            a = align_documents(key, response)
            sides = (key.words.take(a.k_rows), response.words.take(a.r_rows), way, response.path)
            fast, reference = corefud.match(a, *sides), reference_corefud.match_python(a, *sides)
            assert fast.pairs.keys() == reference.pairs.keys() == set(range(len(a.doc_names)))
            for d in fast.pairs:
                assert sorted(fast.pairs[d]) == sorted(reference.pairs[d])
                assert len(fast.pairs[d]) == fast.ids[2][d, 2]  # what the mention scores count


def test_a_discontinuous_mention_across_sentences_is_left_out_with_a_warning(tmp_path):
    rows = ["# newdoc id = d", "# global.Entity = eid-etype-head-other", "# sent_id = d-1",
            "1\tBob\tbob\tPROPN\t_\t_\t2\tnsubj\t2:nsubj\tEntity=(e1-person-1)",
            "2\tleft\tleave\tVERB\t_\t_\t0\troot\t0:root\tEntity=(e2[1/2]-event-1)", "", "# sent_id = d-2",
            "1\tHe\the\tPRON\t_\t_\t2\tnsubj\t2:nsubj\tEntity=(e1-person-1)",
            "2\tcried\tcry\tVERB\t_\t_\t0\troot\t0:root\tEntity=(e2[2/2]-event-1)", "", ""]
    path = tmp_path / "d.conllu"
    path.write_text("\n".join(rows))
    result = score_explain(path, path, singletons="keep")
    assert result.totals()["key_mentions"] == 2 and [d.doc.key.entities for d in result.analysed] == [
        {"e1": [(0, 0, 1), (1, 0, 1)]}]
    assert len(result.warnings) == 1 and "2 mention(s) whose nodes lie in two sentences" in result.warnings[0]


@pytest.mark.slow
def test_conllu_html_page_renders_in_headless_chromium(tmp_path):
    """The CorefUD example's page as Chromium lays it out: its words, the zero's mark, the discontinuous mention's
    box and the error list (skipped without the Debian package `chromium`)."""
    import shutil
    import subprocess

    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        pytest.skip("headless Chromium is not installed (apt-get install chromium)")
    page = tmp_path / "errors.html"
    assert main(["explain", str(COREFUD / "key.conllu"), str(COREFUD / "response.conllu"), "--match", "exact",
                 "--output", "html", str(page)]) == 0
    flags = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--window-size=1366,900"]
    dom = subprocess.run(flags + ["--dump-dom", page.as_uri()], check=True, capture_output=True, timeout=120,
                         text=True).stdout
    assert "Maria" in dom and dom.count("∅") == 2 and "discontinuous: a bike" in dom
    assert dom.count("<li><strong>") == 4 and "Span Error" in dom


def test_the_result_is_a_result_like_every_tasks():
    """ExplainResult inherits fastscore.result.Result: documents by name, one document's object, the score table."""
    from fastscore.result import Result

    result = score_explain(DATA / f"{CASES[0]}.key.conll", DATA / f"{CASES[0]}.response.conll")
    assert isinstance(result, Result) and result.documents == list(result.doc_stats.doc_names)
    per_doc = result.to_dict(per_doc=True)["per_doc"]
    assert result.to_dict()["per_doc"] == {} and list(per_doc) == result.documents
    assert all(result.document(name) == per_doc[name] for name in result.documents)
    table = result.score_table().to_pydict()
    assert dict(zip(table["metric"], table["f1"]))["span_error"] == result.totals()["span_error"]
    assert result.signature().startswith("explain|analyser:kummerfeld-klein-2013|cort:closest-preceding|")
