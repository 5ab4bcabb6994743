"""Inputs EvmEval reads its own way (issue 36): fastscore prints EvmEval's figures and warns, or, where EvmEval
fails on an input whose intended number is plain, scores it and says that EvmEval fails; --fix-evmeval-quirks
(fix_evmeval_quirks=True) reads the input as it is meant.  The slow differential cases
(tests/test_nugget_differential.py, test_evmeval_differential_quirks) compare the same against EvmEval's output."""
import pytest

from fastscore.errors import ParseError

from fastscore.cli import main
from fastscore.nugget.score import score_nugget  # the internal function: result.warnings, nothing else
from tests.reference_nugget import documents_one_by_one

GOLD = ("#BeginOfDocument d1\n"
        "g\td1\tE1\t0,4\tsaid\tContact_Broadcast\tActual\n"
        "g\td1\tE2\t10,14\twent\tMovement_Transport-Person\tActual\n"
        "#EndOfDocument\n"
        "#BeginOfDocument d2\n"
        "g\td2\tE1\t0,4\tsaid\tContact_Broadcast\tActual\n"
        "#EndOfDocument\n")
BOM = "\ufeff"
V18 = {"preset": "kbp2016"}


def _tbf(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return str(p)


def _f1(result, attribute: str = "span") -> float:
    return round(result.to_dict()["metrics"][attribute]["micro"]["f1"], 4)


def test_system_byte_order_mark_leaves_the_first_document_unread_as_evmeval(tmp_path):
    """scorer_v1.8 reads BOM + "#BeginOfDocument d1" as a mention line: d1 scored as empty (span F1 50.00)."""
    gold, system = _tbf(tmp_path, "g.tbf", GOLD), _tbf(tmp_path, "s.tbf", BOM + GOLD)
    result = score_nugget(gold, system, **V18)
    assert _f1(result) == 0.5
    assert any("s.tbf, line 1: a byte-order mark" in w and '"d1"' in w for w in result.warnings)
    fixed = score_nugget(gold, system, fix_evmeval_quirks=True, **V18)
    assert _f1(fixed) == 1.0 and not any("byte-order" in w for w in fixed.warnings)


def test_system_byte_order_mark_evmeval_report(tmp_path, capsys):
    """The official layout: d1's row is nan/0.00/nan, as scorer_v1.8 prints it; the warning names the file."""
    gold, system = _tbf(tmp_path, "g.tbf", GOLD), _tbf(tmp_path, "s.tbf", BOM + GOLD)
    assert main(["nugget", gold, system, "--preset", "kbp2016", "--output", "evmeval"]) == 0
    out, err = capsys.readouterr()
    assert "d1\tnan\t0.00\tnan" in out and "plain\t100.00\t33.33\t50.00" in out
    assert "s.tbf, line 1: a byte-order mark" in err


def test_gold_byte_order_mark_is_scored_with_a_warning_that_evmeval_fails(tmp_path):
    """EvmEval exits 1 ("too few fields") on a gold file with a BOM: the intended score, said to be unofficial."""
    gold, system = _tbf(tmp_path, "g.tbf", BOM + GOLD), _tbf(tmp_path, "s.tbf", GOLD)
    result = score_nugget(gold, system, **V18)
    assert _f1(result) == 1.0
    assert any("g.tbf, line 1" in w and "EvmEval fails on this gold file" in w for w in result.warnings)
    assert not score_nugget(gold, system, fix_evmeval_quirks=True, **V18).warnings


TYPELESS_GOLD = ("#BeginOfDocument d1\n"
                 "g\td1\tE1\t0,4\tsaid\tContact_Broadcast\tActual\n"
                 "g\td1\tE2\t10,14\twent\t---\tActual\n"
                 "#EndOfDocument\n")
TYPELESS_SYSTEM = TYPELESS_GOLD.replace("went\t---\tActual", "went\t---\tGeneric")


@pytest.mark.parametrize("whitelist, realis, warned", [
    ("Contact_Broadcast\n\n", 0.5, "line 2: a line with no ASCII letter or digit"),  # "" keeps the type "---"
    ("", 0.5, "no type in the type whitelist"),  # an empty set filters nothing
])
def test_whitelist_read_as_scorer_v18_main_reads_it(tmp_path, whitelist, realis, warned):
    gold, system = _tbf(tmp_path, "g.tbf", TYPELESS_GOLD), _tbf(tmp_path, "s.tbf", TYPELESS_SYSTEM)
    wl = _tbf(tmp_path, "wl.txt", whitelist)
    result = score_nugget(gold, system, type_whitelist=wl, **V18)
    assert _f1(result, "realis") == realis
    assert any(warned in w for w in result.warnings)


def test_whitelist_blank_line_skipped_under_fix_evmeval_quirks(tmp_path):
    gold, system = _tbf(tmp_path, "g.tbf", TYPELESS_GOLD), _tbf(tmp_path, "s.tbf", TYPELESS_SYSTEM)
    wl = _tbf(tmp_path, "wl.txt", "Contact_Broadcast\n\n")
    result = score_nugget(gold, system, type_whitelist=wl, fix_evmeval_quirks=True, **V18)
    assert _f1(result, "realis") == 1.0 and not result.warnings


def test_whitelist_lines_end_at_newlines_only(tmp_path):
    """Python 2 reads the file by "\\n": a form feed inside a line is part of it (canonicalised away)."""
    gold, system = _tbf(tmp_path, "g.tbf", GOLD), _tbf(tmp_path, "s.tbf", GOLD)
    wl = _tbf(tmp_path, "wl.txt", "Contact\x0cBroadcast\n")
    micro = score_nugget(gold, system, type_whitelist=wl, **V18).to_dict()["metrics"]["span"]["micro"]
    assert (micro["gold"], micro["f1"]) == (2, 1.0)  # the two Contact_Broadcast mentions


# Unicode white space: Python 2's strip() (EvmEval reads bytes) removes ASCII white space only

def test_document_id_with_a_trailing_no_break_space_is_another_document(tmp_path):
    """`#BeginOfDocument d1` + U+00A0 is document "d1\\xa0" to EvmEval: gold d1 scored as empty (50.00)."""
    gold = _tbf(tmp_path, "g.tbf", GOLD)
    system = _tbf(tmp_path, "s.tbf", GOLD.replace("#BeginOfDocument d1\n", "#BeginOfDocument d1\u00a0\n"))
    result = score_nugget(gold, system, **V18)
    assert _f1(result) == 0.5 and result.documents == ["d1", "d2"]
    assert any("s.tbf, line 1: 1 line(s) start or end with Unicode white space" in w for w in result.warnings)
    assert _f1(score_nugget(gold, system, fix_evmeval_quirks=True, **V18)) == 1.0


def test_only_document_ids_differing_by_unicode_white_space_are_scored_not_refused(tmp_path):
    """No document in common as EvmEval reads the ids: EvmEval scores every gold document empty, so does fastscore."""
    gold = _tbf(tmp_path, "g.tbf", GOLD)
    system = _tbf(tmp_path, "s.tbf", GOLD.replace("#BeginOfDocument d1\n", "#BeginOfDocument d1\x1c\n")
                  .replace("#BeginOfDocument d2\n", "#BeginOfDocument d2\u2003\n"))
    result = score_nugget(gold, system, **V18)
    assert result.to_dict()["metrics"]["span"]["micro"]["tp"] == 0
    assert any("none of its document ids is one of the gold standard's as EvmEval reads them" in w
               for w in result.warnings)


def test_line_of_no_break_space_is_skipped_with_a_warning_that_evmeval_fails(tmp_path):
    gold = _tbf(tmp_path, "g.tbf", GOLD.replace("#EndOfDocument\n", "\u00a0\n#EndOfDocument\n", 1))
    result = score_nugget(gold, _tbf(tmp_path, "s.tbf", GOLD), **V18)
    assert _f1(result) == 1.0
    assert any("g.tbf, line 4: 1 line(s) of Unicode white space only: EvmEval fails" in w for w in result.warnings)


SEQ = ("#BeginOfDocument d1\n"
       "g\td1\tE1\t0,4\ta\tConflict_Attack\tActual\n"
       "g\td1\tE2\t5,9\tb\tConflict_Attack\tActual\n"
       "g\td1\tE3\t10,14\tc\tLife_Die\tActual\n"
       "g\td1\tE4\t15,19\td\tLife_Die\tActual\n"
       "@After\tA1\tE1,E3\n"
       "@Subevent\tS1\tE3,E4\n"
       "#EndOfDocument\n")


def test_relation_member_with_a_trailing_no_break_space_names_another_mention(tmp_path):
    """`@Subevent S1 E3,E4` + U+00A0 names "E4\\xa0", which no mention has: the link is skipped, as scorer_v1.8 -a
    skips it (Subevent recall 0)."""
    gold = _tbf(tmp_path, "g.tbf", SEQ)
    system = _tbf(tmp_path, "s.tbf", SEQ.replace("E3,E4\n", "E3,E4\u00a0\n"))
    opts = dict(coref=True, sequencing=True, **V18)
    official, fixed = score_nugget(gold, system, **opts), score_nugget(gold, system, fix_evmeval_quirks=True, **opts)
    assert official.sequencing_scores("Subevent") != fixed.sequencing_scores("Subevent")
    assert fixed.sequencing_scores("Subevent") == score_nugget(gold, gold, **opts).sequencing_scores("Subevent")


def test_realis_with_a_trailing_no_break_space_differs_under_scorer_v171(tmp_path):
    """v1.7.1 normalises realis by removing ASCII punctuation and white space only: "Actual\\xa0" != "Actual"."""
    gold = _tbf(tmp_path, "g.tbf", GOLD)
    system = _tbf(tmp_path, "s.tbf", GOLD.replace("Contact_Broadcast\tActual\n", "Contact_Broadcast\tActual\u00a0\n"))
    result = score_nugget(gold, system, char_spans=True)
    assert _f1(result) == 1.0 and _f1(result, "realis") == round(1 / 3, 4)
    assert _f1(score_nugget(gold, system, char_spans=True, fix_evmeval_quirks=True), "realis") == 1.0


# scorer_v1.7.1's read_token_ids: an id is invisible if any of its lines is an invisible word (Python 2 lower/strip)

TOKEN_GOLD = ("#BeginOfDocument d1\n"
              "g\td1\tE1\tt1,t2\tthe attack\tConflict_Attack\tActual\n"
              "#EndOfDocument\n")
TOKEN_SYSTEM = TOKEN_GOLD.replace("t1,t2", "t2").replace("the attack", "attack")


def _tokens(tmp_path, first_word: str, repeat: str | None = None) -> str:
    tkn = tmp_path / "tkn"
    tkn.mkdir()
    lines = [f"t1\t{first_word}\t0\t3"] + ([f"t1\t{repeat}\t0\t3"] if repeat else []) + ["t2\tattack\t4\t10"]
    (tkn / "d1.tab").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(tkn)


@pytest.mark.parametrize("one_by_one", [False, True], ids=["kernels", "oracle"])
def test_token_id_invisible_when_any_of_its_lines_is(tmp_path, monkeypatch, one_by_one):
    """`t1 the` then `t1 car`: scorer_v1.7.1 keeps t1 in its invisible set (the gold span is t2 alone: 100)."""
    if one_by_one:  # the document-by-document oracle (tests/reference_nugget.py)
        documents_one_by_one(monkeypatch)
    gold, system = _tbf(tmp_path, "g.tbf", TOKEN_GOLD), _tbf(tmp_path, "s.tbf", TOKEN_SYSTEM)
    result = score_nugget(gold, system, tokens=_tokens(tmp_path, "the", repeat="car"))
    assert _f1(result) == 1.0


@pytest.mark.parametrize("one_by_one", [False, True], ids=["kernels", "oracle"])
def test_invisible_word_with_a_no_break_space_stays_visible_as_in_scorer_v171(tmp_path, monkeypatch, one_by_one):
    if one_by_one:  # the document-by-document oracle (tests/reference_nugget.py)
        documents_one_by_one(monkeypatch)
    gold, system = _tbf(tmp_path, "g.tbf", TOKEN_GOLD), _tbf(tmp_path, "s.tbf", TOKEN_SYSTEM)
    tkn = _tokens(tmp_path, "the\u00a0")
    result = score_nugget(gold, system, tokens=tkn)
    assert _f1(result) == round(2 / 3, 4)
    assert any("token(s) are invisible words once Unicode white space is stripped" in w and "'t1'" in w
               for w in result.warnings)
    assert _f1(score_nugget(gold, system, tokens=tkn, fix_evmeval_quirks=True)) == 1.0


@pytest.mark.parametrize("span", ["1_0,14", "\u0661\u0660,14", "10,1\u00a04"])
def test_offsets_python2_int_refuses_are_a_clear_error(tmp_path, capsys, span):
    """EvmEval crashes (Python 2's int() takes ASCII digits only); fastscore read `1_0` as 10 and scored."""
    gold = _tbf(tmp_path, "g.tbf", GOLD)
    system = _tbf(tmp_path, "s.tbf", GOLD.replace("\t10,14\t", f"\t{span}\t"))
    assert main(["nugget", gold, system, "--preset", "kbp2016"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "s.tbf:3" in err and "bad character span" in err


@pytest.mark.parametrize("span", [" 10,14", "+10,\x0b14 ", "10,14,99", "0000000000000000000010,0014", "10,14,x;-0,0"])
def test_offsets_python2_int_reads_are_read_by_the_kernel(tmp_path, monkeypatch, span):
    """White space, a sign, leading zeros, a third field (EvmEval reads two): the span of `10,14`, read by the
    kernel with no mention read one by one in Python."""
    from fastscore.nugget import engine

    monkeypatch.setattr(engine, "_chars", None)  # the one-by-one reading: for errors only
    gold = _tbf(tmp_path, "g.tbf", GOLD)
    system = _tbf(tmp_path, "s.tbf", GOLD.replace("\t10,14\t", f"\t{span}\t"))
    assert _f1(score_nugget(gold, system, **V18)) == 1.0


def test_malformed_span_of_a_type_the_whitelist_leaves_out_is_still_an_error(tmp_path, capsys):
    """scorer_v1.8's parse_line reads the span before it looks at the whitelist: EvmEval crashes there too."""
    gold = _tbf(tmp_path, "g.tbf", GOLD)
    system = _tbf(tmp_path, "s.tbf", GOLD.replace("\t10,14\t", "\t1_0,14\t"))
    wl = _tbf(tmp_path, "wl.txt", "Contact_Broadcast\n")
    assert main(["nugget", gold, system, "--preset", "kbp2016", "--type-whitelist", wl]) == 1
    assert "bad character span '1_0,14'" in capsys.readouterr().err


def test_empty_relation_member_is_an_undefined_member_as_in_evmeval(tmp_path):
    """`@Coreference C1 E1,E2,`: EvmEval's parse_relation keeps "" as a member no mention has (ignored)."""
    text = GOLD.replace("#EndOfDocument\n", "@Coreference\tC1\tE1,E2,\n#EndOfDocument\n", 1)
    system = _tbf(tmp_path, "s.tbf", text)
    result = score_nugget(_tbf(tmp_path, "g2.tbf", text.replace(",\n", "\n")), system, coref=True, **V18)
    assert result.to_dict()["coref"]["average"] == 1.0
    assert any("member(s) name mentions that are not defined" in w and "''" in w for w in result.warnings)


def test_missing_token_folder_is_scored_without_tables_as_evmeval(tmp_path):
    """EvmEval -t NOWHERE scores every document without its token table; fastscore exited 2."""
    gold = _tbf(tmp_path, "g.tbf", TOKEN_GOLD)
    system = _tbf(tmp_path, "s.tbf", TOKEN_SYSTEM)
    result = score_nugget(gold, system, tokens=str(tmp_path / "nowhere"))
    assert _f1(result) == round(2 / 3, 4)
    assert any("no such folder" in w for w in result.warnings)


def test_one_member_link_stops_scorer_v18_only(tmp_path, capsys):
    """scorer_v1.8 stops at `@After A1 E1` in a scored document; v1.7.1 (kbp2015) reads no such check."""
    text = GOLD.replace("#EndOfDocument\n", "@After\tA1\tE1\n#EndOfDocument\n", 1)
    gold, system = _tbf(tmp_path, "g.tbf", GOLD), _tbf(tmp_path, "s.tbf", text)
    assert _f1(score_nugget(gold, system, char_spans=True)) == 1.0
    assert main(["nugget", gold, system, "--preset", "kbp2016"]) == 1
    assert "s.tbf:4" in capsys.readouterr().err
    other = text.replace("#BeginOfDocument d1\n", "#BeginOfDocument d9\n")  # a document never scored
    assert _f1(score_nugget(gold, _tbf(tmp_path, "o.tbf", other), **V18)) == 0.5


@pytest.mark.parametrize("system, f1, warned", [
    ("g\td1\tE3\t20,24\tx\tContact_Broadcast\tActual\n" + GOLD, 0.8571, "outside a document (from line 1)"),
    (GOLD + "#EndOfDocument\n", 0.8, 'EvmEval ends document "d2" again'),
    (GOLD.replace("#EndOfDocument\n", "", 1), 0.3333, '"#BeginOfDocument" inside document "d1"'),
    (GOLD[:-len("#EndOfDocument\n")], 0.8, 'EvmEval does not read document "d2"'),
])
def test_structure_lines_read_as_evmeval_reads_them(tmp_path, system, f1, warned):
    """read_docs_with_doc_id_and_name gathers lines until an #EndOfDocument, which gives them to the last
    #BeginOfDocument's id: lines before a document join it, a stray #EndOfDocument ends the last document again
    (empty), a missing one merges two documents or leaves the last unread (scorer_v1.8's F1s)."""
    gold, system = _tbf(tmp_path, "g.tbf", GOLD), _tbf(tmp_path, "s.tbf", system)
    result = score_nugget(gold, system, **V18)
    assert _f1(result) == f1 and any(warned in w for w in result.warnings)
    with pytest.raises(ParseError, match="s.tbf:"):
        score_nugget(gold, system, fix_evmeval_quirks=True, **V18)


def test_short_line_in_a_document_never_scored_is_read_as_evmeval(tmp_path, capsys):
    """EvmEval parses the lines of scored (gold) documents only: a 6-field line in a system-only document is
    never read; in a gold document it stops EvmEval ("too few fields")."""
    short = "#BeginOfDocument d9\ng\td9\tE1\t0,4\tsaid\tContact_Broadcast\n#EndOfDocument\n"
    gold, system = _tbf(tmp_path, "g.tbf", GOLD), _tbf(tmp_path, "s.tbf", GOLD + short)
    assert _f1(score_nugget(gold, system, **V18)) == 1.0
    assert main(["nugget", _tbf(tmp_path, "g9.tbf", GOLD + short), system, "--preset", "kbp2016"]) == 1
    assert 'g9.tbf:9: document "d9": mention line has 6 tab-separated fields' in capsys.readouterr().err
    assert _f1(score_nugget(system, gold, doc="d1", **V18)) == 1.0  # --doc: the others are not parsed either


def test_empty_document_id_is_a_document_as_in_evmeval(tmp_path):
    """`#BeginOfDocument` without an id: EvmEval's document "" (it was refused)."""
    text = GOLD.replace("#BeginOfDocument d2", "#BeginOfDocument")
    result = score_nugget(_tbf(tmp_path, "g.tbf", text), _tbf(tmp_path, "s.tbf", text), **V18)
    assert _f1(result) == 1.0 and "" in result.prepared.doc_ids


def test_document_id_holding_end_document_has_no_coreference_as_in_evmeval(tmp_path):
    """EvmEval writes the id first on every CoNLL line it gives v8.01, whose unanchored /\\#\\s*end document/ ends
    "d1 #end document" at its first line: its coreference is scored without mentions (scorer_v1.8: 100.00 where
    d1's clusters would give 63.33)."""
    gold = ("#BeginOfDocument d1 #end document\n"
            "g\td1\tE1\t0,5\tattack\tConflict_Attack\tActual\ng\td1\tE2\t10,15\tkilled\tLife_Die\tActual\n"
            "g\td1\tE3\t20,25\tstrike\tConflict_Attack\tActual\n@Coreference\tC1\tE1,E3\n#EndOfDocument\n"
            "#BeginOfDocument d2\n"
            "g\td2\tE1\t0,5\tattack\tConflict_Attack\tActual\ng\td2\tE2\t10,15\tbomb\tConflict_Attack\tActual\n"
            "@Coreference\tC1\tE1,E2\n#EndOfDocument\n")
    g, s = _tbf(tmp_path, "g.tbf", gold), _tbf(tmp_path, "s.tbf", gold.replace("E3\t20,25", "E3\t30,35"))
    result = score_nugget(g, s, coref=True, **V18)
    assert round(result.to_dict()["coref"]["average"], 4) == 1.0
    assert any('"d1 #end document"' in w and "v8.01" in w for w in result.warnings)
    fixed = score_nugget(g, s, coref=True, fix_evmeval_quirks=True, **V18)
    assert round(fixed.to_dict()["coref"]["average"], 4) == 0.6333 and not fixed.warnings


def test_batches_keep_what_evmeval_gathers_across_documents(tmp_path):
    """A large file is read in batches of documents: a batch starts only at a #BeginOfDocument right after an
    #EndOfDocument, so a line between documents still joins the next one and a stray #EndOfDocument still empties
    the one before (the batches read as the whole file; cut at every #BeginOfDocument, d1 lost E9)."""
    from fastscore.formats.tbf import read_tbf, tbf_batches

    doc = lambda d: GOLD.split("#BeginOfDocument d2\n")[0].replace("d1", f"d{d}")  # noqa: E731
    text = (doc(0) + "g\td1\tE9\t20,24\tx\tContact_Broadcast\tActual\n" + doc(1) + doc(2) + "\n" + doc(3)
            + "#EndOfDocument\n" + doc(4))
    path = _tbf(tmp_path, "big.tbf", text)
    whole = read_tbf(path)
    parts = [read_tbf(p) for p in tbf_batches(path, 20)]
    assert len(parts) >= 3
    read = lambda t: {k: (t.ids[d.start:d.end], d.line) for k, d in t.documents.items()}  # noqa: E731
    assert {k: v for t in parts for k, v in read(t).items()} == read(whole)
    assert read(whole)["d1"][0] == ["E9", "E1", "E2"] and read(whole)["d3"][0] == []
