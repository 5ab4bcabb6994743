"""Inputs EvmEval reads its own way (issue 36): fastscore prints EvmEval's figures and warns, or, where EvmEval
fails on an input whose intended number is plain, scores it and says that EvmEval fails; --fix-evmeval-quirks
(fix_evmeval_quirks=True) reads the input as it is meant.  The slow differential cases
(tests/test_nugget_differential.py, test_evmeval_differential_quirks) compare the same against EvmEval's output."""
import pytest

from fastscore.cli import main
from fastscore.nugget.score import score_nugget  # the internal function: result.warnings, nothing else

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
