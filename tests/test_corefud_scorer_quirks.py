"""CorefUD inputs on which corefud-scorer 1.2 (udapi 0.5.2) crashes though the intended score is plain: scored
with one warning naming file and line; or where it crashes on a link: one clear error (issue 36).  The scorer's
behaviour on each was observed on variants of the bundled example (see docs/corefud.md)."""
import warnings

import pytest

import fastscore
from fastscore.errors import FastscoreError, FastscoreWarning
from fastscore.formats.conllu import read_conllu

from tests import reference_conllu

DOC = """# newdoc id = d1
# global.Entity = eid-etype-head-other
# sent_id = s1
1\tMaria\tmaria\tPROPN\t_\t_\t2\tnsubj\t_\tEntity=(e1-person-1)
2\tbought\tbuy\tVERB\t_\t_\t0\troot\t_\t_
3\tit\tit\tPRON\t_\t_\t2\tobj\t_\tEntity=(e2-object-1)

# sent_id = s2
1\tShe\tshe\tPRON\t_\t_\t2\tnsubj\t_\tEntity=(e1-person-1)
2\tsold\tsell\tVERB\t_\t_\t0\troot\t_\t_
3\tit\tit\tPRON\t_\t_\t2\tobj\t_\tEntity=(e2-object-1)
4\tto\tto\tADP\t_\t_\t5\tcase\t_\t_
5\tTom\tTom\tPROPN\t_\t_\t2\tobl\t_\tEntity=(e3-person-1)

"""


def _pair(tmp_path, text):
    kp, rp = tmp_path / "key.conllu", tmp_path / "response.conllu"
    kp.write_text(text, encoding="utf-8")
    rp.write_text(text, encoding="utf-8")
    return kp, rp


def _score(kp, rp):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", FastscoreWarning)
        result = fastscore.score_coref(kp, rp)
    return result, [str(w.message) for w in caught if issubclass(w.category, FastscoreWarning)]


def _same_as_oracle(path):
    assert read_conllu(path).warnings == reference_conllu.read_conllu(path).warnings


@pytest.mark.parametrize("text, line, what", [
    ("\n" + DOC, 1, "starts with one empty line"),
    (DOC.replace("\n\n# sent_id = s2", "\n \n# sent_id = s2"), 7, "only white space"),
    (DOC.replace("\n\n# sent_id = s2", "\n\n\t\n# sent_id = s2"), 8, "only white space"),
    (DOC + " \n", 15, "only white space"),
    (DOC.replace("\n\n# sent_id = s2", "\n\n\u00a0\n# sent_id = s2"), 8, "only white space"),  # int('\xa0') fails
    (DOC + "\u3000\x0b\n", 15, "only white space"),
])
def test_lines_that_crash_the_scorer_are_scored_with_a_warning(tmp_path, text, line, what):
    kp, rp = _pair(tmp_path, text)
    result, said = _score(kp, rp)
    assert result.f1("conll") == 1.0
    mine = [w for w in said if what in w and "the CorefUD scorer crashes" in w]
    assert any(f"key.conllu:{line}:" in w for w in mine) and any(f"response.conllu:{line}:" in w for w in mine)
    _same_as_oracle(kp)


def test_two_leading_empty_lines_are_read_silently_as_by_the_scorer(tmp_path):
    kp, rp = _pair(tmp_path, "\n\n" + DOC)
    assert not [w for w in _score(kp, rp)[1] if "crashes" in w]
    _same_as_oracle(kp)


def _refused(path, *words):
    with pytest.raises(FastscoreError) as exc:
        read_conllu(path)
    with pytest.raises(FastscoreError) as oracle:
        reference_conllu.read_conllu(path)
    assert str(exc.value) == str(oracle.value)
    assert all(w in str(exc.value) for w in words), str(exc.value)


ON_MARIA = "Entity=(e1-person-1)\n2\tbought"


@pytest.mark.parametrize("misc, words", [
    ("Entity=(e1-person-1)|SplitAnte=e1<e3,e2<e3", ("key.conllu:4:", "SplitAnte names entity 'e3' before its first mention")),
    ("Entity=(e1-person-1)|Bridge=e1<e3", ("key.conllu:4:", "Bridge names entity 'e3' before its first mention")),
    ("Entity=(e1-person-1)|Split=e1<e3,e2<e3", ("Split names entity 'e3' before its first mention",)),
    ("Entity=(e1-person-1)|Split=e9<e1", ("key.conllu:4:", "Split names entity 'e9', which has no mention")),
])
def test_links_udapi_cannot_follow_are_refused(tmp_path, misc, words):
    """udapi reads links node by node (a KeyError for an entity not yet opened) and reads the legacy Split=
    as SplitAnte (a ValueError for an entity without mention): the scorer crashes."""
    kp, _ = _pair(tmp_path, DOC.replace(ON_MARIA, misc + "\n2\tbought", 1))
    _refused(kp, *words)


ON_TOM = "Entity=(e3-person-1)\n"
ON_BOUGHT = "0\troot\t_\t_\n3\tit"  # the MISC of a node without Entity


@pytest.mark.parametrize("misc, words", [
    ("Entity=(e1-person-1)|SplitAnte=e9<e1|Bridge=e9<e1", ("key.conllu:4:", "Bridge names entity 'e9', which has no")),
    ("Entity=(e1-person-1)|Bridge=e1<e1", ("key.conllu:4:", "Bridge link 'e1<e1' links entity 'e1' to itself")),
    ("Entity=(e1-person-1)|SplitAnte=e1<e1", ("SplitAnte link 'e1<e1' links entity 'e1' to itself",)),
    ("Entity=(e1-person-1)|Bridge=e1<e2<e3", ("Bridge link 'e1<e2<e3' is not ANTECEDENT<ENTITY",)),
    ("Entity=(e1-person-1)|SplitAnte=e2<e1:x", ("SplitAnte names entity 'e1:x', which has no mention",)),
])
def test_links_udapi_stops_on_are_refused_as_it_reads_them(tmp_path, misc, words):
    """udapi reads a node's Bridge before its SplitAnte, drops a Bridge's relation (not a SplitAnte's), and
    stops on a link with two '<' or one entity twice."""
    kp, _ = _pair(tmp_path, DOC.replace(ON_MARIA, misc + "\n2\tbought", 1))
    _refused(kp, *words)


@pytest.mark.parametrize("text", [
    DOC.replace(ON_BOUGHT, "0\troot\t_\tBridge=e9<e1|SplitAnte=e1<e8\n3\tit", 1),  # udapi skips a node without
    DOC.replace(ON_BOUGHT, "0\troot\t_\tEntity=|SplitAnte=e1<e3\n3\tit", 1),  # Entity, links and all
    # the only mention of e9 left open: udapi deletes the entity, the link's check with it
    DOC.replace(ON_TOM, "Entity=(e3-person-1)|Bridge=e9<e3\n", 1).replace("(e2-object-1)\n\n", "(e2-object-1)|"
                                                                           "Entity=(e9-object-1\n\n", 1),
    # udapi reads nodes in the order of their ids, not of their lines: e1 (id 1) is opened before id 2's Bridge
    DOC.replace("1\tMaria\tmaria\tPROPN\t_\t_\t2\tnsubj\t_\tEntity=(e1-person-1)\n2\tbought\tbuy\tVERB\t_\t_\t0\troot\t_\t_\n",
                "2\tbought\tbuy\tVERB\t_\t_\t0\troot\t_\tEntity=(e4-event-1)|Bridge=e4<e1\n"
                "1\tMaria\tmaria\tPROPN\t_\t_\t0\tnsubj\t_\tEntity=(e1-person-1)\n", 1),
])
def test_links_udapi_skips_or_finds_known_are_read(tmp_path, text):
    kp, _ = _pair(tmp_path, text)
    assert read_conllu(kp).warnings == reference_conllu.read_conllu(kp).warnings


@pytest.mark.parametrize("misc", [
    "Entity=(e3-person-1)|SplitAnte=e1<e3,e2<e3",  # after (or at) the entity's first mention
    "Bridge=e1<e3|Entity=(e3-person-1)",  # udapi reads the node's Entity before its links, whatever the order
    "Entity=(e3-person-1)|SplitAnte=e1<e3,e2<e3|Split=e9<e1",  # Split is read only where SplitAnte is not
])
def test_links_udapi_follows_are_read_as_before(tmp_path, misc):
    kp, rp = _pair(tmp_path, DOC.replace(ON_TOM, misc + "\n", 1))
    assert read_conllu(kp).warnings == reference_conllu.read_conllu(kp).warnings == []
    assert _score(kp, rp)[0].f1("conll") == 1.0


@pytest.mark.parametrize("ids, words", [
    (("news/1", "s2"), ("key.conllu:3:", "sentence id 'news/1'", "'1' is not a zone name")),
    (("a/b/c", "s2"), ("key.conllu:3:", "'b/c' is not a zone name")),
    (("x/en", "x/de"), ("key.conllu:9:", "zone 'de' after one in zone 'en' (line 4)")),
    (("a/en", "s2"), ("key.conllu:9:", "no zone after one in zone 'en'")),
])
def test_sentence_ids_udapi_reads_as_zones_it_cannot_score_are_refused(tmp_path, ids, words):
    """udapi reads ``BUNDLE/ZONE``: an invalid zone name, or mentions in two zones (it compares their words),
    stop the scorer (ValueError)."""
    kp, _ = _pair(tmp_path, DOC.replace("sent_id = s1", f"sent_id = {ids[0]}").replace("sent_id = s2",
                                                                                        f"sent_id = {ids[1]}"))
    _refused(kp, *words)


@pytest.mark.parametrize("ids", [("a/en", "b/en"), ("a/", "b/"), ("a/en_x-1", "b/en_x-1")])
def test_sentence_ids_of_one_valid_zone_score_as_the_scorer(tmp_path, ids):
    kp, rp = _pair(tmp_path, DOC.replace("sent_id = s1", f"sent_id = {ids[0]}").replace("sent_id = s2",
                                                                                        f"sent_id = {ids[1]}"))
    assert _score(kp, rp)[0].f1("conll") == 1.0


@pytest.mark.parametrize("misc, line", [
    ("Entity=(e1-person-1)  ", 4),  # trailing spaces on a word line: udapi's chunk "  "
    ("Entity=e1|Entity=(e1-person-1)", None),  # (the last Entity= counts: see below)
    ("Entity=(e1-person-1)e7", 4),
])
def test_entity_chunks_without_a_bracket_are_ignored_with_a_warning(tmp_path, misc, line):
    """udapi warns about a chunk with neither bracket and goes on: the scorer scores the rest."""
    kp, rp = _pair(tmp_path, DOC.replace(ON_MARIA, misc + "\n2\tbought", 1))
    result, said = _score(kp, rp)
    assert result.f1("conll") == 1.0
    mine = [w for w in said if "neither an opening nor a closing bracket" in w]
    assert len(mine) == (0 if line is None else 2) and all(w.endswith(f".conllu:{line}") for w in mine)
    _same_as_oracle(kp)


@pytest.mark.parametrize("misc", [
    "Entity=(e2-object-1)|Entity=(e1-person-1)",  # (read both, Maria would be in e2 too)
    "Entity=(e1-person-1)|Bridge=e7<e1|Bridge=e1<e1x|Entity=(e1-person-1)",  # (e7 never mentioned: not read)
])
def test_of_two_items_of_one_name_in_misc_the_last_counts(tmp_path, misc):
    """udapi's MISC is a DualDict: the last ``Entity=`` (``Bridge=``, ``SplitAnte=``) of a node counts; the
    scorer gives 100 on a pair whose response has only the last."""
    kp, _ = _pair(tmp_path, DOC.replace(ON_MARIA, misc + "\n2\tbought", 1))
    rp = tmp_path / "plain.conllu"
    rp.write_text(DOC, encoding="utf-8")
    if "e1x" in misc:
        _refused(kp, "Bridge names entity 'e1x', which has no mention")
        return
    assert _score(kp, rp)[0].f1("conll") == 1.0
    _same_as_oracle(kp)


def test_coreference_on_a_multiword_token_line_is_ignored_with_a_warning(tmp_path):
    """udapi keeps a multiword token's MISC apart from its words': the scorer reads no mention there."""
    mwt = "2-3\tbought-it\t_\t_\t_\t_\t_\t_\t_\tEntity=(e7-x-1)\n2\tbought"
    kp, _ = _pair(tmp_path, DOC.replace("\n2\tbought", "\n" + mwt, 1))
    rp = tmp_path / "plain.conllu"
    rp.write_text(DOC.replace("\n2\tbought", "\n" + mwt.replace("Entity=(e7-x-1)", "_"), 1), encoding="utf-8")
    result, said = _score(kp, rp)
    assert result.f1("conll") == 1.0
    assert [w for w in said if "multiword-token line(s) ignored" in w and "key.conllu:5" in w]
    _same_as_oracle(kp)


D2 = DOC.replace("# sent_id = s2", "# newdoc id = d2\n# sent_id = s2")


@pytest.mark.parametrize("text, line", [
    (D2.replace("# newdoc id = d2\n", "# newdoc id = d2\n\n"), 8),  # the scorer merges d2 into d1
    (DOC.replace("# newdoc id = d1\n", "# newdoc id = d1\n\n"), 1),  # the scorer crashes (AttributeError)
])
def test_a_newdoc_in_a_block_without_words_is_refused(tmp_path, text, line):
    kp, _ = _pair(tmp_path, text)
    _refused(kp, f"key.conllu:{line}:", "'# newdoc' in a block without words")


def test_newdoc_without_the_space_is_a_plain_comment_as_in_udapi(tmp_path):
    """udapi reads '# newdoc' only: with '#newdoc' d2 is part of d1 (the scorer's BLANC 33.33, not 0)."""
    kp, rp = _pair(tmp_path, D2.replace("# newdoc id = d2", "#newdoc id = d2"))
    rp.write_text(D2.replace("# newdoc id = d2", "#newdoc id = d2").replace("(e2-object-1)\n4\tto",
                                                                            "(e8-object-1)\n4\tto"), encoding="utf-8")
    result, said = _score(kp, rp)
    assert round(100 * result.f1("blanc"), 2) == 33.33
    assert [w for w in said if "'#newdoc' at " in w and "key.conllu:8" in w]
    _same_as_oracle(kp)


def test_a_newdoc_id_keeps_its_trailing_blanks_as_in_udapi(tmp_path):
    """'# newdoc id = d1 ' names document 'd1 ': against a response's 'd1' the scorer stops (DataAlignError)."""
    kp, rp = _pair(tmp_path, DOC.replace("# newdoc id = d1", "# newdoc id = d1 "))
    rp.write_text(DOC, encoding="utf-8")
    with pytest.raises(FastscoreError, match="no document"):
        fastscore.score_coref(kp, rp)
    rp.write_text(DOC.replace("# newdoc id = d1", "# newdoc id = d1 "), encoding="utf-8")
    assert _score(kp, rp)[0].f1("conll") == 1.0


@pytest.mark.parametrize("extra", ["\t", "\tx\ty"])
def test_columns_after_the_tenth_are_ignored_with_a_warning(tmp_path, extra):
    """udapi reads the first 10 columns of a longer token line (an 11th empty column, say)."""
    kp, rp = _pair(tmp_path, DOC.replace(ON_MARIA, "Entity=(e1-person-1)" + extra + "\n2\tbought", 1))
    rp.write_text(DOC, encoding="utf-8")
    result, said = _score(kp, rp)
    assert result.f1("conll") == 1.0
    assert [w for w in said if "more than 10 columns" in w and w.endswith("key.conllu:4")]
    _same_as_oracle(kp)


SECOND = DOC.replace("d1", "d2").replace("s1", "s3").replace("s2", "s4")
HEADER = "# global.Entity = eid-etype-head-other\n"


@pytest.mark.parametrize("text", [
    DOC.replace(HEADER, "") + SECOND,  # a header only in the second document
    DOC.replace(HEADER, "") + HEADER + "\n",  # only in a block of comments closing the file
    DOC + "# a comment\n# sent_id = s9\n\n",  # a block of comments only (udapi drops it) at the end
    DOC.replace("\n\n# sent_id = s2", "\n\n# a comment\n\n# sent_id = s2"),  # and between two sentences
    DOC + "# newdoc id = d3\n\n",  # a newdoc in such a block closing the file: lost, with nothing after it
    DOC.replace("2\tbought\tbuy\tVERB\t_\t_\t0\troot\t_\t_", "2\tbought"),  # udapi fills in '_' (warned)
])
def test_what_udapi_reads_as_one_header_per_file_and_without_comment_blocks_scores(tmp_path, text):
    kp, rp = _pair(tmp_path, text)
    rp.write_text(DOC + (SECOND if "d2" in text else ""), encoding="utf-8")
    result, said = _score(kp, rp)
    assert result.f1("conll") == 1.0
    assert [w for w in said if "fewer than 10 columns" in w] == ([] if "\tbought\n" not in text else [
        f"1 token line(s) with fewer than 10 columns: the missing ones read as '_', as udapi (and so the CorefUD "
        f"scorer) reads them; first: {kp}:5"])
    _same_as_oracle(kp)


def test_the_last_header_holds_for_the_whole_file_and_the_switch_reads_each_as_written(tmp_path):
    """A later header without a head field: udapi (so the scorer) reads no head index in the file (warned);
    --fix-corefud-quirks reads the first document's with its own header."""
    two_words = DOC.replace("4\tto\tto\tADP\t_\t_\t5\tcase\t_\t_\n5\tTom\tTom\tPROPN\t_\t_\t2\tobl\t_\tEntity=(e3-person-1)",
                            "4\tto\tto\tADP\t_\t_\t5\tcase\t_\tEntity=(e3-person-2\n5\tTom\tTom\tPROPN\t_\t_\t2\tobl\t_\t"
                            "Entity=e3)")
    kp, _ = _pair(tmp_path, two_words + SECOND.replace("eid-etype-head-other", "eid-etype"))
    udapi, written = read_conllu(kp), read_conllu(kp, fix_corefud_quirks=True)
    assert [w for w in udapi.warnings if "differ from the file's last, 'eid-etype'" in w]
    assert not written.warnings
    words = udapi.words
    (row,) = [r for r in range(len(words.head)) if words.offsets[r + 1] - words.offsets[r] == 2]  # "to Tom"
    to, tom = (int(k) for k in words.keys[words.offsets[row]:words.offsets[row + 1]])
    assert int(words.head[row]) == to and int(written.words.head[row]) == tom
    for fix in (False, True):
        assert (reference_conllu.read_conllu(kp, fix).words.head == read_conllu(kp, fix).words.head).all()


def test_a_head_index_in_other_decimal_digits_is_read_as_udapi_reads_it(tmp_path):
    two_words = DOC.replace("4\tto\tto\tADP\t_\t_\t5\tcase\t_\t_\n5\tTom\tTom\tPROPN\t_\t_\t2\tobl\t_\tEntity=(e3-person-1)",
                            "4\tto\tto\tADP\t_\t_\t5\tcase\t_\tEntity=(e3-person-2\n5\tTom\tTom\tPROPN\t_\t_\t2\tobl\t_\t"
                            "Entity=e3)")
    kp, rp = _pair(tmp_path, two_words.replace("(e3-person-2", "(e3-person-\u0662"))
    rp.write_text(two_words, encoding="utf-8")
    assert (read_conllu(kp).words.head == read_conllu(rp).words.head).all()
    assert _score(kp, rp)[0].f1("conll") == 1.0
    _same_as_oracle(kp)


def test_one_newline_ending_the_file_is_scored_with_a_warning(tmp_path):
    """udapi splits the text at empty lines: a last piece ending with a newline has an empty last line, which
    it reads as a word line (IndexError): the scorer crashes."""
    kp, rp = _pair(tmp_path, DOC.rstrip("\n") + "\n")
    result, said = _score(kp, rp)
    assert result.f1("conll") == 1.0
    assert [w for w in said if w.startswith(f"{kp}:13: the last sentence ends the file with one newline")]
    _same_as_oracle(kp)
