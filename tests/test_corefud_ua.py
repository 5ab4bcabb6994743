"""CorefUD files scored with the UA scorer's definitions (issue 39 §2): SplitAnte as split antecedents, Bridge as
bridging.  fastscore's numbers on seeded generated CoNLL-U pairs (scripts/gen_corefud_ua.py) equal the UA scorer's
on the same pairs converted to UA (tests/data/corefud_ua_anchors, made by scripts/make_corefud_ua_anchors.py); the
conversions both ways keep what docs/ua.md says they keep; what cannot be scored is a clear error."""
from __future__ import annotations

import contextlib
import functools
import gzip
import io
import json
import re
import sys
from pathlib import Path

import pytest

from fastscore.cli import main
from fastscore.coref.score import score_coref
from fastscore.errors import FastscoreError, UsageError
from fastscore.ua.corefud import convert_to_ua, convert_ua_to_conllu, corefud_as_ua
from fastscore.ua.reader import read_ua
from tests.conftest import TESTDATA
from tests.ua_cases import ORDER, PREFIX, keywords

ANCHORS = TESTDATA / "corefud_ua_anchors" / "anchors.json.gz"
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))

FAST_SEEDS = (2, 3, 5)


@functools.lru_cache(maxsize=1)
def anchors() -> dict:
    return json.loads(gzip.decompress(ANCHORS.read_bytes()))


def write_pair(seed: int, folder: Path) -> tuple[str, str]:
    from gen_corefud_ua import pair

    key, sys_ = pair(seed, **anchors()["generator"])
    (folder / f"{seed}.key.conllu").write_text(key)
    (folder / f"{seed}.sys.conllu").write_text(sys_)
    return str(folder / f"{seed}.key.conllu"), str(folder / f"{seed}.sys.conllu")


def conllu_keywords(flags: list[str]) -> dict:
    """The scorer's flags as fastscore's keywords for CoNLL-U files (split antecedents kept unless dropped: one
    UA option makes CoNLL-U scored as the UA scorer scores)."""
    out = {"split_antecedents": "keep", **keywords(flags)}
    return out


def differences(seed: int, config: str, folder: Path) -> list[str]:
    from fastscore.ua.report import render

    data = anchors()
    answer = data["cases"][f"seed:{seed}"][config]
    flags = data["configs"][config]
    key, sys_ = write_pair(seed, folder)
    try:
        result = score_coref(key, sys_, format="conllu", **conllu_keywords(flags))
    except FastscoreError as e:
        return [] if "error" in answer else [f"fastscore refused: {e}"]
    if "error" in answer:
        return [f"the scorer failed ({answer['error']}), fastscore scored"]
    out = []
    sums = result.doc_stats.sums()
    only_split = "only_split_antecedent" in flags
    for metric, prefix in PREFIX.items():
        numbers = answer["counts"][metric][4:] if only_split else answer["counts"][metric][:4]
        for c, a, b in zip(ORDER, numbers, [float(sums[f"{prefix}_{c}"]) for c in ORDER]):
            if abs(a - b) > 1e-9 * max(1.0, abs(a)):
                out.append(f"{metric} {c}: scorer {a!r}, fastscore {b!r}")
    if render(result) != answer["report"]:
        out.append(f"report differs:\n{render(result)}\n---\n{answer['report']}")
    return out


@pytest.mark.parametrize("seed", FAST_SEEDS)
def test_a_few_generated_pairs_as_the_ua_scorer(seed, tmp_path):
    for config in anchors()["configs"]:
        assert differences(seed, config, tmp_path) == [], (seed, config)


@pytest.mark.slow
def test_every_generated_pair_as_the_ua_scorer(tmp_path):
    data = anchors()
    bad = {}
    for name in data["cases"]:
        seed = int(name.partition(":")[2])
        for config in data["configs"]:
            found = differences(seed, config, tmp_path)
            if found:
                bad[(seed, config)] = found
    assert not bad, f"{len(bad)} differ; first: {next(iter(bad.items()))}"


def test_anchors_cover_two_hundred_pairs_per_option_set():
    data = anchors()
    assert len(data["cases"]) >= 200 and len(data["configs"]) >= 8
    assert all(len(per) == len(data["configs"]) for per in data["cases"].values())


def test_generated_pairs_hold_what_the_issue_asks():
    """Several split antecedents of one entity, a plural antecedent, Bridge and SplitAnte, one-sided documents."""
    from gen_corefud_ua import pair

    texts = [t for seed in range(1, 41) for t in pair(seed, **anchors()["generator"])]
    assert any("SplitAnte=" in t and "Bridge=" in t for t in texts)
    assert any(":part" in t for t in texts)
    keys = [pair(seed, **anchors()["generator"]) for seed in range(1, 41)]
    assert any(k.count("# newdoc") != s.count("# newdoc") for k, s in keys)


# --- without the UA options nothing changes; the options CorefUD has no field for ---------------------------------

def _cli(*args) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
        rc = main(list(args))
    return rc, out.getvalue(), err.getvalue()


def test_without_ua_options_the_corefud_scorer_numbers(tmp_path):
    key, sys_ = write_pair(2, tmp_path)
    plain = score_coref(key, sys_, format="conllu")
    assert plain.options.get("format") == "conllu" and "split-antecedents" not in plain.options
    ua = score_coref(key, sys_, format="conllu", split_antecedents="keep")
    assert "split-antecedents" in ua.options


def test_cli_output_ua_and_json_bridging(tmp_path):
    key, sys_ = write_pair(3, tmp_path)
    rc, out, err = _cli("coref", key, sys_, "--format", "conllu", "--split-antecedents", "keep", "--bridging",
                        "--output", "json")
    assert rc == 0, err
    got = json.loads(out)
    assert set(got["bridging"]) == {"bridging_anaphora_recognition_scores", "full_bridging_scores_markable_level",
                                    "full_bridging_scores_entity_level"}
    rc, out, err = _cli("coref", key, sys_, "--format", "conllu", "--bridging", "--output", "ua")
    assert rc == 0 and out.startswith("The scorer is evaluating") and "Bridging anaphora" in out, err
    rc, out, err = _cli("coref", key, sys_, "--format", "conllu", "--output", "ua")
    assert rc == 2 and "--output ua" in err  # a usage error


@pytest.mark.parametrize("option", ["--non-referring", "--discourse-deixis"])
def test_options_corefud_has_no_field_for_are_errors(option, tmp_path):
    key, sys_ = write_pair(2, tmp_path)
    rc, _, err = _cli("coref", key, sys_, "--format", "conllu", "--bridging", option)
    assert rc == 2 and "CorefUD files have no field" in err and "Traceback" not in err


def test_split_antecedent_cycle_is_an_error_naming_file_and_document(tmp_path):
    path = tmp_path / "k.conllu"
    path.write_text(DOC.format(links="|SplitAnte=e1<e3,e2<e3").replace("Entity=(e1-x-1)",
                                                                        "Entity=(e1-x-1)|SplitAnte=e3<e1,e2<e1"))
    rc, _, err = _cli("coref", str(path), str(path), "--format", "conllu", "--split-antecedents", "keep")
    assert rc == 1 and "cycle" in err and "k.conllu" in err and "'d'" in err and "Traceback" not in err
    rc, _, err = _cli("coref", str(path), str(path), "--format", "conllu", "--split-antecedents", "drop")
    assert rc == 0, err


def test_corefud_matching_with_ua_options_is_an_error(tmp_path):
    key, sys_ = write_pair(2, tmp_path)
    with pytest.raises(UsageError, match="--match partial"):
        score_coref(key, sys_, format="conllu", bridging=True, match="partial")


# --- malformed links: one clear error ----------------------------------------------------------------------------

DOC = """# global.Entity = eid-etype-head-other
# newdoc id = d
# sent_id = d-1
1\tA\t_\t_\t_\t_\t0\troot\t0:root\tEntity=(e1-x-1)
2\tB\t_\t_\t_\t_\t1\tdep\t1:dep\tEntity=(e2-x-1)
3\tC\t_\t_\t_\t_\t1\tdep\t1:dep\tEntity=(e3-x-1){links}

"""


@pytest.mark.parametrize("links, problem", [
    ("|SplitAnte=e1<e3,e2", "is not ANTECEDENT<ENTITY"),
    ("|Bridge=e3<e3", "to itself"),
    ("|Bridge=e9<e3", "which has no mention"),
    ("|SplitAnte=e1<e2<e3", "is not ANTECEDENT<ENTITY"),
])
def test_malformed_links_are_clear_errors(links, problem, tmp_path):
    path = tmp_path / "k.conllu"
    path.write_text(DOC.format(links=links))
    rc, _, err = _cli("coref", str(path), str(path), "--format", "conllu", "--bridging")
    assert rc == 1 and problem in err and "k.conllu:6" in err and '"d"' in err and "Traceback" not in err


# --- conversions ---------------------------------------------------------------------------------------------------

def _canonical(ua_path: str) -> dict:
    """Per document: the clusters (sets of spans), each plural cluster's antecedent clusters, the bridging pairs
    (anaphor span, anchor's cluster): what the conversions keep, entity and markable ids aside."""
    f = read_ua(ua_path, with_bridging=True)
    out = {}
    for name, doc in f.documents.items():
        clusters: dict[str, frozenset] = {}
        for m in doc.markables.values():
            clusters[m.entity] = clusters.get(m.entity, frozenset()) | {m.span}
        plural = {clusters[p]: frozenset(clusters[doc.markables[mid].entity] for mid in mids)
                  for p, mids in doc.element_of.items() if p in clusters}
        bridging = {(doc.markables[a].span, clusters[doc.markables[b].entity]) for a, b in doc.bridging.items()}
        out[name] = (frozenset(clusters.values()), plural, bridging)
    return out


@pytest.mark.parametrize("seed", FAST_SEEDS)
def test_corefud_to_ua_to_corefud_keeps_what_it_says(seed, tmp_path):
    key, _ = write_pair(seed, tmp_path)
    first, back, again = (str(tmp_path / x) for x in ("a.ua", "b.conllu", "c.ua"))
    convert_to_ua(key, first)
    convert_ua_to_conllu(first, back)
    convert_to_ua(back, again)
    assert _canonical(first) == _canonical(again)
    # the words and their columns are kept (Entity, Bridge and SplitAnte written anew)
    strip = [line.split("\t")[:9] for line in Path(key).read_text().splitlines() if line[:1].isdigit()]
    assert strip == [line.split("\t")[:9] for line in Path(back).read_text().splitlines() if line[:1].isdigit()]


def test_ua_to_corefud_says_what_it_loses(tmp_path):
    path = tmp_path / "a.ua"
    line = "{i}\tw\t_\t_\t_\t_\t_\t_\t_\t_\t{ident}\t_\t{deixis}\n"
    cells = ["(EntityID=1|MarkableID=a|Min=1,2", ")", "(EntityID=n-Pseudo|MarkableID=b)", "(EntityID=1|MarkableID=c)"]
    path.write_text("# newdoc id = d\n" + "".join(line.format(i=i + 1, ident=c, deixis="(EntityID=9|MarkableID=z)"
                                                               if i == 3 else "_") for i, c in enumerate(cells)))
    warnings = convert_ua_to_conllu(str(path), str(tmp_path / "b.conllu"))
    text = " ".join(warnings)
    assert "non-referring" in text and "DISCOURSE_DEIXIS" in text and "Min span" in text
    assert "Entity=(1-" in (tmp_path / "b.conllu").read_text()


@pytest.mark.parametrize("ident", ["16384", "9" * 30])
def test_ua_to_corefud_refuses_an_id_too_large_for_a_word_key(tmp_path, ident):
    path = tmp_path / "a.ua"
    path.write_text(f"# newdoc id = d\n1\tw\t_\t_\t_\t_\t_\t_\t_\t_\t(EntityID=1|MarkableID=a)\t_\t_\n"
                    f"{ident}\tw\t_\t_\t_\t_\t_\t_\t_\t_\t_\t_\t_\n")
    with pytest.raises(FastscoreError, match=f"a.ua:3: document 'd': '{ident}' in the first column is an ID over 16383"):
        convert_ua_to_conllu(str(path), str(tmp_path / "b.conllu"))
    assert not (tmp_path / "b.conllu").exists()


def test_convert_cli_both_ways(tmp_path):
    key, _ = write_pair(1, tmp_path)
    rc, _, err = _cli("convert", key, str(tmp_path / "k.ua"), "--to", "ua")
    assert rc == 0, err
    rc, _, err = _cli("convert", str(tmp_path / "k.ua"), str(tmp_path / "k.conllu"), "--to", "conllu")
    assert rc == 0, err
    rc, _, err = _cli("convert", str(tmp_path / "k.ua"), str(tmp_path / "k.jsonl"), "--to", "jsonl")
    assert rc == 2 and "--to conllu" in err
    rc, _, err = _cli("convert", key, str(tmp_path / "k2.ua"), "--to", "ua", "--from", "ua")
    assert rc == 2 and "--from ua --to ua: a UA file converts --to conllu" in err


def test_an_empty_file_to_ua_is_an_empty_file_not_conll2012(tmp_path):
    (tmp_path / "k.conllu").write_bytes(b"")
    rc, _, err = _cli("convert", str(tmp_path / "k.conllu"), str(tmp_path / "k.ua"), "--to", "ua")
    assert rc == 1 and "k.conllu: empty file: no document to convert" in err and "CoNLL-2012" not in err


def test_a_conllu_file_given_as_ua_says_so(tmp_path):
    path = tmp_path / "k.conllu"
    path.write_text(DOC.format(links=""))
    rc, _, err = _cli("coref", str(path), str(path), "--format", "ua")
    assert rc == 1 and "k.conllu:4:" in err and "10 column(s)" in err and "--format conllu" in err


def test_scoring_is_the_converted_files_scored(tmp_path):
    """The CoNLL-U pair scored with the UA options and its conversion scored as UA files: the same numbers."""
    from fastscore.ua.score import score_ua

    key, sys_ = write_pair(5, tmp_path)
    ku, su = str(tmp_path / "k.ua"), str(tmp_path / "s.ua")
    for src, dst in ((key, ku), (sys_, su)):
        (tmp_path / dst).write_text(corefud_as_ua(src).text)
    a = score_coref(key, sys_, format="conllu", split_antecedents="keep", bridging=True).doc_stats.sums()
    b = score_ua(ku, su, bridging=True).doc_stats.sums()
    assert {k: float(v) for k, v in a.items()} == {k: float(v) for k, v in b.items()}


# --- readings: the anchor chosen, what udapi drops, GRP ids, shards, compare --------------------------------------

BRIDGED = """# global.Entity = {header}
# newdoc id = d
# sent_id = d-1
1\tA\t_\t_\t_\t_\t0\troot\t0:root\tEntity=(e1-x-1)
2\tB\t_\t_\t_\t_\t1\tdep\t1:dep\tEntity=(e1-x-1)
3\tC\t_\t_\t_\t_\t1\tdep\t1:dep\tEntity=(e2-x-1)|Bridge=e1<e2:part
4\tD\t_\t_\t_\t_\t1\tdep\t1:dep\tEntity=(e1-x-1)
5\tE\t_\t_\t_\t_\t1\tdep\t1:dep\tEntity=(e3-x-1)|Bridge=e1<e3
6\tF\t_\t_\t_\t_\t1\tdep\t1:dep\tEntity=(e4-x-1|Bridge=e2<e4

"""


def test_bridge_anchor_is_the_last_mention_opened_before_and_a_left_open_anaphor_drops_it(tmp_path):
    path = tmp_path / "k.conllu"
    path.write_text(BRIDGED.format(header="eid-etype-head-other"))
    ua = corefud_as_ua(str(path))
    cells = [line.split("\t")[11] for line in ua.text.splitlines() if line[:1].isdigit()]
    # markables are numbered by entity: e1's m1-m3 (tokens 1, 2, 4), e2's m4 (token 3), e3's m5 (token 5)
    assert cells[2] == "(MarkableID=m4|MentionAnchor=m2)"  # e1's mention opened last before it, not its first
    assert cells[4] == "(MarkableID=m5|MentionAnchor=m3)"
    assert cells[5] == "_"  # the mention of e4 is never closed: udapi deletes it with its Bridge
    warnings = " ".join(loss_warnings_of(str(path)))
    assert "opened but never closed" in warnings and "left open" in warnings


def loss_warnings_of(path: str) -> list[str]:
    from fastscore.ua.corefud import loss_warnings

    return loss_warnings(path, corefud_as_ua(path))


def test_grp_ids_are_per_document(tmp_path):
    path = tmp_path / "k.conllu"
    text = BRIDGED.format(header="GRP-etype-head-other").replace("|Bridge=e2<e4", "")
    path.write_text(text + text.split("\n", 1)[1].replace("newdoc id = d", "newdoc id = d2").replace("d-1", "d2-1"))
    ua = corefud_as_ua(str(path))
    assert ua.doc_names == ["d", "d2"] and ua.text.count("MentionAnchor=m2") == 2
    assert score_coref(str(path), str(path), format="conllu", bridging=True).scores()["bridging"][
        "full_bridging_scores_markable_level"]["f1"] == 1.0


def test_shards_and_compare_keep_the_bridging_figures(tmp_path):
    for side in ("k", "s"):
        (tmp_path / side).mkdir()
    for seed in (2, 3):
        key, sys_ = write_pair(seed, tmp_path)
        for src, side in ((key, "k"), (sys_, "s")):
            text = re.sub(r"\bdoc(?=\d)", f"s{seed}doc", Path(src).read_text())  # (entity ids: per document)
            (tmp_path / side / f"{seed}.conllu").write_text(text)
    rc, out, err = _cli("coref", str(tmp_path / "k"), str(tmp_path / "s"), "--format", "conllu", "--bridging",
                        "--output", "json")
    assert rc == 0, err
    assert "bridging" in json.loads(out)
    rc, out, err = _cli("compare", key, sys_, sys_, "--format", "conllu", "--bridging")
    assert rc == 0 and "conll F1" in out, err


def test_response_with_other_empty_nodes_is_warned(tmp_path):
    key = tmp_path / "k.conllu"
    key.write_text(DOC.format(links=""))
    sys_ = tmp_path / "s.conllu"
    sys_.write_text(DOC.format(links="").replace("2\tB", "1.1\tZ\t_\t_\t_\t_\t_\t_\t1:dep\t_\n2\tB"))
    result = score_coref(str(key), str(sys_), format="conllu", split_antecedents="keep")
    assert any("another number of tokens" in w for w in result.warnings)


def test_links_across_documents_are_not_written_and_said(tmp_path):
    """CorefUD ids name entities over the file (udapi gives a Bridge to the last mention of its entity so far,
    which may lie in an earlier document); a UA document holds its own markables only."""
    path = tmp_path / "k.conllu"
    path.write_text(DOC.format(links="") + DOC.format(links="|Bridge=e3<e1|SplitAnte=e1<e3,e2<e3").replace(
        "# global.Entity = eid-etype-head-other\n", "").replace("id = d", "id = d2").replace("d-1", "d2-1").replace(
        "(e1-x-1)", "(e5-x-1)").replace("(e2-x-1)", "(e6-x-1)"))
    ua = corefud_as_ua(str(path))
    assert "ElementOf" not in ua.text and "MentionAnchor" not in ua.text
    assert set(ua.lost) == {"split_other_doc", "bridge_other_doc"}


def test_the_ua_scorers_plural_tests_written_as_corefud_score_as_the_scorer(tmp_path):
    """UA -> CoNLL-U keeps what the scorer's plural tests hold: the converted pairs, scored with the UA options,
    give the UA scorer's stored report on the UA files."""
    from fastscore.ua.report import render
    from tests.ua_cases import anchors as ua_anchors
    from tests.ua_cases import write_case

    names = [n for n in ua_anchors()["cases"] if n.startswith("plural:")]
    assert len(names) >= 10
    for name in names:
        key, sys_ = write_case(name, tmp_path)
        convert_ua_to_conllu(key, key + ".conllu")
        convert_ua_to_conllu(sys_, sys_ + ".conllu")
        result = score_coref(key + ".conllu", sys_ + ".conllu", format="conllu", split_antecedents="keep")
        assert render(result) == ua_anchors()["cases"][name]["default"]["report"], name


def test_white_space_in_a_column_is_warned_with_its_line(tmp_path):
    path = tmp_path / "k.conllu"
    path.write_text(DOC.format(links="").replace("2\tB\t_", "2\tB\tb b"))
    ua = corefud_as_ua(str(path))
    assert ua.lost["white_space"] == 1 and ua.first["white_space"] == "line 5 (document 'd', token 2)"


def test_standard_input_is_read_once_with_the_ua_options(tmp_path, monkeypatch):
    import types

    path = tmp_path / "k.conllu"
    path.write_text(DOC.format(links="|SplitAnte=e1<e3,e2<e3"))
    out = tmp_path / "k.ua"
    monkeypatch.setattr("sys.stdin", types.SimpleNamespace(buffer=io.BytesIO(path.read_bytes())))
    rc, _, err = _cli("convert", "-", str(out), "--to", "ua")
    assert rc == 0, err
    assert out.read_text() == corefud_as_ua(str(path)).text
    monkeypatch.setattr("sys.stdin", types.SimpleNamespace(buffer=io.BytesIO(path.read_bytes())))
    rc, _, err = _cli("coref", "-", str(path), "--format", "conllu", "--split-antecedents", "keep")
    assert rc == 0, err
    ua = tmp_path / "k2.ua"
    ua.write_text(corefud_as_ua(str(path)).text)
    monkeypatch.setattr("sys.stdin", types.SimpleNamespace(buffer=io.BytesIO(ua.read_bytes())))
    rc, _, err = _cli("convert", "-", str(tmp_path / "back.conllu"), "--to", "conllu", "--from", "ua")
    assert rc == 0, err
    assert (tmp_path / "back.conllu").read_text() == _converted(str(ua), tmp_path / "file.conllu")


def _converted(ua: str, out) -> str:
    rc, _, err = _cli("convert", ua, str(out), "--to", "conllu")
    assert rc == 0, err
    return out.read_text()


def test_report_layouts_of_the_other_scorer_name_the_ua_options(tmp_path):
    path = tmp_path / "k.conllu"
    path.write_text(DOC.format(links=""))
    rc, _, err = _cli("coref", str(path), str(path), "--output", "ua")
    assert rc == 2 and "CoNLL-U with a UA option (--split-antecedents" in err
    rc, _, err = _cli("coref", str(path), str(path), "--bridging", "--output", "corefud")
    assert rc == 2 and "or CoNLL-U with a UA option) use --output ua" in err
