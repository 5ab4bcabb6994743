"""Event nugget inputs a new user gets wrong: span syntax against the options, token tables (missing, or
without a mention's token), same-span mentions written differently, undefined cluster members, an empty
system file, and system files that share few or no documents with the gold."""
import pytest

from fastscore.cli import main
from fastscore.errors import InputError, ParseError
from fastscore.formats.tbf import span_kind
from fastscore.nugget.score import score_nugget  # the internal function: result.warnings, nothing else

CHAR_GOLD = ("#BeginOfDocument d1\n"
             "g\td1\tE1\t0,4\tmade\tConflict_Attack\tActual\n"
             "g\td1\tE2\t10,14;20,24\tkill died\tLife_Die\tActual\n"
             "#EndOfDocument\n"
             "#BeginOfDocument d2\n"
             "g\td2\tE1\t3,9\tbought\tTransaction\tActual\n"
             "#EndOfDocument\n")
CHAR_SYSTEM = CHAR_GOLD.replace("0,4", "0,5").replace("g\t", "s\t")
TOKEN_GOLD = ("#BeginOfDocument d1\n"
              "g\td1\tE1\tt1,t2\tthe attack\tConflict_Attack\tActual\n"
              "g\td1\tE2\tt5\tkill\tLife_Die\tActual\n"
              "#EndOfDocument\n")
TABLE = "t1\tthe\t0\t3\nt2\tattack\t4\t10\nt5\tkill\t20\t24\n"


def _tbf(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text)
    return p


def _error(capsys, args) -> str:
    assert main(args) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("fastscore: error: ")
    return err


def _span_f1(result) -> float:
    return result.to_dict()["metrics"]["span"]["micro"]["f1"]


# 1. span syntax against the options

@pytest.mark.parametrize("span, kind", [
    ("12,18;30,35", "ranges"), ("12,18", "wide"), ("12,13", "narrow"), ("12", "numbers"), ("12,13,14", "numbers"),
    ("18,12", "numbers"), ("t12", "letters"), ("t1,t2", "letters"), ("w-3,w-4", "letters"), ("0-4", "other"),
    ("", "other"), ("12,t3;4", "other"),
])
def test_span_kind(span, kind):
    assert span_kind(span) == kind


def test_char_spans_read_as_token_ids_are_refused(tmp_path, capsys):
    gold, system = _tbf(tmp_path, "gold.tbf", CHAR_GOLD), _tbf(tmp_path, "system.tbf", CHAR_SYSTEM)
    err = _error(capsys, ["nugget", str(gold), str(system)])  # kbp2015 reads token ids by default
    assert err == (f"fastscore: error: {gold}:2: document \"d1\": mention 'E1' has the span '0,4', which looks like "
                   "character offsets ('begin,end' ranges, separated by ';'), but the spans are read as token ids "
                   "(the default preset, kbp2015 = EvmEval scorer_v1.7.1 for TAC KBP 2015, reads token ids unless "
                   "--char-spans is given): use --char-spans (or --preset kbp2016/kbp2017, the 2016/2017 rules)\n")
    err = _error(capsys, ["nugget", str(gold), str(system), "--tokens", str(tmp_path)])
    assert "(--tokens): drop --tokens and use --char-spans (or --preset kbp2016/kbp2017, the 2016/2017 rules)" in err
    err = _error(capsys, ["nugget", str(gold), str(system), "--preset", "kbp2017", "--tokens", str(tmp_path)])
    assert "drop --tokens (--preset kbp2017 then reads character spans)" in err
    for args in (["--char-spans"], ["--preset", "kbp2016"]):  # the remedies work: the official numbers
        assert main(["nugget", str(gold), str(system), "-o", "json", *args]) == 0
        assert '"f1": 0.9' in capsys.readouterr().out


def test_token_ids_read_as_char_spans_are_refused(tmp_path, capsys):
    gold = _tbf(tmp_path, "gold.tbf", TOKEN_GOLD)
    err = _error(capsys, ["nugget", str(gold), str(gold), "--preset", "kbp2016"])
    assert err == (f"fastscore: error: {gold}:2: document \"d1\": mention 'E1' has the span 't1,t2', which looks "
                   "like token ids, but the spans are read as character offsets (--preset kbp2016 reads character "
                   "spans unless --tokens is given): use --tokens DIR (the folder of the token tables, DOCID.tab)\n")
    err = _error(capsys, ["nugget", str(gold), str(gold), "--char-spans"])
    assert "(--char-spans): use --tokens DIR (the folder of the token tables, DOCID.tab) instead of --char-spans" in err
    # only the system file in the wrong syntax: it is the one named
    system = _tbf(tmp_path, "system.tbf", CHAR_GOLD.replace("d2", "d1").split("#EndOfDocument\n")[0]
                  + "#EndOfDocument\n")
    with pytest.raises(ParseError) as exc:
        score_nugget(gold, system, tokens=str(tmp_path))
    assert exc.value.path == str(system) and exc.value.line == 2 and exc.value.document == "d1"


@pytest.mark.parametrize("spans", [
    ["12,13", "40,41"],  # two adjacent numeric token ids, or one-character ranges: nothing tells
    ["12,18", "7"],  # a range and a numeric token id: mixed, not refused
    ["12,18;20,22", "t4"],
])
def test_ambiguous_span_syntax_is_not_refused(tmp_path, spans):
    text = "#BeginOfDocument d1\n" + "".join(f"g\td1\tE{k}\t{s}\tx\tA\tActual\n" for k, s in enumerate(spans)) \
           + "#EndOfDocument\n"
    gold = _tbf(tmp_path, "g.tbf", text)
    assert _span_f1(score_nugget(gold, gold, tokens=str(tmp_path))) == 1.0  # scored in token mode
    if all(span_kind(s) in ("narrow", "wide") for s in spans):
        assert _span_f1(score_nugget(gold, gold, preset="kbp2016")) == 1.0


def test_numeric_token_ids_are_token_ids(tmp_path):
    text = TOKEN_GOLD.replace("t1,t2", "1,2").replace("t5", "5")
    gold = _tbf(tmp_path, "g.tbf", text)
    assert _span_f1(score_nugget(gold, gold, tokens=str(tmp_path))) == 1.0
    with pytest.raises(ParseError, match="'5', which looks like token ids"):
        score_nugget(gold, gold, preset="kbp2016")


# 2. one summary warning for the documents without a token table

def test_missing_token_tables_give_one_summary_warning_naming_the_current_folder(tmp_path, monkeypatch):
    docs = [f"doc{k}" for k in range(7)]
    gold = _tbf(tmp_path, "g.tbf", "".join(TOKEN_GOLD.replace("d1", d) for d in docs))
    monkeypatch.chdir(tmp_path)  # no table here
    result = score_nugget(gold, gold)
    assert result.warnings == [(
        'no token table for 7 of 7 document(s) in the token folder "." (DOCID.tab): "doc0", "doc1", "doc2", "doc3", '
        '"doc4" ...: invisible words not removed and token ids not checked there (as EvmEval does); the token '
        "folder is the current directory unless --tokens DIR names another")]  # the API says tokens=DIR
    tkn = tmp_path / "tkn"
    tkn.mkdir()
    for d in docs[:5]:
        (tkn / f"{d}.tab").write_text(TABLE)
    result = score_nugget(gold, gold, tokens=str(tkn))
    assert result.warnings == [(f'no token table for 2 of 7 document(s) in the token folder "{tkn}" (DOCID.tab): '
                                '"doc5", "doc6": invisible words not removed and token ids not checked there (as '
                                "EvmEval does)")]


# 3. same-span mentions in one cluster, however the span is written

@pytest.mark.parametrize("preset, first, second, shown", [
    ("kbp2015", "t3,t5", "t5,t3", "('t3,t5' and 't5,t3')"),
    ("kbp2016", "12,18", "12,15;15,18", "('12,18' and '12,15;15,18')"),
    ("kbp2016", "12,18", "12,18", "'12,18'"),
])
def test_same_span_written_differently_in_a_cluster_warns(tmp_path, preset, first, second, shown):
    text = ("#BeginOfDocument d1\n"
            f"g\td1\tE1\t{first}\tkill\tLife_Die\tActual\n"
            f"g\td1\tE2\t{second}\tkill\tLife_Die\tActual\n"
            "@Coreference\tR1\tE1,E2\n#EndOfDocument\n")
    gold = _tbf(tmp_path, "g.tbf", text)
    options = {"tokens": str(tmp_path)} if preset == "kbp2015" else {"preset": preset}
    result = score_nugget(gold, gold, coref=True, **options)
    same = [w for w in result.warnings if "same span" in w]
    assert len(same) == 2  # one per role (gold and system are one file here)
    assert same[0] == ("1 coreference cluster(s) hold two mentions with the same span, which the specification "
                       f"forbids (scored anyway, as EvmEval does); first: {gold}:4: document \"d1\": cluster 'R1' "
                       f"has mentions 'E1' and 'E2' with the same span {shown}")
    assert _span_f1(result) == 1.0


def test_different_spans_in_a_cluster_do_not_warn(tmp_path):
    text = ("#BeginOfDocument d1\ng\td1\tE1\t12,18\tkill\tLife_Die\tActual\n"
            "g\td1\tE2\t12,15;16,18\tkill\tLife_Die\tActual\n@Coreference\tR1\tE1,E2\n#EndOfDocument\n")
    gold = _tbf(tmp_path, "g.tbf", text)
    assert score_nugget(gold, gold, preset="kbp2016", coref=True).warnings == []


# 4. token ids absent from the token table

def test_token_ids_absent_from_the_token_table_warn_once_per_file(tmp_path):
    tkn = tmp_path / "tkn"
    tkn.mkdir()
    (tkn / "d1.tab").write_text(TABLE)
    gold = _tbf(tmp_path, "g.tbf", TOKEN_GOLD)
    system = _tbf(tmp_path, "s.tbf", TOKEN_GOLD.replace("t1,t2", "t2,t9").replace("\tt5\t", "\tt5,t8\t"))
    result = score_nugget(gold, system, tokens=str(tkn))
    assert result.warnings == [(
        f"{system}: 2 mention(s) name token ids that their document's token table does not have (scored as "
        f"written, as EvmEval does); first: {system}:2: document \"d1\": mention 'E1' names token 't9', which "
        f"{tkn / 'd1.tab'} does not have")]
    # scored as written: "the" (t1) is invisible, t9 counts; E2: 2 * 1 / (1 + 2)
    assert result.to_dict()["metrics"]["span"]["micro"]["tp"] == pytest.approx(2 / 3 + 2 / 3)
    assert score_nugget(gold, gold, tokens=str(tkn), preset="kbp2017").warnings == []


# 5. @Coreference members that name no mention

def test_undefined_coreference_member_is_ignored_with_a_warning(tmp_path):
    """EvmEval passes over a member no mention defines (its CoNLL lines are made from the mentions):
    the numbers are those of the clusters without it, in every mode."""
    gold = _tbf(tmp_path, "g.tbf", CHAR_GOLD)
    clusters = "@Coreference\tC1\tE1,E7\n@Coreference\tC2\tE2,E8\n#EndOfDocument"
    system = _tbf(tmp_path, "s.tbf", CHAR_SYSTEM.replace("#EndOfDocument", clusters))
    without = _tbf(tmp_path, "w.tbf", CHAR_SYSTEM.replace("#EndOfDocument", clusters.replace(",E7", "").replace(
        ",E8", "")))
    warning = (f"{system}: 5 @Coreference member(s) name mentions that are not defined in their document, ignored "
               f"(as EvmEval does); first: {system}:4: document \"d1\": cluster 'C1' names mention 'E7'")
    for options in ({}, {"coref": True}, {"sequencing": True}):
        for pair, plain in (((gold, system), (gold, without)), ((system, gold), (without, gold))):
            result = score_nugget(*pair, preset="kbp2016", **options)
            assert warning in result.warnings
            expected = score_nugget(*plain, preset="kbp2016", **options).to_dict()
            assert result.to_dict()["metrics"] == expected["metrics"]
            assert result.to_dict().get("coref") == expected.get("coref")
            assert result.to_dict().get("sequencing") == expected.get("sequencing")


# 6. an empty system file

@pytest.mark.parametrize("text", ["", "\n  \n\t\n"])
def test_empty_system_file_is_a_system_that_found_nothing(tmp_path, capsys, text):
    gold, empty = _tbf(tmp_path, "g.tbf", CHAR_GOLD), _tbf(tmp_path, "empty.tbf", text)
    result = score_nugget(gold, empty, preset="kbp2016", coref=True)
    assert result.warnings == [f"{empty}: no document in the system file: scored as a system that found nothing"]
    span = result.to_dict()["metrics"]["span"]["micro"]
    assert (span["tp"], span["system"], span["gold"], span["recall"]) == (0, 0, 3, 0)
    assert result.documents == ["d1", "d2"]
    assert main(["nugget", str(gold), str(empty), "--preset", "kbp2016", "-o", "evmeval"]) == 0
    assert capsys.readouterr().err.count("fastscore: warning: ") == 1
    with pytest.raises(ParseError, match='no "#BeginOfDocument" line'):
        score_nugget(empty, gold, preset="kbp2016")


# 7. documents the two files do not share

def test_system_sharing_no_document_with_the_gold_is_an_error(tmp_path, capsys):
    gold = _tbf(tmp_path, "g.tbf", CHAR_GOLD)
    system = _tbf(tmp_path, "s.tbf", CHAR_SYSTEM.replace("d1", "x1").replace("d2", "x2"))
    with pytest.raises(InputError) as exc:
        score_nugget(gold, system, preset="kbp2016")
    assert str(exc.value) == (f'{system}: none of its 2 document(s) is in the gold standard {gold} (system: "x1", '
                              '"x2"; gold: "d1", "d2"): check that the system output is for these gold documents '
                              '(the names on the "#BeginOfDocument" lines must match)')
    assert main(["nugget", str(gold), str(system), "--preset", "kbp2016"]) == 1
    assert "none of its 2 document(s)" in capsys.readouterr().err


def test_system_documents_absent_from_the_gold_warn(tmp_path):
    gold = _tbf(tmp_path, "g.tbf", CHAR_GOLD)
    extra = "".join(CHAR_SYSTEM.split("#EndOfDocument\n")[1].replace("d2", f"x{k}") + "#EndOfDocument\n"
                    for k in range(6))
    system = _tbf(tmp_path, "s.tbf", CHAR_SYSTEM.split("#BeginOfDocument d2")[0] + extra)
    result = score_nugget(gold, system, preset="kbp2016")
    assert result.warnings == [
        f'{system}: 1 gold document(s) missing from the system output, scored as empty: "d2"',
        f'{system}: 6 system document(s) not in the gold standard {gold}, not scored: "x0", "x1", "x2", "x3", "x4" ...']
    assert result.documents == ["d1", "d2"]


def test_mention_in_two_clusters_that_the_whitelist_removes_is_scored(tmp_path):
    """EvmEval filters the clusters by the type whitelist before its transitive-closure check: a shared
    mention of a type left out is no error (without the whitelist it is)."""
    body = ("#BeginOfDocument d\n"
            "g\td\tE1\t0,4\tmade\tConflict_Attack\tActual\n"
            "g\td\tE2\t10,14\tkill\tConflict_Attack\tActual\n"
            "g\td\tE3\t20,24\tdied\tLife_Die\tActual\n"
            "g\td\tE4\t30,34\twent\tConflict_Attack\tActual\n"
            "@Coreference\tR1\tE1,E3\n@Coreference\tR2\tE2,E3,E4\n#EndOfDocument\n")
    gold = _tbf(tmp_path, "g.tbf", body)
    plain = _tbf(tmp_path, "p.tbf", body.replace("E1,E3", "E1,E2").replace("E2,E3,E4", "E4,E3"))
    system = _tbf(tmp_path, "s.tbf", body.replace("R1\tE1,E3\n@Coreference\tR2\tE2,E3,E4", "R1\tE2,E4"))
    whitelist = tmp_path / "wl.txt"
    whitelist.write_text("Conflict_Attack\n")
    with pytest.raises(ParseError, match="mention 'E3' is in clusters 'R1'"):
        score_nugget(gold, system, preset="kbp2016", coref=True)
    kept = {"preset": "kbp2016", "coref": True, "type_whitelist": str(whitelist)}
    scored = score_nugget(gold, system, **kept).to_dict()["coref"]
    # the whitelist leaves {E1} (dropped: one mention) and {E2, E4}; the plain file leaves {E1, E2} and {E4}
    assert scored != score_nugget(plain, system, **kept).to_dict()["coref"]
    alone = _tbf(tmp_path, "a.tbf", body.replace("@Coreference\tR1\tE1,E3\n", "").replace("E2,E3,E4", "E2,E4"))
    assert scored == score_nugget(alone, system, **kept).to_dict()["coref"]
    assert scored["muc"]["f1"] == 1.0


@pytest.mark.parametrize("option", ["type_whitelist", "invisible_words"])
def test_a_word_list_that_is_not_utf8_names_its_line(tmp_path, option):
    gold = _tbf(tmp_path, "g.tbf", TOKEN_GOLD)
    (tmp_path / "tkn").mkdir()
    (tmp_path / "tkn" / "d1.tab").write_text(TABLE)
    words = tmp_path / "words.txt"
    words.write_bytes(b"Conflict_Attack\nLife\xff_Die\n")
    with pytest.raises(InputError, match=r"words.txt:2: invalid UTF-8 byte 0xff"):
        score_nugget(gold, gold, tokens=str(tmp_path / "tkn"), **{option: str(words)})
